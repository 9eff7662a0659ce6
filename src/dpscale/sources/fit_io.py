"""Measured runs for `dpscale fit`: read a CSV or JSON-lines file, or `--point D:X` pairs, and clean them.

Every problem becomes one DpscaleError naming the file and line (or the flag), so the CLI prints
one line and exits 2. Repeated sizes are averaged (arithmetic mean of throughput and step time)
and reported in `Runs.notes` — repeated runs of one size are normal, and the mean is what a
single longer run would have measured. Their spread is kept too (`Runs.counts`, `repeat_ss`,
`repeat_dof`): it measures the run-to-run noise directly, which the fit's residuals, with one or two
degrees of freedom, cannot.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
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
from dpscale.files import (
    CSV_OPEN_QUOTE,
    comment_line,
    content_line,
    json_quoted,
    loads_once,
    not_csv,
    opens_json,
    read_text,
    shown_name,
    text_lines,
)
from dpscale.formulas.scaling import MAX_SOLVED_E, UNIT_SLIP, apart, past, past_max_e, relative_efficiency
from dpscale.formulas.units import canonical_unit, own_unit
from dpscale.notes import Note
from dpscale.sources.measure import CALIBRATION_FORMAT  # (`dpscale measure allreduce --out`'s file)

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


def parse_point(text: str) -> Run:
    """--point's '8:5120' (devices:throughput) or '8:5120:0.25' (…:step_time seconds)."""
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


def read_runs_unit(
    path: str | Path, only: dict[str, str] | None = None, dot_groups: bool = False, option: str = "--only"
) -> tuple[list[Run], str | None]:
    """A CSV with a header (devices, throughput, optional step_time), JSON lines (`dpscale measure --out`) or
    the object `dpscale measure --json` prints (its sizes under "points"). only: of a file of several set-ups,
    the `dpscale measure` records whose set-up says these values ({"workload": "cnn"}: `--only workload=cnn`).
    dot_groups: refuse a CSV field written 2.000 (`_value`); JSON numbers have no such reading. option: how the
    caller picks a set-up, as its messages name it ('--only', or the library's `fit(only=…)`). With the runs,
    the throughput unit their records (or a CSV's unit column) state, or None: fit and plan label and check by it
    (tokens/s runs were printed as samples/s)."""
    name = shown_name(path)  # ('-': standard input, as the messages name it)
    try:  # (the path as given: Path('') is '.', which read as 'Is a directory')
        text = read_text(path)  # (a spreadsheet's byte-order mark is dropped)
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or "not UTF-8 text"
        raise fail("runs", str(path), f"a readable CSV or JSON-lines file ({why})") from None  # (CLI: RUNS)
    return runs_of_text(text, name, only, dot_groups, option)


def runs_of_text(
    text: str, name: str, only: dict[str, str] | None = None, dot_groups: bool = False, option: str = "--only"
) -> tuple[list[Run], str | None]:
    """read_runs_unit's runs from a file's text, which `name` names in messages: the page's fit field reads a paste
    of JSON lines by it, as `dpscale fit FILE` reads the file (review KJ: '--point {"devices":1,, …'), with option
    '': a paste, with no --only to pick a set-up (its refusals say 'per paste', and to paste one set-up alone)."""
    text = text.lstrip("\ufeff")  # (a second byte-order mark: a file saved twice with one, as header_names drops it)
    lines = text_lines(text)
    if not any(ln.strip() for ln in lines):
        raise DpscaleError(f"{name}: empty; allowed: a CSV with columns devices,throughput or JSON lines")
    is_json = reads_as_json(text)
    first = next((ln.strip() for ln in lines if content_line(ln)), "")
    if is_json and first.startswith("["):  # read as CSV, it would be refused for its header
        raise DpscaleError(
            f"{name}: a JSON array; allowed: JSON lines (an object with devices and throughput on each line, as "
            "`dpscale measure --out` writes), `dpscale measure --json` output, or a CSV"
        )
    if only and not is_json:
        raise DpscaleError(f"{option}: {name} is a CSV; allowed: with JSON lines of `dpscale measure` records")
    return _read_jsonl(text, name, only, option) if is_json else read_csv_unit(text, name, dot_groups)


