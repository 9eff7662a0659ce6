"""Review 44, reviewer D: the library from a notebook (inputs, outputs, hints)."""

from __future__ import annotations

import numpy as np
import pytest

import dpscale
from dpscale.errors import DpscaleError


def test_solving_for_devices_names_an_e_function_that_gives_no_efficiency():
    """solve(devices=None) searched through whatever the E(d) function gave: nan read 'throughput peaks at nan/s
    (speedup nan) with 1 devices', 0 beyond one device 'not reached within 10,000,000 devices', and None, text or
    two values for one size raised float()'s TypeError or ValueError from inside the search."""
    given = {"per_device_throughput": 2000, "actual_throughput": 115_200}
    with pytest.raises(DpscaleError, match=r"^efficiency: got nan; allowed: a scaling efficiency in \(0, 1\]"):
        dpscale.solve(efficiency=lambda d: float("nan"), **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got 0; allowed: .*\(E\(d\) at d = 2\)"):
        dpscale.solve(efficiency=lambda d: 1.0 if d == 1 else 0.0, **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got -0\.5; allowed: a scaling efficiency"):
        dpscale.solve(efficiency=lambda d: 1.0 if d == 1 else -0.5, **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got None"):
        dpscale.solve(efficiency=lambda d: None, **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got 'x'"):
        dpscale.solve(efficiency=lambda d: "x", **given)
    two = r"^efficiency: got \[0\.9 0\.8\]; allowed: one scaling efficiency in \(0, 1\] per size \(E\(d\) at d = 1\)"
    with pytest.raises(DpscaleError, match=two):  # (as scale says it: one rule, _one_at)
        dpscale.solve(efficiency=lambda d: np.array([0.9, 0.8]), **given)
    # a well-made function still solves: the worked example, 64 devices × 2,000/s × 0.9 = 115,200/s
    s = dpscale.solve(efficiency=lambda d: 1.0 if d == 1 else 0.9, **given)
    assert s.result.devices == 64 and s.exact == 64.0
    assert s.result.actual_throughput == 115_200.0 and s.result.speedup == 57.6


NOTEBOOK = """
import numpy as np
import dpscale

n, x = np.int64(8), np.float32(0.9)
dpscale.USL(x, 1e-5), dpscale.Amdahl(x), dpscale.Constant(x)
dpscale.predict([8], params=np.int64(100_000_000), throughput=x, system="dgx-a100", batch=n, zero=np.int64(1))
dpscale.fit([(1, 1000), (8, 7400), (16, 14000)], gpus_per_node=n, confidence=x, resamples=np.int64(200), seed=n)
dpscale.batch_plan(n, n, n, base_lr=x, base_batch=n, dataset_size=n, warmup_epochs=x, noise_scale=n, min_steps=n)
dpscale.bubble_fraction(n, n, "interleaved", np.int64(2))
dpscale.pipeline(n, n, "1f1b", devices=n)
dpscale.model_states(7e9, n, np.int64(1), tensor_parallel=np.int64(1))
dpscale.fit_all(n * 1_000_000_000, n, activation=x, device_memory_bytes=n * 10_000_000_000, tensor_parallel=n)
dpscale.plan(n * 1_000_000, n, x, [8], 0.9, price_per_device_hour=x, deadline_hours=n, budget=n, knee_threshold=x)
dpscale.parse_duration(x)
"""


@pytest.mark.slow  # a mypy process
def test_numpy_scalars_the_functions_take_pass_a_type_checker_too(tmp_path):
    """Every call below runs (numpy's int64 and float32 are numbers here, as the tests of session 25 say), yet
    `mypy --strict` refused 43 of its arguments: `batch_plan(np.int64(32))` — 'expected "int"', `USL(np.float32(0.01))`
    — 'expected "float"'. The hints now say what runs, as scale's and solve's (Any) do."""
    pytest.importorskip("mypy")
    import os
    import subprocess
    import sys
    from pathlib import Path

    exec(compile(NOTEBOOK, "notebook", "exec"), {})  # it runs
    script = tmp_path / "notebook.py"
    script.write_text(NOTEBOOK)
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "MYPYPATH": str(src)}
    args = ["--strict", "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache"), str(script)]
    done = subprocess.run([sys.executable, "-m", "mypy", *args], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_confidence_past_any_float_is_still_named():
    """(The hints' change kept fit's comparison of the level itself: float(10**400) would raise OverflowError.)"""
    with pytest.raises(DpscaleError, match=r"^confidence: got 1000.*; allowed: a level in \(0, 1\)"):
        dpscale.fit([(1, 1000), (2, 1950), (4, 3800)], confidence=10**400)
    level = dpscale.fit([(1, 1000), (2, 1950), (4, 3800)], confidence=np.float32(0.9), resamples=50).confidence
    assert type(level) is float and level == pytest.approx(0.9)


@pytest.mark.parametrize("law", [dpscale.USL(0.01, 1e-5), dpscale.Amdahl(0.01), dpscale.Constant(0.9)])
def test_a_time_is_no_device_count_for_a_law_or_a_seed_for_a_fit(law):
    """numpy's timedelta64 is an integer to numbers.Real: a law read at np.timedelta64(8, 's') raised "'<=' not
    supported between 'int' and 'datetime.timedelta'", and fit(seed=…) int()'s TypeError; scale already said it."""
    eight_seconds = np.timedelta64(8, "s")
    with pytest.raises(DpscaleError, match=r"^devices: got 8 seconds; allowed: a number, not a time or a date"):
        law.efficiency(eight_seconds)
    with pytest.raises(DpscaleError, match=r"^devices: got 8 seconds; allowed: a number, not a time or a date"):
        dpscale.scale(eight_seconds, 2000, 0.9)
    with pytest.raises(DpscaleError, match=r"^seed: got 8 seconds; allowed: a whole number from 0 to 4,294,967,295"):
        dpscale.fit([(1, 1000), (2, 1950), (4, 3800)], seed=eight_seconds)
    # a numpy integer is still a size: E(64) of the worked example's constant 0.9, 115,200 samples/s
    assert law.efficiency(np.int64(64)) == law.efficiency(64)
    assert dpscale.scale(np.int64(64), 2000, dpscale.Constant(0.9)).actual_throughput == 115_200.0


def test_help_says_what_predict_and_fit_return_and_each_name_it_gives_exists():
    """help(dpscale.predict) and help(dpscale.fit) named their inputs but not what comes back: a notebook had to
    read dir() of a Prediction or a Fit to find records() or devices_for(). Every name the 'Returns' line gives is
    there, and the result is an E source: the worked example's 64 devices × 2,000 samples/s read through it."""
    import re

    made = {
        "predict": dpscale.predict([1, 8, 64], model="resnet50", throughput=2000, system="dgx-a100"),
        "fit": dpscale.fit([(1, 1000), (8, 7400), (16, 14000)], resamples=50),
    }
    for name, result in made.items():
        doc = getattr(dpscale, name).__doc__
        said = doc[doc.index("Returns a ") :]
        assert said.startswith(f"Returns a {type(result).__name__}:")
        names = {n for n in re.findall(r"`(\w+)", said) if n not in ("scale", "solve", "plan", "devices")}
        assert names and all(hasattr(result, n) for n in names), names
    p = made["predict"]
    r = dpscale.scale(64, 2000, p)
    assert r.efficiency == pytest.approx(p.efficiency_values[-1]) and r.actual_throughput == pytest.approx(
        64 * 2000 * p.efficiency_values[-1]
    )
