// SPDX-License-Identifier: GPL-2.0
/*
 * test-symbolizer.c - the perf 6.1 fixtures walked through reader, machine
 * and symbolizer: every sample's symbol must be the one perf 6.1 prints
 * (tests/fixtures/symbolizer/, made by perf on a machine running another
 * kernel, with the fixtures' build-id cache). Then the refusals: files and
 * kernels whose build-id differs, a running kernel that is not the recorded
 * one, pipe-mode files without build-ids, --force, and the warnings (one per
 * DSO). The synthetic tests (kernels, modules, guests, JIT maps, planted
 * traps) build their own inputs and run without ../shared.
 */
/* paths are built in fixed buffers large enough for the test's own directories */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#include <setjmp.h>
#include <stdarg.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <gelf.h>
#include <libelf.h>
#include <time.h>

#include <sampo/buildid.h>
#include <sampo/buildid-cache.h>
#include <sampo/embedded-symbols.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/inject.h>
#include <sampo/machine.h>
#include <sampo/modsections.h>
#include <sampo/writer.h>
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

/* walk() prints "sym+0xOFF" (sampo_symbolizer__find_offset()) */
static bool walk_offsets;
/* walk() with guest machines (--guest) */
static bool walk_guests;

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
	if (walk_guests)
		sampo_machine__enable_guests(m);
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
		uint64_t off = 0;
		char offs[40] = "";

		sym = map ? sampo_symbolizer__find_offset(s, map, ev.sample.ip, &off) : NULL;
		if (!map && ev.sample.cpumode == SAMPO_CPUMODE_KERNEL)
			sym = sampo_symbolizer__find_unmapped(s, ev.sample.ip, NULL);
		if (!map && walk_guests && ev.sample.cpumode == SAMPO_CPUMODE_GUEST_KERNEL) {
			struct sampo_machine *g = sampo_machine__for_cpumode(
				m, ev.sample.cpumode, (int32_t)ev.sample.pid);

			sym = sampo_symbolizer__find_unmapped(sampo_symbolizer__for_machine(s, g),
							      ev.sample.ip, NULL);
		}
		if (walk_offsets && sym && map)
			snprintf(offs, sizeof(offs), "+0x%" PRIx64, off);
		snprintf(line, sizeof(line), "%" PRIx64 " %s%s (%s)", ev.sample.ip,
			 sym ? sampo_symbol__name(sym) : "[unknown]", offs,
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
			void *grown = realloc(buf, cap);
			assert_non_null(grown);
			buf = grown;
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

/*
 * The work directory (cache_dir, with an empty "live" root) always exists:
 * the synthetic tests build everything they need in it. The perf 6.1
 * fixtures and their build-id cache are untarred into it when ../shared is
 * there; only the tests that read them skip without it.
 */
static int group_setup(void **state)
{
	const char *shared = getenv("SAMPO_SHARED");
	struct sampo_build_id want, have;
	char cmd[2048];

	(void)state;
	sampo_set_print(capture);
	snprintf(cache_dir, sizeof(cache_dir), "/tmp/sampo-test-symbolizer-XXXXXX");
	if (!mkdtemp(cache_dir))
		return -1;
	snprintf(empty_root, sizeof(empty_root), "%s/empty-root", cache_dir);
	if (mkdir(empty_root, 0755))
		return -1;
	if (!shared || !*shared)
		return 0;
	snprintf(fixtures, sizeof(fixtures), "%s/fixtures/perf-6.1", shared);
	snprintf(cmd, sizeof(cmd), "tar xjf '%s/b-callchain-fp/perf.data.tar.bz2' -C '%s'",
		 fixtures, cache_dir);
	if (run(cmd)) {
		fixtures[0] = '\0';
		return 0;
	}
	snprintf(kallsyms_snapshot, sizeof(kallsyms_snapshot),
		 "%s/[kernel.kallsyms]/" KERNEL_BID "/kallsyms", cache_dir);
	libc_matches = !sampo_build_id__from_hex(LIBC_BID, &want) &&
		       !sampo_build_id__from_elf(LIBC_PATH, &have) &&
		       sampo_build_id__equal(&want, &have);
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

/* for the tests that read the perf 6.1 fixtures (../shared) */
#define NEED_FIXTURES()                          \
	do {                                     \
		if (!fixtures[0])                \
			skip();                  \
		warnings_reset();                \
	} while (0)

/* for the tests that build their own inputs: they never skip for want of ../shared */
#define NEED_WORKDIR()                           \
	do {                                     \
		assert_true(cache_dir[0] != '\0'); \
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
	assert_non_null(strstr(warnings, "release is the recorded 6.18.44-fc-v669"));
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


/* ---- a synthetic kernel: vmlinux, modules, KASLR -------------------------------------------- */

#define SYN_RELEASE "6.1.0-synthetic"

static const char vmlinux_src[] =
	"int kfunc_alpha(int x) { return x * 7 + 3; }\n"
	"int kfunc_beta(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * x; return s; }\n"
	"int kfunc_gamma(int x) { return kfunc_alpha(x) + kfunc_beta(x); }\n"
	"void _start(void) { for (;;) ; }\n";

static const char vmlinux_lds[] =
	"ENTRY(_start)\n"
	"SECTIONS {\n"
	"	. = 0xffffffff81000000;\n"
	"	_text = .;\n"
	"	.text : { *(.text .text.*) }\n"
	"	_etext = .;\n"
	"	.notes : { *(.note.gnu.build-id) }\n"
	"	.data : { *(.data .data.* .bss .bss.* .rodata .rodata.*) }\n"
	"	/DISCARD/ : { *(.comment) *(.eh_frame) *(.note.GNU-stack) }\n"
	"}\n";

static const char module_src[] =
	"int mod_core_a(int x) { return x * 3 + 1; }\n"
	"int mod_core_b(int x) { int s = 0; for (int i = 0; i < x; i++) s ^= i * x; return s; }\n"
	"__attribute__((section(\".text.unlikely\"))) int mod_cold(int x) { return x - 11; }\n"
	"__attribute__((section(\".init.text\"))) int mod_init(void) { return mod_core_a(2); }\n"
	"__attribute__((section(\".exit.text\"))) int mod_exit(int x) { return x * 5; }\n"
	"__attribute__((section(\".static_call.text\"))) int mod_tramp(int x) { return x + 9; }\n"
	"__asm__(\".pushsection .note.gnu.build-id,\\\"a\\\",@note\\n.balign 4\\n.long 4\\n"
	".long 20\\n.long 3\\n.asciz \\\"GNU\\\"\\n.byte 9,8,7,6,5,4,3,2,1,0,1,2,3,4,5,6,7,8,9,10\\n"
	".popsection\\n\");\n";

#define MOD_BID "09080706050403020100010203040506070809" "0a"

struct nm_sym {
	char name[64];
	uint64_t addr;
	char sec[32]; /* for .o files: the section (from objdump -t) */
};

/* name -> value, from `nm` (vmlinux) or section + value from `objdump -t` (module .o) */
static size_t read_syms(const char *cmd, struct nm_sym *out, size_t max, bool objdump)
{
	char line[512];
	size_t n = 0;
	FILE *p = popen(cmd, "r");

	assert_non_null(p);
	while (n < max && fgets(line, sizeof(line), p)) {
		char a[64], b[64], c[64], d[64], e[64], f[64];

		if (!objdump) {
			if (sscanf(line, "%63s %63s %63s", a, b, c) == 3) {
				out[n].addr = strtoull(a, NULL, 16);
				snprintf(out[n].name, sizeof(out[n].name), "%s", c);
				n++;
			}
			continue;
		}
		/* 0000000000000000 g     F .text.unlikely	0000000000000004 mod_cold */
		if (sscanf(line, "%63s %63s %63s %63s %63s %63s", a, b, c, d, e, f) == 6 &&
		    !strcmp(c, "F")) {
			out[n].addr = strtoull(a, NULL, 16);
			snprintf(out[n].sec, sizeof(out[n].sec), "%s", d);
			snprintf(out[n].name, sizeof(out[n].name), "%s", f);
			n++;
		}
	}
	pclose(p);
	return n;
}

static uint64_t sym_value(const struct nm_sym *syms, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(syms[i].name, name))
			return syms[i].addr;
	}
	fail_msg("no symbol '%s'", name);
	return 0;
}

static const char *sym_section(const struct nm_sym *syms, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(syms[i].name, name))
			return syms[i].sec;
	}
	fail_msg("no symbol '%s'", name);
	return NULL;
}

/*
 * The kernel loader's rule (kernel/module/main.c layout_sections), written
 * here independently of lib/kmodule.c: offset of @want among the allocated
 * executable non-.init sections, in header order, each aligned.
 */
static uint64_t loader_offset(const char *obj, const char *want)
{
	uint64_t size = 0, found = (uint64_t)-1;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	FILE *fp = fopen(obj, "r");
	Elf *elf;

	assert_non_null(fp);
	(void)elf_version(EV_CURRENT);
	elf = elf_begin(fileno(fp), ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		gelf_getshdr(scn, &sh);
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!(sh.sh_flags & SHF_EXECINSTR) || !(sh.sh_flags & SHF_ALLOC) ||
		    !strncmp(name, ".init", 5))
			continue;
		if (sh.sh_addralign > 1)
			size = (size + sh.sh_addralign - 1) / sh.sh_addralign * sh.sh_addralign;
		if (!strcmp(name, want))
			found = size;
		size += sh.sh_size;
	}
	elf_end(elf);
	fclose(fp);
	assert_true(found != (uint64_t)-1);
	return found;
}

