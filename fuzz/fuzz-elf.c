// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-elf.c - libFuzzer entry point for the ELF symbol loader and the
 * build-id readers.
 *
 * Each input is loaded as an ELF image (libelf's elf_memory() path, no
 * separate debug file search), every symbol of the resulting table is
 * touched and looked up, and the same bytes are read as an ELF build-id and
 * as a raw notes blob.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <sampo/buildid.h>
#include <sampo/symbol.h>

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	static const struct sampo_section_addr secs[] = {
		{ ".text", 0xffffffffc0000000ULL },
		{ ".init.text", 0xffffffffc0100000ULL },
	};
	struct sampo_symtab *st;
	struct sampo_build_id bid;
	char err[256];
	uint64_t sum = 0, v;
	SAMPO_OPTS(sampo_symtab_elf_opts, opts, .no_debug_file = true, .errbuf = err,
		   .errbuf_sz = sizeof(err));

	if (!init) {
		sampo_set_print(quiet);
		init = true;
	}
	/*
	 * The low bits of the size pick the options (the bytes cannot: every
	 * ELF starts with the same magic), so both ET_REL placements get covered.
	 */
	if (size & 1) {
		opts.sections = secs;
		opts.nr_sections = 2;
	}
	if (size & 2)
		opts.no_demangle = true;

	if (sampo_symtab__load_elf_mem(data, size, "fuzz", &opts, &st) == 0) {
		for (size_t i = 0; i < sampo_symtab__nr(st); i++) {
			const struct sampo_symbol *s = sampo_symtab__at(st, i);

			sum += strlen(sampo_symbol__name(s));
			if (sampo_symtab__find(st, sampo_symbol__start(s)) == NULL)
				__builtin_trap(); /* a symbol's own start must find something */
			sum += (uintptr_t)sampo_symtab__find(st, sampo_symbol__end(s) - 1);
		}
		if (sampo_symtab__offset_to_vaddr(st, size / 2, &v) == 0)
			sum += (uintptr_t)sampo_symtab__find(st, v);
		sampo_symtab__delete(st);
	}
	if (sampo_build_id__from_elf_mem(data, size, &bid) == 0 && bid.size > SAMPO_BUILD_ID_SIZE)
		__builtin_trap();
	if (sampo_build_id__from_notes(data, size, &bid) == 0 && bid.size > SAMPO_BUILD_ID_SIZE)
		__builtin_trap();
	(void)sum;
	return 0;
}
