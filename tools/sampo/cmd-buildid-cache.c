// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-buildid-cache.c - `sampo buildid-cache`: manage perf's build-id cache
 * (~/.debug) with perf 6.1's flags: add, remove, purge, list, missing,
 * update, and a kernel snapshot.
 *
 * The cache itself (layout, safe adding, listing, removal) is libsampo's
 * (<sampo/buildid-cache.h>); this file is the command line and perf's
 * messages. Files are named by their real path, as perf does, so that
 * "./a.out" and "/home/me/a.out" are one entry.
 *
 * Where sampo differs from perf 6.1 (docs/sampo-buildid-cache.md): a file
 * that cannot be added or removed makes the exit status 1 (perf prints the
 * reason and exits 0); -k takes perf's kcore argument but stores the
 * running kernel's kallsyms and its loaded modules instead of a kcore copy.
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <sampo/buildid-cache.h>
#include <sampo/buildid.h>
#include <sampo/common.h>
#include <sampo/kmodule.h>
#include <sampo/proc-modules.h>

#include "builtin.h"
#include "cli.h"
#include "options.h"

static const char *const buildid_cache_usage[] = {
	"sampo buildid-cache [<options>]",
	"",
	"Manage the build-id cache (~/.debug) in perf's layout, as 'perf buildid-cache' does.",
	NULL,
};

struct bc_ctx {
	const char *dir; /* --buildid-dir, or NULL */
	int verbose;
	bool force;
	int failed; /* files that could not be handled */
};

/* perf's "Adding ...: Ok" lines, shown with -v */
static void bc_say(const struct bc_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void bc_say(const struct bc_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->verbose <= 0)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* Call @fn for each name of perf's comma-separated "file list". */
static void bc_each_file(struct bc_ctx *ctx, const char *list,
			 void (*fn)(struct bc_ctx *ctx, const char *file))
{
	char *copy, *save = NULL;

	if (!list)
		return;
	copy = strdup(list);
	if (!copy) {
		cli_err(-ENOMEM, "out of memory");
		ctx->failed++;
		return;
	}
	for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		if (*f)
			fn(ctx, f);
	}
	free(copy);
}

/* the real path and build-id of a file to add, update or remove */
static int bc_file_id(struct bc_ctx *ctx, const char *file, const char *verb, char **ret_path,
		      struct sampo_build_id *ret_bid)
{
	char *real = realpath(file, NULL);
	int err;

	if (!real) {
		err = -errno;
		cli_err(err, "couldn't %s '%s'", verb, file);
		ctx->failed++;
		return err;
	}
	err = sampo_build_id__from_elf(real, ret_bid);
	if (err) {
		cli_err(err == -ENOENT ? 0 : err, "couldn't %s '%s': %s", verb, real,
			err == -ENOENT ? "no build-id note in the file" : "cannot read its build-id");
		free(real);
		ctx->failed++;
		return err ? err : -ENOENT;
	}
	*ret_path = real;
	return 0;
}

static void bc_add_file(struct bc_ctx *ctx, const char *file, const char *verb, const char *said)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	struct sampo_build_id bid;
	char *real = NULL;
	int err;

	if (bc_file_id(ctx, file, verb, &real, &bid))
		return;
	(void)sampo_build_id__to_hex(&bid, hex, sizeof(hex));
	err = sampo_buildid_cache__add_elf(ctx->dir, real, &bid, real);
	if (err) {
		cli_err(err, "couldn't %s %s '%s'", verb, hex, real);
		ctx->failed++;
	} else {
		bc_say(ctx, "%s %s %s: Ok\n", said, hex, real);
	}
	free(real);
}

static void bc_add(struct bc_ctx *ctx, const char *file)
{
	bc_add_file(ctx, file, "add", "Adding");
}

/* perf's -u: the cached copy is replaced (or made) with the file as it is now */
static void bc_update(struct bc_ctx *ctx, const char *file)
{
	bc_add_file(ctx, file, "update", "Updating");
}

static void bc_remove(struct bc_ctx *ctx, const char *file)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	struct sampo_build_id bid;
	char *real = NULL;
	int err;

	if (bc_file_id(ctx, file, "remove", &real, &bid))
		return;
	(void)sampo_build_id__to_hex(&bid, hex, sizeof(hex));
	err = sampo_buildid_cache__remove(ctx->dir, &bid);
	if (err) {
		cli_err(err, "couldn't remove %s '%s'", hex, real);
		ctx->failed++;
	} else {
		bc_say(ctx, "Removing %s %s: Ok\n", hex, real);
	}
	free(real);
}

