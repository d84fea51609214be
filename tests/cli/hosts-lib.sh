# hosts-lib.sh - the inputs of the many-hosts tests (t6400-t6403), sourced after lib.sh;
# the perf.data files themselves come from mkhosts.py.

# build_host_libs: in the current directory, the shared libraries of the two synthetic
# machines, each with a fixed build-id: foo1.so (alpha's libfoo), foo2.so (beta's: the same
# path, another build, one function more) and bar.so (the same on both)
build_host_libs() {
	cat >foo1.c <<'SRC'
int foo_one(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * 3; return s; }
int foo_two(int x) { int s = 1; for (int i = 0; i < x; i++) s ^= i * 7; return s; }
SRC
	cat >foo2.c <<'SRC'
int foo_zero(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * 5 + x * 11 + (s >> 3); return s; }
int foo_one(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * 3; return s; }
int foo_two(int x) { int s = 1; for (int i = 0; i < x; i++) s ^= i * 7; return s; }
SRC
	echo 'int bar_main(int x) { return x * 2 + 1; }' >bar.c
	host_so 1111111111111111111111111111111111111111 foo1.so foo1.c
	host_so 2222222222222222222222222222222222222222 foo2.so foo2.c
	host_so 3333333333333333333333333333333333333333 bar.so bar.c
}

# host_so BUILD-ID OUT SRC: a small shared library with that build-id
host_so() {
	cc -shared -fPIC -O0 -nostdlib -Wl,--build-id=0x"$1" -o "$2" "$3" || die "cannot build $2"
}

# pick_slides: $slide_a and $slide_b, two different random KASLR slides (2 MiB steps)
pick_slides() {
	slide_a=$(((RANDOM % 400 + 1) * 2097152))
	slide_b=$(((RANDOM % 400 + 1) * 2097152))
	[ "$slide_a" != "$slide_b" ] || slide_b=$((slide_a + 2097152))
}
