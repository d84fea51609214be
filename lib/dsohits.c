// SPDX-License-Identifier: LGPL-2.1
/*
 * dsohits.c - the DSOs that got samples, tracked while recording.
 *
 * Queue: sampo_dsohits__add() turns each interesting record into a small
 * entry {time, seq, ...}; MMAP/MMAP2 names are copied into a string arena.
 * sampo_dsohits__flush() sorts the entries on (time, seq) and applies them:
 *
 *	MMAP/MMAP2	insert [start, end) -> dso into the process's map vector
 *			(pid -1: the kernel and its modules), cutting older maps
 *			it overlaps, as the kernel replaces them
 *	FORK		a new process (pid != ppid) starts with a copy of the
 *			parent's maps
 *	COMM exec	the process's maps are dropped (the new image follows)
 *	EXIT		of a group leader: its maps are freed
 *	SAMPLE		binary search of the IP; the DSO found gets a hit
 *
 * Invariants: a process's map vector is sorted by start and free of
 * overlaps. DSOs are interned by name and never freed before delete.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include <sampo/buildid-cache.h>
#include <sampo/dsohits.h>
#include <sampo/reader.h>
#include <sampo/sample.h>
#include <sampo/synthesize.h>

#include "internal/hash.h"
#include "internal/util.h"
#include "internal/opts.h"

#define KERNEL_PID	  (-1)
#define KERNEL_MAP_PREFIX "[kernel.kallsyms]"

enum entry_kind { E_SAMPLE, E_MAP, E_FORK, E_EXEC, E_EXIT };

struct entry {
	uint64_t time;
	uint64_t seq;
	uint8_t kind;
	uint8_t cpumode;
	int32_t pid;
	int32_t ppid;		   /* FORK: parent pid; EXIT: tid */
	uint64_t a;		   /* SAMPLE: ip; MAP: start */
	uint64_t b;		   /* MAP: end */
	size_t name;		   /* MAP: offset of the name in the arena */
	struct sampo_build_id bid; /* MAP: from an MMAP2 with build-id */
};

struct dmap {
	uint64_t start, end;
	uint32_t dso;
};

struct proc {
	int32_t pid;
	bool used;
	struct dmap *maps;
	size_t nr, cap;
};

struct sampo_dsohits {
	struct entry *q;
	size_t nr_q, cap_q;
	char *arena;
	size_t arena_len, arena_cap;
	uint64_t seq;

	struct proc *procs; /* open addressing on pid */
	size_t cap_procs, nr_procs;

	struct sampo_dsohit *dsos;
	char **dso_names; /* owned copies; dsos[i].name points here */
	size_t nr_dsos, cap_dsos;
	uint32_t *dso_hash; /* index + 1, 0 = empty */
	size_t cap_hash;

	uint64_t nr_samples, nr_unresolved;
	uint64_t first_time, last_time;
	bool has_time;
};

struct sampo_dsohits *sampo_dsohits__new(void)
{
	return calloc(1, sizeof(struct sampo_dsohits));
}

void sampo_dsohits__delete(struct sampo_dsohits *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->cap_procs; i++)
		free(h->procs[i].maps);
	free(h->procs);
	for (size_t i = 0; i < h->nr_dsos; i++)
		free(h->dso_names[i]);
	free(h->dso_names);
	free(h->dsos);
	free(h->dso_hash);
	free(h->q);
	free(h->arena);
	free(h);
}

/* ---- DSO interning -------------------------------------------------- */

static int dso_rehash(struct sampo_dsohits *h, size_t cap)
{
	uint32_t *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < h->nr_dsos; i++) {
		size_t j = hash_str(h->dsos[i].name) & (cap - 1);

		while (t[j])
			j = (j + 1) & (cap - 1);
		t[j] = (uint32_t)i + 1;
	}
	free(h->dso_hash);
	h->dso_hash = t;
	h->cap_hash = cap;
	return 0;
}

