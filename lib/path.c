// SPDX-License-Identifier: LGPL-2.1
/*
 * path.c - the one place that decides whether a string read from a file may
 * become part of a path (internal/path.h).
 *
 * The rule is structural, not a list of bad places: a name is one component
 * ("5.15.0-91-generic", "ext4"), a path has no component that climbs ("..")
 * or stands for its parent ("."). Absolute paths are allowed where they are
 * a recorded file's own name: it is the joining below a root (--symfs, a
 * guest's mount) that must not escape. Control characters are refused in
 * both: no legitimate release, module or file name has one, and they would
 * end up in warnings.
 *
 * And the one `mkdir -p` of a directory the user names (the build-id cache's
 * root, an archive's destination).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal/path.h"

static bool has_control(const char *s)
{
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	}
	return false;
}

/* the component of @len bytes at @c is "." or ".." */
static bool is_dots(const char *c, size_t len)
{
	return (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.');
}

bool sampo_path__is_name(const char *name)
{
	return name && *name && !strchr(name, '/') && !is_dots(name, strlen(name)) &&
	       !has_control(name);
}

bool sampo_path__is_clean(const char *path)
{
	const char *c;

	if (!path || !*path || has_control(path))
		return false;
	for (c = path; *c;) {
		size_t len = strcspn(c, "/");

		if (is_dots(c, len))
			return false;
		c += len;
		while (*c == '/')
			c++;
	}
	return true;
}

int sampo_path__mkdir_open(const char *dir)
{
	char *copy = strdup(dir);
	int fd;

	if (!copy)
		return -ENOMEM;
	for (char *p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		(void)mkdir(copy, 0755);
		*p = '/';
	}
	(void)mkdir(copy, 0755);
	free(copy);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
