// SPDX-License-Identifier: GPL-2.0
/*
 * test-parse-events.c - perf record's -e (lib/parse-events.c): names and
 * modifiers, lists and their errors (cut at every length), the attrs built
 * for each option, perf's fallbacks and their end, and the kernel limits
 * read from a fake /proc.
 */
#include <errno.h>
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

#include <sampo/event.h>
#include <sampo/parse-events.h>
#include <sampo/regs.h>

#include "fixture.h"

static char root[] = "/tmp/sampo-test-parse-events.XXXXXX";

static struct sampo_event_spec parse_ok(const char *str)
{
	struct sampo_event_spec ev;

	assert_int_equal(sampo_event_spec__parse(str, strlen(str), &ev), 0);
	assert_string_equal(ev.name, str);
	return ev;
}

static void test_parse_events__names_and_modifiers(void **state)
{
	struct sampo_event_spec ev;
	char longname[80];

	(void)state;
	ev = parse_ok("cycles");
	assert_int_equal(ev.type, SAMPO_TYPE_HARDWARE);
	assert_int_equal(ev.config, 0);
	assert_false(ev.exclude_user || ev.exclude_kernel);
	ev = parse_ok("cpu-clock:u");
	assert_int_equal(ev.type, SAMPO_TYPE_SOFTWARE);
	assert_int_equal(ev.config, 0);
	assert_true(ev.exclude_kernel);
	assert_false(ev.exclude_user);
	ev = parse_ok("task-clock:k");
	assert_int_equal(ev.config, 1);
	assert_true(ev.exclude_user);
	ev = parse_ok("instructions:uk");
	assert_int_equal(ev.config, 1);
	assert_false(ev.exclude_user || ev.exclude_kernel);
	ev = parse_ok("cs:ppP");
	assert_int_equal(ev.type, SAMPO_TYPE_SOFTWARE);
	assert_int_equal(ev.config, 3);
	ev = parse_ok("ref-cycles");
	assert_int_equal(ev.config, 9);

	assert_int_equal(sampo_event_spec__parse("cycles:x", 8, &ev), -EINVAL);
	assert_int_equal(sampo_event_spec__parse("no-such-event", 13, &ev), -ENOENT);
	assert_int_equal(sampo_event_spec__parse("cycles", 0, &ev), -EINVAL);
	assert_int_equal(sampo_event_spec__parse("cyc\0les", 7, &ev), -EINVAL);
	memset(longname, 'a', sizeof(longname));
	assert_int_equal(sampo_event_spec__parse(longname, SAMPO_EVENT_SPEC_NAME_SIZE, &ev),
			 -EINVAL);
	/* only @len bytes count */
	assert_int_equal(sampo_event_spec__parse("cycles,xyz", 6, &ev), 0);
	assert_string_equal(ev.name, "cycles");
}

static void test_parse_events__lists(void **state)
{
	struct sampo_event_spec specs[16];
	size_t nr = 99, bad = 99;
	char many[256] = "";

	(void)state;
	assert_int_equal(sampo_event_specs__parse("cycles:u,task-clock,", specs, 16, &nr, &bad),
			 0);
	assert_int_equal(nr, 2);
	assert_string_equal(specs[0].name, "cycles:u");
	assert_string_equal(specs[1].name, "task-clock");

	assert_int_equal(sampo_event_specs__parse("cycles,nope,cs", specs, 16, &nr, &bad), -ENOENT);
	assert_int_equal(nr, 1);
	assert_int_equal(bad, 7);
	assert_int_equal(sampo_event_specs__parse("cycles,,cs", specs, 16, &nr, &bad), -EINVAL);
	assert_int_equal(bad, 7);
	assert_int_equal(sampo_event_specs__parse(",cs", specs, 16, &nr, &bad), -EINVAL);
	assert_int_equal(bad, 0);
	assert_int_equal(sampo_event_specs__parse("cs:z", specs, 16, &nr, NULL), -EINVAL);

	for (int i = 0; i < 17; i++)
		strcat(many, i ? ",cs" : "cs");
	assert_int_equal(sampo_event_specs__parse(many, specs, 16, &nr, &bad), -E2BIG);
	assert_int_equal(nr, 16);
	assert_int_equal(sampo_event_specs__parse("", specs, 16, &nr, &bad), 0);
	assert_int_equal(nr, 0);
}

