// SPDX-License-Identifier: LGPL-2.1
/*
 * symbolizer-embed.c - the symbolizer's two sides of embedded symbols
 * (include/sampo/embedded-symbols.h):
 *
 *  - export: with .track_hits, every symbol a lookup returns is marked in
 *    its source (a bitmap over the source's table, caller's thread only);
 *    sampo_symbolizer__embed() copies the marked symbols of every source
 *    whose file was checked against a recorded build-id into one table per
 *    source, with what the loader found out about it (kallsyms or vmlinux,
 *    its _text, a module's placement, the segments that turn a file offset
 *    into an address);
 *  - import: a loader that found no local file with the recorded build-id
 *    asks sampo_symbolizer__load_embedded() for the profile's table of
 *    that (kind, build-id) and takes it as if it had loaded the file.
 *
 * Why a subset answers like the whole table: a lookup returns the last
 * symbol, in start order, that covers the address (lib/symbol.c). The
 * marked symbol S of an address keeps its start and end; any other kept
 * symbol T starting between S and the address does not cover the address
 * (else the whole table would have answered T), so the subset answers S
 * too. Addresses no lookup asked for at embedding time are not covered:
 * that is the documented limit (docs/format-embedded-symbols.md).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/embedded-symbols.h>
#include <sampo/symbolizer.h>
#include "internal/embedded-symbols.h"
#include "internal/symbol.h"
#include "internal/symbolizer.h"

void sampo_symbolizer__mark_hit(const struct sampo_symbolizer *s, struct sampo_sym_src *src,
				const struct sampo_symbol *sym)
{
	const struct sampo_symtab *st;
	size_t idx;

	if (!s->track_hits || !src || !sym || !src->symtab)
		return;
	st = src->symtab;
	if (sym < st->syms || sym >= st->syms + st->nr)
		return; /* not this table's (a BPF symbol, a guest's) */
	idx = (size_t)(sym - st->syms);
	if (!src->hits) {
		src->hits = calloc((st->nr + 7) / 8, 1);
		if (!src->hits)
			return;
	}
	src->hits[idx / 8] |= (uint8_t)(1u << (idx % 8));
}

static int src_embedded_kind(const struct sampo_sym_src *src)
{
	switch (src->kind) {
	case SRC_USER:
		return SAMPO_EMBEDDED_USER;
	case SRC_KERNEL:
		return SAMPO_EMBEDDED_KERNEL;
	case SRC_MODULE:
		return SAMPO_EMBEDDED_MODULE;
	case SRC_KALLSYMS:
		return SAMPO_EMBEDDED_KALLSYMS;
	}
	return 0;
}

static bool hit(const struct sampo_sym_src *src, size_t i)
{
	return src->hits[i / 8] & (1u << (i % 8));
}

