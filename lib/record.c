// SPDX-License-Identifier: LGPL-2.1
/*
 * record.c - what the library knows about each record type, in one table:
 * its name, the smallest size it can have, the layout of its fixed fields
 * ({name, offset, width}, from event.h's structs), what follows them (a
 * string, u64s, an array, a cpu map, an attr), and how perf 6.1 swaps it.
 *
 * That one description drives
 *  - the reader's swapping of an opposite-endian record into host order
 *    (sampo_record__swap), perf's way;
 *  - the writer's conversion of a host-order record into the opposite order
 *    (sampo_record__convert), field by field, so that perf reads it back;
 *  - the minimum sizes both check (sampo_record__validate, the writer);
 *  - the dump's access to fields by name (sampo_record__field) and its
 *    decoding and printing of cpu maps (sampo_cpu_map__decode, __snprint);
 *  - the names perf 6.1 gives the types (sampo_record__perf_name).
 *
 * Field swaps are involutions, so reading and writing share them; the only
 * difference is when a count is read: after the swap when reading (it was in
 * file order), before it when writing (it was in host order). Every field is
 * swapped only when it lies inside the record, so a record shorter than its
 * minimum is never read past its end (it is rejected after the swap).
 *
 * perf's swap rules are copied on purpose, quirks included, because `sampo
 * dump` prints the swapped bytes as perf does (docs/ARCHITECTURE.md §2):
 *  - SAMPLE, LOST, LOST_SAMPLES, AUX_OUTPUT_HW_ID, ID_INDEX, STAT_CONFIG,
 *    STAT_ROUND and TIME_CONV are swapped as an array of u64 (pairs of u32
 *    stay crossed until the sample parser undoes them; TIME_CONV's u8 caps
 *    come out reversed);
 *  - the sample_id trailer of other kernel records is swapped as u64s from
 *    the end of the body;
 *  - KSYMBOL and BPF_EVENT are not swapped at all, and EVENT_UPDATE only in
 *    its type and id (perf 6.1 has no more for them);
 *  - attr.flags is not byte-swapped but bit-reversed per byte: a big-endian
 *    compiler allocates bitfields from the most significant bit.
 * The writer does not copy those quirks: it writes each field in the file's
 * order, which is what perf's readers (and ours) decode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/event.h>
#include <sampo/reader.h>
#include <sampo/record.h>
#include "internal/record.h"
#include "internal/util.h"

/* ---- the description ------------------------------------------------- */

/* When a field is there besides fitting in the record. */
enum field_cond {
	FIELD_ALWAYS,
	FIELD_NO_BUILD_ID, /* MMAP2 without SAMPO_MISC_MMAP_BUILD_ID: device and inode */
	FIELD_FMT1,	   /* AUXTRACE_ERROR with fmt >= 1 */
	FIELD_FMT2,	   /* AUXTRACE_ERROR with fmt >= 2 */
};

struct record_field {
	const char *name; /* perf's name for it */
	uint16_t offset;  /* from the start of the record */
	uint8_t width;	  /* 2, 4 or 8 bytes */
	uint8_t cond;	  /* enum field_cond */
};

/* What follows the fixed fields, up to the body's end (the trailer excluded). */
enum record_tail {
	TAIL_NONE,
	TAIL_STRING,	   /* a NUL-terminated string, padded to 8 */
	TAIL_U64S,	   /* u64s */
	TAIL_NAMESPACES,   /* nr_namespaces {u64 dev; u64 ino} */
	TAIL_THREADS,	   /* nr {u64 pid; char comm[16]} */
	TAIL_CPU_MAP,	   /* cpu map data (enum sampo_cpu_map_layout) */
	TAIL_EVENT_UPDATE, /* by type: a double (SCALE), cpu map data (CPUS), a string */
	TAIL_ATTR,	   /* perf_event_attr (attr.size bytes), then u64 ids */
	TAIL_TEXT_POKE,	   /* old_len + new_len bytes, padded to 8 from old_len */
};

/* How perf 6.1 swaps the record when it reads an opposite-endian file. */
enum record_swap {
	SWAP_FIELDS,	  /* the fields, the tail, then the trailer as u64s */
	SWAP_FIELDS_ONLY, /* the fields; the tail stays as it is */
	SWAP_ALL64,	  /* everything after the header as u64s */
	SWAP_NONE,	  /* nothing */
};

struct record_desc {
	const char *name;
	uint16_t min_size; /* header included; 0: just the header */
	uint16_t fixed;	   /* where the tail starts, unless fields end later */
	uint8_t tail;	   /* enum record_tail */
	uint8_t swap;	   /* enum record_swap */
	uint8_t nr_fields;
	const struct record_field *fields;
};

#define WIDTH(type, member) ((uint8_t)sizeof(((type *)0)->member))
#define FIELD_IF(type, member, nm, cond) { nm, offsetof(type, member), WIDTH(type, member), cond }
#define FIELD(type, member, nm) FIELD_IF(type, member, nm, FIELD_ALWAYS)
#define READ_VALUE(idx, nm)                                                                        \
	{ nm, offsetof(struct sampo_record_read, values) + 8 * (idx), 8, FIELD_ALWAYS }

static const struct record_field mmap_fields[] = {
	FIELD(struct sampo_record_mmap, pid, "pid"),
	FIELD(struct sampo_record_mmap, tid, "tid"),
	FIELD(struct sampo_record_mmap, start, "start"),
	FIELD(struct sampo_record_mmap, len, "len"),
	FIELD(struct sampo_record_mmap, pgoff, "pgoff"),
};

static const struct record_field mmap2_fields[] = {
	FIELD(struct sampo_record_mmap2, pid, "pid"),
	FIELD(struct sampo_record_mmap2, tid, "tid"),
	FIELD(struct sampo_record_mmap2, start, "start"),
	FIELD(struct sampo_record_mmap2, len, "len"),
	FIELD(struct sampo_record_mmap2, pgoff, "pgoff"),
	FIELD_IF(struct sampo_record_mmap2, maj, "maj", FIELD_NO_BUILD_ID),
	FIELD_IF(struct sampo_record_mmap2, min, "min", FIELD_NO_BUILD_ID),
	FIELD_IF(struct sampo_record_mmap2, ino, "ino", FIELD_NO_BUILD_ID),
	FIELD_IF(struct sampo_record_mmap2, ino_generation, "ino_generation", FIELD_NO_BUILD_ID),
	FIELD(struct sampo_record_mmap2, prot, "prot"),
	FIELD(struct sampo_record_mmap2, flags, "flags"),
};

static const struct record_field lost_fields[] = {
	FIELD(struct sampo_record_lost, id, "id"),
	FIELD(struct sampo_record_lost, lost, "lost"),
};

static const struct record_field comm_fields[] = {
	FIELD(struct sampo_record_comm, pid, "pid"),
	FIELD(struct sampo_record_comm, tid, "tid"),
};

