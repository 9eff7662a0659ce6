"""The data-parallel scaling formulas — the one place they live.

With d devices, per-device throughput v (samples/s alone) and scaling efficiency E:
    ideal  I = d·v          actual  A = d·v·E          speedup  S = A/v = d·E
    lost   I − A            effective devices  d·E
Everything else in dpscale (CLI, web, planners, predictors) calls these functions.
They take Python numbers or numpy arrays (broadcast together) and import numpy only when an
input is an array already, so the calculator starts fast. Here too: what an efficiency argument may
be (a number, one per size, an E(d) source) and its checks, and the bounds a solved or measured E is
held to. Solving these formulas backwards for d, v or E is `formulas.solve`.
"""

from __future__ import annotations

import math
from collections import namedtuple

from dpscale.errors import (
    MASKED,
    MAX_DEVICES,
    DpscaleError,
    as_number,
    check_efficiency,
    check_positive,
    counted,
    counts_and_least,
    fail,
    is_array,
    one,
    one_length,
    plain,
    renamed,
    unmasked,
)

TYPE_CHECKING = False  # typing and dataclasses are kept off the start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Generic, NamedTuple, Protocol, overload

    from numpy.typing import NDArray

    from dpscale.errors import Number, Numbers, Values

    class Source(Protocol):  # a law, a fit, a prediction, a PerSize table
        def efficiency(self, d: Any) -> Any: ...

    OneE = Number | Source | Callable[[Any], Any]  # an E that gives one E per size asked (not a list of E)


# An efficiency ("efficiency" arguments below) is a number, an array matching the devices, or a
# function of d (a law, a fit, a prediction): anything with `efficiency(d)` or callable on d.

# A solved or measured E above this is a unit slip (samples/s against tokens/s, a total for a per-device rate),
# not cache effects: published superlinear runs reach E = 1.24 (validation/holdout_more11.csv, 16 devices).
MAX_SOLVED_E = 2.0
# A measured E above 1 by no more than this is a repeat's spread, not a superlinear result: calc, measure and fit call
# only an E above it superlinear, and plan --efficiency-file plans an E up to it as 1 and refuses one above it (review
# LW: 1.01 passed measure without a word and was then refused by plan as superlinear; review MC: calc called it so;
# review MH: fit's note fired from 1.0, and the note's text said 'E > 1')
REPEAT_SPREAD_E = 1.02
ONE_DEVICE_E = "E = 1 at one device, its own reference (a single number is held at 1 there)"
ONE_DEVICE_MARGIN = 1e-9  # how far a table's or function's E(1) may stray from 1 (float rounding) before ONE_DEVICE_E
UNIT_SLIP = "a larger E is a unit slip (tokens/s against samples/s, a cluster total per device), not cache effects"


# What an efficiency argument may be, said where it is none of them (text, a dict, None): 'allowed: a number' named
# neither the tables nor the E(d) sources every one of them takes, and a dict of E per size is a PerSize
E_SOURCES = (
    "a number in (0, 1], one per size (a list or an array), or an E(d) source: a law (USL, Amdahl), a fit, a "
    "prediction, a PerSize table (PerSize({8: 0.9}) for E per size) or a function of d"
)
# The same where one E is read at a time (plan, batch_plan, solving for devices): they refuse a list of E per size,
# so naming one as allowed sent a caller from the one refusal to the other
ONE_E_SOURCE = (
    "one number, or an E(d) source: a law (USL, Amdahl), a fit, a prediction, a PerSize table (PerSize({8: 0.9}) "
    "for E per size) or a function of d"
)

# What a function of d must give, said where it does not: one size's E(d), and a sweep's
ONE_E = "one scaling efficiency in (0, 1] per size"
SWEEP_E = "one E per size from the E(d) function"


def read_only(x: Any) -> Any:
    """A read-only view: the result's arrays cannot be changed through it, and the caller's own arrays stay
    writable. An input array is not copied (as numpy's views are not): copying d and E took 16 of the 60 ms
    `scale` spends on 10^7 sizes, against a goal of 1.5× bare numpy; a caller who changes an array afterwards
    copies it first."""
    if is_array(x) and x.ndim:
        x = x.view()
        x.flags.writeable = False
    return x


