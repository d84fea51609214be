/* SPDX-License-Identifier: GPL-2.0 */
/* cmd-buildid-list.c - sampo buildid-list (placeholder until the command lands) */
#include "builtin.h"
#include "cli.h"

int cmd_buildid_list(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return cli_err(0, "the buildid-list command is not yet available");
}
