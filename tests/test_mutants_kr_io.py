"""Review KR (mutation pass): how fit, validate and the page's fit field tell JSON from a CSV (fit_io.reads_as_json,
runs_of_text) where no test held it — each test below failed against a hand-made mutant of the source (named in its
docstring) and passes on the source."""

from __future__ import annotations

import pytest

from dpscale.errors import DpscaleError
from dpscale.faces.cli import main
from dpscale.faces.web.app import pasted_runs_unit
from dpscale.sources.fit_io import reads_as_json, runs_of_text


def test_a_pasted_byte_order_mark_before_broken_json_is_still_json():
    """Mutant: reads_as_json's lstrip('\\ufeff') dropped (survived: fit's and validate's read_text strips the marks
    first). A paste of a file's text keeps its mark: '\\ufeff{"devices": 1, …,' is JSON broken on line 1, as fit says
    it, not a run the points reader refuses."""
    text = '\ufeff{"devices": 1, "throughput": 100, '
    assert reads_as_json(text)
    with pytest.raises(DpscaleError) as exc:
        pasted_runs_unit(text)
    assert str(exc.value) == (
        "--point line 1: not valid JSON (Expecting property name enclosed in double quotes); allowed: one JSON "
        "object per line"
    )


def test_a_file_of_carriage_returns_opened_by_a_comment_is_json_lines(tmp_path, capsys):
    """Mutant: reads_as_json's line break '\\r\\n|\\r|\\n' → '\\n' (survived). A file saved with old Mac line ends,
    '# note' CR then two records: its first line not a comment is the first record, so JSON (read as one line, the
    whole text opened with '#' and was a CSV: 'missing columns devices, throughput'). fit reads 1:100 and 2:190 —
    E(2) = 190 / (2 × 100) = 95 %; validate sends it to fit."""
    text = '# note\r{"devices": 1, "throughput": 100}\r{"devices": 2, "throughput": 190}\r'
    assert reads_as_json(text)
    runs, unit = runs_of_text(text, "r.jsonl")
    assert [(r.devices, r.throughput) for r in runs] == [(1, 100.0), (2, 190.0)] and unit is None
    path = tmp_path / "r.jsonl"
    path.write_bytes(text.encode())
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"dpscale validate: error: {path}: JSON; allowed: a published-measurements CSV — runs from `dpscale measure "
        "--out` or `--json` go to `dpscale fit FILE`\n"
    )


def test_validate_says_its_own_allowed_for_json_it_cannot_read(tmp_path, capsys):
    """Mutant: validate raising every refusal of fit's JSON reader (`if True:` for the check that it ends with
    validate's allowed; survived). A record whose number has 5,001 digits (past Python's 4,300-digit limit) is
    'a number too long to read; allowed: one JSON object per line' to fit; to validate, which takes no JSON lines,
    it is JSON: a published-measurements CSV is what it takes."""
    path = tmp_path / "long.json"
    path.write_text('{"devices": 1' + "0" * 5000 + "}\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"dpscale validate: error: {path}: JSON; allowed: a published-measurements CSV — runs from `dpscale measure "
        "--out` or `--json` go to `dpscale fit FILE`\n"
    )


@pytest.mark.parametrize("sep", ["\t", ";"])
def test_a_pasted_table_whose_first_column_opens_with_a_brace_is_a_table(sep):
    """Mutant: the fit field's `and reads_as_json(text)` dropped (survived): a spreadsheet's rows pasted, their first
    column named '{run}' (a header, not JSON: reads_as_json says so), were read by fit's file reader, which refuses
    tabs and ';' ('missing columns devices, throughput (found {run} devices throughput)'); the field reads a pasted
    table's tabs and semicolons as commas: the runs 1:100 and 2:190."""
    text = (
        sep.join(["{run}", "devices", "throughput"])
        + "\n"
        + "\n".join(sep.join(row) for row in (["a", "1", "100"], ["b", "2", "190"]))
    )
    assert not reads_as_json(text)
    assert pasted_runs_unit(text) == (["1:100.0", "2:190.0"], None)


def test_pasted_json_broken_on_its_first_line_is_refused_where_it_breaks():
    """Mutant: the fit field's `said[0].lstrip().startswith("{")` → False (survived): JSON broken on its first line
    is no JSON that `opens_json` finds, and was split at spaces into the points '{"devices":1,,' and
    '"throughput":100}' (refused later as "--point: got '{\\"devices\\":1,,'", review KJ); it is refused where it
    breaks, as `dpscale fit FILE` says it."""
    text = '{"devices": 1,, "throughput": 100}\n{"devices": 2, "throughput": 190}'
    with pytest.raises(DpscaleError) as exc:
        pasted_runs_unit(text)
    assert str(exc.value) == (
        "--point line 1: not valid JSON (Expecting property name enclosed in double quotes); allowed: one JSON "
        "object per line"
    )
