// SPDX-License-Identifier: LGPL-2.1
/*
 * embedded-symbols.c - the symbol tables a self-contained profile carries
 * (include/sampo/embedded-symbols.h): the set, its encoding into the
 * feature payload, and its decoding with every field checked.
 *
 *	payload = header (40 bytes) + one zstd frame
 *	body    = u32 nr_tables, u32 reserved, then nr_tables x table
 *	table   = 64-byte header, segments, refs, aux names, symbols, strings
 *
 * The layout, field by field, is docs/format-embedded-symbols.md. Every
 * integer is little-endian whatever the perf.data file's byte order, so the
 * section is copied between files as it is. Invariants of a decoded table
 * (the encoder keeps them too): symbols sorted by start with no two equal,
 * start < end, every name offset inside the strings and NUL-terminated
 * there, at most SAMPO_SYMTAB_MAX_REFS references with names of at most 15
 * bytes, aux indices within the aux names, one table per (kind, build-id).
 *
 * A decoded table becomes a symbol table through the builder
 * (sampo_embedded_symbols__symtab()): the ends are the ones the table had
 * at home after perf's fix-ups, so the builder's fix-ups change nothing.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include <sampo/embedded-symbols.h>
#include <sampo/reader.h>
#include <sampo/symbolizer.h>
#include <sampo/writer.h>
#include "internal/embedded-symbols.h"
#include "internal/symbol.h"
#include "internal/util.h"

#define EMB_MAGIC "SAMPOSYM"
#define EMB_HEADER_SIZE 40
#define EMB_COMPRESSION_ZSTD 1
#define EMB_BODY_MAX (256ULL << 20)
#define EMB_RATIO_MAX 1024ULL
#define EMB_TABLE_HEADER 64
#define EMB_SEGMENT_SIZE 32
#define EMB_REF_SIZE 16
#define EMB_AUX_SIZE 4
#define EMB_SYMBOL_SIZE 24
#define EMB_ZSTD_LEVEL 19

/* ---- the set ------------------------------------------------------------------------------- */

struct sampo_embedded_symbols *sampo_embedded_symbols__new(void)
{
	return calloc(1, sizeof(struct sampo_embedded_symbols));
}

static void table_release(struct emb_table *t)
{
	free(t->segs);
	free(t->aux);
	free(t->syms);
	free(t->strings);
	memset(t, 0, sizeof(*t));
}

void sampo_embedded_symbols__delete(struct sampo_embedded_symbols *es)
{
	if (!es)
		return;
	for (size_t i = 0; i < es->nr; i++)
		table_release(&es->tables[i]);
	free(es->tables);
	free(es->origin);
	free(es);
}

size_t sampo_embedded_symbols__nr_tables(const struct sampo_embedded_symbols *es)
{
	return es ? es->nr : 0;
}

size_t sampo_embedded_symbols__nr_symbols(const struct sampo_embedded_symbols *es)
{
	size_t n = 0;

	for (size_t i = 0; es && i < es->nr; i++)
		n += es->tables[i].nr_syms;
	return n;
}

int sampo_embedded_symbols__table(const struct sampo_embedded_symbols *es, size_t idx,
				  struct sampo_embedded_table_info *info)
{
	const struct emb_table *t;

	if (!es || idx >= es->nr)
		return -ENOENT;
	t = &es->tables[idx];
	memset(info, 0, sizeof(*info));
	info->kind = t->kind;
	info->name = t->strings + t->name;
	info->bid = t->bid;
	info->nr_symbols = t->nr_syms;
	return 0;
}

int sampo_embedded_symbols__set_origin(struct sampo_embedded_symbols *es, const char *origin)
{
	char *o = origin ? strdup(origin) : NULL;

	if (origin && !o)
		return -ENOMEM;
	free(es->origin);
	es->origin = o;
	return 0;
}

const struct emb_table *sampo_embedded_symbols__find(const struct sampo_embedded_symbols *es,
						     int kind, const struct sampo_build_id *bid)
{
	for (size_t i = 0; es && bid->size && i < es->nr; i++) {
		if (es->tables[i].kind == kind && sampo_build_id__equal(&es->tables[i].bid, bid))
			return &es->tables[i];
	}
	return NULL;
}

