"""`make web` as a phone at the table reaches it: served on the laptop's network address
(not only 127.0.0.1), the address printed with a QR code, and a taken port said plainly.
The laptop's address is one that netns.py gives an interface in a network namespace of
the test's own: nothing is sent to this computer's real network.
"""

import os
import socket
import subprocess
import sys
import urllib.request

import netns
import pytest
from conftest import ROOT, TOOLS

sys.path.insert(0, TOOLS)
import web  # noqa: E402


@netns.inside
def serve_at_the_lan_address(folder):
    """In the namespace: the server on every address, fetched at the LAN address that
    lan_address() finds, and the banner for it."""
    import threading

    addr = web.lan_address()
    server = web.make_server(folder, 0, host="0.0.0.0")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = "http://%s:%d/" % (addr, server.server_address[1])
        with urllib.request.urlopen(url, timeout=5) as r:
            status, body = r.status, r.read().decode()
        return {"addr": addr, "url": url, "status": status, "body": body,
                "banner": web.banner("0.0.0.0", server.server_address[1])}
    finally:
        server.shutdown()
        server.server_close()


def test_a_phone_on_the_network_reaches_the_page_at_the_laptops_address(tmp_path):
    netns.need()
    (tmp_path / "index.html").write_text("<p>scorekeeper</p>")
    got = netns.run(serve_at_the_lan_address, str(tmp_path))
    assert got["addr"] == netns.LAN  # the namespace's "WiFi" address, not 127.0.0.1
    assert got["url"].startswith("http://%s:" % netns.LAN)
    assert got["status"] == 200 and "scorekeeper" in got["body"]
    assert got["url"] in got["banner"]  # ...and the banner names that very address


def test_the_banner_gives_a_phone_the_address_and_its_qr_code(monkeypatch):
    monkeypatch.setattr(web, "lan_address", lambda: "192.168.1.23")
    text = web.banner("0.0.0.0", 8066)
    assert "http://192.168.1.23:8066/" in text
    qr = [line for line in text.splitlines() if set(line) & set("█▀▄")]
    assert len(qr) >= 12  # a version-2 code is 25 modules: 13 lines two modules a line
    assert len({len(line) for line in qr}) == 1  # a square block, every line as wide
    assert "HTTPS" in text  # plain http: no offline use, said once
    local = web.banner("127.0.0.1", 8066)
    assert "http://127.0.0.1:8066/" in local and "HOST=0.0.0.0" in local


def test_a_taken_port_is_said_plainly_before_any_build(tmp_path):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    port = s.getsockname()[1]
    try:
        out = tmp_path / "web"
        proc = subprocess.run([sys.executable, os.path.join(TOOLS, "web.py"), "--port",
                               str(port), "--out", str(out)], capture_output=True, text=True,
                              timeout=60, cwd=ROOT)
    finally:
        s.close()
    assert proc.returncode == 2
    assert "port %d is taken" % port in proc.stderr and "WEB_PORT=" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert not out.exists()  # said before the build


def test_a_second_make_web_leaves_the_first_ones_folder_alone(tmp_path):
    # Issue 47: a second make web emptied and rebuilt build/web under the first, whose
    # HTTPS server then answered 404 for /ca.crt, the address its banner gives phones.
    out = tmp_path / "web"
    first = subprocess.Popen([sys.executable, os.path.join(TOOLS, "web.py"), "--port", "0",
                              "--out", str(out)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        url = None
        for line in first.stdout:  # waits for the banner, however loaded the machine
            if line.startswith("serving the scorekeeper at "):
                url = line.split()[4]
                break
        assert url is not None, first.stderr.read()
        marker = out / "index.html"
        before = marker.stat().st_mtime_ns
        second = subprocess.run([sys.executable, os.path.join(TOOLS, "web.py"), "--port", "0",
                                 "--out", str(out)], capture_output=True, text=True,
                                timeout=120, cwd=ROOT)
        assert second.returncode != 0
        assert "is being served by another make web (process %d" % first.pid in second.stderr
        assert "--out DIR" in second.stderr and "Traceback" not in second.stderr
        assert marker.stat().st_mtime_ns == before  # not rebuilt under the first
        with urllib.request.urlopen(url, timeout=10) as r:
            assert r.status == 200 and b"<html" in r.read().lower()
    finally:
        first.terminate()
        first.wait(timeout=30)
    # Stopped, its lock goes: a new make web builds again.
    assert web.served_by(str(out)) is None


def test_make_web_passes_host_and_port():
    proc = subprocess.run(["make", "-n", "web", "HOST=0.0.0.0", "WEB_PORT=8099"], cwd=ROOT,
                          capture_output=True, text=True)
    assert "tools/web.py --port 8099 --host 0.0.0.0" in proc.stdout
    with open(os.path.join(ROOT, "Makefile")) as f:
        make = f.read()
    comment = make[make.index("# The scorekeeper in a phone's browser"):make.index("web: ")]
    assert "WEB_PORT" in comment and "PORT=8066" not in comment


@netns.inside
def open_the_page_at_the_lan_address(folder, keys):
    """In the namespace: the build served on every address, opened in Chromium at the LAN
    address as a phone opens http://<laptop>:8066/ (no secure context)."""
    import threading

    import browser

    addr = web.lan_address()
    server = web.make_server(folder, 0, host="0.0.0.0")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    status = "document.getElementById('status').textContent"
    url = "http://%s:%d/" % (addr, server.server_address[1])
    try:
        got = browser.drive(url, [
            {"do": "open"}, {"do": "eval", "js": "window.isSecureContext"},
            {"do": "eval", "js": status}, {"do": "type", "keys": keys},
            # the keys' frames drawn, so their writes are on disk before the reload: a
            # loaded machine otherwise reloads with the last key's write still to start
            {"do": "eval", "js": "window.s66.idle()"}, {"do": "state"},
            {"do": "reload"}, {"do": "eval", "js": status}, {"do": "state"}],
            args=netns.CHROMIUM)
    finally:
        server.shutdown()
        server.server_close()
    return dict(got, url=url)


def test_the_page_from_the_laptops_address_keeps_score_and_says_once_that_offline_needs_https(
        tmp_path):
    # The field's origin: a phone opens http://<laptop>:8066/, no secure context.
    import browser
    from keyseq import KEYPAD, first_deal

    if browser.missing():
        pytest.skip(browser.missing())
    netns.need()
    out = str(tmp_path / "web")
    web.build(out)
    keys = "".join(k for _line, k in first_deal(KEYPAD)[:4])
    got = netns.run(open_the_page_at_the_lan_address, out, keys)
    assert got["url"].startswith("http://%s:" % netns.LAN)
    assert got["failed"] is None, got["failed"]
    assert got["errors"] == [] and got["foreign"] == []
    r = got["results"]
    assert r[1] is False  # plain http from the network: no secure context
    assert "HTTPS" in r[2]  # said on the first visit...
    assert "HTTPS" not in r[7]  # ...and once only
    assert r[5]["deal"]["played"] >= 1 and r[8] == r[5]  # it keeps score, through a reload
