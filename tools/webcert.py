"""A certificate for serving the browser build over HTTPS from this computer (make web HTTPS=1).

Offline use and installing to the home screen need a secure context, and on a phone
that means HTTPS from the laptop. This makes, with Debian's `openssl` command, two things
in the gitignored folder `.web-cert/`:

  ca.crt, ca.key        a small certificate authority of this computer's own, made once
                        (ten years). A phone that trusts ca.crt trusts every server
                        certificate below, also the ones made after the laptop moved to
                        another network, so it is installed once.
  server.crt, server.key
                        the server's certificate, signed by it, naming in its
                        subjectAltName this computer's LAN address, its host name (and
                        NAME.local), localhost and 127.0.0.1. Made again when one of those
                        is not in it any more (another network, another address), and
                        before it runs out (825 days, the longest a phone accepts).

Only ca.crt is ever served (for a phone to install); the keys never leave the folder.
"""

import os
import socket
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, ".web-cert")
CA_DAYS = 3650
SERVER_DAYS = 825
RENEW_S = 30 * 24 * 3600  # a server certificate closer than this to its end is made again


def names(lan=None):
    """(DNS names, IP addresses) the server certificate must hold."""
    host = socket.gethostname().split(".")[0]
    dns = ["localhost"]
    if host and host != "localhost":
        dns += [host, host + ".local"]
    ips = ["127.0.0.1"]
    if lan and lan not in ips:
        ips.append(lan)
    return dns, ips


def _openssl(*args, stdin=None):
    proc = subprocess.run(("openssl",) + args, input=stdin, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit("openssl %s failed: %s" % (args[0], proc.stderr.strip()))
    return proc.stdout


def _subject_alt_names(cert):
    """The DNS names and IP addresses in a certificate's subjectAltName, as a set of
    "DNS:name" / "IP:addr" strings."""
    text = _openssl("x509", "-in", cert, "-noout", "-ext", "subjectAltName")
    got = set()
    for part in text.replace("\n", ",").split(","):
        part = part.strip()
        if part.startswith("DNS:"):
            got.add(part)
        elif part.startswith("IP Address:"):
            got.add("IP:" + part[len("IP Address:"):])
    return got


def _current(cert, want):
    if not os.path.exists(cert):
        return False
    ok = subprocess.run(["openssl", "x509", "-in", cert, "-noout", "-checkend", str(RENEW_S)],
                        capture_output=True).returncode == 0
    return ok and want <= _subject_alt_names(cert)


def ensure(lan=None, folder=FOLDER):
    """The certificate for this computer (made or made again when needed): a dict with the
    paths of cert (server certificate, then the authority's: the chain a server sends),
    key, ca, and made (True when the server certificate is new)."""
    os.makedirs(folder, mode=0o700, exist_ok=True)
    ca, ca_key = os.path.join(folder, "ca.crt"), os.path.join(folder, "ca.key")
    crt, key = os.path.join(folder, "server.crt"), os.path.join(folder, "server.key")
    chain = os.path.join(folder, "chain.crt")
    host = socket.gethostname().split(".")[0] or "this computer"
    if not (os.path.exists(ca) and os.path.exists(ca_key)):
        _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                 "-nodes", "-keyout", ca_key, "-out", ca, "-days", str(CA_DAYS),
                 "-subj", "/O=Sixty-six scorekeeper/CN=Sixty-six scorekeeper on %s" % host,
                 "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
                 "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        for path in (crt, chain):  # signed by an authority that is gone
            if os.path.exists(path):
                os.remove(path)
    dns, ips = names(lan)
    want = {"DNS:" + n for n in dns} | {"IP:" + a for a in ips}
    made = False
    if not _current(crt, want) or not os.path.exists(key) or not os.path.exists(chain):
        san = ",".join(sorted(want))
        with tempfile.TemporaryDirectory() as tmp:
            csr = os.path.join(tmp, "server.csr")
            ext = os.path.join(tmp, "server.ext")
            with open(ext, "w") as f:
                f.write("basicConstraints=critical,CA:FALSE\n"
                        "keyUsage=critical,digitalSignature\n"
                        "extendedKeyUsage=serverAuth\n"
                        "subjectAltName=%s\n" % san)
            _openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                     "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=%s" % (lan or host))
            _openssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key,
                     "-CAcreateserial", "-CAserial", os.path.join(folder, "ca.srl"),
                     "-days", str(SERVER_DAYS), "-sha256", "-extfile", ext, "-out", crt)
        with open(chain, "w") as out:
            for path in (crt, ca):
                with open(path) as f:
                    out.write(f.read())
        made = True
    for path in (key, ca_key):
        os.chmod(path, 0o600)
    return {"cert": chain, "key": key, "ca": ca, "made": made}


def fingerprint(ca):
    """The authority's SHA-256 fingerprint, for comparing on the phone before trusting."""
    out = _openssl("x509", "-in", ca, "-noout", "-fingerprint", "-sha256")
    return out.strip().split("=", 1)[-1]


def spki_sha256(cert):
    """The base64 SHA-256 of a certificate's public key (what Chromium's
    --ignore-certificate-errors-spki-list takes: the tests trust the server with it)."""
    import base64
    import hashlib

    pem = _openssl("x509", "-in", cert, "-noout", "-pubkey")
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "DER"], input=pem.encode(),
                         capture_output=True, check=True).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode()
