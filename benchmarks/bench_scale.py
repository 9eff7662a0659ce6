"""`dpscale.scale` over 10^7 device counts vs the bare numpy expression (goal: ≤ 1.5×).

    python benchmarks/bench_scale.py
Both compute the same arrays (ideal, actual, speedup, lost); scale adds input checks and
read-only flags. A constant E holds from two devices on (E(1) = 1, one device is its own reference), so
the bare side builds that E array too (np.where) — the same result, as the comparison needs.
Best of 7 repeats a side, the two sides' repeats interleaved, measured in one run.
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import best_each

import dpscale

N = 10_000_000


def bare(d, v, e):
    if np.ndim(e) == 0:  # what a constant E means: E(1) = 1
        e = np.where(d == 1, 1.0, e)
    ideal = d * v
    actual = ideal * e
    speedup = d * e
    lost = ideal - actual
    return ideal, actual, speedup, lost


def main() -> None:
    argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0]).parse_args()  # --help, not the run
    d = np.arange(1, N + 1)
    e_const = 0.9
    e_arr = dpscale.USL(1e-4, 1e-9).efficiency(d)
    for label, e in (("constant E", e_const), ("E array (USL)", e_arr)):
        # interleaved: timed one side after the other, a load that came or went between read 0.96–1.71 (review HQ)
        t_bare, t_api = best_each([lambda e=e: bare(d, 2000.0, e), lambda e=e: dpscale.scale(d, 2000.0, e)], 7)
        print(f"{label:<15} bare {t_bare * 1e3:7.1f} ms   scale {t_api * 1e3:7.1f} ms   ratio {t_api / t_bare:.2f}")
    print("goal: ratio ≤ 1.50")


if __name__ == "__main__":
    main()
