/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resolve.h - one address of a sample (its ip, or a callchain entry) put on
 * its symbol the way `sampo script` shows it, for every output of samples
 * (script's text and JSON, data convert --to-json)
 *
 *	struct cli_frame fr;
 *
 *	map = sampo_machine__find_map(machine, thread, cpumode, ip, &al);
 *	cli_resolve_frame(symbolizer, machine, map, ip, true, &fr);
 *	... fr.sym ? sampo_symbol__name(fr.sym) : "[unknown]", fr.symoff,
 *	    fr.map or fr.module for the object ...
 */
#ifndef SAMPO_RESOLVE_H
#define SAMPO_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include <stddef.h>

struct sampo_machine;
struct sampo_map;
struct sampo_srclines;
struct sampo_symbol;
struct sampo_symbolizer;

struct cli_frame {
	/*
	 * The map the address is in (borrowed from the caller's lookup), or
	 * the kernel's map for kernel code past it (.init.text); NULL when no
	 * map covers the address.
	 */
	struct sampo_map *map;
	const struct sampo_symbol *sym; /* NULL: unresolved */
	uint64_t symoff; /* the address - the start of sym, in the symbol table's addresses */
	/* a module's name ("ext4") when no map covers the address but its section map does */
	const char *module;
};

/**
 * cli_resolve_frame() - @addr of @machine (the sample's: the host or a guest)
 * @map: what sampo_machine__find_map() found for @addr, or NULL
 * @want_sym: look the symbol up in @map (false: only the object is wanted)
 * @ret: the result; always set
 *
 * A kernel address no map covers (a module's init code, a module loaded
 * after the maps were written) is looked up in the recorded section maps and
 * the kernel's own table (sampo_symbolizer__find_unmapped()), as perf's
 * kernel maps cover it.
 */
void cli_resolve_frame(struct sampo_symbolizer *symbolizer, struct sampo_machine *machine,
		       struct sampo_map *map, uint64_t addr, bool want_sym, struct cli_frame *ret);

/**
 * cli_srcline() - perf's map__srcline() without a symbol, as script's
 * srcline field shows an address: "file:line" from the DWARF of @fr's
 * object, else "dso[ADDR]" (its short name, the address in hex) when the
 * object has no file or the address no symbol
 * @fr: the address resolved by cli_resolve_frame() (with want_sym: the
 *	symbol places the address in the file)
 * @rel: the address in the map (sampo_map__map_ip())
 * @full_path: the source file's whole path (perf's --full-source-path), not
 *	its base name
 * @buf: where the text goes
 *
 * Return: false when there is nothing to print: no map, or a function of an
 * ELF file without a line for the address (perf's addr2line says "??:0",
 * which perf does not print).
 */
bool cli_srcline(struct sampo_srclines *srclines, const struct cli_frame *fr, uint64_t rel,
		 bool full_path, char *buf, size_t sz);

/* what cli_trace_func() names kernel addresses with (borrowed) */
struct cli_trace_resolver {
	struct sampo_symbolizer *symbolizer;
	struct sampo_machine *machine;
};

/**
 * cli_trace_func() - the print formats' %ps and %pS of tracepoint fields
 * (a sampo_trace_func_fn, include/sampo/trace-data.h): a kernel address by
 * the symbols of the kernel and its modules (perf's
 * machine__resolve_kernel_addr()); @priv is a struct cli_trace_resolver
 */
const char *cli_trace_func(void *priv, uint64_t addr, uint64_t *start);

#endif /* SAMPO_RESOLVE_H */
