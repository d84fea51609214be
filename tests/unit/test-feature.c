// SPDX-License-Identifier: GPL-2.0
/*
 * test-feature.c - the header feature parsers on payloads built in memory:
 * every feature in both byte orders, every payload cut at every byte, lengths
 * and counts that do not fit, strings without NUL, unknown versions, and a
 * whole file image read through sampo_features__parse().
 *
 * Payloads are copied into buffers of exactly their size before parsing, so
 * that a build with -fsanitize=address catches any read past the end.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sampo/feature.h>
#include <sampo/reader.h>
#include "fixture.h"

/* ---- payload builders ---------------------------------------------------------- */

static void put_string(struct img *im, const char *s)
{
	size_t len = (strlen(s) + 1 + 63) / 64 * 64;

	img_u32(im, (uint32_t)len);
	img_str(im, s, 64);
}

static void put_strlist(struct img *im, const char *const *strs, uint32_t nr)
{
	img_u32(im, nr);
	for (uint32_t i = 0; i < nr; i++)
		put_string(im, strs[i]);
}

static void build_tracing_data(struct img *im)
{
	img_bytes(im, "\x17\x08\x44tracing0.6", 13);
}

static void build_build_id(struct img *im)
{
	static const uint8_t kid[20] = {
		0x4a, 0x5a, 0x9b, 0x0a, 0xff, 0xb6, 0x6c, 0x43, 0x7a, 0xbc,
		0xd4, 0x55, 0xd2, 0x73, 0x8a, 0xf8, 0x79, 0x98, 0x5f, 0xa9
	};
	size_t r;

	/* kernel: 20-byte id, size in byte 20 */
	r = img_begin_record(im, 0, 0x8001);
	img_u32(im, (uint32_t)-1);
	img_bytes(im, kid, 20);
	img_u8(im, 20);
	img_zeros(im, 3);
	img_str(im, "[kernel.kallsyms]", 64);
	img_end_record(im, r);
	/* user DSO with a 16-byte id */
	r = img_begin_record(im, 0, 0x8002);
	img_u32(im, 4242);
	img_bytes(im, kid, 16);
	img_zeros(im, 4);
	img_u8(im, 16);
	img_zeros(im, 3);
	img_str(im, "/usr/lib/libc.so.6", 64);
	img_end_record(im, r);
	/* no BUILD_ID_SIZE bit: 20 bytes */
	r = img_begin_record(im, 0, 2);
	img_u32(im, (uint32_t)-1);
	img_bytes(im, kid, 20);
	img_zeros(im, 4);
	img_str(im, "/bin/true", 64);
	img_end_record(im, r);
}

static void build_hostname(struct img *im)
{
	put_string(im, "vm");
}

static void build_osrelease(struct img *im)
{
	put_string(im, "6.1.0-test");
}

static void build_version(struct img *im)
{
	put_string(im, "6.1.187");
}

static void build_arch(struct img *im)
{
	put_string(im, "x86_64");
}

static void build_nrcpus(struct img *im)
{
	img_u32(im, 4); /* available */
	img_u32(im, 2); /* online */
}

static void build_cpudesc(struct img *im)
{
	put_string(im, "AMD EPYC");
}

static void build_cpuid(struct img *im)
{
	put_string(im, "AuthenticAMD,26,2,1");
}

static void build_total_mem(struct img *im)
{
	img_u64(im, 24684084);
}

static const char *const cmdline_args[] = { "/usr/bin/perf", "record", "-e", "cpu-clock", "--",
					    "sleep",	     "1" };

static void build_cmdline(struct img *im)
{
	put_strlist(im, cmdline_args, 7);
}

static void build_event_desc(struct img *im)
{
	img_u32(im, 2);
	img_u32(im, 128);
	img_attr(im, 1, 0, 0x107, SAMPO_ATTR_DISABLED | SAMPO_ATTR_FREQ | SAMPO_ATTR_EXCLUDE_GUEST);
	img_u32(im, 2);
	put_string(im, "cpu-clock");
	img_u64(im, 571);
	img_u64(im, 572);
	img_attr(im, 1, 9, 0x107, SAMPO_ATTR_MMAP);
	img_u32(im, 0);
	put_string(im, "dummy:HG");
}

static const char *const pkg_lists[] = { "0-3" };
static const char *const core_lists[] = { "0-1", "2-3" };
static const char *const die_lists[] = { "0-3" };

/* needs NRCPUS with 4 available CPUs */
static void build_cpu_topology(struct img *im)
{
	put_strlist(im, pkg_lists, 1);
	put_strlist(im, core_lists, 2);
	for (uint32_t cpu = 0; cpu < 4; cpu++) {
		img_u32(im, cpu / 2); /* core */
		img_u32(im, 0);	      /* socket */
	}
	put_strlist(im, die_lists, 1);
	for (uint32_t cpu = 0; cpu < 4; cpu++)
		img_u32(im, 7);
}

static void build_numa_topology(struct img *im)
{
	img_u32(im, 2);
	img_u32(im, 0);
	img_u64(im, 9136332);
	img_u64(im, 8825896);
	put_string(im, "0-1");
	img_u32(im, 1);
	img_u64(im, 100);
	img_u64(im, 50);
	put_string(im, "");
}

static void build_pmu_mappings(struct img *im)
{
	img_u32(im, 2);
	img_u32(im, 1);
	put_string(im, "software");
	img_u32(im, 2);
	put_string(im, "tracepoint");
}

static void build_group_desc(struct img *im)
{
	img_u32(im, 1);
	put_string(im, "{anon_group}");
	img_u32(im, 0);
	img_u32(im, 2);
}

static void build_auxtrace(struct img *im)
{
	img_u64(im, 2);
	img_u64(im, 0x1000);
	img_u64(im, 0x200);
	img_u64(im, 0x3000);
	img_u64(im, 0x400);
}

static void build_cache(struct img *im)
{
	img_u32(im, 1);
	img_u32(im, 2);
	img_u32(im, 1);
	img_u32(im, 64);
	img_u32(im, 64);
	img_u32(im, 8);
	put_string(im, "Data");
	put_string(im, "48K");
	put_string(im, "0");
	img_u32(im, 3);
	img_u32(im, 64);
	img_u32(im, 32768);
	img_u32(im, 16);
	put_string(im, "Unified");
	put_string(im, "32768K");
	put_string(im, "0-1");
}

static void build_sample_time(struct img *im)
{
	img_u64(im, 3969278190000ULL);
	img_u64(im, 3969780282000ULL);
}

static void build_mem_topology(struct img *im)
{
	img_u64(im, 1);
	img_u64(im, 0x8000000);
	img_u64(im, 1);
	img_u64(im, 0);	  /* node */
	img_u64(im, 200); /* size */
	img_u64(im, 200); /* bitmap bits */
	img_u64(im, 0xffffffULL);
	img_u64(im, ~0ULL << 32);
	img_u64(im, ~0ULL);
	img_u64(im, 0xff);
}

static void build_clockid(struct img *im)
{
	img_u64(im, 1);
}

static void build_dir_format(struct img *im)
{
	img_u64(im, 1);
}

static void build_bpf_prog_info(struct img *im)
{
	img_u32(im, 1);
	img_u32(im, 16); /* info_len */
	img_u32(im, 8);	 /* data_len */
	img_u64(im, 0x5);
	img_bytes(im, "0123456789abcdef", 16);
	img_bytes(im, "DATADATA", 8);
}

static void build_bpf_btf(struct img *im)
{
	img_u32(im, 2);
	img_u32(im, 9);
	img_u32(im, 4);
	img_bytes(im, "\x9f\xeb\x01\x00", 4);
	img_u32(im, 3);
	img_u32(im, 0);
}

static void build_compressed(struct img *im)
{
	img_u32(im, 0);
	img_u32(im, 1);
	img_u32(im, 1);
	img_u32(im, 12);
	img_u32(im, 528384);
}

