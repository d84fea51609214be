/* SPDX-License-Identifier: GPL-2.0 */
/*
 * folded.h - folded stacks ("comm;caller;callee count"), the format of
 * perf's stackcollapse script and FlameGraph's stackcollapse-perf.pl, for
 * `sampo script --folded` (docs/format-folded.md)
 *
 *	struct folded *f;
 *
 *	folded_new(&opts, &f);
 *	for each sample:
 *		folded_begin(f, comm, pid, tid);
 *		for each frame, leaf first:
 *			folded_frame(f, sym_name_or_NULL, is_kernel);
 *		folded_end(f, 1);
 *	folded_write(f, &ob);	// sorted by stack, one line each
 *	folded_delete(f);
 *
 * Identical stacks are counted once, so memory follows the number of
 * distinct stacks, not of samples.
 */
#ifndef SAMPO_FOLDED_H
#define SAMPO_FOLDED_H

#include <stdbool.h>
#include <stdint.h>

#include "outbuf.h"

/* perf 6.1 stackcollapse.py's options */
struct folded_opts {
	bool kernel;	  /* --kernel: "_[k]" after the kernel's functions */
	bool include_pid; /* --include-pid: "comm-pid" */
	bool include_tid; /* --include-tid: "comm-tid", or "comm-pid/tid" with the pid */
	bool no_comm;	  /* --no-comm: stacks of all commands together, no comm frame */
	bool tidy_java;	  /* --tidy-java: "Lpkg/Cls;.m(I)V" as "pkg/Cls:.m" */
};

struct folded;

/* folded_new() - an empty set of stacks. Return: 0 or -ENOMEM */
int folded_new(const struct folded_opts *opts, struct folded **ret);
void folded_delete(struct folded *f);

/* folded_begin() - start the stack of one sample */
void folded_begin(struct folded *f, const char *comm, int32_t pid, int32_t tid);

/* folded_frame() - its next frame, leaf first; @sym NULL: not resolved */
void folded_frame(struct folded *f, const char *sym, bool kernel);

/* folded_end() - count the stack @count times. Return: 0 or -ENOMEM */
int folded_end(struct folded *f, uint64_t count);

/* folded_write() - "stack count\n" for each stack, in byte order of the stacks */
int folded_write(struct folded *f, struct outbuf *ob);

#endif /* SAMPO_FOLDED_H */
