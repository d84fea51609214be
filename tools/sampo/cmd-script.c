/* SPDX-License-Identifier: GPL-2.0 */
/* cmd-script.c - sampo script (placeholder until the command lands) */
#include "builtin.h"
#include "cli.h"

int cmd_script(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return cli_err(0, "the script command is not yet available");
}
