/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * hist-diff.h - the histograms of several profiles side by side, as
 * `perf diff` pairs and compares them (perf 6.1's builtin-diff.c).
 *
 * Each file's histograms are built as for a report (sampo_hists__new()
 * with the same sort keys, no call graphs, no filters), resorted, then
 * given here together with the event of each file that matches the
 * baseline's event (sampo_hist_diff__match_event()):
 *
 *	const struct sampo_hists *hists[] = { base, new };
 *	int evsels[] = { 0, sampo_hist_diff__match_event(base_attr, new_attrs, nr) };
 *	SAMPO_OPTS(sampo_hist_diff_opts, opts, .compute = SAMPO_DIFF_RATIO, .order = 1);
 *	err = sampo_hist_diff__new(hists, evsels, 2, &opts, &diff);
 *	for (size_t i = 0; i < sampo_hist_diff__nr_rows(diff); i++) {
 *		const struct sampo_hist_diff_row *row = sampo_hist_diff__row(diff, i);
 *		... sampo_hist_diff_row__entry(row, 1), sampo_hist_diff_row__ratio(row, 1, &r) ...
 *	}
 *	sampo_hist_diff__delete(diff);
 *
 * Rows: every entry of the baseline, then (unless baseline_only) one row
 * per entry of a new file that no earlier row matched, with no baseline
 * entry (perf's "dummy" entries). Entries are paired when their sort keys
 * compare equal as perf compares them: commands and objects by name,
 * threads by tid, symbols by their address range in their object (so a
 * function that moved in a rebuilt binary does not pair), unresolved
 * addresses by address.
 *
 * Order: perf's output sort: rows paired with file @order first, by
 * that file's computed value (for ratio and wdiff, rows without a
 * baseline after the others); then by baseline period; then by each new
 * file's computed value; then by the sort keys (names, largest first as
 * perf's sort callbacks go); ties keep the order of the keys.
 */
#ifndef SAMPO_HIST_DIFF_H
#define SAMPO_HIST_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_event_attr;
struct sampo_hists;
struct sampo_hist_entry;
struct sampo_hist_diff;
struct sampo_hist_diff_row;

/* what is computed for each new file (perf diff -c) */
enum sampo_diff_compute {
	SAMPO_DIFF_DELTA_ABS, /* "delta-abs" (perf's default): delta, sorted by its absolute value */
	SAMPO_DIFF_DELTA,     /* "delta": new percent minus baseline percent */
	SAMPO_DIFF_RATIO,     /* "ratio": new period / baseline period */
	SAMPO_DIFF_WDIFF,     /* "wdiff:w1,w2": new period * w2 - baseline period * w1 */
};

struct sampo_hist_diff_opts {
	size_t sz;
	enum sampo_diff_compute compute;
	/* SAMPO_DIFF_WDIFF's weights (perf refuses 0) */
	int64_t wdiff_w1, wdiff_w2;
	/*
	 * perf diff -o: the file (1 .. nr_files - 1) whose computed value
	 * sorts the rows first; 0 for none. perf's default is 1.
	 */
	unsigned int order;
	/* perf diff -b: only the baseline's entries that a new file has too */
	bool baseline_only;
	/* --percentage relative: percents of the entries left by the filters */
	bool relative;
	/*
	 * perf diff -C, -d, -S: rows of other commands, objects (short or
	 * long name; a row with no object passes) or symbols (by name; a
	 * row without a symbol does not pass) are left out, but count in the
	 * totals unless .relative (copied).
	 */
	const char *const *comms;
	size_t nr_comms;
	const char *const *dsos;
	size_t nr_dsos;
	const char *const *syms;
	size_t nr_syms;
};
#define sampo_hist_diff_opts__last_field nr_syms

/**
 * sampo_hist_diff__match_event() - the event of a new file that perf diff
 * compares with a baseline event: the first of @attrs with the same type
 * and config (perf 6.1's evsel_match())
 *
 * Return: its index, or -1 when none matches.
 */
SAMPO_API int sampo_hist_diff__match_event(const struct sampo_event_attr *base,
					   const struct sampo_event_attr *const *attrs, size_t nr);

