// SPDX-License-Identifier: GPL-2.0
/*
 * test-symbolizer.c - the perf 6.1 fixtures walked through reader, machine
 * and symbolizer: every sample's symbol must be the one perf 6.1 prints
 * (tests/fixtures/symbolizer/, made by perf on a machine running another
 * kernel, with the fixtures' build-id cache). Then the refusals: files and
 * kernels whose build-id differs, a running kernel that is not the recorded
 * one, pipe-mode files without build-ids, --force, and the warnings (one per
 * DSO).
 */
/* paths are built in fixed buffers large enough for the test's own directories */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#include <setjmp.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/buildid.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>

#define KERNEL_BID "4a5a9b0affb66c437abcd455d2738af879985fa9"
#define BURN_BID   "690cfd666a0fa1f2e4b67ddad86ea1a75405b61c"
#define LIBC_BID   "93ac61ec5a8eb1396f9fbd350e3169a558528a40"
#define LIBC_PATH  "/usr/lib/x86_64-linux-gnu/libc.so.6"

/* test-wide state: the fixtures, the untarred cache, an empty "live" root */
static char fixtures[1024];
static char cache_dir[256];
static char empty_root[256];
static char kallsyms_snapshot[1024];
static bool libc_matches;

/* ---- captured warnings ------------------------------------------------------------------- */

static char warnings[16384];
static size_t nr_warnings;

static int capture(enum sampo_log_level level, const char *fmt, va_list ap)
{
	size_t len = strlen(warnings);

	if (level != SAMPO_LOG_WARN)
		return 0;
	nr_warnings++;
	if (len < sizeof(warnings) - 1)
		vsnprintf(warnings + len, sizeof(warnings) - len, fmt, ap);
	return 0;
}

static void warnings_reset(void)
{
	warnings[0] = '\0';
	nr_warnings = 0;
}

/* ---- walking a file ---------------------------------------------------------------------- */

struct lines {
	char **v;
	size_t nr, cap;
};

