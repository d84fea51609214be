/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - helpers shared by the sampo subcommands: messages and exit status
 *
 * Every message of the CLI starts with "sampo <cmd>: " where <cmd> is the
 * command the user typed (main() sets it with cli_set_cmd() before running
 * the command). Messages follow STYLE.md: lowercase, no trailing period,
 * subject in single quotes.
 *
 *	err = sampo_reader__open(path, NULL, &reader);
 *	if (err)
 *		return cli_err(err, "cannot open '%s'", path);
 *
 * prints "sampo dump: cannot open 'perf.data': No such file or directory" and
 * returns err; main() turns any negative errno / SAMPO_ERR_* into exit 1.
 *
 * Exit status (only main() decides it, see cli_exit_code()):
 *	0	success, also after -h (PARSE_OPT_HELP) and after a closed pipe (-EPIPE)
 *	1	failure (any other non-zero return)
 *	129	usage error (PARSE_OPT_USAGE)
 *
 * SIGPIPE: main() ignores SIGPIPE so that writing to a closed pipe
 * ("sampo dump | head") fails with EPIPE, which ends the command quietly with
 * status 0, as git does. A command that runs a child program must restore
 * SIGPIPE to SIG_DFL in the child before exec.
 */
#ifndef SAMPO_CLI_H
#define SAMPO_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLI_EXIT_OK	 0
#define CLI_EXIT_FAILURE 1
#define CLI_EXIT_USAGE	 129

/* cli_set_cmd() - set the name used in messages; NULL means plain "sampo" */
void cli_set_cmd(const char *name);

/* cli_cmd() - the current command name, or NULL */
const char *cli_cmd(void);

/*
 * cli_set_verbose() / cli_verbose() - the global -v count (sampo -v CMD);
 * commands may add it to their own -v.
 */
void cli_set_verbose(int level);
int cli_verbose(void);

/**
 * cli_err() - print an error message to stderr
 * @err: negative errno or SAMPO_ERR_*; its text is appended after ": ".
 *	0 means no error text; the function then returns CLI_EXIT_FAILURE.
 *	-EPIPE prints nothing (the reader went away, see above).
 *
 * Prints "sampo <cmd>: <message>: <sampo_strerror(err)>".
 * Return: @err, or CLI_EXIT_FAILURE if @err is 0
 */
int cli_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * cli_err_open() - report why a perf.data file could not be opened
 * @err: what sampo_session__open() / sampo_reader__open() returned
 * @input: the file name the command tried
 * @msg: the library's message (the errbuf of the open)
 *
 * Prints "sampo <cmd>: <msg>", and for a missing perf.data how to make one
 * (as perf's "try 'perf record' first").
 * Return: @err, or CLI_EXIT_FAILURE if @err is 0
 */
int cli_err_open(int err, const char *input, const char *msg);

/**
 * cli_create_output() - create or truncate the output file @path
 * @mode: a new file's permissions (less the umask)
 *
 * sampo_output_file__create(): in a directory others may write to, never
 * through a planted link or into another's file. On failure prints
 * "sampo <cmd>: cannot create '<path>'...", with what to do when the
 * name was refused.
 * Return: the descriptor, or a negative error (already reported)
 */
int cli_create_output(const char *path, unsigned int mode);

/**
 * cli_err_create() - report that the output file @path could not be created
 * @err: what sampo_output_file__create() (or an open through it) returned
 *
 * -ELOOP and -EEXIST (a name refused in a shared directory) say what to do.
 * Return: @err
 */
int cli_err_create(int err, const char *path);

/**
 * cli_err_write() - report that the output file @path could not be written:
 * cli_err_create() when its name was refused (-ELOOP, -EEXIST), else
 * "cannot write '<path>'"
 * Return: @err
 */
int cli_err_write(int err, const char *path);

struct sampo_reader;

/**
 * cli_err_read() - report the error that ended the reading of the records
 * @err: what sampo_session__process() (or sampo_reader__next()) returned
 * @reader: the file's reader, for its counts; may be NULL
 * @msg: the library's message (sampo_session__error())
 *
 * Prints "sampo <cmd>: <msg>"; for a file cut short (-SAMPO_ERR_TRUNCATED)
 * the line goes on with what was read before the cut: the records, the
 * samples among them, and how much of the data section that was.
 * Return: @err, or CLI_EXIT_FAILURE if @err is 0
 */
int cli_err_read(int err, const struct sampo_reader *reader, const char *msg);

/* cli_warn() - print "sampo <cmd>: warning: <message>" to stderr */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct sampo_feature_error;

/*
 * cli_warn_damaged_features() - the one warning for @nr features of @input
 * left out because they do not parse (sampo_features__parse_each()); @fe
 * describes the first
 */
void cli_warn_damaged_features(const char *input, int nr, const struct sampo_feature_error *fe);

struct sampo_session;

/*
 * cli_file_arch() - the family of the machine @session's file was recorded
 * on (its ARCH feature, else this machine's, as perf_env__arch()), as
 * sampo_arch__normalize() names it; @buf (of @size bytes) holds the text
 * Return: the family (borrowed from @buf or static)
 */
const char *cli_file_arch(struct sampo_session *session, char *buf, size_t size);

/* cli_exit_code() - map a command's return value to the process exit status */
int cli_exit_code(int ret);

/* cli_default_input() - perf's default input: "-" when stdin is a pipe, else "perf.data" */
const char *cli_default_input(void);

/* the words of a comma-separated option value (--comms, --dsos, --symbols...) */
struct cli_word_list {
	char *buf; /* a copy of the value, cut at its commas */
	const char **words;
	size_t nr;
};

/*
 * cli_split_words() - split @s at its commas into @list (zeroed by the caller);
 * empty words are dropped ("a,,b" is a and b). 0 or -ENOMEM; release the list
 * with cli_word_list_release() either way.
 */
int cli_split_words(const char *s, struct cli_word_list *list);
void cli_word_list_release(struct cli_word_list *list);

/*
 * cli_parse_ids() - a comma-separated list of process or thread ids (--pid,
 * --tid) into *@ret (malloc'ed), *@ret_nr of them; an id that is not a
 * number from -1 up is an error said as "invalid @what '...'"
 */
int cli_parse_ids(const char *what, const char *s, int32_t **ret, size_t *ret_nr);

#endif /* SAMPO_CLI_H */
