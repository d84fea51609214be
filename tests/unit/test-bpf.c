// SPDX-License-Identifier: GPL-2.0
/*
 * test-bpf.c - the BPF_PROG_INFO and BTF decoders of lib/bpf.c on inputs
 * built in memory: a BTF blob with one type of most kinds and a two-program
 * BPF_PROG_INFO payload, in both byte orders; every cut of each into a heap
 * copy of exactly that size; hostile headers, kinds, counts and offsets.
 *
 * Inputs are copied into buffers of exactly their size before decoding, so
 * that a build with -fsanitize=address catches any read past the end.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sampo/bpf.h>
#include <sampo/feature.h>
#include "fixture.h"

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

static uint8_t *exact_copy(const void *p, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);

	assert_non_null(c);
	if (n)
		memcpy(c, p, n);
	return c;
}

/* ---- a BTF blob -------------------------------------------------------------------- */

/* the string section; offsets used below */
static const char btf_strs[] = "\0int\0my_func\0pair\0a\0b\0E64\0tag";
#define STR_INT	  1
#define STR_FUNC  5
#define STR_PAIR  13
#define STR_A	  18
#define STR_B	  20
#define STR_E64	  22
#define STR_TAG	  26
#define STRS_SIZE sizeof(btf_strs) /* with the final NUL */

#define BTF_HDR_LEN	 24
#define OFF_HDR_TYPE_LEN 12 /* of the u32 type_len in the header */
#define OFF_HDR_STR_OFF	 16
#define OFF_HDR_STR_LEN	 20
#define OFF_HDR_TYPE_OFF 8
#define OFF_HDR_HDR_LEN	 4

static void btf_type(struct img *im, uint32_t name_off, uint32_t kind, uint32_t vlen, bool kflag,
		     uint32_t size_or_type)
{
	img_u32(im, name_off);
	img_u32(im, kind << 24 | vlen | (kflag ? 1u << 31 : 0));
	img_u32(im, size_or_type);
}

/* Types: 1 INT, 2 FUNC_PROTO(int), 3 FUNC my_func, 4 STRUCT pair {a, b}, 5 ENUM64, 6 DECL_TAG, 7 PTR */
#define NR_TYPES 7

static void build_btf(struct img *im, bool big_endian)
{
	size_t type_start, type_len;

	img_init(im, big_endian);
	img_u16(im, SAMPO_BTF_MAGIC);
	img_u8(im, 1); /* version */
	img_u8(im, 0); /* flags */
	img_u32(im, BTF_HDR_LEN);
	img_u32(im, 0); /* type_off */
	img_u32(im, 0); /* type_len, set below */
	img_u32(im, 0); /* str_off, set below */
	img_u32(im, (uint32_t)STRS_SIZE);
	type_start = im->len;

	btf_type(im, STR_INT, SAMPO_BTF_KIND_INT, 0, false, 4);
	img_u32(im, 32); /* encoding: 32 bits */
	btf_type(im, 0, SAMPO_BTF_KIND_FUNC_PROTO, 1, false, 1);
	img_u32(im, 0); /* param: anonymous int */
	img_u32(im, 1);
	btf_type(im, STR_FUNC, SAMPO_BTF_KIND_FUNC, 0, false, 2);
	btf_type(im, STR_PAIR, SAMPO_BTF_KIND_STRUCT, 2, false, 8);
	img_u32(im, STR_A);
	img_u32(im, 1);
	img_u32(im, 0);
	img_u32(im, STR_B);
	img_u32(im, 1);
	img_u32(im, 32);
	btf_type(im, STR_E64, SAMPO_BTF_KIND_ENUM64, 1, true, 8);
	img_u32(im, STR_A);
	img_u32(im, 1);
	img_u32(im, 0);
	btf_type(im, STR_TAG, SAMPO_BTF_KIND_DECL_TAG, 0, false, 4);
	img_u32(im, (uint32_t)-1);
	btf_type(im, 0, SAMPO_BTF_KIND_PTR, 0, false, 4);

	type_len = im->len - type_start;
	img_set_u32(im, OFF_HDR_TYPE_LEN, (uint32_t)type_len);
	img_set_u32(im, OFF_HDR_STR_OFF, (uint32_t)type_len);
	img_bytes(im, btf_strs, STRS_SIZE);
}

