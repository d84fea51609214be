// SPDX-License-Identifier: GPL-2.0
/*
 * mkperfdata - write a synthetic perf.data with libsampo's writer.
 *
 *	mkperfdata [--big-endian | --little-endian] [--pipe] [--samples N]
 *		   [--no-features] [--rename NAME] [--stats] -o FILE
 *
 * The file looks like a `perf record -e cpu-clock,task-clock -g ./burn`
 * recording (perf 6.1 layout and record order): two attrs with two ids
 * each, ID_INDEX, the kernel MMAP, EVENT_UPDATE, THREAD_MAP, CPU_MAP, COMM,
 * FINISHED_INIT, exec COMM, MMAP2 (inode and build-id forms), FORK, samples
 * with user callchains, FINISHED_ROUND, EXIT, and the features hostname,
 * osrelease, version, arch, nrcpus, cmdline, event_desc, total_mem,
 * sample_time and a build-id table. tests/cli/t1300-writer-perf-reads.sh
 * checks that perf 6.1 reads it back, in every byte order and in pipe mode.
 *
 * Everything is deterministic (no clock, no pid): files written in the two
 * byte orders carry the same values. "-o -" writes to standard output.
 * With --stats, prints the number of records of each type written, in the
 * shape of perf's "Aggregated stats" (for the test's expected counts).
 * --no-features leaves out the features (not the build-ids): perf 6.1 cannot
 * read HEADER_FEATURE records of an opposite-endian stream (it does not swap
 * their feature id), so a big-endian pipe stream for perf must do without.
 * --rename NAME adds an EVENT_UPDATE of type NAME for the first event after
 * the unit updates (perf's evsel->name then becomes NAME, whatever EVENT_DESC
 * says).
 * --alpha N (0..4) puts N of every 4 samples of each event in burn_leaf_alpha
 * and the others in burn_leaf_beta (default 1: the addresses cycle through 0x1169,
 * 0x1179, 0x1189, 0x1199, of which only the first is alpha's), so two files
 * differ by a known share (the differential flame graph's test).
 * --group makes the two events one group, `perf record -e
 * '{cpu-clock,task-clock}:S'`: GROUP_DESC, both attrs with PERF_SAMPLE_READ
 * and read_format ID|GROUP, and only the leader samples, each reading both
 * counters. The counters rise by known steps: the leader's not at all on
 * every 7th sample (at an address of its own, 0x11a9, so that only
 * task-clock has samples there), task-clock's not at all on every 4th.
 * --mem makes cpu-clock a raw event (PERF_TYPE_RAW, perf mem's load
 * latency event) and adds ADDR, DATA_SRC, WEIGHT_STRUCT and PHYS_ADDR to
 * both events' samples, with data_src words that walk every field's values.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/writer.h>

#define NR_ATTRS 2
#define PID 4242
#define CHILD 4243
#define THREAD 4244 /* a second thread of PID: pid != tid catches crossed u32 pairs */
#define T0 1000000000ULL /* first timestamp, ns */

static const uint64_t attr_ids[NR_ATTRS][2] = { { 101, 102 }, { 201, 202 } };

static const uint8_t kernel_bid[20] = {
	0x4a, 0x5a, 0x9b, 0x0a, 0xff, 0xb6, 0x6c, 0x43, 0x7a, 0xbc,
	0xd4, 0x55, 0xd2, 0x73, 0x8a, 0xf8, 0x79, 0x98, 0x5f, 0xa9,
};
static const uint8_t burn_bid[20] = {
	0x69, 0x0c, 0xfd, 0x66, 0x6a, 0x0f, 0xa1, 0xf2, 0xe4, 0xb6,
	0x7d, 0xda, 0xd8, 0x6e, 0xa1, 0xa7, 0x54, 0x05, 0xb6, 0x1c,
};
static const uint8_t libc_bid[20] = {
	0x93, 0xac, 0x61, 0xec, 0x5a, 0x8e, 0xb1, 0x39, 0x6f, 0x9f,
	0xbd, 0x35, 0x0f, 0x31, 0x69, 0xa5, 0x58, 0x52, 0x8a, 0x40,
};
static const uint8_t md5_bid[16] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
};

