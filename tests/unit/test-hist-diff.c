// SPDX-License-Identifier: GPL-2.0
/*
 * test-hist-diff.c - two profiles paired and compared as perf diff does
 * (lib/hist-diff.c), on samples built in memory: pairing by the sort keys,
 * unresolved addresses of one object merged into one row, rows of the new
 * file only, the delta, ratio and wdiff values and their order, -b, -o,
 * the filters and --percentage relative. Expected values worked out by
 * hand from perf 6.1's builtin-diff.c rules.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sampo/event.h>
#include <sampo/hist-diff.h>
#include <sampo/hist.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/sample.h>

#include "fixture-machine.h"

#define A 0x401000
#define B 0x402000
#define C 0x403000
#define D 0x404000

struct two {
	struct sampo_machine *m[2];
	struct sampo_hists *h[2];
	struct sampo_hist_diff *diff;
};

static const enum sampo_sort_key dso_sym[] = { SAMPO_SORT_DSO, SAMPO_SORT_SYM };

/*
 * baseline: app C 500 + app D 200 (one row: unresolved, one object), other C 300;
 * new: app C 100 + app D 100, lib C 800 (pid 300)
 */
static void build_with(struct two *t, const struct sampo_hist_diff_opts *opts,
		       uint64_t other_new)
{
	SAMPO_OPTS(sampo_hists_opts, hopts, .sort_keys = dso_sym, .nr_sort_keys = 2);
	const struct sampo_hists *hists[2];
	int evsels[2] = { 0, 0 };

	for (int i = 0; i < 2; i++) {
		t->m[i] = sampo_machine__new();
		assert_non_null(t->m[i]);
		fixture_comm(t->m[i], 100, "app");
		fixture_mmap2(t->m[i], 100, 0x400000, 0, 1, "/opt/app");
		assert_int_equal(sampo_hists__new(t->m[i], NULL, &hopts, &t->h[i]), 0);
	}
	fixture_comm(t->m[0], 200, "other");
	fixture_mmap2(t->m[0], 200, 0x400000, 0, 2, "/opt/other");
	fixture_comm(t->m[1], 300, "libuser");
	fixture_mmap2(t->m[1], 300, 0x400000, 0, 3, "/opt/lib");
	fixture_add(t->h[0], 100, C, NULL, 0, 500);
	fixture_add(t->h[0], 100, D, NULL, 0, 200);
	fixture_add(t->h[0], 200, C, NULL, 0, 300);
	fixture_add(t->h[1], 100, D, NULL, 0, 100);
	fixture_add(t->h[1], 100, C, NULL, 0, 100);
	fixture_add(t->h[1], 300, C, NULL, 0, 800);
	if (other_new) {
		fixture_comm(t->m[1], 200, "other");
		fixture_mmap2(t->m[1], 200, 0x400000, 0, 2, "/opt/other");
		fixture_add(t->h[1], 200, C, NULL, 0, other_new);
	}
	for (int i = 0; i < 2; i++) {
		assert_int_equal(sampo_hists__resort(t->h[i]), 0);
		hists[i] = t->h[i];
	}
	assert_int_equal(sampo_hist_diff__new(hists, evsels, 2, opts, &t->diff), 0);
}

static void build(struct two *t, const struct sampo_hist_diff_opts *opts)
{
	build_with(t, opts, 0);
}

static void release(struct two *t)
{
	sampo_hist_diff__delete(t->diff);
	for (int i = 0; i < 2; i++) {
		sampo_hists__delete(t->h[i]);
		sampo_machine__delete(t->m[i]);
	}
}

static const char *row_dso(const struct two *t, size_t i)
{
	return sampo_hist_entry__dso_name(
		sampo_hist_diff_row__key(sampo_hist_diff__row(t->diff, i)));
}