def reads_as_json(text: str) -> bool:
    """Whether a user's file of runs or table is JSON: its first line neither blank nor a '#' comment opens JSON that
    ends its line (`opens_json`), or opens with '{' or '[' and is no header (`runs_header`): JSON broken on that
    line. The one rule fit, validate and the page's fit field tell JSON from a CSV by (review KJ: validate read a
    broken JSON document as a CSV, 'missing columns cfg, … (found {"devices": 1, …)')."""
    text = text.lstrip("\ufeff")
    at = 0  # where that line starts (found line by line: a 64 MiB table is not split whole to look at its head)
    while at < len(text):
        brk = _LINE_BREAK.search(text, at)
        line = text[at : brk.start() if brk else len(text)]
        if content_line(line):
            first = line.strip()
            return opens_json(text[at:]) or (first.startswith(("{", "[")) and not runs_header(first))
        at = brk.end() if brk else len(text)
    return False


_LINE_BREAK = re.compile("\r\n|\r|\n")  # where text_lines breaks a line


def runs_header(line: str) -> bool:
    """Whether a line read as a CSV header names devices and throughput. A first line opening with '{' or '[' that
    `opens_json` finds no JSON in is a CSV when it does ('[run],devices,throughput'), and else JSON broken on that
    line — cut short ('{"devices": 1, "throughput": 9'), a Python dict's quotes — said where it breaks ('line 1: not
    valid JSON (…)'), not 'missing columns devices, throughput (found {"devices": 1, …)'. The page's fit field reads
    a paste as a table by it too, whatever its first column's name opens with. A spreadsheet's tabs or a
    decimal-comma one's ';' separate its names as commas do: '[run]<tab>devices<tab>throughput' was 'a JSON array',
    where the page read it pasted and 'run<tab>devices…' is told to be saved with commas (review KB)."""
    try:
        return holds_runs(header_names(next(csv.reader([re.sub("[;\t]", ",", line)]), [])))
    except csv.Error:  # (a NUL in it)
        return False


def parse_only(items: list[str] | None) -> dict[str, str] | None:
    """--only KEY=VALUE (repeatable) → {KEY: VALUE}; KEY one of a measure record's set-up keys."""
    from dpscale.sources.measure.results import SETUP_KEYS  # (no torch: records only)

    out: dict[str, str] = {}
    for item in items or []:
        if not isinstance(item, str):  # '--only=--': argparse hands over [] for the '--'
            item = "--"
        key, eq, value = item.partition("=")
        if not eq or key.strip() not in SETUP_KEYS or not value.strip():
            raise fail("--only", item, f"KEY=VALUE with KEY one of {', '.join(SETUP_KEYS)} (e.g. workload=cnn)")
        if out.setdefault(key.strip(), value.strip()) != value.strip():  # the last one silently won
            raise fail("--only", item, "one value per KEY (one set-up is fitted at a time)")
    return out or None


def only_of(only: Any) -> dict[str, str] | None:
    """`fit(only=…)`, the library's --only: a mapping of a `dpscale measure` record's set-up keys to the values to keep
    ({'workload': 'cnn', 'zero': 1}), each compared as the record's value written out (1 and '1' alike)."""
    from dpscale.sources.measure.results import SETUP_KEYS  # (no torch: records only)

    allowed = f"a dict of set-up keys ({', '.join(SETUP_KEYS)}) to values, e.g. only={{'workload': 'cnn'}}"
    if only is None:
        return None
    if not isinstance(only, Mapping) or not only:
        raise fail("only", only, allowed)
    out: dict[str, str] = {}
    for key, value in only.items():
        if key not in SETUP_KEYS or value is None or isinstance(value, bool) or not str(value).strip():
            raise fail("only", {key: value}, allowed)
        whole = isinstance(value, float) and value.is_integer()  # batch=64.0 is the records' 64
        out[key] = str(int(value)) if whole else str(value).strip()
    return out


