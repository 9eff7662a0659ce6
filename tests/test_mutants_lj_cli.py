"""Review LJ (mutation pass over reviews LC, LD and LE's source lines): the locale's C entry. Its four currency
mutants (each code and sign review LC added, a thousands comma) are killed by test_mutants_lf_cli's budget test, one
test of one refusal. Each test below failed against a hand-made mutant and passes on the source."""

from __future__ import annotations


def test_a_language_entry_c_in_lower_case_is_no_c_locale():
    """Mutant: env_lang's `t in UNTRANSLATED` → `t.upper() in UNTRANSLATED` (survived). glibc stops LANGUAGE's list
    untranslated at an entry spelled exactly 'C' or 'POSIX' (dcigettext.c's strcmp); 'c' is a locale with no catalog,
    skipped, so `LANG=es_ES.UTF-8 LANGUAGE=c:es dpscale` is Spanish, as `LANGUAGE=C:es` is English."""
    from dpscale.faces.locale import env_lang

    assert env_lang({"LANG": "es_ES.UTF-8", "LANGUAGE": "c:es"}) == "es"
    assert env_lang({"LANG": "es_ES.UTF-8", "LANGUAGE": "posix"}) == "es"
    assert env_lang({"LANG": "es_ES.UTF-8", "LANGUAGE": "C:es"}) == "en"
