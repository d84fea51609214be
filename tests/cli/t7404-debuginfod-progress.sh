#!/bin/bash
# t7404-debuginfod-progress: a download from debuginfod that takes a while draws a progress bar
# on a terminal (and none in a pipe), then clears it and prints its one notice; the server is a
# small one that sends the executable in 20 pieces over about two seconds
. "$(dirname "$0")/lib.sh"
. "$SAMPO_SRCDIR/tests/cli/debuginfod-lib.sh"
need_perf_record
need_cmd cc python3

unset DEBUGINFOD_TIMEOUT DEBUGINFOD_CACHE_PATH PERF_BUILDID_DIR
bin=$tmpdir/bin
mkdir -p "$bin" "$tmpdir/home"
cat >"$tmpdir/prog.c" <<'SRC'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) unsigned long spin_slowly_fetched(unsigned long n)
{
	unsigned long x = 3;

	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005UL ^ i;
	return x;
}
int main(int argc, char **argv)
{
	printf("%lu\n", spin_slowly_fetched(strtoul(argv[1], NULL, 10)));
	return 0;
}
SRC
cc -O1 -g -fno-omit-frame-pointer -Wl,--build-id -o "$bin/prog" "$tmpdir/prog.c" || die "cannot build"
HOME=$tmpdir/home "$PERF" record -q -e cpu-clock -F 2000 -o "$tmpdir/rec.data" -- \
	"$bin/prog" 20000000 >/dev/null 2>&1 || die "perf record failed"
cp "$bin/prog" "$tmpdir/served"
mv "$bin" "$tmpdir/bin.away"

python3 -c '
import socket, sys, time
data = open(sys.argv[1], "rb").read()
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
print(s.getsockname()[1], flush=True)
while True:
    c, _ = s.accept()
    req = c.recv(65536)
    if b"/executable " not in req:
        c.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        c.close()
        continue
    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
              b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(data))
    step = max(1, len(data) // 20)
    for i in range(0, len(data), step):
        c.sendall(data[i:i + step])
        time.sleep(0.1)
    c.close()
' "$tmpdir/served" >"$tmpdir/port" &
slow_pid=$!
trap 'kill $slow_pid 2>/dev/null; cleanup_tmpdir' EXIT
for _ in $(seq 1 100); do
	[ -s "$tmpdir/port" ] && break
	sleep 0.1
done
url=http://127.0.0.1:$(cat "$tmpdir/port")

# on a terminal: the bar, then the notice, and the symbols
mkdir -p "$tmpdir/term-home"
HOME=$tmpdir/term-home SAMPO_PROGRESS_DELAY_MS=0 SAMPO_PAGER=cat DEBUGINFOD_URLS=$url \
	python3 "$SAMPO_SRCDIR/tests/cli/pty-run.py" "$SAMPO" report --stdio --debuginfod-timeout 120 \
	-i "$tmpdir/rec.data" >"$tmpdir/term" 2>&1 || die "report on a terminal failed: $(cat "$tmpdir/term")"
grep -aq "debuginfod: $bin/prog \[#* *\] *[0-9]*%" "$tmpdir/term" ||
	die "no progress bar: $(head -c 2000 "$tmpdir/term" | cat -A)"
grep -aq "sampo report: debuginfod: fetched the executable of '$bin/prog' from $url" "$tmpdir/term" ||
	die "no notice: $(head -c 2000 "$tmpdir/term" | cat -A)"
grep -aq '\[\.\] spin_slowly_fetched' "$tmpdir/term" || die "no symbols: $(cat "$tmpdir/term")"

# in a pipe: the notice only
mkdir -p "$tmpdir/pipe-home"
HOME=$tmpdir/pipe-home SAMPO_PROGRESS_DELAY_MS=0 DEBUGINFOD_URLS=$url "$SAMPO" report --stdio \
	--debuginfod-timeout 120 -i "$tmpdir/rec.data" >"$tmpdir/pipe.out" 2>"$tmpdir/pipe.err" ||
	die "report in a pipe failed"
grep -q '\[#' "$tmpdir/pipe.err" && die "a progress bar in a pipe: $(cat -A "$tmpdir/pipe.err")"
[ "$(grep -c "fetched the executable of '$bin/prog'" "$tmpdir/pipe.err")" = 1 ] || die "no notice: $(cat "$tmpdir/pipe.err")"
grep -q '\[\.\] spin_slowly_fetched' "$tmpdir/pipe.out" || die "no symbols in a pipe"
pass
