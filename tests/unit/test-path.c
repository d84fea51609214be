// SPDX-License-Identifier: GPL-2.0
/*
 * test-path.c - the checks a string read from a file passes before it
 * becomes part of a path (lib/path.c): releases and module names as one
 * component, recorded paths that never climb out of the root they are
 * joined to.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "internal/path.h"

static void test_path__is_name(void **state)
{
	(void)state;
	assert_true(sampo_path__is_name("6.1.0-13-amd64"));
	assert_true(sampo_path__is_name("ext4"));
	assert_true(sampo_path__is_name("..."));
	assert_true(sampo_path__is_name(".hidden"));
	assert_true(sampo_path__is_name("a..b"));
	assert_false(sampo_path__is_name(NULL));
	assert_false(sampo_path__is_name(""));
	assert_false(sampo_path__is_name("."));
	assert_false(sampo_path__is_name(".."));
	assert_false(sampo_path__is_name("../../.."));
	assert_false(sampo_path__is_name("a/b"));
	assert_false(sampo_path__is_name("/"));
	assert_false(sampo_path__is_name("6.1\n"));
	assert_false(sampo_path__is_name("tab\there"));
	assert_false(sampo_path__is_name("del\x7f"));
}

static void test_path__is_clean(void **state)
{
	(void)state;
	assert_true(sampo_path__is_clean("/usr/lib/x86_64-linux-gnu/libc.so.6"));
	assert_true(sampo_path__is_clean("/lib/modules/6.1/kernel/fs/ext4/ext4.ko.xz"));
	assert_true(sampo_path__is_clean("relative/path"));
	assert_true(sampo_path__is_clean("//double//slashes/"));
	assert_true(sampo_path__is_clean("/a/.hidden/..x/x../..."));
	assert_true(sampo_path__is_clean("/"));
	assert_false(sampo_path__is_clean(NULL));
	assert_false(sampo_path__is_clean(""));
	assert_false(sampo_path__is_clean(".."));
	assert_false(sampo_path__is_clean("/.."));
	assert_false(sampo_path__is_clean("../x"));
	assert_false(sampo_path__is_clean("/usr/lib/../../etc/passwd"));
	assert_false(sampo_path__is_clean("/usr/lib/.."));
	assert_false(sampo_path__is_clean("/usr/lib/..//"));
	assert_false(sampo_path__is_clean("/usr/./lib"));
	assert_false(sampo_path__is_clean("./x"));
	assert_false(sampo_path__is_clean("/usr/lib/x\n.so"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path__is_name),
		cmocka_unit_test(test_path__is_clean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