#define BURN_START 0x5576e0270000ULL
#define LIBC_START 0x7f3a1c600000ULL

struct gen {
	struct sampo_writer *w;
	bool pipe;
	bool features;
	const char *rename; /* EVENT_UPDATE NAME for the first event, or NULL */
	unsigned long nr_samples;
	int alpha; /* samples in burn_leaf_alpha out of every 4; -1: the address cycle */
	bool group; /* --group: one group, the leader's samples read both counters */
	const char *kernel_name; /* --kernel-name: the kernel's name in the build-id table */
	bool mem; /* --mem: a raw memory event with data_src, weight, addresses */
	bool raw; /* --raw: PERF_SAMPLE_RAW, 12 bytes a sample (the sample's number, "raw:sampo") */
	bool big_endian;
	unsigned long counts[SAMPO_RECORD_MAX];
};

static void die(int err, const char *what)
{
	fprintf(stderr, "mkperfdata: %s: %s\n", what, strerror(-err));
	exit(1);
}

static void check(struct gen *g, int err, uint32_t type, const char *what)
{
	if (err < 0)
		die(err, what);
	g->counts[type]++;
}

#define MEM_SAMPLE_TYPE                                                                        \
	(SAMPO_SAMPLE_ADDR | SAMPO_SAMPLE_DATA_SRC | SAMPO_SAMPLE_WEIGHT_STRUCT |               \
	 SAMPO_SAMPLE_PHYS_ADDR)

/*
 * --mem: the data_src word of sample @i (union perf_mem_data_src: op:5,
 * lvl:14, snoop:5, lock:2, dtlb:7, lvl_num:4, remote:1, snoopx:2, blk:3,
 * hops:3), each field cycling through its values at its own pace
 */
static uint64_t mem_data_src(unsigned long i)
{
	static const uint64_t lvls[] = { 0x0, 0x1, 0x2 | 0x8, 0x4 | 0x10, 0x2 | 0x20 | 0x40,
					 0x2 | 0x80, 0x4 | 0x100 | 0x200, 0x2 | 0x400, 0x800,
					 0x2 | 0x1000, 0x4 | 0x2000, 0x2 | 0x10 };
	uint64_t op = i % 6 ? 1ULL << (i % 6 - 1) : 0;
	uint64_t snoop = (i * 7) % 32, lock = i % 4, dtlb = (i * 13) % 128;
	uint64_t lvl_num = (i * 5) % 16, remote = i % 7 == 3, snoopx = i % 3, blk = (i * 3) % 8;
	uint64_t hops = i % 11 < 5 ? i % 11 : 0;

	return op | lvls[i % (sizeof(lvls) / sizeof(lvls[0]))] << 5 | snoop << 19 | lock << 24 |
	       dtlb << 26 | lvl_num << 33 | remote << 37 | snoopx << 38 | blk << 40 | hops << 43;
}

