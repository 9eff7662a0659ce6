"""Sources of E as functions of d: a constant, a per-size table, Amdahl and the USL.

Every source has `efficiency(d)` (numpy-friendly) and `describe()`; fitted and predicted
sources elsewhere follow the same shape, so `scale`, `solve`, `plan` accept any of them.
Plain immutable classes (not dataclasses) keep the calculator's start-up light.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from numbers import Real
from types import MappingProxyType

from dpscale.errors import (
    MAX_DEVICES,
    SIZES_ALLOWED,
    DpscaleError,
    check_devices,
    check_efficiency,
    check_fraction,
    check_range,
    check_sizes,
    counted,
    fail,
    is_array,
    one,
)
from dpscale.formulas.scaling import ONE_DEVICE_E, ONE_DEVICE_MARGIN, constant_efficiency
from dpscale.notes import Note

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, overload

    import numpy as np
    from numpy.typing import NDArray

    from dpscale.errors import Number, Numbers


def _sizes(d: Any) -> Any:
    """The sizes a law is read at: finite and ≥ 1 (0 or −1 devices gave E > 1, nan gave nan); lists become arrays.
    A plain number is checked without numpy, which the calculator does not import."""
    # numpy's timedelta64 is an integer to numbers.Real, and its .item() a datetime.timedelta that `1 <= d` raised
    # TypeError on: check_sizes refuses it by name ('a number, not a time or a date'), as scale does
    timed = getattr(getattr(d, "dtype", None), "kind", None) in ("m", "M")
    if isinstance(d, Real) and not isinstance(d, bool) and not timed:
        if hasattr(d, "item"):  # a numpy scalar: a plain number, so E is one too (np.float32(8) gave E in float32)
            d = d.item()
        # (the ignore: typeshed's numbers.Real declares no __ge__, so mypy refuses `1 <= d`; every real has one)
        if not 1 <= d <= MAX_DEVICES:  # type: ignore[operator]  # (10**400 raised OverflowError, 1e308 gave E = 0)
            raise fail("devices", d, SIZES_ALLOWED)
        return d
    return check_sizes(d)


class _Law:
    """Immutable value object: parameters set once in __init__, compared and printed by value."""

    __slots__: tuple[str, ...] = ()
    continuous = True  # E(d) is defined between whole sizes too: solve's exact size reads it there
    plain_sizes = True  # a plain size gives a plain E, no numpy: plan asks a few sizes one by one (fast start)

    def efficiency(self, d: Any) -> Any:
        """E at d devices (a number, a list or an array of sizes ≥ 1), in the shape given."""
        raise NotImplementedError

    def describe(self) -> str:
        """One line naming the law and its parameters (a Note a face can say in the user's language)."""
        raise NotImplementedError

    def _fields(self) -> tuple[str, ...]:
        """The parameters: every slot but a private one ('_lookup'), which is a cache built from them."""
        return tuple(k for k in self.__slots__ if not k.startswith("_"))

    def _params(self) -> tuple:
        return tuple(getattr(self, k) for k in self._fields())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _set(self, **kw: Any) -> None:
        for k, v in kw.items():
            object.__setattr__(self, k, v)

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self._params() == other._params()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._params()))

    def __reduce__(self) -> tuple:
        """Rebuilt from its parameters (each class takes its slots in order): copy, deepcopy and pickle set the
        slots one by one through __setattr__, which raised 'USL is immutable'."""
        return type(self), self._params()

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={getattr(self, k)!r}" for k in self._fields())
        return f"{type(self).__name__}({args})"


