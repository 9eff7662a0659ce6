"""Solving the scaling formulas backwards: given three of devices, per-device throughput, efficiency and actual
throughput (or speedup), `solve` finds the fourth.

The forward formulas (A = d·v·E and the rest) live in `formulas.scaling`; solving them for A or S is `scale`
itself, and for v one division. Finding d is a search: the smallest whole size whose d·E(d) reaches the target,
searched as the E source allows (d = S/E for one number, the listed sizes of a PerSize table, powers of two
then bisection for a law, a fit or a prediction, down to the exact fractional size where E is defined between
whole sizes). Those searches and the refusals that speak of them (a target past the peak, beyond the table, more
devices than MAX_DEVICES, an E that is a unit slip) are this module's; every answer is then one `scale` result.
"""

from __future__ import annotations

import math
from collections import namedtuple

from dpscale.errors import MAX_DEVICES, DpscaleError, check_devices, check_efficiency, check_positive, fail, is_array
from dpscale.formulas.scaling import (
    MAX_SOLVED_E,
    ONE_E_SOURCE,
    REPEAT_SPREAD_E,
    UNIT_SLIP,
    _check_one_device,
    _finite_compute,
    _one_at,
    apart,
    check_baseline,
    constant_efficiency,
    efficiency_at,
    is_number,
    past,
    past_max_e,
    same_fields,
    scale,
    short_repr,
    size_said,
)
from dpscale.notes import ASTRONOMICAL, Note, figure, sizes_shown

# below it a speedup written to two decimals has no digit of its own (the slower-than-one note): 0.00× under 0.005,
# and 0.01× for all of 0.005 to 0.0099 — 0.005 read back as 0.01×, its own double, beside its ratio 0.005
TINY_SPEEDUP = 0.01

TYPE_CHECKING = False  # typing is kept off the start-up path (calc solves)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# relative noise of A/v or d·E: a size within it of the target reaches it (80/3 = 26.67·3 ≠ 80). --json prints 12
# significant digits (faces.output.clean), up to 5e-12 off each; a record's v, E and A solved back combine three
# (1e-12 asked one device more: Amdahl's 16 devices printed 29,976.5807963/s, said back as 16.00000000003 → 17)
NOISE = 5e-11


if TYPE_CHECKING:  # the fields' types, for a typed caller; at run time the namedtuple below (typing stays unloaded)
    from typing import NamedTuple

    from dpscale.formulas.scaling import ScaleResult

    class _SolutionFields(NamedTuple):
        solved: str  # which input was found: "devices", "per_device_throughput", "efficiency", …
        exact: Any  # its value (devices before rounding up); an array for a forward solve of several sizes
        result: ScaleResult
        notes: tuple[Note, ...] = ()
else:
    _SolutionFields = namedtuple("Solution", ("solved", "exact", "result", "notes"), defaults=((),))


class Solution(_SolutionFields):
    """Answer of an inverse problem: which input was solved, its exact value, and the full result."""

    __slots__ = ()

    def __repr__(self) -> str:  # a forward solve's `exact` is an array of every size: cut as its result's
        return short_repr(self, self._fields)

    def __eq__(self, other: object) -> bool:  # a forward solve's arrays by value, as ScaleResult's
        return same_fields(self, other, self._fields)

    __ne__ = object.__ne__
    __hash__ = tuple.__hash__

    def record(self) -> dict[str, Any]:
        """The solved case as one plain dict (forward solves over several sizes: `records`)."""
        rows = self.records()
        if len(rows) != 1:  # it once returned the first of several rows and dropped the rest
            raise DpscaleError(f"record: {len(rows)} rows; allowed: one solved case — use records() for several")
        return rows[0]

    def records(self) -> list[dict[str, Any]]:
        """One plain dict per size, each saying what was solved."""
        return [self._mark(rec) for rec in self.result.records()]

    def _mark(self, rec: dict[str, Any]) -> dict[str, Any]:
        rec["solved"] = self.solved
        if self.solved == "devices":
            rec["devices_exact"] = self.exact
        if self.notes:
            rec["notes"] = list(self.notes)
        return rec


SUPERLINEAR = Note("superlinear", spread=REPEAT_SPREAD_E)  # E > 1.02 (review MH: said "E > 1")
WITHIN_SPREAD = Note("within_spread", spread=REPEAT_SPREAD_E)  # 1 < E ≤ 1.02: not superlinear


# a note one size's solve says of itself, and the note a sweep says once, naming the sizes it holds at
SWEPT = {"superlinear": "superlinear_sizes", "within_spread": "within_spread_sizes"}


