// SPDX-License-Identifier: GPL-2.0
/*
 * test-session.c - the session (lib/session.c): files made with sampo's
 * writer in a temporary file, then walked through a tool: the order of the
 * callbacks, the machine's state as a callback sees it (before and after),
 * the lost counters, the event names (EVENT_DESC, EVENT_UPDATE, made up),
 * pipe mode, the feature modes, a tool that stops, errors that name the
 * file and the offset, and the values of PERF_SAMPLE_READ samples (group
 * and single reads, periods as increases, unknown ids).
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

#include <cmocka.h>

#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/writer.h>

#define PID	   42
#define MAP_START  0x400000ULL
#define MAP_LEN	   0x1000ULL
#define SAMPLE_IP  0x400123ULL
#define SAMPLE_TY  (SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_PERIOD | SAMPO_SAMPLE_ID)
#define MAX_TYPES  64

struct tmp {
	char path[64];
};

static void tmp_make(struct tmp *t)
{
	int fd;

	snprintf(t->path, sizeof(t->path), "/tmp/test-session-XXXXXX");
	fd = mkstemp(t->path);
	assert_true(fd >= 0);
	close(fd);
}

static void tmp_drop(struct tmp *t)
{
	(void)unlink(t->path);
}

static void attr_init(struct sampo_event_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->type = type;
	a->config = config;
	a->sample_type = SAMPLE_TY;
	a->sample_period = 1;
}

/*
 * Two events (cpu-clock id 1, task-clock id 2); COMM, MMAP2, SAMPLE, LOST,
 * LOST_SAMPLES, EVENT_UPDATE (renames event @rename_id unless 0), SAMPLE of
 * the second event. @desc: write EVENT_DESC with these two names.
 */
static void write_file(const char *path, bool pipe, const char *const *desc, uint64_t rename_id)
{
	SAMPO_OPTS(sampo_writer_opts, wo, .pipe = pipe);
	struct sampo_writer_map m = {
		.misc = SAMPO_CPUMODE_USER,
		.pid = PID,
		.tid = PID,
		.start = MAP_START,
		.len = MAP_LEN,
		.prot = 5,
		.flags = 2,
		.filename = "/usr/bin/burn",
	};
	struct sampo_sample s = { .ip = SAMPLE_IP, .pid = PID, .tid = PID, .period = 7, .id = 1 };
	struct sampo_event_attr a;
	union sampo_record rec;
	uint64_t id1 = 1, id2 = 2;
	struct sampo_writer *w;

	assert_int_equal(sampo_writer__open(path, &wo, &w), 0);
	attr_init(&a, SAMPO_TYPE_SOFTWARE, 0);
	assert_int_equal(sampo_writer__add_attr(w, &a, &id1, 1), 0);
	attr_init(&a, SAMPO_TYPE_SOFTWARE, 1);
	assert_int_equal(sampo_writer__add_attr(w, &a, &id2, 1), 1);
	if (desc)
		assert_int_equal(sampo_writer__set_feature_event_desc(w, desc, 2), 0);
	assert_int_equal(sampo_writer__set_feature_string(w, SAMPO_FEAT_HOSTNAME, "box"), 0);
	assert_int_equal(sampo_writer__write_comm(w, PID, PID, "burn", true, NULL), 0);
	assert_int_equal(sampo_writer__write_mmap2(w, &m, NULL), 0);
	assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &s), 0);

	memset(&rec, 0, sizeof(rec));
	rec.lost.header.type = SAMPO_RECORD_LOST;
	rec.lost.header.size = sizeof(rec.lost);
	rec.lost.id = 1;
	rec.lost.lost = 3;
	assert_int_equal(sampo_writer__write_record(w, &rec), 0);
	memset(&rec, 0, sizeof(rec));
	rec.lost_samples.header.type = SAMPO_RECORD_LOST_SAMPLES;
	rec.lost_samples.header.size = sizeof(rec.lost_samples);
	rec.lost_samples.lost = 5;
	assert_int_equal(sampo_writer__write_record(w, &rec), 0);

	if (rename_id)
		assert_int_equal(sampo_writer__write_event_update(w, SAMPO_EVENT_UPDATE_NAME,
								  rename_id, "renamed"),
				 0);
	s.id = 2;
	assert_int_equal(sampo_writer__write_sample(w, 1, SAMPO_CPUMODE_USER, &s), 0);
	assert_int_equal(sampo_writer__close(w), 0);
}

