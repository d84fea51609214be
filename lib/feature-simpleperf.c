// SPDX-License-Identifier: LGPL-2.1
/*
 * feature-simpleperf.c - decode the features Android's simpleperf adds to a
 * perf.data file (ids 128 and up; perf skips them).
 *
 * The facts come from simpleperf's sources (AOSP system/extras/simpleperf:
 * record_file_format.h, record_file_reader.cpp, record_file.proto):
 *
 *	FILE (128)        per DSO: u32 size, then size bytes: path\0, u32 type,
 *	                  u64 min_vaddr, u32 nr, nr * {u64 vaddr, u32 len,
 *	                  name\0}, [DEX: u32 n, u64 offsets[n]], [ELF, module:
 *	                  u64 file offset of min_vaddr (absent in old files)]
 *	META_INFO (129)   key\0value\0 pairs, neither empty
 *	DEBUG_UNWIND (130) protobuf DebugUnwindFeature { repeated File file = 1 }
 *	                  File { string path = 1; uint64 size = 2 }
 *	FILE2 (132)       per DSO: u32 size, then a protobuf FileFeature
 *	                  { string path = 1; uint32 type = 2; uint64 min_vaddr = 3;
 *	                  repeated Symbol symbol = 4 { uint64 vaddr = 1;
 *	                  uint32 len = 2; string name = 3 }; DexFile dex_file = 5
 *	                  { repeated uint64 dex_file_offset = 1 }; ElfFile
 *	                  elf_file = 6 { uint64 file_offset_of_min_vaddr = 1 };
 *	                  KernelModule kernel_module = 7
 *	                  { uint64 memory_offset_of_min_vaddr = 1 } }
 *	DEBUG_UNWIND_FILE (131), ETM_BRANCH_LIST (133), INIT_MAP (134): kept as
 *	                  their sizes
 *
 * simpleperf writes little-endian only. The protobuf messages are read by a
 * small wire-format reader of our own (varints and length-delimited fields,
 * every length checked against its message; unknown fields skipped): libsampo
 * does not link protobuf-c, which only the sampo program uses for pprof.
 * Everything goes through the cursor and the arena of lib/feature.c, so a
 * damaged payload fails with where and why and nothing is read outside it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/feature.h>
#include "internal/feature.h"
#include "internal/util.h"

/* A NUL-terminated string at the cursor, copied; the cursor moves past its NUL. */
static int sp_cstring(struct feat_cursor *c, char **ret, const char *what)
{
	const char *s = (const char *)c->buf + c->pos;
	size_t left = sampo_feat_cursor__left(c);
	const char *nul = memchr(s, '\0', left);
	char *copy;

	if (!nul)
		return sampo_feat_cursor__fail(
			c, c->pos, -SAMPO_ERR_MALFORMED,
			"%s has no terminating NUL before the end (size %#zx)", what, c->len);
	copy = sampo_features__arena_alloc(c->obj, (size_t)(nul - s) + 1);
	if (!copy)
		return sampo_feat_cursor__nomem(c);
	memcpy(copy, s, (size_t)(nul - s) + 1);
	c->pos += (size_t)(nul - s) + 1;
	*ret = copy;
	return 0;
}

/* ---- FILE (v1) ----------------------------------------------------------------------------- */

/* The smallest symbol: u64 vaddr, u32 len, an empty name's NUL. */
#define SP_SYMBOL_MIN 13

