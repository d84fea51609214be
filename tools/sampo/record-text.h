/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-text.h - the text perf prints of a side-band kernel record after its
 * "PERF_RECORD_<NAME>" (perf_event__fprintf()'s bodies): the same in
 * `sampo dump` (perf report -D) and in `sampo script --show-*-events`.
 *
 *	ob_puts(&ob, "PERF_RECORD_MMAP2");
 *	record_text__body(&ob, rec);	// " 11066/11066: [0x55e8a7025000(0x13000) @ ..."
 */
#ifndef SAMPO_RECORD_TEXT_H
#define SAMPO_RECORD_TEXT_H

#include <stdbool.h>

#include <sampo/event.h>

#include "outbuf.h"

/*
 * record_text__body() - the details of MMAP, MMAP2, COMM, FORK, EXIT,
 * NAMESPACES, SWITCH, SWITCH_CPU_WIDE, CGROUP, KSYMBOL and BPF_EVENT, to the
 * end of the line ('\n' included); strings are bounded by the record
 * Return: false, with nothing printed, for the other types
 */
bool record_text__body(struct outbuf *ob, const union sampo_record *rec);

/* record_text__str() - a NUL-terminated string field at @s of @rec, bounded by the record */
void record_text__str(struct outbuf *ob, const union sampo_record *rec, const char *s);

/*
 * record_text__branch_type() - perf 6.1's name of a branch stack entry's
 * type (get_branch_type(): "" when unknown, the new types of EXTEND_ABI),
 * from its flags (struct perf_branch_entry's bitfields, little-endian: type
 * in bits 20-23, new_type in 26-29)
 */
const char *record_text__branch_type(uint64_t flags);

#endif /* SAMPO_RECORD_TEXT_H */
