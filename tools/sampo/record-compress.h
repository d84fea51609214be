/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-compress.h - record -z: the records read from the rings, written as
 * perf record -z writes them: zstd COMPRESSED records (type 81), one
 * stream for the whole file, flushed at the end of each pass over the rings
 * (before its FINISHED_ROUND), and the COMPRESSED feature that says how to
 * read them (version 0, type zstd, level, ratio, and the most one record
 * inflates to: perf's mmap_len).
 *
 *	record_compress__new(1, mmap_len, &c);
 *	record_compress__set_feature(c, w);		// before the first record
 *	record_compress__add(c, w, rec, size);		// each ring record
 *	record_compress__flush(c, w);			// before each FINISHED_ROUND
 *	record_compress__set_feature(c, w);		// at the end: the ratio
 */
#ifndef SAMPO_RECORD_COMPRESS_H
#define SAMPO_RECORD_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

struct sampo_writer;
struct record_compress;

#define RECORD_COMPRESS_MAX_LEVEL 22 /* zstd's, as perf's -z */

/*
 * record_compress__new() - a compressor at zstd @level (1..22; 0: zstd's default) whose
 * records each inflate to at most @cap bytes (whole records are staged up
 * to it). Return: 0, -EINVAL, -ENOMEM.
 */
int record_compress__new(int level, size_t cap, struct record_compress **ret);
void record_compress__delete(struct record_compress *c);

/* Stage one record (host order, @size bytes); the stage is compressed into @w when full. */
int record_compress__add(struct record_compress *c, struct sampo_writer *w, const void *rec,
			 size_t size);

/* Everything staged, as COMPRESSED records written to @w. Return: 0 or an error. */
int record_compress__flush(struct record_compress *c, struct sampo_writer *w);

/* The COMPRESSED feature of @w, with the ratio so far. */
int record_compress__set_feature(struct record_compress *c, struct sampo_writer *w);

/* Its payload, host order: version 0, type 1 (zstd), level, ratio, mmap_len. */
void record_compress__feature(const struct record_compress *c, uint32_t v[5]);

/* What went in and what came out (COMPRESSED records, headers included), in bytes. */
void record_compress__bytes(const struct record_compress *c, uint64_t *in, uint64_t *out);

#endif