struct synth {
	char dir[512];	    /* everything lives here */
	char symfs[600];    /* SYMFS: lib/modules/R/..., usr/lib/debug/boot/vmlinux-R */
	char vmlinux[700];  /* the right one */
	char vmlinux2[700]; /* same code, another build-id */
	char obj[700];	    /* the module object */
	struct nm_sym ksyms[32];
	size_t nr_ksyms;
	struct nm_sym msyms[32];
	size_t nr_msyms;
	struct sampo_build_id kbid;
	uint64_t slide;
	unsigned int seed;
};

static struct synth syn;

/* the kernel map's name in synth_write(): perf's spelling, or the old "[kernel.kallsyms.text]" */
static const char *syn_kmap_name = "[kernel.kallsyms]_text";
/* the OS release synth_write() records */
static const char *syn_release = SYN_RELEASE;

/* Build the kernel, its twin with another build-id, and a module in 4 compressions. */
static bool synth_build(void)
{
	char p[1600];

	if (syn.vmlinux[0])
		return true;
	snprintf(syn.dir, sizeof(syn.dir), "%s/synth", cache_dir);
	snprintf(syn.symfs, sizeof(syn.symfs), "%s/symfs", syn.dir);
	snprintf(p, sizeof(p),
		 "mkdir -p '%s/lib/modules/" SYN_RELEASE "/kernel/drivers/synth' "
		 "'%s/lib/modules/" SYN_RELEASE "/updates' '%s/usr/lib/debug/boot'",
		 syn.symfs, syn.symfs, syn.symfs);
	if (run(p))
		return false;
	snprintf(p, sizeof(p), "%s/k.c", syn.dir);
	write_file(p, vmlinux_src, strlen(vmlinux_src));
	snprintf(p, sizeof(p), "%s/k.lds", syn.dir);
	write_file(p, vmlinux_lds, strlen(vmlinux_lds));
	snprintf(p, sizeof(p), "%s/m.c", syn.dir);
	write_file(p, module_src, strlen(module_src));
	snprintf(syn.vmlinux, sizeof(syn.vmlinux), "%s/vmlinux", syn.dir);
	snprintf(syn.vmlinux2, sizeof(syn.vmlinux2), "%s/vmlinux-other", syn.dir);
	snprintf(syn.obj, sizeof(syn.obj), "%s/m.o", syn.dir);
	snprintf(p, sizeof(p),
		 "cd '%s' && CF='-O1 -ffreestanding -fno-pic -fno-pie -no-pie -mcmodel=kernel "
		 "-nostdlib -static -Wl,-T,k.lds' && "
		 "cc $CF -Wl,--build-id=sha1 -o vmlinux k.c && "
		 "cc $CF -Wl,--build-id=0x00112233445566778899aabbccddeeff00112233 -o vmlinux-other k.c && "
		 "cc -O2 -c -fno-asynchronous-unwind-tables -o m.o m.c && "
		 "cp m.o symfs/lib/modules/" SYN_RELEASE "/kernel/drivers/synth/mod_plain.ko && "
		 "cp m.o mod_gz.ko && gzip -f mod_gz.ko && "
		 "cp m.o mod_xz.ko && xz -f mod_xz.ko && "
		 "cp m.o mod_zst.ko && zstd -qf --rm mod_zst.ko && "
		 "mv mod_gz.ko.gz mod_xz.ko.xz symfs/lib/modules/" SYN_RELEASE "/kernel/drivers/synth/ && "
		 "mv mod_zst.ko.zst symfs/lib/modules/" SYN_RELEASE "/updates/ && "
		 "cp vmlinux-other symfs/usr/lib/debug/boot/vmlinux-" SYN_RELEASE " 2>/dev/null",
		 syn.dir);
	if (run(p)) {
		syn.vmlinux[0] = '\0';
		return false;
	}
	snprintf(p, sizeof(p), "nm '%s'", syn.vmlinux);
	syn.nr_ksyms = read_syms(p, syn.ksyms, 32, false);
	snprintf(p, sizeof(p), "objdump -t '%s'", syn.obj);
	syn.nr_msyms = read_syms(p, syn.msyms, 32, true);
	assert_int_equal(sampo_build_id__from_elf(syn.vmlinux, &syn.kbid), 0);
	syn.seed = (unsigned int)time(NULL);
	srand(syn.seed);
	syn.slide = (uint64_t)(1 + rand() % 500) << 21; /* KASLR: 2 MB steps */
	return true;
}

struct synth_module {
	const char *recorded; /* the map's name */
	uint64_t base;
};

static const char *const kfuncs[] = { "kfunc_alpha", "kfunc_beta", "kfunc_gamma" };
static const char *const mfuncs[] = { "mod_core_a", "mod_core_b", "mod_cold", "mod_exit",
				      "mod_tramp" };

/* a perf.data writer with one cpu-clock-like event sampling IP and TID */
static struct sampo_writer *synth_open(const char *path)
{
	SAMPO_OPTS(sampo_writer_opts, wo);
	struct sampo_event_attr attr = { 0 };
	struct sampo_writer *w;
	uint64_t id = 1;

	attr.type = 1;
	attr.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID;
	attr.sample_period = 1;
	assert_int_equal(sampo_writer__open(path, &wo, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &attr, &id, 1), 0);
	return w;
}

/*
 * Write a perf.data: the kernel map at _text + slide, one map per module,
 * samples on every kernel and module function (+1 byte), one in a BPF
 * program, one in init code (given by @init_addr, 0: none). @expect gets
 * one line per sample, as walk() prints it.
 */
static void synth_write(const char *path, const struct synth_module *mods, size_t nr_mods,
			bool with_kernel_bid, const struct sampo_module_sections *ms,
			uint64_t init_addr, struct lines *expect)
{
	uint64_t text = sym_value(syn.ksyms, syn.nr_ksyms, "_text");
	uint64_t etext = sym_value(syn.ksyms, syn.nr_ksyms, "_etext");
	struct sampo_writer_map km = {
		.misc = SAMPO_CPUMODE_KERNEL, .pid = (uint32_t)-1, .start = text + syn.slide,
		.len = etext - text, .pgoff = text + syn.slide, .filename = syn_kmap_name,
	};
	struct sampo_sample smp = { 0 };
	struct sampo_writer *w;
	char line[512];
	union {
		struct sampo_record_ksymbol k;
		uint8_t bytes[128];
	} ks = { 0 };

	w = synth_open(path);
	assert_int_equal(sampo_writer__write_mmap(w, &km, NULL), 0);
	for (size_t i = 0; i < nr_mods; i++) {
		struct sampo_writer_map mm = {
			.misc = SAMPO_CPUMODE_KERNEL, .pid = (uint32_t)-1, .start = mods[i].base,
			.len = 0x4000, .filename = mods[i].recorded,
		};

		assert_int_equal(sampo_writer__write_mmap(w, &mm, NULL), 0);
	}
	ks.k.header.type = SAMPO_RECORD_KSYMBOL;
	ks.k.header.size = (uint16_t)(sizeof(ks.k) + 32);
	ks.k.addr = 0xffffffffa0001000ULL;
	ks.k.len = 0x200;
	ks.k.ksym_type = 1; /* BPF */
	strcpy(ks.k.name, "bpf_prog_6deef7357e7b4530_probe");
	assert_int_equal(sampo_writer__write_record(w, (const union sampo_record *)&ks.k), 0);

	for (size_t i = 0; i < 3; i++) {
		smp.ip = sym_value(syn.ksyms, syn.nr_ksyms, kfuncs[i]) + syn.slide + 1;
		assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_KERNEL, &smp), 0);
		snprintf(line, sizeof(line), "%" PRIx64 " %s%s ([kernel.kallsyms])", smp.ip, kfuncs[i],
			 walk_offsets ? "+0x1" : "");
		lines_add(expect, line);
	}
	for (size_t i = 0; i < nr_mods; i++) {
		char *name = NULL;

		for (size_t j = 0; j < 5; j++) {
			const char *sec = sym_section(syn.msyms, syn.nr_msyms, mfuncs[j]);
			uint64_t at = mods[i].base + loader_offset(syn.obj, sec) +
				      sym_value(syn.msyms, syn.nr_msyms, mfuncs[j]) + 1;
			const struct sampo_section_addr *secs = NULL;
			size_t nr = 0;

			/* with a section map, the module's sections are where it says */
			if (ms) {
				const char *b = strrchr(mods[i].recorded, '/');

				name = strdup(b ? b + 1 : mods[i].recorded + 1);
				name[strcspn(name, ".]")] = '\0';
				secs = sampo_module_sections__find(ms, NULL, name, &nr);
				free(name);
			}
			for (size_t k = 0; k < nr; k++) {
				if (!strcmp(secs[k].name, sec))
					at = secs[k].addr + sym_value(syn.msyms, syn.nr_msyms, mfuncs[j]) + 1;
			}
			smp.ip = at;
			assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_KERNEL, &smp),
					 0);
			snprintf(line, sizeof(line), "%" PRIx64 " %s%s (%s)", smp.ip, mfuncs[j],
				 walk_offsets ? "+0x1" : "", mods[i].recorded);
			lines_add(expect, line);
		}
	}
	smp.ip = ks.k.addr + 0x10;
	assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_KERNEL, &smp), 0);
	snprintf(line, sizeof(line), "%" PRIx64 " bpf_prog_6deef7357e7b4530_probe%s "
		 "(bpf_prog_6deef7357e7b4530_probe)", smp.ip, walk_offsets ? "+0x10" : "");
	lines_add(expect, line);
	if (init_addr) {
		smp.ip = init_addr + 1;
		assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_KERNEL, &smp), 0);
		snprintf(line, sizeof(line), "%" PRIx64 " mod_init ([unknown])", smp.ip);
		lines_add(expect, line);
	}

	assert_int_equal(sampo_writer__set_feature_string(w, SAMPO_FEAT_OSRELEASE, syn_release), 0);
	if (with_kernel_bid) {
		/* the kernel's entry under a vmlinux path: recognised by what it is, not its name */
		assert_int_equal(sampo_writer__add_build_id(w, SAMPO_CPUMODE_KERNEL, -1, syn.kbid.data,
							    syn.kbid.size, "/boot/vmlinux-synthetic"),
				 0);
	}
	if (ms)
		assert_int_equal(sampo_module_sections__write(ms, w), 0);
	assert_int_equal(sampo_writer__close(w), 0);
}

