/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * cpuset.h - a set of CPU numbers, as perf's -C/--cpu takes them ("0-3,7").
 *
 * The histograms keep only the samples of the CPUs in a set
 * (sampo_hists_opts.cpus). Build one with sampo_cpu_set__parse() from
 * perf's list syntax, or empty with sampo_cpu_set__new() and then
 * sampo_cpu_set__add() each CPU.
 */
#ifndef SAMPO_CPUSET_H
#define SAMPO_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_cpu_set;

/* CPU numbers go from 0 to SAMPO_CPU_SET_MAX - 1 */
#define SAMPO_CPU_SET_MAX 65536

/** sampo_cpu_set__new() - an empty set; NULL: out of memory */
SAMPO_API struct sampo_cpu_set *sampo_cpu_set__new(void);

/** sampo_cpu_set__delete() - free @set (NULL is fine) */
SAMPO_API void sampo_cpu_set__delete(struct sampo_cpu_set *set);

/**
 * sampo_cpu_set__parse() - the set a CPU list names, in perf's syntax
 * @list: comma separated CPUs and ranges, "0-3,7"; "" is the empty set
 * @ret_set: on success, the new set; free with sampo_cpu_set__delete()
 * @errbuf: on -EINVAL, "invalid cpu list '@list'" (may be NULL)
 * @errbuf_sz: its size
 *
 * Return: 0, -EINVAL (not a list, a CPU of SAMPO_CPU_SET_MAX or more, a
 * range that ends before it starts), -ENOMEM.
 */
SAMPO_API int sampo_cpu_set__parse(const char *list, struct sampo_cpu_set **ret_set, char *errbuf,
				   size_t errbuf_sz);

/**
 * sampo_cpu_set__add() - put @cpu in @set
 *
 * Return: 0, -EINVAL for a CPU of SAMPO_CPU_SET_MAX or more, -ENOMEM.
 */
SAMPO_API int sampo_cpu_set__add(struct sampo_cpu_set *set, uint32_t cpu);

/** sampo_cpu_set__has() - whether @cpu is in @set */
SAMPO_API bool sampo_cpu_set__has(const struct sampo_cpu_set *set, uint32_t cpu);

/** sampo_cpu_set__nr() - how many CPUs @set holds */
SAMPO_API size_t sampo_cpu_set__nr(const struct sampo_cpu_set *set);

/** sampo_cpu_set__dup() - a copy of @set; NULL: out of memory */
SAMPO_API struct sampo_cpu_set *sampo_cpu_set__dup(const struct sampo_cpu_set *set);

/**
 * sampo_cpu_map__parse() - the CPUs of a list as perf 6.1's
 * perf_cpu_map__new() reads it (libperf), for showing a file's CPU lists
 * as perf does
 * @list: the CPU list, "0-3,8"
 * @ret_cpus: on success, the CPUs in ascending order; free with free()
 *
 * Not sampo_cpu_set__parse(): perf's header output depends on these
 * quirks, which a list given on the command line should not have. Numbers
 * are in any C base ("0x10", "010"); a CPU listed twice makes the list
 * invalid; the list ends quietly at a comma followed by something that is
 * not a number ("1,,2" and "1,x" are {1}); an empty list is perf's
 * "dummy" map, the one CPU -1. A list that starts with anything but a digit,
 * a CPU of INT_MAX or more, a range that ends before it starts or an
 * unexpected character right after a number is invalid, as it is for perf
 * (which then has no map at all). Unlike perf, a list of more than
 * SAMPO_CPU_SET_MAX CPUs is refused before anything is allocated for it:
 * "0-2147483646" from a hostile file would cost 8 GiB.
 *
 * Return: the number of CPUs (at least 1), -EINVAL, -E2BIG (more than
 * SAMPO_CPU_SET_MAX CPUs), or -ENOMEM.
 */
SAMPO_API int sampo_cpu_map__parse(const char *list, int **ret_cpus);

#endif /* SAMPO_CPUSET_H */
