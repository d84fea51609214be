// SPDX-License-Identifier: LGPL-2.1
/*
 * debuginfo-find.c - the lookup order of separate debug files (see
 * include/sampo/debuginfo.h): the build-id cache's "debug" entry, the
 * build-id path under /usr/lib/debug, then the .gnu_debuglink name next to
 * the file, in its .debug/ and under /usr/lib/debug/DIR, CRC32-checked.
 *
 * Kept apart from the symbol loader (lib/symbol-elf.c) so that every reader
 * of debug information (symbols, source lines, DWARF unwinding, debuginfod)
 * finds the same file by the same rules. Every candidate is checked against
 * the expected build-id: a debug file of another build is never used, and
 * the refusal is reported, since it is the one case where a user has a
 * debug file and sees no symbols.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <sampo/buildid.h>
#include <sampo/buildid-cache.h>
#include <sampo/debuginfo.h>
#include "internal/log.h"
#include "internal/opts.h"
#include "internal/path.h"
#include "internal/util.h"

#define DEFAULT_DEBUG_ROOT "/usr/lib/debug"

struct find_ctx {
	const char *elf_path;
	const struct sampo_build_id *want; /* NULL: no build-id to hold candidates to */
	char *errbuf;
	size_t errbuf_sz;
	char self[PATH_MAX]; /* realpath of elf_path: a link naming the file itself is skipped */
};

const char *sampo_debuginfo__rule_name(enum sampo_debuginfo_rule rule)
{
	switch (rule) {
	case SAMPO_DEBUGINFO_BUILDID_CACHE:
		return "build-id cache";
	case SAMPO_DEBUGINFO_BUILDID_PATH:
		return "build-id path";
	case SAMPO_DEBUGINFO_LINK_DIR:
		return ".gnu_debuglink in the file's directory";
	case SAMPO_DEBUGINFO_LINK_DOT_DEBUG:
		return ".gnu_debuglink in .debug/";
	case SAMPO_DEBUGINFO_LINK_ROOT:
		return ".gnu_debuglink under the debug root";
	}
	return "?";
}

static bool is_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int file_crc32(const char *path, uint32_t *ret)
{
	unsigned char buf[65536];
	uLong crc = crc32(0, Z_NULL, 0);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		crc = crc32(crc, buf, (uInt)n);
	close(fd);
	if (n < 0)
		return -EIO;
	*ret = (uint32_t)crc;
	return 0;
}

/* The .gnu_debuglink of @elf_path: name (malloc'd) and CRC32; -ENOENT when it has none. */
static int read_debuglink(const char *elf_path, char **ret_name, uint32_t *ret_crc)
{
	GElf_Ehdr ehdr;
	Elf_Scn *scn = NULL;
	Elf_Data *data = NULL;
	size_t shstrndx, nlen, crc_off;
	const uint8_t *p;
	Elf *elf;
	int fd, err = -ENOENT;

	fd = open(elf_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr) ||
	    elf_getshdrstrndx(elf, &shstrndx))
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		/* never compressed by the tools that write it: a compressed one is not trusted */
		if (n && !strcmp(n, ".gnu_debuglink") && sh.sh_type == SHT_PROGBITS &&
		    !(sh.sh_flags & SHF_COMPRESSED)) {
			data = elf_getdata(scn, NULL);
			break;
		}
	}
	if (!data || !data->d_buf)
		goto out;
	p = data->d_buf;
	nlen = strnlen((const char *)p, data->d_size);
	crc_off = ALIGN_UP(nlen + 1, (size_t)4);
	if (nlen == 0 || nlen == data->d_size || crc_off + 4 > data->d_size)
		goto out;
	*ret_crc = ehdr.e_ident[EI_DATA] == ELFDATA2MSB ?
			   (uint32_t)p[crc_off] << 24 | (uint32_t)p[crc_off + 1] << 16 |
				   (uint32_t)p[crc_off + 2] << 8 | p[crc_off + 3] :
			   (uint32_t)p[crc_off + 3] << 24 | (uint32_t)p[crc_off + 2] << 16 |
				   (uint32_t)p[crc_off + 1] << 8 | p[crc_off];
	*ret_name = strndup((const char *)p, nlen);
	err = *ret_name ? 0 : -ENOMEM;
	/* the link is joined to directories: one file name, nothing that climbs */
	if (!err && !sampo_path__is_name(*ret_name)) {
		free(*ret_name);
		*ret_name = NULL;
		err = -ENOENT;
	}