static void add_attrs(struct gen *g)
{
	static const struct sampo_event_attr base = {
		.type = SAMPO_TYPE_SOFTWARE,
		.size = SAMPO_ATTR_SIZE_VER7,
		.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME |
			       SAMPO_SAMPLE_CALLCHAIN | SAMPO_SAMPLE_ID | SAMPO_SAMPLE_CPU |
			       SAMPO_SAMPLE_PERIOD,
		.read_format = SAMPO_FORMAT_ID | SAMPO_FORMAT_LOST,
		.sample_max_stack = 127,
	};
	struct sampo_event_attr a = base;
	int idx;

	if (g->group) {
		a.sample_type |= SAMPO_SAMPLE_READ;
		a.read_format = SAMPO_FORMAT_ID | SAMPO_FORMAT_GROUP;
	}
	if (g->mem)
		a.sample_type |= MEM_SAMPLE_TYPE;
	if (g->raw)
		a.sample_type |= SAMPO_SAMPLE_RAW;

	/* cpu-clock, the tracking event: perf 6.1's flags for `record -g` */
	a.config = 0;
	a.sample_period = 4000;
	a.flags = 0x61943703;
	if (g->mem) {
		a.type = SAMPO_TYPE_RAW;
		a.config = 0x1cd; /* MEM_TRANS_RETIRED.LOAD_LATENCY */
	}
	idx = sampo_writer__add_attr(g->w, &a, attr_ids[0], 2);
	if (idx != 0)
		die(idx < 0 ? idx : -EINVAL, "add attr 0");

	/* task-clock: a period, precise_ip 1, exclude_hv, a wakeup watermark */
	a = base;
	if (g->group) {
		a.sample_type |= SAMPO_SAMPLE_READ;
		a.read_format = SAMPO_FORMAT_ID | SAMPO_FORMAT_GROUP;
	}
	if (g->mem)
		a.sample_type |= MEM_SAMPLE_TYPE;
	if (g->raw)
		a.sample_type |= SAMPO_SAMPLE_RAW;
	a.config = 1;
	a.sample_period = g->group ? 0 : 100000; /* a member of a :S group only counts */
	a.flags = SAMPO_ATTR_DISABLED | SAMPO_ATTR_INHERIT | SAMPO_ATTR_EXCLUDE_HV |
		  SAMPO_ATTR_ENABLE_ON_EXEC | (1ULL << SAMPO_ATTR_PRECISE_IP_SHIFT) |
		  SAMPO_ATTR_SAMPLE_ID_ALL | SAMPO_ATTR_EXCLUDE_GUEST | SAMPO_ATTR_WATERMARK;
	a.wakeup_events = 4096;
	idx = sampo_writer__add_attr(g->w, &a, attr_ids[1], 2);
	if (idx != 1)
		die(idx < 0 ? idx : -EINVAL, "add attr 1");
	if (g->pipe)
		g->counts[SAMPO_RECORD_HEADER_ATTR] += 2;
}

