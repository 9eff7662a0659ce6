"""Review LJ (mutation pass over reviews LC, LD and LE's source lines): which first line opening with '[' is a table's
header (runs_csv.names_a_column, review LD), how the page's fit field reads a quoted header (app.pasted_runs_unit), and
a byte-order mark before a spaced '#' comment (files.comment_line, review LD) — each test below failed against a
hand-made mutant (named in its docstring) and passes on the source."""

from __future__ import annotations

import pytest
from clihelp import run

from dpscale.errors import DpscaleError

FIT_ALLOWED = "allowed: a header with devices,throughput (optional step_time)"


@pytest.mark.parametrize(
    "header",
    [
        "[run],step_time",  # mutant: "step_time" dropped from names_a_column's set (survived)
        "[run],gpu,imgs_per_sec",  # mutant: CSV_SETUP dropped from it (survived: gpu is no published column)
    ],
)
def test_a_bracketed_header_naming_only_step_time_or_a_setup_column_is_a_table(tmp_path, capsys, header):
    """`dpscale fit t.csv` of a table headed '[run],step_time' is refused for the columns it lacks, as 'run,step_time'
    is; each mutant made it 't.csv: a JSON array; allowed: JSON lines …' (and validate 'not valid JSON')."""
    path = tmp_path / "t.csv"
    path.write_text(f"{header}\nA,1,100\n", encoding="utf-8")
    found = header.replace(",", ", ")
    rc, out, err = run(capsys, "fit", str(path))
    said = f"{path.name} line 1: missing columns devices, throughput (found {found}); {FIT_ALLOWED}"
    assert (rc, out, err) == (2, "", f"dpscale fit: error: {said}\n")
    rc, out, err = run(capsys, "validate", str(path))
    assert (rc, out) == (2, "") and err.startswith(f"dpscale validate: error: {path} line 1: missing columns cfg, ")
    assert err.endswith(f"(found {found})\n") and "JSON" not in err


def test_the_page_reads_a_quoted_header_without_its_quotes():
    """Mutant: pasted_runs_unit's head = first (its quotes kept; survived). A pasted '"run","speed"' (pandas' quotes)
    is a header lacking devices and throughput, as `dpscale fit` says of the file; the mutant read it as the run
    '"run":"speed"', "devices: got '\"run\"'"."""
    from dpscale.faces.web.app import run_command

    with pytest.raises(DpscaleError) as e:
        run_command("fit", {"point": '"run","speed"\n1,1000\n8,7500'})
    assert str(e.value) == f"--point line 1: missing columns devices, throughput (found run, speed); {FIT_ALLOWED}"


def test_the_page_tells_a_header_from_json_by_its_quotes_as_fit_does():
    """Mutant: pasted_runs_unit asks names_a_column of the line with its quotes taken off (survived). '["devices",
    "throughput"' is a JSON array cut short to `dpscale fit` (its cells, as a CSV reads them, are '["devices"' and
    '"throughput"', naming no column), and no header to the page either; the mutant read it as the header '[devices,
    throughput' and refused it as 'missing columns devices, throughput (found ["devices", "throughput")'."""
    from dpscale.faces.web.app import run_command

    with pytest.raises(DpscaleError) as e:
        run_command("fit", {"point": '["devices", "throughput"\n1,1000\n8,7500'})
    assert "missing columns" not in str(e.value) and "devices: got '[\"devices\"'" in str(e.value), str(e.value)


def test_a_byte_order_mark_then_spaces_before_a_hash_is_a_comment(tmp_path, capsys):
    """Mutant: comment_line's .lstrip() after the mark's dropped (survived: the tests put '#' right after the mark).
    '  # two' is a comment, so is it after a mark (two files joined, the second indented): the mutant read
    '\\ufeff  # two' as the table's header, 'missing columns devices, throughput (found # two)'."""
    path = tmp_path / "t.csv"
    path.write_text("# one\n\ufeff  # two\ndevices,throughput\n1,1000\n2,1900\n4,3600\n", encoding="utf-8")
    rc, out, err = run(capsys, "fit", str(path))
    assert (rc, err) == (0, "") and out.startswith("fitted law: allreduce (leave-one-out RMSE n/a)"), err
    assert "\n         4 " in out or " 4 " in out
