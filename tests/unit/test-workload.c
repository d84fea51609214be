// SPDX-License-Identifier: GPL-2.0
/*
 * test-workload.c - the command record runs (lib/workload.c): held until
 * started, its exit status as a shell reports it, a failed exec's errno, a
 * command never started never runs, and its stdout moved to stderr when
 * the recorder's stdout carries data.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/workload.h>

static char root[] = "/tmp/sampo-test-workload.XXXXXX";

static int run(const char *const *argv)
{
	struct sampo_workload *w;
	int code;

	assert_int_equal(sampo_workload__prepare(argv, NULL, &w), 0);
	assert_true(sampo_workload__pid(w) > 0);
	assert_int_equal(sampo_workload__start(w), 0);
	assert_true(sampo_workload__reap(w, true));
	assert_true(sampo_workload__reap(w, false));
	code = sampo_workload__exit_code(w);
	sampo_workload__delete(w);
	return code;
}

static void test_workload__exit_codes(void **state)
{
	(void)state;
	assert_int_equal(run((const char *const[]){ "true", NULL }), 0);
	assert_int_equal(run((const char *const[]){ "sh", "-c", "exit 3", NULL }), 3);
	assert_int_equal(run((const char *const[]){ "sh", "-c", "kill -9 $$", NULL }), 128 + 9);
}

static void test_workload__failed_exec(void **state)
{
	const char *const argv[] = { "/nonexistent/command", NULL };
	struct sampo_workload *w;

	(void)state;
	assert_int_equal(sampo_workload__prepare(argv, NULL, &w), 0);
	assert_int_equal(sampo_workload__start(w), -ENOENT);
	assert_int_equal(sampo_workload__start(w), -EINVAL);
	assert_true(sampo_workload__reap(w, true));
	assert_int_equal(sampo_workload__exit_code(w), 127);
	sampo_workload__delete(w);

	assert_int_equal(sampo_workload__prepare((const char *const[]){ NULL }, NULL, &w),
			 -EINVAL);
	assert_int_equal(sampo_workload__prepare(NULL, NULL, &w), -EINVAL);
}

/* held before exec: nothing happens until start; deleted unstarted, it never runs */
static void test_workload__held_until_started(void **state)
{
	char flag[300], cmd[400];
	struct sampo_workload *w;
	struct stat st;

	(void)state;
	snprintf(flag, sizeof(flag), "%s/ran", root);
	snprintf(cmd, sizeof(cmd), "touch '%s'", flag);
	assert_int_equal(sampo_workload__prepare((const char *const[]){ "sh", "-c", cmd, NULL },
						 NULL, &w),
			 0);
	usleep(50000);
	assert_false(sampo_workload__reap(w, false));
	assert_int_not_equal(stat(flag, &st), 0);
	assert_int_equal(sampo_workload__exit_code(w), 0);
	sampo_workload__delete(w);
	usleep(50000);
	assert_int_not_equal(stat(flag, &st), 0);

	/* started, then killed by the recorder */
	assert_int_equal(sampo_workload__prepare((const char *const[]){ "sleep", "10", NULL }, NULL,
						 &w),
			 0);
	assert_int_equal(sampo_workload__start(w), 0);
	assert_int_equal(sampo_workload__kill(w, SIGTERM), 0);
	assert_true(sampo_workload__reap(w, true));
	assert_int_equal(sampo_workload__exit_code(w), 128 + SIGTERM);
	assert_int_equal(sampo_workload__kill(w, SIGTERM), 0); /* reaped: nothing to do */
	sampo_workload__delete(w);
	sampo_workload__delete(NULL);
}

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_workload__stdout_to_stderr(void **state)
{
	SAMPO_OPTS(sampo_workload_opts, o, .stdout_to_stderr = true);
	char out[300], err[300];
	struct sampo_workload *w;
	int saved_out, saved_err, fo, fe;

	(void)state;
	snprintf(out, sizeof(out), "%s/out", root);
	snprintf(err, sizeof(err), "%s/err", root);
	fflush(NULL);
	saved_out = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(saved_out >= 0 && saved_err >= 0 && fo >= 0 && fe >= 0);
	dup2(fo, STDOUT_FILENO);
	dup2(fe, STDERR_FILENO);
	assert_int_equal(sampo_workload__prepare((const char *const[]){ "echo", "data", NULL }, &o,
						 &w),
			 0);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(fo);
	close(fe);
	close(saved_out);
	close(saved_err);
	assert_int_equal(sampo_workload__start(w), 0);
	assert_true(sampo_workload__reap(w, true));
	sampo_workload__delete(w);
	assert_string_equal(slurp(out), "");
	assert_string_equal(slurp(err), "data\n");
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_workload__exit_codes),
		cmocka_unit_test(test_workload__failed_exec),
		cmocka_unit_test(test_workload__held_until_started),
		cmocka_unit_test(test_workload__stdout_to_stderr),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