class _OneSetup:
    """Runs from records, which must share one set-up (`dpscale measure` records say theirs) and one throughput unit:
    averaging an mlp at batch 16 with a cnn at batch 8, or tokens/s with samples/s, means nothing. A file's lines
    and a library caller's list of dicts alike. `only` keeps the records of one set-up; `option` is how the caller
    gives it ('--only', or the library's `only=`), which a refusal names ('': the page's paste, which has none)."""

    def __init__(self, only: dict[str, str] | None = None, per: str = "file", option: str = "--only") -> None:
        self.only, self.per, self.option = only, per, option
        self.runs: list[Run] = []
        self.seen: dict[str, int] = {}
        self.setup: tuple[dict, str] | None = None  # the first record's set-up, and where it was
        self.unit: tuple[Any, str] | None = None

    def add(self, rec: dict, where: str, place: str, typed: bool = False) -> None:
        """One run; `place` names where it is for a later record's refusal ('line 3', 'runs[0]'); typed: a
        Python dict's, whose numbers must be numbers (make_run)."""
        from dpscale.sources.measure.results import SETUP_KEYS, setup_of  # (no torch: records only)

        # a `dpscale measure` record (it always says its workload and backend) has a set-up; a hand-made one's
        # 'batch' may be the global batch, growing with d, as a CSV's is (CSV_SETUP leaves it out)
        mine = setup_of(rec) if "workload" in rec or "backend" in rec else {}
        if self.only:
            said: Any = ", ".join(f"{k}={v}" for k, v in mine.items() if k in self.only or k == "workload")
            self.seen[said] = self.seen.get(said, 0) + 1
            if not mine or any(str(mine.get(k)) != v for k, v in self.only.items()):
                return  # another set-up than the one asked for
        if mine and self.setup is None:  # the first record that says a set-up: records without one never break it
            self.setup = (mine, place)
        elif mine and self.setup is not None and mine != self.setup[0]:
            first = self.setup[0]
            differ = [k for k in SETUP_KEYS if first.get(k) != mine.get(k)]
            diff = ", ".join(f"{k} {first.get(k)!r} → {mine.get(k)!r}" for k in differ)
            k = differ[0]
            if self.option == "--only":
                pick = f", or one picked with --only, e.g. --only {k}={mine.get(k)}"
            elif self.option:  # the library's fit(only=…): a flag it does not have was named ('--only workload=cnn')
                pick = f", or one picked with only=, e.g. only={{{k!r}: {mine.get(k)!r}}}"
            else:  # the page's fit field, which has no --only (review KU: it was named there)
                pick = f": paste one set-up's lines alone, e.g. those with {k}={mine.get(k)}"
            raise DpscaleError(
                f"{where}: another set-up than {self.setup[1]} ({diff}); allowed: one set-up per {self.per} (the "
                f"records of one model, batch, backend, device, steps, threads a rank and ZeRO stage){pick}"
            )
        said = rec.get("unit")
        if isinstance(said, str) and not said.strip():  # "unit": "" states none, as a CSV's blank unit cell: a
            said = None  # label once fit printed the runs' unit, it refused files fit and plan --fit had read
        if said is not None and self.unit is None:
            self.unit = (said, place)
        elif said is not None and self.unit is not None and canonical_unit(said) != canonical_unit(self.unit[0]):
            raise DpscaleError(
                f"{where}: unit {cut(str(said))!r} against {cut(str(self.unit[0]))!r} on {self.unit[1]}; allowed: "
                f"one throughput unit per {self.per}"
            )
        run = make_run(rec.get("devices"), rec.get("throughput"), rec.get("step_time"), where, typed=typed)
        self.runs.append(_checked(run, rec))

    def picked(self, name: str) -> None:
        """With `only`, some run was kept: said where none was, naming the set-ups there were."""
        if self.only and not self.runs and set(self.seen) == {""}:  # none a `dpscale measure` record
            raise DpscaleError(
                f"{self.option}: {name} names no set-up; allowed: with JSON lines of `dpscale measure` records"
            )
        if self.only and not self.runs:
            there = "; ".join(f"{s or '—'} ({n:,})" for s, n in self.seen.items()) or "—"  # records of each
            asked = ",".join(f"{k}={v}" for k, v in self.only.items())
            raise DpscaleError(f"{self.option}: got {asked}; allowed: a set-up {name} holds: {there}")


def _checked(run: Run, rec: dict) -> Run:
    """The run with what its `dpscale measure` record says against it (`oversubscribed`, `replica_drift`), for
    `combine` to warn of; a record without them (older, hand-made) is as before."""
    drift = rec.get("replica_drift")  # (None: FSDP's shards, which differ by design, or an older record)
    drift = float(drift) if isinstance(drift, (int, float)) and not isinstance(drift, bool) and drift > 0 else None
    over = rec.get("oversubscribed") is True
    return replace(run, oversubscribed=over, replica_drift=drift) if over or drift is not None else run


JSON_LINES = "one JSON object per line"  # what fit's JSON may be, as its refusals of JSON broken or too deep say


