/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture.h - build perf.data images in memory for unit tests, in either byte
 * order, without going through the library's writer (so reader tests do not
 * depend on the code they check against).
 */
#ifndef SAMPO_TEST_FIXTURE_H
#define SAMPO_TEST_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct img {
	uint8_t *buf;
	size_t len, cap;
	bool big_endian; /* write multi-byte fields big-endian */
};

void img_init(struct img *im, bool big_endian);
void img_free(struct img *im);
void img_u8(struct img *im, uint8_t v);
void img_u16(struct img *im, uint16_t v);
void img_u32(struct img *im, uint32_t v);
void img_u64(struct img *im, uint64_t v);
void img_bytes(struct img *im, const void *p, size_t n);
void img_zeros(struct img *im, size_t n);
/* Overwrite a field already written at @off. */
void img_set_u16(struct img *im, size_t off, uint16_t v);
void img_set_u32(struct img *im, size_t off, uint32_t v);
void img_set_u64(struct img *im, size_t off, uint64_t v);
/* A string padded with NULs to a multiple of @align. */
void img_str(struct img *im, const char *s, size_t align);
/* Start a record; img_end_record() fills in its size. Returns its offset. */
size_t img_begin_record(struct img *im, uint32_t type, uint16_t misc);
void img_end_record(struct img *im, size_t start);

/*
 * A perf_event_attr of 128 bytes (VER7) with the given fields; the flags
 * bitfield is written as a big-endian compiler lays it out when big_endian.
 */
void img_attr(struct img *im, uint32_t type, uint64_t config, uint64_t sample_type,
	      uint64_t flags);

/* remove a test's scratch directory and all below it: 0, or -1 (a group teardown's result) */
int fixture_remove_tree(const char *dir);

#endif
