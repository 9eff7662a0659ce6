"""Review 44 (J): plan's --samples counts in plan's unit, and its words now say so — 1.28M tokens at 2,000 tokens/s,
not 1.28M samples — in the title, the help and the page's field, in English and Spanish; the numbers, the JSON keys,
the flags and every samples/s line stay as they were. Each test fails without its fix."""

from __future__ import annotations

import json

import pytest
from clihelp import run

from dpscale.faces.i18n import count_of
from dpscale.formulas.units import count_noun

# `dpscale plan` as it printed before this change, byte for byte (samples/s: the default unit)
WORKED_EN = """\
Worked example: 1.28M samples × 90 epochs at 2,000 samples/s per device, E = 0.9, 2.5 per device-hour, deadline 24 h
devices                E   actual  speedup      time  device-h   cost  ΔS/Δd
-------  ---------------  -------  -------  --------  --------  -----  -----
      1  1.000 (100.0 %)    2,000    1.00×    16.0 h      16.0  40.00      —
      2   0.900 (90.0 %)    3,600    1.80×     8.9 h      17.8  44.44   0.80
      4   0.900 (90.0 %)    7,200    3.60×     4.4 h      17.8  44.44   0.90
      8   0.900 (90.0 %)   14,400    7.20×     2.2 h      17.8  44.44   0.90
     16   0.900 (90.0 %)   28,800    14.4×     1.1 h      17.8  44.44   0.90
     32   0.900 (90.0 %)   57,600    28.8×  33.3 min      17.8  44.44   0.90
     64   0.900 (90.0 %)  115,200    57.6×  16.7 min      17.8  44.44   0.90
    128   0.900 (90.0 %)  230,400   115.2×   8.3 min      17.8  44.44   0.90
    256   0.900 (90.0 %)  460,800   230.4×   4.2 min      17.8  44.44   0.90
throughputs in samples/s
"""
TITLE_ES = (
    "Ejemplo resuelto: 1,28 M de muestras × 90 épocas a 2.000 muestras/s por dispositivo; E = 0,9; "
    "2,5 por hora-dispositivo; plazo 24 h\n"
)


@pytest.mark.parametrize(
    ("unit", "noun"),
    [
        ("samples/s", "samples"),
        ("tokens/s", "tokens"),
        ("images/s", "images"),
        ("sequences/s", "sequences"),
        ("img/sec", "img"),
        ("TFLOP/s", "TFLOP"),  # N TFLOP at v TFLOP/s: N/v seconds, what plan computes
        ("Tokens / S", "Tokens"),  # as typed, spaces around the slash dropped
        ("sequences per second", "sequences"),
        ("token/s", "token"),  # no plural made up
        ("fps", None),  # not '/s': no noun to read
        ("Hz", None),
        ("samples/min", None),  # plan's hours are per second: not its rate
        ("/s", None),
        ("1/s", None),
    ],
)
def test_the_noun_a_rate_counts_is_read_from_its_unit(unit, noun):
    assert count_noun(unit) == noun


def test_the_count_is_said_in_the_language_for_samples_and_as_typed_otherwise():
    assert [count_of(u, "en") for u in ("samples/s", "Samples/s", "sample/s", "tokens/s")] == [
        "samples", "samples", "samples", "tokens"
    ]  # fmt: skip
    assert [count_of(u, "es") for u in ("samples/s", "tokens/s", "images/s")] == ["muestras", "tokens", "images"]
    assert count_of("fps", "en") == "units of the fps throughput"
    assert count_of("fps", "es") == "unidades del rendimiento en fps"


def test_plan_in_samples_s_is_as_it_was(capsys):
    """The default unit, and samples/s typed, print what they printed before, in both languages."""
    for argv in ([], ["--unit", "samples/s"]):
        rc, out, _ = run(capsys, "plan", *argv)
        assert rc == 0 and out.startswith(WORKED_EN)
        rc, out, _ = run(capsys, "plan", *argv, "--lang", "es")
        assert rc == 0 and out.startswith(TITLE_ES)
    rc, out, _ = run(capsys, "plan", "-d", "64")
    assert out.startswith("Worked example with your devices/epochs: 1.28M samples at 2,000 samples/s per device, ")