static int sp_file_v1_entry(struct feat_cursor *c, struct sampo_feat_sp_file *file)
{
	size_t start = c->pos;
	uint32_t nr;
	int err;

	err = sp_cstring(c, &file->path, "file path");
	if (!err)
		err = sampo_feat_cursor__u32(c, &file->type, "file type");
	if (err)
		return err;
	if (file->type > SAMPO_SP_DSO_UNKNOWN_FILE)
		return sampo_feat_cursor__fail(c, c->pos - 4, -SAMPO_ERR_MALFORMED,
					       "unknown file type %u of '%s'", file->type,
					       file->path);
	err = sampo_feat_cursor__u64(c, &file->min_vaddr, "min_vaddr");
	if (!err)
		err = sampo_feat_cursor__u32(c, &nr, "symbol count");
	if (!err)
		err = sampo_feat_cursor__check_count(c, c->pos - 4, nr, SP_SYMBOL_MIN, "symbol");
	if (err)
		return err;
	file->nr_symbols = nr;
	file->symbols = sampo_features__arena_array(c->obj, nr, sizeof(*file->symbols));
	if (nr && !file->symbols)
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr; i++) {
		struct sampo_feat_sp_symbol *sym = &file->symbols[i];
		uint32_t len;

		err = sampo_feat_cursor__u64(c, &sym->vaddr, "symbol address");
		if (!err)
			err = sampo_feat_cursor__u32(c, &len, "symbol length");
		if (!err)
			err = sp_cstring(c, &sym->name, "symbol name");
		if (err)
			return err;
		sym->len = len;
	}
	if (file->type == SAMPO_SP_DSO_DEX_FILE) {
		err = sampo_feat_cursor__u32(c, &nr, "dex file offset count");
		if (!err)
			err = sampo_feat_cursor__check_count(c, c->pos - 4, nr, 8,
							     "dex file offset");
		if (err)
			return err;
		file->nr_dex_offsets = nr;
		file->dex_offsets = sampo_features__arena_array(c->obj, nr, sizeof(uint64_t));
		if (nr && !file->dex_offsets)
			return sampo_feat_cursor__nomem(c);
		for (uint32_t i = 0; i < nr; i++) {
			err = sampo_feat_cursor__u64(c, &file->dex_offsets[i], "dex file offset");
			if (err)
				return err;
		}
	}
	if ((file->type == SAMPO_SP_DSO_ELF_FILE || file->type == SAMPO_SP_DSO_KERNEL_MODULE) &&
	    sampo_feat_cursor__left(c)) {
		err = sampo_feat_cursor__u64(c, &file->file_offset, "file offset of min_vaddr");
		if (err)
			return err;
		file->has_file_offset = true;
	}
	if (sampo_feat_cursor__left(c))
		return sampo_feat_cursor__fail(c, c->pos, -SAMPO_ERR_MALFORMED,
					       "%zu bytes left after the entry of '%s' (at %#zx)",
					       sampo_feat_cursor__left(c), file->path, start);
	return 0;
}

/*
 * The entries of FILE or FILE2: u32 size, then that many bytes, each read by
 * @entry through a cursor of its own bounded by the entry. A first pass
 * counts them.
 */
static int sp_file_entries(struct feat_cursor *c, uint32_t *ret_nr,
			   struct sampo_feat_sp_file **ret_files,
			   int (*entry)(struct feat_cursor *, struct sampo_feat_sp_file *))
{
	struct sampo_feat_sp_file *files;
	uint32_t nr = 0, size;
	size_t pos;
	int err;

	for (pos = 0; pos < c->len; nr++) {
		if (c->len - pos < 4)
			return sampo_feat_cursor__fail(
				c, pos, -SAMPO_ERR_MALFORMED,
				"file entry size runs past the section end (size %#zx)", c->len);
		memcpy(&size, c->buf + pos, 4);
		if (size > c->len - pos - 4)
			return sampo_feat_cursor__fail(
				c, pos, -SAMPO_ERR_MALFORMED,
				"file entry of %u bytes runs past the section end (size %#zx)",
				size, c->len);
		pos += 4 + (size_t)size;
	}
	files = sampo_features__arena_array(c->obj, nr, sizeof(*files));
	if (nr && !files)
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr; i++) {
		struct feat_cursor sub = *c;

		err = sampo_feat_cursor__u32(c, &size, "file entry size");
		if (err)
			return err;
		sub.buf = c->buf + c->pos;
		sub.len = size;
		sub.pos = 0;
		files[i].file_offset = UINT64_MAX;
		err = entry(&sub, &files[i]);
		if (err) {
			/* the entry's cursor counts from the entry: say where in the section */
			if (c->err)
				c->err->offset += c->pos;
			return err;
		}
		c->pos += size;
	}
	*ret_nr = nr;
	*ret_files = files;
	return 0;
}

