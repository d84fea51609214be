// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-buildid-list.c - `sampo buildid-list`: the build-ids of the DSOs a
 * perf.data file knows, one "<build-id> <name>" line each, as perf 6.1's
 * `perf buildid-list` prints them.
 *
 * perf answers from its session's DSO lists, so this command rebuilds those
 * lists the way perf fills them:
 *
 *	BUILD_ID table ─┐
 *	HEADER_BUILD_ID ┼─> per machine (host, then guests by pid), a list of
 *	MMAP/MMAP2 ─────┘   DSOs in creation order, each with its build-id
 *	SAMPLE ──────────> the DSO of the map that holds the sample's ip is "hit"
 *
 * and prints the list: every DSO, or with hits only the hit ones. Which of
 * the two, and whether the records are read at all, follows perf:
 *
 *	with_hits = -H; a file with AUXTRACE data lists everything (perf does
 *	not decode the trace); a file without a BUILD_ID table (pipe mode, -z,
 *	--buildid-mmap) lists hits only, since only the records name its DSOs;
 *	records are read when listing hits, or in pipe mode.
 *
 * A DSO is matched as perf's dsos__find* do: a user DSO by its long name and
 * its id (device, inode: an empty id matches any, and the first non-empty
 * one seen is given to a DSO that had none; perf reads the id fields of a
 * build-id MMAP2 too, so such a map usually makes a DSO of its own), "[vdso]"
 * by short name, a module by its short name ("[xor]"), and the kernel is the
 * first kernel-space DSO that is not a module, whatever its name
 * ("[kernel.kallsyms]", a vmlinux path, ...), else "[kernel.kallsyms]".
 *
 * The samples' maps come from libsampo's machine, which knows DSOs by name
 * only; each user map it creates is remembered with the DSO perf would give
 * it, so that a hit goes to the right one of two DSOs of the same name. perf's
 * buildid-list tool handles no KSYMBOL record, so no BPF map is built here.
 *
 * The list lives here, not in the machine: the machine has no build-id table
 * and no DSO iteration yet (TODO(machine): move it there when it has).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/buildid.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/sample.h>

#include "builtin.h"
#include "cli.h"
#include "options.h"

#define KERNEL_NAME "[kernel.kallsyms]"
#define HOST_PID    (-1)

static const char *const buildid_list_usage[] = {
	"sampo buildid-list [<options>]",
	"",
	"List the build-ids of the DSOs a perf.data file knows, as 'perf buildid-list' does.",
	NULL,
};

/* perf's struct dso_id; all zero means "unknown" and matches any */
struct bl_dso_id {
	uint32_t maj, min;
	uint64_t ino, ino_generation;
};

/* One DSO as perf's session knows it. */
struct bl_dso {
	char *long_name;  /* printed */
	char *short_name; /* basename, or "[name]" for modules */
	bool kernel;	  /* kernel space (perf's dso->kernel) */
	bool kmod;	  /* a kernel module */
	bool hit;
	bool header_bid;	   /* its build-id came from the build-id table */
	struct bl_dso_id id;	   /* user DSOs */
	struct sampo_build_id bid; /* size 0: none */
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

struct bl_ctx {
	struct sampo_reader *reader;
	struct sampo_machine *machine; /* host state from the records */
	struct bl_machine *machines;   /* [0] is the host */
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

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * perf's kmod_path__parse_name(): is @path a kernel module, and its short
 * name: "[name]" kept as is; "/.../x-y.ko[.gz|.xz|.zst|...]" gives "[x_y]".
 * Return: malloc'ed short name (the basename when not a module), or NULL.
 */
static char *kmod_short_name(const char *path, bool *ret_kmod)
{
	static const char *const not_kmod[] = {
		KERNEL_NAME,  "[guest.kernel.kallsyms", "[vdso]", "[vdso32]", "[vdsox32]",
		"[vsyscall]",
	};
	static const char *const comp_ext[] = { ".gz", ".xz", ".zst", ".bz2", ".lzma", ".lz4" };
	const char *name = base_name(path);
	const char *ext = strrchr(name, '.');
	size_t n;
	char *out;

	*ret_kmod = false;
	if (name[0] == '[') {
		*ret_kmod = true;
		for (size_t i = 0; i < sizeof(not_kmod) / sizeof(not_kmod[0]); i++) {
			if (starts_with(name, not_kmod[i]))
				*ret_kmod = false;
		}
		return strdup(name);
	}
	if (ext) {
		for (size_t i = 0; i < sizeof(comp_ext) / sizeof(comp_ext[0]); i++) {
			if (!strcmp(ext, comp_ext[i]) && ext - name >= 3) {
				ext -= 3;
				break;
			}
		}
	}
	if (!ext || ext == name || strncmp(ext, ".ko", 3) || (ext[3] && ext[3] != '.'))
		return strdup(name);
	*ret_kmod = true;
	n = (size_t)(ext - name);
	out = malloc(n + 3);
	if (!out)
		return NULL;
	out[0] = '[';
	for (size_t i = 0; i < n; i++)
		out[i + 1] = name[i] == '-' ? '_' : name[i];
	out[n + 1] = ']';
	out[n + 2] = '\0';
	return out;
}

/* ---- the DSO lists ------------------------------------------------------ */

static struct bl_machine *bl_findnew_machine(struct bl_ctx *ctx, int32_t pid)
{
	struct bl_machine *m;

