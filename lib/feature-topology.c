// SPDX-License-Identifier: LGPL-2.1
/*
 * feature-topology.c - the features that describe the recording machine's
 * processors and memory: PMU_MAPPINGS, CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE,
 * MEM_TOPOLOGY, CPU_PMU_CAPS, HYBRID_TOPOLOGY and PMU_CAPS.
 *
 * The parsers of lib/feature.c (see there for how a payload is walked):
 * every read goes through the bounded cursor of "internal/feature.h", counts
 * are checked against the bytes left before anything is allocated, and what
 * a feature points to lives in the features' arena. feature.c's table of
 * parsers calls these.
 *
 * Also here: perf 6.1's rules about these features that decide what its
 * header shows (sampo_features__cpu_ids_plausible(),
 * sampo_features__uses_host_pmus()), so that a command only prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/feature.h>
#include "internal/feature.h"
#include "internal/util.h"

int sampo_features__parse_pmu_mappings(struct feat_cursor *c, struct sampo_features *f)
{
	size_t at = c->pos;
	uint32_t nr;
	int err;

	err = sampo_feat_cursor__u32(c, &nr, "pmu count");
	if (err)
		return err;
	err = sampo_feat_cursor__check_count(c, at, nr, 8, "pmu");
	if (err)
		return err;
	f->nr_pmu_mappings = nr;
	f->pmu_mappings = sampo_features__arena_array(c->obj, nr, sizeof(*f->pmu_mappings));
	if (nr && !f->pmu_mappings)
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr; i++) {
		err = sampo_feat_cursor__u32(c, &f->pmu_mappings[i].type, "pmu type");
		if (!err)
			err = sampo_feat_cursor__string(c, &f->pmu_mappings[i].name, "pmu name");
		if (err)
			return err;
	}
	return 0;
}

/*
 * CPU_TOPOLOGY grew over time; perf tells the versions apart by whether the
 * payload is larger than what it has read so far:
 *   package (core) sibling list, core (thread) sibling list      [always]
 *   {u32 core_id, u32 socket_id} per available CPU               [perf >= 4.x]
 *   die sibling list, u32 die_id per available CPU               [perf >= 5.4]
 * The per-CPU arrays are sized by NRCPUS' nr_cpus_avail. perf counts the
 * strings with sampo_feat__string_size(), not with their length fields; so do we,
 * to pick the same layout for strings perf did not write itself.
 */
int sampo_features__parse_cpu_topology(struct feat_cursor *c, struct sampo_features *f)
{
	struct sampo_feat_cpu_topology *t = &f->cpu_topology;
	uint32_t nr_cpus = sampo_features__has(f, SAMPO_FEAT_NRCPUS) ? f->nr_cpus_avail : 0;
	size_t perf_size;
	int err;

	err = sampo_feat_cursor__strlist(c, &t->package_cpus, "package siblings");
	if (err)
		return err;
	err = sampo_feat_cursor__strlist(c, &t->core_cpus, "core siblings");
	if (err)
		return err;
	perf_size = sampo_feat__strlist_size(&t->package_cpus) +
		    sampo_feat__strlist_size(&t->core_cpus);
	if (c->len <= perf_size)
		return 0;

	err = sampo_feat_cursor__check_count(c, c->pos, nr_cpus, 8, "cpu");
	if (err)
		return err;
	t->has_cpus = true;
	t->nr_cpus = nr_cpus;
	t->cpus = sampo_features__arena_array(c->obj, nr_cpus, sizeof(*t->cpus));
	if (nr_cpus && !t->cpus)
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr_cpus; i++) {
		err = sampo_feat_cursor__u32(c, &t->cpus[i].core_id, "core id");
		if (err)
			return err;
		err = sampo_feat_cursor__u32(c, &t->cpus[i].socket_id, "socket id");
		if (err)
			return err;
	}
	if (c->len <= perf_size + 8 * (size_t)nr_cpus)
		return 0;

	t->has_dies = true;
	err = sampo_feat_cursor__strlist(c, &t->die_cpus, "die siblings");
	if (err)
		return err;
	err = sampo_feat_cursor__check_count(c, c->pos, nr_cpus, 4, "die id");
	if (err)
		return err;
	for (uint32_t i = 0; i < nr_cpus; i++) {
		err = sampo_feat_cursor__u32(c, &t->cpus[i].die_id, "die id");
		if (err)
			return err;
	}
	return 0;
}

int sampo_features__parse_numa_topology(struct feat_cursor *c, struct sampo_features *f)
{
	size_t at = c->pos;
	uint32_t nr;
	int err;

	err = sampo_feat_cursor__u32(c, &nr, "node count");
	if (err)
		return err;
	/* u32 node, u64 total, u64 free, string length */
	err = sampo_feat_cursor__check_count(c, at, nr, 24, "node");
	if (err)
		return err;
	f->nr_numa_nodes = nr;
	f->numa_nodes = sampo_features__arena_array(c->obj, nr, sizeof(*f->numa_nodes));
	if (nr && !f->numa_nodes)
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr; i++) {
		struct sampo_feat_numa_node *n = &f->numa_nodes[i];

		err = sampo_feat_cursor__u32(c, &n->node, "node number");
		if (!err)
			err = sampo_feat_cursor__u64(c, &n->mem_total_kb, "node total memory");
		if (!err)
			err = sampo_feat_cursor__u64(c, &n->mem_free_kb, "node free memory");
		if (!err)
			err = sampo_feat_cursor__string(c, &n->cpus, "node cpu list");
		if (err)
			return err;
	}
	return 0;
}

