// SPDX-License-Identifier: GPL-2.0
/*
 * test-record-state.c - record --switch-output's state: the records read from
 * the rings are applied in time order, whatever ring they came from, so
 * that a new file starts with each process under its own name and maps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sampo/event.h>

#include "record-state.h"

#define ALIGN8(n) (((n) + 7) & ~(size_t)7)

/* records laid out as sampo record lays them out: a TID and TIME sample_id trailer */
static const struct sampo_event_attr attr = {
	.sample_type = SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME,
	.flags = SAMPO_ATTR_SAMPLE_ID_ALL,
};

struct rec_buf {
	union {
		union sampo_record rec;
		uint8_t bytes[512];
	} u;
};

static const union sampo_record *with_trailer(struct rec_buf *b, size_t body, uint32_t pid,
					      uint32_t tid, uint64_t time)
{
	uint32_t ids[2] = { pid, tid };
	uint8_t *trailer = (uint8_t *)b + body; /* from the buffer, not from a record's fields */

	memcpy(trailer, ids, sizeof(ids));
	memcpy(trailer + 8, &time, sizeof(time));
	b->u.rec.header.size = (uint16_t)(body + 16);
	return &b->u.rec;
}

static const union sampo_record *comm(struct rec_buf *b, uint32_t pid, const char *name, bool exec,
				      uint64_t time)
{
	memset(b, 0, sizeof(*b));
	b->u.rec.header.type = SAMPO_RECORD_COMM;
	b->u.rec.header.misc = exec ? SAMPO_MISC_COMM_EXEC : 0;
	b->u.rec.comm.pid = b->u.rec.comm.tid = pid;
	strcpy(b->u.rec.comm.comm, name);
	return with_trailer(b, sizeof(b->u.rec.comm) + ALIGN8(strlen(name) + 1), pid, pid, time);
}

static const union sampo_record *fork_of(struct rec_buf *b, uint32_t pid, uint32_t ppid,
					 uint64_t time)
{
	memset(b, 0, sizeof(*b));
	b->u.rec.header.type = SAMPO_RECORD_FORK;
	b->u.rec.fork.pid = b->u.rec.fork.tid = pid;
	b->u.rec.fork.ppid = b->u.rec.fork.ptid = ppid;
	b->u.rec.fork.time = time;
	return with_trailer(b, sizeof(b->u.rec.fork), ppid, ppid, time);
}

static const union sampo_record *mmap2(struct rec_buf *b, uint32_t pid, uint64_t start,
				       const char *file, uint64_t time)
{
	memset(b, 0, sizeof(*b));
	b->u.rec.header.type = SAMPO_RECORD_MMAP2;
	b->u.rec.header.misc = SAMPO_CPUMODE_USER;
	b->u.rec.mmap2.pid = b->u.rec.mmap2.tid = pid;
	b->u.rec.mmap2.start = start;
	b->u.rec.mmap2.len = 0x1000;
	b->u.rec.mmap2.prot = 5; /* r-x */
	b->u.rec.mmap2.ino = 1;
	strcpy(b->u.rec.mmap2.filename, file);
	return with_trailer(b, sizeof(b->u.rec.mmap2) + ALIGN8(strlen(file) + 1), pid, pid, time);
}

/* what record_state__synthesize() writes for pid 200: its name and its maps' files */
struct seen {
	char comm[32];
	char maps[256];
};

static int note_child(void *ctx, const union sampo_record *rec)
{
	struct seen *s = ctx;

	if (rec->header.type == SAMPO_RECORD_COMM && rec->comm.pid == 200)
		snprintf(s->comm, sizeof(s->comm), "%s", rec->comm.comm);
	if (rec->header.type == SAMPO_RECORD_MMAP2 && rec->mmap2.pid == 200) {
		strncat(s->maps, rec->mmap2.filename, sizeof(s->maps) - strlen(s->maps) - 2);
		strcat(s->maps, " ");
	}
	return 0;
}

