"""The two ways to a secure context for the browser build (docs/web.md): the folder that
`make web-dist` writes, served by any plain static server, and `make web HTTPS=1` with the
computer's own certificate. In a real Chromium (Debian's chromium, npm playwright-core).
The HTTPS server, its clients and the browser run in a network namespace of their own
(netns.py), where an interface of its own has the LAN address.
"""

import os
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request

import browser
import netns
import pytest
from conftest import ROOT, TOOLS
from keyseq import KEYPAD, first_deal

sys.path.insert(0, TOOLS)
import webcert  # noqa: E402

import web  # noqa: E402

needs_browser = pytest.mark.skipif(browser.missing() is not None,
                                   reason=browser.missing() or "")
STATUS = "document.getElementById('status').textContent"
WORKER = ("navigator.serviceWorker.getRegistration().then((r) => "
          "r && r.active ? r.active.scriptURL : null)")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_make_web_dist_builds_the_folder_for_a_static_host():
    proc = subprocess.run(["make", "-n", "web-dist"], cwd=ROOT, capture_output=True, text=True)
    assert "tools/web.py --build-only --out dist/web" in proc.stdout
    with open(os.path.join(ROOT, ".gitignore")) as f:
        ignored = f.read().split()
    assert "dist/" in ignored and ".web-cert/" in ignored


