// SPDX-License-Identifier: GPL-2.0
/*
 * test-modsections.c - module section maps (lib/modsections.c) and module
 * files (lib/kmodule.c): collecting from a sysfs tree made by the test,
 * encoding and decoding (both byte orders, every truncation, bad counts),
 * the file perf 6.1 must still read, the module loader's layout checked
 * against a gcc -c object, and .ko, .ko.gz, .ko.xz, .ko.zst reading.
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <setjmp.h>
#include <stdarg.h>
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
#include <sampo/modsections.h>
#include <sampo/reader.h>
#include <sampo/symbol.h>
#include <sampo/writer.h>

static char root[256];

static int run(const char *cmd)
{
	int ret = system(cmd);

	return ret == -1 ? -1 : WEXITSTATUS(ret);
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/sampo-test-modsec-XXXXXX");
	sampo_set_print(NULL);
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return run(cmd) == 0 ? 0 : -1;
}

static uint64_t sec_addr(const struct sampo_section_addr *secs, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(secs[i].name, name))
			return secs[i].addr;
	}
	fail_msg("no section '%s'", name);
	return 0;
}

/* a sysfs tree: two modules, one hidden (zero addresses), one without notes */
static void make_sysfs(const char *sys)
{
	static const uint8_t note[] = {
		4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
	};
	char p[600];
	FILE *fp;

	snprintf(p, sizeof(p),
		 "mkdir -p '%s/module/nf_tables/sections' '%s/module/nf_tables/notes' "
		 "'%s/module/hidden/sections' '%s/module/builtin_only' '%s/module/nonote/sections'",
		 sys, sys, sys, sys, sys);
	assert_int_equal(run(p), 0);
	snprintf(p, sizeof(p), "%s/module/nf_tables/sections/.text", sys);
	write_file(p, "0xffffffffc0a00000\n");
	snprintf(p, sizeof(p), "%s/module/nf_tables/sections/.init.text", sys);
	write_file(p, "0xffffffffc0b80000\n");
	snprintf(p, sizeof(p), "%s/module/nf_tables/sections/.text.unlikely", sys);
	write_file(p, "0xffffffffc0a3c000\n");
	snprintf(p, sizeof(p), "%s/module/nf_tables/notes/.note.gnu.build-id", sys);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fwrite(note, 1, sizeof(note), fp);
	fclose(fp);
	snprintf(p, sizeof(p), "%s/module/hidden/sections/.text", sys);
	write_file(p, "0x0000000000000000\n");
	snprintf(p, sizeof(p), "%s/module/nonote/sections/.text", sys);
	write_file(p, "0xffffffffc0001000\n");
}

static void test_modsections__collect_from_sysfs(void **state)
{
	struct sampo_module_sections *ms;
	const struct sampo_section_addr *secs;
	struct sampo_build_id bid, other;
	char sys[300];
	size_t nr;

	(void)state;
	snprintf(sys, sizeof(sys), "%s/sys", root);
	make_sysfs(sys);
	assert_int_equal(sampo_module_sections__collect(sys, &ms), 0);
	assert_int_equal(sampo_module_sections__nr(ms), 2); /* hidden and builtin_only left out */
	assert_string_equal(sampo_module_sections__name(ms, 0), "nf_tables");
	assert_string_equal(sampo_module_sections__name(ms, 1), "nonote");

	assert_int_equal(sampo_build_id__from_hex("0102030405060708090a0b0c0d0e0f1011121314", &bid),
			 0);
	secs = sampo_module_sections__find(ms, &bid, "nf_tables", &nr);
	assert_non_null(secs);
	assert_int_equal(nr, 3);
	assert_int_equal(sec_addr(secs, nr, ".text"), 0xffffffffc0a00000ULL);
	assert_int_equal(sec_addr(secs, nr, ".text.unlikely"), 0xffffffffc0a3c000ULL);
	assert_int_equal(sec_addr(secs, nr, ".init.text"), 0xffffffffc0b80000ULL);
	/* by name, '-' and '_' alike, when the caller has no build-id */
	assert_non_null(sampo_module_sections__find(ms, NULL, "nf-tables", &nr));
	/* ... and in the other forms of <sampo/kmodule.h>'s rule: a map name, a .ko path */
	assert_non_null(sampo_module_sections__find(ms, NULL, "[nf-tables]", &nr));
	assert_non_null(sampo_module_sections__find(
		ms, NULL, "/lib/modules/6.1.0/kernel/net/nf-tables.ko.xz", &nr));
	assert_null(sampo_module_sections__find(ms, NULL, "nf_table", &nr));
	assert_null(sampo_module_sections__find(ms, NULL, "nf_tables_x", &nr));
	/* another build-id: not this module's sections */
	other = bid;
	other.data[0] ^= 1;
	assert_null(sampo_module_sections__find(ms, &other, "nf_tables", &nr));
	/* a module without build-id is found by name */
	assert_non_null(sampo_module_sections__find(ms, &other, "nonote", &nr));
	assert_int_equal(sampo_module_sections__collect_one(ms, sys, "hidden"), -ENOENT);
	assert_int_equal(sampo_module_sections__collect_one(ms, sys, "../x"), -EINVAL);
	sampo_module_sections__delete(ms);
}