static void build_cpu_pmu_caps(struct img *im)
{
	img_u32(im, 2);
	put_string(im, "branches");
	put_string(im, "32");
	put_string(im, "max_precise");
	put_string(im, "3");
}

static void build_clock_data(struct img *im)
{
	img_u32(im, 1);
	img_u32(im, 1);
	img_u64(im, 1795322170152691000ULL);
	img_u64(im, 2030666929333ULL);
}

static void build_hybrid_topology(struct img *im)
{
	img_u32(im, 2);
	put_string(im, "cpu_core");
	put_string(im, "0-7");
	put_string(im, "cpu_atom");
	put_string(im, "8-15");
}

static void build_pmu_caps(struct img *im)
{
	img_u32(im, 2);
	img_u32(im, 1);
	put_string(im, "branches");
	put_string(im, "32");
	put_string(im, "cpu_core");
	img_u32(im, 0);
	put_string(im, "cpu_atom");
}

static void build_empty(struct img *im)
{
	(void)im;
}

/*
 * @strict: every shorter prefix must fail. The others have legal shorter
 * forms (older layouts, entry boundaries), so a prefix may parse.
 */
static const struct feat_case {
	int feat;
	void (*build)(struct img *im);
	bool strict;
} feat_cases[] = {
	{ SAMPO_FEAT_TRACING_DATA, build_tracing_data, false },
	{ SAMPO_FEAT_BUILD_ID, build_build_id, false },
	{ SAMPO_FEAT_HOSTNAME, build_hostname, true },
	{ SAMPO_FEAT_OSRELEASE, build_osrelease, true },
	{ SAMPO_FEAT_VERSION, build_version, true },
	{ SAMPO_FEAT_ARCH, build_arch, true },
	{ SAMPO_FEAT_NRCPUS, build_nrcpus, true },
	{ SAMPO_FEAT_CPUDESC, build_cpudesc, true },
	{ SAMPO_FEAT_CPUID, build_cpuid, true },
	{ SAMPO_FEAT_TOTAL_MEM, build_total_mem, true },
	{ SAMPO_FEAT_CMDLINE, build_cmdline, true },
	{ SAMPO_FEAT_EVENT_DESC, build_event_desc, true },
	{ SAMPO_FEAT_CPU_TOPOLOGY, build_cpu_topology, false },
	{ SAMPO_FEAT_NUMA_TOPOLOGY, build_numa_topology, true },
	{ SAMPO_FEAT_BRANCH_STACK, build_empty, true },
	{ SAMPO_FEAT_PMU_MAPPINGS, build_pmu_mappings, true },
	{ SAMPO_FEAT_GROUP_DESC, build_group_desc, true },
	{ SAMPO_FEAT_AUXTRACE, build_auxtrace, true },
	{ SAMPO_FEAT_STAT, build_empty, true },
	{ SAMPO_FEAT_CACHE, build_cache, true },
	{ SAMPO_FEAT_SAMPLE_TIME, build_sample_time, true },
	{ SAMPO_FEAT_MEM_TOPOLOGY, build_mem_topology, true },
	{ SAMPO_FEAT_CLOCKID, build_clockid, true },
	{ SAMPO_FEAT_DIR_FORMAT, build_dir_format, true },
	{ SAMPO_FEAT_BPF_PROG_INFO, build_bpf_prog_info, true },
	{ SAMPO_FEAT_BPF_BTF, build_bpf_btf, true },
	{ SAMPO_FEAT_COMPRESSED, build_compressed, true },
	{ SAMPO_FEAT_CPU_PMU_CAPS, build_cpu_pmu_caps, true },
	{ SAMPO_FEAT_CLOCK_DATA, build_clock_data, true },
	{ SAMPO_FEAT_HYBRID_TOPOLOGY, build_hybrid_topology, true },
	{ SAMPO_FEAT_PMU_CAPS, build_pmu_caps, true },
};

/* ---- helpers ------------------------------------------------------------------------ */

/* Parse @len bytes of @src from an exactly-sized heap copy. */
static int parse_copy(struct sampo_features *f, int feat, const void *src, size_t len, bool swap,
		      struct sampo_feature_error *err)
{
	void *copy = malloc(len ? len : 1);
	int ret;

	assert_non_null(copy);
	if (len)
		memcpy(copy, src, len);
	ret = sampo_features__parse_one(f, feat, copy, len, swap, err);
	free(copy);
	return ret;
}

/* A features object with NRCPUS (4 available) already in, as CPU_TOPOLOGY needs. */
static struct sampo_features *features_with_nrcpus(bool big_endian)
{
	struct sampo_features *f = sampo_features__new();
	struct img im;

	assert_non_null(f);
	img_init(&im, big_endian);
	build_nrcpus(&im);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_NRCPUS, im.buf, im.len, big_endian, NULL), 0);
	img_free(&im);
	return f;
}

static struct sampo_features *parse_case(const struct feat_case *c, bool big_endian)
{
	struct sampo_features *f = features_with_nrcpus(big_endian);
	struct sampo_feature_error err;
	struct img im;
	int ret;

	img_init(&im, big_endian);
	c->build(&im);
	ret = parse_copy(f, c->feat, im.buf, im.len, big_endian, &err);
	if (ret)
		fail_msg("feature %d (%s endian): %d: %s", c->feat, big_endian ? "big" : "little",
			 ret, err.msg);
	assert_true(sampo_features__has(f, c->feat));
	img_free(&im);
	return f;
}

