// SPDX-License-Identifier: LGPL-2.1
/*
 * symbolizer-kernel.c - the kernel's symbol source, tried in the order of
 * docs/kernel-symbols.md: -k or --kallsyms (nothing after), the build-id
 * cache (elf, then kallsyms), the vmlinux places of the recorded release
 * (under SYMFS), the running kernel's /proc/kallsyms when its build-id is
 * the recorded one (or, none recorded, its release), then debuginfod's
 * vmlinux for the recorded build-id. A kallsyms file is
 * checked where it can be: the running one by /sys/kernel/notes, a cached
 * one by the build-id its directory is named after. The table keeps the
 * source's own addresses and its _text (ref_addr), from which
 * lib/symbolizer.c computes the relocation.
 *
 * Runs on a loader thread: reads the symbolizer's configuration, writes
 * only the source.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The build-id of the running kernel, from LIVE_ROOT/sys/kernel/notes. */
static int live_kernel_bid(const struct sampo_symbolizer *s, struct sampo_build_id *ret)
{
	char *notes = sampo_symbolizer__path_join(s->live_root, "sys/kernel/notes");
	int err;

	if (!notes)
		return -ENOMEM;
	err = sampo_build_id__from_notes_file(notes, ret);
	free(notes);
	return err;
}

char *sampo_symbolizer__live_osrelease(const struct sampo_symbolizer *s)
{
	char *p = sampo_symbolizer__path_join(s->live_root, "proc/sys/kernel/osrelease");
	char buf[256];
	FILE *f;

	if (!p)
		return NULL;
	f = fopen(p, "re");
	free(p);
	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	/* a guest's tree is the guest's: its release names a directory only if it is a name */
	return sampo_path__is_name(buf) ? strdup(buf) : NULL;
}

/*
 * A kallsyms file inside a cache entry ".../<hex build-id>/kallsyms": the
 * build-id its directory names (after resolving the .build-id links).
 */
static bool kallsyms_dir_bid(const char *path, struct sampo_build_id *ret)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	char *real = realpath(path, NULL);
	const char *slash, *prev;
	bool ok = false;
	size_t len;

	if (!real)
		return false;
	slash = strrchr(real, '/');
	if (!slash || slash == real)
		goto out;
	for (prev = slash - 1; prev > real && *prev != '/'; prev--)
		;
	if (*prev == '/')
		prev++;
	len = (size_t)(slash - prev);
	if (len < 2 || len >= sizeof(hex))
		goto out;
	memcpy(hex, prev, len);
	hex[len] = '\0';
	ok = !sampo_build_id__from_hex(hex, ret);
out:
	free(real);
	return ok;
}

enum ksrc_type {
	KSRC_VMLINUX,
	KSRC_KALLSYMS,
};

/*
 * One kernel candidate. @user_named: given with -k/--kallsyms (no fallback
 * after it). @live: it is LIVE_ROOT/proc/kallsyms. Returns true when settled.
 */
static bool try_kernel_file(const struct sampo_symbolizer *s, struct sampo_sym_src *src,
			    const char *path, enum ksrc_type type, bool live,
			    struct sampo_strbuf *tried, bool *mismatched)
{
	struct sampo_build_id found = { 0 };
	enum bid_check chk = BID_NOT_RECORDED;
	char errbuf[256] = "";
	int err;

	if (!live && !sampo_symbolizer__file_exists(path)) {
		sampo_symbolizer__note_tried(tried, path, "not found", NULL);
		return false;
	}
	if (type == KSRC_VMLINUX) {
		chk = sampo_symbolizer__check_elf_bid(src, path, &found);
	} else if (live) {
		if (!live_kernel_bid(s, &found))
			chk = !src->bid.size ? BID_NOT_RECORDED :
			      sampo_build_id__equal(&found, &src->bid) ? BID_MATCH : BID_MISMATCH;
		else if (src->bid.size)
			chk = BID_UNREADABLE;
	} else if (kallsyms_dir_bid(path, &found) && src->bid.size) {
		chk = sampo_build_id__equal(&found, &src->bid) ? BID_MATCH : BID_MISMATCH;
	}
	if (chk == BID_MISMATCH || chk == BID_UNREADABLE) {
		sampo_symbolizer__note_tried(tried, path, "build-id unknown", &found);
		sampo_symbolizer__note_found(s, src, path, &found, false);
		*mismatched = true;
		if (!s->force)
			return false;
	}
	if (type == KSRC_VMLINUX) {
		err = sampo_symbolizer__load_elf(s, path, &src->symtab, errbuf, sizeof(errbuf));
	} else {
		SAMPO_OPTS(sampo_symtab_kallsyms_opts, ko, .errbuf = errbuf,
			   .errbuf_sz = sizeof(errbuf));

		err = sampo_symtab__load_kallsyms(path, &ko, &src->symtab);
	}
	if (err) {
		sampo_symbolizer__note_tried(tried, path,
					     err == -EPERM ? "addresses hidden by kptr_restrict" :
					     errbuf[0]	   ? errbuf :
							     "cannot load",
					     NULL);
		sampo_symbolizer__note_found(s, src, path, NULL, true);
		return false;
	}
	src->has_ref = !sampo_symtab__kallsyms_ref(src->symtab, "_text", &src->ref_addr) ||
		       !sampo_symtab__kallsyms_ref(src->symtab, "_stext", &src->ref_addr);
	src->path = strdup(path);
	src->kallsyms = type == KSRC_KALLSYMS;
	src->live = live;
	src->placement = src->kallsyms ? SAMPO_PLACED_KALLSYMS : SAMPO_PLACED_FILE;
	src->verified = chk == BID_MATCH;
	return true;
}

