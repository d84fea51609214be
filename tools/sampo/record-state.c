// SPDX-License-Identifier: GPL-2.0
/*
 * record-state.c - record --switch-output: the threads and maps so far, fed
 * in time order (see record-state.h).
 *
 * The queue holds copies of the few records that change the state (COMM,
 * FORK, EXIT, MMAP, MMAP2: a handful a pass, not the samples), each with its
 * time and arrival number; end_round sorts it on (time, arrival), applies
 * the head up to the watermark and keeps the tail for the next pass.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/sample.h>

#include "record-state.h"

struct queued {
	uint64_t time;
	uint64_t seq; /* arrival: equal times keep their order */
	union sampo_record *rec;
};

struct record_state {
	struct sampo_event_attr attr;
	struct sampo_machine *machine;
	struct queued *q;
	size_t nr, cap;
	uint64_t seq;
	uint64_t max_time;  /* the highest time queued so far */
	uint64_t watermark; /* max_time when the last pass ended: what is safe to apply */
};

int record_state__new(const struct sampo_event_attr *attr, struct record_state **ret)
{
	struct record_state *s = calloc(1, sizeof(*s));

	*ret = NULL;
	if (!s)
		return -ENOMEM;
	s->attr = *attr;
	s->machine = sampo_machine__new();
	if (!s->machine) {
		free(s);
		return -ENOMEM;
	}
	*ret = s;
	return 0;
}

void record_state__delete(struct record_state *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++)
		free(s->q[i].rec);
	free(s->q);
	sampo_machine__delete(s->machine);
	free(s);
}

static bool changes_state(const union sampo_record *rec)
{
	switch (rec->header.type) {
	case SAMPO_RECORD_COMM:
	case SAMPO_RECORD_FORK:
	case SAMPO_RECORD_EXIT:
	case SAMPO_RECORD_MMAP:
	case SAMPO_RECORD_MMAP2:
		return true;
	default:
		return false;
	}
}

int record_state__apply(struct record_state *s, const union sampo_record *rec)
{
	struct sampo_event ev = { .record = rec, .attr_idx = 0, .has_sample_id = true };
	int err;

	if (!changes_state(rec) || sampo_sample__parse(&s->attr, rec, false, &ev.sample))
		return 0;
	err = sampo_machine__process_event(s->machine, &ev);
	/* a record the machine refuses (malformed) changes nothing; the file has it as it is */
	return err == -ENOMEM ? err : 0;
}

int record_state__queue(struct record_state *s, const union sampo_record *rec)
{
	struct sampo_sample sample;
	struct queued *e;

	if (!changes_state(rec) || sampo_sample__parse(&s->attr, rec, false, &sample))
		return 0;
	if (sample.time == (uint64_t)-1) /* no time to order it by: as it comes */
		return record_state__apply(s, rec);
	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct queued *q = realloc(s->q, cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		s->q = q;
		s->cap = cap;
	}
	e = &s->q[s->nr];
	e->rec = malloc(rec->header.size);
	if (!e->rec)
		return -ENOMEM;
	memcpy(e->rec, rec, rec->header.size);
	e->time = sample.time;
	e->seq = s->seq++;
	s->nr++;
	if (sample.time > s->max_time)
		s->max_time = sample.time;
	return 0;
}

static int queued_cmp(const void *pa, const void *pb)
{
	const struct queued *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* the queued records up to @upto, in time order; the later ones stay */
static int apply_upto(struct record_state *s, uint64_t upto)
{
	size_t done = 0;
	int err = 0;

	if (s->nr > 1)
		qsort(s->q, s->nr, sizeof(s->q[0]), queued_cmp);
	while (done < s->nr && s->q[done].time <= upto && !err) {
		err = record_state__apply(s, s->q[done].rec);
		free(s->q[done].rec);
		done++;
	}
	memmove(s->q, s->q + done, (s->nr - done) * sizeof(s->q[0]));
	s->nr -= done;
	return err;
}

int record_state__end_round(struct record_state *s)
{
	int err = apply_upto(s, s->watermark);

	/* perf's OE_FLUSH__ROUND: a pass's records may be overtaken only by the next pass's */
	if (s->max_time > s->watermark)
		s->watermark = s->max_time;
	return err;
}

int record_state__synthesize(struct record_state *s, const struct sampo_synth_opts *opts,
			     sampo_synth_fn fn, void *ctx)
{
	struct sampo_machine *old;
	int err = apply_upto(s, UINT64_MAX);

	if (err)
		return err;
	/*
	 * A new machine, fed by @fn, holds the live threads alone: the ended
	 * ones go, and in a long recording of many short processes the state
	 * stays their size
	 */
	old = s->machine;
	s->machine = sampo_machine__new();
	if (!s->machine) {
		s->machine = old;
		return -ENOMEM;
	}
	err = sampo_synthesize__machine_threads(opts, old, fn, ctx);
	sampo_machine__delete(old);
	return err;
}
