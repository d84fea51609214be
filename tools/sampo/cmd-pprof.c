// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-pprof.c - `sampo pprof`: a perf.data file as a gzipped pprof profile
 * (profile.proto), for `go tool pprof`, Grafana Pyroscope, Parca and the
 * other tools that read it; `sampo report --format pprof` runs the same
 * conversion (pprof_convert()).
 *
 * Flow: a session (ordered, as perf report reads it) feeds the machine;
 * every SAMPLE goes to the pprof converter (pprof-perf.c), which resolves
 * its call chain with the session's symbolizer into locations of the
 * profile (pprof.c); at the end the header's features add the comments and
 * the profile is written. The sample types, labels and comments are those
 * of Google's perf_data_converter (docs/format-pprof.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/common.h>
#include <sampo/event.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/symbolizer.h>
#include <sampo/thread.h>
#include <sampo/unwind.h>

#include "builtin.h"
#include "cli.h"
#include "debuginfod-cli.h"
#include "options.h"
#include "pprof.h"
#include "unwind-cli.h"

static const char *const pprof_usage[] = {
	"sampo pprof [<options>]",
	"",
	"Convert the samples of a perf.data file into a gzipped pprof profile",
	"(profile.proto), with symbols, source lines and build-ids.",
	NULL,
};

/*
 * The library's warnings (a file with another build-id, no kernel symbols)
 * wait until the file has been read, as in report: an unreadable file gets
 * its one error line alone. The hook has no context argument, hence the
 * statics.
 */
static FILE *held;
static char *held_buf;
static size_t held_len;
static sampo_print_fn held_previous;

static int hold_warning(enum sampo_log_level level, const char *fmt, va_list ap)
{
	if (level > SAMPO_LOG_WARN || !held)
		return 0;
	return vfprintf(held, fmt, ap);
}

static void hold_warnings(void)
{
	held = open_memstream(&held_buf, &held_len);
	if (held)
		held_previous = sampo_set_print(hold_warning);
}

/* print (@show) or drop what was held, one "warning:" line per message line */
static void release_warnings(bool show)
{
	char *line, *save = NULL;

	if (!held)
		return;
	sampo_set_print(held_previous);
	fclose(held);
	held = NULL;
	for (line = strtok_r(held_buf, "\n", &save); show && line; line = strtok_r(NULL, "\n", &save))
		cli_warn("%s", line);
	free(held_buf);
	held_buf = NULL;
	held_len = 0;
}

struct convert_ctx {
	struct pprof_perf *pp;
	struct sampo_unwinder *unwinder; /* --call-graph dwarf files */
};

/* a DWARF sample as report sees it: its user stack unwound into the chain */
static int add_unwound(struct convert_ctx *ctx, struct sampo_session *session,
		       const struct sampo_event *ev)
{
	struct sampo_machine *m = sampo_session__machine(session);
	struct sampo_thread *thread;
	struct sampo_event copy = *ev;
	const uint64_t *chain;
	size_t nr;
	int err;

	thread = sampo_machine__findnew_thread(m, (int32_t)ev->sample.pid, (int32_t)ev->sample.tid);
	if (!thread)
		return -ENOMEM;
	err = sampo_unwinder__chain(ctx->unwinder, m, thread, &ev->sample, 0, &chain, &nr, NULL);
	sampo_thread__put(thread);
	if (err)
		return err;
	copy.sample.callchain = chain;
	copy.sample.callchain_nr = nr;
	copy.sample.sample_type |= SAMPO_SAMPLE_CALLCHAIN;
	return pprof_perf_add_sample(ctx->pp, &copy);
}

static int convert_sample(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct convert_ctx *ctx = arg;
	int err;

	if (ctx->unwinder && sampo_unwinder__wants(&ev->sample) &&
	    ev->sample.cpumode != SAMPO_CPUMODE_GUEST_KERNEL &&
	    ev->sample.cpumode != SAMPO_CPUMODE_GUEST_USER)
		err = add_unwound(ctx, session, ev);
	else
		err = pprof_perf_add_sample(ctx->pp, ev);
	if (err == -EINVAL) /* no symbolizer: the session says why */
		return cli_err(0, "%s", sampo_session__error(session));
	return err;
}