/* The values every builder above encodes, checked for either byte order. */
static void check_values(const struct sampo_features *f, int feat)
{
	switch (feat) {
	case SAMPO_FEAT_TRACING_DATA:
		assert_int_equal(f->tracing_data_size, 13);
		assert_memory_equal(f->tracing_data, "\x17\x08\x44tracing0.6", 13);
		break;
	case SAMPO_FEAT_BUILD_ID:
		assert_int_equal(f->nr_build_ids, 3);
		assert_int_equal(f->build_ids[0].cpumode, SAMPO_CPUMODE_KERNEL);
		assert_int_equal(f->build_ids[0].misc, 0x8001);
		assert_int_equal(f->build_ids[0].pid, -1);
		assert_int_equal(f->build_ids[0].size, 20);
		assert_int_equal(f->build_ids[0].build_id[0], 0x4a);
		assert_int_equal(f->build_ids[0].build_id[19], 0xa9);
		assert_string_equal(f->build_ids[0].filename, "[kernel.kallsyms]");
		assert_int_equal(f->build_ids[0].offset, 0);
		assert_int_equal(f->build_ids[1].cpumode, SAMPO_CPUMODE_USER);
		assert_int_equal(f->build_ids[1].pid, 4242);
		assert_int_equal(f->build_ids[1].size, 16);
		assert_string_equal(f->build_ids[1].filename, "/usr/lib/libc.so.6");
		assert_int_equal(f->build_ids[1].offset, 100);
		assert_int_equal(f->build_ids[2].size, 20);
		assert_string_equal(f->build_ids[2].filename, "/bin/true");
		break;
	case SAMPO_FEAT_HOSTNAME:
		assert_string_equal(f->hostname, "vm");
		break;
	case SAMPO_FEAT_OSRELEASE:
		assert_string_equal(f->osrelease, "6.1.0-test");
		break;
	case SAMPO_FEAT_VERSION:
		assert_string_equal(f->version, "6.1.187");
		break;
	case SAMPO_FEAT_ARCH:
		assert_string_equal(f->arch, "x86_64");
		break;
	case SAMPO_FEAT_NRCPUS:
		assert_int_equal(f->nr_cpus_avail, 4);
		assert_int_equal(f->nr_cpus_online, 2);
		break;
	case SAMPO_FEAT_CPUDESC:
		assert_string_equal(f->cpudesc, "AMD EPYC");
		break;
	case SAMPO_FEAT_CPUID:
		assert_string_equal(f->cpuid, "AuthenticAMD,26,2,1");
		break;
	case SAMPO_FEAT_TOTAL_MEM:
		assert_int_equal(f->total_mem_kb, 24684084);
		break;
	case SAMPO_FEAT_CMDLINE:
		assert_int_equal(f->cmdline.nr, 7);
		for (int i = 0; i < 7; i++)
			assert_string_equal(f->cmdline.strs[i], cmdline_args[i]);
		break;
	case SAMPO_FEAT_EVENT_DESC:
		assert_int_equal(f->nr_events, 2);
		assert_int_equal(f->event_attr_size, 128);
		assert_string_equal(f->events[0].name, "cpu-clock");
		assert_int_equal(f->events[0].attr.type, 1);
		assert_int_equal(f->events[0].attr.size, 128);
		assert_int_equal(f->events[0].attr.sample_period, 4000);
		assert_int_equal(f->events[0].attr.sample_type, 0x107);
		assert_int_equal(f->events[0].attr.read_format, 0x14);
		assert_int_equal(f->events[0].attr.flags,
				 SAMPO_ATTR_DISABLED | SAMPO_ATTR_FREQ | SAMPO_ATTR_EXCLUDE_GUEST);
		assert_int_equal(f->events[0].nr_ids, 2);
		assert_int_equal(f->events[0].ids[0], 571);
		assert_int_equal(f->events[0].ids[1], 572);
		assert_string_equal(f->events[1].name, "dummy:HG");
		assert_int_equal(f->events[1].attr.config, 9);
		assert_int_equal(f->events[1].attr.flags, SAMPO_ATTR_MMAP);
		assert_int_equal(f->events[1].nr_ids, 0);
		break;
	case SAMPO_FEAT_CPU_TOPOLOGY: {
		const struct sampo_feat_cpu_topology *t = &f->cpu_topology;

		assert_int_equal(t->package_cpus.nr, 1);
		assert_string_equal(t->package_cpus.strs[0], "0-3");
		assert_int_equal(t->core_cpus.nr, 2);
		assert_string_equal(t->core_cpus.strs[1], "2-3");
		assert_true(t->has_cpus);
		assert_int_equal(t->nr_cpus, 4);
		assert_int_equal(t->cpus[3].core_id, 1);
		assert_int_equal(t->cpus[3].socket_id, 0);
		assert_true(t->has_dies);
		assert_int_equal(t->die_cpus.nr, 1);
		assert_string_equal(t->die_cpus.strs[0], "0-3");
		assert_int_equal(t->cpus[2].die_id, 7);
		break;
	}
	case SAMPO_FEAT_NUMA_TOPOLOGY:
		assert_int_equal(f->nr_numa_nodes, 2);
		assert_int_equal(f->numa_nodes[0].node, 0);
		assert_int_equal(f->numa_nodes[0].mem_total_kb, 9136332);
		assert_int_equal(f->numa_nodes[0].mem_free_kb, 8825896);
		assert_string_equal(f->numa_nodes[0].cpus, "0-1");
		assert_int_equal(f->numa_nodes[1].node, 1);
		assert_string_equal(f->numa_nodes[1].cpus, "");
		break;
	case SAMPO_FEAT_PMU_MAPPINGS:
		assert_int_equal(f->nr_pmu_mappings, 2);
		assert_int_equal(f->pmu_mappings[1].type, 2);
		assert_string_equal(f->pmu_mappings[1].name, "tracepoint");
		break;
	case SAMPO_FEAT_GROUP_DESC:
		assert_int_equal(f->nr_groups, 1);
		assert_string_equal(f->groups[0].name, "{anon_group}");
		assert_int_equal(f->groups[0].leader_idx, 0);
		assert_int_equal(f->groups[0].nr_members, 2);
		break;
	case SAMPO_FEAT_AUXTRACE:
		assert_int_equal(f->nr_auxtrace, 2);
		assert_int_equal(f->auxtrace[1].file_offset, 0x3000);
		assert_int_equal(f->auxtrace[1].size, 0x400);
		break;
	case SAMPO_FEAT_CACHE:
		assert_int_equal(f->cache_version, 1);
		assert_int_equal(f->nr_caches, 2);
		assert_int_equal(f->caches[1].level, 3);
		assert_int_equal(f->caches[1].sets, 32768);
		assert_string_equal(f->caches[1].type, "Unified");
		assert_string_equal(f->caches[1].size, "32768K");
		assert_string_equal(f->caches[1].map, "0-1");
		break;
	case SAMPO_FEAT_SAMPLE_TIME:
		assert_int_equal(f->first_sample_time, 3969278190000ULL);
		assert_int_equal(f->last_sample_time, 3969780282000ULL);
		break;
	case SAMPO_FEAT_MEM_TOPOLOGY:
		assert_int_equal(f->mem_topology_version, 1);
		assert_int_equal(f->memory_block_size, 0x8000000);
		assert_int_equal(f->nr_memory_nodes, 1);
		assert_int_equal(f->memory_nodes[0].nr_bits, 200);
		assert_int_equal(f->memory_nodes[0].bitmap[0], 0xffffff);
		assert_int_equal(f->memory_nodes[0].bitmap[3], 0xff);
		break;
	case SAMPO_FEAT_CLOCKID:
		assert_int_equal(f->clockid_res_ns, 1);
		break;
	case SAMPO_FEAT_DIR_FORMAT:
		assert_int_equal(f->dir_format_version, 1);
		break;
	case SAMPO_FEAT_BPF_PROG_INFO:
		assert_int_equal(f->nr_bpf_progs, 1);
		assert_int_equal(f->bpf_progs[0].info_len, 16);
		assert_int_equal(f->bpf_progs[0].data_len, 8);
		assert_int_equal(f->bpf_progs[0].arrays, 5);
		assert_memory_equal(f->bpf_progs[0].info, "0123456789abcdef", 16);
		assert_memory_equal(f->bpf_progs[0].data, "DATADATA", 8);
		break;
	case SAMPO_FEAT_BPF_BTF:
		assert_int_equal(f->nr_btfs, 2);
		assert_int_equal(f->btfs[0].id, 9);
		assert_int_equal(f->btfs[0].size, 4);
		assert_memory_equal(f->btfs[0].data, "\x9f\xeb\x01\x00", 4);
		assert_int_equal(f->btfs[1].id, 3);
		assert_int_equal(f->btfs[1].size, 0);
		break;
	case SAMPO_FEAT_COMPRESSED:
		assert_int_equal(f->comp_type, 1);
		assert_int_equal(f->comp_level, 1);
		assert_int_equal(f->comp_ratio, 12);
		assert_int_equal(f->comp_mmap_len, 528384);
		break;
	case SAMPO_FEAT_CPU_PMU_CAPS:
		assert_string_equal(f->cpu_pmu_caps.pmu_name, "cpu");
		assert_int_equal(f->cpu_pmu_caps.nr_caps, 2);
		assert_string_equal(f->cpu_pmu_caps.names[1], "max_precise");
		assert_string_equal(f->cpu_pmu_caps.values[1], "3");
		break;
	case SAMPO_FEAT_CLOCK_DATA:
		assert_int_equal(f->clock_data_version, 1);
		assert_int_equal(f->clockid, 1);
		assert_int_equal(f->clock_tod_ns, 1795322170152691000ULL);
		assert_int_equal(f->clock_clockid_ns, 2030666929333ULL);
		break;
	case SAMPO_FEAT_HYBRID_TOPOLOGY:
		assert_int_equal(f->nr_hybrid_nodes, 2);
		assert_string_equal(f->hybrid_nodes[1].pmu_name, "cpu_atom");
		assert_string_equal(f->hybrid_nodes[1].cpus, "8-15");
		break;
	case SAMPO_FEAT_PMU_CAPS:
		assert_int_equal(f->nr_pmu_caps, 2);
		assert_string_equal(f->pmu_caps[0].pmu_name, "cpu_core");
		assert_int_equal(f->pmu_caps[0].nr_caps, 1);
		assert_string_equal(f->pmu_caps[0].names[0], "branches");
		assert_string_equal(f->pmu_caps[0].values[0], "32");
		assert_string_equal(f->pmu_caps[1].pmu_name, "cpu_atom");
		assert_int_equal(f->pmu_caps[1].nr_caps, 0);
		break;
	default:
		break;
	}
}