def sweep_notes(records: list[dict[str, Any]]) -> list[Note]:
    """The notes of one solve per size (calc's sweep: `Solution.record()`s), each said once; an E above 1 names the
    sizes it was measured at ('E above 1 at 8 and 64 devices by no more than a repeat's spread …'), where calc said
    it once under the whole table, of no size (review MO). One record's notes are its own: that size's."""
    said: dict[str, list[int]] = {}  # a swept note's sizes, by its key (which holds its place in `out`)
    out: list[Any] = []
    for r in records:
        for note in r.get("notes", ()):
            key = getattr(note, "key", "")
            if len(records) > 1 and key in SWEPT:
                out += [] if key in said else [key]
                said.setdefault(key, []).append(r["devices"])
            elif note not in out:
                out.append(note)
    return [Note(SWEPT[n], sizes=sizes_shown(said[n]), spread=REPEAT_SPREAD_E) if n in said else n for n in out]


def solve(
    devices: Any = None,
    per_device_throughput: Any = None,
    efficiency: Any = None,
    actual_throughput: Any = None,
    speedup: Any = None,
) -> Solution:
    """Given three of devices / per-device throughput / efficiency / actual throughput (or speedup),
    find the fourth. Devices are rounded up to a whole device; the exact value is kept.

    per_device_throughput is one device's rate alone (samples/s), actual_throughput the whole cluster's in
    the same unit, speedup = actual / per-device. One case per call (the CLI loops over sizes). efficiency is a
    number or an E(d) source (a law, a fit, a prediction, a PerSize table, a function of d).

    Returns a Solution: `solved` (which input was found), `exact` (its value; devices before rounding up),
    `result` (the ScaleResult there: actual_throughput, speedup, …), `notes`, and `record()`/`records()`."""
    unknown, target = _unknown(devices, per_device_throughput, efficiency, actual_throughput, speedup)
    if unknown in ("actual_throughput", "speedup"):
        result = scale(devices, per_device_throughput, efficiency)  # nothing to invert: the forward formulas
        return Solution(unknown, getattr(result, unknown), result)
    is_speedup = speedup is not None
    if unknown == "efficiency":
        return _solve_efficiency(devices, per_device_throughput, target, is_speedup)
    if unknown == "per_device_throughput":
        return _solve_per_device(devices, efficiency, target, is_speedup)
    return _solve_devices(per_device_throughput, efficiency, target, is_speedup)


def _unknown(devices: Any, v: Any, efficiency: Any, actual_throughput: Any, speedup: Any) -> tuple[str, Any]:
    """The one input left out, and the target as one number > 0: a call's first checks, whatever it solves."""
    if actual_throughput is not None and speedup is not None:
        raise DpscaleError("actual_throughput and speedup: give one of them, not both (A = S·v)")
    target_name = "actual_throughput" if speedup is None else "speedup"
    target = actual_throughput if speedup is None else speedup
    given = {"devices": devices, "per_device_throughput": v, "efficiency": efficiency, target_name: target}
    missing = [k for k, x in given.items() if x is None]
    if len(missing) != 1:
        names = ", ".join(given)
        raise DpscaleError(f"solve: got {4 - len(missing)} of {names}; allowed: exactly three (the fourth is solved)")
    if target is not None:
        target = check_positive(target, target_name, "a finite number > 0")
        target = _scalar(target, target_name)  # a one-element array is its number
    return missing[0], target