int sampo_features__parse_cache(struct feat_cursor *c, struct sampo_features *f)
{
	size_t at = c->pos;
	uint32_t nr;
	int err;

	err = sampo_feat_cursor__u32(c, &f->cache_version, "cache version");
	if (err)
		return err;
	if (f->cache_version != 1)
		return sampo_feat_cursor__fail(c, at, -SAMPO_ERR_UNSUPPORTED,
					       "unknown cache version %u", f->cache_version);
	at = c->pos;
	err = sampo_feat_cursor__u32(c, &nr, "cache count");
	if (err)
		return err;
	/* four u32 and three string lengths */
	err = sampo_feat_cursor__check_count(c, at, nr, 28, "cache");
	if (err)
		return err;
	f->nr_caches = nr;
	f->caches = sampo_features__arena_array(c->obj, nr, sizeof(*f->caches));
	if (nr && !f->caches)
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr; i++) {
		struct sampo_feat_cache *k = &f->caches[i];

		err = sampo_feat_cursor__u32(c, &k->level, "cache level");
		if (!err)
			err = sampo_feat_cursor__u32(c, &k->line_size, "cache line size");
		if (!err)
			err = sampo_feat_cursor__u32(c, &k->sets, "cache sets");
		if (!err)
			err = sampo_feat_cursor__u32(c, &k->ways, "cache ways");
		if (!err)
			err = sampo_feat_cursor__string(c, &k->type, "cache type");
		if (!err)
			err = sampo_feat_cursor__string(c, &k->size, "cache size");
		if (!err)
			err = sampo_feat_cursor__string(c, &k->map, "cache cpu map");
		if (err)
			return err;
	}
	return 0;
}

/*
 * MEM_TOPOLOGY: u64 version, u64 block size, u64 nr, then per node u64 node,
 * u64 size, and a bitmap written as u64 nr_bits then the words. size and
 * nr_bits are the same number; perf keeps the second one.
 */
int sampo_features__parse_mem_topology(struct feat_cursor *c, struct sampo_features *f)
{
	size_t at = c->pos;
	uint64_t nr;
	int err;

	err = sampo_feat_cursor__u64(c, &f->mem_topology_version, "memory topology version");
	if (err)
		return err;
	if (f->mem_topology_version != 1)
		return sampo_feat_cursor__fail(c, at, -SAMPO_ERR_UNSUPPORTED,
					       "unknown memory topology version %llu",
					       (unsigned long long)f->mem_topology_version);
	err = sampo_feat_cursor__u64(c, &f->memory_block_size, "memory block size");
	if (err)
		return err;
	at = c->pos;
	err = sampo_feat_cursor__u64(c, &nr, "memory node count");
	if (err)
		return err;
	err = sampo_feat_cursor__check_count(c, at, nr, 24, "memory node");
	if (err)
		return err;
	f->nr_memory_nodes = nr;
	f->memory_nodes = sampo_features__arena_array(c->obj, (size_t)nr, sizeof(*f->memory_nodes));
	if (nr && !f->memory_nodes)
		return sampo_feat_cursor__nomem(c);
	for (uint64_t i = 0; i < nr; i++) {
		struct sampo_feat_memory_node *n = &f->memory_nodes[i];
		uint64_t size, nr_bits, nr_words;

		err = sampo_feat_cursor__u64(c, &n->node, "memory node number");
		if (!err)
			err = sampo_feat_cursor__u64(c, &size, "memory node size");
		at = c->pos;
		if (!err)
			err = sampo_feat_cursor__u64(c, &nr_bits, "memory bitmap size");
		if (err)
			return err;
		nr_words = nr_bits / 64 + (nr_bits % 64 != 0);
		err = sampo_feat_cursor__check_count(c, at, nr_words, 8, "memory bitmap word");
		if (err)
			return err;
		n->nr_bits = nr_bits;
		n->bitmap = sampo_features__arena_array(c->obj, (size_t)nr_words, sizeof(uint64_t));
		if (nr_words && !n->bitmap)
			return sampo_feat_cursor__nomem(c);
		for (uint64_t w = 0; w < nr_words; w++) {
			err = sampo_feat_cursor__u64(c, &n->bitmap[w], "memory bitmap word");
			if (err)
				return err;
		}
	}
	return 0;
}

