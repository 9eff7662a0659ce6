"""The output layer (faces/output.py, emit): tables, units lines, counts in the singular, overflowed answers."""

from __future__ import annotations

import argparse
import json

import pytest
from clihelp import MEASURE_ROW, run

from dpscale.errors import DpscaleError
from dpscale.faces.cli import measure

# Cases a fifth mutation sweep (sources.measure's pure logic, predict_validate, fit_validate, predict_inputs, the
# plan and web faces, notes) found no test could fail on. Each expected value is derived in its docstring or comment,
# from the docs or the arithmetic, not read back from the code. None of these starts torch or a process.


def test_cells_align_as_the_terminal_aligns_them():
    """faces.output: text columns left, numbers right; one record's label/value pairs: the label left, the value
    right. A sweep's shared unit is said first under the table, as the terminal prints it."""
    from dpscale.faces.output import Column
    from dpscale.faces.web.app import render

    cols = [Column("devices", "int"), Column("bottleneck", "text"), Column("actual_throughput", "rate", "samples/s")]
    table = render([{"devices": 8, "bottleneck": "compute", "actual_throughput": 720.0}], cols, None, ["x"], "en")
    assert table["table"]["left"] == [False, True, False]
    assert table["notes"] == ["throughputs in samples/s", "x"]
    assert render({"devices": 8}, cols[:1], None, [], "en")["table"]["left"] == [True, False]


# Cases a seventh mutation sweep (the measure face's arguments and notes; output; plots) found no test could fail
# on. Each expected value is derived in its docstring or comment, from the docs or the arithmetic, not read back from
# the code. None of these starts torch, a browser or a process.


def test_a_sweep_of_two_units_has_no_one_unit_line():
    """output.units_line: 'throughputs in samples/s' only 'when a sweep's columns share one unit (the cells then
    omit it)'; with two units, no line names either as the unit of all."""
    from dpscale.faces.output import Column, horizontal

    cols = [Column("devices", "int"), Column("throughput", "rate", "samples/s"), Column("bw", "rate", "GB/s")]
    table = horizontal([{"devices": 1, "throughput": 10.0, "bw": 1.0}] * 2, cols, "en")
    assert "throughputs in" not in table
    one = horizontal([{"devices": 1, "throughput": 10.0}] * 2, cols[:2], "en")
    assert one.splitlines()[-1] == "throughputs in samples/s"


def test_a_title_s_count_of_one_is_singular_in_spanish(capsys):
    """emit: 'a count of one in the singular ('≈ 1 dispositivos', '1 pasos'), however the line was composed' — the
    measure table's title with one step and one repeat says '1 paso' and '1 repetición'."""
    args = argparse.Namespace(json=False, csv=False, lang="es")
    measure.show_train([{**MEASURE_ROW, "devices": 1, "steps": 1, "repeats": 1}], args)
    title = capsys.readouterr().out.splitlines()[0]
    assert "1 paso " in title and "1 repetición," in title and "pasos" not in title


@pytest.mark.parametrize("value", [float("inf"), float("nan")])
def test_a_single_answer_that_overflowed_is_the_one_line_error(value):
    """emit: 'a result that overflowed ... becomes the one-line error instead of an ∞ in a table' — for one record
    (a calculator's single answer) as for a sweep, and for the NaN that ∞ − ∞ makes."""
    from dpscale.faces.output import Column, emit

    cols = [Column("devices", "int"), Column("hours")]
    with pytest.raises(DpscaleError, match=f"hours: comes to {value:g} from these inputs; allowed: realistic"):
        emit({"devices": 8, "hours": value}, cols, argparse.Namespace())
    with pytest.raises(DpscaleError, match=f"hours: comes to {value:g} from these inputs"):  # a sweep's later row
        emit([{"devices": 8, "hours": 1.0}, {"devices": 16, "hours": value}], cols, argparse.Namespace())


def test_a_note_s_count_of_one_is_singular_in_spanish(capsys):
    """emit: a count of one in the singular 'however the line was composed' — a note's '1 dispositivos' too."""
    from dpscale.faces.output import Column, emit

    emit({"devices": 1}, [Column("devices", "int")], argparse.Namespace(lang="es"), notes=["≈ 1 dispositivos"])
    assert capsys.readouterr().out.splitlines()[-1].endswith("≈ 1 dispositivo")


