/* SPDX-License-Identifier: GPL-2.0 */
/* data-src.h - PERF_SAMPLE_DATA_SRC in words, as perf 6.1's script prints it (data-src.c) */
#ifndef SAMPO_CLI_DATA_SRC_H
#define SAMPO_CLI_DATA_SRC_H

#include <stddef.h>
#include <stdint.h>

/*
 * data_src__scnprintf() - "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A"
 * for the data_src word @v, in @out (@sz bytes, NUL-terminated, cut to fit).
 * Return: the length written.
 */
size_t data_src__scnprintf(char *out, size_t sz, uint64_t v);

#endif
