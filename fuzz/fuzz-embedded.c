// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-embedded.c - libFuzzer entry point for the embedded symbol tables
 * (lib/embedded-symbols.c): each input is decoded as the feature payload;
 * a decoded set is encoded again and must decode to the same tables, and
 * every table must become a symbol table whose lookups return symbols that
 * contain the address looked up.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include <sampo/embedded-symbols.h>
#include <sampo/symbol.h>
#include "internal/embedded-symbols.h"

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const uint8_t *data, size_t size)
{
	struct sampo_embedded_symbols *es, *again;
	char err[256];
	void *buf;
	size_t len;

	if (sampo_embedded_symbols__parse(data, size, &es, err, sizeof(err)))
		return;
	for (size_t i = 0; i < es->nr; i++) {
		const struct emb_table *t = &es->tables[i];
		struct sampo_symtab *st;

		if (sampo_embedded_symbols__symtab(t, &st))
			continue;
		for (size_t j = 0; j < t->nr_syms; j++) {
			const struct sampo_symbol *s = sampo_symtab__find(st, t->syms[j].start);

			if (!s || sampo_symbol__start(s) > t->syms[j].start ||
			    sampo_symbol__end(s) <= t->syms[j].start)
				abort();
		}
		sampo_symtab__delete(st);
	}
	if (!sampo_embedded_symbols__encode(es, &buf, &len)) {
		if (sampo_embedded_symbols__parse(buf, len, &again, err, sizeof(err)))
			abort();
		if (sampo_embedded_symbols__nr_tables(again) != sampo_embedded_symbols__nr_tables(es) ||
		    sampo_embedded_symbols__nr_symbols(again) != sampo_embedded_symbols__nr_symbols(es))
			abort();
		sampo_embedded_symbols__delete(again);
		free(buf);
	}
	sampo_embedded_symbols__delete(es);
}

/* the 40-byte header of docs/format-embedded-symbols.md around @body, compressed */
static uint8_t *wrap(const uint8_t *body, size_t size, size_t *ret_len)
{
	size_t bound = ZSTD_compressBound(size), c;
	uint8_t *out = malloc(40 + bound);
	uint64_t v;

	if (!out)
		return NULL;
	c = ZSTD_compress(out + 40, bound, body, size, 1);
	if (ZSTD_isError(c)) {
		free(out);
		return NULL;
	}
	memcpy(out, "SAMPOSYM\1\0\0\0\1\0\0\0", 16); /* version 1, zstd (little-endian) */
	v = size;
	memcpy(out + 16, &v, 8);
	v = c;
	memcpy(out + 24, &v, 8);
	memset(out + 32, 0, 8);
	*ret_len = 40 + c;
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *w;
	size_t len;

	sampo_set_print(quiet);
	check(data, size);
	w = wrap(data, size, &len);
	if (w)
		check(w, len);
	free(w);
	return 0;
}
