// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-diff.c - sampo diff: two or more profiles compared as `perf diff`
 * prints them
 *
 * Each file is read as report reads it (a session, its symbolizer, the
 * histograms, here without call graphs); the library pairs and compares
 * the entries (lib/hist-diff.c); this file only prints perf diff's table:
 * per baseline event, the Baseline column, then for each new file its
 * computed column (Delta Abs, Delta, Ratio, Weighted diff), -F's Formula,
 * -p's periods, then the sort keys' columns, each as wide as perf makes
 * it (perf 6.1's builtin-diff.c hpp__entry_global() and ui/stdio/hist.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/dso.h>
#include <sampo/event.h>
#include <sampo/hist-diff.h>
#include <sampo/hist.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/symbolizer.h>

#include "builtin.h"
#include "cli.h"
#include "debuginfod-cli.h"
#include "options.h"

static const char *const diff_usage[] = {
	"sampo diff [<options>] [<baseline> [<new>...]]",
	"",
	"Compare the profiles of two or more perf.data files, as 'perf diff' does:",
	"the first is the baseline (default perf.data.old), the others are compared",
	"with it (default perf.data).",
	NULL,
};

/* the words of a comma separated option, pointing into one copy of it */
struct diff_file {
	const char *path;
	struct sampo_session *session;
	struct sampo_reader *reader;
	struct sampo_hists *hists;
};

/* perf diff's columns (its PERF_HPP_DIFF__* indexes) */
enum col_kind {
	COL_BASELINE,
	COL_PERIOD,
	COL_PERIOD_BASELINE,
	COL_DELTA,
	COL_RATIO,
	COL_WDIFF,
	COL_FORMULA,
	COL_DELTA_ABS,
};

static const struct {
	const char *name;
	int width;
} col_defs[] = {
	[COL_BASELINE] = { "Baseline", 0 },	   [COL_PERIOD] = { "Period", 14 },
	[COL_PERIOD_BASELINE] = { "Base period", 14 }, [COL_DELTA] = { "Delta", 7 },
	[COL_RATIO] = { "Ratio", 14 },		   [COL_WDIFF] = { "Weighted diff", 14 },
	[COL_FORMULA] = { "Formula", 70 },	   [COL_DELTA_ABS] = { "Delta Abs", 7 },
};

/* perf's MAX_COL_WIDTH: the buffer each diff column is written into */
#define MAX_COL_WIDTH 70

struct column {
	bool is_key;
	enum col_kind kind;	 /* diff column */
	size_t file;		 /* diff column: its file */
	enum sampo_sort_key key; /* sort key column */
	char header[128];
	int width;
};

struct diff_ctx {
	/* options */
	const char *compute_str;
	const char *sort;
	const char *percentage;
	const char *field_sep;
	const char *comms, *dsos, *syms;
	const char *vmlinux, *kallsyms, *symfs;
	bool show_period, show_formula, baseline_only, quiet, force;
	int order;

	/* parsed */
	struct sampo_hist_diff_opts dopts;
	enum sampo_sort_key sort_keys[SAMPO_SORT_MAX_KEYS];
	size_t nr_sort_keys;
	struct cli_word_list comm_list, dso_list, sym_list;

	struct diff_file *files;
	size_t nr_files;
	struct column cols[32];
	size_t nr_cols;
};

/* perf diff's -c: "delta", "delta-abs", "ratio", "wdiff:w1,w2" */
static int parse_compute(struct diff_ctx *ctx)
{
	static const char *const names[] = {
		[SAMPO_DIFF_DELTA_ABS] = "delta-abs",
		[SAMPO_DIFF_DELTA] = "delta",
		[SAMPO_DIFF_RATIO] = "ratio",
		[SAMPO_DIFF_WDIFF] = "wdiff",
	};
	const char *s = ctx->compute_str, *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i]) != len || strncmp(s, names[i], len))
			continue;
		ctx->dopts.compute = (enum sampo_diff_compute)i;
		if (i != SAMPO_DIFF_WDIFF) {
			if (colon)
				return cli_err(0, "extra option specified '%s' for -c %s",
					       colon + 1, names[i]);
			return 0;
		}
		/* perf reads the weights with strtol() and refuses zeros */
		const char *w2 = colon ? strchr(colon + 1, ',') : NULL;

		if (!w2 || !w2[1] || !(ctx->dopts.wdiff_w1 = strtol(colon + 1, NULL, 10)) ||
		    !(ctx->dopts.wdiff_w2 = strtol(w2 + 1, NULL, 10)))
			return cli_err(0, "wrong weight data in '-c %s': use 'wdiff:w1,w2', "
					  "two non-zero integers", s);
		return 0;
	}
	if (len == 6 && !strncmp(s, "cycles", 6))
		return cli_err(0, "-c cycles needs branch stacks (LBR), which sampo does not "
				  "read: use delta, delta-abs, ratio or wdiff:w1,w2");
	return cli_err(0, "'%s' is not a computation method (use 'delta', 'delta-abs', "
			  "'ratio' or 'wdiff:w1,w2')", s);
}

