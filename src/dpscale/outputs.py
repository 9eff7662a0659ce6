"""Which command wrote a file a user handed in: another command's --json, --csv or `measure`'s runs, named by every
reader that refuses it as what it is and which command reads it (review ML and after), rather than as a field
missing. Beside files.py, whose readers call it once they have refused a file; nothing here reads a path."""

from __future__ import annotations

from typing import Any

from dpscale.errors import DpscaleError
from dpscale.files import content_line, text_lines

# The "format" of the file `dpscale measure allreduce --out` writes (sources/measure/calibration.py): one string, so
# its readers (predict's --calibration; output_of, by which every other reader names it) cannot miss what it wrote
CALIBRATION_FORMAT = "dpscale-allreduce-calibration"
RUN_COLUMNS = ("devices", "throughput")  # the columns (or a record's keys) that make runs: what fit needs
CALC_KEYS = frozenset({"ideal_throughput", "actual_throughput", "lost_throughput", "effective_devices"})  # calc's rows
# Another command's output handed to a reader of something else, named as what it is and which command reads it.
# predict --calibration said so since review MH; fit, plan --fit, plan --efficiency-file, --system-file, validate and
# the page's fit field said 'got '{"devices": 64, …'; allowed: an object with "devices" and "throughput"', 'a JSON
# array', or 'system 'custom' needs numbers…' of calc's, predict's, validate's or memory's JSON (review ML)
OTHER_OUTPUT = {
    "fit": "a fitted law (`dpscale fit --json`, for plan --efficiency-file)",
    "predict": "E predicted per size (`dpscale predict --json`, for plan --efficiency-file)",
    "calc": "calc's answer (`dpscale calc --json`, for plan --efficiency-file)",
    "validate": "a validation's scores (`dpscale validate --json`, which no command reads)",
    "plan": "a plan's sizes and E (`dpscale plan --json`, for plan --efficiency-file)",
    "memory": "memory per device (`dpscale memory --json`, which no command reads)",
    "pipeline": "a pipeline's bubble (`dpscale pipeline --json`, which no command reads)",
    "batch": "a global batch and learning rate (`dpscale batch --json`, which no command reads)",
    "calibration": "an all-reduce calibration (`dpscale measure allreduce --out`, for predict --calibration)",
    "runs": "runs of `dpscale measure` (for fit and plan --fit)",
    # the catalog's formats, a user's own (review MO: predict --model-file systems.json said 'kind missing')
    "system": "a system file (as systems.json, for predict --system-file)",
    "model": "a model file (as models.json or a Hugging Face config.json, for predict and memory --model-file)",
}
# A command's --csv handed to a reader of something else, by its header (faces/output.emit writes a command's columns,
# then its records' other keys: the --json records' names). fit, plan --fit, validate and the page's fit field listed
# the columns found; plan --efficiency-file, --calibration, --system-file and --model-file said 'line 1: not JSON
# (Expecting value)' (review MT). measure --csv's (and anyone's devices,throughput table) are runs: "runs" above.
OTHER_OUTPUT |= {
    "calc --csv": "calc's answer as CSV (`dpscale calc --csv`; plan --efficiency-file reads its --json)",
    "predict --csv": "E predicted per size as CSV (`dpscale predict --csv`; plan --efficiency-file reads its --json)",
    "fit --csv": "E fitted per size as CSV (`dpscale fit --csv`; plan --efficiency-file reads its --json)",
    "plan --csv": "a plan's sizes and E as CSV (`dpscale plan --csv`; plan --efficiency-file reads its --json)",
    "validate --csv": "a validation's scores as CSV (`dpscale validate --csv`, which no command reads)",
    "memory --csv": "memory per device as CSV (`dpscale memory --csv`, which no command reads)",
    "pipeline --csv": "a pipeline's bubble as CSV (`dpscale pipeline --csv`, which no command reads)",
    "batch --csv": "a global batch and learning rate as CSV (`dpscale batch --csv`, which no command reads)",
    "allreduce --csv": (
        "all-reduce timings as CSV (`dpscale measure allreduce --csv`; predict --calibration reads its --out)"
    ),
    "equivalence --csv": "an equivalence check as CSV (`dpscale measure equivalence --csv`, which no command reads)",
}
# the names a command's --csv header holds that no other's holds together, where its records' keys (output_of's rule)
# do not tell it: fit's curve holds devices and throughput (fit reads it as runs, as it did), validate's rows and
# measure allreduce's and equivalence's are no --json records of output_of's
CSV_HEADERS = (
    ("fit --csv", frozenset({"devices", "throughput", "throughput_lo", "throughput_hi", "efficiency_lo"})),
    ("validate --csv", frozenset({"cfg", "devices", "measured", "predicted", "signed_error"})),
    ("allreduce --csv", frozenset({"bytes", "time_us", "algbw_gbs", "busbw_gbs"})),
    ("equivalence --csv", frozenset({"devices", "dtype", "max_abs_diff", "passed"})),
)
MODEL_CONFIG_KEYS = ("model_type", "num_hidden_layers")  # a Hugging Face config.json holds one (catalog.hf reads it)