/* what the callbacks saw */
struct seen {
	uint32_t types[MAX_TYPES];
	size_t nr;
	int nr_samples;
	bool comm_known_at_comm;   /* the machine knew the COMM when the tool saw it */
	bool map_known_at_mmap;	   /* ... the map when the tool saw the MMAP2 */
	bool thread_ok_at_sample;  /* the sample's thread and map, when it saw the sample */
	char first_name[32];	   /* the event name at the first sample */
	int stop_after;		   /* stop (return 1) after this many records; 0: never */
};

static int on_any(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct seen *seen = arg;

	(void)session;
	if (seen->nr < MAX_TYPES)
		seen->types[seen->nr] = ev->record->header.type;
	seen->nr++;
	if (seen->stop_after && seen->nr == (size_t)seen->stop_after)
		return 1;
	return 0;
}

static int on_comm(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct seen *seen = arg;
	struct sampo_thread *t = sampo_machine__find_thread(sampo_session__machine(session), PID,
							    PID);

	seen->comm_known_at_comm = t && !strcmp(sampo_thread__comm(t), "burn");
	sampo_thread__put(t);
	return on_any(arg, session, ev);
}

static int on_mmap(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct seen *seen = arg;
	struct sampo_machine *machine = sampo_session__machine(session);
	struct sampo_addr_location al = { 0 };
	struct sampo_thread *t = sampo_machine__find_thread(machine, PID, PID);

	seen->map_known_at_mmap =
		t && sampo_machine__find_map(machine, t, SAMPO_CPUMODE_USER, SAMPLE_IP, &al);
	sampo_addr_location__exit(&al);
	sampo_thread__put(t);
	return on_any(arg, session, ev);
}

static int on_sample(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct seen *seen = arg;
	struct sampo_addr_location al = { 0 };

	if (!seen->nr_samples++) {
		snprintf(seen->first_name, sizeof(seen->first_name), "%s",
			 sampo_session__evsel_name(session, ev->attr_idx));
		assert_int_equal(sampo_machine__resolve(sampo_session__machine(session),
							&ev->sample, &al),
				 0);
		seen->thread_ok_at_sample = al.thread && al.map &&
					    !strcmp(sampo_thread__comm(al.thread), "burn");
		sampo_addr_location__exit(&al);
	}
	return on_any(arg, session, ev);
}

static const struct sampo_tool tool = {
	.sample = on_sample,
	.comm = on_comm,
	.mmap = on_mmap,
	.other = on_any,
};

static struct sampo_session *open_ok(const char *path, const struct sampo_session_opts *opts)
{
	struct sampo_session *s = NULL;
	char errbuf[256] = "x";
	SAMPO_OPTS(sampo_session_opts, def, .ordered = true);

	if (!opts) {
		def.errbuf = errbuf;
		def.errbuf_sz = sizeof(errbuf);
		opts = &def;
	}
	assert_int_equal(sampo_session__open(path, opts, &s), 0);
	assert_non_null(s);
	return s;
}

