// SPDX-License-Identifier: GPL-2.0
/*
 * test-cpuset.c - CPU sets (lib/cpuset.c): perf's list syntax, the words
 * it refuses with the message the CLI prints, the bounds, and copies; and
 * perf_cpu_map__new()'s reading of a list, quirks included.
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

#include <sampo/cpuset.h>

static void test_cpu_set__parse_ranges(void **state)
{
	struct sampo_cpu_set *set = NULL;

	(void)state;
	assert_int_equal(sampo_cpu_set__parse("0-3,7,130,", &set, NULL, 0), 0);
	assert_int_equal(sampo_cpu_set__nr(set), 6);
	for (uint32_t c = 0; c < 4; c++)
		assert_true(sampo_cpu_set__has(set, c));
	assert_false(sampo_cpu_set__has(set, 4));
	assert_true(sampo_cpu_set__has(set, 7));
	assert_true(sampo_cpu_set__has(set, 130));
	assert_false(sampo_cpu_set__has(set, 129));
	assert_false(sampo_cpu_set__has(set, 1000)); /* past the last word */
	sampo_cpu_set__delete(set);
}

static void test_cpu_set__parse_empty(void **state)
{
	struct sampo_cpu_set *set = NULL;

	(void)state;
	/* an empty list is a set of no CPUs, not "every CPU" */
	assert_int_equal(sampo_cpu_set__parse("", &set, NULL, 0), 0);
	assert_int_equal(sampo_cpu_set__nr(set), 0);
	assert_false(sampo_cpu_set__has(set, 0));
	sampo_cpu_set__delete(set);
}

static void test_cpu_set__parse_rejects(void **state)
{
	static const char *const bad[] = { "1-x",  "3-1",   "x",       "-1", "1;2",
					   "1,,2", "65536", "0-65536", "1-" };
	struct sampo_cpu_set *set = NULL;
	char err[64], want[64];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(sampo_cpu_set__parse(bad[i], &set, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "invalid cpu list '%s'", bad[i]);
		assert_string_equal(err, want);
		assert_null(set);
	}
	assert_int_equal(sampo_cpu_set__parse("65535", &set, NULL, 0), 0);
	assert_true(sampo_cpu_set__has(set, 65535));
	sampo_cpu_set__delete(set);
}

static void test_cpu_set__add_and_dup(void **state)
{
	struct sampo_cpu_set *set = sampo_cpu_set__new(), *copy;

	(void)state;
	assert_non_null(set);
	assert_int_equal(sampo_cpu_set__add(set, 64), 0);
	assert_int_equal(sampo_cpu_set__add(set, 2), 0);
	assert_int_equal(sampo_cpu_set__add(set, 2), 0);
	assert_int_equal(sampo_cpu_set__add(set, SAMPO_CPU_SET_MAX), -EINVAL);
	copy = sampo_cpu_set__dup(set);
	sampo_cpu_set__delete(set);
	assert_non_null(copy);
	assert_int_equal(sampo_cpu_set__nr(copy), 2);
	assert_true(sampo_cpu_set__has(copy, 64));
	assert_true(sampo_cpu_set__has(copy, 2));
	assert_false(sampo_cpu_set__has(copy, 63));
	sampo_cpu_set__delete(copy);
	sampo_cpu_set__delete(NULL);
}

