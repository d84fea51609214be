// SPDX-License-Identifier: GPL-2.0
/*
 * test-ordered-events.c - the reader's time-ordering queue on its own:
 * releases at FINISHED_ROUND as perf's ordered_events does (up to the
 * previous round's highest time), ties in arrival order, the final flush,
 * the half flush of a queue over its limit, and arena chunks recycled over
 * many records or freed when a few records would pin them; records queued
 * in place (pointers, no copies) among copied ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "internal/ordered-events.h"

/* A SAMPLE-typed record carrying a tag, so that the test can tell them apart. */
struct tagged {
	struct sampo_record_header header;
	uint64_t tag;
	uint8_t pad[48];
};

static void queue(struct sampo_ordered_events *oe, uint64_t time, uint64_t tag, size_t size)
{
	struct tagged t = { { SAMPO_RECORD_SAMPLE, 0, (uint16_t)size }, tag, { 0 } };

	assert_true(size >= 16 && size <= sizeof(t));
	assert_int_equal(sampo_ordered_events__queue(oe, (const union sampo_record *)&t, time,
						     tag * 8, false),
			 0);
}

/* Pop everything released now; the tags in order go to @tags. */
static size_t pop_all(struct sampo_ordered_events *oe, uint64_t *tags, size_t max)
{
	union sampo_record *rec;
	uint64_t offset;
	bool decompressed;
	size_t n = 0;

	while (sampo_ordered_events__pop(oe, &rec, &offset, &decompressed)) {
		uint64_t tag;

		memcpy(&tag, (uint8_t *)rec + 8, 8);
		assert_int_equal(offset, tag * 8);
		assert_false(decompressed);
		assert_true(n < max);
		tags[n++] = tag;
		sampo_ordered_events__recycle(oe);
	}
	return n;
}

static void expect_tags(const uint64_t *got, size_t n, const uint64_t *want, size_t nr_want)
{
	assert_int_equal(n, nr_want);
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			fail_msg("record %zu is %llu, not %llu", i, (unsigned long long)got[i],
				 (unsigned long long)want[i]);
}

/*
 * perf's rounds: the first FINISHED_ROUND releases nothing (no round before
 * it); each later one releases up to the highest time of the round before,
 * because records of the current round may still be overtaken.
 */
static void test_ordered_events__release_at_finished_round(void **state)
{
	struct sampo_ordered_events oe = { 0 };
	uint64_t tags[16];
	size_t n;

	(void)state;
	queue(&oe, 50, 1, 16);
	queue(&oe, 30, 2, 16);
	queue(&oe, 90, 3, 16);
	sampo_ordered_events__round(&oe);
	assert_int_equal(pop_all(&oe, tags, 16), 0);

	queue(&oe, 40, 4, 16);
	queue(&oe, 120, 5, 16);
	queue(&oe, 95, 6, 16);
	sampo_ordered_events__round(&oe); /* up to 90 */
	n = pop_all(&oe, tags, 16);
	expect_tags(tags, n, (const uint64_t[]){ 2, 4, 1, 3 }, 4);

	/* a record older than what came out is late (counted by the reader) */
	assert_true(sampo_ordered_events__late(&oe, 60));
	assert_false(sampo_ordered_events__late(&oe, 90));
	queue(&oe, 60, 7, 16);
	sampo_ordered_events__round(&oe); /* up to 120 */
	n = pop_all(&oe, tags, 16);
	expect_tags(tags, n, (const uint64_t[]){ 7, 6, 5 }, 3);

	queue(&oe, 200, 8, 16);
	sampo_ordered_events__flush(&oe, UINT64_MAX); /* the end */
	n = pop_all(&oe, tags, 16);
	expect_tags(tags, n, (const uint64_t[]){ 8 }, 1);
	assert_int_equal(oe.nr, 0);
	sampo_ordered_events__release(&oe);
}

/* Equal times come out in the order they arrived, across runs and rounds. */
static void test_ordered_events__ties_by_arrival(void **state)
{
	struct sampo_ordered_events oe = { 0 };
	uint64_t tags[16];
	size_t n;

	(void)state;
	queue(&oe, 10, 1, 16);
	queue(&oe, 5, 2, 24);
	queue(&oe, 10, 3, 32);
	queue(&oe, 5, 4, 16);
	queue(&oe, 10, 5, 16);
	queue(&oe, 1, 6, 40);
	queue(&oe, 5, 7, 16);
	sampo_ordered_events__flush(&oe, UINT64_MAX);
	n = pop_all(&oe, tags, 16);
	expect_tags(tags, n, (const uint64_t[]){ 6, 2, 4, 7, 1, 3, 5 }, 7);
	sampo_ordered_events__release(&oe);
}

