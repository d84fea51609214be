// SPDX-License-Identifier: GPL-2.0
/*
 * test-strbuf.c - the library's growing string (lib/strbuf.c): empty until
 * something is added, appends in order, grows past its first 256 bytes
 * without losing a byte, and is empty again after release.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "internal/strbuf.h"

static void test_strbuf__empty_then_appends(void **state)
{
	struct sampo_strbuf sb = { 0 };

	(void)state;
	assert_string_equal(sampo_strbuf__str(&sb, "nothing"), "nothing");
	sampo_strbuf__addf(&sb, "%s", "a");
	sampo_strbuf__addf(&sb, ", %d", 42);
	sampo_strbuf__addf(&sb, "%s", "");
	assert_string_equal(sampo_strbuf__str(&sb, "nothing"), "a, 42");
	assert_int_equal(sb.len, 5);
	sampo_strbuf__release(&sb);
	assert_null(sb.buf);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sampo_strbuf__str(&sb, ""), "");
	sampo_strbuf__addf(NULL, "ignored");
}

static void test_strbuf__grows_without_loss(void **state)
{
	struct sampo_strbuf sb = { 0 };
	char want[5000], piece[] = "0123456789abcdef";
	size_t n = 0;

	(void)state;
	for (int i = 0; i < 300; i++) {
		sampo_strbuf__addf(&sb, "%s", piece);
		memcpy(want + n, piece, 16);
		n += 16;
	}
	want[n] = '\0';
	assert_int_equal(sb.len, n);
	assert_string_equal(sb.buf, want);
	/* one piece much longer than the room left */
	sampo_strbuf__release(&sb);
	sampo_strbuf__addf(&sb, "%s", want);
	assert_string_equal(sb.buf, want);
	sampo_strbuf__release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf__empty_then_appends),
		cmocka_unit_test(test_strbuf__grows_without_loss),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
