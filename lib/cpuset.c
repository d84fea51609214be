// SPDX-License-Identifier: LGPL-2.1
/*
 * cpuset.c - sets of CPU numbers (include/sampo/cpuset.h).
 *
 * A bitmap of 64-bit words that grows to the highest CPU added, so a set of
 * a few low CPUs costs a word and a lookup is a shift and a mask. The list
 * syntax is perf's (perf_cpu_map__new()): CPUs and ranges "a-b" separated by
 * commas, one trailing comma allowed ("1,"); anything else that is not a
 * number ("1,,2", "1-", "-1") makes the whole list invalid.
 *
 * sampo_cpu_map__parse() is the other reading of a CPU list, perf's
 * perf_cpu_map__new() to the letter, quirks included: it is what perf's
 * header shows of the lists a perf.data file holds (NUMA_TOPOLOGY), where
 * a stricter parse would print a different line than perf's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/cpuset.h"
#include "internal/util.h"

struct sampo_cpu_set *sampo_cpu_set__new(void)
{
	return calloc(1, sizeof(struct sampo_cpu_set));
}

void sampo_cpu_set__delete(struct sampo_cpu_set *set)
{
	if (!set)
		return;
	free(set->words);
	free(set);
}

int sampo_cpu_set__add(struct sampo_cpu_set *set, uint32_t cpu)
{
	size_t need = cpu / 64 + 1;

	if (cpu >= SAMPO_CPU_SET_MAX)
		return -EINVAL;
	if (need > set->nr_words) {
		uint64_t *words = realloc(set->words, need * sizeof(*words));

		if (!words)
			return -ENOMEM;
		memset(words + set->nr_words, 0, (need - set->nr_words) * sizeof(*words));
		set->words = words;
		set->nr_words = need;
	}
	set->words[cpu / 64] |= 1ULL << (cpu % 64);
	return 0;
}

bool sampo_cpu_set__has(const struct sampo_cpu_set *set, uint32_t cpu)
{
	return cpu_set_has(set, cpu);
}

size_t sampo_cpu_set__nr(const struct sampo_cpu_set *set)
{
	size_t nr = 0;

	for (size_t i = 0; i < set->nr_words; i++)
		nr += (size_t)__builtin_popcountll(set->words[i]);
	return nr;
}

struct sampo_cpu_set *sampo_cpu_set__dup(const struct sampo_cpu_set *set)
{
	struct sampo_cpu_set *copy = sampo_cpu_set__new();

	if (!copy || !set->nr_words)
		return copy;
	copy->words = malloc(set->nr_words * sizeof(*copy->words));
	if (!copy->words) {
		free(copy);
		return NULL;
	}
	memcpy(copy->words, set->words, set->nr_words * sizeof(*copy->words));
	copy->nr_words = set->nr_words;
	return copy;
}

int sampo_cpu_set__parse(const char *list, struct sampo_cpu_set **ret_set, char *errbuf,
			 size_t errbuf_sz)
{
	struct sampo_cpu_set *set = sampo_cpu_set__new();
	const char *p = list;
	int err = -EINVAL;

	if (!set)
		return -ENOMEM;
	while (*p) {
		char *end;
		unsigned long a, b;

		errno = 0;
		a = strtoul(p, &end, 10);
		if (errno || end == p || a >= SAMPO_CPU_SET_MAX)
			goto out_bad;
		b = a;
		if (*end == '-') {
			const char *q = end + 1;

			b = strtoul(q, &end, 10);
			if (errno || end == q || b >= SAMPO_CPU_SET_MAX || b < a)
				goto out_bad;
		}
		for (unsigned long c = a; c <= b; c++) {
			err = sampo_cpu_set__add(set, (uint32_t)c);
			if (err)
				goto out_delete;
		}
		if (*end == ',')
			end++;
		else if (*end)
			goto out_bad;
		p = end;
	}
	*ret_set = set;
	return 0;
out_bad:
	err = -EINVAL;
	if (errbuf && errbuf_sz)
		snprintf(errbuf, errbuf_sz, "invalid cpu list '%s'", list);
out_delete:
	sampo_cpu_set__delete(set);
	return err;
}

static int cpu_map_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

int sampo_cpu_map__parse(const char *list, int **ret_cpus)
{
	const char *s = list;
	int *cpus = NULL;
	size_t nr = 0, alloc = 0;
	int err = -EINVAL;

	if (*s && !(*s >= '0' && *s <= '9'))
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		char *p = NULL;
		unsigned long start = strtoul(s, &p, 0), end;

		/* strtoul()'s overflow (ULONG_MAX) lands here too */
		if (start >= INT_MAX || (*p && *p != ',' && *p != '-'))
			goto out_free;
		if (*p == '-') {
			s = ++p;
			end = strtoul(s, &p, 0);
			if (end >= INT_MAX || (*p && *p != ',') || end < start)
				goto out_free;
		} else {
			end = start;
		}
		/* a file's list may span 2^31 CPUs: perf then allocates 8 GiB */
		if (end - start >= SAMPO_CPU_SET_MAX - nr) {
			err = -E2BIG;
			goto out_free;
		}
		for (; start <= end; start++) {
			if (nr == alloc) {
				int *grown;

				alloc = alloc ? alloc * 2 : 64;
				grown = realloc(cpus, alloc * sizeof(*cpus));
				if (!grown) {
					err = -ENOMEM;
					goto out_free;
				}
				cpus = grown;
			}
			cpus[nr++] = (int)start;
		}
		/* any separator is skipped; one that is not a digit ends the list */
		if (*p)
			p++;
		s = p;
	}
	if (nr == 0) {
		cpus = malloc(sizeof(*cpus));
		if (!cpus)
			return -ENOMEM;
		cpus[0] = -1;
		nr = 1;
	}
	qsort(cpus, nr, sizeof(*cpus), cpu_map_cmp);
	/* perf refuses a CPU listed twice (it checks each against the ones before) */
	for (size_t i = 1; i < nr; i++) {
		if (cpus[i] == cpus[i - 1])
			goto out_free;
	}
	*ret_cpus = cpus;
	return (int)nr;
out_free:
	free(cpus);
	return err;
}