def _read_jsonl(
    text: str, name: str, only: dict[str, str] | None = None, option: str = "--only", allowed: str = JSON_LINES
) -> tuple[list[Run], str | None]:
    """Runs from JSON text: `dpscale measure --out`'s lines, one record a line, or one document alone (`measure
    --json`'s object, its sizes under "points", pretty-printed or not); with the unit the records state, or None.
    A '#' line is a comment, as in a CSV of runs (it was 'line 1: not valid JSON (Expecting value)', review KJ): no
    JSON has a line that opens with '#', so none is read otherwise. allowed: what a refusal of JSON broken or too deep
    says the file may be (validate's: a CSV)."""
    text = "\n".join("" if comment_line(ln) else ln for ln in text_lines(text))  # (the lines numbered)
    records = _OneSetup(only, per="file" if option else "paste", option=option)
    broken: json.JSONDecodeError | None = None  # where the text read as one document breaks
    try:  # one JSON object, on one line or several (measure --json or a calibration, pretty-printed): read whole
        whole = loads_once(text, name)
    except DpscaleError:  # (a ValueError too: loads_once's own refusal, said as it is, not taken for lines below)
        raise
    except RecursionError:  # {"a": {"a": … 100,000 deep: a traceback once
        raise DpscaleError(f"{name}: nested too deeply; allowed: {allowed}") from None
    except json.JSONDecodeError as exc:
        whole, broken = None, exc
    except ValueError:
        whole = None
    if isinstance(whole, dict) and whole.get("format") == CALIBRATION_FORMAT:
        raise DpscaleError(
            f"{name}: an all-reduce calibration (for predict --calibration); allowed: runs — JSON lines from "
            "`dpscale measure --out`, `dpscale measure --json` output, or a CSV with devices,throughput"
        )
    if isinstance(whole, dict):
        text = json.dumps(whole)  # one line: read below as a record (its "points", or devices and throughput)

    lines = text_lines(text)
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{name} line {i}"
        try:
            rec = loads_once(line, where)
        except DpscaleError:
            raise
        except RecursionError:  # one line [[[…]]] 100,000 deep among good records: a traceback once
            raise DpscaleError(f"{where}: nested too deeply; allowed: {allowed}") from None
        except json.JSONDecodeError as exc:
            if _spans_lines(lines[i - 1 :]):  # a record pretty-printed among others: '{' read as a whole line
                raise DpscaleError(
                    f"{where}: a JSON object over several lines; allowed: one JSON object per line, or one document "
                    "alone (`dpscale measure --json` output)"
                ) from None
            raise _not_json(name, lines, i, exc, text, broken, allowed) from None
        except ValueError:  # e.g. an integer past Python's 4,300-digit conversion limit
            raise DpscaleError(f"{where}: a number too long to read; allowed: one JSON object per line") from None
        if isinstance(rec, dict) and "devices" not in rec and isinstance(rec.get("points"), list):
            # `dpscale measure --json` saved to a file: its sizes are under "points"
            for j, q in enumerate(rec["points"]):
                if not isinstance(q, dict) or "devices" not in q or "throughput" not in q:
                    raise DpscaleError(f'{where}: points[{j}]: allowed: an object with "devices" and "throughput"')
                records.add(q, f"{where} points[{j}]", f"line {i}")
            continue
        if isinstance(rec, dict) and "law" in rec and "criterion" in rec:  # `dpscale fit --json` saved to a file
            raise DpscaleError(
                f"{where}: a fitted law (`dpscale fit --json`), not runs; allowed: runs — a fit's JSON goes to plan's "
                "--efficiency-file"
            )
        if not isinstance(rec, dict) or "devices" not in rec or "throughput" not in rec:
            raise DpscaleError(
                f'{where}: got {cut(line.strip())!r}; allowed: an object with "devices" and "throughput"'
            )
        records.add(rec, where, f"line {i}")
    records.picked(name)
    runs = records.runs
    said = records.unit[0] if records.unit is not None else None
    return runs, said if isinstance(said, str) else None


def _not_json(
    name: str,
    lines: list[str],
    i: int,
    exc: json.JSONDecodeError,
    text: str,
    broken: json.JSONDecodeError | None,
    allowed: str,
) -> DpscaleError:
    """The refusal of JSON text whose line i (of `lines`, from 1), read alone, is no JSON (exc), where `broken` is how
    the whole text, read as one document, broke (None: it did not, or no JSON error): said on line i, or on the line
    where that document breaks. Not "Extra data" there, where a first document ends its line; nor JSON lines, whose
    next record reads alone: '{"devices": 1, …' without its '}' is broken on its own line, not on the next one's '{',
    where json stops (review KB). (A line before i that read alone would have broken the document there: Extra data.)"""
    where, why, at = f"{name} line {i}", exc, _break_line(text, broken)
    after = next((ln for ln in lines[i:] if ln.strip()), "")
    if at > i and not _one_object(after):
        # one document over many lines (measure --json indented by jq), cut short or mistyped on a later
        # one: where it breaks ('line 33', as plan --efficiency-file says), not its opening '{' on line 1
        why, where = cast(json.JSONDecodeError, broken), f"{name} line {at}"
    return DpscaleError(f"{where}: not valid JSON ({why.msg}); allowed: {allowed}")