struct emb_table *sampo_embedded_symbols__add_table(struct sampo_embedded_symbols *es)
{
	if (es->nr == es->cap) {
		size_t cap = es->cap ? es->cap * 2 : 8;
		struct emb_table *nt = realloc(es->tables, cap * sizeof(*nt));

		if (!nt)
			return NULL;
		es->tables = nt;
		es->cap = cap;
	}
	memset(&es->tables[es->nr], 0, sizeof(es->tables[0]));
	return &es->tables[es->nr++];
}

uint32_t sampo_embedded_symbols__add_string(struct emb_table *t, const char *s)
{
	size_t len = strlen(s) + 1;
	char *ns;
	uint32_t off;

	if (t->strings_size + len >= UINT32_MAX)
		return UINT32_MAX;
	ns = realloc(t->strings, t->strings_size + len);
	if (!ns)
		return UINT32_MAX;
	t->strings = ns;
	memcpy(t->strings + t->strings_size, s, len);
	off = (uint32_t)t->strings_size;
	t->strings_size += len;
	return off;
}

int sampo_embedded_symbols__symtab(const struct emb_table *t, struct sampo_symtab **ret)
{
	struct sampo_symtab_builder b;
	int err = 0;

	sampo_symtab_builder__init(&b);
	b.elf_type = (int)t->elf_type;
	for (size_t i = 0; !err && i < t->nr_aux; i++) {
		const char *n = t->strings + t->aux[i];
		int r = sampo_symtab_builder__add_aux(&b, n, strlen(n));

		err = r < 0 ? r : 0;
	}
	for (size_t i = 0; !err && i < t->nr_segs; i++)
		err = sampo_symtab_builder__add_segment(&b, &t->segs[i]);
	for (size_t i = 0; !err && i < t->nr_syms; i++) {
		const struct emb_symbol *s = &t->syms[i];
		const char *n = t->strings + s->name;

		err = sampo_symtab_builder__add(&b, s->start, s->end - s->start, n, strlen(n),
						s->binding, s->type, s->aux);
	}
	if (!err)
		err = sampo_symtab_builder__finish(&b, SAMPO_FIXUP_ELF, ret);
	sampo_symtab_builder__release(&b);
	if (err)
		return err;
	memcpy((*ret)->refs, t->refs, sizeof(t->refs));
	(*ret)->nr_refs = t->nr_refs;
	return 0;
}

/* ---- encoding ------------------------------------------------------------------------------ */

struct enc {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

static uint8_t *enc_room(struct enc *e, size_t n)
{
	if (e->oom)
		return NULL;
	if (e->len + n > e->cap) {
		size_t cap = e->cap ? e->cap : 4096;
		uint8_t *np;

		while (cap < e->len + n)
			cap *= 2;
		np = realloc(e->p, cap);
		if (!np) {
			e->oom = true;
			return NULL;
		}
		e->p = np;
		e->cap = cap;
	}
	e->len += n;
	return e->p + e->len - n;
}

static void put_u8(uint8_t *p, uint8_t v)
{
	*p = v;
}

static void put_u16(uint8_t *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, 2);
}

static void put_u32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static void put_u64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

static void enc_table(struct enc *e, const struct emb_table *t)
{
	uint8_t *p = enc_room(e, EMB_TABLE_HEADER);

	if (!p)
		return;
	memset(p, 0, EMB_TABLE_HEADER);
	put_u8(p, (uint8_t)t->kind);
	put_u8(p + 1, (uint8_t)t->bid.size);
	put_u16(p + 2, t->flags);
	put_u32(p + 4, t->placement);
	memcpy(p + 8, t->bid.data, t->bid.size);
	put_u32(p + 28, t->elf_type);
	put_u64(p + 32, t->ref_addr);
	put_u32(p + 40, t->name);
	put_u32(p + 44, (uint32_t)t->nr_segs);
	put_u32(p + 48, (uint32_t)t->nr_refs);
	put_u32(p + 52, (uint32_t)t->nr_aux);
	put_u32(p + 56, (uint32_t)t->nr_syms);
	put_u32(p + 60, (uint32_t)t->strings_size);
	for (size_t i = 0; i < t->nr_segs; i++) {
		p = enc_room(e, EMB_SEGMENT_SIZE);
		if (!p)
			return;
		put_u64(p, t->segs[i].offset);
		put_u64(p + 8, t->segs[i].vaddr);
		put_u64(p + 16, t->segs[i].filesz);
		put_u32(p + 24, t->segs[i].flags);
		put_u32(p + 28, 0);
	}
	for (size_t i = 0; i < t->nr_refs; i++) {
		p = enc_room(e, EMB_REF_SIZE);
		if (!p)
			return;
		/* the name goes in the strings too: the encoder's caller put it there */
		put_u64(p, t->refs[i].addr);
		put_u32(p + 8, 0);
		put_u32(p + 12, 0);
	}
	for (size_t i = 0; i < t->nr_aux; i++) {
		p = enc_room(e, EMB_AUX_SIZE);
		if (!p)
			return;
		put_u32(p, t->aux[i]);
	}
	for (size_t i = 0; i < t->nr_syms; i++) {
		const struct emb_symbol *s = &t->syms[i];

		p = enc_room(e, EMB_SYMBOL_SIZE);
		if (!p)
			return;
		put_u64(p, s->start);
		put_u64(p + 8, s->end - s->start);
		put_u32(p + 16, s->name);
		put_u16(p + 20, s->aux);
		put_u8(p + 22, s->binding);
		put_u8(p + 23, s->type);
	}
	p = enc_room(e, t->strings_size);
	if (p && t->strings_size)
		memcpy(p, t->strings, t->strings_size);
}

