"""A virtual board for mpremote: the MicroPython unix port behind a pseudo-terminal.

    python tools/vboard.py --dir vboard_flash --link vboard.tty [--heapsize 256k] [--path DIR]
    mpremote connect vboard.tty fs ls        # then use it like a board on a serial port

The unix port speaks the raw REPL, so mpremote can exec, copy files, hash them and so on.
What a real board does and the unix port does not is done here:
- A soft reset (Ctrl-D at an empty raw REPL) makes the unix port exit. The bridge starts a
  new process, prints "soft reboot" and, if the old one was in the raw REPL, puts the new
  one into it too, as a board would be after its soft reboot. machine.reset() in a fake
  machine module can simply exit: it ends up the same way.
- Ctrl-C interrupts running code (see interrupt()).
- The "flash" is the folder --dir: the process runs there, so files copied to the board land
  in it and survive resets. One folder per virtual board.
- --path folders come before it on the module path (e.g. one holding a fake machine.py
  with Pin/I2C/PWM); they are not part of the board's file system.
- --romfs FILE gives it a ROMFS partition, as a MicroPython built with one has
  (tools/vboard_romfs.py): `mpremote romfs deploy` writes it, and a reset mounts it at /rom.
The device link is a symlink to the pseudo-terminal. Output that nobody reads is dropped,
as a UART with no listener would. Stop it with SIGTERM or SIGINT.
main.py does not run on reset: tests import it themselves.
"""

import argparse
import errno
import os
import pty
import select
import signal
import sys
import termios
import tty

RAW_BANNER = b"raw REPL; CTRL-B to exit"
HEAPSIZE = "256k"  # the 64-bit unix port, as host_tests/test_deploy.py runs it
ROMFS_SIZE = 128 * 1024  # MicroPython's 4 MiB partition table with a ROMFS has 128 KB
FRIENDLY_PROMPT = b"\n>>> "


def default_micropython():
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    return here if os.path.exists(here) else "micropython"