class Constant(_Law):
    """One E for every size from two devices on (E(1) = 1, one device being its own reference) — what a single
    measurement gives; it does not carry across sizes."""

    __slots__ = ("value",)
    value: float

    def __init__(self, value: Any) -> None:
        self._set(value=float(check_efficiency(one(value, "efficiency"), "efficiency")))

    if TYPE_CHECKING:  # one size: its E, a float; several: an array of E; a grid, a tensor: Any (as scale reads them)

        @overload
        def efficiency(self, d: Number) -> float: ...
        @overload
        def efficiency(self, d: Numbers) -> NDArray[np.float64]: ...
        @overload
        def efficiency(self, d: Any) -> Any: ...  # a grid, a tensor: whatever numpy reads

    def efficiency(self, d: Any) -> Any:
        sizes = _sizes(d)
        e = constant_efficiency(self.value, sizes)
        if is_array(sizes) and sizes.ndim and not is_array(e):  # the sweep's shortcut (no size 1) gave the number
            e = sizes.astype(float)  # as every law: [8, 16] gives an array, not 0.9
            e.fill(self.value)
        return e

    def describe(self) -> str:
        return Note("law_constant", value=self.value)


class PerSize(_Law):
    """Measured or chosen E at given sizes; asking for another size is an error, not a guess."""

    __slots__ = ("table", "_lookup")
    table: tuple[tuple[int, float], ...]
    _lookup: Mapping[int, float]  # E by size, 1 at one device: built once (per call, 10,000 sizes took 4 s in
    # calc), read-only as the law is immutable
    continuous = False  # only its sizes: solve interpolates between them

    def __init__(self, table: Any) -> None:
        # whole sizes ≥ 1 ('a' raised ValueError; 1.5 became 1 and 0 a size), E in (0, 1], each size once, E(1) = 1
        # any iterable of pairs (a zip, dict items, numpy rows) or a {devices: E} dict, not text
        table = table.items() if isinstance(table, dict) else table  # (iterating a dict gave its sizes alone)
        if hasattr(table, "columns"):  # a DataFrame iterates its column names: 'got ['devices', 'efficiency']'
            raise DpscaleError(
                f"table: got a table ({type(table).__name__}); allowed: (devices, efficiency) pairs, or its columns "
                "as PerSize.of(df.devices, df.efficiency)"
            )
        flat = isinstance(table, (str, bytes)) or not hasattr(table, "__iter__") or (is_array(table) and not table.ndim)
        pairs = None if flat else list(table)  # (a 0-d array has __iter__ and raised "iteration over a 0-d array")
        if pairs is not None:  # (a numpy number in a flat array is no pair: tuple() of it raised a TypeError)
            pairs = [tuple(p) if isinstance(p, (list, tuple)) or (is_array(p) and p.ndim) else p for p in pairs]
        if not pairs or not all(isinstance(p, tuple) and len(p) == 2 for p in pairs):
            raise fail("table", table if pairs is None else pairs, "(devices, efficiency) pairs, at least one")
        seen: dict[int, float] = {}
        for d, e in pairs:
            d, e = (
                int(check_devices(one(d, "devices"), "devices", MAX_DEVICES)),
                float(check_efficiency(one(e, "efficiency"))),
            )
            if seen.setdefault(d, e) != e:  # the last of two once won silently
                raise DpscaleError(
                    f"efficiency: {d} devices given twice ({seen[d]:g} and {e:g}); allowed: one E per size"
                )
            if d == 1 and abs(e - 1) > ONE_DEVICE_MARGIN:  # (scale's own margin for E(1) = 1)
                raise fail("efficiency", e, ONE_DEVICE_E)
        table = tuple(sorted(seen.items()))  # by size: equal tables compare and hash equal
        self._set(table=table, _lookup=MappingProxyType({1: 1.0, **dict(table)}))

    @classmethod
    def of(cls, devices: Any, efficiencies: Any) -> PerSize:
        """The table from two lists (or arrays, or one number each), one E per device count."""
        devices, efficiencies = _listed(devices), _listed(efficiencies)  # PerSize.of(8, 0.9) raised len()'s TypeError
        if len(devices) != len(efficiencies):
            raise DpscaleError(
                f"efficiency: got {counted(len(efficiencies), 'value')} for {counted(len(devices), 'device count')}; "
                "allowed: one efficiency per device count"
            )
        return cls(tuple(zip(devices, efficiencies)))

    if TYPE_CHECKING:  # one size: its E, a float; several: an array of E; a grid, a tensor: Any (as scale reads them)

        @overload
        def efficiency(self, d: Number) -> float: ...
        @overload
        def efficiency(self, d: Numbers) -> NDArray[np.float64]: ...
        @overload
        def efficiency(self, d: Any) -> Any: ...  # a grid, a tensor: whatever numpy reads

    def efficiency(self, d: Any) -> Any:
        """E at the listed sizes (and 1 at one device, its own reference); any other size is refused."""
        lookup = self._lookup
        # checked as every law checks its sizes: '8' read as 'no value for 8 devices', True as one device, a range
        # as 'no value for range(1, 2) devices', [] gave an empty array and [8, [1]] numpy's ValueError
        d = _sizes(d)
        if is_array(d) and d.ndim:
            import numpy as np  # (loaded: d is an array)

            return np.array([self._get(lookup, x) for x in d.ravel().tolist()]).reshape(d.shape)
        return self._get(lookup, d.item() if hasattr(d, "item") else d)  # a 0-d array or a numpy number: its number

    def _get(self, lookup: Mapping[int, float], d: Any) -> float:
        if d not in lookup:  # (8.7 is not 8: no truncation; 8.0 == 8 finds it)
            sizes = ",".join(str(k) for k, _ in self.table)
            size = int(d) if float(d).is_integer() else d  # (the checked sizes are floats: 16, not 16.0)
            raise DpscaleError(f"efficiency: no value for {size} devices; allowed: the listed sizes {sizes}")
        return lookup[d]

    def describe(self) -> str:
        # '; ' between pairs, so a language with a decimal comma can localise the numbers (1→0,9; 8→0,8); a long
        # table its first pairs, '…' and its last (a plan on predict's 1..100000 wrote all of them: one 1.3 MB line)
        pairs = [f"{d:,}→{e:g}" for d, e in self.table]  # 1,024 as the table
        if len(pairs) > NOTE_PAIRS:
            pairs = [*pairs[: NOTE_PAIRS - 2], "…", pairs[-1]]
        return Note("law_per_size", table="; ".join(pairs))


