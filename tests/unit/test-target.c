// SPDX-License-Identifier: GPL-2.0
/*
 * test-target.c - record's CPUs, threads and processes (lib/target.c):
 * -C/-p/-t lists (-p/-t cut at every length), the online CPUs and the threads
 * and processes read from a fake /proc and /sys built here.
 */
#include <errno.h>
#include <limits.h>
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

#include <sampo/target.h>

#include "fixture.h"

static char root[] = "/tmp/sampo-test-target.XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *rel)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

static struct sampo_target *fake_target(const char *name)
{
	char proc[300], sys[300];
	SAMPO_OPTS(sampo_target_opts, o, .proc_dir = proc, .sys_dir = sys);
	struct sampo_target *t;

	snprintf(proc, sizeof(proc), "%s/%s/proc", root, name);
	snprintf(sys, sizeof(sys), "%s/%s/sys", root, name);
	t = sampo_target__new(&o);
	assert_non_null(t);
	return t;
}

static void expect(const int *got, size_t nr, const int *want, size_t nr_want)
{
	assert_int_equal(nr, nr_want);
	for (size_t i = 0; i < nr; i++)
		assert_int_equal(got[i], want[i]);
}

static void test_target__parse_list(void **state)
{
	int v[16];
	size_t nr = 0;

	(void)state;
	assert_int_equal(sampo_target__parse_list("7,7,2", v, 16, &nr), 0);
	expect(v, nr, (int[]){ 7, 7, 2 }, 3);
	assert_int_equal(sampo_target__parse_list("5,", v, 16, &nr), 0);
	expect(v, nr, (int[]){ 5 }, 1);
	assert_int_equal(sampo_target__parse_list("2147483647", v, 16, &nr), 0);
	assert_int_equal(v[0], INT_MAX);

	assert_int_equal(sampo_target__parse_list("1-2", v, 16, &nr), -EINVAL);
	assert_int_equal(sampo_target__parse_list("", v, 16, &nr), -EINVAL);
	assert_int_equal(sampo_target__parse_list(",", v, 16, &nr), -EINVAL);
	assert_int_equal(sampo_target__parse_list("1,,2", v, 16, &nr), -EINVAL);
	assert_int_equal(sampo_target__parse_list("-1", v, 16, &nr), -EINVAL);
	assert_int_equal(sampo_target__parse_list(" 1", v, 16, &nr), -EINVAL);
	assert_int_equal(sampo_target__parse_list("x", v, 16, &nr), -EINVAL);
	assert_int_equal(sampo_target__parse_list("2147483648", v, 16, &nr), -EINVAL);
	assert_int_equal(sampo_target__parse_list("99999999999999999999", v, 16, &nr), -EINVAL);
	assert_int_equal(sampo_target__parse_list("1,2,3", v, 2, &nr), -E2BIG);
	assert_int_equal(sampo_target__parse_list("1,2", v, 2, &nr), 0);
	assert_int_equal(nr, 2);
}

/* every prefix, in a heap copy of exactly that size: no over-read, a sane answer */
static void test_target__parse_list_cut_at_every_length(void **state)
{
	static const char full[] = "0,3,6,10,2147483647";
	int v[64];

	(void)state;
	for (size_t len = 0; len < sizeof(full); len++) {
		char *cut = malloc(len + 1);
		size_t nr = 0;
		int err;

		assert_non_null(cut);
		memcpy(cut, full, len);
		cut[len] = '\0';
		err = sampo_target__parse_list(cut, v, 64, &nr);
		assert_true(err == 0 || err == -EINVAL);
		if (!err)
			assert_true(nr >= 1 && nr <= 5);
		free(cut);
	}
}

static void test_target__online_cpus(void **state)
{
	struct sampo_target *t;
	const int *cpus;
	size_t nr;

	(void)state;
	put("a/sys/devices/system/cpu/online", "0-2,5\n");
	t = fake_target("a");
	assert_int_equal(sampo_target__add_online_cpus(t), 0);
	cpus = sampo_target__cpus(t, &nr);
	expect(cpus, nr, (int[]){ 0, 1, 2, 5 }, 4);
	assert_null(sampo_target__threads(t, &nr));
	assert_int_equal(nr, 0);
	sampo_target__delete(t);

	put("b/sys/devices/system/cpu/online", "");
	t = fake_target("b");
	assert_int_equal(sampo_target__add_online_cpus(t), -EIO);
	sampo_target__delete(t);

	put("c/sys/devices/system/cpu/online", "0-1,zz\n");
	t = fake_target("c");
	assert_int_equal(sampo_target__add_online_cpus(t), -EINVAL);
	sampo_target__delete(t);

	/* no such file: the CPUs sysconf() counts */
	t = fake_target("none");
	assert_int_equal(sampo_target__add_online_cpus(t), 0);
	cpus = sampo_target__cpus(t, &nr);
	assert_true(nr >= 1);
	assert_int_equal(cpus[0], 0);
	sampo_target__delete(t);

	/* -C: perf's CPU list syntax; in increasing order, once each, as perf's CPU maps */
	t = fake_target("none");
	assert_int_equal(sampo_target__add_cpu_list(t, "3,1,0-1,5-6"), 0);
	cpus = sampo_target__cpus(t, &nr);
	expect(cpus, nr, (int[]){ 0, 1, 3, 5, 6 }, 5);
	assert_int_equal(sampo_target__add_cpu_list(t, "a"), -EINVAL);
	assert_int_equal(sampo_target__add_cpu_list(t, ""), -EINVAL);
	assert_int_equal(sampo_target__add_cpu_list(t, "3-1"), -EINVAL);
	assert_int_equal(sampo_target__add_cpu_list(t, "1,,2"), -EINVAL);
	sampo_target__delete(t);
}

