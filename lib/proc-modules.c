// SPDX-License-Identifier: LGPL-2.1
/*
 * proc-modules.c - parse /proc/modules (see proc-modules.h for the format).
 *
 * The whole file is read into memory (it is a few KB: one short line per
 * module) and parsed line by line with explicit bounds, never past @len,
 * so the parser takes any bytes: a fuzz target and the unit tests cut it
 * at every length. Fields are separated by spaces or tabs; a NUL byte ends
 * nothing early, it is just not a digit or a name byte.
 *
 * The module watch keeps the names seen so far in one array, in the order
 * seen; the last nr_new of them are the ones the last poll found. Module
 * counts are small (a few hundred), so lookups are linear.
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
#include "internal/kmodule.h"
#include "internal/util.h"
#include "internal/fileio.h"

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
	size_t len = 0;
	int fd, err;

	if (!ret_mods || !ret_nr)
		return -EINVAL;
	*ret_mods = NULL;
	*ret_nr = 0;
	snprintf(path, sizeof(path), "%s/modules", proc_dir ? proc_dir : "/proc");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* /proc files report a size of 0: read to the end */
	err = sampo_read_fd(fd, PROC_MODULES_MAX_BYTES, 0, &buf, &len);
	close(fd);
	if (err)
		return err;
	err = sampo_proc_modules__parse(buf, len, ret_mods, ret_nr);
	free(buf);
	return err;
}

/* ---- the module watch ---------------------------------------------------- */

struct sampo_module_watch {
	char *proc_dir;
	char (*names)[SAMPO_MODULE_NAME_SIZE];
	size_t nr, alloc;
	size_t nr_new; /* the last nr_new names came with the last poll */
};

static bool watch_knows(const struct sampo_module_watch *w, const char *name)
{
	for (size_t i = 0; i < w->nr; i++) {
		if (!strcmp(w->names[i], name))
			return true;
	}
	return false;
}

static int watch_add(struct sampo_module_watch *w, const char *name)
{
	if (w->nr == w->alloc) {
		size_t na = w->alloc ? w->alloc * 2 : 64;
		char(*nn)[SAMPO_MODULE_NAME_SIZE] = realloc(w->names, na * sizeof(*nn));

		if (!nn)
			return -ENOMEM;
		w->names = nn;
		w->alloc = na;
	}
	snprintf(w->names[w->nr++], SAMPO_MODULE_NAME_SIZE, "%s", name);
	return 0;
}

int sampo_module_watch__poll(struct sampo_module_watch *w)
{
	struct sampo_proc_module *mods;
	size_t nr_mods, before;
	int err;

	if (!w)
		return -EINVAL;
	w->nr_new = 0;
	err = sampo_proc_modules__read(w->proc_dir, &mods, &nr_mods);
	if (err)
		return err;
	before = w->nr;
	for (size_t i = 0; i < nr_mods && !err; i++) {
		if (!watch_knows(w, mods[i].name))
			err = watch_add(w, mods[i].name);
	}
	free(mods);
	if (err) {
		w->nr = before;
		return err;
	}
	w->nr_new = w->nr - before;
	return (int)w->nr_new;
}

int sampo_module_watch__new(const char *proc_dir, struct sampo_module_watch **ret_watch)
{
	struct sampo_module_watch *w;
	int err;

	if (!ret_watch)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->proc_dir = strdup(proc_dir ? proc_dir : "/proc");
	if (!w->proc_dir) {
		free(w);
		return -ENOMEM;
	}
	err = sampo_module_watch__poll(w);
	if (err < 0) {
		sampo_module_watch__delete(w);
		return err;
	}
	w->nr_new = 0; /* what is loaded at the start is not new */
	*ret_watch = w;
	return 0;
}

void sampo_module_watch__delete(struct sampo_module_watch *w)
{
	if (!w)
		return;
	free(w->names);
	free(w->proc_dir);
	free(w);
}

size_t sampo_module_watch__nr(const struct sampo_module_watch *w)
{
	return w ? w->nr : 0;
}

const char *sampo_module_watch__name(const struct sampo_module_watch *w, size_t idx)
{
	return w && idx < w->nr ? w->names[idx] : NULL;
}

bool sampo_module_watch__is_new(const struct sampo_module_watch *w, const char *map_name)
{
	char *name;
	bool found = false;

	if (!w || !w->nr_new || !map_name)
		return false;
	name = sampo_module__name(map_name);
	if (!name)
		return false;
	for (size_t i = w->nr - w->nr_new; i < w->nr && !found; i++)
		found = !strcmp(w->names[i], name);
	free(name);
	return found;
}