/* Index of the DSO @name, created if new; -ENOMEM. */
static int64_t dso_findnew(struct sampo_dsohits *h, const char *name, uint8_t cpumode)
{
	size_t j;

	if (h->cap_hash) {
		j = hash_str(name) & (h->cap_hash - 1);
		while (h->dso_hash[j]) {
			uint32_t i = h->dso_hash[j] - 1;

			if (!strcmp(h->dsos[i].name, name))
				return i;
			j = (j + 1) & (h->cap_hash - 1);
		}
	}
	if ((h->nr_dsos + 1) * 2 > h->cap_hash && dso_rehash(h, h->cap_hash ? h->cap_hash * 2 : 64))
		return -ENOMEM;
	if (h->nr_dsos == h->cap_dsos) {
		size_t cap = h->cap_dsos ? h->cap_dsos * 2 : 32;
		struct sampo_dsohit *d = realloc(h->dsos, cap * sizeof(*d));
		char **n;

		if (!d)
			return -ENOMEM;
		h->dsos = d;
		n = realloc(h->dso_names, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		h->dso_names = n;
		h->cap_dsos = cap;
	}
	h->dso_names[h->nr_dsos] = strdup(name);
	if (!h->dso_names[h->nr_dsos])
		return -ENOMEM;
	memset(&h->dsos[h->nr_dsos], 0, sizeof(h->dsos[0]));
	h->dsos[h->nr_dsos].name = h->dso_names[h->nr_dsos];
	h->dsos[h->nr_dsos].cpumode = cpumode;
	h->dsos[h->nr_dsos].kernel = !strcmp(name, KERNEL_MAP_PREFIX);

	j = hash_str(name) & (h->cap_hash - 1);
	while (h->dso_hash[j])
		j = (j + 1) & (h->cap_hash - 1);
	h->dso_hash[j] = (uint32_t)h->nr_dsos + 1;
	return (int64_t)h->nr_dsos++;
}

/* ---- processes ------------------------------------------------------ */

static uint64_t hash_pid(int32_t pid)
{
	return (uint64_t)(uint32_t)pid * 0x9e3779b97f4a7c15ULL >> 20;
}

static int procs_grow(struct sampo_dsohits *h)
{
	size_t cap = h->cap_procs ? h->cap_procs * 2 : 256;
	struct proc *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < h->cap_procs; i++) {
		size_t j;

		if (!h->procs[i].used)
			continue;
		j = hash_pid(h->procs[i].pid) & (cap - 1);
		while (t[j].used)
			j = (j + 1) & (cap - 1);
		t[j] = h->procs[i];
	}
	free(h->procs);
	h->procs = t;
	h->cap_procs = cap;
	return 0;
}

/* The process @pid, or NULL (when @create is false, or out of memory). */
static struct proc *proc_find(struct sampo_dsohits *h, int32_t pid, bool create)
{
	size_t j;

	if (h->cap_procs) {
		j = hash_pid(pid) & (h->cap_procs - 1);
		while (h->procs[j].used) {
			if (h->procs[j].pid == pid)
				return &h->procs[j];
			j = (j + 1) & (h->cap_procs - 1);
		}
	}
	if (!create)
		return NULL;
	if ((h->nr_procs + 1) * 2 > h->cap_procs && procs_grow(h))
		return NULL;
	j = hash_pid(pid) & (h->cap_procs - 1);
	while (h->procs[j].used)
		j = (j + 1) & (h->cap_procs - 1);
	memset(&h->procs[j], 0, sizeof(h->procs[j]));
	h->procs[j].used = true;
	h->procs[j].pid = pid;
	h->nr_procs++;
	return &h->procs[j];
}

static int proc_reserve(struct proc *p, size_t n)
{
	struct dmap *m;
	size_t cap;

	if (n <= p->cap)
		return 0;
	cap = MAX(n, p->cap ? p->cap * 2 : 16);
	m = realloc(p->maps, cap * sizeof(*m));
	if (!m)
		return -ENOMEM;
	p->maps = m;
	p->cap = cap;
	return 0;
}

/* Insert [start, end) -> dso, cutting what it overlaps. */
static int proc_insert(struct proc *p, uint64_t start, uint64_t end, uint32_t dso)
{
	size_t i, out, first;
	struct dmap right = { 0, 0, 0 };
	bool has_right = false;

	if (end <= start)
		return 0;
	if (proc_reserve(p, p->nr + 2))
		return -ENOMEM;
	/* first map that ends after start */
	for (first = 0; first < p->nr && p->maps[first].end <= start; first++)
		;
	out = first;
	for (i = first; i < p->nr && p->maps[i].start < end; i++) {
		struct dmap m = p->maps[i];

		if (m.end > end) {
			right = (struct dmap){ end, m.end, m.dso };
			has_right = true;
		}
		if (m.start < start)
			p->maps[out++] = (struct dmap){ m.start, start, m.dso };
	}
	/* maps [i, nr) start at or after end: move them to make room */
	{
		size_t tail = p->nr - i;
		size_t add = 1 + (has_right ? 1 : 0);

		memmove(&p->maps[out + add], &p->maps[i], tail * sizeof(p->maps[0]));
		p->maps[out] = (struct dmap){ start, end, dso };
		if (has_right)
			p->maps[out + 1] = right;
		p->nr = out + add + tail;
	}
	return 0;
}

