// SPDX-License-Identifier: GPL-2.0
/*
 * test-perfmap.c - JIT perf maps (lib/symbol-perfmap.c): the "START SIZE
 * NAME" text cut at every length into a heap copy of exactly that size (so
 * ASan sees any over-read), names with NUL bytes and CRs, numbers that
 * overflow, and the file itself: only a regular file of ours or root's,
 * never a FIFO (which would block the reader) or a symbolic link.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/symbol.h>
#include "internal/symbol.h"

#include "fixture.h"

static const char good_map[] = "7f0000001000 40 Interpreter\n"
			       "7f0000001040 100 LazyCompile:~foo /tmp/a.js:1\n"
			       "7f0000002000 8 stub\n";

static void test_perfmap__every_cut_parses_a_prefix(void **state)
{
	size_t full_nr = 0;

	(void)state;
	for (size_t len = 0; len <= sizeof(good_map) - 1; len++) {
		char *cut = malloc(len ? len : 1);
		struct sampo_symtab *st = NULL;
		size_t lines = 0;

		assert_non_null(cut);
		memcpy(cut, good_map, len);
		assert_int_equal(sampo_symtab__load_perf_map_mem(cut, len, &st), 0);
		/* never more symbols than complete-looking lines, never fewer than whole lines */
		for (size_t i = 0; i < len; i++)
			lines += cut[i] == '\n';
		assert_true(sampo_symtab__nr(st) >= lines);
		assert_true(sampo_symtab__nr(st) <= lines + 1);
		if (len == sizeof(good_map) - 1)
			full_nr = sampo_symtab__nr(st);
		sampo_symtab__delete(st);
		free(cut);
	}
	assert_int_equal(full_nr, 3);
}

static void test_perfmap__hostile_lines_are_skipped(void **state)
{
	static const char map[] = "10000000000000000 10 overflow_start\n" /* 17 hex digits */
				  "1000 10000000000000000 overflow_size\n"
				  "ffffffffffffff00 1000 wraps\n"
				  "1000\n"
				  "1000 \n"
				  "1000 10\n"
				  "1000 10 \n"
				  " 1000 10 leading_space\n"
				  "-1000 10 negative\n"
				  "2000 10 na\0me\n"
				  "3000 10 crlf\r\n";
	struct sampo_symtab *st;
	const struct sampo_symbol *sym;

	(void)state;
	assert_int_equal(sampo_symtab__load_perf_map_mem(map, sizeof(map) - 1, &st), 0);
	assert_int_equal(sampo_symtab__nr(st), 2);
	sym = sampo_symtab__find(st, 0x2000);
	assert_non_null(sym);
	assert_string_equal(sampo_symbol__name(sym), "na"); /* a NUL ends the name */
	sym = sampo_symtab__find(st, 0x300f);
	assert_non_null(sym);
	assert_string_equal(sampo_symbol__name(sym), "crlf");
	assert_null(sampo_symtab__find(st, 0x3010));
	sampo_symtab__delete(st);
}

/* ---- the file --------------------------------------------------------------------------- */

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/sampo-test-perfmap-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_remove_tree(dir);
}

static void write_map(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(good_map, f);
	fclose(f);
}

static void test_perfmap__file_of_ours(void **state)
{
	struct sampo_symtab *st = NULL;
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/perf-1.map", dir);
	write_map(path);
	assert_int_equal(sampo_symtab__load_perf_map(path, false, &st), 0);
	assert_int_equal(sampo_symtab__nr(st), 3);
	sampo_symtab__delete(st);
	snprintf(path, sizeof(path), "%s/perf-none.map", dir);
	assert_int_equal(sampo_symtab__load_perf_map(path, false, &st), -ENOENT);
}

static void test_perfmap__fifo_is_refused_without_blocking(void **state)
{
	struct sampo_symtab *st = NULL;
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/perf-2.map", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(20); /* a blocking open or read would hang: make it a failure */
	assert_int_equal(sampo_symtab__load_perf_map(path, true, &st), -EINVAL);
	alarm(0);
	assert_null(st);
}

static void test_perfmap__symlink_and_directory_are_refused(void **state)
{
	struct sampo_symtab *st = NULL;
	char path[128], target[128];

	(void)state;
	snprintf(target, sizeof(target), "%s/target.map", dir);
	write_map(target);
	snprintf(path, sizeof(path), "%s/perf-3.map", dir);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(sampo_symtab__load_perf_map(path, true, &st), -ELOOP);
	snprintf(path, sizeof(path), "%s/perf-4.map", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(sampo_symtab__load_perf_map(path, true, &st), -EINVAL);
	assert_null(st);
}

static void test_perfmap__another_users_file(void **state)
{
	struct sampo_symtab *st = NULL;
	char path[128];

	(void)state;
	if (geteuid() != 0)
		skip(); /* only root can give a file away */
	snprintf(path, sizeof(path), "%s/perf-5.map", dir);
	write_map(path);
	assert_int_equal(chown(path, 4000323, 4000323), 0);
	assert_int_equal(sampo_symtab__load_perf_map(path, false, &st), -EPERM);
	assert_null(st);
	assert_int_equal(sampo_symtab__load_perf_map(path, true, &st), 0); /* --force */
	assert_int_equal(sampo_symtab__nr(st), 3);
	sampo_symtab__delete(st);
	/* root's own file is trusted as perf trusts it */
	assert_int_equal(chown(path, 0, 0), 0);
	assert_int_equal(sampo_symtab__load_perf_map(path, false, &st), 0);
	sampo_symtab__delete(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perfmap__every_cut_parses_a_prefix),
		cmocka_unit_test(test_perfmap__hostile_lines_are_skipped),
		cmocka_unit_test(test_perfmap__file_of_ours),
		cmocka_unit_test(test_perfmap__fifo_is_refused_without_blocking),
		cmocka_unit_test(test_perfmap__symlink_and_directory_are_refused),
		cmocka_unit_test(test_perfmap__another_users_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
