// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-reader.c - libFuzzer entry point for the perf.data reader.
 *
 * Each input is read as a perf.data image twice, in file order and in time
 * order, with every record's sample fields decoded and every feature section
 * fetched and parsed into typed data (lib/feature.c), so that all the
 * reader's and the feature parsers' bounds checks are on the path.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/feature.h>
#include <sampo/reader.h>

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void walk(const uint8_t *data, size_t size, bool ordered)
{
	struct sampo_reader *r;
	struct sampo_event ev;
	char err[256];
	uint64_t sum = 0;
	SAMPO_OPTS(sampo_reader_opts, opts, .ordered = ordered, .errbuf = err,
		   .errbuf_sz = sizeof(err));

	if (sampo_reader__open_mem(data, size, "fuzz", &opts, &r))
		return;
	for (int feat = 0; feat < SAMPO_FEAT_MAX_BITS; feat++) {
		const void *p;
		size_t n;

		if (sampo_reader__feature(r, feat, &p, &n) == 0 && n)
			sum += ((const uint8_t *)p)[n - 1];
	}
	if (!ordered) {
		struct sampo_features *features = NULL;
		struct sampo_feature_error ferr;

		if (sampo_features__parse(r, &features, &ferr) == 0)
			sampo_features__delete(features);
	}
	while (sampo_reader__next(r, &ev) > 0) {
		/* touch what the reader promises is inside the record */
		sum += ev.record->header.size;
		for (uint64_t i = 0; i < ev.sample.callchain_nr; i++)
			sum += ev.sample.callchain[i];
		if (ev.sample.raw_size)
			sum += ev.sample.raw_data[ev.sample.raw_size - 1];
	}
	(void)sum;
	sampo_reader__close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;

	if (!init) {
		sampo_set_print(quiet);
		init = true;
	}
	walk(data, size, false);
	walk(data, size, true);
	return 0;
}
