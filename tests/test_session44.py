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
        "E = 1 assumed (perfect scaling): give --efficiency, --law or the button 'E(d) from the last prediction or "
        "fit' for real numbers"
    ]
    assert notes["es"] == [
        "se supone E = 1 (escalado perfecto): indique --efficiency, --law o el botón «E(d) de la última predicción o "
        "ajuste» para cifras reales"
    ]
    rc, out, err = run(capsys, "plan", "-n", "1e9", "-v", "100", "-d", "8")
    assert rc == 0 and "give --efficiency, --law or --fit for real numbers" in out + err
