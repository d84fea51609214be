// SPDX-License-Identifier: LGPL-2.1
/*
 * symbolizer-module.c - kernel modules: the file of a module's source (the
 * build-id cache, the recorded path, SYMFS + it, then every NAME.ko* of
 * SYMFS/lib/modules/R, indexed once), read whatever its compression and
 * placed by the recorded section maps or by redoing the loader's layout
 * from 0 (then looked up at address - map start); and, for the caller's
 * thread, a module's recorded build-id, the kallsyms fallback of the
 * recording boot, and addresses outside every module map found by section
 * map. See docs/kernel-symbols.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/buildid.h>
#include <sampo/buildid-cache.h>
#include <sampo/machine.h>
#include <sampo/modsections.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>
#include "internal/log.h"
#include "internal/machine.h"
#include "internal/modsections.h"
#include "internal/kmodule.h"
#include "internal/path.h"
#include "internal/symbol.h"
#include "internal/symbolizer.h"
#include "internal/util.h"

/* The files under SYMFS/lib/modules/R that may be module @name, in index order. */
static void mod_index_build(struct sampo_symbolizer *s)
{
	pthread_mutex_lock(&s->mod_lock);
	if (!s->mod_index_built && s->osrelease) {
		char *dir;

		if (asprintf(&dir, "%s/lib/modules/%s", s->symfs ? s->symfs : "", s->osrelease) >=
		    0) {
			/* on -ENOMEM, what was found is kept: fewer candidates, never wrong ones */
			(void)sampo_module_files__walk(dir, &s->mod_files, &s->nr_mod_files);
			free(dir);
		}
	}
	s->mod_index_built = true;
	pthread_mutex_unlock(&s->mod_lock);
}

/*
 * One module candidate: read (decompress), check the build-id, then place
 * the sections: by the recorded section map, else by the loader's layout.
 */
static bool try_module_file(const struct sampo_symbolizer *s, struct sampo_sym_src *src,
			    const char *path, struct sampo_strbuf *tried, bool *mismatched)
{
	struct sampo_section_addr *layout = NULL;
	const struct sampo_section_addr *secs;
	struct sampo_build_id found = { 0 };
	size_t len, nr = 0;
	char errbuf[256] = "";
	bool match = false;
	void *image;
	int err;

	if (!sampo_symbolizer__file_exists(path)) {
		sampo_symbolizer__note_tried(tried, path, "not found", NULL);
		return false;
	}
	err = sampo_module__read_file(path, &image, &len);
	if (err) {
		sampo_symbolizer__note_tried(
			tried, path,
			err == -SAMPO_ERR_DECOMPRESS ? "does not decompress" : "cannot read", NULL);
		return false;
	}
	err = sampo_build_id__from_elf_mem(image, len, &found);
	if (src->bid.size) {
		match = !err && sampo_build_id__equal(&found, &src->bid);
		if (!match) {
			sampo_symbolizer__note_tried(tried, path, "no build-id", &found);
			sampo_symbolizer__note_found(s, src, path, &found, false);
			*mismatched = true;
			if (!s->force) {
				free(image);
				return false;
			}
		}
	}
	secs = sampo_module_sections__find(s->modsecs, src->bid.size ? &src->bid : &found,
					   src->name, &nr);
	if (secs) {
		src->placement = SAMPO_PLACED_SECTION_MAP;
	} else {
		err = sampo_module__layout(image, len, 0, &layout, &nr);
		if (err) {
			sampo_symbolizer__note_tried(tried, path, "not a kernel module", NULL);
			free(image);
			return false;
		}
		secs = layout;
		src->relative = true;
		src->placement = SAMPO_PLACED_LAYOUT;
	}
	SAMPO_OPTS(sampo_symtab_elf_opts, eo, .no_demangle = s->no_demangle, .no_debug_file = true,
		   .sections = secs, .nr_sections = nr, .errbuf = errbuf,
		   .errbuf_sz = sizeof(errbuf));
	err = sampo_symtab__load_elf_mem(image, len, path, &eo, &src->symtab);
	sampo_section_addrs__free(layout, layout ? nr : 0);
	free(image);
	if (err) {
		sampo_symbolizer__note_tried(tried, path, errbuf[0] ? errbuf : "cannot load", NULL);
		src->placement = SAMPO_PLACED_NONE;
		src->relative = false;
		return false;
	}
	src->path = strdup(path);
	src->verified = match;
	return true;
}

