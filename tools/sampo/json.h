/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - JSON strings on an outbuf, for the JSON outputs of the CLI
 * (`report --format json`, `script --format json`, `data convert --to-json`)
 *
 * Names in a perf.data file (comms, symbols, DSO paths, the recording
 * command line) are bytes, not text: a comm can hold quotes, backslashes,
 * control characters or bytes that are not UTF-8. json_string() turns any
 * byte string into a valid JSON string (RFC 8259):
 *
 *	"  \  and the control characters U+0000..U+001F are escaped: \" \\ \b \f
 *	   \n \r \t, the others as \u00XX (lowercase hex, as perf writes them);
 *	valid UTF-8 sequences (shortest form, no surrogates, up to U+10FFFF) are
 *	   copied as they are;
 *	every other byte (a stray continuation byte, a cut or overlong
 *	   sequence, 0xC0, 0xC1, 0xF5..0xFF) becomes U+FFFD, written \ufffd.
 *
 * So what a JSON parser gives back is the name itself whenever the name is
 * UTF-8, and a visible replacement character where it is not.
 *
 * Output is streamed through the outbuf (no string is built in memory), with
 * its sticky error: check ob_flush() once at the end.
 */
#ifndef SAMPO_JSON_H
#define SAMPO_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"

/* json_string() - @s (NUL-terminated; NULL is written as "") as a quoted JSON string */
void json_string(struct outbuf *ob, const char *s);

/* json_string_n() - the first @len bytes of @s as a quoted JSON string (NULs as \u0000) */
void json_string_n(struct outbuf *ob, const char *s, size_t len);

/* json_key() - "@key": with the quotes and the colon, and a space after the colon */
void json_key(struct outbuf *ob, const char *key);

/* json_hex() - @v as the JSON string "0x<lowercase hex>" (addresses: JSON numbers lose bits) */
void json_hex(struct outbuf *ob, uint64_t v);

#endif /* SAMPO_JSON_H */
