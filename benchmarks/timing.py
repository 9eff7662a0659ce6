"""The one timer the benchmark scripts share: best of several repeats, measured in one run (a noisy machine's
slow repeats are its neighbours, not the code)."""

from __future__ import annotations

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
