"""The web page: one HTML file and a JSON API that runs the CLI's own commands.

POST /api/{command} takes {"options": {"devices": "64", "throughput": "2000"}, "lang": "es"} (lang optional),
parses them with that command's argparse parser and runs it; the output layer hands its records, columns,
title and notes to this module (args.sink) instead of printing. So the page validates, computes, words and
formats exactly as `dpscale COMMAND` does — there is no second copy of any formula or message.
"""

from __future__ import annotations

import argparse
import re
from functools import cache
from importlib import import_module
from importlib.resources import files
from typing import Any

import anyio
import anyio.to_thread
from anyio.lowlevel import RunVar
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from dpscale import catalog
from dpscale.errors import DpscaleError, fail, house_style, overflow, renamed
from dpscale.faces.cli import COMMANDS
from dpscale.faces.cli.common import (
    Parser,
    check_number_style,
    check_unit,
    given_twice,
    runs_unit,
    whole,
)
from dpscale.faces.cli.plan import BUDGET, LONE_NODE_SIZE, NO_RATE
from dpscale.faces.i18n import LABELS, LANGS, SINGULAR, label, say, say_error
from dpscale.faces.locale import lang_named
from dpscale.faces.output import clean, grid, pairs, units_line
from dpscale.notes import singular
from dpscale.sources.fit_runs import POINT_JSON, RESAMPLES
from dpscale.sources.predict_inputs import PRECISIONS

# What the page may run: the calculators that only compute, and fit on typed points. File-reading or -writing
# options (fit's RUNS file too: a positional, so no key names it), --only that picks from one, and the output
# options the page sets itself (--json, --csv: it takes records; --lang: the body's "lang") stay CLI-only.
WEB_COMMANDS = ("calc", "predict", "fit", "batch", "pipeline", "memory", "plan")
FILE_OPTIONS = (
    "plot", "model_file", "system_file", "calibration", "fit", "only", "efficiency_file", "json", "csv", "lang"
)  # fmt: skip

# What the page takes, tighter than the command line where a request could hold the server for seconds or GBs
MAX_PAGE_ROWS = 2000  # sizes a sweep asks for, and rows an answer has: a browser table this long hangs
MAX_VALUE_CHARS = 10_000  # one form field; the longest sensible value is a list of a few hundred sizes
MAX_BODY_BYTES = 1 << 20  # a form's fields at their 10,000-character cap come to a few hundred kB at most
MAX_PAGE_RESAMPLES = 10_000
MAX_PAGE_RUNS = 300  # a fit of 300 noisy runs at 1..300 devices: 0.76 s on a 2-core machine, 500: 1.35 s
MAX_PAGE_CELLS = 2_000_000  # the page's own 1,000 resamples × its 2,000 rows: under a second and 0.3 GB
# fits that run at once; more wait their turn without a thread, so the other commands keep theirs. Every request ran
# in FastAPI's pool of 40 threads: a fit at the caps above (199 runs × 10,000 resamples) takes 3 s and 300 MB, and
# 12 posted at once took the server to 2.9 GB; behind 50 of them a calc waited 36 s (2 cores)
MAX_PAGE_FITS = 2
PAGE_RESAMPLES = f"at most {MAX_PAGE_RESAMPLES:,} on the page (the command line takes up to {RESAMPLES[1]:,})"


