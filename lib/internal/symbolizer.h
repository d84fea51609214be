/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/symbolizer.h - the symbolizer's body, shared by its files:
 * lib/symbolizer.c (the build-id table, binding DSOs and the lookups),
 * lib/symbolizer-loader.c (the sources and the loader threads),
 * lib/symbolizer-guest.c (the guests' child symbolizers),
 * lib/symbolizer-user.c (user DSOs, [vdso], JIT perf maps),
 * lib/symbolizer-kernel.c (the kernel: vmlinux or kallsyms) and
 * lib/symbolizer-module.c (kernel modules). The loaders choose and load a
 * source's file and write only that source; see lib/symbolizer.c for the
 * states and the threads.
 */
#ifndef SAMPO_INTERNAL_SYMBOLIZER_H
#define SAMPO_INTERNAL_SYMBOLIZER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/buildid.h>
#include "internal/hash.h"
#include "internal/strbuf.h"
#include "internal/dso.h"
#include "internal/util.h"

struct sampo_debuginfod;
struct sampo_dso;
struct sampo_features;
struct sampo_machine;
struct sampo_map;
struct sampo_module_file;
struct sampo_module_sections;
struct sampo_symbol;
struct sampo_symtab;

#define MAX_PRELOAD_THREADS 2
/* build-id table files loaded ahead of the samples; the rest load on first use */
#define MAX_PRELOAD_SOURCES 64

enum src_kind {
	SRC_USER,
	SRC_KERNEL,
	SRC_MODULE,
	SRC_KALLSYMS, /* the cached kallsyms snapshot, beside a vmlinux: places modules */
};

enum src_state {
	SRC_PENDING,
	SRC_LOADING,
	SRC_DONE,
};

struct sampo_sym_src {
	enum src_kind kind;
	char *name; /* DSO long name (user), "[kernel.kallsyms]" (kernel), "ext4" (module) */
	char *hint; /* module: the recorded path, or NULL */
	struct sampo_build_id bid; /* recorded; size 0: none recorded */
	enum src_state state;	   /* under s->lock until DONE */

	/* written by the loader, read once DONE */
	struct sampo_symtab *symtab; /* NULL: no usable file */
	char *path;		     /* the file the symbols came from */
	bool kallsyms;		     /* kernel: from a kallsyms file, not a vmlinux */
	bool verified;		     /* its build-id was checked against the recorded one */
	bool relative;		     /* module laid out from 0: look up addr - map start */
	bool absolute;		     /* perf map (JIT): addresses as sampled */
	int placement;		     /* enum sampo_symbol_placement */
	bool has_ref;		     /* kernel: ref_addr is the source's _text */
	bool live;		     /* kernel: the running kernel's /proc/kallsyms */
	uint64_t ref_addr;
	/* provenance (lib/symbolizer-provenance.c): where the symbols came from, or why none */
	int origin;			/* enum sampo_symbol_origin */
	int missing;			/* enum sampo_symbol_missing */
	char *found_path;		/* the first file with another build-id, or unloadable */
	struct sampo_build_id found_bid; /* its build-id */
	bool found_unreadable;		/* a file was there and did not load */
	bool found_wrong_arch;		/* found_path is for another architecture */
	/* simpleperf: the FILE/FILE2 entry the symbols came from (borrowed from the features) */
	const struct sampo_feat_sp_file *sp;
	bool stripped;			/* path has no .symtab, nor a local debug file */
	char *tried;			/* the places looked at, for --provenance */
	uint8_t *hits; /* .track_hits: a bit per symtab symbol a lookup returned (caller's thread) */
	char *warning; /* to log once, from the caller's thread */
	char *debug;   /* the same at debug level */

	bool warned; /* caller's thread only */
	bool queued; /* in the preload list */
	struct sampo_sym_src *next;
};

enum ent_kind {
	ENT_NONE,   /* no symbols: anonymous memory, unknown kinds */
	ENT_USER,   /* file offset -> vaddr -> table */
	ENT_KERNEL, /* sampled - delta -> table */
	ENT_MODULE, /* a .ko placed by section, or the kallsyms module symbols */
	ENT_BPF,    /* one symbol covering the map, named after the ksymbol */
};

struct sampo_sym_dso {
	struct sampo_dso *dso; /* reference */
	enum ent_kind kind;
	struct sampo_sym_src *src;
	bool ready;	       /* src is DONE and its messages were logged */
	uint64_t delta;	       /* kernel: sampled address - table address (mod 2^64) */
	bool usable;	       /* checks at binding time passed */
	bool stale; /* a newer version of the file came later (see dso_replaced_later()) */
	bool perf_map;	       /* ENT_USER: /tmp/perf-PID.map */
	char *module;	       /* ENT_MODULE: name without brackets */
	struct sampo_sym_src *ksrc; /* ENT_MODULE: the kallsyms source used instead of a .ko */
	struct sampo_symtab *own;   /* ENT_BPF: the one-symbol table */
	struct sampo_sym_dso *next;
};

/* How the build-id table is searched: a user DSO's path, a module's path or its name */
enum bid_key_kind {
	BID_KEY_USER,
	BID_KEY_KMOD_PATH,
	BID_KEY_KMOD_NAME,
};

struct sampo_symbolizer {
	struct sampo_machine *machine;

	/*
	 * Guests: the host's symbolizer makes one child per guest machine, at
	 * the first lookup in one of its DSOs. A child knows only its guest's
	 * build-ids and files: the guest sources given, or its tree under
	 * --guestmount; never the host's running kernel or recorded paths.
	 */
	bool guest;	     /* this is a guest's child */
	const char *kname;   /* "kernel" or "guest kernel", for messages */
	char *kname_buf;     /* kname when made up */
	char *guest_vmlinux; /* host: --guestvmlinux, --guestkallsyms, --guestmount */
	char *guest_kallsyms;
	char *guestmount;
	const struct sampo_features *features; /* host: borrowed, for the guests' build-ids */
	struct sampo_symbolizer *guests;       /* host: the children */
	struct sampo_symbolizer *gnext;
	struct sampo_symbolizer *parent; /* guest: the host's */

	/* configuration: immutable after __new(), read by loader threads */
	char *symfs;
	char *vmlinux;
	char *kallsyms;
	char *buildid_dir; /* NULL: no cache */
	char *live_root;
	char *osrelease; /* recorded */
	char *arch;	 /* recorded (ARCH): which ELF machines may name its samples */
	bool force;
	bool no_demangle;
	const struct sampo_module_sections *modsecs;
	uint16_t e_machine;		/* the recorded architecture's ELF machine; 0: unknown */
	struct sampo_debuginfod *dbgd;	/* NULL: off; a guest borrows its host's */
	const struct sampo_embedded_symbols *embedded; /* the profile's tables, borrowed; or NULL */
	bool track_hits; /* mark the symbols lookups return (sampo_symbolizer__embed()) */

	/* NAME.ko* under SYMFS/lib/modules/R, built once by whichever thread needs it */
	pthread_mutex_t mod_lock;
	bool mod_index_built;
	struct sampo_module_file *mod_files;
	size_t nr_mod_files;

	/* the build-id table, copied */
	struct sampo_sym_bid {
		uint8_t cpumode;
		bool kmod;
		struct sampo_build_id bid;
		char *name;
		char *modname; /* kmod: the module's name */
	} * bids;
	size_t nr_bids;
	/* the table's first entry per (kind, name): sampo_symbolizer__bid_find() */
	struct sampo_sym_bid_key {
		enum bid_key_kind kind;
		const char *name;
		size_t idx;
	} * bid_keys;
	size_t nr_bid_keys, bid_keys_cap;
	struct sampo_hash_index bid_ix;
	const struct sampo_sym_bid *kernel_bid; /* the kernel's entry, or NULL */

	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct sampo_sym_src *sources; /* list; appended under lock */
	struct sampo_sym_src **src_arr; /* the same, indexed by identity (src_ix) */
	size_t nr_src_arr, src_arr_cap;
	struct sampo_hash_index src_ix;
	struct sampo_sym_src **preload;
	size_t nr_preload, next_preload;
	bool stop;
	pthread_t threads[MAX_PRELOAD_THREADS];
	size_t nr_threads;

	/* caller's thread only */
	struct sampo_sym_dso **ents;
	size_t ents_cap, nr_ents; /* power of two */

	/* files replaced while recording (lib/symbolizer.c, dso_replaced_later()) */
	struct rep_name {
		const char *name; /* the DSO's long name */
		uint64_t last_seq, lastdiff_seq; /* 0: none */
		struct sampo_dso_id last_id;
		struct sampo_sym_dso *live; /* bound and not stale */
		bool warned;
	} * rep_names;
	size_t nr_rep_names, rep_names_cap;
	struct sampo_hash_index rep_name_ix;
	const struct sampo_dso **rep_dsos; /* scanned eligible DSOs; sequence number = index + 1 */
	size_t nr_rep_dsos, rep_dsos_cap;
	struct sampo_hash_index rep_dso_ix;
	const struct sampo_dso *rep_cursor; /* the machine's DSO scanned last */
};

/*
 * How a candidate file's build-id compares with the recorded one. A file
 * without a build-id when one was recorded is another file too.
 */
enum bid_check {
	BID_NOT_RECORDED,
	BID_MATCH,
	BID_MISMATCH,
	BID_UNREADABLE,
};

/* ---- lib/symbolizer.c: helpers of the loaders -------------------------------------------- */

/* @bid in hex into @hex (SAMPO_BUILD_ID_HEX_SIZE bytes), or "(none)" */
void sampo_symbolizer__bid_hex(const struct sampo_build_id *bid, char *hex);
/* @a/@b, malloc'ed; NULL when out of memory or when @b would climb out of @a */
char *sampo_symbolizer__path_join(const char *a, const char *b);
bool sampo_symbolizer__file_exists(const char *path);
enum bid_check sampo_symbolizer__check_elf_bid(const struct sampo_sym_src *src, const char *path,
					       struct sampo_build_id *found);
/* adds "'PATH' (WHAT)" or "'PATH' (build-id HEX)" to the list of files tried */
void sampo_symbolizer__note_tried(struct sampo_strbuf *tried, const char *path,
				  const char *what, const struct sampo_build_id *found);
/*
 * sampo_symbolizer__elf_fits() - @path, if an ELF file, is for a machine the
 * recording's ARCH runs: its e_machine, class and byte order (lib/symbolizer-elfarch.c).
 * False with @why ("x86-64 ELF, recorded on armv7l") when not; true for
 * other files and when the ARCH is unknown.
 */
bool sampo_symbolizer__elf_fits(const struct sampo_symbolizer *s, const char *path, char *why,
				size_t why_sz);

int sampo_symbolizer__load_elf(const struct sampo_symbolizer *s, const char *path,
			       struct sampo_symtab **ret, char *errbuf, size_t errbuf_sz);

/* ---- lib/symbolizer-provenance.c: what the loaders record for --provenance ------------------ */

/* ELF machine of a perf arch name ("x86_64", "aarch64", ...); 0 when unknown */
uint16_t sampo_symbolizer__arch_machine(const char *arch);
/* A file seen with another build-id (or none, or unloadable): kept for the provenance */
void sampo_symbolizer__note_found(const struct sampo_symbolizer *s, struct sampo_sym_src *src,
				  const char *path, const struct sampo_build_id *found,
				  bool unreadable);
/* Whether the ELF file @path has no .symtab and no local debug file (only .dynsym, PLT) */
bool sampo_symbolizer__elf_stripped(const char *path, const struct sampo_build_id *bid);
/*
 * At the end of a loader: the origin when @done (@origin), else why there
 * are no symbols; keeps @tried.
 */
void sampo_symbolizer__settle(struct sampo_sym_src *src, bool done, int origin, bool mismatched,
			      const struct sampo_strbuf *tried);
/*
 * debuginfod, the last resort of the user and kernel loaders: the file of
 * @kind for @src fetched, stored in the cache and returned (malloc'ed), or NULL.
 */
char *sampo_symbolizer__debuginfod(const struct sampo_symbolizer *s, struct sampo_sym_src *src,
				   int kind, const char *cache_kind, struct sampo_strbuf *tried);

/* ---- lib/symbolizer-embed.c: embedded symbols ------------------------------------------------ */

struct sampo_embedded_symbols;
/* With .track_hits: note that a lookup returned @sym of @src's table */
void sampo_symbolizer__mark_hit(const struct sampo_symbolizer *s, struct sampo_sym_src *src,
				const struct sampo_symbol *sym);
/*
 * The profile's embedded table of @src's kind and recorded build-id, taken as
 * @src's symbols (path: the profile); false, with a note in @tried, when none.
 */
bool sampo_symbolizer__load_embedded(const struct sampo_symbolizer *s, struct sampo_sym_src *src,
				     struct sampo_strbuf *tried);

/* ---- lib/symbolizer.c: the symbolizer and its build-id table ------------------------------ */

/* A symbolizer for @machine with no configuration yet (kname "kernel") */
struct sampo_symbolizer *sampo_symbolizer__alloc(struct sampo_machine *machine);
/* *@dst = a copy of @src; NULL or "" leave *@dst alone */
int sampo_symbolizer__dup_opt(char **dst, const char *src);
/* The build-id table entries of @s's machine (host or guest) from @f, copied into @s */
int sampo_symbolizer__copy_build_ids(struct sampo_symbolizer *s, const struct sampo_features *f);
/* The build-id table's first entry of @kind named @name, or NULL */
const struct sampo_sym_bid *sampo_symbolizer__bid_find(const struct sampo_symbolizer *s,
						       enum bid_key_kind kind, const char *name);
/* SAMPO_CPUMODE_KERNEL or SAMPO_CPUMODE_GUEST_KERNEL */
bool sampo_symbolizer__is_kernel_mode(uint8_t cpumode);

/* ---- lib/symbolizer-loader.c: the sources (caller's thread or loaders) -------------------- */

void sampo_symbolizer__src_free(struct sampo_sym_src *src);

/* Find or create (PENDING) the source for (kind, name, bid). Caller holds s->lock. */
struct sampo_sym_src *sampo_symbolizer__src_findnew_locked(struct sampo_symbolizer *s,
							   enum src_kind kind, const char *name,
							   const struct sampo_build_id *bid,
							   const char *hint);
/* Load @src, or wait for the thread loading it; logs its messages once. */
void sampo_symbolizer__src_ensure(struct sampo_symbolizer *s, struct sampo_sym_src *src);
/* A source per build-id table file (the first MAX_PRELOAD_SOURCES), loaded by up to MAX_PRELOAD_THREADS threads */
int sampo_symbolizer__start_preload(struct sampo_symbolizer *s);
/* lib/symbolizer.c: the kallsyms source of the recording boot (the kernel's, or the cached
 * snapshot), or NULL */
struct sampo_sym_src *sampo_symbolizer__boot_kallsyms(struct sampo_symbolizer *s);

/* ---- lib/symbolizer-guest.c ------------------------------------------------------------------ */

/* The symbolizer of the machine whose pid is @pid: @s itself, or its guest's child (made at the
 * first call); NULL when there is no such machine */
struct sampo_symbolizer *sampo_symbolizer__findnew_machine(struct sampo_symbolizer *s, int32_t pid);

/* ---- the loaders: choose the file of a PENDING source and load it -------------------------- */

/* lib/symbolizer-user.c */
bool sampo_symbolizer__is_perf_map(const char *name);
void sampo_symbolizer__load_user(const struct sampo_symbolizer *s, struct sampo_sym_src *src);

/* lib/symbolizer-simpleperf.c: the recording's own table (simpleperf FILE/FILE2) */
struct sampo_feat_sp_file;
/* @src's symbols from its simpleperf table entry; false (nothing set) when it has none */
bool sampo_symbolizer__load_simpleperf(const struct sampo_symbolizer *s, struct sampo_sym_src *src);
/* A user DSO @name has a simpleperf table entry with symbols */
bool sampo_symbolizer__has_simpleperf_table(const struct sampo_symbolizer *s, const char *name);
/* A sampled @addr of @map as an address of @src's simpleperf table */
uint64_t sampo_symbolizer__simpleperf_vaddr(const struct sampo_sym_src *src,
					    const struct sampo_map *map, uint64_t addr);

/* lib/symbolizer-kernel.c */
void sampo_symbolizer__load_kernel(const struct sampo_symbolizer *s, struct sampo_sym_src *src);
void sampo_symbolizer__load_kallsyms(const struct sampo_symbolizer *s, struct sampo_sym_src *src);
/* LIVE_ROOT/proc/sys/kernel/osrelease, malloc'ed; NULL when unreadable or not a plain name */
char *sampo_symbolizer__live_osrelease(const struct sampo_symbolizer *s);

/* lib/symbolizer-module.c */
void sampo_symbolizer__load_module(struct sampo_symbolizer *s, struct sampo_sym_src *src);
/* A module's build-id: its MMAP2's, else the build-id table's, else the section maps' */
void sampo_symbolizer__module_recorded_bid(const struct sampo_symbolizer *s,
					   const struct sampo_dso *dso, const char *modname,
					   struct sampo_build_id *ret);
/* No .ko for a module: its symbols in a kallsyms snapshot of the recording boot, if they fit */
void sampo_symbolizer__module_kallsyms_fallback(struct sampo_symbolizer *s, struct sampo_sym_dso *e,
						const struct sampo_map *map);
/* An address outside every module map, by the recorded section maps */
const struct sampo_symbol *sampo_symbolizer__find_by_section_map(struct sampo_symbolizer *s,
								 uint64_t addr,
								 const char **ret_module);

#endif
