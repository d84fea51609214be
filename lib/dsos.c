// SPDX-License-Identifier: LGPL-2.1
/*
 * dsos.c - the DSOs of a file as perf's session lists them, with build-ids
 * and hits (include/sampo/dsos.h): what perf buildid-list prints.
 *
 *	dsos ─┬─ machines[0]: the host ─ dsos[] in creation order
 *	      ├─ machines[1..]: guests, by increasing pid
 *	      └─ map_dsos: open addressing, machine map -> index in the host's dsos[]
 *
 * Invariants: machines[0] is the host (pid -1) and the guests follow in
 * increasing pid order, as perf's machines__fprintf_dsos_buildid() prints
 * them; a DSO's place in its list never changes (its index is kept in
 * map_dsos); map_dsos holds a reference on each map, so that a map pointer
 * stays unique while it is remembered.
 *
 * The DSO choices follow perf 6.1 (see dsos.h): map__new()'s for a user map,
 * dsos__find() by short name for modules and [vdso], machine__findnew_kernel
 * for the kernel. Module names follow <sampo/kmodule.h>.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/buildid.h>
#include <sampo/dsos.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/kmodule.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/sample.h>

#include "internal/util.h"

#define KERNEL_NAME "[kernel.kallsyms]"
#define HOST_PID    (-1)

/* perf's struct dso_id; all zero means "unknown" and matches any */
struct bl_dso_id {
	uint32_t maj, min;
	uint64_t ino, ino_generation;
};

/* One DSO as perf's session knows it. */
struct bl_dso {
	struct sampo_dsos_entry e; /* what the caller sees; its names are the two below */
	char *long_name;
	char *short_name;    /* basename, or "[name]" for modules */
	bool header_bid;     /* its build-id came from the build-id table */
	struct bl_dso_id id; /* user DSOs */
};

/* A user map of the machine and the DSO perf gives it (index in the host list). */
struct bl_map_dso {
	struct sampo_map *map; /* a reference, so that the pointer stays unique */
	size_t dso_idx;
};

/* The DSOs of one machine, in creation order (perf's dsos list). */
struct bl_machine {
	int32_t pid; /* -1 host, else a guest */
	struct bl_dso *dsos;
	size_t nr, cap;
};

struct sampo_dsos {
	struct sampo_machine *machine; /* host state from the records (borrowed) */
	struct bl_machine *machines;   /* [0] is the host, then guests by pid */
	size_t nr_machines;
	struct bl_map_dso *map_dsos; /* open addressing on the map pointer */
	size_t map_dsos_nr, map_dsos_cap;
	struct sampo_addr_location al;
};

/* ---- names -------------------------------------------------------------- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* the short name perf gives a kernel-space file, and whether it is a module */
static char *kmod_short_name(const char *path, bool *ret_kmod)
{
	char *name = NULL;

	*ret_kmod = sampo_kmod__is_module(path);
	if (!*ret_kmod)
		return strdup(base_name(path));
	if (sampo_kmod__name(path, &name))
		return NULL;
	return name;
}

/* ---- the DSO lists ------------------------------------------------------ */

/* guests stay sorted by pid after the host */
static struct bl_machine *bl_findnew_machine(struct sampo_dsos *ctx, int32_t pid)
{
	struct bl_machine *m;
	size_t at = ctx->nr_machines;

	for (size_t i = 0; i < ctx->nr_machines; i++) {
		if (ctx->machines[i].pid == pid)
			return &ctx->machines[i];
		if (i > 0 && pid != HOST_PID && ctx->machines[i].pid > pid &&
		    at == ctx->nr_machines)
			at = i;
	}
	m = realloc(ctx->machines, (ctx->nr_machines + 1) * sizeof(*m));
	if (!m)
		return NULL;
	ctx->machines = m;
	memmove(m + at + 1, m + at, (ctx->nr_machines - at) * sizeof(*m));
	ctx->nr_machines++;
	m = &ctx->machines[at];
	memset(m, 0, sizeof(*m));
	m->pid = pid;
	return m;
}

static struct bl_dso *bl_find_long(struct bl_machine *m, const char *long_name)
{
	for (size_t i = 0; i < m->nr; i++) {
		if (!strcmp(m->dsos[i].long_name, long_name))
			return &m->dsos[i];
	}
	return NULL;
}

