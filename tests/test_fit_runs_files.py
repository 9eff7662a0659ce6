"""fit's runs files: units in CSV and JSON lines, bad values shown as the file wrote them, a run's bounds."""

from __future__ import annotations

import json
from typing import Any

import pytest
from clihelp import read_runs, run

import dpscale
from dpscale.errors import DpscaleError
from dpscale.sources.runs_csv import read_csv_unit

# Session 43's own findings: each test failed before its fix.


@pytest.mark.parametrize(
    ("value", "shown"),
    [("null", "null"), ("true", "true"), ('{"a": [1, 2]}', '{"a": [1, 2]}'), ('"null"', "'null'"), ("0", "0")],
)
def test_a_json_runs_file_s_bad_value_is_shown_as_the_file_wrote_it(capsys, tmp_path, value, shown):
    """A runs file's JSON null was shown as Python's None ('got None'), true as True: the user wrote JSON, and a
    text "null" (quoted, as text is) could not be told from it. A Python caller still sees Python's spelling."""
    path = tmp_path / "r.jsonl"
    path.write_text(f'{{"devices": 1, "throughput": {value}}}\n{{"devices": 2, "throughput": 190}}\n')
    rc, out, err = run(capsys, "fit", str(path))
    assert rc == 2 and out == "" and f"r.jsonl line 1, throughput: got {shown}; allowed: a number" in err
    import dpscale
    from dpscale import DpscaleError

    with pytest.raises(DpscaleError, match=r"runs\[0\], throughput: got None; allowed"):
        dpscale.fit([{"devices": 1, "throughput": None}, {"devices": 2, "throughput": 190.0}])


# Cases a fourth mutation sweep (session 28: sources.fit*, laws, dataset, predict_validate, faces.output and the
# CLI's number and size parsing; 212 mutants, 26 non-equivalent survivors) found no test could fail on. Each expected
# value is derived in its comment.


@pytest.mark.parametrize("x", [1e-12, 5e15])
def test_a_run_throughput_outside_its_stated_bounds_is_refused(x):
    with pytest.raises(DpscaleError, match="throughput: got .*; allowed: a number from 1e-9 to 1e15"):
        dpscale.fit([(1, x), (2, 1.9 * x), (4, 3.6 * x)])


def test_a_csv_with_a_trailing_comma_on_each_line_is_read():
    runs, _ = read_csv_unit("devices,throughput\n1,100,\n2,190,\n4,360,\n", "t.csv")
    assert [(r.devices, r.throughput) for r in runs] == [(1, 100.0), (2, 190.0), (4, 360.0)]


# Review 43 (H): an adversarial read of 4c5add9..34e6623; each test failed before its fix.


def test_a_blank_unit_in_json_lines_states_none_as_a_blank_csv_cell_does(capsys, tmp_path):
    """bdd90ad checks the unit the runs state as a label; a JSON record's "unit": "" states none (a blank CSV cell
    is read so), but was refused — 'RUNS, unit: got '''' — where fit and plan --fit read the file the day before.
    Runs 1,000, 1,900, 3,600 at 1, 2, 4 devices: E = 1, 1,900 / 2,000 = 0.95, 3,600 / 4,000 = 0.9."""
    runs = [(1, 1000.0), (2, 1900.0), (4, 3600.0)]
    blank = tmp_path / "blank.jsonl"
    blank.write_text("".join(json.dumps({"devices": d, "throughput": x, "unit": " "}) + "\n" for d, x in runs))
    rc, out, err = run(capsys, "fit", str(blank), "--json")
    assert rc == 0 and err == "", err
    report = json.loads(out)
    assert report["unit"] == "samples/s"
    assert [m["efficiency"] for m in report["measured"]] == pytest.approx([1.0, 0.95, 0.9], abs=1e-12)
    rc, out, err = run(capsys, "plan", "--fit", str(blank), "-n", "1e9", "-d", "4")
    assert rc == 0 and "throughputs in samples/s" in out, err
    # beside a record that states one, the blank says nothing against it (as a record with no "unit" key)
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("".join(json.dumps({"devices": d, "throughput": x, "unit": "tokens/s" if d > 1 else ""}) + "\n"
                             for d, x in runs))  # fmt: skip
    rc, out, err = run(capsys, "fit", str(mixed), "--json")
    assert rc == 0 and json.loads(out)["unit"] == "tokens/s", err


# Review 44 (A): small user-facing defects found by hand, each pinned by what the user sees.


def test_json_lines_read_a_unit_in_another_case_as_one_unit_as_a_csv_does(capsys, tmp_path):
    """Runs whose unit differs only in case or spaces ('samples/s', 'Samples/s', ' samples/s') were one unit in a
    CSV but refused as mixed units in JSON lines. Both now fit them, to the same answer; tokens/s beside samples/s
    is still refused."""
    runs = [(1, 1000, "samples/s"), (2, 1900, "Samples/s"), (4, 3500, " samples/s")]
    lines = tmp_path / "runs.jsonl"
    lines.write_text("".join(json.dumps({"devices": d, "throughput": x, "unit": u}) + "\n" for d, x, u in runs))
    table = tmp_path / "runs.csv"
    table.write_text("devices,throughput,unit\n" + "".join(f"{d},{x},{u}\n" for d, x, u in runs))
    rc, from_lines, err = run(capsys, "fit", str(lines), "--json")
    assert rc == 0, err
    rc, from_table, err = run(capsys, "fit", str(table), "--json")
    assert rc == 0, err
    assert json.loads(from_lines)["unit"] == json.loads(from_table)["unit"] == "samples/s"
    assert json.loads(from_lines)["predictions"] == json.loads(from_table)["predictions"]
    lines.write_text('{"devices": 1, "throughput": 10, "unit": "samples/s"}\n'
                     '{"devices": 2, "throughput": 19, "unit": "tokens/s"}\n')  # fmt: skip
    rc, out, err = run(capsys, "fit", str(lines))
    assert rc == 2 and "line 2: unit 'tokens/s' against 'samples/s' on line 1; allowed: one throughput unit" in err


