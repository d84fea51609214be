// SPDX-License-Identifier: GPL-2.0
/*
 * test-machine.c - the machine state (lib/machine.c, thread.c, map.c,
 * dso.c, guest.c) fed with records built in memory: threads and their
 * comm, maps cut by newer maps, what FORK inherits, lookups by cpumode,
 * kernel and module maps, anonymous code maps, BPF ksymbols, a table with
 * many threads, and the generation counters (which records move them).
 *
 * The expected results are perf 6.1's (checked against `perf report -D` on
 * files made of the same records, see tests/cli/t1001-dump-synthetic.sh).
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <sampo/event.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/sample.h>

#define PROT_R 1
#define PROT_X 4

/* A record and the event that hands it out, as the reader would. */
struct rec_buf {
	union {
		union sampo_record rec;
		uint8_t bytes[512];
	} u;
	struct sampo_event ev;
};

static struct sampo_event *finish(struct rec_buf *b, uint32_t type, uint16_t misc, size_t size)
{
	b->u.rec.header.type = type;
	b->u.rec.header.misc = misc;
	b->u.rec.header.size = (uint16_t)((size + 7) & ~(size_t)7);
	memset(&b->ev, 0, sizeof(b->ev));
	b->ev.record = &b->u.rec;
	b->ev.attr_idx = 0;
	b->ev.sample.cpumode = misc & SAMPO_MISC_CPUMODE_MASK;
	b->ev.sample.misc = misc;
	b->ev.sample.time = (uint64_t)-1;
	return &b->ev;
}

static void process(struct sampo_machine *m, struct sampo_event *ev)
{
	assert_int_equal(sampo_machine__process_event(m, ev), 0);
}

static void comm(struct sampo_machine *m, uint32_t pid, uint32_t tid, const char *name, bool exec)
{
	struct rec_buf b = { 0 };

	b.u.rec.comm.pid = pid;
	b.u.rec.comm.tid = tid;
	strcpy(b.u.rec.comm.comm, name);
	process(m, finish(&b, SAMPO_RECORD_COMM, exec ? SAMPO_MISC_COMM_EXEC : 0,
			  sizeof(b.u.rec.comm) + strlen(name) + 1));
}

static void task(struct sampo_machine *m, uint32_t type, uint16_t misc, uint32_t pid, uint32_t tid,
		 uint32_t ppid, uint32_t ptid)
{
	struct rec_buf b = { 0 };

	b.u.rec.fork.pid = pid;
	b.u.rec.fork.tid = tid;
	b.u.rec.fork.ppid = ppid;
	b.u.rec.fork.ptid = ptid;
	process(m, finish(&b, type, misc, sizeof(b.u.rec.fork)));
}

static void mmap2(struct sampo_machine *m, uint16_t misc, uint32_t pid, uint32_t tid,
		  uint64_t start, uint64_t len, uint64_t pgoff, uint32_t prot, const char *name)
{
	struct rec_buf b = { 0 };

	b.u.rec.mmap2.pid = pid;
	b.u.rec.mmap2.tid = tid;
	b.u.rec.mmap2.start = start;
	b.u.rec.mmap2.len = len;
	b.u.rec.mmap2.pgoff = pgoff;
	b.u.rec.mmap2.maj = 8;
	b.u.rec.mmap2.ino = 1234;
	b.u.rec.mmap2.prot = prot;
	b.u.rec.mmap2.flags = 2; /* MAP_PRIVATE */
	strcpy(b.u.rec.mmap2.filename, name);
	process(m, finish(&b, SAMPO_RECORD_MMAP2, misc, sizeof(b.u.rec.mmap2) + strlen(name) + 1));
}

static void mmap1(struct sampo_machine *m, uint16_t misc, uint32_t pid, uint64_t start,
		  uint64_t len, uint64_t pgoff, const char *name)
{
	struct rec_buf b = { 0 };

	b.u.rec.mmap.pid = pid;
	b.u.rec.mmap.tid = pid == (uint32_t)-1 ? 0 : pid;
	b.u.rec.mmap.start = start;
	b.u.rec.mmap.len = len;
	b.u.rec.mmap.pgoff = pgoff;
	strcpy(b.u.rec.mmap.filename, name);
	process(m, finish(&b, SAMPO_RECORD_MMAP, misc, sizeof(b.u.rec.mmap) + strlen(name) + 1));
}

static void ksymbol(struct sampo_machine *m, uint64_t addr, uint32_t len, bool unregister,
		    const char *name)
{
	struct rec_buf b = { 0 };

	b.u.rec.ksymbol.addr = addr;
	b.u.rec.ksymbol.len = len;
	b.u.rec.ksymbol.ksym_type = SAMPO_KSYMBOL_TYPE_BPF;
	b.u.rec.ksymbol.flags = unregister ? SAMPO_KSYMBOL_FLAG_UNREGISTER : 0;
	strcpy(b.u.rec.ksymbol.name, name);
	process(m, finish(&b, SAMPO_RECORD_KSYMBOL, 0, sizeof(b.u.rec.ksymbol) + strlen(name) + 1));
}

/*
 * The DSO name perf report prints for a sample of @pid/@tid at @ip:
 * "<not found>" and "[hypervisor]" as in perf. The returned string is
 * static or borrowed from the machine.
 */
/* resolve a sample of @cpumode at @ip in thread @pid/@tid into @al */
static void resolve_at(struct sampo_machine *m, uint8_t cpumode, uint32_t pid, uint32_t tid,
		       uint64_t ip, struct sampo_addr_location *al)
{
	struct sampo_sample s = { 0 };

	s.pid = pid;
	s.tid = tid;
	s.ip = ip;
	s.cpumode = cpumode;
	assert_int_equal(sampo_machine__resolve(m, &s, al), 0);
}

