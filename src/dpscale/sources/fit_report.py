"""A fit's whole report — what `dpscale fit --json` prints and `plan --efficiency-file` reads: `Fit.report()`.

The law and why, its parameters, the measured sizes against it, the predictions with their intervals, the peak and
the answers asked for, and every warning once. It lived in the CLI alone, so a library fit saved for
`plan --efficiency-file` could only be its bare prediction records: E read against one device, with no rate, no
unit, no band and none of the fit's warnings.
"""

from __future__ import annotations

import math
from typing import Any

from dpscale.errors import MAX_DEVICES, fail, one, plain
from dpscale.formulas.units import check_unit
from dpscale.notes import Note
from dpscale.sources.fit_runs import listed_sizes, stated_unit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dpscale.sources.fit import Fit


def default_sizes(f: Fit) -> list[int]:
    """The sizes a report predicts when none are asked: the measured ones, 2× and 4× the largest, as far as a size
    may go (runs at 10,000,000 once failed 'devices: got 20000000')."""
    top = f.runs.devices[-1]
    return sorted({*f.runs.devices, *(k * top for k in (2, 4) if k * top <= MAX_DEVICES)})


def report(
    f: Fit,
    at: Any = None,
    target_throughput: float | None = None,
    min_efficiency: float | None = None,
    unit: str | None = None,
) -> dict[str, Any]:
    """The report of fit `f`: predictions at `at` (default `default_sizes`), the devices for a target throughput
    and for a minimum E where asked, and the throughput's unit: the runs' own where they state one, which `unit`
    must then be (as the CLI's --unit: report(unit='samples/s') of tokens/s runs was planned as samples), else
    `unit`, else samples/s."""
    if unit is not None and not isinstance(unit, str):
        raise fail("unit", unit, "a throughput unit such as 'samples/s' or 'tokens/s'")
    unit = None if unit is None else check_unit(unit, "unit")  # as the CLI's --unit: not '', ' ' or 'tokens/s/gpu'
    unit = stated_unit(unit, f.unit)  # (checked before the predictions, which take the time)
    pred = f.predict(default_sizes(f) if at is None else at)
    warnings = list(f.warnings) + list(pred.warnings)
    answers = _answers(f, target_throughput, min_efficiency, warnings)
    runner = f.candidates.get(f.runner_up) if f.runner_up else None
    e_fit = f.efficiency([m["devices"] for m in f.measured()])
    measured = [{**m, "fitted_efficiency": float(e)} for m, e in zip(f.measured(), e_fit)]
    resamples = int(f.samples.shape[0])
    return _json_ready(
        {
            "law": f.law,
            "criterion": f.criterion,
            "loo_rmse": f.candidates[f.law].loo_rmse,
            "runner_up": {"law": f.runner_up, "loo_rmse": runner.loo_rmse} if runner else None,
            "uncertainty": f"parametric bootstrap, {resamples} refits; {100 * f.confidence:g} % intervals",
            "confidence": f.confidence,
            "baseline_devices": f.baseline_devices,
            "per_device_throughput": f.per_device_throughput,
            "efficiency_relative_to": f"the smallest measured size, d0 = {f.baseline_devices}",
            "resamples": resamples,
            "noise": f.noise,  # σ of one run's log throughput, the intervals' noise
            "repeat_dof": f.runs.repeat_dof,  # its degrees of freedom from repeated runs of one size
            "interval_laws": [f.law, *(n for n, _, _ in f.rivals)],  # the prediction intervals draw from these
            "parameters": {n: {"value": p.value, "lo": p.lo, "hi": p.hi} for n, p in f.parameters.items()},
            "seconds": f.seconds(),
            "measured": measured,
            "predictions": pred.records(),
            "search_cap": f.search_cap,  # the peak and devices needed are sought up to here (∞: not within it)
            **answers,
            "warnings": warnings,
            "unit": unit,  # plan --efficiency-file plans in it
        }
    )


def _json_ready(x: Any) -> Any:
    """The report as JSON holds it: an ∞ (no peak, a size not reached within `search_cap`) or a NaN (no
    leave-one-out score) is None, --json's null — json.dump wrote them 'Infinity' and 'NaN', which are not JSON."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _json_ready(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_json_ready(v) for v in x]
    return x


def _answers(f: Fit, target: float | None, min_eff: float | None, warnings: list[str]) -> dict[str, Any]:
    """The peak and the devices asked for; each answer's own warnings join the report's (one list), and two notes
    of sizes below d0 (--at 2 and an answer of 3 devices) become one naming both."""
    out: dict[str, Any] = {"peak": f.peak()}
    # each question as its number, as devices_for reads it (errors.one): target_throughput=[20000] was recorded as
    # [20000], and a Decimal or Fraction was kept as given, so json.dumps(report) raised TypeError (review MY)
    if target is not None:
        target = plain(one(target, "target_throughput"))
        out["devices_for_throughput"] = {"target": target, **f.devices_for(throughput=target)}
    if min_eff is not None:
        min_eff = plain(one(min_eff, "min_efficiency"))
        out["devices_for_efficiency"] = {"min_efficiency": min_eff, **f.devices_for(efficiency=min_eff)}
    for ans in out.values():
        warnings += [w for w in (ans or {}).pop("warnings", []) if w not in warnings]
    below = [w for w in warnings if isinstance(w, Note) and w.key == "below_baseline"]
    if len(below) > 1:
        sizes = sorted({x for w in below for x in w.fields["each"]})  # type: ignore[attr-defined]
        merged = Note("below_baseline", sizes=listed_sizes(sizes), d0=below[0].fields["d0"], each=sizes)
        warnings[:] = [merged if w is below[0] else w for w in warnings if w is below[0] or w not in below]
    return out
