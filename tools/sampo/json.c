/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.c - JSON string escaping on an outbuf (see json.h for the rules)
 *
 * The writer scans runs of bytes that need no escaping (printable ASCII but
 * '"' and '\\', and whole valid UTF-8 sequences) and copies each run with
 * one ob_write(); everything else is written escaped. UTF-8 is checked as
 * RFC 3629 defines it (table 3-7 of the Unicode standard): lead byte, then
 * the allowed range of the first continuation byte, then 0x80..0xBF.
 */
#include <string.h>

#include "json.h"

static const char hexdigits[] = "0123456789abcdef";

/*
 * The length of the valid UTF-8 sequence at @s (at most @len bytes), or 0
 * when the byte at @s does not start one.
 */
static size_t utf8_seq_len(const unsigned char *s, size_t len)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0; /* overlong below */
		else if (c == 0xed)
			hi = 0x9f; /* surrogates above */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90; /* overlong below */
		else if (c == 0xf4)
			hi = 0x8f; /* past U+10FFFF above */
	} else {
		return 0;
	}
	if (len < n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

static void json_escape(struct outbuf *ob, unsigned char c)
{
	char buf[6] = { '\\', 'u', '0', '0', hexdigits[c >> 4], hexdigits[c & 0xf] };

	switch (c) {
	case '"':
		ob_write(ob, "\\\"", 2);
		return;
	case '\\':
		ob_write(ob, "\\\\", 2);
		return;
	case '\b':
		ob_write(ob, "\\b", 2);
		return;
	case '\f':
		ob_write(ob, "\\f", 2);
		return;
	case '\n':
		ob_write(ob, "\\n", 2);
		return;
	case '\r':
		ob_write(ob, "\\r", 2);
		return;
	case '\t':
		ob_write(ob, "\\t", 2);
		return;
	default:
		ob_write(ob, buf, sizeof(buf));
	}
}

void json_string_n(struct outbuf *ob, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0; /* s[run..i) is copied as it is */

	ob_putc(ob, '"');
	while (i < len) {
		unsigned char c = s[i];
		size_t n;

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			i++;
			continue;
		}
		if (c >= 0x80) {
			n = utf8_seq_len(s + i, len - i);
			if (n) {
				i += n;
				continue;
			}
		}
		ob_write(ob, s + run, i - run);
		if (c >= 0x80)
			ob_write(ob, "\\ufffd", 6);
		else
			json_escape(ob, c);
		run = ++i;
	}
	ob_write(ob, s + run, i - run);
	ob_putc(ob, '"');
}

void json_string(struct outbuf *ob, const char *s)
{
	json_string_n(ob, s ? s : "", s ? strlen(s) : 0);
}

void json_key(struct outbuf *ob, const char *key)
{
	json_string(ob, key);
	ob_write(ob, ": ", 2);
}

void json_hex(struct outbuf *ob, uint64_t v)
{
	ob_write(ob, "\"0x", 3);
	ob_hex(ob, v, 0, false);
	ob_putc(ob, '"');
}
