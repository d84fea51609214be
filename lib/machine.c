// SPDX-License-Identifier: LGPL-2.1
/*
 * machine.c - the recorded machine: its threads, DSOs and kernel maps,
 * rebuilt from COMM, FORK, EXIT, MMAP, MMAP2 and KSYMBOL records the way
 * perf 6.1 does it (util/machine.c), so that `sampo dump` prints the same
 * " ... thread:" and " ...... dso:" lines as `perf report -D`. The objects
 * have files of their own: dso.c, map.c (map and maps), thread.c, and
 * guest.c for the guest machines of a host.
 *
 * Data structures:
 *
 *	machine ── threads: hash table by tid (chained), + last-hit pointer
 *	        ├─ dsos:    hash table by long name, + list in creation order
 *	        ├─ kmaps:   the kernel maps (kernel, modules, BPF, trampolines)
 *	        ├─ generation counters: the kernel's, and one per pid
 *	        └─ guests:  guest machines by pid, each all of the above (host only,
 *	                    once enabled)
 *	thread  ── maps:    shared by every thread of a process (the leader's)
 *	maps    ── map references sorted by start, in chunks, + last hit
 *	map     ── dso reference
 *
 * Invariants:
 * - a map is never modified once inserted (map.c);
 * - every pointer stored in a container is a reference; objects are freed
 *   when their last reference goes;
 * - a record that changes what an address or a thread resolves to moves a
 *   generation counter before it is applied, so caches of lookups
 *   (lib/hist.c) know when they are stale.
 *
 * Known differences from perf, all in situations perf itself handles
 * arbitrarily: where kernel maps overlap (a zero-length kernel MMAP), perf's
 * red-black tree picks one depending on its shape, we pick the one with the
 * highest start; the [vdso] DSO is named "[vdso]" where perf, lacking a
 * build-id table entry for it, names it after a temporary copy of its own
 * vdso; 32-bit processes are not told apart ("[vdso32]").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/event.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/sample.h>
#include "internal/hash.h"
#include "internal/log.h"
#include "internal/machine.h"
#include "internal/util.h"

/* mmap(2) bits perf looks at; the values are the Linux ABI on every arch perf supports */
#define PROT_EXEC_BIT	0x4
#define MAP_SHARED_BIT	0x1
#define MAP_HUGETLB_BIT 0x40000

#define KERNEL_MMAP_NAME      "[kernel.kallsyms]"
#define GUEST_KERNEL_MMAP_NAME "[guest.kernel.kallsyms"
#define ENTRY_TRAMPOLINE_NAME "__entry_SYSCALL_64_trampoline"

/* ---- small helpers ------------------------------------------------------ */

