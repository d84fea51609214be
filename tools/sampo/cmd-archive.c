// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-archive.c - `sampo archive`: pack what the DSOs with samples of a
 * perf.data file need to be symbolized elsewhere into one tar file in perf
 * archive's layout (`tar xf OUT -C ~/.debug` works for perf), optionally
 * with the profile itself (--all, perf 6.12's layout); and --unpack.
 *
 * What goes in, per build-id of a DSO with samples (the DSOs perf archive
 * takes, from `buildid-list -H`): the cache entry (every file of
 * NAME/BID: elf, debug, kallsyms, vdso...) and its .build-id link, as perf
 * archive packs them. A DSO the cache lacks is taken from its recorded path
 * when that file still has the build-id, and the kernel from /proc/kallsyms
 * when it is the running one; any other is named in a warning.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sampo/archive.h>
#include <sampo/buildid-cache.h>
#include <sampo/buildid.h>
#include <sampo/common.h>

#include "archive-read.h"
#include "builtin.h"
#include "cli.h"
#include "options.h"

static const char *const archive_usage[] = {
	"sampo archive [<options>] [<file>]",
	"sampo archive --unpack <archive> [-C <dir>]",
	"",
	"Pack the symbols the DSOs with samples need into one file, as 'perf archive' does.",
	NULL,
};

struct ar_dso {
	char *name;
	struct sampo_build_id bid;
};

struct ar_ctx {
	const char *dir; /* --buildid-dir */
	struct ar_dso *dsos;
	size_t nr, cap;
	int missing;
};

static int ar_collect(void *arg, const char *name, const struct sampo_build_id *bid, bool hit)
{
	struct ar_ctx *ctx = arg;

	(void)hit;
	if (!bid->size)
		return 0; /* perf archive leaves out the DSOs without a build-id */
	for (size_t i = 0; i < ctx->nr; i++) {
		if (sampo_build_id__equal(&ctx->dsos[i].bid, bid))
			return 0;
	}
	if (ctx->nr == ctx->cap) {
		size_t ncap = ctx->cap ? ctx->cap * 2 : 16;
		struct ar_dso *p = realloc(ctx->dsos, ncap * sizeof(*p));

		if (!p)
			return cli_err(-ENOMEM, "out of memory");
		ctx->dsos = p;
		ctx->cap = ncap;
	}
	ctx->dsos[ctx->nr].name = strdup(name);
	if (!ctx->dsos[ctx->nr].name)
		return cli_err(-ENOMEM, "out of memory");
	ctx->dsos[ctx->nr++].bid = *bid;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* every regular file of a cache entry directory, sorted, as REL/KIND */
static int ar_add_entry_dir(struct sampo_archive_writer *w, const char *abs, const char *rel)
{
	char *names[64];
	size_t n = 0;
	struct dirent *de;
	DIR *d = opendir(abs);
	int err;

	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < 64) {
		struct stat st;

		if (de->d_name[0] == '.' || fstatat(dirfd(d), de->d_name, &st, 0) ||
		    !S_ISREG(st.st_mode))
			continue;
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), name_cmp);
	err = sampo_archive_writer__add_dir(w, rel);
	for (size_t i = 0; i < n; i++) {
		char *src = NULL, *member = NULL;

		if (!err && (asprintf(&src, "%s/%s", abs, names[i]) < 0 ||
			     asprintf(&member, "%s/%s", rel, names[i]) < 0))
			err = -ENOMEM;
		if (!err)
			err = sampo_archive_writer__add_file(w, member, src);
		free(src);
		free(member);
		free(names[i]);
	}
	return err;
}

