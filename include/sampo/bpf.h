/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * bpf.h - the BPF programs and BTF blobs a perf.data file carries
 * (features BPF_PROG_INFO and BPF_BTF), decoded into typed values.
 *
 * <sampo/feature.h> keeps each program and each BTF blob as the bytes the
 * file holds (struct sampo_feat_bpf_prog, struct sampo_feat_btf). This
 * header turns them into what a reader of the file needs:
 *
 * - struct sampo_bpf_prog_info: the fields of the kernel's struct
 *   bpf_prog_info (uapi linux/bpf.h) that perf records, in host byte order,
 *   with the arrays perf stores after it (addresses and lengths of the
 *   JITed sub-programs, their tags, their BTF function records) bounds
 *   checked and copied out. An array that is absent, or whose count does not
 *   fit in the recorded data, is NULL: the rest of the program is still read.
 * - struct sampo_btf: a BTF blob (uapi linux/btf.h) checked as libbpf's
 *   btf__new() checks it, with its types indexed by id and its string
 *   section; types come out as struct sampo_btf_type with a named kind.
 * - sampo_bpf_prog_info__sub_name(): the name perf gives a JITed
 *   sub-program, "bpf_prog_<tag>_<name>" (perf's synthesize_bpf_prog_name()).
 *
 * Everything here reads hostile bytes: every count, length and offset is
 * checked before use, nothing is read outside the given buffer, and a bad
 * blob is refused with -SAMPO_ERR_MALFORMED rather than half read.
 */
#ifndef SAMPO_BPF_H
#define SAMPO_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_features;
struct sampo_feat_bpf_prog;
struct sampo_feat_btf;

/* ---- BTF (uapi linux/btf.h) ------------------------------------------------------- */

#define SAMPO_BTF_MAGIC	   0xeB9F
#define SAMPO_BTF_HDR_SIZE 24 /* struct btf_header: magic..str_len */

/* BTF_KIND_*: bits 24-28 of struct btf_type's info word */
enum sampo_btf_kind {
	SAMPO_BTF_KIND_UNKN = 0, /* unknown, or void (type id 0) */
	SAMPO_BTF_KIND_INT = 1,
	SAMPO_BTF_KIND_PTR = 2,
	SAMPO_BTF_KIND_ARRAY = 3,
	SAMPO_BTF_KIND_STRUCT = 4,
	SAMPO_BTF_KIND_UNION = 5,
	SAMPO_BTF_KIND_ENUM = 6,
	SAMPO_BTF_KIND_FWD = 7,
	SAMPO_BTF_KIND_TYPEDEF = 8,
	SAMPO_BTF_KIND_VOLATILE = 9,
	SAMPO_BTF_KIND_CONST = 10,
	SAMPO_BTF_KIND_RESTRICT = 11,
	SAMPO_BTF_KIND_FUNC = 12,
	SAMPO_BTF_KIND_FUNC_PROTO = 13,
	SAMPO_BTF_KIND_VAR = 14,
	SAMPO_BTF_KIND_DATASEC = 15,
	SAMPO_BTF_KIND_FLOAT = 16,
	SAMPO_BTF_KIND_DECL_TAG = 17,
	SAMPO_BTF_KIND_TYPE_TAG = 18,
	SAMPO_BTF_KIND_ENUM64 = 19,
	SAMPO_BTF_KIND_MAX = SAMPO_BTF_KIND_ENUM64,
};

/* One struct btf_type, decoded (the kind-specific data after it is not). */
struct sampo_btf_type {
	uint32_t id;
	uint32_t name_off; /* into the string section; 0: anonymous */
	enum sampo_btf_kind kind;
	uint16_t vlen;	       /* members, enumerators, parameters... (info bits 0-15) */
	bool kind_flag;	       /* info bit 31 */
	uint32_t size_or_type; /* size in bytes (INT, STRUCT, ...) or a type id (PTR, FUNC, ...) */
};

/* A checked BTF blob; opaque. */
struct sampo_btf;

/**
 * sampo_btf__new() - check a BTF blob and index its types
 * @data: the blob (struct btf_header, type section, string section), in
 *        either byte order (told by its magic); borrowed, copied
 * @size: bytes at @data
 * @ret_btf: on success, the blob; free with sampo_btf__delete()
 *
 * Refuses what libbpf's btf__new() refuses when it reads a blob: a bad magic,
 * a header or section past the end, a type section after the string section
 * or not 4-byte aligned, a string section that does not start and end with
 * a NUL, a type of unknown kind or cut by the end of its section.
 *
 * Return: 0, -SAMPO_ERR_MALFORMED, -EINVAL (@data NULL with @size) or -ENOMEM.
 */
SAMPO_API int sampo_btf__new(const void *data, size_t size, struct sampo_btf **ret_btf);

/** sampo_btf__delete() - free @btf; NULL is allowed */
SAMPO_API void sampo_btf__delete(struct sampo_btf *btf);

/** sampo_btf__nr_types() - the number of types: valid ids are 1..nr (0 is void) */
SAMPO_API uint32_t sampo_btf__nr_types(const struct sampo_btf *btf);

/**
 * sampo_btf__swapped() - the blob was in the opposite byte order (and has
 * been converted)
 */
SAMPO_API bool sampo_btf__swapped(const struct sampo_btf *btf);

/**
 * sampo_btf__type_by_id() - one type of @btf
 * @id: 0 (void: kind UNKN, everything zero) to sampo_btf__nr_types()
 * @ret: on success, the decoded type
 *
 * Return: 0, or -ENOENT when @id is past the last type.
 */
SAMPO_API int sampo_btf__type_by_id(const struct sampo_btf *btf, uint32_t id,
				    struct sampo_btf_type *ret);

/**
 * sampo_btf__name_by_offset() - a string of the string section
 * @off: offset in the string section (a name_off)
 *
 * Return: the NUL-terminated string (borrowed, valid until
 * sampo_btf__delete()), or NULL when @off is outside the section (libbpf
 * returns NULL then too).
 */
SAMPO_API const char *sampo_btf__name_by_offset(const struct sampo_btf *btf, uint32_t off);

/** sampo_btf_kind__name() - "INT", "STRUCT", ... as bpftool says; "UNKNOWN" past the last */
SAMPO_API const char *sampo_btf_kind__name(enum sampo_btf_kind kind);

/* ---- BPF programs (uapi linux/bpf.h, perf's struct perf_bpil) ------------------------ */

#define SAMPO_BPF_TAG_SIZE     8  /* BPF_TAG_SIZE */
#define SAMPO_BPF_OBJ_NAME_LEN 16 /* BPF_OBJ_NAME_LEN */
/*
 * sizeof(struct bpf_prog_info) in Linux 6.1's uapi: perf 6.1 refuses (and
 * stops processing at) a program whose recorded info is longer.
 */
#define SAMPO_BPF_PROG_INFO_SIZE_PERF61 232

/*
 * perf's PERF_BPIL_*: bit N of perf_bpil.arrays says that the matching
 * pointer field of bpf_prog_info holds an offset into the program's data.
 */
enum sampo_bpil_array {
	SAMPO_BPIL_JITED_INSNS = 0,
	SAMPO_BPIL_XLATED_INSNS = 1,
	SAMPO_BPIL_MAP_IDS = 2,
	SAMPO_BPIL_JITED_KSYMS = 3,
	SAMPO_BPIL_JITED_FUNC_LENS = 4,
	SAMPO_BPIL_FUNC_INFO = 5,
	SAMPO_BPIL_LINE_INFO = 6,
	SAMPO_BPIL_JITED_LINE_INFO = 7,
	SAMPO_BPIL_PROG_TAGS = 8,
};

/* struct bpf_func_info: the BTF function of one sub-program */
struct sampo_bpf_func_info {
	uint32_t insn_off; /* first instruction of the sub-program */
	uint32_t type_id;  /* its BTF_KIND_FUNC type */
};

/*
 * One program of BPF_PROG_INFO, decoded. Fields past the recorded info_len
 * read as zero (perf zero-fills a shorter struct too).
 */
struct sampo_bpf_prog_info {
	uint32_t info_len; /* bytes of struct bpf_prog_info recorded */
	uint32_t data_len; /* bytes of array data recorded after it */
	uint64_t arrays;   /* bitmask of enum sampo_bpil_array */

	uint32_t type; /* enum bpf_prog_type */
	uint32_t id;
	uint8_t tag[SAMPO_BPF_TAG_SIZE];
	char name[SAMPO_BPF_OBJ_NAME_LEN + 1]; /* always NUL-terminated */
	uint32_t btf_id;		       /* 0: none; else a BPF_BTF blob's id */

	uint32_t nr_jited_ksyms; /* JITed sub-programs */
	uint32_t nr_jited_func_lens;
	uint32_t nr_prog_tags;
	uint32_t nr_func_info;
	uint32_t func_info_rec_size; /* bytes per func_info record as recorded */

	/* the arrays, host order; NULL when absent or not fitting in the data */
	uint64_t *jited_ksyms;			  /* nr_jited_ksyms start addresses */
	uint32_t *jited_func_lens;		  /* nr_jited_func_lens sizes in bytes */
	uint8_t (*prog_tags)[SAMPO_BPF_TAG_SIZE]; /* nr_prog_tags tags */
	struct sampo_bpf_func_info *func_info;	  /* nr_func_info records */
};

/**
 * sampo_bpf_prog_info__decode() - decode one recorded program
 * @prog: a program of struct sampo_features (BPF_PROG_INFO)
 * @swap: it comes from an opposite-endian file
 * @ret_info: on success, the program; free with sampo_bpf_prog_info__delete()
 *
 * Arrays are taken only when their bit is set in @prog->arrays and their
 * count of elements fits between their offset and the end of the data;
 * func_info also needs records of at least 8 bytes.
 *
 * Return: 0, -EINVAL (@prog NULL) or -ENOMEM.
 */
SAMPO_API int sampo_bpf_prog_info__decode(const struct sampo_feat_bpf_prog *prog, bool swap,
					  struct sampo_bpf_prog_info **ret_info);

/** sampo_bpf_prog_info__delete() - free @info; NULL is allowed */
SAMPO_API void sampo_bpf_prog_info__delete(struct sampo_bpf_prog_info *info);

/**
 * sampo_bpf_prog_info__sub_name() - the name perf gives a JITed sub-program
 * @info: the program
 * @btf: its BTF (the blob of id @info->btf_id), or NULL
 * @sub: the sub-program, below @info->nr_prog_tags
 * @buf: where the name goes, NUL-terminated (cut to @size)
 * @size: bytes at @buf
 *
 * "bpf_prog_<tag>" then: with @btf, "_<name of the FUNC type of the
 * sub-program's func_info record>" ("_(null)" when the type has no name in
 * range, nothing when the type id is past the last type); without, the
 * program's name for a program of one sub-program, "_F" otherwise. @btf is
 * used only when the func_info records cover @sub.
 *
 * Return: the length of the whole name (as snprintf()), or -EINVAL when @sub
 * has no tag.
 */
SAMPO_API int sampo_bpf_prog_info__sub_name(const struct sampo_bpf_prog_info *info,
					    const struct sampo_btf *btf, uint32_t sub, char *buf,
					    size_t size);

/**
 * sampo_features__find_btf() - the BPF_BTF blob of id @id
 *
 * Return: the first blob with that id (perf keeps the first of an id), or
 * NULL; borrowed from @f.
 */
SAMPO_API const struct sampo_feat_btf *sampo_features__find_btf(const struct sampo_features *f,
								uint32_t id);

#endif /* SAMPO_BPF_H */
