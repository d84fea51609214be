// SPDX-License-Identifier: LGPL-2.1
/*
 * symbolizer-user.c - the file of a user DSO's source: the build-id cache,
 * the running kernel's own [vdso] (when its build-id is the recorded one),
 * the recorded path, SYMFS + the recorded path; a JIT's /tmp/perf-PID.map
 * only by that exact name, as a regular file of ours or root's; last, when
 * debuginfod is on, the file fetched by build-id (lib/debuginfod.c), or its
 * debuginfo for a file found stripped. A file with another build-id is
 * refused (--force: used, with a warning).
 *
 * Runs on a loader thread: reads the symbolizer's configuration, writes
 * only the source (see lib/symbolizer.c).
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <sys/auxv.h>

#include <sampo/buildid.h>
#include <sampo/buildid-cache.h>
#include <sampo/machine.h>
#include <sampo/modsections.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>
#include "internal/debuginfod.h"
#include "internal/log.h"
#include "internal/machine.h"
#include "internal/modsections.h"
#include "internal/kmodule.h"
#include "internal/path.h"
#include "internal/symbol.h"
#include "internal/symbolizer.h"
#include "internal/util.h"

/*
 * The symbols of a user DSO's file: when it has no .symtab, its debug file
 * is looked up by the DSO's recorded path and build-id (@path may be the
 * build-id cache's copy), under --symfs and in the build-id cache too
 * (lib/debuginfo-find.c). A debug file refused for its build-id becomes
 * the source's warning.
 */
static int load_user_elf(const struct sampo_symbolizer *s, struct sampo_sym_src *src,
			 const char *path, bool verified, char *errbuf, size_t errbuf_sz)
{
	char warn[PATH_MAX + 512] = "";
	int err;

	SAMPO_OPTS(sampo_symtab_elf_opts, eo, .no_demangle = s->no_demangle, .errbuf = errbuf,
		   .errbuf_sz = errbuf_sz,
		   .recorded_name = src->name[0] == '/' && sampo_path__is_clean(src->name) ?
					    src->name :
					    NULL,
		   .build_id = verified ? &src->bid : NULL, .symfs = s->symfs,
		   .buildid_dir = s->buildid_dir, .warnbuf = warn, .warnbuf_sz = sizeof(warn));
	err = sampo_symtab__load_elf(path, &eo, &src->symtab);
	if (!err && warn[0] && !src->warning)
		src->warning = strdup(warn);
	return err;
}

/*
 * Try one user candidate; true when the source is settled (loaded, or forced).
 * @mismatched: set when a file with another build-id was seen.
 */
static bool try_user_file(const struct sampo_symbolizer *s, struct sampo_sym_src *src,
			  const char *path, struct sampo_strbuf *tried, bool *mismatched)
{
	struct sampo_build_id found;
	enum bid_check chk;
	char errbuf[256];
	int err;

	if (!sampo_symbolizer__file_exists(path)) {
		sampo_symbolizer__note_tried(tried, path, "not found", NULL);
		return false;
	}
	/* a file of the same path built for another machine names nothing of this one */
	if (!sampo_symbolizer__elf_fits(s, path, errbuf, sizeof(errbuf))) {
		sampo_symbolizer__note_tried(tried, path, errbuf, NULL);
		/* --provenance names it: the file is there, for another machine */
		if (!src->found_path) {
			memset(&found, 0, sizeof(found));
			(void)sampo_symbolizer__check_elf_bid(src, path, &found);
			sampo_symbolizer__note_found(s, src, path, &found, false);
			src->found_wrong_arch = true;
		}
		return false;
	}
	chk = sampo_symbolizer__check_elf_bid(src, path, &found);
	if (chk == BID_MISMATCH || chk == BID_UNREADABLE) {
		sampo_symbolizer__note_tried(tried, path, found.size ? "" : "no build-id", &found);
		sampo_symbolizer__note_found(s, src, path, &found, false);
		*mismatched = true;
		if (!s->force)
			return false;
	}
	err = load_user_elf(s, src, path, chk == BID_MATCH, errbuf, sizeof(errbuf));
	if (err) {
		sampo_symbolizer__note_tried(tried, path, errbuf[0] ? errbuf : "cannot load", NULL);
		sampo_symbolizer__note_found(s, src, path, NULL, true);
		return false;
	}
	src->path = strdup(path);
	src->verified = chk == BID_MATCH;
	src->placement = SAMPO_PLACED_FILE;
	return true;
}