def test_a_sweep_s_columns_are_as_wide_as_their_headings():
    """output.horizontal: 'an aligned table' — a heading wider than its numbers ('devices' over 1 and 2) widens its
    column, so heading, rule and rows all end at the same place."""
    from dpscale.faces.output import Column, horizontal

    lines = horizontal([{"devices": 1, "speedup": 1.0}, {"devices": 2, "speedup": 1.8}],
                       [Column("devices", "int"), Column("speedup", "times")], "en").splitlines()  # fmt: skip
    assert len({len(line) for line in lines}) == 1
    assert lines[1].split() == ["-" * len(lines[0].split()[0]), "-" * len(lines[0].split()[1])]


def test_json_values_are_cleaned_inside_records_and_out():
    """12 significant digits and NaN → null hold for a record's values as for a bare number, whatever their type:
    a numpy float, a nested list, a dict subclass."""
    from collections import OrderedDict

    import numpy as np

    from dpscale.faces.output import clean

    dust = 0.1 + 0.2  # 0.30000000000000004
    rec = {"a": dust, "b": float("nan"), "c": np.float64(dust), "d": [dust, float("inf")], "e": 3, "f": "x",
           "g": True, "h": None, "i": {"j": dust}}  # fmt: skip
    want = {"a": 0.3, "b": None, "c": 0.3, "d": [0.3, None], "e": 3, "f": "x", "g": True, "h": None, "i": {"j": 0.3}}
    assert clean(rec) == want
    assert clean([rec, OrderedDict(rec)]) == [want, want]
    assert clean(dust) == 0.3 and clean(float("-inf")) is None and clean((dust,)) == [0.3]
    assert type(clean(rec)["c"]) is float and type(clean(rec)["g"]) is bool


@pytest.mark.parametrize(
    ("argv", "flag", "key", "value"),
    [
        (["calc", "-v", "2000", "-e", "0.9"], "-d", "actual_throughput", 14400.0),  # 8 × 2,000 × 0.9
        (["calc", "-v", "2000", "-a", "14400"], "-d", "efficiency", 0.9),  # solved: 14,400 / (8 × 2,000)
        (["batch", "-b", "32"], "-d", "global_batch", 256),  # 32 × 8
        (["pipeline", "-p", "4"], "-m", "bubble_fraction", 3 / 11),  # GPipe/1F1B (p−1)/(m+p−1), m = 8
    ],
)
def test_a_list_or_range_of_one_size_is_a_json_array_as_any_list_or_range_is(capsys, argv, flag, key, value):
    """README: a bare number is one answer, a list or a range a sweep. A script that builds `-d $LO..$HI` got an
    object at LO == HI (8..8, or a range whose step passes its end: 8..9x2, 8..8+8) and an array otherwise; now a
    list or range is an array of its rows whatever their count, and a bare 8 stays one object."""
    rc, out, _ = run(capsys, *argv, flag, "8", "--json")
    assert rc == 0 and json.loads(out)[key] == pytest.approx(value)
    for sizes in ("8..8", "8..9x2", "8..8+8"):
        rc, out, _ = run(capsys, *argv, flag, sizes, "--json")
        got = json.loads(out)
        assert rc == 0 and isinstance(got, list) and len(got) == 1 and got[0][key] == pytest.approx(value)


# Cases a mutation sweep of faces/output.py and i18n.number (review EN) found no test could fail on. Each expected
# value is derived in its comment, from the docs or the arithmetic.


def test_json_on_a_utf8_output_keeps_its_characters_and_csv_its_plain_newlines(capsys):
    """output.to_json: 'its characters as they are on a UTF-8 output' (ensure_ascii=True wrote the superlinear
    note's '—' as \\u2014, which parses the same, so no parsing test saw it); write_csv ends rows with '\\n'
    (the csv module's default '\\r\\n' left a '\\r' in every last cell read by cut or awk). 824/s on 8 at 100/s
    is E = 1.03."""
    rc, out, _ = run(capsys, "calc", "-d", "8", "-v", "100", "-a", "824", "--json")
    assert rc == 0 and "superlinear — the cluster" in out and "\\u2014" not in out
    rc, out, _ = run(capsys, "calc", "-d", "1,8", "-v", "100", "-e", "0.9", "--csv")
    assert rc == 0 and "\r" not in out and out.count("\n") == 3


