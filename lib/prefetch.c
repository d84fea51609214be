// SPDX-License-Identifier: LGPL-2.1
/*
 * prefetch.c - the reader's threaded mode: a second thread reads, decodes
 * and orders records ahead of the caller, batches of events at a time.
 *
 * The thread calls the reader's own next() straight into the next event of a
 * batch and copies the record and payload into the batch only when they are
 * not stable (the sample's pointers moved along): a record of a file mapped
 * whole, or of a memory image, stays where it is until the reader closes. Full
 * batches wait in a list, at most PF_MAX_FULL of them, and the caller takes
 * one at a time: its next() is a copy out of the current batch, or a pointer
 * to the event in it (sampo_prefetch__next_ref()). Each batch
 * carries the reader's statistics as they were after its last event, so
 * sampo_reader__stats() says what the caller has seen, not what the thread
 * has read.
 *
 * Protocol: lock + one condition variable for both sides. The thread stops
 * at the end of the data, on an error (handed to the caller after the last
 * batch), or when the caller stops it; once it is done and drained the caller
 * joins it and the reading side's state is the caller's again.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal/prefetch.h"
#include "internal/util.h"

#define PF_BATCH_EVENTS 2048
#define PF_BATCH_BYTES (1U << 20)
#define PF_MAX_FULL 4 /* batches read ahead */

struct pbatch {
	struct pbatch *next;
	struct sampo_event *evs;
	size_t nr;
	uint8_t *buf;
	size_t used, cap;
	size_t in_place; /* bytes of the records left in place */
	struct sampo_reader_stats stats; /* after the last event of the batch */
};

struct sampo_prefetch {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pbatch *full, **full_tail, *free;
	size_t nr_full;
	bool stop; /* the caller closes the reader */
	bool done; /* the thread has handed out its last batch */
	bool joined;
	int final; /* what next() returns after the last batch: 0 or an error */
	struct pbatch *cur; /* the caller's */
	size_t cur_pos;
	struct sampo_reader_stats stats; /* the caller's view */
	sampo_prefetch_next_fn next;
	void *arg;
	const struct sampo_reader_stats *live; /* the reading side's, copied into each batch */
	const uint8_t *stable_lo, *stable_hi; /* bytes that stay valid until close */
};

static void pbatch_free(struct pbatch *b)
{
	if (b) {
		free(b->evs);
		free(b->buf);
		free(b);
	}
}

static void relocate_sample(struct sampo_sample *s, const void *from, const void *to)
{
	ptrdiff_t delta = (const uint8_t *)to - (const uint8_t *)from;

#define MOVE(ptr) ((ptr) = (ptr) ? (__typeof__(ptr))((const uint8_t *)(ptr) + delta) : NULL)
	MOVE(s->read_values);
	MOVE(s->callchain);
	MOVE(s->raw_data);
	MOVE(s->branch);
	MOVE(s->user_regs.regs);
	MOVE(s->user_stack);
	MOVE(s->intr_regs.regs);
	MOVE(s->aux_data);
#undef MOVE
}

static bool pf_stable(const struct sampo_prefetch *pf, const void *p)
{
	return (const uint8_t *)p >= pf->stable_lo && (const uint8_t *)p < pf->stable_hi;
}

/*
 * Keep the event read into b->evs[b->nr] (@e): copy into the batch what of
 * its record and payload is not stable. False when that does not fit (the
 * event is left as it is, to start the next batch).
 */
