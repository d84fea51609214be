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
	/* MMAP: the current window */
	uint8_t *win;
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

/* Unmap the window and free the buffer; the fd stays the caller's. */
void sampo_source__release(struct sampo_source *src);

#endif