static void test_session__callbacks_in_order_after_the_machine(void **state)
{
	static const char *const desc[] = { "cpu-clock", "task-clock" };
	struct seen seen = { 0 };
	struct sampo_session *s;
	struct tmp t;

	(void)state;
	tmp_make(&t);
	write_file(t.path, false, desc, 0);
	s = open_ok(t.path, NULL);
	assert_int_equal(sampo_session__process(s, &tool, &seen), 0);

	assert_int_equal(seen.nr, 6);
	assert_int_equal(seen.types[0], SAMPO_RECORD_COMM);
	assert_int_equal(seen.types[1], SAMPO_RECORD_MMAP2);
	assert_int_equal(seen.types[2], SAMPO_RECORD_SAMPLE);
	assert_int_equal(seen.types[3], SAMPO_RECORD_LOST);
	assert_int_equal(seen.types[4], SAMPO_RECORD_LOST_SAMPLES);
	assert_int_equal(seen.types[5], SAMPO_RECORD_SAMPLE);
	assert_true(seen.comm_known_at_comm);
	assert_true(seen.map_known_at_mmap);
	assert_true(seen.thread_ok_at_sample);
	assert_int_equal(seen.nr_samples, 2);
	assert_false(sampo_session__is_pipe(s));
	assert_non_null(sampo_session__features(s));
	assert_string_equal(sampo_session__error(s), "");
	sampo_session__close(s);
	tmp_drop(&t);
}

static void test_session__machine_after_tool(void **state)
{
	SAMPO_OPTS(sampo_session_opts, opts, .machine_after_tool = true);
	struct seen seen = { 0 };
	struct sampo_session *s;
	struct tmp t;

	(void)state;
	tmp_make(&t);
	write_file(t.path, false, NULL, 0);
	s = open_ok(t.path, &opts);
	assert_int_equal(sampo_session__process(s, &tool, &seen), 0);
	assert_false(seen.comm_known_at_comm);
	assert_false(seen.map_known_at_mmap);
	assert_true(seen.thread_ok_at_sample); /* the machine caught up before the sample */
	sampo_session__close(s);
	tmp_drop(&t);
}

static void test_session__machine_mask(void **state)
{
	/* MMAP2 and FORK only: the COMM never reaches the machine */
	SAMPO_OPTS(sampo_session_opts, opts,
		   .machine_mask = (1ULL << SAMPO_RECORD_MMAP2) | (1ULL << SAMPO_RECORD_FORK));
	struct seen seen = { 0 };
	struct sampo_session *s;
	struct tmp t;

	(void)state;
	tmp_make(&t);
	write_file(t.path, false, NULL, 0);
	s = open_ok(t.path, &opts);
	assert_int_equal(sampo_session__process(s, &tool, &seen), 0);
	assert_false(seen.comm_known_at_comm);
	assert_true(seen.map_known_at_mmap);
	sampo_session__close(s);
	tmp_drop(&t);
}

static void test_session__lost_counters(void **state)
{
	struct sampo_session *s;
	const struct sampo_session_lost *lost;
	struct tmp t;

	(void)state;
	tmp_make(&t);
	write_file(t.path, false, NULL, 0);
	s = open_ok(t.path, NULL);
	lost = sampo_session__lost(s);
	assert_int_equal(lost->nr_records, 0);
	assert_int_equal(sampo_session__process(s, NULL, NULL), 0);
	assert_int_equal(lost->lost, 3);
	assert_int_equal(lost->lost_samples, 5);
	assert_int_equal(lost->nr_records, 2);
	sampo_session__close(s);
	tmp_drop(&t);
}

static void test_session__names_from_event_desc_and_event_update(void **state)
{
	static const char *const desc[] = { "cpu-clock:u", "my-task-clock" };
	struct seen seen = { 0 };
	struct sampo_session *s;
	struct tmp t;

	(void)state;
	tmp_make(&t);
	write_file(t.path, false, desc, 2);
	s = open_ok(t.path, NULL);
	assert_int_equal(sampo_session__nr_events(s), 2);
	assert_string_equal(sampo_session__evsel_name(s, 0), "cpu-clock:u");
	assert_string_equal(sampo_session__evsel_name(s, 1), "my-task-clock");
	assert_int_equal(sampo_session__process(s, &tool, &seen), 0);
	assert_string_equal(sampo_session__evsel_name(s, 0), "cpu-clock:u");
	assert_string_equal(sampo_session__evsel_name(s, 1), "renamed");
	assert_string_equal(sampo_session__evsel_name(s, 2), "unknown");
	assert_string_equal(sampo_session__evsel_name(s, -1), "unknown");
	sampo_session__close(s);
	tmp_drop(&t);
}

