// SPDX-License-Identifier: GPL-2.0
/*
 * test-trace-data.c - the tracing data reader (lib/trace-data.c) on inputs
 * that crash libtraceevent's format parser (fuzz-trace-data's findings, kept
 * as its seeds): one error naming the problem, no event format kept, no
 * crash; and a recording's tracing data next to them still read whole. Both
 * with one thread (the check runs in a fork) and with several (in this
 * program started again: a fork's child can deadlock on a lock another
 * thread held). And the fields of an event made here, each printed as perf
 * 6.1 prints it alone.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* set by the program's SIGSEGV handler, in memory a fork's child shares */
static volatile int *handler_ran;

static void program_handler(int sig)
{
	(void)sig;
	*handler_ran = 1;
	_exit(3);
}

static void test_trace_data__libtraceevent_crash_refused(void **state)
{
	unsigned long spawned = sampo_trace_data__nr_spawned();
	struct sigaction sa = { .sa_handler = program_handler }, old;

	(void)state;
	/* the program's own handler is not run by the child's crash */
	handler_ran = mmap(NULL, sizeof(*handler_ran), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(handler_ran != MAP_FAILED);
	*handler_ran = 0;
	assert_int_equal(sigaction(SIGSEGV, &sa, &old), 0);
	check_crashes_refused();
	assert_int_equal(sigaction(SIGSEGV, &old, NULL), 0);
	assert_int_equal(*handler_ran, 0);
	munmap((void *)handler_ran, sizeof(*handler_ran));
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

/*
 * ---- fields ----------------------------------------------------------------
 * Tracing data made here, one event of every kind of field, and a record of
 * it; the expected texts are perf 6.1's libtraceevent's rules for a field
 * printed alone (tep_print_field()): a pointer or an unsigned long in hex, a
 * signed short "%2d", a signed char "%1d", other numbers in decimal, a
 * printable string as text, any other array "ARRAY[hh, hh]".
 */
static const char test_format[] =
	"name: every_field\n"
	"ID: 7\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:void * ptr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:short s16;\toffset:16;\tsize:2;\tsigned:1;\n"
	"\tfield:signed char s8;\toffset:18;\tsize:1;\tsigned:1;\n"
	"\tfield:int i32;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:long l;\toffset:24;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long ul;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:char name[4];\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:u8 bytes[3];\toffset:44;\tsize:3;\tsigned:0;\n"
	"\tfield:__data_loc char[] str;\toffset:48;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc char[] rel;\toffset:52;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int u32;\toffset:56;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"ptr=%ps s16=%d\", REC->ptr, REC->s16\n";

static void put_le(uint8_t *p, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* the tracing data of one event's @format, little-endian, longs of 8 bytes */
static uint8_t *make_tracing_data(const char *format, size_t *ret_size)
{
	static const char header_page[] =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
	uint8_t *b = calloc(1, 4096), *p = b;

	assert_non_null(b);
	assert_true(strlen(format) < 3000);
	memcpy(p, "\027\010\104tracing0.6", 13);
	p += 14;  /* the version's zero */
	*p++ = 0; /* little-endian */
	*p++ = 8; /* long size */
	put_le(p, 4096, 4);
	p += 4;
	memcpy(p, "header_page", 12);
	p += 12;
	put_le(p, sizeof(header_page) - 1, 8);
	memcpy(p + 8, header_page, sizeof(header_page) - 1);
	p += 8 + sizeof(header_page) - 1;
	memcpy(p, "header_event", 13);
	p += 13;
	put_le(p, 0, 8); /* no header event text */
	p += 8;
	put_le(p, 0, 4); /* no ftrace formats */
	p += 4;
	put_le(p, 1, 4); /* one system */
	p += 4;
	memcpy(p, "test", 5);
	p += 5;
	put_le(p, 1, 4);
	p += 4;
	put_le(p, strlen(format), 8);
	memcpy(p + 8, format, strlen(format));
	p += 8 + strlen(format);
	put_le(p, 0, 4); /* kallsyms */
	p += 4;
	put_le(p, 0, 4); /* printk formats */
	p += 4;
	put_le(p, 0, 8); /* saved cmdlines */
	p += 8;
	*ret_size = (size_t)(p - b);
	return b;
}

/* a record of the event: every field set; str at 64, rel at 56 + 14 */
static void make_record(uint8_t raw[74])
{
	memset(raw, 0, 74);
	put_le(raw, 7, 2);
	put_le(raw + 4, 42, 4);
	put_le(raw + 8, 0xffffffff81000000ULL, 8);
	put_le(raw + 16, 5, 2);
	raw[18] = 0xff; /* -1 */
	put_le(raw + 20, (uint32_t)-7, 4);
	put_le(raw + 24, (uint64_t)-9, 8);
	put_le(raw + 32, 0x1f, 8);
	memcpy(raw + 40, "ab", 2);
	raw[44] = 1;
	raw[45] = 2;
	raw[46] = 0xff;
	put_le(raw + 48, 6u << 16 | 64, 4); /* "hello" and its zero at 64 */
	put_le(raw + 52, 4u << 16 | 14, 4); /* "xyz" at 14 after the field's end (56) */
	put_le(raw + 56, 4000000000u, 4);
	memcpy(raw + 64, "hello", 6);
	memcpy(raw + 70, "xyz", 4);
}

static void test_trace_data__fields(void **state)
{
	static const struct {
		const char *name, *text;
	} want[] = {
		{ "ptr", "0xffffffff81000000" },
		{ "s16", " 5" },
		{ "s8", "-1" },
		{ "i32", "-7" },
		{ "l", "-9" },
		{ "ul", "0x1f" },
		{ "name", "ab" },
		{ "bytes", "ARRAY[01, 02, ff]" },
		{ "str", "hello" },
		{ "rel", "xyz" },
		{ "u32", "4000000000" },
		{ "common_pid", "42" },
	};
	struct sampo_trace_data *td = NULL;
	struct sampo_trace_field f;
	const uint8_t *bytes;
	uint8_t raw[74];
	char err[256] = "", *text;
	size_t size, len;
	uint8_t *data = make_tracing_data(test_format, &size);

	(void)state;
	assert_int_equal(sampo_trace_data__parse(data, size, &td, NULL, err, sizeof(err)), 0);
	assert_int_equal(sampo_trace_data__nr_events(td), 1);
	make_record(raw);

	/* the event's own fields, in order; the common ones only by name */
	assert_int_equal(sampo_trace_data__nr_fields(td, 7), 11);
	assert_int_equal(sampo_trace_data__field_at(td, 7, 0, &f), 0);
	assert_string_equal(f.name, "ptr");
	assert_int_equal(sampo_trace_data__field_at(td, 7, 10, &f), 0);
	assert_string_equal(f.name, "u32");
	assert_int_equal(sampo_trace_data__field_at(td, 7, 11, &f), -ENOENT);
	assert_int_equal(sampo_trace_data__find_field(td, 7, "common_pid", &f), 0);
	assert_true(f.is_common);
	assert_int_equal(f.offset, 4);
	assert_int_equal(sampo_trace_data__find_field(td, 7, "nosuch", &f), -ENOENT);
	assert_int_equal(sampo_trace_data__nr_fields(td, 8), 0);

	/* where a field's bytes are: a dynamic one's from its u32 */
	assert_int_equal(sampo_trace_data__find_field(td, 7, "str", &f), 0);
	assert_true(f.is_dynamic && f.is_string && !f.is_relative);
	assert_true(sampo_trace_data__field_bytes(td, &f, raw, sizeof(raw), &bytes, &len));
	assert_ptr_equal(bytes, raw + 64);
	assert_int_equal(len, 6);
	assert_false(sampo_trace_data__field_bytes(td, &f, raw, 69, &bytes, &len));
	assert_int_equal(sampo_trace_data__find_field(td, 7, "rel", &f), 0);
	assert_true(f.is_dynamic && f.is_relative);
	assert_true(sampo_trace_data__field_bytes(td, &f, raw, sizeof(raw), &bytes, &len));
	assert_ptr_equal(bytes, raw + 70);
	assert_int_equal(len, 4);
	assert_int_equal(sampo_trace_data__find_field(td, 7, "s16", &f), 0);
	assert_true(sampo_trace_data__field_bytes(td, &f, raw, sizeof(raw), &bytes, &len));
	assert_ptr_equal(bytes, raw + 16);
	assert_int_equal(len, 2);

	/* each field alone, then all of them (--raw-trace) */
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(sampo_trace_data__format_field(td, 7, want[i].name, raw,
								sizeof(raw), &text),
				 0);
		assert_string_equal(text, want[i].text);
		free(text);
	}
	assert_int_equal(sampo_trace_data__format_field(td, 7, "nosuch", raw, sizeof(raw), &text),
			 -ENOENT);
	assert_int_equal(sampo_trace_data__format_fields(td, 7, 0, raw, sizeof(raw), &text), 0);
	assert_string_equal(text, " ptr=0xffffffff81000000 s16= 5 s8=-1 i32=-7 l=-9 ul=0x1f name=ab"
				  " bytes=ARRAY[01, 02, ff] str=hello rel=xyz u32=4000000000");
	free(text);

	/* a string with a byte that is not text is an array; a cut record reads zeros */
	raw[40] = 1;
	assert_int_equal(sampo_trace_data__format_field(td, 7, "name", raw, sizeof(raw), &text), 0);
	assert_string_equal(text, "ARRAY[01, 62, 00, 00]");
	free(text);
	assert_int_equal(sampo_trace_data__format_field(td, 7, "u32", raw, 56, &text), 0);
	assert_string_equal(text, "0");
	free(text);
	sampo_trace_data__delete(td);
	free(data);
}

/*
 * An event whose field lies past FIELD_LIMIT (fuzz-trace-data's finding: an
 * offset of 92149060) is an error, and the event is not used: libtraceevent
 * keeps it all the same (it cannot forget an event), so a record of it, or
 * one whose common_type names it, must read nothing through that field
 * rather than 92 MB past the record
 */
static void test_trace_data__field_too_far_reads_nothing(void **state)
{
	static const char far[] = "offset:92149060;";
	struct sampo_trace_data *td = NULL;
	uint8_t raw[74];
	char err[256] = "", *text, *format = malloc(sizeof(test_format) + sizeof(far)), *at;
	size_t size;
	uint8_t *data;

	(void)state;
	assert_non_null(format);
	memcpy(format, test_format, sizeof(test_format));
	at = strstr(format, "offset:56;"); /* u32's: the last field */
	assert_non_null(at);
	/* "offset:56;" (10 bytes) becomes far's */
	memmove(at + sizeof(far) - 1, at + 10, strlen(at + 10) + 1);
	memcpy(at, far, sizeof(far) - 1);
	data = make_tracing_data(format, &size);
	assert_int_equal(sampo_trace_data__parse(data, size, &td, NULL, err, sizeof(err)),
			 -SAMPO_ERR_MALFORMED);
	assert_non_null(strstr(err, "has a field past 0x10000 bytes"));
	assert_non_null(td);
	assert_int_equal(sampo_trace_data__nr_events(td), 0);
	make_record(raw);
	assert_int_equal(sampo_trace_data__format_field(td, 7, "u32", raw, sizeof(raw), &text), 0);
	assert_string_equal(text, "0");
	free(text);
	assert_int_equal(sampo_trace_data__format_fields(td, 7, 0, raw, sizeof(raw), &text), 0);
	assert_non_null(strstr(text, " u32=0"));
	free(text);
	assert_int_equal(sampo_trace_data__format(td, 7, 0, raw, sizeof(raw), &text), 0);
	free(text);
	sampo_trace_data__delete(td);
	free(data);
	free(format);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_data__libtraceevent_crash_refused),
		cmocka_unit_test(test_trace_data__threaded_checks_in_a_new_process),
		cmocka_unit_test(test_trace_data__recording_read),
		cmocka_unit_test(test_trace_data__fields),
		cmocka_unit_test(test_trace_data__field_too_far_reads_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
