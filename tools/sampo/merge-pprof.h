/* SPDX-License-Identifier: GPL-2.0 */
/* merge-pprof.h - sampo merge's pprof output (merge-pprof.c) */
#ifndef SAMPO_CLI_MERGE_PPROF_H
#define SAMPO_CLI_MERGE_PPROF_H

struct sampo_profile;

/*
 * merge_write_pprof() - write @profile's stacks (read with .stacks) as a
 * gzipped pprof profile to @path. Return: 0 or a negative errno.
 */
int merge_write_pprof(const struct sampo_profile *profile, const char *path);

#endif /* SAMPO_CLI_MERGE_PPROF_H */