static const struct record_field fork_fields[] = {
	FIELD(struct sampo_record_fork, pid, "pid"),
	FIELD(struct sampo_record_fork, ppid, "ppid"),
	FIELD(struct sampo_record_fork, tid, "tid"),
	FIELD(struct sampo_record_fork, ptid, "ptid"),
	FIELD(struct sampo_record_fork, time, "time"),
};

static const struct record_field throttle_fields[] = {
	FIELD(struct sampo_record_throttle, time, "time"),
	FIELD(struct sampo_record_throttle, id, "id"),
	FIELD(struct sampo_record_throttle, stream_id, "stream_id"),
};

/* perf reads READ as struct perf_record_read, whatever the read_format */
static const struct record_field read_fields[] = {
	FIELD(struct sampo_record_read, pid, "pid"),
	FIELD(struct sampo_record_read, tid, "tid"),
	READ_VALUE(SAMPO_READ_VALUE, "value"),
	READ_VALUE(SAMPO_READ_TIME_ENABLED, "time_enabled"),
	READ_VALUE(SAMPO_READ_TIME_RUNNING, "time_running"),
	READ_VALUE(SAMPO_READ_ID, "id"),
	READ_VALUE(SAMPO_READ_LOST, "lost"),
};

static const struct record_field aux_fields[] = {
	FIELD(struct sampo_record_aux, aux_offset, "aux_offset"),
	FIELD(struct sampo_record_aux, aux_size, "aux_size"),
	FIELD(struct sampo_record_aux, flags, "flags"),
};

static const struct record_field itrace_start_fields[] = {
	FIELD(struct sampo_record_itrace_start, pid, "pid"),
	FIELD(struct sampo_record_itrace_start, tid, "tid"),
};

static const struct record_field lost_samples_fields[] = {
	FIELD(struct sampo_record_lost_samples, lost, "lost"),
};

static const struct record_field switch_cpu_wide_fields[] = {
	FIELD(struct sampo_record_switch_cpu_wide, next_prev_pid, "next_prev_pid"),
	FIELD(struct sampo_record_switch_cpu_wide, next_prev_tid, "next_prev_tid"),
};

static const struct record_field namespaces_fields[] = {
	FIELD(struct sampo_record_namespaces, pid, "pid"),
	FIELD(struct sampo_record_namespaces, tid, "tid"),
	FIELD(struct sampo_record_namespaces, nr_namespaces, "nr_namespaces"),
};

static const struct record_field ksymbol_fields[] = {
	FIELD(struct sampo_record_ksymbol, addr, "addr"),
	FIELD(struct sampo_record_ksymbol, len, "len"),
	FIELD(struct sampo_record_ksymbol, ksym_type, "ksym_type"),
	FIELD(struct sampo_record_ksymbol, flags, "flags"),
};

static const struct record_field bpf_event_fields[] = {
	FIELD(struct sampo_record_bpf_event, type, "type"),
	FIELD(struct sampo_record_bpf_event, flags, "flags"),
	FIELD(struct sampo_record_bpf_event, id, "id"),
};

static const struct record_field cgroup_fields[] = {
	FIELD(struct sampo_record_cgroup, id, "id"),
};

static const struct record_field text_poke_fields[] = {
	FIELD(struct sampo_record_text_poke, addr, "addr"),
	FIELD(struct sampo_record_text_poke, old_len, "old_len"),
	FIELD(struct sampo_record_text_poke, new_len, "new_len"),
};

static const struct record_field aux_output_hw_id_fields[] = {
	FIELD(struct sampo_record_aux_output_hw_id, hw_id, "hw_id"),
};

static const struct record_field event_type_fields[] = {
	FIELD(struct sampo_record_event_type, event_id, "event_id"),
};

static const struct record_field tracing_data_fields[] = {
	FIELD(struct sampo_record_tracing_data, size, "size"),
};

static const struct record_field build_id_fields[] = {
	FIELD(struct sampo_record_build_id, pid, "pid"),
};

static const struct record_field id_index_fields[] = {
	FIELD(struct sampo_record_id_index, nr, "nr"),
};

static const struct record_field auxtrace_info_fields[] = {
	FIELD(struct sampo_record_auxtrace_info, type, "type"),
};

static const struct record_field auxtrace_fields[] = {
	FIELD(struct sampo_record_auxtrace, size, "size"),
	FIELD(struct sampo_record_auxtrace, offset, "offset"),
	FIELD(struct sampo_record_auxtrace, reference, "reference"),
	FIELD(struct sampo_record_auxtrace, idx, "idx"),
	FIELD(struct sampo_record_auxtrace, tid, "tid"),
	FIELD(struct sampo_record_auxtrace, cpu, "cpu"),
};

static const struct record_field auxtrace_error_fields[] = {
	FIELD(struct sampo_record_auxtrace_error, type, "type"),
	FIELD(struct sampo_record_auxtrace_error, code, "code"),
	FIELD(struct sampo_record_auxtrace_error, cpu, "cpu"),
	FIELD(struct sampo_record_auxtrace_error, pid, "pid"),
	FIELD(struct sampo_record_auxtrace_error, tid, "tid"),
	FIELD(struct sampo_record_auxtrace_error, fmt, "fmt"),
	FIELD(struct sampo_record_auxtrace_error, ip, "ip"),
	FIELD_IF(struct sampo_record_auxtrace_error, time, "time", FIELD_FMT1),
	FIELD_IF(struct sampo_record_auxtrace_error, machine_pid, "machine_pid", FIELD_FMT2),
	FIELD_IF(struct sampo_record_auxtrace_error, vcpu, "vcpu", FIELD_FMT2),
};

static const struct record_field thread_map_fields[] = {
	FIELD(struct sampo_record_thread_map, nr, "nr"),
};

static const struct record_field stat_config_fields[] = {
	FIELD(struct sampo_record_stat_config, nr, "nr"),
};

static const struct record_field stat_fields[] = {
	FIELD(struct sampo_record_stat, id, "id"),
	FIELD(struct sampo_record_stat, cpu, "cpu"),
	FIELD(struct sampo_record_stat, thread, "thread"),
	FIELD(struct sampo_record_stat, val, "val"),
	FIELD(struct sampo_record_stat, ena, "ena"),
	FIELD(struct sampo_record_stat, run, "run"),
};

static const struct record_field stat_round_fields[] = {
	FIELD(struct sampo_record_stat_round, type, "type"),
	FIELD(struct sampo_record_stat_round, time, "time"),
};

static const struct record_field event_update_fields[] = {
	FIELD(struct sampo_record_event_update, type, "type"),
	FIELD(struct sampo_record_event_update, id, "id"),
};