/* every prefix of a list, in a heap copy of exactly that size: no over-read */
static void test_parse_events__list_cut_at_every_length(void **state)
{
	static const char full[] = "cycles:u,task-clock:k,page-faults,cs:pp";
	struct sampo_event_spec specs[16];

	(void)state;
	for (size_t len = 0; len < sizeof(full); len++) {
		char *cut = malloc(len + 1);
		size_t nr = 0, bad = 0, cut_len;
		int err;

		assert_non_null(cut);
		memcpy(cut, full, len);
		cut[len] = '\0';
		err = sampo_event_specs__parse(cut, specs, 16, &nr, &bad);
		if (err) {
			assert_true(err == -ENOENT || err == -EINVAL);
			assert_true(bad <= len);
		}
		assert_true(nr <= 4);
		free(cut);
		/* and the one-event parser on the same bytes, without a NUL */
		cut_len = len ? len : 1;
		cut = malloc(cut_len);
		assert_non_null(cut);
		memcpy(cut, full, cut_len);
		(void)sampo_event_spec__parse(cut, len, &specs[0]);
		free(cut);
	}
}

static void build(const char *list, const struct sampo_event_attr_opts *opts,
		  struct sampo_event_attr *attrs, size_t *nr)
{
	struct sampo_event_spec specs[4];

	assert_int_equal(sampo_event_specs__parse(list, specs, 4, nr, NULL), 0);
	assert_int_equal(sampo_event_specs__attrs(specs, *nr, opts, attrs), 0);
}

#define TRACKING                                                                                   \
	(SAMPO_ATTR_MMAP | SAMPO_ATTR_COMM | SAMPO_ATTR_TASK | SAMPO_ATTR_MMAP2 |                  \
	 SAMPO_ATTR_COMM_EXEC | SAMPO_ATTR_KSYMBOL | SAMPO_ATTR_BPF_EVENT)
#define BASIC_SAMPLE (SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME | SAMPO_SAMPLE_PERIOD)

