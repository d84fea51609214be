// SPDX-License-Identifier: LGPL-2.1
/*
 * symbol-elf.c - symbol tables from ELF files, with libelf.
 *
 * Where the symbols come from, in order (the first that has any wins):
 *   1. the file's .symtab;
 *   2. the .symtab of its separate debug file (build-id, then .gnu_debuglink);
 *   3. the MiniDebugInfo (.gnu_debugdata: an xz-compressed ELF whose .symtab
 *      holds the local functions) together with the file's .dynsym;
 *   4. the file's .dynsym.
 * PLT entries are then synthesized from the file's .rela.plt (or .rel.plt) as
 * NAME@plt, as perf's dso__synthesize_plt_symbols() does, and x86-64's
 * .plt.got entries from the GLOB_DAT relocations of their GOT slots.
 *
 * What is kept follows perf 6.1's dso__load_sym(): functions (STT_FUNC,
 * STT_GNU_IFUNC) and objects that are defined and named, in any section,
 * and labels (STT_NOTYPE) in a section whose name contains "text" or "data"
 * (elf_sec__filter() applies to labels only); ARM mapping symbols ($a, $d,
 * $t, $x) are dropped.
 *
 * Addresses: executables and shared objects keep st_value, the file's
 * virtual address; the PT_LOAD headers are stored in the table so that a
 * sample's file offset can be turned into that address
 * (sampo_symtab__offset_to_vaddr()). Relocatable objects have no addresses:
 * each symbol is placed at the load address the caller gives for its section,
 * or at the section's file offset.
 *
 * Names are demangled: C++ through libstdc++'s __cxa_demangle(), looked up at
 * run time with dlopen() so that the library does not link a C++ runtime
 * (names stay mangled when libstdc++ is absent), then cut to what perf 6.1
 * prints (no parameters, see lib/demangle.c), and Rust's legacy mangling
 * (_ZN...17h<hash>E) by hand (lib/demangle-rust.c).
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <lzma.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/buildid.h>
#include <sampo/debuginfo.h>
#include <sampo/symbol.h>
#include "internal/demangle.h"
#include "internal/log.h"
#include "internal/path.h"
#include "internal/symbol.h"
#include "internal/util.h"
#include "internal/opts.h"

/* An embedded MiniDebugInfo is a few hundred KB; refuse to inflate absurd sizes */
#define DEBUGDATA_MAX (256u << 20)
/* SHF_COMPRESSED sections (and MiniDebugInfo) inflate to at most this ratio of the file */
#define SCN_INFLATE_RATIO 64U
#define SCN_INFLATE_MAX (1024U << 20)

struct elf_load_ctx {
	const char *name; /* for messages */
	const char *path; /* NULL for an image in memory */
	bool demangle, plt, debug_file;
	const char *debug_root;
	const char *recorded_name, *symfs, *buildid_dir;
	char *warnbuf;
	size_t warnbuf_sz;
	const struct sampo_build_id *build_id;
	/* symbols of a debug file: moved by the delta of their section (prelink) */
	const int64_t *sec_delta;
	size_t nr_sec_delta;
	const struct sampo_section_addr *sections;
	size_t nr_sections;
	char *errbuf;
	size_t errbuf_sz;
	struct sampo_symtab_builder b;
	/* ET_EXEC (vmlinux): _text and friends, kept aside for KASLR relocation */
	struct sampo_symtab_ref refs[SAMPO_SYMTAB_MAX_REFS];
	size_t nr_refs;
};

static const char *const elf_ref_names[] = { "_text", "_stext", "_etext", "_end" };

/* Remember the first definition of a reference symbol (they share addresses with functions). */
static void elf_note_ref(struct elf_load_ctx *c, const char *name, uint64_t addr)
{
	if (name[0] != '_' || c->nr_refs == ARRAY_SIZE(c->refs))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(elf_ref_names); i++) {
		if (strcmp(name, elf_ref_names[i]))
			continue;
		for (size_t j = 0; j < c->nr_refs; j++) {
			if (!strcmp(c->refs[j].name, name))
				return;
		}
		snprintf(c->refs[c->nr_refs].name, sizeof(c->refs[0].name), "%s", name);
		c->refs[c->nr_refs++].addr = addr;
		return;
	}
}

static int elf_bad(struct elf_load_ctx *c, const char *what)
{
	sampo_symtab__set_err(c->errbuf, c->errbuf_sz, "'%s': %s", c->name, what);
	return -SAMPO_ERR_MALFORMED;
}

/* ---- demangling -------------------------------------------------------------------------- */

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

/*
 * Resolved once per process; an immutable function pointer, not state that
 * two sessions could see differently.
 */
static cxa_demangle_fn cxa_demangle;
static pthread_once_t cxa_once = PTHREAD_ONCE_INIT;