static void test_cpu_set__parse_every_prefix(void **state)
{
	static const char list[] = "0-3,17,64-66,1023";
	static const size_t nr_at[] = {
		/* CPUs in the set a prefix names (1 is in 0-3), or -1: invalid */
		0, 1, (size_t)-1, 4, 4, 4, 5, 5, 6, 6, (size_t)-1, (size_t)-1, 8, 8, 8, 9, 9, 9,
	};

	(void)state;
	/* each prefix in a heap copy of exactly its size: ASan sees any read past the NUL */
	assert_int_equal(sizeof(nr_at) / sizeof(nr_at[0]), sizeof(list));
	for (size_t len = 0; len < sizeof(list); len++) {
		char *copy = malloc(len + 1);
		struct sampo_cpu_set *set = NULL;
		int err;

		assert_non_null(copy);
		memcpy(copy, list, len);
		copy[len] = 0;
		err = sampo_cpu_set__parse(copy, &set, NULL, 0);
		if (nr_at[len] == (size_t)-1) {
			assert_int_equal(err, -EINVAL);
		} else {
			assert_int_equal(err, 0);
			assert_int_equal(sampo_cpu_set__nr(set), nr_at[len]);
		}
		sampo_cpu_set__delete(set);
		free(copy);
	}
}

static void check_map(const char *list, int nr, const int *want)
{
	int *cpus = NULL;
	int got = sampo_cpu_map__parse(list, &cpus);

	assert_int_equal(got, nr);
	if (nr < 0) {
		assert_null(cpus);
		return;
	}
	if (want)
		assert_memory_equal(cpus, want, (size_t)nr * sizeof(*cpus));
	free(cpus);
}

static void test_cpu_map__parse_perf_quirks(void **state)
{
	(void)state;
	check_map("0-3,8", 5, (const int[]){ 0, 1, 2, 3, 8 });
	/* sorted, whatever the order given */
	check_map("9,2-3,0", 4, (const int[]){ 0, 2, 3, 9 });
	/* numbers in any C base */
	check_map("0x10,010", 2, (const int[]){ 8, 16 });
	/* the empty list is the "dummy" map */
	check_map("", 1, (const int[]){ -1 });
	/* a comma followed by anything but a number ends the list quietly */
	check_map("1,,2", 1, (const int[]){ 1 });
	check_map("1,x", 1, (const int[]){ 1 });
	check_map("4,", 1, (const int[]){ 4 });
	/* what perf refuses */
	check_map("1,1", -EINVAL, NULL);
	check_map("0-3,2", -EINVAL, NULL);
	check_map("x", -EINVAL, NULL);
	check_map("-1", -EINVAL, NULL);
	check_map(",1", -EINVAL, NULL);
	check_map("1;2", -EINVAL, NULL);
	check_map("3-1", -EINVAL, NULL);
	check_map("1-3-5", -EINVAL, NULL);
	check_map("1--2", -EINVAL, NULL);
	check_map("2147483647", -EINVAL, NULL);
	check_map("99999999999999999999999", -EINVAL, NULL);
	check_map("2147483646", 1, (const int[]){ 2147483646 });
	/* the count is bounded, not the numbers: 8 GiB asked by one range */
	check_map("0-2147483646", -E2BIG, NULL);
	check_map("0-65534,70000", 65536, NULL);
	check_map("0-65535,70000", -E2BIG, NULL);
}

static void test_cpu_map__parse_every_prefix(void **state)
{
	static const char list[] = "0x1-3,7,10-12,";

	(void)state;
	/* each prefix in an exactly-sized heap copy: no read past its end */
	for (size_t len = 0; len <= sizeof(list) - 1; len++) {
		char *copy = malloc(len + 1);
		int *cpus = NULL;
		int nr;

		assert_non_null(copy);
		memcpy(copy, list, len);
		copy[len] = 0;
		nr = sampo_cpu_map__parse(copy, &cpus);
		assert_true(nr == -EINVAL || nr >= 1);
		free(cpus);
		free(copy);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_set__parse_ranges),
		cmocka_unit_test(test_cpu_set__parse_empty),
		cmocka_unit_test(test_cpu_set__parse_rejects),
		cmocka_unit_test(test_cpu_set__add_and_dup),
		cmocka_unit_test(test_cpu_set__parse_every_prefix),
		cmocka_unit_test(test_cpu_map__parse_perf_quirks),
		cmocka_unit_test(test_cpu_map__parse_every_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