def json_break(text: str, name: str, allowed: str = JSON_LINES) -> DpscaleError | None:
    """Where JSON text stops being JSON, as fit's reader of runs refuses it ('NAME line 5: not valid JSON (Expecting
    value); allowed: ALLOWED', 'NAME: nested too deeply; …'), or None where it is JSON: one document, one value a line
    ('#' lines comments), or such lines with an object spread over several, which fit refuses in words of its own.
    validate's refusal of a JSON file says where it breaks by it (review KV: it made a run of every record of fit's
    reader, and told the refusals of JSON apart from the others by the end of their text). Read to the first break."""
    lines = ["" if comment_line(ln) else ln for ln in text_lines(text)]  # (the lines numbered)
    text = "\n".join(lines)
    broken: json.JSONDecodeError | None = None  # where the text read as one document breaks
    try:
        json.loads(text)
        return None  # one document
    except RecursionError:
        return DpscaleError(f"{name}: nested too deeply; allowed: {allowed}")
    except json.JSONDecodeError as exc:
        broken = exc
    except ValueError:  # (a number past Python's 4,300 digits: JSON still)
        pass
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            json.loads(line)
        except RecursionError:
            return DpscaleError(f"{name} line {i}: nested too deeply; allowed: {allowed}")
        except json.JSONDecodeError as exc:
            return None if _spans_lines(lines[i - 1 :]) else _not_json(name, lines, i, exc, text, broken, allowed)
        except ValueError:
            continue
    return None


def _break_line(text: str, broken: json.JSONDecodeError | None) -> int:
    """The line where the text, read as one JSON document, breaks (a break at its end, as a file cut short after its
    last line's newline breaks, on its last line that is not blank); 0 where it is whole, or breaks only after one
    value ("Extra data": a first record that ends its line, JSON lines)."""
    if broken is None or broken.msg == "Extra data":
        return 0
    return len(text_lines(text[: min(broken.pos, len(text.rstrip()))]))  # (at '\r' alone too: json counts '\n')


def _one_object(line: str) -> bool:
    """Whether a line is a JSON object alone: a record of JSON lines (no line of a document jq indents is one)."""
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


def found(header: Iterable[str], most: int = 8) -> str:
    """A header's columns as the error shows them ('gpus, imgs_per_sec'), the first few of a wide one."""
    cols = [h for h in header if h] or ["—"]
    return ", ".join(cols[:most] + ["…"] * (len(cols) > most))  # (no words: said alike in every language)


def columns_named(names: list[str]) -> str:
    """'column x' or 'columns x, y': a header error's columns, the noun agreeing with how many (the Spanish agrees)."""
    return f"column{'s' * (len(names) > 1)} {', '.join(names)}"


def _spans_lines(lines: list[str]) -> bool:
    """Whether one JSON object starts on the first of these lines and ends on a later one."""
    try:
        _, end = json.JSONDecoder().raw_decode("\n".join(lines).lstrip())
    except (ValueError, RecursionError):  # ({ then [[[…]]] 100,000 deep on the next line)
        return False
    return end > len(lines[0].strip())


# Columns that name what was measured (a `dpscale measure --csv` table's set-up, a published file's configuration):
# rows that differ in one are two set-ups, not repeats of one
# (not 'batch' or 'steps': a user's global batch grows with d, and a step count may differ run by run)
CSV_SETUP = ("cfg", "model", "workload", "system", "gpu", "precision", "params", "params_millions", "per_device_batch",
             "backend", "device", "threads", "zero", "unit")  # fmt: skip

SPANISH_COLUMNS = {"dispositivos": "devices", "rendimiento": "throughput", "tiempo_de_paso": "step_time",
                   # and the set-up's (CSV_SETUP), so a Spanish file of two models is refused as an English one is
                   "modelo": "model", "sistema": "system", "precisión": "precision",
                   "dispositivo": "device", "hilos": "threads", "unidad": "unit"}  # fmt: skip


