"""Least squares for the fit laws: scipy for the point estimate, a vectorised twin for resamples.

Residuals are in log E (so a 1 % throughput error weighs the same at every size), over the
points above the smallest size d0, which anchors E(d0) = 1. Parameters are solved in scaled form
q_j = p_j·f_j(d_max) — each term's share of the compute time at the largest measured size — so
σ ≈ 1e-2 and κ ≈ 1e-6 are equally well conditioned. A weak ridge RIDGE·q_j picks the smallest
explanation when the data cannot separate two terms (e.g. two points and two parameters).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dpscale.sources.fit_laws import Law, log_ratio, log_ratio_jacobian

RIDGE = 0.001
AT_BOUND = 1e-12  # a scaled parameter below this is a term at its bound of 0 (fitted ones are 1e-4 to 1)


class Problem:
    """One law on one set of sizes: the basis at the measured sizes and at d0, in scaled form."""

    def __init__(self, law: Law, devices: Any, g: int | None) -> None:
        self.law, self.g = law, g
        d = np.asarray(devices, dtype=float)
        self.d0 = float(d[0])
        self.d = d[1:]
        f_all = law.basis(d, g)  # (k, n)
        self.scale = np.maximum(f_all[:, -1], 1e-300)  # f_j(d_max)
        self.f = f_all[:, 1:] / self.scale[:, None]  # (k, m) scaled basis at the fitted points
        self.f0 = f_all[:, 0] / self.scale  # (k,)

    def params(self, q: Any) -> Any:
        return np.asarray(q) / self.scale

    def model(self, q: Any) -> tuple[Any, Any, Any]:
        """log E at the fitted points, T(d_i) and T(d0) for q of shape (..., k)."""
        return log_ratio(q, self.f, self.f0)

    def residuals(self, q: Any, y: Any) -> Any:
        return np.concatenate([self.model(q)[0] - y, RIDGE * np.asarray(q)])

    def jacobian(self, q: Any, y: Any = None) -> Any:
        _, t, t0 = self.model(q)
        return np.vstack([log_ratio_jacobian(self.f, self.f0, t, t0), RIDGE * np.eye(len(q))])


def fit_point(prob: Problem, y: Any) -> tuple[Any, float]:
    """scipy's bounded nonlinear least squares (trf); returns scaled q and the data RSS."""
    from dpscale.errors import require

    least_squares = require("scipy.optimize", "fit", "fit").least_squares

    k = prob.law.k
    res = least_squares(
        prob.residuals, np.full(k, 0.01), jac=prob.jacobian, args=(np.asarray(y),), bounds=(0.0, np.inf), method="trf"
    )
    # Polish with the batched solver: scipy's tolerances stop before the weak ridge has settled
    # directions the data cannot see, and the bootstrap refits must start from the same optimum.
    q = fit_batch(prob, np.asarray(y)[None], np.ones((1, np.size(y))), np.maximum(res.x, 0.0))[0]
    r = prob.model(q)[0] - y
    return q, float(r @ r)


def fit_batch(prob: Problem, y: Any, w: Any, q_init: Any, iterations: int = 30) -> Any:
    """Many refits at once (bootstrap resamples, leave-one-out): projected Levenberg–Marquardt.

    y, w: (B, m) targets and 0/1 weights; returns q of shape (B, k). Each problem keeps its own
    damping, raised when a step does not lower its objective."""
    y = np.asarray(y, dtype=float)
    w = np.asarray(w, dtype=float)
    b, k = y.shape[0], prob.law.k
    q = np.broadcast_to(np.asarray(q_init, dtype=float), (b, k)).copy()
    mu = np.full(b, 1e-3)
    eye = np.eye(k)

    def objective(q: Any) -> Any:
        r = (prob.model(q)[0] - y) * w
        return np.sum(r * r, axis=1) + RIDGE**2 * np.sum(q * q, axis=1)

    cost = objective(q)
    for _ in range(iterations):
        logE, t, t0 = prob.model(q)
        r = (logE - y) * w  # (B, m)
        j = log_ratio_jacobian(prob.f, prob.f0, t, t0) * w[..., None]  # (B, m, k)
        jtj = np.einsum("bmk,bml->bkl", j, j) + RIDGE**2 * eye
        grad = np.einsum("bmk,bm->bk", j, r) + RIDGE**2 * q
        diag = np.einsum("bkk->bk", jtj)
        lhs = jtj + (mu[:, None] * diag + 1e-12)[:, :, None] * eye
        step = np.linalg.solve(lhs, -grad[..., None])[..., 0]
        trial = np.maximum(q + step, 0.0)
        new = objective(trial)
        better = new < cost
        q = np.where(better[:, None], trial, q)
        cost = np.where(better, new, cost)
        mu = np.where(better, mu * 0.3, mu * 10.0)
    return q