static int btf_open_copy(const struct img *im, size_t n, struct sampo_btf **ret)
{
	uint8_t *c = exact_copy(im->buf, n);
	int err = sampo_btf__new(c, n, ret);

	free(c); /* the blob is copied */
	return err;
}

static void check_btf_types(const struct sampo_btf *btf)
{
	static const struct {
		enum sampo_btf_kind kind;
		uint32_t name_off;
		uint16_t vlen;
		const char *name;
	} want[NR_TYPES + 1] = {
		[0] = { SAMPO_BTF_KIND_UNKN, 0, 0, "" },
		[1] = { SAMPO_BTF_KIND_INT, STR_INT, 0, "int" },
		[2] = { SAMPO_BTF_KIND_FUNC_PROTO, 0, 1, "" },
		[3] = { SAMPO_BTF_KIND_FUNC, STR_FUNC, 0, "my_func" },
		[4] = { SAMPO_BTF_KIND_STRUCT, STR_PAIR, 2, "pair" },
		[5] = { SAMPO_BTF_KIND_ENUM64, STR_E64, 1, "E64" },
		[6] = { SAMPO_BTF_KIND_DECL_TAG, STR_TAG, 0, "tag" },
		[7] = { SAMPO_BTF_KIND_PTR, 0, 0, "" },
	};
	struct sampo_btf_type t;

	assert_int_equal(sampo_btf__nr_types(btf), NR_TYPES);
	for (uint32_t id = 0; id <= NR_TYPES; id++) {
		assert_int_equal(sampo_btf__type_by_id(btf, id, &t), 0);
		assert_int_equal(t.kind, want[id].kind);
		assert_int_equal(t.name_off, want[id].name_off);
		assert_int_equal(t.vlen, want[id].vlen);
		assert_string_equal(sampo_btf__name_by_offset(btf, t.name_off), want[id].name);
	}
	assert_int_equal(sampo_btf__type_by_id(btf, 4, &t), 0);
	assert_int_equal(t.size_or_type, 8);
	assert_false(t.kind_flag);
	assert_int_equal(sampo_btf__type_by_id(btf, 5, &t), 0);
	assert_true(t.kind_flag);
	assert_int_equal(sampo_btf__type_by_id(btf, 3, &t), 0);
	assert_int_equal(t.size_or_type, 2);
}

static void test_bpf__btf_types_in_both_byte_orders(void **state)
{
	(void)state;
	for (int be = 0; be <= 1; be++) {
		struct sampo_btf *btf = NULL;
		struct img im;

		build_btf(&im, be);
		assert_int_equal(btf_open_copy(&im, im.len, &btf), 0);
		assert_int_equal(sampo_btf__swapped(btf), be != host_big_endian());
		check_btf_types(btf);
		sampo_btf__delete(btf);
		img_free(&im);
	}
}

static void test_bpf__btf_lookups_stay_in_bounds(void **state)
{
	struct sampo_btf *btf = NULL;
	struct sampo_btf_type t;
	struct img im;

	(void)state;
	build_btf(&im, false);
	assert_int_equal(btf_open_copy(&im, im.len, &btf), 0);
	assert_int_equal(sampo_btf__type_by_id(btf, NR_TYPES + 1, &t), -ENOENT);
	assert_int_equal(sampo_btf__type_by_id(btf, UINT32_MAX, &t), -ENOENT);
	assert_null(sampo_btf__name_by_offset(btf, (uint32_t)STRS_SIZE));
	assert_null(sampo_btf__name_by_offset(btf, UINT32_MAX));
	assert_string_equal(sampo_btf__name_by_offset(btf, (uint32_t)STRS_SIZE - 2), "g");
	assert_string_equal(sampo_btf_kind__name(SAMPO_BTF_KIND_FUNC_PROTO), "FUNC_PROTO");
	assert_string_equal(sampo_btf_kind__name(SAMPO_BTF_KIND_ENUM64), "ENUM64");
	assert_string_equal(sampo_btf_kind__name((enum sampo_btf_kind)99), "UNKNOWN");
	assert_int_equal(sampo_btf__nr_types(NULL), 0);
	assert_null(sampo_btf__name_by_offset(NULL, 0));
	sampo_btf__delete(btf);
	sampo_btf__delete(NULL);
	img_free(&im);
}