	for (size_t i = 0; i < ctx->nr_machines; i++) {
		if (ctx->machines[i].pid == pid)
			return &ctx->machines[i];
	}
	m = realloc(ctx->machines, (ctx->nr_machines + 1) * sizeof(*m));
	if (!m)
		return NULL;
	ctx->machines = m;
	m = &ctx->machines[ctx->nr_machines++];
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
		if (m->dsos[i].kernel && !m->dsos[i].kmod)
			return &m->dsos[i];
	}
	d = bl_findnew_long(m, KERNEL_NAME);
	if (d)
		d->kernel = true;
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
		d->kernel = true;
		d->kmod = true;
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
	memcpy(d->bid.data, bytes, size);
	d->bid.size = size;
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
		d->bid = m->dsos[header_idx].bid;
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

static int map_dsos_grow(struct bl_ctx *ctx)
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

static int map_dsos_set(struct bl_ctx *ctx, struct sampo_map *map, size_t dso_idx)
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

static struct bl_dso *map_dsos_get(struct bl_ctx *ctx, const struct sampo_map *map)
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
static int bl_add_build_id(struct bl_ctx *ctx, int32_t pid, uint8_t cpumode, const char *filename,
			   const uint8_t *bid, size_t size)
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
			d->kmod = true;
		} else {
			free(short_name);
		}
		d->kernel = true;
	}
	return 0;
}

/*
 * The other features are not needed here, but a damaged one is worth one
 * warning (perf lists the build-ids all the same). A damaged BUILD_ID is
 * bl_read_build_id_table()'s to report.
 */
static void bl_check_features(struct bl_ctx *ctx, const char *input)
{
	struct sampo_feature_error fe;
	struct sampo_features *f = NULL;
	int nr;

	if (sampo_reader__is_pipe(ctx->reader))
		return;
	nr = sampo_features__parse_each(ctx->reader, &f, &fe);
	if (nr > 0 && fe.feat != SAMPO_FEAT_BUILD_ID)
		cli_warn_damaged_features(input, nr, &fe);
	sampo_features__delete(f);
}

static int bl_read_build_id_table(struct bl_ctx *ctx, const char *input)
{
	struct sampo_feature_error ferr = { 0 };
	struct sampo_features *f;
	const void *data;
	size_t size;
	int err;

	err = sampo_reader__feature(ctx->reader, SAMPO_FEAT_BUILD_ID, &data, &size);
	if (err == -ENOENT)
		return 0;
	if (err)
		return cli_err(err, "cannot read the build-id table of '%s'", input);
	f = sampo_features__new();
	if (!f)
		return cli_err(-ENOMEM, "out of memory");
	err = sampo_features__parse_one(f, SAMPO_FEAT_BUILD_ID, data, size,
					sampo_reader__needs_swap(ctx->reader), &ferr);
	if (err) {
		sampo_features__delete(f);
		if (err == -SAMPO_ERR_MALFORMED)
			return cli_err(
				0,
				"'%s': BUILD_ID feature at %#" PRIx64 ", offset %#" PRIx64 ": %s",
				input,
				sampo_reader__feature_offset(ctx->reader, SAMPO_FEAT_BUILD_ID),
				ferr.offset, ferr.msg);
		return cli_err(err, "cannot parse the build-id table of '%s'", input);
	}
	for (size_t i = 0; i < f->nr_build_ids && !err; i++) {
		const struct sampo_feat_build_id *e = &f->build_ids[i];

		err = bl_add_build_id(ctx, e->pid, e->cpumode, e->filename, e->build_id, e->size);
	}
	sampo_features__delete(f);
	return err ? cli_err(err, "cannot read the build-id table of '%s'", input) : 0;
}

