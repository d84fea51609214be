/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * symbol.h - symbol tables: an immutable, address-sorted array of symbols
 * built from an ELF file (symbol-elf.c) or a kallsyms snapshot
 * (symbol-kallsyms.c), searched by address in O(log n).
 *
 * Address spaces: an ELF table keeps the file's own virtual addresses (the
 * st_value of each symbol, as nm prints them). A sample address in a map
 * becomes one of those through the map's file offset:
 *
 *	off = addr - map.start + map.pgoff;
 *	sampo_symtab__offset_to_vaddr(symtab, off, &vaddr);
 *	sym = sampo_symtab__find(symtab, vaddr);
 *
 * which works the same for ET_EXEC, ET_DYN and PIE files. A kallsyms table
 * holds run-time kernel addresses, shifted by the KASLR delta when asked.
 * A relocatable object (ET_REL, a kernel module) has no addresses: its
 * sections are placed at the addresses the caller gives, or at their file
 * offsets.
 */
#ifndef SAMPO_SYMBOL_H
#define SAMPO_SYMBOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_symtab;
struct sampo_symbol;

/* Same values as ELF's STB_* and STT_*. */
enum sampo_symbol_binding {
	SAMPO_SYMBOL_LOCAL = 0,
	SAMPO_SYMBOL_GLOBAL = 1,
	SAMPO_SYMBOL_WEAK = 2,
};

enum sampo_symbol_type {
	SAMPO_SYMBOL_NOTYPE = 0, /* a label */
	SAMPO_SYMBOL_OBJECT = 1,
	SAMPO_SYMBOL_FUNC = 2,
};

/* ---- lookup -------------------------------------------------------------------------------- */

/**
 * sampo_symtab__find() - the symbol that contains an address
 * @symtab: the table
 * @addr: an address in the table's address space (see the top of this file)
 *
 * When symbols nest (a symbol inside a larger one), the answer is perf
 * 6.1's for tables loaded from ELF files and perf maps (the first symbol
 * covering @addr in its rb-tree, or none), the innermost otherwise.
 * Return: the symbol, borrowed from @symtab, or NULL when none contains @addr
 */
SAMPO_API const struct sampo_symbol *sampo_symtab__find(const struct sampo_symtab *symtab,
							uint64_t addr);

/**
 * sampo_symtab__find_by_name() - the first symbol (in address order) named @name
 * @symtab: the table
 * @name: exact name (demangled form for C++ and Rust symbols)
 *
 * A linear scan: meant for a few reference symbols, not for hot paths.
 * Return: the symbol, or NULL
 */
SAMPO_API const struct sampo_symbol *sampo_symtab__find_by_name(const struct sampo_symtab *symtab,
								const char *name);

/** sampo_symtab__nr() - number of symbols in @symtab */
SAMPO_API size_t sampo_symtab__nr(const struct sampo_symtab *symtab);

/**
 * sampo_symtab__at() - the @idx-th symbol in address order
 * Return: the symbol, or NULL when @idx >= sampo_symtab__nr()
 */
SAMPO_API const struct sampo_symbol *sampo_symtab__at(const struct sampo_symtab *symtab,
						      size_t idx);

/**
 * sampo_symtab__offset_to_vaddr() - turn a file offset into the file's virtual address
 * @symtab: a table loaded from an ELF executable or shared object
 * @offset: file offset, e.g. addr - map.start + map.pgoff for a sample in a map
 * @ret_vaddr: on success, the address to give to sampo_symtab__find()
 *
 * Uses the PT_LOAD program header whose file bytes contain @offset.
 * Return: 0, or -ENOENT when no PT_LOAD covers @offset (or the table has no
 * program headers: kallsyms, ET_REL)
 */
SAMPO_API int sampo_symtab__offset_to_vaddr(const struct sampo_symtab *symtab, uint64_t offset,
					    uint64_t *ret_vaddr);

/** sampo_symtab__delete() - free @symtab and every symbol in it; NULL is fine */
SAMPO_API void sampo_symtab__delete(struct sampo_symtab *symtab);

/* ---- one symbol ---------------------------------------------------------------------------- */

