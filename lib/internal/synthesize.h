/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/synthesize.h - what lib/synthesize.c (the records) and
 * lib/synthesize-features.c (the host's header features) share: the options
 * resolved into directories, the record buffer, and the small readers of
 * /proc and /sys files.
 */
#ifndef SAMPO_INTERNAL_SYNTHESIZE_H
#define SAMPO_INTERNAL_SYNTHESIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/synthesize.h>

#define SAMPO_SYNTH_BUF_SIZE 8192 /* a map record: 72 bytes + PATH_MAX name + trailer */

struct sampo_synth {
	const char *proc;
	const char *sys;
	const char *modules;
	const char *release;
	char release_buf[65];
	size_t sid_size;
	bool mmap_data;
	bool namespaces;
	sampo_synth_fn fn;
	void *ctx;
	uint64_t buf[SAMPO_SYNTH_BUF_SIZE / 8];
};

/* Resolve @opts (default directories, uname -r); -EINVAL for bad opts. */
int sampo_synthesize__init(struct sampo_synth *s, const struct sampo_synth_opts *opts,
			   sampo_synth_fn fn, void *ctx);

/* Read a small file into @buf (NUL terminated, trailing newline dropped). */
int sampo_synthesize__read_line(const char *path, char *buf, size_t size);

/* The number in a small file, in @base: 0, or a negative errno (-EINVAL: not a number). */
int sampo_synthesize__read_u64(const char *path, int base, uint64_t *ret);

/* qsort() comparator of ints, increasing. */
int sampo_synthesize__cmp_int(const void *a, const void *b);

#endif
