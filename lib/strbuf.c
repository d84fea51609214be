// SPDX-License-Identifier: LGPL-2.1
/*
 * strbuf.c - the growing string of internal/strbuf.h: vsnprintf into the
 * room left, and on overflow grow to at least what it needed and print again.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal/strbuf.h"

void sampo_strbuf__addf(struct sampo_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!sb)
		return;
	for (;;) {
		size_t room = sb->cap - sb->len;

		va_start(ap, fmt);
		n = vsnprintf(sb->buf ? sb->buf + sb->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < room) {
			sb->len += (size_t)n;
			return;
		}
		size_t ncap = (sb->cap ? sb->cap * 2 : 256) + (size_t)n;
		char *nb = realloc(sb->buf, ncap);

		if (!nb)
			return;
		sb->buf = nb;
		sb->cap = ncap;
	}
}

void sampo_strbuf__release(struct sampo_strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}
