"""Session 46's lognormal-barrier form, its decoy and a control, scored again: an experiment, never shipped.

    python validation/experiments/lognormal_barrier.py [--holdouts] [--cv]

What it tests. The shipped barrier wait is m(d)·s: Blom's expected maximum of d standard normals times the spread
s = c_c·compute + c_h·min(G, G_max)/HBM (dpscale.formulas.stepmodel). The form (session 46) says a step cannot be
shorter than its work but can stall: each device's step is lognormal with mean = compute and standard deviation = s
(σ² = ln(1 + (s/compute)²)), and the barrier waits for the exact expected maximum of d such steps, by quadrature:
wait = compute·(E[exp(σ·Z_(d))]·e^(−σ²/2) − 1), Z_(d) the largest of d standard normals. No new constant; found at
(c_c, c_h) = (0.03, 20) in sample.
- decoy: each configuration's skew σ taken from another configuration's (random.Random(46).shuffle of the
  configurations' s/compute at (0.025, 25), from their measured baselines), the row's own s kept:
  wait = s·(E[exp(σ'·Z_(d))]·e^(−σ'²/2) − 1)/√(e^(σ'²) − 1); (0.025, 25).
- control (not a form): the exact E[Z_(d)] in place of Blom's m(d), no skew; (0.025, 25).

The rules. Session 46 (`--cv`, validation/calibrate.py's 13 × 13 grid, objective and folds, every constant re-fitted
in every fold): the form passes only if both its leave-family-out and leave-system-out medians beat the shipped
model's and neither p90 is worse; it did, but its decoy did as well, so nothing shipped. Session 48 (`--holdouts`,
pre-registered on validation/holdout_more6.csv, tables no file had used): confirmed only if there BOTH its median and
its p90 |E error| are lower than the shipped model's, with the constants as found. Not confirmed: 0.062 (p90 0.152)
against 0.050 (0.131). The figures and their reading are in docs/predict_report.md, "What was tried and dropped".

Nothing in src/ changes: the forms replace stepmodel._sync_wait inside `barrier_wait` only, and it is restored after.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from scipy.special import ndtr

from dpscale.formulas import stepmodel
from dpscale.formulas.stepmodel import DEFAULT, Calibration
from dpscale.sources.predict_validate import gpu_terms, grad_bytes_per_param, predict_config, row_gpu

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("calibrate", HERE.parent / "calibrate.py")
assert _spec is not None and _spec.loader is not None
calibrate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(calibrate)  # the calibration's loader, grid, objective and folds, not a copy of them

FORMS = ("shipped", "form", "decoy", "control")
CONSTANTS = {"form": (0.03, 20.0), "decoy": (0.025, 25.0), "control": (0.025, 25.0)}  # as session 46 found them
NEW = "holdout_more6.csv"  # session 48's pre-registered set

# Z_(d)'s density on a grid, for the quadrature: d·φ(z)·Φ(z)^(d−1)·dz
_Z = np.linspace(-9.0, 9.0, 3001)
_PHI = np.exp(-(_Z**2) / 2) / np.sqrt(2 * np.pi) * (_Z[1] - _Z[0])
_CDF = ndtr(_Z)
_DENSITY: dict[int, np.ndarray] = {}


def _max_density(d: int) -> np.ndarray:
    if d not in _DENSITY:
        _DENSITY[d] = d * _PHI * _CDF ** (d - 1)
    return _DENSITY[d]


def lognormal_max(sigma: np.ndarray, d: np.ndarray) -> np.ndarray:
    """E[max of d lognormal steps of mean 1 and shape σ] − 1 = E[exp(σ·Z_(d))]·e^(−σ²/2) − 1 (0 at d = 1)."""
    out = np.zeros(d.shape)
    for n in np.unique(d[d > 1]):
        at = d == n
        out[at] = np.exp(np.outer(sigma[at], _Z)) @ _max_density(int(n)) * np.exp(-(sigma[at] ** 2) / 2) - 1
    return out


def normal_max(d: np.ndarray) -> np.ndarray:
    """The exact E[Z_(d)] (Blom's m(d) approximates it; 0 at d = 1)."""
    return np.array([_Z @ _max_density(int(n)) if n > 1 else 0.0 for n in d])


_SHIPPED_WAIT = stepmodel._sync_wait
_M2 = float(stepmodel.expected_max(2)[0])


def spread(compute: Any, grad_bytes: float, hbm_tbs: float, cal: Calibration) -> np.ndarray:
    """The shipped spread s, read off the shipped wait at d = 2 (m(2)·s), so that its formula stays in one place."""
    two = np.full(np.shape(compute) or (1,), 2.0)
    return np.asarray(_SHIPPED_WAIT(two, compute, grad_bytes, hbm_tbs, cal)) / _M2


class Skew:
    """The decoy's input: the s/compute that stands in for the configuration being predicted."""

    ratio: float = 0.0


@contextlib.contextmanager
def barrier_wait(form: str) -> Iterator[Skew]:
    """Replace the step model's barrier wait (stepmodel._sync_wait) by `form`'s for the block; restored after.
    Yields the decoy's Skew: set its ratio before each configuration is predicted."""
    skew = Skew()

    def wait(d: np.ndarray, compute: Any, grad_bytes: float, hbm_tbs: float, cal: Calibration) -> np.ndarray:
        d = np.atleast_1d(d)
        c = np.broadcast_to(np.asarray(compute, dtype=float), d.shape)
        s = np.broadcast_to(spread(compute, grad_bytes, hbm_tbs, cal), d.shape)
        out = np.zeros(d.shape)
        on = (d > 1) & (s > 0) & (c > 0)  # one device, no spread or no compute: no wait
        if form == "form":
            out[on] = c[on] * lognormal_max(np.sqrt(np.log1p((s[on] / c[on]) ** 2)), d[on])
        elif form == "decoy":
            sigma = np.full(int(on.sum()), np.sqrt(np.log1p(skew.ratio**2)))
            out[on] = s[on] * lognormal_max(sigma, d[on]) / np.sqrt(np.expm1(sigma**2))
        else:  # control
            out[on] = s[on] * normal_max(d[on])
        return out

    stepmodel._sync_wait = wait
    try:
        yield skew
    finally:
        stepmodel._sync_wait = _SHIPPED_WAIT


def decoy_skews(configs: list) -> dict[str, float]:
    """Session 46's decoy: each configuration's s/compute at (0.025, 25), from its measured baseline step, handed to
    another configuration by a fixed shuffle (seed 46) of the configurations given."""
    cal = DEFAULT._replace(compute_jitter=0.025, sync_hbm_passes=25.0)
    ratios = []
    for c in configs:
        b = c.baseline
        compute = c.step_time() / b.grad_accum
        grad_bytes = b.params_millions * 1e6 * grad_bytes_per_param(b.precision, b.framework)
        ratios.append(float(spread(compute, grad_bytes, gpu_terms(DEFAULT, row_gpu(b))[1], cal)[0]) / compute)
    random.Random(46).shuffle(ratios)
    return {c.cfg: r for c, r in zip(configs, ratios)}


def _each(configs: list, form: str, predict: Callable[[Any], Any]) -> dict[str, Any]:
    """predict(c) for every configuration under `form`'s wait (the decoy's skew set for each)."""
    if form == "shipped":
        return {c.cfg: predict(c) for c in configs}
    skews = decoy_skews(configs) if form == "decoy" else {}
    out = {}
    with barrier_wait(form) as skew:
        for c in configs:
            skew.ratio = skews.get(c.cfg, 0.0)
            out[c.cfg] = predict(c)
    return out


def holdout_scores(files: list[Path], form: str) -> tuple[float, float, int]:
    """Median and p90 of |E error| over the files' predictable configurations, pooled, with the form's constants
    (the decoy's shuffle runs over the configurations scored), and the number of points."""
    c_c, c_h = CONSTANTS.get(form, (DEFAULT.compute_jitter, DEFAULT.sync_hbm_passes))
    cal = DEFAULT._replace(compute_jitter=c_c, sync_hbm_passes=c_h)
    per = _each(calibrate.load(files), form, lambda c: [abs(p - m) for _, m, p in predict_config(c, cal)])
    e = np.concatenate([np.asarray(v, dtype=float) for v in per.values()])
    return float(np.median(e)), float(np.percentile(e, 90)), e.size


def holdouts() -> dict[str, dict[str, tuple[float, float, int]]]:
    """Session 48's test: every form on holdout_more6.csv, on the hold-outs pooled, and on the first nine pooled
    (session 46's hold-out check, before holdout_more6.csv existed)."""
    sets = {
        NEW: [f for f in calibrate.POOLED if f.name == NEW],
        "pooled": list(calibrate.POOLED),  # the ten of session 48
        "first nine": [f for f in calibrate.POOLED if f.name != NEW],
    }
    return {name: {form: holdout_scores(files, form) for form in FORMS} for name, files in sets.items()}


def cross_validated(form: str) -> dict[str, Any]:
    """Session 46's figures: the in-sample optimum on the calibration files, and leave-one-family-out and
    leave-one-system-out errors with both constants re-fitted in every fold (calibrate.py's harness)."""
    configs = calibrate.load([calibrate.DEV, *calibrate.EXTERNAL])
    res = _each(configs, form, lambda c: calibrate.residuals([c])[c.cfg])  # (grid point, row) per configuration
    every = [c.cfg for c in configs]

    def scores(e: np.ndarray) -> tuple[float, float]:
        return float(np.median(np.abs(e))), float(np.percentile(np.abs(e), 90))

    i = calibrate.best(res, every)
    out: dict[str, Any] = {"refit": tuple(float(x) for x in calibrate.GRID[i])}
    out["in-sample"] = scores(np.concatenate([res[x][i] for x in every]))
    for label, key in (("leave-family-out", calibrate.family), ("leave-system-out", lambda c: c.baseline.system)):
        held, _ = calibrate.held_out(configs, res, key)
        out[label] = scores(np.concatenate([held[x] for x in every]))
    return out


def main(argv: list[str] | None = None) -> None:
    cli = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    cli.add_argument("--holdouts", action="store_true", help="session 48's hold-out scores (the default; seconds)")
    cli.add_argument("--cv", action="store_true", help="session 46's cross-validated figures (minutes)")
    args = cli.parse_args(argv)
    t = time.time()
    if args.holdouts or not args.cv:
        for name, scored in holdouts().items():
            n = scored["shipped"][2]
            label = {"pooled": f"the {len(calibrate.POOLED)} hold-outs pooled", "first nine": "the first nine pooled"}
            print(f"{label.get(name, name)}, {n} points: median |E error| (p90)")
            for form, (median, p90, _) in scored.items():
                print(f"  {form:8s} {median:.4f} ({p90:.4f})  {CONSTANTS.get(form, 'stepmodel.DEFAULT')}")
            if name == NEW:  # session 48's rule: both lower, unrounded
                better = all(a < b for a, b in zip(scored["form"][:2], scored["shipped"][:2]))
                print(f"  the form beats the shipped model on both: {better} ({'' if better else 'not '}confirmed)")
    if args.cv:
        print("calibration files: in-sample / leave-family-out / leave-system-out median (p90); refit (c_c, c_h)")
        for form in FORMS:
            r = cross_validated(form)
            cols = " / ".join(f"{r[k][0]:.4f} ({r[k][1]:.4f})" for k in ("in-sample", "leave-family-out",
                                                                         "leave-system-out"))  # fmt: skip
            print(f"  {form:8s} {cols}; refit {r['refit']}")
    print(f"({time.time() - t:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