static bool pbatch_keep(const struct sampo_prefetch *pf, struct pbatch *b, struct sampo_event *e)
{
	bool rec_stable = pf_stable(pf, e->record);
	/* a payload too big for the source window comes without its bytes (NULL) */
	bool pay_copy = e->payload_size && e->payload && !pf_stable(pf, e->payload);
	size_t rec_size = rec_stable ? 0 : ALIGN_UP((size_t)e->record->header.size, 8);
	size_t need = rec_size + (pay_copy ? ALIGN_UP(e->payload_size, 8) : 0);
	uint8_t *rec;

	/*
	 * Records left in place count against the batch's bytes as copies do:
	 * they are what the reader must keep mapped until the caller is done
	 * with the batch (sampo_source__drop_before())
	 */
	if (rec_stable && b->nr && b->used + b->in_place + e->record->header.size > b->cap)
		return false;
	if (rec_stable)
		b->in_place += e->record->header.size;
	if (!need) {
		b->nr++;
		return true;
	}
	if (b->used + b->in_place + need > b->cap && b->nr) {
		if (rec_stable)
			b->in_place -= e->record->header.size;
		return false;
	}
	if (b->used + need > b->cap) {
		/* one record bigger than a batch (a large AUXTRACE): a batch of its own */
		uint8_t *nb = realloc(b->buf, need);

		if (!nb)
			return false;
		b->buf = nb;
		b->cap = need;
	}
	rec = b->buf + b->used;
	if (!rec_stable) {
		memcpy(rec, e->record, e->record->header.size);
		relocate_sample(&e->sample, e->record, rec);
		e->record = (const union sampo_record *)rec;
	}
	if (pay_copy) {
		memcpy(rec + rec_size, e->payload, e->payload_size);
		e->payload = rec + rec_size;
	}
	b->used += need;
	b->nr++;
	return true;
}

static struct pbatch *pf_get_free(struct sampo_prefetch *pf)
{
	struct pbatch *b;

	pthread_mutex_lock(&pf->lock);
	while (pf->nr_full >= PF_MAX_FULL && !pf->stop)
		pthread_cond_wait(&pf->cond, &pf->lock);
	b = pf->stop ? NULL : pf->free;
	if (b)
		pf->free = b->next;
	pthread_mutex_unlock(&pf->lock);
	if (b || pf->stop)
		return b;
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->evs = malloc(PF_BATCH_EVENTS * sizeof(*b->evs));
	b->buf = malloc(PF_BATCH_BYTES);
	b->cap = PF_BATCH_BYTES;
	if (!b->evs || !b->buf) {
		pbatch_free(b);
		return NULL;
	}
	return b;
}

/* hand @b to the caller: it goes to the end of the list of full batches */
static void pf_push(struct sampo_prefetch *pf, struct pbatch *b)
{
	b->stats = *pf->live;
	pthread_mutex_lock(&pf->lock);
	b->next = NULL;
	*pf->full_tail = b;
	pf->full_tail = &b->next;
	pf->nr_full++;
	pthread_cond_broadcast(&pf->cond);
	pthread_mutex_unlock(&pf->lock);
}

static void pf_put_free(struct sampo_prefetch *pf, struct pbatch *b)
{
	pthread_mutex_lock(&pf->lock);
	b->next = pf->free;
	pf->free = b;
	pthread_mutex_unlock(&pf->lock);
}

/*
 * hand @full (if any) to the consumer and take an empty batch; NULL when out
 * of memory or told to stop (*@ret then says which)
 */
static struct pbatch *pf_next_batch(struct sampo_prefetch *pf, struct pbatch *full, int *ret)
{
	struct pbatch *b;

	if (full)
		pf_push(pf, full);
	b = pf_get_free(pf);
	if (!b) {
		*ret = pf->stop ? 0 : -ENOMEM;
		return NULL;
	}
	b->nr = 0;
	b->used = 0;
	b->in_place = 0;
	return b;
}

static void *pf_thread(void *arg)
{
	struct sampo_prefetch *pf = arg;
	struct pbatch *b = NULL;
	int ret = 1;

	for (;;) {
		struct sampo_event *e;

		if (!b || b->nr == PF_BATCH_EVENTS) {
			/* the reader must still see the end, even out of memory */
			b = pf_next_batch(pf, b, &ret);
			if (!b)
				break;
		}
		e = &b->evs[b->nr];
		ret = pf->next(pf->arg, e);
		if (ret <= 0)
			break;
		if (!pbatch_keep(pf, b, e)) {
			/* full: this event starts the next batch (its record stays valid) */
			struct sampo_event ev = *e;

			b = pf_next_batch(pf, b, &ret);
			if (!b)
				break;
			b->evs[0] = ev;
			if (!pbatch_keep(pf, b, &b->evs[0])) {
				pf_put_free(pf, b);
				b = NULL;
				ret = pf->stop ? 0 : -ENOMEM;
				break;
			}
		}
	}
	pthread_mutex_lock(&pf->lock);
	if (b) {
		b->stats = *pf->live;
		b->next = NULL;
		*pf->full_tail = b;
		pf->full_tail = &b->next;
		pf->nr_full++;
	}
	pf->final = ret;
	pf->done = true;
	pthread_cond_broadcast(&pf->cond);
	pthread_mutex_unlock(&pf->lock);
	return NULL;
}

