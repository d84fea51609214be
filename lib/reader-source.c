// SPDX-License-Identifier: LGPL-2.1
/*
 * reader-source.c - the reader's input: contiguous byte ranges handed out at
 * increasing offsets, from one of three kinds of source.
 *
 *  - MMAP: a regular file, mapped in windows of SAMPO_SOURCE_WINDOW that move forward
 *    (MAP_POPULATE, MADV_SEQUENTIAL), so resident memory stays at one window
 *    whatever the file size. A range past the window remaps from its page.
 *  - STREAM: a pipe, read into a buffer that grows to the largest range asked
 *    for; bytes before the asked offset are dropped, so a stream never goes
 *    back.
 *  - MEM: a caller's memory image (fuzzers, tests), handed out in place.
 *
 * A range is valid until the next call. Asking past the end is not an error:
 * the caller learns how much is there and decides (truncation, end of data).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal/reader-source.h"
#include "internal/util.h"

#define STREAM_CHUNK (256U << 10) /* read() size for pipes */

int sampo_source__get(struct sampo_source *src, uint64_t off, size_t len, const uint8_t **ret_p,
		      size_t *ret_avail)
{
	switch (src->kind) {
	case SAMPO_SOURCE_MEM:
		if (off > src->size || len > src->size - off) {
			*ret_avail = off < src->size ? (size_t)(src->size - off) : 0;
			return 1;
		}
		*ret_p = src->mem + off;
		return 0;
	case SAMPO_SOURCE_MMAP: {
		uint64_t start, map_len;
		uint64_t page = src->page_size;

		if (off > src->size || len > src->size - off) {
			*ret_avail = off < src->size ? (size_t)(src->size - off) : 0;
			return 1;
		}
		if (src->win && off >= src->win_off && off + len <= src->win_off + src->win_len) {
			*ret_p = src->win + (off - src->win_off);
			return 0;
		}
		if (src->win)
			munmap(src->win, src->win_len);
		src->win = NULL;
		start = off & ~(page - 1);
		map_len = MAX(SAMPO_SOURCE_WINDOW, off + len - start);
		if (map_len > src->size - start)
			map_len = src->size - start;
		src->win = mmap(NULL, map_len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, src->fd,
				(off_t)start);
		if (src->win == MAP_FAILED) {
			src->win = NULL;
			return -errno;
		}
		(void)madvise(src->win, map_len, MADV_SEQUENTIAL);
		src->win_off = start;
		src->win_len = map_len;
		*ret_p = src->win + (off - start);
		return 0;
	}
	case SAMPO_SOURCE_STREAM:
		if (off < src->buf_off)
			return -EINVAL; /* streams only move forward */
		/* drop what lies before off */
		if (off - src->buf_off >= src->buf_len) {
			uint64_t skip = off - src->buf_off - src->buf_len;

			src->buf_off += src->buf_len;
			src->buf_len = 0;
			while (skip > 0 && !src->eof) {
				uint8_t tmp[4096];
				ssize_t n = read(src->fd, tmp, MIN(skip, sizeof(tmp)));

				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0)
					return -errno;
				if (n == 0)
					src->eof = true;
				skip -= (uint64_t)n;
				src->buf_off += (uint64_t)n;
			}
			if (skip) {
				*ret_avail = 0;
				return 1;
			}
		} else if (off > src->buf_off) {
			size_t drop = (size_t)(off - src->buf_off);

			memmove(src->buf, src->buf + drop, src->buf_len - drop);
			src->buf_len -= drop;
			src->buf_off = off;
		}
		if (len > src->buf_cap) {
			size_t cap = MAX((size_t)STREAM_CHUNK, len);
			uint8_t *nb = realloc(src->buf, cap);

			if (!nb)
				return -ENOMEM;
			src->buf = nb;
			src->buf_cap = cap;
		}
		while (src->buf_len < len && !src->eof) {
			ssize_t n = read(src->fd, src->buf + src->buf_len, src->buf_cap - src->buf_len);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return -errno;
			if (n == 0)
				src->eof = true;
			src->buf_len += (size_t)n;
		}
		if (src->buf_len < len) {
			*ret_avail = src->buf_len;
			return 1;
		}
		*ret_p = src->buf;
		return 0;
	}
	return -EINVAL;
}

void sampo_source__release(struct sampo_source *src)
{
	if (src->win)
		munmap(src->win, src->win_len);
	free(src->buf);
	src->win = NULL;
	src->buf = NULL;
}
