/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * recover.h - make a perf.data file whose writing failed (full disk, I/O
 * error, killed writer) readable up to its last complete record.
 *
 * The writer (writer.h) writes the file header last, at close; when a write
 * fails before that, the file starts with 104 zero bytes and no reader takes
 * it. sampo_perfdata__recover() walks the records from the start of the data
 * section up to the end of the file, drops a record cut short, and writes a
 * file header that points at the attrs (which the writer put right before the
 * data) and at the complete records, with no features (or one:
 * sampo_perfdata__recover_feature()). Only existing bytes are rewritten, so
 * it works on a full disk.
 */
#ifndef SAMPO_RECOVER_H
#define SAMPO_RECOVER_H

#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

/**
 * sampo_perfdata__recover() - write a header for the complete records of a cut file
 * @path: the file, in the host byte order, as sampo_writer__open() left it
 * @data_offset: where the data section starts (sampo_writer__offset() before
 *               the first record)
 * @nr_attrs: attrs written before @data_offset, each SAMPO_ATTR_SIZE_VER7 + 16
 *            bytes (the writer's layout)
 * @ret_data_size: optional; the bytes of complete records kept
 *
 * The file is truncated after the last complete record.
 * Return: 0, -SAMPO_ERR_TRUNCATED (the attrs themselves are incomplete),
 * -EINVAL, or -errno.
 */
SAMPO_API int sampo_perfdata__recover(const char *path, uint64_t data_offset, size_t nr_attrs,
				      uint64_t *ret_data_size);

/**
 * sampo_perfdata__recover_feature() - sampo_perfdata__recover(), keeping
 * one feature section after the records
 * @feat: the feature's bit (SAMPO_FEAT_*)
 * @payload: its @size bytes, in the file's byte order
 *
 * A file of COMPRESSED records (record -z) is read only with its COMPRESSED
 * feature, which says how much one record inflates to. The feature table
 * and the section are written in bytes the file already has: where they do
 * not fit after the last complete record (a full disk), the records end
 * earlier, at the last one that leaves room.
 * Return: as sampo_perfdata__recover(); -SAMPO_ERR_TRUNCATED also when no
 * record boundary leaves room for the section.
 */
SAMPO_API int sampo_perfdata__recover_feature(const char *path, uint64_t data_offset,
					      size_t nr_attrs, int feat, const void *payload,
					      size_t size, uint64_t *ret_data_size);

#endif /* SAMPO_RECOVER_H */
