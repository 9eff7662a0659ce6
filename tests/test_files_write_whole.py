"""files.write_whole under signals and threads: no temporary file left, the caller's handlers left alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import pytest
from clihelp import run_python, write_then_signal

from dpscale.files import write_whole

# Review B (session 44): the process around the command — closed standard streams, a full disk under a command's
# help, a terminal a few columns wide, a bad MPLBACKEND, a SIGTERM in the middle of writing a file.


WRITE_THEN_TERM = write_then_signal("SIGTERM")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
def test_a_sigterm_mid_write_leaves_no_temporary_file(tmp_path):
    """write_whole promised 'no temporary file' after a SIGTERM, but the signal's default action ended the process
    without its `finally`: `dpscale calc --plot f.pdf` killed mid-write left a hidden .f.pdf.XXXX beside it. The
    process still ends by the signal, the earlier file whole."""
    target = tmp_path / "plot.svg"
    target.write_text("earlier")
    p = subprocess.run([sys.executable, "-c", WRITE_THEN_TERM, str(target)], capture_output=True, text=True,
                       timeout=60)  # fmt: skip
    assert p.returncode == -signal.SIGTERM, p.stderr
    assert sorted(os.listdir(tmp_path)) == ["plot.svg"] and target.read_text() == "earlier"


# Review G (session 44): the day's commits tried at their edges — solve's E(d) function at one device, a second
# terminating signal while write_whole cleans up, and units compared in one way by every reader.


# A SIGTERM mid-write, and a second one as write_whole removes its temporary file (a scheduler that repeats it, a
# closed terminal's SIGHUP after its SIGTERM): the second raised inside the `finally`, before its unlink.
TERM_TWICE = write_then_signal(
    "SIGTERM",
    prelude="""
real = os.path.lexists

def lexists(p):
    if os.path.basename(p).startswith(".plot.svg."):
        os.kill(os.getpid(), signal.SIGTERM)  # the second, as the temporary file is looked for to be removed
    return real(p)

os.path.lexists = lexists
""",
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
def test_a_second_sigterm_during_the_cleanup_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "plot.svg"
    target.write_text("earlier")
    p = subprocess.run([sys.executable, "-c", TERM_TWICE, str(target)], capture_output=True, text=True, timeout=60)
    assert p.returncode == -signal.SIGTERM, p.stderr
    assert sorted(os.listdir(tmp_path)) == ["plot.svg"] and target.read_text() == "earlier"


# Review I (session 44): mutation testing of the day's code — each test here fails on a small change to it that
# the other tests let through (a signal handler left set, MPLBACKEND not given back, a unit said in another
# spelling, an Accept-Language read too literally, …).


POSIX = pytest.mark.skipif(not hasattr(signal, "SIGHUP") or os.name != "posix", reason="POSIX signals")


# write_whole holds SIGTERM and SIGHUP only while its temporary file is on the disk, and only where their action is
# the default one: a caller's own handler, a later signal and a thread other than the main one are as before.

HUP_MID_WRITE = write_then_signal("SIGHUP")


@POSIX
def test_a_sighup_mid_write_leaves_no_temporary_file_either(tmp_path):
    """A closed terminal's SIGHUP, as a scheduler's SIGTERM: the process ends by it, the earlier file whole and no
    hidden .plot.svg.XXXX beside it."""
    target = tmp_path / "plot.svg"
    target.write_text("earlier")
    p = run_python(HUP_MID_WRITE, str(target))
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
    p = run_python(OWN_HANDLER, str(target))
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
    p = run_python(TERM_AFTER_WRITE, str(target))
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
