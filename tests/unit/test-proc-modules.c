// SPDX-License-Identifier: GPL-2.0
/*
 * test-proc-modules.c - the /proc/modules reader (lib/proc-modules.c):
 * real-looking lines (deps, taints, hidden addresses), lines it skips,
 * input cut at every length, the file read below a fake /proc, and the
 * watch that finds the modules loaded since it was made.
 */
#include <errno.h>
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

#include <sampo/proc-modules.h>

#include "fixture.h"

static char root[] = "/tmp/sampo-test-proc-modules.XXXXXX";

static const char text[] =
	"nf_tables 385024 0 - Live 0xffffffffc0a00000\n"
	"raid6_pq 122880 1 btrfs, Live 0xffffffffc0200000 (E)\n"
	"my-mod 16384 0 - Live 0xffffffffc0300000 (OE)\n"
	"hidden 4096 0 - Live 0x0000000000000000\n"
	"\n"
	"garbage\n"
	"nosize x 0 - Live 0xffffffffc0400000\n"
	"loading 8192 0 - Loading 0xffffffffc0500000 (+)";

static void test_proc_modules__parses_lines(void **state)
{
	struct sampo_proc_module *m;
	size_t nr;

	(void)state;
	assert_int_equal(sampo_proc_modules__parse(text, strlen(text), &m, &nr), 0);
	assert_int_equal(nr, 5);
	assert_string_equal(m[0].name, "nf_tables");
	assert_int_equal(m[0].size_bytes, 385024);
	assert_int_equal(m[0].addr, 0xffffffffc0a00000ull);
	assert_string_equal(m[1].name, "raid6_pq");
	assert_int_equal(m[1].addr, 0xffffffffc0200000ull);
	assert_string_equal(m[2].name, "my-mod");
	assert_string_equal(m[3].name, "hidden");
	assert_int_equal(m[3].addr, 0);
	assert_string_equal(m[4].name, "loading");
	assert_int_equal(m[4].size_bytes, 8192);
	assert_int_equal(m[4].addr, 0xffffffffc0500000ull);
	free(m);
}

