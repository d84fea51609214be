#!/bin/bash
# t0005-libsampo-exports: libsampo.so exports exactly the SAMPO_API calls of the public headers (lib/libsampo.map), and every public header compiles alone and through <sampo/sampo.h>
. "$(dirname "$0")/lib.sh"

so=$SAMPO_BUILDDIR/lib/libsampo.so
[ -e "$so" ] || skip "no $so in this build"
command -v nm >/dev/null || skip "no nm"
cc=${CC:-cc}
command -v "$cc" >/dev/null || skip "no C compiler"

"$SAMPO_SRCDIR/scripts/update-exports.sh" --check || die "lib/libsampo.map is stale (see above)"

grep -o 'sampo_[A-Za-z0-9_]*' "$SAMPO_SRCDIR/lib/libsampo.map" | sort >"$tmpdir/map"
nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ { sub(/@.*/, "", $3); print $3 }' |
	grep -v '^LIBSAMPO_' | sort >"$tmpdir/exported"
if ! diff -u "$tmpdir/map" "$tmpdir/exported" >"$tmpdir/diff"; then
	cat "$tmpdir/diff" >&2
	die "libsampo.so exports other symbols than lib/libsampo.map lists ('-': declared SAMPO_API but not defined, '+': exported by accident)"
fi
[ "$(wc -l <"$tmpdir/map")" -gt 100 ] || die "suspiciously few exports: $(wc -l <"$tmpdir/map")"

# every symbol carries the version node
if nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ && $3 !~ /@@LIBSAMPO_/ && $3 !~ /^LIBSAMPO_/' | grep .; then
	die "exports without the LIBSAMPO version node"
fi

# the umbrella header names every header, and each header stands alone in strict C11
for h in "$SAMPO_SRCDIR"/include/sampo/*.h; do
	name=${h##*/}
	[ "$name" = sampo.h ] && continue
	grep -q "^#include <sampo/$name>" "$SAMPO_SRCDIR/include/sampo/sampo.h" ||
		die "include/sampo/sampo.h does not include <sampo/$name>"
	printf '#include <sampo/%s>\n' "$name" >"$tmpdir/one.c"
	"$cc" -std=c11 -pedantic -Wall -Wextra -Werror -I"$SAMPO_SRCDIR/include" -c "$tmpdir/one.c" \
		-o "$tmpdir/one.o" 2>"$tmpdir/err" || { cat "$tmpdir/err" >&2; die "<sampo/$name> does not compile on its own"; }
done
printf '#include <sampo/sampo.h>\nint main(void) { return 0; }\n' >"$tmpdir/all.c"
"$cc" -std=c11 -pedantic -Wall -Wextra -Werror -I"$SAMPO_SRCDIR/include" "$tmpdir/all.c" \
	-o "$tmpdir/all" || die "<sampo/sampo.h> does not compile"
pass
