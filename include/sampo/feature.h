/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * feature.h - the header features of a perf.data file (HOSTNAME, EVENT_DESC,
 * CPU_TOPOLOGY, ...), parsed into typed values.
 *
 * A perf.data file ends with "features": one payload per bit set in the
 * file header's feature bitmap (or, in pipe mode, one HEADER_FEATURE record
 * each). sampo_features__parse() fetches every payload through the reader and
 * decodes it; sampo_features__parse_one() decodes one payload held in memory
 * (tests, fuzzing, pipe-mode HEADER_FEATURE records).
 *
 * Like sample.h, struct sampo_features is a plain public struct: it is a view
 * of the file, in host byte order. The library allocates it and owns every
 * pointer inside it; everything stays valid until sampo_features__delete().
 * Fields are only meaningful when sampo_features__has() says the feature was
 * parsed. New fields are only ever added at the end.
 *
 * Every length, count and string is checked against the payload: a bad one
 * makes the parse fail with -SAMPO_ERR_MALFORMED and a description of the
 * problem and of where it is (struct sampo_feature_error). Nothing is ever
 * read outside the payload.
 */
#ifndef SAMPO_FEATURE_H
#define SAMPO_FEATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>
#include <sampo/event.h>

struct sampo_reader;

/* A perf "string list": u32 nr, then nr strings. */
struct sampo_feat_strlist {
	uint32_t nr;
	char **strs; /* nr NUL-terminated strings */
};

/* One entry of the BUILD_ID table. */
struct sampo_feat_build_id {
	uint64_t offset; /* of the entry, from the start of the BUILD_ID payload */
	uint16_t misc;	 /* header.misc as written: cpumode | SAMPO_MISC_BUILD_ID_SIZE */
	uint8_t cpumode; /* misc & SAMPO_MISC_CPUMODE_MASK */
	int32_t pid;	 /* machine: -1 for the host, the guest's pid otherwise */
	uint8_t size;	 /* bytes of build_id in use (20 unless misc says otherwise) */
	uint8_t build_id[SAMPO_BUILD_ID_MAX];
	char *filename;
};

/* EVENT_DESC: one event as perf record described it. */
struct sampo_feat_event {
	struct sampo_event_attr attr; /* host order; bytes past attr_size are zero */
	char *name;		      /* as given on the command line ("cpu-clock") */
	uint32_t nr_ids;
	uint64_t *ids;
};

/* CPU_TOPOLOGY: per-CPU ids, indexed by CPU number. */
struct sampo_feat_cpu {
	uint32_t core_id;
	uint32_t socket_id;
	uint32_t die_id; /* 0 when the file has no die information */
};

struct sampo_feat_cpu_topology {
	struct sampo_feat_strlist package_cpus; /* "sibling sockets": CPUs sharing a package */
	struct sampo_feat_strlist core_cpus;	/* "sibling threads": CPUs sharing a core */
	/*
	 * core/socket ids of the NRCPUS "available" CPUs; files from old perf
	 * versions stop before them (has_cpus false).
	 */
	bool has_cpus;
	uint32_t nr_cpus;
	struct sampo_feat_cpu *cpus;
	bool has_dies; /* die lists and die ids follow (perf >= 5.4) */
	struct sampo_feat_strlist die_cpus;
};

/* NUMA_TOPOLOGY */
struct sampo_feat_numa_node {
	uint32_t node;
	uint64_t mem_total_kb;
	uint64_t mem_free_kb;
	char *cpus; /* CPU list, "0-3,8" */
};

/* PMU_MAPPINGS */
struct sampo_feat_pmu_mapping {
	uint32_t type; /* perf_event_attr.type of events on this PMU */
	char *name;
};

/* GROUP_DESC */
struct sampo_feat_group {
	char *name; /* "{anon_group}" for a group without a name */
	uint32_t leader_idx;
	uint32_t nr_members;
};

/* AUXTRACE: index of the AUXTRACE records in the data section */
struct sampo_feat_auxtrace_entry {
	uint64_t file_offset;
	uint64_t size;
};

/* CACHE: one CPU cache, as described in sysfs */
struct sampo_feat_cache {
	uint32_t level;
	uint32_t line_size;
	uint32_t sets;
	uint32_t ways;
	char *type; /* "Data", "Instruction", "Unified" */
	char *size; /* "32K" */
	char *map;  /* shared CPU list */
};

