"""How repeatable is measured E at d=2? Runs `dpscale measure --devices 1,2` several times and prints E(2).

Per run: E(2) from the medians, the per-repeat E range inside the run, and the launch overhead
(spawn → process group up, reported apart from the measured steps). The issue's goal is E(2)
within ±0.05 across runs on the 2-core CI machine; the last line says what this machine gave.

    python benchmarks/bench_measure_repeat.py [--runs 3] [--workload mlp] [--steps 30] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
from statistics import median

from timing import count


def main() -> None:
    from dpscale.sources.measure import results, threads_per_rank
    from dpscale.sources.measure.jobs import WORKLOADS, Job
    from dpscale.sources.measure.launcher import Launcher

    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])  # (no docstring under python -OO)
    p.add_argument("--runs", type=count(1), default=3)
    p.add_argument("--workload", default="mlp", choices=WORKLOADS)
    p.add_argument("--batch", type=count(1), default=64)
    p.add_argument("--steps", type=count(1), default=30)
    p.add_argument("--warmup", type=count(0), default=5)
    p.add_argument("--repeats", type=count(1), default=3)
    a = p.parse_args()
    job = Job(workload=a.workload, batch=a.batch, steps=a.steps, warmup=a.warmup, repeats=a.repeats)
    job = Job(**{**job.__dict__, "threads": threads_per_rank(2)})
    launcher = Launcher()
    es = []
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'run':>3}  {'E(2)':>6}  {'E(2) per repeat':>18}  {'launch d=1 s':>12}  {'launch d=2 s':>12}")
    for i in range(a.runs):
        out = [launcher.run(job, d) for d in (1, 2)]
        base = results.with_efficiency(results.summarise(out[0].result, job, out[0].launch_s), None)
        base = results.with_efficiency(base, base)
        two = results.with_efficiency(results.summarise(out[1].result, job, out[1].launch_s), base)
        es.append(two["efficiency"])
        rng = f"{two['efficiency_min']:.3f}..{two['efficiency_max']:.3f}"
        print(f"{i + 1:>3}  {two['efficiency']:>6.3f}  {rng:>18}  {out[0].launch_s:>12.2f}  {out[1].launch_s:>12.2f}")
    half = (max(es) - min(es)) / 2
    print(f"E(2) median {median(es):.3f}, range {min(es):.3f}..{max(es):.3f} (±{half:.3f}; goal ±0.05)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
