"""What a fit says about itself once made: notes where the runs cannot carry the law chosen.

`sources.fit` fits the laws, chooses one and bootstraps it; these read the finished Fit against the runs it was
given and say where the answer leans on something the runs did not measure: too few sizes to test any law, a
law that cannot pass near a measured point, parameters outside their domain, throughput that falls or never
grows (per-device rates typed as the whole run's), superlinear points. None of them changes the fit. The notes
a question asks of it (sizes below d0 or far past the runs, the runner-up law outside the interval) are the
Fit's own methods, since they read its intervals at the sizes asked.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dpscale.formulas.scaling import REPEAT_SPREAD_E
from dpscale.notes import Note, e3, listed
from dpscale.sources.fit_runs import NOISE_PRIOR
from dpscale.sources.fit_solve import AT_BOUND

TYPE_CHECKING = False
if TYPE_CHECKING:  # (for the type alone: fit imports this module, never the other way at run time)
    from dpscale.sources.fit import Fit

MISFIT = 0.1  # a law 10 % off a measured E (|Δ log E|) misses it: far beyond 1–3 % run-to-run noise


def _misfit(f: Fit, y: Any) -> tuple[float, int, Any]:
    """The chosen law's largest |Δ log E| from a measured point above d0, that point's index, and the law's log E."""
    fitted = np.log(f.efficiency(np.asarray(f.runs.devices[1:], dtype=float)))
    gap = np.abs(fitted - y)
    k = int(np.argmax(gap)) if gap.size else 0
    return (float(gap[k]) if gap.size else 0.0), k, fitted


# 4× the devices and the throughput never 10 % above the smallest size's: per-device rates (each at most the
# baseline's), or runs that gain nothing at all — not a poor scaling that still grew (1,000 → 1,200 on 1 → 4)
FLAT_SPAN, FLAT_GAIN = 4, 1.1


def fit_warnings(f: Fit, y: Any, dof: int) -> list[str]:
    """The notes fit() attaches to its Fit (`Fit.warnings`), after the runs' own (`Runs.notes`); y: the measured
    log E above d0, dof: the residuals' degrees of freedom (0 for an exact fit)."""
    out = list(f.runs.notes)
    n = len(f.runs.devices)
    free = int(np.sum(f.candidates[f.law].q >= AT_BOUND))  # terms off their bound of 0
    if n < 3 and f.runs.repeat_dof:  # the repeats measured the noise; still nothing tests the law
        out.append(Note("few_sizes_repeats", n=n, noise=100 * f.noise))
    elif n < 3 and dof:  # a law held off the point by its bounds: its miss is in the noise, not the prior alone
        out.append(Note("few_sizes_misfit", n=n, noise=100 * f.noise, prior=100 * NOISE_PRIOR))
    elif n < 3:
        out.append(Note("few_sizes", n=n, noise=100 * NOISE_PRIOR))
    elif dof == 0 and free >= n - 1 and _misfit(f, y)[0] <= MISFIT:  # a law held off the points by its bounds
        # is not exact: a term the solver left at 8e-17 is at its bound (the noise estimate counts it free)
        out.append(Note("exact_fit", law=f.law, noise=100 * NOISE_PRIOR))
    k = len(f._law.params)
    if k > n - 1:  # fewer points above the baseline than parameters: many splits fit them alike
        out.append(Note("split_unmeasured", law=f.law, params=", ".join(f._law.params), n=n - 1, k=k))
    q = f.candidates[f.law].q  # each term's share of compute time at the largest size
    at_bound = q < 1e-3 * max(1.0, float(q.sum()))  # under 0.1 % of the step time at the largest size
    if np.all(at_bound):
        out.append(Note("degenerate_all"))
    elif f.law == "usl" and at_bound[1]:
        out.append(Note("degenerate_kappa"))
    elif f.law == "usl" and at_bound[0]:
        out.append(Note("degenerate_sigma"))
    if f.rivals:
        others = [n for n, _, _ in f.rivals]
        out.append(Note("laws_pooled", laws=listed([f.law, *others]), others=listed(others), law=f.law))
    if f.unseen():
        names = ", ".join(f._law.params[j] for j in f.unseen())
        out.append(Note("fit_unseen", law=f.law, params=names, d0=f.baseline_devices))
    # A law that cannot pass near a measured point (two sizes leave no leave-one-out score, so the default law is
    # kept even where its shape cannot bend that far): say so, with the point and the law's value there.
    gap, k, fitted = _misfit(f, y)
    if gap > MISFIT:
        measured, law_e = float(np.exp(y[k])), float(np.exp(fitted[k]))
        out.append(Note("fit_misses", law=f.law, d=f.runs.devices[1:][k], measured=measured, law_e=law_e,
                        measured_said=e3(measured), law_said=e3(law_e)))  # fmt: skip
    # Throughput that falls as devices are added is data, whatever the law: the all-reduce and Amdahl laws can
    # only rise, so their "no peak" would contradict the runs without this line.
    x, dd = f.runs.throughput, f.runs.devices
    top = int(np.argmax(x))
    if f.law != "usl" and x[-1] < (1 - MISFIT) * x[top]:
        out.append(Note("runs_fall", d1=dd[top], x1=float(x[top]), d2=dd[-1], x2=float(x[-1]), law=f.law))
    # Per-device rates typed as the whole run's give E ≈ d0/d: the law then fits a cluster that does not scale.
    if dd[-1] >= FLAT_SPAN * dd[0] and max(x) <= FLAT_GAIN * x[0]:
        out.append(
            Note(
                "runs_flat",
                k=float(dd[-1] / dd[0]),
                d0=dd[0],
                d1=dd[-1],
                gain=float(x[-1] / x[0]),
                e=float(np.exp(y[-1])),
                e_said=e3(float(np.exp(y[-1]))),  # E ≈ d0/d: 1 → 8,192 read 'E 0.000'
            )
        )
    for name, bound in (("sigma", "σ < 1"), ("serial_fraction", "s < 1"), ("kappa", "κ ≤ 1")):
        p = f.parameters.get(name)
        if p is not None and (p.value > 1 or (p.value == 1 and name != "kappa")):
            out.append(Note("fit_past_domain", law=f.law, name=name, value=p.value, bound=bound))
    # (the one bound calc, measure and plan --efficiency-file read: an E up to a repeat's spread above 1 is noise, and
    # 1.01 at 2 devices was 'superlinear point(s)' here while calc called it within the spread: review MH)
    sup = [(dd, e) for dd, e in zip(f.runs.devices[1:], np.exp(y)) if e > REPEAT_SPREAD_E]
    if sup:
        sizes = "; ".join(f"{dd:,}" for dd, _ in sup)
        out.append(Note("superlinear_points", sizes=sizes, emax=max(float(e) for _, e in sup), spread=REPEAT_SPREAD_E))
    return out


__all__ = ["MISFIT", "fit_warnings"]
