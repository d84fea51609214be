// SPDX-License-Identifier: GPL-2.0
/*
 * test-kmodule.c - kernel module files (lib/kmodule.c), on inputs the test
 * builds itself (no compiler, no compression tools, no shared fixtures): a
 * hand-made relocatable ELF whose loader layout is known, that image
 * compressed by zlib, liblzma and libzstd in memory, cut at every length,
 * and a /lib/modules tree to walk.
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <sampo/common.h>
#include <sampo/modsections.h>
#include <sampo/symbol.h>
#include "internal/kmodule.h"

#include "fixture.h"

/* ---- a relocatable object by hand --------------------------------------------------------- */

struct sec {
	const char *name;
	uint32_t type;
	uint64_t flags, size, align;
};

/* In header order. The loader takes the AX sections that are not .init*, each aligned. */
static const struct sec secs[] = {
	{ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x30, 16 },	  /* core at 0 */
	{ ".init.text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x20, 16 }, /* init region */
	{ ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0x10, 8 },	  /* not executable */
	{ ".text.unlikely", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x8, 64 }, /* 0x40 */
	{ ".exit.text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x4, 4 },	 /* 0x48 */
	{ ".comment", SHT_PROGBITS, 0, 0x10, 1 },
	{ ".static_call.text", SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, 0x10, 0 },   /* 0x4c */
};
#define NR_SECS (sizeof(secs) / sizeof(secs[0]))

/* An ET_REL image: header, section contents, .shstrtab, then the section headers. */
static uint8_t *make_module(size_t *ret_len, uint16_t e_type, uint64_t bad_align_of_text)
{
	size_t nsh = NR_SECS + 2, off = sizeof(Elf64_Ehdr), strtab_len = 1;
	char strtab[512] = "";
	Elf64_Shdr sh[NR_SECS + 2];
	uint8_t *img = calloc(1, 65536);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;

	assert_non_null(img);
	memset(sh, 0, sizeof(sh));
	for (size_t i = 0; i < NR_SECS; i++) {
		Elf64_Shdr *s = &sh[i + 1];

		s->sh_name = (uint32_t)strtab_len;
		strcpy(strtab + strtab_len, secs[i].name);
		strtab_len += strlen(secs[i].name) + 1;
		s->sh_type = secs[i].type;
		s->sh_flags = secs[i].flags;
		s->sh_size = secs[i].size;
		s->sh_addralign = i == 0 && bad_align_of_text ? bad_align_of_text : secs[i].align;
		s->sh_offset = off;
		if (secs[i].type != SHT_NOBITS) {
			memset(img + off, 0xc3, secs[i].size); /* ret */
			off += secs[i].size;
		}
	}
	sh[nsh - 1].sh_name = (uint32_t)strtab_len;
	strcpy(strtab + strtab_len, ".shstrtab");
	strtab_len += strlen(".shstrtab") + 1;
	sh[nsh - 1].sh_type = SHT_STRTAB;
	sh[nsh - 1].sh_offset = off;
	sh[nsh - 1].sh_size = strtab_len;
	sh[nsh - 1].sh_addralign = 1;
	memcpy(img + off, strtab, strtab_len);
	off += strtab_len;
	off = (off + 7) & ~(size_t)7;

	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = e_type;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_shoff = off;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = (uint16_t)nsh;
	eh->e_shstrndx = (uint16_t)(nsh - 1);
	memcpy(img + off, sh, sizeof(sh));
	*ret_len = off + sizeof(sh);
	return img;
}

static uint64_t addr_of(const struct sampo_section_addr *a, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(a[i].name, name))
			return a[i].addr;
	}
	return UINT64_MAX;
}

