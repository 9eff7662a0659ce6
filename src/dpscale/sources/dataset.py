"""Reader for the published-measurements CSV (format: validation/published_scaling_dev.md, ../shared/data/README.md).

Rows are grouped by `cfg`; every configuration has a baseline row (devices == baseline_devices), its smallest
size, and measured E(d) = throughput(d) / ((d / d0) · throughput(d0)). Repeats of the baseline (same size, batch
and accumulation) give it their mean throughput, as `fit` averages repeated runs. Malformed input
raises one DpscaleError naming the file, the line (where the record starts) and the column.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

from dpscale import catalog
from dpscale.errors import MAX_DEVICES, PLAIN_DIGITS, DpscaleError, comma_hint, cut, fail, python_spelled
from dpscale.files import empty, not_csv, opens_json, read_bytes, shown
from dpscale.formulas.scaling import MAX_SOLVED_E, UNIT_SLIP, past, past_max_e, per_step, relative_efficiency
from dpscale.outputs import OTHER_OUTPUT, output_of_header, output_of_text

REQUIRED = (
    "cfg",
    "baseline_devices",
    "grad_accum",
    "units_per_sample",
    "system",
    "gpus_per_node",
    "intra_bw_gbs",
    "inter_bw_gbs",
    "model",
    "precision",
    "per_device_batch",
    "devices",
    "throughput",
    "params_millions",
)


@dataclass(frozen=True)
class Row:
    file: str  # the path as given: two files of one name in different folders stay apart
    line: int
    cfg: str
    devices: int
    baseline_devices: int
    grad_accum: int
    units_per_sample: float | None  # None: unknown (tokens/s with no sequence length)
    system: str
    gpu: str
    hardware: str  # the source's description, e.g. 'NVIDIA DGX A100 (8x A100 40GB)'; may state the memory
    gpus_per_node: int | None  # None: blank (the system's catalog entry may know it)
    intra_bw_gbs: float | None  # None: blank or 0 (no such link, or not stated)
    inter_bw_gbs: float | None
    model: str
    framework: str
    precision: str
    per_device_batch: float | None  # None: not stated (no step time)
    throughput: float
    unit: str
    params_millions: float | None  # None: not stated (no gradient size)


@dataclass(frozen=True)
class Config:
    cfg: str
    rows: tuple[Row, ...]  # sorted by devices, baseline first

    @cached_property  # once: every row's E reads it, and a scan of the rows per read made validate quadratic
    def baseline(self) -> Row:
        """The baseline row; with repeats (same size, batch and accumulation), at their mean throughput. The rows
        themselves stay apart: `validate --mode fit` gives each run to the fit, whose intervals use the spread."""
        first = self.rows[0]
        same = [r.throughput for r in self.rows if (r.devices, r.per_device_batch, r.grad_accum) ==
                (first.devices, first.per_device_batch, first.grad_accum)]  # fmt: skip
        return first if len(same) == 1 else replace(first, throughput=sum(same) / len(same))

    @cached_property  # once: the predictor reads it per row and per link, each a search of the catalog's names
    def preset(self) -> dict:
        """The system's catalog entry ({} for a system the catalog lacks): it fills blank columns."""
        b = self.baseline  # 'DGX-1' is a P100 or a V100 system: the GPU column (else the hardware text) says which
        key = catalog.key_of("systems", b.system, b.gpu or b.hardware) if b.system.strip() else None
        return catalog.table("systems")[key] if key else {}

    @property
    def gpus_per_node(self) -> int | None:
        """The baseline row's node size (else another row's), else its system's in the catalog; None when
        nothing says."""
        stated = [r.gpus_per_node for r in self.rows if r.gpus_per_node is not None]
        return stated[0] if stated else self.preset.get("gpus_per_node")

    def efficiency(self, row: Row) -> float:
        b = self.baseline
        return relative_efficiency(row.throughput, row.devices, b.throughput, b.devices)

    def step_time(self, row: Row | None = None) -> float | None:
        """Seconds per optimizer step of one device at this row's size (README formula: the row's per-device
        rate); None when units are unknown."""
        r = row or self.baseline
        if r.units_per_sample is None or r.per_device_batch is None:
            return None
        return per_step(r.per_device_batch * r.grad_accum * r.units_per_sample, r.throughput / r.devices)


# Upper bounds per column, far past any published run, that keep the step model's arithmetic finite (a 1e308
# in a cell is a typo); bandwidths also have a floor (a 1e-320 GB/s link would take forever).
# Device counts stop at MAX_DEVICES (no published run is larger), said for every bad count alike: '1e400', '8.5'
# and 'x' were told 'a whole number ≥ 1' (review HL).
LIMITS = {"grad_accum": 1e6, "units_per_sample": 1e7, "gpus_per_node": 1e5, "intra_bw_gbs": 1e6,
          "inter_bw_gbs": 1e6, "per_device_batch": 1e9, "throughput": 1e15, "params_millions": 1e9,
          "devices": MAX_DEVICES, "baseline_devices": MAX_DEVICES}  # fmt: skip
