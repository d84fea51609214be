// SPDX-License-Identifier: LGPL-2.1
/*
 * debuginfod.c - the last link of the symbolizer's lookup chain: files no
 * local place has, fetched by build-id from the debuginfod servers of
 * $DEBUGINFOD_URLS through libdebuginfod, and stored in the build-id cache
 * (perf's layout) so that the next run, and perf, find them locally.
 *
 * Off unless $DEBUGINFOD_URLS names servers (the CLI's --debuginfod=URLS
 * sets it before anything is read). Each request has a deadline
 * (opts->debuginfod_timeout_ms, else $DEBUGINFOD_TIMEOUT seconds, else 5 s),
 * enforced from libdebuginfod's progress callback, which it calls at least
 * once a second while it waits: its own DEBUGINFOD_TIMEOUT only bounds the
 * connection and stalls, not the whole request. Requests are serialized
 * (see internal/debuginfod.h); the first one that fails for another reason
 * than "not there" turns debuginfod off for the rest of the run, with one
 * warning, so that a down or silent server costs the timeout once.
 *
 * Runs on the symbolizer's loader threads: the struct's mutable state is
 * under its lock, and the caller's callback is entered under it too.
 *
 * libdebuginfod is opened on the first request (dlopen), not linked: linked
 * in, it brings curl, gnutls, krb5 and ldap into every start of every sampo
 * command, 4-5 ms of CPU before main() (docs/performance.md, the tiny file),
 * for a feature that is off unless $DEBUGINFOD_URLS is set. Without the
 * library the request fails as a server that is down does: one warning that
 * says which package to install, then debuginfod is off for the run.
 */
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <elfutils/debuginfod.h>

#include <sampo/buildid.h>
#include <sampo/buildid-cache.h>
#include <sampo/symbolizer.h>
#include "internal/debuginfod.h"
#include "internal/log.h"
#include "internal/opts.h"
#include "internal/util.h"

#define DEFAULT_TIMEOUT_MS 5000

struct sampo_debuginfod {
	pthread_mutex_t lock;
	unsigned int timeout_ms;
	sampo_debuginfod_fn fn;
	void *fn_ctx;
	bool down; /* a request failed: not asked again (under lock) */
	int down_err;
};

/* one request, for the progress callback */
struct request {
	struct sampo_debuginfod *d;
	const char *name;
	const char *what;
	uint64_t deadline_ns;
	bool timed_out;
};

/* ---- libdebuginfod, opened on first use ---------------------------------- */

#define LIBDEBUGINFOD "libdebuginfod.so.1"

static struct {
	debuginfod_client *(*begin)(void);
	void (*end)(debuginfod_client *);
	void (*set_user_data)(debuginfod_client *, void *);
	void *(*get_user_data)(debuginfod_client *);
	void (*set_progressfn)(debuginfod_client *, debuginfod_progressfn_t);
	const char *(*get_url)(debuginfod_client *);
	int (*find_executable)(debuginfod_client *, const unsigned char *, int, char **);
	int (*find_debuginfo)(debuginfod_client *, const unsigned char *, int, char **);
	bool ok;
} lib;
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

/* dlsym()'s object pointer as a function pointer, without the cast ISO C lacks */
static bool lib_sym(void *h, const char *name, void *fnptr, size_t size)
{
	void *p = dlsym(h, name);

	if (!p || size != sizeof(p))
		return false;
	memcpy(fnptr, &p, sizeof(p));
	return true;
}

