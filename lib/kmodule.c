// SPDX-License-Identifier: LGPL-2.1
/*
 * kmodule.c - kernel module files: read them whatever their compression, and
 * redo the module loader's layout of their executable sections.
 *
 * The layout follows kernel/module/main.c layout_sections() (Linux 6.1; the
 * same since 4.x, and the MOD_TEXT region of 6.4+ is built by the same loop):
 * sections are taken in section-header order in groups by flags, the first
 * group being SHF_ALLOC|SHF_EXECINSTR; each section starts at the running
 * size aligned up to its sh_addralign; ".init*" sections go to the init
 * region instead (and ".exit*" too when the kernel lacks
 * CONFIG_MODULE_UNLOAD, which distribution kernels all have). The core
 * region starts at the module's base, the address /proc/modules shows and
 * perf's module map starts at.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <gelf.h>
#include <libelf.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <sampo/modsections.h>
#include <sampo/symbol.h>
#include "internal/kmodule.h"
#include "internal/machine.h"
#include "internal/util.h"

#define MODULE_MAX_SIZE (512u << 20)
#define LAYOUT_MAX	(1ULL << 32) /* bytes of one module's executable core, at most */

void sampo_section_addrs__free(struct sampo_section_addr *secs, size_t nr)
{
	for (size_t i = 0; secs && i < nr; i++)
		free((char *)secs[i].name);
	free(secs);
}

int sampo_module__layout(const void *image, size_t len, uint64_t base,
			 struct sampo_section_addr **ret, size_t *ret_nr)
{
	struct sampo_section_addr *secs = NULL;
	size_t shnum, shstrndx, nr = 0;
	uint64_t size = 0;
	GElf_Ehdr ehdr;
	Elf *elf;
	char *copy;
	int err = -SAMPO_ERR_MALFORMED;

	(void)elf_version(EV_CURRENT);
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, image, len);
	elf = elf_memory(copy, len);
	if (!elf)
		goto out_free;
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr) || ehdr.e_type != ET_REL ||
	    elf_getshdrnum(elf, &shnum) || elf_getshdrstrndx(elf, &shstrndx))
		goto out_end;
	secs = calloc(shnum ? shnum : 1, sizeof(*secs));
	err = -ENOMEM;
	if (!secs)
		goto out_end;
	for (size_t i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		uint64_t align;
		const char *name;
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh))
			continue;
		if ((sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || !strncmp(name, ".init", 5))
			continue;
		align = sh.sh_addralign ? sh.sh_addralign : 1;
		if (align & (align - 1)) {
			err = -SAMPO_ERR_MALFORMED;
			goto out_end;
		}
		/* a module's core is megabytes: anything near 2^64 is a hostile file */
		if (align > LAYOUT_MAX || sh.sh_size > LAYOUT_MAX || size > LAYOUT_MAX) {
			err = -SAMPO_ERR_MALFORMED;
			goto out_end;
		}
		size = (size + align - 1) & ~(align - 1);
		secs[nr].name = strdup(name);
		if (!secs[nr].name)
			goto out_end;
		secs[nr++].addr = base + size;
		size += sh.sh_size;
	}
	*ret = secs;
	*ret_nr = nr;
	secs = NULL;
	nr = 0;
	err = 0;
out_end:
	elf_end(elf);
out_free:
	sampo_section_addrs__free(secs, nr);
	free(copy);
	return err;
}

/* ---- decompression ------------------------------------------------------------------------- */

static int read_all(int fd, uint8_t **ret, size_t *ret_len)
{
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (len == cap) {
			uint8_t *nb;

			if (cap >= MODULE_MAX_SIZE) {
				free(buf);
				return -EFBIG;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	*ret = buf;
	*ret_len = len;
	return 0;
}

/* Grow an output buffer for a streaming decompressor. */
static int out_grow(uint8_t **buf, size_t *cap)
{
	size_t ncap = *cap ? *cap * 2 : 1 << 20;
	uint8_t *nb;

	if (*cap >= MODULE_MAX_SIZE)
		return -EFBIG;
	nb = realloc(*buf, ncap);
	if (!nb)
		return -ENOMEM;
	*buf = nb;
	*cap = ncap;
	return 0;
}

static int inflate_gz(const uint8_t *in, size_t in_len, uint8_t **ret, size_t *ret_len)
{
	z_stream zs = { 0 };
	uint8_t *out = NULL;
	size_t cap = 0;
	int zret, err = 0;

	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
		return -ENOMEM;
	zs.next_in = (Bytef *)in;
	zs.avail_in = (uInt)MIN(in_len, (size_t)UINT32_MAX);
	do {
		if (zs.total_out == cap) {
			err = out_grow(&out, &cap);
			if (err)
				break;
		}
		zs.next_out = out + zs.total_out;
		zs.avail_out = (uInt)(cap - zs.total_out);
		zret = inflate(&zs, Z_NO_FLUSH);
		if (zret != Z_OK && zret != Z_STREAM_END && zret != Z_BUF_ERROR) {
			err = -SAMPO_ERR_DECOMPRESS;
			break;
		}
		if (zret == Z_BUF_ERROR && zs.avail_out) {
			err = -SAMPO_ERR_DECOMPRESS; /* truncated input */
			break;
		}
	} while (zret != Z_STREAM_END);
	if (!err) {
		*ret = out;
		*ret_len = zs.total_out;
	} else {
		free(out);
	}
	inflateEnd(&zs);
	return err;
}

static int inflate_xz(const uint8_t *in, size_t in_len, uint8_t **ret, size_t *ret_len)
{
	lzma_stream ls = LZMA_STREAM_INIT;
	uint8_t *out = NULL;
	size_t cap = 0;
	lzma_ret lret;
	int err = 0;

	if (lzma_stream_decoder(&ls, MODULE_MAX_SIZE, LZMA_CONCATENATED) != LZMA_OK)
		return -ENOMEM;
	ls.next_in = in;
	ls.avail_in = in_len;
	do {
		if (ls.total_out == cap) {
			err = out_grow(&out, &cap);
			if (err)
				break;
		}
		ls.next_out = out + ls.total_out;
		ls.avail_out = cap - ls.total_out;
		lret = lzma_code(&ls, LZMA_FINISH);
		if (lret != LZMA_OK && lret != LZMA_STREAM_END) {
			err = -SAMPO_ERR_DECOMPRESS;
			break;
		}
	} while (lret != LZMA_STREAM_END);
	if (!err) {
		*ret = out;
		*ret_len = ls.total_out;
	} else {
		free(out);
	}
	lzma_end(&ls);
	return err;
}

static int inflate_zst(const uint8_t *in, size_t in_len, uint8_t **ret, size_t *ret_len)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, in_len, 0 };
	uint8_t *out = NULL;
	size_t cap = 0, len = 0, zret = 1;
	int err = 0;

	if (!ds)
		return -ENOMEM;
	while (zret != 0) {
		ZSTD_outBuffer ob;

		if (len == cap) {
			err = out_grow(&out, &cap);
			if (err)
				break;
		}
		ob = (ZSTD_outBuffer){ out + len, cap - len, 0 };
		zret = ZSTD_decompressStream(ds, &ob, &ib);
		len += ob.pos;
		if (ZSTD_isError(zret)) {
			err = -SAMPO_ERR_DECOMPRESS;
			break;
		}
		if (zret != 0 && ib.pos == ib.size && ob.pos < ob.size) {
			err = -SAMPO_ERR_DECOMPRESS; /* truncated */
			break;
		}
	}
	ZSTD_freeDStream(ds);
	if (err) {
		free(out);
		return err;
	}
	*ret = out;
	*ret_len = len;
	return 0;
}