static void test_kmodule__layout_as_the_loader(void **state)
{
	const uint64_t base = 0xffffffffc0a00000ULL;
	struct sampo_section_addr *a = NULL;
	size_t len, nr = 0;
	uint8_t *img = make_module(&len, ET_REL, 0);

	(void)state;
	assert_int_equal(sampo_module__layout(img, len, base, &a, &nr), 0);
	assert_int_equal(nr, 4);
	assert_int_equal(addr_of(a, nr, ".text"), base);
	assert_int_equal(addr_of(a, nr, ".text.unlikely"), base + 0x40);
	assert_int_equal(addr_of(a, nr, ".exit.text"), base + 0x48);
	assert_int_equal(addr_of(a, nr, ".static_call.text"), base + 0x4c);
	assert_int_equal(addr_of(a, nr, ".init.text"), UINT64_MAX);
	assert_int_equal(addr_of(a, nr, ".data"), UINT64_MAX);
	sampo_section_addrs__free(a, nr);
	free(img);
}

static void test_kmodule__layout_refuses_hostile_objects(void **state)
{
	struct sampo_section_addr *a = NULL;
	size_t len, nr = 0;
	uint8_t *img;

	(void)state;
	img = make_module(&len, ET_DYN, 0); /* not relocatable */
	assert_int_equal(sampo_module__layout(img, len, 0, &a, &nr), -SAMPO_ERR_MALFORMED);
	free(img);
	img = make_module(&len, ET_REL, 24); /* alignment not a power of two */
	assert_int_equal(sampo_module__layout(img, len, 0, &a, &nr), -SAMPO_ERR_MALFORMED);
	free(img);
	img = make_module(&len, ET_REL, 1ULL << 40); /* an alignment near 2^64 */
	assert_int_equal(sampo_module__layout(img, len, 0, &a, &nr), -SAMPO_ERR_MALFORMED);
	free(img);
	assert_int_equal(sampo_module__layout("garbage", 7, 0, &a, &nr), -SAMPO_ERR_MALFORMED);
	assert_null(a);
}

/* Cut at every length into an exact heap copy: an error or a layout, never a read past it. */
static void test_kmodule__layout_of_every_cut(void **state)
{
	size_t len, nr;
	uint8_t *img = make_module(&len, ET_REL, 0);

	(void)state;
	for (size_t cut = 0; cut < len; cut++) {
		uint8_t *c = malloc(cut ? cut : 1);
		struct sampo_section_addr *a = NULL;
		int err;

		assert_non_null(c);
		memcpy(c, img, cut);
		nr = 0;
		err = sampo_module__layout(c, cut, 0, &a, &nr);
		assert_true(err == 0 || err == -SAMPO_ERR_MALFORMED);
		if (!err)
			sampo_section_addrs__free(a, nr);
		free(c);
	}
	free(img);
}

/* ---- compressed files --------------------------------------------------------------------- */

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/sampo-test-kmodule-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_remove_tree(dir);
}

static void write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static uint8_t *gz(const uint8_t *in, size_t len, size_t *ret_len)
{
	z_stream zs = { 0 };
	size_t cap = compressBound((uLong)len) + 64;
	uint8_t *out = malloc(cap);

	assert_non_null(out);
	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
			 Z_OK);
	zs.next_in = (Bytef *)in;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	*ret_len = zs.total_out;
	deflateEnd(&zs);
	return out;
}

static uint8_t *xz(const uint8_t *in, size_t len, size_t *ret_len)
{
	size_t cap = lzma_stream_buffer_bound(len), pos = 0;
	uint8_t *out = malloc(cap);

	assert_non_null(out);
	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL, in, len, out, &pos, cap),
			 LZMA_OK);
	*ret_len = pos;
	return out;
}

static uint8_t *zst(const uint8_t *in, size_t len, size_t *ret_len)
{
	size_t cap = ZSTD_compressBound(len);
	uint8_t *out = malloc(cap);

	assert_non_null(out);
	*ret_len = ZSTD_compress(out, cap, in, len, 3);
	assert_false(ZSTD_isError(*ret_len));
	return out;
}

