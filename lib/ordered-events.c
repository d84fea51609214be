// SPDX-License-Identifier: LGPL-2.1
/*
 * ordered-events.c - the time-ordering queue of the reader's ordered mode,
 * perf's ordered_events.
 *
 * Records with a timestamp are queued; they come out sorted by (time,
 * arrival) when a flush releases them:
 *
 *	FINISHED_ROUND	everything up to the highest timestamp of the round
 *			before (perf's OE_FLUSH__ROUND): a record of this round
 *			may still be overtaken by one of the next
 *	end of data	everything (OE_FLUSH__FINAL)
 *	too big		the older half of the queued records, when their
 *			footprint exceeds OE_LIMIT_BYTES
 *
 * Records that arrive while a flush is handing out wait for the next one;
 * equal times keep their arrival order, as perf's list insertion does.
 *
 * Memory: the copies of queued records live in arena chunks of
 * OE_CHUNK_SIZE, recycled when their last record has been handed out; the
 * record popped last stays valid until the next pop or recycle. A record
 * that stays valid anyway (a file mapped whole) is queued in place, as a
 * pointer: no copy, no chunk, only its entries count against the bound. Entries are
 * 24-byte {time, seq, slot} so that sorting never moves a record.
 *
 * The bound counts the real footprint of a queued record: its copy and its
 * entries in the four arrays (SAMPO_OE_ENTRY_BYTES), not only its bytes
 * (16-byte records cost 10 times their size: a bound on record bytes let a
 * 185 KB file take 3.2 GB). Over the bound the older half of the records (by
 * count, not perf's half of the time span, so that each flush frees half
 * whatever the times) comes out, and the records left behind are copied
 * into fresh chunks when the chunks they pin hold mostly released records,
 * so that a few records cannot keep every chunk alive. perf's own queue has
 * no bound by default.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal/ordered-events.h"
#include "internal/util.h"

#define OE_LIMIT_BYTES (256ULL << 20) /* queued footprint before half the queue is flushed */
#define OE_CHUNK_SIZE (1U << 20)
#define OE_PREFETCH_SLOT 16 /* pop: the slot this many records ahead is fetched */
#define OE_PREFETCH_REC 8    /* ... and the record this many ahead */
#define OE_SPARE_CHUNKS 2 /* free chunks kept for reuse; the others go back to malloc */

/* what a queued record costs besides its copy (the entry arrays, grown by doubling) */
static uint64_t rec_footprint(size_t size)
{
	return ALIGN_UP(size, 8) + SAMPO_OE_ENTRY_BYTES;
}

static bool qent_le(const struct sampo_oe_entry *a, const struct sampo_oe_entry *b)
{
	return a->time < b->time || (a->time == b->time && a->seq <= b->seq);
}

