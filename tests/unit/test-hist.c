// SPDX-License-Identifier: GPL-2.0
/*
 * test-hist.c - the report histograms (lib/hist.c) on samples built in
 * memory: periods and percentages, children accounting (recursion counted
 * once), call graph tries and their printed form, filters, and the stack
 * cache staying right when a process's maps change.
 *
 * No symbolizer: every frame is an address, printed as perf prints an
 * unresolved one (map-relative in the Symbol column, raw in graphs). The
 * expected lines follow perf 6.1's ui/stdio/hist.c rules, worked out by hand.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sampo/event.h>
#include <sampo/evsel.h>
#include <sampo/hist.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/sample.h>

#include "fixture-machine.h"

#define A 0x401000
#define B 0x402000
#define C 0x403000
#define D 0x404000

struct setup {
	struct sampo_machine *m;
	struct sampo_hists *h;
	char *out;
	size_t out_len;
};

static const enum sampo_sort_key sort_sym[] = { SAMPO_SORT_SYM };
static const char *const only_app[] = { "app" };

static void setup_with(struct setup *t, const struct sampo_hists_opts *opts)
{
	t->m = sampo_machine__new();
	assert_non_null(t->m);
	fixture_comm(t->m, 100, "app");
	fixture_mmap2(t->m, 100, 0x400000, 0, 1, "/opt/app");
	assert_int_equal(sampo_hists__new(t->m, NULL, opts, &t->h), 0);
}

static const char *print(struct setup *t)
{
	FILE *fp = open_memstream(&t->out, &t->out_len);

	assert_non_null(fp);
	assert_int_equal(sampo_hists__resort(t->h), 0);
	assert_int_equal(sampo_hists__fprintf(t->h, 0, fp), 0);
	fclose(fp);
	return t->out;
}

static void teardown_with(struct setup *t)
{
	sampo_hists__delete(t->h);
	sampo_machine__delete(t->m);
	free(t->out);
}

static void test_hist__overhead_and_order(void **state)
{
	struct setup t = { 0 };
	const char *out;

	(void)state;
	setup_with(&t, NULL);
	fixture_add(t.h, 100, D, NULL, 0, 100);
	for (int i = 0; i < 3; i++)
		fixture_add(t.h, 100, C, NULL, 0, 100);
	out = print(&t);
	assert_int_equal(sampo_hists__nr_samples(t.h, 0), 4);
	assert_int_equal(sampo_hists__total_period(t.h, 0), 400);
	assert_int_equal(sampo_hists__nr_entries(t.h, 0), 2);
	/* the unresolved column is 16 + 4 + 2 wide, the dso at least 16 */
	assert_non_null(strstr(out, "# Overhead  Command  Shared Object     Symbol                \n"));
	assert_non_null(strstr(out, "    75.00%  app      app               [.] 0x0000000000003000\n"
				    "    25.00%  app      app               [.] 0x0000000000004000\n"));
	teardown_with(&t);
}

static void test_hist__callee_graph(void **state)
{
	SAMPO_OPTS(sampo_hists_opts, o, .callchain = true, .callchain_min_percent = -1);
	const uint64_t c1[] = { C, B, A }, c2[] = { D, B, A };
	struct setup t = { 0 };
	const char *out;

	(void)state;
	setup_with(&t, &o);
	fixture_add(t.h, 100, C, c1, 3, 100);
	fixture_add(t.h, 100, C, c1, 3, 100);
	fixture_add(t.h, 100, D, c2, 3, 100);
	out = print(&t);
	/* one chain per entry: printed without a percentage, leaf first */
	assert_non_null(strstr(out, "    66.67%  app      app               [.] 0x0000000000003000\n"
				    "            |\n"
				    "            ---0x403000\n"
				    "               0x402000\n"
				    "               0x401000\n"
				    "\n"
				    "    33.33%  app      app               [.] 0x0000000000004000\n"));
	teardown_with(&t);
}

