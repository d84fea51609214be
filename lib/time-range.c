// SPDX-License-Identifier: LGPL-2.1
/*
 * time-range.c - perf's --time windows (time-range.h), parsed as perf 6.1's
 * util/time-utils.c parses them, with the same results (a share's window
 * ends one nanosecond before the next slice starts, but at the last sample),
 * and the same verdict on each sample.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/time-range.h>

#include "internal/util.h"

#define NSEC_PER_SEC 1000000000ULL

static int invalid(char *buf, size_t sz, const char *fmt, ...) SAMPO_PRINTF(3, 4);
static int invalid(char *buf, size_t sz, const char *fmt, ...)
{
	va_list ap;

	if (buf && sz) {
		va_start(ap, fmt);
		vsnprintf(buf, sz, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* perf's parse_nsec_time(): "SEC[.FRACTION]", at most 9 decimals */
static bool parse_seconds(const char *s, uint64_t *ret)
{
	char frac[10] = "000000000", *end;
	unsigned long long sec, nsec = 0;
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return false; /* (perf's strtoul() takes "-1" too) */
	errno = 0;
	sec = strtoull(s, &end, 10);
	if (errno || (*end && *end != '.') || sec > UINT64_MAX / NSEC_PER_SEC)
		return false;
	if (*end == '.') {
		n = strlen(++end);
		if (n > 9 || strspn(end, "0123456789") != n)
			return false;
		memcpy(frac, end, n);
		nsec = strtoull(frac, NULL, 10);
	}
	*ret = sec * NSEC_PER_SEC + nsec;
	return *ret >= sec * NSEC_PER_SEC;
}

/* perf's perf_time__parse_str(): "START,STOP", either part empty (open) */
static bool parse_window(const char *s, size_t len, struct sampo_time_range *r)
{
	char *copy = strndup(s, len), *comma;
	bool ok;

	if (!copy)
		return false;
	*r = (struct sampo_time_range){ 0 };
	comma = strchr(copy, ',');
	if (comma)
		*comma++ = 0;
	ok = (!*copy || parse_seconds(copy, &r->start)) &&
	     (!comma || !*comma || parse_seconds(comma, &r->end)) && !(r->end && r->end < r->start);
	free(copy);
	return ok;
}

/* "P%": P / 100 */
static bool parse_share(const char *s, size_t len, double *ret)
{
	char buf[64], *end;

	if (!len || s[len - 1] != '%' || len > sizeof(buf))
		return false;
	memcpy(buf, s, len - 1);
	buf[len - 1] = 0;
	*ret = strtod(buf, &end) / 100.0;
	return end != buf && !*end;
}

/*
 * perf's set_percent_time(): the window from share @from to share @to of
 * [@first, @last], rounded to the nanosecond, its end one before the next
 * slice's start unless it is the last sample
 */
/* round(@share * @total), at most @total (a double of 2^64 does not fit) */
static uint64_t share_of(double share, uint64_t total)
{
	double v = share * (double)total + 0.5;

	if (v >= 18446744073709551615.0)
		return total;
	return MIN((uint64_t)v, total);
}

static bool share_window(double from, double to, uint64_t first, uint64_t last,
			 struct sampo_time_range *r)
{
	uint64_t total = last - first;

	if (!(from >= 0.0 && from <= 1.0 && to >= 0.0 && to <= 1.0) || last < first)
		return false;
	r->start = first + share_of(from, total);
	r->end = first + share_of(to, total);
	if (r->end > r->start && r->end != last)
		r->end--;
	return true;
}

/* one comma-separated piece of shares: "10%/2", "0%-10%" or (alone) "50%" */
static bool parse_share_piece(const char *s, size_t len, int kind, uint64_t first, uint64_t last,
			      struct sampo_time_range *r)
{
	const char *sep = memchr(s, kind, len);
	double a, b;

	if (kind == '/') {
		char buf[32], *end;
		long i;

		if (!sep || !parse_share(s, (size_t)(sep - s), &a) || a <= 0.0)
			return false;
		len -= (size_t)(sep - s) + 1;
		if (len >= sizeof(buf))
			return false;
		memcpy(buf, sep + 1, len);
		buf[len] = 0;
		i = strtol(buf, &end, 10);
		if (end == buf || *end)
			return false;
		return share_window(a * (double)(i - 1), a * (double)i, first, last, r);
	}
	if (!sep || !parse_share(s, (size_t)(sep - s), &a) ||
	    !parse_share(sep + 1, len - (size_t)(sep - s) - 1, &b))
		return false;
	return share_window(a, b, first, last, r);
}

int sampo_time_ranges__parse(const char *str, uint64_t first, uint64_t last,
			     struct sampo_time_range **ret, size_t *ret_nr, char *errbuf,
			     size_t errbuf_sz)
{
	static const char syntax[] = "START,STOP in seconds (either may be empty; several "
				     "separated by spaces), or shares: 10%/2, 0%-10%, 50%";
	struct sampo_time_range *r;
	size_t nr = 1, n = 0;
	const char *p;

	*ret = NULL;
	*ret_nr = 0;
	for (p = str; *p; p++)
		nr += *p == ',';
	r = calloc(nr, sizeof(*r));
	if (!r)
		return -ENOMEM;
	if (strchr(str, '%')) {
		int kind = strchr(str, '/') ? '/' : strchr(str, '-') ? '-' : '%';

		if (!first && !last) {
			free(r);
			return invalid(
				errbuf, errbuf_sz,
				"invalid time '%s': the file has no times of its first and last "
				"samples (perf record writes them since perf 4.16): give times, "
				"not shares",
				str);
		}
		if (kind == '%') {
			/* "50%": the first slice of that share, '%' last */
			double a;

			if (!parse_share(str, strlen(str), &a) || a <= 0.0 ||
			    !share_window(0.0, a, first, last, &r[0]))
				goto bad;
			n = 1;
		} else {
			/* perf's percent_comma_split(): a comma at the end ends the list */
			for (p = str;;) {
				size_t len = strcspn(p, ",");

				if (n == nr || !parse_share_piece(p, len, kind, first, last, &r[n]))
					goto bad;
				n++;
				p += len;
				if (!*p || !p[1])
					break;
				p++;
			}
		}
	} else {
		/*
		 * perf's perf_time__parse_strs(): a window per comma, separated
		 * by spaces
		 */
		if (nr == 1)
			goto bad;
		for (p = str; n + 2 < nr; n++) {
			const char *comma = strchr(p, ','), *end;

			end = comma + 1 + strspn(comma + 1, " \t\n\v\f\r");
			end += strcspn(end, " \t\n\v\f\r,");
			if (*end == ',' || !parse_window(p, (size_t)(end - p), &r[n]))
				goto bad;
			p = *end ? end + 1 : end;
		}
		if (!parse_window(p, strlen(p), &r[n++]))
			goto bad;
		for (size_t i = 0; i + 1 < n; i++)
			if (r[i].end >= r[i + 1].start)
				goto bad;
	}
	*ret = r;
	*ret_nr = n;
	return 0;
bad:
	free(r);
	return invalid(errbuf, errbuf_sz, "invalid time '%s' (%s)", str, syntax);
}

bool sampo_time_ranges__skip(const struct sampo_time_range *r, size_t nr, uint64_t time)
{
	if (!r || !nr || !time)
		return false;
	if (nr == 1)
		return (r[0].start && time < r[0].start) || (r[0].end && time > r[0].end);
	for (size_t i = 0; i < nr; i++)
		if (time >= r[i].start && (time <= r[i].end || !r[i].end))
			return false;
	return true;
}
