"""Review MK's mutation pass (review MJ's mutants of runs_csv): a `measure --out` record indented under a CSV's header
is named as one, and a table whose rows open with '{' is split into lines once, not once a row."""

from __future__ import annotations

import pytest
from clihelp import read_runs, run

RECORD = {
    "en": "a JSON record (as `dpscale measure --out` writes) in a CSV; allowed: one form at a time — rows under its "
    "header, or JSON lines alone",
    "es": "un registro JSON (como escribe `dpscale measure --out`) en un CSV; se admite: una forma cada vez — filas "
    "bajo su cabecera, o solo líneas JSON",
}


@pytest.mark.parametrize("indent", [" ", "  ", "\t"])
@pytest.mark.parametrize(("lang", "line"), [("en", "line"), ("es", "línea")])
def test_a_json_record_indented_under_a_csv_s_header_is_named_a_record(tmp_path, capsys, indent, lang, line):
    """Mutant: runs_csv's `row[0].lstrip().startswith("{")` as `row[0].startswith("{")`: a record pasted with a space
    or a tab before its '{' under 'devices,throughput' was 'r.csv line 3, devices: got ' {"devices": 2'; allowed: a
    whole number from 1 to 10,000,000' (with a tab, 'got 1 fields; allowed: 2 as in the header'), not the JSON record
    it is — files.opens_json, which names it, reads past blank space."""
    path = tmp_path / "r.csv"
    path.write_text(f'devices,throughput\n1,100\n{indent}{{"devices": 2, "throughput": 190}}\n4,350\n')
    rc, out, err = run(capsys, "fit", str(path), "--lang", lang)
    assert (rc, out) == (2, "") and err == f"dpscale fit: error: r.csv {line} 3: {RECORD[lang]}\n"


def test_a_table_of_rows_opening_with_a_brace_is_split_into_lines_once(tmp_path, monkeypatch):
    """Mutant: runs_csv's `lines = lines or text_lines(text)` as `lines = text_lines(text)`: each row whose first cell
    opens with '{' ('{r1},1,1000', a run's label: review JV's tables) split the whole text again to read its line, so
    30,000 such rows (446 KB) took 35 s of CPU to read where they take under 1 s — quadratic, hours at the 64 MiB a
    file may hold. Counted, not timed (a timed test fails on a busy machine): the text is split twice in all — once
    for csv to read, once for the rows' lines — however many rows open with '{'."""
    import dpscale.sources.runs_csv as runs_csv

    calls = []
    split = runs_csv.text_lines
    monkeypatch.setattr(runs_csv, "text_lines", lambda text: calls.append(len(text)) or split(text))
    path = tmp_path / "r.csv"
    rows = [f"{{r{i}}},{d},{x}" for i in range(1_000) for d, x in ((1, 1000), (2, 1900), (4, 3600))]
    path.write_text("{id},devices,throughput\n" + "\n".join(rows) + "\n")
    runs = read_runs(path)
    assert len(runs) == 3_000 and (runs[-1].devices, runs[-1].throughput) == (4, 3600.0)
    assert len(calls) == 2