struct sampo_prefetch *sampo_prefetch__start(sampo_prefetch_next_fn next, void *arg,
					     const struct sampo_reader_stats *live,
					     const uint8_t *stable_lo, const uint8_t *stable_hi)
{
	struct sampo_prefetch *pf = calloc(1, sizeof(*pf));

	if (!pf)
		return NULL;
	pthread_mutex_init(&pf->lock, NULL);
	pthread_cond_init(&pf->cond, NULL);
	pf->full_tail = &pf->full;
	pf->next = next;
	pf->arg = arg;
	pf->live = live;
	pf->stats = *live;
	pf->stable_lo = stable_lo;
	pf->stable_hi = stable_hi;
	if (pthread_create(&pf->thread, NULL, pf_thread, pf)) {
		pthread_mutex_destroy(&pf->lock);
		pthread_cond_destroy(&pf->cond);
		free(pf);
		return NULL;
	}
	return pf;
}

void sampo_prefetch__stop(struct sampo_prefetch *pf)
{
	struct pbatch *b, *n;

	if (!pf)
		return;
	pthread_mutex_lock(&pf->lock);
	pf->stop = true;
	pthread_cond_broadcast(&pf->cond);
	pthread_mutex_unlock(&pf->lock);
	if (!pf->joined)
		pthread_join(pf->thread, NULL);
	for (b = pf->full; b; b = n) {
		n = b->next;
		pbatch_free(b);
	}
	for (b = pf->free; b; b = n) {
		n = b->next;
		pbatch_free(b);
	}
	pbatch_free(pf->cur);
	pthread_mutex_destroy(&pf->lock);
	pthread_cond_destroy(&pf->cond);
	free(pf);
}

int sampo_prefetch__next(struct sampo_prefetch *pf, struct sampo_event *ev)
{
	const struct sampo_event *e = NULL;
	int ret = sampo_prefetch__next_ref(pf, &e);

	if (ret > 0 && e)
		*ev = *e;
	return ret;
}

int sampo_prefetch__next_ref(struct sampo_prefetch *pf, const struct sampo_event **ev)
{
	for (;;) {
		if (pf->cur && pf->cur_pos < pf->cur->nr) {
			*ev = &pf->cur->evs[pf->cur_pos++];
			return 1;
		}
		pthread_mutex_lock(&pf->lock);
		if (pf->cur) {
			pf->cur->next = pf->free;
			pf->free = pf->cur;
			pf->cur = NULL;
			pthread_cond_broadcast(&pf->cond);
		}
		while (!pf->full && !pf->done)
			pthread_cond_wait(&pf->cond, &pf->lock);
		if (pf->full) {
			pf->cur = pf->full;
			pf->full = pf->cur->next;
			if (!pf->full)
				pf->full_tail = &pf->full;
			pf->nr_full--;
			pf->cur_pos = 0;
			pf->stats = pf->cur->stats;
			pthread_cond_broadcast(&pf->cond);
			pthread_mutex_unlock(&pf->lock);
			continue;
		}
		pthread_mutex_unlock(&pf->lock);
		/* done and drained: the thread is over, its state is ours again */
		if (!pf->joined) {
			pthread_join(pf->thread, NULL);
			pf->joined = true;
			pf->stats = *pf->live;
		}
		return pf->final;
	}
}

const struct sampo_reader_stats *sampo_prefetch__stats(const struct sampo_prefetch *pf)
{
	return &pf->stats;
}

bool sampo_prefetch__running(const struct sampo_prefetch *pf)
{
	return !pf->joined;
}