FLOORS = {"intra_bw_gbs": 1e-3, "inter_bw_gbs": 1e-3}
# A micro-batch is at least one sample; a fraction is an average over uneven shards (a strong-scaling table's global
# batch over a device count it does not divide), so it may stay — but 1e-320 would make compute vanish.
MINIMUMS = {"per_device_batch": 1.0}


def _num(rec: dict, col: str, line: int, path: str, kind=float, blank_ok: bool = False, zero_is_blank: bool = False):
    text = (rec.get(col) or "").strip()
    if blank_ok and text == "":
        return None
    if zero_is_blank and text and _is_zero(text):
        return None
    spelled = python_spelled(text)  # '1_6' and a fullwidth '４' are Python's spellings, not a CSV number's
    try:
        x = (kind(float(text)) if kind is int else kind(text)) if not spelled else None
    except (ValueError, OverflowError):  # int(float('1e400')) overflows
        x = None
    hi, lo, least = LIMITS.get(col, math.inf), FLOORS.get(col, 0.0), MINIMUMS.get(col, -math.inf)
    bad = x is None or not math.isfinite(x) or x <= lo or x < least or x > hi
    if bad or (kind is int and float(text) != x):
        if kind is int:
            what = f"a whole number from 1 to {hi:,.0f}" if math.isfinite(hi) else "a whole number ≥ 1"
        elif math.isfinite(least):
            what = f"a number from {least:g} to {hi:,.0f}"
        else:
            what = f"a number > {lo:g}" + (f" and ≤ {hi:,.0f}" if math.isfinite(hi) else "")
        if x is None:  # '1,234.5' quoted, or '2,5': told how to write it, as fit's runs files and the flags are
            what = PLAIN_DIGITS if spelled else comma_hint(text) or what
        raise fail(f"{path} line {line}, column {col!r}", cut(text), what)
    return x


def _count(rec: dict, col: str, line: int, path: str) -> int:
    """A device count: whole, from 1 to MAX_DEVICES (LIMITS)."""
    return _num(rec, col, line, path, int)


def _is_zero(text: str) -> bool:
    try:
        return float(text) == 0
    except ValueError:
        return False


PUBLISHED_NOT_JSON = (  # what validate's refusal of a JSON file says it takes
    "a published-measurements CSV — runs from `dpscale measure --out` or `--json` go to `dpscale fit FILE`"
)


def read_published(path: str | Path) -> list[Config]:
    """Parse and group the CSV; configurations keep file order. '-': standard input (named so in messages)."""
    name = shown(path)
    try:
        raw = read_bytes(path)  # (not Path(path): Path('') is '.', a folder, where '' is no path at all)
    except OSError as exc:
        raise fail("DATA", str(path), f"a readable CSV file ({exc.strerror})") from None
    try:
        # -sig: spreadsheets prepend a byte-order mark; every one dropped, as files.read_text and reads_as_json drop
        # them: a file saved twice with one was 'line 1: not valid JSON (Unexpected UTF-8 BOM …)' (review KP)
        text = raw.decode("utf-8-sig").lstrip("\ufeff")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DpscaleError(f"{name} line {line}: not UTF-8 text; allowed: a CSV file saved as UTF-8") from None
    if not text.strip():
        raise empty(name, f"a CSV with a header row ({', '.join(REQUIRED)}, …)")
    from dpscale.sources.fit_io import reads_as_json
    from dpscale.sources.runs_json import json_break

    # `measure --out`'s or `--json`'s runs: 'missing columns cfg, … (found {"devices": 1, "throughput": 2119.51…, …)'
    # read a JSON record as a header; JSON broken or nested 100,000 deep was read so too (review KJ): where it
    # breaks, as fit says it
    if reads_as_json(text):  # ('[cfg],devices,imgs_per_sec' is a table: it names columns: runs_csv.names_a_column)
        broken = None if opens_json(text) else json_break(text, name, PUBLISHED_NOT_JSON)
        # another command's output, named (review ML: calc's, fit's were 'JSON'); runs, which the refusal says go to
        # fit, stay 'JSON'
        other = output_of_text(text)
        what = OTHER_OUTPUT[other] if other not in (None, "runs") and not broken else "JSON"
        raise broken or DpscaleError(f"{name}: {what}; allowed: {PUBLISHED_NOT_JSON}")
    lines = _Lines(io.StringIO(text, newline=""))
    blank = len(text) - len(text.lstrip(" \t,\r\n"))  # blank lines (or ',,,,') above the header: skipped, as
    for _ in range(text[:blank].rstrip(" \t,").count("\n")):  # `fit` skips them, keeping the line numbers
        next(lines)
    lines.next_record()  # the header's record starts at its own line
    reader = csv.DictReader(lines, strict=True)  # a quote still open at the end is an error, not a swallowed tail
    try:
        return _group(name, _rows(reader, lines, name))
    except csv.Error as exc:  # (an unclosed quote: the record that opened it)
        raise not_csv(name, lines.start, exc) from None


