/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * profile.h - one profile made of many perf.data files, recorded on
 * different machines (other kernels, KASLR slides, binaries): each file is
 * read in a session of its own and symbolized with its own kernel and
 * build-ids, then its report rows go into the profile under a host label
 * (the file's HOSTNAME feature, else its path). Shared objects are told
 * apart by build-id: two versions of one path stay two rows.
 *
 *	SAMPO_OPTS(sampo_profile_opts, opts, .hists = &hopts, .symbolizer = &sopts,
 *		   .nr_threads = 2, .errbuf = buf, .errbuf_sz = sizeof(buf));
 *	err = sampo_profile__new(&p);
 *	err = sampo_profile__read_files(p, paths, nr, &opts);	(buf says which file failed)
 *	for (size_t i = 0; i < sampo_profile__nr_rows(p); i++)
 *		row = sampo_profile__row(p, i);
 *	sampo_profile__delete(p);
 *
 * A row is what one file's report (sampo_hists) shows for (command,
 * shared object, symbol), under its host and event: the profile's row is
 * the sum of those rows over the files, so the report of the profile is
 * the sum of the per-file reports. Files are read one at a time per worker
 * thread, their session and symbol tables freed before the next; each
 * worker adds a file's rows and stacks to the one profile under a lock, so
 * memory follows the distinct rows, not the files nor the workers.
 */
#ifndef SAMPO_PROFILE_H
#define SAMPO_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_hists;
struct sampo_hists_opts;
struct sampo_profile;
struct sampo_session;
struct sampo_symbolizer_opts;

/* one row: every string is the profile's own copy (interned: equal strings, equal pointers) */
struct sampo_profile_row {
	size_t event;	    /* index for sampo_profile__event_name() */
	const char *host;   /* the file's HOSTNAME, else its path */
	const char *comm;   /* the command */
	const char *dso;    /* the shared object's short name, NULL: "[unknown]" */
	const char *dso_id; /* its build-id in hex, NULL when the file has none */
	/* the symbol's name, or the address as perf prints it ("0x...") when unresolved */
	const char *symbol;
	bool resolved;	     /* @symbol is a name */
	char level;	     /* as sampo_hist_entry__level(): 'k', '.', ... */
	uint64_t period;     /* the Overhead (with children: the Children column) */
	uint64_t self;	     /* the samples' own period (the Self column) */
	uint64_t nr_samples; /* the -n column */
};

/* a frame of the profile's stacks; frames are shared by all stacks and hosts */
struct sampo_profile_frame {
	const char *dso;    /* the shared object's short name, NULL: "[unknown]" */
	const char *dso_id; /* its build-id in hex, NULL when the file has none */
	/* the symbol's name, else the address in the object ("0x1010"), else the address */
	const char *symbol;
	bool resolved; /* @symbol is a name */
	char level;    /* 'k', '.', ... */
};

/* one distinct stack: (event, host, comm, frames), with the sum of its samples */
struct sampo_profile_stack {
	size_t event;
	const char *host;
	const char *comm;
	uint64_t period;
	uint64_t nr_samples;
	size_t nr_frames;
	const uint32_t *frames; /* leaf first: indexes for sampo_profile__frame() */
};

struct sampo_profile_opts {
	size_t sz;
	/* the histograms of each file (sort keys are ignored: comm, dso, sym) */
	const struct sampo_hists_opts *hists;
	/* the symbols of each file; NULL: the defaults (build-id cache, recorded paths) */
	const struct sampo_symbolizer_opts *symbolizer;
	/* keep the distinct stacks too (with callchains: the resolved chains) */
	bool stacks;
	/* worker threads reading files; 0: one per online CPU, at most one per file */
	unsigned int nr_threads;
	/* where the one-line reason for a failure goes (names the file) */
	char *errbuf;
	size_t errbuf_sz;
};
#define sampo_profile_opts__last_field errbuf_sz

/** sampo_profile__new() - an empty profile: 0 or -ENOMEM */
SAMPO_API int sampo_profile__new(struct sampo_profile **ret);
SAMPO_API void sampo_profile__delete(struct sampo_profile *profile);

/**
 * sampo_profile__add_hists() - add the rows of one file's histograms
 * @profile: the profile
 * @host: the file's host label (copied)
 * @session: the file's session (event names, lost counts)
 * @hists: its histograms, after sampo_hists__resort(), sorted by comm,dso,sym
 *
 * Return: 0, -ENOMEM.
 */
SAMPO_API int sampo_profile__add_hists(struct sampo_profile *profile, const char *host,
				       struct sampo_session *session,
				       const struct sampo_hists *hists);

/**
 * sampo_profile__add_stacks() - add the distinct stacks of one file's
 * histograms (after sampo_hists__resort(); callee order), as
 * sampo_profile__add_hists() adds its rows (call both for one file)
 *
 * Return: 0, -ENOMEM.
 */
SAMPO_API int sampo_profile__add_stacks(struct sampo_profile *profile, const char *host,
					struct sampo_session *session,
					const struct sampo_hists *hists);

