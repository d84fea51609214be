// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-machine.c - libFuzzer entry point for the machine state and the
 * histograms: a perf.data image read in time order, every record fed to the
 * machine (guests on when the input's last byte is odd, so both the host-only
 * and the per-guest paths run), every sample resolved and added to
 * children-mode histograms with call graphs, which are then sorted and
 * printed to /dev/null. No symbolizer: hostile paths in MMAP records must not
 * make the fuzzer open files.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <sampo/event.h>
#include <sampo/hist.h>
#include <sampo/machine.h>
#include <sampo/reader.h>

static FILE *devnull;

static void run(const uint8_t *data, size_t size)
{
	SAMPO_OPTS(sampo_reader_opts, ro, .ordered = true);
	SAMPO_OPTS(sampo_hists_opts, ho, .children = true, .callchain = true);
	struct sampo_addr_location al = { 0 };
	struct sampo_hists *h = NULL;
	struct sampo_machine *m;
	struct sampo_reader *r;
	struct sampo_event ev;
	int max_attr = -1;

	if (sampo_reader__open_mem(data, size, "fuzz", &ro, &r))
		return;
	m = sampo_machine__new();
	if (!m)
		goto out;
	if (size && (data[size - 1] & 1))
		sampo_machine__enable_guests(m);
	if (sampo_hists__new(m, NULL, &ho, &h))
		goto out;
	while (sampo_reader__next(r, &ev) > 0) {
		if (ev.record->header.type != SAMPO_RECORD_SAMPLE) {
			if (sampo_machine__process_event(m, &ev))
				break;
			continue;
		}
		if (ev.attr_idx < 0 || ev.attr_idx > 64)
			continue;
		if (sampo_machine__resolve(m, &ev.sample, &al))
			break;
		if (sampo_hists__add_sample(h, ev.attr_idx, &ev.sample))
			break;
		if (ev.attr_idx > max_attr)
			max_attr = ev.attr_idx;
	}
	sampo_addr_location__exit(&al);
	if (!sampo_hists__resort(h) && devnull) {
		for (int i = 0; i <= max_attr; i++)
			(void)sampo_hists__fprintf(h, i, devnull);
	}
out:
	sampo_hists__delete(h);
	sampo_machine__delete(m);
	sampo_reader__close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;

	if (!init) {
		sampo_set_print(NULL); /* silence the library */
		devnull = fopen("/dev/null", "w");
		init = true;
	}
	run(data, size);
	return 0;
}
