/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/cpuset.h - the body of a CPU set (include/sampo/cpuset.h,
 * lib/cpuset.c), for callers that test a CPU per sample.
 */
#ifndef SAMPO_INTERNAL_CPUSET_H
#define SAMPO_INTERNAL_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/cpuset.h>

struct sampo_cpu_set {
	uint64_t *words; /* bit c % 64 of word c / 64: CPU c is in the set */
	size_t nr_words; /* grows to the highest CPU added */
};

/* sampo_cpu_set__has() without the call */
static inline bool cpu_set_has(const struct sampo_cpu_set *set, uint32_t cpu)
{
	return cpu / 64 < set->nr_words && (set->words[cpu / 64] >> (cpu % 64) & 1);
}

#endif /* SAMPO_INTERNAL_CPUSET_H */
