// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-buildid-list.c - `sampo buildid-list`: the build-ids of the DSOs a
 * perf.data file knows, one "<build-id> <name>" line each, as perf 6.1's
 * `perf buildid-list` prints them.
 *
 * perf answers from its session's DSO lists; libsampo's struct sampo_dsos
 * (<sampo/dsos.h>) keeps them the way perf fills them. Which DSOs are
 * printed, and whether the records are read at all, follows perf:
 *
 *	with_hits = -H; a file with AUXTRACE data lists everything (perf does
 *	not decode the trace); a file without a BUILD_ID table (pipe mode, -z,
 *	--buildid-mmap) lists hits only, since only the records name its DSOs;
 *	records are read when listing hits, or in pipe mode.
 *
 * The records go through a session whose machine takes only what perf's
 * buildid-list tool handles (MMAP, MMAP2, FORK, EXIT: no COMM, no KSYMBOL).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/buildid.h>
#include <sampo/dsos.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/synthesize.h>

#include "builtin.h"
#include "cli.h"
#include "options.h"

static const char *const buildid_list_usage[] = {
	"sampo buildid-list [<options>]",
	"",
	"List the build-ids of the DSOs a perf.data file knows, as 'perf buildid-list' does.",
	NULL,
};

struct bl_ctx {
	struct sampo_session *session;
	struct sampo_reader *reader; /* the session's */
	struct sampo_dsos *dsos;
	bool by_name; /* a file of perf >= 6.3: perf 6.12's order, by name */
};

/*
 * The other features are not needed here, but a damaged one is worth one
 * warning (perf lists the build-ids all the same). A damaged BUILD_ID is
 * bl_read_build_id_table()'s to report.
 */
static void bl_check_features(struct bl_ctx *ctx, const char *input)
{
	struct sampo_feature_error fe;
	struct sampo_features *f = NULL;
	int nr;

	if (sampo_reader__is_pipe(ctx->reader))
		return;
	nr = sampo_features__parse_each(ctx->reader, &f, &fe);
	if (nr > 0 && fe.feat != SAMPO_FEAT_BUILD_ID)
		cli_warn_damaged_features(input, nr, &fe);
	if (nr >= 0 && f && sampo_features__has(f, SAMPO_FEAT_VERSION) && f->version) {
		unsigned int major = 0, minor = 0;

		/*
		 * perf 6.1 refuses the files of perf 6.3 and later, which perf
		 * 6.12 reads: sampo lists those as 6.12 does, its DSOs sorted
		 * by name (6.9 keeps them in an array sorted by long name)
		 */
		if (sscanf(f->version, "%u.%u", &major, &minor) == 2)
			ctx->by_name = major > 6 || (major == 6 && minor >= 3);
	}
	sampo_features__delete(f);
}

static int bl_read_build_id_table(struct bl_ctx *ctx, const char *input)
{
	struct sampo_feature_error ferr = { 0 };
	struct sampo_features *f;
	const void *data;
	size_t size;
	int err;

	err = sampo_reader__feature(ctx->reader, SAMPO_FEAT_BUILD_ID, &data, &size);
	if (err == -ENOENT)
		return 0;
	if (err)
		return cli_err(err, "cannot read the build-id table of '%s'", input);
	f = sampo_features__new();
	if (!f)
		return cli_err(-ENOMEM, "out of memory");
	err = sampo_features__parse_one(f, SAMPO_FEAT_BUILD_ID, data, size,
					sampo_reader__needs_swap(ctx->reader), &ferr);
	if (err) {
		sampo_features__delete(f);
		if (err == -SAMPO_ERR_MALFORMED)
			return cli_err(
				0,
				"'%s': BUILD_ID feature at %#" PRIx64 ", offset %#" PRIx64 ": %s",
				input,
				sampo_reader__feature_offset(ctx->reader, SAMPO_FEAT_BUILD_ID),
				ferr.offset, ferr.msg);
		return cli_err(err, "cannot parse the build-id table of '%s'", input);
	}
	err = sampo_dsos__add_build_ids(ctx->dsos, f);
	sampo_features__delete(f);
	return err ? cli_err(err, "cannot read the build-id table of '%s'", input) : 0;
}

/* every record the list cares about, after the session's machine has seen it */
static int bl_record(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct bl_ctx *ctx = arg;

	(void)session;
	return sampo_dsos__process_event(ctx->dsos, ev);
}

