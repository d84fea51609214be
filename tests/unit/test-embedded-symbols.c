// SPDX-License-Identifier: GPL-2.0
/*
 * test-embedded-symbols.c - the embedded symbol tables (lib/embedded-symbols.c):
 * a set encoded and decoded again, field by field; the symbol table made
 * from a decoded table answers as the table it was taken from; every
 * truncation of a payload and every class of hostile body (bad magic,
 * another version, a lying body size, counts past the end, names outside
 * the strings, unsorted or empty or wrapping symbols, a second table for one
 * build-id, bytes after the last table) refused with -SAMPO_ERR_MALFORMED
 * (or _UNSUPPORTED, _DECOMPRESS) and a message; and the layout of
 * docs/format-embedded-symbols.md checked byte by byte on a body written
 * here from the document.
 */
#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zstd.h>

#include <sampo/embedded-symbols.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>
#include "internal/embedded-symbols.h"
#include "internal/symbol.h"

static const uint8_t bid_a[20] = { 0x45, 0x8d, 0x16, 0x19, 0xf8, 0x11, 0xd5, 0xb4, 0xa5, 0x8c,
				   0x01, 0x9a, 0x7a, 0x99, 0xda, 0x68, 0x76, 0xf8, 0x31, 0x8f };

static struct emb_table *add_table(struct sampo_embedded_symbols *es, int kind, uint8_t seed,
				   const char *name)
{
	struct emb_table *t = sampo_embedded_symbols__add_table(es);

	assert_non_null(t);
	t->kind = kind;
	t->bid.size = 20;
	memcpy(t->bid.data, bid_a, 20);
	t->bid.data[0] = seed;
	t->name = sampo_embedded_symbols__add_string(t, name);
	return t;
}

static void add_sym(struct emb_table *t, uint64_t start, uint64_t end, const char *name,
		    uint16_t aux)
{
	struct emb_symbol *s;

	t->syms = realloc(t->syms, (t->nr_syms + 1) * sizeof(*t->syms));
	assert_non_null(t->syms);
	s = &t->syms[t->nr_syms++];
	memset(s, 0, sizeof(*s));
	s->start = start;
	s->end = end;
	s->name = sampo_embedded_symbols__add_string(t, name);
	s->aux = aux;
	s->binding = SAMPO_SYMBOL_GLOBAL;
	s->type = SAMPO_SYMBOL_FUNC;
}

/* a user table with a segment and a nested symbol, a kallsyms kernel table with a module */
static struct sampo_embedded_symbols *sample_set(void)
{
	struct sampo_embedded_symbols *es = sampo_embedded_symbols__new();
	struct emb_table *t;

	assert_non_null(es);
	t = add_table(es, SAMPO_EMBEDDED_USER, 1, "/usr/bin/prog");
	t->flags = EMB_FLAG_VERIFIED;
	t->placement = SAMPO_PLACED_FILE;
	t->elf_type = 3; /* ET_DYN */
	t->segs = calloc(1, sizeof(*t->segs));
	t->segs[0] = (struct sampo_symtab_segment){ .offset = 0x1000, .vaddr = 0x1000,
						    .filesz = 0x2000, .flags = 5 };
	t->nr_segs = 1;
	add_sym(t, 0x1100, 0x1200, "main", 0);
	add_sym(t, 0x1200, 0x1400, "outer", 0);
	add_sym(t, 0x1220, 0x1240, "inner_label", 0);

	t = add_table(es, SAMPO_EMBEDDED_KERNEL, 2, "[kernel.kallsyms]");
	t->flags = EMB_FLAG_KALLSYMS | EMB_FLAG_VERIFIED | EMB_FLAG_HAS_REF;
	t->placement = SAMPO_PLACED_KALLSYMS;
	t->ref_addr = 0xffffffff81000000ULL;
	snprintf(t->refs[0].name, sizeof(t->refs[0].name), "_text");
	t->refs[0].addr = 0xffffffff81000000ULL;
	snprintf(t->refs[1].name, sizeof(t->refs[1].name), "_etext");
	t->refs[1].addr = 0xffffffff82000000ULL;
	t->nr_refs = 2;
	t->aux = calloc(1, sizeof(*t->aux));
	t->aux[0] = sampo_embedded_symbols__add_string(t, "ext4");
	t->nr_aux = 1;
	add_sym(t, 0xffffffff81100000ULL, 0xffffffff81100040ULL, "read_zero", 0);
	add_sym(t, 0xffffffffc0001000ULL, 0xffffffffc0001100ULL, "ext4_read", 1);
	return es;
}