static struct sampo_module_sections *sample_set(void)
{
	static const struct sampo_section_addr a[] = {
		{ ".text", 0xffffffffc0400000ULL },
		{ ".exit.text", 0xffffffffc0403000ULL },
		{ ".init.text", 0xffffffffc0900000ULL },
	};
	static const struct sampo_section_addr b[] = { { ".text", 0xffffffffc0500000ULL } };
	struct sampo_module_sections *ms = sampo_module_sections__new();
	struct sampo_build_id bid;

	assert_non_null(ms);
	assert_int_equal(sampo_build_id__from_hex("abcdef0123", &bid), 0);
	assert_int_equal(sampo_module_sections__add(ms, "zstd", &bid, a, 3), 0);
	assert_int_equal(sampo_module_sections__add(ms, "crc32c-intel", NULL, b, 1), 0);
	return ms;
}

static void test_modsections__encode_parse_roundtrip(void **state)
{
	for (int swap = 0; swap < 2; swap++) {
		struct sampo_module_sections *ms = sample_set(), *back;
		const struct sampo_section_addr *secs;
		struct sampo_build_id bid;
		size_t len, nr;
		void *buf;

		(void)state;
		assert_int_equal(sampo_module_sections__encode(ms, swap, &buf, &len), 0);
		assert_int_equal(sampo_module_sections__parse(buf, len, swap, &back), 0);
		assert_int_equal(sampo_module_sections__nr(back), 2);
		assert_int_equal(sampo_build_id__from_hex("abcdef0123", &bid), 0);
		secs = sampo_module_sections__find(back, &bid, "zstd", &nr);
		assert_non_null(secs);
		assert_int_equal(nr, 3);
		assert_int_equal(sec_addr(secs, nr, ".init.text"), 0xffffffffc0900000ULL);
		secs = sampo_module_sections__find(back, NULL, "crc32c_intel", &nr);
		assert_non_null(secs);
		assert_int_equal(secs[0].addr, 0xffffffffc0500000ULL);

		/* every truncation fails cleanly; so does a wrong version */
		for (size_t cut = 0; cut < len; cut++) {
			struct sampo_module_sections *t = NULL;
			int err = sampo_module_sections__parse(buf, cut, swap, &t);

			assert_int_equal(err, -SAMPO_ERR_MALFORMED);
		}
		((uint8_t *)buf)[swap ? 3 : 0] = 2;
		{
			struct sampo_module_sections *t = NULL;

			assert_int_equal(sampo_module_sections__parse(buf, len, swap, &t),
					 -SAMPO_ERR_UNSUPPORTED);
		}
		free(buf);
		sampo_module_sections__delete(back);
		sampo_module_sections__delete(ms);
	}
}

static void test_modsections__rejects_bad_counts(void **state)
{
	/* nr_modules huge; a string without NUL; nr_sections huge */
	uint8_t huge[8] = { 1, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f };
	struct sampo_module_sections *ms = sample_set(), *back = NULL;
	size_t len;
	uint8_t *buf;

	(void)state;
	assert_int_equal(sampo_module_sections__parse(huge, sizeof(huge), false, &back),
			 -SAMPO_ERR_MALFORMED);
	assert_int_equal(sampo_module_sections__encode(ms, false, (void **)&buf, &len), 0);
	/* name of module 0 starts at 8 + 24: its length field, then 64 bytes; fill them */
	memset(buf + 8 + 24 + 4, 'x', 64);
	assert_int_equal(sampo_module_sections__parse(buf, len, false, &back), -SAMPO_ERR_MALFORMED);
	free(buf);
	assert_int_equal(sampo_module_sections__encode(ms, false, (void **)&buf, &len), 0);
	memset(buf + 8 + 24 + 68, 0xff, 4); /* nr_sections */
	assert_int_equal(sampo_module_sections__parse(buf, len, false, &back), -SAMPO_ERR_MALFORMED);
	free(buf);
	/* a module name that is a path or becomes none ("zs/" and "..ko"; fuzz-modsections) */
	static const char *const bad_names[] = { "zs/", "a/b", "..", "/", "..ko", "[]", "..ko.kot" };
	for (size_t i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++) {
		assert_int_equal(sampo_module_sections__encode(ms, false, (void **)&buf, &len), 0);
		memset(buf + 8 + 24 + 4, 0, 64);
		memcpy(buf + 8 + 24 + 4, bad_names[i], strlen(bad_names[i]));
		assert_int_equal(sampo_module_sections__parse(buf, len, false, &back),
				 -SAMPO_ERR_MALFORMED);
		free(buf);
	}
	sampo_module_sections__delete(ms);
}

