// SPDX-License-Identifier: GPL-2.0
/*
 * test-sample.c - decoding SAMPLE records and the sample_id trailer of other
 * records (lib/sample.c): every field in kernel order, the same record from
 * an opposite-endian file (swapped as u64s, as the reader does), the
 * trailer read backwards, and hostile records: a record cut at every 8-byte
 * length into a heap copy of exactly that size (so ASan sees any over-read),
 * and counts that claim more than the record holds; perf's offset of the
 * user stack.
 */
#include <byteswap.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sampo/event.h>
#include <sampo/reader.h>
#include <sampo/sample.h>

/* ---- building records --------------------------------------------------------------------- */

/*
 * A record as a file holds it: native order, or big-endian (@be) on this
 * little-endian host; rec_finish() then swaps a big-endian body as u64s,
 * as the reader hands it out.
 */
struct rec {
	uint64_t words[512]; /* 8-byte aligned, like the reader's records */
	size_t len;	     /* bytes, header included */
	bool be;
};

static void rec_init(struct rec *r, uint32_t type, uint16_t misc, bool be)
{
	struct sampo_record_header h = { .type = type, .misc = misc };

	memset(r, 0, sizeof(*r));
	r->be = be;
	memcpy(r->words, &h, sizeof(h));
	r->len = 8;
}

static void put_u64(struct rec *r, uint64_t v)
{
	uint8_t *p = (uint8_t *)r->words + r->len;

	if (r->be)
		v = bswap_64(v);
	memcpy(p, &v, 8);
	r->len += 8;
}

/* two u32 in one slot, the first at the lower address */
static void put_u32_pair(struct rec *r, uint32_t a, uint32_t b)
{
	uint8_t *p = (uint8_t *)r->words + r->len;

	if (r->be) {
		a = bswap_32(a);
		b = bswap_32(b);
	}
	memcpy(p, &a, 4);
	memcpy(p + 4, &b, 4);
	r->len += 8;
}

/* opaque bytes, zero-padded to 8 */
static void put_bytes(struct rec *r, const void *b, size_t n)
{
	memcpy((uint8_t *)r->words + r->len, b, n);
	r->len += (n + 7) / 8 * 8;
}

static const union sampo_record *rec_finish(struct rec *r)
{
	struct sampo_record_header *h = (struct sampo_record_header *)r->words;

	h->size = (uint16_t)r->len;
	if (r->be) {
		for (size_t i = 1; i < r->len / 8; i++)
			r->words[i] = bswap_64(r->words[i]);
	}
	return (const union sampo_record *)r->words;
}

/* ---- a SAMPLE with every field ------------------------------------------------------------ */

#define ALL_FIELDS                                                                                 \
	(SAMPO_SAMPLE_IDENTIFIER | SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME |        \
	 SAMPO_SAMPLE_ADDR | SAMPO_SAMPLE_ID | SAMPO_SAMPLE_STREAM_ID | SAMPO_SAMPLE_CPU |         \
	 SAMPO_SAMPLE_PERIOD | SAMPO_SAMPLE_READ | SAMPO_SAMPLE_CALLCHAIN | SAMPO_SAMPLE_RAW |      \
	 SAMPO_SAMPLE_BRANCH_STACK | SAMPO_SAMPLE_REGS_USER | SAMPO_SAMPLE_STACK_USER |            \
	 SAMPO_SAMPLE_WEIGHT_STRUCT | SAMPO_SAMPLE_DATA_SRC | SAMPO_SAMPLE_TRANSACTION |           \
	 SAMPO_SAMPLE_REGS_INTR | SAMPO_SAMPLE_PHYS_ADDR | SAMPO_SAMPLE_CGROUP |                   \
	 SAMPO_SAMPLE_DATA_PAGE_SIZE | SAMPO_SAMPLE_CODE_PAGE_SIZE | SAMPO_SAMPLE_AUX)

static const uint8_t raw_bytes[5] = { 0xde, 0xad, 0xbe, 0xef, 0x42 };
static const uint8_t stack_bytes[16] = "user stack 0123";
static const uint8_t aux_bytes[8] = "aux-data";

static void all_attr(struct sampo_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->sample_type = ALL_FIELDS;
	attr->read_format = SAMPO_FORMAT_GROUP | SAMPO_FORMAT_ID;
	attr->branch_sample_type = SAMPO_SAMPLE_BRANCH_HW_INDEX;
	attr->sample_regs_user = 0x5; /* two registers */
	attr->sample_regs_intr = 0x1;
	attr->sample_period = 4000;
}

