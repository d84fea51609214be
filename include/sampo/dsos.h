/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * dsos.h - the DSOs of a perf.data file as perf's session lists them, with
 * their build-ids and whether samples hit them: what `perf buildid-list`
 * prints (perf's machines' dsos lists and build_id__mark_dso_hit()).
 *
 *	BUILD_ID table ─┐
 *	HEADER_BUILD_ID ┼─> per machine (host, then guests by pid), a list of
 *	MMAP/MMAP2 ─────┘   DSOs in creation order, each with its build-id
 *	SAMPLE ──────────> the DSO of the map that holds the sample's ip is "hit"
 *
 *	err = sampo_dsos__new(machine, &dsos);		the machine: a session's
 *	err = sampo_dsos__add_build_ids(dsos, features);	the BUILD_ID table
 *	for each record, after the machine has seen it:
 *		err = sampo_dsos__process_event(dsos, ev);
 *	for (size_t it = 0; (d = sampo_dsos__next(dsos, &it));)
 *		... d->long_name, d->bid, d->hit ...
 *
 * A DSO is matched as perf's dsos__find*() do: a user DSO by its long name
 * and its id (device, inode: an empty id matches any, and the first
 * non-empty one seen is given to a DSO that had none; perf reads the id
 * fields of a build-id MMAP2 too, so such a map usually makes a DSO of its
 * own), "[vdso]" by short name, a module by its short name ("[xor]",
 * <sampo/kmodule.h>), and the kernel is the first kernel-space DSO that is
 * not a module, whatever its name ("[kernel.kallsyms]", a vmlinux path, ...),
 * else "[kernel.kallsyms]".
 *
 * The samples' maps come from the machine, which knows DSOs by name only;
 * each user map it creates is remembered with the DSO perf would give it, so
 * that a hit goes to the right one of two DSOs of the same name. Feed the
 * machine MMAP, MMAP2, FORK and EXIT only, as perf's buildid-list tool does
 * (no KSYMBOL: it makes no BPF maps).
 */
#ifndef SAMPO_DSOS_H
#define SAMPO_DSOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/buildid.h>
#include <sampo/common.h>

struct sampo_dsos;
struct sampo_event;
struct sampo_features;
struct sampo_machine;

/* One DSO of the list. */
struct sampo_dsos_entry {
	const char *long_name;	   /* what perf prints: the path, "[kernel.kallsyms]", ... */
	const char *short_name;	   /* the base name, or "[name]" for modules */
	int32_t machine_pid;	   /* -1 the host, else a guest's pid */
	bool kernel;		   /* kernel space (perf's dso->kernel) */
	bool kmod;		   /* a kernel module */
	bool hit;		   /* a sample's ip fell in one of its maps */
	struct sampo_build_id bid; /* size 0: none known */
};

/**
 * sampo_dsos__new() - an empty list (the host's machine list only)
 * @machine: the machine the records go to (borrowed; must outlive the list)
 * @ret: on success, the list; free with sampo_dsos__delete()
 *
 * Return: 0 or -ENOMEM.
 */
SAMPO_API int sampo_dsos__new(struct sampo_machine *machine, struct sampo_dsos **ret);

/** sampo_dsos__delete() - free the list; NULL is allowed */
SAMPO_API void sampo_dsos__delete(struct sampo_dsos *dsos);

/**
 * sampo_dsos__add_build_id() - one build-id table entry (perf's
 * __event_process_build_id())
 * @pid: the machine: -1 the host, else a guest
 * @cpumode: SAMPO_CPUMODE_*: (guest) kernel entries are kernel space; entries
 *	     of other modes (hypervisor, unknown) are skipped, as perf does
 * @filename: the DSO's long name (copied)
 * @bid: its build-id, @size bytes (at most SAMPO_BUILD_ID_SIZE are kept)
 *
 * Return: 0 or -ENOMEM.
 */
SAMPO_API int sampo_dsos__add_build_id(struct sampo_dsos *dsos, int32_t pid, uint8_t cpumode,
				       const char *filename, const uint8_t *bid, size_t size);

/** sampo_dsos__add_build_ids() - every entry of the BUILD_ID feature of @f (none: 0) */
SAMPO_API int sampo_dsos__add_build_ids(struct sampo_dsos *dsos, const struct sampo_features *f);

/**
 * sampo_dsos__process_event() - one record, after the machine has seen it
 *
 * MMAP and MMAP2 create the DSO perf creates for them (with an MMAP2's
 * build-id), at its place in the list; SAMPLE marks the DSO of its ip's map
 * hit; HEADER_BUILD_ID (perf inject -b, pipe mode) is a build-id table entry.
 * Other records are ignored.
 *
 * Return: 0 or -ENOMEM.
 */
SAMPO_API int sampo_dsos__process_event(struct sampo_dsos *dsos, const struct sampo_event *ev);

/**
 * sampo_dsos__next() - iterate, as perf prints: the host's DSOs in creation
 * order, then each guest's, by increasing pid
 * @iter: set to 0 to start; advanced by each call
 *
 * Return: the next entry (borrowed: valid until the list changes), or NULL
 * at the end.
 */
SAMPO_API const struct sampo_dsos_entry *sampo_dsos__next(const struct sampo_dsos *dsos,
							  size_t *iter);

#endif /* SAMPO_DSOS_H */
