/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pager.h - long output on a terminal through a pager, as git and perf do
 *
 * main() calls pager_start() before running a reading command (report,
 * script, dump, header, buildid-list) unless --no-pager was given, and
 * pager_wait() before it exits. Standard error stays on the terminal, so
 * errors and warnings are never lost in the pager.
 */
#ifndef SAMPO_PAGER_H
#define SAMPO_PAGER_H

#include <stdbool.h>

/*
 * pager_program() - the pager to run: $SAMPO_PAGER, else $PAGER, else
 * "less -FRSX"; NULL when that is empty or "cat" (no pager)
 */
const char *pager_program(void);

/*
 * pager_start() - when standard output is a terminal and a pager is set,
 * start it and make standard output the pipe to it. Sets LESS=FRX and LV=-c
 * when unset, as git does. Return: true when a pager runs.
 */
bool pager_start(void);

/* pager_running() - whether standard output goes to a pager started by pager_start() */
bool pager_running(void);

/*
 * pager_wait() - close standard output and wait for the pager to exit (the
 * user's prompt comes back after the pager, not under it); a no-op without
 * a pager, and after the first call
 */
void pager_wait(void);

#endif /* SAMPO_PAGER_H */
