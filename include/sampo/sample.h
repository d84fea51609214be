/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * sample.h - a PERF_RECORD_SAMPLE body, or the sample_id trailer of any other
 * kernel record, decoded into fields.
 *
 * Like event.h this is a plain public struct: it is a view of the record.
 * Pointer fields point into the record they were decoded from and live as
 * long as it does (until the reader's next call).
 */
#ifndef SAMPO_SAMPLE_H
#define SAMPO_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_event_attr;

struct sampo_branch_entry {
	uint64_t from;
	uint64_t to;
	uint64_t flags; /* mispred, predicted, in_tx, abort, cycles:16, type:4, ... */
};

struct sampo_regs {
	uint64_t abi; /* 0 none, 1 32-bit, 2 64-bit */
	uint64_t mask;
	const uint64_t *regs; /* popcount(mask) values, or NULL when abi == 0 */
};

struct sampo_sample {
	uint64_t sample_type; /* which fields below are valid */
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid; /* (u32)-1 when absent */
	uint64_t time;	   /* (u64)-1 when absent */
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu; /* (u32)-1 when absent */
	uint64_t period;
	/* PERF_SAMPLE_READ: the raw read_format words, decoded on demand */
	const uint64_t *read_values;
	size_t read_nr_words;
	/* PERF_SAMPLE_CALLCHAIN */
	uint64_t callchain_nr;
	const uint64_t *callchain;
	/* PERF_SAMPLE_RAW */
	uint32_t raw_size;
	const uint8_t *raw_data;
	/* PERF_SAMPLE_BRANCH_STACK */
	uint64_t branch_nr;
	uint64_t branch_hw_idx; /* -1 when the attr lacks BRANCH_HW_INDEX */
	bool branch_has_hw_idx;
	const struct sampo_branch_entry *branch;
	struct sampo_regs user_regs;
	/* PERF_SAMPLE_STACK_USER */
	uint64_t user_stack_size;
	const uint8_t *user_stack;
	uint64_t user_stack_dyn_size;
	uint64_t weight; /* WEIGHT, or var1_dw of WEIGHT_STRUCT */
	uint16_t ins_lat; /* WEIGHT_STRUCT var2_w */
	uint16_t p_stage_cyc; /* WEIGHT_STRUCT var3_w */
	uint64_t data_src;
	uint64_t transaction;
	struct sampo_regs intr_regs;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	uint64_t aux_size;
	const uint8_t *aux_data;
	uint8_t cpumode; /* header.misc & SAMPO_MISC_CPUMODE_MASK */
	uint16_t misc;
};

/**
 * sampo_sample__user_stack_offset() - where the STACK_USER size word sits in
 * the SAMPLE record @s was decoded from (perf's user_stack.offset, which
 * `perf report -D` prints as "... ustack: size N, offset 0x...")
 * @attr: the attr the record was decoded with
 * @s: the record's fields, from sampo_sample__parse()
 *
 * The offset counts from the record header and is computed the way perf
 * 6.1's parser walks the record, so it is perf's number also where that walk
 * differs from the kernel's layout: no padding after the RAW data.
 *
 * Return: the byte offset, or 0 when @attr does not sample STACK_USER.
 */
SAMPO_API uint64_t sampo_sample__user_stack_offset(const struct sampo_event_attr *attr,
						   const struct sampo_sample *s);

#endif /* SAMPO_SAMPLE_H */
