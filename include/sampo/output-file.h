/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * output-file.h - create the file a command writes (a perf.data, a
 * flame graph, a pprof profile, an archive, a JSON export) without
 * being led by a name someone else planted.
 *
 * In a directory that is the user's, a name is the user's: it is created
 * or truncated as open(2) does, links followed. In a directory others may
 * write to (world-writable or sticky: /tmp, /dev/shm) the name may be a
 * symbolic link someone planted, dangling (we would create the file its
 * owner chose) or not (we would truncate it), or a hard link to another
 * file. There nothing is followed: the file is created with O_EXCL |
 * O_NOFOLLOW, and an existing name is reused only when it is a regular
 * file of the caller's with a single link, checked on the open
 * descriptor before it is truncated.
 *
 *	fd = sampo_output_file__create(path, 0644);
 *	if (fd == -ELOOP || fd == -EEXIST)
 *		... "remove PATH, or write to a directory of your own" ...
 */
#ifndef SAMPO_OUTPUT_FILE_H
#define SAMPO_OUTPUT_FILE_H

#include <sampo/common.h>

/**
 * sampo_output_file__create() - create or truncate @path for writing
 * @mode: the permissions of a new file (less the umask): 0600 for what
 *	holds kernel addresses and command lines, as perf.data
 *
 * Return: an O_CLOEXEC descriptor open for writing; -ELOOP (a symbolic
 * link in a shared directory), -EEXIST (a file there that is not the
 * caller's alone: another's, a FIFO, a device, a directory or a hard
 * link), or another -errno.
 */
SAMPO_API int sampo_output_file__create(const char *path, unsigned int mode);

#endif /* SAMPO_OUTPUT_FILE_H */
