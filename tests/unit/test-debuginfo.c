// SPDX-License-Identifier: GPL-2.0
/*
 * test-debuginfo.c - the lookup order of separate debug files
 * (sampo_debuginfo__find()) and its use by the ELF symbol loader.
 *
 * Programs are compiled here with cc (each test skips without it) and split
 * with objcopy/strip. Checked: each rule in its place of the order (the
 * build-id cache's debug entry, the build-id path, the three debuglink
 * places), the directory of the recorded name rather than of the copy
 * read, a debug file of another build refused with a message naming both
 * build-ids, and a prelinked library (linked at 0x10000000) whose debug
 * file comes from the same link at base 0: its symbols land where the
 * unstripped prelinked library has them.
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

#include <sampo/buildid.h>
#include <sampo/debuginfo.h>
#include <sampo/symbol.h>

static char tmpdir[] = "/tmp/sampo-debuginfo-XXXXXX";
static bool have_tmpdir;

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static void tpath(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

static const char prog_src[] = "static volatile int sink;\n"
			       "__attribute__((noinline)) static void f2_static(void) { sink++; }\n"
			       "void f1(void) { f2_static(); }\n"
			       "int main(void) { f1(); return 0; }\n";
static const char lib_src[] = "static volatile int sink;\n"
			      "__attribute__((noinline)) static void l_static(void) { sink++; }\n"
			      "void l_pub(void) { l_static(); }\n";

static bool build(const char *name, const char *src, const char *flags)
{
	char c[4200], out[4200];
	FILE *f;

	if (!have_tmpdir)
		return false;
	tpath(c, sizeof(c), name);
	strcat(c, ".c");
	tpath(out, sizeof(out), name);
	f = fopen(c, "w");
	assert_non_null(f);
	fputs(src, f);
	fclose(f);
	return run("cc %s -o '%s' '%s' 2>/dev/null", flags, out, c) == 0;
}

static int setup(void **state)
{
	(void)state;
	have_tmpdir = mkdtemp(tmpdir) != NULL;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (have_tmpdir)
		(void)run("rm -rf '%s'", tmpdir);
	return 0;
}

/* a stripped copy of a program with every rule's candidate in place; each removed in turn */
static void test_debuginfo__order_of_the_rules(void **state)
{
	struct sampo_build_id bid;
	enum sampo_debuginfo_rule rule;
	char path[4200], root[4200], cache[4200], name[4200], hex[SAMPO_BUILD_ID_HEX_SIZE];
	char *found = NULL;

	(void)state;
	if (!build("ord", prog_src, "-O2 -g"))
		skip();
	tpath(path, sizeof(path), "ord");
	assert_int_equal(sampo_build_id__from_elf(path, &bid), 0);
	assert_int_equal(sampo_build_id__to_hex(&bid, hex, sizeof(hex)), 40);
	tpath(root, sizeof(root), "root");
	tpath(cache, sizeof(cache), "cache");
	/*
	 * The file read is a copy in copy/; the recorded name is rec/ord, whose
	 * directory holds the debuglink targets.
	 */
	assert_int_equal(
		run("cd '%s' && objcopy --only-keep-debug ord ord.debug && mkdir -p copy rec/.debug"
		    " root/.build-id/%.2s root'%s'/rec cache/x/%s cache/.build-id/%.2s"
		    " && strip -s -o copy/ord ord && objcopy --add-gnu-debuglink=ord.debug copy/ord"
		    " && cp ord.debug rec/ && cp ord.debug rec/.debug/ && cp ord.debug root'%s'/rec/"
		    " && cp ord.debug root/.build-id/%.2s/%s.debug && cp ord.debug cache/x/%s/debug"
		    " && ln -s ../../x/%s cache/.build-id/%.2s/%s",
		    tmpdir, hex, tmpdir, hex, hex, tmpdir, hex, hex + 2, hex, hex, hex, hex + 2),
		0);
	tpath(name, sizeof(name), "rec/ord");
	tpath(path, sizeof(path), "copy/ord");
	SAMPO_OPTS(sampo_debuginfo_opts, o, .name = name, .debug_root = root, .buildid_dir = cache);

	static const struct {
		enum sampo_debuginfo_rule rule;
		const char *tail, *remove;
	} steps[] = {
		{ SAMPO_DEBUGINFO_BUILDID_CACHE, "/debug", "cache/x" },
		{ SAMPO_DEBUGINFO_BUILDID_PATH, ".debug", "root/.build-id" },
		{ SAMPO_DEBUGINFO_LINK_DIR, "/rec/ord.debug", "rec/ord.debug" },
		{ SAMPO_DEBUGINFO_LINK_DOT_DEBUG, "/rec/.debug/ord.debug", "rec/.debug" },
		{ SAMPO_DEBUGINFO_LINK_ROOT, "/rec/ord.debug", "root" },
	};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		assert_int_equal(sampo_debuginfo__find(path, &o, &found, &rule), 0);
		assert_int_equal(rule, steps[i].rule);
		assert_non_null(strstr(found, steps[i].tail));
		if (rule == SAMPO_DEBUGINFO_LINK_ROOT)
			assert_non_null(strstr(found, "/root/"));
		free(found);
		found = NULL;
		assert_int_equal(run("rm -rf '%s/%s'", tmpdir, steps[i].remove), 0);
	}
	assert_int_equal(sampo_debuginfo__find(path, &o, &found, &rule), -ENOENT);
	/* without .name, the copy's own directory: nothing there */
	SAMPO_OPTS(sampo_debuginfo_opts, o2, .debug_root = root);
	assert_int_equal(run("cp '%s/ord.debug' '%s/rec/'", tmpdir, tmpdir), 0);
	assert_int_equal(sampo_debuginfo__find(path, &o2, &found, NULL), -ENOENT);
	assert_int_equal(sampo_debuginfo__find(path, &o, &found, NULL), 0);
	free(found);
	found = NULL;
	/* with --symfs, the recorded directory under it comes first */
	char symfs[4200];

	tpath(symfs, sizeof(symfs), "sym");
	assert_int_equal(run("mkdir -p '%s%s/rec/.debug' && cp '%s/ord.debug' '%s%s/rec/.debug/'",
			     symfs, tmpdir, tmpdir, symfs, tmpdir),
			 0);
	SAMPO_OPTS(sampo_debuginfo_opts, o3, .name = name, .debug_root = root, .symfs = symfs);
	assert_int_equal(sampo_debuginfo__find(path, &o3, &found, &rule), 0);
	assert_int_equal(rule, SAMPO_DEBUGINFO_LINK_DOT_DEBUG);
	assert_non_null(strstr(found, "/sym/"));
	free(found);
}