/* Every field in kernel order; the raw data is given last-byte-first to catch shifts. */
static const union sampo_record *all_record(struct rec *r, bool be)
{
	rec_init(r, SAMPO_RECORD_SAMPLE, SAMPO_CPUMODE_USER, be);
	put_u64(r, 77);			     /* IDENTIFIER */
	put_u64(r, 0x401234);		     /* IP */
	put_u32_pair(r, 1001, 1002);	     /* PID, TID */
	put_u64(r, 123456789);		     /* TIME */
	put_u64(r, 0xdead0000);		     /* ADDR */
	put_u64(r, 77);			     /* ID */
	put_u64(r, 78);			     /* STREAM_ID */
	put_u32_pair(r, 3, 0);		     /* CPU, res */
	put_u64(r, 999);		     /* PERIOD */
	put_u64(r, 2);			     /* READ: nr */
	put_u64(r, 10), put_u64(r, 77);	     /* value, id */
	put_u64(r, 20), put_u64(r, 79);
	put_u64(r, 3);			     /* CALLCHAIN */
	put_u64(r, 0xfffffffffffffe00ULL);   /* PERF_CONTEXT_USER */
	put_u64(r, 0x401234);
	put_u64(r, 0x401000);
	/* RAW: u32 size, then the data in the same slot, padded to 8 */
	{
		uint8_t slot[16] = { 0 };
		uint32_t size = sizeof(raw_bytes);

		if (be)
			size = bswap_32(size);
		memcpy(slot, &size, 4);
		memcpy(slot + 4, raw_bytes, sizeof(raw_bytes));
		/* a BE file holds the raw bytes as they were: the parser undoes the u64 swap */
		put_bytes(r, slot, 16);
	}
	put_u64(r, 2);	/* BRANCH_STACK: nr */
	put_u64(r, 1);	/* hw_idx */
	put_u64(r, 0x401100), put_u64(r, 0x401200), put_u64(r, 0);
	put_u64(r, 0x401300), put_u64(r, 0x401400), put_u64(r, 0);
	put_u64(r, 2);	/* REGS_USER: abi 64 */
	put_u64(r, 0xaaaa), put_u64(r, 0xbbbb);
	put_u64(r, sizeof(stack_bytes)); /* STACK_USER */
	put_bytes(r, stack_bytes, sizeof(stack_bytes));
	put_u64(r, 8);	/* dyn_size */
	put_u64(r, (uint64_t)7 << 48 | (uint64_t)5 << 32 | 300); /* WEIGHT_STRUCT */
	put_u64(r, 0x1234);			/* DATA_SRC */
	put_u64(r, 0x5);			/* TRANSACTION */
	put_u64(r, 0);				/* REGS_INTR: abi none */
	put_u64(r, 0x7000);			/* PHYS_ADDR */
	put_u64(r, 0x99);			/* CGROUP */
	put_u64(r, 4096);			/* DATA_PAGE_SIZE */
	put_u64(r, 2097152);			/* CODE_PAGE_SIZE */
	put_u64(r, sizeof(aux_bytes));		/* AUX */
	put_bytes(r, aux_bytes, sizeof(aux_bytes));
	return rec_finish(r);
}

static void check_all(const struct sampo_sample *s, bool swapped)
{
	assert_int_equal(s->sample_type, ALL_FIELDS);
	assert_int_equal(s->id, 77);
	assert_int_equal(s->ip, 0x401234);
	assert_int_equal(s->pid, 1001);
	assert_int_equal(s->tid, 1002);
	assert_int_equal(s->time, 123456789);
	assert_int_equal(s->addr, 0xdead0000);
	assert_int_equal(s->stream_id, 78);
	assert_int_equal(s->cpu, 3);
	assert_int_equal(s->period, 999);
	assert_int_equal(s->read_nr_words, 5);
	assert_non_null(s->read_values);
	assert_int_equal(s->read_values[0], 2);
	assert_int_equal(s->read_values[3], 20);
	assert_int_equal(s->read_values[4], 79);
	assert_int_equal(s->callchain_nr, 3);
	assert_int_equal(s->callchain[0], 0xfffffffffffffe00ULL);
	assert_int_equal(s->callchain[2], 0x401000);
	assert_int_equal(s->raw_size, sizeof(raw_bytes));
	assert_memory_equal(s->raw_data, raw_bytes, sizeof(raw_bytes));
	assert_int_equal(s->branch_nr, 2);
	assert_true(s->branch_has_hw_idx);
	assert_int_equal(s->branch_hw_idx, 1);
	assert_int_equal(s->branch[0].from, 0x401100);
	assert_int_equal(s->branch[1].to, 0x401400);
	assert_int_equal(s->user_regs.abi, 2);
	assert_int_equal(s->user_regs.mask, 0x5);
	assert_int_equal(s->user_regs.regs[0], 0xaaaa);
	assert_int_equal(s->user_regs.regs[1], 0xbbbb);
	assert_int_equal(s->user_stack_size, sizeof(stack_bytes));
	/* the stack and aux bytes stay as the reader's u64 swap left them, as in perf */
	if (!swapped)
		assert_memory_equal(s->user_stack, stack_bytes, sizeof(stack_bytes));
	assert_int_equal(s->user_stack_dyn_size, 8);
	assert_int_equal(s->weight, 300);
	assert_int_equal(s->ins_lat, 5);
	assert_int_equal(s->p_stage_cyc, 7);
	assert_int_equal(s->data_src, 0x1234);
	assert_int_equal(s->transaction, 0x5);
	assert_int_equal(s->intr_regs.abi, 0);
	assert_null(s->intr_regs.regs);
	assert_int_equal(s->phys_addr, 0x7000);
	assert_int_equal(s->cgroup, 0x99);
	assert_int_equal(s->data_page_size, 4096);
	assert_int_equal(s->code_page_size, 2097152);
	assert_int_equal(s->aux_size, sizeof(aux_bytes));
	if (!swapped)
		assert_memory_equal(s->aux_data, aux_bytes, sizeof(aux_bytes));
	assert_int_equal(s->cpumode, SAMPO_CPUMODE_USER);
}