static void test_embedded__roundtrip(void **state)
{
	struct sampo_embedded_symbols *es = sample_set(), *back = NULL;
	struct sampo_embedded_table_info info;
	struct sampo_symtab *st = NULL;
	const struct sampo_symbol *sym;
	char err[256];
	void *buf;
	size_t len;
	uint64_t v;

	(void)state;
	assert_int_equal(sampo_embedded_symbols__encode(es, &buf, &len), 0);
	assert_memory_equal(buf, "SAMPOSYM", 8);
	assert_int_equal(sampo_embedded_symbols__parse(buf, len, &back, err, sizeof(err)), 0);
	assert_int_equal(sampo_embedded_symbols__nr_tables(back), 2);
	assert_int_equal(sampo_embedded_symbols__nr_symbols(back), 5);
	assert_int_equal(sampo_embedded_symbols__table(back, 0, &info), 0);
	assert_int_equal(info.kind, SAMPO_EMBEDDED_USER);
	assert_string_equal(info.name, "/usr/bin/prog");
	assert_int_equal(info.nr_symbols, 3);
	assert_int_equal(sampo_embedded_symbols__table(back, 2, &info), -ENOENT);

	/* the user table: its segment turns a file offset into an address, lookups nest */
	assert_int_equal(sampo_embedded_symbols__symtab(&back->tables[0], &st), 0);
	assert_int_equal(sampo_symtab__offset_to_vaddr(st, 0x1230, &v), 0);
	assert_int_equal(v, 0x1230);
	sym = sampo_symtab__find(st, 0x1230);
	assert_string_equal(sampo_symbol__name(sym), "inner_label");
	sym = sampo_symtab__find(st, 0x1300);
	assert_string_equal(sampo_symbol__name(sym), "outer");
	assert_int_equal(sampo_symbol__end(sym), 0x1400);
	assert_null(sampo_symtab__find(st, 0x1400));
	assert_null(sampo_symtab__find(st, 0x10ff));
	sampo_symtab__delete(st);

	/* the kernel table: references, the module of a symbol */
	assert_int_equal(sampo_embedded_symbols__symtab(&back->tables[1], &st), 0);
	assert_int_equal(back->tables[1].flags,
			 EMB_FLAG_KALLSYMS | EMB_FLAG_VERIFIED | EMB_FLAG_HAS_REF);
	assert_int_equal(back->tables[1].ref_addr, 0xffffffff81000000ULL);
	assert_int_equal(sampo_symtab__kallsyms_ref(st, "_etext", &v), 0);
	assert_int_equal(v, 0xffffffff82000000ULL);
	sym = sampo_symtab__find(st, 0xffffffffc0001010ULL);
	assert_string_equal(sampo_symbol__name(sym), "ext4_read");
	assert_string_equal(sampo_symtab__symbol_module(st, sym), "ext4");
	sym = sampo_symtab__find(st, 0xffffffff81100000ULL);
	assert_null(sampo_symtab__symbol_module(st, sym));
	sampo_symtab__delete(st);

	/* found by kind and build-id only */
	assert_non_null(sampo_embedded_symbols__find(back, SAMPO_EMBEDDED_KERNEL,
						     &back->tables[1].bid));
	assert_null(sampo_embedded_symbols__find(back, SAMPO_EMBEDDED_USER, &back->tables[1].bid));
	sampo_embedded_symbols__delete(back);
	sampo_embedded_symbols__delete(es);
	free(buf);
}

/* Every cut of a payload, into a heap copy of exactly that size: refused, never read past. */
static void test_embedded__every_truncation_refused(void **state)
{
	struct sampo_embedded_symbols *es = sample_set(), *back;
	void *buf;
	size_t len;

	(void)state;
	assert_int_equal(sampo_embedded_symbols__encode(es, &buf, &len), 0);
	for (size_t cut = 0; cut < len; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);

		memcpy(copy, buf, cut);
		back = NULL;
		assert_int_not_equal(sampo_embedded_symbols__parse(copy, cut, &back, NULL, 0), 0);
		assert_null(back);
		free(copy);
	}
	sampo_embedded_symbols__delete(es);
	free(buf);
}

/* ---- a body written by hand from docs/format-embedded-symbols.md ---------------------------- */

struct body {
	uint8_t b[4096];
	size_t len;
};

static void b_u8(struct body *b, uint8_t v)
{
	b->b[b->len++] = v;
}

static void b_u16(struct body *b, uint16_t v)
{
	v = htole16(v);
	memcpy(b->b + b->len, &v, 2);
	b->len += 2;
}

