// SPDX-License-Identifier: LGPL-2.1
/*
 * writer-feature.c - the feature sections of the writer and the build-id
 * table.
 *
 * File mode: each feature's payload is built at once in the file's byte order
 * (a struct payload, perf's do_write_string() for strings) and held in
 * w->feats[] until close, where writer.c writes the feature table and the
 * payloads after the data. Setting a feature again replaces it. The build-id
 * table (HEADER_BUILD_ID) grows one entry per sampo_writer__add_build_id().
 * All of it is a few KB, the only part of a file the writer holds in memory.
 *
 * Pipe mode: a feature is written at once as a HEADER_FEATURE record, a
 * build-id as a HEADER_BUILD_ID record, in the order they are set.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/writer.h>
#include "internal/util.h"
#include "internal/writer.h"

/* ---- features --------------------------------------------------------- */

static bool feat_valid(int feat)
{
	return feat > SAMPO_FEAT_RESERVED && feat < SAMPO_FEAT_MAX_BITS;
}

/* Takes ownership of @data (malloc'd, file order). */
static int writer_set_feature_owned(struct sampo_writer *w, int feat, uint8_t *data, size_t size)
{
	struct sampo_writer_feature *f = &w->feats[feat];
	uint8_t *dst;
	size_t rec_size;

	if (!w->pipe) {
		free(f->data);
		f->data = data;
		f->size = size;
		f->cap = size;
		f->set = true;
		return 0;
	}

	rec_size = sizeof(struct sampo_record_feature) + size;
	if (rec_size > WRITER_RECORD_MAX) {
		free(data);
		return -EINVAL;
	}
	dst = sampo_writer__reserve(w, rec_size);
	if (dst) {
		sampo_writer__store_u32(w, dst, SAMPO_RECORD_HEADER_FEATURE);
		sampo_writer__store_u16(w, dst + 4, 0);
		sampo_writer__store_u16(w, dst + 6, (uint16_t)rec_size);
		sampo_writer__store_u64(w, dst + 8, (uint64_t)feat);
		if (size)
			memcpy(dst + 16, data, size);
		sampo_writer__commit(w, rec_size);
	}
	free(data);
	return w->err;
}

int sampo_writer__set_feature(struct sampo_writer *w, int feat, const void *payload, size_t size)
{
	uint8_t *copy = NULL;

	WRITER_CHECK(w);
	if (!feat_valid(feat) || (size && !payload))
		return -EINVAL;
	if (size) {
		copy = malloc(size);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, payload, size);
	}
	return writer_set_feature_owned(w, feat, copy, size);
}

/* A growable payload in file order. */
struct payload {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

static uint8_t *pl_grow(struct payload *pl, size_t n)
{
	if (pl->oom)
		return NULL;
	if (pl->cap - pl->len < n) {
		size_t cap = MAX(pl->cap * 2, pl->len + n + 256);
		uint8_t *p = realloc(pl->p, cap);

		if (!p) {
			pl->oom = true;
			return NULL;
		}
		pl->p = p;
		pl->cap = cap;
	}
	pl->len += n;
	return pl->p + pl->len - n;
}

static void pl_u32(const struct sampo_writer *w, struct payload *pl, uint32_t v)
{
	uint8_t *at = pl_grow(pl, 4);

	if (at)
		sampo_writer__store_u32(w, at, v);
}

static void pl_u64(const struct sampo_writer *w, struct payload *pl, uint64_t v)
{
	uint8_t *at = pl_grow(pl, 8);

	if (at)
		sampo_writer__store_u64(w, at, v);
}

/* perf's do_write_string(): u32 len (strlen + 1 rounded up to 64), NUL padded */
static void pl_string(const struct sampo_writer *w, struct payload *pl, const char *s)
{
	size_t len = strlen(s) + 1;
	size_t padded = ALIGN_UP(len, (size_t)SAMPO_NAME_ALIGN);
	uint8_t *at;

	pl_u32(w, pl, (uint32_t)padded);
	at = pl_grow(pl, padded);
	if (at) {
		memcpy(at, s, len);
		memset(at + len, 0, padded - len);
	}
}

static int pl_set(struct sampo_writer *w, int feat, struct payload *pl)
{
	if (pl->oom) {
		free(pl->p);
		return -ENOMEM;
	}
	return writer_set_feature_owned(w, feat, pl->p, pl->len);
}

int sampo_writer__set_feature_string(struct sampo_writer *w, int feat, const char *s)
{
	struct payload pl = { 0 };

	WRITER_CHECK(w);
	if (!feat_valid(feat) || !s)
		return -EINVAL;
	pl_string(w, &pl, s);
	return pl_set(w, feat, &pl);
}

int sampo_writer__set_feature_strings(struct sampo_writer *w, int feat, const char *const *v,
				      size_t n)
{
	struct payload pl = { 0 };

	WRITER_CHECK(w);
	if (!feat_valid(feat) || (n && !v) || n > UINT32_MAX)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			return -EINVAL;
	}
	pl_u32(w, &pl, (uint32_t)n);
	for (size_t i = 0; i < n; i++)
		pl_string(w, &pl, v[i]);
	return pl_set(w, feat, &pl);
}

