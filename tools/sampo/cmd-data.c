// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-data.c - `sampo data convert --to-json OUT`: a perf.data file as the
 * JSON document of perf 6.1's `perf data convert --to-json`, byte for byte
 *
 * The document, with perf's layout (tabs, one value a line, no trailing
 * commas):
 *
 *	{
 *		"linux-perf-json-version": 1,
 *		"headers": {
 *			"header-version": 1,
 *			"captured-on": "2026-11-25T13:22:16Z",	(the input's mtime, UTC)
 *			"data-offset": 264, "data-size": ..., "feat-offset": ...,
 *			"hostname": ..., "os-release": ..., "arch": ..., "cpu-desc": ...,
 *			"cpuid": ..., "nrcpus-online": 2, "nrcpus-avail": 2,
 *			["clockid", "clock-time", "real-time": with CLOCK_DATA,]
 *			"perf-version": ..., "cmdline": [ ... ]
 *		},
 *		"samples": [
 *			{ "timestamp", "pid", "tid", ["cpu",] "comm",
 *			  "callchain": [ { "ip": "0x..." [, "symbol", "dso"] } ... ] }
 *		]
 *	}
 *
 * Flow: a session in perf's order (ordered by time, as perf's tool with
 * ordered_events) gives COMM, FORK, EXIT, MMAP and MMAP2 to the machine
 * (the records perf's JSON tool hands to the machine: no KSYMBOL); each
 * SAMPLE is resolved to its thread, and either its callchain (every entry,
 * context markers switching the cpumode from user) or, without one, its ip
 * is put on its symbol (resolve.c, as script does) and written with the
 * symbol's name and its DSO's short name.
 *
 * Where perf 6.1 cannot be followed (docs/sampo-data.md says more): a
 * missing header string (no HOSTNAME feature, any pipe, whose features come
 * after the headers) crashes perf 6.1; sampo writes "" as later perf does,
 * and leaves out "cpu-desc" as later perf does. Bytes >= 0x80 in a string
 * come out of perf as "\uffffffXX", which is not JSON; sampo keeps valid
 * UTF-8 and writes \ufffd for the rest (json.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sampo/dso.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/sample.h>
#include <sampo/session.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>
#include <sampo/thread.h>

#include "builtin.h"
#include "cli.h"
#include "json.h"
#include "options.h"
#include "outbuf.h"
#include "resolve.h"

#define PERF_CONTEXT_MAX    ((uint64_t)-4095)
#define PERF_CONTEXT_HV	    ((uint64_t)-32)
#define PERF_CONTEXT_KERNEL ((uint64_t)-128)
#define PERF_CONTEXT_USER   ((uint64_t)-512)

static const char *const data_usage[] = {
	"sampo data convert --to-json <file> [<options>]",
	"",
	"Convert a perf.data file into another format, as 'perf data convert' does.",
	NULL,
};

struct data_ctx {
	const char *input;
	const char *output;
	const char *vmlinux, *kallsyms, *symfs; /* NULL: the library's defaults */
	struct sampo_session *session;
	struct sampo_reader *reader;	     /* the session's */
	struct sampo_machine *machine;	     /* the session's */
	struct sampo_symbolizer *symbolizer; /* the session's */
	uint64_t sample_type;		     /* of all events together (perf's combined one) */
	uint64_t nr_samples;
	struct sampo_addr_location al;
	struct sampo_addr_location chain_al;
	struct outbuf ob;
};

/* perf's output_json_delimiters(): an optional comma, a new line, @depth tabs */
static void delim(struct outbuf *ob, bool comma, int depth)
{
	if (comma)
		ob_putc(ob, ',');
	ob_putc(ob, '\n');
	ob_pad(ob, '\t', (size_t)depth);
}

static void key_string(struct outbuf *ob, bool comma, int depth, const char *key,
		       const char *value)
{
	delim(ob, comma, depth);
	json_key(ob, key);
	json_string(ob, value);
}

static void key_u64(struct outbuf *ob, bool comma, int depth, const char *key, uint64_t v)
{
	delim(ob, comma, depth);
	json_key(ob, key);
	ob_dec_u64(ob, v);
}

static void key_s64(struct outbuf *ob, bool comma, int depth, const char *key, int64_t v)
{
	delim(ob, comma, depth);
	json_key(ob, key);
	ob_dec_s64(ob, v);
}

/* ---- headers ------------------------------------------------------------ */

static void write_headers(struct data_ctx *ctx)
{
	const struct sampo_file_header *fh = sampo_reader__file_header(ctx->reader);
	const struct sampo_features *f = sampo_session__features(ctx->session);
	struct outbuf *ob = &ctx->ob;
	bool pipe = sampo_reader__is_pipe(ctx->reader);
	time_t mtime = (time_t)sampo_reader__mtime(ctx->reader);
	uint64_t data_offset = pipe ? 0 : fh->data.offset, data_size = pipe ? 0 : fh->data.size;
	struct tm tm;
	char buf[64];

#define FEAT(id, field) (f && sampo_features__has(f, SAMPO_FEAT_##id) ? f->field : NULL)
	/* perf's header->version: 1 for "PERFILE2", 0 for the first format "PERFFILE" */
	key_u64(ob, false, 2, "header-version", fh->magic == SAMPO_MAGIC2 ? 1 : 0);
	if (gmtime_r(&mtime, &tm) && strftime(buf, sizeof(buf), "%FT%TZ", &tm))
		key_string(ob, true, 2, "captured-on", buf);
	key_u64(ob, true, 2, "data-offset", data_offset);
	key_u64(ob, true, 2, "data-size", data_size);
	key_u64(ob, true, 2, "feat-offset", data_offset + data_size);
	key_string(ob, true, 2, "hostname", FEAT(HOSTNAME, hostname));
	key_string(ob, true, 2, "os-release", FEAT(OSRELEASE, osrelease));
	key_string(ob, true, 2, "arch", FEAT(ARCH, arch));
	if (FEAT(CPUDESC, cpudesc))
		key_string(ob, true, 2, "cpu-desc", f->cpudesc);
	key_string(ob, true, 2, "cpuid", FEAT(CPUID, cpuid));
	if (f && sampo_features__has(f, SAMPO_FEAT_NRCPUS)) {
		key_u64(ob, true, 2, "nrcpus-online", f->nr_cpus_online);
		key_u64(ob, true, 2, "nrcpus-avail", f->nr_cpus_avail);
	} else {
		key_u64(ob, true, 2, "nrcpus-online", 0);
		key_u64(ob, true, 2, "nrcpus-avail", 0);
	}
	if (f && sampo_features__has(f, SAMPO_FEAT_CLOCK_DATA)) {
		key_u64(ob, true, 2, "clockid", f->clockid);
		key_u64(ob, true, 2, "clock-time", f->clock_clockid_ns);
		key_u64(ob, true, 2, "real-time", f->clock_tod_ns);
	}
	key_string(ob, true, 2, "perf-version", FEAT(VERSION, version));
	delim(ob, true, 2);
	json_key(ob, "cmdline");
	ob_putc(ob, '[');
	if (f && sampo_features__has(f, SAMPO_FEAT_CMDLINE)) {
		for (uint32_t i = 0; i < f->cmdline.nr; i++) {
			delim(ob, i != 0, 3);
			json_string(ob, f->cmdline.strs[i]);
		}
	}
	delim(ob, false, 2);
	ob_putc(ob, ']');
#undef FEAT
}

/* ---- samples ------------------------------------------------------------ */

/* perf's output_sample_callchain_entry(): the ip, and the symbol and its DSO when known */
static void write_entry(struct data_ctx *ctx, struct sampo_machine *machine,
			struct sampo_map *map, uint64_t ip)
{
	struct outbuf *ob = &ctx->ob;
	struct cli_frame fr;

	delim(ob, false, 4);
	ob_putc(ob, '{');
	delim(ob, false, 5);
	json_key(ob, "ip");
	json_hex(ob, ip);
	cli_resolve_frame(ctx->symbolizer, machine, map, ip, true, &fr);
	if (fr.sym && sampo_symbol__name(fr.sym)[0]) {
		const char *dso = NULL;

		ob_putc(ob, ',');
		key_string(ob, false, 5, "symbol", sampo_symbol__name(fr.sym));
		if (fr.map)
			dso = sampo_dso__short_name(sampo_map__dso(fr.map));
		if (dso && dso[0]) {
			ob_putc(ob, ',');
			key_string(ob, false, 5, "dso", dso);
		}
	}
	delim(ob, false, 4);
	ob_putc(ob, '}');
}

static void write_callchain(struct data_ctx *ctx, struct sampo_machine *machine,
			    const struct sampo_sample *s)
{
	uint8_t cpumode = SAMPO_CPUMODE_USER;
	bool first = true;

	/* every entry, as perf's JSON tool: no 127 limit, unknown markers skipped */
	for (uint64_t i = 0; i < s->callchain_nr; i++) {
		uint64_t ip = s->callchain[i];
		struct sampo_map *map;

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_HV)
				cpumode = SAMPO_CPUMODE_HYPERVISOR;
			else if (ip == PERF_CONTEXT_KERNEL)
				cpumode = SAMPO_CPUMODE_KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				cpumode = SAMPO_CPUMODE_USER;
			continue;
		}
		if (!first)
			ob_putc(&ctx->ob, ',');
		first = false;
		map = ctx->al.thread ? sampo_machine__find_map(machine, ctx->al.thread, cpumode,
							       ip, &ctx->chain_al) :
				       NULL;
		write_entry(ctx, machine, map, ip);
	}
}

