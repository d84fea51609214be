/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * buildid.h - GNU build-ids: read them from ELF files and raw note blobs
 * (/sys/kernel/notes, /sys/module/NAME/notes/.note.gnu.build-id), print and
 * parse them as hex, compare them.
 *
 * struct sampo_build_id is a small value type (like perf's struct build_id),
 * so its body is public: callers keep build-ids by value in their own structs.
 */
#ifndef SAMPO_BUILDID_H
#define SAMPO_BUILDID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

#define SAMPO_BUILD_ID_SIZE	20 /* largest build-id perf stores (sha1) */
#define SAMPO_BUILD_ID_HEX_SIZE (SAMPO_BUILD_ID_SIZE * 2 + 1)

struct sampo_build_id {
	uint8_t data[SAMPO_BUILD_ID_SIZE];
	size_t size; /* 1..20 bytes used; 0 means "none" */
};

/**
 * sampo_build_id__from_elf() - read the NT_GNU_BUILD_ID note of an ELF file
 * @path: the file
 * @ret: on success, the build-id
 *
 * Looks in SHT_NOTE sections, then in PT_NOTE segments (for files without
 * section headers). A note longer than SAMPO_BUILD_ID_SIZE is an error.
 * Return: 0, -ENOENT when the file has no build-id, -errno, -EINVAL (not
 * a regular file: a FIFO is not opened for long enough to block),
 * -SAMPO_ERR_MALFORMED (not ELF, bad note)
 */
SAMPO_API int sampo_build_id__from_elf(const char *path, struct sampo_build_id *ret);

/**
 * sampo_build_id__from_elf_fd() - the same for an open ELF file
 * @fd: a descriptor open for reading; borrowed, left open (its offset is
 *	not used: what is read is the file from its start)
 * @ret: on success, the build-id
 *
 * For callers that must read the build-id of the very file they go on to
 * use (the build-id cache copies from the same descriptor, so a path
 * swapped in between cannot change what is copied).
 * Return: as sampo_build_id__from_elf(), or -EBADF
 */
SAMPO_API int sampo_build_id__from_elf_fd(int fd, struct sampo_build_id *ret);

/** sampo_build_id__from_elf_mem() - the same for an ELF image in memory (borrowed) */
SAMPO_API int sampo_build_id__from_elf_mem(const void *buf, size_t size,
					   struct sampo_build_id *ret);

/**
 * sampo_build_id__from_notes() - find the GNU build-id in a raw notes blob
 * @buf: back-to-back notes: u32 namesz, descsz, type, name and desc each
 *	 padded to 4 bytes, in host byte order
 * @size: size of @buf in bytes
 * @ret: on success, the build-id
 *
 * Notes of other names or types are skipped.
 * Return: 0, -ENOENT when there is no build-id note, -SAMPO_ERR_MALFORMED
 * when a note runs past the end of @buf before a build-id was found or the
 * build-id is empty or longer than SAMPO_BUILD_ID_SIZE
 */
SAMPO_API int sampo_build_id__from_notes(const void *buf, size_t size, struct sampo_build_id *ret);

/**
 * sampo_build_id__from_notes_file() - the same for a file such as /sys/kernel/notes
 * Return: as sampo_build_id__from_notes(), or -errno
 */
SAMPO_API int sampo_build_id__from_notes_file(const char *path, struct sampo_build_id *ret);

/**
 * sampo_build_id__to_hex() - lower-case hex form
 * @bid: the build-id
 * @buf: where the NUL-terminated text goes
 * @len: size of @buf; SAMPO_BUILD_ID_HEX_SIZE is always enough
 *
 * Return: the length of the text (2 * size), or -ENOSPC if @buf is too small
 */
SAMPO_API int sampo_build_id__to_hex(const struct sampo_build_id *bid, char *buf, size_t len);

/**
 * sampo_build_id__from_hex() - parse a hex build-id (either case)
 * @hex: 2 to 40 hex digits, an even number, then the end of the string
 * @ret: on success, the build-id
 *
 * Return: 0, or -EINVAL
 */
SAMPO_API int sampo_build_id__from_hex(const char *hex, struct sampo_build_id *ret);

/** sampo_build_id__equal() - same size and same bytes */
SAMPO_API bool sampo_build_id__equal(const struct sampo_build_id *a,
				     const struct sampo_build_id *b);

/** sampo_build_id__cmp() - total order (bytes, then size), for sorting; like memcmp() */
SAMPO_API int sampo_build_id__cmp(const struct sampo_build_id *a, const struct sampo_build_id *b);

#endif /* SAMPO_BUILDID_H */