/**
 * sampo_hist_diff__new() - pair and compare the entries of several profiles
 * @hists: the histograms of each file, [0] the baseline, each resorted
 *	(sampo_hists__resort()), all with the same sort keys (borrowed: they
 *	must outlive the diff)
 * @evsels: the event of each file: [0] the baseline's, the others its
 *	match in that file or -1 (that file then has no column values)
 * @nr_files: at least 2
 * @opts: may be NULL (delta-abs, no order, no filter)
 * @ret: on success, the diff; free with sampo_hist_diff__delete()
 *
 * Return: 0; -EINVAL for fewer than 2 files, different sort keys, an
 * order past the last file, wdiff with a zero weight, a bad event; -ENOMEM.
 */
SAMPO_API int sampo_hist_diff__new(const struct sampo_hists *const *hists, const int *evsels,
				   size_t nr_files, const struct sampo_hist_diff_opts *opts,
				   struct sampo_hist_diff **ret);

SAMPO_API void sampo_hist_diff__delete(struct sampo_hist_diff *diff);

/** sampo_hist_diff__nr_files() - the files given to sampo_hist_diff__new() */
SAMPO_API size_t sampo_hist_diff__nr_files(const struct sampo_hist_diff *diff);

/**
 * sampo_hist_diff__nr_rows() / __row() - the rows in perf's order; rows
 * the filters leave out are not among them
 */
SAMPO_API size_t sampo_hist_diff__nr_rows(const struct sampo_hist_diff *diff);
SAMPO_API const struct sampo_hist_diff_row *sampo_hist_diff__row(const struct sampo_hist_diff *diff,
								   size_t idx);

/**
 * sampo_hist_diff__total_period() - the total that file @file's percents
 * are computed from: its samples' period (.relative: of the rows the
 * filters leave). For the baseline (@file 0) it is the total after
 * baseline_only left rows out, as perf prints the Baseline column.
 */
SAMPO_API uint64_t sampo_hist_diff__total_period(const struct sampo_hist_diff *diff, size_t file);

/**
 * sampo_hist_diff_row__entry() - the row's entry in file @file (borrowed
 * from that file's histograms), NULL when that file has none (@file 0:
 * a row of the new files only)
 */
SAMPO_API const struct sampo_hist_entry *
sampo_hist_diff_row__entry(const struct sampo_hist_diff_row *row, size_t file);

/**
 * sampo_hist_diff_row__key() - the entry whose sort key values the row
 * shows: the baseline's, or that of the new file the row was made for
 */
SAMPO_API const struct sampo_hist_entry *
sampo_hist_diff_row__key(const struct sampo_hist_diff_row *row);

/** sampo_hist_diff_row__period() - the period of the row's entry in @file, 0 when none */
SAMPO_API uint64_t sampo_hist_diff_row__period(const struct sampo_hist_diff_row *row, size_t file);

/**
 * sampo_hist_diff_row__baseline_percent() - the Baseline column: the
 * baseline entry's share of sampo_hist_diff__total_period(diff, 0)
 *
 * Return: false for a row without a baseline entry (perf prints nothing).
 */
SAMPO_API bool sampo_hist_diff_row__baseline_percent(const struct sampo_hist_diff *diff,
						     const struct sampo_hist_diff_row *row,
						     double *ret);

/**
 * sampo_hist_diff_row__delta() / __ratio() / __wdiff() - the values
 * computed for new file @file (1 .. nr_files - 1): delta in percent
 * points (new share minus baseline share, the baseline's share taken
 * before baseline_only), ratio (a missing baseline period counts as 1),
 * weighted difference (with the opts' weights)
 *
 * Return: false when file @file has no entry for the row.
 */
SAMPO_API bool sampo_hist_diff_row__delta(const struct sampo_hist_diff_row *row, size_t file,
					  double *ret);
SAMPO_API bool sampo_hist_diff_row__ratio(const struct sampo_hist_diff_row *row, size_t file,
					  double *ret);
SAMPO_API bool sampo_hist_diff_row__wdiff(const struct sampo_hist_diff_row *row, size_t file,
					  int64_t *ret);

/**
 * sampo_hist_diff_row__formula() - perf diff -F's text for file @file:
 * "(new * 100 / new_total) - (base * 100 / base_total)" (delta),
 * "new / base" (ratio), "(new * w2) - (base * w1)" (wdiff)
 *
 * Return: the length perf's snprintf() would write (0 and "" when @file
 * has no entry for the row).
 */
SAMPO_API int sampo_hist_diff_row__formula(const struct sampo_hist_diff *diff,
					   const struct sampo_hist_diff_row *row, size_t file,
					   char *buf, size_t size);

#endif /* SAMPO_HIST_DIFF_H */
