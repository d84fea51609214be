// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-bpf.c - libFuzzer entry point for the BPF_PROG_INFO and BPF_BTF
 * parsers (lib/feature.c for the payloads, lib/bpf.c for the programs and
 * BTF blobs).
 *
 * Input layout (seeds in fuzz/corpus/bpf/ are made this way from real files):
 *
 *	u8 flags    bit 0: the payloads are opposite-endian
 *	u32 split   (little-endian) bytes of the BPF_PROG_INFO payload
 *	BPF_PROG_INFO payload (split bytes, fewer if the input is shorter)
 *	BPF_BTF payload (the rest)
 *
 * The BPF_BTF payload is also opened whole as one BTF blob, so that
 * sampo_btf__new() sees unframed bytes too. Every program is decoded from
 * heap copies of exactly its info and data sizes, so that ASan catches a
 * read past either, and every sub-program is named with its BTF as
 * `sampo header` does.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/bpf.h>
#include <sampo/feature.h>

#define FUZZ_HDR_SIZE 5

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static size_t walk_btf(const struct sampo_btf *btf)
{
	size_t sum = 0;

	for (uint32_t id = 0; id <= sampo_btf__nr_types(btf); id++) {
		struct sampo_btf_type t;
		const char *name;

		if (sampo_btf__type_by_id(btf, id, &t))
			abort(); /* every id up to nr_types exists */
		name = sampo_btf__name_by_offset(btf, t.name_off);
		if (name)
			sum += strlen(name);
		sum += strlen(sampo_btf_kind__name(t.kind));
	}
	return sum;
}

static size_t walk_prog(const struct sampo_features *f, const struct sampo_feat_bpf_prog *raw,
			bool swap)
{
	struct sampo_feat_bpf_prog prog = *raw;
	struct sampo_bpf_prog_info *info;
	struct sampo_btf *btf = NULL;
	const struct sampo_feat_btf *node;
	size_t sum = 0;

	prog.info = malloc(raw->info_len ? raw->info_len : 1);
	prog.data = malloc(raw->data_len ? raw->data_len : 1);
	if (!prog.info || !prog.data)
		goto out;
	if (raw->info_len) /* (an empty array is NULL) */
		memcpy(prog.info, raw->info, raw->info_len);
	if (raw->data_len)
		memcpy(prog.data, raw->data, raw->data_len);
	if (sampo_bpf_prog_info__decode(&prog, swap, &info))
		goto out;
	node = sampo_features__find_btf(f, info->btf_id);
	if (node && sampo_btf__new(node->data, node->size, &btf))
		btf = NULL;
	for (uint32_t i = 0; i < info->nr_prog_tags && i < 4096; i++) {
		char name[64];

		sum += (size_t)sampo_bpf_prog_info__sub_name(info, btf, i, name, sizeof(name));
	}
	if (info->jited_ksyms && info->nr_jited_ksyms)
		sum += info->jited_ksyms[info->nr_jited_ksyms - 1];
	if (info->jited_func_lens && info->nr_jited_func_lens)
		sum += info->jited_func_lens[info->nr_jited_func_lens - 1];
	if (info->func_info && info->nr_func_info)
		sum += info->func_info[info->nr_func_info - 1].type_id;
	sampo_btf__delete(btf);
	sampo_bpf_prog_info__delete(info);
out:
	free(prog.info);
	free(prog.data);
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sampo_features *f;
	struct sampo_btf *btf;
	uint32_t split;
	size_t rest, sum = 0;
	bool swap;

	sampo_set_print(quiet);
	if (size < FUZZ_HDR_SIZE)
		return 0;
	swap = data[0] & 1;
	split = (uint32_t)data[1] | (uint32_t)data[2] << 8 | (uint32_t)data[3] << 16 |
		(uint32_t)data[4] << 24;
	data += FUZZ_HDR_SIZE;
	rest = size - FUZZ_HDR_SIZE;
	if (split > rest)
		split = (uint32_t)rest;

	if (!sampo_btf__new(data + split, rest - split, &btf)) {
		sum += walk_btf(btf);
		sampo_btf__delete(btf);
	}

	f = sampo_features__new();
	if (!f)
		return 0;
	(void)sampo_features__parse_one(f, SAMPO_FEAT_BPF_BTF, data + split, rest - split, swap,
					NULL);
	for (uint32_t i = 0; i < f->nr_btfs; i++) {
		if (!sampo_btf__new(f->btfs[i].data, f->btfs[i].size, &btf)) {
			sum += walk_btf(btf);
			sampo_btf__delete(btf);
		}
	}
	if (!sampo_features__parse_one(f, SAMPO_FEAT_BPF_PROG_INFO, data, split, swap, NULL)) {
		for (uint32_t i = 0; i < f->nr_bpf_progs; i++)
			sum += walk_prog(f, &f->bpf_progs[i], swap);
	}
	sampo_features__delete(f);
	(void)sum;
	return 0;
}
