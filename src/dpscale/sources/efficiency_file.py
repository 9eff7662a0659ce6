"""E per size from a JSON file another command wrote, for `plan --efficiency-file`: `predict`/`calc --json`
records, `fit --json`'s report or `measure --json`'s points, read with the E they are relative to, the
per-device throughput and unit the file states (and a language model's tokens a sample, where predict gives
them), the writer's warnings and E's band where every record gives one.
A file of runs (`measure --out`'s lines), a calibration or another command's JSON is refused by name.
"""

from __future__ import annotations

import json
import math
from typing import Any, NamedTuple

from dpscale.errors import MAX_DEVICES, MAX_SEQ_LEN, DpscaleError, fail, is_rate, renamed
from dpscale.files import content_line, loads_once, not_json, read_text, shown
from dpscale.formulas.scaling import ONE_DEVICE_E
from dpscale.formulas.units import canonical_unit
from dpscale.outputs import CALC_KEYS, OTHER_OUTPUT, output_of, output_of_csv, output_of_text, second_document
from dpscale.sources.fit_runs import _field
from dpscale.sources.measure import CALIBRATION_FORMAT, REPEAT_SPREAD_E
from dpscale.sources.runs_csv import csv_rows, header_names, holds_runs, runs_header
from dpscale.sources.runs_json import json_lines


def runs_lines(path: str) -> bool:
    """A file of JSON lines whose first is a run (devices and throughput): what `measure --out` writes (plan
    --efficiency-file and predict --calibration send it to `dpscale fit`). Its lines as
    fit, plan --fit and `measure --out` read them (runs_json.json_lines): '#' lines skipped (review KJ: records below
    one were 'line 1: not JSON', review KP), and a byte-order mark opening a line dropped ('# c' above a file saved
    with one was 'line 1: not JSON (Expecting value)', review LH)."""
    try:
        lines = json_lines(read_text(path))
        first = next((line for line in lines if content_line(line)), "")
        head = json.loads(first)
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(head, dict) and holds_runs(head)


def runs_table(path: str) -> bool:
    """A CSV whose header names devices and throughput, in English or the Spanish page's words (plan
    --efficiency-file and predict --calibration send it to `dpscale fit`), read as `fit` and `plan --fit` read it
    (`csv_rows`: '#' comments and empty rows such as ',,,' skipped, a quoted name whole): runs, as `measure --csv`
    writes them. (Review JS: split at commas below the first line not blank, ',,,' above the header hid a file --fit
    plans, and one column "devices, throughput", which fit refuses, was sent there.)"""
    try:
        rows, _ = csv_rows(read_text(path), shown(path))
    except (OSError, ValueError):  # (DpscaleError: a quote left open — no CSV fit reads either)
        return False
    head = next((row for row in rows if "".join(row).strip()), ())
    # one cell of a spreadsheet's tabs or ';' (runs_csv.runs_header reads them as commas): fit tells it to save the
    # file with commas; it said 'line 1: not JSON (Expecting value)' here (review KE's left-alone)
    one = len(head) == 1 and ("\t" in head[0] or ";" in head[0]) and runs_header(head[0])
    return holds_runs(header_names(head)) or one


def other_output(path: str, own: str | None = None) -> str | None:
    """Which command wrote the file at path (outputs.output_of_text; a command's --csv: other_csv), by which a
    catalog file's reader names another command's output when it refuses the file; None for anything else, a file
    that cannot be read (its reader has said why), or one holding the reader's own catalog key, `own` ("systems",
    "models"; None for a reader of no catalog format, --calibration), whatever else it holds: a user's one file of
    {"systems": …, "models": …}, which --system-file and --model-file both read (review MR: its model's 'kind
    missing' was 'a system file')."""
    try:
        text = read_text(path)
        other = output_of_text(text) or other_csv(path)
    except (OSError, ValueError):
        return None
    try:  # (whatever output_of named: a "models" object beside runs' keys was 'runs of `dpscale measure`' to
        # --model-file, its model's fault hidden, where the same file of a sound model is read: review MW)
        data = json.loads(text) if other is not None else None
    except (ValueError, RecursionError):  # (its first line alone named it: not a file of the reader's format)
        data = None
    mine = own is not None and isinstance(data, dict) and isinstance(data.get(own), dict)
    return None if mine else other


def other_csv(path: str) -> str | None:
    """Which command's --csv the file at path is (outputs.output_of_csv: calc's, predict's, fit's …; review MT), "runs"
    for a CSV of runs (runs_table: `measure --csv`'s, tabs and ';' too), or None; None too where it cannot be read."""
    try:
        other = output_of_csv(read_text(path))
    except (OSError, ValueError):
        return None
    return other if other not in (None, "runs") else "runs" if runs_table(path) else None


