/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srcline.c - how fast are cached source line lookups (lib/srclines.c), in
 * process: the speed a report by srcline, a script -F srcline or an inline
 * call graph sees once every address of the profile has been looked up.
 *
 *	bench/srcline PERF.DATA [LOOKUPS]
 *
 * Reads the file's samples, puts each sampled address on its DSO and
 * symbol (the file address DWARF is keyed by) and keeps the distinct
 * (DSO, address) pairs. Then it looks every pair up once (cold: the DWARF
 * is read) and LOOKUPS times more (default 50 million) over the pairs in
 * turn, with a spread so that the DSO switches between lookups, as in a
 * real profile (cached: one hash probe each). Both for the inline chains
 * (sampo_srclines__find(), what --inline asks) and for the line alone
 * (sampo_srclines__find_line(), what --sort srcline asks).
 *
 * Output, one line for bench/run-srcline.sh:
 *	srcline pairs=812 resolved=800 cold_s=0.0123 lookups=50000000 cached_s=1.23 per_s=40650406
 *	  line_cold_s=0.0041 line_cached_s=0.99 line_per_s=50505050 check=...
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sampo/dso.h>
#include <sampo/event.h>
#include <sampo/machine.h>
#include <sampo/map.h>
#include <sampo/reader.h>
#include <sampo/sample.h>
#include <sampo/session.h>
#include <sampo/srclines.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>

#define MAX_PAIRS (1u << 16)

struct pair {
	struct sampo_dso *dso; /* reference */
	uint64_t addr;
};

struct ctx {
	struct sampo_session *session;
	struct pair *pairs;
	size_t nr;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int on_sample(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct ctx *c = arg;
	struct sampo_symbolizer *sy = sampo_session__symbolizer(session);
	struct sampo_addr_location al = { 0 };
	const struct sampo_symbol *sym;
	uint64_t off = 0, addr;
	struct sampo_dso *dso;

	if (!sy || c->nr == MAX_PAIRS ||
	    sampo_machine__resolve(sampo_session__machine(session), &ev->sample, &al))
		return 0;
	if (al.map) {
		sym = sampo_symbolizer__find_offset(sy, al.map, ev->sample.ip, &off);
		dso = sampo_map__dso(al.map);
		if (sym) {
			addr = sampo_symbol__start(sym) + off;
			for (size_t i = 0; i < c->nr; i++)
				if (c->pairs[i].dso == dso && c->pairs[i].addr == addr)
					goto out;
			c->pairs[c->nr].dso = sampo_dso__get(dso);
			c->pairs[c->nr++].addr = addr;
		}
	}
out:
	sampo_addr_location__exit(&al);
	return 0;
}

int main(int argc, char **argv)
{
	SAMPO_OPTS(sampo_symbolizer_opts, sopts);
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true,
		   .features = SAMPO_SESSION_FEATURES_OPTIONAL, .symbolizer = &sopts);
	const struct sampo_tool tool = { .sample = on_sample };
	struct ctx c = { 0 };
	struct sampo_srclines *sl;
	const struct sampo_srcline_frame *fr;
	unsigned long long lookups = argc > 2 ? strtoull(argv[2], NULL, 10) : 50000000ULL;
	size_t nr, resolved = 0, sum = 0;
	double t0, cold, cached;

	if (argc < 2) {
		fprintf(stderr, "usage: srcline PERF.DATA [LOOKUPS]\n");
		return 129;
	}
	c.pairs = calloc(MAX_PAIRS, sizeof(*c.pairs));
	/* the symbolizer is made before the samples come, as report makes it */
	if (!c.pairs || sampo_session__open(argv[1], &opts, &c.session) ||
	    !sampo_session__symbolizer(c.session) || sampo_session__process(c.session, &tool, &c)) {
		fprintf(stderr, "srcline: cannot read '%s'\n", argv[1]);
		return 1;
	}
	if (!c.nr || sampo_srclines__new(sampo_session__symbolizer(c.session), &sl)) {
		fprintf(stderr, "srcline: no sample of '%s' has a symbol\n", argv[1]);
		return 1;
	}
	t0 = now();
	for (size_t i = 0; i < c.nr; i++) {
		if (sampo_srclines__find(sl, c.pairs[i].dso, c.pairs[i].addr, &fr, &nr))
			return 1;
		resolved += nr > 0;
	}
	cold = now() - t0;
	t0 = now();
	/* a stride prime to the count: neighbours in time are far apart in the table */
	for (unsigned long long k = 0, i = 0; k < lookups; k++) {
		sampo_srclines__find(sl, c.pairs[i].dso, c.pairs[i].addr, &fr, &nr);
		sum += nr ? fr[0].line : 0;
		i = (i + 7919) % c.nr;
	}
	cached = now() - t0;
	printf("srcline pairs=%zu resolved=%zu cold_s=%.4f lookups=%llu cached_s=%.3f per_s=%.0f",
	       c.nr, resolved, cold, lookups, cached, cached > 0 ? (double)lookups / cached : 0.0);
	sampo_srclines__delete(sl);

	/* the line alone, a cache of its own */
	if (sampo_srclines__new(sampo_session__symbolizer(c.session), &sl))
		return 1;
	t0 = now();
	for (size_t i = 0; i < c.nr; i++)
		if (sampo_srclines__find_line(sl, c.pairs[i].dso, c.pairs[i].addr, &fr))
			return 1;
	cold = now() - t0;
	t0 = now();
	for (unsigned long long k = 0, i = 0; k < lookups; k++) {
		sampo_srclines__find_line(sl, c.pairs[i].dso, c.pairs[i].addr, &fr);
		sum += fr ? fr->line : 0;
		i = (i + 7919) % c.nr;
	}
	cached = now() - t0;
	printf(" line_cold_s=%.4f line_cached_s=%.3f line_per_s=%.0f check=%zu\n", cold, cached,
	       cached > 0 ? (double)lookups / cached : 0.0, sum);
	sampo_srclines__delete(sl);
	for (size_t i = 0; i < c.nr; i++)
		sampo_dso__put(c.pairs[i].dso);
	free(c.pairs);
	sampo_session__close(c.session);
	return 0;
}
