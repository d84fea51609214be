/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debuginfod-cli.h - the debuginfod options of the reading commands
 * (report, script, ...): --debuginfod[=URLS], --no-debuginfod and
 * --debuginfod-timeout SECONDS, and the notice and progress bar of each fetch.
 *
 *	struct option opts[] = { ..., OPT_DEBUGINFOD(), OPT_END() };
 *	SAMPO_OPTS(sampo_symbolizer_opts, sopts, ...);
 *	cli_debuginfod_apply(&sopts);
 *
 * The options are the process's (one command per run): they live in this
 * file, not in each command's context.
 */
#ifndef SAMPO_CLI_DEBUGINFOD_H
#define SAMPO_CLI_DEBUGINFOD_H

#include "options.h"

struct sampo_symbolizer_opts;

extern int cli_debuginfod_timeout_s;
int cli_debuginfod_opt(const struct option *opt, const char *arg, bool unset);

#define OPT_DEBUGINFOD()                                                                         \
	OPT_CALLBACK_OPTARG(0, "debuginfod", NULL, "urls",                                       \
			    "fetch missing files by build-id from these debuginfod servers "     \
			    "(default: $DEBUGINFOD_URLS, which turns it on by itself)",           \
			    cli_debuginfod_opt),                                                 \
		OPT_INTEGER_RANGE(0, "debuginfod-timeout", &cli_debuginfod_timeout_s, "seconds", \
				  "time allowed to each debuginfod request (default 5)", 1, 3600)

/* cli_debuginfod_apply() - set @o's debuginfod fields from the options */
void cli_debuginfod_apply(struct sampo_symbolizer_opts *o);

#endif
