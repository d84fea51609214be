// SPDX-License-Identifier: GPL-2.0
/*
 * format-speedscope.c - `sampo script --format speedscope`: a perf.data
 * file as a speedscope file (speedscope's file-format-schema.json, the
 * schema its npm package ships; docs/format-speedscope.md).
 *
 * One "sampled" profile per event with samples, its stacks the distinct
 * stacks the hists interned (profile.c: the frames and symbols of `sampo
 * report`), each with its summed period as weight: speedscope's views
 * (left heavy, sandwich, time order by first appearance) need no more, and
 * a million samples become tens of thousands of stacks. A stack starts with
 * its command, as in `sampo flamegraph`, then goes from the outermost
 * caller to the sampled frame. The frames are shared by all profiles, one
 * per (name, object). Weights are nanoseconds for cpu-clock and task-clock
 * (their period is the time between samples), plain numbers otherwise.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sampo/event.h>
#include <sampo/hist.h>
#include <sampo/reader.h>
#include <sampo/session.h>

#include "cli.h"
#include "format-speedscope.h"
#include "json.h"
#include "outbuf.h"
#include "profile.h"

#define NO_FRAME UINT32_MAX

/* speedscope frames: (name, object) pairs, found by the hists' frame and the comm */
struct ss_frames {
	char **names, **files; /* files[i] NULL: none */
	size_t nr, cap;
	uint32_t *of_frame; /* hists frame -> speedscope frame + 1 */
	char **comms;	    /* comm strings seen, with their frame */
	uint32_t *comm_frame;
	size_t nr_comms, cap_comms;
	uint32_t *ix; /* (name, file) -> frame + 1, open addressing */
	size_t ix_cap;
};

static int ss_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap * 2 : 64;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

static uint64_t ss_hash(const char *name, const char *file)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a over name, NUL, file */

	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	h = (h ^ 0xff) * 1099511628211ull;
	for (const char *c = file ? file : ""; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	return h;
}

static bool ss_same(const struct ss_frames *f, size_t i, const char *name, const char *file)
{
	if (i >= f->nr || strcmp(f->names[i], name))
		return false;
	return file ? f->files[i] && !strcmp(f->files[i], file) : !f->files[i];
}

static int ss_rehash(struct ss_frames *f)
{
	size_t cap = f->ix_cap ? f->ix_cap * 2 : 1024;
	uint32_t *ix = calloc(cap, sizeof(*ix));

	if (!ix)
		return -ENOMEM;
	for (size_t i = 0; i < f->nr; i++) {
		size_t j = ss_hash(f->names[i], f->files[i]) & (cap - 1);

		while (ix[j])
			j = (j + 1) & (cap - 1);
		ix[j] = (uint32_t)i + 1;
	}
	free(f->ix);
	f->ix = ix;
	f->ix_cap = cap;
	return 0;
}

/* the frame (@name, @file): unresolved addresses of one object share "[object]" */
static int ss_add(struct ss_frames *f, const char *name, const char *file, uint32_t *ret)
{
	size_t j;

	if ((f->nr + 1) * 2 > f->ix_cap && ss_rehash(f))
		return -ENOMEM;
	for (j = ss_hash(name, file) & (f->ix_cap - 1); f->ix[j]; j = (j + 1) & (f->ix_cap - 1))
		if (ss_same(f, f->ix[j] - 1, name, file)) {
			*ret = f->ix[j] - 1;
			return 0;
		}
	if (ss_grow((void **)&f->names, &f->cap, f->nr + 1, sizeof(char *)))
		return -ENOMEM;
	{
		/* names and files grow together, to the names' capacity */
		char **files = realloc(f->files, f->cap * sizeof(char *));

		if (!files)
			return -ENOMEM;
		f->files = files;
	}
	f->names[f->nr] = strdup(name);
	f->files[f->nr] = file ? strdup(file) : NULL;
	if (!f->names[f->nr] || (file && !f->files[f->nr])) {
		free(f->names[f->nr]);
		free(f->files[f->nr]);
		return -ENOMEM;
	}
	f->ix[j] = (uint32_t)f->nr + 1;
	*ret = (uint32_t)f->nr++;
	return 0;
}

static void ss_frames_release(struct ss_frames *f)
{
	for (size_t i = 0; i < f->nr; i++) {
		free(f->names[i]);
		free(f->files[i]);
	}
	free(f->names);
	free(f->files);
	free(f->of_frame);
	free(f->comms);
	free(f->comm_frame);
	free(f->ix);
}

static int comm_frame(struct ss_frames *f, const char *comm, uint32_t *ret)
{
	/* the hists intern comms: one pointer per distinct string */
	for (size_t i = 0; i < f->nr_comms; i++)
		if (f->comms[i] == comm) {
			*ret = f->comm_frame[i];
			return 0;
		}
	if (ss_grow((void **)&f->comms, &f->cap_comms, f->nr_comms + 1, sizeof(*f->comms)))
		return -ENOMEM;
	{
		uint32_t *cf = realloc(f->comm_frame, f->cap_comms * sizeof(*cf));

		if (!cf)
			return -ENOMEM;
		f->comm_frame = cf;
	}
	if (ss_add(f, comm, NULL, ret))
		return -ENOMEM;
	f->comms[f->nr_comms] = (char *)comm;
	f->comm_frame[f->nr_comms++] = *ret;
	return 0;
}

static int hist_frame(struct ss_frames *f, const struct profile *p, uint32_t frame, uint32_t *ret)
{
	char buf[512];

	if (f->of_frame[frame]) {
		*ret = f->of_frame[frame] - 1;
		return 0;
	}
	if (ss_add(f, profile_frame_label(p, frame, buf, sizeof(buf)),
		   sampo_hists__frame_dso_name(p->hists, frame), ret))
		return -ENOMEM;
	f->of_frame[frame] = *ret + 1;
	return 0;
}

