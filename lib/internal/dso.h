/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/dso.h - the struct body of a DSO and the library's own DSO and
 * kernel module helpers (see include/sampo/dso.h and lib/dso.c).
 */
#ifndef SAMPO_INTERNAL_DSO_H
#define SAMPO_INTERNAL_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/dso.h>
#include <sampo/event.h>
#include <sampo/kmodule.h>

enum sampo_dso_space {
	SAMPO_DSO_SPACE_USER,
	SAMPO_DSO_SPACE_KERNEL,
};

/* Identity of a mapped file from MMAP2 (all zero: unknown, matches anything). */
struct sampo_dso_id {
	uint32_t maj;
	uint32_t min;
	uint64_t ino;
	uint64_t ino_generation;
};

struct sampo_dso {
	int refcnt;
	char *long_name;  /* owned */
	char *short_name; /* owned; basename, or "[name]" for modules */
	struct sampo_dso_id id;
	enum sampo_dso_space space;
	bool is_kmod; /* a kernel module, by perf's kmod_path rules */
	bool is_ksymbol; /* from a KSYMBOL record: a BPF program, trampoline or dispatcher */
	int32_t machine_pid; /* the machine it belongs to: -1 the host, else a guest's pid */
	uint8_t build_id_size;
	uint8_t build_id[SAMPO_BUILD_ID_MAX];
	uint64_t seq;		 /* creation order in its machine, from 1 */
	struct sampo_dso *hnext; /* chain of the machine's DSO table (by long name) */
	struct sampo_dso *lnext; /* machine's list, in creation order */
};

/*
 * sampo_dso__new() - a DSO named @long_name, one reference; @short_name
 * NULL: the base name (perf's "[JIT] tid N" for a JIT map). NULL: no memory.
 */
struct sampo_dso *sampo_dso__new(const char *long_name, const char *short_name);
/* set the build-id (at most SAMPO_BUILD_ID_MAX bytes are kept) */
void sampo_dso__set_build_id(struct sampo_dso *dso, const uint8_t *bid, size_t size);

/* all zero: an unknown identity */
bool sampo_dso_id__empty(const struct sampo_dso_id *id);

/*
 * perf's kmod_path__parse_name(): is @path a kernel module (*@ret_kmod),
 * and its short name (@ret_name optional, malloc'ed). Return: 0 or -ENOMEM
 */
int sampo_kmod__parse(const char *path, bool *ret_kmod, char **ret_name);
/* sampo_kmod__is_module(), sampo_kmod__name(): public, in <sampo/kmodule.h> */

#endif /* SAMPO_INTERNAL_DSO_H */
