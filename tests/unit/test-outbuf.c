/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test-outbuf.c - struct outbuf (tools/sampo/outbuf.c): number formatting
 * against printf, buffer boundaries, large writes, and sticky write errors
 * (EPIPE from a closed pipe, as in "sampo dump | head").
 *
 * Output goes to a tmpfile() (FILE mode) or a pipe (fd mode) and is read back.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "outbuf.h"

static struct outbuf ob;

/* Flush @ob (on @fp) and return everything written to @fp, NUL-terminated */
static char *slurp(FILE *fp, size_t *ret_len)
{
	long n;
	char *s;

	assert_int_equal(ob_flush(&ob), 0);
	n = ftell(fp);
	assert_true(n >= 0);
	rewind(fp);
	s = malloc((size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
	s[n] = '\0';
	if (ret_len)
		*ret_len = (size_t)n;
	return s;
}

static const uint64_t samples[] = {
	0,
	1,
	9,
	10,
	15,
	16,
	99,
	100,
	101,
	255,
	256,
	999,
	1000,
	4095,
	65535,
	65536,
	1234567890123ULL,
	0xffffffffULL,
	0x100000000ULL,
	0xffffffff81000000ULL,
	9999999999999999999ULL,
	10000000000000000000ULL,
	UINT64_MAX - 1,
	UINT64_MAX,
};

static void test_outbuf__numbers_match_printf(void **state)
{
	FILE *fp = tmpfile();
	char want[64 * 1024], *got;
	size_t off = 0;

	(void)state;
	assert_non_null(fp);
	ob_init_file(&ob, fp);
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		uint64_t v = samples[i];
		int64_t s = (int64_t)v;

		ob_hex(&ob, v, 0, false);
		ob_putc(&ob, ' ');
		ob_hex(&ob, v, 16, true);
		ob_putc(&ob, ' ');
		ob_hex(&ob, v, 8, false);
		ob_putc(&ob, ' ');
		ob_dec_u64(&ob, v);
		ob_putc(&ob, ' ');
		ob_dec_s64(&ob, s);
		ob_putc(&ob, ' ');
		ob_dec_u64_width(&ob, v, 6, false);
		ob_putc(&ob, '|');
		ob_dec_u64_width(&ob, v, 6, true);
		ob_putc(&ob, '|');
		ob_dec_s64_width(&ob, -(int64_t)(v & 0xffff), 7, true);
		ob_putc(&ob, '|');
		ob_dec_s64_width(&ob, -(int64_t)(v & 0xffff), 7, false);
		ob_putc(&ob, '|');
		ob_dec_s64_left(&ob, s, 7);
		ob_putc(&ob, '|');
		ob_dec_s64_left(&ob, -(int64_t)(v & 0xffff), 5);
		ob_putc(&ob, '|');
		ob_hex_alt(&ob, v);
		ob_puts(&ob, "\n");
		off += (size_t)snprintf(want + off, sizeof(want) - off,
					"%" PRIx64 " %016" PRIx64 " %8" PRIx64 " %" PRIu64
					" %" PRId64 " %6" PRIu64 "|%06" PRIu64 "|%07" PRId64
					"|%7" PRId64 "|%-7" PRId64 "|%-5" PRId64 "|%#" PRIx64 "\n",
					v, v, v, v, s, v, v, -(int64_t)(v & 0xffff),
					-(int64_t)(v & 0xffff), s, -(int64_t)(v & 0xffff), v);
	}
	ob_dec_s64(&ob, INT64_MIN);
	off += (size_t)snprintf(want + off, sizeof(want) - off, "%" PRId64, INT64_MIN);

	got = slurp(fp, NULL);
	assert_string_equal(got, want);
	free(got);
	fclose(fp);
}

static void test_outbuf__large_and_boundary_writes(void **state)
{
	FILE *fp = tmpfile();
	size_t total = 0, len;
	char *big, *got;

	(void)state;
	assert_non_null(fp);
	big = malloc(3 * OB_SIZE);
	assert_non_null(big);
	for (size_t i = 0; i < 3 * OB_SIZE; i++)
		big[i] = (char)('a' + i % 26);

	ob_init_file(&ob, fp);
	ob_write(&ob, big, OB_SIZE - 3); /* nearly full */
	total += OB_SIZE - 3;
	ob_hex(&ob, 0xabcdef, 0, false); /* crosses the boundary */
	total += 6;
	ob_write(&ob, big, 2 * OB_SIZE + 5); /* bypasses the buffer */
	total += 2 * OB_SIZE + 5;
	ob_pad(&ob, ' ', OB_SIZE + 10);
	total += OB_SIZE + 10;
	ob_printf(&ob, "%s", "x");
	total += 1;

	got = slurp(fp, &len);
	assert_int_equal(len, total);
	assert_memory_equal(got, big, OB_SIZE - 3);
	assert_memory_equal(got + OB_SIZE - 3, "abcdef", 6);
	assert_memory_equal(got + OB_SIZE + 3, big, 2 * OB_SIZE + 5);
	assert_int_equal(got[total - 2], ' ');
	assert_int_equal(got[total - 1], 'x');
	free(got);
	free(big);
	fclose(fp);
}

static void test_outbuf__printf_longer_than_buffer(void **state)
{
	FILE *fp = tmpfile();
	size_t n = OB_SIZE * 2, len;
	char *s = malloc(n + 1), *got;

	(void)state;
	assert_non_null(fp);
	assert_non_null(s);
	memset(s, 'q', n);
	s[n] = '\0';
	ob_init_file(&ob, fp);
	ob_puts(&ob, "<");
	ob_printf(&ob, "%s>%d", s, 42);
	got = slurp(fp, &len);
	assert_int_equal(len, n + 4);
	assert_int_equal(got[0], '<');
	assert_string_equal(got + n + 1, ">42");
	free(got);
	free(s);
	fclose(fp);
}

static void test_outbuf__epipe_is_sticky(void **state)
{
	int fds[2];

	(void)state;
	(void)signal(SIGPIPE, SIG_IGN);
	assert_int_equal(pipe(fds), 0);
	close(fds[0]);

	ob_init_fd(&ob, fds[1]);
	ob_puts(&ob, "hello\n");
	assert_int_equal(ob_error(&ob), 0); /* still buffered */
	assert_int_equal(ob_flush(&ob), -EPIPE);
	for (int i = 0; i < 100000; i++)
		ob_dec_u64(&ob, (uint64_t)i); /* dropped, no crash */
	assert_int_equal(ob_flush(&ob), -EPIPE);
	assert_int_equal(ob_error(&ob), -EPIPE);
	close(fds[1]);
}

static void test_outbuf__fd_mode(void **state)
{
	int fds[2];
	char buf[64];
	ssize_t n;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	ob_init_fd(&ob, fds[1]);
	ob_puts(&ob, "pid ");
	ob_dec_s64_width(&ob, 42, 5, false);
	ob_putc(&ob, '\n');
	assert_int_equal(ob_flush(&ob), 0);
	n = read(fds[0], buf, sizeof(buf) - 1);
	assert_int_equal(n, 10);
	buf[n] = '\0';
	assert_string_equal(buf, "pid    42\n");
	close(fds[0]);
	close(fds[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outbuf__numbers_match_printf),
		cmocka_unit_test(test_outbuf__large_and_boundary_writes),
		cmocka_unit_test(test_outbuf__printf_longer_than_buffer),
		cmocka_unit_test(test_outbuf__epipe_is_sticky),
		cmocka_unit_test(test_outbuf__fd_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
