/* SPDX-License-Identifier: GPL-2.0 */
/*
 * format-json.c - the JSON documents of `report --format json` and `script
 * --format json` (docs/format-json.md is the schema)
 *
 * Both are written as they are walked, through the command's outbuf: no
 * document is built in memory, whatever the number of samples or rows. The
 * layout is fixed so that line tools work too: the envelope on its own
 * lines, then one sample (script) or one row (report) a line.
 *
 * Numbers: counts, periods and times are JSON integers (exact up to 2^53 in
 * every parser that reads them as doubles, which covers ns timestamps for 104
 * days of uptime and periods of any real recording); addresses are hex
 * strings, since they use all 64 bits. Percentages are the printed figures'
 * doubles, with 17 significant digits so that they read back exactly.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <sampo/hist.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/symbol.h>

#include "format-json.h"
#include "json.h"

/* ---- report ------------------------------------------------------------- */

static void json_percent(struct outbuf *ob, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.17g", v);
	ob_puts(ob, buf);
}

/* ---- call graphs ---------------------------------------------------------- */

struct graph_ctx {
	struct outbuf *ob;
	const struct sampo_hists *hists;
	bool first; /* the next node is the first of its list */
};

static void graph_frame(struct outbuf *ob, const struct sampo_hists *h, uint32_t f)
{
	const char *sym = sampo_hists__frame_name(h, f);
	const char *dso = sampo_hists__frame_dso_name(h, f);
	char level[2] = { sampo_hists__frame_level(h, f), '\0' };

	ob_puts(ob, "{\"symbol\": ");
	if (sym)
		json_string(ob, sym);
	else
		ob_puts(ob, "null");
	ob_puts(ob, ", \"dso\": ");
	if (dso)
		json_string(ob, dso);
	else
		ob_puts(ob, "null");
	ob_puts(ob, ", \"level\": ");
	json_string(ob, level);
	ob_puts(ob, ", \"ip\": ");
	json_hex(ob, sampo_hists__frame_ip(h, f));
	ob_putc(ob, '}');
}

/* a node is {"period", "self_period", "frames": [...], "children": [...]} */
static int graph_node(void *arg, const struct sampo_hist_graph_node *n, bool leave)
{
	struct graph_ctx *g = arg;
	struct outbuf *ob = g->ob;

	if (leave) {
		ob_puts(ob, "]}");
		g->first = false;
		return 0;
	}
	if (!g->first)
		ob_puts(ob, ", ");
	ob_puts(ob, "{\"period\": ");
	ob_dec_u64(ob, n->period);
	ob_puts(ob, ", \"self_period\": ");
	ob_dec_u64(ob, n->self_period);
	ob_puts(ob, ", \"frames\": [");
	for (size_t i = 0; i < n->nr_frames; i++) {
		if (i)
			ob_puts(ob, ", ");
		graph_frame(ob, g->hists, n->frames[i]);
	}
	ob_puts(ob, "], \"children\": [");
	g->first = true;
	return ob_error(ob);
}

static int report_graph(struct outbuf *ob, const struct sampo_hists *hists, int evsel,
			const struct sampo_hist_entry *e)
{
	struct graph_ctx g = { .ob = ob, .hists = hists, .first = true };
	int err;

	ob_puts(ob, ", \"callgraph\": [");
	err = sampo_hists__walk_graph(hists, evsel, e, graph_node, &g);
	ob_putc(ob, ']');
	return err;
}

/* ", \"trace_fields\": {NAME: TEXT, ...}": the entry's event's trace field keys, if any */
static int trace_fields(struct outbuf *ob, const struct sampo_hist_entry *e)
{
	bool first = true;
	int err = 0;

	for (size_t i = 0; !err; i++) {
		const char *name;
		char *text;

		err = sampo_hist_entry__trace_field(e, i, &name, &text);
		if (err == -ENOENT) {
			err = 0;
			continue;
		}
		if (err)
			break;
		ob_puts(ob, first ? ", \"trace_fields\": {" : ", ");
		first = false;
		json_string(ob, name);
		ob_puts(ob, ": ");
		json_string(ob, text);
		free(text);
	}
	if (!first)
		ob_putc(ob, '}');
	return err == -ERANGE ? 0 : err;
}

