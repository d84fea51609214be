#!/usr/bin/env python3
# pty-run.py - run a command with a pseudo-terminal as its stdin, stdout and
# stderr (what a person at a terminal gives it); write everything that
# reached the terminal to stdout, '\r\n' made '\n'; exit with its status.
# For the pager tests (t6202): python3's pty module, no other dependency.
import os
import pty
import sys

pid, fd = pty.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[1], sys.argv[1:])
    finally:
        os._exit(127)
out = bytearray()
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:  # EIO: every process holding the terminal has closed it
        break
    if not data:
        break
    out += data
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(bytes(out).replace(b"\r\n", b"\n"))
sys.exit(os.waitstatus_to_exitcode(status))
