/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * strbuf.h - a growing string (git's strbuf, in small): the library's one
 * way to build a message of unknown length, such as the list of paths the
 * symbolizer tried. Zero-initialised it is empty; buf is NUL-terminated
 * once anything was added. Out of memory cuts the text short, never loses
 * what was there.
 */
#ifndef SAMPO_INTERNAL_STRBUF_H
#define SAMPO_INTERNAL_STRBUF_H

#include <stddef.h>

#include "internal/util.h"

struct sampo_strbuf {
	char *buf; /* NULL until something is added */
	size_t len, cap;
};

/* printf at the end of @sb (NULL: nothing) */
void sampo_strbuf__addf(struct sampo_strbuf *sb, const char *fmt, ...) SAMPO_PRINTF(2, 3);

/* the text, or @empty when nothing was added */
static inline const char *sampo_strbuf__str(const struct sampo_strbuf *sb, const char *empty)
{
	return sb->buf ? sb->buf : empty;
}

/* free the text; @sb is empty again */
void sampo_strbuf__release(struct sampo_strbuf *sb);

#endif /* SAMPO_INTERNAL_STRBUF_H */
