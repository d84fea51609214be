// SPDX-License-Identifier: LGPL-2.1
/*
 * symbolizer-simpleperf.c - the symbols an Android simpleperf recording
 * carries: its FILE or FILE2 feature (lib/feature-simpleperf.c) holds, per
 * DSO, the symbols that had samples, as simpleperf named them on the device.
 *
 * The tables are the recording's own: they name its samples on any machine,
 * and no file of this machine is looked at for a DSO that has one. A DSO of
 * the same path here is often a different file (a host binary where the
 * phone had an ARM one), which lib/symbolizer-elfarch.c refuses anyway.
 *
 * Which DSO a table entry is for: the same path, of the same kind (the
 * kernel's entry "[kernel.kallsyms]" for the kernel; a module's, by the path
 * of its map, "[name]" or its .ko file; an ELF, dex or other file entry for a
 * user DSO), when the file's build-id table agrees: a DSO
 * recorded with another build-id than the build-id table's for its path (a
 * file replaced while recording) is not the one simpleperf named, and goes
 * the usual way. An entry without symbols gives nothing: the usual way too.
 * A path mapped from two different files while recording (its device or
 * inode changed: lib/symbolizer.c leaves such a DSO unresolved) is still
 * named from its table, as simpleperf names it: by path.
 *
 * Addresses, as simpleperf's Dso::IpToVaddrInFile() turns a sampled address
 * into one of the table (dso.cpp):
 *	ELF      addr - map start + pgoff - file offset of min_vaddr + min_vaddr,
 *	         or addr - map start + min_vaddr when the entry has no file offset
 *	dex      addr - map start + pgoff
 *	module   addr - map start - memory offset of min_vaddr + min_vaddr
 *	kernel   addr itself (simpleperf fixes KASLR only with a vmlinux)
 *	others   addr itself
 * and the symbol is the table's last one starting at or below it, if it is
 * below its end. Names are demangled in full, parameters included, and the
 * dynamic linker's "__dl_NAME" shown as "[linker]NAME", as simpleperf prints
 * them (perf's own tables drop the parameters).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/buildid.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/symbolizer.h>
#include "internal/demangle.h"
#include "internal/log.h"
#include "internal/map.h"
#include "internal/symbol.h"
#include "internal/symbolizer.h"

static bool entry_kind_fits(const struct sampo_feat_sp_file *e, enum src_kind kind)
{
	switch (kind) {
	case SRC_KERNEL:
		return e->type == SAMPO_SP_DSO_KERNEL;
	case SRC_USER:
		return e->type == SAMPO_SP_DSO_ELF_FILE || e->type == SAMPO_SP_DSO_DEX_FILE ||
		       e->type == SAMPO_SP_DSO_SYMBOL_MAP_FILE ||
		       e->type == SAMPO_SP_DSO_UNKNOWN_FILE;
	case SRC_MODULE:
		return e->type == SAMPO_SP_DSO_KERNEL_MODULE;
	default:
		return false;
	}
}

static const struct sampo_feat_sp_file *find_entry(const struct sampo_symbolizer *s,
						   enum src_kind kind, const char *name)
{
	const struct sampo_feat_sp_file *files;
	uint32_t nr;

	if (s->guest || !s->features)
		return NULL;
	files = sampo_features__simpleperf_files(s->features, &nr);
	for (uint32_t i = 0; i < nr; i++) {
		if (entry_kind_fits(&files[i], kind) && !strcmp(files[i].path, name))
			return &files[i];
	}
	return NULL;
}

bool sampo_symbolizer__has_simpleperf_table(const struct sampo_symbolizer *s, const char *name)
{
	const struct sampo_feat_sp_file *e = find_entry(s, SRC_USER, name);

	return e && e->nr_symbols;
}

/* The DSO's recorded build-id is not the build-id table's for its path: not the table's DSO. */
static bool other_build(const struct sampo_symbolizer *s, const struct sampo_sym_src *src)
{
	const struct sampo_sym_bid *b;

	if (!src->bid.size || src->kind == SRC_MODULE)
		return false; /* a module's table entry is by its path alone */
	if (src->kind == SRC_KERNEL)
		b = s->kernel_bid;
	else
		b = sampo_symbolizer__bid_find(s, BID_KEY_USER, src->name);
	return b && b->bid.size && !sampo_build_id__equal(&b->bid, &src->bid);
}