static void test_parse_events__attrs_as_perf_record(void **state)
{
	struct sampo_event_attr a[4];
	size_t nr;

	(void)state;
	/* defaults: 4000 Hz, per task with children, tracking + build-ids in MMAP2 */
	build("cycles:u", NULL, a, &nr);
	assert_int_equal(a[0].type, SAMPO_TYPE_HARDWARE);
	assert_int_equal(a[0].size, SAMPO_ATTR_SIZE_VER7);
	assert_int_equal(a[0].sample_type, BASIC_SAMPLE);
	assert_int_equal(a[0].read_format, SAMPO_FORMAT_ID | SAMPO_FORMAT_LOST);
	assert_int_equal(a[0].sample_period, 4000);
	assert_int_equal(a[0].flags, SAMPO_ATTR_FREQ | SAMPO_ATTR_DISABLED |
					     SAMPO_ATTR_SAMPLE_ID_ALL | SAMPO_ATTR_EXCLUDE_GUEST |
					     SAMPO_ATTR_INHERIT | SAMPO_ATTR_EXCLUDE_KERNEL |
					     SAMPO_ATTR_EXCLUDE_HV | TRACKING |
					     SAMPO_ATTR_BUILD_ID);

	/*
	 * perf's modifiers (perf record -e X:M; perf evlist -v): u or k exclude
	 * the hypervisor; u and p exclude guests, k alone does not, nor no modifier
	 */
	{
		static const struct {
			const char *event;
			uint64_t flags;
		} mods[] = {
			{ "cpu-clock", SAMPO_ATTR_EXCLUDE_GUEST },
			{ "cpu-clock:u", SAMPO_ATTR_EXCLUDE_KERNEL | SAMPO_ATTR_EXCLUDE_HV |
						 SAMPO_ATTR_EXCLUDE_GUEST },
			{ "cpu-clock:k", SAMPO_ATTR_EXCLUDE_USER | SAMPO_ATTR_EXCLUDE_HV },
			{ "cpu-clock:uk", SAMPO_ATTR_EXCLUDE_HV | SAMPO_ATTR_EXCLUDE_GUEST },
			{ "cpu-clock:kp", SAMPO_ATTR_EXCLUDE_USER | SAMPO_ATTR_EXCLUDE_HV |
						  SAMPO_ATTR_EXCLUDE_GUEST },
			{ "cpu-clock:p", SAMPO_ATTR_EXCLUDE_GUEST },
		};
		const uint64_t mask = SAMPO_ATTR_EXCLUDE_USER | SAMPO_ATTR_EXCLUDE_KERNEL |
				      SAMPO_ATTR_EXCLUDE_HV | SAMPO_ATTR_EXCLUDE_GUEST;

		for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
			build(mods[i].event, NULL, a, &nr);
			assert_int_equal(a[0].flags & mask, mods[i].flags);
		}
	}
	/* --all-user, --all-kernel over the modifiers; the tracking event's records */
	{
		SAMPO_OPTS(sampo_event_attr_opts, o, .all_kernel = true, .switch_events = true,
			   .namespaces = true, .sample_address = true, .sample_cpu = true,
			   .no_inherit = true);
		SAMPO_OPTS(sampo_event_attr_opts, u, .all_user = true);

		build("cpu-clock:u,task-clock", &o, a, &nr);
		for (size_t i = 0; i < nr; i++) {
			assert_true(a[i].flags & SAMPO_ATTR_EXCLUDE_USER);
			assert_false(a[i].flags & (SAMPO_ATTR_EXCLUDE_KERNEL | SAMPO_ATTR_INHERIT));
			assert_int_equal(a[i].sample_type,
					 BASIC_SAMPLE | SAMPO_SAMPLE_ID | SAMPO_SAMPLE_CPU |
						 SAMPO_SAMPLE_ADDR | SAMPO_SAMPLE_DATA_SRC);
		}
		assert_true(a[0].flags & SAMPO_ATTR_CONTEXT_SWITCH);
		assert_true(a[0].flags & SAMPO_ATTR_NAMESPACES);
		assert_true(a[0].flags & SAMPO_ATTR_MMAP_DATA);
		assert_false(a[1].flags & (SAMPO_ATTR_CONTEXT_SWITCH | SAMPO_ATTR_NAMESPACES |
					   SAMPO_ATTR_MMAP_DATA));
		build("cpu-clock:k", &u, a, &nr);
		assert_true(a[0].flags & SAMPO_ATTR_EXCLUDE_KERNEL);
		assert_false(a[0].flags & SAMPO_ATTR_EXCLUDE_USER);
	}
	/* -I, --user-regs; with dwarf call graphs the minimal set joins the user's list */
	{
		struct sampo_callgraph cg;
		SAMPO_OPTS(sampo_event_attr_opts, o, .intr_regs = 0x3, .user_regs = 0x1);

		build("cpu-clock", &o, a, &nr);
		assert_int_equal(a[0].sample_type &
					 (SAMPO_SAMPLE_REGS_INTR | SAMPO_SAMPLE_REGS_USER),
				 SAMPO_SAMPLE_REGS_INTR | SAMPO_SAMPLE_REGS_USER);
		assert_int_equal(a[0].sample_regs_intr, 0x3);
		assert_int_equal(a[0].sample_regs_user, 0x1);
		if (sampo_reg__user_mask()) {
			assert_int_equal(sampo_callgraph__parse("dwarf", 127, &cg), 0);
			o.callgraph = &cg;
			build("cpu-clock", &o, a, &nr);
			assert_int_equal(a[0].sample_regs_user,
					 0x1 | sampo_reg__dwarf_minimal_mask());
			o.user_regs = 0;
			build("cpu-clock", &o, a, &nr);
			assert_int_equal(a[0].sample_regs_user, sampo_reg__user_mask());
		}
	}

	/* a command, -g, -c: enable on exec, callchains, a period */
	{
		SAMPO_OPTS(sampo_event_attr_opts, o, .period = 10007, .callchain = true,
			   .enable_on_exec = true);

		build("cpu-clock,task-clock:k", &o, a, &nr);
		assert_int_equal(nr, 2);
		for (size_t i = 0; i < nr; i++) {
			assert_int_equal(a[i].sample_type, BASIC_SAMPLE | SAMPO_SAMPLE_CALLCHAIN |
								   SAMPO_SAMPLE_ID);
			assert_int_equal(a[i].sample_period, 10007);
			assert_false(a[i].flags & SAMPO_ATTR_FREQ);
			assert_true(a[i].flags & SAMPO_ATTR_ENABLE_ON_EXEC);
		}
		assert_int_equal(a[0].flags & TRACKING, TRACKING);
		assert_int_equal(a[1].flags & (TRACKING | SAMPO_ATTR_BUILD_ID), 0);
		assert_true(a[1].flags & SAMPO_ATTR_EXCLUDE_USER);
	}
	/* -a: CPU in samples, no enable_on_exec, no build-id MMAP2 */
	{
		SAMPO_OPTS(sampo_event_attr_opts, o, .freq_hz = 99, .system_wide = true,
			   .enable_on_exec = true);

		build("cpu-clock", &o, a, &nr);
		assert_int_equal(a[0].sample_type, BASIC_SAMPLE | SAMPO_SAMPLE_CPU);
		assert_int_equal(a[0].sample_period, 99);
		assert_false(a[0].flags & (SAMPO_ATTR_ENABLE_ON_EXEC | SAMPO_ATTR_BUILD_ID));
	}
	/* -t: no inherit; --no-buildid-mmap */
	{
		SAMPO_OPTS(sampo_event_attr_opts, o, .per_thread = true, .no_buildid_mmap = true);

		build("cpu-clock", &o, a, &nr);
		assert_false(a[0].flags & (SAMPO_ATTR_INHERIT | SAMPO_ATTR_BUILD_ID));
	}
	/* bad arguments */
	{
		struct sampo_event_spec ev = parse_ok("cs");
		struct sampo_event_attr_opts bad = { .sz = 1 };

		assert_int_equal(sampo_event_specs__attrs(&ev, 0, NULL, a), -EINVAL);
		assert_int_equal(sampo_event_specs__attrs(&ev, 1, &bad, a), -EINVAL);
	}
}