static int open_file(struct diff_ctx *ctx, struct diff_file *f)
{
	char errbuf[256] = "";
	SAMPO_OPTS(sampo_symbolizer_opts, sopts, .symfs = ctx->symfs, .vmlinux = ctx->vmlinux,
		   .kallsyms = ctx->kallsyms, .force = ctx->force);
	cli_debuginfod_apply(&sopts);
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true, .threaded = true,
		   .features = SAMPO_SESSION_FEATURES_EACH, .symbolizer = &sopts,
		   .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	SAMPO_OPTS(sampo_hists_opts, hopts, .sort_keys = ctx->sort_keys,
		   .nr_sort_keys = ctx->nr_sort_keys);
	const struct sampo_feature_error *ferr;
	struct sampo_symbolizer *symbolizer;
	int err, nr_damaged;

	err = sampo_session__open(f->path, &opts, &f->session);
	if (err)
		return cli_err(0, "%s", errbuf);
	nr_damaged = sampo_session__damaged_features(f->session, &ferr);
	if (nr_damaged)
		cli_warn_damaged_features(f->path, nr_damaged, ferr);
	f->reader = sampo_session__reader(f->session);
	symbolizer = sampo_session__symbolizer(f->session);
	if (!symbolizer)
		return cli_err(0, "%s", sampo_session__error(f->session));
	err = sampo_hists__new(sampo_session__machine(f->session), symbolizer, &hopts, &f->hists);
	if (err)
		return cli_err(err, "cannot set up the histograms");
	return 0;
}

static int diff_sample(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct diff_file *f = arg;

	(void)session;
	return sampo_hists__add_sample(f->hists, ev->attr_idx, &ev->sample);
}

static int read_file(struct diff_file *f)
{
	const struct sampo_tool tool = { .sample = diff_sample };

	if (sampo_session__process(f->session, &tool, f))
		return cli_err(0, "%s", sampo_session__error(f->session));
	if (sampo_hists__resort(f->hists))
		return cli_err(-ENOMEM, "out of memory");
	return 0;
}

static void add_diff_col(struct diff_ctx *ctx, enum col_kind kind, size_t file)
{
	struct column *c = &ctx->cols[ctx->nr_cols++];
	const char *name = col_defs[kind].name;
	char buf[100];
	int len;

	c->is_key = false;
	c->kind = kind;
	c->file = file;
	/* perf's init_header(): "Name/N" with more than two files */
	if (ctx->nr_files > 2)
		snprintf(buf, sizeof(buf), "%s/%zu", name, file);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	len = (int)strlen(buf);
	c->width = col_defs[kind].width > len ? col_defs[kind].width : len;
	snprintf(c->header, sizeof(c->header), "%*s", c->width, buf);
}