static int bl_process_events(struct bl_ctx *ctx)
{
	const struct sampo_tool tool = {
		.sample = bl_record,
		.mmap = bl_record,
		.build_id = bl_record,
	};
	int err;

	err = sampo_session__process(ctx->session, &tool, ctx);
	if (err)
		return cli_err_read(err, ctx->reader, sampo_session__error(ctx->session));
	return 0;
}

/* ---- output ------------------------------------------------------------- */

/* perf's machines__fprintf_dsos_buildid(): host first, then the guests by pid */
static int bl_each(struct bl_ctx *ctx, bool with_hits, buildid_list_fn fn, void *arg)
{
	const struct sampo_dsos_entry *d;

	for (size_t it = 0; (d = sampo_dsos__next(ctx->dsos, &it));) {
		int err;

		if (with_hits && !d->hit)
			continue;
		err = fn(arg, d->long_name, &d->bid, d->hit);
		if (err)
			return err;
	}
	return 0;
}

static int bl_print_one(void *arg, const char *name, const struct sampo_build_id *bid, bool hit)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE] = "";

	(void)arg;
	(void)hit;
	if (bid->size)
		(void)sampo_build_id__to_hex(bid, hex, sizeof(hex));
	printf("%-40s %s\n", hex, name);
	return 0;
}

struct bl_line {
	const char *name;
	struct sampo_build_id bid;
};

struct bl_lines {
	struct bl_line *v;
	size_t nr, cap;
};

static int bl_collect(void *arg, const char *name, const struct sampo_build_id *bid, bool hit)
{
	struct bl_lines *l = arg;

	(void)hit;
	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct bl_line *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->nr++] = (struct bl_line){ .name = name, .bid = *bid };
	return 0;
}

static int bl_line_cmp(const void *a, const void *b)
{
	return strcmp(((const struct bl_line *)a)->name, ((const struct bl_line *)b)->name);
}

static int bl_print(struct bl_ctx *ctx, bool with_hits)
{
	if (ctx->by_name) {
		struct bl_lines l = { 0 };
		int err = bl_each(ctx, with_hits, bl_collect, &l);

		if (err) {
			free(l.v);
			return cli_err(err, "out of memory");
		}
		if (l.nr)
			qsort(l.v, l.nr, sizeof(*l.v), bl_line_cmp);
		for (size_t i = 0; i < l.nr; i++)
			(void)bl_print_one(NULL, l.v[i].name, &l.v[i].bid, true);
		free(l.v);
	} else {
		(void)bl_each(ctx, with_hits, bl_print_one, NULL);
	}
	if (fflush(stdout) || ferror(stdout))
		return cli_err(errno == EPIPE ? -EPIPE : -EIO, "cannot write output");
	return 0;
}

static void bl_ctx_release(struct bl_ctx *ctx)
{
	sampo_dsos__delete(ctx->dsos);
	sampo_session__close(ctx->session);
}

/* -i names an ELF file: print its build-id, as perf does. Return: true if it did. */
static bool print_elf_build_id(const char *path)
{
	static const char elf_magic[4] = { 0x7f, 'E', 'L', 'F' };
	struct sampo_build_id bid;
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	char magic[4];
	struct stat st;
	FILE *fp;
	bool elf;

	/* only a regular file: reading the magic of a FIFO would eat the stream */
	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	fp = fopen(path, "rb");
	if (!fp)
		return false;
	elf = fread(magic, 1, sizeof(magic), fp) == sizeof(magic) &&
	      !memcmp(magic, elf_magic, sizeof(magic));
	fclose(fp);
	if (!elf || sampo_build_id__from_elf(path, &bid) ||
	    sampo_build_id__to_hex(&bid, hex, sizeof(hex)) < 0)
		return false;
	printf("%s\n", hex);
	return true;
}

/* -k: the running kernel's build-id, from /sys/kernel/notes */
static int show_kernel_build_id(void)
{
	struct sampo_build_id bid;
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	int err;

	err = sampo_build_id__from_notes_file("/sys/kernel/notes", &bid);
	if (err)
		return cli_err(err, "cannot read the kernel build-id from '/sys/kernel/notes'");
	(void)sampo_build_id__to_hex(&bid, hex, sizeof(hex));
	printf("%s\n", hex);
	return 0;
}

/* ---- -m: the running kernel's maps ------------------------------------- */

/*
 * -m: perf's buildid__show_kernel_maps(): the kernel map and one map per
 * loaded module, by address, as "<build-id> <start> <end> <name>".
 */
