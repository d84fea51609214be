/* SPDX-License-Identifier: LGPL-2.1 */
/* fileio.h - whole-file reads with a bound (lib/fileio.c) */
#ifndef SAMPO_INTERNAL_FILEIO_H
#define SAMPO_INTERNAL_FILEIO_H

#include <stddef.h>

/**
 * sampo_read_fd() - read @fd to its end into a new buffer
 * @fd: borrowed; read from its current offset, retried on EINTR
 * @max_bytes: the most the file may hold (what a hostile or sparse file
 *	       could otherwise make us allocate)
 * @size_hint: the first allocation (st_size when known; 0: a small default),
 *	       since /proc and sysfs files report a size of 0 or 4096 whatever
 *	       they hold
 * @ret_buf: on success, the bytes, NUL-terminated one past *@ret_len; free()
 * @ret_len: on success, how many bytes were read
 *
 * Return: 0, -EFBIG when the file holds more than @max_bytes, -ENOMEM, or
 * the -errno of read().
 */
int sampo_read_fd(int fd, size_t max_bytes, size_t size_hint, char **ret_buf, size_t *ret_len);

#endif /* SAMPO_INTERNAL_FILEIO_H */
