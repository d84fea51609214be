/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * hist.h - the histograms of a report: samples grouped by sort keys (comm,
 * pid, dso, sym, cpu), with self and children periods and call graphs,
 * printed as `perf report --stdio` prints them.
 *
 * Feed the records in time order to the machine, and each SAMPLE to
 * sampo_hists__add_sample() right after the machine saw the records before
 * it. Cached lookups follow the machine's generation counters
 * (sampo_machine__kernel_generation()), so nothing else needs telling.
 * Then sampo_hists__resort() once, and print each event's table.
 *
 * Identical samples are counted once: the stack of every sample (thread,
 * comm, cpu, resolved frames) is interned, and the histogram entries and
 * call graphs are built from the distinct stacks at resort time. perf's
 * results do not depend on the order samples arrive in, so this gives the
 * same tables and graphs, much sooner on real profiles.
 */
#ifndef SAMPO_HIST_H
#define SAMPO_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <sampo/common.h>

struct sampo_machine;
struct sampo_symbolizer;
struct sampo_sample;
struct sampo_hists;
struct sampo_dso;

struct sampo_hists_opts {
	size_t sz;
	/* sort keys, comma separated: comm, pid, tid, dso, sym (symbol), cpu; NULL: comm,dso,sym */
	const char *sort;
	/* cumulate callees into their callers (perf's --children) */
	bool children;
	/* build call graphs from the samples' callchains */
	bool callchain;
	/* resolve callchains (for children) but print no graphs (perf's -g none) */
	bool no_graph;
	/* graph order: root first (caller) instead of leaf first (callee) */
	bool caller_order;
	/* keep at most this many callchain entries; 0 means 127 (perf's default) */
	unsigned int max_stack;
	/* call graph branches under this percent of the total are hidden; < 0: 0.5 */
	double callchain_min_percent;
	/* entries under this percent are not printed */
	double percent_limit;
	/* print a Samples column (-n) */
	bool show_nr_samples;
	/* filters, comma separated lists; NULL: no filter */
	const char *comms;
	const char *dsos;
	const char *pids;
	const char *tids;
	const char *cpus; /* "0-3,7" */
};
#define sampo_hists_opts__last_field cpus

/**
 * sampo_hists__new() - empty histograms for a report
 * @machine: the machine samples are resolved in (borrowed)
 * @symbolizer: gives the symbols (borrowed; NULL: no symbols)
 * @opts: may be NULL
 * @errbuf: where a bad option is described ("unknown sort key 'x'")
 *
 * Return: 0 and *@ret, -EINVAL for a bad option, -ENOMEM.
 */
SAMPO_API int sampo_hists__new(struct sampo_machine *machine, struct sampo_symbolizer *symbolizer,
			       const struct sampo_hists_opts *opts, char *errbuf, size_t errbuf_sz,
			       struct sampo_hists **ret);

SAMPO_API void sampo_hists__delete(struct sampo_hists *hists);

/**
 * sampo_hists__add_sample() - account one sample of event @evsel
 *
 * Return: 0, or -ENOMEM.
 */
SAMPO_API int sampo_hists__add_sample(struct sampo_hists *hists, int evsel,
				      const struct sampo_sample *sample);

/** sampo_hists__resort() - build the entries and call graphs; call once, after the last sample */
SAMPO_API int sampo_hists__resort(struct sampo_hists *hists);

/**
 * sampo_hists__nr_dsos() / sampo_hists__dso() - the DSOs that samples or
 * their callchains hit (after resort; borrowed from the machine)
 */
SAMPO_API size_t sampo_hists__nr_dsos(const struct sampo_hists *hists);
SAMPO_API struct sampo_dso *sampo_hists__dso(const struct sampo_hists *hists, size_t idx);

/** sampo_hists__nr_samples() - samples of @evsel that passed the filters */
SAMPO_API uint64_t sampo_hists__nr_samples(const struct sampo_hists *hists, int evsel);

/** sampo_hists__total_period() - their summed period */
SAMPO_API uint64_t sampo_hists__total_period(const struct sampo_hists *hists, int evsel);

/** sampo_hists__nr_entries() - rows of @evsel's table (after resort) */
SAMPO_API size_t sampo_hists__nr_entries(const struct sampo_hists *hists, int evsel);

/**
 * sampo_hists__fprintf() - print @evsel's table as perf report --stdio does:
 * the column header lines, then every entry with its call graph
 *
 * Return: 0, or -errno from writing.
 */
SAMPO_API int sampo_hists__fprintf(struct sampo_hists *hists, int evsel, FILE *fp);

/**
 * sampo_hists__fprintf_filters() - perf's "# dso: NAME" and "# comm: NAME"
 * lines, for a filter of one value (its column is not printed)
 */
SAMPO_API void sampo_hists__fprintf_filters(const struct sampo_hists *hists, FILE *fp);

#endif /* SAMPO_HIST_H */
