// SPDX-License-Identifier: GPL-2.0
/*
 * test-record.c - the per-record-type description of lib/record.c, through
 * the writer and the reader: every record type written in both byte orders
 * and read back (perf's swap quirks included), minimum sizes, truncated and
 * oversized records, fields by name and cpu map decoding.
 *
 * Each case builds a host-order record; the writer converts it, the reader
 * swaps it back. What must come back is the record itself, except where perf
 * 6.1 swaps otherwise (KSYMBOL and BPF_EVENT not at all, EVENT_UPDATE's
 * payload not at all, TIME_CONV as u64s, so its u8 caps come out reversed).
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/common.h>
#include <sampo/reader.h>
#include <sampo/record.h>
#include <sampo/writer.h>
#include "internal/record.h"

#define ATTR_ID 4242
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* What the reader hands back from a big-endian file. */
enum expect {
	EXPECT_SAME,	     /* the record as written */
	EXPECT_FILE_ORDER,   /* body and trailer in the file's order: perf does not swap it */
	EXPECT_CAPS_REVERSED, /* TIME_CONV: the u64 holding the caps is byte-reversed */
	EXPECT_TAIL_FILE_ORDER, /* EVENT_UPDATE: type and id swapped, the payload not */
};

struct rcase {
	const char *what;
	uint64_t buf[64]; /* the host-order record; kernel records get a trailer */
	enum expect expect;
};

/* The attr every record belongs to: its sample_id trailer is tid, time, id, cpu. */
static struct sampo_event_attr test_attr(void)
{
	struct sampo_event_attr a = {
		.type = SAMPO_TYPE_SOFTWARE,
		.size = SAMPO_ATTR_SIZE_VER7,
		.sample_period = 1000,
		.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME |
			       SAMPO_SAMPLE_ID | SAMPO_SAMPLE_CPU | SAMPO_SAMPLE_PERIOD,
		.read_format = SAMPO_FORMAT_TOTAL_TIME_ENABLED | SAMPO_FORMAT_ID,
		.flags = SAMPO_ATTR_SAMPLE_ID_ALL | SAMPO_ATTR_DISABLED |
			 (2ULL << SAMPO_ATTR_PRECISE_IP_SHIFT),
	};

	return a;
}

#define TRAILER_SIZE 32 /* tid pair, time, id, cpu pair */
#define TRAILER_TIME 0x1122334455667788ULL

static void put(void *rec, size_t off, const void *v, size_t n)
{
	memcpy((uint8_t *)rec + off, v, n);
}

static void put16(void *rec, size_t off, uint16_t v)
{
	put(rec, off, &v, 2);
}

static void put32(void *rec, size_t off, uint32_t v)
{
	put(rec, off, &v, 4);
}

static void put64(void *rec, size_t off, uint64_t v)
{
	put(rec, off, &v, 8);
}

/* Start case @c as a record of @type; fill the body, then finish(). */
static union sampo_record *start(struct rcase *c, const char *what, uint32_t type, uint16_t misc)
{
	union sampo_record *r = (union sampo_record *)c->buf;

	memset(c, 0, sizeof(*c));
	c->what = what;
	r->header.type = type;
	r->header.misc = misc;
	return r;
}

/* @body bytes (header included, rounded up to 8), then the trailer of a kernel record. */
static void finish(struct rcase *c, size_t body)
{
	union sampo_record *r = (union sampo_record *)c->buf;
	uint8_t *p = (uint8_t *)c->buf;

	body = (body + 7) & ~(size_t)7;
	if (r->header.type < SAMPO_RECORD_KERNEL_MAX) {
		put32(p, body, 100);	       /* pid */
		put32(p, body + 4, 101);       /* tid */
		put64(p, body + 8, TRAILER_TIME);
		put64(p, body + 16, ATTR_ID);
		put32(p, body + 24, 3); /* cpu */
		body += TRAILER_SIZE;
	}
	assert_true(body <= sizeof(c->buf));
	r->header.size = (uint16_t)body;
}

