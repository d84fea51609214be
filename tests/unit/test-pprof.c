// SPDX-License-Identifier: GPL-2.0
/*
 * test-pprof.c - the pprof writer (tools/sampo/pprof.c), read back with
 * protobuf-c: ids from 1 and deduplicated tables, samples of equal
 * locations and labels summed, every sample with one value per sample
 * type (types added after a sample included), labels of both kinds,
 * string_table[0] "", the default type and comments; and a file that
 * gzip reads. Go's pprof reads the real profiles in tests/cli/t61xx.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "pprof.h"
#include "profile.pb-c.h"

static Perftools__Profiles__Profile *write_and_read(struct pprof *p)
{
	char path[] = "/tmp/sampo-test-pprof.XXXXXX";
	static uint8_t buf[1 << 20];
	int fd = mkstemp(path), n;
	gzFile gz;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pprof_write(p, path), 0);
	gz = gzopen(path, "rb");
	assert_non_null(gz);
	n = gzread(gz, buf, sizeof(buf));
	assert_true(n > 0 && n < (int)sizeof(buf));
	gzclose(gz);
	unlink(path);
	return perftools__profiles__profile__unpack(NULL, (size_t)n, buf);
}

static const char *str(const Perftools__Profiles__Profile *pr, int64_t i)
{
	assert_true(i >= 0 && (size_t)i < pr->n_string_table);
	return pr->string_table[i];
}

static void test_pprof__round_trip(void **state)
{
	struct pprof *p;
	Perftools__Profiles__Profile *pr;
	uint64_t m1, m2, f1, f2, l1, l2, l3, locs[2];
	struct pprof_label lb[2] = { { .key = "pid", .num = 42 }, { .key = "comm", .str = "burn" } };
	int t0, t1, t2;

	(void)state;
	assert_int_equal(pprof_new(&p), 0);
	assert_int_equal(pprof_string(p, ""), 0);
	assert_int_equal(pprof_string(p, NULL), 0);
	t0 = pprof_sample_type(p, "cycles_sample", "count");
	t1 = pprof_sample_type(p, "cycles_event", "count");
	assert_int_equal(t0, 0);
	assert_int_equal(t1, 1);
	assert_int_equal(pprof_sample_type(p, "cycles_sample", "count"), 0);
	m1 = pprof_mapping(p, &(struct pprof_mapping){ .start = 0x1000, .limit = 0x2000,
						       .file_offset = 0x1000, .filename = "/bin/x",
						       .build_id = "abcd", .has_functions = true });
	m2 = pprof_mapping(p, &(struct pprof_mapping){ .start = 0x1000, .limit = 0x2000,
						       .file_offset = 0x1000, .filename = "/bin/x",
						       .build_id = "abcd", .has_functions = true });
	assert_int_equal(m1, 1);
	assert_int_equal(m2, 1);
	f1 = pprof_function(p, "main", "main", "x.c", 3);
	f2 = pprof_function(p, "inl", "inl", "x.c", 9);
	assert_int_equal(f1, 1);
	assert_int_equal(f2, 2);
	assert_int_equal(pprof_function(p, "main", "main", "x.c", 3), 1);
	l1 = pprof_location(p, m1, 0x1100, &(struct pprof_line){ f1, 4 }, 1);
	l2 = pprof_location(p, m1, 0x1200,
			    (struct pprof_line[]){ { f2, 10 }, { f1, 5 } }, 2);
	l3 = pprof_location(p, 0, 0xdead, NULL, 0);
	assert_int_equal(l1, 1);
	assert_int_equal(l2, 2);
	assert_int_equal(l3, 3);
	assert_int_equal(pprof_location(p, m1, 0x1100, &(struct pprof_line){ f1, 4 }, 1), 1);

	locs[0] = l2;
	locs[1] = l1;
	/* twice the same (locations, labels): one sample, values summed */
	assert_int_equal(pprof_add_sample(p, locs, 2, lb, 2,
					  (struct pprof_value[]){ { t0, 1 }, { t1, 1000 } }, 2), 0);
	assert_int_equal(pprof_add_sample(p, locs, 2, lb, 2,
					  (struct pprof_value[]){ { t0, 1 }, { t1, 500 } }, 2), 0);
	/* other labels: another sample */
	assert_int_equal(pprof_add_sample(p, locs, 2, lb, 1,
					  (struct pprof_value[]){ { t0, 1 }, { t1, 7 } }, 2), 0);
	/* a type added after samples: the earlier samples get 0 for it */
	t2 = pprof_sample_type(p, "other_event", "count");
	assert_int_equal(pprof_add_sample(p, &l3, 1, NULL, 0,
					  (struct pprof_value[]){ { t2, 5 } }, 1), 0);
	assert_int_equal(pprof_nr_samples(p), 3);
	assert_int_equal(pprof_nr_locations(p), 3);
	assert_int_equal(pprof_set_default_sample_type(p, "cycles_event"), 0);
	assert_int_equal(pprof_add_comment(p, "perf-version:6.1"), 0);
	assert_int_equal(pprof_add_comment(p, "perf-version:6.1"), 0);

	pr = write_and_read(p);
	assert_non_null(pr);
	assert_string_equal(pr->string_table[0], "");
	assert_int_equal(pr->n_sample_type, 3);
	assert_string_equal(str(pr, pr->sample_type[1]->type), "cycles_event");
	assert_string_equal(str(pr, pr->sample_type[1]->unit), "count");
	assert_string_equal(str(pr, pr->default_sample_type), "cycles_event");
	assert_int_equal(pr->n_comment, 1);
	assert_string_equal(str(pr, pr->comment[0]), "perf-version:6.1");

	assert_int_equal(pr->n_mapping, 1);
	assert_int_equal(pr->mapping[0]->id, 1);
	assert_int_equal(pr->mapping[0]->memory_start, 0x1000);
	assert_int_equal(pr->mapping[0]->memory_limit, 0x2000);
	assert_int_equal(pr->mapping[0]->file_offset, 0x1000);
	assert_string_equal(str(pr, pr->mapping[0]->filename), "/bin/x");
	assert_string_equal(str(pr, pr->mapping[0]->build_id), "abcd");
	assert_true(pr->mapping[0]->has_functions);

	assert_int_equal(pr->n_function, 2);
	assert_int_equal(pr->function[1]->id, 2);
	assert_string_equal(str(pr, pr->function[1]->name), "inl");
	assert_string_equal(str(pr, pr->function[1]->filename), "x.c");
	assert_int_equal(pr->function[1]->start_line, 9);

	assert_int_equal(pr->n_location, 3);
	assert_int_equal(pr->location[1]->id, 2);
	assert_int_equal(pr->location[1]->address, 0x1200);
	assert_int_equal(pr->location[1]->mapping_id, 1);
	assert_int_equal(pr->location[1]->n_line, 2);
	assert_int_equal(pr->location[1]->line[0]->function_id, 2);
	assert_int_equal(pr->location[1]->line[0]->line, 10);
	assert_int_equal(pr->location[1]->line[1]->function_id, 1);
	assert_int_equal(pr->location[2]->mapping_id, 0);
	assert_int_equal(pr->location[2]->n_line, 0);

	assert_int_equal(pr->n_sample, 3);
	for (size_t i = 0; i < pr->n_sample; i++)
		assert_int_equal(pr->sample[i]->n_value, 3);
	assert_int_equal(pr->sample[0]->n_location_id, 2);
	assert_int_equal(pr->sample[0]->location_id[0], 2);
	assert_int_equal(pr->sample[0]->location_id[1], 1);
	assert_int_equal(pr->sample[0]->value[0], 2);
	assert_int_equal(pr->sample[0]->value[1], 1500);
	assert_int_equal(pr->sample[0]->value[2], 0);
	assert_int_equal(pr->sample[0]->n_label, 2);
	assert_string_equal(str(pr, pr->sample[0]->label[0]->key), "pid");
	assert_int_equal(pr->sample[0]->label[0]->num, 42);
	assert_int_equal(pr->sample[0]->label[0]->str, 0);
	assert_string_equal(str(pr, pr->sample[0]->label[1]->key), "comm");
	assert_string_equal(str(pr, pr->sample[0]->label[1]->str), "burn");
	assert_int_equal(pr->sample[1]->n_label, 1);
	assert_int_equal(pr->sample[1]->value[1], 7);
	assert_int_equal(pr->sample[2]->value[0], 0);
	assert_int_equal(pr->sample[2]->value[2], 5);

	perftools__profiles__profile__free_unpacked(pr, NULL);
	pprof_delete(p);
}

