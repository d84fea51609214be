// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-srcline.c - libFuzzer entry point for the DWARF line lookups
 * (lib/srcline.c): an ELF file's units, line tables and inline scopes, as
 * `sampo report --sort srcline`, `script -F srcline` and annotate read them.
 *
 * Each input is an ELF file, handed over in a memfd by its /proc/self/fd
 * path (sampo_srcline__open() opens a path). Addresses looked up: the start
 * and the middle of each of the first 64 symbols of its symbol table (where
 * the line tables have rows), the input's last eight bytes as an address,
 * and a few fixed ones; each with the inline chain (sampo_srcline__find())
 * and the line alone (sampo_srcline__find_line()). Every string handed out
 * is read. No debug file of this machine is used: HOME is an empty
 * directory, so a stripped input finds none.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sampo/srcline.h>
#include <sampo/symbol.h>

#include "memfd-input.h"

#define MAX_FRAMES 16
#define MAX_SYMS   64

/*
 * elfutils' dwarf_getscopes() leaks its array of scopes when the address is
 * in an inlined instance whose abstract origin it then cannot find (a
 * reference out of the unit: LTO's, or a damaged one): it returns 0 and
 * keeps the array it allocated. Not ours to fix (the caller is never given
 * the array), so LeakSanitizer leaves out what that call allocated, and
 * only that: the stacks of allocations are walked in full (libdw has no
 * frame pointers, so the fast walk stops in it, short of the function's
 * name; it costs more than half the executions: 2,100 a second where the
 * fast walk made 5,200), so that what libdw's other calls hand to us and
 * we forget still counts. (An array of a successful dwarf_getscopes() that
 * we forgot would be left out too; the sanitizer runs of the tests, which
 * have no such suppression, would see it: test-srcline, t6101's inlines.)
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:dwarf_getscopes\n";
}

static struct memfd_input input;
static char empty_dir[] = "/tmp/sampo-fuzz-srcline.XXXXXX";

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static size_t touch(const char *s)
{
	return s ? strlen(s) : 0;
}

static void lookup(struct sampo_srcline *sl, uint64_t addr)
{
	struct sampo_srcline_frame fr[MAX_FRAMES], one;
	size_t nr = 0, sum = 0;

	if (sampo_srcline__find(sl, addr, fr, MAX_FRAMES, &nr) == 0) {
		if (nr > MAX_FRAMES)
			__builtin_trap();
		for (size_t i = 0; i < nr; i++)
			sum += touch(fr[i].function) + touch(fr[i].file) + touch(fr[i].decl_file) +
			       fr[i].line + fr[i].decl_line;
	}
	if (sampo_srcline__find_line(sl, addr, &one) == 0)
		sum += touch(one.file) + one.line;
	(void)sum;
}

static void run(const uint8_t *data, size_t size)
{
	SAMPO_OPTS(sampo_symtab_elf_opts, eo, .no_debug_file = true);
	struct sampo_symtab *st = NULL;
	struct sampo_srcline *sl;
	uint64_t tail = 0;

	if (sampo_srcline__open(input.path, NULL, &sl))
		return;
	if (sampo_symtab__load_elf_mem(data, size, "fuzz", &eo, &st) == 0) {
		size_t n = sampo_symtab__nr(st);

		for (size_t i = 0; i < n && i < MAX_SYMS; i++) {
			const struct sampo_symbol *s = sampo_symtab__at(st, i);
			uint64_t start = sampo_symbol__start(s), end = sampo_symbol__end(s);

			lookup(sl, start);
			if (end > start)
				lookup(sl, start + (end - start) / 2);
		}
		sampo_symtab__delete(st);
	}
	if (size >= 8)
		memcpy(&tail, data + size - 8, 8);
	lookup(sl, tail);
	lookup(sl, 0);
	lookup(sl, 0x401000);
	lookup(sl, (uint64_t)-1);
	sampo_srcline__close(sl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;

	if (!init) {
		sampo_set_print(quiet);
		if (!mkdtemp(empty_dir))
			abort();
		memfd_input__create(&input, "fuzz-srcline.elf");
		setenv("HOME", empty_dir, 1);
		unsetenv("PERF_BUILDID_DIR");
		unsetenv("DEBUGINFOD_URLS");
		init = true;
	}
	memfd_input__fill(&input, data, size);
	run(data, size);
	return 0;
}
