/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report-tasks.h - sampo report --tasks and --mmaps: the recorded machine's
 * threads as perf's process tree, each under its parent, with its process's
 * maps under it for --mmaps.
 */
#ifndef SAMPO_CLI_REPORT_TASKS_H
#define SAMPO_CLI_REPORT_TASKS_H

#include <stdbool.h>

/*
 * report_tasks() - read @input ("-": stdin) and print its process tree on
 * stdout (@mmaps: with the maps). Return: 0, -EPIPE, or 1 once it has said
 * what went wrong.
 */
int report_tasks(const char *input, bool mmaps);

#endif