static int report_row(struct outbuf *ob, const struct sampo_hist_entry *e, uint64_t total,
		      bool children, double pct)
{
	const char *dso = sampo_hist_entry__dso_name(e);
	const char *sym = sampo_hist_entry__symbol_name(e);
	char level[2] = { sampo_hist_entry__level(e), '\0' };

	ob_puts(ob, "{\"overhead\": ");
	json_percent(ob, pct);
	if (children) {
		ob_puts(ob, ", \"self\": ");
		json_percent(ob, total ? sampo_hist_entry__self_period(e) * 100.0 / total : 0.0);
	}
	ob_puts(ob, ", \"period\": ");
	ob_dec_u64(ob, sampo_hist_entry__period(e));
	ob_puts(ob, ", \"self_period\": ");
	ob_dec_u64(ob, sampo_hist_entry__self_period(e));
	ob_puts(ob, ", \"samples\": ");
	ob_dec_u64(ob, sampo_hist_entry__nr_samples(e));
	ob_puts(ob, ", \"comm\": ");
	json_string(ob, sampo_hist_entry__comm(e));
	ob_puts(ob, ", \"pid\": ");
	ob_dec_s64(ob, sampo_hist_entry__pid(e));
	ob_puts(ob, ", \"tid\": ");
	ob_dec_s64(ob, sampo_hist_entry__tid(e));
	ob_puts(ob, ", \"thread_comm\": ");
	json_string(ob, sampo_hist_entry__thread_comm(e));
	if (sampo_hist_entry__cpu(e) >= 0) {
		ob_puts(ob, ", \"cpu\": ");
		ob_dec_s64(ob, sampo_hist_entry__cpu(e));
	}
	ob_puts(ob, ", \"dso\": ");
	if (dso)
		json_string(ob, dso);
	else
		ob_puts(ob, "null");
	ob_puts(ob, ", \"level\": ");
	json_string(ob, level);
	ob_puts(ob, ", \"symbol\": ");
	if (sym)
		json_string(ob, sym);
	else
		ob_puts(ob, "null");
	ob_puts(ob, ", \"ip\": ");
	json_hex(ob, sampo_hist_entry__ip(e));
	if (sampo_hist_entry__trace(e)) {
		ob_puts(ob, ", \"trace\": ");
		json_string(ob, sampo_hist_entry__trace(e));
	}
	/* the caller closes the row: its call graph may follow */
	return trace_fields(ob, e);
}

int json_report__print(struct outbuf *ob, struct sampo_hists *hists,
		       struct sampo_session *session, const struct json_report_opts *opts)
{
	struct sampo_reader *reader = sampo_session__reader(session);
	bool first_event = true;

	ob_puts(ob, "{\n\"schema\": \"sampo-report\",\n\"version\": ");
	ob_dec_u64(ob, FORMAT_JSON_VERSION);
	ob_puts(ob, ",\n\"input\": ");
	json_string(ob, opts->input);
	ob_puts(ob, ",\n\"sort\": [");
	for (size_t i = 0; i < opts->nr_sort_keys; i++) {
		if (i)
			ob_puts(ob, ", ");
		json_string(ob, opts->sort_keys[i]);
	}
	ob_puts(ob, "],\n\"children\": ");
	ob_puts(ob, opts->children ? "true" : "false");
	ob_puts(ob, ",\n\"callgraph\": ");
	if (opts->graph) {
		ob_puts(ob, "{\"order\": ");
		ob_puts(ob, opts->caller_order ? "\"caller\"" : "\"callee\"");
		ob_puts(ob, ", \"min_percent\": ");
		json_percent(ob, opts->graph_min_percent);
		ob_putc(ob, '}');
	} else {
		ob_puts(ob, "null");
	}
	ob_puts(ob, ",\n\"lost_samples\": ");
	ob_dec_u64(ob, opts->lost_samples);
	ob_puts(ob, ",\n\"events\": [");
	for (size_t i = 0; i < sampo_reader__nr_attrs(reader); i++) {
		uint64_t nr = sampo_hists__nr_samples(hists, (int)i);
		uint64_t total = sampo_hists__total_period(hists, (int)i);
		const struct sampo_hist_entry *e;
		bool first_row = true;

		if (!nr)
			continue; /* as the text: perf's --skip-empty */
		if (opts->percentage_relative)
			sampo_hists__shown(hists, (int)i, &nr, &total);
		ob_puts(ob, first_event ? "\n" : ",\n");
		first_event = false;
		ob_puts(ob, "{\"name\": ");
		json_string(ob, sampo_session__evsel_name(session, (int)i));
		ob_puts(ob, ", \"samples\": ");
		ob_dec_u64(ob, nr);
		ob_puts(ob, ", \"event_count\": ");
		ob_dec_u64(ob, total);
		ob_puts(ob, ", \"rows\": [");
		sampo_hists__for_each_entry(hists, (int)i, e) {
			double pct = total ? sampo_hist_entry__period(e) * 100.0 / total : 0.0;
			int err;

			if (pct < opts->percent_limit)
				continue;
			ob_puts(ob, first_row ? "\n  " : ",\n  ");
			first_row = false;
			err = report_row(ob, e, total, opts->children, pct);

			if (!err && opts->graph)
				err = report_graph(ob, hists, (int)i, e);
			if (err)
				return err;
			ob_putc(ob, '}');
		}
		ob_puts(ob, first_row ? "]}" : "\n]}");
	}
	ob_puts(ob, first_event ? "]\n}\n" : "\n]\n}\n");
	return ob_error(ob);
}