/*
 * The reference names live in the table's strings; a table made by the
 * symbolizer holds them in refs[].name only, so they are appended to a copy
 * of the strings here and the offsets patched into the encoded bytes.
 */
static int enc_table_with_refs(struct enc *e, const struct emb_table *t)
{
	struct emb_table c = *t;
	uint32_t offs[SAMPO_SYMTAB_MAX_REFS];
	size_t at = e->len;
	int err = 0;

	c.strings = malloc(t->strings_size + (size_t)SAMPO_SYMTAB_MAX_REFS * 16 + 1);
	if (!c.strings)
		return -ENOMEM;
	if (t->strings_size)
		memcpy(c.strings, t->strings, t->strings_size);
	for (size_t i = 0; i < t->nr_refs; i++) {
		size_t l = strnlen(t->refs[i].name, sizeof(t->refs[i].name) - 1) + 1;

		offs[i] = (uint32_t)c.strings_size;
		memcpy(c.strings + c.strings_size, t->refs[i].name, l - 1);
		c.strings[c.strings_size + l - 1] = '\0';
		c.strings_size += l;
	}
	if (c.strings_size >= UINT32_MAX)
		err = -EFBIG;
	if (!err) {
		enc_table(e, &c);
		if (e->oom)
			err = -ENOMEM;
	}
	if (!err) {
		uint8_t *refs = e->p + at + EMB_TABLE_HEADER + t->nr_segs * EMB_SEGMENT_SIZE;

		for (size_t i = 0; i < t->nr_refs; i++)
			put_u32(refs + i * EMB_REF_SIZE + 8, offs[i]);
	}
	free(c.strings);
	return err;
}

int sampo_embedded_symbols__encode(const struct sampo_embedded_symbols *es, void **ret_buf,
				   size_t *ret_len)
{
	struct enc body = { 0 };
	uint8_t *p, *out;
	size_t bound, clen;
	int err = 0;

	p = enc_room(&body, 8);
	if (p) {
		put_u32(p, (uint32_t)es->nr);
		put_u32(p + 4, 0);
	}
	for (size_t i = 0; !err && i < es->nr; i++)
		err = enc_table_with_refs(&body, &es->tables[i]);
	if (!err && body.oom)
		err = -ENOMEM;
	if (!err && body.len > EMB_BODY_MAX)
		err = -EFBIG;
	if (err) {
		free(body.p);
		return err;
	}
	bound = ZSTD_compressBound(body.len);
	out = malloc(EMB_HEADER_SIZE + bound);
	if (!out) {
		free(body.p);
		return -ENOMEM;
	}
	clen = ZSTD_compress(out + EMB_HEADER_SIZE, bound, body.p, body.len, EMB_ZSTD_LEVEL);
	free(body.p);
	if (ZSTD_isError(clen)) {
		free(out);
		return -SAMPO_ERR_DECOMPRESS;
	}
	memcpy(out, EMB_MAGIC, 8);
	put_u32(out + 8, SAMPO_EMBEDDED_SYMBOLS_VERSION);
	put_u32(out + 12, EMB_COMPRESSION_ZSTD);
	put_u64(out + 16, body.len);
	put_u64(out + 24, clen);
	put_u64(out + 32, 0);
	*ret_buf = out;
	*ret_len = EMB_HEADER_SIZE + clen;
	return 0;
}

