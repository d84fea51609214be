/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outbuf.h - fast buffered output for the CLI's hot paths (dump, script)
 *
 * stdio's printf parses its format string on every call; dumping millions
 * of records spends most of its time there. An outbuf collects output in a
 * 64 KiB buffer and formats numbers by hand:
 *
 *	struct outbuf ob;
 *
 *	ob_init_file(&ob, stdout);
 *	ob_puts(&ob, "0x");
 *	ob_hex(&ob, rec_offset, 0, false);
 *	ob_puts(&ob, " [0x");
 *	ob_hex(&ob, size, 0, false);
 *	ob_puts(&ob, "]: ");
 *	ob_dec_u64(&ob, time_ns);
 *	ob_putc(&ob, '\n');
 *	...
 *	err = ob_flush(&ob);		// 0, or the first write error
 *	if (err)
 *		return cli_err(err, "cannot write output");	// silent for -EPIPE
 *
 * Rules:
 * - Output goes to a FILE * (ob_init_file: written with fwrite, so it stays
 *   ordered with earlier stdio output; the FILE is flushed first), to a raw
 *   fd (ob_init_fd) or to a function that consumes it (ob_init_sink: a
 *   non-zero return is the sticky error). Do not mix stdio writes to the same stream with an
 *   unflushed outbuf: call ob_flush() first.
 * - Errors are sticky: after the first failed write, every call is a no-op
 *   and ob_flush()/ob_error() return the error (negative errno, -EPIPE when
 *   the reader closed the pipe). Check once, at the end.
 * - struct outbuf is about 64 KiB: embed it in a context struct or make it
 *   static rather than nesting it deep in recursion. It owns no heap memory,
 *   so there is no destructor; ob_flush() before dropping it.
 */
#ifndef SAMPO_OUTBUF_H
#define SAMPO_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define OB_SIZE (64 * 1024)

struct outbuf {
	FILE *fp;   /* destination stream, or NULL to write to fd */
	int fd;	    /* destination fd when fp is NULL */
	int (*sink)(void *arg, const char *data, size_t len); /* or this, with sink_arg */
	void *sink_arg;
	int err;    /* first write error (negative errno), sticky */
	size_t len; /* bytes used in buf */
	unsigned long nr_flushes; /* how many times buf was emptied (a cache of output checks it) */
	char buf[OB_SIZE];
};

void ob_init_file(struct outbuf *ob, FILE *fp);
void ob_init_fd(struct outbuf *ob, int fd);
void ob_init_sink(struct outbuf *ob, int (*sink)(void *arg, const char *data, size_t len),
		  void *arg);

/* ob_flush() - write out the buffer. Return: 0 or the sticky error */
int ob_flush(struct outbuf *ob);

/* ob_error() - the sticky error (negative errno), or 0 */
static inline int ob_error(const struct outbuf *ob)
{
	return ob->err;
}

/* ob_write_slow() - ob_write() when @data does not fit; internal */
void ob_write_slow(struct outbuf *ob, const void *data, size_t len);

/* ob_write() - append @len bytes; large writes bypass the buffer */
static inline void ob_write(struct outbuf *ob, const void *data, size_t len)
{
	if (len < OB_SIZE && len <= OB_SIZE - ob->len) {
		memcpy(ob->buf + ob->len, data, len);
		ob->len += len;
		return;
	}
	ob_write_slow(ob, data, len);
}

static inline void ob_putc(struct outbuf *ob, char c)
{
	if (ob->len == OB_SIZE)
		(void)ob_flush(ob);
	ob->buf[ob->len++] = c;
}

static inline void ob_puts(struct outbuf *ob, const char *s)
{
	ob_write(ob, s, strlen(s));
}

/* ob_pad() - append @n copies of @c (indentation, column alignment) */
void ob_pad(struct outbuf *ob, char c, size_t n);

/* ob_printf() - formatted output for cold paths; any length */
void ob_printf(struct outbuf *ob, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * ob_hex() - lowercase hex without "0x", like printf("%*lx") or "%0*lx"
 * @width: minimum number of characters (0: no padding)
 * @zero_pad: pad with '0' instead of ' '
 */
void ob_hex(struct outbuf *ob, uint64_t v, int width, bool zero_pad);

/* ob_dec_u64() / ob_dec_s64() - decimal, like "%" PRIu64 / "%" PRId64 */
void ob_dec_u64(struct outbuf *ob, uint64_t v);
void ob_dec_s64(struct outbuf *ob, int64_t v);

/*
 * ob_dec_u64_width() / ob_dec_s64_width() - decimal right-aligned in @width
 * columns, like "%*" PRIu64 / "%0*" PRId64 (with @zero_pad the '-' comes first)
 */
void ob_dec_u64_width(struct outbuf *ob, uint64_t v, int width, bool zero_pad);
void ob_dec_s64_width(struct outbuf *ob, int64_t v, int width, bool zero_pad);

/* OB_LIT() - append a string literal (the "" "" makes anything else a compile error) */
#define OB_LIT(ob, s) ob_write((ob), "" s "", sizeof(s) - 1)

/* ob_dec_s64_left() - decimal, then blanks up to @width columns, like "%-*" PRId64 */
void ob_dec_s64_left(struct outbuf *ob, int64_t v, int width);

/* ob_hex_alt() - like printf("%#" PRIx64): "0" for zero, "0x..." otherwise */
static inline void ob_hex_alt(struct outbuf *ob, uint64_t v)
{
	if (!v) {
		ob_putc(ob, '0');
		return;
	}
	ob_write(ob, "0x", 2);
	ob_hex(ob, v, 0, false);
}

#endif /* SAMPO_OUTBUF_H */
