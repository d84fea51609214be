/* SPDX-License-Identifier: GPL-2.0 */
/*
 * main.c - the sampo front end: global options, the commands[] table and
 * perf-compatible aliases
 *
 *	sampo [--version] [--help] [-v|--verbose] [--no-pager] <command> [<args>]
 *
 * Flow: parse the global options that come before the command name, rewrite
 * perf-style aliases ("sampo report -D" is "sampo dump", "sampo report
 * --header-only" is "sampo header"), look the command up in commands[], set
 * the name used in messages (cli_set_cmd()), run it, and turn its return
 * value into the exit status with cli_exit_code(): 0 ok, 1 failure, 129
 * usage error. Only this file picks the exit status. The reading commands
 * (CMD_USE_PAGER) page their output on a terminal (pager.c).
 *
 * Adding a command: write cmd-<name>.c, declare cmd_<name>() in builtin.h,
 * add a row to commands[] below (keep it sorted by name: `sampo --help`
 * lists the rows in table order) and the file to tools/sampo/meson.build.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/common.h>

#include "builtin.h"
#include "cli.h"
#include "options.h"
#include "pager.h"
#include "perf-options.h"

#ifndef SAMPO_VERSION
#define SAMPO_VERSION "unknown"
#endif

/* flags of a command: the setup main() does for it */
enum cmd_flags {
	CMD_HIDDEN = 1 << 0,	/* not listed by --help */
	CMD_USE_PAGER = 1 << 1, /* page the output on a terminal (pager.c) */
};

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
	int flags;
	const char *help; /* one line for `sampo --help` */
};

static int cmd_help(int argc, const char **argv);

/* sorted by name */
static const struct cmd_struct commands[] = {
	{ "archive", cmd_archive, 0,
	  "pack the symbols a perf.data file needs into one file, or unpack one (perf archive)" },
	{ "buildid-cache", cmd_buildid_cache, 0,
	  "manage the build-id cache ~/.debug (perf buildid-cache)" },
	{ "buildid-list", cmd_buildid_list, CMD_USE_PAGER,
	  "list the build-ids in a perf.data file" },
	{ "data", cmd_data, 0, "convert a perf.data file to JSON (perf data convert)" },
	{ "diff", cmd_diff, CMD_USE_PAGER, "compare two or more perf.data files (perf diff)" },
	{ "dump", cmd_dump, CMD_USE_PAGER,
	  "print every record of a perf.data file (perf report -D)" },
	{ "flamegraph", cmd_flamegraph, 0,
	  "draw a perf.data file as a flame graph (HTML or SVG), or two as a differential one" },
	{ "header", cmd_header, CMD_USE_PAGER,
	  "print the header of a perf.data file (perf report --header-only)" },
	{ "help", cmd_help, 0, "show the help of sampo or of a command" },
	{ "inject", cmd_inject, 0,
	  "write a perf.data file again with its symbols embedded (perf inject)" },
	{ "merge", cmd_merge, 0,
	  "merge the perf.data files of many hosts into one profile, each with its own symbols" },
	{ "pprof", cmd_pprof, 0, "convert perf.data into a gzipped pprof profile (profile.proto)" },
	{ "record", cmd_record, 0, "run a command and record its profile into perf.data" },
	{ "report", cmd_report, CMD_USE_PAGER,
	  "read perf.data and show the profile (perf report --stdio)" },
	{ "script", cmd_script, CMD_USE_PAGER,
	  "print the samples of a perf.data file one per line" },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char sampo_usage_line[] =
	"usage: sampo [--version] [-h | --help] [-v | --verbose] [--no-pager] <command> [<args>]\n";

static const struct cmd_struct *find_cmd(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	}
	return NULL;
}