bool sampo_symbolizer__is_perf_map(const char *name)
{
	size_t n = strlen(name);

	return !strncmp(name, "/tmp/perf-", 10) && n > 14 && !strcmp(name + n - 4, ".map");
}

/*
 * A JIT's perf map, /tmp/perf-PID.map: only by that exact shape (the name is
 * recorded, the PID in it must be a number), and only a regular file of
 * ours or root's (see sampo_symtab__load_perf_map()); --force takes another
 * user's file, as perf's -f does.
 */
static void src_load_perf_map(const struct sampo_symbolizer *s, struct sampo_sym_src *src)
{
	const char *pid = src->name + strlen("/tmp/perf-");
	size_t digits = strspn(pid, "0123456789");
	const char *why;
	int err;

	if (!digits || strcmp(pid + digits, ".map")) {
		src->missing = SAMPO_MISSING_NO_FILE;
		if (asprintf(&src->debug,
			     "no symbols for '%s': not a perf map name (/tmp/perf-PID.map)",
			     src->name) < 0)
			src->debug = NULL;
		return;
	}
	err = sampo_symtab__load_perf_map(src->name, s->force, &src->symtab);
	if (!err) {
		src->path = strdup(src->name);
		src->absolute = true;
		src->placement = SAMPO_PLACED_FILE;
		src->origin = SAMPO_ORIGIN_PERF_MAP;
		return;
	}
	src->missing = SAMPO_MISSING_FILE;
	if (err == -ENOENT)
		return;
	src->missing = SAMPO_MISSING_UNREADABLE;
	switch (err) {
	case -EPERM:
		why = "it belongs to another user (--force uses it)";
		break;
	case -ELOOP:
		why = "it is a symbolic link";
		break;
	case -EINVAL:
		why = "it is not a regular file";
		break;
	default:
		why = strerror(-err);
		break;
	}
	if (asprintf(&src->warning, "ignoring the JIT perf map '%s': %s", src->name, why) < 0)
		src->warning = NULL;
}

/* Bytes mapped at our [vdso], from /proc/self/maps (0 when unknown): the image must fit. */
static size_t own_vdso_size(unsigned long at)
{
	char line[512];
	size_t size = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (!strstr(line, "[vdso]") || sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		if (lo == at && hi > lo)
			size = hi - lo;
		break;
	}
	fclose(f);
	return size;
}

/*
 * The running kernel's vDSO, from our own address space: the one to use for
 * a recorded [vdso] whose build-id it has (a report on the recording
 * machine), since perf 6.1 does not cache it by default.
 */
static int load_own_vdso(const struct sampo_symbolizer *s, struct sampo_sym_src *src)
{
	unsigned long at = getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)at;
	struct sampo_build_id found;
	size_t len;

	if (!at || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -ENOENT;
	len = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (len < sizeof(*eh) || len > own_vdso_size(at))
		return -ENOENT;
	if (sampo_build_id__from_elf_mem(eh, len, &found) || !src->bid.size ||
	    !sampo_build_id__equal(&found, &src->bid))
		return -ENOENT;
	SAMPO_OPTS(sampo_symtab_elf_opts, eo, .no_demangle = s->no_demangle, .no_plt = true,
		   .no_debug_file = true);
	if (sampo_symtab__load_elf_mem(eh, len, "[vdso]", &eo, &src->symtab))
		return -ENOENT;
	src->path = strdup("[vdso] of the running kernel");
	src->verified = true;
	src->placement = SAMPO_PLACED_FILE;
	return 0;
}

/*
 * debuginfod, when nothing local served: the executable by build-id, else
 * its debuginfo; or, for a file found without symbols (stripped), its
 * debuginfo in its place. True when @src got symbols from it.
 */
static bool try_debuginfod(const struct sampo_symbolizer *s, struct sampo_sym_src *src, bool done,
			   struct sampo_strbuf *tried, bool *mismatched)
{
	struct sampo_symtab *kept = src->symtab;
	char *kept_path = src->path, *path;
	bool got = false;

