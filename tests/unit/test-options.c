/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test-options.c - parse_options() (tools/sampo/options.c): every accepted
 * form, argument compaction, numbers and their limits, and the special
 * return values. Messages go to stderr; the tests check return values and
 * stored values only.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "options.h"
#include "perf-options.h"

static const char *const test_usage[] = {
	"sampo test [<options>] [<file>...]",
	NULL,
};

struct test_ctx {
	bool raw;
	int verbose;
	int mode;
	int freq;
	int count;
	uint64_t limit;
	const char *input;
	const char *cb_arg;
	int cb_calls;
};

static struct test_ctx ctx;

static int test_cb(const struct option *opt, const char *arg, bool unset)
{
	struct test_ctx *c = opt->value;

	(void)unset;
	if (arg && !strcmp(arg, "bad"))
		return -22;
	c->cb_arg = arg;
	c->cb_calls++;
	return 0;
}

static int parse(int argc, const char **argv)
{
	const struct option opts[] = {
		OPT_STRING('i', "input", &ctx.input, "file", "input file name"),
		OPT_BOOLEAN('r', "raw", &ctx.raw, "raw output"),
		OPT_INCR('v', "verbose", &ctx.verbose, "more messages"),
		OPT_SET_INT(0, "stdio", &ctx.mode, "stdio mode", 2),
		OPT_INTEGER_RANGE('F', "freq", &ctx.freq, "hz", "frequency", 1, 1000),
		OPT_INTEGER('c', "count", &ctx.count, "n", "count"),
		OPT_U64(0, "limit", &ctx.limit, "bytes", "limit"),
		OPT_GROUP("other"),
		OPT_CALLBACK('e', "event", &ctx, "event", "event name", test_cb),
		OPT_BOOLEAN(0, "raw-trace", &ctx.raw, "ambiguity bait"),
		OPT_END(),
	};

	memset(&ctx, 0, sizeof(ctx));
	return parse_options(argc, argv, opts, test_usage, 0);
}

static void test_options__short_and_long_forms(void **state)
{
	(void)state;
	const char *a1[] = { "test", "-i", "x.data", NULL };
	assert_int_equal(parse(3, a1), 0);
	assert_string_equal(ctx.input, "x.data");

	const char *a2[] = { "test", "-iy.data", NULL };
	assert_int_equal(parse(2, a2), 0);
	assert_string_equal(ctx.input, "y.data");

	const char *a3[] = { "test", "--input", "z.data", NULL };
	assert_int_equal(parse(3, a3), 0);
	assert_string_equal(ctx.input, "z.data");

	const char *a4[] = { "test", "--input=w.data", NULL };
	assert_int_equal(parse(2, a4), 0);
	assert_string_equal(ctx.input, "w.data");

	const char *a5[] = { "test", "-rvv", "-v", "--verbose", NULL };
	assert_int_equal(parse(4, a5), 0);
	assert_true(ctx.raw);
	assert_int_equal(ctx.verbose, 4);

	const char *a6[] = { "test", "-rF100", NULL };
	assert_int_equal(parse(2, a6), 0);
	assert_true(ctx.raw);
	assert_int_equal(ctx.freq, 100);

	const char *a7[] = { "test", "--stdio", NULL };
	assert_int_equal(parse(2, a7), 0);
	assert_int_equal(ctx.mode, 2);
}

static void test_options__negation_and_abbreviation(void **state)
{
	(void)state;
	const char *a1[] = { "test", "-r", "--no-raw", NULL };
	assert_int_equal(parse(3, a1), 0);
	assert_false(ctx.raw);

	const char *a2[] = { "test", "--inp", "a", "--verb", NULL };
	assert_int_equal(parse(4, a2), 0);
	assert_string_equal(ctx.input, "a");
	assert_int_equal(ctx.verbose, 1);

	/* "--raw" is exact even though "--raw-trace" shares the prefix */
	const char *a3[] = { "test", "--raw", NULL };
	assert_int_equal(parse(2, a3), 0);
	assert_true(ctx.raw);

	/* "--ra" could be --raw or --raw-trace */
	const char *a4[] = { "test", "--ra", NULL };
	assert_int_equal(parse(2, a4), PARSE_OPT_USAGE);

	/* strings are not negatable */
	const char *a5[] = { "test", "--no-input", NULL };
	assert_int_equal(parse(2, a5), PARSE_OPT_USAGE);
}

