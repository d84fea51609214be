// SPDX-License-Identifier: GPL-2.0
/*
 * debuginfod-cli.c - --debuginfod[=URLS], --no-debuginfod and
 * --debuginfod-timeout for the reading commands, and what a user sees of a
 * fetch: one notice line on stderr per file fetched, and a progress bar
 * while it downloads when stderr is a terminal (progress.c).
 *
 * libdebuginfod reads its servers from $DEBUGINFOD_URLS only, so
 * --debuginfod=URLS sets that variable, while the options are parsed and
 * before any thread exists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/symbolizer.h>

#include "cli.h"
#include "debuginfod-cli.h"
#include "progress.h"

int cli_debuginfod_timeout_s;
static bool debuginfod_off;

/* the fetch under way (the library never runs two at once) */
static struct progress bar;
static bool bar_on;
static char bar_title[128];

int cli_debuginfod_opt(const struct option *opt, const char *arg, bool unset)
{
	const char *urls;

	(void)opt;
	debuginfod_off = unset;
	if (unset)
		return 0;
	if (arg) {
		if (!arg[strspn(arg, " \t")]) {
			parse_opt_fail("--debuginfod=: no server named");
			return -1;
		}
		return setenv("DEBUGINFOD_URLS", arg, 1) ? -1 : 0;
	}
	urls = getenv("DEBUGINFOD_URLS");
	if (!urls || !urls[strspn(urls, " \t")]) {
		parse_opt_fail("--debuginfod: no servers: name them (--debuginfod=URLS) or set "
			       "DEBUGINFOD_URLS");
		return -1;
	}
	return 0;
}

static void on_fetch(void *ctx, const struct sampo_debuginfod_event *ev)
{
	const char *cmd = cli_cmd();
	const char *server;

	(void)ctx;
	switch (ev->stage) {
	case SAMPO_DEBUGINFOD_PROGRESS:
		if (!bar_on && ev->total > 0) {
			snprintf(bar_title, sizeof(bar_title), "debuginfod: %s", ev->name);
			progress_init(&bar, bar_title, (uint64_t)ev->total);
			bar_on = true;
		}
		if (bar_on && ev->done >= 0) {
			/* progress_update() thins calls meant per record; these come a few a second */
			bar.calls |= 1023;
			progress_update(&bar, (uint64_t)ev->done);
		}
		return;
	case SAMPO_DEBUGINFOD_DONE:
		if (bar_on)
			progress_done(&bar);
		bar_on = false;
		/* the server, not the request's path under it */
		server = ev->url ? strstr(ev->url, "/buildid/") : NULL;
		fprintf(stderr, "sampo%s%s: debuginfod: fetched the %s of '%s'%s%.*s\n",
			cmd ? " " : "", cmd ? cmd : "", ev->what, ev->name, ev->url ? " from " : "",
			ev->url ? (int)(server ? (size_t)(server - ev->url) : strlen(ev->url)) : 0,
			ev->url ? ev->url : "");
		return;
	default:
		if (bar_on)
			progress_done(&bar);
		bar_on = false;
		return;
	}
}

void cli_debuginfod_apply(struct sampo_symbolizer_opts *o)
{
	o->no_debuginfod = debuginfod_off;
	o->debuginfod_timeout_ms = (unsigned int)cli_debuginfod_timeout_s * 1000;
	o->debuginfod_fn = on_fetch;
	o->debuginfod_ctx = NULL;
}