class WebParser(Parser):
    """The command's parser, with its one-line errors raised instead of printed."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # in the CLI's words ("--law: got 'x'; allowed: …", then said in the page's language), not argparse's
        raise DpscaleError(house_style(message))


# the forms the fit field reads, as its refusals say them (review LY: the empty field's said devices:throughput alone,
# and a JSON array's 'one run a line — devices:throughput', where the field reads '1:1000 8:7500' as two runs)
RUNS_BOX = (
    "measured runs as devices:throughput, one or more a line (1:1000 8:7500), a JSON object a line "
    '({"devices": 8, "throughput": 7500}) or rows under a header devices,throughput'
)

# A command's refusal whose remedy is a command-line-only option, said as the page offers it instead: plan's missing
# rate named --fit (a RUNS file), where the page's plan tab takes a fit's or a prediction's rate with its button
PAGE_SAID: dict[tuple[str, str], str] = {
    ("plan", NO_RATE): "--throughput: missing; allowed: a per-device throughput > 0 (or the button "
    f"'{LABELS['en']['web_take']}', which fills it)",
    ("plan", LONE_NODE_SIZE): "--gpus-per-node: only with --price-per-node-hour (the devices a node's price buys)",
    # JSON among the field's runs, or an array cut short, which reach --point's D:X reader: its refusal names the flag
    # repeated and a `dpscale fit FILE` (review MD: the CLI's words, which review LN took off the field's arrays)
    ("fit", f"--point: a JSON array; allowed: {POINT_JSON}"): f"--point: a JSON array; allowed: {RUNS_BOX}",
    ("fit", f"--point: a JSON object; allowed: {POINT_JSON}"): (
        f"--point: a JSON object among runs of another form; allowed: one form a paste — {RUNS_BOX}"
    ),
}
# ... and a refusal's 'allowed' that says so, whatever the value: a budget of 'inf' or 0 was told 'leave --budget out
# for no limit', where the page's field is emptied (review LI)
PAGE_ALLOWED: dict[str, str] = {
    BUDGET: f"a finite budget > 0 (leave '{LABELS['en']['web_budget']}' empty for no limit)",
}

# Notes a command words for the command line (its flags, `dpscale COMMAND`), said on the page in the page's terms: the
# note's key (dpscale.notes' or a label's) → its page wording in labels.py, or None: the command's own wording, with
# the flags its fields carry (worked_filled's list) named by the page's labels. A page wording takes the note's own
# fields as the command wrote them (read back from its text, so no number is formatted twice) and {web_*}: a field's
# label as an error line names it (its remark left off), a tab's name, the take button. A flag the page has no field
# for (--bucket-mb, --no-overlap, --overlap-accumulation, measure's --threads, batch's --rule) is left as the command
# line's: the page offers nothing to say in its place.
PAGE_NOTES: dict[str, str | None] = {
    "plan_no_e": "web_plan_no_e",  # (--fit: a RUNS file the page has no field for; it has the take button)
    "plan_worked_partial": "web_plan_worked_partial",  # (a title)
    "constant_note": "web_constant_note",
    # predict: its hardware fields, the memory tab, the precision and ZeRO menus
    **{k: f"web_{k}" for k in ("gpu_unknown", "gpu_swapped", "nics_reached", "nics_unknown", "intra_bidirectional",
                               "inter_per_nic", "inter_per_nic_known", "inter_bits_as_bytes", "ddp_memory",
                               "zero_memory", "activation_memory", "cpu_decode", "beyond_peak", "beyond_peak_tokens",
                               "fp8_mfu", "cnn_mfu", "cnn_mfu_unchecked",
                               "cnn_mfu_efficientnet",
                               "fp32_conv_tf32", "predict_batch_default", "predict_precision_default",
                               "predict_sizes_dropped",
                               "zero_units_estimated", "input_per_gpu",
                               "params_off_preset", "params_over_preset", "intra_node_total",
                               "intra_table_replaced", "inter_share_replaced")},
    "unchecked_inter_low": None,  # ('--inter-bw 25Gb/s reads it so': the flag is its field)
    # fit: its law menu (fit_law's 'chosen by you (--law usl)': the note in its field)
    **{k: f"web_{k}" for k in ("laws_pooled", "fit_why_forced", "fit_misses", "runs_fall", "one_node_measured")},
    "fit_law": None,
    "fit_band": "web_fit_band",  # (the Spanish names `fit --csv`'s English columns, _lo and _hi: the page has none)
    # batch, memory, pipeline: their menus and fields, the predict and fit tabs
    **{k: f"web_{k}" for k in ("batch_rule_linear", "batch_rule_sqrt", "batch_past_dataset", "batch_far_from_base",
                               "mem_no_act_params",
                               "mem_stages", "mem_ddp_buckets_autocast", "mem_act_no_dropout", "pipe_no_dp_e",
                               "pipe_one_replica", "pipe_dp_e_held")},
    "worked_filled": None,  # ('filled in --base-lr 0.1, …': the flags its list carries)
    # memory's remedies for activations too big even for ZeRO-3 ('recompute them fully (--recompute full)'): the
    # recomputation menu and its choice
    "mem_none_fits": None,
    "mem_none_fits_devices_act": None,
}  # fmt: skip

# the option whose list makes the rows (else --devices); memory takes one size, so it has none
SWEPT: dict[str, str | None] = {"pipeline": "--microbatches", "fit": "--at", "memory": None}


class _AsJson:
    """A request's value shown as JSON writes it (null, true, {"a": 1}): its errors said Python's None and True."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __str__(self) -> str:
        import json

        return json.dumps(self.value, ensure_ascii=False)


def as_json(value: Any) -> Any:
    """Text and numbers as every error shows them; null, true, false, objects and lists as JSON."""
    plain = isinstance(value, (str, int, float)) and not isinstance(value, bool)
    return value if plain else _AsJson(value)


def argv_from(options: dict[str, Any], parser: Parser, lang: str = "en") -> list[str]:
    """{"devices": "64", "no_overlap": true} → ["--devices=64", "--no-overlap"]; blanks are left out.

    Only a key naming one of the command's options exactly is taken (the parser takes no abbreviations
    either), so no spelling reaches a file option. `--flag=value` keeps a value that starts with '-' a value."""
    argv: list[str] = []
    said: str | None = None  # the unit a pasted table's unit column states
    for key, value in options.items():
        flag = "--" + str(key).replace("_", "-")
        action = parser._option_string_actions.get(flag)
        if action is None:
            usable = sorted(
                a.dest for a in parser._actions if a.option_strings and a.dest not in (*FILE_OPTIONS, "help")
            )
            raise fail("options", key, f"this command's options: {', '.join(usable)}")
        if action.dest in (*FILE_OPTIONS, "help"):
            raise fail(key, as_json(value), "the command line (not available on the web page)")
        if value is None or value == "" or value is False:
            continue
        if value is True:
            if action.nargs != 0:  # `"efficiency": true` was argparse's "expected one argument"
                raise fail(flag, as_json(value), "a value (true is for switches such as no_overlap)")
            argv.append(flag)
            continue
        if action.nargs == 0:  # a switch given "yes" or 1 was argparse's "ignored explicit argument '1'"
            raise fail(flag, as_json(value), "true or false (a switch)")
        if isinstance(value, (dict, list)):  # `{"a": 1}` was echoed as got "{'a':"
            raise fail(flag, as_json(value), "a number or text, as typed on the command line")
        if isinstance(value, str) and not _utf8(value):  # a lone surrogate ("\\ud800" in the JSON) echoed in an
            raise fail(flag, value, UTF8_TEXT)  # error line could not be encoded: a 500 with no "error" line
        if len(str(value)) > MAX_VALUE_CHARS:  # a 20 MB unit was echoed back once per row
            raise fail(flag, f"{len(str(value)):,} characters", f"at most {MAX_VALUE_CHARS:,} characters")
        if isinstance(action, argparse._AppendAction):  # fit's --point: one field of runs, however pasted
            points, said = pasted_runs_unit(str(value), dot_groups=lang != "en")
            argv += [f"{flag}={v}" for v in points]
            continue
        argv.append(f"{flag}={value}")
    if said is not None:  # as `fit FILE` reads a unit column: tokens/s runs pasted were printed as samples/s
        typed = options.get("unit")
        typed = None if typed is None or typed == "" or typed is False else check_unit(str(typed))
        argv = [a for a in argv if not a.startswith("--unit=")] + [f"--unit={runs_unit(typed, said, '--point')}"]
    return argv


