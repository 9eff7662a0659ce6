"""Review LU (mutation pass over reviews LM, LN, LO and LQ's source lines): the page's own fit band note (review LN's
web_fit_band). Each test below failed against a hand-made mutant (named in its docstring) and passes on the
source."""

from __future__ import annotations

import pytest

from dpscale.errors import DpscaleError
from dpscale.faces.web.app import run_command


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "lo–hi: the 80 % prediction interval for one run"),
        ("es", "inf–sup: intervalo de predicción del 80 % para una ejecución"),
    ],
)
def test_the_fit_tabs_band_note_says_the_level_asked_for(lang, said):
    """Mutant: web_fit_band's '{pct}' → '90 %', in either language (survived: the tests asked for the default 0.9).
    The fit tab with its confidence field at 0.8 then said 'the 90 % prediction interval' of a band that is 80 %."""
    options = {"point": "1:1000\n8:7500\n16:14600\n32:28000", "confidence": "0.8", "at": "64", "resamples": "200"}
    notes = run_command("fit", options, lang)["notes"]
    assert said in notes
    assert not [n for n in notes if "90 %" in n]


def test_a_fit_request_without_the_runs_field_is_told_it_got_nothing():
    """Mutant: run_command's `pasted.strip() if isinstance(pasted, str) else ""` → `str(pasted).strip()` (survived:
    the tests sent the field, empty or of comments). A request to /api/fit leaving the field out was then told
    "--point: got 'None'", a value nobody typed."""
    with pytest.raises(DpscaleError) as e:
        run_command("fit", {"at": "64"}, "en")
    assert str(e.value) == (
        "--point: got ''; allowed: measured runs as devices:throughput, one or more a line (1:1000 8:7500), a JSON "
        'object a line ({"devices": 8, "throughput": 7500}) or rows under a header devices,throughput'
    )


def test_a_pasted_json_line_whose_cell_reads_json_array_is_refused_for_that_cell():
    """Mutant: pasted_runs_unit's `str(exc) == f"--point: {JSON_ARRAY}"` → `"JSON array" in str(exc)` (survived: the
    only refusal the tests pasted naming a JSON array was the array's). A JSON line whose devices cell is the text
    'JSON array' was then told '--point: a JSON array; allowed: measured runs as …', not what is wrong on its line.
    (Since review LY runs_of_text says the field's forms itself, forms=RUNS_BOX: no message is compared.)"""
    with pytest.raises(DpscaleError) as e:
        run_command("fit", {"point": '{"devices": "JSON array", "throughput": 100}'}, "en")
    assert str(e.value) == "--point line 1, devices: got 'JSON array'; allowed: a whole number from 1 to 10,000,000"
