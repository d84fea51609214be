/* SPDX-License-Identifier: LGPL-2.1 */
/* internal/kmodule.h - the module files of a /lib/modules/R tree (lib/kmodule.c) */
#ifndef SAMPO_INTERNAL_KMODULE_H
#define SAMPO_INTERNAL_KMODULE_H

#include <stddef.h>

struct sampo_module_file {
	char *name; /* normalized: "nf-tables.ko.xz" -> "nf_tables" */
	char *path;
};

/* "ext4" from "/lib/.../ext4.ko.zst", "[ext4]", "nf-tables.ko" ("nf_tables"); malloc'ed */
char *sampo_module__name(const char *path);

/*
 * sampo_module_files__walk() - the module files below @dir (a /lib/modules/R),
 * as perf's maps__set_modules_path_dir() finds them: every file perf's kmod
 * rules call a module (.ko, compressed too), in directory order; symbolic
 * links and the top-level build and source trees are not followed.
 * Return: 0 (a missing @dir gives none), or -ENOMEM; *@ret and *@ret_nr
 * hold what was found either way (free with sampo_module_files__free()).
 */
int sampo_module_files__walk(const char *dir, struct sampo_module_file **ret, size_t *ret_nr);
void sampo_module_files__free(struct sampo_module_file *files, size_t nr);

#endif
