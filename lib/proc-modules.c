// SPDX-License-Identifier: LGPL-2.1
/*
 * proc-modules.c - parse /proc/modules (see proc-modules.h for the format).
 *
 * The whole file is read into memory (it is a few KB: one short line per
 * module) and parsed line by line with explicit bounds, never past @len,
 * so the parser takes any bytes: a fuzz target and the unit tests cut it
 * at every length. Fields are separated by spaces or tabs; a NUL byte ends
 * nothing early, it is just not a digit or a name byte.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sampo/proc-modules.h>
#include "internal/util.h"

#define PROC_MODULES_MAX_BYTES (16u << 20)

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* The next field of [*p, end): its start and length; advances *p past it. */
static size_t next_field(const char **p, const char *end, const char **ret_start)
{
	const char *s = *p;

	while (s < end && is_space(*s))
		s++;
	*ret_start = s;
	while (s < end && !is_space(*s))
		s++;
	*p = s;
	return (size_t)(s - *ret_start);
}

/* An unsigned number of @len bytes in @base (10 or 16): false if not only digits or too big. */
static bool parse_u64(const char *s, size_t len, unsigned int base, uint64_t *ret)
{
	uint64_t v = 0;

	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned int d;

		if (s[i] >= '0' && s[i] <= '9')
			d = (unsigned int)(s[i] - '0');
		else if (base == 16 && s[i] >= 'a' && s[i] <= 'f')
			d = (unsigned int)(s[i] - 'a' + 10);
		else if (base == 16 && s[i] >= 'A' && s[i] <= 'F')
			d = (unsigned int)(s[i] - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*ret = v;
	return true;
}

/* One line [p, end): true and @m filled when it names a module. */
static bool parse_line(const char *p, const char *end, struct sampo_proc_module *m)
{
	const char *f;
	size_t n;

	memset(m, 0, sizeof(*m));
	n = next_field(&p, end, &f);
	if (!n || n >= sizeof(m->name) || memchr(f, '\0', n))
		return false;
	memcpy(m->name, f, n);
	n = next_field(&p, end, &f);
	if (!parse_u64(f, n, 10, &m->size_bytes))
		return false;
	while ((n = next_field(&p, end, &f)) > 0) {
		if (n > 2 && f[0] == '0' && f[1] == 'x') {
			if (!parse_u64(f + 2, n - 2, 16, &m->addr))
				m->addr = 0;
			break;
		}
	}
	return true;
}

int sampo_proc_modules__parse(const char *buf, size_t len, struct sampo_proc_module **ret_mods,
			      size_t *ret_nr)
{
	struct sampo_proc_module *mods = NULL, m;
	const char *p = buf, *end = buf + len;
	size_t nr = 0, alloc = 0;

	if ((!buf && len) || !ret_mods || !ret_nr)
		return -EINVAL;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol)
			eol = end;
		if (parse_line(p, eol, &m)) {
			if (nr == alloc) {
				size_t na = alloc ? alloc * 2 : 64;
				struct sampo_proc_module *nm = realloc(mods, na * sizeof(*nm));

				if (!nm) {
					free(mods);
					return -ENOMEM;
				}
				mods = nm;
				alloc = na;
			}
			mods[nr++] = m;
		}
		p = eol + (eol < end);
	}
	*ret_mods = mods;
	*ret_nr = nr;
	return 0;
}

int sampo_proc_modules__read(const char *proc_dir, struct sampo_proc_module **ret_mods,
			     size_t *ret_nr)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0, alloc = 0;
	int fd, err;

	if (!ret_mods || !ret_nr)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/modules", proc_dir ? proc_dir : "/proc");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* /proc files report a size of 0: read to the end */
	for (;;) {
		ssize_t n;

		if (len == alloc) {
			char *nb;

			if (alloc >= PROC_MODULES_MAX_BYTES) {
				err = -EFBIG;
				goto out;
			}
			alloc = alloc ? alloc * 2 : 16384;
			nb = realloc(buf, alloc);
			if (!nb) {
				err = -ENOMEM;
				goto out;
			}
			buf = nb;
		}
		n = read(fd, buf + len, alloc - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	err = sampo_proc_modules__parse(buf, len, ret_mods, ret_nr);
out:
	free(buf);
	close(fd);
	return err;
}