static void print_main_usage(FILE *fp)
{
	fputs(sampo_usage_line, fp);
	fputs("\nsampo is a perf-compatible sampling profiler toolkit.\n\n"
	      "commands:\n",
	      fp);
	int width = 0;

	/* the names' column as wide as the longest (buildid-cache), as git aligns them */
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		int len = (int)strlen(commands[i].name);

		if (!(commands[i].flags & CMD_HIDDEN) && len > width)
			width = len;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (commands[i].flags & CMD_HIDDEN)
			continue;
		fprintf(fp, "   %-*s  %s\n", width, commands[i].name, commands[i].help);
	}
	fputs("\naliases (perf compatible):\n"
	      "   report -D, report --dump-raw-trace      same as 'sampo dump'\n"
	      "   report --header-only                    same as 'sampo header'\n"
	      "   report --stats                          same as 'sampo dump --stats'\n"
	      "\nglobal options:\n"
	      "   -h, --help       show this help\n"
	      "   --version        print the version\n"
	      "   -v, --verbose    print more library messages (repeat for debug)\n"
	      "   --list-cmds      print the command names, one per line\n"
	      "   --no-pager       do not page the output on a terminal ($SAMPO_PAGER, $PAGER)\n"
	      "\nSee 'sampo help <command>' or 'sampo <command> -h' for a command's options,\n"
	      "'man sampo-<command>' for its manual page and 'man sampo' for this one.\n",
	      fp);
}

static bool use_pager = true; /* --no-pager clears it */

static int run_cmd(const struct cmd_struct *cmd, int argc, const char **argv)
{
	cli_set_cmd(cmd->name);
	if (use_pager && (cmd->flags & CMD_USE_PAGER))
		(void)pager_start();
	return cmd->fn(argc, argv);
}

/* sampo help [<command>] */
static int cmd_help(int argc, const char **argv)
{
	const struct cmd_struct *cmd;
	const char *help_argv[] = { NULL, "--help", NULL };

	if (argc < 2) {
		print_main_usage(stdout);
		return 0;
	}
	if (argc > 2) {
		fprintf(stderr, "sampo help: too many arguments\n"
				"usage: sampo help [<command>]\n");
		return PARSE_OPT_USAGE;
	}
	cmd = find_cmd(argv[1]);
	if (!cmd) {
		fprintf(stderr, "sampo help: '%s' is not a sampo command. See 'sampo --help'.\n",
			argv[1]);
		return PARSE_OPT_USAGE;
	}
	if (cmd->fn == cmd_help) {
		print_main_usage(stdout);
		return 0;
	}
	help_argv[0] = cmd->name;
	return run_cmd(cmd, 2, help_argv);
}



/*
 * perf compatibility: "sampo report -D ..." runs dump and "sampo report
 * --header-only ..." runs header, without the alias flag. Other arguments pass
 * through unchanged. --header-only wins over -D, as in perf. Returns the
 * command to run instead of report (argv rewritten in place), or NULL.
 */
/*
 * Which alias flag @a is: 'h' (--header-only; --header is report's own), 'D' (-D,
 * --dump-raw-trace), 'S' (--stats: dump's, which keeps the flag) or 0. Long ones
 * may be abbreviated as far as perf report takes them ("--dump-raw", "--header-o";
 * "--d" is ambiguous there).
 */
static int report_alias_flag(const char *a)
{
	const char *name;
	bool no = false;

	if (!strcmp(a, "-D"))
		return 'D';
	if (strncmp(a, "--", 2) || strchr(a, '='))
		return 0;
	name = perf_option_resolve("report", a + 2, strlen(a + 2), &no);
	if (!name || no)
		return 0;
	if (!strcmp(name, "header-only"))
		return 'h';
	if (!strcmp(name, "dump-raw-trace"))
		return 'D';
	if (!strcmp(name, "stats"))
		return 'S';
	return 0;
}

