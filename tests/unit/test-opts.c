// SPDX-License-Identifier: GPL-2.0
/*
 * test-opts.c - the options structs (lib/internal/opts.h): NULL means
 * defaults, a struct smaller than its size field is refused, a newer
 * caller's bigger struct is accepted only with its unknown tail zeroed, and
 * an older caller's smaller struct gets the defaults for the fields it lacks.
 * The same rules seen through public entry points (reader, writer).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <sampo/reader.h>
#include <sampo/writer.h>

#include "internal/opts.h"

struct demo_opts {
	size_t sz;
	int level;
	const char *name;
};

/* a caller built against a newer header: one more field */
struct demo_opts_v2 {
	size_t sz;
	int level;
	const char *name;
	uint64_t extra;
};

static void test_opts__null_means_defaults(void **state)
{
	const struct demo_opts *opts = NULL;

	(void)state;
	assert_true(OPTS_VALID(opts, demo_opts));
	assert_int_equal(OPTS_GET(opts, level, 7), 7);
	assert_null(OPTS_GET(opts, name, NULL));
}

static void test_opts__too_small_is_refused(void **state)
{
	struct demo_opts o = { .sz = 4 };
	const struct demo_opts *opts = &o;

	(void)state;
	assert_false(OPTS_VALID(opts, demo_opts));
	o.sz = 0;
	assert_false(OPTS_VALID(opts, demo_opts));
}

static void test_opts__older_caller_gets_defaults(void **state)
{
	struct demo_opts o = { .sz = offsetof(struct demo_opts, name), .level = 3,
			       .name = "not seen" };
	const struct demo_opts *opts = &o;

	(void)state;
	assert_true(OPTS_VALID(opts, demo_opts));
	assert_int_equal(OPTS_GET(opts, level, 7), 3);
	/* the caller's struct ends before .name: its bytes are not the caller's */
	assert_null(OPTS_GET(opts, name, NULL));
}

static void test_opts__newer_caller_needs_zero_tail(void **state)
{
	/* the library sees the newer struct through its own type */
	union {
		struct demo_opts_v2 v2;
		struct demo_opts v1;
	} u;
	const struct demo_opts *opts = &u.v1;

	(void)state;
	memset(&u, 0, sizeof(u));
	u.v2.sz = sizeof(u.v2);
	u.v2.level = 5;
	assert_true(OPTS_VALID(opts, demo_opts));
	assert_int_equal(OPTS_GET(opts, level, 0), 5);
	u.v2.extra = 1; /* a field this library cannot honour */
	assert_false(OPTS_VALID(opts, demo_opts));
}

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* the public entry points apply the same rules */
static void test_opts__entry_points_validate(void **state)
{
	static const uint8_t not_perf[64] = { 'x' };
	struct {
		struct sampo_reader_opts o;
		uint64_t tail;
	} big;
	struct sampo_reader *reader = NULL;
	struct sampo_writer *writer = NULL;
	struct sampo_reader_opts small = { .sz = 2 };
	struct sampo_writer_opts wsmall = { .sz = 2 };

	(void)state;
	sampo_set_print(quiet);
	assert_int_equal(sampo_reader__open_mem(not_perf, sizeof(not_perf), "t", &small, &reader),
			 -EINVAL);
	assert_null(reader);
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.tail = 42;
	assert_int_equal(sampo_reader__open_mem(not_perf, sizeof(not_perf), "t", &big.o, &reader),
			 -EINVAL);
	/* the same struct with its tail zeroed gets past the options to the bad magic */
	big.tail = 0;
	assert_int_equal(sampo_reader__open_mem(not_perf, sizeof(not_perf), "t", &big.o, &reader),
			 -SAMPO_ERR_BAD_MAGIC);
	assert_int_equal(sampo_writer__open("/dev/null", &wsmall, &writer), -EINVAL);
	assert_null(writer);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opts__null_means_defaults),
		cmocka_unit_test(test_opts__too_small_is_refused),
		cmocka_unit_test(test_opts__older_caller_gets_defaults),
		cmocka_unit_test(test_opts__newer_caller_needs_zero_tail),
		cmocka_unit_test(test_opts__entry_points_validate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
