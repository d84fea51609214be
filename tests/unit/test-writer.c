// SPDX-License-Identifier: GPL-2.0
/*
 * test-writer.c - the perf.data writer: exact bytes of the layout that perf
 * expects (header, attrs, flags bitfield, strings, build-id entries), round
 * trips through the reader in both byte orders and in file and pipe mode
 * (every record and every sample field compared), and I/O errors (ENOSPC,
 * EPIPE, EBADF) and oversized records handled without crashing; no link is
 * followed at an output path in a world-writable directory.
 *
 * Files go to a temporary directory; tests that look at bytes read the file
 * back whole. That perf itself reads the writer's files is checked by
 * tests/cli/t1300-writer-perf-reads.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/reader.h>
#include <sampo/writer.h>

static char tmpdir[] = "/tmp/sampo-test-writer.XXXXXX";
static char path[256];

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* The whole file at @path; *len gets its size. */
static uint8_t *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "rb");
	uint8_t *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Loads of file-order fields, for checking bytes. */
static uint64_t rd64(const uint8_t *p, bool big)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[big ? 7 - i : i] << (8 * i);
	return v;
}

static uint32_t rd32(const uint8_t *p, bool big)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++)
		v |= (uint32_t)p[big ? 3 - i : i] << (8 * i);
	return v;
}

static uint16_t rd16(const uint8_t *p, bool big)
{
	return big ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static struct sampo_writer *open_writer(enum sampo_byte_order order, bool pipe)
{
	SAMPO_OPTS(sampo_writer_opts, opts, .byte_order = order, .pipe = pipe);
	struct sampo_writer *w = NULL;

	assert_int_equal(sampo_writer__open(path, &opts, &w), 0);
	assert_non_null(w);
	return w;
}

static struct sampo_event_attr simple_attr(void)
{
	struct sampo_event_attr a = {
		.type = SAMPO_TYPE_SOFTWARE,
		.config = 0,
		.sample_period = 4000,
		.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME |
			       SAMPO_SAMPLE_PERIOD,
		.flags = SAMPO_ATTR_DISABLED | SAMPO_ATTR_SAMPLE_ID_ALL | SAMPO_ATTR_FREQ,
	};

	return a;
}

/* ---- exact layout ------------------------------------------------------- */

static void check_layout(bool big)
{
	struct sampo_event_attr a = simple_attr();
	const uint64_t ids[2] = { 7, 8 };
	struct sampo_writer *w;
	size_t len, data_size;
	uint8_t *b;

	w = open_writer(big ? SAMPO_BYTE_ORDER_BIG : SAMPO_BYTE_ORDER_LITTLE, false);
	assert_int_equal(sampo_writer__add_attr(w, &a, ids, 2), 0);
	assert_int_equal(sampo_writer__write_finished_round(w), 0);
	assert_int_equal(sampo_writer__set_feature_string(w, SAMPO_FEAT_HOSTNAME, "vm"), 0);
	assert_int_equal(sampo_writer__set_feature_u32s(w, SAMPO_FEAT_NRCPUS,
							(const uint32_t[]){ 4, 2 }, 2), 0);
	assert_int_equal(sampo_writer__close(w), 0);

	b = slurp(path, &len);
	assert_memory_equal(b, big ? "2ELIFREP" : "PERFILE2", 8);
	assert_int_equal(rd64(b + 8, big), 104);
	assert_int_equal(rd64(b + 16, big), 128 + 16); /* attr_size */
	/* ids first, right after the header, then the attrs */
	assert_int_equal(rd64(b + 104, big), 7);
	assert_int_equal(rd64(b + 112, big), 8);
	assert_int_equal(rd64(b + 24, big), 120); /* attrs.offset */
	assert_int_equal(rd64(b + 32, big), 144);
	assert_int_equal(rd32(b + 120, big), SAMPO_TYPE_SOFTWARE);
	assert_int_equal(rd32(b + 124, big), 128);
	assert_int_equal(rd64(b + 136, big), 4000);
	assert_int_equal(rd64(b + 120 + 128, big), 104); /* ids section */
	assert_int_equal(rd64(b + 120 + 136, big), 16);
	/* data: one FINISHED_ROUND */
	assert_int_equal(rd64(b + 40, big), 264);
	data_size = rd64(b + 48, big);
	assert_int_equal(data_size, 8);
	assert_int_equal(rd32(b + 264, big), SAMPO_RECORD_FINISHED_ROUND);
	assert_int_equal(rd16(b + 270, big), 8);
	assert_int_equal(rd64(b + 56, big), 0); /* event_types */
	assert_int_equal(rd64(b + 64, big), 0);
	/* features HOSTNAME (3) and NRCPUS (7) */
	assert_int_equal(rd64(b + 72, big), (1u << 3) | (1u << 7));
	assert_int_equal(rd64(b + 80, big), 0);
	/* the table right after the data, payloads right after the table */
	assert_int_equal(rd64(b + 272, big), 272 + 32);
	assert_int_equal(rd64(b + 280, big), 4 + 64); /* "vm": u32 64, 64 bytes */
	assert_int_equal(rd64(b + 288, big), 272 + 32 + 68);
	assert_int_equal(rd64(b + 296, big), 8);
	assert_int_equal(rd32(b + 304, big), 64);
	assert_string_equal((const char *)b + 308, "vm");
	for (size_t i = 3; i < 64; i++)
		assert_int_equal(b[308 + i], 0);
	assert_int_equal(rd32(b + 372, big), 4); /* nr_cpus_available */
	assert_int_equal(rd32(b + 376, big), 2); /* nr_cpus_online */
	assert_int_equal(len, 380);
	free(b);
}

static void test_writer__file_layout_little_endian(void **state)
{
	(void)state;
	check_layout(false);
}

static void test_writer__file_layout_big_endian(void **state)
{
	(void)state;
	check_layout(true);
}

/*
 * perf 6.1 reads the flags of a big-endian attr by reversing the bits of
 * each byte (perf_event__attr_swap), so each byte must be the bit-reverse of
 * the little-endian byte: disabled (bit 0) is the top bit of byte 0, and
 * precise_ip = 1 (bit 15) is the low bit of byte 1.
 */
static void test_writer__attr_flags_bitfield_big_endian(void **state)
{
	struct sampo_event_attr a = simple_attr();
	struct sampo_writer *w;
	const uint8_t *f;
	size_t len;
	uint8_t *b;

	(void)state;
	a.flags = SAMPO_ATTR_DISABLED | SAMPO_ATTR_SAMPLE_ID_ALL | SAMPO_ATTR_MMAP2 |
		  (1ULL << SAMPO_ATTR_PRECISE_IP_SHIFT) | SAMPO_ATTR_BUILD_ID;
	w = open_writer(SAMPO_BYTE_ORDER_BIG, false);
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), 0);
	assert_int_equal(sampo_writer__close(w), 0);
	b = slurp(path, &len);
	f = b + rd64(b + 24, true) + 40;
	assert_int_equal(f[0], 0x80); /* disabled: bit 0 -> 0x80 */
	assert_int_equal(f[1], 0x01); /* precise_ip bit 15 (0x80 of byte 1) -> 0x01 */
	/* sample_id_all: bit 18 (0x04) -> 0x20; mmap2: bit 23 (0x80) -> 0x01 */
	assert_int_equal(f[2], 0x21);
	assert_int_equal(f[3], 0);
	assert_int_equal(f[4], 0x20); /* build_id: bit 34 (0x04) -> 0x20 */
	assert_int_equal(f[5] | f[6] | f[7], 0);
	free(b);

	/* little-endian: the plain u64 */
	w = open_writer(SAMPO_BYTE_ORDER_LITTLE, false);
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), 0);
	assert_int_equal(sampo_writer__close(w), 0);
	b = slurp(path, &len);
	assert_int_equal(rd64(b + rd64(b + 24, false) + 40, false), a.flags);
	free(b);
}

