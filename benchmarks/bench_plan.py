"""`dpscale.plan` over 100,000 sizes with a fitted E(d) (session 20: the fuzz found `plan -d 1..100000+1 --fit`
took 17–19 s, near the 20 s a command may take; plan called scale() once per size, and the fit's E(d) with it).

    python benchmarks/bench_plan.py
Prints plan()'s time against one scale() call over the same sizes and source (the E evaluation both share), in
one run; plan's own per-size work (hours, cost, marginal speed-up, its records) is the difference.
"""

from __future__ import annotations

import argparse

from timing import best

import dpscale

SIZES = list(range(1, 100_001))


def main() -> None:
    argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0]).parse_args()  # --help, not the run
    fit = dpscale.fit([(1, 1000.0), (2, 1960.0), (4, 3800.0), (8, 7300.0)])
    for name, source in (("constant E 0.9", 0.9), ("fitted E(d)", fit)):
        t_scale = best(lambda e=source: dpscale.scale(SIZES, 1000.0, e), repeats=3)
        t_plan = best(lambda e=source: dpscale.plan(1.28e6, 90, 1000.0, SIZES, efficiency=e), repeats=3)
        print(f"{name:<15} scale {t_scale * 1e3:8.1f} ms   plan {t_plan * 1e3:8.1f} ms   ratio {t_plan / t_scale:6.1f}")
    print(f"goal: a plan of {len(SIZES):,} sizes well inside the 20 s a command may take (it took 17–19 s)")


if __name__ == "__main__":
    main()