/* bottom-up natural merge sort by (time, arrival), through @tmp */
static void qent_sort(struct sampo_oe_entry *a, size_t n, struct sampo_oe_entry *tmp)
{
	struct sampo_oe_entry *src = a, *dst = tmp, *t;
	size_t runs;

	do {
		size_t i = 0;

		runs = 0;
		while (i < n) {
			size_t m = i + 1, e, x, y, o = i;

			while (m < n && qent_le(&src[m - 1], &src[m]))
				m++;
			e = m;
			if (m < n) {
				e = m + 1;
				while (e < n && qent_le(&src[e - 1], &src[e]))
					e++;
			}
			for (x = i, y = m; x < m && y < e;)
				dst[o++] = qent_le(&src[x], &src[y]) ? src[x++] : src[y++];
			while (x < m)
				dst[o++] = src[x++];
			while (y < e)
				dst[o++] = src[y++];
			i = e;
			runs++;
		}
		t = src;
		src = dst;
		dst = t;
	} while (runs > 1);
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/* A chunk nobody uses: kept for reuse, or freed when enough are kept. */
static void chunk_free(struct sampo_ordered_events *q, struct sampo_oe_chunk *c)
{
	if (q->nr_free_chunks >= OE_SPARE_CHUNKS) {
		free(c);
		q->nr_chunks--;
		return;
	}
	c->next = q->free_chunks;
	q->free_chunks = c;
	q->nr_free_chunks++;
}

static void *arena_alloc(struct sampo_ordered_events *q, size_t size, struct sampo_oe_chunk **chunk)
{
	struct sampo_oe_chunk *c = q->cur;
	void *p;

	size = ALIGN_UP(size, 8);
	if (!c || c->used + size > OE_CHUNK_SIZE) {
		c = q->free_chunks;
		if (c) {
			q->free_chunks = c->next;
			q->nr_free_chunks--;
		} else {
			c = malloc(sizeof(*c) + OE_CHUNK_SIZE);
			if (!c)
				return NULL;
			q->nr_chunks++;
		}
		c->next = NULL;
		c->used = 0;
		c->live = 0;
		if (q->cur && q->cur->live == 0)
			chunk_free(q, q->cur);
		q->cur = c;
	}
	p = c->data + c->used;
	c->used += size;
	c->live++;
	*chunk = c;
	return p;
}

static void arena_put(struct sampo_ordered_events *q, struct sampo_oe_chunk *c)
{
	if (!c)
		return; /* queued in place */
	if (--c->live == 0 && c != q->cur) {
		chunk_free(q, c);
	} else if (c->live == 0) {
		c->used = 0; /* the current chunk empties: reuse it from the start */
	}
}

void sampo_ordered_events__release(struct sampo_ordered_events *q)
{
	struct sampo_oe_chunk *c, *n;

	for (c = q->free_chunks; c; c = n) {
		n = c->next;
		free(c);
	}
	/* chunks still referenced by queued records */
	for (size_t i = q->rel_pos; i < q->nr_rel; i++) {
		c = q->slots[q->rel[i].slot].chunk;
		if (c && c != q->cur && --c->live == 0)
			free(c);
	}
	for (size_t i = 0; i < q->nr_pend; i++) {
		c = q->slots[q->pend[i].slot].chunk;
		if (c && c != q->cur && --c->live == 0)
			free(c);
	}
	if (q->out_valid) {
		c = q->slots[q->out_slot].chunk;
		if (c && c != q->cur && --c->live == 0)
			free(c);
	}
	free(q->cur);
	free(q->pend);
	free(q->rel);
	free(q->tmp);
	free(q->slots);
	free(q->free_slots);
	memset(q, 0, sizeof(*q));
}

/* the record handed out last leaves: was it the lowest one in place? */
static void out_leaves(struct sampo_ordered_events *q)
{
	const struct sampo_oe_slot *e = &q->slots[q->out_slot];

	if (q->min_in_place_known && !e->chunk && e->offset == q->min_in_place)
		q->min_in_place_known = false;
}

void sampo_ordered_events__recycle(struct sampo_ordered_events *q)
{
	if (!q->out_valid)
		return;
	out_leaves(q);
	arena_put(q, q->slots[q->out_slot].chunk);
	q->free_slots[q->nr_free++] = q->out_slot;
	q->out_valid = false;
}

void sampo_ordered_events__flush(struct sampo_ordered_events *q, uint64_t limit)
{
	size_t keep = 0;

	q->flush_limit = limit;
	q->releasing = limit != 0;
	if (!q->releasing)
		return;
	/* what an earlier release left (none: they run to the end first) waits again */
	for (size_t i = q->rel_pos; i < q->nr_rel; i++)
		q->pend[q->nr_pend++] = q->rel[i];
	q->nr_rel = q->rel_pos = 0;
	for (size_t i = 0; i < q->nr_pend; i++) {
		if (q->pend[i].time <= limit)
			q->rel[q->nr_rel++] = q->pend[i];
		else
			q->pend[keep++] = q->pend[i];
	}
	q->nr_pend = keep;
	qent_sort(q->rel, q->nr_rel, q->tmp);
}

void sampo_ordered_events__round(struct sampo_ordered_events *q)
{
	sampo_ordered_events__flush(q, q->next_flush);
	if (q->nr)
		q->next_flush = q->max_time;
}

/*
 * The chunks hold mostly records already released, pinned by a few that wait:
 * copy those into fresh chunks (the old ones are freed as the released
 * records are handed out). Called at a flush, when at least half of the
 * footprint goes: the copying is paid for by the records queued since.
 */
static int ordered_events_compact(struct sampo_ordered_events *q)
{
	uint64_t live = 0;

	for (size_t i = 0; i < q->nr_pend; i++)
		if (q->slots[q->pend[i].slot].chunk)
			live += ALIGN_UP(q->slots[q->pend[i].slot].size, 8);
	if ((uint64_t)q->nr_chunks * OE_CHUNK_SIZE <= 2 * live + 2ULL * OE_CHUNK_SIZE)
		return 0;
	if (q->cur && q->cur->live == 0)
		chunk_free(q, q->cur);
	q->cur = NULL; /* the copies go to fresh chunks */
	for (size_t i = 0; i < q->nr_pend; i++) {
		struct sampo_oe_slot *e = &q->slots[q->pend[i].slot];
		struct sampo_oe_chunk *old = e->chunk, *nc;
		size_t size = e->size;
		void *copy;

		if (!old)
			continue; /* in place */
		copy = arena_alloc(q, size, &nc);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, e->rec, size);
		e->rec = copy;
		e->chunk = nc;
		if (--old->live == 0)
			chunk_free(q, old);
	}
	return 0;
}

