"""The web page's API (FastAPI app): bodies, pasted tables, fields named as the page names them."""

from __future__ import annotations

import json

import pytest
from clihelp import run

from dpscale.errors import DpscaleError

# Cases a fifth mutation sweep (sources.measure's pure logic, predict_validate, fit_validate, predict_inputs, the
# plan and web faces, notes) found no test could fail on. Each expected value is derived in its docstring or comment,
# from the docs or the arithmetic, not read back from the code. None of these starts torch or a process.


# ---------------------------------------------------------------- faces.web.app

# the fit field's forms, as its refusals say them (review LY: the empty field's said devices:throughput alone, a JSON
# array's 'one run a line — devices:throughput', where the field reads '1:1000 8:7500' as two runs)
BOX_EN = (
    "measured runs as devices:throughput, one or more a line (1:1000 8:7500), a JSON object a line "
    '({"devices": 8, "throughput": 7500}) or rows under a header devices,throughput'
)
BOX_ES = (
    "ejecuciones medidas como dispositivos:rendimiento, una o más por línea (1:1000 8:7500), un objeto JSON por línea "
    '({"devices": 8, "throughput": 7500}) o filas bajo una cabecera devices,throughput'
)


def test_a_switch_left_off_is_left_out():
    """{"sequence_parallel": false} is the box unticked: the same as not sending it."""
    from dpscale.faces.web.app import run_command

    assert run_command("memory", {"sequence_parallel": False}) == run_command("memory", {})


def test_a_null_field_is_left_out_as_a_blank_one():
    """argv_from: 'blanks are left out' — a field sent as null is one left empty, not the text 'None' handed to the
    parser: calc on 64 × 2,000 at E 0.9 with "actual": null is the worked example, 115,200/s."""
    from dpscale.faces.web.app import run_command

    given = {"devices": "64", "throughput": "2000", "efficiency": "0.9"}
    out = run_command("calc", {**given, "actual": None})
    assert out == run_command("calc", {**given, "actual": ""}) == run_command("calc", given)
    assert out["records"]["actual_throughput"] == 115200.0


def test_a_key_the_command_has_no_option_for_is_told_its_options_not_its_file():
    """fit's RUNS is a positional (a file: the page has none), so `"runs"` names no option; the refusal lists the
    options the fit tab may send (fit --help's, less --plot, --only, --json, --csv and --lang) and not RUNS."""
    from dpscale.faces.web.app import run_command

    with pytest.raises(DpscaleError) as got:
        run_command("fit", {"runs": "runs.csv"})
    assert str(got.value) == (
        "options: got 'runs'; allowed: this command's options: at, confidence, gpus_per_node, law, min_efficiency, "
        "point, resamples, seed, target_throughput, unit"
    )


def test_a_spanish_page_refuses_a_dot_grouped_number_in_a_pasted_table():
    """On a Spanish page 2.000 is two thousand written the Spanish way, which fit refuses rather than read as 2 —
    in a pasted table with a header as in points pasted without one."""
    from dpscale.faces.web.app import run_command

    with pytest.raises(DpscaleError, match="2.000"):
        run_command("fit", {"point": "devices,throughput\n1,1000\n2.000,1900"}, "es")
    assert run_command("fit", {"point": "devices,throughput\n1,1000\n2,1900"}, "es")["records"][0]["devices"] == 1


def test_a_header_naming_its_columns_after_a_first_word_is_read_as_a_header():
    """'Nº dispositivos rendimiento' names the devices column: it goes to the CSV reader, whose error names the
    columns it found, not to the run parser as a point 'Nº:dispositivos:rendimiento'."""
    from dpscale.faces.web.app import run_command

    with pytest.raises(DpscaleError, match=r"missing columns devices, throughput \(found nº dispositivos"):
        run_command("fit", {"point": "Nº dispositivos rendimiento\n1 1000\n2 1900"})


@pytest.mark.parametrize("text, runs", [
    ("8;7500;0.25", ["8:7500:0.25"]),  # a spreadsheet row D;X;T (a decimal-comma locale's separator)
    ("1;1000\r8;7500", ["1:1000", "8:7500"]),  # rows ended by a bare carriage return
    ("8,,7500", ["8,,7500"]),  # an empty cell: passed on as typed, for the CLI to name
])  # fmt: skip
def test_pasted_rows_become_runs(text, runs):
    from clihelp import pasted_runs

    assert pasted_runs(text) == runs


def test_a_table_past_the_page_s_rows_is_refused_after_the_run_too(monkeypatch):
    """fit without --at sweeps no typed flag: its rows, the 4 measured sizes and 2× and 4× the largest (16, 32: its
    --help's default), are counted when the table comes back — 6 rows past a page of 3."""
    from dpscale.faces.web import app

    monkeypatch.setattr(app, "MAX_PAGE_ROWS", 3)
    with pytest.raises(DpscaleError, match="--at: 6 sizes; allowed: at most 3 on the page"):
        app.run_command("fit", {"point": "1:1000 2:1900 4:3600 8:6800"})