static size_t build_cases(struct rcase *cs)
{
	struct sampo_record_header hdr; /* copied out: a union member is not assigned from another */
	struct rcase *c = cs;
	union sampo_record *r;

	r = start(c, "MMAP", SAMPO_RECORD_MMAP, SAMPO_CPUMODE_USER);
	r->mmap.pid = 10;
	r->mmap.tid = 11;
	r->mmap.start = 0x400000;
	r->mmap.len = 0x1000;
	r->mmap.pgoff = 0x2000;
	strcpy(r->mmap.filename, "/usr/bin/true");
	finish(c++, sizeof(r->mmap) + sizeof("/usr/bin/true"));

	r = start(c, "LOST", SAMPO_RECORD_LOST, 0);
	r->lost.id = ATTR_ID;
	r->lost.lost = 77;
	finish(c++, sizeof(r->lost));

	r = start(c, "COMM", SAMPO_RECORD_COMM, 0);
	r->comm.pid = 10;
	r->comm.tid = 12;
	strcpy(r->comm.comm, "worker");
	finish(c++, sizeof(r->comm) + sizeof("worker"));

	r = start(c, "EXIT", SAMPO_RECORD_EXIT, 0);
	hdr = r->header;
	r->fork = (struct sampo_record_fork){ hdr, 10, 1, 12, 1, 555 };
	finish(c++, sizeof(r->fork));

	r = start(c, "THROTTLE", SAMPO_RECORD_THROTTLE, 0);
	r->throttle.time = 5;
	r->throttle.id = ATTR_ID;
	r->throttle.stream_id = 9;
	finish(c++, sizeof(r->throttle));

	r = start(c, "UNTHROTTLE", SAMPO_RECORD_UNTHROTTLE, 0);
	r->throttle.time = 6;
	r->throttle.id = ATTR_ID;
	r->throttle.stream_id = 9;
	finish(c++, sizeof(r->throttle));

	r = start(c, "FORK", SAMPO_RECORD_FORK, 0);
	hdr = r->header;
	r->fork = (struct sampo_record_fork){ hdr, 13, 10, 13, 12, 556 };
	finish(c++, sizeof(r->fork));

	r = start(c, "READ", SAMPO_RECORD_READ, 0);
	r->read.pid = 10;
	r->read.tid = 12;
	for (int i = 0; i < SAMPO_READ_NR_VALUES; i++)
		r->read.values[i] = 1000 + (uint64_t)i;
	finish(c++, sizeof(r->read) + 8 * SAMPO_READ_NR_VALUES);

	r = start(c, "MMAP2", SAMPO_RECORD_MMAP2, SAMPO_CPUMODE_USER);
	r->mmap2.pid = 10;
	r->mmap2.tid = 11;
	r->mmap2.start = 0x7f0000000000;
	r->mmap2.len = 0x21000;
	r->mmap2.pgoff = 0x1000;
	r->mmap2.maj = 8;
	r->mmap2.min = 1;
	r->mmap2.ino = 123456;
	r->mmap2.ino_generation = 7;
	r->mmap2.prot = 5;
	r->mmap2.flags = 2;
	strcpy(r->mmap2.filename, "/usr/lib/libc.so.6");
	finish(c++, sizeof(r->mmap2) + sizeof("/usr/lib/libc.so.6"));

	r = start(c, "MMAP2 with a build-id", SAMPO_RECORD_MMAP2,
		  SAMPO_CPUMODE_USER | SAMPO_MISC_MMAP_BUILD_ID);
	r->mmap2.pid = 10;
	r->mmap2.tid = 11;
	r->mmap2.start = 0x7f0000100000;
	r->mmap2.len = 0x1000;
	r->mmap2.build_id_size = 20;
	for (int i = 0; i < 20; i++)
		r->mmap2.build_id[i] = (uint8_t)(0xa0 + i);
	r->mmap2.prot = 5;
	r->mmap2.flags = 2;
	strcpy(r->mmap2.filename, "/usr/lib/libm.so.6");
	finish(c++, sizeof(r->mmap2) + sizeof("/usr/lib/libm.so.6"));

	r = start(c, "AUX", SAMPO_RECORD_AUX, 0);
	r->aux.aux_offset = 0x100;
	r->aux.aux_size = 0x200;
	r->aux.flags = 3;
	finish(c++, sizeof(r->aux));

	r = start(c, "ITRACE_START", SAMPO_RECORD_ITRACE_START, 0);
	r->itrace_start.pid = 10;
	r->itrace_start.tid = 11;
	finish(c++, sizeof(r->itrace_start));

	r = start(c, "LOST_SAMPLES", SAMPO_RECORD_LOST_SAMPLES, 0);
	r->lost_samples.lost = 31;
	finish(c++, sizeof(r->lost_samples));

	r = start(c, "SWITCH", SAMPO_RECORD_SWITCH, SAMPO_MISC_SWITCH_OUT);
	finish(c++, sizeof(r->header));

	r = start(c, "SWITCH_CPU_WIDE", SAMPO_RECORD_SWITCH_CPU_WIDE, 0);
	r->context_switch.next_prev_pid = 20;
	r->context_switch.next_prev_tid = 21;
	finish(c++, sizeof(r->context_switch));

	r = start(c, "NAMESPACES", SAMPO_RECORD_NAMESPACES, 0);
	r->namespaces.pid = 10;
	r->namespaces.tid = 11;
	r->namespaces.nr_namespaces = 2;
	r->namespaces.link_info[0] = (struct sampo_ns_link_info){ 4, 0xf0000001 };
	r->namespaces.link_info[1] = (struct sampo_ns_link_info){ 4, 0xf0000002 };
	finish(c++, sizeof(r->namespaces) + 2 * sizeof(struct sampo_ns_link_info));

	r = start(c, "KSYMBOL", SAMPO_RECORD_KSYMBOL, 0);
	r->ksymbol.addr = 0xffffffffc0001000;
	r->ksymbol.len = 0x80;
	r->ksymbol.ksym_type = SAMPO_KSYMBOL_TYPE_BPF;
	r->ksymbol.flags = 0;
	strcpy(r->ksymbol.name, "bpf_prog_1234_x");
	finish(c++, sizeof(r->ksymbol) + sizeof("bpf_prog_1234_x"));
	c[-1].expect = EXPECT_FILE_ORDER;

	r = start(c, "BPF_EVENT", SAMPO_RECORD_BPF_EVENT, 0);
	r->bpf.type = 1;
	r->bpf.flags = 0;
	r->bpf.id = 99;
	memcpy(r->bpf.tag, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	finish(c++, sizeof(r->bpf));
	c[-1].expect = EXPECT_FILE_ORDER;

	r = start(c, "CGROUP", SAMPO_RECORD_CGROUP, 0);
	r->cgroup.id = 0x1234;
	strcpy(r->cgroup.path, "/sys/fs/cgroup/x");
	finish(c++, sizeof(r->cgroup) + sizeof("/sys/fs/cgroup/x"));

	r = start(c, "TEXT_POKE", SAMPO_RECORD_TEXT_POKE, SAMPO_CPUMODE_KERNEL);
	r->text_poke.addr = 0xffffffff81000200;
	r->text_poke.old_len = 3;
	r->text_poke.new_len = 5;
	memcpy(r->text_poke.bytes, "\x90\x90\x90\xe9\x01\x02\x03\x04", 8);
	finish(c++, offsetof(struct sampo_record_text_poke, bytes) + 8);

	r = start(c, "AUX_OUTPUT_HW_ID", SAMPO_RECORD_AUX_OUTPUT_HW_ID, 0);
	r->aux_output_hw_id.hw_id = 0x55;
	finish(c++, sizeof(r->aux_output_hw_id));

	r = start(c, "EVENT_TYPE", SAMPO_RECORD_HEADER_EVENT_TYPE, 0);
	r->event_type.event_id = 17;
	strcpy(r->event_type.name, "cycles");
	finish(c++, sizeof(r->event_type));

	r = start(c, "TRACING_DATA", SAMPO_RECORD_HEADER_TRACING_DATA, 0);
	r->tracing_data.size = 0; /* no payload follows */
	finish(c++, sizeof(r->tracing_data));

	r = start(c, "BUILD_ID", SAMPO_RECORD_HEADER_BUILD_ID,
		  SAMPO_CPUMODE_USER | SAMPO_MISC_BUILD_ID_SIZE);
	r->build_id.pid = -1;
	for (int i = 0; i < 20; i++)
		r->build_id.build_id[i] = (uint8_t)i;
	r->build_id.build_id[20] = 20;
	strcpy(r->build_id.filename, "/usr/bin/true");
	finish(c++, sizeof(r->build_id) + SAMPO_NAME_ALIGN);

	r = start(c, "FINISHED_ROUND", SAMPO_RECORD_FINISHED_ROUND, 0);
	finish(c++, sizeof(r->header));

	r = start(c, "ID_INDEX", SAMPO_RECORD_ID_INDEX, 0);
	r->id_index.nr = 1;
	r->id_index.entries[0] = (struct sampo_id_index_entry){ ATTR_ID, 0, 3, 12 };
	finish(c++, sizeof(r->id_index) + sizeof(struct sampo_id_index_entry));

	r = start(c, "AUXTRACE_INFO", SAMPO_RECORD_AUXTRACE_INFO, 0);
	r->auxtrace_info.type = 4;
	r->auxtrace_info.priv[0] = 0x1111;
	r->auxtrace_info.priv[1] = 0x2222;
	finish(c++, sizeof(r->auxtrace_info) + 16);

	r = start(c, "AUXTRACE", SAMPO_RECORD_AUXTRACE, 0);
	r->auxtrace.size = 0; /* no AUX data follow */
	r->auxtrace.offset = 0x40;
	r->auxtrace.reference = 0xabcdef;
	r->auxtrace.idx = 1;
	r->auxtrace.tid = 12;
	r->auxtrace.cpu = 3;
	finish(c++, sizeof(r->auxtrace));

	r = start(c, "AUXTRACE_ERROR", SAMPO_RECORD_AUXTRACE_ERROR, 0);
	r->auxtrace_error.type = 1;
	r->auxtrace_error.code = 2;
	r->auxtrace_error.cpu = 3;
	r->auxtrace_error.pid = 10;
	r->auxtrace_error.tid = 11;
	r->auxtrace_error.fmt = 2;
	r->auxtrace_error.ip = 0x401000;
	r->auxtrace_error.time = 777;
	strcpy(r->auxtrace_error.msg, "lost sync");
	r->auxtrace_error.machine_pid = 5;
	r->auxtrace_error.vcpu = 1;
	finish(c++, sizeof(r->auxtrace_error));

	r = start(c, "AUXTRACE_ERROR fmt 1", SAMPO_RECORD_AUXTRACE_ERROR, 0);
	r->auxtrace_error.fmt = 1;
	r->auxtrace_error.ip = 0x401000;
	r->auxtrace_error.time = 778;
	finish(c++, offsetof(struct sampo_record_auxtrace_error, msg));

	r = start(c, "THREAD_MAP", SAMPO_RECORD_THREAD_MAP, 0);
	r->thread_map.nr = 2;
	r->thread_map.entries[0].pid = 10;
	strcpy(r->thread_map.entries[0].comm, "main");
	r->thread_map.entries[1].pid = 11;
	strcpy(r->thread_map.entries[1].comm, "helper");
	finish(c++, sizeof(r->thread_map) + 2 * sizeof(struct sampo_thread_map_entry));

	r = start(c, "CPU_MAP cpus", SAMPO_RECORD_CPU_MAP, 0);
	r->cpu_map.type = SAMPO_CPU_MAP_CPUS;
	put16(&r->cpu_map.type, SAMPO_CPU_MAP_CPUS_NR, 3);
	put16(&r->cpu_map.type, SAMPO_CPU_MAP_CPUS_CPU, 0);
	put16(&r->cpu_map.type, SAMPO_CPU_MAP_CPUS_CPU + 2, 2);
	put16(&r->cpu_map.type, SAMPO_CPU_MAP_CPUS_CPU + 4, 3);
	finish(c++, offsetof(struct sampo_record_cpu_map, type) + SAMPO_CPU_MAP_CPUS_CPU + 6);

	r = start(c, "CPU_MAP 64-bit mask", SAMPO_RECORD_CPU_MAP, 0);
	r->cpu_map.type = SAMPO_CPU_MAP_MASK;
	put16(&r->cpu_map.type, SAMPO_CPU_MAP_MASK_NR, 2);
	put16(&r->cpu_map.type, SAMPO_CPU_MAP_MASK_LONG_SIZE, 8);
	put64(&r->cpu_map.type, SAMPO_CPU_MAP_MASK_WORDS64, 0x8000000000000005ULL);
	put64(&r->cpu_map.type, SAMPO_CPU_MAP_MASK_WORDS64 + 8, 0x2);
	finish(c++, offsetof(struct sampo_record_cpu_map, type) + SAMPO_CPU_MAP_MASK_WORDS64 + 16);

	r = start(c, "CPU_MAP 32-bit mask", SAMPO_RECORD_CPU_MAP, 0);
	r->cpu_map.type = SAMPO_CPU_MAP_MASK;
	put16(&r->cpu_map.type, SAMPO_CPU_MAP_MASK_NR, 1);
	put16(&r->cpu_map.type, SAMPO_CPU_MAP_MASK_LONG_SIZE, 4);
	put32(&r->cpu_map.type, SAMPO_CPU_MAP_MASK_WORDS32, 0x80000003U);
	finish(c++, offsetof(struct sampo_record_cpu_map, type) + SAMPO_CPU_MAP_MASK_WORDS32 + 4);

	r = start(c, "CPU_MAP range", SAMPO_RECORD_CPU_MAP, 0);
	r->cpu_map.type = SAMPO_CPU_MAP_RANGE_CPUS;
	put(&r->cpu_map.type, SAMPO_CPU_MAP_RANGE_ANY, &(uint8_t){ 1 }, 1);
	put16(&r->cpu_map.type, SAMPO_CPU_MAP_RANGE_START, 4);
	put16(&r->cpu_map.type, SAMPO_CPU_MAP_RANGE_END, 7);
	finish(c++, offsetof(struct sampo_record_cpu_map, type) + SAMPO_CPU_MAP_RANGE_SIZE);

	r = start(c, "STAT_CONFIG", SAMPO_RECORD_STAT_CONFIG, 0);
	r->stat_config.nr = 2;
	r->stat_config.data[0] = (struct sampo_stat_config_entry){ 0, 1 };
	r->stat_config.data[1] = (struct sampo_stat_config_entry){ 1, 1000 };
	finish(c++, sizeof(r->stat_config) + 2 * sizeof(struct sampo_stat_config_entry));

	r = start(c, "STAT", SAMPO_RECORD_STAT, 0);
	hdr = r->header;
	r->stat = (struct sampo_record_stat){ hdr, ATTR_ID, 3, 0, 500, 600, 700 };
	finish(c++, sizeof(r->stat));

	r = start(c, "STAT_ROUND", SAMPO_RECORD_STAT_ROUND, 0);
	r->stat_round.type = 1;
	r->stat_round.time = 123;
	finish(c++, sizeof(r->stat_round));

	r = start(c, "EVENT_UPDATE name", SAMPO_RECORD_EVENT_UPDATE, 0);
	r->event_update.type = SAMPO_EVENT_UPDATE_NAME;
	r->event_update.id = ATTR_ID;
	strcpy((char *)r->event_update.data, "renamed");
	finish(c++, sizeof(r->event_update) + 8);

	r = start(c, "EVENT_UPDATE scale", SAMPO_RECORD_EVENT_UPDATE, 0);
	r->event_update.type = SAMPO_EVENT_UPDATE_SCALE;
	r->event_update.id = ATTR_ID;
	put(r->event_update.data, 0, &(double){ 0.5 }, sizeof(double));
	finish(c++, sizeof(r->event_update) + sizeof(double));
	c[-1].expect = EXPECT_TAIL_FILE_ORDER;

	r = start(c, "EVENT_UPDATE cpus", SAMPO_RECORD_EVENT_UPDATE, 0);
	r->event_update.type = SAMPO_EVENT_UPDATE_CPUS;
	r->event_update.id = ATTR_ID;
	put16(r->event_update.data, SAMPO_CPU_MAP_TYPE, SAMPO_CPU_MAP_CPUS);
	put16(r->event_update.data, SAMPO_CPU_MAP_CPUS_NR, 1);
	put16(r->event_update.data, SAMPO_CPU_MAP_CPUS_CPU, 6);
	finish(c++, sizeof(r->event_update) + SAMPO_CPU_MAP_CPUS_CPU + 2);
	c[-1].expect = EXPECT_TAIL_FILE_ORDER;

	r = start(c, "TIME_CONV", SAMPO_RECORD_TIME_CONV, 0);
	r->time_conv.time_shift = 31;
	r->time_conv.time_mult = 0x12345;
	r->time_conv.time_zero = 0xfff;
	r->time_conv.time_cycles = 0x100;
	r->time_conv.time_mask = 0xffffffff;
	r->time_conv.cap_user_time_zero = 1;
	r->time_conv.cap_user_time_short = 0;
	finish(c++, sizeof(r->time_conv));
	c[-1].expect = EXPECT_CAPS_REVERSED;

	r = start(c, "FINISHED_INIT", SAMPO_RECORD_FINISHED_INIT, 0);
	finish(c++, sizeof(r->header));

	return (size_t)(c - cs);
}

#define MAX_CASES 64

/* ---- writing and reading back ----------------------------------------- */

/* A perf.data image of @nr records written by the writer in @order. */
static uint8_t *write_image(enum sampo_byte_order order, const struct rcase *cs, size_t nr,
			    size_t *ret_len)
{
	SAMPO_OPTS(sampo_writer_opts, opts, .byte_order = order);
	struct sampo_event_attr a = test_attr();
	uint64_t id = ATTR_ID;
	struct sampo_writer *w = NULL;
	FILE *f = tmpfile();
	uint8_t *buf;
	long len;

	assert_non_null(f);
	assert_int_equal(sampo_writer__open_fd(fileno(f), &opts, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &a, &id, 1), 0);
	for (size_t i = 0; i < nr; i++) {
		int err = sampo_writer__write_record(w, (const union sampo_record *)cs[i].buf);

		if (err)
			fail_msg("writing %s: %d", cs[i].what, err);
	}
	assert_int_equal(sampo_writer__close(w), 0);
	len = lseek(fileno(f), 0, SEEK_END);
	assert_true(len > 0);
	buf = malloc((size_t)len);
	assert_non_null(buf);
	assert_int_equal(pread(fileno(f), buf, (size_t)len, 0), len);
	fclose(f);
	*ret_len = (size_t)len;
	return buf;
}

static struct sampo_reader *open_image(const uint8_t *buf, size_t len, char *err, size_t err_sz)
{
	SAMPO_OPTS(sampo_reader_opts, opts, .errbuf = err, .errbuf_sz = err_sz);
	struct sampo_reader *r = NULL;
	int ret = sampo_reader__open_mem(buf, len, "test", &opts, &r);

	if (ret)
		fail_msg("open: %d %s", ret, err);
	return r;
}

static uint64_t bswap64(uint64_t v)
{
	return __builtin_bswap64(v);
}

/* What the reader should hand back for case @c of a file in the opposite byte order. */
static void expected_swapped(const struct rcase *c, uint8_t *exp, size_t body)
{
	const union sampo_record *r = (const union sampo_record *)c->buf;
	size_t at;
	uint64_t v;

	memcpy(exp, c->buf, r->header.size);
	switch (c->expect) {
	case EXPECT_SAME:
		break;
	case EXPECT_FILE_ORDER:
		sampo_record__convert(exp, body);
		break;
	case EXPECT_CAPS_REVERSED:
		at = offsetof(struct sampo_record_time_conv, cap_user_time_zero);
		memcpy(&v, exp + at, 8);
		v = bswap64(v);
		memcpy(exp + at, &v, 8);
		break;
	case EXPECT_TAIL_FILE_ORDER:
		/* convert all, then swap type and id back: only the payload stays */
		sampo_record__convert(exp, body);
		for (at = offsetof(struct sampo_record_event_update, type);
		     at < offsetof(struct sampo_record_event_update, data); at += 8) {
			memcpy(&v, exp + at, 8);
			v = bswap64(v);
			memcpy(exp + at, &v, 8);
		}
		break;
	}
}

static void round_trip(enum sampo_byte_order order, bool swapped)
{
	static struct rcase cs[MAX_CASES];
	size_t nr = build_cases(cs), len, seen = 0;
	uint8_t *img = write_image(order, cs, nr, &len);
	char err[256] = "";
	struct sampo_reader *r = open_image(img, len, err, sizeof(err));
	struct sampo_event ev;
	int ret;

	assert_int_equal(sampo_reader__needs_swap(r), swapped);
	while ((ret = sampo_reader__next(r, &ev)) == 1) {
		const struct rcase *c = &cs[seen];
		const union sampo_record *want = (const union sampo_record *)c->buf;
		const union sampo_record *got = ev.record;
		bool kernel = want->header.type < SAMPO_RECORD_KERNEL_MAX;
		size_t body = want->header.size - (kernel ? TRAILER_SIZE : 0);
		uint8_t exp[sizeof(c->buf)];

		assert_true(seen < nr);
		assert_int_equal(got->header.type, want->header.type);
		assert_int_equal(got->header.size, want->header.size);
		assert_int_equal(got->header.misc, want->header.misc);
		if (swapped)
			expected_swapped(c, exp, body);
		else
			memcpy(exp, c->buf, want->header.size);
		if (memcmp(got, exp, body)) {
			for (size_t i = 0; i < body; i++)
				if (((const uint8_t *)got)[i] != exp[i])
					fail_msg("%s (%s): byte %zu is %#x, not %#x", c->what,
						 swapped ? "swapped" : "native", i,
						 ((const uint8_t *)got)[i], exp[i]);
		}
		if (kernel && !(swapped && c->expect == EXPECT_FILE_ORDER)) {
			/* the trailer, swapped as u64s and uncrossed by the sample parser */
			if (!ev.has_sample_id || ev.sample.pid != 100 || ev.sample.tid != 101 ||
			    ev.sample.time != TRAILER_TIME || ev.sample.id != ATTR_ID ||
			    ev.sample.cpu != 3)
				fail_msg("%s (%s): trailer pid %u tid %u time %#" PRIx64
					 " id %" PRIu64 " cpu %u",
					 c->what, swapped ? "swapped" : "native", ev.sample.pid,
					 ev.sample.tid, ev.sample.time, ev.sample.id, ev.sample.cpu);
		}
		seen++;
	}
	if (ret)
		fail_msg("next: %d %s", ret, sampo_reader__error(r));
	assert_int_equal(seen, nr);
	sampo_reader__close(r);
	free(img);
}

static bool host_big(void)
{
	return __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
}

static void test_record__round_trip_native(void **state)
{
	(void)state;
	round_trip(host_big() ? SAMPO_BYTE_ORDER_BIG : SAMPO_BYTE_ORDER_LITTLE, false);
}

static void test_record__round_trip_swapped(void **state)
{
	(void)state;
	round_trip(host_big() ? SAMPO_BYTE_ORDER_LITTLE : SAMPO_BYTE_ORDER_BIG, true);
}

/* A big-endian file's bytes, read without the library. */
static uint64_t be_load(const uint8_t *p, unsigned int width)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < width; i++)
		v = v << 8 | p[i];
	return v;
}