static const char *dso_at(struct sampo_machine *m, uint8_t cpumode, uint32_t pid, uint32_t tid,
			  uint64_t ip)
{
	static char name[256];
	struct sampo_addr_location al = { 0 };

	resolve_at(m, cpumode, pid, tid, ip, &al);
	if (al.map)
		snprintf(name, sizeof(name), "%s", sampo_dso__long_name(sampo_map__dso(al.map)));
	else
		snprintf(name, sizeof(name), "%s",
			 al.level == 'H' ? "[hypervisor]" : "<not found>");
	sampo_addr_location__exit(&al);
	return name;
}

static const char *comm_of(struct sampo_machine *m, int32_t pid, int32_t tid)
{
	static char name[64];
	struct sampo_thread *t = sampo_machine__findnew_thread(m, pid, tid);

	assert_non_null(t);
	snprintf(name, sizeof(name), "%s", sampo_thread__comm(t));
	sampo_thread__put(t);
	return name;
}

static int setup(void **state)
{
	*state = sampo_machine__new();
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	sampo_machine__delete(*state);
	return 0;
}

/* ---- threads -------------------------------------------------------------- */

static void test_machine__idle_thread_is_swapper(void **state)
{
	struct sampo_machine *m = *state;

	assert_int_equal(sampo_machine__nr_threads(m), 1);
	assert_string_equal(comm_of(m, 0, 0), "swapper");
}

static void test_machine__new_thread_gets_default_comm(void **state)
{
	struct sampo_machine *m = *state;
	struct sampo_thread *t;

	assert_string_equal(comm_of(m, 42, 43), ":43");
	/* the leader of 42 came into being too, with its own default comm */
	t = sampo_machine__find_thread(m, -1, 42);
	assert_non_null(t);
	assert_string_equal(sampo_thread__comm(t), ":42");
	assert_false(sampo_thread__comm_set(t));
	sampo_thread__put(t);
	/* a thread first seen without its pid learns it later */
	t = sampo_machine__findnew_thread(m, -1, 50);
	assert_int_equal(sampo_thread__pid(t), -1);
	sampo_thread__put(t);
	t = sampo_machine__findnew_thread(m, 49, 50);
	assert_int_equal(sampo_thread__pid(t), 49);
	sampo_thread__put(t);
	assert_null(sampo_machine__find_thread(m, 7, 7));
}

static void test_machine__exec_comm_renames_thread(void **state)
{
	struct sampo_machine *m = *state;
	struct sampo_thread *t;

	comm(m, 100, 100, "sh", false);
	assert_string_equal(comm_of(m, 100, 100), "sh");
	comm(m, 100, 100, "burn", true);
	t = sampo_machine__find_thread(m, 100, 100);
	assert_string_equal(sampo_thread__comm(t), "burn");
	assert_true(sampo_thread__comm_set(t));
	sampo_thread__put(t);
}

static void test_machine__fork_inherits_comm_and_maps(void **state)
{
	struct sampo_machine *m = *state;
	struct sampo_thread *t;

	comm(m, 100, 100, "parent", false);
	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x400000, 0x10000, 0, PROT_R | PROT_X, "/bin/p");

	/* a new process: the comm and a copy of the maps */
	task(m, SAMPO_RECORD_FORK, 0, 200, 200, 100, 100);
	assert_string_equal(comm_of(m, 200, 200), "parent");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 200, 200, 0x400100), "/bin/p");
	t = sampo_machine__find_thread(m, 200, 200);
	assert_int_equal(sampo_thread__ppid(t), 100);
	sampo_thread__put(t);

	/* the copy is the child's own: its exec does not change the parent */
	mmap2(m, SAMPO_CPUMODE_USER, 200, 200, 0x400000, 0x20000, 0, PROT_R | PROT_X, "/bin/c");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 200, 200, 0x400100), "/bin/c");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x400100), "/bin/p");

	/* a new thread of the process shares its maps */
	task(m, SAMPO_RECORD_FORK, 0, 100, 101, 100, 100);
	mmap2(m, SAMPO_CPUMODE_USER, 100, 101, 0x500000, 0x1000, 0, PROT_R | PROT_X, "/lib/t");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x500010), "/lib/t");

	/* synthesized FORKs (FORK_EXEC) do not copy: the task's own MMAPs follow */
	task(m, SAMPO_RECORD_FORK, SAMPO_MISC_FORK_EXEC, 300, 300, 100, 100);
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 300, 300, 0x400100), "<not found>");
	assert_string_equal(comm_of(m, 300, 300), "parent");

	/* a parent that never had a comm passes none on */
	task(m, SAMPO_RECORD_FORK, 0, 400, 400, 350, 350);
	assert_string_equal(comm_of(m, 400, 400), ":400");
}

static void test_machine__fork_replaces_stale_threads(void **state)
{
	struct sampo_machine *m = *state;

	comm(m, 100, 100, "parent", false);
	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x400000, 0x10000, 0, PROT_R | PROT_X, "/bin/p");
	task(m, SAMPO_RECORD_FORK, 0, 100, 101, 100, 100);
	comm(m, 100, 101, "worker", false);

	/* tid 101 reused as the parent of another process: the old thread goes */
	task(m, SAMPO_RECORD_FORK, 0, 600, 600, 555, 101);
	assert_string_equal(comm_of(m, 555, 101), ":101");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 101, 0x400100), "<not found>");

	/* a FORK for a tid that exists starts the thread afresh */
	comm(m, 700, 700, "old", false);
	task(m, SAMPO_RECORD_FORK, 0, 700, 700, 350, 350);
	assert_string_equal(comm_of(m, 700, 700), ":700");

	task(m, SAMPO_RECORD_EXIT, 0, 700, 700, 350, 350);
	{
		struct sampo_thread *t = sampo_machine__find_thread(m, 700, 700);

		assert_non_null(t);
		assert_true(sampo_thread__exited(t));
		sampo_thread__put(t);
	}
}

