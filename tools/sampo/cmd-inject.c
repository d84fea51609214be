// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-inject.c - `sampo inject`: write a perf.data file again with what it
 * lacks added (perf inject's -i/-o). Today: --embed-symbols, the symbols of
 * every DSO, the kernel and the modules its samples hit, so that the
 * profile reads the same on a machine that has none of the files
 * (include/sampo/inject.h, docs/format-embedded-symbols.md). Without an
 * option it copies the file.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sampo/buildid.h>
#include <sampo/common.h>
#include <sampo/embedded-symbols.h>
#include <sampo/inject.h>
#include <sampo/reader.h>
#include <sampo/symbolizer.h>

#include "builtin.h"
#include "cli.h"
#include "options.h"

static const char *const inject_usage[] = {
	"sampo inject [<options>]",
	"",
	"Write a perf.data file again with more in it, as 'perf inject' does.",
	NULL,
};

/* -v: what the section holds, read back from the output, one line per table */
static void list_tables(const char *output)
{
	static const char *const kinds[] = { "?", "user", "kernel", "module", "kallsyms" };
	struct sampo_embedded_symbols *es = NULL;
	struct sampo_embedded_table_info info;
	struct sampo_reader *r;
	char hex[SAMPO_BUILD_ID_HEX_SIZE];

	if (sampo_reader__open(output, NULL, &r))
		return;
	if (!sampo_embedded_symbols__read(r, &es, NULL, 0)) {
		for (size_t i = 0; !sampo_embedded_symbols__table(es, i, &info); i++) {
			if (sampo_build_id__to_hex(&info.bid, hex, sizeof(hex)) < 0)
				strcpy(hex, "?");
			fprintf(stderr, "  %-8s %s %6zu symbols  %s\n",
				kinds[info.kind > 0 && info.kind < 5 ? info.kind : 0], hex,
				info.nr_symbols, info.name);
		}
	}
	sampo_embedded_symbols__delete(es);
	sampo_reader__close(r);
}

int cmd_inject(int argc, const char **argv)
{
	const char *input = NULL, *output = NULL, *vmlinux = NULL, *kallsyms = NULL,
		   *symfs = NULL, *buildid_dir = NULL;
	bool embed = false, force = false;
	const struct option opts[] = {
		OPT_STRING('i', "input", &input, "file", "input file (default: perf.data)"),
		OPT_STRING('o', "output", &output, "file",
			   "output file ('-': standard output); may be the input"),
		OPT_BOOLEAN(0, "embed-symbols", &embed,
			    "embed the symbols the samples hit (user DSOs, kernel, modules), "
			    "keyed by build-id, so the profile reads the same without the files"),
		OPT_STRING('k', "vmlinux", &vmlinux, "file", "the kernel's vmlinux"),
		OPT_STRING(0, "kallsyms", &kallsyms, "file", "the kernel's kallsyms snapshot"),
		OPT_STRING(0, "symfs", &symfs, "dir", "look for files under this root too"),
		OPT_STRING(0, "buildid-dir", &buildid_dir, "dir",
			   "the build-id cache (default: $PERF_BUILDID_DIR, else ~/.debug)"),
		OPT_BOOLEAN('f', "force", &force,
			    "write to standard output even when it is a terminal"),
		OPT_END(),
	};
	struct sampo_inject_stats stats = { 0 };
	char errbuf[1024] = "";
	int err;

	argc = parse_options(argc, argv, opts, inject_usage, 0);
	if (argc < 0)
		return argc;
	if (argc > 0)
		return usage_error(inject_usage, opts, "unexpected argument '%s'", argv[0]);
	if (!input || !*input)
		input = "perf.data";
	if (!output || !*output)
		return usage_error(inject_usage, opts,
				   "-o FILE is needed (perf inject's default, standard output, is "
				   "'-o -')");
	if (!strcmp(input, "-"))
		return usage_error(inject_usage, opts,
				   "inject reads a perf.data file, not a pipe: give -i FILE");
	if (!strcmp(output, "-") && isatty(STDOUT_FILENO) && !force)
		return usage_error(inject_usage, opts,
				   "standard output is a terminal: redirect it, or use -f");

	SAMPO_OPTS(sampo_symbolizer_opts, sopts, .vmlinux = vmlinux, .kallsyms = kallsyms,
		   .symfs = symfs, .buildid_dir = buildid_dir);
	SAMPO_OPTS(sampo_inject_opts, iopts, .embed_symbols = embed, .symbolizer = &sopts,
		   .stats = &stats, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	err = sampo_inject__file(input, output, &iopts);
	if (err) {
		if (errbuf[0]) {
			(void)cli_err(0, "%s", errbuf);
			return err;
		}
		return cli_err(err, "cannot inject '%s' into '%s'", input, output);
	}
	if (embed && cli_verbose() >= 0 && strcmp(output, "-"))
		fprintf(stderr,
			"embedded %zu symbols of %zu DSOs (%zu bytes, %llu samples) into '%s'\n",
			stats.nr_symbols, stats.nr_tables, stats.section_bytes,
			(unsigned long long)stats.nr_samples, output);
	if (embed && cli_verbose() > 0 && strcmp(output, "-"))
		list_tables(output);
	return 0;
}
