/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * dso.h - a DSO of the recorded machine: a mapped file, the kernel, a
 * kernel module or a BPF program, with perf's long and short names and the
 * build-id an MMAP2 carried.
 *
 * DSOs are made by their machine (machine.h) and reached through maps
 * (sampo_map__dso()); take a reference with sampo_dso__get() to keep one
 * after the map goes.
 */
#ifndef SAMPO_DSO_H
#define SAMPO_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_dso;

SAMPO_API struct sampo_dso *sampo_dso__get(struct sampo_dso *dso);
SAMPO_API void sampo_dso__put(struct sampo_dso *dso);

/**
 * sampo_dso__long_name() - perf's long name: the mmap'ed path,
 * "[kernel.kallsyms]" for the kernel, the module path or "[name]" for
 * modules, "/tmp/perf-<pid>.map" for anonymous code (borrowed)
 */
SAMPO_API const char *sampo_dso__long_name(const struct sampo_dso *dso);
/** sampo_dso__short_name() - the base name, or "[name]" for modules (borrowed) */
SAMPO_API const char *sampo_dso__short_name(const struct sampo_dso *dso);
/** sampo_dso__is_kernel() - the kernel or a kernel module (or another kernel map) */
SAMPO_API bool sampo_dso__is_kernel(const struct sampo_dso *dso);
/** sampo_dso__machine_pid() - the pid of the machine it belongs to: -1 the host, else a guest */
SAMPO_API int32_t sampo_dso__machine_pid(const struct sampo_dso *dso);
/** sampo_dso__inode() - the file's inode number an MMAP2 gave (0 when unknown) */
SAMPO_API uint64_t sampo_dso__inode(const struct sampo_dso *dso);
/**
 * sampo_dso__build_id() - the build-id an MMAP2 carried, if any
 * @size: set to its length in bytes (0 when unknown)
 *
 * Return: the bytes (borrowed), or NULL.
 */
SAMPO_API const uint8_t *sampo_dso__build_id(const struct sampo_dso *dso, size_t *size);

#endif /* SAMPO_DSO_H */