def short_repr(result: Any, names: Any) -> str:
    """`Name(field=value, …)` with each array cut to its first and last three values past eight (numpy cuts past
    1,000: a ScaleResult of 999 sizes printed 95,000 characters in a notebook cell, a fit's prediction 101,000);
    a result of numbers is its usual repr."""
    values = [(n, getattr(result, n)) for n in names]
    body = lambda: ", ".join(f"{n}={v!r}" for n, v in values)  # noqa: E731
    if not any(is_array(v) for _, v in values):
        return f"{type(result).__name__}({body()})"
    import numpy as np  # loaded already: the result holds its arrays

    with np.printoptions(threshold=8, edgeitems=3):
        return f"{type(result).__name__}({body()})"


def same_fields(result: Any, other: object, names: Any) -> bool:
    """`result == other` field by field, an array by its shape and values: tuple's and a dataclass's == asked a
    sweep's array for one truth value ('ValueError: The truth value of an array with more than one element is
    ambiguous'). NotImplemented for another type (a plain tuple then compares as tuples). A field that is the
    other's is equal, as in a tuple's ==: a result holding a NaN equals itself and its copy (review LC)."""
    if type(other) is not type(result):
        return NotImplemented
    pairs = [(getattr(result, n), getattr(other, n)) for n in names]
    if not any(is_array(a) or is_array(b) for a, b in pairs):
        return all(a is b or a == b for a, b in pairs)
    import numpy as np  # loaded already: the result holds its arrays

    return all(a is b or (np.array_equal(a, b) if is_array(a) or is_array(b) else a == b) for a, b in pairs)


if TYPE_CHECKING:  # the fields' types, for a typed caller; at run time the namedtuple below (typing stays unloaded)

    class _ScaleFields(NamedTuple, Generic[Values]):
        devices: Values
        per_device_throughput: float | Values  # (a sweep of sizes at one rate keeps it one number)
        efficiency: Values
        ideal_throughput: Values
        actual_throughput: Values
        speedup: Values
        lost_throughput: Values
        effective_devices: Values
else:  # (compute names every field: mypy and the tests see one list added to and not the other)
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


class ScaleResult(_ScaleFields["Values"]):  # (at run time tuple's own subscript: the base is _ScaleFields)
    """Immutable result of `scale` (a named tuple); arrays inside are read-only."""

    __slots__ = ()

    def __repr__(self) -> str:
        return short_repr(self, self._fields)

    def __eq__(self, other: object) -> bool:
        return same_fields(self, other, self._fields)

    __ne__ = object.__ne__  # the inverse of __eq__ (tuple's own compared the arrays again)
    __hash__ = tuple.__hash__  # (a result of numbers stays a dict key; one holding arrays is unhashable, as before)

    def records(self) -> list[dict[str, Any]]:
        """One plain dict per device count (arrays broadcast together): a list, as every other result's records()
        is (it was a generator, so `json.dumps(r.records())` failed where a prediction's or a plan's was written)."""
        values = [getattr(self, f) for f in FIELDS]
        if not any(is_array(v) and v.ndim > 0 for v in values):
            rows = [{f: plain(v) for f, v in zip(FIELDS, values)}]
        else:
            import numpy as np

            cols = [np.ravel(c).tolist() for c in np.broadcast_arrays(*values)]  # plain numbers, column at a time
            cols = [[plain(x) for x in c] if c and hasattr(c[0], "dtype") else c for c in cols]  # (a longdouble's)
            rows = [dict(zip(FIELDS, row)) for row in zip(*cols)]
        # a count, as the CLI prints it: scale(64.0, …) kept 64.0 (review MV); sizes are whole (check_devices)
        return [{**r, "devices": int(r["devices"])} if isinstance(r["devices"], float) else r for r in rows]


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
        raise renamed(exc, "efficiency", _one_e(exc, f"E(d) at d = {size_said(d)}", ONE_E)) from None


def _one_e(exc: DpscaleError, where: str, allowed: str) -> str:
    """What is allowed of a function's E that gave no number where it was asked: one E per size (a masked value
    is said as such)."""
    return f"{MASKED if exc.parts[2] == MASKED else allowed} ({where})"


