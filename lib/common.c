// SPDX-License-Identifier: LGPL-2.1
/*
 * common.c - error texts and the print hook.
 *
 * The print hook is the library's only global mutable state: the library never
 * writes to stdout or stderr itself, it hands messages to the hook.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sampo/common.h>
#include "internal/log.h"

static int default_print(enum sampo_log_level level, const char *fmt, va_list ap)
{
	if (level > SAMPO_LOG_WARN)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static sampo_print_fn print_fn = default_print;

sampo_print_fn sampo_set_print(sampo_print_fn fn)
{
	sampo_print_fn old = print_fn;

	print_fn = fn;
	return old;
}

void sampo_log(enum sampo_log_level level, const char *fmt, ...)
{
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}

static const char *const sampo_errors[] = {
	[SAMPO_ERR_BAD_MAGIC - SAMPO_ERR_BASE] = "not a perf.data file (bad magic)",
	[SAMPO_ERR_TRUNCATED - SAMPO_ERR_BASE] = "file is truncated",
	[SAMPO_ERR_MALFORMED - SAMPO_ERR_BASE] = "malformed data",
	[SAMPO_ERR_UNSUPPORTED - SAMPO_ERR_BASE] = "unsupported format",
	[SAMPO_ERR_DECOMPRESS - SAMPO_ERR_BASE] = "compressed data does not decompress",
	[SAMPO_ERR_BUILDID_MISMATCH - SAMPO_ERR_BASE] = "build-id does not match the recorded one",
	[SAMPO_ERR_NO_ATTR - SAMPO_ERR_BASE] = "event id matches no event",
};

const char *sampo_strerror(int err, char *buf, size_t len)
{
	if (err < 0)
		err = -err;
	if (err >= SAMPO_ERR_BASE && err < SAMPO_ERR_MAX)
		snprintf(buf, len, "%s", sampo_errors[err - SAMPO_ERR_BASE]);
	else {
		/* _GNU_SOURCE strerror_r: may return a static string instead of filling buf */
		const char *s = strerror_r(err, buf, len);

		if (s != buf)
			snprintf(buf, len, "%s", s);
	}
	return buf;
}
