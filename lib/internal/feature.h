/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/feature.h - what the feature parsers of lib/feature.c and
 * lib/feature-topology.c share: the bounded cursor over one payload and the
 * arena of the struct sampo_features being filled (not exported).
 *
 * Every read of a payload goes through a struct feat_cursor: it checks the
 * bytes left first, and on a failure records what was being read, where and
 * why in the caller's struct sampo_feature_error, then returns
 * -SAMPO_ERR_MALFORMED (-ENOMEM when out of memory). A parser is a straight
 * sequence of such reads that returns the first error.
 */
#ifndef SAMPO_INTERNAL_FEATURE_H
#define SAMPO_INTERNAL_FEATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/feature.h>
#include "internal/util.h"

struct features_obj; /* the struct sampo_features and its arena (feature.c) */

struct feat_cursor {
	const uint8_t *buf;
	size_t len; /* payload size */
	size_t pos; /* next byte to read */
	bool swap;
	int feat;
	struct features_obj *obj;
	struct sampo_feature_error *err;
};

typedef int (*feat_parse_fn)(struct feat_cursor *c, struct sampo_features *f);

/* zeroed memory that lives as long as the features; NULL when out of memory */
void *sampo_features__arena_alloc(struct features_obj *obj, size_t size);
/* calloc-like, with the multiplication checked; NULL for nmemb 0 */
void *sampo_features__arena_array(struct features_obj *obj, size_t nmemb, size_t size);

/* record a failure at payload offset @at and return @errcode */
int sampo_feat_cursor__fail(struct feat_cursor *c, size_t at, int errcode, const char *fmt, ...)
	SAMPO_PRINTF(4, 5);
int sampo_feat_cursor__nomem(struct feat_cursor *c);
size_t sampo_feat_cursor__left(const struct feat_cursor *c);
int sampo_feat_cursor__need(struct feat_cursor *c, size_t n, const char *what);
int sampo_feat_cursor__u32(struct feat_cursor *c, uint32_t *v, const char *what);
int sampo_feat_cursor__u64(struct feat_cursor *c, uint64_t *v, const char *what);
/* @n bytes copied into the arena (*ret NULL for 0) */
int sampo_feat_cursor__bytes(struct feat_cursor *c, size_t n, uint8_t **ret, const char *what);
/* a perf string (u32 len, NUL-padded bytes), copied and NUL-terminated */
int sampo_feat_cursor__string(struct feat_cursor *c, char **ret, const char *what);
/* a perf string list (u32 nr, nr strings) */
int sampo_feat_cursor__strlist(struct feat_cursor *c, struct sampo_feat_strlist *list,
			       const char *what);
/* @count elements of at least @min_elem bytes fit in what is left (checked before allocating) */
int sampo_feat_cursor__check_count(struct feat_cursor *c, size_t at, uint64_t count,
				   size_t min_elem, const char *what);

/* bytes perf writes for a string / string list (padding included) */
size_t sampo_feat__string_size(const char *s);
size_t sampo_feat__strlist_size(const struct sampo_feat_strlist *list);

/* the parsers of lib/feature-topology.c */
int sampo_features__parse_pmu_mappings(struct feat_cursor *c, struct sampo_features *f);
int sampo_features__parse_cpu_topology(struct feat_cursor *c, struct sampo_features *f);
int sampo_features__parse_numa_topology(struct feat_cursor *c, struct sampo_features *f);
int sampo_features__parse_cache(struct feat_cursor *c, struct sampo_features *f);
int sampo_features__parse_mem_topology(struct feat_cursor *c, struct sampo_features *f);
int sampo_features__parse_cpu_pmu_caps(struct feat_cursor *c, struct sampo_features *f);
int sampo_features__parse_hybrid_topology(struct feat_cursor *c, struct sampo_features *f);
int sampo_features__parse_pmu_caps(struct feat_cursor *c, struct sampo_features *f);

/* lib/feature-simpleperf.c: the parser of simpleperf feature @feat, or NULL */
feat_parse_fn sampo_features__simpleperf_parser(int feat);

#endif /* SAMPO_INTERNAL_FEATURE_H */
