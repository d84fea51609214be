// SPDX-License-Identifier: LGPL-2.1
/*
 * output-file.c - create a command's output file, never through a name
 * planted in a shared directory (<sampo/output-file.h>).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/output-file.h>

/* Whether others may create names in @path's directory (world-writable or sticky). */
static int dir_is_shared(const char *path, bool *ret_shared)
{
	char *copy = strdup(path);
	struct stat st;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	if (stat(dirname(copy), &st))
		err = -errno;
	else
		*ret_shared = (st.st_mode & (S_IWOTH | S_ISVTX)) != 0;
	free(copy);
	return err;
}

int sampo_output_file__create(const char *path, unsigned int mode)
{
	bool shared = false;
	struct stat st;
	int fd, err, flags;

	if (!path || !*path)
		return -EINVAL;
	err = dir_is_shared(path, &shared);
	if (err && err != -ENOENT)
		return err;
	if (!shared) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, (mode_t)mode);
		return fd < 0 ? -errno : fd;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
	if (fd >= 0 || errno != EEXIST)
		return fd < 0 ? -errno : fd;
	/* O_NONBLOCK: a FIFO planted there must not block the open */
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ENXIO ? -EEXIST : -errno; /* ENXIO: a FIFO without a reader */
	if (fstat(fd, &st)) {
		err = -errno;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		err = -EEXIST;
		goto out_close;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) || ftruncate(fd, 0)) {
		err = -errno;
		goto out_close;
	}
	return fd;
out_close:
	close(fd);
	return err;
}
