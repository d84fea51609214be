/* SPDX-License-Identifier: GPL-2.0 */
/*
 * format-speedscope.h - `sampo script --format speedscope`: the samples as a
 * speedscope file (https://www.speedscope.app, docs/format-speedscope.md)
 */
#ifndef SAMPO_FORMAT_SPEEDSCOPE_H
#define SAMPO_FORMAT_SPEEDSCOPE_H

struct profile_sym_opts;

/*
 * script_speedscope() - read @input and write its speedscope file to
 * standard output. Return: 0, or an error already printed (cli_err()).
 */
int script_speedscope(const char *input, const struct profile_sym_opts *sym);

#endif /* SAMPO_FORMAT_SPEEDSCOPE_H */
