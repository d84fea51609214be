// SPDX-License-Identifier: LGPL-2.1
/*
 * symbolizer-loader.c - the symbolizer's sources and the threads that load
 * them: finding or creating the source for (kind, name, build-id), loading
 * one from the caller's thread or waiting for the thread loading it, and
 * the preload threads started at __new() for the first MAX_PRELOAD_SOURCES
 * files of the build-id table (the others, like every DSO without an entry,
 * load when a sample first needs them: a table of 120k entries no sample
 * touches costs no loading).
 *
 * A source goes PENDING -> LOADING (by one thread) -> DONE under s->lock;
 * the loaders themselves (symbolizer-user.c, -kernel.c, -module.c) write
 * only their source. See lib/symbolizer.c for the whole picture.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sampo/buildid.h>
#include <sampo/kmodule.h>
#include <sampo/symbol.h>
#include "internal/hash.h"
#include "internal/log.h"
#include "internal/path.h"
#include "internal/symbolizer.h"

/* ---- sources and the loader threads ---------------------------------------------------------- */

static void src_load(struct sampo_symbolizer *s, struct sampo_sym_src *src)
{
	if (src->kind == SRC_KALLSYMS)
		sampo_symbolizer__load_kallsyms(s, src);
	else if (src->kind == SRC_KERNEL)
		sampo_symbolizer__load_kernel(s, src);
	else if (src->kind == SRC_MODULE)
		sampo_symbolizer__load_module(s, src);
	else
		sampo_symbolizer__load_user(s, src);
}

void sampo_symbolizer__src_free(struct sampo_sym_src *src)
{
	sampo_symtab__delete(src->symtab);
	free(src->hits);
	free(src->name);
	free(src->hint);
	free(src->path);
	free(src->warning);
	free(src->debug);
	free(src->found_path);
	free(src->tried);
	free(src);
}

/*
 * A source's identity: its kind and recorded build-id, and its name unless
 * the build-id says which file it is (the kernel's sources have one name).
 * A build-id table naming one file many ways makes one source.
 */
static bool src_by_name(enum src_kind kind, const struct sampo_build_id *bid)
{
	return kind == SRC_MODULE || (kind == SRC_USER && !bid->size);
}

static uint64_t src_hash(enum src_kind kind, const char *name, const struct sampo_build_id *bid)
{
	uint64_t h = hash_combine((uint64_t)kind, bid->size);

	for (size_t i = 0; i < bid->size; i++)
		h = hash_combine(h, bid->data[i]);
	if (src_by_name(kind, bid))
		h = hash_combine(h, hash_str(name));
	return h;
}

/* Find or create (PENDING) the source for (kind, name, bid). Caller holds s->lock. */
struct sampo_sym_src *sampo_symbolizer__src_findnew_locked(struct sampo_symbolizer *s,
							   enum src_kind kind, const char *name,
							   const struct sampo_build_id *bid,
							   const char *hint)
{
	struct sampo_hash_index *ix = &s->src_ix;
	uint64_t h = src_hash(kind, name, bid);
	struct sampo_sym_src *src;
	size_t j;

	if ((ix->nr + 1) * 2 > ix->cap && sampo_hash_index__grow(ix))
		return NULL;
	for (j = h & (ix->cap - 1); ix->slots[j]; j = (j + 1) & (ix->cap - 1)) {
		src = s->src_arr[ix->slots[j] - 1];
		if (ix->hashes[j] != h || src->kind != kind ||
		    !sampo_build_id__equal(&src->bid, bid))
			continue;
		if (!src_by_name(kind, bid) || !strcmp(src->name, name))
			return src;
	}
	if (sampo_array_grow((void **)&s->src_arr, &s->src_arr_cap, s->nr_src_arr + 1,
			     sizeof(*s->src_arr)))
		return NULL;
	src = calloc(1, sizeof(*src));
	if (!src)
		return NULL;
	src->kind = kind;
	src->bid = *bid;
	src->name = strdup(name);
	/* the recorded module path, tried as is and under --symfs: never one that climbs */
	if (hint && hint[0] == '/' && sampo_path__is_clean(hint))
		src->hint = strdup(hint);
	else
		hint = NULL;
	if (!src->name || (hint && !src->hint)) {
		free(src->name);
		free(src->hint);
		free(src);
		return NULL;
	}
	src->next = s->sources;
	s->sources = src;
	s->src_arr[s->nr_src_arr++] = src;
	ix->slots[j] = (uint32_t)s->nr_src_arr;
	ix->hashes[j] = h;
	ix->nr++;
	return src;
}

