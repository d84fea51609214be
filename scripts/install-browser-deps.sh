#!/bin/sh
# install-browser-deps.sh - the npm packages of the browser tests
# (tests/browser/package.json: playwright-core, which drives Debian's
# chromium, speedscope and ajv), installed with `npm ci` from the committed
# package-lock.json into tests/browser/node_modules.
#
# Idempotent and cheap: nothing happens when node_modules was installed from
# the same package-lock.json (a copy is kept as node_modules/.sampo-lock).
# Safe to run from several tests at once (one flock). Never downloads a
# browser: the tests use /usr/bin/chromium (scripts/install-deps.sh).
#
#   scripts/install-browser-deps.sh           install if needed
#   scripts/install-browser-deps.sh --check   exit 1 if not installed
set -eu

dir=$(cd "$(dirname "$0")/../tests/browser" && pwd)
stamp=$dir/node_modules/.sampo-lock

if cmp -s "$dir/package-lock.json" "$stamp" 2>/dev/null; then
	exit 0
fi
if [ "${1:-}" = "--check" ]; then
	echo "install-browser-deps: tests/browser/node_modules is missing or stale"
	exit 1
fi
if ! command -v npm >/dev/null 2>&1; then
	echo "install-browser-deps: npm is missing (Debian: apt-get install npm)" >&2
	exit 1
fi
exec 9>"$dir/.install.lock"
flock 9
# another run may have finished while this one waited
if cmp -s "$dir/package-lock.json" "$stamp" 2>/dev/null; then
	exit 0
fi
echo "install-browser-deps: npm ci in tests/browser" >&2
(cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2)
cp "$dir/package-lock.json" "$stamp"