static void test_bpf__btf_truncated_anywhere_is_refused(void **state)
{
	(void)state;
	for (int be = 0; be <= 1; be++) {
		struct img im;

		build_btf(&im, be);
		for (size_t n = 0; n < im.len; n++) {
			struct sampo_btf *btf = NULL;

			assert_int_equal(btf_open_copy(&im, n, &btf), -SAMPO_ERR_MALFORMED);
			assert_null(btf);
		}
		img_free(&im);
	}
}

/* A damaged copy of the good blob: @off gets @v (u32 in the image's byte order). */
static int btf_open_patched(size_t off, uint32_t v)
{
	struct sampo_btf *btf = NULL;
	struct img im;
	int err;

	build_btf(&im, false);
	img_set_u32(&im, off, v);
	err = btf_open_copy(&im, im.len, &btf);
	sampo_btf__delete(btf);
	img_free(&im);
	return err;
}

static void test_bpf__btf_rejects_hostile_headers_and_types(void **state)
{
	const size_t types = BTF_HDR_LEN, strs_at = BTF_HDR_LEN;
	struct sampo_btf *btf = NULL;
	struct img im;
	size_t type_len;

	(void)state;
	build_btf(&im, false);
	type_len = im.len - BTF_HDR_LEN - STRS_SIZE;
	img_free(&im);

	/* header */
	assert_int_equal(btf_open_patched(0, 0x01000000), -SAMPO_ERR_MALFORMED); /* magic 0 */
	assert_int_equal(btf_open_patched(OFF_HDR_HDR_LEN, 8), -SAMPO_ERR_MALFORMED);
	assert_int_equal(btf_open_patched(OFF_HDR_HDR_LEN, UINT32_MAX), -SAMPO_ERR_MALFORMED);
	assert_int_equal(btf_open_patched(OFF_HDR_STR_LEN, UINT32_MAX), -SAMPO_ERR_MALFORMED);
	assert_int_equal(btf_open_patched(OFF_HDR_STR_LEN, 0), -SAMPO_ERR_MALFORMED);
	assert_int_equal(btf_open_patched(OFF_HDR_STR_OFF, UINT32_MAX), -SAMPO_ERR_MALFORMED);
	/* the type section runs into the strings, or is not 4-byte aligned */
	assert_int_equal(btf_open_patched(OFF_HDR_TYPE_LEN, (uint32_t)type_len + 4),
			 -SAMPO_ERR_MALFORMED);
	assert_int_equal(btf_open_patched(OFF_HDR_TYPE_OFF, 2), -SAMPO_ERR_MALFORMED);
	assert_int_equal(btf_open_patched(OFF_HDR_TYPE_LEN, UINT32_MAX), -SAMPO_ERR_MALFORMED);
	/* a type cut by the end of its section */
	assert_int_equal(btf_open_patched(OFF_HDR_TYPE_LEN, (uint32_t)type_len - 4),
			 -SAMPO_ERR_MALFORMED);

	/* types: an unknown kind; a vlen whose members run past the section */
	assert_int_equal(btf_open_patched(types + 4, 20u << 24), -SAMPO_ERR_MALFORMED);
	assert_int_equal(btf_open_patched(types + 4, 31u << 24), -SAMPO_ERR_MALFORMED);
	assert_int_equal(btf_open_patched(types + 4, SAMPO_BTF_KIND_STRUCT << 24 | 0xffff),
			 -SAMPO_ERR_MALFORMED);

	/* strings that do not start, or do not end, with a NUL */
	build_btf(&im, false);
	im.buf[strs_at + type_len] = 'x';
	assert_int_equal(btf_open_copy(&im, im.len, &btf), -SAMPO_ERR_MALFORMED);
	im.buf[strs_at + type_len] = 0;
	im.buf[im.len - 1] = 'x';
	assert_int_equal(btf_open_copy(&im, im.len, &btf), -SAMPO_ERR_MALFORMED);
	im.buf[im.len - 1] = 0;
	assert_int_equal(btf_open_copy(&im, im.len, &btf), 0);
	sampo_btf__delete(btf);
	img_free(&im);

	assert_int_equal(sampo_btf__new(NULL, 4, &btf), -EINVAL);
	assert_int_equal(sampo_btf__new(NULL, 0, &btf), -SAMPO_ERR_MALFORMED);
}

