// SPDX-License-Identifier: GPL-2.0
/*
 * record-compress.c - record -z (record-compress.h).
 *
 * perf's zstd_compress_stream_to_records() with ZSTD_e_flush: the records
 * of a stage go through one zstd stream and come out as COMPRESSED records
 * of at most 65526 bytes of payload (perf's bound; their sizes are not
 * multiples of 8, as perf's are not). Each stage holds whole records, at
 * most the feature's mmap_len bytes, and ends flushed: so no COMPRESSED
 * record inflates past mmap_len, which perf's reader allocates for each.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/writer.h>

#include "record-compress.h"

#define COMPRESSED_PAYLOAD_MAX (65535u - 8u - 1u) /* perf's max_record_size */

struct record_compress {
	ZSTD_CCtx *cctx;
	int level;
	uint8_t *stage; /* whole records, host order */
	size_t len, cap;
	uint8_t *out; /* one COMPRESSED record */
	uint64_t bytes_in, bytes_out;
};

int record_compress__new(int level, size_t cap, struct record_compress **ret)
{
	struct record_compress *c;

	if (level < 0 || level > RECORD_COMPRESS_MAX_LEVEL || cap < 65536 || cap > UINT32_MAX)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->level = level;
	c->cap = cap;
	c->cctx = ZSTD_createCCtx();
	c->stage = malloc(cap);
	c->out = malloc(sizeof(struct sampo_record_header) + COMPRESSED_PAYLOAD_MAX);
	if (!c->cctx || !c->stage || !c->out ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_compressionLevel, level))) {
		record_compress__delete(c);
		return -ENOMEM;
	}
	*ret = c;
	return 0;
}

void record_compress__delete(struct record_compress *c)
{
	if (!c)
		return;
	ZSTD_freeCCtx(c->cctx);
	free(c->stage);
	free(c->out);
	free(c);
}

int record_compress__flush(struct record_compress *c, struct sampo_writer *w)
{
	ZSTD_inBuffer in = { c->stage, c->len, 0 };
	size_t left;

	if (!c->len)
		return 0;
	do {
		struct sampo_record_header hdr = { .type = SAMPO_RECORD_COMPRESSED };
		ZSTD_outBuffer out = { c->out + sizeof(hdr), COMPRESSED_PAYLOAD_MAX, 0 };
		int err;

		left = ZSTD_compressStream2(c->cctx, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(left))
			return -EIO;
		if (!out.pos)
			continue;
		hdr.size = (uint16_t)(sizeof(hdr) + out.pos);
		memcpy(c->out, &hdr, sizeof(hdr));
		err = sampo_writer__write_raw(w, c->out, hdr.size);
		if (err)
			return err;
		c->bytes_out += hdr.size;
	} while (left || in.pos < in.size);
	c->bytes_in += c->len;
	c->len = 0;
	return 0;
}

int record_compress__add(struct record_compress *c, struct sampo_writer *w, const void *rec,
			 size_t size)
{
	if (c->len + size > c->cap) {
		int err = record_compress__flush(c, w);

		if (err)
			return err;
	}
	memcpy(c->stage + c->len, rec, size); /* a record is at most 64 KiB, the stage more */
	c->len += size;
	return 0;
}

void record_compress__feature(const struct record_compress *c, uint32_t v[5])
{
	/* perf's write_compressed(): version, type (1: zstd), level, ratio, mmap_len */
	v[0] = 0;
	v[1] = 1;
	v[2] = (uint32_t)c->level;
	v[3] = c->bytes_out ? (uint32_t)((double)c->bytes_in / (double)c->bytes_out + 0.5) : 0;
	v[4] = (uint32_t)c->cap;
}

int record_compress__set_feature(struct record_compress *c, struct sampo_writer *w)
{
	uint32_t v[5];

	record_compress__feature(c, v);
	return sampo_writer__set_feature_u32s(w, SAMPO_FEAT_COMPRESSED, v, 5);
}

void record_compress__bytes(const struct record_compress *c, uint64_t *in, uint64_t *out)
{
	*in = c->bytes_in;
	*out = c->bytes_out;
}