static void test_session__made_up_names_and_event_update_id_zero(void **state)
{
	struct sampo_session *s;
	struct tmp t;

	(void)state;
	tmp_make(&t);
	/* no EVENT_DESC; an EVENT_UPDATE of id 0 is the first event's */
	write_file(t.path, false, NULL, 0);
	s = open_ok(t.path, NULL);
	assert_string_equal(sampo_session__evsel_name(s, 0), "cpu-clock:HG");
	assert_string_equal(sampo_session__evsel_name(s, 1), "task-clock:HG");
	sampo_session__close(s);
	tmp_drop(&t);

	tmp_make(&t);
	{
		SAMPO_OPTS(sampo_writer_opts, wo);
		struct sampo_event_attr a;
		struct sampo_writer *w;

		assert_int_equal(sampo_writer__open(t.path, &wo, &w), 0);
		attr_init(&a, SAMPO_TYPE_HARDWARE, 0);
		assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), 0);
		assert_int_equal(
			sampo_writer__write_event_update(w, SAMPO_EVENT_UPDATE_NAME, 0, "cyc"), 0);
		assert_int_equal(sampo_writer__close(w), 0);
	}
	s = open_ok(t.path, NULL);
	assert_string_equal(sampo_session__evsel_name(s, 0), "cycles:HG");
	assert_int_equal(sampo_session__process(s, NULL, NULL), 0);
	assert_string_equal(sampo_session__evsel_name(s, 0), "cyc");
	sampo_session__close(s);
	tmp_drop(&t);
}

static void test_session__pipe_mode(void **state)
{
	static const char *const desc[] = { "one", "two" };
	struct seen seen = { 0 };
	struct sampo_session *s;
	struct sampo_features *f;
	struct tmp t;

	(void)state;
	tmp_make(&t);
	write_file(t.path, true, desc, 1);
	s = open_ok(t.path, NULL);
	assert_true(sampo_session__is_pipe(s));
	assert_null(sampo_session__features(s)); /* nothing has passed yet */
	assert_int_equal(sampo_session__process(s, &tool, &seen), 0);
	/* the features came as records; EVENT_DESC named both, EVENT_UPDATE renamed one */
	f = sampo_session__features(s);
	assert_non_null(f);
	assert_true(sampo_features__has(f, SAMPO_FEAT_HOSTNAME));
	assert_string_equal(f->hostname, "box");
	assert_string_equal(seen.first_name, "one");
	assert_string_equal(sampo_session__evsel_name(s, 0), "renamed");
	assert_string_equal(sampo_session__evsel_name(s, 1), "two");
	assert_int_equal(sampo_session__lost(s)->lost_samples, 5);
	assert_int_equal(seen.nr_samples, 2);
	sampo_session__close(s);
	tmp_drop(&t);
}

static void test_session__tool_stops_and_resumes(void **state)
{
	struct seen seen = { .stop_after = 2 };
	struct sampo_session *s;
	struct tmp t;

	(void)state;
	tmp_make(&t);
	write_file(t.path, false, NULL, 0);
	s = open_ok(t.path, NULL);
	assert_int_equal(sampo_session__process(s, &tool, &seen), 1);
	assert_int_equal(seen.nr, 2);
	seen.stop_after = 0;
	assert_int_equal(sampo_session__process(s, &tool, &seen), 0);
	assert_int_equal(seen.nr, 6);
	sampo_session__close(s);
	tmp_drop(&t);
}

static int fail_sample(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	(void)arg;
	(void)session;
	(void)ev;
	return -ENOMEM;
}

