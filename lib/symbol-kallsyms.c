// SPDX-License-Identifier: LGPL-2.1
/*
 * symbol-kallsyms.c - the kernel's symbol table from a /proc/kallsyms snapshot.
 *
 * Line format (kernel/kallsyms.c, s_show): "%px %c %s\n", and for a module
 * symbol "%px %c %s\t[%s]\n". The parser walks the buffer once by hand (no
 * sscanf: a 5 MB snapshot has ~150k lines) and checks each field:
 * 1..16 hex digits, one type letter, a name of 1..SYMBOL_NAME_MAX bytes, an
 * optional "\t[module]". Any other shape is -SAMPO_ERR_MALFORMED with the line
 * number. What perf keeps is kept (symbol_type__filter(): T, W, D, B in either
 * case); the rest is parsed and dropped.
 *
 * Module symbols are not sorted in the file and carry no size: the table's
 * kallsyms fix-up (symbol.c) gives each the distance to the next symbol, and
 * stops at the next page at the border between the kernel and the modules.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/symbol.h>
#include "internal/symbol.h"
#include "internal/util.h"
#include "internal/opts.h"
#include "internal/fileio.h"

/* a real /proc/kallsyms holds some 10 MB; a file 25 times that is not one */
#define KALLSYMS_MAX_BYTES (256u << 20)

/* KSYM_NAME_LEN is 512 since Linux 6.1 (128 before); leave room, refuse garbage */
#define SYMBOL_NAME_MAX 1024

static inline int hex_digit(unsigned char c)
{
	if ((unsigned int)(c - '0') < 10u)
		return c - '0';
	c |= 0x20; /* ASCII lower case */
	if ((unsigned int)(c - 'a') < 6u)
		return c - 'a' + 10;
	return -1;
}

/*
 * Reference symbols a caller may ask for: the duplicate fix-up may drop them
 * from the table (_text and _stext share an address), so they are kept aside.
 */
static const char *const kallsyms_ref_names[] = {
	"_text", "_stext", "_etext", "_sinittext", "_einittext", "_end",
};

static bool kallsyms_keep(char type)
{
	char t = (char)toupper((unsigned char)type);

	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

/* kallsyms2elf_binding() and kallsyms2elf_type() of perf */
static int kallsyms_binding(char type)
{
	if (type == 'W')
		return SAMPO_SYMBOL_WEAK;
	return isupper((unsigned char)type) ? SAMPO_SYMBOL_GLOBAL : SAMPO_SYMBOL_LOCAL;
}

static int kallsyms_type(char type)
{
	char t = (char)toupper((unsigned char)type);

	return t == 'T' || t == 'W' ? SAMPO_SYMBOL_FUNC : SAMPO_SYMBOL_OBJECT;
}

struct kallsyms_ctx {
	struct sampo_symtab_builder b;
	const char *name;
	char *errbuf;
	size_t errbuf_sz;
	uint16_t last_mod; /* aux index of the previous line's module: lines come grouped */
	struct sampo_symtab_ref refs[SAMPO_SYMTAB_MAX_REFS];
	size_t nr_refs;
};

static void kallsyms_note_ref(struct kallsyms_ctx *k, const char *sym, size_t len, uint64_t addr)
{
	if (sym[0] != '_' || len >= sizeof(k->refs[0].name) || k->nr_refs == ARRAY_SIZE(k->refs))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(kallsyms_ref_names); i++) {
		if (strlen(kallsyms_ref_names[i]) != len || memcmp(kallsyms_ref_names[i], sym, len))
			continue;
		for (size_t j = 0; j < k->nr_refs; j++) {
			if (!strcmp(k->refs[j].name, kallsyms_ref_names[i]))
				return; /* the first one wins, as in kallsyms__get_function_start() */
		}
		memcpy(k->refs[k->nr_refs].name, sym, len);
		k->refs[k->nr_refs].name[len] = '\0';
		k->refs[k->nr_refs++].addr = addr;
		return;
	}
}