def _solve_efficiency(devices: Any, v: Any, target: float, is_speedup: bool) -> Solution:
    """E = S / d, refused where it is no efficiency: not finite and > 0, not 1 on one device, past MAX_SOLVED_E."""
    d = _one_size(devices)
    v, s = _rate_and_speedup(v, target, is_speedup)
    e = s / d
    if not (math.isfinite(e) and e > 0):  # 1e308 samples/s from 1e-320 per device on 8: ∞
        raise DpscaleError(f"efficiency: comes to {e:.4g} from these inputs; allowed: realistic magnitudes")
    if d == 1 and not math.isclose(e, 1.0, rel_tol=1e-9):  # scale() holds E(1) = 1: A is v there
        raise DpscaleError(
            f"efficiency: comes to {past(e, 1.0)} on one device, where E is 1 by definition (its actual "
            "throughput is its per-device throughput); allowed: two or more devices, or the same rate for both"
        )
    if past_max_e(e):
        raise DpscaleError(
            f"efficiency: comes to {past(e, MAX_SOLVED_E)} from these inputs (a speedup of {s:.4g}× on {d:,} "
            "devices); "
            f"allowed: at most {MAX_SOLVED_E:g} — {UNIT_SLIP}"
        )
    # (an E up to a repeat's spread above 1 is noise, as plan --efficiency-file and measure read it: review MC)
    notes: tuple[Note, ...] = (SUPERLINEAR,) if e > REPEAT_SPREAD_E else (WITHIN_SPREAD,) if e > 1 else ()
    if d > 1 and s < 1:  # slower than one device: a per-device rate typed as the cluster's (or the reverse), an E as S
        slip = "slower_than_one_speedup" if is_speedup else "slower_than_one"
        # as many decimals as tell it from 1: two said 0.9994 as '1.00×' beside 'slower than one device', and a
        # ceiling of 12 said 0.99999999999999 as '1.000000000000×' (16 tell any float under 1 from it); far under
        # one, three significant digits, as e3 writes a tiny E: 1e-9 read '0.00×' and a ratio '0.000'
        tiny = s < TINY_SPEEDUP
        places, decimals = (3, 3) if tiny else (apart(s, 1.0, 2, 17), apart(s, 1.0, 3, 17))
        # (an E typed as S is read back with the digits that tell it from 1, d·E from d: {s:g} said 0.9999995 as
        # 'if 1 is E, the speedup is 2×', perfect scaling on 2 devices)
        sig, wsig = apart(s, 1.0, 6, 17, "g"), apart(d * s, float(d), 4, 17, "g")
        kind = "g" if tiny else "f"
        notes = (
            Note(slip, s=s, d=d, ratio=s, whole=d * s, places=places, decimals=decimals, kind=kind, sig=sig, wsig=wsig),
        )
    return Solution("efficiency", e, _finite_compute(d, v, e), notes)


def _solve_per_device(devices: Any, efficiency: Any, target: float, is_speedup: bool) -> Solution:
    """v = A / (d·E): only an actual throughput carries v, a speedup does not."""
    if is_speedup:
        raise DpscaleError(
            "per_device_throughput: cannot be solved from a speedup (S = d·E does not involve it); "
            "allowed: give actual_throughput instead"
        )
    d = _one_size(devices)
    if not is_number(efficiency):
        check_baseline(efficiency, d)
    e = _efficiency_of(efficiency, d)
    v = target / (d * e)
    if not (math.isfinite(v) and v > 0 and math.isfinite(v * d)):  # 1e308 from E = 0.5 on 2: ∞ per device
        raise DpscaleError(f"per_device_throughput: comes to {v:.4g} from these inputs; allowed: realistic magnitudes")
    return Solution("per_device_throughput", v, _finite_compute(d, v, e))


def _solve_devices(v: Any, efficiency: Any, target: float, is_speedup: bool) -> Solution:
    """The smallest whole d whose speedup reaches the target, searched as the E source allows."""
    v, s_target = _rate_and_speedup(v, target, is_speedup)
    if math.isinf(s_target):  # A / v past floating point: a law's search said the target back as 'inf/s'
        raise _too_many(s_target)
    if isinstance(efficiency, type):
        efficiency_at(efficiency, 1)  # (its error)
    fn = getattr(efficiency, "efficiency", efficiency)
    said_v = None if is_speedup else v  # a throughput target's errors speak in throughput
    if hasattr(efficiency, "table"):  # a PerSize table: only its sizes have an E
        d, exact = _devices_in_table(efficiency.table, s_target, said_v)
        e = 1.0 if d == 1 else dict(efficiency.table)[d]
    elif callable(fn):
        smooth = getattr(efficiency, "continuous", False)  # laws, fits, predictions; not tables or bare functions
        # a source that predicts no size past its reach (a one-node prediction given no network) is searched to there:
        # the powers of two asked 8 of 6-GPU nodes, refused, where 5 devices reach 450/s at 100/s each
        reach = getattr(efficiency, "reach", None)
        cap = MAX_DEVICES if reach is None else min(MAX_DEVICES, int(reach))
        d, exact = _devices_for_speedup(fn, s_target, said_v, cap=cap, smooth=smooth)
        check_baseline(efficiency, d)
        e = _efficiency_of(efficiency, d)
    else:
        if not (is_number(efficiency) or is_array(efficiency) or isinstance(efficiency, (list, tuple, range))):
            raise fail("efficiency", efficiency, ONE_E_SOURCE)  # text, a dict (several E: 'one number when solving')
        d, exact, e = _devices_at_constant(efficiency, s_target)
    notes: tuple[Note, ...] = ()
    if abs(d - exact) > NOISE * max(exact, 1.0):  # float noise (3.0000000000004) is no rounding
        # as many decimals as show the fraction: 555,555.56 (not '555556', which read as d itself), 100,000.00008
        places = apart(exact, round(exact), 2, 12)
        notes = (Note("rounded_up", exact=exact, d=d, places=places),)
    return Solution("devices", exact, _finite_compute(d, v, e), notes)


