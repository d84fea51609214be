/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * trace-data.h - the tracing data of a recording with tracepoints: the
 * formats of its events, read with libtraceevent as perf reads them
 * (trace-event-read.c), to name tracepoint events ("sched:sched_switch")
 * and print their samples' raw data as perf script's `trace` field.
 *
 * The bytes are the HEADER_TRACING_DATA feature section (file mode) or the
 * payload of a PERF_RECORD_HEADER_TRACING_DATA record (pipe mode):
 *
 *	"\027\010\104tracing" version\0 big-endian(u8) long-size(u8) page-size(u32)
 *	"header_page\0" u64 size, bytes      (the ring buffer's page header)
 *	"header_event\0" u64 size, bytes
 *	u32 count, count x (u64 size, bytes)  ftrace's own event formats
 *	u32 systems, systems x (name\0, u32 count, count x (u64 size, bytes))
 *	u32 size, bytes                       /proc/kallsyms (skipped)
 *	u32 size, bytes                       printk formats
 *	u64 size, bytes                       saved cmdlines (version 0.6 on)
 *
 * numbers in the recording machine's byte order. Damage (a length past the
 * end, a bad tag) stops the reading there: what was read before it is kept
 * and the error says where.
 */
#ifndef SAMPO_TRACE_DATA_H
#define SAMPO_TRACE_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_trace_data;

/**
 * sampo_trace_data__parse() - read the tracing data in @buf
 * @ret: set to the formats read (also on damage: those before it)
 * @err_offset: on damage, where in @buf (may be NULL)
 * @errbuf: on damage, what is wrong there
 *
 * Return: 0; -SAMPO_ERR_MALFORMED on damage (*ret still set, to what was
 * read before); -ENOMEM.
 */
SAMPO_API int sampo_trace_data__parse(const void *buf, size_t size, struct sampo_trace_data **ret,
				      size_t *err_offset, char *errbuf, size_t errbuf_sz);

SAMPO_API void sampo_trace_data__delete(struct sampo_trace_data *td);

/** sampo_trace_data__nr_events() - how many event formats were read */
SAMPO_API size_t sampo_trace_data__nr_events(const struct sampo_trace_data *td);

/**
 * sampo_trace_data__event_name() - "system:name" of the tracepoint of id
 * @config (a PERF_TYPE_TRACEPOINT attr's config), NULL when unknown
 */
SAMPO_API const char *sampo_trace_data__event_name(struct sampo_trace_data *td, uint64_t config);

/**
 * sampo_trace_func_fn - names a kernel address for the print formats' %ps
 * and %pS (perf's machine__resolve_kernel_addr()): returns the symbol's name
 * (borrowed, valid until the next call) and sets *@start to its address, or
 * returns NULL to print the address in hex
 */
typedef const char *(*sampo_trace_func_fn)(void *priv, uint64_t addr, uint64_t *start);

/** sampo_trace_data__set_resolver() - kernel addresses named by @fn from now on (NULL: none) */
SAMPO_API void sampo_trace_data__set_resolver(struct sampo_trace_data *td, sampo_trace_func_fn fn,
					      void *priv);

/**
 * sampo_trace_data__format() - a sample's raw data (PERF_SAMPLE_RAW) as
 * perf script's trace field prints it (tep_print_event's INFO)
 * @ret: set to the text, malloc'ed, which the caller frees
 *
 * Return: 0; -ENOENT when the event of @config has no format; -ENOMEM.
 */
SAMPO_API int sampo_trace_data__format(struct sampo_trace_data *td, uint64_t config, int cpu,
				       const void *raw, size_t raw_size, char **ret);

/**
 * sampo_trace_data__format_fields() - the raw data as its fields, each
 * " name=value" with no print format (perf's --raw-trace, tep_print_fields())
 *
 * Return: as sampo_trace_data__format().
 */
SAMPO_API int sampo_trace_data__format_fields(struct sampo_trace_data *td, uint64_t config, int cpu,
					      const void *raw, size_t raw_size, char **ret);

/* one field of a tracepoint's format */
struct sampo_trace_field {
	const char *name; /* borrowed from the tracing data */
	uint32_t offset, size;
	bool is_string;	  /* char[] or a dynamic string */
	bool is_dynamic;  /* __data_loc: a u32 at offset gives the bytes' place and length */
	bool is_relative; /* __rel_loc: that place counts from the field's end */
	bool is_common;	  /* common_pid, ...: in every event */
};

/** sampo_trace_data__nr_fields() - the fields of event @config, common ones aside */
SAMPO_API size_t sampo_trace_data__nr_fields(struct sampo_trace_data *td, uint64_t config);

/** sampo_trace_data__field_at() - field @i of those; -ENOENT past the last */
SAMPO_API int sampo_trace_data__field_at(struct sampo_trace_data *td, uint64_t config, size_t i,
					 struct sampo_trace_field *ret);

/**
 * sampo_trace_data__find_field() - the field named @name, a common one
 * (common_pid, ...) first, as tep_find_any_field(); -ENOENT: none
 */
SAMPO_API int sampo_trace_data__find_field(struct sampo_trace_data *td, uint64_t config,
					   const char *name, struct sampo_trace_field *ret);

/**
 * sampo_trace_data__format_field() - one field of the raw data as
 * libtraceevent prints it alone (tep_print_field(): numbers in decimal or
 * hex, strings as they are)
 *
 * Return: as sampo_trace_data__format(); -ENOENT also for no such field.
 */
SAMPO_API int sampo_trace_data__format_field(struct sampo_trace_data *td, uint64_t config,
					     const char *name, const void *raw, size_t raw_size,
					     char **ret);

/**
 * sampo_trace_data__field_bytes() - where @field's bytes are in @raw: its
 * place in the record, or for a dynamic one the place its u32 gives
 *
 * Return: false when they do not lie within @raw_size bytes.
 */
SAMPO_API bool sampo_trace_data__field_bytes(struct sampo_trace_data *td,
					     const struct sampo_trace_field *field, const void *raw,
					     size_t raw_size, const uint8_t **ret, size_t *ret_len);

#endif
