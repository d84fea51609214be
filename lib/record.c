// SPDX-License-Identifier: LGPL-2.1
/*
 * record.c - what the library knows about each record type: its name, the
 * smallest size it can have, how to swap it from an opposite-endian file, and
 * the checks that make its variable-length parts safe to read.
 *
 * Swapping follows perf exactly, quirks included, because `sampo dump`
 * prints the swapped bytes as perf does: SAMPLE and a few others are swapped
 * as an array of u64 (pairs of u32 stay crossed until the sample parser
 * undoes them), the sample_id trailer of other records as u64s after the
 * fixed part, and KSYMBOL and BPF_EVENT not at all (perf 6.1 has no swap
 * function for them).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sampo/event.h>
#include <sampo/reader.h>
#include "internal/record.h"
#include "internal/util.h"

static const char *const record_names[SAMPO_RECORD_MAX] = {
	[SAMPO_RECORD_MMAP] = "MMAP",
	[SAMPO_RECORD_LOST] = "LOST",
	[SAMPO_RECORD_COMM] = "COMM",
	[SAMPO_RECORD_EXIT] = "EXIT",
	[SAMPO_RECORD_THROTTLE] = "THROTTLE",
	[SAMPO_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[SAMPO_RECORD_FORK] = "FORK",
	[SAMPO_RECORD_READ] = "READ",
	[SAMPO_RECORD_SAMPLE] = "SAMPLE",
	[SAMPO_RECORD_MMAP2] = "MMAP2",
	[SAMPO_RECORD_AUX] = "AUX",
	[SAMPO_RECORD_ITRACE_START] = "ITRACE_START",
	[SAMPO_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[SAMPO_RECORD_SWITCH] = "SWITCH",
	[SAMPO_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[SAMPO_RECORD_NAMESPACES] = "NAMESPACES",
	[SAMPO_RECORD_KSYMBOL] = "KSYMBOL",
	[SAMPO_RECORD_BPF_EVENT] = "BPF_EVENT",
	[SAMPO_RECORD_CGROUP] = "CGROUP",
	[SAMPO_RECORD_TEXT_POKE] = "TEXT_POKE",
	[SAMPO_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[SAMPO_RECORD_HEADER_ATTR] = "ATTR",
	[SAMPO_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[SAMPO_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[SAMPO_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
	[SAMPO_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
	[SAMPO_RECORD_ID_INDEX] = "ID_INDEX",
	[SAMPO_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[SAMPO_RECORD_AUXTRACE] = "AUXTRACE",
	[SAMPO_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[SAMPO_RECORD_THREAD_MAP] = "THREAD_MAP",
	[SAMPO_RECORD_CPU_MAP] = "CPU_MAP",
	[SAMPO_RECORD_STAT_CONFIG] = "STAT_CONFIG",
	[SAMPO_RECORD_STAT] = "STAT",
	[SAMPO_RECORD_STAT_ROUND] = "STAT_ROUND",
	[SAMPO_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
	[SAMPO_RECORD_TIME_CONV] = "TIME_CONV",
	[SAMPO_RECORD_HEADER_FEATURE] = "FEATURE",
	[SAMPO_RECORD_COMPRESSED] = "COMPRESSED",
	[SAMPO_RECORD_FINISHED_INIT] = "FINISHED_INIT",
	[SAMPO_RECORD_COMPRESSED2] = "COMPRESSED2",
	[SAMPO_RECORD_BPF_METADATA] = "BPF_METADATA",
	[SAMPO_RECORD_SCHEDSTAT_CPU] = "SCHEDSTAT_CPU",
	[SAMPO_RECORD_SCHEDSTAT_DOMAIN] = "SCHEDSTAT_DOMAIN",
};

/* Smallest valid size of each record, header included (0: only the header). */
static const uint16_t record_min_size[SAMPO_RECORD_MAX] = {
	[SAMPO_RECORD_MMAP] = sizeof(struct sampo_record_mmap) + 1,
	[SAMPO_RECORD_LOST] = sizeof(struct sampo_record_lost),
	[SAMPO_RECORD_COMM] = sizeof(struct sampo_record_comm) + 1,
	[SAMPO_RECORD_EXIT] = sizeof(struct sampo_record_fork),
	[SAMPO_RECORD_THROTTLE] = sizeof(struct sampo_record_throttle),
	[SAMPO_RECORD_UNTHROTTLE] = sizeof(struct sampo_record_throttle),
	[SAMPO_RECORD_FORK] = sizeof(struct sampo_record_fork),
	[SAMPO_RECORD_READ] = sizeof(struct sampo_record_read) + 8,
	[SAMPO_RECORD_MMAP2] = sizeof(struct sampo_record_mmap2) + 1,
	[SAMPO_RECORD_AUX] = sizeof(struct sampo_record_aux),
	[SAMPO_RECORD_ITRACE_START] = sizeof(struct sampo_record_itrace_start),
	[SAMPO_RECORD_LOST_SAMPLES] = sizeof(struct sampo_record_lost_samples),
	[SAMPO_RECORD_SWITCH_CPU_WIDE] = sizeof(struct sampo_record_switch_cpu_wide),
	[SAMPO_RECORD_NAMESPACES] = sizeof(struct sampo_record_namespaces),
	[SAMPO_RECORD_KSYMBOL] = sizeof(struct sampo_record_ksymbol) + 1,
	[SAMPO_RECORD_BPF_EVENT] = sizeof(struct sampo_record_bpf_event),
	[SAMPO_RECORD_CGROUP] = sizeof(struct sampo_record_cgroup) + 1,
	[SAMPO_RECORD_TEXT_POKE] = offsetof(struct sampo_record_text_poke, bytes),
	[SAMPO_RECORD_AUX_OUTPUT_HW_ID] = sizeof(struct sampo_record_aux_output_hw_id),
	[SAMPO_RECORD_HEADER_ATTR] = 8 + SAMPO_ATTR_SIZE_VER0,
	[SAMPO_RECORD_HEADER_EVENT_TYPE] = sizeof(struct sampo_record_event_type),
	[SAMPO_RECORD_HEADER_TRACING_DATA] = sizeof(struct sampo_record_tracing_data),
	[SAMPO_RECORD_HEADER_BUILD_ID] = sizeof(struct sampo_record_build_id),
	[SAMPO_RECORD_ID_INDEX] = sizeof(struct sampo_record_id_index),
	[SAMPO_RECORD_AUXTRACE_INFO] = sizeof(struct sampo_record_auxtrace_info),
	[SAMPO_RECORD_AUXTRACE] = sizeof(struct sampo_record_auxtrace),
	[SAMPO_RECORD_AUXTRACE_ERROR] = offsetof(struct sampo_record_auxtrace_error, time),
	[SAMPO_RECORD_THREAD_MAP] = sizeof(struct sampo_record_thread_map),
	[SAMPO_RECORD_CPU_MAP] = offsetof(struct sampo_record_cpu_map, data),
	[SAMPO_RECORD_STAT_CONFIG] = sizeof(struct sampo_record_stat_config),
	[SAMPO_RECORD_STAT] = sizeof(struct sampo_record_stat),
	[SAMPO_RECORD_STAT_ROUND] = sizeof(struct sampo_record_stat_round),
	[SAMPO_RECORD_EVENT_UPDATE] = sizeof(struct sampo_record_event_update),
	[SAMPO_RECORD_TIME_CONV] = offsetof(struct sampo_record_time_conv, time_cycles),
	[SAMPO_RECORD_HEADER_FEATURE] = sizeof(struct sampo_record_feature),
	[SAMPO_RECORD_COMPRESSED2] = sizeof(struct sampo_record_compressed2),
};