out:
	elf_end(elf);
	close(fd);
	return err;
}

/*
 * Is @path a usable debug file: a regular file, not @elf_path itself, and
 * of the same build (when both have a build-id)? A refusal by build-id is
 * written to the error buffer and the log.
 */
static bool candidate_ok(struct find_ctx *c, const char *path)
{
	struct sampo_build_id found;
	char real[PATH_MAX];
	char h1[SAMPO_BUILD_ID_HEX_SIZE], h2[SAMPO_BUILD_ID_HEX_SIZE];

	if (!is_regular(path))
		return false;
	if (c->self[0] && realpath(path, real) && !strcmp(real, c->self))
		return false;
	if (!c->want || sampo_build_id__from_elf(path, &found) || !found.size ||
	    sampo_build_id__equal(&found, c->want))
		return true;
	(void)sampo_build_id__to_hex(&found, h1, sizeof(h1));
	(void)sampo_build_id__to_hex(c->want, h2, sizeof(h2));
	if (c->errbuf && c->errbuf_sz)
		snprintf(c->errbuf, c->errbuf_sz,
			 "debug file '%s' has build-id %s, not %s of '%s': not used", path, h1, h2,
			 c->elf_path);
	pr_debug("debug file '%s' has build-id %s, not %s of '%s': not used\n", path, h1, h2,
		 c->elf_path);
	return false;
}

static int take(const char *path, enum sampo_debuginfo_rule rule, char **ret_path,
		enum sampo_debuginfo_rule *ret_rule)
{
	*ret_path = strdup(path);
	if (!*ret_path)
		return -ENOMEM;
	if (ret_rule)
		*ret_rule = rule;
	pr_debug("debug file '%s' (%s)\n", path, sampo_debuginfo__rule_name(rule));
	return 0;
}

/* The DEBUG_ROOT roots: SYMFS/DEBUG_ROOT first when there is a symfs, then DEBUG_ROOT. */
static int debug_roots(const char *symfs, const char *debug_root, char roots[2][PATH_MAX])
{
	int n = 0;

	if (symfs && *symfs &&
	    snprintf(roots[n], PATH_MAX, "%s%s%s", symfs, debug_root[0] == '/' ? "" : "/",
		     debug_root) < PATH_MAX)
		n++;
	if (snprintf(roots[n], PATH_MAX, "%s", debug_root) < PATH_MAX)
		n++;
	return n;
}

struct link_cand {
	const char *root, *fmt;
	enum sampo_debuginfo_rule rule;
};

