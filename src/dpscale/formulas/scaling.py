"""The data-parallel scaling formulas — the one place they live.

With d devices, per-device throughput v (samples/s alone) and scaling efficiency E:
    ideal  I = d·v          actual  A = d·v·E          speedup  S = A/v = d·E
    lost   I − A            effective devices  d·E
Everything else in dpscale (CLI, web, planners, predictors) calls these functions.
They take Python numbers or numpy arrays (broadcast together) and import numpy only when an
input is an array already, so the calculator starts fast.
"""

from __future__ import annotations

import math
from collections import namedtuple

from dpscale.errors import (
    MASKED,
    MAX_DEVICES,
    DpscaleError,
    as_number,
    check_devices,
    check_efficiency,
    check_positive,
    counted,
    counts_and_least,
    fail,
    is_array,
    one,
    one_length,
    renamed,
    unmasked,
)
from dpscale.notes import Note

TYPE_CHECKING = False  # typing and dataclasses are kept off the start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


# An efficiency ("efficiency" arguments below) is a number, an array matching the devices, or a
# function of d (a law, a fit, a prediction): anything with `efficiency(d)` or callable on d.

# A solved or measured E above this is a unit slip (samples/s against tokens/s, a total for a per-device rate),
# not cache effects: published superlinear runs reach E = 1.13 (validation/holdout_more4.csv, 4 devices).
MAX_SOLVED_E = 2.0
ONE_DEVICE_E = "E = 1 at one device, its own reference (a single number is held at 1 there)"
UNIT_SLIP = "a larger E is a unit slip (tokens/s against samples/s, a cluster total per device), not cache effects"


# What an efficiency argument may be, said where it is none of them (text, a dict, None): 'allowed: a number' named
# neither the tables nor the E(d) sources every one of them takes, and a dict of E per size is a PerSize
E_SOURCES = (
    "a number in (0, 1], one per size (a list or an array), or an E(d) source: a law (USL, Amdahl), a fit, a "
    "prediction, a PerSize table (PerSize({8: 0.9}) for E per size) or a function of d"
)

# What a function of d must give, said where it does not: one size's E(d), and a sweep's
ONE_E = "one scaling efficiency in (0, 1] per size"
SWEEP_E = "one E per size from the E(d) function"

NOISE = 1e-12  # relative float noise of A/v or d·E: a size within it of the target reaches it (80/3 = 26.67·3 ≠ 80)


def _freeze(x: Any) -> Any:
    """A read-only view: the result's arrays cannot be changed through it, and the caller's own arrays stay
    writable. An input array is not copied (as numpy's views are not): copying d and E took 16 of the 60 ms
    `scale` spends on 10^7 sizes, against a goal of 1.5× bare numpy; a caller who changes an array afterwards
    copies it first."""
    if is_array(x) and x.ndim:
        x = x.view()
        x.flags.writeable = False
    return x


# The fields written out in the call (not a variable), so type checkers see r.actual_throughput.
_ScaleFields = namedtuple(
    "_ScaleFields",
    (
        "devices",
        "per_device_throughput",
        "efficiency",
        "ideal_throughput",
        "actual_throughput",
        "speedup",
        "lost_throughput",
        "effective_devices",
    ),
)
FIELDS = _ScaleFields._fields


class ScaleResult(_ScaleFields):
    """Immutable result of `scale` (a named tuple); arrays inside are read-only."""

    __slots__ = ()

    def records(self) -> list[dict[str, Any]]:
        """One plain dict per device count (arrays broadcast together): a list, as every other result's records()
        is (it was a generator, so `json.dumps(r.records())` failed where a prediction's or a plan's was written)."""
        values = [getattr(self, f) for f in FIELDS]
        if not any(is_array(v) and v.ndim > 0 for v in values):
            return [{f: _plain(v) for f, v in zip(FIELDS, values)}]
        import numpy as np

        cols = [np.ravel(c).tolist() for c in np.broadcast_arrays(*values)]  # plain numbers, column at a time
        return [dict(zip(FIELDS, row)) for row in zip(*cols)]


def _plain(x: Any) -> Any:
    return x.item() if hasattr(x, "item") else x


