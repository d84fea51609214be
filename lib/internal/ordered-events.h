/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/ordered-events.h - the reader's time-ordering queue (see
 * lib/ordered-events.c): records wait here and come out by (time, arrival),
 * round by round, as perf's ordered_events releases them.
 */
#ifndef SAMPO_INTERNAL_ORDERED_EVENTS_H
#define SAMPO_INTERNAL_ORDERED_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/event.h>

/* A chunk of the arena that holds the copies of queued records. */
struct sampo_oe_chunk {
	struct sampo_oe_chunk *next;
	size_t used;
	size_t live; /* queued records still in this chunk */
	uint8_t data[] __attribute__((aligned(8)));
};

/*
 * A queued record: its copy and where it came from. The reader decodes it
 * again when it comes out: cheaper than keeping (and copying twice) a whole
 * decoded event, which cost 40% of ordered reading.
 */
struct sampo_oe_slot {
	uint64_t time;
	union sampo_record *rec; /* in chunk, or in place (chunk NULL) */
	struct sampo_oe_chunk *chunk;
	uint64_t offset;
	uint32_t size; /* rec->header.size, kept here: the record is not touched until popped */
	bool decompressed;
};

/* A queued record's footprint besides its copy: its entries in pend, rel, tmp, slots, free_slots */
#define SAMPO_OE_ENTRY_BYTES (3 * sizeof(struct sampo_oe_entry) + sizeof(struct sampo_oe_slot) + \
			      sizeof(uint32_t))

/*
 * A queue entry: small, so that sorting moves 24 bytes instead of a whole
 * decoded event (that made ordered reading 6x slower than unordered).
 */
struct sampo_oe_entry {
	uint64_t time;
	uint64_t seq; /* arrival order: equal times keep it */
	uint32_t slot;
};

/*
 * Queued records wait in arrival order in pend[]. A flush (at a
 * FINISHED_ROUND, at the end, or when the queue is too big) moves those up
 * to the limit into rel[], sorted by (time, arrival), and hands them out in
 * that order: the order a heap would give, for the cost of a merge sort of
 * a few runs (each CPU's records arrive already sorted). Zero-initialized
 * is empty; sampo_ordered_events__release() frees it.
 */
struct sampo_ordered_events {
	struct sampo_oe_entry *pend, *rel, *tmp;
	size_t nr_pend, nr_rel, rel_pos;
	size_t nr, cap; /* nr: queued records, pend and not yet handed out rel */
	struct sampo_oe_slot *slots;
	size_t slots_cap;
	uint32_t *free_slots;
	size_t nr_free;
	uint64_t seq;
	uint64_t bytes;	      /* footprint of the queued records (copies and entries) */
	uint64_t max_time;    /* highest timestamp queued */
	uint64_t next_flush;  /* the next round releases records up to this time */
	uint64_t flush_limit; /* releasing now up to this (0: not releasing) */
	bool releasing;
	uint64_t last_flush; /* time of the last released record */
	struct sampo_oe_chunk *cur, *free_chunks;
	size_t nr_chunks;      /* allocated, free ones included */
	size_t nr_free_chunks;
	uint32_t out_slot; /* the record handed out last: recycled on the next call */
	bool out_valid;
	/*
	 * sampo_ordered_events__min_in_place(), kept between calls: records
	 * come in at growing offsets, so it changes only when the record at it
	 * leaves (a walk over tens of thousands of queued 8 KiB DWARF samples
	 * every 2 MiB read was 4% of a report)
	 */
	uint64_t min_in_place;
	bool min_in_place_known;
	uint64_t limit_bytes; /* footprint above which the older half comes out (0: the default) */
};

/*
 * Queue a copy of @rec (header.size bytes) with its @time, the @offset and
 * @decompressed flag to hand out with it. Above the footprint limit the
 * older half of the queued records starts coming out.
 * Return 0 or -ENOMEM.
 */
int sampo_ordered_events__queue(struct sampo_ordered_events *oe, const union sampo_record *rec,
				uint64_t time, uint64_t offset, bool decompressed);

/*
 * The next record released by a flush, or false when none is. The record
 * stays valid until the next call of sampo_ordered_events__pop() or
 * sampo_ordered_events__recycle().
 */
/*
 * sampo_ordered_events__queue_in_place() - as sampo_ordered_events__queue(),
 * but the queue keeps a pointer to @rec, no copy: @rec must stay valid and
 * unchanged until it has been popped and recycled (a record of a file mapped
 * whole, or of a caller's memory image).
 */
int sampo_ordered_events__queue_in_place(struct sampo_ordered_events *oe,
					 const union sampo_record *rec, uint64_t time,
					 uint64_t offset);

/*
 * sampo_ordered_events__min_in_place() - the lowest offset of a record queued
 * in place and not yet popped (UINT64_MAX: none), as given to
 * sampo_ordered_events__queue_in_place(); the record popped last counts too.
 * A walk over the queue when the record at the last answer has left since.
 */
uint64_t sampo_ordered_events__min_in_place(struct sampo_ordered_events *oe);

bool sampo_ordered_events__pop(struct sampo_ordered_events *oe, union sampo_record **ret_rec,
			       uint64_t *ret_offset, bool *ret_decompressed);

/* Give back the memory of the record popped last (the caller is done with it). */
void sampo_ordered_events__recycle(struct sampo_ordered_events *oe);

/* Release the queued records with a time up to @limit (UINT64_MAX: all). */
void sampo_ordered_events__flush(struct sampo_ordered_events *oe, uint64_t limit);

/*
 * A FINISHED_ROUND was read: release what the previous round queued (up to
 * its highest timestamp), and remember this round's highest for the next.
 */
void sampo_ordered_events__round(struct sampo_ordered_events *oe);

/* A record with @time (not yet queued) comes earlier than one already released. */
static inline bool sampo_ordered_events__late(const struct sampo_ordered_events *oe,
					      uint64_t time)
{
	return time < oe->last_flush;
}

/* Free everything, queued records included; @oe is empty again. */
void sampo_ordered_events__release(struct sampo_ordered_events *oe);

#endif