/*
 * Fields checked byte by byte in a big-endian file, so that a wrong width or
 * offset in the description (which the writer and the reader share) shows.
 */
static void test_record__big_endian_file_bytes(void **state)
{
	static const struct {
		const char *what;
		size_t offset;
		unsigned int width;
		uint64_t value;
	} checks[] = {
		{ "MMAP", 8, 4, 10 },
		{ "MMAP", 12, 4, 11 },
		{ "MMAP", 16, 8, 0x400000 },
		{ "MMAP", 32, 8, 0x2000 },
		{ "MMAP2", 40, 4, 8 },
		{ "MMAP2", 48, 8, 123456 },
		{ "MMAP2", 64, 4, 5 },
		{ "MMAP2 with a build-id", 40, 1, 20 },
		{ "MMAP2 with a build-id", 44, 1, 0xa0 },
		{ "EXIT", 20, 4, 1 },
		{ "EXIT", 24, 8, 555 },
		{ "READ", 16 + 8 * SAMPO_READ_TIME_ENABLED, 8, 1000 + SAMPO_READ_TIME_ENABLED },
		{ "NAMESPACES", 16, 8, 2 },
		{ "NAMESPACES", 48, 8, 0xf0000002 },
		{ "KSYMBOL", 16, 4, 0x80 },
		{ "KSYMBOL", 20, 2, SAMPO_KSYMBOL_TYPE_BPF },
		{ "BPF_EVENT", 8, 2, 1 },
		{ "BPF_EVENT", 12, 4, 99 },
		{ "TEXT_POKE", 16, 2, 3 },
		{ "TEXT_POKE", 18, 2, 5 },
		{ "TEXT_POKE", 20, 1, 0x90 },
		{ "BUILD_ID", 8, 4, 0xffffffff },
		{ "AUXTRACE", 32, 4, 1 },
		{ "AUXTRACE", 40, 4, 3 },
		{ "AUXTRACE_ERROR", 28, 4, 2 },
		{ "AUXTRACE_ERROR", 40, 8, 777 },
		{ "AUXTRACE_ERROR", 112, 4, 5 },
		{ "AUXTRACE_ERROR fmt 1", 40, 8, 778 },
		{ "THREAD_MAP", 40, 8, 11 },
		{ "CPU_MAP cpus", 8, 2, SAMPO_CPU_MAP_CPUS },
		{ "CPU_MAP cpus", 10, 2, 3 },
		{ "CPU_MAP cpus", 14, 2, 2 },
		{ "CPU_MAP 64-bit mask", 12, 2, 8 },
		{ "CPU_MAP 64-bit mask", 18, 8, 0x8000000000000005ULL },
		{ "CPU_MAP 32-bit mask", 14, 4, 0x80000003U },
		{ "CPU_MAP range", 12, 2, 4 },
		{ "CPU_MAP range", 14, 2, 7 },
		{ "STAT", 16, 4, 3 },
		{ "STAT", 24, 8, 500 },
		{ "EVENT_UPDATE scale", 24, 8, 0x3fe0000000000000ULL },
		{ "EVENT_UPDATE cpus", 26, 2, 1 },
		{ "EVENT_UPDATE cpus", 28, 2, 6 },
		{ "TIME_CONV", 40, 8, 0xffffffff },
		{ "TIME_CONV", 48, 1, 1 },
	};
	static struct rcase cs[MAX_CASES];
	size_t nr = build_cases(cs), len;
	uint8_t *img = write_image(SAMPO_BYTE_ORDER_BIG, cs, nr, &len);
	uint64_t data = be_load(img + offsetof(struct sampo_file_header, data), 8);
	size_t done = 0;

	(void)state;
	for (size_t i = 0, off = (size_t)data; i < nr; i++) {
		size_t size = (size_t)be_load(img + off + 6, 2);

		assert_int_equal(be_load(img + off, 4), ((union sampo_record *)cs[i].buf)->header.type);
		for (size_t k = 0; k < ARRAY_SIZE(checks); k++) {
			uint64_t got;

			if (strcmp(checks[k].what, cs[i].what))
				continue;
			got = be_load(img + off + checks[k].offset, checks[k].width);
			if (got != checks[k].value)
				fail_msg("%s: %u bytes at %zu are %#" PRIx64 ", not %#" PRIx64,
					 cs[i].what, checks[k].width, checks[k].offset, got,
					 checks[k].value);
			done++;
		}
		off += size;
	}
	assert_int_equal(done, ARRAY_SIZE(checks));
	free(img);
}