	if (!s->dbgd || !src->bid.size || (done && !src->stripped))
		return false;
	src->symtab = NULL;
	src->path = NULL;
	if (!done) {
		path = sampo_symbolizer__debuginfod(s, src, SAMPO_DEBUGINFOD_EXECUTABLE, "elf", tried);
		got = path && try_user_file(s, src, path, tried, mismatched);
		free(path);
	}
	if (!got) {
		path = sampo_symbolizer__debuginfod(s, src, SAMPO_DEBUGINFOD_DEBUGINFO, "debug",
						    tried);
		got = path && try_user_file(s, src, path, tried, mismatched);
		free(path);
		if (got && done && sampo_symtab__nr(src->symtab) <= sampo_symtab__nr(kept)) {
			sampo_symtab__delete(src->symtab);
			free(src->path);
			src->symtab = NULL;
			src->path = NULL;
			got = false;
		}
	}
	if (got) {
		sampo_symtab__delete(kept);
		free(kept_path);
		src->stripped = false;
	} else {
		src->symtab = kept;
		src->path = kept_path;
	}
	return got;
}

void sampo_symbolizer__load_user(const struct sampo_symbolizer *s, struct sampo_sym_src *src)
{
	int origin = SAMPO_ORIGIN_NONE;
	struct sampo_strbuf tried = { 0 };
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	bool vdso = !strcmp(src->name, "[vdso]");
	bool mismatched = false, done = false;
	char *path = NULL;

	if (sampo_symbolizer__is_perf_map(src->name)) {
		src_load_perf_map(s, src);
		return;
	}
	if (sampo_symbolizer__load_simpleperf(s, src))
		return;
	if (src->bid.size && s->buildid_dir &&
	    !sampo_buildid_cache__lookup(s->buildid_dir, &src->bid, vdso ? "vdso" : "elf", &path)) {
		done = try_user_file(s, src, path, &tried, &mismatched);
		origin = SAMPO_ORIGIN_BUILDID_CACHE;
		free(path);
		path = NULL;
	}
	if (!done && vdso && !s->guest) {
		done = !load_own_vdso(s, src);
		origin = SAMPO_ORIGIN_VDSO_LIVE;
	}
	/*
	 * A guest's paths name files of the guest: only under its --guestmount
	 * tree. A recorded name that climbs ("/usr/lib/../../x") is nobody's
	 * real path: no kernel or perf writes one (sampo_symbolizer__path_join() refuses it too).
	 */
	if (!done && src->name[0] == '/' && !s->guest && sampo_path__is_clean(src->name)) {
		done = try_user_file(s, src, src->name, &tried, &mismatched);
		origin = SAMPO_ORIGIN_PATH;
	}
	if (!done && s->symfs && src->name[0] == '/') {
		path = sampo_symbolizer__path_join(s->symfs, src->name);
		if (path)
			done = try_user_file(s, src, path, &tried, &mismatched);
		origin = SAMPO_ORIGIN_SYMFS;
		free(path);
	}
	/* only .dynsym: perf too takes a debug file, from debuginfod if need be */
	src->stripped = done && src->path && src->path[0] == '/' &&
			sampo_symbolizer__elf_stripped(src->path, &src->bid);
	/* the profile's own table, taken from the file of this build-id at home */
	if (!done && !s->guest && sampo_symbolizer__load_embedded(s, src, &tried)) {
		done = true;
		origin = SAMPO_ORIGIN_EMBEDDED;
	}
	if (try_debuginfod(s, src, done, &tried, &mismatched)) {
		done = true;
		origin = SAMPO_ORIGIN_DEBUGINFOD;
	}
	sampo_symbolizer__settle(src, done, origin, mismatched, &tried);
	sampo_symbolizer__bid_hex(&src->bid, hex);
	if (mismatched && (!done || s->force)) {
		if (asprintf(&src->warning, "'%s' was recorded with build-id %s; %s: %s", src->name,
			     hex,
			     done ? "using a file with another build-id (--force)" :
				    "no file has it, its samples stay unresolved (--force "
				    "uses a file with another build-id all the same)",
			     tried.buf ? tried.buf : "") < 0)
			src->warning = NULL;
	} else if (!done) {
		if (asprintf(&src->debug, "no symbols for '%s' (build-id %s): tried %s", src->name,
			     hex, tried.buf ? tried.buf : "nothing") < 0)
			src->debug = NULL;
	}
	sampo_strbuf__release(&tried);
}