int sampo_module__read_file(const char *path, void **ret_buf, size_t *ret_len)
{
	static const uint8_t gz[] = { 0x1f, 0x8b };
	static const uint8_t xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };
	static const uint8_t zst[] = { 0x28, 0xb5, 0x2f, 0xfd };
	uint8_t *raw = NULL, *out = NULL;
	size_t len = 0, out_len = 0;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = read_all(fd, &raw, &len);
	close(fd);
	if (err)
		return err;
	if (len >= sizeof(gz) && !memcmp(raw, gz, sizeof(gz)))
		err = inflate_gz(raw, len, &out, &out_len);
	else if (len >= sizeof(xz) && !memcmp(raw, xz, sizeof(xz)))
		err = inflate_xz(raw, len, &out, &out_len);
	else if (len >= sizeof(zst) && !memcmp(raw, zst, sizeof(zst)))
		err = inflate_zst(raw, len, &out, &out_len);
	else {
		*ret_buf = raw;
		*ret_len = len;
		return 0;
	}
	free(raw);
	if (err)
		return err;
	*ret_buf = out;
	*ret_len = out_len;
	return 0;
}

/* ---- the module files of a tree ----------------------------------------------------------- */

char *sampo_module__name(const char *path)
{
	char *name = NULL;
	size_t n;

	if (sampo_kmod__name(path, &name))
		return NULL;
	n = strlen(name);
	if (n >= 2 && name[0] == '[' && name[n - 1] == ']') {
		memmove(name, name + 1, n - 2);
		name[n - 2] = '\0';
	}
	for (char *c = name; *c; c++) {
		if (*c == '-')
			*c = '_';
	}
	return name;
}

struct mod_walk {
	struct sampo_module_file *files;
	size_t nr, cap;
};

static int mod_walk_add(struct mod_walk *w, const char *path)
{
	struct sampo_module_file *f;

	if (!sampo_kmod__is_module(path))
		return 0;
	if (w->nr == w->cap) {
		size_t ncap = w->cap ? w->cap * 2 : 256;

		f = realloc(w->files, ncap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		w->files = f;
		w->cap = ncap;
	}
	f = &w->files[w->nr];
	f->name = sampo_module__name(path);
	f->path = strdup(path);
	if (!f->name || !f->path) {
		free(f->name);
		free(f->path);
		return -ENOMEM;
	}
	w->nr++;
	return 0;
}

static int mod_walk_dir(struct mod_walk *w, const char *dir, int depth)
{
	struct dirent *de;
	int err = 0;
	DIR *d;

	if (depth > 16)
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		struct stat st;
		char *p;

		if (de->d_name[0] == '.')
			continue;
		/* the build and source links point at whole kernel trees */
		if (depth == 0 && (!strcmp(de->d_name, "build") || !strcmp(de->d_name, "source")))
			continue;
		if (asprintf(&p, "%s/%s", dir, de->d_name) < 0) {
			err = -ENOMEM;
			break;
		}
		if (!lstat(p, &st)) {
			if (S_ISDIR(st.st_mode))
				err = mod_walk_dir(w, p, depth + 1);
			else if (S_ISREG(st.st_mode))
				err = mod_walk_add(w, p);
		}
		free(p);
	}
	closedir(d);
	return err;
}

int sampo_module_files__walk(const char *dir, struct sampo_module_file **ret, size_t *ret_nr)
{
	struct mod_walk w = { 0 };
	int err = mod_walk_dir(&w, dir, 0);

	*ret = w.files;
	*ret_nr = w.nr;
	return err;
}

void sampo_module_files__free(struct sampo_module_file *files, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(files[i].name);
		free(files[i].path);
	}
	free(files);
}