def _same_setup(
    row: tuple[str, ...], col: dict, cols: list[str], setup: dict, line: int, where: str, published: bool
) -> None:
    """A row's set-up columns against the first value each held: 30 published configurations were fitted as one
    series ('E 180.7 %', 'σ = 340 %'). A blank cell repeats the one above; 'A100' is 'a100' and '32.0' is '32'."""
    diff = []
    for h in cols:
        typed = row[col[h]].strip()
        if not typed:
            continue
        try:
            norm = repr(float(typed.replace("_", "")))
        except ValueError:
            # ('A100' is 'a100'; units: canonical_unit, a str of a str)
            norm = str(canonical_unit(typed)) if h == "unit" else typed.casefold()
        first = setup.setdefault(h, (norm, typed, line))
        if first[0] != norm:
            diff.append((h, first[1], typed, first[2]))
    if diff:
        said = ", ".join(f"{h} {a!r} → {b!r}" for h, a, b, _ in diff)
        hint = "; a published-measurements file: `dpscale validate FILE --mode fit` fits each" if published else ""
        raise DpscaleError(
            f"{where}: another set-up than line {diff[0][3]} ({said}); allowed: one set-up per file (the rows of one "
            f"{', '.join(cols)}{hint})"
        )


def csv_rows(text: str, name: str) -> tuple[list[tuple[str, ...]], list[int]]:
    """The rows of CSV text and the line each starts on. Comment lines ('#') are blanked before csv reads them (a
    quote in one opened a cell); a quoted cell may span lines (RFC 4180), but one still open at the end of the file
    is named on its line: it had swallowed every row after it ('2,"190' read the next line's 4,350 into its cell)
    or was read as closed (4,"350 fitted 350).
    Each row a tuple, not csv's list: a tuple of strings is one the garbage collector stops tracking, where its full
    passes walked every list kept — three quarters of reading 2.5 million rows (benchmarks/bench_fit.py)."""
    body = "\n".join("" if comment_line(line) else line for line in text_lines(text))
    rows: list[tuple[str, ...]] = []
    starts, end = [], 0
    reader = csv.reader(io.StringIO(body, newline=""))  # (not strict: '"name" ,…' and stray quotes read as before)
    try:
        for row in reader:
            rows.append(tuple(row))
            starts.append(end + 1)
            end = reader.line_num
    except csv.Error as exc:  # a field past csv's limit, a NUL
        raise not_csv(name, end + 1, exc) from None
    try:  # (a quote left open needs a quote: a file with none is not read twice)
        for _ in csv.reader(io.StringIO(body, newline=""), strict=True) if '"' in body else ():
            pass
    except csv.Error as exc:
        if CSV_OPEN_QUOTE in str(exc) and starts:  # (strict's other complaints: read as above)
            raise not_csv(name, starts[-1], exc) from None
    return rows, starts


RUN_COLUMNS = ("devices", "throughput")  # the columns (or a record's keys) that make runs: what fit needs


def holds_runs(names: Iterable[str]) -> bool:
    """Whether a header's names (as `header_names` reads them) or a record's keys are those of runs, which fit
    reads: the one rule by which validate and plan --efficiency-file send such a file to `dpscale fit`.

    >>> holds_runs(header_names(["Dispositivos", "rendimiento", "step_time"])), holds_runs({"devices": 8, "e": 0.9})
    (True, False)
    """
    return set(RUN_COLUMNS) <= set(names)


def header_names(row: Iterable[str]) -> list[str]:
    """A header's columns as they are read: a second byte-order mark (a file saved twice with one) carries no meaning
    and cannot be seen — as validate reads it, not 'missing column devices (found devices, throughput)' — nor do case
    and spaces; the Spanish page's own words for them are the English ones."""
    names = (h.replace("\ufeff", "").strip().lower() for h in row)
    return [SPANISH_COLUMNS.get(h, h) for h in names]


