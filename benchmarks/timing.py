"""The one timer the benchmark scripts share: best of several repeats, measured in one run (a noisy machine's
slow repeats are its neighbours, not the code); and the check of their count arguments."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any


def best(fn: Callable[..., Any], *args: Any, repeats: int = 5) -> float:
    """The fastest of `repeats` calls of fn(*args), in seconds."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return min(times)


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