/* ---- a BPF_PROG_INFO payload ----------------------------------------------------- */

/* struct bpf_prog_info offsets written here (uapi linux/bpf.h) */
#define INFO_SIZE		232
#define INFO_ID			4
#define INFO_TAG		8
#define INFO_NAME		64
#define INFO_NR_JITED_KSYMS	104
#define INFO_NR_JITED_FUNC_LENS 108
#define INFO_JITED_KSYMS	112
#define INFO_JITED_FUNC_LENS	120
#define INFO_BTF_ID		128
#define INFO_FUNC_INFO_REC_SIZE 132
#define INFO_FUNC_INFO		136
#define INFO_NR_FUNC_INFO	144
#define INFO_NR_PROG_TAGS	180
#define INFO_PROG_TAGS		184

#define BIT(n) (1ULL << (n))
#define ALL_ARRAYS                                                       \
	(BIT(SAMPO_BPIL_JITED_KSYMS) | BIT(SAMPO_BPIL_JITED_FUNC_LENS) | \
	 BIT(SAMPO_BPIL_FUNC_INFO) | BIT(SAMPO_BPIL_PROG_TAGS))

static const uint8_t tags[2][8] = {
	{ 0x69, 0x2d, 0xf2, 0xa5, 0x11, 0x15, 0xed, 0x24 },
	{ 0xc3, 0xd6, 0x97, 0xc9, 0x8f, 0x3b, 0x60, 0xee },
};

/*
 * One perf_bpil of @nr sub-programs (1 or 2) named through BTF id @btf_id:
 * data = ksyms (8 * nr) | lens (4 * nr, padded to 8) | func_info (8 * nr) | tags (8 * nr);
 * for two: ksyms 0-16, lens 16-24, func_info 24-40, tags 40-56.
 */
static void put_prog(struct img *im, uint32_t id, uint32_t nr, uint32_t btf_id, const char *name)
{
	size_t info = im->len + 16, data;
	uint64_t ksyms = 0, lens = 8 * nr, finfo = lens + 8, ptags = finfo + 8 * nr;
	uint32_t data_len = (uint32_t)(ptags + 8 * nr);

	img_u32(im, INFO_SIZE);
	img_u32(im, data_len);
	img_u64(im, ALL_ARRAYS);
	img_zeros(im, INFO_SIZE);
	img_set_u32(im, info + INFO_ID, id);
	memcpy(im->buf + info + INFO_TAG, tags[0], 8);
	memcpy(im->buf + info + INFO_NAME, name, strlen(name));
	img_set_u32(im, info + INFO_NR_JITED_KSYMS, nr);
	img_set_u32(im, info + INFO_NR_JITED_FUNC_LENS, nr);
	img_set_u64(im, info + INFO_JITED_KSYMS, ksyms);
	img_set_u64(im, info + INFO_JITED_FUNC_LENS, lens);
	img_set_u32(im, info + INFO_BTF_ID, btf_id);
	img_set_u32(im, info + INFO_FUNC_INFO_REC_SIZE, 8);
	img_set_u64(im, info + INFO_FUNC_INFO, finfo);
	img_set_u32(im, info + INFO_NR_FUNC_INFO, nr);
	img_set_u32(im, info + INFO_NR_PROG_TAGS, nr);
	img_set_u64(im, info + INFO_PROG_TAGS, ptags);

	data = im->len;
	for (uint32_t i = 0; i < nr; i++)
		img_u64(im, 0xffffffffc0022060ULL + 0x44 * i);
	for (uint32_t i = 0; i < nr; i++)
		img_u32(im, 25 - 2 * i);
	img_zeros(im, (size_t)(finfo - lens) - 4 * nr);
	for (uint32_t i = 0; i < nr; i++) {
		img_u32(im, 16 * i); /* insn_off */
		img_u32(im, 3);	     /* type id: FUNC my_func */
	}
	for (uint32_t i = 0; i < nr; i++)
		img_bytes(im, tags[i], 8);
	assert_int_equal(im->len - data, data_len);
}