static void assert_lines(const struct lines *got, const struct lines *want, const char *what)
{
	for (size_t i = 0; i < got->nr || i < want->nr; i++) {
		const char *g = i < got->nr ? got->v[i] : "(end)";
		const char *w = i < want->nr ? want->v[i] : "(end)";

		if (strcmp(g, w))
			fail_msg("%s (seed %u, slide %#" PRIx64 "): sample %zu: got '%s', want '%s'; "
				 "warnings: %s",
				 what, syn.seed, syn.slide, i, g, w, warnings);
	}
}

static const struct synth_module synth_mods[] = {
	{ "/lib/modules/" SYN_RELEASE "/kernel/drivers/synth/mod_gz.ko.gz", 0 },
	{ "/lib/modules/" SYN_RELEASE "/kernel/drivers/synth/mod_xz.ko.xz", 0 },
	{ "[mod_zst]", 0 },   /* found under lib/modules/R/updates by name */
	{ "[mod_plain]", 0 }, /* a plain .ko */
};

static void synth_modules(struct synth_module *mods)
{
	for (size_t i = 0; i < 4; i++) {
		mods[i] = synth_mods[i];
		mods[i].base = 0xffffffffc0000000ULL + ((uint64_t)i << 24) +
			       ((uint64_t)(rand() % 1024) << 12);
	}
}

/*
 * Recorded strings never become paths that climb: a release of
 * "../../planted" would make SYMFS/lib/modules/R the directory SYMFS/planted,
 * and a recorded module path "/lib/modules/R/../../../planted/x.ko" would
 * be SYMFS/planted/x.ko; a module planted there must not name samples.
 */
static void test_symbolizer__recorded_paths_do_not_climb(void **state)
{
	const struct synth_module planted[] = {
		{ "[mod_planted]", 0xffffffffc0000000ULL },
		{ "/lib/modules/" SYN_RELEASE "/../../../planted/mod_climb.ko", 0xffffffffc1000000ULL },
	};
	struct lines got = { 0 }, want = { 0 };
	char path[700], cmd[2000];

	(void)state;
	NEED_WORKDIR();
	if (!synth_build())
		skip();
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/planted' && cp '%s' '%s/planted/mod_planted.ko' && "
		 "cp '%s' '%s/planted/mod_climb.ko'",
		 syn.symfs, syn.obj, syn.symfs, syn.obj, syn.symfs);
	assert_int_equal(run(cmd), 0);
	snprintf(path, sizeof(path), "%s/climb.data", syn.dir);
	CACHE_OPTS(o, .vmlinux = syn.vmlinux, .symfs = syn.symfs);

	/* the release climbs: refused with one warning, no module file is looked up by it */
	syn_release = "../../planted";
	synth_write(path, planted, 1, true, NULL, 0, &want);
	syn_release = SYN_RELEASE;
	walk(path, &o, &got);
	assert_int_equal(got.nr, 9);
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(got.v[i], want.v[i]);
	for (size_t i = 3; i < 8; i++)
		assert_non_null(strstr(got.v[i], " [unknown] ([mod_planted])"));
	assert_int_equal(nr_warnings, 1);
	assert_non_null(strstr(warnings, "OS release is not a plain name"));
	lines_free(&got);
	lines_free(&want);

	/* the recorded path climbs out of SYMFS: neither it nor SYMFS + it is opened */
	warnings_reset();
	synth_write(path, planted + 1, 1, true, NULL, 0, &want);
	walk(path, &o, &got);
	assert_int_equal(got.nr, 9);
	for (size_t i = 3; i < 8; i++)
		assert_non_null(strstr(got.v[i], " [unknown] (/lib/modules/"));
	assert_int_equal(nr_warnings, 0);
	lines_free(&got);
	lines_free(&want);
}

/* -k vmlinux (right build-id) and modules from SYMFS: every sample right, whatever the slide */
static void test_symbolizer__synthetic_kaslr_vmlinux_and_modules(void **state)
{
	struct synth_module mods[4];
	struct lines got = { 0 }, want = { 0 };
	struct sampo_symbolizer_dso_info info;
	char path[700];

	(void)state;
	NEED_WORKDIR();
	if (!synth_build())
		skip();
	synth_modules(mods);
	snprintf(path, sizeof(path), "%s/kaslr.data", syn.dir);
	synth_write(path, mods, 4, true, NULL, 0, &want);

	CACHE_OPTS(o, .vmlinux = syn.vmlinux, .symfs = syn.symfs);
	walk(path, &o, &got);
	assert_lines(&got, &want, "vmlinux + modules by layout");
	lines_free(&got);
	lines_free(&want);

	/* the same with the offsets into the symbols: every sample is at start + 1 (BPF: + 0x10) */
	walk_offsets = true;
	synth_write(path, mods, 4, true, NULL, 0, &want);
	walk(path, &o, &got);
	walk_offsets = false;
	assert_lines(&got, &want, "offsets");
	lines_free(&want);
	synth_write(path, mods, 4, true, NULL, 0, &want);
	assert_int_equal(nr_warnings, 0);
	lines_free(&got);
	(void)info;

	/* the standard place under SYMFS holds a vmlinux with another build-id: refused */
	warnings_reset();
	CACHE_OPTS(o2, .symfs = syn.symfs);
	walk(path, &o2, &got);
	for (size_t i = 0; i < 3; i++)
		assert_non_null(strstr(got.v[i], " [unknown] ([kernel.kallsyms])"));
	assert_lines(&(struct lines){ got.v + 3, got.nr - 3, 0 },
		     &(struct lines){ want.v + 3, want.nr - 3, 0 }, "modules without a kernel");
	assert_int_equal(nr_warnings, 1);
	assert_non_null(strstr(warnings, "00112233445566778899aabbccddeeff00112233"));
	lines_free(&got);

	/* the old spelling of the kernel map names no symbol: _text is meant */
	syn_kmap_name = "[kernel.kallsyms.text]";
	lines_free(&want);
	synth_write(path, mods, 4, true, NULL, 0, &want);
	syn_kmap_name = "[kernel.kallsyms]_text";
	warnings_reset();
	walk(path, &o, &got);
	assert_lines(&got, &want, "[kernel.kallsyms.text]");
	lines_free(&got);
	lines_free(&want);

	/*
	 * A kallsyms snapshot of the recording boot (same slide) also places a
	 * module that has no map (loaded while recording): its sample is named.
	 */
	{
		uint64_t late = 0xffffffffc7000000ULL + ((uint64_t)(rand() % 256) << 12);
		char ks[800];
		FILE *fp;

		synth_write(path, mods, 4, true, NULL, late, &want);
		snprintf(ks, sizeof(ks), "%s/kallsyms-this-boot", syn.dir);
		fp = fopen(ks, "w");
		assert_non_null(fp);
		for (size_t i = 0; i < syn.nr_ksyms; i++) {
			fprintf(fp, "%016" PRIx64 " T %s\n", syn.ksyms[i].addr + syn.slide,
				syn.ksyms[i].name);
		}
		fprintf(fp, "%016" PRIx64 " t mod_init\t[mod_late]\n", late);
		fprintf(fp, "%016" PRIx64 " t mod_late_other\t[mod_late]\n", late + 0x40);
		fclose(fp);
		warnings_reset();
		CACHE_OPTS(o4, .kallsyms = ks, .symfs = syn.symfs);
		walk(path, &o4, &got);
		assert_lines(&got, &want, "kallsyms of this boot places a late module");
		lines_free(&got);

		/* the same snapshot in the build-id cache, beside -k vmlinux (what record leaves) */
		{
			char cache[700];

			snprintf(cache, sizeof(cache), "%s/cache-with-snapshot", syn.dir);
			assert_int_equal(sampo_buildid_cache__add(cache, "[kernel.kallsyms]", &syn.kbid,
								  "kallsyms", ks),
					 0);
			SAMPO_OPTS(sampo_symbolizer_opts, o5, .vmlinux = syn.vmlinux,
				   .symfs = syn.symfs, .buildid_dir = cache, .live_root = empty_root);
			walk(path, &o5, &got);
			assert_lines(&got, &want, "vmlinux, and the cached snapshot for a late module");
			lines_free(&got);
		}
		lines_free(&want);
		synth_write(path, mods, 4, true, NULL, 0, &want);
	}

	/* a kallsyms snapshot of another boot (another slide) relocates too */
	{
		char ks[800];
		FILE *fp;
		uint64_t slide2 = syn.slide + (7ULL << 21);

		snprintf(ks, sizeof(ks), "%s/kallsyms-other-boot", syn.dir);
		fp = fopen(ks, "w");
		assert_non_null(fp);
		for (size_t i = 0; i < syn.nr_ksyms; i++) {
			fprintf(fp, "%016" PRIx64 " T %s\n", syn.ksyms[i].addr + slide2,
				syn.ksyms[i].name);
		}
		fclose(fp);
		warnings_reset();
		CACHE_OPTS(o3, .kallsyms = ks, .symfs = syn.symfs);
		walk(path, &o3, &got);
		assert_lines(&got, &want, "kallsyms of another boot");
		lines_free(&got);
	}
	lines_free(&want);
}

