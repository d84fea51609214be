/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h - table-driven option parsing for sampo subcommands
 *
 * In the spirit of git's parse-options and perf's subcmd: a command describes
 * its options in a table, parse_options() walks argv, stores values through
 * the table's pointers and leaves the non-option arguments in argv.
 *
 * Example (a whole command):
 *
 *	static const char *const dump_usage[] = {
 *		"sampo dump [<options>]",
 *		NULL,
 *	};
 *
 *	int cmd_dump(int argc, const char **argv)
 *	{
 *		const char *input = "perf.data";
 *		bool raw = false;
 *		int max = 0;
 *		const struct option opts[] = {
 *			OPT_STRING('i', "input", &input, "file", "input file name"),
 *			OPT_BOOLEAN(0, "raw", &raw, "also print raw bytes"),
 *			OPT_INTEGER_RANGE('n', "max", &max, "n", "stop after <n> records", 0, 1000000),
 *			OPT_END(),
 *		};
 *
 *		argc = parse_options(argc, argv, opts, dump_usage, 0);
 *		if (argc < 0)
 *			return argc;	// PARSE_OPT_HELP or PARSE_OPT_USAGE, main() maps them
 *		if (argc > 0)
 *			return usage_error(dump_usage, opts, "too many arguments");
 *		...
 *	}
 *
 * Accepted forms: -i FILE, -iFILE, --input FILE, --input=FILE, bundled short
 * flags (-vq), repeated counters (-vvv), --no-<name> for OPT_BOOLEAN (sets
 * false), a unique prefix of a long name (--inp), "--" to end the options and
 * "-" as an ordinary argument (stdin by convention).
 *
 * Contract:
 * - argv[0] is the command name and is skipped. On success parse_options()
 *   returns the number of non-option arguments and moves them, in order, to
 *   argv[0..ret-1]; argv[ret] is set to NULL.
 * - "-h" / "--help" prints the usage and option list to stdout and returns
 *   PARSE_OPT_HELP. The command returns that value unchanged; main() exits 0.
 * - A bad option prints "sampo <cmd>: <what is wrong>" and the usage to stderr
 *   and returns PARSE_OPT_USAGE. The command returns it; main() exits 129.
 * - Nothing here calls exit().
 * - String values point into argv (borrowed, live as long as argv).
 * - Option values keep their initial value unless the option is given, so
 *   initialise the variables with the defaults before calling.
 * - Need a flag the macros do not take (OPT_F_HIDDEN for a compatibility
 *   alias, say)? Write the entry with designated initialisers:
 *	{ .type = OPTION_BOOLEAN, .short_name = 'D', .long_name = "dump-raw-trace",
 *	  .value = &raw, .help = "same as sampo dump", .flags = OPT_F_HIDDEN },
 */
#ifndef SAMPO_OPTIONS_H
#define SAMPO_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Special return values of parse_options() and of commands. They lie far
 * outside the errno and SAMPO_ERR_* ranges, so "argc < 0" catches both and
 * main() can tell them from real errors.
 */
#define PARSE_OPT_HELP	(-0x10000) /* help was printed on stdout: exit 0 */
#define PARSE_OPT_USAGE (-0x10001) /* usage error was reported: exit 129 */

/* flags for parse_options() */
#define PARSE_OPT_STOP_AT_NON_OPTION (1 << 0) /* stop at the first non-option (record -- cmd) */
#define PARSE_OPT_KEEP_DASHDASH	     (1 << 1) /* leave "--" in the returned arguments */

/* flags of one option (struct option.flags) */
#define OPT_F_HIDDEN (1 << 0) /* accepted, but not listed by -h */
#define OPT_F_NONEG  (1 << 1) /* OPT_BOOLEAN without --no-<name> */
#define OPT_F_NOARG  (1 << 2) /* OPT_CALLBACK that takes no argument (arg is NULL) */
#define OPT_F_OPTARG (1 << 3) /* OPT_CALLBACK whose argument is optional: only --name=ARG */

enum opt_type {
	OPTION_END,	 /* end of the table */
	OPTION_GROUP,	 /* a heading in the -h output, no option */
	OPTION_BOOLEAN,	 /* bool *: true, or false with --no-<name> */
	OPTION_INCR,	 /* int *: incremented each time (-vvv) */
	OPTION_SET_INT,	 /* int *: set to .defval */
	OPTION_STRING,	 /* const char **: the argument */
	OPTION_INTEGER,	 /* int *: decimal or 0x hex, optional range [min, max] */
	OPTION_U64,	 /* uint64_t *: decimal or 0x hex, optional range [min, max] */
	OPTION_CALLBACK, /* parse_opt_cb: .callback gets the argument */
};

struct option;