# Review G (session 44): the day's commits tried at their edges — solve's E(d) function at one device, a second
# terminating signal while write_whole cleans up, and units compared in one way by every reader.


def test_a_csvs_unit_column_folds_case_as_json_lines_do(tmp_path, capsys):
    """c01334c: 'runs in JSON lines compare their unit as a CSV does' — with str.casefold, as a typed --unit is
    matched (same_unit), where the CSV's set-up columns compared with str.lower: 'maß/s' beside 'MASS/s' was one
    unit in JSON lines and two set-ups in a CSV."""
    csv = tmp_path / "runs.csv"
    csv.write_text("devices,throughput,unit\n1,1000,maß/s\n2,1900,MASS/s\n4,3600,mass/s\n", encoding="utf-8")
    lines = tmp_path / "runs.jsonl"
    units = ["maß/s", "MASS/s", "mass/s"]
    lines.write_text(
        "".join(json.dumps({"devices": d, "throughput": v, "unit": u}) + "\n" for (d, v), u in
                zip([(1, 1000), (2, 1900), (4, 3600)], units)), encoding="utf-8")  # fmt: skip
    for f in (csv, lines):
        code, out, err = run(capsys, "fit", str(f), "--json")
        assert code == 0, err
        assert json.loads(out)["unit"] == "maß/s"


# Session 46's own changes.


def test_a_fit_keeps_the_unit_its_runs_state(tmp_path):
    # dpscale.fit of tokens/s runs kept no unit: a notebook handed f.per_device_throughput (1,000 tokens/s) to
    # plan() as samples/s with nothing to say otherwise; the CLI read the unit, the library dropped it
    import dpscale

    csv = tmp_path / "runs.csv"
    csv.write_text("devices,throughput,unit\n1,1000,tokens/s\n8,7600,tokens/s\n16,14600,tokens/s\n32,27000,tokens/s\n")
    f = dpscale.fit(csv)
    assert f.unit == "tokens/s" and f.per_device_throughput == 1000.0
    assert "throughput in tokens/s, as the runs state it" in f.summary()
    records = [{"devices": d, "throughput": x, "unit": "tokens/s"} for d, x in ((1, 1000), (8, 7600), (16, 14000))]
    assert dpscale.fit(records).unit == "tokens/s"
    unsaid = dpscale.fit([(1, 1000), (8, 7600), (16, 14000), (32, 26000)])
    assert unsaid.unit is None and "throughput in" not in unsaid.summary()


# Review FT: a mutation pass over fit_io, fit and plan's and memory's CLI; each test below failed on a change to
# the line it names that every other test let through.


def test_a_step_time_cell_of_spaces_is_blank_and_a_size_timed_in_part_has_no_step_time():
    """make_run: a cell of spaces states no step time, as an empty one does (not a number ' ' to refuse);
    combine: a size has a step time only when every run of it has one — 1,000 and 1,010/s averaged, 0.1 s the
    step of one of them — so these runs carry none, and the law's seconds are not drawn from a part of them."""
    from dpscale.sources.fit_runs import combine

    runs, _ = read_csv_unit("devices,throughput,step_time\n1,1000,0.1\n1,1010, \n2,1900,0.11\n", "t.csv")
    assert [r.step_time for r in runs] == [0.1, None, 0.11]
    assert combine(runs).step_time is None
    assert combine([runs[0], runs[2]]).step_time == (0.1, 0.11)


def test_a_step_of_exactly_100_s_is_not_questioned():
    """docs/fit.md: 'a baseline step_time over 100 s' is questioned (LONG_STEP_S); 100 s itself is not over it."""
    from dpscale.sources.fit_runs import Run, combine

    def said(step: float) -> list[str]:
        return [n.key for n in combine([Run(1, 100.0, step), Run(2, 190.0, step)]).notes]  # type: ignore[attr-defined]

    assert said(100.0) == [] and said(100.5) == ["step_time_long"]


def test_a_unit_slip_names_small_rates_to_their_digits():
    """1 device at 2.5/s, 2 at 50/s: E = 50 / (2 × 2.5) = 10, a unit slip. A rate under 100 is said to 4 figures
    ('2.5'), as its message's `rate` writes it: to whole numbers it would read 'against 2 at 1'."""
    with pytest.raises(DpscaleError, match=r"throughput 50 at 2 devices against 2\.5 at 1 is E = 10"):
        dpscale.fit([(1, 2.5), (2, 50.0)])


def _long_csv(rows: int, **lines: str) -> str:
    """devices,throughput over 1, 2, 4 and 8 devices; line_N= replaces line N (the header is line 1)."""
    text = [f"{1 << (i % 4)},{1000 * (1 << (i % 4)) * 0.9 + i % 7}" for i in range(rows)]
    for key, line in lines.items():
        text[int(key.removeprefix("line_")) - 2] = line
    return "\n".join(["devices,throughput", *text, ""])


def test_a_long_csv_builds_no_error_words_for_the_cells_it_reads(monkeypatch):
    """Every cell of a runs CSV built its refusal's words before it was read (the cell cut to 40 characters, the
    range said): 2,000 cuts for 1,000 rows, a third of reading 2.5 million (benchmarks/bench_fit.py); a good cell
    builds none now, and a bad one is still named by its line and column."""
    from dpscale.sources import fit_runs, runs_csv

    cuts = [0]
    plain = fit_runs.cut

    def counted(text: str, most: int = 40) -> str:
        cuts[0] += 1
        return plain(text, most)

    monkeypatch.setattr(fit_runs, "cut", counted)
    runs, _ = runs_csv.read_csv_unit(_long_csv(1000), "runs.csv")
    assert len(runs) == 1000 and runs[5] == fit_runs.Run(2, 1805.0, None, "runs.csv line 7") and cuts[0] == 0
    bad = _long_csv(1000, line_700="8,72O3.0")  # a letter O for a zero
    with pytest.raises(DpscaleError, match=r"^runs\.csv line 700, throughput: got '72O3\.0'; allowed: a number"):
        runs_csv.read_csv_unit(bad, "runs.csv")
    spanish = _long_csv(10, line_3="2,1.801")  # a thousand and more in Spanish
    with pytest.raises(DpscaleError, match=r"^runs\.csv line 3, throughput: got '1\.801'"):
        runs_csv.read_csv_unit(spanish, "runs.csv", dot_groups=True)
    assert runs_csv.read_csv_unit(spanish, "runs.csv")[0][1].throughput == 1.801


