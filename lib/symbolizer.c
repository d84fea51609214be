// SPDX-License-Identifier: LGPL-2.1
/*
 * symbolizer.c - which symbol a sampled address of a map is, using only
 * files whose build-id is the recorded one.
 *
 * Two tables:
 *
 *	sources  one per (kind, name, recorded build-id): the file chosen for it
 *	         and its symbol table, loaded once; kinds are user ELF, kernel
 *	dsos     one per machine DSO seen by __find(): its source and, for the
 *	         kernel, the relocation between sampled and table addresses
 *
 * A source is PENDING, then LOADING (by one thread), then DONE (symtab or
 * NULL) and never changes again. When the file has a build-id table, every
 * entry becomes a source at __new() and up to two threads load them while
 * the caller reads records; __find() loads a source itself when nobody has
 * started it, or waits for the thread that has. Loaders read only the
 * symbolizer's immutable configuration and write only their source; the
 * machine and its DSOs are touched by the caller's thread alone. Messages
 * made while loading are kept in the source and logged by the caller's
 * thread the first time the source is used, so warnings come out in a
 * deterministic order and only for DSOs that have samples.
 *
 * Kernel tables keep the source's own addresses (vmlinux link-time, or the
 * kallsyms snapshot's boot); a sampled address becomes a table address by
 * subtracting delta = recorded _text - source _text (perf-data-format.md
 * 8.2). The order in which kernel sources are tried is in
 * docs/kernel-symbols.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/buildid.h>
#include <sampo/buildid-cache.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/machine.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>
#include "internal/log.h"
#include "internal/machine.h"
#include "internal/symbol.h"
#include "internal/util.h"

#define SOPTS_HAS(opts, field) \
	((opts) &&             \
	 (opts)->sz >= offsetof(struct sampo_symbolizer_opts, field) + sizeof((opts)->field))
#define SOPTS_GET(opts, field, def) (SOPTS_HAS(opts, field) ? (opts)->field : (def))

#define MAX_PRELOAD_THREADS 2

enum src_kind {
	SRC_USER,
	SRC_KERNEL,
};

enum src_state {
	SRC_PENDING,
	SRC_LOADING,
	SRC_DONE,
};

struct sym_src {
	enum src_kind kind;
	char *name;		   /* DSO long name (user), "[kernel.kallsyms]" (kernel) */
	struct sampo_build_id bid; /* recorded; size 0: none recorded */
	enum src_state state;	   /* under s->lock until DONE */

	/* written by the loader, read once DONE */
	struct sampo_symtab *symtab; /* NULL: no usable file */
	char *path;		     /* the file the symbols came from */
	bool kallsyms;		     /* kernel: from a kallsyms file, not a vmlinux */
	bool verified;		     /* its build-id was checked against the recorded one */
	bool has_ref;		     /* kernel: ref_addr is the source's _text */
	uint64_t ref_addr;
	char *warning; /* to log once, from the caller's thread */
	char *debug;   /* the same at debug level */

	bool warned; /* caller's thread only */
	struct sym_src *next;
};

enum ent_kind {
	ENT_NONE,   /* no symbols: anonymous memory, unknown kinds */
	ENT_USER,   /* file offset -> vaddr -> table */
	ENT_KERNEL, /* sampled - delta -> table */
	ENT_MODULE, /* kallsyms module symbols, absolute */
	ENT_BPF,    /* one symbol covering the map, named after the ksymbol */
};

struct dso_ent {
	struct sampo_dso *dso; /* reference */
	enum ent_kind kind;
	struct sym_src *src;
	bool ready;	       /* src is DONE and its messages were logged */
	uint64_t delta;	       /* kernel: sampled address - table address (mod 2^64) */
	bool usable;	       /* checks at binding time passed */
	bool stale;	       /* a newer version of the file came later (see dso_replaced_later()) */
	char *module;	       /* ENT_MODULE: name without brackets */
	struct sampo_symtab *own; /* ENT_BPF: the one-symbol table */
	struct dso_ent *next;
};

struct sampo_symbolizer {
	struct sampo_machine *machine;

	/* configuration: immutable after __new(), read by loader threads */
	char *symfs;
	char *vmlinux;
	char *kallsyms;
	char *buildid_dir; /* NULL: no cache */
	char *live_root;
	char *osrelease; /* recorded */
	bool force;
	bool no_demangle;

	/* the build-id table, copied */
	struct feat_bid {
		uint8_t cpumode;
		bool kmod;
		struct sampo_build_id bid;
		char *name;
	} *bids;
	size_t nr_bids;
	const struct feat_bid *kernel_bid; /* the kernel's entry, or NULL */

	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct sym_src *sources; /* list; appended under lock */
	struct sym_src **preload;
	size_t nr_preload, next_preload;
	bool stop;
	pthread_t threads[MAX_PRELOAD_THREADS];
	size_t nr_threads;