static void test_writer__build_id_entry_layout(void **state)
{
	static const uint8_t bid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	struct sampo_writer *w;
	size_t len;
	uint8_t *b, *e;
	uint64_t off;

	(void)state;
	for (int big = 0; big <= 1; big++) {
		w = open_writer(big ? SAMPO_BYTE_ORDER_BIG : SAMPO_BYTE_ORDER_LITTLE, false);
		assert_int_equal(sampo_writer__add_build_id(w, SAMPO_CPUMODE_KERNEL, -1, bid, 16,
							    "[kernel.kallsyms]"), 0);
		assert_int_equal(sampo_writer__add_build_id(w, SAMPO_CPUMODE_USER, -1, bid, 16,
							    "/a/name/longer/than/sixty-four/bytes/"
							    "to/see/it/padded/to/128/bytes.so"), 0);
		assert_int_equal(sampo_writer__close(w), 0);
		b = slurp(path, &len);
		assert_int_equal(rd64(b + 72, big), 1u << SAMPO_FEAT_BUILD_ID);
		off = rd64(b + rd64(b + 40, big) + rd64(b + 48, big), big);
		e = b + off;
		assert_int_equal(rd32(e, big), 0); /* type 0, as perf 6.1 */
		assert_int_equal(rd16(e + 4, big), 0x8001);
		assert_int_equal(rd16(e + 6, big), 100); /* 8 + 4 + 24 + 64 */
		assert_int_equal(rd32(e + 8, big), 0xffffffff);
		assert_memory_equal(e + 12, bid, 16);
		assert_int_equal(e + 32 - e, 32);
		assert_int_equal(e[32], 16); /* the id's size, byte 20 of build_id[] */
		assert_string_equal((const char *)e + 36, "[kernel.kallsyms]");
		e += 100;
		assert_int_equal(rd16(e + 4, big), 0x8002);
		assert_int_equal(rd16(e + 6, big), 36 + 128);
		assert_int_equal(e + 164, b + len);
		free(b);
	}
}

/* ---- round trips through the reader ------------------------------------ */

#define ST_ALL                                                                                     \
	(SAMPO_SAMPLE_IDENTIFIER | SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME |       \
	 SAMPO_SAMPLE_ADDR | SAMPO_SAMPLE_ID | SAMPO_SAMPLE_STREAM_ID | SAMPO_SAMPLE_CPU |        \
	 SAMPO_SAMPLE_PERIOD | SAMPO_SAMPLE_READ | SAMPO_SAMPLE_CALLCHAIN | SAMPO_SAMPLE_RAW |     \
	 SAMPO_SAMPLE_BRANCH_STACK | SAMPO_SAMPLE_REGS_USER | SAMPO_SAMPLE_STACK_USER |          \
	 SAMPO_SAMPLE_WEIGHT_STRUCT | SAMPO_SAMPLE_DATA_SRC | SAMPO_SAMPLE_TRANSACTION |          \
	 SAMPO_SAMPLE_REGS_INTR | SAMPO_SAMPLE_PHYS_ADDR | SAMPO_SAMPLE_CGROUP |                  \
	 SAMPO_SAMPLE_DATA_PAGE_SIZE | SAMPO_SAMPLE_CODE_PAGE_SIZE | SAMPO_SAMPLE_AUX)
#define ST_SMALL                                                                                   \
	(SAMPO_SAMPLE_IDENTIFIER | SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME |       \
	 SAMPO_SAMPLE_CPU | SAMPO_SAMPLE_PERIOD)

static const uint64_t ids0[2] = { 11, 12 };
static const uint64_t ids1[1] = { 21 };

static struct sampo_event_attr attr0(void)
{
	struct sampo_event_attr a = {
		.type = SAMPO_TYPE_HARDWARE,
		.config = 0x1234,
		.sample_period = 100003,
		.sample_type = ST_ALL,
		.read_format = SAMPO_FORMAT_TOTAL_TIME_ENABLED | SAMPO_FORMAT_TOTAL_TIME_RUNNING |
			       SAMPO_FORMAT_ID | SAMPO_FORMAT_GROUP | SAMPO_FORMAT_LOST,
		.flags = SAMPO_ATTR_DISABLED | SAMPO_ATTR_INHERIT | SAMPO_ATTR_MMAP |
			 SAMPO_ATTR_COMM | SAMPO_ATTR_SAMPLE_ID_ALL | SAMPO_ATTR_MMAP2 |
			 SAMPO_ATTR_USE_CLOCKID | (2ULL << SAMPO_ATTR_PRECISE_IP_SHIFT) |
			 SAMPO_ATTR_SIGTRAP,
		.wakeup_events = 3,
		.bp_type = 7,
		.config1 = 0x1111222233334444ULL,
		.config2 = 0x5555666677778888ULL,
		.branch_sample_type = 0x8 | SAMPO_SAMPLE_BRANCH_HW_INDEX,
		.sample_regs_user = 0xff0,
		.sample_stack_user = 64,
		.clockid = 4,
		.sample_regs_intr = 0x3,
		.aux_watermark = 0x10000,
		.sample_max_stack = 127,
		.aux_sample_size = 4096,
		.sig_data = 0xdeadbeefcafef00dULL,
	};

	return a;
}

static struct sampo_event_attr attr1(void)
{
	struct sampo_event_attr a = {
		.type = SAMPO_TYPE_SOFTWARE,
		.config = 1,
		.sample_period = 4000,
		.sample_type = ST_SMALL,
		.flags = SAMPO_ATTR_FREQ | SAMPO_ATTR_SAMPLE_ID_ALL | SAMPO_ATTR_EXCLUDE_HV,
	};

	return a;
}

/* What the full sample of attr 0 carries. */
static const uint64_t read_words[] = {
	2, 1000, 900,	  /* nr, time_enabled, time_running */
	77, 11, 0,	  /* value, id, lost */
	88, 12, 1,	  /* value, id, lost */
};
static const uint64_t chain[] = { SAMPO_CONTEXT_KERNEL, 0xffffffff81001234ULL,
				  SAMPO_CONTEXT_USER, 0x401000, 0x401234 };
