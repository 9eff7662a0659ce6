"""Review LF (mutation pass over today's source lines): how validate tells a published table whose first column opens
with '[' or '{' from JSON (dataset._names_a_column, review KX), and the text a refused deadline echoes
(plan.parse_duration, review LB) — each test below failed against a hand-made mutant (named in its docstring) and
passes on the source."""

from __future__ import annotations

import json

import pytest
from clihelp import run

import dpscale
from dpscale.errors import DpscaleError

MISSING = (
    "line {n}: missing columns cfg, baseline_devices, grad_accum, units_per_sample, system, gpus_per_node, "
    "intra_bw_gbs, inter_bw_gbs, model, precision, per_device_batch, throughput, params_millions (found {found})"
)


@pytest.mark.parametrize(
    ("text", "n", "found"),
    [
        # mutant: the cell's .strip() dropped (survived): ' devices' named no column, so 'line 1: not valid JSON'
        ("[cfg], devices, imgs_per_sec\nA, 1, 100\n", 1, "[cfg], devices, imgs_per_sec"),
        # mutant: the cell's .lower() dropped (survived): 'Devices' as _rows reads it is devices
        ("[cfg],Devices,Imgs_per_sec\nA,1,100\n", 1, "[cfg], devices, imgs_per_sec"),
        # mutants: the first line that is not blank → `if ln` (spaces are not blank), and → the text's first line
        # (both survived): a line of spaces above the header, which the CSV reader skips (it says line 2)
        ("   \n[cfg],devices,imgs_per_sec\nA,1,100\n", 2, "[cfg], devices, imgs_per_sec"),
    ],
)
def test_a_bracketed_header_as_the_csv_reader_reads_it_is_a_table(tmp_path, capsys, text, n, found):
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    rc, out, err = run(capsys, "validate", str(path))
    assert (rc, out) == (2, "") and err == f"dpscale validate: error: {path} {MISSING.format(n=n, found=found)}\n"


def test_json_whose_first_line_holds_a_cell_past_the_csv_field_limit_is_json(tmp_path, capsys):
    """Mutant: _names_a_column's csv.Error → True (survived: the comment names a NUL, which Python 3.11's csv reads).
    A run record with a 140,000-character log string, its closing brace lost: the csv module refuses a field past
    131,072 characters, so the line names no column and is JSON broken on line 1, not 'line 1: not a readable CSV row
    (field larger than field limit (131072))'."""
    path = tmp_path / "r.jsonl"
    path.write_text('{"devices": 1, "throughput": 9, "log": "' + "a" * 140_000 + '"\n', encoding="utf-8")
    rc, out, err = run(capsys, "validate", str(path))
    assert (rc, out) == (2, "") and err == (
        f"dpscale validate: error: {path} line 1: not valid JSON (Expecting ',' delimiter); allowed: a "
        "published-measurements CSV — runs from `dpscale measure --out` or `--json` go to `dpscale fit FILE`\n"
    )


def test_json_whose_string_holds_a_column_name_between_commas_is_json(tmp_path, capsys):
    """Mutant: read_published's `opens_json(text) or` dropped (survived). A valid run record whose tags string is
    'bf16,model,8 GPUs' splits, read as a CSV line, into a cell 'model': the file is JSON all the same (validate
    sends it to fit), not a table missing 13 columns."""
    path = tmp_path / "r.jsonl"
    path.write_text('{"devices": 8, "throughput": 7000, "tags": "bf16,model,8 GPUs"}\n', encoding="utf-8")
    rc, out, err = run(capsys, "validate", str(path))
    assert (rc, out) == (2, "") and err == (
        f"dpscale validate: error: {path}: JSON; allowed: a published-measurements CSV — runs from `dpscale measure "
        "--out` or `--json` go to `dpscale fit FILE`\n"
    )


@pytest.mark.parametrize("text", ["１０H", " 1_000H "])
def test_a_refused_deadline_is_echoed_as_written(text):
    """Mutant: parse_duration's refusal of Python's spellings echoing `raw` (stripped and lower-cased) for the text
    given (survived: the tests wrote lower case without spaces). '１０H' is said as '１０H', not '１０h'."""
    with pytest.raises(DpscaleError) as exc:
        dpscale.parse_duration(text)
    assert (
        str(exc.value) == f"deadline: got {text!r}; allowed: a number in the digits 0-9, without '_' (1000, not 1_000)"
    )


def _no_constant(name: str) -> None:
    raise AssertionError(f"{name} is not JSON")


def test_a_fit_of_two_sizes_has_no_leave_one_out_score_and_says_null(tmp_path, capsys):
    """Mutant: fit_report._json_ready's `not math.isfinite(x)` → math.isinf(x) (survived: the test held a report's
    ∞, no peak, not its NaN). Two sizes leave no leave-one-out score (NaN): `dpscale fit r.csv --json` printed
    'NaN', which is not JSON (json.loads reads it only as Python's extension); null now, as Fit.report() holds."""
    runs = [(1, 1000), (8, 7000)]
    assert dpscale.fit(runs, resamples=50).report()["loo_rmse"] is None
    path = tmp_path / "r.csv"
    path.write_text("devices,throughput\n1,1000\n8,7000\n", encoding="utf-8")
    rc, out, err = run(capsys, "fit", str(path), "--json", "--resamples", "50")
    assert rc == 0, err
    report = json.loads(out, parse_constant=_no_constant)
    assert (report["loo_rmse"], report["runner_up"]["loo_rmse"]) == (None, None)