static void cxa_demangle_resolve(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

	if (!h) {
		pr_debug("libstdc++ not found: C++ names stay mangled\n");
		return;
	}
	*(void **)&cxa_demangle = dlsym(h, "__cxa_demangle");
	/* the handle stays open for the life of the process, like the function it gave */
}

char *sampo_demangle__full(const char *name)
{
	char *r;
	int status = -1;

	if (name[0] != '_' || name[1] != 'Z')
		return NULL;
	r = sampo_demangle__rust_legacy(name);
	if (r)
		return r;
	pthread_once(&cxa_once, cxa_demangle_resolve);
	if (!cxa_demangle)
		return NULL;
	r = cxa_demangle(name, NULL, NULL, &status);
	if (status) {
		free(r);
		return NULL;
	}
	return r;
}

/* Return: a malloc'd demangled name, or NULL to keep @name. */
static char *demangle(const char *name)
{
	char *r = sampo_demangle__full(name);

	/* perf 6.1 prints C++ names without their parameters (libiberty's DMGL_NO_OPTS) */
	if (r)
		sampo_demangle__strip_params(r);
	return r;
}

/* ---- sections ---------------------------------------------------------------------------- */

/*
 * The section's data, inflated first when it is SHF_COMPRESSED. The size the
 * compression header announces is what libelf allocates and inflates: it
 * must stay within SCN_INFLATE_RATIO times the whole file and
 * SCN_INFLATE_MAX (a 1 MB file asked for a 1 GB .symtab). @c, when given,
 * gets the reason.
 */
static Elf_Data *scn_data(struct elf_load_ctx *c, Elf *elf, Elf_Scn *scn)
{
	GElf_Shdr shdr;

	if (!gelf_getshdr(scn, &shdr))
		return NULL;
	if (shdr.sh_type == SHT_NOBITS)
		return NULL;
	if (shdr.sh_flags & SHF_COMPRESSED) {
		GElf_Chdr chdr;
		size_t fsize = 0;
		uint64_t max;

		if (!gelf_getchdr(scn, &chdr) || !elf_rawfile(elf, &fsize))
			return NULL;
		max = MIN((uint64_t)SCN_INFLATE_RATIO * fsize, (uint64_t)SCN_INFLATE_MAX);
		if (chdr.ch_size > max) {
			if (c)
				sampo_symtab__set_err(c->errbuf, c->errbuf_sz,
						      "'%s': compressed section at offset %#" PRIx64
						      " inflates to %" PRIu64 " bytes, more than %" PRIu64
						      " (%u times the %zu-byte file, at most %u MiB)",
						      c->name, (uint64_t)shdr.sh_offset,
						      (uint64_t)chdr.ch_size, max, SCN_INFLATE_RATIO,
						      fsize, SCN_INFLATE_MAX >> 20);
			return NULL;
		}
		if (elf_compress(scn, 0, 0) < 0)
			return NULL;
	}
	return elf_getdata(scn, NULL);
}

static Elf_Scn *find_section(Elf *elf, size_t shstrndx, const char *name, GElf_Shdr *ret_shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		const char *n;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		n = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (n && !strcmp(n, name)) {
			if (ret_shdr)
				*ret_shdr = shdr;
			return scn;
		}
	}
	return NULL;
}

static Elf_Scn *find_section_type(Elf *elf, uint32_t type, GElf_Shdr *ret_shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;

		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == type) {
			if (ret_shdr)
				*ret_shdr = shdr;
			return scn;
		}
	}
	return NULL;
}

/* ---- symbols ----------------------------------------------------------------------------- */

static bool is_arm_mapping_symbol(const char *n)
{
	return n[0] == '$' && n[1] && strchr("adtx", n[1]) && (n[2] == '\0' || n[2] == '.');
}

static int ctx_add_name(struct elf_load_ctx *c, uint64_t start, uint64_t size, const char *name,
			int binding, int type, uint16_t aux, bool do_demangle)
{
	char *dm = do_demangle ? demangle(name) : NULL;
	const char *n = dm ? dm : name;
	int err;

	/* STB_GNU_UNIQUE and friends count as global, as in perf */
	if (binding != SAMPO_SYMBOL_LOCAL && binding != SAMPO_SYMBOL_WEAK)
		binding = SAMPO_SYMBOL_GLOBAL;
	err = sampo_symtab_builder__add(&c->b, start, size, n, strlen(n), binding, type, aux);
	free(dm);
	return err;
}

static int ctx_add(struct elf_load_ctx *c, uint64_t start, uint64_t size, const char *name,
		   int binding, int type, uint16_t aux)
{
	return ctx_add_name(c, start, size, name, binding, type, aux, c->demangle);
}

