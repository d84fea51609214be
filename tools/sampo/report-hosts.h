/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report-hosts.h - the report of several inputs (report-hosts.c), called by
 * cmd-report.c when it is given more than one -i or the "host" sort key.
 */
#ifndef SAMPO_CLI_REPORT_HOSTS_H
#define SAMPO_CLI_REPORT_HOSTS_H

#include <stdbool.h>
#include <stddef.h>

struct sampo_hists_opts;
struct sampo_symbolizer_opts;

/* the sort keys of a report of several inputs */
enum report_host_key { REPORT_KEY_HOST, REPORT_KEY_COMM, REPORT_KEY_DSO, REPORT_KEY_SYM };

struct report_hosts_args {
	const char *const *inputs;
	size_t nr_inputs;
	enum report_host_key keys[4];
	size_t nr_keys;
	const struct sampo_hists_opts *hists; /* filters, children, max_stack */
	const struct sampo_symbolizer_opts *symbolizer;
	unsigned int nr_threads; /* 0: one per CPU */
	bool children;
	bool show_nr_samples;
	double percent_limit;
};

/*
 * report_hosts_parse_sort() - --sort for several inputs: host, comm, dso,
 * sym (or symbol); NULL: host,comm,dso,sym. Return: 0, or an error printed.
 */
int report_hosts_parse_sort(const char *s, enum report_host_key *keys, size_t *nr);

/*
 * hosts_warnings_hold() / _release() - collect the library's warnings while
 * many files are read (one line per distinct message, naming the first file
 * and counting the others); print them (@show) or drop them.
 */
void hosts_warnings_hold(void);
void hosts_warnings_release(bool show);

/* report_hosts() - read, merge and print. Return: 0, or an error printed. */
int report_hosts(const struct report_hosts_args *args);

#endif /* SAMPO_CLI_REPORT_HOSTS_H */
