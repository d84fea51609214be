// SPDX-License-Identifier: LGPL-2.1
/*
 * bpf.c - decode the BPF programs (BPF_PROG_INFO) and BTF blobs (BPF_BTF)
 * of a perf.data file into the typed values of <sampo/bpf.h>.
 *
 * Where the bytes come from:
 *
 *	BPF_PROG_INFO payload (feature.c keeps each program as bytes)
 *	  perf_bpil: u32 info_len, u32 data_len, u64 arrays,
 *	             struct bpf_prog_info (info_len bytes), data (data_len bytes)
 *	  each pointer field of bpf_prog_info whose PERF_BPIL_* bit is set in
 *	  arrays holds an offset into data (perf's bpil_addr_to_offs())
 *
 *	BPF_BTF payload: per blob u32 id, u32 size, the blob:
 *	  struct btf_header (24 bytes) | ... | type section | string section
 *	  (sections at hdr_len + type_off / str_off); the type section is a
 *	  sequence of struct btf_type (12 bytes) each followed by data whose
 *	  size depends on its kind and vlen (btf_kind_data_size()).
 *
 * Invariants: a decoded program's arrays are NULL or hold exactly their
 * count of elements; a struct sampo_btf only exists for a blob that passed
 * every check, so lookups need only compare an id or an offset with a
 * bound. Byte order: bpf_prog_info follows the file (the swap flag); a BTF
 * blob says its own order with its magic, and is converted to host order
 * when copied, which is simple because every BTF field after the 4-byte
 * magic/version/flags word is a u32.
 *
 * Differences from libbpf: btf__new() also checks that referenced type ids
 * exist (btf_sanity_check()); names only need the checks done here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/bpf.h>
#include <sampo/feature.h>
#include "internal/util.h"

/* ---- struct bpf_prog_info (uapi linux/bpf.h): byte offsets of its fields ---------- */

#define BPF_INFO_TYPE		    0
#define BPF_INFO_ID		    4
#define BPF_INFO_TAG		    8  /* u8[BPF_TAG_SIZE] */
#define BPF_INFO_NAME		    64 /* char[BPF_OBJ_NAME_LEN] */
#define BPF_INFO_NR_JITED_KSYMS	    104
#define BPF_INFO_NR_JITED_FUNC_LENS 108
#define BPF_INFO_JITED_KSYMS	    112 /* u64 pointer */
#define BPF_INFO_JITED_FUNC_LENS    120 /* u64 pointer */
#define BPF_INFO_BTF_ID		    128
#define BPF_INFO_FUNC_INFO_REC_SIZE 132
#define BPF_INFO_FUNC_INFO	    136 /* u64 pointer */
#define BPF_INFO_NR_FUNC_INFO	    144
#define BPF_INFO_NR_PROG_TAGS	    180
#define BPF_INFO_PROG_TAGS	    184 /* u64 pointer */
/* every field read here ends before this; bytes past info_len read as zero */
#define BPF_INFO_READ_SIZE (BPF_INFO_PROG_TAGS + 8)

/* sizes of struct bpf_func_info's fields read here */
#define BPF_FUNC_INFO_MIN_SIZE 8

/* ---- BTF (uapi linux/btf.h) ------------------------------------------------------- */

#define BTF_HDR_MAGIC	     0	/* u16 */
#define BTF_HDR_HDR_LEN	     4	/* u32, then type_off, type_len, str_off, str_len */
#define BTF_TYPE_SIZE	     12 /* struct btf_type: name_off, info, size/type */
#define BTF_INFO_VLEN(info)  ((info)&0xffff)
#define BTF_INFO_KIND(info)  (((info) >> 24) & 0x1f)
#define BTF_INFO_KFLAG(info) ((info) >> 31)
#define BTF_MAX_STR_OFFSET   0x7fffffffu

/* sizes of the data after struct btf_type, per element or in all */
#define BTF_INT_SIZE	     4	/* u32 encoding */
#define BTF_ARRAY_SIZE	     12 /* struct btf_array */
#define BTF_MEMBER_SIZE	     12 /* struct btf_member, per vlen */
#define BTF_ENUM_SIZE	     8	/* struct btf_enum, per vlen */
#define BTF_PARAM_SIZE	     8	/* struct btf_param, per vlen */
#define BTF_VAR_SIZE	     4	/* struct btf_var */
#define BTF_VAR_SECINFO_SIZE 12 /* struct btf_var_secinfo, per vlen */
#define BTF_DECL_TAG_SIZE    4	/* struct btf_decl_tag */
#define BTF_ENUM64_SIZE	     12 /* struct btf_enum64, per vlen */

