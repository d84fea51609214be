// SPDX-License-Identifier: LGPL-2.1
/*
 * reader-source.c - the reader's input: contiguous byte ranges handed out at
 * increasing offsets, from one of three kinds of source.
 *
 *  - MMAP: a regular file. On a 64-bit host it is mapped whole, once, so that a
 *    range stays valid until the source is released: the ordering queue and
 *    the read-ahead batches keep pointers to records instead of copies. Pages
 *    are faulted in a window ahead of the reader (MADV_POPULATE_READ) and
 *    given back behind it (MADV_DONTNEED, sampo_source__drop_before(): the
 *    reader says what it still needs), so resident memory stays small
 *    whatever the file size; a page given back and touched again is read
 *    again from the file, so a pointer never goes stale. Where the whole
 *    file cannot be mapped (32-bit, or mmap() refuses), windows of
 *    SAMPO_SOURCE_WINDOW that move forward (MAP_POPULATE, MADV_SEQUENTIAL);
 *    a range past the window remaps from its page.
 *  - STREAM: a pipe, read into a buffer that grows to the largest range asked
 *    for; bytes before the asked offset are dropped, so a stream never goes
 *    back.
 *  - MEM: a caller's memory image (fuzzers, tests), handed out in place.
 *
 * A range is valid until the next call (until release where
 * sampo_source__stable() says so). Asking past the end is not an error:
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
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14 */
#endif
#define WHOLE_AHEAD (2U << 20) /* whole: bytes faulted in ahead of a range at once */
#define WHOLE_DROP_MIN (1U << 20) /* whole: pages given back at least this many at once */
#define WHOLE_REDROP (16U << 20)  /* whole: pages given back again behind the last end */
#define WHOLE_REDROP_ALL (64U << 20) /* whole: every so many bytes, all of them behind */

/* A 64-bit host maps a regular file whole, once. */
static bool map_whole(struct sampo_source *src)
{
	void *p;

	if (src->whole)
		return true;
	if (src->whole_failed || sizeof(void *) < 8 || src->size == 0 ||
	    src->size > (uint64_t)SIZE_MAX / 2)
		return false;
	p = mmap(NULL, (size_t)src->size, PROT_READ, MAP_PRIVATE, src->fd, 0);
	if (p == MAP_FAILED) {
		src->whole_failed = true; /* windows instead */
		return false;
	}
	if (src->win)
		munmap(src->win, src->win_len);
	src->win = p;
	src->win_off = 0;
	src->win_len = (size_t)src->size;
	src->whole = true;
	src->populated = 0;
	src->dropped = 0;
	src->redrop_all_at = WHOLE_REDROP_ALL;
	return true;
}

/* fault in the window ahead of a range that reaches past what is resident */
static void populate(struct sampo_source *src, uint64_t off, size_t len)
{
	uint64_t start = off & ~(src->page_size - 1);
	uint64_t end = MIN(src->size, off + len + WHOLE_AHEAD);

	if (start < src->populated)
		start = src->populated;
	if (end < src->size)
		end &= ~(src->page_size - 1); /* madvise() wants whole pages */
	if (end <= start)
		return;
	if (madvise(src->win + start, (size_t)(end - start), MADV_POPULATE_READ))
		(void)madvise(src->win + start, (size_t)(end - start), MADV_WILLNEED);
	src->populated = end;
}

bool sampo_source__stable(struct sampo_source *src, const uint8_t **lo, const uint8_t **hi)
{
	if (src->kind == SAMPO_SOURCE_MEM) {
		*lo = src->mem;
		*hi = src->mem + src->size;
		return true;
	}
	if (src->kind != SAMPO_SOURCE_MMAP || !map_whole(src))
		return false;
	*lo = src->win;
	*hi = src->win + src->win_len;
	return true;
}

void sampo_source__drop_before(struct sampo_source *src, uint64_t off)
{
	uint64_t start, end;

	/*
	 * Never past the mapping: madvise() would zap whatever is mapped
	 * behind it (a stream's reader can skip a payload past the end).
	 */
	if (off > src->win_len)
		off = src->win_len;
	end = off & ~(src->page_size - 1);

	/* in steps, not a page at a time: each call is a system call */
	if (!src->whole || end < src->dropped + WHOLE_DROP_MIN)
		return;
	/*
	 * From a little before the last end: a record handed out late (a
	 * read-ahead batch, a record the queue let go of) may have brought
	 * its page back since.
	 */
	start = src->dropped > WHOLE_REDROP ? src->dropped - WHOLE_REDROP : 0;
	/*
	 * And now and then from the start: a record read again far behind
	 * (one the ordering queue held long, then let go of and popped; the
	 * unwind pool's in-place samples) brings its page back for good
	 * otherwise. Report of a 7.9 GB DWARF file, whose rounds of records
	 * span hundreds of MB: 4.6 GB resident without this, 0.3 GB with it.
	 * Pages given back already cost little to walk again.
	 */
	if (end >= src->redrop_all_at) {
		start = 0;
		src->redrop_all_at = end + WHOLE_REDROP_ALL;
	}
	(void)madvise(src->win + start, (size_t)(end - start), MADV_DONTNEED);
	src->dropped = end;
}

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
		if (src->whole || map_whole(src)) {
			if (off + len > src->populated)
				populate(src, off, len);
			*ret_p = src->win + off;
			return 0;
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
	src->whole = false;
}
