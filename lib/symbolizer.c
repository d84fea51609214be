// SPDX-License-Identifier: LGPL-2.1
/*
 * symbolizer.c - which symbol a sampled address of a map is, using only
 * files whose build-id is the recorded one.
 *
 * Two tables:
 *
 *	sources  one per (kind, name, recorded build-id): the file chosen for it
 *	         and its symbol table, loaded once; kinds: user ELF (or a JIT
 *	         perf map), kernel (vmlinux or kallsyms), module (.ko placed by
 *	         section), and the cached kallsyms snapshot kept for modules
 *	dsos     one per machine DSO seen by __find(): its source and, for the
 *	         kernel, the relocation between sampled and table addresses
 *
 * Module symbol tables are placed by the file's section maps (absolute
 * addresses) or by redoing the loader's layout from 0 (looked up at
 * address - map start); see docs/kernel-symbols.md.
 *
 * A source is PENDING, then LOADING (by one thread), then DONE (symtab or
 * NULL) and never changes again. When the file has a build-id table, its
 * first MAX_PRELOAD_SOURCES files (one source per identity, however many
 * entries name it) become sources at __new() and up to two threads load them
 * while the caller reads records; __find() loads a source itself when nobody has
 * started it, or waits for the thread that has. Loaders read only the
 * symbolizer's immutable configuration and write only their source; the
 * machine and its DSOs are touched by the caller's thread alone. Messages
 * made while loading are kept in the source and logged by the caller's
 * thread the first time the source is used, so warnings come out in a
 * deterministic order and only for DSOs that have samples.
 *
 * Kernel tables keep the source's own addresses (vmlinux link-time, or the
 * kallsyms snapshot's boot); a sampled address becomes a table address by
 * subtracting delta = recorded _text - source _text (perf-data-format.md
 * 8.2). The order in which kernel sources are tried is in
 * docs/kernel-symbols.md.
 *
 * Files: this one keeps the build-id table, the per-DSO binding and the
 * lookups; lib/symbolizer-loader.c the sources and the loader threads;
 * lib/symbolizer-guest.c the guests' children; the loaders that choose and
 * load a source's file are lib/symbolizer-user.c (user DSOs, [vdso], JIT
 * perf maps), lib/symbolizer-kernel.c (vmlinux, kallsyms) and
 * lib/symbolizer-module.c (modules, with the module lookups of the caller's
 * thread); the body they share is lib/internal/symbolizer.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/buildid.h>
#include <sampo/buildid-cache.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/machine.h>
#include <sampo/modsections.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>
#include "internal/debuginfod.h"
#include "internal/hash.h"
#include "internal/log.h"
#include "internal/machine.h"
#include "internal/modsections.h"
#include "internal/kmodule.h"
#include "internal/path.h"
#include "internal/symbol.h"
#include "internal/symbolizer.h"
#include "internal/util.h"
#include "internal/opts.h"

/* ---- messages ------------------------------------------------------------------------------ */

void sampo_symbolizer__bid_hex(const struct sampo_build_id *bid, char *hex)
{
	if (!bid->size || sampo_build_id__to_hex(bid, hex, SAMPO_BUILD_ID_HEX_SIZE) < 0)
		strcpy(hex, "(none)");
}

/*
 * @a/@b; NULL when out of memory, or when @b (a recorded name) would climb
 * out of @a (see internal/path.h).
 */
char *sampo_symbolizer__path_join(const char *a, const char *b)
{
	char *out;

	if (!sampo_path__is_clean(b))
		return NULL;
	while (*b == '/')
		b++;
	if (asprintf(&out, "%s/%s", a, b) < 0)
		return NULL;
	return out;
}

bool sampo_symbolizer__file_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* ---- checking and loading candidate files (for the loaders) ------------------------------ */

enum bid_check sampo_symbolizer__check_elf_bid(const struct sampo_sym_src *src, const char *path,
					       struct sampo_build_id *found)
{
	int err;

	memset(found, 0, sizeof(*found));
	err = sampo_build_id__from_elf(path, found);
	if (!src->bid.size)
		return BID_NOT_RECORDED;
	if (err == -ENOENT)
		return BID_MISMATCH;
	if (err)
		return BID_UNREADABLE;
	return sampo_build_id__equal(found, &src->bid) ? BID_MATCH : BID_MISMATCH;
}

void sampo_symbolizer__note_tried(struct sampo_strbuf *tried, const char *path,
				  const char *what, const struct sampo_build_id *found)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE];

	if (found && found->size) {
		sampo_symbolizer__bid_hex(found, hex);
		sampo_strbuf__addf(tried, "%s'%s' (build-id %s)", tried->len ? ", " : "", path,
				       hex);
	} else {
		sampo_strbuf__addf(tried, "%s'%s' (%s)", tried->len ? ", " : "", path, what);
	}
}

int sampo_symbolizer__load_elf(const struct sampo_symbolizer *s, const char *path,
			       struct sampo_symtab **ret, char *errbuf, size_t errbuf_sz)
{
	SAMPO_OPTS(sampo_symtab_elf_opts, eo, .no_demangle = s->no_demangle, .errbuf = errbuf,
		   .errbuf_sz = errbuf_sz);

	return sampo_symtab__load_elf(path, &eo, ret);
}

/* ---- the build-id table -------------------------------------------------------------------- */

bool sampo_symbolizer__is_kernel_mode(uint8_t cpumode)
{
	return cpumode == SAMPO_CPUMODE_KERNEL || cpumode == SAMPO_CPUMODE_GUEST_KERNEL;
}

static bool is_guest_mode(uint8_t cpumode)
{
	return cpumode == SAMPO_CPUMODE_GUEST_KERNEL || cpumode == SAMPO_CPUMODE_GUEST_USER;
}

