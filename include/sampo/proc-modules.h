/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * proc-modules.h - the loaded kernel modules, as /proc/modules lists them.
 *
 * One line per module: "name size refcount deps state address [taints]",
 * e.g. "nf_tables 385024 0 - Live 0xffffffffc0a00000 (E)". The address is
 * shown as 0 to a reader who may not see kernel addresses (kptr_restrict).
 *
 * The one reader of this file in libsampo: synthesis (the module maps of a
 * recording) and record (the modules loaded while it runs) use it.
 */
#ifndef SAMPO_PROC_MODULES_H
#define SAMPO_PROC_MODULES_H

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

#endif /* SAMPO_PROC_MODULES_H */