def test_a_csvs_rows_are_kept_as_tuples_the_garbage_collector_stops_walking():
    """csv's rows are lists, which the cyclic garbage collector walks on every full pass while they are kept: three
    quarters of reading 2.5 million rows (4.3 s of CPU against 1.5 as tuples, which it stops tracking once they hold
    strings only)."""
    import gc

    from dpscale.sources import runs_csv

    rows, starts = runs_csv.csv_rows(_long_csv(100), "runs.csv")
    gc.collect()
    assert len(rows) == 101 and starts[-1] == 101 and rows[1] == ("1", "900.0")
    assert not any(gc.is_tracked(row) for row in rows)


def test_a_csv_without_quotes_is_read_once(monkeypatch):
    """A quote left open at the end of a file is found by a second, strict pass of csv over it; a file with no quote
    has none to leave open and was read twice all the same. One with a quote still is, and names the line."""
    import csv

    from dpscale.sources import runs_csv

    passes = [0]
    reader = csv.reader

    def counted(*args: Any, **kw: Any) -> Any:
        passes[0] += 1
        return reader(*args, **kw)

    monkeypatch.setattr(runs_csv.csv, "reader", counted)
    runs_csv.read_csv_unit(_long_csv(100), "runs.csv")
    assert passes[0] == 1
    with pytest.raises(DpscaleError, match=r"^runs\.csv line 4: a quote opened on this line does not close"):
        runs_csv.read_csv_unit(_long_csv(100, line_4='4,"3602.0'), "runs.csv")
    assert passes[0] == 3


def test_a_files_runs_handed_to_fit_are_not_checked_again_one_by_one(monkeypatch):
    """`dpscale fit FILE` reads the file's runs, then hands them to fit(), which asked each whether it was a numpy
    row (hasattr 'tolist') before taking it as a run: 2.5 million questions for 2.5 million rows."""
    import builtins

    from dpscale.sources import fit_io, runs_csv

    runs, _ = runs_csv.read_csv_unit(_long_csv(1000), "runs.csv")
    asked = [0]
    plain = builtins.hasattr

    def counted(obj: Any, name: str) -> bool:
        asked[0] += name == "tolist"
        return plain(obj, name)

    monkeypatch.setattr(builtins, "hasattr", counted)
    combined = fit_io.runs_from(runs)
    monkeypatch.undo()
    assert (
        asked[0] == 0 and combined.devices == (1, 2, 4, 8) and combined.throughput[0] == pytest.approx(903.0, abs=0.02)
    )


# Review HF: a mutation pass over 1ae9da8's fast path of `_value`, which returns a CSV cell at once when it reads as a
# number in range. The bounds test above hands fit() Python floats, which never take that path: a fast path that let
# '2.5' devices through (read as 2 devices) or a 5e15 throughput passed every test. Each row failed on such a mutant.


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ("2.5,100,", "devices: got '2.5'; allowed: a whole number from 1 to 10,000,000"),
        ("10000001,100,", "devices: got '10000001'; allowed: a whole number from 1 to 10,000,000"),
        ("1,5e15,", "throughput: got '5e15'; allowed: a number from 1e-9 to 1e15"),
        ("1,1e-12,", "throughput: got '1e-12'; allowed: a number from 1e-9 to 1e15"),
        ("1,100,2e15", "step_time: got '2e15'; allowed: a number from 1e-9 to 1e15"),
    ],
)
def test_a_csv_cell_outside_its_bounds_is_refused_as_a_library_value_is(row, said):
    with pytest.raises(DpscaleError) as exc:
        read_csv_unit(f"devices,throughput,step_time\n{row}\n2,190,\n", "t.csv")
    assert str(exc.value) == f"t.csv line 2, {said}"
    # and a cell at each bound is read as written: 10,000,000 devices, 1e-9 and 1e15
    runs, _ = read_csv_unit("devices,throughput,step_time\n10000000,1e-9,1e15\n1,1e15,1e-9\n", "t.csv")
    assert [(r.devices, r.throughput, r.step_time) for r in runs] == [(10_000_000, 1e-9, 1e15), (1, 1e15, 1e-9)]


def test_a_signed_spanish_thousands_cell_is_refused_on_the_fast_path_too():
    """DOT_GROUPS takes a '+' ('+1.900' is +1,900 in Spanish): a fast path that matched the groups without it read
    the cell as 1.9 under --lang es."""
    with pytest.raises(DpscaleError, match=r"^runs\.csv line 3, throughput: got '\+1\.900'; allowed: no point before"):
        read_csv_unit("devices,throughput\n1,1000\n2,+1.900\n", "runs.csv", dot_groups=True)


def test_a_csv_line_of_spaces_is_blank_and_a_trailing_cell_of_spaces_is_a_trailing_comma():
    """A line of spaces (before the header, or ' ,  ' between rows) is blank, as an empty one is, and '1,100, ' ends
    in a blank extra cell, as '1,100,' does: 1ae9da8 joins a row's cells before it strips them, and a join without
    the strip refused both (header '', or 'got 3 fields')."""
    runs, _ = read_csv_unit("   \ndevices,throughput\n1,100, \n  ,  \n2,190,\t\n", "t.csv")
    assert [(r.devices, r.throughput, r.where) for r in runs] == [
        (1, 100.0, "t.csv line 3"),
        (2, 190.0, "t.csv line 5"),
    ]


