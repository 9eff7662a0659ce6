"""The language follows the locale where --lang is not typed (LANG=es_ES.UTF-8 gets Spanish, as the page follows
the browser's Accept-Language); --lang wins over it, and JSON and CSV do not change with it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clihelp import run

from dpscale.faces.locale import env_lang


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),  # no locale: C
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "es"}, "es"),
        ({"LANG": "es_AR.utf8@euro"}, "es"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),  # a language dpscale lacks: English
        ({"LANG": "es_ES.UTF-8", "LC_ALL": "C"}, "en"),  # LC_ALL first, as gettext reads it
        ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "es_MX.UTF-8"}, "es"),
        ({"LANG": "es_ES.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LANGUAGE": "fr:es"}, "es"),  # LANGUAGE's first language dpscale has
        ({"LANG": "es_ES.UTF-8", "LANGUAGE": "en"}, "en"),
        ({"LANG": "C", "LANGUAGE": "es"}, "en"),  # LANGUAGE counts only with a locale that is not C or POSIX
        ({"LANG": "POSIX", "LANGUAGE": "es"}, "en"),
        ({"LC_ALL": "C", "LANG": "es_ES.UTF-8", "LANGUAGE": "es"}, "en"),
        ({"LANG": "C.UTF-8", "LANGUAGE": "es"}, "es"),  # C.UTF-8 is not C to gettext: a container's LANGUAGE=es
        ({"LC_ALL": "C.utf8", "LANGUAGE": "es_AR:en"}, "es"),
        ({"LANG": "C.UTF-8", "LANGUAGE": "en:es"}, "en"),
        ({"LANG": "C.UTF-8", "LANGUAGE": ""}, "en"),
        ({"LANGUAGE": "es"}, "en"),
        ({"LANG": "", "LC_ALL": "", "LC_MESSAGES": "es_ES"}, "es"),  # set but empty is unset
        ({"LC_ALL": "", "LANG": "es"}, "es"),
        ({"LANG": "es_ES.UTF-8", "LANGUAGE": "C"}, "en"),  # C in LANGUAGE: gettext stops there, untranslated
        ({"LANG": "C.UTF-8", "LANGUAGE": "C:es"}, "en"),
        ({"LANG": "C.UTF-8", "LANGUAGE": "fr:POSIX:es"}, "en"),
        ({"LANG": "C.UTF-8", "LANGUAGE": "es:C"}, "es"),
        ({"LANG": "C.UTF-8", "LANGUAGE": "C.UTF-8:es"}, "es"),  # (C.UTF-8 is a name gettext looks up, not C)
        ({"LANG": "es_ES@euro"}, "es"),
        ({"LANG": "es_ES.ISO-8859-1"}, "es"),
        ({"LANG": "ca_ES@valencia", "LANGUAGE": ""}, "en"),
    ],
)
def test_the_locale_is_read_as_gettext_reads_it(env, lang):
    assert env_lang(env) == lang


@pytest.mark.parametrize(
    "env",
    [
        {"LANG": "C.UTF-8", "LANGUAGE": "es"},
        {"LANG": "C.utf8", "LANGUAGE": "es_AR"},
        {"LC_ALL": "C.UTF-8", "LANG": "C", "LANGUAGE": "es"},
        {"LANG": "C", "LANGUAGE": "es"},
        {"LANG": "POSIX", "LANGUAGE": "es"},
        {"LANG": "C.UTF-8"},
        {"LANG": "C.UTF-8", "LANGUAGE": "C:es"},
        {"LANG": "C.UTF-8", "LANGUAGE": "POSIX:es"},
        {"LANG": "C.UTF-8", "LANGUAGE": "es:C"},
        {"LANG": "es_ES.UTF-8", "LANGUAGE": "C"},  # (checked where es_ES.UTF-8 is installed)
        {"LANG": "en_US.UTF-8", "LANGUAGE": "es"},  # (where en_US.UTF-8 is)
    ],
)
def test_the_language_is_the_one_gettext_gives_coreutils(env):
    """`LANG=C.UTF-8 LANGUAGE=es` (a Debian or python:3 container's locale, LANGUAGE set for Spanish) gave dpscale in
    English while `ls` said its errors in Spanish: glibc ignores LANGUAGE only where the locale is exactly C or
    POSIX (dcigettext.c, guess_category_value), and env_lang treated C.UTF-8 as C. Checked against coreutils' own
    Spanish catalog where it is installed (C.UTF-8 is built into glibc 2.35 and later); the table above holds the
    same cases everywhere. (`LANGUAGE=en:es` is not asked of ls: coreutils has no English catalog and goes on to
    Spanish, where dpscale has English.)"""
    ls = shutil.which("ls")
    if ls is None or not Path("/usr/share/locale/es/LC_MESSAGES/coreutils.mo").exists():
        pytest.skip("coreutils' Spanish catalog is not installed")
    # glibc reads LANGUAGE beside the locale it could set, which is C where the one named is not installed (no
    # C.UTF-8 before glibc 2.35 without a distribution's own); dpscale reads the name: asked where it is set alone
    setting = "import locale; locale.setlocale(locale.LC_MESSAGES, '')"
    if subprocess.run([sys.executable, "-c", setting], env={"PATH": os.defpath, **env}, capture_output=True).returncode:
        pytest.skip(f"{env}: the locale it names is not installed here")
    said = subprocess.run([ls, "/dpscale-no-such-path"], env={"PATH": os.defpath, **env}, capture_output=True,
                          text=True).stderr  # fmt: skip
    if "cannot access" not in said and "no se puede acceder" not in said:
        pytest.skip(f"ls speaks neither English nor Spanish here: {said!r}")
    assert env_lang(env) == ("es" if "no se puede acceder" in said else "en")


@pytest.fixture
def spanish_locale(monkeypatch):
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")


def test_a_spanish_locale_gets_the_worked_example_in_spanish(spanish_locale, capsys):
    rc, out, _ = run(capsys)
    assert rc == 0
    assert "115.200 muestras/s" in out and "57,6×" in out
    rc, out, _ = run(capsys, "--lang", "en")  # typed, it wins
    assert "115,200 samples/s" in out and "57.6×" in out


def test_a_spanish_locale_is_refused_in_spanish_and_helped_in_spanish(spanish_locale, capsys):
    rc, _, err = run(capsys, "calc", "-d", "0", "-v", "2000", "-e", "0.9")
    assert rc == 2
    assert err.startswith(
        "dpscale calc: error: --devices: se recibió '0'; se admite: números enteros de 1 a 10.000.000"
    )
    rc, _, err = run(capsys, "calc", "--json", "--csv")  # argparse's own refusal, said before any --lang is read
    assert (rc, err) == (2, "dpscale calc: error: el argumento --csv no se admite junto con --json (vea --help)\n")
    rc, out, _ = run(capsys, "--help")
    assert rc == 0 and "uso: dpscale [ORDEN] [OPCIONES]" in out
    rc, _, err = run(capsys, "zzz")
    assert rc == 2
    assert err == (
        "dpscale: error: orden desconocida 'zzz'; se admite: calc, predict, validate, fit, measure, batch, pipeline, "
        "memory, plan, serve\n"
    )


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("calc", "--lang", "fr"), "dpscale calc: error: --lang: se recibió 'fr'; se admite: en, es (vea --help)"),
        (("serve", "--lang=ESS"), "dpscale serve: error: --lang: se recibió 'ESS'; se admite: en, es (vea --help)"),
        (
            ("--lang", "fr", "zzz"),
            "dpscale: error: orden desconocida 'zzz'; se admite: calc, predict, validate, "
            "fit, measure, batch, pipeline, memory, plan, serve",
        ),
    ],
)
def test_a_language_dpscale_lacks_is_refused_in_the_locales(spanish_locale, capsys, argv, said):
    """`--lang fr` (or `ESS`; `ES` is es) under a Spanish locale was refused in English, where a --lang with no value
    was said in Spanish: a language dpscale does not speak leaves the locale's, as no --lang does."""
    rc, out, err = run(capsys, *argv)
    assert (rc, out, err) == (2, "", said + "\n")


def test_json_and_csv_do_not_follow_the_locale(monkeypatch, capsys):
    argv = ("predict", "--model", "resnet50", "--throughput", "1200", "--precision", "amp", "--system", "dgx-a100",
            "-d", "1,8,64")  # fmt: skip
    monkeypatch.setenv("LANG", "C.UTF-8")
    english = [run(capsys, *argv, fmt)[1] for fmt in ("--json", "--csv")]
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert [run(capsys, *argv, fmt)[1] for fmt in ("--json", "--csv")] == english
    assert "115.200" in run(capsys, "calc")[1]  # while the table did follow it


def test_a_whole_process_reads_its_own_environment():
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    es = subprocess.run([sys.executable, "-m", "dpscale"], env={**env, "LANG": "es_ES.UTF-8"}, capture_output=True,
                        text=True, check=True).stdout  # fmt: skip
    en = subprocess.run([sys.executable, "-m", "dpscale"], env={**env, "LANG": "C.UTF-8"}, capture_output=True,
                        text=True, check=True).stdout  # fmt: skip
    assert es.startswith("Ejemplo resuelto: 64 dispositivos × 2.000 muestras/s con E = 0,9")
    assert en.startswith("Worked example: 64 devices × 2,000 samples/s at E = 0.9")
