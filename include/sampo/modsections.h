/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * modsections.h - where the kernel loaded each section of each module, saved
 * at record time so that module symbols of every section (.text,
 * .text.unlikely, .exit.text, .init.text, ...) can be placed exactly at
 * report time, on any machine.
 *
 * Record side: sampo_module_sections__collect() reads
 * SYSFS/module/NAME/sections/SECTION (one address per file) and
 * SYSFS/module/NAME/notes/.note.gnu.build-id, and
 * sampo_module_sections__write() stores the result in a perf.data feature
 * section of its own (SAMPO_FEAT_MODULE_SECTIONS). perf 6.1 skips feature
 * bits it does not know with a debug message, so perf still reads the file.
 * Report side: sampo_module_sections__read() and ..._find(), or the
 * symbolizer's .module_sections option.
 *
 * Payload (host byte order of the file, like every feature):
 *
 *	u32 version (1); u32 nr_modules;
 *	nr_modules x {
 *		u8 build_id_size; u8 pad[3]; u8 build_id[20];
 *		perf string name;              (u32 len, NUL-padded to 64)
 *		u32 nr_sections; u32 pad;
 *		nr_sections x { u64 addr; perf string section name; }
 *	}
 *
 * Without section maps, sampo_module__layout() redoes the module loader's
 * layout of the executable sections from the .ko and the module's base.
 */
#ifndef SAMPO_MODSECTIONS_H
#define SAMPO_MODSECTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_build_id;
struct sampo_reader;
struct sampo_writer;
struct sampo_section_addr;
struct sampo_module_sections;

/*
 * Feature bit of the section maps: far above perf's own features (31 in
 * perf 6.1), so that perf's future features do not collide with it.
 */
#define SAMPO_FEAT_MODULE_SECTIONS 192

/** sampo_module_sections__new() - an empty set; NULL when out of memory */
SAMPO_API struct sampo_module_sections *sampo_module_sections__new(void);

/** sampo_module_sections__delete() - free it; NULL is fine */
SAMPO_API void sampo_module_sections__delete(struct sampo_module_sections *ms);

/**
 * sampo_module_sections__add() - add (or replace) one module's sections
 * @name: module name ("ext4"), in any form sampo_module__name() takes; stored
 *	  as the kernel names it ('-' as '_', no brackets, path or .ko)
 * @bid: its build-id, or NULL/empty when unknown
 * @secs: section names and load addresses (copied)
 *
 * Return: 0, -EINVAL, -ENOMEM
 */
SAMPO_API int sampo_module_sections__add(struct sampo_module_sections *ms, const char *name,
					 const struct sampo_build_id *bid,
					 const struct sampo_section_addr *secs, size_t nr);

/**
 * sampo_module_sections__collect_one() - read one module from sysfs
 * @sysfs_root: "/sys" (tests pass a directory of their own)
 * @name: the module
 *
 * Sections whose address reads as 0 (no privilege) are left out; a module
 * with none is not added. Return: 0, -ENOENT (no such module, or no address
 * readable), -errno, -ENOMEM
 */
SAMPO_API int sampo_module_sections__collect_one(struct sampo_module_sections *ms,
						 const char *sysfs_root, const char *name);

/**
 * sampo_module_sections__collect() - every module under SYSFS/module with sections
 * @ret: on success, a new set (possibly empty: no modules, or no privilege)
 *
 * Return: 0, -errno (SYSFS/module unreadable), -ENOMEM
 */
SAMPO_API int sampo_module_sections__collect(const char *sysfs_root,
					     struct sampo_module_sections **ret);

/** sampo_module_sections__nr() - number of modules */
SAMPO_API size_t sampo_module_sections__nr(const struct sampo_module_sections *ms);

/** sampo_module_sections__name() - module @idx's name (borrowed) */
SAMPO_API const char *sampo_module_sections__name(const struct sampo_module_sections *ms,
						  size_t idx);

