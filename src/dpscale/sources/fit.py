"""Fit E(d) to measured runs and extrapolate with intervals: `dpscale.fit(...)` → `Fit`.

    >>> import dpscale
    >>> f = dpscale.fit([(1, 1000), (8, 7600), (16, 14800), (32, 28400)])
    >>> f.law, round(float(f.predict(256).efficiency[0]), 3)
    ('allreduce', 0.849)
    >>> round(dpscale.scale(256, 1000, f).actual_throughput)   # a Fit is an E source
    217385

E is relative to the smallest measured size d0: E(d) = X(d) / ((d/d0)·X(d0)). The law is chosen
by leave-one-out error (see `choose`); every predicted number carries a parametric-bootstrap
interval (refits of resampled data, vectorised) — see docs/fit.md for why and how.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any, overload

import numpy as np
from numpy.typing import NDArray  # (FitPrediction's fields: typing.get_type_hints reads them at run time)

from dpscale.errors import (
    MAX_DEVICES,
    DpscaleError,
    check_count,
    check_size_list,
    check_sizes,
    choice,
    devices_question,
    fail,
    one,
)
from dpscale.formulas.scaling import compute, relative_efficiency, same_fields, short_repr
from dpscale.notes import Note
from dpscale.sources.fit_io import runs_from
from dpscale.sources.fit_laws import LAWS, ORDER, Law, log_efficiency, log_ratio_jacobian, step_ratio
from dpscale.sources.fit_notes import fit_warnings
from dpscale.sources.fit_runs import (
    CONFIDENCE_ALLOWED,
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MAX_GPUS_PER_NODE,
    NOISE_PRIOR,
    RESAMPLES,
    SEEDS,
    Runs,
    listed_sizes,
)
from dpscale.sources.fit_solve import AT_BOUND, Problem, fit_batch, fit_point
from dpscale.sources.laws import usl_ceiling, usl_peak

if TYPE_CHECKING:
    from dpscale.errors import Number, Numbers

NOISE_PRIOR_WEIGHT = 2.0  # the assumed run-to-run noise (NOISE_PRIOR, 1 %) is worth this many degrees of freedom
# A rival law replaces the current choice (the default first) only below 1/20 of its leave-one-out MSE: with 3-5
# sizes leave-one-out is noisy, and a rival that merely halved it extrapolated worse on the published sets (outside
# the dev set, 81 configurations: p90 0.153 at 1/2, 0.078 at 1/20, interval coverage 0.75 → 0.93; the dev set
# 0.063 → 0.074). Chosen in session 41 over every published set (dev, external, hold-out), from 1/2, 1/4, 1/10, 1/20,
# 0 — see docs/fit.md.
SWITCH = 0.05
# Leave-one-out RMSE of log E below this is rounding, not fit: runs scaling perfectly but for their last bits scored
# all-reduce 4.3e-16, USL and Amdahl 1.4e-30 — and × 23 (another unit) 4.5e-16 and 1.4e-16, so the law flipped with
# the unit. No run measures a rate to a part in 10⁹: scores below it tie, and the default stands.
LOO_FLOOR = 1e-9
EXTRAPOLATE = 4.0  # warn beyond this multiple of the largest measured size
PEAK_CAP = 1 << 20  # the peak and devices_for search up to here, or further when the runs reach past a quarter of it
MAX_CELLS = 20_000_000  # resamples × sizes in one predict: 160 MB an array
GRID_CELLS = 2_000_000  # resamples × grid sizes at once in peak and devices_for, which take them a block at a time
# Sizes the peak and devices_for search, geometric from 1 to search_cap (then rounded to whole devices): up to 2^20,
# 1.2 % apart for the peak, 1.0 % for devices_for's answer (refined to the whole device after)
PEAK_GRID, ANSWER_GRID = 1200, 1400
# A rival law joins the prediction intervals when the data cannot reject it: its in-sample RSS of log E exceeds
# the chosen law's by less than this many times the variance of one log E (2σ², baseline and run noise). With 3–4
# sizes leave-one-out picks Amdahl for USL data 56–73 % of the time, and the chosen law's interval alone then
# covered the true E at 4× the sizes measured in 19–44 % of fits at a nominal 90 %.
PLAUSIBLE = 4.0


@dataclass(frozen=True)
class Param:
    name: str
    value: float
    lo: float
    hi: float
    what: str = ""


@dataclass(frozen=True, repr=False)  # numpy's repr of seven arrays of 999 sizes: 101,000 characters (short_repr)
class FitPrediction:
    """A fit's point estimates and prediction intervals (arrays aligned with `devices`); not predict's Prediction,
    the step model's E source."""

    devices: NDArray[np.int_]
    throughput: NDArray[np.float64]
    throughput_lo: NDArray[np.float64]
    throughput_hi: NDArray[np.float64]
    efficiency: NDArray[np.float64]
    efficiency_lo: NDArray[np.float64]
    efficiency_hi: NDArray[np.float64]
    warnings: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return short_repr(self, [f.name for f in fields(self)])

    def __eq__(self, other: object) -> bool:  # arrays by value (a dataclass's == raised ValueError past one size)
        return same_fields(self, other, [f.name for f in fields(self)])

    def records(self) -> list[dict[str, float]]:
        """One plain dict per size: devices, throughput and E with their interval bounds."""
        keys = [f.name for f in fields(self) if f.name != "warnings"]  # the seven arrays, in the order declared
        cols = [np.ravel(getattr(self, k)) for k in keys]
        out = [{k: float(c[i]) for k, c in zip(keys, cols)} for i in range(cols[0].size)]
        return [{**r, "devices": int(r["devices"])} for r in out]  # a count, as in the measured rows


@dataclass(frozen=True)
class Candidate:
    law: str
    q: Any  # scaled parameters (point estimate)
    rss: float
    loo_rmse: float  # NaN when too few sizes