/* The writer and the reader agree on every field of the attr, flags bitfield included. */
static void test_record__attr_swap_is_its_own_inverse(void **state)
{
	struct sampo_event_attr a = test_attr(), b;

	(void)state;
	a.flags |= SAMPO_ATTR_EXCLUDE_KERNEL | SAMPO_ATTR_SIGTRAP;
	a.clockid = -7;
	a.sample_max_stack = 127;
	a.config3 = 0x0102030405060708ULL;
	b = a;
	sampo_attr__swap(&b, sizeof(b));
	assert_int_not_equal(b.sample_type, a.sample_type);
	assert_int_equal(b.sample_type, bswap64(a.sample_type));
	for (int i = 0; i < 8; i++)
		assert_int_equal(((uint8_t *)&b.flags)[i],
				 sampo_reverse_bits(((uint8_t *)&a.flags)[i]));
	sampo_attr__swap(&b, sizeof(b));
	assert_memory_equal(&a, &b, sizeof(a));
	assert_int_equal(sampo_reverse_bits(0x01), 0x80);
	assert_int_equal(sampo_reverse_bits(0x0e), 0x70);
}

/* ---- sizes -------------------------------------------------------------- */

static void test_record__minimum_sizes(void **state)
{
	static uint64_t buf[1024];
	union sampo_record *r = (union sampo_record *)buf;
	char why[256];

	(void)state;
	for (uint32_t type = 1; type < SAMPO_RECORD_MAX; type++) {
		size_t min = sampo_record__min_size(type);

		if (!sampo_record__known(type)) {
			assert_int_equal(min, 0);
			continue;
		}
		assert_non_null(sampo_record__name(type));
		if (min <= sizeof(r->header))
			continue;
		memset(buf, 0, sizeof(buf));
		r->header.type = type;
		r->header.size = (uint16_t)(min - 1);
		assert_int_equal(sampo_record__validate(r, why, sizeof(why)),
				 -SAMPO_ERR_MALFORMED);
		assert_non_null(strstr(why, "shorter than"));
		/*
		 * A zeroed record of the minimum size has nothing else wrong, but
		 * for these: a cpu map needs its count, an attr its size, and a
		 * BUILD_ID's filename its NUL after the fixed part.
		 */
		if (type == SAMPO_RECORD_CPU_MAP || type == SAMPO_RECORD_HEADER_ATTR ||
		    type == SAMPO_RECORD_HEADER_BUILD_ID)
			continue;
		r->header.size = (uint16_t)min;
		if (sampo_record__validate(r, why, sizeof(why)))
			fail_msg("%s of %zu bytes: %s", sampo_record__name(type), min, why);
	}
}

