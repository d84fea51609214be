// SPDX-License-Identifier: GPL-2.0
/* progress.c - see progress.h */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

#define NSEC_PER_SEC 1000000000ULL
#define BAR_WIDTH 40
#define MIN(a, b) ((a) < (b) ? (a) : (b))

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

void progress_init(struct progress *p, const char *title, uint64_t total)
{
	const char *delay = getenv("SAMPO_PROGRESS_DELAY_MS"); /* tests: show it sooner */

	p->delay_ns = delay ? strtoull(delay, NULL, 10) * 1000000ULL : NSEC_PER_SEC;
	p->title = title;
	p->total = total;
	p->calls = 0;
	p->shown = false;
	p->enabled = isatty(STDERR_FILENO) && total;
	p->start_ns = p->enabled ? now_ns() : 0;
	p->last_ns = p->start_ns;
}

void progress_update(struct progress *p, uint64_t done)
{
	uint64_t t;
	unsigned int filled;

	/* reading the clock on every record would cost more than the bar */
	if (!p->enabled || (++p->calls & 1023))
		return;
	t = now_ns();
	if (t - p->start_ns < p->delay_ns || t - p->last_ns < MIN(p->delay_ns, NSEC_PER_SEC / 10))
		return;
	p->last_ns = t;
	if (done > p->total)
		done = p->total;
	filled = (unsigned int)(done * BAR_WIDTH / p->total);
	fprintf(stderr, "\r%s [", p->title);
	for (unsigned int i = 0; i < BAR_WIDTH; i++)
		fputc(i < filled ? '#' : ' ', stderr);
	fprintf(stderr, "] %3u%%", (unsigned int)(done * 100 / p->total));
	fflush(stderr);
	p->shown = true;
}

void progress_done(struct progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%*s\r", BAR_WIDTH + 40, "");
	p->shown = false;
	p->enabled = false;
}
