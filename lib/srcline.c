// SPDX-License-Identifier: LGPL-2.1
/*
 * srcline.c - source lines and inline chains from DWARF, through libdw.
 *
 * An address's compilation unit comes from .debug_aranges (dwarf_addrdie),
 * its line from the CU's line table (dwarf_getsrc_die), and its inline
 * chain from the scopes that contain it: the innermost function from
 * dwarf_getscopes, and when that is an inlined instance, the scopes around
 * that instance (dwarf_getscopes_die; dwarf_getscopes itself goes on with
 * the abstract origin's scopes there, not the caller's): each
 * DW_TAG_inlined_subroutine is a function whose call site
 * (DW_AT_call_file, DW_AT_call_line) is the line shown in the scope around
 * it, up to the DW_TAG_subprogram that holds the code. Names come through
 * DW_AT_abstract_origin (dwarf_diename integrates it), as inlined instances
 * carry no name of their own.
 *
 * A file without .debug_info (stripped) is replaced by its separate debug
 * file when one is found; the ELF handle and the Dwarf stay open until
 * close, since every string handed out points into them.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sampo/buildid.h>
#include <sampo/srcline.h>
#include <sampo/symbol.h>

struct sampo_srcline {
	int fd;
	Dwarf *dw;
};

/* @path's DWARF, if it has a line table in at least one unit */
static int open_dwarf(const char *path, struct sampo_srcline *sl)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	bool has_units = false;

	sl->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (sl->fd < 0)
		return -errno;
	sl->dw = dwarf_begin(sl->fd, DWARF_C_READ);
	if (sl->dw && dwarf_nextcu(sl->dw, off, &next, &hsize, NULL, NULL, NULL) == 0)
		has_units = true;
	if (!has_units) {
		if (sl->dw)
			dwarf_end(sl->dw);
		sl->dw = NULL;
		close(sl->fd);
		sl->fd = -1;
		return -ENOENT;
	}
	return 0;
}

int sampo_srcline__open(const char *path, const struct sampo_build_id *build_id,
			struct sampo_srcline **ret)
{
	struct sampo_srcline *sl;
	char *debug = NULL;
	int err;

	*ret = NULL;
	sl = calloc(1, sizeof(*sl));
	if (!sl)
		return -ENOMEM;
	sl->fd = -1;
	err = open_dwarf(path, sl);
	if (err && sampo_elf__find_debug_file(path, build_id, NULL, &debug) == 0) {
		err = open_dwarf(debug, sl);
		free(debug);
	}
	if (err) {
		free(sl);
		return err;
	}
	*ret = sl;
	return 0;
}

void sampo_srcline__close(struct sampo_srcline *sl)
{
	if (!sl)
		return;
	dwarf_end(sl->dw);
	if (sl->fd >= 0)
		close(sl->fd);
	free(sl);
}

/* the name of file number @idx of @cu's line table header */
static const char *cu_file(Dwarf_Die *cu, Dwarf_Word idx)
{
	Dwarf_Files *files;
	size_t nfiles;

	if (dwarf_getsrcfiles(cu, &files, &nfiles) || idx >= nfiles)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

static void set_decl(struct sampo_srcline_frame *f, Dwarf_Die *die)
{
	int line = 0;

	f->function = dwarf_diename(die);
	f->decl_file = dwarf_decl_file(die);
	f->decl_line = dwarf_decl_line(die, &line) == 0 && line > 0 ? (uint32_t)line : 0;
}

int sampo_srcline__find(struct sampo_srcline *sl, uint64_t addr,
			struct sampo_srcline_frame *frames, size_t max, size_t *ret_nr)
{
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Line *line;
	const char *file = NULL;
	uint32_t lineno = 0;
	size_t n = 0;
	int nscopes;

	*ret_nr = 0;
	if (!max || !dwarf_addrdie(sl->dw, addr, &cu))
		return -ENOENT;
	line = dwarf_getsrc_die(&cu, addr);
	if (line) {
		int l = 0;

		file = dwarf_linesrc(line, NULL, NULL);
		if (dwarf_lineno(line, &l) == 0 && l > 0)
			lineno = (uint32_t)l;
	}
	/*
	 * The innermost function at @addr; past an inlined instance,
	 * dwarf_getscopes() goes on with its abstract origin's scopes, so the
	 * chain of callers comes from the concrete instance's own scopes.
	 */
	nscopes = dwarf_getscopes(&cu, addr, &scopes);
	for (int i = 0; i < nscopes; i++) {
		int tag = dwarf_tag(&scopes[i]);
		Dwarf_Die inner;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		inner = scopes[i];
		free(scopes);
		scopes = NULL;
		nscopes = tag == DW_TAG_subprogram ? 0 : dwarf_getscopes_die(&inner, &scopes);
		if (tag == DW_TAG_subprogram || nscopes <= 0) {
			memset(&frames[0], 0, sizeof(frames[0]));
			set_decl(&frames[0], &inner);
			frames[0].file = file;
			frames[0].line = lineno;
			n = 1;
			nscopes = 0;
		}
		break;
	}
	/* scopes[0] is the inlined instance itself, then the scopes around it */
	for (int i = 0; i < nscopes && n < max; i++) {
		Dwarf_Die *die = &scopes[i];
		int tag = dwarf_tag(die);
		Dwarf_Attribute attr;
		Dwarf_Word w;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		memset(&frames[n], 0, sizeof(frames[n]));
		set_decl(&frames[n], die);
		frames[n].file = file;
		frames[n].line = lineno;
		n++;
		if (tag == DW_TAG_subprogram)
			break;
		/* the caller's line is this inlined call's site */
		file = NULL;
		lineno = 0;
		if (dwarf_attr(die, DW_AT_call_file, &attr) && dwarf_formudata(&attr, &w) == 0)
			file = cu_file(&cu, w);
		if (dwarf_attr(die, DW_AT_call_line, &attr) && dwarf_formudata(&attr, &w) == 0)
			lineno = (uint32_t)w;
	}
	free(scopes);
	if (!n) {
		/* a line but no function DIE (assembly): the line alone */
		memset(&frames[0], 0, sizeof(frames[0]));
		frames[0].file = file;
		frames[0].line = lineno;
		n = file || lineno ? 1 : 0;
	}
	*ret_nr = n;
	return n ? 0 : -ENOENT;
}

int sampo_srcline__find_line(struct sampo_srcline *sl, uint64_t addr,
			     struct sampo_srcline_frame *ret)
{
	Dwarf_Die cu;
	Dwarf_Line *line;
	int l = 0;

	memset(ret, 0, sizeof(*ret));
	if (!dwarf_addrdie(sl->dw, addr, &cu))
		return -ENOENT;
	line = dwarf_getsrc_die(&cu, addr);
	if (!line)
		return -ENOENT;
	ret->file = dwarf_linesrc(line, NULL, NULL);
	if (dwarf_lineno(line, &l) == 0 && l > 0)
		ret->line = (uint32_t)l;
	return ret->file || ret->line ? 0 : -ENOENT;
}
