"""`dpscale validate --mode fit`: how well does a fit on the smaller sizes predict the largest?

For every configuration with at least 4 distinct device counts, fit (law chosen as `dpscale fit`
would, knowing the configuration's GPUs per node) on all sizes but the largest and predict E at
the largest; E is relative to the smallest size, as the fit's is — which is the configuration's baseline
whenever the CSV follows its README (the baseline is the smallest size).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from dpscale.formulas.scaling import relative_efficiency
from dpscale.sources.dataset import Config
from dpscale.sources.fit import fit
from dpscale.sources.fit_runs import DEFAULT_CONFIDENCE
from dpscale.sources.predict_validate import summary

MIN_SIZES = 4


CONFIDENCE = DEFAULT_CONFIDENCE  # `dpscale fit`'s default level, and its default resamples below


def validate_fit(configs: Sequence[Config]) -> dict[str, Any]:
    """{"mode","points","configs","median_abs_error","p90_abs_error","max_abs_error","interval_coverage",
    "confidence","too_few_sizes","rows"}; too_few_sizes counts the configurations not fitted (under 4 sizes), which
    the scores leave out.

    Each row: {"cfg","devices","measured","predicted","error","signed_error","efficiency_lo","efficiency_hi"}:
    error = |predicted − measured| in E (as the issue's contract has it: absolute differences), signed_error =
    predicted − measured, lo/hi the fit's 90 % prediction interval for a run there; interval_coverage is the
    share of held-out measurements inside it — whether the fit's uncertainty is honest, not only its point."""
    rows: list[dict[str, Any]] = []
    too_few = 0
    for c in configs:
        sizes = sorted({r.devices for r in c.rows})
        if len(sizes) < MIN_SIZES:
            too_few += 1
            continue
        top = sizes[-1]
        train = [(r.devices, r.throughput) for r in c.rows if r.devices < top]
        held = [r for r in c.rows if r.devices == top]
        f = fit(train, gpus_per_node=c.gpus_per_node, confidence=CONFIDENCE)
        p = f.predict([top])
        predicted, lo, hi = (float(x[0]) for x in (p.efficiency, p.efficiency_lo, p.efficiency_hi))
        d0 = sizes[0]  # the fit's reference; measured E against the same one
        x0 = float(np.mean([r.throughput for r in c.rows if r.devices == d0]))
        measured = float(np.mean([relative_efficiency(r.throughput, top, x0, d0) for r in held]))
        rows.append(
            {"cfg": c.cfg, "devices": top, "measured": measured, "predicted": predicted,
             "error": abs(predicted - measured), "signed_error": predicted - measured,
             "efficiency_lo": lo, "efficiency_hi": hi}
        )  # fmt: skip
    inside = [r["efficiency_lo"] <= r["measured"] <= r["efficiency_hi"] for r in rows]
    coverage = float(np.mean(inside)) if rows else None
    scores = summary(rows, len(rows), "fit")
    return {**scores, "interval_coverage": coverage, "confidence": CONFIDENCE, "too_few_sizes": too_few, "rows": rows}