static const struct cmd_struct *report_alias(int *argc, const char **argv)
{
	const struct cmd_struct *target = NULL;
	int i, out;

	for (i = 1; i < *argc && strcmp(argv[i], "--"); i++) {
		int flag = report_alias_flag(argv[i]);

		if (flag == 'h')
			target = find_cmd("header");
		else if (!target && (flag == 'D' || flag == 'S'))
			target = find_cmd("dump");
	}
	if (!target)
		return NULL;

	for (i = 1, out = 1; i < *argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (report_alias_flag(a) == 'S' && target == find_cmd("dump"))
			a = "--stats"; /* dump's own option, whatever prefix perf took */
		else if (report_alias_flag(a))
			continue;
		argv[out++] = a;
	}
	argv[0] = target->name;
	argv[out] = NULL;
	*argc = out;
	return target;
}

static int verbose_print(enum sampo_log_level level, const char *fmt, va_list ap)
{
	/* -v shows info messages, -vv debug messages too; warnings always */
	if ((int)level > cli_verbose())
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/*
 * Check that stdout really reached its destination, as git does: a full
 * disk must not look like success. Write errors on pipes and sockets are
 * ignored: the reader went away ("sampo dump | head"), which is not an error.
 */
static int check_stdout(void)
{
	struct stat st;

	if (fstat(fileno(stdout), &st))
		return 0;
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		return 0;
	if (fflush(stdout)) {
		fprintf(stderr, "sampo: write failure on standard output: %s\n", strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	if (ferror(stdout)) {
		fprintf(stderr, "sampo: unknown write failure on standard output\n");
		return CLI_EXIT_FAILURE;
	}
	return 0;
}

int main(int argc, const char **argv)
{
	const struct cmd_struct *cmd;
	int verbose = 0;
	int status;

	/* EPIPE instead of death by SIGPIPE: see cli.h */
	(void)signal(SIGPIPE, SIG_IGN);

	argv++;
	argc--;
	while (argc > 0 && argv[0][0] == '-') {
		const char *opt = argv[0];

		if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
			/* "sampo --help dump" is "sampo help dump", as in git */
			argv[0] = "help";
			cli_set_cmd("help");
			status = cli_exit_code(cmd_help(argc, argv));
			return status ? status : check_stdout();
		} else if (!strcmp(opt, "--version")) {
			printf("sampo version %s\n", SAMPO_VERSION);
			return check_stdout();
		} else if (!strcmp(opt, "--list-cmds")) {
			for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
				if (!(commands[i].flags & CMD_HIDDEN))
					printf("%s\n", commands[i].name);
			}
			return check_stdout();
		} else if (!strcmp(opt, "-v") || !strcmp(opt, "--verbose")) {
			verbose++;
		} else if (!strcmp(opt, "--no-pager")) {
			use_pager = false;
		} else if (opt[1] == 'v' && strspn(opt + 1, "v") == strlen(opt + 1)) {
			verbose += (int)strlen(opt + 1);
		} else {
			fprintf(stderr, "sampo: unknown option '%s'\n", opt);
			fputs(sampo_usage_line, stderr);
			return CLI_EXIT_USAGE;
		}
		argv++;
		argc--;
	}
	if (argc == 0) {
		fputs(sampo_usage_line, stderr);
		fputs("See 'sampo --help' for the list of commands.\n", stderr);
		return CLI_EXIT_USAGE;
	}

	cli_set_verbose(verbose);
	if (verbose)
		(void)sampo_set_print(verbose_print);

	cmd = NULL;
	if (!strcmp(argv[0], "report"))
		cmd = report_alias(&argc, argv);
	if (!cmd)
		cmd = find_cmd(argv[0]);
	if (!cmd) {
		if (perf_has_command(argv[0]))
			fprintf(stderr,
				"sampo: perf's '%s' command is not supported by sampo (yet). "
				"See 'sampo --help'.\n",
				argv[0]);
		else
			fprintf(stderr, "sampo: '%s' is not a sampo command. See 'sampo --help'.\n",
				argv[0]);
		return CLI_EXIT_USAGE;
	}

	status = cli_exit_code(run_cmd(cmd, argc, argv));
	if (check_stdout() && status == 0)
		status = CLI_EXIT_FAILURE;
	pager_wait();
	return status;
}