/* perf's ui_init() order: per file, its computed column, then -F's and -p's */
static void setup_columns(struct diff_ctx *ctx)
{
	static const enum col_kind compute_col[] = {
		[SAMPO_DIFF_DELTA_ABS] = COL_DELTA_ABS,
		[SAMPO_DIFF_DELTA] = COL_DELTA,
		[SAMPO_DIFF_RATIO] = COL_RATIO,
		[SAMPO_DIFF_WDIFF] = COL_WDIFF,
	};
	bool elide[SAMPO_SORT_TRACE_FIELD + 1] = { false };
	bool all_elided = true;

	for (size_t i = 0; i < ctx->nr_files; i++) {
		add_diff_col(ctx, i ? compute_col[ctx->dopts.compute] : COL_BASELINE, i);
		if (ctx->show_formula && i)
			add_diff_col(ctx, COL_FORMULA, i);
		if (ctx->show_period)
			add_diff_col(ctx, i ? COL_PERIOD : COL_PERIOD_BASELINE, i);
	}
	/* perf's sort__setup_elide(): a one-value filter hides its column, unless all would go */
	elide[SAMPO_SORT_COMM] = ctx->comm_list.nr == 1;
	elide[SAMPO_SORT_DSO] = ctx->dso_list.nr == 1;
	elide[SAMPO_SORT_SYM] = ctx->sym_list.nr == 1;
	for (size_t k = 0; k < ctx->nr_sort_keys; k++)
		if (!elide[ctx->sort_keys[k]])
			all_elided = false;
	for (size_t k = 0; k < ctx->nr_sort_keys; k++) {
		struct column *c;

		if (!all_elided && elide[ctx->sort_keys[k]])
			continue;
		c = &ctx->cols[ctx->nr_cols++];
		c->is_key = true;
		c->key = ctx->sort_keys[k];
	}
}

static const char *key_header(enum sampo_sort_key key)
{
	switch (key) {
	case SAMPO_SORT_COMM:
		return "Command";
	case SAMPO_SORT_PID:
	case SAMPO_SORT_TID:
		return "    Pid:Command";
	case SAMPO_SORT_DSO:
		return "Shared Object";
	case SAMPO_SORT_SYM:
		return "Symbol";
	case SAMPO_SORT_CPU:
		return "CPU";
	case SAMPO_SORT_SRCLINE:
		return "Source:Line";
	case SAMPO_SORT_SRCFILE:
		return "Source File";
	case SAMPO_SORT_TRACE: /* refused by parse_lists() */
	case SAMPO_SORT_TRACE_FIELD: /* not a word of sampo_sort_keys__parse() */
		break;
	}
	return "";
}

/* perf's hists__calc_col_len() over the rows that are printed */
static void key_widths(struct diff_ctx *ctx, const struct sampo_hist_diff *diff)
{
	bool unresolved = false;

	for (size_t j = 0; j < ctx->nr_cols; j++)
		if (ctx->cols[j].is_key)
			ctx->cols[j].width = (int)strlen(key_header(ctx->cols[j].key));
	for (size_t i = 0; i < sampo_hist_diff__nr_rows(diff); i++) {
		const struct sampo_hist_entry *e =
			sampo_hist_diff_row__key(sampo_hist_diff__row(diff, i));
		const char *sym = sampo_hist_entry__symbol_name(e);
		const char *dso = sampo_hist_entry__dso_name(e);
		/* perf measures the comm column by the thread's comm too */
		size_t comm_len = strlen(sampo_hist_entry__thread_comm(e));

		if (!sym)
			unresolved = true;
		for (size_t j = 0; j < ctx->nr_cols; j++) {
			struct column *c = &ctx->cols[j];
			size_t w = 0;

			if (!c->is_key)
				continue;
			switch (c->key) {
			case SAMPO_SORT_COMM:
				w = comm_len;
				break;
			case SAMPO_SORT_PID:
			case SAMPO_SORT_TID:
				w = comm_len + 8;
				break;
			case SAMPO_SORT_DSO:
				w = dso ? strlen(dso) : 0;
				break;
			case SAMPO_SORT_SYM:
				w = sym ? strlen(sym) + 4 : 16 + 4 + 2;
				break;
			case SAMPO_SORT_CPU:
				break;
			case SAMPO_SORT_SRCLINE:
				w = strlen(sampo_hist_entry__srcline(e));
				break;
			case SAMPO_SORT_SRCFILE:
				w = strlen(sampo_hist_entry__srcfile(e));
				break;
			case SAMPO_SORT_TRACE:
			case SAMPO_SORT_TRACE_FIELD:
				break;
			}
			if ((int)w > c->width)
				c->width = (int)w;
		}
	}
	/* hists__set_unres_dso_col_len() */
	for (size_t j = 0; j < ctx->nr_cols; j++)
		if (unresolved && ctx->cols[j].is_key && ctx->cols[j].key == SAMPO_SORT_DSO &&
		    ctx->cols[j].width < 16 && !ctx->field_sep && !ctx->dso_list.nr)
			ctx->cols[j].width = 16;
}