static void test_hist__children_caller_graph(void **state)
{
	SAMPO_OPTS(sampo_hists_opts, o, .callchain = true, .children = true, .caller_order = true,
		   .callchain_min_percent = -1, .sort_keys = sort_sym, .nr_sort_keys = 1);
	const uint64_t c1[] = { C, B, A }, c2[] = { D, B, A };
	struct setup t = { 0 };
	const char *out;

	(void)state;
	setup_with(&t, &o);
	fixture_add(t.h, 100, C, c1, 3, 100);
	fixture_add(t.h, 100, C, c1, 3, 100);
	fixture_add(t.h, 100, D, c2, 3, 100);
	out = print(&t);
	/*
	 * A and B: every sample went through them (100% children, 0 self);
	 * A first, as the caller. With --sort sym the entry's own frame is not
	 * repeated on the single-chain line; the branches split at B.
	 */
	assert_non_null(strstr(out, "# Children      Self  Symbol                \n"));
	assert_non_null(strstr(out, "   100.00%     0.00%  [.] 0x0000000000401000\n"
				    "            |\n"
				    "            ---0x402000\n"
				    "               |          \n"
				    "               |--66.67%--0x403000\n"
				    "               |          \n"
				    "                --33.33%--0x404000\n"
				    "\n"
				    "   100.00%     0.00%  [.] 0x0000000000402000\n"));
	teardown_with(&t);
}

/* -g folded: one line per chain end with self hits, root of the row's graph first */
static void test_hist__folded_graph(void **state)
{
	SAMPO_OPTS(sampo_hists_opts, o, .callchain = true, .children = true, .caller_order = true,
		   .callchain_min_percent = -1, .sort_keys = sort_sym, .nr_sort_keys = 1,
		   .graph_folded = true);
	SAMPO_OPTS(sampo_hists_opts, o2, .callchain = true, .callchain_min_percent = -1,
		   .graph_folded = true, .graph_period = true);
	const uint64_t c1[] = { C, B, A }, c2[] = { D, B, A };
	struct setup t = { 0 };
	const char *out;

	(void)state;
	setup_with(&t, &o);
	fixture_add(t.h, 100, C, c1, 3, 100);
	fixture_add(t.h, 100, C, c1, 3, 100);
	fixture_add(t.h, 100, D, c2, 3, 100);
	out = print(&t);
	/* by hits, the whole path from the row's function, no empty line after */
	assert_non_null(strstr(out, "   100.00%     0.00%  [.] 0x0000000000401000\n"
				    "66.67% 0x401000;0x402000;0x403000\n"
				    "33.33% 0x401000;0x402000;0x404000\n"
				    "   100.00%     0.00%  [.] 0x0000000000402000\n"
				    "66.67% 0x402000;0x403000\n"
				    "33.33% 0x402000;0x404000\n"));
	teardown_with(&t);

	/* self mode, callee first, periods */
	setup_with(&t, &o2);
	fixture_add(t.h, 100, C, c1, 3, 100);
	fixture_add(t.h, 100, C, c1, 3, 100);
	fixture_add(t.h, 100, D, c2, 3, 100);
	out = print(&t);
	assert_non_null(strstr(out, "    66.67%  app      app               [.] 0x0000000000003000\n"
				    "200 0x403000;0x402000;0x401000\n"
				    "    33.33%  app      app               [.] 0x0000000000004000\n"
				    "100 0x404000;0x402000;0x401000\n"));
	teardown_with(&t);
}

static void test_hist__recursion_counts_once(void **state)
{
	SAMPO_OPTS(sampo_hists_opts, o, .callchain = true, .children = true, .caller_order = true,
		   .callchain_min_percent = -1, .sort_keys = sort_sym, .nr_sort_keys = 1);
	const uint64_t rec[] = { C, B, A, B, A };
	struct setup t = { 0 };
	const char *out;

	(void)state;
	setup_with(&t, &o);
	fixture_add(t.h, 100, C, rec, 5, 100);
	out = print(&t);
	/* A and B are twice on the chain, yet at most 100% */
	assert_non_null(strstr(out, "   100.00%     0.00%  [.] 0x0000000000401000\n"));
	assert_non_null(strstr(out, "   100.00%     0.00%  [.] 0x0000000000402000\n"));
	assert_null(strstr(out, "200.00%"));
	teardown_with(&t);
}

