// SPDX-License-Identifier: LGPL-2.1
/*
 * symbol-perfmap.c - the symbols of a JIT's perf map, /tmp/perf-PID.map:
 * one "START SIZE NAME" line per symbol, START and SIZE in hex, absolute
 * addresses (perf's dso__load_perf_map()). Lines that do not parse are
 * skipped, as perf skips them; a NUL byte ends a line's name.
 *
 * The file is read from /tmp, where anybody may create any name: it is
 * opened with O_NOFOLLOW|O_NONBLOCK and checked on the descriptor (fstat)
 * to be a regular file of ours or root's before a byte is read, the check
 * perf's dso__load() makes (its -f overrides the owner, as @any_owner does
 * here). A FIFO, a device or a link is never read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/symbol.h>

#include "internal/symbol.h"

/* a hex number at *p, up to @end; false when there is none or it overflows */
static bool parse_hex(const char **p, const char *end, uint64_t *ret)
{
	const char *s = *p, *start = *p;
	uint64_t v = 0;

	for (; s < end; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (v >> 60)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	if (s == start)
		return false;
	*p = s;
	*ret = v;
	return true;
}

int sampo_symtab__load_perf_map_mem(const char *buf, size_t size, struct sampo_symtab **ret)
{
	struct sampo_symtab_builder b;
	const char *p = buf, *end = buf + size;
	int err = 0;

	sampo_symtab_builder__init(&b);
	/* perf inserts the lines in file order and fixes nothing up */
	sampo_symtab_builder__perf_tree(&b, SAMPO_PERF_TREE_PERFMAP);
	while (p < end && !err) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = eol ? eol : end;
		const char *q = p, *name;
		uint64_t start, len;
		size_t name_len;

		p = eol ? eol + 1 : end;
		if (!parse_hex(&q, line_end, &start) || q == line_end || *q != ' ')
			continue;
		q++;
		if (!parse_hex(&q, line_end, &len) || q == line_end || *q != ' ')
			continue;
		name = q + 1;
		name_len = (size_t)(line_end - name);
		if (memchr(name, '\0', name_len))
			name_len = strlen(name);
		if (name_len && name[name_len - 1] == '\r')
			name_len--;
		if (!name_len || start + len < start)
			continue;
		err = sampo_symtab_builder__add(&b, start, len, name, name_len, SAMPO_SYMBOL_GLOBAL,
						SAMPO_SYMBOL_FUNC, 0);
	}
	if (!err)
		err = sampo_symtab_builder__finish(&b, SAMPO_FIXUP_ELF, ret);
	sampo_symtab_builder__release(&b);
	return err;
}

#define PERF_MAP_MAX_BYTES (256u << 20) /* no JIT writes that much */

static int read_all(int fd, char **ret, size_t *ret_len)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;

	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;

			if (cap >= PERF_MAP_MAX_BYTES) {
				free(buf);
				return -EFBIG;
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return -EIO;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	*ret = buf;
	*ret_len = len;
	return 0;
}

int sampo_symtab__load_perf_map(const char *path, bool any_owner, struct sampo_symtab **ret)
{
	char *buf = NULL;
	size_t len = 0;
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out_close;
	}
	err = -EINVAL;
	if (!S_ISREG(st.st_mode))
		goto out_close;
	err = -EPERM;
	if (!any_owner && st.st_uid != geteuid() && st.st_uid != 0)
		goto out_close;
	err = read_all(fd, &buf, &len);
	if (!err)
		err = sampo_symtab__load_perf_map_mem(buf ? buf : "", len, ret);
	free(buf);
out_close:
	close(fd);
	return err;
}