static const uint8_t raw[13] = "raw-payload!";
static const struct sampo_branch_entry branches[2] = {
	{ 0x401000, 0x402000, 0x1 | (123ULL << 4) | (5ULL << 20) },
	{ 0x402010, 0x401000, 0x2 | (7ULL << 4) | (3ULL << 24) | (6ULL << 30) },
};
static const uint64_t uregs[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const uint64_t iregs[2] = { 0xa, 0xb };
static const uint8_t ustack[16] = "0123456789abcdef";
static const uint8_t aux[8] = "auxdata";

static struct sampo_sample full_sample(void)
{
	struct sampo_sample s = {
		.id = 12,
		.ip = 0x401234,
		.pid = 100,
		.tid = 101,
		.time = 5000000123ULL,
		.addr = 0x7fff0000beefULL,
		.stream_id = 12,
		.cpu = 3,
		.period = 100003,
		.read_values = read_words,
		.read_nr_words = sizeof(read_words) / 8,
		.callchain_nr = 5,
		.callchain = chain,
		.raw_size = sizeof(raw),
		.raw_data = raw,
		.branch_nr = 2,
		.branch_hw_idx = 9,
		.branch = branches,
		.user_regs = { .abi = 2, .regs = uregs },
		.user_stack_size = sizeof(ustack),
		.user_stack = ustack,
		.user_stack_dyn_size = 12,
		.weight = 0x12345678,
		.ins_lat = 0x9abc,
		.p_stage_cyc = 0xdef0,
		.data_src = 0x0123456789abcdefULL,
		.transaction = 0x44,
		.intr_regs = { .abi = 2, .regs = iregs },
		.phys_addr = 0x1234000,
		.cgroup = 0x4242,
		.data_page_size = 4096,
		.code_page_size = 2097152,
		.aux_size = sizeof(aux),
		.aux_data = aux,
	};

	return s;
}

static struct sampo_sample sid_of(uint32_t pid, uint32_t tid, uint64_t time, uint64_t id,
				  uint32_t cpu)
{
	struct sampo_sample s = {
		.pid = pid, .tid = tid, .time = time, .id = id, .stream_id = id, .cpu = cpu,
	};

	return s;
}

static const uint8_t mmap_bid[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6,
				      7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

static const struct sampo_writer_map map_inode = {
	.misc = SAMPO_CPUMODE_USER,
	.pid = 100,
	.tid = 101,
	.start = 0x400000,
	.len = 0x3000,
	.pgoff = 0x1000,
	.maj = 8,
	.min = 1,
	.ino = 123456789,
	.ino_generation = 987654321,
	.prot = 5,
	.flags = 2,
	.filename = "/usr/bin/prog",
};

/* Everything the round trip writes, in order, with what the reader must see. */
static void write_everything(struct sampo_writer *w, bool pipe)
{
	struct sampo_event_attr a0 = attr0(), a1 = attr1();
	struct sampo_sample sid, s = full_sample();
	struct sampo_writer_map m = map_inode;
	const struct sampo_id_index_entry index[3] = {
		{ 11, 0, 0, (uint64_t)-1 }, { 12, 1, 1, (uint64_t)-1 }, { 21, 0, 0, 100 },
	};
	const struct sampo_thread_map_entry threads[2] = { { 100, "prog" }, { 101, "worker" } };
	const uint16_t cpus[3] = { 0, 2, 3 };
	static const char *const names[2] = { "cycles", "task-clock" };
	static const char *const argv[3] = { "/usr/bin/perf", "record", "./prog" };
	const uint32_t nrcpus[2] = { 4, 2 };
	const uint64_t mem = 123456, times[2] = { 5000000000ULL, 5000000999ULL };
	union {
		union sampo_record rec;
		uint8_t bytes[256];
	} u;

	assert_int_equal(sampo_writer__add_attr(w, &a0, ids0, 2), 0);
	assert_int_equal(sampo_writer__add_attr(w, &a1, ids1, 1), 1);
	assert_int_equal(sampo_writer__set_feature_string(w, SAMPO_FEAT_HOSTNAME, "vm"), 0);
	assert_int_equal(sampo_writer__set_feature_u32s(w, SAMPO_FEAT_NRCPUS, nrcpus, 2), 0);
	assert_int_equal(sampo_writer__set_feature_u64s(w, SAMPO_FEAT_TOTAL_MEM, &mem, 1), 0);
	assert_int_equal(sampo_writer__set_feature_strings(w, SAMPO_FEAT_CMDLINE, argv, 3), 0);
	assert_int_equal(sampo_writer__set_feature_event_desc(w, names, 2), 0);
	assert_int_equal(sampo_writer__set_feature_u64s(w, SAMPO_FEAT_SAMPLE_TIME, times, 2), 0);
	if (pipe)
		assert_int_equal(sampo_writer__add_build_id(w, SAMPO_CPUMODE_USER, -1, mmap_bid, 20,
							    "/usr/bin/prog"), 0);

	assert_int_equal(sampo_writer__write_id_index(w, index, 3), 0);
	assert_int_equal(sampo_writer__write_thread_map(w, threads, 2), 0);
	assert_int_equal(sampo_writer__write_cpu_map(w, cpus, 3), 0);
	assert_int_equal(sampo_writer__write_event_update(w, SAMPO_EVENT_UPDATE_UNIT, 11, "msec"), 0);
	assert_int_equal(sampo_writer__write_event_update_scale(w, 21, 0.25), 0);

	sid = sid_of(100, 100, 10, 21, 1);
	assert_int_equal(sampo_writer__write_comm(w, 100, 100, "prog", true, &sid), 0);
	sid = sid_of(100, 101, 11, 11, 0);
	assert_int_equal(sampo_writer__write_mmap(w, &m, &sid), 0);
	sid = sid_of(100, 101, 12, 12, 1);
	assert_int_equal(sampo_writer__write_mmap2(w, &m, &sid), 0);
	m.build_id = mmap_bid;
	m.build_id_size = 20;
	m.filename = "/usr/lib/libfoo.so";
	sid = sid_of(100, 101, 13, 21, 2);
	assert_int_equal(sampo_writer__write_mmap2(w, &m, &sid), 0);
	sid = sid_of(100, 102, 14, 11, 3);
	assert_int_equal(sampo_writer__write_fork(w, 100, 100, 102, 101, 14, &sid), 0);
	assert_int_equal(sampo_writer__write_finished_init(w), 0);

	assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER | SAMPO_MISC_EXACT_IP,
						    &s), 0);
	s = sid_of(100, 102, 20, 21, 1);
	s.ip = 0xffffffff81000010ULL;
	s.period = 4000;
	assert_int_equal(sampo_writer__write_sample(w, 1, SAMPO_CPUMODE_KERNEL, &s), 0);

	/* a host-order record through write_record: SWITCH_CPU_WIDE of attr 1 */
	memset(&u, 0, sizeof(u));
	u.rec.header.type = SAMPO_RECORD_SWITCH_CPU_WIDE;
	u.rec.header.misc = SAMPO_MISC_SWITCH_OUT;
	u.rec.header.size = 16 + 32;
	u.rec.context_switch.next_prev_pid = 300;
	u.rec.context_switch.next_prev_tid = 301;
	{
		/* trailer of attr 1: TID, TIME, CPU, IDENTIFIER */
		uint32_t pt[2] = { 100, 102 };
		uint64_t time = 30, id = 21;
		uint32_t cr[2] = { 2, 0 };

		memcpy(u.bytes + 16, pt, 8);
		memcpy(u.bytes + 24, &time, 8);
		memcpy(u.bytes + 32, cr, 8);
		memcpy(u.bytes + 40, &id, 8);
	}
	assert_int_equal(sampo_writer__write_record(w, &u.rec), 0);

	sid = sid_of(100, 102, 40, 11, 3);
	assert_int_equal(sampo_writer__write_exit(w, 100, 100, 102, 101, 40, &sid), 0);
	assert_int_equal(sampo_writer__write_finished_round(w), 0);
	if (!pipe)
		assert_int_equal(sampo_writer__add_build_id(w, SAMPO_CPUMODE_USER, -1, mmap_bid, 20,
							    "/usr/bin/prog"), 0);
}

