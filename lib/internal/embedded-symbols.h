/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/embedded-symbols.h - the body of struct sampo_embedded_symbols
 * (lib/embedded-symbols.c) and what the symbolizer needs of it
 * (lib/symbolizer-embed.c): the table of a (kind, build-id), turned into a
 * symbol table.
 */
#ifndef SAMPO_INTERNAL_EMBEDDED_SYMBOLS_H
#define SAMPO_INTERNAL_EMBEDDED_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/buildid.h>
#include <sampo/embedded-symbols.h>
#include "internal/symbol.h"

/* Table flags (docs/format-embedded-symbols.md): how the source was found at home */
#define EMB_FLAG_KALLSYMS (1u << 0) /* kernel: the table is a kallsyms file's */
#define EMB_FLAG_LIVE (1u << 1)	    /* kernel: the running kernel's (usable unrelocated) */
#define EMB_FLAG_VERIFIED (1u << 2) /* its build-id was checked against the recorded one */
#define EMB_FLAG_HAS_REF (1u << 3)  /* kernel: ref_addr is the source's _text (or _stext) */
#define EMB_FLAG_RELATIVE (1u << 4) /* module: laid out from 0, looked up at addr - map start */
#define EMB_FLAGS_KNOWN 0x1fu

struct emb_symbol {
	uint64_t start;
	uint64_t end; /* one past the last byte; > start */
	uint32_t name; /* offset in the table's strings */
	uint16_t aux;  /* 0, or index + 1 into aux */
	uint8_t binding;
	uint8_t type;
};

struct emb_table {
	int kind; /* enum sampo_embedded_kind */
	uint16_t flags;
	uint32_t placement; /* enum sampo_symbol_placement */
	uint32_t elf_type;  /* 0 (kallsyms), ET_REL, ET_EXEC, ET_DYN */
	struct sampo_build_id bid;
	uint64_t ref_addr;
	uint32_t name; /* the DSO's name, in strings */
	struct sampo_symtab_segment *segs;
	size_t nr_segs;
	struct sampo_symtab_ref refs[SAMPO_SYMTAB_MAX_REFS];
	size_t nr_refs;
	uint32_t *aux; /* string offsets: module (kallsyms) or section (ET_REL) names */
	size_t nr_aux;
	struct emb_symbol *syms; /* sorted by start, no two equal */
	size_t nr_syms;
	char *strings; /* NUL-terminated names back to back */
	size_t strings_size;
};

struct sampo_embedded_symbols {
	char *origin; /* the profile, for --provenance; may be NULL */
	struct emb_table *tables;
	size_t nr, cap;
};

/* The table of (@kind, @bid), or NULL. */
const struct emb_table *sampo_embedded_symbols__find(const struct sampo_embedded_symbols *es,
						     int kind, const struct sampo_build_id *bid);

/* A symbol table holding @t's symbols, segments, references and aux names. */
int sampo_embedded_symbols__symtab(const struct emb_table *t, struct sampo_symtab **ret);

/*
 * A new, empty table of @es (for the symbolizer's export); the caller fills
 * it through the helpers below. Return: the table, or NULL (out of memory).
 */
struct emb_table *sampo_embedded_symbols__add_table(struct sampo_embedded_symbols *es);
/* A copy of @s in @t's strings; returns its offset, or UINT32_MAX (out of memory, too big). */
uint32_t sampo_embedded_symbols__add_string(struct emb_table *t, const char *s);

#endif
