"""Runs from JSON text for `dpscale fit`: `dpscale measure --out`'s lines, one record a line, or `measure --json`'s
document (`read_jsonl`), one set-up of a file of several (`--only`: `parse_only`, `only_of`, `_OneSetup`), and where
JSON text breaks (`json_break`), which validate's refusal of a JSON file says.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from dpscale.errors import DpscaleError, cut, fail
from dpscale.files import comment_line, loads_once, text_lines
from dpscale.formulas.units import canonical_unit
from dpscale.outputs import OTHER_OUTPUT, output_of
from dpscale.sources.fit_runs import RUNS_FILE, Run, _checked, make_run


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


JSON_LINES = "one JSON object per line"  # what fit's JSON may be, as its refusals of JSON broken or too deep say


def read_jsonl(
    text: str,
    name: str,
    only: dict[str, str] | None = None,
    option: str = "--only",
    allowed: str = JSON_LINES,
    forms: str = RUNS_FILE,
) -> tuple[list[Run], str | None]:
    """Runs from JSON text: `dpscale measure --out`'s lines, one record a line, or one document alone (`measure
    --json`'s object, its sizes under "points", pretty-printed or not); with the unit the records state, or None.
    A '#' line is a comment, as in a CSV of runs (it was 'line 1: not valid JSON (Expecting value)', review KJ): no
    JSON has a line that opens with '#', so none is read otherwise. allowed: what a refusal of JSON broken or too deep
    says the file may be (validate's: a CSV); forms: the forms of runs its refusal of a calibration says (a file's, or
    the page's field's: `runs_of_text`)."""
    text = "\n".join(json_lines(text))  # (the lines numbered)
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
    other = output_of(whole)
    if other == "calibration":
        raise DpscaleError(f"{name}: an all-reduce calibration (for predict --calibration); allowed: runs — {forms}")
    if other not in (None, "runs", "fit"):  # (a fit's report: below, as its line; calc's answer was 'line 1: got
        # '{"devices": 64, …'; allowed: an object with "devices" and "throughput"', review ML)
        raise DpscaleError(f"{name}: {OTHER_OUTPUT[other]}; allowed: runs — {forms}")
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
        other = output_of(rec)
        if other == "fit":  # `dpscale fit --json` saved to a file
            raise DpscaleError(
                f"{where}: a fitted law (`dpscale fit --json`), not runs; allowed: runs — a fit's JSON goes to plan's "
                "--efficiency-file"
            )
        if other not in (None, "runs"):  # another command's --json appended a line at a time (`>>`), as measure --out
            # writes runs: named on its line, as validate and --system-file name it (review MM: 'line 1: got
            # '{"devices": 64, "per_device_throughput":…'; allowed: an object with "devices" and "throughput"')
            raise DpscaleError(f"{where}: {OTHER_OUTPUT[other]}; allowed: runs — {forms}")
        if not isinstance(rec, dict) or "devices" not in rec or "throughput" not in rec:
            raise DpscaleError(
                f'{where}: got {cut(line.strip())!r}; allowed: an object with "devices" and "throughput"'
            )
        records.add(rec, where, f"line {i}")
    records.picked(name)
    runs = records.runs
    said = records.unit[0] if records.unit is not None else None
    return runs, said if isinstance(said, str) else None


def json_lines(text: str) -> list[str]:
    """The text's lines as fit's and validate's readers of JSON read them, numbered as an editor does: a '#' comment
    made blank, and a byte-order mark opening a line dropped — a '#' line put above a file saved with one, or two such
    files joined, said 'line 2: not valid JSON (Unexpected UTF-8 BOM …)', where opens_json read past the mark to call
    the file JSON and the CSV reader drops it from a header (review KX). `measure --out`'s check and baseline read
    the file by it too: it refused, before the run, a file fit reads (review LD)."""
    return ["" if comment_line(ln) else ln for ln in (ln.lstrip("\ufeff") for ln in text_lines(text))]


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
    reader, and told the refusals of JSON apart from the others by the end of their text). Read to the first
    break, or to a number past 4,300 digits, which fit refuses on its own line (review KW)."""
    lines = json_lines(text)  # (the lines numbered)
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
        except ValueError:  # a number past 4,300 digits: fit refuses this line for it, not a later one's break
            return None  # (review KW: a line 2 cut short was named, where fit says line 1's number is too long)
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


def _spans_lines(lines: list[str]) -> bool:
    """Whether one JSON object starts on the first of these lines and ends on a later one."""
    try:
        _, end = json.JSONDecoder().raw_decode("\n".join(lines).lstrip())
    except (ValueError, RecursionError):  # ({ then [[[…]]] 100,000 deep on the next line)
        return False
    return end > len(lines[0].strip())