def read_csv_unit(text: str, name: str, dot_groups: bool = False) -> tuple[list[Run], str | None]:
    """Runs from CSV text (a file's, or a table pasted on the page), columns found by their header names, and the
    unit its unit column states (one per file: `_same_setup`) or None, by which fit labels and checks them."""
    rows, starts = csv_rows(text, name)
    skip = [not "".join(row).strip() for row in rows]  # blank lines (and the comments made blank)
    first = skip.index(False) if False in skip else 0  # the header: the first line that is neither
    header = header_names(rows[first]) if False in skip else []  # (a BOM, case, spaces, the Spanish page's words)
    missing = [c for c in RUN_COLUMNS if c not in header]
    if missing:  # a spreadsheet set to a decimal-comma language exports 'devices;throughput' and '1;2,5'
        semi = " — this file separates its columns with ';': save it as CSV with commas and decimal points"
        tab = " — this file separates its columns with tabs: save it as CSV with commas"
        hint = semi if ";" in "".join(header) else tab if "\t" in "".join(header) else ""
        raise DpscaleError(
            f"{name} line {starts[first] if starts else 1}: missing {columns_named(missing)} (found "
            f"{found(header)}); allowed: a header with devices,throughput (optional step_time){hint}"
        )
    twice = sorted({h for h in header if h in ("devices", "throughput", "step_time") and header.count(h) > 1})
    if twice:  # which one is meant? (a dict of columns would keep the last silently)
        raise DpscaleError(f"{name} line {starts[first]}: {columns_named(twice)} twice; allowed: each once")
    col = {h: i for i, h in enumerate(header)}
    # global_batch beside batch: batch is per rank, the set-up (weak scaling), as per_device_batch is; and where the
    # table is `dpscale measure --csv`'s (its workload or backend, as `_OneSetup` knows a record) its steps too, as
    # its records' (SETUP_KEYS): two runs appended at batch 64 and 32 were fitted as one. A hand-made table's steps
    # may differ run by run (review JS: runs of 100, 200, 400 steps beside a global_batch were refused)
    measured = "global_batch" in col and ("workload" in col or "backend" in col)
    per_rank = ("batch", "steps") if measured else ("batch",) if "global_batch" in col else ()
    setup_cols = [h for h in header if h in CSV_SETUP or h in per_rank]
    typed_header = rows[first]  # a table appended with its header (`measure --csv >> runs.csv`): that line is skipped
    dev = col["devices"]
    setup: dict[str, tuple[str, str, int]] = {}  # column → (its first value, as normalised and as typed; its line)
    published = "cfg" in header and "baseline_devices" in header  # the dataset format `validate` reads
    said = "oversubscribed" in col or "replica_drift" in col  # `dpscale measure --csv`'s checks of each size
    runs = []
    for k in range(first + 1, len(rows)):
        if skip[k]:
            continue
        row, i = rows[k], starts[k]
        if row == typed_header or (
            len(row) == len(header) and not row[dev].strip().isdigit() and header_names(row) == header
        ):
            continue  # the header again as it reads (a BOM: two files saved with one joined; 'Devices'; Spanish)
        where = f"{name} line {i}"
        extra = len(row) > len(header) and "".join(row[len(header) :]).strip()  # a trailing comma; '8,1,100' not
        if len(row) < len(header) or extra:
            raise DpscaleError(
                f"{where}: got {len(row)} fields; allowed: {len(header)} as in the header (write numbers "
                "without thousands separators: 1100, not 1,100)"
            )
        _same_setup(row, col, setup_cols, setup, i, where, published)
        step = row[col["step_time"]] if "step_time" in col else None
        run = make_run(row[col["devices"]], row[col["throughput"]], step, where, dot_groups)
        runs.append(_checked(run, _measured(row, col)) if said else run)
    if not runs:  # a header alone: 'RUNS: got none' blamed a file that was given
        raise DpscaleError(f"{name}: no runs after the header; allowed: one row per run (devices,throughput)")
    return runs, setup["unit"][1] if "unit" in setup else None


def _measured(row: tuple[str, ...], col: dict) -> dict:
    """A `dpscale measure --csv` row's checks as its JSON record gives them, for `_checked`: its `oversubscribed` cell
    'true' (the JSON's true) and its `replica_drift` number (a blank cell: FSDP's shards, or none). fit read neither
    column, and the same runs said their oversubscribed sizes from --out's lines but not from measure's own CSV."""
    over = row[col["oversubscribed"]].strip().lower() == "true" if "oversubscribed" in col else False
    try:
        drift: float | None = float(row[col["replica_drift"]]) if "replica_drift" in col else None
    except ValueError:  # (not measure's number: read as no check, as a JSON record's text is)
        drift = None
    return {"oversubscribed": over, "replica_drift": drift}


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


ONLY_WITH = "runs from a file or `dpscale measure` records (dicts), whose set-up it picks"


