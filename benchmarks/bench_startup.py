"""Cold start of the calculator vs a bare interpreter, measured in one run (goal: median ≤ 5×; the companion
calculators beside it for comparison).

    python benchmarks/bench_startup.py [--runs 30]
Uses the `dpscale` console script next to this interpreter (the installed entry point). As a user's Python does,
the commands write and read bytecode caches (a warm-up run writes them) even where the environment sets
PYTHONDONTWRITEBYTECODE, as this project's machines do: there an editable install recompiles dpscale's sources
(~100 KB of messages in faces/i18n/ alone) on every run, 5.2–5.5× instead of 2.9–3.1× (session 13).
plan, memory, pipeline and batch (no numpy on their path either) run ~4.3× where calc runs ~3.0×: their frozen
result classes are dataclasses (dataclasses pulls inspect, ast, dis, tokenize and typing: ~11 ms). Review BH (session
47) replaced them with a hand-written frozen record class and measured 3.0–3.2×; declined — a metaclass writing
__init__ by exec to save ~11 ms on commands within their goal, and dataclasses.fields/asdict/replace lost for users.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

from timing import count, process


def wall(cmd: list[str]) -> float:
    t = time.perf_counter()
    process(cmd)  # as a user's Python runs it: bytecode caches written and read (timing.USER_ENV)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--runs", type=count(1), default=30)
    runs = ap.parse_args().runs
    exe = Path(sys.executable).with_name("dpscale")
    dpscale = str(exe) if exe.exists() else shutil.which("dpscale")
    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "dpscale calc ...": [dpscale, "calc", "--devices", "64", "--throughput", "2000", "--efficiency", "0.9"],
        "dpscale --help": [dpscale, "--help"],
        "dpscale (worked example)": [dpscale],
        # the companion calculators at one E: no numpy on their path either
        "dpscale plan ... -e 0.9": [dpscale, "plan", "-n", "1.28e6", "--epochs", "90", "-v", "2000", "-e", "0.9"],
        "dpscale plan ... --law usl": [dpscale, *"plan -n 1.28e6 -v 2000 --law usl --kappa 1e-4".split()],
        "dpscale memory ...": [dpscale, "memory", "--params", "7.5e9", "--devices", "64"],
        "dpscale pipeline ...": [dpscale, "pipeline", "--stages", "4", "--microbatches", "8"],
        "dpscale batch ...": [dpscale, *"batch -b 32 -d 256 --base-lr 0.1 --base-batch 256 --dataset-size 1e6".split()],
    }
    times: dict[str, list[float]] = {k: [] for k in cases}
    for cmd in cases.values():  # warm-up: writes the bytecode caches
        wall(cmd)
    for _ in range(runs):  # interleave so background noise hits every case alike
        for name, cmd in cases.items():
            times[name].append(wall(cmd))
    base = statistics.median(times["python -c pass"])
    print(f"{'case':<28}{'median ms':>10}{'ratio':>8}")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"{name:<28}{med * 1e3:>10.1f}{med / base:>8.2f}")
    print("goal: dpscale calc and --help median ≤ 5.00 × python -c pass")


if __name__ == "__main__":
    main()