/*
 * Embedded symbols (sampo inject --embed-symbols): a kernel from -k vmlinux
 * (relocated by the slide, its _text kept) and a module loaded while
 * recording, named by the boot's kallsyms snapshot in the cache, embedded
 * and read back with none of the files (empty cache, no -k, no SYMFS, no
 * running kernel): the kernel's samples and the late module's as with the
 * files. The modules of the maps, recorded without build-ids, are not
 * embedded (a table is keyed by build-id) and stay unnamed.
 */
static void test_symbolizer__embedded_kernel_and_snapshot(void **state)
{
	uint64_t late = 0xffffffffc7000000ULL + ((uint64_t)(rand() % 256) << 12);
	struct synth_module mods[4];
	struct lines got = { 0 }, want = { 0 };
	struct sampo_embedded_symbols *es = NULL;
	struct sampo_embedded_table_info info;
	struct sampo_reader *r;
	char path[700], epath[700], ks[800], cache[700], bare[700], err[512] = "";
	FILE *fp;

	(void)state;
	NEED_WORKDIR();
	if (!synth_build())
		skip();
	synth_modules(mods);
	snprintf(path, sizeof(path), "%s/embed.data", syn.dir);
	snprintf(epath, sizeof(epath), "%s/embed-e.data", syn.dir);
	snprintf(ks, sizeof(ks), "%s/kallsyms-embed-boot", syn.dir);
	snprintf(cache, sizeof(cache), "%s/cache-embed", syn.dir);
	snprintf(bare, sizeof(bare), "%s/cache-bare", syn.dir);
	assert_true(mkdir(bare, 0755) == 0 || errno == EEXIST);
	synth_write(path, mods, 4, true, NULL, late, &want);
	fp = fopen(ks, "w");
	assert_non_null(fp);
	for (size_t i = 0; i < syn.nr_ksyms; i++)
		fprintf(fp, "%016" PRIx64 " T %s\n", syn.ksyms[i].addr + syn.slide, syn.ksyms[i].name);
	fprintf(fp, "%016" PRIx64 " t mod_init\t[mod_late]\n", late);
	fprintf(fp, "%016" PRIx64 " t mod_late_other\t[mod_late]\n", late + 0x40);
	fclose(fp);
	assert_int_equal(sampo_buildid_cache__add(cache, "[kernel.kallsyms]", &syn.kbid, "kallsyms", ks),
			 0);

	/* at home: the files */
	SAMPO_OPTS(sampo_symbolizer_opts, home, .vmlinux = syn.vmlinux, .symfs = syn.symfs,
		   .buildid_dir = cache, .live_root = empty_root);
	walk(path, &home, &got);
	assert_lines(&got, &want, "at home");
	lines_free(&got);

	SAMPO_OPTS(sampo_inject_opts, io, .embed_symbols = true, .symbolizer = &home, .errbuf = err,
		   .errbuf_sz = sizeof(err));
	if (sampo_inject__file(path, epath, &io))
		fail_msg("inject: %s", err);
	assert_int_equal(sampo_reader__open(epath, NULL, &r), 0);
	assert_int_equal(sampo_embedded_symbols__read(r, &es, err, sizeof(err)), 0);
	sampo_reader__close(r);
	/* the kernel (vmlinux) and the snapshot beside it; 3 kernel functions, the late module's */
	assert_int_equal(sampo_embedded_symbols__nr_tables(es), 2);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(sampo_embedded_symbols__table(es, i, &info), 0);
		assert_true(info.kind == SAMPO_EMBEDDED_KERNEL || info.kind == SAMPO_EMBEDDED_KALLSYMS);
		assert_int_equal(info.nr_symbols, info.kind == SAMPO_EMBEDDED_KERNEL ? 3 : 1);
		assert_true(sampo_build_id__equal(&info.bid, &syn.kbid));
	}

	/* elsewhere: only the profile */
	warnings_reset();
	SAMPO_OPTS(sampo_symbolizer_opts, away, .buildid_dir = bare, .live_root = empty_root,
		   .embedded_symbols = es);
	walk(epath, &away, &got);
	assert_int_equal(got.nr, want.nr);
	for (size_t i = 0; i < got.nr; i++) {
		if (strstr(want.v[i], "(/lib/modules/") || strstr(want.v[i], "([mod_"))
			assert_non_null(strstr(got.v[i], " [unknown] ("));
		else
			assert_string_equal(got.v[i], want.v[i]);
	}
	lines_free(&got);
	lines_free(&want);
	sampo_embedded_symbols__delete(es);
}

/*
 * Section maps: a module whose sections are not where the layout would put
 * them (as on a kernel whose loader differs) and an init-code sample outside
 * every map.
 */
static void test_symbolizer__synthetic_section_maps(void **state)
{
	struct synth_module mods[4];
	struct lines got = { 0 }, want = { 0 };
	struct sampo_module_sections *ms;
	struct sampo_build_id mbid;
	char path[700];
	uint64_t init_at;

	(void)state;
	NEED_WORKDIR();
	if (!synth_build())
		skip();
	synth_modules(mods);
	assert_int_equal(sampo_build_id__from_hex(MOD_BID, &mbid), 0);
	ms = sampo_module_sections__new();
	assert_non_null(ms);
	init_at = 0xffffffffc8000000ULL + ((uint64_t)(rand() % 64) << 12);
	{
		/* mod_gz: .text where the map starts, the rest shuffled, init far away */
		struct sampo_section_addr secs[] = {
			{ ".text", mods[0].base },
			{ ".exit.text", mods[0].base + 0x1000 },
			{ ".text.unlikely", mods[0].base + 0x2000 },
			{ ".static_call.text", mods[0].base + 0x3000 },
			{ ".init.text", init_at },
		};

		assert_int_equal(sampo_module_sections__add(ms, "mod_gz", &mbid, secs, 5), 0);
	}
	snprintf(path, sizeof(path), "%s/secmap.data", syn.dir);
	synth_write(path, mods, 1, true, ms, init_at + sym_value(syn.msyms, syn.nr_msyms, "mod_init"),
		    &want);

	{
		SAMPO_OPTS(sampo_reader_opts, ro);
		struct sampo_module_sections *back;
		struct sampo_reader *r;

		assert_int_equal(sampo_reader__open(path, &ro, &r), 0);
		assert_int_equal(sampo_module_sections__read(r, &back), 0);
		sampo_reader__close(r);
		CACHE_OPTS(o, .vmlinux = syn.vmlinux, .symfs = syn.symfs, .module_sections = back);
		walk(path, &o, &got);
		sampo_module_sections__delete(back);
	}
	assert_lines(&got, &want, "section maps");
	lines_free(&got);
	lines_free(&want);
	sampo_module_sections__delete(ms);
}

/*
 * Embedded symbols of a module: mod_gz, recorded with its build-id and
 * placed by the recorded section maps (its .init.text far from its map),
 * embedded with the kernel's and read back with none of the files (the
 * section maps are the profile's): every sample named as at home, the
 * module's init code included.
 */
