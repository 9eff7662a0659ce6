"""Review 44 (C): the web page reviewed as a user would, in Chromium, in English and Spanish; each test fails
without its fix."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx2")
from fastapi.testclient import TestClient  # noqa: E402

from dpscale.faces.web.app import create_app  # noqa: E402

TOKENS = "devices,throughput,unit\n1,100000,tokens/s\n8,750000,tokens/s\n16,1460000,tokens/s\n32,2800000,tokens/s"


def test_the_plan_and_fit_forms_have_the_unit_field_their_commands_take():
    """plan's --unit (with tokens/s runs `plan --fit` takes their unit) and fit's --unit (runs typed as D:X are
    samples/s unless told) had no field: a tokens/s fit taken into the plan tab was planned as samples/s."""
    from test_web import page_forms

    for form in ("plan", "fit"):
        html = _form_html(form)
        assert '<input name="unit">' in html, form  # blank: the command's own default, samples/s
    assert "unit" not in page_forms()["plan"]["values"]  # (the form still opens as plan's WORKED example)
    client = TestClient(create_app())
    for lang, said in (("en", "throughputs in tokens/s"), ("es", "rendimientos en tokens/s")):
        body = {"options": {"samples": "1e9", "throughput": "3000", "devices": "8", "unit": "tokens/s"}, "lang": lang}
        assert said in client.post("/api/plan", json=body).json()["notes"]
        words = client.get(f"/api/labels/{lang}").json()
        assert words["web_unit"] and words["web_plan_throughput"]
    en = client.get("/api/labels/en").json()
    assert en["web_plan_throughput"] == "Per-device throughput v (samples/s, or the unit given)"


def _form_html(form: str) -> str:
    import re
    from importlib.resources import files

    html = files("dpscale.faces.web").joinpath("index.html").read_text(encoding="utf-8")
    return re.search(rf'<form id="{form}".*?</form>', html, re.S)[0]


def test_a_body_too_big_is_refused_in_the_language_the_request_asks_for():
    """A 2 MB paste into the Spanish page's fit box was refused 'body: over 1,048,576 bytes; allowed: …' in
    English: the cap refuses before the body (and its "lang") is read. The page now sends Accept-Language: es."""
    from dpscale.faces.web.app import MAX_BODY_BYTES

    client = TestClient(create_app())
    big = {"options": {"point": "1:1000\n" * (MAX_BODY_BYTES // 7 + 1)}, "lang": "es"}
    r = client.post("/api/fit", json=big, headers={"Accept-Language": "es"})
    assert r.status_code == 413 and r.json()["error"] == (
        "dpscale: error: cuerpo: más de 1.048.576 bytes; se admite: como mucho 1.048.576 (los campos de un formulario)"
    )
    for asked in ("", "fr-FR, de;q=0.5", "en-GB,es;q=0.8"):  # none the page speaks, or English first: English
        r = client.post("/api/fit", json=big, headers={"Accept-Language": asked})
        assert r.status_code == 413 and r.json()["error"] == (
            "dpscale: error: body: over 1,048,576 bytes; allowed: at most 1,048,576 (a form's fields)"
        )
    r = client.post("/api/fit", json=big, headers={"Accept-Language": "es-ES,es;q=0.9,en;q=0.8"})  # a browser's
    assert r.status_code == 413 and "cuerpo: más de 1.048.576 bytes" in r.json()["error"]
    # a body within the cap: as before
    ok = client.post("/api/calc", json={"options": {}, "lang": "es"}, headers={"Accept-Language": "es"})
    assert ok.status_code == 200 and "115.200 muestras/s" in str(ok.json()["table"]["rows"])


@pytest.mark.slow
def test_a_tokens_fit_taken_into_the_plan_is_planned_in_tokens():
    """The plan tab took a tokens/s fit's rate (100,000 tokens/s a device) and planned it as 100,000 samples/s
    ('throughputs in samples/s'), where `plan --fit` plans tokens/s runs in tokens/s. Its unit now comes along;
    a prediction's (samples/s) leaves the field blank again. And a paste too big is refused in Spanish."""
    from test_web import chromium, serving

    with serving() as url, chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{url}?lang=es")
        expect(page.locator("#result")).to_contain_text("115.200 muestras/s")
        page.click("#tab-fit")
        page.fill("#fit textarea[name=point]", TOKENS)
        page.click("#fit .run")
        expect(page.locator("#notes")).to_contain_text("rendimientos en tokens/s")
        page.click("#tab-plan")
        page.locator("#plan .take").click()
        expect(page.locator("#plan input[name=unit]")).to_have_value("tokens/s")
        expect(page.locator("#plan input[name=throughput]")).to_have_value("100000")
        expect(page.locator("#notes li").first).to_have_text("rendimientos en tokens/s")
        expect(page.locator("#error")).to_be_hidden()
        page.click("#tab-predict")  # predict's rates are samples/s: the unit field is the default again
        page.click("#predict .run")
        expect(page.locator("#result tbody tr")).to_have_count(6)
        page.click("#tab-plan")
        page.locator("#plan .take").click()
        expect(page.locator("#plan input[name=unit]")).to_have_value("")
        expect(page.locator("#notes li").first).to_have_text("rendimientos en muestras/s")
        # a paste over the 1 MiB body cap: one line in the page's language, and the page still answers after
        page.click("#tab-fit")
        page.evaluate("document.querySelector('#fit [name=point]').value = '1:1000\\n'.repeat(300000)")
        page.click("#fit .run")
        expect(page.locator("#error")).to_have_text(
            "dpscale: error: cuerpo: más de 1.048.576 bytes; se admite: como mucho 1.048.576 (los campos de un "
            "formulario)"
        )
        expect(page.locator("#out")).not_to_have_attribute("aria-busy", "true")
        page.fill("#fit textarea[name=point]", "1:1000 8:7500 16:14600")
        page.click("#fit .run")
        expect(page.locator("#error")).to_be_hidden()
        expect(page.locator("#result tbody tr")).to_have_count(3)
