// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-report.c - sampo report: the profile as `perf report --stdio` prints it
 *
 * Opens the file through a session (lib/session.c), which reads the records
 * in time order into the machine (threads and maps); every sample goes on its
 * symbol through the session's symbolizer (build-id matched files only) and
 * into the histograms (lib/hist.c); then one table per event is printed,
 * under the event's name as the session knows it (EVENT_UPDATE included). The aliases "report -D" and "report --header-only" are handled by
 * main.c before this runs.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/branch-hists.h>
#include <sampo/cpuset.h>
#include <sampo/event.h>
#include <sampo/evsel.h>
#include <sampo/feature.h>
#include <sampo/hist.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/sample.h>
#include <sampo/session.h>
#include <sampo/symbolizer.h>
#include <sampo/time-range.h>
#include <sampo/trace-data.h>

#include "archive-read.h"
#include "builtin.h"
#include "cli.h"
#include "debuginfod-cli.h"
#include "evswitch.h"
#include "format-json.h"
#include "options.h"
#include "outbuf.h"
#include "pprof.h"
#include "progress.h"
#include "pager.h"
#include "report-hosts.h"
#include "unwind-cli.h"
#include "report-provenance.h"
#include "report-tasks.h"
#include "resolve.h"

static const char *const report_usage[] = {
	"sampo report [<options>]",
	"",
	"Show where the samples of a perf.data file went, per command, object and",
	"symbol, as 'perf report --stdio' does.",
	NULL,
};

/* the words of a comma separated option, pointing into one copy of it */
struct report_ctx {
	/* options */
	const char *input;    /* the first -i */
	const char **inputs; /* every -i, for a report of several files */
	size_t nr_inputs;
	int threads;
	const char *sort;
	const char *call_graph;
	const char *vmlinux;
	const char *kallsyms;
	const char *symfs;
	const char *guest_vmlinux, *guest_kallsyms, *guestmount;
	bool guest;
	const char *comms, *dsos, *symbols, *pids, *tids, *cpus;
	const char *percent_limit;
	const char *percentage; /* --percentage relative|absolute */
	const char *time_str;	/* --time */
	struct evswitch evswitch; /* --switch-on, --switch-off */
	int children; /* -1: the default for the file */
	int branch_stack; /* -b: 1, --no-branch-stack: 0, -1: the file's default */
	int group;	  /* --group: 1, --no-group: 0, -1: the file's groups (perf's default) */
	bool inverted;
	bool inline_frames; /* --inline */
	bool no_callchain;
	bool graph_asked; /* -g without a mode, or a --call-graph other than none */
	bool show_nr_samples;
	bool header, show_info; /* --header [-I]: the file's header first */
	bool quiet;		/* -q: the rows alone, no warnings */
	bool force;
	bool provenance; /* --provenance: where each object's symbols came from, no table */
	bool tasks, mmaps; /* --tasks, --mmaps: the process tree (with maps), no table */
	int max_stack;
	const char *format; /* --format: NULL or "stdio"/"text", "json", "pprof" */
	const char *output; /* -o: the file of --format pprof */

	/* state */
	struct sampo_session *session;
	struct sampo_reader *reader;	     /* the session's */
	struct sampo_symbolizer *symbolizer; /* the session's */
	struct sampo_hists *hists; /* a pipe's: made at its first sample (start_hists()) */
	struct sampo_hists_opts *hopts;
	struct sampo_unwind_pool *unwind_pool; /* --call-graph dwarf files: on every CPU */
	unsigned int hists_max_stack;	       /* --max-stack, for the unwound part */
	struct sampo_branch_hists *bhists; /* the branch view, instead of hists' rows */
	struct sampo_evsel_group *groups;  /* one per event, after the samples; NULL: none */
	size_t nr_groups;
	bool group_view;		   /* the leaders' tables show their members */
	bool forced_group;		   /* --group on a file without groups: all events */
	struct progress progress;
	struct cli_trace_resolver resolver; /* the trace key's %ps (a file's tracing data) */

	struct sampo_time_range *time_ranges; /* --time: samples outside are left out */
	size_t nr_time_ranges;

	bool trace_default; /* every event a tracepoint: perf's default sort "trace" */
	bool raw_trace;	    /* --raw-trace */
	/* the hists' options, parsed from the strings above */
	enum sampo_sort_key sort_keys[SAMPO_SORT_MAX_KEYS];
	size_t nr_sort_keys;
	struct sampo_trace_field_key trace_fields[SAMPO_SORT_MAX_KEYS];
	size_t nr_trace_fields;
	struct cli_word_list comm_list, dso_list, symbol_list;
	int32_t *pid_list, *tid_list;
	struct sampo_cpu_set *cpu_set;
};

/*
 * The library's warnings (a file with another build-id, no kernel symbols)
 * are held back until the file has been read: an unreadable file then gets
 * its one error line alone, and a progress bar is never broken up. The hook
 * has no context argument, hence this one static.
 */
static FILE *held_warnings;
static char *held_buf;
static size_t held_len;
static sampo_print_fn held_previous;

static int hold_warning(enum sampo_log_level level, const char *fmt, va_list ap)
{
	if (level > SAMPO_LOG_WARN || !held_warnings)
		return 0;
	return vfprintf(held_warnings, fmt, ap);
}

static void hold_warnings(void)
{
	held_warnings = open_memstream(&held_buf, &held_len);
	if (held_warnings)
		held_previous = sampo_set_print(hold_warning);
}

/* print (@show) or drop what was held, one "warning:" line per message line */
static void release_warnings(bool show)
{
	char *line, *save = NULL;

	if (!held_warnings)
		return;
	sampo_set_print(held_previous);
	fclose(held_warnings);
	held_warnings = NULL;
	for (line = strtok_r(held_buf, "\n", &save); show && line; line = strtok_r(NULL, "\n", &save))
		fprintf(stderr, "sampo report: warning: %s\n", line);
	free(held_buf);
	held_buf = NULL;
	held_len = 0;
}

static bool file_has_callchains(struct sampo_reader *reader)
{
	for (size_t i = 0; i < sampo_reader__nr_attrs(reader); i++)
		if (sampo_reader__attr(reader, i)->sample_type & SAMPO_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

/*
 * perf's -g/--call-graph: "graph,0.5,caller,function,percent" in any order.
 * Only what sampo prints is accepted: the graph mode, the threshold, the
 * order, function keys and percent values.
 */
static int parse_call_graph(const char *arg, struct sampo_hists_opts *o, bool *none)
{
	char *copy = strdup(arg), *save = NULL;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		double v;

		if (!strcmp(tok, "graph") || !strcmp(tok, "folded") || !strcmp(tok, "fractal") ||
		    !strcmp(tok, "flat")) {
			o->graph_folded = !strcmp(tok, "folded");
			o->graph_fractal = !strcmp(tok, "fractal");
			o->graph_flat = !strcmp(tok, "flat");
			continue;
		}
		if (!strcmp(tok, "function") || !strcmp(tok, "percent") || !strcmp(tok, "period")) {
			o->graph_period = !strcmp(tok, "period");
			continue;
		}
		if (!strcmp(tok, "none")) {
			*none = true;
			continue;
		}
		if (!strcmp(tok, "caller") || !strcmp(tok, "callee")) {
			o->caller_order = !strcmp(tok, "caller");
			continue;
		}
		v = strtod(tok, &end);
		if (end != tok && !*end && v >= 0 && v <= 100) {
			o->callchain_min_percent = v;
			continue;
		}
		err = cli_err(-EINVAL,
			      "unsupported --call-graph value '%s' (sampo knows graph, fractal, "
			      "flat, folded, none, caller, callee, a percent, function, percent "
			      "and period)",
			      tok);
		break;
	}
	free(copy);
	return err;
}

/*
 * perf's default sort for a file whose events are all tracepoints (its
 * get_default_sort_order()): "trace", the samples' trace output. A pipe's
 * events come after perf has chosen (its evlist is empty then): comm,dso,sym.
 */
static bool all_tracepoints(struct sampo_reader *reader, bool is_pipe)
{
	size_t nr = sampo_reader__nr_attrs(reader);

	if (is_pipe || !nr)
		return false;
	for (size_t i = 0; i < nr; i++)
		if (sampo_reader__attr(reader, i)->type != SAMPO_TYPE_TRACEPOINT)
			return false;
	return true;
}

/* a word made of call graph settings ("caller", "graph,0.5,callee") */
static bool looks_like_call_graph(const char *arg)
{
	static const char *const words[] = { "graph", "none",	  "caller", "callee",
					     "function", "percent", "flat", "fractal",
					     "folded", "address", "period", "count" };
	const char *p = arg;

	if (!*arg || *arg == '-')
		return false;
	while (*p) {
		size_t len = strcspn(p, ",");
		bool known = len && (strspn(p, "0123456789.") == len);

		for (size_t i = 0; !known && i < sizeof(words) / sizeof(words[0]); i++)
			known = strlen(words[i]) == len && !strncmp(p, words[i], len);
		if (!known)
			return false;
		p += len;
		if (*p == ',')
			p++;
	}
	return true;
}

static int parse_percent(const char *s, double *ret)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || (*end && strcmp(end, "%")) || v < 0 || v > 100)
		return -EINVAL;
	*ret = v;
	return 0;
}

