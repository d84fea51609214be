/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/path.h - checks for strings that come from a file (a perf.data,
 * an ELF, a mounted guest tree) before they become part of a path
 * (lib/path.c).
 *
 * A recorded OS release, module name or DSO name is chosen by whoever made
 * the file: "../../.." as a release would make /lib/modules/R the root of
 * the filesystem. Every such string is checked here before it is joined
 * into a path; a string that fails is treated as absent (no file for it).
 */
#ifndef SAMPO_INTERNAL_PATH_H
#define SAMPO_INTERNAL_PATH_H

#include <stdbool.h>

/*
 * sampo_path__is_name() - @name may be one path component: not NULL, not
 * empty, no '/', not "." or "..", no control characters (a newline in a
 * file name breaks the messages that quote it).
 */
bool sampo_path__is_name(const char *name);

/*
 * sampo_path__is_clean() - @path may be joined below a root and stay below
 * it: not NULL, not empty, no "." or ".." component, no control characters.
 * It may be absolute, and may have repeated slashes.
 */
bool sampo_path__is_clean(const char *path);

/*
 * sampo_path__mkdir_open() - create @dir and its parents as `mkdir -p` does
 * (mode 0755, following symlinks: the user chose the path), then open it as a
 * directory: the descriptor, or -errno.
 */
int sampo_path__mkdir_open(const char *dir);

#endif
