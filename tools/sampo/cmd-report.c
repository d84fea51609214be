/* SPDX-License-Identifier: GPL-2.0 */
/* cmd-report.c - sampo report (placeholder until the command lands) */
#include "builtin.h"
#include "cli.h"

int cmd_report(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return cli_err(0, "the report command is not yet available");
}
