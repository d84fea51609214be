/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * symbolizer.h - the symbols of a recorded machine's DSOs, from the right
 * files only.
 *
 * A symbolizer sits beside a struct sampo_machine and answers "which symbol
 * is at this sampled address of this map". It chooses, for every DSO, the
 * file whose build-id is the recorded one (build-id cache, then the recorded
 * path, then --symfs), the kernel's symbol source (-k, --kallsyms, cache,
 * the usual vmlinux places, the running kernel when its build-id matches),
 * relocates kernel symbols by the recorded `_text`, places module sections,
 * and refuses any file whose build-id differs from the recorded one (unless
 * told to force it), warning once per DSO with the recorded and the found
 * build-ids. Symbol tables are loaded lazily, once per DSO, and may be
 * preloaded in the background.
 *
 * Threads: the symbolizer's own loader threads never touch the machine;
 * the functions below must all be called from one thread at a time (the
 * one feeding the machine, or one that owns it while the machine is quiet).
 *
 * What a report prints for a sample (perf 6.1's rules):
 * - a symbol: its name ("[k] name" for kernel maps, "[.] name" for user);
 * - no symbol but a map: the DSO name and sampo_symbolizer__map_addr() as
 *   "0x%016llx" (perf's "%-#.*llx" with 16 digits): the file-relative
 *   address for file maps (addr - start + pgoff, which is what perf keys
 *   unresolved entries on, so that all samples at one instruction of one
 *   DSO merge), the address itself for the kernel map and anonymous memory;
 *   module maps have pgoff 0, so the offset from the module's base;
 * - no map: "[unknown]" and the sampled address; in kernel mode try
 *   sampo_symbolizer__find_unmapped() first.
 */
#ifndef SAMPO_SYMBOLIZER_H
#define SAMPO_SYMBOLIZER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/buildid.h>
#include <sampo/common.h>

struct sampo_machine;
struct sampo_map;
struct sampo_dso;
struct sampo_features;
struct sampo_symbol;
struct sampo_symbolizer;
struct sampo_module_sections;
struct sampo_embedded_symbols;

/* What a debuginfod fetch is doing (struct sampo_debuginfod_event.stage). */
enum sampo_debuginfod_stage {
	SAMPO_DEBUGINFOD_PROGRESS, /* bytes arriving (called at least once a second) */
	SAMPO_DEBUGINFOD_DONE,	   /* fetched: path is the file (in the build-id cache) */
	SAMPO_DEBUGINFOD_FAILED,   /* err: -ENOENT (not there), -ETIME (timeout), ... */
};

/* One step of a fetch from debuginfod, for a notice or a progress bar. */
struct sampo_debuginfod_event {
	int stage;	  /* enum sampo_debuginfod_stage */
	const char *name; /* the DSO ("/usr/bin/foo", "[kernel.kallsyms]") */
	const char *what; /* "executable" or "debuginfo" */
	const char *url;  /* the server answering, when known; may be NULL */
	long done, total; /* PROGRESS: bytes so far, of total (0 or -1: unknown) */
	int err;	  /* FAILED: negative errno */
	const char *path; /* DONE: the file */
};

/*
 * Called on the thread that fetches (a loader thread or the caller's), never
 * twice at once; the event and its strings are borrowed for the call.
 */
typedef void (*sampo_debuginfod_fn)(void *ctx, const struct sampo_debuginfod_event *ev);

struct sampo_symbolizer_opts {
	size_t sz;
	/* --symfs DIR: a root under which recorded paths are looked up too */
	const char *symfs;
	/* -k/--vmlinux FILE and --kallsyms FILE */
	const char *vmlinux;
	const char *kallsyms;
	/* the build-id cache; NULL: $PERF_BUILDID_DIR, else $HOME/.debug */
	const char *buildid_dir;
	/* --force: use a file even when its build-id differs (still warned) */
	bool force;
	/* do not start background loading of the DSOs in the build-id table */
	bool no_preload;
	/* keep C++ and Rust names mangled */
	bool no_demangle;
	/*
	 * Root of the running system's /proc and /sys (proc/kallsyms,
	 * sys/kernel/notes, proc/sys/kernel/osrelease); NULL: "/". For tests.
	 */
	const char *live_root;
	/*
	 * Module section maps of the file (sampo_module_sections__read()),
	 * borrowed: must outlive the symbolizer. NULL: modules are placed by
	 * redoing the module loader's layout (sampo_module__layout()).
	 */
	const struct sampo_module_sections *module_sections;
	/*
	 * Guests (a machine with sampo_machine__enable_guests()): the guest
	 * kernel's symbols, --guestvmlinux FILE or --guestkallsyms FILE (for
	 * every guest; held to the guest kernel's recorded build-id as -k and
	 * --kallsyms are to the host's), or --guestmount DIR: guest PID's own
	 * tree under DIR/PID (its proc/kallsyms when its sys/kernel/notes has
	 * the recorded build-id, its vmlinux and modules as under a --symfs).
	 * Without any, guest kernel samples stay unresolved: the host's own
	 * kernel and files are never used for a guest.
	 */
	const char *guest_vmlinux;
	const char *guest_kallsyms;
	const char *guestmount;
	/*
	 * debuginfod: when $DEBUGINFOD_URLS names servers, a DSO, debug file
	 * or vmlinux that no local place has is fetched by its recorded
	 * build-id (libdebuginfod) and stored in the build-id cache. Off with
	 * @no_debuginfod. Each request may take @debuginfod_timeout_ms (0:
	 * $DEBUGINFOD_TIMEOUT seconds, else 5 s); once a request fails (timeout,
	 * no server), the servers are not asked again by this symbolizer.
	 * @debuginfod_fn (may be NULL) hears of each fetch.
	 */
	bool no_debuginfod;
	unsigned int debuginfod_timeout_ms;
	sampo_debuginfod_fn debuginfod_fn;
	void *debuginfod_ctx;
	/*
	 * The profile's embedded symbol tables (sampo_embedded_symbols__read()),
	 * borrowed: must outlive the symbolizer. A DSO with no local file of its
	 * recorded build-id uses its table there; order in docs/symbols.md.
	 */
	const struct sampo_embedded_symbols *embedded_symbols;
	/*
	 * Note every symbol a lookup returns, for sampo_symbolizer__embed()
	 * (sampo inject --embed-symbols).
	 */
	bool track_hits;
};
#define sampo_symbolizer_opts__last_field track_hits

/**
 * sampo_symbolizer__new() - a symbolizer for @machine
 * @machine: the machine the maps come from (borrowed; must outlive the
 *	     symbolizer)
 * @features: the file's features (borrowed, may be NULL): the build-id
 *	      table and whatever else tells which files were recorded
 * @opts: may be NULL
 *
 * Return: 0 and *@ret, or a negative error (-ENOMEM, or a bad option such
 * as a -k file that cannot be read, with a message printed).
 */
SAMPO_API int sampo_symbolizer__new(struct sampo_machine *machine,
				    const struct sampo_features *features,
				    const struct sampo_symbolizer_opts *opts,
				    struct sampo_symbolizer **ret);

/** sampo_symbolizer__delete() - free it and every symbol table; NULL is fine */
SAMPO_API void sampo_symbolizer__delete(struct sampo_symbolizer *s);

/**
 * sampo_symbolizer__find() - the symbol at a sampled address
 * @map: the map the address fell in (from sampo_machine__find_map())
 * @addr: the address as sampled (absolute, not map-relative)
 *
 * Return: the symbol (borrowed, valid until the symbolizer is deleted), or
 * NULL when the DSO has no usable symbols or none covers @addr.
 */
SAMPO_API const struct sampo_symbol *sampo_symbolizer__find(struct sampo_symbolizer *s,
							    struct sampo_map *map, uint64_t addr);

/**
 * sampo_symbolizer__find_offset() - sampo_symbolizer__find(), and how far into the symbol
 * @ret_offset: optional; set to @addr's offset from the symbol's start, in
 *		bytes (what perf prints as sym+0x<off>). Symbol tables keep the
 *		addresses of their file (a vmlinux's link-time ones, a .ko's
 *		section offsets), so sampo_symbol__start() is not a sampled
 *		address: the run-time start is @addr - *@ret_offset.
 */
SAMPO_API const struct sampo_symbol *sampo_symbolizer__find_offset(struct sampo_symbolizer *s,
								   struct sampo_map *map,
								   uint64_t addr,
								   uint64_t *ret_offset);

/**
 * sampo_symbolizer__map_addr() - the address perf prints for an unresolved
 * sample: the map-relative address (rip in the DSO) for user maps, the
 * absolute address for the kernel.
 *
 * Exactly sampo_map__map_ip(): @addr - start + pgoff for maps of files
 * (user DSOs, [vdso], modules: pgoff 0), @addr itself for the kernel map
 * and anonymous memory (heap, stack, //anon, JIT perf maps). @addr when
 * @map is NULL.
 */
SAMPO_API uint64_t sampo_symbolizer__map_addr(struct sampo_symbolizer *s, struct sampo_map *map,
					      uint64_t addr);

/**
 * sampo_symbolizer__find_unmapped() - a kernel address no map covers
 * @addr: a sampled kernel address for which sampo_machine__find_map() found
 *	  no map (a module loaded after recording began, init code)
 * @ret_module: optional; set to the module's name ("ext4") when the symbol
 *	  is a module's, to NULL when it is the kernel's own
 *
 * Looks the address up in the recorded module section maps, then among the
 * module symbols of the kernel's kallsyms snapshot (when it was taken in the
 * recording boot), then in the kernel's own table past the recorded kernel
 * map (.init.text), as perf's kernel map stretches to the last kernel
 * symbol: the caller then shows it in the kernel map.
 * Return: the symbol (borrowed), or NULL.
 */
SAMPO_API const struct sampo_symbol *sampo_symbolizer__find_unmapped(struct sampo_symbolizer *s,
								     uint64_t addr,
								     const char **ret_module);

/**
 * sampo_symbolizer__for_machine() - the symbolizer of @machine: @s itself
 * for the host, a guest machine's own (made at first use, owned by @s)
 *
 * sampo_symbolizer__find() and __dso_info() pick it by themselves; use it
 * for sampo_symbolizer__find_unmapped() on a guest's address.
 * Return: borrowed, or NULL (out of memory, or @machine is not one of @s).
 */
SAMPO_API struct sampo_symbolizer *
sampo_symbolizer__for_machine(struct sampo_symbolizer *s, const struct sampo_machine *machine);

/* How the symbols of a DSO were placed. */
enum sampo_symbol_placement {
	SAMPO_PLACED_NONE,	  /* no symbols: no usable file (see the warnings) */
	SAMPO_PLACED_FILE,	  /* an ELF with addresses (user DSO, vmlinux) */
	SAMPO_PLACED_KALLSYMS,	  /* a kallsyms file (kernel, or a module's symbols in it) */
	SAMPO_PLACED_SECTION_MAP, /* a module placed by the recorded section addresses */
	SAMPO_PLACED_LAYOUT,	  /* a module placed by redoing the module loader's layout */
	SAMPO_PLACED_SYNTHETIC,	  /* a BPF program or trampoline: one symbol from KSYMBOL */
	SAMPO_PLACED_EMBEDDED,	  /* the recording's own table (simpleperf FILE/FILE2); path names it */
};

struct sampo_symbolizer_dso_info {
	const char *path;  /* the file used (borrowed), or NULL */
	bool verified;	   /* its build-id is the recorded one */
	int placement;	   /* enum sampo_symbol_placement */
};

/**
 * sampo_symbolizer__dso_info() - where the symbols of @dso came from
 *
 * Meant for reports that say which modules were placed by layout
 * (SAMPO_PLACED_LAYOUT: exact for .text, .text.unlikely, .exit.text and the
 * other executable sections of the core, as long as the recording kernel's
 * loader works as Linux 4.x-6.x does).
 * Return: 0, or -ENOENT when sampo_symbolizer__find() never looked at @dso.
 */
SAMPO_API int sampo_symbolizer__dso_info(struct sampo_symbolizer *s, const struct sampo_dso *dso,
					 struct sampo_symbolizer_dso_info *info);

/* Where the symbols of a DSO came from (sampo_symbolizer__provenance()). */
enum sampo_symbol_origin {
	SAMPO_ORIGIN_NONE,		/* none: see enum sampo_symbol_missing */
	SAMPO_ORIGIN_PATH,		/* the file at the recorded path */
	SAMPO_ORIGIN_SYMFS,		/* the recorded path under --symfs */
	SAMPO_ORIGIN_BUILDID_CACHE,	/* the build-id cache (~/.debug) */
	SAMPO_ORIGIN_ARCHIVE,		/* an archive of the profile's files */
	SAMPO_ORIGIN_DEBUGINFOD,	/* fetched from a debuginfod server in this run */
	SAMPO_ORIGIN_EMBEDDED,		/* symbols embedded in the profile */
	SAMPO_ORIGIN_KALLSYMS_SNAPSHOT, /* a kallsyms snapshot (cached, or --kallsyms) */
	SAMPO_ORIGIN_KALLSYMS_LIVE,	/* the running kernel's /proc/kallsyms */
	SAMPO_ORIGIN_VMLINUX,		/* a vmlinux (-k, or one of its usual places) */
	SAMPO_ORIGIN_MODULES_DIR,	/* a module's .ko under /lib/modules/RELEASE */
	SAMPO_ORIGIN_VDSO_LIVE,		/* the running kernel's vDSO (the same build-id) */
	SAMPO_ORIGIN_PERF_MAP,		/* a JIT's /tmp/perf-PID.map */
	SAMPO_ORIGIN_KSYMBOL,		/* a BPF program's or trampoline's KSYMBOL record */
};

/* Why a DSO has no symbols. */
enum sampo_symbol_missing {
	SAMPO_MISSING_NONE,
	SAMPO_MISSING_NO_FILE,		 /* anonymous memory, [heap], [stack]: no file to read */
	SAMPO_MISSING_NO_BUILD_ID,	 /* no build-id recorded and no file at the recorded path */
	SAMPO_MISSING_FILE,		 /* no file with the recorded build-id where looked */
	SAMPO_MISSING_BUILD_ID_MISMATCH, /* the files found have another build-id */
	SAMPO_MISSING_WRONG_ARCH,	 /* the file found is for another architecture */
	SAMPO_MISSING_NO_SYMBOLS,	 /* the file has no symbol table (stripped) */
	SAMPO_MISSING_UNREADABLE,	 /* the file does not load (damaged, kptr_restrict...) */
	SAMPO_MISSING_REPLACED,		 /* replaced while recording, with no build-id */
	SAMPO_MISSING_NOT_RELOCATABLE,	 /* kernel: no _text recorded, or another text size */
};

struct sampo_symbolizer_provenance {
	int origin;  /* enum sampo_symbol_origin */
	int missing; /* enum sampo_symbol_missing; with an origin: NONE or NO_SYMBOLS */
	/* the file used; for a mismatch or a wrong architecture, the file found */
	const char *path;
	struct sampo_build_id recorded; /* size 0: none recorded */
	struct sampo_build_id found;	/* MISMATCH, WRONG_ARCH: the found file's */
	const char *tried; /* the places looked at ("'P' (not found), ..."), or NULL */
	bool stripped;	   /* the file has only its dynamic symbols (no .symtab, no debug file) */
};

/**
 * sampo_symbolizer__provenance() - where @dso's symbols came from, or why
 * there are none
 * @ret: filled; its strings are borrowed from @s
 *
 * Made where the symbolizer chooses the file, so it says what was used,
 * not what might have been.
 * Return: 0, or -ENOENT when sampo_symbolizer__find() never looked at @dso.
 */
SAMPO_API int sampo_symbolizer__provenance(struct sampo_symbolizer *s, const struct sampo_dso *dso,
					   struct sampo_symbolizer_provenance *ret);

/**
 * sampo_symbolizer__embed() - the symbols lookups returned, for a self-contained profile
 * @ret: on success, a new set (sampo_embedded_symbols__delete() it): one
 *	 table per source (user DSO, kernel, module, kallsyms snapshot) whose
 *	 file was checked against its recorded build-id, holding the symbols
 *	 that sampo_symbolizer__find(), __find_offset() and __find_unmapped()
 *	 returned since the symbolizer was made with .track_hits; the host's
 *	 machine only (a guest's symbols are not embedded)
 *
 * Return: 0, -EINVAL, -ENOMEM
 */
SAMPO_API int sampo_symbolizer__embed(struct sampo_symbolizer *s,
				      struct sampo_embedded_symbols **ret);

/** sampo_symbol_origin__name() - "build-id cache", "debuginfod", ... ("none") */
SAMPO_API const char *sampo_symbol_origin__name(int origin);

/** sampo_symbol_missing__name() - "file missing", "build-id mismatch", ... ("") */
SAMPO_API const char *sampo_symbol_missing__name(int missing);

#endif /* SAMPO_SYMBOLIZER_H */