def model_file(path: str, name: str | None = None) -> dict[str, Any]:
    """catalog.load_model_file (predict's and memory's --model-file), its refusal of another command's output, or of
    a system file, naming what it is and which command reads it (review MO: calc's, pipeline's, validate's JSON and
    systems.json said "model 'calc.json': kind missing", predict's, plan's, memory's and batch's "allowed: an object
    {'models': …}", fit's "key 'parameters' (did you mean 'params'?)", `measure --out`'s 'line 2: not JSON')."""
    from dpscale import catalog

    try:
        return catalog.load_model_file(path, name)
    except DpscaleError:
        other = other_output(path, "models")
        if other in (None, "model"):  # a model file of its own format: its own refusal
            raise
        raise DpscaleError(f"--model-file: {shown(path)}: {OTHER_OUTPUT[other]}; allowed: {MODEL_FILE}") from None


MODEL_FILE = "a JSON file as models.json, or a Hugging Face config.json"


def _device_count(x: Any) -> bool:
    """A JSON value that is a whole device count from 1 to MAX_DEVICES (not true, 2.5, -5, NaN or text)."""
    return not isinstance(x, bool) and isinstance(x, (int, float)) and 1 <= x <= MAX_DEVICES and x == int(x)


ONE_UNIT = "one throughput unit per file"
SUPERLINEAR_PLAN = (
    f"E in (0, 1], or up to {REPEAT_SPREAD_E:g} (a repeat's spread, planned as 1): a measured E above that "
    "(superlinear, which calc and measure report) is not planned on; fit the runs (plan --fit), whose laws stay at or "
    "below 1, or give --efficiency"
)


# what the file may be, as every refusal of it says
ACCEPTED = "JSON from `dpscale predict`, `fit` or `measure --json` (records with devices and efficiency)"
RUNS_LINES = f"{ACCEPTED}; this file holds runs, one a line (`measure --out`): give it as --fit FILE"


class EfficiencyFile(NamedTuple):
    e: Any  # a PerSize E source
    d0: int  # the size E is relative to
    v: float | None  # the per-device throughput the file states (at d0), or None
    unit: str | None  # that throughput's unit, where the file says or its command fixes it (predict: samples/s)
    warnings: list[str]  # what the command that wrote it warned of (fit's report carries them)
    band: dict[int, tuple[float, float]] | None = None  # E lo–hi per size, where every record gives one
    level: float | None = None  # that band's coverage: predict's 80 % band, a fit's confidence
    tokens: int | None = None  # a language model's tokens a sample, where every record states one (predict's)
    held: tuple[tuple[int, float], ...] = ()  # sizes whose E, above 1 by a repeat's spread at most, is planned as 1