/* A HEADER_BUILD_ID record (perf inject -b, pipe mode). */
static int bl_process_build_id_record(struct bl_ctx *ctx, const union sampo_record *rec)
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
static int bl_process_mmap(struct bl_ctx *ctx, const struct sampo_event *ev)
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
static int bl_process_sample(struct bl_ctx *ctx, const struct sampo_event *ev)
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
	d->hit = true;
	return 0;
}

static int bl_process_event(struct bl_ctx *ctx, const struct sampo_event *ev)
{
	int err;

	switch (ev->record->header.type) {
	case SAMPO_RECORD_SAMPLE:
		return bl_process_sample(ctx, ev);
	case SAMPO_RECORD_MMAP:
	case SAMPO_RECORD_MMAP2:
		err = sampo_machine__process_event(ctx->machine, ev);
		return err ? err : bl_process_mmap(ctx, ev);
	case SAMPO_RECORD_FORK:
	case SAMPO_RECORD_EXIT:
		return sampo_machine__process_event(ctx->machine, ev);
	case SAMPO_RECORD_HEADER_BUILD_ID:
		return bl_process_build_id_record(ctx, ev->record);
	default:
		return 0; /* perf's buildid-list tool handles nothing else (no COMM, no KSYMBOL) */
	}
}

static int bl_process_events(struct bl_ctx *ctx)
{
	struct sampo_event ev;
	int ret, err;

	for (;;) {
		ret = sampo_reader__next(ctx->reader, &ev);
		if (ret <= 0)
			break;
		err = bl_process_event(ctx, &ev);
		if (err)
			return cli_err(err, "cannot process the record at offset %#" PRIx64,
				       ev.offset);
	}
	if (ret < 0)
		return cli_err(0, "%s", sampo_reader__error(ctx->reader));
	return 0;
}

/* ---- output ------------------------------------------------------------- */

static int cmp_machine(const void *a, const void *b)
{
	const struct bl_machine *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* perf's machines__fprintf_dsos_buildid(): host first, then the guests by pid */
static int bl_print(struct bl_ctx *ctx, bool with_hits)
{
	if (ctx->nr_machines > 2)
		qsort(ctx->machines + 1, ctx->nr_machines - 1, sizeof(*ctx->machines), cmp_machine);
	for (size_t i = 0; i < ctx->nr_machines; i++) {
		const struct bl_machine *m = &ctx->machines[i];

		for (size_t j = 0; j < m->nr; j++) {
			const struct bl_dso *d = &m->dsos[j];
			char hex[SAMPO_BUILD_ID_HEX_SIZE] = "";

			if (with_hits && !d->hit)
				continue;
			if (d->bid.size)
				(void)sampo_build_id__to_hex(&d->bid, hex, sizeof(hex));
			printf("%-40s %s\n", hex, d->long_name);
		}
	}
	if (fflush(stdout) || ferror(stdout))
		return cli_err(errno == EPIPE ? -EPIPE : -EIO, "cannot write output");
	return 0;
}

static void bl_ctx_release(struct bl_ctx *ctx)
{
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
	sampo_machine__delete(ctx->machine);
	sampo_reader__close(ctx->reader);
}

/* -i names an ELF file: print its build-id, as perf does. Return: true if it did. */
static bool print_elf_build_id(const char *path)
{
	static const char elf_magic[4] = { 0x7f, 'E', 'L', 'F' };
	struct sampo_build_id bid;
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	char magic[4];
	struct stat st;
	FILE *fp;
	bool elf;

	/* only a regular file: reading the magic of a FIFO would eat the stream */
	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	fp = fopen(path, "rb");
	if (!fp)
		return false;
	elf = fread(magic, 1, sizeof(magic), fp) == sizeof(magic) &&
	      !memcmp(magic, elf_magic, sizeof(magic));
	fclose(fp);
	if (!elf || sampo_build_id__from_elf(path, &bid) ||
	    sampo_build_id__to_hex(&bid, hex, sizeof(hex)) < 0)
		return false;
	printf("%s\n", hex);
	return true;
}

/* -k: the running kernel's build-id, from /sys/kernel/notes */
static int show_kernel_build_id(void)
{
	struct sampo_build_id bid;
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	int err;

	err = sampo_build_id__from_notes_file("/sys/kernel/notes", &bid);
	if (err)
		return cli_err(err, "cannot read the kernel build-id from '/sys/kernel/notes'");
	(void)sampo_build_id__to_hex(&bid, hex, sizeof(hex));
	printf("%s\n", hex);
	return 0;
}

/* ---- -m: the running kernel's maps ------------------------------------- */

struct kmap_line {
	uint64_t start, end;
	char *name;
	struct sampo_build_id bid; /* size 0: unknown */
};

/* /proc/kallsyms: where the kernel text starts (_text, else _stext) and ends (_etext) */
static int running_kernel_range(uint64_t *start, uint64_t *end)
{
	FILE *fp = fopen("/proc/kallsyms", "r");
	char line[512];
	uint64_t text = 0, stext = 0, etext = 0;

	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long addr;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			text = addr;
		else if (!strcmp(name, "_stext"))
			stext = addr;
		else if (!strcmp(name, "_etext"))
			etext = addr;
		if (text && etext)
			break;
	}
	fclose(fp);
	*start = text ? text : stext;
	*end = etext ? etext : UINT64_MAX;
	return *start ? 0 : -ENOENT;
}