static void test_symbolizer__embedded_module_by_section_maps(void **state)
{
	struct synth_module mods[4];
	struct lines got = { 0 }, want = { 0 };
	struct sampo_module_sections *ms, *back;
	struct sampo_embedded_symbols *es = NULL;
	struct sampo_embedded_table_info info;
	struct sampo_build_id mbid;
	struct sampo_reader *r;
	char path[700], epath[700], bare[700], err[512] = "";
	uint64_t init_at;
	bool have_module = false;

	(void)state;
	NEED_WORKDIR();
	if (!synth_build())
		skip();
	synth_modules(mods);
	assert_int_equal(sampo_build_id__from_hex(MOD_BID, &mbid), 0);
	ms = sampo_module_sections__new();
	assert_non_null(ms);
	init_at = 0xffffffffc8000000ULL + ((uint64_t)(rand() % 64) << 12);
	{
		struct sampo_section_addr secs[] = {
			{ ".text", mods[0].base },
			{ ".exit.text", mods[0].base + 0x1000 },
			{ ".text.unlikely", mods[0].base + 0x2000 },
			{ ".static_call.text", mods[0].base + 0x3000 },
			{ ".init.text", init_at },
		};

		assert_int_equal(sampo_module_sections__add(ms, "mod_gz", &mbid, secs, 5), 0);
	}
	snprintf(path, sizeof(path), "%s/embed-mod.data", syn.dir);
	snprintf(epath, sizeof(epath), "%s/embed-mod-e.data", syn.dir);
	snprintf(bare, sizeof(bare), "%s/cache-bare-mod", syn.dir);
	assert_true(mkdir(bare, 0755) == 0 || errno == EEXIST);
	synth_write(path, mods, 1, true, ms, init_at + sym_value(syn.msyms, syn.nr_msyms, "mod_init"),
		    &want);

	CACHE_OPTS(home, .vmlinux = syn.vmlinux, .symfs = syn.symfs, .module_sections = ms);
	walk(path, &home, &got);
	assert_lines(&got, &want, "at home");
	lines_free(&got);
	SAMPO_OPTS(sampo_inject_opts, io, .embed_symbols = true, .symbolizer = &home, .errbuf = err,
		   .errbuf_sz = sizeof(err));
	if (sampo_inject__file(path, epath, &io))
		fail_msg("inject: %s", err);

	assert_int_equal(sampo_reader__open(epath, NULL, &r), 0);
	assert_int_equal(sampo_embedded_symbols__read(r, &es, err, sizeof(err)), 0);
	assert_int_equal(sampo_module_sections__read(r, &back), 0);
	sampo_reader__close(r);
	for (size_t i = 0; !sampo_embedded_symbols__table(es, i, &info); i++) {
		if (info.kind != SAMPO_EMBEDDED_MODULE)
			continue;
		have_module = true;
		assert_true(sampo_build_id__equal(&info.bid, &mbid));
		assert_string_equal(info.name, "mod_gz");
		assert_int_equal(info.nr_symbols, 6); /* 5 functions, and mod_init */
	}
	assert_true(have_module);

	warnings_reset();
	SAMPO_OPTS(sampo_symbolizer_opts, away, .buildid_dir = bare, .live_root = empty_root,
		   .module_sections = back, .embedded_symbols = es);
	walk(epath, &away, &got);
	assert_lines(&got, &want, "the module from the profile");
	lines_free(&got);
	lines_free(&want);
	sampo_embedded_symbols__delete(es);
	sampo_module_sections__delete(back);
	sampo_module_sections__delete(ms);
}

/* a module whose recorded build-id differs from every file: unresolved, said once */
static void test_symbolizer__synthetic_module_mismatch(void **state)
{
	struct synth_module mods[4];
	struct lines got = { 0 }, want = { 0 };
	struct sampo_module_sections *ms;
	struct sampo_build_id other;
	struct sampo_section_addr secs[] = { { ".text", 0 } };
	char path[700];

	(void)state;
	NEED_WORKDIR();
	if (!synth_build())
		skip();
	synth_modules(mods);
	secs[0].addr = mods[0].base;
	assert_int_equal(sampo_build_id__from_hex("ffeeddccbbaa99887766554433221100ffeeddcc", &other),
			 0);
	ms = sampo_module_sections__new();
	assert_int_equal(sampo_module_sections__add(ms, "mod_gz", &other, secs, 1), 0);
	snprintf(path, sizeof(path), "%s/modmismatch.data", syn.dir);
	synth_write(path, mods, 1, true, ms, 0, &want);
	CACHE_OPTS(o, .vmlinux = syn.vmlinux, .symfs = syn.symfs, .module_sections = ms);
	walk(path, &o, &got);
	assert_int_equal(count_matching(&got, "[unknown] (/lib/modules/"), 5);
	assert_int_equal(count_matching(&got, "mod_"), 5); /* only in the DSO names */
	assert_int_equal(nr_warnings, 1);
	assert_non_null(strstr(warnings, "module mod_gz was recorded with build-id ffeeddcc"));
	assert_non_null(strstr(warnings, MOD_BID));
	lines_free(&got);
	lines_free(&want);
	sampo_module_sections__delete(ms);
}

/* ---- live: record on this machine, check every kernel sample against /proc/kallsyms ------------ */

struct ksym_line {
	uint64_t addr;
	char name[128];
};

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym_line *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void test_symbolizer__live_record_matches_proc_kallsyms(void **state)
{
	const char *perf = getenv("PERF");
	struct ksym_line *ks = NULL;
	size_t nr = 0, cap = 0, checked = 0;
	struct lines got = { 0 };
	char cmd[1200], path[600], line[700];
	FILE *fp;

	(void)state;
	NEED_WORKDIR();
	if (!perf || !*perf)
		skip();
	snprintf(path, sizeof(path), "%s/live.data", cache_dir);
	snprintf(cmd, sizeof(cmd),
		 "'%s' record -q -e cpu-clock -F 4000 -a -o '%s' -- sleep 0.3 >/dev/null 2>&1", perf,
		 path);
	if (run(cmd))
		skip(); /* no perf_event_open here */
	fp = fopen("/proc/kallsyms", "r");
	if (!fp)
		skip();
	while (fgets(line, sizeof(line), fp)) {
		char t, name[128];
		uint64_t a;

		if (sscanf(line, "%" SCNx64 " %c %127s", &a, &t, name) != 3 || !a)
			continue;
		if (t != 'T' && t != 't' && t != 'W' && t != 'w')
			continue;
		if (nr == cap) {
			cap = cap ? cap * 2 : 65536;
			void *grown = realloc(ks, cap * sizeof(*ks));
			assert_non_null(grown);
			ks = grown;
		}
		ks[nr].addr = a;
		snprintf(ks[nr].name, sizeof(ks[nr].name), "%s", name);
		nr++;
	}
	fclose(fp);
	if (!nr) {
		free(ks);
		skip(); /* addresses hidden */
	}
	qsort(ks, nr, sizeof(*ks), cmp_ksym);

	/* the real machine: live /proc/kallsyms, chosen because /sys/kernel/notes matches */
	SAMPO_OPTS(sampo_symbolizer_opts, o, .buildid_dir = empty_root);
	walk(path, &o, &got);
	for (size_t i = 0; i < got.nr; i++) {
		uint64_t ip = strtoull(got.v[i], NULL, 16);
		char name[256];
		size_t lo = 0, hi = nr;
		bool ok = false;

		if (!strstr(got.v[i], "([kernel.kallsyms])"))
			continue;
		if (sscanf(got.v[i], "%*s %255s", name) != 1)
			continue;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (ks[mid].addr <= ip)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* any of the names at the closest start below ip (aliases share addresses) */
		for (size_t j = lo; j > 0 && ks[j - 1].addr == ks[lo - 1].addr; j--)
			ok |= !strcmp(ks[j - 1].name, name);
		if (!ok)
			fail_msg("kernel sample %s: /proc/kallsyms says %s; warnings: %s", got.v[i],
				 lo ? ks[lo - 1].name : "nothing", warnings);
		checked++;
	}
	assert_true(checked > 0);
	free(ks);
	lines_free(&got);
}

/* JIT code: an anonymous executable map is /tmp/perf-PID.map, whose lines name the symbols */
static void test_symbolizer__perf_map_for_jit_code(void **state)
{
	SAMPO_OPTS(sampo_writer_opts, wo);
	struct sampo_event_attr attr = { 0 };
	struct sampo_writer_map m = {
		.misc = SAMPO_CPUMODE_USER, .pid = 4000321, .tid = 4000321,
		.start = 0x7f0000100000ULL, .len = 0x10000, .prot = 5, .flags = 2,
		.filename = "//anon",
	};
	static const uint64_t ips[] = { 0x7f0000100010ULL, 0x7f0000100150ULL, 0x7f0000100300ULL };
	static const char *const want[] = {
		"7f0000100010 LambdaForm$MH/0x1::invoke (/tmp/perf-4000321.map)",
		"7f0000100150 Interpreter (/tmp/perf-4000321.map)",
		"7f0000100300 [unknown] (/tmp/perf-4000321.map)",
	};
	struct sampo_sample smp = { 0 };
	struct lines got = { 0 };
	struct sampo_writer *w;
	char path[600];
	uint64_t id = 1;
	FILE *fp;

	(void)state;
	NEED_WORKDIR();
	fp = fopen("/tmp/perf-4000321.map", "w");
	if (!fp)
		skip();
	/* "START SIZE NAME", hex, as JITs write it; a malformed line in the middle */
	fputs("7f0000100000 40 LambdaForm$MH/0x1::invoke\nnot a line\n"
	      "7f0000100100 100 Interpreter\n",
	      fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/jit.data", cache_dir);
	attr.type = 1;
	attr.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID;
	attr.sample_period = 1;
	assert_int_equal(sampo_writer__open(path, &wo, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &attr, &id, 1), 0);
	assert_int_equal(sampo_writer__write_mmap2(w, &m, NULL), 0);
	for (size_t i = 0; i < 3; i++) {
		smp.ip = ips[i];
		smp.pid = smp.tid = 4000321;
		assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &smp), 0);
	}
	assert_int_equal(sampo_writer__close(w), 0);
	CACHE_OPTS(o);
	walk(path, &o, &got);
	(void)unlink("/tmp/perf-4000321.map");
	assert_int_equal(got.nr, 3);
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(got.v[i], want[i]);
	lines_free(&got);
}

