"""A test's LAN in a network namespace of its own: the page at a phone's address, and no
packet to this computer's real network.

    @netns.inside
    def serve_and_open(folder):          # at a module's top level, JSON in and out
        addr = web.lan_address()         # netns.LAN
        ...
        return {"addr": addr, ...}

    got = netns.run(serve_and_open, str(tmp_path))   # in a test (netns.need() first)

run() starts this file again under `unshare -n` (`unshare -rn`, a user namespace too, for
a user who is not root), in a network namespace with only a loopback, which it brings up,
and one interface, LAN_IF, with the address LAN/24 and the default route through it: as
a laptop's WiFi, so web.lan_address() there finds LAN. That interface is a dummy one, or
where the kernel has none a veth pair whose other end is in the namespace too; neither has
a wire, so whatever the namespace sends stays in it. The function runs there (its server,
its browser, its client sockets), and its answer comes back as JSON.

A function marked @inside refuses to run anywhere else, and test_netns.py checks that no
test calls lan_address() outside such a function, nor what calls it: a banner of the
wildcard address (without a stand-in for lan_address) or tools/web.py --host 0.0.0.0.
"""

import ast
import functools
import importlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
LAN = "192.168.1.23"  # the laptop's address on a home network, as the docs' examples have it
GATEWAY = "192.168.1.1"
LAN_IF = "s66lan"
PEER_IF = "s66wire"  # the veth pair's other end, where the kernel has no dummy interface
OUTSIDE = "S66_NETNS_OUTSIDE"  # the environment's note of the namespace run() started from
# Chromium's switches for a drive in the namespace (browser.drive's args): it looks up its
# own servers' names (sign-in, autofill) whatever page it opens, and the system's resolver
# is no address of the namespace's; every name but the page's address is "not found" at
# once, and no query is sent even onto the namespace's wire.
CHROMIUM = ("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE %s" % LAN,)


class Failed(AssertionError):
    """The function failed in the namespace (its traceback), or the namespace did."""


def _own_namespace():
    return os.readlink("/proc/self/ns/net")


def unshare():
    """The command that starts a program in a new network namespace: root needs no user
    namespace (CI runs as root); another user gets one, where it is root."""
    return ["unshare", "-n"] if os.geteuid() == 0 else ["unshare", "-rn"]


