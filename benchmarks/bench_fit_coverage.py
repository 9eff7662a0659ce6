"""Do `dpscale fit`'s 90 % prediction intervals hold a new run 90 % of the time? A simulation.

For each scenario (a true law, the measured sizes, the run-to-run noise) it draws data sets of noisy
throughputs, fits with the law chosen automatically, and asks for the interval at 2×, 4× and 16× the largest
measured size; a new run there (the true throughput times its own noise) should fall inside 90 % of the time.
It prints the share that did per scenario and extrapolation. With `--repeats R` each size is measured R times
(as `dpscale measure` does), and the fit is given every run.

    python benchmarks/bench_fit_coverage.py [--sets 150] [--repeats 1] [--seed 0] [--only TEXT] [--forced]

Two sizes (`--only "and 8"`, 150 sets), before and after the intervals spanned the split of two terms one point
cannot tell apart: auto, USL 1 % noise 0.82 / 0.50 / 0.21 → 0.99 / 1.00 / 1.00, all-reduce 1 % 0.95 / 0.72 / 0.31
→ 0.97 / 0.93 / 0.93, USL 3 % 0.69 / 0.56 / 0.46 → 0.86 / 0.94 / 0.96, all-reduce 3 % 0.72 / 0.60 / 0.45 → 0.74 /
0.75 / 0.75; forced (`--forced`), USL 3 % 0.75 / 0.65 / 0.63 → 0.95 / 0.96 / 0.97, all-reduce 3 % 0.83 / 0.81 /
0.73 → 0.82 / 0.86 / 0.89 (wider: the truth is one split of many). Session 34 (each resample keeps its own
baseline draw, which had been drawn twice): the default run's before and after are in docs/fit.md.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from timing import count

# (name, law, parameters, measured sizes, GPUs per node): parameters give a 10–40 % loss at the largest
# measured size, the range where users fit to plan the next cluster.
SCENARIOS = (
    ("USL, 1–8", "usl", (0.01, 0.002), (1, 2, 4, 8), None),
    ("USL, 8–64", "usl", (0.002, 0.00005), (8, 16, 32, 64), 8),
    ("Amdahl, 1–8", "amdahl", (0.02,), (1, 2, 4, 8), None),
    ("all-reduce, 1–8", "allreduce", (0.05, 0.002), (1, 2, 4, 8), None),
    ("all-reduce, 8 a node, 8–64", "allreduce", (0.1, 0.005), (8, 16, 32, 64), 8),
    # two sizes: one point above d0 for two terms, whose split the runs cannot see (the intervals span it)
    ("USL, 1 and 8", "usl", (0.01, 0.002), (1, 8), None),
    ("all-reduce, 1 and 8", "allreduce", (0.05, 0.002), (1, 8), None),
)
AHEAD = (2, 4, 16)


def levels(text: str) -> list[float]:
    """--noise: σs from 0 to 0.1 (σ = 1 drew runs whose E the fit refuses as a unit slip, in a traceback)."""
    try:
        out = [float(x) for x in text.split(",")]
    except ValueError:
        out = [-1.0]
    if not all(0 <= x <= 0.1 for x in out):
        raise argparse.ArgumentTypeError(f"got {text!r}; allowed: σs from 0 to 0.1, comma-separated (0.01,0.03)")
    return out


def weight(text: str) -> float:
    """--prior-weight: degrees of freedom, 0 or more (-1 ended in a math domain error)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"got {text!r}; allowed: a number of degrees of freedom, 0 or more")
    return value


def main() -> None:
    from dpscale.sources import fit as fitmod
    from dpscale.sources.fit_laws import LAWS, step_ratio

    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])  # (no docstring under python -OO)
    p.add_argument("--sets", type=count(1), default=150, help="data sets per scenario and noise level")
    p.add_argument("--repeats", type=count(1), default=1, help="runs at each measured size")
    p.add_argument("--noise", type=levels, default="0.01,0.03", help="run-to-run noise levels (σ of log throughput)")
    p.add_argument("--seed", type=count(0), default=0)
    p.add_argument("--only", help="scenarios whose name contains this text (e.g. 'and 8': the two-size ones)")
    p.add_argument("--forced", action="store_true", help="fit each scenario's own law (fit(law=…)), not auto")
    p.add_argument("--prior-weight", type=weight, help="the 1 %% noise prior's weight in degrees of freedom (default: "
                   "the shipped fit.NOISE_PRIOR_WEIGHT)")  # fmt: skip
    a = p.parse_args()
    if a.prior_weight is not None:
        fitmod.NOISE_PRIOR_WEIGHT = a.prior_weight
    rng = np.random.default_rng(a.seed)
    print(f"{a.sets} data sets a cell, {a.repeats} run(s) a size, prior weight {fitmod.NOISE_PRIOR_WEIGHT:g}; "
          f"share of new runs inside the 90 % interval at {' / '.join(f'{k}×' for k in AHEAD)} the largest size "
          "(median half-width in E)")  # fmt: skip
    t0 = time.perf_counter()
    for noise in a.noise:
        for name, law, params, sizes, g in SCENARIOS:
            if a.only and a.only not in name:
                continue
            d = np.array(sizes, dtype=float)
            ahead = np.array([k * sizes[-1] for k in AHEAD], dtype=float)
            basis = LAWS[law].basis
            v = 1000.0  # per-device throughput with no overhead
            x_true = v * d / step_ratio(np.array(params), basis(d, g))
            x_ahead = v * ahead / step_ratio(np.array(params), basis(ahead, g))
            inside, width = np.zeros(len(AHEAD)), []
            for _ in range(a.sets):
                dev = np.repeat(d, a.repeats)
                x = np.repeat(x_true, a.repeats) * np.exp(noise * rng.standard_normal(dev.size))
                f = fitmod.fit(devices=dev.astype(int).tolist(), throughput=x.tolist(), gpus_per_node=g,
                               resamples=1000, seed=int(rng.integers(2**31)),
                               law=law if a.forced else "auto")  # fmt: skip
                pr = f.predict(ahead)
                new = x_ahead * np.exp(noise * rng.standard_normal(ahead.size))
                inside += (pr.throughput_lo <= new) & (new <= pr.throughput_hi)
                width.append((pr.efficiency_hi - pr.efficiency_lo) / 2)
            shares = " / ".join(f"{s:.2f}" for s in inside / a.sets)
            widths = " / ".join(f"{w:.3f}" for w in np.median(width, axis=0))
            print(f"  {name:<28} {noise:.0%} noise: {shares}   ({widths})", flush=True)
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
