/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * archive.h - tar archives of build-id cache entries (perf archive), written
 * and read through libarchive, and unpacked without ever writing outside
 * their target directory.
 *
 * An archive holds members named as in the cache (see buildid-cache.h):
 * ".build-id/NN/REST" symbolic links to "../../NAME/BID", and the files
 * "NAME/BID/elf", "NAME/BID/kallsyms", ... so that `tar xf ARCHIVE -C
 * ~/.debug` gives perf a cache. perf 6.12's `perf archive --all` nests such
 * an archive, as "perf.symbols.tar.bz2", next to the perf.data file in an
 * outer one.
 */
#ifndef SAMPO_ARCHIVE_H
#define SAMPO_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_archive_writer;

/**
 * sampo_archive_writer__new() - start a tar archive
 * @path: the file to write, created or truncated by
 *	  sampo_output_file__create(): never through a link planted in a
 *	  shared directory
 * @compression: "bzip2", "gzip", "xz", "zstd" or "none"; NULL: from
 *		 @path's suffix (.tar.gz/.tgz, .tar.xz, .tar.zst, .tar), else
 *		 bzip2 as perf archive writes
 * @ret: on success, the writer
 * Return: 0, -EINVAL (unknown compression), -ENOMEM, -ELOOP or -EEXIST (a
 * name refused in a shared directory), -errno
 */
SAMPO_API int sampo_archive_writer__new(const char *path, const char *compression,
					struct sampo_archive_writer **ret);

/**
 * sampo_archive_writer__add_file() - add a copy of a regular file
 * @w: the writer
 * @member: its name in the archive (relative)
 * @src: the file (a symlink is followed: the cache's own links are trusted)
 * Return: 0, -EINVAL (not a regular file), -errno, -EIO (libarchive)
 */
SAMPO_API int sampo_archive_writer__add_file(struct sampo_archive_writer *w, const char *member,
					     const char *src);

/** sampo_archive_writer__add_mem() - add a regular file with these bytes; 0 or -errno */
SAMPO_API int sampo_archive_writer__add_mem(struct sampo_archive_writer *w, const char *member,
					    const void *buf, size_t size);

/** sampo_archive_writer__add_symlink() - add a symbolic link; 0 or -errno */
SAMPO_API int sampo_archive_writer__add_symlink(struct sampo_archive_writer *w,
						const char *member, const char *target);

/** sampo_archive_writer__add_dir() - add a directory; 0 or -errno */
SAMPO_API int sampo_archive_writer__add_dir(struct sampo_archive_writer *w, const char *member);

/**
 * sampo_archive_writer__close() - finish the archive and free the writer
 * @w: the writer; NULL is allowed
 * Return: 0, or -EIO when the archive could not be finished (it is then
 * incomplete)
 */
SAMPO_API int sampo_archive_writer__close(struct sampo_archive_writer *w);

struct sampo_archive_unpack_opts {
	size_t sz;
	uint64_t max_member_bytes; /* one member's size; 0: 4 GiB */
	uint64_t max_total_bytes;  /* all members; 0: 16 GiB */
	uint64_t max_members;	   /* 0: 1000000 */
	char *errbuf;		   /* one line: "member 'NAME': what is wrong" */
	size_t errbuf_sz;
};
#define sampo_archive_unpack_opts__last_field errbuf_sz

/**
 * sampo_archive__unpack() - unpack a tar archive (any compression libarchive
 * reads) below a directory, refusing anything that would write outside it
 * @path: the archive
 * @dest: the target directory (created if missing)
 * @opts: optional; bounds and the error buffer
 *
 * Regular files, directories and symbolic links are unpacked; the archive
 * is refused at the first member that has an absolute name, a ".."
 * component, a path through a symbolic link, a symbolic link whose target
 * is absolute or climbs out of @dest, is a hard link, a device, FIFO or
 * socket, or exceeds a size bound. Files are created under a temporary
 * name (O_EXCL, never through a symlink) and renamed into place; modes are
 * masked with 0755. Members unpacked before a refusal stay.
 * Return: 0, -SAMPO_ERR_MALFORMED (a refused member or a damaged archive:
 * see errbuf), -EFBIG (a size bound), -errno
 */
SAMPO_API int sampo_archive__unpack(const char *path, const char *dest,
				    const struct sampo_archive_unpack_opts *opts);

/** sampo_archive__unpack_mem() - the same from an archive in memory */
SAMPO_API int sampo_archive__unpack_mem(const void *buf, size_t size, const char *dest,
					const struct sampo_archive_unpack_opts *opts);

/**
 * sampo_archive__has_member() - whether an archive has a member of this name
 * @path: the archive
 * @member: the name ("perf.symbols.tar.bz2": a perf archive --all)
 * Return: 1, 0, -SAMPO_ERR_MALFORMED (not an archive), -errno
 */
SAMPO_API int sampo_archive__has_member(const char *path, const char *member);

#endif /* SAMPO_ARCHIVE_H */
