/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * thread.h - a thread of the recorded machine: pid, tid, parent, comm, and
 * the maps of its process (shared by the threads of that process).
 *
 * Threads are made and changed by their machine (machine.h) as it applies
 * COMM, FORK, EXIT and MMAP records; a caller gets them from
 * sampo_machine__findnew_thread() and friends, reads them with the
 * accessors below, and drops its reference with sampo_thread__put().
 */
#ifndef SAMPO_THREAD_H
#define SAMPO_THREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_thread;
struct sampo_map;

/** sampo_thread__get() - take a reference; returns @thread (NULL is allowed) */
SAMPO_API struct sampo_thread *sampo_thread__get(struct sampo_thread *thread);
/** sampo_thread__put() - drop a reference; NULL is allowed */
SAMPO_API void sampo_thread__put(struct sampo_thread *thread);

SAMPO_API int32_t sampo_thread__pid(const struct sampo_thread *thread); /* -1: unknown */
SAMPO_API int32_t sampo_thread__tid(const struct sampo_thread *thread);
SAMPO_API int32_t sampo_thread__ppid(const struct sampo_thread *thread); /* -1: unknown */
/** sampo_thread__comm() - the current comm, ":<tid>" until one is known (borrowed) */
SAMPO_API const char *sampo_thread__comm(const struct sampo_thread *thread);
/** sampo_thread__comm_set() - a COMM (or a FORK from a named parent) gave the comm */
SAMPO_API bool sampo_thread__comm_set(const struct sampo_thread *thread);
/** sampo_thread__exited() - an EXIT record was seen for the thread */
SAMPO_API bool sampo_thread__exited(const struct sampo_thread *thread);
/** sampo_thread__nr_maps() - maps of the thread's process */
SAMPO_API size_t sampo_thread__nr_maps(const struct sampo_thread *thread);
/** sampo_thread__map() - map @idx of the process, by increasing start (borrowed) */
SAMPO_API struct sampo_map *sampo_thread__map(const struct sampo_thread *thread, size_t idx);

#endif /* SAMPO_THREAD_H */