/**
 * sampo_profile__merge() - add every row and total of @src to @dst
 *
 * Return: 0, -ENOMEM.
 */
SAMPO_API int sampo_profile__merge(struct sampo_profile *dst, const struct sampo_profile *src);

/**
 * sampo_profile__host_label() - the host label of an open file: its
 * HOSTNAME feature, else @path. Borrowed from the session or @path.
 */
SAMPO_API const char *sampo_profile__host_label(struct sampo_session *session,
						const char *path);

/**
 * sampo_profile__read_files() - read @nr files into @profile
 * @paths: perf.data files (not pipes)
 * @opts: histograms, symbols, threads; may be NULL
 *
 * Each file is opened in a session of its own, its samples symbolized by
 * its own kernel and build-ids, and its rows added under its host label.
 * Workers take the files in turn. The first file that fails stops the
 * others; its one-line reason (naming the file) is in @opts->errbuf.
 *
 * Return: 0, -ENOMEM, or the failing file's error (negative errno).
 */
SAMPO_API int sampo_profile__read_files(struct sampo_profile *profile, const char *const *paths,
					size_t nr, const struct sampo_profile_opts *opts);

/**
 * sampo_profile__current_file() - the file that the calling thread is
 * reading in sampo_profile__read_files(), NULL outside it: a print hook
 * (sampo_set_print()) can say which file a warning is about
 */
SAMPO_API const char *sampo_profile__current_file(void);

/** sampo_profile__nr_rows() / __row() - the rows, in no particular order */
SAMPO_API size_t sampo_profile__nr_rows(const struct sampo_profile *profile);
SAMPO_API const struct sampo_profile_row *sampo_profile__row(const struct sampo_profile *profile,
							     size_t idx);

/**
 * sampo_profile__nr_stacks() / __stack() - the distinct stacks (with
 * .stacks), in no particular order; the pointer is valid until the profile
 * changes
 */
SAMPO_API size_t sampo_profile__nr_stacks(const struct sampo_profile *profile);
SAMPO_API const struct sampo_profile_stack *
sampo_profile__stack(const struct sampo_profile *profile, size_t idx);
/** sampo_profile__nr_frames() / __frame() - the frames of the stacks */
SAMPO_API size_t sampo_profile__nr_frames(const struct sampo_profile *profile);
SAMPO_API const struct sampo_profile_frame *
sampo_profile__frame(const struct sampo_profile *profile, size_t idx);

/**
 * sampo_profile__dso_label() - how to name a shared object of the profile:
 * @dso alone, or "dso@<12 hex digits of @dso_id>" written to @buf when
 * the name stands for more than one build-id among the rows and frames
 * (two versions of one path). Return: @dso, @buf, or "[unknown]" for NULL.
 */
SAMPO_API const char *sampo_profile__dso_label(const struct sampo_profile *profile,
					       const char *dso, const char *dso_id, char *buf,
					       size_t size);

/**
 * sampo_profile__write_perf_data() - the profile's stacks as a perf.data
 * file that perf 6.1 reads (the profile must have been read with .stacks)
 * @path: the file to create ("-": standard output)
 * @errbuf: where the one-line reason for a failure goes (names @path)
 *
 * One perf.data holds one machine, so the file carries resolved frames:
 * every distinct frame is a KSYMBOL named "dso:symbol" at a made-up kernel
 * address, each (host, command) a thread named "host/command", each
 * distinct stack one SAMPLE with its summed period and the frames as its
 * callchain. perf report shows the merge's periods, percentages and call
 * graphs by those names (all "[k]"); its sample counts are those of the
 * distinct stacks. See docs/sampo-merge.md.
 *
 * Return: 0, -E2BIG (more frames than the made-up address range holds),
 * -ENOMEM, or the writer's error.
 */
SAMPO_API int sampo_profile__write_perf_data(const struct sampo_profile *profile, const char *path,
					     char *errbuf, size_t errbuf_sz);

/** sampo_profile__nr_events() / __event_name() - the events, joined by name across files */
SAMPO_API size_t sampo_profile__nr_events(const struct sampo_profile *profile);
SAMPO_API const char *sampo_profile__event_name(const struct sampo_profile *profile, size_t event);
/** sampo_profile__event_nr_samples() - the samples of @event that passed the filters */
SAMPO_API uint64_t sampo_profile__event_nr_samples(const struct sampo_profile *profile,
						   size_t event);
/** sampo_profile__event_total_period() - their summed period (the percentages' base) */
SAMPO_API uint64_t sampo_profile__event_total_period(const struct sampo_profile *profile,
						     size_t event);
/** sampo_profile__lost() - the lost samples of every file (LOST and LOST_SAMPLES) */
SAMPO_API uint64_t sampo_profile__lost(const struct sampo_profile *profile);
/** sampo_profile__nr_files() - how many files went in */
SAMPO_API size_t sampo_profile__nr_files(const struct sampo_profile *profile);

#endif /* SAMPO_PROFILE_H */