/* MEM_TOPOLOGY: the memory blocks of one node */
struct sampo_feat_memory_node {
	uint64_t node;
	uint64_t nr_bits; /* bits in bitmap, one per memory block */
	uint64_t *bitmap; /* (nr_bits + 63) / 64 words; bit N = block N */
};

/* CPU_PMU_CAPS and PMU_CAPS: capabilities of one PMU */
struct sampo_feat_pmu_caps {
	char *pmu_name; /* "cpu" for CPU_PMU_CAPS */
	uint32_t nr_caps;
	char **names;  /* nr_caps strings */
	char **values; /* nr_caps strings */
};

/* HYBRID_TOPOLOGY */
struct sampo_feat_hybrid_node {
	char *pmu_name;
	char *cpus;
};

/* BPF_PROG_INFO: one perf_bpil record (struct bpf_prog_info + its arrays) */
struct sampo_feat_bpf_prog {
	uint32_t info_len; /* bytes of struct bpf_prog_info as written */
	uint32_t data_len; /* bytes of array data */
	uint64_t arrays;   /* bitmask of the arrays present in data */
	uint8_t *info;	   /* info_len bytes, file byte order */
	uint8_t *data;	   /* data_len bytes, file byte order */
};

/* BPF_BTF: one BTF blob */
struct sampo_feat_btf {
	uint32_t id;
	uint32_t size;
	uint8_t *data; /* size bytes */
};

/* simpleperf's DSO kinds (its enum DsoType), the type of a FILE/FILE2 entry */
enum sampo_sp_dso_type {
	SAMPO_SP_DSO_KERNEL = 0,
	SAMPO_SP_DSO_KERNEL_MODULE = 1,
	SAMPO_SP_DSO_ELF_FILE = 2,
	SAMPO_SP_DSO_DEX_FILE = 3,
	SAMPO_SP_DSO_SYMBOL_MAP_FILE = 4,
	SAMPO_SP_DSO_UNKNOWN_FILE = 5,
};

/* One symbol of a simpleperf FILE/FILE2 entry: only the symbols with samples are kept */
struct sampo_feat_sp_symbol {
	uint64_t vaddr; /* in the DSO's own addresses (see docs/simpleperf.md) */
	uint64_t len;	/* bytes (a u32 in the file) */
	char *name;	/* as stored: C++ names mangled, Rust ones demangled */
};

/* simpleperf FILE (v1) or FILE2 (protobuf): one DSO and the symbols it had samples in */
struct sampo_feat_sp_file {
	char *path;	    /* "[kernel.kallsyms]", a module "[name]" or a file path */
	uint32_t type;	    /* enum sampo_sp_dso_type */
	uint64_t min_vaddr; /* the lowest address of its executable segment */
	/*
	 * ELF: the file offset of min_vaddr; module: the memory offset of
	 * min_vaddr from the module's start. Old FILE entries have none.
	 */
	bool has_file_offset;
	uint64_t file_offset;
	uint32_t nr_symbols;
	struct sampo_feat_sp_symbol *symbols;
	uint32_t nr_dex_offsets; /* DEX files: where the dex files start */
	uint64_t *dex_offsets;
};

/* simpleperf META_INFO: one key and its value ("simpleperf_version", ...) */
struct sampo_feat_sp_meta {
	char *key;
	char *value;
};

/* simpleperf DEBUG_UNWIND: a file kept in DEBUG_UNWIND_FILE, in this order */
struct sampo_feat_sp_unwind_file {
	char *path;
	uint64_t size;
};

struct sampo_features {
	uint64_t present[4]; /* bit N: feature N was parsed; see sampo_features__has() */

	/* TRACING_DATA: kept as is (tracepoint formats, ftrace "tracing data" blob) */
	size_t tracing_data_size;
	uint8_t *tracing_data;

	/* BUILD_ID */
	size_t nr_build_ids;
	struct sampo_feat_build_id *build_ids;

	char *hostname;	 /* HOSTNAME */
	char *osrelease; /* OSRELEASE */
	char *version;	 /* VERSION: perf version of the recorder */
	char *arch;	 /* ARCH */

