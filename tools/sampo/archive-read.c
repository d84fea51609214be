// SPDX-License-Identifier: GPL-2.0
/*
 * archive-read.c - unpack archives for `sampo archive --unpack` and
 * `sampo report|script --archive`.
 *
 * An archive of `sampo archive` or `perf archive` holds a build-id cache.
 * An --all archive (perf 6.12) holds the profile and, nested, such an
 * archive named perf.symbols.tar.bz2. Everything goes through libsampo's
 * sampo_archive__unpack(), which refuses members that would land outside
 * their target; the nested archive is unpacked from the outer one's private
 * copy, never from a path the archive could redirect (it is a regular file
 * by lstat, not a link).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/archive.h>
#include <sampo/common.h>

#include "archive-read.h"
#include "cli.h"

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		(void)rmdir(path);
	else
		(void)unlink(path);
	return 0;
}

void rm_tree(const char *path)
{
	if (path)
		(void)nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static struct archive_bounds bounds;

void archive_set_bounds(const struct archive_bounds *b)
{
	bounds = *b;
}

static int unpack(const char *file, const char *what, const char *dest)
{
	char errbuf[512] = "";
	SAMPO_OPTS(sampo_archive_unpack_opts, uo, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf),
		   .max_member_bytes = bounds.max_member, .max_total_bytes = bounds.max_total);
	int err = sampo_archive__unpack(file, dest, &uo);

	if (!err)
		return 0;
	if (errbuf[0])
		return cli_err(0, "'%s'%s: %s", file, what, errbuf);
	return cli_err(err, "cannot unpack '%s'%s", file, what);
}

/*
 * The profile of an unpacked --all archive: the one regular file at its top
 * besides the symbols (perf puts the perf.data it was given there).
 */
static int find_data(const char *dir, char **ret_name)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	*ret_name = NULL;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, ARCHIVE_SYMBOLS_MEMBER))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (!*ret_name || strcmp(de->d_name, *ret_name) < 0) {
			free(*ret_name);
			*ret_name = strdup(de->d_name);
		}
		n++;
	}
	closedir(d);
	return *ret_name ? n : -ENOENT;
}

/* the nested symbol archive: a regular file, not a link the archive planted */
static int unpack_nested(const char *file, const char *outer_dir, const char *cache_dir)
{
	char *nested = NULL;
	struct stat st;
	int ret;

	if (asprintf(&nested, "%s/%s", outer_dir, ARCHIVE_SYMBOLS_MEMBER) < 0)
		return cli_err(-ENOMEM, "out of memory");
	if (lstat(nested, &st) || !S_ISREG(st.st_mode)) {
		free(nested);
		return cli_err(0, "'%s': member '%s' is not a regular file", file,
			       ARCHIVE_SYMBOLS_MEMBER);
	}
	ret = unpack(nested, "", cache_dir);
	free(nested);
	return ret;
}

int archive_unpack_all(const char *file, bool is_all, const char *cache_dir, const char *data_dir,
		       bool force, char **ret_data)
{
	char *tmp = NULL, *name = NULL, *from = NULL, *to = NULL;
	struct stat st;
	int ret;

	if (ret_data)
		*ret_data = NULL;
	if (!is_all)
		return unpack(file, "", cache_dir);
	/* the outer archive goes to a private directory next to the profile's target */
	if (asprintf(&tmp, "%s/.sampo-archive.XXXXXX", data_dir) < 0)
		return cli_err(-ENOMEM, "out of memory");
	if (!mkdtemp(tmp)) {
		ret = cli_err(-errno, "cannot create a directory in '%s'", data_dir);
		free(tmp);
		return ret;
	}
	ret = unpack(file, "", tmp);
	if (!ret)
		ret = unpack_nested(file, tmp, cache_dir);
	if (!ret && (find_data(tmp, &name) < 0 || !name))
		ret = cli_err(0, "'%s': no profile next to '%s'", file, ARCHIVE_SYMBOLS_MEMBER);
	if (!ret && name && (asprintf(&from, "%s/%s", tmp, name) < 0 ||
		     asprintf(&to, "%s/%s", data_dir, name) < 0))
		ret = cli_err(-ENOMEM, "out of memory");
	if (!ret && to && !force && !lstat(to, &st))
		ret = cli_err(0, "'%s' exists: remove it or use --force", to);
	if (!ret && from && to && rename(from, to))
		ret = cli_err(-errno, "cannot create '%s'", to);
	if (!ret && ret_data) {
		*ret_data = to;
		to = NULL;
	}
	rm_tree(tmp);
	free(tmp);
	free(name);
	free(from);
	free(to);
	return ret;
}

int archive_view_open(const char *file, struct archive_view *v)
{
	const char *base = getenv("TMPDIR");
	int is_all, ret;

	memset(v, 0, sizeof(*v));
	is_all = sampo_archive__has_member(file, ARCHIVE_SYMBOLS_MEMBER);
	/* a damaged archive is the unpacker's to describe, member by member */
	if (is_all < 0 && is_all != -SAMPO_ERR_MALFORMED)
		return cli_err(is_all, "cannot read the archive '%s'", file);
	if (asprintf(&v->tmp, "%s/sampo-archive.XXXXXX", base && *base ? base : "/tmp") < 0) {
		v->tmp = NULL;
		return cli_err(-ENOMEM, "out of memory");
	}
	if (!mkdtemp(v->tmp)) {
		ret = cli_err(-errno, "cannot create a temporary directory for '%s'", file);
		free(v->tmp);
		v->tmp = NULL;
		return ret;
	}
	if (asprintf(&v->cache, "%s/debug", v->tmp) < 0) {
		v->cache = NULL;
		return cli_err(-ENOMEM, "out of memory");
	}
	ret = archive_unpack_all(file, is_all > 0, v->cache, v->tmp, false, &v->data);
	if (!ret && mkdir(v->cache, 0700) && errno != EEXIST)
		ret = cli_err(-errno, "cannot create '%s'", v->cache);
	return ret;
}

int archive_view_use(const struct archive_view *v)
{
	if (setenv("SAMPO_BUILDID_DIR", v->cache, 1))
		return cli_err(-errno, "cannot set SAMPO_BUILDID_DIR");
	return 0;
}

void archive_view_close(struct archive_view *v)
{
	rm_tree(v->tmp);
	free(v->tmp);
	free(v->cache);
	free(v->data);
	memset(v, 0, sizeof(*v));
}

static struct archive_view the_view;

static void the_view_close(void)
{
	archive_view_close(&the_view);
}

int archive_view_setup(const char *file, const char **input_io)
{
	int ret;

	if (!file)
		return 0;
	if (the_view.tmp)
		return cli_err(0, "--archive is given twice");
	ret = archive_view_open(file, &the_view);
	if (!ret)
		ret = archive_view_use(&the_view);
	if (ret) {
		archive_view_close(&the_view);
		return ret;
	}
	atexit(the_view_close);
	if (the_view.data && (!*input_io || !**input_io))
		*input_io = the_view.data;
	return 0;
}