/* Load @src, or wait for the thread loading it. */
void sampo_symbolizer__src_ensure(struct sampo_symbolizer *s, struct sampo_sym_src *src)
{
	pthread_mutex_lock(&s->lock);
	if (src->state == SRC_PENDING) {
		src->state = SRC_LOADING;
		pthread_mutex_unlock(&s->lock);
		src_load(s, src);
		pthread_mutex_lock(&s->lock);
		src->state = SRC_DONE;
		pthread_cond_broadcast(&s->cond);
	}
	while (src->state != SRC_DONE)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);

	if (!src->warned) {
		src->warned = true;
		if (src->warning)
			pr_warn("%s\n", src->warning);
		if (src->debug)
			pr_debug("%s\n", src->debug);
	}
}

static void *preload_main(void *arg)
{
	struct sampo_symbolizer *s = arg;

	pthread_mutex_lock(&s->lock);
	while (!s->stop && s->next_preload < s->nr_preload) {
		struct sampo_sym_src *src = s->preload[s->next_preload++];

		if (src->state != SRC_PENDING)
			continue;
		src->state = SRC_LOADING;
		pthread_mutex_unlock(&s->lock);
		src_load(s, src);
		pthread_mutex_lock(&s->lock);
		src->state = SRC_DONE;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

int sampo_symbolizer__start_preload(struct sampo_symbolizer *s)
{
	size_t nr = 0;
	long ncpu;

	s->preload = calloc(s->nr_bids ? s->nr_bids : 1, sizeof(*s->preload));
	if (!s->preload)
		return -ENOMEM;
	pthread_mutex_lock(&s->lock);
	for (size_t i = 0; i < s->nr_bids && nr < MAX_PRELOAD_SOURCES; i++) {
		const struct sampo_sym_bid *b = &s->bids[i];
		struct sampo_sym_src *src;

		if (b->kmod) {
			char *name = sampo_module__name(b->name);

			src = name ? sampo_symbolizer__src_findnew_locked(s, SRC_MODULE, name,
									  &b->bid, b->name) :
				     NULL;
			free(name);
		} else if (b == s->kernel_bid)
			src = sampo_symbolizer__src_findnew_locked(
				s, SRC_KERNEL, "[kernel.kallsyms]", &b->bid, NULL);
		else if (!sampo_symbolizer__is_kernel_mode(b->cpumode))
			src = sampo_symbolizer__src_findnew_locked(s, SRC_USER, b->name, &b->bid,
								   NULL);
		else
			continue;
		/* a table that names one file many ways preloads it once */
		if (src && src->state == SRC_PENDING && !src->queued) {
			src->queued = true;
			s->preload[nr++] = src;
		}
	}
	s->nr_preload = nr;
	pthread_mutex_unlock(&s->lock);

	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	for (size_t i = 0; i < MAX_PRELOAD_THREADS && i < nr; i++) {
		/* one thread per CPU beyond the caller's; always at least one */
		if (i > 0 && ncpu > 0 && (long)i + 1 >= ncpu + 1)
			break;
		if (pthread_create(&s->threads[i], NULL, preload_main, s))
			break;
		s->nr_threads++;
	}
	return 0;
}
