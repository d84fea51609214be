/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * buildid-cache.h - perf's build-id cache (~/.debug): find the copy of a
 * file recorded under its build-id, and add copies to it.
 *
 * Layout (perf-data-format.md 8.5), NAME being the DSO's long name without
 * its leading '/' and BID the build-id in hex:
 *
 *	DIR/NAME/BID/KIND                 KIND = elf, debug, kallsyms, vdso, probes
 *	DIR/.build-id/NN/REST -> ../../NAME/BID   (NN = first 2 hex digits of BID)
 *
 * e.g. DIR/[kernel.kallsyms]/4a5a...a9/kallsyms and DIR/usr/lib/libc.so.6/93ac...40/elf.
 */
#ifndef SAMPO_BUILDID_CACHE_H
#define SAMPO_BUILDID_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/buildid.h>
#include <sampo/common.h>

/**
 * sampo_buildid_cache__dir() - the cache directory to use
 * @dir: an explicit directory (--buildid-dir), or NULL
 *
 * In order: @dir, $SAMPO_BUILDID_DIR, $PERF_BUILDID_DIR, the "dir" key of
 * the [buildid] section of $HOME/.perfconfig (as perf reads it), then
 * "$HOME/.debug".
 * Return: a malloc'ed path; NULL when none is known (no HOME) or out of memory.
 */
SAMPO_API char *sampo_buildid_cache__dir(const char *dir);

/**
 * sampo_buildid_cache__lookup() - the cached file of one kind for a build-id
 * @dir: the cache directory (NULL: sampo_buildid_cache__dir(NULL))
 * @bid: the build-id
 * @kind: "elf", "kallsyms", "debug", "vdso", ...
 * @ret_path: on success, the path of an existing regular file; free() it
 *
 * Looks at DIR/.build-id/NN/REST/KIND; an old-style link that points at a
 * regular file instead of a directory is returned for "elf".
 * Return: 0, -ENOENT, -EINVAL (bad @kind or empty @bid), -ENOMEM
 */
SAMPO_API int sampo_buildid_cache__lookup(const char *dir, const struct sampo_build_id *bid,
					  const char *kind, char **ret_path);

/**
 * sampo_buildid_cache__add() - copy a file into the cache, as perf does
 * @dir: the cache directory (NULL: sampo_buildid_cache__dir(NULL)); created
 *	 if missing
 * @name: the DSO's long name ("/usr/lib/x86_64-linux-gnu/libc.so.6",
 *	  "[kernel.kallsyms]", "[vdso]"); must not contain "." or ".."
 *	  components
 * @bid: its build-id
 * @kind: the file's kind ("elf", "kallsyms", "vdso", "debug"): one path
 *	  component
 * @src: the file to copy (may be a /proc file whose size reads as 0); a
 *	 symbolic link is not followed (resolve it first, with realpath(3))
 *
 * @src is opened once with O_NOFOLLOW | O_NONBLOCK and copied through that
 * descriptor, as sampo_buildid_cache__add_fd() does. Nothing under @dir is
 * followed through a symbolic link: every directory is opened with
 * O_NOFOLLOW relative to its parent, the copy goes to a new temporary file
 * (O_EXCL) renamed into place, and the .build-id link is replaced
 * atomically. An existing entry is replaced.
 *
 * Return: 0, -EINVAL (a name that would escape the cache, a bad kind, an
 * empty build-id, @src not a regular file: a FIFO, a device, a directory),
 * -ELOOP (@src is a symlink, or a symlink planted in the cache), or -errno
 */
SAMPO_API int sampo_buildid_cache__add(const char *dir, const char *name,
				       const struct sampo_build_id *bid, const char *kind,
				       const char *src);

/**
 * sampo_buildid_cache__add_fd() - the same from an open file
 * @dir, @name, @bid, @kind: as for sampo_buildid_cache__add()
 * @fd: a regular file open for reading; borrowed. Copied from its start
 *	(pread), up to the size fstat() gives it, or to its end when that
 *	size is 0 (a /proc file), up to 1 GiB
 *
 * The copy gets the source's permission bits masked with 0644, so it is
 * never more readable than the source (a 0600 file stays 0600), then the
 * umask.
 * Return: as sampo_buildid_cache__add(), -EBADF, -EFBIG (a size-0 file
 * longer than 1 GiB)
 */