static bool is_clock(const struct profile *p, int evsel)
{
	const struct sampo_event_attr *attr =
		sampo_reader__attr(sampo_session__reader(p->session), (size_t)evsel);

	/* PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK: the period is in ns */
	return attr->type == SAMPO_TYPE_SOFTWARE && (attr->config == 0 || attr->config == 1);
}

static int write_profile(struct outbuf *ob, const struct profile *p, struct ss_frames *f,
			 int evsel, bool first)
{
	const struct sampo_hists *h = p->hists;
	uint64_t total = 0;
	bool any = false;

	for (size_t i = 0; i < sampo_hists__nr_stacks(h); i++)
		if (sampo_hists__stack_evsel(h, i) == evsel && !sampo_hists__stack_filtered(h, i))
			total += sampo_hists__stack_period(h, i);
	ob_puts(ob, first ? "\n  {" : ",\n  {");
	json_key(ob, "type");
	ob_puts(ob, "\"sampled\", ");
	json_key(ob, "name");
	json_string(ob, profile_event_name(p, evsel));
	ob_puts(ob, ", ");
	json_key(ob, "unit");
	ob_puts(ob, is_clock(p, evsel) ? "\"nanoseconds\", " : "\"none\", ");
	json_key(ob, "startValue");
	ob_puts(ob, "0, ");
	json_key(ob, "endValue");
	ob_dec_u64(ob, total);
	ob_puts(ob, ",\n   ");
	json_key(ob, "samples");
	ob_putc(ob, '[');
	for (size_t i = 0; i < sampo_hists__nr_stacks(h); i++) {
		uint32_t fr;

		if (sampo_hists__stack_evsel(h, i) != evsel || sampo_hists__stack_filtered(h, i))
			continue;
		ob_puts(ob, any ? ",\n    [" : "\n    [");
		any = true;
		if (comm_frame(f, sampo_hists__stack_comm(h, i), &fr))
			return -ENOMEM;
		ob_dec_u64(ob, fr);
		for (size_t d = sampo_hists__stack_depth(h, i); d-- > 0;) {
			if (hist_frame(f, p, sampo_hists__stack_frame(h, i, d), &fr))
				return -ENOMEM;
			ob_putc(ob, ',');
			ob_dec_u64(ob, fr);
		}
		ob_putc(ob, ']');
	}
	ob_puts(ob, "],\n   ");
	json_key(ob, "weights");
	ob_putc(ob, '[');
	any = false;
	for (size_t i = 0; i < sampo_hists__nr_stacks(h); i++) {
		if (sampo_hists__stack_evsel(h, i) != evsel || sampo_hists__stack_filtered(h, i))
			continue;
		if (any)
			ob_putc(ob, ',');
		any = true;
		ob_dec_u64(ob, sampo_hists__stack_period(h, i));
	}
	ob_puts(ob, "]}");
	return 0;
}

/*
 * The profiles come first in the file but name frames by index, so they are
 * written to memory first and the frames they found written before them.
 */
int script_speedscope(const char *input, const struct profile_sym_opts *sym)
{
	struct ss_frames f = { 0 };
	struct profile p;
	struct outbuf *out = NULL, *mem = NULL;
	char *body = NULL;
	size_t body_len = 0;
	FILE *memfp = NULL;
	bool first = true;
	int err;

	err = profile_load(&p, input, sym);
	if (err)
		goto out_profile;
	err = -ENOMEM;
	f.of_frame = calloc(sampo_hists__nr_frames(p.hists) + 1, sizeof(*f.of_frame));
	out = malloc(sizeof(*out));
	mem = malloc(sizeof(*mem));
	memfp = open_memstream(&body, &body_len);
	if (!f.of_frame || !out || !mem || !memfp)
		goto out;
	ob_init_file(mem, memfp);
	for (int e = 0; e < profile_nr_events(&p); e++) {
		if (!sampo_hists__nr_samples(p.hists, e))
			continue;
		if (write_profile(mem, &p, &f, e, first))
			goto out;
		first = false;
	}
	if (ob_flush(mem) || fflush(memfp))
		goto out;

	ob_init_fd(out, STDOUT_FILENO);
	ob_putc(out, '{');
	json_key(out, "$schema");
	ob_puts(out, "\"https://www.speedscope.app/file-format-schema.json\",\n ");
	json_key(out, "name");
	json_string(out, input);
	ob_puts(out, ",\n ");
	json_key(out, "exporter");
	ob_puts(out, "\"sampo script --format speedscope\",\n ");
	json_key(out, "activeProfileIndex");
	ob_puts(out, "0,\n ");
	json_key(out, "shared");
	ob_putc(out, '{');
	json_key(out, "frames");
	ob_putc(out, '[');
	for (size_t i = 0; i < f.nr; i++) {
		ob_puts(out, i ? ",\n  {" : "\n  {");
		json_key(out, "name");
		json_string(out, f.names[i]);
		if (f.files[i]) {
			ob_puts(out, ", ");
			json_key(out, "file");
			json_string(out, f.files[i]);
		}
		ob_putc(out, '}');
	}
	ob_puts(out, "]},\n ");
	json_key(out, "profiles");
	ob_putc(out, '[');
	ob_write(out, body, body_len);
	ob_puts(out, "]}\n");
	err = ob_flush(out);
	if (err)
		err = err == -EPIPE ? err : cli_err(err, "cannot write output");
out:
	if (err == -ENOMEM)
		cli_err(err, "out of memory");
	if (memfp)
		fclose(memfp);
	free(body);
	free(out);
	free(mem);
	ss_frames_release(&f);
out_profile:
	profile_release(&p);
	return err;
}