/* time_cycles and time_mask are there when the record is long enough */
static const struct record_field time_conv_fields[] = {
	FIELD(struct sampo_record_time_conv, time_shift, "time_shift"),
	FIELD(struct sampo_record_time_conv, time_mult, "time_mult"),
	FIELD(struct sampo_record_time_conv, time_zero, "time_zero"),
	FIELD(struct sampo_record_time_conv, time_cycles, "time_cycles"),
	FIELD(struct sampo_record_time_conv, time_mask, "time_mask"),
};

static const struct record_field feature_fields[] = {
	FIELD(struct sampo_record_feature, feat_id, "feat_id"),
};

static const struct record_field compressed2_fields[] = {
	FIELD(struct sampo_record_compressed2, data_size, "data_size"),
};

#define FIELDS(f) (uint8_t) ARRAY_SIZE(f), f
#define HDR sizeof(struct sampo_record_header)

static const struct record_desc record_descs[SAMPO_RECORD_MAX] = {
	[SAMPO_RECORD_MMAP] = { "MMAP", sizeof(struct sampo_record_mmap) + 1,
				sizeof(struct sampo_record_mmap), TAIL_STRING, SWAP_FIELDS,
				FIELDS(mmap_fields) },
	[SAMPO_RECORD_LOST] = { "LOST", sizeof(struct sampo_record_lost),
				sizeof(struct sampo_record_lost), TAIL_NONE, SWAP_ALL64,
				FIELDS(lost_fields) },
	[SAMPO_RECORD_COMM] = { "COMM", sizeof(struct sampo_record_comm) + 1,
				sizeof(struct sampo_record_comm), TAIL_STRING, SWAP_FIELDS,
				FIELDS(comm_fields) },
	[SAMPO_RECORD_EXIT] = { "EXIT", sizeof(struct sampo_record_fork),
				sizeof(struct sampo_record_fork), TAIL_NONE, SWAP_FIELDS,
				FIELDS(fork_fields) },
	[SAMPO_RECORD_THROTTLE] = { "THROTTLE", sizeof(struct sampo_record_throttle),
				    sizeof(struct sampo_record_throttle), TAIL_NONE, SWAP_FIELDS,
				    FIELDS(throttle_fields) },
	[SAMPO_RECORD_UNTHROTTLE] = { "UNTHROTTLE", sizeof(struct sampo_record_throttle),
				      sizeof(struct sampo_record_throttle), TAIL_NONE, SWAP_FIELDS,
				      FIELDS(throttle_fields) },
	[SAMPO_RECORD_FORK] = { "FORK", sizeof(struct sampo_record_fork),
				sizeof(struct sampo_record_fork), TAIL_NONE, SWAP_FIELDS,
				FIELDS(fork_fields) },
	/* at least one value; perf's fixed values, then whatever the read_format adds */
	[SAMPO_RECORD_READ] = { "READ", sizeof(struct sampo_record_read) + 8,
				sizeof(struct sampo_record_read), TAIL_U64S, SWAP_FIELDS,
				FIELDS(read_fields) },
	/* the sample's layout is the attr's: sample.c reads it, the writer converts it */
	[SAMPO_RECORD_SAMPLE] = { "SAMPLE", 0, HDR, TAIL_NONE, SWAP_ALL64, 0, NULL },
	[SAMPO_RECORD_MMAP2] = { "MMAP2", sizeof(struct sampo_record_mmap2) + 1,
				 sizeof(struct sampo_record_mmap2), TAIL_STRING, SWAP_FIELDS,
				 FIELDS(mmap2_fields) },
	[SAMPO_RECORD_AUX] = { "AUX", sizeof(struct sampo_record_aux), sizeof(struct sampo_record_aux),
			       TAIL_NONE, SWAP_FIELDS, FIELDS(aux_fields) },
	[SAMPO_RECORD_ITRACE_START] = { "ITRACE_START", sizeof(struct sampo_record_itrace_start),
					sizeof(struct sampo_record_itrace_start), TAIL_NONE,
					SWAP_FIELDS, FIELDS(itrace_start_fields) },
	[SAMPO_RECORD_LOST_SAMPLES] = { "LOST_SAMPLES", sizeof(struct sampo_record_lost_samples),
					sizeof(struct sampo_record_lost_samples), TAIL_NONE,
					SWAP_ALL64, FIELDS(lost_samples_fields) },
	[SAMPO_RECORD_SWITCH] = { "SWITCH", 0, HDR, TAIL_NONE, SWAP_FIELDS, 0, NULL },
	[SAMPO_RECORD_SWITCH_CPU_WIDE] = { "SWITCH_CPU_WIDE",
					   sizeof(struct sampo_record_switch_cpu_wide),
					   sizeof(struct sampo_record_switch_cpu_wide), TAIL_NONE,
					   SWAP_FIELDS, FIELDS(switch_cpu_wide_fields) },
	[SAMPO_RECORD_NAMESPACES] = { "NAMESPACES", sizeof(struct sampo_record_namespaces),
				      sizeof(struct sampo_record_namespaces), TAIL_NAMESPACES,
				      SWAP_FIELDS, FIELDS(namespaces_fields) },
	[SAMPO_RECORD_KSYMBOL] = { "KSYMBOL", sizeof(struct sampo_record_ksymbol) + 1,
				   sizeof(struct sampo_record_ksymbol), TAIL_STRING, SWAP_NONE,
				   FIELDS(ksymbol_fields) },
	[SAMPO_RECORD_BPF_EVENT] = { "BPF_EVENT", sizeof(struct sampo_record_bpf_event),
				     sizeof(struct sampo_record_bpf_event), TAIL_NONE, SWAP_NONE,
				     FIELDS(bpf_event_fields) },
	[SAMPO_RECORD_CGROUP] = { "CGROUP", sizeof(struct sampo_record_cgroup) + 1,
				  sizeof(struct sampo_record_cgroup), TAIL_STRING, SWAP_FIELDS,
				  FIELDS(cgroup_fields) },
	[SAMPO_RECORD_TEXT_POKE] = { "TEXT_POKE", offsetof(struct sampo_record_text_poke, bytes),
				     offsetof(struct sampo_record_text_poke, bytes), TAIL_TEXT_POKE,
				     SWAP_FIELDS, FIELDS(text_poke_fields) },
	[SAMPO_RECORD_AUX_OUTPUT_HW_ID] = { "AUX_OUTPUT_HW_ID",
					    sizeof(struct sampo_record_aux_output_hw_id),
					    sizeof(struct sampo_record_aux_output_hw_id), TAIL_NONE,
					    SWAP_ALL64, FIELDS(aux_output_hw_id_fields) },

	[SAMPO_RECORD_HEADER_ATTR] = { "ATTR", HDR + SAMPO_ATTR_SIZE_VER0, HDR, TAIL_ATTR,
				       SWAP_FIELDS, 0, NULL },
	/* perf 3.x cut the name to its length rounded up to 8 bytes (a 24-byte
	 * "cycles"), so only the id is required */
	[SAMPO_RECORD_HEADER_EVENT_TYPE] = { "EVENT_TYPE",
					     offsetof(struct sampo_record_event_type, name),
					     offsetof(struct sampo_record_event_type, name), TAIL_NONE,
					     SWAP_FIELDS, FIELDS(event_type_fields) },
	/* the tracing data follow the record */
	[SAMPO_RECORD_HEADER_TRACING_DATA] = { "TRACING_DATA",
					       sizeof(struct sampo_record_tracing_data),
					       sizeof(struct sampo_record_tracing_data), TAIL_NONE,
					       SWAP_FIELDS, FIELDS(tracing_data_fields) },
	[SAMPO_RECORD_HEADER_BUILD_ID] = { "BUILD_ID", sizeof(struct sampo_record_build_id),
					   sizeof(struct sampo_record_build_id), TAIL_STRING,
					   SWAP_FIELDS, FIELDS(build_id_fields) },
	[SAMPO_RECORD_FINISHED_ROUND] = { "FINISHED_ROUND", 0, HDR, TAIL_NONE, SWAP_FIELDS, 0,
					  NULL },
	/* entries, then (newer perf) a sampo_id_index_entry2 per entry */
	[SAMPO_RECORD_ID_INDEX] = { "ID_INDEX", sizeof(struct sampo_record_id_index),
				    sizeof(struct sampo_record_id_index), TAIL_U64S, SWAP_ALL64,
				    FIELDS(id_index_fields) },
	/* the reserved u32 stays as it is, as in perf */
	[SAMPO_RECORD_AUXTRACE_INFO] = { "AUXTRACE_INFO", sizeof(struct sampo_record_auxtrace_info),
					 sizeof(struct sampo_record_auxtrace_info), TAIL_U64S,
					 SWAP_FIELDS, FIELDS(auxtrace_info_fields) },
	/* the AUX data follow the record */
	[SAMPO_RECORD_AUXTRACE] = { "AUXTRACE", sizeof(struct sampo_record_auxtrace),
				    sizeof(struct sampo_record_auxtrace), TAIL_NONE, SWAP_FIELDS,
				    FIELDS(auxtrace_fields) },
	[SAMPO_RECORD_AUXTRACE_ERROR] = { "AUXTRACE_ERROR",
					  offsetof(struct sampo_record_auxtrace_error, time),
					  offsetof(struct sampo_record_auxtrace_error, time),
					  TAIL_NONE, SWAP_FIELDS, FIELDS(auxtrace_error_fields) },
	[SAMPO_RECORD_THREAD_MAP] = { "THREAD_MAP", sizeof(struct sampo_record_thread_map),
				      sizeof(struct sampo_record_thread_map), TAIL_THREADS,
				      SWAP_FIELDS, FIELDS(thread_map_fields) },
	[SAMPO_RECORD_CPU_MAP] = { "CPU_MAP", offsetof(struct sampo_record_cpu_map, data),
				   offsetof(struct sampo_record_cpu_map, type), TAIL_CPU_MAP,
				   SWAP_FIELDS, 0, NULL },
	[SAMPO_RECORD_STAT_CONFIG] = { "STAT_CONFIG", sizeof(struct sampo_record_stat_config),
				       sizeof(struct sampo_record_stat_config), TAIL_U64S,
				       SWAP_ALL64, FIELDS(stat_config_fields) },
	[SAMPO_RECORD_STAT] = { "STAT", sizeof(struct sampo_record_stat),
				sizeof(struct sampo_record_stat), TAIL_NONE, SWAP_FIELDS,
				FIELDS(stat_fields) },
	[SAMPO_RECORD_STAT_ROUND] = { "STAT_ROUND", sizeof(struct sampo_record_stat_round),
				      sizeof(struct sampo_record_stat_round), TAIL_NONE, SWAP_ALL64,
				      FIELDS(stat_round_fields) },
	[SAMPO_RECORD_EVENT_UPDATE] = { "EVENT_UPDATE", sizeof(struct sampo_record_event_update),
					sizeof(struct sampo_record_event_update), TAIL_EVENT_UPDATE,
					SWAP_FIELDS_ONLY, FIELDS(event_update_fields) },
	/* the u8 caps after time_mask stay as they are (but SWAP_ALL64 reverses them) */
	[SAMPO_RECORD_TIME_CONV] = { "TIME_CONV", offsetof(struct sampo_record_time_conv, time_cycles),
				     offsetof(struct sampo_record_time_conv, time_cycles),
				     TAIL_NONE, SWAP_ALL64, FIELDS(time_conv_fields) },
	[SAMPO_RECORD_HEADER_FEATURE] = { "FEATURE", sizeof(struct sampo_record_feature),
					  sizeof(struct sampo_record_feature), TAIL_NONE,
					  SWAP_FIELDS, FIELDS(feature_fields) },
	/* zstd bytes, 1-byte aligned */
	[SAMPO_RECORD_COMPRESSED] = { "COMPRESSED", 0, HDR, TAIL_NONE, SWAP_FIELDS, 0, NULL },
	[SAMPO_RECORD_FINISHED_INIT] = { "FINISHED_INIT", 0, HDR, TAIL_NONE, SWAP_FIELDS, 0, NULL },
	[SAMPO_RECORD_COMPRESSED2] = { "COMPRESSED2", sizeof(struct sampo_record_compressed2),
				       sizeof(struct sampo_record_compressed2), TAIL_NONE,
				       SWAP_FIELDS, FIELDS(compressed2_fields) },
	/* newer than perf 6.1: known by name only, never swapped */
	[SAMPO_RECORD_BPF_METADATA] = { "BPF_METADATA", 0, HDR, TAIL_NONE, SWAP_NONE, 0, NULL },
	[SAMPO_RECORD_SCHEDSTAT_CPU] = { "SCHEDSTAT_CPU", 0, HDR, TAIL_NONE, SWAP_NONE, 0, NULL },
	[SAMPO_RECORD_SCHEDSTAT_DOMAIN] = { "SCHEDSTAT_DOMAIN", 0, HDR, TAIL_NONE, SWAP_NONE, 0,
					    NULL },
};