/* What a guest given no kernel symbols should be given (empty for the host, or when mounted) */
static const char *guest_advice(const struct sampo_symbolizer *s)
{
	if (!s->guest || s->live_root)
		return "";
	if (sampo_machine__pid(s->machine) == 0)
		return " (name its symbols with --guestvmlinux, --guestkallsyms or --guestmount)";
	return " (--guestmount DIR gives them from DIR/<pid>/proc/kallsyms)";
}

void sampo_symbolizer__load_kernel(const struct sampo_symbolizer *s, struct sampo_sym_src *src)
{
	static const char *const vmlinux_fmt[] = {
		"/usr/lib/debug/boot/vmlinux-%s",
		"/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
	};
	struct sampo_strbuf tried = { 0 };
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	bool mismatched = false, done = false, user_named = false;
	int origin = SAMPO_ORIGIN_NONE;
	char *path = NULL;

	/* a simpleperf recording's own kernel table, unless told which file to use */
	if (!s->vmlinux && !s->kallsyms && sampo_symbolizer__load_simpleperf(s, src))
		return;
	sampo_symbolizer__bid_hex(&src->bid, hex);
	if (s->vmlinux) {
		user_named = true;
		done = try_kernel_file(s, src, s->vmlinux, KSRC_VMLINUX, false, &tried,
				       &mismatched);
		origin = SAMPO_ORIGIN_VMLINUX;
	} else if (s->kallsyms) {
		char *live = s->live_root ?
				     sampo_symbolizer__path_join(s->live_root, "proc/kallsyms") :
				     NULL;

		user_named = true;
		done = try_kernel_file(s, src, s->kallsyms, KSRC_KALLSYMS,
				       live && !strcmp(live, s->kallsyms), &tried, &mismatched);
		origin = src->live ? SAMPO_ORIGIN_KALLSYMS_LIVE : SAMPO_ORIGIN_KALLSYMS_SNAPSHOT;
		free(live);
	}
	if (!user_named && src->bid.size && s->buildid_dir) {
		if (!sampo_buildid_cache__lookup(s->buildid_dir, &src->bid, "elf", &path)) {
			done = try_kernel_file(s, src, path, KSRC_VMLINUX, false, &tried,
					       &mismatched);
			origin = SAMPO_ORIGIN_BUILDID_CACHE;
			free(path);
			path = NULL;
		}
		if (!done &&
		    !sampo_buildid_cache__lookup(s->buildid_dir, &src->bid, "kallsyms", &path)) {
			done = try_kernel_file(s, src, path, KSRC_KALLSYMS, false, &tried,
					       &mismatched);
			origin = SAMPO_ORIGIN_KALLSYMS_SNAPSHOT;
			free(path);
			path = NULL;
		}
		if (!done) {
			sampo_strbuf__addf(&tried, "%sbuild-id cache '%s'",
					       tried.len ? ", " : "", s->buildid_dir);
		}
	}
	for (size_t i = 0; !user_named && !done && s->osrelease && i < ARRAY_SIZE(vmlinux_fmt);
	     i++) {
		char *p;

		if (asprintf(&p, vmlinux_fmt[i], s->osrelease) < 0)
			break;
		path = s->symfs ? sampo_symbolizer__path_join(s->symfs, p) : strdup(p);
		free(p);
		if (!path)
			break;
		done = try_kernel_file(s, src, path, KSRC_VMLINUX, false, &tried, &mismatched);
		origin = SAMPO_ORIGIN_VMLINUX;
		free(path);
		path = NULL;
	}
	/*
	 * The profile's own table, taken from the build-id checked source at
	 * home: before the running kernel, whose symbols are the same for this
	 * build-id but whose module state is today's, not the recording's.
	 */
	if (!user_named && !done && !s->guest && sampo_symbolizer__load_embedded(s, src, &tried)) {
		done = true;
		origin = SAMPO_ORIGIN_EMBEDDED;
	}
	if (!user_named && !done && s->live_root) {
		/* the running kernel: by build-id, or by release when none was recorded */
		struct sampo_build_id live_bid = { 0 };
		char *release = sampo_symbolizer__live_osrelease(s);
		bool use = false;

		path = sampo_symbolizer__path_join(s->live_root, "proc/kallsyms");
		if (src->bid.size) {
			use = !live_kernel_bid(s, &live_bid) &&
			      sampo_build_id__equal(&live_bid, &src->bid);
			if (!use) {
				sampo_symbolizer__note_tried(&tried, "running kernel",
							     "build-id unknown", &live_bid);
			}
		} else if (release && s->osrelease && !strcmp(release, s->osrelease)) {
			use = true;
		} else {
			sampo_strbuf__addf(&tried, "%srunning kernel (release %s, recorded %s)",
					       tried.len ? ", " : "", release ? release : "unknown",
					       s->osrelease ? s->osrelease : "unknown");
		}
		if (use && path)
			done = try_kernel_file(s, src, path, KSRC_KALLSYMS, true, &tried,
					       &mismatched);
		origin = SAMPO_ORIGIN_KALLSYMS_LIVE;
		free(release);
		free(path);
		path = NULL;
	}
	if (!user_named && !done) {
		/* the kernel's debuginfo is its vmlinux; cached as "elf", where the cache is read */
		path = sampo_symbolizer__debuginfod(s, src, SAMPO_DEBUGINFOD_DEBUGINFO, "elf",
						    &tried);
		if (path)
			done = try_kernel_file(s, src, path, KSRC_VMLINUX, false, &tried,
					       &mismatched);
		origin = SAMPO_ORIGIN_DEBUGINFOD;
		free(path);
		path = NULL;
	}
	sampo_symbolizer__settle(src, done, origin, mismatched, &tried);

	if (done && !src->verified && !src->bid.size && src->live && s->guest) {
		if (asprintf(
			    &src->warning,
			    "no %s build-id was recorded: using '%s' of --guestmount unchecked "
			    "(right only if the guest still runs the kernel it ran when recording)",
			    s->kname, src->path) < 0)
			src->warning = NULL;
	} else if (done && !src->verified && !src->bid.size && src->live) {
		if (asprintf(&src->warning,
			     "no %s build-id was recorded: using the running kernel's '%s' "
			     "because its release is the recorded %s (right only if it is the same "
			     "build; -k or --kallsyms name another)",
			     s->kname, src->path, s->osrelease) < 0)
			src->warning = NULL;
	} else if (done && !src->verified && !src->bid.size) {
		if (asprintf(&src->debug, "no %s build-id was recorded: using '%s' unchecked",
			     s->kname, src->path) < 0)
			src->debug = NULL;
	} else if (done && mismatched) {
		if (asprintf(&src->warning,
			     "%s recorded with build-id %s; using '%s' though its build-id "
			     "differs (--force); tried %s",
			     s->kname, hex, src->path, tried.buf ? tried.buf : "") < 0)
			src->warning = NULL;
	} else if (!done) {
		if (asprintf(&src->warning,
			     "no %s symbols %s%s%s%s%s: tried %s; %s samples stay unresolved%s%s",
			     s->kname, src->bid.size ? "for build-id " : "(no build-id recorded",
			     src->bid.size ? hex : "",
			     s->osrelease ? (src->bid.size ? " release " : ", release ") : "",
			     s->osrelease ? s->osrelease : "", src->bid.size ? "" : ")",
			     tried.buf ? tried.buf : "nothing", s->kname,
			     mismatched ? " (--force uses a file with another build-id all the same)" :
					  "",
			     user_named ? "" : guest_advice(s)) < 0)
			src->warning = NULL;
	}
	sampo_strbuf__release(&tried);
}