static struct bl_dso *bl_find_short(struct bl_machine *m, const char *short_name)
{
	for (size_t i = 0; i < m->nr; i++) {
		if (!strcmp(m->dsos[i].short_name, short_name))
			return &m->dsos[i];
	}
	return NULL;
}

/* Append a DSO; @short_name NULL means the basename. Return: the DSO, or NULL (ENOMEM). */
static struct bl_dso *bl_add(struct bl_machine *m, const char *long_name, const char *short_name)
{
	struct bl_dso *d;

	if (m->nr == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;

		d = realloc(m->dsos, cap * sizeof(*d));
		if (!d)
			return NULL;
		m->dsos = d;
		m->cap = cap;
	}
	d = &m->dsos[m->nr];
	memset(d, 0, sizeof(*d));
	d->long_name = strdup(long_name);
	d->short_name = strdup(short_name ? short_name : base_name(long_name));
	if (!d->long_name || !d->short_name) {
		free(d->long_name);
		free(d->short_name);
		return NULL;
	}
	d->e.long_name = d->long_name;
	d->e.short_name = d->short_name;
	d->e.machine_pid = m->pid;
	m->nr++;
	return d;
}

static struct bl_dso *bl_findnew_long(struct bl_machine *m, const char *long_name)
{
	struct bl_dso *d = bl_find_long(m, long_name);

	return d ? d : bl_add(m, long_name, NULL);
}

/* The kernel: the first kernel-space DSO that is not a module, else "[kernel.kallsyms]". */
static struct bl_dso *bl_findnew_kernel(struct bl_machine *m)
{
	struct bl_dso *d;

	for (size_t i = 0; i < m->nr; i++) {
		if (m->dsos[i].e.kernel && !m->dsos[i].e.kmod)
			return &m->dsos[i];
	}
	d = bl_findnew_long(m, KERNEL_NAME);
	if (d)
		d->e.kernel = true;
	return d;
}

/* A module by its short name ("[xor]"); a new one is named @long_name. */
static struct bl_dso *bl_findnew_module(struct bl_machine *m, const char *short_name,
					const char *long_name)
{
	struct bl_dso *d = bl_find_short(m, short_name);

	if (!d) {
		d = bl_add(m, long_name, short_name);
		if (!d)
			return NULL;
		d->e.kernel = true;
		d->e.kmod = true;
	}
	return d;
}

static struct bl_dso *bl_findnew_user(struct bl_machine *m, const char *long_name)
{
	if (!strcmp(long_name, "[vdso]")) {
		struct bl_dso *d = bl_find_short(m, "[vdso]");

		return d ? d : bl_add(m, "[vdso]", NULL);
	}
	return bl_findnew_long(m, long_name);
}

static void bl_set_build_id(struct bl_dso *d, const uint8_t *bytes, size_t size)
{
	if (!size)
		return;
	if (size > SAMPO_BUILD_ID_SIZE)
		size = SAMPO_BUILD_ID_SIZE;
	memcpy(d->e.bid.data, bytes, size);
	d->e.bid.size = size;
}

static bool dso_id_empty(const struct bl_dso_id *id)
{
	return !id->maj && !id->min && !id->ino && !id->ino_generation;
}

static bool dso_id_match(const struct bl_dso_id *a, const struct bl_dso_id *b)
{
	if (dso_id_empty(a) || dso_id_empty(b))
		return true;
	/* perf: synthesized MMAP2s have ino_generation 0, so 0 matches any */
	return a->maj == b->maj && a->min == b->min && a->ino == b->ino &&
	       (!a->ino_generation || !b->ino_generation || a->ino_generation == b->ino_generation);
}

/*
 * perf's map__new() DSO choice for a user map: by name and id; a DSO found
 * without an id takes this one; none found: a new DSO, which takes the
 * build-id of the table's DSO of that name when the map brings none.
 */