@needs_browser
def test_the_dist_folder_from_a_plain_static_server_boots_and_plays(tmp_path):
    out = tmp_path / "dist"
    proc = subprocess.run([sys.executable, os.path.join(TOOLS, "web.py"), "--build-only",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    names = set(os.listdir(out))
    assert {"index.html", "page.js", "style.css", "sw.js", "manifest.webmanifest", "icon.svg",
            "micropython.mjs", "micropython.wasm", "firmware.pack"} <= names
    # Python's own static server, knowing nothing of the project (not tools/web.py).
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                               "127.0.0.1", "--directory", str(out)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = "http://127.0.0.1:%d/" % port
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(url + "micropython.wasm", timeout=5) as r:
                    assert r.headers["Content-Type"] == "application/wasm"
                break
            except OSError:
                time.sleep(0.1)
        entries = first_deal(KEYPAD)
        keys = "".join(k for _line, k in entries[:3])  # a new match, its trump, one trick
        got = browser.drive(url, [{"do": "open"}, {"do": "type", "keys": keys},
                                  {"do": "state"}, {"do": "worker"}, {"do": "eval", "js": WORKER}])
    finally:
        server.terminate()
        server.wait(10)
    assert got["failed"] is None, got["failed"]
    assert got["errors"] == [] and got["foreign"] == []
    state = got["results"][2]
    assert state["deals"] == 0 and state["deal"]["played"] == 1  # the trick counted
    assert got["results"][4] == url + "sw.js"


@netns.inside
def serve_https_at_the_lan_address(folder, cert, keys):
    """In the namespace: as make web HOST=0.0.0.0 HTTPS=1 serves the build, with its
    certificate made in cert for the address lan_address() finds; then the clients: TLS
    handshakes by each name the certificate holds, from one that trusts its authority and
    one that does not, and (keys given) Chromium trusting it, online, then offline."""
    import threading

    addr = web.lan_address()
    tls = webcert.ensure(addr, folder=cert)
    server = web.make_server(folder, 0, host="0.0.0.0", tls=tls)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    url = "https://%s:%d/" % (addr, port)

    def handshake(ctx, name):
        try:
            with socket.create_connection((addr, port), timeout=10) as raw:
                with ctx.wrap_socket(raw, server_hostname=name) as s:
                    return s.version()
        except (OSError, ssl.SSLError) as e:
            return type(e).__name__

    try:
        dns, ips = webcert.names(addr)
        trusting = ssl.create_default_context(cafile=tls["ca"])
        got = {"addr": addr, "url": url, "tls": tls,
               "trusted": {name: handshake(trusting, name) for name in ips + dns},
               "untrusted": handshake(ssl.create_default_context(), addr), "browser": None}
        if keys is not None:
            try:
                got["browser"] = browser.drive(url, [
                    {"do": "open"}, {"do": "eval", "js": "window.isSecureContext"},
                    {"do": "eval", "js": STATUS}, {"do": "worker"},
                    {"do": "eval", "js": WORKER}, {"do": "type", "keys": keys},
                    {"do": "state"}, {"do": "offline", "on": True}, {"do": "reload"},
                    {"do": "state"}], spki=webcert.spki_sha256(tls["cert"]),
                    args=netns.CHROMIUM)
            except RuntimeError as e:  # the browser test fails with it, not the others
                got["browser"] = {"failed": str(e)}
        return got
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def https_site(tmp_path_factory):
    """The build served as make web HOST=0.0.0.0 HTTPS=1 serves it, at the LAN address of a
    network namespace of its own (netns.py), with a certificate made in a temporary folder,
    and what the clients there got (serve_https_at_the_lan_address)."""
    netns.need()
    tmp = tmp_path_factory.mktemp("https")
    out = str(tmp / "web")
    web.build(out)
    keys = None
    if browser.missing() is None:
        keys = "".join(k for _line, k in first_deal(KEYPAD)[:3])
    return netns.run(serve_https_at_the_lan_address, out, str(tmp / "cert"), keys)


def test_the_certificate_names_this_computer_and_chains_to_its_authority(https_site):
    host, tls = https_site["addr"], https_site["tls"]
    assert host == netns.LAN  # the address lan_address() found, the phone's way in
    dns, ips = webcert.names(host)
    assert host in ips and socket.gethostname().split(".")[0] in dns + ["localhost"]
    assert {"IP:" + a for a in ips} | {"DNS:" + n for n in dns} <= webcert._subject_alt_names(
        os.path.join(os.path.dirname(tls["ca"]), "server.crt"))
    # A client that trusts ca.crt (a phone that installed it) accepts the server by each of
    # the names a phone might use: the LAN address, the host name, localhost.
    assert set(https_site["trusted"]) == set(ips + dns)
    for name, version in https_site["trusted"].items():
        assert version.startswith("TLS"), (name, version)
    # ...and one that does not trust it refuses (a phone's first visit: the warning).
    assert https_site["untrusted"] == "SSLCertVerificationError"
    made = webcert.ensure(host, folder=os.path.dirname(tls["ca"]))
    assert made["made"] is False  # the same names: the same certificate, kept


@needs_browser
def test_over_https_the_page_is_a_secure_context_and_its_service_worker_runs(https_site):
    url, got = https_site["url"], https_site["browser"]
    assert url.startswith("https://%s:" % netns.LAN)
    assert got["failed"] is None, got["failed"]
    assert got["errors"] == [] and got["foreign"] == []
    r = got["results"]
    assert r[1] is True  # a secure context, from the laptop's network address
    assert "HTTPS" not in r[2]  # no note about plain http
    assert r[4] == url + "sw.js"  # the service worker registered and runs
    assert r[6]["deal"]["played"] == 1 and r[9] == r[6]  # offline, from its cache


def test_the_https_banner_says_how_a_phone_trusts_the_certificate(tmp_path, monkeypatch):
    tls = webcert.ensure("192.168.1.23", folder=str(tmp_path))
    monkeypatch.setattr(web, "lan_address", lambda: "192.168.1.23")
    text = web.banner("0.0.0.0", 8066, tls)
    assert "https://192.168.1.23:8066/" in text
    assert "https://192.168.1.23:8066/ca.crt" in text
    assert webcert.fingerprint(tls["ca"]) in text
    plain = web.banner("0.0.0.0", 8066)
    assert "HTTPS=1" in plain and "make web-dist" in plain


def test_make_web_https_serves_the_authority_for_a_phone_to_install(tmp_path):
    # tools/web.py --https as make web HTTPS=1 runs it (its certificate in tmp_path).
    cert = tmp_path / "cert"
    proc = subprocess.Popen([sys.executable, os.path.join(TOOLS, "web.py"), "--https",
                             "--port", "0", "--out", str(tmp_path / "web"), "--cert",
                             str(cert)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        seen = []
        assert proc.stdout is not None
        for line in proc.stdout:
            seen.append(line)
            if "serving the scorekeeper" in line:
                break
        out = "".join(seen)
        assert "made a server certificate" in out
        url = out.split("serving the scorekeeper at ", 1)[1].split(" ", 1)[0]
        assert url.startswith("https://127.0.0.1:")
        ctx = ssl.create_default_context(cafile=str(cert / "ca.crt"))
        with urllib.request.urlopen(url + "ca.crt", context=ctx, timeout=10) as r:
            assert r.headers["Content-Type"] == "application/x-x509-ca-cert"
            assert r.read() == (cert / "ca.crt").read_bytes()
        for secret in ("server.key", "ca.key", "../cert/ca.key"):
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(url + secret, context=ctx, timeout=10)
        with urllib.request.urlopen(url, context=ctx, timeout=10) as r:
            assert b'id="pagetext"' in r.read()
        with pytest.raises(OSError):  # http:// typed for the https:// address
            urllib.request.urlopen(url.replace("https:", "http:"), timeout=10)
    finally:
        proc.terminate()
        proc.wait(10)
    rest = proc.stdout.read()
    assert "plain http to the HTTPS port" in rest and "Traceback" not in rest
    assert oct((cert / "ca.key").stat().st_mode & 0o777) == "0o600"


def test_a_new_network_gets_a_new_server_certificate_from_the_same_authority(tmp_path):
    first = webcert.ensure("192.168.1.23", folder=str(tmp_path))
    ca = open(first["ca"]).read()
    again = webcert.ensure("10.0.0.7", folder=str(tmp_path))  # the laptop moved
    assert again["made"] and open(again["ca"]).read() == ca  # the phone's trust still holds
    names = webcert._subject_alt_names(os.path.join(str(tmp_path), "server.crt"))
    assert "IP:10.0.0.7" in names and "IP:192.168.1.23" not in names
    assert webcert.ensure("10.0.0.7", folder=str(tmp_path))["made"] is False
