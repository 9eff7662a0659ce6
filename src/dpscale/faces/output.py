"""One output layer for every command: a human table (default), JSON, or CSV.

Commands hand over plain records (dicts with machine keys) and a column spec; this module
only formats. JSON prints one object for one record, an array for a sweep (the commands pass a list or range
that holds one size as a sweep of one: faces.cli.common.one_size).
"""

from __future__ import annotations

import json
import math
import sys
from collections import namedtuple

from dpscale.errors import DpscaleError, printable
from dpscale.faces import silence_stdout, utf8
from dpscale.faces.i18n import SINGULAR, header, label, number, say, singular, unit_label
from dpscale.notes import ASTRONOMICAL

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, TextIO, TypeGuard

# key: record key; kind: format (see i18n.number); unit: label key appended in tables, e.g. "samples/s"
Column = namedtuple("Column", ("key", "kind", "unit"), defaults=("float", ""))


def clean(x: Any) -> Any:
    """JSON-safe values: 12 significant digits (hides float dust like 0.30000000000000004), NaN→null. A whole number
    below ASTRONOMICAL has no dust to hide and stays whole: 12 digits wrote `memory --params 1234567890123`'s own
    count as 1234567890120.0 and its 2469135780246 bytes as 2469135780250.0."""
    if isinstance(x, float):
        if not math.isfinite(x):
            return None
        return x if x.is_integer() and abs(x) < ASTRONOMICAL else float(f"{x:.12g}")
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    return x


def to_json(data: Any) -> str:
    """JSON for stdout: its characters as they are on a UTF-8 output, escaped (\u2014) on another, so that the
    '?' a legacy code page prints in tables never replaces a character of the data."""
    return json.dumps(clean(data), ensure_ascii=not utf8(sys.stdout))


def write_csv(records: Sequence[dict[str, Any]], keys: Sequence[str], out: TextIO) -> None:
    import csv

    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(keys)
    for rec in records:  # a list of words (plan's marks) is one cell, joined by ';'; true/false as JSON writes them
        writer.writerow([_csv_cell(rec.get(k)) for k in keys])


def _csv_cell(v: Any) -> Any:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    return ";".join(v) if _words(v) else clean(v)


def _extra_keys(rows: Sequence[dict[str, Any]], keys: Sequence[str]) -> list[str]:
    """The CSV's columns beyond `keys`, in the order they first appear in any row: numbers and labels, and a list of
    words as one cell (plan's marks) — not notes, sentences in the user's language that go to stderr. Read off the
    first row alone, a key the first size lacks was no column at all (`batch -d 1..1024x4 --base-lr 0.1
    --base-batch 256 --csv` lost the warmup_epochs its JSON gives from 16 devices on)."""
    extra: dict[str, None] = {}
    named = set(keys)
    for rec in rows:
        extra.update((k, None) for k, v in rec.items() if k not in named and k != "notes"
                     and (_words(v) or not isinstance(v, (list, dict))))  # fmt: skip
    return list(extra)


def _words(x: Any) -> TypeGuard[list[str]]:
    return isinstance(x, list) and all(isinstance(w, str) for w in x)


def cell(rec: dict[str, Any], col: Column, lang: str, with_unit: bool = False) -> str:
    text = printable(number(rec.get(col.key), col.kind, lang))  # (a file's model or cfg name: ESC[2J shown, not run)
    if with_unit and col.unit and rec.get(col.key) is not None:
        text += " " + unit_label(col.unit, lang)
    return text


def pairs(rec: dict[str, Any], columns: Sequence[Column], lang: str) -> list[tuple[str, str]]:
    """One record's (label, value with unit) cells — the calculator's single answer."""
    return [(label(c.key, lang), cell(rec, c, lang, with_unit=True)) for c in columns if c.key in rec]


def grid(records: Sequence[dict[str, Any]], columns: Sequence[Column], lang: str) -> tuple[list[str], list[list[str]]]:
    """A sweep's column headings and formatted cells, one row per record."""
    return [header(c.key, lang) for c in columns], [[cell(r, c, lang) for c in columns] for r in records]


def units_line(columns: Sequence[Column], lang: str) -> str | None:
    """'throughputs in samples/s' when a sweep's columns share one unit (the cells then omit it)."""
    units = sorted({c.unit for c in columns if c.unit})
    return label("units_in", lang).format(unit=unit_label(units[0], lang)) if len(units) == 1 else None


