// SPDX-License-Identifier: GPL-2.0
/*
 * test-kallsyms.c - the kallsyms parser: small snapshots written here (kernel
 * and module symbols, the ends perf gives them, relocation), every kind of
 * malformed line, the kptr_restrict all-zero file, and the real 5.4 MB
 * snapshot of the perf 6.1 fixture checked against its own text.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/symbol.h>

static char errbuf[256];

static int load(const char *text, const struct sampo_symtab_kallsyms_opts *opts,
		struct sampo_symtab **ret)
{
	/* exact-size heap copy: ASan sees any read past the end */
	size_t len = strlen(text);
	char *copy = malloc(len ? len : 1);
	int err;

	assert_non_null(copy);
	memcpy(copy, text, len);
	err = sampo_symtab__load_kallsyms_mem(copy, len, "snap", opts, ret);
	free(copy);
	return err;
}

static const char small[] = "ffffffff81000000 T _text\n"
			    "ffffffff81000000 T startup_64\n"
			    "ffffffff81000070 T secondary_startup_64\n"
			    "ffffffff81000100 t verify_cpu\n"
			    "ffffffff81000200 r some_rodata\n"
			    "ffffffff81000300 W weak_fn\n"
			    "ffffffff81000400 T last_kernel_fn\n"
			    "ffffffffc0201000 t ftrace_trampoline\t[__builtin__ftrace]\n"
			    "ffffffffc0a00010 t nft_init\t[nf_tables]\n"
			    "ffffffffc0a00000 T nft_register\t[nf_tables]\n"
			    "ffffffffc0a00080 d nft_data\t[nf_tables]\n"
			    "ffffffffc0b00000 t ext4_fn\t[ext4]\n";

static void test_kallsyms__parses_kernel_and_module_symbols(void **state)
{
	struct sampo_symtab *st = NULL;
	const struct sampo_symbol *s;
	uint64_t addr;

	(void)state;
	assert_int_equal(load(small, NULL, &st), 0);

	/* r is not kept; _text and startup_64 share an address: one stays */
	assert_int_equal(sampo_symtab__nr(st), 10);
	assert_null(sampo_symtab__find_by_name(st, "some_rodata"));

	/* _text is still known as the reference symbol even if the duplicate rule dropped it */
	assert_int_equal(sampo_symtab__kallsyms_ref(st, "_text", &addr), 0);
	assert_true(addr == 0xffffffff81000000ULL);
	assert_int_equal(sampo_symtab__kallsyms_ref(st, "nosuch", &addr), -ENOENT);

	s = sampo_symtab__find(st, 0xffffffff81000010ULL);
	assert_non_null(s);
	/*
	 * _text ends where startup_64 starts, i.e. at its own start (size 0):
	 * the sized startup_64 wins the duplicate rule
	 */
	assert_string_equal(sampo_symbol__name(s), "startup_64");
	assert_true(sampo_symbol__end(s) == 0xffffffff81000070ULL);

	s = sampo_symtab__find(st, 0xffffffff81000105ULL);
	assert_string_equal(sampo_symbol__name(s), "verify_cpu");
	/* the dropped rodata symbol does not cut verify_cpu short */
	assert_true(sampo_symbol__end(s) == 0xffffffff81000300ULL);
	assert_int_equal(sampo_symbol__binding(s), SAMPO_SYMBOL_LOCAL);
	assert_int_equal(sampo_symbol__type(s), SAMPO_SYMBOL_FUNC);
	assert_null(sampo_symtab__symbol_module(st, s));

	s = sampo_symtab__find(st, 0xffffffff81000300ULL);
	assert_int_equal(sampo_symbol__binding(s), SAMPO_SYMBOL_WEAK);

	/*
	 * last kernel symbol before the modules: perf ends it at
	 * roundup(start + 4096, 4096), not at the first module symbol
	 */
	s = sampo_symtab__find(st, 0xffffffff81000400ULL);
	assert_string_equal(sampo_symbol__name(s), "last_kernel_fn");
	assert_true(sampo_symbol__end(s) == 0xffffffff81002000ULL);
	assert_null(sampo_symtab__find(st, 0xffffffff81002000ULL));
	assert_null(sampo_symtab__find(st, 0xffffffffc0000000ULL));

	/* module symbols: sorted although the file is not, module name kept */
	s = sampo_symtab__find(st, 0xffffffffc0a00004ULL);
	assert_string_equal(sampo_symbol__name(s), "nft_register");
	assert_string_equal(sampo_symtab__symbol_module(st, s), "nf_tables");
	assert_true(sampo_symbol__end(s) == 0xffffffffc0a00010ULL);
	s = sampo_symtab__find(st, 0xffffffffc0a00090ULL);
	assert_string_equal(sampo_symbol__name(s), "nft_data");
	assert_int_equal(sampo_symbol__type(s), SAMPO_SYMBOL_OBJECT);
	/* between two modules the end is the next start (perf only rounds at the kernel border) */
	assert_true(sampo_symbol__end(s) == 0xffffffffc0b00000ULL);
	s = sampo_symtab__find(st, 0xffffffffc0201000ULL);
	assert_string_equal(sampo_symtab__symbol_module(st, s), "__builtin__ftrace");
	/* the very last symbol: up to the page after the next boundary */
	s = sampo_symtab__find(st, 0xffffffffc0b00fffULL);
	assert_string_equal(sampo_symbol__name(s), "ext4_fn");
	assert_true(sampo_symbol__end(s) == 0xffffffffc0b01000ULL);
	sampo_symtab__delete(st);
}

