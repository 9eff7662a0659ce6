"""Review AG (session 46): the command line as a Unix citizen — stdout against stderr, closed pipes, exit codes."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from clihelp import run


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


def test_calc_rows_in_another_unit_say_it_and_plan_reads_them_in_it(capsys, tmp_path):
    """calc --unit tokens/s wrote the rows a samples/s calc writes: `plan --efficiency-file` then planned 2,000
    tokens/s as 2,000 samples/s (1e9 samples in 138.9 h at one device) without a word, where a fit's report or a
    plan row, which say their unit, are refused without --unit tokens/s. samples/s rows stay as the contract has
    them."""
    rc, out, _ = run(capsys, "calc", "-d", "1,8,64", "-v", "2000", "-e", "0.9", "--unit", "tokens/s", "--json")
    assert rc == 0 and [r["unit"] for r in json.loads(out)] == ["tokens/s"] * 3
    assert list(json.loads(out)[0])[4:6] == ["actual_throughput", "unit"]  # beside the figure it labels, as plan's
    rows = tmp_path / "calc.json"
    rows.write_text(out)
    rc, _, err = run(capsys, "plan", "--efficiency-file", str(rows), "-n", "1e9")
    assert rc == 2 and "dpscale plan: error: --unit: not typed (plan's default 'samples/s'); allowed: 'tokens/s'" in err
    rc, out, _ = run(capsys, "plan", "--efficiency-file", str(rows), "-n", "1e9", "--unit", "tokens/s", "--csv")
    assert rc == 0 and out.splitlines()[1] == "1,1.0,2000.0,1.0,138.888888889,138.888888889,,tokens/s,,"
    rc, out, _ = run(capsys, "calc", "-d", "8", "-v", "20", "-e", "0.9", "--unit", "tokens/s", "--csv")
    assert out.splitlines() == [
        "devices,per_device_throughput,efficiency,ideal_throughput,actual_throughput,speedup,lost_throughput,"
        "effective_devices,unit",
        "8,20.0,0.9,160.0,144.0,7.2,16.0,7.2,tokens/s",
    ]
    for unit in ("samples/s", "Samples/s"):  # the default, however spelled: the documented keys, no more
        rc, out, _ = run(capsys, "calc", "-d", "64", "-v", "2000", "-e", "0.9", "--unit", unit, "--json")
        assert "unit" not in json.loads(out)


def test_control_characters_from_a_file_reach_the_terminal_escaped(capsys, tmp_path):
    """An input file's bytes were echoed raw: a header's ESC[31m in fit's error line, a NUL in validate's, a fit
    report's warning (ESC[2J: clear the screen) in plan's note and a configuration's name in validate's table —
    each ran on the user's terminal. They are shown as Python writes them, as a typed value's repr already was."""
    runs = tmp_path / "runs.csv"
    runs.write_text("dev\x1b[31mices,throughput\n1,100\n2,190\n")
    rc, _, err = run(capsys, "fit", str(runs))
    assert rc == 2 and "(found dev\\x1b[31mices, throughput)" in err and "\x1b" not in err
    data = tmp_path / "data.csv"
    data.write_bytes(b"\x00\x7fcfg\n")
    rc, _, err = run(capsys, "validate", str(data), "--lang", "es")
    assert rc == 2 and err.rstrip().endswith("(hay: \\x00\\x7fcfg)") and "\x00" not in err
    runs.write_text("devices,throughput\n1,1000\n2,1950\n4,3800\n8,7300\n")
    rc, out, _ = run(capsys, "fit", str(runs), "--json")
    report = json.loads(out)
    report["warnings"] = ["\x1b[2Jmeasure closer"]
    fitted = tmp_path / "fit.json"
    fitted.write_text(json.dumps(report))
    for machine, stream in (("--lang=en", 1), ("--csv", 2)):  # the note on stdout under a table, else on stderr
        rc, *said = run(capsys, "plan", "--efficiency-file", str(fitted), "-n", "1e9", machine)
        assert rc == 0 and "note: fit.json warns: \\x1b[2Jmeasure closer\n" in said[stream - 1]
        assert "\x1b" not in said[0] + said[1]
    dev = (Path(__file__).parents[1] / "validation" / "published_scaling_dev.csv").read_text().splitlines()
    data.write_text("\n".join([dev[0], "\x1b[2J" + dev[1], "\x1b[2J" + dev[2]]) + "\n")
    rc, out, _ = run(capsys, "validate", str(data))
    assert rc == 0 and out.splitlines()[3].startswith("\\x1b[2JDLE-TF1-BERT-L-pretrain-DGX1-16G-seq128-AMP-2020  ")
    assert "\x1b" not in out
    rc, out, _ = run(capsys, "validate", str(data), "--csv")  # data stays data: a CSV cell holds what the file held
    assert out.splitlines()[1].startswith("\x1b[2JDLE-TF1-BERT-L")


MACHINE_RUNS = [
    ["calc", "-d", "1..4096x4", "-v", "2000", "--law", "usl", "--sigma", "0.01", "--kappa", "1e-5"],
    ["calc", "-d", "64", "-v", "2000", "-a", "100000"],
    ["predict", "--model", "bert-large", "--precision", "amp", "--system", "dgx-a100", "-v", "150", "-d", "1..1024x4"],
    ["fit", "RUNS", "--at", "64,2048", "--resamples", "100"],
    ["batch", "-b", "32", "-d", "8..8192x4", "-e", "0.9", "--dataset-size", "1281167"],
    ["pipeline", "-p", "4", "-m", "8", "-d", "64", "--dp-efficiency", "0.9"],
    ["memory", "--model", "llama-7b", "-d", "8", "--gpu", "h100-80gb"],
    ["plan", "-n", "1.28e6", "--epochs", "90", "-v", "2000", "-e", "0.9", "--price-per-device-hour", "2.5"],
    ["validate", "DATA"],
    ["validate", "DATA", "--mode", "fit"],
]


@pytest.mark.parametrize("argv", MACHINE_RUNS, ids=lambda a: " ".join(a[:2]))
def test_json_and_csv_are_the_same_in_spanish(capsys, tmp_path, argv):
    """The README promises --json and --csv the same keys and numbers under --lang es (a decimal point, no
    thousands separator, what a script reads): only the table, the notes and the errors are said in Spanish."""
    runs = tmp_path / "runs.csv"
    runs.write_text("devices,throughput\n1,1000\n2,1950\n4,3800\n8,7300\n16,13800\n")
    dev = (Path(__file__).parents[1] / "validation" / "published_scaling_dev.csv").read_text().splitlines()
    data = tmp_path / "dev.csv"
    data.write_text("\n".join(dev[:40]) + "\n")
    argv = [str(runs) if a == "RUNS" else str(data) if a == "DATA" else a for a in argv]
    for machine in ("--json", "--csv"):
        said = {}
        for lang in ("en", "es"):
            rc, said[lang], _ = run(capsys, *argv, machine, "--lang", lang)
            assert rc == 0
        assert said["es"] == said["en"]
        if machine == "--json":
            json.loads(said["en"])
        else:  # one field count on every line: no number split at a thousands separator
            assert len({len(row) for row in csv.reader(io.StringIO(said["en"]))}) == 1
        rc, table, _ = run(capsys, *argv, "--lang", "es")  # (the table is Spanish: the test can tell them apart)
        assert rc == 0 and table != said["en"]
