/* SPDX-License-Identifier: GPL-2.0 */
/* cmd-record.c - sampo record (placeholder until the command lands) */
#include "builtin.h"
#include "cli.h"

int cmd_record(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return cli_err(0, "the record command is not yet available");
}