/*
 * parse_opt_cb - custom option handler
 * @opt: the table entry (opt->value is yours)
 * @arg: the argument, or NULL for OPT_F_NOARG options and --no-<name>
 * @unset: true for --no-<name> (only without OPT_F_NONEG)
 *
 * Return: 0, or a negative value if @arg is invalid. Do not print: the parser
 * reports "invalid argument '<arg>' for option '<opt>'" and the usage, or,
 * when the callback called parse_opt_fail() first, that message instead
 * (name what is wrong and what is valid: "-F: unknown field 'foo' (fields:
 * comm, tid, ...)").
 */
typedef int (*parse_opt_cb)(const struct option *opt, const char *arg, bool unset);

struct option {
	enum opt_type type;
	int short_name;	       /* 'i', or 0 for none */
	const char *long_name; /* "input", or NULL for none */
	void *value;	       /* where the result goes; type depends on .type */
	const char *argh;      /* argument name shown by -h ("file" prints as <file>) */
	const char *help;      /* one line, lowercase, no trailing period */
	int flags;	       /* OPT_F_* */
	intptr_t defval;       /* OPT_SET_INT(): the value to store */
	int64_t min, max;      /* INTEGER/U64: inclusive range, unused if both 0 */
	parse_opt_cb callback; /* OPT_CALLBACK(): the handler */
};

#define OPT_END()                  \
	{                          \
		.type = OPTION_END \
	}
#define OPT_GROUP(h)                              \
	{                                         \
		.type = OPTION_GROUP, .help = (h) \
	}
#define OPT_BOOLEAN(s, l, v, h)                                                            \
	{                                                                                  \
		.type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), .value = (v), \
		.help = (h)                                                                \
	}
#define OPT_INCR(s, l, v, h)                                                            \
	{                                                                               \
		.type = OPTION_INCR, .short_name = (s), .long_name = (l), .value = (v), \
		.help = (h)                                                             \
	}
#define OPT_SET_INT(s, l, v, h, i)                                                         \
	{                                                                                  \
		.type = OPTION_SET_INT, .short_name = (s), .long_name = (l), .value = (v), \
		.help = (h), .defval = (i)                                                 \
	}
#define OPT_STRING(s, l, v, a, h)                                                         \
	{                                                                                 \
		.type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h)                                                  \
	}
#define OPT_INTEGER(s, l, v, a, h)                                                         \
	{                                                                                  \
		.type = OPTION_INTEGER, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h)                                                   \
	}
#define OPT_INTEGER_RANGE(s, l, v, a, h, lo, hi)                                           \
	{                                                                                  \
		.type = OPTION_INTEGER, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .min = (lo), .max = (hi)                         \
	}
#define OPT_U64(s, l, v, a, h)                                                         \
	{                                                                              \
		.type = OPTION_U64, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h)                                               \
	}
#define OPT_U64_RANGE(s, l, v, a, h, lo, hi)                                           \
	{                                                                              \
		.type = OPTION_U64, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .min = (lo), .max = (hi)                     \
	}
#define OPT_CALLBACK(s, l, v, a, h, fn)                                                     \
	{                                                                                   \
		.type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .callback = (fn)                                  \
	}
#define OPT_CALLBACK_NOARG(s, l, v, h, fn)                                                  \
	{                                                                                   \
		.type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
		.help = (h), .callback = (fn), .flags = OPT_F_NOARG                         \
	}

#define OPT_CALLBACK_OPTARG(s, l, v, a, h, fn)                                              \
	{                                                                                   \
		.type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .callback = (fn), .flags = OPT_F_OPTARG           \
	}

/**
 * parse_opt_fail() - the message for the failure a callback is about to return
 *
 * printf-style, without the "sampo <cmd>: " prefix; see parse_opt_cb.
 */
void parse_opt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * parse_options() - parse a command's arguments against an option table
 * @argc: argument count, including argv[0] (the command name)
 * @argv: arguments; rewritten in place (see the contract at the top)
 * @opts: table ending with OPT_END()
 * @usage: NULL-terminated usage lines ("sampo dump [<options>]"); lines after
 *	an empty string "" are printed as free text below the usage
 * @flags: PARSE_OPT_*
 *
 * Return: the number of remaining arguments (>= 0), PARSE_OPT_HELP or
 * PARSE_OPT_USAGE.
 */
int parse_options(int argc, const char **argv, const struct option *opts, const char *const usage[],
		  int flags);

/**
 * usage_with_options() - print the usage lines and the option list
 * @fp: stdout for -h, stderr for errors
 */
void usage_with_options(FILE *fp, const char *const usage[], const struct option *opts);

/**
 * usage_error() - report a usage error found after parsing
 *
 * Prints "sampo <cmd>: <message>" and the usage to stderr.
 * Return: PARSE_OPT_USAGE, so that a command can "return usage_error(...)".
 */
int usage_error(const char *const usage[], const struct option *opts, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* SAMPO_OPTIONS_H */