/* the entry as the cache holds it; Return: 1 added, 0 not in the cache, or -errno */
static int ar_add_cached(struct ar_ctx *ctx, struct sampo_archive_writer *w,
			 const struct ar_dso *dso)
{
	char *link = NULL, target[PATH_MAX], *abs = NULL;
	size_t rel = 0;
	struct stat st;
	ssize_t n;
	int err;

	err = sampo_buildid_cache__link_path(ctx->dir, &dso->bid, &link, &rel);
	if (err)
		return err == -ENOENT ? 0 : err;
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0 || stat(link, &st)) {
		free(link);
		return 0;
	}
	target[n] = '\0';
	/* "../../NAME/BID" from .build-id/NN/: NAME/BID below the cache */
	if (strncmp(target, "../../", 6) || strstr(target + 6, "/../") || target[6] == '/') {
		free(link);
		return 0;
	}
	if (asprintf(&abs, "%.*s%s", (int)rel, link, target + 6) < 0) {
		free(link);
		return -ENOMEM;
	}
	err = sampo_archive_writer__add_symlink(w, link + rel, target);
	if (!err)
		err = S_ISDIR(st.st_mode) ? ar_add_entry_dir(w, abs, target + 6) :
					    sampo_archive_writer__add_file(w, target + 6, abs);
	free(abs);
	free(link);
	return err ? err : 1;
}

/* not in the cache: the file at its recorded path, or the running kernel's kallsyms */
static int ar_add_live(struct sampo_archive_writer *w, const struct ar_dso *dso)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE], *rel = NULL, *member = NULL, *target = NULL;
	const char *name = dso->name;
	struct sampo_build_id now;
	bool kernel = !strcmp(name, "[kernel.kallsyms]");
	int err;

	if (kernel)
		err = sampo_build_id__from_notes_file("/sys/kernel/notes", &now);
	else if (name[0] == '/')
		err = sampo_build_id__from_elf(name, &now);
	else
		return 0;
	if (err || !sampo_build_id__equal(&now, &dso->bid))
		return 0;
	(void)sampo_build_id__to_hex(&dso->bid, hex, sizeof(hex));
	while (*name == '/')
		name++;
	if (asprintf(&rel, "%s/%s", name, hex) < 0)
		return -ENOMEM;
	if (asprintf(&member, "%s/%s", rel, kernel ? "kallsyms" : "elf") < 0 ||
	    asprintf(&target, "../../%s", rel) < 0) {
		free(rel);
		free(member);
		return -ENOMEM;
	}
	{
		char link[64];

		snprintf(link, sizeof(link), ".build-id/%.2s/%s", hex, hex + 2);
		err = sampo_archive_writer__add_symlink(w, link, target);
	}
	if (!err)
		err = sampo_archive_writer__add_dir(w, rel);
	if (!err && kernel) {
		/* /proc reports size 0: read it whole first */
		FILE *fp = fopen("/proc/kallsyms", "re");
		char *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);
		char chunk[65536];
		size_t got;

		if (!fp || !mem) {
			err = -errno;
		} else {
			while ((got = fread(chunk, 1, sizeof(chunk), fp)) > 0)
				fwrite(chunk, 1, got, mem);
		}
		if (fp)
			fclose(fp);
		if (mem)
			fclose(mem);
		if (!err)
			err = sampo_archive_writer__add_mem(w, member, buf, len);
		free(buf);
	} else if (!err) {
		err = sampo_archive_writer__add_file(w, member, dso->name);
	}
	free(rel);
	free(member);
	free(target);
	return err ? err : 1;
}