def relative_efficiency(throughput: Any, devices: Any, base_throughput: Any, base_devices: Any = 1) -> Any:
    """Measured E against a baseline size d0: A(d) / ((d/d0)·A(d0)).

    With d0 = 1 this is A / (d·v), the calculator's own definition; tables whose baseline is one
    node, measured runs and fits all compute E through this one function.
    """
    return throughput / ((devices / base_devices) * base_throughput)


def per_step(samples: Any, step_or_rate: Any) -> Any:
    """v = b·ga / T and T = b·ga / v are one relation: the samples of one optimizer step over its seconds give the
    rate, over the rate its seconds. Measured rows, a predict baseline and a DDP run's median step convert here."""
    return samples / step_or_rate


def efficiency_at(efficiency: Any, devices: Any) -> Any:
    """Evaluate an efficiency source at the given device counts (a number: `constant_efficiency`)."""
    if isinstance(efficiency, type):  # dpscale.USL, not USL(σ, κ): its unbound method raised a TypeError
        raise fail("efficiency", efficiency.__name__, "an E(d) source made with its parameters, e.g. USL(0.01, 1e-4)")
    fn = getattr(efficiency, "efficiency", efficiency)
    if callable(fn):
        try:
            return fn(devices)
        except (ValueError, TypeError) as exc:  # `lambda d: 1.0 if d == 1 else 0.9` met an array: numpy's "truth
            # value … ambiguous"; `lambda d: 1 / (1 + 0.01 * math.log(d))`: "only … arrays can be converted to Python
            # scalars"
            said = str(exc)
            # `lambda d: table[d]` (a dict of E): "unhashable type: 'numpy.ndarray'"
            scalar_only = any(w in said for w in ("ambiguous", "scalars", "unhashable"))
            if is_array(devices) and devices.ndim and scalar_only:  # a function, or an object's .efficiency(d)
                import numpy as np  # (loaded: devices is an array)

                each = [_one_at(fn(x), x) for x in devices.ravel().tolist()]  # size by size, as it was written for
                return np.array(each).reshape(devices.shape)
            raise
    if is_number(efficiency):
        return constant_efficiency(one(efficiency, "efficiency"), devices)
    if not (is_array(efficiency) or isinstance(efficiency, (list, tuple, range))):  # 'p.json', {8: 0.9}, None
        raise fail("efficiency", efficiency, E_SOURCES)
    return efficiency


def _one_at(e: Any, d: Any) -> float:
    """One size's E from a function read size by size, as one number (float() raised its own TypeError for None,
    text or two values, naming nothing); its range is checked with the rest."""
    try:
        return float(as_number(one(e, "efficiency"), "efficiency"))
    except DpscaleError as exc:
        raise renamed(exc, "efficiency", _one_e(exc, f"E(d) at d = {_size(d)}", ONE_E)) from None


def _one_e(exc: DpscaleError, where: str, allowed: str) -> str:
    """What is allowed of a function's E that gave no number where it was asked: one E per size (a masked value
    is said as such)."""
    return f"{MASKED if exc.parts[2] == MASKED else allowed} ({where})"


def _size(d: Any) -> str:
    """A size as the errors name it: 8, 10,000,000 (a float array's 8.0 too), 2.5 between whole sizes."""
    return f"{int(d):,}" if float(d).is_integer() else f"{float(d):g}"


def is_number(x: Any) -> bool:
    """One efficiency for every size: a Python, numpy, Fraction or Decimal number, or one value in a list or an
    array ([0.9] broadcasts like 0.9, so it is held at E(1) = 1 like it; it was refused as a table saying 0.9 there)."""
    if isinstance(x, (bool, str, bytes)):
        return False
    if is_array(x):
        return x.size == 1 and x.dtype.kind in "iuf"
    if isinstance(x, (list, tuple)):
        return len(x) == 1 and not isinstance(x[0], (list, tuple)) and is_number(x[0])
    return hasattr(x, "__float__")  # int, float, a numpy number, Fraction, and Decimal (no numbers.Real)


