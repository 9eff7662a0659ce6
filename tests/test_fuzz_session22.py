"""Hostile inputs an outside fuzzing session found ending in a traceback, a silent wrong answer or a hang: each is
one line and exit 2 now (or, for the hang, an answer in well under a second)."""

from __future__ import annotations

import json
import time

import pytest
from clihelp import run


@pytest.mark.parametrize("argv", [
    ["fit", "--point", "1:100", "--point", "2:190", "--only=--"],
    ["plan", "-n", "1e6", "--fit", "--point", "1:100", "--only=--"],
])  # fmt: skip
def test_only_given_a_bare_double_dash_is_refused_in_one_line(capsys, argv):
    """argparse hands '--only=--' over as [] — 'list' object has no attribute 'partition'."""
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("body, said", [
    ('[{"devices": NaN, "efficiency": 0.9}]', "record 1: devices NaN'; allowed: a whole number from 1"),
    ('[{"devices": Infinity, "efficiency": 0.9}]', "record 1: devices Infinity'; allowed: a whole number from 1"),
    ('{"predictions": [{"devices": 1, "efficiency": 1}, {"devices": 8, "efficiency": 0.9}], "baseline_devices": "x"}',
     "baseline_devices 'x'\"; allowed: a whole number from 1 to 10,000,000"),
    ('{"predictions": [{"devices": 1, "efficiency": 1}, {"devices": 8, "efficiency": 0.9}], "baseline_devices": 2.5}',
     "baseline_devices 2.5'; allowed: a whole number"),  # it was cut to 2
    ('{"predictions": [{"devices": 1, "efficiency": 1}, {"devices": 8, "efficiency": 0.9}], "baseline_devices": true}',
     "baseline_devices True'; allowed: a whole number"),  # it was read as 1
])  # fmt: skip
def test_an_efficiency_file_with_impossible_sizes_is_refused(capsys, tmp_path, body, said):
    path = tmp_path / "e.json"
    path.write_text(body)
    rc, _, err = run(capsys, "plan", "-n", "1e6", "-v", "100", "--efficiency-file", str(path))
    assert rc == 2 and said in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("lang, said", [
    ("en", "RUNS: got ''; allowed: a CSV / JSON-lines file of runs"),
    ("es", "RUNS: se recibió ''; se admite: un archivo CSV"),
])  # fmt: skip
def test_an_empty_runs_path_beside_points_is_refused(capsys, lang, said):
    """fit '' --point … fitted the points and ignored the empty path, exit 0."""
    rc, _, err = run(capsys, "fit", "--point", "1:100", "--point", "2:190", "", "--lang", lang)
    assert rc == 2 and said in err


def test_a_calibration_point_no_run_could_measure_is_refused(capsys, tmp_path):
    """1 KiB at 1e-300 GB/s (1e291 s a message) printed E = 3.6e-301 and a 300-digit all-reduce time, exit 0."""
    points = [{"bytes": 1024, "busbw_gbs": 1e-300}, {"bytes": 1 << 20, "busbw_gbs": 10.0}]
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"format": "dpscale-allreduce-calibration", "version": 1, "busbw_gbs": None,
                                "alpha_s": None, "points": points}))  # fmt: skip
    argv = ["predict", "--model", "resnet50", "--system", "dgx-a100", "--calibration", str(path), "-d", "1,8"]
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and "point bytes 1024, busbw_gbs 1e-300; allowed:" in err and "a minute a message" in err
    rc, _, err = run(capsys, *argv, "--lang", "es")
    assert rc == 2 and "como mucho un minuto por mensaje" in err


@pytest.mark.parametrize("argv", [
    ["predict", "--model", "resnet50", "--system", "dgx-a100", "-d", "8", "--gpu", "a" * 100_000],
    ["memory", "--model", "gpt2", "-d", "8", "--gpu", "a" * 100_000],
])  # fmt: skip
def test_a_huge_gpu_name_is_refused_quickly(capsys, argv):
    """The family pattern re-read every letter run from each of its letters: 100,000 'a's ran for minutes."""
    start = time.perf_counter()
    rc, _, err = run(capsys, *argv)
    # a hang guard, not a benchmark: the refusal takes milliseconds, the old pattern minutes
    assert rc == 2 and err.count("\n") == 1 and time.perf_counter() - start < 60
