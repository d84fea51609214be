// SPDX-License-Identifier: GPL-2.0
/*
 * test-buildid-cache.c - the build-id cache (lib/buildid-cache.c): perf's
 * layout on add and lookup, the directory choice, and the refusals that keep
 * an add inside the cache (".." names, symlinks planted in the cache).
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/buildid.h>
#include <sampo/buildid-cache.h>

#define BID "4a5a9b0affb66c437abcd455d2738af879985fa9"

static char root[256];

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/sampo-test-bidcache-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_buildid_cache__dir_choice(void **state)
{
	char *d;

	(void)state;
	d = sampo_buildid_cache__dir("/x/y");
	assert_string_equal(d, "/x/y");
	free(d);
	setenv("PERF_BUILDID_DIR", "/from/env", 1);
	d = sampo_buildid_cache__dir(NULL);
	assert_string_equal(d, "/from/env");
	free(d);
	unsetenv("PERF_BUILDID_DIR");
	setenv("HOME", "/home/u", 1);
	d = sampo_buildid_cache__dir(NULL);
	assert_string_equal(d, "/home/u/.debug");
	free(d);
}

/* add writes perf's layout, lookup finds it; the link is relative, as perf makes it */
static void test_buildid_cache__add_then_lookup(void **state)
{
	struct sampo_build_id bid;
	char cache[300], src[300], p[600], link[600];
	char *found = NULL;
	ssize_t n;

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache", root);
	snprintf(src, sizeof(src), "%s/kallsyms.src", root);
	write_file(src, "ffffffff81000000 T _text\n");
	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);

	assert_int_equal(sampo_buildid_cache__lookup(cache, &bid, "kallsyms", &found), -ENOENT);
	assert_int_equal(sampo_buildid_cache__add(cache, "[kernel.kallsyms]", &bid, "kallsyms", src),
			 0);
	snprintf(p, sizeof(p), "%s/[kernel.kallsyms]/" BID "/kallsyms", cache);
	assert_string_equal(slurp(p), "ffffffff81000000 T _text\n");
	snprintf(p, sizeof(p), "%s/.build-id/4a/5a9b0affb66c437abcd455d2738af879985fa9", cache);
	n = readlink(p, link, sizeof(link) - 1);
	assert_true(n > 0);
	link[n] = '\0';
	assert_string_equal(link, "../../[kernel.kallsyms]/" BID);

	assert_int_equal(sampo_buildid_cache__lookup(cache, &bid, "kallsyms", &found), 0);
	assert_string_equal(slurp(found), "ffffffff81000000 T _text\n");
	free(found);
	assert_int_equal(sampo_buildid_cache__lookup(cache, &bid, "elf", &found), -ENOENT);

	/* a path name: components become directories; adding again replaces the file */
	assert_int_equal(sampo_buildid_cache__add(cache, "/usr/lib/libfoo.so", &bid, "elf", src), 0);
	write_file(src, "v2\n");
	assert_int_equal(sampo_buildid_cache__add(cache, "/usr/lib/libfoo.so", &bid, "elf", src), 0);
	snprintf(p, sizeof(p), "%s/usr/lib/libfoo.so/" BID "/elf", cache);
	assert_string_equal(slurp(p), "v2\n");
	assert_int_equal(sampo_buildid_cache__lookup(cache, &bid, "elf", &found), 0);
	assert_string_equal(slurp(found), "v2\n");
	free(found);

	/* a /proc file reads as size 0 but has content */
	if (!access("/proc/self/status", R_OK)) {
		assert_int_equal(sampo_buildid_cache__add(cache, "[x]", &bid, "status",
							  "/proc/self/status"),
				 0);
		snprintf(p, sizeof(p), "%s/[x]/" BID "/status", cache);
		assert_non_null(strstr(slurp(p), "Pid:"));
	}
}

static void test_buildid_cache__rejects_escaping_names(void **state)
{
	static const char *const bad[] = {
		"../evil", "/a/../../evil", "..", "/./x", "", "/", ".build-id/4a",
	};
	struct sampo_build_id bid, empty = { 0 };
	char cache[300], src[300], p[600];
	struct stat st;

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache2", root);
	snprintf(src, sizeof(src), "%s/src", root);
	write_file(src, "x\n");
	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(sampo_buildid_cache__add(cache, bad[i], &bid, "elf", src), -EINVAL);
	assert_int_equal(sampo_buildid_cache__add(cache, "/ok", &bid, "../elf", src), -EINVAL);
	assert_int_equal(sampo_buildid_cache__add(cache, "/ok", &bid, "a/b", src), -EINVAL);
	assert_int_equal(sampo_buildid_cache__add(cache, "/ok", &empty, "elf", src), -EINVAL);
	snprintf(p, sizeof(p), "%s/evil", root);
	assert_int_not_equal(stat(p, &st), 0);
}