/* ---- script ------------------------------------------------------------- */

void json_script__begin(struct json_script *js, struct outbuf *ob)
{
	*js = (struct json_script){ .ob = ob, .first_sample = true };
	ob_puts(ob, "{\n\"schema\": \"sampo-script\",\n\"version\": ");
	ob_dec_u64(ob, FORMAT_JSON_VERSION);
	ob_puts(ob, ",\n\"samples\": [");
}

/* ", " before every key but the first of an object */
static void sep(struct outbuf *ob, bool *first)
{
	if (!*first)
		ob_puts(ob, ", ");
	*first = false;
}

static void key_s64(struct json_script *js, const char *key, int64_t v)
{
	sep(js->ob, &js->first_key);
	json_key(js->ob, key);
	ob_dec_s64(js->ob, v);
}

void json_script__sample_begin(struct json_script *js, const struct json_script_sample *h)
{
	struct outbuf *ob = js->ob;

	ob_puts(ob, js->first_sample ? "\n{" : ",\n{");
	js->first_sample = false;
	js->first_key = true;
	js->in_chain = false;
	if (h->event) {
		sep(ob, &js->first_key);
		json_key(ob, "event");
		json_string(ob, h->event);
	}
	if (h->comm) {
		sep(ob, &js->first_key);
		json_key(ob, "comm");
		json_string(ob, h->comm);
	}
	if (h->has_pid)
		key_s64(js, "pid", h->pid);
	if (h->has_tid)
		key_s64(js, "tid", h->tid);
	if (h->has_cpu)
		key_s64(js, "cpu", h->cpu);
	if (h->has_time) {
		sep(ob, &js->first_key);
		json_key(ob, "time");
		ob_dec_u64(ob, h->time_ns);
	}
	if (h->has_period) {
		sep(ob, &js->first_key);
		json_key(ob, "period");
		ob_dec_u64(ob, h->period);
	}
}

static void frame_keys(struct outbuf *ob, const struct json_script_frame *fr, bool *first)
{
	if (fr->has_ip) {
		sep(ob, first);
		json_key(ob, "ip");
		json_hex(ob, fr->ip);
	}
	if (fr->want_sym && fr->sym) {
		sep(ob, first);
		json_key(ob, "sym");
		json_string(ob, fr->sym);
		if (fr->want_symoff) {
			sep(ob, first);
			json_key(ob, "symoff");
			ob_dec_u64(ob, fr->symoff);
		}
	}
	if (fr->want_dso && fr->dso) {
		sep(ob, first);
		json_key(ob, "dso");
		json_string(ob, fr->dso);
	}
}

void json_script__ip(struct json_script *js, const struct json_script_frame *fr)
{
	frame_keys(js->ob, fr, &js->first_key);
}

void json_script__chain_begin(struct json_script *js)
{
	sep(js->ob, &js->first_key);
	json_key(js->ob, "callchain");
	ob_putc(js->ob, '[');
	js->in_chain = true;
	js->first_frame = true;
}

void json_script__frame(struct json_script *js, const struct json_script_frame *fr)
{
	bool first = true;

	if (!js->first_frame)
		ob_puts(js->ob, ", ");
	js->first_frame = false;
	ob_putc(js->ob, '{');
	frame_keys(js->ob, fr, &first);
	ob_putc(js->ob, '}');
}

void json_script__sample_end(struct json_script *js)
{
	if (js->in_chain)
		ob_putc(js->ob, ']');
	ob_putc(js->ob, '}');
}

void json_script__end(struct json_script *js)
{
	ob_puts(js->ob, js->first_sample ? "]\n}\n" : "\n]\n}\n");
}