static int parse_sp_file(struct feat_cursor *c, struct sampo_features *f)
{
	return sp_file_entries(c, &f->nr_sp_files, &f->sp_files, sp_file_v1_entry);
}

/* ---- protobuf wire format -------------------------------------------------------------------- */

enum pb_wire {
	PB_VARINT = 0,
	PB_I64 = 1,
	PB_LEN = 2,
	PB_I32 = 5,
};

struct pb_field {
	uint32_t num;
	enum pb_wire wire;
	uint64_t value;	     /* VARINT, I64, I32 */
	const uint8_t *data; /* LEN: value bytes at data */
};

static int pb_varint(struct feat_cursor *c, uint64_t *ret)
{
	uint64_t v = 0;
	size_t at = c->pos;

	*ret = 0;
	for (unsigned int shift = 0; shift < 64; shift += 7) {
		uint8_t byte;

		if (!sampo_feat_cursor__left(c))
			break;
		byte = c->buf[c->pos++];
		v |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80)) {
			*ret = v;
			return 0;
		}
	}
	return sampo_feat_cursor__fail(c, at, -SAMPO_ERR_MALFORMED,
				       "protobuf varint runs past its message or 10 bytes");
}

/* The next field of the message @c walks; 1 with @f filled, 0 at its end. */
static int pb_next(struct feat_cursor *c, struct pb_field *f)
{
	size_t at = c->pos;
	uint64_t key = 0;
	int err;

	memset(f, 0, sizeof(*f));
	if (!sampo_feat_cursor__left(c))
		return 0;
	err = pb_varint(c, &key);
	if (err)
		return err;
	f->num = (uint32_t)(key >> 3);
	f->wire = (enum pb_wire)(key & 7);
	f->data = NULL;
	switch (f->wire) {
	case PB_VARINT:
		err = pb_varint(c, &f->value);
		break;
	case PB_I64:
		err = sampo_feat_cursor__u64(c, &f->value, "protobuf 64-bit field");
		break;
	case PB_I32: {
		uint32_t v = 0;

		err = sampo_feat_cursor__u32(c, &v, "protobuf 32-bit field");
		f->value = v;
		break;
	}
	case PB_LEN:
		err = pb_varint(c, &f->value);
		if (!err && f->value > sampo_feat_cursor__left(c))
			err = sampo_feat_cursor__fail(
				c, at, -SAMPO_ERR_MALFORMED,
				"protobuf field %u of %llu bytes runs past its message", f->num,
				(unsigned long long)f->value);
		if (!err) {
			f->data = c->buf + c->pos;
			c->pos += (size_t)f->value;
		}
		break;
	default:
		err = sampo_feat_cursor__fail(
			c, at, -SAMPO_ERR_MALFORMED,
			"protobuf field %u has wire type %u (groups are not used)", f->num,
			(unsigned int)f->wire);
		break;
	}
	return err ? err : 1;
}

/* A cursor over the sub-message in LEN field @f, errors placed in @c's payload. */
static struct feat_cursor pb_sub(const struct feat_cursor *c, const struct pb_field *f)
{
	struct feat_cursor sub = *c;

	sub.buf = f->data;
	sub.len = (size_t)f->value;
	sub.pos = 0;
	return sub;
}

static int pb_sub_fail(const struct feat_cursor *c, const struct pb_field *f, int err)
{
	if (c->err && err != -ENOMEM)
		c->err->offset += (size_t)(f->data - c->buf);
	return err;
}