static void test_options__keeps_arguments_in_order(void **state)
{
	(void)state;
	const char *a1[] = { "test", "a", "-r", "b", "-", "-i", "f", "c", NULL };
	assert_int_equal(parse(8, a1), 4);
	assert_string_equal(a1[0], "a");
	assert_string_equal(a1[1], "b");
	assert_string_equal(a1[2], "-");
	assert_string_equal(a1[3], "c");
	assert_null(a1[4]);

	const char *a2[] = { "test", "-r", "--", "-v", "x", NULL };
	assert_int_equal(parse(5, a2), 2);
	assert_string_equal(a2[0], "-v");
	assert_string_equal(a2[1], "x");
	assert_int_equal(ctx.verbose, 0);
}

static void test_options__stop_at_non_option(void **state)
{
	bool raw = false;
	const struct option opts[] = {
		OPT_BOOLEAN('r', "raw", &raw, "raw"),
		OPT_END(),
	};
	const char *a[] = { "record", "-r", "prog", "-r", NULL };

	(void)state;
	assert_int_equal(parse_options(4, a, opts, test_usage, PARSE_OPT_STOP_AT_NON_OPTION), 2);
	assert_true(raw);
	assert_string_equal(a[0], "prog");
	assert_string_equal(a[1], "-r");
}

static void test_options__numbers(void **state)
{
	(void)state;
	const char *a1[] = { "test", "-c", "-12", "--limit", "0x10", NULL };
	assert_int_equal(parse(5, a1), 0);
	assert_int_equal(ctx.count, -12);
	assert_int_equal(ctx.limit, 16);

	const char *a2[] = { "test", "--limit=18446744073709551615", NULL };
	assert_int_equal(parse(2, a2), 0);
	assert_true(ctx.limit == UINT64_MAX);

	const char *a3[] = { "test", "--limit=18446744073709551616", NULL };
	assert_int_equal(parse(2, a3), PARSE_OPT_USAGE);

	const char *a4[] = { "test", "--limit=-1", NULL };
	assert_int_equal(parse(2, a4), PARSE_OPT_USAGE);

	const char *a5[] = { "test", "-c", "12x", NULL };
	assert_int_equal(parse(3, a5), PARSE_OPT_USAGE);

	const char *a6[] = { "test", "-c", "", NULL };
	assert_int_equal(parse(3, a6), PARSE_OPT_USAGE);

	const char *a7[] = { "test", "-c", "2147483648", NULL };
	assert_int_equal(parse(3, a7), PARSE_OPT_USAGE);

	const char *a8[] = { "test", "-c", " 1", NULL };
	assert_int_equal(parse(3, a8), PARSE_OPT_USAGE);

	const char *a9[] = { "test", "-F", "1000", NULL };
	assert_int_equal(parse(3, a9), 0);
	assert_int_equal(ctx.freq, 1000);

	const char *a10[] = { "test", "-F", "1001", NULL };
	assert_int_equal(parse(3, a10), PARSE_OPT_USAGE);

	const char *a11[] = { "test", "-F", "0", NULL };
	assert_int_equal(parse(3, a11), PARSE_OPT_USAGE);

	const char *a12[] = { "test", "-c", "0x", NULL };
	assert_int_equal(parse(3, a12), PARSE_OPT_USAGE);
}

static void test_options__errors(void **state)
{
	(void)state;
	const char *a1[] = { "test", "-x", NULL };
	assert_int_equal(parse(2, a1), PARSE_OPT_USAGE);

	const char *a2[] = { "test", "--nope", NULL };
	assert_int_equal(parse(2, a2), PARSE_OPT_USAGE);

	const char *a3[] = { "test", "-i", NULL };
	assert_int_equal(parse(2, a3), PARSE_OPT_USAGE);

	const char *a4[] = { "test", "--raw=1", NULL };
	assert_int_equal(parse(2, a4), PARSE_OPT_USAGE);

	const char *a5[] = { "test", "-e", "bad", NULL };
	assert_int_equal(parse(3, a5), PARSE_OPT_USAGE);

	const char *a6[] = { "test", "--=x", NULL };
	assert_int_equal(parse(2, a6), PARSE_OPT_USAGE);
}

static void test_options__callback(void **state)
{
	(void)state;
	const char *a1[] = { "test", "-e", "cpu-clock", "--event=task-clock", NULL };
	assert_int_equal(parse(4, a1), 0);
	assert_int_equal(ctx.cb_calls, 2);
	assert_string_equal(ctx.cb_arg, "task-clock");
}

