"""No traceback anywhere: the director's command, the terminal view and the service say in
one line what went wrong (the broker down, a wrong password, an unreadable password file,
bad arguments) and exit with the status --help and docs/club.md give: 0 accepted, 1
refused, 2 no answer, 3 cannot connect or bad arguments. Negative game points are an
argument the service's checks refuse, not an option. Run as the director runs them: the
modules as programs, against a real Mosquitto started from venue.conf."""

import os
import socket
import subprocess
import sys

import pytest
from clubkit import PASSWORDS, ServiceThread, club_broker
from conftest import ROOT
from mosquitto import free_port
from test_club_director import INC, Table, a_match

sys.path.insert(0, ROOT)


@pytest.fixture
def broker(tmp_path):
    with club_broker(tmp_path, 2) as b:
        yield b


def program(module, *args, timeout=60):
    """(exit status, stdout, stderr) of `python -m module args`, from the checkout."""
    r = subprocess.run([sys.executable, "-m", module] + [str(a) for a in args], cwd=ROOT,
                       capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in r.stderr + r.stdout, r.stderr
    return r.returncode, r.stdout, r.stderr


def login(tmp_path, port, password=PASSWORDS["director"], user="director"):
    pw = tmp_path / ("%s.pw" % user)
    pw.write_text(password)
    return ["--broker", "127.0.0.1:%d" % port, "--user", user, "--password-file", pw]


def test_the_director_says_what_went_wrong_and_exits_as_documented(tmp_path, broker):
    # Issue: with the broker down the director printed a 30-line traceback and exited 1;
    # argparse's errors exited 2, which the docs say means "no answer".
    down = free_port()
    code, out, err = program("club.director", *login(tmp_path, down), "list")
    assert (code, out, err) == (3, "", "director: cannot reach the broker at 127.0.0.1:%d: "
                                       "Connection refused\n" % down)
    code, out, err = program("club.director", *login(tmp_path, broker.port, "wrong"), "list")
    assert (code, out, err) == (3, "", "director: the broker at 127.0.0.1:%d refused the "
                                       "login as director: Not authorized (the password?)\n"
                                % broker.port)
    missing = tmp_path / "none.pw"
    code, out, err = program("club.director", "--broker", "127.0.0.1:%d" % broker.port,
                             "--password-file", missing, "show")
    assert (code, out, err) == (3, "", "director: cannot read the password file %s: No such "
                                       "file or directory\n" % missing)
    code, out, err = program("club.director", *login(tmp_path, broker.port), "void", "t01")
    assert code == 3 and err.endswith("error: the following arguments are required: inc, "
                                      "match, deal, --why\n"), err
    code, out, err = program("club.director", *login(tmp_path, broker.port), "swap")
    assert code == 3 and "invalid choice: 'swap'" in err
    code, out, err = program("club.director", *login(tmp_path, broker.port), "accept", "3",
                             "--gp", "0,3", "--why", "x")
    assert (code, err) == (3, "director: a result is given for one row: accept ROW --gp GP,GP "
                              "--winner SIDE [--over SIDE]\n")
    code, out, err = program("club.director", *login(tmp_path, broker.port), "seat", 1,
                             "classic66", "t01=Ann")
    assert (code, err) == (3, "director: a seat is TABLE=NAME,NAME[,NAME[,NAME]]: t01=Ann\n")
    # the broker up, the service not: no answer
    code, out, err = program("club.director", *login(tmp_path, broker.port), "--timeout", 1,
                             "reopen", "--why", "x")
    assert (code, out, err) == (2, "no answer from the standings service in 1 s: is it "
                                   "running?\n", "")
    code, out, err = program("club.director", *login(tmp_path, broker.port), "--timeout", 1,
                             "show")
    assert (code, out) == (2, "no standings from the service in 1 s: is it running?\n")


def test_negative_game_points_are_refused_by_the_checks_not_read_as_an_option(tmp_path,
                                                                             broker):
    # Issue: `correct ... -1,2 1` was read as an option.
    with ServiceThread(str(tmp_path / "ev.sqlite"), broker.port) as svc:
        t = Table(broker.port)
        svc.settle({"t01": a_match(t)})
        code, out, err = program("club.director", *login(tmp_path, broker.port), "correct",
                                 "t01", INC, 1, 1, "-1,2", 1, "--why", "misread")
        t.close()
        log = svc.svc.db.director_log()
    assert (code, err) == (1, "")
    assert out == "refused: game points: -1 is not what one deal can give (0..3)\n"
    assert log[0]["request"]["result"]["gp"] == [-1, 2] and log[0]["verdict"] == "refused"


def test_help_and_the_docs_give_the_same_exit_statuses():
    from club import director

    code, out, err = program("club.director", "--help")
    assert code == 0 and director.EXIT in out
    code, out, err = program("club.director", "accept", "--help")
    assert code == 0 and director.EXIT in out
    with open(os.path.join(ROOT, "docs", "club.md"), encoding="utf-8") as f:
        docs = f.read()
    block = "\n".join(("   " + ln).rstrip() for ln in director.EXIT.splitlines())
    assert "   ```\n" + block + "\n   ```\n" in docs  # the same words, in step 4
    for n, word in ((0, "accepted"), (1, "refused"), (2, "no answer"), (3, "cannot connect")):
        assert "\n  %d  %s" % (n, word) in director.EXIT


def test_the_view_and_the_service_say_why_they_cannot_run(tmp_path, broker):
    down = free_port()
    code, out, err = program("club.view", *login(tmp_path, down, user="viewer"), "--once")
    assert (code, err) == (3, "view: cannot reach the broker at 127.0.0.1:%d: Connection "
                              "refused\n" % down)
    code, out, err = program("club.view", *login(tmp_path, broker.port, "wrong", "viewer"),
                             "--once")
    assert (code, err) == (3, "view: the broker at 127.0.0.1:%d refused the login as viewer: "
                              "Not authorized (the password?)\n" % broker.port)
    code, out, err = program("club.view", *login(tmp_path, broker.port, PASSWORDS["viewer"],
                                                 "viewer"), "--once", timeout=30)
    assert (code, err) == (2, "view: no standings in 10 s: has the service started?\n")
    missing = tmp_path / "none.pw"
    code, out, err = program("club.service", "--db", tmp_path / "ev.sqlite", "--broker",
                             "127.0.0.1:%d" % broker.port, "--password-file", missing,
                             "--no-table-page")
    assert (code, err) == (3, "standings: cannot start: %s: No such file or directory\n"
                           % missing)
    code, out, err = program("club.service", "--db", tmp_path / "no" / "ev.sqlite",
                             "--no-table-page")
    assert (code, err) == (3, "standings: cannot start: unable to open database file\n")
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    code, out, err = program("club.service", "--db", tmp_path / "ev.sqlite", "--broker",
                             "127.0.0.1:%d" % broker.port, "--http",
                             "127.0.0.1:%d" % busy.getsockname()[1], "--no-table-page")
    busy.close()
    assert (code, err) == (3, "standings: cannot start: [Errno 98] Address already in use\n")