const char *sampo_record__name(uint32_t type)
{
	return type < SAMPO_RECORD_MAX ? record_names[type] : NULL;
}

bool sampo_record__known(uint32_t type)
{
	return type < SAMPO_RECORD_MAX && record_names[type];
}

/* ---- byte swapping (file order -> host order), perf's rules ---------- */

static void swap_sample_id_all(union sampo_record *rec, const void *data)
{
	const uint8_t *start = (const uint8_t *)data;
	const uint8_t *end = (const uint8_t *)rec + rec->header.size;

	if (start < end)
		mem_bswap_64((void *)start, (size_t)(end - start));
}

static void swap_all64(union sampo_record *rec, bool sample_id_all)
{
	(void)sample_id_all;
	mem_bswap_64((uint8_t *)rec + 8, rec->header.size - 8u);
}

/* The end of a NUL-terminated string field rounded up to 8, bounded by the record. */
static const void *after_string(const union sampo_record *rec, const char *s)
{
	const char *end = (const char *)rec + rec->header.size;
	size_t n = strnlen(s, (size_t)(end - s));

	return s + ALIGN_UP(n + 1, 8);
}

static void swap_mmap(union sampo_record *rec, bool sample_id_all)
{
	struct sampo_record_mmap *m = &rec->mmap;

	BSWAP32_FIELD(m->pid);
	BSWAP32_FIELD(m->tid);
	BSWAP64_FIELD(m->start);
	BSWAP64_FIELD(m->len);
	BSWAP64_FIELD(m->pgoff);
	if (sample_id_all)
		swap_sample_id_all(rec, after_string(rec, m->filename));
}