/* ---- tests ---------------------------------------------------------------------------- */

static void test_feature__parses_every_feature(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(feat_cases) / sizeof(feat_cases[0]); i++) {
		struct sampo_features *f = parse_case(&feat_cases[i], false);

		check_values(f, feat_cases[i].feat);
		sampo_features__delete(f);
	}
}

static void test_feature__parses_byte_swapped(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(feat_cases) / sizeof(feat_cases[0]); i++) {
		struct sampo_features *f = parse_case(&feat_cases[i], true);

		check_values(f, feat_cases[i].feat);
		sampo_features__delete(f);
	}
}

static void test_feature__truncated_at_every_byte(void **state)
{
	(void)state;
	for (int be = 0; be <= 1; be++) {
		for (size_t i = 0; i < sizeof(feat_cases) / sizeof(feat_cases[0]); i++) {
			const struct feat_case *c = &feat_cases[i];
			struct img im;

			img_init(&im, be);
			c->build(&im);
			for (size_t len = 0; len < im.len; len++) {
				struct sampo_features *f = features_with_nrcpus(be);
				struct sampo_feature_error err;
				int ret = parse_copy(f, c->feat, im.buf, len, be, &err);

				if (ret) {
					assert_int_equal(ret, -SAMPO_ERR_MALFORMED);
					assert_int_equal(err.feat, c->feat);
					assert_true(err.offset <= len);
					assert_true(err.msg[0] != '\0');
					assert_false(sampo_features__has(f, c->feat));
				} else if (c->strict) {
					fail_msg("feature %d parsed %zu of %zu bytes", c->feat, len,
						 im.len);
				}
				sampo_features__delete(f);
			}
			img_free(&im);
		}
	}
}

static void test_feature__string_length_past_end(void **state)
{
	struct sampo_features *f = features_with_nrcpus(false);
	struct sampo_feature_error err;
	struct img im;

	(void)state;
	img_init(&im, false);
	img_u32(&im, 1);    /* one package list */
	img_u32(&im, 4096); /* its length */
	img_str(&im, "0-3", 64);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_CPU_TOPOLOGY, im.buf, im.len, false, &err),
			 -SAMPO_ERR_MALFORMED);
	assert_int_equal(err.feat, SAMPO_FEAT_CPU_TOPOLOGY);
	assert_int_equal(err.offset, 4);
	assert_non_null(
		strstr(err.msg, "string length 4096 runs past the section end (size 0x48)"));
	assert_false(sampo_features__has(f, SAMPO_FEAT_CPU_TOPOLOGY));
	img_free(&im);
	sampo_features__delete(f);
}

static void test_feature__string_without_nul(void **state)
{
	struct sampo_features *f = sampo_features__new();
	struct sampo_feature_error err;
	struct img im;

	(void)state;
	img_init(&im, false);
	img_u32(&im, 8);
	img_bytes(&im, "hostname", 8);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_HOSTNAME, im.buf, im.len, false, &err),
			 -SAMPO_ERR_MALFORMED);
	assert_int_equal(err.offset, 0);
	assert_non_null(strstr(err.msg, "no terminating NUL"));
	img_free(&im);
	sampo_features__delete(f);
}

static void test_feature__string_stops_at_first_nul(void **state)
{
	struct sampo_features *f = sampo_features__new();
	struct img im;

	(void)state;
	img_init(&im, false);
	img_u32(&im, 8);
	img_bytes(&im, "ab\0cdef\0", 8);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_HOSTNAME, im.buf, im.len, false, NULL), 0);
	assert_string_equal(f->hostname, "ab");
	img_free(&im);
	sampo_features__delete(f);
}

/* Counts that cannot fit are refused before anything is allocated for them. */
static void test_feature__count_too_large(void **state)
{
	static const int feats[] = {
		SAMPO_FEAT_CMDLINE,	 SAMPO_FEAT_EVENT_DESC,	  SAMPO_FEAT_NUMA_TOPOLOGY,
		SAMPO_FEAT_PMU_MAPPINGS, SAMPO_FEAT_GROUP_DESC,	  SAMPO_FEAT_BPF_PROG_INFO,
		SAMPO_FEAT_BPF_BTF,	 SAMPO_FEAT_CPU_PMU_CAPS, SAMPO_FEAT_HYBRID_TOPOLOGY,
		SAMPO_FEAT_PMU_CAPS,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		struct sampo_features *f = sampo_features__new();
		struct sampo_feature_error err;
		struct img im;

		img_init(&im, false);
		img_u32(&im, 0xffffffff);
		img_u32(&im, 128);
		img_zeros(&im, 256);
		assert_int_equal(parse_copy(f, feats[i], im.buf, im.len, false, &err),
				 -SAMPO_ERR_MALFORMED);
		assert_int_equal(err.offset, 0);
		assert_non_null(strstr(err.msg, "cannot fit"));
		img_free(&im);
		sampo_features__delete(f);
	}

	/* u64 counts: AUXTRACE and MEM_TOPOLOGY */
	struct sampo_features *f = sampo_features__new();
	struct sampo_feature_error err;
	struct img im;

	img_init(&im, false);
	img_u64(&im, 1ULL << 60);
	img_zeros(&im, 64);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_AUXTRACE, im.buf, im.len, false, &err),
			 -SAMPO_ERR_MALFORMED);
	img_free(&im);

	img_init(&im, false);
	img_u64(&im, 1);
	img_u64(&im, 4096);
	img_u64(&im, 1);
	img_u64(&im, 0);
	img_u64(&im, ~0ULL);
	img_u64(&im, ~0ULL); /* bitmap of 2^64-1 bits */
	img_u64(&im, 0);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_MEM_TOPOLOGY, im.buf, im.len, false, &err),
			 -SAMPO_ERR_MALFORMED);
	assert_int_equal(err.offset, 40);
	img_free(&im);
	sampo_features__delete(f);
}

static void test_feature__build_id_sizes_checked(void **state)
{
	struct sampo_features *f = sampo_features__new();
	struct sampo_feature_error err;
	struct img im;
	size_t r;

	(void)state;
	/* an id size above 20 */
	img_init(&im, false);
	r = img_begin_record(&im, 0, 0x8002);
	img_u32(&im, 1);
	img_zeros(&im, 20);
	img_u8(&im, 21);
	img_zeros(&im, 3);
	img_str(&im, "/x", 64);
	img_end_record(&im, r);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_BUILD_ID, im.buf, im.len, false, &err),
			 -SAMPO_ERR_MALFORMED);
	assert_non_null(strstr(err.msg, "build-id size 21"));
	img_free(&im);

	/* an entry size smaller than its header, which would loop forever */
	img_init(&im, false);
	img_u32(&im, 0);
	img_u16(&im, 0x8002);
	img_u16(&im, 0);
	img_zeros(&im, 96);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_BUILD_ID, im.buf, im.len, false, &err),
			 -SAMPO_ERR_MALFORMED);
	img_free(&im);

	/* a filename without NUL */
	img_init(&im, false);
	r = img_begin_record(&im, 0, 2);
	img_u32(&im, 1);
	img_zeros(&im, 24);
	img_bytes(&im, "/abcdefg", 8);
	img_end_record(&im, r);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_BUILD_ID, im.buf, im.len, false, &err),
			 -SAMPO_ERR_MALFORMED);
	assert_int_equal(err.offset, 36);
	img_free(&im);
	sampo_features__delete(f);
}