static void test_hist_diff__pairs_and_delta_abs(void **state)
{
	SAMPO_OPTS(sampo_hist_diff_opts, opts, .order = 1);
	const struct sampo_hist_diff_row *row;
	struct two t = { 0 };
	double v;
	int64_t w;
	char buf[128];

	(void)state;
	build(&t, &opts);
	assert_int_equal(sampo_hist_diff__nr_files(t.diff), 2);
	assert_int_equal(sampo_hist_diff__nr_rows(t.diff), 3);
	assert_int_equal(sampo_hist_diff__total_period(t.diff, 0), 1000);
	assert_int_equal(sampo_hist_diff__total_period(t.diff, 1), 1000);
	/* rows the new file has first, by |delta|: lib +80, app -50; then other */
	assert_string_equal(row_dso(&t, 0), "lib");
	assert_string_equal(row_dso(&t, 1), "app");
	assert_string_equal(row_dso(&t, 2), "other");

	row = sampo_hist_diff__row(t.diff, 0);
	assert_null(sampo_hist_diff_row__entry(row, 0));
	assert_false(sampo_hist_diff_row__baseline_percent(t.diff, row, &v));
	assert_true(sampo_hist_diff_row__delta(row, 1, &v));
	assert_true(v > 79.999 && v < 80.001);
	assert_true(sampo_hist_diff_row__ratio(row, 1, &v));
	assert_true(v > 799.999 && v < 800.001); /* a missing baseline period counts as 1 */

	/* app's two unresolved addresses are one row in each file, paired */
	row = sampo_hist_diff__row(t.diff, 1);
	assert_int_equal(sampo_hist_diff_row__period(row, 0), 700);
	assert_int_equal(sampo_hist_diff_row__period(row, 1), 200);
	assert_int_equal(sampo_hist_entry__ip(sampo_hist_diff_row__key(row)), C - 0x400000);
	assert_true(sampo_hist_diff_row__baseline_percent(t.diff, row, &v));
	assert_true(v > 69.999 && v < 70.001);
	assert_true(sampo_hist_diff_row__delta(row, 1, &v));
	assert_true(v > -50.001 && v < -49.999);
	assert_false(sampo_hist_diff_row__wdiff(row, 0, &w));
	sampo_hist_diff_row__formula(t.diff, row, 1, buf, sizeof(buf));
	assert_string_equal(buf, "(200 * 100 / 1000) - (700 * 100 / 1000)");

	row = sampo_hist_diff__row(t.diff, 2);
	assert_false(sampo_hist_diff_row__delta(row, 1, &v));
	assert_int_equal(sampo_hist_diff_row__formula(t.diff, row, 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_null(sampo_hist_diff__row(t.diff, 3));
	release(&t);
}

static void test_hist_diff__ratio_wdiff_order(void **state)
{
	SAMPO_OPTS(sampo_hist_diff_opts, ratio, .compute = SAMPO_DIFF_RATIO, .order = 1);
	SAMPO_OPTS(sampo_hist_diff_opts, wdiff, .compute = SAMPO_DIFF_WDIFF, .wdiff_w1 = 1,
		   .wdiff_w2 = 2);
	struct two t = { 0 };
	int64_t w;
	char buf[128];

	(void)state;
	/* ratio with -o 1: a row without a baseline goes after the others */
	build(&t, &ratio);
	assert_string_equal(row_dso(&t, 0), "app");
	assert_string_equal(row_dso(&t, 1), "lib");
	assert_string_equal(row_dso(&t, 2), "other");
	sampo_hist_diff_row__formula(t.diff, sampo_hist_diff__row(t.diff, 0), 1, buf,
				     sizeof(buf));
	assert_string_equal(buf, "200 / 700");
	release(&t);

	/* other in the new file too, at twice its period: the larger ratio goes first */
	memset(&t, 0, sizeof(t));
	build_with(&t, &ratio, 600);
	assert_string_equal(row_dso(&t, 0), "other");
	assert_string_equal(row_dso(&t, 1), "app");
	assert_string_equal(row_dso(&t, 2), "lib");
	release(&t);

	/* no -o: by baseline period first (lib's is 0), then by wdiff */
	memset(&t, 0, sizeof(t));
	build(&t, &wdiff);
	assert_string_equal(row_dso(&t, 0), "app");
	assert_string_equal(row_dso(&t, 1), "other");
	assert_string_equal(row_dso(&t, 2), "lib");
	assert_true(sampo_hist_diff_row__wdiff(sampo_hist_diff__row(t.diff, 0), 1, &w));
	assert_int_equal(w, 200 * 2 - 700);
	sampo_hist_diff_row__formula(t.diff, sampo_hist_diff__row(t.diff, 0), 1, buf,
				     sizeof(buf));
	assert_string_equal(buf, "(200 * 2) - (700 * 1)");
	release(&t);
}

static void test_hist_diff__baseline_only_and_filters(void **state)
{
	static const char *const app[] = { "app" };
	SAMPO_OPTS(sampo_hist_diff_opts, only, .baseline_only = true, .order = 1);
	SAMPO_OPTS(sampo_hist_diff_opts, rel, .dsos = app, .nr_dsos = 1, .relative = true);
	SAMPO_OPTS(sampo_hist_diff_opts, abs, .dsos = app, .nr_dsos = 1);
	struct two t = { 0 };
	double v;

	(void)state;
	/* -b: only app; the Baseline column's total is recounted, the delta is not */
	build(&t, &only);
	assert_int_equal(sampo_hist_diff__nr_rows(t.diff), 1);
	assert_string_equal(row_dso(&t, 0), "app");
	assert_int_equal(sampo_hist_diff__total_period(t.diff, 0), 700);
	assert_true(sampo_hist_diff_row__baseline_percent(t.diff, sampo_hist_diff__row(t.diff, 0),
							  &v));
	assert_true(v > 99.999 && v < 100.001);
	assert_true(sampo_hist_diff_row__delta(sampo_hist_diff__row(t.diff, 0), 1, &v));
	assert_true(v > -50.001 && v < -49.999);
	release(&t);

	/* -d app --percentage relative: percents of app's samples alone */
	memset(&t, 0, sizeof(t));
	build(&t, &rel);
	assert_int_equal(sampo_hist_diff__nr_rows(t.diff), 1);
	assert_int_equal(sampo_hist_diff__total_period(t.diff, 1), 200);
	assert_true(sampo_hist_diff_row__delta(sampo_hist_diff__row(t.diff, 0), 1, &v));
	assert_true(v > -0.001 && v < 0.001);
	release(&t);

	/* absolute (the default): the other objects still count in the totals */
	memset(&t, 0, sizeof(t));
	build(&t, &abs);
	assert_int_equal(sampo_hist_diff__nr_rows(t.diff), 1);
	assert_int_equal(sampo_hist_diff__total_period(t.diff, 1), 1000);
	release(&t);
}

static void test_hist_diff__bad_arguments(void **state)
{
	SAMPO_OPTS(sampo_hists_opts, sym_only, .sort_keys = dso_sym + 1, .nr_sort_keys = 1);
	SAMPO_OPTS(sampo_hist_diff_opts, order2, .order = 2);
	SAMPO_OPTS(sampo_hist_diff_opts, w0, .compute = SAMPO_DIFF_WDIFF, .wdiff_w2 = 1);
	struct sampo_machine *m = sampo_machine__new();
	struct sampo_hists *a, *b;
	const struct sampo_hists *hists[2];
	struct sampo_hist_diff *diff = NULL;
	int evsels[2] = { 0, -1 };
	struct sampo_event_attr x = { .type = 1, .config = 0 }, y = { .type = 1, .config = 1 };
	const struct sampo_event_attr *attrs[] = { &y, &x };

	(void)state;
	assert_non_null(m);
	assert_int_equal(sampo_hists__new(m, NULL, NULL, &a), 0);
	assert_int_equal(sampo_hists__new(m, NULL, &sym_only, &b), 0);
	hists[0] = a;
	hists[1] = b;
	/* before resort */
	assert_int_equal(sampo_hist_diff__new(hists, evsels, 2, NULL, &diff), -EINVAL);
	assert_int_equal(sampo_hists__resort(a), 0);
	assert_int_equal(sampo_hists__resort(b), 0);
	/* other sort keys */
	assert_int_equal(sampo_hist_diff__new(hists, evsels, 2, NULL, &diff), -EINVAL);
	hists[1] = a;
	assert_int_equal(sampo_hist_diff__new(hists, evsels, 1, NULL, &diff), -EINVAL);
	assert_int_equal(sampo_hist_diff__new(hists, evsels, 2, &order2, &diff), -EINVAL);
	assert_int_equal(sampo_hist_diff__new(hists, evsels, 2, &w0, &diff), -EINVAL);
	/* a file whose event does not match: no rows, no crash */
	assert_int_equal(sampo_hist_diff__new(hists, evsels, 2, NULL, &diff), 0);
	assert_int_equal(sampo_hist_diff__nr_rows(diff), 0);
	sampo_hist_diff__delete(diff);
	/* perf matches events by type and config */
	assert_int_equal(sampo_hist_diff__match_event(&x, attrs, 2), 1);
	assert_int_equal(sampo_hist_diff__match_event(&y, attrs, 2), 0);
	assert_int_equal(sampo_hist_diff__match_event(&x, attrs, 1), -1);
	sampo_hists__delete(a);
	sampo_hists__delete(b);
	sampo_machine__delete(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_diff__pairs_and_delta_abs),
		cmocka_unit_test(test_hist_diff__ratio_wdiff_order),
		cmocka_unit_test(test_hist_diff__baseline_only_and_filters),
		cmocka_unit_test(test_hist_diff__bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
