// SPDX-License-Identifier: LGPL-2.1
/*
 * regs.c - names of the sampled registers (include/sampo/regs.h).
 *
 * One table per architecture family, copied from perf 6.1's
 * perf_reg_name() (tools/perf/util/perf_regs.c): the index is the
 * architecture's perf_event_*_regs enum, i.e. the bit number in the
 * sample's register mask. Holes stay NULL so that they print "unknown"
 * like an index past the table. On x86, slots 32..63 are the XMM registers,
 * two 64-bit halves each, and both halves carry the register's name.
 */
#include <stddef.h>
#include <string.h>

#include <sampo/regs.h>

#include "internal/util.h"

static const char *regs_name_x86(unsigned int id)
{
	static const char *const names[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP",  "SP",  "IP",	 "FLAGS", "CS",	 "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13",	  "R14", "R15",
	};
	static const char *const xmm[] = {
		"XMM0", "XMM1", "XMM2",	 "XMM3",  "XMM4",  "XMM5",  "XMM6",  "XMM7",
		"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};

	if (id < ARRAY_SIZE(names))
		return names[id];
	if (id >= 32 && id < 64)
		return xmm[(id - 32) / 2];
	return NULL;
}

static const char *regs_name_arm64(unsigned int id)
{
	static const char *const names[] = {
		"x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",	 "x7",	"x8",  "x9",  "x10",
		"x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21",
		"x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "lr",  "sp",  "pc",
	};

	if (id < ARRAY_SIZE(names))
		return names[id];
	return id == 46 ? "vg" : NULL;
}

static const char *regs_name_arm(unsigned int id)
{
	static const char *const names[] = {
		"r0", "r1", "r2",  "r3", "r4", "r5", "r6", "r7",
		"r8", "r9", "r10", "fp", "ip", "sp", "lr", "pc",
	};

	return id < ARRAY_SIZE(names) ? names[id] : NULL;
}

static const char *regs_name_csky(unsigned int id)
{
	/*
	 * The kernel's enum perf_event_csky_regs: TLS, LR, PC, SR, SP, ORIG_A0,
	 * A0-A3, REGS0-9, then ABIv2's EXREGS0-14, HI, LO, DCSR, which perf
	 * names only when built for csky ABIv2 itself (not here, as perf on x86)
	 */
	static const char *const names[] = {
		NULL,	 "lr",	  "pc",	   NULL,    "sp",    NULL,    "a0",
		"a1",	 "a2",	  "a3",	   "regs0", "regs1", "regs2", "regs3",
		"regs4", "regs5", "regs6", "regs7", "regs8", "regs9",
	};

	return id < ARRAY_SIZE(names) ? names[id] : NULL;
}

static const char *regs_name_mips(unsigned int id)
{
	static const char *const names[] = {
		"PC",  "$1",  "$2",  "$3",  "$4",  "$5",  "$6",	 "$7",	"$8",  "$9",  "$10",
		"$11", "$12", "$13", "$14", "$15", "$16", "$17", "$18", "$19", "$20", "$21",
		"$22", "$23", "$24", "$25", NULL,  NULL,  "$28", "$29", "$30", "$31",
	};

	return id < ARRAY_SIZE(names) ? names[id] : NULL;
}

static const char *regs_name_powerpc(unsigned int id)
{
	static const char *const names[] = {
		"r0",	 "r1",	  "r2",	   "r3",    "r4",    "r5",    "r6",    "r7",	  "r8",
		"r9",	 "r10",	  "r11",   "r12",   "r13",   "r14",   "r15",   "r16",	  "r17",
		"r18",	 "r19",	  "r20",   "r21",   "r22",   "r23",   "r24",   "r25",	  "r26",
		"r27",	 "r28",	  "r29",   "r30",   "r31",   "nip",   "msr",   "orig_r3", "ctr",
		"link",	 "xer",	  "ccr",   "softe", "trap",  "dar",   "dsisr", "sier",	  "mmcra",
		"mmcr0", "mmcr1", "mmcr2", "mmcr3", "sier2", "sier3", "pmc1",  "pmc2",	  "pmc3",
		"pmc4",	 "pmc5",  "pmc6",  "sdar",  "siar",
	};

	return id < ARRAY_SIZE(names) ? names[id] : NULL;
}

static const char *regs_name_riscv(unsigned int id)
{
	static const char *const names[] = {
		"pc", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
		"a1", "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
		"s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
	};

	return id < ARRAY_SIZE(names) ? names[id] : NULL;
}

static const char *regs_name_s390(unsigned int id)
{
	static const char *const names[] = {
		"R0",	"R1",	"R2",	"R3",	"R4",	"R5",	"R6",  "R7",  "R8",
		"R9",	"R10",	"R11",	"R12",	"R13",	"R14",	"R15", "FP0", "FP1",
		"FP2",	"FP3",	"FP4",	"FP5",	"FP6",	"FP7",	"FP8", "FP9", "FP10",
		"FP11", "FP12", "FP13", "FP14", "FP15", "MASK", "PC",
	};

	return id < ARRAY_SIZE(names) ? names[id] : NULL;
}

const char *sampo_reg__name(const char *arch, unsigned int id)
{
	const char *name = NULL;

	if (!strcmp(arch, "csky"))
		name = regs_name_csky(id);
	else if (!strcmp(arch, "mips"))
		name = regs_name_mips(id);
	else if (!strcmp(arch, "powerpc"))
		name = regs_name_powerpc(id);
	else if (!strcmp(arch, "riscv"))
		name = regs_name_riscv(id);
	else if (!strcmp(arch, "s390"))
		name = regs_name_s390(id);
	else if (!strcmp(arch, "x86"))
		name = regs_name_x86(id);
	else if (!strcmp(arch, "arm"))
		name = regs_name_arm(id);
	else if (!strcmp(arch, "arm64"))
		name = regs_name_arm64(id);
	return name ? name : "unknown";
}

uint64_t sampo_reg__user_mask(void)
{
#if defined(__x86_64__)
	/* PERF_REG_X86_64_MAX bits less DS, ES, FS, GS (12..15) */
	return ((1ULL << 24) - 1) & ~(0xfULL << 12);
#elif defined(__aarch64__)
	return (1ULL << 33) - 1; /* PERF_REG_ARM64_MAX */
#else
	return 0;
#endif
}

uint64_t sampo_reg__dwarf_minimal_mask(void)
{
#if defined(__x86_64__)
	return (1ULL << 7) | (1ULL << 8); /* PERF_REG_X86_SP, PERF_REG_X86_IP */
#elif defined(__aarch64__)
	return (1ULL << 31) | (1ULL << 32); /* PERF_REG_ARM64_SP, PERF_REG_ARM64_PC */
#else
	return 0;
#endif
}