static void test_machine__many_threads(void **state)
{
	struct sampo_machine *m = *state;
	struct sampo_thread *t;
	size_t n = 0;

	for (int i = 1; i <= 5000; i++)
		comm(m, (uint32_t)i, (uint32_t)i, "t", false);
	assert_int_equal(sampo_machine__nr_threads(m), 5001);
	sampo_machine__for_each_thread(m, t)
		n++;
	assert_int_equal(n, 5001);
	for (int i = 1; i <= 5000; i += 499) {
		t = sampo_machine__find_thread(m, i, i);
		assert_non_null(t);
		assert_int_equal(sampo_thread__tid(t), i);
		sampo_thread__put(t);
	}
}

/* ---- maps ----------------------------------------------------------------- */

static void assert_map(struct sampo_thread *t, size_t idx, uint64_t start, uint64_t end,
		       uint64_t pgoff, const char *name)
{
	struct sampo_map *map = sampo_thread__map(t, idx);

	assert_non_null(map);
	assert_int_equal(sampo_map__start(map), start);
	assert_int_equal(sampo_map__end(map), end);
	assert_int_equal(sampo_map__pgoff(map), pgoff);
	assert_string_equal(sampo_dso__long_name(sampo_map__dso(map)), name);
}

static void test_maps__fixup_overlap_splits_map(void **state)
{
	struct sampo_machine *m = *state;
	struct sampo_thread *t;

	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x400000, 0x10000, 0x1000, PROT_R | PROT_X,
	      "/bin/big");
	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x404000, 0x2000, 0, PROT_R | PROT_X, "/lib/mid.so");
	t = sampo_machine__find_thread(m, 100, 100);
	assert_int_equal(sampo_thread__nr_maps(t), 3);
	assert_map(t, 0, 0x400000, 0x404000, 0x1000, "/bin/big");
	assert_map(t, 1, 0x404000, 0x406000, 0, "/lib/mid.so");
	/* the part after keeps mapping the same file bytes: pgoff moves on */
	assert_map(t, 2, 0x406000, 0x410000, 0x1000 + 0x6000, "/bin/big");
	assert_int_equal(sampo_map__map_ip(sampo_thread__map(t, 2), 0x406010), 0x7010);
	sampo_thread__put(t);

	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x403fff), "/bin/big");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x404000), "/lib/mid.so");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x406000), "/bin/big");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x410000), "<not found>");
}

static void test_maps__fixup_overlap_replaces_covered_maps(void **state)
{
	struct sampo_machine *m = *state;
	struct sampo_thread *t;

	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x1000, 0x1000, 0, PROT_R, "/a");
	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x2000, 0x1000, 0, PROT_R, "/b");
	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x3000, 0x1000, 0, PROT_R, "/c");
	/* covers the end of /a, all of /b and the start of /c */
	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x1800, 0x2000, 0, PROT_R, "/d");
	t = sampo_machine__find_thread(m, 100, 100);
	assert_int_equal(sampo_thread__nr_maps(t), 3);
	assert_map(t, 0, 0x1000, 0x1800, 0, "/a");
	assert_map(t, 1, 0x1800, 0x3800, 0, "/d");
	assert_map(t, 2, 0x3800, 0x4000, 0x800, "/c");
	sampo_thread__put(t);

	/* an identical mapping replaces the old one */
	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x1800, 0x2000, 0, PROT_R, "/e");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x2000), "/e");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * A million MMAPs in descending order (a hostile or odd file): one sorted
 * array moved every map on each insert (minutes); the chunks take seconds.
 */
static void test_maps__million_maps_in_descending_order(void **state)
{
	struct sampo_machine *m = *state;
	const uint32_t n = 1000000;
	struct sampo_thread *t;
	uint64_t prev = 0;
	double t0 = now_s(), secs;

	for (uint32_t i = n; i > 0; i--)
		mmap2(m, SAMPO_CPUMODE_USER, 100, 100, (uint64_t)i * 0x2000, 0x1000, i,
		      PROT_R | PROT_X, "/bin/lib");
	secs = now_s() - t0;
	print_message("%u maps in descending order: %.2f s\n", n, secs);
	assert_true(secs < 30);

	t = sampo_machine__find_thread(m, 100, 100);
	assert_non_null(t);
	assert_int_equal(sampo_thread__nr_maps(t), n);
	for (size_t i = 0; i < n; i++) {
		struct sampo_map *map = sampo_thread__map(t, i);

		assert_true(sampo_map__start(map) > prev);
		prev = sampo_map__start(map);
	}
	assert_null(sampo_thread__map(t, n));
	sampo_thread__put(t);
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x2010), "/bin/lib");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x3010), "<not found>");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, (uint64_t)n * 0x2000 + 0xfff),
			    "/bin/lib");
}

#define MODEL_PAGES 4096
#define PAGE	    0x1000

/*
 * Random overlapping MMAPs, enough for the maps to span many chunks: after
 * each round, every page resolves to the newest MMAP that covered it, at
 * the file offset that MMAP gave it, and the maps stay sorted and apart.
 */