static void lines_add(struct lines *l, const char *s)
{
	if (l->nr == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		assert_non_null(l->v);
	}
	l->v[l->nr] = strdup(s);
	assert_non_null(l->v[l->nr]);
	l->nr++;
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Symbolize every sample of @path; one "IP SYM (DSO)" line per sample, as
 * perf script -F ip,sym,dso prints it. The symbolizer is made at the first
 * sample in pipe mode (the features come as records), at once otherwise.
 */
static void walk(const char *path, const struct sampo_symbolizer_opts *o, struct lines *out)
{
	SAMPO_OPTS(sampo_reader_opts, ro, .ordered = true);
	struct sampo_reader *r;
	struct sampo_features *f = NULL;
	struct sampo_machine *m;
	struct sampo_symbolizer *s = NULL;
	struct sampo_addr_location al = { 0 };
	struct sampo_event ev;
	char line[1024];
	int ret;

	assert_int_equal(sampo_reader__open(path, &ro, &r), 0);
	m = sampo_machine__new();
	assert_non_null(m);
	if (!sampo_reader__is_pipe(r)) {
		(void)sampo_features__parse(r, &f, NULL);
		assert_int_equal(sampo_symbolizer__new(m, f, o, &s), 0);
	}
	while ((ret = sampo_reader__next(r, &ev)) > 0) {
		const struct sampo_symbol *sym;
		struct sampo_map *map;

		assert_int_equal(sampo_machine__process_event(m, &ev), 0);
		if (ev.record->header.type != SAMPO_RECORD_SAMPLE)
			continue;
		if (!s) {
			(void)sampo_features__parse(r, &f, NULL);
			assert_int_equal(sampo_symbolizer__new(m, f, o, &s), 0);
		}
		assert_int_equal(sampo_machine__resolve(m, &ev.sample, &al), 0);
		map = al.map;
		sym = map ? sampo_symbolizer__find(s, map, ev.sample.ip) : NULL;
		snprintf(line, sizeof(line), "%" PRIx64 " %s (%s)", ev.sample.ip,
			 sym ? sampo_symbol__name(sym) : "[unknown]",
			 map ? sampo_dso__long_name(sampo_map__dso(map)) : "[unknown]");
		lines_add(out, line);
	}
	assert_int_equal(ret, 0);
	sampo_addr_location__exit(&al);
	sampo_symbolizer__delete(s);
	sampo_machine__delete(m);
	sampo_features__delete(f);
	sampo_reader__close(r);
}

/* Aggregate into "COUNT REST" like `uniq -c`, sorted by REST. */
static void aggregate(struct lines *in, struct lines *out)
{
	char buf[1100];

	qsort(in->v, in->nr, sizeof(*in->v), cmp_str);
	for (size_t i = 0; i < in->nr;) {
		size_t j = i;

		while (j < in->nr && !strcmp(in->v[i], in->v[j]))
			j++;
		snprintf(buf, sizeof(buf), "%zu %s", j - i, in->v[i]);
		lines_add(out, buf);
		i = j;
	}
}

static bool skip_line(const char *l)
{
	return !libc_matches && strstr(l, "libc.so.6");
}

static void read_golden(const char *name, struct lines *out)
{
	char path[1200], buf[1100];
	const char *src = getenv("SAMPO_SRCDIR");
	FILE *fp;

	snprintf(path, sizeof(path), "%s/tests/fixtures/symbolizer/%s.txt", src ? src : ".", name);
	fp = fopen(path, "r");
	if (!fp)
		fail_msg("cannot open '%s'", path);
	while (fgets(buf, sizeof(buf), fp)) {
		char *p = buf, *end;
		unsigned long count;

		buf[strcspn(buf, "\n")] = '\0';
		while (*p == ' ')
			p++;
		count = strtoul(p, &end, 10);
		if (end == p)
			continue;
		while (*end == ' ')
			end++;
		if (skip_line(end))
			continue;
		snprintf(path, sizeof(path), "%lu %s", count, end);
		lines_add(out, path);
	}
	fclose(fp);
	qsort(out->v, out->nr, sizeof(*out->v), (int (*)(const void *, const void *))cmp_str);
}

/* The "COUNT REST" lines of a walk, sorted by REST as read_golden() sorts (by whole line). */
static void check_against(const char *fixture, const char *golden,
			  const struct sampo_symbolizer_opts *o)
{
	struct lines got = { 0 }, agg = { 0 }, want = { 0 }, kept = { 0 };
	char path[1200];

	snprintf(path, sizeof(path), "%s/%s/perf.data", fixtures, fixture);
	walk(path, o, &got);
	aggregate(&got, &agg);
	for (size_t i = 0; i < agg.nr; i++) {
		if (!skip_line(agg.v[i]))
			lines_add(&kept, agg.v[i]);
	}
	qsort(kept.v, kept.nr, sizeof(*kept.v), cmp_str);
	read_golden(golden, &want);
	for (size_t i = 0; i < kept.nr || i < want.nr; i++) {
		const char *g = i < kept.nr ? kept.v[i] : "(end)";
		const char *w = i < want.nr ? want.v[i] : "(end)";

		if (strcmp(g, w))
			fail_msg("%s: line %zu: got '%s', perf says '%s'; warnings: %s", fixture, i, g, w, warnings);
	}
	lines_free(&got);
	lines_free(&agg);
	lines_free(&want);
	lines_free(&kept);
}

static size_t count_matching(const struct lines *l, const char *needle)
{
	size_t n = 0;

	for (size_t i = 0; i < l->nr; i++)
		n += strstr(l->v[i], needle) != NULL;
	return n;
}

/* ---- setup ------------------------------------------------------------------------------- */

static int run(const char *cmd)
{
	int ret = system(cmd);

	return ret == -1 ? -1 : WEXITSTATUS(ret);
}

static void write_file(const char *path, const void *buf, size_t len)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	assert_int_equal(fwrite(buf, 1, len, fp), len);
	fclose(fp);
}

static void *read_all(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	assert_non_null(fp);
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		size_t got = fread(buf + n, 1, cap - n, fp);

		if (!got)
			break;
		n += got;
	}
	fclose(fp);
	*len = n;
	return buf;
}

