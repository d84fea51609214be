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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sampo_embedded_symbols *es, *again;
	char err[256];
	void *buf;
	size_t len;

	sampo_set_print(quiet);
	if (sampo_embedded_symbols__parse(data, size, &es, err, sizeof(err)))
		return 0;
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
	return 0;
}
