/* SPDX-License-Identifier: LGPL-2.1 */
/* demangle.h - names as perf prints them: C++ (lib/demangle.c), Rust (lib/demangle-rust.c) */
#ifndef SAMPO_INTERNAL_DEMANGLE_H
#define SAMPO_INTERNAL_DEMANGLE_H

/*
 * sampo_demangle__strip_params() - turn a full demangled name into what perf
 * 6.1 prints without -v (libiberty with DMGL_NO_OPTS, as `c++filt -p`):
 * no parameter list, no cv or ref qualifiers, no return type of a template
 * function, no "[clone .xxx]" suffix. "int tf<int>(int)" becomes "tf<int>",
 * "S::operator()(int) const" becomes "S::operator()". Works in place.
 */
void sampo_demangle__strip_params(char *name);

/*
 * sampo_demangle__rust_legacy() - a Rust legacy-mangled name
 * (_ZN...17h<16 hex>E) as "a::b::c", without the hash (lib/demangle-rust.c).
 * Return: a malloc'd name, or NULL when @name is not of that shape (or out
 * of memory).
 */
char *sampo_demangle__rust_legacy(const char *name);

/*
 * sampo_demangle__full() - @name demangled with its parameters (C++ through
 * libstdc++'s __cxa_demangle(), Rust legacy by hand), as simpleperf and
 * c++filt print it (lib/symbol-elf.c).
 * Return: a malloc'd name, or NULL to keep @name as it is.
 */
char *sampo_demangle__full(const char *name);

#endif
