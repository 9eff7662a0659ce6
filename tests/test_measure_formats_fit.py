"""Review JQ: the chain a user runs — `dpscale measure` → `fit` / `plan --fit`. Every format measure writes (--out's
JSON lines, --json's document, --csv's table, under either --lang) is read with one answer: the same runs, the same
fitted law and numbers, the same notes. The files are written here by measure's own writers (`show_train`, and the
records `--out` appends) from one recorded set of records, so no rank is launched."""

from __future__ import annotations

import argparse
import json

import pytest
from clihelp import read_runs, run
from test_fit_warnings import DRIFT_EN, OVER_SAID_EN, records

from dpscale.errors import DpscaleError
from dpscale.faces.cli.measure import show_train


def _measure_output(recs: list[dict], how: str, lang: str, capsys) -> str:
    """What `dpscale measure --json` or `--csv` (under --lang) prints for these records."""
    capsys.readouterr()
    show_train(recs, argparse.Namespace(json=how == "json", csv=how == "csv", lang=lang, plot=None, out=None))
    return capsys.readouterr().out


@pytest.fixture
def written(tmp_path, capsys) -> dict[str, str]:
    """The same measured records (4 and 8 oversubscribed, 2 with drifted replicas) in each format measure writes."""
    recs = records(over=(4, 8), drift={2: 3e-05})
    files = {"out": tmp_path / "runs.jsonl"}
    files["out"].write_text("".join(json.dumps(r) + "\n" for r in recs))  # --out: one record a line
    for how, lang in (("json", "en"), ("csv", "en"), ("csv", "es")):
        files[f"{how}-{lang}"] = tmp_path / f"runs-{lang}.{how}"
        files[f"{how}-{lang}"].write_text(_measure_output(recs, how, lang, capsys))
    return {k: str(p) for k, p in files.items()}


def test_measure_s_csv_is_read_with_its_step_times_in_seconds(written):
    """measure's CSV carries step_time in seconds (and step_s beside it), the column fit reads for the all-reduce
    law's compute split; the table's 'step ms' is not in it."""
    header = open(written["csv-en"]).readline().strip().split(",")
    assert "step_time" in header and "step_ms" not in header
    assert [r.step_time for r in read_runs(written["csv-en"])] == [0.0105] * 4
    as_read = {k: [(r.devices, r.throughput, r.step_time) for r in read_runs(p)] for k, p in written.items()}
    assert all(runs == as_read["out"] for runs in as_read.values())


def test_every_format_measure_writes_fits_to_one_report(written, capsys):
    """fit --json of measure's CSV said nothing of the oversubscribed sizes (4, 8) or the drifted replicas (2) that
    the same runs' JSON lines warn of: the CSV holds both columns, and fit read neither."""
    reports = {}
    for k, path in written.items():
        rc, out, err = run(capsys, "fit", path, "--resamples", "200", "--json")
        assert rc == 0, err
        reports[k] = json.loads(out)
    first = reports["out"]
    assert first["law"] == "allreduce" and first["warnings"][:2][1] == DRIFT_EN
    for k, report in reports.items():
        assert report == first, k
    texts = {}
    for k, path in written.items():
        rc, out, _ = run(capsys, "fit", path, "--resamples", "200")
        texts[k] = out.replace(path, "RUNS")
    assert OVER_SAID_EN in texts["out"] and all(t == texts["out"] for t in texts.values())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_plan_fit_reads_every_format_alike(written, capsys, lang):
    said = {}
    for k, path in written.items():
        rc, out, err = run(capsys, "plan", "-n", "1e6", "-d", "2,8", "--fit", path, "--lang", lang)
        assert rc == 0, err
        said[k] = (out + err).replace(path, "RUNS")
    assert all(s == said["out"] for s in said.values())
    assert ("sobresuscripción" if lang == "es" else "(oversubscribed)") in said["out"]