	/* caller's thread only */
	struct dso_ent **ents;
	size_t ents_cap, nr_ents; /* power of two */
};

/* ---- messages ------------------------------------------------------------------------------ */

struct strbuf {
	char *buf;
	size_t len, cap;
};

static SAMPO_PRINTF(2, 3) void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!sb)
		return;
	for (;;) {
		size_t room = sb->cap - sb->len;

		va_start(ap, fmt);
		n = vsnprintf(sb->buf ? sb->buf + sb->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < room) {
			sb->len += (size_t)n;
			return;
		}
		size_t ncap = (sb->cap ? sb->cap * 2 : 256) + (size_t)n;
		char *nb = realloc(sb->buf, ncap);

		if (!nb)
			return;
		sb->buf = nb;
		sb->cap = ncap;
	}
}

static void bid_hex(const struct sampo_build_id *bid, char *hex)
{
	if (!bid->size || sampo_build_id__to_hex(bid, hex, SAMPO_BUILD_ID_HEX_SIZE) < 0)
		strcpy(hex, "(none)");
}

static char *path_join(const char *a, const char *b)
{
	char *out;

	while (*b == '/')
		b++;
	if (asprintf(&out, "%s/%s", a, b) < 0)
		return NULL;
	return out;
}

static bool file_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* ---- choosing and loading files -------------------------------------------------------------- */

/*
 * How a candidate file's build-id compares with the recorded one. A file
 * without a build-id when one was recorded is another file too.
 */
enum bid_check {
	BID_NOT_RECORDED,
	BID_MATCH,
	BID_MISMATCH,
	BID_UNREADABLE,
};

static enum bid_check check_elf_bid(const struct sym_src *src, const char *path,
				    struct sampo_build_id *found)
{
	int err;

	memset(found, 0, sizeof(*found));
	err = sampo_build_id__from_elf(path, found);
	if (!src->bid.size)
		return BID_NOT_RECORDED;
	if (err == -ENOENT)
		return BID_MISMATCH;
	if (err)
		return BID_UNREADABLE;
	return sampo_build_id__equal(found, &src->bid) ? BID_MATCH : BID_MISMATCH;
}

static void note_tried(struct strbuf *tried, const char *path, const char *what,
		       const struct sampo_build_id *found)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE];

	if (found && found->size) {
		bid_hex(found, hex);
		sb_addf(tried, "%s'%s' (build-id %s)", tried->len ? ", " : "", path, hex);
	} else {
		sb_addf(tried, "%s'%s' (%s)", tried->len ? ", " : "", path, what);
	}
}

static int load_elf(const struct sampo_symbolizer *s, const char *path,
		    struct sampo_symtab **ret, char *errbuf, size_t errbuf_sz)
{
	SAMPO_OPTS(sampo_symtab_elf_opts, eo, .no_demangle = s->no_demangle, .errbuf = errbuf,
		   .errbuf_sz = errbuf_sz);

	return sampo_symtab__load_elf(path, &eo, ret);
}

/*
 * Try one user candidate; true when the source is settled (loaded, or forced).
 * @mismatched: set when a file with another build-id was seen.
 */
static bool try_user_file(const struct sampo_symbolizer *s, struct sym_src *src, const char *path,
			  struct strbuf *tried, bool *mismatched)
{
	struct sampo_build_id found;
	enum bid_check chk;
	char errbuf[256];
	int err;

	if (!file_exists(path)) {
		note_tried(tried, path, "not found", NULL);
		return false;
	}
	chk = check_elf_bid(src, path, &found);
	if (chk == BID_MISMATCH || chk == BID_UNREADABLE) {
		note_tried(tried, path, found.size ? "" : "no build-id", &found);
		*mismatched = true;
		if (!s->force)
			return false;
	}
	err = load_elf(s, path, &src->symtab, errbuf, sizeof(errbuf));
	if (err) {
		note_tried(tried, path, errbuf[0] ? errbuf : "cannot load", NULL);
		return false;
	}
	src->path = strdup(path);
	src->verified = chk == BID_MATCH;
	return true;
}

