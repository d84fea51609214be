/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * dsohits.h - which DSOs got samples, found while recording.
 *
 * perf record finds the DSOs for its build-id table with a second pass over
 * the whole file once the workload has ended (1 s and more). sampo record
 * feeds every record to a struct sampo_dsohits as it drains the rings, so
 * that the answer is ready when the workload ends.
 *
 * The tracker keeps, per process, the executable maps announced by MMAP and
 * MMAP2 records (synthesized or from the kernel), copies a parent's maps on
 * FORK of a new process, drops them on an exec COMM, and looks up the IP of
 * each SAMPLE: kernel-mode IPs in the kernel maps (pid -1: the kernel map and
 * modules), user-mode IPs in the process's maps. Only the sample's IP
 * counts, as in perf 6.1 (not the callchain).
 *
 * Records of different rings come out of order; sampo_dsohits__add()
 * queues them and sampo_dsohits__flush() (call it once per round) applies
 * them in time order, as perf's ordered events would.
 */
#ifndef SAMPO_DSOHITS_H
#define SAMPO_DSOHITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/buildid.h>
#include <sampo/common.h>
#include <sampo/event.h>

struct sampo_dsohits;

/* One DSO that got samples. */
struct sampo_dsohit {
	const char *
		name; /* "/usr/lib/x86_64-linux-gnu/libc.so.6", "[kernel.kallsyms]", "[vdso]", ... */
	uint8_t cpumode; /* SAMPO_CPUMODE_KERNEL (kernel, modules) or SAMPO_CPUMODE_USER */
	bool kernel;	 /* the kernel itself ([kernel.kallsyms]) */
	struct sampo_build_id bid; /* from an MMAP2 with build-id, else size 0 */
	uint64_t nr_samples;
};

/** sampo_dsohits__new() - an empty tracker; NULL when out of memory */
SAMPO_API struct sampo_dsohits *sampo_dsohits__new(void);

/** sampo_dsohits__delete() - free it; NULL is allowed */
SAMPO_API void sampo_dsohits__delete(struct sampo_dsohits *hits);

/**
 * sampo_dsohits__add() - queue one record
 * @attr: the attr the record belongs to (its sample_type says where the pid,
 *        IP and time are)
 * @rec: host order; copied as needed (borrowed)
 *
 * MMAP, MMAP2, COMM, FORK, EXIT and SAMPLE records matter; others are ignored.
 * Return: 0, -ENOMEM, or -SAMPO_ERR_MALFORMED (the record is ignored).
 */
SAMPO_API int sampo_dsohits__add(struct sampo_dsohits *hits, const struct sampo_event_attr *attr,
				 const union sampo_record *rec);

/** sampo_dsohits__flush() - apply the queued records in time order; 0 or -ENOMEM */
SAMPO_API int sampo_dsohits__flush(struct sampo_dsohits *hits);

/** sampo_dsohits__nr() - number of DSOs known (hit or not) */
SAMPO_API size_t sampo_dsohits__nr(const struct sampo_dsohits *hits);

/** sampo_dsohits__dso() - DSO @idx (borrowed, valid until the next add/flush); NULL past the end */
SAMPO_API const struct sampo_dsohit *sampo_dsohits__dso(const struct sampo_dsohits *hits,
							size_t idx);

/** sampo_dsohits__nr_samples() - samples seen, and how many of them matched no map */
SAMPO_API uint64_t sampo_dsohits__nr_samples(const struct sampo_dsohits *hits,
					     uint64_t *unresolved);

/** sampo_dsohits__time_range() - first and last sample time (ns); false if no sample had one */
SAMPO_API bool sampo_dsohits__time_range(const struct sampo_dsohits *hits, uint64_t *first,
					 uint64_t *last);

struct sampo_dsohit_bid_opts {
	size_t sz;
	const char *sys_dir;		       /* NULL: "/sys" (kernel/notes, module/NAME/notes) */
	const struct sampo_build_id *vdso_bid; /* the vDSO's, for "[vdso]"; NULL: unknown */
	bool all; /* sampo_dsohits__build_ids(): every DSO mapped, hit or not (--buildid-all) */
};
#define sampo_dsohit_bid_opts__last_field all

/**
 * sampo_dsohit__build_id() - the build-id perf record writes for a DSO with samples
 * @hit: the DSO
 * @opts: optional; where /sys is, the vDSO's build-id
 * @ret: on success, the build-id
 *
 * In order: the one its MMAP2 record carried; for the kernel, SYS/kernel/notes;
 * for "[vdso]", @opts->vdso_bid; for a module, its notes under
 * SYS/module/NAME; for a file (see sampo_buildid_cache__dso_kind()), its
 * ELF note, read from the file now.
 * Return: 0, -ENOENT (none known), or -errno / -SAMPO_ERR_MALFORMED from
 * the file read
 */
SAMPO_API int sampo_dsohit__build_id(const struct sampo_dsohit *hit,
				     const struct sampo_dsohit_bid_opts *opts,
				     struct sampo_build_id *ret);

/* One row of perf record's build-id table. */
struct sampo_dsohit_build_id {
	const struct sampo_dsohit *hit; /* borrowed from the tracker */
	struct sampo_build_id bid;
};

/**
 * sampo_dsohits__build_ids() - perf record's build-id table
 * @hits: the tracker, flushed
 * @opts: optional; as for sampo_dsohit__build_id()
 * @ret_rows: on success, the rows (free() the array; the rows borrow from
 *	      @hits and stay valid until its next add or flush), NULL when none
 * @ret_nr: on success, how many
 *
 * The DSOs with samples (every DSO mapped with @opts->all) whose build-id
 * is known (sampo_dsohit__build_id()), the kernel first, then the others in
 * the order their maps appeared, as perf record writes them.
 * Return: 0, -EINVAL, -ENOMEM
 */
SAMPO_API int sampo_dsohits__build_ids(const struct sampo_dsohits *hits,
				       const struct sampo_dsohit_bid_opts *opts,
				       struct sampo_dsohit_build_id **ret_rows, size_t *ret_nr);

#endif /* SAMPO_DSOHITS_H */
