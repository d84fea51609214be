/* SPDX-License-Identifier: LGPL-2.1 */
/* demangle.h - perf's way of printing demangled C++ names (lib/demangle.c) */
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

#endif