NOTE_PAIRS = 12  # sizes a PerSize's note lists whole; a longer table shows its first 10 and its last


def _listed(x: Any) -> Any:
    """PerSize.of's columns as lists: one number is a list of one (a 0-d array too), an array or any iterable
    its items; text is left for the table's own check to refuse."""
    if isinstance(x, (str, bytes)):
        return [x]
    if is_array(x):
        return [x] if x.ndim == 0 else list(x)
    return list(x) if hasattr(x, "__iter__") else [x]


def usl_peak(sigma: Any, kappa: Any) -> Any:
    """Where USL throughput d·E(d) peaks: d* = √((1−σ)/κ) for κ > 0 (σ in [0, 1)). Plain arithmetic, so it takes
    floats (the calculator, which starts without numpy) and a fit's arrays of bootstrap samples alike."""
    return ((1 - sigma) / kappa) ** 0.5


def usl_ceiling(sigma: float, kappa: float, d0: float = 1.0) -> float:
    """The most throughput the USL (Amdahl's law: κ = 0) gives at any size, in per-device throughputs at d0 with E
    relative to d0 (as `dpscale fit`'s): d·E(d) at the peak √((1−σ)/κ) where κ > 0; else its bound as d → ∞,
    (1 + σ(d0 − 1))/σ — Amdahl's 1/s from one device — and ∞ where σ = 0 too."""
    base = 1.0 + sigma * (d0 - 1) + kappa * d0 * (d0 - 1)
    if kappa > 0:
        d = float(usl_peak(min(sigma, 1.0), kappa))
        return d * base / (1.0 + sigma * (d - 1) + kappa * d * (d - 1))
    return math.inf if sigma <= 0 else base / sigma


