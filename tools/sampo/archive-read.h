/* SPDX-License-Identifier: GPL-2.0 */
/*
 * archive-read.h - read an archive of `sampo archive` / `perf archive`
 * (plain or --all) for report and script: unpacked with libsampo's safe
 * unpacker into a private temporary directory that serves as the build-id
 * cache of the run, and removed at the end.
 */
#ifndef SAMPO_ARCHIVE_READ_H
#define SAMPO_ARCHIVE_READ_H

#include <stdbool.h>
#include <stdint.h>

struct archive_view {
	char *tmp;   /* the private directory; NULL when not set up */
	char *cache; /* its build-id cache: TMP/debug */
	char *data;  /* an --all archive's perf.data (TMP/all/NAME), else NULL */
};

/* the name perf archive --all gives the nested symbol archive */
#define ARCHIVE_SYMBOLS_MEMBER "perf.symbols.tar.bz2"

/*
 * archive_view_open() - unpack @file; errors are printed (one line naming
 * the file and the member). Return: 0 or the exit code.
 */
int archive_view_open(const char *file, struct archive_view *v);

/*
 * archive_view_use() - make @v's cache the build-id cache of this process
 * (SAMPO_BUILDID_DIR, which every lookup honours first)
 */
int archive_view_use(const struct archive_view *v);

/* archive_view_close() - remove the directory and free @v (zeroed) */
void archive_view_close(struct archive_view *v);

/*
 * archive_view_setup() - --archive FILE of report and script: unpack it
 * (archive_view_open()), make it the build-id cache of the process, remove
 * it at exit; an --all archive's profile becomes *@input_io unless one was
 * named. @file NULL: nothing to do. Return: 0 or the exit code (printed).
 */
int archive_view_setup(const char *file, const char **input_io);

/* the unpacker's bounds (0: libsampo's defaults), for every unpack that follows */
struct archive_bounds {
	uint64_t max_member, max_total;
};
void archive_set_bounds(const struct archive_bounds *b);

/* rm_tree() - remove @path and everything below it, never following a symlink */
void rm_tree(const char *path);

/*
 * archive_unpack_all() - unpack @file, an --all archive (@is_all) or not:
 * the symbols below @cache_dir; an --all archive's profile (its other
 * regular top-level member) to @data_dir (a file that exists is replaced
 * only with @force). @ret_data (optional) gets the profile's path.
 * Return: 0 or the exit code (printed).
 */
int archive_unpack_all(const char *file, bool is_all, const char *cache_dir, const char *data_dir,
		       bool force, char **ret_data);

#endif
