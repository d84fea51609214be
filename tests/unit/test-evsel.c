// SPDX-License-Identifier: GPL-2.0
/*
 * test-evsel.c - event names (lib/evsel.c): perf 6.1's made-up names and
 * their modifiers, and the EVENT_DESC name taking precedence by position.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sampo/event.h>
#include <sampo/evsel.h>
#include <sampo/feature.h>

#define G SAMPO_ATTR_EXCLUDE_GUEST

static void check_default(uint32_t type, uint64_t config, uint64_t flags, const char *want)
{
	struct sampo_event_attr a = { .type = type, .config = config, .flags = flags };
	char *name = sampo_evsel__default_name(&a);

	assert_non_null(name);
	assert_string_equal(name, want);
	free(name);
}

static void test_evsel__default_names(void **state)
{
	(void)state;
	/* exclude_guest, as perf record sets it: no modifier at all */
	check_default(SAMPO_TYPE_HARDWARE, 0, G, "cycles");
	check_default(SAMPO_TYPE_HARDWARE, 9, G, "ref-cycles");
	check_default(SAMPO_TYPE_HARDWARE, 99, G, "unknown-hardware");
	check_default(SAMPO_TYPE_SOFTWARE, 0, G, "cpu-clock");
	check_default(SAMPO_TYPE_SOFTWARE, 99, G, "unknown-software");
	check_default(SAMPO_TYPE_RAW, 0x1c4, G, "raw 0x1c4");
	/* L1-dcache, load, misses */
	check_default(SAMPO_TYPE_HW_CACHE, 0 | (0 << 8) | (1 << 16), G, "L1-dcache-load-misses");
	check_default(SAMPO_TYPE_HW_CACHE, 0xff, G, "invalid-cache");
	check_default(SAMPO_TYPE_TRACEPOINT, 1, SAMPO_ATTR_EXCLUDE_KERNEL, "unknown tracepoint");
	check_default(77, 0, 0, "unknown attr type: 77");
}

static void test_evsel__modifiers(void **state)
{
	(void)state;
	/* with an exclude or precise modifier, exclude_guest is the default: no H/G then */
	check_default(SAMPO_TYPE_HARDWARE, 0, SAMPO_ATTR_EXCLUDE_KERNEL | SAMPO_ATTR_EXCLUDE_HV,
		      "cycles:u");
	check_default(SAMPO_TYPE_HARDWARE, 0, SAMPO_ATTR_EXCLUDE_USER | SAMPO_ATTR_EXCLUDE_HV,
		      "cycles:k");
	check_default(SAMPO_TYPE_HARDWARE, 0, 2ULL << SAMPO_ATTR_PRECISE_IP_SHIFT, "cycles:pp");
	check_default(SAMPO_TYPE_HARDWARE, 0, G | (3ULL << SAMPO_ATTR_PRECISE_IP_SHIFT),
		      "cycles:pppH");
	check_default(SAMPO_TYPE_HARDWARE, 0,
		      SAMPO_ATTR_EXCLUDE_KERNEL | SAMPO_ATTR_EXCLUDE_HV | SAMPO_ATTR_EXCLUDE_GUEST,
		      "cycles:uH");
	/* no modifier and no exclude_guest (perf's "dummy:HG", what perf record adds) */
	check_default(SAMPO_TYPE_SOFTWARE, 9, 0, "dummy:HG");
	check_default(SAMPO_TYPE_SOFTWARE, 9, SAMPO_ATTR_EXCLUDE_HOST, "dummy:G");
	check_default(SAMPO_TYPE_TRACEPOINT, 1, 0, "unknown tracepoint");
}

static void test_evsel__event_desc_first(void **state)
{
	struct sampo_event_attr a = { .type = SAMPO_TYPE_HARDWARE, .config = 0, .flags = G };
	struct sampo_features *f = sampo_features__new();
	char *name;

	(void)state;
	assert_non_null(f);
	/* no EVENT_DESC: the made-up name */
	assert_null(sampo_evsel__desc_name(f, 0));
	assert_null(sampo_evsel__desc_name(NULL, 0));
	name = sampo_evsel__name(f, 0, &a);
	assert_string_equal(name, "cycles");
	free(name);
	name = sampo_evsel__name(NULL, 3, &a);
	assert_string_equal(name, "cycles");
	free(name);
	sampo_features__delete(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evsel__default_names),
		cmocka_unit_test(test_evsel__modifiers),
		cmocka_unit_test(test_evsel__event_desc_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