/* The writer refuses what the reader would refuse as too short. */
static void test_record__writer_refuses_short_records(void **state)
{
	static uint64_t buf[1024];
	union sampo_record *r = (union sampo_record *)buf;
	struct sampo_event_attr a = test_attr();
	uint64_t id = ATTR_ID;
	struct sampo_writer *w = NULL;
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	assert_int_equal(sampo_writer__open_fd(fileno(f), NULL, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &a, &id, 1), 0);
	for (uint32_t type = 1; type < SAMPO_RECORD_MAX; type++) {
		size_t min = sampo_record__min_size(type);
		size_t trailer = type < SAMPO_RECORD_KERNEL_MAX ? TRAILER_SIZE : 0;

		if (type == SAMPO_RECORD_SAMPLE || type == SAMPO_RECORD_HEADER_ATTR ||
		    min <= sizeof(r->header))
			continue;
		memset(buf, 0, sizeof(buf));
		r->header.type = type;
		r->header.size = (uint16_t)(min - 1 + trailer);
		if (sampo_writer__write_record(w, r) != -EINVAL)
			fail_msg("the writer took a %s of %zu bytes", sampo_record__name(type),
				 min - 1);
	}
	assert_int_equal(sampo_writer__close(w), 0);
	fclose(f);
}

/*
 * Every record cut at every length, in both byte orders: the reader reads
 * the records before it and then fails, never reading past the image (a heap
 * copy of exactly that length, for ASan).
 */