static const struct record_desc *record_desc(uint32_t type)
{
	return type < SAMPO_RECORD_MAX && record_descs[type].name ? &record_descs[type] : NULL;
}

const char *sampo_record__name(uint32_t type)
{
	const struct record_desc *d = record_desc(type);

	return d ? d->name : NULL;
}

/*
 * perf 6.1's perf_event__names[] is the types this table names below its
 * PERF_RECORD_HEADER_MAX, plus "TOTAL" in slot 0 for its stats.
 */
bool sampo_record__perf_known(uint32_t type)
{
	return type == 0 || (type < SAMPO_RECORD_PERF_MAX && sampo_record__name(type));
}

const char *sampo_record__perf_name(uint32_t type)
{
	if (type >= SAMPO_RECORD_PERF_MAX)
		return "INVALID";
	if (type == 0)
		return "TOTAL";
	return sampo_record__known(type) ? sampo_record__name(type) : "UNKNOWN";
}

const char *sampo_record__simpleperf_name(uint32_t type)
{
	static const char *const names[] = {
		[SAMPO_SIMPLEPERF_RECORD_KERNEL_SYMBOL - SAMPO_SIMPLEPERF_RECORD_START] =
			"KERNEL_SYMBOL",
		[SAMPO_SIMPLEPERF_RECORD_DSO - SAMPO_SIMPLEPERF_RECORD_START] = "DSO",
		[SAMPO_SIMPLEPERF_RECORD_SYMBOL - SAMPO_SIMPLEPERF_RECORD_START] = "SYMBOL",
		[SAMPO_SIMPLEPERF_RECORD_SPLIT - SAMPO_SIMPLEPERF_RECORD_START] = "SPLIT",
		[SAMPO_SIMPLEPERF_RECORD_SPLIT_END - SAMPO_SIMPLEPERF_RECORD_START] = "SPLIT_END",
		[SAMPO_SIMPLEPERF_RECORD_EVENT_ID - SAMPO_SIMPLEPERF_RECORD_START] = "EVENT_ID",
		[SAMPO_SIMPLEPERF_RECORD_CALLCHAIN - SAMPO_SIMPLEPERF_RECORD_START] = "CALLCHAIN",
		[SAMPO_SIMPLEPERF_RECORD_UNWINDING_RESULT - SAMPO_SIMPLEPERF_RECORD_START] =
			"UNWINDING_RESULT",
		[SAMPO_SIMPLEPERF_RECORD_TRACING_DATA - SAMPO_SIMPLEPERF_RECORD_START] =
			"TRACING_DATA",
		[SAMPO_SIMPLEPERF_RECORD_DEBUG - SAMPO_SIMPLEPERF_RECORD_START] = "DEBUG",
	};

	if (type <= SAMPO_SIMPLEPERF_RECORD_START || type > SAMPO_SIMPLEPERF_RECORD_LAST_KNOWN)
		return NULL;
	return names[type - SAMPO_SIMPLEPERF_RECORD_START];
}