static void test_sample__every_field_in_kernel_order(void **state)
{
	struct sampo_event_attr attr;
	struct sampo_sample s;
	struct rec r;

	(void)state;
	all_attr(&attr);
	assert_int_equal(sampo_sample__parse(&attr, all_record(&r, false), false, &s), 0);
	check_all(&s, false);
}

static void test_sample__opposite_endian(void **state)
{
	struct sampo_event_attr attr;
	struct sampo_sample s;
	struct rec r;

	(void)state;
	all_attr(&attr);
	assert_int_equal(sampo_sample__parse(&attr, all_record(&r, true), true, &s), 0);
	check_all(&s, true);
}

static void test_sample__absent_fields_keep_defaults(void **state)
{
	struct sampo_event_attr attr = { .sample_type = SAMPO_SAMPLE_IP, .sample_period = 4000 };
	struct sampo_sample s;
	struct rec r;

	(void)state;
	rec_init(&r, SAMPO_RECORD_SAMPLE, SAMPO_CPUMODE_KERNEL, false);
	put_u64(&r, 0xffffffff81000000ULL);
	assert_int_equal(sampo_sample__parse(&attr, rec_finish(&r), false, &s), 0);
	assert_int_equal(s.ip, 0xffffffff81000000ULL);
	assert_int_equal(s.pid, (uint32_t)-1);
	assert_int_equal(s.tid, (uint32_t)-1);
	assert_int_equal(s.cpu, (uint32_t)-1);
	assert_int_equal(s.time, (uint64_t)-1);
	assert_int_equal(s.id, (uint64_t)-1);
	assert_int_equal(s.period, 4000); /* the attr's, as perf */
	assert_int_equal(s.cpumode, SAMPO_CPUMODE_KERNEL);
	assert_int_equal(s.branch_hw_idx, (uint64_t)-1);
	assert_null(s.callchain);
}

/* Cut at every 8-byte length: each cut is malformed, and nothing is read past it. */
static void test_sample__truncated_at_every_length(void **state)
{
	struct sampo_event_attr attr;
	struct sampo_sample s;
	struct rec r;
	const union sampo_record *full;

	(void)state;
	all_attr(&attr);
	full = all_record(&r, false);
	for (size_t len = 8; len < full->header.size; len += 8) {
		union sampo_record *cut = malloc(len);

		assert_non_null(cut);
		memcpy(cut, full, len);
		cut->header.size = (uint16_t)len;
		assert_int_equal(sampo_sample__parse(&attr, cut, false, &s), -SAMPO_ERR_MALFORMED);
		free(cut);
	}
}