static struct sampo_reader *open_reader(void)
{
	char err[256] = "";
	SAMPO_OPTS(sampo_reader_opts, opts, .errbuf = err, .errbuf_sz = sizeof(err));
	struct sampo_reader *r = NULL;
	int ret = sampo_reader__open(path, &opts, &r);

	if (ret)
		fail_msg("sampo_reader__open: %d %s", ret, err);
	return r;
}

/* Next record that is not an attr, feature or build-id (pipe mode). */
static const union sampo_record *next_rec(struct sampo_reader *r, struct sampo_event *ev)
{
	for (;;) {
		int ret = sampo_reader__next(r, ev);

		if (ret != 1)
			fail_msg("sampo_reader__next: %d %s", ret, sampo_reader__error(r));
		switch (ev->record->header.type) {
		case SAMPO_RECORD_HEADER_ATTR:
		case SAMPO_RECORD_HEADER_FEATURE:
		case SAMPO_RECORD_HEADER_BUILD_ID:
			continue;
		default:
			return ev->record;
		}
	}
}

static void check_sid(const struct sampo_event *ev, int attr_idx, uint32_t pid, uint32_t tid,
		      uint64_t time, uint64_t id, uint32_t cpu)
{
	assert_int_equal(ev->attr_idx, attr_idx);
	assert_true(ev->has_sample_id);
	assert_int_equal(ev->sample.pid, pid);
	assert_int_equal(ev->sample.tid, tid);
	assert_int_equal(ev->sample.time, time);
	assert_int_equal(ev->sample.id, id);
	assert_int_equal(ev->sample.cpu, cpu);
	if (attr_idx == 0)
		assert_int_equal(ev->sample.stream_id, id);
}

static void check_attrs(struct sampo_reader *r)
{
	struct sampo_event_attr want[2] = { attr0(), attr1() };
	const uint64_t *ids;
	size_t nr;

	assert_int_equal(sampo_reader__nr_attrs(r), 2);
	for (size_t i = 0; i < 2; i++) {
		want[i].size = SAMPO_ATTR_SIZE_VER7;
		assert_memory_equal(sampo_reader__attr(r, i), &want[i], sizeof(want[i]));
	}
	ids = sampo_reader__attr_ids(r, 0, &nr);
	assert_int_equal(nr, 2);
	assert_memory_equal(ids, ids0, sizeof(ids0));
	ids = sampo_reader__attr_ids(r, 1, &nr);
	assert_int_equal(nr, 1);
	assert_int_equal(ids[0], 21);
}

static void check_full_sample(const struct sampo_event *ev, bool swapped)
{
	const struct sampo_sample *got = &ev->sample;
	struct sampo_sample s = full_sample();

	assert_int_equal(ev->attr_idx, 0);
	assert_int_equal(ev->record->header.misc, SAMPO_CPUMODE_USER | SAMPO_MISC_EXACT_IP);
	assert_int_equal(got->id, s.id);
	assert_int_equal(got->ip, s.ip);
	assert_int_equal(got->pid, s.pid);
	assert_int_equal(got->tid, s.tid);
	assert_int_equal(got->time, s.time);
	assert_int_equal(got->addr, s.addr);
	assert_int_equal(got->stream_id, s.stream_id);
	assert_int_equal(got->cpu, s.cpu);
	assert_int_equal(got->period, s.period);
	assert_int_equal(got->read_nr_words, s.read_nr_words);
	assert_memory_equal(got->read_values, read_words, sizeof(read_words));
	assert_int_equal(got->callchain_nr, 5);
	assert_memory_equal(got->callchain, chain, sizeof(chain));
	/* the kernel's RAW size counts the padding that keeps the record aligned */
	assert_int_equal(got->raw_size, 20);
	assert_memory_equal(got->raw_data, raw, sizeof(raw));
	assert_int_equal(got->branch_nr, 2);
	assert_true(got->branch_has_hw_idx);
	assert_int_equal(got->branch_hw_idx, 9);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(got->branch[i].from, branches[i].from);
		assert_int_equal(got->branch[i].to, branches[i].to);
		/* the reader mirrors the flag bitfields back, as perf does */
		assert_int_equal(got->branch[i].flags, branches[i].flags);
	}
	assert_int_equal(got->user_regs.abi, 2);
	assert_memory_equal(got->user_regs.regs, uregs, sizeof(uregs));
	assert_int_equal(got->user_stack_size, sizeof(ustack));
	/* stack and AUX bytes are opaque; the reader leaves them u64-swapped, as perf does */
	if (!swapped) {
		assert_memory_equal(got->user_stack, ustack, sizeof(ustack));
		assert_memory_equal(got->aux_data, aux, sizeof(aux));
	}
	assert_int_equal(got->user_stack_dyn_size, 12);
	assert_int_equal(got->weight, s.weight);
	assert_int_equal(got->ins_lat, s.ins_lat);
	assert_int_equal(got->p_stage_cyc, s.p_stage_cyc);
	assert_int_equal(got->data_src, s.data_src);
	assert_int_equal(got->transaction, s.transaction);
	assert_int_equal(got->intr_regs.abi, 2);
	assert_memory_equal(got->intr_regs.regs, iregs, sizeof(iregs));
	assert_int_equal(got->phys_addr, s.phys_addr);
	assert_int_equal(got->cgroup, s.cgroup);
	assert_int_equal(got->data_page_size, s.data_page_size);
	assert_int_equal(got->code_page_size, s.code_page_size);
	assert_int_equal(got->aux_size, sizeof(aux));
}

/* Payload of feature @feat; *size gets its size. */
static const uint8_t *feature(struct sampo_reader *r, int feat, size_t *size)
{
	const void *data = NULL;

	assert_true(sampo_reader__has_feature(r, feat));
	assert_int_equal(sampo_reader__feature(r, feat, &data, size), 0);
	return data;
}