static void truncate_every_record(enum sampo_byte_order order)
{
	static struct rcase cs[MAX_CASES];
	size_t nr = build_cases(cs);

	for (size_t i = 0; i < nr; i++) {
		size_t len, size = ((union sampo_record *)cs[i].buf)->header.size;
		uint8_t *img = write_image(order, &cs[i], 1, &len);
		/* the data section ends where the features start: find the record */
		const struct sampo_file_header *fh = (const void *)img;
		uint64_t data = host_big() == (order == SAMPO_BYTE_ORDER_BIG) ?
					fh->data.offset :
					bswap64(fh->data.offset);

		for (size_t cut = (size_t)data; cut < data + size; cut++) {
			uint8_t *copy = malloc(cut);
			char err[256] = "";
			struct sampo_reader *r;
			struct sampo_event ev;
			int ret;

			assert_non_null(copy);
			memcpy(copy, img, cut);
			r = open_image(copy, cut, err, sizeof(err));
			ret = sampo_reader__next(r, &ev);
			if (ret >= 0)
				fail_msg("%s cut at %zu of %zu: next gave %d", cs[i].what,
					 cut - (size_t)data, size, ret);
			sampo_reader__close(r);
			free(copy);
		}
		free(img);
	}
}

static void test_record__truncated_native(void **state)
{
	(void)state;
	truncate_every_record(host_big() ? SAMPO_BYTE_ORDER_BIG : SAMPO_BYTE_ORDER_LITTLE);
}