/* Over the bound: release the older half of the queued records, by (time, arrival). */
static int ordered_events_flush_half(struct sampo_ordered_events *q)
{
	size_t k;

	/* what an earlier release left (none: they run to the end first) waits again */
	for (size_t i = q->rel_pos; i < q->nr_rel; i++)
		q->pend[q->nr_pend++] = q->rel[i];
	q->nr_rel = q->rel_pos = 0;
	if (!q->nr_pend)
		return 0;
	qent_sort(q->pend, q->nr_pend, q->tmp);
	k = (q->nr_pend + 1) / 2;
	memcpy(q->rel, q->pend, k * sizeof(*q->rel));
	memmove(q->pend, q->pend + k, (q->nr_pend - k) * sizeof(*q->pend));
	q->nr_rel = k;
	q->nr_pend -= k;
	q->flush_limit = q->rel[k - 1].time;
	q->releasing = true;
	return ordered_events_compact(q);
}

static int oe_queue(struct sampo_ordered_events *q, const union sampo_record *rec, uint64_t time,
		    uint64_t offset, bool decompressed, bool in_place)
{
	struct sampo_oe_slot *e;
	size_t size = rec->header.size;
	uint32_t slot;

	/* one slot more than queued records: the record handed out last */
	if (q->nr + 1 >= q->cap) {
		size_t ncap = q->cap ? q->cap * 2 : 4096;
		struct sampo_oe_entry *np = realloc(q->pend, ncap * sizeof(*np));
		struct sampo_oe_entry *nr, *nt;
		struct sampo_oe_slot *ns;
		uint32_t *nf;

		if (np)
			q->pend = np;
		nr = realloc(q->rel, ncap * sizeof(*nr));
		if (nr)
			q->rel = nr;
		nt = realloc(q->tmp, ncap * sizeof(*nt));
		if (nt)
			q->tmp = nt;
		ns = realloc(q->slots, ncap * sizeof(*ns));
		if (ns)
			q->slots = ns;
		nf = realloc(q->free_slots, ncap * sizeof(*nf));
		if (nf)
			q->free_slots = nf;
		if (!np || !nr || !nt || !ns || !nf || ncap > UINT32_MAX)
			return -ENOMEM;
		q->cap = ncap;
	}
	/* slots in use = queued records + the one handed out last */
	if (q->nr_free)
		slot = q->free_slots[--q->nr_free];
	else
		slot = (uint32_t)q->slots_cap++;
	if (slot >= q->cap)
		return -ENOMEM;
	e = &q->slots[slot];
	if (in_place) {
		e->chunk = NULL;
		e->rec = (union sampo_record *)rec;
	} else {
		void *copy = arena_alloc(q, size, &e->chunk);

		if (!copy) {
			q->free_slots[q->nr_free++] = slot;
			return -ENOMEM;
		}
		memcpy(copy, rec, size);
		e->rec = copy;
	}
	e->size = (uint32_t)size;
	e->offset = offset;
	e->decompressed = decompressed;
	e->time = time;
	q->pend[q->nr_pend].time = time;
	q->pend[q->nr_pend].seq = q->seq++;
	q->pend[q->nr_pend].slot = slot;
	q->nr_pend++;
	if (time > q->max_time)
		q->max_time = time;
	/* a record in place costs its entries: its pages are the source's */
	q->bytes += in_place ? SAMPO_OE_ENTRY_BYTES : rec_footprint(size);
	q->nr++;
	if (q->bytes > (q->limit_bytes ? q->limit_bytes : OE_LIMIT_BYTES) && !q->releasing)
		return ordered_events_flush_half(q);
	return 0;
}

