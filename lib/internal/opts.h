/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * opts.h - the size-prefixed options structs of the public API, checked and
 * read the one way libbpf does (its libbpf_internal.h OPTS_VALID/OPTS_GET).
 *
 * A caller declares `SAMPO_OPTS(sampo_reader_opts, opts, .ordered = true)`,
 * which sets opts.sz to the size of the struct its header had. The library
 * then:
 *   - refuses a size smaller than the size field itself (not an opts struct);
 *   - accepts a bigger struct (a caller built against a newer header) only
 *     when every byte we do not know is zero: a field we cannot honour must
 *     not be ignored silently;
 *   - reads a field only when the caller's struct reaches it, and otherwise
 *     uses the default (a caller built against an older header).
 * The unknown tail starts after the whole struct, not after its last field:
 * SAMPO_OPTS() does not zero the tail padding.
 */
#ifndef SAMPO_INTERNAL_OPTS_H
#define SAMPO_INTERNAL_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool sampo_opts__valid(const void *opts, size_t user_sz, size_t known_sz)
{
	const uint8_t *bytes = opts;

	if (!opts)
		return true;
	if (user_sz < sizeof(size_t))
		return false;
	for (size_t i = known_sz; i < user_sz; i++)
		if (bytes[i])
			return false;
	return true;
}

/* true for NULL (all defaults) and for a struct the library can honour */
#define OPTS_VALID(opts, TYPE)                                                                     \
	sampo_opts__valid((opts), (opts) ? (opts)->sz : 0, sizeof(struct TYPE))

/* the caller's struct reaches @field */
#define OPTS_HAS(opts, field)                                                                      \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + sizeof((opts)->field))

/* @field, or @fallback when the caller's struct is older or absent */
#define OPTS_GET(opts, field, fallback) (OPTS_HAS(opts, field) ? (opts)->field : (fallback))

#endif /* SAMPO_INTERNAL_OPTS_H */