/* a debug file of another build, at the build-id path and in the cache: refused, and said */
static void test_debuginfo__other_build_refused(void **state)
{
	struct sampo_build_id bid, obid;
	struct sampo_symtab *st = NULL;
	char path[4200], root[4200], hex[SAMPO_BUILD_ID_HEX_SIZE], ohex[SAMPO_BUILD_ID_HEX_SIZE];
	char why[4400], warn[4400], *found = NULL;

	(void)state;
	if (!build("mm", prog_src, "-O2 -g") ||
	    !build("mmother",
		   "static volatile int sink;\n"
		   "__attribute__((noinline)) static void f2_static(void) { sink += 2; }\n"
		   "void f1(void) { f2_static(); }\n"
		   "int main(void) { f1(); return 0; }\n",
		   "-O2 -g"))
		skip();
	tpath(path, sizeof(path), "mm");
	assert_int_equal(sampo_build_id__from_elf(path, &bid), 0);
	(void)sampo_build_id__to_hex(&bid, hex, sizeof(hex));
	tpath(path, sizeof(path), "mmother");
	assert_int_equal(sampo_build_id__from_elf(path, &obid), 0);
	(void)sampo_build_id__to_hex(&obid, ohex, sizeof(ohex));
	tpath(root, sizeof(root), "mmroot");
	assert_int_equal(run("cd '%s' && mkdir -p mmroot/.build-id/%.2s && objcopy --only-keep-debug"
			     " mmother mmroot/.build-id/%.2s/%s.debug && strip -s -o mm.s mm",
			     tmpdir, hex, hex, hex + 2),
			 0);
	tpath(path, sizeof(path), "mm.s");
	SAMPO_OPTS(sampo_debuginfo_opts, o, .debug_root = root, .errbuf = why,
		   .errbuf_sz = sizeof(why));
	assert_int_equal(sampo_debuginfo__find(path, &o, &found, NULL), -ENOENT);
	assert_non_null(strstr(why, ohex));
	assert_non_null(strstr(why, hex));
	assert_non_null(strstr(why, "not used"));

	/* the loader: no symbol of the other build, one warning */
	SAMPO_OPTS(sampo_symtab_elf_opts, eo, .debug_root = root, .warnbuf = warn,
		   .warnbuf_sz = sizeof(warn));
	assert_int_equal(sampo_symtab__load_elf(path, &eo, &st), 0);
	assert_null(sampo_symtab__find_by_name(st, "f2_static"));
	assert_non_null(strstr(warn, ohex));
	sampo_symtab__delete(st);
}

/*
 * prelink's layout: the library moved to 0x10000000 after its debug file was
 * split off a link at base 0 (same build-id, as prelink keeps it)
 */
static void test_debuginfo__prelinked_symbols_moved_by_section(void **state)
{
	struct sampo_symtab *pre = NULL, *st = NULL;
	const struct sampo_symbol *want, *got;
	char path[4200];

	(void)state;
	if (!build("base0.so", lib_src,
		   "-O2 -g -fPIC -shared -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567") ||
	    !build("pre.so", lib_src,
		   "-O2 -g -fPIC -shared -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567"
		   " -Wl,-Ttext-segment=0x10000000"))
		skip();
	assert_int_equal(run("cd '%s' && objcopy --only-keep-debug base0.so base0.debug && strip -s"
			     " -o pre.s.so pre.so && objcopy --add-gnu-debuglink=base0.debug pre.s.so",
			     tmpdir),
			 0);
	tpath(path, sizeof(path), "pre.so");
	assert_int_equal(sampo_symtab__load_elf(path, NULL, &pre), 0);
	want = sampo_symtab__find_by_name(pre, "l_static");
	assert_non_null(want);
	assert_true(sampo_symbol__start(want) >= 0x10000000);
	tpath(path, sizeof(path), "pre.s.so");
	SAMPO_OPTS(sampo_symtab_elf_opts, eo, .debug_root = tmpdir);
	assert_int_equal(sampo_symtab__load_elf(path, &eo, &st), 0);
	got = sampo_symtab__find_by_name(st, "l_static");
	assert_non_null(got);
	assert_int_equal(sampo_symbol__start(got), sampo_symbol__start(want));
	assert_int_equal(sampo_symbol__end(got), sampo_symbol__end(want));
	got = sampo_symtab__find(st, sampo_symbol__start(want) + 1);
	assert_non_null(got);
	assert_string_equal(sampo_symbol__name(got), "l_static");
	sampo_symtab__delete(st);
	sampo_symtab__delete(pre);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debuginfo__order_of_the_rules),
		cmocka_unit_test(test_debuginfo__other_build_refused),
		cmocka_unit_test(test_debuginfo__prelinked_symbols_moved_by_section),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
