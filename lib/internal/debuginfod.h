/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/debuginfod.h - files fetched by build-id from debuginfod
 * servers (lib/debuginfod.c), for the symbolizer's loaders.
 *
 * One struct sampo_debuginfod per host symbolizer (its guests borrow it).
 * Fetches are serialized: one request at a time, so that the caller's
 * progress callback is never entered twice at once, and so that once a
 * request to the servers fails (no answer within the timeout, connection
 * refused) the servers are not asked again in the same run: a down or
 * slow server costs the timeout once, not once per DSO.
 */
#ifndef SAMPO_INTERNAL_DEBUGINFOD_H
#define SAMPO_INTERNAL_DEBUGINFOD_H

#include <stdbool.h>

struct sampo_build_id;
struct sampo_debuginfod;
struct sampo_symbolizer_opts;

enum sampo_debuginfod_kind {
	SAMPO_DEBUGINFOD_EXECUTABLE, /* the file itself, stored in the cache as "elf" */
	SAMPO_DEBUGINFOD_DEBUGINFO,  /* its debug file (a vmlinux for a kernel), as "debug" */
};

/*
 * The fetcher @opts ask for, or NULL in *@ret when debuginfod is off (no
 * servers in $DEBUGINFOD_URLS, opts->no_debuginfod). 0 or -ENOMEM.
 */
int sampo_debuginfod__new(const struct sampo_symbolizer_opts *opts, struct sampo_debuginfod **ret);
void sampo_debuginfod__delete(struct sampo_debuginfod *d);

/*
 * Fetch the file of @kind for (@name, @bid) and store it in the build-id
 * cache @buildid_dir (NULL: used from the client's own cache).
 * @cache_kind: the cache file name to store it under ("elf", "debug").
 * Return: 0 and *@ret_path (malloc'ed), -ENOENT (the servers do not have
 * it), -EHOSTDOWN (the servers failed earlier in this run: not asked), or
 * the error of the request (-ETIME for the timeout, -ECONNREFUSED, ...).
 */
int sampo_debuginfod__fetch(struct sampo_debuginfod *d, const char *buildid_dir, const char *name,
			    const struct sampo_build_id *bid, enum sampo_debuginfod_kind kind,
			    const char *cache_kind, char **ret_path);

#endif
