/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collapse.h - folded stacks as FlameGraph's stackcollapse-perf.pl makes
 * them from the text of `perf script`, for `sampo script --folded=flamegraph`
 * (docs/format-folded.md)
 *
 * The collapser reads the text that `sampo script` prints (the same bytes as
 * `perf script`), in chunks of any size, and applies stackcollapse-perf.pl's
 * rules line by line: a sample line starts a stack (the comm, pid and tid
 * as its pattern cuts them, the period, the event), each frame line adds
 * frames, an empty line counts the stack with the sample's period. So the
 * output is what `perf script | stackcollapse-perf.pl` prints, quirks
 * included, because it is made from the same text by the same rules.
 *
 *	struct collapse *c;
 *
 *	collapse_new(&opts, &c);
 *	ob_init_sink(&ob, collapse_sink, c);	// script prints into it
 *	...
 *	ob_flush(&ob);
 *	collapse_finish(c);			// a last line without '\n'
 *	collapse_write(c, &out);		// "stack count\n", sorted
 *	collapse_delete(c);
 */
#ifndef SAMPO_COLLAPSE_H
#define SAMPO_COLLAPSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"

/* stackcollapse-perf.pl's options (--inline, --context and --srcline are not) */
struct collapse_opts {
	bool pid;		  /* --pid: "comm-PID" */
	bool tid;		  /* --tid: "comm-PID/TID" */
	bool kernel;		  /* --kernel: "_[k]" after kernel frames */
	bool jit;		  /* --jit: "_[j]" after frames of /tmp/perf-PID.map */
	bool addrs;		  /* --addrs: "[dso <ADDRESS>]" for unresolved frames */
	const char *event_filter; /* --event-filter: NULL, the first event seen */
};

struct collapse;

/* collapse_new() - an empty collapser. Return: 0 or -ENOMEM */
int collapse_new(const struct collapse_opts *opts, struct collapse **ret);
void collapse_delete(struct collapse *c);

/* collapse_feed() - more text; lines may be split anywhere. Return: 0 or -ENOMEM */
int collapse_feed(struct collapse *c, const char *data, size_t len);

/* collapse_sink() - collapse_feed() as an outbuf sink (ob_init_sink) */
int collapse_sink(void *c, const char *data, size_t len);

/* collapse_finish() - the end of the text: a last line without '\n' is read */
int collapse_finish(struct collapse *c);

/* collapse_write() - "stack count\n" for each stack, in byte order of the stacks */
int collapse_write(struct collapse *c, struct outbuf *ob);

/*
 * collapse_skipped_event() - the first event whose samples were left out
 * because they are not of the chosen event (NULL: none), and that event
 */
const char *collapse_skipped_event(const struct collapse *c, const char **kept);

/* collapse_unrecognized() - lines the rules did not recognize (the script warns of each) */
uint64_t collapse_unrecognized(const struct collapse *c);

#endif /* SAMPO_COLLAPSE_H */
