/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * proc-modules.h - the loaded kernel modules, as /proc/modules lists them.
 *
 * One line per module: "name size refcount deps state address [taints]",
 * e.g. "nf_tables 385024 0 - Live 0xffffffffc0a00000 (E)". The address is
 * shown as 0 to a reader who may not see kernel addresses (kptr_restrict).
 *
 * The one reader of this file in libsampo: synthesis (the module maps of a
 * recording) and the module watch (the modules loaded while record runs)
 * use it.
 */
#ifndef SAMPO_PROC_MODULES_H
#define SAMPO_PROC_MODULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

#define SAMPO_MODULE_NAME_SIZE 64 /* the kernel's MODULE_NAME_LEN is 56 on 64-bit */

/* One line of /proc/modules. A value type. */
struct sampo_proc_module {
	char name[SAMPO_MODULE_NAME_SIZE]; /* as listed ("nf_tables"), NUL-terminated */
	uint64_t size_bytes;		   /* of its core section */
	uint64_t addr;			   /* its base; 0 when hidden or not shown */
};

/**
 * sampo_proc_modules__parse() - parse the text of /proc/modules
 * @buf: the text; need not be NUL-terminated, may end in the middle of a line
 * @len: its length in bytes
 * @ret_mods: on success, an array of the modules (free() it), NULL when
 *	      there are none
 * @ret_nr: on success, its length
 *
 * A line is taken when it starts with a name (at most
 * SAMPO_MODULE_NAME_SIZE - 1 bytes) and a decimal size; the address is the
 * first later field that starts with "0x" (0 when there is none). Other
 * lines are skipped, as perf skips them.
 * Return: 0, -EINVAL, -ENOMEM
 */
SAMPO_API int sampo_proc_modules__parse(const char *buf, size_t len,
					struct sampo_proc_module **ret_mods, size_t *ret_nr);

/**
 * sampo_proc_modules__read() - read and parse PROC/modules
 * @proc_dir: where /proc is (NULL: "/proc")
 * @ret_mods, @ret_nr: as for sampo_proc_modules__parse()
 *
 * Return: 0, -ENOENT (no such file: a kernel without loadable modules),
 * -EFBIG (longer than 16 MiB), -ENOMEM, -errno
 */
SAMPO_API int sampo_proc_modules__read(const char *proc_dir, struct sampo_proc_module **ret_mods,
				       size_t *ret_nr);

/*
 * A module watch: the modules loaded when it was made, and those loaded
 * since, found by reading PROC/modules again (sampo record polls it while
 * recording, to map the modules loaded meanwhile: perf does not). A module
 * unloaded stays known: its maps stay valid for the samples taken before.
 */
struct sampo_module_watch;

/**
 * sampo_module_watch__new() - remember the modules loaded now
 * @proc_dir: where /proc is (NULL: "/proc"); borrowed, copied
 * @ret_watch: on success, the watch; free with sampo_module_watch__delete()
 *
 * Return: 0, or as sampo_proc_modules__read() (-ENOENT: no loadable modules)
 */
SAMPO_API int sampo_module_watch__new(const char *proc_dir, struct sampo_module_watch **ret_watch);

/** sampo_module_watch__delete() - free a watch; NULL is fine */
SAMPO_API void sampo_module_watch__delete(struct sampo_module_watch *w);

/**
 * sampo_module_watch__poll() - read PROC/modules again
 *
 * The modules not seen before become the new ones (until the next poll),
 * appended to the known ones.
 * Return: the number of new modules (0 or more), or -errno / -ENOMEM; on
 * error nothing is new
 */
SAMPO_API int sampo_module_watch__poll(struct sampo_module_watch *w);

/**
 * sampo_module_watch__nr() / __name() - every module known, in the order
 * seen: loaded at creation, then those found by each poll
 * Return: the count; the name of module @idx (borrowed, valid while @w
 * lives), NULL past the end
 */
SAMPO_API size_t sampo_module_watch__nr(const struct sampo_module_watch *w);
SAMPO_API const char *sampo_module_watch__name(const struct sampo_module_watch *w, size_t idx);

/**
 * sampo_module_watch__is_new() - whether a module map belongs to a module
 *				  the last poll found
 * @map_name: a module map's name: its file ("/lib/modules/R/.../nf-tables.ko.xz")
 *	      or "[nf_tables]"; the kernel's rules map it to "nf_tables"
 */
SAMPO_API bool sampo_module_watch__is_new(const struct sampo_module_watch *w,
					  const char *map_name);

#endif /* SAMPO_PROC_MODULES_H */
