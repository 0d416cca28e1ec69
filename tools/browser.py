"""Run a job in Debian's Chromium through tools/webdrive.mjs (npm playwright-core).

    answer = drive(url, [{"do": "open"}, {"do": "type", "keys": "12"}, {"do": "frame"}])

Each call launches a fresh headless Chromium with its own profile folder (a temporary one
unless `profile` is given: pass the same folder to keep storage and the service worker
across calls) and returns webdrive.mjs's answer: results, errors, foreign, failed. `init`
is a script run in the page before its own (a test's instruments).
"""

import json
import os
import shutil
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRIVER = os.path.join(ROOT, "tools", "webdrive.mjs")
PLAYWRIGHT = os.path.join(ROOT, "node_modules", "playwright-core")
PHONE = (390, 844)


def chromium():
    """The Chromium executable, or None when it is not installed."""
    for path in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.path.exists(path):
            return path
    return shutil.which("chromium")


def missing():
    """Why the browser cannot be driven here, or None."""
    if chromium() is None:
        return "Debian's chromium is not installed (apt-get install chromium; .ci/run does)"
    if not os.path.isdir(PLAYWRIGHT):
        return "npm playwright-core is not installed (npm ci; make test does)"
    if shutil.which("node") is None:
        return "node is not installed"
    return None


def fake_camera(video):
    """Chromium's switches for a fake camera playing a .y4m file (looped) without asking."""
    return ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            "--use-file-for-fake-video-capture=" + video]


def drive(url, steps, profile=None, viewport=PHONE, scale=1, touch=False, timeout=180,
          credentials=None, spki=None, init=None, args=(), camera=None, permissions=()):
    """credentials: (user, password) the browser answers HTTP Basic challenges with.
    spki: the base64 SHA-256 of an HTTPS server's public key that Chromium then trusts
    (as a phone trusts a certificate whose authority it installed). init: a script run in
    the page before its own (a test's instruments). args: more Chromium switches (e.g.
    --host-resolver-rules). camera: a .y4m file Chromium plays as the camera (fake_camera),
    with the camera permission granted; permissions: more permissions granted to the page."""
    own = profile is None
    if own:
        profile = tempfile.mkdtemp(prefix="s66-chromium-")
    permissions = list(permissions)
    if camera:
        args = list(args) + fake_camera(camera)
        permissions.append("camera")
    job = {"url": url, "profile": profile, "chromium": chromium(), "viewport": list(viewport),
           "scale": scale, "touch": touch, "steps": steps, "spki": spki, "init": init,
           "args": list(args), "permissions": permissions}
    if credentials:
        job["credentials"] = {"username": credentials[0], "password": credentials[1]}
    try:
        proc = subprocess.run(["node", DRIVER], input=json.dumps(job), capture_output=True,
                              text=True, timeout=timeout, cwd=ROOT)
    finally:
        if own:
            shutil.rmtree(profile, ignore_errors=True)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise RuntimeError("webdrive.mjs failed (%d): %s" % (proc.returncode, proc.stderr[-2000:]))
    return json.loads(proc.stdout.strip().splitlines()[-1])