static void check_features(struct sampo_reader *r, bool big, bool pipe)
{
	const uint8_t *p;
	size_t size;

	p = feature(r, SAMPO_FEAT_HOSTNAME, &size);
	assert_int_equal(size, 68);
	assert_int_equal(rd32(p, big), 64);
	assert_string_equal((const char *)p + 4, "vm");

	p = feature(r, SAMPO_FEAT_NRCPUS, &size);
	assert_int_equal(size, 8);
	assert_int_equal(rd32(p, big), 4);
	assert_int_equal(rd32(p + 4, big), 2);

	p = feature(r, SAMPO_FEAT_TOTAL_MEM, &size);
	assert_int_equal(size, 8);
	assert_int_equal(rd64(p, big), 123456);

	p = feature(r, SAMPO_FEAT_SAMPLE_TIME, &size);
	assert_int_equal(size, 16);
	assert_int_equal(rd64(p, big), 5000000000ULL);
	assert_int_equal(rd64(p + 8, big), 5000000999ULL);

	p = feature(r, SAMPO_FEAT_CMDLINE, &size);
	assert_int_equal(size, 4 + 3 * 68);
	assert_int_equal(rd32(p, big), 3);
	assert_string_equal((const char *)p + 8, "/usr/bin/perf");
	assert_string_equal((const char *)p + 4 + 68 + 4, "record");
	assert_string_equal((const char *)p + 4 + 2 * 68 + 4, "./prog");

	/* nr, attr_size, then per event: attr, nr_ids, name, ids */
	p = feature(r, SAMPO_FEAT_EVENT_DESC, &size);
	assert_int_equal(size, 8 + (128 + 4 + 68 + 16) + (128 + 4 + 68 + 8));
	assert_int_equal(rd32(p, big), 2);
	assert_int_equal(rd32(p + 4, big), 128);
	assert_int_equal(rd64(p + 8 + 24, big), ST_ALL);
	assert_int_equal(rd32(p + 8 + 128, big), 2);
	assert_string_equal((const char *)p + 8 + 128 + 8, "cycles");
	assert_int_equal(rd64(p + 8 + 128 + 72, big), 11);
	assert_int_equal(rd64(p + 8 + 128 + 80, big), 12);
	p += 8 + 128 + 4 + 68 + 16;
	assert_int_equal(rd64(p + 24, big), ST_SMALL);
	assert_string_equal((const char *)p + 128 + 8, "task-clock");

	if (!pipe) {
		p = feature(r, SAMPO_FEAT_BUILD_ID, &size);
		assert_int_equal(size, 100);
		assert_memory_equal(p + 12, mmap_bid, 20);
		assert_string_equal((const char *)p + 36, "/usr/bin/prog");
	}
}

static void round_trip(enum sampo_byte_order order, bool pipe)
{
	bool big = order == SAMPO_BYTE_ORDER_BIG;
	bool swapped = big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	const union sampo_record *rec;
	const struct sampo_reader_stats *stats;
	struct sampo_writer *w = open_writer(order, pipe);
	struct sampo_reader *r;
	struct sampo_event ev;

	write_everything(w, pipe);
	assert_int_equal(sampo_writer__close(w), 0);

	r = open_reader();
	assert_int_equal(sampo_reader__is_pipe(r), pipe);
	assert_int_equal(sampo_reader__needs_swap(r), swapped);
	if (!pipe)
		check_attrs(r);

	rec = next_rec(r, &ev);
	if (pipe)
		check_attrs(r); /* the HEADER_ATTRs have passed by now */
	assert_int_equal(rec->header.type, SAMPO_RECORD_ID_INDEX);
	assert_int_equal(rec->id_index.nr, 3);
	assert_int_equal(rec->id_index.entries[1].id, 12);
	assert_int_equal(rec->id_index.entries[1].cpu, 1);
	assert_int_equal(rec->id_index.entries[2].tid, 100);
	assert_int_equal(rec->id_index.entries[0].tid, (uint64_t)-1);

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_THREAD_MAP);
	assert_int_equal(rec->thread_map.nr, 2);
	assert_int_equal(rec->thread_map.entries[1].pid, 101);
	assert_string_equal(rec->thread_map.entries[1].comm, "worker");

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_CPU_MAP);
	assert_int_equal(rec->cpu_map.type, SAMPO_CPU_MAP_CPUS);
	{
		uint16_t v[4];

		memcpy(v, rec->cpu_map.data, sizeof(v));
		assert_int_equal(v[0], 3);
		assert_int_equal(v[1], 0);
		assert_int_equal(v[2], 2);
		assert_int_equal(v[3], 3);
	}

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_EVENT_UPDATE);
	assert_int_equal(rec->event_update.type, SAMPO_EVENT_UPDATE_UNIT);
	assert_int_equal(rec->event_update.id, 11);
	assert_string_equal((const char *)rec->event_update.data, "msec");

	rec = next_rec(r, &ev);
	assert_int_equal(rec->event_update.type, SAMPO_EVENT_UPDATE_SCALE);
	assert_int_equal(rec->event_update.id, 21);
	{
		/* perf does not swap the double; the reader hands it out in file order too */
		uint64_t bits;
		double scale;

		memcpy(&bits, rec->event_update.data, 8);
		if (swapped)
			bits = __builtin_bswap64(bits);
		memcpy(&scale, &bits, 8);
		assert_true(scale == 0.25);
	}

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_COMM);
	assert_int_equal(rec->header.misc, SAMPO_MISC_COMM_EXEC);
	assert_int_equal(rec->comm.pid, 100);
	assert_int_equal(rec->comm.tid, 100);
	assert_string_equal(rec->comm.comm, "prog");
	check_sid(&ev, 1, 100, 100, 10, 21, 1);

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_MMAP);
	assert_int_equal(rec->header.misc, SAMPO_CPUMODE_USER);
	assert_int_equal(rec->mmap.pid, 100);
	assert_int_equal(rec->mmap.tid, 101);
	assert_int_equal(rec->mmap.start, 0x400000);
	assert_int_equal(rec->mmap.len, 0x3000);
	assert_int_equal(rec->mmap.pgoff, 0x1000);
	assert_string_equal(rec->mmap.filename, "/usr/bin/prog");
	check_sid(&ev, 0, 100, 101, 11, 11, 0);

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_MMAP2);
	assert_int_equal(rec->header.misc, SAMPO_CPUMODE_USER);
	assert_int_equal(rec->mmap2.start, 0x400000);
	assert_int_equal(rec->mmap2.maj, 8);
	assert_int_equal(rec->mmap2.min, 1);
	assert_int_equal(rec->mmap2.ino, 123456789);
	assert_int_equal(rec->mmap2.ino_generation, 987654321);
	assert_int_equal(rec->mmap2.prot, 5);
	assert_int_equal(rec->mmap2.flags, 2);
	assert_string_equal(rec->mmap2.filename, "/usr/bin/prog");
	check_sid(&ev, 0, 100, 101, 12, 12, 1);

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_MMAP2);
	assert_int_equal(rec->header.misc, SAMPO_CPUMODE_USER | SAMPO_MISC_MMAP_BUILD_ID);
	assert_int_equal(rec->mmap2.build_id_size, 20);
	assert_memory_equal(rec->mmap2.build_id, mmap_bid, 20);
	assert_int_equal(rec->mmap2.pgoff, 0x1000);
	assert_int_equal(rec->mmap2.prot, 5);
	assert_string_equal(rec->mmap2.filename, "/usr/lib/libfoo.so");
	check_sid(&ev, 1, 100, 101, 13, 21, 2);

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_FORK);
	assert_int_equal(rec->fork.pid, 100);
	assert_int_equal(rec->fork.ppid, 100);
	assert_int_equal(rec->fork.tid, 102);
	assert_int_equal(rec->fork.ptid, 101);
	assert_int_equal(rec->fork.time, 14);
	check_sid(&ev, 0, 100, 102, 14, 11, 3);

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_FINISHED_INIT);
	assert_int_equal(rec->header.size, 8);

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_SAMPLE);
	check_full_sample(&ev, swapped);

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_SAMPLE);
	assert_int_equal(rec->header.misc, SAMPO_CPUMODE_KERNEL);
	assert_int_equal(ev.attr_idx, 1);
	assert_int_equal(ev.sample.id, 21);
	assert_int_equal(ev.sample.ip, 0xffffffff81000010ULL);
	assert_int_equal(ev.sample.pid, 100);
	assert_int_equal(ev.sample.tid, 102);
	assert_int_equal(ev.sample.time, 20);
	assert_int_equal(ev.sample.cpu, 1);
	assert_int_equal(ev.sample.period, 4000);

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_SWITCH_CPU_WIDE);
	assert_int_equal(rec->header.misc, SAMPO_MISC_SWITCH_OUT);
	assert_int_equal(rec->context_switch.next_prev_pid, 300);
	assert_int_equal(rec->context_switch.next_prev_tid, 301);
	check_sid(&ev, 1, 100, 102, 30, 21, 2);

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_EXIT);
	assert_int_equal(rec->fork.time, 40);
	check_sid(&ev, 0, 100, 102, 40, 11, 3);

	rec = next_rec(r, &ev);
	assert_int_equal(rec->header.type, SAMPO_RECORD_FINISHED_ROUND);

	assert_int_equal(sampo_reader__next(r, &ev), 0);
	stats = sampo_reader__stats(r);
	assert_int_equal(stats->nr_unknown_id, 0);
	assert_int_equal(stats->nr_unknown_type, 0);
	assert_int_equal(stats->nr_records[SAMPO_RECORD_SAMPLE], 2);
	assert_int_equal(stats->nr_records[SAMPO_RECORD_HEADER_ATTR], pipe ? 2 : 0);
	assert_int_equal(stats->nr_records[SAMPO_RECORD_HEADER_FEATURE], pipe ? 6 : 0);
	assert_int_equal(stats->nr_records[SAMPO_RECORD_HEADER_BUILD_ID], pipe ? 1 : 0);
	check_features(r, big, pipe);
	sampo_reader__close(r);
}