/* -p: every build-id cached under the file's name, whatever the file holds now */
static void bc_purge(struct bc_ctx *ctx, const char *file)
{
	struct sampo_buildid_cache_entry *e = NULL;
	char *real = realpath(file, NULL);
	const char *name = real ? real : file;
	size_t nr = 0, found = 0;
	int err;

	if (name[0] != '/') {
		cli_err(-ENOENT, "couldn't purge '%s'", file);
		ctx->failed++;
		free(real);
		return;
	}
	err = sampo_buildid_cache__list(ctx->dir, &e, &nr);
	for (size_t i = 0; !err && i < nr; i++) {
		char hex[SAMPO_BUILD_ID_HEX_SIZE];
		int rerr;

		if (strcmp(e[i].name, name))
			continue;
		found++;
		(void)sampo_build_id__to_hex(&e[i].bid, hex, sizeof(hex));
		rerr = sampo_buildid_cache__remove(ctx->dir, &e[i].bid);
		if (rerr) {
			cli_err(rerr, "couldn't remove %s '%s'", hex, name);
			ctx->failed++;
		} else {
			bc_say(ctx, "Removing %s %s: Ok\n", hex, name);
		}
	}
	if (err) {
		cli_err(err, "couldn't purge '%s': cannot read the cache", name);
		ctx->failed++;
	} else if (!found) {
		cli_err(-ENOENT, "couldn't purge '%s': not in the cache", name);
		ctx->failed++;
	} else {
		bc_say(ctx, "Purging %s: Ok\n", name);
	}
	sampo_buildid_cache_entries__free(e, nr);
	free(real);
}

static int bc_purge_all(struct bc_ctx *ctx)
{
	struct sampo_buildid_cache_entry *e = NULL;
	size_t nr = 0;
	int err;

	err = sampo_buildid_cache__list(ctx->dir, &e, &nr);
	if (err)
		return cli_err(err, "cannot read the build-id cache");
	for (size_t i = 0; i < nr; i++) {
		char hex[SAMPO_BUILD_ID_HEX_SIZE];
		int rerr;

		(void)sampo_build_id__to_hex(&e[i].bid, hex, sizeof(hex));
		rerr = sampo_buildid_cache__remove(ctx->dir, &e[i].bid);
		if (rerr) {
			cli_err(rerr, "couldn't remove %s (%s)", e[i].name, hex);
			ctx->failed++;
		} else {
			bc_say(ctx, "Removing %s (%s): Ok\n", e[i].name, hex);
		}
	}
	sampo_buildid_cache_entries__free(e, nr);
	if (!ctx->failed)
		bc_say(ctx, "Purged all: Ok\n");
	return 0;
}

/*
 * perf's build_id_cache__valid_id(): an entry is listed when the file it
 * was taken from still has that build-id (the kernel: the running one's).
 */
static bool bc_valid(const struct sampo_buildid_cache_entry *e)
{
	struct sampo_build_id now;
	int err;

	if (!strcmp(e->name, "[kernel.kallsyms]"))
		err = sampo_build_id__from_notes_file("/sys/kernel/notes", &now);
	else if (e->name[0] == '/')
		err = sampo_build_id__from_elf(e->name, &now);
	else
		return false;
	return !err && sampo_build_id__equal(&now, &e->bid);
}

static int bc_list(struct bc_ctx *ctx, bool all)
{
	struct sampo_buildid_cache_entry *e = NULL;
	size_t nr = 0;
	int err;

	err = sampo_buildid_cache__list(ctx->dir, &e, &nr);
	if (err)
		return cli_err(err, "cannot read the build-id cache");
	for (size_t i = 0; i < nr; i++) {
		char hex[SAMPO_BUILD_ID_HEX_SIZE];

		if (!all && !bc_valid(&e[i]))
			continue;
		(void)sampo_build_id__to_hex(&e[i].bid, hex, sizeof(hex));
		printf("%s %s\n", hex, e[i].name);
	}
	sampo_buildid_cache_entries__free(e, nr);
	if (fflush(stdout) || ferror(stdout))
		return cli_err(errno == EPIPE ? -EPIPE : -EIO, "cannot write output");
	return 0;
}

/* -M: the DSOs of a perf.data file whose build-id the cache does not hold */
static int bc_missing_one(void *arg, const char *name, const struct sampo_build_id *bid, bool hit)
{
	const struct bc_ctx *ctx = arg;
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	char *link = NULL;
	struct stat st;
	bool have;

	(void)hit;
	if (!bid->size || sampo_buildid_cache__link_path(ctx->dir, bid, &link, NULL))
		return 0;
	have = !lstat(link, &st);
	free(link);
	if (have)
		return 0;
	(void)sampo_build_id__to_hex(bid, hex, sizeof(hex));
	printf("%s %s\n", hex, name);
	return 0;
}

static int bc_missing(struct bc_ctx *ctx, const char *input)
{
	int err = buildid_list_each(input, false, bc_missing_one, ctx);

	if (err)
		return err;
	if (fflush(stdout) || ferror(stdout))
		return cli_err(errno == EPIPE ? -EPIPE : -EIO, "cannot write output");
	return 0;
}

/*
 * -k: the running kernel, without a kcore copy: its kallsyms under the
 * kernel's build-id and every loaded module's file under the module's.
 */
