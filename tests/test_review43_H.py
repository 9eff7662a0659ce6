"""Review 43 (H): an adversarial read of 4c5add9..34e6623; each test failed before its fix."""

from __future__ import annotations

import json

import pytest
from clihelp import run

pytest.importorskip("fastapi")
pytest.importorskip("httpx2")
from fastapi.testclient import TestClient  # noqa: E402

from dpscale.faces.web.app import create_app  # noqa: E402

# 1,000, 1,900, 3,600 and 6,800 tokens/s at 1, 2, 4 and 8 devices, as a CSV with a unit column
TOKENS = "devices,throughput,unit\n1,1000,tokens/s\n2,1900,tokens/s\n4,3600,tokens/s\n8,6800,tokens/s\n"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def post(client, options, lang="en"):
    return client.post("/api/fit", json={"options": options, "lang": lang})


def test_the_page_s_fit_reads_a_pasted_table_s_unit_as_fit_reads_a_file_s(client, capsys, tmp_path):
    """bdd90ad made `fit FILE` print and state the unit the runs' unit column gives, and refuse a typed --unit
    that differs; the page's fit, which reads a pasted table with the same CSV reader, still printed these tokens/s
    runs as samples/s, stated samples/s in its report, and took a typed 'samples/s' without a word."""
    path = tmp_path / "tok.csv"
    path.write_text(TOKENS)
    rc, out, err = run(capsys, "fit", str(path), "--json")
    assert rc == 0 and json.loads(out)["unit"] == "tokens/s", err  # the command line, the reference
    r = post(client, {"point": TOKENS, "at": "16"})
    body = r.json()
    assert r.status_code == 200 and body["report"]["unit"] == "tokens/s", body
    assert "throughputs in tokens/s" in body["notes"] and not any("samples/s" in n for n in body["notes"])
    assert any(n.startswith("measured: 8 devices, 6,800 tokens/s") for n in body["notes"]), body["notes"]
    # a typed unit must be the table's (its case and spaces aside), as `fit FILE --unit` is held to it
    r = post(client, {"point": TOKENS, "unit": "samples/s"})
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale fit: error: --unit: got 'samples/s'; allowed: 'tokens/s', the unit the runs in --point state"
    )
    r = post(client, {"point": TOKENS, "unit": "samples/s"}, lang="es")
    assert r.status_code == 422 and r.json()["error"].endswith(
        "--unit: se recibió 'samples/s'; se admite: 'tokens/s', la unidad que indican las ejecuciones de --point"
    )
    r = post(client, {"point": TOKENS, "unit": " Tokens/S "})
    assert r.status_code == 200 and r.json()["report"]["unit"] == "tokens/s"
    # points without a table, or a table without a unit column: the typed unit, else samples/s (as before)
    assert post(client, {"point": "1:1000 2:1900 4:3600", "unit": "images/s"}).json()["report"]["unit"] == "images/s"
    bare = "devices,throughput\n1,1000\n2,1900\n4,3600\n"
    assert post(client, {"point": bare}).json()["report"]["unit"] == "samples/s"


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


def test_the_spanish_accumulation_note_writes_both_of_its_e_with_a_decimal_comma():
    """416e696 moved the accumulation note to e_said and e_hidden_said, and listed both as text holding numbers
    (i18n.TEXT_NUMBERS) so Spanish writes 0,933; only the English note and fit's runs_flat were tested, and dropping
    e_hidden_said from the list (Spanish 'E 0.933 en vez de 0,926') passed every test. The Spanish note must say the
    English note's two figures, each with a decimal comma."""
    import re

    from dpscale.faces.i18n import say
    from dpscale.sources.predict import predict

    (note,) = [n for n in predict([8, 64], model="resnet-50", system="dgx-a100", grad_accum=4).notes
               if n.key == "accumulation_exposed"]  # fmt: skip
    hidden, exposed = re.search(r"at 64 devices E (0\.\d{3}) instead of (0\.\d{3})\)$", note).groups()  # type: ignore[union-attr]
    assert hidden != exposed  # (two figures, so a swap or a copy would show)
    comma = [x.replace(".", ",") for x in (hidden, exposed)]
    assert say(note, "es").endswith(f"(con 64 dispositivos, E {comma[0]} en vez de {comma[1]})")


def test_inf_typed_is_not_a_number_past_the_bound(capsys):
    """_overflows tells a number float() reads as inf ('1e400') the flag's upper bound, but not 'inf' itself, which
    is no count at all; removing the clause that says so passed every test."""
    argv = ["predict", "--model", "resnet50", "--system", "dgx-a100", "-v", "1000", "--batch"]
    for typed in ("inf", "+Infinity"):
        rc, out, err = run(capsys, *argv, typed)
        assert rc == 2 and err.strip().endswith(f"--batch: got '{typed}'; allowed: a whole number ≥ 1"), err
    rc, out, err = run(capsys, *argv, "1e400")
    assert rc == 2 and err.strip().endswith("--batch: got '1e400'; allowed: a whole number from 1 to 2^53"), err


def test_plan_holds_a_typed_unit_to_an_efficiency_file_s_as_to_fit_runs(capsys, tmp_path):
    """bdd90ad's runs_unit takes 'Tokens/s' or ' tokens/s' as runs' 'tokens/s' (fit, plan --fit), but plan's
    --efficiency-file kept its own rule, `!=`: the same command refused `--unit Tokens/s` for a fit's report of those
    runs. One rule (common.same_unit) for both. By hand: 1e9 tokens at 8 × 1,000 tokens/s × E 0.8 = 6,400 tokens/s,
    156,250 s = 43.40 h."""
    report = tmp_path / "fit.json"
    sizes = [{"devices": 1, "efficiency": 1.0}, {"devices": 8, "efficiency": 0.8}]
    report.write_text(json.dumps({"unit": "tokens/s", "per_device_throughput": 1000, "baseline_devices": 1,
                                  "predictions": sizes}))  # fmt: skip
    for typed in ("tokens/s", "Tokens/s", " tokens/s"):
        rc, out, err = run(capsys, "plan", "--efficiency-file", str(report), "-n", "1e9", "-d", "8", "--unit", typed)
        assert rc == 0 and "throughputs in tokens/s" in out, err  # the file's own text labels the rows
        rc, out, err = run(capsys, "plan", "--efficiency-file", str(report), "-n", "1e9", "-d", "8", "--unit", typed,
                           "--json")  # fmt: skip
        (row,) = json.loads(out)
        assert row["actual_throughput"] == pytest.approx(6400.0) and row["hours"] == pytest.approx(1e9 / 6400 / 3600)
    rc, out, err = run(capsys, "plan", "--efficiency-file", str(report), "-n", "1e9", "-d", "8", "--unit", "samples/s")
    assert rc == 2 and "--unit: got 'samples/s'; allowed: 'tokens/s', the unit of --efficiency-file's" in err
