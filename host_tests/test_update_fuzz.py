"""The fuzz of the update's bundle reader and offer (tools/fuzz_update.py; issue 45), a few
thousand cases on the unix port and on the 32-bit runtime (make fuzz runs a million): after
the club's correctly signed head, whatever the bundle holds, and whatever an offer holds, only
refusals, never more bytes written than the head's total, the match's folder untouched."""

import json
import os

from conftest import ROOT

BUNDLES = 3000
OFFERS = 300


def test_the_bundle_reader_and_the_offer_only_ever_refuse(unix_port, tmp_path):
    proc = unix_port([os.path.join(ROOT, "tools", "fuzz_update.py"), "--seed", "1",
                      "--bundles", str(BUNDLES), "--offers", str(OFFERS),
                      "--dir", str(tmp_path / "flash")], heapsize="2m", timeout=120)
    out = proc.stdout.decode()
    assert proc.returncode == 0, out[-2000:] + proc.stderr.decode()[-2000:]
    got = json.loads(out.splitlines()[-1])
    assert got["bundles"] == BUNDLES and got["offers"] == OFFERS, got
    # The cases reach past the head: most are refused by the file lines, some taken whole.
    assert got["refused"]["format"] > BUNDLES // 3 and got["refused"]["hash"] > 50, got
    assert got["taken"] > 0 and got["most_written_before_a_refusal"] > 0, got
    assert got["offer_refusals"]["offer"] > OFFERS // 4, got
    assert got["offer_refusals"]["format"] > 0, got  # jobs started and fed mutated pieces
