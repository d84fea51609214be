// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-kallsyms.c - libFuzzer entry point for the kallsyms parser.
 *
 * Each input is parsed as a kallsyms snapshot twice, plain and relocated
 * against "_text", and every symbol of the table is looked up by its own
 * start (which must find a symbol) and by its last byte.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <sampo/symbol.h>

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void walk(const uint8_t *data, size_t size, bool reloc)
{
	struct sampo_symtab *st;
	char err[256];
	uint64_t sum = 0, ref;
	SAMPO_OPTS(sampo_symtab_kallsyms_opts, opts, .errbuf = err, .errbuf_sz = sizeof(err));

	if (reloc) {
		opts.ref_name = "_text";
		opts.ref_addr = 0xffffffff81000000ULL;
	}
	if (sampo_symtab__load_kallsyms_mem((const char *)data, size, "fuzz", &opts, &st))
		return;
	for (size_t i = 0; i < sampo_symtab__nr(st); i++) {
		const struct sampo_symbol *s = sampo_symtab__at(st, i);
		const char *mod = sampo_symtab__symbol_module(st, s);

		sum += strlen(sampo_symbol__name(s)) + (mod ? strlen(mod) : 0);
		if (!sampo_symtab__find(st, sampo_symbol__start(s)))
			__builtin_trap();
		sum += (uintptr_t)sampo_symtab__find(st, sampo_symbol__end(s) - 1);
	}
	if (sampo_symtab__kallsyms_ref(st, "_text", &ref) == 0)
		sum += ref;
	(void)sum;
	sampo_symtab__delete(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;

	if (!init) {
		sampo_set_print(quiet);
		init = true;
	}
	walk(data, size, false);
	walk(data, size, true);
	return 0;
}