static int convert(const struct pprof_convert_opts *o)
{
	char errbuf[256] = "";
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true,
		   .features = SAMPO_SESSION_FEATURES_EACH, .guests = o->perf.guests,
		   .symbolizer = o->symbolizer, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	const struct sampo_tool tool = { .sample = convert_sample };
	const struct sampo_feature_error *ferr;
	struct sampo_session *session = NULL;
	struct convert_ctx ctx = { 0 };
	struct pprof *p = NULL;
	int err, nr_damaged;

	err = sampo_session__open(o->input, &opts, &session);
	if (err)
		return cli_err(0, "%s", errbuf);
	nr_damaged = sampo_session__damaged_features(session, &ferr);
	if (nr_damaged)
		cli_warn_damaged_features(o->input, nr_damaged, ferr);
	err = pprof_new(&p);
	if (!err)
		err = pprof_perf_new(p, session, &o->perf, &ctx.pp);
	if (err) {
		err = cli_err(err, "out of memory");
		goto out;
	}
	if (sampo_session__symbolizer(session)) {
		err = cli_unwinder_open(session, &ctx.unwinder);
		if (err)
			goto out;
	}
	err = sampo_session__process(session, &tool, &ctx);
	cli_unwinder_close(ctx.unwinder, o->input);
	ctx.unwinder = NULL;
	if (err > 0)
		goto out; /* a callback said why */
	if (err) {
		err = err == -ENOMEM ? cli_err(err, "out of memory") :
				       cli_err(0, "%s", sampo_session__error(session));
		goto out;
	}
	err = pprof_perf_finish(ctx.pp);
	if (err) {
		err = cli_err(err, "out of memory");
		goto out;
	}
	err = pprof_write(p, o->output);
	if (err)
		err = cli_err_write(err, o->output);
out:
	pprof_perf_delete(ctx.pp);
	pprof_delete(p);
	sampo_session__close(session);
	return err;
}

int pprof_convert(const struct pprof_convert_opts *o)
{
	int err;

	hold_warnings();
	err = convert(o);
	release_warnings(!err);
	return err;
}

int cmd_pprof(int argc, const char **argv)
{
	const char *input = NULL, *output = "profile.pb.gz", *labels = NULL;
	const char *vmlinux = NULL, *kallsyms = NULL, *symfs = NULL;
	bool force = false, no_lines = false, no_inline = false, guest = false;
	int max_stack = 0;
	const struct option opts[] = {
		OPT_STRING('i', "input", &input, "file",
			   "input file, '-' for stdin (default: perf.data, or stdin if a pipe)"),
		OPT_STRING('o', "output", &output, "file",
			   "the profile to write, '-' for stdout (default: profile.pb.gz)"),
		OPT_STRING(0, "labels", &labels, "label[,label...]",
			   "sample labels: pid, tid, comm, thread_comm, cpu, timestamp_ns, "
			   "execution_mode, all, none (default: none)"),
		OPT_BOOLEAN(0, "no-lines", &no_lines, "no source lines (function names only)"),
		OPT_BOOLEAN(0, "no-inline", &no_inline, "no inlined functions in the locations"),
		OPT_INTEGER(0, "max-stack", &max_stack, "n",
			    "use at most n callchain entries (default 127)"),
		OPT_GROUP("Symbols"),
		OPT_STRING('k', "vmlinux", &vmlinux, "file", "the kernel's vmlinux"),
		OPT_STRING(0, "kallsyms", &kallsyms, "file", "the kernel's kallsyms snapshot"),
		OPT_STRING(0, "symfs", &symfs, "dir", "look for files under this root too"),
		OPT_BOOLEAN('f', "force", &force,
			    "use files whose build-id differs, and other users' JIT perf maps"),
		OPT_DEBUGINFOD(),
		OPT_BOOLEAN(0, "guest", &guest, "guest samples too (dropped by default, as perf)"),
		OPT_END(),
	};
	struct pprof_convert_opts o = { 0 };
	SAMPO_OPTS(sampo_symbolizer_opts, sopts);

	argc = parse_options(argc, argv, opts, pprof_usage, 0);
	if (argc < 0)
		return argc;
	if (argc > 0)
		return usage_error(pprof_usage, opts, "unexpected argument '%s'", argv[0]);
	if (labels && pprof_labels_parse(labels, &o.perf.labels))
		return usage_error(pprof_usage, opts, "unknown label in '%s'", labels);
	if (max_stack < 0)
		return usage_error(pprof_usage, opts, "invalid --max-stack %d", max_stack);
	if (!*output)
		return usage_error(pprof_usage, opts, "empty --output");
	sopts.vmlinux = vmlinux;
	sopts.kallsyms = kallsyms;
	sopts.symfs = symfs;
	sopts.force = force;
	cli_debuginfod_apply(&sopts);
	o.input = input && *input ? input : cli_default_input();
	o.output = output;
	o.symbolizer = &sopts;
	o.perf.no_lines = no_lines;
	o.perf.no_inline = no_inline;
	o.perf.max_stack = (unsigned)max_stack;
	o.perf.guests = guest;
	return pprof_convert(&o);
}
