// SPDX-License-Identifier: GPL-2.0
/* fixture.c - see fixture.h */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

void img_init(struct img *im, bool big_endian)
{
	memset(im, 0, sizeof(*im));
	im->big_endian = big_endian;
}

void img_free(struct img *im)
{
	free(im->buf);
	memset(im, 0, sizeof(*im));
}

void img_bytes(struct img *im, const void *p, size_t n)
{
	if (im->len + n > im->cap) {
		size_t cap = im->cap ? im->cap : 4096;

		while (cap < im->len + n)
			cap *= 2;
		im->buf = realloc(im->buf, cap);
		if (!im->buf)
			abort();
		im->cap = cap;
	}
	memcpy(im->buf + im->len, p, n);
	im->len += n;
}

static void put(struct img *im, uint64_t v, size_t n)
{
	uint8_t b[8];

	for (size_t i = 0; i < n; i++) {
		size_t shift = im->big_endian ? (n - 1 - i) * 8 : i * 8;

		b[i] = (uint8_t)(v >> shift);
	}
	img_bytes(im, b, n);
}

void img_u8(struct img *im, uint8_t v) { put(im, v, 1); }
void img_u16(struct img *im, uint16_t v) { put(im, v, 2); }
void img_u32(struct img *im, uint32_t v) { put(im, v, 4); }
void img_u64(struct img *im, uint64_t v) { put(im, v, 8); }

void img_zeros(struct img *im, size_t n)
{
	static const uint8_t z[256];

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		img_bytes(im, z, k);
		n -= k;
	}
}

static void set(struct img *im, size_t off, uint64_t v, size_t n)
{
	size_t save = im->len;

	im->len = off;
	put(im, v, n);
	im->len = save;
}

void img_set_u16(struct img *im, size_t off, uint16_t v) { set(im, off, v, 2); }
void img_set_u32(struct img *im, size_t off, uint32_t v) { set(im, off, v, 4); }
void img_set_u64(struct img *im, size_t off, uint64_t v) { set(im, off, v, 8); }

void img_str(struct img *im, const char *s, size_t align)
{
	size_t n = strlen(s) + 1;
	size_t padded = (n + align - 1) / align * align;

	img_bytes(im, s, n - 1);
	img_zeros(im, padded - (n - 1));
}

size_t img_begin_record(struct img *im, uint32_t type, uint16_t misc)
{
	size_t start = im->len;

	img_u32(im, type);
	img_u16(im, misc);
	img_u16(im, 0);
	return start;
}

void img_end_record(struct img *im, size_t start)
{
	img_set_u16(im, start + 6, (uint16_t)(im->len - start));
}

static uint8_t reverse_bits(uint8_t b)
{
	uint8_t r = 0;

	for (int i = 0; i < 8; i++)
		if (b & (1u << i))
			r |= (uint8_t)(1u << (7 - i));
	return r;
}

void img_attr(struct img *im, uint32_t type, uint64_t config, uint64_t sample_type,
	      uint64_t flags)
{
	img_u32(im, type);
	img_u32(im, 128);
	img_u64(im, config);
	img_u64(im, 4000); /* sample_freq */
	img_u64(im, sample_type);
	img_u64(im, 0x14); /* read_format ID|LOST */
	/*
	 * The bitfield: a little-endian compiler puts field bit N at value bit
	 * N; a big-endian one fills from the most significant bit of the first
	 * byte, i.e. each byte's bits are reversed relative to little-endian.
	 */
	for (int i = 0; i < 8; i++) {
		uint8_t b = (uint8_t)(flags >> (8 * i));

		img_u8(im, im->big_endian ? reverse_bits(b) : b);
	}
	img_zeros(im, 128 - 48);
}

int fixture_remove_tree(const char *dir)
{
	char cmd[4200];

	if ((size_t)snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir) >= sizeof(cmd))
		return -1;
	return system(cmd) == 0 ? 0 : -1;
}