static int table_from_src(struct sampo_embedded_symbols *es, const struct sampo_sym_src *src)
{
	const struct sampo_symtab *st = src->symtab;
	struct emb_table *t = sampo_embedded_symbols__add_table(es);
	uint32_t *aux_map = NULL; /* the table's aux index + 1 -> the new one + 1 */
	size_t n = 0;

	if (!t)
		return -ENOMEM;
	t->kind = src_embedded_kind(src);
	t->bid = src->bid;
	t->flags = (src->kallsyms ? EMB_FLAG_KALLSYMS : 0) | (src->live ? EMB_FLAG_LIVE : 0) |
		   (src->verified ? EMB_FLAG_VERIFIED : 0) | (src->has_ref ? EMB_FLAG_HAS_REF : 0) |
		   (src->relative ? EMB_FLAG_RELATIVE : 0);
	t->placement = (uint32_t)src->placement;
	t->elf_type = (uint32_t)st->elf_type;
	t->ref_addr = src->ref_addr;
	t->name = sampo_embedded_symbols__add_string(t, src->name);
	if (t->name == UINT32_MAX)
		return -ENOMEM;
	if (st->nr_segs) {
		t->segs = calloc(st->nr_segs, sizeof(*t->segs));
		if (!t->segs)
			return -ENOMEM;
		memcpy(t->segs, st->segs, st->nr_segs * sizeof(*t->segs));
		t->nr_segs = st->nr_segs;
	}
	memcpy(t->refs, st->refs, sizeof(t->refs));
	t->nr_refs = st->nr_refs;

	for (size_t i = 0; i < st->nr; i++)
		n += hit(src, i);
	t->syms = calloc(n ? n : 1, sizeof(*t->syms));
	aux_map = calloc(st->nr_aux + 1, sizeof(*aux_map));
	t->aux = calloc(st->nr_aux ? st->nr_aux : 1, sizeof(*t->aux));
	if (!t->syms || !aux_map || !t->aux) {
		free(aux_map);
		return -ENOMEM;
	}
	for (size_t i = 0; i < st->nr; i++) {
		const struct sampo_symbol *sym = &st->syms[i];
		struct emb_symbol *e;

		if (!hit(src, i))
			continue;
		e = &t->syms[t->nr_syms++];
		e->start = sym->start;
		e->end = sym->end;
		e->binding = sym->binding;
		e->type = sym->type;
		e->name = sampo_embedded_symbols__add_string(t, sym->name);
		if (e->name == UINT32_MAX)
			goto out_nomem;
		if (sym->aux && sym->aux <= st->nr_aux) {
			/* only the module or section names the kept symbols use */
			if (!aux_map[sym->aux]) {
				uint32_t off = sampo_embedded_symbols__add_string(
					t, st->aux_names[sym->aux - 1]);

				if (off == UINT32_MAX)
					goto out_nomem;
				t->aux[t->nr_aux++] = off;
				aux_map[sym->aux] = (uint32_t)t->nr_aux;
			}
			e->aux = (uint16_t)aux_map[sym->aux];
		}
	}
	free(aux_map);
	return 0;

out_nomem:
	free(aux_map);
	return -ENOMEM;
}

int sampo_symbolizer__embed(struct sampo_symbolizer *s, struct sampo_embedded_symbols **ret)
{
	struct sampo_embedded_symbols *es;
	int err = 0;

	if (!s || !ret)
		return -EINVAL;
	es = sampo_embedded_symbols__new();
	if (!es)
		return -ENOMEM;
	pthread_mutex_lock(&s->lock);
	for (struct sampo_sym_src *src = s->sources; src && !err; src = src->next) {
		/* only files checked against the recorded build-id, the key of the table */
		/* a simpleperf recording's own table (src->sp) is in the file already */
		if (src->state != SRC_DONE || !src->symtab || !src->hits || !src->bid.size ||
		    !src->verified || src->absolute || src->sp)
			continue;
		err = table_from_src(es, src);
	}
	pthread_mutex_unlock(&s->lock);
	if (err) {
		sampo_embedded_symbols__delete(es);
		return err;
	}
	*ret = es;
	return 0;
}

bool sampo_symbolizer__load_embedded(const struct sampo_symbolizer *s, struct sampo_sym_src *src,
				     struct sampo_strbuf *tried)
{
	const struct emb_table *t;
	const char *origin;

	if (!s->embedded || !src->bid.size)
		return false;
	t = sampo_embedded_symbols__find(s->embedded, src_embedded_kind(src), &src->bid);
	origin = s->embedded->origin ? s->embedded->origin : "the profile";
	if (!t) {
		sampo_strbuf__addf(tried, "%sthe symbols embedded in '%s' (none for this build-id)",
				   tried->len ? ", " : "", origin);
		return false;
	}
	if (sampo_embedded_symbols__symtab(t, &src->symtab)) {
		sampo_strbuf__addf(tried, "%sthe symbols embedded in '%s' (out of memory)",
				   tried->len ? ", " : "", origin);
		return false;
	}
	src->path = strdup(origin);
	src->kallsyms = t->flags & EMB_FLAG_KALLSYMS;
	src->live = t->flags & EMB_FLAG_LIVE;
	src->verified = t->flags & EMB_FLAG_VERIFIED;
	src->has_ref = t->flags & EMB_FLAG_HAS_REF;
	src->relative = t->flags & EMB_FLAG_RELATIVE;
	src->ref_addr = t->ref_addr;
	src->placement = (int)t->placement;
	return true;
}
