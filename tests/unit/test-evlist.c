// SPDX-License-Identifier: GPL-2.0
/*
 * test-evlist.c - perf_event_open descriptors, rings and draining, on this
 * very thread: a dummy software event with mmap tracking in a one-page ring
 * sees the executable mappings the test makes, across many wrap-arounds of
 * the ring (records cut at its end come out whole); ids, enable/disable,
 * argument checks. Skipped where perf_event_open is not permitted.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/evlist.h>

struct seen {
	size_t nr_mmap2;
	size_t nr_other;
	size_t nr_bad;
	const char *want; /* the mapped file */
};

static int on_record(void *ctx, const union sampo_record *rec, size_t ring)
{
	struct seen *s = ctx;

	assert_int_equal(ring, 0);
	if (rec->header.type != SAMPO_RECORD_MMAP2) {
		s->nr_other++;
		return 0;
	}
	/* whole record: the name is where it belongs, NUL terminated inside */
	if (rec->header.size < sizeof(rec->mmap2) + 8 ||
	    !memchr(rec->mmap2.filename, 0, rec->header.size - sizeof(rec->mmap2)) ||
	    strcmp(rec->mmap2.filename, s->want) || rec->mmap2.len != 4096)
		s->nr_bad++;
	s->nr_mmap2++;
	return 0;
}

static struct sampo_evlist *open_self(void)
{
	struct sampo_event_attr attr = {
		.type = SAMPO_TYPE_SOFTWARE,
		.config = 9, /* dummy */
		.sample_period = 1,
		.sample_type = SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME,
		.flags = SAMPO_ATTR_DISABLED | SAMPO_ATTR_MMAP | SAMPO_ATTR_MMAP2 |
			 SAMPO_ATTR_SAMPLE_ID_ALL | SAMPO_ATTR_EXCLUDE_KERNEL |
			 SAMPO_ATTR_EXCLUDE_HV,
	};
	struct sampo_evlist *evlist = sampo_evlist__new();
	int tid = (int)gettid();
	int err;

	assert_non_null(evlist);
	assert_int_equal(sampo_evlist__add(evlist, &attr, "dummy"), 0);
	err = sampo_evlist__open(evlist, NULL, 0, &tid, 1);
	if (err == -EACCES || err == -EPERM || err == -ENOSYS || err == -ENOENT) {
		sampo_evlist__delete(evlist);
		return NULL;
	}
	assert_int_equal(err, 0);
	return evlist;
}

static void test_evlist__drains_whole_records_across_wraps(void **state)
{
	struct sampo_evlist *evlist = open_self();
	struct seen s = { 0 };
	char path[] = "/tmp/sampo-evlist-XXXXXX";
	size_t nr_ids;
	int fd, total = 0;

	(void)state;
	if (!evlist)
		skip();
	assert_int_equal(sampo_evlist__nr_events(evlist), 1);
	assert_string_equal(sampo_evlist__name(evlist, 0), "dummy");
	assert_non_null(sampo_evlist__ids(evlist, 0, &nr_ids));
	assert_int_equal(nr_ids, 1);
	assert_int_equal(sampo_evlist__mmap(evlist, 3), -EINVAL); /* not a power of 2 */
	assert_int_equal(sampo_evlist__mmap(evlist, 1), 0);
	assert_int_equal(sampo_evlist__nr_rings(evlist), 1);
	assert_int_equal(sampo_evlist__ring_cpu(evlist, 0), -1);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 4096), 0);
	s.want = path;
	assert_int_equal(sampo_evlist__enable(evlist), 0);
	/* ~120-byte records in a 4 KiB ring: hundreds of wraps, drained every 20 */
	for (int round = 0; round < 40; round++) {
		int64_t n;

		for (int i = 0; i < 20; i++) {
			void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

			assert_true(p != MAP_FAILED);
			munmap(p, 4096);
		}
		n = sampo_evlist__drain(evlist, on_record, &s);
		assert_true(n >= 0);
		total += (int)n;
	}
	assert_int_equal(sampo_evlist__disable(evlist), 0);
	assert_int_equal(s.nr_bad, 0);
	assert_int_equal(s.nr_mmap2, 800); /* 20 x 120 bytes < 4 KiB: nothing lost */
	assert_int_equal((size_t)total, s.nr_mmap2 + s.nr_other);

	/* after disable: no new records */
	{
		void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

		munmap(p, 4096);
	}
	assert_int_equal(sampo_evlist__drain(evlist, on_record, &s), 0);
	close(fd);
	unlink(path);
	sampo_evlist__delete(evlist);
}

static void test_evlist__argument_checks(void **state)
{
	struct sampo_event_attr attr = { .type = SAMPO_TYPE_SOFTWARE, .config = 9 };
	struct sampo_evlist *evlist = sampo_evlist__new();

	(void)state;
	assert_int_equal(sampo_evlist__add(evlist, NULL, "x"), -EINVAL);
	assert_int_equal(sampo_evlist__open(evlist, NULL, 0, NULL, 0), -EINVAL); /* no events */
	assert_int_equal(sampo_evlist__add(evlist, &attr, "dummy"), 0);
	assert_int_equal(sampo_evlist__attr(evlist, 0)->size, SAMPO_ATTR_SIZE_VER7);
	assert_null(sampo_evlist__attr(evlist, 1));
	assert_int_equal(sampo_evlist__open(evlist, NULL, 0, NULL, 0), -EINVAL); /* no target */
	assert_int_equal(sampo_evlist__mmap(evlist, 1), -EINVAL);		  /* not open */
	assert_int_equal(sampo_evlist__drain(evlist, NULL, NULL), -EINVAL);
	assert_int_equal(sampo_evlist__failed_event(evlist), -1);
	sampo_evlist__delete(evlist);
	sampo_evlist__delete(NULL);

	attr.flags = SAMPO_ATTR_SAMPLE_ID_ALL;
	attr.sample_type = SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME | SAMPO_SAMPLE_CPU | SAMPO_SAMPLE_IP;
	assert_int_equal(sampo_evlist__sample_id_size(&attr), 24);
	attr.flags = 0;
	assert_int_equal(sampo_evlist__sample_id_size(&attr), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evlist__drains_whole_records_across_wraps),
		cmocka_unit_test(test_evlist__argument_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
