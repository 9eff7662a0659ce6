"""dpscale — what throughput and speedup do d data-parallel devices really give, and why.

    >>> import dpscale
    >>> r = dpscale.scale(64, 2000, 0.9)
    >>> r.actual_throughput, r.speedup
    (115200.0, 57.6)

Heavier capabilities (predict, fit, measure) are imported on first use, so that
`import dpscale` stays as light as the calculator.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from dpscale.errors import DpscaleError
from dpscale.formulas.scaling import ScaleResult, Solution, scale, solve
from dpscale.sources.laws import USL, Amdahl, Constant, PerSize

__version__ = "0.1.0"

# name -> module that defines it; loaded on first attribute access.
_LAZY = {
    "predict": "dpscale.sources.predict",
    "fit": "dpscale.sources.fit",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'dpscale' has no attribute {name!r}")


__all__ = [
    "USL",
    "Amdahl",
    "Constant",
    "DpscaleError",
    "PerSize",
    "ScaleResult",
    "Solution",
    "scale",
    "solve",
    "__version__",
]