static void test_writer__round_trip_file_little_endian(void **state)
{
	(void)state;
	round_trip(SAMPO_BYTE_ORDER_LITTLE, false);
}

static void test_writer__round_trip_file_big_endian(void **state)
{
	(void)state;
	round_trip(SAMPO_BYTE_ORDER_BIG, false);
}

static void test_writer__round_trip_pipe_little_endian(void **state)
{
	(void)state;
	round_trip(SAMPO_BYTE_ORDER_LITTLE, true);
}

static void test_writer__round_trip_pipe_big_endian(void **state)
{
	(void)state;
	round_trip(SAMPO_BYTE_ORDER_BIG, true);
}

/* A VER8 attr (config3) and the HOST default byte order. */
static void test_writer__round_trip_attr_ver8_host_order(void **state)
{
	struct sampo_event_attr a = simple_attr();
	struct sampo_writer *w;
	struct sampo_reader *r;

	(void)state;
	a.size = SAMPO_ATTR_SIZE_VER8;
	a.config3 = 0x0102030405060708ULL;
	assert_int_equal(sampo_writer__open(path, NULL, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), 0);
	assert_int_equal(sampo_writer__close(w), 0);
	r = open_reader();
	assert_false(sampo_reader__needs_swap(r));
	assert_memory_equal(sampo_reader__attr(r, 0), &a, sizeof(a));
	sampo_reader__close(r);
}

/* Many records stream through the buffer: several flushes, exact data size. */
static void test_writer__streams_many_records(void **state)
{
	struct sampo_event_attr a = simple_attr();
	const unsigned nr = 100000;
	struct sampo_writer *w;
	struct sampo_reader *r;
	struct sampo_event ev;
	unsigned n = 0;

	(void)state;
	w = open_writer(SAMPO_BYTE_ORDER_BIG, false);
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), 0);
	for (unsigned i = 0; i < nr; i++) {
		struct sampo_sample s = { .ip = i, .pid = 1, .tid = 2, .time = i, .period = 1 };

		assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &s), 0);
	}
	assert_int_equal(sampo_writer__offset(w), 248 + (uint64_t)nr * 40);
	assert_int_equal(sampo_writer__close(w), 0);

	r = open_reader();
	assert_int_equal(sampo_reader__file_header(r)->data.size, (uint64_t)nr * 40);
	while (sampo_reader__next(r, &ev) == 1) {
		assert_int_equal(ev.sample.ip, n);
		assert_int_equal(ev.sample.tid, 2);
		n++;
	}
	assert_int_equal(n, nr);
	sampo_reader__close(r);
}

/* Samples in the file at @path as it is now; the writer may still be open. */
static unsigned count_samples(uint64_t *ret_data_size)
{
	struct sampo_reader *r = open_reader();
	struct sampo_event ev;
	unsigned n = 0;
	int ret;

	*ret_data_size = sampo_reader__file_header(r)->data.size;
	while ((ret = sampo_reader__next(r, &ev)) == 1) {
		if (ev.record->header.type == SAMPO_RECORD_SAMPLE) {
			assert_int_equal(ev.sample.ip, n);
			n++;
		}
	}
	assert_int_equal(ret, 0);
	sampo_reader__close(r);
	return n;
}

/*
 * keep_readable: the file on disk is a valid perf.data at each step, as a
 * recorder killed there would leave it: after the attrs (no data), after
 * each flush (the data so far and the features set so far), after close.
 */
