// SPDX-License-Identifier: GPL-2.0
/*
 * report-hosts.c - sampo report -i a.data -i b.data ...: one report of
 * files recorded on many machines
 *
 * The library reads each file in a session of its own, symbolized with its
 * own kernel and build-ids, and sums the rows of the per-file reports under
 * a host label (sampo_profile__read_files()). This file groups those rows
 * by the sort keys asked for (host, comm, dso, sym), orders them by period
 * and prints them in the shape of perf report --stdio, with a Host column.
 * A shared object's name that stands for more than one build-id in the
 * profile is shown with the build-id's first 12 hex digits ("libc.so.6@1a2b..."),
 * so two versions of one path stay two rows that say which is which.
 * No call graphs: a graph of many machines' chains is a flame graph's job.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/common.h>
#include <sampo/hist.h>
#include <sampo/profile.h>

#include "cli.h"
#include "report-hosts.h"

#define LABEL_MAX 4096

/*
 * The library's warnings while many files are read by several workers:
 * one line per distinct message, naming the first file it came from and
 * how many others gave it (a library missing on 100 hosts is one line).
 * The hook runs in the workers, hence the lock.
 */
struct held_warning {
	char *msg;
	char *first_file;
	size_t nr_files;
};

static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
static struct held_warning *warnings;
static size_t nr_warnings;
static sampo_print_fn warn_previous;
static bool warn_held;

static void hold_line(const char *line, const char *file)
{
	struct held_warning *w;

	for (size_t i = 0; i < nr_warnings; i++) {
		if (!strcmp(warnings[i].msg, line)) {
			warnings[i].nr_files++;
			return;
		}
	}
	w = realloc(warnings, (nr_warnings + 1) * sizeof(*w));
	if (!w)
		return;
	warnings = w;
	w[nr_warnings].msg = strdup(line);
	w[nr_warnings].first_file = file ? strdup(file) : NULL;
	w[nr_warnings].nr_files = 1;
	if (w[nr_warnings].msg)
		nr_warnings++;
}

