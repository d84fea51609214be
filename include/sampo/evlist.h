/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * evlist.h - a list of events opened with perf_event_open(2), their ring
 * buffers and the draining of those rings: the recording side of libsampo.
 *
 *	evlist = sampo_evlist__new();
 *	idx = sampo_evlist__add(evlist, &attr, "cpu-clock");
 *	err = sampo_evlist__open(evlist, cpus, nr_cpus, pids, nr_pids);
 *	err = sampo_evlist__mmap(evlist, 128);
 *	sampo_evlist__enable(evlist);		(or let enable_on_exec do it)
 *	while (!done) {
 *		sampo_evlist__poll(evlist, 100, &all_hup);
 *		sampo_evlist__drain(evlist, fn, ctx);	fn sees each record
 *	}
 *	sampo_evlist__delete(evlist);
 *
 * Topology: every event is opened once per (cpu, thread) pair. With a CPU
 * list there is one ring per CPU and every other descriptor on that CPU is
 * redirected into it (PERF_EVENT_IOC_SET_OUTPUT), as perf does; without one
 * (cpu -1, per-thread mode) there is one ring per thread. Records in one ring
 * come in time order; the rings are not ordered with respect to each other.
 */
#ifndef SAMPO_EVLIST_H
#define SAMPO_EVLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>
#include <sampo/event.h>

struct sampo_evlist;

/**
 * sampo_evlist_record_fn - called by sampo_evlist__drain() for each record
 * @ctx: the caller's pointer
 * @rec: the record, host order, 8-byte aligned, header.size bytes; borrowed:
 *       valid during the call only (it points into the ring or a copy)
 * @ring: index of the ring it came from
 *
 * Return: 0 to go on, or a negative errno that stops the drain (the record
 * is then still consumed).
 */
typedef int (*sampo_evlist_record_fn)(void *ctx, const union sampo_record *rec, size_t ring);

/** sampo_evlist__new() - an empty list; NULL when out of memory */
SAMPO_API struct sampo_evlist *sampo_evlist__new(void);

/** sampo_evlist__delete() - close every descriptor, unmap the rings, free; NULL is allowed */
SAMPO_API void sampo_evlist__delete(struct sampo_evlist *evlist);

/**
 * sampo_evlist__add() - add an event, before sampo_evlist__open()
 * @attr: copied; .size 0 means the size this library knows
 * @name: the event's name for the file's EVENT_DESC ("cpu-clock"); copied
 *
 * Return: the index of the event, or -EINVAL, -EBUSY (already open), -ENOMEM.
 */
SAMPO_API int sampo_evlist__add(struct sampo_evlist *evlist, const struct sampo_event_attr *attr,
				const char *name);

/** sampo_evlist__nr_events() - how many events were added */
SAMPO_API size_t sampo_evlist__nr_events(const struct sampo_evlist *evlist);

/**
 * sampo_evlist__attr() - an event's attr as it was opened (borrowed)
 *
 * sampo_evlist__open() may have cleared flags the kernel refused
 * (SAMPO_ATTR_BUILD_ID on kernels before 5.12); this is what to write into
 * the file. NULL for a bad @idx.
 */
SAMPO_API const struct sampo_event_attr *sampo_evlist__attr(const struct sampo_evlist *evlist,
							    size_t idx);

/** sampo_evlist__name() - an event's name (borrowed), NULL for a bad @idx */
SAMPO_API const char *sampo_evlist__name(const struct sampo_evlist *evlist, size_t idx);

