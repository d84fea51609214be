// SPDX-License-Identifier: GPL-2.0
/*
 * test-fileio.c - whole-file reads (lib/fileio.c): a pipe read to its end
 * past the size hint, the bound exact and exceeded (a pipe, and a sparse
 * regular file refused by its size without reading it), an empty file, the
 * NUL after the bytes; and the kallsyms loader refusing a sparse 1 GiB file
 * with a line that says why.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/symbol.h>

#include "internal/fileio.h"

/* a pipe whose writer (a child) sends @n bytes of 'x', then closes */
static int pipe_of(size_t n)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char chunk[4096];

		close(p[0]);
		memset(chunk, 'x', sizeof(chunk));
		while (n) {
			size_t k = n < sizeof(chunk) ? n : sizeof(chunk);
			ssize_t w = write(p[1], chunk, k);

			if (w <= 0)
				_exit(0); /* the reader stopped early */
			n -= (size_t)w;
		}
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

static void reap(void)
{
	while (waitpid(-1, NULL, 0) > 0)
		;
}

static void test_fileio__pipe_past_the_hint(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	int fd = pipe_of(100000);

	(void)state;
	assert_int_equal(sampo_read_fd(fd, 1 << 20, 16, &buf, &len), 0);
	assert_int_equal(len, 100000);
	assert_int_equal(buf[0], 'x');
	assert_int_equal(buf[len - 1], 'x');
	assert_int_equal(buf[len], '\0');
	free(buf);
	close(fd);
	reap();
}

static void test_fileio__bound_exact_and_exceeded(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	int fd;

	(void)state;
	fd = pipe_of(5000);
	assert_int_equal(sampo_read_fd(fd, 5000, 0, &buf, &len), 0);
	assert_int_equal(len, 5000);
	free(buf);
	close(fd);
	reap();

	buf = NULL;
	fd = pipe_of(5001);
	assert_int_equal(sampo_read_fd(fd, 5000, 0, &buf, &len), -EFBIG);
	assert_null(buf);
	close(fd);
	reap();
}

static void test_fileio__empty(void **state)
{
	char *buf = NULL;
	size_t len = 7;
	int fd = pipe_of(0);

	(void)state;
	assert_int_equal(sampo_read_fd(fd, 100, 0, &buf, &len), 0);
	assert_int_equal(len, 0);
	assert_non_null(buf);
	assert_int_equal(buf[0], '\0');
	free(buf);
	close(fd);
	reap();
}

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* the hardening issue's sparse 1 GB kallsyms: refused by its size, at once */
static void test_fileio__sparse_kallsyms_refused(void **state)
{
	char path[] = "/tmp/sampo-test-fileio.XXXXXX", errbuf[256] = "";
	SAMPO_OPTS(sampo_symtab_kallsyms_opts, opts, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	struct sampo_symtab *symtab = NULL;
	char *buf = NULL;
	size_t len;
	int fd = mkstemp(path);

	(void)state;
	sampo_set_print(quiet);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1LL << 30), 0);
	assert_int_equal(sampo_read_fd(fd, 1 << 20, 0, &buf, &len), -EFBIG);
	assert_null(buf);
	close(fd);
	assert_int_equal(sampo_symtab__load_kallsyms(path, &opts, &symtab), -EFBIG);
	assert_null(symtab);
	assert_non_null(strstr(errbuf, "not a kallsyms file"));
	assert_non_null(strstr(errbuf, path));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fileio__pipe_past_the_hint),
		cmocka_unit_test(test_fileio__bound_exact_and_exceeded),
		cmocka_unit_test(test_fileio__empty),
		cmocka_unit_test(test_fileio__sparse_kallsyms_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
