// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-merge.c - sampo merge: many hosts' perf.data files, one profile
 *
 * Each input is read in a session of its own and symbolized with its own
 * kernel and build-ids (sampo_profile__read_files(), worker threads taking
 * the files in turn), its distinct stacks kept under the file's host label
 * with their frames joined by build-id. The merge is written as a perf.data
 * that perf reads, carrying the resolved frames
 * (sampo_profile__write_perf_data(); docs/sampo-merge.md says what perf
 * shows of it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/hist.h>
#include <sampo/profile.h>
#include <sampo/symbolizer.h>

#include "builtin.h"
#include "cli.h"
#include "debuginfod-cli.h"
#include "merge-pprof.h"
#include "options.h"
#include "report-hosts.h"

static const char *const merge_usage[] = {
	"sampo merge -o <out.data|out.pb.gz> [<options>] <file>...",
	"",
	"Merge perf.data files recorded on many machines into one profile, each",
	"symbolized with its own kernel and build-ids, samples labelled by host.",
	NULL,
};

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

int cmd_merge(int argc, const char **argv)
{
	const char *output = NULL, *vmlinux = NULL, *kallsyms = NULL, *symfs = NULL;
	int threads = 0, max_stack = 0;
	bool force = false, pprof;
	const struct option opts[] = {
		OPT_STRING('o', "output", &output, "file",
			   "the merged profile: a perf.data file, or pprof's if it ends in .pb.gz"),
		OPT_INTEGER('j', "jobs", &threads, "n",
			    "files read at once (default: one per CPU)"),
		OPT_INTEGER(0, "max-stack", &max_stack, "n",
			    "keep at most n callchain entries (default 127)"),
		OPT_GROUP("Symbols (checked against each file's build-ids)"),
		OPT_STRING('k', "vmlinux", &vmlinux, "file", "a kernel's vmlinux"),
		OPT_STRING(0, "kallsyms", &kallsyms, "file", "a kernel's kallsyms snapshot"),
		OPT_STRING(0, "symfs", &symfs, "dir", "look for files under this root too"),
		OPT_BOOLEAN('f', "force", &force, "use files whose build-id differs"),
		OPT_DEBUGINFOD(),
		OPT_END(),
	};
	char errbuf[512] = "";
	SAMPO_OPTS(sampo_symbolizer_opts, sopts);
	SAMPO_OPTS(sampo_hists_opts, hopts, .callchain_min_percent = -1);
	SAMPO_OPTS(sampo_profile_opts, popts, .hists = &hopts, .symbolizer = &sopts, .stacks = true,
		   .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	struct sampo_profile *p = NULL;
	int err;

	argc = parse_options(argc, argv, opts, merge_usage, 0);
	if (argc < 0)
		return argc;
	if (!output)
		return usage_error(merge_usage, opts, "no output file (-o)");
	if (argc < 1)
		return usage_error(merge_usage, opts, "no input files");
	if (threads < 0)
		return usage_error(merge_usage, opts, "invalid --jobs %d", threads);
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "-"))
			return usage_error(merge_usage, opts, "a pipe cannot be merged: name files");
	pprof = has_suffix(output, ".pb.gz");
	sopts.vmlinux = vmlinux;
	sopts.kallsyms = kallsyms;
	sopts.symfs = symfs;
	sopts.force = force;
	cli_debuginfod_apply(&sopts);
	hopts.max_stack = max_stack > 0 ? (unsigned int)max_stack : 0;
	popts.nr_threads = (unsigned int)threads;

	err = sampo_profile__new(&p);
	if (err)
		return cli_err(err, "out of memory");
	hosts_warnings_hold();
	err = sampo_profile__read_files(p, argv, (size_t)argc, &popts);
	hosts_warnings_release(!err);
	if (err) {
		err = cli_err(err, "%s", errbuf[0] ? errbuf : "cannot read the inputs");
		goto out;
	}
	if (pprof) {
		err = merge_write_pprof(p, output);
		if (err)
			err = cli_err_write(err, output);
	} else {
		err = sampo_profile__write_perf_data(p, output, errbuf, sizeof(errbuf));
		if (err == -ELOOP || err == -EEXIST)
			err = cli_err_create(err, output);
		else if (err)
			err = cli_err(0, "%s", errbuf); /* it has the error's text */
	}
out:
	sampo_profile__delete(p);
	return err;
}
