"""Every shell recipe in README.md and docs/*.md runs as written and ends as the docs say.

A recipe is a fenced code block tagged `sh`; any fenced block that starts with a command
(make, .venv/bin/..., python, mosquitto, mpremote, esptool, echo, npm) must be one. Right
above each recipe an HTML comment says how it ends, which the reader does not see:

    <!-- recipe: prints "TEXT" -->                 runs to its end: exit status 0, TEXT printed
    <!-- recipe: keeps running; prints "TEXT" -->  a server or the simulator: runs until TEXT
                                                    is printed (a URL in TEXT must then answer
                                                    200), then is stopped
    <!-- recipe: needs WHAT -->                     not run: skipped, saying WHAT (a board, the
                                                    venue's broker, a person at a terminal)

Each recipe runs in a copy of the checkout (its tracked and new files, with .venv,
node_modules and typings linked), in a pseudo-terminal (`make run` starts the simulator,
which wants one), under `bash -e`, with its folder as the working directory, so what it
writes (a virtual board's flash, build/, the regenerated images) stays in the copy. A
background job (the virtual board's `&`) is stopped with the recipe's process group.
"""

import os
import re
import select
import shutil
import signal
import subprocess
import time
import urllib.request

import pytest
from conftest import ROOT
from mosquitto import free_port

TIMEOUT = 300  # seconds for one recipe on a busy two-core machine
FENCE = re.compile(r"(?m)^( *)```(\S*)[^\n]*\n(.*?)^\1```", re.S)
COMMENT = re.compile(r"<!-- recipe: (.*?) -->\s*$")
COMMAND = re.compile(r"(make|\.venv/bin/\S+|python3?|mosquitto\S*|mpremote|esptool|echo|npm)\b")
PRINTS = re.compile(r"""prints (?:"(.*)"|'(.*)')$""")


def doc_files():
    """README.md and docs/*.md, relative to the root."""
    names = sorted(n for n in os.listdir(os.path.join(ROOT, "docs")) if n.endswith(".md"))
    return ["README.md"] + ["docs/" + n for n in names]


def blocks():
    """(file, line, tag, code, recipe comment or None) of every fenced block."""
    out = []
    for rel in doc_files():
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            text = f.read()
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
            c = COMMENT.search(before)
            code = "\n".join(s[len(m.group(1)):] for s in m.group(3).split("\n"))
            out.append((rel, line, m.group(2), code, c.group(1) if c else None))
    return out


BLOCKS = blocks()
RECIPES = [b for b in BLOCKS if b[2] == "sh"]


def test_every_block_of_commands_is_a_recipe_with_its_ending():
    first = [(rel, line, code.strip().split("\n")[0]) for rel, line, tag, code, _c in BLOCKS
             if tag != "sh" and code.strip()]
    untagged = ["%s:%d %s" % f for f in first if COMMAND.match(f[2])]
    assert untagged == [], "blocks of commands not tagged sh (a recipe)"
    silent = ["%s:%d" % (rel, line) for rel, line, _t, _c, comment in RECIPES if not comment]
    assert silent == [], "recipes without a <!-- recipe: ... --> comment above them"
    for rel, line, _t, _c, comment in RECIPES:
        assert comment.startswith("needs ") or PRINTS.search(comment), \
            "%s:%d: unknown recipe comment %r" % (rel, line, comment)
    assert len(RECIPES) >= 10


def _checkout_copy(dest):
    """The checkout's files (tracked and new, not ignored) copied to dest, the installs
    linked."""
    names = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in names:
        src = os.path.join(ROOT, name)
        if not name or not os.path.isfile(src) or os.path.islink(src):
            continue
        os.makedirs(os.path.dirname(os.path.join(dest, name)), exist_ok=True)
        shutil.copy2(src, os.path.join(dest, name))  # mtimes kept: make sees .venv current
    for link in (".venv", "node_modules", "typings"):
        if os.path.exists(os.path.join(ROOT, link)):
            os.symlink(os.path.realpath(os.path.join(ROOT, link)), os.path.join(dest, link))


def run_recipe(code, cwd, until=None, then=None, timeout=TIMEOUT, env=None):
    """Run code under `bash -e` in a pseudo-terminal; returns (exit status, or None if it
    was stopped, output). until: stop it once this text is printed, after calling then().
    env: more environment variables."""
    import fcntl
    import pty
    import struct
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # the child: a session of its own, the pty its terminal
        try:
            os.chdir(cwd)
            os.environ["TERM"] = "xterm"
            os.environ.update(env or {})
            os.execvp("bash", ["bash", "-e", "-c", code])
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 140, 0, 0))
    out = []
    status = None

    def read(wait):
        r, _, _ = select.select([fd], [], [], wait)
        if not r:
            return False
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # nothing holds the terminal any more
            return False
        out.append(chunk)
        return bool(chunk)

    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            if until and until in b"".join(out).decode("utf-8", "replace"):
                if then:
                    then()
                break
            if read(0.2):
                continue
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:  # the recipe ended (a background job of it may hold the terminal)
                status = os.waitstatus_to_exitcode(st)
                while read(0.5):
                    pass
                break
        else:
            raise AssertionError("no end after %d s:\n%s" % (timeout, b"".join(out)[-3000:]))
    finally:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(pid, sig)  # the recipe's background jobs too
            except ProcessLookupError:
                break
            time.sleep(1)
        if status is None:
            os.waitpid(pid, 0)
        os.close(fd)
    return status, b"".join(out).decode("utf-8", "replace").replace("\r\n", "\n")


@pytest.mark.parametrize("rel,line,code,comment",
                         [(b[0], b[1], b[3], b[4]) for b in RECIPES],
                         ids=["%s:%d" % (b[0], b[1]) for b in RECIPES])
def test_the_recipe_ends_as_the_docs_say(rel, line, code, comment, tmp_path):
    if comment is None:
        pytest.fail("no recipe comment (see the test above)")
    if comment.startswith("needs "):
        pytest.skip("%s:%d %s" % (rel, line, comment))
    m = PRINTS.search(comment)
    text = m.group(1) if m.group(1) is not None else m.group(2)
    keeps = comment.startswith("keeps running")
    # The page's port: a free one, as a user whose 8066 is taken sets it (make web
    # WEB_PORT=..., which the Makefile also takes from the environment), so a `make web`
    # already serving on this machine fails no test.
    port = free_port()
    text = text.replace(":8066/", ":%d/" % port)
    url = re.search(r"http://\S+/", text)
    copy = tmp_path / "checkout"
    _checkout_copy(str(copy))
    answers = []

    def fetch():  # the page a server recipe says it serves
        with urllib.request.urlopen(url.group(0), timeout=30) as r:
            answers.append(r.status)

    status, out = run_recipe(code, str(copy), until=text if keeps else None,
                             then=fetch if url and keeps else None,
                             env={"WEB_PORT": str(port)})
    where = "%s:%d, as written:\n%s\n--- output (end):\n%s" % (rel, line, code, out[-3000:])
    assert text in out, "the recipe did not print %r: %s" % (text, where)
    assert "Traceback" not in out and "MemoryError" not in out, where
    if keeps:
        assert status is None, "it was to keep running but ended (%s): %s" % (status, where)
    else:
        assert status == 0, "exit status %s: %s" % (status, where)
    if url and keeps:
        assert answers == [200], where