static void test_options__help(void **state)
{
	FILE *saved = stdout;

	(void)state;
	stdout = fopen("/dev/null", "w");
	assert_non_null(stdout);

	const char *a1[] = { "test", "-h", NULL };
	int r1 = parse(2, a1);
	const char *a2[] = { "test", "-r", "--help", "-x", NULL };
	int r2 = parse(4, a2);

	fclose(stdout);
	stdout = saved;
	assert_int_equal(r1, PARSE_OPT_HELP);
	assert_int_equal(r2, PARSE_OPT_HELP);
}

static void test_options__exit_codes(void **state)
{
	(void)state;
	assert_int_equal(cli_exit_code(0), 0);
	assert_int_equal(cli_exit_code(PARSE_OPT_HELP), 0);
	assert_int_equal(cli_exit_code(PARSE_OPT_USAGE), 129);
	assert_int_equal(cli_exit_code(-2), 1);
	assert_int_equal(cli_exit_code(-4000), 1);
	assert_int_equal(cli_exit_code(1), 1);
	assert_int_equal(cli_exit_code(-EPIPE), 0);
}

/* report's --children/--no-children pair and a hidden alias, as perf takes their prefixes */
static void test_options__pairs_and_aliases(void **state)
{
	bool children = false, no_children = false;
	const char *dsos = NULL;
	const struct option opts[] = {
		OPT_BOOLEAN(0, "children", &children, "children"),
		OPT_BOOLEAN(0, "no-children", &no_children, "self only"),
		OPT_STRING(0, "dsos", &dsos, "dsos", "only these"),
		{ .type = OPTION_STRING, .long_name = "dso", .value = &dsos, .flags = OPT_F_HIDDEN },
		OPT_END(),
	};
	(void)state;

	/* "--no-child" is --no-children, not "--no-children or --children" */
	const char *a1[] = { "test", "--no-child", NULL };
	assert_int_equal(parse_options(2, a1, opts, test_usage, 0), 0);
	assert_true(no_children);
	assert_false(children);
	const char *a2[] = { "test", "--chil", NULL };
	assert_int_equal(parse_options(2, a2, opts, test_usage, 0), 0);
	assert_true(children);
	/* "--ds" is --dsos whichever of its names it abbreviates */
	const char *a3[] = { "test", "--ds", "x", NULL };
	assert_int_equal(parse_options(3, a3, opts, test_usage, 0), 0);
	assert_string_equal(dsos, "x");
	/* an exact "--no-children" still works, and "--no-" alone stays ambiguous */
	no_children = false;
	const char *a4[] = { "test", "--no-children", NULL };
	assert_int_equal(parse_options(2, a4, opts, test_usage, 0), 0);
	assert_true(no_children);
}

/* an option perf's command has and the table lacks is a usage error all the same */
static void test_options__perf_options(void **state)
{
	bool raw = false;
	const struct option opts[] = {
		OPT_BOOLEAN(0, "raw", &raw, "raw"),
		OPT_END(),
	};
	bool no = false;
	(void)state;

	assert_non_null(perf_options_of("report"));
	assert_ptr_equal(perf_options_of("dump"), perf_options_of("report"));
	assert_null(perf_options_of("flamegraph"));
	assert_string_equal(perf_option_resolve("report", "thr", 3, &no), "threads");
	assert_false(no);
	assert_string_equal(perf_option_resolve("report", "no-demangle", 11, &no), "demangle");
	assert_true(no);
	assert_null(perf_option_resolve("report", "s", 1, &no)); /* sort, symfs, stdio... */
	assert_true(perf_has_command("annotate"));
	assert_false(perf_has_command("flamegraph"));

	cli_set_cmd("report");
	const char *a1[] = { "report", "--tui", NULL };
	assert_int_equal(parse_options(2, a1, opts, test_usage, 0), PARSE_OPT_USAGE);
	const char *a2[] = { "report", "-T", NULL };
	assert_int_equal(parse_options(2, a2, opts, test_usage, 0), PARSE_OPT_USAGE);
	cli_set_cmd("test");
}

static int fail_cb(const struct option *opt, const char *arg, bool unset)
{
	(void)opt;
	(void)unset;
	parse_opt_fail("-F: unknown field '%s'", arg);
	return -22;
}

