/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/kmodule.h - the module files of a /lib/modules/R tree and the
 * module names (lib/kmodule.c); all public now, in <sampo/kmodule.h>.
 */
#ifndef SAMPO_INTERNAL_KMODULE_H
#define SAMPO_INTERNAL_KMODULE_H

#include <sampo/kmodule.h>

#endif
