// SPDX-License-Identifier: LGPL-2.1
/*
 * demangle.c - C++ names as perf prints them.
 *
 * libstdc++'s __cxa_demangle() always prints the parameter list; perf 6.1
 * asks libiberty for none (DMGL_NO_OPTS unless -v), which also drops the
 * qualifiers after the list, the return type of template functions and the
 * clone suffixes. This file cuts a full name down to that form, so the
 * report shows the same names as perf (checked against `c++filt -p` on every
 * symbol of libstdc++, see tests/unit/test-symbol.c).
 */
#include <stdbool.h>
#include <string.h>

#include "internal/demangle.h"

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

/* special names libiberty prints whole, parameters included */
static bool special_name(const char *name)
{
	static const char *const prefixes[] = {
		"typeinfo for ", "typeinfo name for ", "vtable for ", "VTT for ",
		"construction vtable for ", "guard variable for ", "virtual thunk to ",
		"non-virtual thunk to ", "covariant return thunk to ", "transaction clone for ",
		"reference temporary ", "TLS init function for ", "TLS wrapper function for ",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

void sampo_demangle__strip_params(char *name)
{
	static const char *const quals[] = { " const", " volatile", " &&", " &", " noexcept" };
	size_t len = strlen(name);
	bool again = true;

	if (special_name(name))
		return;

	/* trailing " [clone .isra.0]" groups, then qualifiers */
	while (again) {
		again = false;
		if (len && name[len - 1] == ']') {
			char *open = NULL;

			for (size_t i = len; i-- > 0;) {
				if (name[i] == '[') {
					open = name + i;
					break;
				}
			}
			if (open && open > name && open[-1] == ' ' && !strncmp(open, "[clone ", 7)) {
				len = (size_t)(open - name) - 1;
				again = true;
				continue;
			}
		}
		for (size_t q = 0; q < sizeof(quals) / sizeof(quals[0]); q++) {
			if (ends_with(name, len, quals[q])) {
				len -= strlen(quals[q]);
				again = true;
				break;
			}
		}
	}
	/* the parameter list: the parenthesized group at the end */
	if (len && name[len - 1] == ')') {
		int depth = 0;

		for (size_t i = len; i-- > 0;) {
			if (name[i] == ')')
				depth++;
			else if (name[i] == '(' && --depth == 0) {
				len = i;
				break;
			}
		}
	}
	name[len] = 0;
	/* a template function's return type: what precedes the last top-level space */
	if (len && name[len - 1] == '>') {
		int depth = 0;
		size_t cut = 0;

		for (size_t i = 0; i < len; i++) {
			char c = name[i];

			if (c == '<' || c == '(' || c == '[' || c == '{')
				depth++;
			else if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0)
				depth--;
			else if (c == ' ' && depth == 0)
				cut = i + 1;
		}
		/* "operator<< <...>" and "operator new" keep their words */
		if (cut && strncmp(name + cut, "<", 1) && !ends_with(name, cut - 1, "operator"))
			memmove(name, name + cut, len - cut + 1);
	}
}
