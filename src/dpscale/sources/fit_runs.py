"""Measured runs for `dpscale fit`, as numbers: one run (`Run`, `make_run`, `parse_point`: a value checked where it
was read), and the runs of a fit (`combine` → `Runs`), whatever they were read from (fit_io, runs_json, runs_csv).

Every problem becomes one DpscaleError naming the file and line (or the flag), so the CLI prints
one line and exits 2. Repeated sizes are averaged (arithmetic mean of throughput and step time)
and reported in `Runs.notes` — repeated runs of one size are normal, and the mean is what a
single longer run would have measured. Their spread is kept too (`Runs.counts`, `repeat_ss`,
`repeat_dof`): it measures the run-to-run noise directly, which the fit's residuals, with one or two
degrees of freedom, cannot.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, cast

from dpscale.errors import (
    DOT_GROUPS,
    MAX_DEVICES,
    PLAIN_DIGITS,
    THOUSANDS_DOT,
    DpscaleError,
    comma_hint,
    counted,
    cut,
    fail,
    python_spelled,
)
from dpscale.files import json_quoted, opens_json
from dpscale.formulas.scaling import MAX_SOLVED_E, UNIT_SLIP, apart, past, past_max_e, relative_efficiency
from dpscale.formulas.units import canonical_unit, own_unit
from dpscale.notes import Note

# Runs of one size are called conflicting when their spread (max − min, over the mean) is wider than 1 % run-to-run
# noise leaves in 95 % of cases: the range of n normal draws, in σ, at its 95th percentile (`range_95`; Pearson &
# Hartley's table: 2.77 for 2, 3.31 for 3, 4.47 for 10). A flat 2 % called 34 % of ordinary three-run groups at
# 1 % noise conflicting.
RUN_NOISE = 0.01


NOISE_PRIOR = RUN_NOISE  # assumed run-to-run throughput noise (1 %): fit pools it with the residuals, its notes say it


RESAMPLES = (50, 100_000)  # the bootstrap's redraws, fewest and most: fit(), `fit --resamples` and the page read it


# What fit() and `dpscale fit` (and so the page) take where none is given, and so plan --fit and validate --mode fit:
# one interval level, one bootstrap (each had its own 0.9, 1000 and 0, which `plan --fit` and `fit` both said)
DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED = 0.9, 1000, 0


CONFIDENCE_ALLOWED = "a level in (0, 1), e.g. 0.9"


# the most devices one node holds: as many as the answers are sought up to (docs/fit.md); fit(), `fit` and
# `plan --fit --gpus-per-node` read it (the CLI took 2^20 where the library took 10,000,000)
MAX_GPUS_PER_NODE = 1 << 20


SEEDS = (0, 2**32 - 1)  # fit() and `fit --seed` alike: 32 bits (the library took up to 2^63 − 1, the CLI 2^32 − 1)


@functools.lru_cache(maxsize=64)
def range_95(n: int) -> float:
    """95th percentile of the range of n standard normal draws: P(R ≤ w) = n∫φ(x)[Φ(x + w) − Φ(x)]^(n−1) dx,
    solved for 0.95 by bisection (a table up to 10 runs once gave 12 runs the 10-run bound, and said it as
    theirs). scipy.stats.studentized_range.ppf(0.95, n, 1e7) agrees to 3 decimals, but importing scipy.stats costs
    ~1.3 s against these ~15 ms."""
    import numpy as np

    x = np.linspace(-9.0, 21.0, 10001)  # Φ on one grid; Φ(x + w) read off it for x ≤ 9, w ≤ 12
    cdf = np.array([0.5 * math.erfc(-v / math.sqrt(2.0)) for v in x])
    inner = x <= 9.0
    xs, fx, phi = x[inner], cdf[inner], np.exp(-(x[inner] ** 2) / 2) / math.sqrt(2 * math.pi)
    lo, hi = 0.0, 12.0
    for _ in range(40):
        w = (lo + hi) / 2
        y = phi * (np.interp(xs + w, x, cdf) - fx) ** (n - 1)
        # the trapezoid rule as np.trapezoid sums it, which numpy 1.x (pyproject takes >= 1.24) does not have
        p = n * (np.diff(xs) * (y[1:] + y[:-1]) / 2.0).sum()
        lo, hi = (w, hi) if p < 0.95 else (lo, w)
    return (lo + hi) / 2


def conflicting(spread: float, n: int) -> bool:
    """True when n runs spread further than 1 % noise explains — by more than the 9 decimals the note shows (a
    spread equal to the bound there read '2.771808023 % beyond the 2.771808023 %')."""
    return spread > range_95(n) * RUN_NOISE * (1 + 1e-9)


@dataclass(frozen=True)
class Run:
    devices: int
    throughput: float
    step_time: float | None = None
    where: str = ""  # "runs.csv line 3", "--point 8:5120": for messages
    # a `dpscale measure` record's own checks (a CSV's or a point's run has neither): its node's ranks × threads
    # exceeded the cores, and its ranks ended with different weights (the largest difference, None: not said or 0)
    oversubscribed: bool = False
    replica_drift: float | None = None


@dataclass(frozen=True)
class Runs:
    """Distinct sizes, ascending, with their (averaged) throughputs and optional step times."""

    devices: tuple[int, ...]
    throughput: tuple[float, ...]
    step_time: tuple[float, ...] | None
    notes: tuple[str, ...] = ()
    # distinct runs at each size, which the noise and the bootstrap divide by: a throughput repeated to every digit
    # (one record pasted twice) counts once, though the mean takes every row (None: one each)
    counts: tuple[int, ...] | None = None
    repeat_ss: float = 0.0  # Σ over sizes of Σ (log X − mean log X)² of its runs: the pure run-to-run spread
    repeat_dof: int = 0  # Σ (runs − 1) over sizes
    unit: str | None = None  # the throughput unit the runs state (a CSV's unit column, measure's records); None: unsaid

    @property
    def runs_per_size(self) -> tuple[int, ...]:
        return self.counts or (1,) * len(self.devices)

    @property
    def measured_apart(self) -> tuple[str, ...]:
        """The notes that say sizes measured something else than the hardware's data-parallel scaling (`_apart`):
        every use of the runs repeats them (`plan --fit` too), not only the fit's report."""
        return tuple(n for n in self.notes if getattr(n, "key", "") in APART_KEYS)