/**
 * sampo_evlist__open() - open every event on every (cpu, thread) pair
 * @cpus: CPU numbers, or NULL / @nr_cpus 0 for "any CPU" (per-thread mode)
 * @pids: thread ids (a process id follows that process's children when the
 *        attr has SAMPO_ATTR_INHERIT), or NULL / @nr_pids 0 for "every
 *        thread" (system-wide; needs CPUs)
 *
 * When the kernel rejects SAMPO_ATTR_BUILD_ID with -EINVAL, the flag is
 * cleared and the open retried (see sampo_evlist__attr()).
 *
 * Return: 0, or the -errno of perf_event_open(2) for the first failure
 * (-ENOENT / -EOPNOTSUPP / -ENODEV: the event does not exist here, -EACCES /
 * -EPERM: not allowed, -ESRCH: no such thread), with nothing left open;
 * -EINVAL for a bad combination, -EBUSY if already open.
 */
SAMPO_API int sampo_evlist__open(struct sampo_evlist *evlist, const int *cpus, size_t nr_cpus,
				 const int *pids, size_t nr_pids);

/**
 * sampo_evlist__failed_event() - after a failed open: the index of the
 * event that failed, or -1
 */
SAMPO_API int sampo_evlist__failed_event(const struct sampo_evlist *evlist);

/**
 * sampo_evlist__ids() - the kernel ids of event @idx, one per descriptor (borrowed)
 * @nr: set to how many
 */
SAMPO_API const uint64_t *sampo_evlist__ids(const struct sampo_evlist *evlist, size_t idx,
					    size_t *nr);

/**
 * sampo_evlist__mmap() - map one ring per CPU (per thread in per-thread mode)
 * @pages: data pages per ring, a power of 2 (0: 128 pages, 512 KiB with 4 KiB pages)
 *
 * Return: 0, -EINVAL (@pages not a power of 2), or the -errno of mmap(2)
 * (-EPERM: above perf_event_mlock_kb for an unprivileged user).
 */
SAMPO_API int sampo_evlist__mmap(struct sampo_evlist *evlist, size_t pages);

/** sampo_evlist__nr_rings() - how many rings sampo_evlist__mmap() made */
SAMPO_API size_t sampo_evlist__nr_rings(const struct sampo_evlist *evlist);

/** sampo_evlist__ring_cpu() - the CPU of a ring, or -1 in per-thread mode */
SAMPO_API int sampo_evlist__ring_cpu(const struct sampo_evlist *evlist, size_t ring);

/** sampo_evlist__enable() - start counting on every descriptor; return 0 or -errno */
SAMPO_API int sampo_evlist__enable(struct sampo_evlist *evlist);

/** sampo_evlist__disable() - stop counting on every descriptor; return 0 or -errno */
SAMPO_API int sampo_evlist__disable(struct sampo_evlist *evlist);

/**
 * sampo_evlist__poll() - wait until a ring has data
 * @timeout_ms: as poll(2)
 * @ret_all_hup: optional; set to true when every descriptor reports POLLHUP
 *               (all the monitored threads are gone; never in system-wide mode)
 *
 * Return: the number of rings with data (>= 0), 0 also on EINTR, or -errno.
 */
SAMPO_API int sampo_evlist__poll(struct sampo_evlist *evlist, int timeout_ms, bool *ret_all_hup);

/**
 * sampo_evlist__drain() - hand every record now in the rings to @fn
 *
 * Rings are read one after the other; each ring's records are consumed up
 * to the head read at the start. A record that wraps around the end of the
 * ring is copied so that @fn always gets it whole.
 *
 * Return: the number of records handed out, or the first error of @fn, or
 * -SAMPO_ERR_MALFORMED for a record with an impossible size (the ring is
 * then emptied).
 */
SAMPO_API int64_t sampo_evlist__drain(struct sampo_evlist *evlist, sampo_evlist_record_fn fn,
				      void *ctx);

/**
 * sampo_evlist__sample_id_size() - bytes of the sample_id trailer that the
 * kernel appends to non-SAMPLE records for event @idx (0 without
 * SAMPO_ATTR_SAMPLE_ID_ALL)
 */
SAMPO_API size_t sampo_evlist__sample_id_size(const struct sampo_event_attr *attr);

#endif /* SAMPO_EVLIST_H */
