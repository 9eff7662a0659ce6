"""Review AG (session 46): the command line as a Unix citizen — stdout against stderr, closed pipes, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


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


@pytest.mark.slow
@pytest.mark.parametrize("machine", ["--json", "--csv"])
def test_a_stderr_nobody_reads_loses_the_notes_not_the_answer(machine):
    """--json and --csv write their notes to stderr before the answer; a broken stderr's BrokenPipeError reached the
    dispatcher, which took it for stdout's reader leaving: nothing on stdout, exit 0."""
    p = _stderr_unread("calc", "-d", "1,8,64", "-v", "2000", "-e", "0.9", machine)  # (a constant E's note)
    assert p.returncode == 0
    out = p.stdout.decode()
    if machine == "--json":
        assert [r["actual_throughput"] for r in json.loads(out)] == [2000.0, 14400.0, 115200.0]
    else:
        assert out.splitlines()[3].split(",")[:5] == ["64", "2000.0", "0.9", "128000.0", "115200.0"]


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