static void test_maps__random_overlaps_match_a_page_model(void **state)
{
	struct sampo_machine *m = *state;
	static int32_t owner[MODEL_PAGES]; /* index of the MMAP that covers the page, -1: none */
	static uint64_t first_page[20000];
	char name[32];
	uint64_t seed = 42;

	for (size_t p = 0; p < MODEL_PAGES; p++)
		owner[p] = -1;
	for (int32_t k = 0; k < 20000; k++) {
		uint64_t start, len;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		start = (seed >> 33) % MODEL_PAGES;
		len = 1 + (seed >> 17) % (k % 7 == 0 ? 64 : 4);
		if (start + len > MODEL_PAGES)
			len = MODEL_PAGES - start;
		snprintf(name, sizeof(name), "/lib/m%d", k % 50);
		first_page[k] = start;
		/* pgoff in pages from the map's first page: k * 0x100000 + (page - start) */
		mmap2(m, SAMPO_CPUMODE_USER, 7, 7, start * PAGE, len * PAGE, (uint64_t)k << 20,
		      PROT_R | PROT_X, name);
		for (uint64_t p = start; p < start + len; p++)
			owner[p] = k;
		if (k % 2500 != 2499)
			continue;
		for (size_t p = 0; p < MODEL_PAGES; p++) {
			struct sampo_addr_location al = { 0 };

			resolve_at(m, SAMPO_CPUMODE_USER, 7, 7, p * PAGE + 8, &al);
			if (owner[p] < 0) {
				assert_null(al.map);
			} else {
				assert_non_null(al.map);
				snprintf(name, sizeof(name), "/lib/m%d", owner[p] % 50);
				assert_string_equal(sampo_dso__long_name(sampo_map__dso(al.map)),
						    name);
				assert_int_equal(al.addr,
						 ((uint64_t)owner[p] << 20) +
							 (p - first_page[owner[p]]) * PAGE + 8);
			}
			sampo_addr_location__exit(&al);
		}
	}
	{
		struct sampo_thread *t = sampo_machine__find_thread(m, 7, 7);
		size_t nr = sampo_thread__nr_maps(t);

		assert_true(nr > 2 * 256);
		for (size_t i = 1; i < nr; i++)
			assert_true(sampo_map__end(sampo_thread__map(t, i - 1)) <=
				    sampo_map__start(sampo_thread__map(t, i)));
		sampo_thread__put(t);
	}
}

static void test_maps__anonymous_code_is_a_perf_map(void **state)
{
	struct sampo_machine *m = *state;

	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x7f0000, 0x1000, 0, PROT_R | PROT_X, "//anon");
	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x7f1000, 0x1000, 0, PROT_R, "//anon");
	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x7f2000, 0x1000, 0, PROT_R | PROT_X, "[heap]");
	mmap2(m, SAMPO_CPUMODE_USER, 0, 0, 0x900000, 0x1000, 0, PROT_R | PROT_X, "//anon");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x7f0010), "/tmp/perf-100.map");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x7f1010), "//anon");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x7f2010), "/tmp/perf-100.map");
	{
		/* perf's short name of a perf map, as its Shared Object column shows it */
		struct sampo_addr_location al = { 0 };
		struct sampo_sample s = { .pid = 100, .tid = 100, .ip = 0x7f0010,
					  .cpumode = SAMPO_CPUMODE_USER };

		assert_int_equal(sampo_machine__resolve(m, &s, &al), 0);
		assert_non_null(al.map);
		assert_string_equal(sampo_dso__short_name(sampo_map__dso(al.map)), "[JIT] tid 100");
		sampo_addr_location__exit(&al);
	}
	/* the idle task has no namespace info in perf: no renaming */
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 0, 0, 0x900010), "//anon");
}

/* ---- lookups by cpumode, kernel maps -------------------------------------- */

static void test_machine__lookup_by_cpumode(void **state)
{
	struct sampo_machine *m = *state;
	const char *ref_name;
	uint64_t ref_addr;

	assert_null(sampo_machine__kernel_map(m));
	assert_false(sampo_machine__kernel_ref_reloc(m, &ref_name, &ref_addr));
	mmap1(m, SAMPO_CPUMODE_KERNEL, (uint32_t)-1, 0xffffffff81000000, 0x1000000,
	      0xffffffff81000000, "[kernel.kallsyms]_text");
	mmap1(m, SAMPO_CPUMODE_KERNEL, (uint32_t)-1, 0xffffffffc0000000, 0x4000, 0,
	      "/lib/modules/6.1/kernel/fs/foo-bar.ko");
	mmap1(m, SAMPO_CPUMODE_KERNEL, (uint32_t)-1, 0xffffffffc0010000, 0x4000, 0, "[baz]");
	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x400000, 0x1000, 0, PROT_R | PROT_X, "/bin/u");

	assert_non_null(sampo_machine__kernel_map(m));
	assert_true(sampo_machine__kernel_ref_reloc(m, &ref_name, &ref_addr));
	assert_string_equal(ref_name, "_text");
	assert_int_equal(ref_addr, 0xffffffff81000000);

	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 100, 100, 0xffffffff81000010),
			    "[kernel.kallsyms]");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 100, 100, 0xffffffffc0000010),
			    "/lib/modules/6.1/kernel/fs/foo-bar.ko");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 100, 100, 0xffffffffc0010010), "[baz]");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 100, 100, 0xffffffffc0030000),
			    "<not found>");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x400010), "/bin/u");
	/* perf 6.1 looks user-mode addresses up in the process only */
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0xffffffff81000010),
			    "<not found>");
	/* user addresses are not kernel addresses either */
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 100, 100, 0x400010), "<not found>");
	/* without --guest, guest and hypervisor samples resolve to nothing */
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_HYPERVISOR, 100, 100, 0x400010),
			    "[hypervisor]");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_GUEST_USER, 100, 100, 0x400010),
			    "[hypervisor]");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_UNKNOWN, 100, 100, 0x400010), "[hypervisor]");

	/* a new kernel MMAP replaces the kernel map */
	mmap1(m, SAMPO_CPUMODE_KERNEL, (uint32_t)-1, 0xffffffff82000000, 0x1000000,
	      0xffffffff82000000, "[kernel.kallsyms]_stext");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 100, 100, 0xffffffff81000010),
			    "<not found>");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 100, 100, 0xffffffff82000010),
			    "[kernel.kallsyms]");
	assert_true(sampo_machine__kernel_ref_reloc(m, &ref_name, &ref_addr));
	assert_string_equal(ref_name, "_stext");
}