static void swap_mmap2(union sampo_record *rec, bool sample_id_all)
{
	struct sampo_record_mmap2 *m = &rec->mmap2;

	BSWAP32_FIELD(m->pid);
	BSWAP32_FIELD(m->tid);
	BSWAP64_FIELD(m->start);
	BSWAP64_FIELD(m->len);
	BSWAP64_FIELD(m->pgoff);
	if (!(m->header.misc & SAMPO_MISC_MMAP_BUILD_ID)) {
		BSWAP32_FIELD(m->maj);
		BSWAP32_FIELD(m->min);
		BSWAP64_FIELD(m->ino);
		BSWAP64_FIELD(m->ino_generation);
	}
	BSWAP32_FIELD(m->prot);
	BSWAP32_FIELD(m->flags);
	if (sample_id_all)
		swap_sample_id_all(rec, after_string(rec, m->filename));
}

static void swap_comm(union sampo_record *rec, bool sample_id_all)
{
	BSWAP32_FIELD(rec->comm.pid);
	BSWAP32_FIELD(rec->comm.tid);
	if (sample_id_all)
		swap_sample_id_all(rec, after_string(rec, rec->comm.comm));
}

static void swap_task(union sampo_record *rec, bool sample_id_all)
{
	BSWAP32_FIELD(rec->fork.pid);
	BSWAP32_FIELD(rec->fork.tid);
	BSWAP32_FIELD(rec->fork.ppid);
	BSWAP32_FIELD(rec->fork.ptid);
	BSWAP64_FIELD(rec->fork.time);
	if (sample_id_all)
		swap_sample_id_all(rec, &rec->fork + 1);
}

/* perf's struct perf_record_read has a fixed value/enabled/running/id/lost part. */
static void swap_read(union sampo_record *rec, bool sample_id_all)
{
	size_t words = (rec->header.size - sizeof(struct sampo_record_read)) / 8;

	BSWAP32_FIELD(rec->read.pid);
	BSWAP32_FIELD(rec->read.tid);
	if (words > 5)
		words = 5;
	mem_bswap_64(rec->read.values, words * 8);
	if (sample_id_all)
		swap_sample_id_all(rec, &rec->read.values[words]);
}

static void swap_throttle(union sampo_record *rec, bool sample_id_all)
{
	BSWAP64_FIELD(rec->throttle.time);
	BSWAP64_FIELD(rec->throttle.id);
	BSWAP64_FIELD(rec->throttle.stream_id);
	if (sample_id_all)
		swap_sample_id_all(rec, &rec->throttle + 1);
}