static int module_index(struct kallsyms_ctx *k, const char *mod, size_t len)
{
	if (k->last_mod && strlen(k->b.aux_names[k->last_mod - 1]) == len &&
	    !memcmp(k->b.aux_names[k->last_mod - 1], mod, len))
		return k->last_mod;
	for (size_t i = 0; i < k->b.nr_aux; i++) {
		if (strlen(k->b.aux_names[i]) == len && !memcmp(k->b.aux_names[i], mod, len)) {
			k->last_mod = (uint16_t)(i + 1);
			return k->last_mod;
		}
	}
	int idx = sampo_symtab_builder__add_aux(&k->b, mod, len);

	if (idx > 0)
		k->last_mod = (uint16_t)idx;
	return idx;
}

static int bad_line(struct kallsyms_ctx *k, size_t lineno, const char *what)
{
	sampo_symtab__set_err(k->errbuf, k->errbuf_sz, "'%s':%zu: %s", k->name, lineno, what);
	return -SAMPO_ERR_MALFORMED;
}

int sampo_symtab__load_kallsyms_mem(const char *buf, size_t size, const char *name,
				    const struct sampo_symtab_kallsyms_opts *opts,
				    struct sampo_symtab **ret_symtab)
{
	struct kallsyms_ctx k = { .name = name ? name : "kallsyms" };
	const char *ref_name = OPTS_GET(opts, ref_name, NULL);
	uint64_t ref_addr = OPTS_GET(opts, ref_addr, 0), ref_found = 0;
	bool have_ref = false, any_nonzero = false;
	const char *p = buf, *end = buf + size;
	size_t lineno = 0, ref_len = ref_name ? strlen(ref_name) : 0;
	int err;

	k.errbuf = OPTS_GET(opts, errbuf, NULL);
	k.errbuf_sz = OPTS_GET(opts, errbuf_sz, 0);
	if (!OPTS_VALID(opts, sampo_symtab_kallsyms_opts))
		return -EINVAL;
	if (k.errbuf && k.errbuf_sz)
		k.errbuf[0] = '\0';
	sampo_symtab_builder__init(&k.b);

	while (p < end) {
		uint64_t addr = 0;
		const char *sym, *sym_end, *line_end;
		int ndig = 0, aux = 0;
		char type;

		lineno++;
		line_end = memchr(p, '\n', (size_t)(end - p));
		if (!line_end)
			line_end = end;

		for (; p < line_end && hex_digit((unsigned char)*p) >= 0; p++, ndig++)
			addr = addr << 4 | (uint64_t)hex_digit((unsigned char)*p);
		if (ndig == 0 || ndig > 16 || p >= line_end || *p != ' ') {
			err = bad_line(&k, lineno, ndig > 16 ? "address too long" : "bad address");
			goto out;
		}
		p++;
		if (line_end - p < 3 || p[1] != ' ' || !isalpha((unsigned char)p[0])) {
			err = bad_line(&k, lineno, "bad symbol type");
			goto out;
		}
		type = p[0];
		p += 2;

		sym = p;
		while (p < line_end && *p != '\t')
			p++;
		sym_end = p;
		if (sym_end == sym || sym_end - sym > SYMBOL_NAME_MAX) {
			err = bad_line(&k, lineno,
				       sym_end == sym ? "no symbol name" : "symbol name too long");
			goto out;
		}
		if (memchr(sym, ' ', (size_t)(sym_end - sym)) ||
		    memchr(sym, '\0', (size_t)(sym_end - sym))) {
			err = bad_line(&k, lineno, "bad symbol name");
			goto out;
		}
		if (p < line_end) {
			const char *mod = p + 1;

			if (line_end - mod < 3 || mod[0] != '[' || line_end[-1] != ']' ||
			    line_end - mod - 2 > SYMBOL_NAME_MAX ||
			    memchr(mod + 1, ']', (size_t)(line_end - mod - 2))) {
				err = bad_line(&k, lineno, "bad module name");
				goto out;
			}
			if (kallsyms_keep(type)) {
				aux = module_index(&k, mod + 1, (size_t)(line_end - mod - 2));
				if (aux < 0) {
					err = aux;
					goto out;
				}
			}
		}

		if (addr)
			any_nonzero = true;
		if (p == line_end)
			kallsyms_note_ref(&k, sym, (size_t)(sym_end - sym), addr);
		if (!have_ref && ref_name && (size_t)(sym_end - sym) == ref_len &&
		    !memcmp(sym, ref_name, ref_len) && p == line_end) {
			have_ref = true;
			ref_found = addr;
		}
		/* '$' names are ARM mapping symbols, not functions (perf drops them too) */
		if (kallsyms_keep(type) && sym[0] != '$') {
			err = sampo_symtab_builder__add(&k.b, addr, 0, sym, (size_t)(sym_end - sym),
							kallsyms_binding(type), kallsyms_type(type),
							(uint16_t)aux);
			if (err)
				goto out;
		}
		p = line_end + 1;
	}

