"""The laws `dpscale fit` chooses between, written as one shape so one solver fits them all.

Each law says how the step time grows with d, relative to a d-independent compute time:
    T(d) / T_compute = 1 + Σ_j p_j · f_j(d),      p_j ≥ 0,
and E relative to the smallest measured size d0 is E(d) = T(d0) / T(d) (weak scaling: fixed
per-device batch, so throughput ∝ d / T(d)). The three laws differ only in the basis f_j:
- usl:       f = (d−1, d(d−1))                 → E = U(d0)/U(d), U = 1 + σ(d−1) + κ·d(d−1)
- amdahl:    f = (d−1,)                        → the USL with κ = 0
- allreduce: f = (tree all-reduce of S at unit bandwidth, its latency steps), from
             `dpscale.formulas.collectives.allreduce_time(..., algorithm="tree")` — one compute
             time plus the α–β cost of NCCL's all-reduce, with the knee at the node boundary
             (a chain inside a node, a log2 tree across nodes) when gpus_per_node is known.
Linear parameters keep the fit well behaved and make bootstrap refits cheap to vectorise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from dpscale.formulas.collectives import allreduce_time
from dpscale.formulas.units import GB
from dpscale.sources.laws import FIT_LAWS, usl_terms


@dataclass(frozen=True)
class Law:
    name: str
    params: tuple[str, ...]
    basis: Callable[[Any, int | None], Any]  # (d, gpus_per_node) -> array (k, *d.shape)
    what: tuple[str, ...]  # one phrase per parameter, for the summary

    @property
    def k(self) -> int:
        return len(self.params)


def _usl_basis(d: Any, g: int | None) -> Any:
    return np.stack(usl_terms(np.asarray(d, dtype=float)))


def _amdahl_basis(d: Any, g: int | None) -> Any:
    return usl_terms(np.asarray(d, dtype=float))[0][None]  # the USL's contention term alone (κ = 0)


def _allreduce_basis(d: Any, g: int | None) -> Any:
    """Unit shapes of the tree all-reduce: seconds per (S/B = 1 s) and per (α = 1 s).

    Without gpus_per_node every device counts as its own node (a flat log2 tree)."""
    d = np.asarray(d, dtype=float)
    g = 1 if g is None else g
    bandwidth = allreduce_time(GB, d, g, 1.0, 1.0, 0.0, 0.0, algorithm="tree")
    latency = allreduce_time(0.0, d, g, 1.0, 1.0, 1.0, 1.0, algorithm="tree")
    return np.stack([np.broadcast_to(bandwidth, d.shape), np.broadcast_to(latency, d.shape)]).astype(float)


LAWS: dict[str, Law] = {
    "allreduce": Law(
        "allreduce",
        ("transfer", "latency"),
        _allreduce_basis,
        ("gradient bytes ÷ link bandwidth, in compute times", "latency per all-reduce step, in compute times"),
    ),
    "usl": Law("usl", ("sigma", "kappa"), _usl_basis, ("contention σ", "coherency κ")),
    "amdahl": Law("amdahl", ("serial_fraction",), _amdahl_basis, ("serial fraction",)),
}
# The training-aware law comes first: it is the default when the data cannot tell the laws apart.
ORDER = FIT_LAWS


def log_ratio(p: Any, f: Any, f0: Any) -> tuple[Any, Any, Any]:
    """Every law here is T(d)/T_compute = 1 + p·f(d), so log E(d) = log T(d0) − log T(d). For parameters p of
    shape (..., k), basis f (k, n) and f0 (k,): (log E (..., n), T(d) (..., n), T(d0) (...))."""
    t, t0 = step_ratio(p, f), step_ratio(p, f0)
    return np.log(t0)[..., None] - np.log(t), t, t0


def step_ratio(p: Any, f: Any) -> Any:
    """T(d)/T_compute = 1 + p·f(d): the step time in units of its compute, for basis f (k, ...) and p (..., k)."""
    return 1.0 + np.tensordot(np.asarray(p, dtype=float), f, axes=([-1], [0]))


def log_ratio_jacobian(f: Any, f0: Any, t: Any, t0: Any) -> Any:
    """∂ log E(d_i) / ∂p_j = f_j(d0)/T(d0) − f_j(d_i)/T(d_i), shape (..., n, k) for log_ratio's t and t0."""
    return f0 / np.asarray(t0)[..., None, None] - np.swapaxes(f / np.asarray(t)[..., None, :], -1, -2)


def log_efficiency(law: Law, p: Any, d: Any, d0: float, g: int | None) -> Any:
    """log E(d) for parameters p of shape (..., k); d broadcast over the last axis."""
    f = law.basis(d, g)  # (k, n)
    f0 = law.basis(np.asarray([d0], dtype=float), g)[:, 0]  # (k,)
    return log_ratio(p, f, f0)[0]
