/* SPDX-License-Identifier: GPL-2.0 */
/* builtin.h - one entry point per sampo subcommand */
#ifndef SAMPO_BUILTIN_H
#define SAMPO_BUILTIN_H

#include <stdbool.h>
#include <stdio.h>

struct sampo_build_id;

int cmd_archive(int argc, const char **argv);
int cmd_buildid_cache(int argc, const char **argv);
int cmd_buildid_list(int argc, const char **argv);
int cmd_data(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_dump(int argc, const char **argv);
int cmd_flamegraph(int argc, const char **argv);
int cmd_header(int argc, const char **argv);
int cmd_inject(int argc, const char **argv);
int cmd_merge(int argc, const char **argv);
int cmd_pprof(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_script(int argc, const char **argv);

/*
 * header_print() - the header of perf.data @input to @out, as `sampo header
 * [-I]` prints it (cmd-header.c); report's and script's --header print it
 * before their own output. Errors are printed (cli_err()).
 */
int header_print(const char *input, bool full, FILE *out);

/*
 * buildid_list_each() - the DSOs of perf.data @input as `sampo buildid-list
 * [-H]` lists them (cmd-buildid-list.c), for buildid-cache -M and archive:
 * @fn is called for each (a zero-size @bid when none is known); a non-zero
 * return stops the walk and is returned. Errors are printed (cli_err()).
 */
typedef int (*buildid_list_fn)(void *arg, const char *name, const struct sampo_build_id *bid,
			       bool hit);
int buildid_list_each(const char *input, bool with_hits, buildid_list_fn fn, void *arg);

#endif
