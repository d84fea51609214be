// SPDX-License-Identifier: GPL-2.0
/*
 * test-recover.c - a perf.data file whose writer never reached close (the
 * header is still zero) becomes readable up to its last complete record:
 * cut between records, in the middle of one, right after the attrs, and
 * refused when the attrs themselves are cut.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/feature.h>
#include <sampo/reader.h>
#include <sampo/recover.h>
#include <sampo/writer.h>

#include "fixture.h"

static char tmpdir[] = "/tmp/sampo-recover-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_remove_tree(tmpdir);
}

/*
 * A file as a failed recording leaves it: attrs, @nr COMM records of 24
 * bytes, the writer flushed but never closed (header still zero).
 */
static uint64_t make_cut_file(const char *path, int nr, uint64_t *ret_data_offset)
{
	struct sampo_event_attr attr = {
		.type = SAMPO_TYPE_SOFTWARE,
		.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID,
	};
	uint64_t ids[2] = { 7, 8 };
	struct sampo_writer *w;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	uint64_t end;

	assert_true(fd >= 0);
	assert_int_equal(sampo_writer__open_fd(fd, NULL, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &attr, ids, 2), 0);
	*ret_data_offset = sampo_writer__offset(w);
	for (int i = 0; i < nr; i++)
		assert_int_equal(
			sampo_writer__write_comm(w, 10, 10 + (uint32_t)i, "prog", false, NULL), 0);
	assert_int_equal(sampo_writer__flush(w), 0);
	end = (uint64_t)lseek(fd, 0, SEEK_END);
	/* what a failed close leaves: the writer freed, no header */
	close(fd);
	(void)sampo_writer__close(w); /* fails on the closed fd: nothing more is written */
	return end;
}

static int count_records(const char *path)
{
	struct sampo_reader *r;
	struct sampo_event ev;
	int n = 0, ret;

	assert_int_equal(sampo_reader__open(path, NULL, &r), 0);
	assert_int_equal(sampo_reader__nr_attrs(r), 1);
	while ((ret = sampo_reader__next(r, &ev)) > 0) {
		assert_int_equal(ev.record->header.type, SAMPO_RECORD_COMM);
		n++;
	}
	assert_int_equal(ret, 0);
	sampo_reader__close(r);
	return n;
}

static void test_recover__keeps_complete_records(void **state)
{
	char path[256];
	uint64_t data_offset, end, kept, rec = 24; /* COMM "prog": 8 + 8 + 8, no trailer */

	(void)state;
	snprintf(path, sizeof(path), "%s/a.data", tmpdir);
	end = make_cut_file(path, 10, &data_offset);
	assert_int_equal(end, data_offset + 10 * rec);

	/* cut in the middle of the 8th record */
	assert_int_equal(truncate(path, (off_t)(data_offset + 7 * rec + 12)), 0);
	assert_int_equal(sampo_perfdata__recover(path, data_offset, 1, &kept), 0);
	assert_int_equal(kept, 7 * rec);
	assert_int_equal(count_records(path), 7);

	/* again on the result: nothing changes */
	assert_int_equal(sampo_perfdata__recover(path, data_offset, 1, &kept), 0);
	assert_int_equal(kept, 7 * rec);
	assert_int_equal(count_records(path), 7);
}

static void test_recover__empty_data_and_cut_attrs(void **state)
{
	char path[256];
	uint64_t data_offset, kept = 1;

	(void)state;
	snprintf(path, sizeof(path), "%s/b.data", tmpdir);
	(void)make_cut_file(path, 3, &data_offset);
	assert_int_equal(truncate(path, (off_t)data_offset + 5), 0);
	assert_int_equal(sampo_perfdata__recover(path, data_offset, 1, &kept), 0);
	assert_int_equal(kept, 0);
	assert_int_equal(count_records(path), 0);

	assert_int_equal(truncate(path, (off_t)data_offset - 20), 0);
	assert_int_equal(sampo_perfdata__recover(path, data_offset, 1, NULL), -SAMPO_ERR_TRUNCATED);
	assert_int_equal(sampo_perfdata__recover(path, 50, 1, NULL), -EINVAL);
	assert_int_equal(sampo_perfdata__recover("/nonexistent/x", data_offset, 1, NULL), -ENOENT);
}

/*
 * One feature kept (record -z's COMPRESSED): its table entry and section in
 * the bytes the file has; the records end earlier where they would not fit
 */
static void test_recover__keeps_a_feature(void **state)
{
	const uint32_t comp[5] = { 0, 1, 3, 7, 528384 };
	struct sampo_feature_error ferr;
	struct sampo_features *f;
	struct sampo_reader *r;
	uint64_t data_offset, kept, rec = 24;
	char path[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/c.data", tmpdir);
	(void)make_cut_file(path, 10, &data_offset);
	/* cut in the 9th record: 8 complete ones and 12 bytes; the 36 bytes of the
	 * feature fit only after the 7th (7 * 24 + 36 = 8 * 24 + 12) */
	assert_int_equal(truncate(path, (off_t)(data_offset + 8 * rec + 12)), 0);
	assert_int_equal(sampo_perfdata__recover_feature(path, data_offset, 1,
							 SAMPO_FEAT_COMPRESSED, comp, sizeof(comp),
							 &kept),
			 0);
	assert_int_equal(kept, 7 * rec);
	assert_int_equal(count_records(path), 7);
	assert_int_equal(sampo_reader__open(path, NULL, &r), 0);
	assert_int_equal(sampo_features__parse(r, &f, &ferr), 0);
	assert_true(sampo_features__has(f, SAMPO_FEAT_COMPRESSED));
	assert_int_equal(f->comp_type, 1);
	assert_int_equal(f->comp_level, 3);
	assert_int_equal(f->comp_ratio, 7);
	assert_int_equal(f->comp_mmap_len, 528384);
	sampo_features__delete(f);
	sampo_reader__close(r);

	/* no record boundary leaves room, or a bad feature */
	assert_int_equal(truncate(path, (off_t)data_offset + 20), 0);
	assert_int_equal(sampo_perfdata__recover_feature(path, data_offset, 1,
							 SAMPO_FEAT_COMPRESSED, comp, sizeof(comp),
							 NULL),
			 -SAMPO_ERR_TRUNCATED);
	assert_int_equal(
		sampo_perfdata__recover_feature(path, data_offset, 1, 0, comp, sizeof(comp), NULL),
		-EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recover__keeps_complete_records),
		cmocka_unit_test(test_recover__empty_data_and_cut_attrs),
		cmocka_unit_test(test_recover__keeps_a_feature),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