def test_measure_s_csv_appended_to_itself_reads_as_its_json_lines_do(tmp_path, capsys):
    """`measure --csv >> runs.csv` run twice: the second table's header was read as a run of another set-up
    ("another set-up than line 2 (workload 'mlp' → 'workload', zero '0' → 'zero', …)"); without it, a second run at
    batch 32 was fitted with the first at batch 64, which the same runs' --out lines refuse. A measure table's
    header repeated is skipped, and its per-rank batch and steps are its set-up, as the records' are."""
    first, later = records()[:2], records()[2:]
    path = tmp_path / "runs.csv"
    path.write_text(_measure_output(first, "csv", "en", capsys) + _measure_output(later, "csv", "en", capsys))
    lines = tmp_path / "runs.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in first + later))
    assert [(r.devices, r.throughput) for r in read_runs(path)] == [(1, 6000.0), (2, 11000.0), (4, 20000.0),
                                                                   (8, 30000.0)]  # fmt: skip
    rc, a, _ = run(capsys, "fit", str(path), "--resamples", "200", "--json")
    rc2, b, _ = run(capsys, "fit", str(lines), "--resamples", "200", "--json")
    assert rc == rc2 == 0 and json.loads(a) == json.loads(b)
    for key, value, said in (("batch", 32, "batch '64' → '32'"), ("steps", 5, "steps '2' → '5'")):
        other = [dict(r, **{key: value}) for r in later]
        path.write_text(_measure_output(first, "csv", "en", capsys) + _measure_output(other, "csv", "en", capsys))
        rc, _, err = run(capsys, "fit", str(path))
        assert rc == 2 and f"runs.csv line 5: another set-up than line 2 ({said}); allowed: one set-up per file" in err
        lines.write_text("".join(json.dumps(r) + "\n" for r in first + other))
        rc, _, err = run(capsys, "fit", str(lines))
        assert rc == 2 and "runs.jsonl line 3: another set-up than line 1" in err
    rc, _, err = run(capsys, "fit", str(path), "--lang", "es")  # (the header again is no row of its own there either)
    assert rc == 2 and "runs.csv línea 5: un montaje distinto del de la línea 2 (steps '2' → '5')" in err


def test_a_hand_made_table_s_steps_are_no_set_up_beside_a_global_batch(tmp_path, capsys):
    """Review JS: 871a901 took any table with global_batch beside batch for measure's and compared its steps, so a
    hand-made table of runs trained for different step counts (100, 200, 400 at 1, 2, 4 devices, per-rank batch 32),
    read before, was refused 'another set-up than line 2 (steps '100' → '200')'. A step count may differ run by run
    (CSV_SETUP); steps are a set-up where measure wrote the table (its workload or backend column, the mark its JSON
    records are known by). The per-rank batch beside global_batch is still the set-up (weak scaling)."""
    path = tmp_path / "runs.csv"
    path.write_text("devices,throughput,batch,global_batch,steps\n1,100,32,32,100\n2,190,32,64,200\n4,350,32,128,400\n")
    assert [(r.devices, r.throughput) for r in read_runs(path)] == [(1, 100.0), (2, 190.0), (4, 350.0)]
    for lang in ("en", "es"):
        rc, out, err = run(capsys, "plan", "-n", "1e6", "-d", "2,8", "--fit", str(path), "--lang", lang)
        assert rc == 0, err
    for column, said in (("workload", "mlp"), ("backend", "gloo")):  # measure's table: steps are its set-up
        path.write_text(f"devices,throughput,batch,global_batch,steps,{column}\n1,100,32,32,100,{said}\n"
                        f"2,190,32,64,200,{said}\n")  # fmt: skip
        rc, _, err = run(capsys, "fit", str(path))
        assert rc == 2 and "runs.csv line 3: another set-up than line 2 (steps '100' → '200')" in err
    path.write_text("devices,throughput,batch,global_batch\n1,100,64,64\n2,190,32,64\n")  # per-rank batch halved
    rc, _, err = run(capsys, "fit", str(path))
    assert rc == 2 and "runs.csv line 3: another set-up than line 2 (batch '64' → '32')" in err