static int ar_write_symbols(struct ar_ctx *ctx, const char *out, size_t *ret_added)
{
	struct sampo_archive_writer *w = NULL;
	size_t added = 0;
	int err;

	err = sampo_archive_writer__new(out, NULL, &w);
	if (err)
		return cli_err_create(err, out);
	for (size_t i = 0; i < ctx->nr; i++) {
		char hex[SAMPO_BUILD_ID_HEX_SIZE];
		int r = ar_add_cached(ctx, w, &ctx->dsos[i]);

		if (r == 0)
			r = ar_add_live(w, &ctx->dsos[i]);
		(void)sampo_build_id__to_hex(&ctx->dsos[i].bid, hex, sizeof(hex));
		if (r < 0) {
			sampo_archive_writer__close(w);
			return cli_err(r, "cannot write '%s' (%s %s)", out, hex, ctx->dsos[i].name);
		}
		if (r == 0) {
			cli_warn("no copy of %s with build-id %s in the build-id cache or on disk: "
				 "its samples stay unresolved where the archive is read",
				 ctx->dsos[i].name, hex);
			ctx->missing++;
		} else {
			added++;
		}
	}
	err = sampo_archive_writer__close(w);
	if (err)
		return cli_err(err, "cannot finish '%s'", out);
	*ret_added = added;
	return 0;
}

/* --all: the profile and, nested, the symbol archive, as perf 6.12 packs them */
static int ar_write_all(struct ar_ctx *ctx, const char *input, const char *out, size_t *added)
{
	struct sampo_archive_writer *w = NULL;
	char tmpdir[] = "/tmp/sampo-archive-all.XXXXXX";
	const char *base = getenv("TMPDIR");
	char *dir = NULL, *sym = NULL, *slash;
	int ret, err;

	if (base && *base) {
		if (asprintf(&dir, "%s/sampo-archive-all.XXXXXX", base) < 0)
			return cli_err(-ENOMEM, "out of memory");
	} else {
		dir = strdup(tmpdir);
	}
	if (!dir || !mkdtemp(dir)) {
		ret = cli_err(dir ? -errno : -ENOMEM, "cannot create a temporary directory");
		free(dir);
		return ret;
	}
	if (asprintf(&sym, "%s/%s", dir, ARCHIVE_SYMBOLS_MEMBER) < 0) {
		rm_tree(dir);
		free(dir);
		return cli_err(-ENOMEM, "out of memory");
	}
	ret = ar_write_symbols(ctx, sym, added);
	if (!ret) {
		err = sampo_archive_writer__new(out, NULL, &w);
		if (err)
			ret = cli_err_create(err, out);
	}
	if (!ret) {
		slash = strrchr(input, '/');
		err = sampo_archive_writer__add_file(w, slash ? slash + 1 : input, input);
		if (!err)
			err = sampo_archive_writer__add_file(w, ARCHIVE_SYMBOLS_MEMBER, sym);
		if (sampo_archive_writer__close(w) && !err)
			err = -EIO;
		if (err)
			ret = cli_err(err, "cannot write '%s'", out);
	}
	rm_tree(dir);
	free(dir);
	free(sym);
	return ret;
}

static int ar_unpack(const char *file, const char *dest, const char *bdir, bool force)
{
	char *cache = NULL, *data = NULL;
	int is_all, ret;

	is_all = sampo_archive__has_member(file, ARCHIVE_SYMBOLS_MEMBER);
	/* a damaged archive is the unpacker's to describe, member by member */
	if (is_all < 0 && is_all != -SAMPO_ERR_MALFORMED)
		return cli_err(is_all, "cannot read the archive '%s'", file);
	cache = dest ? strdup(dest) : sampo_buildid_cache__dir(bdir);
	if (!cache)
		return cli_err(-ENOENT, "no build-id cache directory (set HOME or use -C)");
	ret = archive_unpack_all(file, is_all > 0, cache, ".", force, &data);
	if (!ret) {
		printf("unpacked the symbols of '%s' into '%s'\n", file, cache);
		if (data)
			printf("and its profile as '%s'\n", data);
	}
	free(cache);
	free(data);
	return ret;
}