def _devices_at_constant(efficiency: Any, s_target: float) -> tuple[int, float, float]:
    """d = S / E for one E at every size (whole d, exact d, E there): no search needed."""
    e = _scalar(check_efficiency(efficiency), "efficiency")
    exact = s_target / e if s_target > 1 else s_target  # one device reaches S ≤ 1 alone, at E(1) = 1
    e = constant_efficiency(e, 1 if s_target <= 1 else 2)
    if not exact <= MAX_DEVICES * (1 + NOISE):  # (the d = 10,000,000 that scale() printed, solved back)
        raise _too_many(exact)
    d = max(1, math.ceil(exact - NOISE * exact))  # (rounding noise only: 1e-9 once let 100,000.00008 round down)
    return d, exact, e


def _too_many(exact: float) -> DpscaleError:
    """More devices needed than MAX_DEVICES, ∞ written as the tables write it (1e300/s at 1e-300 said 'inf')."""
    # whole and grouped as the tables count devices (1e9 read '1e+09'); an astronomical count keeps its exponent
    need = "∞" if math.isinf(exact) else f"{math.ceil(exact):,}" if exact < ASTRONOMICAL else f"{exact:.4g}"
    return DpscaleError(
        f"devices: {need} needed; allowed: at most {MAX_DEVICES:,} — check the target and the throughput"
    )


def _one_size(devices: Any) -> Any:
    """d as one checked device count: solving reads one case, not a sweep."""
    return _scalar(check_devices(devices, "devices", MAX_DEVICES), "devices")


def _rate_and_speedup(v: Any, target: float, is_speedup: bool) -> tuple[Any, float]:
    """v as one checked number, and the target as a speedup (S = A / v): what solving for E or d needs."""
    v = _scalar(check_positive(v, "per_device_throughput"), "per_device_throughput")
    return v, target if is_speedup else target / v


def _efficiency_of(efficiency: Any, d: Any) -> Any:
    """E at the one size d, checked, and 1 there at one device (a law or table saying otherwise is refused)."""
    e = _scalar(check_efficiency(efficiency_at(efficiency, d)), "efficiency")
    _check_one_device(e, d)
    return e


def _reaches(speedup: float, target: float) -> bool:
    return speedup >= target * (1 - NOISE)


def _scalar(x: Any, name: str) -> Any:
    if is_array(x) and x.size != 1:
        raise DpscaleError(f"{name}: got {x.size} values; allowed: one number when solving")
    return x.item() if is_array(x) else x