static struct bl_dso *bl_findnew_user_id(struct bl_machine *m, const char *long_name,
					 const struct bl_dso_id *id, bool has_bid)
{
	size_t header_idx = SIZE_MAX; /* by index: bl_add() may move the array */
	struct bl_dso *d;

	if (!strcmp(long_name, "[vdso]"))
		return bl_findnew_user(m, long_name);
	for (size_t i = 0; i < m->nr; i++) {
		d = &m->dsos[i];
		if (strcmp(d->long_name, long_name))
			continue;
		if (header_idx == SIZE_MAX && d->header_bid)
			header_idx = i;
		if (!dso_id_match(id, &d->id))
			continue;
		if (dso_id_empty(&d->id))
			d->id = *id;
		return d;
	}
	d = bl_add(m, long_name, NULL);
	if (!d)
		return NULL;
	d->id = *id;
	if (!has_bid && header_idx != SIZE_MAX) {
		d->e.bid = m->dsos[header_idx].e.bid;
		d->header_bid = true;
	}
	return d;
}

/* ---- map -> DSO --------------------------------------------------------- */

static size_t ptr_slot(const void *p, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 17) & (cap - 1);
}

static int map_dsos_grow(struct sampo_dsos *ctx)
{
	size_t cap = ctx->map_dsos_cap ? 2 * ctx->map_dsos_cap : 256;
	struct bl_map_dso *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < ctx->map_dsos_cap; i++) {
		struct bl_map_dso *e = &ctx->map_dsos[i];
		size_t j;

		if (!e->map)
			continue;
		for (j = ptr_slot(e->map, cap); t[j].map; j = (j + 1) & (cap - 1))
			;
		t[j] = *e;
	}
	free(ctx->map_dsos);
	ctx->map_dsos = t;
	ctx->map_dsos_cap = cap;
	return 0;
}

static int map_dsos_set(struct sampo_dsos *ctx, struct sampo_map *map, size_t dso_idx)
{
	size_t j;

	if (2 * (ctx->map_dsos_nr + 1) > ctx->map_dsos_cap && map_dsos_grow(ctx))
		return -ENOMEM;
	for (j = ptr_slot(map, ctx->map_dsos_cap); ctx->map_dsos[j].map;
	     j = (j + 1) & (ctx->map_dsos_cap - 1)) {
		if (ctx->map_dsos[j].map == map) {
			ctx->map_dsos[j].dso_idx = dso_idx;
			return 0;
		}
	}
	ctx->map_dsos[j].map = sampo_map__get(map);
	ctx->map_dsos[j].dso_idx = dso_idx;
	ctx->map_dsos_nr++;
	return 0;
}

static struct bl_dso *map_dsos_get(struct sampo_dsos *ctx, const struct sampo_map *map)
{
	if (!ctx->map_dsos_cap)
		return NULL;
	for (size_t j = ptr_slot(map, ctx->map_dsos_cap); ctx->map_dsos[j].map;
	     j = (j + 1) & (ctx->map_dsos_cap - 1)) {
		if (ctx->map_dsos[j].map == map)
			return &ctx->machines[0].dsos[ctx->map_dsos[j].dso_idx];
	}
	return NULL;
}

/*
 * One build-id table entry or HEADER_BUILD_ID record (perf's
 * __event_process_build_id()): the DSO named @filename in machine @pid,
 * kernel space for (guest) kernel cpumodes.
 */
static int bl_add_build_id(struct sampo_dsos *ctx, int32_t pid, uint8_t cpumode,
			   const char *filename, const uint8_t *bid, size_t size)
{
	struct bl_machine *m;
	struct bl_dso *d;
	bool kernel;

	switch (cpumode) {
	case SAMPO_CPUMODE_KERNEL:
	case SAMPO_CPUMODE_GUEST_KERNEL:
		kernel = true;
		break;
	case SAMPO_CPUMODE_USER:
	case SAMPO_CPUMODE_GUEST_USER:
		kernel = false;
		break;
	default:
		return 0; /* perf skips the entry */
	}
	m = bl_findnew_machine(ctx, pid);
	if (!m)
		return -ENOMEM;
	d = bl_findnew_long(m, filename);
	if (!d)
		return -ENOMEM;
	bl_set_build_id(d, bid, size);
	d->header_bid = true;
	if (kernel) {
		bool kmod;
		char *short_name = kmod_short_name(filename, &kmod);

		if (!short_name)
			return -ENOMEM;
		if (kmod) {
			free(d->short_name);
			d->short_name = short_name;
			d->e.short_name = short_name;
			d->e.kmod = true;
		} else {
			free(short_name);
		}
		d->e.kernel = true;
	}
	return 0;
}

