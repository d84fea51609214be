// SPDX-License-Identifier: LGPL-2.1
/*
 * thread.c - a thread of the recorded machine (include/sampo/thread.h): its
 * pid, tid, parent, comm and the maps of its process, which it shares with
 * the other threads of that process (the group leader's). The machine
 * (lib/machine.c) keeps the threads in a table by tid and applies the
 * records; this file holds what a thread does by itself, such as taking
 * its parent's comm and maps at a FORK (perf's thread__fork()).
 *
 * A thread is reference counted: the machine's table holds one reference
 * until the thread is replaced (a new FORK with its tid) or the machine
 * goes; lookups hand out new references.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/thread.h>
#include "internal/map.h"
#include "internal/thread.h"

int sampo_thread__set_comm(struct sampo_thread *t, const char *comm, bool exec)
{
	char *copy = strdup(comm);

	if (!copy)
		return -ENOMEM;
	/* TODO(machine): keep the comm history with timestamps for time-sorted reports */
	free(t->comm);
	t->comm = copy;
	t->comm_set = true;
	t->comm_exec = exec;
	return 0;
}

struct sampo_thread *sampo_thread__new(int32_t pid, int32_t tid)
{
	struct sampo_thread *t = calloc(1, sizeof(*t));
	char comm[16];

	if (!t)
		return NULL;
	snprintf(comm, sizeof(comm), ":%" PRId32, tid);
	t->comm = strdup(comm);
	if (!t->comm) {
		free(t);
		return NULL;
	}
	t->refcnt = 1;
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	t->ns_pid = pid;
	return t;
}

struct sampo_thread *sampo_thread__get(struct sampo_thread *thread)
{
	if (thread)
		thread->refcnt++;
	return thread;
}

void sampo_thread__put(struct sampo_thread *thread)
{
	if (!thread || --thread->refcnt > 0)
		return;
	sampo_maps__put(thread->maps);
	free(thread->comm);
	free(thread);
}

int32_t sampo_thread__pid(const struct sampo_thread *thread)
{
	return thread->pid;
}

int32_t sampo_thread__tid(const struct sampo_thread *thread)
{
	return thread->tid;
}

int32_t sampo_thread__ppid(const struct sampo_thread *thread)
{
	return thread->ppid;
}

const char *sampo_thread__comm(const struct sampo_thread *thread)
{
	return thread->comm;
}

bool sampo_thread__comm_set(const struct sampo_thread *thread)
{
	return thread->comm_set;
}

bool sampo_thread__exited(const struct sampo_thread *thread)
{
	return thread->exited;
}

size_t sampo_thread__nr_maps(const struct sampo_thread *thread)
{
	return thread->maps ? sampo_maps__nr(thread->maps) : 0;
}

struct sampo_map *sampo_thread__map(const struct sampo_thread *thread, size_t idx)
{
	return thread->maps ? sampo_maps__at(thread->maps, idx) : NULL;
}

/* perf's thread__fork(): the child takes the parent's comm and, for a new process, its maps */
int sampo_thread__fork(struct sampo_thread *t, const struct sampo_thread *parent, bool clone_maps)
{
	int err;

	if (parent->comm_set) {
		err = sampo_thread__set_comm(t, parent->comm, false);
		if (err)
			return err;
	}
	t->ppid = parent->tid;
	if (t->pid == parent->pid || t->maps == parent->maps || !clone_maps)
		return 0;
	return sampo_maps__clone_into(t->maps, parent->maps);
}