/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * common.h - what every libsampo header needs: the export macro, error codes,
 * the print hook and the size-prefixed options convention.
 */
#ifndef SAMPO_COMMON_H
#define SAMPO_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define SAMPO_API __attribute__((visibility("default")))

/*
 * Errors: functions return 0 (or a count) on success and a negative errno or
 * a negative SAMPO_ERR_* on failure. The details, one line naming the file,
 * the offset or field and the problem, come one way:
 *   - a call that opens or parses fills the caller's errbuf: the .errbuf and
 *     .errbuf_sz of its opts struct when it takes one (sampo_session__open(),
 *     sampo_reader__open(), the symbol table loaders), else its last two
 *     parameters (sampo_cpu_set__parse(), sampo_sort_keys__parse()); the
 *     feature parsers fill a struct sampo_feature_error, the same line with
 *     the feature it is about;
 *   - an object that fails after it exists keeps the line for its
 *     __error() call (sampo_session__error(), sampo_reader__error()).
 * The library never prints them; warnings it recovers from go to the print
 * hook (sampo_set_print()).
 */
#define SAMPO_ERR_BASE 4000
enum sampo_err {
	SAMPO_ERR_BAD_MAGIC = SAMPO_ERR_BASE, /* not a perf.data file */
	SAMPO_ERR_TRUNCATED,		      /* file ends inside a structure */
	SAMPO_ERR_MALFORMED,		      /* a size, offset or count is impossible */
	SAMPO_ERR_UNSUPPORTED,		      /* valid but not handled (e.g. v1 format) */
	SAMPO_ERR_DECOMPRESS,		      /* a compressed record does not decompress */
	SAMPO_ERR_BUILDID_MISMATCH,	      /* file has another build-id than recorded */
	SAMPO_ERR_NO_ATTR,		      /* record references an unknown event id */
	SAMPO_ERR_MAX,
};

/**
 * sampo_strerror() - describe an error code
 * @err: a negative errno or negative SAMPO_ERR_* (the sign is ignored)
 * @buf: where the text goes
 * @len: size of @buf
 *
 * Return: @buf
 */
SAMPO_API const char *sampo_strerror(int err, char *buf, size_t len);

enum sampo_log_level {
	SAMPO_LOG_WARN,
	SAMPO_LOG_INFO,
	SAMPO_LOG_DEBUG,
};

typedef int (*sampo_print_fn)(enum sampo_log_level level, const char *fmt, va_list ap);

/**
 * sampo_set_print() - install the hook that receives the library's messages
 * @fn: the new hook, or NULL to silence the library
 *
 * The default hook prints warnings to stderr and drops the rest.
 * Return: the previous hook
 */
SAMPO_API sampo_print_fn sampo_set_print(sampo_print_fn fn);

/*
 * Options structs start with their own size so that they can grow:
 *	SAMPO_OPTS(sampo_reader_opts, opts, .ordered = true);
 */
#define SAMPO_OPTS(TYPE, NAME, ...) struct TYPE NAME = { .sz = sizeof(struct TYPE), __VA_ARGS__ }

#endif /* SAMPO_COMMON_H */