static void build_prog_info(struct img *im, bool big_endian)
{
	img_init(im, big_endian);
	img_u32(im, 2);
	put_prog(im, 99, 2, 14, "two_subs");
	put_prog(im, 100, 1, 0, "sampo_prog");
}

static void build_btf_payload(struct img *im, bool big_endian)
{
	struct img blob;

	build_btf(&blob, big_endian);
	img_init(im, big_endian);
	img_u32(im, 1);
	img_u32(im, 14); /* id */
	img_u32(im, (uint32_t)blob.len);
	img_bytes(im, blob.buf, blob.len);
	img_free(&blob);
}

static struct sampo_features *parse_payloads(bool big_endian)
{
	struct sampo_features *f = sampo_features__new();
	bool swap = big_endian != host_big_endian();
	struct img p, b;
	uint8_t *c;

	assert_non_null(f);
	build_prog_info(&p, big_endian);
	build_btf_payload(&b, big_endian);
	c = exact_copy(p.buf, p.len);
	assert_int_equal(
		sampo_features__parse_one(f, SAMPO_FEAT_BPF_PROG_INFO, c, p.len, swap, NULL), 0);
	free(c);
	c = exact_copy(b.buf, b.len);
	assert_int_equal(sampo_features__parse_one(f, SAMPO_FEAT_BPF_BTF, c, b.len, swap, NULL), 0);
	free(c);
	img_free(&p);
	img_free(&b);
	return f;
}

static char *sub_name(const struct sampo_bpf_prog_info *info, const struct sampo_btf *btf,
		      uint32_t sub)
{
	static char buf[128];

	assert_true(sampo_bpf_prog_info__sub_name(info, btf, sub, buf, sizeof(buf)) > 0);
	return buf;
}

static void test_bpf__prog_info_in_both_byte_orders(void **state)
{
	(void)state;
	for (int be = 0; be <= 1; be++) {
		struct sampo_features *f = parse_payloads(be);
		bool swap = be != host_big_endian();
		struct sampo_bpf_prog_info *a, *b;
		const struct sampo_feat_btf *node;
		struct sampo_btf *btf;

		assert_int_equal(f->nr_bpf_progs, 2);
		assert_int_equal(sampo_bpf_prog_info__decode(&f->bpf_progs[0], swap, &a), 0);
		assert_int_equal(sampo_bpf_prog_info__decode(&f->bpf_progs[1], swap, &b), 0);

		assert_int_equal(a->id, 99);
		assert_string_equal(a->name, "two_subs");
		assert_memory_equal(a->tag, tags[0], 8);
		assert_int_equal(a->info_len, INFO_SIZE);
		assert_int_equal(a->arrays, ALL_ARRAYS);
		assert_int_equal(a->btf_id, 14);
		assert_int_equal(a->nr_jited_ksyms, 2);
		assert_non_null(a->jited_ksyms);
		assert_true(a->jited_ksyms[1] == 0xffffffffc00220a4ULL);
		assert_int_equal(a->jited_func_lens[0], 25);
		assert_int_equal(a->jited_func_lens[1], 23);
		assert_int_equal(a->func_info_rec_size, 8);
		assert_int_equal(a->func_info[1].insn_off, 16);
		assert_int_equal(a->func_info[1].type_id, 3);
		assert_memory_equal(a->prog_tags[1], tags[1], 8);

		node = sampo_features__find_btf(f, a->btf_id);
		assert_non_null(node);
		assert_null(sampo_features__find_btf(f, 15));
		assert_int_equal(sampo_btf__new(node->data, node->size, &btf), 0);
		assert_string_equal(sub_name(a, btf, 0), "bpf_prog_692df2a51115ed24_my_func");
		assert_string_equal(sub_name(a, btf, 1), "bpf_prog_c3d697c98f3b60ee_my_func");
		assert_string_equal(sub_name(a, NULL, 1), "bpf_prog_c3d697c98f3b60ee_F");
		assert_string_equal(sub_name(b, NULL, 0), "bpf_prog_692df2a51115ed24_sampo_prog");
		assert_int_equal(sampo_bpf_prog_info__sub_name(b, NULL, 1, NULL, 0), -EINVAL);

		/* a type id past the last type: the tag alone, as perf 6.1 does */
		a->func_info[0].type_id = NR_TYPES + 1;
		assert_string_equal(sub_name(a, btf, 0), "bpf_prog_692df2a51115ed24");
		/* a type without a name: libbpf's NULL */
		a->func_info[0].type_id = 2;
		assert_string_equal(sub_name(a, btf, 0), "bpf_prog_692df2a51115ed24_");
		a->func_info[0].type_id = 7;
		assert_string_equal(sub_name(a, btf, 0), "bpf_prog_692df2a51115ed24_");

		sampo_btf__delete(btf);
		sampo_bpf_prog_info__delete(a);
		sampo_bpf_prog_info__delete(b);
		sampo_features__delete(f);
	}
}