/* Records queued while a flush hands out wait for the next flush. */
static void test_ordered_events__queued_during_release_wait(void **state)
{
	struct sampo_ordered_events oe = { 0 };
	union sampo_record *rec;
	uint64_t offset, tags[8];
	bool decompressed;
	size_t n;

	(void)state;
	queue(&oe, 20, 1, 16);
	queue(&oe, 10, 2, 16);
	sampo_ordered_events__flush(&oe, 100);
	assert_true(sampo_ordered_events__pop(&oe, &rec, &offset, &decompressed));
	assert_int_equal(offset, 2 * 8);
	sampo_ordered_events__recycle(&oe);
	queue(&oe, 15, 3, 16); /* older than what is still to come out */
	n = pop_all(&oe, tags, 8);
	expect_tags(tags, n, (const uint64_t[]){ 1 }, 1);
	sampo_ordered_events__flush(&oe, UINT64_MAX);
	n = pop_all(&oe, tags, 8);
	expect_tags(tags, n, (const uint64_t[]){ 3 }, 1);
	sampo_ordered_events__release(&oe);
}

/*
 * Over its footprint limit (records and their entries) the queue releases the
 * older half of its records.
 */
static void test_ordered_events__half_flush_over_the_limit(void **state)
{
	struct sampo_ordered_events oe = { 0 };
	uint64_t tags[64];
	size_t n;

	(void)state;
	oe.limit_bytes = 10 * (16 + SAMPO_OE_ENTRY_BYTES);
	for (uint64_t i = 1; i <= 10; i++)
		queue(&oe, i * 100, i, 16);
	assert_int_equal(pop_all(&oe, tags, 64), 0); /* at the limit, not over it */
	queue(&oe, 1100, 11, 16);
	/* 11 records: the 6 oldest come out */
	n = pop_all(&oe, tags, 64);
	expect_tags(tags, n, (const uint64_t[]){ 1, 2, 3, 4, 5, 6 }, 6);
	assert_int_equal(oe.nr, 5);
	sampo_ordered_events__release(&oe); /* with records still queued */
}

/*
 * Many records through several arena chunks, released in rounds: every
 * record comes out once, in order, and the chunks are reused rather than
 * grown without bound.
 */
static void test_ordered_events__many_records_recycle_chunks(void **state)
{
	struct sampo_ordered_events oe = { 0 };
	const uint64_t per_round = 20000, rounds = 6;
	uint64_t last_time = 0, out = 0;
	union sampo_record *rec;
	uint64_t offset;
	bool decompressed;

	(void)state;
	for (uint64_t r = 0; r < rounds; r++) {
		for (uint64_t i = 0; i < per_round; i++) {
			/* four interleaved "cpus", each sorted, overlapping the last round */
			uint64_t time = r * per_round + (i % 4) * 1000 + i / 4 + 1;

			queue(&oe, time, r * per_round + i, 64);
		}
		sampo_ordered_events__round(&oe);
		while (sampo_ordered_events__pop(&oe, &rec, &offset, &decompressed)) {
			struct sampo_oe_slot *s = &oe.slots[oe.out_slot];

			assert_true(s->time >= last_time);
			last_time = s->time;
			out++;
			sampo_ordered_events__recycle(&oe);
		}
	}
	sampo_ordered_events__flush(&oe, UINT64_MAX);
	while (sampo_ordered_events__pop(&oe, &rec, &offset, &decompressed)) {
		assert_true(oe.slots[oe.out_slot].time >= last_time);
		last_time = oe.slots[oe.out_slot].time;
		out++;
		sampo_ordered_events__recycle(&oe);
	}
	assert_int_equal(out, per_round * rounds);
	assert_int_equal(oe.nr, 0);
	assert_int_equal(oe.bytes, 0);
	sampo_ordered_events__release(&oe);
}

/*
 * Records that always stay (one in 64 has a time far ahead) used to keep
 * every arena chunk alive through the half flushes: the chunks in use stay
 * within a few times the bound, and every record comes out once.
 */
