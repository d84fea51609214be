/* SPDX-License-Identifier: GPL-2.0 */
/*
 * progress.h - a progress bar on stderr for long work
 *
 * Shown only when stderr is a terminal and the work has already taken more
 * than a second (SAMPO_PROGRESS_DELAY_MS sets another delay, for tests), so quick runs and redirected output never see it; cleared
 * when the work ends.
 *
 *	struct progress p;
 *	progress_init(&p, "Processing", total_bytes);
 *	while (...)
 *		progress_update(&p, done_bytes);
 *	progress_done(&p);
 */
#ifndef SAMPO_PROGRESS_H
#define SAMPO_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct progress {
	const char *title;
	uint64_t total;
	uint64_t start_ns;
	uint64_t delay_ns; /* 1 s; $SAMPO_PROGRESS_DELAY_MS for tests */
	uint64_t last_ns;
	unsigned int calls;
	bool enabled; /* stderr is a terminal */
	bool shown;   /* something is on the line: clear it at the end */
};

void progress_init(struct progress *p, const char *title, uint64_t total);
void progress_update(struct progress *p, uint64_t done);
void progress_done(struct progress *p);

#endif
