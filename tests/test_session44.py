"""Session 44: an efficiency file that states two throughput units is refused, not planned in samples/s."""

from __future__ import annotations

import json

import pytest
from clihelp import run


def _file(tmp_path, doc) -> str:
    path = tmp_path / "e.json"
    path.write_text(json.dumps(doc))
    return str(path)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "--efficiency-file: got 'record 2: unit samples/s against tokens/s'; allowed: one throughput unit per file",
        ),
        ("es", "se recibió 'registro 2: unidad samples/s frente a tokens/s'; se admite: una unidad de rendimiento por"),
    ],
)
def test_two_units_in_one_efficiency_file_are_refused(capsys, tmp_path, lang, said):
    """Each record says the same rate but in another unit: the file's unit was read as none and plan planned 100
    tokens/s as 100 samples/s (8 devices at E 0.9: 720 samples/s) without a word."""
    records = [
        {"devices": 1, "efficiency": 1, "unit": "tokens/s", "per_device_throughput": 100},
        {"devices": 8, "efficiency": 0.9, "unit": "samples/s", "per_device_throughput": 100},
    ]
    rc, out, err = run(capsys, "plan", "--efficiency-file", _file(tmp_path, records), "-n", "1e9", "-d", "8",
                       "--lang", lang)  # fmt: skip
    assert rc == 2 and not out and err.count("\n") == 1 and said in err


def test_one_unit_in_two_spellings_is_one_unit(capsys, tmp_path):
    """'Tokens/s' and 'tokens/s' (and the document's own) are one unit: plan with --unit tokens/s takes the file's
    rate, 8 × 100 × 0.9 = 720 tokens/s."""
    doc = {"unit": "tokens/s", "points": [
        {"devices": 1, "efficiency": 1, "unit": "Tokens/s", "per_device_throughput": 100},
        {"devices": 8, "efficiency": 0.9, "unit": "tokens/s"},
    ]}  # fmt: skip
    rc, out, err = run(capsys, "plan", "--efficiency-file", _file(tmp_path, doc), "-n", "1e9", "-d", "8",
                       "--unit", "tokens/s", "--json")  # fmt: skip
    assert rc == 0, err
    (row,) = json.loads(out)
    assert row["devices"] == 8 and row["actual_throughput"] == pytest.approx(720.0)


def test_the_page_says_its_own_remedy_for_a_plan_without_e(capsys):
    """The plan tab's note for E left out said '--fit', a RUNS file the page has no field for; the page names its
    button instead, in both languages, while the command line still says --fit."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from dpscale.faces.web.app import create_app

    client = TestClient(create_app())
    notes = {}
    for lang in ("en", "es"):
        r = client.post("/api/plan", json={"options": {"samples": "1e9", "throughput": "100", "devices": "8"},
                                           "lang": lang})  # fmt: skip
        assert r.status_code == 200
        notes[lang] = [n for n in r.json()["notes"] if "E = 1" in n]
    assert notes["en"] == [
        "E = 1 assumed (perfect scaling): give 'Scaling efficiency E', 'E(d) law' or the button 'E(d) from the last "
        "prediction or fit' for real numbers"
    ]
    assert notes["es"] == [
        "se supone E = 1 (escalado perfecto): indique «Eficiencia de escalado E», «Ley de E(d)» o el botón «E(d) de la "
        "última predicción o ajuste» para cifras reales"
    ]
    rc, out, err = run(capsys, "plan", "-n", "1e9", "-v", "100", "-d", "8")
    assert rc == 0 and "give --efficiency, --law or --fit for real numbers" in out + err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--unit", "samples/min", "-v", "100", "-e", "0.9"], "--unit: got 'samples/min'; allowed: a rate per second"),
        (["--unit", "tokens per hour", "-v", "100", "-e", "0.9"], "--unit: got 'tokens per hour'; allowed: a rate"),
        (["--unit", "IMG/MS", "-v", "100", "-e", "0.9"], "--unit: got 'IMG/MS'; allowed: a rate per second"),
    ],
)
def test_plan_refuses_a_rate_per_another_time(capsys, argv, said):
    """plan's hours are samples ÷ (d·v·E) with v per second: 100 samples/min at 8 devices and E 0.9 was planned as
    720 samples a second, 1e9 samples in 385.8 h where a minute's rate takes 60× as long, without a word."""
    rc, out, err = run(capsys, "plan", "-n", "1e9", "-d", "8", *argv)
    assert rc == 2 and not out and err.count("\n") == 1 and said in err


