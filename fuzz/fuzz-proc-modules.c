// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-proc-modules.c - libFuzzer entry point for the /proc/modules parser
 * (lib/proc-modules.c).
 *
 * Each input is parsed as the text of /proc/modules; every module found
 * must have a NUL-terminated name that fits its field, and there can be no
 * more modules than lines.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/proc-modules.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sampo_proc_module *mods;
	size_t nr, lines = 1;

	sampo_set_print(NULL);
	if (sampo_proc_modules__parse((const char *)data, size, &mods, &nr))
		return 0;
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (nr > lines)
		abort();
	for (size_t i = 0; i < nr; i++) {
		if (!memchr(mods[i].name, '\0', sizeof(mods[i].name)) || !mods[i].name[0])
			abort();
	}
	free(mods);
	return 0;
}
