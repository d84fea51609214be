/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * srclines.h - source lines and inline chains of the DSOs of a recording,
 * looked up once per (DSO, address): what report's srcline/srcfile sort
 * keys, script's srcline field and the inlined frames of call graphs and
 * flame graphs ask, again and again, for the same few addresses.
 *
 *	struct sampo_srclines *sl;
 *	const struct sampo_srcline_frame *fr;
 *	size_t n;
 *
 *	sampo_srclines__new(symbolizer, &sl);
 *	if (!sampo_srclines__find(sl, dso, file_addr, &fr, &n) && n)
 *		... fr[0] the innermost (inlined) function and its line ...
 *	if (!sampo_srclines__find_line(sl, dso, file_addr, &fr) && fr)
 *		... the line alone, for less ...
 *	sampo_srclines__delete(sl);
 *
 * A DSO's DWARF is opened on its first lookup (sampo_srcline__open(), from
 * the file the symbolizer read its symbols from, or a debug file of it, by
 * build-id), and stays open: the frames handed out point into it.
 */
#ifndef SAMPO_SRCLINES_H
#define SAMPO_SRCLINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>
#include <sampo/srcline.h>

struct sampo_dso;
struct sampo_symbolizer;
struct sampo_srclines;

/* the longest inline chain kept per address (outer callers past it are cut) */
#define SAMPO_SRCLINES_MAX_INLINE 16

/**
 * sampo_srclines__new() - an empty cache
 * @symbolizer: says which file holds each DSO's symbols (borrowed; it must
 *		have looked the DSO up before: sampo_symbolizer__dso_info())
 * @ret: on success, the cache; free with sampo_srclines__delete()
 *
 * Return: 0, or -ENOMEM.
 */
SAMPO_API int sampo_srclines__new(struct sampo_symbolizer *symbolizer, struct sampo_srclines **ret);

/** sampo_srclines__delete() - close every DSO's DWARF; NULL is allowed */
SAMPO_API void sampo_srclines__delete(struct sampo_srclines *sl);

/**
 * sampo_srclines__find() - the inline chain at a file address of @dso
 * @dso: the DSO (borrowed; compared by pointer)
 * @addr: an address of the file (as symbol tables keep them: the symbol's
 *	  start plus the offset into it), not a sampled one
 * @ret_frames: the chain as sampo_srcline__find() gives it, [0] innermost;
 *		borrowed, valid until sampo_srclines__delete()
 * @ret_nr: its length; 0 when nothing is known (no DWARF, no unit covers
 *	    @addr): a result that is cached too
 *
 * Return: 0, or -ENOMEM.
 */
SAMPO_API int sampo_srclines__find(struct sampo_srclines *sl, struct sampo_dso *dso, uint64_t addr,
				   const struct sampo_srcline_frame **ret_frames, size_t *ret_nr);

/**
 * sampo_srclines__find_line() - the line alone: sampo_srclines__find()'s
 * [0] without the function names, looked up for much less (no inline
 * chain); cached apart, a later sampo_srclines__find() of the same address
 * still gets the whole chain
 * @ret: borrowed, valid until sampo_srclines__delete(); NULL when no line
 *	 is known
 *
 * Return: 0, or -ENOMEM.
 */
SAMPO_API int sampo_srclines__find_line(struct sampo_srclines *sl, struct sampo_dso *dso,
					uint64_t addr, const struct sampo_srcline_frame **ret);

/**
 * sampo_srclines__dso_has_file() - whether @dso's symbols came from an ELF
 * file (where a line would be looked for), as opposed to kallsyms, a perf
 * map or nothing: perf's addr2line then answers "??:0" for an address of a
 * function it has no line for, and perf shows its stand-ins only when there
 * is no file at all
 */
SAMPO_API bool sampo_srclines__dso_has_file(struct sampo_srclines *sl, struct sampo_dso *dso);

/**
 * sampo_srcline_frame__format() - perf's "file:line" of a frame: the base
 * name of its source file, a colon, the line (perf's srcline without
 * --full-source-path)
 * @buf: where it goes (cut to @sz - 1 characters)
 *
 * Return: the length it needed, or -ENOENT when @fr has no file.
 */
SAMPO_API int sampo_srcline_frame__format(const struct sampo_srcline_frame *fr, char *buf,
					  size_t sz);

#endif /* SAMPO_SRCLINES_H */
