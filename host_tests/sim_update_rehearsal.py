"""docs/boards.md's update rehearsal (three simulator tables, the venue's broker, the
service, the director and club.fleet) run from the markdown's own commands, as written:
test_sim_update.py starts this and checks the report it writes.

    python sim_update_rehearsal.py --inside FOLDER REPORT

FOLDER is a copy of the checkout (the docs' commands run from its root). As
club_docs_night.py (whose terminals this uses), it runs under `unshare -rn`, where the
docs' own port 1883 is free, and starts itself again as an ordinary user.

Each command runs in a terminal of its own. t03 has a match under way when the offer
comes; it is finished once t01 and t02 run the new version. The report holds what each
terminal said and what each table's flash and the checkout's root hold.
"""

import json
import os
import re
import sys

import club_docs_night as night
from club_docs_night import Failure, Term, port_open

SECTION = "## An update rehearsed on one laptop"
TABLES = ("t01", "t02", "t03")


def rehearsal_blocks(folder):
    """The sh blocks of the rehearsal's section of docs/boards.md."""
    with open(os.path.join(folder, "docs", "boards.md"), encoding="utf-8") as f:
        text = f.read()
    if SECTION not in text:
        raise Failure("docs/boards.md: no section %r" % SECTION)
    section = text[text.index(SECTION):]
    section = section[:section.find("\n## ", 4) if "\n## " in section[4:] else None]
    return night.sh_blocks(section)


def flash(folder, table):
    """What the table's flash holds of an update: its slot's files and its record."""
    top = os.path.join(folder, "sim_" + table)
    out = {"fw": sorted(os.listdir(os.path.join(top, "fw")))
           if os.path.isdir(os.path.join(top, "fw")) else None}
    try:
        with open(os.path.join(top, "fw", "boot")) as f:
            out["boot"] = json.load(f)
    except (OSError, ValueError):
        out["boot"] = None
    slot = os.path.join(top, "fw", "a")
    out["slot_a"] = sorted(os.listdir(slot)) if os.path.isdir(slot) else []
    return out


def rehearse(folder, report):
    blocks = rehearsal_blocks(folder)
    step1 = night.block(blocks, "mosquitto -c club/mosquitto/venue.conf")
    step2 = night.block(blocks, "-m club.service")
    files = night.block(blocks, "fleet.key", ".json")
    sims = night.block(blocks, 'make sim ARGS="--club').split("\n")
    seat = night.block(blocks, "club.director", " seat ")
    offer = night.block(blocks, "club.fleet", "--until-done")
    report["ran"] = [step1, step2, files, "\n".join(sims), seat, offer]
    report["root_before"] = sorted(os.listdir(folder))

    broker = Term("broker", step1, folder)
    port_open(1883)
    service = Term("service", step2, folder)
    service.expect("connected to the broker", timeout=120)
    made = Term("key, club files, bundle", files, folder)
    report["files"] = [made.wait(300), made.text()]
    m = re.search(r"version (\d+)", made.text())
    if m is None:
        raise Failure("the bundle's version was not said:\n" + made.text())
    version = int(m.group(1))
    report["version"] = version

    tables = {}
    for line in sims:
        table = re.search(r"(t\d\d)\.json", line).group(1)
        tables[table] = Term("sim " + table, line, folder)
    for table, term in tables.items():
        term.expect("club %s: online" % table, timeout=180)
        report.setdefault("first", {})[table] = "firmware 0 (the base)" in term.text()

    # t03: seated, and a deal's result typed: its match is under way.
    # (The service says each result it counts: the seated match's, then the deal's.)
    heard = service.mark()
    director = Term("seat", seat, folder)
    report["seat"] = [director.wait(), director.text().strip().splitlines()[-1]]
    heard = service.expect("counted t03 ", heard, timeout=60)
    t03 = tables["t03"]
    t03.send("#412")
    service.expect("counted t03 ", heard, timeout=60)

    fleet = Term("fleet", offer, folder)
    new = "firmware %d (fw/a" % version
    for table in ("t01", "t02"):
        tables[table].expect(new, timeout=240)
    for table in ("t01", "t02"):
        fleet.expect("%s: runs version %d\r\n" % (table, version), timeout=120)
    # t03 mid-match: nothing taken, nothing written, nothing said of the new version.
    night.sleep(5)
    report["t03_mid_match"] = {
        "flash": flash(folder, "t03"),
        "fleet_said_t03": [s for s in fleet.text().splitlines() if s.startswith("t03:")],
        "panel": new in t03.text(),
    }

    # The match finished: the update follows once the service has its results.
    at = t03.mark()
    for keys in ("##413", "##413"):
        t03.send(keys)
    t03.expect(new, at, timeout=240)
    report["fleet_status"] = fleet.wait(240)
    report["fleet"] = fleet.text()

    # Each table's first key: three seconds later the version is confirmed.
    for term in tables.values():
        at = term.mark()
        term.send("*")
        term.expect("firmware %d (fw/a)" % version, at, timeout=60)
    report["tables"] = {t: flash(folder, t) for t in TABLES}
    report["panels"] = {t: term.text()[-3000:] for t, term in tables.items()}
    report["root_after"] = sorted(os.listdir(folder))
    report["broker_up"] = not broker.ended()
    report["service_up"] = not service.ended()


def main(argv):
    if argv[1] == "--inside":
        night.bring_loopback_up()
        os.execvp("unshare", ["unshare", "-U", "--map-user=65534", "--map-group=65534",
                              sys.executable, os.path.abspath(argv[0])] + argv[2:])
    folder, out = argv[1], argv[2]
    report = {}
    try:
        rehearse(folder, report)
    except Failure as e:
        report["error"] = str(e)
    except Exception as e:  # noqa: BLE001 (the report says what broke, with the terminals)
        import traceback

        report["error"] = traceback.format_exc() + repr(e)
    finally:
        if "error" in report:
            report["terminals"] = {t.name: t.text()[-2000:] for t in night.LIVE}
        for t in list(night.LIVE):
            t.close()
        with open(out, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