struct sampo_btf {
	uint8_t *raw; /* the blob, host order */
	size_t size;
	const uint8_t *types; /* type section */
	const char *strs;     /* string section: starts and ends with a NUL */
	uint32_t str_len;
	uint32_t nr_types;
	uint32_t *type_off; /* type id i + 1 is at types + type_off[i] */
	bool swapped;
};

/* Bytes after struct btf_type for a type of @kind with @vlen; -1 for a kind unknown. */
static int64_t btf_kind_data_size(uint32_t kind, uint32_t vlen)
{
	switch (kind) {
	case SAMPO_BTF_KIND_INT:
		return BTF_INT_SIZE;
	case SAMPO_BTF_KIND_VAR:
		return BTF_VAR_SIZE;
	case SAMPO_BTF_KIND_DECL_TAG:
		return BTF_DECL_TAG_SIZE;
	case SAMPO_BTF_KIND_ARRAY:
		return BTF_ARRAY_SIZE;
	case SAMPO_BTF_KIND_PTR:
	case SAMPO_BTF_KIND_FWD:
	case SAMPO_BTF_KIND_TYPEDEF:
	case SAMPO_BTF_KIND_VOLATILE:
	case SAMPO_BTF_KIND_CONST:
	case SAMPO_BTF_KIND_RESTRICT:
	case SAMPO_BTF_KIND_FUNC:
	case SAMPO_BTF_KIND_FLOAT:
	case SAMPO_BTF_KIND_TYPE_TAG:
		return 0;
	case SAMPO_BTF_KIND_STRUCT:
	case SAMPO_BTF_KIND_UNION:
		return (int64_t)BTF_MEMBER_SIZE * vlen;
	case SAMPO_BTF_KIND_DATASEC:
		return (int64_t)BTF_VAR_SECINFO_SIZE * vlen;
	case SAMPO_BTF_KIND_ENUM64:
		return (int64_t)BTF_ENUM64_SIZE * vlen;
	case SAMPO_BTF_KIND_ENUM:
		return (int64_t)BTF_ENUM_SIZE * vlen;
	case SAMPO_BTF_KIND_FUNC_PROTO:
		return (int64_t)BTF_PARAM_SIZE * vlen;
	default:
		return -1;
	}
}

void sampo_btf__delete(struct sampo_btf *btf)
{
	if (!btf)
		return;
	free(btf->type_off);
	free(btf->raw);
	free(btf);
}

/* Index the type section; every type must be of a known kind and end inside it. */
static int btf_index_types(struct sampo_btf *btf, uint32_t type_len)
{
	uint32_t alloc = 0;
	size_t pos = 0;

	while (pos < type_len) {
		uint32_t info;
		int64_t extra;

		if (type_len - pos < BTF_TYPE_SIZE)
			return -SAMPO_ERR_MALFORMED;
		info = load_u32(btf->types + pos + 4);
		extra = btf_kind_data_size(BTF_INFO_KIND(info), BTF_INFO_VLEN(info));
		if (extra < 0 || (uint64_t)extra > type_len - pos - BTF_TYPE_SIZE)
			return -SAMPO_ERR_MALFORMED;
		if (btf->nr_types == alloc) {
			uint32_t *grown;

			alloc = alloc ? alloc * 2 : 64;
			grown = realloc(btf->type_off, (size_t)alloc * sizeof(*grown));
			if (!grown)
				return -ENOMEM;
			btf->type_off = grown;
		}
		btf->type_off[btf->nr_types++] = (uint32_t)pos;
		pos += BTF_TYPE_SIZE + (size_t)extra;
	}
	return 0;
}