static size_t hash_tid(int32_t tid, size_t cap)
{
	return (size_t)(((uint64_t)(uint32_t)tid * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

static bool str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- the DSO table ------------------------------------------------------ */

/*
 * The DSO lookups by name. A file may make any number of DSOs of one name
 * (a library replaced 200k times, 200k modules of one short name): each
 * lookup is a probe of one index whose keys are
 *
 *	DK_NAME		long name: the newest DSO of that name
 *	DK_NAME_ID	long name and identity (dev, inode, generation): the newest with it
 *	DK_NAME_INO	long name, dev and inode: the newest with them, whatever the generation
 *	DK_NAME_INO_G0	long name, dev and inode: the newest with them and generation 0
 *	DK_NAME_NOID	long name: the newest whose identity is unknown
 *	DK_NAME_BID	long name and build-id: the newest with it
 *	DK_SHORT	short name: the oldest with it
 *
 * which answer what the walks of the name's chain (newest first) and of the
 * creation list (oldest first) answered.
 *
 * A generation of 0 matches any (perf's __dso_id__cmp()): perf synthesizes
 * the MMAP2s of processes already running from /proc/PID/maps, which has no
 * generation, so in a system-wide recording a program that was running and
 * the same program started later are one file, as the kernel's MMAP2s with
 * their real generation say.
 */
enum dso_key_kind { DK_NAME, DK_NAME_ID, DK_NAME_INO, DK_NAME_INO_G0, DK_NAME_NOID, DK_NAME_BID,
		    DK_SHORT };

static uint64_t dk_hash(enum dso_key_kind kind, const struct sampo_dso *dso)
{
	uint64_t h = hash_combine(kind, hash_str(kind == DK_SHORT ? dso->short_name :
								     dso->long_name));

	if (kind == DK_NAME_ID || kind == DK_NAME_INO || kind == DK_NAME_INO_G0) {
		h = hash_combine(h, ((uint64_t)dso->id.maj << 32) | dso->id.min);
		h = hash_combine(h, dso->id.ino);
		if (kind == DK_NAME_ID)
			h = hash_combine(h, dso->id.ino_generation);
	} else if (kind == DK_NAME_BID) {
		h = hash_combine(h, dso->build_id_size);
		for (size_t i = 0; i < dso->build_id_size; i++)
			h = hash_combine(h, dso->build_id[i]);
	}
	return h;
}

static bool dk_equal(enum dso_key_kind kind, const struct sampo_dso *a, const struct sampo_dso *b)
{
	if (kind == DK_SHORT)
		return !strcmp(a->short_name, b->short_name);
	if (strcmp(a->long_name, b->long_name))
		return false;
	if (kind == DK_NAME_ID || kind == DK_NAME_INO || kind == DK_NAME_INO_G0)
		return a->id.maj == b->id.maj && a->id.min == b->id.min && a->id.ino == b->id.ino &&
		       (kind != DK_NAME_ID || a->id.ino_generation == b->id.ino_generation);
	if (kind == DK_NAME_BID)
		return a->build_id_size == b->build_id_size &&
		       !memcmp(a->build_id, b->build_id, a->build_id_size);
	return true;
}

/* The key of @kind that @probe (a DSO, or a stack stand-in with the fields) would have. */
static struct sampo_dso_key *dk_find(const struct sampo_machine *m, enum dso_key_kind kind,
				     const struct sampo_dso *probe, size_t *ret_slot)
{
	const struct sampo_hash_index *ix = &m->dso_ix;
	uint64_t h = dk_hash(kind, probe);
	size_t j;

	if (!ix->cap)
		return NULL;
	for (j = h & (ix->cap - 1); ix->slots[j]; j = (j + 1) & (ix->cap - 1)) {
		struct sampo_dso_key *k = &m->dso_keys[ix->slots[j] - 1];

		if (ix->hashes[j] == h && k->kind == kind && dk_equal(kind, k->dso, probe))
			return k;
	}
	if (ret_slot)
		*ret_slot = j;
	return NULL;
}

/* Index @dso under @kind: it replaces a key's DSO when newer (or, for DK_SHORT, never). */
static int dk_put(struct sampo_machine *m, enum dso_key_kind kind, struct sampo_dso *dso)
{
	struct sampo_hash_index *ix = &m->dso_ix;
	struct sampo_dso_key *k;
	size_t j = 0;

	if ((ix->nr + 1) * 2 > ix->cap && sampo_hash_index__grow(ix))
		return -ENOMEM;
	k = dk_find(m, kind, dso, &j);
	if (k) {
		if (kind != DK_SHORT && dso->seq > k->dso->seq)
			k->dso = dso;
		return 0;
	}
	if (sampo_array_grow((void **)&m->dso_keys, &m->dso_keys_cap, m->nr_dso_keys + 1,
			     sizeof(*m->dso_keys)))
		return -ENOMEM;
	m->dso_keys[m->nr_dso_keys] = (struct sampo_dso_key){ (uint8_t)kind, dso };
	ix->slots[j] = (uint32_t)++m->nr_dso_keys;
	ix->hashes[j] = dk_hash(kind, dso);
	ix->nr++;
	return 0;
}

static int machine_index_dso(struct sampo_machine *m, struct sampo_dso *dso)
{
	int err = dk_put(m, DK_NAME, dso);

	if (!err && sampo_dso_id__empty(&dso->id))
		err = dk_put(m, DK_NAME_NOID, dso);
	if (!err && !sampo_dso_id__empty(&dso->id)) {
		err = dk_put(m, DK_NAME_ID, dso);
		if (!err)
			err = dk_put(m, DK_NAME_INO, dso);
		if (!err && !dso->id.ino_generation)
			err = dk_put(m, DK_NAME_INO_G0, dso);
	}
	if (!err && dso->build_id_size)
		err = dk_put(m, DK_NAME_BID, dso);
	if (!err)
		err = dk_put(m, DK_SHORT, dso);
	return err;
}

/* Set a machine DSO's build-id, and index it by it. */
static void machine_dso_set_build_id(struct sampo_machine *m, struct sampo_dso *dso,
				     const uint8_t *bid, size_t size)
{
	sampo_dso__set_build_id(dso, bid, size);
	if (dso->build_id_size)
		(void)dk_put(m, DK_NAME_BID, dso); /* out of memory: found by name only */
}

static struct sampo_dso *machine_find_dso(const struct sampo_machine *m, const char *long_name,
					  const struct sampo_dso_id *id)
{
	struct sampo_dso probe = { .long_name = (char *)long_name };
	struct sampo_dso_key *exact, *noid, *gen0;

	if (!id || sampo_dso_id__empty(id)) {
		exact = dk_find(m, DK_NAME, &probe, NULL);
		return exact ? exact->dso : NULL;
	}
	/*
	 * The newest of the same identity (a generation 0 on either side
	 * matching any) or of an unknown one, as the chain walk found it
	 */
	probe.id = *id;
	if (id->ino_generation) {
		exact = dk_find(m, DK_NAME_ID, &probe, NULL);
		gen0 = dk_find(m, DK_NAME_INO_G0, &probe, NULL);
		if (!exact || (gen0 && gen0->dso->seq > exact->dso->seq))
			exact = gen0;
	} else {
		exact = dk_find(m, DK_NAME_INO, &probe, NULL);
	}
	noid = dk_find(m, DK_NAME_NOID, &probe, NULL);
	if (exact && noid)
		return exact->dso->seq > noid->dso->seq ? exact->dso : noid->dso;
	return exact ? exact->dso : noid ? noid->dso : NULL;
}

static struct sampo_dso *machine_find_dso_short(const struct sampo_machine *m, const char *name)
{
	struct sampo_dso probe = { .short_name = (char *)name };
	struct sampo_dso_key *k = dk_find(m, DK_SHORT, &probe, NULL);

	return k ? k->dso : NULL;
}

static int machine_grow_dsos(struct sampo_machine *m)
{
	size_t ncap = m->dsos_cap ? m->dsos_cap * 2 : 256;
	struct sampo_dso **nt = calloc(ncap, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (struct sampo_dso *dso = m->dso_list; dso; dso = dso->lnext) {
		size_t b = hash_str(dso->long_name) & (ncap - 1);

		dso->hnext = nt[b];
		nt[b] = dso;
	}
	free(m->dsos);
	m->dsos = nt;
	m->dsos_cap = ncap;
	return 0;
}

/* The table takes its own reference; the caller keeps theirs. */
static int machine_add_dso(struct sampo_machine *m, struct sampo_dso *dso)
{
	size_t b;

	if (!m->dsos_cap || m->nr_dsos >= m->dsos_cap - m->dsos_cap / 4) {
		int err = machine_grow_dsos(m);

		if (err)
			return err;
	}
	dso->machine_pid = m->pid;
	b = hash_str(dso->long_name) & (m->dsos_cap - 1);
	dso->hnext = m->dsos[b];
	m->dsos[b] = sampo_dso__get(dso);
	dso->lnext = NULL;
	*m->dso_tail = dso;
	m->dso_tail = &dso->lnext;
	m->nr_dsos++;
	dso->seq = m->nr_dsos;
	return machine_index_dso(m, dso);
}

/* A new reference to the DSO named @long_name (and of identity @id), created if missing. */
static struct sampo_dso *machine_findnew_dso(struct sampo_machine *m, const char *long_name,
					     const struct sampo_dso_id *id)
{
	struct sampo_dso *dso = machine_find_dso(m, long_name, id);

	if (dso)
		return sampo_dso__get(dso);
	dso = sampo_dso__new(long_name, NULL);
	if (!dso)
		return NULL;
	if (id)
		dso->id = *id;
	if (machine_add_dso(m, dso)) {
		sampo_dso__put(dso);
		return NULL;
	}
	return dso;
}

/*
 * A new reference to the DSO named @long_name with build-id @bid, created
 * if missing. Only a DSO with that very build-id matches: a DSO of the same
 * name without one (from an MMAP without build-id) may be another version.
 */
static struct sampo_dso *machine_findnew_dso_bid(struct sampo_machine *m, const char *long_name,
						 const uint8_t *bid, size_t bid_size)
{
	struct sampo_dso *dso;

	struct sampo_dso probe = { .long_name = (char *)long_name };
	struct sampo_dso_key *k;

	if (bid_size > SAMPO_BUILD_ID_MAX)
		bid_size = SAMPO_BUILD_ID_MAX;
	probe.build_id_size = (uint8_t)bid_size;
	memcpy(probe.build_id, bid, bid_size);
	k = dk_find(m, DK_NAME_BID, &probe, NULL);
	if (k)
		return sampo_dso__get(k->dso);
	dso = sampo_dso__new(long_name, NULL);
	if (!dso)
		return NULL;
	sampo_dso__set_build_id(dso, bid, bid_size);
	if (machine_add_dso(m, dso)) {
		sampo_dso__put(dso);
		return NULL;
	}
	return dso;
}

/* ---- the thread table --------------------------------------------------- */

static struct sampo_thread *machine_lookup_thread(const struct sampo_machine *m, int32_t tid)
{
	struct sampo_thread *t;

	if (m->last_thread && m->last_thread->tid == tid)
		return m->last_thread;
	for (t = m->threads[hash_tid(tid, m->threads_cap)]; t; t = t->hnext) {
		if (t->tid == tid)
			return t;
	}
	return NULL;
}

static int machine_grow_threads(struct sampo_machine *m)
{
	size_t ncap = m->threads_cap * 2;
	struct sampo_thread **nt = calloc(ncap, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (size_t b = 0; b < m->threads_cap; b++) {
		struct sampo_thread *t = m->threads[b], *next;

		for (; t; t = next) {
			size_t nb = hash_tid(t->tid, ncap);

			next = t->hnext;
			t->hnext = nt[nb];
			nt[nb] = t;
		}
	}
	free(m->threads);
	m->threads = nt;
	m->threads_cap = ncap;
	return 0;
}

/* The table takes over the caller's reference. */
static int machine_insert_thread(struct sampo_machine *m, struct sampo_thread *t)
{
	size_t b;

	if (m->nr_threads >= m->threads_cap - m->threads_cap / 4) {
		int err = machine_grow_threads(m);

		if (err)
			return err;
	}
	b = hash_tid(t->tid, m->threads_cap);
	t->hnext = m->threads[b];
	m->threads[b] = t;
	t->in_table = true;
	m->nr_threads++;
	return 0;
}

/* perf's machine__remove_thread(): forget @t; drops the table's reference. */
static void machine_remove_thread(struct sampo_machine *m, struct sampo_thread *t)
{
	struct sampo_thread **pp = &m->threads[hash_tid(t->tid, m->threads_cap)];

	if (!t->in_table)
		return;
	for (; *pp; pp = &(*pp)->hnext) {
		if (*pp == t) {
			*pp = t->hnext;
			break;
		}
	}
	if (m->last_thread == t)
		m->last_thread = NULL;
	t->hnext = NULL;
	t->in_table = false;
	m->nr_threads--;
	sampo_thread__put(t);
}

static struct sampo_thread *machine_findnew(struct sampo_machine *m, int32_t pid, int32_t tid,
					    bool create);

/*
 * A thread created without its pid learns it from a later lookup; it then
 * joins its process's maps (perf's machine__update_thread_pid).
 */
static void machine_update_thread_pid(struct sampo_machine *m, struct sampo_thread *t, int32_t pid)
{
	struct sampo_thread *leader;

	if (pid == t->pid || pid == -1 || t->pid != -1)
		return;
	t->pid = pid;
	if (t->pid == t->tid)
		return;
	leader = machine_findnew(m, pid, pid, true);
	if (!leader)
		return;
	if (!leader->maps)
		leader->maps = sampo_maps__new();
	if (leader->maps && t->maps != leader->maps) {
		sampo_maps__put(t->maps);
		t->maps = sampo_maps__get(leader->maps);
	}
	sampo_thread__put(leader);
}

/* A new reference, or NULL (not found, or out of memory). */
static struct sampo_thread *machine_findnew(struct sampo_machine *m, int32_t pid, int32_t tid,
					    bool create)
{
	struct sampo_thread *t = machine_lookup_thread(m, tid);

	if (t) {
		m->last_thread = t;
		machine_update_thread_pid(m, t, pid);
		return sampo_thread__get(t);
	}
	if (!create)
		return NULL;
	t = sampo_thread__new(pid, tid);
	if (!t)
		return NULL;
	if (machine_insert_thread(m, t)) {
		sampo_thread__put(t);
		return NULL;
	}
	/* maps after the insert: finding the leader may create it (perf's thread__init_maps) */
	if (pid == tid || pid == -1) {
		t->maps = sampo_maps__new();
	} else {
		struct sampo_thread *leader = machine_findnew(m, pid, pid, true);

		if (leader) {
			if (!leader->maps)
				leader->maps = sampo_maps__new();
			t->maps = sampo_maps__get(leader->maps);
			sampo_thread__put(leader);
		}
	}
	if (!t->maps) {
		machine_remove_thread(m, t);
		return NULL;
	}
	m->last_thread = t;
	return sampo_thread__get(t);
}

struct sampo_thread *sampo_machine__findnew_thread(struct sampo_machine *machine, int32_t pid,
						   int32_t tid)
{
	return machine_findnew(machine, pid, tid, true);
}

struct sampo_thread *sampo_machine__find_thread(struct sampo_machine *machine, int32_t pid,
						int32_t tid)
{
	return machine_findnew(machine, pid, tid, false);
}

size_t sampo_machine__nr_threads(const struct sampo_machine *machine)
{
	return machine->nr_threads;
}

struct sampo_thread *sampo_machine__next_thread(const struct sampo_machine *machine,
						const struct sampo_thread *prev)
{
	size_t b = 0;

	if (prev) {
		if (prev->hnext)
			return prev->hnext;
		b = hash_tid(prev->tid, machine->threads_cap) + 1;
	}
	for (; b < machine->threads_cap; b++) {
		if (machine->threads[b])
			return machine->threads[b];
	}
	return NULL;
}

/* ---- the machine -------------------------------------------------------- */

/* The host (@pid -1) or a guest machine (perf's machine__init()). */
static struct sampo_machine *machine_new(int32_t pid)
{
	struct sampo_machine *m = calloc(1, sizeof(*m));
	struct sampo_thread *first;
	char comm[32];

	if (!m)
		return NULL;
	m->pid = pid;
	m->kernel_gen = 1;
	m->dso_tail = &m->dso_list;
	m->threads_cap = pid == -1 ? 1024 : 64;
	m->threads = calloc(m->threads_cap, sizeof(*m->threads));
	m->kmaps = sampo_maps__new();
	if (pid == -1)
		m->mmap_name = strdup(KERNEL_MMAP_NAME);
	else if (pid == 0)
		m->mmap_name = strdup(GUEST_KERNEL_MMAP_NAME "]");
	else if (asprintf(&m->mmap_name, GUEST_KERNEL_MMAP_NAME ".%" PRId32 "]", pid) < 0)
		m->mmap_name = NULL;
	if (!m->threads || !m->kmaps || !m->mmap_name)
		goto out_delete;
	m->kmaps->may_overlap = true;

	/*
	 * perf registers the host's idle task before reading any record; a
	 * guest starts with one thread, tid = its pid, named "[guest/PID]".
	 */
	first = pid == -1 ? machine_findnew(m, 0, 0, true) : machine_findnew(m, -1, pid, true);
	if (!first)
		goto out_delete;
	if (pid == -1)
		snprintf(comm, sizeof(comm), "swapper");
	else
		snprintf(comm, sizeof(comm), "[guest/%" PRId32 "]", pid);
	if (sampo_thread__set_comm(first, comm, false)) {
		sampo_thread__put(first);
		goto out_delete;
	}
	sampo_thread__put(first);
	return m;

out_delete:
	sampo_machine__delete(m);
	return NULL;
}

struct sampo_machine *sampo_machine__new(void)
{
	return machine_new(-1);
}

struct sampo_machine *sampo_machine__new_guest(int32_t pid)
{
	return machine_new(pid);
}

void sampo_machine__delete(struct sampo_machine *machine)
{
	struct sampo_dso *dso, *next;

	if (!machine)
		return;
	while (machine->guests) {
		struct sampo_machine *g = machine->guests;

		machine->guests = g->gnext;
		sampo_machine__delete(g);
	}
	for (size_t b = 0; machine->threads && b < machine->threads_cap; b++) {
		while (machine->threads[b])
			machine_remove_thread(machine, machine->threads[b]);
	}
	free(machine->threads);
	sampo_map__put(machine->vmlinux_map);
	sampo_maps__put(machine->kmaps);
	for (dso = machine->dso_list; dso; dso = next) {
		next = dso->lnext;
		sampo_dso__put(dso);
	}
	free(machine->dsos);
	free(machine->dso_keys);
	sampo_hash_index__release(&machine->dso_ix);
	free(machine->ref_reloc_name);
	free(machine->mmap_name);
	free(machine->kernel_name);
	free(machine->gen_pids);
	free(machine->gen_gens);
	free(machine);
}

int32_t sampo_machine__pid(const struct sampo_machine *machine)
{
	return machine->pid;
}

bool sampo_machine__is_guest(const struct sampo_machine *machine)
{
	return machine->pid != -1;
}

const char *sampo_machine__mmap_name(const struct sampo_machine *machine)
{
	return machine->mmap_name;
}

struct sampo_map *sampo_machine__kernel_map(const struct sampo_machine *machine)
{
	return machine->vmlinux_map;
}

bool sampo_machine__kernel_ref_reloc(const struct sampo_machine *machine, const char **name,
				     uint64_t *addr)
{
	if (!machine->ref_reloc_name || !machine->ref_reloc_addr)
		return false;
	*name = machine->ref_reloc_name;
	*addr = machine->ref_reloc_addr;
	return true;
}

/* ---- kernel maps -------------------------------------------------------- */

/*
 * The DSO of the kernel map: the first kernel-space DSO that is not a module
 * (a build-id table entry, or an earlier kernel MMAP), else "[kernel.kallsyms]".
 */
static struct sampo_dso *machine_findnew_kernel_dso(struct sampo_machine *m)
{
	struct sampo_dso *dso;

	/* the list only grows: scan what came since the last call, once */
	dso = m->kdso_scanned ? m->kdso_scanned->lnext : m->dso_list;
	for (; dso && !m->kdso; dso = dso->lnext) {
		m->kdso_scanned = dso;
		if (dso->space == SAMPO_DSO_SPACE_KERNEL && !sampo_kmod__is_module(dso->long_name))
			m->kdso = dso;
	}
	if (m->kdso)
		return sampo_dso__get(m->kdso);
	if (m->kernel_name) {
		const char *slash = strrchr(m->kernel_name, '/');
		const char *base = slash ? slash + 1 : m->kernel_name;

		dso = machine_find_dso(m, m->kernel_name, NULL);
		if (dso)
			return sampo_dso__get(dso);
		dso = sampo_dso__new(m->kernel_name,
				     strcmp(base, "vmlinux") ? base : "[kernel.vmlinux]");
		if (!dso || machine_add_dso(m, dso)) {
			sampo_dso__put(dso);
			return NULL;
		}
		dso->space = SAMPO_DSO_SPACE_KERNEL;
		return dso;
	}
	dso = machine_findnew_dso(m, m->mmap_name, NULL);
	if (dso)
		dso->space = SAMPO_DSO_SPACE_KERNEL;
	return dso;
}

int sampo_machine__set_kernel_name(struct sampo_machine *m, const char *path)
{
	char *copy = strdup(path);

	if (!copy)
		return -ENOMEM;
	free(m->kernel_name);
	m->kernel_name = copy;
	return 0;
}

static int machine_set_kernel_map(struct sampo_machine *m, uint64_t start, uint64_t len,
				  uint64_t pgoff, const char *name)
{
	struct sampo_dso *kernel = machine_findnew_kernel_dso(m);
	struct sampo_map *map;
	uint64_t end = start + len;
	char *ref_name;
	int err;

	if (!kernel)
		return -ENOMEM;
	/* perf: "some perf.data file came with a zero sized synthesized MMAP event" */
	if (start == 0 && end == 0)
		end = UINT64_MAX;
	map = sampo_map__new(start, end, 0, kernel);
	sampo_dso__put(kernel);
	if (!map)
		return -ENOMEM;
	map->identity = true;

	if (m->vmlinux_map) {
		sampo_maps__remove(m->kmaps, m->vmlinux_map);
		sampo_map__put(m->vmlinux_map);
		m->vmlinux_map = NULL;
	}
	err = sampo_maps__insert(m->kmaps, map);
	if (err) {
		sampo_map__put(map);
		return err;
	}
	m->vmlinux_map = map;

	/* "[kernel.kallsyms]_text": the reference symbol and where it was */
	if (pgoff) {
		const char *sym = strchr(name, ']');

		ref_name = strdup(sym ? sym + 1 : "");
		if (!ref_name)
			return -ENOMEM;
		free(m->ref_reloc_name);
		m->ref_reloc_name = ref_name;
		m->ref_reloc_addr = pgoff;
	}
	return 0;
}

static int machine_add_module_map(struct sampo_machine *m, uint64_t start, uint64_t len,
				  const char *filename, const uint8_t *bid, size_t bid_size)
{
	struct sampo_dso *dso;
	struct sampo_map *map;
	char *short_name = NULL;
	bool kmod;
	int err;

	err = sampo_kmod__parse(filename, &kmod, &short_name);
	if (err)
		return err;
	dso = machine_find_dso_short(m, short_name);
	if (dso) {
		sampo_dso__get(dso);
	} else {
		dso = sampo_dso__new(filename, short_name);
		if (!dso || machine_add_dso(m, dso)) {
			sampo_dso__put(dso);
			free(short_name);
			return -ENOMEM;
		}
		dso->space = SAMPO_DSO_SPACE_KERNEL;
		dso->is_kmod = kmod;
	}
	free(short_name);
	if (bid_size)
		machine_dso_set_build_id(m, dso, bid, bid_size);

	map = sampo_map__new(start, start + len, 0, dso);
	sampo_dso__put(dso);
	if (!map)
		return -ENOMEM;
	err = sampo_maps__insert(m->kmaps, map);
	sampo_map__put(map);
	return err;
}

/* perf's machine__process_kernel_mmap_event() */
static int machine_process_kernel_mmap(struct sampo_machine *m, uint64_t start, uint64_t len,
				       uint64_t pgoff, const char *filename, const uint8_t *bid,
				       size_t bid_size)
{
	/* perf compares all but the closing bracket of "[kernel.kallsyms]" (or the guest's name) */
	bool is_kernel = !strncmp(filename, m->mmap_name, strlen(m->mmap_name) - 1);
	int err;

	if (filename[0] == '/' || (!is_kernel && filename[0] == '['))
		return machine_add_module_map(m, start, len, filename, bid, bid_size);
	if (is_kernel) {
		err = machine_set_kernel_map(m, start, len, pgoff, filename);
		if (!err && bid_size)
			machine_dso_set_build_id(m, m->vmlinux_map->dso, bid, bid_size);
		return err;
	}
	if (!strcmp(filename, ENTRY_TRAMPOLINE_NAME) && m->vmlinux_map) {
		/* x86_64 PTI entry trampolines: extra maps onto the kernel */
		struct sampo_map *map =
			sampo_map__new(start, start + len, pgoff, m->vmlinux_map->dso);

		if (!map)
			return -ENOMEM;
		err = sampo_maps__insert(m->kmaps, map);
		sampo_map__put(map);
		return err;
	}
	return 0;
}

/* ---- user maps ---------------------------------------------------------- */

static bool is_anon_memory(const char *name, uint32_t flags)
{
	return !strcmp(name, "//anon") || str_starts(name, "/dev/zero") ||
	       str_starts(name, "/anon_hugepage") || (flags & MAP_HUGETLB_BIT);
}

static bool is_no_dso_memory(const char *name)
{
	return str_starts(name, "[stack") || str_starts(name, "/SYSV") || !strcmp(name, "[heap]");
}

struct mmap_args {
	int32_t pid;
	int32_t tid;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
	uint32_t prot;
	uint32_t flags;
	const struct sampo_dso_id *id;
	const uint8_t *bid;
	size_t bid_size;
	const char *filename;
};

/* perf's map__new() + thread__insert_map() */
static int machine_process_user_mmap(struct sampo_machine *m, const struct mmap_args *a)
{
	struct sampo_thread *t = machine_findnew(m, a->pid, a->tid, true);
	bool anon, no_dso;
	struct sampo_dso *dso;
	struct sampo_map *map;
	const char *name = a->filename;
	uint64_t pgoff = a->pgoff;
	char perf_map[32];
	int err;

	if (!t)
		return -ENOMEM;
	anon = is_anon_memory(name, a->flags);
	no_dso = is_no_dso_memory(name);
	if ((anon || no_dso) && t->ns_pid != 0 && (a->prot & PROT_EXEC_BIT)) {
		snprintf(perf_map, sizeof(perf_map), "/tmp/perf-%" PRId32 ".map", t->ns_pid);
		name = perf_map;
	}
	if (!strcmp(name, "[vdso]")) {
		pgoff = 0;
		dso = machine_find_dso_short(m, "[vdso]");
		dso = dso ? sampo_dso__get(dso) : machine_findnew_dso(m, "[vdso]", NULL);
	} else if (a->bid_size) {
		/* MMAP2 with a build-id: the build-id is the identity (two versions, two DSOs) */
		dso = machine_findnew_dso_bid(m, name, a->bid, a->bid_size);
	} else {
		dso = machine_findnew_dso(m, name, a->id);
	}
	if (!dso) {
		sampo_thread__put(t);
		return -ENOMEM;
	}
	if (a->bid_size && !dso->build_id_size)
		machine_dso_set_build_id(m, dso, a->bid, a->bid_size); /* [vdso] */

	map = sampo_map__new(a->start, a->start + a->len, pgoff, dso);
	sampo_dso__put(dso);
	if (!map) {
		sampo_thread__put(t);
		return -ENOMEM;
	}
	map->prot = a->prot;
	map->flags = a->flags;
	map->identity = anon || no_dso;

	err = sampo_maps__fixup_overlaps(t->maps, map);
	if (!err)
		err = sampo_maps__insert(t->maps, map);
	sampo_map__put(map);
	sampo_thread__put(t);
	return err;
}

static bool is_kernel_cpumode(uint8_t cpumode)
{
	/* without --guest, perf treats guest kernel MMAPs as host kernel ones */
	return cpumode == SAMPO_CPUMODE_KERNEL || cpumode == SAMPO_CPUMODE_GUEST_KERNEL;
}

static int machine_process_mmap(struct sampo_machine *m, const struct sampo_event *ev)
{
	const struct sampo_record_mmap *e = &ev->record->mmap;
	struct mmap_args a = {
		.pid = (int32_t)e->pid,
		.tid = (int32_t)e->tid,
		.start = e->start,
		.len = e->len,
		.pgoff = e->pgoff,
		/* MMAP has no prot: perf assumes code unless MMAP_DATA */
		.prot = (e->header.misc & SAMPO_MISC_MMAP_DATA) ? 0 : PROT_EXEC_BIT,
		.filename = e->filename,
	};

	if (is_kernel_cpumode(ev->sample.cpumode))
		return machine_process_kernel_mmap(m, a.start, a.len, a.pgoff, a.filename, NULL, 0);
	return machine_process_user_mmap(m, &a);
}

static int machine_process_mmap2(struct sampo_machine *m, const struct sampo_event *ev)
{
	const struct sampo_record_mmap2 *e = &ev->record->mmap2;
	struct sampo_dso_id id = { 0 };
	struct mmap_args a = {
		.pid = (int32_t)e->pid,
		.tid = (int32_t)e->tid,
		.start = e->start,
		.len = e->len,
		.pgoff = e->pgoff,
		.prot = e->prot,
		.flags = e->flags,
		.id = &id,
		.filename = e->filename,
	};

	if (e->header.misc & SAMPO_MISC_MMAP_BUILD_ID) {
		a.bid = e->build_id;
		a.bid_size = MIN(e->build_id_size, SAMPO_BUILD_ID_MAX);
	} else {
		id = (struct sampo_dso_id){ e->maj, e->min, e->ino, e->ino_generation };
	}
	if (is_kernel_cpumode(ev->sample.cpumode))
		return machine_process_kernel_mmap(m, a.start, a.len, a.pgoff, a.filename, a.bid,
						   a.bid_size);
	return machine_process_user_mmap(m, &a);
}

/* ---- other records ------------------------------------------------------ */

static int machine_process_comm(struct sampo_machine *m, const struct sampo_event *ev)
{
	const struct sampo_record_comm *e = &ev->record->comm;
	bool exec = e->header.misc & SAMPO_MISC_COMM_EXEC;
	struct sampo_thread *t = machine_findnew(m, (int32_t)e->pid, (int32_t)e->tid, true);
	int err;

	if (!t)
		return -ENOMEM;
	if (exec)
		m->comm_exec = true;
	err = sampo_thread__set_comm(t, e->comm, exec);
	sampo_thread__put(t);
	return err;
}

static int machine_process_fork(struct sampo_machine *m, const struct sampo_event *ev)
{
	const struct sampo_record_fork *e = &ev->record->fork;
	int32_t pid = (int32_t)e->pid, tid = (int32_t)e->tid;
	int32_t ppid = (int32_t)e->ppid, ptid = (int32_t)e->ptid;
	struct sampo_thread *t = machine_findnew(m, pid, tid, false);
	struct sampo_thread *parent = machine_findnew(m, ppid, ptid, true);
	int err = -ENOMEM;

	/*
	 * A thread with the parent's tid but another pid is a stale one (its
	 * EXIT was lost, or records came out of order): start it afresh.
	 */
	if (parent && parent->pid != ppid) {
		machine_remove_thread(m, parent);
		sampo_thread__put(parent);
		parent = machine_findnew(m, ppid, ptid, true);
	}
	/* a thread that already has the child's tid is an old one: replace it */
	if (t) {
		machine_remove_thread(m, t);
		sampo_thread__put(t);
	}
	t = machine_findnew(m, pid, tid, true);
	if (t && parent) {
		/* synthesized FORKs of existing tasks say so with FORK_EXEC: their MMAPs follow */
		err = sampo_thread__fork(t, parent, !(e->header.misc & SAMPO_MISC_FORK_EXEC));
	}
	sampo_thread__put(t);
	sampo_thread__put(parent);
	return err;
}

static int machine_process_exit(struct sampo_machine *m, const struct sampo_event *ev)
{
	const struct sampo_record_fork *e = &ev->record->fork;
	struct sampo_thread *t = machine_findnew(m, (int32_t)e->pid, (int32_t)e->tid, false);

	if (t) {
		t->exited = true;
		sampo_thread__put(t);
	}
	return 0;
}

static bool is_bpf_image(const char *name)
{
	return str_starts(name, "bpf_trampoline_") || str_starts(name, "bpf_dispatcher_");
}

static int machine_process_ksymbol(struct sampo_machine *m, const struct sampo_event *ev)
{
	const struct sampo_record_ksymbol *e = &ev->record->ksymbol;
	struct sampo_map *map = sampo_maps__find(m->kmaps, e->addr);
	struct sampo_dso *dso;
	int err;

	if (e->flags & SAMPO_KSYMBOL_FLAG_UNREGISTER) {
		if (map && map != m->vmlinux_map)
			sampo_maps__remove(m->kmaps, map);
		return 0;
	}
	if (map)
		return 0;
	/* perf keeps these DSOs out of the machine's DSO list */
	dso = sampo_dso__new(is_bpf_image(e->name) ? "" : e->name, e->name);
	if (!dso)
		return -ENOMEM;
	dso->space = SAMPO_DSO_SPACE_KERNEL;
	dso->is_ksymbol = true;
	dso->machine_pid = m->pid;
	map = sampo_map__new(e->addr, e->addr + e->len, 0, dso);
	sampo_dso__put(dso);
	if (!map)
		return -ENOMEM;
	err = sampo_maps__insert(m->kmaps, map);
	sampo_map__put(map);
	return err;
}

/* ---- generation counters ---------------------------------------------- */

static size_t gen_slot(const struct sampo_machine *m, int32_t pid)
{
	size_t j = hash_tid(pid, m->gen_cap);

	while ((m->gen_pids[j] || m->gen_gens[j]) && m->gen_pids[j] != pid)
		j = (j + 1) & (m->gen_cap - 1);
	return j;
}

uint32_t sampo_machine__kernel_generation(const struct sampo_machine *machine)
{
	return machine->kernel_gen;
}

uint32_t sampo_machine__process_generation(const struct sampo_machine *machine, int32_t pid)
{
	return machine->gen_cap ? machine->gen_gens[gen_slot(machine, pid)] : 0;
}

static int machine_grow_gens(struct sampo_machine *m)
{
	size_t ncap = m->gen_cap ? m->gen_cap * 2 : 1024;
	int32_t *pids = calloc(ncap, sizeof(*pids));
	uint32_t *gens = calloc(ncap, sizeof(*gens));
	struct sampo_machine n = { .gen_pids = pids, .gen_gens = gens, .gen_cap = ncap };

	if (!pids || !gens) {
		free(pids);
		free(gens);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->gen_cap; i++) {
		if (m->gen_pids[i] || m->gen_gens[i]) {
			size_t k = gen_slot(&n, m->gen_pids[i]);

			pids[k] = m->gen_pids[i];
			gens[k] = m->gen_gens[i];
		}
	}
	free(m->gen_pids);
	free(m->gen_gens);
	m->gen_pids = pids;
	m->gen_gens = gens;
	m->gen_cap = ncap;
	return 0;
}

static void machine_process_changed(struct sampo_machine *m, int32_t pid)
{
	size_t j;

	if ((m->gen_nr + 1) * 2 > m->gen_cap && machine_grow_gens(m)) {
		m->kernel_gen++; /* cannot count it: every cache must go */
		return;
	}
	j = gen_slot(m, pid);
	if (!m->gen_pids[j] && !m->gen_gens[j])
		m->gen_nr++;
	m->gen_pids[j] = pid;
	if (!++m->gen_gens[j])
		m->gen_gens[j] = 1; /* 0 marks an empty slot */
}

/*
 * Move the counters a record changes (before the record is applied: no
 * lookup runs in between). Kernel maps (pid -1) are everybody's, and so
 * are a guest's, whatever its pid: they move the kernel's generation.
 */
static void machine_count_change(struct sampo_machine *m, const union sampo_record *rec)
{
	switch (rec->header.type) {
	case SAMPO_RECORD_MMAP:
	case SAMPO_RECORD_MMAP2:
		/* pid sits at the same offset in both */
		if ((int32_t)rec->mmap.pid == -1 ||
		    (rec->header.misc & SAMPO_MISC_CPUMODE_MASK) != SAMPO_CPUMODE_USER)
			m->kernel_gen++;
		else
			machine_process_changed(m, (int32_t)rec->mmap.pid);
		break;
	case SAMPO_RECORD_COMM:
		machine_process_changed(m, (int32_t)rec->comm.pid);
		break;
	case SAMPO_RECORD_FORK:
	case SAMPO_RECORD_EXIT:
		machine_process_changed(m, (int32_t)rec->fork.pid);
		machine_process_changed(m, (int32_t)rec->fork.ppid);
		break;
	case SAMPO_RECORD_KSYMBOL:
		m->kernel_gen++;
		break;
	default:
		break;
	}
}

int sampo_machine__process_event(struct sampo_machine *machine, const struct sampo_event *ev)
{
	uint32_t type = ev->record->header.type;

	machine_count_change(machine, ev->record);

	/*
	 * A guest's maps go to the machine of the MMAP's pid (the default
	 * guest's are synthesized with pid 0, the others' with qemu's pid).
	 * perf does that only for the guests --guestmount names, and folds
	 * every other guest into the default one, where the last guest kernel
	 * map replaces the others and one guest's samples take another's
	 * symbols: sampo keeps every guest apart.
	 */
	if (machine->guests_enabled && sampo_cpumode__is_guest(ev->sample.cpumode) &&
	    (type == SAMPO_RECORD_MMAP || type == SAMPO_RECORD_MMAP2)) {
		int32_t pid = type == SAMPO_RECORD_MMAP ? (int32_t)ev->record->mmap.pid :
							  (int32_t)ev->record->mmap2.pid;
		struct sampo_machine *guest = sampo_machine__findnew_guest_exact(machine, pid);

		if (!guest)
			return machine->guests_dropped ? 0 : -ENOMEM;
		machine = guest;
	}
	switch (type) {
	case SAMPO_RECORD_COMM:
		return machine_process_comm(machine, ev);
	case SAMPO_RECORD_FORK:
		return machine_process_fork(machine, ev);
	case SAMPO_RECORD_EXIT:
		return machine_process_exit(machine, ev);
	case SAMPO_RECORD_MMAP:
		return machine_process_mmap(machine, ev);
	case SAMPO_RECORD_MMAP2:
		return machine_process_mmap2(machine, ev);
	case SAMPO_RECORD_KSYMBOL:
		return machine_process_ksymbol(machine, ev);
	default:
		return 0;
	}
}

/* ---- lookups ------------------------------------------------------------ */

void sampo_addr_location__exit(struct sampo_addr_location *al)
{
	sampo_map__put(al->map);
	sampo_thread__put(al->thread);
	memset(al, 0, sizeof(*al));
}

struct sampo_map *sampo_machine__find_map(struct sampo_machine *machine,
					  struct sampo_thread *thread, uint8_t cpumode,
					  uint64_t addr, struct sampo_addr_location *al)
{
	struct sampo_maps *maps;
	struct sampo_map *map;

	sampo_addr_location__exit(al);
	al->thread = sampo_thread__get(thread);
	al->addr = addr;
	al->cpumode = cpumode;
	if (cpumode == SAMPO_CPUMODE_KERNEL) {
		al->level = 'k';
		maps = machine->kmaps;
	} else if (cpumode == SAMPO_CPUMODE_USER) {
		al->level = '.';
		maps = thread ? thread->maps : NULL;
	} else if (cpumode == SAMPO_CPUMODE_GUEST_KERNEL && machine->pid != -1) {
		al->level = 'g';
		maps = machine->kmaps;
	} else if (cpumode == SAMPO_CPUMODE_GUEST_USER && machine->pid != -1) {
		al->level = 'u';
		maps = thread ? thread->maps : NULL;
	} else {
		al->level = 'H';
		return NULL;
	}
	map = maps ? sampo_maps__find(maps, addr) : NULL;
	if (map) {
		al->map = sampo_map__get(map);
		al->addr = sampo_map__map_ip(map, addr);
	}
	return al->map;
}

int sampo_machine__resolve(struct sampo_machine *machine, const struct sampo_sample *sample,
			   struct sampo_addr_location *al)
{
	struct sampo_thread *t;

	machine = sampo_machine__for_cpumode(machine, sample->cpumode, (int32_t)sample->pid);
	if (!machine) {
		sampo_addr_location__exit(al);
		return -ENOMEM;
	}
	t = machine_findnew(machine, (int32_t)sample->pid, (int32_t)sample->tid, true);
	if (!t) {
		sampo_addr_location__exit(al);
		return -ENOMEM;
	}
	sampo_machine__find_map(machine, t, sample->cpumode, sample->ip, al);
	sampo_thread__put(t);
	return 0;
}