void sampo_symbolizer__load_module(struct sampo_symbolizer *s, struct sampo_sym_src *src)
{
	struct sampo_strbuf tried = { 0 };
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	bool mismatched = false, done = false;
	int origin = SAMPO_ORIGIN_NONE;
	char *path = NULL;

	if (sampo_symbolizer__load_simpleperf(s, src))
		return; /* a simpleperf recording's own table */
	if (src->bid.size && s->buildid_dir &&
	    !sampo_buildid_cache__lookup(s->buildid_dir, &src->bid, "elf", &path)) {
		done = try_module_file(s, src, path, &tried, &mismatched);
		origin = SAMPO_ORIGIN_BUILDID_CACHE;
		free(path);
		path = NULL;
	}
	if (!done && src->hint && src->hint[0] == '/') {
		if (!s->guest)
			done = try_module_file(s, src, src->hint, &tried, &mismatched);
		origin = SAMPO_ORIGIN_PATH;
		if (!done && s->symfs) {
			path = sampo_symbolizer__path_join(s->symfs, src->hint);
			if (path)
				done = try_module_file(s, src, path, &tried, &mismatched);
			origin = SAMPO_ORIGIN_SYMFS;
			free(path);
			path = NULL;
		}
	}
	if (!done) {
		mod_index_build(s);
		/* the index is complete and no longer changes once built */
		for (size_t i = 0; !done && i < s->nr_mod_files; i++) {
			if (!strcmp(s->mod_files[i].name, src->name) &&
			    (!src->hint || strcmp(s->mod_files[i].path, src->hint)))
				done = try_module_file(s, src, s->mod_files[i].path, &tried,
						       &mismatched);
		}
		if (!done && s->osrelease) {
			sampo_strbuf__addf(&tried, "%s%s/lib/modules/%s", tried.len ? ", " : "",
					       s->symfs ? s->symfs : "", s->osrelease);
		}
		origin = SAMPO_ORIGIN_MODULES_DIR;
	}
	if (!done && !s->guest) {
		done = sampo_symbolizer__load_embedded(s, src, &tried);
		origin = done ? SAMPO_ORIGIN_EMBEDDED : origin;
	}
	sampo_symbolizer__settle(src, done, origin, mismatched, &tried);
	sampo_symbolizer__bid_hex(&src->bid, hex);
	if (mismatched && (!done || s->force)) {
		if (asprintf(&src->warning, "module %s was recorded with build-id %s; %s: %s",
			     src->name, hex,
			     done ? "using a file with another build-id (--force)" :
				    "no file has it, its samples stay unresolved (--force "
				    "uses a file with another build-id all the same)",
			     tried.buf ? tried.buf : "") < 0)
			src->warning = NULL;
	} else if (!done) {
		if (asprintf(&src->debug, "no file for module %s (build-id %s): tried %s",
			     src->name, hex, tried.buf ? tried.buf : "nothing") < 0)
			src->debug = NULL;
	}
	sampo_strbuf__release(&tried);
}

/* A module's build-id: its MMAP2's, else the table entry of the same path or module name. */
void sampo_symbolizer__module_recorded_bid(const struct sampo_symbolizer *s,
					   const struct sampo_dso *dso, const char *modname,
					   struct sampo_build_id *ret)
{
	const struct sampo_sym_bid *fb;
	size_t size = 0;
	const uint8_t *b = sampo_dso__build_id(dso, &size);

	memset(ret, 0, sizeof(*ret));
	if (b && size && size <= SAMPO_BUILD_ID_SIZE) {
		memcpy(ret->data, b, size);
		ret->size = size;
		return;
	}
	fb = sampo_symbolizer__bid_find(s, BID_KEY_KMOD_PATH, dso->long_name);
	if (!fb)
		fb = sampo_symbolizer__bid_find(s, BID_KEY_KMOD_NAME, modname);
	if (fb) {
		*ret = fb->bid;
		return;
	}
	/* the section maps were keyed by the build-id the running module had */
	for (size_t i = 0; s->modsecs && i < s->modsecs->nr; i++) {
		if (!strcmp(s->modsecs->mods[i].name, modname)) {
			*ret = s->modsecs->mods[i].bid;
			return;
		}
	}
}

/* No .ko for a module: its symbols in a kallsyms snapshot of the recording boot, if they fit its map */
void sampo_symbolizer__module_kallsyms_fallback(struct sampo_symbolizer *s, struct sampo_sym_dso *e,
						const struct sampo_map *map)
{
	struct sampo_sym_src *k = sampo_symbolizer__boot_kallsyms(s);
	const struct sampo_symbol *sym;

	if (!k || !map)
		return;
	sym = sampo_symtab__find(k->symtab, map->start);
	if (!sym) {
		/* the first symbol of the module may start after the map's first byte */
		for (size_t i = 0; i < sampo_symtab__nr(k->symtab); i++) {
			const struct sampo_symbol *c = sampo_symtab__at(k->symtab, i);

			if (sampo_symbol__start(c) >= map->start &&
			    sampo_symbol__start(c) < map->end) {
				sym = c;
				break;
			}
		}
	}
	if (!sym || !sampo_symtab__symbol_module(k->symtab, sym) ||
	    strcmp(sampo_symtab__symbol_module(k->symtab, sym), e->module))
		return;
	e->ksrc = k;
	e->usable = true;
}

/*
 * With section maps, an address outside every module map (init code,
 * sections of 6.4+ kernels' other regions) belongs to the module with the
 * closest section start below it, if that module's .ko has a symbol there.
 */
const struct sampo_symbol *sampo_symbolizer__find_by_section_map(struct sampo_symbolizer *s,
								 uint64_t addr,
								 const char **ret_module)
{
	const struct modsec_module *best = NULL;
	const struct sampo_symbol *sym;
	uint64_t best_start = 0;
	struct sampo_sym_src *src;

	if (!s->modsecs)
		return NULL;
	for (size_t i = 0; i < s->modsecs->nr; i++) {
		const struct modsec_module *m = &s->modsecs->mods[i];

		for (size_t j = 0; j < m->nr; j++) {
			if (m->secs[j].addr <= addr && m->secs[j].addr >= best_start) {
				best = m;
				best_start = m->secs[j].addr;
			}
		}
	}
	if (!best)
		return NULL;
	pthread_mutex_lock(&s->lock);
	src = sampo_symbolizer__src_findnew_locked(s, SRC_MODULE, best->name, &best->bid, NULL);
	pthread_mutex_unlock(&s->lock);
	if (!src)
		return NULL;
	sampo_symbolizer__src_ensure(s, src);
	if (!src->symtab || src->relative)
		return NULL;
	sym = sampo_symtab__find(src->symtab, addr);
	if (sym && ret_module)
		*ret_module = src->name;
	sampo_symbolizer__mark_hit(s, src, sym);
	return sym;
}