/**
 * sampo_module_sections__find() - the sections of a module
 * @bid: the module's build-id: when given and the set has an entry with a
 *	 build-id, only an entry with this build-id matches
 * @name: the module, in any form sampo_module__name() takes ("nf_tables",
 *	  "nf-tables", "[nf_tables]", a .ko path), used when either side has
 *	  no build-id
 * @nr: set to the number of sections
 *
 * Return: the sections (borrowed), or NULL
 */
SAMPO_API const struct sampo_section_addr *
sampo_module_sections__find(const struct sampo_module_sections *ms,
			    const struct sampo_build_id *bid, const char *name, size_t *nr);

/**
 * sampo_module_sections__encode() - the feature payload
 * @swap: write it in the opposite byte order
 * @ret_buf: on success, the bytes; free() them
 *
 * Return: 0, -ENOMEM
 */
SAMPO_API int sampo_module_sections__encode(const struct sampo_module_sections *ms, bool swap,
					    void **ret_buf, size_t *ret_len);

/**
 * sampo_module_sections__write() - store the set in a host-order perf.data being written
 *
 * File mode only: in pipe mode the feature would become a HEADER_FEATURE
 * record, on which perf 6.1 stops ("wrong feature ID: 192").
 * Return: as sampo_writer__set_feature()
 */
SAMPO_API int sampo_module_sections__write(const struct sampo_module_sections *ms,
					   struct sampo_writer *w);

/**
 * sampo_module_sections__parse() - decode a payload
 * @swap: it comes from an opposite-endian file
 *
 * Return: 0, -SAMPO_ERR_MALFORMED, -SAMPO_ERR_UNSUPPORTED (another version), -ENOMEM
 */
SAMPO_API int sampo_module_sections__parse(const void *buf, size_t len, bool swap,
					   struct sampo_module_sections **ret);

/**
 * sampo_module_sections__read() - the section maps of an open file
 * Return: 0, -ENOENT when the file has none, or as sampo_module_sections__parse()
 */
SAMPO_API int sampo_module_sections__read(struct sampo_reader *reader,
					  struct sampo_module_sections **ret);

/**
 * sampo_module__layout() - where the module loader puts the executable sections
 * @elf: the module's ELF image (a .ko, decompressed)
 * @len: its size
 * @base: the module's base address (its map start, /proc/modules), or 0
 *	  for offsets
 * @ret: on success, a malloc'ed array; free with sampo_section_addrs__free()
 * @ret_nr: its length
 *
 * Redoes kernel/module/main.c layout_sections() for the executable core
 * sections (SHF_ALLOC|SHF_EXECINSTR, not ".init*"): in section-header order,
 * each aligned to its sh_addralign, from @base. This part of the layout is
 * the same from Linux 4.x to 6.x (and to the MOD_TEXT region since 6.4);
 * data and init sections are left out (their place depends on the release
 * and on the init region's base, which is not recorded).
 *
 * Return: 0, -SAMPO_ERR_MALFORMED (not an ET_REL ELF), -ENOMEM
 */
SAMPO_API int sampo_module__layout(const void *elf, size_t len, uint64_t base,
				   struct sampo_section_addr **ret, size_t *ret_nr);

/** sampo_section_addrs__free() - free what sampo_module__layout() returned */
SAMPO_API void sampo_section_addrs__free(struct sampo_section_addr *secs, size_t nr);

/**
 * sampo_module__read_file() - read a module file, decompressing .gz, .xz and .zst
 * @path: the file; the compression is told by its magic bytes
 * @ret_buf: on success, the ELF image; free() it
 *
 * Return: 0, -errno, -SAMPO_ERR_DECOMPRESS, -EFBIG (over 512 MB), -ENOMEM
 */
SAMPO_API int sampo_module__read_file(const char *path, void **ret_buf, size_t *ret_len);

#endif /* SAMPO_MODSECTIONS_H */
