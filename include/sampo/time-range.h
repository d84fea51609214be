/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * time-range.h - the time windows of perf's --time (report, script): which
 * samples to keep, by their time.
 *
 *	START,STOP		seconds (up to 9 decimals); either may be empty
 *	A,B C,D			several windows, separated by spaces, in order
 *	10%/2			the second tenth of the recording
 *	10%/1,10%/3		several slices
 *	0%-10%,30%-40%		from one share to another, several times
 *	50%			the first half
 *
 * Shares are of the time between the first and the last sample, which
 * perf record writes in the SAMPLE_TIME feature. The syntax and the rounding
 * are perf 6.1's (util/time-utils.c).
 */
#ifndef SAMPO_TIME_RANGE_H
#define SAMPO_TIME_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

/* one window, in nanoseconds; 0: open at that end */
struct sampo_time_range {
	uint64_t start, end;
};

/**
 * sampo_time_ranges__parse() - the windows @str names
 * @first, @last: the times of the first and last sample (for shares; 0, 0:
 *	unknown, and then a share is an error)
 * @ret: on success, the windows, malloc'ed (the caller frees them)
 * @ret_nr: their number
 * @errbuf: on -EINVAL, what is wrong with @str (may be NULL)
 *
 * Return: 0, -EINVAL, -ENOMEM.
 */
SAMPO_API int sampo_time_ranges__parse(const char *str, uint64_t first, uint64_t last,
				       struct sampo_time_range **ret, size_t *ret_nr, char *errbuf,
				       size_t errbuf_sz);

/**
 * sampo_time_ranges__skip() - whether a sample of time @time falls outside
 * every window (perf's perf_time__ranges_skip_sample()); a sample without a
 * time (0) is kept
 */
SAMPO_API bool sampo_time_ranges__skip(const struct sampo_time_range *ranges, size_t nr,
				       uint64_t time);

#endif /* SAMPO_TIME_RANGE_H */