static int group_setup(void **state)
{
	const char *shared = getenv("SAMPO_SHARED");
	struct sampo_build_id want, have;
	char cmd[2048];

	(void)state;
	if (!shared || !*shared)
		return 0;
	snprintf(fixtures, sizeof(fixtures), "%s/fixtures/perf-6.1", shared);
	snprintf(cache_dir, sizeof(cache_dir), "/tmp/sampo-test-symbolizer-XXXXXX");
	if (!mkdtemp(cache_dir))
		return -1;
	snprintf(cmd, sizeof(cmd), "tar xjf '%s/b-callchain-fp/perf.data.tar.bz2' -C '%s'",
		 fixtures, cache_dir);
	if (run(cmd)) {
		fixtures[0] = '\0';
		return 0;
	}
	snprintf(empty_root, sizeof(empty_root), "%s/empty-root", cache_dir);
	if (mkdir(empty_root, 0755))
		return -1;
	snprintf(kallsyms_snapshot, sizeof(kallsyms_snapshot),
		 "%s/[kernel.kallsyms]/" KERNEL_BID "/kallsyms", cache_dir);
	libc_matches = !sampo_build_id__from_hex(LIBC_BID, &want) &&
		       !sampo_build_id__from_elf(LIBC_PATH, &have) &&
		       sampo_build_id__equal(&want, &have);
	sampo_set_print(capture);
	return 0;
}

static int group_teardown(void **state)
{
	char cmd[512];

	(void)state;
	if (cache_dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cache_dir);
		(void)run(cmd);
	}
	return 0;
}

#define NEED_FIXTURES()                          \
	do {                                     \
		if (!fixtures[0])                \
			skip();                  \
		warnings_reset();                \
	} while (0)

/* the options of a machine that is not the recording one, with the fixtures' cache */
#define CACHE_OPTS(name, ...)                                                                  \
	SAMPO_OPTS(sampo_symbolizer_opts, name, .buildid_dir = cache_dir, .live_root = empty_root, \
		   __VA_ARGS__)

/* ---- tests ------------------------------------------------------------------------------- */

static void test_symbolizer__fixtures_match_perf(void **state)
{
	static const char *const names[] = {
		"a-syswide-cpuclock", "b-callchain-fp",		  "c-multi-event",
		"f-buildid-mmap",     "g-switch-namespaces-task", "h-switch-ns-cgroup-syswide",
	};

	(void)state;
	NEED_FIXTURES();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		CACHE_OPTS(o);

		check_against(names[i], names[i], &o);
	}
}

/* the same without the background loading */
static void test_symbolizer__fixtures_match_perf_no_preload(void **state)
{
	CACHE_OPTS(o, .no_preload = true);

	(void)state;
	NEED_FIXTURES();
	check_against("b-callchain-fp", "b-callchain-fp", &o);
	check_against("g-switch-namespaces-task", "g-switch-namespaces-task", &o);
}

/*
 * Pipe mode and -z record no kernel build-id: a user-named kallsyms is
 * accepted (its text size fits the recorded kernel map).
 */
static void test_symbolizer__no_build_id_user_kallsyms(void **state)
{
	CACHE_OPTS(o, .kallsyms = kallsyms_snapshot);

	(void)state;
	NEED_FIXTURES();
	check_against("d-pipe-mode", "d-pipe-mode-kallsyms", &o);
	check_against("e-compressed-zstd", "e-compressed-zstd-kallsyms", &o);
}

/* ... and a running kernel of another release is not used for them (perf 6.1 uses it, wrongly) */
static void test_symbolizer__no_build_id_other_release_refused(void **state)
{
	char root[512], p[600];
	struct lines got = { 0 };
	size_t len;
	void *buf;

	(void)state;
	NEED_FIXTURES();
	snprintf(root, sizeof(root), "%s/other-release", cache_dir);
	snprintf(p, sizeof(p), "mkdir -p '%s/proc/sys/kernel' '%s/sys/kernel'", root, root);
	assert_int_equal(run(p), 0);
	snprintf(p, sizeof(p), "%s/proc/sys/kernel/osrelease", root);
	write_file(p, "6.1.0-other\n", 12);
	buf = read_all(kallsyms_snapshot, &len);
	snprintf(p, sizeof(p), "%s/proc/kallsyms", root);
	write_file(p, buf, len);
	free(buf);

	SAMPO_OPTS(sampo_symbolizer_opts, o, .buildid_dir = cache_dir, .live_root = root);
	snprintf(p, sizeof(p), "%s/e-compressed-zstd/perf.data", fixtures);
	walk(p, &o, &got);
	assert_int_equal(count_matching(&got, "[unknown] ([kernel.kallsyms])"), 13);
	assert_non_null(strstr(warnings, "no kernel symbols"));
	assert_non_null(strstr(warnings, "6.1.0-other"));
	lines_free(&got);

	/* the same release: used */
	snprintf(p, sizeof(p), "%s/proc/sys/kernel/osrelease", root);
	write_file(p, "6.18.44-fc-v669\n", 16);
	walk(strcat(strcpy(p, fixtures), "/e-compressed-zstd/perf.data"), &o, &got);
	assert_int_equal(count_matching(&got, "irqentry_exit_to_user_mode ([kernel.kallsyms])"), 9);
	assert_int_equal(count_matching(&got, "[unknown] ([kernel.kallsyms])"), 0);
	lines_free(&got);
}

