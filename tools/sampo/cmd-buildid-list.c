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
#include <sampo/kmodule.h>
#include <sampo/proc-modules.h>
#include <sampo/reader.h>
#include <sampo/session.h>

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
		return cli_err(0, "%s", sampo_session__error(ctx->session));
	return 0;
}

/* ---- output ------------------------------------------------------------- */

/* perf's machines__fprintf_dsos_buildid(): host first, then the guests by pid */
static int bl_print(struct bl_ctx *ctx, bool with_hits)
{
	const struct sampo_dsos_entry *d;

	for (size_t it = 0; (d = sampo_dsos__next(ctx->dsos, &it));) {
		char hex[SAMPO_BUILD_ID_HEX_SIZE] = "";

		if (with_hits && !d->hit)
			continue;
		if (d->bid.size)
			(void)sampo_build_id__to_hex(&d->bid, hex, sizeof(hex));
		printf("%-40s %s\n", hex, d->long_name);
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

struct kmap_line {
	uint64_t start, end;
	char *name;
	struct sampo_build_id bid; /* size 0: unknown */
};

/* /proc/kallsyms: where the kernel text starts (_text, else _stext) and ends (_etext) */
static int running_kernel_range(uint64_t *start, uint64_t *end)
{
	FILE *fp = fopen("/proc/kallsyms", "r");
	char line[512];
	uint64_t text = 0, stext = 0, etext = 0;

	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long addr;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			text = addr;
		else if (!strcmp(name, "_stext"))
			stext = addr;
		else if (!strcmp(name, "_etext"))
			etext = addr;
		if (text && etext)
			break;
	}
	fclose(fp);
	*start = text ? text : stext;
	*end = etext ? etext : UINT64_MAX;
	return *start ? 0 : -ENOENT;
}

/*
 * perf's module long names: each module's file under /lib/modules/RELEASE,
 * the last one found in directory order (perf's maps__set_modules_path_dir()
 * sets the path of every one it finds), else "[name]"
 */
static char *module_path(const struct sampo_module_file *files, size_t nr, const char *name)
{
	char *out = NULL;

	for (size_t i = nr; i-- > 0;) {
		if (!strcmp(files[i].name, name))
			return strdup(files[i].path);
	}
	if (asprintf(&out, "[%s]", name) < 0)
		out = NULL;
	return out;
}

static int cmp_kmap(const void *a, const void *b)
{
	const struct kmap_line *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/*
 * -m: perf's buildid__show_kernel_maps(): the kernel map and one map per
 * loaded module, by address, as "<build-id> <start> <end> <name>".
 */
static int show_kernel_maps(void)
{
	struct kmap_line *lines = NULL;
	size_t nr = 0;
	struct sampo_module_file *files = NULL;
	struct sampo_proc_module *mods = NULL;
	size_t nr_files = 0, nr_mods = 0;
	char release[256] = "", dir[300];
	FILE *fp;
	int err;

	lines = calloc(1, sizeof(*lines));
	if (!lines)
		return cli_err(-ENOMEM, "out of memory");
	err = running_kernel_range(&lines[0].start, &lines[0].end);
	if (err) {
		free(lines);
		return cli_err(err, "cannot find the kernel text in '/proc/kallsyms'");
	}
	lines[0].name = strdup("[kernel.kallsyms]");
	(void)sampo_build_id__from_notes_file("/sys/kernel/notes", &lines[0].bid);
	nr = 1;

	fp = fopen("/proc/sys/kernel/osrelease", "r");
	if (fp) {
		if (fgets(release, sizeof(release), fp))
			release[strcspn(release, "\n")] = '\0';
		fclose(fp);
	}
	snprintf(dir, sizeof(dir), "/lib/modules/%s", release);
	(void)sampo_module_files__walk(dir, &files, &nr_files); /* what it found, if short of memory */
	/* the library's one /proc/modules reader; none (no modules, unreadable): the kernel alone */
	(void)sampo_proc_modules__read(NULL, &mods, &nr_mods);
	for (size_t i = 0; i < nr_mods; i++) {
		const struct sampo_proc_module *m = &mods[i];
		char path[128];
		struct kmap_line *l;

		l = realloc(lines, (nr + 1) * sizeof(*lines));
		if (!l)
			break;
		lines = l;
		l = &lines[nr++];
		memset(l, 0, sizeof(*l));
		l->start = m->addr;
		l->end = m->addr + m->size_bytes;
		l->name = module_path(files, nr_files, m->name);
		snprintf(path, sizeof(path), "/sys/module/%s/notes/.note.gnu.build-id", m->name);
		(void)sampo_build_id__from_notes_file(path, &l->bid);
	}
	free(mods);
	sampo_module_files__free(files, nr_files);
	qsort(lines, nr, sizeof(*lines), cmp_kmap);
	for (size_t i = 0; i < nr; i++) {
		char hex[SAMPO_BUILD_ID_HEX_SIZE] = "";

		if (lines[i].bid.size)
			(void)sampo_build_id__to_hex(&lines[i].bid, hex, sizeof(hex));
		printf("%s %16" PRIx64 " %16" PRIx64 " %s\n", hex, lines[i].start, lines[i].end,
		       lines[i].name ? lines[i].name : "");
		free(lines[i].name);
	}
	free(lines);
	if (fflush(stdout) || ferror(stdout))
		return cli_err(-EIO, "cannot write output");
	return 0;
}

static int run_buildid_list(struct bl_ctx *ctx, const char *input, bool with_hits)
{
	char errbuf[256] = "";
	/* the machine takes what perf's buildid-list tool handles; the BUILD_ID table is read here */
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true,
		   .features = SAMPO_SESSION_FEATURES_NONE,
		   .machine_mask = (1ULL << SAMPO_RECORD_MMAP) | (1ULL << SAMPO_RECORD_MMAP2) |
				   (1ULL << SAMPO_RECORD_FORK) | (1ULL << SAMPO_RECORD_EXIT),
		   .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	bool pipe;
	int err;

	if (print_elf_build_id(input))
		return 0;
	err = sampo_session__open(input, &opts, &ctx->session);
	if (err)
		return cli_err(0, "%s", errbuf);
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
	return bl_print(ctx, with_hits);
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
