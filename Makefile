# sampo - thin wrapper around meson/ninja (the real build is meson.build).
#
# On a fresh Debian 12 machine:
#	make demo	install what is missing, build, profile a demo program, show it
#	make check	install what is missing, build, run every test normally and
#			under ASan+UBSan; ends with "N passed, N failed"
#
# Other targets (no package installation):
#	make build	configure (once) and build in $(BUILDDIR)
#	make test	build and run every test in $(BUILDDIR)
#	make asan	build and run every test under ASan+UBSan in $(ASANDIR)
#	make fuzz	build the libFuzzer targets with clang in $(FUZZDIR)
#	make fuzz-run	run each fuzz target for FUZZ_TIME seconds (default 60)
#	make fuzz-hours	run each fuzz target for FUZZ_CPU seconds of CPU time (default
#			3600: issue 17's hour), whatever the load (scripts/fuzz-cpu.sh)
#	make bench	build and run the benchmarks against perf (bench/run-all.sh)
#	make deps	only install the missing packages
#	make install	build and install under $(PREFIX) (default /usr/local; DESTDIR=
#			for packaging): bin/sampo, libsampo, headers, sampo.pc, man pages
#	make uninstall	remove what make install put there
#	make clean	remove the build directories of this Makefile and demo output
#	make check-kernel  score kernel/module symbols on a real KASLR kernel under qemu
#			(downloads ~300 MB once, minutes; QK_OUT=DIR, QK_ARGS=--reuse)

BUILDDIR ?= build
ASANDIR ?= build-asan
FUZZDIR ?= build-fuzz
SANITIZE_CC ?= gcc
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_CPU ?= 3600
PREFIX ?= /usr/local

export ASAN_OPTIONS ?= detect_leaks=1:abort_on_error=1
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS ?= halt_on_error=1:print_stacktrace=1

.PHONY: all help deps build test asan check demo fuzz fuzz-run fuzz-hours bench clean check-kernel \
	install uninstall

all: build

help:
	@sed -n '2,/^$$/s/^# \{0,1\}//p' Makefile

deps:
	@scripts/install-deps.sh

build:
	@scripts/setup-build.sh $(BUILDDIR)
	@ninja -C $(BUILDDIR)

test:
	@scripts/setup-build.sh $(BUILDDIR)
	@scripts/run-tests.sh $(BUILDDIR) "tests" --setup full

asan:
	@CC=$(SANITIZE_CC) scripts/setup-build.sh $(ASANDIR) \
		-Db_sanitize=address,undefined -Db_lundef=false
	@scripts/run-tests.sh $(ASANDIR) "sanitizer tests" --timeout-multiplier 3

check: deps
	@BUILDDIR=$(BUILDDIR) ASANDIR=$(ASANDIR) SANITIZE_CC=$(SANITIZE_CC) \
		FUZZDIR=$(FUZZDIR) FUZZ_CC=$(FUZZ_CC) scripts/check.sh

demo: deps build
	@BUILDDIR=$(BUILDDIR) scripts/demo.sh

fuzz:
	@CC=$(FUZZ_CC) scripts/setup-build.sh $(FUZZDIR) -Dfuzz=true -Dtests=false \
		-Db_sanitize=address,undefined -Db_lundef=false
	@ninja -C $(FUZZDIR)
	@targets=$$(find $(FUZZDIR)/fuzz -maxdepth 1 -type f -name 'fuzz-*' -perm -u+x | sort); \
	if [ -n "$$targets" ]; then echo "fuzz targets:" $$targets; \
	else echo "fuzz: no fuzz/fuzz-*.c targets yet"; fi

# Run each fuzz target for FUZZ_TIME seconds. New inputs go to
# fuzz/corpus-out/<name>/ (ignored by git); the committed seeds in
# fuzz/corpus/<name>/ are only read.
fuzz-run: fuzz
	@for t in $$(find $(FUZZDIR)/fuzz -maxdepth 1 -type f -name 'fuzz-*' -perm -u+x | sort); do \
		name=$${t##*/fuzz-}; mkdir -p fuzz/corpus-out/$$name; \
		echo "==> $$t ($(FUZZ_TIME) s)"; \
		$$t -max_total_time=$(FUZZ_TIME) -print_final_stats=1 \
			$$( [ -f fuzz/dict/$$name.dict ] && echo -dict=fuzz/dict/$$name.dict) \
			fuzz/corpus-out/$$name $$( [ -d fuzz/corpus/$$name ] && echo fuzz/corpus/$$name) \
			|| exit 1; \
	done

fuzz-hours: fuzz
	@scripts/fuzz-cpu.sh $(FUZZ_CPU) $$(find $(FUZZDIR)/fuzz -maxdepth 1 -type f -name 'fuzz-*' \
		-perm -u+x | sort)

bench: build
	@BUILDDIR=$(BUILDDIR) bench/run-all.sh

install:
	@DESTDIR=$(DESTDIR) scripts/install.sh install $(BUILDDIR) $(PREFIX)

uninstall:
	@DESTDIR=$(DESTDIR) scripts/install.sh uninstall $(BUILDDIR)

check-kernel: build
	@BUILDDIR=$(BUILDDIR) scripts/check-kernel.sh $(QK_ARGS)

clean:
	rm -rf $(BUILDDIR) $(ASANDIR) $(FUZZDIR) demo/perf.data demo/perf.data.old \
		demo/flamegraph.html
