// SPDX-License-Identifier: GPL-2.0
/*
 * symbolize - one "IP SYMBOL (DSO)" line per sample of a perf.data, in file
 * order, through reader + machine + symbolizer: the answers that
 * ../shared/tools/qemu-kernel/score.py scores, and a way to look at what the
 * symbolizer does without the report.
 *
 *   symbolize [-k VMLINUX] [--kallsyms FILE] [--symfs DIR] [--buildid-dir DIR]
 *             [--force] [--no-section-maps] [--info] perf.data
 *
 * Samples outside every map in kernel mode go to
 * sampo_symbolizer__find_unmapped(). --info prints, at the end, how each
 * kernel-side DSO with samples was placed (to stderr).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/machine.h>
#include <sampo/modsections.h>
#include <sampo/reader.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>

static const char *const placement_names[] = {
	"none", "file", "kallsyms", "section-map", "layout", "synthetic",
};

int main(int argc, char **argv)
{
	SAMPO_OPTS(sampo_symbolizer_opts, so);
	SAMPO_OPTS(sampo_reader_opts, ro);
	struct sampo_module_sections *ms = NULL;
	struct sampo_features *f = NULL;
	struct sampo_addr_location al = { 0 };
	struct sampo_symbolizer *s = NULL;
	struct sampo_dso *seen[512];
	size_t nr_seen = 0;
	struct sampo_machine *m;
	struct sampo_reader *r;
	struct sampo_event ev;
	const char *path = NULL;
	bool info = false, no_secmaps = false;
	int ret;

	for (int i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "-k") || !strcmp(argv[i], "--vmlinux")) && i + 1 < argc)
			so.vmlinux = argv[++i];
		else if (!strcmp(argv[i], "--kallsyms") && i + 1 < argc)
			so.kallsyms = argv[++i];
		else if (!strcmp(argv[i], "--symfs") && i + 1 < argc)
			so.symfs = argv[++i];
		else if (!strcmp(argv[i], "--buildid-dir") && i + 1 < argc)
			so.buildid_dir = argv[++i];
		else if (!strcmp(argv[i], "--force"))
			so.force = true;
		else if (!strcmp(argv[i], "--no-section-maps"))
			no_secmaps = true;
		else if (!strcmp(argv[i], "--info"))
			info = true;
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else {
			fprintf(stderr, "usage: symbolize [-k VMLINUX] [--kallsyms F] [--symfs DIR] "
					"[--buildid-dir DIR] [--force] [--no-section-maps] [--info] "
					"perf.data\n");
			return 129;
		}
	}
	if (!path)
		return 129;
	ret = sampo_reader__open(path, &ro, &r);
	if (ret) {
		fprintf(stderr, "symbolize: cannot open '%s' (%d)\n", path, ret);
		return 1;
	}
	m = sampo_machine__new();
	if (!m)
		return 1;
	if (!no_secmaps && sampo_module_sections__read(r, &ms) == 0)
		so.module_sections = ms;
	while ((ret = sampo_reader__next(r, &ev)) > 0) {
		const struct sampo_symbol *sym = NULL;
		const char *dso = "[unknown]";
		struct sampo_map *map;

		if (sampo_machine__process_event(m, &ev))
			break;
		if (ev.record->header.type != SAMPO_RECORD_SAMPLE)
			continue;
		if (!s) {
			(void)sampo_features__parse(r, &f, NULL);
			if (sampo_symbolizer__new(m, f, &so, &s))
				return 1;
		}
		if (sampo_machine__resolve(m, &ev.sample, &al))
			break;
		map = al.map;
		if (map) {
			struct sampo_dso *d = sampo_map__dso(map);

			sym = sampo_symbolizer__find(s, map, ev.sample.ip);
			dso = sampo_dso__long_name(d);
			if (info && nr_seen < 512 && sampo_dso__is_kernel(d)) {
				size_t j = 0;

				while (j < nr_seen && seen[j] != d)
					j++;
				if (j == nr_seen)
					seen[nr_seen++] = sampo_dso__get(d);
			}
		} else if (ev.sample.cpumode == SAMPO_CPUMODE_KERNEL) {
			const char *mod = NULL;

			sym = sampo_symbolizer__find_unmapped(s, ev.sample.ip, &mod);
		}
		printf("%" PRIx64 " %s (%s)\n", ev.sample.ip, sym ? sampo_symbol__name(sym) : "[unknown]",
		       dso);
	}
	for (size_t i = 0; i < nr_seen; i++) {
		struct sampo_symbolizer_dso_info di;

		if (!sampo_symbolizer__dso_info(s, seen[i], &di))
			fprintf(stderr, "%s: %s%s %s\n", sampo_dso__long_name(seen[i]),
				placement_names[di.placement], di.verified ? " verified" : "",
				di.path ? di.path : "");
		sampo_dso__put(seen[i]);
	}
	sampo_addr_location__exit(&al);
	sampo_symbolizer__delete(s);
	sampo_machine__delete(m);
	sampo_module_sections__delete(ms);
	sampo_features__delete(f);
	sampo_reader__close(r);
	return ret < 0 ? 1 : 0;
}
