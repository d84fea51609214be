/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * regs.h - names of the sampled registers (PERF_SAMPLE_REGS_USER/_INTR):
 * bit i of a sample's register mask is register i of the recording
 * machine's architecture, named as perf 6.1's perf_reg_name() names it.
 */
#ifndef SAMPO_REGS_H
#define SAMPO_REGS_H

#include <stdint.h>

#include <sampo/common.h>

/**
 * sampo_reg__name() - perf 6.1's perf_reg_name(@idx, @arch): the name of
 * register @idx (a bit number of the sample's register mask) on @arch
 *
 * @arch is an architecture family as sampo_arch__normalize() returns it
 * ("x86", "arm64", "arm", "powerpc", "riscv", "s390", "mips", "csky").
 *
 * Return: a static string; "unknown" for an index the architecture does not
 * name, or for an architecture perf has no table for (as perf prints it).
 */
SAMPO_API const char *sampo_reg__name(const char *arch, unsigned int idx);

/**
 * sampo_reg__user_mask() - perf's PERF_REGS_MASK for this build's
 * architecture: the user registers `--call-graph dwarf` samples
 *
 * x86_64: 0xff0fff (every general register and IP, FLAGS, CS, SS; not the
 * DS, ES, FS and GS segments nor the XMM registers); arm64: x0-x30, sp, pc.
 * Return: the mask, or 0 where sampo cannot unwind (no DWARF recording).
 */
SAMPO_API uint64_t sampo_reg__user_mask(void);

/**
 * sampo_reg__dwarf_minimal_mask() - perf's DWARF_MINIMAL_REGS: the stack
 * pointer and the instruction pointer, which `--call-graph dwarf` adds to
 * the registers --user-regs names (x86_64: SP, IP; arm64: sp, pc)
 * Return: the mask, or 0 where sampo cannot unwind.
 */
SAMPO_API uint64_t sampo_reg__dwarf_minimal_mask(void);

#endif /* SAMPO_REGS_H */