/* A LEN field as a NUL-terminated copy (a NUL inside cuts it short). */
static int pb_string(struct feat_cursor *c, const struct pb_field *f, char **ret)
{
	char *s = sampo_features__arena_alloc(c->obj, (size_t)f->value + 1);

	if (!s)
		return sampo_feat_cursor__nomem(c);
	if (f->value) /* an empty field may have no bytes to point at */
		memcpy(s, f->data, (size_t)f->value);
	s[f->value] = '\0';
	*ret = s;
	return 0;
}

/* The first field numbered 1 of a sub-message holding one varint (ElfFile, KernelModule) */
static int pb_sub_varint1(struct feat_cursor *c, const struct pb_field *f, uint64_t *ret)
{
	struct feat_cursor sub = pb_sub(c, f);
	struct pb_field g;
	int ret_next;

	*ret = 0;
	while ((ret_next = pb_next(&sub, &g)) > 0) {
		if (g.num == 1 && g.wire == PB_VARINT)
			*ret = g.value;
	}
	return ret_next < 0 ? pb_sub_fail(c, f, ret_next) : 0;
}

/* ---- FILE2 --------------------------------------------------------------------------------- */

static int sp_symbol_v2(struct feat_cursor *c, const struct pb_field *f,
			struct sampo_feat_sp_symbol *sym)
{
	struct feat_cursor sub = pb_sub(c, f);
	struct pb_field g;
	int ret;

	while ((ret = pb_next(&sub, &g)) > 0) {
		if (g.num == 1 && g.wire == PB_VARINT)
			sym->vaddr = g.value;
		else if (g.num == 2 && g.wire == PB_VARINT)
			sym->len = (uint32_t)g.value; /* a uint32 */
		else if (g.num == 3 && g.wire == PB_LEN && pb_string(&sub, &g, &sym->name))
			return sampo_feat_cursor__nomem(c);
	}
	if (ret < 0)
		return pb_sub_fail(c, f, ret);
	if (!sym->name)
		sym->name = sampo_features__arena_alloc(c->obj, 1); /* "" */
	return sym->name ? 0 : sampo_feat_cursor__nomem(c);
}

/* DexFile { repeated uint64 dex_file_offset = 1 }: packed (proto3) or not */
static int sp_dex_offsets_v2(struct feat_cursor *c, const struct pb_field *f,
			     struct sampo_feat_sp_file *file)
{
	struct feat_cursor sub = pb_sub(c, f);
	struct pb_field g;
	uint32_t nr = 0;
	int ret;

	/* at most one offset a byte: count bound before allocating */
	file->dex_offsets = sampo_features__arena_array(c->obj, sub.len, sizeof(uint64_t));
	if (sub.len && !file->dex_offsets)
		return sampo_feat_cursor__nomem(c);
	while ((ret = pb_next(&sub, &g)) > 0) {
		if (g.num != 1)
			continue;
		if (g.wire == PB_VARINT) {
			file->dex_offsets[nr++] = g.value;
		} else if (g.wire == PB_LEN) {
			struct feat_cursor packed = pb_sub(&sub, &g);
			uint64_t v;

			while (sampo_feat_cursor__left(&packed)) {
				ret = pb_varint(&packed, &v);
				if (ret)
					return pb_sub_fail(c, f, pb_sub_fail(&sub, &g, ret));
				file->dex_offsets[nr++] = v;
			}
		}
	}
	if (ret < 0)
		return pb_sub_fail(c, f, ret);
	file->nr_dex_offsets = nr;
	return 0;
}