def check_source(efficiency: Any, name: str = "efficiency") -> Any:
    """Where sizes are planned one at a time (plan, batch_plan), E is one number or a function of d: a list of E
    has no size of its own to go with (it raised numpy's 'only 0-dimensional arrays' or gave two answers)."""
    listed = isinstance(efficiency, (list, tuple))
    if (listed and not is_number(efficiency)) or (is_array(efficiency) and efficiency.size != 1):
        raise fail(name, efficiency, "one number, or an E(d) source: a law, a fit, a prediction or a PerSize table")
    unmasked(efficiency, name)  # .item() read the value under the mask: a masked [0.5] planned at E = 0.5
    if listed:  # [0.9] is the number 0.9, as for scale and as np.array([0.9]) was here (the list was refused)
        return one(efficiency, name)
    return efficiency.item() if is_array(efficiency) else efficiency  # np.array([0.9]) is the number 0.9


def constant_efficiency(e: float, devices: Any) -> Any:
    """A constant E holds from two devices on: one device is its own reference, so E(1) = 1 (a plan that
    charged one device E = 0.9 would find it 10 % slower than itself)."""
    if is_array(devices) and devices.ndim:  # (a numpy scalar is a number here)
        if devices.min() > 1:  # no single device in the sweep: the number itself broadcasts, no array built
            return e
        out = devices.astype(float)  # (no numpy import here: the array's own methods)
        out.fill(e)
        out[devices == 1] = 1.0
        return out
    if isinstance(devices, (list, tuple)):
        return [1.0 if x == 1 else e for x in devices]
    return 1.0 if devices == 1 else e


def compute(devices: Any, per_device_throughput: Any, efficiency: Any) -> ScaleResult:
    """The formulas, unchecked (E > 1 allowed: a measured, superlinear point)."""
    d, v, e = devices, per_device_throughput, efficiency
    ideal = d * v
    actual = ideal * e
    speedup = _freeze(d * e)  # once: effective_devices is the same read-only array (it was the writable original)
    lost = ideal - actual
    # E per size, like every other field (not for one size: numpy scalars in made E a 0-d array, array(0.9))
    if is_array(actual) and actual.ndim and getattr(e, "shape", None) != actual.shape:
        import numpy as np  # (already loaded: an input is an array)

        e = np.broadcast_to(e, actual.shape)  # a read-only view, no copy
    return ScaleResult(
        devices=_freeze(d),
        per_device_throughput=_freeze(v),
        efficiency=_freeze(e),
        ideal_throughput=_freeze(ideal),
        actual_throughput=_freeze(actual),
        speedup=speedup,
        lost_throughput=_freeze(lost),
        effective_devices=speedup,
    )


def scale(devices: Any, per_device_throughput: Any, efficiency: Any = 1.0) -> ScaleResult:
    """Throughput and speedup of d devices at efficiency E (a number, array, or function of d).

    per_device_throughput: samples/s (or any unit: the results carry it) of one device running alone, v.
    Returns ideal d·v, actual d·v·E and lost throughput in that unit; speedup and effective devices d·E.
    A constant E holds from two devices on (E(1) = 1); any other source must give 1 at one device (a table or
    function saying 0.9 there is refused). Arrays broadcast as numpy's do (a column of sizes against a row of rates
    is a grid); the result holds array inputs as read-only views, not copies (copy one you will change afterwards)."""
    d, least = counts_and_least(devices, "devices", MAX_DEVICES)
    v = check_positive(per_device_throughput, "per_device_throughput", "a finite throughput > 0")
    if is_number(efficiency):  # check the number, not the array it is spread to
        e = constant_efficiency(float(check_efficiency(one(efficiency, "efficiency"), "efficiency")), d)
        given = None  # one number: no length of its own
    else:
        check_baseline(efficiency, least)
        e = given = _efficiency_given(efficiency, d)
    one_length((d, "devices"), (v, "per_device_throughput"), (given, "efficiency"), broadcast=True)
    if given is not None and least == 1:
        _check_one_device(e, d)
    # Both are finite and > 0 (checked above), so d·v is finite everywhere iff it is at the largest of each:
    # one reduction, not a second full product.
    return _finite_compute(d, v, e, most=MAX_DEVICES)