static void test_session__errors_name_the_offset(void **state)
{
	const struct sampo_tool failing = { .sample = fail_sample };
	char errbuf[256] = "";
	SAMPO_OPTS(sampo_session_opts, opts, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	struct sampo_session *s = NULL;
	struct sampo_reader *r;
	struct sampo_event ev;
	uint64_t sample_off = 0;
	char want[64];
	struct tmp t;
	long size;
	FILE *fp;

	(void)state;
	/* no file: the open fails and says so */
	assert_int_equal(sampo_session__open("/nonexistent/perf.data", &opts, &s), -ENOENT);
	assert_null(s);
	assert_non_null(strstr(errbuf, "/nonexistent/perf.data"));

	/* a callback's failure names the record's offset */
	tmp_make(&t);
	write_file(t.path, false, NULL, 0);
	s = open_ok(t.path, NULL);
	r = sampo_session__reader(s);
	assert_non_null(r);
	assert_int_equal(sampo_session__process(s, &failing, NULL), -ENOMEM);
	sampo_session__close(s);
	assert_int_equal(sampo_reader__open(t.path, NULL, &r), 0);
	while (sampo_reader__next(r, &ev) > 0 && !sample_off) {
		if (ev.record->header.type == SAMPO_RECORD_SAMPLE)
			sample_off = ev.offset;
	}
	sampo_reader__close(r);
	s = open_ok(t.path, NULL);
	assert_int_equal(sampo_session__process(s, &failing, NULL), -ENOMEM);
	snprintf(want, sizeof(want), "offset %#llx", (unsigned long long)sample_off);
	assert_non_null(strstr(sampo_session__error(s), want));
	sampo_session__close(s);

	/* a file cut inside a record: the reader's error, with its offset */
	fp = fopen(t.path, "r+");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	size = ftell(fp);
	fclose(fp);
	assert_int_equal(truncate(t.path, (off_t)sample_off + 12), 0);
	assert_true(size > (long)sample_off + 12);
	{
		SAMPO_OPTS(sampo_session_opts, o, .features = SAMPO_SESSION_FEATURES_NONE);

		s = open_ok(t.path, &o);
	}
	assert_true(sampo_session__process(s, NULL, NULL) < 0);
	assert_non_null(strstr(sampo_session__error(s), t.path));
	assert_non_null(strstr(sampo_session__error(s), "offset"));
	sampo_session__close(s);
	tmp_drop(&t);
}

static void test_session__optional_features(void **state)
{
	char errbuf[256] = "";
	SAMPO_OPTS(sampo_session_opts, strict, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	SAMPO_OPTS(sampo_session_opts, optional, .features = SAMPO_SESSION_FEATURES_OPTIONAL);
	SAMPO_OPTS(sampo_session_opts, each, .features = SAMPO_SESSION_FEATURES_EACH,
		   .feature_mask = 1ULL << SAMPO_FEAT_HOSTNAME);
	static const uint8_t bad_nrcpus[] = { 1, 0 }; /* 2 bytes: NRCPUS needs 8 */
	SAMPO_OPTS(sampo_writer_opts, wo);
	struct sampo_event_attr a;
	struct sampo_session *s = NULL;
	struct sampo_writer *w;
	struct tmp t;

	(void)state;
	tmp_make(&t);
	assert_int_equal(sampo_writer__open(t.path, &wo, &w), 0);
	attr_init(&a, SAMPO_TYPE_SOFTWARE, 0);
	assert_int_equal(sampo_writer__add_attr(w, &a, NULL, 0), 0);
	assert_int_equal(sampo_writer__set_feature_string(w, SAMPO_FEAT_HOSTNAME, "box"), 0);
	assert_int_equal(sampo_writer__set_feature(w, SAMPO_FEAT_NRCPUS, bad_nrcpus,
						   sizeof(bad_nrcpus)),
			 0);
	assert_int_equal(sampo_writer__close(w), 0);

	/* every feature must parse: the open fails and names the file */
	assert_true(sampo_session__open(t.path, &strict, &s) < 0);
	assert_null(s);
	assert_non_null(strstr(errbuf, t.path));

	/* all or none: none, and the reason */
	s = open_ok(t.path, &optional);
	assert_null(sampo_session__features(s));
	assert_non_null(strstr(sampo_session__error(s), "NRCPUS"));
	sampo_session__close(s);

	/* each that parses, among those asked for */
	s = open_ok(t.path, &each);
	assert_non_null(sampo_session__features(s));
	assert_true(sampo_features__has(sampo_session__features(s), SAMPO_FEAT_HOSTNAME));
	assert_false(sampo_features__has(sampo_session__features(s), SAMPO_FEAT_NRCPUS));
	sampo_session__close(s);
	tmp_drop(&t);
}

static void test_session__no_machine_no_symbolizer(void **state)
{
	SAMPO_OPTS(sampo_session_opts, opts, .no_machine = true,
		   .features = SAMPO_SESSION_FEATURES_NONE);
	struct seen seen = { 0 };
	struct sampo_session *s;
	struct tmp t;

	(void)state;
	tmp_make(&t);
	write_file(t.path, false, NULL, 0);
	s = open_ok(t.path, &opts);
	assert_null(sampo_session__machine(s));
	assert_null(sampo_session__features(s));
	assert_null(sampo_session__symbolizer(s));
	assert_null(sampo_session__module_sections(s));
	assert_int_equal(sampo_session__process(s, &(struct sampo_tool){ .other = on_any }, &seen),
			 0);
	assert_int_equal(seen.nr, 6);
	sampo_session__close(s);
	sampo_session__close(NULL);
	tmp_drop(&t);
}

/* ---- PERF_SAMPLE_READ values ---------------------------------------------- */

#define READ_TY	    (SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_ID | SAMPO_SAMPLE_READ)
#define MAX_VALUES 16

/*
 * A group (leader id 1, member id 2; read_format GROUP|ID) and a single
 * event (id 3; TOTAL_TIME_ENABLED|ID). The leader's samples read the group:
 * {10, 5}, {10, 8}, {15, <id 99> 8}; the single event's read 7, then 7.
 */
static void write_read_file(const char *path)
{
	static const uint64_t reads[][5] = {
		{ 2, 10, 1, 5, 2 }, { 2, 10, 1, 8, 2 }, { 2, 15, 1, 8, 99 },
		{ 7, 100, 3 },	    { 7, 200, 3 },
	};
	struct sampo_sample s = { .ip = SAMPLE_IP, .pid = PID, .tid = PID };
	struct sampo_event_attr a;
	uint64_t ids[] = { 1, 2, 3 };
	struct sampo_writer *w;

	assert_int_equal(sampo_writer__open(path, NULL, &w), 0);
	for (int i = 0; i < 3; i++) {
		attr_init(&a, SAMPO_TYPE_SOFTWARE, (uint64_t)i);
		a.sample_type = READ_TY;
		a.read_format = i < 2 ? SAMPO_FORMAT_GROUP | SAMPO_FORMAT_ID :
					SAMPO_FORMAT_TOTAL_TIME_ENABLED | SAMPO_FORMAT_ID;
		assert_int_equal(sampo_writer__add_attr(w, &a, &ids[i], 1), i);
	}
	for (size_t i = 0; i < 5; i++) {
		s.id = i < 3 ? 1 : 3;
		s.read_values = reads[i];
		s.read_nr_words = i < 3 ? 5 : 3;
		assert_int_equal(sampo_writer__write_sample(w, i < 3 ? 0 : 2, SAMPO_CPUMODE_USER,
							    &s),
				 0);
	}
	assert_int_equal(sampo_writer__close(w), 0);
}

struct values_seen {
	struct sampo_sample_value v[MAX_VALUES];
	int sample_of[MAX_VALUES]; /* which sample (0, 1, ...) handed it out */
	size_t nr;
	int nr_samples;
	int stop_with; /* the callback's return (0: go on) */
	int last_ret;  /* sampo_session__sample_values()'s */
};

static int on_value(void *arg, const struct sampo_sample_value *v)
{
	struct values_seen *seen = arg;

	if (seen->nr < MAX_VALUES) {
		seen->v[seen->nr] = *v;
		seen->sample_of[seen->nr] = seen->nr_samples;
	}
	seen->nr++;
	return seen->stop_with;
}

static int on_read_sample(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct values_seen *seen = arg;

	seen->last_ret = sampo_session__sample_values(session, ev, on_value, seen);
	seen->nr_samples++;
	return seen->last_ret;
}

static void assert_value(const struct values_seen *seen, size_t i, int sample, int evsel,
			 uint64_t id, uint64_t value, uint64_t period)
{
	assert_true(i < seen->nr);
	assert_int_equal(seen->sample_of[i], sample);
	assert_int_equal(seen->v[i].evsel, evsel);
	assert_int_equal(seen->v[i].id, id);
	assert_int_equal(seen->v[i].value, value);
	assert_int_equal(seen->v[i].period, period);
}

static void test_session__sample_values(void **state)
{
	struct values_seen seen = { 0 };
	struct sampo_session *s;
	struct tmp t;

	(void)state;
	tmp_make(&t);
	write_read_file(t.path);
	s = open_ok(t.path, NULL);
	assert_int_equal(sampo_session__process(s, &(struct sampo_tool){ .sample = on_read_sample },
						&seen),
			 0);
	assert_int_equal(seen.nr_samples, 5);
	assert_int_equal(seen.nr, 6);
	/* the group: each member for its own event, with its increase */
	assert_value(&seen, 0, 0, 0, 1, 10, 10);
	assert_value(&seen, 1, 0, 1, 2, 5, 5);
	/* the leader did not move: only the member counts */
	assert_value(&seen, 2, 1, 1, 2, 8, 3);
	/* an id no event owns is handed out as unknown, with no period */
	assert_value(&seen, 3, 2, 0, 1, 15, 5);
	assert_value(&seen, 4, 2, -1, 99, 8, 0);
	/* a single read: the id after time_enabled; the same value again counts for nothing */
	assert_value(&seen, 5, 3, 2, 3, 7, 7);
	sampo_session__close(s);
	tmp_drop(&t);
}

static void test_session__sample_values_callback_stops(void **state)
{
	struct values_seen seen = { .stop_with = 5 };
	struct sampo_session *s;
	struct tmp t;

	(void)state;
	tmp_make(&t);
	write_read_file(t.path);
	s = open_ok(t.path, NULL);
	/* the first value's return stops the group's walk, and then the tool's */
	assert_int_equal(sampo_session__process(s, &(struct sampo_tool){ .sample = on_read_sample },
						&seen),
			 5);
	assert_int_equal(seen.nr, 1);
	assert_int_equal(seen.last_ret, 5);
	sampo_session__close(s);
	tmp_drop(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session__callbacks_in_order_after_the_machine),
		cmocka_unit_test(test_session__machine_after_tool),
		cmocka_unit_test(test_session__machine_mask),
		cmocka_unit_test(test_session__lost_counters),
		cmocka_unit_test(test_session__names_from_event_desc_and_event_update),
		cmocka_unit_test(test_session__made_up_names_and_event_update_id_zero),
		cmocka_unit_test(test_session__pipe_mode),
		cmocka_unit_test(test_session__tool_stops_and_resumes),
		cmocka_unit_test(test_session__errors_name_the_offset),
		cmocka_unit_test(test_session__optional_features),
		cmocka_unit_test(test_session__no_machine_no_symbolizer),
		cmocka_unit_test(test_session__sample_values),
		cmocka_unit_test(test_session__sample_values_callback_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
