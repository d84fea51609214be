/* SPDX-License-Identifier: LGPL-2.1 */
/* evsel.h - what perf calls an event of the file, by its attr */
#ifndef SAMPO_EVSEL_H
#define SAMPO_EVSEL_H

#include <sampo/common.h>

struct sampo_event_attr;

/**
 * sampo_evsel__default_name() - the name perf's evsel__name() gives an
 * event that the file does not name ("cpu-clock", "cycles:u", "dummy:HG")
 *
 * Return: a string the caller frees, or NULL when out of memory.
 */
SAMPO_API char *sampo_evsel__default_name(const struct sampo_event_attr *attr);

#endif /* SAMPO_EVSEL_H */
