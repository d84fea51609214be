// SPDX-License-Identifier: GPL-2.0
/*
 * merge-pprof.c - sampo merge -o out.pb.gz: the merged profile as a pprof
 * profile, through the pprof writer's first layer (pprof.h)
 *
 * The merge keeps resolved frames, not addresses: each (shared object,
 * build-id) is a mapping with its name and build-id, each frame a location
 * in it whose one line is the frame's function (an unresolved frame: a
 * function named by its address in the object, "0x1010"). Each distinct
 * stack is a sample with a "host" and a "comm" label and, per event, the
 * values perf_data_converter gives: "<event>_sample" (samples) and
 * "<event>_event" (periods), the last "_event" type the default, as
 * `sampo pprof` writes them. So `go tool pprof` of the merge gives the
 * totals and functions of `go tool pprof -proto` of the per-file profiles,
 * and -tagfocus=host=NAME shows one machine.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/profile.h>

#include "merge-pprof.h"
#include "pprof.h"

int merge_write_pprof(const struct sampo_profile *prof, const char *path)
{
	size_t nr_ev = sampo_profile__nr_events(prof), nr_frames = sampo_profile__nr_frames(prof);
	int *type_sample = calloc(nr_ev + 1, sizeof(*type_sample));
	int *type_event = calloc(nr_ev + 1, sizeof(*type_event));
	uint64_t *loc = calloc(nr_frames + 1, sizeof(*loc)), *locs = NULL;
	size_t cap_locs = 0;
	struct pprof *p = NULL;
	char buf[512];
	int err = -ENOMEM;

	if (!type_sample || !type_event || !loc || pprof_new(&p))
		goto out;
	for (size_t e = 0; e < nr_ev; e++) {
		const char *name = sampo_profile__event_name(prof, e);

		snprintf(buf, sizeof(buf), "%s_sample", name);
		type_sample[e] = pprof_sample_type(p, buf, "count");
		snprintf(buf, sizeof(buf), "%s_event", name);
		type_event[e] = pprof_sample_type(p, buf, "count");
		if (type_sample[e] < 0 || type_event[e] < 0 || pprof_set_default_sample_type(p, buf))
			goto out;
	}
	for (size_t i = 0; i < nr_frames; i++) {
		const struct sampo_profile_frame *f = sampo_profile__frame(prof, i);
		const struct pprof_mapping m = {
			.filename = f->dso ? f->dso : "[unknown]",
			.build_id = f->dso_id,
			.has_functions = true,
		};
		uint64_t mapping = pprof_mapping(p, &m);
		uint64_t fn = pprof_function(p, f->symbol, f->symbol, "", 0);
		struct pprof_line line = { .function_id = fn };

		/* no address: the merge keeps functions, not one machine's addresses */
		loc[i] = mapping && fn ? pprof_location(p, mapping, 0, &line, 1) : 0;
		if (!loc[i])
			goto out;
	}
	for (size_t i = 0; i < sampo_profile__nr_stacks(prof); i++) {
		const struct sampo_profile_stack *s = sampo_profile__stack(prof, i);
		const struct pprof_label labels[] = {
			{ .key = "host", .str = s->host },
			{ .key = "comm", .str = s->comm ? s->comm : "" },
		};
		const struct pprof_value values[] = {
			{ type_sample[s->event], (int64_t)s->nr_samples },
			{ type_event[s->event], (int64_t)s->period },
		};

		if (s->nr_frames > cap_locs) {
			uint64_t *l = realloc(locs, s->nr_frames * sizeof(*l));

			if (!l)
				goto out;
			locs = l;
			cap_locs = s->nr_frames;
		}
		for (size_t d = 0; d < s->nr_frames; d++)
			locs[d] = loc[s->frames[d]];
		err = pprof_add_sample(p, locs, s->nr_frames, labels, 2, values, 2);
		if (err)
			goto out;
	}
	/* the hosts, as `sampo pprof` names a file's ("hostname:NAME") */
	err = pprof_add_comment(p, "sampo merge");
	for (size_t i = 0; i < sampo_profile__nr_stacks(prof) && !err; i++) {
		snprintf(buf, sizeof(buf), "hostname:%s", sampo_profile__stack(prof, i)->host);
		err = pprof_add_comment(p, buf); /* once per distinct text */
	}
	if (!err)
		err = pprof_write(p, path);
out:
	pprof_delete(p);
	free(type_sample);
	free(type_event);
	free(loc);
	free(locs);
	return err;
}
