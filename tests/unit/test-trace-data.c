// SPDX-License-Identifier: GPL-2.0
/*
 * test-trace-data.c - the tracing data reader (lib/trace-data.c) on inputs
 * that crash libtraceevent's format parser (fuzz-trace-data's findings, kept
 * as its seeds): one error naming the problem, no event format kept, no
 * crash; and a recording's tracing data next to them still read whole. Both
 * with one thread (the check runs in a fork) and with several (in this
 * program started again: a fork's child can deadlock on a lock another
 * thread held).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sampo/trace-data.h>

#include "internal/trace-data.h"

/* a seed of fuzz-trace-data: u16 length, that many bytes of a sample, the tracing data */
static uint8_t *read_seed(const char *name, size_t *ret_off, size_t *ret_size)
{
	const char *src = getenv("SAMPO_SRCDIR");
	char path[4096];
	uint8_t *buf;
	long size;
	FILE *f;

	snprintf(path, sizeof(path), "%s/fuzz/corpus/trace-data/%s", src ? src : ".", name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	assert_true(size > 2);
	rewind(f);
	buf = malloc((size_t)size);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	*ret_off = 2 + ((size_t)buf[0] | (size_t)buf[1] << 8);
	assert_true(*ret_off <= (size_t)size);
	*ret_size = (size_t)size - *ret_off;
	return buf;
}

static void check_crashes_refused(void)
{
	static const char *const crashes[] = { "libtraceevent-crash-1", "libtraceevent-crash-2" };

	for (size_t i = 0; i < sizeof(crashes) / sizeof(crashes[0]); i++) {
		struct sampo_trace_data *td = NULL;
		size_t off, size, at = 1;
		char err[256] = "";
		uint8_t *buf = read_seed(crashes[i], &off, &size);

		assert_int_equal(sampo_trace_data__parse(buf + off, size, &td, &at, err, sizeof(err)),
				 -SAMPO_ERR_MALFORMED);
		assert_non_null(strstr(err, "libtraceevent cannot parse"));
		assert_int_equal(at, 0);
		assert_non_null(td);
		assert_int_equal(sampo_trace_data__nr_events(td), 0);
		sampo_trace_data__delete(td);
		free(buf);
	}
}

static void test_trace_data__libtraceevent_crash_refused(void **state)
{
	unsigned long spawned = sampo_trace_data__nr_spawned();

	(void)state;
	check_crashes_refused();
	/* one thread: checked in a fork */
	assert_int_equal(sampo_trace_data__nr_spawned(), spawned);
}

/* a second thread, waiting until told to end */
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cond = PTHREAD_COND_INITIALIZER;
static bool idle_end;

static void *idle_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&idle_lock);
	while (!idle_end)
		pthread_cond_wait(&idle_cond, &idle_lock);
	pthread_mutex_unlock(&idle_lock);
	return NULL;
}

static void test_trace_data__threaded_checks_in_a_new_process(void **state)
{
	unsigned long spawned = sampo_trace_data__nr_spawned();
	pthread_t t;

	(void)state;
	idle_end = false;
	assert_int_equal(pthread_create(&t, NULL, idle_thread, NULL), 0);
	check_crashes_refused();
	/* each crash checked in this program started again, not in a fork */
	assert_int_equal(sampo_trace_data__nr_spawned(), spawned + 2);
	pthread_mutex_lock(&idle_lock);
	idle_end = true;
	pthread_cond_signal(&idle_cond);
	pthread_mutex_unlock(&idle_lock);
	assert_int_equal(pthread_join(t, NULL), 0);
}

static void test_trace_data__recording_read(void **state)
{
	struct sampo_trace_data *td = NULL;
	size_t off, size;
	char err[256] = "";
	uint8_t *buf = read_seed("sched-switch", &off, &size);

	(void)state;
	assert_int_equal(sampo_trace_data__parse(buf + off, size, &td, NULL, err, sizeof(err)), 0);
	assert_true(sampo_trace_data__nr_events(td) > 0);
	sampo_trace_data__delete(td);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_data__libtraceevent_crash_refused),
		cmocka_unit_test(test_trace_data__threaded_checks_in_a_new_process),
		cmocka_unit_test(test_trace_data__recording_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
