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
