/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * kmodule.h - the names of kernel modules, by perf 6.1's rules
 * (kmod_path__parse_name()), in one place for the library and its tools.
 *
 *	path					module?	DSO short name	module name
 *	/lib/modules/R/kernel/x/nf-tables.ko	yes	[nf_tables]	nf_tables
 *	/lib/modules/R/.../raid6_pq.ko.zst	yes	[raid6_pq]	raid6_pq
 *	[xor]					yes	[xor]		xor
 *	[kernel.kallsyms], [vdso], [vsyscall]	no	(as is)		-
 *	nf-tables (a /proc/modules name)	no	nf-tables	nf_tables
 *
 * A path is a module when its file name ends in ".ko", possibly followed by
 * a compression suffix (.gz, .xz, .zst, .bz2, .lzma, .lz4); "[name]" is a
 * module unless it names a kernel, a guest kernel or a vdso. The module name
 * is what /proc/modules and /sys/module call it: '-' becomes '_'.
 */
#ifndef SAMPO_KMODULE_H
#define SAMPO_KMODULE_H

#include <stdbool.h>
#include <stddef.h>

#include <sampo/common.h>

/** sampo_kmod__is_module() - @path ("[name]" or a file path) is a kernel module */
SAMPO_API bool sampo_kmod__is_module(const char *path);

/**
 * sampo_kmod__name() - the DSO short name perf gives @path
 * @ret_name: set to "[nf_tables]" for a module, the file name otherwise
 *            (malloc'ed, the caller frees it)
 *
 * Return: 0, or -ENOMEM.
 */
SAMPO_API int sampo_kmod__name(const char *path, char **ret_name);

/**
 * sampo_module__name() - the kernel's name of the module at @path
 *
 * "nf_tables" from "/lib/modules/R/kernel/net/nf-tables.ko.zst", "[nf_tables]"
 * or "nf-tables".
 * Return: a string the caller frees, or NULL when out of memory.
 */
SAMPO_API char *sampo_module__name(const char *path);

/* One module file of a /lib/modules/R tree. */
struct sampo_module_file {
	char *name; /* sampo_module__name(): "nf-tables.ko.xz" -> "nf_tables" */
	char *path;
};

/**
 * sampo_module_files__walk() - the module files below @dir (a /lib/modules/R)
 * @ret: set to the files found (free with sampo_module_files__free())
 * @ret_nr: set to their count
 *
 * As perf's maps__set_modules_path_dir() finds them: every file the rules
 * above call a module (.ko, compressed too), in directory order; symbolic
 * links and the top-level build and source trees are not followed.
 *
 * Return: 0 (a missing @dir gives none), or -ENOMEM; *@ret and *@ret_nr
 * hold what was found either way.
 */
SAMPO_API int sampo_module_files__walk(const char *dir, struct sampo_module_file **ret,
				       size_t *ret_nr);

/** sampo_module_files__free() - free what sampo_module_files__walk() found; NULL is allowed */
SAMPO_API void sampo_module_files__free(struct sampo_module_file *files, size_t nr);

#endif /* SAMPO_KMODULE_H */
