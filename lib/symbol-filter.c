// SPDX-License-Identifier: LGPL-2.1
/*
 * symbol-filter.c - perf's -S list (include/sampo/symbol-filter.h): the
 * names, and the entries that read as hex moved to a list of addresses, as
 * perf's setup_addrlist() moves them. A list holds a few entries: linear
 * search.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/symbol-filter.h>

struct sampo_symbol_filter {
	char **names;
	size_t nr_names;
	uint64_t *addrs;
	size_t nr_addrs;
};

/* strtoul() in base 16 takes the whole entry, blanks after it aside */
static bool parse_address(const char *s, uint64_t *ret)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 16);
	if (errno || end == s)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return false;
	*ret = v;
	return true;
}

int sampo_symbol_filter__new(const char *const *entries, size_t nr,
			     struct sampo_symbol_filter **ret)
{
	struct sampo_symbol_filter *f = calloc(1, sizeof(*f));

	*ret = NULL;
	if (!f)
		return -ENOMEM;
	f->names = calloc(nr ? nr : 1, sizeof(*f->names));
	f->addrs = calloc(nr ? nr : 1, sizeof(*f->addrs));
	if (!f->names || !f->addrs)
		goto out_nomem;
	for (size_t i = 0; i < nr; i++) {
		if (parse_address(entries[i], &f->addrs[f->nr_addrs])) {
			f->nr_addrs++;
			continue;
		}
		f->names[f->nr_names] = strdup(entries[i]);
		if (!f->names[f->nr_names])
			goto out_nomem;
		f->nr_names++;
	}
	*ret = f;
	return 0;

out_nomem:
	sampo_symbol_filter__delete(f);
	return -ENOMEM;
}

void sampo_symbol_filter__delete(struct sampo_symbol_filter *filter)
{
	if (!filter)
		return;
	for (size_t i = 0; i < filter->nr_names; i++)
		free(filter->names[i]);
	free(filter->names);
	free(filter->addrs);
	free(filter);
}

bool sampo_symbol_filter__keeps(const struct sampo_symbol_filter *filter, const char *sym_name,
				bool mapped, uint64_t ip)
{
	for (size_t i = 0; sym_name && i < filter->nr_names; i++)
		if (!strcmp(filter->names[i], sym_name))
			return true;
	for (size_t i = 0; mapped && i < filter->nr_addrs; i++)
		if (filter->addrs[i] == ip)
			return true;
	return false;
}

const char *sampo_symbol_filter__only_name(const struct sampo_symbol_filter *filter)
{
	return filter && filter->nr_names == 1 ? filter->names[0] : NULL;
}
