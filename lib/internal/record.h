/* SPDX-License-Identifier: LGPL-2.1 */
/* record.h - per-record-type knowledge shared by the reader and the writer */
#ifndef SAMPO_INTERNAL_RECORD_H
#define SAMPO_INTERNAL_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include <sampo/event.h>

/* The type has a name in the table (known to this version of sampo). */
bool sampo_record__known(uint32_t type);

/*
 * Swap a record read from an opposite-endian file into host order, in place,
 * exactly as perf 6.1 does (see record.c). The record must be 8-byte aligned
 * and validated for its size.
 */
void sampo_record__swap(union sampo_record *rec, bool sample_id_all);

/* Swap the first @size bytes of an attr from file order (bitfields included). */
void sampo_attr__swap(struct sampo_event_attr *attr, size_t size);

/*
 * Check that a host-order record's variable parts fit in header.size (strings
 * terminated, counts within the record). Return 0 or -SAMPO_ERR_MALFORMED
 * with the reason in @why.
 */
int sampo_record__validate(const union sampo_record *rec, char *why, size_t why_sz);

#endif