static void test_pprof__labels_parse(void **state)
{
	unsigned bits = 99;

	(void)state;
	assert_int_equal(pprof_labels_parse("pid,tid", &bits), 0);
	assert_int_equal(bits, PPROF_LABEL_PID | PPROF_LABEL_TID);
	assert_int_equal(pprof_labels_parse("none", &bits), 0);
	assert_int_equal(bits, 0);
	assert_int_equal(pprof_labels_parse("all", &bits), 0);
	assert_int_equal(bits, PPROF_LABEL_PID | PPROF_LABEL_TID | PPROF_LABEL_COMM |
				       PPROF_LABEL_THREAD_COMM | PPROF_LABEL_CPU |
				       PPROF_LABEL_TIMESTAMP | PPROF_LABEL_EXECUTION_MODE);
	assert_int_equal(pprof_labels_parse("pid,bogus", &bits), -EINVAL);
	assert_int_equal(pprof_labels_parse("pi", &bits), -EINVAL);
}

static void test_pprof__unwritable(void **state)
{
	struct pprof *p;

	(void)state;
	assert_int_equal(pprof_new(&p), 0);
	assert_int_equal(pprof_write(p, "/nonexistent/dir/x.pb.gz"), -ENOENT);
	pprof_delete(p);
	pprof_delete(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pprof__round_trip),
		cmocka_unit_test(test_pprof__labels_parse),
		cmocka_unit_test(test_pprof__unwritable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
