"""The rule for a test of the page at a LAN address: it sends to loopback only, or to an
address in a network namespace that it makes itself (netns.py), never to this computer's
own LAN address. Here: that namespace is the test's own (its own interfaces, its own
loopback, the LAN address on its interface), a function meant for it refuses to run
anywhere else, and no test calls lan_address() outside such a function.
"""

import glob
import os
import socket
import sys

import netns
import pytest
from conftest import ROOT, TOOLS

sys.path.insert(0, TOOLS)
import web  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


@netns.inside
def look_around(port):
    """In the namespace: what it is, what it has, and whether a server listening on the
    test's loopback (port) can be reached from it."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            reached = "connected"
    except OSError as e:
        reached = type(e).__name__
    return {"namespace": os.readlink("/proc/self/ns/net"), "lan": web.lan_address(),
            "interfaces": sorted(name for _i, name in socket.if_nameindex()),
            "outside_loopback": reached}


@netns.inside
def fail_there():
    raise ValueError("broken in the namespace")


def test_the_namespace_is_the_tests_own_with_the_lan_address_on_its_interface():
    netns.need()
    with socket.socket() as server:  # on the test's own loopback
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        got = netns.run(look_around, server.getsockname()[1])
    assert got["namespace"] != os.readlink("/proc/self/ns/net")
    assert got["lan"] == netns.LAN
    assert netns.LAN_IF in got["interfaces"]
    assert set(got["interfaces"]) <= {"lo", netns.LAN_IF, netns.PEER_IF}
    # its loopback is its own: the test's server is not there
    assert got["outside_loopback"] == "ConnectionRefusedError"


def test_a_failure_in_the_namespace_fails_the_test_with_its_traceback():
    netns.need()
    with pytest.raises(netns.Failed, match="broken in the namespace"):
        netns.run(fail_there)


def test_a_function_for_the_namespace_refuses_to_run_outside_it():
    with pytest.raises(RuntimeError, match="runs only in a namespace"):
        look_around(1)
    with pytest.raises(TypeError, match="not marked"):
        netns.run(os.getcwd)


BAD = '''
import web

def test_direct():
    assert web.lan_address()

def test_banner():
    text = web.banner("0.0.0.0", 8066)

def helper():
    return lan_address() or "127.0.0.1"

def test_tool(tmp_path):
    subprocess.run([sys.executable, "tools/web.py", "--port", "0",
                    "--host", "0.0.0.0"])
'''

GOOD = '''
import netns
import web

@netns.inside
def there():
    def nested():
        return web.lan_address()
    return nested(), web.banner("0.0.0.0", 1)

def test_stubbed(monkeypatch):
    monkeypatch.setattr(web, "lan_address", lambda: "192.168.1.23")
    return web.banner("0.0.0.0", 8066), web.banner("127.0.0.1", 8066)

def test_run():
    return netns.run(there)

@netns.inside
def tool_there():
    return subprocess.run(["python", "tools/web.py", "--host", "0.0.0.0"]), ["--host", "::"]
'''


def test_the_check_finds_each_call_of_lan_address_outside_a_namespace():
    assert netns.lan_calls_outside(BAD, "t.py") == [
        "t.py:5: lan_address()", "t.py:8: banner()", "t.py:11: lan_address()",
        "t.py:14: --host 0.0.0.0"]
    assert netns.lan_calls_outside(GOOD, "t.py") == []


def test_no_test_calls_lan_address_outside_a_namespace_of_its_own():
    found = []
    for path in sorted(glob.glob(os.path.join(HERE, "**", "*.py"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            found += netns.lan_calls_outside(f.read(), os.path.relpath(path, ROOT))
    assert found == [], ("a test reaches the computer's LAN address only in a network "
                         "namespace of its own: a function marked @netns.inside, started "
                         "by netns.run()")