/* @file is module @name's .ko (possibly compressed), '-' and '_' being alike */
static bool is_module_file(const char *file, const char *name)
{
	size_t i;

	for (i = 0; name[i]; i++) {
		char a = file[i] == '-' ? '_' : file[i], b = name[i] == '-' ? '_' : name[i];

		if (a != b)
			return false;
	}
	return !strncmp(file + i, ".ko", 3) && (file[i + 3] == '\0' || file[i + 3] == '.');
}

/* depth-first search of @dir for module @name; the first path in name order wins */
static char *find_module(const char *dir, const char *name, int depth)
{
	struct dirent **ents;
	char *found = NULL;
	int n;

	if (depth > 8)
		return NULL;
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return NULL;
	for (int i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;
		char *path;
		struct stat st;

		if (!found && e[0] != '.' && asprintf(&path, "%s/%s", dir, e) >= 0) {
			if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
				found = find_module(path, name, depth + 1);
			else if (S_ISREG(st.st_mode) && is_module_file(e, name))
				found = strdup(path);
			free(path);
		}
		free(ents[i]);
	}
	free(ents);
	return found;
}

/* perf's module long name: its file under /lib/modules/RELEASE, else "[name]" */
static char *module_path(const char *release, const char *name)
{
	char *dir, *out = NULL;

	if (asprintf(&dir, "/lib/modules/%s", release) >= 0) {
		out = find_module(dir, name, 0);
		free(dir);
	}
	if (!out && asprintf(&out, "[%s]", name) < 0)
		out = NULL;
	return out;
}