/* Before 2010 entries had no pid; perf spots them by the kernel's name. */
static void test_feature__build_id_old_abi(void **state)
{
	struct sampo_features *f = sampo_features__new();
	struct img im;
	size_t r;

	(void)state;
	img_init(&im, false);
	r = img_begin_record(&im, 0, SAMPO_CPUMODE_KERNEL);
	img_bytes(&im, "0123456789abcdefghij", 20);
	img_zeros(&im, 4);
	img_str(&im, "[kernel.kallsyms]", 64);
	img_end_record(&im, r);
	r = img_begin_record(&im, 0, SAMPO_CPUMODE_GUEST_USER);
	img_zeros(&im, 24);
	img_str(&im, "/guest/bin", 64);
	img_end_record(&im, r);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_BUILD_ID, im.buf, im.len, false, NULL), 0);
	assert_int_equal(f->nr_build_ids, 2);
	assert_string_equal(f->build_ids[0].filename, "[kernel.kallsyms]");
	assert_int_equal(f->build_ids[0].pid, -1);
	assert_memory_equal(f->build_ids[0].build_id, "0123456789abcdefghij", 20);
	assert_string_equal(f->build_ids[1].filename, "/guest/bin");
	assert_int_equal(f->build_ids[1].pid, 0);
	img_free(&im);
	sampo_features__delete(f);
}

/* Older perf versions wrote CPU_TOPOLOGY without ids, or without dies. */
static void test_feature__cpu_topology_older_layouts(void **state)
{
	struct sampo_features *f = features_with_nrcpus(false);
	struct img im;

	(void)state;
	img_init(&im, false);
	put_strlist(&im, pkg_lists, 1);
	put_strlist(&im, core_lists, 2);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_CPU_TOPOLOGY, im.buf, im.len, false, NULL), 0);
	assert_false(f->cpu_topology.has_cpus);
	assert_false(f->cpu_topology.has_dies);

	for (uint32_t cpu = 0; cpu < 4; cpu++) {
		img_u32(&im, cpu);
		img_u32(&im, 1);
	}
	assert_int_equal(parse_copy(f, SAMPO_FEAT_CPU_TOPOLOGY, im.buf, im.len, false, NULL), 0);
	assert_true(f->cpu_topology.has_cpus);
	assert_false(f->cpu_topology.has_dies);
	assert_int_equal(f->cpu_topology.cpus[3].core_id, 3);
	assert_int_equal(f->cpu_topology.cpus[3].socket_id, 1);
	assert_int_equal(f->cpu_topology.cpus[3].die_id, 0);
	img_free(&im);
	sampo_features__delete(f);

	/* without NRCPUS there are no per-CPU ids to read */
	f = sampo_features__new();
	img_init(&im, false);
	put_strlist(&im, pkg_lists, 1);
	put_strlist(&im, core_lists, 2);
	put_strlist(&im, die_lists, 1);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_CPU_TOPOLOGY, im.buf, im.len, false, NULL), 0);
	assert_true(f->cpu_topology.has_cpus);
	assert_int_equal(f->cpu_topology.nr_cpus, 0);
	assert_true(f->cpu_topology.has_dies);
	img_free(&im);
	sampo_features__delete(f);
}

static void test_feature__unknown_versions(void **state)
{
	static const int feats[] = { SAMPO_FEAT_CACHE, SAMPO_FEAT_CLOCK_DATA };
	struct sampo_features *f = sampo_features__new();
	struct sampo_feature_error err;
	struct img im;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		img_init(&im, false);
		img_u32(&im, 2);
		img_zeros(&im, 64);
		assert_int_equal(parse_copy(f, feats[i], im.buf, im.len, false, &err),
				 -SAMPO_ERR_UNSUPPORTED);
		assert_non_null(strstr(err.msg, "version 2"));
		img_free(&im);
	}
	img_init(&im, false);
	img_u64(&im, 2);
	img_zeros(&im, 64);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_MEM_TOPOLOGY, im.buf, im.len, false, &err),
			 -SAMPO_ERR_UNSUPPORTED);
	img_free(&im);
	sampo_features__delete(f);
}

/* A payload that fails leaves its feature out and the others untouched. */
static void test_feature__failure_keeps_other_features(void **state)
{
	struct sampo_features *f = sampo_features__new();
	struct img im;

	(void)state;
	img_init(&im, false);
	build_hostname(&im);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_HOSTNAME, im.buf, im.len, false, NULL), 0);
	img_free(&im);

	img_init(&im, false);
	build_pmu_mappings(&im);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_PMU_MAPPINGS, im.buf, im.len, false, NULL), 0);
	/* the same feature again, cut short: it is dropped, not half-kept */
	assert_int_equal(parse_copy(f, SAMPO_FEAT_PMU_MAPPINGS, im.buf, im.len - 1, false, NULL),
			 -SAMPO_ERR_MALFORMED);
	img_free(&im);

	assert_true(sampo_features__has(f, SAMPO_FEAT_HOSTNAME));
	assert_string_equal(f->hostname, "vm");
	assert_false(sampo_features__has(f, SAMPO_FEAT_PMU_MAPPINGS));
	assert_int_equal(f->nr_pmu_mappings, 0);
	assert_null(f->pmu_mappings);
	sampo_features__delete(f);
}

static void test_feature__rejects_bad_ids(void **state)
{
	struct sampo_features *f = sampo_features__new();
	uint8_t byte = 0;

	(void)state;
	assert_int_equal(sampo_features__parse_one(f, 0, &byte, 1, false, NULL), -EINVAL);
	assert_int_equal(sampo_features__parse_one(f, -3, &byte, 1, false, NULL), -EINVAL);
	assert_int_equal(sampo_features__parse_one(f, 256, &byte, 1, false, NULL), -EINVAL);
	assert_int_equal(sampo_features__parse_one(NULL, 3, &byte, 1, false, NULL), -EINVAL);
	/* known to nobody yet: skipped, not an error */
	assert_int_equal(sampo_features__parse_one(f, 40, &byte, 1, false, NULL), 0);
	assert_false(sampo_features__has(f, 40));
	assert_false(sampo_features__has(NULL, 3));
	sampo_features__delete(f);
	sampo_features__delete(NULL);
}

static void test_feature__encode_round_trip(void **state)
{
	char s63[64], s64[65];
	const char *const strs[] = { "", "vm", s63, s64 };
	struct sampo_features *f = sampo_features__new();
	uint8_t buf[1024];
	size_t n;

	(void)state;
	/* 63 characters fill a 64-byte slot with their NUL; 64 need a second slot */
	memset(s63, 'a', 63);
	s63[63] = '\0';
	memset(s64, 'b', 64);
	s64[64] = '\0';
	assert_int_equal(sampo_feature__encode_string(NULL, 0, "vm"), 68);
	assert_int_equal(sampo_feature__encode_string(NULL, 0, strs[2]), 68);
	assert_int_equal(sampo_feature__encode_string(NULL, 0, strs[3]), 132);
	/* too small: nothing written, size returned */
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(sampo_feature__encode_string(buf, 67, "vm"), 68);
	assert_int_equal(buf[0], 0xaa);

	n = sampo_feature__encode_strlist(buf, sizeof(buf), strs, 4);
	assert_int_equal(n, 4 + 68 + 68 + 68 + 132);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_CMDLINE, buf, n, false, NULL), 0);
	assert_int_equal(f->cmdline.nr, 4);
	for (int i = 0; i < 4; i++)
		assert_string_equal(f->cmdline.strs[i], strs[i]);
	sampo_features__delete(f);
}

/* ---- through the reader: a whole file image ------------------------------------------ */