def vertical(rec: dict[str, Any], columns: Sequence[Column], lang: str) -> str:
    """One record as label/value lines."""
    rows = pairs(rec, columns, lang)
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"  {k:<{width}}  {v}" for k, v in rows)


def horizontal(records: Sequence[dict[str, Any]], columns: Sequence[Column], lang: str) -> str:
    """Many records as an aligned table with one row per record (a sweep)."""
    heads, body = grid(records, columns, lang)
    widths = [max(len(h), *(len(row[i]) for row in body)) for i, h in enumerate(heads)]
    just = [str.ljust if c.kind == "text" else str.rjust for c in columns]  # a heading sits as its cells do
    lines = ["  ".join(j(h, w) for h, w, j in zip(heads, widths, just)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(j(v, w) for v, w, j in zip(row, widths, just)).rstrip() for row in body]
    units = units_line(columns, lang)
    return "\n".join(lines + ([units] if units else []))


def _finite(records: Any) -> None:
    """Every face prints through emit, so this is where a result that overflowed (a 1e308 learning rate, a
    1e308-epoch plan) becomes the one-line error instead of an ∞ in a table."""
    for r in [records] if isinstance(records, dict) else records:
        for key, value in r.items():
            if isinstance(value, float) and not math.isfinite(value):
                raise DpscaleError(f"{key}: comes to {value:g} from these inputs; allowed: realistic magnitudes")


def emit(
    records: dict[str, Any] | Sequence[dict[str, Any]],
    columns: Sequence[Column],
    args: Any,
    title: str | None = None,
    notes: Sequence[str] = (),
    out: TextIO | None = None,
) -> None:
    """Print records as the user asked (args.json / args.csv / args.lang).

    args.sink, when set (the web page), receives (records, columns, title, notes) instead of a print."""
    _finite(records)
    lang = getattr(args, "lang", "en")
    # a count of one in the singular ('≈ 1 dispositivos', '1 pasos'), however the line was composed
    nouns = SINGULAR.get(lang, {})
    title = title and singular(title, nouns)
    notes = [singular(say(n, lang), nouns) for n in notes]
    sink = getattr(args, "sink", None)
    if sink is not None:
        sink(records, columns, title, list(notes))
        return
    out = out or sys.stdout
    try:
        _print(records, columns, args, lang, title, notes, out)
    except BrokenPipeError:  # `| head -1`: the reader left; the command goes on (its --plot is still written)
        if out is not sys.stdout:
            raise
        silence_stdout()


def _print(
    records: dict[str, Any] | Sequence[dict[str, Any]],
    columns: Sequence[Column],
    args: Any,
    lang: str,
    title: str | None,
    notes: Sequence[str],
    out: TextIO,
) -> None:
    machine = getattr(args, "json", False) or getattr(args, "csv", False)
    title = title and printable(title)  # (what a file said is shown, not run: see errors.printable)
    notes = [printable(say(n, lang)) for n in notes]
    for n in notes if machine else ():  # stdout stays machine-readable; the caveats still reach the user
        print(f"{label('note', lang)}: {n}", file=sys.stderr)
    if getattr(args, "json", False):
        print(to_json(records), file=out)
        return
    many = not isinstance(records, dict)
    # mypy does not narrow records through `many` (an isinstance kept in a name)
    rows: list[dict[str, Any]] = list(records) if many else [records]  # type: ignore[arg-type, list-item]
    if getattr(args, "csv", False):
        keys = [c.key for c in columns]
        extra = _extra_keys(rows, keys)
        if out is sys.stdout and not utf8(out) and hasattr(out, "buffer"):
            # CSV has no escapes (JSON writes \u00e9): on a non-UTF-8 output the '?' of the tables would replace a
            # character of the data, so the bytes are UTF-8, as pandas.read_csv and the csv module read by default
            import io

            out.flush()
            raw = io.TextIOWrapper(out.buffer, encoding="utf-8", newline="", write_through=True)
            try:
                write_csv(rows, keys + extra, raw)
            finally:
                raw.detach()
            return
        write_csv(rows, keys + extra, out)
        return
    if title:
        print(title, file=out)
    print(horizontal(rows, columns, lang) if many else vertical(rows[0], columns, lang), file=out)
    for n in notes:
        print(f"{label('note', lang)}: {n}", file=out)