static int data_sample(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct data_ctx *ctx = arg;
	const struct sampo_sample *s = &ev->sample;
	struct outbuf *ob = &ctx->ob;
	struct sampo_machine *machine = ctx->machine;
	struct sampo_thread *thread;
	int err;

	(void)session;
	if (ev->attr_idx < 0)
		return 0;
	/*
	 * perf's JSON tool keeps no guest machines: a guest's sample is looked
	 * up in the host, where its cpumode finds no map.
	 */
	err = sampo_machine__resolve(machine, s, &ctx->al);
	if (err)
		return err;
	thread = ctx->al.thread;

	if (ctx->nr_samples++)
		ob_putc(ob, ',');
	delim(ob, false, 2);
	ob_putc(ob, '{');
	key_s64(ob, false, 3, "timestamp", (int64_t)s->time);
	key_s64(ob, true, 3, "pid", thread ? sampo_thread__pid(thread) : (int32_t)s->pid);
	key_s64(ob, true, 3, "tid", thread ? sampo_thread__tid(thread) : (int32_t)s->tid);
	if (ctx->sample_type & SAMPO_SAMPLE_CPU)
		key_s64(ob, true, 3, "cpu", (int32_t)s->cpu);
	key_string(ob, true, 3, "comm", thread ? sampo_thread__comm(thread) : "");
	delim(ob, true, 3);
	json_key(ob, "callchain");
	ob_putc(ob, '[');
	if (s->sample_type & SAMPO_SAMPLE_CALLCHAIN)
		write_callchain(ctx, machine, s);
	else
		write_entry(ctx, machine, ctx->al.map, s->ip);
	delim(ob, false, 3);
	ob_putc(ob, ']');
	delim(ob, false, 2);
	ob_putc(ob, '}');
	/* a full disk: stop reading */
	return ob_error(ob) ? 1 : 0;
}