/* A HEADER_BUILD_ID record (perf inject -b, pipe mode). */
static int bl_process_build_id_record(struct sampo_dsos *ctx, const union sampo_record *rec)
{
	const struct sampo_record_build_id *e = &rec->build_id;
	size_t max = rec->header.size - sizeof(*e);
	size_t size = SAMPO_BUILD_ID_SIZE;
	char *name;
	int err;

	if (rec->header.size <= sizeof(*e))
		return 0;
	if (e->header.misc & SAMPO_MISC_BUILD_ID_SIZE)
		size = e->build_id[20] <= SAMPO_BUILD_ID_SIZE ? e->build_id[20] :
								SAMPO_BUILD_ID_SIZE;
	name = strndup(e->filename, max);
	if (!name)
		return -ENOMEM;
	err = bl_add_build_id(ctx, e->pid, e->header.misc & SAMPO_MISC_CPUMODE_MASK, name,
			      e->build_id, size);
	free(name);
	return err;
}

/* ---- records ------------------------------------------------------------ */

/*
 * After the machine took an MMAP/MMAP2: the DSO perf creates for it, at the
 * place perf creates it in the list, with the MMAP2's build-id.
 */
static int bl_process_mmap(struct sampo_dsos *ctx, const struct sampo_event *ev)
{
	const union sampo_record *rec = ev->record;
	bool is_mmap2 = rec->header.type == SAMPO_RECORD_MMAP2;
	const char *filename = is_mmap2 ? rec->mmap2.filename : rec->mmap.filename;
	uint64_t start = is_mmap2 ? rec->mmap2.start : rec->mmap.start;
	const uint8_t *bid = NULL;
	size_t bid_size = 0;
	struct bl_machine *host = &ctx->machines[0];
	struct bl_dso *d = NULL;
	uint8_t cpumode = ev->sample.cpumode;

	if (is_mmap2 && (rec->header.misc & SAMPO_MISC_MMAP_BUILD_ID)) {
		bid = rec->mmap2.build_id;
		bid_size = rec->mmap2.build_id_size;
	}
	if (cpumode == SAMPO_CPUMODE_KERNEL || cpumode == SAMPO_CPUMODE_GUEST_KERNEL) {
		bool is_kernel = !strncmp(filename, KERNEL_NAME, strlen(KERNEL_NAME) - 1);

		if (filename[0] == '/' || (!is_kernel && filename[0] == '[')) {
			bool kmod;
			char *short_name = kmod_short_name(filename, &kmod);

			if (!short_name)
				return -ENOMEM;
			d = bl_findnew_module(host, short_name, filename);
			free(short_name);
		} else if (is_kernel) {
			d = bl_findnew_kernel(host);
		} else {
			return 0;
		}
	} else {
		struct sampo_thread *t;
		int32_t pid = (int32_t)(is_mmap2 ? rec->mmap2.pid : rec->mmap.pid);
		int32_t tid = (int32_t)(is_mmap2 ? rec->mmap2.tid : rec->mmap.tid);
		/* perf takes these fields even from a build-id MMAP2 (they overlay the build-id) */
		struct bl_dso_id id = { 0 };
		struct sampo_map *map;

		if (is_mmap2) {
			id = (struct bl_dso_id){ rec->mmap2.maj, rec->mmap2.min, rec->mmap2.ino,
						 rec->mmap2.ino_generation };
		}
		t = sampo_machine__find_thread(ctx->machine, pid, tid);
		if (!t)
			return 0;
		map = sampo_machine__find_map(ctx->machine, t, SAMPO_CPUMODE_USER, start, &ctx->al);
		sampo_thread__put(t);
		if (!map)
			return 0;
		d = bl_findnew_user_id(host, sampo_dso__long_name(sampo_map__dso(map)), &id,
				       bid_size != 0);
		if (!d)
			return -ENOMEM;
		bl_set_build_id(d, bid, bid_size);
		return map_dsos_set(ctx, map, (size_t)(d - host->dsos));
	}
	if (!d)
		return -ENOMEM;
	bl_set_build_id(d, bid, bid_size);
	return 0;
}