/* perf's repsep_snprintf(): the separator's first character becomes '.' in values */
static void unsep(const struct diff_ctx *ctx, char *s)
{
	if (!ctx->field_sep || !*ctx->field_sep)
		return;
	for (char *p = strchr(s, *ctx->field_sep); p; p = strchr(p, *ctx->field_sep))
		*p = '.';
}

/*
 * one diff column's text, as wide as perf makes it. perf prints the
 * baseline and computed columns with their "color" callbacks whenever
 * there is no field separator (perf_hpp__use_color()), colours or not:
 * %f rather than %F, ratio and wdiff also when zero, wdiff as %14ld
 * whatever the column's width. The others, and all with -t, go through
 * hpp__entry_global().
 */
static void diff_cell(const struct diff_ctx *ctx, const struct sampo_hist_diff *diff,
		      const struct sampo_hist_diff_row *row, const struct column *c, char *out,
		      size_t out_sz)
{
	bool dummy = !sampo_hist_diff_row__entry(row, 0);
	bool paired = c->file && sampo_hist_diff_row__entry(row, c->file);
	bool color = !ctx->field_sep;
	int w = c->width;
	char buf[MAX_COL_WIDTH] = " ";
	double v;
	int64_t wd;

	if (color && (c->kind == COL_BASELINE || c->kind == COL_DELTA ||
		      c->kind == COL_DELTA_ABS || c->kind == COL_RATIO || c->kind == COL_WDIFF)) {
		if (c->kind == COL_BASELINE) {
			if (sampo_hist_diff_row__baseline_percent(diff, row, &v))
				snprintf(out, out_sz, "%*.2f%%", w - 1, v);
			else
				snprintf(out, out_sz, "%*s", w, " ");
			return;
		}
		if (!paired) {
			snprintf(out, out_sz, "%*s", w, " ");
			return;
		}
		if (c->kind == COL_DELTA || c->kind == COL_DELTA_ABS) {
			sampo_hist_diff_row__delta(row, c->file, &v);
			snprintf(out, out_sz, "%+*.2f%%", w - 1, v);
		} else if (dummy) {
			snprintf(out, out_sz, "%*s", w, "N/A");
		} else if (c->kind == COL_RATIO) {
			sampo_hist_diff_row__ratio(row, c->file, &v);
			snprintf(out, out_sz, "%*.6f", w, v);
		} else {
			sampo_hist_diff_row__wdiff(row, c->file, &wd);
			snprintf(out, out_sz, "%14" PRId64, wd);
		}
		return;
	}
	switch (c->kind) {
	case COL_BASELINE:
		if (sampo_hist_diff_row__baseline_percent(diff, row, &v))
			snprintf(buf, sizeof(buf), ctx->field_sep ? "%.2f" : "%6.2f%%", v);
		break;
	case COL_PERIOD_BASELINE:
		snprintf(buf, sizeof(buf), "%" PRIu64, sampo_hist_diff_row__period(row, 0));
		break;
	default:
		if (!paired)
			break;
		switch (c->kind) {
		case COL_DELTA:
		case COL_DELTA_ABS:
			sampo_hist_diff_row__delta(row, c->file, &v);
			snprintf(buf, sizeof(buf), "%+4.2F%%", v);
			break;
		case COL_RATIO:
			if (dummy) {
				snprintf(buf, sizeof(buf), "N/A");
				break;
			}
			sampo_hist_diff_row__ratio(row, c->file, &v);
			if (v > 0.0)
				snprintf(buf, sizeof(buf), "%14.6F", v);
			break;
		case COL_WDIFF:
			if (dummy) {
				snprintf(buf, sizeof(buf), "N/A");
				break;
			}
			sampo_hist_diff_row__wdiff(row, c->file, &wd);
			if (wd)
				snprintf(buf, sizeof(buf), "%14" PRId64, wd);
			break;
		case COL_FORMULA:
			sampo_hist_diff_row__formula(diff, row, c->file, buf, sizeof(buf));
			break;
		case COL_PERIOD:
			snprintf(buf, sizeof(buf), "%" PRIu64,
				 sampo_hist_diff_row__period(row, c->file));
			break;
		default:
			break;
		}
	}
	if (ctx->field_sep)
		snprintf(out, out_sz, "%s", buf);
	else
		snprintf(out, out_sz, "%*s", w, buf);
}

