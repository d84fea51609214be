/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resolve.c - one sampled address to its map, symbol and offset, as the
 * sample printers show it (see resolve.h)
 *
 * The offset is always the library's (address - start of the symbol it
 * returns), never guessed from the addresses around: with nested or
 * overlapping symbols the run of addresses naming a symbol is not one range.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <sampo/dso.h>
#include <sampo/event.h>
#include <sampo/machine.h>
#include <sampo/map.h>
#include <sampo/srclines.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>

#include "resolve.h"

void cli_resolve_frame(struct sampo_symbolizer *symbolizer, struct sampo_machine *machine,
		       struct sampo_map *map, uint64_t addr, bool want_sym, struct cli_frame *ret)
{
	*ret = (struct cli_frame){ .map = map };
	if (!map && (addr >> 63)) {
		const char *module = NULL;
		const struct sampo_symbol *sym = sampo_symbolizer__find_unmapped(
			sampo_symbolizer__for_machine(symbolizer, machine), addr, &module);

		if (sym && !module) { /* the kernel's own code past its map */
			ret->map = sampo_machine__kernel_map(machine);
			ret->sym = sampo_symbolizer__find_offset(symbolizer, ret->map, addr,
								 &ret->symoff);
		} else if (sym) { /* section maps and kallsyms keep sampled addresses */
			ret->sym = sym;
			ret->module = module;
			ret->symoff = addr - sampo_symbol__start(sym);
		}
	} else if (want_sym && map) {
		ret->sym = sampo_symbolizer__find_offset(symbolizer, map, addr, &ret->symoff);
	}
}

const char *cli_trace_func(void *priv, uint64_t addr, uint64_t *start)
{
	const struct cli_trace_resolver *r = priv;
	struct sampo_addr_location al = { 0 };
	struct sampo_map *map;
	struct cli_frame fr = { 0 };
	const char *name = NULL;

	map = sampo_machine__find_map(r->machine, NULL, SAMPO_CPUMODE_KERNEL, addr, &al);
	cli_resolve_frame(r->symbolizer, r->machine, map, addr, true, &fr);
	if (fr.sym) {
		name = sampo_symbol__name(fr.sym);
		*start = addr - fr.symoff;
	}
	sampo_addr_location__exit(&al);
	return name;
}

bool cli_srcline(struct sampo_srclines *srclines, const struct cli_frame *fr, uint64_t rel,
		 bool full_path, char *buf, size_t sz)
{
	const struct sampo_srcline_frame *line = NULL;
	struct sampo_dso *dso;
	uint64_t addr = rel;

	if (!fr->map)
		return false;
	dso = sampo_map__dso(fr->map);
	/* symbol tables keep the file's addresses: the DWARF's */
	if (fr->sym)
		addr = sampo_symbol__start(fr->sym) + fr->symoff;
	if (srclines && !sampo_srclines__find_line(srclines, dso, addr, &line) && line &&
	    line->file && *line->file) {
		if (full_path)
			snprintf(buf, sz, "%s:%u", line->file, (unsigned int)line->line);
		else
			(void)sampo_srcline_frame__format(line, buf, sz);
		return true;
	}
	/* addr2line found the function but no line ("??:0"): perf prints nothing */
	if (srclines && fr->sym && !strstr(sampo_symbol__name(fr->sym), "@plt") &&
	    sampo_srclines__dso_has_file(srclines, dso))
		return false;
	snprintf(buf, sz, "%s[%" PRIx64 "]", sampo_dso__short_name(dso), rel);
	return true;
}