/* A file with section maps: sampo reads them back; perf 6.1 reads the file without an error. */
static void test_modsections__perf_reads_the_file(void **state)
{
	SAMPO_OPTS(sampo_writer_opts, wo);
	struct sampo_event_attr attr = { 0 };
	struct sampo_module_sections *ms = sample_set(), *back;
	struct sampo_writer *w;
	struct sampo_reader *r;
	struct sampo_writer_map km = {
		.misc = SAMPO_CPUMODE_KERNEL, .pid = (uint32_t)-1, .start = 0xffffffff81000000ULL,
		.len = 0x1000000, .pgoff = 0xffffffff81000000ULL, .filename = "[kernel.kallsyms]_text",
	};
	const char *perf = getenv("PERF");
	char path[300], cmd[1200], out[300];
	uint64_t id = 1;
	size_t nr;

	(void)state;
	snprintf(path, sizeof(path), "%s/ms.data", root);
	attr.type = 1; /* software */
	attr.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_PERIOD;
	attr.sample_period = 1;
	assert_int_equal(sampo_writer__open(path, &wo, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &attr, &id, 1), 0);
	assert_int_equal(sampo_writer__write_mmap(w, &km, NULL), 0);
	assert_int_equal(sampo_writer__set_feature_string(w, SAMPO_FEAT_OSRELEASE, "6.1.0-test"), 0);
	assert_int_equal(sampo_module_sections__write(ms, w), 0);
	assert_int_equal(sampo_writer__close(w), 0);

	assert_int_equal(sampo_reader__open(path, NULL, &r), 0);
	assert_int_equal(sampo_module_sections__read(r, &back), 0);
	assert_non_null(sampo_module_sections__find(back, NULL, "crc32c_intel", &nr));
	sampo_module_sections__delete(back);
	sampo_reader__close(r);
	sampo_module_sections__delete(ms);

	if (!perf || !*perf)
		return;
	snprintf(out, sizeof(out), "%s/perf.err", root);
	snprintf(cmd, sizeof(cmd), "'%s' report -D -i '%s' >/dev/null 2>'%s'", perf, path, out);
	assert_int_equal(run(cmd), 0);
	snprintf(cmd, sizeof(cmd), "! grep -iE 'error|fail|invalid|corrupt' '%s'", out);
	assert_int_equal(run(cmd), 0);
	snprintf(cmd, sizeof(cmd), "'%s' report --stdio --header-only -i '%s' >/dev/null 2>'%s'",
		 perf, path, out);
	assert_int_equal(run(cmd), 0);
	snprintf(cmd, sizeof(cmd), "! grep -iE 'error|fail|invalid|corrupt' '%s'", out);
	assert_int_equal(run(cmd), 0);
}

/* ---- modules: layout and compression ------------------------------------------------------ */

static const char module_src[] =
	"int mod_core_a(int x) { return x * 3 + 1; }\n"
	"int mod_core_b(int x) { int s = 0; for (int i = 0; i < x; i++) s ^= i * x; return s; }\n"
	"__attribute__((section(\".text.unlikely\"))) int mod_cold(int x) { return x - 11; }\n"
	"__attribute__((section(\".init.text\"))) int mod_init(void) { return mod_core_a(2); }\n"
	"__attribute__((section(\".exit.text\"))) int mod_exit(int x) { return x * 5; }\n"
	"__attribute__((section(\".static_call.text\"))) int mod_tramp(int x) { return x + 9; }\n";

static bool build_module(const char *dir, char *obj, size_t len)
{
	char src[400], cmd[1200];

	snprintf(src, sizeof(src), "%s/mod.c", dir);
	write_file(src, module_src);
	snprintf(obj, len, "%s/mod.o", dir);
	snprintf(cmd, sizeof(cmd), "cc -O2 -c -fno-asynchronous-unwind-tables -o '%s' '%s'", obj,
		 src);
	return run(cmd) == 0;
}

/*
 * The rule written down from the kernel's layout_sections(), independently
 * of lib/kmodule.c: offset of @want among the executable, allocated, non-init
 * sections in header order, each aligned to its sh_addralign.
 */
static uint64_t expected_offset(const char *obj, const char *want)
{
	uint64_t size = 0, found = (uint64_t)-1;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
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
	return found;
}

