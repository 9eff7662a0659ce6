"""The one timer the benchmark scripts share: best of several repeats, measured in one run (a noisy machine's
slow repeats are its neighbours, not the code); the environment a timed command runs in; and the check of their
count arguments."""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from collections.abc import Callable
from typing import Any

# A timed command runs as a user's Python does: writing and reading bytecode caches, even where the environment sets
# PYTHONDONTWRITEBYTECODE, as this project's machines do. There an editable install recompiles every dpscale module
# the command imports on every run: `dpscale validate` on the dev set, best of 7, took 426 ms against 254 with its
# caches (499 against 401 under a heavier load; `predict -d 1..4096` 619 against 458, `calc` 129 against 51). Review
# HQ: bench_startup had dropped it since session 13; bench_predict's and bench_fit's processes had not.
USER_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def process(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess:
    """Run cmd as a user would (USER_ENV), its output discarded unless kw says otherwise; a failure raises."""
    return subprocess.run(
        cmd, check=True, env=USER_ENV, **{"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, **kw}
    )


def best(fn: Callable[..., Any], *args: Any, repeats: int = 5) -> float:
    """The fastest of `repeats` calls of fn(*args), in seconds."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return min(times)


def best_each(fns: list[Callable[[], Any]], repeats: int = 5) -> list[float]:
    """The fastest of `repeats` calls of each fn, the calls interleaved round by round (the order turned each round),
    so a shared machine's load falls on every side of a ratio alike: bench_scale timed all of one side, then all of
    the other, and read 0.96–1.71 for the same code as the load moved (review HQ)."""
    times: list[list[float]] = [[] for _ in fns]
    for r in range(repeats):
        order = list(range(len(fns)))[:: -1 if r % 2 else 1]
        for i in order:
            t = time.perf_counter()
            fns[i]()
            times[i].append(time.perf_counter() - t)
    return [min(ts) for ts in times]


def count(low: int = 1) -> Callable[[str], int]:
    """An argparse type: a whole number ≥ low, refused in argparse's error line and exit 2 (--runs 0 ended in a
    traceback after the runs, --devices 0 in a wait for ranks that never start)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError(f"got {text!r}; allowed: a whole number from {low}")
        return value

    return parse