static const struct dmap *proc_lookup(const struct proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->nr && p->maps[lo].start <= addr)
		return &p->maps[lo];
	return NULL;
}

/* ---- queue ---------------------------------------------------------- */

static struct entry *queue_push(struct sampo_dsohits *h)
{
	struct entry *e;

	if (h->nr_q == h->cap_q) {
		size_t cap = h->cap_q ? h->cap_q * 2 : 1024;
		struct entry *q = realloc(h->q, cap * sizeof(*q));

		if (!q)
			return NULL;
		h->q = q;
		h->cap_q = cap;
	}
	e = &h->q[h->nr_q++];
	memset(e, 0, sizeof(*e));
	e->seq = h->seq++;
	return e;
}

static int64_t arena_add(struct sampo_dsohits *h, const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	size_t off = h->arena_len;

	if (h->arena_len + n + 1 > h->arena_cap) {
		size_t cap = MAX(h->arena_cap * 2, h->arena_len + n + 1 + 4096);
		char *a = realloc(h->arena, cap);

		if (!a)
			return -ENOMEM;
		h->arena = a;
		h->arena_cap = cap;
	}
	memcpy(h->arena + off, s, n);
	h->arena[off + n] = '\0';
	h->arena_len += n + 1;
	return (int64_t)off;
}

static int queue_map(struct sampo_dsohits *h, const union sampo_record *rec, uint64_t time)
{
	bool mmap2 = rec->header.type == SAMPO_RECORD_MMAP2;
	size_t fixed = mmap2 ? sizeof(rec->mmap2) : sizeof(rec->mmap);
	const char *name = mmap2 ? rec->mmap2.filename : rec->mmap.filename;
	struct entry *e;
	int64_t off;

	if (rec->header.size <= fixed)
		return -SAMPO_ERR_MALFORMED;
	off = arena_add(h, name, rec->header.size - fixed);
	if (off < 0)
		return (int)off;
	e = queue_push(h);
	if (!e)
		return -ENOMEM;
	e->kind = E_MAP;
	e->time = time;
	e->cpumode = rec->header.misc & SAMPO_MISC_CPUMODE_MASK;
	e->pid = (int32_t)rec->mmap.pid;
	e->a = rec->mmap.start;
	e->b = rec->mmap.start + rec->mmap.len;
	if (e->b < e->a) /* a length that wraps: up to the top */
		e->b = UINT64_MAX;
	e->name = (size_t)off;
	if (mmap2 && (rec->header.misc & SAMPO_MISC_MMAP_BUILD_ID) && rec->mmap2.build_id_size &&
	    rec->mmap2.build_id_size <= SAMPO_BUILD_ID_SIZE) {
		e->bid.size = rec->mmap2.build_id_size;
		memcpy(e->bid.data, rec->mmap2.build_id, e->bid.size);
	}
	return 0;
}

