"""Review LF (mutation pass over today's source lines): common.number's currency pattern, e-notation with a signed
exponent before a sign and with a two-digit exponent before a code (review KZ's) — each test below failed against
a hand-made mutant (named in its docstring) and passes on the source."""

from __future__ import annotations

import pytest
from clihelp import run

SPANISH_CODES = "ARS BOB CLP COP CRC CUP DOP GTQ HNL NIO PAB PEN PYG UYU VES".split()


@pytest.mark.parametrize(
    "value",
    [
        "$1e+3",  # mutant: _AMOUNT's exponent [-+]? → -? (survived: the tests wrote '$3.277E1')
        "2.5e10 USD",  # mutant: _AMOUNT's exponent \d+ → \d (survived: the tests wrote '1e6$')
        "JPY 300",  # review LJ's mutant: JPY dropped from _MONEY, now _CODES (survived: the tests wrote '¥300')
        "300 CNY",  # review LJ's mutant: CNY dropped from _MONEY, now _CODES (survived: no test wrote it)
        "£300",  # review LJ's mutant: £ dropped from _MONEY's signs (since review LI any Sc sign, no list to drop from)
        "$1,000",  # review LJ's mutant: _AMOUNT's [\d.,]+ → [\d.]+ (survived: the tests wrote no comma after a sign)
        # review LU's mutant: one code dropped from _CODES' second line (12 of its 15 survived: the tests wrote ARS,
        # COP and CLP). `--budget '500 BOB'` was then 'allowed: a finite budget > 0', which 500 is
        *(value for code in SPANISH_CODES for value in (f"500 {code}", f"{code} 1e3")),
        "$USD 500",  # review LU's mutant: the letters after a sign [A-Z]{0,3} → {0,2} (the tests wrote '$US', '$ CA')
        "$CAD 500",  # (the same mutant: Canada's dollar as often written)
        "u$s 500",  # review LU's mutant: sides' .upper() dropped (every test wrote its letters in capitals)
        "500 usd",  # (the same mutant: a code in lower case)
        "us$500",  # (the same mutant)
    ],
)
def test_a_budget_with_a_currency_is_told_to_drop_the_currency(capsys, value):
    """`dpscale plan -n 1e6 -v 2600 -d 8 -e 0.9 --budget '$1e+3' --price 2`: 1e+3 is a budget > 0, so 'allowed: a
    finite budget > 0' would not say why; the currency is what is wrong, as for '$500' and '1e6$'."""
    argv = ("plan", "-n", "1e6", "-v", "2600", "-d", "8", "-e", "0.9", "--budget", value, "--price", "2")
    for lang, said in (
        ("en", f"--budget: got '{value}'; allowed: a plain number: no currency sign or code"),
        ("es", f"--budget: se recibió '{value}'; se admite: un número solo: sin símbolo ni código de moneda"),
    ):
        rc, out, err = run(capsys, *argv, "--lang", lang)
        assert (rc, out, err) == (2, "", f"dpscale plan: error: {said}\n")