/*
 * /tmp is anybody's: a FIFO planted at /tmp/perf-PID.map must not hang the
 * reader, a symbolic link is not followed, and another user's map is
 * ignored (one warning) unless --force.
 */
static void test_symbolizer__perf_map_trust(void **state)
{
	static const char map_path[] = "/tmp/perf-4000322.map";
	SAMPO_OPTS(sampo_writer_opts, wo);
	struct sampo_event_attr attr = { 0 };
	struct sampo_writer_map m = {
		.misc = SAMPO_CPUMODE_USER, .pid = 4000322, .tid = 4000322,
		.start = 0x7f0000100000ULL, .len = 0x10000, .prot = 5, .flags = 2,
		.filename = "//anon",
	};
	struct sampo_sample smp = { 0 };
	struct lines got = { 0 };
	struct sampo_writer *w;
	char path[600], target[600];
	uint64_t id = 1;

	(void)state;
	NEED_WORKDIR();
	snprintf(path, sizeof(path), "%s/jit-trust.data", cache_dir);
	attr.type = 1;
	attr.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID;
	attr.sample_period = 1;
	assert_int_equal(sampo_writer__open(path, &wo, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &attr, &id, 1), 0);
	assert_int_equal(sampo_writer__write_mmap2(w, &m, NULL), 0);
	smp.ip = 0x7f0000100010ULL;
	smp.pid = smp.tid = 4000322;
	assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &smp), 0);
	assert_int_equal(sampo_writer__close(w), 0);
	CACHE_OPTS(o);
	CACHE_OPTS(of, .force = true);

	/* a FIFO: read it and the walk would block forever (the alarm makes that a failure) */
	(void)unlink(map_path);
	assert_int_equal(mkfifo(map_path, 0666), 0);
	warnings_reset();
	alarm(20);
	walk(path, &of, &got);
	alarm(0);
	(void)unlink(map_path);
	assert_int_equal(got.nr, 1);
	assert_string_equal(got.v[0], "7f0000100010 [unknown] (/tmp/perf-4000322.map)");
	assert_int_equal(nr_warnings, 1);
	assert_non_null(strstr(warnings, "not a regular file"));
	lines_free(&got);

	/* a symbolic link to a good map */
	snprintf(target, sizeof(target), "%s/jit-target.map", cache_dir);
	write_file(target, "7f0000100000 40 planted_fn\n", strlen("7f0000100000 40 planted_fn\n"));
	assert_int_equal(symlink(target, map_path), 0);
	warnings_reset();
	walk(path, &of, &got);
	(void)unlink(map_path);
	assert_string_equal(got.v[0], "7f0000100010 [unknown] (/tmp/perf-4000322.map)");
	assert_non_null(strstr(warnings, "symbolic link"));
	lines_free(&got);

	/* ours: believed */
	write_file(map_path, "7f0000100000 40 jit_fn\n", strlen("7f0000100000 40 jit_fn\n"));
	warnings_reset();
	walk(path, &o, &got);
	assert_string_equal(got.v[0], "7f0000100010 jit_fn (/tmp/perf-4000322.map)");
	assert_int_equal(nr_warnings, 0);
	lines_free(&got);

	/* another user's (only root can make one): ignored, unless --force */
	if (geteuid() == 0) {
		assert_int_equal(chown(map_path, 4000322, 4000322), 0);
		warnings_reset();
		walk(path, &o, &got);
		assert_string_equal(got.v[0], "7f0000100010 [unknown] (/tmp/perf-4000322.map)");
		assert_int_equal(nr_warnings, 1);
		assert_non_null(strstr(warnings, "belongs to another user"));
		lines_free(&got);
		warnings_reset();
		walk(path, &of, &got);
		assert_string_equal(got.v[0], "7f0000100010 jit_fn (/tmp/perf-4000322.map)");
		assert_int_equal(nr_warnings, 0);
		lines_free(&got);
	}
	(void)unlink(map_path);
}

/* a tiny program standing for another version of burn: other code, other build-id */
static bool build_app_v2(char *out, size_t len, struct sampo_build_id *bid, uint64_t *fn_vaddr)
{
	char src[600], cmd[1600];
	struct nm_sym syms[64];
	size_t nr;

	snprintf(src, sizeof(src), "%s/app2.c", cache_dir);
	write_file(src, "int version_two_fn(int x) { return x * 11; }\nint main(void) { return version_two_fn(3); }\n",
		   strlen("int version_two_fn(int x) { return x * 11; }\nint main(void) { return version_two_fn(3); }\n"));
	snprintf(out, len, "%s/app2", cache_dir);
	snprintf(cmd, sizeof(cmd), "cc -O1 -Wl,--build-id=sha1 -o '%s' '%s'", out, src);
	if (run(cmd))
		return false;
	snprintf(cmd, sizeof(cmd), "nm '%s'", out);
	nr = read_syms(cmd, syms, 64, false);
	*fn_vaddr = sym_value(syms, nr, "version_two_fn");
	return !sampo_build_id__from_elf(out, bid);
}

/*
 * Two versions of one path in one session: with build-ids in MMAP2 they are
 * two DSOs, each symbolized from its own file; without, the older mapping
 * of a replaced file gets no symbols (and a warning) rather than the new
 * file's.
 */
static void test_symbolizer__two_versions_of_one_path(void **state)
{
	SAMPO_OPTS(sampo_writer_opts, wo);
	struct sampo_event_attr attr = { 0 };
	struct sampo_build_id burn_bid, v2_bid;
	struct sampo_sample smp = { 0 };
	struct lines got = { 0 };
	struct sampo_writer *w;
	char app2[700], path[700], dir[600], burn[1200];
	uint64_t id = 1, v2_fn = 0;
	const uint64_t s1 = 0x555555554000ULL, s2 = 0x565656560000ULL;
	char want[3][300];

	(void)state;
	NEED_FIXTURES();
	if (!build_app_v2(app2, sizeof(app2), &v2_bid, &v2_fn))
		skip();
	snprintf(burn, sizeof(burn), "%s/burn", fixtures);
	assert_int_equal(sampo_build_id__from_elf(burn, &burn_bid), 0);
	snprintf(dir, sizeof(dir), "%s/two-versions-cache", cache_dir);
	assert_int_equal(sampo_buildid_cache__add(dir, "/opt/app", &burn_bid, "elf", burn), 0);
	assert_int_equal(sampo_buildid_cache__add(dir, "/opt/app", &v2_bid, "elf", app2), 0);

	/* with build-ids: process 100 runs burn's version, process 200 the new one */
	snprintf(path, sizeof(path), "%s/two-versions.data", cache_dir);
	attr.type = 1;
	attr.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID;
	attr.sample_period = 1;
	assert_int_equal(sampo_writer__open(path, &wo, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &attr, &id, 1), 0);
	{
		struct sampo_writer_map m1 = {
			.misc = SAMPO_CPUMODE_USER, .pid = 100, .tid = 100, .start = s1, .len = 0x4000,
			.prot = 5, .flags = 2, .build_id = burn_bid.data,
			.build_id_size = burn_bid.size, .filename = "/opt/app",
		};
		struct sampo_writer_map m2 = m1;

		m2.pid = m2.tid = 200;
		m2.start = s2;
		m2.build_id = v2_bid.data;
		m2.build_id_size = v2_bid.size;
		assert_int_equal(sampo_writer__write_mmap2(w, &m1, NULL), 0);
		assert_int_equal(sampo_writer__write_mmap2(w, &m2, NULL), 0);
	}
	smp.pid = smp.tid = 100;
	smp.ip = s1 + 0x1149 + 2; /* burn_leaf_alpha; file offset = vaddr in burn's text */
	assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &smp), 0);
	smp.pid = smp.tid = 200;
	smp.ip = s2 + v2_fn + 1; /* gcc's PIE text: file offset = vaddr */
	assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &smp), 0);
	assert_int_equal(sampo_writer__close(w), 0);
	snprintf(want[0], sizeof(want[0]), "%" PRIx64 " burn_leaf_alpha (/opt/app)", s1 + 0x114b);
	snprintf(want[1], sizeof(want[1]), "%" PRIx64 " version_two_fn (/opt/app)", s2 + v2_fn + 1);
	SAMPO_OPTS(sampo_symbolizer_opts, o, .buildid_dir = dir, .live_root = empty_root);
	walk(path, &o, &got);
	assert_int_equal(got.nr, 2);
	assert_string_equal(got.v[0], want[0]);
	assert_string_equal(got.v[1], want[1]);
	lines_free(&got);

	/* without build-ids: the file was replaced (new inode); the table has the new one's */
	assert_int_equal(sampo_writer__open(path, &wo, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &attr, &id, 1), 0);
	{
		struct sampo_writer_map m1 = {
			.misc = SAMPO_CPUMODE_USER, .pid = 100, .tid = 100, .start = s1, .len = 0x4000,
			.prot = 5, .flags = 2, .maj = 8, .min = 1, .ino = 1111, .ino_generation = 1,
			.filename = "/opt/app",
		};
		struct sampo_writer_map m2 = m1;

		m2.pid = m2.tid = 200;
		m2.start = s2;
		m2.ino = 2222;
		assert_int_equal(sampo_writer__write_mmap2(w, &m1, NULL), 0);
		assert_int_equal(sampo_writer__write_mmap2(w, &m2, NULL), 0);
	}
	smp.pid = smp.tid = 100;
	smp.ip = s1 + 0x114b;
	assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &smp), 0);
	smp.pid = smp.tid = 200;
	smp.ip = s2 + v2_fn + 1;
	assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &smp), 0);
	assert_int_equal(sampo_writer__add_build_id(w, SAMPO_CPUMODE_USER, -1, v2_bid.data,
						    v2_bid.size, "/opt/app"),
			 0);
	assert_int_equal(sampo_writer__close(w), 0);
	snprintf(want[2], sizeof(want[2]), "%" PRIx64 " [unknown] (/opt/app)", s1 + 0x114b);
	warnings_reset();
	walk(path, &o, &got);
	assert_int_equal(got.nr, 2);
	assert_string_equal(got.v[0], want[2]);
	assert_string_equal(got.v[1], want[1]);
	assert_int_equal(nr_warnings, 1);
	assert_non_null(strstr(warnings, "replaced while recording"));
	lines_free(&got);
}