/* @key as the next sort key, unless it is one already (perf ignores a repeated key) */
static int add_key(struct report_ctx *ctx, enum sampo_sort_key key)
{
	for (size_t i = 0; i < ctx->nr_sort_keys; i++) {
		enum sampo_sort_key k = ctx->sort_keys[i];

		if (k == key || ((k == SAMPO_SORT_PID || k == SAMPO_SORT_TID) &&
				 (key == SAMPO_SORT_PID || key == SAMPO_SORT_TID)))
			return 0;
	}
	if (ctx->nr_sort_keys == SAMPO_SORT_MAX_KEYS)
		return cli_err(0, "more than %d sort keys", SAMPO_SORT_MAX_KEYS);
	ctx->sort_keys[ctx->nr_sort_keys++] = key;
	return 0;
}

/* field @name of event @evsel as the next sort key */
static int add_field_key(struct report_ctx *ctx, int evsel, const char *name, bool raw)
{
	if (ctx->nr_sort_keys == SAMPO_SORT_MAX_KEYS)
		return cli_err(0, "more than %d sort keys", SAMPO_SORT_MAX_KEYS);
	ctx->sort_keys[ctx->nr_sort_keys++] = SAMPO_SORT_TRACE_FIELD;
	ctx->trace_fields[ctx->nr_trace_fields++] =
		(struct sampo_trace_field_key){ .evsel = evsel, .field = name, .raw = raw };
	return 0;
}

/* every field of tracepoint event @evsel, in its format's order */
static int add_event_fields(struct report_ctx *ctx, struct sampo_trace_data *td, int evsel,
			    bool raw)
{
	uint64_t config = sampo_reader__attr(ctx->reader, (size_t)evsel)->config;
	struct sampo_trace_field f;
	int err = 0;

	for (size_t i = 0; !err && !sampo_trace_data__field_at(td, config, i, &f); i++)
		err = add_field_key(ctx, evsel, f.name, raw);
	return err;
}

static bool is_tracepoint(struct report_ctx *ctx, size_t evsel)
{
	return sampo_reader__attr(ctx->reader, evsel)->type == SAMPO_TYPE_TRACEPOINT;
}

/*
 * perf's find_evsel(): "%N" the N-th event (a number past the last: none),
 * a full name (with ':'), or a part of one name; -1: none, or a part that
 * names two
 */
static int find_event(struct report_ctx *ctx, const char *name)
{
	size_t nr = sampo_reader__nr_attrs(ctx->reader);
	bool full = strchr(name, ':');
	int found = -1;

	if (name[0] == '%') {
		long n = strtol(name + 1, NULL, 0);

		if (n > (long)nr || !nr)
			return -1;
		return n > 1 ? (int)n - 1 : 0;
	}
	for (size_t i = 0; i < nr; i++) {
		const char *ev = sampo_session__evsel_name(ctx->session, (int)i);

		if (!ev)
			continue;
		if (full && !strcmp(ev, name))
			return (int)i;
		if (!full && strstr(ev, name)) {
			if (found >= 0)
				return -1;
			found = (int)i;
		}
	}
	return found;
}

/*
 * A tracepoint field as sort keys (perf's add_dynamic_entry()): FIELD, that
 * field of each tracepoint event that has one (a common one too:
 * common_pid); EVENT.FIELD; EVENT.*, every field of the event;
 * trace_fields, every field of every tracepoint event. "/raw" after one
 * shows the value as libtraceevent prints the field alone. Return: 0, or
 * -ENOENT (not a field of these events), or an error said.
 */
static int add_trace_field_keys(struct report_ctx *ctx, const char *word, bool raw_trace)
{
	struct sampo_trace_data *td = sampo_session__trace_data(ctx->session);
	size_t nr = sampo_reader__nr_attrs(ctx->reader), before = ctx->nr_sort_keys;
	char *copy = strdup(word), *event = NULL, *field = copy, *opt;
	struct sampo_trace_field f;
	int err = -ENOENT, evsel;

	if (!copy)
		return cli_err(-ENOMEM, "out of memory");
	if (strchr(copy, '.')) {
		event = copy;
		field = strchr(copy, '.');
		*field++ = 0;
	}
	opt = strchr(field, '/');
	if (opt) {
		*opt++ = 0;
		if (strcmp(opt, "raw")) {
			err = cli_err(0, "sort key '%s': unknown field option '%s' (only raw)",
				      word, opt);
			goto out;
		}
		raw_trace = true;
	}
	if (!td || sampo_session__is_pipe(ctx->session))
		goto out;
	if (!strcmp(field, "trace_fields")) {
		err = 0;
		for (size_t i = 0; !err && i < nr; i++)
			if (is_tracepoint(ctx, i))
				err = add_event_fields(ctx, td, (int)i, raw_trace);
		goto out;
	}
	if (!event) {
		for (size_t i = 0; i < nr; i++) {
			if (!is_tracepoint(ctx, i) ||
			    sampo_trace_data__find_field(
				    td, sampo_reader__attr(ctx->reader, i)->config, field, &f))
				continue;
			err = add_field_key(ctx, (int)i, f.name, raw_trace);
			if (err)
				goto out;
		}
		err = ctx->nr_sort_keys > before ? 0 : -ENOENT;
		goto out;
	}
	evsel = find_event(ctx, event);
	if (evsel < 0) {
		err = cli_err(0, "sort key '%s': no event '%s' in '%s' (or more than one)", word,
			      event, ctx->input);
		goto out;
	}
	if (!is_tracepoint(ctx, (size_t)evsel)) {
		err = cli_err(0, "sort key '%s': %s is not a tracepoint event", word,
			      sampo_session__evsel_name(ctx->session, evsel));
		goto out;
	}
	if (!strcmp(field, "*")) {
		err = add_event_fields(ctx, td, evsel, raw_trace);
	} else if (sampo_trace_data__find_field(
			   td, sampo_reader__attr(ctx->reader, (size_t)evsel)->config, field, &f)) {
		err = cli_err(0, "sort key '%s': %s has no field '%s'", word,
			      sampo_session__evsel_name(ctx->session, evsel), field);
	} else {
		err = add_field_key(ctx, evsel, f.name, raw_trace);
	}
out:
	free(copy);
	return err;
}

/*
 * -s: perf's key names (the library parses them for any program), then
 * the fields of the file's tracepoints, which need its events
 */