bool sampo_record__known(uint32_t type)
{
	return record_desc(type) != NULL;
}

size_t sampo_record__min_size(uint32_t type)
{
	const struct record_desc *d = record_desc(type);

	return d ? d->min_size : 0;
}

/* ---- swapping, one field at a time -------------------------------------- */

static uint64_t load_width(const uint8_t *p, unsigned int width)
{
	switch (width) {
	case 2:
		return load_u16(p);
	case 4:
		return load_u32(p);
	default:
		return load_u64(p);
	}
}

static uint64_t bswap_width(uint64_t v, unsigned int width)
{
	switch (width) {
	case 2:
		return bswap_16((uint16_t)v);
	case 4:
		return bswap_32((uint32_t)v);
	default:
		return bswap_64(v);
	}
}

static void store_width(uint8_t *p, uint64_t v, unsigned int width)
{
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;

	switch (width) {
	case 2:
		memcpy(p, &v16, 2);
		break;
	case 4:
		memcpy(p, &v32, 4);
		break;
	default:
		memcpy(p, &v, 8);
		break;
	}
}

/*
 * Swap the @width-byte field at @p in place and return its host-order value:
 * the value after the swap when reading (@to_file false), before it when
 * writing.
 */
static uint64_t swap_field(uint8_t *p, unsigned int width, bool to_file)
{
	uint64_t before = load_width(p, width);
	uint64_t after = bswap_width(before, width);

	store_width(p, after, width);
	return to_file ? before : after;
}

/* The host-order value of a field already swapped. */
static uint64_t swapped_value(const uint8_t *p, unsigned int width, bool to_file)
{
	uint64_t v = load_width(p, width);

	return to_file ? bswap_width(v, width) : v;
}

/* Swap the u64s in [from, to). */
static void swap_u64s(uint8_t *rec, size_t from, size_t to)
{
	for (size_t off = from; off + 8 <= to; off += 8)
		(void)swap_field(rec + off, 8, false);
}

/* ---- tails ----------------------------------------------------------------- */

/* The end of the NUL-terminated string at @off rounded up to 8, bounded by @limit. */
static size_t string_end(const uint8_t *rec, size_t off, size_t limit)
{
	size_t n;

	if (off >= limit)
		return off;
	n = strnlen((const char *)rec + off, limit - off);
	return off + ALIGN_UP(n + 1, 8);
}

/* Swap the first @words u64s of each of @nr elements of @elem_size bytes from @off. */
static size_t swap_array(uint8_t *rec, size_t off, size_t limit, uint64_t nr, size_t elem_size,
			 size_t words)
{
	uint64_t room = off < limit ? (limit - off) / elem_size : 0;

	nr = MIN(nr, room);
	for (uint64_t i = 0; i < nr; i++, off += elem_size)
		swap_u64s(rec, off, off + 8 * words);
	return off;
}

/* CPU map data at @off (its type field), up to @limit. */
static void swap_cpu_map_data(uint8_t *rec, size_t off, size_t limit, bool to_file)
{
	uint8_t *d = rec + off;
	size_t size = off < limit ? limit - off : 0;
	uint64_t type, nr, long_size;

	if (size < SAMPO_CPU_MAP_TYPE + 2)
		return;
	type = swap_field(d + SAMPO_CPU_MAP_TYPE, 2, to_file);
	switch (type) {
	case SAMPO_CPU_MAP_CPUS:
		if (size < SAMPO_CPU_MAP_CPUS_CPU)
			return;
		nr = swap_field(d + SAMPO_CPU_MAP_CPUS_NR, 2, to_file);
		for (size_t i = 0; i < nr && SAMPO_CPU_MAP_CPUS_CPU + 2 * (i + 1) <= size; i++)
			(void)swap_field(d + SAMPO_CPU_MAP_CPUS_CPU + 2 * i, 2, to_file);
		break;
	case SAMPO_CPU_MAP_MASK: {
		size_t words;

		if (size < SAMPO_CPU_MAP_MASK_WORDS32)
			return;
		nr = swap_field(d + SAMPO_CPU_MAP_MASK_NR, 2, to_file);
		long_size = swap_field(d + SAMPO_CPU_MAP_MASK_LONG_SIZE, 2, to_file);
		if (long_size != 4 && long_size != 8)
			break;
		words = long_size == 4 ? SAMPO_CPU_MAP_MASK_WORDS32 : SAMPO_CPU_MAP_MASK_WORDS64;
		for (size_t i = 0; i < nr && words + long_size * (i + 1) <= size; i++)
			(void)swap_field(d + words + long_size * i, (unsigned int)long_size,
					 to_file);
		break;
	}
	case SAMPO_CPU_MAP_RANGE_CPUS:
		if (size < SAMPO_CPU_MAP_RANGE_SIZE)
			return;
		(void)swap_field(d + SAMPO_CPU_MAP_RANGE_START, 2, to_file);
		(void)swap_field(d + SAMPO_CPU_MAP_RANGE_END, 2, to_file);
		break;
	default:
		break;
	}
}

