"""The web page for a keyboard and a screen reader, in English and Spanish (a real Chromium, one per module)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.slow

TABS = ("calc", "predict", "fit", "batch", "memory", "pipeline", "plan")
# a form's labels → the words' keys of those whose box is open to the user (a law's unused parameters are disabled)
FIELDS = "ls => ls.filter((l) => !l.lastElementChild.disabled).map((l) => l.firstElementChild.dataset.l)"


@pytest.fixture(scope="module")
def web() -> Iterator[tuple[str, Any, Any]]:
    """The page's address, one browser for the module and Playwright's `expect`."""
    from clihelp import CHROMIUM, FLAGS, need_chromium, serving

    need_chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    with serving() as url, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield url, browser, sync_api.expect
        finally:
            browser.close()


def test_a_result_table_is_named_and_its_headings_head_their_columns(web):
    """A screen reader's list of tables said 'table' alone, with no name: the answer's title (or, where an answer
    has none, its tab) now names it, and a heading row's cells say they head columns (scope), as an answer's row
    labels say they head rows."""
    url, browser, expect = web
    page = browser.new_page()
    page.goto(url + "?lang=es")
    expect(page.locator("#result")).to_contain_text("115.200 muestras/s")
    title = "Ejemplo resuelto: 64 dispositivos × 2.000 muestras/s con E = 0,9"
    expect(page.get_by_role("table", name=title)).to_be_visible()
    assert page.eval_on_selector_all("#result th", "ths => ths.map((t) => t.scope)") == ["row"] * 8
    page.click("#tab-predict")
    title = "dpscale predict: bert-large, amp, lote 32, dgx-a100"
    expect(page.get_by_role("table", name=title)).to_be_visible()
    heads = page.eval_on_selector_all("#result thead th", "ths => ths.map((t) => [t.scope, t.textContent])")
    assert len(heads) == 14 and heads[0] == ["col", "dispositivos"] and {s for s, _ in heads} == {"col"}, heads
    assert page.locator("#result tbody th").count() == 0  # a sweep's rows are data, the size its first cell
    # a sweep without a title is named by its tab, in the language the menu switches to
    page.click("#tab-calc")
    page.select_option("#lang", "en")
    expect(page.locator("#tab-calc")).to_have_text("Calculator")
    page.fill("#calc input[name=devices]", "1,8,64")
    page.press("#calc input[name=devices]", "Enter")
    expect(page.get_by_role("table", name="Calculator")).to_be_visible()
    expect(page.locator("#result tbody tr")).to_have_count(3)
    expect(page.locator("#status")).to_have_text("Result: 3 rows")
    page.close()


def test_an_error_about_no_one_field_names_the_fields_it_lists_by_their_labels(web):
    """The calculator short of an input listed the command line's flags alone ('se admite: exactamente tres de
    --devices, --throughput, --efficiency/--law, --actual/--speedup'): a Spanish page's user, or a screen reader's,
    was left to guess that --actual is «Rendimiento real A». Each field it lists is now named by its label once,
    and none is marked, as none is wrong alone; the next good Calculate clears the line."""
    url, browser, expect = web
    page = browser.new_page()
    page.goto(url + "?lang=es")
    expect(page.locator("#result")).to_contain_text("115.200 muestras/s")
    page.fill("#calc input[name=devices]", "")
    page.press("#calc input[name=throughput]", "Enter")
    error = page.get_by_role("alert")
    expect(error).to_have_text(
        "dpscale calc: error: entradas recibidas: --throughput, --efficiency/--law; se admite: exactamente tres de "
        "--devices (Dispositivos d), --throughput (Rendimiento por dispositivo v), --efficiency (Eficiencia de "
        "escalado E)/--law (Ley de E(d)), --actual (Rendimiento real A)/--speedup (o aceleración S sobre un "
        "dispositivo) (la cuarta se despeja)"
    )
    assert page.locator("#calc [aria-invalid]").count() == 0
    page.select_option("#lang", "en")  # the same line in the page's new language, re-run by the switch
    expect(error).to_contain_text("exactly three of --devices (Devices d), --throughput (Per-device throughput v), ")
    page.fill("#calc input[name=devices]", "64")
    page.press("#calc input[name=devices]", "Enter")
    expect(error).to_be_hidden()
    expect(page.locator("#result")).to_contain_text("115,200 samples/s")
    page.close()


def test_the_keyboard_reaches_every_field_by_its_label_in_either_language(web):
    """From the tab list, the arrow keys open each tab and Tab then walks its fields in order, each named by its
    label in the page's language (the accessible name a screen reader says), to its Calculate button; the page's
    lang follows the menu, so the words are also spoken in their language."""
    from dpscale.faces.i18n import LABELS

    url, browser, expect = web
    page = browser.new_page()
    page.goto(url)
    expect(page.locator("#result")).to_contain_text("115,200 samples/s")
    for lang in ("es", "en"):
        page.select_option("#lang", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#tab-calc")).to_have_text(LABELS[lang]["web_calc"])
        page.focus("nav [aria-selected=true]")  # the tab list's one tab stop
        page.keyboard.press("Home")
        for i, tab in enumerate(TABS):
            if i:
                page.keyboard.press("ArrowRight")
            expect(page.locator(f"#tab-{tab}")).to_be_focused()
            expect(page.locator(f"#{tab}")).to_be_visible()
            # the fields a user can type in or choose from, in the form's order, by their labels' words
            wanted = page.eval_on_selector_all(f"#{tab} label", FIELDS)
            for key in [*wanted, "web_run"]:
                page.keyboard.press("Tab")
                expect(page.locator(":focus")).to_have_accessible_name(LABELS[lang][key])
            page.focus(f"#tab-{tab}")
    page.close()


def test_a_table_too_wide_scrolls_in_a_named_stop_of_the_tab_order(web):
    """At 200 % zoom of a 1280 px screen (640 px) the predictor's 14 columns are wider than the page: the form does
    not scroll sideways, the table scrolls in its box, and the box the browser puts in the tab order after Calculate
    was a nameless 'generic' stop; it is now a region named as its table, which the arrow keys scroll."""
    url, browser, expect = web
    page = browser.new_page(viewport={"width": 640, "height": 450})
    page.goto(url + "?lang=es")
    expect(page.locator("#result")).to_contain_text("115.200 muestras/s")
    page.focus("#tab-calc")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#result tbody tr")).to_have_count(6)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 640
    box = page.locator("#out .scroll")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth + 300")  # (1,210 px in 592)
    page.focus("#predict .run")
    page.keyboard.press("Tab")
    expect(box).to_be_focused()
    expect(box).to_have_role("region")
    expect(box).to_have_accessible_name("dpscale predict: bert-large, amp, lote 32, dgx-a100")
    page.keyboard.press("ArrowRight")
    # (a function, not an expression to eval: the page's Content-Security-Policy refuses eval)
    page.wait_for_function("() => document.querySelector('#out .scroll').scrollLeft > 0")
    page.close()


def test_an_error_leaves_no_empty_table_or_list_for_a_screen_reader(web):
    """After a sweep, an error emptied the table but left its box and the notes' list in the accessibility tree: a
    screen reader's landmarks said 'Calculator region', its tables an empty 'Calculator' table, and an empty list
    followed. An error (or a tab's blank) now hides them; the next answer brings them back, named as before."""
    url, browser, expect = web
    page = browser.new_page()
    page.goto(url)
    expect(page.locator("#result")).to_contain_text("115,200 samples/s")
    devices = page.locator("#calc input[name=devices]")
    devices.fill("1,8")
    devices.press("Enter")
    expect(page.locator("#status")).to_have_text("Result: 2 rows")
    expect(page.get_by_role("region", name="Calculator")).to_be_visible()
    expect(page.get_by_role("list")).to_have_count(1)  # the notes
    devices.fill("0")
    devices.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("--devices (Devices d): got '0'")
    for role in ("region", "table", "list"):
        expect(page.get_by_role(role)).to_have_count(0)
    devices.fill("1,8,64")
    devices.press("Enter")
    expect(page.get_by_role("table", name="Calculator").locator("tbody tr")).to_have_count(3)
    expect(page.get_by_role("region", name="Calculator")).to_be_visible()
    page.close()


def test_a_high_contrast_theme_still_shows_the_chosen_tab_and_calculate(web):
    """Forced colours (Windows' high-contrast themes) drop the page's backgrounds: the chosen tab, told by its blue
    fill alone, looked as every other (white, black text, 1 px black border, both), and Calculate, borderless, as a
    line of text. The chosen tab now takes the theme's selection colours and the button a border."""
    url, browser, expect = web
    page = browser.new_page()
    page.emulate_media(forced_colors="active")
    page.goto(url)
    expect(page.locator("#result")).to_contain_text("115,200 samples/s")
    look = "b => { const s = getComputedStyle(b); return [s.backgroundColor, s.color]; }"
    for tab in ("calc", "plan"):
        page.click(f"#tab-{tab}")
        chosen, other = page.locator(f"#tab-{tab}"), page.locator("#tab-fit")
        expect(chosen).to_have_attribute("aria-selected", "true")
        assert chosen.evaluate(look)[0] != other.evaluate(look)[0], tab
        assert chosen.evaluate(look)[0] != chosen.evaluate(look)[1], tab  # its words still seen on its fill
        run = page.locator(f"#{tab} .run")
        assert run.evaluate("b => parseFloat(getComputedStyle(b).borderTopWidth)") >= 1, tab
    page.close()


def test_the_tab_list_leaves_the_browser_s_own_keys_to_the_browser(web):
    """Alt+← is the browser's Back: on the tab list it opened the last tab instead (the arrow taken as the tabs'
    own, its default prevented), as Ctrl+Home did the first. A key held with Alt, Ctrl or Meta now passes by; the
    bare arrows still move between tabs."""
    url, browser, expect = web
    page = browser.new_page()
    page.goto(url)
    expect(page.locator("#result")).to_contain_text("115,200 samples/s")
    page.evaluate("window.kept = []; addEventListener('keydown', (e) => kept.push(e.key + ':' + e.defaultPrevented))")
    page.focus("#tab-predict")
    page.keyboard.press("ArrowRight")  # the tabs' own: to Fit my runs
    expect(page.locator("#tab-fit")).to_be_focused()
    for keys in ("Alt+ArrowLeft", "Alt+ArrowRight", "Control+Home", "Meta+End"):
        page.keyboard.press(keys)
    expect(page.locator("#tab-fit")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#fit")).to_be_visible()
    arrows = [k for k in page.evaluate("kept") if k.split(":")[0] in ("ArrowLeft", "ArrowRight", "Home", "End")]
    assert arrows == ["ArrowRight:true", "ArrowLeft:false", "ArrowRight:false", "Home:false", "End:false"]
    page.close()


def test_each_field_is_described_by_its_tab_s_hint_and_beside_an_error_by_both(web):
    """A form's hint ('Give three of d, v, E (or a law) and A; the fourth is solved. d takes 64, 8,16,32 or
    8..1024x2.') is no field's label, and no field pointed to it: a screen reader tabbing through the fields never
    said it (each field's accessible description was empty), and a field an error was about was described by the
    error alone. Every field is now described by its tab's hint, in the language the menu switches to, and a field
    an error names by the error and then the hint; the next good answer leaves the hint alone."""
    from dpscale.faces.i18n import LABELS

    url, browser, expect = web
    page = browser.new_page()
    page.goto(url)
    expect(page.locator("#result")).to_contain_text("115,200 samples/s")
    fields = 0
    for lang in ("es", "en"):
        page.select_option("#lang", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        for tab in TABS:
            page.click(f"#tab-{tab}")
            hint = LABELS[lang][f"web_{tab}_hint"]
            named = page.locator(f"#{tab} [name]")
            for i in range(named.count()):
                expect(named.nth(i)).to_have_accessible_description(hint)
                fields += 1
    assert fields == 2 * 72, fields  # every tab's every field, in both languages
    page.click("#tab-calc")
    devices, throughput = page.locator("#calc input[name=devices]"), page.locator("#calc input[name=throughput]")
    devices.fill("0")
    devices.press("Enter")
    error = "dpscale calc: error: --devices (Devices d): got '0'; allowed: whole numbers from 1 to 10,000,000"
    expect(page.get_by_role("alert")).to_contain_text(error)
    said = page.text_content("#error")
    hint = LABELS["en"]["web_calc_hint"]
    expect(devices).to_have_accessible_description(f"{said} {hint}")
    expect(throughput).to_have_accessible_description(hint)
    # an error about another field: the first is described by its hint alone again, not by the new error (review
    # MS's mutant of mark()'s `describe(el)`: devices kept 'error hint', the error now about the throughput)
    devices.fill("64")
    throughput.fill("0")
    throughput.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("--throughput (")
    expect(throughput).to_have_accessible_description(f"{page.text_content('#error')} {hint}")
    expect(devices).to_have_accessible_description(hint)
    throughput.fill("2000")
    devices.press("Enter")
    expect(page.locator("#result")).to_contain_text("115,200 samples/s")
    expect(devices).to_have_accessible_description(hint)
    page.close()


def test_an_answer_that_repeats_the_last_one_is_said_again(web):
    """A screen reader says a live region's words when they change between two of the accessibility trees Chromium
    sends it (at most every 150 ms): Calculate pressed again on the worked example, or a sweep giving 'Result: 3
    rows' again, or the same error again, left the words where they were, and nothing was said. While a request is
    awaited the answer's words now leave the tree (the title's line and the error keep their look), and they come
    back no sooner than 300 ms later — in the one status line, so the title is in the tree once."""
    url, browser, expect = web
    page = browser.new_page()
    page.goto(url)
    title = "Worked example: 64 devices × 2,000 samples/s at E = 0.9"
    status = page.get_by_role("status").filter(has_text=title)
    expect(status).to_have_count(1)
    # said once (the visible line is the table's name, not a second line of text): '- status: "Worked example: …"'
    assert page.locator("#out").aria_snapshot().count(f': "{title}"') == 1
    held = []
    page.route("**/api/calc", lambda route: held.append(route))
    page.click("#calc .run")
    expect(page.locator("#out")).to_have_attribute("aria-busy", "true")
    expect(page.locator("#out-title")).to_have_text(title)  # still seen, dimmed
    # its words are out of the tree (the table keeps its name): they stayed, and so did not change, before
    assert f': "{title}"' not in page.locator("#out").aria_snapshot()
    held.pop().continue_()
    expect(status).to_have_count(1)
    page.unroute("**/api/calc")
    # answered at once, the words are still away long enough for a sending of the tree between
    page.evaluate("""() => {
        window.seen = [];
        const note = () => seen.push([document.querySelector('#status').textContent,
                                      document.querySelector('#error').getAttribute('aria-hidden'), performance.now()]);
        new MutationObserver(note).observe(document.querySelector('#out'),
                                           { subtree: true, childList: true, characterData: true, attributes: true });
    }""")
    devices = page.locator("#calc input[name=devices]")
    devices.fill("1,8,64")
    devices.press("Enter")
    expect(page.get_by_role("status").filter(has_text="Result: 3 rows")).to_have_count(1)
    page.evaluate("seen.length = 0")
    devices.press("Enter")  # the same sweep again
    expect(page.locator("#out")).not_to_have_attribute("aria-busy", "true")
    expect(page.get_by_role("status").filter(has_text="Result: 3 rows")).to_have_count(1)
    seen = page.evaluate("seen")
    gone = next(t for text, _, t in seen if text == "")
    back = next(t for text, _, t in seen if text == "Result: 3 rows")
    assert back - gone >= 250, seen  # (300 ms, as seen by an observer called after the words left)
    # the same error twice: it leaves the tree while awaited (still shown), and comes back as an alert
    devices.fill("0")
    devices.press("Enter")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("--devices (Devices d): got '0'")
    page.route("**/api/calc", lambda route: held.append(route))
    devices.press("Enter")
    expect(page.locator("#out")).to_have_attribute("aria-busy", "true")
    expect(page.locator("#error")).to_be_visible()
    expect(alert).to_have_count(0)
    held.pop().continue_()
    expect(alert).to_contain_text("--devices (Devices d): got '0'")
    page.unroute("**/api/calc")
    page.close()


def test_the_tab_list_is_named_in_the_page_s_language(web):
    """Review MN: a screen reader entering the tab list said 'tab list' with no name ('tablist' and '' in Chromium's
    tree, in either language), so its list of landmarks and widgets said nothing of what the seven tabs are. It is
    now named, in the language the menu switches to."""
    url, browser, expect = web
    page = browser.new_page()
    page.goto(url + "?lang=es")
    expect(page.locator("#result")).to_contain_text("115.200 muestras/s")
    tabs = page.get_by_role("tablist")
    expect(tabs).to_have_accessible_name("Herramientas de dpscale")
    expect(tabs.get_by_role("tab")).to_have_count(7)
    page.select_option("#lang", "en")
    expect(tabs).to_have_accessible_name("dpscale's tools")
    page.close()


def test_the_chart_is_a_figure_named_as_its_answer_and_an_image_that_says_what_it_plots(web):
    """Review MN: the chart's figure had no name ('figure' and '' in Chromium's tree) and its image said the same
    words on every tab, 'scaling efficiency E against devices (log scale), with its band where there is one': not
    which answer it plots, over which sizes, whether there is a band, nor the fit's dots of measured E. The figure
    is now named as its table is (the answer's title, or its tab), and the image says its sizes, its band where it
    draws one and its dots, in the language the menu switches to (the table beside it lists the numbers)."""
    url, browser, expect = web
    page = browser.new_page()
    page.goto(url + "?lang=es")
    expect(page.locator("#result")).to_contain_text("115.200 muestras/s")
    figure, chart = page.locator("#chart"), page.locator("#chart svg")
    page.click("#tab-predict")
    expect(figure).to_have_role("figure")
    expect(figure).to_have_accessible_name("dpscale predict: bert-large, amp, lote 32, dgx-a100")
    expect(chart).to_have_role("img")
    expect(chart).to_have_accessible_name(
        "eficiencia de escalado E frente a dispositivos d de 1 a 1.024 (escala logarítmica); "
        "sombreado: de E inf a E sup"
    )
    page.select_option("#lang", "en")
    expect(figure).to_have_accessible_name("dpscale predict: bert-large, amp, batch 32, dgx-a100")
    expect(chart).to_have_accessible_name(
        "scaling efficiency E against devices d from 1 to 1,024 (log scale); shaded: E lo to E hi"
    )
    page.click("#tab-fit")  # the runs 1, 8, 16 and 32 as dots, the fit to 1,024 with its band
    expect(figure).to_have_accessible_name(re.compile("^fitted law: allreduce"))
    expect(figure).to_have_accessible_name(page.text_content("#out-title") or "")  # (its title's whole line)
    expect(chart).to_have_accessible_name(
        "scaling efficiency E against devices d from 1 to 1,024 (log scale); shaded: E lo to E hi; "
        "dots: E measured at 4 sizes"
    )
    page.click("#tab-plan")  # the worked example's E, no band
    expect(chart).to_have_accessible_name("scaling efficiency E against devices d from 1 to 256 (log scale)")
    page.click("#tab-calc")  # a sweep without a title: named by its tab, as its table
    devices = page.locator("#calc input[name=devices]")
    devices.fill("1,8,64")
    devices.press("Enter")
    expect(page.get_by_role("figure", name="Calculator")).to_be_visible()
    expect(chart).to_have_accessible_name("scaling efficiency E against devices d from 1 to 64 (log scale)")
    page.select_option("#lang", "es")
    expect(page.get_by_role("figure", name="Calculadora")).to_be_visible()
    expect(chart).to_have_accessible_name(
        "eficiencia de escalado E frente a dispositivos d de 1 a 64 (escala logarítmica)"
    )
    # a band said only where it is drawn: over every size (review MS's mutant `recs.some(banded)` said one for an
    # answer whose records hold it at some sizes alone, and drew none)
    page.evaluate("""() => chart({records: [{devices: 1, efficiency: 1, efficiency_lo: 1, efficiency_hi: 1},
                                            {devices: 8, efficiency: 0.9}]})""")
    expect(chart).to_have_accessible_name(
        "eficiencia de escalado E frente a dispositivos d de 1 a 8 (escala logarítmica)"
    )
    assert page.locator("#chart svg polygon.band").count() == 0
    page.close()


def test_an_answer_superseded_before_it_is_said_does_not_come_back(web):
    """Review MK's mutant: tell()'s `if (mine !== saying) return;` left out: Calculate pressed twice 150 ms apart,
    the first answer back before the second press, had its words still waiting (300 ms after they left the tree)
    when the second request hushed them; they came back into #status ('Worked example: 64 devices × 2,000 samples/s at
    E = 0.9') while the second request was awaited, so a screen reader said an answer the user had already
    replaced. The newest tell alone comes back: #status stays empty until the second answer."""
    url, browser, expect = web
    page = browser.new_page()
    page.goto(url)
    title = "Worked example: 64 devices × 2,000 samples/s at E = 0.9"
    expect(page.get_by_role("status").filter(has_text=title)).to_have_count(1)
    held: list[Any] = []
    seen = [0]

    def second_held(route: Any) -> None:
        seen[0] += 1
        route.continue_() if seen[0] == 1 else held.append(route)

    page.route("**/api/calc", second_held)
    page.evaluate("""async () => {
        const run = document.querySelector('#calc .run');
        run.click();
        await new Promise((r) => setTimeout(r, 150));
        run.click();
    }""")
    page.wait_for_timeout(700)  # past the first answer's 300 ms
    assert len(held) == 1
    assert page.text_content("#status") == ""
    held.pop().continue_()
    expect(page.get_by_role("status").filter(has_text=title)).to_have_count(1)
    page.unroute("**/api/calc")
    page.close()