def _field(record: dict, key: str) -> str:
    """A JSON record's field as the file wrote it, or 'missing' (Python's None said neither)."""
    return str(_AsWritten(record[key])) if key in record else "missing"


class _AsWritten:
    """A file's JSON value in an error as the file wrote it (null, true, "8"), unquoted as a number is (errors.fail
    quotes text): Python's None and True said what the user never wrote."""

    def __init__(self, value: Any) -> None:
        self.text = json_quoted(value)

    def __str__(self) -> str:
        return self.text


_DOT_GROUPS = re.compile(DOT_GROUPS)


def _value(
    text: Any, what: str, where: str, whole: bool = False, dot_groups: bool = False, from_json: bool = False
) -> float:
    """One positive finite number (a whole one ≥ 1 for devices), or a one-line error naming where. dot_groups: the
    user's language writes 2.000 for two thousand (--lang es), so such a field is refused rather than read as 2.
    from_json: a file's JSON value, shown as the file wrote it (null, true), not as Python (None, True)."""
    # A CSV's cell (text) that reads as a number in range: returned at once, read as `_checked_value` reads it. Every
    # cell of a file is read here: a 2.5-million-row file built its error's words (the range, the cell cut to 40)
    # for every cell it never refused, a third of reading it (benchmarks/bench_fit.py)
    # (an ASCII cell without '_' is no Python-only spelling: `python_spelled`'s cheap half, tested once a cell)
    if (
        isinstance(text, str)
        and text.isascii()
        and "_" not in text
        and not (dot_groups and _DOT_GROUPS.fullmatch(text.strip()))
    ):
        try:
            x = float(text.strip())
        except ValueError:
            x = math.nan  # refused below, in the error's own words
        if _in_range(x, whole):
            return x
    return _checked_value(text, what, where, whole, dot_groups, from_json)