@dataclass(frozen=True, repr=False, eq=False)  # the bootstrap arrays would make a 35,000-character repr, and ==
class Fit:  # ambiguous; frozen: a result shared by predictions, plots and reports must not change under them
    """A fitted scaling law with intervals; also an E source (`efficiency(d)`, `describe()`)."""

    continuous = True  # a law: E is defined between whole sizes (solve's exact size reads it there)

    runs: Runs
    law: str
    gpus_per_node: int | None
    confidence: float
    criterion: str
    candidates: dict[str, Candidate]
    runner_up: str | None
    noise: float  # σ of log throughput: the pooled estimate
    samples: Any  # (B, k) bootstrap parameters (unscaled)
    noise_draws: Any  # (B,) the noise σ each resample drew with (σ is itself estimated: scaled-inverse-χ²)
    # (B,) each resample's draw of the baseline's log throughput, which its E is relative to: a predicted
    # throughput X0*·(d/d0)·E*(d) multiplies it back in, so the two cancel at the measured sizes
    base_draws: Any
    warnings: list[str] = field(default_factory=list)
    _rng_seed: int = 0
    # laws the data cannot reject beside the chosen one, each (name, (B, k) parameters, (B,) noise draws): the
    # prediction intervals draw from all of them alike, so a choice the data cannot make widens them
    rivals: tuple = ()

    def __repr__(self) -> str:
        params = ", ".join(f"{n}={p.value:.4g} [{p.lo:.4g}, {p.hi:.4g}]" for n, p in self.parameters.items())
        sizes = ", ".join(str(d) for d in dict.fromkeys(self.runs.devices))
        return f"Fit(law={self.law!r}, {params}, sizes=[{sizes}], resamples={len(self.samples)})"

    # -- basics -----------------------------------------------------------------------------------
    @property
    def baseline_devices(self) -> int:
        """d0, the smallest measured size: E is relative to it."""
        return self.runs.devices[0]

    @property
    def per_device_throughput(self) -> float:
        """Measured per-device throughput at d0: the v that pairs with this E in A = d·v·E."""
        return self.runs.throughput[0] / self.runs.devices[0]

    @property
    def unit(self) -> str | None:
        """The throughput unit the runs state (a CSV's unit column, `dpscale measure`'s records), or None where they
        say none: per_device_throughput and predict()'s throughputs are in it — tokens/s is not plan()'s samples/s."""
        return self.runs.unit

    @property
    def _law(self) -> Law:
        return LAWS[self.law]

    @property
    def values(self) -> Any:
        """The law's fitted parameters in its own order (USL: σ, κ), ready for USL(*values)."""
        c = self.candidates[self.law]
        q = np.where(c.q < AT_BOUND, 0.0, c.q)  # the solver leaves a term at its bound as 4e-17, printed so
        return Problem(self._law, self.runs.devices, self.gpus_per_node).params(q)

    @property
    def parameters(self) -> dict[str, Param]:
        """Each parameter with its interval; NaN for one the measured sizes cannot see (`unseen`)."""
        lo, hi = self._band(self.samples, axis=0)
        # the band holds its point: a fit the solver's 30 iterations leave unconverged (E ≈ 1e-12 at a size)
        # printed 'transfer = 1,564 [404.4, 413.5]'
        lo, hi = np.minimum(lo, self.values), np.maximum(hi, self.values)
        law, unseen = self._law, self.unseen()
        return {
            n: Param(n, *((math.nan,) * 3 if j in unseen else (float(v), float(a), float(b))), w)
            for j, (n, v, a, b, w) in enumerate(zip(law.params, self.values, lo, hi, law.what))
        }

    def unseen(self) -> list[int]:
        """Indices of terms equal at every measured size: E relative to d0 cancels them (the tree all-reduce's
        2S/B from two devices on, when d0 ≥ 2), so they are folded into compute, not estimated."""
        f = self._law.basis(np.asarray(self.runs.devices, dtype=float), self.gpus_per_node)
        return [j for j in range(f.shape[0]) if np.ptp(f[j]) == 0 and f[j, 0] > 0]

    def measured(self) -> list[dict[str, float]]:
        """The measured sizes (repeats averaged) with their throughput and E relative to d0."""
        d0, x0 = self.baseline_devices, self.runs.throughput[0]
        return [
            {"devices": d, "throughput": x, "efficiency": relative_efficiency(x, d, x0, d0)}
            for d, x in zip(self.runs.devices, self.runs.throughput)
        ]

    # -- E source ---------------------------------------------------------------------------------
    @overload
    def efficiency(self, d: Number) -> float: ...
    @overload
    def efficiency(self, d: Numbers) -> NDArray[np.float64]: ...
    @overload
    def efficiency(self, d: Any) -> Any: ...  # a grid, a tensor: whatever numpy reads
    def efficiency(self, d: Any) -> Any:
        """Point estimate of E(d) relative to d0 (numpy-friendly)."""
        arr = check_sizes(d)
        e = np.exp(log_efficiency(self._law, self.values, arr.ravel(), self.baseline_devices, self.gpus_per_node))
        e = e.reshape(arr.shape)
        return float(e) if arr.ndim == 0 else e

    def describe(self) -> str:
        """One line: the law, its parameters and d0 (a Note, said in the user's language by a face)."""
        # ';': a decimal comma reads too; '—' for a parameter E relative to d0 cannot see, as fit's table writes it
        ps = "; ".join(f"{n} = {_g(p.value, '—')}" for n, p in self.parameters.items())
        return Note("fit_describe", law=self.law, fitted=ps, d0=self.baseline_devices)

    # -- predictions --------------------------------------------------------------------------------
    def _log_e_samples(self, d: Any, rows: slice = slice(None)) -> tuple[Any, Any]:
        """(B, n) log E at d and (B,) noise σ per resample: the chosen law's, or, with plausible rivals, each
        law's draws in turn (resample i from law i mod L), so every law weighs the same. (`base_draws` follows
        the same rows.) rows: those resamples alone (a block of `_blocks`), the same values as in the whole."""
        d0, g = self.baseline_devices, self.gpus_per_node
        i = np.arange(self.samples.shape[0])[rows]
        if not self.rivals:
            return log_efficiency(self._law, self.samples[i], d, d0, g), self.noise_draws[i]
        laws = 1 + len(self.rivals)
        which = i % laws
        m = which == 0
        log_e, s = np.empty((which.size, np.size(d))), np.empty(which.size)
        log_e[m], s[m] = log_efficiency(self._law, self.samples[i[m]], d, d0, g), self.noise_draws[i[m]]
        for j, (name, p, sd) in enumerate(self.rivals, start=1):  # each rival drew exactly its rows: i // laws of them
            m = which == j
            log_e[m], s[m] = log_efficiency(LAWS[name], p[i[m] // laws], d, d0, g), sd[i[m] // laws]
        return log_e, s

    def _blocks(self, cols: int) -> list[slice]:
        """The resamples a block at a time, each block × cols at most GRID_CELLS values: the peak's and devices_for's
        grids (1,200–1,400 sizes) × 100,000 resamples were 1.2–1.4e8 values an array, 2 GB at once — past the
        MAX_CELLS that --resamples × sizes is held to."""
        b, step = self.samples.shape[0], max(1, GRID_CELLS // max(cols, 1))
        return [slice(a, min(a + step, b)) for a in range(0, b, step)]

    def predict(self, d: Any) -> FitPrediction:
        """Throughput and E at d with prediction intervals (fit uncertainty + one new run's noise)."""
        # inf, [] refused too, and a table of sizes, as predict's and plan's sweeps refuse it (it came back flattened);
        # past MAX_DEVICES as efficiency(d) refuses it, said of 0 too ('≥ 1', then 1e300 'from 1 to 2^53', review HT)
        dd = np.atleast_1d(np.asarray(check_size_list(d, "devices", MAX_DEVICES), dtype=float))
        d0, x0 = self.baseline_devices, self.runs.throughput[0]
        b = self.samples.shape[0]
        check_cells(b, dd.size)
        # Each resample carries its own baseline draw: throughput = X0*·(d/d0)·E*(d)·(new-run noise). A fresh
        # draw of X0* here would count the baseline's noise twice: 99.5 % of new runs fell inside a 90 % interval
        # at the largest measured size (benchmarks/bench_fit_coverage.py).
        log_e, s = self._log_e_samples(dd)
        # One stream per size, so a size's interval does not depend on which other sizes were asked for.
        new = s[:, None] * np.column_stack(
            [np.random.default_rng((self._rng_seed + 1, int(x))).standard_normal(b) for x in dd]
        )
        log_x = math.log(x0) + np.log(dd / d0) + log_e + self.base_draws[:, None] + new
        x_lo, x_hi = self._band(np.exp(log_x), axis=0)
        e = self.efficiency(dd)
        point = compute(dd, x0 / d0, e).actual_throughput  # A = d·v·E, the core's formula
        # With rival laws the draws are a mixture, and a narrow level's interval can miss the chosen law's point
        # (50 %: E 0.845 beside [0.453, 0.820]): the interval holds the point, as devices_for's does.
        x_lo, x_hi = np.minimum(x_lo, point), np.maximum(x_hi, point)
        e_lo, e_hi = (relative_efficiency(x, dd, x0, d0) for x in (x_lo, x_hi))  # E = A / ((d/d0)·A(d0)), the same
        return FitPrediction(
            devices=dd.astype(int),
            throughput=point,
            throughput_lo=x_lo,
            throughput_hi=x_hi,
            efficiency=e,
            efficiency_lo=e_lo,
            efficiency_hi=e_hi,
            warnings=tuple(
                self._below_warnings(dd)
                + self.extrapolation_warnings(dd)
                + self._node_warnings(dd)
                + self._rival_warnings(dd, e_lo, e_hi)
            ),
        )

    def warnings_at(self, d: Any) -> list[str]:
        """What predict(d) warns of these sizes, its intervals read a block of sizes at a time (resamples × sizes
        within GRID_CELLS): plan --fit asks it of up to 100,000 sizes for its notes alone (all at once, 20,000 sizes
        took 0.9 GB, and 20,001 were refused by predict's MAX_CELLS). Each size draws its own stream, so a block's
        intervals are the whole's, and the first size where the runner-up law leaves them is the same."""
        dd = np.atleast_1d(np.asarray(check_size_list(d, "devices", MAX_DEVICES), dtype=float))
        out = self._below_warnings(dd) + self.extrapolation_warnings(dd) + self._node_warnings(dd)
        if not self._runner_up_apart():  # no interval can bring the note: 1..100,000 drew 10^8 values for none
            return out
        step = max(1, GRID_CELLS // self.samples.shape[0])
        for a in range(0, dd.size, step):
            rival = [w for w in self.predict(dd[a : a + step]).warnings if getattr(w, "key", "") == "laws_disagree"]
            if rival:  # the blocks go in the sizes' order: the first is the first size
                return out + rival[:1]
        return out

    def _below_warnings(self, dd: Any) -> list[str]:
        """Sizes under d0: E there is still relative to d0, so above 100 %, and the law runs backwards from the
        smallest measurement (plan --fit refuses them; here the question is fair, the answer unmeasured)."""
        below = [round(x) for x in dd if x < self.baseline_devices]
        if not below:
            return []
        # (the sizes as numbers too: a face that meets two such notes says them as one)
        return [Note("below_baseline", sizes=listed_sizes(below), d0=round(self.baseline_devices), each=below)]

    def _node_warnings(self, dd: Any) -> list[str]:
        """Sizes across nodes when every run fit in one (1-8 GPUs measured, 64 asked, 8 a node): the network's cost
        was never measured, so no law's E there is more than its form's guess — however narrow its interval."""
        g = self.gpus_per_node
        beyond = [] if g is None or self.runs.devices[-1] > g else [round(x) for x in dd if x > g]
        if not beyond:
            return []
        return [Note("one_node_measured", g=g, sizes=listed_sizes(beyond))]

    def _runner_up_apart(self) -> str | None:
        """The runner-up law, where it can be said to leave the intervals: one they already draw from (a plausible
        rival) is part of their uncertainty, and is never said (None, as with no runner-up)."""
        return None if self.runner_up in {n for n, _, _ in self.rivals} else self.runner_up

    def _rival_warnings(self, dd: Any, lo: Any, hi: Any) -> list[str]:
        """Where the runner-up law falls outside the interval, the choice of law matters more than the noise, and
        the interval understates what is unknown (a runner-up the data reject, or a law forced by the user)."""
        runner = self._runner_up_apart()
        if not runner:
            return []
        c = self.candidates[runner]
        law = LAWS[runner]
        values = Problem(law, self.runs.devices, self.gpus_per_node).params(c.q)
        rival = np.exp(log_efficiency(law, values, dd, self.baseline_devices, self.gpus_per_node))
        shown = 5e-4  # the note prints E to 0.1 %: a rival at the interval's printed edge is not outside it
        measured = np.isin(np.round(dd), self.runs.devices)  # there the runs already say which law holds
        out = np.flatnonzero(((rival < lo - shown) | (rival > hi + shown)) & ~measured)
        if not out.size:
            return []
        i = out[0]
        return [Note("laws_disagree", rival=runner, d=int(dd[i]), pct=100 * float(rival[i]), law=self.law)]

    def extrapolation_warnings(self, d: Any, what: str = "") -> list[str]:
        """A note for sizes past EXTRAPOLATE (4×) the largest measured one: there the interval is the answer.
        `what` ('peak', 'needed') says which answer lies there, where no size asked does."""
        top = self.runs.devices[-1]
        # as the answers print them, past it too: a peak at 32.19 said '32 devices lies beyond 4× … (8)'
        far = [round(x) for x in np.ravel(d) if round(x) > EXTRAPOLATE * top]
        if not far:
            return []
        return [Note("extrapolating" + (what and "_" + what), sizes=listed_sizes(far), factor=EXTRAPOLATE, top=top)]

    def peak(self) -> dict[str, Any] | None:
        """Size of maximum throughput with its interval and warnings (beyond 4× the largest measured size);
        devices ∞ when the law rises up to `search_cap` devices (2^20, or 4× the largest measured size) but its
        interval holds a peak (a plausible rival law, or a κ the resamples find above 0); None when neither does.
        (None whenever the point was ∞ once said "no peak" alone in 18–82 % of simulated USL fits whose peak
        lay at 2–7× the largest size, where the interval held it.)"""
        point = self._peak_of(self.values[None])[0]
        if self.rivals:  # the plausible laws alike, as the prediction intervals (one that keeps rising: ∞)
            grid = self._grid(PEAK_GRID)
            blocks = self._blocks(grid.size)
            peaks = np.concatenate([self._grid_peak(self._log_e_samples(grid, r)[0], grid) for r in blocks])
        else:
            peaks = self._peak_of(self.samples)
        lo, hi = self._band(peaks, axis=0)
        if not math.isfinite(point) and not math.isfinite(lo):
            return None
        # the interval holds its point, as predict's and the parameters' do (a misfit law's skewed resamples once
        # said '3 devices [4, 5]'); an ∞ point too: 'no peak …; the interval allows one: [15, 15]' left it out
        lo, hi = min(lo, point), max(hi, point)
        warn = (self.extrapolation_warnings([point], "peak") if math.isfinite(point)
                else self.extrapolation_warnings([lo], "peak_from"))  # fmt: skip
        d0 = self.baseline_devices
        # the runs fall from the smallest size on: the peak lies where nothing was measured (as printed: a peak at
        # 15.56 read '16 devices, below the smallest measured size (d0 = 16)')
        if math.isfinite(point) and round(point) < d0:
            warn.append(Note("peak_below", d=round(point), d0=round(d0)))
        return {"devices": float(point), "lo": float(lo), "hi": float(hi), "warnings": warn}

    def _peak_of(self, p: Any) -> Any:
        """Per row of parameters `p` (the resamples, or the fitted values as one row), the size of largest
        throughput: USL's closed form, else a search of the grid; ∞ where the law still rises at `search_cap`."""
        if self.law == "usl":
            sigma, kappa = p[:, 0], p[:, 1]
            with np.errstate(divide="ignore", invalid="ignore"):
                d = np.where(kappa > 0, usl_peak(np.clip(sigma, None, 1), kappa), np.inf)
            return np.where(d < self.search_cap, np.maximum(d, 1.0), np.inf)
        grid = self._grid(PEAK_GRID)
        d0, g = self.baseline_devices, self.gpus_per_node
        step = max(1, GRID_CELLS // grid.size)  # a block of rows at a time, as _blocks (p: the resamples, or one)
        return np.concatenate(
            [self._grid_peak(log_efficiency(self._law, p[a : a + step], grid, d0, g), grid)
             for a in range(0, p.shape[0], step)]
        )  # fmt: skip

    @staticmethod
    def _grid_peak(log_e: Any, grid: Any) -> Any:
        """Per row of log E over the grid, the size of largest throughput (∞: still rising at its end)."""
        i = np.argmax(np.log(grid) + log_e, axis=1)
        return np.where(i < grid.size - 1, grid[i], np.inf)

    def devices_for(self, throughput: float | None = None, efficiency: float | None = None) -> dict[str, Any]:
        """Smallest d reaching a throughput (d ≥ d0 unless the smallest run reaches it), or largest d ≥ d0 keeping E ≥
        a minimum; with intervals, as whole numbers of devices (ints).

        Infinity (a float): not reached (throughput) or never dropping below (E) up to `search_cap` devices, with
        "reason" saying which: "unreachable" (past the law's peak, or above the most it gives at any size) or
        "beyond_search_cap" (still rising, or E still above the minimum, there); None when a size answers. A resample
        whose baseline draw puts E below the minimum at d0 already answers d0, the smallest size. Intervals come
        from the resamples on a ~1 %-spaced grid; "warnings" says when the answer lies beyond 4× the largest
        measured size."""
        throughput, efficiency = devices_question(throughput, efficiency)
        d0, x0 = self.baseline_devices, self.runs.throughput[0]

        def answer(log_e: Any, grid: Any, base: Any = 0.0) -> Any:
            """Per row of log E over the grid: the first size reaching the mean throughput X0·e^base·(d/d0)·E(d)
            (base: a resample's baseline draw, as predict's), or the last keeping e^base·E(d), E against the
            measured X0 as predict's and the tables' (E* alone is against the resample's own baseline: '41 [32,
            54]' beside a one-run E of at most 79.1 % at 54 for a minimum of 80 %)."""
            # (compared as rates, as the curve's E is read: in logs, log 1000 + log 5 falls 2e-15 short of log 5000,
            # and 5 devices at 1,000/s each were not enough for 5,000/s)
            e = np.exp(base + log_e)
            if throughput is not None:
                good = x0 / d0 * grid * e >= throughput
                return np.where(good.any(axis=1), grid[np.argmax(good, axis=1)], np.inf)
            assert efficiency is not None  # no throughput: an efficiency was given (one of them, checked above)
            good = e >= efficiency  # (none good: d0, the smallest size asked)
            first_bad = np.argmax(~good, axis=1)
            return np.where((~good).any(axis=1), grid[np.maximum(first_bad - 1, 0)], np.inf)

        def chosen(grid: Any) -> Any:  # the point: the chosen law at its fitted parameters
            return answer(log_efficiency(self._law, self.values[None], grid, d0, self.gpus_per_node), grid)[0]

        coarse = self._grid(ANSWER_GRID)
        # sizes below d0 answer only a throughput the smallest run already gives: the all-reduce law carried below its
        # runs has no all-reduce at 1 device, and answered 2,000/s on runs of 1,000/s at 4 devices with '1 device'
        # (its 9,442/s there) where its own curve reaches it at 16
        if throughput is None or throughput > x0:
            coarse = np.unique(np.concatenate([[d0], coarse[coarse > d0]]))
        base = self.base_draws[:, None]
        answers = [answer(self._log_e_samples(coarse, r)[0], coarse, base[r]) for r in self._blocks(coarse.size)]
        lo, hi = self._band(np.concatenate(answers), axis=0)  # the plausible laws alike
        point = float(chosen(coarse))
        if math.isfinite(point):  # refine to the whole device between two grid points
            i = int(np.searchsorted(coarse, point))
            a = coarse[i - 1] if throughput is not None and i > 0 else point
            b = coarse[i + 1] if efficiency is not None and i + 1 < coarse.size else point
            fine = np.arange(a, b + 1)
            point = float(chosen(fine)) if fine.size > 1 else point
        if math.isfinite(point):  # the resampled bounds sit on the ~1 % grid, the answer on whole devices: a band
            lo, hi = min(lo, point), max(hi, point)  # narrower than the grid once missed it (434 [435, 435])
        # below d0 (a throughput the smallest run beat) the law runs backwards from the runs: said, as predict says it
        far = []
        if math.isfinite(point):
            far = self._below_warnings([point]) + self.extrapolation_warnings([point], "needed" if efficiency is None
                                                                              else "kept")  # fmt: skip
        # why no size answers (None where one does): a target past the law's peak, or above the most it gives at any
        # size, is unreachable; a law still rising (or E still above the minimum) at the search's cap may answer
        # beyond it — the two read alike as ∞, and the report's 'unreachable' under 'keeps rising' contradicted it
        reason = None
        if not math.isfinite(point):
            unreachable = throughput is not None and self._never_gives(throughput)
            reason = "unreachable" if unreachable else "beyond_search_cap"
        # whole devices as ints (the grid and the refined point are whole; ∞ stays a float, null in JSON): `fit
        # --json` said "devices": 79.0, which range() refuses, where every other command's devices are integers
        return {"devices": _count(point), "lo": _count(lo), "hi": _count(hi), "reason": reason, "warnings": far}

    def _never_gives(self, throughput: float) -> bool:
        """Whether no size reaches `throughput` at the fitted parameters: the law peaks (below it, as no size up to
        the cap reached it), or its throughput rises to a bound below it — Amdahl's X1/s, a USL with κ = 0 —
        (`usl_ceiling`); the all-reduce law rises without bound."""
        if math.isfinite(self._peak_of(self.values[None])[0]):
            return True
        if self.law not in ("amdahl", "usl"):
            return False
        sigma, kappa = float(self.values[0]), float(self.values[1]) if self.law == "usl" else 0.0
        return throughput >= self.per_device_throughput * usl_ceiling(sigma, kappa, self.baseline_devices)

    def _band(self, x: Any, axis: int) -> tuple[Any, Any]:
        """The central `confidence` interval of the resampled x along `axis` (its quantiles, as drawn)."""
        a = (1 - self.confidence) / 2
        return (
            np.quantile(x, a, axis=axis, method="inverted_cdf"),
            np.quantile(x, 1 - a, axis=axis, method="inverted_cdf"),
        )

    @property
    def search_cap(self) -> int:
        """Largest size the peak and devices_for search: 2^20, or 4× the largest measured size when that is
        further (at most MAX_DEVICES). A fixed 2^20 answered "unreachable" for a throughput runs at 1.5 million
        devices had measured, and "no peak up to 1,048,576" below the runs themselves."""
        return int(min(MAX_DEVICES, max(PEAK_CAP, EXTRAPOLATE * self.runs.devices[-1])))

    def _grid(self, n: int) -> Any:
        return np.unique(np.round(np.geomspace(1, self.search_cap, n)))

    # -- step-time view ---------------------------------------------------------------------------
    def seconds(self) -> dict[str, float] | None:
        """With step times and the all-reduce law: compute time, S/B and α in seconds, each with its interval
        (`*_lo`, `*_hi`: the parameters' refits, each with the compute time it implies). They had none: 'α 4.1e-4'
        beside a latency share whose interval reached 0."""
        if self.runs.step_time is None or self.law != "allreduce":
            return None
        f0 = self._law.basis(np.asarray([float(self.baseline_devices)]), self.gpus_per_node)[:, 0]
        t_c = self.runs.step_time[0] / float(step_ratio(self.values, f0))
        a, b = self.values
        unseen = 0 in self.unseen()
        transfer = math.nan if unseen else float(a) * t_c  # unseen: it is inside compute_s
        t_r = self.runs.step_time[0] / step_ratio(self.samples, f0)  # (B,) each refit's compute time
        lo, hi = self._band(np.column_stack([t_r, self.samples * t_r[:, None]]), axis=0)
        point = (t_c, transfer, float(b) * t_c)  # the band holds its point, as the parameters' do
        lo, hi = np.fmin(lo, point), np.fmax(hi, point)
        out = {"compute_s": t_c, "transfer_s": transfer, "latency_s": float(b) * t_c}
        for j, key in enumerate(("compute_s", "transfer_s", "latency_s")):
            nan = unseen and key == "transfer_s"
            out[f"{key}_lo"], out[f"{key}_hi"] = (math.nan, math.nan) if nan else (float(lo[j]), float(hi[j]))
        return out

    def report(self, at: Any = None, target_throughput: float | None = None, min_efficiency: float | None = None,
               unit: str | None = None) -> dict[str, Any]:  # fmt: skip
        """What `dpscale fit --json` prints, and `plan --efficiency-file` reads: the law, parameters, measured sizes
        against the law, predictions at `at` (default: measured, 2×, 4×), the peak, the devices for a target
        throughput or a minimum E where asked, the warnings, and the unit (default: the runs', else samples/s)."""
        from dpscale.sources.fit_report import report

        return report(self, at, target_throughput, min_efficiency, unit)

    def summary(self) -> str:
        """A few lines for people: law, criterion, runner-up, parameters, warnings."""
        pct = f"{100 * self.confidence:g} %"
        lines = [f"law: {self.law} — chosen by {self.criterion}"]
        if self.runner_up:
            c = self.candidates[self.runner_up]
            lines.append(f"runner-up: {self.runner_up} (leave-one-out RMSE {_num(c.loo_rmse)})")
        lines.append(f"E relative to the smallest measured size, d0 = {self.baseline_devices}")
        if self.unit:
            lines.append(f"throughput in {self.unit}, as the runs state it")
        repeats = f" ({self.runs.repeat_dof} degrees of freedom from repeated runs)" if self.runs.repeat_dof else ""
        lines.append(f"run-to-run noise σ = {100 * self.noise:.2g} %{repeats}")
        for p in self.parameters.values():
            lines.append(f"  {p.name} = {_g(p.value)}  [{_g(p.lo)}, {_g(p.hi)}] ({pct}, {p.what})")
        lines += [f"warning: {w}" for w in self.warnings]
        return "\n".join(lines)


def _num(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{x:.4f}"


def _g(x: float, missing: str = "n/a") -> str:
    """A parameter value to 4 significant digits; `missing` for one not estimated (nan: E relative to d0 cannot
    see it), which read 'nan' in describe() and summary()."""
    return missing if math.isnan(x) else f"{x:.4g}"


def _loo(prob: Problem, y: Any, q: Any, scored: Any) -> float:
    """RMSE in log E of each scored point above d0 predicted from a fit without it (batched refits).

    NaN unless every such fit is determined (points left ≥ parameters) and some point is scored: a score the ridge
    alone decided would say nothing about the law."""
    m = y.size
    if m - 1 < prob.law.k or not scored.any():
        return math.nan
    w = 1.0 - np.eye(m)
    qs = fit_batch(prob, np.broadcast_to(y, (m, m)), w, q)
    pred = np.diagonal(prob.model(qs)[0])
    return float(np.sqrt(np.mean((pred - y)[scored] ** 2)))


def _scored(d: Any, g: int | None) -> Any:
    """Which points above d0 leave-one-out scores, the same for every law: not a run that is alone in its regime
    (within one node, or across nodes when the GPUs per node are known). Without it no refit sees that regime —
    the all-reduce law's network term is then set by its ridge, while Amdahl or USL carry the decline inside a node
    on — so the fold compared how laws guess, not how they fit. (GluonNLP BERT-base on 1-16 V100s, 8 a node: 16 is
    the one run across nodes; scored, it had Amdahl chosen, predicting E(32) 0.60 for a measured 0.76 — the
    all-reduce law says 0.80.)"""
    across = d[1:] > g if g else np.zeros(d.size - 1, dtype=bool)
    return np.where(across, across.sum(), (~across).sum()) > 1


def choose(candidates: dict[str, Candidate], forced: str | None) -> tuple[str, str | None, str]:
    """The law: the forced one; else the all-reduce law, unless rivals cut its leave-one-out MSE to SWITCH of it —
    then the best-scoring of those rivals (ties in ORDER; scores below LOO_FLOOR tie)."""
    names = [n for n in ORDER if n in candidates]

    def score(n: str) -> float:
        s = candidates[n].loo_rmse
        return max(s, LOO_FLOOR) if math.isfinite(s) else math.inf

    if forced:
        others = sorted((n for n in names if n != forced), key=lambda n: (score(n), ORDER.index(n)))
        return forced, others[0] if others else None, Note("fit_why_forced", law=forced)
    best = names[0]
    if not math.isfinite(score(best)):
        why = Note("fit_why_default")
    else:
        why = Note("fit_why_loo", share=round(1 / SWITCH))  # (the text says the SWITCH in force)
        rivals = [n for n in names[1:] if score(n) ** 2 < SWITCH * score(best) ** 2]
        if rivals:
            best = min(rivals, key=lambda n: (score(n), ORDER.index(n)))
    runner = sorted((n for n in names if n != best), key=lambda n: (score(n), ORDER.index(n)))[0]
    return best, runner, why


def _one(x: Any, name: str) -> Any:
    """errors.one's number where x is one (np.array(100), [100], Decimal('100')); else x as given, which fit's own
    check refuses with its range (a time, a bool array, two values: 'allowed: a whole number from 50 to 100,000')."""
    try:
        return one(x, name)
    except DpscaleError:
        return x


def _whole(x: Any) -> bool:
    """An int, numpy's too, or a whole float as gpus_per_node takes it (resamples=100.0 was refused as 'got 100')."""
    if isinstance(x, bool) or not isinstance(x, Real) or getattr(getattr(x, "dtype", None), "kind", None) in ("m", "M"):
        return False  # (numpy's timedelta64 is an Integral: seed=np.timedelta64(8, 's') raised int()'s TypeError)
    return isinstance(x, Integral) or float(x).is_integer()


def check_cells(resamples: int, sizes: int, what: str = "devices", knob: str = "resamples") -> None:
    """Each interval array of `predict` (and the bootstrap's redraws of the measured sizes) is resamples × sizes
    floats, and a few live at once: bound them, so a large request is one clear error rather than the process
    killed for memory (1,000 measured sizes × 100,000 resamples ran for 172 s). Named as the library's parameters
    (`knob`, `what`); the CLI passes its flags (a library caller was told '--resamples × --at': review MU)."""
    if resamples * sizes > MAX_CELLS:
        raise DpscaleError(
            f"{knob} × {what}: {resamples:,} resamples × {sizes:,} sizes = {resamples * sizes:,} values; allowed: "
            f"at most {MAX_CELLS:,} (about 1 GB of working memory) — fewer resamples or sizes"
        )


def fit(
    runs: Any = None,
    *,
    devices: Any = None,
    throughput: Any = None,
    step_time: Any = None,
    law: str = "auto",
    gpus_per_node: Any = None,
    confidence: Any = DEFAULT_CONFIDENCE,
    resamples: Any = DEFAULT_RESAMPLES,
    seed: Any = DEFAULT_SEED,
    only: Mapping[str, Any] | None = None,
) -> Fit:
    """Fit the scaling laws to measured runs, choose one, and bootstrap its uncertainty.

    runs: a CSV / JSON-lines path, (devices, throughput[, step_time]) pairs or dicts, or a DataFrame whose
    columns name them; or give devices= and throughput= lists. throughput is the whole run's (samples/s of all
    devices together, as measured), unlike predict's and plan's per-device rate; step_time in seconds. law: "auto"
    or one of "allreduce", "usl", "amdahl". E is relative to the smallest measured size d0. only: of a `dpscale measure`
    file (or list of its records) holding several set-ups, the one to fit, as the CLI's --only picks it:
    {"workload": "cnn"}, {"zero": 1} (keys: workload, params, batch, backend, device, steps, threads, zero).

    Returns a Fit: `predict(d)` (throughput in the runs' unit and E at d, with prediction intervals),
    `devices_for(throughput=|efficiency=)`, `peak()`, `parameters`, `summary()`, and `efficiency(d)`, so it is an
    E source for `scale`, `solve` and `plan`."""
    law = choice(law, "law", ("auto", *ORDER))
    if gpus_per_node is not None:
        gpus_per_node = check_count(gpus_per_node, "gpus_per_node", MAX_GPUS_PER_NODE)
    # one number each, as every other one-number input is read (errors.one): np.array(100), [100] or Decimal('100')
    # was refused as 'resamples: got 100; allowed: a whole number from 50 to 100,000' (confidence's 'got 0.9; allowed:
    # a level in (0, 1), e.g. 0.9'), where gpus_per_node=np.array(8) is read (review MW)
    confidence, resamples, seed = (_one(x, k) for x, k in ((confidence, "confidence"), (resamples, "resamples"),
                                                           (seed, "seed")))  # fmt: skip
    # (the ignore: typeshed's numbers.Real declares no __lt__; every real has one, and 10**400 compares, not float())
    if isinstance(confidence, bool) or not isinstance(confidence, Real) or not 0 < confidence < 1:  # type: ignore[operator]
        raise fail("confidence", confidence, CONFIDENCE_ALLOWED)
    # (compared as ints: a float16's bound 100,000 or 2**32 - 1 overflowed its cast, a RuntimeWarning: review MU)
    if not _whole(resamples) or not RESAMPLES[0] <= int(resamples) <= RESAMPLES[1]:
        raise fail("resamples", resamples, f"a whole number from {RESAMPLES[0]} to {RESAMPLES[1]:,}")
    if not _whole(seed) or not SEEDS[0] <= int(seed) <= SEEDS[1]:  # None broke predict()
        raise fail("seed", seed, f"a whole number from {SEEDS[0]} to {SEEDS[1]:,}")
    resamples, confidence, seed = int(resamples), float(confidence), int(seed)  # numpy's int64 and float32 are fine
    r = runs_from(runs, devices, throughput, step_time, only)
    check_cells(resamples, len(r.devices) + 1, "measured sizes")  # each resample redraws every size and the baseline
    g = None if gpus_per_node is None else int(gpus_per_node)
    d = np.asarray(r.devices, dtype=float)
    x = np.asarray(r.throughput, dtype=float)
    y = np.log(relative_efficiency(x[1:], d[1:], x[0], d[0]))  # measured log E above d0

    candidates, scored = {}, _scored(d, g)
    for name in ORDER if law == "auto" else (law, *[n for n in ORDER if n != law]):
        prob = Problem(LAWS[name], d, g)
        q, rss = fit_point(prob, y)
        candidates[name] = Candidate(name, q, rss, _loo(prob, y, q, scored))
    chosen, runner, why = choose(candidates, None if law == "auto" else law)

    prob = Problem(LAWS[chosen], d, g)
    c = candidates[chosen]
    dof, noise = _noise(prob, c, r)
    rng = np.random.default_rng(seed)
    s = _sigma_draws(noise, dof, rng, resamples)
    drawn = _bootstrap(prob, c, s, rng, r)
    rivals, rival_bases = [], []
    if law == "auto":  # a law the user forced is theirs alone; a choice the data could not make widens the interval
        names = [
            n for n in ORDER if n != chosen and candidates[n].rss - c.rss < PLAUSIBLE * _log_e_variance(r) * noise**2
        ]
        for j, name in enumerate(names, start=1):  # resample i comes from law i mod L: draw only those rows
            rival, other, rows = Problem(LAWS[name], d, g), candidates[name], len(range(j, s.size, len(names) + 1))
            dof_r, sigma_r = _noise(rival, other, r)
            s_r = _sigma_draws(sigma_r, dof_r, rng, rows)
            p_r, base_r = _spread_split(rival, y, _bootstrap(rival, other, s_r, rng, r), s_r, rng, r, sigma_r)
            rivals.append((name, p_r, s_r))
            rival_bases.append(base_r)
    # the chosen law's rows, spread so that those the predictions read (every (1 + L)th: each rival drew the rest)
    # and all of them, which the parameters' intervals read, hold each split alike
    samples, base = _spread_split(prob, y, drawn, s, rng, r, noise, stride=1 + len(rivals))
    for j, base_r in enumerate(rival_bases, start=1):  # the rows each rival drew, as _log_e_samples reads them
        base[j :: 1 + len(rivals)] = base_r
    result = Fit(r, chosen, g, confidence, why, candidates, runner, noise, samples, s, base, _rng_seed=seed,
                 rivals=tuple(rivals))  # fmt: skip
    return replace(result, warnings=fit_warnings(result, y, dof))


def _spread_split(
    prob: Problem, y: Any, drawn: tuple[Any, Any], s: Any, rng: Any, runs: Runs, sigma: float, stride: int = 1
) -> tuple[Any, Any]:
    """A law's resamples (`_bootstrap`'s parameters and baseline draws), spread over the splits the runs
    cannot tell apart: with fewer points above d0 than terms, resample i comes from term i mod (k + 1) alone (0:
    the ridge's split), for each term that alone fits the runs within the noise. A USL forced on 1 → 8 at
    7,000/s gave E(32) in [0.33, 0.48] and a peak at 28 [24, 34], where σ alone (E(32) 0.61, no peak) and κ alone
    (0.28, a peak at 20) fit the runs exactly; now [0.26, 0.65] and [18, ∞]. stride: rows go to a term in blocks of
    that many (1 + the rival laws), so the rows the predictions read (one a block) and all the rows (the parameters'
    intervals) are spread alike — by i mod 3 beside two rivals, the predictions read the ridge's rows alone, and
    later the parameters a third of a third."""
    law = prob.law
    if law.k <= prob.d.size:  # a point per term: the runs decide the split
        return drawn
    samples, base = np.array(drawn[0], dtype=float), np.array(drawn[1], dtype=float)
    which = (np.arange(samples.shape[0]) // stride) % (law.k + 1)

    def term(j: int) -> Callable[[Any, int | None], Any]:
        return lambda d, g: law.basis(d, g)[j : j + 1]

    for j in range(law.k):
        alone = Law(law.name, law.params[j : j + 1], term(j), law.what[j : j + 1])
        sub = Problem(alone, np.concatenate([[prob.d0], prob.d]), prob.g)
        q, rss = fit_point(sub, y)
        if rss > PLAUSIBLE * _log_e_variance(runs) * sigma**2:  # this term alone misses the runs (σ: the law's)
            continue
        rows = which == j + 1
        p, base[rows] = _bootstrap(sub, Candidate(law.name, q, rss, math.nan), s[rows], rng, runs)
        samples[rows] = 0.0
        samples[rows, j] = p[:, 0]
    return samples, base


def _bootstrap(prob: Problem, c: Candidate, s: Any, rng: Any, runs: Runs) -> tuple[Any, Any]:
    """(B, k) parameters refitted to B resampled data sets, and (B,) each set's baseline draw (log, around the
    measured baseline): every measured size drawn with its resample's σ over √(its runs) (the baseline too), E
    recomputed relative to that baseline."""
    fitted = np.concatenate([[0.0], prob.model(c.q)[0]])  # log E at every measured size
    scale = s[:, None] / np.sqrt(np.asarray(runs.runs_per_size, dtype=float))
    draws = fitted + scale * rng.standard_normal((s.size, prob.d.size + 1))
    y_star = draws[:, 1:] - draws[:, :1]
    return prob.params(fit_batch(prob, y_star, np.ones_like(y_star), c.q)), draws[:, 0]


def _noise(prob: Problem, c: Candidate, runs: Runs) -> tuple[int, float]:
    """(degrees of freedom, σ of one run's log throughput): the residuals' estimate pooled with the repeated
    runs' spread and the 1 % prior.

    Size i's value is the mean of n_i runs and every log E shares the baseline's, so the residual covariance is
    σ²(diag(1/n) + 11ᵀ/n0) and, for the linearised fit with hat matrix H over its free parameters,
    E[RSS] = σ²·(Σ M_ii/n_i + 1ᵀM1/n0), M = I − H — not 2σ²·(m − k): the shared baseline error is partly absorbed
    by the fit. Repeated runs add their own spread, Σ (runs − 1) degrees of freedom: with 3–4 sizes the residuals
    have 1–2, too few to tell 1 % noise from 3 %, and the prior alone under-covers noisy data
    (benchmarks/bench_fit_coverage.py)."""
    n = np.asarray(runs.runs_per_size, dtype=float)
    _, t, t0 = prob.model(c.q)
    # parameters at their bound 0 are not free: below AT_BOUND, where the solver leaves a bound term (3e-24 for the
    # same runs given twice over, 0 once: σ 3.2 % against 2.8 %, as the notes and `values` already read it)
    j = log_ratio_jacobian(prob.f, prob.f0, t, t0)[:, c.q >= AT_BOUND]
    m = j.shape[0]
    resid = np.eye(m) - (j @ np.linalg.pinv(j) if j.size else 0.0)
    dof = m - (np.linalg.matrix_rank(j) if j.size else 0)
    expected = float(np.diag(resid) @ (1.0 / n[1:]) + resid.sum() / n[0])  # E[RSS] / σ²
    num, den = NOISE_PRIOR_WEIGHT * NOISE_PRIOR**2 + runs.repeat_ss, NOISE_PRIOR_WEIGHT + runs.repeat_dof
    if dof == 0 or expected <= 1e-12:  # an exact fit: the residuals say nothing about the noise
        dof = 0
    else:
        num, den = num + dof * c.rss / expected, den + dof
    return dof + runs.repeat_dof, math.sqrt(num / den)


def _sigma_draws(sigma: float, dof: int, rng: Any, n: int) -> Any:
    """n draws of the noise σ, one a resample: σ is estimated from few residuals, so each resample draws its own
    from the posterior, σ²·ν/χ²_ν with ν = dof + the prior's weight, which widens the intervals as a t distribution
    would."""
    nu = dof + NOISE_PRIOR_WEIGHT
    return sigma * np.sqrt(nu / rng.chisquare(nu, n))


def _log_e_variance(runs: Runs) -> float:
    """Variance of one measured log E in units of σ²: its size's mean and the baseline's (2 with single runs)."""
    n = np.asarray(runs.runs_per_size, dtype=float)
    return float(np.mean(1.0 / n[1:]) + 1.0 / n[0])


def _count(x: Any) -> int | float:
    """A whole number of devices as an int; ∞ as a float (JSON's null)."""
    x = float(x)
    return int(x) if math.isfinite(x) else x


__all__ = ["Fit", "FitPrediction", "Param", "fit"]
