// SPDX-License-Identifier: GPL-2.0
/*
 * test-evsel.c - event names (lib/evsel.c): perf 6.1's made-up names and
 * their modifiers, and the EVENT_DESC name taking precedence by position;
 * the event groups rebuilt from a GROUP_DESC payload built here.
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

/* GROUP_DESC payload: u32 nr, then per group a string, u32 leader_idx, u32 nr_members */
struct group_spec {
	const char *name;
	uint32_t leader_idx, nr_members;
};

static struct sampo_features *group_desc(const struct group_spec *gs, uint32_t nr)
{
	struct sampo_features *f = sampo_features__new();
	uint8_t buf[1024];
	size_t len = 0;

	assert_non_null(f);
	memcpy(buf, &nr, 4);
	len += 4;
	for (uint32_t i = 0; i < nr; i++) {
		len += sampo_feature__encode_string(buf + len, sizeof(buf) - len, gs[i].name);
		memcpy(buf + len, &gs[i].leader_idx, 4);
		memcpy(buf + len + 4, &gs[i].nr_members, 4);
		len += 8;
	}
	assert_int_equal(sampo_features__parse_one(f, SAMPO_FEAT_GROUP_DESC, buf, len, false, NULL),
			 0);
	return f;
}

static void check_group(const struct sampo_evsel_group *g, size_t leader, uint32_t nr_members,
			const char *name)
{
	assert_int_equal(g->leader, leader);
	assert_int_equal(g->nr_members, nr_members);
	if (name)
		assert_string_equal(g->name, name);
	else
		assert_null(g->name);
}

static void test_evsel__groups_none(void **state)
{
	struct sampo_features *f = sampo_features__new();
	struct sampo_evsel_group *g = NULL;
	bool ok = false;

	(void)state;
	/* no GROUP_DESC (or no features): every event alone */
	assert_int_equal(sampo_evsel__groups(f, 3, &g, &ok), 0);
	assert_true(ok);
	for (size_t e = 0; e < 3; e++)
		check_group(&g[e], e, 1, NULL);
	free(g);
	assert_int_equal(sampo_evsel__groups(NULL, 2, &g, NULL), 0);
	check_group(&g[1], 1, 1, NULL);
	free(g);
	/* no events */
	g = (void *)1;
	assert_int_equal(sampo_evsel__groups(f, 0, &g, &ok), 0);
	assert_null(g);
	assert_true(ok);
	sampo_features__delete(f);
}

static void test_evsel__groups_from_desc(void **state)
{
	/* {cycles,instructions} alone-event named{a,b,c} */
	const struct group_spec gs[] = { { "{anon_group}", 0, 2 }, { "named", 3, 3 } };
	struct sampo_features *f = group_desc(gs, 2);
	struct sampo_evsel_group *g = NULL;
	bool ok = false;

	(void)state;
	assert_int_equal(sampo_evsel__groups(f, 6, &g, &ok), 0);
	assert_true(ok);
	check_group(&g[0], 0, 2, NULL);
	check_group(&g[1], 0, 1, NULL);
	check_group(&g[2], 2, 1, NULL);
	check_group(&g[3], 3, 3, "named");
	check_group(&g[4], 3, 1, NULL);
	check_group(&g[5], 3, 1, NULL);
	free(g);
	sampo_features__delete(f);
}

static void test_evsel__groups_inconsistent(void **state)
{
	struct sampo_evsel_group *g = NULL;
	struct sampo_features *f;
	bool ok = true;

	(void)state;
	/* a group starting inside another: perf stops there, keeping what it set */
	{
		const struct group_spec gs[] = { { "{anon_group}", 0, 3 }, { "b", 1, 2 } };

		f = group_desc(gs, 2);
		assert_int_equal(sampo_evsel__groups(f, 4, &g, &ok), 0);
		assert_false(ok);
		check_group(&g[0], 0, 3, NULL);
		check_group(&g[1], 1, 2, "b");
		check_group(&g[2], 2, 1, NULL);
		free(g);
		sampo_features__delete(f);
	}
	/* members left over past the last event */
	{
		const struct group_spec gs[] = { { "{anon_group}", 1, 3 } };

		ok = true;
		f = group_desc(gs, 1);
		assert_int_equal(sampo_evsel__groups(f, 3, &g, &ok), 0);
		assert_false(ok);
		check_group(&g[0], 0, 1, NULL);
		check_group(&g[1], 1, 3, NULL);
		check_group(&g[2], 1, 1, NULL);
		free(g);
		sampo_features__delete(f);
	}
	/* a leader index no event has */
	{
		const struct group_spec gs[] = { { "x", 0, 2 }, { "y", 9, 2 } };

		ok = true;
		f = group_desc(gs, 2);
		assert_int_equal(sampo_evsel__groups(f, 3, &g, &ok), 0);
		assert_false(ok);
		check_group(&g[0], 0, 2, "x");
		check_group(&g[1], 0, 1, NULL);
		check_group(&g[2], 2, 1, NULL);
		free(g);
		sampo_features__delete(f);
	}
	/* nr_members 0 wraps as in perf: every later event is a member */
	{
		const struct group_spec gs[] = { { "{anon_group}", 0, 0 } };

		ok = true;
		f = group_desc(gs, 1);
		assert_int_equal(sampo_evsel__groups(f, 3, &g, &ok), 0);
		assert_false(ok);
		check_group(&g[0], 0, 0, NULL);
		check_group(&g[2], 0, 1, NULL);
		free(g);
		sampo_features__delete(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evsel__default_names),
		cmocka_unit_test(test_evsel__modifiers),
		cmocka_unit_test(test_evsel__event_desc_first),
		cmocka_unit_test(test_evsel__groups_none),
		cmocka_unit_test(test_evsel__groups_from_desc),
		cmocka_unit_test(test_evsel__groups_inconsistent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