static void test_bpf__prog_info_payload_truncated_anywhere(void **state)
{
	(void)state;
	for (int be = 0; be <= 1; be++) {
		bool swap = be != host_big_endian();
		struct img p;

		build_prog_info(&p, be);
		for (size_t n = 0; n < p.len; n++) {
			struct sampo_features *f = sampo_features__new();
			struct sampo_feature_error fe;
			uint8_t *c = exact_copy(p.buf, n);

			assert_int_equal(sampo_features__parse_one(f, SAMPO_FEAT_BPF_PROG_INFO, c,
								   n, swap, &fe),
					 -SAMPO_ERR_MALFORMED);
			assert_false(sampo_features__has(f, SAMPO_FEAT_BPF_PROG_INFO));
			assert_int_equal(f->nr_bpf_progs, 0);
			assert_true(fe.msg[0] != 0);
			free(c);
			sampo_features__delete(f);
		}
		img_free(&p);
	}
}

/*
 * Decode one program from exact-size copies of its info and data, cut to
 * @info_len and @data_len: nothing is read past either, fields past the cut
 * are zero, arrays past the cut are NULL.
 */
static struct sampo_bpf_prog_info *decode_cut(const struct sampo_feat_bpf_prog *full,
					      uint32_t info_len, uint32_t data_len, bool swap)
{
	struct sampo_feat_bpf_prog cut = *full;
	struct sampo_bpf_prog_info *info = NULL;

	cut.info_len = info_len;
	cut.data_len = data_len;
	cut.info = exact_copy(full->info, info_len);
	cut.data = exact_copy(full->data, data_len);
	assert_int_equal(sampo_bpf_prog_info__decode(&cut, swap, &info), 0);
	free(cut.info);
	free(cut.data);
	return info;
}