static void src_load_user(const struct sampo_symbolizer *s, struct sym_src *src)
{
	struct strbuf tried = { 0 };
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	bool vdso = !strcmp(src->name, "[vdso]");
	bool mismatched = false, done = false;
	char *path = NULL;

	if (src->bid.size && s->buildid_dir &&
	    !sampo_buildid_cache__lookup(s->buildid_dir, &src->bid, vdso ? "vdso" : "elf", &path)) {
		done = try_user_file(s, src, path, &tried, &mismatched);
		free(path);
		path = NULL;
	}
	if (!done && src->name[0] == '/')
		done = try_user_file(s, src, src->name, &tried, &mismatched);
	if (!done && s->symfs && src->name[0] == '/') {
		path = path_join(s->symfs, src->name);
		if (path)
			done = try_user_file(s, src, path, &tried, &mismatched);
		free(path);
	}
	bid_hex(&src->bid, hex);
	if (mismatched && (!done || s->force)) {
		if (asprintf(&src->warning,
			     "'%s' was recorded with build-id %s; %s: %s", src->name, hex,
			     done ? "using a file with another build-id (--force)"
				  : "no file has it, its samples stay unresolved",
			     tried.buf ? tried.buf : "") < 0)
			src->warning = NULL;
	} else if (!done) {
		if (asprintf(&src->debug, "no symbols for '%s' (build-id %s): tried %s", src->name,
			     hex, tried.buf ? tried.buf : "nothing") < 0)
			src->debug = NULL;
	}
	free(tried.buf);
}

/* The build-id of the running kernel, from LIVE_ROOT/sys/kernel/notes. */
static int live_kernel_bid(const struct sampo_symbolizer *s, struct sampo_build_id *ret)
{
	char *notes = path_join(s->live_root, "sys/kernel/notes");
	int err;

	if (!notes)
		return -ENOMEM;
	err = sampo_build_id__from_notes_file(notes, ret);
	free(notes);
	return err;
}