int sampo_writer__set_feature_u32s(struct sampo_writer *w, int feat, const uint32_t *v, size_t n)
{
	struct payload pl = { 0 };

	WRITER_CHECK(w);
	if (!feat_valid(feat) || (n && !v))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		pl_u32(w, &pl, v[i]);
	return pl_set(w, feat, &pl);
}

int sampo_writer__set_feature_u64s(struct sampo_writer *w, int feat, const uint64_t *v, size_t n)
{
	struct payload pl = { 0 };

	WRITER_CHECK(w);
	if (!feat_valid(feat) || (n && !v))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		pl_u64(w, &pl, v[i]);
	return pl_set(w, feat, &pl);
}

int sampo_writer__set_feature_event_desc(struct sampo_writer *w, const char *const *names,
					 size_t nr_names)
{
	struct payload pl = { 0 };
	uint32_t attr_size = 0;

	WRITER_CHECK(w);
	if (nr_names != w->nr_attrs || (nr_names && !names))
		return -EINVAL;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		if (!names[i])
			return -EINVAL;
		attr_size = MAX(attr_size, w->attrs[i].attr.size);
	}
	if (attr_size == 0)
		attr_size = WRITER_DEFAULT_ATTR_SIZE;

	pl_u32(w, &pl, (uint32_t)w->nr_attrs);
	pl_u32(w, &pl, attr_size);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		const struct sampo_writer_attr *wa = &w->attrs[i];
		uint8_t *at = pl_grow(&pl, attr_size);

		if (at) {
			memset(at, 0, attr_size);
			sampo_writer__encode_attr(w, at, &wa->attr, wa->attr.size);
		}
		pl_u32(w, &pl, (uint32_t)wa->nr_ids);
		pl_string(w, &pl, names[i]);
		for (size_t j = 0; j < wa->nr_ids; j++)
			pl_u64(w, &pl, wa->ids[j]);
	}
	return pl_set(w, SAMPO_FEAT_EVENT_DESC, &pl);
}

int sampo_writer__add_build_id(struct sampo_writer *w, uint16_t cpumode, int32_t pid,
			       const uint8_t *bid, size_t bid_size, const char *filename)
{
	struct sampo_writer_feature *f;
	size_t name_len, padded, size;
	uint8_t *e;

	WRITER_CHECK(w);
	f = &w->feats[SAMPO_FEAT_BUILD_ID];
	if (!bid || bid_size == 0 || bid_size > SAMPO_BUILD_ID_MAX || !filename)
		return -EINVAL;
	name_len = strlen(filename) + 1;
	padded = ALIGN_UP(name_len, (size_t)SAMPO_NAME_ALIGN);
	size = sizeof(struct sampo_record_build_id) + padded;
	if (size > WRITER_RECORD_MAX)
		return -EINVAL;

	if (w->pipe) {
		e = sampo_writer__reserve(w, size);
		if (!e)
			return w->err;
	} else {
		if (f->size + size > f->cap) {
			/* doubling: one realloc per entry copied the table each time */
			size_t ncap = MAX(MAX(2 * f->cap, f->size + size), (size_t)4096);
			uint8_t *p = realloc(f->data, ncap);

			if (!p)
				return -ENOMEM;
			f->data = p;
			f->cap = ncap;
		}
		e = f->data + f->size;
	}

	memset(e, 0, size);
	/* perf 6.1 leaves the type 0 in the feature section */
	sampo_writer__store_u32(w, e, w->pipe ? SAMPO_RECORD_HEADER_BUILD_ID : 0);
	sampo_writer__store_u16(w, e + 4,
				(uint16_t)((cpumode & SAMPO_MISC_CPUMODE_MASK) | SAMPO_MISC_BUILD_ID_SIZE));
	sampo_writer__store_u16(w, e + 6, (uint16_t)size);
	sampo_writer__store_u32(w, e + 8, (uint32_t)pid);
	memcpy(e + 12, bid, bid_size);
	e[12 + SAMPO_BUILD_ID_MAX] = (uint8_t)bid_size;
	memcpy(e + sizeof(struct sampo_record_build_id), filename, name_len);

	if (w->pipe) {
		sampo_writer__commit(w, size);
	} else {
		f->size += size;
		f->set = true;
	}
	return 0;
}