static void test_machine__ksymbol_maps_bpf_programs(void **state)
{
	struct sampo_machine *m = *state;

	ksymbol(m, 0xffffffffa0000000, 0x100, false, "bpf_trampoline_6442");
	ksymbol(m, 0xffffffffa0001000, 0x100, false, "bpf_prog_abc_f");
	/* perf gives trampolines and dispatchers an empty long name */
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 1, 1, 0xffffffffa0000010), "");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 1, 1, 0xffffffffa0001010),
			    "bpf_prog_abc_f");
	ksymbol(m, 0xffffffffa0001000, 0x100, true, "bpf_prog_abc_f");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 1, 1, 0xffffffffa0001010),
			    "<not found>");
}

/* BPF programs loaded and unloaded by the hundred thousand: each KSYMBOL costs a lookup, no scan */
static void test_machine__many_ksymbols_come_and_go(void **state)
{
	struct sampo_machine *m = *state;
	const uint64_t base = 0xffffffffa0000000, n = 300000;
	double t0 = now_s(), secs;

	for (uint64_t i = 0; i < n; i++)
		ksymbol(m, base + i * 0x100, 0x100, false, "bpf_prog_x");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 1, 1, base + (n - 1) * 0x100 + 8),
			    "bpf_prog_x");
	for (uint64_t i = n; i > 0; i--)
		ksymbol(m, base + (i - 1) * 0x100, 0x100, true, "bpf_prog_x");
	secs = now_s() - t0;
	print_message("%" PRIu64 " BPF programs loaded and unloaded: %.2f s\n", n, secs);
	assert_true(secs < 30);
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 1, 1, base + 8), "<not found>");
	assert_string_equal(dso_at(m, SAMPO_CPUMODE_KERNEL, 1, 1, base + (n - 1) * 0x100 + 8),
			    "<not found>");
}

static void test_machine__references_outlive_lookups(void **state)
{
	struct sampo_machine *m = *state;
	struct sampo_addr_location al = { 0 };
	struct sampo_thread *t;
	struct sampo_map *map;

	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x400000, 0x1000, 0, PROT_R | PROT_X, "/bin/a");
	t = sampo_machine__findnew_thread(m, 100, 100);
	map = sampo_machine__find_map(m, t, SAMPO_CPUMODE_USER, 0x400010, &al);
	assert_non_null(map);
	assert_int_equal(al.addr, 0x10);
	map = sampo_map__get(map);
	/* the map is cut away; our reference keeps it (and its DSO) alive */
	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x400000, 0x1000, 0, PROT_R | PROT_X, "/bin/b");
	sampo_addr_location__exit(&al);
	assert_string_equal(sampo_dso__long_name(sampo_map__dso(map)), "/bin/a");
	sampo_map__put(map);
	sampo_thread__put(t);
	/* exit on a cleared location is fine */
	sampo_addr_location__exit(&al);
}

/* an executable map of @name at 0x400000 in process @pid, of file identity (8:0, @ino, @gen) */
static void mmap2_file(struct sampo_machine *m, uint32_t pid, const char *name, uint64_t ino,
		       uint64_t gen)
{
	struct rec_buf b = { 0 };

	b.u.rec.mmap2.pid = pid;
	b.u.rec.mmap2.tid = pid;
	b.u.rec.mmap2.start = 0x400000;
	b.u.rec.mmap2.len = 0x1000;
	b.u.rec.mmap2.maj = 8;
	b.u.rec.mmap2.ino = ino;
	b.u.rec.mmap2.ino_generation = gen;
	b.u.rec.mmap2.prot = PROT_R | PROT_X;
	b.u.rec.mmap2.flags = 2; /* MAP_PRIVATE */
	strcpy(b.u.rec.mmap2.filename, name);
	process(m, finish(&b, SAMPO_RECORD_MMAP2, SAMPO_CPUMODE_USER,
			  sizeof(b.u.rec.mmap2) + strlen(name) + 1));
}

/* the DSO behind process @pid's map at 0x400000 (borrowed from the machine) */
static const struct sampo_dso *dso_of(struct sampo_machine *m, uint32_t pid)
{
	struct sampo_addr_location al = { 0 };
	struct sampo_thread *t = sampo_machine__findnew_thread(m, (int32_t)pid, (int32_t)pid);
	const struct sampo_map *map;
	const struct sampo_dso *dso;

	assert_non_null(t);
	map = sampo_machine__find_map(m, t, SAMPO_CPUMODE_USER, 0x400010, &al);
	assert_non_null(map);
	dso = sampo_map__dso(map);
	sampo_addr_location__exit(&al);
	sampo_thread__put(t);
	return dso;
}

/*
 * perf synthesizes the MMAP2s of processes already running from
 * /proc/PID/maps, with generation 0; the kernel's MMAP2s of processes started
 * later carry the real one. perf's __dso_id__cmp() lets 0 match any
 * generation: in a system-wide recording the program that was running and
 * the same program started again are one DSO (one symbol table, one entry in
 * the call graphs' matching), whichever came first. Another inode, or
 * another non-zero generation of a file first seen with one, is another DSO.
 */
