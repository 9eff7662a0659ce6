"""Review 44 (F): the web page's calculator unit, the plan's missing-rate error and the no-answer line, in English
and Spanish; each test fails without its fix."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx2")
from fastapi.testclient import TestClient  # noqa: E402

from dpscale.faces.web.app import create_app  # noqa: E402


def _form_html(form: str) -> str:
    from test_review44_C import _form_html as html

    return html(form)


def test_the_calc_form_has_the_unit_field_its_command_takes():
    """calc's --unit had no field (plan and fit had theirs): a user computing in tokens/s saw samples/s in every row.
    Blank is the command's own default, samples/s; the rate fields say the unit given is theirs."""
    from test_web import page_forms

    assert '<input name="unit">' in _form_html("calc")
    assert "unit" not in page_forms()["calc"]["values"]  # (the form still opens as calc's WORKED example)
    client = TestClient(create_app())
    worked = {"devices": "64", "throughput": "2000", "efficiency": "0.9", "unit": "tokens/s"}
    for lang, actual, speedup in (("en", "115,200 tokens/s", "57.6×"), ("es", "115.200 tokens/s", "57,6×")):
        rows = [v for _, v in client.post("/api/calc", json={"options": worked, "lang": lang}).json()["table"]["rows"]]
        assert actual in rows and speedup in rows
    en, es = (client.get(f"/api/labels/{lang}").json() for lang in ("en", "es"))
    assert en["web_throughput"] == "Per-device throughput v (samples/s, or the unit given)"
    assert en["web_actual"] == "Actual throughput A (samples/s, or the unit given)"
    assert es["web_throughput"] == "Rendimiento por dispositivo v (muestras/s, o la unidad indicada)"
    assert es["web_actual"] == "Rendimiento real A (muestras/s, o la unidad indicada)"


@pytest.mark.slow
def test_the_calc_tab_computes_in_the_unit_typed():
    """The worked example in tokens/s, in both languages: the rows, the title (as `dpscale calc --unit tokens/s`
    titles it: only the unit typed is still the worked example) and a sweep's units note."""
    from test_web import chromium, serving

    with serving() as url, chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url)
        result, title, notes = page.locator("#result"), page.locator("#out-title"), page.locator("#notes")
        expect(result).to_contain_text("115,200 samples/s")
        page.fill("#calc input[name=unit]", "tokens/s")
        page.click("#calc .run")
        expect(result).to_contain_text("115,200 tokens/s")
        expect(result).to_contain_text("57.6×")
        expect(result).not_to_contain_text("samples/s")
        expect(title).to_have_text("Worked example: 64 devices × 2,000 tokens/s at E = 0.9")
        page.select_option("#lang", "es")  # the language's re-run keeps the unit
        expect(result).to_contain_text("115.200 tokens/s")
        expect(result).to_contain_text("57,6×")
        expect(title).to_have_text("Ejemplo resuelto: 64 dispositivos × 2.000 tokens/s con E = 0,9")
        page.fill("#calc input[name=devices]", "1,8,64")  # a sweep: its units line names the unit
        page.click("#calc .run")
        expect(notes.locator("li").first).to_have_text("rendimientos en tokens/s")
        expect(title).to_have_text("")
        page.fill("#calc input[name=unit]", "")  # blank: samples/s again
        page.click("#calc .run")
        expect(notes.locator("li").first).to_have_text("rendimientos en muestras/s")
        expect(page.locator("#error")).to_be_hidden()


def test_the_plan_tabs_missing_rate_names_what_the_page_offers_not_fit(capsys):
    """The plan tab with its rate field emptied said '(or --fit measured runs)': --fit reads a RUNS file, which the
    page has no field for. Its plan tab takes a fit's (or a prediction's) rate with the button the error now names,
    in the button's own words; the command line still offers --fit."""
    from dpscale.faces.cli import main
    from dpscale.faces.i18n import LABELS

    client = TestClient(create_app())
    said = {}
    for lang in ("en", "es"):
        r = client.post("/api/plan", json={"options": {"samples": "1.28e6", "devices": "8"}, "lang": lang})
        said[lang] = r.json()["error"]
        assert r.status_code == 422 and "--fit" not in said[lang]
        assert LABELS[lang]["web_take"] in said[lang]  # the button as the page labels it
    assert said["en"] == (
        "dpscale plan: error: --throughput: missing; allowed: a per-device throughput > 0 (or the button 'E(d) from "
        "the last prediction or fit', which fills it)"
    )
    assert said["es"] == (
        "dpscale plan: error: --throughput: falta; se admite: un rendimiento por dispositivo > 0 (o el botón «E(d) de "
        "la última predicción o ajuste», que lo rellena)"
    )
    for lang, cli in (("en", "(or --fit measured runs)"), ("es", "(o --fit con ejecuciones medidas)")):
        assert main(["plan", "--samples", "1.28e6", "-d", "8", "--lang", lang]) == 2
        assert capsys.readouterr().err.strip().endswith(cli)
    # another of plan's refusals is said as the command says it
    r = client.post("/api/plan", json={"options": {"samples": "1.28e6", "throughput": "0"}})
    assert "--throughput: got '0'; allowed: a finite per-device throughput > 0" in r.json()["error"]


def test_the_page_carries_its_failure_lines_in_every_language():
    """When the Spanish words never came (a first visit whose /api/labels failed) the page said 'dpscale: no answer
    from the server' in English: its only copy of the line was English. The server now writes the two failure lines
    of every language into the page, from the same labels /api/labels serves."""
    import json
    import re

    from dpscale.faces.i18n import LABELS, LANGS

    page = TestClient(create_app()).get("/").text
    carried = json.loads(re.search(r'<script type="application/json" id="fallback">(.*?)</script>', page, re.S)[1])
    assert set(carried) == set(LANGS)
    for lang in LANGS:
        assert carried[lang] == {k: LABELS[lang][k] for k in ("web_no_answer", "web_bad_answer")}
    assert carried["es"]["web_no_answer"] == "dpscale: el servidor no respondió"
    assert TestClient(create_app("es")).get("/").text.count('id="fallback"') == 1  # (serve --lang es: the same)


@pytest.mark.slow
def test_a_first_visit_whose_words_fail_says_so_in_the_language_asked_for():
    """/api/labels/es unreachable (or answering 502) on a first visit to ?lang=es: the line is Spanish."""
    from test_web import chromium, serving

    with serving() as url, chromium() as (browser, expect):
        for failing, said in (
            (lambda route: route.abort(), "dpscale: el servidor no respondió"),
            (lambda route: route.fulfill(status=502, body="Bad Gateway"), "dpscale: el servidor respondió 502 sin "
             "resultado"),
        ):  # fmt: skip
            page = browser.new_page()
            page.route("**/api/labels/es", failing)
            page.goto(f"{url}?lang=es")
            expect(page.locator("#error")).to_have_text(said)
            page.close()
        page = browser.new_page()  # English asked for: English, as before
        page.route("**/api/labels/en", lambda route: route.abort())
        page.goto(f"{url}?lang=en")
        expect(page.locator("#error")).to_have_text("dpscale: no answer from the server")