class _Lines:
    """The file's lines for csv, noting where each record starts: csv's line_num is where it ends, and a
    quoted cell may hold line breaks (a bad cell is named on its record's first line, not its last)."""

    def __init__(self, source: io.StringIO) -> None:
        self.source, self.n, self.start, self.fresh = source, 0, 1, True

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        line = next(self.source)
        self.n += 1
        if self.fresh and line.rstrip("\r\n"):  # csv skips empty lines; a record starts at the next one
            self.start, self.fresh = self.n, False
        return line

    def next_record(self) -> None:
        self.fresh = True


SEPARATORS = {";": "';'", "\t": "tabs"}  # what spreadsheets export instead of commas


def _rows(reader: csv.DictReader, lines: _Lines, name: str) -> dict[str, list[Row]]:
    """The rows, grouped by configuration id in file order; a bad cell names its line and column."""
    if reader.fieldnames:  # 'Devices', ' cfg', a second byte-order mark: carry no meaning (the mark is invisible)
        reader.fieldnames = [(f or "").replace("\ufeff", "").strip().lower() for f in reader.fieldnames]
    missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
    if missing:
        from dpscale.sources.runs_csv import columns_named, found, header_names, holds_runs

        header = reader.fieldnames or []
        said = f"{name} line {lines.start}: missing {columns_named(missing)} (found {found(header)})"
        sep = next((s for s in (";", "\t") if len(header) == 1 and s in header[0]), None)  # a European export
        names = set(header_names(header))  # (as fit reads them: dispositivos, rendimiento are devices, throughput)
        other = output_of_header(names)  # another command's --csv, named as its JSON is (review MT)
        if other not in (None, "runs"):
            raise DpscaleError(f"{name}: {OTHER_OUTPUT[other]}; allowed: {PUBLISHED_NOT_JSON}")
        if sep:
            said += f"; allowed: columns separated by commas — this file separates them with {SEPARATORS[sep]}"
        elif holds_runs(names) and not {"cfg", "system", "model", "precision"} & names:
            # runs (`measure --csv`'s, any devices,throughput table), not a published table with a column misnamed
            said += (
                "; allowed: a published-measurements table — this file holds runs (devices, throughput): `dpscale fit "
                "FILE` fits them"
            )
        raise DpscaleError(said)
    assert reader.fieldnames is not None  # (no header: every required column was missing, said above)
    twice = sorted({f for f in reader.fieldnames if f and reader.fieldnames.count(f) > 1})
    if twice:  # DictReader would keep the last silently
        from dpscale.sources.runs_csv import columns_named

        raise DpscaleError(f"{name} line {lines.start}: {columns_named(twice)} twice; allowed: each column once")
    groups: dict[str, list[Row]] = {}
    lines.next_record()
    for rec in reader:
        line = lines.start
        lines.next_record()
        if not any((v or "").strip() for v in rec.values() if isinstance(v, str)) and not any(
            str(x).strip() for x in rec.get(None) or []
        ):
            continue  # a blank row (',,,,' or spaces), as spreadsheets export them
        extra = rec.pop(None, None) or []  # DictReader's marks: extra fields under None, missing ones as None
        if None in rec.values() or any(str(x).strip() for x in extra):  # (blank extras: a trailing comma)
            fields = len(rec) - list(rec.values()).count(None) + len(extra)
            # a quote closed only by a later cell's: its cell swallowed the rows between (a closed cell of two lines,
            # such as "big\nmodel", is no sign of one; one open at the end of the file is csv's error, above)
            run_on = any("," in v.partition("\n")[2] for v in rec.values() if isinstance(v, str))
            why = " (a quote opened on this line does not close: its cell runs on over the lines after it)"
            raise DpscaleError(
                f"{name} line {line}: got {fields} fields; allowed: {len(rec)} as in the header{why if run_on else ''}"
            )
        row = Row(
            file=name,
            line=line,
            cfg=rec["cfg"].strip(),
            devices=_count(rec, "devices", line, name),
            baseline_devices=_count(rec, "baseline_devices", line, name),
            grad_accum=_num(rec, "grad_accum", line, name, int, blank_ok=True) or 1,  # blank: none (README)
            units_per_sample=_num(rec, "units_per_sample", line, name, blank_ok=True),
            system=rec["system"].strip(),
            gpu=(rec.get("gpu") or "").strip(),
            hardware=(rec.get("hardware") or "").strip(),
            gpus_per_node=_num(rec, "gpus_per_node", line, name, int, blank_ok=True),
            intra_bw_gbs=_num(rec, "intra_bw_gbs", line, name, blank_ok=True, zero_is_blank=True),
            inter_bw_gbs=_num(rec, "inter_bw_gbs", line, name, blank_ok=True, zero_is_blank=True),
            model=rec["model"].strip(),
            framework=(rec.get("framework") or "").strip(),
            precision=rec["precision"].strip(),
            per_device_batch=_num(rec, "per_device_batch", line, name, blank_ok=True),
            throughput=_num(rec, "throughput", line, name),
            unit=(rec.get("unit") or "").strip(),
            params_millions=_num(rec, "params_millions", line, name, blank_ok=True),
        )
        if not row.cfg:
            raise fail(f"{name} line {line}, column 'cfg'", "", "a configuration id")
        groups.setdefault(row.cfg, []).append(row)
    return groups