/* One count field claiming more than the record holds, for each counted field. */
static void test_sample__counts_beyond_the_record(void **state)
{
	static const struct {
		uint64_t type;
		uint64_t first;	 /* the count */
	} cases[] = {
		{ SAMPO_SAMPLE_CALLCHAIN, 1ULL << 60 },
		{ SAMPO_SAMPLE_CALLCHAIN, 3 },
		{ SAMPO_SAMPLE_BRANCH_STACK, 1ULL << 59 },
		{ SAMPO_SAMPLE_BRANCH_STACK, 1 },
		{ SAMPO_SAMPLE_READ, 1ULL << 61 },
		{ SAMPO_SAMPLE_READ, 3 },
		{ SAMPO_SAMPLE_STACK_USER, 1ULL << 62 },
		{ SAMPO_SAMPLE_STACK_USER, 24 },
		{ SAMPO_SAMPLE_AUX, (uint64_t)-8 },
		{ SAMPO_SAMPLE_AUX, 24 },
		{ SAMPO_SAMPLE_REGS_USER, 2 }, /* abi 64, 64 registers by the mask */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sampo_event_attr attr = {
			.sample_type = cases[i].type,
			.read_format = SAMPO_FORMAT_GROUP,
			.sample_regs_user = ~0ULL,
		};
		struct sampo_sample s;
		struct rec r;

		rec_init(&r, SAMPO_RECORD_SAMPLE, 0, false);
		put_u64(&r, cases[i].first);
		put_u64(&r, 0); /* 16 bytes after the count */
		put_u64(&r, 0);
		assert_int_equal(sampo_sample__parse(&attr, rec_finish(&r), false, &s),
				 -SAMPO_ERR_MALFORMED);
	}
}

static void test_sample__raw_size_beyond_the_record(void **state)
{
	struct sampo_event_attr attr = { .sample_type = SAMPO_SAMPLE_RAW };
	struct sampo_sample s;
	struct rec r;

	(void)state;
	rec_init(&r, SAMPO_RECORD_SAMPLE, 0, false);
	put_u32_pair(&r, 13, 0); /* 4 + 13 bytes need 24, there are 16 */
	put_u64(&r, 0);
	assert_int_equal(sampo_sample__parse(&attr, rec_finish(&r), false, &s),
			 -SAMPO_ERR_MALFORMED);
	rec_init(&r, SAMPO_RECORD_SAMPLE, 0, false);
	put_u32_pair(&r, 12, 0); /* exactly 16 */
	put_u64(&r, 0);
	assert_int_equal(sampo_sample__parse(&attr, rec_finish(&r), false, &s), 0);
	assert_int_equal(s.raw_size, 12);
}

static void test_sample__stack_dyn_size_over_size(void **state)
{
	struct sampo_event_attr attr = { .sample_type = SAMPO_SAMPLE_STACK_USER };
	struct sampo_sample s;
	struct rec r;

	(void)state;
	rec_init(&r, SAMPO_RECORD_SAMPLE, 0, false);
	put_u64(&r, 8);
	put_u64(&r, 0);
	put_u64(&r, 16); /* dyn_size > size */
	assert_int_equal(sampo_sample__parse(&attr, rec_finish(&r), false, &s),
			 -SAMPO_ERR_MALFORMED);
}

/* ---- the sample_id trailer ---------------------------------------------------------------- */

#define TRAILER                                                                                    \
	(SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME | SAMPO_SAMPLE_ID | SAMPO_SAMPLE_STREAM_ID |         \
	 SAMPO_SAMPLE_CPU | SAMPO_SAMPLE_IDENTIFIER)

static const union sampo_record *comm_with_trailer(struct rec *r, bool be)
{
	rec_init(r, SAMPO_RECORD_COMM, 0, be);
	put_u32_pair(r, 500, 501);
	put_bytes(r, "burn\0\0\0", 8);
	put_u32_pair(r, 500, 501); /* TID */
	put_u64(r, 42000);	   /* TIME */
	put_u64(r, 9);		   /* ID */
	put_u64(r, 10);		   /* STREAM_ID */
	put_u32_pair(r, 2, 0);	   /* CPU */
	put_u64(r, 9);		   /* IDENTIFIER */
	return rec_finish(r);
}

static void test_sample__id_trailer_read_backwards(void **state)
{
	struct sampo_event_attr attr = {
		.sample_type = TRAILER | SAMPO_SAMPLE_IP | SAMPO_SAMPLE_PERIOD,
		.flags = SAMPO_ATTR_SAMPLE_ID_ALL,
	};
	struct sampo_sample s;
	struct rec r;

	(void)state;
	for (int be = 0; be <= 1; be++) {
		assert_int_equal(sampo_sample__parse(&attr, comm_with_trailer(&r, be), be, &s), 0);
		assert_int_equal(s.sample_type, TRAILER); /* only the trailer's fields */
		assert_int_equal(s.pid, 500);
		assert_int_equal(s.tid, 501);
		assert_int_equal(s.time, 42000);
		assert_int_equal(s.id, 9);
		assert_int_equal(s.stream_id, 10);
		assert_int_equal(s.cpu, 2);
	}

	/* without sample_id_all there is no trailer: defaults */
	attr.flags = 0;
	assert_int_equal(sampo_sample__parse(&attr, comm_with_trailer(&r, false), false, &s), 0);
	assert_int_equal(s.time, (uint64_t)-1);
	assert_int_equal(s.pid, (uint32_t)-1);
}

