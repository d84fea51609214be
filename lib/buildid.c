// SPDX-License-Identifier: LGPL-2.1
/*
 * buildid.c - GNU build-ids (NT_GNU_BUILD_ID notes).
 *
 * Two sources: ELF files, read through libelf (which converts the notes to
 * host byte order and knows their 4- or 8-byte alignment), and raw note
 * blobs exported by the kernel, parsed by hand. Every size in a raw blob is
 * checked against the bytes that remain before it is used.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/buildid.h>
#include "internal/symbol.h"
#include "internal/util.h"
#include "internal/fileio.h"

/* notes blobs are bytes; anything this size is not one */
#define NOTES_FILE_MAX_BYTES (64u << 20)

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

static int build_id_set(struct sampo_build_id *ret, const void *desc, size_t size)
{
	if (size == 0 || size > SAMPO_BUILD_ID_SIZE)
		return -SAMPO_ERR_MALFORMED;
	memset(ret, 0, sizeof(*ret));
	memcpy(ret->data, desc, size);
	ret->size = size;
	return 0;
}

/* Walks one Elf_Data of notes; 1 when found, 0 when not, <0 on a bad build-id note. */
static int notes_data_find(Elf_Data *data, struct sampo_build_id *ret)
{
	size_t off = 0, name_off, desc_off, next;
	GElf_Nhdr nhdr;

	while (off < data->d_size &&
	       (next = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;

		if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
		    !memcmp(name, "GNU", 4)) {
			int err = build_id_set(ret, (const char *)data->d_buf + desc_off,
					       nhdr.n_descsz);

			return err ? err : 1;
		}
		off = next;
	}
	return 0;
}

int sampo_elf__read_build_id(struct Elf *elf, struct sampo_build_id *ret)
{
	Elf_Scn *scn = NULL;
	size_t phnum;
	int found;

	if (elf_kind(elf) != ELF_K_ELF)
		return -SAMPO_ERR_MALFORMED;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf)
			continue;
		found = notes_data_find(data, ret);
		if (found)
			return found < 0 ? found : 0;
	}

	/* no section headers (or no note section): the program headers */
	if (elf_getphdrnum(elf, &phnum))
		return -ENOENT;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr phdr;
		Elf_Data *data;

		if (!gelf_getphdr(elf, (int)i, &phdr) || phdr.p_type != PT_NOTE)
			continue;
		data = elf_getdata_rawchunk(elf, (int64_t)phdr.p_offset, phdr.p_filesz,
					    phdr.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
		if (!data || !data->d_buf)
			continue;
		found = notes_data_find(data, ret);
		if (found)
			return found < 0 ? found : 0;
	}
	return -ENOENT;
}

int sampo_build_id__from_elf_mem(const void *buf, size_t size, struct sampo_build_id *ret)
{
	Elf *elf;
	int err;

	(void)elf_version(EV_CURRENT);
	elf = elf_memory((char *)buf, size);
	if (!elf)
		return -SAMPO_ERR_MALFORMED;
	err = sampo_elf__read_build_id(elf, ret);
	elf_end(elf);
	return err;
}

int sampo_build_id__from_elf_fd(int fd, struct sampo_build_id *ret)
{
	Elf *elf;
	int err;

	if (fd < 0)
		return -EBADF;
	(void)elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		return -SAMPO_ERR_MALFORMED;
	err = sampo_elf__read_build_id(elf, ret);
	elf_end(elf);
	return err;
}

int sampo_build_id__from_elf(const char *path, struct sampo_build_id *ret)
{
	struct stat st;
	int fd, err;

	/* a FIFO at a DSO's path (a profiled program can put one there) must not block us */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	err = sampo_build_id__from_elf_fd(fd, ret);
	close(fd);
	return err;
}

int sampo_build_id__from_notes(const void *buf, size_t size, struct sampo_build_id *ret)
{
	const uint8_t *p = buf;
	size_t off = 0;

	while (size - off >= 12) {
		uint32_t namesz = load_u32(p + off);
		uint32_t descsz = load_u32(p + off + 4);
		uint32_t type = load_u32(p + off + 8);
		size_t name_pad = ALIGN_UP((size_t)namesz, 4);
		size_t desc_pad = ALIGN_UP((size_t)descsz, 4);
		size_t rest = size - off - 12;

		if (name_pad > rest || desc_pad > rest - name_pad)
			return -SAMPO_ERR_MALFORMED;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + off + 12, "GNU", 4))
			return build_id_set(ret, p + off + 12 + name_pad, descsz);
		off += 12 + name_pad + desc_pad;
	}
	/* trailing bytes too short for a header: sysfs pads, so tolerate them */
	return -ENOENT;
}

int sampo_build_id__from_notes_file(const char *path, struct sampo_build_id *ret)
{
	char *buf = NULL;
	size_t len = 0;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs reports a size of 4096 whatever the content: read to EOF */
	err = sampo_read_fd(fd, NOTES_FILE_MAX_BYTES, 4096, &buf, &len);
	close(fd);
	if (err)
		return err == -EFBIG ? -SAMPO_ERR_MALFORMED : err;
	err = sampo_build_id__from_notes(buf, len, ret);
	free(buf);
	return err;
}

int sampo_build_id__to_hex(const struct sampo_build_id *bid, char *buf, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t n = MIN(bid->size, (size_t)SAMPO_BUILD_ID_SIZE);

	if (len < n * 2 + 1)
		return -ENOSPC;
	for (size_t i = 0; i < n; i++) {
		buf[2 * i] = digits[bid->data[i] >> 4];
		buf[2 * i + 1] = digits[bid->data[i] & 0xf];
	}
	buf[n * 2] = '\0';
	return (int)(n * 2);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int sampo_build_id__from_hex(const char *hex, struct sampo_build_id *ret)
{
	struct sampo_build_id bid = { .size = 0 };
	size_t len = strnlen(hex, SAMPO_BUILD_ID_SIZE * 2 + 1);

	if (len == 0 || len % 2 || len > SAMPO_BUILD_ID_SIZE * 2)
		return -EINVAL;
	for (size_t i = 0; i < len / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		bid.data[i] = (uint8_t)(hi << 4 | lo);
	}
	bid.size = len / 2;
	*ret = bid;
	return 0;
}

bool sampo_build_id__equal(const struct sampo_build_id *a, const struct sampo_build_id *b)
{
	return a->size == b->size && a->size <= SAMPO_BUILD_ID_SIZE &&
	       !memcmp(a->data, b->data, a->size);
}

int sampo_build_id__cmp(const struct sampo_build_id *a, const struct sampo_build_id *b)
{
	size_t n = MIN(MIN(a->size, b->size), (size_t)SAMPO_BUILD_ID_SIZE);
	int c = memcmp(a->data, b->data, n);

	if (c)
		return c;
	return (a->size > b->size) - (a->size < b->size);
}
