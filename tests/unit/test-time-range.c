// SPDX-License-Identifier: GPL-2.0
/*
 * test-time-range.c - perf's --time windows (lib/time-range.c): times in
 * seconds to the nanosecond, open ends, several windows, shares of the
 * recording with perf's rounding (a slice ends a nanosecond before the next
 * one, but at the last sample), the strings perf refuses, and which samples
 * each window keeps. The expected windows are worked out by hand from perf
 * 6.1's rules (util/time-utils.c); t2012 checks the samples kept against perf.
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

#include <sampo/time-range.h>

#define SEC 1000000000ULL

/* @str parses into the @nr windows of @want (start, end pairs) */
static void check(const char *str, uint64_t first, uint64_t last, size_t nr, const uint64_t *want)
{
	struct sampo_time_range *r = NULL;
	char err[256] = "";
	size_t n = 0;

	if (sampo_time_ranges__parse(str, first, last, &r, &n, err, sizeof(err)))
		fail_msg("'%s': %s", str, err);
	assert_int_equal(n, nr);
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(r[i].start, want[2 * i]);
		assert_int_equal(r[i].end, want[2 * i + 1]);
	}
	free(r);
}

static void refused(const char *str, uint64_t first, uint64_t last, const char *why)
{
	struct sampo_time_range *r = NULL;
	char err[256] = "";
	size_t n = 7;

	assert_int_equal(sampo_time_ranges__parse(str, first, last, &r, &n, err, sizeof(err)),
			 -EINVAL);
	assert_null(r);
	assert_int_equal(n, 0);
	if (!strstr(err, why))
		fail_msg("'%s': '%s' does not say '%s'", str, err, why);
}

static void test_time_range__seconds(void **state)
{
	(void)state;
	check("1.5,2.25", 0, 0, 1, (const uint64_t[]){ 3 * SEC / 2, 9 * SEC / 4 });
	check("664.109215,664.2", 0, 0, 1,
	      (const uint64_t[]){ 664 * SEC + 109215000, 664 * SEC + 200000000 });
	check("1.000000001,2", 0, 0, 1, (const uint64_t[]){ SEC + 1, 2 * SEC });
	check(",2", 0, 0, 1, (const uint64_t[]){ 0, 2 * SEC });
	check("3,", 0, 0, 1, (const uint64_t[]){ 3 * SEC, 0 });
	check("3.,4", 0, 0, 1, (const uint64_t[]){ 3 * SEC, 4 * SEC });
	/* several windows, separated by spaces, in order */
	check("1,2 3,4", 0, 0, 2, (const uint64_t[]){ SEC, 2 * SEC, 3 * SEC, 4 * SEC });
	check("1,2  3,", 0, 0, 2, (const uint64_t[]){ SEC, 2 * SEC, 3 * SEC, 0 });
	refused("1.5", 0, 0, "invalid time '1.5'");
	refused("", 0, 0, "invalid time");
	refused("2,1", 0, 0, "START,STOP");
	refused("1.0123456789,2", 0, 0, "invalid time");
	refused("1x,2", 0, 0, "invalid time");
	refused("-1,2", 0, 0, "invalid time");
	refused("1,3 2,4", 0, 0, "invalid time"); /* overlap */
	refused("1,2,3", 0, 0, "invalid time");
	refused("99999999999,", 0, 0, "invalid time"); /* past 2^64 ns */
}

static void test_time_range__shares(void **state)
{
	(void)state;
	/* of [1000, 2000]: 10% is 100 ns, a slice's end one before the next's start */
	check("10%/2", 1000, 2000, 1, (const uint64_t[]){ 1100, 1199 });
	check("10%/1,10%/3", 1000, 2000, 2, (const uint64_t[]){ 1000, 1099, 1200, 1299 });
	check("0%-10%,30%-40%", 1000, 2000, 2, (const uint64_t[]){ 1000, 1099, 1300, 1399 });
	check("50%", 1000, 2000, 1, (const uint64_t[]){ 1000, 1499 });
	check("100%/1", 1000, 2000, 1, (const uint64_t[]){ 1000, 2000 }); /* the last sample */
	check("25%/4", 1000, 2000, 1, (const uint64_t[]){ 1750, 2000 });
	check("10%/1,", 1000, 2000, 1, (const uint64_t[]){ 1000, 1099 }); /* a comma at the end */
	/* backwards, as perf takes it: a window that keeps nothing */
	check("71%-40%", 1000, 2000, 1, (const uint64_t[]){ 1710, 1400 }); /* no end-1: before start */
	/* rounding to the nearest nanosecond: a third of 1000 is 333.33 */
	check("33.3333%/2", 0, 1000, 1, (const uint64_t[]){ 333, 666 });
	refused("10%/11", 1000, 2000, "invalid time"); /* past 100% */
	refused("0%/1", 1000, 2000, "invalid time");   /* an empty slice */
	refused("10%/x", 1000, 2000, "invalid time");
	refused("10%/2,", 0, 0, "no times of its first and last samples");
	refused("10%,20%", 1000, 2000, "invalid time");
	refused("10%/1,0%-5%", 1000, 2000, "invalid time");
	refused("5%-", 1000, 2000, "invalid time");
	refused("x%", 1000, 2000, "invalid time");
	refused("50%", 2000, 1000, "invalid time"); /* a last sample before the first */
	check("100%/1", 0, UINT64_MAX, 1, (const uint64_t[]){ 0, UINT64_MAX });
}

static void test_time_range__skip(void **state)
{
	const struct sampo_time_range one = { 1100, 1199 }, open_end = { 1100, 0 };
	const struct sampo_time_range two[] = { { 1000, 1099 }, { 1300, 0 } };

	(void)state;
	assert_true(sampo_time_ranges__skip(&one, 1, 1099));
	assert_false(sampo_time_ranges__skip(&one, 1, 1100));
	assert_false(sampo_time_ranges__skip(&one, 1, 1199));
	assert_true(sampo_time_ranges__skip(&one, 1, 1200));
	assert_false(sampo_time_ranges__skip(&one, 1, 0)); /* a sample without a time */
	assert_false(sampo_time_ranges__skip(&open_end, 1, UINT64_MAX));
	assert_false(sampo_time_ranges__skip(two, 2, 1000));
	assert_true(sampo_time_ranges__skip(two, 2, 1100));
	assert_true(sampo_time_ranges__skip(two, 2, 1299));
	assert_false(sampo_time_ranges__skip(two, 2, 5000));
	assert_false(sampo_time_ranges__skip(NULL, 0, 5000)); /* no window: everything */
	for (uint64_t t = 1300; t < 1800; t += 100)
		assert_true(sampo_time_ranges__skip(&(const struct sampo_time_range){ 1710, 1399 }, 1, t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_range__seconds),
		cmocka_unit_test(test_time_range__shares),
		cmocka_unit_test(test_time_range__skip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