static void test_parse_events__fallbacks_end(void **state)
{
	struct sampo_event_spec specs[4];
	enum sampo_event_fallback what = SAMPO_EVENT_FALLBACK_NONE;
	size_t nr;

	(void)state;
	/* paranoid: every event user-only, once */
	assert_int_equal(sampo_event_specs__parse("cycles,cs:k,task-clock:u", specs, 4, &nr, NULL),
			 0);
	assert_true(sampo_event_specs__fallback(specs, nr, 0, -EACCES, &what));
	assert_int_equal(what, SAMPO_EVENT_FALLBACK_USER_ONLY);
	assert_string_equal(specs[0].name, "cycles:u");
	assert_string_equal(specs[1].name, "cs:k");
	for (size_t i = 0; i < nr; i++) {
		assert_true(specs[i].exclude_kernel);
		assert_false(specs[i].exclude_user);
	}
	assert_false(sampo_event_specs__fallback(specs, nr, 0, -EPERM, &what));

	/* no PMU: cycles becomes cpu-clock with its modifiers, once */
	assert_true(sampo_event_specs__fallback(specs, nr, 0, -ENOENT, &what));
	assert_int_equal(what, SAMPO_EVENT_FALLBACK_CPU_CLOCK);
	assert_string_equal(specs[0].name, "cpu-clock:u");
	assert_int_equal(specs[0].type, SAMPO_TYPE_SOFTWARE);
	assert_true(specs[0].exclude_kernel);
	assert_false(sampo_event_specs__fallback(specs, nr, 0, -ENOENT, &what));

	/* other hardware events, other errors, an unknown index: nothing to do */
	assert_int_equal(sampo_event_specs__parse("instructions,cpu-cycles", specs, 4, &nr, NULL),
			 0);
	assert_false(sampo_event_specs__fallback(specs, nr, 0, -EOPNOTSUPP, &what));
	assert_false(sampo_event_specs__fallback(specs, nr, -1, -ENODEV, &what));
	assert_false(sampo_event_specs__fallback(specs, nr, 5, -ENODEV, &what));
	assert_false(sampo_event_specs__fallback(specs, nr, 1, -EINVAL, &what));
	assert_true(sampo_event_specs__fallback(specs, nr, 1, -ENOSYS, &what));
	assert_string_equal(specs[1].name, "cpu-clock");

	assert_true(sampo_event_open_error__missing(-ENODEV));
	assert_false(sampo_event_open_error__missing(-EACCES));
}

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

