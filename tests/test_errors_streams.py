"""The command line as a process: closed streams, a full disk under help, narrow terminals, stderr nobody reads."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clihelp import run, run_python

# Session 43's own findings: each test failed before its fix.


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--help"], "dpscale: error: cannot write the output (No space left on device)"),
        (["--version"], "dpscale: error: cannot write the output (No space left on device)"),
        (
            ["--lang", "es", "--help"],
            "dpscale: error: no se pudo escribir la salida (no queda espacio en el dispositivo)",
        ),  # noqa: E501
    ],
)
def test_the_top_help_and_the_version_that_cannot_be_written_are_one_line(argv, said):
    """A command's output into /dev/full was one line (test_cli_calc); the top help and --version, printed before
    any command runs, were an OSError traceback (found by refactor W's harness)."""
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "dpscale", *argv], stdout=full, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 1 and p.stderr.splitlines() == [said]


# Review B (session 44): the process around the command — closed standard streams, a full disk under a command's
# help, a terminal a few columns wide, a bad MPLBACKEND, a SIGTERM in the middle of writing a file.


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
    """The top help into /dev/full was one line and exit 1 (the test above); a command's help was lost
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
    terminal had no place to indent under. Lines are wrapped at 40 columns at the least, as before: the help is
    the one a 42-column terminal gets (its width less 2), not one wrapped narrower."""
    monkeypatch.setenv("COLUMNS", columns)
    rc, out, _ = run(capsys, "--help", "--lang", lang)
    assert rc == 0 and "calc" in out and max(len(line) for line in out.splitlines()) <= 60
    monkeypatch.setenv("COLUMNS", "42")
    assert run(capsys, "--help", "--lang", lang)[1] == out


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


@pytest.mark.slow
@pytest.mark.parametrize("argv", [SWEEP, ["pipeline", "-p", "4", "-m", "1..16x2"]])
def test_a_matplotlibrc_asking_for_latex_does_not_stop_the_plot(tmp_path, argv):
    """A user's matplotlibrc with `text.usetex: True` (a paper-writer's habit) sent the plot's labels through LaTeX:
    without latex a RuntimeError traceback after the table, exit 1, no plot; with it, labels such as 'E (%)' or
    'σ' are not LaTeX. The labels are plain text and mathtext, drawn so whatever the rc file asks (review FI)."""
    pytest.importorskip("matplotlib")
    rc = tmp_path / "matplotlibrc"
    rc.write_text("text.usetex: True\n")
    out = tmp_path / "e.png"
    env = {**os.environ, "MATPLOTLIBRC": str(rc)}
    p = subprocess.run([sys.executable, "-m", "dpscale", *argv, "--plot", str(out)], capture_output=True,
                       text=True, env=env, timeout=120)  # fmt: skip
    assert p.returncode == 0 and "Traceback" not in p.stderr and out.read_bytes()[:4] == b"\x89PNG", p.stderr[-300:]


# Review I (session 44): mutation testing of the day's code — each test here fails on a small change to it that
# the other tests let through (a signal handler left set, MPLBACKEND not given back, a unit said in another
# spelling, an Accept-Language read too literally, …).


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
    p = run_python(MPL, env={**os.environ, "MPLBACKEND": "bogus"})
    assert p.returncode == 0 and p.stdout == "bogus\n", p.stderr


# Review AG (session 46): the command line as a Unix citizen — stdout against stderr, closed pipes, exit codes.


def _stderr_unread(*argv: str) -> subprocess.CompletedProcess:
    """`dpscale ARGV` with its stderr a pipe whose reader has already left (`2> >(head -1)` after the first line, a
    log reader gone): every write to it is a BrokenPipeError."""
    read, write = os.pipe()
    os.close(read)
    try:
        command = [sys.executable, "-m", "dpscale", *argv]
        return subprocess.run(command, stdout=subprocess.PIPE, stderr=write, timeout=60)
    finally:
        os.close(write)


def _the_worked_answer(p: subprocess.CompletedProcess, machine: str) -> None:
    """`calc -d 1,8,64 -v 2000 -e 0.9` in --json or --csv came whole on stdout, exit 0."""
    assert p.returncode == 0
    out = p.stdout.decode()
    if machine == "--json":
        assert [r["actual_throughput"] for r in json.loads(out)] == [2000.0, 14400.0, 115200.0]
    else:
        assert out.splitlines()[3].split(",")[:5] == ["64", "2000.0", "0.9", "128000.0", "115200.0"]


