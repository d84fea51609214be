/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * symbol-filter.h - perf's -S/--symbols list of report and script: the
 * samples to keep by their own symbol's name, or by their address.
 *
 * perf (symbol__init(), setup_addrlist()) takes every entry that strtoul()
 * reads whole in base 16 ("0x7f12ab", "ffffffff81000e46", and so a function
 * named "add" or "cafe") as an address: a sample at exactly that address is
 * kept. The other entries are names: a sample whose symbol has one is kept.
 *
 *	sampo_symbol_filter__new(words, nr, &f);
 *	if (!sampo_symbol_filter__keeps(f, sym ? sampo_symbol__name(sym) : NULL, map != NULL, ip))
 *		... leave the sample out ...
 */
#ifndef SAMPO_SYMBOL_FILTER_H
#define SAMPO_SYMBOL_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_symbol_filter;

/**
 * sampo_symbol_filter__new() - the filter of the list @entries (copied)
 * @ret: on success, the new filter; free with sampo_symbol_filter__delete()
 * Return: 0, -ENOMEM.
 */
SAMPO_API int sampo_symbol_filter__new(const char *const *entries, size_t nr,
				       struct sampo_symbol_filter **ret);

/** sampo_symbol_filter__delete() - free @filter (NULL is fine) */
SAMPO_API void sampo_symbol_filter__delete(struct sampo_symbol_filter *filter);

/**
 * sampo_symbol_filter__keeps() - whether a sample passes
 * @sym_name: its own symbol's name, NULL when unresolved
 * @mapped: some map covers its address (perf compares addresses only then)
 * @ip: its address
 */
SAMPO_API bool sampo_symbol_filter__keeps(const struct sampo_symbol_filter *filter,
					  const char *sym_name, bool mapped, uint64_t ip);

/**
 * sampo_symbol_filter__only_name() - the name, when the list has exactly one
 * name (addresses aside): perf then hides the Symbol column and prints
 * "# symbol: NAME" above the table. NULL otherwise.
 */
SAMPO_API const char *sampo_symbol_filter__only_name(const struct sampo_symbol_filter *filter);

#endif /* SAMPO_SYMBOL_FILTER_H */