def test_csv_on_an_output_that_is_not_utf8_keeps_the_solved_columns():
    """output._print's non-UTF-8 CSV path wrote `keys + extra`; writing `keys` alone dropped 'solved' and
    'devices_exact' there only. 115,201/s at 2,000/s and E = 0.9 needs 115,201 / 1,800 = 64.000555… devices, 65."""
    import os
    import subprocess
    import sys

    argv = ["calc", "-v", "2000", "-e", "0.9", "-a", "115201", "--csv"]
    done = subprocess.run([sys.executable, "-m", "dpscale", *argv], capture_output=True,
                          env=dict(os.environ, PYTHONIOENCODING="ascii"))  # fmt: skip
    head, row = done.stdout.decode("utf-8").splitlines()
    assert done.returncode == 0 and head.endswith(",effective_devices,solved,devices_exact")
    assert row == "65,2000.0,0.9,130000.0,117000.0,58.5,13000.0,58.5,devices,64.0005555556"


def test_a_row_s_marks_are_one_csv_cell_joined_by_semicolons(capsys):
    """write_csv: 'a list of words (plan's marks) is one cell, joined by ;' (',' was quoted into one cell and read
    the same by csv readers, not by people). At a constant E = 0.9 every size costs the same 35.6 device-hours, so
    the fastest, 128, is both the cheapest meeting 5 h and the fastest within a budget of 1,000."""
    rc, out, _ = run(capsys, "plan", "-n", "1.28e6", "--epochs", "90", "-v", "1000", "-d", "8,16,32,64,128", "-e",
                     "0.9", "--price", "2", "--deadline", "5h", "--budget", "1000", "--csv")  # fmt: skip
    assert rc == 0 and out.splitlines()[-1].endswith(",samples/s,cheapest_meeting_deadline;fastest_within_budget")


def test_number_formats_at_their_other_thresholds():
    """i18n.number: from 1e15 a rate keeps its exponent ('>= 1e16' wrote 1,152,000,000,000,000), in Spanish with
    its decimal comma (unlocalised it read 1.152e+15); a speed-up of exactly 10 takes one decimal as 10.5 does
    ('> 10' wrote 10.00×); money is grouped ('1234.50' without the mark). 64 × 2e13/s × 0.9 = 1.152e15/s."""
    from dpscale.faces.i18n import number

    assert (number(1.152e15, "rate"), number(1.152e15, "rate", "es"), number(9.99e14, "rate")) == (
        "1.152e+15", "1,152e+15", "999,000,000,000,000")  # fmt: skip
    assert (number(10.0, "times"), number(9.996, "times")) == ("10.0×", "10.00×")
    assert (number(1234.5, "money"), number(1234.5, "money", "es")) == ("1,234.50", "1.234,50")