/*
 * [vdso] with the running kernel's build-id (a report on the recording
 * machine): its symbols come from our own vDSO, which perf 6.1 does not
 * cache. With another build-id: unresolved.
 */
static void test_symbolizer__vdso_of_the_running_kernel(void **state)
{
	SAMPO_OPTS(sampo_writer_opts, wo);
	struct sampo_event_attr attr = { 0 };
	unsigned long at = getauxval(AT_SYSINFO_EHDR);
	struct sampo_build_id bid;
	struct sampo_sample smp = { 0 };
	struct lines got = { 0 };
	struct sampo_writer *w;
	char path[600], line[512], names[512] = "";
	uint64_t id = 1, size = 0, fn = 0;
	Elf_Scn *scn = NULL;
	void *copy;
	Elf *elf;
	FILE *fp;

	(void)state;
	NEED_WORKDIR();
	if (!at)
		skip();
	fp = fopen("/proc/self/maps", "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		unsigned long lo, hi;

		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo == at)
			size = hi - lo;
	}
	fclose(fp);
	if (!size)
		skip();
	assert_int_equal(sampo_build_id__from_elf_mem((const void *)at, size, &bid), 0);

	/* the address of __vdso_clock_gettime, read here with libelf from the image */
	copy = malloc(size);
	assert_non_null(copy);
	memcpy(copy, (const void *)at, size);
	(void)elf_version(EV_CURRENT);
	elf = elf_memory(copy, size);
	assert_non_null(elf);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			gelf_getsym(d, (int)i, &sym);
			n = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (n && !strcmp(n, "__vdso_clock_gettime"))
				fn = sym.st_value;
		}
		/* every name at that address is right (aliases) */
		for (size_t i = 0; d && fn && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			gelf_getsym(d, (int)i, &sym);
			n = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (n && sym.st_value == fn && strlen(names) + strlen(n) + 3 < sizeof(names))
				strcat(strcat(strcat(names, " "), n), " ");
		}
	}
	elf_end(elf);
	free(copy);
	if (!fn)
		skip();

	for (int round = 0; round < 2; round++) {
		struct sampo_writer_map m = {
			.misc = SAMPO_CPUMODE_USER, .pid = 777, .tid = 777, .start = at, .len = size,
			.prot = 5, .flags = 2, .filename = "[vdso]",
		};
		char name[256];

		snprintf(path, sizeof(path), "%s/vdso.data", cache_dir);
		attr.type = 1;
		attr.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID;
		attr.sample_period = 1;
		assert_int_equal(sampo_writer__open(path, &wo, &w), 0);
		assert_int_equal(sampo_writer__add_attr(w, &attr, &id, 1), 0);
		assert_int_equal(sampo_writer__write_mmap2(w, &m, NULL), 0);
		smp.pid = smp.tid = 777;
		smp.ip = at + fn + 1;
		assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &smp), 0);
		if (round == 1)
			bid.data[0] ^= 0xff; /* a vdso of another kernel */
		assert_int_equal(sampo_writer__add_build_id(w, SAMPO_CPUMODE_USER, -1, bid.data,
							    bid.size, "[vdso]"),
				 0);
		assert_int_equal(sampo_writer__close(w), 0);
		CACHE_OPTS(o);
		walk(path, &o, &got);
		assert_int_equal(got.nr, 1);
		snprintf(name, sizeof(name), " %s ", got.v[0] + strcspn(got.v[0], " ") + 1);
		name[strcspn(name + 1, " ") + 2] = '\0';
		if (round == 0) {
			if (!strstr(names, name))
				fail_msg("vdso sample '%s': want one of%s", got.v[0], names);
		} else {
			assert_non_null(strstr(got.v[0], " [unknown] ([vdso])"));
		}
		lines_free(&got);
	}
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

/* ---- guests ---------------------------------------------------------------------------------- */

/*
 * A guest kernel with functions of its own names, linked at the host
 * kernel's addresses: a guest sample that went to the host's symbols would
 * get a host name, and one relocated by the host's slide a wrong one.
 */
static const char guest_src[] =
	"int gfunc_one(int x) { return x * 5 + 1; }\n"
	"int gfunc_two(int x) { int s = 1; for (int i = 0; i < x; i++) s *= i + x; return s; }\n"
	"int gfunc_three(int x) { return gfunc_one(x) - gfunc_two(x) + 4; }\n"
	"void _start(void) { for (;;) ; }\n";

static const char *const gfuncs[] = { "gfunc_one", "gfunc_two", "gfunc_three" };

struct guest_kernel {
	char vmlinux[800];
	struct nm_sym syms[32];
	size_t nr_syms;
	struct sampo_build_id bid;
};

static bool guest_build(struct guest_kernel *g)
{
	char p[2000];

	snprintf(p, sizeof(p), "%s/g.c", syn.dir);
	write_file(p, guest_src, strlen(guest_src));
	snprintf(g->vmlinux, sizeof(g->vmlinux), "%s/vmlinux-guest", syn.dir);
	snprintf(p, sizeof(p),
		 "cd '%s' && cc -O1 -ffreestanding -fno-pic -fno-pie -no-pie -mcmodel=kernel "
		 "-nostdlib -static -Wl,-T,k.lds -Wl,--build-id=sha1 -o vmlinux-guest g.c",
		 syn.dir);
	if (run(p))
		return false;
	snprintf(p, sizeof(p), "nm '%s'", g->vmlinux);
	g->nr_syms = read_syms(p, g->syms, 32, false);
	assert_int_equal(sampo_build_id__from_elf(g->vmlinux, &g->bid), 0);
	return true;
}

/* a kallsyms snapshot of @g booted at @slide, with a module's symbol */
static void guest_kallsyms(const struct guest_kernel *g, uint64_t slide, const char *path)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	for (size_t i = 0; i < g->nr_syms; i++)
		fprintf(fp, "%016" PRIx64 " T %s\n", g->syms[i].addr + slide, g->syms[i].name);
	fprintf(fp, "%016" PRIx64 " t gmod_fn\t[gmod]\n", (uint64_t)0xffffffffc0100200ULL);
	fclose(fp);
}

/*
 * A host kernel at syn.slide and a guest (pid 0, run by qemu thread
 * 4242/4243) at @gslide, with samples on every function of both and one in
 * a guest module that only a kallsyms of the guest's recording boot names.
 * @expect gets the right answers: the guest's names when @guest_syms, the
 * module's when @guest_mod_sym, else unresolved.
 */