/* Where an ET_REL section is loaded; false to drop its symbols. */
static bool rel_section_base(struct elf_load_ctx *c, const char *secname, const GElf_Shdr *shdr,
			     uint64_t *ret_base)
{
	if (!c->sections) {
		*ret_base = shdr->sh_offset;
		return true;
	}
	for (size_t i = 0; i < c->nr_sections; i++) {
		if (c->sections[i].name && !strcmp(c->sections[i].name, secname)) {
			*ret_base = c->sections[i].addr;
			return true;
		}
	}
	return false;
}

/* Adds the symbols of one symbol table section of @elf. */
static int load_symbols(struct elf_load_ctx *c, Elf *elf, Elf_Scn *symscn)
{
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Data *data, *xndx_data = NULL;
	Elf_Scn *strscn, *xscn;
	size_t shstrndx, nsyms, shnum, symscn_idx;
	uint16_t *sec_aux = NULL; /* ET_REL: aux index + 1 of each section, 0 = not yet */
	int err = 0;

	if (!gelf_getehdr(elf, &ehdr) || !gelf_getshdr(symscn, &shdr))
		return elf_bad(c, "cannot read ELF headers");
	if (elf_getshdrstrndx(elf, &shstrndx) || elf_getshdrnum(elf, &shnum))
		return elf_bad(c, "cannot read section headers");
	if (shdr.sh_link == 0 || shdr.sh_link >= shnum)
		return elf_bad(c, "symbol table has no string table");
	strscn = elf_getscn(elf, shdr.sh_link);
	if (!strscn || !scn_data(c, elf, strscn))
		return c->errbuf && c->errbuf[0] ? -SAMPO_ERR_MALFORMED :
						   elf_bad(c, "cannot read string table");
	data = scn_data(c, elf, symscn);
	if (!data || !data->d_buf)
		return c->errbuf && c->errbuf[0] ? -SAMPO_ERR_MALFORMED :
						   elf_bad(c, "cannot read symbol table");
	if (data->d_type != ELF_T_SYM)
		return elf_bad(c, "symbol table has a bad entry type");
	if (!gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT))
		return elf_bad(c, "bad ELF class");
	nsyms = data->d_size / gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (nsyms > INT_MAX)
		return elf_bad(c, "symbol table too large");

	/* SHN_XINDEX: real section numbers sit in the SHT_SYMTAB_SHNDX linked to this table */
	symscn_idx = elf_ndxscn(symscn);
	xscn = NULL;
	while ((xscn = elf_nextscn(elf, xscn))) {
		GElf_Shdr xs;

		if (gelf_getshdr(xscn, &xs) && xs.sh_type == SHT_SYMTAB_SHNDX &&
		    xs.sh_link == symscn_idx) {
			xndx_data = elf_getdata(xscn, NULL);
			break;
		}
	}

	if (ehdr.e_type == ET_REL) {
		sec_aux = calloc(shnum ? shnum : 1, sizeof(*sec_aux));
		if (!sec_aux)
			return -ENOMEM;
	}

	for (size_t i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		GElf_Shdr sec;
		Elf32_Word xndx = 0;
		Elf_Scn *secscn;
		const char *name, *secname;
		int type, bind, stype;
		size_t shndx;
		uint64_t addr;
		uint16_t aux = 0;

		if (!gelf_getsymshndx(data, xndx_data, (int)i, &sym, &xndx))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		bind = GELF_ST_BIND(sym.st_info);
		if (sym.st_name == 0 || sym.st_shndx == SHN_UNDEF)
			continue;
		if (ehdr.e_type == ET_EXEC && (type == STT_NOTYPE || type == STT_FUNC)) {
			name = elf_strptr(elf, shdr.sh_link, sym.st_name);
			if (name)
				elf_note_ref(c, name, sym.st_value);
		}
		if (type == STT_FUNC || type == STT_GNU_IFUNC)
			stype = SAMPO_SYMBOL_FUNC;
		else if (type == STT_OBJECT)
			stype = SAMPO_SYMBOL_OBJECT;
		else if (type == STT_NOTYPE && sym.st_shndx != SHN_ABS)
			stype = SAMPO_SYMBOL_NOTYPE;
		else
			continue;
		shndx = sym.st_shndx == SHN_XINDEX ? xndx : sym.st_shndx;
		if (shndx == 0 || shndx >= shnum ||
		    (sym.st_shndx >= SHN_LORESERVE && sym.st_shndx != SHN_XINDEX))
			continue;
		name = elf_strptr(elf, shdr.sh_link, sym.st_name);
		if (!name || !name[0])
			continue;
		if ((ehdr.e_machine == EM_ARM || ehdr.e_machine == EM_AARCH64) &&
		    is_arm_mapping_symbol(name))
			continue;
		secscn = elf_getscn(elf, shndx);
		if (!secscn || !gelf_getshdr(secscn, &sec))
			continue;
		secname = elf_strptr(elf, shstrndx, sec.sh_name);
		if (!secname)
			continue;
		/* perf filters only labels by section name: _fini in .fini stays */
		if (stype == SAMPO_SYMBOL_NOTYPE && !strstr(secname, "text") &&
		    !strstr(secname, "data"))
			continue;

		addr = sym.st_value;
		if (c->sec_delta && shndx < c->nr_sec_delta)
			addr += (uint64_t)c->sec_delta[shndx];
		if (ehdr.e_machine == EM_ARM && stype == SAMPO_SYMBOL_FUNC)
			addr &= ~1ULL; /* Thumb bit */
		if (ehdr.e_type == ET_REL) {
			uint64_t base;

			if (!(sec.sh_flags & SHF_ALLOC) ||
			    !rel_section_base(c, secname, &sec, &base))
				continue;
			addr += base;
			if (!sec_aux[shndx]) {
				int a = sampo_symtab_builder__add_aux(&c->b, secname,
								      strlen(secname));

				if (a < 0) {
					err = a;
					goto out;
				}
				sec_aux[shndx] = (uint16_t)a;
			}
			aux = sec_aux[shndx];
		}
		err = ctx_add(c, addr, sym.st_size, name, bind, stype, aux);
		if (err)
			goto out;
	}