def read_efficiencies(path: str, flag: str = "--efficiency-file") -> EfficiencyFile:
    """E per size from a JSON file another command wrote: `predict`/`calc --json` (an array of records, E
    relative to one device), `fit --json` ({"predictions": [...]}, E relative to its "baseline_devices") or
    `measure --json` ({"points": [...]}, E relative to its smallest size). Returns the per-size E, that d0, the
    per-device throughput v the file states (or None), its unit where known, and the writer's warnings: no
    guessing between sizes, and each bad record named."""
    from dpscale.sources.laws import PerSize

    data = _document(path, flag)
    records, d0 = data, None
    if isinstance(data, dict) and data.get("format") == CALIBRATION_FORMAT:  # its points are bytes, not sizes
        raise fail(flag, path, f"{ACCEPTED}; this is an all-reduce calibration (for predict --calibration)")
    if isinstance(data, dict) and "predictions" not in data and "points" not in data and holds_runs(data):
        # one `measure --out` record (a file of one size), which read as a file of E was planned on its E against its
        # own baseline_devices as against 1, and its rate at that size as the baseline's; two records were refused
        # as runs, as one is now (review KJ)
        raise fail(flag, path, RUNS_LINES)
    other = output_of(data)
    if other in (
        "validate",
        "memory",
        "pipeline",
        "batch",
        "system",
        "model",
    ):  # no E per size: named (review ML: validate's said only
        # 'allowed: JSON from …'; memory's, pipeline's and batch's 'pipeline, memory or batch', not which)
        raise DpscaleError(f"{flag}: {shown(path)}: {OTHER_OUTPUT[other]}; allowed: {ACCEPTED}")
    if isinstance(data, dict):
        records = data.get("predictions") or data.get("points") or [data]
        d0 = data.get("baseline_devices") if "predictions" in data else None
    if not isinstance(records, list) or not records or not all(isinstance(r, dict) for r in records):
        raise fail(flag, path, ACCEPTED)
    if not any("efficiency" in r for r in records):  # another command's JSON: 'record 1: efficiency None' said less
        raise fail(flag, path, f"{ACCEPTED}; this file's records have no efficiency (the JSON of pipeline, memory or "
                               "batch gives no E per size)")  # fmt: skip
    table: dict[int, float] = {}
    for i, r in enumerate(records, 1):
        d, e = r.get("devices"), r.get("efficiency")
        if not _device_count(d):
            raise fail(flag, f"record {i}: devices {_field(r, 'devices')}", f"a whole number from 1 to {MAX_DEVICES:,}")
        if isinstance(e, bool) or not isinstance(e, (int, float)) or not 0 < e <= REPEAT_SPREAD_E:
            # calc and measure report a measured E above 1 (superlinear); a plan does not bank on it
            why = SUPERLINEAR_PLAN if isinstance(e, (int, float)) and 1 < e <= 2 else "E in (0, 1]"
            raise fail(flag, f"record {i}: efficiency {_field(r, 'efficiency')}", why)
        # one device is its own reference, not a repeat's spread: 1.015 was planned as 1 — where the file's reference
        # is one device: a fit's from 2 devices states E(1) above 1 by construction (review MD)
        if int(d) == 1 and e > 1 and d0 in (None, 1):
            raise fail(flag, f"record {i}: efficiency {_field(r, 'efficiency')}", ONE_DEVICE_E)  # (as 0.985 is refused)
        if table.setdefault(int(d), float(e)) != float(e):
            raise fail(flag, f"record {i}: devices {int(d)} again", "one E per size")
    # within a repeat's spread above 1, which measure leaves unsaid: planned as 1, and plan says so
    held = {d: e for d, e in table.items() if e > 1}
    table.update(dict.fromkeys(held, 1.0))
    sizes = sorted(table)
    if isinstance(data, dict) and "points" in data:  # measure: E against its baseline, the smallest size
        # (or a smaller earlier run of --out's file, which each point names: `-d 4,8` after `-d 1` is against 1)
        named = {r.get("baseline_devices") for r in records}
        d0 = named.pop() if len(named) == 1 and isinstance(next(iter(named)), int) else sizes[0]
        # the rate at that baseline, as E is (none when the baseline ran earlier, outside this document)
        said = [r.get("per_device_throughput") for r in records if r.get("devices") == d0]
    else:
        said = [r.get("per_device_throughput") for r in (data if isinstance(data, list) else [data])]
    rates = {x if isinstance(x, (int, float)) else None for x in said}  # ([100] or {}: unhashable, and no rate)
    v = rates.pop() if len(rates) == 1 else None  # predict/calc records and fit's report say theirs, once
    v = float(v) if is_rate(v) else None
    if d0 is not None and not _device_count(d0):  # 2.5 was cut to 2, true and -5 read as 1, 'x' crashed
        raise fail(flag, f"baseline_devices {d0!r}", f"a whole number from 1 to {MAX_DEVICES:,}")
    unit = _unit(records, data, flag)
    said_warnings = data.get("warnings") if isinstance(data, dict) else None
    warnings = [w for w in said_warnings if isinstance(w, str)] if isinstance(said_warnings, list) else []
    try:
        e_src = PerSize.of(sizes, [table[d] for d in sizes])
    except DpscaleError as exc:  # E(1) ≠ 1: said under the file's flag, like the records' own errors
        raise renamed(exc, flag) from None
    band, level = _band(records, table, data)
    return EfficiencyFile(e_src, int(d0 or 1), v, unit, warnings, band, level, _tokens(records), tuple(held.items()))


def _document(path: str, flag: str) -> Any:
    """The file's JSON, or the one line that says why it is none: unreadable, not UTF-8, `measure --out`'s runs (one
    a line), or where its JSON breaks."""
    try:
        return loads_once(read_text(path), f"{flag} {shown(path)}")  # (an editor's byte-order mark is dropped)
    except DpscaleError:
        raise
    except OSError as exc:
        raise fail(flag, path, f"{ACCEPTED} ({exc.strerror})") from None
    except UnicodeDecodeError:  # (said as the other readers say it: the file's fields were never the matter)
        raise fail(flag, path, f"{ACCEPTED} (not UTF-8 text)") from None
    except (ValueError, RecursionError) as exc:
        if runs_lines(path):  # `measure --out`'s records, one a line: `fit` and `plan --fit` read those
            raise fail(flag, path, RUNS_LINES) from None
        other = other_csv(path)  # calc's, predict's, fit's --csv …: 'line 1: not JSON (Expecting value)' (review MT)
        if other not in (None, "runs"):
            raise DpscaleError(f"{flag}: {shown(path)}: {OTHER_OUTPUT[other]}; allowed: {ACCEPTED}") from None
        if runs_table(path):  # `measure --csv`'s table (or any runs CSV): said 'line 1: not JSON' and nothing more
            raise fail(flag, path, f"{ACCEPTED}; this file is a CSV of runs (`measure --csv`): give it as --fit "
                       "FILE") from None  # fmt: skip
        if isinstance(exc, json.JSONDecodeError):  # a file cut short or mistyped: where it breaks, as --system-file;
            # two outputs appended (`>>`): the second's line, after what the first is (review MT)
            where = f"{flag}: {shown(path)}"
            raise second_document(where, exc) or not_json(where, exc, ACCEPTED) from None
        if isinstance(exc, RecursionError):  # ('[[[…' 100,000 deep) in the words of fit, validate and --system-file
            raise DpscaleError(f"{flag}: {shown(path)}: nested too deeply; allowed: {ACCEPTED}") from None
        raise fail(flag, path, ACCEPTED) from None