# What one configuration holds fixed: E divides one row's throughput by another's, so they must count the same
# unit of the same model at the same precision on the same nodes and links (the prediction reads these from the
# baseline row alone: another row's differing figure was ignored). A blank cell defers to the others.
SAME = ("unit", "model", "precision", "params_millions", "units_per_sample", "gpus_per_node", "system",
        "intra_bw_gbs", "inter_bw_gbs")  # fmt: skip


def _same_setup(name: str, base: Row, rows: list[Row]) -> None:
    def key(v: object) -> object:
        return v.strip().casefold() if isinstance(v, str) else v

    def show(v: object) -> str:
        return f"{v:g}" if isinstance(v, float) else cut(str(v))

    for col in SAME:
        stated = [r for r in (base, *rows) if getattr(r, col) not in (None, "")]
        first = stated[0] if stated else None
        odd = next((r for r in stated if key(getattr(r, col)) != key(getattr(first, col))), None)
        if odd:
            assert first is not None  # odd is one of stated, so stated has a first
            raise DpscaleError(
                f"{name} line {odd.line}, column {col!r}: got {show(getattr(odd, col))!r}; allowed: "
                f"{show(getattr(first, col))!r}, as on line {first.line} — one configuration is one setup"
            )


def _check_slip(name: str, c: Config) -> None:
    """A measured E above MAX_SOLVED_E is a unit slip in a cell, as `calc` and `fit` refuse it (1e14 samples/s
    printed E = 273,822,562,979 and a median error of 1.4e11)."""
    b = c.baseline
    for r in c.rows[1:]:
        e = c.efficiency(r)
        if past_max_e(e):  # (E in the digits that show it past 2: '1600.01 … E = 2' read as allowed)
            raise DpscaleError(
                f"{name} line {r.line}, column 'throughput': got {r.throughput:g}, E = {past(e, MAX_SOLVED_E)} "
                "against the baseline's "
                f"{b.throughput:g} at {b.devices:,} device{'s' * (b.devices > 1)} (line {b.line}); allowed: E up to "
                f"{MAX_SOLVED_E:g} — {UNIT_SLIP}"
            )


def _group(name: str, groups: dict[str, list[Row]]) -> list[Config]:
    """Each configuration with its baseline row first."""
    configs = []
    for cfg, rows in groups.items():
        d0 = rows[0].baseline_devices
        other = next((r for r in rows if r.baseline_devices != d0), None)
        if other:
            raise DpscaleError(
                f"{name} line {other.line}, column 'baseline_devices': got {other.baseline_devices}; allowed: "
                f"{d0}, as on line {rows[0].line} of configuration {cfg!r} (one baseline per configuration)"
            )
        small = next((r for r in rows if r.devices < d0), None)
        if small:
            raise DpscaleError(
                f"{name} line {small.line}, column 'devices': got {small.devices}; allowed: at least {d0}, the "
                f"baseline_devices of configuration {cfg!r} (its smallest size, which E is relative to)"
            )
        base = [r for r in rows if r.devices == d0]
        if not base:
            raise DpscaleError(
                f"{name} line {rows[0].line}, column 'devices': configuration {cfg!r} has no baseline row; allowed: "
                f"a row with devices = baseline_devices = {d0}"
            )
        _same_setup(name, base[0], rows)
        rest = sorted((r for r in rows if r is not base[0]), key=lambda r: r.devices)
        configs.append(Config(cfg, (base[0], *rest)))
        _check_slip(name, configs[-1])
    if not configs:
        raise DpscaleError(f"{name}: no data rows")
    return configs
