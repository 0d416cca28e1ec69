"""The fuzz of the update's bundle reader and offer (tools/fuzz_update.py; issue 45), a few
thousand cases on the unix port and on the 32-bit runtime (make fuzz runs a million): after
the club's correctly signed head, whatever the bundle holds, and whatever an offer holds, only
refusals, never more bytes written than the head's total, the match's folder untouched; and
takes with offers heard between their pieces (newer, older, the same, withdrawn, malformed):
each does what update/job.py says, a newer one is taken, nothing half-written is switched to
(issue 45, finding 6)."""

import json
import os

from conftest import ROOT

BUNDLES = 3000
OFFERS = 300
TAKES = 1000


def test_the_bundle_reader_and_the_offer_only_ever_refuse(unix_port, tmp_path):
    proc = unix_port([os.path.join(ROOT, "tools", "fuzz_update.py"), "--seed", "1",
                      "--bundles", str(BUNDLES), "--offers", str(OFFERS),
                      "--takes", str(TAKES),
                      "--dir", str(tmp_path / "flash")], heapsize="2m", timeout=240)
    out = proc.stdout.decode()
    assert proc.returncode == 0, out[-2000:] + proc.stderr.decode()[-2000:]
    got = json.loads(out.splitlines()[-1])
    assert got["bundles"] == BUNDLES and got["offers"] == OFFERS and got["takes"] == TAKES, got
    # The cases reach past the head: most are refused by the file lines, some taken whole.
    assert got["refused"]["format"] > BUNDLES // 3 and got["refused"]["hash"] > 50, got
    assert got["taken"] > 0 and got["most_written_before_a_refusal"] > 0, got
    assert got["offer_refusals"]["offer"] > OFFERS // 4, got
    assert got["offer_refusals"]["format"] > 0, got  # jobs started and fed mutated pieces
    # Offers of every kind came between the pieces, and newer ones were taken to the end.
    seen = got["take_events"]
    for kind in ("new", "older", "same", "nothing", "withdrawn", "offer"):
        assert seen[kind] > TAKES // 20, got
    assert seen["switched"] > TAKES // 3 and seen["switched to a newer offer"] > TAKES // 20, got
    assert got["take_refusals"]["same"] > 0 and got["take_refusals"]["older"] > 0, got
    assert got["most_written_in_a_take"] > 0, got  # the slots' writes were counted
