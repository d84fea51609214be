// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-report.c - libFuzzer entry point for the whole report pipeline, as
 * `sampo report` runs it: a perf.data image opened as a session (time
 * order, damaged features left out one by one, file or pipe mode), every
 * record through the session's state and the machine, every sample added
 * to histograms resolved through the session's symbolizer, then the
 * histograms sorted, printed and walked as the folded and flame graph
 * outputs walk them.
 *
 * The image is handed over in a memfd opened by its /proc/self/fd path, so
 * the session's own open path (the reader's mmap, the file features, the
 * module section maps) runs unchanged. The last byte of the input picks the
 * options (it stays part of the image): bit 0 guests, bit 1 children, bit 2
 * caller order, bits 3-4 the call graph mode, bits 5-7 the sort keys.
 *
 * The symbolizer reads no build-id cache and no live kernel: its
 * buildid_dir and live_root are an empty directory, and no DSO is preloaded.
 * It does open the files the input's MMAP records name (as report does),
 * which is the point: a hostile path (a FIFO, /dev/zero, /proc/...) must
 * not hang or blow up the pipeline.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sampo/event.h>
#include <sampo/hist.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/symbolizer.h>

#include "memfd-input.h"

/*
 * libtraceevent 1.7 leaks a few bytes on some malformed event formats (the
 * error paths of tep_parse_format(), reached through a file's tracing data):
 * not ours to fix, so LeakSanitizer leaves out what it allocated, as in
 * fuzz-trace-data.c (tests/lsan.supp for the test runs)
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

static FILE *devnull;
static struct memfd_input input;
static char empty_dir[] = "/tmp/sampo-fuzz-report.XXXXXX";

static const char *const sort_lists[8] = {
	"comm,dso,sym", "sym", "dso,sym", "pid,sym", "cpu,comm", "tid,dso,sym", "dso", "comm,pid,tid",
};

static const char *const filter_comms[] = { "burn" };
static const char *const filter_dsos[] = { "[kernel.kallsyms]", "burn" };

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int on_sample(void *ctx, struct sampo_session *session, const struct sampo_event *ev)
{
	(void)session;
	/* a sample the histograms refuse (no attr) stops the report, as in cmd-report.c */
	return sampo_hists__add_sample(ctx, ev->attr_idx, &ev->sample);
}

/* What the folded, JSON and flame graph outputs read from the histograms. */
static uint64_t walk_stacks(const struct sampo_hists *h)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < sampo_hists__nr_stacks(h); i++) {
		const char *comm = sampo_hists__stack_comm(h, i);

		sum += sampo_hists__stack_period(h, i) + (comm ? (unsigned char)comm[0] : 0);
		for (size_t d = 0; d < sampo_hists__stack_depth(h, i); d++) {
			uint32_t f = sampo_hists__stack_frame(h, i, d);
			const char *name = sampo_hists__frame_name(h, f);
			const char *dso = sampo_hists__frame_dso_name(h, f);

			sum += strlen(name ? name : "") + strlen(dso ? dso : "") +
			       sampo_hists__frame_ip(h, f) + (uint64_t)sampo_hists__frame_level(h, f);
		}
	}
	return sum;
}

static void run(uint8_t opts_byte)
{
	SAMPO_OPTS(sampo_symbolizer_opts, sopts, .buildid_dir = empty_dir, .live_root = empty_dir,
		   .no_preload = true);
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true,
		   .features = SAMPO_SESSION_FEATURES_EACH, .guests = opts_byte & 1,
		   .symbolizer = &sopts);
	SAMPO_OPTS(sampo_hists_opts, hopts, .children = (opts_byte >> 1) & 1,
		   .caller_order = (opts_byte >> 2) & 1);
	const struct sampo_feature_error *ferr;
	enum sampo_sort_key keys[8];
	struct sampo_session *s = NULL;
	struct sampo_symbolizer *sym;
	struct sampo_hists *h = NULL;
	struct sampo_reader *r;
	size_t nr_keys = 0;
	uint64_t sum = 0;

	if (sampo_session__open(input.path, &opts, &s))
		return;
	(void)sampo_session__damaged_features(s, &ferr);
	sym = sampo_session__symbolizer(s);
	if (!sym)
		goto out;
	r = sampo_session__reader(s);
	switch ((opts_byte >> 3) & 3) {
	case 0:
		hopts.callchain = true;
		break;
	case 1:
		hopts.callchain = true;
		hopts.graph_folded = true;
		hopts.graph_period = true;
		break;
	case 2:
		hopts.callchain = true;
		hopts.max_stack = 3;
		hopts.callchain_min_percent = 0.5;
		hopts.percent_limit = 0.5;
		break;
	default:
		hopts.no_graph = true;
		hopts.show_nr_samples = true;
		break;
	}
	if (sampo_sort_keys__parse(sort_lists[opts_byte >> 5], keys, 8, &nr_keys, NULL, 0) == 0) {
		hopts.sort_keys = keys;
		hopts.nr_sort_keys = nr_keys;
	}
	if ((opts_byte >> 5) == 5) { /* report's --comms and --dsos filters */
		hopts.comms = filter_comms;
		hopts.nr_comms = 1;
		hopts.dsos = filter_dsos;
		hopts.nr_dsos = 2;
	}
	if (sampo_hists__new(sampo_session__machine(s), sym, &hopts, &h))
		goto out;
	{
		const struct sampo_tool tool = { .sample = on_sample };

		(void)sampo_session__process(s, &tool, h);
	}
	if (sampo_hists__resort(h))
		goto out;
	for (size_t i = 0; i < sampo_session__nr_events(s) && i < 64; i++) {
		const char *name = sampo_session__evsel_name(s, (int)i);

		sum += name ? strlen(name) : 0;
		sum += sampo_hists__nr_samples(h, (int)i) + sampo_hists__total_period(h, (int)i);
		if (devnull)
			(void)sampo_hists__fprintf(h, (int)i, devnull);
	}
	if (devnull)
		sampo_hists__fprintf_filters(h, devnull);
	sum += walk_stacks(h);
	sum += sampo_session__lost(s)->lost + sampo_reader__stats(r)->bytes_read;
	(void)sum;
out:
	sampo_hists__delete(h);
	sampo_session__close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;

	if (!init) {
		sampo_set_print(quiet);
		devnull = fopen("/dev/null", "w");
		if (!mkdtemp(empty_dir))
			abort();
		memfd_input__create(&input, "fuzz-report.data");
		init = true;
	}
	memfd_input__fill(&input, data, size);
	run(size ? data[size - 1] : 0);
	return 0;
}