@pytest.mark.parametrize(
    "again", ["devices,throughput", "\ufeffdevices,throughput", "Devices, Throughput", "dispositivos,rendimiento"]
)
def test_a_header_repeated_as_the_header_reads_is_skipped(tmp_path, capsys, again):
    """Review JS: 871a901 skipped a header line repeated only as typed, byte for byte, though the header itself is
    read without case, spaces, a byte-order mark or the Spanish page's words: two tables saved with a BOM and joined
    (`cat a.csv b.csv`, the mark the header's own comment names) were refused "line 4, devices: got '\\ufeffdevices'",
    an English table with a Spanish one "got 'dispositivos'". Such a line names the same columns in the same order,
    and could be no run; one in another order (its rows' columns swapped) is still refused."""
    path = tmp_path / "runs.csv"
    path.write_text(f"devices,throughput\n1,100\n2,190\n{again}\n4,350\n", encoding="utf-8")
    assert [(r.devices, r.throughput) for r in read_runs(path)] == [(1, 100.0), (2, 190.0), (4, 350.0)]
    path.write_text("devices,throughput\n1,100\nthroughput,devices\n350,4\n")
    rc, _, err = run(capsys, "fit", str(path))
    assert rc == 2 and "runs.csv line 3, devices: got 'throughput'" in err


def test_measure_s_json_lines_appended_to_its_csv_are_named_as_such(written, tmp_path, capsys):
    """Review LY: `dpscale measure --csv > runs.csv` and then its `--out` lines joined on (`cat runs.jsonl >>
    runs.csv`) said 'runs.csv line 6: got 44 fields; allowed: 37 as in the header (write numbers without thousands
    separators: 1100, not 1,100)' — a thousands hint for a JSON record. The record is named, from a file and the
    page's fit field alike (standard input reads as the file), in both languages."""
    from dpscale.faces.i18n import say_error
    from dpscale.faces.web.app import run_command

    both = tmp_path / "both.csv"
    both.write_text(open(written["csv-en"]).read() + open(written["out"]).read())
    en = "a JSON record (as `dpscale measure --out` writes) in a CSV; allowed: one form at a time — rows under its "
    en += "header, or JSON lines alone"
    es = "un registro JSON (como escribe `dpscale measure --out`) en un CSV; se admite: una forma cada vez — filas "
    es += "bajo su cabecera, o solo líneas JSON"
    rc, _, err = run(capsys, "fit", str(both))
    assert rc == 2 and err == f"dpscale fit: error: both.csv line 6: {en}\n"
    rc, _, err = run(capsys, "fit", str(both), "--lang", "es")
    assert rc == 2 and err == f"dpscale fit: error: both.csv línea 6: {es}\n"
    for lang, said in (("en", f"--point line 6: {en}"), ("es", f"--point línea 6: {es}")):
        with pytest.raises(DpscaleError) as e:
            run_command("fit", {"point": both.read_text()}, lang)
        assert say_error(e.value, lang) == said


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a record written compact (`jq -c`, a hand's): csv unquoted its second cell, '"throughput":190}', and the row
        # was refused for its devices, "line 3, devices: got '{\"devices\":2'"
        ('devices,throughput\n1,100\n{"devices":2,"throughput":190}\n', "line 3: a JSON record"),
        # a quoted first cell whose first line is JSON and which goes on past a line break: a note, not a record
        ('tags,devices,throughput\n"{""lr"": 0.1}\nrerun",1,100\nb,2,190\nc,4,350\n', None),
    ],
)
def test_a_json_record_in_a_csv_is_told_by_the_line_as_written(tmp_path, capsys, text, said):
    """Review MD: review LY named `measure --out`'s records under a CSV's header by the row's cells joined again with
    commas — which csv had unquoted ('{"devices":2,"throughput":190}', its cell '"throughput":190}' read as a quoted
    one) or which held a quoted cell's line break ('"{""lr"": 0.1}\\nrerun"', a tags cell, was refused as a JSON
    record, where it is a CSV fit reads). The line as the file wrote it is read."""
    path = tmp_path / "r.csv"
    path.write_text(text)
    rc, out, err = run(capsys, "fit", str(path))
    if said:
        assert rc == 2 and err == (
            f"dpscale fit: error: r.csv {said} (as `dpscale measure --out` writes) in a CSV; allowed: one form at a "
            "time — rows under its header, or JSON lines alone\n"
        )
    else:
        assert rc == 0 and "      4         350   87.5 %    88.1 %" in out.splitlines(), err  # its third run