class USL(_Law):
    """Universal Scalability Law: E(d) = 1 / (1 + σ(d−1) + κ·d(d−1)).

    σ is contention (a serial share), κ coherency (cost growing with every pair of devices);
    with κ > 0 throughput peaks at d* = √((1−σ)/κ) and falls beyond it.
    """

    __slots__ = ("sigma", "kappa")
    sigma: float  # (annotations for type checkers: the slots are set by _set)
    kappa: float

    def __init__(self, sigma: Any = 0.0, kappa: Any = 0.0) -> None:
        self._set(
            sigma=check_fraction(sigma, "sigma", SIGMA_ALLOWED),
            # κ = 1 already cuts E to 1/3 at 2 devices (published κ: 1e-6..1e-2); past 1 the arithmetic ends in E = 0
            kappa=float(check_range(one(kappa, "kappa"), "kappa", 0.0, 1.0, KAPPA_ALLOWED)) + 0.0,
        )

    if TYPE_CHECKING:  # one size: its E, a float; several: an array of E; a grid, a tensor: Any (as scale reads them)

        @overload
        def efficiency(self, d: Number) -> float: ...
        @overload
        def efficiency(self, d: Numbers) -> NDArray[np.float64]: ...
        @overload
        def efficiency(self, d: Any) -> Any: ...  # a grid, a tensor: whatever numpy reads

    def efficiency(self, d: Any) -> Any:
        contention, coherency = usl_terms(_sizes(d))
        return 1.0 / (1.0 + self.sigma * contention + self.kappa * coherency)

    def peak_devices(self) -> float:
        """Size of maximum throughput, √((1−σ)/κ); infinite when κ = 0."""
        return math.inf if self.kappa == 0 else float(usl_peak(self.sigma, self.kappa))

    def peak_size(self) -> float:
        """The whole size of maximum throughput: of ⌊d*⌋ and ⌈d*⌉ the faster (d* = 31.6: 32, at 32,129/s against
        31's 32,124/s for 2,000/s a device), so a sweep ending there is not past the peak. d* itself where ⌈d*⌉ lies
        past the sizes E takes (a κ of 1e-20 puts it at 10^10), and ∞ when κ = 0."""
        d = self.peak_devices()
        if not d <= MAX_DEVICES:  # (∞ too: ⌈d*⌉ past the sizes E takes; up to MAX_DEVICES itself, E takes it)
            return d
        return float(max({max(1, math.floor(d)), math.ceil(d)}, key=lambda k: k * self.efficiency(k)))

    def describe(self) -> str:
        return Note("law_usl", sigma=self.sigma, kappa=self.kappa)


def usl_terms(d: Any) -> tuple[Any, Any]:
    """The USL's growth of the step time over compute, (d − 1, d(d − 1)): contention and coherency. One place for
    the law and for `dpscale fit`'s basis (sources/fit_laws.py), which fits σ and κ as their weights."""
    return d - 1, d * (d - 1)


class Amdahl(_Law):
    """Amdahl's law: a serial fraction s never parallelises, so S(d) = 1/(s + (1−s)/d),
    E(d) = 1/(1 + s(d−1)) — the USL with κ = 0."""

    __slots__ = ("serial_fraction",)
    serial_fraction: float

    def __init__(self, serial_fraction: Any) -> None:
        self._set(serial_fraction=check_fraction(serial_fraction, "serial_fraction", SERIAL_ALLOWED))

    if TYPE_CHECKING:  # one size: its E, a float; several: an array of E; a grid, a tensor: Any (as scale reads them)

        @overload
        def efficiency(self, d: Number) -> float: ...
        @overload
        def efficiency(self, d: Numbers) -> NDArray[np.float64]: ...
        @overload
        def efficiency(self, d: Any) -> Any: ...  # a grid, a tensor: whatever numpy reads

    def efficiency(self, d: Any) -> Any:
        return USL(self.serial_fraction, 0.0).efficiency(d)

    def describe(self) -> str:
        return Note("law_amdahl", s=self.serial_fraction)


# the laws' parameters as their checks say them, and the calculators' flags where the text is no number
SIGMA_ALLOWED, KAPPA_ALLOWED = "a contention σ in [0, 1)", "a coherency κ from 0 to 1"
SERIAL_ALLOWED = "a serial fraction in [0, 1)"
LAWS = ("constant", "amdahl", "usl")  # what `--law` takes in the calculators
# What `dpscale fit` fits (sources/fit_laws.py), kept here because this module needs no numpy: the CLI lists
# them at start-up. The training-aware law comes first: it is the default when the data cannot tell them apart.
FIT_LAWS = ("allreduce", "usl", "amdahl")