static void test_record__truncated_swapped(void **state)
{
	(void)state;
	truncate_every_record(host_big() ? SAMPO_BYTE_ORDER_LITTLE : SAMPO_BYTE_ORDER_BIG);
}

/*
 * header.size from below the header to past the end of the data, for every
 * type, in a raw image in both byte orders: the reader fails with one message
 * or reads a record of that size, and never reads past the image.
 */
static void test_record__any_header_size(void **state)
{
	static struct rcase cs[MAX_CASES];
	size_t nr = build_cases(cs);

	(void)state;
	for (int swapped = 0; swapped <= 1; swapped++) {
		enum sampo_byte_order order = (host_big() != (bool)swapped) ? SAMPO_BYTE_ORDER_BIG :
									      SAMPO_BYTE_ORDER_LITTLE;

		for (size_t i = 0; i < nr; i++) {
			size_t len, size = ((union sampo_record *)cs[i].buf)->header.size;
			uint8_t *img = write_image(order, &cs[i], 1, &len);
			const struct sampo_file_header *fh = (const void *)img;
			uint64_t data = swapped ? bswap64(fh->data.offset) : fh->data.offset;
			uint64_t data_size = swapped ? bswap64(fh->data.size) : fh->data.size;

			assert_int_equal(data_size, size);
			for (size_t claim = 0; claim <= size + 16; claim++) {
				uint8_t *copy = malloc(len);
				uint16_t sz = (uint16_t)claim;
				char err[256] = "";
				struct sampo_reader *r;
				struct sampo_event ev;
				int ret;

				assert_non_null(copy);
				memcpy(copy, img, len);
				if (swapped)
					sz = __builtin_bswap16(sz);
				memcpy(copy + data + offsetof(struct sampo_record_header, size), &sz,
				       2);
				r = open_image(copy, len, err, sizeof(err));
				while ((ret = sampo_reader__next(r, &ev)) == 1)
					assert_true(ev.record->header.size >= sizeof(ev.record->header));
				if (claim < sizeof(struct sampo_record_header) || claim > size)
					assert_true(ret < 0);
				sampo_reader__close(r);
				free(copy);
			}
			free(img);
		}
	}
}

/* ---- what the dump reads ------------------------------------------------ */

