"""The code stays ruff-clean (lint rules and formatting, pyproject's [tool.ruff]) and mypy-clean ([tool.mypy])."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is in the test extra")
@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]])
def test_ruff(args):
    done = subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is in the test extra")
@pytest.mark.parametrize("python", [None, "3.13"], ids=["this-python", "py3.13"])
def test_mypy(python):
    """The hints say what runs: 108 errors were cleared in session 19, and a new one fails here, not in review.
    Typeshed types some of the standard library by version, so the hints are checked against this interpreter's
    stubs and against Python 3.13's too (CI runs 3.11): argparse's _parse_optional, typed as 3.11's tuple, gave 4
    errors under `python3.12 -m mypy` that no 3.11 run showed (review GY; about 13 s on one core)."""
    version = ["--python-version", python] if python else []
    done = subprocess.run([sys.executable, "-m", "mypy", *version], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


# A typed user's script (`mypy --strict` against the installed package, which ships py.typed): what each call returns
# as mypy reads it. One number in gives floats, a sweep (a list, a range, an array) arrays (TYPED_SWEEPS below).
TYPED_USER = """
from typing import assert_type

import dpscale
from dpscale.notes import Note  # a str that keeps its message key

s = dpscale.solve(devices=64, per_device_throughput=2000, actual_throughput=115200)
assert_type(s, dpscale.Solution)
assert_type(s.solved, str)
assert_type(s.result, dpscale.ScaleResult)
assert_type(s.notes, tuple[Note, ...])
"""


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is in the test extra")
def test_a_typed_user_reads_a_solution_s_fields_as_their_types(tmp_path):
    """Solution was a bare namedtuple, so under `mypy --strict` `def what() -> str: return solve(...).solved` failed
    'Returning Any from function declared to return "str"', and `solve(...).result.` offered no field of ScaleResult:
    solved (always one of the input names), result (always a ScaleResult) and notes (a tuple of notes) read as Any
    (review LB)."""
    _strict_passes(tmp_path, TYPED_USER)


def _strict_passes(tmp_path: Path, user: str) -> None:
    script = tmp_path / "user.py"
    script.write_text(user)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", *cache, str(script)], cwd=tmp_path,
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


# The nine returns review LB found Any (a typed user's `def f() -> float: return …` failed 'Returning Any'), as
# numbers and as sweeps; results annotated bare, and a call given Any (argparse's values), as before
TYPED_SWEEPS = """
from typing import Any, assert_type

import numpy as np
from numpy.typing import NDArray

import dpscale
from dpscale import CriticalBatch

F = NDArray[np.float64]
r = dpscale.scale(64, 2000, 0.9)
assert_type(r, dpscale.ScaleResult[float])
assert_type(r.actual_throughput, float)
assert_type(r.speedup, float)
assert_type(dpscale.scale(64, 2000, dpscale.USL(0.01, 1e-4)).actual_throughput, float)
assert_type(dpscale.scale(range(1, 65), 2000, 0.9).actual_throughput, NDArray[Any])
assert_type(dpscale.scale([1, 8], 2000, dpscale.Amdahl(0.05)).speedup, NDArray[Any])
assert_type(dpscale.scaled_lr(0.1, 256, 8192), float)
assert_type(dpscale.scaled_lr(0.1, 256, [512, 8192]), F)
assert_type(dpscale.time_to_target_speedup(64, 32, 4096, 0.9), float)
assert_type(dpscale.time_to_target_speedup(np.arange(1, 65), 32, 4096, dpscale.USL(0.01, 1e-4)), F)
for law in (dpscale.USL(0.01, 1e-4), dpscale.Amdahl(0.05), dpscale.Constant(0.9), dpscale.PerSize({8: 0.9})):
    assert_type(law.efficiency(8), float)
    assert_type(law.efficiency(np.int64(8)), float)
    assert_type(law.efficiency([8]), F)
c = dpscale.critical_batch(8192, 4096)
assert_type(c, CriticalBatch[float])
assert_type(c.steps_factor, float)
assert_type(dpscale.critical_batch([1024, 8192], 4096, 1000).samples_factor, NDArray[Any])
m = dpscale.model_states(7.5e9, 64, 1)
assert_type(m.total, float)
assert_type(m.optimizer_bytes, float)
assert_type(dpscale.model_states(7.5e9, [8, 64], 1).total, NDArray[Any])
f = dpscale.fit([(1, 1000), (8, 7600), (16, 14800), (32, 28400)])
assert_type(f.efficiency(64), float)
assert_type(f.efficiency(range(1, 9)), F)
assert_type(f.predict([64, 128]).efficiency, F)
assert_type(f.predict(64).throughput_hi, F)