int cmd_archive(int argc, const char **argv)
{
	const char *input = NULL, *output = NULL, *unpack = NULL, *dest = NULL;
	bool all = false, force = false;
	struct ar_ctx ctx = { 0 };
	struct archive_bounds bounds = { 0 };
	char *outbuf = NULL;
	const struct option opts[] = {
		OPT_BOOLEAN(0, "all", &all,
			    "pack the profile too, with its symbols, in one file (perf 6.12)"),
		OPT_STRING(0, "buildid-dir", &ctx.dir, "dir",
			   "the build-id cache to pack from (default: as sampo buildid-cache)"),
		OPT_STRING('C', "directory", &dest, "dir",
			   "with --unpack: where the symbols go (default: the build-id cache)"),
		OPT_BOOLEAN('f', "force", &force, "with --unpack: replace an existing profile"),
		OPT_STRING('i', "input", &input, "file", "input file (default: perf.data)"),
		OPT_STRING('o', "output", &output, "file",
			   "the archive (default: <input>.tar.bz2; --all: "
			   "perf.all-<host>-<date>.tar.bz2); .tar.gz, .tar.xz, .tar.zst, .tar "
			   "choose the compression"),
		OPT_STRING(0, "unpack", &unpack, "archive",
			   "unpack an archive of sampo or perf safely"),
		OPT_U64(0, "max-member-size", &bounds.max_member, "bytes",
			"with --unpack: refuse a member larger than this (default: 4 GiB)"),
		OPT_U64(0, "max-total-size", &bounds.max_total, "bytes",
			"with --unpack: refuse an archive that unpacks to more (default: 16 GiB)"),
		OPT_END(),
	};
	size_t added = 0;
	int ret;

	argc = parse_options(argc, argv, opts, archive_usage, 0);
	if (argc < 0)
		return argc;
	if (argc > 1 || (argc == 1 && (input || unpack)))
		return usage_error(archive_usage, opts, "unexpected argument '%s'",
				   argv[argc - 1]);
	if (argc == 1)
		input = argv[0];
	if (unpack) {
		if (all || output || input)
			return usage_error(archive_usage, opts,
					   "--unpack takes only -C, -f and --buildid-dir");
		archive_set_bounds(&bounds);
		return ar_unpack(unpack, dest, ctx.dir, force);
	}
	if (dest || bounds.max_member || bounds.max_total)
		return usage_error(archive_usage, opts,
				   "-C, --max-member-size and --max-total-size go with --unpack");
	if (!input || !*input)
		input = cli_default_input();
	if (!output) {
		if (all) {
			char host[256] = "localhost", date[32];
			time_t now = time(NULL);
			struct tm tm;

			(void)gethostname(host, sizeof(host) - 1);
			strftime(date, sizeof(date), "%Y%m%d-%H%M%S", localtime_r(&now, &tm));
			if (asprintf(&outbuf, "perf.all-%s-%s.tar.bz2", host, date) < 0)
				outbuf = NULL;
		} else if (asprintf(&outbuf, "%s.tar.bz2", input) < 0) {
			outbuf = NULL;
		}
		if (!outbuf)
			return cli_err(-ENOMEM, "out of memory");
		output = outbuf;
	}
	ret = buildid_list_each(input, true, ar_collect, &ctx);
	if (!ret && !ctx.nr)
		ret = cli_err(0, "'%s': no build-ids found", input);
	if (!ret)
		ret = all ? ar_write_all(&ctx, input, output, &added) :
			    ar_write_symbols(&ctx, output, &added);
	if (!ret) {
		printf("packed the symbols of %zu of %zu DSOs into '%s'. Now please run:\n\n",
		       added, ctx.nr, output);
		if (all)
			printf("$ sampo archive --unpack %s\n\nor read it directly with "
			       "'sampo report --archive %s',\nwherever you need to run "
			       "'sampo report' or 'perf report' on.\n",
			       output, output);
		else
			printf("$ tar xvf %s -C ~/.debug\n\nor read it directly with "
			       "'sampo report -i %s --archive %s',\nwherever you need to run "
			       "'sampo report' or 'perf report' on.\n",
			       output, input, output);
	}
	for (size_t i = 0; i < ctx.nr; i++)
		free(ctx.dsos[i].name);
	free(ctx.dsos);
	free(outbuf);
	return ret;
}
