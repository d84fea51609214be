/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/symbol.h - the symbol table's body and the builder the loaders
 * (symbol-elf.c, symbol-kallsyms.c) fill before the table is frozen.
 */
#ifndef SAMPO_INTERNAL_SYMBOL_H
#define SAMPO_INTERNAL_SYMBOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/symbol.h>
#include "internal/util.h"

struct sampo_symbol {
	uint64_t start;	  /* first address */
	uint64_t end;	  /* one past the last address */
	const char *name; /* into the table's string arena */
	int32_t parent;	  /* index of the nearest earlier symbol that contains this one, or -1 */
	uint16_t aux;	  /* kallsyms: module index + 1 (0: kernel); ET_REL: section index + 1 */
	uint8_t binding;  /* enum sampo_symbol_binding */
	uint8_t type;	  /* enum sampo_symbol_type */
};

/* A PT_LOAD program header, kept to translate file offsets to addresses. */
struct sampo_symtab_segment {
	uint64_t offset; /* p_offset */
	uint64_t vaddr;	 /* p_vaddr */
	uint64_t filesz; /* p_filesz */
	uint32_t flags;	 /* p_flags */
};

/* kallsyms: a reference symbol kept aside, see sampo_symtab__kallsyms_ref() */
#define SAMPO_SYMTAB_MAX_REFS 8
struct sampo_symtab_ref {
	char name[16];
	uint64_t addr;
};

struct sampo_symtab {
	size_t nr;
	uint64_t *starts;	   /* nr entries, sorted: binary search runs on this dense array */
	struct sampo_symbol *syms; /* nr entries, same order */
	uint64_t *end_tree;	   /* deeply nested tables: max end per node, leaves from tree_leaves */
	size_t tree_leaves;
	/*
	 * Nested tables of the sources perf keeps in its rb-tree (ELF, perf
	 * maps): perf's tree simulated, left and right child of symbol i at
	 * [2i] and [2i + 1] (SYMTAB_NIL: none), root in perf_root. NULL otherwise.
	 */
	uint32_t *perf_kids;
	uint32_t perf_root;
	char *arena;		   /* every name, NUL-terminated, back to back */
	char **aux_names;	   /* module (kallsyms) or section (ET_REL) names */
	size_t nr_aux;
	struct sampo_symtab_segment *segs;
	size_t nr_segs;
	int elf_type; /* ET_EXEC, ET_DYN, ET_REL; 0 for kallsyms */
	struct sampo_symtab_ref refs[SAMPO_SYMTAB_MAX_REFS];
	size_t nr_refs;
};

/*
 * Builder: collects symbols in any order, then sampo_symtab_builder__finish()
 * sorts them, applies perf's duplicate and end fix-ups and freezes the table.
 * Names are copied into a growing arena and turned into pointers at the end.
 */
struct symtab_entry {
	uint64_t start;
	uint64_t end;
	size_t name_off;
	uint32_t seq; /* insertion order: keeps the sort deterministic */
	uint16_t aux;
	uint8_t binding;
	uint8_t type;
};

struct sampo_symtab_builder {
	struct symtab_entry *ents;
	size_t nr, alloc;
	char *arena;
	size_t arena_len, arena_alloc;
	char **aux_names;
	size_t nr_aux;
	struct sampo_symtab_segment *segs;
	size_t nr_segs;
	int elf_type;
	/* how perf 6.1 builds its tree of these symbols (sampo_symtab_builder__perf_tree()) */
	uint8_t perf_tree;
	uint32_t late_seq; /* PERF_TREE_ELF: seq of the first symbol inserted after the fix-ups */
};

#define SYMTAB_NIL UINT32_MAX

/*
 * perf 6.1 keeps a DSO's symbols in an rb-tree and returns, for an address
 * several symbols cover, the first one met descending from the root: the
 * answer depends on the tree's shape. Loaders of the sources perf puts in
 * such a tree say so, and the table simulates the tree when symbols nest.
 */
enum sampo_perf_tree {
	SAMPO_PERF_TREE_NONE,	 /* not perf's (simpleperf, kallsyms): the innermost symbol wins */
	SAMPO_PERF_TREE_ELF,	 /* dso__load_sym(): symtab order, duplicates erased, then late ones */
	SAMPO_PERF_TREE_PERFMAP, /* dso__load_perf_map(): file order, nothing erased */
};

enum sampo_symtab_fixup {
	SAMPO_FIXUP_ELF,      /* zero-size ends to the next symbol, then duplicates */
	SAMPO_FIXUP_KALLSYMS, /* the same, but page-rounded at the kernel/module border */
};

void sampo_symtab_builder__init(struct sampo_symtab_builder *b);
void sampo_symtab_builder__release(struct sampo_symtab_builder *b);
/* @size 0 means "unknown": the fix-up extends it to the next symbol. */
int sampo_symtab_builder__add(struct sampo_symtab_builder *b, uint64_t start, uint64_t size,
			      const char *name, size_t name_len, int binding, int type,
			      uint16_t aux);
/* Which tree perf builds of these symbols; the ELF loader adds the PLT entries after _late(). */
void sampo_symtab_builder__perf_tree(struct sampo_symtab_builder *b, enum sampo_perf_tree how);
/* The symbols added from now on go into perf's tree after its fix-ups (the PLT entries). */
void sampo_symtab_builder__perf_tree_late(struct sampo_symtab_builder *b);
/* Return: the new aux index + 1 (what goes in .aux), or -ENOMEM. */
int sampo_symtab_builder__add_aux(struct sampo_symtab_builder *b, const char *name, size_t len);
int sampo_symtab_builder__add_segment(struct sampo_symtab_builder *b,
				      const struct sampo_symtab_segment *seg);
/* Empties the builder (release it anyway). */
int sampo_symtab_builder__finish(struct sampo_symtab_builder *b, enum sampo_symtab_fixup fixup,
				 struct sampo_symtab **ret_symtab);

/* Writes "<what> in '<file>'..." style messages to a caller's buffer, if any. */
void sampo_symtab__set_err(char *errbuf, size_t errbuf_sz, const char *fmt, ...)
	SAMPO_PRINTF(3, 4);

/*
 * sampo_symtab__load_perf_map() - the symbols of the JIT perf map at @path
 * (lib/symbol-perfmap.c). The file sits in a world-writable directory, so
 * it is opened without following a symbolic link and without blocking (a
 * FIFO planted there would hang the reader), and must be a regular file
 * owned by the caller's effective user or root, unless @any_owner.
 * Return: 0, -ENOENT, -ELOOP (a symbolic link), -EINVAL (not a regular
 * file), -EPERM (another user's), -EFBIG (over 256 MiB), -EIO, -ENOMEM.
 */
int sampo_symtab__load_perf_map(const char *path, bool any_owner, struct sampo_symtab **ret);

struct Elf;
struct sampo_build_id;
/* The NT_GNU_BUILD_ID note of an open ELF (buildid.c); as sampo_build_id__from_elf(). */
int sampo_elf__read_build_id(struct Elf *elf, struct sampo_build_id *ret);

#endif
