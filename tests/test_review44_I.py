"""Review I (session 44): mutation testing of the day's code — each test here fails on a small change to it that
the other tests let through (a signal handler left set, MPLBACKEND not given back, a unit said in another
spelling, an Accept-Language read too literally, …)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest
from clihelp import run, write_then_signal

import dpscale
from dpscale.files import write_whole

POSIX = pytest.mark.skipif(not hasattr(signal, "SIGHUP") or os.name != "posix", reason="POSIX signals")
SH = shutil.which("sh")


def _python(code: str, *argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=60, env=env)


# write_whole holds SIGTERM and SIGHUP only while its temporary file is on the disk, and only where their action is
# the default one: a caller's own handler, a later signal and a thread other than the main one are as before.

HUP_MID_WRITE = write_then_signal("SIGHUP")


@POSIX
def test_a_sighup_mid_write_leaves_no_temporary_file_either(tmp_path):
    """A closed terminal's SIGHUP, as a scheduler's SIGTERM: the process ends by it, the earlier file whole and no
    hidden .plot.svg.XXXX beside it."""
    target = tmp_path / "plot.svg"
    target.write_text("earlier")
    p = _python(HUP_MID_WRITE, str(target))
    assert p.returncode == -signal.SIGHUP, p.stderr
    assert sorted(os.listdir(tmp_path)) == ["plot.svg"] and target.read_text() == "earlier"


OWN_HANDLER = """
import os, signal, sys
from dpscale.files import write_whole
got = []
signal.signal(signal.SIGTERM, lambda signum, frame: got.append(signum))
def write(fh):
    fh.write("whole ")
    os.kill(os.getpid(), signal.SIGTERM)
    fh.write("file")
write_whole(sys.argv[1], write)
print(got == [signal.SIGTERM], open(sys.argv[1]).read())
"""


@POSIX
def test_a_callers_own_sigterm_handler_is_left_alone(tmp_path):
    """A program that handles SIGTERM itself (a graceful shutdown) keeps its handler while a plot is written: the
    signal reaches it once and the write goes on to the end."""
    target = tmp_path / "plot.svg"
    p = _python(OWN_HANDLER, str(target))
    assert p.returncode == 0, p.stderr
    assert p.stdout == "True whole file\n" and sorted(os.listdir(tmp_path)) == ["plot.svg"]


TERM_AFTER_WRITE = """
import os, signal, sys
from dpscale.files import write_whole
write_whole(sys.argv[1], lambda fh: fh.write("done"))
print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL, signal.getsignal(signal.SIGHUP) is signal.SIG_DFL,
      flush=True)
os.kill(os.getpid(), signal.SIGTERM)
import time
time.sleep(5)
print("still running")
"""


@POSIX
def test_after_the_write_a_sigterm_ends_the_process_as_before(tmp_path):
    """Once the file is written its handlers are given back: a SIGTERM later (the rest of a sweep) ends the process
    by the signal, with no traceback of the write's own exception."""
    target = tmp_path / "plot.svg"
    p = _python(TERM_AFTER_WRITE, str(target))
    assert p.returncode == -signal.SIGTERM, p.stderr
    assert p.stdout == "True True\n" and p.stderr == "" and target.read_text() == "done"


def test_a_file_written_from_another_thread(tmp_path):
    """Python sets signal handlers in the main thread alone: write_whole in a worker thread (a notebook's or a
    server's) writes its file as before, without holding any."""
    target = tmp_path / "out.csv"
    failed: list[BaseException] = []

    def work() -> None:
        try:
            write_whole(target, lambda fh: fh.write("devices,E\n64,0.9\n"))
        except BaseException as exc:  # (said by the assertion below)
            failed.append(exc)

    t = threading.Thread(target=work)
    t.start()
    t.join(30)
    assert failed == [] and target.read_text() == "devices,E\n64,0.9\n"
    assert sorted(os.listdir(tmp_path)) == ["out.csv"]


CHILD_STDOUT = """
import subprocess, sys
from dpscale.faces.cli import _closed_streams
_closed_streams()
child = subprocess.run([sys.executable, "-c", "import os; os.fstat(1)"], stderr=subprocess.DEVNULL)
print(child.returncode, file=sys.stderr)
"""


@pytest.mark.skipif(SH is None or os.name != "posix", reason="needs a POSIX shell")
def test_a_closed_stdout_is_an_open_descriptor_for_a_child_too():
    """`dpscale measure … >&-`: the closed stdout is put on /dev/null for the ranks the command starts as for
    itself — a child that found its descriptor 1 closed again would give it to the first file it opened."""
    p = subprocess.run([SH, "-c", 'exec "$@" >&-', "sh", sys.executable, "-c", CHILD_STDOUT], capture_output=True,
                       text=True, timeout=60)  # fmt: skip
    assert p.returncode == 0 and p.stderr == "0\n", p.stderr


MPL = """
import os
from dpscale.faces.plot import pyplot
pyplot()
print(os.environ.get("MPLBACKEND"))
"""


def test_the_environments_mplbackend_is_given_back_after_the_plot():
    """MPLBACKEND=bogus is set aside while matplotlib is imported, then given back: the environment is the caller's
    (a child it starts sees what the user set)."""
    pytest.importorskip("matplotlib")
    p = _python(MPL, env={**os.environ, "MPLBACKEND": "bogus"})
    assert p.returncode == 0 and p.stdout == "bogus\n", p.stderr


# scale's records are plain numbers whatever the inputs' types