static int parse_sort(struct report_ctx *ctx, const char *list)
{
	const char *p = list;
	bool any = false;

	while (*p) {
		size_t len = strcspn(p, ",");
		char errbuf[256] = "", *word;
		enum sampo_sort_key key;
		size_t nr;
		int err;

		if (len) {
			any = true;
			word = strndup(p, len);
			if (!word)
				return cli_err(-ENOMEM, "out of memory");
			err = sampo_sort_keys__parse(word, &key, 1, &nr, errbuf, sizeof(errbuf));
			if (!err)
				err = add_key(ctx, key);
			else if (err == -EINVAL)
				err = add_trace_field_keys(ctx, word, ctx->raw_trace);
			if (err == -ENOENT && sampo_session__is_pipe(ctx->session))
				err = cli_err(
					0,
					"%s; a pipe's tracepoint fields are not known when "
					"the keys are chosen, as in perf: report a file for them",
					errbuf);
			else if (err == -ENOENT)
				err = cli_err(
					0,
					"%s, nor a field of a tracepoint event of '%s' (FIELD, "
					"EVENT.FIELD, EVENT.*, trace_fields; /raw for raw values)",
					errbuf, ctx->input);
			free(word);
			if (err)
				return err == -ENOMEM ? cli_err(err, "out of memory") : err;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (!any)
		return cli_err(0, "empty sort key list");
	return 0;
}

/*
 * The sort keys and filters of the hists' options. The CLI parses the lists
 * (the library takes them typed); sort key names and CPU lists are perf's
 * syntax, which the library parses for any program that takes them.
 */
static int parse_hists_lists(struct report_ctx *ctx, struct sampo_hists_opts *hopts)
{
	char errbuf[256] = "";
	int err;

	if (ctx->sort) {
		err = parse_sort(ctx, ctx->sort);
		if (err)
			return err;
		hopts->sort_keys = ctx->sort_keys;
		hopts->nr_sort_keys = ctx->nr_sort_keys;
		hopts->trace_fields = ctx->trace_fields;
		hopts->nr_trace_fields = ctx->nr_trace_fields;
	}
	hopts->raw_trace = ctx->raw_trace;
	if (ctx->comms) {
		if (cli_split_words(ctx->comms, &ctx->comm_list))
			return cli_err(-ENOMEM, "out of memory");
		hopts->comms = ctx->comm_list.words;
		hopts->nr_comms = ctx->comm_list.nr;
	}
	if (ctx->dsos) {
		if (cli_split_words(ctx->dsos, &ctx->dso_list))
			return cli_err(-ENOMEM, "out of memory");
		hopts->dsos = ctx->dso_list.words;
		hopts->nr_dsos = ctx->dso_list.nr;
	}
	if (ctx->symbols) {
		if (cli_split_words(ctx->symbols, &ctx->symbol_list))
			return cli_err(-ENOMEM, "out of memory");
		hopts->symbols = ctx->symbol_list.words;
		hopts->nr_symbols = ctx->symbol_list.nr;
	}
	if (ctx->pids) {
		err = cli_parse_ids("pid", ctx->pids, &ctx->pid_list, &hopts->nr_pids);
		if (err)
			return err;
		hopts->pids = ctx->pid_list;
	}
	if (ctx->tids) {
		err = cli_parse_ids("tid", ctx->tids, &ctx->tid_list, &hopts->nr_tids);
		if (err)
			return err;
		hopts->tids = ctx->tid_list;
	}
	if (ctx->cpus) {
		err = sampo_cpu_set__parse(ctx->cpus, &ctx->cpu_set, errbuf, sizeof(errbuf));
		if (err)
			return err == -EINVAL ? cli_err(0, "%s", errbuf) :
						cli_err(err, "out of memory");
		hopts->cpus = ctx->cpu_set;
	}
	return 0;
}

static int report_unwound(void *arg, struct sampo_machine *machine, struct sampo_thread *thread,
			  const struct sampo_sample *sample, size_t nr_user, int evsel);

/*
 * perf's branch view: the default when the file's header has the BRANCH_STACK
 * feature (so never for a pipe), -b asks for it, --no-branch-stack not.
 * sampo's has perf's default keys only: with options it does not take, the
 * plain report follows (with -b: an error).
 */
static int setup_branch_view(struct report_ctx *ctx, const struct sampo_hists_opts *hopts,
			     bool is_pipe)
{
	bool has_data = false, other;
	int err;

	if (!ctx->branch_stack ||
	    (ctx->branch_stack < 0 && !sampo_reader__has_feature(ctx->reader, SAMPO_FEAT_BRANCH_STACK)))
		return 0;
	for (size_t i = 0; i < sampo_reader__nr_attrs(ctx->reader); i++)
		if (sampo_reader__attr(ctx->reader, i)->sample_type & SAMPO_SAMPLE_BRANCH_STACK)
			has_data = true;
	if (!has_data && !is_pipe)
		return ctx->branch_stack > 0 ?
			       cli_err(0, "'%s' has no branch stacks (recorded without -b): remove -b",
				       ctx->input) :
			       0;
	other = ctx->sort || ctx->format || hopts->graph_folded || hopts->graph_fractal ||
		hopts->graph_flat || ctx->comms || ctx->dsos || ctx->symbols || ctx->pids ||
		ctx->tids || ctx->cpus || ctx->show_nr_samples || ctx->percent_limit;
	if (other) {
		if (ctx->branch_stack > 0)
			return cli_err(0, "the branch view (-b) takes none of -s, -n, --percent-limit, "
					  "the filters, -g folded or --format in sampo (yet)");
		cli_warn("'%s' has branch stacks: perf shows its branch view, which sampo does not "
			 "combine with these options (yet); the plain report follows",
			 ctx->input);
		return 0;
	}
	err = sampo_branch_hists__new(sampo_session__machine(ctx->session), ctx->symbolizer,
				      &ctx->bhists);
	return err ? cli_err(err, "cannot set up the branch view") : 0;
}

static int start_hists(struct report_ctx *ctx);

/*
 * --time: its windows, shares of the time between the first and the last
 * sample as the file's SAMPLE_TIME feature gives them (a pipe's come too
 * late, as in perf)
 */
static int parse_time(struct report_ctx *ctx)
{
	const struct sampo_features *f = sampo_session__features(ctx->session);
	char errbuf[512] = "";
	int err;

	err = sampo_time_ranges__parse(ctx->time_str, f ? f->first_sample_time : 0,
				       f ? f->last_sample_time : 0, &ctx->time_ranges,
				       &ctx->nr_time_ranges, errbuf, sizeof(errbuf));
	if (err == -EINVAL)
		return cli_err(0, "%s", errbuf);
	return err ? cli_err(err, "out of memory") : 0;
}

static int setup(struct report_ctx *ctx, struct sampo_hists_opts *hopts)
{
	char errbuf[256] = "";
	SAMPO_OPTS(sampo_symbolizer_opts, sopts, .symfs = ctx->symfs, .vmlinux = ctx->vmlinux,
		   .kallsyms = ctx->kallsyms, .force = ctx->force,
		   .guest_vmlinux = ctx->guest_vmlinux, .guest_kallsyms = ctx->guest_kallsyms,
		   .guestmount = ctx->guestmount);
	/* a damaged feature is left out with one warning, as perf goes on too */
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true, .threaded = true,
		   .machine_after_tool = true,
		   .features = SAMPO_SESSION_FEATURES_EACH, .guests = ctx->guest,
		   .symbolizer = &sopts, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	const struct sampo_feature_error *ferr;
	bool none = false, is_pipe, has_chains;
	int err, nr_damaged;

	cli_debuginfod_apply(&sopts);

	err = sampo_session__open(ctx->input, &opts, &ctx->session);
	if (err)
		return cli_err_open(err, ctx->input, errbuf);
	nr_damaged = sampo_session__damaged_features(ctx->session, &ferr);
	if (nr_damaged)
		cli_warn_damaged_features(ctx->input, nr_damaged, ferr);
	ctx->reader = sampo_session__reader(ctx->session);
	is_pipe = sampo_session__is_pipe(ctx->session);
	if (ctx->header && is_pipe)
		return cli_err(0,
			       "--header: '%s' is a pipe, which is read once: the header "
			       "alone is 'sampo header', or record to a file",
			       ctx->input);
	if (ctx->time_str) {
		err = parse_time(ctx);
		if (err)
			return err;
	}

	/*
	 * perf's defaults: call graphs when the file has callchains, in
	 * children mode, caller first. A pipe's attrs come later, so perf
	 * sets up no children there but keeps the graphs (and their order).
	 */
	has_chains = is_pipe || file_has_callchains(ctx->reader);
	hopts->callchain = has_chains && !ctx->no_callchain;
	if (ctx->children < 0)
		hopts->children = !is_pipe && has_chains;
	else
		hopts->children = ctx->children && has_chains;
	hopts->caller_order = ctx->children != 0;
	if (ctx->inverted)
		hopts->caller_order = true;
	hopts->inline_frames = ctx->inline_frames;
	if (ctx->call_graph) {
		err = parse_call_graph(ctx->call_graph, hopts, &none);
		if (err)
			return err;
		if (none)
			hopts->no_graph = true;
		else
			ctx->graph_asked = true;
		if (hopts->graph_period && !hopts->graph_folded && !hopts->graph_flat)
			return cli_err(0, "--call-graph period: sampo prints periods in folded and "
					  "flat graphs only (-g folded,period)");
	}
	/* perf's report__setup_sample_type(): graphs asked of a file without chains */
	if (ctx->graph_asked && !is_pipe && !has_chains)
		return cli_err(0, "'%s' has no call chains (recorded without -g or --call-graph): "
				  "report it without -g",
			       ctx->input);
	hopts->max_stack = ctx->max_stack > 0 ? (unsigned int)ctx->max_stack : 0;
	ctx->hists_max_stack = hopts->max_stack;
	hopts->show_nr_samples = ctx->show_nr_samples;
	if (ctx->percentage) {
		/* perf's parse_filter_percentage() */
		if (strcmp(ctx->percentage, "relative") && strcmp(ctx->percentage, "absolute"))
			return usage_error(report_usage, NULL,
					   "invalid --percentage '%s' (relative or absolute)",
					   ctx->percentage);
		hopts->percentage_relative = !strcmp(ctx->percentage, "relative");
	}
	if (ctx->percent_limit) {
		if (parse_percent(ctx->percent_limit, &hopts->percent_limit))
			return usage_error(report_usage, NULL, "invalid --percent-limit '%s'",
					   ctx->percent_limit);
		/* perf's parse_percent_limit() sets both */
		hopts->callchain_min_percent = hopts->percent_limit;
	}
	if (ctx->cpus) {
		bool has_cpu = is_pipe;

		for (size_t i = 0; i < sampo_reader__nr_attrs(ctx->reader); i++)
			if (sampo_reader__attr(ctx->reader, i)->sample_type & SAMPO_SAMPLE_CPU)
				has_cpu = true;
		if (!has_cpu)
			return cli_err(0, "'%s' has no CPU in its samples: remove --cpu", ctx->input);
	}
	err = parse_hists_lists(ctx, hopts);
	if (err)
		return err;
	if (!ctx->sort && all_tracepoints(ctx->reader, is_pipe)) {
		/* with --raw-trace perf's default is trace_fields */
		err = parse_sort(ctx, ctx->raw_trace ? "trace_fields" : "trace");
		if (err)
			return err;
		hopts->sort_keys = ctx->sort_keys;
		hopts->nr_sort_keys = ctx->nr_sort_keys;
		hopts->trace_fields = ctx->trace_fields;
		hopts->nr_trace_fields = ctx->nr_trace_fields;
		ctx->trace_default = true;
	}
	ctx->hopts = hopts;
	/* a pipe's features (its OS release, for the kernel) come with its records */
	return is_pipe ? 0 : start_hists(ctx);
}

/*
 * The symbolizer and what is built on it: the histograms, the unwind pool,
 * the branch view. A file's features are known at open; a pipe's come as
 * records (perf record -o - writes them before the first sample), so a
 * pipe's are made at its first sample, as script makes its symbolizer: the
 * running kernel is then taken when its release is the recorded one, in
 * report as in script.
 */
static int start_hists(struct report_ctx *ctx)
{
	struct sampo_hists_opts *hopts = ctx->hopts;
	bool by_trace = false;
	int err;

	if (evswitch_active(&ctx->evswitch) &&
	    evswitch_setup(&ctx->evswitch, ctx->session, sampo_reader__nr_attrs(ctx->reader),
			   ctx->input))
		return CLI_EXIT_FAILURE;
	ctx->symbolizer = sampo_session__symbolizer(ctx->session);
	if (!ctx->symbolizer)
		return cli_err(0, "%s", sampo_session__error(ctx->session));
	err = sampo_hists__new(sampo_session__machine(ctx->session), ctx->symbolizer, hopts,
			       &ctx->hists);
	if (err)
		return cli_err(err, "cannot set up the histograms");
	for (size_t i = 0; i < hopts->nr_sort_keys && hopts->sort_keys; i++)
		if (hopts->sort_keys[i] == SAMPO_SORT_TRACE ||
		    hopts->sort_keys[i] == SAMPO_SORT_TRACE_FIELD)
			by_trace = true;
	if (by_trace)
		sampo_hists__set_trace_session(ctx->hists, ctx->session);
	/*
	 * perf report names kernel functions (%ps) of a file's tracing data,
	 * not a pipe's (read after perf registered its resolver), as script
	 */
	if (by_trace && !sampo_session__is_pipe(ctx->session) &&
	    sampo_session__trace_data(ctx->session)) {
		ctx->resolver = (struct cli_trace_resolver){
			.symbolizer = ctx->symbolizer,
			.machine = sampo_session__machine(ctx->session),
		};
		sampo_trace_data__set_resolver(sampo_session__trace_data(ctx->session),
					       cli_trace_func, &ctx->resolver);
	}
	/* perf unwinds DWARF stacks only for call chains */
	if (hopts->callchain) {
		err = cli_unwind_pool_open(ctx->session, report_unwound, ctx, &ctx->unwind_pool);
		if (err)
			return err;
	}
	return setup_branch_view(ctx, hopts, sampo_session__is_pipe(ctx->session));
}

/*
 * Modules whose sections were placed by redoing the loader's layout (the
 * file has no section maps): right for their text, but say so.
 */
static void note_layout_modules(struct report_ctx *ctx)
{
	char line[1024];
	size_t len = 0;

	for (size_t i = 0; i < sampo_hists__nr_dsos(ctx->hists); i++) {
		struct sampo_dso *dso = sampo_hists__dso(ctx->hists, i);
		struct sampo_symbolizer_dso_info info;

		if (sampo_symbolizer__dso_info(ctx->symbolizer, dso, &info) ||
		    info.placement != SAMPO_PLACED_LAYOUT)
			continue;
		len += (size_t)snprintf(line + len, len < sizeof(line) ? sizeof(line) - len : 0,
					"%s%s", len ? ", " : "", sampo_dso__short_name(dso));
		if (len >= sizeof(line))
			break;
	}
	if (len)
		fprintf(stderr,
			"sampo report: note: no section maps in the file; these modules were placed "
			"by redoing the kernel's module layout: %s\n",
			line);
}

static void update_progress(struct report_ctx *ctx)
{
	if (ctx->progress.enabled)
		progress_update(&ctx->progress, sampo_reader__stats(ctx->reader)->bytes_read);
}

/*
 * Whether the parts of @s the unwind pool reads stay valid until it delivers
 * @s: in a file mapped whole they do, and the pool then points at them (no
 * copy of the 8 KiB stack a sample); a pipe's or a decompressed record goes
 * away after the callback and is copied.
 */
static bool sample_in_place(struct report_ctx *ctx, const struct sampo_sample *s)
{
	struct sampo_reader *r = ctx->reader;

	return (!s->user_regs.regs ||
		sampo_reader__stable(r, s->user_regs.regs,
				     (size_t)__builtin_popcountll(s->user_regs.mask) *
					     sizeof(uint64_t))) &&
	       (!s->user_stack || sampo_reader__stable(r, s->user_stack, s->user_stack_dyn_size)) &&
	       (!s->callchain ||
		sampo_reader__stable(r, s->callchain, s->callchain_nr * sizeof(uint64_t))) &&
	       (!s->raw_data || !s->raw_size || sampo_reader__stable(r, s->raw_data, s->raw_size));
}

/*
 * A DWARF file's samples go through the unwind pool, which unwinds them on
 * every CPU and hands them back in order (report_unwound()); the machine
 * sees the other records after the callback (.machine_after_tool), so
 * that the queued samples are delivered before the maps change.
 */
static int add_sample(struct report_ctx *ctx, struct sampo_session *session,
		      const struct sampo_sample *s, int evsel)
{
	struct sampo_machine *m = sampo_session__machine(session);
	struct sampo_thread *thread;
	int err;

	/* perf's evswitch__discard(): after the --time windows, before everything else */
	if (evswitch_active(&ctx->evswitch) && evswitch_discard(&ctx->evswitch, evsel))
		return 0;
	if (ctx->bhists)
		/* the branch view counts branches: no call chains to unwind */
		return sampo_branch_hists__add_sample(ctx->bhists, evsel, s);
	if (ctx->unwind_pool && s->cpumode != SAMPO_CPUMODE_GUEST_KERNEL &&
	    s->cpumode != SAMPO_CPUMODE_GUEST_USER) {
		thread = sampo_machine__findnew_thread(m, (int32_t)s->pid, (int32_t)s->tid);
		if (!thread)
			return -ENOMEM;
		err = sample_in_place(ctx, s)
			      ? sampo_unwind_pool__add_ref(ctx->unwind_pool, m, thread, s,
							   ctx->hists_max_stack, evsel)
			      : sampo_unwind_pool__add(ctx->unwind_pool, m, thread, s,
						       ctx->hists_max_stack, evsel);
		sampo_thread__put(thread);
		return err;
	}
	err = ctx->unwind_pool ? sampo_unwind_pool__flush(ctx->unwind_pool) : 0;
	if (!err)
		err = sampo_hists__add_sample(ctx->hists, evsel, s);
	return err;
}

struct read_delivery {
	struct report_ctx *ctx;
	struct sampo_session *session;
	const struct sampo_sample *sample;
};

/* one value of a PERF_SAMPLE_READ sample: a sample of its event, of its increase */
static int report_read_value(void *arg, const struct sampo_sample_value *v)
{
	const struct read_delivery *d = arg;
	struct sampo_sample s = *d->sample;

	if (v->evsel < 0)
		return 0; /* perf counts it in nr_unknown_id */
	s.id = v->id;
	s.period = v->period;
	return add_sample(d->ctx, d->session, &s, v->evsel);
}

/*
 * A sample that reads counters (PERF_SAMPLE_READ) is, as perf's
 * deliver_sample_value() makes it, one sample per value read: of the
 * value's event, with the counter's increase since its last read as
 * period (none when it did not increase)
 */
static int report_sample(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct report_ctx *ctx = arg;
	const struct sampo_sample *s = &ev->sample;
	int err;

	if (!ctx->hists) {
		err = start_hists(ctx);
		if (err)
			return err;
	}
	/* perf drops a sample out of the --time windows before anything else */
	if (sampo_time_ranges__skip(ctx->time_ranges, ctx->nr_time_ranges, s->time)) {
		update_progress(ctx);
		return 0;
	}
	if (s->sample_type & SAMPO_SAMPLE_READ) {
		struct read_delivery d = { .ctx = ctx, .session = session, .sample = s };

		err = sampo_session__sample_values(session, ev, report_read_value, &d);
	} else {
		err = add_sample(ctx, session, s, ev->attr_idx);
	}
	update_progress(ctx);
	return err;
}

static int report_unwound(void *arg, struct sampo_machine *machine, struct sampo_thread *thread,
			  const struct sampo_sample *sample, size_t nr_user, int evsel)
{
	struct report_ctx *ctx = arg;

	(void)machine;
	(void)thread;
	return sampo_hists__add_unwound(ctx->hists, evsel, sample, nr_user);
}

/* every other record, before the machine sees it: queued samples go first */
static int report_other(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct report_ctx *ctx = arg;

	(void)session;
	(void)ev;
	update_progress(ctx);
	return ctx->unwind_pool ? sampo_unwind_pool__flush(ctx->unwind_pool) : 0;
}

/* records that change no state the samples are resolved in */
static int report_quiet(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	(void)session;
	(void)ev;
	update_progress(arg);
	return 0;
}

/*
 * perf's perf_session__warn_about_errors() on what the kernel dropped: LOST
 * records are lost chunks of the ring buffer; LOST_SAMPLES over 5% of the
 * samples are worth a word too
 */
static void warn_lost(const struct report_ctx *ctx)
{
	const struct sampo_reader_stats *st = sampo_reader__stats(ctx->reader);
	uint64_t total = 0, lost_samples = sampo_session__lost(ctx->session)->lost_samples;
	uint64_t nr_samples = st->nr_records[SAMPO_RECORD_SAMPLE];

	for (size_t i = 0; i < SAMPO_RECORD_MAX; i++)
		total += st->nr_records[i];
	if (st->nr_records[SAMPO_RECORD_LOST])
		cli_warn("'%s': processed %" PRIu64 " events and lost %" PRIu64
			 " chunks! Check IO/CPU overload!",
			 ctx->input, total, st->nr_records[SAMPO_RECORD_LOST]);
	if (lost_samples && (double)lost_samples / (double)(nr_samples + lost_samples) > 0.05)
		cli_warn("'%s': processed %" PRIu64 " samples and lost %3.2f%%!", ctx->input,
			 nr_samples, 100.0 * (double)lost_samples / (double)(nr_samples + lost_samples));
}

/*
 * The event groups, known once the file is read (a pipe's GROUP_DESC comes
 * with its records), and perf's group view: on by default when the file has
 * a group of more than one event (its GROUP_DESC); --group on a file without
 * groups makes all its events one group (perf's evlist__force_leader()),
 * --no-group shows every event alone. The branch view has no group view.
 */
static int setup_groups(struct report_ctx *ctx)
{
	size_t nr = sampo_reader__nr_attrs(ctx->reader);
	bool any = false;
	int err;

	err = sampo_evsel__groups(sampo_session__features(ctx->session), nr, &ctx->groups, NULL);
	if (err)
		return cli_err(err, "out of memory");
	ctx->nr_groups = nr;
	for (size_t i = 0; i < nr; i++)
		if (ctx->groups[i].leader == i && ctx->groups[i].nr_members > 1)
			any = true;
	if (ctx->group > 0 && !any && nr > 1) {
		for (size_t i = 0; i < nr; i++)
			ctx->groups[i] = (struct sampo_evsel_group){ .leader = 0, .nr_members = 1 };
		ctx->groups[0].nr_members = (uint32_t)nr;
		ctx->forced_group = any = true;
	}
	ctx->group_view = ctx->group != 0 && any && !ctx->bhists;
	if (!ctx->group_view)
		return 0;
	err = sampo_hists__set_groups(ctx->hists, ctx->groups, nr);
	return err ? cli_err(err, "cannot set up the group view") : 0;
}

static int process(struct report_ctx *ctx)
{
	const struct sampo_tool tool = { .sample = report_sample,
					 .other = report_other,
					 .finished_round = report_quiet,
					 .lost = report_quiet };
	int err;

	progress_init(&ctx->progress, "Processing samples",
		      sampo_reader__is_pipe(ctx->reader) ? 0 :
							   sampo_reader__file_size(ctx->reader));
	err = sampo_session__process(ctx->session, &tool, ctx);
	progress_done(&ctx->progress);
	if (!err && ctx->unwind_pool)
		err = sampo_unwind_pool__flush(ctx->unwind_pool);
	cli_unwind_pool_close(ctx->unwind_pool, ctx->input);
	ctx->unwind_pool = NULL;
	if (err > 0)
		return err; /* a callback said why */
	if (err)
		return cli_err_read(err, ctx->reader, sampo_session__error(ctx->session));
	if (!ctx->hists) {
		/* a pipe without samples */
		err = start_hists(ctx);
		if (err)
			return err;
	}
	err = setup_groups(ctx);
	if (err)
		return err;
	if (sampo_hists__resort(ctx->hists))
		return cli_err(-ENOMEM, "out of memory");
	note_layout_modules(ctx);
	warn_lost(ctx);
	return 0;
}

/* --format json: the same rows and totals as the text, as docs/format-json.md says */
static int print_json(struct report_ctx *ctx, const struct sampo_hists_opts *hopts)
{
	static const enum sampo_sort_key default_keys[] = { SAMPO_SORT_COMM, SAMPO_SORT_DSO,
							    SAMPO_SORT_SYM };
	const enum sampo_sort_key *keys = hopts->sort_keys ? hopts->sort_keys : default_keys;
	size_t nr_keys = hopts->sort_keys ? hopts->nr_sort_keys : 3;
	const char *names[SAMPO_SORT_MAX_KEYS];
	const struct json_report_opts jopts = {
		.input = ctx->input,
		.sort_keys = names,
		.nr_sort_keys = nr_keys,
		.children = hopts->children,
		.percent_limit = hopts->percent_limit,
		.lost_samples = sampo_session__lost(ctx->session)->lost_samples,
		.graph = hopts->callchain && !hopts->no_graph,
		.caller_order = hopts->caller_order,
		.graph_min_percent =
			hopts->callchain_min_percent < 0 ? 0.5 : hopts->callchain_min_percent,
		.percentage_relative = hopts->percentage_relative,
	};
	struct outbuf *ob = malloc(sizeof(*ob)); /* 64 KiB: off the stack */
	char *field_names[SAMPO_SORT_MAX_KEYS] = { NULL };
	size_t nr_fields = 0;
	int err = 0;

	if (!ob)
		return cli_err(-ENOMEM, "out of memory");
	for (size_t i = 0; i < nr_keys; i++) {
		const struct sampo_trace_field_key *fk;

		names[i] = sampo_sort_key__name(keys[i]);
		if (keys[i] != SAMPO_SORT_TRACE_FIELD)
			continue;
		fk = &hopts->trace_fields[nr_fields];
		/* a trace field's key as -s could name it: EVENT.FIELD[/raw] */
		if (asprintf(&field_names[nr_fields], "%s.%s%s",
			     sampo_session__evsel_name(ctx->session, fk->evsel), fk->field,
			     fk->raw ? "/raw" : "") < 0) {
			field_names[nr_fields] = NULL;
			err = -ENOMEM;
			break;
		}
		names[i] = field_names[nr_fields++];
	}
	if (!err) {
		(void)fflush(stdout);
		ob_init_fd(ob, STDOUT_FILENO);
		(void)json_report__print(ob, ctx->hists, ctx->session, &jopts);
		err = ob_flush(ob);
	}
	for (size_t i = 0; i < nr_fields; i++)
		free(field_names[i]);
	free(ob);
	if (err == -ENOMEM)
		return cli_err(err, "out of memory");
	if (err)
		return err == -EPIPE ? err : cli_err(err, "cannot write the report");
	return 0;
}

/* an event's "Samples" and "Event count": of its branches in the branch view */
static uint64_t ev_nr_samples(const struct report_ctx *ctx, int evsel)
{
	return ctx->bhists ? sampo_branch_hists__nr_branches(ctx->bhists, evsel) :
			     sampo_hists__nr_samples(ctx->hists, evsel);
}

static uint64_t ev_total_period(const struct report_ctx *ctx, int evsel)
{
	return ctx->bhists ? sampo_branch_hists__nr_branches(ctx->bhists, evsel) :
			     sampo_hists__total_period(ctx->hists, evsel);
}

/*
 * The "Samples" and "Event count" of an event's table: with --percentage
 * relative those of what the filters keep (perf's
 * hists__fprintf_nr_sample_events()), else ev_nr_samples()'s
 */
static void ev_shown(const struct report_ctx *ctx, int evsel, uint64_t *nr, uint64_t *count)
{
	if (!ctx->bhists && ctx->hopts->percentage_relative) {
		sampo_hists__shown(ctx->hists, evsel, nr, count);
		return;
	}
	*nr = ev_nr_samples(ctx, evsel);
	*count = ev_total_period(ctx, evsel);
}

/*
 * perf's evsel__group_desc(): "anon group { a, b }" (or the group's name),
 * "a, b" for the group --group made of a file without groups; NULL: no memory
 */
static char *group_desc(struct report_ctx *ctx, size_t leader)
{
	const struct sampo_evsel_group *g = &ctx->groups[leader];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (!ctx->forced_group)
		fprintf(f, "%s { ", g->name ? g->name : "anon group");
	for (size_t m = 0; m < g->nr_members; m++)
		fprintf(f, "%s%s", m ? ", " : "",
			sampo_session__evsel_name(ctx->session, (int)(leader + m)));
	if (!ctx->forced_group)
		fputs(" }", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * -q: perf's quiet report, the rows alone. The report is written through a
 * stream that drops every line starting with '#' (the header, the column
 * titles) on its way to stdout; perf keeps the "# comm: NAME" lines of
 * one-value filters.
 */
struct quiet_stream {
	FILE *out;
	bool at_line_start; /* the next byte starts a line */
	bool dropping;	    /* the current line starts with '#' */
};

static ssize_t quiet_write(void *cookie, const char *buf, size_t len)
{
	struct quiet_stream *q = cookie;
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) + 1 : len;

		if (q->at_line_start)
			q->dropping = buf[i] == '#';
		if (!q->dropping && fwrite(buf + i, 1, end - i, q->out) != end - i)
			return -1;
		q->at_line_start = nl != NULL;
		i = end;
	}
	return (ssize_t)len;
}

static int quiet_close(void *cookie)
{
	struct quiet_stream *q = cookie;

	return fflush(q->out) ? -1 : 0;
}

static int print_report_to(struct report_ctx *ctx, const struct sampo_hists_opts *hopts, FILE *fp);

static int print_report(struct report_ctx *ctx, const struct sampo_hists_opts *hopts)
{
	static const cookie_io_functions_t quiet_io = { .write = quiet_write,
							.close = quiet_close };
	struct quiet_stream q = { .out = stdout, .at_line_start = true };
	FILE *fp;
	int err;

	if (!ctx->quiet || (ctx->format && !strcmp(ctx->format, "json")))
		return print_report_to(ctx, hopts, stdout);
	fp = fopencookie(&q, "w", quiet_io);
	if (!fp)
		return cli_err(-ENOMEM, "out of memory");
	err = print_report_to(ctx, hopts, fp);
	if (fclose(fp) && !err)
		err = errno == EPIPE ? -EPIPE : cli_err(-EIO, "cannot write the report");
	return err;
}

static int print_report_to(struct report_ctx *ctx, const struct sampo_hists_opts *hopts, FILE *fp)
{
	uint64_t total = 0;

	if (ctx->provenance) {
		if (report_provenance_print(fp, ctx->hists, ctx->symbolizer))
			return cli_err(-ENOMEM, "out of memory");
		if (fflush(fp) || ferror(fp))
			return errno == EPIPE ? -EPIPE : cli_err(-EIO, "cannot write the report");
		return 0;
	}
	if (ctx->format && !strcmp(ctx->format, "json"))
		return print_json(ctx, hopts);
	for (size_t i = 0; i < sampo_reader__nr_attrs(ctx->reader); i++)
		total += ev_nr_samples(ctx, (int)i);
	/* perf prints this line, or the header, before it reads the samples */
	if (ctx->header) {
		int err = header_print(ctx->input, ctx->show_info, fp);

		if (err)
			return err;
	} else {
		fputs("# To display the perf.data header info, please use --header/--header-only "
		      "options.\n#\n",
		      fp);
	}
	if (!total) {
		/* perf says so on stderr, prints no table and exits 0 */
		fprintf(stderr, "sampo report: '%s' has no samples%s\n", ctx->input,
			ctx->cpus ? " on these CPUs" : "");
		return fflush(fp) ? -EIO : 0;
	}

	/*
	 * Objects without symbols, in one line: for a person reading (a terminal
	 * or the pager), so that what perf prints stays byte for byte the same
	 * in files and pipes.
	 */
	if (isatty(STDOUT_FILENO) || pager_running())
		report_provenance_summary(fp, ctx->hists, ctx->symbolizer);
	/* perf -q keeps these "# comm: burn" lines: past the quiet stream, in order */
	if (ctx->quiet && fp != stdout && !fflush(fp))
		sampo_hists__fprintf_filters(ctx->hists, stdout);
	else
		sampo_hists__fprintf_filters(ctx->hists, fp);
	/* perf's total_lost_samples: LOST_SAMPLES records (LOST ones are chunks, warned about) */
	fprintf(fp, "#\n# Total Lost Samples: %" PRIu64 "\n#\n",
		sampo_session__lost(ctx->session)->lost_samples);
	for (size_t i = 0; i < sampo_reader__nr_attrs(ctx->reader); i++) {
		const struct sampo_evsel_group *g = i < ctx->nr_groups ? &ctx->groups[i] : NULL;
		uint64_t nr, count;
		char unit = ' ', *desc = NULL;
		const char *name;

		/* the group view: a member's samples are in its leader's table */
		if (ctx->group_view && g && g->leader != i)
			continue;
		if (!ev_nr_samples(ctx, (int)i))
			continue; /* perf's --skip-empty: of the leader alone, every sample */
		ev_shown(ctx, (int)i, &nr, &count);
		name = sampo_session__evsel_name(ctx->session, (int)i);
		if (ctx->group_view && g && g->nr_members > 1) {
			desc = group_desc(ctx, i);
			if (!desc)
				return cli_err(-ENOMEM, "out of memory");
			name = desc;
			for (size_t m = 1; m < g->nr_members; m++) {
				uint64_t mn, mc;

				ev_shown(ctx, (int)(i + m), &mn, &mc);
				nr += mn;
				count += mc;
			}
		}
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
		/* "events" for a group's leader, in the group view or not */
		fprintf(fp, "# Samples: %" PRIu64 "%c of event%s '%s'", nr, unit,
			g && g->leader == i && g->nr_members > 1 ? "s" : "", name);
		if (ctx->time_str)
			fprintf(fp, " (time slices: %s)", ctx->time_str);
		fputc('\n', fp);
		free(desc);
		fprintf(fp, "# Event count (approx.): %" PRIu64 "\n#\n", count);
		if (ctx->bhists ? sampo_branch_hists__fprintf(ctx->bhists, (int)i, fp) :
				  sampo_hists__fprintf(ctx->hists, (int)i, fp))
			break;
		fputs("\n\n", fp);
	}
	if (fflush(fp) || ferror(fp))
		return errno == EPIPE ? -EPIPE : cli_err(-EIO, "cannot write the report");
	return 0;
}

/* -i may be repeated: several files, one report (report-hosts.c) */
static int add_input(const struct option *opt, const char *arg, bool unset)
{
	struct report_ctx *ctx = opt->value;
	const char **inputs;

	if (unset)
		return -1;
	inputs = realloc(ctx->inputs, (ctx->nr_inputs + 1) * sizeof(*inputs));
	if (!inputs)
		return -1;
	ctx->inputs = inputs;
	inputs[ctx->nr_inputs++] = arg;
	if (!ctx->input)
		ctx->input = arg;
	return 0;
}

static bool sorts_by_host(const char *sort)
{
	const char *p = sort;

	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len == 4 && !strncmp(p, "host", 4))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

/*
 * More than one -i, or --sort host: the files are read each in a session of
 * its own, with its own kernel and build-ids, and summed (report-hosts.c).
 */
static int report_several(struct report_ctx *ctx, struct sampo_hists_opts *hopts)
{
	SAMPO_OPTS(sampo_symbolizer_opts, sopts, .symfs = ctx->symfs, .vmlinux = ctx->vmlinux,
		   .kallsyms = ctx->kallsyms, .force = ctx->force);
	struct report_hosts_args args = {
		.inputs = ctx->inputs,
		.nr_inputs = ctx->nr_inputs,
		.hists = hopts,
		.symbolizer = &sopts,
		.nr_threads = ctx->threads > 0 ? (unsigned int)ctx->threads : 0,
		.show_nr_samples = ctx->show_nr_samples,
	};
	const char *sort = ctx->sort;
	int err;

	cli_debuginfod_apply(&sopts);
	if (ctx->guest)
		return cli_err(-EINVAL, "--guest cannot be used with several inputs");
	if (ctx->call_graph || ctx->inverted)
		return cli_err(-EINVAL, "a report of several inputs has no call graphs");
	if (ctx->percentage)
		return cli_err(-EINVAL, "--percentage cannot be used with several inputs");
	if (ctx->time_str)
		return cli_err(-EINVAL, "--time cannot be used with several inputs");
	err = report_hosts_parse_sort(sort, args.keys, &args.nr_keys);
	if (err)
		return err;
	ctx->sort = NULL; /* the library's keys are comm,dso,sym for each file */
	err = parse_hists_lists(ctx, hopts);
	if (err)
		return err;
	/* self periods unless --children: every file must count the same way */
	hopts->children = args.children = ctx->children > 0;
	hopts->callchain = hopts->children;
	hopts->no_graph = true;
	hopts->max_stack = ctx->max_stack > 0 ? (unsigned int)ctx->max_stack : 0;
	hopts->show_nr_samples = ctx->show_nr_samples;
	if (ctx->percent_limit &&
	    parse_percent(ctx->percent_limit, &args.percent_limit))
		return usage_error(report_usage, NULL, "invalid --percent-limit '%s'",
				   ctx->percent_limit);
	for (size_t i = 0; i < ctx->nr_inputs; i++)
		if (!strcmp(ctx->inputs[i], "-"))
			return cli_err(-EINVAL, "a pipe cannot be one of several inputs");
	err = report_hosts(&args);
	ctx->sort = sort;
	return err;
}

/* --format pprof: the samples as a pprof profile (cmd-pprof.c), not a table */
static int report_pprof(const struct report_ctx *ctx)
{
	SAMPO_OPTS(sampo_symbolizer_opts, sopts, .symfs = ctx->symfs, .vmlinux = ctx->vmlinux,
		   .kallsyms = ctx->kallsyms, .force = ctx->force);
	struct pprof_convert_opts o = {
		.input = ctx->input,
		.output = ctx->output ? ctx->output : "profile.pb.gz",
		.symbolizer = &sopts,
		.perf = { .max_stack = ctx->max_stack > 0 ? (unsigned)ctx->max_stack : 0,
			  .guests = ctx->guest },
	};

	cli_debuginfod_apply(&sopts);
	if (ctx->comms || ctx->dsos || ctx->symbols || ctx->pids || ctx->tids || ctx->cpus ||
	    ctx->sort || evswitch_active(&ctx->evswitch))
		return usage_error(report_usage, NULL,
				   "--format pprof keeps every sample: no --sort or filters");
	return pprof_convert(&o);
}

/* --format and -o, before anything is read */
static int check_format(const struct report_ctx *ctx, const struct option *opts)
{
	bool pprof = ctx->format && !strcmp(ctx->format, "pprof");
	bool json = ctx->format && !strcmp(ctx->format, "json");

	if (ctx->format && strcmp(ctx->format, "stdio") && strcmp(ctx->format, "text") && !pprof &&
	    !json)
		return usage_error(report_usage, opts,
				   "unknown --format '%s' (known: stdio, text, json, pprof)",
				   ctx->format);
	if (json && (ctx->nr_inputs > 1 || sorts_by_host(ctx->sort)))
		return usage_error(report_usage, opts,
				   "--format json reads one file (several hosts: not yet)");
	if (ctx->output && !pprof)
		return usage_error(report_usage, opts, "-o goes with --format pprof");
	if (pprof && (ctx->nr_inputs > 1 || sorts_by_host(ctx->sort)))
		return usage_error(report_usage, opts,
				   "--format pprof takes one input (sampo merge -o out.pb.gz takes many)");
	return 0;
}

static void report_ctx_release(struct report_ctx *ctx)
{
	free(ctx->inputs);
	sampo_unwind_pool__delete(ctx->unwind_pool);
	sampo_hists__delete(ctx->hists);
	sampo_branch_hists__delete(ctx->bhists);
	free(ctx->groups);
	sampo_session__close(ctx->session);
	cli_word_list_release(&ctx->comm_list);
	cli_word_list_release(&ctx->dso_list);
	cli_word_list_release(&ctx->symbol_list);
	free(ctx->pid_list);
	free(ctx->tid_list);
	sampo_cpu_set__delete(ctx->cpu_set);
	free(ctx->time_ranges);
}

int cmd_report(int argc, const char **argv)
{
	struct report_ctx ctx = { .children = -1, .branch_stack = -1, .group = -1 };
	const char *archive = NULL;
	bool children = false, no_children = false, stdio = false, graph = false;
	bool branch_stack = false, no_branch_stack = false, group = false, no_group = false;
	SAMPO_OPTS(sampo_hists_opts, hopts, .callchain_min_percent = -1);
	const struct option opts[] = {
		OPT_CALLBACK('i', "input", &ctx, "file",
			     "input file, '-' for stdin (default: perf.data, or stdin if a pipe); "
			     "repeat for one report of several files",
			     add_input),
		/* not --threads: perf report's --threads (-T) shows per-thread counters */
		OPT_INTEGER(0, "jobs", &ctx.threads, "n",
			    "several inputs: files read at once (default: one per CPU)"),
		OPT_BOOLEAN(0, "stdio", &stdio, "text output (the default)"),
		OPT_STRING(0, "format", &ctx.format, "format",
			   "output format: stdio (the default), json, pprof (a .pb.gz, to -o)"),
		OPT_STRING('o', "output", &ctx.output, "file",
			   "the file of --format pprof (default: profile.pb.gz)"),
		OPT_STRING(
			's', "sort", &ctx.sort, "key[,key...]",
			"sort by comm, pid, tid, dso, sym, cpu, srcline, srcfile, trace, or "
			"tracepoint fields: FIELD, EVENT.FIELD, EVENT.*, trace_fields, each with "
			"an optional /raw (default: comm,dso,sym; trace when every event is a "
			"tracepoint); several inputs: host, comm, dso, sym (default: "
			"host,comm,dso,sym)"),
		OPT_BOOLEAN(0, "raw-trace", &ctx.raw_trace,
			    "tracepoints' fields as numbers, not through their print formats (the "
			    "trace key; the default sort is then trace_fields)"),
		OPT_BOOLEAN('q', "quiet", &ctx.quiet,
			    "the rows alone: no header, column titles or warnings"),
		OPT_BOOLEAN(0, "header", &ctx.header,
			    "print the file's header first, as sampo header does (--header-only: "
			    "only the header)"),
		OPT_BOOLEAN('I', "show-info", &ctx.show_info,
			    "with --header: the CPU and NUMA topologies, caches and memory too"),
		OPT_BOOLEAN(0, "tasks", &ctx.tasks,
			    "the recorded threads as a process tree, instead of the table"),
		OPT_BOOLEAN(0, "mmaps", &ctx.mmaps,
			    "the process tree with each process's maps (implies --tasks)"),
		OPT_BOOLEAN('n', "show-nr-samples", &ctx.show_nr_samples,
			    "show the number of samples of each entry"),
		OPT_STRING(0, "percent-limit", &ctx.percent_limit, "percent",
			   "hide entries (and graph branches) under this percentage"),
		OPT_STRING(0, "time", &ctx.time_str, "start,stop",
			   "only samples in these windows: seconds (664.1,664.2; either may "
			   "be empty; several separated by spaces) or shares of the recording "
			   "(10%/2, 0%-10%,30%-40%, 50%)"),
		OPT_STRING(
			0, "percentage", &ctx.percentage, "relative|absolute",
			"with --comms, --dsos, --symbols, --pid, --tid: shares of what they keep "
			"(relative) or of every sample (absolute, the default)"),
		OPT_BOOLEAN('b', "branch-stack", &branch_stack,
			    "the branch view: the taken branches of the branch stacks (the default "
			    "when the file has them)"),
		OPT_BOOLEAN(0, "no-branch-stack", &no_branch_stack,
			    "the plain report of a file with branch stacks"),
		OPT_BOOLEAN(0, "group", &group,
			    "each event group in one table, a column per event (the default when "
			    "the file has groups; without groups: all events as one)"),
		OPT_BOOLEAN(0, "no-group", &no_group, "a table per event, groups or not"),
		OPT_GROUP("Call graphs"),
		OPT_BOOLEAN('g', NULL, &graph,
			    "show call graphs (the default when the file has callchains)"),
		OPT_STRING(
			0, "call-graph", &ctx.call_graph, "graph,0.5,caller|callee",
			"call graph mode (graph, fractal, flat, folded), threshold, order, value "
			"(percent, period); 'none' hides graphs"),
		OPT_BOOLEAN(0, "children", &children, "add callees' samples to their callers"),
		OPT_BOOLEAN(0, "no-children", &no_children, "self samples only"),
		OPT_BOOLEAN('G', "inverted", &ctx.inverted, "caller-first graphs"),
		OPT_BOOLEAN(0, "inline", &ctx.inline_frames,
			    "inlined functions as frames of their own in call graphs (DWARF)"),
		OPT_INTEGER(0, "max-stack", &ctx.max_stack, "n",
			    "use at most n callchain entries (default 127)"),
		OPT_GROUP("Filters"),
		OPT_STRING(0, "comms", &ctx.comms, "comm[,comm...]", "only these commands"),
		{ .type = OPTION_STRING,
		  .long_name = "comm",
		  .value = &ctx.comms,
		  .argh = "comm[,comm...]",
		  .flags = OPT_F_HIDDEN },
		OPT_STRING(0, "dsos", &ctx.dsos, "dso[,dso...]", "only these shared objects"),
		{ .type = OPTION_STRING,
		  .long_name = "dso",
		  .value = &ctx.dsos,
		  .argh = "dso[,dso...]",
		  .flags = OPT_F_HIDDEN },
		OPT_STRING('S', "symbols", &ctx.symbols, "symbol[,symbol...]",
			   "only samples in these functions, or at these addresses (hex)"),
		OPT_STRING(0, "pid", &ctx.pids, "pid[,pid...]", "only these processes"),
		OPT_STRING(0, "tid", &ctx.tids, "tid[,tid...]", "only these threads"),
		OPT_STRING('C', "cpu", &ctx.cpus, "cpus", "only these CPUs (0-3,7)"),
		OPT_STRING(0, "switch-on", &ctx.evswitch.on_name, "event",
			   "only samples after a sample of this event"),
		OPT_STRING(0, "switch-off", &ctx.evswitch.off_name, "event",
			   "no samples after a sample of this event (until the next --switch-on)"),
		OPT_BOOLEAN(0, "show-on-off-events", &ctx.evswitch.show_on_off,
			    "the samples of --switch-on and --switch-off events too"),
		OPT_GROUP("Symbols"),
		OPT_STRING('k', "vmlinux", &ctx.vmlinux, "file", "the kernel's vmlinux"),
		OPT_STRING(0, "kallsyms", &ctx.kallsyms, "file", "the kernel's kallsyms snapshot"),
		OPT_STRING(0, "symfs", &ctx.symfs, "dir", "look for files under this root too"),
		OPT_STRING(
			0, "archive", &archive, "file",
			"read symbols from an archive of sampo/perf archive (--all: the profile too)"),
		OPT_BOOLEAN('f', "force", &ctx.force,
			    "use files whose build-id differs, and other users' JIT perf maps"),
		OPT_DEBUGINFOD(),
		OPT_BOOLEAN(0, "provenance", &ctx.provenance,
			    "say where each object's symbols came from, or why it has none, "
			    "instead of the table"),
		OPT_GROUP("Guests (perf kvm --host --guest report)"),
		OPT_BOOLEAN(0, "guest", &ctx.guest,
			    "show guest samples too, each guest as a machine of its own"),
		OPT_STRING(0, "guestvmlinux", &ctx.guest_vmlinux, "file",
			   "the guest kernel's vmlinux (implies --guest)"),
		OPT_STRING(0, "guestkallsyms", &ctx.guest_kallsyms, "file",
			   "the guest's /proc/kallsyms, saved (implies --guest)"),
		OPT_STRING(0, "guestmount", &ctx.guestmount, "dir",
			   "guest PID's files under dir/PID (implies --guest)"),
		OPT_END(),
	};
	int ret;

	/* perf's -g takes an optional argument: "-g caller" is "--call-graph=caller" */
	for (int i = 1; i + 1 < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-g") && looks_like_call_graph(argv[i + 1])) {
			argv[i] = "--call-graph";
			i++;
		}
	}
	argc = parse_options(argc, argv, opts, report_usage, 0);
	/* from here every exit releases the -i list that parsing may have built */
	if (argc < 0) {
		ret = argc;
		goto out;
	}
	if (argc > 0) {
		ret = usage_error(report_usage, opts, "unexpected argument '%s'", argv[0]);
		goto out;
	}
	if (branch_stack && no_branch_stack) {
		ret = usage_error(report_usage, opts,
				  "--branch-stack and --no-branch-stack conflict");
		goto out;
	}
	if (branch_stack || no_branch_stack)
		ctx.branch_stack = branch_stack;
	if (group && no_group) {
		ret = usage_error(report_usage, opts, "--group and --no-group conflict");
		goto out;
	}
	if (group || no_group)
		ctx.group = group;
	if (children && no_children) {
		ret = usage_error(report_usage, opts, "--children and --no-children conflict");
		goto out;
	}
	(void)stdio;
	if (graph) {
		ctx.no_callchain = false;
		ctx.graph_asked = true;
	}
	if (no_children)
		ctx.children = 0;
	else if (children)
		ctx.children = 1;
	ret = check_format(&ctx, opts);
	if (ret)
		goto out;
	ret = archive_view_setup(archive, &ctx.input);
	if (ret)
		goto out;
	if (ctx.provenance && (ctx.format || ctx.nr_inputs > 1 || sorts_by_host(ctx.sort))) {
		ret = usage_error(report_usage, opts,
				  "--provenance reads one file and prints its own table: no --format");
		goto out;
	}
	if ((ctx.tasks || ctx.mmaps) &&
	    (ctx.format || ctx.provenance || ctx.nr_inputs > 1 || sorts_by_host(ctx.sort))) {
		ret = usage_error(report_usage, opts,
				  "--tasks and --mmaps read one file and print its process tree: "
				  "no --format or --provenance");
		goto out;
	}
	if ((ctx.nr_inputs > 1 || sorts_by_host(ctx.sort)) && evswitch_active(&ctx.evswitch)) {
		ret = usage_error(report_usage, opts,
				  "--switch-on and --switch-off read one file (its events)");
		goto out;
	}
	if (ctx.nr_inputs > 1 || sorts_by_host(ctx.sort)) {
		if (!ctx.nr_inputs)
			add_input(&opts[0], cli_default_input(), false);
		ret = report_several(&ctx, &hopts);
		goto out;
	}
	if (!ctx.input || !*ctx.input)
		ctx.input = cli_default_input();
	if (ctx.guest_vmlinux || ctx.guest_kallsyms || ctx.guestmount)
		ctx.guest = true;
	if (ctx.guest_vmlinux && ctx.guest_kallsyms) {
		ret = usage_error(report_usage, opts,
				  "--guestvmlinux and --guestkallsyms conflict: name one");
		goto out;
	}
	if (ctx.format && !strcmp(ctx.format, "pprof")) {
		ret = report_pprof(&ctx);
		goto out;
	}
	if (ctx.tasks || ctx.mmaps) {
		ret = report_tasks(ctx.input, ctx.mmaps);
		goto out;
	}

	hold_warnings();
	ret = setup(&ctx, &hopts);
	if (!ret)
		ret = process(&ctx);
	/* -q: the library's warnings (files not found, ...) are dropped, as perf's -q does */
	release_warnings(!ret && !ctx.quiet);
	if (!ret)
		ret = print_report(&ctx, &hopts);
out:
	report_ctx_release(&ctx);
	return ret;
}