static void test_machine__synthesized_generation_zero_matches_any(void **state)
{
	struct sampo_machine *m = *state;

	mmap2_file(m, 100, "/usr/bin/prog", 77, 0);	 /* running when recording began */
	mmap2_file(m, 101, "/usr/bin/prog", 77, 5151); /* started later */
	mmap2_file(m, 102, "/usr/bin/prog", 77, 0);	 /* and another already running */
	assert_ptr_equal(dso_of(m, 101), dso_of(m, 100));
	assert_ptr_equal(dso_of(m, 102), dso_of(m, 100));
	mmap2_file(m, 103, "/usr/bin/prog", 78, 5151); /* another file at that path */
	assert_ptr_not_equal(dso_of(m, 103), dso_of(m, 100));

	/* the kernel's record first, then a synthesized one: the same */
	mmap2_file(m, 200, "/usr/bin/tool", 90, 4242);
	mmap2_file(m, 201, "/usr/bin/tool", 90, 0);
	assert_ptr_equal(dso_of(m, 201), dso_of(m, 200));
	/* two real generations of one inode are two versions of the file */
	mmap2_file(m, 202, "/usr/bin/tool", 90, 4343);
	assert_ptr_not_equal(dso_of(m, 202), dso_of(m, 200));
	mmap2_file(m, 203, "/usr/bin/tool", 90, 4242);
	assert_ptr_equal(dso_of(m, 203), dso_of(m, 200));
}

/* ---- guests ------------------------------------------------------------- */

/* the level and DSO a sample gets, as "g [guest.kernel.kallsyms]" */
static const char *level_dso_at(struct sampo_machine *m, uint8_t cpumode, uint32_t pid,
				uint32_t tid, uint64_t ip, const char **comm)
{
	static char out[300], comm_buf[64];
	struct sampo_addr_location al = { 0 };

	resolve_at(m, cpumode, pid, tid, ip, &al);
	snprintf(out, sizeof(out), "%c %s", al.level,
		 al.map ? sampo_dso__long_name(sampo_map__dso(al.map)) : "-");
	snprintf(comm_buf, sizeof(comm_buf), "%s", sampo_thread__comm(al.thread));
	if (comm)
		*comm = comm_buf;
	sampo_addr_location__exit(&al);
	return out;
}

/*
 * perf kvm --guest: the default guest's maps are synthesized with pid 0,
 * another guest's with its qemu pid; samples carry qemu's pid and go to that
 * pid's machine, else the default guest. Each guest has its own threads.
 */
static void test_machine__guests_are_machines_of_their_own(void **state)
{
	struct sampo_machine *m = *state, *g0, *g77;
	const char *gcomm = NULL;
	size_t nr = 0;

	sampo_machine__enable_guests(m);
	mmap1(m, SAMPO_CPUMODE_KERNEL, (uint32_t)-1, 0xffffffff81000000, 0x1000000,
	      0xffffffff81000000, "[kernel.kallsyms]_text");
	mmap1(m, SAMPO_CPUMODE_GUEST_KERNEL, 0, 0xffffffff9a000000, 0x1000000, 0xffffffff9a200000,
	      "[guest.kernel.kallsyms]_text");
	mmap1(m, SAMPO_CPUMODE_GUEST_KERNEL, 0, 0xffffffffc0100000, 0x4000, 0, "[gmod]");
	mmap1(m, SAMPO_CPUMODE_GUEST_KERNEL, 77, 0xffffffff81000000, 0x1000000, 0xffffffff81000000,
	      "[guest.kernel.kallsyms.77]_text");

	/* the host's kernel map is the host's alone */
	assert_string_equal(level_dso_at(m, SAMPO_CPUMODE_KERNEL, 100, 100, 0xffffffff81000010, NULL),
			    "k [kernel.kallsyms]");
	assert_string_equal(level_dso_at(m, SAMPO_CPUMODE_KERNEL, 100, 100, 0xffffffff9a000010, NULL),
			    "k -");
	assert_string_equal(level_dso_at(m, SAMPO_CPUMODE_KERNEL, 100, 100, 0xffffffffc0100010, NULL),
			    "k -");

	/* qemu's thread 4243 runs the default guest: its kernel, modules, and threads */
	assert_string_equal(level_dso_at(m, SAMPO_CPUMODE_GUEST_KERNEL, 4242, 4243,
					 0xffffffff9a000010, &gcomm),
			    "g [guest.kernel.kallsyms]");
	assert_string_equal(gcomm, ":4243");
	assert_string_equal(level_dso_at(m, SAMPO_CPUMODE_GUEST_KERNEL, 4242, 4243,
					 0xffffffffc0100010, NULL),
			    "g [gmod]");
	assert_string_equal(level_dso_at(m, SAMPO_CPUMODE_GUEST_KERNEL, 4242, 4243,
					 0xffffffff81000010, NULL),
			    "g -");
	assert_string_equal(level_dso_at(m, SAMPO_CPUMODE_GUEST_USER, 4242, 4243, 0x400100, NULL),
			    "u -");
	/* guest 77 has its kernel at the host's addresses: still its own */
	assert_string_equal(level_dso_at(m, SAMPO_CPUMODE_GUEST_KERNEL, 77, 78, 0xffffffff81000010,
					 NULL),
			    "g [guest.kernel.kallsyms.77]");
	assert_string_equal(level_dso_at(m, SAMPO_CPUMODE_GUEST_KERNEL, 77, 78, 0xffffffff9a000010,
					 NULL),
			    "g -");

	/* a guest MMAP with the host's pid (-1) is the default guest's, never the host's */
	mmap1(m, SAMPO_CPUMODE_GUEST_KERNEL, (uint32_t)-1, 0xffffffffc0200000, 0x4000, 0,
	      "[gmod2]");
	assert_string_equal(
		level_dso_at(m, SAMPO_CPUMODE_GUEST_KERNEL, 4242, 4243, 0xffffffffc0200010, NULL),
		"g [gmod2]");
	assert_string_equal(
		level_dso_at(m, SAMPO_CPUMODE_KERNEL, 100, 100, 0xffffffffc0200010, NULL), "k -");
	assert_null(sampo_machine__find_guest(m, -1));

	/* the host's thread 4243 (qemu's vCPU) is not the guest's */
	comm(m, 4242, 4243, "qemu-system-x86", true);
	assert_string_equal(comm_of(m, 4242, 4243), "qemu-system-x86");
	(void)level_dso_at(m, SAMPO_CPUMODE_GUEST_KERNEL, 4242, 4243, 0xffffffff9a000010, &gcomm);
	assert_string_equal(gcomm, ":4243");

	g0 = sampo_machine__find_guest(m, 0);
	g77 = sampo_machine__find_guest(m, 77);
	assert_non_null(g0);
	assert_non_null(g77);
	assert_null(sampo_machine__find_guest(m, 4242));
	assert_ptr_equal(sampo_machine__for_cpumode(m, SAMPO_CPUMODE_GUEST_KERNEL, 4242), g0);
	assert_ptr_equal(sampo_machine__for_cpumode(m, SAMPO_CPUMODE_GUEST_USER, 77), g77);
	assert_ptr_equal(sampo_machine__for_cpumode(m, SAMPO_CPUMODE_KERNEL, 77), m);
	assert_true(sampo_machine__is_guest(g77));
	assert_false(sampo_machine__is_guest(m));
	assert_string_equal(sampo_machine__mmap_name(g0), "[guest.kernel.kallsyms]");
	assert_string_equal(sampo_machine__mmap_name(g77), "[guest.kernel.kallsyms.77]");
	assert_int_equal(sampo_dso__machine_pid(sampo_map__dso(sampo_machine__kernel_map(g77))), 77);
	assert_int_equal(sampo_dso__machine_pid(sampo_map__dso(sampo_machine__kernel_map(m))), -1);
	/* each guest's relocation is its own */
	{
		const char *name;
		uint64_t addr;

		assert_true(sampo_machine__kernel_ref_reloc(g0, &name, &addr));
		assert_int_equal(addr, 0xffffffff9a200000);
		assert_true(sampo_machine__kernel_ref_reloc(m, &name, &addr));
		assert_int_equal(addr, 0xffffffff81000000);
	}
	/* a guest starts with one thread, named as perf names it */
	{
		struct sampo_thread *t = sampo_machine__find_thread(g77, -1, 77);

		assert_non_null(t);
		assert_string_equal(sampo_thread__comm(t), "[guest/77]");
		sampo_thread__put(t);
	}
	for (struct sampo_machine *g = sampo_machine__next_guest(m, NULL); g;
	     g = sampo_machine__next_guest(m, g))
		nr++;
	assert_int_equal(nr, 2);
}