static void swap_aux(union sampo_record *rec, bool sample_id_all)
{
	BSWAP64_FIELD(rec->aux.aux_offset);
	BSWAP64_FIELD(rec->aux.aux_size);
	BSWAP64_FIELD(rec->aux.flags);
	if (sample_id_all)
		swap_sample_id_all(rec, &rec->aux + 1);
}

static void swap_itrace_start(union sampo_record *rec, bool sample_id_all)
{
	BSWAP32_FIELD(rec->itrace_start.pid);
	BSWAP32_FIELD(rec->itrace_start.tid);
	if (sample_id_all)
		swap_sample_id_all(rec, &rec->itrace_start + 1);
}

static void swap_switch(union sampo_record *rec, bool sample_id_all)
{
	if (rec->header.type == SAMPO_RECORD_SWITCH_CPU_WIDE) {
		BSWAP32_FIELD(rec->context_switch.next_prev_pid);
		BSWAP32_FIELD(rec->context_switch.next_prev_tid);
	}
	if (sample_id_all) {
		if (rec->header.type == SAMPO_RECORD_SWITCH_CPU_WIDE)
			swap_sample_id_all(rec, &rec->context_switch + 1);
		else
			swap_sample_id_all(rec, &rec->header + 1);
	}
}

static void swap_namespaces(union sampo_record *rec, bool sample_id_all)
{
	struct sampo_record_namespaces *ns = &rec->namespaces;
	uint64_t nr, room;

	BSWAP32_FIELD(ns->pid);
	BSWAP32_FIELD(ns->tid);
	BSWAP64_FIELD(ns->nr_namespaces);
	room = (ns->header.size - sizeof(*ns)) / sizeof(ns->link_info[0]);
	nr = MIN(ns->nr_namespaces, room);
	for (uint64_t i = 0; i < nr; i++) {
		BSWAP64_FIELD(ns->link_info[i].dev);
		BSWAP64_FIELD(ns->link_info[i].ino);
	}
	if (sample_id_all)
		swap_sample_id_all(rec, &ns->link_info[nr]);
}

static void swap_cgroup(union sampo_record *rec, bool sample_id_all)
{
	BSWAP64_FIELD(rec->cgroup.id);
	if (sample_id_all)
		swap_sample_id_all(rec, after_string(rec, rec->cgroup.path));
}

static void swap_text_poke(union sampo_record *rec, bool sample_id_all)
{
	struct sampo_record_text_poke *tp = &rec->text_poke;

	BSWAP64_FIELD(tp->addr);
	BSWAP16_FIELD(tp->old_len);
	BSWAP16_FIELD(tp->new_len);
	if (sample_id_all) {
		size_t len = 4u + tp->old_len + tp->new_len;

		swap_sample_id_all(rec, (uint8_t *)&tp->old_len + ALIGN_UP(len, 8));
	}
}

/*
 * perf_event_attr: swap each field present in attr->size, then reverse the
 * bits of each byte of the flags word: a big-endian compiler allocates
 * bitfields from the most significant bit.
 */