static void test_hist__one_comm_filter(void **state)
{
	SAMPO_OPTS(sampo_hists_opts, o, .comms = only_app, .nr_comms = 1);
	struct setup t = { 0 };
	const char *out;
	char *hdr = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	setup_with(&t, &o);
	fixture_comm(t.m, 200, "other");
	fixture_mmap2(t.m, 200, 0x400000, 0, 2, "/opt/other");
	fixture_add(t.h, 100, C, NULL, 0, 100);
	fixture_add(t.h, 200, C, NULL, 0, 300);
	out = print(&t);
	/* the other comm's samples count in the total, but make no row */
	assert_int_equal(sampo_hists__total_period(t.h, 0), 400);
	assert_non_null(strstr(out, "# Overhead  Shared Object     Symbol                \n"));
	assert_non_null(strstr(out, "    25.00%  app               [.] 0x0000000000003000\n"));
	assert_null(strstr(out, "other"));
	fp = open_memstream(&hdr, &len);
	sampo_hists__fprintf_filters(t.h, fp);
	fclose(fp);
	assert_string_equal(hdr, "# comm: app\n");
	free(hdr);
	teardown_with(&t);
}

/* an MMAP that replaces a map between two samples: the machine alone says so, no call needed */
static void test_hist__remap_between_samples(void **state)
{
	struct setup t = { 0 };
	const char *out;

	(void)state;
	setup_with(&t, NULL);
	fixture_add(t.h, 100, C, NULL, 0, 100);
	/* the same address now belongs to another file: the cached stack must not be reused */
	fixture_mmap2(t.m, 100, 0x400000, 0, 3, "/opt/lib2");
	fixture_add(t.h, 100, C, NULL, 0, 100);
	out = print(&t);
	assert_non_null(strstr(out, "    50.00%  app      app               [.] 0x0000000000003000\n"));
	assert_non_null(strstr(out, "    50.00%  app      lib2              [.] 0x0000000000003000\n"));
	teardown_with(&t);
}

static void ksymbol(struct sampo_machine *m, uint64_t addr, bool unregister, const char *name)
{
	struct rec_buf b = { 0 };

	b.u.rec.ksymbol.addr = addr;
	b.u.rec.ksymbol.len = 0x100;
	b.u.rec.ksymbol.ksym_type = SAMPO_KSYMBOL_TYPE_BPF;
	b.u.rec.ksymbol.flags = unregister ? SAMPO_KSYMBOL_FLAG_UNREGISTER : 0;
	strcpy(b.u.rec.ksymbol.name, name);
	fixture_process(m, &b, SAMPO_RECORD_KSYMBOL, sizeof(b.u.rec.ksymbol) + strlen(name) + 1);
}

static void add_kernel(struct sampo_hists *h, uint32_t pid, uint64_t ip, uint64_t period)
{
	struct sampo_sample s = { 0 };

	s.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_PERIOD;
	s.pid = s.tid = pid;
	s.ip = ip;
	s.period = period;
	s.cpumode = SAMPO_CPUMODE_KERNEL;
	assert_int_equal(sampo_hists__add_sample(h, 0, &s), 0);
}

/* a BPF program replaced at the same address between kernel samples: the new one names them */
static void test_hist__kernel_remap_between_samples(void **state)
{
	struct setup t = { 0 };
	const char *out;

	(void)state;
	setup_with(&t, NULL);
	ksymbol(t.m, 0xffffffffa0000000, false, "bpf_prog_one");
	add_kernel(t.h, 100, 0xffffffffa0000010, 100);
	ksymbol(t.m, 0xffffffffa0000000, true, "bpf_prog_one");
	ksymbol(t.m, 0xffffffffa0000000, false, "bpf_prog_two");
	add_kernel(t.h, 100, 0xffffffffa0000010, 300);
	out = print(&t);
	assert_non_null(strstr(out, "    25.00%  app      bpf_prog_one"));
	assert_non_null(strstr(out, "    75.00%  app      bpf_prog_two"));
	teardown_with(&t);
}

/* a COMM between two samples of one thread: the second has the new comm */
static void test_hist__comm_between_samples(void **state)
{
	struct setup t = { 0 };
	const char *out;

	(void)state;
	setup_with(&t, NULL);
	fixture_add(t.h, 100, C, NULL, 0, 100);
	fixture_comm(t.m, 100, "renamed");
	fixture_add(t.h, 100, C, NULL, 0, 300);
	out = print(&t);
	assert_non_null(strstr(out, "    25.00%  app      "));
	assert_non_null(strstr(out, "    75.00%  renamed  "));
	teardown_with(&t);
}