static void test_kmodule__layout_matches_loader_rule(void **state)
{
	static const char *const exec[] = { ".text", ".text.unlikely", ".exit.text",
					     ".static_call.text" };
	const uint64_t base = 0xffffffffc0a17000ULL;
	struct sampo_section_addr *secs;
	struct sampo_symtab *st;
	char dir[300], obj[400];
	size_t nr, len;
	void *image;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/layout", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	if (!build_module(dir, obj, sizeof(obj)))
		skip();
	assert_int_equal(sampo_module__read_file(obj, &image, &len), 0);
	assert_int_equal(sampo_module__layout(image, len, base, &secs, &nr), 0);
	assert_int_equal(nr, 4); /* .init.text is not in the core */
	assert_int_equal(sec_addr(secs, nr, ".text"), base);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(sec_addr(secs, nr, exec[i]), base + expected_offset(obj, exec[i]));

	/* symbols placed by it */
	SAMPO_OPTS(sampo_symtab_elf_opts, eo, .sections = secs, .nr_sections = nr);
	assert_int_equal(sampo_symtab__load_elf(obj, &eo, &st), 0);
	assert_string_equal(
		sampo_symbol__name(sampo_symtab__find(st, sec_addr(secs, nr, ".text.unlikely") + 1)),
		"mod_cold");
	assert_string_equal(
		sampo_symbol__name(sampo_symtab__find(st, sec_addr(secs, nr, ".exit.text") + 1)),
		"mod_exit");
	assert_null(sampo_symtab__find_by_name(st, "mod_init"));
	sampo_symtab__delete(st);
	sampo_section_addrs__free(secs, nr);

	/* not a relocatable object */
	assert_int_equal(sampo_module__layout("garbage", 7, base, &secs, &nr), -SAMPO_ERR_MALFORMED);

	/* regression (fuzz-modsections): an absurd sh_size must not wrap the layout around */
	{
		uint8_t *bad = malloc(len);
		uint64_t shoff;
		uint16_t shentsize, shnum;

		assert_non_null(bad);
		memcpy(bad, image, len);
		memcpy(&shoff, bad + 0x28, 8);
		memcpy(&shentsize, bad + 0x3a, 2);
		memcpy(&shnum, bad + 0x3c, 2);
		for (uint16_t i = 0; i < shnum; i++) {
			uint8_t *sh = bad + shoff + (uint64_t)i * shentsize;
			uint64_t flags, huge = 1ULL << 62;

			memcpy(&flags, sh + 0x08, 8);
			if ((flags & 6) == 6) /* SHF_ALLOC | SHF_EXECINSTR */
				memcpy(sh + 0x20, &huge, 8);
		}
		assert_int_equal(sampo_module__layout(bad, len, base, &secs, &nr),
				 -SAMPO_ERR_MALFORMED);
		free(bad);
	}
	free(image);
}

static void test_kmodule__reads_compressed_modules(void **state)
{
	static const char *const tools[][2] = {
		{ "gz", "gzip -kf" }, { "xz", "xz -kf" }, { "zst", "zstd -qf" }
	};
	char dir[300], obj[400], cmd[1200], path[500];
	size_t len, clen;
	void *image, *c;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/compress", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	if (!build_module(dir, obj, sizeof(obj)))
		skip();
	assert_int_equal(sampo_module__read_file(obj, &image, &len), 0);
	for (size_t i = 0; i < 3; i++) {
		snprintf(cmd, sizeof(cmd), "%s '%s' 2>/dev/null", tools[i][1], obj);
		if (run(cmd))
			continue;
		snprintf(path, sizeof(path), "%s.%s", obj, tools[i][0]);
		assert_int_equal(sampo_module__read_file(path, &c, &clen), 0);
		assert_int_equal(clen, len);
		assert_memory_equal(c, image, len);
		free(c);

		/* cut in half: an error, not a short image */
		{
			struct stat st;

			assert_int_equal(stat(path, &st), 0);
			assert_int_equal(truncate(path, st.st_size / 2), 0);
		}
		assert_int_equal(sampo_module__read_file(path, &c, &clen), -SAMPO_ERR_DECOMPRESS);
	}
	free(image);
	assert_int_equal(sampo_module__read_file("/nonexistent/x.ko", &c, &clen), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modsections__collect_from_sysfs),
		cmocka_unit_test(test_modsections__encode_parse_roundtrip),
		cmocka_unit_test(test_modsections__rejects_bad_counts),
		cmocka_unit_test(test_modsections__perf_reads_the_file),
		cmocka_unit_test(test_kmodule__layout_matches_loader_rule),
		cmocka_unit_test(test_kmodule__reads_compressed_modules),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