/*
 * perf_event_attr: swap each field present in @size bytes, and reverse the
 * bits of each byte of the flags word (see the file comment).
 */
static const struct record_field attr_fields[] = {
	FIELD(struct sampo_event_attr, type, "type"),
	FIELD(struct sampo_event_attr, size, "size"),
	FIELD(struct sampo_event_attr, config, "config"),
	FIELD(struct sampo_event_attr, sample_period, "sample_period"),
	FIELD(struct sampo_event_attr, sample_type, "sample_type"),
	FIELD(struct sampo_event_attr, read_format, "read_format"),
	FIELD(struct sampo_event_attr, wakeup_events, "wakeup_events"),
	FIELD(struct sampo_event_attr, bp_type, "bp_type"),
	FIELD(struct sampo_event_attr, config1, "config1"),
	FIELD(struct sampo_event_attr, config2, "config2"),
	FIELD(struct sampo_event_attr, branch_sample_type, "branch_sample_type"),
	FIELD(struct sampo_event_attr, sample_regs_user, "sample_regs_user"),
	FIELD(struct sampo_event_attr, sample_stack_user, "sample_stack_user"),
	FIELD(struct sampo_event_attr, clockid, "clockid"),
	FIELD(struct sampo_event_attr, sample_regs_intr, "sample_regs_intr"),
	FIELD(struct sampo_event_attr, aux_watermark, "aux_watermark"),
	FIELD(struct sampo_event_attr, sample_max_stack, "sample_max_stack"),
	FIELD(struct sampo_event_attr, aux_sample_size, "aux_sample_size"),
	FIELD(struct sampo_event_attr, sig_data, "sig_data"),
	FIELD(struct sampo_event_attr, config3, "config3"),
};