/** sampo_symbol__start() - first address of @sym */
SAMPO_API uint64_t sampo_symbol__start(const struct sampo_symbol *sym);
/** sampo_symbol__end() - one past the last address of @sym (after perf's end fix-up) */
SAMPO_API uint64_t sampo_symbol__end(const struct sampo_symbol *sym);
/** sampo_symbol__name() - name, demangled unless the loader was told not to */
SAMPO_API const char *sampo_symbol__name(const struct sampo_symbol *sym);
/** sampo_symbol__binding() - enum sampo_symbol_binding */
SAMPO_API int sampo_symbol__binding(const struct sampo_symbol *sym);
/** sampo_symbol__type() - enum sampo_symbol_type */
SAMPO_API int sampo_symbol__type(const struct sampo_symbol *sym);

/**
 * sampo_symtab__symbol_module() - the module a kallsyms symbol belongs to
 * Return: the module name ("ext4", without brackets), or NULL for a kernel
 * symbol or a table not built from kallsyms
 */
SAMPO_API const char *sampo_symtab__symbol_module(const struct sampo_symtab *symtab,
						  const struct sampo_symbol *sym);

/**
 * sampo_symtab__symbol_section() - the section an ET_REL symbol was placed by
 * Return: the section name (".text.unlikely"), or NULL for other tables
 */
SAMPO_API const char *sampo_symtab__symbol_section(const struct sampo_symtab *symtab,
						   const struct sampo_symbol *sym);

/* ---- ELF ----------------------------------------------------------------------------------- */

/* A load address for one section of a relocatable object (/sys/module/NAME/sections/SECTION). */
struct sampo_section_addr {
	const char *name; /* ".text", ".init.text", ... */
	uint64_t addr;
};

struct sampo_symtab_elf_opts {
	size_t sz;
	/* Keep C++ and Rust names mangled. */
	bool no_demangle;
	/* Do not synthesize NAME@plt symbols for PLT entries. */
	bool no_plt;
	/* Do not look for a separate debug file when the file has no .symtab. */
	bool no_debug_file;
	/* Root of the separate debug files; default "/usr/lib/debug". */
	const char *debug_root;
	/*
	 * ET_REL only: where each section was loaded. Symbols of sections not
	 * listed are dropped. With no table (NULL), each section is placed at
	 * its file offset, which keeps sections apart and is what perf does.
	 */
	const struct sampo_section_addr *sections;
	size_t nr_sections;
	/* Where a one-line description of a failure goes ("'FILE': what"). */
	char *errbuf;
	size_t errbuf_sz;
	/*
	 * The separate debug file's lookup (sampo_debuginfo__find()): the DSO's
	 * recorded path when @path is a copy (its directory holds the
	 * .gnu_debuglink targets), the build-id it was recorded with, perf's
	 * --symfs root and the build-id cache ("debug" entries). NULL: @path,
	 * @path's own build-id, none, none.
	 */
	const char *recorded_name;
	const struct sampo_build_id *build_id;
	const char *symfs;
	const char *buildid_dir;
	/*
	 * Where a one-line warning goes when a debug file was found but refused
	 * (another build-id); NULL: it is logged as a warning.
	 */
	char *warnbuf;
	size_t warnbuf_sz;
};
#define sampo_symtab_elf_opts__last_field warnbuf_sz

/**
 * sampo_symtab__load_elf() - build the symbol table of an ELF file
 * @path: executable, shared object, or relocatable object (.ko, .o)
 * @opts: optional; NULL means defaults
 * @ret_symtab: on success, the table; free with sampo_symtab__delete()
 *
 * Symbols come from .symtab; failing that, from a separate debug file (see
 * sampo_debuginfo__find(); its symbols are moved by the difference of the
 * two files' section addresses, so a prelinked file works with the debug
 * file of its unprelinked build); failing that, from .dynsym plus the
 * MiniDebugInfo (.gnu_debugdata, an xz-compressed ELF) when there is one.
 * Functions, objects and labels are kept as perf keeps them; PLT entries
 * become NAME@plt; compressed sections are inflated; zero-size and duplicate
 * symbols are fixed up as perf does.
 *
 * Return: 0, or -ENOENT, -errno, -SAMPO_ERR_MALFORMED (not ELF, truncated,
 * bad sections), -SAMPO_ERR_DECOMPRESS (.gnu_debugdata), -ENOMEM
 */
SAMPO_API int sampo_symtab__load_elf(const char *path, const struct sampo_symtab_elf_opts *opts,
				     struct sampo_symtab **ret_symtab);

/**
 * sampo_symtab__load_elf_mem() - the same, from an ELF image in memory
 * @buf: the image; borrowed, only read during the call
 * @size: its size in bytes
 * @name: for messages
 * @opts: as for sampo_symtab__load_elf(); no separate debug file is searched
 * @ret_symtab: on success, the table
 *
 * Return: as sampo_symtab__load_elf()
 */
