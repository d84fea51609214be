/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * debuginfo.h - where the separate debug file of a stripped ELF file is,
 * by the rules gdb and perf use.
 *
 * Candidates, in order (the first usable one wins):
 *
 *   1. the build-id cache's "debug" entry: CACHE/.build-id/NN/REST/debug
 *      (perf's layout, see buildid-cache.h);
 *   2. SYMFS/DEBUG_ROOT/.build-id/NN/REST.debug, then DEBUG_ROOT/.build-id/...
 *      (DEBUG_ROOT is /usr/lib/debug);
 *   3. the file's .gnu_debuglink name LINK, looked up in SYMFS/DIR/LINK,
 *      SYMFS/DIR/.debug/LINK, DIR/LINK, DIR/.debug/LINK,
 *      SYMFS/DEBUG_ROOT/DIR/LINK and DEBUG_ROOT/DIR/LINK,
 *      DIR being the directory of the DSO's recorded path; a candidate is
 *      taken only when its CRC32 (zlib's) is the link's.
 *
 * A candidate whose own build-id differs from the file's is never used
 * (it belongs to another build: its symbols would name the wrong code).
 */
#ifndef SAMPO_DEBUGINFO_H
#define SAMPO_DEBUGINFO_H

#include <stdbool.h>
#include <stddef.h>

#include <sampo/common.h>

struct sampo_build_id;

/* Which rule found the debug file (sampo_debuginfo__rule_name() spells it). */
enum sampo_debuginfo_rule {
	SAMPO_DEBUGINFO_BUILDID_CACHE, /* CACHE/.build-id/NN/REST/debug */
	SAMPO_DEBUGINFO_BUILDID_PATH,  /* DEBUG_ROOT/.build-id/NN/REST.debug */
	SAMPO_DEBUGINFO_LINK_DIR,      /* DIR/LINK */
	SAMPO_DEBUGINFO_LINK_DOT_DEBUG, /* DIR/.debug/LINK */
	SAMPO_DEBUGINFO_LINK_ROOT,     /* DEBUG_ROOT/DIR/LINK */
};

struct sampo_debuginfo_opts {
	size_t sz;
	/*
	 * The DSO's recorded path, whose directory the .gnu_debuglink rules
	 * use; NULL: @elf_path's. They differ when @elf_path is a copy (the
	 * build-id cache's "elf" entry, a --symfs tree).
	 */
	const char *name;
	/* The build-id the debug file must have; NULL: @elf_path's own, if any. */
	const struct sampo_build_id *build_id;
	/* NULL: "/usr/lib/debug" */
	const char *debug_root;
	/* A root tried before "/" for the DEBUG_ROOT rules (perf's --symfs); NULL: none */
	const char *symfs;
	/* The build-id cache for rule 1; NULL: rule 1 is skipped */
	const char *buildid_dir;
	/*
	 * Where one line goes when a candidate is refused because its build-id
	 * differs ("'F': build-id X, not Y of 'E': not used"); the last such.
	 */
	char *errbuf;
	size_t errbuf_sz;
};
#define sampo_debuginfo_opts__last_field errbuf_sz

/**
 * sampo_debuginfo__find() - find the separate debug file of an ELF file
 * @elf_path: the (stripped) file as it can be opened now
 * @opts: optional; NULL means defaults
 * @ret_path: on success, the debug file's path; free() it
 * @ret_rule: optional; on success, the rule that found it
 *
 * Return: 0, -ENOENT when no usable file is found (a refused candidate is
 * described in @opts->errbuf), -ENOMEM, -EINVAL (bad @opts)
 */
SAMPO_API int sampo_debuginfo__find(const char *elf_path, const struct sampo_debuginfo_opts *opts,
				    char **ret_path, enum sampo_debuginfo_rule *ret_rule);

/** sampo_debuginfo__rule_name() - "build-id cache", "build-id path", ".gnu_debuglink", ... */
SAMPO_API const char *sampo_debuginfo__rule_name(enum sampo_debuginfo_rule rule);

#endif /* SAMPO_DEBUGINFO_H */