static int bc_kernel(struct bc_ctx *ctx, const char *kcore)
{
	struct sampo_proc_module *mods = NULL;
	struct sampo_module_file *files = NULL;
	char hex[SAMPO_BUILD_ID_HEX_SIZE], tree[PATH_MAX];
	struct sampo_build_id kbid;
	size_t nr_mods = 0, nr_files = 0;
	struct utsname u;
	int err;

	(void)kcore; /* perf copies kcore; sampo's symbols need only kallsyms and the modules */
	err = sampo_build_id__from_notes_file("/sys/kernel/notes", &kbid);
	if (err)
		return cli_err(err, "cannot read the kernel build-id from '/sys/kernel/notes'");
	(void)sampo_build_id__to_hex(&kbid, hex, sizeof(hex));
	err = sampo_buildid_cache__add(ctx->dir, "[kernel.kallsyms]", &kbid, "kallsyms",
				       "/proc/kallsyms");
	if (err)
		return cli_err(err, "couldn't add the kallsyms of kernel %s", hex);
	bc_say(ctx, "Adding %s [kernel.kallsyms]: Ok\n", hex);

	if (sampo_proc_modules__read(NULL, &mods, &nr_mods) || uname(&u))
		return 0; /* no modules to add */
	snprintf(tree, sizeof(tree), "/lib/modules/%s", u.release);
	(void)sampo_module_files__walk(tree, &files, &nr_files);
	for (size_t i = 0; i < nr_mods; i++) {
		char notes[PATH_MAX];
		struct sampo_build_id mbid;

		snprintf(notes, sizeof(notes), "/sys/module/%s/notes/.note.gnu.build-id",
			 mods[i].name);
		if (sampo_build_id__from_notes_file(notes, &mbid))
			continue;
		(void)sampo_build_id__to_hex(&mbid, hex, sizeof(hex));
		for (size_t j = 0; j < nr_files; j++) {
			if (strcmp(files[j].name, mods[i].name))
				continue;
			/* only a file that still is the loaded module (not a compressed one) */
			if (!sampo_buildid_cache__add_elf(ctx->dir, files[j].path, &mbid,
							  files[j].path)) {
				bc_say(ctx, "Adding %s %s: Ok\n", hex, files[j].path);
			} else if (ctx->verbose > 0) {
				cli_warn("module %s: '%s' does not have build-id %s", mods[i].name,
					 files[j].path, hex);
			}
			break;
		}
	}
	sampo_module_files__free(files, nr_files);
	free(mods);
	return 0;
}

int cmd_buildid_cache(int argc, const char **argv)
{
	const char *add = NULL, *remove = NULL, *purge = NULL, *update = NULL, *missing = NULL;
	const char *kcore = NULL;
	bool list = false, list_all = false, purge_all = false;
	struct bc_ctx ctx = { 0 };
	const struct option opts[] = {
		OPT_STRING('a', "add", &add, "file list", "file(s) to add"),
		OPT_STRING(0, "buildid-dir", &ctx.dir, "dir",
			   "the cache directory (default: $SAMPO_BUILDID_DIR, $PERF_BUILDID_DIR, "
			   "~/.perfconfig's buildid.dir, ~/.debug)"),
		OPT_BOOLEAN('f', "force", &ctx.force, "don't complain, do it"),
		OPT_STRING('k', "kcore", &kcore, "file",
			   "add the running kernel: its kallsyms and loaded modules (no kcore copy)"),
		OPT_BOOLEAN('l', "list", &list, "list all cached files"),
		OPT_BOOLEAN(0, "list-all", &list_all,
			    "with -l, also the files that changed or are gone"),
		OPT_STRING('M', "missing", &missing, "file",
			   "to find missing build ids in the cache"),
		OPT_STRING('p', "purge", &purge, "file list",
			   "file(s) to remove (remove old caches too)"),
		OPT_BOOLEAN('P', "purge-all", &purge_all, "purge all cached files"),
		OPT_STRING('r', "remove", &remove, "file list", "file(s) to remove"),
		OPT_STRING('u', "update", &update, "file list", "file(s) to update"),
		OPT_INCR('v', "verbose", &ctx.verbose, "be more verbose"),
		OPT_END(),
	};
	int ret = 0;

	argc = parse_options(argc, argv, opts, buildid_cache_usage, 0);
	if (argc < 0)
		return argc;
	if (argc > 0)
		return usage_error(buildid_cache_usage, opts, "unexpected argument '%s'", argv[0]);
	ctx.verbose += cli_verbose();
	if (!add && !remove && !purge && !update && !missing && !kcore && !list && !list_all &&
	    !purge_all)
		return usage_error(buildid_cache_usage, opts, "nothing to do: name an option");
	/* perf's order */
	bc_each_file(&ctx, add, bc_add);
	bc_each_file(&ctx, remove, bc_remove);
	bc_each_file(&ctx, purge, bc_purge);
	if (purge_all)
		ret = bc_purge_all(&ctx);
	if (!ret && (list || list_all))
		ret = bc_list(&ctx, list_all);
	if (!ret && missing)
		ret = bc_missing(&ctx, missing);
	bc_each_file(&ctx, update, bc_update);
	if (!ret && kcore)
		ret = bc_kernel(&ctx, kcore);
	if (ret)
		return ret;
	return ctx.failed ? CLI_EXIT_FAILURE : 0;
}