def test_runs_handed_in_beside_only_are_refused_as_pairs_are():
    """1ae9da8 takes a list's Run objects as they are (a file's runs the CLI read), but not beside only=: a Run, like
    a pair, says no set-up to pick by, and a shortcut taken there too fitted them whatever was picked."""
    from dpscale.sources.fit_io import runs_from
    from dpscale.sources.fit_runs import Run

    with pytest.raises(
        DpscaleError, match=r"^only: got \{'workload': 'cnn'\}; allowed: runs from a file .*; runs\[0\] is Run\("
    ):
        runs_from([Run(1, 100.0), Run(2, 190.0)], only={"workload": "cnn"})


# Review HI: a runs file's cell, a JSON record's text value and a --point are read in ASCII digits, as the published
# tables are (sources.dataset) — float() read '1_000' as 1000, '_1000' once the '_' were dropped, and any script's
# digits ('１９００', '١٩٠٠', the mixed '1٩00' as 1900): a fit went on with numbers no spreadsheet writes.
PYTHON_ONLY = ["1_900", "_1900", "1900_", "1__900", "１９００", "١٩٠٠", "1٩00", "𝟏𝟗𝟎𝟎"]
PLAIN = "allowed: a number in the digits 0-9, without '_' (1000, not 1_000)"


@pytest.mark.parametrize("cell", PYTHON_ONLY)
def test_a_csv_cell_in_python_s_spelling_is_refused_with_its_line_and_column(cell):
    with pytest.raises(DpscaleError) as exc:
        read_csv_unit(f"devices,throughput\n1,1000\n2,{cell}\n4,3600\n", "runs.csv")
    assert str(exc.value) == f"runs.csv line 3, throughput: got '{cell}'; {PLAIN}"


@pytest.mark.parametrize("cell", ["1_6", "_16", "１６", "١٦", "1٦"])
def test_a_device_count_in_python_s_spelling_is_refused_with_its_line_and_column(cell):
    with pytest.raises(DpscaleError) as exc:
        read_csv_unit(f"devices,throughput\n1,1000\n{cell},1900\n", "runs.csv")
    assert str(exc.value) == f"runs.csv line 3, devices: got '{cell}'; {PLAIN}"


def test_a_python_spelled_run_is_refused_in_a_json_record_a_point_and_in_spanish(capsys, tmp_path):
    path = tmp_path / "runs.jsonl"
    path.write_text('{"devices": 1, "throughput": 1000}\n{"devices": 2, "throughput": "1_900"}\n')
    rc, out, err = run(capsys, "fit", str(path))
    assert (rc, out) == (2, "") and err == f"dpscale fit: error: {path.name} line 2, throughput: got '1_900'; {PLAIN}\n"
    from dpscale.sources.fit_runs import parse_point

    with pytest.raises(DpscaleError) as exc:  # (the CLI's and the page's flags meet check_number_style first)
        parse_point("٢:1900")
    assert str(exc.value) == f"--point ٢:1900, devices: got '٢'; {PLAIN}"
    csv = tmp_path / "runs.csv"
    csv.write_text("devices,throughput\n1,1000\n2,1_900\n")
    rc, out, err = run(capsys, "fit", str(csv), "--lang", "es")
    assert (rc, out) == (2, "") and err == (
        f"dpscale fit: error: {csv.name} línea 3, campo 'throughput': se recibió '1_900'; se admite: un número con las "
        "cifras 0-9, sin '_' (1000, no 1_000)\n"
    )


def test_a_csv_cell_with_spaces_around_it_is_still_read():
    """The rule refuses digits, not the spaces float() drops: a no-break space after a number a spreadsheet padded."""
    runs, _ = read_csv_unit("devices,throughput\n1,1000\u00a0\n2, 1900\n", "runs.csv")
    assert [(r.devices, r.throughput) for r in runs] == [(1, 1000.0), (2, 1900.0)]


def test_the_fast_reading_of_a_cell_agrees_with_the_checked_one_on_every_kind_of_cell():
    """_value answers an in-range ASCII cell itself and hands every other to _checked_value, which says the refusals:
    the two must read a cell alike, or a file's number would depend on which path met it (its fast path gained an
    ASCII and '_' test of its own when python_spelled came, review HI). 3,000 cells drawn (seeded) from digits, signs,
    exponents, '_', commas, spaces, a no-break space, other scripts' digits and inf/nan, each as a count and as a rate,
    with and without Spanish dot groups, are read alike (review HJ: 200,000 so, no difference)."""
    import random

    from dpscale.sources.fit_runs import _checked_value, _value

    pieces = [*"0123456789" * 3, *".eE+-_ ,", "\u00a0", "\u2009", "٣", "１", "𝟗", "inf", "nan", "x", "\t"]
    draw = random.Random(1)
    cells = ["".join(draw.choice(pieces) for _ in range(draw.randint(0, 8))) for _ in range(3000)]
    cells += ["1_000", "１０", "2.000", "1e3", " 8 ", "8\u00a0", "+5", ".5", "1e400", "1,5", "4"]

    def read(f: Any, *args: Any) -> tuple[str, Any]:
        try:
            return "read", f(*args)
        except DpscaleError as exc:
            return "refused", str(exc)

    taken = set()
    for cell in cells:
        for whole in (False, True):
            for dots in (False, True):
                fast = read(_value, cell, "throughput", "runs.csv line 3", whole, dots)
                assert fast == read(_checked_value, cell, "throughput", "runs.csv line 3", whole, dots, False), cell
                taken.add((fast[0], whole, dots))
    assert len(taken) == 8  # each reading both reads some cells and refuses others
    assert read(_value, "1_000", "t", "w")[0] == read(_value, "2.000", "t", "w", False, True)[0] == "refused"


# Review JV: fit told JSON from CSV by the first line's first character, validate by files.opens_json.

RUNS = [(1, 1000.0), (2, 1900.0), (4, 3600.0)]  # E = 1, 1,900 / 2,000 = 0.95, 3,600 / 4,000 = 0.9
RECORDS = "".join(json.dumps({"devices": d, "throughput": x}) + "\n" for d, x in RUNS)