static void guest_write(const char *path, const struct guest_kernel *g, uint64_t gslide,
			bool guest_syms, bool guest_mod_sym, struct lines *expect)
{
	uint64_t text = sym_value(syn.ksyms, syn.nr_ksyms, "_text");
	uint64_t etext = sym_value(syn.ksyms, syn.nr_ksyms, "_etext");
	uint64_t gtext = sym_value(g->syms, g->nr_syms, "_text");
	uint64_t getext = sym_value(g->syms, g->nr_syms, "_etext");
	struct sampo_writer_map km = {
		.misc = SAMPO_CPUMODE_KERNEL,
		.pid = (uint32_t)-1,
		.start = text + syn.slide,
		.len = etext - text,
		.pgoff = text + syn.slide,
		.filename = "[kernel.kallsyms]_text",
	};
	struct sampo_writer_map gkm = {
		.misc = SAMPO_CPUMODE_GUEST_KERNEL,
		.pid = 0,
		.start = gtext + gslide,
		.len = getext - gtext,
		.pgoff = gtext + gslide,
		.filename = "[guest.kernel.kallsyms]_text",
	};
	struct sampo_writer_map gmm = {
		.misc = SAMPO_CPUMODE_GUEST_KERNEL,
		.pid = 0,
		.start = 0xffffffffc0100000ULL,
		.len = 0x4000,
		.filename = "[gmod]",
	};
	struct sampo_sample smp = { 0 };
	struct sampo_writer *w;
	char line[512];

	w = synth_open(path);
	assert_int_equal(sampo_writer__write_mmap(w, &km, NULL), 0);
	assert_int_equal(sampo_writer__write_mmap(w, &gkm, NULL), 0);
	assert_int_equal(sampo_writer__write_mmap(w, &gmm, NULL), 0);
	for (size_t i = 0; i < 3; i++) {
		smp.pid = smp.tid = 100;
		smp.ip = sym_value(syn.ksyms, syn.nr_ksyms, kfuncs[i]) + syn.slide + 1;
		assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_KERNEL, &smp), 0);
		snprintf(line, sizeof(line), "%" PRIx64 " %s ([kernel.kallsyms])", smp.ip,
			 kfuncs[i]);
		lines_add(expect, line);

		smp.pid = 4242;
		smp.tid = 4243;
		smp.ip = sym_value(g->syms, g->nr_syms, gfuncs[i]) + gslide + 1;
		assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_GUEST_KERNEL, &smp),
				 0);
		snprintf(line, sizeof(line), "%" PRIx64 " %s ([guest.kernel.kallsyms])", smp.ip,
			 guest_syms ? gfuncs[i] : "[unknown]");
		lines_add(expect, line);
	}
	smp.ip = 0xffffffffc0100210ULL;
	assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_GUEST_KERNEL, &smp), 0);
	snprintf(line, sizeof(line), "%" PRIx64 " %s ([gmod])", smp.ip,
		 guest_mod_sym ? "gmod_fn" : "[unknown]");
	lines_add(expect, line);

	assert_int_equal(sampo_writer__set_feature_string(w, SAMPO_FEAT_OSRELEASE, SYN_RELEASE), 0);
	assert_int_equal(sampo_writer__add_build_id(w, SAMPO_CPUMODE_KERNEL, -1, syn.kbid.data,
						    syn.kbid.size, "[kernel.kallsyms]"),
			 0);
	assert_int_equal(sampo_writer__add_build_id(w, SAMPO_CPUMODE_GUEST_KERNEL, 0, g->bid.data,
						    g->bid.size, "[guest.kernel.kallsyms]"),
			 0);
	assert_int_equal(sampo_writer__close(w), 0);
}

/* the kernel's build-id note, as /sys/kernel/notes holds it */
static void write_notes(const char *path, const struct sampo_build_id *bid)
{
	uint8_t buf[64] = { 4, 0, 0, 0 };

	buf[4] = (uint8_t)bid->size;
	buf[8] = 3; /* NT_GNU_BUILD_ID */
	memcpy(buf + 12, "GNU", 4);
	memcpy(buf + 16, bid->data, bid->size);
	write_file(path, buf, 16 + bid->size);
}

/*
 * Guests (perf kvm): each guest kernel from its own source, relocated by its
 * own recorded _text, held to its own build-id; the host's kernel and
 * running system are never used for a guest.
 */
static void test_symbolizer__guest_kernels(void **state)
{
	struct guest_kernel g;
	struct lines got = { 0 }, want = { 0 };
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	uint64_t gslide;
	char path[800], ks[800], cmd[2000];

	(void)state;
	NEED_WORKDIR();
	if (!synth_build() || !guest_build(&g))
		skip();
	gslide = (uint64_t)(1 + rand() % 500) << 21;
	snprintf(path, sizeof(path), "%s/guest.data", syn.dir);
	walk_guests = true;

	/* --guestvmlinux with the recorded build-id; the host by -k */
	guest_write(path, &g, gslide, true, false, &want);
	CACHE_OPTS(o1, .vmlinux = syn.vmlinux, .guest_vmlinux = g.vmlinux);
	walk(path, &o1, &got);
	assert_lines(&got, &want, "guest vmlinux");
	assert_int_equal(nr_warnings, 0);
	lines_free(&got);
	lines_free(&want);

	/* the same slide for both: the ranges overlap, and still nothing is mixed up */
	guest_write(path, &g, syn.slide, true, false, &want);
	walk(path, &o1, &got);
	assert_lines(&got, &want, "guest at the host's addresses");
	lines_free(&got);
	lines_free(&want);

	/* the host's vmlinux given as the guest's: refused, the guest's samples stay unresolved */
	warnings_reset();
	guest_write(path, &g, gslide, false, false, &want);
	CACHE_OPTS(o2, .vmlinux = syn.vmlinux, .guest_vmlinux = syn.vmlinux);
	walk(path, &o2, &got);
	assert_lines(&got, &want, "host vmlinux as the guest's");
	assert_int_equal(nr_warnings, 1);
	assert_non_null(strstr(warnings, "guest kernel"));
	sampo_build_id__to_hex(&g.bid, hex, sizeof(hex));
	assert_non_null(strstr(warnings, hex));
	lines_free(&got);

	/* no guest source at all: unresolved, and the advice names the options */
	warnings_reset();
	CACHE_OPTS(o3, .vmlinux = syn.vmlinux);
	walk(path, &o3, &got);
	assert_lines(&got, &want, "no guest source");
	assert_non_null(strstr(warnings, "--guestvmlinux"));
	lines_free(&got);
	lines_free(&want);

	/* a kallsyms snapshot of another boot of the guest: relocated by the guest's _text */
	warnings_reset();
	snprintf(ks, sizeof(ks), "%s/guest-kallsyms-other-boot", syn.dir);
	guest_kallsyms(&g, gslide + (5ULL << 21), ks);
	guest_write(path, &g, gslide, true, false, &want);
	CACHE_OPTS(o4, .vmlinux = syn.vmlinux, .guest_kallsyms = ks);
	walk(path, &o4, &got);
	assert_lines(&got, &want, "guest kallsyms of another boot");
	lines_free(&got);
	lines_free(&want);

	/*
	 * --guestmount DIR: DIR/0/proc/kallsyms of the recording boot, trusted
	 * because DIR/0/sys/kernel/notes has the recorded build-id; being of
	 * that boot, it also names the guest module's sample.
	 */
	warnings_reset();
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/gmount/0/proc' '%s/gmount/0/sys/kernel'", syn.dir,
		 syn.dir);
	assert_int_equal(run(cmd), 0);
	snprintf(ks, sizeof(ks), "%s/gmount/0/proc/kallsyms", syn.dir);
	guest_kallsyms(&g, gslide, ks);
	snprintf(ks, sizeof(ks), "%s/gmount/0/sys/kernel/notes", syn.dir);
	write_notes(ks, &g.bid);
	snprintf(ks, sizeof(ks), "%s/gmount", syn.dir);
	guest_write(path, &g, gslide, true, true, &want);
	CACHE_OPTS(o5, .vmlinux = syn.vmlinux, .guestmount = ks);
	walk(path, &o5, &got);
	assert_lines(&got, &want, "guestmount");
	assert_int_equal(nr_warnings, 0);
	lines_free(&got);
	lines_free(&want);

	/* the same tree with another kernel's notes: its kallsyms is not trusted */
	snprintf(ks, sizeof(ks), "%s/gmount/0/sys/kernel/notes", syn.dir);
	write_notes(ks, &syn.kbid);
	snprintf(ks, sizeof(ks), "%s/gmount", syn.dir);
	guest_write(path, &g, gslide, false, false, &want);
	walk(path, &o5, &got);
	assert_lines(&got, &want, "guestmount of another kernel");
	lines_free(&got);
	lines_free(&want);

	/* without --guest, guest samples resolve to nothing, as in perf */
	walk_guests = false;
	guest_write(path, &g, gslide, false, false, &want);
	walk(path, &o1, &got);
	assert_int_equal(got.nr, want.nr);
	for (size_t i = 0; i < got.nr; i++) {
		if (strstr(want.v[i], "([kernel.kallsyms])"))
			assert_string_equal(got.v[i], want.v[i]);
		else
			assert_non_null(strstr(got.v[i], " [unknown] ([unknown])"));
	}
	lines_free(&got);
	lines_free(&want);
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
		cmocka_unit_test(test_symbolizer__synthetic_kaslr_vmlinux_and_modules),
		cmocka_unit_test(test_symbolizer__embedded_kernel_and_snapshot),
		cmocka_unit_test(test_symbolizer__embedded_module_by_section_maps),
		cmocka_unit_test(test_symbolizer__synthetic_section_maps),
		cmocka_unit_test(test_symbolizer__synthetic_module_mismatch),
		cmocka_unit_test(test_symbolizer__live_record_matches_proc_kallsyms),
		cmocka_unit_test(test_symbolizer__perf_map_for_jit_code),
		cmocka_unit_test(test_symbolizer__perf_map_trust),
		cmocka_unit_test(test_symbolizer__recorded_paths_do_not_climb),
		cmocka_unit_test(test_symbolizer__two_versions_of_one_path),
		cmocka_unit_test(test_symbolizer__vdso_of_the_running_kernel),
		cmocka_unit_test(test_symbolizer__guest_kernels),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