/* ---- the conversion ----------------------------------------------------- */

static int convert_json(struct data_ctx *ctx, bool force)
{
	char errbuf[256] = "";
	SAMPO_OPTS(sampo_symbolizer_opts, sopts, .vmlinux = ctx->vmlinux, .kallsyms = ctx->kallsyms,
		   .symfs = ctx->symfs);
	/* a damaged feature is left out, as perf goes on without it */
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true,
		   .features = SAMPO_SESSION_FEATURES_EACH, .symbolizer = &sopts,
		   .machine_mask = (1ull << SAMPO_RECORD_COMM) | (1ull << SAMPO_RECORD_FORK) |
				   (1ull << SAMPO_RECORD_EXIT) | (1ull << SAMPO_RECORD_MMAP) |
				   (1ull << SAMPO_RECORD_MMAP2),
		   .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	const struct sampo_tool tool = { .sample = data_sample };
	const struct sampo_feature_error *ferr;
	int fd, err, ret, nr_damaged;
	off_t size;

	err = sampo_session__open(ctx->input, &opts, &ctx->session);
	if (err)
		return cli_err(0, "%s", errbuf);
	nr_damaged = sampo_session__damaged_features(ctx->session, &ferr);
	if (nr_damaged)
		cli_warn_damaged_features(ctx->input, nr_damaged, ferr);
	ctx->reader = sampo_session__reader(ctx->session);
	ctx->machine = sampo_session__machine(ctx->session);
	ctx->symbolizer = sampo_session__symbolizer(ctx->session);
	if (!ctx->symbolizer)
		return cli_err(0, "%s", sampo_session__error(ctx->session));
	for (size_t i = 0; i < sampo_reader__nr_attrs(ctx->reader); i++)
		ctx->sample_type |= sampo_reader__attr(ctx->reader, i)->sample_type;

	/* perf's: a new file, or with --force the old one truncated */
	if (force) {
		fd = cli_create_output(ctx->output, 0666);
		if (fd < 0)
			return fd;
	} else {
		fd = open(ctx->output, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)
			return cli_err(0, "'%s' exists: use --force to overwrite it", ctx->output);
		if (fd < 0)
			return cli_err(-errno, "cannot create '%s'", ctx->output);
	}
	ob_init_fd(&ctx->ob, fd);

	ob_putc(&ctx->ob, '{');
	delim(&ctx->ob, false, 1);
	ob_puts(&ctx->ob, "\"linux-perf-json-version\": 1");
	delim(&ctx->ob, true, 1);
	ob_puts(&ctx->ob, "\"headers\": {");
	write_headers(ctx);
	delim(&ctx->ob, false, 1);
	ob_putc(&ctx->ob, '}');
	delim(&ctx->ob, true, 1);
	ob_puts(&ctx->ob, "\"samples\": [");
	ret = sampo_session__process(ctx->session, &tool, ctx);
	delim(&ctx->ob, false, 1);
	ob_putc(&ctx->ob, ']');
	delim(&ctx->ob, false, 0);
	ob_puts(&ctx->ob, "}\n");
	err = ob_flush(&ctx->ob);
	size = lseek(fd, 0, SEEK_CUR);
	if (close(fd) && !err)
		err = -errno;
	if (err)
		return cli_err(err, "cannot write '%s'", ctx->output);
	if (ret)
		return cli_err(0, "%s", sampo_session__error(ctx->session));
	fprintf(stderr, "[ sampo data convert: Converted '%s' into JSON data '%s' ]\n",
		ctx->input, ctx->output);
	fprintf(stderr, "[ sampo data convert: Converted and wrote %.3f MB (%" PRIu64 " samples) ]\n",
		(double)size / 1024.0 / 1024.0, ctx->nr_samples);
	return 0;
}