/* perf's build_id__mark_dso_hit(): the DSO of the map holding the sample's ip */
static int bl_process_sample(struct sampo_dsos *ctx, const struct sampo_event *ev)
{
	struct bl_machine *host = &ctx->machines[0];
	struct sampo_map *kmap = sampo_machine__kernel_map(ctx->machine);
	struct sampo_dso *dso;
	struct bl_dso *d;
	int err;

	err = sampo_machine__resolve(ctx->machine, &ev->sample, &ctx->al);
	if (err)
		return err;
	if (!ctx->al.map)
		return 0;
	dso = sampo_map__dso(ctx->al.map);
	if (kmap && dso == sampo_map__dso(kmap)) {
		d = bl_findnew_kernel(host);
	} else if (sampo_dso__is_kernel(dso)) {
		d = bl_findnew_module(host, sampo_dso__short_name(dso), sampo_dso__long_name(dso));
	} else {
		d = map_dsos_get(ctx, ctx->al.map);
		if (!d)
			d = bl_findnew_user(host, sampo_dso__long_name(dso));
	}
	if (!d)
		return -ENOMEM;
	d->e.hit = true;
	return 0;
}

int sampo_dsos__process_event(struct sampo_dsos *ctx, const struct sampo_event *ev)
{
	switch (ev->record->header.type) {
	case SAMPO_RECORD_SAMPLE:
		return bl_process_sample(ctx, ev);
	case SAMPO_RECORD_MMAP:
	case SAMPO_RECORD_MMAP2:
		return bl_process_mmap(ctx, ev);
	case SAMPO_RECORD_HEADER_BUILD_ID:
		return bl_process_build_id_record(ctx, ev->record);
	default:
		return 0;
	}
}

int sampo_dsos__add_build_id(struct sampo_dsos *dsos, int32_t pid, uint8_t cpumode,
			     const char *filename, const uint8_t *bid, size_t size)
{
	return bl_add_build_id(dsos, pid, cpumode, filename, bid, size);
}

int sampo_dsos__add_build_ids(struct sampo_dsos *dsos, const struct sampo_features *f)
{
	int err = 0;

	if (!f || !sampo_features__has(f, SAMPO_FEAT_BUILD_ID))
		return 0;
	for (size_t i = 0; i < f->nr_build_ids && !err; i++) {
		const struct sampo_feat_build_id *e = &f->build_ids[i];

		err = bl_add_build_id(dsos, e->pid, e->cpumode, e->filename, e->build_id, e->size);
	}
	return err;
}

const struct sampo_dsos_entry *sampo_dsos__next(const struct sampo_dsos *dsos, size_t *iter)
{
	size_t at = *iter;

	for (size_t i = 0; i < dsos->nr_machines; i++) {
		if (at < dsos->machines[i].nr) {
			(*iter)++;
			return &dsos->machines[i].dsos[at].e;
		}
		at -= dsos->machines[i].nr;
	}
	return NULL;
}

int sampo_dsos__new(struct sampo_machine *machine, struct sampo_dsos **ret)
{
	struct sampo_dsos *dsos = calloc(1, sizeof(*dsos));

	if (!dsos)
		return -ENOMEM;
	dsos->machine = machine;
	if (!bl_findnew_machine(dsos, HOST_PID)) {
		free(dsos);
		return -ENOMEM;
	}
	*ret = dsos;
	return 0;
}

void sampo_dsos__delete(struct sampo_dsos *ctx)
{
	if (!ctx)
		return;
	sampo_addr_location__exit(&ctx->al);
	for (size_t i = 0; i < ctx->map_dsos_cap; i++)
		sampo_map__put(ctx->map_dsos[i].map);
	free(ctx->map_dsos);
	for (size_t i = 0; i < ctx->nr_machines; i++) {
		for (size_t j = 0; j < ctx->machines[i].nr; j++) {
			free(ctx->machines[i].dsos[j].long_name);
			free(ctx->machines[i].dsos[j].short_name);
		}
		free(ctx->machines[i].dsos);
	}
	free(ctx->machines);
	free(ctx);
}