UTF8_TEXT = "text that UTF-8 can write (no lone surrogate such as \\ud800)"


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def pasted_runs_unit(text: str, dot_groups: bool = False) -> tuple[list[str], str | None]:
    """The fit field's runs as D:X[:T] points: '1:1000 8:7500' or '1:1000, 8:7500', one a line, '8: 7500', or two
    columns pasted from a spreadsheet ('8<tab>7500') or a CSV. A paste with a header row is read by the CLI's own
    CSV reader, which finds its columns by name (devices,step_time,throughput stays what it says). A line of any
    other shape goes through as written, so the CLI's own error names it. dot_groups (a language that writes 2.000
    for two thousand): a header paste's '2.000' is refused, as check_number_style refuses it in the points pasted
    without one. With them, the unit a pasted table's unit column states (as a file's), or None."""
    import csv

    from dpscale.files import comment_line, content_line, opens_json
    from dpscale.sources.fit_io import csv_runs, reads_as_json, runs_of_text

    # `measure --out`'s lines or `--json`'s document pasted: read as `dpscale fit FILE` reads them (they were split at
    # spaces and refused as "--point: got '{\"devices\":1,'", review KJ); a paste opening with '[' that is no JSON is
    # still runs, as '[1:1000 8:7500]' (review KI), which fit would call a JSON array; a JSON array is fit's 'a JSON
    # array; allowed: JSON lines …', not "--point [{\"devices\":1,, devices: got '[{\"devices\"'"
    said = [x for x in re.split(r"[\r\n]+", text.lstrip("\ufeff")) if content_line(x)]
    if said and (said[0].lstrip().startswith("{") or opens_json("\n".join(said))) and reads_as_json(text):
        # (a paste: no --only to name, review KU; its refusals of a JSON array or a calibration say the field's forms,
        # not a file's `measure --out` JSON lines and CSV, which the page's user may have neither of: review LN)
        json_runs, unit = runs_of_text(text, "--point", option="", forms=RUNS_BOX)
        return [_point(r) for r in json_runs], unit
    lines = [x for x in re.split(r"[\r\n]+", text.lstrip("\ufeff")) if x.strip()]  # (a BOM: a file's, pasted)
    # a header (a word, then a column separator, or a column's name): the CLI's reader, tabs as a spreadsheet's
    # commas. A lone word ('nan', 'abc', a note) is a bad run, not a header: it was refused as one missing columns.
    # Seen past what a saved file has and the reader reads: '#' comments, a BOM, quotes ("devices","throughput"
    # from pandas, R's write.csv with its unnamed first column) — the page refused what `dpscale fit FILE` reads
    first = next((x for x in lines if content_line(x)), "")
    head = first.replace('"', "")
    # (one \s* before an optional comma, not two around it: 10,000 spaces pasted took 0.6 s, each split between them)
    named = re.match(r"\s*(?:,\s*)?[A-Za-z]([^,;\t]*[,;\t]|.*\b(devices|dispositivos|throughput)\b)", head)
    from dpscale.sources.runs_csv import names_a_column

    # or a header fit reads as one, whatever its first name opens with ('[run],devices,throughput' was the run '[run]';
    # '[run],devices,speed' "--point [run]:devices:speed, devices: got '[run]'", where fit says the column it lacks;
    # its quotes as fit reads them: '["cfg", "model"' is JSON to fit, review LD)
    if named or names_a_column(first):
        if ";" in head and not re.search("[,\t]", head):  # a ';' spreadsheet's copy: its cells by ';', a comma
            # inside one kept its own ('1000,5' refused by name), its quotes taken off first ("devices";"throughput"
            # was quoted again, then missing) and its comments left as they are (one with a comma was quoted)
            lines = [x if comment_line(x) else _csv_row([c.strip().strip('"') for c in x.split(";")])
                     for x in lines]  # fmt: skip
        table = "\n".join(x.replace("\t", ",") for x in lines)
        table_runs, unit = csv_runs(table, "--point", dot_groups, RUNS_BOX)  # (another command's CSV: named)
        return [_point(r) for r in table_runs], unit
    runs = []
    parts: list[str] = []  # in the order pasted (an error names the first bad run)
    # '1;1000' is a row of a spreadsheet set to a decimal-comma language, not two runs of one number; a '#' line is a
    # comment, as a file's is
    for row in (x for x in lines if not comment_line(x)):
        cells = [c.strip() for c in row.strip().strip(";").split(";")]
        semi_row = ":" not in row and len(cells) in (2, 3) and all(c and not re.search(r"\s", c) for c in cells)
        parts += [":".join(cells)] if semi_row else row.split(";")
    for line in parts:
        line = ":".join(p.strip() for p in line.strip().split(":"))  # '8 : 7500' (a regex took 0.1 s on 10,000 spaces)
        # a comma after the line's last run ends it ('1:1000,' of a list pasted comma last, a CSV row's empty last
        # cell '8,7500,'), as one before its first begins it: it was kept on the run, "got '1000,'" (review HX)
        end = len(line)  # (every comma and gap after it: '1:1000, ,' kept one through rstrip(',').rstrip(), review HZ;
        while end and (line[end - 1] == "," or line[end - 1].isspace()):  # a loop: linear, as the one strip was)
            end -= 1
        line = line[:end]
        if not line:
            continue
        if ":" in line:  # '1:1000, 8:7500' too: a comma before the next D: separates runs ('8:7,500' stays one)
            # (stripped again: a comma before the line's first run left a gap before it, and an empty run ',1:1000')
            runs += _gap_runs(re.sub(r",\s*(?=\d+:)", " ", line).strip())
            continue
        # a tab separates spreadsheet columns (a comma in one is the number's own: '1,500', '7500,5', which the
        # CLI then refuses by name); else a CSV row (a quoted "1,500" stays one cell); else spaces
        fields = line.split("\t") if "\t" in line else next(csv.reader([line])) if "," in line else line.split()
        fields = [f.strip() for f in fields]
        # '1,024' is a thousand and twenty-four, not 1 device at 024/s ("runs: got 1 run of size 1"), nor '1,024.5'
        # or '8,000.5' 8 devices at 0.5/s: a cell with a leading zero goes through as written, for the CLI to refuse
        grouped = any(re.fullmatch(r"0\d+(\.\d*)?", f) for f in fields[1:])
        runs.append(":".join(fields) if len(fields) in (2, 3) and all(fields) and not grouped else line)
    return runs, None


