"""Review 45 U: the web page in Spanish on a phone-sized screen."""

from __future__ import annotations

import pytest


@pytest.mark.slow
def test_an_error_names_its_field_by_the_label_s_words_not_its_remarks():
    """The page adds a field's label after the flag an error names: a label's remark came with it, so the line read
    "--at (Tamaños que predecir (por defecto: los medidos, 2×, 4×)): se recibió '0'", brackets in brackets and a
    colon before the line's own."""
    from test_web import chromium, serving

    with serving() as url, chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(url + "?lang=es")
        expect(page.locator("#result")).to_contain_text("115.200 muestras/s")
        error = page.locator("#error")
        page.click("#tab-fit")
        page.fill("#fit input[name=at]", "0")
        page.locator("#fit input[name=at]").press("Enter")  # Enter submits
        expect(error).to_contain_text("dpscale fit: error: --at (Tamaños que predecir): se recibió '0'; se admite:")
        page.click("#tab-predict")
        page.fill("#predict input[name=inter_bw]", "rápida")
        page.locator("#predict input[name=inter_bw]").press("Enter")
        expect(error).to_contain_text("--inter-bw (Red por nodo): se recibió 'rápida'")
        page.fill("#predict input[name=inter_bw]", "")
        page.select_option("#predict select[name=model]", "")
        page.locator("#predict input[name=batch]").press("Enter")
        expect(error).to_contain_text("--params (Parámetros)/--model: falta")
        page.select_option("#lang", "en")
        expect(page.locator("#tab-calc")).to_have_text("Calculator")
        page.click("#tab-calc")
        page.fill("#calc input[name=throughput]", "fast")
        page.locator("#calc input[name=throughput]").press("Enter")
        expect(error).to_contain_text("--throughput (Per-device throughput v): got 'fast'")
        expect(page.locator("#calc input[name=throughput]")).to_have_attribute("aria-invalid", "true")


def test_a_whole_count_written_with_a_spanish_decimal_comma_is_told_the_decimal_point(capsys):
    """The batch tab comes with 1.28e6 samples per epoch; a Spanish reader writing it 1,28e6 was told 'un número
    entero de 1 a 1.000.000.000.000.000' — a whole number is what they wrote. Now the decimal point is named, as for
    memory's 7,5e9; 2,5 (no whole number however written) keeps the whole-number line."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from dpscale.faces.cli import main
    from dpscale.faces.web.app import create_app

    client = TestClient(create_app())

    def said(options: dict) -> str:
        r = client.post("/api/batch", json={"options": {"micro_batch": "32", "devices": "4", **options}, "lang": "es"})
        assert r.status_code == 422
        return r.json()["error"]

    assert said({"dataset_size": "1,28e6"}) == (
        "dpscale batch: error: --dataset-size: se recibió '1,28e6'; se admite: un número sin separador de miles y con "
        "punto decimal: 2000 para dos mil, 2.5 para dos y medio"
    )
    assert said({"dataset_size": "2,5"}) == (
        "dpscale batch: error: --dataset-size: se recibió '2,5'; se admite: un número entero de 1 a "
        "1.000.000.000.000.000"
    )
    assert said({"dataset_size": "1,5e400"}).endswith("se admite: un número entero de 1 a 1.000.000.000.000.000")
    assert main(["batch", "-b", "2,5e1", "-d", "4"]) == 2
    assert capsys.readouterr().err == (
        "dpscale batch: error: --micro-batch: got '2,5e1'; allowed: a number with a decimal point: 2.5, not 2,5\n"
    )