	/* NRCPUS */
	uint32_t nr_cpus_avail;
	uint32_t nr_cpus_online;

	char *cpudesc; /* CPUDESC */
	char *cpuid;   /* CPUID */

	uint64_t total_mem_kb; /* TOTAL_MEM */

	struct sampo_feat_strlist cmdline; /* CMDLINE: argv, argv[0] made absolute */

	/* EVENT_DESC */
	uint32_t nr_events;
	uint32_t event_attr_size; /* bytes per attr in the file */
	struct sampo_feat_event *events;

	struct sampo_feat_cpu_topology cpu_topology; /* CPU_TOPOLOGY */

	/* NUMA_TOPOLOGY */
	uint32_t nr_numa_nodes;
	struct sampo_feat_numa_node *numa_nodes;

	/* PMU_MAPPINGS */
	uint32_t nr_pmu_mappings;
	struct sampo_feat_pmu_mapping *pmu_mappings;

	/* GROUP_DESC */
	uint32_t nr_groups;
	struct sampo_feat_group *groups;

	/* AUXTRACE */
	uint64_t nr_auxtrace;
	struct sampo_feat_auxtrace_entry *auxtrace;

	/* CACHE */
	uint32_t cache_version;
	uint32_t nr_caches;
	struct sampo_feat_cache *caches;

	/* SAMPLE_TIME, in perf clock ns; both 0 when perf did not compute them */
	uint64_t first_sample_time;
	uint64_t last_sample_time;

	/* MEM_TOPOLOGY */
	uint64_t mem_topology_version;
	uint64_t memory_block_size; /* bytes per memory block */
	uint64_t nr_memory_nodes;
	struct sampo_feat_memory_node *memory_nodes;

	uint64_t clockid_res_ns; /* CLOCKID: resolution of the sampling clock */

	uint64_t dir_format_version; /* DIR_FORMAT */

	/* BPF_PROG_INFO */
	uint32_t nr_bpf_progs;
	struct sampo_feat_bpf_prog *bpf_progs;

	/* BPF_BTF */
	uint32_t nr_btfs;
	struct sampo_feat_btf *btfs;

	/* COMPRESSED */
	uint32_t comp_version;
	uint32_t comp_type; /* 1: zstd */
	uint32_t comp_level;
	uint32_t comp_ratio;
	uint32_t comp_mmap_len;

	struct sampo_feat_pmu_caps cpu_pmu_caps; /* CPU_PMU_CAPS (pmu_name "cpu") */

	/* CLOCK_DATA: a reference point between wall-clock time and the sampling clock */
	uint32_t clock_data_version;
	uint32_t clockid;
	uint64_t clock_tod_ns;	   /* wall-clock time, ns since the epoch */
	uint64_t clock_clockid_ns; /* the same instant on the sampling clock */

	/* HYBRID_TOPOLOGY */
	uint32_t nr_hybrid_nodes;
	struct sampo_feat_hybrid_node *hybrid_nodes;

	/* PMU_CAPS */
	uint32_t nr_pmu_caps;
	struct sampo_feat_pmu_caps *pmu_caps;

	/* Android simpleperf's features (SAMPO_FEAT_SIMPLEPERF_*; docs/simpleperf.md) */
	uint32_t nr_sp_files; /* FILE */
	struct sampo_feat_sp_file *sp_files;
	uint32_t nr_sp_meta; /* META_INFO */
	struct sampo_feat_sp_meta *sp_meta;
	uint32_t nr_sp_debug_unwind; /* DEBUG_UNWIND */
	struct sampo_feat_sp_unwind_file *sp_debug_unwind;
	uint64_t sp_debug_unwind_file_size; /* DEBUG_UNWIND_FILE: bytes, not decoded */
	uint32_t nr_sp_files2;		    /* FILE2 */
	struct sampo_feat_sp_file *sp_files2;
	uint64_t sp_etm_branch_list_size; /* ETM_BRANCH_LIST: bytes, not decoded */
	uint64_t sp_init_map_size;	  /* INIT_MAP: bytes, not decoded */
};