/* A file-mode image: header, one attr, one FINISHED_ROUND, the given features. */
static void build_file(struct img *im, bool be, const int *feats, size_t nr_feats,
		       void (*const *builders)(struct img *), size_t *payload_off)
{
	size_t attrs_off = 104 + 8, data_off = attrs_off + 144, feat_off = data_off + 8;
	uint64_t bits = 0;
	size_t table, payload;

	img_init(im, be);
	for (size_t i = 0; i < nr_feats; i++)
		bits |= 1ULL << feats[i];
	img_u64(im, 0x32454c4946524550ULL);
	img_u64(im, 104);
	img_u64(im, 144);
	img_u64(im, attrs_off);
	img_u64(im, 144);
	img_u64(im, data_off);
	img_u64(im, 8);
	img_u64(im, 0);
	img_u64(im, 0);
	img_u64(im, bits);
	img_zeros(im, 24);
	img_u64(im, 42); /* the one id */
	img_attr(im, 1, 0, 0x107, SAMPO_ATTR_SAMPLE_ID_ALL);
	img_u64(im, 104);
	img_u64(im, 8);
	img_u32(im, SAMPO_RECORD_FINISHED_ROUND);
	img_u16(im, 0);
	img_u16(im, 8);
	assert_int_equal(im->len, feat_off);

	table = im->len;
	img_zeros(im, 16 * nr_feats);
	for (size_t i = 0; i < nr_feats; i++) {
		payload = im->len;
		payload_off[i] = payload;
		builders[i](im);
		img_set_u64(im, table + 16 * i, payload);
		img_set_u64(im, table + 16 * i + 8, im->len - payload);
	}
}

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void test_feature__parse_through_reader(void **state)
{
	static const int feats[] = { SAMPO_FEAT_HOSTNAME, SAMPO_FEAT_NRCPUS, SAMPO_FEAT_EVENT_DESC,
				     SAMPO_FEAT_CPU_TOPOLOGY };
	static void (*const builders[])(struct img *) = { build_hostname, build_nrcpus,
							  build_event_desc, build_cpu_topology };
	size_t payload_off[4];

	(void)state;
	sampo_set_print(quiet);
	for (int be = 0; be <= 1; be++) {
		struct sampo_reader *r;
		struct sampo_features *f = NULL;
		struct sampo_feature_error err;
		struct img im;

		build_file(&im, be, feats, 4, builders, payload_off);
		assert_int_equal(sampo_reader__open_mem(im.buf, im.len, "mem", NULL, &r), 0);
		assert_int_equal(sampo_features__parse(r, &f, &err), 0);
		for (size_t i = 0; i < 4; i++) {
			assert_true(sampo_features__has(f, feats[i]));
			check_values(f, feats[i]);
		}
		assert_false(sampo_features__has(f, SAMPO_FEAT_ARCH));
		sampo_features__delete(f);
		sampo_reader__close(r);

		/* a string length past its section: the error has the file offset */
		img_set_u32(&im, payload_off[3] + 4, 4096);
		assert_int_equal(sampo_reader__open_mem(im.buf, im.len, "mem", NULL, &r), 0);
		f = NULL;
		assert_int_equal(sampo_features__parse(r, &f, &err), -SAMPO_ERR_MALFORMED);
		assert_null(f);
		assert_int_equal(err.feat, SAMPO_FEAT_CPU_TOPOLOGY);
		assert_int_equal(err.section_offset, payload_off[3]);
		assert_int_equal(err.offset, 4);
		assert_non_null(strstr(err.msg, "string length 4096"));
		sampo_reader__close(r);
		img_free(&im);
	}
}

/* parse_each: damaged features are left out, counted, the first described; the rest parse */
static void test_feature__parse_each_leaves_out_damaged_features(void **state)
{
	static const int feats[] = { SAMPO_FEAT_HOSTNAME, SAMPO_FEAT_NRCPUS, SAMPO_FEAT_EVENT_DESC,
				     SAMPO_FEAT_CPU_TOPOLOGY };
	static void (*const builders[])(struct img *) = { build_hostname, build_nrcpus,
							  build_event_desc, build_cpu_topology };
	size_t payload_off[4];

	(void)state;
	sampo_set_print(quiet);
	for (int be = 0; be <= 1; be++) {
		struct sampo_reader *r;
		struct sampo_features *f = NULL;
		struct sampo_feature_error err;
		struct img im;

		build_file(&im, be, feats, 4, builders, payload_off);
		assert_int_equal(sampo_reader__open_mem(im.buf, im.len, "mem", NULL, &r), 0);
		assert_int_equal(sampo_features__parse_each(r, &f, &err), 0);
		assert_int_equal(err.feat, 0);
		for (size_t i = 0; i < 4; i++)
			assert_true(sampo_features__has(f, feats[i]));
		sampo_features__delete(f);
		sampo_reader__close(r);

		/* HOSTNAME's string and CPU_TOPOLOGY's first string run past their sections */
		img_set_u32(&im, payload_off[0], 4096);
		img_set_u32(&im, payload_off[3] + 4, 4096);
		assert_int_equal(sampo_reader__open_mem(im.buf, im.len, "mem", NULL, &r), 0);
		f = NULL;
		assert_int_equal(sampo_features__parse_each(r, &f, &err), 2);
		assert_non_null(f);
		assert_false(sampo_features__has(f, SAMPO_FEAT_HOSTNAME));
		assert_null(f->hostname);
		assert_false(sampo_features__has(f, SAMPO_FEAT_CPU_TOPOLOGY));
		assert_true(sampo_features__has(f, SAMPO_FEAT_NRCPUS));
		check_values(f, SAMPO_FEAT_NRCPUS);
		assert_true(sampo_features__has(f, SAMPO_FEAT_EVENT_DESC));
		check_values(f, SAMPO_FEAT_EVENT_DESC);
		assert_int_equal(err.feat, SAMPO_FEAT_HOSTNAME);
		assert_int_equal(err.section_offset, payload_off[0]);
		assert_non_null(strstr(err.msg, "string length 4096"));
		sampo_features__delete(f);

		/* the strict parse still stops at the first */
		f = NULL;
		assert_int_equal(sampo_features__parse(r, &f, &err), -SAMPO_ERR_MALFORMED);
		assert_null(f);
		assert_int_equal(err.feat, SAMPO_FEAT_HOSTNAME);
		sampo_reader__close(r);
		img_free(&im);
	}
	assert_int_equal(sampo_features__parse_each(NULL, NULL, NULL), -EINVAL);
}

static void test_feature__arch_normalize(void **state)
{
	static const char *const cases[][2] = {
		{ "x86_64", "x86" },	    { "i386", "x86" },	      { "i686", "x86" },
		{ "x86", "x86" },	    { "aarch64", "arm64" },   { "arm64", "arm64" },
		{ "armv7l", "arm" },	    { "sa110", "arm" },	      { "sun4u", "sparc" },
		{ "sparc64", "sparc" },	    { "s390x", "s390" },      { "parisc64", "parisc" },
		{ "ppc64le", "powerpc" },   { "powerpc", "powerpc" }, { "mips64", "mips" },
		{ "sh4", "sh" },	    { "loongarch64", "loongarch" },
		/* no family: as given ("shx" is not sh, "i86" not x86) */
		{ "riscv64", "riscv64" },   { "shx", "shx" },	      { "i86", "i86" },
		{ "", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(sampo_arch__normalize(cases[i][0]), cases[i][1]);
}

static void test_feature__clockid_names(void **state)
{
	(void)state;
	/* Linux's ids, as the file gives them */
	assert_string_equal(sampo_clockid__name(1), "monotonic");
	assert_string_equal(sampo_clockid__name(4), "monotonic_raw");
	assert_string_equal(sampo_clockid__name(0), "realtime");
	assert_string_equal(sampo_clockid__name(7), "boottime");
	assert_string_equal(sampo_clockid__name(11), "tai");
	/* ids perf has no name for */
	assert_null(sampo_clockid__name(2)); /* CLOCK_PROCESS_CPUTIME_ID */
	assert_null(sampo_clockid__name(12));
	assert_null(sampo_clockid__name(UINT32_MAX));
}

/* Add a one-string feature (ARCH, CPUID) to @f. */
static void add_string_feature(struct sampo_features *f, int feat, const char *str)
{
	struct img im;

	img_init(&im, false);
	put_string(&im, str);
	assert_int_equal(parse_copy(f, feat, im.buf, im.len, false, NULL), 0);
	img_free(&im);
}

/* 4 CPUs (NRCPUS), CPU 3 on socket @socket3, with die information */
static struct sampo_features *topology_with_socket(uint32_t socket3)
{
	struct sampo_features *f = features_with_nrcpus(false);
	struct img im;

	img_init(&im, false);
	put_strlist(&im, pkg_lists, 1);
	put_strlist(&im, core_lists, 2);
	for (uint32_t cpu = 0; cpu < 4; cpu++) {
		img_u32(&im, cpu / 2);
		img_u32(&im, cpu == 3 ? socket3 : 0);
	}
	put_strlist(&im, die_lists, 1);
	for (uint32_t cpu = 0; cpu < 4; cpu++)
		img_u32(&im, 0);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_CPU_TOPOLOGY, im.buf, im.len, false, NULL), 0);
	img_free(&im);
	return f;
}

