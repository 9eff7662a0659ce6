"""Runs from CSV text for `dpscale fit`: a table with a header (devices, throughput, optional step_time), its columns
found by name in English or the Spanish page's words (`header_names`), one set-up a file (`read_csv_unit`); `csv_rows`,
`runs_header`, which plan --efficiency-file asks too, and `names_a_column`, which fit, validate and the page's pasted
table ask (a first line opening with '{' or '[': a header, or JSON broken there).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable

from dpscale.errors import DpscaleError
from dpscale.files import CSV_OPEN_QUOTE, comment_line, not_csv, opens_json, text_lines
from dpscale.formulas.units import canonical_unit
from dpscale.outputs import RUN_COLUMNS
from dpscale.sources.fit_runs import Run, _checked, make_run


def runs_header(line: str) -> bool:
    """Whether a line read as a CSV header names devices and throughput (plan --efficiency-file's runs). A spreadsheet's
    tabs or a decimal-comma one's ';' separate its names as commas do: '[run]<tab>devices<tab>throughput' was 'a JSON
    array', where the page read it pasted and 'run<tab>devices…' is told to be saved with commas (review KB). Whether
    a first line opening with '{' or '[' is a header or JSON broken there reads it so too: `names_a_column`."""
    try:
        return holds_runs(header_names(next(csv.reader([re.sub("[;\t]", ",", line)]), [])))
    except csv.Error:  # (a NUL in it)
        return False


def names_a_column(line: str) -> bool:
    """Whether a line read as a CSV header (as `runs_header` reads it) names a column that fit's runs or a published
    table (validate) has: the half of `fit_io.reads_as_json` that tells a first line opening with '{' or '[' that is
    no JSON apart — a table's header, refused for the columns it lacks, or JSON broken on that line. One rule for fit,
    validate and the page's fit field: '[run],devices,speed' was 'a JSON array' to fit and a table to validate, which
    read '[cfg],devices,imgs_per_sec' by a copy of its own (review KX) that took a '#' comment naming a column for the
    header (review LD). JSON cut short ('{"devices": 1, "throughput": 9') names none, whatever its cells read as a
    CSV's: '{"devices":1,"throughput"' (cut after a key, written without spaces) and '{"tags": "bf16,model", …' (a
    comma in a string) named throughput and model, and fit said 'missing column devices (found {"devices":1,
    throughput)' (review LH).

    >>> names_a_column('[run],devices,speed'), names_a_column('{cfg};grad_accum'), names_a_column('{"devices": 1,')
    (True, True, False)
    >>> names_a_column('{"devices":1,"throughput"'), names_a_column('["devices","throughput"')
    (False, False)
    """
    from dpscale.sources.dataset import REQUIRED

    if _cut_short(line):
        return False
    try:
        names = header_names(next(csv.reader([re.sub("[;\t]", ",", line)]), []))
    except csv.Error:  # (a NUL in it)
        return False
    return not {*RUN_COLUMNS, "step_time", *CSV_SETUP, *REQUIRED}.isdisjoint(names)


def _cut_short(line: str) -> bool:
    """Whether a line is JSON cut short: read as JSON, it breaks only where it ends, inside a number or a word it
    ends in ('7000.', '-', 'tr': JSON breaks where that begins, review LL), or in a string it leaves open — an escape
    '\\u00e9' too, cut inside or just after it, where JSON breaks at the escape ('Invalid \\uXXXX escape', review LM:
    json.dumps writes 'café' so). A header opening with '[' or '{' breaks at its first name ('[run],…': 'Expecting
    value' at 1)."""
    try:
        json.loads(line)
    except json.JSONDecodeError as exc:
        rest = line[exc.pos :].strip()
        return (
            re.fullmatch(r"[-+\d.eE]*", rest) is not None
            or any(word.startswith(rest) for word in ("true", "false", "null", "NaN", "Infinity", "-Infinity"))
            or exc.msg.startswith("Unterminated string")
            or (exc.msg.startswith("Invalid \\uXXXX") and re.fullmatch("u[0-9a-fA-F]{0,4}", rest) is not None)
        )
    except RecursionError:  # ('[[[…' thousands deep: JSON, no header)
        return True
    except ValueError:  # (an integer past 4,300 digits: read as the CSV reads it)
        return False
    return True  # (JSON whole: no header either)


def found(header: Iterable[str], most: int = 8) -> str:
    """A header's columns as the error shows them ('gpus, imgs_per_sec'), the first few of a wide one."""
    cols = [h for h in header if h] or ["—"]
    return ", ".join(cols[:most] + ["…"] * (len(cols) > most))  # (no words: said alike in every language)


def columns_named(names: list[str]) -> str:
    """'column x' or 'columns x, y': a header error's columns, the noun agreeing with how many (the Spanish agrees)."""
    return f"column{'s' * (len(names) > 1)} {', '.join(names)}"


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
    lines: list[str] = []  # the text's lines, split where a row opens with '{'
    for k in range(first + 1, len(rows)):
        if skip[k]:
            continue
        row, i = rows[k], starts[k]
        if row == typed_header or (
            len(row) == len(header) and not row[dev].strip().isdigit() and header_names(row) == header
        ):
            continue  # the header again as it reads (a BOM: two files saved with one joined; 'Devices'; Spanish)
        where = f"{name} line {i}"
        # `measure --out`'s lines appended to its --csv: 'got 44 fields; allowed: 37 as in the header (write numbers
        # without thousands separators …)'. The line as written, not its cells joined: csv unquotes a cell opening with
        # '"' ('{"devices":2,"throughput":190}', jq -c's, was "devices: got '{\"devices\":2'") and a quoted cell may
        # hold a line break ('"{""a"": 1}\nnote"' was a JSON record: review MD)
        if row[0].lstrip().startswith("{"):
            lines = lines or text_lines(text)
            if opens_json(lines[i - 1]):
                raise DpscaleError(
                    f"{where}: a JSON record (as `dpscale measure --out` writes) in a CSV; allowed: one form at a time "
                    "— rows under its header, or JSON lines alone"
                )
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