static void test_ordered_events__few_records_do_not_pin_chunks(void **state)
{
	struct sampo_ordered_events oe = { 0 };
	const uint64_t n = 2000000;
	uint64_t out = 0;
	size_t max_chunks = 0;
	union sampo_record *rec;
	uint64_t offset;
	bool decompressed;

	(void)state;
	oe.limit_bytes = 4 << 20; /* about 23000 records of 64 bytes */
	for (uint64_t i = 0; i < n; i++) {
		uint64_t time = i % 64 ? i + 1 : (1ULL << 62) + i;

		queue(&oe, time, i, 64);
		while (sampo_ordered_events__pop(&oe, &rec, &offset, &decompressed)) {
			out++;
			sampo_ordered_events__recycle(&oe);
		}
		if (oe.nr_chunks > max_chunks)
			max_chunks = oe.nr_chunks;
	}
	assert_true(max_chunks <= 16); /* 4 MiB of footprint: 2 MiB of records */
	sampo_ordered_events__flush(&oe, UINT64_MAX);
	while (sampo_ordered_events__pop(&oe, &rec, &offset, &decompressed)) {
		out++;
		sampo_ordered_events__recycle(&oe);
	}
	assert_int_equal(out, n);
	assert_int_equal(oe.bytes, 0);
	sampo_ordered_events__release(&oe);
}

/*
 * Records queued in place (a file mapped whole) come out as the very
 * pointers given, mixed in time order with copied ones; they take no arena
 * chunk, and the lowest offset of those not yet handed out (what the reader
 * keeps mapped) follows the pops.
 */
static void test_ordered_events__in_place_records(void **state)
{
	struct sampo_ordered_events oe = { 0 };
	struct tagged file[4] = {
		{ { SAMPO_RECORD_SAMPLE, 0, 16 }, 10, { 0 } },
		{ { SAMPO_RECORD_SAMPLE, 0, 16 }, 11, { 0 } },
		{ { SAMPO_RECORD_SAMPLE, 0, 16 }, 12, { 0 } },
		{ { SAMPO_RECORD_SAMPLE, 0, 16 }, 13, { 0 } },
	};
	const uint64_t want[] = { 12, 1, 10, 13, 11 };
	union sampo_record *rec;
	uint64_t offset, tag;
	bool decompressed;
	size_t n = 0;

	(void)state;
	assert_int_equal(sampo_ordered_events__min_in_place(&oe), UINT64_MAX);
	assert_int_equal(sampo_ordered_events__queue_in_place(
				 &oe, (const union sampo_record *)&file[0], 30, 80),
			 0);
	queue(&oe, 20, 1, 16);
	assert_int_equal(sampo_ordered_events__queue_in_place(
				 &oe, (const union sampo_record *)&file[1], 50, 88),
			 0);
	assert_int_equal(sampo_ordered_events__queue_in_place(
				 &oe, (const union sampo_record *)&file[2], 10, 96),
			 0);
	assert_int_equal(sampo_ordered_events__queue_in_place(
				 &oe, (const union sampo_record *)&file[3], 40, 104),
			 0);
	assert_int_equal(oe.nr_chunks, 1); /* the copied record's */
	assert_int_equal(sampo_ordered_events__min_in_place(&oe), 80);
	sampo_ordered_events__flush(&oe, UINT64_MAX);
	while (sampo_ordered_events__pop(&oe, &rec, &offset, &decompressed)) {
		memcpy(&tag, (uint8_t *)rec + 8, 8);
		assert_true(n < 5);
		if (tag != want[n])
			fail_msg("record %zu is %llu, not %llu", n, (unsigned long long)tag,
				 (unsigned long long)want[n]);
		if (tag >= 10) {
			assert_ptr_equal(rec, &file[tag - 10]);
			assert_int_equal(offset, 80 + 8 * (tag - 10));
		} else {
			assert_int_equal(offset, tag * 8);
		}
		/* the record handed out last still counts until it is recycled */
		if (tag == 10)
			assert_int_equal(sampo_ordered_events__min_in_place(&oe), 80);
		sampo_ordered_events__recycle(&oe);
		if (tag == 10)
			assert_int_equal(sampo_ordered_events__min_in_place(&oe), 88);
		n++;
	}
	assert_int_equal(n, 5);
	assert_int_equal(sampo_ordered_events__min_in_place(&oe), UINT64_MAX);
	assert_int_equal(oe.nr, 0);
	assert_int_equal(oe.bytes, 0);
	sampo_ordered_events__release(&oe);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ordered_events__release_at_finished_round),
		cmocka_unit_test(test_ordered_events__ties_by_arrival),
		cmocka_unit_test(test_ordered_events__queued_during_release_wait),
		cmocka_unit_test(test_ordered_events__half_flush_over_the_limit),
		cmocka_unit_test(test_ordered_events__many_records_recycle_chunks),
		cmocka_unit_test(test_ordered_events__few_records_do_not_pin_chunks),
		cmocka_unit_test(test_ordered_events__in_place_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