SAMPO_API int sampo_symtab__load_elf_mem(const void *buf, size_t size, const char *name,
					 const struct sampo_symtab_elf_opts *opts,
					 struct sampo_symtab **ret_symtab);

struct sampo_build_id;

/**
 * sampo_elf__find_debug_file() - find the separate debug file of an ELF file
 * @elf_path: the stripped file
 * @build_id: its build-id, or NULL to skip the build-id search
 * @debug_root: NULL for "/usr/lib/debug"
 * @ret_path: on success, the path found; free() it
 *
 * sampo_debuginfo__find() without the build-id cache: tries
 * DEBUG_ROOT/.build-id/NN/REST.debug, then the .gnu_debuglink name in the
 * file's directory, in its .debug/ subdirectory and under
 * DEBUG_ROOT/<directory>; a debuglink candidate is taken only if its CRC32
 * matches the one in the link, and none whose build-id differs. With
 * @build_id NULL, the file's own build-id is used.
 * Return: 0, -ENOENT when none is found, or -errno
 */
SAMPO_API int sampo_elf__find_debug_file(const char *elf_path,
					 const struct sampo_build_id *build_id,
					 const char *debug_root, char **ret_path);

/* ---- kallsyms ------------------------------------------------------------------------------ */

struct sampo_symtab_kallsyms_opts {
	size_t sz;
	/*
	 * Relocation: the reference symbol (usually "_text") and its address at
	 * record time (the pgoff of the [kernel.kallsyms]_text map). When both
	 * are set, every symbol is shifted by recorded - kallsyms address, so a
	 * snapshot of another boot lines up with the samples.
	 */
	const char *ref_name;
	uint64_t ref_addr;
	/* Where a one-line description of a failure goes ("'FILE':LINE: what"). */
	char *errbuf;
	size_t errbuf_sz;
};
#define sampo_symtab_kallsyms_opts__last_field errbuf_sz

/**
 * sampo_symtab__load_kallsyms() - build the kernel's table from a /proc/kallsyms snapshot
 * @path: the snapshot (or /proc/kallsyms itself)
 * @opts: optional; NULL means defaults
 * @ret_symtab: on success, the table; free with sampo_symtab__delete()
 *
 * Keeps the symbols perf keeps (types T, W, D, B in either case), module
 * symbols with their module (sampo_symtab__symbol_module()), and sets the
 * ends as perf does: to the next symbol, or to the next page at the border
 * between the kernel and the modules.
 * Return: 0, or -errno, -SAMPO_ERR_MALFORMED (line number in errbuf),
 * -EPERM when every address is zero (hidden by kptr_restrict), -ENOENT when
 * opts->ref_name is not in the file
 */
SAMPO_API int sampo_symtab__load_kallsyms(const char *path,
					  const struct sampo_symtab_kallsyms_opts *opts,
					  struct sampo_symtab **ret_symtab);

/** sampo_symtab__load_kallsyms_mem() - the same, from the text in memory (@name for messages) */
SAMPO_API int sampo_symtab__load_kallsyms_mem(const char *buf, size_t size, const char *name,
					      const struct sampo_symtab_kallsyms_opts *opts,
					      struct sampo_symtab **ret_symtab);

/**
 * sampo_symtab__kallsyms_ref() - the address of a reference symbol in a kallsyms table, or in
 * the table of an ET_EXEC ELF file (a vmlinux: its link-time _text, _stext, _etext, _end)
 * @symtab: the table
 * @name: "_text", or "_stext" when there is no _text
 * @ret_addr: on success, its address (as stored in the table)
 *
 * Return: 0, or -ENOENT
 */
SAMPO_API int sampo_symtab__kallsyms_ref(const struct sampo_symtab *symtab, const char *name,
					 uint64_t *ret_addr);

/* ---- JIT perf maps ------------------------------------------------------------------------ */

/**
 * sampo_symtab__load_perf_map_mem() - the symbols of a JIT's /tmp/perf-PID.map
 * @buf: the file's text, "START SIZE NAME" lines (hex, absolute addresses)
 *
 * Lines that do not parse are skipped, as perf skips them.
 * Return: 0 and *@ret (possibly empty), or -ENOMEM.
 */
SAMPO_API int sampo_symtab__load_perf_map_mem(const char *buf, size_t size,
					      struct sampo_symtab **ret);

#endif /* SAMPO_SYMBOL_H */