@pytest.mark.parametrize("first", ["[run]", "{id}", "[1]", "[]", "{}"])
def test_a_runs_csv_whose_first_column_opens_with_a_bracket_is_read_not_called_json(capsys, tmp_path, first):
    """'[run],devices,throughput' (a run's label, a reference's number) was refused 'r.csv: a JSON array; allowed:
    JSON lines …, or a CSV' and '{id},…' 'r.csv line 1: not valid JSON (Expecting property name …)', while validate
    read such a table and said of it '`dpscale fit FILE` fits them', and plan --efficiency-file 'give it as --fit
    FILE'. JSON is what files.opens_json finds: a JSON value that ends its line."""
    path = tmp_path / "r.csv"
    path.write_text(f"{first},devices,throughput\n" + "".join(f"r{d},{d},{x:g}\n" for d, x in RUNS))
    assert [(r.devices, r.throughput) for r in read_runs(path)] == RUNS
    rc, out, err = run(capsys, "fit", str(path), "--law", "amdahl", "--json")
    assert rc == 0 and err == "" and [m["efficiency"] for m in json.loads(out)["measured"]] == [1.0, 0.95, 0.9]
    assert run(capsys, "fit", str(path), "--only", "workload=cnn")[2].endswith(
        "error: --only: r.csv is a CSV; allowed: with JSON lines of `dpscale measure` records\n"
    )


@pytest.mark.parametrize(
    "header", ["[run],Devices,Throughput", "[run], devices , throughput", "{id},dispositivos,rendimiento"]
)
def test_a_bracket_first_header_is_read_by_the_csv_reader_s_own_names(tmp_path, header):
    """Review KI (mutation pass): runs_header reads a header as read_csv_unit does (header_names: case, spaces,
    Spanish names), so '[run],Devices,Throughput' is a CSV; by its raw names it was 'r.csv: a JSON array'."""
    path = tmp_path / "r.csv"
    path.write_text(f"{header}\n" + "".join(f"r{d},{d},{x:g}\n" for d, x in RUNS))
    assert [(r.devices, r.throughput) for r in read_runs(path)] == RUNS


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"devices": 1, "throughput": 9\n', "line 1: not valid JSON (Expecting ',' delimiter)"),  # cut short
        ("{'devices': 1, 'throughput': 900}\n", "line 1: not valid JSON (Expecting property name enclosed in"),
        ('[{"devices": 1, "throughput": 900}],\n', "r.csv: a JSON array; allowed: JSON lines"),
        ("# measured on 2 nodes\n" + RECORDS[:-2], "line 4: not valid JSON (Expecting ',' delimiter)"),
    ],
)
def test_json_broken_on_its_first_line_is_said_where_it_breaks(capsys, tmp_path, text, said):
    """A first line opening with '{' or '[' that is no JSON ending its line, and that names no devices and
    throughput read as a CSV header, is JSON broken there: said so, not 'missing columns devices, throughput (found
    {"devices": 1, …)'. Below a '#' comment, on its own line (the comment is read: the next test)."""
    (tmp_path / "r.csv").write_text(text)
    rc, out, err = run(capsys, "fit", str(tmp_path / "r.csv"))
    assert rc == 2 and out == "" and said in err and "missing" not in err


@pytest.mark.parametrize(
    "text",
    ["# measured on 2 nodes\n" + RECORDS, "#a\n\n  # b\r\n" + RECORDS.replace("\n", "\n# between\n", 1)],
    ids=["above", "above and between"],
)
def test_a_comment_line_in_json_lines_is_read_as_in_a_csv(capsys, tmp_path, text):
    """Review KJ: a '#' line above `measure --out`'s records said 'r.jsonl line 1: not valid JSON (Expecting value)',
    though fit found the records below it to tell them from a CSV, and skips such a line in a CSV of runs. No JSON has
    a line opening with '#': it is a comment in JSON lines too, and the runs are the ones without it."""
    path = tmp_path / "r.jsonl"
    path.write_text(text)
    assert [(r.devices, r.throughput) for r in read_runs(path)] == RUNS
    (tmp_path / "plain.jsonl").write_text(RECORDS)
    argv = ["fit", "--resamples", "50", "--json"]
    assert run(capsys, *argv, str(path))[:2] == run(capsys, *argv, str(tmp_path / "plain.jsonl"))[:2]


@pytest.mark.parametrize(("mark", "end"), [("\ufeff", "\r"), ("\ufeff\ufeff", "\n"), ("", "\r")])
def test_json_lines_with_old_mac_line_ends_or_two_byte_order_marks_are_read(tmp_path, mark, end):
    """text_lines breaks at '\\r' alone, and header_names drops a second byte-order mark (a file saved twice with
    one); fit's sniff took neither: two marks above `measure --out`'s records said 'r.jsonl line 1: missing columns
    devices, throughput (found {"devices": 1, "throughput": 1000.0})'. Read now, and validate points them to fit."""
    path = tmp_path / "r.jsonl"
    path.write_text(mark + RECORDS.replace("\n", end), encoding="utf-8", newline="")
    assert [(r.devices, r.throughput) for r in read_runs(path)] == RUNS


DOCUMENT = json.dumps({"workload": "mlp", "points": [{"devices": d, "throughput": x} for d, x in RUNS]}, indent=2)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (DOCUMENT, None),  # 17 lines, read whole
        (DOCUMENT[: DOCUMENT.index('"devices": 4')], "line 12: not valid JSON (Expecting property name enclosed in"),
        (DOCUMENT.replace("1900.0", "1900.0,"), "line 11: not valid JSON (Expecting property name enclosed in"),
    ],
)
def test_an_indented_document_broken_is_said_where_it_breaks_not_on_its_opening_brace(capsys, tmp_path, text, said):
    """`measure --json` indented (jq's way) and cut short after its second point (line 12, '    {', the last not
    blank), or with a comma after 1900.0 (line 10: the parser stops at line 11's '}'), was refused 'r.json line 1: not
    valid JSON (Expecting property name enclosed in double quotes)' — line 1 is its '{' alone — where plan
    --efficiency-file names the line it breaks on. JSON lines broken on their first line still say line 1 (above)."""
    path = tmp_path / "r.json"
    path.write_text(text)
    if said is None:
        assert [(r.devices, r.throughput) for r in read_runs(path)] == RUNS
        return
    rc, out, err = run(capsys, "fit", str(path))
    assert rc == 2 and out == "" and f"r.json {said}" in err, err