int sampo_btf__new(const void *data, size_t size, struct sampo_btf **ret_btf)
{
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	struct sampo_btf *btf;
	uint16_t magic;
	bool swap;
	int err;

	if ((!data && size) || !ret_btf)
		return -EINVAL;
	if (size < SAMPO_BTF_HDR_SIZE || size > UINT32_MAX)
		return -SAMPO_ERR_MALFORMED;
	magic = load_u16(data);
	if (magic != SAMPO_BTF_MAGIC && magic != bswap_16(SAMPO_BTF_MAGIC))
		return -SAMPO_ERR_MALFORMED;
	swap = magic != SAMPO_BTF_MAGIC;

	btf = calloc(1, sizeof(*btf));
	if (!btf)
		return -ENOMEM;
	btf->raw = malloc(size);
	if (!btf->raw) {
		err = -ENOMEM;
		goto out_delete;
	}
	memcpy(btf->raw, data, size);
	btf->size = size;
	btf->swapped = swap;
	if (swap) {
		/* magic, version and flags: u16, u8, u8; then u32s to the end of the header */
		uint16_t m = bswap_16(load_u16(btf->raw + BTF_HDR_MAGIC));

		memcpy(btf->raw + BTF_HDR_MAGIC, &m, sizeof(m));
		for (size_t off = BTF_HDR_HDR_LEN; off < SAMPO_BTF_HDR_SIZE; off += 4) {
			uint32_t v = bswap_32(load_u32(btf->raw + off));

			memcpy(btf->raw + off, &v, sizeof(v));
		}
	}
	hdr_len = load_u32(btf->raw + BTF_HDR_HDR_LEN);
	type_off = load_u32(btf->raw + BTF_HDR_HDR_LEN + 4);
	type_len = load_u32(btf->raw + BTF_HDR_HDR_LEN + 8);
	str_off = load_u32(btf->raw + BTF_HDR_HDR_LEN + 12);
	str_len = load_u32(btf->raw + BTF_HDR_HDR_LEN + 16);

	/* btf_parse_hdr() and btf_parse_str_sec() of libbpf */
	err = -SAMPO_ERR_MALFORMED;
	if (hdr_len < SAMPO_BTF_HDR_SIZE || hdr_len > size)
		goto out_delete;
	if ((uint64_t)str_off + str_len > size - hdr_len ||
	    (uint64_t)type_off + type_len > str_off || type_off % 4)
		goto out_delete;
	if (!str_len || str_len - 1 > BTF_MAX_STR_OFFSET)
		goto out_delete;
	btf->types = btf->raw + hdr_len + type_off;
	btf->strs = (const char *)btf->raw + hdr_len + str_off;
	btf->str_len = str_len;
	if (btf->strs[0] || btf->strs[str_len - 1])
		goto out_delete;

	if (swap) {
		/* struct btf_type and every kind's data are u32 words */
		uint8_t *t = btf->raw + hdr_len + type_off;

		for (uint32_t off = 0; off + 4 <= type_len; off += 4) {
			uint32_t v = bswap_32(load_u32(t + off));

			memcpy(t + off, &v, sizeof(v));
		}
	}
	err = btf_index_types(btf, type_len);
	if (err)
		goto out_delete;
	*ret_btf = btf;
	return 0;

out_delete:
	sampo_btf__delete(btf);
	return err;
}

uint32_t sampo_btf__nr_types(const struct sampo_btf *btf)
{
	return btf ? btf->nr_types : 0;
}

bool sampo_btf__swapped(const struct sampo_btf *btf)
{
	return btf && btf->swapped;
}

int sampo_btf__type_by_id(const struct sampo_btf *btf, uint32_t id, struct sampo_btf_type *ret)
{
	const uint8_t *t;
	uint32_t info;

	if (!btf || !ret)
		return -EINVAL;
	if (id > btf->nr_types)
		return -ENOENT;
	memset(ret, 0, sizeof(*ret));
	if (id == 0)
		return 0; /* void */
	t = btf->types + btf->type_off[id - 1];
	info = load_u32(t + 4);
	ret->id = id;
	ret->name_off = load_u32(t);
	ret->kind = (enum sampo_btf_kind)BTF_INFO_KIND(info);
	ret->vlen = (uint16_t)BTF_INFO_VLEN(info);
	ret->kind_flag = BTF_INFO_KFLAG(info);
	ret->size_or_type = load_u32(t + 8);
	return 0;
}

const char *sampo_btf__name_by_offset(const struct sampo_btf *btf, uint32_t off)
{
	if (!btf || off >= btf->str_len)
		return NULL;
	return btf->strs + off; /* the section ends with a NUL (checked in __new) */
}