/* Where and why a payload did not parse. */
#define SAMPO_FEATURE_ERR_MSG_MAX 160
struct sampo_feature_error {
	int feat;		 /* the feature being parsed */
	uint64_t offset;	 /* of the offending field, from the start of the payload */
	uint64_t section_offset; /* file offset of the payload (0 when unknown, pipe mode) */
	char msg[SAMPO_FEATURE_ERR_MSG_MAX]; /* "string length 4096 runs past the section end (size 0x98)" */
};

/**
 * sampo_features__new() - an empty set of features
 *
 * Return: the new object (free with sampo_features__delete()), or NULL when
 * out of memory.
 */
SAMPO_API struct sampo_features *sampo_features__new(void);

/** sampo_features__delete() - free @f and everything it points to; NULL is allowed */
SAMPO_API void sampo_features__delete(struct sampo_features *f);

/** sampo_features__has() - feature @feat was parsed into @f */
SAMPO_API bool sampo_features__has(const struct sampo_features *f, int feat);

/**
 * sampo_arch__normalize() - perf 6.1's normalize_arch(): the architecture
 * family of an ARCH feature or a uname machine ("x86_64", "i686" -> "x86",
 * "aarch64" -> "arm64", "ppc64le" -> "powerpc", ...)
 *
 * Return: a static string, or @arch itself when it names no known family.
 */
SAMPO_API const char *sampo_arch__normalize(const char *arch);

/**
 * sampo_clockid__name() - perf 6.1's name of a sampling clock id, as
 * CLOCK_DATA's clockid or an attr's clockid give it ("monotonic",
 * "monotonic_raw", "realtime", "boottime", "tai")
 *
 * Return: a static string, or NULL for an id perf has no name for (perf's
 * clockid_name() then says "(not found)").
 */
SAMPO_API const char *sampo_clockid__name(uint32_t clockid);

/**
 * sampo_features__cpu_ids_plausible() - whether perf 6.1 accepts the
 * per-CPU ids of CPU_TOPOLOGY
 * @f: the file's features (ARCH, when present, is read too)
 *
 * perf 6.1's process_cpu_topology() refuses a socket id above the number of
 * CPUs, except on s390 and aarch64 where socket ids are not related to it.
 * It then drops the per-CPU ids (sampo_features__drop_cpu_ids() does the
 * same to @f) and its processing of the features stops: the later features
 * print as if empty in perf's header.
 *
 * Return: true when perf keeps the ids (also when the file has none).
 */
SAMPO_API bool sampo_features__cpu_ids_plausible(const struct sampo_features *f);

/**
 * sampo_features__drop_cpu_ids() - forget CPU_TOPOLOGY's per-CPU core, die
 * and socket ids and its die lists, keeping the package and core sibling
 * lists, as perf 6.1 does with ids it refuses
 * (sampo_features__cpu_ids_plausible()): it reads the die lists after the
 * ids, so it never has them then
 */
SAMPO_API void sampo_features__drop_cpu_ids(struct sampo_features *f);

/**
 * sampo_features__uses_host_pmus() - whether perf 6.1 shows THIS machine's
 * PMUs as the PMU mappings of a file
 * @f: the file's features; NULL is allowed (then only @host counts)
 * @pipe: the file is a pipe: perf decides before it reads any feature, from
 *        this machine alone
 * @host: this machine's features (sampo_synthesize__host_features()), or
 *        NULL when they cannot be read
 *
 * A perf 6.1 quirk: when the recording machine was an x86 AMD one (ARCH and
 * CPUID of the file, each this machine's when the file has none; in pipe
 * mode this machine's), perf looks for IBS PMUs in the PMU mappings, and if
 * there are none yet it reads this machine's from /sys. An empty or unread
 * PMU_MAPPINGS then shows the local PMUs.
 *
 * Return: true when @f has no PMU mapping and that quirk applies.
 */
SAMPO_API bool sampo_features__uses_host_pmus(const struct sampo_features *f, bool pipe,
					      const struct sampo_features *host);

/**
 * sampo_features__simpleperf_files() - the DSO symbol tables of a simpleperf
 * file: FILE when it was parsed, else FILE2 (simpleperf's own preference)
 * @ret_nr: the number of entries
 *
 * Return: the entries (owned by @f), or NULL (*@ret_nr 0) when neither.
 */
SAMPO_API const struct sampo_feat_sp_file *
sampo_features__simpleperf_files(const struct sampo_features *f, uint32_t *ret_nr);