static int hold_hosts_warning(enum sampo_log_level level, const char *fmt, va_list ap)
{
	char *msg, *save = NULL;

	if (level > SAMPO_LOG_WARN || vasprintf(&msg, fmt, ap) < 0)
		return 0;
	pthread_mutex_lock(&warn_lock);
	for (char *line = strtok_r(msg, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		hold_line(line, sampo_profile__current_file());
	pthread_mutex_unlock(&warn_lock);
	free(msg);
	return 0;
}

void hosts_warnings_hold(void)
{
	warn_previous = sampo_set_print(hold_hosts_warning);
	warn_held = true;
}

void hosts_warnings_release(bool show)
{
	if (!warn_held)
		return;
	sampo_set_print(warn_previous);
	warn_held = false;
	for (size_t i = 0; i < nr_warnings; i++) {
		struct held_warning *w = &warnings[i];

		if (show && w->nr_files > 1)
			cli_warn("%s: %s (and %zu other input%s)", w->first_file ? w->first_file : "?",
				 w->msg, w->nr_files - 1, w->nr_files > 2 ? "s" : "");
		else if (show)
			cli_warn("%s: %s", w->first_file ? w->first_file : "?", w->msg);
		free(w->msg);
		free(w->first_file);
	}
	free(warnings);
	warnings = NULL;
	nr_warnings = 0;
}

enum hkey { HK_HOST, HK_COMM, HK_DSO, HK_SYM };

static const char *const hkey_names[] = { "host", "comm", "dso", "sym" };
static const char *const hkey_headers[] = { "Host", "Command", "Shared Object", "Symbol" };

struct agg {
	const struct sampo_profile_row *row; /* the first: its keys */
	uint64_t period, self, nr_samples;
};

struct printer {
	const struct sampo_profile *p;
	enum hkey keys[4];
	size_t nr_keys;
};

int report_hosts_parse_sort(const char *s, enum report_host_key *keys, size_t *nr)
{
	char *copy, *save = NULL;
	int err = 0;

	*nr = 0;
	if (!s) {
		for (int k = HK_HOST; k <= HK_SYM; k++)
			keys[(*nr)++] = (enum report_host_key)k;
		return 0;
	}
	copy = strdup(s);
	if (!copy)
		return cli_err(-ENOMEM, "out of memory");
	for (char *w = strtok_r(copy, ",", &save); w && !err; w = strtok_r(NULL, ",", &save)) {
		int k = -1;
		bool dup = false;

		for (int i = 0; i < 4; i++)
			if (!strcmp(w, hkey_names[i]) || (i == HK_SYM && !strcmp(w, "symbol")))
				k = i;
		if (k < 0) {
			err = cli_err(-EINVAL,
				      "sort key '%s' cannot be used with several inputs "
				      "(known: host, comm, dso, sym)",
				      w);
			break;
		}
		for (size_t i = 0; i < *nr; i++)
			dup |= (int)keys[i] == k;
		if (!dup)
			keys[(*nr)++] = (enum report_host_key)k;
	}
	free(copy);
	if (!err && !*nr)
		err = cli_err(-EINVAL, "empty sort key list");
	return err;
}

static int strcmp_null(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a)
		return -1;
	if (!b)
		return 1;
	return strcmp(a, b);
}

static int key_cmp(const struct printer *pr, const struct sampo_profile_row *a,
		   const struct sampo_profile_row *b)
{
	for (size_t i = 0; i < pr->nr_keys; i++) {
		int c = 0;

		switch (pr->keys[i]) {
		case HK_HOST:
			c = strcmp_null(a->host, b->host);
			break;
		case HK_COMM:
			c = strcmp_null(a->comm, b->comm);
			break;
		case HK_DSO:
			c = strcmp_null(a->dso, b->dso);
			if (!c)
				c = strcmp_null(a->dso_id, b->dso_id);
			break;
		case HK_SYM:
			/* a symbol is one of its object, as in perf (sort__sym_cmp) */
			c = strcmp_null(a->dso, b->dso);
			if (!c)
				c = strcmp_null(a->dso_id, b->dso_id);
			if (!c)
				c = (a->level > b->level) - (a->level < b->level);
			if (!c)
				c = (int)a->resolved - (int)b->resolved;
			if (!c)
				c = strcmp_null(a->symbol, b->symbol);
			break;
		}
		if (c)
			return c;
	}
	return 0;
}

/* qsort has no context argument: the printer of the sort in progress */
static const struct printer *sorting;

static int cmp_rows_by_key(const void *x, const void *y)
{
	return key_cmp(sorting, *(const struct sampo_profile_row *const *)x,
		       *(const struct sampo_profile_row *const *)y);
}

static int cmp_aggs(const void *x, const void *y)
{
	const struct agg *a = x, *b = y;

	if (a->period != b->period)
		return a->period < b->period ? 1 : -1;
	if (a->self != b->self)
		return a->self < b->self ? 1 : -1;
	return key_cmp(sorting, a->row, b->row);
}

/* the name, or name@id when it stands for several build-ids in the profile */
static const char *dso_label(const struct printer *pr, const struct sampo_profile_row *r,
			     char *buf, size_t size)
{
	return sampo_profile__dso_label(pr->p, r->dso, r->dso_id, buf, size);
}

static size_t field_width(const struct printer *pr, enum hkey k, const struct sampo_profile_row *r)
{
	switch (k) {
	case HK_HOST:
		return strlen(r->host);
	case HK_COMM:
		return strlen(r->comm);
	case HK_DSO: {
		char buf[LABEL_MAX];

		return strlen(dso_label(pr, r, buf, sizeof(buf)));
	}
	case HK_SYM:
		return 4 + strlen(r->symbol);
	}
	return 0;
}

static void print_event(struct printer *pr, const struct report_hosts_args *args, size_t event,
			struct agg *aggs, size_t nr_aggs, FILE *fp)
{
	uint64_t total = sampo_profile__event_total_period(pr->p, event);
	uint64_t nr = sampo_profile__event_nr_samples(pr->p, event);
	size_t width[4];
	char unit = ' ';

	/* perf's convert_unit() */
	if (nr > 1000) {
		nr /= 1000;
		unit = 'K';
	}
	if (nr > 1000) {
		nr /= 1000;
		unit = 'M';
	}
	if (nr > 1000) {
		nr /= 1000;
		unit = 'G';
	}
	fprintf(fp, "# Samples: %" PRIu64 "%c of event '%s'\n", nr, unit,
		sampo_profile__event_name(pr->p, event));
	fprintf(fp, "# Event count (approx.): %" PRIu64 "\n#\n", total);

	for (size_t j = 0; j < pr->nr_keys; j++)
		width[j] = strlen(hkey_headers[pr->keys[j]]);
	for (size_t i = 0; i < nr_aggs; i++)
		for (size_t j = 0; j < pr->nr_keys; j++) {
			size_t w = field_width(pr, pr->keys[j], aggs[i].row);

			if (w > width[j])
				width[j] = w;
		}
	fputs("# ", fp);
	fputs(args->children ? "Children      Self" : "Overhead", fp);
	if (args->show_nr_samples)
		fputs("       Samples", fp);
	for (size_t j = 0; j < pr->nr_keys; j++)
		fprintf(fp, "  %-*s", (int)width[j], hkey_headers[pr->keys[j]]);
	fputs("\n# ", fp);
	fputs(args->children ? "........  ........" : "........", fp);
	if (args->show_nr_samples)
		fputs("  ............", fp);
	for (size_t j = 0; j < pr->nr_keys; j++) {
		fputs("  ", fp);
		for (size_t k = 0; k < width[j]; k++)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);

	for (size_t i = 0; i < nr_aggs; i++) {
		const struct agg *a = &aggs[i];
		const struct sampo_profile_row *r = a->row;
		double pct = total ? a->period * 100.0 / total : 0.0;

		if (pct < args->percent_limit)
			continue;
		if (args->children)
			fprintf(fp, "  %7.2f%%  %7.2f%%", pct, total ? a->self * 100.0 / total : 0.0);
		else
			fprintf(fp, "  %7.2f%%", pct);
		if (args->show_nr_samples)
			fprintf(fp, "  %12" PRIu64, a->nr_samples);
		for (size_t j = 0; j < pr->nr_keys; j++) {
			bool last = j + 1 == pr->nr_keys;
			int w = last ? 0 : (int)width[j];

			fputs("  ", fp);
			switch (pr->keys[j]) {
			case HK_HOST:
				fprintf(fp, "%-*s", w, r->host);
				break;
			case HK_COMM:
				fprintf(fp, "%-*s", w, r->comm);
				break;
			case HK_DSO: {
				char buf[LABEL_MAX];

				fprintf(fp, "%-*s", w, dso_label(pr, r, buf, sizeof(buf)));
				break;
			}
			case HK_SYM: {
				int n = fprintf(fp, "[%c] %s", r->level, r->symbol);

				if (n < w)
					fprintf(fp, "%*s", w - n, "");
				break;
			}
			}
		}
		fputc('\n', fp);
	}
	fputs("\n\n", fp);
}

int report_hosts(const struct report_hosts_args *args)
{
	char errbuf[512] = "";
	SAMPO_OPTS(sampo_profile_opts, popts, .hists = args->hists, .symbolizer = args->symbolizer,
		   .nr_threads = args->nr_threads, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	struct printer pr = { 0 };
	struct sampo_profile *p = NULL;
	const struct sampo_profile_row **rows = NULL;
	struct agg *aggs = NULL;
	FILE *fp = stdout;
	bool any = false;
	int err;

	for (size_t i = 0; i < args->nr_keys; i++)
		pr.keys[pr.nr_keys++] = (enum hkey)args->keys[i];
	err = sampo_profile__new(&p);
	if (err)
		return cli_err(err, "out of memory");
	pr.p = p;
	hosts_warnings_hold();
	err = sampo_profile__read_files(p, args->inputs, args->nr_inputs, &popts);
	hosts_warnings_release(!err);
	if (err) {
		err = cli_err(err, "%s", errbuf[0] ? errbuf : "cannot read the inputs");
		goto out;
	}
	rows = calloc(sampo_profile__nr_rows(p) + 1, sizeof(*rows));
	aggs = calloc(sampo_profile__nr_rows(p) + 1, sizeof(*aggs));
	if (!rows || !aggs) {
		err = cli_err(-ENOMEM, "out of memory");
		goto out;
	}

	for (size_t ev = 0; ev < sampo_profile__nr_events(p); ev++)
		any |= sampo_profile__event_nr_samples(p, ev) != 0;
	if (!any) {
		fprintf(stderr, "sampo report: the %zu inputs have no samples\n", args->nr_inputs);
		goto out;
	}
	fputs("# To display the perf.data header info, please use --header/--header-only "
	      "options.\n#\n",
	      fp);
	fprintf(fp, "# Merged: %zu files\n", sampo_profile__nr_files(p));
	fprintf(fp, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", sampo_profile__lost(p));
	sorting = &pr;
	for (size_t ev = 0; ev < sampo_profile__nr_events(p); ev++) {
		size_t nr_rows = 0, nr_aggs = 0;

		if (!sampo_profile__event_nr_samples(p, ev))
			continue;
		for (size_t i = 0; i < sampo_profile__nr_rows(p); i++)
			if (sampo_profile__row(p, i)->event == ev)
				rows[nr_rows++] = sampo_profile__row(p, i);
		/* rows of equal keys side by side, then summed */
		qsort(rows, nr_rows, sizeof(*rows), cmp_rows_by_key);
		for (size_t i = 0; i < nr_rows; i++) {
			const struct sampo_profile_row *r = rows[i];

			if (!nr_aggs || key_cmp(&pr, aggs[nr_aggs - 1].row, r))
				aggs[nr_aggs++] = (struct agg){ .row = r };
			aggs[nr_aggs - 1].period += r->period;
			aggs[nr_aggs - 1].self += r->self;
			aggs[nr_aggs - 1].nr_samples += r->nr_samples;
		}
		qsort(aggs, nr_aggs, sizeof(*aggs), cmp_aggs);
		print_event(&pr, args, ev, aggs, nr_aggs, fp);
	}
	if (fflush(fp) || ferror(fp))
		err = errno == EPIPE ? -EPIPE : cli_err(-EIO, "cannot write the report");
out:
	free(rows);
	free(aggs);
	sampo_profile__delete(p);
	return err;
}
