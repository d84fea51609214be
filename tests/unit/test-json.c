/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test-json.c - the JSON string writer of the CLI (tools/sampo/json.c):
 * escapes, valid UTF-8 copied as is, every kind of invalid UTF-8 replaced
 * by U+FFFD, embedded NULs, strings longer than the output buffer.
 *
 * Output goes to a tmpfile() through an outbuf and is read back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "json.h"
#include "outbuf.h"

static struct outbuf ob;
static FILE *fp;

static int setup(void **state)
{
	(void)state;
	fp = tmpfile();
	assert_non_null(fp);
	ob_init_file(&ob, fp);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fclose(fp);
	return 0;
}

/* everything written since the last call, NUL-terminated */
static char *take(size_t *ret_len)
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
	rewind(fp);
	assert_int_equal(ftruncate(fileno(fp), 0), 0);
	if (ret_len)
		*ret_len = (size_t)n;
	return s;
}

static void check_n(const char *in, size_t len, const char *want)
{
	char *got;

	json_string_n(&ob, in, len);
	got = take(NULL);
	assert_string_equal(got, want);
	free(got);
}

static void check(const char *in, const char *want)
{
	check_n(in, strlen(in), want);
}

static void test_json__plain_ascii_is_copied(void **state)
{
	(void)state;
	check("", "\"\"");
	check("burn", "\"burn\"");
	check("a b/c~{}[]:,'", "\"a b/c~{}[]:,'\"");
	check("\x7f", "\"\x7f\""); /* DEL needs no escape in JSON */
}

static void test_json__quotes_and_backslashes(void **state)
{
	(void)state;
	check("say \"hi\"", "\"say \\\"hi\\\"\"");
	check("C:\\dir\\", "\"C:\\\\dir\\\\\"");
	check("\\\"", "\"\\\\\\\"\"");
}

static void test_json__control_characters(void **state)
{
	char in[2] = "", want[16];

	(void)state;
	check("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"");
	for (int c = 1; c < 0x20; c++) {
		if (c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t')
			continue;
		in[0] = (char)c;
		snprintf(want, sizeof(want), "\"\\u%04x\"", c);
		check(in, want);
	}
	check_n("a\0b", 3, "\"a\\u0000b\"");
}

static void test_json__valid_utf8_is_copied(void **state)
{
	(void)state;
	check("caf\xc3\xa9", "\"caf\xc3\xa9\"");			/* U+00E9 */
	check("\xc2\x80", "\"\xc2\x80\"");				/* U+0080, the first 2-byte */
	check("\xdf\xbf", "\"\xdf\xbf\"");				/* U+07FF */
	check("\xe0\xa0\x80", "\"\xe0\xa0\x80\"");			/* U+0800 */
	check("\xe2\x82\xac", "\"\xe2\x82\xac\"");			/* U+20AC euro */
	check("\xed\x9f\xbf", "\"\xed\x9f\xbf\"");			/* U+D7FF, before surrogates */
	check("\xee\x80\x80", "\"\xee\x80\x80\"");			/* U+E000, after them */
	check("\xef\xbf\xbf", "\"\xef\xbf\xbf\"");			/* U+FFFF */
	check("\xf0\x90\x80\x80", "\"\xf0\x90\x80\x80\"");		/* U+10000 */
	check("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");		/* U+10FFFF */
	check("x\xf0\x9f\x94\xa5y\"", "\"x\xf0\x9f\x94\xa5y\\\"\""); /* mixed with escapes */
}

static void test_json__invalid_utf8_becomes_replacement(void **state)
{
	(void)state;
	check("\x80", "\"\\ufffd\"");			   /* lone continuation */
	check("a\xbf" "b", "\"a\\ufffdb\"");
	check("\xc0\x80", "\"\\ufffd\\ufffd\"");	   /* overlong NUL */
	check("\xc1\xbf", "\"\\ufffd\\ufffd\"");	   /* overlong */
	check("\xe0\x80\x80", "\"\\ufffd\\ufffd\\ufffd\""); /* overlong 3-byte */
	check("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""); /* surrogate U+D800 */
	check("\xf0\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	check("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* past U+10FFFF */
	check("\xf5\x80", "\"\\ufffd\\ufffd\"");
	check("\xff\xfe", "\"\\ufffd\\ufffd\"");
	check("\xc3", "\"\\ufffd\"");			     /* cut at the end */
	check("\xe2\x82", "\"\\ufffd\\ufffd\"");	     /* cut at the end */
	check("\xe2\x82z", "\"\\ufffd\\ufffdz\"");	     /* cut by ASCII */
	check("\xc3\xc3\xa9", "\"\\ufffd\xc3\xa9\"");	     /* a lead, then a whole one */
	check_n("\xc3\0", 2, "\"\\ufffd\\u0000\"");	     /* NUL is no continuation */
	/* a sequence is never read past @len */
	check_n("\xc3\xa9", 1, "\"\\ufffd\"");
}

static void test_json__null_and_keys_and_hex(void **state)
{
	char *got;

	(void)state;
	json_string(&ob, NULL);
	ob_putc(&ob, ' ');
	json_key(&ob, "k\"ey");
	json_hex(&ob, 0);
	ob_putc(&ob, ' ');
	json_hex(&ob, 0xffffffff81000000ull);
	got = take(NULL);
	assert_string_equal(got, "\"\" \"k\\\"ey\": \"0x0\" \"0xffffffff81000000\"");
	free(got);
}

/* runs longer than the buffer, and escapes across its boundary */
static void test_json__longer_than_the_buffer(void **state)
{
	size_t n = 3 * OB_SIZE + 7, got_len, j = 1;
	char *in = malloc(n + 1), *got;

	(void)state;
	assert_non_null(in);
	for (size_t i = 0; i < n; i++)
		in[i] = i % 1000 == 999 ? '"' : 'a';
	in[n] = '\0';
	json_string(&ob, in);
	got = take(&got_len);
	assert_int_equal(got_len, n + n / 1000 + 2);
	assert_int_equal(got[0], '"');
	for (size_t i = 0; i < n; i++) {
		if (in[i] == '"')
			assert_int_equal(got[j++], '\\');
		assert_int_equal(got[j++], in[i]);
	}
	assert_int_equal(got[j++], '"');
	assert_int_equal(j, got_len);
	free(in);
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json__plain_ascii_is_copied, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json__quotes_and_backslashes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json__control_characters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json__valid_utf8_is_copied, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json__invalid_utf8_becomes_replacement, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_json__null_and_keys_and_hex, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json__longer_than_the_buffer, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