def test_scale_records_of_0d_arrays_are_plain_numbers_json_writes():
    """scale(np.array(64), np.array(2000.0), 0.9): its fields are 0-d arrays and numpy floats, its records plain
    numbers — the worked example written as JSON."""
    records = dpscale.scale(np.array(64), np.array(2000.0), 0.9).records()
    assert json.loads(json.dumps(records)) == [
        {"devices": 64, "per_device_throughput": 2000.0, "efficiency": 0.9, "ideal_throughput": 128000.0,
         "actual_throughput": pytest.approx(115200.0), "speedup": pytest.approx(57.6),
         "lost_throughput": pytest.approx(12800.0), "effective_devices": pytest.approx(57.6)}
    ]  # fmt: skip
    assert [type(v) for v in records[0].values()] == [int] + [float] * 7


def test_solve_names_a_size_between_whole_ones_as_it_is():
    """A law's exact size is read between whole sizes: a subclass that gives no E there is named at that size, 2.5,
    not at the whole size 2 it was not asked about (the law itself: 2.11 devices, rounded up to 3)."""

    class Clipped(dpscale.Amdahl):
        def efficiency(self, d):
            return super().efficiency(d) if d == int(d) else float("nan")

    with pytest.raises(dpscale.DpscaleError) as caught:
        dpscale.solve(per_device_throughput=100, efficiency=Clipped(0.05), speedup=2)
    assert str(caught.value) == "efficiency: got nan; allowed: a scaling efficiency in (0, 1] (E(d) at d = 2.5)"
    s = dpscale.solve(per_device_throughput=100, efficiency=dpscale.Amdahl(0.05), speedup=2)
    assert s.result.devices == 3 and s.exact == pytest.approx(2.111111111111111)


# an efficiency file's unit


def _file(tmp_path, doc) -> str:
    path = tmp_path / "e.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_a_prediction_file_that_states_a_unit_keeps_it(capsys, tmp_path):
    """A prediction's records are samples/s when they say nothing; one that states tokens/s is read in tokens/s (it
    was before the two-unit check too), so plan without --unit asks for it rather than plan tokens as samples."""
    records = [
        {"devices": d, "efficiency": e, "per_device_throughput": 2000.0, "bottleneck": b, "unit": "tokens/s"}
        for d, e, b in ((1, 1.0, "none (one device)"), (8, 0.9, "compute"))
    ]
    rc, out, err = run(capsys, "plan", "--efficiency-file", _file(tmp_path, records), "-n", "1e6", "-d", "8")
    assert rc == 2 and not out
    assert err.startswith(
        "dpscale plan: error: --unit: not typed (plan's default 'samples/s'); allowed: 'tokens/s', the unit of "
        "--efficiency-file's per-device throughput 2000"
    )
    rc, out, err = run(capsys, "plan", "--efficiency-file", _file(tmp_path, records), "-n", "1e6", "-d", "8",
                       "--unit", "tokens/s", "--json")  # fmt: skip
    assert rc == 0, err
    assert [r["actual_throughput"] for r in json.loads(out)] == [pytest.approx(14400.0)]


def test_a_files_unit_is_said_as_first_written(capsys, tmp_path):
    """'Tokens/s' then 'tokens/s' is one unit, said as the file first writes it."""
    records = [
        {"devices": 1, "efficiency": 1, "per_device_throughput": 1000, "unit": "Tokens/s"},
        {"devices": 8, "efficiency": 0.9, "per_device_throughput": 1000, "unit": "tokens/s"},
    ]
    rc, _, err = run(capsys, "plan", "--efficiency-file", _file(tmp_path, records), "-n", "1e6", "-d", "8",
                     "--unit", "samples/s")  # fmt: skip
    assert rc == 2 and "--unit: got 'samples/s'; allowed: 'Tokens/s', the unit of --efficiency-file's" in err


# the web server: the language a request asks for, and the failure lines it writes into the page


def _client():
    """The page's server in a test client (skipped without the web extra, as the other web tests are)."""
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx2")
    from fastapi.testclient import TestClient

    from dpscale.faces.web.app import create_app

    return TestClient(create_app())


SPANISH_CAP = (
    "dpscale: error: cuerpo: más de 1.048.576 bytes; se admite: como mucho 1.048.576 (los campos de un formulario)"
)


@pytest.mark.parametrize("asked", ["es;q=0.9", "fr-FR, es;q=0.5", "ES", "es-MX", " es ;q=1"])
def test_a_body_too_big_is_refused_in_spanish_however_the_header_asks(asked):
    """Accept-Language as browsers and proxies write it: with a quality, after a language the page lacks and a
    space, in capitals, with a region."""
    client = _client()
    from dpscale.faces.web.app import MAX_BODY_BYTES

    big = {"options": {"point": "1:1000\n" * (MAX_BODY_BYTES // 7 + 1)}, "lang": "es"}
    r = client.post("/api/fit", json=big, headers={"Accept-Language": asked})
    assert r.status_code == 413 and r.json()["error"] == SPANISH_CAP


def test_the_failure_lines_carried_cannot_end_the_pages_script(monkeypatch):
    """The lines are JSON inside a <script>: a '</script>' in a label (a translation's) is escaped, so the page
    still parses and the line reads as written."""
    import re

    from dpscale.faces.i18n import LABELS

    said = "dpscale: no answer </script><b>from the server</b>"
    monkeypatch.setitem(LABELS["en"], "web_no_answer", said)
    page = _client().get("/").text
    carried = re.search(r'<script type="application/json" id="fallback">(.*?)</script>', page, re.S)[1]
    assert json.loads(carried)["en"]["web_no_answer"] == said
    assert "<b>" not in page
