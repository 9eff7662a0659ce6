"""Review LU (mutation pass over reviews LM, LN, LO and LQ's source lines): common._currency as review LM rewrote it —
each code of the Spanish-speaking countries it added, a sign's country letters after it, a code or a sign typed in
lower case. Each test below failed against a hand-made mutant (named in its docstring or beside its value) and passes
on the source."""

from __future__ import annotations

import pytest
from clihelp import run

PLAIN = "allowed: a plain number: no currency sign or code"
PLAIN_ES = "se admite: un número solo: sin símbolo ni código de moneda"


def _told_to_drop_the_currency(capsys, value: str) -> None:
    argv = ("plan", "-n", "1e6", "-v", "2600", "-d", "8", "-e", "0.9", "--budget", value, "--price", "2")
    for lang, said in (
        ("en", f"--budget: got '{value}'; {PLAIN}"),
        ("es", f"--budget: se recibió '{value}'; {PLAIN_ES}"),
    ):
        rc, out, err = run(capsys, *argv, "--lang", lang)
        assert (rc, out, err) == (2, "", f"dpscale plan: error: {said}\n")


@pytest.mark.parametrize("code", "ARS BOB CLP COP CRC CUP DOP GTQ HNL NIO PAB PEN PYG UYU VES".split())
def test_each_spanish_speaking_countrys_code_is_told_to_drop_the_currency(capsys, code):
    """Mutant: one code dropped from _CODES' second line (12 of its 15 survived: the tests wrote ARS, COP and CLP).
    `dpscale plan … --budget '500 BOB'` was then 'allowed: a finite budget > 0', which 500 is."""
    _told_to_drop_the_currency(capsys, f"500 {code}")
    _told_to_drop_the_currency(capsys, f"{code} 1e3")


@pytest.mark.parametrize(
    "value",
    [
        "$USD 500",  # mutant: the letters after a sign [A-Z]{0,3} → {0,2} (survived: the tests wrote '$US', '$ CA')
        "$CAD 500",  # (the same mutant: Canada's dollar as often written)
        "u$s 500",  # mutant: sides' .upper() dropped (survived: every test wrote its letters in capitals)
        "500 usd",  # (the same mutant: a code in lower case)
        "us$500",  # (the same mutant)
    ],
)
def test_a_sign_with_three_letters_after_it_or_a_lower_case_code_is_told_to_drop_the_currency(capsys, value):
    """`dpscale plan … --budget '$USD 500'` (Latin America's way of saying US dollars) or Argentina's 'u$s 500' as
    typed in lower case: each mutant said 'allowed: a finite budget > 0', which 500 is."""
    _told_to_drop_the_currency(capsys, value)


@pytest.mark.parametrize(("unit", "lang"), [("samples/sec", "en"), ("Samples/S", "en"), ("muestras/s", "es")])
def test_a_samples_fit_under_another_spelling_writes_no_unit_column(tmp_path, capsys, unit, lang):
    """Mutant: fit's `not same_unit(report["unit"], "samples/s")` → `report["unit"] != "samples/s"` (survived: the
    tests typed tokens/s or nothing). `dpscale fit runs.csv --unit samples/sec --csv` then wrote a "unit" column of
    samples/sec on each row, where calc's --csv under the same --unit writes none: samples/s in other words."""
    runs = tmp_path / "runs.csv"
    runs.write_text("devices,throughput\n1,100\n2,190\n4,350\n8,600\n", encoding="utf-8")
    argv = ("--unit", unit, "--csv", "--lang", lang)
    rc, out, _ = run(capsys, "fit", str(runs), "--at", "1,16", "--resamples", "100", *argv)
    assert rc == 0 and out.splitlines()[0] == (
        "devices,throughput,throughput_lo,throughput_hi,efficiency,efficiency_lo,efficiency_hi"
    )
    assert [line.split(",")[0] for line in out.splitlines()[1:]] == ["1", "16"]
    rc, out, _ = run(capsys, "calc", "-d", "8", "-v", "100", "-e", "0.9", *argv)
    assert rc == 0 and "unit" not in out.splitlines()[0]
