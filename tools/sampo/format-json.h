/* SPDX-License-Identifier: GPL-2.0 */
/*
 * format-json.h - `sampo report --format json` and `sampo script --format
 * json`: the documents of docs/format-json.md (schema "sampo-report" and
 * "sampo-script", version FORMAT_JSON_VERSION), streamed through an outbuf
 *
 * report: json_report__print() walks the histograms after resort, one
 * "events" entry per event with samples, one row per table line.
 *
 * script: one object per sample, one sample a line:
 *
 *	json_script__begin(&js, ob);
 *	for each sample:
 *		json_script__sample_begin(&js, &head);
 *		json_script__chain_begin(&js); then json_script__frame(&js, &fr) each
 *		  or json_script__ip(&js, &fr);		(without a callchain)
 *		json_script__sample_end(&js);
 *	json_script__end(&js);
 */
#ifndef SAMPO_FORMAT_JSON_H
#define SAMPO_FORMAT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"

#define FORMAT_JSON_VERSION 1

struct sampo_hists;
struct sampo_session;

/* what the report was asked for, written into the document */
struct json_report_opts {
	const char *input;
	const char *const *sort_keys; /* key names, in order */
	size_t nr_sort_keys;
	bool children;
	double percent_limit; /* rows under it are left out, as in the text */
	uint64_t lost_samples;
	/* the rows carry their call graphs (the text draws them) */
	bool graph;
	bool caller_order;	 /* graphs root first (-G, -g caller, children mode) */
	double graph_min_percent; /* branches under it are left out, as in the text */
	/* --percentage relative: samples, event count and shares of what the filters keep */
	bool percentage_relative;
};

/* json_report__print() - the whole report document. Return: the outbuf's sticky error, or 0 */
int json_report__print(struct outbuf *ob, struct sampo_hists *hists,
		       struct sampo_session *session, const struct json_report_opts *opts);

/* the head of one sample; a NULL string or a false has_* leaves the key out */
struct json_script_sample {
	const char *event;
	const char *comm;
	bool has_pid, has_tid, has_cpu, has_time, has_period;
	int32_t pid, tid, cpu;
	uint64_t time_ns, period;
};

/* one address: the sampled ip, or a callchain entry */
struct json_script_frame {
	bool has_ip;
	uint64_t ip; /* as script prints it: in the DSO for user-space entries of a chain */
	bool want_sym, want_symoff, want_dso;
	const char *sym; /* NULL: unknown */
	uint64_t symoff;
	const char *dso; /* NULL: unknown */
};

/* the state of one script document (no heap memory: nothing to release) */
struct json_script {
	struct outbuf *ob;
	bool first_sample, first_key, first_frame, in_chain;
};

void json_script__begin(struct json_script *js, struct outbuf *ob);
void json_script__sample_begin(struct json_script *js, const struct json_script_sample *head);
/* json_script__ip() - the frame's keys in the sample itself (no callchain) */
void json_script__ip(struct json_script *js, const struct json_script_frame *fr);
/* json_script__chain_begin() - open the sample's "callchain" array (even if it stays empty) */
void json_script__chain_begin(struct json_script *js);
/* json_script__frame() - one entry of the callchain */
void json_script__frame(struct json_script *js, const struct json_script_frame *fr);
void json_script__sample_end(struct json_script *js);
void json_script__end(struct json_script *js);

#endif /* SAMPO_FORMAT_JSON_H */