@functools.lru_cache(maxsize=None)
def missing():
    """Why no namespace with a LAN can be made here, or None (tried once a run)."""
    try:
        got = _start(["--probe"], timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return "no network namespace (%s): %s" % (" ".join(unshare()), e)
    if "error" in got:
        return "no network namespace with a LAN interface (%s): %s" % (
            " ".join(unshare()), got["error"].strip().splitlines()[-1])
    return None


def need():
    """Skip the test where no namespace can be made; in CI, fail it."""
    why = missing()
    if why:
        import pytest

        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def run(fn, *args, timeout=600):
    """fn(*args) in a new network namespace with LAN on LAN_IF: its answer (JSON)."""
    if not getattr(fn, "netns_inside", False):
        raise TypeError("%s is not marked @netns.inside" % getattr(fn, "__qualname__", fn))
    if "." in fn.__qualname__ or fn.__module__ == "__main__":
        raise TypeError("%s is not at an importable module's top level" % fn.__qualname__)
    got = _start(["--call", fn.__module__, fn.__qualname__, json.dumps(list(args))], timeout)
    if "error" in got:
        raise Failed("%s in its namespace:\n%s" % (fn.__qualname__, got["error"]))
    return got["result"]


def _start(argv, timeout):
    with tempfile.TemporaryDirectory(prefix="s66-netns-") as tmp:
        answer, said = os.path.join(tmp, "answer.json"), os.path.join(tmp, "said.txt")
        env = dict(os.environ, **{OUTSIDE: _own_namespace()})
        with open(said, "wb") as out:
            # A session of its own: on a timeout, and at its end whatever it left running
            # (a browser), the whole group is ended.
            proc = subprocess.Popen(unshare() + [sys.executable, os.path.abspath(__file__)]
                                    + argv + [answer], env=env, stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True)
            try:
                proc.wait(timeout)
            finally:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
        if not os.path.exists(answer):
            with open(said, "rb") as f:
                text = f.read().decode(errors="replace")[-3000:]
            return {"error": "no answer (exit %d): %s" % (proc.returncode, text)}
        with open(answer) as f:
            return json.load(f)


# ---- inside --------------------------------------------------------------------------

def not_inside():
    """Why this process is not in a namespace that run() made, or None."""
    outside = os.environ.get(OUTSIDE)
    if not outside:
        return "not started by netns.run()"
    if _own_namespace() == outside:
        return "in the namespace netns.run() was called from"
    if LAN_IF not in {name for _i, name in socket.if_nameindex()}:
        return "no %s interface here" % LAN_IF
    return None


def inside(fn):
    """Marks a function that runs only in run()'s namespace (and refuses elsewhere)."""
    @functools.wraps(fn)
    def guarded(*args, **kw):
        why = not_inside()
        if why:
            raise RuntimeError("%s runs only in a namespace of netns.run(): %s"
                               % (fn.__qualname__, why))
        return fn(*args, **kw)

    guarded.netns_inside = True
    return guarded


def _ip(*args):
    proc = subprocess.run(("ip",) + args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("ip %s: %s" % (" ".join(args), proc.stderr.strip()))


def set_up():
    """Loopback up; LAN_IF (dummy, else a veth pair) up with LAN/24 and the default route."""
    if not_inside() not in (None, "no %s interface here" % LAN_IF):
        raise RuntimeError("not in a network namespace of our own: %s" % not_inside())
    # No IPv6 here: a link-local address that appears a second after the link comes up
    # (its duplicate check) is a network change to Chromium, which then fails the page's
    # loads under way with ERR_NETWORK_CHANGED.
    for conf in ("all", "default"):
        try:
            with open("/proc/sys/net/ipv6/conf/%s/disable_ipv6" % conf, "w") as f:
                f.write("1")
        except OSError:
            pass
    _ip("link", "set", "lo", "up")
    try:
        _ip("link", "add", LAN_IF, "type", "dummy")
    except RuntimeError:
        _ip("link", "add", LAN_IF, "type", "veth", "peer", "name", PEER_IF)
        _ip("link", "set", PEER_IF, "up")
    _ip("addr", "add", LAN + "/24", "dev", LAN_IF)
    _ip("link", "set", LAN_IF, "up")
    _ip("route", "add", "default", "via", GATEWAY, "dev", LAN_IF)
    # Up before anything starts: the state the kernel reports, waited for (bounded).
    for _ in range(200):
        shown = subprocess.run(("ip", "-o", "link", "show", LAN_IF), capture_output=True,
                               text=True).stdout
        if " state UP " in shown or " state UNKNOWN " in shown:
            break
        time.sleep(0.01)


def main(argv):
    answer = argv[-1]
    got = {}
    try:
        set_up()
        if argv[1] == "--call":
            for path in (HERE, os.path.join(os.path.dirname(HERE), "tools")):
                if path not in sys.path:
                    sys.path.insert(0, path)
            fn = getattr(importlib.import_module(argv[2]), argv[3])
            got["result"] = fn(*json.loads(argv[4]))
    except Exception:  # noqa: BLE001 (the test says what broke, with the traceback)
        got["error"] = traceback.format_exc()
    with open(answer, "w") as f:
        json.dump(got, f)
    return 0


# ---- the rule: a test reaches a LAN address only in here --------------------------------

WILDCARD = ("0.0.0.0", "")


def _is_inside(fn):
    for d in fn.decorator_list:
        if (isinstance(d, ast.Name) and d.id == "inside") or (
                isinstance(d, ast.Attribute) and d.attr == "inside"):
            return True
    return False


def _name(call):
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _stubs_lan_address(fn):
    """Whether fn puts a stand-in for lan_address (monkeypatch.setattr(web, "lan_address",
    ...)): its banner of the wildcard address then asks no network."""
    for node in ast.walk(fn):
        if (isinstance(node, ast.Call) and _name(node) == "setattr"
                and any(isinstance(a, ast.Constant) and a.value == "lan_address"
                        for a in node.args)):
            return True
    return False


def _serves_the_wildcard(seq):
    """Whether a list of arguments has --host 0.0.0.0 (tools/web.py, which then prints the
    banner of lan_address())."""
    words = [e.value if isinstance(e, ast.Constant) else None for e in seq.elts]
    return any(a == "--host" and b in WILDCARD for a, b in zip(words, words[1:]))


def lan_calls_outside(source, filename="<test>"):
    """Where source calls lan_address(), banner() of the wildcard address without a
    stand-in for lan_address, or tools/web.py with --host 0.0.0.0, outside a function
    marked @inside: ["file:line: what", ...]."""
    found = []

    def visit(node, within, stubbed):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            within = within or _is_inside(node)
            stubbed = stubbed or _stubs_lan_address(node)
        elif isinstance(node, ast.Call) and not within:
            name = _name(node)
            wild = (name == "banner" and node.args and isinstance(node.args[0], ast.Constant)
                    and node.args[0].value in WILDCARD and not stubbed)
            if name == "lan_address" or wild:
                found.append("%s:%d: %s()" % (filename, node.lineno, name))
        elif isinstance(node, (ast.List, ast.Tuple)) and not within:
            if _serves_the_wildcard(node):
                found.append("%s:%d: --host %s" % (filename, node.lineno, WILDCARD[0]))
        for child in ast.iter_child_nodes(node):
            visit(child, within, stubbed)

    visit(ast.parse(source, filename), False, False)
    return found

if __name__ == "__main__":
    sys.exit(main(sys.argv))