/* one sort key's text; returns its length */
static int key_cell(const struct diff_ctx *ctx, const struct sampo_hist_entry *e,
		    const struct column *c, char *buf, size_t size)
{
	int w = c->width;
	const char *sym;

	switch (c->key) {
	case SAMPO_SORT_COMM:
		snprintf(buf, size, "%-*.*s", w, w, sampo_hist_entry__comm(e));
		break;
	case SAMPO_SORT_PID:
	case SAMPO_SORT_TID: {
		int cw = w > 8 ? w - 8 : 0;

		snprintf(buf, size, "%7d:%-*.*s", (int)sampo_hist_entry__tid(e), cw, cw,
			 sampo_hist_entry__thread_comm(e));
		break;
	}
	case SAMPO_SORT_DSO: {
		const char *dso = sampo_hist_entry__dso_name(e);

		snprintf(buf, size, "%-*.*s", w, w, dso ? dso : "[unknown]");
		break;
	}
	case SAMPO_SORT_SYM:
		sym = sampo_hist_entry__symbol_name(e);
		if (sym)
			snprintf(buf, size, "[%c] %.*s", sampo_hist_entry__level(e),
				 w > 4 ? w - 4 : 0, sym);
		else
			snprintf(buf, size, "[%c] %-#.*" PRIx64, sampo_hist_entry__level(e), 16,
				 sampo_hist_entry__ip(e));
		break;
	case SAMPO_SORT_CPU:
		snprintf(buf, size, "%*.*d", w, w, (int)sampo_hist_entry__cpu(e));
		break;
	case SAMPO_SORT_SRCLINE:
		snprintf(buf, size, "%-.*s", w, sampo_hist_entry__srcline(e));
		break;
	case SAMPO_SORT_SRCFILE:
		snprintf(buf, size, "%-.*s", w, sampo_hist_entry__srcfile(e));
		break;
	case SAMPO_SORT_TRACE:
	case SAMPO_SORT_TRACE_FIELD:
		buf[0] = 0;
		break;
	}
	unsep(ctx, buf);
	return (int)strlen(buf);
}

static void print_table(struct diff_ctx *ctx, const struct sampo_hist_diff *diff, FILE *fp)
{
	const char *sep = ctx->field_sep;
	char buf[1024];

	key_widths(ctx, diff);
	if (!ctx->quiet) {
		/* perf's hists__fprintf_headers() */
		fputs("# ", fp);
		for (size_t j = 0; j < ctx->nr_cols; j++) {
			const struct column *c = &ctx->cols[j];

			if (j)
				fputs(sep ? sep : "  ", fp);
			if (c->is_key)
				fprintf(fp, "%-*.*s", c->width, c->width, key_header(c->key));
			else
				fputs(c->header, fp);
		}
		fputc('\n', fp);
		if (!sep) {
			fputs("# ", fp);
			for (size_t j = 0; j < ctx->nr_cols; j++) {
				if (j)
					fputs("  ", fp);
				for (int k = 0; k < ctx->cols[j].width; k++)
					fputc('.', fp);
			}
			fputs("\n#\n", fp);
		}
	}
	for (size_t i = 0; i < sampo_hist_diff__nr_rows(diff); i++) {
		const struct sampo_hist_diff_row *row = sampo_hist_diff__row(diff, i);

		/* perf's __hist_entry__snprintf(): "  " before each column, or sep between */
		for (size_t j = 0; j < ctx->nr_cols; j++) {
			const struct column *c = &ctx->cols[j];
			int n;

			if (!sep || j)
				fputs(sep ? sep : "  ", fp);
			if (c->is_key) {
				n = key_cell(ctx, sampo_hist_diff_row__key(row), c, buf, sizeof(buf));
				fputs(buf, fp);
			} else {
				diff_cell(ctx, diff, row, c, buf, sizeof(buf));
				n = fprintf(fp, "%s", buf);
			}
			/* hist_entry__snprintf_alignment(): all but the last column fill their width */
			if (j + 1 < ctx->nr_cols && n < c->width)
				fprintf(fp, "%*s", c->width - n, "");
		}
		fputc('\n', fp);
	}
}