/* a file naming a new guest in every record costs a bounded number of machines */
static void test_machine__guests_are_bounded(void **state)
{
	struct sampo_machine *m = *state;
	size_t nr = 0;

	sampo_machine__enable_guests(m);
	for (uint32_t pid = 1; pid <= 3000; pid++)
		mmap1(m, SAMPO_CPUMODE_GUEST_KERNEL, pid, 0xffffffff81000000, 0x1000, 0, "[gmod]");
	for (struct sampo_machine *g = sampo_machine__next_guest(m, NULL); g;
	     g = sampo_machine__next_guest(m, g))
		nr++;
	assert_true(nr >= 64 && nr <= 1024);
	assert_null(sampo_machine__find_guest(m, 3000));
	/* samples of the others still have a machine: the default guest */
	assert_string_equal(
		level_dso_at(m, SAMPO_CPUMODE_GUEST_KERNEL, 3000, 3000, 0xffffffff81000010, NULL),
		"g -");
	assert_non_null(sampo_machine__find_guest(m, 0));
}

/* without --guest, guest MMAPs land in the host's kernel maps and guest samples resolve to nothing */
static void test_machine__guests_off_by_default(void **state)
{
	struct sampo_machine *m = *state;

	mmap1(m, SAMPO_CPUMODE_GUEST_KERNEL, 0, 0xffffffff9a000000, 0x1000000, 0xffffffff9a000000,
	      "[guest.kernel.kallsyms]_text");
	assert_null(sampo_machine__next_guest(m, NULL));
	assert_string_equal(level_dso_at(m, SAMPO_CPUMODE_GUEST_KERNEL, 4242, 4243,
					 0xffffffff9a000010, NULL),
			    "H -");
	assert_ptr_equal(sampo_machine__for_cpumode(m, SAMPO_CPUMODE_GUEST_KERNEL, 4242), m);
}

/* ---- generation counters -------------------------------------------------- */

static uint32_t gen_of(struct sampo_machine *m, int32_t pid)
{
	return sampo_machine__process_generation(m, pid);
}

