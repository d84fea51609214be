#!/bin/bash
# t7302-archive-unpack-traps: sampo archive --unpack (and report --archive) never writes outside
# its target: archives crafted with python's tarfile holding an absolute name, '..', a symlink
# pointing out (absolute, climbing, '..' after a name), a path through a symlink, a hard link, a
# device, a FIFO, a member over --max-member-size, members over --max-total-size, a damaged
# archive and one that is not an archive are each refused with one line naming the member; a
# well-formed archive with perf's own '../../NAME/BID' links unpacks
. "$(dirname "$0")/lib.sh"

need_cmd python3
cd "$tmpdir"
mkdir outside
python3 - <<'PY'
import io, tarfile

def add_file(t, name, data=b'x', **kw):
    ti = tarfile.TarInfo(name)
    ti.size = len(data)
    for k, v in kw.items():
        setattr(ti, k, v)
    t.addfile(ti, io.BytesIO(data))

def add_link(t, name, target, kind=tarfile.SYMTYPE):
    ti = tarfile.TarInfo(name)
    ti.type = kind
    ti.linkname = target
    t.addfile(ti)

def make(path, fill, mode='w:bz2'):
    with tarfile.open(path, mode, format=tarfile.GNU_FORMAT) as t:
        fill(t)

out = __import__('os').path.abspath('outside')
make('abs.tar.bz2', lambda t: add_file(t, out + '/evil'))
make('dotdot.tar.bz2', lambda t: add_file(t, '../outside/evil'))
make('dotdot2.tar.gz', lambda t: add_file(t, 'a/b/../../../outside/evil'), 'w:gz')
make('linkabs.tar.bz2', lambda t: add_link(t, 'l', out))
make('linkup.tar.bz2', lambda t: add_link(t, 'a/l', '../../outside'))
make('linkmid.tar.xz', lambda t: (add_link(t, 's', '.'), add_link(t, 'l', 's/../outside')), 'w:xz')
make('through.tar.bz2', lambda t: (add_link(t, 'sub', 'dir'), add_file(t, 'sub/evil')))
make('hard.tar.bz2', lambda t: (add_file(t, 'f'), add_link(t, 'h', 'f', tarfile.LNKTYPE)))
def dev(t):
    ti = tarfile.TarInfo('null'); ti.type = tarfile.CHRTYPE; ti.devmajor = 1; ti.devminor = 3
    t.addfile(ti)
make('dev.tar.bz2', dev)
def fifo(t):
    ti = tarfile.TarInfo('fifo'); ti.type = tarfile.FIFOTYPE
    t.addfile(ti)
make('fifo.tar.bz2', fifo)
make('big.tar.bz2', lambda t: add_file(t, 'big', b'y' * 2000))
make('total.tar.bz2', lambda t: [add_file(t, 'm%d' % i, b'z' * 600) for i in range(3)])
# perf archive's shape: a link '../../NAME/BID' and the entry directory
def good(t):
    add_link(t, '.build-id/ab/cdef', '../../usr/bin/x/abcdef')
    ti = tarfile.TarInfo('usr/bin/x/abcdef'); ti.type = tarfile.DIRTYPE; t.addfile(ti)
    add_file(t, 'usr/bin/x/abcdef/elf', b'ELF!', mode=0o755)
make('good.tar.bz2', good)
make('long.tar', lambda t: (add_file(t, 'a'), add_file(t, 'b', __import__('os').urandom(300000))), 'w')
data = open('long.tar', 'rb').read()
open('damaged.tar', 'wb').write(data[:200000])
open('notar.tar.bz2', 'wb').write(b'this is not an archive\n' * 40)
PY

# trap ARCHIVE MEMBER-OR-TEXT [OPTIONS]: refused with one line naming it, nothing outside
trap_case() {
	local a=$1 what=$2
	shift 2
	rm -rf target
	expect_status 1 archive --unpack "$a" -C target "$@"
	[ "$(wc -l <"$tmpdir/stderr")" = 1 ] || die "$a: not one line: $(cat "$tmpdir/stderr")"
	grep -qF -- "$what" "$tmpdir/stderr" || die "$a: the message does not name '$what': $(cat "$tmpdir/stderr")"
	grep -qF -- "'$a'" "$tmpdir/stderr" || die "$a: the message does not name the archive: $(cat "$tmpdir/stderr")"
	[ -z "$(ls -A outside)" ] || die "$a wrote outside its target: $(ls -A outside)"
	[ ! -e evil ] && [ ! -e "$tmpdir/evil" ] || die "$a wrote next to its target"
	say "$a: $(cat "$tmpdir/stderr")"
}

trap_case abs.tar.bz2 "member '$tmpdir/outside/evil': absolute name"
trap_case dotdot.tar.bz2 "member '../outside/evil': name with a '..' component"
trap_case dotdot2.tar.gz "member 'a/b/../../../outside/evil'"
trap_case linkabs.tar.bz2 "member 'l': symbolic link to an absolute path"
trap_case linkup.tar.bz2 "member 'a/l': symbolic link that points outside the target"
trap_case linkmid.tar.xz "member 'l': symbolic link with '..' after a directory name"
trap_case through.tar.bz2 "member 'sub/evil': path goes through the symbolic link 'sub'"
[ -L target/sub ] && [ ! -e target/dir ] || die "through.tar.bz2: the link was followed"
trap_case hard.tar.bz2 "member 'h': hard link"
trap_case dev.tar.bz2 "member 'null': device file"
trap_case fifo.tar.bz2 "member 'fifo': FIFO"
trap_case big.tar.bz2 "member 'big': 2000 bytes, more than the 1000 allowed" --max-member-size 1000
trap_case total.tar.bz2 "member 'm1': the archive unpacks to more than 1000 bytes" --max-total-size 1000
trap_case damaged.tar "member 'b': damaged data"
trap_case notar.tar.bz2 "not a tar archive"

# report --archive refuses the same way, before reading anything
f=$(fixture b-callchain-fp/perf.data)
expect_status 1 report --stdio -i "$f" --archive linkup.tar.bz2
grep -qF "member 'a/l': symbolic link that points outside the target" "$tmpdir/stderr" ||
	die "report --archive: $(cat "$tmpdir/stderr")"
[ -z "$(ls -A outside)" ] || die "report --archive wrote outside"

# perf's own shape unpacks, links and all, and bounds that fit pass
rm -rf target
run_sampo archive --unpack good.tar.bz2 -C target --max-member-size 4 --max-total-size 4 >/dev/null
[ "$(cat target/.build-id/ab/cdef/elf)" = 'ELF!' ] || die "good.tar.bz2: the entry is not reachable by its link"
[ -x target/usr/bin/x/abcdef/elf ] || die "good.tar.bz2: the mode was lost"
# --unpack again over the same target replaces, never follows
run_sampo archive --unpack good.tar.bz2 -C target >/dev/null
pass