def test_plan_refuses_files_whose_rate_is_per_minute(capsys, tmp_path):
    runs = tmp_path / "runs.csv"
    runs.write_text("devices,throughput,unit\n1,100,samples/min\n2,190,samples/min\n4,360,samples/min\n")
    rc, out, err = run(capsys, "plan", "--fit", str(runs), "-n", "1e9", "-d", "4", "--lang", "es")
    assert rc == 2 and not out and err.count("\n") == 1
    assert "--fit, unit: se recibió 'samples/min'; se admite: un ritmo por segundo (samples/s, tokens/s)" in err
    records = [{"devices": 1, "efficiency": 1, "unit": "samples/h", "per_device_throughput": 100},
               {"devices": 8, "efficiency": 0.9}]  # fmt: skip
    rc, out, err = run(capsys, "plan", "--efficiency-file", _file(tmp_path, records), "-n", "1e9", "-d", "8")
    assert rc == 2 and "--efficiency-file, unit: got 'samples/h'; allowed: a rate per second" in err


@pytest.mark.parametrize("unit", ["samples/sec", "tokens per second", "fps", "TFLOP/s"])
def test_plan_takes_a_rate_per_second_however_written(capsys, unit):
    """The worked example's numbers at any per-second unit (or one whose time cannot be read): 64 devices × 2,000 at
    E 0.9 → 115,200 a second, 57.6×."""
    rc, out, err = run(capsys, "plan", "-n", "1.28e6", "-v", "2000", "-d", "64", "-e", "0.9", "--unit", unit,
                       "--json")  # fmt: skip
    assert rc == 0, err
    (row,) = json.loads(out)
    assert row["actual_throughput"] == pytest.approx(115_200.0) and row["speedup"] == pytest.approx(57.6)


def test_one_unit_with_spaces_inside_is_one_unit_everywhere(capsys, tmp_path):
    """'Tokens / s' is tokens/s for each reader — JSON lines, a CSV's unit column, an efficiency file, a typed --unit
    against a file's — by one rule (errors.unit_key); spaces inside made it a second unit, refused as mixed units in
    the runs and as a clash with --unit tokens/s."""
    lines = tmp_path / "runs.jsonl"
    lines.write_text(
        '{"devices": 1, "throughput": 1000, "unit": "tokens/s"}\n'
        '{"devices": 2, "throughput": 1900, "unit": "Tokens / s"}\n'
        '{"devices": 4, "throughput": 3600, "unit": "tokens/s"}\n'
    )
    table = tmp_path / "runs.csv"
    table.write_text("devices,throughput,unit\n1,1000,tokens/s\n2,1900,Tokens / s\n4,3600,tokens/s\n")
    fits = []
    for runs in (lines, table):
        rc, out, err = run(capsys, "fit", str(runs), "--unit", "tokens / s", "--at", "4", "--json")
        assert rc == 0, err
        fits.append(json.loads(out))
    assert fits[0]["predictions"] == fits[1]["predictions"]
    (at4,) = [p for p in fits[0]["predictions"] if p["devices"] == 4]
    assert at4["efficiency"] == pytest.approx(0.9, abs=0.01)  # 3,600 against 4 × 1,000
    rc, out, err = run(capsys, "plan", "--fit", str(lines), "-n", "1e9", "-d", "4", "--unit", "TOKENS/S", "--json")
    assert rc == 0, err
    records = [
        {"devices": 1, "efficiency": 1, "unit": "tokens/s", "per_device_throughput": 100},
        {"devices": 8, "efficiency": 0.9, "unit": "tokens / s", "per_device_throughput": 100},
    ]
    rc, out, err = run(capsys, "plan", "--efficiency-file", _file(tmp_path, records), "-n", "1e9", "-d", "8",
                       "--unit", "tokens/s", "--json")  # fmt: skip
    assert rc == 0, err
    (row,) = json.loads(out)
    assert row["actual_throughput"] == pytest.approx(720.0)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_plot_over_an_input_file_is_refused_and_the_input_kept(capsys, tmp_path, monkeypatch, lang):
    """`fit runs.png --plot runs.png` read the runs, then wrote their plot over them: the user's measurements were
    gone. The plot's path is refused before any work when it is one of the command's input files (by any name)."""
    runs = tmp_path / "runs.png"
    text = "devices,throughput\n1,1000\n2,1900\n4,3600\n"
    runs.write_text(text)
    monkeypatch.chdir(tmp_path)
    said = {
        "en": "allowed: a file other than the command's input files, which the plot would overwrite",
        "es": "se admite: un archivo distinto de los archivos de entrada de la orden, que el gráfico sobrescribiría",
    }[lang]
    for argv in (["fit", str(runs), "--plot", "./runs.png"],
                 ["plan", "--fit", "runs.png", "-n", "1e9", "-d", "4", "--plot", str(runs)]):  # fmt: skip
        rc, out, err = run(capsys, *argv, "--lang", lang)
        assert rc == 2 and not out and err.count("\n") == 1 and said in err, argv
        assert runs.read_text() == text
    pytest.importorskip("matplotlib")
    rc, out, err = run(capsys, "fit", str(runs), "--plot", str(tmp_path / "fit.png"), "--lang", lang)
    assert rc == 0 and (tmp_path / "fit.png").stat().st_size > 0 and runs.read_text() == text