# Review KB: hostile read of JV's sniff and of its line where an indented document breaks.


@pytest.mark.parametrize(
    ("text", "said"),
    [  # the first record's closing brace missing, records after it: json's own position is line 2's '{'
        (RECORDS.replace("}", "", 1), "r.json line 1: not valid JSON (Expecting ',' delimiter)"),
        ("\n" + RECORDS.replace("}", "", 1), "r.json line 2: not valid JSON (Expecting ',' delimiter)"),
        # an indented document with old Mac line ends ('\r' alone, as text_lines breaks), cut after its second point
        (DOCUMENT[: DOCUMENT.index('"devices": 4')].replace("\n", "\r"), "r.json line 12: not valid JSON (Expecting"),
        # review KI: one object over three lines, its second line JSON alone but no object (2000), broken on line 3
        # (no ',' before "unit"): no record reads alone after line 1, so the break is named, not line 1's
        ('{"devices": 8, "throughput":\n2000\n"unit": "samples/s"}\n', "r.json line 3: not valid JSON (Expecting ',' "),
    ],
)
def test_json_lines_broken_on_their_first_record_name_it_and_a_mac_document_its_break(capsys, tmp_path, text, said):
    """JSON lines whose first record lacks its '}' said 'r.json line 2: … (Expecting ',' delimiter)' — line 2 is a
    whole record — since the text read as one document breaks there (efde1dd); the line after the broken one is a
    record alone, so the text is JSON lines and its broken line is named. An indented document whose lines end at
    '\\r' alone, cut short on line 12, still said 'line 1': its break was counted at '\\n' only."""
    (tmp_path / "r.json").write_text(text, newline="")
    rc, out, err = run(capsys, "fit", str(tmp_path / "r.json"))
    assert rc == 2 and out == "" and said in err, err
    rc, out, err = run(capsys, "fit", str(tmp_path / "r.json"), "--lang", "es")
    assert (
        rc == 2 and said.replace("line", "línea").split(" (")[0].replace("not valid JSON", "no es JSON válido") in err
    )


@pytest.mark.parametrize(("sep", "hint"), [("\t", "separates its columns with tabs"), (";", "with ';'")])
@pytest.mark.parametrize("first", ["[run]", "{id}"])
def test_a_runs_file_of_tabs_or_semicolons_whose_first_column_opens_with_a_bracket_gets_the_csv_hint(
    capsys, tmp_path, first, sep, hint
):
    """'[run]<tab>devices<tab>throughput' saved from a spreadsheet was 'r.csv: a JSON array; allowed: JSON lines …'
    (and '{id};devices;throughput' 'line 1: not valid JSON (Expecting property name …)'), while 'run<tab>devices…'
    says which separator to save with, and the page reads the same rows pasted (review JV). Its header is a runs
    header once its tabs or ';' are read as commas: runs_csv.runs_header, the one rule the page and fit share."""
    rows = [f"{first},devices,throughput"] + [f"r{d},{d},{x:g}" for d, x in RUNS]
    (tmp_path / "r.csv").write_text("\n".join(r.replace(",", sep) for r in rows) + "\n")
    rc, out, err = run(capsys, "fit", str(tmp_path / "r.csv"))
    assert rc == 2 and out == "" and "r.csv line 1: missing columns devices, throughput (found " in err, err
    assert hint in err and "JSON" not in err


@pytest.mark.parametrize(
    "text",
    [
        "# measure --out, 2026-01-05\n\ufeff" + RECORDS,  # a comment put above a file saved with a mark
        "# one\n\ufeff# two\n" + RECORDS,  # the mark before a second comment
        RECORDS + "\ufeff" + RECORDS,  # two files saved with one, joined
    ],
)
def test_a_byte_order_mark_opening_a_json_line_is_dropped_as_a_csv_s(capsys, tmp_path, text):
    """Review KX: `dpscale fit r.jsonl` of a '#' line above a file saved with a byte-order mark said 'r.jsonl line 2:
    not valid JSON (Unexpected UTF-8 BOM (decode using utf-8-sig)); allowed: one JSON object per line', and validate
    the same with its own 'allowed' — though opens_json read past the mark to call the file JSON, and the CSV reader
    drops it from a header after a comment (and from a header repeated where two files were joined). The mark opens no
    record: the runs are the ones without it, and validate points the file to fit."""
    path = tmp_path / "r.jsonl"
    path.write_text(text, encoding="utf-8")
    assert [(r.devices, r.throughput) for r in read_runs(path)] == RUNS * text.count(RECORDS)
    rc, out, err = run(capsys, "validate", str(path))
    said = "r.jsonl: JSON; allowed: a published-measurements CSV — runs from `dpscale measure --out` or `--json` go to"
    assert rc == 2 and err.strip().endswith(f"{said} `dpscale fit FILE`"), err
    csv_path = tmp_path / "r.csv"
    csv_path.write_text("# c\n\ufeffdevices,throughput\n" + "".join(f"{d},{x}\n" for d, x in RUNS), encoding="utf-8")
    assert [(r.devices, r.throughput) for r in read_runs(csv_path)] == RUNS  # (the CSV twin, read before too)


TABLE = "devices,throughput\n" + "".join(f"{d},{x:g}\n" for d, x in RUNS)


