/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/trace-data.h - what the tests see of lib/trace-data.c beyond its
 * public header.
 */
#ifndef SAMPO_INTERNAL_TRACE_DATA_H
#define SAMPO_INTERNAL_TRACE_DATA_H

/*
 * sampo_trace_data__nr_spawned() - how many times the tracing data was
 * checked in this program started again (a process with several threads)
 * rather than in a fork (one thread)
 */
unsigned long sampo_trace_data__nr_spawned(void);

#endif