int cmd_data(int argc, const char **argv)
{
	struct data_ctx *ctx;
	const char *input = NULL, *to_json = NULL, *to_ctf = NULL;
	const char *vmlinux = NULL, *kallsyms = NULL, *symfs = NULL;
	bool force = false;
	const struct option opts[] = {
		OPT_STRING(0, "to-json", &to_json, "file", "write the samples as JSON into <file>"),
		{ .type = OPTION_STRING, .long_name = "to-ctf", .value = &to_ctf, .argh = "dir",
		  .flags = OPT_F_HIDDEN },
		OPT_STRING('i', "input", &input, "file", "input file (default: perf.data)"),
		OPT_BOOLEAN('f', "force", &force, "overwrite the output file"),
		OPT_GROUP("Symbols (sampo's; perf has none here)"),
		OPT_STRING('k', "vmlinux", &vmlinux, "file", "the kernel's vmlinux"),
		OPT_STRING(0, "kallsyms", &kallsyms, "file", "the kernel's kallsyms snapshot"),
		OPT_STRING(0, "symfs", &symfs, "dir", "look for files under this root too"),
		OPT_END(),
	};
	int ret;

	/* "data convert ...": the subcommand, then its options */
	if (argc > 1 && !strcmp(argv[1], "convert")) {
		argv++;
		argc--;
	} else if (argc > 1 && argv[1][0] != '-') {
		return usage_error(data_usage, opts, "unknown subcommand '%s' (sampo knows: convert)",
				   argv[1]);
	} else {
		/* options without a subcommand: -h works, anything else is a usage error */
		argc = parse_options(argc, argv, opts, data_usage, 0);
		if (argc < 0)
			return argc;
		return usage_error(data_usage, opts, "no subcommand (sampo knows: convert)");
	}
	argc = parse_options(argc, argv, opts, data_usage, 0);
	if (argc < 0)
		return argc;
	if (argc > 0)
		return usage_error(data_usage, opts, "unexpected argument '%s'", argv[0]);
	if (to_ctf)
		return cli_err(0, "--to-ctf is not supported: sampo converts to JSON only");
	if (!to_json || !*to_json)
		return usage_error(data_usage, opts, "no output format: give --to-json <file>");

	/* the context holds the 64 KiB output buffer: keep it off the stack */
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return cli_err(-ENOMEM, "out of memory");
	ctx->input = input && *input ? input : cli_default_input();
	ctx->output = to_json;
	ctx->vmlinux = vmlinux;
	ctx->kallsyms = kallsyms;
	ctx->symfs = symfs;
	ret = convert_json(ctx, force);
	sampo_addr_location__exit(&ctx->al);
	sampo_addr_location__exit(&ctx->chain_al);
	sampo_session__close(ctx->session);
	free(ctx);
	return ret;
}