static void keep_readable(enum sampo_byte_order order)
{
	SAMPO_OPTS(sampo_writer_opts, opts, .byte_order = order, .keep_readable = true);
	struct sampo_event_attr a = simple_attr();
	struct sampo_writer *w = NULL;
	struct sampo_reader *r;
	const uint8_t *p;
	uint64_t data_size;
	unsigned n = 0;
	size_t size;

	assert_int_equal(sampo_writer__open(path, &opts, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), 0);
	assert_int_equal(sampo_writer__set_feature_string(w, SAMPO_FEAT_HOSTNAME, "vm"), 0);
	assert_int_equal(sampo_writer__offset(w), 248); /* the attrs are out */
	assert_int_equal(count_samples(&data_size), 0);
	assert_int_equal(data_size, 0);

	for (unsigned round = 0; round < 4; round++) {
		/* round 2 spans several automatic flushes of the 256 KiB buffer */
		unsigned nr = round == 2 ? 20000 : 10;

		for (unsigned i = 0; i < nr; i++, n++) {
			struct sampo_sample s = { .ip = n, .pid = 1, .tid = 2, .time = n };

			assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &s), 0);
		}
		/* not flushed yet (round 2: all but the last part): not claimed */
		assert_true(count_samples(&data_size) < n);
		assert_int_equal(sampo_writer__flush(w), 0);
		assert_int_equal(count_samples(&data_size), n);
		assert_int_equal(data_size, (uint64_t)n * 40);
		r = open_reader();
		p = feature(r, SAMPO_FEAT_HOSTNAME, &size);
		assert_int_equal(size, 68);
		assert_string_equal((const char *)p + 4, "vm");
		assert_false(sampo_reader__has_feature(r, SAMPO_FEAT_NRCPUS));
		sampo_reader__close(r);
		if (round == 1) /* a feature set later joins the next flush's table */
			assert_int_equal(sampo_writer__set_feature_string(w, SAMPO_FEAT_OSRELEASE,
									  "6.1"), 0);
		if (round == 3) {
			r = open_reader();
			assert_true(sampo_reader__has_feature(r, SAMPO_FEAT_OSRELEASE));
			sampo_reader__close(r);
		}
	}

	assert_int_equal(sampo_writer__set_feature_u32s(w, SAMPO_FEAT_NRCPUS,
							(const uint32_t[]){ 4, 2 }, 2),
			 0);
	assert_int_equal(sampo_writer__close(w), 0);
	assert_int_equal(count_samples(&data_size), n);
	r = open_reader();
	assert_true(sampo_reader__has_feature(r, SAMPO_FEAT_HOSTNAME));
	assert_true(sampo_reader__has_feature(r, SAMPO_FEAT_OSRELEASE));
	assert_true(sampo_reader__has_feature(r, SAMPO_FEAT_NRCPUS));
	sampo_reader__close(r);
}

static void test_writer__keep_readable_little_endian(void **state)
{
	(void)state;
	keep_readable(SAMPO_BYTE_ORDER_LITTLE);
}

static void test_writer__keep_readable_big_endian(void **state)
{
	(void)state;
	keep_readable(SAMPO_BYTE_ORDER_BIG);
}

/* ---- errors --------------------------------------------------------------- */

static void test_writer__enospc_is_returned_and_sticky(void **state)
{
	struct sampo_event_attr a = simple_attr();
	struct sampo_writer *w;
	int fd, err = 0;

	(void)state;
	fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		skip();
	assert_int_equal(sampo_writer__open_fd(fd, NULL, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), 0);
	/* the buffer fills, the flush fails */
	for (unsigned i = 0; i < 100000 && !err; i++)
		err = sampo_writer__write_finished_round(w);
	assert_int_equal(err, -ENOSPC);
	assert_int_equal(sampo_writer__write_finished_round(w), -ENOSPC);
	assert_int_equal(sampo_writer__set_feature_string(w, SAMPO_FEAT_HOSTNAME, "x"), -ENOSPC);
	assert_int_equal(sampo_writer__close(w), -ENOSPC);
	close(fd);

	/* nothing written before close: close reports it */
	fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
	assert_int_equal(sampo_writer__open_fd(fd, NULL, &w), 0);
	assert_int_equal(sampo_writer__close(w), -ENOSPC);
	close(fd);
}

static void test_writer__epipe_does_not_kill(void **state)
{
	struct sampo_event_attr a = simple_attr();
	SAMPO_OPTS(sampo_writer_opts, opts, .pipe = true);
	struct sampo_writer *w;
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	assert_int_equal(sampo_writer__open_fd(fds[1], &opts, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), 0);
	assert_int_equal(sampo_writer__flush(w), -EPIPE);
	assert_int_equal(sampo_writer__write_finished_round(w), -EPIPE);
	assert_int_equal(sampo_writer__close(w), -EPIPE);
	close(fds[1]);
}

static void test_writer__ebadf(void **state)
{
	SAMPO_OPTS(sampo_writer_opts, opts, .pipe = true);
	struct sampo_writer *w;
	int fds[2];

	(void)state;
	assert_int_equal(sampo_writer__open_fd(-1, &opts, &w), -EINVAL);
	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	close(fds[1]);
	assert_int_equal(sampo_writer__open_fd(fds[1], &opts, &w), -EBADF);

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(sampo_writer__open_fd(fds[1], &opts, &w), 0);
	close(fds[1]); /* behind the writer's back */
	assert_int_equal(sampo_writer__write_finished_round(w), 0); /* buffered */
	assert_int_equal(sampo_writer__close(w), -EBADF);
	close(fds[0]);
}

static void test_writer__file_mode_needs_seekable_fd(void **state)
{
	struct sampo_writer *w;
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(sampo_writer__open_fd(fds[1], NULL, &w), -ESPIPE);
	close(fds[0]);
	close(fds[1]);
}

static void test_writer__refuses_oversized_records(void **state)
{
	struct sampo_event_attr a = simple_attr();
	struct sampo_writer *w;
	struct sampo_sample s = { 0 };
	uint64_t *ips;
	char *name;

	(void)state;
	a.sample_type |= SAMPO_SAMPLE_CALLCHAIN;
	w = open_writer(SAMPO_BYTE_ORDER_LITTLE, false);
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), 0);

	name = malloc(70000);
	assert_non_null(name);
	memset(name, 'x', 69999);
	name[69999] = '\0';
	assert_int_equal(sampo_writer__write_comm(w, 1, 1, name, false, NULL), -EINVAL);
	/* 16 (header, pid, tid) + name padded to 8 + 16 (trailer: TID, TIME) */
	name[65496] = '\0'; /* 16 + 65504 + 16 = 65536: one byte too many */
	assert_int_equal(sampo_writer__write_comm(w, 1, 1, name, false, NULL), -EINVAL);
	name[65495] = '\0'; /* 16 + 65496 + 16 = 65528: fits */
	assert_int_equal(sampo_writer__write_comm(w, 1, 1, name, false, NULL), 0);
	free(name);

	ips = calloc(9000, sizeof(*ips));
	assert_non_null(ips);
	s.callchain = ips;
	s.callchain_nr = 9000;
	assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &s), -EINVAL);
	s.callchain_nr = 8000;
	assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &s), 0);
	free(ips);

	/* not sticky: the writer goes on */
	assert_int_equal(sampo_writer__write_finished_round(w), 0);
	assert_int_equal(sampo_writer__close(w), 0);
}