/* u32 nr_caps, then nr_caps pairs of strings (name, value) */
static int parse_pmu_caps_list(struct feat_cursor *c, struct sampo_feat_pmu_caps *pc)
{
	size_t at = c->pos;
	uint32_t nr;
	int err;

	err = sampo_feat_cursor__u32(c, &nr, "pmu capability count");
	if (err)
		return err;
	err = sampo_feat_cursor__check_count(c, at, nr, 8, "pmu capability");
	if (err)
		return err;
	pc->nr_caps = nr;
	pc->names = sampo_features__arena_array(c->obj, nr, sizeof(char *));
	pc->values = sampo_features__arena_array(c->obj, nr, sizeof(char *));
	if (nr && (!pc->names || !pc->values))
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr; i++) {
		err = sampo_feat_cursor__string(c, &pc->names[i], "pmu capability name");
		if (!err)
			err = sampo_feat_cursor__string(c, &pc->values[i], "pmu capability value");
		if (err)
			return err;
	}
	return 0;
}

int sampo_features__parse_cpu_pmu_caps(struct feat_cursor *c, struct sampo_features *f)
{
	static char cpu_name[] = "cpu";

	f->cpu_pmu_caps.pmu_name = cpu_name;
	return parse_pmu_caps_list(c, &f->cpu_pmu_caps);
}

int sampo_features__parse_hybrid_topology(struct feat_cursor *c, struct sampo_features *f)
{
	size_t at = c->pos;
	uint32_t nr;
	int err;

	err = sampo_feat_cursor__u32(c, &nr, "hybrid node count");
	if (err)
		return err;
	err = sampo_feat_cursor__check_count(c, at, nr, 8, "hybrid node");
	if (err)
		return err;
	f->nr_hybrid_nodes = nr;
	f->hybrid_nodes = sampo_features__arena_array(c->obj, nr, sizeof(*f->hybrid_nodes));
	if (nr && !f->hybrid_nodes)
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr; i++) {
		err = sampo_feat_cursor__string(c, &f->hybrid_nodes[i].pmu_name, "hybrid pmu name");
		if (!err)
			err = sampo_feat_cursor__string(c, &f->hybrid_nodes[i].cpus,
							"hybrid cpu list");
		if (err)
			return err;
	}
	return 0;
}

/* PMU_CAPS: u32 nr_pmu, then per PMU its capability list and its name */
int sampo_features__parse_pmu_caps(struct feat_cursor *c, struct sampo_features *f)
{
	size_t at = c->pos;
	uint32_t nr;
	int err;

	err = sampo_feat_cursor__u32(c, &nr, "pmu count");
	if (err)
		return err;
	err = sampo_feat_cursor__check_count(c, at, nr, 8, "pmu");
	if (err)
		return err;
	f->nr_pmu_caps = nr;
	f->pmu_caps = sampo_features__arena_array(c->obj, nr, sizeof(*f->pmu_caps));
	if (nr && !f->pmu_caps)
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr; i++) {
		err = parse_pmu_caps_list(c, &f->pmu_caps[i]);
		if (!err)
			err = sampo_feat_cursor__string(c, &f->pmu_caps[i].pmu_name, "pmu name");
		if (err)
			return err;
	}
	return 0;
}

bool sampo_features__cpu_ids_plausible(const struct sampo_features *f)
{
	const struct sampo_feat_cpu_topology *t = &f->cpu_topology;
	const char *arch = sampo_features__has(f, SAMPO_FEAT_ARCH) ? f->arch : NULL;

	/* socket ids are not CPU-related there: perf 6.1 skips the check */
	if (!t->has_cpus || (arch && (!strncmp(arch, "s390", 4) || !strncmp(arch, "aarch64", 7))))
		return true;
	for (uint32_t i = 0; i < t->nr_cpus; i++) {
		/* UINT32_MAX: perf's "no socket id" (-1) */
		if (t->cpus[i].socket_id != UINT32_MAX && t->cpus[i].socket_id > t->nr_cpus)
			return false;
	}
	return true;
}

void sampo_features__drop_cpu_ids(struct sampo_features *f)
{
	struct sampo_feat_cpu_topology *t = &f->cpu_topology;

	/* the arena keeps the memory until the features are freed */
	t->has_cpus = false;
	t->has_dies = false;
	t->die_cpus.nr = 0;
}

bool sampo_features__uses_host_pmus(const struct sampo_features *f, bool pipe,
				    const struct sampo_features *host)
{
	const char *arch = NULL, *cpuid = NULL;
	bool from_file = f && !pipe;

	if (f && f->nr_pmu_mappings)
		return false;
	if (from_file && sampo_features__has(f, SAMPO_FEAT_ARCH))
		arch = f->arch;
	else if (host && sampo_features__has(host, SAMPO_FEAT_ARCH))
		arch = host->arch;
	if (!arch || strcmp(sampo_arch__normalize(arch), "x86"))
		return false;
	if (from_file && sampo_features__has(f, SAMPO_FEAT_CPUID))
		cpuid = f->cpuid;
	else if (host && sampo_features__has(host, SAMPO_FEAT_CPUID))
		cpuid = host->cpuid;
	return cpuid && !strncmp(cpuid, "AuthenticAMD", 12);
}