static void test_feature__cpu_ids_plausible(void **state)
{
	struct sampo_features *f;

	(void)state;
	/* socket ids up to the CPU count pass, as does perf's "none" (-1) */
	f = topology_with_socket(4);
	assert_true(sampo_features__cpu_ids_plausible(f));
	sampo_features__delete(f);
	f = topology_with_socket(UINT32_MAX);
	assert_true(sampo_features__cpu_ids_plausible(f));
	sampo_features__delete(f);

	/* above it, perf refuses the ids: they go, the sibling lists stay */
	f = topology_with_socket(5);
	assert_true(f->cpu_topology.has_cpus && f->cpu_topology.has_dies);
	assert_false(sampo_features__cpu_ids_plausible(f));
	sampo_features__drop_cpu_ids(f);
	assert_false(f->cpu_topology.has_cpus);
	assert_false(f->cpu_topology.has_dies);
	assert_int_equal(f->cpu_topology.die_cpus.nr, 0);
	assert_int_equal(f->cpu_topology.package_cpus.nr, 1);
	assert_int_equal(f->cpu_topology.core_cpus.nr, 2);
	assert_true(sampo_features__cpu_ids_plausible(f));
	sampo_features__delete(f);

	/* on s390 and aarch64 socket ids are not bounded by the CPU count */
	f = topology_with_socket(1000);
	add_string_feature(f, SAMPO_FEAT_ARCH, "aarch64");
	assert_true(sampo_features__cpu_ids_plausible(f));
	sampo_features__delete(f);
	f = topology_with_socket(1000);
	add_string_feature(f, SAMPO_FEAT_ARCH, "s390x");
	assert_true(sampo_features__cpu_ids_plausible(f));
	sampo_features__delete(f);
	f = topology_with_socket(1000);
	add_string_feature(f, SAMPO_FEAT_ARCH, "x86_64");
	assert_false(sampo_features__cpu_ids_plausible(f));
	sampo_features__delete(f);

	/* no CPU_TOPOLOGY: nothing to refuse */
	f = sampo_features__new();
	assert_non_null(f);
	assert_true(sampo_features__cpu_ids_plausible(f));
	sampo_features__delete(f);
}

static struct sampo_features *machine(const char *arch, const char *cpuid)
{
	struct sampo_features *f = sampo_features__new();

	assert_non_null(f);
	if (arch)
		add_string_feature(f, SAMPO_FEAT_ARCH, arch);
	if (cpuid)
		add_string_feature(f, SAMPO_FEAT_CPUID, cpuid);
	return f;
}

static void test_feature__uses_host_pmus(void **state)
{
	struct sampo_features *amd = machine("x86_64", "AuthenticAMD,25,1,1");
	struct sampo_features *intel = machine("x86_64", "GenuineIntel-6-55-4");
	struct sampo_features *arm = machine("aarch64", "0x00000000410fd0c0");
	struct sampo_features *none = machine(NULL, NULL);
	struct sampo_features *arch_only = machine("i686", NULL);
	struct sampo_features *mapped = machine("x86_64", "AuthenticAMD,25,1,1");
	struct img im;

	(void)state;
	/* file mode: the file's ARCH and CPUID decide */
	assert_true(sampo_features__uses_host_pmus(amd, false, intel));
	assert_true(sampo_features__uses_host_pmus(amd, false, NULL));
	assert_false(sampo_features__uses_host_pmus(intel, false, amd));
	assert_false(sampo_features__uses_host_pmus(arm, false, amd));
	/* each one missing from the file is this machine's */
	assert_true(sampo_features__uses_host_pmus(none, false, amd));
	assert_false(sampo_features__uses_host_pmus(none, false, NULL));
	assert_true(sampo_features__uses_host_pmus(arch_only, false, amd));
	assert_false(sampo_features__uses_host_pmus(arch_only, false, arm));
	/* pipe mode: only this machine counts */
	assert_false(sampo_features__uses_host_pmus(amd, true, intel));
	assert_true(sampo_features__uses_host_pmus(intel, true, amd));
	assert_true(sampo_features__uses_host_pmus(NULL, true, amd));
	assert_false(sampo_features__uses_host_pmus(NULL, true, NULL));

	/* a file with PMU mappings shows its own */
	img_init(&im, false);
	build_pmu_mappings(&im);
	assert_int_equal(parse_copy(mapped, SAMPO_FEAT_PMU_MAPPINGS, im.buf, im.len, false, NULL), 0);
	img_free(&im);
	assert_false(sampo_features__uses_host_pmus(mapped, false, amd));
	assert_false(sampo_features__uses_host_pmus(mapped, true, amd));

	sampo_features__delete(amd);
	sampo_features__delete(intel);
	sampo_features__delete(arm);
	sampo_features__delete(none);
	sampo_features__delete(arch_only);
	sampo_features__delete(mapped);
}

/* ---- simpleperf's features (lib/feature-simpleperf.c) ------------------------------------- */

/*
 * FILE (v1): one ELF entry, laid out as simpleperf's ReadFileV1Feature()
 * reads it: u32 size; "/system/lib64/libc.so\0"; u32 type 2; u64 min_vaddr
 * 0x1000; u32 2 symbols {u64 vaddr, u32 len, name\0}; u64 file offset 0x800.
 */
static const uint8_t sp_file_v1[] = {
	0x52, 0, 0, 0,
	'/', 's', 'y', 's', 't', 'e', 'm', '/', 'l', 'i', 'b', '6', '4', '/', 'l', 'i', 'b', 'c',
	'.', 's', 'o', 0,
	2, 0, 0, 0,
	0x00, 0x10, 0, 0, 0, 0, 0, 0,
	2, 0, 0, 0,
	0x00, 0x11, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 'm', 'a', 'l', 'l', 'o', 'c', 0,
	0x80, 0x11, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 'f', 'r', 'e', 'e', 0,
	0x00, 0x08, 0, 0, 0, 0, 0, 0,
};

/*
 * FILE2: the same DSO as a protobuf FileFeature: path (1), type (2),
 * min_vaddr (3), one symbol (4: vaddr 0x1100, len 0x40, "malloc"), an
 * unknown field 15 (skipped), elf_file (6: file offset 0x800).
 */
static const uint8_t sp_file_v2[] = {
	0x2a, 0, 0, 0,
	0x0a, 9, '/', 'b', 'i', 'n', '/', 't', 'o', 'o', 'l',
	0x10, 2,
	0x18, 0x80, 0x20,
	0x22, 13, 0x08, 0x80, 0x22, 0x10, 0x40, 0x1a, 6, 'm', 'a', 'l', 'l', 'o', 'c',
	0x78, 7,
	0x32, 3, 0x08, 0x80, 0x10,
	0x22, 2, 0x10, 0x01,
};

