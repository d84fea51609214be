/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outbuf.c - buffered output with hand-written number formatting (see outbuf.h)
 *
 * Invariant: ob->len <= OB_SIZE. Numbers are formatted right to left into a
 * small stack buffer and copied once; nothing on the hot path parses a format
 * string. After the first write error (ob->err != 0) all output is dropped,
 * so callers check the error once at the end.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "outbuf.h"

void ob_init_file(struct outbuf *ob, FILE *fp)
{
	ob->fp = fp;
	ob->fd = -1;
	ob->sink = NULL;
	ob->err = 0;
	ob->len = 0;
}

void ob_init_fd(struct outbuf *ob, int fd)
{
	ob->fp = NULL;
	ob->fd = fd;
	ob->sink = NULL;
	ob->err = 0;
	ob->len = 0;
}

void ob_init_sink(struct outbuf *ob, int (*sink)(void *arg, const char *data, size_t len),
		  void *arg)
{
	ob_init_fd(ob, -1);
	ob->sink = sink;
	ob->sink_arg = arg;
}

static void ob_sink(struct outbuf *ob, const char *p, size_t n)
{
	if (ob->err || n == 0)
		return;
	if (ob->sink) {
		ob->err = ob->sink(ob->sink_arg, p, n);
		return;
	}
	if (ob->fp) {
		errno = 0;
		if (fwrite(p, 1, n, ob->fp) != n)
			ob->err = errno ? -errno : -EIO;
		return;
	}
	while (n > 0) {
		ssize_t w = write(ob->fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			ob->err = -errno;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

int ob_flush(struct outbuf *ob)
{
	ob_sink(ob, ob->buf, ob->len);
	ob->len = 0;
	ob->nr_flushes++;
	if (ob->fp && !ob->err && fflush(ob->fp))
		ob->err = errno ? -errno : -EIO;
	return ob->err;
}

void ob_write_slow(struct outbuf *ob, const void *data, size_t len)
{
	(void)ob_flush(ob);
	if (len >= OB_SIZE) {
		ob_sink(ob, data, len);
		return;
	}
	memcpy(ob->buf, data, len);
	ob->len = len;
}

void ob_pad(struct outbuf *ob, char c, size_t n)
{
	while (n > 0) {
		size_t room = OB_SIZE - ob->len;
		size_t k = n < room ? n : room;

		if (k == 0) {
			(void)ob_flush(ob);
			continue;
		}
		memset(ob->buf + ob->len, c, k);
		ob->len += k;
		n -= k;
	}
}

void ob_printf(struct outbuf *ob, const char *fmt, ...)
{
	size_t room = OB_SIZE - ob->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(ob->buf + ob->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < room) {
		ob->len += (size_t)n;
		return;
	}

	/* did not fit: flush and retry, or format on the heap if it never fits */
	(void)ob_flush(ob);
	if ((size_t)n < OB_SIZE) {
		va_start(ap, fmt);
		vsnprintf(ob->buf, OB_SIZE, fmt, ap);
		va_end(ap);
		ob->len = (size_t)n;
		return;
	}

	char *tmp = malloc((size_t)n + 1);

	if (!tmp) {
		if (!ob->err)
			ob->err = -ENOMEM;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(tmp, (size_t)n + 1, fmt, ap);
	va_end(ap);
	ob_sink(ob, tmp, (size_t)n);
	free(tmp);
}

/*
 * Emit @ndigits digits right-aligned in @width columns.
 * @sign is '-' or 0; with @zero_pad it goes before the zeros, as printf does.
 */
static void ob_emit_num(struct outbuf *ob, const char *digits, size_t ndigits, char sign, int width,
			bool zero_pad)
{
	size_t len = ndigits + (sign ? 1 : 0);
	size_t pad = width > 0 && (size_t)width > len ? (size_t)width - len : 0;

	if (!zero_pad && pad)
		ob_pad(ob, ' ', pad);
	if (sign)
		ob_putc(ob, sign);
	if (zero_pad && pad)
		ob_pad(ob, '0', pad);
	ob_write(ob, digits, ndigits);
}

static const char hex_digits[] = "0123456789abcdef";

/* Make sure @n bytes fit in the buffer (n <= OB_SIZE) */
static inline void ob_reserve(struct outbuf *ob, size_t n)
{
	if (OB_SIZE - ob->len < n)
		(void)ob_flush(ob);
}

void ob_hex(struct outbuf *ob, uint64_t v, int width, bool zero_pad)
{
	char tmp[16];
	char *p = tmp + sizeof(tmp);

	if (width <= 1) {
		/* the common case: count the digits, write them in place */
		int ndigits = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;
		char *out;

		ob_reserve(ob, 16);
		out = ob->buf + ob->len + ndigits;
		ob->len += (size_t)ndigits;
		do {
			*--out = hex_digits[v & 0xf];
			v >>= 4;
		} while (v);
		return;
	}
	do {
		*--p = hex_digits[v & 0xf];
		v >>= 4;
	} while (v);
	ob_emit_num(ob, p, (size_t)(tmp + sizeof(tmp) - p), 0, width, zero_pad);
}

/* Two digits at a time: halves the number of divisions */
static const char dec_pairs[201] = "00010203040506070809"
				   "10111213141516171819"
				   "20212223242526272829"
				   "30313233343536373839"
				   "40414243444546474849"
				   "50515253545556575859"
				   "60616263646566676869"
				   "70717273747576777879"
				   "80818283848586878889"
				   "90919293949596979899";

static size_t fmt_u64(char tmp[20], uint64_t v)
{
	char *p = tmp + 20;

	while (v >= 100) {
		unsigned int i = (unsigned int)(v % 100) * 2;

		v /= 100;
		*--p = dec_pairs[i + 1];
		*--p = dec_pairs[i];
	}
	if (v >= 10) {
		*--p = dec_pairs[v * 2 + 1];
		*--p = dec_pairs[v * 2];
	} else {
		*--p = (char)('0' + v);
	}
	return (size_t)(tmp + 20 - p);
}

void ob_dec_u64(struct outbuf *ob, uint64_t v)
{
	char tmp[20];
	size_t n = fmt_u64(tmp, v);

	ob_write(ob, tmp + 20 - n, n);
}

void ob_dec_s64(struct outbuf *ob, int64_t v)
{
	if (v < 0) {
		ob_putc(ob, '-');
		ob_dec_u64(ob, 0 - (uint64_t)v);
		return;
	}
	ob_dec_u64(ob, (uint64_t)v);
}

void ob_dec_u64_width(struct outbuf *ob, uint64_t v, int width, bool zero_pad)
{
	char tmp[20];
	size_t n = fmt_u64(tmp, v);

	ob_emit_num(ob, tmp + 20 - n, n, 0, width, zero_pad);
}

void ob_dec_s64_width(struct outbuf *ob, int64_t v, int width, bool zero_pad)
{
	uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	char tmp[20];
	size_t n = fmt_u64(tmp, mag);

	ob_emit_num(ob, tmp + 20 - n, n, v < 0 ? '-' : 0, width, zero_pad);
}

void ob_dec_s64_left(struct outbuf *ob, int64_t v, int width)
{
	uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	char tmp[20];
	size_t digits = fmt_u64(tmp, mag);
	size_t len = digits + (v < 0 ? 1 : 0);

	if (v < 0)
		ob_putc(ob, '-');
	ob_write(ob, tmp + 20 - digits, digits);
	if (width > 0 && (size_t)width > len)
		ob_pad(ob, ' ', (size_t)width - len);
}