static void test_writer__rejects_bad_arguments(void **state)
{
	struct sampo_event_attr a = simple_attr();
	struct {
		struct sampo_writer_opts o;
		uint64_t future;
	} big_opts = { .o = { .sz = sizeof(big_opts) }, .future = 1 };
	struct sampo_writer *w = NULL;
	union sampo_record rec = { .header = { .type = SAMPO_RECORD_MMAP, .size = 24 } };
	struct sampo_sample s = { 0 };

	(void)state;
	assert_int_equal(sampo_writer__open(path, &big_opts.o, &w), -EINVAL);
	big_opts.future = 0;
	assert_int_equal(sampo_writer__open(path, &big_opts.o, &w), 0);

	a.size = 100; /* not a multiple of 8 */
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), -EINVAL);
	a.size = 0;
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), 0);
	a.size = SAMPO_ATTR_SIZE_VER8; /* file mode: one size for all */
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), -EINVAL);
	assert_int_equal(sampo_writer__write_sample(w, 1, 0, &s), -EINVAL);
	assert_int_equal(sampo_writer__write_record(w, &rec), -EINVAL); /* MMAP of 24 bytes */
	rec.header.size = 4;
	assert_int_equal(sampo_writer__write_record(w, &rec), -EINVAL);
	assert_int_equal(sampo_writer__set_feature(w, 0, "x", 1), -EINVAL);
	assert_int_equal(sampo_writer__set_feature(w, 256, "x", 1), -EINVAL);
	assert_int_equal(sampo_writer__add_build_id(w, 2, -1, (const uint8_t *)"x", 21, "f"),
			 -EINVAL);
	assert_int_equal(sampo_writer__write_finished_round(w), 0);
	a.size = 0;
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), -EBUSY);
	assert_int_equal(sampo_writer__close(w), 0);
	assert_int_equal(sampo_writer__close(NULL), 0);
}

/* What the buffer does not hold yet must not be visible; close makes it whole. */
static void test_writer__raw_bytes_and_offset(void **state)
{
	static const uint8_t junk[5] = { 0xff, 0xfe, 0xfd, 0xfc, 0xfb };
	struct sampo_writer *w;
	size_t len;
	uint8_t *b;

	(void)state;
	w = open_writer(SAMPO_BYTE_ORDER_LITTLE, true);
	assert_int_equal(sampo_writer__offset(w), 0);
	assert_int_equal(sampo_writer__write_raw(w, junk, sizeof(junk)), 0);
	assert_int_equal(sampo_writer__offset(w), 5);
	assert_int_equal(sampo_writer__close(w), 0);
	b = slurp(path, &len);
	assert_int_equal(len, 16 + 5);
	assert_memory_equal(b, "PERFILE2", 8);
	assert_int_equal(rd64(b + 8, false), 16);
	assert_memory_equal(b + 16, junk, 5);
	free(b);
}

/*
 * -o in a world-writable sticky directory (as /tmp): a symlink planted there,
 * dangling or not, is never followed, nor a hard link truncated; the user's
 * own regular file is reused. In a private directory symlinks are followed,
 * as perf does.
 */
static void test_writer__no_links_followed_in_shared_dir(void **state)
{
	char shared[300], out[400], target[400], priv[400];
	struct sampo_writer *w = NULL;
	struct stat st;
	uint8_t *b;
	size_t len;
	int fd;

	(void)state;
	snprintf(shared, sizeof(shared), "%s/sticky", tmpdir);
	assert_int_equal(mkdir(shared, 0700), 0);
	assert_int_equal(chmod(shared, 01777), 0);
	snprintf(out, sizeof(out), "%s/perf.data", shared);
	snprintf(target, sizeof(target), "%s/chosen-by-someone-else", tmpdir);

	/* dangling: nothing is created at its target */
	assert_int_equal(symlink(target, out), 0);
	assert_int_equal(sampo_writer__open(out, NULL, &w), -ELOOP);
	assert_int_not_equal(lstat(target, &st), 0);

	/* to an existing file: the file is not truncated */
	fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep me\n", 8), 8);
	assert_int_equal(close(fd), 0);
	assert_int_equal(sampo_writer__open(out, NULL, &w), -ELOOP);
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_size, 8);
	assert_int_equal(unlink(out), 0);

	/* a hard link to a file of ours: not truncated either */
	assert_int_equal(link(target, out), 0);
	assert_int_equal(sampo_writer__open(out, NULL, &w), -EEXIST);
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_size, 8);
	assert_int_equal(unlink(out), 0);

	/* a FIFO there: refused at once */
	assert_int_equal(mkfifo(out, 0600), 0);
	assert_int_equal(sampo_writer__open(out, NULL, &w), -EEXIST);
	assert_int_equal(unlink(out), 0);

	/* a new file, then our own file again: written, 0600 */
	for (int i = 0; i < 2; i++) {
		assert_int_equal(sampo_writer__open(out, NULL, &w), 0);
		assert_int_equal(sampo_writer__close(w), 0);
		assert_int_equal(lstat(out, &st), 0);
		assert_true(S_ISREG(st.st_mode));
		assert_int_equal(st.st_mode & 07777, 0600);
		b = slurp(out, &len);
		assert_memory_equal(b, "PERFILE2", 8);
		free(b);
	}
	assert_int_equal(unlink(out), 0);

	/* the user's own directory: a symlink is followed, as perf does */
	snprintf(priv, sizeof(priv), "%s/mine.data", tmpdir);
	assert_int_equal(symlink(target, priv), 0);
	assert_int_equal(sampo_writer__open(priv, NULL, &w), 0);
	assert_int_equal(sampo_writer__close(w), 0);
	b = slurp(target, &len);
	assert_memory_equal(b, "PERFILE2", 8);
	free(b);
	assert_int_equal(unlink(priv), 0);
	assert_int_equal(unlink(target), 0);
	assert_int_equal(rmdir(shared), 0);
}

static int setup(void **state)
{
	(void)state;
	sampo_set_print(quiet);
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(path, sizeof(path), "%s/perf.data", tmpdir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	(void)unlink(path);
	(void)rmdir(tmpdir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writer__file_layout_little_endian),
		cmocka_unit_test(test_writer__file_layout_big_endian),
		cmocka_unit_test(test_writer__attr_flags_bitfield_big_endian),
		cmocka_unit_test(test_writer__build_id_entry_layout),
		cmocka_unit_test(test_writer__round_trip_file_little_endian),
		cmocka_unit_test(test_writer__round_trip_file_big_endian),
		cmocka_unit_test(test_writer__round_trip_pipe_little_endian),
		cmocka_unit_test(test_writer__round_trip_pipe_big_endian),
		cmocka_unit_test(test_writer__round_trip_attr_ver8_host_order),
		cmocka_unit_test(test_writer__streams_many_records),
		cmocka_unit_test(test_writer__keep_readable_little_endian),
		cmocka_unit_test(test_writer__keep_readable_big_endian),
		cmocka_unit_test(test_writer__enospc_is_returned_and_sticky),
		cmocka_unit_test(test_writer__epipe_does_not_kill),
		cmocka_unit_test(test_writer__ebadf),
		cmocka_unit_test(test_writer__file_mode_needs_seekable_fd),
		cmocka_unit_test(test_writer__refuses_oversized_records),
		cmocka_unit_test(test_writer__rejects_bad_arguments),
		cmocka_unit_test(test_writer__raw_bytes_and_offset),
		cmocka_unit_test(test_writer__no_links_followed_in_shared_dir),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
