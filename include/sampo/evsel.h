/* SPDX-License-Identifier: LGPL-2.1 */
/* evsel.h - what perf calls an event of the file, by its attr */
#ifndef SAMPO_EVSEL_H
#define SAMPO_EVSEL_H

#include <sampo/common.h>

struct sampo_event_attr;
struct sampo_features;

/**
 * sampo_evsel__default_name() - the name perf's evsel__name() gives an
 * event that the file does not name ("cpu-clock", "cycles:u", "dummy:HG")
 *
 * Return: a string the caller frees, or NULL when out of memory.
 */
SAMPO_API char *sampo_evsel__default_name(const struct sampo_event_attr *attr);

/**
 * sampo_evsel__desc_name() - the name EVENT_DESC gives event @idx
 * @f: the file's features; NULL is allowed
 *
 * perf 6.1 names the events of a file by the position of their EVENT_DESC
 * entry. Return: the name (borrowed from @f), or NULL when EVENT_DESC was
 * not parsed or has no name at @idx.
 */
SAMPO_API const char *sampo_evsel__desc_name(const struct sampo_features *f, size_t idx);

/**
 * sampo_evsel__name() - the name perf 6.1 gives event @idx of a file from
 * its header: the EVENT_DESC name (sampo_evsel__desc_name()), else
 * sampo_evsel__default_name() of @attr
 *
 * EVENT_UPDATE records can rename an event later on: a session's
 * sampo_session__evsel_name() follows them.
 *
 * Return: a string the caller frees, or NULL when out of memory.
 */
SAMPO_API char *sampo_evsel__name(const struct sampo_features *f, size_t idx,
				  const struct sampo_event_attr *attr);

#endif /* SAMPO_EVSEL_H */