/* the running kernel is used when /sys/kernel/notes has the recorded build-id, and only then */
static void test_symbolizer__live_kernel_by_notes(void **state)
{
	char root[512], p[700];
	struct lines got = { 0 };
	uint8_t *notes;
	size_t len, klen;
	void *kbuf;

	(void)state;
	NEED_FIXTURES();
	snprintf(root, sizeof(root), "%s/live", cache_dir);
	snprintf(p, sizeof(p), "mkdir -p '%s/proc/sys/kernel' '%s/sys/kernel'", root, root);
	assert_int_equal(run(p), 0);
	kbuf = read_all(kallsyms_snapshot, &klen);
	snprintf(p, sizeof(p), "%s/proc/kallsyms", root);
	write_file(p, kbuf, klen);
	free(kbuf);
	snprintf(p, sizeof(p), "%s/kernel-notes.bin", fixtures);
	notes = read_all(p, &len);
	snprintf(p, sizeof(p), "%s/sys/kernel/notes", root);
	write_file(p, notes, len);

	/* no cache: only the live kernel can give the symbols */
	SAMPO_OPTS(sampo_symbolizer_opts, o, .buildid_dir = empty_root, .live_root = root);
	snprintf(p, sizeof(p), "%s/b-callchain-fp/perf.data", fixtures);
	walk(p, &o, &got);
	assert_int_equal(count_matching(&got, "irqentry_exit_to_user_mode ([kernel.kallsyms])"), 3);
	assert_int_equal(count_matching(&got, "[unknown] ([kernel.kallsyms])"), 0);
	lines_free(&got);

	/* another kernel running: refused, one warning naming both build-ids */
	notes[0x10] ^= 0xff;
	snprintf(p, sizeof(p), "%s/sys/kernel/notes", root);
	write_file(p, notes, len);
	warnings_reset();
	snprintf(p, sizeof(p), "%s/b-callchain-fp/perf.data", fixtures);
	walk(p, &o, &got);
	assert_int_equal(count_matching(&got, "[unknown] ([kernel.kallsyms])"), 7);
	assert_non_null(strstr(warnings, KERNEL_BID));
	assert_non_null(strstr(warnings, "b55a9b0a"));
	free(notes);
	lines_free(&got);
}

/* -k with another build-id: refused (even though the user named it), unless --force */
static void test_symbolizer__vmlinux_mismatch_refused(void **state)
{
	char vm[1200], p[1200];
	struct lines got = { 0 };

	(void)state;
	NEED_FIXTURES();
	snprintf(vm, sizeof(vm), "%s/burn", fixtures); /* an ELF with another build-id */
	CACHE_OPTS(o, .vmlinux = vm);
	snprintf(p, sizeof(p), "%s/b-callchain-fp/perf.data", fixtures);
	walk(p, &o, &got);
	assert_int_equal(count_matching(&got, "[unknown] ([kernel.kallsyms])"), 7);
	/* the user part is not affected */
	assert_int_equal(count_matching(&got, "burn_leaf_alpha (/tmp/pfx/burn)"), 200);
	assert_int_equal(nr_warnings, 1);
	assert_non_null(strstr(warnings, KERNEL_BID));
	assert_non_null(strstr(warnings, BURN_BID));
	lines_free(&got);

	/* --force: used, and said so */
	warnings_reset();
	o.force = true;
	walk(p, &o, &got);
	assert_int_equal(nr_warnings, 1);
	assert_non_null(strstr(warnings, "--force"));
	lines_free(&got);
}