@pytest.mark.slow
@pytest.mark.parametrize("machine", ["--json", "--csv"])
def test_a_stderr_nobody_reads_loses_the_notes_not_the_answer(machine):
    """--json and --csv write their notes to stderr before the answer; a broken stderr's BrokenPipeError reached the
    dispatcher, which took it for stdout's reader leaving: nothing on stdout, exit 0."""
    p = _stderr_unread("calc", "-d", "1,8,64", "-v", "2000", "-e", "0.9", machine)  # (a constant E's note)
    _the_worked_answer(p, machine)


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["calc", "--devices", "0"],  # the command's own refusal
        ["calc", "--bogus"],  # argparse's
        ["zzz"],  # the dispatcher's
    ],
)
def test_bad_input_exits_2_even_when_its_line_cannot_be_written(argv):
    """The refusal's one line could not reach a stderr nobody reads, and the BrokenPipeError made it exit 0: a
    script testing the status took the refused command for a success."""
    p = _stderr_unread(*argv)
    assert (p.returncode, p.stdout) == (2, b"")


# A process that sends itself SIGINT while a named module is imported: Ctrl-C in a command's first tenths of a second
# (its own imports; predict's options import numpy), without timing — the signal comes at that import, every time.
CTRL_C_AT_IMPORT = """
import os, signal, sys

AT = sys.argv[1]


class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == AT:
            os.kill(os.getpid(), signal.SIGINT)
        return None

signal.signal(signal.SIGINT, signal.default_int_handler)  # as on a terminal (a background job starts it ignored)
sys.meta_path.insert(0, CtrlC())
from dpscale.faces.cli import main
sys.argv = ["dpscale", *sys.argv[2:]]
sys.exit(main())
"""


@pytest.mark.parametrize(
    ("module", "argv", "said"),
    [  # in the command's module, its options, the parser, and the dispatcher's look before a command is chosen
        ("dpscale.sources.measure.jobs", ["measure", "-d", "2"], "dpscale measure: interrupted"),
        ("dpscale.formulas.collectives", ["predict", "--params", "1e9"], "dpscale predict: interrupted"),
        ("dpscale.faces.cli.common", ["calc", "-d", "8", "--lang", "es"], "dpscale calc: interrumpido"),
        ("dpscale.faces.cli.serve", ["plan"], "dpscale: interrupted"),
    ],
)
def test_ctrl_c_while_a_command_starts_is_one_line_not_a_traceback(module, argv, said):
    """Ctrl-C (or `timeout -s INT`) while the command's modules were still imported — `dpscale predict`'s first 0.4 s
    here, numpy's import among them — ended in a 30-line KeyboardInterrupt traceback, exit 130, where a moment later
    it says one line."""
    proc = subprocess.run(
        [sys.executable, "-c", CTRL_C_AT_IMPORT, module, *argv], capture_output=True, text=True, timeout=120
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", said + "\n")


# Review FI (session 52): stderr that cannot be written for another reason than a reader gone.


def _stderr_full(*argv: str) -> subprocess.CompletedProcess:
    """`dpscale ARGV 2>/dev/full`: stderr on a full disk (a log file's), every write to it an ENOSPC OSError."""
    with open("/dev/full", "w") as full:
        command = [sys.executable, "-m", "dpscale", *argv]
        return subprocess.run(command, stdout=subprocess.PIPE, stderr=full, timeout=60)


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("machine", ["--json", "--csv"])
def test_a_stderr_on_a_full_disk_loses_the_notes_not_the_answer(machine):
    """As a stderr nobody reads (above): the notes --json and --csv write to stderr first were an OSError that
    ended the command, so `calc … --json 2>/dev/full` printed nothing on stdout and exited 1."""
    p = _stderr_full("calc", "-d", "1,8,64", "-v", "2000", "-e", "0.9", machine)  # (a constant E's note)
    _the_worked_answer(p, machine)


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("argv", [["calc", "--devices", "0"], ["calc", "--bogus"], ["zzz"]])
def test_bad_input_exits_2_when_its_line_meets_a_full_disk(argv):
    """The refusal's line into a full stderr was an OSError: exit 1, a failure to write, not the refusal it was."""
    p = _stderr_full(*argv)
    assert (p.returncode, p.stdout) == (2, b"")