def check_baseline(source: Any, low: float) -> None:
    """A fit from runs of d0 > 1 devices gives E relative to d0, above 1 below it: say that, not 'E: got 1.02'.
    low: the smallest size asked for."""
    d0 = getattr(source, "baseline_devices", 1)
    if low < d0:
        raise DpscaleError(
            f"devices: got {low:g}, below this fit's smallest measured size {d0} (its E is relative to {d0} devices "
            f"and exceeds 1 below it); allowed: sizes ≥ {d0}, or a fit that includes smaller runs"
        )


def _efficiency_given(source: Any, d: Any) -> Any:
    """E from a source that is not one number, checked in (0, 1]. A function of d (or an object's efficiency(d)) must
    give one E per size asked, each named by its size when it does not: [0.9, 0.8] for 8 devices was spread over
    two rows (8 devices at 0.9 and at 0.8), [[0.9] * 2] * 2 over four, and a sweep's E of the wrong length said
    numpy's shapes of devices and rates. A list or an array of E is checked as it is (one per size, or one for
    every size). Laws, fits and predictions give floats for one size and arrays of d's shape for a sweep, so the
    checks below only speak when a function breaks that."""
    e = efficiency_at(source, d)
    if not callable(getattr(source, "efficiency", source)):
        return check_efficiency(e, "efficiency")
    sweep = is_array(d) and d.ndim > 0
    where = f"{counted(d.size, 'size')} here" if sweep else f"E(d) at d = {_size(d)}"
    try:  # None, text, a dict, True or a complex number for E: as_number's 'a number', said of E(d)
        if not sweep and (isinstance(e, (list, tuple, range)) or is_array(e)):
            # [0.9, 0.8] for one size; a one-element [0.9] or [[0.9]] is its number, and so is a 0-d array(0.9) (the
            # result's E was that array, where every other source's is a number)
            e = one(e, "efficiency")
        e = as_number(e, "efficiency")
    except DpscaleError as exc:
        raise renamed(exc, "efficiency", _one_e(exc, where, SWEEP_E if sweep else ONE_E)) from None
    if sweep and getattr(e, "shape", ()) not in ((), d.shape):  # [0.9] for [1, 8]: spread over both sizes
        raise fail("efficiency", e, f"{SWEEP_E} ({where})")
    try:
        return check_efficiency(e, "efficiency")
    except DpscaleError as exc:  # nan, 0, 1.5 or 90 at some size: which
        at = _first_bad_size(d, e) if sweep else d
        raise renamed(exc, "efficiency", f"{exc.parts[2]} (E(d) at d = {_size(at)})") from None


def _first_bad_size(d: Any, e: Any) -> Any:
    """The first size where a sweep's E (of d's shape) is outside (0, 1]: the size check_efficiency's error is of."""
    import numpy as np  # (loaded: d is an array)

    e = np.broadcast_to(e, d.shape)  # (one E for the whole sweep: its first size)
    with np.errstate(invalid="ignore"):
        return d.flat[np.flatnonzero(~((e > 0) & (e <= 1)))[0]]


def _check_one_device(e: Any, d: Any) -> None:
    """E(1) = 1 by definition (v is one device's rate alone), as a plain number is held there; a function or
    table that says 0.5 would halve a single device's own throughput."""
    if is_array(d) and d.ndim:
        import numpy as np  # (loaded: d is an array)

        dd, ee = np.broadcast_arrays(d, e)  # (E may be the wider one: a 2×1 column of E against a row of sizes)
        at_one = ee[dd == 1]
        wrong = at_one[np.abs(at_one - 1) > 1e-9]
        value = float(wrong[0]) if wrong.size else None
    elif d != 1:
        return
    elif is_array(e) and e.ndim:  # one device, several E (a what-if list): each must be 1 there
        wrong = e[abs(e - 1) > 1e-9]
        value = float(wrong.flat[0]) if wrong.size else None
    else:
        value = float(e) if abs(float(e) - 1) > 1e-9 else None
    if value is not None:
        raise fail("efficiency", value, ONE_DEVICE_E)