/* a cached ELF with another build-id is never used: one warning, samples unresolved */
static void test_symbolizer__user_mismatch_refused(void **state)
{
	char dir[512], p[1200];
	struct lines got = { 0 };

	(void)state;
	NEED_FIXTURES();
	snprintf(dir, sizeof(dir), "%s/bad-cache", cache_dir);
	snprintf(p, sizeof(p),
		 "mkdir -p '%s/.build-id/69' '%s/tmp/pfx/burn/" BURN_BID "' && "
		 "cp /bin/true '%s/tmp/pfx/burn/" BURN_BID "/elf' && "
		 "ln -s ../../tmp/pfx/burn/" BURN_BID " '%s/.build-id/69/%s'",
		 dir, dir, dir, dir, BURN_BID + 2);
	if (run(p))
		skip();
	SAMPO_OPTS(sampo_symbolizer_opts, o, .buildid_dir = dir, .live_root = empty_root,
		   .kallsyms = kallsyms_snapshot);
	snprintf(p, sizeof(p), "%s/b-callchain-fp/perf.data", fixtures);
	walk(p, &o, &got);
	assert_int_equal(count_matching(&got, "[unknown] (/tmp/pfx/burn)"), 344);
	assert_int_equal(count_matching(&got, "burn_leaf"), 0);
	assert_int_equal(nr_warnings, 1);
	assert_non_null(strstr(warnings, "'/tmp/pfx/burn' was recorded with build-id " BURN_BID));
	assert_non_null(strstr(warnings, "/elf' (build-id "));
	lines_free(&got);
}

/* map_addr: what an unresolved sample prints */
static void test_symbolizer__map_addr(void **state)
{
	SAMPO_OPTS(sampo_reader_opts, ro, .ordered = true);
	CACHE_OPTS(o, .no_preload = true);
	struct sampo_addr_location al = { 0 };
	struct sampo_reader *r;
	struct sampo_machine *m;
	struct sampo_symbolizer *s;
	struct sampo_event ev;
	char p[1200];
	bool seen_user = false, seen_kernel = false;

	(void)state;
	NEED_FIXTURES();
	snprintf(p, sizeof(p), "%s/b-callchain-fp/perf.data", fixtures);
	assert_int_equal(sampo_reader__open(p, &ro, &r), 0);
	m = sampo_machine__new();
	assert_int_equal(sampo_symbolizer__new(m, NULL, &o, &s), 0);
	while (sampo_reader__next(r, &ev) > 0) {
		struct sampo_map *map;

		assert_int_equal(sampo_machine__process_event(m, &ev), 0);
		if (ev.record->header.type != SAMPO_RECORD_SAMPLE)
			continue;
		assert_int_equal(sampo_machine__resolve(m, &ev.sample, &al), 0);
		map = al.map;
		if (!map)
			continue;
		if (ev.sample.ip == 0x561531602169ULL) {
			/* burn's text is mapped at 0x561531602000 from file offset 0x1000 */
			assert_int_equal(sampo_symbolizer__map_addr(s, map, ev.sample.ip), 0x1169);
			seen_user = true;
		}
		if (ev.sample.ip >> 63) {
			assert_int_equal(sampo_symbolizer__map_addr(s, map, ev.sample.ip),
					 ev.sample.ip);
			seen_kernel = true;
		}
	}
	assert_true(seen_user && seen_kernel);
	sampo_addr_location__exit(&al);
	sampo_symbolizer__delete(s);
	sampo_machine__delete(m);
	sampo_reader__close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbolizer__fixtures_match_perf),
		cmocka_unit_test(test_symbolizer__fixtures_match_perf_no_preload),
		cmocka_unit_test(test_symbolizer__no_build_id_user_kallsyms),
		cmocka_unit_test(test_symbolizer__no_build_id_other_release_refused),
		cmocka_unit_test(test_symbolizer__live_kernel_by_notes),
		cmocka_unit_test(test_symbolizer__vmlinux_mismatch_refused),
		cmocka_unit_test(test_symbolizer__user_mismatch_refused),
		cmocka_unit_test(test_symbolizer__map_addr),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