class Bridge:
    def __init__(self, flash_dir, link, micropython, heapsize=None, paths=(), romfs=None):
        self.flash_dir = os.path.abspath(flash_dir)
        self.link = link
        self.argv = [micropython] + (["-X", "heapsize=" + heapsize] if heapsize else [])
        self.env = dict(os.environ, MICROPYPATH=":".join(
            [os.path.abspath(p) for p in paths] + [".frozen"]))
        if romfs:
            # A ROMFS partition (tools/vboard_romfs.py), set up before the REPL starts.
            self.argv += ["-i", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                             "vboard_romfs.py")]
            self.env["VBOARD_ROMFS"] = os.path.abspath(romfs)
        self.raw = False  # the process is in the raw REPL
        self.tail = b""  # the last output bytes, to follow the REPL mode
        self.pid = None
        self.fd = None
        self.restarts = 0

    # -- the exposed side --------------------------------------------------------------

    def open_port(self):
        self.master, self.slave = os.openpty()  # the slave stays open: no EIO between clients
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        if os.path.lexists(self.link):
            os.unlink(self.link)
        os.symlink(os.ttyname(self.slave), self.link)

    def to_client(self, data):
        try:
            os.write(self.master, data)
        except BlockingIOError:
            pass  # nobody reads: drop it

    # -- the process ------------------------------------------------------------------

    def spawn(self):
        os.makedirs(self.flash_dir, exist_ok=True)
        pid, fd = pty.fork()
        if pid == 0:  # the child: its pty is its controlling terminal, so Ctrl-C interrupts
            try:
                tty.setraw(0)
                attrs = termios.tcgetattr(0)
                attrs[3] |= termios.ISIG  # lflag: keep Ctrl-C -> SIGINT while code runs
                termios.tcsetattr(0, termios.TCSANOW, attrs)
                os.chdir(self.flash_dir)
                os.execvpe(self.argv[0], self.argv, self.env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.tail = b""
        return self.banner()

    def banner(self, timeout=5.0):
        """Wait for the new process's first prompt (its tty is raw from then on, so input
        sent earlier would be echoed by the still-cooked tty); returns what it printed."""
        got = b""
        while not got.endswith(b">>> "):
            r, _, _ = select.select([self.fd], [], [], timeout)
            if not r:
                break
            try:
                data = os.read(self.fd, 4096)
            except OSError:
                break
            if not data:
                break
            got += data
        return got

    def reap(self):
        if self.pid is None:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        os.close(self.fd)
        self.pid = self.fd = None

    def restart(self):
        was_raw = self.raw
        self.reap()
        self.restarts += 1
        self.to_client(b"soft reboot\r\n")
        banner = self.spawn()
        self.raw = False
        if was_raw:
            os.write(self.fd, b"\x01")  # back into the raw REPL, as the board stays
        else:
            self.from_child(banner)

    def from_child(self, data):
        self.to_client(data)
        text = self.tail + data
        r = text.rfind(RAW_BANNER)
        f = text.rfind(FRIENDLY_PROMPT)
        if r >= 0 or f >= 0:
            self.raw = r > f
        self.tail = text[-64:]

    # -- the pump -----------------------------------------------------------------------

    def serve(self):
        self.open_port()
        self.from_child(self.spawn())
        print("virtual board on %s, flash %s" % (self.link, self.flash_dir), flush=True)
        while True:
            r, _, _ = select.select([self.master, self.fd], [], [], 0.5)
            if self.fd in r:
                try:
                    data = os.read(self.fd, 4096)
                except OSError as e:
                    if e.errno != errno.EIO:
                        raise
                    data = b""
                if data:
                    self.from_child(data)
                else:
                    self.restart()  # the process ended: a soft reset (or a crash)
                    continue
            if self.master in r:
                try:
                    data = os.read(self.master, 4096)
                except (BlockingIOError, OSError):
                    data = b""
                if data:
                    os.write(self.fd, data)
                    if b"\x03" in data:
                        self.interrupt()
            if self.pid is not None and os.waitpid(self.pid, os.WNOHANG)[0]:
                # Exited but the pty is not drained yet: pass on what is left, then restart.
                self.drain()
                self.pid = None
                os.close(self.fd)
                self.fd = None
                self.restart()

    def interrupt(self):
        """Ctrl-C from the client while code runs. A board sees it on its UART at any time;
        the unix port only through SIGINT, and its tty does not raise that while it runs
        code from the raw REPL (the tty is raw then). So send the signal, but only when the
        process is not waiting at a prompt (there SIGINT would end it)."""
        t = self.tail
        if t.endswith(b">") or t.endswith(b">>> ") or t.endswith(b"... "):
            return
        if termios.tcgetattr(self.fd)[3] & termios.ISIG:
            return  # the tty has turned the byte into SIGINT itself
        os.kill(self.pid, signal.SIGINT)

    def drain(self):
        while True:
            r, _, _ = select.select([self.fd], [], [], 0)
            if not r:
                return
            try:
                data = os.read(self.fd, 4096)
            except OSError:
                return
            if not data:
                return
            self.from_child(data)

    def close(self):
        self.reap()
        if os.path.islink(self.link):
            os.unlink(self.link)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True, help="the board's flash: a folder")
    ap.add_argument("--link", required=True, help="device path to create (a symlink)")
    # The unix port is a 64-bit build: the firmware needs about 1.4 times an ESP32's heap
    # there (docs/memory.md; make bench's 64-bit row), more than an ESP32's 56 KiB.
    ap.add_argument("--heapsize", default=HEAPSIZE,
                    help="GC heap (%s: room for the firmware on the 64-bit unix port)"
                         % HEAPSIZE)
    ap.add_argument("--path", action="append", default=[],
                    help="folder put on the module path before the flash (repeatable)")
    ap.add_argument("--micropython", default=default_micropython())
    ap.add_argument("--romfs", metavar="FILE",
                    help="give the board a ROMFS partition: FILE is its flash (created, "
                         "128 KiB, erased, if missing)")
    args = ap.parse_args(argv)
    if args.romfs and not os.path.exists(args.romfs):
        with open(args.romfs, "wb") as f:
            f.write(b"\xff" * ROMFS_SIZE)
    bridge = Bridge(args.dir, args.link, args.micropython, args.heapsize, args.path,
                    args.romfs)

    def stop(_sig, _frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        bridge.serve()
    finally:
        bridge.close()


if __name__ == "__main__":
    main()
