"""dpscale — what throughput and speedup do d data-parallel devices really give, and why.

    >>> import dpscale
    >>> r = dpscale.scale(64, 2000, 0.9)
    >>> r.actual_throughput, r.speedup
    (115200.0, 57.6)

Names are loaded on first use (PEP 562), so `import dpscale` and the CLI start fast and
heavier capabilities (predict, fit) cost nothing until called. Measuring runs real DDP processes, so it
is a command (`dpscale measure`, or torchrun with `python -m dpscale.sources.measure.worker`); its JSON
records feed `fit` and `plan --efficiency-file`.
"""

from __future__ import annotations

from importlib import import_module

__version__ = "0.1.0"

# name -> module that defines it
_EXPORTS = {
    "DpscaleError": "dpscale.errors",
    "scale": "dpscale.formulas.scaling",
    "solve": "dpscale.formulas.solve",
    "ScaleResult": "dpscale.formulas.scaling",
    "Solution": "dpscale.formulas.solve",
    # what the functions return, for annotations (`def report(p: dpscale.Prediction)`)
    "Prediction": "dpscale.sources.predict",
    "Fit": "dpscale.sources.fit",
    "FitPrediction": "dpscale.sources.fit",
    "Plan": "dpscale.formulas.plan",
    "BatchPlan": "dpscale.formulas.batch",
    "CriticalBatch": "dpscale.formulas.batch",
    "PipelineResult": "dpscale.formulas.pipeline",
    "ModelStates": "dpscale.formulas.memory",
    "MemoryFit": "dpscale.formulas.memory",
    "Advice": "dpscale.formulas.memory",
    "Constant": "dpscale.sources.laws",
    "PerSize": "dpscale.sources.laws",
    "Amdahl": "dpscale.sources.laws",
    "USL": "dpscale.sources.laws",
    "predict": "dpscale.sources.predict",
    "fit": "dpscale.sources.fit",
    "validate": "dpscale.sources.validate",
    # companion calculators
    "batch_plan": "dpscale.formulas.batch",
    "scaled_lr": "dpscale.formulas.batch",
    "critical_batch": "dpscale.formulas.batch",
    "time_to_target_speedup": "dpscale.formulas.batch",
    "bubble_fraction": "dpscale.formulas.pipeline",
    "pipeline": "dpscale.formulas.pipeline",
    "model_states": "dpscale.formulas.memory",
    "fit_all": "dpscale.formulas.memory",
    "least_sharded": "dpscale.formulas.memory",
    "fit_advice": "dpscale.formulas.memory",
    "plan": "dpscale.formulas.plan",
    "parse_duration": "dpscale.formulas.plan",
}

TYPE_CHECKING = False
if TYPE_CHECKING:  # for type checkers and IDEs
    from dpscale.errors import DpscaleError
    from dpscale.formulas.batch import (
        BatchPlan,
        CriticalBatch,
        batch_plan,
        critical_batch,
        scaled_lr,
        time_to_target_speedup,
    )
    from dpscale.formulas.memory import (
        Advice,
        MemoryFit,
        ModelStates,
        fit_advice,
        fit_all,
        least_sharded,
        model_states,
    )
    from dpscale.formulas.pipeline import PipelineResult, bubble_fraction, pipeline
    from dpscale.formulas.plan import Plan, parse_duration, plan
    from dpscale.formulas.scaling import ScaleResult, scale
    from dpscale.formulas.solve import Solution, solve
    from dpscale.sources.fit import Fit, FitPrediction, fit
    from dpscale.sources.laws import USL, Amdahl, Constant, PerSize
    from dpscale.sources.predict import Prediction, predict
    from dpscale.sources.validate import validate


if not TYPE_CHECKING:  # (hidden from type checkers, which read a name not imported above through it as Any)

    def __getattr__(name: str):
        if name in _EXPORTS:
            value = getattr(import_module(_EXPORTS[name]), name)
            globals()[name] = value
            return value
        raise AttributeError(f"module 'dpscale' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (loaded or not) and the module's dunders, each once: not this file's own helpers."""
    return sorted({*_EXPORTS, *(n for n in globals() if n.startswith("__"))})


__all__ = [
    "USL",
    "Amdahl",
    "Constant",
    "DpscaleError",
    "PerSize",
    "ScaleResult",
    "Solution",
    "Prediction",
    "Fit",
    "FitPrediction",
    "Plan",
    "BatchPlan",
    "CriticalBatch",
    "PipelineResult",
    "ModelStates",
    "MemoryFit",
    "Advice",
    "scale",
    "solve",
    "predict",
    "fit",
    "validate",
    "batch_plan",
    "scaled_lr",
    "critical_batch",
    "time_to_target_speedup",
    "bubble_fraction",
    "pipeline",
    "model_states",
    "fit_all",
    "least_sharded",
    "fit_advice",
    "plan",
    "parse_duration",
]