/*
 * Is build-id table entry @e one of this symbolizer's machine? The host's
 * are those of the host cpumodes; a guest's, those of the guest cpumodes
 * with its pid (the default guest, pid 0, also takes the pids that have no
 * machine of their own, as perf's machines__find_guest() sends them there).
 */
static bool bid_of_machine(const struct sampo_symbolizer *s, const struct sampo_feat_build_id *e)
{
	int32_t pid;

	if (!s->guest)
		return !is_guest_mode(e->cpumode);
	if (!is_guest_mode(e->cpumode))
		return false;
	pid = sampo_machine__pid(s->machine);
	return e->pid == pid ||
	       (pid == 0 && !sampo_machine__find_guest(s->parent->machine, e->pid));
}

/*
 * The build-id table is searched by name (a user DSO's path, a module's path
 * or its module name) for every DSO bound: a hash of the first entry of
 * each (kind, name), built once, instead of a walk of the table per DSO
 * (120k entries took 40 s).
 */
static uint64_t bid_key_hash(enum bid_key_kind kind, const char *name)
{
	return hash_combine((uint64_t)kind, hash_str(name));
}

static int bid_index_add(struct sampo_symbolizer *s, enum bid_key_kind kind, const char *name,
			 size_t idx)
{
	struct sampo_hash_index *ix = &s->bid_ix;
	uint64_t h = bid_key_hash(kind, name);
	size_t j;

	if ((ix->nr + 1) * 2 > ix->cap && sampo_hash_index__grow(ix))
		return -ENOMEM;
	for (j = h & (ix->cap - 1); ix->slots[j]; j = (j + 1) & (ix->cap - 1)) {
		const struct sampo_sym_bid_key *k = &s->bid_keys[ix->slots[j] - 1];

		if (ix->hashes[j] == h && k->kind == kind && !strcmp(k->name, name))
			return 0; /* the first entry of a name is the one looked up */
	}
	if (sampo_array_grow((void **)&s->bid_keys, &s->bid_keys_cap, s->nr_bid_keys + 1,
			     sizeof(*s->bid_keys)))
		return -ENOMEM;
	s->bid_keys[s->nr_bid_keys] = (struct sampo_sym_bid_key){ kind, name, idx };
	ix->slots[j] = (uint32_t)++s->nr_bid_keys;
	ix->hashes[j] = h;
	ix->nr++;
	return 0;
}

static int bid_index(struct sampo_symbolizer *s)
{
	for (size_t i = 0; i < s->nr_bids; i++) {
		struct sampo_sym_bid *b = &s->bids[i];
		int err = 0;

		if (!sampo_symbolizer__is_kernel_mode(b->cpumode))
			err = bid_index_add(s, BID_KEY_USER, b->name, i);
		if (b->kmod) {
			b->modname = sampo_module__name(b->name);
			err = err ?: bid_index_add(s, BID_KEY_KMOD_PATH, b->name, i);
			if (b->modname)
				err = err ?: bid_index_add(s, BID_KEY_KMOD_NAME, b->modname, i);
		}
		if (err)
			return err;
	}
	return 0;
}

const struct sampo_sym_bid *sampo_symbolizer__bid_find(const struct sampo_symbolizer *s,
						       enum bid_key_kind kind, const char *name)
{
	const struct sampo_hash_index *ix = &s->bid_ix;
	uint64_t h;

	if (!ix->cap)
		return NULL;
	h = bid_key_hash(kind, name);
	for (size_t j = h & (ix->cap - 1); ix->slots[j]; j = (j + 1) & (ix->cap - 1)) {
		const struct sampo_sym_bid_key *k = &s->bid_keys[ix->slots[j] - 1];

		if (ix->hashes[j] == h && k->kind == kind && !strcmp(k->name, name))
			return &s->bids[k->idx];
	}
	return NULL;
}

int sampo_symbolizer__copy_build_ids(struct sampo_symbolizer *s, const struct sampo_features *f)
{
	if (!f || !sampo_features__has(f, SAMPO_FEAT_BUILD_ID) || !f->nr_build_ids)
		return 0;
	s->bids = calloc(f->nr_build_ids, sizeof(*s->bids));
	if (!s->bids)
		return -ENOMEM;
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		const struct sampo_feat_build_id *e = &f->build_ids[i];
		struct sampo_sym_bid *b = &s->bids[s->nr_bids];

		if (!e->filename || !e->size || e->size > SAMPO_BUILD_ID_SIZE ||
		    !bid_of_machine(s, e))
			continue;
		b->name = strdup(e->filename);
		if (!b->name)
			return -ENOMEM;
		b->cpumode = e->cpumode;
		memcpy(b->bid.data, e->build_id, e->size);
		b->bid.size = e->size;
		b->kmod = sampo_symbolizer__is_kernel_mode(e->cpumode) &&
			  sampo_kmod__is_module(e->filename);
		s->nr_bids++;
	}
	/* the kernel: by cpumode and not a module, whatever its name (the machine's own only) */
	for (size_t i = 0; i < s->nr_bids && !s->kernel_bid; i++) {
		if (sampo_symbolizer__is_kernel_mode(s->bids[i].cpumode) && !s->bids[i].kmod)
			s->kernel_bid = &s->bids[i];
	}
	return bid_index(s);
}

static const struct sampo_sym_bid *user_bid(const struct sampo_symbolizer *s, const char *name)
{
	return sampo_symbolizer__bid_find(s, BID_KEY_USER, name);
}

/* ---- public API ---------------------------------------------------------------------------- */

