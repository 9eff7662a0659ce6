"""Review B (session 44): the process around the command — closed standard streams, a full disk under a command's
help, a terminal a few columns wide, a bad MPLBACKEND, a SIGTERM in the middle of writing a file."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from clihelp import run, write_then_signal

SH = shutil.which("sh")
SWEEP = ["calc", "-d", "1..8x2", "-v", "2000", "-e", "0.9"]


def _closed(redirect: str, *argv: str) -> subprocess.CompletedProcess:
    """`dpscale ARGV` with a standard stream closed by the shell (`>&-`, `2>&-`)."""
    script = f'exec "$@" {redirect}'
    cmd = [SH, "-c", script, "sh", sys.executable, "-m", "dpscale", *argv]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(SH is None or os.name != "posix", reason="needs a POSIX shell")
@pytest.mark.parametrize(
    ("argv", "said"),
    [
        ([*SWEEP, "--csv"], "dpscale calc: error: cannot write the output (stdout is closed)"),
        ([*SWEEP, "--json"], "dpscale calc: error: cannot write the output (stdout is closed)"),
        (SWEEP, "dpscale calc: error: cannot write the output (stdout is closed)"),
        (
            [*SWEEP, "--csv", "--lang", "es"],
            "dpscale calc: error: no se pudo escribir la salida (la salida estándar está cerrada)",
        ),
    ],
)
def test_a_closed_stdout_is_said_in_one_line(argv, said):
    """`dpscale calc … --csv >&-` was a TypeError traceback (csv.writer(None)); the table and JSON were dropped
    without a word and exit 0. Now as on a full disk: one line, exit 1."""
    p = _closed(">&-", *argv)
    err = [line for line in p.stderr.splitlines() if not line.startswith(("note:", "nota:"))]
    assert p.returncode == 1 and err == [said], p.stderr


@pytest.mark.skipif(SH is None or os.name != "posix", reason="needs a POSIX shell")
def test_a_closed_stderr_keeps_the_notes_out_of_stdout():
    """With stderr closed, print(file=sys.stderr) printed to stdout (file=None is stdout): `--json 2>&-` put the
    notes in front of the JSON, which no longer parsed."""
    p = _closed("2>&-", *SWEEP, "--json")
    assert p.returncode == 0
    assert [r["devices"] for r in json.loads(p.stdout)] == [1, 2, 4, 8]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["calc", "--help"], "dpscale calc: error: cannot write the output (No space left on device)"),
        (
            ["fit", "--help", "--lang", "es"],
            "dpscale fit: error: no se pudo escribir la salida (no queda espacio en el dispositivo)",
        ),
    ],
)
def test_a_command_s_help_that_cannot_be_written_is_one_line(argv, said):
    """The top help into /dev/full was one line and exit 1 (test_fuzz_session43); a command's help was lost
    without a word and exit 0 (argparse swallows its own OSError)."""
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "dpscale", *argv], stdout=full, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 1 and p.stderr.splitlines() == [said]


def test_a_command_s_help_into_a_reader_that_left_is_quiet(capsys, monkeypatch):
    """`dpscale calc --help | head -1` stays exit 0 and silent (the help's write now fails out loud)."""

    class Gone:
        encoding = "utf-8"

        def write(self, s):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            pass

        def fileno(self):
            raise io.UnsupportedOperation("fileno")

    monkeypatch.setattr(sys, "stdout", Gone())
    rc, _, err = run(capsys, "calc", "--help")
    assert rc == 0 and err == ""


@pytest.mark.parametrize("columns", ["1", "5", "10"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_top_help_in_a_very_narrow_terminal(capsys, monkeypatch, columns, lang):
    """COLUMNS=5 `dpscale --help` was a ValueError traceback: a line with no space ('commands:') wider than the
    terminal had no place to indent under. Lines are wrapped at 40 columns at the least, as before."""
    monkeypatch.setenv("COLUMNS", columns)
    rc, out, _ = run(capsys, "--help", "--lang", lang)
    assert rc == 0 and "calc" in out and max(len(line) for line in out.splitlines()) <= 60


@pytest.mark.slow
def test_a_bad_mplbackend_does_not_stop_the_plot(tmp_path):
    """MPLBACKEND=bogus made importing matplotlib raise ValueError: a traceback after the table was printed. The
    plot is a file written with Agg, whatever backend the environment names."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "e.png"
    env = {**os.environ, "MPLBACKEND": "bogus"}
    p = subprocess.run([sys.executable, "-m", "dpscale", *SWEEP, "--plot", str(out)], capture_output=True,
                       text=True, env=env, timeout=120)  # fmt: skip
    assert p.returncode == 0 and "Traceback" not in p.stderr and out.read_bytes()[:4] == b"\x89PNG"


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
