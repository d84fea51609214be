/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/prefetch.h - the reader's read-ahead thread (see lib/prefetch.c).
 */
#ifndef SAMPO_INTERNAL_PREFETCH_H
#define SAMPO_INTERNAL_PREFETCH_H

#include <sampo/reader.h>

struct sampo_prefetch;

/* The reading side: as sampo_reader__next(), 1 per event, 0 at the end, or -errno. */
typedef int (*sampo_prefetch_next_fn)(void *arg, struct sampo_event *ev);

/*
 * Start a thread that calls @next(@arg, ...) ahead of the caller. @live is the
 * reading side's statistics, copied with each batch. Return NULL when no
 * thread can be started (out of memory, no threads): read without one.
 */
struct sampo_prefetch *sampo_prefetch__start(sampo_prefetch_next_fn next, void *arg,
					     const struct sampo_reader_stats *live,
					     const uint8_t *stable_lo, const uint8_t *stable_hi);

/*
 * The next event, valid until the next call: 1, then what @next returned at
 * the end (0 or -errno; -ENOMEM also when a batch could not be allocated).
 */
int sampo_prefetch__next(struct sampo_prefetch *pf, struct sampo_event *ev);

/*
 * As sampo_prefetch__next(), the event left in its batch: *@ev points to it
 * until the next call.
 */
int sampo_prefetch__next_ref(struct sampo_prefetch *pf, const struct sampo_event **ev);

/* The statistics as of the last event handed to the caller. */
const struct sampo_reader_stats *sampo_prefetch__stats(const struct sampo_prefetch *pf);

/* The thread still runs: it owns the reading side (its source, its state). */
bool sampo_prefetch__running(const struct sampo_prefetch *pf);

/* Stop and join the thread, free the batches and @pf (NULL: nothing). */
void sampo_prefetch__stop(struct sampo_prefetch *pf);

#endif
