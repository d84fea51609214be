/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind-cli.h - the DWARF unwinder of report and script: made when the
 * file has `--call-graph dwarf` samples, and a warning at the end when some
 * of them could not be unwound (never silently).
 */
#ifndef SAMPO_TOOL_UNWIND_CLI_H
#define SAMPO_TOOL_UNWIND_CLI_H

#include <sampo/session.h>
#include <sampo/unwind.h>

/*
 * cli_unwinder_open() - *@ret: an unwinder for @session's DWARF samples, or
 * NULL when no event samples user registers and stacks. Return: 0, or a
 * negative error already printed.
 */
int cli_unwinder_open(struct sampo_session *session, struct sampo_unwinder **ret);

/* cli_unwinder_close() - warn about what could not be unwound, then free @u */
void cli_unwinder_close(struct sampo_unwinder *u, const char *input);

/*
 * cli_unwind_pool_open() - *@ret: a pool unwinding @session's DWARF samples
 * on every CPU, delivering to @deliver, or NULL when there are none.
 * Return: 0, or a negative error already printed.
 */
int cli_unwind_pool_open(struct sampo_session *session, sampo_unwind_deliver_fn deliver, void *ctx,
			 struct sampo_unwind_pool **ret);

/* cli_unwind_pool_close() - warn as cli_unwinder_close(), then free @pool */
void cli_unwind_pool_close(struct sampo_unwind_pool *pool, const char *input);

#endif