/**
 * sampo_features__simpleperf_meta() - the value of META_INFO key @key
 *
 * Return: the value (owned by @f), or NULL when absent.
 */
SAMPO_API const char *sampo_features__simpleperf_meta(const struct sampo_features *f,
						      const char *key);

/**
 * sampo_features__parse_one() - decode one feature payload into @f
 * @f: where the values go; features parsed earlier are kept
 * @feat: the feature id (SAMPO_FEAT_*)
 * @buf: the payload, in the file's byte order; borrowed (copied as needed)
 * @len: bytes in @buf
 * @swap: the payload comes from an opposite-endian file
 * @err: optional; on -SAMPO_ERR_MALFORMED, says where and why
 *
 * CPU_TOPOLOGY needs the CPU count of NRCPUS: parse NRCPUS first (features
 * are stored in id order, so parsing in id order does it). BRANCH_STACK and
 * STAT have no payload; simpleperf's features (SAMPO_FEAT_SIMPLEPERF_*) are
 * decoded too, in a little-endian file only; other ids past
 * SAMPO_FEAT_LAST_KNOWN are skipped. Bytes
 * after the last field perf writes are ignored, as perf does.
 *
 * On failure the feature is left out of @f (sampo_features__has() is false)
 * and the other features are untouched.
 *
 * Return: 0, -SAMPO_ERR_MALFORMED, -SAMPO_ERR_UNSUPPORTED (a version this
 * code does not know: CACHE, MEM_TOPOLOGY, CLOCK_DATA), -EINVAL (bad @feat),
 * or -ENOMEM.
 */
SAMPO_API int sampo_features__parse_one(struct sampo_features *f, int feat, const void *buf,
					size_t len, bool swap, struct sampo_feature_error *err);

/**
 * sampo_features__parse() - decode every feature present in a file
 * @reader: an open reader; in pipe mode only the HEADER_FEATURE records
 *          read so far are seen
 * @ret_features: on success, the features; free with sampo_features__delete()
 * @err: optional; on failure, the feature, its file offset and the reason
 *
 * Stops at the first payload that does not parse.
 *
 * Return: 0, -SAMPO_ERR_MALFORMED, -SAMPO_ERR_UNSUPPORTED, -ENOMEM or a
 * read error of sampo_reader__feature().
 */
SAMPO_API int sampo_features__parse(struct sampo_reader *reader,
				    struct sampo_features **ret_features,
				    struct sampo_feature_error *err);

/**
 * sampo_features__parse_each() - decode every feature present in a file,
 * leaving out the ones that do not parse
 * @reader: as for sampo_features__parse()
 * @ret_features: on success, the features that parsed (a damaged one is
 *                absent: sampo_features__has() is false); free with
 *                sampo_features__delete()
 * @err: optional; the first feature left out and why (feat 0 when none)
 *
 * For commands that can do without a damaged optional feature (perf goes on
 * too): a payload that does not parse (or cannot be read) is skipped and the
 * others are still parsed. Say so once with @err.
 *
 * Return: the number of features left out (0: all parsed), or -ENOMEM or
 * -EINVAL (then nothing is returned).
 */
SAMPO_API int sampo_features__parse_each(struct sampo_reader *reader,
					 struct sampo_features **ret_features,
					 struct sampo_feature_error *err);

/**
 * sampo_feature__encode_string() - encode a perf header string
 * @buf: where the bytes go, or NULL to only compute the size
 * @size: bytes available at @buf
 * @str: the string
 *
 * Writes u32 len (host order) then @str NUL-padded to len, len being
 * strlen(@str) + 1 rounded up to SAMPO_NAME_ALIGN, as perf does.
 *
 * Return: the encoded size in bytes (4 + len); nothing is written when it is
 * larger than @size.
 */
SAMPO_API size_t sampo_feature__encode_string(void *buf, size_t size, const char *str);

/**
 * sampo_feature__encode_strlist() - encode a perf header string list
 *
 * u32 nr (host order), then each string as sampo_feature__encode_string().
 * Return: the encoded size in bytes; nothing is written when it is larger
 * than @size.
 */
SAMPO_API size_t sampo_feature__encode_strlist(void *buf, size_t size, const char *const *strs,
					       uint32_t nr);

#endif /* SAMPO_FEATURE_H */