static void put_u32(struct gen *g, uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[g->big_endian ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

/* GROUP_DESC: one anonymous group of both events (perf's "{anon_group}") */
static int set_group_desc(struct gen *g)
{
	uint8_t buf[4 + 4 + 64 + 4 + 4] = { 0 };

	put_u32(g, buf, 1);		/* nr_groups */
	put_u32(g, buf + 4, 64);	/* the name's padded length */
	memcpy(buf + 8, "{anon_group}", 12);
	put_u32(g, buf + 72, 0);	/* leader_idx */
	put_u32(g, buf + 76, NR_ATTRS); /* nr_members */
	return sampo_writer__set_feature(g->w, SAMPO_FEAT_GROUP_DESC, buf, sizeof(buf));
}

static void set_features(struct gen *g, uint64_t first_ns, uint64_t last_ns)
{
	static const char *const cmdline[] = {
		"/usr/bin/perf", "record", "-e", "cpu-clock,task-clock", "-g", "./burn",
	};
	static const char *const names[NR_ATTRS] = { "cpu-clock", "task-clock" };
	const uint32_t nrcpus[2] = { 2, 2 };
	const uint64_t total_mem = 4026532;
	const uint64_t sample_time[2] = { first_ns, last_ns };
	struct sampo_writer *w = g->w;
	int nr = 0;

	if (!g->features)
		return;
#define FEAT(call)                                                                                 \
	do {                                                                                       \
		int err_ = (call);                                                                 \
		if (err_)                                                                          \
			die(err_, #call);                                                          \
		nr++;                                                                              \
	} while (0)
	FEAT(sampo_writer__set_feature_string(w, SAMPO_FEAT_HOSTNAME, "sampo-writer-test"));
	FEAT(sampo_writer__set_feature_string(w, SAMPO_FEAT_OSRELEASE, "6.1.0-sampo"));
	FEAT(sampo_writer__set_feature_string(w, SAMPO_FEAT_VERSION, "6.1.187"));
	FEAT(sampo_writer__set_feature_string(w, SAMPO_FEAT_ARCH, "x86_64"));
	FEAT(sampo_writer__set_feature_u32s(w, SAMPO_FEAT_NRCPUS, nrcpus, 2));
	FEAT(sampo_writer__set_feature_u64s(w, SAMPO_FEAT_TOTAL_MEM, &total_mem, 1));
	FEAT(sampo_writer__set_feature_strings(w, SAMPO_FEAT_CMDLINE, cmdline, 6));
	FEAT(sampo_writer__set_feature_event_desc(w, names, NR_ATTRS));
	FEAT(sampo_writer__set_feature_u64s(w, SAMPO_FEAT_SAMPLE_TIME, sample_time, 2));
	if (g->group)
		FEAT(set_group_desc(g));
#undef FEAT
	if (g->pipe)
		g->counts[SAMPO_RECORD_HEADER_FEATURE] += (unsigned long)nr;
}

static void add_build_ids(struct gen *g)
{
	struct {
		uint16_t cpumode;
		const uint8_t *bid;
		size_t size;
		const char *name;
	} const t[] = {
		{ SAMPO_CPUMODE_KERNEL, kernel_bid, 20,
		  g->kernel_name ? g->kernel_name : "[kernel.kallsyms]" },
		{ SAMPO_CPUMODE_USER, burn_bid, 20, "/tmp/pfx/burn" },
		{ SAMPO_CPUMODE_USER, libc_bid, 20, "/usr/lib/x86_64-linux-gnu/libc.so.6" },
		{ SAMPO_CPUMODE_USER, md5_bid, 16, "/usr/lib/sampo/libmd5-style-build-id.so" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int err = sampo_writer__add_build_id(g->w, t[i].cpumode, -1, t[i].bid, t[i].size,
						     t[i].name);

		if (err)
			die(err, "add build-id");
		if (g->pipe)
			g->counts[SAMPO_RECORD_HEADER_BUILD_ID]++;
	}
}

static struct sampo_sample sid_at(uint32_t pid, uint32_t tid, uint64_t time, uint64_t id,
				  uint32_t cpu)
{
	struct sampo_sample s = { .pid = pid, .tid = tid, .time = time, .id = id, .cpu = cpu };

	return s;
}

static void write_prologue(struct gen *g)
{
	struct sampo_id_index_entry idx[4];
	const struct sampo_thread_map_entry threads[1] = { { .pid = PID, .comm = "burn" } };
	const uint16_t cpus[2] = { 0, 1 };
	struct sampo_writer_map kmap = {
		.misc = SAMPO_CPUMODE_KERNEL,
		.pid = (uint32_t)-1,
		.tid = 0,
		.start = 0xffffffff81000000ULL,
		.len = 0x120bb08,
		.pgoff = 0xffffffff81000000ULL,
		.filename = "[kernel.kallsyms]_text",
	};
	struct sampo_writer *w = g->w;
	size_t n = 0;

	for (size_t a = 0; a < NR_ATTRS; a++) {
		for (size_t i = 0; i < 2; i++) {
			idx[n].id = attr_ids[a][i];
			idx[n].idx = i;
			idx[n].cpu = i;
			idx[n].tid = (uint64_t)-1;
			n++;
		}
	}
	check(g, sampo_writer__write_id_index(w, idx, n), SAMPO_RECORD_ID_INDEX, "id_index");
	check(g, sampo_writer__write_mmap(w, &kmap, NULL), SAMPO_RECORD_MMAP, "kernel mmap");
	check(g, sampo_writer__write_event_update(w, SAMPO_EVENT_UPDATE_UNIT, attr_ids[0][0], "msec"),
	      SAMPO_RECORD_EVENT_UPDATE, "event_update");
	check(g, sampo_writer__write_event_update(w, SAMPO_EVENT_UPDATE_UNIT, attr_ids[1][0], "msec"),
	      SAMPO_RECORD_EVENT_UPDATE, "event_update");
	if (g->rename)
		check(g,
		      sampo_writer__write_event_update(w, SAMPO_EVENT_UPDATE_NAME, attr_ids[0][0],
						       g->rename),
		      SAMPO_RECORD_EVENT_UPDATE, "event_update");
	check(g, sampo_writer__write_thread_map(w, threads, 1), SAMPO_RECORD_THREAD_MAP,
	      "thread_map");
	check(g, sampo_writer__write_cpu_map(w, cpus, 2), SAMPO_RECORD_CPU_MAP, "cpu_map");
	check(g, sampo_writer__write_comm(w, PID, PID, "perf-exec", false, NULL), SAMPO_RECORD_COMM,
	      "comm");
	check(g, sampo_writer__write_finished_init(w), SAMPO_RECORD_FINISHED_INIT, "finished_init");
}

static void write_task_records(struct gen *g)
{
	struct sampo_writer_map burn = {
		.misc = SAMPO_CPUMODE_USER,
		.pid = PID,
		.tid = PID,
		.start = BURN_START,
		.len = 0x1000,
		.pgoff = 0x1000,
		.maj = 0xfe,
		.min = 0,
		.ino = 10954796,
		.ino_generation = 1083144261,
		.prot = 5,  /* PROT_READ | PROT_EXEC */
		.flags = 2, /* MAP_PRIVATE */
		.filename = "/tmp/pfx/burn",
	};
	struct sampo_writer_map libc = {
		.misc = SAMPO_CPUMODE_USER,
		.pid = PID,
		.tid = PID,
		.start = LIBC_START,
		.len = 0x195000,
		.pgoff = 0x26000,
		.prot = 5,
		.flags = 2,
		.build_id = libc_bid,
		.build_id_size = 20,
		.filename = "/usr/lib/x86_64-linux-gnu/libc.so.6",
	};
	struct sampo_sample sid;
	struct sampo_writer *w = g->w;

	sid = sid_at(PID, PID, T0, attr_ids[0][0], 0);
	check(g, sampo_writer__write_comm(w, PID, PID, "burn", true, &sid), SAMPO_RECORD_COMM,
	      "exec comm");
	sid = sid_at(PID, PID, T0 + 1, attr_ids[0][0], 0);
	check(g, sampo_writer__write_mmap2(w, &burn, &sid), SAMPO_RECORD_MMAP2, "mmap2");
	sid = sid_at(PID, PID, T0 + 2, attr_ids[0][0], 0);
	check(g, sampo_writer__write_mmap2(w, &libc, &sid), SAMPO_RECORD_MMAP2, "mmap2 build-id");
	sid = sid_at(PID, PID, T0 + 3, attr_ids[0][1], 1);
	check(g, sampo_writer__write_fork(w, CHILD, PID, CHILD, PID, T0 + 3, &sid),
	      SAMPO_RECORD_FORK, "fork");
	sid = sid_at(PID, PID, T0 + 4, attr_ids[0][0], 0);
	check(g, sampo_writer__write_fork(w, PID, PID, THREAD, PID, T0 + 4, &sid),
	      SAMPO_RECORD_FORK, "fork thread");
}

static uint64_t sample_time(unsigned long i)
{
	return T0 + 10 + (uint64_t)i * 1000;
}

static void write_samples(struct gen *g)
{
	struct sampo_writer *w = g->w;
	uint64_t counter[NR_ATTRS][2] = { { 0 } }; /* --group: per event and CPU (id) */

	for (unsigned long i = 0; i < g->nr_samples; i++) {
		size_t attr = g->group ? 0 : i % NR_ATTRS;
		uint32_t cpu = (uint32_t)((i / NR_ATTRS) % 2);
		uint32_t pid = (i % 3 == 2) ? CHILD : PID;
		uint32_t tid = (pid == PID && i % 5 == 4) ? THREAD : pid;
		uint64_t ip = BURN_START + 0x169 + 0x10 * (i % 4);

		if (g->alpha >= 0) /* alpha: 0x1149..0x1173, beta: 0x1173..0x11aa */
			ip = BURN_START + ((int)(i / NR_ATTRS % 4) < g->alpha ? 0x169 :
									      0x179 + 0x10 * (i % 3));
		bool leader_idle = g->group && i % 7 == 5;
		uint64_t rv[5];

		if (leader_idle)
			ip = BURN_START + 0x1a9;
		const uint64_t chain[4] = {
			SAMPO_CONTEXT_USER, ip, BURN_START + 0x200, LIBC_START + 0x27000,
		};
		struct sampo_sample s = {
			.ip = ip,
			.pid = pid,
			.tid = tid,
			.time = sample_time(i),
			.id = attr_ids[attr][cpu],
			.cpu = cpu,
			.period = attr == 0 ? 1000000 : 100000,
			.callchain_nr = 4,
			.callchain = chain,
		};

		if (g->mem) {
			s.addr = 0x7ffd00001000ULL + (uint64_t)i * 0x48;
			s.data_src = mem_data_src(i / NR_ATTRS); /* cpu-clock: every i */
			s.weight = 30 + (uint64_t)i * 17;
			s.ins_lat = (uint16_t)(i * 3);
			s.phys_addr = 0x1234000 + (uint64_t)i * 0x40;
		}
		uint8_t raw[12];

		if (g->raw) {
			/* opaque bytes: a reader must hand them back as the file has them */
			uint32_t n = (uint32_t)i;

			memcpy(raw, &n, 4);
			memcpy(raw + 4, "raw:samp", 8);
			s.raw_size = sizeof(raw);
			s.raw_data = raw;
		}
		if (g->group) {
			/* { nr, { value, id } x 2 }: what both counters read now */
			counter[0][cpu] += leader_idle ? 0 : 1000000;
			counter[1][cpu] += i % 4 == 3 ? 0 : 50000 * (1 + i % 3);
			rv[0] = NR_ATTRS;
			for (size_t a = 0; a < NR_ATTRS; a++) {
				rv[1 + 2 * a] = counter[a][cpu];
				rv[2 + 2 * a] = attr_ids[a][cpu];
			}
			s.read_values = rv;
			s.read_nr_words = 5;
		}
		/* --kernel-name: every 5th sample in the kernel, to show the kernel's name */
		const uint64_t kchain[3] = { SAMPO_CONTEXT_KERNEL, 0xffffffff81001234ULL,
					     0xffffffff81002345ULL };
		uint16_t cpumode = SAMPO_CPUMODE_USER;

		if (g->kernel_name && i % 5 == 1) {
			s.ip = kchain[1];
			s.callchain = kchain;
			s.callchain_nr = 3;
			cpumode = SAMPO_CPUMODE_KERNEL;
		}
		check(g, sampo_writer__write_sample(w, attr, cpumode, &s),
		      SAMPO_RECORD_SAMPLE, "sample");
		if (i + 1 == g->nr_samples / 2)
			check(g, sampo_writer__write_finished_round(w),
			      SAMPO_RECORD_FINISHED_ROUND, "finished_round");
	}
}

static void write_epilogue(struct gen *g)
{
	uint64_t t = sample_time(g->nr_samples);
	struct sampo_sample sid;

	sid = sid_at(PID, THREAD, t, attr_ids[0][1], 1);
	check(g, sampo_writer__write_exit(g->w, PID, PID, THREAD, PID, t, &sid),
	      SAMPO_RECORD_EXIT, "exit thread");
	sid = sid_at(CHILD, CHILD, t, attr_ids[0][1], 1);
	check(g, sampo_writer__write_exit(g->w, CHILD, PID, CHILD, PID, t, &sid),
	      SAMPO_RECORD_EXIT, "exit");
	sid = sid_at(PID, PID, t + 1, attr_ids[0][0], 0);
	check(g, sampo_writer__write_exit(g->w, PID, PID, PID, PID, t + 1, &sid),
	      SAMPO_RECORD_EXIT, "exit");
	check(g, sampo_writer__write_finished_round(g->w), SAMPO_RECORD_FINISHED_ROUND,
	      "finished_round");
}

static void print_stats(const struct gen *g)
{
	/* perf's order: kernel types, then user types, by number */
	static const char *const names[SAMPO_RECORD_MAX] = {
		[SAMPO_RECORD_MMAP] = "MMAP",
		[SAMPO_RECORD_COMM] = "COMM",
		[SAMPO_RECORD_EXIT] = "EXIT",
		[SAMPO_RECORD_FORK] = "FORK",
		[SAMPO_RECORD_SAMPLE] = "SAMPLE",
		[SAMPO_RECORD_MMAP2] = "MMAP2",
		[SAMPO_RECORD_HEADER_ATTR] = "ATTR",
		[SAMPO_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
		[SAMPO_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
		[SAMPO_RECORD_ID_INDEX] = "ID_INDEX",
		[SAMPO_RECORD_THREAD_MAP] = "THREAD_MAP",
		[SAMPO_RECORD_CPU_MAP] = "CPU_MAP",
		[SAMPO_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
		[SAMPO_RECORD_HEADER_FEATURE] = "FEATURE",
		[SAMPO_RECORD_FINISHED_INIT] = "FINISHED_INIT",
	};
	unsigned long total = 0;

	for (size_t i = 0; i < SAMPO_RECORD_MAX; i++)
		total += g->counts[i];
	printf("TOTAL %lu\n", total);
	for (size_t i = 0; i < SAMPO_RECORD_MAX; i++) {
		if (g->counts[i])
			printf("%s %lu\n", names[i] ? names[i] : "?", g->counts[i]);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: mkperfdata [--big-endian | --little-endian] [--pipe] "
			"[--samples N] [--no-features] [--rename NAME] [--alpha N] [--group] [--kernel-name NAME] [--mem] [--raw] [--stats] -o FILE\n");
	exit(129);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "big-endian", no_argument, NULL, 'b' },
		{ "little-endian", no_argument, NULL, 'l' },
		{ "pipe", no_argument, NULL, 'p' },
		{ "samples", required_argument, NULL, 'n' },
		{ "stats", no_argument, NULL, 's' },
		{ "no-features", no_argument, NULL, 'F' },
		{ "rename", required_argument, NULL, 'r' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "group", no_argument, NULL, 'g' },
		{ "kernel-name", required_argument, NULL, 'k' },
		{ "mem", no_argument, NULL, 'm' },
		{ "raw", no_argument, NULL, 'R' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	SAMPO_OPTS(sampo_writer_opts, opts);
	struct gen g = { .nr_samples = 20, .features = true, .alpha = -1 };
	const char *out = NULL;
	bool stats = false;
	int c, err;

	while ((c = getopt_long(argc, argv, "blpn:so:", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			opts.byte_order = SAMPO_BYTE_ORDER_BIG;
			g.big_endian = true;
			break;
		case 'l':
			opts.byte_order = SAMPO_BYTE_ORDER_LITTLE;
			break;
		case 'p':
			opts.pipe = true;
			break;
		case 'n':
			g.nr_samples = strtoul(optarg, NULL, 0);
			break;
		case 's':
			stats = true;
			break;
		case 'F':
			g.features = false;
			break;
		case 'r':
			g.rename = optarg;
			break;
		case 'a':
			g.alpha = atoi(optarg);
			if (g.alpha < 0 || g.alpha > 4)
				usage();
			break;
		case 'g':
			g.group = true;
			break;
		case 'k':
			g.kernel_name = optarg;
			break;
		case 'm':
			g.mem = true;
			break;
		case 'R':
			g.raw = true;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			usage();
		}
	}
	if (!out || optind != argc || g.nr_samples < 2)
		usage();
	g.pipe = opts.pipe;

	err = sampo_writer__open(out, &opts, &g.w);
	if (err)
		die(err, out);
	add_attrs(&g);
	if (g.pipe) {
		/* perf record -o -: features right after the attrs */
		set_features(&g, sample_time(0), sample_time(g.nr_samples - 1));
		add_build_ids(&g);
	}
	write_prologue(&g);
	write_task_records(&g);
	write_samples(&g);
	write_epilogue(&g);
	if (!g.pipe) {
		set_features(&g, sample_time(0), sample_time(g.nr_samples - 1));
		add_build_ids(&g);
	}
	err = sampo_writer__close(g.w);
	if (err)
		die(err, "close");
	if (stats)
		print_stats(&g);
	return 0;
}
