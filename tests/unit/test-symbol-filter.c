// SPDX-License-Identifier: GPL-2.0
/*
 * test-symbol-filter.c - perf's -S list (lib/symbol-filter.c): which entries
 * are names and which addresses, by perf's rule (setup_addrlist(): an entry
 * strtoul() reads whole in base 16, blanks after it aside, is an address),
 * and what each keeps.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sampo/symbol-filter.h>

static struct sampo_symbol_filter *make(const char *const *entries, size_t nr)
{
	struct sampo_symbol_filter *f = NULL;

	assert_int_equal(sampo_symbol_filter__new(entries, nr, &f), 0);
	assert_non_null(f);
	return f;
}

static void test_symbol_filter__names_match_whole(void **state)
{
	static const char *const list[] = { "main", "burn_leaf_alpha" };
	struct sampo_symbol_filter *f = make(list, 2);

	(void)state;
	assert_true(sampo_symbol_filter__keeps(f, "main", true, 0x1000));
	assert_true(sampo_symbol_filter__keeps(f, "burn_leaf_alpha", false, 0));
	/* exact names: no prefix, no substring, no unresolved sample */
	assert_false(sampo_symbol_filter__keeps(f, "mai", true, 0x1000));
	assert_false(sampo_symbol_filter__keeps(f, "main2", true, 0x1000));
	assert_false(sampo_symbol_filter__keeps(f, NULL, true, 0x1000));
	/* two names: perf shows the Symbol column and no "# symbol:" line */
	assert_null(sampo_symbol_filter__only_name(f));
	sampo_symbol_filter__delete(f);
}

static void test_symbol_filter__hex_entries_are_addresses(void **state)
{
	/* "add" and "cafe" read whole as hex, as in perf: addresses 0xadd and 0xcafe */
	static const char *const list[] = { "0xffffffff821f4dab", "add", "cafe ", "main" };
	struct sampo_symbol_filter *f = make(list, 4);

	(void)state;
	assert_true(sampo_symbol_filter__keeps(f, "x", true, 0xffffffff821f4dabULL));
	assert_true(sampo_symbol_filter__keeps(f, NULL, true, 0xadd));
	assert_true(sampo_symbol_filter__keeps(f, NULL, true, 0xcafe));
	/* the address must be the sample's own, and in a map */
	assert_false(sampo_symbol_filter__keeps(f, NULL, true, 0xffffffff821f4da0ULL));
	assert_false(sampo_symbol_filter__keeps(f, NULL, false, 0xadd));
	/* so a function named "add" is not kept by its name */
	assert_false(sampo_symbol_filter__keeps(f, "add", true, 0x10));
	/* one name left besides the addresses */
	assert_string_equal(sampo_symbol_filter__only_name(f), "main");
	sampo_symbol_filter__delete(f);
}

static void test_symbol_filter__not_quite_hex_is_a_name(void **state)
{
	static const char *const list[] = { "0x10g", "deadbeef_fn", "x10" };
	struct sampo_symbol_filter *f = make(list, 3);

	(void)state;
	assert_true(sampo_symbol_filter__keeps(f, "0x10g", true, 0x10));
	assert_true(sampo_symbol_filter__keeps(f, "deadbeef_fn", true, 0));
	assert_false(sampo_symbol_filter__keeps(f, NULL, true, 0x10));
	assert_false(sampo_symbol_filter__keeps(f, NULL, true, 0xdeadbeef));
	assert_null(sampo_symbol_filter__only_name(f));
	sampo_symbol_filter__delete(f);
}

static void test_symbol_filter__addresses_alone(void **state)
{
	static const char *const list[] = { "0x561531602169" };
	struct sampo_symbol_filter *f = make(list, 1);

	(void)state;
	/* no name: no "# symbol:" line, and only that address passes */
	assert_null(sampo_symbol_filter__only_name(f));
	assert_true(sampo_symbol_filter__keeps(f, "burn_leaf_alpha", true, 0x561531602169ULL));
	assert_false(sampo_symbol_filter__keeps(f, "burn_leaf_alpha", true, 0x561531602149ULL));
	sampo_symbol_filter__delete(f);
	sampo_symbol_filter__delete(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbol_filter__names_match_whole),
		cmocka_unit_test(test_symbol_filter__hex_entries_are_addresses),
		cmocka_unit_test(test_symbol_filter__not_quite_hex_is_a_name),
		cmocka_unit_test(test_symbol_filter__addresses_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