static void test_parse_events__limits_from_proc(void **state)
{
	char proc[300];
	uint64_t rate = 1;
	int paranoid = 7;

	(void)state;
	snprintf(proc, sizeof(proc), "%s/p1", root);
	put("p1/sys/kernel/perf_event_paranoid", "2\n");
	put("p1/sys/kernel/perf_event_max_sample_rate", "25000\n");
	sampo_event_limits__read(proc, &paranoid, &rate);
	assert_int_equal(paranoid, 2);
	assert_int_equal(rate, 25000);

	snprintf(proc, sizeof(proc), "%s/p2", root);
	put("p2/sys/kernel/perf_event_paranoid", "-1\n");
	put("p2/sys/kernel/perf_event_max_sample_rate", "garbage\n");
	sampo_event_limits__read(proc, &paranoid, &rate);
	assert_int_equal(paranoid, -1);
	assert_int_equal(rate, 0);

	snprintf(proc, sizeof(proc), "%s/none", root);
	paranoid = 7;
	rate = 1;
	sampo_event_limits__read(proc, &paranoid, &rate);
	assert_int_equal(paranoid, -1);
	assert_int_equal(rate, 0);
	sampo_event_limits__read(proc, NULL, NULL);
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

/* perf 6.1's parse_callchain_record(), case by case (checked against perf record here) */
static void test_parse_events__call_graph(void **state)
{
	static const struct {
		const char *arg;
		int err;
		enum sampo_callgraph_mode mode;
		uint32_t size;
		uint16_t max_stack;
	} cases[] = {
		{ "fp", 0, SAMPO_CALLGRAPH_FP, 0, 0 },
		{ "fp,5", 0, SAMPO_CALLGRAPH_FP, 0, 5 },
		{ "fp,x", 0, SAMPO_CALLGRAPH_FP, 0, 0 },     /* strtoul: 0 */
		{ "fp,127", 0, SAMPO_CALLGRAPH_FP, 0, 0 },   /* not below the limit: ignored */
		{ "dwarf", 0, SAMPO_CALLGRAPH_DWARF, 8192, 0 },
		{ "dwarf,100", 0, SAMPO_CALLGRAPH_DWARF, 104, 0 }, /* rounded up to u64s */
		{ "dwarf,0x100", 0, SAMPO_CALLGRAPH_DWARF, 256, 0 },
		{ "dwarf,65528", 0, SAMPO_CALLGRAPH_DWARF, 65528, 0 },
		{ "dwarf,,4096", 0, SAMPO_CALLGRAPH_DWARF, 4096, 0 }, /* empty tokens skipped */
		{ "dwarf,8192,3", 0, SAMPO_CALLGRAPH_DWARF, 8192, 0 },
		{ "dwarf,0", -ERANGE, 0, 0, 0 },
		{ "dwarf,65529", -ERANGE, 0, 0, 0 },
		{ "dwarf,1k", -ERANGE, 0, 0, 0 },
		{ "dwarf,-8", -ERANGE, 0, 0, 0 },
		{ "lbr", 0, SAMPO_CALLGRAPH_LBR, 0, 0 },
		{ "lbr,1", -E2BIG, 0, 0, 0 },
		{ "foo", -EINVAL, 0, 0, 0 },
		{ "", -EINVAL, 0, 0, 0 },
		{ "dwarfx", -EINVAL, 0, 0, 0 },
	};
	struct sampo_callgraph cg;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int err = sampo_callgraph__parse(cases[i].arg, 127, &cg);

		if (err != cases[i].err)
			fail_msg("'%s': %d, not %d", cases[i].arg, err, cases[i].err);
		if (err)
			continue;
		assert_int_equal(cg.mode, cases[i].mode);
		assert_int_equal(cg.dump_size, cases[i].size);
		assert_int_equal(cg.max_stack, cases[i].max_stack);
	}
}