def size_said(d: Any) -> str:
    """A size as the errors name it: 8, 10,000,000 (a float array's 8.0 too), 2.5 or 2,048.5 between whole sizes
    (grouped as whole sizes are: predict's refusals said 2,048.5 before they shared this, and the notes do). Between
    whole sizes six figures, and as many more decimals as keep it apart from the whole size nearest it, as the
    rounded-up note's: '{:,.6g}' said 123456.5 as '123,456' and 1,000,000.5 as '1e+06', whole sizes (review JD)."""
    x = float(d)
    if x.is_integer():
        return f"{int(x):,}"
    if not math.isfinite(x) or x == 0:  # (not a size; said as it is)
        return f"{x:g}"
    places = max(5 - math.floor(math.log10(abs(x))), apart(x, round(x), 1, 12))
    return f"{x:,.{places}f}".rstrip("0").rstrip(".")


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
        raise fail(name, efficiency, ONE_E_SOURCE)
    if not (listed or is_array(efficiency) or is_number(efficiency) or _is_source(efficiency)):  # {8: 0.9}, 'p.json':
        raise fail(name, efficiency, ONE_E_SOURCE)  # E_SOURCES, said later, allowed the list refused above
    unmasked(efficiency, name)  # .item() read the value under the mask: a masked [0.5] planned at E = 0.5
    if listed:  # [0.9] is the number 0.9, as for scale and as np.array([0.9]) was here (the list was refused)
        return one(efficiency, name)
    return efficiency.item() if is_array(efficiency) else efficiency  # np.array([0.9]) is the number 0.9


def _is_source(x: Any) -> bool:
    """An E(d) source: a law, a fit, a prediction, a PerSize table (an object with .efficiency) or a function."""
    return hasattr(x, "efficiency") or callable(x)


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
    speedup = read_only(d * e)  # once: effective_devices is the same read-only array (it was the writable original)
    lost = ideal - actual
    # E per size, like every other field (not for one size: numpy scalars in made E a 0-d array, array(0.9))
    if is_array(actual) and actual.ndim and getattr(e, "shape", None) != actual.shape:
        import numpy as np  # (already loaded: an input is an array)

        e = np.broadcast_to(e, actual.shape)  # a read-only view, no copy
    return ScaleResult(
        devices=read_only(d),
        per_device_throughput=read_only(v),
        efficiency=read_only(e),
        ideal_throughput=read_only(ideal),
        actual_throughput=read_only(actual),
        speedup=speedup,
        lost_throughput=read_only(lost),
        effective_devices=speedup,
    )


# One size: numbers; a sweep of sizes: arrays; anything else (E or rates per size, a lambda read as Any): Any — not a
# ScaleResult, which mypy 2.4 erased a call given Any (matching all three) to, a ScaleResult[Any] no parameter took
if TYPE_CHECKING:

    @overload
    def scale(devices: Number, per_device_throughput: Number, efficiency: OneE = ...) -> ScaleResult[float]: ...
    @overload
    def scale(devices: Numbers, per_device_throughput: Number, efficiency: OneE = ...) -> ScaleResult[NDArray[Any]]: ...
    @overload
    def scale(devices: Any, per_device_throughput: Any, efficiency: Any = ...) -> Any: ...


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
    where = f"{counted(d.size, 'size')} here" if sweep else f"E(d) at d = {size_said(d)}"
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
        raise renamed(exc, "efficiency", f"{exc.parts[2]} (E(d) at d = {size_said(at)})") from None


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
        wrong = at_one[np.abs(at_one - 1) > ONE_DEVICE_MARGIN]
        value = float(wrong[0]) if wrong.size else None
    elif d != 1:
        return
    elif is_array(e) and e.ndim:  # one device, several E (a what-if list): each must be 1 there
        wrong = e[abs(e - 1) > ONE_DEVICE_MARGIN]
        value = float(wrong.flat[0]) if wrong.size else None
    else:
        value = float(e) if abs(float(e) - 1) > ONE_DEVICE_MARGIN else None
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


__all__ = [
    "FIELDS",
    "ScaleResult",
    "check_baseline",
    "compute",
    "efficiency_at",
    "relative_efficiency",
    "scale",
]