int sampo_embedded_symbols__write(const struct sampo_embedded_symbols *es, struct sampo_writer *w)
{
	void *buf;
	size_t len;
	int err = sampo_embedded_symbols__encode(es, &buf, &len);

	if (err)
		return err;
	err = sampo_writer__set_feature(w, SAMPO_FEAT_EMBEDDED_SYMBOLS, buf, len);
	free(buf);
	return err;
}

/* ---- decoding ------------------------------------------------------------------------------ */

static uint16_t get_u16(const uint8_t *p)
{
	return le16toh(load_u16(p));
}

static uint32_t get_u32(const uint8_t *p)
{
	return le32toh(load_u32(p));
}

static uint64_t get_u64(const uint8_t *p)
{
	return le64toh(load_u64(p));
}

struct dec {
	const uint8_t *body;
	size_t len;
	char *errbuf;
	size_t errbuf_sz;
	size_t table;	  /* the table being decoded */
	size_t table_off; /* its offset in the body */
};

static int dec_fail(struct dec *d, const char *fmt, ...) SAMPO_PRINTF(2, 3);
static int dec_fail(struct dec *d, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (d->errbuf && d->errbuf_sz)
		snprintf(d->errbuf, d->errbuf_sz, "table %zu (at body offset %#zx): %s", d->table,
			 d->table_off, msg);
	return -SAMPO_ERR_MALFORMED;
}

/* a string of the table: inside its strings and NUL-terminated there */
static bool str_ok(const struct emb_table *t, uint32_t off)
{
	return off < t->strings_size && memchr(t->strings + off, '\0', t->strings_size - off);
}

