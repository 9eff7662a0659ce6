"""Review 45 Z: the web page's notes speak of the page's fields, tabs and button, not the command line's flags.

A note the command words for the command line ('--law usl|amdahl', '`dpscale fit`', '--optimizer adam') is said on
the page with the field's label, the tab's name or the take button (faces/web/app.py's PAGE_NOTES), in English and
Spanish; the command line's wording stays as it was."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from dpscale.faces.cli import main  # noqa: E402
from dpscale.faces.web.app import create_app  # noqa: E402

CLIENT = TestClient(create_app())


def page(command: str, options: dict[str, str], lang: str) -> tuple[str, list[str]]:
    """The page's title and notes for these fields."""
    r = CLIENT.post(f"/api/{command}", json={"options": options, "lang": lang})
    assert r.status_code == 200, r.json()
    return r.json()["title"], r.json()["notes"]


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


CONSTANT = {
    "en": "E is held at 0.9 from two devices on (one device alone is its own reference: E = 1); real E usually falls "
    "as devices are added — give E per size in 'Scaling efficiency E', a law in 'E(d) law' (usl or amdahl), or use "
    "the tabs 'Fit my runs' / 'Predict E(d)'",
    "es": "E se mantiene en 0,9 desde dos dispositivos (uno solo es su propia referencia: E = 1); en la práctica E "
    "suele caer al añadir dispositivos — indique E por tamaño en «Eficiencia de escalado E», una ley en «Ley de E(d)» "
    "(usl o amdahl) o use las pestañas «Ajustar mis ejecuciones» / «Predecir E(d)»",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_calc_and_plan_say_the_constant_e_note_with_the_pages_fields_and_tabs(lang, capsys):
    """The calculator's and the plan's constant E said 'a law (--law usl|amdahl), or use `dpscale fit` / `dpscale
    predict`' on the page, which has an E(d) law menu and the fit and predict tabs, not flags or commands."""
    _, notes = page("calc", {"devices": "1..64x2", "throughput": "2000", "efficiency": "0.9"}, lang)
    assert CONSTANT[lang] in notes
    _, notes = page("plan", {"samples": "1.28e6", "throughput": "2000", "devices": "1..256x2", "efficiency": "0.9"},
                    lang)  # fmt: skip
    assert CONSTANT[lang] in notes
    out = cli(capsys, "calc", "-d", "1..64x2", "-v", "2000", "-e", "0.9", "--lang", lang)
    assert "(--law usl|amdahl)" in out and "`dpscale fit` / `dpscale predict`" in out  # the command line's own


def test_plan_without_e_names_the_pages_fields_not_efficiency_and_law_flags(capsys):
    """The plan tab without an E said 'give --efficiency, --law or the button …': the button was the page's, the
    flags were not."""
    said = {
        lang: page("plan", {"samples": "1e9", "throughput": "100", "devices": "8"}, lang)[1] for lang in ("en", "es")
    }
    assert (
        "E = 1 assumed (perfect scaling): give 'Scaling efficiency E', 'E(d) law' or the button 'E(d) from the last "
        "prediction or fit' for real numbers"
    ) in said["en"]
    assert (
        "se supone E = 1 (escalado perfecto): indique «Eficiencia de escalado E», «Ley de E(d)» o el botón «E(d) de la "
        "última predicción o ajuste» para cifras reales"
    ) in said["es"]
    assert "give --efficiency, --law or --fit for real numbers" in cli(
        capsys, "plan", "-n", "1e9", "-v", "100", "-d", "8"
    )


def test_plans_partial_worked_example_title_names_the_pages_fields(capsys):
    """The plan tab with only devices typed titled its worked example '(give --samples and --throughput for your
    run)'."""
    assert page("plan", {"devices": "1..256x2"}, "en")[0] == (
        "Worked example with your devices/epochs: 1.28M samples at 2,000 samples/s per device, E = 0.9, 2.5 per "
        "device-hour, deadline 24 h (give 'Samples per epoch' and 'Per-device throughput v' for your run)"
    )
    assert page("plan", {"devices": "1..256x2"}, "es")[0] == (
        "Ejemplo resuelto con sus dispositivos/épocas: 1,28 M de muestras a 2.000 muestras/s por dispositivo; E = 0,9; "
        "2,5 por hora-dispositivo; plazo 24 h (indique «Muestras por época» y «Rendimiento por dispositivo v» para su "
        "caso)"
    )
    assert "(give --samples and --throughput for your run)" in cli(capsys, "plan", "-d", "1..256x2")
