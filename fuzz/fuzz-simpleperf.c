// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-simpleperf.c - libFuzzer entry point for what sampo reads of Android
 * simpleperf's perf.data files: its features (lib/feature-simpleperf.c: FILE,
 * FILE2 and DEBUG_UNWIND with their protobuf messages, META_INFO) and its own
 * records in the reader (32-bit sizes, records over 64 KiB, EVENT_ID, the
 * TRACING_DATA of type 66 with its data inside).
 *
 * Input layout (seeds in fuzz/corpus/simpleperf/: the files of
 * tests/fixtures/simpleperf/, crafted ones, and feature payloads cut from them):
 *
 *	"PERFILE2..."   a whole file: opened from memory, every record read in
 *	                file order, every feature parsed, the DSO tables walked
 *	u8 feat, rest   anything else: the rest is the payload of simpleperf
 *	                feature 128 + feat % 7, parsed from an exact-size heap copy
 *	                so that ASan catches a read past it
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/common.h>
#include <sampo/feature.h>
#include <sampo/reader.h>

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* touch every byte the view points to, so that ASan sees a bad pointer */
static size_t walk(const struct sampo_features *f)
{
	const struct sampo_feat_sp_file *files;
	size_t sum = 0;
	uint32_t nr;

	files = sampo_features__simpleperf_files(f, &nr);
	for (uint32_t i = 0; i < nr; i++) {
		sum += strlen(files[i].path) + files[i].min_vaddr + files[i].file_offset;
		for (uint32_t j = 0; j < files[i].nr_symbols; j++)
			sum += strlen(files[i].symbols[j].name) + files[i].symbols[j].vaddr +
			       files[i].symbols[j].len;
		for (uint32_t j = 0; j < files[i].nr_dex_offsets; j++)
			sum += files[i].dex_offsets[j];
	}
	for (uint32_t i = 0;
	     sampo_features__has(f, SAMPO_FEAT_SIMPLEPERF_META_INFO) && i < f->nr_sp_meta; i++)
		sum += strlen(f->sp_meta[i].key) + strlen(f->sp_meta[i].value);
	for (uint32_t i = 0; sampo_features__has(f, SAMPO_FEAT_SIMPLEPERF_DEBUG_UNWIND) &&
			     i < f->nr_sp_debug_unwind;
	     i++)
		sum += strlen(f->sp_debug_unwind[i].path) + f->sp_debug_unwind[i].size;
	(void)sampo_features__simpleperf_meta(f, "simpleperf_version");
	return sum;
}

static void fuzz_file(const uint8_t *data, size_t size)
{
	SAMPO_OPTS(sampo_reader_opts, opts);
	struct sampo_features *f = NULL;
	struct sampo_reader *r;
	struct sampo_event ev;
	volatile size_t sink = 0;

	if (sampo_reader__open_mem(data, size, "fuzz", &opts, &r))
		return;
	if (sampo_features__parse_each(r, &f, NULL) >= 0) {
		sink += walk(f);
		sampo_features__delete(f);
	}
	while (sampo_reader__next(r, &ev) > 0) {
		if (ev.payload)
			sink += ((const uint8_t *)
					 ev.payload)[ev.payload_size ? ev.payload_size - 1 : 0];
		sink += ev.record->header.size;
	}
	sampo_reader__close(r);
	(void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sampo_features *f;
	uint8_t *copy;
	volatile size_t sink;

	sampo_set_print(quiet);
	if (size >= 8 && !memcmp(data, "PERFILE2", 8)) {
		fuzz_file(data, size);
		return 0;
	}
	if (size < 1)
		return 0;
	copy = malloc(size - 1 ? size - 1 : 1);
	f = sampo_features__new();
	if (!copy || !f) {
		free(copy);
		sampo_features__delete(f);
		return 0;
	}
	memcpy(copy, data + 1, size - 1);
	if (!sampo_features__parse_one(f, SAMPO_FEAT_SIMPLEPERF_FILE + data[0] % 7, copy, size - 1,
				       false, NULL))
		sink = walk(f);
	(void)sink;
	sampo_features__delete(f);
	free(copy);
	return 0;
}