static void b_u32(struct body *b, uint32_t v)
{
	v = htole32(v);
	memcpy(b->b + b->len, &v, 4);
	b->len += 4;
}

static void b_u64(struct body *b, uint64_t v)
{
	v = htole64(v);
	memcpy(b->b + b->len, &v, 8);
	b->len += 8;
}

static void b_bytes(struct body *b, const void *p, size_t n)
{
	memcpy(b->b + b->len, p, n);
	b->len += n;
}

/*
 * One user table, as the document lays it out: "prog\0" at 0, "f\0" at 5,
 * "g\0" at 7; symbols f [0x1000, 0x1010), g [0x1010, 0x1030).
 */
static void doc_body(struct body *b, uint32_t nr_tables)
{
	static const char strings[] = "prog\0f\0g";

	b->len = 0;
	b_u32(b, nr_tables);
	b_u32(b, 0);
	for (uint32_t i = 0; i < nr_tables; i++) {
		b_u8(b, SAMPO_EMBEDDED_USER); /* kind */
		b_u8(b, 20);		      /* build-id size */
		b_u16(b, 1u << 2);	      /* flags: verified */
		b_u32(b, 1);		      /* placement: file */
		b_bytes(b, bid_a, 20);
		b_u32(b, 2); /* ET_EXEC */
		b_u64(b, 0); /* ref_addr */
		b_u32(b, 0); /* name: "prog" */
		b_u32(b, 0); /* segments */
		b_u32(b, 0); /* refs */
		b_u32(b, 0); /* aux */
		b_u32(b, 2); /* symbols */
		b_u32(b, sizeof(strings));
		b_u64(b, 0x1000);
		b_u64(b, 0x10);
		b_u32(b, 5);
		b_u16(b, 0);
		b_u8(b, 1);
		b_u8(b, 2);
		b_u64(b, 0x1010);
		b_u64(b, 0x20);
		b_u32(b, 7);
		b_u16(b, 0);
		b_u8(b, 1);
		b_u8(b, 2);
		b_bytes(b, strings, sizeof(strings));
	}
}

/* the 40-byte header and the zstd frame around @b; body_size as given */
static size_t wrap(const struct body *b, uint32_t version, uint64_t body_size, uint8_t *out,
		   size_t cap)
{
	size_t c = ZSTD_compress(out + 40, cap - 40, b->b, b->len, 3);
	uint32_t v32;
	uint64_t v64;

	assert_false(ZSTD_isError(c));
	memcpy(out, "SAMPOSYM", 8);
	v32 = htole32(version);
	memcpy(out + 8, &v32, 4);
	v32 = htole32(1);
	memcpy(out + 12, &v32, 4);
	v64 = htole64(body_size);
	memcpy(out + 16, &v64, 8);
	v64 = htole64(c);
	memcpy(out + 24, &v64, 8);
	memset(out + 32, 0, 8);
	return 40 + c;
}

static int parse_body(const struct body *b, char *err, size_t errsz)
{
	uint8_t out[8192];
	size_t len = wrap(b, 1, b->len, out, sizeof(out));
	struct sampo_embedded_symbols *es = NULL;
	int ret = sampo_embedded_symbols__parse(out, len, &es, err, errsz);

	sampo_embedded_symbols__delete(es);
	return ret;
}

static void test_embedded__document_layout(void **state)
{
	struct sampo_embedded_symbols *es = NULL;
	struct sampo_symtab *st;
	struct body b;
	uint8_t out[8192];
	char err[256];
	size_t len;

	(void)state;
	doc_body(&b, 1);
	len = wrap(&b, 1, b.len, out, sizeof(out));
	assert_int_equal(sampo_embedded_symbols__parse(out, len, &es, err, sizeof(err)), 0);
	assert_int_equal(es->nr, 1);
	assert_string_equal(es->tables[0].strings + es->tables[0].name, "prog");
	assert_int_equal(es->tables[0].elf_type, 2);
	assert_int_equal(sampo_embedded_symbols__symtab(&es->tables[0], &st), 0);
	assert_string_equal(sampo_symbol__name(sampo_symtab__find(st, 0x100f)), "f");
	assert_string_equal(sampo_symbol__name(sampo_symtab__find(st, 0x1010)), "g");
	assert_null(sampo_symtab__find(st, 0x1030));
	sampo_symtab__delete(st);
	sampo_embedded_symbols__delete(es);
}

/* @off into the first table (64-byte header after the 8-byte body header) */
#define T0 8
#define SYM0 (T0 + 64)
#define SYM1 (SYM0 + 24)
#define STR (SYM1 + 24)

