// SPDX-License-Identifier: GPL-2.0
/* cmd-archive.c - placeholder */
#include <errno.h>

#include "builtin.h"
#include "cli.h"

int cmd_archive(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return cli_err(-ENOSYS, "not yet");
}