static int show_kernel_maps(void)
{
	struct sampo_kernel_map *maps = NULL;
	size_t nr = 0;
	int err;

	err = sampo_synthesize__kernel_maps(NULL, &maps, &nr);
	if (err == -ENOMEM)
		return cli_err(err, "out of memory");
	if (err)
		return cli_err(err, "cannot find the kernel text in '/proc/kallsyms'");
	for (size_t i = 0; i < nr; i++) {
		char hex[SAMPO_BUILD_ID_HEX_SIZE] = "";

		if (maps[i].bid.size)
			(void)sampo_build_id__to_hex(&maps[i].bid, hex, sizeof(hex));
		printf("%s %16" PRIx64 " %16" PRIx64 " %s\n", hex, maps[i].start, maps[i].end,
		       maps[i].name);
	}
	sampo_kernel_maps__free(maps, nr);
	if (fflush(stdout) || ferror(stdout))
		return cli_err(-EIO, "cannot write output");
	return 0;
}

/* read @input as buildid-list does; Return: 0 and *@with_hits as perf decides it, or the exit code */
static int bl_load(struct bl_ctx *ctx, const char *input, bool *with_hits_io)
{
	bool with_hits = *with_hits_io;
	char errbuf[256] = "";
	/* the machine takes what perf's buildid-list tool handles; the BUILD_ID table is read here */
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true,
		   .features = SAMPO_SESSION_FEATURES_NONE,
		   .machine_mask = (1ULL << SAMPO_RECORD_MMAP) | (1ULL << SAMPO_RECORD_MMAP2) |
				   (1ULL << SAMPO_RECORD_FORK) | (1ULL << SAMPO_RECORD_EXIT),
		   .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	bool pipe;
	int err;

	err = sampo_session__open(input, &opts, &ctx->session);
	if (err)
		return cli_err_open(err, input, errbuf);
	ctx->reader = sampo_session__reader(ctx->session);
	err = sampo_dsos__new(sampo_session__machine(ctx->session), &ctx->dsos);
	if (err)
		return cli_err(err, "out of memory");

	pipe = sampo_reader__is_pipe(ctx->reader);
	if (!pipe && sampo_reader__has_feature(ctx->reader, SAMPO_FEAT_AUXTRACE))
		with_hits = false;
	if (!sampo_reader__has_feature(ctx->reader, SAMPO_FEAT_BUILD_ID))
		with_hits = true;
	bl_check_features(ctx, input);
	err = bl_read_build_id_table(ctx, input);
	if (err)
		return err;
	if (with_hits || pipe) {
		err = bl_process_events(ctx);
		if (err)
			return err;
	}
	*with_hits_io = with_hits;
	return 0;
}

static int run_buildid_list(struct bl_ctx *ctx, const char *input, bool with_hits)
{
	int err;

	if (print_elf_build_id(input))
		return 0;
	err = bl_load(ctx, input, &with_hits);
	return err ? err : bl_print(ctx, with_hits);
}

int buildid_list_each(const char *input, bool with_hits, buildid_list_fn fn, void *arg)
{
	struct bl_ctx ctx = { 0 };
	int err;

	err = bl_load(&ctx, input, &with_hits);
	if (!err)
		err = bl_each(&ctx, with_hits, fn, arg);
	bl_ctx_release(&ctx);
	return err;
}

int cmd_buildid_list(int argc, const char **argv)
{
	const char *input = NULL;
	bool with_hits = false, force = false, show_kernel = false, show_kernel_maps_opt = false;
	const struct option opts[] = {
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_BOOLEAN('H', "with-hits", &with_hits, "show only DSOs with hits"),
		OPT_STRING('i', "input", &input, "file",
			   "input file, '-' for stdin (default: perf.data, or stdin if a pipe)"),
		OPT_BOOLEAN('k', "kernel", &show_kernel, "show the build-id of the running kernel"),
		OPT_BOOLEAN(
			'm', "kernel-maps", &show_kernel_maps_opt,
			"show the build-ids of the running kernel and modules, with their maps"),
		OPT_END(),
	};
	struct bl_ctx ctx = { 0 };
	int ret;

	argc = parse_options(argc, argv, opts, buildid_list_usage, 0);
	if (argc < 0)
		return argc;
	if (argc > 0)
		return usage_error(buildid_list_usage, opts, "unexpected argument '%s'", argv[0]);
	(void)force; /* sampo never refuses a file for its owner, so there is nothing to force */
	if (show_kernel)
		return show_kernel_build_id();
	if (show_kernel_maps_opt)
		return show_kernel_maps();
	if (!input || !*input)
		input = cli_default_input();

	ret = run_buildid_list(&ctx, input, with_hits);
	bl_ctx_release(&ctx);
	return ret;
}