static void test_bpf__prog_info_cut_info_and_data(void **state)
{
	(void)state;
	for (int be = 0; be <= 1; be++) {
		struct sampo_features *f = parse_payloads(be);
		bool swap = be != host_big_endian();
		const struct sampo_feat_bpf_prog *full = &f->bpf_progs[0];

		for (uint32_t n = 0; n <= full->info_len; n++) {
			struct sampo_bpf_prog_info *info =
				decode_cut(full, n, full->data_len, swap);

			/* (a field cut in the middle keeps its first bytes) */
			if (n <= INFO_ID || n >= INFO_ID + 4)
				assert_int_equal(info->id, n > INFO_ID ? 99 : 0);
			if (n <= INFO_BTF_ID || n >= INFO_BTF_ID + 4)
				assert_int_equal(info->btf_id, n > INFO_BTF_ID ? 14 : 0);
			if (n <= INFO_NR_PROG_TAGS)
				assert_int_equal(info->nr_prog_tags, 0);
			else if (n >= INFO_PROG_TAGS + 8)
				assert_non_null(info->prog_tags);
			assert_true(info->name[SAMPO_BPF_OBJ_NAME_LEN] == 0);
			sampo_bpf_prog_info__delete(info);
		}
		for (uint32_t n = 0; n <= full->data_len; n++) {
			struct sampo_bpf_prog_info *info =
				decode_cut(full, full->info_len, n, swap);
			char name[64];

			/* ksyms 0-16, lens 16-24, func_info 24-40, tags 40-56 */
			assert_int_equal(info->jited_ksyms != NULL, n >= 16);
			assert_int_equal(info->jited_func_lens != NULL, n >= 24);
			assert_int_equal(info->func_info != NULL, n >= 40);
			assert_int_equal(info->prog_tags != NULL, n >= 56);
			if (info->prog_tags)
				assert_true(sampo_bpf_prog_info__sub_name(info, NULL, 1, name,
									  sizeof(name)) > 0);
			else
				assert_int_equal(sampo_bpf_prog_info__sub_name(info, NULL, 0, name,
									       sizeof(name)),
						 -EINVAL);
			sampo_bpf_prog_info__delete(info);
		}
		sampo_features__delete(f);
	}
}

/* Overwrite a u32 or u64 field of a decoded-from copy of program 0's info (host order). */
static struct sampo_bpf_prog_info *decode_patched(const struct sampo_feat_bpf_prog *full,
						  size_t off, uint64_t v, size_t width)
{
	struct sampo_feat_bpf_prog p = *full;
	struct sampo_bpf_prog_info *info = NULL;
	uint32_t v32 = (uint32_t)v;

	p.info = exact_copy(full->info, full->info_len);
	p.data = exact_copy(full->data, full->data_len);
	memcpy(p.info + off, width == 8 ? (const void *)&v : (const void *)&v32, width);
	assert_int_equal(sampo_bpf_prog_info__decode(&p, false, &info), 0);
	free(p.info);
	free(p.data);
	return info;
}

static void test_bpf__prog_info_hostile_counts_and_offsets(void **state)
{
	struct sampo_features *f;
	const struct sampo_feat_bpf_prog *full;
	struct sampo_bpf_prog_info *info;
	struct sampo_feat_bpf_prog p;

	(void)state;
	f = parse_payloads(host_big_endian()); /* host order: patch fields directly */
	full = &f->bpf_progs[0];

	info = decode_patched(full, INFO_NR_JITED_KSYMS, UINT32_MAX, 4);
	assert_null(info->jited_ksyms);
	assert_non_null(info->jited_func_lens);
	sampo_bpf_prog_info__delete(info);

	info = decode_patched(full, INFO_NR_PROG_TAGS, 0x20000000, 4);
	assert_null(info->prog_tags);
	sampo_bpf_prog_info__delete(info);

	info = decode_patched(full, INFO_JITED_FUNC_LENS, UINT64_MAX, 8);
	assert_null(info->jited_func_lens);
	sampo_bpf_prog_info__delete(info);

	info = decode_patched(full, INFO_JITED_KSYMS, full->data_len, 8); /* at the very end */
	assert_null(info->jited_ksyms);
	sampo_bpf_prog_info__delete(info);

	info = decode_patched(full, INFO_FUNC_INFO_REC_SIZE, UINT32_MAX, 4);
	assert_null(info->func_info);
	sampo_bpf_prog_info__delete(info);
	info = decode_patched(full, INFO_FUNC_INFO_REC_SIZE, 4, 4); /* too small for a type id */
	assert_null(info->func_info);
	sampo_bpf_prog_info__delete(info);

	/* an empty array at the end of the data is there, with nothing in it */
	info = decode_patched(full, INFO_NR_FUNC_INFO, 0, 4);
	assert_int_equal(info->nr_func_info, 0);
	sampo_bpf_prog_info__delete(info);

	/* an array whose bit is not set is not taken, whatever its offset */
	p = *full;
	p.arrays = 0;
	assert_int_equal(sampo_bpf_prog_info__decode(&p, false, &info), 0);
	assert_null(info->jited_ksyms);
	assert_null(info->jited_func_lens);
	assert_null(info->func_info);
	assert_null(info->prog_tags);
	sampo_bpf_prog_info__delete(info);

	/* a name filling all 16 bytes stays terminated */
	p = *full;
	p.info = exact_copy(full->info, full->info_len);
	memset(p.info + INFO_NAME, 'x', SAMPO_BPF_OBJ_NAME_LEN);
	assert_int_equal(sampo_bpf_prog_info__decode(&p, false, &info), 0);
	assert_int_equal(strlen(info->name), SAMPO_BPF_OBJ_NAME_LEN);
	free(p.info);
	sampo_bpf_prog_info__delete(info);

	assert_int_equal(sampo_bpf_prog_info__decode(NULL, false, &info), -EINVAL);
	sampo_bpf_prog_info__delete(NULL);
	sampo_features__delete(f);
}

