/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-state.h - record --switch-output: the threads and maps the records
 * so far made, written again at the start of each new file so that it reads
 * alone.
 *
 * The rings are not ordered with respect to each other. Within one pass the
 * FORK of a shell's child (in the ring of the shell's CPU) can be read after
 * the child's exec COMM and MMAPs (in the ring of another CPU); applied in
 * that order, the FORK would replace the child with a copy of the shell, and
 * the next file would give the child's samples the shell's name and maps.
 * So the records read from the rings are queued and applied in time order,
 * as perf's ordered events do: at the end of each pass, those up to the
 * highest time of the pass before (a record of this pass may still be
 * overtaken by one of the next); all of them before a new file starts.
 *
 *	record_state__new(&attr, &s);
 *	record_state__apply(s, rec);	// a synthesized record: in order already
 *	record_state__queue(s, rec);	// a record read from the rings
 *	record_state__end_round(s);	// after each pass over the rings
 *	record_state__synthesize(s, &opts, fn, ctx);	// at the start of a new file
 */
#ifndef SAMPO_RECORD_STATE_H
#define SAMPO_RECORD_STATE_H

#include <sampo/event.h>
#include <sampo/synthesize.h>

struct record_state;

/* A state for records laid out by @attr (all the events share its sample_id). 0 or -ENOMEM. */
int record_state__new(const struct sampo_event_attr *attr, struct record_state **ret);
void record_state__delete(struct record_state *s);

/*
 * A COMM, FORK, EXIT, MMAP or MMAP2 record (host order) changes the state;
 * the others, and malformed ones, are ignored. Return: 0 or -ENOMEM.
 */
int record_state__apply(struct record_state *s, const union sampo_record *rec);

/* The same, for a record read from a ring: applied by a later end_round. 0 or -ENOMEM. */
int record_state__queue(struct record_state *s, const union sampo_record *rec);

/* A pass over the rings is done: what no later record can overtake is applied. */
int record_state__end_round(struct record_state *s);

/*
 * Everything queued is applied, then the state is written through @fn as
 * sampo_synthesize__machine_threads() writes it; the state starts again
 * empty before the first record goes out, so that what @fn feeds back with
 * record_state__apply() builds it anew (the ended threads are gone).
 * Return: 0, -ENOMEM or @fn's error.
 */
int record_state__synthesize(struct record_state *s, const struct sampo_synth_opts *opts,
			     sampo_synth_fn fn, void *ctx);

#endif
