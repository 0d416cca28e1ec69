"""Set-up that does what docs/club.md says (issue 46, finding 7), through a real Mosquitto
started from venue.conf with the project's ACL, the standings service and the director's
and the view's commands run as programs:

- an extra screen's viewer login made by the docs' own commands reads the standings
  (before: the ACL had only `viewer`, and viewer2 was told "has the service started?");
  a login the ACL gives no read there is told so, by name;
- `pair` prints a seat command that runs when pasted (before: without --password-file,
  pasted it exited 3);
- `seat` refuses the service's own logins as table ids (before: a seating retained on
  club/standings/seat) and warns of a table with no login in the password file;
- `cards` with no service running says that no service runs there (before: to install
  npm packages)."""

import os
import pty
import re
import select
import shlex
import subprocess
import sys
import time

import mosquitto
import pytest
from clubkit import PASSWORDS, ServiceThread, need_broker
from conftest import ROOT

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from club.logins import service_logins  # noqa: E402

DOCS = os.path.join(ROOT, "docs", "club.md")


def docs_block(marker):
    """The docs' sh block right under the recipe comment that says `marker`."""
    with open(DOCS, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- recipe: [^>]*%s[^>]*-->\s*```sh\n(.*?)```" % re.escape(marker),
                  text, re.S)
    assert m, marker
    return [ln.split("#")[0].strip() for ln in m.group(1).splitlines() if ln.strip()]


def typed(command, password, cwd):
    """Run `command` (mosquitto_passwd asks at its prompts) in a terminal, typing password
    at each prompt; its exit status."""
    master, slave = pty.openpty()
    p = subprocess.Popen(command, shell=True, cwd=cwd, stdin=slave, stdout=slave,
                         stderr=slave)
    os.close(slave)
    said, answered = b"", 0
    deadline = time.monotonic() + 30
    while p.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                said += os.read(master, 1024)
            except OSError:
                break
        while said.lower().count(b"password") > answered:
            os.write(master, password.encode() + b"\n")
            answered += 1
    code = p.wait(10)
    os.close(master)
    return code