static char *live_osrelease(const struct sampo_symbolizer *s)
{
	char *p = path_join(s->live_root, "proc/sys/kernel/osrelease");
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
	return strdup(buf);
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
static bool try_kernel_file(const struct sampo_symbolizer *s, struct sym_src *src,
			    const char *path, enum ksrc_type type, bool live,
			    struct strbuf *tried, bool *mismatched)
{
	struct sampo_build_id found = { 0 };
	enum bid_check chk = BID_NOT_RECORDED;
	char errbuf[256] = "";
	int err;

	if (!live && !file_exists(path)) {
		note_tried(tried, path, "not found", NULL);
		return false;
	}
	if (type == KSRC_VMLINUX) {
		chk = check_elf_bid(src, path, &found);
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
		note_tried(tried, path, "build-id unknown", &found);
		*mismatched = true;
		if (!s->force)
			return false;
	}
	if (type == KSRC_VMLINUX) {
		err = load_elf(s, path, &src->symtab, errbuf, sizeof(errbuf));
	} else {
		SAMPO_OPTS(sampo_symtab_kallsyms_opts, ko, .errbuf = errbuf,
			   .errbuf_sz = sizeof(errbuf));

		err = sampo_symtab__load_kallsyms(path, &ko, &src->symtab);
	}
	if (err) {
		note_tried(tried, path,
			   err == -EPERM ? "addresses hidden by kptr_restrict"
			   : errbuf[0]   ? errbuf
					 : "cannot load",
			   NULL);
		return false;
	}
	src->has_ref = !sampo_symtab__kallsyms_ref(src->symtab, "_text", &src->ref_addr) ||
		       !sampo_symtab__kallsyms_ref(src->symtab, "_stext", &src->ref_addr);
	src->path = strdup(path);
	src->kallsyms = type == KSRC_KALLSYMS;
	src->verified = chk == BID_MATCH;
	return true;
}

static void src_load_kernel(const struct sampo_symbolizer *s, struct sym_src *src)
{
	static const char *const vmlinux_fmt[] = {
		"/usr/lib/debug/boot/vmlinux-%s",
		"/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
	};
	struct strbuf tried = { 0 };
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	bool mismatched = false, done = false, user_named = false;
	char *path = NULL;

	bid_hex(&src->bid, hex);
	if (s->vmlinux) {
		user_named = true;
		done = try_kernel_file(s, src, s->vmlinux, KSRC_VMLINUX, false, &tried,
				       &mismatched);
	} else if (s->kallsyms) {
		char *live = path_join(s->live_root, "proc/kallsyms");

		user_named = true;
		done = try_kernel_file(s, src, s->kallsyms, KSRC_KALLSYMS,
				       live && !strcmp(live, s->kallsyms), &tried, &mismatched);
		free(live);
	}
	if (!user_named && src->bid.size && s->buildid_dir) {
		if (!sampo_buildid_cache__lookup(s->buildid_dir, &src->bid, "elf", &path)) {
			done = try_kernel_file(s, src, path, KSRC_VMLINUX, false, &tried,
					       &mismatched);
			free(path);
			path = NULL;
		}
		if (!done &&
		    !sampo_buildid_cache__lookup(s->buildid_dir, &src->bid, "kallsyms", &path)) {
			done = try_kernel_file(s, src, path, KSRC_KALLSYMS, false, &tried,
					       &mismatched);
			free(path);
			path = NULL;
		}
		if (!done) {
			sb_addf(&tried, "%sbuild-id cache '%s'", tried.len ? ", " : "",
				s->buildid_dir);
		}
	}
	for (size_t i = 0; !user_named && !done && s->osrelease && i < ARRAY_SIZE(vmlinux_fmt);
	     i++) {
		char *p;

		if (asprintf(&p, vmlinux_fmt[i], s->osrelease) < 0)
			break;
		path = s->symfs ? path_join(s->symfs, p) : strdup(p);
		free(p);
		if (!path)
			break;
		done = try_kernel_file(s, src, path, KSRC_VMLINUX, false, &tried, &mismatched);
		free(path);
		path = NULL;
	}
	if (!user_named && !done) {
		/* the running kernel: by build-id, or by release when none was recorded */
		struct sampo_build_id live_bid = { 0 };
		char *release = live_osrelease(s);
		bool use = false;

		path = path_join(s->live_root, "proc/kallsyms");
		if (src->bid.size) {
			use = !live_kernel_bid(s, &live_bid) &&
			      sampo_build_id__equal(&live_bid, &src->bid);
			if (!use) {
				note_tried(&tried, "running kernel", "build-id unknown",
					   &live_bid);
			}
		} else if (release && s->osrelease && !strcmp(release, s->osrelease)) {
			use = true;
		} else {
			sb_addf(&tried, "%srunning kernel (release %s, recorded %s)",
				tried.len ? ", " : "", release ? release : "unknown",
				s->osrelease ? s->osrelease : "unknown");
		}
		if (use && path)
			done = try_kernel_file(s, src, path, KSRC_KALLSYMS, true, &tried,
					       &mismatched);
		free(release);
		free(path);
		path = NULL;
	}

	if (done && !src->verified && !src->bid.size) {
		if (asprintf(&src->debug,
			     "no kernel build-id was recorded: using '%s' unchecked", src->path) < 0)
			src->debug = NULL;
	} else if (done && mismatched) {
		if (asprintf(&src->warning,
			     "kernel recorded with build-id %s; using '%s' though its build-id "
			     "differs (--force); tried %s",
			     hex, src->path, tried.buf ? tried.buf : "") < 0)
			src->warning = NULL;
	} else if (!done) {
		if (asprintf(&src->warning,
			     "no kernel symbols for build-id %s%s%s: tried %s; kernel samples "
			     "stay unresolved",
			     hex, s->osrelease ? " release " : "", s->osrelease ? s->osrelease : "",
			     tried.buf ? tried.buf : "nothing") < 0)
			src->warning = NULL;
	}
	free(tried.buf);
}

static void src_load(const struct sampo_symbolizer *s, struct sym_src *src)
{
	if (src->kind == SRC_KERNEL)
		src_load_kernel(s, src);
	else
		src_load_user(s, src);
}

/* ---- sources and the loader threads ---------------------------------------------------------- */

static void src_free(struct sym_src *src)
{
	sampo_symtab__delete(src->symtab);
	free(src->name);
	free(src->path);
	free(src->warning);
	free(src->debug);
	free(src);
}

/* Find or create (PENDING) the source for (kind, name, bid). Caller holds s->lock. */
static struct sym_src *src_findnew_locked(struct sampo_symbolizer *s, enum src_kind kind,
					  const char *name, const struct sampo_build_id *bid)
{
	struct sym_src *src;

	for (src = s->sources; src; src = src->next) {
		if (src->kind != kind || !sampo_build_id__equal(&src->bid, bid))
			continue;
		if (kind == SRC_KERNEL || !strcmp(src->name, name))
			return src;
	}
	src = calloc(1, sizeof(*src));
	if (!src)
		return NULL;
	src->kind = kind;
	src->bid = *bid;
	src->name = strdup(name);
	if (!src->name) {
		free(src);
		return NULL;
	}
	src->next = s->sources;
	s->sources = src;
	return src;
}

/* Load @src, or wait for the thread loading it. */
static void src_ensure(struct sampo_symbolizer *s, struct sym_src *src)
{
	pthread_mutex_lock(&s->lock);
	if (src->state == SRC_PENDING) {
		src->state = SRC_LOADING;
		pthread_mutex_unlock(&s->lock);
		src_load(s, src);
		pthread_mutex_lock(&s->lock);
		src->state = SRC_DONE;
		pthread_cond_broadcast(&s->cond);
	}
	while (src->state != SRC_DONE)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);

	if (!src->warned) {
		src->warned = true;
		if (src->warning)
			pr_warn("%s\n", src->warning);
		if (src->debug)
			pr_debug("%s\n", src->debug);
	}
}

