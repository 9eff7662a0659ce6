"""Runs for `dpscale fit`, from whatever holds them: a file's path or text, CSV or JSON (`read_runs_unit`,
`runs_of_text`, told apart by `reads_as_json`), or the library's pairs, dicts and columns (`runs_from`). The runs
themselves are `fit_runs`'; their readers `runs_json` and `runs_csv`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from dpscale.errors import DpscaleError, counted, cut, fail
from dpscale.files import content_line, empty, opens_json, read_text, shown_name, text_lines
from dpscale.outputs import OTHER_OUTPUT, RUN_COLUMNS, output_of_csv, output_of_text
from dpscale.sources.fit_runs import RUNS_FILE, Run, Runs, combine, make_run
from dpscale.sources.runs_csv import found, names_a_column, read_csv_unit, runs_header
from dpscale.sources.runs_json import _OneSetup, only_of, read_jsonl


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
    text: str,
    name: str,
    only: dict[str, str] | None = None,
    dot_groups: bool = False,
    option: str = "--only",
    forms: str = RUNS_FILE,
) -> tuple[list[Run], str | None]:
    """read_runs_unit's runs from a file's text, which `name` names in messages: the page's fit field reads a paste
    of JSON lines by it, as `dpscale fit FILE` reads the file (review KJ: '--point {"devices":1,, …'), with option
    '': a paste, with no --only to pick a set-up (its refusals say 'per paste', and to paste one set-up alone).
    forms: the forms of runs its refusals of a JSON array, a calibration or blanks say it takes — a file's, or the
    page's field's own (review LN: a page's user may have no `measure --out` file; review LY: the page told its
    refusal of an array from the file's by comparing the messages)."""
    text = text.lstrip("\ufeff")  # (a second byte-order mark: a file saved twice with one, as header_names drops it)
    lines = text_lines(text)
    if not any(ln.strip() for ln in lines):
        raise empty(name, forms)
    if json_array(text):  # read as CSV, it would be refused for its header
        other = output_of_text(text)  # predict's, calc's, plan's or memory's records: named (review ML)
        if other not in (None, "runs"):
            raise DpscaleError(f"{name}: {OTHER_OUTPUT[other]}; allowed: runs — {forms}")
        raise DpscaleError(f"{name}: a JSON array; allowed: {forms}")
    is_json = reads_as_json(text)
    if only and not is_json:
        raise DpscaleError(f"{option}: {name} is a CSV; allowed: with JSON lines of `dpscale measure` records")
    return read_jsonl(text, name, only, option, forms=forms) if is_json else csv_runs(text, name, dot_groups, forms)


def csv_runs(text: str, name: str, dot_groups: bool, forms: str) -> tuple[list[Run], str | None]:
    """read_csv_unit's runs, or its refusal of another command's --csv naming it (outputs.output_of_csv), as the JSON
    of one is named: `dpscale fit calc.csv` and its table pasted in the page's fit field said 'line 1: missing column
    throughput (found devices, per_device_throughput, …)' (review MT). forms: as runs_of_text's."""
    try:
        return read_csv_unit(text, name, dot_groups)
    except DpscaleError:
        other = output_of_csv(text)
        if other not in (None, "runs") and not runs_header(_first_line(text)[1]):  # (fit's: runs, refused for a row)
            raise DpscaleError(f"{name}: {OTHER_OUTPUT[other]}; allowed: runs — {forms}") from None
        raise


def reads_as_json(text: str) -> bool:
    """Whether a user's file of runs or table is JSON: its first line neither blank nor a '#' comment opens JSON that
    ends its line (`opens_json`), or opens with '{' or '[' and names no column of fit's runs or of a published table
    (`names_a_column`): JSON broken on that line. The one rule fit, validate and the page's fit field tell JSON from a
    CSV by (review KJ: validate read a broken JSON document as a CSV, 'missing columns cfg, … (found {"devices": 1,
    …)'; review LD: '[run],devices,speed' was 'a JSON array' to fit, and a table lacking throughput to validate)."""
    text = text.lstrip("\ufeff")
    at, first = _first_line(text)
    return bool(first) and (opens_json(text[at:]) or (first.startswith(("{", "[")) and not names_a_column(first)))


def _first_line(text: str) -> tuple[int, str]:
    """Where the text's first line neither blank nor a '#' comment starts, and that line stripped ('' where none is):
    found line by line, so a 64 MiB table is not split whole to look at its head."""
    at = 0
    while at < len(text):
        brk = _LINE_BREAK.search(text, at)
        line = text[at : brk.start() if brk else len(text)]
        if content_line(line):
            return at, line.strip()
        at = brk.end() if brk else len(text)
    return at, ""


_LINE_BREAK = re.compile("\r\n|\r|\n")  # where text_lines breaks a line


def json_array(text: str) -> bool:
    """Whether runs' text is a JSON array (`reads_as_json`, its first line past comments opening with '['), which no
    reader of runs takes: the rule `runs_of_text` refuses one by, a file's or the page's fit field's paste, each
    with its own `forms`."""
    return _first_line(text.lstrip("\ufeff"))[1].startswith("[") and reads_as_json(text)


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
    if hasattr(source, "columns") and not isinstance(source, Mapping):  # a DataFrame (review MV: it was refused)
        source = table_rows(source)
    if isinstance(source, (str, Path)):
        runs, unit = read_runs_unit(source, picks, option="only")
    elif isinstance(source, Mapping):  # columns as a dict: each key was read as a run, and one record is a mapping too
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


def table_rows(table: Any) -> list[dict[str, Any]]:
    """A table's rows as the dicts `dpscale measure` records are, by its column names: a pandas (or polars) DataFrame
    read duck-typed, neither imported. `fit(df)` was refused 'got a mapping (DataFrame)' (iterating one gives its
    column names), the first thing a notebook tries (review MV). A blank cell (NaN or None, as pandas holds a CSV's
    blank or a record's missing key) of a column other than devices and throughput is a cell not given, its key left
    out as a record without it leaves it (review MY: it was None, so DataFrame(records) whose mlp records have no
    "zero" held zero=None, another set-up than ZeRO 0, and only={"zero": 1} was refused where the records' list is
    read); theirs stays NaN, refused naming the run. A whole float there is an int, as in the records."""
    try:
        names = list(table.columns)
        readable = set(RUN_COLUMNS) <= set(names) and len(set(names)) == len(names)
    except TypeError:  # (columns that are no list of names: None, unhashable column objects)
        names, readable = [], False
    if not readable:
        raise DpscaleError(
            f"runs: got a table ({type(table).__name__}) with columns {found(str(n) for n in names)}; allowed: "
            "columns devices and throughput (step_time, unit optional), each once, or columns as "
            "fit(devices=df[…], throughput=df[…])"
        )
    try:  # (a table whose column is one value, or none by its name, or columns of two lengths: zip dropped a run)
        cells = [list(table[c]) for c in names]
        rows = list(zip(*cells, strict=True))
    except (TypeError, KeyError, ValueError):
        raise DpscaleError(
            f"runs: got a table ({type(table).__name__}) whose columns do not read as lists of one length; allowed: "
            "a DataFrame (pandas, polars), or columns as fit(devices=df[…], throughput=df[…])"
        ) from None
    # a set-up's whole number as the records hold it: pandas holds a column with a blank as floats, and only= compares
    # the text (zero=1.0 was not only={"zero": 1})
    return [
        {c: v if c in RUN_COLUMNS else _as_int(v) for c, v in zip(names, row) if c in RUN_COLUMNS or not _blank(v)}
        for row in rows
    ]


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _as_int(value: Any) -> Any:  # (not fit._whole, a check: this one converts)
    return int(value) if isinstance(value, float) and value.is_integer() else value


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
