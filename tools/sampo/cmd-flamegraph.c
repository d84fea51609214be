// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-flamegraph.c - `sampo flamegraph`: the profile as a flame graph, one
 * self-contained HTML page (click to zoom, regular expression search,
 * tooltips, permalinks, icicle mode, one graph per event) or a static SVG.
 * With --diff BASELINE NEW, a differential flame graph: the widths of NEW,
 * each frame coloured by how its share of the profile changed.
 *
 * The files are read as `sampo report --no-children` reads them
 * (profile.c); the trees are aggregated from the distinct stacks
 * (flamegraph-tree.c) and written by flamegraph-html.c or flamegraph-svg.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sampo/hist.h>

#include "builtin.h"
#include "cli.h"
#include "debuginfod-cli.h"
#include "flamegraph.h"
#include "options.h"
#include "outbuf.h"
#include "profile.h"

static const char *const flamegraph_usage[] = {
	"sampo flamegraph [<options>]",
	"sampo flamegraph --diff [<options>] <baseline> <new>",
	"",
	"Draw the samples of a perf.data file as a flame graph: an HTML page that",
	"needs no network (zoom, search, permalinks, icicle mode), or a static SVG.",
	NULL,
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcasecmp(s + a - b, suffix);
}

static bool has_samples(const struct profile *p)
{
	for (int e = 0; e < profile_nr_events(p); e++)
		if (sampo_hists__nr_samples(p->hists, e))
			return true;
	return false;
}

/* read @input into @set; @p is released after */
static int add_file(struct flame_set *set, const char *input, const struct profile_sym_opts *sym)
{
	struct profile p;
	int err = profile_load(&p, input, sym);

	if (!err && !has_samples(&p))
		err = cli_err(0, "'%s' has no samples: nothing to draw", input);
	if (!err && flame_set_add_profile(set, &p))
		err = cli_err(-ENOMEM, "out of memory");
	profile_release(&p);
	return err;
}

static int write_output(const struct flame_set *set, const char *output, bool svg,
			const char *title)
{
	struct outbuf *ob = malloc(sizeof(*ob));
	int fd = STDOUT_FILENO, err;

	if (!ob)
		return cli_err(-ENOMEM, "out of memory");
	if (strcmp(output, "-")) {
		fd = cli_create_output(output, 0644);
		if (fd < 0) {
			free(ob);
			return fd;
		}
	}
	ob_init_fd(ob, fd);
	err = svg ? flame_write_svg(set, title, ob) : flame_write_html(set, title, ob);
	if (err == -ENOMEM || err == -EINVAL) {
		(void)ob_flush(ob);
		err = cli_err(err, "cannot write '%s'", output);
	} else {
		err = ob_flush(ob);
		if (err)
			err = err == -EPIPE ? err : cli_err(err, "cannot write '%s'", output);
	}
	if (fd != STDOUT_FILENO && close(fd) && !err)
		err = cli_err(-errno, "cannot write '%s'", output);
	free(ob);
	return err;
}

int cmd_flamegraph(int argc, const char **argv)
{
	const char *input = NULL, *output = NULL, *format = NULL, *title = NULL;
	struct profile_sym_opts sym = { .inlines = true };
	struct flame_set set = { 0 };
	bool diff = false, svg;
	char title_buf[1024];
	const struct option opts[] = {
		OPT_STRING('i', "input", &input, "file",
			   "input file, '-' for stdin (default: perf.data, or stdin if a pipe)"),
		OPT_STRING('o', "output", &output, "file",
			   "write here ('-': stdout; default: flamegraph.html, or .svg with "
			   "--format svg)"),
		OPT_STRING(0, "format", &format, "html|svg",
			   "html (interactive) or svg (static); default: by the output's name"),
		OPT_BOOLEAN(0, "diff", &diff,
			    "differential flame graph of two files: <baseline> <new>"),
		OPT_STRING(0, "title", &title, "text", "the title (default: the file names)"),
		OPT_BOOLEAN(0, "inline", &sym.inlines,
			    "inlined functions as frames of their own (the default; --no-inline: not)"),
		OPT_GROUP("Symbols"),
		OPT_STRING('k', "vmlinux", &sym.vmlinux, "file", "the kernel's vmlinux"),
		OPT_STRING(0, "kallsyms", &sym.kallsyms, "file", "the kernel's kallsyms snapshot"),
		OPT_STRING(0, "symfs", &sym.symfs, "dir", "look for files under this root too"),
		OPT_BOOLEAN('f', "force", &sym.force,
			    "use files whose build-id differs, and other users' JIT perf maps"),
		OPT_DEBUGINFOD(),
		OPT_END(),
	};
	int ret;

	argc = parse_options(argc, argv, opts, flamegraph_usage, 0);
	if (argc < 0)
		return argc;
	if (diff && argc != 2)
		return usage_error(flamegraph_usage, opts,
				   "--diff takes two files: <baseline> <new>");
	if (!diff && argc > 0)
		return usage_error(flamegraph_usage, opts, "unexpected argument '%s'%s", argv[0],
				   argc == 2 ? " (compare two files with --diff)" : "");
	if (diff && input)
		return usage_error(flamegraph_usage, opts,
				   "--diff names its two files: -i does not go with it");
	if (format && strcmp(format, "html") && strcmp(format, "svg"))
		return usage_error(flamegraph_usage, opts, "unknown --format '%s' (html or svg)",
				   format);
	svg = format ? !strcmp(format, "svg") : output && ends_with(output, ".svg");
	if (!output)
		output = svg ? "flamegraph.svg" : "flamegraph.html";
	if (!input || !*input)
		input = cli_default_input();

	if (diff) {
		size_t nr_base;

		ret = add_file(&set, argv[0], &sym);
		nr_base = set.nr_graphs;
		if (!ret)
			ret = add_file(&set, argv[1], &sym);
		if (!ret)
			flame_set_diff(&set, nr_base);
		snprintf(title_buf, sizeof(title_buf), "%s vs %s", argv[1], argv[0]);
	} else {
		ret = add_file(&set, input, &sym);
		snprintf(title_buf, sizeof(title_buf), "%s", input);
	}
	if (!ret)
		ret = write_output(&set, output, svg, title ? title : title_buf);
	if (!ret && strcmp(output, "-"))
		fprintf(stderr, "sampo flamegraph: wrote '%s'\n", output);
	flame_set_release(&set);
	return ret;
}