def _devices_for_speedup(
    fn: Callable[[Any], Any], s_target: float, v: float | None = None, cap: int = MAX_DEVICES, smooth: bool = False
) -> tuple[int, float]:
    """Smallest whole d with d·E(d) ≥ target, for E(d) making d·E(d) unimodal (Amdahl, USL, fits).
    v: the per-device throughput when the target was a throughput, so errors speak in it too.
    smooth: E is defined between whole sizes, so the exact size is its root; else a straight line between two."""

    def s(d: float) -> float:
        # one number (as scale reads a function: _one_at) > 0 at each size asked, named if not: a function giving
        # nan was searched through ('peaks at nan/s with 1 devices'), 0 or −0.5 beyond one device 'not reached' or
        # 'peaks at 1 device' (E above 1 stays: a fit from a d0 > 1 says so itself)
        e = check_positive(
            _one_at(fn(d), d), "efficiency", f"a scaling efficiency in (0, 1] (E(d) at d = {size_said(d)})"
        )
        return d * e

    def said(speedup: float) -> str:
        return _said(speedup, v)

    def missed(speedup: float) -> str:  # beside the target: 1.9999998 under Amdahl(0.5), not '2' against 2
        return _said(speedup, v, _apart(speedup, s_target, v))

    s1 = s(1)  # (checked as every size is: float(fn(1)) raised TypeError for a function giving [1.0])
    if _reaches(s1, s_target):
        return 1, s_target / s1
    lo, hi, best_d, best = 1, 2, 1, s1  # search powers of two
    while hi <= cap:
        sh = s(hi)
        if _reaches(sh, s_target):
            break
        if sh > best:
            best_d, best = hi, sh
        lo, hi = hi, hi * 2
    else:
        # No power of two reached it; the peak may still lie between two of them.
        peak_d, peak = _peak(s, max(1, best_d // 2), min(cap, best_d * 2))
        if cap < MAX_DEVICES and not _reaches(peak, s_target):  # the source's reach, not the curve, ends the search
            within = f"{cap:,} device{'s' * (cap > 1)}"
            raise DpscaleError(
                f"target {said(s_target)}: not reached within {within} ({missed(peak)} at most), the most this E(d) "
                "predicts; allowed: a target reached there, or a prediction given the network past its node "
                "(system= or inter_bw_gbs=)"
            )
        # still rising at the cap: no peak, just too far (a speedup flat up to the cap is a peak: more devices add
        # nothing, so 'not reached within 10,000,000 devices' sent the user after more of them)
        if not _reaches(peak, s_target) and s(cap) > s(cap // 2):
            raise DpscaleError(
                f"target {said(s_target)}: not reached within {cap:,} devices ({missed(s(cap))} there); "
                "allowed: a target this E(d) reaches at a buildable size"
            )
        if not _reaches(peak, s_target):
            top = figure(peak, _apart(peak, s_target, None))
            raise DpscaleError(
                f"target {said(s_target)}: unreachable — under this E(d) "
                + (f"throughput peaks at {missed(peak)}" if v else f"the speedup peaks at {top}×")
                + f" with {peak_d} devices; allowed: a target at or below the peak"
            )
        lo, hi = 1, peak_d
    while hi - lo > 1:  # s(lo) < target ≤ s(hi), s rising on [lo, hi]: bisect
        mid = (lo + hi) // 2
        if _reaches(s(mid), s_target):
            hi = mid
        else:
            lo = mid
    if math.isclose(s(hi), s_target, rel_tol=NOISE):
        return hi, float(hi)
    if not smooth:  # a table or a function of whole sizes: nothing is known between them
        return hi, lo + (s_target - s(lo)) / (s(hi) - s(lo))
    a, b = float(lo), float(hi)  # the exact size: bisect the law itself between the two whole sizes
    for _ in range(60):  # (a linear interpolation erred by 0.002 devices on a USL: 40,001/s for 40,000)
        m = 0.5 * (a + b)
        a, b = (a, m) if s(m) >= s_target else (m, b)
    return hi, b


def _devices_in_table(table: tuple[tuple[int, float], ...], s_target: float, v: float | None) -> tuple[int, float]:
    """Smallest listed size whose d·E reaches the target (one device reaches 1 alone), and the exact size by a
    straight line between the two listed sizes around it: the search by powers of two asked a table for sizes
    it does not list ('no value for 2 devices')."""
    points = sorted({1: 1.0, **{d: d * e for d, e in table}}.items())
    for (lo, s_lo), (hi, s_hi) in zip([(0, 0.0), *points], points):
        if _reaches(s_hi, s_target):
            if hi == 1:  # one device alone reaches a speedup ≤ 1
                return 1, s_target
            if math.isclose(s_hi, s_target, rel_tol=NOISE):
                return hi, float(hi)
            return hi, lo + (s_target - s_lo) / (s_hi - s_lo) * (hi - lo)
    d, top = max(points, key=lambda p: p[1])
    raise DpscaleError(
        f"target {_said(s_target, v)}: beyond this table (its best is {_said(top, v)} at {d:,} devices); allowed: "
        "a target the listed sizes reach, or a law that extrapolates (fit)"
    )


def _said(speedup: float, v: float | None, digits: int = 6) -> str:
    """'speedup 61.4' or, for a throughput target, '122,829/s (speedup 61.4)'."""
    said = f"speedup {figure(speedup, digits)}"
    return said if v is None else f"{figure(speedup * v, digits)}/s ({said})"


def _apart(speedup: float, target: float, v: float | None) -> int:
    """The significant digits (6 or more) at which a speedup that missed the target prints apart from it, in
    throughput as well where the target was one."""
    return max(apart(speedup, target, 6, 17, "g"), apart(speedup * v, target * v, 6, 17, "g") if v else 6)


def _peak(s: Callable[[int], float], lo: int, hi: int) -> tuple[int, float]:
    while hi - lo > 2:
        m1, m2 = lo + (hi - lo) // 3, hi - (hi - lo) // 3
        if s(m1) < s(m2):
            lo = m1
        else:
            hi = m2
    d = max(range(lo, hi + 1), key=s)
    return d, s(d)


__all__ = ["Solution", "solve"]