def _finite_compute(d: Any, v: Any, e: Any, most: float = math.inf) -> ScaleResult:
    """compute() once d·v is known finite (both are > 0, so checking the largest of each is enough): the ideal
    throughput of 8 devices at 1e308 was inf and the lost one nan. most: a bound d is already known to keep
    (scale's MAX_DEVICES), which spares the pass over d for any realistic v."""
    top_v = _top(v)
    if not math.isfinite(most * top_v) and not math.isfinite(_top(d) * top_v):
        raise DpscaleError("devices × per_device_throughput: beyond floating point; allowed: realistic magnitudes")
    return compute(d, v, e)


def _top(x: Any) -> float:
    return float(x.max()) if is_array(x) else float(x)


class Solution(namedtuple("Solution", ("solved", "exact", "result", "notes"), defaults=((),))):
    """Answer of an inverse problem: which input was solved, its exact value, and the full result."""

    __slots__ = ()

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


SUPERLINEAR = Note("superlinear")


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
    the same unit, speedup = actual / per-device. One case per call (the CLI loops over sizes)."""
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
    notes = (SUPERLINEAR,) if e > 1 else ()
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
    if is_speedup and v is None:
        raise DpscaleError("per_device_throughput: needed to report throughputs; give it with the speedup")
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
        d, exact = _devices_for_speedup(fn, s_target, said_v, smooth=smooth)
        check_baseline(efficiency, d)
        e = _efficiency_of(efficiency, d)
    else:
        efficiency_at(efficiency, 1)  # (its error, for what is no efficiency at all: text, a dict)
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
    need = "∞" if math.isinf(exact) else f"{exact:.4g}"
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


def past_max_e(e: float) -> bool:
    """E past MAX_SOLVED_E by more than float rounding: 19.8/s against 3.3/s on 3 devices is E = 2.0000000000000004,
    which is the bound itself, allowed (calc, fit and validate all ask this)."""
    return e > MAX_SOLVED_E * (1 + 1e-12)


def past(x: float, bound: float) -> str:
    """x with the digits that tell it from the bound it broke: 2.000008, not '2' against 'at most 2'."""
    p = apart(x, bound, 4, 18, "g")
    return f"{x:.{p}g}" if p < 18 else repr(x)


def apart(a: float, b: float, lo: int, hi: int, spec: str = "f") -> int:
    """The fewest digits from lo (decimals for 'f', significant ones for 'g') at which a and b print apart, else hi:
    a figure beside the limit it missed or the bound it broke must not print as that limit (calc's E, fit's spread
    of runs, plan's hours and costs all ask it)."""
    return next((p for p in range(lo, hi) if f"{a:.{p}{spec}}" != f"{b:.{p}{spec}}"), hi)


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
        e = check_positive(_one_at(fn(d), d), "efficiency", f"a scaling efficiency in (0, 1] (E(d) at d = {_size(d)})")
        return d * e

    def said(speedup: float) -> str:
        return _said(speedup, v)

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
        if not _reaches(peak, s_target) and s(cap) >= s(cap // 2):  # still rising at the cap: no peak, just too far
            raise DpscaleError(
                f"target {said(s_target)}: not reached within {cap:,} devices ({said(s(cap))} there); "
                "allowed: a target this E(d) reaches at a buildable size"
            )
        if not _reaches(peak, s_target):
            raise DpscaleError(
                f"target {said(s_target)}: unreachable — under this E(d) "
                + (f"throughput peaks at {said(peak)}" if v else f"the speedup peaks at {peak:.6g}×")
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


def _said(speedup: float, v: float | None) -> str:
    """'speedup 61.4' or, for a throughput target, '122,829/s (speedup 61.4)'."""
    return f"speedup {speedup:.6g}" if v is None else f"{speedup * v:,.6g}/s (speedup {speedup:.6g})"


def _peak(s: Callable[[int], float], lo: int, hi: int) -> tuple[int, float]:
    while hi - lo > 2:
        m1, m2 = lo + (hi - lo) // 3, hi - (hi - lo) // 3
        if s(m1) < s(m2):
            lo = m1
        else:
            hi = m2
    d = max(range(lo, hi + 1), key=s)
    return d, s(d)


__all__ = [
    "FIELDS",
    "ScaleResult",
    "Solution",
    "check_baseline",
    "compute",
    "efficiency_at",
    "relative_efficiency",
    "scale",
    "solve",
]
