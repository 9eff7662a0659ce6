"""Review G (session 44): the day's commits tried at their edges — solve's E(d) function at one device, a second
terminating signal while write_whole cleans up, and units compared in one way by every reader."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest
from clihelp import run, write_then_signal

import dpscale
from dpscale import DpscaleError


@pytest.mark.parametrize("fn", [lambda d: [1.0], lambda d: (1.0,), lambda d: [[1.0]]])
def test_solve_reads_a_one_element_e_at_one_device(fn):
    """c8d152f checked each size's E through one(), but a target one device reaches still returned
    s_target / float(fn(1)): a function giving [1.0] (one E, in a list) raised float()'s TypeError there, where every
    larger target was solved."""
    s = dpscale.solve(per_device_throughput=100, efficiency=fn, actual_throughput=50)
    assert s.result.devices == 1 and s.exact == pytest.approx(0.5)


def test_solve_names_a_large_size_as_the_errors_do():
    """The searched E(d)'s refusal named the size with '{d:g}' ('E(d) at d = 1.04858e+06'), where scale's names it
    whole and grouped ('E(d) at d = 1,048,576')."""
    fn = lambda d: 1.0 if d < 2**20 else float("nan")  # noqa: E731
    with pytest.raises(DpscaleError, match=r"E\(d\) at d = 1,048,576\)"):
        dpscale.solve(per_device_throughput=1, efficiency=fn, speedup=2**21)


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


def test_an_efficiency_files_unit_is_one_unit_in_any_case(tmp_path, capsys):
    """c01334c compared the units of runs in JSON lines stripped and in any case, but --efficiency-file's reader
    still took 'tokens/s' and 'Tokens/s' as two units, so as none: plan then took the file's tokens/s rate as
    samples/s without a word, where the same file in one spelling is refused until --unit says tokens/s."""
    doc = {"points": [
        {"devices": 1, "efficiency": 1.0, "per_device_throughput": 1000, "unit": "tokens/s", "baseline_devices": 1},
        {"devices": 8, "efficiency": 0.9, "per_device_throughput": 900, "unit": "Tokens/s ", "baseline_devices": 1},
    ]}  # fmt: skip
    f = tmp_path / "e.json"
    f.write_text(json.dumps(doc))
    code, out, err = run(capsys, "plan", "--efficiency-file", str(f), "--samples", "1e9")
    assert code == 2 and "--unit: not typed (plan's default 'samples/s'); allowed: 'tokens/s'" in err, (out, err)
    code, out, err = run(
        capsys, "plan", "--efficiency-file", str(f), "--samples", "1e9", "--unit", "TOKENS/s", "--json"
    )
    assert code == 0, err
    assert [r["actual_throughput"] for r in json.loads(out)] == [1000.0, 7200.0]


def test_a_csvs_unit_column_folds_case_as_json_lines_do(tmp_path, capsys):
    """c01334c: 'runs in JSON lines compare their unit as a CSV does' — with str.casefold, as a typed --unit is
    matched (same_unit), where the CSV's set-up columns compared with str.lower: 'maß/s' beside 'MASS/s' was one
    unit in JSON lines and two set-ups in a CSV."""
    csv = tmp_path / "runs.csv"
    csv.write_text("devices,throughput,unit\n1,1000,maß/s\n2,1900,MASS/s\n4,3600,mass/s\n", encoding="utf-8")
    lines = tmp_path / "runs.jsonl"
    units = ["maß/s", "MASS/s", "mass/s"]
    lines.write_text(
        "".join(json.dumps({"devices": d, "throughput": v, "unit": u}) + "\n" for (d, v), u in
                zip([(1, 1000), (2, 1900), (4, 3600)], units)), encoding="utf-8")  # fmt: skip
    for f in (csv, lines):
        code, out, err = run(capsys, "fit", str(f), "--json")
        assert code == 0, err
        assert json.loads(out)["unit"] == "maß/s"


@pytest.mark.parametrize("given", [lambda d: np.array(0.9), lambda d: np.float32(0.9), lambda d: np.array([[0.9]])])
def test_one_sizes_e_from_a_function_is_a_number(given):
    """5320cb8 read a function's [0.9] for one size as its number, but a 0-d array(0.9) stayed an array: the result's
    efficiency was array(0.9) (its repr, and `r.efficiency * 2` an array), where a law's, a fit's or a number's is a
    float."""
    r = dpscale.scale(8, 100, given)
    assert type(r.efficiency) is float and r.efficiency == pytest.approx(0.9)
    assert r.actual_throughput == pytest.approx(720)
