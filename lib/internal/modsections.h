/* SPDX-License-Identifier: LGPL-2.1 */
/* internal/modsections.h - the body of a module section map set (lib/modsections.c) */
#ifndef SAMPO_INTERNAL_MODSECTIONS_H
#define SAMPO_INTERNAL_MODSECTIONS_H

#include <stddef.h>

#include <sampo/buildid.h>
#include <sampo/modsections.h>
#include <sampo/symbol.h>

struct modsec_module {
	char *name; /* '-' made '_' */
	struct sampo_build_id bid;
	struct sampo_section_addr *secs; /* names owned */
	size_t nr;
};

struct sampo_module_sections {
	struct modsec_module *mods;
	size_t nr, cap;
};

#endif
