// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-options.c - libFuzzer entry point for the library's parsers of
 * option values: --time windows (lib/time-range.c), CPU lists
 * (lib/cpuset.c), sort key lists (lib/hist-sort.c) and -S symbol lists
 * (lib/symbol-filter.c).
 *
 * Input: u64 first and u64 last sample times (little-endian; the span the
 * shares of --time are of), then the option's text, parsed by each parser.
 * Every window parsed must be in order where there are several, within
 * [first, last] when given by shares, and decide each sample time the same
 * as its definition; an error must say what is wrong.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/cpuset.h>
#include <sampo/hist.h>
#include <sampo/symbol-filter.h>
#include <sampo/time-range.h>

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void time_ranges(const char *text, uint64_t first, uint64_t last)
{
	struct sampo_time_range *r = NULL;
	char err[256] = "";
	size_t nr = 0;
	int ret = sampo_time_ranges__parse(text, first, last, &r, &nr, err, sizeof(err));

	if (ret) {
		if (r || nr || !err[0])
			__builtin_trap(); /* an error leaves nothing and says why */
		return;
	}
	if (!nr)
		__builtin_trap();
	for (size_t i = 0; i < nr; i++) {
		/* a window given by shares lies within the recording */
		if (strchr(text, '%') && first <= last &&
		    (r[i].start < first || r[i].start > last || r[i].end > last))
			__builtin_trap();
		if (i + 1 < nr && !strchr(text, '%') && r[i].end >= r[i + 1].start)
			__builtin_trap(); /* several windows come in order */
		/*
		 * a window's own start and end are kept (a share's window may end
		 * before it starts, "71%-40%", as in perf: it keeps nothing)
		 */
		if (nr == 1 && r[i].start && (!r[i].end || r[i].end >= r[i].start) &&
		    sampo_time_ranges__skip(r, nr, r[i].start))
			__builtin_trap();
		if (nr == 1 && r[i].end && r[i].end >= r[i].start &&
		    sampo_time_ranges__skip(r, nr, r[i].end))
			__builtin_trap();
	}
	(void)sampo_time_ranges__skip(r, nr, first);
	(void)sampo_time_ranges__skip(r, nr, last);
	free(r);
}

static void cpu_list(const char *text)
{
	struct sampo_cpu_set *set = NULL;
	char err[256] = "";

	if (sampo_cpu_set__parse(text, &set, err, sizeof(err)) == 0) {
		for (uint32_t c = 0; c < 256; c++)
			(void)sampo_cpu_set__has(set, c);
		sampo_cpu_set__delete(set);
	} else if (set) {
		__builtin_trap();
	}
}

static void sort_keys(const char *text)
{
	enum sampo_sort_key keys[SAMPO_SORT_MAX_KEYS];
	char err[256] = "";
	size_t nr = 0;

	if (sampo_sort_keys__parse(text, keys, SAMPO_SORT_MAX_KEYS, &nr, err, sizeof(err)))
		return;
	for (size_t i = 0; i < nr; i++)
		if (!sampo_sort_key__name(keys[i]) || keys[i] == SAMPO_SORT_TRACE_FIELD)
			__builtin_trap(); /* only the names of -s */
}

/*
 * The text cut at its commas, as -S takes it: each entry keeps a sample of
 * its name, or at its address when it reads as hex; nothing keeps an
 * unresolved sample outside every map
 */
static void symbol_list(const char *text, uint64_t ip)
{
	const char *entries[64];
	struct sampo_symbol_filter *f = NULL;
	char *copy = strdup(text), *save = NULL;
	size_t nr = 0;

	if (!copy)
		return;
	for (char *e = strtok_r(copy, ",", &save); e && nr < 64; e = strtok_r(NULL, ",", &save))
		entries[nr++] = e;
	if (sampo_symbol_filter__new(entries, nr, &f) == 0) {
		const char *only = sampo_symbol_filter__only_name(f);

		if (only && !sampo_symbol_filter__keeps(f, only, false, ip))
			__builtin_trap(); /* a listed name is kept */
		if (sampo_symbol_filter__keeps(f, NULL, false, ip))
			__builtin_trap(); /* no name, no map: nothing to match */
		for (size_t i = 0; i < nr; i++)
			(void)sampo_symbol_filter__keeps(f, entries[i], true, ip);
		sampo_symbol_filter__delete(f);
	} else if (f) {
		__builtin_trap();
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	uint64_t first, last;
	char *text;

	if (!init) {
		sampo_set_print(quiet);
		init = true;
	}
	if (size < 16)
		return 0;
	first = le64(data);
	last = le64(data + 8);
	text = malloc(size - 16 + 1);
	if (!text)
		return 0;
	memcpy(text, data + 16, size - 16);
	text[size - 16] = 0;
	time_ranges(text, first, last);
	cpu_list(text);
	sort_keys(text);
	symbol_list(text, first);
	free(text);
	return 0;
}