def _in_range(x: float, whole: bool) -> bool:
    """The one bound both readings of `_value` apply: a whole 1..MAX_DEVICES for devices, else 1e-9..1e15 (the
    words `_checked_value` says)."""
    return (1 <= x <= MAX_DEVICES and x == int(x)) if whole else 1e-9 <= x <= 1e15


def _checked_value(text: Any, what: str, where: str, whole: bool, dot_groups: bool, from_json: bool) -> float:
    """`_value` for any value: a library's number, a JSON value, or a cell it refuses (said here)."""
    # 1e-9..1e15: any real rate or step time; outside, the fit's logs and bootstrap overflow into ∞ intervals
    allowed = f"a whole number from 1 to {MAX_DEVICES:,}" if whole else "a number from 1e-9 to 1e15"
    # a field's text quoted (cut at 40), a library's value as it is: a masked or NaN rate was quoted as 'None', 'nan'
    shown = cut(text) if isinstance(text, str) else text
    if from_json and (isinstance(text, bool) or not isinstance(text, (str, int, float))):
        shown = _AsWritten(text)  # null, not 'None'; a text "null" stays quoted
    if dot_groups and isinstance(text, str) and re.fullmatch(DOT_GROUPS, text.strip()):
        raise fail(f"{where}, {what}", shown, THOUSANDS_DOT)
    if isinstance(text, str) and python_spelled(text):  # '1_000', '１０': read by float(), written by no spreadsheet
        raise fail(f"{where}, {what}", shown, PLAIN_DIGITS)
    try:
        if isinstance(text, bool):
            raise ValueError
        x = float(str(text).strip()) if not isinstance(text, (int, float)) else float(text)
    except (TypeError, ValueError, OverflowError):
        if isinstance(text, str):  # '5,120' quoted, or '2,5': the flags' hints (which have Spanish too)
            allowed = comma_hint(text) or allowed
        raise fail(f"{where}, {what}", shown, allowed) from None  # fail: a face can say it in Spanish
    if not _in_range(x, whole):
        raise fail(f"{where}, {what}", shown, allowed)
    return x


def make_run(
    devices: Any,
    throughput: Any,
    step_time: Any = None,
    where: str = "point",
    dot_groups: bool = False,
    typed: bool = False,
) -> Run:
    """typed: the values came from Python, where a number is a number: text is refused there, as scale() refuses it
    (fit(devices=np.array(['1', '2', …])) fitted; a file's cells and the flags are text by nature)."""
    if typed:
        for name, value in (("devices", devices), ("throughput", throughput), ("step_time", step_time)):
            if isinstance(value, (str, bytes)):  # (numpy's text as plain text: got '1', not np.str_('1'))
                shown = str(value) if isinstance(value, str) else value
                raise fail(f"{where}, {name}", shown, "a number (text is read from files and flags, not from Python)")
    # a file's values that are not text came from JSON (a CSV's cells are all text); a caller's, from Python
    d = int(_value(devices, "devices", where, whole=True, dot_groups=dot_groups, from_json=not typed))
    x = _value(throughput, "throughput", where, dot_groups=dot_groups, from_json=not typed)
    s = (
        None
        if step_time is None or str(step_time).strip() == ""
        else _value(step_time, "step_time", where, dot_groups=dot_groups, from_json=not typed)
    )
    return Run(d, x, s, where)


POINT_EACH = "one run a flag: --point 1:900 --point 2:1750 (repeat --point)"
# the forms a file of runs may take, as fit's refusals of a file (fit_io.JSON_ARRAY) and of JSON given --point say them
RUNS_FILE = (
    "JSON lines (an object with devices and throughput on each line, as `dpscale measure --out` writes), "
    "`dpscale measure --json` output, or a CSV with columns devices,throughput"
)
POINT_JSON = (
    f"one run a flag as devices:throughput (--point 1:900 --point 2:1750), or a file, `dpscale fit FILE`: {RUNS_FILE}"
)