SAMPO_API int sampo_buildid_cache__add_fd(const char *dir, const char *name,
					  const struct sampo_build_id *bid, const char *kind,
					  int fd);

/**
 * sampo_buildid_cache__add_elf() - copy an ELF file that still has @bid
 * @dir, @name, @bid: as for sampo_buildid_cache__add(); the kind is "elf"
 * @path: the file; a symbolic link is not followed
 *
 * The way to cache a file that another program controls (a DSO a profiled
 * program mapped): @path is opened once (O_NOFOLLOW | O_NONBLOCK), must be
 * a regular file, and its build-id is read from that descriptor and must
 * be @bid before the same descriptor is copied. A path swapped for a
 * symlink, a FIFO or another file between the recording and the copy
 * therefore caches nothing.
 * Return: 0, -SAMPO_ERR_BUILDID_MISMATCH (another file now), -ENOENT (no
 * build-id), -SAMPO_ERR_MALFORMED (not ELF), -ELOOP (a symlink), -EINVAL
 * (not a regular file), or as sampo_buildid_cache__add()
 */
SAMPO_API int sampo_buildid_cache__add_elf(const char *dir, const char *name,
					   const struct sampo_build_id *bid, const char *path);

/**
 * sampo_buildid_cache__add_mem() - the same from bytes in memory
 * @dir, @name, @bid, @kind: as for sampo_buildid_cache__add()
 * @buf: the content (e.g. the vDSO image); borrowed
 * @size: its size in bytes, not 0
 *
 * The copy is mode 0644 (less the umask), as perf writes the vDSO.
 * Return: as sampo_buildid_cache__add()
 */
SAMPO_API int sampo_buildid_cache__add_mem(const char *dir, const char *name,
					   const struct sampo_build_id *bid, const char *kind,
					   const void *buf, size_t size);

/**
 * sampo_buildid_cache__dso_kind() - what perf record caches a sampled DSO as
 * @name: the DSO's long name, as in its MMAP record
 *
 * perf record's policy: "[vdso]" as "vdso"; a file by its absolute path as
 * "elf", unless it cannot be opened again by that path (a "/memfd:" map, a
 * "(deleted)" file) or is anonymous memory ("//anon", "/anon_hugepage");
 * nothing else ("[heap]", "[stack]", JIT maps).
 * The kernel ([kernel.kallsyms]) is cached as a kallsyms snapshot instead,
 * with sampo_buildid_cache__add_kallsyms(); sampo has no --kcore.
 * Return: "vdso", "elf", or NULL when the DSO is not cached
 */
SAMPO_API const char *sampo_buildid_cache__dso_kind(const char *name);

struct sampo_buildid_cache_dso_opts {
	size_t sz;
	const void *vdso_image; /* the vDSO's bytes, for "[vdso]" (borrowed) */
	size_t vdso_size;	/* in bytes */
};
#define sampo_buildid_cache_dso_opts__last_field vdso_size

/**
 * sampo_buildid_cache__add_dso() - cache one DSO with samples, as perf record does
 * @dir: the cache directory (NULL: sampo_buildid_cache__dir(NULL))
 * @name: the DSO's long name
 * @bid: the build-id it was recorded with
 * @opts: optional; the vDSO image
 *
 * Nothing is copied when the cache holds @bid already (the usual case for a
 * second run). A file is copied with sampo_buildid_cache__add_elf(): only
 * if it still has @bid, never through a symlink or from a FIFO.
 * Return: 0 (copied or already there), -EOPNOTSUPP (not a DSO perf caches,
 * see sampo_buildid_cache__dso_kind(); or "[vdso]" without an image), or
 * as sampo_buildid_cache__add_elf() / sampo_buildid_cache__add_mem()
 */
SAMPO_API int sampo_buildid_cache__add_dso(const char *dir, const char *name,
					   const struct sampo_build_id *bid,
					   const struct sampo_buildid_cache_dso_opts *opts);

