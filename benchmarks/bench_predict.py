"""Predictor speed, measured in one run: a full curve for every d in 1..4,096 (goal ≤ 0.2 s),
`dpscale validate` on the dev set (goal ≤ 2 s, whole process, imports included) and `devices_for`'s search
(goal: about one curve at the sizes it searches).

    python benchmarks/bench_predict.py
In-process curves: the best of 5 calls in this process (warm). Whole processes: as a user's run, bytecode caches
written by a first run and read after (timing.USER_ENV), the best of 5.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from timing import best, best_each, process

from dpscale.sources.predict import SEARCH_CAP, predict

DEV = Path(__file__).resolve().parents[1] / "validation" / "published_scaling_dev.csv"


def main() -> None:
    argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0]).parse_args()  # --help, not the run
    d = np.arange(1, 4097)
    cases = {
        "resnet50, amp, dgx-a100": dict(
            model="resnet50", precision="amp", batch=256, throughput=2500, system="dgx-a100"
        ),
        "llama-7b, bf16, dgx-h100": dict(
            model="llama-7b", precision="bf16", batch=4, step_time_s=2.0, system="dgx-h100"
        ),
        "llama-70b, fp32 grads": dict(
            model="llama-70b", precision="fp32", batch=1, step_time_s=10.0, system="dgx-h100"
        ),
        "llama-70b, bf16, ZeRO-3": dict(
            model="llama-70b", precision="bf16", batch=1, step_time_s=10.0, system="dgx-h100", zero=3
        ),
    }
    for name, kw in cases.items():
        t = best(lambda kw=kw: predict(d, **kw).records())
        print(f"curve d = 1..4096 ({name:<26}) {t * 1e3:7.1f} ms   ratio to 0.2 s goal {t / 0.2:.2f}")
    # a fixed global batch (strong scaling): every size up to 4,096 that splits G = 2^12·3^4·5^2·7 whole, against the
    # weak curve at the same sizes (what per_size's per-d micro-batches cost)
    kw = cases["resnet50, amp, dgx-a100"]
    g = 2**12 * 3**4 * 5**2 * 7
    sizes = d[g % d == 0]
    weak = {k: v for k, v in kw.items() if k != "batch"}
    t = best(lambda: predict(sizes, global_batch=g, **weak).records())
    w = best(lambda: predict(sizes, **kw).records())
    print(
        f"strong curve, {sizes.size} sizes splitting G = {g:,}  {t * 1e3:7.1f} ms   ratio to 0.2 s goal "
        f"{t / 0.2:.2f}, to the weak curve there {t / w:.2f}"
    )
    # what vectorising across d buys, in the same run: 64 sizes one call each, scaled to 4,096
    some = d[:: len(d) // 64]
    loop = best(lambda: [predict([int(x)], **kw).records() for x in some], repeats=3) * len(d) / len(some)
    t = best(lambda: predict(d, **kw).records())
    print(f"one call per d, 4,096 calls (from 64)             {loop * 1e3:7.1f} ms   ratio to one curve {loop / t:.0f}")
    exe = Path(sys.executable).with_name("dpscale")
    # the same curve as a user gets it: the whole process, imports, notes and 4,096 JSON records included
    argv = [str(exe), "predict", "--model", "resnet50", "--precision", "amp", "--throughput", "2500", "--batch", "256",
            "--system", "dgx-a100", "-d", "1..4096", "--json"]  # fmt: skip
    process(argv)  # writes the bytecode caches a user's first run writes
    t = best(lambda: process(argv))
    print(f"dpscale predict -d 1..4096 --json (whole process)  {t * 1e3:7.1f} ms   ratio to 0.2 s goal {t / 0.2:.2f}")
    floor = best(lambda: process([sys.executable, "-c", "import numpy"]))
    print(f"  its floor, an interpreter importing numpy         {floor * 1e3:7.1f} ms   ratio to it {t / floor:.2f}")
    argv = [str(exe), "validate", str(DEV), "--json"]
    process(argv)
    t = best(lambda: process(argv))  # (it was timed once: one run of a loaded machine's, and no caches written)
    print(f"dpscale validate (dev set, whole process)        {t * 1e3:7.1f} ms   ratio to 2 s goal {t / 2:.2f}")
    # devices_for's whole search (E never below 1 % on 8-GPU nodes: no early answer) against the curve E(d) at the
    # sizes it searches, 1..8 and whole nodes to 2^20: its cost is that one curve's
    p = predict([1], **cases["llama-7b, bf16, dgx-h100"])
    sizes = np.concatenate([np.arange(1, 9), np.arange(16, SEARCH_CAP + 1, 8)])
    t, curve = best_each([lambda: p.devices_for(efficiency=0.01), lambda: p.efficiency(sizes)], repeats=3)
    print(f"devices_for, {sizes.size:,} sizes (llama-7b, dgx-h100)  {t * 1e3:7.1f} ms   ratio to E(d) {t / curve:.2f}")


if __name__ == "__main__":
    main()
