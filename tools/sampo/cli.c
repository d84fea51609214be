/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.c - messages and exit status shared by all subcommands (see cli.h)
 *
 * The only state is the name of the running command and the global -v
 * count, set once by main() before the command runs: one process runs one
 * command, so file-scope statics are enough and keep cli_err() calls short.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <sampo/common.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/output-file.h>
#include <sampo/reader.h>
#include <sampo/session.h>

#include "cli.h"
#include "options.h"

static const char *cli_cmd_name;
static int cli_verbose_level;

void cli_set_cmd(const char *name)
{
	cli_cmd_name = name;
}

const char *cli_cmd(void)
{
	return cli_cmd_name;
}

void cli_set_verbose(int level)
{
	cli_verbose_level = level;
}

int cli_verbose(void)
{
	return cli_verbose_level;
}

static void cli_vmsg(const char *kind, const char *fmt, va_list ap, int err)
{
	char buf[256];

	if (cli_cmd_name)
		fprintf(stderr, "sampo %s: %s", cli_cmd_name, kind);
	else
		fprintf(stderr, "sampo: %s", kind);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", sampo_strerror(err, buf, sizeof(buf)));
	fputc('\n', stderr);
}

int cli_err(int err, const char *fmt, ...)
{
	va_list ap;

	if (err == -EPIPE)
		return err;
	va_start(ap, fmt);
	cli_vmsg("", fmt, ap, err);
	va_end(ap);
	return err ? err : CLI_EXIT_FAILURE;
}

int cli_err_open(int err, const char *input, const char *msg)
{
	const char *base = strrchr(input, '/');

	base = base ? base + 1 : input;
	/* perf's hint, for perf's default name only: another name was a choice */
	if (err == -ENOENT && !strcmp(base, "perf.data"))
		cli_err(0, "%s (try 'sampo record -g -- <command>' first, or -i <file>)", msg);
	else
		cli_err(0, "%s", msg);
	return err ? err : CLI_EXIT_FAILURE;
}

int cli_err_create(int err, const char *path)
{
	if (err == -ELOOP || err == -EEXIST)
		return cli_err(err,
			       "cannot create '%s': not following a link or reusing another's "
			       "file in a directory others can write to (remove '%s', or give -o "
			       "a path in a directory of your own)",
			       path, path);
	return cli_err(err, "cannot create '%s'", path);
}

int cli_err_write(int err, const char *path)
{
	if (err == -ELOOP || err == -EEXIST)
		return cli_err_create(err, path);
	return cli_err(err, "cannot write '%s'", path);
}

int cli_create_output(const char *path, unsigned int mode)
{
	int fd = sampo_output_file__create(path, mode);

	return fd < 0 ? cli_err_create(fd, path) : fd;
}

int cli_err_read(int err, const struct sampo_reader *reader, const char *msg)
{
	const struct sampo_reader_stats *st;
	uint64_t nr = 0;

	if (err != -SAMPO_ERR_TRUNCATED || !reader) {
		cli_err(0, "%s", msg);
		return err ? err : CLI_EXIT_FAILURE;
	}
	st = sampo_reader__stats(reader);
	for (size_t i = 0; i < SAMPO_RECORD_MAX; i++)
		nr += st->nr_records[i];
	if (sampo_reader__is_pipe(reader)) {
		cli_err(0,
			"%s; the stream was cut short: %" PRIu64 " records (%" PRIu64
			" samples, %" PRIu64 " bytes) read before the cut",
			msg, nr, st->nr_records[SAMPO_RECORD_SAMPLE], st->bytes_read);
	} else {
		const struct sampo_file_header *h = sampo_reader__file_header(reader);

		cli_err(0,
			"%s; the file was cut short (a recording stopped before its end, or an "
			"incomplete copy): %" PRIu64 " records (%" PRIu64 " samples) read before "
			"the cut, %" PRIu64 " of the %" PRIu64 " bytes of data its header announces",
			msg, nr, st->nr_records[SAMPO_RECORD_SAMPLE], st->bytes_read,
			h ? h->data.size : 0);
	}
	return err;
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vmsg("warning: ", fmt, ap, 0);
	va_end(ap);
}

void cli_warn_damaged_features(const char *input, int nr, const struct sampo_feature_error *fe)
{
	const char *name = sampo_feature__name(fe->feat);
	char more[64] = "";

	if (nr > 1)
		snprintf(more, sizeof(more), " (and %d more damaged feature%s)", nr - 1,
			 nr > 2 ? "s" : "");
	cli_warn("'%s': feature %s at %#" PRIx64 ", offset %#" PRIx64 ": %s; read without it%s",
		 input, name ? name : "?", fe->section_offset, fe->offset, fe->msg, more);
}

const char *cli_file_arch(struct sampo_session *session, char *buf, size_t size)
{
	const struct sampo_features *f = sampo_session__features(session);
	const char *arch = NULL;
	struct utsname uts;
	size_t n;

	if (f && sampo_features__has(f, SAMPO_FEAT_ARCH))
		arch = f->arch;
	if (!arch && uname(&uts) == 0)
		arch = uts.machine;
	n = arch && size ? strnlen(arch, size - 1) : 0;
	if (size) {
		memcpy(buf, arch ? arch : "", n);
		buf[n] = 0;
	}
	return sampo_arch__normalize(buf);
}

int cli_exit_code(int ret)
{
	switch (ret) {
	case 0:
	case PARSE_OPT_HELP:
	case -EPIPE:
		return CLI_EXIT_OK;
	case PARSE_OPT_USAGE:
	case CLI_EXIT_USAGE:
		return CLI_EXIT_USAGE;
	default:
		return CLI_EXIT_FAILURE;
	}
}

const char *cli_default_input(void)
{
	struct stat st;

	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}

int cli_split_words(const char *s, struct cli_word_list *list)
{
	size_t nr_max = 1;
	char *save = NULL;

	for (const char *p = s; *p; p++)
		nr_max += *p == ',';
	list->buf = strdup(s);
	list->words = calloc(nr_max, sizeof(*list->words));
	if (!list->buf || !list->words)
		return -ENOMEM;
	for (char *w = strtok_r(list->buf, ",", &save); w; w = strtok_r(NULL, ",", &save))
		list->words[list->nr++] = w;
	return 0;
}

void cli_word_list_release(struct cli_word_list *list)
{
	free(list->buf);
	free(list->words);
}

int cli_parse_ids(const char *what, const char *s, int32_t **ret, size_t *ret_nr)
{
	struct cli_word_list list = { 0 };
	int err = cli_split_words(s, &list);

	if (err)
		goto out;
	*ret = calloc(list.nr ? list.nr : 1, sizeof(**ret));
	if (!*ret) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < list.nr; i++) {
		char *end;
		long v;

		errno = 0;
		v = strtol(list.words[i], &end, 10);
		if (errno || *end || v < -1 || v > INT32_MAX) {
			err = cli_err(0, "invalid %s '%s'", what, list.words[i]);
			goto out;
		}
		(*ret)[i] = (int32_t)v;
	}
	*ret_nr = list.nr;
out:
	cli_word_list_release(&list);
	return err == -ENOMEM ? cli_err(err, "out of memory") : err;
}