static void test_proc_modules__odd_input(void **state)
{
	char longname[200];
	struct sampo_proc_module *m;
	size_t nr;

	(void)state;
	assert_int_equal(sampo_proc_modules__parse("", 0, &m, &nr), 0);
	assert_int_equal(nr, 0);
	assert_null(m);
	assert_int_equal(sampo_proc_modules__parse(NULL, 0, &m, &nr), 0);
	assert_int_equal(sampo_proc_modules__parse(NULL, 1, &m, &nr), -EINVAL);

	/* a name too long for any kernel, a size that overflows, a bad address */
	memset(longname, 'a', sizeof(longname));
	memcpy(longname + 150, " 10 0 - Live 0x1\n", 17);
	assert_int_equal(sampo_proc_modules__parse(longname, 167, &m, &nr), 0);
	assert_int_equal(nr, 0);
	free(m);
	assert_int_equal(sampo_proc_modules__parse("a 99999999999999999999999 0 - Live 0x1\n", 40,
						   &m, &nr),
			 0);
	assert_int_equal(nr, 0);
	free(m);
	assert_int_equal(sampo_proc_modules__parse("a 1 0 - Live 0xzz\tb 2", 22, &m, &nr), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(m[0].addr, 0);
	free(m);
	/* NUL bytes are just bytes; tabs separate */
	assert_int_equal(sampo_proc_modules__parse("a\0b 1 0\nc\t2\t0\t-\tLive\t0x10\n", 26, &m, &nr),
			 0);
	assert_int_equal(nr, 1);
	assert_string_equal(m[0].name, "c");
	assert_int_equal(m[0].addr, 0x10);
	free(m);
}

/* every prefix, in a heap copy of exactly that size, without a NUL: no over-read */
static void test_proc_modules__cut_at_every_length(void **state)
{
	(void)state;
	for (size_t len = 0; len <= strlen(text); len++) {
		char *cut = malloc(len ? len : 1);
		struct sampo_proc_module *m = NULL;
		size_t nr = 0;

		assert_non_null(cut);
		memcpy(cut, text, len);
		assert_int_equal(sampo_proc_modules__parse(cut, len, &m, &nr), 0);
		assert_true(nr <= 5);
		for (size_t i = 0; i < nr; i++)
			assert_true(strlen(m[i].name) < SAMPO_MODULE_NAME_SIZE);
		free(m);
		free(cut);
	}
}

static void test_proc_modules__reads_proc_root(void **state)
{
	char proc[300], path[400];
	struct sampo_proc_module *m;
	size_t nr;
	FILE *f;

	(void)state;
	snprintf(proc, sizeof(proc), "%s/proc", root);
	assert_int_equal(mkdir(proc, 0755), 0);
	assert_int_equal(sampo_proc_modules__read(proc, &m, &nr), -ENOENT);
	snprintf(path, sizeof(path), "%s/modules", proc);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(sampo_proc_modules__read(proc, &m, &nr), 0);
	assert_int_equal(nr, 5);
	assert_string_equal(m[4].name, "loading");
	free(m);
	/* the real one, when there is one */
	if (!access("/proc/modules", R_OK)) {
		assert_int_equal(sampo_proc_modules__read(NULL, &m, &nr), 0);
		free(m);
	}
}

static void write_modules(const char *proc, const char *body)
{
	char path[400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/modules", proc);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(body, f);
	fclose(f);
}

/* the watch: what is loaded at the start is known, not new; each poll finds the newcomers */
static void test_proc_modules__watch_finds_new_modules(void **state)
{
	struct sampo_module_watch *w = NULL;
	char proc[300], path[400];

	(void)state;
	snprintf(proc, sizeof(proc), "%s/watch", root);
	assert_int_equal(mkdir(proc, 0755), 0);
	assert_int_equal(sampo_module_watch__new(proc, &w), -ENOENT);
	write_modules(proc, "ext4 1000 0 - Live 0xffffffffc0000000\n");
	assert_int_equal(sampo_module_watch__new(proc, &w), 0);
	assert_int_equal(sampo_module_watch__nr(w), 1);
	assert_string_equal(sampo_module_watch__name(w, 0), "ext4");
	assert_null(sampo_module_watch__name(w, 1));
	assert_false(sampo_module_watch__is_new(w, "[ext4]"));
	assert_int_equal(sampo_module_watch__poll(w), 0);

	write_modules(proc, "new_mod 100 0 - Live 0xffffffffc0100000\n"
			    "ext4 1000 0 - Live 0xffffffffc0000000\n"
			    "other 100 0 - Loading 0xffffffffc0200000\n");
	assert_int_equal(sampo_module_watch__poll(w), 2);
	assert_int_equal(sampo_module_watch__nr(w), 3);
	assert_string_equal(sampo_module_watch__name(w, 1), "new_mod");
	assert_true(sampo_module_watch__is_new(w, "/lib/modules/6.1.0/kernel/x/new-mod.ko.xz"));
	assert_true(sampo_module_watch__is_new(w, "[new_mod]"));
	assert_true(sampo_module_watch__is_new(w, "[other]"));
	assert_false(sampo_module_watch__is_new(w, "/lib/modules/6.1.0/kernel/fs/ext4.ko"));
	assert_false(sampo_module_watch__is_new(w, NULL));

	/* nothing new: nothing is new any more; an unloaded module stays known */
	write_modules(proc, "ext4 1000 0 - Live 0xffffffffc0000000\n");
	assert_int_equal(sampo_module_watch__poll(w), 0);
	assert_false(sampo_module_watch__is_new(w, "[new_mod]"));
	assert_int_equal(sampo_module_watch__nr(w), 3);
	snprintf(path, sizeof(path), "%s/modules", proc);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(sampo_module_watch__poll(w), -ENOENT);
	assert_int_equal(sampo_module_watch__nr(w), 3);
	sampo_module_watch__delete(w);
	sampo_module_watch__delete(NULL);
	assert_int_equal(sampo_module_watch__poll(NULL), -EINVAL);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_remove_tree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_modules__parses_lines),
		cmocka_unit_test(test_proc_modules__odd_input),
		cmocka_unit_test(test_proc_modules__cut_at_every_length),
		cmocka_unit_test(test_proc_modules__reads_proc_root),
		cmocka_unit_test(test_proc_modules__watch_finds_new_modules),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