static void test_kallsyms__relocates_to_the_recorded_reference(void **state)
{
	/* the snapshot was taken on a boot with a 0x2000000 slide against the recording */
	SAMPO_OPTS(sampo_symtab_kallsyms_opts, opts, .ref_name = "_text",
		   .ref_addr = 0xffffffff83000000ULL);
	struct sampo_symtab *st = NULL;
	const struct sampo_symbol *s;
	uint64_t addr;

	(void)state;
	assert_int_equal(load(small, &opts, &st), 0);
	s = sampo_symtab__find(st, 0xffffffff83000105ULL);
	assert_non_null(s);
	assert_string_equal(sampo_symbol__name(s), "verify_cpu");
	assert_int_equal(sampo_symtab__kallsyms_ref(st, "_text", &addr), 0);
	assert_true(addr == 0xffffffff83000000ULL);
	sampo_symtab__delete(st);

	opts.ref_name = "_nosuch";
	assert_int_equal(load(small, &opts, &st), -ENOENT);
}

static void test_kallsyms__all_zero_addresses_are_kptr_restrict(void **state)
{
	SAMPO_OPTS(sampo_symtab_kallsyms_opts, opts, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	struct sampo_symtab *st = NULL;

	(void)state;
	assert_int_equal(load("0000000000000000 T _text\n"
			      "0000000000000000 t foo\n"
			      "0000000000000000 t bar\t[mod]\n",
			      &opts, &st),
			 -EPERM);
	assert_non_null(strstr(errbuf, "kptr_restrict"));
	assert_null(st);
}

static void test_kallsyms__rejects_malformed_lines(void **state)
{
	static const char *const bad[] = {
		"ffffffff81000000 T ok\nzzzz T bad_hex\n",
		"ffffffff81000000 T ok\nffffffff81000000\n",
		"ffffffff81000000 T ok\nffffffff81000000 T\n",
		"ffffffff81000000 T ok\nffffffff81000000 T \n",
		"ffffffff81000000 T ok\n1ffffffff81000000 T too_long_addr\n",
		"ffffffff81000000 T ok\nffffffff81000000 TT two_letters\n",
		"ffffffff81000000 T ok\nffffffff81000000 1 digit_type\n",
		"ffffffff81000000 T ok\nffffffff81000000 t mod\tnobrackets\n",
		"ffffffff81000000 T ok\nffffffff81000000 t mod\t[]\n",
		"ffffffff81000000 T ok\nffffffff81000000 t mod\t[open\n",
		"ffffffff81000000 T ok\nffffffff81000000 t two words\n",
		"ffffffff81000000 T ok\n\n",
		"ffffffff81000000 T ok\n ffffffff81000000 T lead_space\n",
		"",
	};
	char longline[3000];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		SAMPO_OPTS(sampo_symtab_kallsyms_opts, opts, .errbuf = errbuf,
			   .errbuf_sz = sizeof(errbuf));
		struct sampo_symtab *st = NULL;

		errbuf[0] = '\0';
		if (load(bad[i], &opts, &st) != -SAMPO_ERR_MALFORMED)
			fail_msg("case %zu not rejected", i);
		assert_null(st);
		assert_non_null(strstr(errbuf, "'snap'"));
		if (bad[i][0])
			assert_non_null(strstr(errbuf, ":2:"));
	}

	/* a name longer than any kernel allows */
	memcpy(longline, "ffffffff81000000 T ", 19);
	memset(longline + 19, 'a', 2000);
	strcpy(longline + 2019, "\n");
	{
		SAMPO_OPTS(sampo_symtab_kallsyms_opts, opts, .errbuf = errbuf,
			   .errbuf_sz = sizeof(errbuf));
		struct sampo_symtab *st = NULL;

		assert_int_equal(load(longline, &opts, &st), -SAMPO_ERR_MALFORMED);
		assert_non_null(strstr(errbuf, ":1: symbol name too long"));
	}
}

static void test_kallsyms__accepts_last_line_without_newline(void **state)
{
	struct sampo_symtab *st = NULL;

	(void)state;
	assert_int_equal(load("ffffffff81000000 T a\nffffffff81000010 T b", NULL, &st), 0);
	assert_int_equal(sampo_symtab__nr(st), 2);
	sampo_symtab__delete(st);
}

