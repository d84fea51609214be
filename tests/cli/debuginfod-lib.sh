# debuginfod-lib.sh - helpers of the debuginfod tests (t74xx), sourced after lib.sh:
# Debian's debuginfod server and a silent server, on free loopback ports.

# free_port: a loopback TCP port nobody listens on (bound, then released)
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_debuginfod DIR BUILD-ID...: serve DIR's ELF files; returns once every
# BUILD-ID is served (the server has scanned them). Sets $dbgd_url.
start_debuginfod() {
	local dir=$1 port tries bid ready
	shift
	need_cmd debuginfod python3
	port=$(free_port)
	debuginfod -F -p "$port" -d "$tmpdir/debuginfod.sqlite" -t 0 -g 0 -c 1 "$dir" \
		>"$tmpdir/debuginfod.log" 2>&1 &
	dbgd_pid=$!
	trap 'kill $dbgd_pid ${slow_pid:-} 2>/dev/null; cleanup_tmpdir' EXIT
	dbgd_url=http://127.0.0.1:$port
	for tries in $(seq 1 600); do
		ready=1
		for bid in "$@"; do
			python3 -c "import urllib.request as u; u.urlopen('$dbgd_url/buildid/$bid/executable', timeout=5)" \
				2>/dev/null || { ready=0; break; }
		done
		[ "$ready" = 1 ] && return 0
		kill -0 "$dbgd_pid" 2>/dev/null || die "debuginfod exited: $(tail -5 "$tmpdir/debuginfod.log")"
		sleep 0.2
	done
	die "debuginfod did not serve $* after 120 s: $(tail -5 "$tmpdir/debuginfod.log")"
}

# start_silent_server: a server that accepts connections and never answers; each
# accepted connection adds a line to $tmpdir/silent.log. Sets $silent_url.
start_silent_server() {
	python3 -c '
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(64)
print(s.getsockname()[1], flush=True)
held = []
while True:
    c, _ = s.accept()
    held.append(c)
    with open(sys.argv[1], "a") as log:
        log.write("accepted\n")
' "$tmpdir/silent.log" >"$tmpdir/silent.port" &
	slow_pid=$!
	trap 'kill ${dbgd_pid:-} $slow_pid 2>/dev/null; cleanup_tmpdir' EXIT
	for _ in $(seq 1 100); do
		[ -s "$tmpdir/silent.port" ] && break
		sleep 0.1
	done
	[ -s "$tmpdir/silent.port" ] || die "the silent server did not start"
	: >"$tmpdir/silent.log"
	silent_url=http://127.0.0.1:$(cat "$tmpdir/silent.port")
}

# build_id FILE: its GNU build-id in hex
build_id() {
	readelf -n "$1" | sed -n 's/^ *Build ID: *//p'
}