static int find_by_link(struct find_ctx *c, const char *name, const char *debug_root,
			const char *symfs, char **ret_path, enum sampo_debuginfo_rule *ret_rule)
{
	char path[PATH_MAX], dir[PATH_MAX], roots[2][PATH_MAX];
	char *link = NULL, *slash;
	uint32_t want_crc = 0;
	int nroots, err;

	err = read_debuglink(c->elf_path, &link, &want_crc);
	if (err)
		return err == -ENOMEM ? err : -ENOENT;
	/* the directory of the recorded file, absolute, so that DEBUG_ROOT/<dir> makes sense */
	if (name[0] == '/') {
		snprintf(dir, sizeof(dir), "%s", name);
	} else if (!realpath(name, dir)) {
		free(link);
		return -ENOENT;
	}
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';

	struct link_cand cands[6];
	size_t n = 0;

	/* under --symfs first: a tree of another machine's files (perf archive's) */
	if (symfs && *symfs && strcmp(symfs, "/")) {
		cands[n++] = (struct link_cand){ symfs, "%s%s/%s", SAMPO_DEBUGINFO_LINK_DIR };
		cands[n++] = (struct link_cand){ symfs, "%s%s/.debug/%s",
						 SAMPO_DEBUGINFO_LINK_DOT_DEBUG };
	}
	cands[n++] = (struct link_cand){ "", "%s%s/%s", SAMPO_DEBUGINFO_LINK_DIR };
	cands[n++] = (struct link_cand){ "", "%s%s/.debug/%s", SAMPO_DEBUGINFO_LINK_DOT_DEBUG };
	nroots = debug_roots(symfs, debug_root, roots);
	for (int i = 0; i < nroots; i++)
		cands[n++] = (struct link_cand){ roots[i], "%s%s/%s", SAMPO_DEBUGINFO_LINK_ROOT };

	err = -ENOENT;
	for (size_t i = 0; i < n; i++) {
		uint32_t crc = 0;

		if (snprintf(path, sizeof(path), cands[i].fmt, cands[i].root, dir, link) >=
		    (int)sizeof(path))
			continue;
		if (!is_regular(path))
			continue;
		if (file_crc32(path, &crc) || crc != want_crc) {
			pr_debug("'%s': CRC32 does not match the debuglink of '%s'\n", path,
				 c->elf_path);
			continue;
		}
		if (!candidate_ok(c, path))
			continue;
		err = take(path, cands[i].rule, ret_path, ret_rule);
		break;
	}
	free(link);
	return err;
}

int sampo_debuginfo__find(const char *elf_path, const struct sampo_debuginfo_opts *opts,
			  char **ret_path, enum sampo_debuginfo_rule *ret_rule)
{
	struct find_ctx c = { .elf_path = elf_path };
	const struct sampo_build_id *want;
	struct sampo_build_id own;
	const char *name, *debug_root, *symfs, *cache;
	char hex[SAMPO_BUILD_ID_HEX_SIZE], roots[2][PATH_MAX], path[PATH_MAX];
	int nroots;

	if (!elf_path || !ret_path || !OPTS_VALID(opts, sampo_debuginfo_opts))
		return -EINVAL;
	(void)elf_version(EV_CURRENT);
	name = OPTS_GET(opts, name, (const char *)NULL);
	want = OPTS_GET(opts, build_id, (const struct sampo_build_id *)NULL);
	debug_root = OPTS_GET(opts, debug_root, (const char *)NULL);
	symfs = OPTS_GET(opts, symfs, (const char *)NULL);
	cache = OPTS_GET(opts, buildid_dir, (const char *)NULL);
	c.errbuf = OPTS_GET(opts, errbuf, (char *)NULL);
	c.errbuf_sz = OPTS_GET(opts, errbuf_sz, (size_t)0);
	if (c.errbuf && c.errbuf_sz)
		c.errbuf[0] = '\0';
	if (!name)
		name = elf_path;
	if (!debug_root)
		debug_root = DEFAULT_DEBUG_ROOT;
	if (!want && !sampo_build_id__from_elf(elf_path, &own) && own.size)
		want = &own;
	if (want && (!want->size || want->size > SAMPO_BUILD_ID_SIZE))
		want = NULL;
	c.want = want;
	if (!realpath(elf_path, c.self))
		c.self[0] = '\0';

	if (want) {
		(void)sampo_build_id__to_hex(want, hex, sizeof(hex));
		if (cache) {
			char *p = NULL;

			if (!sampo_buildid_cache__lookup(cache, want, "debug", &p)) {
				bool ok = candidate_ok(&c, p);
				int err = ok ? take(p, SAMPO_DEBUGINFO_BUILDID_CACHE, ret_path,
						    ret_rule) :
					       0;

				free(p);
				if (ok)
					return err;
			}
		}
		nroots = debug_roots(symfs, debug_root, roots);
		for (int i = 0; i < nroots; i++) {
			if (snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", roots[i], hex,
				     hex + 2) >= (int)sizeof(path))
				continue;
			if (candidate_ok(&c, path))
				return take(path, SAMPO_DEBUGINFO_BUILDID_PATH, ret_path, ret_rule);
		}
	}
	return find_by_link(&c, name, debug_root, symfs, ret_path, ret_rule);
}
