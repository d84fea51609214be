/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/record.h - per-record-type knowledge shared by the reader and the
 * writer, all from the one description table of lib/record.c
 */
#ifndef SAMPO_INTERNAL_RECORD_H
#define SAMPO_INTERNAL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/event.h>

/* The type has a description (known to this version of sampo). */
bool sampo_record__known(uint32_t type);

/* Smallest valid size of a record of @type, header included (0: unknown or just a header). */
size_t sampo_record__min_size(uint32_t type);

/*
 * Swap a record read from an opposite-endian file into host order, in place,
 * exactly as perf 6.1 does (see record.c). The header must be in host order
 * already; nothing past header.size is touched.
 */
void sampo_record__swap(union sampo_record *rec, bool sample_id_all);

/*
 * Convert the fields and variable parts of the host-order record @rec (any
 * alignment) into the opposite byte order, for a file written in it: the
 * first @body_size bytes, its sample_id trailer excluded. The header is left
 * in host order, and a SAMPLE's body is the writer's (it needs the attr).
 */
void sampo_record__convert(void *rec, size_t body_size);

/* Swap the first @size bytes of an attr between byte orders (bitfields included). */
void sampo_attr__swap(struct sampo_event_attr *attr, size_t size);

/* @b with its bits in the opposite order: attr.flags across byte orders. */
uint8_t sampo_reverse_bits(uint8_t b);

/*
 * Check that a host-order record's variable parts fit in header.size (strings
 * terminated, counts within the record). Return 0 or -SAMPO_ERR_MALFORMED
 * with the reason in @why.
 */
int sampo_record__validate(const union sampo_record *rec, char *why, size_t why_sz);

#endif
