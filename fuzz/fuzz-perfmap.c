// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-perfmap.c - libFuzzer entry point for the JIT perf map parser
 * (/tmp/perf-PID.map, lib/symbol-perfmap.c).
 *
 * Each input is parsed as a perf map; every symbol of the table is then
 * looked up by its own start (which must find a symbol) and by its last
 * byte, and its name read whole.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/symbol.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sampo_symtab *st;
	size_t sum = 0;

	sampo_set_print(NULL);
	if (sampo_symtab__load_perf_map_mem((const char *)data, size, &st))
		return 0;
	for (size_t i = 0; i < sampo_symtab__nr(st); i++) {
		const struct sampo_symbol *s = sampo_symtab__at(st, i);
		uint64_t start = sampo_symbol__start(s), end = sampo_symbol__end(s);

		if (!sampo_symtab__find(st, start))
			abort(); /* a symbol's own start must find a symbol */
		if (end > start)
			sum += sampo_symtab__find(st, end - 1) != NULL;
		sum += strlen(sampo_symbol__name(s));
	}
	sampo_symtab__delete(st);
	return sum == (size_t)-1;
}