def _point(run: Any) -> str:
    """A run read from a pasted table or JSON as the D:X[:T] point the command reads again, every digit kept."""
    return ":".join(repr(v) for v in (run.devices, run.throughput, run.step_time) if v is not None)


def _gap_runs(line: str) -> list[str]:
    """The runs of one line that gaps separate, a gap inside a run's number kept: '1:1 000' (or a no-break space
    pasted) was the runs '1:1' and '000', refused as "got '000'" where the CLI names the thousands. Only a group of
    three digits after a run's 1-3 (or an earlier group) is the number's: '1:1000 foo' or '8:7500 16' (a run cut
    short) stay two, the second refused as a run, not as the first's throughput '1000 foo' out of its range. One
    pass over the gaps: a lookahead per gap took 1 s on a 10,000-space paste."""
    runs: list[str] = []
    grouping = False  # the last run's last field so far reads as a number grouped by gaps ('1:1', '1:1 000')
    pieces = re.split(r"(\s+)", line)  # token, gap, token, ...: the line is stripped
    for gap, token in zip(["", *pieces[1::2]], pieces[0::2], strict=True):
        if grouping and re.fullmatch(r"\d{3}(\.\d+)?", token):
            runs[-1] += gap + token
            grouping = "." not in token
        else:
            runs.append(token)
            grouping = re.fullmatch(r"[^:]*:(.*:)?[1-9]\d{0,2}", token) is not None
    return runs


def _csv_row(cells: list[str]) -> str:
    """One CSV line of these cells, quoted where a cell holds a comma."""
    import csv
    import io

    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(c.strip() for c in cells)
    return out.getvalue()


def _too_many(flag: str, n: int) -> DpscaleError:
    return DpscaleError(
        f"{flag}: {n:,} sizes; allowed: at most {MAX_PAGE_ROWS:,} on the page (the command line takes more)"
    )


def page_bootstrap(args: argparse.Namespace, at: int) -> None:
    """The fit's bootstrap, bounded on the page a tenth of the CLI's way: 100,000 resamples took 8-14 s and 1.5-2.5
    GB a request, so a few requests at once (a threadpool runs 40) took the server down for memory."""
    try:
        resamples = whole(args.resamples, "--resamples", *RESAMPLES)
    except DpscaleError:  # the command's own refusal, in its own order (a bad --gpus-per-node before it), as a bad
        return  # --devices is left to it: refused here, '--resamples 3' was named where the CLI names the other flag
    if resamples > MAX_PAGE_RESAMPLES:
        raise fail("--resamples", args.resamples, PAGE_RESAMPLES)
    sizes = max(at, len(args.point) + 1)  # the sizes asked for, or the measured ones and their baseline
    if resamples * sizes > MAX_PAGE_CELLS:
        raise DpscaleError(
            f"--resamples: {resamples:,} resamples × {sizes:,} sizes; allowed: at most {MAX_PAGE_CELLS:,} values on "
            "the page (the command line takes more)"
        )