/* --call-graph dwarf sets what perf's evsel__config_callchain() and sample_address set */
static void test_parse_events__attrs_dwarf(void **state)
{
	struct sampo_event_spec specs[2];
	struct sampo_event_attr attrs[2];
	struct sampo_callgraph cg = { .mode = SAMPO_CALLGRAPH_DWARF, .dump_size = 4096 };
	SAMPO_OPTS(sampo_event_attr_opts, o, .callgraph = &cg);

	(void)state;
	if (!sampo_reg__user_mask())
		skip();
	assert_int_equal(sampo_event_spec__parse("cpu-clock", 9, &specs[0]), 0);
	assert_int_equal(sampo_event_spec__parse("task-clock", 10, &specs[1]), 0);
	assert_int_equal(sampo_event_specs__attrs(specs, 2, &o, attrs), 0);
	for (int i = 0; i < 2; i++) {
		const uint64_t want = SAMPO_SAMPLE_CALLCHAIN | SAMPO_SAMPLE_REGS_USER |
				      SAMPO_SAMPLE_STACK_USER | SAMPO_SAMPLE_ADDR | SAMPO_SAMPLE_DATA_SRC;

		assert_int_equal(attrs[i].sample_type & want, want);
		assert_int_equal(attrs[i].sample_regs_user, sampo_reg__user_mask());
		assert_int_equal(attrs[i].sample_stack_user, 4096);
		assert_true(attrs[i].flags & SAMPO_ATTR_EXCLUDE_CALLCHAIN_USER);
		/* data mmaps come with the tracking event only */
		assert_int_equal(!!(attrs[i].flags & SAMPO_ATTR_MMAP_DATA), i == 0);
	}
#if defined(__x86_64__)
	assert_int_equal(sampo_reg__user_mask(), 0xff0fff);
#endif
	cg.dump_size = 12; /* not a multiple of 8: the parser never makes it */
	assert_int_equal(sampo_event_specs__attrs(specs, 2, &o, attrs), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_events__names_and_modifiers),
		cmocka_unit_test(test_parse_events__lists),
		cmocka_unit_test(test_parse_events__list_cut_at_every_length),
		cmocka_unit_test(test_parse_events__attrs_as_perf_record),
		cmocka_unit_test(test_parse_events__fallbacks_end),
		cmocka_unit_test(test_parse_events__limits_from_proc),
		cmocka_unit_test(test_parse_events__call_graph),
		cmocka_unit_test(test_parse_events__attrs_dwarf),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