const char *sampo_btf_kind__name(enum sampo_btf_kind kind)
{
	static const char *const names[] = {
		[SAMPO_BTF_KIND_UNKN] = "UNKNOWN",	[SAMPO_BTF_KIND_INT] = "INT",
		[SAMPO_BTF_KIND_PTR] = "PTR",		[SAMPO_BTF_KIND_ARRAY] = "ARRAY",
		[SAMPO_BTF_KIND_STRUCT] = "STRUCT",	[SAMPO_BTF_KIND_UNION] = "UNION",
		[SAMPO_BTF_KIND_ENUM] = "ENUM",		[SAMPO_BTF_KIND_FWD] = "FWD",
		[SAMPO_BTF_KIND_TYPEDEF] = "TYPEDEF",	[SAMPO_BTF_KIND_VOLATILE] = "VOLATILE",
		[SAMPO_BTF_KIND_CONST] = "CONST",	[SAMPO_BTF_KIND_RESTRICT] = "RESTRICT",
		[SAMPO_BTF_KIND_FUNC] = "FUNC",		[SAMPO_BTF_KIND_FUNC_PROTO] = "FUNC_PROTO",
		[SAMPO_BTF_KIND_VAR] = "VAR",		[SAMPO_BTF_KIND_DATASEC] = "DATASEC",
		[SAMPO_BTF_KIND_FLOAT] = "FLOAT",	[SAMPO_BTF_KIND_DECL_TAG] = "DECL_TAG",
		[SAMPO_BTF_KIND_TYPE_TAG] = "TYPE_TAG", [SAMPO_BTF_KIND_ENUM64] = "ENUM64",
	};

	if ((unsigned int)kind >= ARRAY_SIZE(names))
		return "UNKNOWN";
	return names[kind];
}

/* ---- BPF programs ----------------------------------------------------------------- */

/*
 * Where the array of bit @bit starts in @prog's data, when it is recorded and
 * @nr elements of @elem_size bytes fit before the end of the data; else NULL.
 */
static const uint8_t *bpil_array(const struct sampo_feat_bpf_prog *prog, const uint8_t *info,
				 bool swap, enum sampo_bpil_array bit, size_t off_field,
				 uint64_t nr, uint64_t elem_size)
{
	uint64_t off = load_u64_sw(info + off_field, swap);

	if (!(prog->arrays & (1ULL << bit)) || !prog->data)
		return NULL;
	if (off > prog->data_len || (elem_size && nr > (prog->data_len - off) / elem_size))
		return NULL;
	return prog->data + off;
}

/* Bytes the decoded program needs after its struct, each array 8-aligned. */
static size_t prog_info_arrays_size(const struct sampo_bpf_prog_info *p, bool ksyms, bool lens,
				    bool tags, bool finfo)
{
	size_t n = 0;

	if (ksyms)
		n += ALIGN_UP((size_t)p->nr_jited_ksyms * 8, 8);
	if (lens)
		n += ALIGN_UP((size_t)p->nr_jited_func_lens * 4, 8);
	if (tags)
		n += ALIGN_UP((size_t)p->nr_prog_tags * SAMPO_BPF_TAG_SIZE, 8);
	if (finfo)
		n += ALIGN_UP((size_t)p->nr_func_info * sizeof(struct sampo_bpf_func_info), 8);
	return n;
}

int sampo_bpf_prog_info__decode(const struct sampo_feat_bpf_prog *prog, bool swap,
				struct sampo_bpf_prog_info **ret_info)
{
	uint8_t info[BPF_INFO_READ_SIZE] = { 0 };
	struct sampo_bpf_prog_info hdr = { 0 }, *p;
	const uint8_t *ksyms, *lens, *tags, *finfo = NULL;
	uint8_t *next;
	size_t extra;

	if (!prog || !ret_info || (!prog->info && prog->info_len))
		return -EINVAL;
	/* perf zero-fills an info shorter than its own struct */
	if (prog->info_len)
		memcpy(info, prog->info, MIN((size_t)prog->info_len, sizeof(info)));

	hdr.info_len = prog->info_len;
	hdr.data_len = prog->data_len;
	hdr.arrays = prog->arrays;
	hdr.type = load_u32_sw(info + BPF_INFO_TYPE, swap);
	hdr.id = load_u32_sw(info + BPF_INFO_ID, swap);
	memcpy(hdr.tag, info + BPF_INFO_TAG, SAMPO_BPF_TAG_SIZE);
	memcpy(hdr.name, info + BPF_INFO_NAME, SAMPO_BPF_OBJ_NAME_LEN);
	hdr.btf_id = load_u32_sw(info + BPF_INFO_BTF_ID, swap);
	hdr.nr_jited_ksyms = load_u32_sw(info + BPF_INFO_NR_JITED_KSYMS, swap);
	hdr.nr_jited_func_lens = load_u32_sw(info + BPF_INFO_NR_JITED_FUNC_LENS, swap);
	hdr.nr_prog_tags = load_u32_sw(info + BPF_INFO_NR_PROG_TAGS, swap);
	hdr.nr_func_info = load_u32_sw(info + BPF_INFO_NR_FUNC_INFO, swap);
	hdr.func_info_rec_size = load_u32_sw(info + BPF_INFO_FUNC_INFO_REC_SIZE, swap);