/* parse_opt_fail(): the callback's own message; the next callback starts clean */
static void test_options__callback_message(void **state)
{
	const struct option opts[] = {
		OPT_CALLBACK('F', "fields", NULL, "f", "fields", fail_cb),
		OPT_CALLBACK('e', "event", &ctx, "event", "event name", test_cb),
		OPT_END(),
	};
	(void)state;

	const char *a1[] = { "test", "-F", "foo", NULL };
	assert_int_equal(parse_options(3, a1, opts, test_usage, 0), PARSE_OPT_USAGE);
	const char *a2[] = { "test", "-e", "bad", NULL };
	assert_int_equal(parse_options(3, a2, opts, test_usage, 0), PARSE_OPT_USAGE);
}

/*
 * OPT_CALLBACK_OPTARG: "--name" (no argument), "--name=ARG"; "--name ARG" leaves
 * ARG alone; a short one "-z" or "-z3", and "-z 3" leaves 3 alone (perf's -z)
 */
static void test_options__optional_argument(void **state)
{
	const struct option opts[] = {
		OPT_CALLBACK_OPTARG('z', "debuginfod", &ctx, "urls", "servers", test_cb),
		OPT_END(),
	};
	(void)state;

	memset(&ctx, 0, sizeof(ctx));
	const char *a1[] = { "test", "--debuginfod", "file", NULL };
	assert_int_equal(parse_options(3, a1, opts, test_usage, 0), 1);
	assert_int_equal(ctx.cb_calls, 1);
	assert_null(ctx.cb_arg);
	assert_string_equal(a1[0], "file");

	memset(&ctx, 0, sizeof(ctx));
	const char *a2[] = { "test", "--debuginfod=http://a http://b", NULL };
	assert_int_equal(parse_options(2, a2, opts, test_usage, 0), 0);
	assert_string_equal(ctx.cb_arg, "http://a http://b");

	memset(&ctx, 0, sizeof(ctx));
	const char *a3[] = { "test", "--no-debuginfod", NULL };
	assert_int_equal(parse_options(2, a3, opts, test_usage, 0), 0);
	assert_int_equal(ctx.cb_calls, 1);

	const char *a4[] = { "test", "--no-debuginfod=x", NULL };
	assert_int_equal(parse_options(2, a4, opts, test_usage, 0), PARSE_OPT_USAGE);

	memset(&ctx, 0, sizeof(ctx));
	const char *a5[] = { "test", "-z", "3", NULL };
	assert_int_equal(parse_options(3, a5, opts, test_usage, 0), 1);
	assert_int_equal(ctx.cb_calls, 1);
	assert_null(ctx.cb_arg);
	assert_string_equal(a5[0], "3");

	memset(&ctx, 0, sizeof(ctx));
	const char *a6[] = { "test", "-z3", NULL };
	assert_int_equal(parse_options(2, a6, opts, test_usage, 0), 0);
	assert_string_equal(ctx.cb_arg, "3");
}

/* the comma lists of --comms, --dsos, --symbols: empty words dropped */
static void test_cli__split_words(void **state)
{
	struct cli_word_list list = { 0 };

	(void)state;
	assert_int_equal(cli_split_words(",burn,,libc.so.6,", &list), 0);
	assert_int_equal(list.nr, 2);
	assert_string_equal(list.words[0], "burn");
	assert_string_equal(list.words[1], "libc.so.6");
	cli_word_list_release(&list);

	memset(&list, 0, sizeof(list));
	assert_int_equal(cli_split_words("", &list), 0);
	assert_int_equal(list.nr, 0);
	cli_word_list_release(&list);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options__short_and_long_forms),
		cmocka_unit_test(test_options__negation_and_abbreviation),
		cmocka_unit_test(test_options__keeps_arguments_in_order),
		cmocka_unit_test(test_options__stop_at_non_option),
		cmocka_unit_test(test_options__numbers),
		cmocka_unit_test(test_options__errors),
		cmocka_unit_test(test_options__callback),
		cmocka_unit_test(test_options__help),
		cmocka_unit_test(test_options__exit_codes),
		cmocka_unit_test(test_options__pairs_and_aliases),
		cmocka_unit_test(test_options__perf_options),
		cmocka_unit_test(test_options__callback_message),
		cmocka_unit_test(test_options__optional_argument),
		cmocka_unit_test(test_cli__split_words),
	};

	cli_set_cmd("test");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