/* a process's generation moves on exactly the records that change it, and no other's does */
static void test_machine__process_generation_moves_on_its_records(void **state)
{
	struct sampo_machine *m = *state;
	struct rec_buf b = { 0 };
	struct sampo_thread *t;

	assert_int_equal(sampo_machine__kernel_generation(m), 1);
	assert_int_equal(gen_of(m, 100), 0);
	comm(m, 100, 100, "app", true);
	assert_int_equal(gen_of(m, 100), 1);
	mmap2(m, SAMPO_CPUMODE_USER, 100, 100, 0x400000, 0x1000, 0, PROT_R | PROT_X, "/bin/app");
	assert_int_equal(gen_of(m, 100), 2);
	mmap1(m, SAMPO_CPUMODE_USER, 100, 0x500000, 0x1000, 0, "/bin/lib");
	assert_int_equal(gen_of(m, 100), 3);
	/* FORK and EXIT: the child's and the parent's */
	task(m, SAMPO_RECORD_FORK, 0, 200, 200, 100, 100);
	assert_int_equal(gen_of(m, 200), 1);
	assert_int_equal(gen_of(m, 100), 4);
	task(m, SAMPO_RECORD_EXIT, 0, 200, 200, 100, 100);
	assert_int_equal(gen_of(m, 200), 2);
	assert_int_equal(gen_of(m, 100), 5);
	/* a thread of process 100: the process's generation */
	comm(m, 100, 101, "worker", false);
	assert_int_equal(gen_of(m, 100), 6);
	assert_int_equal(gen_of(m, 101), 0);

	/* records that change no state, and lookups, move nothing */
	b.u.rec.lost.id = 1;
	b.u.rec.lost.lost = 5;
	process(m, finish(&b, SAMPO_RECORD_LOST, 0, sizeof(b.u.rec.lost)));
	t = sampo_machine__findnew_thread(m, 300, 300);
	assert_non_null(t);
	sampo_thread__put(t);
	(void)dso_at(m, SAMPO_CPUMODE_USER, 100, 100, 0x400010);
	assert_int_equal(gen_of(m, 100), 6);
	assert_int_equal(gen_of(m, 200), 2);
	assert_int_equal(gen_of(m, 300), 0);
	assert_int_equal(sampo_machine__kernel_generation(m), 1);
}

/* the kernel's generation moves on kernel, guest and BPF maps, and those move no process's */
static void test_machine__kernel_generation_moves_on_kernel_records(void **state)
{
	struct sampo_machine *m = *state;

	mmap1(m, SAMPO_CPUMODE_KERNEL, (uint32_t)-1, 0xffffffff81000000, 0x1000000,
	      0xffffffff81000000, "[kernel.kallsyms]_text");
	assert_int_equal(sampo_machine__kernel_generation(m), 2);
	mmap2(m, SAMPO_CPUMODE_KERNEL, (uint32_t)-1, 0, 0xffffffffc0000000, 0x1000, 0, PROT_R,
	      "[mod]");
	assert_int_equal(sampo_machine__kernel_generation(m), 3);
	/* a guest's maps, user ones too, whatever their pid */
	mmap1(m, SAMPO_CPUMODE_GUEST_KERNEL, 4242, 0xffffffff9a000000, 0x1000000,
	      0xffffffff9a000000, "[guest.kernel.kallsyms]_text");
	assert_int_equal(sampo_machine__kernel_generation(m), 4);
	mmap2(m, SAMPO_CPUMODE_GUEST_USER, 4242, 4243, 0x400000, 0x1000, 0, PROT_R | PROT_X,
	      "/bin/guestapp");
	assert_int_equal(sampo_machine__kernel_generation(m), 5);
	ksymbol(m, 0xffffffffa0001000, 0x100, false, "bpf_prog_abc_f");
	assert_int_equal(sampo_machine__kernel_generation(m), 6);
	ksymbol(m, 0xffffffffa0001000, 0x100, true, "bpf_prog_abc_f");
	assert_int_equal(sampo_machine__kernel_generation(m), 7);
	assert_int_equal(gen_of(m, -1), 0);
	assert_int_equal(gen_of(m, 0), 0);
	assert_int_equal(gen_of(m, 4242), 0);

	/* the same with guests on: the host counts its guests' records */
	sampo_machine__enable_guests(m);
	mmap2(m, SAMPO_CPUMODE_GUEST_USER, 4242, 4243, 0x400000, 0x1000, 0, PROT_R | PROT_X,
	      "/bin/guestapp");
	assert_int_equal(sampo_machine__kernel_generation(m), 8);
	assert_int_equal(gen_of(m, 4242), 0);
}

/* many processes: each keeps its own count as the table grows */
static void test_machine__process_generations_of_many_processes(void **state)
{
	struct sampo_machine *m = *state;

	for (uint32_t pid = 1; pid <= 5000; pid++)
		comm(m, pid, pid, "p", false);
	for (uint32_t pid = 1; pid <= 5000; pid += 2)
		comm(m, pid, pid, "q", false);
	for (int32_t pid = 1; pid <= 5000; pid++)
		assert_int_equal(gen_of(m, pid), pid % 2 ? 2 : 1);
	assert_int_equal(gen_of(m, 5001), 0);
	assert_int_equal(gen_of(m, 0), 0);
	assert_int_equal(sampo_machine__kernel_generation(m), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_machine__idle_thread_is_swapper, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_machine__new_thread_gets_default_comm, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_machine__exec_comm_renames_thread, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_machine__fork_inherits_comm_and_maps, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_machine__fork_replaces_stale_threads, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_machine__many_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_maps__fixup_overlap_splits_map, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_maps__fixup_overlap_replaces_covered_maps,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_maps__million_maps_in_descending_order, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_maps__random_overlaps_match_a_page_model,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_maps__anonymous_code_is_a_perf_map, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_machine__lookup_by_cpumode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_machine__guests_are_machines_of_their_own,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_machine__guests_off_by_default, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_machine__guests_are_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_machine__ksymbol_maps_bpf_programs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_machine__references_outlive_lookups, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_machine__synthesized_generation_zero_matches_any,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_machine__many_ksymbols_come_and_go, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_machine__process_generation_moves_on_its_records, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_machine__kernel_generation_moves_on_kernel_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_machine__process_generations_of_many_processes,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