static int dec_table(struct dec *d, size_t *off, struct emb_table *t)
{
	const uint8_t *p;
	uint64_t need;
	uint32_t nr_segs, nr_refs, nr_aux, nr_syms, strings_size;

	d->table_off = *off;
	if (d->len - *off < EMB_TABLE_HEADER)
		return dec_fail(d, "header runs past the body end (size %#zx)", d->len);
	p = d->body + *off;
	t->kind = p[0];
	if (t->kind < SAMPO_EMBEDDED_USER || t->kind > SAMPO_EMBEDDED_KALLSYMS)
		return dec_fail(d, "unknown kind %d", t->kind);
	if (p[1] == 0 || p[1] > SAMPO_BUILD_ID_SIZE)
		return dec_fail(d, "build-id size %u (1 to %d)", p[1], SAMPO_BUILD_ID_SIZE);
	t->bid.size = p[1];
	memcpy(t->bid.data, p + 8, t->bid.size);
	t->flags = get_u16(p + 2);
	if (t->flags & ~EMB_FLAGS_KNOWN)
		return dec_fail(d, "unknown flags %#x", t->flags);
	t->placement = get_u32(p + 4);
	if (t->placement > SAMPO_PLACED_SYNTHETIC)
		return dec_fail(d, "unknown placement %u", t->placement);
	t->elf_type = get_u32(p + 28);
	if (t->elf_type > 3)
		return dec_fail(d, "unknown ELF type %u", t->elf_type);
	t->ref_addr = get_u64(p + 32);
	t->name = get_u32(p + 40);
	nr_segs = get_u32(p + 44);
	nr_refs = get_u32(p + 48);
	nr_aux = get_u32(p + 52);
	nr_syms = get_u32(p + 56);
	strings_size = get_u32(p + 60);
	if (nr_refs > SAMPO_SYMTAB_MAX_REFS)
		return dec_fail(d, "%u references (at most %d)", nr_refs, SAMPO_SYMTAB_MAX_REFS);
	if (nr_aux >= UINT16_MAX - 1)
		return dec_fail(d, "%u aux names (at most %d)", nr_aux, UINT16_MAX - 2);
	need = (uint64_t)nr_segs * EMB_SEGMENT_SIZE + (uint64_t)nr_refs * EMB_REF_SIZE +
	       (uint64_t)nr_aux * EMB_AUX_SIZE + (uint64_t)nr_syms * EMB_SYMBOL_SIZE +
	       strings_size;
	*off += EMB_TABLE_HEADER;
	if (need > d->len - *off)
		return dec_fail(d, "%u segments, %u refs, %u aux names, %u symbols and %u bytes of "
				   "names run past the body end (size %#zx)",
				nr_segs, nr_refs, nr_aux, nr_syms, strings_size, d->len);
	if (strings_size == 0)
		return dec_fail(d, "no strings (the table's name is one)");

	/* the strings first: everything else points into them */
	p = d->body + *off + need - strings_size;
	t->strings = malloc(strings_size);
	t->segs = calloc(nr_segs ? nr_segs : 1, sizeof(*t->segs));
	t->aux = calloc(nr_aux ? nr_aux : 1, sizeof(*t->aux));
	t->syms = calloc(nr_syms ? nr_syms : 1, sizeof(*t->syms));
	if (!t->strings || !t->segs || !t->aux || !t->syms)
		return -ENOMEM;
	memcpy(t->strings, p, strings_size);
	t->strings_size = strings_size;
	if (t->strings[strings_size - 1] != '\0')
		return dec_fail(d, "the strings do not end with a NUL");
	if (!str_ok(t, t->name))
		return dec_fail(d, "name offset %#x outside the strings (size %#x)", t->name,
				strings_size);

	p = d->body + *off;
	for (uint32_t i = 0; i < nr_segs; i++, p += EMB_SEGMENT_SIZE) {
		t->segs[i].offset = get_u64(p);
		t->segs[i].vaddr = get_u64(p + 8);
		t->segs[i].filesz = get_u64(p + 16);
		t->segs[i].flags = get_u32(p + 24);
	}
	t->nr_segs = nr_segs;
	for (uint32_t i = 0; i < nr_refs; i++, p += EMB_REF_SIZE) {
		uint32_t n = get_u32(p + 8);
		size_t l;

		if (!str_ok(t, n))
			return dec_fail(d, "reference %u: name offset %#x outside the strings", i, n);
		l = strlen(t->strings + n);
		if (l == 0 || l >= sizeof(t->refs[0].name))
			return dec_fail(d, "reference %u: name of %zu bytes (1 to %zu)", i, l,
					sizeof(t->refs[0].name) - 1);
		memcpy(t->refs[i].name, t->strings + n, l + 1);
		t->refs[i].addr = get_u64(p);
	}
	t->nr_refs = nr_refs;
	for (uint32_t i = 0; i < nr_aux; i++, p += EMB_AUX_SIZE) {
		t->aux[i] = get_u32(p);
		if (!str_ok(t, t->aux[i]))
			return dec_fail(d, "aux name %u: offset %#x outside the strings", i,
					t->aux[i]);
	}
	t->nr_aux = nr_aux;
	for (uint32_t i = 0; i < nr_syms; i++, p += EMB_SYMBOL_SIZE) {
		struct emb_symbol *s = &t->syms[i];
		uint64_t size = get_u64(p + 8);

		s->start = get_u64(p);
		s->name = get_u32(p + 16);
		s->aux = get_u16(p + 20);
		s->binding = p[22];
		s->type = p[23];
		if (size == 0 || s->start + size < s->start)
			return dec_fail(d, "symbol %u: size %#" PRIx64 " at %#" PRIx64
					   " (must be above 0 and not wrap)",
					i, size, s->start);
		s->end = s->start + size;
		if (i && s->start <= t->syms[i - 1].start)
			return dec_fail(d, "symbol %u starts at or before symbol %u (%#" PRIx64
					   " <= %#" PRIx64 ")",
					i, i - 1, s->start, t->syms[i - 1].start);
		if (!str_ok(t, s->name))
			return dec_fail(d, "symbol %u: name offset %#x outside the strings", i,
					s->name);
		if (s->aux > nr_aux)
			return dec_fail(d, "symbol %u: aux %u of %u", i, s->aux, nr_aux);
	}
	t->nr_syms = nr_syms;
	*off += need;
	return 0;
}