def parse_point(text: str) -> Run:
    """--point's '8:5120' (devices:throughput) or '8:5120:0.25' (…:step_time seconds). JSON given it (an object, or
    an array of them: what the page's fit field reads pasted) is refused as JSON, with the forms that carry it: it was
    read as D:X, "--point: got '[{\"devices\":1,…'; allowed: one run a flag" (review LY)."""
    head = str(text).lstrip().lstrip("\ufeff").lstrip()  # (a byte-order mark: opens_json reads past one too)
    # an object's first key or an array's first object, or JSON whole: '{8}:100' and '[1:1000 8:7500]' are no JSON,
    # their devices '{8}' and '[1' refused ('{8}:100' was 'a JSON object', a BOM's object 'a JSON array': review MD)
    if re.match(r'\{\s*"|\[\s*\{', head) or opens_json(head):
        kind = "object" if head.startswith("{") else "array"
        raise DpscaleError(f"--point: a JSON {kind}; allowed: {POINT_JSON}")
    parts = str(text).split(":")
    if any(":" in p for p in str(text).split(",")[1:]):  # '1:900,2:1750' read as '900,2': a decimal-comma hint
        # misled ('8:5120:0,25' is a decimal comma in the step time: that keeps its hint)
        raise fail("--point", text, POINT_EACH)
    if len(parts) not in (2, 3):
        raise fail("--point", text, "DEVICES:THROUGHPUT, e.g. 8:5120 (or D:X:STEP_SECONDS)")
    return make_run(parts[0], parts[1], parts[2] if len(parts) == 3 else None, where=f"--point {text}")


def stated_unit(typed: str | None, said: str | None, flag: str = "unit", source: str = "") -> str:
    """The unit of fitted runs: the one their records state (`said`), which a given unit must be — fit printed
    tokens/s runs as samples/s, and plan --fit took them as samples — else the given one, else samples/s. One rule
    for `Fit.report(unit=)`, fit's and plan --fit's --unit and the page's pasted runs."""
    if said is not None and typed is not None and canonical_unit(typed) != canonical_unit(said):
        runs = f"the runs in {source}" if source else "the runs"
        raise DpscaleError(f"{flag}: got {typed!r}; allowed: {said!r}, the unit {runs} state")
    unit = said or typed or "samples/s"
    # (runs stated in 'muestras/s' are samples/s, said as each language says it: English said 'muestras/s')
    return own_unit(unit) if isinstance(unit, str) else unit


def _checked(run: Run, rec: dict) -> Run:
    """The run with what its `dpscale measure` record says against it (`oversubscribed`, `replica_drift`), for
    `combine` to warn of; a record without them (older, hand-made) is as before."""
    drift = rec.get("replica_drift")  # (None: FSDP's shards, which differ by design, or an older record)
    drift = float(drift) if isinstance(drift, (int, float)) and not isinstance(drift, bool) and drift > 0 else None
    over = rec.get("oversubscribed") is True
    return replace(run, oversubscribed=over, replica_drift=drift) if over or drift is not None else run


MAX_SIZES = 1000


# A step longer than this is likelier milliseconds typed where seconds are asked (published steps run 0.02–2 s; a
# minute is already rare); said as a note, never refused, since a long accumulated step is possible.
LONG_STEP_S = 100.0


def listed_sizes(sizes: list[int]) -> str:
    """Sizes as a note lists them: the first five, ';' between (1,024 holds a comma), '…' for more."""
    return "; ".join(f"{x:,}" for x in sizes[:5]) + ("…" if len(sizes) > 5 else "")


APART_KEYS = ("runs_oversubscribed", "runs_replica_drift")  # `_apart`'s notes


def _apart(groups: dict[int, list[Run]]) -> list[str]:
    """What the runs' own `dpscale measure` records say against them, as notes: sizes whose node's ranks × threads
    exceeded its cores (their E measured core sharing), and sizes whose replicas ended apart (not data-parallel
    training). The runs are kept: the user decides; the fit's numbers do not change."""
    over = [d for d in sorted(groups) if any(r.oversubscribed for r in groups[d])]
    drifts = {d: max(r.replica_drift or 0.0 for r in groups[d]) for d in sorted(groups)}
    apart = [d for d, x in drifts.items() if x > 0]
    notes: list[str] = []
    if over:
        notes.append(Note("runs_oversubscribed", sizes=listed_sizes(over)))
    if apart:
        notes.append(Note("runs_replica_drift", sizes=listed_sizes(apart), drift=max(drifts[d] for d in apart)))
    return notes