uint8_t sampo_reverse_bits(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

static void swap_attr_bytes(uint8_t *attr, size_t size)
{
	size_t flags = offsetof(struct sampo_event_attr, flags);

	for (size_t i = 0; i < ARRAY_SIZE(attr_fields); i++) {
		const struct record_field *f = &attr_fields[i];

		if (f->offset + f->width <= size)
			(void)swap_field(attr + f->offset, f->width, false);
	}
	if (size >= flags + sizeof(uint64_t)) {
		for (size_t i = 0; i < sizeof(uint64_t); i++)
			attr[flags + i] = sampo_reverse_bits(attr[flags + i]);
	}
}

void sampo_attr__swap(struct sampo_event_attr *attr, size_t size)
{
	swap_attr_bytes((uint8_t *)attr, size);
}

/* HEADER_ATTR's attr at @off and the u64 ids after it, up to @limit. */
static size_t swap_attr_tail(uint8_t *rec, size_t off, size_t limit, bool to_file)
{
	size_t body = off < limit ? limit - off : 0;
	size_t attr_size;

	if (body < offsetof(struct sampo_event_attr, size) + sizeof(uint32_t))
		return off;
	attr_size = (size_t)swapped_value(rec + off + offsetof(struct sampo_event_attr, size), 4,
					  !to_file);
	attr_size = MIN(attr_size, body);
	swap_attr_bytes(rec + off, attr_size);
	swap_u64s(rec, off + attr_size, limit);
	return limit;
}

/*
 * Swap what follows the fixed fields, from @off to @limit; return where the
 * body ends (where a sample_id trailer starts).
 */
static size_t swap_tail(const struct record_desc *d, uint8_t *rec, size_t off, size_t limit,
			bool to_file)
{
	switch ((enum record_tail)d->tail) {
	case TAIL_NONE:
		return off;
	case TAIL_STRING:
		return string_end(rec, off, limit);
	case TAIL_U64S:
		swap_u64s(rec, off, limit);
		return limit;
	case TAIL_NAMESPACES: {
		size_t at = offsetof(struct sampo_record_namespaces, nr_namespaces);
		uint64_t nr = limit >= at + 8 ? swapped_value(rec + at, 8, to_file) : 0;

		return swap_array(rec, off, limit, nr, sizeof(struct sampo_ns_link_info),
				  sizeof(struct sampo_ns_link_info) / 8);
	}
	case TAIL_THREADS: {
		size_t at = offsetof(struct sampo_record_thread_map, nr);
		uint64_t nr = limit >= at + 8 ? swapped_value(rec + at, 8, to_file) : 0;

		/* pid: the one u64 of an entry; comm is bytes */
		return swap_array(rec, off, limit, nr, sizeof(struct sampo_thread_map_entry), 1);
	}
	case TAIL_CPU_MAP:
		swap_cpu_map_data(rec, off, limit, to_file);
		return limit;
	case TAIL_EVENT_UPDATE: {
		size_t at = offsetof(struct sampo_record_event_update, type);
		uint64_t type = limit >= at + 8 ? swapped_value(rec + at, 8, to_file) : 0;

		if (type == SAMPO_EVENT_UPDATE_SCALE && off + sizeof(double) <= limit)
			(void)swap_field(rec + off, sizeof(double), to_file);
		else if (type == SAMPO_EVENT_UPDATE_CPUS)
			swap_cpu_map_data(rec, off, limit, to_file);
		return limit;
	}
	case TAIL_ATTR:
		return swap_attr_tail(rec, off, limit, to_file);
	case TAIL_TEXT_POKE: {
		size_t lens = offsetof(struct sampo_record_text_poke, old_len);
		uint64_t old_len, new_len;

		if (limit < off)
			return off;
		old_len = swapped_value(rec + lens, 2, to_file);
		new_len = swapped_value(rec + lens + 2, 2, to_file);
		return lens + ALIGN_UP(4 + old_len + new_len, 8);
	}
	}
	return off;
}

/*
 * Swap the fixed fields of @rec within @limit bytes, then its tail; return
 * the end of the body. The header (misc) is in host order.
 */
static size_t swap_body(const struct record_desc *d, uint8_t *rec, size_t limit, bool to_file,
			bool with_tail)
{
	uint16_t misc = load_u16(rec + offsetof(struct sampo_record_header, misc));
	size_t fmt_at = offsetof(struct sampo_record_auxtrace_error, fmt);
	uint32_t fmt = 0;
	size_t end = d->fixed;

	/* conditions first: a field they depend on may be swapped before its turn */
	if (d == &record_descs[SAMPO_RECORD_AUXTRACE_ERROR] && fmt_at + 4 <= limit)
		fmt = (uint32_t)swapped_value(rec + fmt_at, 4, !to_file);

	for (size_t i = 0; i < d->nr_fields; i++) {
		const struct record_field *f = &d->fields[i];

		if (f->offset + f->width > limit)
			continue;
		if ((f->cond == FIELD_NO_BUILD_ID && (misc & SAMPO_MISC_MMAP_BUILD_ID)) ||
		    (f->cond == FIELD_FMT1 && fmt < 1) || (f->cond == FIELD_FMT2 && fmt < 2))
			continue;
		(void)swap_field(rec + f->offset, f->width, to_file);
		end = MAX(end, (size_t)f->offset + f->width);
	}
	return with_tail ? swap_tail(d, rec, end, limit, to_file) : end;
}

void sampo_record__swap(union sampo_record *rec, bool sample_id_all)
{
	const struct record_desc *d = record_desc(rec->header.type);
	uint8_t *p = (uint8_t *)rec;
	size_t size = rec->header.size, end;
	bool kernel;

	if (!d)
		return;
	switch ((enum record_swap)d->swap) {
	case SWAP_NONE:
		return;
	case SWAP_ALL64:
		swap_u64s(p, sizeof(rec->header), size);
		return;
	case SWAP_FIELDS_ONLY:
		(void)swap_body(d, p, size, false, false);
		return;
	case SWAP_FIELDS:
		/* after a kernel record's fields perf swaps u64s only as its trailer (READ) */
		kernel = rec->header.type < SAMPO_RECORD_KERNEL_MAX;
		end = swap_body(d, p, size, false, !(kernel && d->tail == TAIL_U64S));
		if (sample_id_all && kernel)
			swap_u64s(p, end, size);
		return;
	}
}

void sampo_record__convert(void *rec, size_t body_size)
{
	const struct record_desc *d = record_desc(load_u32(rec));

	if (d)
		(void)swap_body(d, rec, body_size, true, true);
}

/* ---- reading fields by name, cpu maps ------------------------------------ */

int sampo_record__field(const union sampo_record *rec, const char *name, uint64_t *ret_value)
{
	const struct record_desc *d = record_desc(rec->header.type);

	for (size_t i = 0; d && i < d->nr_fields; i++) {
		const struct record_field *f = &d->fields[i];

		if (strcmp(f->name, name))
			continue;
		if (f->offset + f->width > rec->header.size)
			return -ERANGE;
		*ret_value = load_width((const uint8_t *)rec + f->offset, f->width);
		return 0;
	}
	return -ENOENT;
}

int sampo_cpu_map__decode(const void *data, size_t size, int **ret_cpus, size_t *ret_nr)
{
	const uint8_t *d = data;
	uint16_t type, nr, long_size;
	int *cpus = NULL;
	size_t n = 0;

	*ret_cpus = NULL;
	*ret_nr = 0;
	if (size < SAMPO_CPU_MAP_TYPE + 2)
		return -EINVAL;
	type = load_u16(d + SAMPO_CPU_MAP_TYPE);
	if (type == SAMPO_CPU_MAP_CPUS && size >= SAMPO_CPU_MAP_CPUS_CPU) {
		nr = load_u16(d + SAMPO_CPU_MAP_CPUS_NR);
		cpus = calloc((size_t)nr + 1, sizeof(*cpus));
		for (size_t i = 0; cpus && i < nr && SAMPO_CPU_MAP_CPUS_CPU + 2 * (i + 1) <= size;
		     i++) {
			uint16_t c = load_u16(d + SAMPO_CPU_MAP_CPUS_CPU + 2 * i);

			cpus[n++] = c == (uint16_t)-1 ? -1 : c;
		}
	} else if (type == SAMPO_CPU_MAP_MASK && size >= SAMPO_CPU_MAP_MASK_WORDS32) {
		size_t words;

		nr = load_u16(d + SAMPO_CPU_MAP_MASK_NR);
		long_size = load_u16(d + SAMPO_CPU_MAP_MASK_LONG_SIZE);
		words = long_size == 8 ? SAMPO_CPU_MAP_MASK_WORDS64 : SAMPO_CPU_MAP_MASK_WORDS32;
		if (nr > size / 4)
			nr = (uint16_t)(size / 4); /* the words must fit in the record anyway */
		cpus = calloc((size_t)nr * 64 + 1, sizeof(*cpus));
		for (size_t i = 0; cpus && (long_size == 4 || long_size == 8) && i < nr; i++) {
			uint64_t word = 0;

			if (words + (i + 1) * long_size > size)
				break;
			word = load_width(d + words + i * long_size, long_size);
			for (unsigned int bit = 0; bit < 64; bit++) {
				if (word & (1ULL << bit))
					cpus[n++] = (int)(bit + i * long_size * 8);
			}
		}
	} else if (type == SAMPO_CPU_MAP_RANGE_CPUS && size >= SAMPO_CPU_MAP_RANGE_SIZE) {
		uint8_t any = d[SAMPO_CPU_MAP_RANGE_ANY];
		uint16_t start = load_u16(d + SAMPO_CPU_MAP_RANGE_START);
		uint16_t end = load_u16(d + SAMPO_CPU_MAP_RANGE_END);

		cpus = calloc((size_t)(end >= start ? end - start + 1 : 0) + 2, sizeof(*cpus));
		if (cpus && any)
			cpus[n++] = -1;
		for (int c = start; cpus && c <= end; c++)
			cpus[n++] = c;
	} else {
		return -EINVAL;
	}
	if (!cpus)
		return -ENOMEM;
	*ret_cpus = cpus;
	*ret_nr = n;
	return 0;
}

/* ---- validation --------------------------------------------------------- */

static int bad(char *why, size_t why_sz, const char *fmt, ...) SAMPO_PRINTF(3, 4);
static int bad(char *why, size_t why_sz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_sz, fmt, ap);
	va_end(ap);
	return -SAMPO_ERR_MALFORMED;
}

static bool has_nul(const union sampo_record *rec, const char *s)
{
	const char *end = (const char *)rec + rec->header.size;

	return s < end && memchr(s, '\0', (size_t)(end - s)) != NULL;
}

