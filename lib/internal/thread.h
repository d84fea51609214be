/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/thread.h - the struct body of a thread (see
 * include/sampo/thread.h and lib/thread.c).
 */
#ifndef SAMPO_INTERNAL_THREAD_H
#define SAMPO_INTERNAL_THREAD_H

#include <stdbool.h>
#include <stdint.h>

#include <sampo/thread.h>

struct sampo_maps;

struct sampo_thread {
	int refcnt;
	int32_t pid; /* -1 until known */
	int32_t tid;
	int32_t ppid;
	/*
	 * perf names anonymous code maps after the pid its thread had when it
	 * was created (its nsinfo); 0 means none (the idle task).
	 */
	int32_t ns_pid;
	bool comm_set;
	bool comm_exec;
	bool exited;
	bool in_table;
	char *comm;		    /* owned */
	struct sampo_maps *maps;    /* reference; shared by the threads of a process */
	struct sampo_thread *hnext; /* chain of the machine's thread table */
};

/* thread @tid of @pid (-1: unknown), comm ":<tid>", no maps yet; NULL: no memory */
struct sampo_thread *sampo_thread__new(int32_t pid, int32_t tid);
/* a copy of @comm becomes the thread's comm. Return: 0, -ENOMEM */
int sampo_thread__set_comm(struct sampo_thread *t, const char *comm, bool exec);
/*
 * perf's thread__fork(): @t takes @parent's comm and, when it is a new
 * process and @clone_maps, a copy of its maps. Return: 0, -ENOMEM
 */
int sampo_thread__fork(struct sampo_thread *t, const struct sampo_thread *parent, bool clone_maps);

#endif /* SAMPO_INTERNAL_THREAD_H */