@pytest.mark.parametrize(
    "text",
    [
        "# one\n\ufeff# two\n" + TABLE,  # the mark before a second comment (KX's JSON case, as a table)
        TABLE.replace("\n2,", "\n\ufeff# from the second node\n2,", 1),  # a marked comment between the runs
        "# one\n  \ufeff# two\n" + TABLE,  # spaces before the mark
    ],
)
def test_a_byte_order_mark_opening_a_comment_line_leaves_it_a_comment_in_a_table(capsys, tmp_path, text):
    """Review LD: review KX dropped a byte-order mark opening a JSON line, '# one' above a file saved with a mark and
    beginning '# two' read as JSON lines, 'as the CSV reader drops it'; the CSV reader did not. `dpscale fit r.csv` of
    the table said 'r.csv line 2: missing columns devices, throughput (found # two)', a marked comment between the runs
    'r.csv line 3: got 1 fields; allowed: 2 as in the header', and the page the run "--point \ufeff#:two, devices: got
    '\ufeff#'". files.comment_line, the one rule of a '#' line, reads past the mark (which cannot be seen and carries no
    meaning, as header_names reads a header past it): the runs of the table without it, in the file and pasted."""
    path = tmp_path / "r.csv"
    path.write_text(text, encoding="utf-8")
    assert [(r.devices, r.throughput) for r in read_runs(path)] == RUNS
    rc, out, err = run(capsys, "fit", str(path), "--law", "amdahl", "--json")
    assert rc == 0 and err == "" and [m["efficiency"] for m in json.loads(out)["measured"]] == [1.0, 0.95, 0.9], err
    from dpscale.faces.web.app import run_command

    pasted = run_command("fit", {"point": text, "law": "amdahl"})["records"]
    assert pasted == json.loads(out)["predictions"]
    twin = text.replace("devices,throughput\n", "")  # (the JSON lines twin: read since KX, spaces before the mark now)
    for (d, x), record in zip(RUNS, RECORDS.splitlines(keepends=True), strict=True):
        twin = twin.replace(f"{d},{x:g}\n", record)
    jsonl = tmp_path / "r.jsonl"
    jsonl.write_text(twin, encoding="utf-8")
    assert [(r.devices, r.throughput) for r in read_runs(jsonl)] == RUNS


LACKS_ES = {"column throughput": "falta la columna throughput", "columns devices, throughput": "faltan las columnas "
            "devices, throughput"}  # fmt: skip


@pytest.mark.parametrize(
    ("header", "fit_lacks", "validate_lacks"),
    [
        ("[run],devices,speed", "column throughput", "cfg, baseline_devices, grad_accum,"),
        ("{cfg},model,devices", "column throughput", "cfg, baseline_devices, grad_accum,"),
        ("[x],grad_accum", "columns devices, throughput", "cfg, baseline_devices, units_per_sample,"),
        ("[run]\tdevices\tspeed", "column throughput", "cfg, baseline_devices, grad_accum,"),
    ],
)
def test_a_bracket_first_header_naming_a_column_is_a_table_to_fit_validate_and_the_page_alike(
    capsys, tmp_path, header, fit_lacks, validate_lacks
):
    """Review LD: `dpscale fit t.csv` of a table headed '[run],devices,speed' said 't.csv: a JSON array; allowed: JSON
    lines …, or a CSV' ('{cfg},model,devices': 'line 1: not valid JSON (Expecting property name …)'), while validate
    read the same file as a table lacking columns (review KX's copy of the rule, dataset._names_a_column), and the page
    took the pasted header for the run "[run]:devices:speed, devices: got '[run]'". One rule now, fit_io.reads_as_json
    by runs_csv.names_a_column: a first line opening with '{' or '[' that names a column of runs or of a published
    table is a header, refused for the columns it lacks by each reader, in both languages."""
    path = tmp_path / "t.csv"
    path.write_text(f"{header}\nr1,1,1000\nr2,2,1900\n", encoding="utf-8")
    shown = header.replace(",", ", ")
    fit_said = {"en": f"t.csv line 1: missing {fit_lacks} (found {shown})",
                "es": f"t.csv línea 1: {LACKS_ES[fit_lacks]} (hay: {shown})"}  # fmt: skip
    validate_said = {"en": f"t.csv line 1: missing columns {validate_lacks}",
                     "es": f"t.csv línea 1: faltan las columnas {validate_lacks}"}  # fmt: skip
    for lang in ("en", "es"):
        rc, out, err = run(capsys, "fit", str(path), "--lang", lang)
        assert (rc, out, err.count("\n")) == (2, "", 1) and "JSON" not in err, err
        assert "\t" in header or fit_said[lang] in err, err  # (a tab's header is one name: 'save it with commas')
        rc, out, err = run(capsys, "validate", str(path), "--lang", lang)
        assert (rc, out, err.count("\n")) == (2, "", 1) and "JSON" not in err and validate_said[lang] in err, err
    from dpscale.faces.web.app import run_command

    with pytest.raises(DpscaleError) as e:  # (the page reads a pasted tab as a comma)
        run_command("fit", {"point": f"{header}\nr1,1,1000\nr2,2,1900"})
    assert str(e.value) == (f"--point line 1: missing {fit_lacks} (found {shown.replace(chr(9), ', ')}); allowed: a "
                            "header with devices,throughput (optional step_time)")  # fmt: skip


def test_a_comment_naming_a_column_above_json_broken_on_its_first_record_is_no_header(capsys, tmp_path):
    """Review LD: '# model,devices' above `measure --out` records, the first cut short, was read by validate as the
    header of a table ('r.jsonl line 1: missing columns cfg, … (found # model, devices)'): review KX's copy of the rule
    read the first line not blank, comments included, where fit, every reader of runs, skips a '#' line. Both say
    where the JSON breaks."""
    path = tmp_path / "r.jsonl"
    path.write_text('# model,devices\n{"devices": 1, "throughput": 1000\n' + RECORDS, encoding="utf-8")
    for command, allowed in (("fit", "one JSON object per line"), ("validate", "a published-measurements CSV")):
        rc, out, err = run(capsys, command, str(path))
        assert (rc, out) == (
            2,
            "",
        ) and f"r.jsonl line 2: not valid JSON (Expecting ',' delimiter); allowed: {allowed}" in err, err