/* perf's data_process(): one table per event of the baseline */
static int print_diff(struct diff_ctx *ctx)
{
	struct sampo_reader *base = ctx->files[0].reader;
	/* nr_files is at least 2 (cmd_diff()) */
	const struct sampo_hists **hists = calloc(ctx->nr_files + 1, sizeof(*hists));
	int *evsels = calloc(ctx->nr_files + 1, sizeof(*evsels));
	FILE *fp = stdout;
	int err = 0;

	if (!hists || !evsels) {
		err = cli_err(-ENOMEM, "out of memory");
		goto out;
	}
	for (size_t f = 0; f < ctx->nr_files; f++)
		hists[f] = ctx->files[f].hists;
	for (size_t i = 0; i < sampo_reader__nr_attrs(base); i++) {
		const struct sampo_event_attr *attr = sampo_reader__attr(base, i);
		struct sampo_hist_diff *diff;

		evsels[0] = (int)i;
		for (size_t f = 1; f < ctx->nr_files; f++) {
			struct sampo_reader *r = ctx->files[f].reader;
			size_t nr = sampo_reader__nr_attrs(r);
			const struct sampo_event_attr *attrs[nr ? nr : 1];

			for (size_t j = 0; j < nr; j++)
				attrs[j] = sampo_reader__attr(r, j);
			evsels[f] = sampo_hist_diff__match_event(attr, attrs, nr);
		}
		err = sampo_hist_diff__new(hists, evsels, ctx->nr_files, &ctx->dopts, &diff);
		if (err) {
			err = cli_err(err, "cannot compare the profiles");
			goto out;
		}
		if (!ctx->quiet) {
			fprintf(fp, "%s# Event '%s'\n#\n", i ? "\n" : "",
				sampo_session__evsel_name(ctx->files[0].session, (int)i));
			if (ctx->nr_files > 2) {
				fputs("# Data files:\n", fp);
				for (size_t f = 0; f < ctx->nr_files; f++)
					fprintf(fp, "#  [%zu] %s %s\n", f, ctx->files[f].path,
						f ? "" : "(Baseline)");
				fputs("#\n", fp);
			}
		}
		print_table(ctx, diff, fp);
		sampo_hist_diff__delete(diff);
	}
	if (fflush(fp) || ferror(fp))
		err = errno == EPIPE ? -EPIPE : cli_err(-EIO, "cannot write the comparison");
out:
	free(hists);
	free(evsels);
	return err;
}

static int parse_lists(struct diff_ctx *ctx)
{
	char errbuf[256] = "";
	int err;

	err = sampo_sort_keys__parse(ctx->sort ? ctx->sort : "dso,sym", ctx->sort_keys,
				     SAMPO_SORT_MAX_KEYS, &ctx->nr_sort_keys, errbuf, sizeof(errbuf));
	if (err)
		return err == -EINVAL ? cli_err(0, "%s", errbuf) : cli_err(err, "out of memory");
	for (size_t i = 0; i < ctx->nr_sort_keys; i++)
		if (ctx->sort_keys[i] == SAMPO_SORT_TRACE)
			return cli_err(0, "sort key 'trace' is report's (tracepoint output): "
					  "sampo diff does not take it");
	if ((ctx->comms && cli_split_words(ctx->comms, &ctx->comm_list)) ||
	    (ctx->dsos && cli_split_words(ctx->dsos, &ctx->dso_list)) ||
	    (ctx->syms && cli_split_words(ctx->syms, &ctx->sym_list)))
		return cli_err(-ENOMEM, "out of memory");
	ctx->dopts.comms = ctx->comm_list.words;
	ctx->dopts.nr_comms = ctx->comm_list.nr;
	ctx->dopts.dsos = ctx->dso_list.words;
	ctx->dopts.nr_dsos = ctx->dso_list.nr;
	ctx->dopts.syms = ctx->sym_list.words;
	ctx->dopts.nr_syms = ctx->sym_list.nr;
	return 0;
}