def _unit(records: list[dict[str, Any]], data: Any, flag: str) -> str | None:
    """The unit of the file's per-device throughput: fit's report and measure's records say it; predict's records,
    and calc's that say none, are samples/s by definition. Two units in one file are refused."""
    stated = [r.get("unit") for r in records] + ([data.get("unit")] if isinstance(data, dict) else [])
    if any(isinstance(u, str) and u.strip() for u in stated):  # a row of calc's or predict's without one is samples/s
        # beside it (calc's 100 samples/s at 1 device and 100 tokens/s at 8 were planned as tokens/s, unsaid)
        stated[: len(records)] = [
            "samples/s" if _samples_by_definition(r) and not (isinstance(u, str) and u.strip()) else u
            for r, u in zip(records, stated)
        ]
    # each unit once as runs compare it ('Tokens/s' is tokens/s: two spellings read as two units, so none, and plan
    # took a tokens/s rate as samples/s without a word), said as first written (a list: unhashable; "": none)
    units: dict[Any, str] = {}
    for i, u in enumerate(stated, 1):
        if isinstance(u, str) and u.strip():
            units.setdefault(canonical_unit(u), u)
            if len(units) > 1:  # two units: none was taken, and plan read the file's rate as samples/s unsaid
                where = f"record {i}: " if i <= len(records) else ""  # (else the document's own unit)
                raise fail(flag, f"{where}unit {u} against {next(iter(units.values()))}", ONE_UNIT)
    if units:
        return next(iter(units.values()))
    # predict's records (a bottleneck each) and calc's (its four rates and counts, a "unit" only past samples/s) are
    # samples/s by definition: a calc file without one was planned in any --unit, 300e9 tokens at 14 sequences/s
    return "samples/s" if all(_samples_by_definition(r) for r in records) else None


def _samples_by_definition(r: dict[str, Any]) -> bool:
    """predict's record (a bottleneck) or calc's (its four rates and counts): samples/s unless it says a unit."""
    return "bottleneck" in r or CALC_KEYS <= r.keys()


def _tokens(records: list[dict]) -> int | None:
    """The tokens a sample that a language model's prediction states in every record (`tokens_per_sample`, its
    sequence length), or None: a file that lacks it, or gives two or a value no sequence has, states none, and plan
    then takes its rate in samples/s alone, as before it was written."""
    said = {_sequence(r.get("tokens_per_sample")) for r in records}
    return said.pop() if len(said) == 1 else None


def _sequence(x: Any) -> int | None:
    """A JSON value that is a whole number of tokens from 1 to MAX_SEQ_LEN (not true, 2.5, NaN or text), or None."""
    ok = not isinstance(x, bool) and isinstance(x, (int, float)) and math.isfinite(x) and x == int(x)
    return int(x) if ok and 1 <= x <= MAX_SEQ_LEN else None


def _band(records: list[dict], table: dict[int, float], data: Any) -> tuple[dict | None, float | None]:
    """E lo–hi per size where every record states it around its E (predict's records, fit's predictions), and
    how much it covers: a plan on the point alone may say what the ends cost. None where any record lacks one."""
    band = {}
    for r in records:
        lo, hi = r.get("efficiency_lo"), r.get("efficiency_hi")
        if not (is_rate(lo) and is_rate(hi) and lo <= table[int(r["devices"])] <= hi):  # (a fit's hi passes 1 at d0)
            return None, None
        band[int(r["devices"])] = (float(lo), float(hi))
    if isinstance(data, dict) and "predictions" in data:  # a fit's report: its interval's confidence
        level = data.get("confidence")
        return (band, float(level)) if is_rate(level) and level < 1 else (None, None)
    if not all("bottleneck" in r for r in records):
        return None, None
    from dpscale.sources.predict import BAND_LEVEL  # (numpy: only for a prediction's file)

    return band, BAND_LEVEL
