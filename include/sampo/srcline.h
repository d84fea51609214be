/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * srcline.h - source lines of code addresses from an ELF file's DWARF
 * (through libdw), inlined calls included: what a profile needs to show
 * file:line and the functions the compiler inlined into a symbol.
 *
 *	struct sampo_srcline *sl;
 *	struct sampo_srcline_frame fr[8];
 *	size_t n;
 *
 *	if (!sampo_srcline__open("/usr/bin/x", NULL, &sl)) {
 *		if (!sampo_srcline__find(sl, vaddr, fr, 8, &n))
 *			... fr[0] innermost (inlined) function, fr[n-1] the outer one ...
 *		sampo_srcline__close(sl);
 *	}
 *
 * Addresses are the file's own (ELF virtual addresses, as the symbol tables
 * of sampo_symtab__load_elf() keep them), not sampled ones. A stripped file
 * is looked up through its separate debug file (sampo_elf__find_debug_file()).
 */
#ifndef SAMPO_SRCLINE_H
#define SAMPO_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_build_id;
struct sampo_srcline;

/* one function of an address's inline chain */
struct sampo_srcline_frame {
	const char *function; /* DWARF name (borrowed, valid until close), NULL: unknown */
	const char *file;     /* source file of the line (borrowed), NULL: unknown */
	uint32_t line;	      /* line in @file (0: unknown) */
	const char *decl_file; /* the function's own file (borrowed), NULL: unknown */
	uint32_t decl_line;    /* the line the function starts at (0: unknown) */
};

/**
 * sampo_srcline__open() - the DWARF of an ELF file
 * @path: the file
 * @build_id: its build-id (for the debug file search), or NULL
 * @ret: on success, the handle; free with sampo_srcline__close()
 *
 * Return: 0; -ENOENT when neither the file nor a debug file of it has
 * DWARF line information; -errno; -ENOMEM.
 */
SAMPO_API int sampo_srcline__open(const char *path, const struct sampo_build_id *build_id,
				  struct sampo_srcline **ret);

/** sampo_srcline__close() - free it; NULL is allowed */
SAMPO_API void sampo_srcline__close(struct sampo_srcline *sl);

/**
 * sampo_srcline__find() - the source line of @addr and the inline chain around it
 * @addr: a code address of the file
 * @frames: where the chain goes: [0] the innermost function (an inlined
 *	    one, or the function itself) with @addr's line, then each caller
 *	    the previous one was inlined into, with the line of the inlined
 *	    call, up to the function that holds @addr's code
 * @max: room in @frames (at least 1)
 * @ret_nr: frames written
 *
 * Return: 0, or -ENOENT when no compilation unit covers @addr.
 */
SAMPO_API int sampo_srcline__find(struct sampo_srcline *sl, uint64_t addr,
				  struct sampo_srcline_frame *frames, size_t max, size_t *ret_nr);

/**
 * sampo_srcline__find_line() - the source line of @addr alone: frames[0] of
 *	sampo_srcline__find() without the function names (NULL) and the inline
 *	chain, for much less work (no walk of the unit's scopes)
 * @ret: the line; file NULL and line 0 when unknown
 *
 * Return: 0, or -ENOENT when no compilation unit or line covers @addr.
 */
SAMPO_API int sampo_srcline__find_line(struct sampo_srcline *sl, uint64_t addr,
				       struct sampo_srcline_frame *ret);

#endif /* SAMPO_SRCLINE_H */
