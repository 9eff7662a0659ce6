"""Review LJ (mutation pass over reviews LC, LD and LE's source lines): common.number's currency pattern, each code and
sign review LC added (GBP, JPY, CNY, the yen; the pound, review KZ's) and an amount with a thousands comma — each test
below failed against a hand-made mutant (named in its parametrization) and passes on the source."""

from __future__ import annotations

import pytest
from clihelp import run


@pytest.mark.parametrize(
    "value",
    [
        "JPY 300",  # mutant: JPY dropped from _MONEY (survived: the tests wrote '¥300')
        "300 CNY",  # mutant: CNY dropped from _MONEY (survived: no test wrote it)
        "£300",  # mutant: £ dropped from _MONEY's signs (survived: the tests wrote 'GBP')
        "$1,000",  # mutant: _AMOUNT's [\d.,]+ → [\d.]+ (survived: the tests wrote no comma after a sign)
    ],
)
def test_a_budget_with_each_currency_is_told_to_drop_the_currency(capsys, value):
    """`dpscale plan -n 1e6 -v 2600 -d 8 -e 0.9 --budget 'JPY 300' --price 2`: 300 is a finite budget > 0, so 'allowed:
    a finite budget > 0' (what each mutant says) would not say why; the currency is what is wrong."""
    argv = ("plan", "-n", "1e6", "-v", "2600", "-d", "8", "-e", "0.9", "--budget", value, "--price", "2")
    for lang, said in (
        ("en", f"--budget: got '{value}'; allowed: a plain number: no currency sign or code"),
        ("es", f"--budget: se recibió '{value}'; se admite: un número solo: sin símbolo ni código de moneda"),
    ):
        rc, out, err = run(capsys, *argv, "--lang", lang)
        assert (rc, out, err) == (2, "", f"dpscale plan: error: {said}\n")


def test_a_language_entry_c_in_lower_case_is_no_c_locale():
    """Mutant: env_lang's `t in UNTRANSLATED` → `t.upper() in UNTRANSLATED` (survived). glibc stops LANGUAGE's list
    untranslated at an entry spelled exactly 'C' or 'POSIX' (dcigettext.c's strcmp); 'c' is a locale with no catalog,
    skipped, so `LANG=es_ES.UTF-8 LANGUAGE=c:es dpscale` is Spanish, as `LANGUAGE=C:es` is English."""
    from dpscale.faces.locale import env_lang

    assert env_lang({"LANG": "es_ES.UTF-8", "LANGUAGE": "c:es"}) == "es"
    assert env_lang({"LANG": "es_ES.UTF-8", "LANGUAGE": "posix"}) == "es"
    assert env_lang({"LANG": "es_ES.UTF-8", "LANGUAGE": "C:es"}) == "en"