@pytest.mark.parametrize(
    ("first", "fit_says", "validate_says"),
    [
        # cut after a key, written without spaces (jq -c, pandas' to_json): the cell 'throughput' named a column
        ('{"devices":1,"throughput"', "line 1: not valid JSON (Expecting ':' delimiter)", "Expecting ':' delimiter"),
        # a string holding commas (a record's tags), cut short after it: the cell 'model' named a column
        (
            '{"devices": 8, "throughput": 7000, "tags": "bf16,model,8 GPUs"',
            "line 1: not valid JSON (Expecting ',' delimiter)",
            "Expecting ',' delimiter",
        ),
        # the same string left open: the cell 'devices' named a column
        (
            '{"devices": 8, "tags": "bf16,devices',
            "line 1: not valid JSON (Unterminated string starting at)",
            "Unterminated string",
        ),
        # an array cut short: fit's word for an array, as before review LD ('missing column devices (found
        # ["devices", throughput)' since)
        ('[{"devices":1,"throughput":1000},{"devices":2,"throughput"', "a JSON array", "Expecting ':' delimiter"),
        ('["devices","throughput"', "a JSON array", "Expecting ',' delimiter"),
        # cut inside a number or a word, after a string holding commas: JSON breaks a character or two before the
        # line's end ('7000.', 'tr'), and 'model' named a column again (review LL)
        (
            '{"tags": "bf16,model,8 GPUs", "devices": 8, "throughput": 7000.',
            "line 1: not valid JSON (Expecting ',' delimiter)",
            "Expecting ',' delimiter",
        ),
        ('{"tags": "bf16,model,x", "ok": tr', "line 1: not valid JSON (Expecting value)", "Expecting value"),
        ('[{"tags": "a,devices,b"}, -', "a JSON array", "Expecting value"),
        # cut inside or just after a \u escape of a string holding commas (json.dumps writes 'café' as caf\u00e9):
        # JSON breaks at the escape, 'Invalid \uXXXX escape', and 'model' named a column (review LM)
        (
            '{"devices":8,"throughput":7000,"tags":"bf16,model,caf\\u00',
            "line 1: not valid JSON (Invalid \\uXXXX escape)",
            "Invalid \\uXXXX escape",
        ),
        (
            '{"devices":8,"throughput":7000,"tags":"bf16,model,caf\\u00e9',
            "line 1: not valid JSON (Invalid \\uXXXX escape)",
            "Invalid \\uXXXX escape",
        ),
        ('[{"tags":"a,devices,\\ud83d\\ude', "a JSON array", "Invalid \\uXXXX escape"),
        # each of _cut_short's words and a signed exponent, cut (json.dumps writes NaN and Infinity): each survived
        # the suite with its word, or the '-' of [-+\d.eE], dropped (review LM)
        *(
            ('{"tags": "bf16,model,x", "ok": ' + cut, "line 1: not valid JSON (Expecting value)", "Expecting value")
            for cut in ("fals", "nul", "Na", "Infin", "-Infin")
        ),
        (
            '{"tags": "bf16,model,x", "throughput": 1.5e-',
            "line 1: not valid JSON (Expecting ',' delimiter)",
            "Expecting ',' delimiter",
        ),
    ],
)
def test_json_cut_short_on_its_first_line_is_json_whatever_its_cells_name(
    capsys, tmp_path, first, fit_says, validate_says
):
    """Review LH: review LD's names_a_column took a first line opening with '{' or '[' for a table's header where a
    cell of it, read as a CSV's, named any column of runs or of a published table — which JSON cut short does where it
    was written without spaces and cut after a key, or holds a string with commas. `dpscale fit r.jsonl` of
    '{"devices":1,"throughput"' above 3 records said 'r.jsonl line 1: missing column devices (found {"devices":1,
    throughput); allowed: a header with devices,throughput (optional step_time)' (before review LD: JSON broken on
    line 1, as now), and validate of the array 'line 1: not a readable CSV row'. A line that read as JSON breaks only
    where it ends, or in a string left open, is JSON cut short, named by both readers in both languages."""
    path = tmp_path / "r.jsonl"
    path.write_text(f"{first}\n{RECORDS}", encoding="utf-8")
    rc, out, err = run(capsys, "fit", str(path))
    assert (rc, out, err.count("\n")) == (2, "", 1) and f"r.jsonl{':' * (fit_says[0] == 'a')} {fit_says}" in err, err
    rc, out, err = run(capsys, "validate", str(path))
    assert (rc, out) == (2, "") and f"r.jsonl line 1: not valid JSON ({validate_says}" in err, err
    rc, out, err = run(capsys, "validate", str(path), "--lang", "es")
    assert (rc, out) == (2, "") and "r.jsonl línea 1: no es JSON válido (" in err, err
    assert "missing" not in err and "faltan" not in err


@pytest.mark.parametrize(
    ("text", "array"),
    [
        ('[{"devices": 1, "throughput": 100}]', True),
        ('# two runs\n[{"devices": 1, "throughput": 100},', True),  # cut short, past a comment
        ("\ufeff[[1, 100], [8, 700]]\n", True),
        ("[run],devices,throughput\n1,1,100\n", False),  # a table whose first column is named '[run]' (review LD)
        ('{"devices": 1, "throughput": 100}\n', False),
        ("devices,throughput\n1,100\n", False),
        ("# nothing\n", False),
    ],
)
def test_a_json_array_of_runs_is_told_by_one_rule(text, array):
    """Review LY: the page's fit field told a pasted JSON array from the file's refusal of one by comparing its message
    with fit_io.JSON_ARRAY; runs_of_text now refuses both by json_array, each saying its own forms."""
    from dpscale.sources.fit_io import json_array, runs_of_text

    assert json_array(text) is array
    if array:
        with pytest.raises(DpscaleError, match=r"^r\.json: a JSON array; allowed: JSON lines \(an object"):
            runs_of_text(text, "r.json")