int sampo_symbolizer__dup_opt(char **dst, const char *src)
{
	if (!src || !*src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

struct sampo_symbolizer *sampo_symbolizer__alloc(struct sampo_machine *machine)
{
	struct sampo_symbolizer *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->machine = machine;
	s->kname = "kernel";
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	pthread_mutex_init(&s->mod_lock, NULL);
	return s;
}

static int check_readable(const char *path, const char *what)
{
	if (path && access(path, R_OK)) {
		int err = -errno;

		pr_warn("cannot read %s '%s': %s\n", what, path, strerror(errno));
		return err;
	}
	return 0;
}

int sampo_symbolizer__new(struct sampo_machine *machine, const struct sampo_features *features,
			  const struct sampo_symbolizer_opts *opts, struct sampo_symbolizer **ret)
{
	struct sampo_symbolizer *s;
	int err;

	if (!machine || !OPTS_VALID(opts, sampo_symbolizer_opts))
		return -EINVAL;
	s = sampo_symbolizer__alloc(machine);
	if (!s)
		return -ENOMEM;
	s->features = features;
	s->force = OPTS_GET(opts, force, false);
	s->no_demangle = OPTS_GET(opts, no_demangle, false);
	s->modsecs = OPTS_GET(opts, module_sections, NULL);
	err = sampo_symbolizer__dup_opt(&s->symfs, OPTS_GET(opts, symfs, NULL));
	if (!err)
		err = sampo_symbolizer__dup_opt(&s->guest_vmlinux,
						OPTS_GET(opts, guest_vmlinux, NULL));
	if (!err)
		err = sampo_symbolizer__dup_opt(&s->guest_kallsyms,
						OPTS_GET(opts, guest_kallsyms, NULL));
	if (!err)
		err = sampo_symbolizer__dup_opt(&s->guestmount, OPTS_GET(opts, guestmount, NULL));
	if (!err)
		err = sampo_symbolizer__dup_opt(&s->vmlinux, OPTS_GET(opts, vmlinux, NULL));
	if (!err)
		err = sampo_symbolizer__dup_opt(&s->kallsyms, OPTS_GET(opts, kallsyms, NULL));
	if (!err)
		err = sampo_symbolizer__dup_opt(
			&s->live_root, OPTS_GET(opts, live_root, NULL) ? opts->live_root : "/");
	if (!err && !s->live_root)
		err = sampo_symbolizer__dup_opt(&s->live_root, "/");
	if (!err && features && sampo_features__has(features, SAMPO_FEAT_OSRELEASE) &&
	    features->osrelease && *features->osrelease) {
		/* it names directories (/lib/modules/R, /boot/vmlinux-R): "../../.." must not */
		if (sampo_path__is_name(features->osrelease))
			err = sampo_symbolizer__dup_opt(&s->osrelease, features->osrelease);
		else
			pr_warn("the recorded OS release is not a plain name (it has '/', '..' or "
				"control characters): the kernel's files are not looked up by it\n");
	}
	s->embedded = OPTS_GET(opts, embedded_symbols, NULL);
	s->track_hits = OPTS_GET(opts, track_hits, false);
	if (!err && features && sampo_features__has(features, SAMPO_FEAT_ARCH))
		s->e_machine = sampo_symbolizer__arch_machine(features->arch);
	if (!err)
		err = sampo_debuginfod__new(opts, &s->dbgd);
	if (!err && features && sampo_features__has(features, SAMPO_FEAT_ARCH) && features->arch &&
	    *features->arch)
		err = sampo_symbolizer__dup_opt(&s->arch, features->arch);
	if (err)
		goto out_delete;
	s->buildid_dir = sampo_buildid_cache__dir(OPTS_GET(opts, buildid_dir, NULL));

	err = check_readable(s->vmlinux, "vmlinux");
	if (!err)
		err = check_readable(s->kallsyms, "kallsyms");
	if (!err)
		err = check_readable(s->guest_vmlinux, "guest vmlinux");
	if (!err)
		err = check_readable(s->guest_kallsyms, "guest kallsyms");
	if (!err)
		err = check_readable(s->guestmount, "guest mount directory");
	if (!err)
		err = sampo_symbolizer__copy_build_ids(s, features);
	if (err)
		goto out_delete;
	if (!OPTS_GET(opts, no_preload, false) && s->nr_bids) {
		err = sampo_symbolizer__start_preload(s);
		if (err)
			goto out_delete;
	}
	*ret = s;
	return 0;

out_delete:
	sampo_symbolizer__delete(s);
	return err;
}

void sampo_symbolizer__delete(struct sampo_symbolizer *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_mutex_unlock(&s->lock);
	for (size_t i = 0; i < s->nr_threads; i++)
		pthread_join(s->threads[i], NULL);
	while (s->guests) {
		struct sampo_symbolizer *g = s->guests;

		s->guests = g->gnext;
		sampo_symbolizer__delete(g);
	}
	free(s->kname_buf);
	if (!s->guest)
		sampo_debuginfod__delete(s->dbgd);
	free(s->guest_vmlinux);
	free(s->guest_kallsyms);
	free(s->guestmount);

	for (size_t b = 0; b < s->ents_cap; b++) {
		struct sampo_sym_dso *e = s->ents[b], *next;

		for (; e; e = next) {
			next = e->next;
			sampo_dso__put(e->dso);
			sampo_symtab__delete(e->own);
			free(e->module);
			free(e);
		}
	}
	free(s->ents);
	free(s->src_arr);
	sampo_hash_index__release(&s->src_ix);
	free(s->rep_names);
	free(s->rep_dsos);
	sampo_hash_index__release(&s->rep_name_ix);
	sampo_hash_index__release(&s->rep_dso_ix);
	while (s->sources) {
		struct sampo_sym_src *next = s->sources->next;

		sampo_symbolizer__src_free(s->sources);
		s->sources = next;
	}
	for (size_t i = 0; i < s->nr_bids; i++) {
		free(s->bids[i].name);
		free(s->bids[i].modname);
	}
	free(s->bids);
	free(s->bid_keys);
	sampo_hash_index__release(&s->bid_ix);
	free(s->preload);
	free(s->symfs);
	free(s->vmlinux);
	free(s->kallsyms);
	free(s->buildid_dir);
	free(s->live_root);
	free(s->osrelease);
	free(s->arch);
	sampo_module_files__free(s->mod_files, s->nr_mod_files);
	pthread_mutex_destroy(&s->mod_lock);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
}

/* ---- per-DSO binding ----------------------------------------------------------------------- */

static size_t ptr_hash(const void *p, size_t cap)
{
	return (size_t)(((uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL) >> 29) & (cap - 1);
}

static int ents_grow(struct sampo_symbolizer *s)
{
	size_t ncap = s->ents_cap ? s->ents_cap * 2 : 64;
	struct sampo_sym_dso **nt = calloc(ncap, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (size_t b = 0; b < s->ents_cap; b++) {
		struct sampo_sym_dso *e = s->ents[b], *next;

		for (; e; e = next) {
			size_t h = ptr_hash(e->dso, ncap);

			next = e->next;
			e->next = nt[h];
			nt[h] = e;
		}
	}
	free(s->ents);
	s->ents = nt;
	s->ents_cap = ncap;
	return 0;
}

static bool is_kernel_dso(const struct sampo_machine *m, const struct sampo_dso *dso)
{
	const struct sampo_map *kmap = sampo_machine__kernel_map(m);

	return kmap && sampo_map__dso(kmap) == dso;
}

/* The recorded build-id of a DSO: its MMAP2's, else its build-id table entry's. */
static void dso_recorded_bid(const struct sampo_symbolizer *s, const struct sampo_dso *dso,
			     bool kernel, struct sampo_build_id *ret)
{
	size_t size = 0;
	const uint8_t *b = sampo_dso__build_id(dso, &size);

	memset(ret, 0, sizeof(*ret));
	if (b && size && size <= SAMPO_BUILD_ID_SIZE) {
		memcpy(ret->data, b, size);
		ret->size = size;
		return;
	}
	if (kernel) {
		if (s->kernel_bid)
			*ret = s->kernel_bid->bid;
		return;
	}
	const struct sampo_sym_bid *fb = user_bid(s, sampo_dso__long_name(dso));

	if (fb)
		*ret = fb->bid;
}

static bool same_file_id(const struct sampo_dso_id *a, const struct sampo_dso_id *b)
{
	return a->maj == b->maj && a->min == b->min && a->ino == b->ino &&
	       a->ino_generation == b->ino_generation;
}

static bool file_id_known(const struct sampo_dso_id *id)
{
	return id->maj || id->min || id->ino || id->ino_generation;
}

static struct sampo_sym_dso *ent_lookup(struct sampo_symbolizer *s, const struct sampo_dso *dso);

/*
 * A file replaced while recording, with no build-id in its MMAP2s: the
 * build-id table (written at the end) describes the newest version only, so
 * the older DSOs of that name get no symbols. Checked when a DSO is first
 * used: it is stale if a DSO of the same name and another inode came after
 * it; and a newer one makes the older one bound so far stale.
 *
 * The machine's DSOs (a list that only grows) are scanned once, in order,
 * into one record per name: the sequence number and identity of its last
 * version, and the last sequence number of a version with another identity.
 * A DSO at sequence i with identity id is stale when id is not the last
 * identity and i is not the last, or when another identity came after i;
 * each check is a hash lookup, whatever the number of DSOs or versions.
 * Of the DSOs of a name bound so far, at most one is not stale (live): a
 * newer one binding marks it.
 */
static bool rep_eligible(const struct sampo_dso *d)
{
	return !d->build_id_size && file_id_known(&d->id);
}

static uint64_t rep_ptr_hash(const void *p)
{
	return hash_mix64((uint64_t)(uintptr_t)p);
}

/* The record of @name, made when @create; NULL when missing or out of memory. */
static struct rep_name *rep_name_find(struct sampo_symbolizer *s, const char *name, bool create)
{
	struct sampo_hash_index *ix = &s->rep_name_ix;
	uint64_t h = hash_mix64(hash_str(name));
	size_t j;

	if (create && (ix->nr + 1) * 2 > ix->cap && sampo_hash_index__grow(ix))
		return NULL;
	if (!ix->cap)
		return NULL;
	for (j = h & (ix->cap - 1); ix->slots[j]; j = (j + 1) & (ix->cap - 1)) {
		if (ix->hashes[j] == h && !strcmp(s->rep_names[ix->slots[j] - 1].name, name))
			return &s->rep_names[ix->slots[j] - 1];
	}
	if (!create || sampo_array_grow((void **)&s->rep_names, &s->rep_names_cap,
					s->nr_rep_names + 1, sizeof(*s->rep_names)))
		return NULL;
	memset(&s->rep_names[s->nr_rep_names], 0, sizeof(*s->rep_names));
	s->rep_names[s->nr_rep_names].name = name;
	ix->slots[j] = (uint32_t)++s->nr_rep_names;
	ix->hashes[j] = h;
	ix->nr++;
	return &s->rep_names[s->nr_rep_names - 1];
}

/* The sequence number of eligible DSO @dso (0: not scanned). */
static uint64_t rep_dso_seq(const struct sampo_symbolizer *s, const struct sampo_dso *dso)
{
	const struct sampo_hash_index *ix = &s->rep_dso_ix;
	uint64_t h = rep_ptr_hash(dso);

	if (!ix->cap)
		return 0;
	for (size_t j = h & (ix->cap - 1); ix->slots[j]; j = (j + 1) & (ix->cap - 1)) {
		if (ix->hashes[j] == h && s->rep_dsos[ix->slots[j] - 1] == dso)
			return ix->slots[j];
	}
	return 0;
}

/* Scan the DSOs the machine made since the last call. */
static int rep_scan(struct sampo_symbolizer *s)
{
	const struct sampo_dso *d = s->rep_cursor ? s->rep_cursor->lnext : s->machine->dso_list;

	for (; d; d = d->lnext) {
		struct sampo_hash_index *ix = &s->rep_dso_ix;
		struct rep_name *r;
		uint64_t h = rep_ptr_hash(d), seq;
		size_t j;

		s->rep_cursor = d;
		if (!rep_eligible(d))
			continue;
		r = rep_name_find(s, d->long_name, true);
		if (!r || ((ix->nr + 1) * 2 > ix->cap && sampo_hash_index__grow(ix)) ||
		    sampo_array_grow((void **)&s->rep_dsos, &s->rep_dsos_cap, s->nr_rep_dsos + 1,
				     sizeof(*s->rep_dsos)))
			return -ENOMEM;
		s->rep_dsos[s->nr_rep_dsos] = d;
		seq = ++s->nr_rep_dsos;
		for (j = h & (ix->cap - 1); ix->slots[j]; j = (j + 1) & (ix->cap - 1))
			;
		ix->slots[j] = (uint32_t)seq;
		ix->hashes[j] = h;
		ix->nr++;
		if (r->last_seq && !same_file_id(&r->last_id, &d->id))
			r->lastdiff_seq = r->last_seq;
		r->last_seq = seq;
		r->last_id = d->id;
	}
	return 0;
}

static bool dso_replaced_later(struct sampo_symbolizer *s, struct sampo_sym_dso *e)
{
	const struct sampo_dso *dso = e->dso;
	struct rep_name *r;
	uint64_t seq;
	bool stale;

	if (!rep_eligible(dso) || rep_scan(s))
		return false;
	r = rep_name_find(s, dso->long_name, false);
	seq = rep_dso_seq(s, dso);
	if (!r || !seq)
		return false;
	stale = (seq < r->last_seq && !same_file_id(&r->last_id, &dso->id)) ||
		r->lastdiff_seq > seq;
	if (r->live && rep_dso_seq(s, r->live->dso) < seq &&
	    !same_file_id(&r->live->dso->id, &dso->id)) {
		r->live->stale = true;
		r->live = NULL;
	}
	if (stale) {
		/* once per name: a file replaced 200k times is one warning, not 200k */
		if (!r->warned)
			pr_warn("'%s' (inode %" PRIu64 ") was replaced while recording and no "
				"build-id tells the versions apart: its samples stay unresolved\n",
				dso->long_name, dso->id.ino);
		r->warned = true;
	} else {
		r->live = e;
	}
	return stale;
}

static int ent_bind(struct sampo_symbolizer *s, struct sampo_sym_dso *e)
{
	struct sampo_dso *dso = e->dso;
	struct sampo_build_id bid;
	struct sampo_sym_src *src = NULL;

	if (is_kernel_dso(s->machine, dso)) {
		e->kind = ENT_KERNEL;
		dso_recorded_bid(s, dso, true, &bid);
		pthread_mutex_lock(&s->lock);
		src = sampo_symbolizer__src_findnew_locked(s, SRC_KERNEL, "[kernel.kallsyms]", &bid,
							   NULL);
		pthread_mutex_unlock(&s->lock);
	} else if (dso->is_ksymbol) {
		e->kind = ENT_BPF;
		return 0;
	} else if (dso->space == SAMPO_DSO_SPACE_KERNEL && dso->is_kmod) {
		e->kind = ENT_MODULE;
		e->module = sampo_module__name(dso->long_name);
		if (!e->module)
			return -ENOMEM;
		sampo_symbolizer__module_recorded_bid(s, dso, e->module, &bid);
		pthread_mutex_lock(&s->lock);
		src = sampo_symbolizer__src_findnew_locked(s, SRC_MODULE, e->module, &bid,
							   dso->long_name);
		pthread_mutex_unlock(&s->lock);
	} else if (dso->space == SAMPO_DSO_SPACE_USER) {
		const char *name = dso->long_name;

		/* simpleperf's tables name by path, whichever file it was (symbolizer-simpleperf.c) */
		if (!sampo_symbolizer__has_simpleperf_table(s, name) && dso_replaced_later(s, e)) {
			e->kind = ENT_NONE;
			e->stale = true; /* for sampo_symbolizer__provenance() */
			return 0;
		}
		if (!strcmp(name, "[vdso]") || name[0] == '/') {
			e->kind = ENT_USER;
			e->perf_map = sampo_symbolizer__is_perf_map(name);
			dso_recorded_bid(s, dso, false, &bid);
			pthread_mutex_lock(&s->lock);
			src = sampo_symbolizer__src_findnew_locked(s, SRC_USER, name, &bid, NULL);
			pthread_mutex_unlock(&s->lock);
		} else {
			e->kind = ENT_NONE;
			return 0;
		}
	} else {
		e->kind = ENT_NONE;
		return 0;
	}
	if (!src)
		return -ENOMEM;
	e->src = src;
	return 0;
}

static struct sampo_sym_src *kernel_src(struct sampo_symbolizer *s);

/*
 * The kernel's kallsyms source, when it was taken in the recording boot:
 * its _text is the recorded one (with KASLR, a sure sign; without, the best
 * there is). Such a snapshot places module symbols too.
 */
static bool same_boot(struct sampo_symbolizer *s, const struct sampo_sym_src *k)
{
	const char *ref_name;
	uint64_t ref_addr;

	return k->symtab && k->kallsyms && k->has_ref &&
	       sampo_machine__kernel_ref_reloc(s->machine, &ref_name, &ref_addr) &&
	       ref_addr == k->ref_addr;
}

struct sampo_sym_src *sampo_symbolizer__boot_kallsyms(struct sampo_symbolizer *s)
{
	struct sampo_sym_src *k = kernel_src(s), *ks;

	if (!k)
		return NULL;
	sampo_symbolizer__src_ensure(s, k);
	if (same_boot(s, k))
		return k;
	/* the kernel's symbols came from a vmlinux: the cached snapshot may still place modules */
	pthread_mutex_lock(&s->lock);
	ks = sampo_symbolizer__src_findnew_locked(s, SRC_KALLSYMS, "[kernel.kallsyms]", &k->bid,
						  NULL);
	pthread_mutex_unlock(&s->lock);
	if (!ks)
		return NULL;
	sampo_symbolizer__src_ensure(s, ks);
	return same_boot(s, ks) ? ks : NULL;
}

/* After the source is loaded: relocation and the checks that need the machine. */
static void ent_ready(struct sampo_symbolizer *s, struct sampo_sym_dso *e,
		      const struct sampo_map *map)
{
	struct sampo_sym_src *src = e->src;
	const char *ref_name;
	uint64_t ref_addr;

	e->ready = true;
	e->usable = src->symtab != NULL;
	if (e->kind == ENT_MODULE) {
		if (!e->usable)
			sampo_symbolizer__module_kallsyms_fallback(s, e, map);
		return;
	}
	if (!e->usable || e->kind == ENT_USER)
		return;
	if (src->sp) {
		e->delta = 0; /* simpleperf's table: the sampled addresses (symbolizer-simpleperf.c) */
		return;
	}

	if (sampo_machine__kernel_ref_reloc(s->machine, &ref_name, &ref_addr) && src->has_ref) {
		uint64_t own = src->ref_addr;

		/* the reference may be _stext in the map name */
		(void)sampo_symtab__kallsyms_ref(src->symtab, ref_name, &own);
		e->delta = ref_addr - own;
	} else {
		/*
		 * _text hidden at record time (kptr_restrict: pgoff 0), or a source
		 * without _text: no slide can be measured. Only the running
		 * kernel's own kallsyms can be right without one.
		 */
		e->delta = 0;
		if (!src->live && !s->force) {
			pr_warn("the recorded %s map gives no _text address (hidden at record "
				"time?): '%s' cannot be relocated, %s samples stay unresolved "
				"(--force uses it unrelocated)\n",
				s->kname, src->path, s->kname);
			e->usable = false;
			return;
		}
	}
	/* unverified sources: the text size must be the recorded one (_etext - _text) */
	if (!src->verified && src->has_ref && !s->force) {
		struct sampo_map *kmap = sampo_machine__kernel_map(s->machine);
		uint64_t etext;

		if (kmap && sampo_map__end(kmap) != UINT64_MAX &&
		    !sampo_symtab__kallsyms_ref(src->symtab, "_etext", &etext) &&
		    etext - src->ref_addr != sampo_map__end(kmap) - sampo_map__start(kmap)) {
			pr_warn("%s symbols of '%s' do not fit the recorded %s (text size "
				"%#" PRIx64 ", recorded %#" PRIx64 "): not used, %s samples stay "
				"unresolved\n",
				s->kname, src->path, s->kname, etext - src->ref_addr,
				sampo_map__end(kmap) - sampo_map__start(kmap), s->kname);
			e->usable = false;
		}
	}
}

static struct sampo_sym_dso *ent_lookup(struct sampo_symbolizer *s, const struct sampo_dso *dso)
{
	if (!s->ents_cap)
		return NULL;
	for (struct sampo_sym_dso *e = s->ents[ptr_hash(dso, s->ents_cap)]; e; e = e->next) {
		if (e->dso == dso)
			return e;
	}
	return NULL;
}

static struct sampo_sym_dso *ent_get(struct sampo_symbolizer *s, struct sampo_dso *dso)
{
	struct sampo_sym_dso *e = ent_lookup(s, dso);
	size_t h;

	if (e)
		return e;
	if ((!s->ents_cap || s->nr_ents >= s->ents_cap / 2) && ents_grow(s))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->dso = sampo_dso__get(dso);
	if (ent_bind(s, e)) {
		sampo_dso__put(e->dso);
		free(e->module);
		free(e);
		return NULL;
	}
	h = ptr_hash(dso, s->ents_cap);
	e->next = s->ents[h];
	s->ents[h] = e;
	s->nr_ents++;
	return e;
}

static const struct sampo_symbol *bpf_symbol(struct sampo_sym_dso *e, const struct sampo_map *map)
{
	if (!e->own) {
		struct sampo_symtab_builder b;
		const char *name = e->dso->short_name;

		sampo_symtab_builder__init(&b);
		if (!sampo_symtab_builder__add(&b, map->start, map->end - map->start, name,
					       strlen(name), SAMPO_SYMBOL_GLOBAL, SAMPO_SYMBOL_FUNC,
					       0))
			(void)sampo_symtab_builder__finish(&b, SAMPO_FIXUP_ELF, &e->own);
		sampo_symtab_builder__release(&b);
		if (!e->own)
			return NULL;
	}
	/* one DSO per ksymbol, so the table's only symbol is this map's */
	return sampo_symtab__nr(e->own) ? sampo_symtab__at(e->own, 0) : NULL;
}

/*
 * The symbol at @addr and the address it was looked up at in its table
 * (*@taddr); *@ret_s and *@ret_src: the symbolizer and source that answered.
 */
static const struct sampo_symbol *find_taddr_src(struct sampo_symbolizer *s, struct sampo_map *map,
						 uint64_t addr, uint64_t *taddr,
						 struct sampo_symbolizer **ret_s,
						 struct sampo_sym_src **ret_src)
{
	const struct sampo_symtab *st;
	struct sampo_sym_dso *e;
	const struct sampo_symbol *sym;
	const char *mod;

	if (!s || !map)
		return NULL;
	/* a guest's DSO: its own child symbolizer */
	s = sampo_symbolizer__findnew_machine(s, map->dso->machine_pid);
	if (!s)
		return NULL;
	*ret_s = s;
	e = ent_get(s, map->dso);
	if (!e)
		return NULL;
	switch (e->kind) {
	case ENT_NONE:
		return NULL;
	case ENT_BPF:
		*taddr = addr;
		return bpf_symbol(e, map);
	default:
		break;
	}
	/* anonymous memory has no file: do not even look for one (JIT perf maps aside) */
	if (e->kind == ENT_USER && map->identity && !e->perf_map)
		return NULL;
	if (!e->ready) {
		sampo_symbolizer__src_ensure(s, e->src);
		ent_ready(s, e, map);
	}
	if (!e->usable || e->stale)
		return NULL;
	st = e->src->symtab;
	*ret_src = e->ksrc ? e->ksrc : e->src;
	switch (e->kind) {
	case ENT_USER:
		if (e->src->sp) {
			*taddr = sampo_symbolizer__simpleperf_vaddr(e->src, map, addr);
			return sampo_symtab__find(st, *taddr);
		}
		if (e->src->absolute) {
			*taddr = addr;
		} else {
			if (map->identity ||
			    sampo_symtab__offset_to_vaddr(st, sampo_map__map_ip(map, addr), taddr))
				return NULL;
		}
		return sampo_symtab__find(st, *taddr);
	case ENT_KERNEL:
		*taddr = addr - e->delta;
		sym = sampo_symtab__find(st, *taddr);
		/* a kallsyms table also holds the modules: not the kernel's */
		if (sym && sampo_symtab__symbol_module(st, sym))
			return NULL;
		return sym;
	case ENT_MODULE:
		if (!e->ksrc) {
			if (e->src->sp)
				*taddr = sampo_symbolizer__simpleperf_vaddr(e->src, map, addr);
			else
				*taddr = e->src->relative ? addr - map->start : addr;
			return sampo_symtab__find(st, *taddr);
		}
		*taddr = addr;
		sym = sampo_symtab__find(e->ksrc->symtab, addr);
		/* a module's variable never names its code (kallsyms_names_code()) */
		if (!sym || sampo_symbol__type(sym) != SAMPO_SYMBOL_FUNC)
			return NULL;
		mod = sampo_symtab__symbol_module(e->ksrc->symtab, sym);
		return mod && !strcmp(mod, e->module) ? sym : NULL;
	default:
		return NULL;
	}
}

static const struct sampo_symbol *find_taddr(struct sampo_symbolizer *s, struct sampo_map *map,
					     uint64_t addr, uint64_t *taddr)
{
	struct sampo_symbolizer *owner = NULL;
	struct sampo_sym_src *src = NULL;
	const struct sampo_symbol *sym = find_taddr_src(s, map, addr, taddr, &owner, &src);

	if (sym && owner)
		sampo_symbolizer__mark_hit(owner, src, sym);
	return sym;
}

const struct sampo_symbol *sampo_symbolizer__find(struct sampo_symbolizer *s,
						  struct sampo_map *map, uint64_t addr)
{
	uint64_t taddr;

	return find_taddr(s, map, addr, &taddr);
}

const struct sampo_symbol *sampo_symbolizer__find_offset(struct sampo_symbolizer *s,
							 struct sampo_map *map, uint64_t addr,
							 uint64_t *ret_offset)
{
	uint64_t taddr = 0;
	const struct sampo_symbol *sym = find_taddr(s, map, addr, &taddr);

	if (sym && ret_offset)
		*ret_offset = taddr - sampo_symbol__start(sym);
	return sym;
}

uint64_t sampo_symbolizer__map_addr(struct sampo_symbolizer *s, struct sampo_map *map,
				    uint64_t addr)
{
	(void)s;
	/* the kernel map (and anonymous memory) map addresses to themselves */
	return map ? sampo_map__map_ip(map, addr) : addr;
}

/* The kernel's source (bound by build-id, as for the kernel map's DSO). */
static struct sampo_sym_src *kernel_src(struct sampo_symbolizer *s)
{
	struct sampo_map *kmap = sampo_machine__kernel_map(s->machine);
	struct sampo_build_id bid = { 0 };
	struct sampo_sym_src *src;

	if (kmap)
		dso_recorded_bid(s, kmap->dso, true, &bid);
	else if (s->kernel_bid)
		bid = s->kernel_bid->bid;
	pthread_mutex_lock(&s->lock);
	src = sampo_symbolizer__src_findnew_locked(s, SRC_KERNEL, "[kernel.kallsyms]", &bid, NULL);
	pthread_mutex_unlock(&s->lock);
	return src;
}

/* @a and @b name the same module ("hid-generic", "hid_generic": the kernel's '-' is '_') */
static bool same_module_name(const char *a, size_t alen, const char *b)
{
	size_t i;

	for (i = 0; i < alen && b[i]; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return false;
	}
	return i == alen && !b[i];
}

/* the machine has a kernel map of module @mod (a DSO "[mod]") */
static bool module_has_map(struct sampo_symbolizer *s, const char *mod)
{
	struct sampo_maps *kmaps = s->machine->kmaps;

	for (size_t i = 0; i < sampo_maps__nr(kmaps); i++) {
		const struct sampo_dso *dso = sampo_maps__at(kmaps, i)->dso;
		const char *name = dso ? dso->short_name : NULL;
		size_t len = name ? strlen(name) : 0;

		if (len > 2 && name[0] == '[' && name[len - 1] == ']' &&
		    same_module_name(name + 1, len - 2, mod))
			return true;
	}
	return false;
}

/*
 * A kallsyms snapshot's symbol for a code address no map covers: kallsyms
 * gives no sizes, so each symbol reaches to the next one, over what the
 * snapshot does not describe (a module loaded after it, an init section
 * freed before it). It names the address only if it is code (t, T, w, W:
 * never a variable, d, D, b, B) and, for a module's, when that module has no
 * recorded map: the address lies outside every map, so past the end of a
 * module that has one (issue 12.1: never a wrong name).
 */
static bool kallsyms_names_code(struct sampo_symbolizer *s, const struct sampo_symbol *sym,
				const char *mod)
{
	if (sampo_symbol__type(sym) != SAMPO_SYMBOL_FUNC)
		return false;
	return !mod || !module_has_map(s, mod);
}

const struct sampo_symbol *sampo_symbolizer__find_unmapped(struct sampo_symbolizer *s,
							   uint64_t addr, const char **ret_module)
{
	const struct sampo_symbol *sym;
	struct sampo_sym_src *k;
	const char *mod;

	struct sampo_map *kmap;

	if (ret_module)
		*ret_module = NULL;
	if (!s)
		return NULL;
	sym = sampo_symbolizer__find_by_section_map(s, addr, ret_module);
	if (sym)
		return sym;
	k = sampo_symbolizer__boot_kallsyms(s);
	sym = k ? sampo_symtab__find(k->symtab, addr) : NULL;
	mod = sym ? sampo_symtab__symbol_module(k->symtab, sym) : NULL;
	if (mod) {
		if (!kallsyms_names_code(s, sym, mod))
			return NULL;
		if (ret_module)
			*ret_module = mod;
		sampo_symbolizer__mark_hit(s, k, sym);
		return sym;
	}
	/*
	 * The kernel's own code past the recorded map (.init.text: start_kernel
	 * in the boot CPU's idle chain): perf stretches its kernel map to the
	 * last kernel symbol, so the kernel's table answers.
	 */
	kmap = sampo_machine__kernel_map(s->machine);
	return kmap ? sampo_symbolizer__find(s, kmap, addr) : NULL;
}

int sampo_symbolizer__dso_info(struct sampo_symbolizer *s, const struct sampo_dso *dso,
			       struct sampo_symbolizer_dso_info *info)
{
	struct sampo_sym_dso *e;

	s = s ? sampo_symbolizer__findnew_machine(s, dso->machine_pid) : NULL;
	e = s ? ent_lookup(s, dso) : NULL;
	if (!e)
		return -ENOENT;
	memset(info, 0, sizeof(*info));
	if (e->kind == ENT_BPF) {
		info->placement = SAMPO_PLACED_SYNTHETIC;
		return 0;
	}
	if (!e->ready || !e->usable || e->stale)
		return 0;
	if (e->ksrc) {
		info->path = e->ksrc->path;
		info->verified = e->ksrc->verified;
		info->placement = SAMPO_PLACED_KALLSYMS;
		return 0;
	}
	info->path = e->src->path;
	info->verified = e->src->verified;
	info->placement = e->src->placement;
	return 0;
}

int sampo_symbolizer__provenance(struct sampo_symbolizer *s, const struct sampo_dso *dso,
				 struct sampo_symbolizer_provenance *ret)
{
	const struct sampo_sym_src *src;
	struct sampo_sym_dso *e;

	s = s ? sampo_symbolizer__findnew_machine(s, dso->machine_pid) : NULL;
	e = s ? ent_lookup(s, dso) : NULL;
	if (!e)
		return -ENOENT;
	memset(ret, 0, sizeof(*ret));
	switch (e->kind) {
	case ENT_BPF:
		ret->origin = SAMPO_ORIGIN_KSYMBOL;
		return 0;
	case ENT_NONE:
		ret->missing = e->stale ? SAMPO_MISSING_REPLACED : SAMPO_MISSING_NO_FILE;
		return 0;
	default:
		break;
	}
	src = e->ksrc ? e->ksrc : e->src;
	ret->recorded = e->src->bid;
	if (!e->ready) {
		/* looked up, never loaded: anonymous memory (sampo_symbolizer__find()) */
		ret->missing = SAMPO_MISSING_NO_FILE;
		return 0;
	}
	if (e->stale) {
		ret->missing = SAMPO_MISSING_REPLACED;
		return 0;
	}
	ret->tried = e->src->tried;
	if (e->usable) {
		ret->origin = src->origin;
		ret->missing = src->missing;
		ret->path = src->path;
		ret->stripped = src->stripped;
		return 0;
	}
	if (e->src->symtab) {
		/* loaded, then refused by ent_ready(): the kernel's relocation */
		ret->path = e->src->path;
		ret->missing = SAMPO_MISSING_NOT_RELOCATABLE;
		return 0;
	}
	ret->missing = e->src->missing ? e->src->missing : SAMPO_MISSING_FILE;
	ret->path = e->src->found_path;
	ret->found = e->src->found_bid;
	return 0;
}