int cmd_diff(int argc, const char **argv)
{
	struct diff_ctx ctx = { .order = 1, .dopts = { .sz = sizeof(ctx.dopts) } };
	bool stdio = false;
	const struct option opts[] = {
		OPT_BOOLEAN(0, "stdio", &stdio, "text output (the only one sampo has)"),
		OPT_BOOLEAN('q', "quiet", &ctx.quiet, "print only the rows, without headers"),
		OPT_STRING('c', "compute", &ctx.compute_str, "delta,delta-abs,ratio,wdiff:w1,w2",
			   "what to compute for each new file (default delta-abs)"),
		OPT_BOOLEAN('p', "period", &ctx.show_period, "show the periods"),
		OPT_BOOLEAN('F', "formula", &ctx.show_formula, "show the formula"),
		OPT_INTEGER('o', "order", &ctx.order, "n",
			    "sort first by the column of file n (default 1; 0: by baseline)"),
		OPT_BOOLEAN('b', "baseline-only", &ctx.baseline_only,
			    "only the entries of the baseline that a new file has too"),
		OPT_STRING('s', "sort", &ctx.sort, "key[,key...]",
			   "pair entries by comm, pid, tid, dso, sym, cpu (default: dso,sym)"),
		OPT_STRING(0, "percentage", &ctx.percentage, "relative|absolute",
			   "percentages of the filtered entries only, or of all (default)"),
		OPT_STRING('t', "field-separator", &ctx.field_sep, "separator",
			   "separate columns with this, without padding"),
		OPT_GROUP("Filters"),
		OPT_STRING('C', "comms", &ctx.comms, "comm[,comm...]", "only these commands"),
		OPT_STRING('d', "dsos", &ctx.dsos, "dso[,dso...]", "only these shared objects"),
		OPT_STRING('S', "symbols", &ctx.syms, "symbol[,symbol...]", "only these symbols"),
		OPT_GROUP("Symbols"),
		OPT_STRING('k', "vmlinux", &ctx.vmlinux, "file", "the kernel's vmlinux"),
		OPT_STRING(0, "kallsyms", &ctx.kallsyms, "file", "the kernel's kallsyms snapshot"),
		OPT_STRING(0, "symfs", &ctx.symfs, "dir", "look for files under this root too"),
		OPT_BOOLEAN('f', "force", &ctx.force,
			    "use files whose build-id differs, and other users' JIT perf maps"),
		OPT_DEBUGINFOD(),
		OPT_END(),
	};
	static const char *defaults[] = { "perf.data.old", "perf.data" };
	int ret;

	argc = parse_options(argc, argv, opts, diff_usage, 0);
	if (argc < 0)
		return argc;
	(void)stdio;
	if (ctx.field_sep && !*ctx.field_sep)
		return usage_error(diff_usage, opts, "an empty --field-separator");
	ctx.nr_files = argc >= 2 ? (size_t)argc : 2;
	if (ctx.order < 0 || (size_t)ctx.order >= ctx.nr_files)
		return usage_error(diff_usage, opts,
				   "-o %d: order option out of limit (files 0 to %zu)", ctx.order,
				   ctx.nr_files - 1);
	ctx.dopts.order = (unsigned int)ctx.order;
	ctx.dopts.baseline_only = ctx.baseline_only;
	if (ctx.percentage) {
		if (!strcmp(ctx.percentage, "relative"))
			ctx.dopts.relative = true;
		else if (strcmp(ctx.percentage, "absolute"))
			return usage_error(diff_usage, opts,
					   "--percentage '%s': use relative or absolute",
					   ctx.percentage);
	}
	if (ctx.compute_str) {
		ret = parse_compute(&ctx);
		if (ret)
			return ret;
	}
	ctx.files = calloc(ctx.nr_files, sizeof(*ctx.files));
	if (!ctx.files)
		return cli_err(-ENOMEM, "out of memory");
	for (size_t i = 0; i < ctx.nr_files; i++)
		ctx.files[i].path = argc >= 2 ? argv[i] : (argc == 1 && i) ? argv[0] : defaults[i];

	ret = parse_lists(&ctx);
	for (size_t i = 0; !ret && i < ctx.nr_files; i++) {
		ret = open_file(&ctx, &ctx.files[i]);
		if (!ret)
			ret = read_file(&ctx.files[i]);
	}
	if (!ret) {
		setup_columns(&ctx);
		ret = print_diff(&ctx);
	}
	for (size_t i = 0; i < ctx.nr_files; i++) {
		sampo_hists__delete(ctx.files[i].hists);
		sampo_session__close(ctx.files[i].session);
	}
	free(ctx.files);
	cli_word_list_release(&ctx.comm_list);
	cli_word_list_release(&ctx.dso_list);
	cli_word_list_release(&ctx.sym_list);
	return ret;
}
