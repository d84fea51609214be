/* SPDX-License-Identifier: LGPL-2.1 */
/* log.h - the library's only way to say something: through the print hook */
#ifndef SAMPO_INTERNAL_LOG_H
#define SAMPO_INTERNAL_LOG_H

#include <sampo/common.h>
#include "internal/util.h"

void sampo_log(enum sampo_log_level level, const char *fmt, ...) SAMPO_PRINTF(2, 3);

#define pr_warn(fmt, ...) sampo_log(SAMPO_LOG_WARN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) sampo_log(SAMPO_LOG_INFO, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) sampo_log(SAMPO_LOG_DEBUG, fmt, ##__VA_ARGS__)

#endif