def combine(runs: Iterable[Run]) -> Runs:
    """Sort by size; average repeated sizes and say so; step times only when every size has one; warn of sizes their
    `dpscale measure` records call oversubscribed or apart (`_apart`)."""
    groups: dict[int, list[Run]] = {}
    for r in runs:
        groups.setdefault(r.devices, []).append(r)
    if len(groups) < 2:
        only = next(iter(groups.values()), [])
        got = f"{counted(len(only), 'run')} of size {only[0].devices}" if only else "no runs"
        raise DpscaleError(f"runs: got {got}; allowed: at least 2 distinct device counts")
    if len(groups) > MAX_SIZES:  # the bootstrap refits every law per resample: cost grows with the sizes
        raise DpscaleError(
            f"runs: got {len(groups):,} distinct device counts; allowed: at most {MAX_SIZES:,} (repeats of one size "
            "are averaged, so thin the sizes, not the repeats)"
        )
    notes: list[str] = []
    devices, thr, steps, counts, ss = [], [], [], [], 0.0
    for d in sorted(groups):
        g = groups[d]
        xs = [r.throughput for r in g]
        mean = math.fsum(xs) / len(xs)  # exactly rounded: the runs' order in a file moves no digit of the fit
        # the noise counts distinct values only: a throughput repeated to every digit is one record pasted twice,
        # and as two runs it would shrink σ and the intervals (a size's mean is still of every row, as before)
        logs = [math.log(x) for x in set(xs)]
        centre = math.fsum(logs) / len(logs)  # once a size: inside the sum it made 100,000 repeats quadratic (24 s)
        ss += math.fsum((v - centre) ** 2 for v in logs)
        counts.append(len(logs))
        if len(g) > 1:
            spread = (max(xs) - min(xs)) / mean
            k = max(len(logs), 2)  # distinct runs, as the noise counts them (a pasted copy is not a third run)
            key = "runs_conflicting" if conflicting(spread, k) else "runs_repeated"
            bound = 100 * range_95(k) * RUN_NOISE  # said: 2.8 % on both sides of 2.77 % read alike
            # both to the decimals that tell them apart (2.7723 % beyond 2.7718 % read '2.77 % beyond 2.77 %');
            # `conflicting` asks for a spread past the bound at 9, so 9 always tells them apart
            places = apart(100 * spread, bound, 2, 9)
            notes.append(Note(key, n=len(g), d=d, spread=100 * spread, mean=mean, bound=bound, k=k, places=places))
            if len(logs) < len(g):  # say it: the docs promise it, and a user who did repeat a run should know
                notes.append(Note("runs_duplicated", k=len(g) - len(logs), n=len(g), d=d))
        devices.append(d)
        thr.append(mean)
        st = [r.step_time for r in g if r.step_time is not None]
        steps.append(math.fsum(st) / len(st) if len(st) == len(g) else None)
    _check_slip(devices, thr)
    step_time = cast("tuple[float, ...]", tuple(steps)) if all(s is not None for s in steps) else None
    if step_time and step_time[0] > LONG_STEP_S:  # only the law's times in seconds use it; E does not
        notes.append(Note("step_time_long", s=step_time[0], d=devices[0]))
    notes += _apart(groups)
    dof = sum(counts) - len(counts)
    return Runs(tuple(devices), tuple(thr), step_time, tuple(notes), tuple(counts) if dof else None, ss, dof)


def _check_slip(devices: list[int], thr: list[float]) -> None:
    """E relative to the smallest size above MAX_SOLVED_E is a unit slip in the data, not a result to fit."""
    d0, x0 = devices[0], thr[0]
    for d, x in zip(devices[1:], thr[1:]):
        e = relative_efficiency(x, d, x0, d0)
        if past_max_e(e):
            rate = lambda v: f"{v:,.0f}" if 100 <= v < 1e15 else f"{v:,.4g}"  # noqa: E731 (100,000, not 1e+05)
            raise DpscaleError(
                f"runs: throughput {rate(x)} at {d:,} devices against {rate(x0)} at {d0:,} is "
                f"E = {past(e, MAX_SOLVED_E)}; "
                f"allowed: E up to {MAX_SOLVED_E:g} — {UNIT_SLIP}"
            )
