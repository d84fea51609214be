/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.h - a perf.data file read into histograms with call chains, for
 * the commands that draw whole stacks (flamegraph, script --format
 * speedscope): the session, its symbolizer and the hists, with the
 * distinct stacks ready to walk (sampo_hists__nr_stacks() and friends).
 */
#ifndef SAMPO_CLI_PROFILE_H
#define SAMPO_CLI_PROFILE_H

#include <stdbool.h>

struct sampo_session;
struct sampo_hists;

/* the symbol options every such command takes */
struct profile_sym_opts {
	const char *vmlinux;
	const char *kallsyms;
	const char *symfs;
	bool force;
	bool inlines; /* inlined functions as frames of their own (sampo_hists_opts.inline_frames) */
};

struct profile {
	const char *input;
	struct sampo_session *session;
	struct sampo_hists *hists;
};

/*
 * profile_load() - read @input whole; errors are printed ("sampo <cmd>:
 * ...") and returned as cli_err() does
 */
int profile_load(struct profile *p, const char *input, const struct profile_sym_opts *sym);
void profile_release(struct profile *p);

/* profile_nr_events() / profile_event_name() - the file's events */
int profile_nr_events(const struct profile *p);
const char *profile_event_name(const struct profile *p, int evsel);

/*
 * profile_frame_label() - what a frame is called in a drawn stack: its
 * symbol, else "[dso]" (FlameGraph's stackcollapse-perf does the same for
 * an unknown symbol), else "[unknown]"; @buf holds the bracketed forms
 */
const char *profile_frame_label(const struct profile *p, unsigned int frame, char *buf,
				size_t buf_sz);

#endif /* SAMPO_CLI_PROFILE_H */