/* a symlink planted in the cache is not followed, whether a directory or the file itself */
static void test_buildid_cache__does_not_follow_planted_symlinks(void **state)
{
	struct sampo_build_id bid;
	char cache[300], src[300], outside[300], p[700], q[700];
	struct stat st;

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache3", root);
	snprintf(src, sizeof(src), "%s/src3", root);
	snprintf(outside, sizeof(outside), "%s/outside", root);
	write_file(src, "payload\n");
	assert_int_equal(mkdir(cache, 0755), 0);
	assert_int_equal(mkdir(outside, 0755), 0);
	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);

	/* cache/usr -> outside: the add must fail and write nothing outside */
	snprintf(p, sizeof(p), "%s/usr", cache);
	assert_int_equal(symlink(outside, p), 0);
	assert_int_equal(sampo_buildid_cache__add(cache, "/usr/lib/x.so", &bid, "elf", src), -ELOOP);
	snprintf(q, sizeof(q), "%s/lib", outside);
	assert_int_not_equal(lstat(q, &st), 0);

	/* the final file a symlink to a victim: replaced by the copy, the victim untouched */
	snprintf(p, sizeof(p), "%s/opt/" BID, cache);
	snprintf(q, sizeof(q), "mkdir -p '%s'", p);
	assert_int_equal(system(q), 0);
	snprintf(q, sizeof(q), "%s/victim", outside);
	write_file(q, "victim\n");
	snprintf(p, sizeof(p), "%s/opt/" BID "/elf", cache);
	assert_int_equal(symlink(q, p), 0);
	assert_int_equal(sampo_buildid_cache__add(cache, "/opt", &bid, "elf", src), 0);
	assert_string_equal(slurp(q), "victim\n");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_string_equal(slurp(p), "payload\n");

	/* .build-id itself a symlink: refused */
	snprintf(p, sizeof(p), "%s/cache4", root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(q, sizeof(q), "%s/.build-id", p);
	assert_int_equal(symlink(outside, q), 0);
	assert_int_equal(sampo_buildid_cache__add(p, "/opt", &bid, "elf", src), -ELOOP);
	snprintf(q, sizeof(q), "%s/4a", outside);
	assert_int_not_equal(lstat(q, &st), 0);
}

/* perf 6.1 finds what add() cached: burn's symbols in the fixture's report */
static void test_buildid_cache__perf_reads_it(void **state)
{
	const char *perf = getenv("PERF"), *shared = getenv("SAMPO_SHARED");
	struct sampo_build_id bid;
	char cache[300], burn[600], cmd[2000], out[300];

	(void)state;
	if (!perf || !*perf || !shared || !*shared)
		skip();
	snprintf(burn, sizeof(burn), "%s/fixtures/perf-6.1/burn", shared);
	if (access(burn, R_OK))
		skip();
	snprintf(cache, sizeof(cache), "%s/perf-cache", root);
	assert_int_equal(sampo_build_id__from_hex("690cfd666a0fa1f2e4b67ddad86ea1a75405b61c", &bid),
			 0);
	assert_int_equal(sampo_buildid_cache__add(cache, "/tmp/pfx/burn", &bid, "elf", burn), 0);
	snprintf(out, sizeof(out), "%s/perf-report.txt", root);
	snprintf(cmd, sizeof(cmd),
		 "HOME='%s' '%s' --buildid-dir '%s' report --stdio --no-children --sort dso,sym "
		 "-i '%s/fixtures/perf-6.1/b-callchain-fp/perf.data' >'%s' 2>/dev/null",
		 root, perf, cache, shared, out);
	assert_int_equal(system(cmd), 0);
	assert_non_null(strstr(slurp(out), "[.] burn_leaf_alpha"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buildid_cache__dir_choice),
		cmocka_unit_test(test_buildid_cache__add_then_lookup),
		cmocka_unit_test(test_buildid_cache__rejects_escaping_names),
		cmocka_unit_test(test_buildid_cache__does_not_follow_planted_symlinks),
		cmocka_unit_test(test_buildid_cache__perf_reads_it),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