def runs_from(
    source: Any = None, devices: Any = None, throughput: Any = None, step_time: Any = None, only: Any = None
) -> Runs:
    """The API's inputs: a path, a list of (d, X) / (d, X, t) pairs or dicts, or devices= and throughput= lists.
    only: of a file or a list of `dpscale measure` records of several set-ups, the one to fit (`only_of`)."""
    runs: list[Run] = []
    picks = only_of(only)
    records = _OneSetup(picks, per="fit", option="only")
    if picks and source is None:  # devices= and throughput= columns carry no set-up to pick by
        raise fail("only", only, ONLY_WITH)
    if source is not None and (devices is not None or throughput is not None):  # once merged as repeats
        raise DpscaleError("runs and devices=/throughput=: two sets of runs; allowed: one of them")
    if source is not None and step_time is not None:  # was ignored: the fit went on without step times
        raise DpscaleError(
            "step_time: given beside runs; allowed: step times inside the runs ((devices, throughput, step_time) or "
            "a dict's step_time), or step_time= with devices= and throughput="
        )
    unit = None
    if isinstance(source, (str, Path)):
        runs, unit = read_runs_unit(source, picks, option="only")
    elif isinstance(source, Mapping) or hasattr(source, "columns"):  # columns (a dict, a DataFrame): each key was
        # read as a run
        raise DpscaleError(
            f"runs: got a mapping ({type(source).__name__}); allowed: a list of runs ((devices, throughput) pairs or "
            "dicts), or columns as fit(devices=[…], throughput=[…])"
        )
    elif source is not None:
        if not hasattr(source, "__iter__") or isinstance(source, bytes) or getattr(source, "ndim", 1) == 0:  # fit(5)
            raise DpscaleError(f"runs: got {source!r}; allowed: a file's path, or (devices, throughput) pairs")
        for i, item in enumerate(source):
            if type(item) is Run and not picks:  # (a file's runs the CLI read: millions of them, each checked)
                runs.append(item)
                continue
            where = f"runs[{i}]"
            if picks and not isinstance(item, dict):  # a pair says no set-up: it would be fitted whatever was picked
                raise fail("only", only, f"{ONLY_WITH}; {where} is {cut(str(item))}")
            if hasattr(item, "tolist") and getattr(item, "ndim", 0) == 1:  # a row of a (n, 2) numpy array
                item = item.tolist()
            if isinstance(item, Run):
                runs.append(item)
            elif isinstance(item, dict):  # `dpscale measure` records loaded by hand: one set-up, one unit, as in a file
                records.add(item, where, where, typed=True)
            elif isinstance(item, (tuple, list)) and len(item) in (2, 3):
                runs.append(make_run(*item, where=where, typed=True))  # type: ignore[misc]  # (2 or 3 items)
            else:
                raise DpscaleError(f"{where}: got {item!r}; allowed: (devices, throughput) or a dict with those keys")
        records.picked("runs")
    runs += records.runs
    if devices is not None or throughput is not None:
        if devices is None or throughput is None:  # throughput= alone was said 'got 3 values for 0 device counts'
            left, each, per = "devices", "device count", "throughput"
            if throughput is None:
                left, each, per = "throughput", "throughput", "device count"
            raise DpscaleError(f"{left}: missing; allowed: one {each} per {per}, as fit(devices=[…], throughput=[…])")
        ds, xs = list(_seq(devices, "devices")), list(_seq(throughput, "throughput"))
        ts = list(_seq(step_time, "step_time")) if step_time is not None else [None] * len(ds)
        for name, got in (("throughput", xs), ("step_time", ts)):
            if len(got) != len(ds):  # (step_time=0.03 for three sizes blamed throughput, which had three)
                raise DpscaleError(
                    f"{name}: got {counted(len(got), 'value')} for {counted(len(ds), 'device count')}; "
                    "allowed: one per device count"
                )
        runs += [make_run(d, x, t, f"point {i}", typed=True) for i, (d, x, t) in enumerate(zip(ds, xs, ts))]
    # the unit the runs state, kept with them: a notebook's Fit of tokens/s runs handed its per-device rate on as
    # samples/s (the CLI checks it; the library's Fit said none)
    said = unit or (str(records.unit[0]).strip() if records.unit and isinstance(records.unit[0], str) else None)
    return replace(combine(runs), unit=said or None)


def _seq(x: Any, name: str) -> Iterable[Any]:
    """A column of fit(devices=…, throughput=…, step_time=…): a list, a tuple, an array, a range or any other ordered
    iterable; one number is a column of one. (range(1, 5) was read as one device count, 'got range(1, 5)', and a
    generator of 4 sizes as 'throughput: got 4 values for 1 device count'.) A set has no order to pair by."""
    if hasattr(x, "tolist"):
        x = x.tolist()
    if isinstance(x, (set, frozenset, Mapping)):  # {1, 8, 16} iterates in hash order: paired with the wrong rates
        raise fail(name, x, "an ordered column (a list, a tuple, a range or an array), one value per run")
    if isinstance(x, (str, bytes)) or not hasattr(x, "__iter__"):
        return [x]
    return list(x)