static void test_kallsyms__missing_file_is_enoent(void **state)
{
	struct sampo_symtab *st = NULL;

	(void)state;
	assert_int_equal(sampo_symtab__load_kallsyms("/nonexistent/kallsyms", NULL, &st), -ENOENT);
}

/* ---- the real snapshot ------------------------------------------------------------------- */

struct line_sym {
	uint64_t addr;
	char name[256];
	bool module;
};

static int line_sym_cmp(const void *a, const void *b)
{
	const struct line_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_kallsyms__real_snapshot_matches_its_text(void **state)
{
	const char *shared = getenv("SAMPO_SHARED");
	char tmp[] = "/tmp/sampo-kallsyms-XXXXXX", cmd[8192], path[4200], line[512];
	const char *member = "[kernel.kallsyms]/4a5a9b0affb66c437abcd455d2738af879985fa9/kallsyms";
	struct sampo_symtab *st = NULL;
	struct line_sym *ls = NULL;
	size_t nr = 0, alloc = 0, checked = 0;
	double t0, t1;
	uint64_t addr;
	FILE *f;

	(void)state;
	if (!shared || !*shared)
		skip();
	assert_non_null(mkdtemp(tmp));
	snprintf(cmd, sizeof(cmd),
		 "tar -xjf '%s/fixtures/perf-6.1/b-callchain-fp/perf.data.tar.bz2' -C '%s' '%s'",
		 shared, tmp, member);
	if (system(cmd) != 0)
		skip();
	snprintf(path, sizeof(path), "%s/%s", tmp, member);

	t0 = now_s();
	assert_int_equal(sampo_symtab__load_kallsyms(path, NULL, &st), 0);
	t1 = now_s();
	print_message("kallsyms: %zu symbols loaded in %.1f ms\n", sampo_symtab__nr(st),
		      (t1 - t0) * 1e3);
	assert_true(sampo_symtab__nr(st) > 50000);

	assert_int_equal(sampo_symtab__kallsyms_ref(st, "_text", &addr), 0);
	assert_true(addr == 0xffffffff81000000ULL);

	/* first principles: the text itself, read with stdio */
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, name[256];
		int n = 0;

		if (sscanf(line, "%llx %c %255s%n", &a, &type, name, &n) != 3)
			fail_msg("unparsable line: %s", line);
		if (!strchr("TtWwDdBb", type))
			continue;
		if (nr == alloc) {
			alloc = alloc ? alloc * 2 : 4096;
			void *grown = realloc(ls, alloc * sizeof(*ls));
			assert_non_null(grown);
			ls = grown;
		}
		ls[nr].addr = a;
		snprintf(ls[nr].name, sizeof(ls[nr].name), "%s", name);
		ls[nr].module = strchr(line + n, '[') != NULL;
		nr++;
	}
	fclose(f);
	qsort(ls, nr, sizeof(*ls), line_sym_cmp);

	/* every symbol with an address of its own and 6+ bytes before the next one */
	for (size_t i = 1; i + 1 < nr; i++) {
		const struct sampo_symbol *s;

		if (ls[i].addr == ls[i - 1].addr || ls[i + 1].addr <= ls[i].addr + 5 ||
		    strlen(ls[i].name) >= sizeof(ls[i].name) - 1)
			continue;
		s = sampo_symtab__find(st, ls[i].addr + 5);
		if (!s || strcmp(sampo_symbol__name(s), ls[i].name) ||
		    sampo_symbol__start(s) != ls[i].addr)
			fail_msg("%s+5 (0x%llx): got %s", ls[i].name,
				 (unsigned long long)ls[i].addr,
				 s ? sampo_symbol__name(s) : "NULL");
		if (sampo_symbol__end(s) != ls[i + 1].addr && ls[i].module == ls[i + 1].module)
			fail_msg("%s ends at 0x%llx, next symbol at 0x%llx", ls[i].name,
				 (unsigned long long)sampo_symbol__end(s),
				 (unsigned long long)ls[i + 1].addr);
		checked++;
	}
	print_message("kallsyms: %zu symbols checked against the text\n", checked);
	assert_true(checked > 50000);

	/* a function picked by name, as a user would: schedule+5 is in schedule */
	{
		const struct sampo_symbol *s = sampo_symtab__find_by_name(st, "schedule");

		assert_non_null(s);
		assert_ptr_equal(sampo_symtab__find(st, sampo_symbol__start(s) + 5), s);
	}

	free(ls);
	sampo_symtab__delete(st);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kallsyms__parses_kernel_and_module_symbols),
		cmocka_unit_test(test_kallsyms__relocates_to_the_recorded_reference),
		cmocka_unit_test(test_kallsyms__all_zero_addresses_are_kptr_restrict),
		cmocka_unit_test(test_kallsyms__rejects_malformed_lines),
		cmocka_unit_test(test_kallsyms__accepts_last_line_without_newline),
		cmocka_unit_test(test_kallsyms__missing_file_is_enoent),
		cmocka_unit_test(test_kallsyms__real_snapshot_matches_its_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