static void test_hist__bad_options(void **state)
{
	const enum sampo_sort_key bad_key[] = { SAMPO_SORT_COMM, (enum sampo_sort_key)42 };
	const enum sampo_sort_key too_many[SAMPO_SORT_MAX_KEYS + 1] = { 0 };
	SAMPO_OPTS(sampo_hists_opts, o, .sort_keys = bad_key, .nr_sort_keys = 2);
	SAMPO_OPTS(sampo_hists_opts, o2, .sort_keys = too_many, .nr_sort_keys = SAMPO_SORT_MAX_KEYS + 1);
	struct sampo_machine *m = sampo_machine__new();
	struct sampo_hists *h = NULL;

	(void)state;
	assert_int_equal(sampo_hists__new(m, NULL, &o, &h), -EINVAL);
	assert_int_equal(sampo_hists__new(m, NULL, &o2, &h), -EINVAL);
	assert_null(h);
	sampo_machine__delete(m);
}

static void test_hist__sort_keys_parse(void **state)
{
	enum sampo_sort_key keys[SAMPO_SORT_MAX_KEYS];
	size_t nr = 0;
	char err[128] = "";

	(void)state;
	/* perf's names, "symbol" for sym, a repeated key (pid and tid are one) once */
	assert_int_equal(sampo_sort_keys__parse("cpu,,symbol,pid,sym,tid,dso,comm", keys,
						SAMPO_SORT_MAX_KEYS, &nr, err, sizeof(err)),
			 0);
	assert_int_equal(nr, 5);
	assert_int_equal(keys[0], SAMPO_SORT_CPU);
	assert_int_equal(keys[1], SAMPO_SORT_SYM);
	assert_int_equal(keys[2], SAMPO_SORT_PID);
	assert_int_equal(keys[3], SAMPO_SORT_DSO);
	assert_int_equal(keys[4], SAMPO_SORT_COMM);
	assert_string_equal(sampo_sort_key__name(SAMPO_SORT_TID), "tid");
	assert_int_equal(sampo_sort_keys__parse("srcfile,srcline", keys, SAMPO_SORT_MAX_KEYS, &nr,
						err, sizeof(err)),
			 0);
	assert_int_equal(nr, 2);
	assert_int_equal(keys[0], SAMPO_SORT_SRCFILE);
	assert_int_equal(keys[1], SAMPO_SORT_SRCLINE);
	assert_string_equal(sampo_sort_key__name(SAMPO_SORT_SRCLINE), "srcline");
	assert_int_equal(sampo_sort_keys__parse("trace,comm", keys, SAMPO_SORT_MAX_KEYS, &nr, err,
						sizeof(err)),
			 0);
	assert_int_equal(nr, 2);
	assert_int_equal(keys[0], SAMPO_SORT_TRACE);
	assert_string_equal(sampo_sort_key__name(SAMPO_SORT_TRACE), "trace");
	assert_null(sampo_sort_key__name((enum sampo_sort_key)42));

	/* the messages sampo report prints */
	assert_int_equal(sampo_sort_keys__parse("comm,nope", keys, SAMPO_SORT_MAX_KEYS, &nr, err,
						sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "unknown sort key 'nope' (known: comm, pid, tid, dso, sym, cpu, "
				 "srcline, srcfile, trace)");
	assert_int_equal(sampo_sort_keys__parse("symb", keys, SAMPO_SORT_MAX_KEYS, &nr, err,
						sizeof(err)),
			 -EINVAL);
	assert_int_equal(sampo_sort_keys__parse(",", keys, SAMPO_SORT_MAX_KEYS, &nr, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "empty sort key list");
	assert_int_equal(sampo_sort_keys__parse("comm,dso", keys, 1, &nr, err, sizeof(err)), -EINVAL);
	assert_int_equal(sampo_sort_keys__parse("comm,comm", keys, 1, &nr, NULL, 0), 0);
	assert_int_equal(nr, 1);
}

/*
 * Two processes, three addresses; periods chosen so that every row has its
 * own: app C 500 (5 samples), app D 200 (2), other C 300 (1). Total 1000.
 */
static void add_three_rows(struct setup *t)
{
	fixture_comm(t->m, 200, "other");
	fixture_mmap2(t->m, 200, 0x400000, 0, 2, "/opt/other");
	for (int i = 0; i < 5; i++)
		fixture_add(t->h, 100, C, NULL, 0, 100);
	fixture_add(t->h, 100, D, NULL, 0, 150);
	fixture_add(t->h, 100, D, NULL, 0, 50);
	fixture_add(t->h, 200, C, NULL, 0, 300);
}

static void test_hist__iterate_rows(void **state)
{
	const struct sampo_hist_entry *e;
	struct setup t = { 0 };
	uint64_t sum = 0;
	size_t n = 0;

	(void)state;
	setup_with(&t, NULL);
	add_three_rows(&t);
	/* nothing to walk before resort */
	assert_null(sampo_hists__next_entry(t.h, 0, NULL));
	(void)print(&t);

	e = sampo_hists__next_entry(t.h, 0, NULL);
	assert_non_null(e);
	assert_int_equal(sampo_hist_entry__period(e), 500);
	assert_int_equal(sampo_hist_entry__self_period(e), 500);
	assert_int_equal(sampo_hist_entry__nr_samples(e), 5);
	assert_string_equal(sampo_hist_entry__comm(e), "app");
	assert_string_equal(sampo_hist_entry__dso_name(e), "app");
	assert_non_null(sampo_hist_entry__dso(e));
	assert_null(sampo_hist_entry__symbol(e));
	assert_null(sampo_hist_entry__symbol_name(e));
	assert_int_equal(sampo_hist_entry__ip(e), C - 0x400000); /* map-relative, as printed */
	assert_int_equal(sampo_hist_entry__level(e), '.');
	assert_int_equal(sampo_hist_entry__pid(e), 100);
	assert_int_equal(sampo_hist_entry__tid(e), 100);
	assert_int_equal(sampo_hist_entry__cpu(e), -1); /* cpu is no sort key */

	e = sampo_hists__next_entry(t.h, 0, e);
	assert_non_null(e);
	assert_int_equal(sampo_hist_entry__period(e), 300);
	assert_int_equal(sampo_hist_entry__nr_samples(e), 1);
	assert_string_equal(sampo_hist_entry__comm(e), "other");
	assert_string_equal(sampo_hist_entry__dso_name(e), "other");
	assert_int_equal(sampo_hist_entry__pid(e), 200);

	e = sampo_hists__next_entry(t.h, 0, e);
	assert_non_null(e);
	assert_int_equal(sampo_hist_entry__period(e), 200);
	assert_int_equal(sampo_hist_entry__nr_samples(e), 2);
	assert_int_equal(sampo_hist_entry__ip(e), D - 0x400000);
	assert_null(sampo_hists__next_entry(t.h, 0, e));

	sampo_hists__for_each_entry(t.h, 0, e) {
		sum += sampo_hist_entry__period(e);
		n++;
	}
	assert_int_equal(n, 3);
	assert_int_equal(sum, sampo_hists__total_period(t.h, 0));
	/* an event without samples has no rows */
	assert_null(sampo_hists__next_entry(t.h, 1, NULL));
	assert_null(sampo_hists__next_entry(t.h, -1, NULL));
	teardown_with(&t);
}

/* a user sample of event @evsel, pid 100, at @ip */
static void add_ev(struct sampo_hists *h, int evsel, uint64_t ip, uint64_t period)
{
	struct sampo_sample s = { 0 };

	s.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_PERIOD;
	s.pid = s.tid = 100;
	s.ip = ip;
	s.period = period;
	s.cpumode = SAMPO_CPUMODE_USER;
	assert_int_equal(sampo_hists__add_sample(h, evsel, &s), 0);
}

/*
 * The group view of events 0 (leader) and 1: leader C 300, A 100, D 100
 * (total 500); member C 50, D 100, B 50 (total 200). Rows: C, then D before
 * A (equal leader periods, the member's decides), then B, which only the
 * member has (a row of 0 for the leader); each value a share of its own
 * event's total.
 */
static void test_hist__group_view(void **state)
{
	const struct sampo_evsel_group groups[2] = { { .leader = 0, .nr_members = 2 },
						     { .leader = 0, .nr_members = 1 } };
	const struct sampo_evsel_group bad[2] = { { .leader = 0, .nr_members = 3 },
						  { .leader = 0, .nr_members = 1 } };
	const struct sampo_hist_entry *e, *m;
	struct setup t = { 0 };
	const char *out;

	(void)state;
	setup_with(&t, NULL);
	add_ev(t.h, 0, C, 300);
	add_ev(t.h, 0, A, 100);
	add_ev(t.h, 0, D, 100);
	add_ev(t.h, 1, C, 50);
	add_ev(t.h, 1, D, 100);
	add_ev(t.h, 1, B, 50);
	assert_int_equal(sampo_hists__set_groups(t.h, bad, 2), -EINVAL);
	assert_int_equal(sampo_hists__set_groups(t.h, groups, 2), 0);
	out = print(&t);
	assert_non_null(strstr(out, "#         Overhead  Command  Shared Object     Symbol                \n"
				    "# ................  .......  ................  ......................\n"));
	assert_non_null(strstr(out, "    60.00%  25.00%  app      app               [.] 0x0000000000003000\n"
				    "    20.00%  50.00%  app      app               [.] 0x0000000000004000\n"
				    "    20.00%   0.00%  app      app               [.] 0x0000000000001000\n"
				    "     0.00%  25.00%  app      app               [.] 0x0000000000002000\n"));
	assert_int_equal(sampo_hists__set_groups(t.h, groups, 2), -EINVAL); /* after resort */

	e = sampo_hists__next_entry(t.h, 0, NULL);
	assert_ptr_equal(sampo_hist_entry__group_member(e, 0), e);
	m = sampo_hist_entry__group_member(e, 1);
	assert_non_null(m);
	assert_int_equal(sampo_hist_entry__period(m), 50);
	assert_null(sampo_hist_entry__group_member(e, 2));
	e = sampo_hists__next_entry(t.h, 0, e); /* D */
	e = sampo_hists__next_entry(t.h, 0, e); /* A: the member has none */
	assert_null(sampo_hist_entry__group_member(e, 1));
	e = sampo_hists__next_entry(t.h, 0, e); /* B: the leader's row of 0 */
	assert_int_equal(sampo_hist_entry__period(e), 0);
	assert_int_equal(sampo_hist_entry__period(sampo_hist_entry__group_member(e, 1)), 50);
	assert_null(sampo_hists__next_entry(t.h, 0, e));
	/* the member's own table is unchanged, and not a leader's */
	assert_int_equal(sampo_hists__nr_entries(t.h, 1), 3);
	assert_null(sampo_hist_entry__group_member(sampo_hists__next_entry(t.h, 1, NULL), 0));
	teardown_with(&t);
}

static void test_hist__iterate_filtered_and_cpu(void **state)
{
	const enum sampo_sort_key keys[] = { SAMPO_SORT_CPU, SAMPO_SORT_PID };
	const int32_t pids[] = { 100 };
	SAMPO_OPTS(sampo_hists_opts, o, .sort_keys = keys, .nr_sort_keys = 2, .pids = pids,
		   .nr_pids = 1);
	const struct sampo_hist_entry *e;
	struct setup t = { 0 };
	size_t n = 0;

	(void)state;
	setup_with(&t, &o);
	add_three_rows(&t);
	(void)print(&t);
	/* pid 200's row is left out; app's two addresses are one row per cpu and thread */
	sampo_hists__for_each_entry(t.h, 0, e) {
		assert_int_equal(sampo_hist_entry__pid(e), 100);
		assert_int_equal(sampo_hist_entry__cpu(e), 0);
		assert_int_equal(sampo_hist_entry__period(e), 700);
		assert_int_equal(sampo_hist_entry__nr_samples(e), 7);
		n++;
	}
	assert_int_equal(n, 1);
	assert_int_equal(sampo_hists__total_period(t.h, 0), 1000);
	teardown_with(&t);
}

static void test_hist__iterate_children(void **state)
{
	SAMPO_OPTS(sampo_hists_opts, o, .callchain = true, .children = true, .caller_order = true,
		   .callchain_min_percent = -1, .sort_keys = sort_sym, .nr_sort_keys = 1);
	const uint64_t c1[] = { C, B, A }, c2[] = { D, B, A };
	const struct sampo_hist_entry *e;
	/*
	 * A and B 300 each (A first: the caller), then C and D, each twice:
	 * without a symbol, a sample's own address (map-relative) and the same
	 * address in callchains (raw) are two entries, as in perf.
	 */
	const uint64_t want_ip[] = { A, B, C - 0x400000, C, D - 0x400000, D };
	const uint64_t want_period[] = { 300, 300, 200, 200, 100, 100 };
	const uint64_t want_self[] = { 0, 0, 200, 0, 100, 0 };
	struct setup t = { 0 };
	size_t n = 0;

	(void)state;
	setup_with(&t, &o);
	fixture_add(t.h, 100, C, c1, 3, 100);
	fixture_add(t.h, 100, C, c1, 3, 100);
	fixture_add(t.h, 100, D, c2, 3, 100);
	(void)print(&t);
	sampo_hists__for_each_entry(t.h, 0, e) {
		assert_true(n < 6);
		assert_int_equal(sampo_hist_entry__ip(e), want_ip[n]);
		assert_int_equal(sampo_hist_entry__period(e), want_period[n]);
		assert_int_equal(sampo_hist_entry__self_period(e), want_self[n]);
		n++;
	}
	assert_int_equal(n, 6);
	teardown_with(&t);
}

/*
 * In children mode a call-chain entry with no map takes the level of the last
 * entry before it in the chain that had one (perf fills one addr_location per
 * sample, and fill_callchain_info() sets the level only for a mapped node): a
 * kernel sample's user frame at address 0 below a mapped user frame is '.',
 * not the sample's 'k'.
 */
static void test_hist__children_unmapped_frame_level(void **state)
{
	SAMPO_OPTS(sampo_hists_opts, o, .callchain = true, .children = true,
		   .callchain_min_percent = -1, .sort_keys = sort_sym, .nr_sort_keys = 1);
	const uint64_t kip = 0xffffffff81000000ULL;
	uint64_t ips[] = { SAMPO_CONTEXT_KERNEL, kip, SAMPO_CONTEXT_USER, A, 0 };
	struct sampo_sample s = { 0 };
	const struct sampo_hist_entry *e;
	struct setup t = { 0 };
	bool seen_zero = false;

	(void)state;
	setup_with(&t, &o);
	s.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_PERIOD |
			SAMPO_SAMPLE_CALLCHAIN;
	s.pid = s.tid = 100;
	s.ip = kip;
	s.period = 100;
	s.cpumode = SAMPO_CPUMODE_KERNEL;
	s.callchain = ips;
	s.callchain_nr = sizeof(ips) / sizeof(ips[0]);
	assert_int_equal(sampo_hists__add_sample(t.h, 0, &s), 0);
	(void)print(&t);
	sampo_hists__for_each_entry(t.h, 0, e) {
		if (sampo_hist_entry__ip(e) == 0) {
			assert_int_equal(sampo_hist_entry__level(e), '.');
			seen_zero = true;
		} else if (sampo_hist_entry__ip(e) == kip) {
			assert_int_equal(sampo_hist_entry__level(e), 'k');
		}
	}
	assert_true(seen_zero);
	teardown_with(&t);
}

static void test_hist__entry_comm_is_first_samples(void **state)
{
	const enum sampo_sort_key keys[] = { SAMPO_SORT_DSO, SAMPO_SORT_SYM };
	SAMPO_OPTS(sampo_hists_opts, o, .sort_keys = keys, .nr_sort_keys = 2);
	const struct sampo_hist_entry *e;
	struct setup t = { 0 };

	(void)state;
	setup_with(&t, &o);
	fixture_add(t.h, 100, C, NULL, 0, 100);
	fixture_comm(t.m, 100, "renamed");
	fixture_add(t.h, 100, C, NULL, 0, 100);
	(void)print(&t);
	/* comm is no sort key: one row, named as its first sample's thread was */
	e = sampo_hists__next_entry(t.h, 0, NULL);
	assert_non_null(e);
	assert_int_equal(sampo_hist_entry__period(e), 200);
	assert_string_equal(sampo_hist_entry__comm(e), "app");
	assert_null(sampo_hists__next_entry(t.h, 0, e));
	teardown_with(&t);
}

/* the distinct stacks: counted once each, frames leaf first, the chain-less sample as its own frame */
static void test_hist__walk_stacks(void **state)
{
	SAMPO_OPTS(sampo_hists_opts, o, .callchain = true, .callchain_min_percent = -1);
	const uint64_t c1[] = { C, B, A }, c2[] = { D, B, A };
	struct setup t = { 0 };
	size_t nr, found = 0;

	(void)state;
	setup_with(&t, &o);
	fixture_add(t.h, 100, C, c1, 3, 100);
	fixture_add(t.h, 100, C, c1, 3, 50);
	fixture_add(t.h, 100, D, c2, 3, 100);
	fixture_add(t.h, 100, D, NULL, 0, 7);
	assert_int_equal(sampo_hists__nr_stacks(t.h), 0); /* not before resort */
	assert_int_equal(sampo_hists__resort(t.h), 0);
	nr = sampo_hists__nr_stacks(t.h);
	assert_int_equal(nr, 3);
	for (size_t i = 0; i < nr; i++) {
		size_t depth = sampo_hists__stack_depth(t.h, i);
		uint32_t leaf = sampo_hists__stack_frame(t.h, i, 0);

		assert_int_equal(sampo_hists__stack_evsel(t.h, i), 0);
		assert_string_equal(sampo_hists__stack_comm(t.h, i), "app");
		assert_false(sampo_hists__stack_filtered(t.h, i));
		assert_null(sampo_hists__frame_name(t.h, leaf)); /* no symbolizer */
		assert_string_equal(sampo_hists__frame_dso_name(t.h, leaf), "app");
		assert_int_equal(sampo_hists__frame_level(t.h, leaf), '.');
		if (depth == 3 && sampo_hists__frame_ip(t.h, leaf) == C) {
			assert_int_equal(sampo_hists__stack_nr_samples(t.h, i), 2);
			assert_int_equal(sampo_hists__stack_period(t.h, i), 150);
			assert_int_equal(sampo_hists__frame_ip(t.h, sampo_hists__stack_frame(t.h, i, 2)), A);
			found |= 1;
		} else if (depth == 3) {
			assert_int_equal(sampo_hists__frame_ip(t.h, leaf), D);
			assert_int_equal(sampo_hists__stack_period(t.h, i), 100);
			found |= 2;
		} else {
			assert_int_equal(depth, 1);
			assert_int_equal(sampo_hists__frame_ip(t.h, leaf), D);
			assert_int_equal(sampo_hists__stack_period(t.h, i), 7);
			found |= 4;
		}
	}
	assert_int_equal(found, 7);
	/* A, B, C, D: one frame per address of the one map */
	assert_int_equal(sampo_hists__nr_frames(t.h), 4);
	teardown_with(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist__overhead_and_order),
		cmocka_unit_test(test_hist__group_view),
		cmocka_unit_test(test_hist__callee_graph),
		cmocka_unit_test(test_hist__children_caller_graph),
		cmocka_unit_test(test_hist__folded_graph),
		cmocka_unit_test(test_hist__recursion_counts_once),
		cmocka_unit_test(test_hist__one_comm_filter),
		cmocka_unit_test(test_hist__remap_between_samples),
		cmocka_unit_test(test_hist__kernel_remap_between_samples),
		cmocka_unit_test(test_hist__comm_between_samples),
		cmocka_unit_test(test_hist__bad_options),
		cmocka_unit_test(test_hist__sort_keys_parse),
		cmocka_unit_test(test_hist__iterate_rows),
		cmocka_unit_test(test_hist__iterate_filtered_and_cpu),
		cmocka_unit_test(test_hist__iterate_children),
		cmocka_unit_test(test_hist__children_unmapped_frame_level),
		cmocka_unit_test(test_hist__entry_comm_is_first_samples),
		cmocka_unit_test(test_hist__walk_stacks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
