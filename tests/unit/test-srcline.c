// SPDX-License-Identifier: GPL-2.0
/*
 * test-srcline.c - source lines from DWARF (lib/srcline.c) on the fixtures'
 * burn binary (gcc -O1 -g -fno-inline, see fixtures/perf-6.1/README.md):
 * an address's function, file and line and the function's own line; an
 * address no unit covers; files without DWARF. The inline chains are
 * checked on a program built by tests/cli/t6101-pprof-record.sh.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sampo/srcline.h>

static char burn[1024];

static int setup(void **state)
{
	const char *shared = getenv("SAMPO_SHARED");
	FILE *f;

	(void)state;
	snprintf(burn, sizeof(burn), "%s/fixtures/perf-6.1/burn", shared ? shared : "../shared");
	f = fopen(burn, "rb");
	if (!f)
		burn[0] = 0;
	else
		fclose(f);
	return 0;
}

static void test_srcline__function_file_line(void **state)
{
	struct sampo_srcline_frame fr[4];
	struct sampo_srcline *sl;
	size_t n = 99;

	(void)state;
	if (!burn[0])
		skip();
	assert_int_equal(sampo_srcline__open(burn, NULL, &sl), 0);
	/* 0x1169: burn_leaf_alpha's loop (perf script shows burn_leaf_alpha+0x20) */
	assert_int_equal(sampo_srcline__find(sl, 0x1169, fr, 4, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(fr[0].function, "burn_leaf_alpha");
	assert_string_equal(fr[0].file, "/tmp/pfx/burn.c");
	assert_int_equal(fr[0].line, 12);
	assert_string_equal(fr[0].decl_file, "/tmp/pfx/burn.c");
	assert_int_equal(fr[0].decl_line, 8);
	/* main's call of burn_outer_delta, one byte before the return address */
	assert_int_equal(sampo_srcline__find(sl, 0x1229 - 1, fr, 4, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(fr[0].function, "main");
	assert_int_equal(fr[0].line, 40);
	/* no unit covers address 0 */
	assert_int_equal(sampo_srcline__find(sl, 0, fr, 4, &n), -ENOENT);
	assert_int_equal(n, 0);
	/* no room at all */
	assert_int_equal(sampo_srcline__find(sl, 0x1169, fr, 0, &n), -ENOENT);
	sampo_srcline__close(sl);
	sampo_srcline__close(NULL);
}

static void test_srcline__no_dwarf(void **state)
{
	char path[1100];
	struct sampo_srcline *sl = (void *)1;

	(void)state;
	assert_int_equal(sampo_srcline__open("/nonexistent/file", NULL, &sl), -ENOENT);
	assert_null(sl);
	if (!burn[0])
		skip();
	/* burn.c is no ELF file */
	snprintf(path, sizeof(path), "%s.c", burn);
	assert_int_equal(sampo_srcline__open(path, NULL, &sl), -ENOENT);
	assert_null(sl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_srcline__function_file_line),
		cmocka_unit_test(test_srcline__no_dwarf),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
