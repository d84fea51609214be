// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c - a perf.data file read into histograms with call chains, for
 * the commands that draw whole stacks.
 *
 * The session and hists are set up as `sampo report --no-children -g
 * callee` would (time-ordered records, the session's build-id matched
 * symbolizer), so a drawn frame has the samples and period that report
 * gives its symbol; the drawing commands then walk the distinct stacks.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/hist.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/symbolizer.h>

#include "cli.h"
#include "debuginfod-cli.h"
#include "profile.h"
#include "unwind-cli.h"

/* the library's warnings as the CLI's own: "sampo <cmd>: warning: ..." */
static int profile_warn(enum sampo_log_level level, const char *fmt, va_list ap)
{
	char *msg = NULL;
	int n;

	if (level > SAMPO_LOG_WARN)
		return 0;
	n = vasprintf(&msg, fmt, ap);
	if (n < 0)
		return n;
	while (n > 0 && msg[n - 1] == '\n')
		msg[--n] = '\0';
	cli_warn("%s", msg);
	free(msg);
	return n;
}

static int profile_sample(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct profile *p = arg;

	(void)session;
	return sampo_hists__add_sample(p->hists, ev->attr_idx, &ev->sample);
}

int profile_load(struct profile *p, const char *input, const struct profile_sym_opts *sym)
{
	char errbuf[256] = "";
	SAMPO_OPTS(sampo_symbolizer_opts, sopts, .symfs = sym->symfs, .vmlinux = sym->vmlinux,
		   .kallsyms = sym->kallsyms, .force = sym->force);
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true, .threaded = true,
		   .features = SAMPO_SESSION_FEATURES_EACH, .symbolizer = &sopts,
		   .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	/* every branch kept: a flame graph hides what is too narrow itself */
	SAMPO_OPTS(sampo_hists_opts, hopts, .callchain = true, .callchain_min_percent = 0,
		   .inline_frames = sym->inlines);
	cli_debuginfod_apply(&sopts);
	const struct sampo_tool tool = { .sample = profile_sample };
	struct sampo_symbolizer *symbolizer;
	struct sampo_unwinder *unwinder;
	const struct sampo_feature_error *ferr;
	int err, nr_damaged;

	memset(p, 0, sizeof(*p));
	p->input = input;
	sampo_set_print(profile_warn);
	err = sampo_session__open(input, &opts, &p->session);
	if (err)
		return cli_err(0, "%s", errbuf);
	/* a damaged feature is left out with one warning; the others (build-ids) are read */
	nr_damaged = sampo_session__damaged_features(p->session, &ferr);
	if (nr_damaged)
		cli_warn_damaged_features(input, nr_damaged, ferr);
	symbolizer = sampo_session__symbolizer(p->session);
	if (!symbolizer)
		return cli_err(0, "%s", sampo_session__error(p->session));
	err = sampo_hists__new(sampo_session__machine(p->session), symbolizer, &hopts, &p->hists);
	if (err)
		return cli_err(err, "cannot set up the histograms");
	/* --call-graph dwarf files: their user stacks unwound as report does */
	err = cli_unwinder_open(p->session, &unwinder);
	if (err)
		return err;
	sampo_hists__set_unwinder(p->hists, unwinder);
	err = sampo_session__process(p->session, &tool, p);
	sampo_hists__set_unwinder(p->hists, NULL);
	cli_unwinder_close(unwinder, input);
	if (err)
		return err == -ENOMEM ? cli_err(err, "out of memory") :
					cli_err(0, "%s", sampo_session__error(p->session));
	if (sampo_hists__resort(p->hists))
		return cli_err(-ENOMEM, "out of memory");
	return 0;
}

void profile_release(struct profile *p)
{
	sampo_hists__delete(p->hists);
	sampo_session__close(p->session);
	p->hists = NULL;
	p->session = NULL;
}

int profile_nr_events(const struct profile *p)
{
	return (int)sampo_reader__nr_attrs(sampo_session__reader(p->session));
}

const char *profile_event_name(const struct profile *p, int evsel)
{
	return sampo_session__evsel_name(p->session, evsel);
}

const char *profile_frame_label(const struct profile *p, unsigned int frame, char *buf,
				size_t buf_sz)
{
	const char *name = sampo_hists__frame_name(p->hists, frame);
	const char *dso;

	if (name)
		return name;
	dso = sampo_hists__frame_dso_name(p->hists, frame);
	if (!dso)
		return "[unknown]";
	/* a module's short name is "[name]" already */
	if (dso[0] == '[')
		return dso;
	snprintf(buf, buf_sz, "[%s]", dso);
	return buf;
}
