/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * target.h - what perf record samples: CPUs and threads (libperf's cpu map
 * and thread map in one object), and the processes whose state must be
 * synthesized for them.
 *
 * The lists come from the command line (-C 0-3,6  -p 12,34  -t 56) and
 * from the system: the online CPUs (/sys/devices/system/cpu/online), the
 * threads of a process (/proc/PID/task), the process of a thread
 * (/proc/TID/status). Where /proc and /sys are is a parameter, so that
 * tests use a fake tree.
 *
 *	struct sampo_target *t = sampo_target__new(NULL);
 *	err = sampo_target__add_cpu_list(t, "0-3,6");	// or __add_online_cpus()
 *	err = sampo_target__add_pid_list(t, "1234", &bad);
 *	cpus = sampo_target__cpus(t, &nr_cpus);
 *	threads = sampo_target__threads(t, &nr_threads);	// open events on these
 *	pids = sampo_target__pids(t, &nr_pids);		// synthesize these
 *	sampo_target__delete(t);
 *
 * Each list holds at most SAMPO_TARGET_MAX entries.
 */
#ifndef SAMPO_TARGET_H
#define SAMPO_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include <sampo/common.h>

#define SAMPO_TARGET_MAX 4096 /* CPUs, threads or processes */

struct sampo_target;

struct sampo_target_opts {
	size_t sz;
	const char *proc_dir; /* NULL: "/proc" */
	const char *sys_dir;  /* NULL: "/sys" */
};
#define sampo_target_opts__last_field sys_dir

/**
 * sampo_target__new() - an empty target
 * @opts: optional; NULL means the real /proc and /sys
 *
 * Return: the target (free with sampo_target__delete()), or NULL when out
 * of memory or @opts is invalid
 */
SAMPO_API struct sampo_target *sampo_target__new(const struct sampo_target_opts *opts);

/** sampo_target__delete() - free a target; NULL is fine */
SAMPO_API void sampo_target__delete(struct sampo_target *t);

/**
 * sampo_target__parse_list() - parse a -p or -t list ("1,2,5")
 * @str: decimal numbers from 0 to INT_MAX, comma separated
 * @vals: where the numbers go, in the order given (duplicates kept)
 * @max: room in @vals
 * @ret_nr: on success, how many
 *
 * CPU lists ("0-3,6") are perf's other syntax: sampo_cpu_set__parse().
 * Return: 0, -EINVAL (empty or malformed), -E2BIG (more than @max)
 */
SAMPO_API int sampo_target__parse_list(const char *str, int *vals, size_t max, size_t *ret_nr);

/**
 * sampo_target__add_cpu_list() - add the CPUs of a -C list ("0-3,6")
 *
 * Parsed by sampo_cpu_set__parse(); the CPUs are added in increasing
 * order, each once, as perf's CPU maps hold them.
 * Return: 0, -EINVAL (malformed, or no CPU), -E2BIG (more than
 * SAMPO_TARGET_MAX CPUs), -ENOMEM
 */
SAMPO_API int sampo_target__add_cpu_list(struct sampo_target *t, const char *list);

/**
 * sampo_target__add_online_cpus() - add every online CPU
 *
 * From SYS/devices/system/cpu/online; when that file is missing, CPUs 0 to
 * sysconf(_SC_NPROCESSORS_ONLN) - 1.
 * Return: 0, -EIO (empty file), -EINVAL (malformed), -ENOENT, -E2BIG
 */
SAMPO_API int sampo_target__add_online_cpus(struct sampo_target *t);

/**
 * sampo_target__add_process() - add process @pid: all its threads, and itself
 *				 to the processes to synthesize (once)
 * Return: 0, -ESRCH (no PROC/@pid/task), -E2BIG, -ENOMEM, -errno
 */
SAMPO_API int sampo_target__add_process(struct sampo_target *t, int pid);

/**
 * sampo_target__add_thread() - add thread @tid alone, and its process (its
 *				Tgid in PROC/@tid/status) to the processes
 * Return: 0, -ESRCH (no such thread), -E2BIG, -ENOMEM
 */
SAMPO_API int sampo_target__add_thread(struct sampo_target *t, int tid);

/**
 * sampo_target__add_pid_list() / sampo_target__add_tid_list() - -p / -t
 * @list: "12,34" (no ranges)
 * @ret_bad: on failure, the pid or tid that failed, or -1 when @list itself
 *	     is malformed
 *
 * Return: 0, -EINVAL (malformed list), or as sampo_target__add_process() /
 * sampo_target__add_thread() for *@ret_bad
 */
SAMPO_API int sampo_target__add_pid_list(struct sampo_target *t, const char *list, int *ret_bad);
SAMPO_API int sampo_target__add_tid_list(struct sampo_target *t, const char *list, int *ret_bad);

/**
 * sampo_target__add_new_thread() - add a thread that is not to be
 *				    synthesized (a forked command, before exec)
 * Return: 0, -E2BIG, -ENOMEM
 */
SAMPO_API int sampo_target__add_new_thread(struct sampo_target *t, int tid);

/**
 * sampo_target__cpus() / __threads() / __pids() - the lists so far
 * @ret_nr: on return, the number of entries
 *
 * Return: the entries (borrowed, valid until the next __add), or NULL when
 * there are none
 */
SAMPO_API const int *sampo_target__cpus(const struct sampo_target *t, size_t *ret_nr);
SAMPO_API const int *sampo_target__threads(const struct sampo_target *t, size_t *ret_nr);
SAMPO_API const int *sampo_target__pids(const struct sampo_target *t, size_t *ret_nr);

#endif /* SAMPO_TARGET_H */