@pytest.mark.parametrize(
    ("unit", "noun"),
    [("tokens/s", "tokens"), ("images/s", "images"), ("sequences/s", "sequences"), ("img/sec", "img"),
     ("TFLOP/s", "TFLOP")],
)  # fmt: skip
def test_plan_counts_in_its_unit_s_noun(capsys, unit, noun):
    """`plan --unit tokens/s` titled its example '1.28M samples … at 2,000 tokens/s': the 1.28M are tokens. The
    rows are the samples/s rows with the unit's words, every number the same."""
    rc, out, _ = run(capsys, "plan", "--unit", unit)
    assert rc == 0
    said = WORKED_EN.replace("1.28M samples", f"1.28M {noun}").replace("samples/s", unit)
    assert out.startswith(said) and "samples" not in out
    assert out.startswith(f"Worked example: 1.28M {noun} × 90 epochs at 2,000 {unit} per device, E = 0.9, ")
    rc, out, _ = run(capsys, "plan", "--unit", unit, "--lang", "es")
    assert rc == 0 and out.startswith(f"Ejemplo resuelto: 1,28 M de {noun} × 90 épocas a 2.000 {unit} por dispositivo")
    assert "muestras" not in out
    assert "          64   0,900 (90,0 %)  115.200        57,6×  16,7 min         17,8  44,44   0,90\n" in out
    rc, out, _ = run(capsys, "plan", "--unit", unit, "-d", "64", "--lang", "es")
    assert out.startswith(f"Ejemplo resuelto con sus dispositivos/épocas: 1,28 M de {noun} a 2.000 {unit} por ")
    assert "(dé --samples y --throughput para su caso)" in out  # the flag keeps its name


def test_a_unit_with_no_noun_is_said_neutrally(capsys):
    rc, out, _ = run(capsys, "plan", "--unit", "fps")
    assert rc == 0 and out.startswith("Worked example: 1.28M units of the fps throughput × 90 epochs at 2,000 fps ")
    rc, out, _ = run(capsys, "plan", "--unit", "fps", "--lang", "es")
    assert out.startswith("Ejemplo resuelto: 1,28 M de unidades del rendimiento en fps × 90 épocas a 2.000 fps ")


def test_the_json_keys_and_numbers_do_not_follow_the_unit(capsys):
    rc, samples, _ = run(capsys, "plan", "--json")
    rc2, tokens, _ = run(capsys, "plan", "--unit", "tokens/s", "--json")
    # (review 45 R: each row says its unit, "unit"; every other key and number is the same)
    strip = lambda rows: [{k: v for k, v in r.items() if k != "unit"} for r in rows]  # noqa: E731
    assert rc == rc2 == 0 and strip(json.loads(samples)) == strip(json.loads(tokens))
    row = next(r for r in json.loads(tokens) if r["devices"] == 64)
    assert row["actual_throughput"] == 115200.0 and row["cost"] == pytest.approx(2.5 * 64 * 1000 / 3600)


def test_the_help_says_what_samples_count(capsys):
    rc, out, _ = run(capsys, "plan", "--help")
    flat = " ".join(out.split())
    assert "--samples N, -n N samples per epoch, or what --unit counts (tokens for tokens/s), e.g. 1.28e6" in flat
    assert "--throughput V, -v V per-device throughput alone (samples/s, or --unit)" in flat
    rc, out, _ = run(capsys, "plan", "--help", "--lang", "es")
    flat = " ".join(out.split())
    assert "muestras por época, o lo que cuente --unit (tokens con tokens/s), p. ej. 1.28e6" in flat
    assert "rendimiento de un dispositivo solo (muestras/s, o --unit)" in flat


def test_the_page_plan_field_and_worked_title_say_what_samples_count():
    """The plan tab's count field said 'Samples per epoch' over a tokens/s unit; the batch tab's (samples: the
    dataset) still does. The page's plan in tokens/s is titled as the command's."""
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx2")
    from fastapi.testclient import TestClient
    from test_review44_C import _form_html

    from dpscale.faces.web.app import create_app

    assert '<span data-l="web_plan_samples"></span><input name="samples"' in _form_html("plan")
    assert '<span data-l="web_samples"></span><input name="dataset_size"' in _form_html("batch")
    client = TestClient(create_app())
    en, es = (client.get(f"/api/labels/{lang}").json() for lang in ("en", "es"))
    assert en["web_plan_samples"] == "Samples per epoch (or what the unit counts: tokens for tokens/s)"
    assert es["web_plan_samples"] == "Muestras por época (o lo que cuente la unidad: tokens con tokens/s)"
    assert en["web_samples"] == "Samples per epoch" and es["web_samples"] == "Muestras por época"
    for lang, title in (
        ("en", "Worked example: 1.28M tokens × 90 epochs at 2,000 tokens/s per device, E = 0.9, "),
        ("es", "Ejemplo resuelto: 1,28 M de tokens × 90 épocas a 2.000 tokens/s por dispositivo; E = 0,9; "),
    ):
        r = client.post("/api/plan", json={"options": {"unit": "tokens/s"}, "lang": lang}).json()
        assert r["title"].startswith(title)
        assert (["115,200", "16.7 min"] if lang == "en" else ["115.200", "16,7 min"])[0] in str(r["table"]["rows"])
