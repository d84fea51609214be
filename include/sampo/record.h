/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * record.h - what libsampo knows about each record type beyond event.h's
 * structs: its fields by name, and the decoding of the packed cpu maps.
 * lib/record.c has the one description of every type these come from.
 */
#ifndef SAMPO_RECORD_H
#define SAMPO_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include <sampo/common.h>
#include <sampo/event.h>

/*
 * perf 6.1's PERF_RECORD_HEADER_MAX: its names (perf_event__names[]) and
 * its dump's "Aggregated stats" stop before this type.
 */
#define SAMPO_RECORD_PERF_MAX 83

/**
 * sampo_record__perf_name() - perf 6.1's perf_event__name(): the name its
 * dump and its "Aggregated stats" give record type @type
 *
 * Newer perfs name more types than 6.1, and sampo_record__name() knows some
 * of them; this is the 6.1 view, which `sampo dump` reproduces.
 *
 * Return: a static string: "TOTAL" for 0 (the stats' slot for all records),
 * the type's name for a type perf 6.1 knows, "UNKNOWN" for a type below
 * SAMPO_RECORD_PERF_MAX that it does not, "INVALID" from there on.
 */
SAMPO_API const char *sampo_record__perf_name(uint32_t type);

/**
 * sampo_record__perf_known() - perf 6.1's perf_event__names[] has an entry
 * for @type (0, its "TOTAL", included): sampo_record__perf_name() gives
 * neither "UNKNOWN" nor "INVALID"
 */
SAMPO_API bool sampo_record__perf_known(uint32_t type);

/**
 * sampo_record__simpleperf_name() - the name of one of Android simpleperf's
 * own record types (SAMPO_SIMPLEPERF_RECORD_*): "KERNEL_SYMBOL", "DSO",
 * "SYMBOL", "SPLIT", "SPLIT_END", "EVENT_ID", "CALLCHAIN",
 * "UNWINDING_RESULT", "TRACING_DATA", "DEBUG"
 *
 * Return: a static string, or NULL for any other type.
 */
SAMPO_API const char *sampo_record__simpleperf_name(uint32_t type);

/**
 * sampo_record__field() - read a fixed field of a host-order record by name
 * @rec: the record (header.size bytes are readable)
 * @name: perf's name of the field: "pid", "time_enabled", "hw_id", ...
 *        (the field names of event.h's structs; READ's values are "value",
 *        "time_enabled", "time_running", "id" and "lost", perf's fixed
 *        struct perf_record_read whatever the read_format)
 * @ret_value: on success, the field's value, zero-extended to 64 bits
 *
 * Return: 0; -ENOENT when the record's type has no field of that name;
 * -ERANGE when the record is too short to hold it.
 */
SAMPO_API int sampo_record__field(const union sampo_record *rec, const char *name,
				  uint64_t *ret_value);

/**
 * sampo_cpu_map__decode() - the cpus of a cpu map, as perf's cpu_map__new_data()
 * @data: cpu map data from its u16 type on (CPU_MAP: &rec->cpu_map.type;
 *        EVENT_UPDATE of type CPUS: its data), host order
 * @size: bytes of @data
 * @ret_cpus: on success, the cpus in the map's order, -1 for "any cpu";
 *            free() it
 * @ret_nr: on success, the number of cpus
 *
 * Words or cpus that do not fit in @size are left out; a mask of another
 * word size than 4 or 8 gives no cpus.
 *
 * Return: 0; -EINVAL for an unknown type or data too short for its type;
 * -ENOMEM.
 */
SAMPO_API int sampo_cpu_map__decode(const void *data, size_t size, int **ret_cpus,
				    size_t *ret_nr);

/**
 * sampo_cpu_map__snprint() - perf 6.1's cpu_map__snprint(): @cpus as a list
 * of runs, "0-3,8,10-11", in their order
 * @cpus: the cpus, as sampo_cpu_map__decode() gives them
 * @nr: how many
 * @buf: the text, always NUL-terminated when @size > 0
 * @size: bytes of @buf
 *
 * A run is a sequence of cpus that each add one. An empty map prints "-1",
 * as perf does. A list longer than @buf is cut short there, where perf
 * would write past its buffer (`perf report -D` gives it 1024 bytes).
 *
 * Return: the length of the text in @buf.
 */
SAMPO_API size_t sampo_cpu_map__snprint(const int *cpus, size_t nr, char *buf, size_t size);

#endif