def test_the_fit_law_menu_offers_auto():
    """`dpscale fit --law` defaults to auto (the law chosen from the runs): the page's menu offers it first."""
    from dpscale.faces.web.app import options

    assert options()["fit_laws"][0] == "auto"


def test_an_overflow_in_a_command_is_one_line_not_a_server_error(monkeypatch):
    """A product past floating point (an OverflowError) answers 422 with the CLI's one line, as `dpscale` says it."""
    from fastapi.testclient import TestClient

    from dpscale.faces.web import app

    def overflowing(command, options, lang="en"):  # noqa: ANN001, ANN202, ARG001
        raise OverflowError("(34, 'Numerical result out of range')")

    monkeypatch.setattr(app, "run_command", overflowing)
    r = TestClient(app.create_app()).post("/api/calc", json={"options": {}})
    assert r.status_code == 422
    assert r.json()["error"].startswith("dpscale calc: error: a number too large to compute with")


def test_plan_s_efficiency_file_is_not_read_on_the_page():
    """A file path typed into the page would be read on the server: --efficiency-file stays on the command line."""
    from dpscale.faces.web.app import run_command

    with pytest.raises(DpscaleError, match="efficiency_file: got '/etc/passwd'; allowed: the command line"):
        run_command("plan", {"efficiency_file": "/etc/passwd"})


# Review 43 (H): an adversarial read of 4c5add9..34e6623; each test failed before its fix.


# 1,000, 1,900, 3,600 and 6,800 tokens/s at 1, 2, 4 and 8 devices, as a CSV with a unit column
TOKENS = "devices,throughput,unit\n1,1000,tokens/s\n2,1900,tokens/s\n4,3600,tokens/s\n8,6800,tokens/s\n"


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


# Review I (session 44): mutation testing of the day's code — each test here fails on a small change to it that
# the other tests let through (a signal handler left set, MPLBACKEND not given back, a unit said in another
# spelling, an Accept-Language read too literally, …).


# the web server: the language a request asks for, and the failure lines it writes into the page


def _client():
    """The page's server in a test client (skipped without the web extra, as the other web tests are)."""
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx2")
    from fastapi.testclient import TestClient

    from dpscale.faces.web.app import create_app

    return TestClient(create_app())


SPANISH_CAP = (
    "dpscale: error: cuerpo: más de 1.048.576 bytes; se admite: como mucho 1.048.576 (los campos de un formulario)"
)