static void test_kmodule__read_file_whatever_its_compression(void **state)
{
	static const struct {
		const char *ext;
		uint8_t *(*compress)(const uint8_t *, size_t, size_t *);
	} kinds[] = { { "gz", gz }, { "xz", xz }, { "zst", zst } };
	size_t len, clen, got_len;
	uint8_t *img = make_module(&len, ET_REL, 0);
	char path[128];
	void *got;

	(void)state;
	snprintf(path, sizeof(path), "%s/plain.ko", dir);
	write_file(path, img, len);
	assert_int_equal(sampo_module__read_file(path, &got, &got_len), 0);
	assert_int_equal(got_len, len);
	assert_memory_equal(got, img, len);
	free(got);

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		uint8_t *c = kinds[k].compress(img, len, &clen);

		snprintf(path, sizeof(path), "%s/m.ko.%s", dir, kinds[k].ext);
		write_file(path, c, clen);
		assert_int_equal(sampo_module__read_file(path, &got, &got_len), 0);
		assert_int_equal(got_len, len);
		assert_memory_equal(got, img, len);
		free(got);

		/* cut short: does not decompress (whatever the cut, past the magic) */
		for (size_t cut = 8; cut < clen; cut += clen / 7 + 1) {
			write_file(path, c, cut);
			assert_int_equal(sampo_module__read_file(path, &got, &got_len),
					 -SAMPO_ERR_DECOMPRESS);
		}
		free(c);
	}
	snprintf(path, sizeof(path), "%s/none.ko", dir);
	assert_int_equal(sampo_module__read_file(path, &got, &got_len), -ENOENT);
	free(img);
}

/* ---- names and trees ---------------------------------------------------------------------- */

static void test_kmodule__module_name(void **state)
{
	static const char *const cases[][2] = {
		{ "/lib/modules/6.1.0/kernel/fs/ext4/ext4.ko", "ext4" },
		{ "/lib/modules/6.1.0/kernel/net/nf-tables.ko.xz", "nf_tables" },
		{ "[nf-conntrack]", "nf_conntrack" },
		{ "kvm_intel.ko.zst", "kvm_intel" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *name = sampo_module__name(cases[i][0]);

		assert_non_null(name);
		assert_string_equal(name, cases[i][1]);
		free(name);
	}
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct sampo_module_file *)a)->path,
		      ((const struct sampo_module_file *)b)->path);
}

static void test_kmodule__walk_a_modules_tree(void **state)
{
	struct sampo_module_file *files = NULL;
	char root[128], cmd[2048];
	size_t nr = 0;

	(void)state;
	snprintf(root, sizeof(root), "%s/lib/modules/6.1.0", dir);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/kernel/fs' '%s/updates' '%s/build/drivers' '%s/elsewhere' && "
		 "touch '%s/kernel/fs/ext4.ko' '%s/updates/nf-tables.ko.zst' '%s/kernel/README' "
		 "'%s/build/drivers/in_build.ko' '%s/elsewhere/linked.ko' && "
		 "ln -s '%s/elsewhere' '%s/kernel/link' && ln -s '%s/kernel/fs/ext4.ko' '%s/alias.ko'",
		 root, root, root, dir, root, root, root, root, dir, dir, root, root, root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(sampo_module_files__walk(root, &files, &nr), 0);
	assert_int_equal(nr, 2); /* no README, nothing under build/, no link followed */
	qsort(files, nr, sizeof(*files), cmp_file);
	assert_string_equal(files[0].name, "ext4");
	assert_non_null(strstr(files[0].path, "/kernel/fs/ext4.ko"));
	assert_string_equal(files[1].name, "nf_tables");
	sampo_module_files__free(files, nr);

	/* a missing tree: nothing, no error */
	snprintf(root, sizeof(root), "%s/lib/modules/none", dir);
	assert_int_equal(sampo_module_files__walk(root, &files, &nr), 0);
	assert_int_equal(nr, 0);
	sampo_module_files__free(files, nr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmodule__layout_as_the_loader),
		cmocka_unit_test(test_kmodule__layout_refuses_hostile_objects),
		cmocka_unit_test(test_kmodule__layout_of_every_cut),
		cmocka_unit_test(test_kmodule__read_file_whatever_its_compression),
		cmocka_unit_test(test_kmodule__module_name),
		cmocka_unit_test(test_kmodule__walk_a_modules_tree),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