/* a shell (pid 100) that has run for a while: synthesized at the start, in order */
static struct record_state *shell_state(void)
{
	struct record_state *s;
	struct rec_buf b;

	assert_int_equal(record_state__new(&attr, &s), 0);
	assert_int_equal(record_state__apply(s, comm(&b, 100, "sh", false, 1)), 0);
	assert_int_equal(record_state__apply(s, mmap2(&b, 100, 0x400000, "/bin/sh", 2)), 0);
	return s;
}

static struct seen synthesize(struct record_state *s)
{
	SAMPO_OPTS(sampo_synth_opts, o, .sample_id_size = 16);
	struct seen seen = { 0 };

	assert_int_equal(record_state__synthesize(s, &o, note_child, &seen), 0);
	return seen;
}

/*
 * One pass reads the child's exec (COMM, then burn's map) from one ring
 * before the shell's FORK of it from another: in time order the child is
 * burn, with burn's map after the copy of the shell's (an exec drops no
 * map, as in perf: the new ones cover the old where they overlap). In
 * arrival order it would be a copy of the shell, without burn's map.
 */
static void test_record_state__one_pass_in_time_order(void **state)
{
	struct record_state *s = shell_state();
	struct rec_buf b;
	struct seen seen;

	(void)state;
	assert_int_equal(record_state__queue(s, comm(&b, 200, "burn", true, 30)), 0);
	assert_int_equal(record_state__queue(s, mmap2(&b, 200, 0x500000, "/bin/burn", 31)), 0);
	assert_int_equal(record_state__queue(s, fork_of(&b, 200, 100, 20)), 0);
	assert_int_equal(record_state__end_round(s), 0);
	seen = synthesize(s);
	assert_string_equal(seen.comm, "burn");
	assert_string_equal(seen.maps, "/bin/sh /bin/burn ");
	record_state__delete(s);
}

/*
 * The FORK comes a pass later than the exec (written to its ring just after
 * that ring was read): the exec waits for the pass after its own, and the
 * FORK, older, still goes first
 */
static void test_record_state__overtaken_by_the_next_pass(void **state)
{
	struct record_state *s = shell_state();
	struct rec_buf b;
	struct seen seen;

	(void)state;
	assert_int_equal(record_state__queue(s, comm(&b, 200, "burn", true, 100)), 0);
	assert_int_equal(record_state__queue(s, mmap2(&b, 200, 0x500000, "/bin/burn", 101)), 0);
	assert_int_equal(record_state__end_round(s), 0);
	assert_int_equal(record_state__queue(s, fork_of(&b, 200, 100, 50)), 0);
	assert_int_equal(record_state__end_round(s), 0);
	/* a third pass: its own records wait, the first two passes' are applied */
	assert_int_equal(record_state__queue(s, mmap2(&b, 200, 0x600000, "/lib/libc.so", 200)), 0);
	assert_int_equal(record_state__end_round(s), 0);
	seen = synthesize(s);
	assert_string_equal(seen.comm, "burn");
	assert_string_equal(seen.maps, "/bin/sh /bin/burn /lib/libc.so ");
	record_state__delete(s);
}

/* a child between fork and exec is a copy of the shell; each file starts from the last state */
static void test_record_state__synthesized_again(void **state)
{
	struct record_state *s = shell_state();
	struct rec_buf b;
	struct seen seen;

	(void)state;
	assert_int_equal(record_state__queue(s, fork_of(&b, 200, 100, 20)), 0);
	seen = synthesize(s);
	assert_string_equal(seen.comm, "sh");
	assert_string_equal(seen.maps, "/bin/sh ");
	/* nothing fed back: the next file knows nothing */
	seen = synthesize(s);
	assert_string_equal(seen.comm, "");
	record_state__delete(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_state__one_pass_in_time_order),
		cmocka_unit_test(test_record_state__overtaken_by_the_next_pass),
		cmocka_unit_test(test_record_state__synthesized_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
