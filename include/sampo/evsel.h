/* SPDX-License-Identifier: LGPL-2.1 */
/* evsel.h - what perf calls an event of the file, by its attr */
#ifndef SAMPO_EVSEL_H
#define SAMPO_EVSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* One event's place in the event groups of a file (GROUP_DESC). */
struct sampo_evsel_group {
	size_t leader;	     /* index of the event leading its group; its own when it leads or is alone */
	uint32_t nr_members; /* when it leads: the group's size, leader included; 1 otherwise */
	const char *name;    /* when it leads a named group: its name (borrowed); NULL otherwise */
};

/**
 * sampo_evsel__groups() - the event groups of a file, rebuilt from its
 * attrs and GROUP_DESC as perf 6.1's process_group_desc() does
 * @f: the file's features; NULL, or no GROUP_DESC: every event is alone
 * @nr_evsels: the number of attrs (events) of the file
 * @ret_groups: on success, @nr_evsels entries in attr order (NULL when
 *              @nr_evsels is 0); free with free(). A name points into @f
 *              and lives as long as it does.
 * @ret_consistent: optional; on success, false when perf finds the
 *                  description invalid ("invalid group desc": a group that
 *                  starts inside another, a leader index no event has, or
 *                  members left over at the end). perf then stops
 *                  processing the later features of the file.
 *
 * Walks the events in order, making the one whose index is the next
 * group's leader_idx a leader of nr_members; the events after it are its
 * members. As perf, it stops at an inconsistency but keeps what it has
 * set; a group named "{anon_group}" has no name.
 *
 * Return: 0, or -ENOMEM.
 */
SAMPO_API int sampo_evsel__groups(const struct sampo_features *f, size_t nr_evsels,
				  struct sampo_evsel_group **ret_groups, bool *ret_consistent);

#endif /* SAMPO_EVSEL_H */
