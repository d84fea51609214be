// SPDX-License-Identifier: LGPL-2.1
/*
 * symbolizer-provenance.c - what the loaders record about the file they
 * chose (or about the files they refused), so that a report can say for
 * each DSO where its symbols came from or why it has none, and which
 * command would fix it; and the debuginfod step of the lookup chain, the
 * loaders' last resort (lib/debuginfod.c does the fetching).
 *
 * Runs on the loader threads, writing only the source being loaded.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sampo/buildid.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>
#include "internal/debuginfod.h"
#include "internal/strbuf.h"
#include "internal/symbolizer.h"
#include "internal/util.h"

uint16_t sampo_symbolizer__arch_machine(const char *arch)
{
	static const struct {
		const char *prefix;
		uint16_t machine;
	} arches[] = {
		{ "x86_64", EM_X86_64 }, { "i386", EM_386 },	{ "i486", EM_386 },
		{ "i586", EM_386 },	 { "i686", EM_386 },	{ "aarch64", EM_AARCH64 },
		{ "arm64", EM_AARCH64 }, { "arm", EM_ARM },	{ "ppc64", EM_PPC64 },
		{ "ppc", EM_PPC },	 { "s390", EM_S390 },	{ "riscv", EM_RISCV },
		{ "mips", EM_MIPS },	 { "sparc64", EM_SPARCV9 }, { "loongarch", 258 },
	};

	if (!arch)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++) {
		if (!strncmp(arch, arches[i].prefix, strlen(arches[i].prefix)))
			return arches[i].machine;
	}
	return 0;
}

/* e_machine of an ELF file (either byte order); 0 when not ELF or unreadable */
static uint16_t file_machine(const char *path)
{
	unsigned char h[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = pread(fd, h, sizeof(h), 0);
	close(fd);
	if (n != (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG))
		return 0;
	return h[EI_DATA] == ELFDATA2MSB ? (uint16_t)(h[18] << 8 | h[19]) :
					   (uint16_t)(h[19] << 8 | h[18]);
}

void sampo_symbolizer__note_found(const struct sampo_symbolizer *s, struct sampo_sym_src *src,
				  const char *path, const struct sampo_build_id *found,
				  bool unreadable)
{
	uint16_t m;

	if (src->found_path)
		return; /* the first file found is the one named */
	src->found_path = strdup(path);
	if (found)
		src->found_bid = *found;
	src->found_unreadable = unreadable;
	m = s->e_machine ? file_machine(path) : 0;
	src->found_wrong_arch = m && m != s->e_machine;
}

bool sampo_symbolizer__elf_stripped(const char *path, const struct sampo_build_id *bid)
{
	bool symtab = false;
	char *debug = NULL;
	Elf_Scn *scn = NULL;
	Elf *elf;
	int fd;

	(void)elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (elf && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			symtab = true;
			break;
		}
	}
	elf_end(elf);
	close(fd);
	if (symtab)
		return false;
	/* what sampo_symtab__load_elf() reads in its place */
	if (!sampo_elf__find_debug_file(path, bid && bid->size ? bid : NULL, NULL, &debug)) {
		free(debug);
		return false;
	}
	return true;
}

void sampo_symbolizer__settle(struct sampo_sym_src *src, bool done, int origin, bool mismatched,
			      const struct sampo_strbuf *tried)
{
	if (tried && tried->buf && !src->tried)
		src->tried = strdup(tried->buf);
	if (done) {
		src->origin = origin;
		src->missing = src->symtab && !sampo_symtab__nr(src->symtab) ?
				       SAMPO_MISSING_NO_SYMBOLS :
				       SAMPO_MISSING_NONE;
		return;
	}
	src->origin = SAMPO_ORIGIN_NONE;
	if (src->found_wrong_arch)
		src->missing = SAMPO_MISSING_WRONG_ARCH;
	else if (mismatched && src->bid.size)
		src->missing = SAMPO_MISSING_BUILD_ID_MISMATCH;
	else if (src->found_path)
		src->missing = SAMPO_MISSING_UNREADABLE;
	else if (!src->bid.size)
		src->missing = SAMPO_MISSING_NO_BUILD_ID;
	else
		src->missing = SAMPO_MISSING_FILE;
}

char *sampo_symbolizer__debuginfod(const struct sampo_symbolizer *s, struct sampo_sym_src *src,
				   int kind, const char *cache_kind, struct sampo_strbuf *tried)
{
	char *path = NULL;
	int err;

	if (!s->dbgd || !src->bid.size)
		return NULL;
	err = sampo_debuginfod__fetch(s->dbgd, s->buildid_dir, src->name, &src->bid,
				      (enum sampo_debuginfod_kind)kind, cache_kind, &path);
	if (err) {
		sampo_strbuf__addf(tried, "%sdebuginfod %s (%s)", tried->len ? ", " : "",
				   kind == SAMPO_DEBUGINFOD_EXECUTABLE ? "executable" : "debuginfo",
				   err == -ENOENT     ? "not there" :
				   err == -EHOSTDOWN  ? "not asked: the servers failed earlier" :
				   err == -ETIME      ? "timed out" :
							strerror(-err));
		return NULL;
	}
	return path;
}

const char *sampo_symbol_origin__name(int origin)
{
	switch (origin) {
	case SAMPO_ORIGIN_PATH:
		return "recorded path";
	case SAMPO_ORIGIN_SYMFS:
		return "symfs";
	case SAMPO_ORIGIN_BUILDID_CACHE:
		return "build-id cache";
	case SAMPO_ORIGIN_ARCHIVE:
		return "archive";
	case SAMPO_ORIGIN_DEBUGINFOD:
		return "debuginfod";
	case SAMPO_ORIGIN_EMBEDDED:
		return "embedded";
	case SAMPO_ORIGIN_KALLSYMS_SNAPSHOT:
		return "kallsyms snapshot";
	case SAMPO_ORIGIN_KALLSYMS_LIVE:
		return "running kernel's kallsyms";
	case SAMPO_ORIGIN_VMLINUX:
		return "vmlinux";
	case SAMPO_ORIGIN_MODULES_DIR:
		return "modules directory";
	case SAMPO_ORIGIN_VDSO_LIVE:
		return "running kernel's vdso";
	case SAMPO_ORIGIN_PERF_MAP:
		return "perf map";
	case SAMPO_ORIGIN_KSYMBOL:
		return "ksymbol record";
	default:
		return "none";
	}
}

const char *sampo_symbol_missing__name(int missing)
{
	switch (missing) {
	case SAMPO_MISSING_NO_FILE:
		return "no file (anonymous memory)";
	case SAMPO_MISSING_NO_BUILD_ID:
		return "no build-id recorded";
	case SAMPO_MISSING_FILE:
		return "file missing";
	case SAMPO_MISSING_BUILD_ID_MISMATCH:
		return "build-id mismatch";
	case SAMPO_MISSING_WRONG_ARCH:
		return "wrong architecture";
	case SAMPO_MISSING_NO_SYMBOLS:
		return "no symbols (stripped)";
	case SAMPO_MISSING_UNREADABLE:
		return "unreadable";
	case SAMPO_MISSING_REPLACED:
		return "replaced while recording";
	case SAMPO_MISSING_NOT_RELOCATABLE:
		return "cannot be relocated";
	default:
		return "";
	}
}
