/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * event.h - the perf.data file format, as structs.
 *
 * These structs ARE the on-disk layout (see the kernel's
 * include/uapi/linux/perf_event.h and perf's perf.data-file-format.txt), so
 * unlike the other public headers this one shows struct bodies. Every struct
 * is in the byte order of the machine that reads it: the reader swaps
 * opposite-endian files before handing records out. Records are not always
 * 8-byte aligned in a file; the reader copies a record to an aligned buffer
 * before giving out a pointer to one of these structs.
 */
#ifndef SAMPO_EVENT_H
#define SAMPO_EVENT_H

#include <stdint.h>

/* ---- file header ---------------------------------------------------- */

#define SAMPO_MAGIC2 0x32454c4946524550ULL /* "PERFILE2" read as a little-endian u64 */
#define SAMPO_MAGIC2_SWAPPED 0x50455246494c4532ULL

struct sampo_file_section {
	uint64_t offset; /* from the start of the file, in bytes */
	uint64_t size;	 /* in bytes */
};

struct sampo_file_header {
	uint64_t magic;
	uint64_t size;	    /* 104 in file mode, 16 in pipe mode */
	uint64_t attr_size; /* one attrs entry: attr + its ids section */
	struct sampo_file_section attrs;
	struct sampo_file_section data;
	struct sampo_file_section event_types; /* legacy, unused */
	uint64_t adds_features[4];	       /* bit N set: feature N present */
};
_Static_assert(sizeof(struct sampo_file_header) == 104, "perf_file_header");

struct sampo_pipe_file_header {
	uint64_t magic;
	uint64_t size; /* 16 */
};

/* ---- perf_event_attr ------------------------------------------------ */

#define SAMPO_ATTR_SIZE_VER0 64
#define SAMPO_ATTR_SIZE_VER1 72
#define SAMPO_ATTR_SIZE_VER2 80
#define SAMPO_ATTR_SIZE_VER3 96
#define SAMPO_ATTR_SIZE_VER4 104
#define SAMPO_ATTR_SIZE_VER5 112
#define SAMPO_ATTR_SIZE_VER6 120
#define SAMPO_ATTR_SIZE_VER7 128
#define SAMPO_ATTR_SIZE_VER8 136

enum sampo_attr_type {
	SAMPO_TYPE_HARDWARE = 0,
	SAMPO_TYPE_SOFTWARE = 1,
	SAMPO_TYPE_TRACEPOINT = 2,
	SAMPO_TYPE_HW_CACHE = 3,
	SAMPO_TYPE_RAW = 4,
	SAMPO_TYPE_BREAKPOINT = 5,
};

/*
 * Bits of sampo_event_attr.flags (the kernel's bitfield, little-endian order).
 * Macros, not an enum: ISO C enumerators must fit an int, and these go to bit 37.
 */
#define SAMPO_ATTR_DISABLED (1ULL << 0)
#define SAMPO_ATTR_INHERIT (1ULL << 1)
#define SAMPO_ATTR_PINNED (1ULL << 2)
#define SAMPO_ATTR_EXCLUSIVE (1ULL << 3)
#define SAMPO_ATTR_EXCLUDE_USER (1ULL << 4)
#define SAMPO_ATTR_EXCLUDE_KERNEL (1ULL << 5)
#define SAMPO_ATTR_EXCLUDE_HV (1ULL << 6)
#define SAMPO_ATTR_EXCLUDE_IDLE (1ULL << 7)
#define SAMPO_ATTR_MMAP (1ULL << 8)
#define SAMPO_ATTR_COMM (1ULL << 9)
#define SAMPO_ATTR_FREQ (1ULL << 10)
#define SAMPO_ATTR_INHERIT_STAT (1ULL << 11)
#define SAMPO_ATTR_ENABLE_ON_EXEC (1ULL << 12)
#define SAMPO_ATTR_TASK (1ULL << 13)
#define SAMPO_ATTR_WATERMARK (1ULL << 14)
#define SAMPO_ATTR_PRECISE_IP_SHIFT 15 /* 2 bits */
#define SAMPO_ATTR_MMAP_DATA (1ULL << 17)
#define SAMPO_ATTR_SAMPLE_ID_ALL (1ULL << 18)
#define SAMPO_ATTR_EXCLUDE_HOST (1ULL << 19)
#define SAMPO_ATTR_EXCLUDE_GUEST (1ULL << 20)
#define SAMPO_ATTR_EXCLUDE_CALLCHAIN_KERNEL (1ULL << 21)
#define SAMPO_ATTR_EXCLUDE_CALLCHAIN_USER (1ULL << 22)
#define SAMPO_ATTR_MMAP2 (1ULL << 23)
#define SAMPO_ATTR_COMM_EXEC (1ULL << 24)
#define SAMPO_ATTR_USE_CLOCKID (1ULL << 25)
#define SAMPO_ATTR_CONTEXT_SWITCH (1ULL << 26)
#define SAMPO_ATTR_WRITE_BACKWARD (1ULL << 27)
#define SAMPO_ATTR_NAMESPACES (1ULL << 28)
#define SAMPO_ATTR_KSYMBOL (1ULL << 29)
#define SAMPO_ATTR_BPF_EVENT (1ULL << 30)
#define SAMPO_ATTR_AUX_OUTPUT (1ULL << 31)
#define SAMPO_ATTR_CGROUP (1ULL << 32)
#define SAMPO_ATTR_TEXT_POKE (1ULL << 33)
#define SAMPO_ATTR_BUILD_ID (1ULL << 34)
#define SAMPO_ATTR_INHERIT_THREAD (1ULL << 35)
#define SAMPO_ATTR_REMOVE_ON_EXEC (1ULL << 36)
#define SAMPO_ATTR_SIGTRAP (1ULL << 37)

/*
 * struct perf_event_attr, up to PERF_ATTR_SIZE_VER8. A file may hold a
 * shorter or longer attr (its .size); the reader copies what it knows and
 * zeroes the rest.
 */
struct sampo_event_attr {
	uint32_t type;
	uint32_t size; /* as written in the file */
	uint64_t config;
	uint64_t sample_period; /* or sample_freq when SAMPO_ATTR_FREQ */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags; /* SAMPO_ATTR_* bits */
	uint32_t wakeup_events; /* or wakeup_watermark */
	uint32_t bp_type;
	uint64_t config1; /* bp_addr, kprobe_func, uprobe_path */
	uint64_t config2; /* bp_len, kprobe_addr, probe_offset */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t reserved_2;
	uint32_t aux_sample_size;
	uint32_t reserved_3;
	uint64_t sig_data;
	uint64_t config3;
};
_Static_assert(sizeof(struct sampo_event_attr) == SAMPO_ATTR_SIZE_VER8, "perf_event_attr");

/* One entry of the attrs section: attr (attr_size - 16 bytes) then this. */
struct sampo_file_attr_ids {
	struct sampo_file_section ids; /* where this attr's u64 ids are */
};

/* sample_type bits */
enum sampo_sample_type {
	SAMPO_SAMPLE_IP = 1U << 0,
	SAMPO_SAMPLE_TID = 1U << 1,
	SAMPO_SAMPLE_TIME = 1U << 2,
	SAMPO_SAMPLE_ADDR = 1U << 3,
	SAMPO_SAMPLE_READ = 1U << 4,
	SAMPO_SAMPLE_CALLCHAIN = 1U << 5,
	SAMPO_SAMPLE_ID = 1U << 6,
	SAMPO_SAMPLE_CPU = 1U << 7,
	SAMPO_SAMPLE_PERIOD = 1U << 8,
	SAMPO_SAMPLE_STREAM_ID = 1U << 9,
	SAMPO_SAMPLE_RAW = 1U << 10,
	SAMPO_SAMPLE_BRANCH_STACK = 1U << 11,
	SAMPO_SAMPLE_REGS_USER = 1U << 12,
	SAMPO_SAMPLE_STACK_USER = 1U << 13,
	SAMPO_SAMPLE_WEIGHT = 1U << 14,
	SAMPO_SAMPLE_DATA_SRC = 1U << 15,
	SAMPO_SAMPLE_IDENTIFIER = 1U << 16,
	SAMPO_SAMPLE_TRANSACTION = 1U << 17,
	SAMPO_SAMPLE_REGS_INTR = 1U << 18,
	SAMPO_SAMPLE_PHYS_ADDR = 1U << 19,
	SAMPO_SAMPLE_AUX = 1U << 20,
	SAMPO_SAMPLE_CGROUP = 1U << 21,
	SAMPO_SAMPLE_DATA_PAGE_SIZE = 1U << 22,
	SAMPO_SAMPLE_CODE_PAGE_SIZE = 1U << 23,
	SAMPO_SAMPLE_WEIGHT_STRUCT = 1U << 24,
};

/* read_format bits */
enum sampo_read_format {
	SAMPO_FORMAT_TOTAL_TIME_ENABLED = 1U << 0,
	SAMPO_FORMAT_TOTAL_TIME_RUNNING = 1U << 1,
	SAMPO_FORMAT_ID = 1U << 2,
	SAMPO_FORMAT_GROUP = 1U << 3,
	SAMPO_FORMAT_LOST = 1U << 4,
};

#define SAMPO_SAMPLE_BRANCH_HW_INDEX (1ULL << 17) /* in branch_sample_type */

/* ---- records ---------------------------------------------------------- */

enum sampo_record_type {
	SAMPO_RECORD_MMAP = 1,
	SAMPO_RECORD_LOST = 2,
	SAMPO_RECORD_COMM = 3,
	SAMPO_RECORD_EXIT = 4,
	SAMPO_RECORD_THROTTLE = 5,
	SAMPO_RECORD_UNTHROTTLE = 6,
	SAMPO_RECORD_FORK = 7,
	SAMPO_RECORD_READ = 8,
	SAMPO_RECORD_SAMPLE = 9,
	SAMPO_RECORD_MMAP2 = 10,
	SAMPO_RECORD_AUX = 11,
	SAMPO_RECORD_ITRACE_START = 12,
	SAMPO_RECORD_LOST_SAMPLES = 13,
	SAMPO_RECORD_SWITCH = 14,
	SAMPO_RECORD_SWITCH_CPU_WIDE = 15,
	SAMPO_RECORD_NAMESPACES = 16,
	SAMPO_RECORD_KSYMBOL = 17,
	SAMPO_RECORD_BPF_EVENT = 18,
	SAMPO_RECORD_CGROUP = 19,
	SAMPO_RECORD_TEXT_POKE = 20,
	SAMPO_RECORD_AUX_OUTPUT_HW_ID = 21,
	SAMPO_RECORD_KERNEL_MAX,

	SAMPO_RECORD_USER_TYPE_START = 64,
	SAMPO_RECORD_HEADER_ATTR = 64,
	SAMPO_RECORD_HEADER_EVENT_TYPE = 65,
	SAMPO_RECORD_HEADER_TRACING_DATA = 66,
	SAMPO_RECORD_HEADER_BUILD_ID = 67,
	SAMPO_RECORD_FINISHED_ROUND = 68,
	SAMPO_RECORD_ID_INDEX = 69,
	SAMPO_RECORD_AUXTRACE_INFO = 70,
	SAMPO_RECORD_AUXTRACE = 71,
	SAMPO_RECORD_AUXTRACE_ERROR = 72,
	SAMPO_RECORD_THREAD_MAP = 73,
	SAMPO_RECORD_CPU_MAP = 74,
	SAMPO_RECORD_STAT_CONFIG = 75,
	SAMPO_RECORD_STAT = 76,
	SAMPO_RECORD_STAT_ROUND = 77,
	SAMPO_RECORD_EVENT_UPDATE = 78,
	SAMPO_RECORD_TIME_CONV = 79,
	SAMPO_RECORD_HEADER_FEATURE = 80,
	SAMPO_RECORD_COMPRESSED = 81,
	SAMPO_RECORD_FINISHED_INIT = 82,
	SAMPO_RECORD_COMPRESSED2 = 83,
	SAMPO_RECORD_BPF_METADATA = 84,
	SAMPO_RECORD_SCHEDSTAT_CPU = 85,
	SAMPO_RECORD_SCHEDSTAT_DOMAIN = 86,
	SAMPO_RECORD_MAX,
};

/*
 * Android simpleperf's own records (record.h of AOSP system/extras/simpleperf).
 * Their header is { u32 type; u16 size_hi; u16 size_lo; }: the 16 bits perf
 * reads as misc are the high half of a 32-bit size, so that a kallsyms or
 * tracing-data record may pass 64 KiB. The reader knows them by their type
 * and hands them out as tool records (see sampo_record__simpleperf_size()).
 */
enum sampo_simpleperf_record_type {
	SAMPO_SIMPLEPERF_RECORD_START = 32768,
	SAMPO_SIMPLEPERF_RECORD_KERNEL_SYMBOL = 32769, /* u32 size; kallsyms text, 8-aligned */
	SAMPO_SIMPLEPERF_RECORD_DSO = 32770,	      /* u64 type, id, min_vaddr; name */
	SAMPO_SIMPLEPERF_RECORD_SYMBOL = 32771,	      /* u64 addr, len, dso_id; name */
	SAMPO_SIMPLEPERF_RECORD_SPLIT = 32772,	      /* a piece of a record too big for one */
	SAMPO_SIMPLEPERF_RECORD_SPLIT_END = 32773,
	SAMPO_SIMPLEPERF_RECORD_EVENT_ID = 32774,	  /* u64 count; {u64 attr_idx, id}[count] */
	SAMPO_SIMPLEPERF_RECORD_CALLCHAIN = 32775,	  /* u32 pid, tid; u64 type, time, nr; ips, sps */
	SAMPO_SIMPLEPERF_RECORD_UNWINDING_RESULT = 32776, /* u64 time, used_time, error, ... */
	SAMPO_SIMPLEPERF_RECORD_TRACING_DATA = 32777,	  /* u32 size; data, 64-aligned */
	SAMPO_SIMPLEPERF_RECORD_DEBUG = 32778,		  /* u64 time; a string */
	SAMPO_SIMPLEPERF_RECORD_LAST_KNOWN = 32778,
};

/* header.misc */
#define SAMPO_MISC_CPUMODE_MASK 7
enum sampo_cpumode {
	SAMPO_CPUMODE_UNKNOWN = 0,
	SAMPO_CPUMODE_KERNEL = 1,
	SAMPO_CPUMODE_USER = 2,
	SAMPO_CPUMODE_HYPERVISOR = 3,
	SAMPO_CPUMODE_GUEST_KERNEL = 4,
	SAMPO_CPUMODE_GUEST_USER = 5,
};
#define SAMPO_MISC_PROC_MAP_PARSE_TIMEOUT (1U << 12)
#define SAMPO_MISC_MMAP_DATA (1U << 13)
#define SAMPO_MISC_COMM_EXEC (1U << 13)
#define SAMPO_MISC_FORK_EXEC (1U << 13)
#define SAMPO_MISC_SWITCH_OUT (1U << 13)
#define SAMPO_MISC_EXACT_IP (1U << 14)
#define SAMPO_MISC_SWITCH_OUT_PREEMPT (1U << 14)
#define SAMPO_MISC_MMAP_BUILD_ID (1U << 14)
#define SAMPO_MISC_EXT_RESERVED (1U << 15)
#define SAMPO_MISC_BUILD_ID_SIZE (1U << 15) /* in build-id table entries */

/* callchain context markers */
#define SAMPO_CONTEXT_HV ((uint64_t)-32)
#define SAMPO_CONTEXT_KERNEL ((uint64_t)-128)
#define SAMPO_CONTEXT_USER ((uint64_t)-512)
#define SAMPO_CONTEXT_GUEST ((uint64_t)-2048)
#define SAMPO_CONTEXT_GUEST_KERNEL ((uint64_t)-2176)
#define SAMPO_CONTEXT_GUEST_USER ((uint64_t)-2560)
#define SAMPO_CONTEXT_MAX ((uint64_t)-4095)

struct sampo_record_header {
	uint32_t type;
	uint16_t misc;
	uint16_t size; /* whole record, header included */
};
_Static_assert(sizeof(struct sampo_record_header) == 8, "perf_event_header");

#define SAMPO_BUILD_ID_MAX 20

struct sampo_record_mmap {
	struct sampo_record_header header;
	uint32_t pid, tid;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
	char filename[]; /* NUL terminated, then the sample_id trailer */
};

struct sampo_record_mmap2 {
	struct sampo_record_header header;
	uint32_t pid, tid;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
	union {
		struct {
			uint32_t maj;
			uint32_t min;
			uint64_t ino;
			uint64_t ino_generation;
		};
		struct { /* when header.misc has SAMPO_MISC_MMAP_BUILD_ID */
			uint8_t build_id_size;
			uint8_t reserved_1;
			uint16_t reserved_2;
			uint8_t build_id[SAMPO_BUILD_ID_MAX];
		};
	};
	uint32_t prot;
	uint32_t flags;
	char filename[];
};
_Static_assert(sizeof(struct sampo_record_mmap2) == 72, "mmap2");

struct sampo_record_lost {
	struct sampo_record_header header;
	uint64_t id;
	uint64_t lost;
};

struct sampo_record_comm {
	struct sampo_record_header header;
	uint32_t pid, tid;
	char comm[];
};

/* PERF_RECORD_FORK and PERF_RECORD_EXIT */
struct sampo_record_fork {
	struct sampo_record_header header;
	uint32_t pid, ppid;
	uint32_t tid, ptid;
	uint64_t time;
};

struct sampo_record_throttle {
	struct sampo_record_header header;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
};

struct sampo_record_read {
	struct sampo_record_header header;
	uint32_t pid, tid;
	uint64_t values[]; /* read_format layout */
};

/*
 * The values of a READ record as perf reads them (struct perf_record_read),
 * whatever the read_format: indexes into sampo_record_read.values.
 */
enum sampo_read_value {
	SAMPO_READ_VALUE = 0,
	SAMPO_READ_TIME_ENABLED = 1,
	SAMPO_READ_TIME_RUNNING = 2,
	SAMPO_READ_ID = 3,
	SAMPO_READ_LOST = 4,
	SAMPO_READ_NR_VALUES = 5,
};

struct sampo_record_aux {
	struct sampo_record_header header;
	uint64_t aux_offset;
	uint64_t aux_size;
	uint64_t flags; /* SAMPO_AUX_FLAG_* */
};

#define SAMPO_AUX_FLAG_TRUNCATED 0x01 /* the AUX buffer was full */
#define SAMPO_AUX_FLAG_OVERWRITE 0x02 /* snapshot mode: data overwritten */
#define SAMPO_AUX_FLAG_PARTIAL 0x04   /* the record holds gaps */

struct sampo_record_itrace_start {
	struct sampo_record_header header;
	uint32_t pid, tid;
};

struct sampo_record_lost_samples {
	struct sampo_record_header header;
	uint64_t lost;
};

struct sampo_record_switch_cpu_wide {
	struct sampo_record_header header;
	uint32_t next_prev_pid;
	uint32_t next_prev_tid;
};

struct sampo_ns_link_info {
	uint64_t dev;
	uint64_t ino;
};

struct sampo_record_namespaces {
	struct sampo_record_header header;
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	struct sampo_ns_link_info link_info[];
};

enum sampo_ksymbol_type {
	SAMPO_KSYMBOL_TYPE_UNKNOWN = 0,
	SAMPO_KSYMBOL_TYPE_BPF = 1,
	SAMPO_KSYMBOL_TYPE_OOL = 2,
};
#define SAMPO_KSYMBOL_FLAG_UNREGISTER 1

struct sampo_record_ksymbol {
	struct sampo_record_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;
	uint16_t flags;
	char name[];
};

struct sampo_record_bpf_event {
	struct sampo_record_header header;
	uint16_t type; /* 1 PROG_LOAD, 2 PROG_UNLOAD */
	uint16_t flags;
	uint32_t id;
	uint8_t tag[8];
};

struct sampo_record_cgroup {
	struct sampo_record_header header;
	uint64_t id;
	char path[];
};

struct sampo_record_text_poke {
	struct sampo_record_header header;
	uint64_t addr;
	uint16_t old_len;
	uint16_t new_len;
	uint8_t bytes[]; /* old then new */
};

struct sampo_record_aux_output_hw_id {
	struct sampo_record_header header;
	uint64_t hw_id;
};

/* ---- records synthesized by the tools (type >= 64) -------------------- */

struct sampo_record_header_attr {
	struct sampo_record_header header;
	struct sampo_event_attr attr; /* attr.size bytes in the file, then u64 ids to the end */
};

struct sampo_record_event_type {
	struct sampo_record_header header;
	uint64_t event_id;
	char name[64];
};

struct sampo_record_tracing_data {
	struct sampo_record_header header;
	uint32_t size; /* bytes of tracing data that FOLLOW the record */
};

struct sampo_record_build_id {
	struct sampo_record_header header; /* misc: cpumode | SAMPO_MISC_BUILD_ID_SIZE */
	int32_t pid;			   /* -1 for the host */
	uint8_t build_id[24];		   /* with BUILD_ID_SIZE, byte 20 is the length */
	char filename[];		   /* NUL padded to a multiple of 64 */
};
_Static_assert(sizeof(struct sampo_record_build_id) == 36, "build_id_event");

struct sampo_id_index_entry {
	uint64_t id;
	uint64_t idx;
	uint64_t cpu;
	uint64_t tid;
};

struct sampo_record_id_index {
	struct sampo_record_header header;
	uint64_t nr;
	struct sampo_id_index_entry entries[];
};

/* Newer ID_INDEX records append one of these per entry, after all the entries. */
struct sampo_id_index_entry2 {
	uint64_t machine_pid;
	uint64_t vcpu;
};

struct sampo_record_auxtrace_info {
	struct sampo_record_header header;
	uint32_t type;
	uint32_t reserved;
	uint64_t priv[];
};

struct sampo_record_auxtrace {
	struct sampo_record_header header;
	uint64_t size; /* bytes of AUX data that FOLLOW the record */
	uint64_t offset;
	uint64_t reference;
	uint32_t idx;
	uint32_t tid;
	uint32_t cpu;
	uint32_t reserved;
};

#define SAMPO_AUXTRACE_ERROR_MSG_MAX 64
struct sampo_record_auxtrace_error {
	struct sampo_record_header header;
	uint32_t type;
	uint32_t code;
	uint32_t cpu;
	uint32_t pid;
	uint32_t tid;
	uint32_t fmt;
	uint64_t ip;
	uint64_t time; /* fmt >= 2 */
	char msg[SAMPO_AUXTRACE_ERROR_MSG_MAX];
	uint32_t machine_pid; /* fmt >= 2 */
	uint32_t vcpu;
};

struct sampo_thread_map_entry {
	uint64_t pid;
	char comm[16];
};

struct sampo_record_thread_map {
	struct sampo_record_header header;
	uint64_t nr;
	struct sampo_thread_map_entry entries[];
};

enum sampo_cpu_map_type {
	SAMPO_CPU_MAP_CPUS = 0,
	SAMPO_CPU_MAP_MASK = 1,
	SAMPO_CPU_MAP_RANGE_CPUS = 2,
};

/*
 * CPU map data (CPU_MAP records, the CPUS payload of EVENT_UPDATE), packed as
 * perf packs it; byte offsets from its u16 type:
 *	CPUS		u16 nr; u16 cpu[nr] (0xffff: "any cpu", -1)
 *	MASK		u16 nr; u16 long_size (4 or 8); then nr words of that size,
 *			the 8-byte ones after 4 bytes of padding
 *	RANGE_CPUS	u8 any_cpu; u8 pad; u16 start_cpu; u16 end_cpu
 */
enum sampo_cpu_map_layout {
	SAMPO_CPU_MAP_TYPE = 0,
	SAMPO_CPU_MAP_CPUS_NR = 2,
	SAMPO_CPU_MAP_CPUS_CPU = 4,
	SAMPO_CPU_MAP_MASK_NR = 2,
	SAMPO_CPU_MAP_MASK_LONG_SIZE = 4,
	SAMPO_CPU_MAP_MASK_WORDS32 = 6,
	SAMPO_CPU_MAP_MASK_WORDS64 = 10,
	SAMPO_CPU_MAP_RANGE_ANY = 2,
	SAMPO_CPU_MAP_RANGE_START = 4,
	SAMPO_CPU_MAP_RANGE_END = 6,
	SAMPO_CPU_MAP_RANGE_SIZE = 8,
};

struct sampo_record_cpu_map {
	struct sampo_record_header header;
	uint16_t type;
	uint8_t data[]; /* layout by type; see perf-data-format.md */
};

struct sampo_stat_config_entry {
	uint64_t tag;
	uint64_t val;
};

/* The tags of STAT_CONFIG entries */
enum sampo_stat_config_tag {
	SAMPO_STAT_CONFIG_AGGR_MODE = 0,
	SAMPO_STAT_CONFIG_INTERVAL = 1,
	SAMPO_STAT_CONFIG_SCALE = 2,
};

struct sampo_record_stat_config {
	struct sampo_record_header header;
	uint64_t nr;
	struct sampo_stat_config_entry data[];
};

struct sampo_record_stat {
	struct sampo_record_header header;
	uint64_t id;
	uint32_t cpu;
	uint32_t thread;
	uint64_t val;
	uint64_t ena;
	uint64_t run;
};

enum sampo_stat_round_type {
	SAMPO_STAT_ROUND_INTERVAL = 0,
	SAMPO_STAT_ROUND_FINAL = 1,
};

struct sampo_record_stat_round {
	struct sampo_record_header header;
	uint64_t type;
	uint64_t time;
};

enum sampo_event_update_type {
	SAMPO_EVENT_UPDATE_UNIT = 0,
	SAMPO_EVENT_UPDATE_SCALE = 1,
	SAMPO_EVENT_UPDATE_NAME = 2,
	SAMPO_EVENT_UPDATE_CPUS = 3,
};

struct sampo_record_event_update {
	struct sampo_record_header header;
	uint64_t type;
	uint64_t id;
	uint8_t data[]; /* string, double, or cpu map data */
};

struct sampo_record_time_conv {
	struct sampo_record_header header;
	uint64_t time_shift;
	uint64_t time_mult;
	uint64_t time_zero;
	uint64_t time_cycles; /* present when the record is long enough */
	uint64_t time_mask;
	uint8_t cap_user_time_zero;
	uint8_t cap_user_time_short;
	uint8_t reserved[6];
};

struct sampo_record_feature {
	struct sampo_record_header header;
	uint64_t feat_id;
	uint8_t data[]; /* the feature as in a file's feature section */
};

struct sampo_record_compressed {
	struct sampo_record_header header;
	uint8_t data[]; /* zstd, to the end of the record */
};

struct sampo_record_compressed2 {
	struct sampo_record_header header;
	uint64_t data_size;
	uint8_t data[];
};

/* A record of any type; use header.type to pick the member. */
union sampo_record {
	struct sampo_record_header header;
	struct sampo_record_mmap mmap;
	struct sampo_record_mmap2 mmap2;
	struct sampo_record_lost lost;
	struct sampo_record_comm comm;
	struct sampo_record_fork fork;
	struct sampo_record_throttle throttle;
	struct sampo_record_read read;
	struct sampo_record_aux aux;
	struct sampo_record_itrace_start itrace_start;
	struct sampo_record_lost_samples lost_samples;
	struct sampo_record_switch_cpu_wide context_switch;
	struct sampo_record_namespaces namespaces;
	struct sampo_record_ksymbol ksymbol;
	struct sampo_record_bpf_event bpf;
	struct sampo_record_cgroup cgroup;
	struct sampo_record_text_poke text_poke;
	struct sampo_record_aux_output_hw_id aux_output_hw_id;
	struct sampo_record_header_attr attr;
	struct sampo_record_event_type event_type;
	struct sampo_record_tracing_data tracing_data;
	struct sampo_record_build_id build_id;
	struct sampo_record_id_index id_index;
	struct sampo_record_auxtrace_info auxtrace_info;
	struct sampo_record_auxtrace auxtrace;
	struct sampo_record_auxtrace_error auxtrace_error;
	struct sampo_record_thread_map thread_map;
	struct sampo_record_cpu_map cpu_map;
	struct sampo_record_stat_config stat_config;
	struct sampo_record_stat stat;
	struct sampo_record_stat_round stat_round;
	struct sampo_record_event_update event_update;
	struct sampo_record_time_conv time_conv;
	struct sampo_record_feature feature;
	struct sampo_record_compressed compressed;
	struct sampo_record_compressed2 compressed2;
};

/* ---- features (header extensions) ------------------------------------- */

enum sampo_feature {
	SAMPO_FEAT_RESERVED = 0,
	SAMPO_FEAT_TRACING_DATA = 1,
	SAMPO_FEAT_BUILD_ID = 2,
	SAMPO_FEAT_HOSTNAME = 3,
	SAMPO_FEAT_OSRELEASE = 4,
	SAMPO_FEAT_VERSION = 5,
	SAMPO_FEAT_ARCH = 6,
	SAMPO_FEAT_NRCPUS = 7,
	SAMPO_FEAT_CPUDESC = 8,
	SAMPO_FEAT_CPUID = 9,
	SAMPO_FEAT_TOTAL_MEM = 10,
	SAMPO_FEAT_CMDLINE = 11,
	SAMPO_FEAT_EVENT_DESC = 12,
	SAMPO_FEAT_CPU_TOPOLOGY = 13,
	SAMPO_FEAT_NUMA_TOPOLOGY = 14,
	SAMPO_FEAT_BRANCH_STACK = 15,
	SAMPO_FEAT_PMU_MAPPINGS = 16,
	SAMPO_FEAT_GROUP_DESC = 17,
	SAMPO_FEAT_AUXTRACE = 18,
	SAMPO_FEAT_STAT = 19,
	SAMPO_FEAT_CACHE = 20,
	SAMPO_FEAT_SAMPLE_TIME = 21,
	SAMPO_FEAT_MEM_TOPOLOGY = 22,
	SAMPO_FEAT_CLOCKID = 23,
	SAMPO_FEAT_DIR_FORMAT = 24,
	SAMPO_FEAT_BPF_PROG_INFO = 25,
	SAMPO_FEAT_BPF_BTF = 26,
	SAMPO_FEAT_COMPRESSED = 27,
	SAMPO_FEAT_CPU_PMU_CAPS = 28,
	SAMPO_FEAT_CLOCK_DATA = 29,
	SAMPO_FEAT_HYBRID_TOPOLOGY = 30,
	SAMPO_FEAT_PMU_CAPS = 31,
	SAMPO_FEAT_LAST_KNOWN = 31,
	/*
	 * Android simpleperf's features (record_file_format.h of AOSP
	 * system/extras/simpleperf); perf skips them. See docs/simpleperf.md.
	 */
	SAMPO_FEAT_SIMPLEPERF_FILE = 128,	       /* the DSOs' symbol tables, v1 */
	SAMPO_FEAT_SIMPLEPERF_META_INFO = 129,	       /* key NUL value NUL ... */
	SAMPO_FEAT_SIMPLEPERF_DEBUG_UNWIND = 130,      /* protobuf DebugUnwindFeature */
	SAMPO_FEAT_SIMPLEPERF_DEBUG_UNWIND_FILE = 131, /* the files it lists, back to back */
	SAMPO_FEAT_SIMPLEPERF_FILE2 = 132,	       /* the DSOs' symbol tables, protobuf */
	SAMPO_FEAT_SIMPLEPERF_ETM_BRANCH_LIST = 133,
	SAMPO_FEAT_SIMPLEPERF_INIT_MAP = 134,
	SAMPO_FEAT_SIMPLEPERF_LAST = 134,
	SAMPO_FEAT_MAX_BITS = 256,
};

#define SAMPO_NAME_ALIGN 64 /* perf pads header strings and build-id names to this */

#endif /* SAMPO_EVENT_H */
