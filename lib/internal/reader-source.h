/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/reader-source.h - where the reader's bytes come from: a window
 * mapped over a regular file, a read buffer over a pipe, or a caller's memory
 * image (see lib/reader-source.c).
 */
#ifndef SAMPO_INTERNAL_READER_SOURCE_H
#define SAMPO_INTERNAL_READER_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* bytes mapped at once over a file: a range up to this size can be handed out in place */
#define SAMPO_SOURCE_WINDOW (4ULL << 20)

enum sampo_source_kind { SAMPO_SOURCE_MEM, SAMPO_SOURCE_MMAP, SAMPO_SOURCE_STREAM };

struct sampo_source {
	enum sampo_source_kind kind;
	int fd;
	uint64_t size; /* MEM, MMAP: bytes in the input */
	const uint8_t *mem;
	/*
	 * MMAP: the current window, or the whole file when @whole (64-bit hosts:
	 * a range then stays valid until release, and pages behind the reader
	 * are given back with sampo_source__drop_before())
	 */
	uint8_t *win;
	bool whole, whole_failed;
	uint64_t populated; /* whole: pages faulted in ahead up to here */
	uint64_t dropped;   /* whole: pages before this given back */
	uint64_t redrop_all_at; /* whole: from here, pages given back again from the start */
	uint64_t page_size; /* read once: sysconf() per record cost 16% of a bare walk */
	uint64_t win_off;
	size_t win_len;
	/* STREAM: bytes [buf_off, buf_off + buf_len) are in buf */
	uint8_t *buf;
	size_t buf_cap, buf_len;
	uint64_t buf_off;
	bool eof;
};

/*
 * sampo_source__get() - make [@off, @off + @len) available; *@ret_p points to
 * it until the next call. Streams only move forward.
 * Return: 0; 1 when the input ends first (*@ret_avail tells how much is
 * there); or -errno (-EINVAL for a stream asked to go back, -ENOMEM, I/O).
 */
int sampo_source__get(struct sampo_source *src, uint64_t off, size_t len, const uint8_t **ret_p,
		      size_t *ret_avail);

/*
 * sampo_source__stable() - whether a range handed out stays valid until
 * release (a caller's memory image, or a file mapped whole) rather than until
 * the next call; then *@lo and *@hi bound every such range (the whole
 * input). A file is mapped whole here if it is not yet.
 */
bool sampo_source__stable(struct sampo_source *src, const uint8_t **lo, const uint8_t **hi);

/*
 * sampo_source__drop_before() - a file mapped whole: give back the pages
 * before @off (MADV_DONTNEED), so that resident memory stays near what the
 * reader still uses. Pointers into them stay valid: a page touched again is
 * read again from the file.
 */
void sampo_source__drop_before(struct sampo_source *src, uint64_t off);

/* Unmap the window and free the buffer; the fd stays the caller's. */
void sampo_source__release(struct sampo_source *src);

#endif