/* process 100 with threads 100, 101, 102; process 200 with 200; garbage entries skipped */
static void fake_proc(void)
{
	mkdirs("p/proc/100/task/100");
	mkdirs("p/proc/100/task/101");
	mkdirs("p/proc/100/task/102");
	mkdirs("p/proc/100/task/not-a-tid");
	mkdirs("p/proc/100/task/0");
	mkdirs("p/proc/200/task/200");
	put("p/proc/101/status", "Name:\tworker\nUmask:\t0022\nState:\tS\nTgid:\t100\nPid:\t101\n");
	put("p/proc/200/status", "Name:\tx\nTgid:   200\n");
	put("p/proc/300/status", "Name:\tno tgid line\n");
	put("p/proc/301/status", "Tgid:\tzz\n");
}

static void test_target__processes_and_threads(void **state)
{
	struct sampo_target *t;
	const int *v;
	size_t nr;
	int bad = 0;

	(void)state;
	fake_proc();
	t = fake_target("p");
	assert_int_equal(sampo_target__add_pid_list(t, "100,200,100", &bad), 0);
	v = sampo_target__threads(t, &nr);
	assert_int_equal(nr, 7); /* 100's three threads twice, and 200 */
	v = sampo_target__pids(t, &nr);
	expect(v, nr, (int[]){ 100, 200 }, 2);
	sampo_target__delete(t);

	t = fake_target("p");
	assert_int_equal(sampo_target__add_tid_list(t, "101,200", &bad), 0);
	v = sampo_target__threads(t, &nr);
	expect(v, nr, (int[]){ 101, 200 }, 2);
	v = sampo_target__pids(t, &nr);
	expect(v, nr, (int[]){ 100, 200 }, 2);
	assert_int_equal(sampo_target__add_new_thread(t, 4242), 0);
	v = sampo_target__threads(t, &nr);
	expect(v, nr, (int[]){ 101, 200, 4242 }, 3);
	v = sampo_target__pids(t, &nr);
	assert_int_equal(nr, 2); /* a new thread is not synthesized */

	/* errors name the pid or tid, or -1 for a malformed list */
	assert_int_equal(sampo_target__add_pid_list(t, "100,999", &bad), -ESRCH);
	assert_int_equal(bad, 999);
	assert_int_equal(sampo_target__add_tid_list(t, "300", &bad), -ESRCH);
	assert_int_equal(bad, 300);
	assert_int_equal(sampo_target__add_tid_list(t, "301", &bad), -ESRCH);
	assert_int_equal(sampo_target__add_tid_list(t, "1-2", &bad), -EINVAL);
	assert_int_equal(bad, -1);
	assert_int_equal(sampo_target__add_pid_list(t, "", &bad), -EINVAL);
	assert_int_equal(bad, -1);
	sampo_target__delete(t);
}

static void test_target__bounded(void **state)
{
	struct sampo_target *t = sampo_target__new(NULL);
	struct sampo_target_opts bad = { .sz = 1 };
	size_t nr;

	(void)state;
	assert_non_null(t);
	for (int i = 0; i < SAMPO_TARGET_MAX; i++)
		assert_int_equal(sampo_target__add_new_thread(t, i + 1), 0);
	assert_int_equal(sampo_target__add_new_thread(t, 1), -E2BIG);
	(void)sampo_target__threads(t, &nr);
	assert_int_equal(nr, SAMPO_TARGET_MAX);
	assert_int_equal(sampo_target__add_cpu_list(t, "0-4096"), -E2BIG);
	sampo_target__delete(t);
	sampo_target__delete(NULL);
	assert_null(sampo_target__new(&bad));
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
		cmocka_unit_test(test_target__parse_list),
		cmocka_unit_test(test_target__parse_list_cut_at_every_length),
		cmocka_unit_test(test_target__online_cpus),
		cmocka_unit_test(test_target__processes_and_threads),
		cmocka_unit_test(test_target__bounded),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