out:
	free(sec_aux);
	return err;
}

/*
 * PLT entries: entry i of .plt (after its header) or of .plt.sec (IBT
 * binaries, no header) jumps through relocation i of .rela.plt, whose symbol
 * names it.
 */
static int load_plt(struct elf_load_ctx *c, Elf *elf)
{
	GElf_Ehdr ehdr;
	GElf_Shdr plt, pltsec, rel, dynsym;
	Elf_Scn *plt_scn, *pltsec_scn, *rel_scn, *dynsym_scn;
	Elf_Data *reldata, *symdata;
	size_t shstrndx, shnum, nrel;
	uint64_t hdr_size, ent_size, base, limit;
	bool is_rela = true;
	int err;

	if (!gelf_getehdr(elf, &ehdr) || elf_getshdrstrndx(elf, &shstrndx) ||
	    elf_getshdrnum(elf, &shnum))
		return 0;
	plt_scn = find_section(elf, shstrndx, ".plt", &plt);
	if (!plt_scn)
		return 0;
	rel_scn = find_section(elf, shstrndx, ".rela.plt", &rel);
	if (!rel_scn) {
		rel_scn = find_section(elf, shstrndx, ".rel.plt", &rel);
		is_rela = false;
	}
	if (!rel_scn || rel.sh_link == 0 || rel.sh_link >= shnum)
		return 0;
	if ((is_rela && rel.sh_type != SHT_RELA) || (!is_rela && rel.sh_type != SHT_REL))
		return 0;
	dynsym_scn = elf_getscn(elf, rel.sh_link);
	if (!dynsym_scn || !gelf_getshdr(dynsym_scn, &dynsym) || dynsym.sh_link >= shnum)
		return 0;

	switch (ehdr.e_machine) {
	case EM_X86_64:
	case EM_386:
		hdr_size = 16;
		ent_size = 16;
		break;
	case EM_AARCH64:
		hdr_size = 32;
		ent_size = 16;
		break;
	default:
		/* TODO(plt): header sizes of other architectures (perf's get_plt_sizes()) */
		return 0;
	}

	pltsec_scn = find_section(elf, shstrndx, ".plt.sec", &pltsec);
	if (pltsec_scn) {
		base = pltsec.sh_addr;
		limit = pltsec.sh_size;
	} else {
		base = plt.sh_addr + hdr_size;
		limit = plt.sh_size > hdr_size ? plt.sh_size - hdr_size : 0;
	}

	reldata = elf_getdata(rel_scn, NULL);
	symdata = elf_getdata(dynsym_scn, NULL);
	if (!reldata || !symdata || !reldata->d_buf)
		return 0;
	if (!gelf_fsize(elf, is_rela ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT))
		return 0;
	nrel = reldata->d_size / gelf_fsize(elf, is_rela ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
	nrel = MIN(nrel, (size_t)INT_MAX);

	/*
	 * No symbol for the .plt header (the resolver stub): perf 6.1 makes
	 * none (later perfs name it ".plt"), so an address there belongs to the
	 * symbol before it, stretched over the gap (_init, in most programs).
	 */
	for (size_t i = 0; i < nrel && (i + 1) * ent_size <= limit; i++) {
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym sym;
		uint64_t info;
		const char *name;
		char buf[1024], *dm;

		if (is_rela) {
			if (!gelf_getrela(reldata, (int)i, &ra))
				break;
			info = ra.r_info;
		} else {
			if (!gelf_getrel(reldata, (int)i, &r))
				break;
			info = r.r_info;
		}
		info = ehdr.e_ident[EI_CLASS] == ELFCLASS32 ? ELF32_R_SYM(info) : ELF64_R_SYM(info);
		/* IRELATIVE has no symbol: perf names its entry "@plt" all the same */
		name = NULL;
		if (info && info <= INT_MAX && gelf_getsym(symdata, (int)info, &sym))
			name = elf_strptr(elf, dynsym.sh_link, sym.st_name);
		if (!name)
			name = "";
		/* demangled first, then suffixed, as perf does: "std::foo()@plt" */
		dm = c->demangle ? demangle(name) : NULL;
		snprintf(buf, sizeof(buf), "%s@plt", dm ? dm : name);
		free(dm);
		err = ctx_add_name(c, base + i * ent_size, ent_size, buf, SAMPO_SYMBOL_GLOBAL,
				   SAMPO_SYMBOL_FUNC, 0, false);
		if (err)
			return err;
	}
	return 0;
}

struct got_slot {
	uint64_t offset;
	uint32_t sym;
};

static int got_slot_cmp(const void *a, const void *b)
{
	const struct got_slot *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * .plt.got entries (x86-64): the stubs of functions whose GOT slot the
 * loader fills at start (a function whose address is also taken, such as
 * __cxa_finalize). Each is "jmp *SLOT(%rip)", after an endbr64 and a bnd
 * prefix in IBT binaries; the R_X86_64_GLOB_DAT relocation of SLOT in
 * .rela.dyn names it. Named NAME@plt, as objdump labels them. The
 * relocations are sorted once: a hostile file with many of both costs
 * n log n, not n * m.
 */
static int load_plt_got(struct elf_load_ctx *c, Elf *elf)
{
	GElf_Ehdr ehdr;
	GElf_Shdr got, rd, dynsym;
	Elf_Scn *got_scn, *rd_scn, *dynsym_scn;
	Elf_Data *code, *reldata, *symdata;
	struct got_slot *slots = NULL;
	size_t shstrndx, shnum, nrel, nslots = 0, ent, fsz;
	int err = 0;

	if (!gelf_getehdr(elf, &ehdr) || ehdr.e_machine != EM_X86_64 ||
	    ehdr.e_ident[EI_CLASS] != ELFCLASS64 || elf_getshdrstrndx(elf, &shstrndx) ||
	    elf_getshdrnum(elf, &shnum))
		return 0;
	got_scn = find_section(elf, shstrndx, ".plt.got", &got);
	rd_scn = find_section(elf, shstrndx, ".rela.dyn", &rd);
	if (!got_scn || !rd_scn || got.sh_type != SHT_PROGBITS || rd.sh_type != SHT_RELA ||
	    rd.sh_link == 0 || rd.sh_link >= shnum)
		return 0;
	dynsym_scn = elf_getscn(elf, rd.sh_link);
	if (!dynsym_scn || !gelf_getshdr(dynsym_scn, &dynsym) || dynsym.sh_link >= shnum)
		return 0;
	code = elf_getdata(got_scn, NULL);
	reldata = elf_getdata(rd_scn, NULL);
	symdata = elf_getdata(dynsym_scn, NULL);
	fsz = gelf_fsize(elf, ELF_T_RELA, 1, EV_CURRENT);
	if (!code || !code->d_buf || !reldata || !reldata->d_buf || !symdata || !fsz)
		return 0;
	nrel = MIN(reldata->d_size / fsz, (size_t)INT_MAX);
	slots = malloc((nrel ? nrel : 1) * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < nrel; i++) {
		GElf_Rela ra;

		if (!gelf_getrela(reldata, (int)i, &ra))
			break;
		if (ELF64_R_TYPE(ra.r_info) == R_X86_64_GLOB_DAT && ELF64_R_SYM(ra.r_info))
			slots[nslots++] = (struct got_slot){ ra.r_offset, ELF64_R_SYM(ra.r_info) };
	}
	qsort(slots, nslots, sizeof(*slots), got_slot_cmp);
	ent = got.sh_entsize == 8 || got.sh_entsize == 16 ? got.sh_entsize : 8;
	for (size_t off = 0; nslots && off + ent <= code->d_size; off += ent) {
		const uint8_t *p = (const uint8_t *)code->d_buf + off;
		struct got_slot key = { 0 }, *hit;
		GElf_Sym sym;
		const char *name;
		char buf[1024], *dm;
		size_t k = 0;
		int32_t disp;

		if (ent >= 4 && p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
			k = 4; /* endbr64 */
		if (k < ent && p[k] == 0xf2)
			k++; /* bnd */
		if (k + 6 > ent || p[k] != 0xff || p[k + 1] != 0x25)
			continue;
		disp = (int32_t)((uint32_t)p[k + 2] | (uint32_t)p[k + 3] << 8 |
				 (uint32_t)p[k + 4] << 16 | (uint32_t)p[k + 5] << 24);
		key.offset = got.sh_addr + off + k + 6 + (uint64_t)(int64_t)disp;
		hit = bsearch(&key, slots, nslots, sizeof(*slots), got_slot_cmp);
		if (!hit || hit->sym > INT_MAX || !gelf_getsym(symdata, (int)hit->sym, &sym))
			continue;
		name = elf_strptr(elf, dynsym.sh_link, sym.st_name);
		if (!name || !name[0])
			continue;
		dm = c->demangle ? demangle(name) : NULL;
		snprintf(buf, sizeof(buf), "%s@plt", dm ? dm : name);
		free(dm);
		err = ctx_add_name(c, got.sh_addr + off, ent, buf, SAMPO_SYMBOL_GLOBAL,
				   SAMPO_SYMBOL_FUNC, 0, false);
		if (err)
			break;
	}
	free(slots);
	return err;
}

/* ---- MiniDebugInfo ----------------------------------------------------------------------- */

static int xz_inflate(const void *in, size_t in_len, uint8_t **ret_buf, size_t *ret_len)
{
	lzma_stream strm = LZMA_STREAM_INIT;
	uint8_t *out = NULL;
	size_t alloc = 0;
	lzma_ret lr;
	int err = -SAMPO_ERR_DECOMPRESS;

	if (lzma_stream_decoder(&strm, UINT64_MAX, 0) != LZMA_OK)
		return -ENOMEM;
	strm.next_in = in;
	strm.avail_in = in_len;
	do {
		if (strm.avail_out == 0) {
			size_t used = alloc;
			uint8_t *nb;

			if (alloc >= MIN((uint64_t)DEBUGDATA_MAX,
					 (uint64_t)SCN_INFLATE_RATIO * in_len + (1U << 20)))
				goto out;
			alloc = alloc ? alloc * 2 : MAX(in_len * 4, (size_t)4096);
			nb = realloc(out, alloc);
			if (!nb) {
				err = -ENOMEM;
				goto out;
			}
			out = nb;
			strm.next_out = out + used;
			strm.avail_out = alloc - used;
		}
		lr = lzma_code(&strm, LZMA_FINISH);
	} while (lr == LZMA_OK);
	if (lr != LZMA_STREAM_END)
		goto out;
	*ret_len = alloc - strm.avail_out;
	*ret_buf = out;
	out = NULL;
	err = 0;
out:
	free(out);
	lzma_end(&strm);
	return err;
}

/* 1 when the MiniDebugInfo gave symbols, 0 when there is none, <0 on error. */
static int load_debugdata(struct elf_load_ctx *c, Elf *elf, Elf_Scn *scn)
{
	Elf_Data *data = scn_data(c, elf, scn);
	Elf_Scn *symscn;
	uint8_t *img = NULL;
	size_t len = 0;
	Elf *mini;
	int err;

	if (!data || !data->d_buf || !data->d_size)
		return 0;
	err = xz_inflate(data->d_buf, data->d_size, &img, &len);
	if (err) {
		sampo_symtab__set_err(c->errbuf, c->errbuf_sz,
				      "'%s': .gnu_debugdata does not decompress", c->name);
		return err;
	}
	mini = elf_memory((char *)img, len);
	if (!mini || elf_kind(mini) != ELF_K_ELF) {
		err = elf_bad(c, ".gnu_debugdata is not an ELF image");
		goto out;
	}
	symscn = find_section_type(mini, SHT_SYMTAB, NULL);
	err = symscn ? load_symbols(c, mini, symscn) : 0;
	if (!err && symscn)
		err = 1;
out:
	elf_end(mini);
	free(img);
	return err;
}

/* ---- separate debug files ---------------------------------------------------------------- */

int sampo_elf__find_debug_file(const char *elf_path, const struct sampo_build_id *build_id,
			       const char *debug_root, char **ret_path)
{
	SAMPO_OPTS(sampo_debuginfo_opts, o, .build_id = build_id, .debug_root = debug_root);

	return sampo_debuginfo__find(elf_path, &o, ret_path, NULL);
}

/*
 * How far each section of the debug file @delf is from the same section of
 * the running file @elf (matched by index and name, as objcopy
 * --only-keep-debug keeps both): 0 for a debug file of the same link, the
 * prelink offset for a file prelinked after its debug file was split off.
 * perf reaches the same addresses by turning both into file offsets
 * (adjust_symbols for .gnu.prelink_undo); here the symbols are moved into
 * the running file's address space, which its PT_LOAD headers describe.
 * Return: a calloc'ed array of shnum(@delf) deltas, NULL when all are 0.
 */
static int64_t *debug_section_deltas(Elf *elf, Elf *delf)
{
	size_t dnum, rnum, dstr, rstr;
	int64_t *d = NULL;
	bool any = false;

	if (elf_getshdrnum(delf, &dnum) || elf_getshdrnum(elf, &rnum) ||
	    elf_getshdrstrndx(delf, &dstr) || elf_getshdrstrndx(elf, &rstr))
		return NULL;
	for (size_t i = 1; i < dnum; i++) {
		Elf_Scn *ds = elf_getscn(delf, i), *rs;
		GElf_Shdr dsh, rsh;
		const char *dn, *rn;

		if (!ds || !gelf_getshdr(ds, &dsh) || !(dsh.sh_flags & SHF_ALLOC))
			continue;
		dn = elf_strptr(delf, dstr, dsh.sh_name);
		rs = i < rnum ? elf_getscn(elf, i) : NULL;
		rn = rs && gelf_getshdr(rs, &rsh) ? elf_strptr(elf, rstr, rsh.sh_name) : NULL;
		if (!dn || !rn || strcmp(dn, rn)) {
			/* another section order: find it by name */
			rs = dn ? find_section(elf, rstr, dn, &rsh) : NULL;
			if (!rs)
				continue;
		}
		if (rsh.sh_addr == dsh.sh_addr)
			continue;
		if (!d) {
			d = calloc(dnum, sizeof(*d));
			if (!d)
				return NULL;
		}
		d[i] = (int64_t)(rsh.sh_addr - dsh.sh_addr);
		any = true;
	}
	if (!any) {
		free(d);
		d = NULL;
	}
	return d;
}

/* ---- loading ----------------------------------------------------------------------------- */

/*
 * 1 when the debug file gave symbols, 0 when there is none or it is
 * unusable. A debug file of another build is refused by
 * sampo_debuginfo__find(); that is said once, as a warning, since the user
 * has a debug file and sees no symbols from it.
 */
static int load_debug_file(struct elf_load_ctx *c, Elf *elf)
{
	struct sampo_build_id bid;
	char *dpath = NULL, why[PATH_MAX + 256] = "";
	Elf_Scn *symscn;
	Elf *delf;
	int fd, err;

	if (!c->path || !c->debug_file)
		return 0;
	if (sampo_elf__read_build_id(elf, &bid))
		bid.size = 0;
	/* the recorded build-id wins: the file may be a copy we could not check */
	SAMPO_OPTS(sampo_debuginfo_opts, fo, .name = c->recorded_name,
		   .build_id = c->build_id && c->build_id->size ? c->build_id :
			       bid.size				  ? &bid :
								    NULL,
		   .debug_root = c->debug_root, .symfs = c->symfs, .buildid_dir = c->buildid_dir,
		   .errbuf = why, .errbuf_sz = sizeof(why));
	if (sampo_debuginfo__find(c->path, &fo, &dpath, NULL)) {
		const char *who = c->recorded_name ? c->recorded_name : c->path;

		if (why[0] && c->warnbuf && c->warnbuf_sz)
			snprintf(c->warnbuf, c->warnbuf_sz, "'%s': %s", who, why);
		else if (why[0])
			pr_warn("'%s': %s\n", who, why);
		return 0;
	}
	fd = open(dpath, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(dpath);
		return 0;
	}
	delf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	symscn = delf && elf_kind(delf) == ELF_K_ELF ? find_section_type(delf, SHT_SYMTAB, NULL) :
						       NULL;
	err = 0;
	if (symscn) {
		int64_t *delta = debug_section_deltas(elf, delf);
		size_t dnum = 0;

		(void)elf_getshdrnum(delf, &dnum);
		pr_debug("'%s': symbols from '%s'%s\n", c->path, dpath,
			 delta ? ", moved by section (prelinked)" : "");
		c->sec_delta = delta;
		c->nr_sec_delta = delta ? dnum : 0;
		err = load_symbols(c, delf, symscn);
		c->sec_delta = NULL;
		c->nr_sec_delta = 0;
		free(delta);
		if (!err)
			err = 1;
	}
	elf_end(delf);
	close(fd);
	free(dpath);
	return err;
}

static int elf_load(struct elf_load_ctx *c, Elf *elf, struct sampo_symtab **ret_symtab)
{
	GElf_Ehdr ehdr;
	Elf_Scn *symscn, *dynscn, *ddscn;
	size_t shstrndx, phnum;
	int err;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr))
		return elf_bad(c, "not an ELF file");
	if (ehdr.e_type != ET_EXEC && ehdr.e_type != ET_DYN && ehdr.e_type != ET_REL)
		return elf_bad(c, "not an executable, shared or relocatable object");
	if (elf_getshdrstrndx(elf, &shstrndx))
		return elf_bad(c, "cannot read the section header string table");
	c->b.elf_type = ehdr.e_type;
	/* perf's tree: the symbols in table order, duplicates erased, then the PLT entries */
	sampo_symtab_builder__perf_tree(&c->b, SAMPO_PERF_TREE_ELF);

	if (ehdr.e_type != ET_REL && elf_getphdrnum(elf, &phnum) == 0) {
		for (size_t i = 0; i < phnum; i++) {
			struct sampo_symtab_segment seg;
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			seg.offset = ph.p_offset;
			seg.vaddr = ph.p_vaddr;
			seg.filesz = ph.p_filesz;
			seg.flags = ph.p_flags;
			err = sampo_symtab_builder__add_segment(&c->b, &seg);
			if (err)
				return err;
		}
	}

	symscn = find_section_type(elf, SHT_SYMTAB, NULL);
	dynscn = find_section_type(elf, SHT_DYNSYM, NULL);
	if (symscn) {
		err = load_symbols(c, elf, symscn);
	} else {
		err = load_debug_file(c, elf);
		if (err == 0) {
			ddscn = find_section(elf, shstrndx, ".gnu_debugdata", NULL);
			if (ddscn)
				err = load_debugdata(c, elf, ddscn);
			if (err >= 0 && dynscn)
				err = load_symbols(c, elf, dynscn);
		}
	}
	if (err < 0)
		return err;
	if (c->plt && ehdr.e_type != ET_REL) {
		sampo_symtab_builder__perf_tree_late(&c->b);
		err = load_plt(c, elf);
		if (!err)
			err = load_plt_got(c, elf);
		if (err)
			return err;
	}
	err = sampo_symtab_builder__finish(&c->b, SAMPO_FIXUP_ELF, ret_symtab);
	if (!err) {
		memcpy((*ret_symtab)->refs, c->refs, sizeof(c->refs));
		(*ret_symtab)->nr_refs = c->nr_refs;
	}
	return err;
}

static int ctx_init(struct elf_load_ctx *c, const char *name, const char *path,
		    const struct sampo_symtab_elf_opts *opts)
{
	memset(c, 0, sizeof(*c));
	if (!OPTS_VALID(opts, sampo_symtab_elf_opts))
		return -EINVAL;
	c->name = name;
	c->path = path;
	c->demangle = !OPTS_GET(opts, no_demangle, false);
	c->plt = !OPTS_GET(opts, no_plt, false);
	c->debug_file = !OPTS_GET(opts, no_debug_file, false);
	c->debug_root = OPTS_GET(opts, debug_root, NULL);
	c->recorded_name = OPTS_GET(opts, recorded_name, NULL);
	c->build_id = OPTS_GET(opts, build_id, NULL);
	c->symfs = OPTS_GET(opts, symfs, NULL);
	c->buildid_dir = OPTS_GET(opts, buildid_dir, NULL);
	c->warnbuf = OPTS_GET(opts, warnbuf, NULL);
	c->warnbuf_sz = OPTS_GET(opts, warnbuf_sz, 0);
	if (c->warnbuf && c->warnbuf_sz)
		c->warnbuf[0] = '\0';
	c->sections = OPTS_GET(opts, sections, NULL);
	c->nr_sections = OPTS_GET(opts, nr_sections, 0);
	c->errbuf = OPTS_GET(opts, errbuf, NULL);
	c->errbuf_sz = OPTS_GET(opts, errbuf_sz, 0);
	if (c->errbuf && c->errbuf_sz)
		c->errbuf[0] = '\0';
	sampo_symtab_builder__init(&c->b);
	(void)elf_version(EV_CURRENT);
	return 0;
}

int sampo_symtab__load_elf(const char *path, const struct sampo_symtab_elf_opts *opts,
			   struct sampo_symtab **ret_symtab)
{
	struct elf_load_ctx c;
	Elf *elf;
	int fd, err;

	err = ctx_init(&c, path, path, opts);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		sampo_symtab__set_err(c.errbuf, c.errbuf_sz, "cannot open '%s'", path);
		return err;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		err = elf_bad(&c, elf_errmsg(-1));
		goto out;
	}
	err = elf_load(&c, elf, ret_symtab);
	elf_end(elf);
out:
	sampo_symtab_builder__release(&c.b);
	close(fd);
	return err;
}

int sampo_symtab__load_elf_mem(const void *buf, size_t size, const char *name,
			       const struct sampo_symtab_elf_opts *opts,
			       struct sampo_symtab **ret_symtab)
{
	struct elf_load_ctx c;
	char *copy;
	Elf *elf;
	int err;

	err = ctx_init(&c, name ? name : "(memory)", NULL, opts);
	if (err)
		return err;
	/* libelf may convert data in place: work on a private copy of the caller's bytes */
	copy = malloc(size ? size : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, size);
	elf = elf_memory(copy, size);
	if (!elf) {
		err = elf_bad(&c, elf_errmsg(-1));
		goto out;
	}
	err = elf_load(&c, elf, ret_symtab);
	elf_end(elf);
out:
	sampo_symtab_builder__release(&c.b);
	free(copy);
	return err;
}