def predicted(p: dpscale.Prediction) -> tuple[float, F]:
    return p.efficiency(64), p.efficiency([8, 64])


def said(r: dpscale.ScaleResult, c: CriticalBatch, m: dpscale.ModelStates) -> None:
    print(r.speedup, c.steps, m.total)  # bare names: the fields as unknown as before, no 'Missing type parameters'


def given(d: Any) -> None:
    said(dpscale.scale(d, 2000, 0.9), dpscale.critical_batch(d, 4096), dpscale.model_states(d, 8))
"""


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is in the test extra")
def test_a_misspelt_name_of_dpscale_is_an_error_to_a_type_checker(tmp_path):
    """dpscale's lazy __getattr__ (PEP 562) was seen by mypy, which read every name the package does not import under
    TYPE_CHECKING through it, as Any: `dpscale.scael(64, 2000, 0.9)` passed --strict and failed at run time, and
    `dpscale.CriticalBatch`, which critical_batch returns, was Any in an annotation (review LG)."""
    script = tmp_path / "user.py"
    script.write_text("import dpscale\n\nr = dpscale.scael(64, 2000, 0.9)\nc: dpscale.CriticalBatch[float]\n")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"),
                           str(script)], cwd=tmp_path, capture_output=True, text=True)  # fmt: skip
    assert done.stdout.splitlines() == [
        'user.py:3: error: Module has no attribute "scael"; maybe "scale"?  [attr-defined]',
        "Found 1 error in 1 file (checked 1 source file)",
    ]


# Sizes that run but are neither one number nor a flat sweep: a grid (nested lists, 2-D out) and anything numpy reads
# (a torch tensor, a pandas Series): scale takes them (read Any); the E sources' efficiency(d) must too
GRID_OF_SIZES = """
import dpscale

grid = [[1, 2], [4, 8]]
f = dpscale.fit([(1, 1000), (8, 7600), (16, 14800), (32, 28400)])
for law in (dpscale.USL(0.01, 1e-4), dpscale.Amdahl(0.05), dpscale.Constant(0.9), f):
    print(law.efficiency(grid), law.efficiency(((1, 2), (4, 8))))


def predicted(p: dpscale.Prediction) -> None:
    print(p.efficiency(grid), dpscale.PerSize({8: 0.9}).efficiency([[1], [8]]))
"""


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is in the test extra")
def test_a_grid_of_sizes_given_to_an_e_source_passes_a_type_checker(tmp_path):
    """`dpscale.USL(0.01, 1e-4).efficiency([[1, 2], [4, 8]])` returns a 2×2 array, and a torch tensor of sizes an
    array, but under `mypy --strict` it failed 'List item 0 has incompatible type "list[int]"' (and 'No overload
    variant of "efficiency" of "USL" matches argument type "Tensor"'): review LG gave the laws', a Fit's and a
    Prediction's efficiency(d) a number's and a flat sweep's overloads and no fallback, as scale, scaled_lr and the
    rest have (read Any), so what passed --strict before LG no longer did (review LK)."""
    import numpy as np

    import dpscale

    e = dpscale.USL(0.01, 1e-4).efficiency([[1, 2], [4, 8]])
    assert np.round(e, 4).tolist() == [[1.0, 0.9899], [0.9697, 0.9297]]
    _strict_passes(tmp_path, GRID_OF_SIZES)


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is in the test extra")
def test_a_typed_user_reads_floats_for_numbers_and_arrays_for_sweeps(tmp_path):
    """Sizes, batches and rates were annotated Any (numbers, lists, ranges and arrays all run), so under `mypy
    --strict` `def f() -> float: return dpscale.scale(64, 2000, 0.9).actual_throughput` failed 'Returning Any from
    function declared to return "float"', as scaled_lr, time_to_target_speedup, the laws', a Prediction's and a
    Fit's efficiency(d), CriticalBatch's and ModelStates' fields and FitPrediction's arrays did: 9 errors from the
    script of review LB (review LG)."""
    _strict_passes(tmp_path, TYPED_SWEEPS)