static void test_record__field_by_name(void **state)
{
	static struct rcase cs[MAX_CASES];
	size_t nr = build_cases(cs);
	const union sampo_record *rd = NULL, *mm2 = NULL;
	uint64_t v = 0;

	(void)state;
	for (size_t i = 0; i < nr; i++) {
		const union sampo_record *r = (const union sampo_record *)cs[i].buf;

		if (r->header.type == SAMPO_RECORD_READ)
			rd = r;
		if (r->header.type == SAMPO_RECORD_MMAP2 && !mm2)
			mm2 = r;
	}
	assert_non_null(rd);
	assert_int_equal(sampo_record__field(rd, "pid", &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(sampo_record__field(rd, "value", &v), 0);
	assert_int_equal(v, 1000 + SAMPO_READ_VALUE);
	assert_int_equal(sampo_record__field(rd, "time_enabled", &v), 0);
	assert_int_equal(v, 1000 + SAMPO_READ_TIME_ENABLED);
	assert_int_equal(sampo_record__field(rd, "time_running", &v), 0);
	assert_int_equal(v, 1000 + SAMPO_READ_TIME_RUNNING);
	assert_int_equal(sampo_record__field(rd, "id", &v), 0);
	assert_int_equal(v, 1000 + SAMPO_READ_ID);
	assert_int_equal(sampo_record__field(rd, "lost", &v), 0);
	assert_int_equal(v, 1000 + SAMPO_READ_LOST);
	assert_int_equal(sampo_record__field(rd, "nope", &v), -ENOENT);
	assert_int_equal(sampo_record__field(mm2, "ino", &v), 0);
	assert_int_equal(v, 123456);
	assert_int_equal(sampo_record__field(mm2, "prot", &v), 0);
	assert_int_equal(v, 5);

	/* a READ with one value has no time_enabled */
	{
		uint64_t buf[64] = { 0 };
		union sampo_record *r = (union sampo_record *)buf;

		r->header.type = SAMPO_RECORD_READ;
		r->header.size = sizeof(r->read) + 8;
		assert_int_equal(sampo_record__field(r, "value", &v), 0);
		assert_int_equal(sampo_record__field(r, "time_enabled", &v), -ERANGE);
	}
}

static void check_cpus(const void *data, size_t size, const int *want, size_t nr_want)
{
	int *cpus = NULL;
	size_t nr = 0;

	assert_int_equal(sampo_cpu_map__decode(data, size, &cpus, &nr), 0);
	assert_int_equal(nr, nr_want);
	if (nr)
		assert_memory_equal(cpus, want, nr * sizeof(int));
	free(cpus);
}

static void test_record__cpu_map_decode(void **state)
{
	static struct rcase cs[MAX_CASES];
	size_t nr = build_cases(cs);
	int *cpus = NULL;
	size_t n = 7;

	(void)state;
	for (size_t i = 0; i < nr; i++) {
		const union sampo_record *r = (const union sampo_record *)cs[i].buf;
		const void *data = &r->cpu_map.type;
		size_t size = r->header.size - offsetof(struct sampo_record_cpu_map, type);

		if (r->header.type != SAMPO_RECORD_CPU_MAP)
			continue;
		if (!strcmp(cs[i].what, "CPU_MAP cpus"))
			check_cpus(data, size, (const int[]){ 0, 2, 3 }, 3);
		else if (!strcmp(cs[i].what, "CPU_MAP 64-bit mask"))
			check_cpus(data, size, (const int[]){ 0, 2, 63, 65 }, 4);
		else if (!strcmp(cs[i].what, "CPU_MAP 32-bit mask"))
			check_cpus(data, size, (const int[]){ 0, 1, 31 }, 3);
		else if (!strcmp(cs[i].what, "CPU_MAP range"))
			check_cpus(data, size, (const int[]){ -1, 4, 5, 6, 7 }, 5);
		else
			fail_msg("unchecked case %s", cs[i].what);
	}
	/* an unknown type, and data too short for its type */
	assert_int_equal(sampo_cpu_map__decode("\x07\x00\x00\x00", 4, &cpus, &n), -EINVAL);
	assert_null(cpus);
	assert_int_equal(n, 0);
	assert_int_equal(sampo_cpu_map__decode("\x02\x00\x00\x00", 4, &cpus, &n), -EINVAL);
	assert_int_equal(sampo_cpu_map__decode("\x00", 1, &cpus, &n), -EINVAL);
	/* the cpu list runs past the data: what fits */
	check_cpus("\x00\x00\x05\x00\x01\x00\x02\x00", 8, (const int[]){ 1, 2 }, 2);
}

/* perf's runs, its "-1" for an empty map, and a buffer too small */
static void test_record__cpu_map_snprint(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(sampo_cpu_map__snprint((const int[]){ 0, 2, 3 }, 3, buf, sizeof(buf)), 5);
	assert_string_equal(buf, "0,2-3");
	sampo_cpu_map__snprint((const int[]){ -1, 4, 5, 6, 7 }, 5, buf, sizeof(buf));
	assert_string_equal(buf, "-1,4-7");
	sampo_cpu_map__snprint((const int[]){ 0, 1, 2, 3, 8, 10, 11 }, 7, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,8,10-11");
	/* runs in the map's order, not sorted */
	sampo_cpu_map__snprint((const int[]){ 3, 1, 2 }, 3, buf, sizeof(buf));
	assert_string_equal(buf, "3,1-2");
	sampo_cpu_map__snprint((const int[]){ 5 }, 1, buf, sizeof(buf));
	assert_string_equal(buf, "5");
	assert_int_equal(sampo_cpu_map__snprint(NULL, 0, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "-1");
	/* cut short, always terminated */
	assert_int_equal(sampo_cpu_map__snprint((const int[]){ 0, 2, 4, 6 }, 4, buf, 5), 4);
	assert_string_equal(buf, "0,2,");
	assert_int_equal(sampo_cpu_map__snprint((const int[]){ 0, 2, 4, 6 }, 4, buf, 6), 5);
	assert_string_equal(buf, "0,2,4");
	buf[0] = 'x';
	assert_int_equal(sampo_cpu_map__snprint((const int[]){ 0 }, 1, buf, 0), 0);
	assert_int_equal(buf[0], 'x');
}

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* perf 6.1's names: its table ends at 82, its holes are UNKNOWN, slot 0 is TOTAL */
static void test_record__perf_names(void **state)
{
	(void)state;
	assert_string_equal(sampo_record__perf_name(0), "TOTAL");
	assert_true(sampo_record__perf_known(0));
	assert_string_equal(sampo_record__perf_name(SAMPO_RECORD_MMAP), "MMAP");
	assert_string_equal(sampo_record__perf_name(SAMPO_RECORD_SAMPLE), "SAMPLE");
	assert_string_equal(sampo_record__perf_name(SAMPO_RECORD_AUX_OUTPUT_HW_ID),
			    sampo_record__name(SAMPO_RECORD_AUX_OUTPUT_HW_ID));
	assert_true(sampo_record__perf_known(SAMPO_RECORD_FINISHED_ROUND));
	assert_string_equal(sampo_record__perf_name(SAMPO_RECORD_FINISHED_INIT), "FINISHED_INIT");
	/* the kernel's and the user types' holes */
	assert_string_equal(sampo_record__perf_name(22), "UNKNOWN");
	assert_false(sampo_record__perf_known(22));
	assert_string_equal(sampo_record__perf_name(63), "UNKNOWN");
	/* newer than perf 6.1: the library names it, perf 6.1 does not */
	assert_non_null(sampo_record__name(SAMPO_RECORD_COMPRESSED2));
	assert_int_equal(SAMPO_RECORD_COMPRESSED2, SAMPO_RECORD_PERF_MAX);
	assert_string_equal(sampo_record__perf_name(SAMPO_RECORD_COMPRESSED2), "INVALID");
	assert_false(sampo_record__perf_known(SAMPO_RECORD_COMPRESSED2));
	assert_string_equal(sampo_record__perf_name(UINT32_MAX), "INVALID");
	assert_false(sampo_record__perf_known(UINT32_MAX));
	for (uint32_t t = 1; t < SAMPO_RECORD_PERF_MAX; t++)
		assert_int_equal(sampo_record__perf_known(t), sampo_record__name(t) != NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record__round_trip_native),
		cmocka_unit_test(test_record__round_trip_swapped),
		cmocka_unit_test(test_record__big_endian_file_bytes),
		cmocka_unit_test(test_record__attr_swap_is_its_own_inverse),
		cmocka_unit_test(test_record__minimum_sizes),
		cmocka_unit_test(test_record__writer_refuses_short_records),
		cmocka_unit_test(test_record__truncated_native),
		cmocka_unit_test(test_record__truncated_swapped),
		cmocka_unit_test(test_record__any_header_size),
		cmocka_unit_test(test_record__field_by_name),
		cmocka_unit_test(test_record__cpu_map_decode),
		cmocka_unit_test(test_record__cpu_map_snprint),
		cmocka_unit_test(test_record__perf_names),
	};

	sampo_set_print(quiet);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
