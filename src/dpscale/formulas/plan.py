"""Time to train, device-hours and cost per cluster size; the picks a planner asks for.

For each size d the cluster throughput comes from `scale` (A = d·v·E(d) lives only there):
    hours = samples·epochs / A / 3600      device_hours = d·hours      cost = device_hours·price
    priced per node of G devices, as clouds bill whole instances: nodes = ⌈d/G⌉, cost = nodes·hours·node price
    (a partial node is billed whole; a full node's devices cost node price / G a device-hour)
Picks over the sizes given:
    cheapest meeting a deadline   least cost (device-hours when no price) among hours ≤ deadline
    fastest within a budget       least hours among cost ≤ budget
    knee                          the size from which the marginal speedup per added device,
                                  ΔS/Δd = (d₂E₂ − d₁E₁)/(d₂ − d₁), stays below a threshold to the end
                                  (default 0.5: an added device buys under half a device of speed-up,
                                  so each hour saved costs over twice what it did at perfect scaling).
The knee is measured between neighbouring sizes of the sweep, so it is only as fine as the sweep.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from dpscale.errors import (
    DECIMAL_POINT,
    MAX_DEVICES,
    PLAIN_DIGITS,
    THOUSANDS,
    DpscaleError,
    as_number,
    check_count,
    check_positive,
    check_range,
    check_size_list,
    comma_hint,
    fail,
    is_array,
    ones,
    python_spelled,
    unmasked,
)
from dpscale.formulas.scaling import check_source, is_number, scale

KNEE_THRESHOLD = 0.5
KNEE_ALLOWED = "a marginal speed-up per device in [0, 1]"
PICKS = ("knee", "cheapest_meeting_deadline", "fastest_within_budget")  # a Plan's picks; its records' marks
FEW_SIZES = 4096  # up to this many, a constant E is planned size by size (13 µs each), sparing numpy's import
_UNITS = {"s": 1 / 3600, "m": 1 / 60, "min": 1 / 60, "h": 1.0, "d": 24.0, "w": 168.0}
# the same units as words ('24hours', '2days' were refused where '24h' was taken), English and Spanish
_WORDS = {
    **dict.fromkeys(("sec", "secs", "second", "seconds", "segundo", "segundos"), "s"),
    **dict.fromkeys(("mins", "minute", "minutes", "minuto", "minutos"), "min"),
    **dict.fromkeys(("hr", "hrs", "hour", "hours", "hora", "horas"), "h"),
    **dict.fromkeys(("day", "days", "dia", "dias", "día", "días"), "d"),
    **dict.fromkeys(("week", "weeks", "wk", "wks", "semana", "semanas"), "w"),
}
_UNITS |= {w: _UNITS[u] for w, u in _WORDS.items()}
_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)\s*(" + "|".join(sorted(_UNITS, key=len, reverse=True)) + ")")
DURATION_ALLOWED = "a duration > 0 such as 24h, 90m, 2d, 1d12h, 3600s, or hours as a plain number"


def parse_duration(text: Any, name: str = "deadline") -> float:
    """'24h', '90m', '2d', '1d12h', '1.5h', '3600s' or a bare number of hours → hours."""
    if not isinstance(text, str):  # a number of hours; numpy's datetime64('2020') read as 2,020 hours
        try:
            as_number(text, name)
        except DpscaleError:  # (None, b'24h', a timedelta: the duration's forms, not 'an array of numbers')
            raise fail(name, text, DURATION_ALLOWED) from None
    raw = str(text).strip().lower()
    if python_spelled(raw):  # '١٢h', '１０h', '1_000': float() and re's \d read them; --deadline refuses them
        raise fail(name, text, PLAIN_DIGITS)
    # '1,5' (a decimal comma): the point is said, as for --efficiency; '1,000' or '2 000' (any of GAPS) the thousands,
    # as comma_hint tells every number flag: it was told the point, and 1.000h, as told, is one hour (review HT)
    # (its unit's letters and the gap before them cut from the end: a '\\s*[a-z]+$' searched re-read each run of spaces
    # from every space in it — '1', 10,000 spaces and 'x1', a page field, took 1.7 s: review LR)
    bare = raw.rstrip("abcdefghijklmnopqrstuvwxyz")
    hint = comma_hint(bare.rstrip() if bare != raw else raw)
    if hint == THOUSANDS:
        raise fail(name, text, DURATION_ALLOWED + ", without thousands separators (2000h, not 2,000h)")
    if hint == DECIMAL_POINT or re.fullmatch(r"\d+,\d+\s*[a-z]*", raw):
        raise fail(name, text, DURATION_ALLOWED + ", with a decimal point (1.5h, not 1,5h)")
    if re.search(r"\d\s+\d", raw):  # '1 8 64' once read as 1864 h
        raise fail(name, text, DURATION_ALLOWED)
    raw = raw.replace(" ", "")
    try:
        hours = float(raw)
    except ValueError:
        # read whole first, from its start: findall tried every digit of '1' × 10,000 + 'x' as a number's first, 12.7 s
        # of a page's thread for a field that is refused either way (review LR)
        # (and no more parts than units, each said once: '1h' × 100,000, refused either way, took 0.3–0.6 s — review LX)
        if not re.fullmatch(rf"(?:{_DURATION.pattern}){{1,{len(set(_UNITS.values()))}}}", raw):
            raise fail(name, text, DURATION_ALLOWED) from None
        parts = _DURATION.findall(raw)
        order = [_UNITS[u] for _, u in parts]  # 1d12h, not 1d1d, 1h1d or 30min30m: each unit once, largest first
        if not parts or "".join(n + u for n, u in parts) != raw or order != sorted(set(order), reverse=True):
            raise fail(name, text, DURATION_ALLOWED) from None
        hours = sum(float(n) * _UNITS[u] for n, u in parts)
    if not 0 < hours < float("inf"):
        raise fail(name, text, DURATION_ALLOWED)
    return hours


@dataclass(frozen=True, slots=True)
class PlanPoint:
    """One cluster size: throughput from `scale`, then time, device-hours and cost."""

    devices: int
    efficiency: float
    actual_throughput: float
    speedup: float
    hours: float
    device_hours: float
    cost: float | None
    marginal_speedup: float | None  # ΔS/Δd from the previous size; None for the first
    nodes: int | None = None  # whole nodes rented, where priced per node; None otherwise

    def record(self) -> dict[str, Any]:
        """The size's plan as one plain dict (the CLI's JSON row; cost only when priced; nodes only when priced per
        node, so a plan priced per device writes the rows it always did)."""
        return {f: getattr(self, f) for f in self.__slots__ if f != "nodes" or self.nodes is not None}


@dataclass(frozen=True, slots=True, repr=False)  # a PlanPoint per size: 1,024 sizes made a 198,000-character repr
class Plan:
    """Points per size and the picks; a pick is None when no size qualifies (or it was not asked)."""

    points: tuple[PlanPoint, ...]
    samples: float
    epochs: float
    deadline_hours: float | None
    budget: float | None
    knee_threshold: float
    cheapest_meeting_deadline: int | None
    fastest_within_budget: int | None
    knee: int | None
    # sizes slower than a smaller one given (past a USL peak): more device-hours for a later finish; never the
    # deadline's or the budget's pick (the knee, which reads only ΔS/Δd, can be one)
    slower_than_smaller: tuple[int, ...] = ()

    def __repr__(self) -> str:
        """Hours by size, eight sizes then their count (as a Prediction's E), and the picks: `points` holds the rest."""
        shown = ", ".join(f"{p.devices}: {p.hours:.4g}" for p in self.points[:8])
        more = f", … ({len(self.points)} sizes)" if len(self.points) > 8 else ""
        return f"Plan(hours={{{shown}{more}}}, " + ", ".join(f"{k}={getattr(self, k)}" for k in PICKS) + ")"

    def records(self) -> list[dict[str, Any]]:
        """One plain dict per size (the CLI's --json rows), as ScaleResult, Prediction and Fit give theirs; "marks"
        names the picks that size is: knee, cheapest_meeting_deadline, fastest_within_budget."""
        return [{**p.record(), "marks": [k for k in PICKS if p.devices == getattr(self, k)]} for p in self.points]


def plan(
    samples: Any,
    epochs: Any,
    throughput: Any,
    devices: Any,
    efficiency: Any = 1.0,
    price_per_device_hour: Any = None,
    deadline_hours: Any = None,
    budget: Any = None,
    knee_threshold: Any = KNEE_THRESHOLD,
    price_per_node_hour: Any = None,
    gpus_per_node: Any = None,
) -> Plan:
    """Time and cost to train `samples × epochs` at each size; E is a number or any E(d) source.

    throughput: samples/s of one device alone; deadline in hours; price per device-hour (or per node-hour of a node
    of gpus_per_node devices: a partial node billed whole, see `cost`) and budget in any one currency. Hours per
    size = samples × epochs / (d·v·E) / 3600. The points come back in ascending order of size, each size once (a
    table of sizes, not the list as given): read each point's `devices`; priced per node, its `nodes` too.

    Returns a Plan: `points` (a PlanPoint per size: devices, efficiency, hours, device_hours, cost,
    marginal_speedup), the picks `cheapest_meeting_deadline`, `fastest_within_budget` and `knee` (a size, or None),
    `slower_than_smaller`, and `records()`."""
    # one number each: only the devices are a list (a list here raised numpy's 'truth value … is ambiguous')
    samples, epochs, throughput, price_per_device_hour, deadline_hours, budget, knee_threshold = ones(
        (samples, "samples"), (epochs, "epochs"), (throughput, "throughput"),
        (price_per_device_hour, "price_per_device_hour"), (deadline_hours, "deadline_hours"), (budget, "budget"),
        (knee_threshold, "knee_threshold"),
    )  # fmt: skip
    n, ep = _samples_and_epochs(samples, epochs, throughput)
    sizes = _sizes(devices)
    price = _price(price_per_device_hour, price_per_node_hour, gpus_per_node)
    _money_and_time(price, deadline_hours, budget)
    knee_threshold = _threshold(knee_threshold)
    effs, actuals, speedups = _columns(sizes, throughput, efficiency)
    points = _points(sizes, effs, actuals, speedups, n, ep, price, throughput)
    return Plan(
        points=tuple(points),
        samples=n,
        epochs=ep,
        deadline_hours=deadline_hours,
        budget=budget,
        knee_threshold=knee_threshold,
        cheapest_meeting_deadline=_cheapest(points, deadline_hours),
        fastest_within_budget=_fastest(points, budget),
        knee=knee(points, knee_threshold),
        slower_than_smaller=_slower_than_smaller(points),
    )


def _samples_and_epochs(samples: Any, epochs: Any, throughput: Any) -> tuple[Any, Any]:
    """The work to do, checked before the sizes: samples and epochs > 0 (throughput too), their product finite."""
    n = check_positive(samples, "samples", "a finite sample count > 0")
    check_positive(throughput, "throughput", "a finite throughput > 0")  # scale() would name it per_device_throughput
    ep = check_positive(epochs, "epochs", "a finite epoch count > 0")
    if not n * ep < float("inf"):  # 1e308 samples × 90 epochs: say which input, not 'inf samples take inf hours'
        if n >= ep:
            raise fail("samples", n, "a sample count whose product with the epochs stays finite")
        raise fail("epochs", ep, "an epoch count whose product with the samples stays finite")
    return n, ep


def _sizes(devices: Any) -> list[int]:
    """The sizes as a table: whole counts ≥ 1, each once, ascending, whatever form the devices came in."""
    unmasked(devices, "devices")  # (tolist() made a masked size None: 'got [8, None]; allowed: numbers')
    many = devices.tolist() if is_array(devices) else devices
    many = many if isinstance(many, (list, tuple, range)) else [many]  # one size, or several
    if not many:
        raise fail("devices", devices, "at least one device count")
    # 8.7 is refused, not planned as 8; [8, [16]] not as 8, 16; past MAX_DEVICES as scale() refuses it (1e300 was told
    # 'from 1 to 2^53', then 2^53 'from 1 to 10,000,000')
    given = check_size_list(list(many), "devices", MAX_DEVICES)
    return sorted({int(d) for d in (given.tolist() if is_array(given) else given)})


@dataclass(frozen=True, slots=True)
class Price:
    """What an hour costs: of one device (per_node None), or of one node of per_node devices. Checked as plan checks
    its price keywords: Price(32.77, 0) divided by zero in `cost`, Price(32.77, -8) billed -1 node."""

    amount: float
    per_node: int | None = None

    def __post_init__(self) -> None:
        (amount,) = ones((self.amount, "amount"))
        object.__setattr__(self, "amount", check_positive(amount, "amount", "a finite price > 0"))
        if self.per_node is not None:  # (8.0 or a numpy 8: the int 8, as nodes() counts in ints)
            object.__setattr__(self, "per_node", check_count(self.per_node, "per_node", MAX_DEVICES))


def _price(price_per_device_hour: Any, price_per_node_hour: Any, gpus_per_node: Any) -> Price | None:
    """The one price checked (None when none is given): per device-hour, or per node-hour with the node's devices."""
    if price_per_device_hour is not None and price_per_node_hour is not None:
        raise DpscaleError("price_per_device_hour and price_per_node_hour: give one price, not both")
    if price_per_node_hour is None:
        if gpus_per_node is not None:  # (not ignored: a per-device price with it would read as billed per node)
            raise DpscaleError("gpus_per_node: only with price_per_node_hour (the devices a node's price buys)")
        if price_per_device_hour is None:
            return None
        return Price(check_positive(price_per_device_hour, "price_per_device_hour"))
    (price_per_node_hour,) = ones((price_per_node_hour, "price_per_node_hour"))
    p = check_positive(price_per_node_hour, "price_per_node_hour")
    if gpus_per_node is None:
        raise DpscaleError("price_per_node_hour: needs gpus_per_node (the devices a node's price buys)")
    return Price(p, check_count(gpus_per_node, "gpus_per_node", MAX_DEVICES))


def nodes(devices: int, gpus_per_node: int) -> int:
    """Whole nodes `devices` devices rent at `gpus_per_node` a node: ⌈d/G⌉ (12 devices on 8-GPU nodes rent 2).

    >>> nodes(8, 8), nodes(12, 8), nodes(1, 8)
    (1, 2, 1)
    """
    return -(-devices // gpus_per_node)


def cost(devices: int, hours: float, price: Price) -> float:
    """What `devices` devices for `hours` hours cost: d·hours·price per device-hour, or, priced per node of G
    devices, ⌈d/G⌉·hours·price per node-hour — a partial node billed whole, as a cloud bills an instance (an AWS
    p4d.24xlarge, 8 A100s at 32.77 an hour: 24 h on 12 devices rent 2 of them, 1,572.96, not 12 × 24 × 4.09625 =
    1,179.72).

    >>> round(cost(8, 24.0, Price(32.77, 8)), 2), round(cost(12, 24.0, Price(32.77, 8)), 2)
    (786.48, 1572.96)
    """
    if price.per_node is None:
        return devices * hours * price.amount  # (device_hours·price, in the order plan always multiplied)
    return nodes(devices, price.per_node) * hours * price.amount


def _money_and_time(price: Price | None, deadline_hours: Any, budget: Any) -> None:
    """The deadline and budget checked; a budget needs a price."""
    if isinstance(deadline_hours, str):  # '24h' is the CLI's spelling; the library takes hours
        text = f"hours as a number (parse_duration({deadline_hours!r}) reads text)"
        raise fail("deadline_hours", deadline_hours, text)
    if deadline_hours is not None:
        check_positive(deadline_hours, "deadline_hours", "finite hours > 0")  # (--deadline parses its text first)
    if budget is not None:
        check_positive(budget, "budget", "a finite budget > 0")
        if price is None:
            raise DpscaleError(
                "budget: needs price_per_device_hour or price_per_node_hour (a budget is money; the price turns it "
                "into hours)"
            )


def _threshold(knee_threshold: Any) -> float:
    """The knee's threshold in [0, 1], as a float: the most one added device can add where E ≤ 1."""
    # a marginal speed-up per added device is at most 1 where E ≤ 1 holds E(d) steady: 2.5 found a knee at the
    # first size whatever the E
    # (+ 0.0: a threshold of -0.0 was said 'adds at least -0 of a device's speedup')
    return check_range(knee_threshold, "knee_threshold", 0.0, 1.0, KNEE_ALLOWED) + 0.0


def _columns(sizes: list[int], throughput: Any, efficiency: Any) -> tuple[list[Any], ...]:
    """E, cluster throughput and speedup per size, from `scale`: size by size while that spares numpy's import."""
    efficiency = check_source(efficiency)
    fields = ("efficiency", "actual_throughput", "speedup")
    one_by_one = is_number(efficiency) or getattr(efficiency, "plain_sizes", False)  # a number, or a law of floats
    if one_by_one and len(sizes) <= FEW_SIZES:  # calc's arithmetic size by size: no numpy to import
        each = [scale(d, throughput, efficiency) for d in sizes]
        return tuple([getattr(r, f) for r in each] for f in fields)
    # every size in one call (a source is evaluated once over them all: 100,000 sizes took 29 s one by one)
    whole = scale(sizes, throughput, efficiency)
    per_size = (getattr(whole, f) for f in fields)
    return tuple(x.tolist() if is_array(x) and x.ndim else [float(x)] * len(sizes) for x in per_size)


def _points(
    sizes: list[int],
    effs: list[Any],
    actuals: list[Any],
    speedups: list[Any],
    n: Any,
    ep: Any,
    price: Any,
    throughput: Any,
) -> list[PlanPoint]:
    """Each size's time, device-hours and cost, and ΔS/Δd from the size before; refused as soon as one leaves floats."""
    points: list[PlanPoint] = []
    for d, e_d, actual, speedup in zip(sizes, effs, actuals, speedups):
        hours = _hours(n, ep, actual, d, throughput, e_d)
        device_hours = d * hours
        spent = None if price is None else cost(d, hours, price)
        if spent is not None and not spent < float("inf"):  # a price of 1e308: the cost, not the price, left floats
            if price.per_node is None:  # (price: not None where spent is not)
                raise fail("price_per_device_hour", price.amount, "a price whose cost in device-hours stays finite")
            raise fail("price_per_node_hour", price.amount, "a price whose cost in node-hours stays finite")
        prev = points[-1] if points else None
        marginal = None if prev is None else (speedup - prev.speedup) / (d - prev.devices)
        points.append(
            PlanPoint(
                devices=d,
                efficiency=e_d,
                actual_throughput=actual,
                speedup=speedup,
                hours=hours,
                device_hours=device_hours,
                cost=spent,
                marginal_speedup=marginal,
                nodes=None if price is None or price.per_node is None else nodes(d, price.per_node),
            )
        )
    return points


def _hours(n: Any, ep: Any, actual: Any, d: int, throughput: Any, e_d: Any) -> Any:
    """Hours to train at `actual` samples/s, refused where floats make it infinite or 0 (the input is named)."""
    # 8 × 1e-300 × 1e-300 underflows to 0: an infinite time, said below
    hours = n * ep / actual / 3600 if actual > 0 else float("inf")
    if not hours < float("inf"):  # a throughput or E of 1e-320: name the input, not the hours it made
        _endless(n, ep, throughput, e_d)
    if hours == 0:  # 5e-324 samples at 14,400/s: a time that underflows to 0 s, planned as free and instant
        if n <= ep:
            raise fail("samples", n, "a sample count whose time at these throughputs stays above 0 s")
        raise fail("epochs", ep, "an epoch count whose time at these throughputs stays above 0 s")
    return hours


def _endless(n: Any, ep: Any, throughput: Any, e_d: Any) -> None:
    """An infinite time refused by the input that makes it, as a flag's error: E at the size where one device's
    rate alone would finish (-e 1e-300), else the rate or the work, whichever lies further from 1 in magnitude
    (1e6 samples at 1e-320/s: the rate; 1e300 samples at 1e-10/s: the samples) — and of the work, the larger of
    samples and epochs, as _samples_and_epochs names it."""
    if n * ep / throughput / 3600 < float("inf"):
        raise fail("efficiency", e_d, "an E whose time at these sizes stays finite")
    if math.log10(n * ep) < -math.log10(throughput):
        raise fail("throughput", throughput, "a throughput whose time for these samples stays finite")
    if n >= ep:
        raise fail("samples", n, "a sample count whose time at this throughput stays finite")
    raise fail("epochs", ep, "an epoch count whose time at this throughput stays finite")


def _slower_than_smaller(points: list[PlanPoint]) -> tuple[int, ...]:
    """Sizes that finish later than some smaller size: more devices for longer, so dearer too. Later by more than
    rounding (time_key): a flat throughput (E ∝ 1/d) read 8, 9, 10 … as past the peak on the 16th digit."""
    out, best = [], float("inf")
    for p in points:
        if time_key(p) > best:
            out.append(p.devices)
        best = min(best, time_key(p))
    return tuple(out)


def _cheapest(points: list[PlanPoint], deadline: float | None) -> int | None:
    if deadline is None:
        return None
    ok = [p for p in points if within(p.hours, deadline)]
    return min(ok, key=lambda p: (cost_key(p), p.hours)).devices if ok else None  # of a tie, the faster size


def _nine(x: float) -> float:
    """A figure to 9 significant digits: the one rounding under which plan calls two times or costs equal."""
    return float(f"{x:.9g}")


def within(x: float, limit: float) -> bool:
    """x ≤ limit up to float rounding: 10,800 samples at 1/s and 0.1 a device-hour cost 0.30000000000000004, 'no
    size within the budget of 0.30' beside a table that said 0.30."""
    return x <= limit or _nine(x) <= _nine(limit)


def time_key(p: PlanPoint) -> float:
    """A size's hours to 9 digits: times equal there are a tie (E ∝ 1/d gives every size the same time, up to
    rounding), which the cost or the smaller size breaks."""
    return _nine(p.hours)


def cost_key(p: PlanPoint) -> float:
    """A size's device-hours to 9 digits: costs equal there are a tie (a constant E makes every size from two
    devices cost the same, up to rounding). Priced per node, its cost: a partial node is billed whole, so the
    device-hours no longer rank the costs (12 devices for 16 h cost 2 nodes' 32 node-hours, 8 for 24 h one's 24)."""
    return _nine(p.device_hours if p.nodes is None or p.cost is None else p.cost)


def _fastest(points: list[PlanPoint], budget: float | None) -> int | None:
    if budget is None:
        return None
    ok = [p for p in points if p.cost is not None and within(p.cost, budget)]
    # a tie in time goes to the cheaper (E ∝ 1/d: 91 devices at 91× the cost of 1 won on the 16th digit of 3.6 h)
    return min(ok, key=lambda p: (time_key(p), p.cost)).devices if ok else None


def knee(points: list[PlanPoint] | tuple[PlanPoint, ...], threshold: float = KNEE_THRESHOLD) -> int | None:
    """The size after which every further device adds under `threshold` of a device's speed-up — where adding
    devices stops paying for good. Not merely the first small step: with a constant E the step from one device
    to two pays the whole parallel overhead at once (E(1) = 1), and every step after it adds E again."""
    steps = [(prev.devices, p.marginal_speedup) for prev, p in zip(points, points[1:])]
    knee_at = None
    for d, m in reversed(steps):  # one backward pass: the earliest start of a run of small steps to the end
        if m is None or m >= threshold:
            break
        knee_at = d
    return knee_at


__all__ = [
    "DURATION_ALLOWED",
    "KNEE_THRESHOLD",
    "Plan",
    "PlanPoint",
    "Price",
    "cost",
    "knee",
    "nodes",
    "parse_duration",
    "plan",
]