/* The kallsyms snapshot cached under the kernel's build-id (or --kallsyms), for modules. */
void sampo_symbolizer__load_kallsyms(const struct sampo_symbolizer *s, struct sampo_sym_src *src)
{
	struct sampo_strbuf tried = { 0 };
	bool mismatched = false;
	char *path = NULL;

	if (s->kallsyms) {
		(void)try_kernel_file(s, src, s->kallsyms, KSRC_KALLSYMS, false, &tried,
				      &mismatched);
	} else if (src->bid.size && s->buildid_dir &&
		   !sampo_buildid_cache__lookup(s->buildid_dir, &src->bid, "kallsyms", &path)) {
		(void)try_kernel_file(s, src, path, KSRC_KALLSYMS, false, &tried, &mismatched);
		free(path);
	}
	if (!src->symtab && !s->kallsyms && !s->guest &&
	    sampo_symbolizer__load_embedded(s, src, &tried)) {
		sampo_symbolizer__settle(src, true, SAMPO_ORIGIN_EMBEDDED, mismatched, &tried);
		sampo_strbuf__release(&tried);
		return;
	}
	sampo_symbolizer__settle(src, src->symtab != NULL, SAMPO_ORIGIN_KALLSYMS_SNAPSHOT,
				 mismatched, &tried);
	sampo_strbuf__release(&tried);
}