static void lib_open(void)
{
	void *h = dlopen(LIBDEBUGINFOD, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return;
	lib.ok = lib_sym(h, "debuginfod_begin", &lib.begin, sizeof(lib.begin)) &&
		 lib_sym(h, "debuginfod_end", &lib.end, sizeof(lib.end)) &&
		 lib_sym(h, "debuginfod_set_user_data", &lib.set_user_data,
			 sizeof(lib.set_user_data)) &&
		 lib_sym(h, "debuginfod_get_user_data", &lib.get_user_data,
			 sizeof(lib.get_user_data)) &&
		 lib_sym(h, "debuginfod_set_progressfn", &lib.set_progressfn,
			 sizeof(lib.set_progressfn)) &&
		 lib_sym(h, "debuginfod_get_url", &lib.get_url, sizeof(lib.get_url)) &&
		 lib_sym(h, "debuginfod_find_executable", &lib.find_executable,
			 sizeof(lib.find_executable)) &&
		 lib_sym(h, "debuginfod_find_debuginfo", &lib.find_debuginfo,
			 sizeof(lib.find_debuginfo));
	/* the handle stays open: the process may ask again until it exits */
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static unsigned int env_timeout_ms(void)
{
	const char *v = getenv("DEBUGINFOD_TIMEOUT");
	char *end;
	unsigned long sec;

	if (!v || !*v)
		return DEFAULT_TIMEOUT_MS;
	errno = 0;
	sec = strtoul(v, &end, 10);
	if (errno || *end || !sec || sec > 3600)
		return DEFAULT_TIMEOUT_MS;
	return (unsigned int)sec * 1000;
}

static bool urls_set(void)
{
	const char *u = getenv("DEBUGINFOD_URLS");

	return u && u[strspn(u, " \t")];
}

int sampo_debuginfod__new(const struct sampo_symbolizer_opts *opts, struct sampo_debuginfod **ret)
{
	struct sampo_debuginfod *d;

	*ret = NULL;
	if (OPTS_GET(opts, no_debuginfod, false) || !urls_set())
		return 0;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	pthread_mutex_init(&d->lock, NULL);
	d->timeout_ms = OPTS_GET(opts, debuginfod_timeout_ms, 0);
	if (!d->timeout_ms)
		d->timeout_ms = env_timeout_ms();
	d->fn = OPTS_GET(opts, debuginfod_fn, NULL);
	d->fn_ctx = OPTS_GET(opts, debuginfod_ctx, NULL);
	*ret = d;
	return 0;
}

void sampo_debuginfod__delete(struct sampo_debuginfod *d)
{
	if (!d)
		return;
	pthread_mutex_destroy(&d->lock);
	free(d);
}

static void report(struct request *r, enum sampo_debuginfod_stage stage, long done, long total,
		   int err, const char *path, const char *url)
{
	struct sampo_debuginfod_event ev = {
		.stage = stage,
		.name = r->name,
		.what = r->what,
		.url = url,
		.done = done,
		.total = total,
		.err = err,
		.path = path,
	};

	if (r->d->fn)
		r->d->fn(r->d->fn_ctx, &ev);
}

/* libdebuginfod's progress callback: the deadline, and the caller's progress bar */
static int on_progress(debuginfod_client *c, long done, long total)
{
	struct request *r = lib.get_user_data(c);

	if (now_ns() >= r->deadline_ns) {
		r->timed_out = true;
		return 1; /* cancels the request */
	}
	report(r, SAMPO_DEBUGINFOD_PROGRESS, done, total, 0, NULL, lib.get_url(c));
	return 0;
}

static int find(debuginfod_client *c, const struct sampo_build_id *bid,
		enum sampo_debuginfod_kind kind, char **ret_path)
{
	if (kind == SAMPO_DEBUGINFOD_EXECUTABLE)
		return lib.find_executable(c, bid->data, (int)bid->size, ret_path);
	return lib.find_debuginfo(c, bid->data, (int)bid->size, ret_path);
}

/* Keep the fetched file in the build-id cache; *@path becomes the cached copy's name. */
static void store(const char *buildid_dir, const char *name, const struct sampo_build_id *bid,
		  const char *cache_kind, int fd, char **path)
{
	char *cached = NULL;
	int err;

	if (!buildid_dir)
		return;
	err = sampo_buildid_cache__add_fd(buildid_dir, name, bid, cache_kind, fd);
	if (!err)
		err = sampo_buildid_cache__lookup(buildid_dir, bid, cache_kind, &cached);
	if (err) {
		/* a read-only or missing cache: the client's own copy serves this run */
		pr_debug("debuginfod: '%s' not stored in the build-id cache '%s': %s\n", name,
			 buildid_dir, strerror(-err));
		return;
	}
	free(*path);
	*path = cached;
}

int sampo_debuginfod__fetch(struct sampo_debuginfod *d, const char *buildid_dir, const char *name,
			    const struct sampo_build_id *bid, enum sampo_debuginfod_kind kind,
			    const char *cache_kind, char **ret_path)
{
	struct request r = {
		.d = d,
		.name = name,
		.what = kind == SAMPO_DEBUGINFOD_EXECUTABLE ? "executable" : "debuginfo",
	};
	debuginfod_client *c;
	char *path = NULL, *urls;
	int fd, err = 0;

	*ret_path = NULL;
	if (!d || !bid->size)
		return -ENOENT;
	pthread_mutex_lock(&d->lock);
	if (d->down) {
		err = -EHOSTDOWN;
		goto out;
	}
	pthread_once(&lib_once, lib_open);
	if (!lib.ok) {
		d->down = true;
		d->down_err = err = -ENOSYS;
		pr_warn("debuginfod: cannot load " LIBDEBUGINFOD " to fetch the %s of '%s' (install "
			"the libdebuginfod1 package); not asked again in this run\n",
			r.what, name);
		report(&r, SAMPO_DEBUGINFOD_FAILED, 0, 0, err, NULL, NULL);
		goto out;
	}
	c = lib.begin();
	if (!c) {
		err = -ENOMEM;
		goto out;
	}
	lib.set_user_data(c, &r);
	lib.set_progressfn(c, on_progress);
	r.deadline_ns = now_ns() + (uint64_t)d->timeout_ms * 1000000ULL;
	fd = find(c, bid, kind, &path);
	if (fd >= 0) {
		store(buildid_dir, name, bid, cache_kind, fd, &path);
		close(fd);
		report(&r, SAMPO_DEBUGINFOD_DONE, 0, 0, 0, path, lib.get_url(c));
		*ret_path = path;
		path = NULL;
	} else {
		err = r.timed_out ? -ETIME : fd;
		if (err != -ENOENT) {
			/* the whole set of servers: libdebuginfod asks them all at once */
			d->down = true;
			d->down_err = err;
			urls = getenv("DEBUGINFOD_URLS");
			if (err == -ETIME)
				pr_warn("debuginfod: no answer from %s within %u s while fetching the "
					"%s of '%s': not asked again in this run "
					"(--debuginfod-timeout sets the time allowed)\n",
					urls ? urls : "the servers", (d->timeout_ms + 999) / 1000,
					r.what, name);
			else
				pr_warn("debuginfod: %s while fetching the %s of '%s' from %s: not "
					"asked again in this run\n",
					strerror(-err), r.what, name, urls ? urls : "the servers");
		}
		report(&r, SAMPO_DEBUGINFOD_FAILED, 0, 0, err, NULL, NULL);
	}
	free(path);
	lib.end(c);
out:
	pthread_mutex_unlock(&d->lock);
	return err;
}