static int cmp_kmap(const void *a, const void *b)
{
	const struct kmap_line *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/*
 * -m: perf's buildid__show_kernel_maps(): the kernel map and one map per
 * loaded module, by address, as "<build-id> <start> <end> <name>".
 */
static int show_kernel_maps(void)
{
	struct kmap_line *lines = NULL;
	size_t nr = 0;
	char release[256] = "";
	char buf[512];
	FILE *fp;
	int err;

	lines = calloc(1, sizeof(*lines));
	if (!lines)
		return cli_err(-ENOMEM, "out of memory");
	err = running_kernel_range(&lines[0].start, &lines[0].end);
	if (err) {
		free(lines);
		return cli_err(err, "cannot find the kernel text in '/proc/kallsyms'");
	}
	lines[0].name = strdup("[kernel.kallsyms]");
	(void)sampo_build_id__from_notes_file("/sys/kernel/notes", &lines[0].bid);
	nr = 1;

	fp = fopen("/proc/sys/kernel/osrelease", "r");
	if (fp) {
		if (fgets(release, sizeof(release), fp))
			release[strcspn(release, "\n")] = '\0';
		fclose(fp);
	}
	/* "name size refcount deps state address [taint]" */
	fp = fopen("/proc/modules", "r");
	while (fp && fgets(buf, sizeof(buf), fp)) {
		unsigned long long size, addr;
		char name[64], path[128];
		struct kmap_line *l;

		if (sscanf(buf, "%63s %llu %*s %*s %*s %llx", name, &size, &addr) != 3)
			continue;
		l = realloc(lines, (nr + 1) * sizeof(*lines));
		if (!l)
			break;
		lines = l;
		l = &lines[nr++];
		memset(l, 0, sizeof(*l));
		l->start = addr;
		l->end = addr + size;
		l->name = module_path(release, name);
		snprintf(path, sizeof(path), "/sys/module/%s/notes/.note.gnu.build-id", name);
		(void)sampo_build_id__from_notes_file(path, &l->bid);
	}
	if (fp)
		fclose(fp);
	qsort(lines, nr, sizeof(*lines), cmp_kmap);
	for (size_t i = 0; i < nr; i++) {
		char hex[SAMPO_BUILD_ID_HEX_SIZE] = "";

		if (lines[i].bid.size)
			(void)sampo_build_id__to_hex(&lines[i].bid, hex, sizeof(hex));
		printf("%s %16" PRIx64 " %16" PRIx64 " %s\n", hex, lines[i].start, lines[i].end,
		       lines[i].name ? lines[i].name : "");
		free(lines[i].name);
	}
	free(lines);
	if (fflush(stdout) || ferror(stdout))
		return cli_err(-EIO, "cannot write output");
	return 0;
}

static int run_buildid_list(struct bl_ctx *ctx, const char *input, bool with_hits)
{
	char errbuf[256] = "";
	SAMPO_OPTS(sampo_reader_opts, ropts, .ordered = true, .errbuf = errbuf,
		   .errbuf_sz = sizeof(errbuf));
	bool pipe;
	int err;

	if (print_elf_build_id(input))
		return 0;
	err = sampo_reader__open(input, &ropts, &ctx->reader);
	if (err) {
		if (errbuf[0])
			return cli_err(0, "%s", errbuf);
		return cli_err(err, "cannot open '%s'", input);
	}
	ctx->machine = sampo_machine__new();
	if (!ctx->machine || !bl_findnew_machine(ctx, HOST_PID))
		return cli_err(-ENOMEM, "out of memory");

	pipe = sampo_reader__is_pipe(ctx->reader);
	if (!pipe && sampo_reader__has_feature(ctx->reader, SAMPO_FEAT_AUXTRACE))
		with_hits = false;
	if (!sampo_reader__has_feature(ctx->reader, SAMPO_FEAT_BUILD_ID))
		with_hits = true;
	bl_check_features(ctx, input);
	err = bl_read_build_id_table(ctx, input);
	if (err)
		return err;
	if (with_hits || pipe) {
		err = bl_process_events(ctx);
		if (err)
			return err;
	}
	return bl_print(ctx, with_hits);
}

int cmd_buildid_list(int argc, const char **argv)
{
	const char *input = NULL;
	bool with_hits = false, force = false, show_kernel = false, show_kernel_maps_opt = false;
	const struct option opts[] = {
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_BOOLEAN('H', "with-hits", &with_hits, "show only DSOs with hits"),
		OPT_STRING('i', "input", &input, "file",
			   "input file, '-' for stdin (default: perf.data, or stdin if a pipe)"),
		OPT_BOOLEAN('k', "kernel", &show_kernel, "show the build-id of the running kernel"),
		OPT_BOOLEAN(
			'm', "kernel-maps", &show_kernel_maps_opt,
			"show the build-ids of the running kernel and modules, with their maps"),
		OPT_END(),
	};
	struct bl_ctx ctx = { 0 };
	int ret;

	argc = parse_options(argc, argv, opts, buildid_list_usage, 0);
	if (argc < 0)
		return argc;
	if (argc > 0)
		return usage_error(buildid_list_usage, opts, "unexpected argument '%s'", argv[0]);
	(void)force; /* sampo never refuses a file for its owner, so there is nothing to force */
	if (show_kernel)
		return show_kernel_build_id();
	if (show_kernel_maps_opt)
		return show_kernel_maps();
	if (!input || !*input)
		input = cli_default_input();

	ret = run_buildid_list(&ctx, input, with_hits);
	bl_ctx_release(&ctx);
	return ret;
}