def run_command(command: str, options: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """Run one CLI command on these options; its output as JSON records plus the localised table."""
    if command not in WEB_COMMANDS:
        raise DpscaleError(f"command: got {command!r}; allowed: {', '.join(WEB_COMMANDS)}")
    if lang not in LANGS:
        raise fail("lang", lang, ", ".join(LANGS))
    module = import_module(f"dpscale.faces.cli.{COMMANDS[command][0]}")
    parser = WebParser(prog=f"dpscale {command}", description=COMMANDS[command][1], allow_abbrev=False)
    module.add_arguments(parser)
    args = parser.parse_args([*argv_from(options, parser, lang), "--lang", lang])
    if command == "fit" and not args.point:  # the box left empty: no RUNS file or --point to offer a page's user
        pasted = options.get("point")  # ('#' comment lines alone were "got ''", as if nothing was pasted: review LN)
        # (a file's byte-order mark, pasted with it, is no more said than pasted_runs_unit reads it: review LR)
        raise fail("--point", pasted.lstrip("\ufeff").strip() if isinstance(pasted, str) else "", RUNS_BOX)
    if command == "fit" and len(args.point) > MAX_PAGE_RUNS:  # 1,000 runs passed every other cap and took 10-17 s
        raise DpscaleError(  # and 230 MB a request: the fit's checks grow faster than the runs
            f"--point: {len(args.point):,} runs; allowed: at most {MAX_PAGE_RUNS:,} on the page (the command line "
            "takes more)"
        )
    check_number_style(args, parser)  # 2.000 on a Spanish page: refused, not read as 2
    flag = SWEPT.get(command, "--devices")
    swept = getattr(args, flag[2:].replace("-", "_"), None) if flag else None
    n = 0
    if swept and flag:  # counted before the work: 20,000 fitted sizes took 10 s and 0.9 GB, then were refused
        from dpscale.faces.cli.common import MAX_SIZES, parse_devices

        try:
            n = len(parse_devices(swept, flag))
        except DpscaleError as exc:
            n = 0  # the command's own check says what is wrong with it; but past the command line's cap on sizes
            if getattr(exc, "parts", ("", "", ""))[2] == f"sizes: at most {MAX_SIZES:,}":  # it said 'at most 100,000'
                raise DpscaleError(  # where the page allows 2,000: told the page's cap at once
                    f"{flag}: over {MAX_SIZES:,} sizes; allowed: at most {MAX_PAGE_ROWS:,} on the page (the command "
                    f"line takes up to {MAX_SIZES:,})"
                ) from None
        if n > MAX_PAGE_ROWS:
            raise _too_many(flag, n)
    if command == "fit":
        page_bootstrap(args, n)
    got: dict[str, Any] = {}
    args.sink = lambda records, columns, title, notes: got.update(
        records=records, columns=columns, title=title, notes=notes
    )
    try:
        module.run(args)
    except DpscaleError as exc:
        said = PAGE_SAID.get((command, str(exc)))
        allowed = PAGE_ALLOWED.get(exc.parts[2]) if getattr(exc, "parts", None) else None
        if allowed is not None:
            raise renamed(exc, exc.parts[0], allowed) from None
        if said is None:
            raise
        raise DpscaleError(said) from None
    if isinstance(got["records"], list) and len(got["records"]) > MAX_PAGE_ROWS:  # a browser table this long hangs
        raise _too_many(flag or "--devices", len(got["records"]))
    title = got["title"] and page_note(got["title"], lang, command)
    out = render(got["records"], got["columns"], title, [page_note(n, lang, command) for n in got["notes"]], lang)
    if getattr(args, "report", None) is not None:  # fit: its table is the predictions; --json prints the whole report
        out["report"] = clean(args.report)
    return out


def page_note(note: str, lang: str, command: str = "") -> str:
    """A command's note as the page says it (PAGE_NOTES), else as the command said it."""
    for key, page in PAGE_NOTES.items():
        reader = _note_reader(key, lang)
        m = reader[0].fullmatch(note) if reader else None
        if reader is None or m is None:
            continue
        # a field said the page's way too: a note inside it (fit's 'chosen by you (--law usl)'), a flag it carries
        fields = {k: _page_flags(page_note(v, lang, command), lang, command) for k, v in m.groupdict().items()}
        template = reader[1] if page is None else label(page, lang)
        return singular(template.format_map(_PageWords(fields, lang)), SINGULAR.get(lang, {}))
    return note


@cache
def _note_reader(key: str, lang: str) -> tuple[re.Pattern[str], str] | None:
    """A note's wording in the language (dpscale.notes' Note, else a label) as a pattern that reads its fields back
    from the text the command wrote, and that wording with bare fields (to be filled with that text); None where a
    field's format nests another (not read back)."""
    from string import Formatter

    from dpscale.notes import EN

    if key in EN:
        from dpscale.faces.i18n.notes_es import NOTES

        wording = EN[key] if lang == "en" else NOTES.get(lang, {}).get(key) or EN[key]
    else:
        wording = label(key, lang)
    nouns = SINGULAR.get(lang, {})  # a count of one was written in the singular ('1 device')
    counted = re.compile(rf"\b({'|'.join(nouns)})\b") if nouns else None
    pattern, bare, specs = "", "", dict[str, str | None]()
    for literal, field, spec, _ in Formatter().parse(wording):
        part = re.escape(literal)
        pattern += counted.sub(lambda k: f"(?:{k[1]}|{nouns[k[1]]})", part) if counted else part
        bare += literal.replace("{", "{{").replace("}", "}}")
        if field is None:
            continue
        if "{" in (spec or "") or not field.isidentifier():
            return None
        # a field may be empty: predict's memory notes' {gib} is '' for a GDDR card (l40s-48gb's '48.3 GB: shard
        # them'), and a field read as one character or more missed them, so the page said `dpscale memory`, --zero
        if field not in specs:
            pattern += f"(?P<{field}>.*?)"
        else:  # written again: as before where its format is the same ({g:,} and {g} may differ)
            pattern += f"(?P={field})" if specs[field] == spec else ".*?"
        specs.setdefault(field, spec)
        bare += "{" + field + "}"
    return re.compile(pattern, re.S), bare


class _PageWords(dict):  # type: ignore[type-arg]
    """A page wording's fields: the note's own; {web_KEY}: that label as the page's error lines name a field;
    {web_opt_FIELD}: the note's FIELD as the page's menu words that choice (memory's precision 'mixed' is «mixta»)."""

    def __init__(self, fields: dict[str, str], lang: str) -> None:
        super().__init__(fields)
        self.lang = lang

    def __missing__(self, key: str) -> str:
        if not key.startswith("web_"):
            raise KeyError(key)
        if key.startswith("web_opt_") and (field := key.removeprefix("web_opt_")) in self:
            choice = f"web_opt_{self[field]}"
            return label(choice, self.lang) if choice in LABELS["en"] else str(self[field])
        return field_name(key, self.lang)


def field_name(key: str, lang: str) -> str:
    """A field's label without its remark, in brackets or after a colon, as index.html's mark() names it in an error
    line: 'Network per node: GB/s, or … (blank: the system's)' → 'Network per node'."""
    return re.sub(r"\s+\([^()]*\)\s*$", "", label(key, lang)).split(": ")[0].strip()


QUOTES = {"en": "'{}'", "es": "«{}»"}  # a field's label quoted in a note, as web_plan_no_e quotes the take button


@cache
def page_fields() -> dict[str, dict[str, str]]:
    """Each tab's fields as index.html labels them: command → {option's dest: its label's key}."""
    page = files("dpscale.faces.web").joinpath("index.html").read_text(encoding="utf-8")
    fields: dict[str, dict[str, str]] = {}
    for form in re.finditer(r'<form [^>]*data-command="(\w+)"[^>]*>(.*?)</form>', page, re.S):
        pairs = re.findall(r'<span data-l="(web_\w+)"></span>\s*<(?:input|select|textarea)\b[^>]*?\bname="(\w+)"',
                           form[2])  # fmt: skip
        fields[form[1]] = {name: key for key, name in pairs}
    return fields


def _page_flags(text: str, lang: str, command: str) -> str:
    """A flag in a note's field ('--base-lr 0.1' of the worked example's list) named by its field's label on the
    command's tab, and a menu's choice after it by the menu's word for it ('--recompute full': «Recómputo de
    activaciones» completo, as the menu offers it); a flag the tab has no field for stays as written."""
    if "--" not in text:
        return text
    fields = page_fields().get(command, {})

    def named(m: re.Match[str]) -> str:
        key = fields.get(m[1].replace("-", "_"))
        if key is None:
            return m[0]
        said = QUOTES.get(lang, QUOTES["en"]).format(field_name(key, lang))
        choice = f"web_opt_{m[2]}"
        return said if m[2] is None else f"{said} {field_name(choice, lang) if choice in LABELS['en'] else m[2]}"

    return re.sub(r"--([a-z][a-z0-9-]*)(?![\w-])(?: ([a-z0-9-]+)(?![\w-]))?", named, text)


def render(records: Any, columns: list, title: str | None, notes: list[str], lang: str) -> dict[str, Any]:
    """The cells the terminal shows (faces.output): one record as label/value pairs, a sweep as a table."""
    single = isinstance(records, dict)
    if single:
        table = {"headers": [], "rows": [list(p) for p in pairs(records, columns, lang)], "left": [True, False]}
    else:
        heads, body = grid(records, columns, lang)
        table = {"headers": heads, "rows": body, "left": [c.kind == "text" for c in columns]}  # as the terminal
        units = units_line(columns, lang)
        notes = [units, *notes] if units else notes
    return {
        "title": title or "",
        "single": single,
        "table": table,
        "notes": [say(n, lang) for n in notes],
        "records": clean(records),
    }


def page_labels(lang: str) -> dict[str, str]:
    """The page's own words (keys starting 'web_'), English where a language lacks one; and 'name:KEY', a field's
    label without its remark (field_name), where it has one: the name index.html's mark() gives a field in an error
    line, by the same rule the notes name it (one rule, here, not a second copy of it in the page's script)."""
    keys = [k for k in LABELS["en"] if k.startswith("web_")]
    words = {k: label(k, lang) for k in keys}
    fields = {k for tab in page_fields().values() for k in tab.values()}
    return words | {f"name:{k}": name for k in sorted(fields) if (name := field_name(k, lang)) != words[k]}


def options() -> dict[str, Any]:
    """Every menu on the page, from the catalogs and the tuples the commands check their flags against, so the
    page offers exactly what the CLI accepts (a blank 'none' choice, where a form has one, is the page's own); and
    the program's own units as Spanish writes them or English spells them out, which the page's unit field reads as
    the server does (formulas.units.canonical_unit: 'muestras/s' and 'samples per second' are samples/s)."""
    from dpscale.formulas import memory
    from dpscale.formulas.batch import RULE_FOR
    from dpscale.formulas.pipeline import SCHEDULES
    from dpscale.formulas.units import SAME_UNITS
    from dpscale.sources.laws import FIT_LAWS, LAWS

    return {
        "models": sorted(catalog.table("models")),
        "systems": sorted(catalog.table("systems")),
        "precisions": list(PRECISIONS),
        "gpus": sorted(catalog.table("gpus")),
        "stages": [str(s) for s in memory.STAGES],
        "optimizers": list(memory.OPTIMIZERS),
        "memory_precisions": list(memory.PRECISIONS),
        "recomputes": list(memory.RECOMPUTE),
        "lr_optimizers": list(RULE_FOR),
        "schedules": list(SCHEDULES),
        "laws": [law for law in LAWS if law != "constant"],  # 'constant' is the E field itself: the blank choice
        "fit_laws": ["auto", *FIT_LAWS],
        "same_units": dict(SAME_UNITS),
    }


def refusal(why: Any, status: int, prog: str = "dpscale", headers: Any = None) -> JSONResponse:
    """Every refusal of the API, as the command line prints one: {"error": "dpscale: error: …"}."""
    return JSONResponse({"error": f"{prog}: error: {why}"}, status_code=status, headers=headers)


class BodyCap:
    """Refuses (413) a request body over MAX_BODY_BYTES while it arrives, before anything parses it: FastAPI read a
    1 GB POST whole into memory, then parsed it, before the page's field cap could refuse it. A body within the cap
    is handed on unchanged."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        chunks, size, more = [], 0, True
        declared = dict(scope.get("headers", [])).get(b"content-length", b"0")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:  # said up front: not one byte is read
            size = int(declared)
        while more and size <= MAX_BODY_BYTES:
            message = await receive()
            if message["type"] != "http.request":  # the client left: nothing to answer
                return None
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
        if size > MAX_BODY_BYTES:
            why = f"body: over {MAX_BODY_BYTES:,} bytes; allowed: at most {MAX_BODY_BYTES:,} (a form's fields)"
            # the body's "lang" is never read here: the page asks for its language in Accept-Language too, so a
            # paste too big for the Spanish page is refused in Spanish (it was this line in English)
            why = say_error(DpscaleError(why), asked_lang(scope))
            return await refusal(why, 413)(scope, receive, send)
        body, given = b"".join(chunks), False

        async def replay() -> Any:
            nonlocal given
            if given:
                return await receive()  # after the body: the server's disconnect, as the app expects
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        return await self.app(scope, replay, send)


def asked_lang(scope: Any) -> str:
    """The language a request's Accept-Language prefers among the page's (the page sends its own: es), for a
    refusal said before the body's "lang" is read; English where it asks for none of them. Preference is the
    q-value (RFC 9110 §12.5.4), ties in the order given: 'en;q=0.1, es' is Spanish, 'es;q=0' refuses Spanish."""
    said = dict(scope.get("headers", [])).get(b"accept-language", b"").decode("latin-1")
    ranked = []
    for part in said.split(","):
        tag, *params = (p.strip() for p in part.split(";"))
        q = next((p[2:] for p in params if p[:2].lower() == "q="), "1")
        try:
            weight = float(q) if 0 <= float(q) <= 1 else 0.0  # a q past 1 or below 0 is malformed: not a preference
        except ValueError:
            weight = 0.0
        if weight > 0:
            ranked.append((-weight, tag.split("-")[0].lower()))
    ranked.sort(key=lambda r: r[0])  # stable: equal weights keep the header's order
    return next((t for _, t in ranked if t in LANGS), "en")


async def repeated_key(request: Request) -> str | None:
    """The first key an object of the request's JSON gives twice ({"devices": "64", "devices": "8"}), else None.
    (FastAPI has parsed the body already, and refused one that is not JSON; its bytes are kept for a second read.)"""
    from dpscale.files import json_pairs

    try:
        return json_pairs(await request.body())[1]
    except (ValueError, RecursionError):
        return None


JSON_TYPE = "application/json (the body is read as JSON only under it)"
FALLBACK_TAG = '<script type="application/json" id="fallback">{}</script>'
FALLBACK_KEYS = ("web_no_answer", "web_bad_answer")


def fallback_lines() -> str:
    """The lines the page says when the server fails, in every language, as JSON for the page itself to carry: the
    words from /api/labels may be what failed (a first visit in Spanish said 'no answer from the server' in English)."""
    import json

    lines = {lang: {k: label(k, lang) for k in FALLBACK_KEYS} for lang in LANGS}
    return json.dumps(lines, ensure_ascii=False).replace("<", "\\u003c")  # (no '</script>' can end the tag early)


def page_policy(page: str) -> str:
    """The page's Content-Security-Policy: its own inline script and style (by their SHA-256, read off the page as
    served, so an edit of either cannot leave the policy behind), requests to its own address, nothing else. Markup
    that ever reached the page's HTML (its menus and chart are put in as markup) could then run no script of its own.
    No frame-ancestors: a notebook may show the page in a frame, and the page has nothing a framing site could use."""
    import base64
    import hashlib

    def sha(body: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode("ascii") + "'"

    scripts = " ".join(sha(m) for m in re.findall(r"<script>(.*?)</script>", page, re.S))
    styles = " ".join(sha(m) for m in re.findall(r"<style>(.*?)</style>", page, re.S))
    return (
        f"default-src 'none'; script-src {scripts}; style-src {styles}; connect-src 'self'; img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )


class SecurityHeaders:
    """Adds X-Content-Type-Options: nosniff and the page's policy to every answer, refusals before the app included
    (a foreign Host, a body over the cap): an error line that echoes what was sent is never read as a page."""

    def __init__(self, app: Any, policy: str) -> None:
        self.app = app
        self.headers = [(b"x-content-type-options", b"nosniff"), (b"content-security-policy", policy.encode())]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        return await self.app(scope, receive, with_headers)


LOOPBACK_NAMES = "this machine's loopback names (`serve --host` sets the address): "


class OwnNames:
    """Answers only requests whose Host is one of `hosts` (starlette's check), refusing the others in the API's line,
    in the language Accept-Language asks for: starlette's own refusal was a plain-text 'Invalid host header'."""

    def __init__(self, app: Any, hosts: list[str]) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        from starlette.middleware.trustedhost import TrustedHostMiddleware

        passed = False

        async def through(scope: Any, receive: Any, send: Any) -> None:
            nonlocal passed
            passed = True
            await self.app(scope, receive, send)

        async def unless_refused(message: Any) -> None:  # (starlette's refusal itself is dropped)
            if passed:
                await send(message)

        await TrustedHostMiddleware(through, allowed_hosts=self.hosts, www_redirect=False)(
            scope, receive, unless_refused
        )
        if not passed:
            host = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1")
            why = say_error(fail("host", host, LOOPBACK_NAMES + ", ".join(self.hosts)), asked_lang(scope))
            await refusal(why, 400)(scope, receive, send)
        return None


_FITS: RunVar[anyio.CapacityLimiter] = RunVar("dpscale_fits")


def fit_limiter() -> anyio.CapacityLimiter:
    """The fits' limiter of the running event loop (the server's one; a test client's own), made on first use."""
    try:
        return _FITS.get()
    except LookupError:
        _FITS.set(limiter := anyio.CapacityLimiter(MAX_PAGE_FITS))
        return limiter


def create_app(lang: str = "en", hosts: list[str] | None = None) -> FastAPI:
    """The page and its API; `lang`: the page's language where the address names none (`serve --lang`); `hosts`:
    the only Host headers answered, where given (serve's on loopback: a rebound name is refused, 400)."""
    # no schema either: /openapi.json was served, unnamed by the refusals' list and README, and warned in the log
    app = FastAPI(title="dpscale", docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(BodyCap)
    if hosts:
        app.add_middleware(OwnNames, hosts=hosts)
    page = files("dpscale.faces.web").joinpath("index.html").read_text(encoding="utf-8")
    page = page.replace(FALLBACK_TAG, FALLBACK_TAG.replace("{}", fallback_lines()), 1)  # (the file's: empty)
    if lang != "en":  # read by the page's script: a bare http://host:port/ opened in English after `serve --lang es`
        page = page.replace('<html lang="en">', f'<html lang="en" data-lang="{lang}">', 1)
    app.add_middleware(SecurityHeaders, policy=page_policy(page))  # (added last: the outermost, round every answer)

    # FastAPI's own refusals (a body that is not a JSON object, a GET on a POST route) answer {"detail": [...]}:
    # give them the one "error" line every other answer has, which the page shows, in the language the request's
    # Accept-Language prefers (no body "lang" is read: there may be none), as the body cap is said.
    @app.exception_handler(RequestValidationError)
    def not_an_object(request: Request, exc: Exception) -> JSONResponse:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        unread = getattr(exc, "body", None)  # the bytes FastAPI kept as they came: it did not read them as JSON
        if isinstance(unread, bytes) and unread:
            # FastAPI reads a body as JSON only under a JSON type: `curl -d '{"options": …}'` (form-encoded),
            # Python's urlopen and requests' data= sent the very object the body's line asked them for. What it did
            # is asked, not the headers: a route with strict_content_type off (FastAPI's only way before 0.132) reads
            # a body with no type as JSON, and an empty chunked body is no body
            error = fail("content-type", kind, JSON_TYPE)
        else:
            error = DpscaleError('body: allowed: a JSON object {"options": {"flag": "value"}, "lang": "en"}')
        why = say_error(error, asked_lang(request.scope))
        return refusal(why, 422)

    @app.exception_handler(StarletteHTTPException)
    def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and isinstance(exc.__cause__, (ValueError, RecursionError)):
            # a body FastAPI's JSON reader failed on past its JSONDecodeError (arrays nested 1,000 deep, bytes that
            # are not UTF-8) was a 400 'There was an error parsing the body; allowed: POST to /api/COMMAND, …',
            # English on the Spanish page, where '{bad' gets the body's line: the same line here
            return not_an_object(request, exc)
        allowed = "POST to /api/COMMAND, GET / or /api/labels/LANG or /api/options"
        why = f"{request.method} {request.url.path}: {exc.detail}; allowed: {allowed}"
        why = say_error(DpscaleError(why), asked_lang(request.scope))
        return refusal(why, exc.status_code, headers=exc.headers)

    # GET and HEAD: FastAPI's get() alone answered HEAD / (curl -I, a link checker, an uptime probe) 405
    @app.api_route("/", methods=["GET", "HEAD"], response_class=HTMLResponse)
    def index() -> str:
        return page

    @app.api_route("/api/labels/{lang}", methods=["GET", "HEAD"])
    def labels(lang: str, request: Request) -> JSONResponse:
        lang = lang_named(lang)  # ('ES' is es, as --lang ES is)
        if lang not in LANGS:
            # (in the form of every other refusal of the API, 'dpscale: error: …', and as those said before a
            # body's "lang" is read, in the language Accept-Language prefers: it was English on the Spanish page)
            return refusal(say_error(fail("lang", lang, ", ".join(LANGS)), asked_lang(request.scope)), 422)
        return JSONResponse(page_labels(lang))

    @app.api_route("/api/options", methods=["GET", "HEAD"])
    def menu() -> dict[str, Any]:
        return options()

    @app.post("/api/{command}")
    async def command(
        command: str, body: dict[str, Any], request: Request, twice: str | None = Depends(repeated_key)
    ) -> Response:
        try:
            if twice is not None:  # JSON's parser keeps the last silently, as `--devices 64 --devices 8` is refused
                opts = body.get("options")
                name = f"--{twice.replace('_', '-')}" if isinstance(opts, dict) and twice in opts else twice
                name = name if re.fullmatch(r"[\w-]{1,40}", name) else repr(name)
                raise DpscaleError(given_twice(name))
            stray = sorted(set(body) - {"options", "lang"})
            if stray:  # a bare options object would otherwise run the command with none: the worked example
                raise DpscaleError(
                    f'body: got key {stray[0]!r}; allowed: options, lang ({{"options": {{"flag": "value"}}}})'
                )
            opts, lang = body.get("options", {}), lang_named(body.get("lang", "en"))  # ('ES' is es, as --lang ES)
            if not isinstance(opts, dict):  # (0, false or [] once ran the worked example)
                raise fail("options", as_json(opts), '{"flag": "value", ...}')
            if not isinstance(lang, str):
                raise fail("lang", as_json(lang), ", ".join(LANGS))
            # in a worker thread, as a plain (sync) route runs: fit's under its own limiter (MAX_PAGE_FITS)
            work = lambda: JSONResponse(run_command(command, opts, lang))  # noqa: E731
            if command != "fit":
                return await anyio.to_thread.run_sync(work)
            async with fit_limiter():  # (its turn, waited for without a thread)
                # a fit whose client hung up while it waited is not run: 10 fits posted and dropped at once all ran,
                # two at a time, and 2 fits posted next waited 12.9 s behind them (2.2 s alone)
                if await request.is_disconnected():
                    return Response(status_code=499)  # (nobody reads it: nginx's 'client closed request')
                return await anyio.to_thread.run_sync(work)
        except (DpscaleError, OverflowError) as exc:
            # a body's "lang" the page lacks ("de") cannot say its own refusal: the one Accept-Language prefers does,
            # as the server's refusals before the body is read (it was English)
            lang = lang_named(body.get("lang", "en"))
            lang = lang if lang in LANGS else asked_lang(request.scope)
            why = say_error(overflow(exc) if isinstance(exc, OverflowError) else exc, lang)
            # an unknown command is said once, clipped, in the line's body: in its prefix it came back raw (a
            # newline in the path made two lines; a 30,000-letter one, 30 kB)
            prog = f"dpscale {command}" if command in WEB_COMMANDS else "dpscale"
            return refusal(why, 422, prog)

    return app