static void test_sample__id_trailer_longer_than_the_record(void **state)
{
	struct sampo_event_attr attr = {
		.sample_type = TRAILER,
		.flags = SAMPO_ATTR_SAMPLE_ID_ALL,
	};
	struct sampo_sample s;
	struct rec r;

	(void)state;
	/* an EXIT-like record with 3 words: the trailer needs 6 */
	rec_init(&r, SAMPO_RECORD_COMM, 0, false);
	put_u64(&r, 1);
	put_u64(&r, 2);
	put_u64(&r, 3);
	assert_int_equal(sampo_sample__parse(&attr, rec_finish(&r), false, &s),
			 -SAMPO_ERR_MALFORMED);
}

/*
 * perf's offset of the STACK_USER size: where it is, when the kernel wrote
 * the record (RAW padded by its size), and 0 without STACK_USER.
 */
static void test_sample__user_stack_offset(void **state)
{
	struct sampo_event_attr attr = {
		.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_CALLCHAIN |
			       SAMPO_SAMPLE_RAW | SAMPO_SAMPLE_REGS_USER | SAMPO_SAMPLE_STACK_USER,
		.sample_regs_user = 0x7,
	};
	const union sampo_record *rec;
	struct sampo_sample s;
	uint64_t off, v;
	struct rec r;

	(void)state;
	rec_init(&r, SAMPO_RECORD_SAMPLE, SAMPO_CPUMODE_USER, false);
	put_u64(&r, 0x401234);
	put_u32_pair(&r, 1, 1);
	put_u64(&r, 2), put_u64(&r, 0x401234), put_u64(&r, 0x401000); /* CALLCHAIN */
	put_u32_pair(&r, 4, 0xabcd); /* RAW: 4 bytes fill the slot, as the kernel pads */
	put_u64(&r, 2), put_u64(&r, 1), put_u64(&r, 2), put_u64(&r, 3); /* REGS_USER */
	put_u64(&r, sizeof(stack_bytes));
	put_bytes(&r, stack_bytes, sizeof(stack_bytes));
	put_u64(&r, 16);
	rec = rec_finish(&r);
	assert_int_equal(sampo_sample__parse(&attr, rec, false, &s), 0);
	off = sampo_sample__user_stack_offset(&attr, &s);
	assert_int_equal(off, 8 + 8 + 8 + 24 + 8 + 32);
	memcpy(&v, (const uint8_t *)rec + off, 8);
	assert_int_equal(v, sizeof(stack_bytes));

	/* registers with ABI none take only their ABI word */
	rec_init(&r, SAMPO_RECORD_SAMPLE, SAMPO_CPUMODE_USER, false);
	attr.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_REGS_USER | SAMPO_SAMPLE_STACK_USER;
	put_u64(&r, 0x401234);
	put_u64(&r, 0);
	put_u64(&r, 0); /* STACK_USER: empty */
	rec = rec_finish(&r);
	assert_int_equal(sampo_sample__parse(&attr, rec, false, &s), 0);
	assert_int_equal(sampo_sample__user_stack_offset(&attr, &s), 24);

	/*
	 * 5 RAW bytes, padded to 16 with their size: perf's walk does not
	 * count the padding, so its offset is 7 short of the real 256.
	 */
	all_attr(&attr);
	assert_int_equal(sampo_sample__parse(&attr, all_record(&r, false), false, &s), 0);
	assert_int_equal(sampo_sample__user_stack_offset(&attr, &s), 249);

	attr.sample_type &= ~(uint64_t)SAMPO_SAMPLE_STACK_USER;
	assert_int_equal(sampo_sample__user_stack_offset(&attr, &s), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample__every_field_in_kernel_order),
		cmocka_unit_test(test_sample__opposite_endian),
		cmocka_unit_test(test_sample__absent_fields_keep_defaults),
		cmocka_unit_test(test_sample__truncated_at_every_length),
		cmocka_unit_test(test_sample__counts_beyond_the_record),
		cmocka_unit_test(test_sample__raw_size_beyond_the_record),
		cmocka_unit_test(test_sample__stack_dyn_size_over_size),
		cmocka_unit_test(test_sample__id_trailer_read_backwards),
		cmocka_unit_test(test_sample__id_trailer_longer_than_the_record),
		cmocka_unit_test(test_sample__user_stack_offset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