/*
 * A name as simpleperf's Dso::Demangle() prints it: demangled in full, and
 * the dynamic linker's own symbols ("__dl_" then a name) as "[linker]NAME".
 * Return: a malloc'd name, or NULL to keep @name.
 */
static char *sp_demangle(const char *name)
{
	static const char linker_prefix[] = "__dl_";
	char *dem, *out;

	if (strncmp(name, linker_prefix, sizeof(linker_prefix) - 1))
		return sampo_demangle__full(name);
	name += sizeof(linker_prefix) - 1;
	dem = sampo_demangle__full(name);
	if (asprintf(&out, "[linker]%s", dem ? dem : name) < 0)
		out = NULL;
	free(dem);
	return out;
}

static int build_symtab(const struct sampo_symbolizer *s, const struct sampo_feat_sp_file *e,
			struct sampo_symtab **ret)
{
	struct sampo_symtab_builder b;
	int err = 0;

	sampo_symtab_builder__init(&b);
	for (uint32_t i = 0; i < e->nr_symbols && !err; i++) {
		const struct sampo_feat_sp_symbol *sym = &e->symbols[i];
		char *dem = s->no_demangle ? NULL : sp_demangle(sym->name);
		const char *name = dem ? dem : sym->name;

		/* an empty symbol would be stretched to the next: simpleperf never matches it */
		if (sym->len)
			err = sampo_symtab_builder__add(&b, sym->vaddr, sym->len, name,
							strlen(name), SAMPO_SYMBOL_GLOBAL,
							SAMPO_SYMBOL_FUNC, 0);
		free(dem);
	}
	if (!err)
		err = sampo_symtab_builder__finish(&b, SAMPO_FIXUP_ELF, ret);
	sampo_symtab_builder__release(&b);
	return err;
}

bool sampo_symbolizer__load_simpleperf(const struct sampo_symbolizer *s, struct sampo_sym_src *src)
{
	const struct sampo_feat_sp_file *e = find_entry(s, src->kind, src->name);
	struct sampo_symtab *st = NULL;
	char *bracketed;

	/* a module's entry has the path of its map: its .ko file, or "[name]" */
	if (src->kind == SRC_MODULE) {
		e = src->hint ? find_entry(s, src->kind, src->hint) : NULL;
		if (!e && asprintf(&bracketed, "[%s]", src->name) >= 0) {
			e = find_entry(s, src->kind, bracketed);
			free(bracketed);
		}
	}

	if (!e || !e->nr_symbols || other_build(s, src))
		return false;
	if (build_symtab(s, e, &st)) {
		pr_debug("out of memory loading the simpleperf table of '%s'\n", src->name);
		return false;
	}
	src->path = strdup(sampo_features__has(s->features, SAMPO_FEAT_SIMPLEPERF_FILE) ?
				   "simpleperf file table (FILE)" :
				   "simpleperf file table (FILE2)");
	if (!src->path) {
		sampo_symtab__delete(st);
		return false;
	}
	src->symtab = st;
	src->sp = e;
	src->verified = true; /* the recording's own */
	src->placement = SAMPO_PLACED_EMBEDDED;
	sampo_symbolizer__settle(src, true, SAMPO_ORIGIN_EMBEDDED, false, NULL);
	return true;
}

uint64_t sampo_symbolizer__simpleperf_vaddr(const struct sampo_sym_src *src,
					    const struct sampo_map *map, uint64_t addr)
{
	const struct sampo_feat_sp_file *e = src->sp;

	switch (e->type) {
	case SAMPO_SP_DSO_ELF_FILE:
		if (!e->has_file_offset || e->file_offset == UINT64_MAX)
			return addr - map->start + e->min_vaddr;
		return addr - map->start + map->pgoff - e->file_offset + e->min_vaddr;
	case SAMPO_SP_DSO_DEX_FILE:
		return addr - map->start + map->pgoff;
	case SAMPO_SP_DSO_KERNEL_MODULE:
		return addr - map->start - (e->has_file_offset ? e->file_offset : 0) + e->min_vaddr;
	default:
		return addr;
	}
}