int sampo_ordered_events__queue(struct sampo_ordered_events *q, const union sampo_record *rec,
				uint64_t time, uint64_t offset, bool decompressed)
{
	return oe_queue(q, rec, time, offset, decompressed, false);
}

int sampo_ordered_events__queue_in_place(struct sampo_ordered_events *q,
					 const union sampo_record *rec, uint64_t time,
					 uint64_t offset)
{
	int err = oe_queue(q, rec, time, offset, false, true);

	if (!err && q->min_in_place_known && offset < q->min_in_place)
		q->min_in_place = offset;
	return err;
}

uint64_t sampo_ordered_events__min_in_place(struct sampo_ordered_events *q)
{
	uint64_t min = UINT64_MAX;
	const struct sampo_oe_slot *e;

	if (q->min_in_place_known)
		return q->min_in_place;

	for (size_t i = 0; i < q->nr_pend; i++) {
		e = &q->slots[q->pend[i].slot];
		if (!e->chunk && e->offset < min)
			min = e->offset;
	}
	for (size_t i = q->rel_pos; i < q->nr_rel; i++) {
		e = &q->slots[q->rel[i].slot];
		if (!e->chunk && e->offset < min)
			min = e->offset;
	}
	if (q->out_valid) {
		e = &q->slots[q->out_slot];
		if (!e->chunk && e->offset < min)
			min = e->offset;
	}
	q->min_in_place = min;
	q->min_in_place_known = true;
	return min;
}

bool sampo_ordered_events__pop(struct sampo_ordered_events *q, union sampo_record **ret_rec,
			       uint64_t *ret_offset, bool *ret_decompressed)
{
	struct sampo_oe_slot *out;

	if (!q->releasing || q->rel_pos >= q->nr_rel) {
		q->releasing = false;
		q->nr_rel = q->rel_pos = 0;
		return false;
	}
	/*
	 * The slots and records of a round were written long ago and come out
	 * in time order, not in the order they were written: fetch them ahead
	 * (the slot further ahead, the record of a nearer one, whose slot
	 * should be in by now), or each pop waits for a cache miss or two.
	 */
	if (q->rel_pos + OE_PREFETCH_SLOT < q->nr_rel)
		__builtin_prefetch(&q->slots[q->rel[q->rel_pos + OE_PREFETCH_SLOT].slot]);
	if (q->rel_pos + OE_PREFETCH_REC < q->nr_rel) {
		const uint8_t *ahead = (const uint8_t *)q->slots[q->rel[q->rel_pos + OE_PREFETCH_REC].slot].rec;

		__builtin_prefetch(ahead);
		__builtin_prefetch(ahead + 64);
	}
	if (q->out_valid)
		out_leaves(q); /* not recycled: it no longer counts all the same */
	q->out_slot = q->rel[q->rel_pos++].slot;
	out = &q->slots[q->out_slot];
	q->out_valid = true;
	q->nr--;
	q->bytes -= out->chunk ? rec_footprint(out->size) : SAMPO_OE_ENTRY_BYTES;
	q->last_flush = out->time;
	*ret_rec = out->rec;
	*ret_offset = out->offset;
	*ret_decompressed = out->decompressed;
	return true;
}
