/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test-collapse.c - the stackcollapse-perf.pl reader (tools/sampo/collapse.c)
 * on perf script texts made to hit its patterns' odd cases, against what the
 * real stackcollapse-perf.pl printed for each text and option set
 * (tests/cli/expected/t6204-script-folded-flamegraph/text, made by
 * scripts/flamegraph-goldens.sh): comms with blanks and digits, pid/tid
 * forms, periods missing, "0" or past 2^64, other events, "->" inline
 * chains, Go and C++ names, quotes, unresolved frames, DSOs with " (" in
 * them, a last stack without its empty line. The text is fed whole, one
 * byte at a time and in 7-byte chunks, as the output buffer hands it over.
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

#include "collapse.h"

#define DIR "/tests/cli/expected/t6204-script-folded-flamegraph"

static char *read_all(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *s = NULL;
	size_t cap = 0, n = 0, k;

	if (!fp)
		fail_msg("cannot open '%s': %s", path, strerror(errno));
	do {
		if (n + 4096 + 1 > cap) {
			char *p;

			cap = cap ? 2 * cap : 65536;
			p = realloc(s, cap);
			assert_non_null(p);
			s = p;
		}
		k = fread(s + n, 1, 4096, fp);
		n += k;
	} while (k > 0);
	fclose(fp);
	s[n] = '\0';
	*len = n;
	return s;
}

/* the options as the set's stackcollapse-perf.pl column spells them */
static void parse_opts(char *words, struct collapse_opts *o)
{
	memset(o, 0, sizeof(*o));
	for (char *w = strtok(words, " "); w; w = strtok(NULL, " ")) {
		if (!strcmp(w, "--pid"))
			o->pid = true;
		else if (!strcmp(w, "--tid"))
			o->tid = true;
		else if (!strcmp(w, "--kernel"))
			o->kernel = true;
		else if (!strcmp(w, "--jit"))
			o->jit = true;
		else if (!strcmp(w, "--all"))
			o->kernel = o->jit = true;
		else if (!strcmp(w, "--addrs"))
			o->addrs = true;
		else if (!strncmp(w, "--event-filter=", 15))
			o->event_filter = w + 15;
		else if (strcmp(w, "-"))
			fail_msg("unknown stackcollapse-perf.pl option '%s' in sets.tsv", w);
	}
}

/* the text through a collapser in @chunk-byte pieces (0: whole), its output */
static char *collapse_text(const struct collapse_opts *o, const char *text, size_t len,
			   size_t chunk)
{
	static struct outbuf ob;
	struct collapse *c;
	FILE *fp = tmpfile();
	size_t n;
	long size;
	char *s;

	assert_non_null(fp);
	assert_int_equal(collapse_new(o, &c), 0);
	if (!chunk)
		chunk = len ? len : 1;
	for (size_t off = 0; off < len; off += n) {
		n = len - off < chunk ? len - off : chunk;
		assert_int_equal(collapse_feed(c, text + off, n), 0);
	}
	assert_int_equal(collapse_finish(c), 0);
	ob_init_file(&ob, fp);
	assert_int_equal(collapse_write(c, &ob), 0);
	assert_int_equal(ob_flush(&ob), 0);
	collapse_delete(c);
	size = ftell(fp);
	assert_true(size >= 0);
	rewind(fp);
	s = malloc((size_t)size + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)size, fp), (size_t)size);
	s[size] = '\0';
	fclose(fp);
	return s;
}

static void check_text(const char *name)
{
	const char *src = getenv("SAMPO_SRCDIR");
	char path[4096], line[1024];
	size_t len, glen;
	char *text;
	FILE *sets;
	int nr = 0;

	if (!src)
		skip();
	snprintf(path, sizeof(path), "%s" DIR "/text/%s.txt", src, name);
	text = read_all(path, &len);
	snprintf(path, sizeof(path), "%s" DIR "/sets.tsv", src);
	sets = fopen(path, "r");
	assert_non_null(sets);
	while (fgets(line, sizeof(line), sets)) {
		char *set = line, *pl, *end;
		struct collapse_opts o;
		static const size_t chunks[] = { 0, 1, 7 };

		if (line[0] == '#')
			continue;
		pl = strchr(set, '\t');
		assert_non_null(pl);
		*pl++ = '\0';
		end = strchr(pl, '\t');
		assert_non_null(end);
		*end = '\0';
		parse_opts(pl, &o);
		snprintf(path, sizeof(path), "%s" DIR "/text/%s.%s.folded", src, name, set);
		{
			char *want = read_all(path, &glen);

			for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
				char *got = collapse_text(&o, text, len, chunks[i]);

				if (strcmp(got, want))
					fail_msg("%s, set %s, chunks of %zu: got\n%s\nstackcollapse-perf.pl "
						 "printed\n%s",
						 name, set, chunks[i], got, want);
				free(got);
			}
			free(want);
		}
		nr++;
	}
	fclose(sets);
	free(text);
	assert_true(nr >= 10);
}

static void test_quirks(void **state)
{
	(void)state;
	check_text("quirks");
}

static void test_counts(void **state)
{
	(void)state;
	check_text("counts");
}

static void test_random(void **state)
{
	(void)state;
	check_text("random-1");
	check_text("random-2");
}

/* what the first event is, and the first one left out, for the warning */
static void test_skipped_event(void **state)
{
	static const char text[] = "a 1 [000] 1.0: 5 cycles:\n\t1 f (/x)\n\n"
				   "a 1 [000] 1.1: 5 instructions:\n\t1 g (/x)\n\n"
				   "junk\n";
	struct collapse *c;
	const char *kept, *skipped;

	(void)state;
	assert_int_equal(collapse_new(NULL, &c), 0);
	assert_int_equal(collapse_feed(c, text, sizeof(text) - 1), 0);
	assert_int_equal(collapse_finish(c), 0);
	skipped = collapse_skipped_event(c, &kept);
	assert_string_equal(kept, "cycles");
	assert_string_equal(skipped, "instructions");
	assert_int_equal(collapse_unrecognized(c), 1);
	collapse_delete(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quirks),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_skipped_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