def output_of(data: Any) -> str | None:
    """Which command wrote a JSON document (a key of OTHER_OUTPUT), by the keys its --json (or `measure --out`'s
    line, or `measure allreduce --out`'s file) always holds; None for anything else (a user's own file). The one rule
    every reader of a file names another command's output by (review ML; predict --calibration's since review MH).

    >>> output_of({"law": "usl", "criterion": "loo"}), output_of([{"devices": 8, "throughput": 900.0}]), output_of({})
    ('fit', 'runs', None)
    """
    if isinstance(data, dict) and data.get("format") == CALIBRATION_FORMAT:
        return "calibration"
    if isinstance(data, dict) and "law" in data and "criterion" in data:
        return "fit"
    if isinstance(data, dict) and data.get("mode") in ("predict", "fit") and "median_abs_error" in data:
        return "validate"
    records = _records_of(data)
    if records or not isinstance(data, dict) or any(k in data for k in ("devices", "points", "predictions")):
        return records
    # the catalog's formats, in a document of no records, a command's or a user's own (review MR: a run {"devices": 8,
    # "throughput": 900, "model_type": "llama"} was 'a model file' to fit, line by line, and a record of E
    # {"devices": 8, "efficiency": 0.9, "model_type": …} to plan --efficiency-file)
    if isinstance(data.get("systems"), dict):
        return "system"
    if isinstance(data.get("models"), dict) or any(k in data for k in MODEL_CONFIG_KEYS):
        return "model"
    return None


def _records_of(data: Any) -> str | None:
    """output_of's reading of a command's records (a key of OTHER_OUTPUT), None where the first holds none."""
    # (measure --json: its runs under "points"; predict --min-efficiency's or --target-throughput's: its records under
    # "predictions", beside the answer — reviews MM and MO: that object was 'JSON', 'busbw_gbs missing', "got '{…'")
    points = (
        next((data[k] for k in ("points", "predictions") if isinstance(data.get(k), list)), None)
        if isinstance(data, dict)
        else None
    )
    first = points[0] if points else data
    first = first[0] if isinstance(first, list) and first else first  # (a sweep's records)
    return _record_of(first.keys()) if isinstance(first, dict) else None


def _record_of(keys: Any) -> str | None:
    """Which command's record holds these keys (output_of's, and a --csv header's: output_of_header)."""
    if set(RUN_COLUMNS) <= keys:  # (runs_csv.holds_runs' rule)
        return "runs"
    if {"schedule", "bubble_fraction"} <= keys:
        return "pipeline"
    if "model_state_bytes_per_device" in keys:
        return "memory"
    if {"micro_batch", "grad_accum", "global_batch"} <= keys:
        return "batch"
    if not {"devices", "efficiency"} <= keys:
        return None
    if "bottleneck" in keys:
        return "predict"
    if {"hours", "device_hours"} <= keys:
        return "plan"
    return "calc" if CALC_KEYS <= keys else None


def output_of_text(text: str) -> str | None:
    """output_of a file's text: the JSON document it holds, or its first line neither blank nor a '#' comment (one
    record of `measure --out`'s lines); None where neither is JSON."""
    import json

    for doc in (text, next((ln for ln in text_lines(text.lstrip("\ufeff")) if content_line(ln)), "")):
        try:
            return output_of(json.loads(doc))
        except (ValueError, RecursionError):
            continue
    return None


def output_of_header(names: Any) -> str | None:
    """Which command's --csv a table's header is (a key of OTHER_OUTPUT: 'calc --csv', …; "runs" for measure's, or
    any table of devices and throughput, which fit reads), by the names it holds (as its reader reads them); None for
    a user's own table. The one rule every reader of a file names another command's CSV by (review MT).

    >>> output_of_header(["devices", "per_device_throughput", "efficiency", "ideal_throughput", "actual_throughput",
    ...                   "speedup", "lost_throughput", "effective_devices"])
    'calc --csv'
    >>> output_of_header(["devices", "throughput"]), output_of_header(["cfg", "devices", "throughput"])
    ('runs', 'runs')
    """
    names = frozenset(names)
    kind = next((k for k, need in CSV_HEADERS if need <= names), None) or _record_of(names)
    return kind if kind in (None, "runs") or kind.endswith(" --csv") else f"{kind} --csv"


def output_of_csv(text: str) -> str | None:
    """output_of_header of a file's text: its first line neither blank nor a '#' comment, read as a CSV header (case,
    spaces and a byte-order mark aside); None where that line is no command's header (JSON, a user's table)."""
    import csv

    first = next((ln for ln in text_lines(text.lstrip("\ufeff")) if content_line(ln)), "")
    try:
        names = next(csv.reader([first]), [])
    except csv.Error:  # (a cell past csv's limit: '[[[…' 100,000 deep, or a NUL)
        return None
    return output_of_header(n.replace("\ufeff", "").strip().lower() for n in names) if len(names) > 1 else None


SECOND_DOCUMENT = "two outputs appended with >>"  # why a file holds a second JSON document (second_document)


def second_document(where: str, exc: Any) -> DpscaleError | None:
    """A file of two JSON documents, as `>>` appends one command's --json to another's, from json's JSONDecodeError
    ('Extra data': json read one whole): named on the second's line by what the first is (output_of), where a JSON
    document follows it. It was '--calibration: c.json line 2: not JSON (Extra data)' of two `calc --json` appended,
    and so to plan --efficiency-file (review MT). None for anything else (text after the first: not_json's)."""
    import json

    if exc.msg != "Extra data":
        return None
    try:
        other = output_of(json.loads(exc.doc[: exc.pos]))
        json.JSONDecoder().raw_decode(exc.doc, exc.pos)  # (a second document opens there)
    except (ValueError, RecursionError):
        return None
    if other is None:
        return None
    return DpscaleError(
        f"{where} line {exc.lineno}: a second JSON document after {OTHER_OUTPUT[other]} ({SECOND_DOCUMENT}); "
        "allowed: one JSON document a file"
    )