def program(module, *args):
    r = subprocess.run([os.path.join(ROOT, ".venv", "bin", "python"), "-m", module]
                       + [str(a) for a in args], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    return r.returncode, r.stdout, r.stderr


@pytest.fixture
def venue(tmp_path):
    """(broker, service, folder): venue.conf's broker with the docs' logins and t01..t03
    (t04 has none), the docs' extra viewer login made by the docs' own command, and the
    service running."""
    need_broker()
    users = dict(PASSWORDS, t01="pw-t01", t02="pw-t02", t03="pw-t03")
    broker = mosquitto.Broker(str(tmp_path / "broker"), users=users)
    passwd = os.path.join(broker.folder, "passwd")
    folder = tmp_path / "laptop"
    folder.mkdir()
    # The docs' commands for a second screen, typed as written (the password file is
    # venue.passwd in the folder the broker starts in: here the broker's own file).
    os.rename(passwd, folder / "venue.passwd")
    lines = docs_block("a second screen")
    made = [ln for ln in lines if ln.startswith("mosquitto_passwd")]
    assert made == ["mosquitto_passwd venue.passwd viewer2"], lines
    assert typed(made[0], "view2-pw", str(folder)) == 0
    os.rename(folder / "venue.passwd", passwd)
    for ln in lines:
        if ln.startswith("echo"):
            subprocess.run(ln.replace("the-viewer2-password", "view2-pw"), shell=True,
                           cwd=str(folder), check=True)
    (folder / "director.pw").write_text(PASSWORDS["director"] + "\n")
    broker.start()
    try:
        with ServiceThread(str(tmp_path / "night.sqlite"), broker.port) as svc:
            yield broker, svc, folder, lines
    finally:
        broker.stop()


def test_an_extra_viewer_made_as_the_docs_say_reads_the_standings(venue):
    broker, svc, folder, lines = venue
    view = [ln for ln in lines if "club.view" in ln]
    assert view == [".venv/bin/python -m club.view --user viewer2 --password-file "
                    "viewer2.pw"], lines
    args = shlex.split(view[0])[3:] + ["--broker", "127.0.0.1:%d" % broker.port, "--once"]
    args[args.index("viewer2.pw")] = str(folder / "viewer2.pw")
    code, out, err = program("club.view", *args)
    assert code == 0 and out.startswith("Standings"), (code, out, err)
    # Every viewer login the docs name is one the ACL lets read the standings.
    assert {"viewer"} | {"viewer%d" % i for i in range(2, 10)} <= service_logins()
    # A table's login as a screen: the broker refuses it the standings, and the view
    # says that, not "has the service started?".
    (folder / "t01.pw").write_text("pw-t01\n")
    code, out, err = program("club.view", "--user", "t01", "--password-file",
                             folder / "t01.pw", "--broker", "127.0.0.1:%d" % broker.port,
                             "--once")
    assert code == 3 and "the broker does not let t01 read the standings" in err, (code, out, err)
    assert "has the service started" not in err and "Traceback" not in err


def test_pair_prints_a_seat_command_that_runs_when_pasted(venue):
    broker, svc, folder, _lines = venue
    common = ["--broker", "127.0.0.1:%d" % broker.port, "--password-file",
              folder / "director.pw"]
    code, out, err = program("club.director", *common, "seat", "1", "classic66",
                             "t01=Ann,Bob", "t02=Cy,Dee", "t03=Eve,Fay")
    assert code == 0, (out, err)
    code, out, err = program("club.director", *common, "pair", "2", "classic66")
    assert code == 0, (out, err)
    line = out.splitlines()[0]
    assert " seat 2 classic66 " in line and "--password-file" in line
    # Pasted into a shell in the same folder (the output whole: its notes are comments).
    pasted = subprocess.run(["bash", "-c", out], cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    assert pasted.returncode == 0 and "accepted: round 2: 3 tables" in pasted.stdout, (
        out, pasted.stdout, pasted.stderr)
    seated = {t: s["names"] for (t, r), s in svc.svc.event.seats.items() if r == 2}
    assert len(seated) == 3 and {"Ann", "Bob"} not in [set(n) for n in seated.values()]


def test_seat_refuses_the_services_own_logins_and_warns_of_no_login(venue):
    broker, svc, folder, _lines = venue
    common = ["--broker", "127.0.0.1:%d" % broker.port, "--password-file",
              folder / "director.pw"]
    for table in ("standings", "director", "viewer", "viewer2", "viewer7", "service",
                  "fleet"):
        code, out, err = program("club.director", *common, "seat", "1", "classic66",
                                 "%s=Ann,Bob" % table)
        assert code == 3 and ("%s is a login of the club's own programs" % table) in err, (
            table, out, err)
    # The service refuses them too, whoever asks (a raw request as the director's page
    # or another client would send it), and nothing is stored.
    reply = svc.svc.director({"cmd": "seat", "round": 1, "rules": "classic66",
                              "seats": [["standings", ["Ann", "Bob"]]]}, "test")
    assert not reply["ok"] and "login of the club's own programs" in reply["why"]
    assert not svc.svc.event.seats
    # t04 has no login in the broker's password file: seated, with a warning that says so.
    passwd = os.path.join(broker.folder, "passwd")
    code, out, err = program("club.director", *common, "seat", "1", "classic66",
                             "t01=Ann,Bob", "t04=Cy,Dee", "--logins", passwd)
    assert code == 0 and "accepted" in out, (out, err)
    assert ("warning: table t04 has no login in %s: its board cannot connect; make one "
            "(mosquitto_passwd %s t04)" % (passwd, passwd)) in err
    assert "t01" not in err
    code, out, err = program("club.director", *common, "seat", "1", "classic66",
                             "t01=Ann,Bob", "--logins", folder / "nothere.passwd")
    assert code == 3 and "nothere.passwd" in err and "Traceback" not in err, (out, err)


def test_cards_with_no_service_say_no_service_runs_there(tmp_path):
    from mosquitto import free_port

    (tmp_path / "t01.pw").write_text("pw-t01\n")
    page = "http://127.0.0.1:%d/table/" % free_port()
    code, out, err = program("club.director", "cards", "--page", page, "--ws",
                             "ws://127.0.0.1:9001", "--passwords", tmp_path, "--out",
                             tmp_path / "cards.html", "t01")
    assert code == 0, (out, err)
    warning = out.splitlines()[1]
    assert warning.startswith("warning: the cards lead to %s, which does not serve the "
                              "table page now (no answer: " % page), warning
    assert "no standings service runs there yet: start it" in warning
    assert "npm" not in warning and "make club" not in warning
    code, out, err = program("club.director", "cards", "--passwords", tmp_path, "standings")
    assert code == 3 and "standings is a login of the club's own programs" in err


def test_seat_and_pair_words_agree_in_help_and_docs():
    # Every option of seat and pair is in docs/club.md, and --help says what the docs say
    # of the bye and of the club's own logins.
    from club.director import parser

    subs = parser()._subparsers._group_actions[0].choices
    with open(DOCS, encoding="utf-8") as f:
        docs = f.read()
    for name in ("seat", "pair"):
        for action in subs[name]._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert flag in docs, (name, flag)
    text = parser().format_help() + subs["seat"].format_help() + subs["pair"].format_help()
    for words in ("--bye", "scores a won match", "--drop", "--logins", "venue.passwd",
                  "login of the club's own programs", "runs when pasted"):
        assert " ".join(words.split()) in " ".join(text.split()), words