	if (lineno == 0) {
		sampo_symtab__set_err(k.errbuf, k.errbuf_sz, "'%s': no symbols", k.name);
		err = -SAMPO_ERR_MALFORMED;
		goto out;
	}
	if (!any_nonzero) {
		sampo_symtab__set_err(k.errbuf, k.errbuf_sz,
				      "'%s': every address is zero (hidden by kptr_restrict)",
				      k.name);
		err = -EPERM;
		goto out;
	}
	if (ref_name && !have_ref) {
		sampo_symtab__set_err(k.errbuf, k.errbuf_sz, "'%s': no reference symbol '%s'",
				      k.name, ref_name);
		err = -ENOENT;
		goto out;
	}
	if (ref_name && k.nr_refs < ARRAY_SIZE(k.refs) &&
	    strlen(ref_name) < sizeof(k.refs[0].name)) {
		bool known = false;

		for (size_t i = 0; i < k.nr_refs && !known; i++)
			known = !strcmp(k.refs[i].name, ref_name);
		if (!known) {
			strcpy(k.refs[k.nr_refs].name, ref_name);
			k.refs[k.nr_refs++].addr = ref_found;
		}
	}
	if (ref_name && ref_addr && ref_addr != ref_found) {
		/* recorded = kallsyms + delta, modulo 2^64 like the kernel's own arithmetic */
		uint64_t delta = ref_addr - ref_found;

		for (size_t i = 0; i < k.b.nr; i++) {
			k.b.ents[i].start += delta;
			k.b.ents[i].end += delta;
		}
		for (size_t i = 0; i < k.nr_refs; i++)
			k.refs[i].addr += delta;
	}
	err = sampo_symtab_builder__finish(&k.b, SAMPO_FIXUP_KALLSYMS, ret_symtab);
	if (!err) {
		memcpy((*ret_symtab)->refs, k.refs, sizeof(k.refs));
		(*ret_symtab)->nr_refs = k.nr_refs;
	}
out:
	sampo_symtab_builder__release(&k.b);
	return err;
}

int sampo_symtab__load_kallsyms(const char *path, const struct sampo_symtab_kallsyms_opts *opts,
				struct sampo_symtab **ret_symtab)
{
	char *buf = NULL;
	size_t len = 0;
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		if (OPTS_HAS(opts, errbuf_sz) && opts->errbuf && opts->errbuf_sz)
			sampo_symtab__set_err(opts->errbuf, opts->errbuf_sz, "cannot open '%s'",
					      path);
		return err;
	}
	/* /proc/kallsyms says size 0: read to EOF, starting from the size when known */
	err = sampo_read_fd(fd, KALLSYMS_MAX_BYTES,
			    fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size : 1 << 20,
			    &buf, &len);
	close(fd);
	if (err == -EFBIG && OPTS_HAS(opts, errbuf_sz) && opts->errbuf && opts->errbuf_sz)
		sampo_symtab__set_err(opts->errbuf, opts->errbuf_sz,
				      "'%s' holds more than %u MiB: not a kallsyms file", path,
				      (unsigned int)(KALLSYMS_MAX_BYTES >> 20));
	if (err)
		return err;
	err = sampo_symtab__load_kallsyms_mem(buf, len, path, opts, ret_symtab);
	free(buf);
	return err;
}

int sampo_symtab__kallsyms_ref(const struct sampo_symtab *symtab, const char *name,
			       uint64_t *ret_addr)
{
	for (size_t i = 0; i < symtab->nr_refs; i++) {
		if (!strcmp(symtab->refs[i].name, name)) {
			*ret_addr = symtab->refs[i].addr;
			return 0;
		}
	}
	for (size_t i = 0; i < symtab->nr; i++) {
		if (symtab->syms[i].aux == 0 && !strcmp(symtab->syms[i].name, name)) {
			*ret_addr = symtab->syms[i].start;
			return 0;
		}
	}
	return -ENOENT;
}
