/* SPDX-License-Identifier: GPL-2.0 */
/* builtin.h - one entry point per sampo subcommand */
#ifndef SAMPO_BUILTIN_H
#define SAMPO_BUILTIN_H

int cmd_buildid_list(int argc, const char **argv);
int cmd_data(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_dump(int argc, const char **argv);
int cmd_flamegraph(int argc, const char **argv);
int cmd_header(int argc, const char **argv);
int cmd_merge(int argc, const char **argv);
int cmd_pprof(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_script(int argc, const char **argv);

#endif