static const uint8_t sp_meta[] = "simpleperf_version\0" "1.2\0" "clockid\0" "monotonic";

static void test_feature__simpleperf_file_tables(void **state)
{
	struct sampo_features *f = sampo_features__new();
	const struct sampo_feat_sp_file *e;
	uint32_t nr;

	(void)state;
	assert_non_null(f);
	assert_int_equal(parse_copy(f, SAMPO_FEAT_SIMPLEPERF_FILE2, sp_file_v2, sizeof(sp_file_v2),
				    false, NULL), 0);
	e = sampo_features__simpleperf_files(f, &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(e->path, "/bin/tool");
	assert_int_equal(e->type, SAMPO_SP_DSO_ELF_FILE);
	assert_int_equal(e->min_vaddr, 0x1000);
	assert_true(e->has_file_offset);
	assert_int_equal(e->file_offset, 0x800);
	assert_int_equal(e->nr_symbols, 2);
	assert_int_equal(e->symbols[0].vaddr, 0x1100);
	assert_int_equal(e->symbols[0].len, 0x40);
	assert_string_equal(e->symbols[0].name, "malloc");
	assert_string_equal(e->symbols[1].name, ""); /* a symbol without a name */

	/* FILE wins over FILE2, as in simpleperf's reader */
	assert_int_equal(parse_copy(f, SAMPO_FEAT_SIMPLEPERF_FILE, sp_file_v1, sizeof(sp_file_v1),
				    false, NULL), 0);
	e = sampo_features__simpleperf_files(f, &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(e->path, "/system/lib64/libc.so");
	assert_int_equal(e->nr_symbols, 2);
	assert_int_equal(e->symbols[1].vaddr, 0x1180);
	assert_int_equal(e->symbols[1].len, 0x20);
	assert_string_equal(e->symbols[1].name, "free");
	assert_true(e->has_file_offset);
	assert_int_equal(e->file_offset, 0x800);

	assert_int_equal(parse_copy(f, SAMPO_FEAT_SIMPLEPERF_META_INFO, sp_meta, sizeof(sp_meta),
				    false, NULL), 0);
	assert_string_equal(sampo_features__simpleperf_meta(f, "clockid"), "monotonic");
	assert_null(sampo_features__simpleperf_meta(f, "nothing"));
	assert_string_equal(sampo_feature__name(SAMPO_FEAT_SIMPLEPERF_FILE2), "SIMPLEPERF_FILE2");
	sampo_features__delete(f);
}

/* Every prefix of each payload, in an exact-size heap copy: an error naming a place, or a parse */
static void test_feature__simpleperf_truncated_at_every_byte(void **state)
{
	static const struct {
		int feat;
		const uint8_t *buf;
		size_t len;
		bool strict; /* no proper prefix parses */
	} cases[] = {
		{ SAMPO_FEAT_SIMPLEPERF_FILE, sp_file_v1, sizeof(sp_file_v1), true },
		{ SAMPO_FEAT_SIMPLEPERF_FILE2, sp_file_v2, sizeof(sp_file_v2), true },
		/* a prefix ending between two pairs is a shorter META_INFO */
		{ SAMPO_FEAT_SIMPLEPERF_META_INFO, sp_meta, sizeof(sp_meta), false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (size_t len = 1; len < cases[i].len; len++) {
			struct sampo_features *f = sampo_features__new();
			struct sampo_feature_error err;
			int ret;

			assert_non_null(f);
			ret = parse_copy(f, cases[i].feat, cases[i].buf, len, false, &err);
			if (!ret && !cases[i].strict) {
				sampo_features__delete(f);
				continue;
			}
			/* every entry starts with its size: no cut entry parses */
			assert_int_equal(ret, -SAMPO_ERR_MALFORMED);
			assert_int_equal(err.feat, cases[i].feat);
			assert_true(err.offset <= len);
			assert_true(err.msg[0] != '\0');
			assert_false(sampo_features__has(f, cases[i].feat));
			sampo_features__delete(f);
		}
	}
}

static void test_feature__simpleperf_hostile(void **state)
{
	struct sampo_features *f = sampo_features__new();
	struct sampo_feature_error err;
	uint8_t buf[sizeof(sp_file_v1)];

	(void)state;
	assert_non_null(f);
	/* a symbol count no entry can hold is refused before anything is allocated */
	memcpy(buf, sp_file_v1, sizeof(buf));
	buf[4 + 22 + 4 + 8] = 0xff;
	buf[4 + 22 + 4 + 8 + 3] = 0x7f;
	assert_int_equal(parse_copy(f, SAMPO_FEAT_SIMPLEPERF_FILE, buf, sizeof(buf), false, &err),
			 -SAMPO_ERR_MALFORMED);
	assert_non_null(strstr(err.msg, "symbol count"));
	/* an unknown file type */
	memcpy(buf, sp_file_v1, sizeof(buf));
	buf[4 + 22] = 9;
	assert_int_equal(parse_copy(f, SAMPO_FEAT_SIMPLEPERF_FILE, buf, sizeof(buf), false, &err),
			 -SAMPO_ERR_MALFORMED);
	assert_non_null(strstr(err.msg, "unknown file type 9"));
	/* a protobuf length past its message */
	{
		uint8_t v2[sizeof(sp_file_v2)];

		memcpy(v2, sp_file_v2, sizeof(v2));
		v2[5] = 0x7f;
		assert_int_equal(parse_copy(f, SAMPO_FEAT_SIMPLEPERF_FILE2, v2, sizeof(v2), false,
					    &err),
				 -SAMPO_ERR_MALFORMED);
		assert_non_null(strstr(err.msg, "runs past its message"));
	}
	/* an empty meta info value */
	assert_int_equal(parse_copy(f, SAMPO_FEAT_SIMPLEPERF_META_INFO, "k\0\0", 3, false, &err),
			 -SAMPO_ERR_MALFORMED);
	/* big-endian files are not simpleperf's: left out, no error */
	assert_int_equal(parse_copy(f, SAMPO_FEAT_SIMPLEPERF_FILE, sp_file_v1, sizeof(sp_file_v1),
				    true, NULL), 0);
	assert_false(sampo_features__has(f, SAMPO_FEAT_SIMPLEPERF_FILE));
	sampo_features__delete(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_feature__parses_every_feature),
		cmocka_unit_test(test_feature__simpleperf_file_tables),
		cmocka_unit_test(test_feature__simpleperf_truncated_at_every_byte),
		cmocka_unit_test(test_feature__simpleperf_hostile),
		cmocka_unit_test(test_feature__parses_byte_swapped),
		cmocka_unit_test(test_feature__truncated_at_every_byte),
		cmocka_unit_test(test_feature__string_length_past_end),
		cmocka_unit_test(test_feature__string_without_nul),
		cmocka_unit_test(test_feature__string_stops_at_first_nul),
		cmocka_unit_test(test_feature__count_too_large),
		cmocka_unit_test(test_feature__build_id_sizes_checked),
		cmocka_unit_test(test_feature__build_id_old_abi),
		cmocka_unit_test(test_feature__cpu_topology_older_layouts),
		cmocka_unit_test(test_feature__unknown_versions),
		cmocka_unit_test(test_feature__failure_keeps_other_features),
		cmocka_unit_test(test_feature__rejects_bad_ids),
		cmocka_unit_test(test_feature__encode_round_trip),
		cmocka_unit_test(test_feature__parse_through_reader),
		cmocka_unit_test(test_feature__parse_each_leaves_out_damaged_features),
		cmocka_unit_test(test_feature__arch_normalize),
		cmocka_unit_test(test_feature__clockid_names),
		cmocka_unit_test(test_feature__cpu_ids_plausible),
		cmocka_unit_test(test_feature__uses_host_pmus),
	};

	return cmocka_run_group_tests_name("feature", tests, NULL, NULL);
}
