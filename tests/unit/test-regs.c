// SPDX-License-Identifier: GPL-2.0
/*
 * test-regs.c - sampled register names (lib/regs.c): each architecture's
 * table at its ends, the holes and the indexes past a table ("unknown", as
 * perf prints them), and the family names sampo_arch__normalize() gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sampo/feature.h>
#include <sampo/regs.h>

static void test_reg__name_x86(void **state)
{
	(void)state;
	assert_string_equal(sampo_reg__name("x86", 0), "AX");
	assert_string_equal(sampo_reg__name("x86", 8), "IP");
	assert_string_equal(sampo_reg__name("x86", 23), "R15");
	/* 24..31 name nothing; each XMM register is two 64-bit slots */
	assert_string_equal(sampo_reg__name("x86", 24), "unknown");
	assert_string_equal(sampo_reg__name("x86", 31), "unknown");
	assert_string_equal(sampo_reg__name("x86", 32), "XMM0");
	assert_string_equal(sampo_reg__name("x86", 33), "XMM0");
	assert_string_equal(sampo_reg__name("x86", 63), "XMM15");
	assert_string_equal(sampo_reg__name("x86", 64), "unknown");
	assert_string_equal(sampo_reg__name(sampo_arch__normalize("x86_64"), 7), "SP");
	assert_string_equal(sampo_reg__name(sampo_arch__normalize("i686"), 6), "BP");
}

static void test_reg__name_arm(void **state)
{
	(void)state;
	assert_string_equal(sampo_reg__name("arm64", 0), "x0");
	assert_string_equal(sampo_reg__name("arm64", 30), "lr");
	assert_string_equal(sampo_reg__name("arm64", 32), "pc");
	assert_string_equal(sampo_reg__name("arm64", 33), "unknown");
	assert_string_equal(sampo_reg__name("arm64", 46), "vg");
	assert_string_equal(sampo_reg__name(sampo_arch__normalize("aarch64"), 31), "sp");
	assert_string_equal(sampo_reg__name("arm", 11), "fp");
	assert_string_equal(sampo_reg__name("arm", 15), "pc");
	assert_string_equal(sampo_reg__name("arm", 16), "unknown");
}

static void test_reg__name_others(void **state)
{
	(void)state;
	assert_string_equal(sampo_reg__name("powerpc", 32), "nip");
	assert_string_equal(sampo_reg__name("powerpc", 58), "siar");
	assert_string_equal(sampo_reg__name("powerpc", 59), "unknown");
	assert_string_equal(sampo_reg__name("riscv", 0), "pc");
	assert_string_equal(sampo_reg__name("riscv", 31), "t6");
	assert_string_equal(sampo_reg__name("riscv", 32), "unknown");
	assert_string_equal(sampo_reg__name("s390", 32), "MASK");
	assert_string_equal(sampo_reg__name("s390", 33), "PC");
	/* csky: the kernel's order (TLS, LR, PC, SR, SP, ORIG_A0, A0...), as perf 6.1 prints it */
	assert_string_equal(sampo_reg__name("csky", 0), "unknown");
	assert_string_equal(sampo_reg__name("csky", 1), "lr");
	assert_string_equal(sampo_reg__name("csky", 2), "pc");
	assert_string_equal(sampo_reg__name("csky", 4), "sp");
	assert_string_equal(sampo_reg__name("csky", 6), "a0");
	assert_string_equal(sampo_reg__name("csky", 16), "regs6");
	assert_string_equal(sampo_reg__name("csky", 19), "regs9");
	assert_string_equal(sampo_reg__name("csky", 20), "unknown");
	assert_string_equal(sampo_reg__name("mips", 0), "PC");
	/* $26 and $27 (k0, k1) have no name in perf's table */
	assert_string_equal(sampo_reg__name("mips", 25), "$25");
	assert_string_equal(sampo_reg__name("mips", 26), "unknown");
	assert_string_equal(sampo_reg__name("mips", 27), "unknown");
	assert_string_equal(sampo_reg__name("mips", 31), "$31");
	assert_string_equal(sampo_reg__name("mips", 32), "unknown");
}

static void test_reg__name_unknown_arch(void **state)
{
	(void)state;
	/* perf has no table for these: every register is "unknown" */
	assert_string_equal(sampo_reg__name("sparc", 0), "unknown");
	assert_string_equal(sampo_reg__name("", 0), "unknown");
	/* a machine name, not a family: the caller normalizes first */
	assert_string_equal(sampo_reg__name("x86_64", 0), "unknown");
	assert_string_equal(sampo_reg__name("x86", ~0u), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reg__name_x86),
		cmocka_unit_test(test_reg__name_arm),
		cmocka_unit_test(test_reg__name_others),
		cmocka_unit_test(test_reg__name_unknown_arch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
