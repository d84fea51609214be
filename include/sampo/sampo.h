/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * sampo.h - every public header of libsampo, for programs that want all of
 * it (#include <sampo/sampo.h>, link with `pkg-config --libs sampo`).
 * tests/cli/t0005-libsampo-exports.sh checks that it names every header.
 */
#ifndef SAMPO_SAMPO_H
#define SAMPO_SAMPO_H

#include <sampo/archive.h>
#include <sampo/bpf.h>
#include <sampo/branch-hists.h>
#include <sampo/buildid-cache.h>
#include <sampo/buildid.h>
#include <sampo/common.h>
#include <sampo/cpuset.h>
#include <sampo/debuginfo.h>
#include <sampo/dso.h>
#include <sampo/dsohits.h>
#include <sampo/dsos.h>
#include <sampo/embedded-symbols.h>
#include <sampo/event.h>
#include <sampo/evlist.h>
#include <sampo/evsel.h>
#include <sampo/feature.h>
#include <sampo/hist-diff.h>
#include <sampo/hist.h>
#include <sampo/inject.h>
#include <sampo/kmodule.h>
#include <sampo/machine.h>
#include <sampo/map.h>
#include <sampo/modsections.h>
#include <sampo/output-file.h>
#include <sampo/parse-events.h>
#include <sampo/proc-modules.h>
#include <sampo/profile.h>
#include <sampo/reader.h>
#include <sampo/record.h>
#include <sampo/recover.h>
#include <sampo/regs.h>
#include <sampo/sample.h>
#include <sampo/session.h>
#include <sampo/srcline.h>
#include <sampo/srclines.h>
#include <sampo/symbol.h>
#include <sampo/symbol-filter.h>
#include <sampo/symbolizer.h>
#include <sampo/synthesize.h>
#include <sampo/target.h>
#include <sampo/thread.h>
#include <sampo/time-range.h>
#include <sampo/trace-data.h>
#include <sampo/unwind.h>
#include <sampo/workload.h>
#include <sampo/writer.h>

#endif /* SAMPO_SAMPO_H */
