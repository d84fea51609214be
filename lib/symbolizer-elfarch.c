// SPDX-License-Identifier: LGPL-2.1
/*
 * symbolizer-elfarch.c - is a file built for the recording's machine?
 *
 * A DSO recorded without a build-id is looked up by its path, and the file
 * at that path here may be built for another machine (an ARMv7 phone's
 * /usr/bin/watch is x86-64 on this laptop): its symbols would name the
 * samples wrongly. The recording's ARCH feature (uname -m) says which ELF
 * machines it runs (a 64-bit kernel runs its 32-bit programs too), with
 * their class and byte order; any other ELF file is refused. Without an
 * ARCH, or for an architecture not in the table, nothing is refused.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal/symbolizer.h"
#include "internal/util.h"

#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif
#ifndef EM_RISCV
#define EM_RISCV 243
#endif

/* the ELF files a machine runs: up to two (machine, class), one byte order */
struct arch_elf {
	const char *name; /* uname -m; a trailing '*' matches any suffix */
	uint16_t machine[2];
	uint8_t class[2]; /* ELFCLASS32/64; 0: any */
	uint8_t data;	  /* ELFDATA2LSB or ELFDATA2MSB */
};

static const struct arch_elf arch_elfs[] = {
	{ "x86_64", { EM_X86_64, EM_386 }, { 0, ELFCLASS32 }, ELFDATA2LSB }, /* x32 too */
	{ "amd64", { EM_X86_64, EM_386 }, { 0, ELFCLASS32 }, ELFDATA2LSB },
	{ "i?86", { EM_386, EM_386 }, { ELFCLASS32, ELFCLASS32 }, ELFDATA2LSB },
	{ "aarch64", { EM_AARCH64, EM_ARM }, { ELFCLASS64, ELFCLASS32 }, ELFDATA2LSB },
	{ "arm64", { EM_AARCH64, EM_ARM }, { ELFCLASS64, ELFCLASS32 }, ELFDATA2LSB },
	{ "arm*", { EM_ARM, EM_ARM }, { ELFCLASS32, ELFCLASS32 }, ELFDATA2LSB },
	{ "ppc64le", { EM_PPC64, EM_PPC64 }, { ELFCLASS64, ELFCLASS64 }, ELFDATA2LSB },
	{ "ppc64", { EM_PPC64, EM_PPC }, { ELFCLASS64, ELFCLASS32 }, ELFDATA2MSB },
	{ "ppc", { EM_PPC, EM_PPC }, { ELFCLASS32, ELFCLASS32 }, ELFDATA2MSB },
	{ "s390x", { EM_S390, EM_S390 }, { 0, 0 }, ELFDATA2MSB },
	{ "riscv64", { EM_RISCV, EM_RISCV }, { ELFCLASS64, ELFCLASS64 }, ELFDATA2LSB },
};

static bool arch_matches(const char *pattern, const char *arch)
{
	for (; *pattern; pattern++, arch++) {
		if (*pattern == '*')
			return true;
		if (*pattern != '?' && *pattern != *arch)
			return false;
		if (!*arch)
			return false;
	}
	return !*arch;
}

static const char *machine_name(uint16_t m)
{
	switch (m) {
	case EM_X86_64:
		return "x86-64";
	case EM_386:
		return "i386";
	case EM_AARCH64:
		return "AArch64";
	case EM_ARM:
		return "ARM";
	case EM_PPC64:
		return "PowerPC64";
	case EM_PPC:
		return "PowerPC";
	case EM_S390:
		return "S/390";
	case EM_RISCV:
		return "RISC-V";
	default:
		return NULL;
	}
}

bool sampo_symbolizer__elf_fits(const struct sampo_symbolizer *s, const char *path, char *why,
				size_t why_sz)
{
	const struct arch_elf *a = NULL;
	unsigned char h[20];
	uint16_t machine;
	const char *mname;
	ssize_t n;
	int fd;

	if (!s->arch)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(arch_elfs) && !a; i++)
		if (arch_matches(arch_elfs[i].name, s->arch))
			a = &arch_elfs[i];
	if (!a)
		return true;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true; /* the loader says why it cannot read it */
	n = pread(fd, h, sizeof(h), 0);
	close(fd);
	if (n != (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG))
		return true; /* not an ELF file: not this check's business */
	machine = h[EI_DATA] == ELFDATA2MSB ? (uint16_t)(h[18] << 8 | h[19]) :
					      (uint16_t)(h[19] << 8 | h[18]);
	for (int i = 0; i < 2; i++) {
		if (machine == a->machine[i] && (!a->class[i] || h[EI_CLASS] == a->class[i]) &&
		    h[EI_DATA] == a->data)
			return true;
	}
	mname = machine_name(machine);
	if (mname)
		snprintf(why, why_sz, "%s %d-bit %s ELF, recorded on %s", mname,
			 h[EI_CLASS] == ELFCLASS64 ? 64 : 32,
			 h[EI_DATA] == ELFDATA2MSB ? "big-endian" : "little-endian", s->arch);
	else
		snprintf(why, why_sz, "ELF for machine %u (%d-bit %s), recorded on %s",
			 (unsigned int)machine, h[EI_CLASS] == ELFCLASS64 ? 64 : 32,
			 h[EI_DATA] == ELFDATA2MSB ? "big-endian" : "little-endian", s->arch);
	return false;
}
