// SPDX-License-Identifier: LGPL-2.1
/*
 * demangle-rust.c - Rust's legacy mangling by hand: _ZN{len}{ident}...
 * 17h{16 hex}E becomes "a::b::c", the hash component dropped and the $..$
 * escapes ($LT$, $u7e$, ...) and ".." (for "::") undone, as rustfilt prints
 * it and perf shows it. The output is never longer than twice the input:
 * each length prefix turns into at most "::". A name not of that exact
 * shape is left to the C++ demangler.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal/demangle.h"
#include "internal/util.h"

static bool is_hex_str(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return false;
	}
	return true;
}

static const struct {
	const char *esc, *repl;
} rust_escapes[] = {
	{ "$SP$", "@" },  { "$BP$", "*" },  { "$RF$", "&" },   { "$LT$", "<" },	 { "$GT$", ">" },
	{ "$LP$", "(" },  { "$RP$", ")" },  { "$C$", "," },    { "$u7e$", "~" }, { "$u20$", " " },
	{ "$u27$", "'" }, { "$u5b$", "[" }, { "$u5d$", "]" },  { "$u7b$", "{" }, { "$u7d$", "}" },
	{ "$u3b$", ";" }, { "$u2b$", "+" }, { "$u22$", "\"" },
};

char *sampo_demangle__rust_legacy(const char *name)
{
	size_t len = strlen(name), out_len = 0, comps = 0;
	const char *p = name + 3, *end;
	char *out;

	if (len < 3 + 19 + 1 || strncmp(name, "_ZN", 3) || name[len - 1] != 'E')
		return NULL;
	end = name + len - 1;
	if (end - 19 < p || memcmp(end - 19, "17h", 3) || !is_hex_str(end - 16, 16))
		return NULL;
	end -= 19; /* drop the hash component */

	/* each component adds "::" where its length digits were: at most twice the input */
	out = malloc(2 * len + 1);
	if (!out)
		return NULL;
	while (p < end) {
		size_t n = 0;

		if (*p < '0' || *p > '9')
			goto fail;
		while (p < end && *p >= '0' && *p <= '9') {
			n = n * 10 + (size_t)(*p++ - '0');
			if (n > len)
				goto fail;
		}
		if (n == 0 || n > (size_t)(end - p))
			goto fail;
		if (comps++) {
			memcpy(out + out_len, "::", 2);
			out_len += 2;
		}
		const char *q = p, *qe = p + n;

		if (qe - q >= 2 && q[0] == '_' && q[1] == '$')
			q++;
		while (q < qe) {
			size_t k;

			if (*q == '.' && q + 1 < qe && q[1] == '.') {
				memcpy(out + out_len, "::", 2);
				out_len += 2;
				q += 2;
				continue;
			}
			if (*q == '$') {
				for (k = 0; k < ARRAY_SIZE(rust_escapes); k++) {
					size_t el = strlen(rust_escapes[k].esc);

					if ((size_t)(qe - q) >= el &&
					    !memcmp(q, rust_escapes[k].esc, el)) {
						out[out_len++] = rust_escapes[k].repl[0];
						q += el;
						break;
					}
				}
				if (k < ARRAY_SIZE(rust_escapes))
					continue;
			}
			out[out_len++] = *q++;
		}
		p += n;
	}
	if (comps == 0)
		goto fail;
	out[out_len] = '\0';
	return out;
fail:
	free(out);
	return NULL;
}