def test_a_csv_has_a_column_for_every_key_any_row_gives(capsys):
    """write_csv's extra columns come from every row, not the first alone: from 0.1 at a global batch of 256 the
    linear rule warms up over 5 epochs (Goyal) where the batch grows past it — 16 × 32 = 512 on — and not at 1 or 4
    devices (32, 128), so a sweep from 1 device had no warmup_epochs column while its JSON said 5.0 at 16 to 1,024."""
    import csv
    import io

    argv = ["batch", "-b", "32", "-d", "1..1024x4", "--base-lr", "0.1", "--base-batch", "256"]
    rc, out, _ = run(capsys, *argv, "--json")
    records = json.loads(out)
    assert rc == 0 and [r.get("warmup_epochs") for r in records] == [None, None, 5.0, 5.0, 5.0, 5.0]
    rc, out, _ = run(capsys, *argv, "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rc == 0 and [r["devices"] for r in rows] == ["1", "4", "16", "64", "256", "1024"]
    assert [r.get("warmup_epochs") for r in rows] == ["", "", "5.0", "5.0", "5.0", "5.0"]
    for rec, row in zip(records, rows):  # every key the JSON gives is a column, with its value
        assert {k: row[k] for k in rec} == {k: "" if v is None else str(v).lower() for k, v in rec.items()}


def test_a_typed_unit_is_printed_as_typed_not_read_as_a_label(capsys):
    """A rate unit labels every rate as typed; only the program's own samples/s is said in the language. The unit
    was looked up as a label's key (review KL): `calc --unit devices --lang es` printed '2.000 dispositivos' and
    `--unit note` '2.000 nota', `--unit tokens_s` 'tokens s' (a missing key's '_' read as a space), and the same in
    sweeps' 'throughputs in' line, plan's title and fit's measured lines and the page's tables."""
    base = ("calc", "-d", "64", "-v", "2000", "-e", "0.9")
    cases = [("devices", "es", "2.000 devices"), ("note", "es", "2.000 note"), ("tokens_s", "en", "2,000 tokens_s"),
             ("ideal_throughput", "en", "2,000 ideal_throughput"), ("samples/s", "es", "2.000 muestras/s"),
             ("muestras/s", "en", "2,000 samples/s")]  # fmt: skip
    for unit, lang, rate in cases:
        code, out, _ = run(capsys, *base, "--unit", unit, "--lang", lang)
        assert code == 0 and out.splitlines()[1].endswith(f" {rate}"), (unit, out)
    code, out, _ = run(capsys, "calc", "-d", "1,8", "-v", "2000", "-e", "0.9", "--unit", "devices", "--lang", "es")
    assert code == 0 and "rendimientos en devices\n" in out
    plan = ("plan", "-n", "1.28e6", "-v", "2000", "-e", "0.9", "-d", "8", "--lang", "es", "--unit")
    code, out, _ = run(capsys, *plan, "note")
    assert code == 0 and "rendimientos en note\n" in out and "nota" not in out
    code, out, _ = run(capsys, "fit", "--point", "1:100", "--point", "2:190", "--point", "4:360", "--resamples",
                       "50", "--unit", "devices", "--lang", "es", "--target-throughput", "500")  # fmt: skip
    assert code == 0 and out.count("rendimientos en devices\n") == 2 and "dispositivos para 500 devices: 6" in out
    from dpscale.faces.i18n import unit_label

    assert [unit_label(u, "es") for u in ("samples/s", "tokens/s", "devices", "tokens_s")] == [
        "muestras/s",
        "tokens/s",
        "devices",
        "tokens_s",
    ]


def test_a_whole_count_past_twelve_digits_is_written_whole_in_json_and_csv(capsys, client):
    """output.clean: 12 significant digits hide float dust (0.30000000000000004), but a whole number has none: it
    cut `memory --params 1234567890123 --zero 0 --json`'s own --params to 1234567890120.0, and its 2 bytes a
    parameter (1234567890123 × 2 = 2469135780246) to 2469135780250.0, in the JSON, the CSV and the page's records,
    where the library says 2469135780246.0 (review LQ). Whole numbers below 1e15 (notes.ASTRONOMICAL) stay as they
    are; dust keeps its 12 digits, and so do figures past 1e15, where whole digits are invented."""
    import csv
    import io

    from dpscale import fit_all
    from dpscale.faces.output import clean

    assert clean(2469135780246.0) == 2469135780246.0 and clean(2469135780246.3) == 2469135780250.0
    assert clean(0.1 + 0.2) == 0.3 and clean(4503599627370497.0) == 4.50359962737e15
    argv = ["memory", "--params", "1234567890123", "--zero", "0"]
    rc, out, _ = run(capsys, *argv, "--json")
    got = json.loads(out)
    lib = fit_all(1234567890123.0, 1)[0]
    assert rc == 0 and got["params"] == 1234567890123 and got["parameter_bytes"] == 2469135780246
    assert got["model_state_bytes_per_device"] == lib.model_state_bytes_per_device == 16 * 1234567890123
    for lang in ("en", "es"):
        rc, out, _ = run(capsys, *argv, "--csv", "--lang", lang)
        row = next(csv.DictReader(io.StringIO(out)))
        assert rc == 0 and row["params"] == "1234567890123.0" and row["parameter_bytes"] == "2469135780246.0"
        body = {"options": {"params": "1234567890123", "zero": "0"}, "lang": lang}
        records = client.post("/api/memory", json=body).json()["records"]
        assert records["parameter_bytes"] == 2469135780246 and records["params"] == 1234567890123