static void test_bpf__hostile_program_and_btf_counts(void **state)
{
	struct sampo_features *f = sampo_features__new();
	struct img im;

	(void)state;
	/* counts that cannot fit in the payload are refused before any allocation */
	img_init(&im, host_big_endian());
	img_u32(&im, UINT32_MAX);
	img_zeros(&im, 16);
	assert_int_equal(
		sampo_features__parse_one(f, SAMPO_FEAT_BPF_PROG_INFO, im.buf, im.len, false, NULL),
		-SAMPO_ERR_MALFORMED);
	assert_int_equal(
		sampo_features__parse_one(f, SAMPO_FEAT_BPF_BTF, im.buf, im.len, false, NULL),
		-SAMPO_ERR_MALFORMED);
	img_free(&im);

	/* a program whose info_len runs past the payload */
	img_init(&im, host_big_endian());
	img_u32(&im, 1);
	img_u32(&im, UINT32_MAX);
	img_u32(&im, 0);
	img_u64(&im, 0);
	img_zeros(&im, 64);
	assert_int_equal(
		sampo_features__parse_one(f, SAMPO_FEAT_BPF_PROG_INFO, im.buf, im.len, false, NULL),
		-SAMPO_ERR_MALFORMED);
	img_free(&im);

	/* a BTF whose size runs past the payload */
	img_init(&im, host_big_endian());
	img_u32(&im, 1);
	img_u32(&im, 1);
	img_u32(&im, 0x7fffffff);
	img_zeros(&im, 24);
	assert_int_equal(
		sampo_features__parse_one(f, SAMPO_FEAT_BPF_BTF, im.buf, im.len, false, NULL),
		-SAMPO_ERR_MALFORMED);
	img_free(&im);

	/* the first blob of an id wins, as in perf's tree */
	img_init(&im, host_big_endian());
	img_u32(&im, 2);
	img_u32(&im, 7);
	img_u32(&im, 1);
	img_u8(&im, 'a');
	img_u32(&im, 7);
	img_u32(&im, 2);
	img_u16(&im, 0);
	assert_int_equal(
		sampo_features__parse_one(f, SAMPO_FEAT_BPF_BTF, im.buf, im.len, false, NULL), 0);
	assert_int_equal(sampo_features__find_btf(f, 7)->size, 1);
	img_free(&im);
	sampo_features__delete(f);
}

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bpf__btf_types_in_both_byte_orders),
		cmocka_unit_test(test_bpf__btf_lookups_stay_in_bounds),
		cmocka_unit_test(test_bpf__btf_truncated_anywhere_is_refused),
		cmocka_unit_test(test_bpf__btf_rejects_hostile_headers_and_types),
		cmocka_unit_test(test_bpf__prog_info_in_both_byte_orders),
		cmocka_unit_test(test_bpf__prog_info_payload_truncated_anywhere),
		cmocka_unit_test(test_bpf__prog_info_cut_info_and_data),
		cmocka_unit_test(test_bpf__prog_info_hostile_counts_and_offsets),
		cmocka_unit_test(test_bpf__hostile_program_and_btf_counts),
	};

	sampo_set_print(quiet);
	return cmocka_run_group_tests_name("bpf", tests, NULL, NULL);
}