static void poke_u32(struct body *b, size_t off, uint32_t v)
{
	v = htole32(v);
	memcpy(b->b + off, &v, 4);
}

static void poke_u64(struct body *b, size_t off, uint64_t v)
{
	v = htole64(v);
	memcpy(b->b + off, &v, 8);
}

static void expect_malformed(struct body *b, const char *what)
{
	char err[256] = "";

	assert_int_equal(parse_body(b, err, sizeof(err)), -SAMPO_ERR_MALFORMED);
	if (!strstr(err, what))
		fail_msg("message '%s' lacks '%s'", err, what);
}

static void test_embedded__hostile_bodies_refused(void **state)
{
	struct sampo_embedded_symbols *es = NULL;
	struct body b;
	uint8_t out[8192];
	char err[256];
	size_t len;

	(void)state;
	doc_body(&b, 1);
	b.b[T0] = 9;
	expect_malformed(&b, "unknown kind 9");
	doc_body(&b, 1);
	b.b[T0 + 1] = 21;
	expect_malformed(&b, "build-id size 21");
	doc_body(&b, 1);
	b.b[T0 + 1] = 0;
	expect_malformed(&b, "build-id size 0");
	doc_body(&b, 1);
	b.b[T0 + 2] = 0x80;
	expect_malformed(&b, "unknown flags");
	doc_body(&b, 1);
	poke_u32(&b, T0 + 56, 0x10000000); /* symbols */
	expect_malformed(&b, "run past the body end");
	doc_body(&b, 1);
	poke_u32(&b, T0 + 48, 9); /* refs */
	expect_malformed(&b, "9 references");
	doc_body(&b, 1);
	poke_u32(&b, T0 + 40, 9); /* name offset = the strings' size */
	expect_malformed(&b, "name offset 0x9 outside the strings");
	doc_body(&b, 1);
	poke_u32(&b, SYM1 + 16, 100);
	expect_malformed(&b, "symbol 1: name offset 0x64");
	doc_body(&b, 1);
	poke_u64(&b, SYM1, 0x1000); /* g at f's start */
	expect_malformed(&b, "symbol 1 starts at or before symbol 0");
	doc_body(&b, 1);
	poke_u64(&b, SYM0 + 8, 0);
	expect_malformed(&b, "symbol 0: size 0");
	doc_body(&b, 1);
	poke_u64(&b, SYM1, UINT64_MAX - 4);
	expect_malformed(&b, "must be above 0 and not wrap");
	doc_body(&b, 1);
	b.b[SYM1 + 20] = 1; /* aux 1 of 0 */
	expect_malformed(&b, "symbol 1: aux 1 of 0");
	doc_body(&b, 1);
	b.b[b.len - 1] = 'x'; /* the strings' last NUL */
	expect_malformed(&b, "do not end with a NUL");
	doc_body(&b, 2);
	expect_malformed(&b, "a second table of kind 1 for one build-id");
	doc_body(&b, 1);
	b.b[b.len++] = 0;
	expect_malformed(&b, "1 bytes after the last table");
	doc_body(&b, 1);
	poke_u32(&b, 0, 1000);
	expect_malformed(&b, "1000 tables cannot fit");

	/* the header: magic, version, the body size the frame must inflate to */
	doc_body(&b, 1);
	len = wrap(&b, 2, b.len, out, sizeof(out));
	assert_int_equal(sampo_embedded_symbols__parse(out, len, &es, err, sizeof(err)),
			 -SAMPO_ERR_UNSUPPORTED);
	assert_non_null(strstr(err, "version 2"));
	len = wrap(&b, 1, b.len + 8, out, sizeof(out));
	assert_int_equal(sampo_embedded_symbols__parse(out, len, &es, err, sizeof(err)),
			 -SAMPO_ERR_DECOMPRESS);
	len = wrap(&b, 1, 1ULL << 40, out, sizeof(out));
	assert_int_equal(sampo_embedded_symbols__parse(out, len, &es, err, sizeof(err)),
			 -SAMPO_ERR_MALFORMED);
	len = wrap(&b, 1, b.len, out, sizeof(out));
	out[0] = 'X';
	assert_int_equal(sampo_embedded_symbols__parse(out, len, &es, err, sizeof(err)),
			 -SAMPO_ERR_MALFORMED);
	assert_null(es);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_embedded__roundtrip),
		cmocka_unit_test(test_embedded__every_truncation_refused),
		cmocka_unit_test(test_embedded__document_layout),
		cmocka_unit_test(test_embedded__hostile_bodies_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