@pytest.mark.parametrize(
    "asked",
    ["es;q=0.9", "fr-FR, es;q=0.5", "ES", "es-MX", " es ;q=1", "en;q=0.1, es", "en;q=0.5, es;q=0.8", "en;q=0, es"],
)
def test_a_body_too_big_is_refused_in_spanish_however_the_header_asks(asked):
    """Accept-Language as browsers and proxies write it: with a quality, after a language the page lacks and a
    space, in capitals, with a region."""
    client = _client()
    from dpscale.faces.web.app import MAX_BODY_BYTES

    big = {"options": {"point": "1:1000\n" * (MAX_BODY_BYTES // 7 + 1)}, "lang": "es"}
    r = client.post("/api/fit", json=big, headers={"Accept-Language": asked})
    assert r.status_code == 413 and r.json()["error"] == SPANISH_CAP


@pytest.mark.parametrize("asked", ["es;q=0, en", "en, es", "es;q=0.5, en", "es;q=abc", "es;q=2", "de"])
def test_a_body_too_big_is_refused_in_english_where_the_header_prefers_it(asked):
    """The q-values rank the languages (RFC 9110): Spanish at q=0 is refused, at 0.5 loses to English's implied 1;
    a malformed q is no preference; a list of neither language is English."""
    from dpscale.faces.web.app import MAX_BODY_BYTES

    big = {"options": {"point": "1:1000\n" * (MAX_BODY_BYTES // 7 + 1)}, "lang": "es"}
    r = _client().post("/api/fit", json=big, headers={"Accept-Language": asked})
    assert r.status_code == 413 and r.json()["error"].startswith("dpscale: error: body: over 1,048,576 bytes")


@pytest.mark.parametrize(
    ("call", "english", "spanish"),
    [
        (lambda c, h: c.get("/nope", headers=h), "GET /nope: Not Found; allowed: POST to /api/COMMAND, GET / or "
         "/api/labels/LANG or /api/options", "GET /nope: no encontrado; se admite: POST a /api/ORDEN, GET / o "
         "/api/labels/IDIOMA o /api/options"),
        (lambda c, h: c.get("/api/predict", headers=h), "GET /api/predict: Method Not Allowed; allowed: POST to "
         "/api/COMMAND, GET / or /api/labels/LANG or /api/options", "GET /api/predict: método no permitido; se "
         "admite: POST a /api/ORDEN, GET / o /api/labels/IDIOMA o /api/options"),
        (lambda c, h: c.post("/api/calc", content=b"[1]", headers={**h, "content-type": "application/json"}),
         'body: allowed: a JSON object {"options": {"flag": "value"}, "lang": "en"}',
         'cuerpo: se admite: un objeto JSON {"options": {"flag": "valor"}, "lang": "es"}'),
        # a language the page lacks: said in the one the request asks for, as every refusal here (it was English)
        (lambda c, h: c.get("/api/labels/de", headers=h), "lang: got 'de'; allowed: en, es",
         "lang: se recibió 'de'; se admite: en, es"),
    ],
)  # fmt: skip
def test_the_server_s_own_refusals_are_said_in_the_language_asked(call, english, spanish):
    """A wrong path, a GET on a command, a body that is no object: FastAPI's refusals, said by the server before any
    body "lang" is read, were English on the Spanish page; now in the language Accept-Language prefers."""
    client = _client()
    for asked, line in (("es-ES, es;q=0.9", spanish), ("en-US", english), ("en;q=0.2, es", spanish), ("", english)):
        r = call(client, {"Accept-Language": asked} if asked else {})
        assert r.status_code in (404, 405, 422) and r.json()["error"] == f"dpscale: error: {line}", asked


def test_the_failure_lines_carried_cannot_end_the_pages_script(monkeypatch):
    """The lines are JSON inside a <script>: a '</script>' in a label (a translation's) is escaped, so the page
    still parses and the line reads as written."""
    import re

    from dpscale.faces.i18n import LABELS

    said = "dpscale: no answer </script><b>from the server</b>"
    monkeypatch.setitem(LABELS["en"], "web_no_answer", said)
    page = _client().get("/").text
    carried = re.search(r'<script type="application/json" id="fallback">(.*?)</script>', page, re.S)[1]
    assert json.loads(carried)["en"]["web_no_answer"] == said
    assert "<b>" not in page


# Review AK (session 46): one planning job chained across commands — predict → plan, memory, batch; fit → plan
# --fit; a --system-file against raw flags — checking that the numbers agree between them, in both languages, on the
# command line, the library and the page's API.


def test_the_page_s_prediction_has_the_command_line_s_rows():
    from fastapi.testclient import TestClient

    from dpscale.faces.web.app import create_app

    opts = {"model": "llama3-8b", "precision": "bf16", "batch": "4", "gpu": "h100-80gb", "system": "dgx-h100",
            "devices": "8..64x2"}  # fmt: skip
    page = TestClient(create_app()).post("/api/predict", json={"options": opts, "lang": "es"}).json()
    assert [r["tokens_per_sample"] for r in page["records"]] == [8192] * 4
    assert [round(r["efficiency"], 6) for r in page["records"]] == [0.962946, 0.954687, 0.947458, 0.940999]


# Session 44: an efficiency file that states two throughput units is refused, not planned in samples/s.


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


# Session 45's own changes.


# a field's name without its remark is one rule (app.field_name): the page's error lines take it from the server's
# words ('name:KEY'), as its notes do — index.html's mark() had its own copy of the same regular expression
def test_the_page_names_a_field_by_the_server_s_rule_not_a_copy_of_it():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from dpscale.faces.web.app import create_app, field_name

    words = TestClient(create_app()).get("/api/labels/es").json()
    assert words["name:web_at"] == field_name("web_at", "es") == "Tamaños que predecir"
    assert words["web_at"].startswith("Tamaños que predecir (")  # the label keeps its remark
    assert "name:web_devices" not in words or words["name:web_devices"] != words["web_devices"]
    from importlib.resources import files

    page = files("dpscale.faces.web").joinpath("index.html").read_text(encoding="utf-8")
    assert "words[`name:${key}`]" in page and ".replace(/\\s+\\([^()]*\\)" not in page


def test_a_pasted_table_s_per_device_unit_is_refused_by_its_field_as_a_file_s():
    """A pasted table stating tokens/s/gpu was refused as '--unit: got …', the unit field the user left blank, while
    `fit FILE` read the same table: both refuse it now as the runs' own unit, the page by its runs field (--point)."""
    from dpscale.faces.i18n import say_error
    from dpscale.faces.web.app import run_command

    table = "devices,throughput,unit\n1,100,tokens/s/gpu\n2,190,tokens/s/gpu\n4,360,tokens/s/gpu\n"
    for lang, said in (("en", "got 'tokens/s/gpu'; allowed: the unit without"), ("es", "se recibió 'tokens/s/gpu'")):
        with pytest.raises(DpscaleError) as e:
            run_command("fit", {"point": table}, lang)
        assert str(say_error(e.value, lang)).startswith(f"--point, unit: {said}")
    assert run_command("fit", {"point": table.replace("/gpu", "")})["report"]["unit"] == "tokens/s"


def test_the_page_fits_at_most_300_runs():
    """1,000 runs passed every page cap (2,000 rows, 2,000,000 resamples × sizes) and took 10-17 s and 230 MB a request
    (review EO; 500 runs 1.35 s, 300 0.76 s here): past 300 the page refuses before any fit, in both languages, and
    300 are fitted."""
    from fastapi.testclient import TestClient

    from dpscale.faces.web import app

    runs = lambda n: " ".join(f"{d}:{900 * d + 100}" for d in range(1, n + 1))  # noqa: E731
    client = TestClient(app.create_app())
    said = {
        "en": "--point: 301 runs; allowed: at most 300 on the page (the command line takes more)",
        "es": "--point: 301 ejecuciones; se admite: como mucho 300 en la página (la línea de órdenes admite más)",
    }
    for lang, line in said.items():
        r = client.post("/api/fit", json={"options": {"point": runs(301)}, "lang": lang})
        assert r.status_code == 422 and r.json()["error"].endswith(line)
    ok = client.post("/api/fit", json={"options": {"point": runs(300)}, "lang": "en"})
    assert ok.status_code == 200 and len(ok.json()["report"]["measured"]) == 300


def test_a_body_s_unknown_lang_is_refused_in_the_language_the_request_asks_for():
    """{"lang": "de"} cannot say its own refusal: it was English whatever Accept-Language asked, where the server's
    other refusals said before a body's "lang" is read follow the header."""
    client = _client()
    body = {"options": {"devices": "8", "throughput": "100", "efficiency": "0.9"}, "lang": "de"}
    for asked, line in (("es", "lang: se recibió 'de'; se admite: en, es"), ("", "lang: got 'de'; allowed: en, es")):
        r = client.post("/api/calc", json=body, headers={"Accept-Language": asked} if asked else {})
        assert r.status_code == 422 and r.json()["error"] == f"dpscale calc: error: {line}", asked


def test_the_api_takes_a_language_in_any_case_as_the_command_line_takes_its_names():
    """--lang ES, "lang": "ES" and /api/labels/ES were refused while --law USL and --algorithm RING were taken."""
    client = _client()
    body = {"options": {"devices": "8", "throughput": "100", "efficiency": "0.9"}}
    said = {lang: client.post("/api/calc", json={**body, "lang": lang}).json() for lang in ("es", "ES", "Es")}
    assert said["ES"] == said["Es"] == said["es"] and "error" not in said["es"]
    assert client.get("/api/labels/ES").json() == client.get("/api/labels/es").json()
    assert client.get("/api/labels/ES").json()["web_calc"] == "Calculadora"
    r = client.post("/api/calc", json={**body, "lang": "ESS"})
    assert r.status_code == 422 and r.json()["error"] == "dpscale calc: error: lang: got 'ESS'; allowed: en, es"


# Review HF: a mutation pass over today's web/app lines; each test failed on its mutant and passes on the code.


def test_a_refused_body_whose_lang_is_written_in_capitals_is_refused_in_that_language():
    """The refusal's language is read again from the body (the command's own read is in the try): "ES" there must
    be lang_named too, or a refusal asked in "ES" falls back to Accept-Language (English here)."""
    client = _client()
    body = {"options": {"devices": "x", "throughput": "100", "efficiency": "0.9"}}
    said = {lang: client.post("/api/calc", json={**body, "lang": lang}).json() for lang in ("es", "ES")}
    assert said["ES"] == said["es"] == {"error": "dpscale calc: error: --devices: se recibió 'x'; se admite: números "
                                        "enteros de 1 a 10.000.000: N, una lista N1,N2,..., o un rango A..B, A..BxF "
                                        "(geométrico, F > 1), A..B+S"}  # fmt: skip


def test_a_405_refusal_keeps_the_allow_header():
    """refusal() carries an HTTP error's headers: a 405 says which methods the path takes (RFC 9110 asks for it)."""
    r = _client().put("/api/labels/es")
    assert r.status_code == 405 and sorted(r.headers["allow"].split(", ")) == ["GET", "HEAD"]  # (in either order)


# Review HO: the fit field split a pasted run at every gap, so '1:1 000' (or '1:1\u202f000', a spreadsheet's
# thousands) became the runs '1:1' and '000', refused as "--point: got '000'" — a fragment, not what was pasted,
# where `fit --point '1:1 000'` names the run and the thousands. A gap separates runs only before the next D:.


@pytest.mark.parametrize("gap", [" ", "\u00a0", "\u202f"])
def test_a_pasted_run_with_thousands_grouped_by_a_space_is_told_as_the_command_line_tells_it(capsys, gap):
    from dpscale.faces.web.app import pasted_runs_unit, run_command

    assert pasted_runs_unit(f"1:1{gap}000 8:7500\n16:14000")[0] == [f"1:1{gap}000", "8:7500", "16:14000"]
    with pytest.raises(DpscaleError) as exc:
        run_command("fit", {"point": f"1:1{gap}000\n2:1900\n8:7000"}, "en")
    assert str(exc.value) == (f"--point 1:1 000, throughput: got {repr(f'1{gap}000')}; allowed: a number without "
                              "thousands separators: 2000, not 2,000")  # fmt: skip
    rc, _, err = run(capsys, "fit", "--point", f"1:1{gap}000", "--point", "2:1900", "--point", "8:7000")
    assert rc == 2 and err == f"dpscale fit: error: {exc.value}\n"
    # runs a gap separates are read as before
    assert pasted_runs_unit("1:1000 8:7500, 16:14000\n32 : 26000")[0] == ["1:1000", "8:7500", "16:14000", "32:26000"]


# Review HT: the change above kept every gap not before a D: inside the run before it, so a stray word or a run cut
# short joined the last run: '1:1000 foo 8:7500' was refused as "--point 1:1000 foo, throughput: got '1000 foo';
# allowed: a number from 1e-9 to 1e15" — a range 1000 is inside — where `fit --point 1:1000 --point foo` names 'foo'
# as a run. A gap joins only a group of three digits to a number that can be grouped ('1:1 000', '1:1 000 000').


@pytest.mark.parametrize(
    ("pasted", "bad"),
    [("1:1000 foo 8:7500", "foo"), ("1:1000 2:1900 8:7500 16", "16"), ("1:1000 2 8:7500", "2"),
     ("1:1000 2:1900 8:7500 100", "100")],
)  # fmt: skip
def test_a_gap_joins_only_a_thousands_group_so_a_stray_word_is_named_as_a_run(capsys, pasted, bad):
    from dpscale.faces.web.app import pasted_runs_unit, run_command

    with pytest.raises(DpscaleError) as exc:
        run_command("fit", {"point": pasted}, "en")
    said = f"--point: got {bad!r}; allowed: DEVICES:THROUGHPUT, e.g. 8:5120 (or D:X:STEP_SECONDS)"
    assert str(exc.value) == said
    rc, _, err = run(capsys, "fit", *[a for r in pasted.split() for a in ("--point", r)])
    assert rc == 2 and err == f"dpscale fit: error: {said}\n"  # as the command line says it, a run a flag
    # the groups of a number stay its own: 1 000 000, 7 000.5, under any gap; 1000 000 is no grouping
    got = pasted_runs_unit("1:1 000 000 8:7\u00a0000.5 16:1000 000\t32:2\u202f000")[0]
    assert got == ["1:1 000 000", "8:7\u00a0000.5", "16:1000", "000", "32:2\u202f000"]


# Review HV: since the gap split (0cea316, kept by a6cfd9a) a leading comma before a run left an empty run before it:
# ',1:1000 8:7500' or a line ', 8:7500' (a list pasted comma first) was refused as "--point: got ''", a run nobody
# typed, where 2935745 read both runs. A comma before a D: separates runs; none before the first leaves nothing.
@pytest.mark.parametrize("pasted", [",1:1000 8:7500", ", 1:1000 8:7500", "1:1000\n, 8:7500", ";,1:1000\t8:7500"])
def test_a_comma_before_the_first_run_of_a_line_leaves_no_empty_run(pasted):
    from dpscale.faces.web.app import pasted_runs_unit, run_command

    assert pasted_runs_unit(pasted)[0] == ["1:1000", "8:7500"]
    fit = run_command("fit", {"point": pasted, "at": "16"}, "en")
    assert fit == run_command("fit", {"point": "1:1000 8:7500", "at": "16"}, "en")


def test_a_gap_joins_three_digits_only_after_a_groupable_number():
    """Mutation review HW: _gap_runs' edges were open (a two-digit group, a group after a decimal part, a leading 0,
    the third field of D:X:STEP_SECONDS): '1:1 00' is two runs, '7 000.5 000' stops at the decimal part, '0 000' is
    no grouping, and '8:2:1 000' groups its third field."""
    from dpscale.faces.web.app import pasted_runs_unit

    got = pasted_runs_unit("1:1 00 2:7 000.5 000 4:0 000 8:2:1 000")[0]
    assert got == ["1:1", "00", "2:7 000.5", "000", "4:0", "000", "8:2:1 000"]


# Review HX of 6f22224: its mirror, a list pasted comma last ('1:1000,' then '8:7500,', as a Python or JSON list is
# written, or a CSV row with an empty last cell '8,7500,') kept the comma on the run, refused as "--point 1:1000,,
# throughput: got '1000,'". A comma after a line's last run ends it, as one before its first begins it.
@pytest.mark.parametrize("pasted", ["1:1000,\n8:7500,", "1:1000, 8:7500,", "1:1000 ,\n8:7500", "1,1000,\n8,7500,"])
def test_a_comma_after_the_last_run_of_a_line_leaves_no_comma_on_it(pasted):
    from dpscale.faces.web.app import pasted_runs_unit, run_command

    assert pasted_runs_unit(pasted)[0] == ["1:1000", "8:7500"]
    fit = run_command("fit", {"point": pasted, "at": "16"}, "es")
    assert fit == run_command("fit", {"point": "1:1000 8:7500", "at": "16"}, "es")


# Review HZ of 917350d: its rstrip(',') then rstrip() took one run of commas and one of gaps, so a line ending in
# commas with a gap between them kept one: '1:1000, ,' (a list with an empty last item) and the CSV row '8,7500, ,'
# (two empty last cells written ', ') were still refused, "got '1000,'". Every comma and gap after a line's last run
# is taken off; a decimal comma inside a run ('8:7,5') is no trailing one.
# (review IF: a line of commas alone, the empty row of a list, is no run either: a loop stopping at its first
# character, `while end > 1`, kept ',' as a run and passed every case above)
@pytest.mark.parametrize("pasted", ["1:1000, ,\n8:7500", "1:1000,\u00a0,\n8:7500, , ,", "1,1000, ,\n8,7500,\t,",
                                    "1:1000\n,\n8:7500", "1:1000\n , ,\n8:7500"])  # fmt: skip
def test_commas_and_gaps_after_the_last_run_of_a_line_all_come_off(pasted):
    from dpscale.faces.web.app import pasted_runs_unit, run_command

    assert pasted_runs_unit(pasted)[0] == ["1:1000", "8:7500"]
    plain = run_command("fit", {"point": "1:1000 8:7500", "at": "16"})
    assert run_command("fit", {"point": pasted, "at": "16"}) == plain
    assert pasted_runs_unit("1:1000, ,\n8:7,5, ,", dot_groups=True)[0] == ["1:1000", "8:7,5"]


@pytest.mark.parametrize("command, options", [
    ("calc", {"devices": "1..10000000", "throughput": "100", "efficiency": "0.9"}),
    ("predict", {"devices": "1..200000"}),
    ("plan", {"devices": "1..200000+1", "throughput": "100", "efficiency": "0.9", "samples": "1e9"}),
])  # fmt: skip
@pytest.mark.parametrize("lang, said", [
    ("en", "--devices: over 100,000 sizes; allowed: at most 2,000 on the page (the command line takes up to "
           "100,000)"),
    ("es", "--devices: más de 100.000 tamaños; se admite: como mucho 2.000 en la página (la línea de órdenes admite "
           "hasta 100.000)"),
])  # fmt: skip
def test_a_sweep_past_the_command_line_s_cap_is_told_the_page_s(command, options, lang, said):
    """A range past 100,000 sizes was refused with the command line's 'allowed: sizes: at most 100,000', which the
    page does not allow either: 1..100000 was then refused as '100,000 sizes; allowed: at most 2,000 on the page'.
    Told the page's 2,000 at once (and the command line's 100,000 beside it), as 2,001 to 100,000 sizes are."""
    from dpscale.faces.i18n import say_error
    from dpscale.faces.web.app import run_command

    with pytest.raises(DpscaleError) as got:
        run_command(command, options, lang)
    assert say_error(got.value, lang) == said


# Review JV: fit FILE reads a runs table whose first column is named '[run]' (files.opens_json); the page did not.


@pytest.mark.parametrize("sep", [",", "\t", ";"])
def test_a_pasted_table_whose_first_column_opens_with_a_bracket_is_read_as_fit_reads_its_file(capsys, tmp_path, sep):
    """'[run],devices,throughput' pasted (a spreadsheet's copy: tabs; a decimal-comma one's: ';') was read as the run
    '[run]:devices:throughput' and refused "--point [run]:devices:throughput, devices: got '[run]'; allowed: a whole
    number …", where `dpscale fit FILE` fits the file saved from it: E 1, 0.95, 0.9 measured at 1, 2, 4, Amdahl
    fitted 0.962652 at 2. The header is found by runs_csv.runs_header, the rule fit's reader tells such a header by."""
    from dpscale.faces.web.app import run_command

    rows = ["[run],devices,throughput", "r1,1,1000", "r2,2,1900", "r4,4,3600"]
    pasted = run_command("fit", {"point": "\n".join(r.replace(",", sep) for r in rows), "law": "amdahl"})["records"]
    (tmp_path / "r.csv").write_text("\n".join(rows) + "\n")
    rc, out, err = run(capsys, "fit", str(tmp_path / "r.csv"), "--law", "amdahl", "--json")
    assert rc == 0, err
    assert pasted == json.loads(out)["predictions"] and round(pasted[1]["efficiency"], 6) == 0.962652


# Review KC: the Spanish word for samples/s ('muestras/s') is samples/s on the page as on the command line.


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_page_reads_muestras_per_second_as_samples_per_second(client, lang):
    """The page's unit field and a pasted table's unit column, 'muestras/s' (the Spanish page's own word for
    samples/s, '(vacío: muestras/s; …)'), were another unit: the plan's rows said 'throughputs in muestras/s' in
    English, and pasted runs stated so made fit's report unit 'muestras/s', which the page's take then planned
    under that unit. Now both are samples/s, as blank is; /api/options carries the words for the page's script."""
    from dpscale.faces.web.app import options
    from dpscale.formulas.units import OWN_UNITS, SAME_UNITS

    plan = {"samples": "1.28e6", "epochs": "90", "throughput": "2000", "efficiency": "0.9", "devices": "1,64"}
    want = client.post("/api/plan", json={"options": plan, "lang": lang}).json()
    got = client.post("/api/plan", json={"options": {**plan, "unit": "muestras/s"}, "lang": lang}).json()
    assert (got["title"], got["table"], got["notes"]) == (want["title"], want["table"], want["notes"])
    assert [r["actual_throughput"] for r in got["records"]] == [2000.0, 115_200.0]
    runs = "devices,throughput,unit\n1,1000,muestras/s\n2,1900,muestras/s\n4,3600,muestras/s\n8,6800,muestras/s\n"
    r = post(client, {"point": runs, "at": "16"}, lang)
    assert r.status_code == 200 and r.json()["report"]["unit"] == "samples/s"
    r = post(client, {"point": runs, "at": "16", "unit": "samples/s"}, lang)  # (refused against 'muestras/s')
    assert r.status_code == 200 and r.json()["report"]["unit"] == "samples/s"
    # (the English spellings too, since review KG: 'samples per second' is samples/s as 'muestras/s' is)
    assert options()["same_units"] == SAME_UNITS and OWN_UNITS.items() <= SAME_UNITS.items()
    assert SAME_UNITS["muestras/s"] == SAME_UNITS["samplespersecond"] == "samples/s"


def test_a_bracketed_paste_that_names_no_columns_is_read_as_runs_as_the_command_line_reads_them(capsys):
    """Review KI (mutation pass): the fit field reads a paste as a table when its first line is a header fit reads
    (runs_header), not whenever it opens with '[' or '{': '[1:1000 8:7500]' is two runs, its first named as the
    command line names it, not 'line 1: missing columns devices, throughput (found [1:1000 8:7500])'."""
    from dpscale.faces.web.app import run_command

    with pytest.raises(DpscaleError) as exc:
        run_command("fit", {"point": "[1:1000 8:7500]"}, "en")
    said = "--point [1:1000, devices: got '[1'; allowed: a whole number from 1 to 10,000,000"
    assert str(exc.value) == said
    rc, _, err = run(capsys, "fit", "--point", "[1:1000", "--point", "8:7500]")
    assert rc == 2 and err == f"dpscale fit: error: {said}\n"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_fit_field_reads_pasted_json_lines_as_fit_reads_the_file(client, tmp_path, capsys, lang):
    """Review KJ: `measure --out`'s lines pasted in the fit field were split at spaces and refused as "--point: got
    '{\\"devices\\":1,'"; the field reads them by fit_io.runs_of_text, the function `dpscale fit FILE` reads the file
    by: the page's fitted law and table are the command's, and JSON broken is named on its line."""
    from clihelp import post

    lines = "".join(json.dumps({"devices": d, "throughput": x, "step_time": 0.05}) + "\n"
                    for d, x in ((1, 1000.0), (2, 1900.0), (4, 3600.0), (8, 6800.0)))  # fmt: skip
    (tmp_path / "r.jsonl").write_text(lines)
    page = post(client, "fit", {"point": lines, "resamples": "50"}, lang)
    assert page.status_code == 200, page.text
    rc, out, _ = run(capsys, "fit", str(tmp_path / "r.jsonl"), "--resamples", "50", "--json", "--lang", lang)
    assert rc == 0 and page.json()["report"] == json.loads(out)
    assert page.json()["title"].startswith("fitted law: allreduce (" if lang == "en" else "ley ajustada: allreduce (")
    broken = post(client, "fit", {"point": lines[:-2] + "\n"}, lang)  # line 4 without its closing brace
    assert broken.status_code == 422
    assert broken.json()["error"].endswith(
        "--point line 4: not valid JSON (Expecting ',' delimiter); allowed: one JSON object per line"
        if lang == "en"
        else "--point línea 4: no es JSON válido (se esperaba ','); se admite: un objeto JSON por línea"
    )


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_json_array_pasted_in_the_fit_field_is_told_the_runs_the_field_takes(client, lang, tmp_path, capsys):
    """Review KJ's matrix: predict's or a hand-made JSON array pasted in the fit field was split at spaces and refused
    as "--point [{\\"devices\\":1,, devices: got '[{\\"devices\\"'"; it is JSON (files.opens_json, past '#' lines).
    Review LN: it was then told fit's refusal of a file, 'allowed: JSON lines (… as `dpscale measure --out` writes),
    `dpscale measure --json` output, or a CSV' — a file and a command the page's user may have neither of, and not
    the field's own devices:throughput. The page says the three ways its field takes runs; the command line
    still says its own of a file. '[1:1000 8:7500]', no JSON, stays runs (the test above)."""
    from clihelp import post, run

    pasted = '# two runs\n[{"devices": 1, "throughput": 1000}, {"devices": 2, "throughput": 1900}]'
    said = post(client, "fit", {"point": pasted}, lang)
    assert said.status_code == 422
    assert said.json()["error"] == (
        f"dpscale fit: error: --point: a JSON array; allowed: {BOX_EN}"
        if lang == "en"
        else f"dpscale fit: error: --point: una lista JSON; se admite: {BOX_ES}"
    )
    runs = tmp_path / "runs.json"
    runs.write_text(pasted)
    rc, _, err = run(capsys, "fit", str(runs), "--lang", lang)
    assert rc == 2 and err.endswith(
        "runs.json: a JSON array; allowed: JSON lines (an object with devices and throughput on each line, as "
        "`dpscale measure --out` writes), `dpscale measure --json` output, or a CSV with columns devices,throughput\n"
        if lang == "en"
        else "runs.json: una lista JSON; se admite: líneas JSON (un objeto con devices y throughput por línea, como "
        "escribe `dpscale measure --out`), la salida de `dpscale measure --json`, o un CSV con columnas "
        "devices,throughput\n"
    )


@pytest.mark.parametrize(
    ("pasted", "en", "es"),
    [
        ('[{"devices": 1,', "a JSON array", "una lista JSON"),  # an array cut short: D:X's reader is given it
        ('1:100 2:190\n[{"devices": 8, "throughput": 700}]', "a JSON array", "una lista JSON"),
        ('1:100\n{"devices": 8, "throughput": 700}', "a JSON object among runs of another form; allowed: one form a "
         "paste —", "un objeto JSON entre ejecuciones de otra forma; se admite: una forma por texto pegado —"),
    ],
)  # fmt: skip
def test_json_that_reaches_the_point_reader_is_told_the_field_s_forms_not_the_flag_s(client, pasted, en, es):
    """Review MD: JSON the page's field hands to --point's D:X reader (an array cut short, or JSON after D:X runs) was
    told the command line's "allowed: one run a flag as devices:throughput (--point 1:900 --point 2:1750), or a file,
    `dpscale fit FILE`: …" (review LY's refusal of JSON given --point) — a flag repeated and a file the page's user
    has neither of, which review LN took off the field's whole arrays. The page says its field's forms (RUNS_BOX)."""
    from clihelp import post

    for lang, head, box in (("en", en, BOX_EN), ("es", es, BOX_ES)):
        said = post(client, "fit", {"point": pasted}, lang)
        assert said.status_code == 422
        sep = " " if head.endswith("—") else "; allowed: " if lang == "en" else "; se admite: "
        assert said.json()["error"] == f"dpscale fit: error: --point: {head}{sep}{box}"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_calibration_pasted_in_the_fit_field_is_told_the_runs_the_field_takes(client, lang):
    """Review LY: `measure allreduce --json` pasted in the fit field was told the file's forms, 'allowed: runs — JSON
    lines from `dpscale measure --out`, `dpscale measure --json` output, or a CSV with devices,throughput' (review LN
    moved the array's refusal to the field's own forms, and left this one); it says the field's forms now."""
    from clihelp import post

    said = post(client, "fit", {"point": '{"format": "dpscale-allreduce-calibration", "sizes": []}'}, lang)
    assert said.status_code == 422
    assert said.json()["error"] == (
        f"dpscale fit: error: --point: an all-reduce calibration (for predict --calibration); allowed: runs — {BOX_EN}"
        if lang == "en"
        else "dpscale fit: error: --point: una calibración del all-reduce (para predict --calibration); se admite: "
        f"ejecuciones — {BOX_ES}"
    )


@pytest.mark.parametrize(
    ("pasted", "en", "es"),
    [
        ("# runs of 3 May\n", "got '# runs of 3 May'", "se recibió '# runs of 3 May'"),  # what was pasted, not ''
        ("# a\n\n# b", "got '# a\\n\\n# b'", "se recibió '# a\\n\\n# b'"),  # (on one line)
        ("  \n ", "got ''", "se recibió ''"),  # blanks alone: as the box left empty
        ("", "got ''", "se recibió ''"),
        # a file's byte-order mark, pasted with it (pasted_runs_unit drops it): '\\ufeff# a' was echoed, and a mark
        # alone, a box as good as empty, "got '\\ufeff'" (review LR)
        ("\ufeff# runs of 3 May\n", "got '# runs of 3 May'", "se recibió '# runs of 3 May'"),
        ("\ufeff", "got ''", "se recibió ''"),
    ],
)
def test_a_fit_field_of_comments_alone_is_echoed_not_said_empty(client, pasted, en, es):
    """Review LN: a paste of '#' comment lines and no run was refused "--point: got ''", as if the box were empty —
    the comments are read as a file's are, so none is a run; the refusal shows what was pasted."""
    from clihelp import post

    for lang, got in (("en", en), ("es", es)):
        said = post(client, "fit", {"point": pasted}, lang)
        assert said.status_code == 422
        allowed = f"; allowed: {BOX_EN}" if lang == "en" else f"; se admite: {BOX_ES}"
        assert said.json()["error"] == f"dpscale fit: error: --point: {got}{allowed}"