static int sp_file_v2_entry(struct feat_cursor *c, struct sampo_feat_sp_file *file)
{
	struct feat_cursor walk = *c;
	struct pb_field f;
	uint32_t nr = 0;
	int ret;

	/* first pass: count the symbols (each a field of at least 2 bytes) */
	while ((ret = pb_next(&walk, &f)) > 0) {
		if (f.num == 4 && f.wire == PB_LEN)
			nr++;
	}
	if (ret < 0)
		return ret;
	file->symbols = sampo_features__arena_array(c->obj, nr, sizeof(*file->symbols));
	if (nr && !file->symbols)
		return sampo_feat_cursor__nomem(c);

	while ((ret = pb_next(c, &f)) > 0) {
		switch (f.num) {
		case 1:
			if (f.wire == PB_LEN && pb_string(c, &f, &file->path))
				return sampo_feat_cursor__nomem(c);
			break;
		case 2:
			if (f.wire == PB_VARINT)
				file->type = (uint32_t)f.value;
			break;
		case 3:
			if (f.wire == PB_VARINT)
				file->min_vaddr = f.value;
			break;
		case 4:
			if (f.wire != PB_LEN)
				break;
			ret = sp_symbol_v2(c, &f, &file->symbols[file->nr_symbols]);
			if (ret)
				return ret;
			file->nr_symbols++;
			break;
		case 5:
			if (f.wire == PB_LEN) {
				ret = sp_dex_offsets_v2(c, &f, file);
				if (ret)
					return ret;
			}
			break;
		case 6:
		case 7:
			if (f.wire == PB_LEN) {
				ret = pb_sub_varint1(c, &f, &file->file_offset);
				if (ret)
					return ret;
				file->has_file_offset = true;
			}
			break;
		default:
			break; /* newer fields: skipped, as protobuf does */
		}
	}
	if (ret < 0)
		return ret;
	if (!file->path)
		file->path = sampo_features__arena_alloc(c->obj, 1); /* "" */
	if (!file->path)
		return sampo_feat_cursor__nomem(c);
	if (file->type > SAMPO_SP_DSO_UNKNOWN_FILE)
		return sampo_feat_cursor__fail(c, 0, -SAMPO_ERR_MALFORMED,
					       "unknown file type %u of '%s'", file->type,
					       file->path);
	return 0;
}

static int parse_sp_file2(struct feat_cursor *c, struct sampo_features *f)
{
	return sp_file_entries(c, &f->nr_sp_files2, &f->sp_files2, sp_file_v2_entry);
}

/* ---- META_INFO, DEBUG_UNWIND, the others ----------------------------------------------------- */

static int parse_sp_meta_info(struct feat_cursor *c, struct sampo_features *f)
{
	uint32_t nr = 0;
	int err;

	/* each pair takes at least 4 bytes ("k\0v\0"): count, then read */
	for (size_t i = 0; i < c->len; i++)
		nr += c->buf[i] == '\0';
	nr /= 2;
	f->sp_meta = sampo_features__arena_array(c->obj, nr, sizeof(*f->sp_meta));
	if (nr && !f->sp_meta)
		return sampo_feat_cursor__nomem(c);
	while (sampo_feat_cursor__left(c)) {
		struct sampo_feat_sp_meta *m;
		size_t at = c->pos;

		if (f->nr_sp_meta == nr)
			return sampo_feat_cursor__fail(c, at, -SAMPO_ERR_MALFORMED,
						       "meta info key without a value");
		m = &f->sp_meta[f->nr_sp_meta]; /* sp_meta is NULL when nr is 0 */
		err = sp_cstring(c, &m->key, "meta info key");
		if (!err)
			err = sp_cstring(c, &m->value, "meta info value");
		if (err)
			return err;
		if (!*m->key || !*m->value)
			return sampo_feat_cursor__fail(c, at, -SAMPO_ERR_MALFORMED,
						       "empty meta info %s",
						       *m->key ? "value" : "key");
		f->nr_sp_meta++;
	}
	return 0;
}

