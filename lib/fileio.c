// SPDX-License-Identifier: LGPL-2.1
/*
 * fileio.c - read a whole file into memory, with a bound.
 *
 * /proc and sysfs files report a size of 0 or 4096 whatever they hold, so
 * their readers cannot size a buffer from fstat(): they read to EOF into a
 * buffer that doubles. The kallsyms loader, /proc/modules and the kernel's
 * notes each had a copy of that loop, and one of them had no bound (a
 * sparse 1 GB "kallsyms" in the build-id cache was read whole). Here it is
 * once, always with the caller's bound, and a regular file bigger than
 * the bound is refused by its size before a byte is read.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal/fileio.h"

#define FILEIO_DEFAULT_HINT 16384

int sampo_read_fd(int fd, size_t max_bytes, size_t size_hint, char **ret_buf, size_t *ret_len)
{
	size_t len = 0, alloc = 0;
	char *buf = NULL;
	int err = 0;

	struct stat st;

	/* a regular file says its size: refuse a too big one before reading it */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > max_bytes)
		return -EFBIG;
	if (!size_hint)
		size_hint = FILEIO_DEFAULT_HINT;
	for (;;) {
		ssize_t n;

		if (len == alloc) {
			size_t want = alloc ? alloc * 2 : size_hint;
			char *nb;

			if (alloc > max_bytes) {
				err = -EFBIG;
				break;
			}
			if (want > max_bytes + 1)
				want = max_bytes + 1; /* one byte past the bound says "too big" */
			nb = realloc(buf, want + 1);
			if (!nb) {
				err = -ENOMEM;
				break;
			}
			buf = nb;
			alloc = want;
		}
		n = read(fd, buf + len, alloc - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (!err && len > max_bytes)
		err = -EFBIG;
	if (err) {
		free(buf);
		return err;
	}
	if (!buf) { /* an empty file with a zero hint cannot happen, but be safe */
		buf = malloc(1);
		if (!buf)
			return -ENOMEM;
	}
	buf[len] = '\0';
	*ret_buf = buf;
	*ret_len = len;
	return 0;
}