int sampo_embedded_symbols__parse(const void *buf, size_t len, struct sampo_embedded_symbols **ret,
				  char *errbuf, size_t errbuf_sz)
{
	const uint8_t *p = buf;
	struct dec d = { .errbuf = errbuf, .errbuf_sz = errbuf_sz };
	struct sampo_embedded_symbols *es = NULL;
	uint64_t body_size, csize;
	uint32_t version, comp, nr_tables;
	uint8_t *body = NULL;
	size_t got, off;
	int err;

	if (errbuf && errbuf_sz)
		errbuf[0] = '\0';
	if (!buf && len)
		return -EINVAL;
	if (len < EMB_HEADER_SIZE || memcmp(p, EMB_MAGIC, 8)) {
		if (errbuf && errbuf_sz)
			snprintf(errbuf, errbuf_sz, "no '%s' header (size %#zx)", EMB_MAGIC, len);
		return -SAMPO_ERR_MALFORMED;
	}
	version = get_u32(p + 8);
	comp = get_u32(p + 12);
	body_size = get_u64(p + 16);
	csize = get_u64(p + 24);
	if (version != SAMPO_EMBEDDED_SYMBOLS_VERSION || comp != EMB_COMPRESSION_ZSTD) {
		if (errbuf && errbuf_sz)
			snprintf(errbuf, errbuf_sz,
				 "version %u, compression %u (this sampo reads version %d, zstd)",
				 version, comp, SAMPO_EMBEDDED_SYMBOLS_VERSION);
		return -SAMPO_ERR_UNSUPPORTED;
	}
	if (csize > len - EMB_HEADER_SIZE || body_size < 8 || body_size > EMB_BODY_MAX ||
	    body_size > csize * EMB_RATIO_MAX + (1u << 20)) {
		if (errbuf && errbuf_sz)
			snprintf(errbuf, errbuf_sz,
				 "body of %#" PRIx64 " bytes from %#" PRIx64
				 " compressed (payload %#zx; at most %#llx, 1024 times the "
				 "compressed bytes plus 1 MiB)",
				 body_size, csize, len, EMB_BODY_MAX);
		return -SAMPO_ERR_MALFORMED;
	}
	body = malloc(body_size);
	if (!body)
		return -ENOMEM;
	got = ZSTD_decompress(body, body_size, p + EMB_HEADER_SIZE, csize);
	if (ZSTD_isError(got) || got != body_size) {
		if (errbuf && errbuf_sz)
			snprintf(errbuf, errbuf_sz, "the zstd frame does not inflate to %#" PRIx64
				 " bytes: %s", body_size,
				 ZSTD_isError(got) ? ZSTD_getErrorName(got) : "another size");
		free(body);
		return -SAMPO_ERR_DECOMPRESS;
	}
	d.body = body;
	d.len = body_size;
	nr_tables = get_u32(body);
	off = 8;
	err = -ENOMEM;
	es = sampo_embedded_symbols__new();
	if (!es)
		goto out;
	if (nr_tables > (body_size - off) / EMB_TABLE_HEADER) {
		err = dec_fail(&d, "%u tables cannot fit a body of %#zx bytes", nr_tables, d.len);
		goto out;
	}
	for (uint32_t i = 0; i < nr_tables; i++) {
		struct emb_table *t = sampo_embedded_symbols__add_table(es);

		d.table = i;
		if (!t) {
			err = -ENOMEM;
			goto out;
		}
		err = dec_table(&d, &off, t);
		if (err)
			goto out;
		for (uint32_t j = 0; j < i; j++) {
			if (es->tables[j].kind == t->kind &&
			    sampo_build_id__equal(&es->tables[j].bid, &t->bid)) {
				err = dec_fail(&d, "a second table of kind %d for one build-id "
						   "(the first is table %u)",
					       t->kind, j);
				goto out;
			}
		}
	}
	if (off != d.len) {
		d.table = nr_tables;
		d.table_off = off;
		err = dec_fail(&d, "%zu bytes after the last table", d.len - off);
		goto out;
	}
	*ret = es;
	es = NULL;
	err = 0;
out:
	sampo_embedded_symbols__delete(es);
	free(body);
	return err;
}

int sampo_embedded_symbols__read(struct sampo_reader *reader, struct sampo_embedded_symbols **ret,
				 char *errbuf, size_t errbuf_sz)
{
	const void *data;
	size_t size;
	int err = sampo_reader__feature(reader, SAMPO_FEAT_EMBEDDED_SYMBOLS, &data, &size);

	if (err)
		return err;
	return sampo_embedded_symbols__parse(data, size, ret, errbuf, errbuf_sz);
}