static int parse_sp_debug_unwind(struct feat_cursor *c, struct sampo_features *f)
{
	struct feat_cursor walk = *c;
	struct pb_field g;
	uint32_t nr = 0;
	int ret;

	while ((ret = pb_next(&walk, &g)) > 0)
		nr += g.num == 1 && g.wire == PB_LEN;
	if (ret < 0)
		return ret;
	f->sp_debug_unwind = sampo_features__arena_array(c->obj, nr, sizeof(*f->sp_debug_unwind));
	if (nr && !f->sp_debug_unwind)
		return sampo_feat_cursor__nomem(c);
	while ((ret = pb_next(c, &g)) > 0) {
		struct sampo_feat_sp_unwind_file *file;
		struct feat_cursor sub;
		struct pb_field h;

		if (g.num != 1 || g.wire != PB_LEN)
			continue;
		file = &f->sp_debug_unwind[f->nr_sp_debug_unwind++];
		sub = pb_sub(c, &g);
		while ((ret = pb_next(&sub, &h)) > 0) {
			if (h.num == 1 && h.wire == PB_LEN && pb_string(&sub, &h, &file->path))
				return sampo_feat_cursor__nomem(c);
			if (h.num == 2 && h.wire == PB_VARINT)
				file->size = h.value;
		}
		if (ret < 0)
			return pb_sub_fail(c, &g, ret);
		if (!file->path)
			file->path = sampo_features__arena_alloc(c->obj, 1);
		if (!file->path)
			return sampo_feat_cursor__nomem(c);
	}
	return ret < 0 ? ret : 0;
}

static int parse_sp_debug_unwind_file(struct feat_cursor *c, struct sampo_features *f)
{
	f->sp_debug_unwind_file_size = c->len;
	return 0;
}

static int parse_sp_etm_branch_list(struct feat_cursor *c, struct sampo_features *f)
{
	f->sp_etm_branch_list_size = c->len;
	return 0;
}

static int parse_sp_init_map(struct feat_cursor *c, struct sampo_features *f)
{
	f->sp_init_map_size = c->len;
	return 0;
}

feat_parse_fn sampo_features__simpleperf_parser(int feat)
{
	switch (feat) {
	case SAMPO_FEAT_SIMPLEPERF_FILE:
		return parse_sp_file;
	case SAMPO_FEAT_SIMPLEPERF_META_INFO:
		return parse_sp_meta_info;
	case SAMPO_FEAT_SIMPLEPERF_DEBUG_UNWIND:
		return parse_sp_debug_unwind;
	case SAMPO_FEAT_SIMPLEPERF_DEBUG_UNWIND_FILE:
		return parse_sp_debug_unwind_file;
	case SAMPO_FEAT_SIMPLEPERF_FILE2:
		return parse_sp_file2;
	case SAMPO_FEAT_SIMPLEPERF_ETM_BRANCH_LIST:
		return parse_sp_etm_branch_list;
	case SAMPO_FEAT_SIMPLEPERF_INIT_MAP:
		return parse_sp_init_map;
	default:
		return NULL;
	}
}

const struct sampo_feat_sp_file *sampo_features__simpleperf_files(const struct sampo_features *f,
								  uint32_t *ret_nr)
{
	*ret_nr = 0;
	if (sampo_features__has(f, SAMPO_FEAT_SIMPLEPERF_FILE)) {
		*ret_nr = f->nr_sp_files;
		return f->sp_files;
	}
	if (sampo_features__has(f, SAMPO_FEAT_SIMPLEPERF_FILE2)) {
		*ret_nr = f->nr_sp_files2;
		return f->sp_files2;
	}
	return NULL;
}

const char *sampo_features__simpleperf_meta(const struct sampo_features *f, const char *key)
{
	if (!sampo_features__has(f, SAMPO_FEAT_SIMPLEPERF_META_INFO))
		return NULL;
	for (uint32_t i = 0; i < f->nr_sp_meta; i++) {
		if (!strcmp(f->sp_meta[i].key, key))
			return f->sp_meta[i].value;
	}
	return NULL;
}