int sampo_record__validate(const union sampo_record *rec, char *why, size_t why_sz)
{
	uint32_t type = rec->header.type;
	size_t size = rec->header.size;
	const struct record_desc *d = record_desc(type);

	if (!d)
		return 0; /* unknown: skipped by its size */
	if (size < d->min_size)
		return bad(why, why_sz, "%s record of %zu bytes is shorter than its %u-byte minimum",
			   d->name, size, d->min_size);

	switch (type) {
	case SAMPO_RECORD_MMAP:
		if (!has_nul(rec, rec->mmap.filename))
			return bad(why, why_sz, "MMAP filename is not NUL-terminated");
		break;
	case SAMPO_RECORD_MMAP2:
		if (!has_nul(rec, rec->mmap2.filename))
			return bad(why, why_sz, "MMAP2 filename is not NUL-terminated");
		if ((rec->header.misc & SAMPO_MISC_MMAP_BUILD_ID) &&
		    rec->mmap2.build_id_size > SAMPO_BUILD_ID_MAX)
			return bad(why, why_sz, "MMAP2 build-id size %u is larger than %u",
				   rec->mmap2.build_id_size, SAMPO_BUILD_ID_MAX);
		break;
	case SAMPO_RECORD_COMM:
		if (!has_nul(rec, rec->comm.comm))
			return bad(why, why_sz, "COMM name is not NUL-terminated");
		break;
	case SAMPO_RECORD_CGROUP:
		if (!has_nul(rec, rec->cgroup.path))
			return bad(why, why_sz, "CGROUP path is not NUL-terminated");
		break;
	case SAMPO_RECORD_KSYMBOL:
		if (!has_nul(rec, rec->ksymbol.name))
			return bad(why, why_sz, "KSYMBOL name is not NUL-terminated");
		break;
	case SAMPO_RECORD_HEADER_BUILD_ID:
		if (!has_nul(rec, rec->build_id.filename))
			return bad(why, why_sz, "BUILD_ID filename is not NUL-terminated");
		break;
	case SAMPO_RECORD_NAMESPACES:
		if (rec->namespaces.nr_namespaces >
		    (size - sizeof(rec->namespaces)) / sizeof(struct sampo_ns_link_info))
			return bad(why, why_sz, "NAMESPACES count %llu runs past the record",
				   (unsigned long long)rec->namespaces.nr_namespaces);
		break;
	case SAMPO_RECORD_TEXT_POKE:
		if (offsetof(struct sampo_record_text_poke, bytes) + (size_t)rec->text_poke.old_len +
			    rec->text_poke.new_len >
		    size)
			return bad(why, why_sz, "TEXT_POKE lengths %u+%u run past the record",
				   rec->text_poke.old_len, rec->text_poke.new_len);
		break;
	case SAMPO_RECORD_HEADER_ATTR: {
		uint32_t asz = rec->attr.attr.size;

		if (asz < SAMPO_ATTR_SIZE_VER0 || asz > size - 8 || asz % 8)
			return bad(why, why_sz, "ATTR size %u does not fit its %zu-byte record", asz,
				   size);
		break;
	}
	case SAMPO_RECORD_ID_INDEX:
		if (rec->id_index.nr > (size - sizeof(rec->id_index)) /
					       sizeof(struct sampo_id_index_entry))
			return bad(why, why_sz, "ID_INDEX count %llu runs past the record",
				   (unsigned long long)rec->id_index.nr);
		break;
	case SAMPO_RECORD_THREAD_MAP:
		if (rec->thread_map.nr > (size - sizeof(rec->thread_map)) /
						 sizeof(struct sampo_thread_map_entry))
			return bad(why, why_sz, "THREAD_MAP count %llu runs past the record",
				   (unsigned long long)rec->thread_map.nr);
		break;
	case SAMPO_RECORD_STAT_CONFIG:
		if (rec->stat_config.nr > (size - sizeof(rec->stat_config)) /
						  sizeof(struct sampo_stat_config_entry))
			return bad(why, why_sz, "STAT_CONFIG count %llu runs past the record",
				   (unsigned long long)rec->stat_config.nr);
		break;
	case SAMPO_RECORD_CPU_MAP: {
		const uint8_t *map = (const uint8_t *)&rec->cpu_map.type;
		size_t room = size - offsetof(struct sampo_record_cpu_map, type);

		if (rec->cpu_map.type == SAMPO_CPU_MAP_CPUS) {
			if (room < SAMPO_CPU_MAP_CPUS_CPU ||
			    SAMPO_CPU_MAP_CPUS_CPU + 2 * (size_t)load_u16(map + SAMPO_CPU_MAP_CPUS_NR) >
				    room)
				return bad(why, why_sz, "CPU_MAP cpu list runs past the record");
		} else if (rec->cpu_map.type == SAMPO_CPU_MAP_MASK) {
			uint16_t ls;
			size_t words;

			if (room < SAMPO_CPU_MAP_MASK_WORDS32)
				return bad(why, why_sz, "CPU_MAP mask runs past the record");
			ls = load_u16(map + SAMPO_CPU_MAP_MASK_LONG_SIZE);
			if (ls != 4 && ls != 8)
				return bad(why, why_sz, "CPU_MAP mask word size %u is not 4 or 8", ls);
			words = ls == 4 ? SAMPO_CPU_MAP_MASK_WORDS32 : SAMPO_CPU_MAP_MASK_WORDS64;
			if (words + (size_t)ls * load_u16(map + SAMPO_CPU_MAP_MASK_NR) > room)
				return bad(why, why_sz, "CPU_MAP mask runs past the record");
		} else if (rec->cpu_map.type == SAMPO_CPU_MAP_RANGE_CPUS) {
			if (room < SAMPO_CPU_MAP_RANGE_SIZE)
				return bad(why, why_sz, "CPU_MAP range runs past the record");
		}
		break;
	}
	case SAMPO_RECORD_EVENT_UPDATE:
		if (rec->event_update.type == SAMPO_EVENT_UPDATE_SCALE &&
		    size < sizeof(rec->event_update) + 8)
			return bad(why, why_sz, "EVENT_UPDATE scale runs past the record");
		break;
	case SAMPO_RECORD_COMPRESSED2:
		if (rec->compressed2.data_size > size - sizeof(rec->compressed2))
			return bad(why, why_sz, "COMPRESSED2 data size %llu runs past the record",
				   (unsigned long long)rec->compressed2.data_size);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * perf walks one step past the last cpu (INT32_MAX there ends the last run)
 * and adds up snprintf()'s returns; once the text no longer fits, this stops
 * adding where perf would go on writing past its buffer.
 */
size_t sampo_cpu_map__snprint(const int *cpus, size_t nr, char *buf, size_t size)
{
	size_t ret = 0, start = SIZE_MAX;
	bool first = true;

	if (!size)
		return 0;
	buf[0] = 0;
	for (size_t i = 0; i < nr + 1; i++) {
		bool last = i == nr;
		int cpu = last ? INT32_MAX : cpus[i];

		if (start == SIZE_MAX) {
			start = i;
			if (last && ret < size)
				ret += (size_t)snprintf(buf + ret, size - ret, "%s%d",
							first ? "" : ",", nr ? cpus[i] : -1);
		} else if ((int64_t)(i - start) != (int64_t)cpu - cpus[start] || last) {
			size_t end = i - 1;

			if (ret < size) {
				if (start == end)
					ret += (size_t)snprintf(buf + ret, size - ret, "%s%d",
								first ? "" : ",", cpus[start]);
				else
					ret += (size_t)snprintf(buf + ret, size - ret, "%s%d-%d",
								first ? "" : ",", cpus[start],
								cpus[end]);
			}
			first = false;
			start = i;
		}
	}
	return ret < size ? ret : size - 1;
}