	ksyms = bpil_array(prog, info, swap, SAMPO_BPIL_JITED_KSYMS, BPF_INFO_JITED_KSYMS,
			   hdr.nr_jited_ksyms, 8);
	lens = bpil_array(prog, info, swap, SAMPO_BPIL_JITED_FUNC_LENS, BPF_INFO_JITED_FUNC_LENS,
			  hdr.nr_jited_func_lens, 4);
	tags = bpil_array(prog, info, swap, SAMPO_BPIL_PROG_TAGS, BPF_INFO_PROG_TAGS,
			  hdr.nr_prog_tags, SAMPO_BPF_TAG_SIZE);
	if (hdr.func_info_rec_size >= BPF_FUNC_INFO_MIN_SIZE)
		finfo = bpil_array(prog, info, swap, SAMPO_BPIL_FUNC_INFO, BPF_INFO_FUNC_INFO,
				   hdr.nr_func_info, hdr.func_info_rec_size);

	/* every array fits in data_len (< 4 GiB), so these sizes cannot overflow */
	extra = prog_info_arrays_size(&hdr, ksyms, lens, tags, finfo);
	p = calloc(1, ALIGN_UP(sizeof(*p), 8) + extra);
	if (!p)
		return -ENOMEM;
	*p = hdr;
	next = (uint8_t *)p + ALIGN_UP(sizeof(*p), 8);
	if (ksyms) {
		p->jited_ksyms = (uint64_t *)next;
		for (uint32_t i = 0; i < p->nr_jited_ksyms; i++)
			p->jited_ksyms[i] = load_u64_sw(ksyms + 8 * (size_t)i, swap);
		next += ALIGN_UP((size_t)p->nr_jited_ksyms * 8, 8);
	}
	if (lens) {
		p->jited_func_lens = (uint32_t *)next;
		for (uint32_t i = 0; i < p->nr_jited_func_lens; i++)
			p->jited_func_lens[i] = load_u32_sw(lens + 4 * (size_t)i, swap);
		next += ALIGN_UP((size_t)p->nr_jited_func_lens * 4, 8);
	}
	if (tags) {
		p->prog_tags = (uint8_t(*)[SAMPO_BPF_TAG_SIZE])next;
		memcpy(next, tags, (size_t)p->nr_prog_tags * SAMPO_BPF_TAG_SIZE);
		next += ALIGN_UP((size_t)p->nr_prog_tags * SAMPO_BPF_TAG_SIZE, 8);
	}
	if (finfo) {
		p->func_info = (struct sampo_bpf_func_info *)next;
		for (uint32_t i = 0; i < p->nr_func_info; i++) {
			const uint8_t *rec = finfo + (size_t)i * p->func_info_rec_size;

			p->func_info[i].insn_off = load_u32_sw(rec, swap);
			p->func_info[i].type_id = load_u32_sw(rec + 4, swap);
		}
	}
	*ret_info = p;
	return 0;
}

void sampo_bpf_prog_info__delete(struct sampo_bpf_prog_info *info)
{
	free(info); /* the arrays live in the same block */
}

int sampo_bpf_prog_info__sub_name(const struct sampo_bpf_prog_info *info,
				  const struct sampo_btf *btf, uint32_t sub, char *buf, size_t size)
{
	char hex[2 * SAMPO_BPF_TAG_SIZE + 1];
	struct sampo_btf_type t;

	if (!info || !info->prog_tags || sub >= info->nr_prog_tags || (!buf && size))
		return -EINVAL;
	for (int i = 0; i < SAMPO_BPF_TAG_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", info->prog_tags[sub][i]);

	if (btf && info->func_info && sub < info->nr_func_info) {
		const char *name;

		if (sampo_btf__type_by_id(btf, info->func_info[sub].type_id, &t))
			return snprintf(buf, size, "bpf_prog_%s", hex);
		name = sampo_btf__name_by_offset(btf, t.name_off);
		return snprintf(buf, size, "bpf_prog_%s_%s", hex, name ? name : "(null)");
	}
	if (sub == 0 && info->nr_jited_ksyms == 1) {
		if (info->name[0])
			return snprintf(buf, size, "bpf_prog_%s_%s", hex, info->name);
		return snprintf(buf, size, "bpf_prog_%s", hex);
	}
	return snprintf(buf, size, "bpf_prog_%s_F", hex);
}

const struct sampo_feat_btf *sampo_features__find_btf(const struct sampo_features *f, uint32_t id)
{
	if (!f)
		return NULL;
	for (uint32_t i = 0; i < f->nr_btfs; i++) {
		if (f->btfs[i].id == id)
			return &f->btfs[i];
	}
	return NULL;
}