int sampo_dsohits__add(struct sampo_dsohits *h, const struct sampo_event_attr *attr,
		       const union sampo_record *rec)
{
	struct sampo_sample s;
	struct entry *e;
	uint32_t type = rec->header.type;
	uint64_t time;

	switch (type) {
	case SAMPO_RECORD_SAMPLE:
	case SAMPO_RECORD_MMAP:
	case SAMPO_RECORD_MMAP2:
	case SAMPO_RECORD_COMM:
	case SAMPO_RECORD_FORK:
	case SAMPO_RECORD_EXIT:
		break;
	default:
		return 0;
	}
	if (type == SAMPO_RECORD_COMM && !(rec->header.misc & SAMPO_MISC_COMM_EXEC))
		return 0;
	if (sampo_sample__parse(attr, rec, false, &s))
		return -SAMPO_ERR_MALFORMED;
	time = s.time == UINT64_MAX ? 0 : s.time;

	switch (type) {
	case SAMPO_RECORD_SAMPLE:
		if (!(s.sample_type & SAMPO_SAMPLE_IP))
			return 0;
		e = queue_push(h);
		if (!e)
			return -ENOMEM;
		e->kind = E_SAMPLE;
		e->time = time;
		e->cpumode = s.cpumode;
		e->pid = (int32_t)s.pid;
		e->a = s.ip;
		h->nr_samples++;
		if (s.time != UINT64_MAX && (s.sample_type & SAMPO_SAMPLE_TIME)) {
			if (!h->has_time || s.time < h->first_time)
				h->first_time = s.time;
			if (!h->has_time || s.time > h->last_time)
				h->last_time = s.time;
			h->has_time = true;
		}
		return 0;
	case SAMPO_RECORD_MMAP:
	case SAMPO_RECORD_MMAP2:
		return queue_map(h, rec, time);
	case SAMPO_RECORD_COMM:
		e = queue_push(h);
		if (!e)
			return -ENOMEM;
		e->kind = E_EXEC;
		e->time = time;
		e->pid = (int32_t)rec->comm.pid;
		return 0;
	default: /* FORK, EXIT */
		e = queue_push(h);
		if (!e)
			return -ENOMEM;
		e->kind = type == SAMPO_RECORD_FORK ? E_FORK : E_EXIT;
		e->time = time;
		e->pid = (int32_t)rec->fork.pid;
		e->ppid = type == SAMPO_RECORD_FORK ? (int32_t)rec->fork.ppid :
						      (int32_t)rec->fork.tid;
		return 0;
	}
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int apply_map(struct sampo_dsohits *h, const struct entry *e)
{
	const char *name = h->arena + e->name;
	bool kernel = e->pid == KERNEL_PID;
	struct proc *p;
	int64_t dso;

	if (kernel && !strncmp(name, KERNEL_MAP_PREFIX, strlen(KERNEL_MAP_PREFIX)))
		name = KERNEL_MAP_PREFIX; /* "[kernel.kallsyms]_text" */
	dso = dso_findnew(h, name, kernel ? SAMPO_CPUMODE_KERNEL : SAMPO_CPUMODE_USER);
	if (dso < 0)
		return (int)dso;
	if (e->bid.size && !h->dsos[dso].bid.size)
		h->dsos[dso].bid = e->bid;
	p = proc_find(h, e->pid, true);
	if (!p)
		return -ENOMEM;
	return proc_insert(p, e->a, e->b, (uint32_t)dso);
}

static int apply_fork(struct sampo_dsohits *h, const struct entry *e)
{
	struct proc *parent, *child;

	if (e->pid == e->ppid)
		return 0; /* a new thread shares its process's maps */
	child = proc_find(h, e->pid, true);
	if (!child)
		return -ENOMEM;
	child->nr = 0;
	parent = proc_find(h, e->ppid, false); /* after child: the table may have moved */
	if (!parent || !parent->nr)
		return 0;
	if (proc_reserve(child, parent->nr))
		return -ENOMEM;
	memcpy(child->maps, parent->maps, parent->nr * sizeof(parent->maps[0]));
	child->nr = parent->nr;
	return 0;
}

static void apply_sample(struct sampo_dsohits *h, const struct entry *e)
{
	bool kernel = e->cpumode == SAMPO_CPUMODE_KERNEL;
	const struct proc *p = proc_find(h, kernel ? KERNEL_PID : e->pid, false);
	const struct dmap *m = p ? proc_lookup(p, e->a) : NULL;

	if (!m && kernel) {
		/* outside every kernel map (kptr_restrict, BPF, ...): perf shows the kernel */
		int64_t dso = dso_findnew(h, KERNEL_MAP_PREFIX, SAMPO_CPUMODE_KERNEL);

		if (dso >= 0)
			h->dsos[dso].nr_samples++;
		return;
	}
	if (!m) {
		h->nr_unresolved++;
		return;
	}
	h->dsos[m->dso].nr_samples++;
}

int sampo_dsohits__flush(struct sampo_dsohits *h)
{
	int err = 0;

	if (!h)
		return -EINVAL;
	if (h->nr_q > 1)
		qsort(h->q, h->nr_q, sizeof(h->q[0]), entry_cmp);
	for (size_t i = 0; i < h->nr_q && !err; i++) {
		const struct entry *e = &h->q[i];
		struct proc *p;

		switch (e->kind) {
		case E_SAMPLE:
			apply_sample(h, e);
			break;
		case E_MAP:
			err = apply_map(h, e);
			break;
		case E_FORK:
			err = apply_fork(h, e);
			break;
		case E_EXEC:
			p = proc_find(h, e->pid, false);
			if (p)
				p->nr = 0;
			break;
		case E_EXIT:
			p = e->pid == e->ppid ? proc_find(h, e->pid, false) : NULL;
			if (p)
				p->nr = 0;
			break;
		}
	}
	h->nr_q = 0;
	h->arena_len = 0;
	return err;
}

size_t sampo_dsohits__nr(const struct sampo_dsohits *h)
{
	return h ? h->nr_dsos : 0;
}

const struct sampo_dsohit *sampo_dsohits__dso(const struct sampo_dsohits *h, size_t idx)
{
	if (!h || idx >= h->nr_dsos)
		return NULL;
	return &h->dsos[idx];
}

uint64_t sampo_dsohits__nr_samples(const struct sampo_dsohits *h, uint64_t *unresolved)
{
	if (unresolved)
		*unresolved = h ? h->nr_unresolved : 0;
	return h ? h->nr_samples : 0;
}

bool sampo_dsohits__time_range(const struct sampo_dsohits *h, uint64_t *first, uint64_t *last)
{
	if (!h || !h->has_time)
		return false;
	if (first)
		*first = h->first_time;
	if (last)
		*last = h->last_time;
	return h->has_time;
}

/* ---- build-ids of the DSOs with samples ---------------------------------- */

int sampo_dsohit__build_id(const struct sampo_dsohit *hit, const struct sampo_dsohit_bid_opts *opts,
			   struct sampo_build_id *ret)
{
	const char *sys = OPTS_GET(opts, sys_dir, (const char *)NULL);
	const struct sampo_build_id *vdso =
		OPTS_GET(opts, vdso_bid, (const struct sampo_build_id *)NULL);
	char path[4096];

	if (!hit || !ret || !OPTS_VALID(opts, sampo_dsohit_bid_opts))
		return -EINVAL;
	if (!sys)
		sys = "/sys";
	if (hit->bid.size) {
		*ret = hit->bid;
		return 0;
	}
	if (hit->kernel) {
		snprintf(path, sizeof(path), "%s/kernel/notes", sys);
		return sampo_build_id__from_notes_file(path, ret);
	}
	if (!strcmp(hit->name, "[vdso]")) {
		if (!vdso || !vdso->size)
			return -ENOENT;
		*ret = *vdso;
		return 0;
	}
	if (hit->cpumode == SAMPO_CPUMODE_KERNEL) {
		SAMPO_OPTS(sampo_synth_opts, so, .sys_dir = sys);

		if (!sampo_synthesize__module_build_id(&so, hit->name, ret))
			return 0;
	}
	if (!sampo_buildid_cache__dso_kind(hit->name))
		return -ENOENT;
	return sampo_build_id__from_elf(hit->name, ret);
}

int sampo_dsohits__build_ids(const struct sampo_dsohits *hits,
			     const struct sampo_dsohit_bid_opts *opts,
			     struct sampo_dsohit_build_id **ret_rows, size_t *ret_nr)
{
	size_t nr = sampo_dsohits__nr(hits), nv = 0;
	struct sampo_dsohit_build_id *v;
	bool all;

	if (!hits || !ret_rows || !ret_nr || !OPTS_VALID(opts, sampo_dsohit_bid_opts))
		return -EINVAL;
	all = OPTS_GET(opts, all, false);
	if (!nr) {
		*ret_rows = NULL;
		*ret_nr = 0;
		return 0;
	}
	v = calloc(nr, sizeof(*v));
	if (!v)
		return -ENOMEM;
	/* the kernel first, then the others in the order their maps appeared, as perf */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < nr; i++) {
			const struct sampo_dsohit *hit = sampo_dsohits__dso(hits, i);

			if ((!hit->nr_samples && !all) || hit->kernel != (pass == 0))
				continue;
			if (sampo_dsohit__build_id(hit, opts, &v[nv].bid))
				continue;
			v[nv++].hit = hit;
		}
	}
	if (!nv) {
		free(v);
		v = NULL;
	}
	*ret_rows = v;
	*ret_nr = nv;
	return 0;
}