static uint8_t reverse_bits(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

void sampo_attr__swap(struct sampo_event_attr *attr, size_t size)
{
#define HAS(f) (size >= offsetof(struct sampo_event_attr, f) + sizeof(attr->f))
#define SW(f, n)                                                                                   \
	do {                                                                                       \
		if (HAS(f))                                                                        \
			attr->f = bswap_##n(attr->f);                                              \
	} while (0)
	SW(type, 32);
	SW(size, 32);
	SW(config, 64);
	SW(sample_period, 64);
	SW(sample_type, 64);
	SW(read_format, 64);
	if (HAS(flags)) {
		uint8_t *p = (uint8_t *)&attr->flags;

		for (size_t i = 0; i < sizeof(attr->flags); i++)
			p[i] = reverse_bits(p[i]);
	}
	SW(wakeup_events, 32);
	SW(bp_type, 32);
	SW(config1, 64);
	SW(config2, 64);
	SW(branch_sample_type, 64);
	SW(sample_regs_user, 64);
	SW(sample_stack_user, 32);
	SW(clockid, 32);
	SW(sample_regs_intr, 64);
	SW(aux_watermark, 32);
	SW(sample_max_stack, 16);
	SW(aux_sample_size, 32);
	SW(sig_data, 64);
	SW(config3, 64);
#undef SW
#undef HAS
}

static void swap_header_attr(union sampo_record *rec, bool sample_id_all)
{
	size_t body = rec->header.size - 8u;
	uint32_t attr_size = bswap_32(rec->attr.attr.size);
	uint8_t *ids;

	(void)sample_id_all;
	if (attr_size > body)
		attr_size = (uint32_t)body;
	sampo_attr__swap(&rec->attr.attr, attr_size);
	ids = (uint8_t *)&rec->attr.attr + attr_size;
	mem_bswap_64(ids, body - attr_size);
}

static void swap_event_type(union sampo_record *rec, bool sample_id_all)
{
	(void)sample_id_all;
	BSWAP64_FIELD(rec->event_type.event_id);
}

static void swap_tracing_data(union sampo_record *rec, bool sample_id_all)
{
	(void)sample_id_all;
	BSWAP32_FIELD(rec->tracing_data.size);
}

static void swap_build_id(union sampo_record *rec, bool sample_id_all)
{
	(void)sample_id_all;
	rec->build_id.pid = (int32_t)bswap_32((uint32_t)rec->build_id.pid);
}

static void swap_auxtrace_info(union sampo_record *rec, bool sample_id_all)
{
	(void)sample_id_all;
	BSWAP32_FIELD(rec->auxtrace_info.type);
	mem_bswap_64(rec->auxtrace_info.priv, rec->header.size - sizeof(rec->auxtrace_info));
}

static void swap_auxtrace(union sampo_record *rec, bool sample_id_all)
{
	(void)sample_id_all;
	BSWAP64_FIELD(rec->auxtrace.size);
	BSWAP64_FIELD(rec->auxtrace.offset);
	BSWAP64_FIELD(rec->auxtrace.reference);
	BSWAP32_FIELD(rec->auxtrace.idx);
	BSWAP32_FIELD(rec->auxtrace.tid);
	BSWAP32_FIELD(rec->auxtrace.cpu);
}

static void swap_auxtrace_error(union sampo_record *rec, bool sample_id_all)
{
	struct sampo_record_auxtrace_error *e = &rec->auxtrace_error;

	(void)sample_id_all;
	BSWAP32_FIELD(e->type);
	BSWAP32_FIELD(e->code);
	BSWAP32_FIELD(e->cpu);
	BSWAP32_FIELD(e->pid);
	BSWAP32_FIELD(e->tid);
	BSWAP32_FIELD(e->fmt);
	BSWAP64_FIELD(e->ip);
	if (e->fmt >= 2 && e->header.size >= sizeof(*e)) {
		BSWAP64_FIELD(e->time);
		BSWAP32_FIELD(e->machine_pid);
		BSWAP32_FIELD(e->vcpu);
	}
}

static void swap_thread_map(union sampo_record *rec, bool sample_id_all)
{
	struct sampo_record_thread_map *tm = &rec->thread_map;
	uint64_t room = (tm->header.size - sizeof(*tm)) / sizeof(tm->entries[0]);

	(void)sample_id_all;
	BSWAP64_FIELD(tm->nr);
	for (uint64_t i = 0; i < MIN(tm->nr, room); i++)
		BSWAP64_FIELD(tm->entries[i].pid);
}

/*
 * CPU_MAP data: CPUS {u16 nr; u16 cpu[nr]}, MASK {u16 nr; u16 long_size;
 * u32/u64 words}, RANGE_CPUS {u8 any; u8 pad; u16 start; u16 end}.
 */
static void swap_cpu_map_data(uint8_t *data, size_t size)
{
	uint16_t type, nr, long_size;

	if (size < 2)
		return;
	type = bswap_16(load_u16(data));
	memcpy(data, &type, 2);
	data += 2;
	size -= 2;
	switch (type) {
	case SAMPO_CPU_MAP_CPUS:
		if (size < 2)
			return;
		nr = bswap_16(load_u16(data));
		memcpy(data, &nr, 2);
		for (size_t i = 0; i < nr && 2 + 2 * (i + 1) <= size; i++) {
			uint16_t c = bswap_16(load_u16(data + 2 + 2 * i));

			memcpy(data + 2 + 2 * i, &c, 2);
		}
		break;
	case SAMPO_CPU_MAP_MASK:
		if (size < 4)
			return;
		nr = bswap_16(load_u16(data));
		long_size = bswap_16(load_u16(data + 2));
		memcpy(data, &nr, 2);
		memcpy(data + 2, &long_size, 2);
		if (long_size == 4) {
			for (size_t i = 0; i < nr && 4 + 4 * (i + 1) <= size; i++) {
				uint32_t w = bswap_32(load_u32(data + 4 + 4 * i));

				memcpy(data + 4 + 4 * i, &w, 4);
			}
		} else if (long_size == 8) {
			/* u16 nr, u16 long_size, u32 pad, then the u64 words */
			for (size_t i = 0; i < nr && 8 + 8 * (i + 1) <= size; i++) {
				uint64_t w = bswap_64(load_u64(data + 8 + 8 * i));

				memcpy(data + 8 + 8 * i, &w, 8);
			}
		}
		break;
	case SAMPO_CPU_MAP_RANGE_CPUS:
		if (size < 6)
			return;
		for (size_t off = 2; off < 6; off += 2) {
			uint16_t c = bswap_16(load_u16(data + off));

			memcpy(data + off, &c, 2);
		}
		break;
	default:
		break;
	}
}

static void swap_cpu_map(union sampo_record *rec, bool sample_id_all)
{
	(void)sample_id_all;
	swap_cpu_map_data((uint8_t *)&rec->cpu_map.type, rec->header.size - 8u);
}

static void swap_stat(union sampo_record *rec, bool sample_id_all)
{
	(void)sample_id_all;
	BSWAP64_FIELD(rec->stat.id);
	BSWAP32_FIELD(rec->stat.cpu);
	BSWAP32_FIELD(rec->stat.thread);
	BSWAP64_FIELD(rec->stat.val);
	BSWAP64_FIELD(rec->stat.ena);
	BSWAP64_FIELD(rec->stat.run);
}

static void swap_event_update(union sampo_record *rec, bool sample_id_all)
{
	(void)sample_id_all;
	BSWAP64_FIELD(rec->event_update.type);
	BSWAP64_FIELD(rec->event_update.id);
}

static void swap_feature(union sampo_record *rec, bool sample_id_all)
{
	(void)sample_id_all;
	BSWAP64_FIELD(rec->feature.feat_id);
}

static void swap_compressed2(union sampo_record *rec, bool sample_id_all)
{
	(void)sample_id_all;
	BSWAP64_FIELD(rec->compressed2.data_size);
}

typedef void (*swap_fn)(union sampo_record *rec, bool sample_id_all);

static const swap_fn swap_ops[SAMPO_RECORD_MAX] = {
	[SAMPO_RECORD_MMAP] = swap_mmap,
	[SAMPO_RECORD_LOST] = swap_all64,
	[SAMPO_RECORD_COMM] = swap_comm,
	[SAMPO_RECORD_EXIT] = swap_task,
	[SAMPO_RECORD_THROTTLE] = swap_throttle,
	[SAMPO_RECORD_UNTHROTTLE] = swap_throttle,
	[SAMPO_RECORD_FORK] = swap_task,
	[SAMPO_RECORD_READ] = swap_read,
	[SAMPO_RECORD_SAMPLE] = swap_all64,
	[SAMPO_RECORD_MMAP2] = swap_mmap2,
	[SAMPO_RECORD_AUX] = swap_aux,
	[SAMPO_RECORD_ITRACE_START] = swap_itrace_start,
	[SAMPO_RECORD_LOST_SAMPLES] = swap_all64,
	[SAMPO_RECORD_SWITCH] = swap_switch,
	[SAMPO_RECORD_SWITCH_CPU_WIDE] = swap_switch,
	[SAMPO_RECORD_NAMESPACES] = swap_namespaces,
	[SAMPO_RECORD_CGROUP] = swap_cgroup,
	[SAMPO_RECORD_TEXT_POKE] = swap_text_poke,
	[SAMPO_RECORD_AUX_OUTPUT_HW_ID] = swap_all64,
	[SAMPO_RECORD_HEADER_ATTR] = swap_header_attr,
	[SAMPO_RECORD_HEADER_EVENT_TYPE] = swap_event_type,
	[SAMPO_RECORD_HEADER_TRACING_DATA] = swap_tracing_data,
	[SAMPO_RECORD_HEADER_BUILD_ID] = swap_build_id,
	[SAMPO_RECORD_ID_INDEX] = swap_all64,
	[SAMPO_RECORD_AUXTRACE_INFO] = swap_auxtrace_info,
	[SAMPO_RECORD_AUXTRACE] = swap_auxtrace,
	[SAMPO_RECORD_AUXTRACE_ERROR] = swap_auxtrace_error,
	[SAMPO_RECORD_THREAD_MAP] = swap_thread_map,
	[SAMPO_RECORD_CPU_MAP] = swap_cpu_map,
	[SAMPO_RECORD_STAT_CONFIG] = swap_all64,
	[SAMPO_RECORD_STAT] = swap_stat,
	[SAMPO_RECORD_STAT_ROUND] = swap_all64,
	[SAMPO_RECORD_EVENT_UPDATE] = swap_event_update,
	[SAMPO_RECORD_TIME_CONV] = swap_all64,
	[SAMPO_RECORD_HEADER_FEATURE] = swap_feature,
	[SAMPO_RECORD_COMPRESSED2] = swap_compressed2,
};

void sampo_record__swap(union sampo_record *rec, bool sample_id_all)
{
	uint32_t type = rec->header.type;

	if (type < SAMPO_RECORD_MAX && swap_ops[type])
		swap_ops[type](rec, sample_id_all);
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
	const char *name = sampo_record__name(type);

	if (type >= SAMPO_RECORD_MAX || !name)
		return 0; /* unknown: skipped by its size */
	if (size < record_min_size[type])
		return bad(why, why_sz, "%s record of %zu bytes is shorter than its %u-byte minimum",
			   name, size, record_min_size[type]);

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
		const uint8_t *d = rec->cpu_map.data;
		size_t room = size - offsetof(struct sampo_record_cpu_map, data);

		if (rec->cpu_map.type == SAMPO_CPU_MAP_CPUS) {
			if (room < 2 || 2 + 2 * (size_t)load_u16(d) > room)
				return bad(why, why_sz, "CPU_MAP cpu list runs past the record");
		} else if (rec->cpu_map.type == SAMPO_CPU_MAP_MASK) {
			uint16_t ls;

			if (room < 4)
				return bad(why, why_sz, "CPU_MAP mask runs past the record");
			ls = load_u16(d + 2);
			if (ls != 4 && ls != 8)
				return bad(why, why_sz, "CPU_MAP mask word size %u is not 4 or 8", ls);
			if ((ls == 4 ? 4 : 8) + (size_t)ls * load_u16(d) > room)
				return bad(why, why_sz, "CPU_MAP mask runs past the record");
		} else if (rec->cpu_map.type == SAMPO_CPU_MAP_RANGE_CPUS) {
			if (room < 6)
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