/**
 * sampo_buildid_cache__add_kallsyms() - snapshot the running kernel's symbols
 * @dir: the cache directory (NULL: sampo_buildid_cache__dir(NULL))
 * @kernel_bid: the running kernel's build-id (/sys/kernel/notes)
 * @proc_dir: where /proc is (NULL: "/proc"); PROC/kallsyms is copied
 *
 * Copies kallsyms to DIR/[kernel.kallsyms]/BID/kallsyms unless the cache
 * holds a kallsyms for @kernel_bid already. It is the one large copy of a
 * recording (megabytes generated by the kernel), so callers may run it on
 * a thread of its own.
 * Return: 0 (copied or already there), or as sampo_buildid_cache__add()
 */
SAMPO_API int sampo_buildid_cache__add_kallsyms(const char *dir,
						const struct sampo_build_id *kernel_bid,
						const char *proc_dir);

/**
 * sampo_buildid_cache__entry_path() - where a build-id's files go: DIR/NAME/BID
 * @dir: the cache directory (NULL: sampo_buildid_cache__dir(NULL))
 * @name: the DSO's long name ("/usr/lib/libc.so.6", "[kernel.kallsyms]")
 * @bid: the build-id
 * @ret_path: on success, the directory's path (it need not exist); free() it
 *
 * A pure computation, for callers that add other kinds of files (debug
 * files, debuginfod downloads) next to the ones sampo adds.
 * Return: 0, -EINVAL (empty name or build-id), -ENOENT (no cache dir), -ENOMEM
 */
SAMPO_API int sampo_buildid_cache__entry_path(const char *dir, const char *name,
					      const struct sampo_build_id *bid, char **ret_path);

/**
 * sampo_buildid_cache__link_path() - the .build-id link of a build-id
 * @dir: the cache directory (NULL: sampo_buildid_cache__dir(NULL))
 * @bid: the build-id
 * @ret_path: on success, "DIR/.build-id/NN/REST" (it need not exist); free() it
 * @ret_rel: optional; on success, its offset in *@ret_path of ".build-id/..."
 * Return: 0, -EINVAL, -ENOENT (no cache dir), -ENOMEM
 */
SAMPO_API int sampo_buildid_cache__link_path(const char *dir, const struct sampo_build_id *bid,
					     char **ret_path, size_t *ret_rel);

/* One build-id of the cache, as its .build-id link names it. */
struct sampo_buildid_cache_entry {
	struct sampo_build_id bid;
	char *name;   /* the DSO's long name: "/usr/lib/libc.so.6", "[kernel.kallsyms]" */
	char *rel;    /* the entry's path below the cache dir: "usr/lib/libc.so.6/BID" */
	bool old_style; /* the link points at the file itself (perf before 4.x) */
};

/**
 * sampo_buildid_cache__list() - every build-id the cache holds
 * @dir: the cache directory (NULL: sampo_buildid_cache__dir(NULL))
 * @ret: on success, the entries sorted by build-id (free with
 *	 sampo_buildid_cache_entries__free()), NULL when none
 * @ret_nr: on success, how many
 *
 * Walks DIR/.build-id/NN/REST links; a link whose target is not of the
 * form "../../NAME/BID" (with BID its own build-id) is skipped, as is a
 * name that is not a hex build-id. A missing cache is empty.
 * Return: 0, -ENOENT (no cache dir known), -ENOMEM, -errno
 */
SAMPO_API int sampo_buildid_cache__list(const char *dir, struct sampo_buildid_cache_entry **ret,
					size_t *ret_nr);

/** sampo_buildid_cache_entries__free() - free a list; NULL is allowed */
SAMPO_API void sampo_buildid_cache_entries__free(struct sampo_buildid_cache_entry *entries,
						 size_t nr);

/**
 * sampo_buildid_cache__remove() - take one build-id out of the cache
 * @dir: the cache directory (NULL: sampo_buildid_cache__dir(NULL))
 * @bid: the build-id
 *
 * Removes the files of DIR/NAME/BID (elf, debug, kallsyms, vdso, probes,
 * anything not a directory), the directory, the parents it leaves empty
 * up to the cache root, and the .build-id link. Nothing is followed
 * through a symbolic link below the root.
 * Return: 0, -ENOENT (not in the cache), -errno
 */
SAMPO_API int sampo_buildid_cache__remove(const char *dir, const struct sampo_build_id *bid);

#endif /* SAMPO_BUILDID_CACHE_H */