static void *preload_main(void *arg)
{
	struct sampo_symbolizer *s = arg;

	pthread_mutex_lock(&s->lock);
	while (!s->stop && s->next_preload < s->nr_preload) {
		struct sym_src *src = s->preload[s->next_preload++];

		if (src->state != SRC_PENDING)
			continue;
		src->state = SRC_LOADING;
		pthread_mutex_unlock(&s->lock);
		src_load(s, src);
		pthread_mutex_lock(&s->lock);
		src->state = SRC_DONE;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* ---- the build-id table -------------------------------------------------------------------- */

static bool is_kernel_mode(uint8_t cpumode)
{
	return cpumode == SAMPO_CPUMODE_KERNEL || cpumode == SAMPO_CPUMODE_GUEST_KERNEL;
}

static int copy_build_ids(struct sampo_symbolizer *s, const struct sampo_features *f)
{
	if (!f || !sampo_features__has(f, SAMPO_FEAT_BUILD_ID) || !f->nr_build_ids)
		return 0;
	s->bids = calloc(f->nr_build_ids, sizeof(*s->bids));
	if (!s->bids)
		return -ENOMEM;
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		const struct sampo_feat_build_id *e = &f->build_ids[i];
		struct feat_bid *b = &s->bids[s->nr_bids];

		if (!e->filename || !e->size || e->size > SAMPO_BUILD_ID_SIZE)
			continue;
		b->name = strdup(e->filename);
		if (!b->name)
			return -ENOMEM;
		b->cpumode = e->cpumode;
		memcpy(b->bid.data, e->build_id, e->size);
		b->bid.size = e->size;
		b->kmod = is_kernel_mode(e->cpumode) && sampo_kmod__is_module(e->filename);
		s->nr_bids++;
	}
	/* the kernel: by cpumode and not a module, whatever its name; the host's first */
	for (size_t i = 0; i < s->nr_bids && !s->kernel_bid; i++) {
		if (s->bids[i].cpumode == SAMPO_CPUMODE_KERNEL && !s->bids[i].kmod)
			s->kernel_bid = &s->bids[i];
	}
	for (size_t i = 0; i < s->nr_bids && !s->kernel_bid; i++) {
		if (s->bids[i].cpumode == SAMPO_CPUMODE_GUEST_KERNEL && !s->bids[i].kmod)
			s->kernel_bid = &s->bids[i];
	}
	return 0;
}

static const struct feat_bid *user_bid(const struct sampo_symbolizer *s, const char *name)
{
	for (size_t i = 0; i < s->nr_bids; i++) {
		if (!is_kernel_mode(s->bids[i].cpumode) && !strcmp(s->bids[i].name, name))
			return &s->bids[i];
	}
	return NULL;
}

static int start_preload(struct sampo_symbolizer *s)
{
	size_t nr = 0;
	long ncpu;

	s->preload = calloc(s->nr_bids ? s->nr_bids : 1, sizeof(*s->preload));
	if (!s->preload)
		return -ENOMEM;
	pthread_mutex_lock(&s->lock);
	for (size_t i = 0; i < s->nr_bids; i++) {
		const struct feat_bid *b = &s->bids[i];
		struct sym_src *src;

		if (b->kmod)
			continue;
		if (b == s->kernel_bid)
			src = src_findnew_locked(s, SRC_KERNEL, "[kernel.kallsyms]", &b->bid);
		else if (!is_kernel_mode(b->cpumode))
			src = src_findnew_locked(s, SRC_USER, b->name, &b->bid);
		else
			continue;
		if (src)
			s->preload[nr++] = src;
	}
	s->nr_preload = nr;
	pthread_mutex_unlock(&s->lock);

	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	for (size_t i = 0; i < MAX_PRELOAD_THREADS && i < nr; i++) {
		/* one thread per CPU beyond the caller's; always at least one */
		if (i > 0 && ncpu > 0 && (long)i + 1 >= ncpu + 1)
			break;
		if (pthread_create(&s->threads[i], NULL, preload_main, s))
			break;
		s->nr_threads++;
	}
	return 0;
}

/* ---- public API ---------------------------------------------------------------------------- */

static int dup_opt(char **dst, const char *src)
{
	if (!src || !*src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

int sampo_symbolizer__new(struct sampo_machine *machine, const struct sampo_features *features,
			  const struct sampo_symbolizer_opts *opts, struct sampo_symbolizer **ret)
{
	struct sampo_symbolizer *s;
	int err;

	if (!machine || (opts && opts->sz < sizeof(size_t)))
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->machine = machine;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	s->force = SOPTS_GET(opts, force, false);
	s->no_demangle = SOPTS_GET(opts, no_demangle, false);
	err = dup_opt(&s->symfs, SOPTS_GET(opts, symfs, NULL));
	if (!err)
		err = dup_opt(&s->vmlinux, SOPTS_GET(opts, vmlinux, NULL));
	if (!err)
		err = dup_opt(&s->kallsyms, SOPTS_GET(opts, kallsyms, NULL));
	if (!err)
		err = dup_opt(&s->live_root, SOPTS_GET(opts, live_root, "/"));
	if (!err && features && sampo_features__has(features, SAMPO_FEAT_OSRELEASE))
		err = dup_opt(&s->osrelease, features->osrelease);
	if (err)
		goto out_delete;
	s->buildid_dir = sampo_buildid_cache__dir(SOPTS_GET(opts, buildid_dir, NULL));

	err = -ENOENT;
	if (s->vmlinux && access(s->vmlinux, R_OK)) {
		err = -errno;
		pr_warn("cannot read vmlinux '%s': %s\n", s->vmlinux, strerror(errno));
		goto out_delete;
	}
	if (s->kallsyms && access(s->kallsyms, R_OK)) {
		err = -errno;
		pr_warn("cannot read kallsyms '%s': %s\n", s->kallsyms, strerror(errno));
		goto out_delete;
	}
	err = copy_build_ids(s, features);
	if (err)
		goto out_delete;
	if (!SOPTS_GET(opts, no_preload, false) && s->nr_bids) {
		err = start_preload(s);
		if (err)
			goto out_delete;
	}
	*ret = s;
	return 0;

out_delete:
	sampo_symbolizer__delete(s);
	return err;
}

void sampo_symbolizer__delete(struct sampo_symbolizer *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_mutex_unlock(&s->lock);
	for (size_t i = 0; i < s->nr_threads; i++)
		pthread_join(s->threads[i], NULL);

	for (size_t b = 0; b < s->ents_cap; b++) {
		struct dso_ent *e = s->ents[b], *next;

		for (; e; e = next) {
			next = e->next;
			sampo_dso__put(e->dso);
			sampo_symtab__delete(e->own);
			free(e->module);
			free(e);
		}
	}
	free(s->ents);
	while (s->sources) {
		struct sym_src *next = s->sources->next;

		src_free(s->sources);
		s->sources = next;
	}
	for (size_t i = 0; i < s->nr_bids; i++)
		free(s->bids[i].name);
	free(s->bids);
	free(s->preload);
	free(s->symfs);
	free(s->vmlinux);
	free(s->kallsyms);
	free(s->buildid_dir);
	free(s->live_root);
	free(s->osrelease);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
}

/* ---- per-DSO binding ----------------------------------------------------------------------- */

static size_t ptr_hash(const void *p, size_t cap)
{
	return (size_t)(((uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL) >> 29) & (cap - 1);
}

static int ents_grow(struct sampo_symbolizer *s)
{
	size_t ncap = s->ents_cap ? s->ents_cap * 2 : 64;
	struct dso_ent **nt = calloc(ncap, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (size_t b = 0; b < s->ents_cap; b++) {
		struct dso_ent *e = s->ents[b], *next;

		for (; e; e = next) {
			size_t h = ptr_hash(e->dso, ncap);

			next = e->next;
			e->next = nt[h];
			nt[h] = e;
		}
	}
	free(s->ents);
	s->ents = nt;
	s->ents_cap = ncap;
	return 0;
}

static bool is_kernel_dso(const struct sampo_machine *m, const struct sampo_dso *dso)
{
	const struct sampo_map *kmap = sampo_machine__kernel_map(m);

	return kmap && sampo_map__dso(kmap) == dso;
}

/* The recorded build-id of a DSO: its MMAP2's, else its build-id table entry's. */
static void dso_recorded_bid(const struct sampo_symbolizer *s, const struct sampo_dso *dso,
			     bool kernel, struct sampo_build_id *ret)
{
	size_t size = 0;
	const uint8_t *b = sampo_dso__build_id(dso, &size);

	memset(ret, 0, sizeof(*ret));
	if (b && size && size <= SAMPO_BUILD_ID_SIZE) {
		memcpy(ret->data, b, size);
		ret->size = size;
		return;
	}
	if (kernel) {
		if (s->kernel_bid)
			*ret = s->kernel_bid->bid;
		return;
	}
	const struct feat_bid *fb = user_bid(s, sampo_dso__long_name(dso));

	if (fb)
		*ret = fb->bid;
}

static bool same_file_id(const struct sampo_dso_id *a, const struct sampo_dso_id *b)
{
	return a->maj == b->maj && a->min == b->min && a->ino == b->ino &&
	       a->ino_generation == b->ino_generation;
}

static bool file_id_known(const struct sampo_dso_id *id)
{
	return id->maj || id->min || id->ino || id->ino_generation;
}

static struct dso_ent *ent_lookup(struct sampo_symbolizer *s, const struct sampo_dso *dso);

/*
 * A file replaced while recording, with no build-id in its MMAP2s: the
 * build-id table (written at the end) describes the newest version only, so
 * the older DSOs of that name get no symbols. Checked when a DSO is first
 * used: it is stale if a DSO of the same name and another inode came after
 * it; and a newer one makes the older ones bound so far stale.
 */
static bool dso_replaced_later(struct sampo_symbolizer *s, const struct sampo_dso *dso)
{
	const struct sampo_machine *m = s->machine;
	bool seen = false, stale = false;

	if (dso->build_id_size || !file_id_known(&dso->id))
		return false;
	for (const struct sampo_dso *d = m->dso_list; d; d = d->lnext) {
		if (d == dso) {
			seen = true;
			continue;
		}
		if (d->build_id_size || !file_id_known(&d->id) || same_file_id(&d->id, &dso->id) ||
		    strcmp(d->long_name, dso->long_name))
			continue;
		if (seen) {
			stale = true;
		} else {
			struct dso_ent *old = ent_lookup(s, d);

			if (old)
				old->stale = true;
		}
	}
	if (stale) {
		pr_warn("'%s' (inode %" PRIu64 ") was replaced while recording and no build-id "
			"tells the versions apart: its samples stay unresolved\n",
			dso->long_name, dso->id.ino);
	}
	return stale;
}

static int ent_bind(struct sampo_symbolizer *s, struct dso_ent *e)
{
	struct sampo_dso *dso = e->dso;
	struct sampo_build_id bid;
	struct sym_src *src = NULL;

	if (is_kernel_dso(s->machine, dso)) {
		e->kind = ENT_KERNEL;
		dso_recorded_bid(s, dso, true, &bid);
		pthread_mutex_lock(&s->lock);
		src = src_findnew_locked(s, SRC_KERNEL, "[kernel.kallsyms]", &bid);
		pthread_mutex_unlock(&s->lock);
	} else if (dso->is_ksymbol) {
		e->kind = ENT_BPF;
		return 0;
	} else if (dso->space == SAMPO_DSO_SPACE_KERNEL && dso->is_kmod) {
		char *name = NULL;

		e->kind = ENT_MODULE;
		if (sampo_kmod__name(dso->long_name, &name))
			return -ENOMEM;
		/* "[name]" -> "name" */
		size_t n = strlen(name);

		if (n >= 2 && name[0] == '[' && name[n - 1] == ']') {
			memmove(name, name + 1, n - 2);
			name[n - 2] = '\0';
		}
		e->module = name;
		dso_recorded_bid(s, dso, true, &bid);
		if (s->kernel_bid)
			bid = s->kernel_bid->bid;
		pthread_mutex_lock(&s->lock);
		src = src_findnew_locked(s, SRC_KERNEL, "[kernel.kallsyms]", &bid);
		pthread_mutex_unlock(&s->lock);
	} else if (dso->space == SAMPO_DSO_SPACE_USER) {
		const char *name = dso->long_name;

		if (dso_replaced_later(s, dso)) {
			e->kind = ENT_NONE;
			return 0;
		}
		if (!strcmp(name, "[vdso]") || name[0] == '/') {
			e->kind = ENT_USER;
			dso_recorded_bid(s, dso, false, &bid);
			pthread_mutex_lock(&s->lock);
			src = src_findnew_locked(s, SRC_USER, name, &bid);
			pthread_mutex_unlock(&s->lock);
		} else {
			e->kind = ENT_NONE;
			return 0;
		}
	} else {
		e->kind = ENT_NONE;
		return 0;
	}
	if (!src)
		return -ENOMEM;
	e->src = src;
	return 0;
}

/* After the source is loaded: relocation and the checks that need the machine. */
static void ent_ready(struct sampo_symbolizer *s, struct dso_ent *e)
{
	struct sym_src *src = e->src;
	const char *ref_name;
	uint64_t ref_addr;

	e->ready = true;
	e->usable = src->symtab != NULL;
	if (!e->usable || e->kind == ENT_USER)
		return;

	if (sampo_machine__kernel_ref_reloc(s->machine, &ref_name, &ref_addr) && src->has_ref) {
		uint64_t own = src->ref_addr;

		/* the reference may be _stext in the map name */
		(void)sampo_symtab__kallsyms_ref(src->symtab, ref_name, &own);
		e->delta = ref_addr - own;
	} else {
		e->delta = 0;
	}
	if (e->kind == ENT_MODULE) {
		/* modules move independently of the kernel: a snapshot of another boot says nothing */
		e->usable = src->kallsyms && e->delta == 0;
		return;
	}
	/* unverified sources: the text size must be the recorded one (_etext - _text) */
	if (!src->verified && src->has_ref && !s->force) {
		struct sampo_map *kmap = sampo_machine__kernel_map(s->machine);
		uint64_t etext;

		if (kmap && sampo_map__end(kmap) != UINT64_MAX &&
		    !sampo_symtab__kallsyms_ref(src->symtab, "_etext", &etext) &&
		    etext - src->ref_addr != sampo_map__end(kmap) - sampo_map__start(kmap)) {
			pr_warn("kernel symbols of '%s' do not fit the recorded kernel (text size "
				"%#" PRIx64 ", recorded %#" PRIx64 "): not used, kernel samples stay "
				"unresolved\n",
				src->path, etext - src->ref_addr,
				sampo_map__end(kmap) - sampo_map__start(kmap));
			e->usable = false;
		}
	}
}

static struct dso_ent *ent_lookup(struct sampo_symbolizer *s, const struct sampo_dso *dso)
{
	if (!s->ents_cap)
		return NULL;
	for (struct dso_ent *e = s->ents[ptr_hash(dso, s->ents_cap)]; e; e = e->next) {
		if (e->dso == dso)
			return e;
	}
	return NULL;
}

static struct dso_ent *ent_get(struct sampo_symbolizer *s, struct sampo_dso *dso)
{
	struct dso_ent *e = ent_lookup(s, dso);
	size_t h;

	if (e)
		return e;
	if ((!s->ents_cap || s->nr_ents >= s->ents_cap / 2) && ents_grow(s))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->dso = sampo_dso__get(dso);
	if (ent_bind(s, e)) {
		sampo_dso__put(e->dso);
		free(e->module);
		free(e);
		return NULL;
	}
	h = ptr_hash(dso, s->ents_cap);
	e->next = s->ents[h];
	s->ents[h] = e;
	s->nr_ents++;
	return e;
}

static const struct sampo_symbol *bpf_symbol(struct dso_ent *e, const struct sampo_map *map)
{
	if (!e->own) {
		struct sampo_symtab_builder b;
		const char *name = e->dso->short_name;

		sampo_symtab_builder__init(&b);
		if (!sampo_symtab_builder__add(&b, map->start, map->end - map->start, name,
					       strlen(name), SAMPO_SYMBOL_GLOBAL, SAMPO_SYMBOL_FUNC,
					       0))
			(void)sampo_symtab_builder__finish(&b, SAMPO_FIXUP_ELF, &e->own);
		sampo_symtab_builder__release(&b);
		if (!e->own)
			return NULL;
	}
	/* one DSO per ksymbol, so the table's only symbol is this map's */
	return sampo_symtab__nr(e->own) ? sampo_symtab__at(e->own, 0) : NULL;
}

const struct sampo_symbol *sampo_symbolizer__find(struct sampo_symbolizer *s,
						  struct sampo_map *map, uint64_t addr)
{
	struct dso_ent *e;
	const struct sampo_symbol *sym;
	uint64_t vaddr;

	if (!s || !map)
		return NULL;
	e = ent_get(s, map->dso);
	if (!e)
		return NULL;
	switch (e->kind) {
	case ENT_NONE:
		return NULL;
	case ENT_BPF:
		return bpf_symbol(e, map);
	default:
		break;
	}
	if (!e->ready) {
		src_ensure(s, e->src);
		ent_ready(s, e);
	}
	if (!e->usable || e->stale)
		return NULL;
	switch (e->kind) {
	case ENT_USER:
		if (map->identity)
			return NULL;
		if (sampo_symtab__offset_to_vaddr(e->src->symtab, sampo_map__map_ip(map, addr),
						  &vaddr))
			return NULL;
		return sampo_symtab__find(e->src->symtab, vaddr);
	case ENT_KERNEL:
		sym = sampo_symtab__find(e->src->symtab, addr - e->delta);
		/* a kallsyms table also holds the modules: not the kernel's */
		if (sym && sampo_symtab__symbol_module(e->src->symtab, sym))
			return NULL;
		return sym;
	case ENT_MODULE: {
		const char *mod;

		sym = sampo_symtab__find(e->src->symtab, addr);
		if (!sym)
			return NULL;
		mod = sampo_symtab__symbol_module(e->src->symtab, sym);
		return mod && !strcmp(mod, e->module) ? sym : NULL;
	}
	default:
		return NULL;
	}
}

uint64_t sampo_symbolizer__map_addr(struct sampo_symbolizer *s, struct sampo_map *map,
				    uint64_t addr)
{
	(void)s;
	/* the kernel map (and anonymous memory) map addresses to themselves */
	return map ? sampo_map__map_ip(map, addr) : addr;
}
