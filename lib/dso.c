// SPDX-License-Identifier: LGPL-2.1
/*
 * dso.c - the DSOs of a machine (include/sampo/dso.h): one object per
 * mapped file, kernel, module or BPF program, with perf's long and short
 * names, the identity an MMAP2 gave it (dev/inode/generation, or a
 * build-id) and, for kernel modules, perf's kmod_path rules.
 *
 * A DSO is reference counted and shared: every map of it holds a
 * reference, and so does its machine's DSO table (lib/machine.c), which
 * finds and creates DSOs by name and identity. Once created, only the
 * build-id of a DSO may still change (an MMAP2 or the kernel's build-id
 * arriving later); its names never do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/dso.h>
#include "internal/dso.h"
#include "internal/util.h"

static const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static bool str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- kernel modules ----------------------------------------------------- */

/*
 * perf's kmod_path__parse_name(): is @path a kernel module, and what is its
 * DSO short name? "[name]" is a module unless it names the kernel, a guest
 * kernel or a vdso; a path is a module when it ends in .ko (possibly
 * compressed), and its name becomes "[base]" with '-' turned into '_'.
 * @ret_name: optional; a malloc'ed short name.
 */
int sampo_kmod__parse(const char *path, bool *ret_kmod, char **ret_name)
{
	static const char *const not_kmod[] = {
		"[kernel.kallsyms]", "[guest.kernel.kallsyms", "[vdso]", "[vdso32]", "[vdsox32]",
		"[vsyscall]",
	};
	static const char *const comp_ext[] = { ".gz", ".xz", ".zst", ".bz2", ".lzma", ".lz4" };
	const char *name = path_basename(path);
	const char *ext = strrchr(path, '.');
	bool kmod = false;
	char *out;

	if (name[0] == '[') {
		kmod = true;
		for (size_t i = 0; i < ARRAY_SIZE(not_kmod); i++) {
			if (str_starts(name, not_kmod[i]))
				kmod = false;
		}
		ext = NULL;
	}
	if (ext) {
		for (size_t i = 0; i < ARRAY_SIZE(comp_ext); i++) {
			if (!strcmp(ext, comp_ext[i])) {
				/* perf steps back over a 3-character ".ko" before the compression suffix */
				ext = ext - 3 >= path ? ext - 3 : path;
				break;
			}
		}
		if (ext > name)
			kmod = !strncmp(ext, ".ko", 3);
	}
	*ret_kmod = kmod;
	if (!ret_name)
		return 0;
	if (kmod && ext && name[0] != '[') {
		int n = (int)(ext - name);

		out = malloc((size_t)n + 3);
		if (out)
			snprintf(out, (size_t)n + 3, "[%.*s]", n, name);
	} else {
		out = strdup(name);
	}
	if (!out)
		return -ENOMEM;
	if (ext && name[0] != '[') {
		for (char *c = out; *c; c++) {
			if (*c == '-')
				*c = '_';
		}
	}
	*ret_name = out;
	return 0;
}

bool sampo_kmod__is_module(const char *path)
{
	bool kmod = false;

	(void)sampo_kmod__parse(path, &kmod, NULL);
	return kmod;
}

int sampo_kmod__name(const char *path, char **ret_name)
{
	bool kmod;

	return sampo_kmod__parse(path, &kmod, ret_name);
}

/* ---- DSOs --------------------------------------------------------------- */

struct sampo_dso *sampo_dso__new(const char *long_name, const char *short_name)
{
	struct sampo_dso *dso = calloc(1, sizeof(*dso));
	char jit[32];
	int tid;

	if (!dso)
		return NULL;
	/* perf's dso__set_basename(): a JIT's perf map is "[JIT] tid N" */
	if (!short_name && sscanf(long_name, "/tmp/perf-%d.map", &tid) == 1) {
		snprintf(jit, sizeof(jit), "[JIT] tid %d", tid);
		short_name = jit;
	}
	dso->refcnt = 1;
	dso->machine_pid = -1;
	dso->long_name = strdup(long_name);
	dso->short_name = strdup(short_name ? short_name : path_basename(long_name));
	if (!dso->long_name || !dso->short_name) {
		free(dso->long_name);
		free(dso->short_name);
		free(dso);
		return NULL;
	}
	return dso;
}

struct sampo_dso *sampo_dso__get(struct sampo_dso *dso)
{
	if (dso)
		dso->refcnt++;
	return dso;
}

void sampo_dso__put(struct sampo_dso *dso)
{
	if (!dso || --dso->refcnt > 0)
		return;
	free(dso->long_name);
	free(dso->short_name);
	free(dso);
}

const char *sampo_dso__long_name(const struct sampo_dso *dso)
{
	return dso->long_name;
}

const char *sampo_dso__short_name(const struct sampo_dso *dso)
{
	return dso->short_name;
}

bool sampo_dso__is_kernel(const struct sampo_dso *dso)
{
	return dso->space != SAMPO_DSO_SPACE_USER;
}

int32_t sampo_dso__machine_pid(const struct sampo_dso *dso)
{
	return dso->machine_pid;
}

uint64_t sampo_dso__inode(const struct sampo_dso *dso)
{
	return dso->id.ino;
}

const uint8_t *sampo_dso__build_id(const struct sampo_dso *dso, size_t *size)
{
	*size = dso->build_id_size;
	return dso->build_id_size ? dso->build_id : NULL;
}

void sampo_dso__set_build_id(struct sampo_dso *dso, const uint8_t *bid, size_t size)
{
	if (size > SAMPO_BUILD_ID_MAX)
		size = SAMPO_BUILD_ID_MAX;
	memcpy(dso->build_id, bid, size);
	dso->build_id_size = (uint8_t)size;
}

bool sampo_dso_id__empty(const struct sampo_dso_id *id)
{
	return !id->maj && !id->min && !id->ino && !id->ino_generation;
}
