"""CLI branches no test took (review EK, coverage-guided): each asserts the line a user would see."""

from __future__ import annotations

import pytest
from clihelp import run


@pytest.mark.parametrize("typed", ["x%", "%", "inf%"])
def test_a_percent_that_is_no_number_is_refused_without_the_percent_hint(capsys, typed):
    """'90%' gets '(90 % = 0.9)' after what is allowed; 'x%' has no number to convert, so the line stops at what
    is allowed — one line, exit 2, the flag and the value named, no '(nan % = nan)'."""
    rc, out, err = run(capsys, "calc", "-d", "64", "-v", "2000", "-e", typed)
    want = f"dpscale calc: error: --efficiency: got '{typed}'; allowed: a scaling efficiency in (0, 1], or one per size"
    assert rc == 2 and out == "" and err.strip() == want


def test_an_overflow_past_every_check_is_one_line_and_exit_2(capsys, monkeypatch):
    """The dispatcher's last guard: an OverflowError a command did not foresee is one line naming it, exit 2, not
    a traceback (no input reaches it today: each flag's own check says it first)."""
    from dpscale.faces.cli import calc

    def overflowing(args):
        raise OverflowError("(34, 'Numerical result out of range')")

    monkeypatch.setattr(calc, "run", overflowing)
    rc, out, err = run(capsys, "calc", "-d", "64", "-v", "2000", "-e", "0.9")
    assert (
        rc == 2
        and out == ""
        and err.splitlines()
        == [
            "dpscale calc: error: a number too large to compute with ((34, 'Numerical result out of range')); "
            "allowed: realistic magnitudes"
        ]
    )


def test_an_overflow_past_every_check_is_said_in_spanish(capsys, monkeypatch):
    """The same last guard under --lang es: its line had a Spanish template (errors_es) the dispatcher never
    asked, so a Spanish user read 'a number too large to compute with …; allowed: realistic magnitudes'."""
    from dpscale.faces.cli import calc

    def overflowing(args):
        raise OverflowError("(34, 'Numerical result out of range')")

    monkeypatch.setattr(calc, "run", overflowing)
    rc, out, err = run(capsys, "calc", "-d", "64", "-v", "2000", "-e", "0.9", "--lang", "es")
    assert (rc, out) == (2, "") and err.splitlines() == [
        "dpscale calc: error: un número demasiado grande para calcular ((34, 'Numerical result out of range')); "
        "se admite: magnitudes realistas"
    ]


def test_too_many_resamples_for_the_measured_sizes_is_said_in_spanish(capsys, tmp_path):
    """fit's bootstrap bound (resamples × (sizes + 1) ≤ 20,000,000): 100,000 × (999 + 1) = 100,000,000 is refused
    before any fit; in Spanish 'measured sizes' is 'tamaños medidos' and the counts take '.' groups."""
    data = tmp_path / "runs.csv"
    data.write_text("devices,throughput\n" + "".join(f"{d},{100 * d * 0.99 ** (d**0.3):.4f}\n" for d in range(1, 1000)))
    rc, out, err = run(capsys, "fit", str(data), "--resamples", "100000", "--lang", "es")
    assert (
        rc == 2
        and out == ""
        and err.strip()
        == (
            "dpscale fit: error: --resamples × tamaños medidos: 100.000 remuestreos × 1.000 tamaños = 100.000.000 "
            "valores; se admite: como mucho 20.000.000 (cerca de 1 GB de memoria de trabajo) — "
            "menos remuestreos o tamaños"
        )
    )


def test_later_pythons_argparse_reading_is_read_the_same():
    """Python 3.12.7 and 3.13.1 on return a list of (action, name, '=', value) candidates from argparse's
    _parse_optional, where 3.11 and 3.12.1 give a 3-tuple and 3.13.0 one 4-tuple. No interpreter here returns the
    list, so a parser answers so (to dpscale's readers only: 3.11's own parsing unpacks the tuple), and what they
    read from it is what they read from this interpreter's answer (review GY)."""
    from dpscale.faces.cli import calc
    from dpscale.faces.cli.common import Parser

    class Later(Parser):
        def _parse_optional(self, tok):
            found = super()._parse_optional(tok)
            if not isinstance(found, tuple):
                return found
            action, name, *_, value = found
            return [(action, name, None if value is None else "=" if tok.startswith(name + "=") else "", value)]

    typed = ["-d8", "-v=2000", "--devices", "16", "-e", "0.9", "--unit", "tokens/s", "--", "-d", "4"]
    read = {}
    for kind in (Parser, Later):
        p = kind(prog="dpscale calc", allow_abbrev=False)
        calc.add_arguments(p)
        p.typed = typed
        options = [(i, found[0].dest, found[-1]) for i, found in p._options(typed)]
        read[kind] = options, p.typed_value("devices"), p.typed_value("throughput"), p._glue_negatives(["-e", "-inf"])
    assert read[Later] == read[Parser]
    assert read[Parser] == (
        [
            (0, "devices", "8"),
            (1, "throughput", "2000"),
            (2, "devices", None),
            (4, "efficiency", None),
            (6, "unit", None),
        ],
        "16",
        "2000",
        ["-e-inf"],
    )


# Review HF: a mutation pass over Parser._reading and _Help._format_action_invocation (5756a80, 8094a1f).


def test_an_unknown_option_before_a_negative_number_is_refused_in_one_line(capsys):
    """argparse reads an unknown '--bogus' as (None, '--bogus', None); _reading says None for it, and a reading kept
    as it is made _glue_negatives ask None for its nargs (a traceback, rc 1)."""
    rc, out, err = run(capsys, "calc", "-d", "8", "-v", "100", "--bogus", "-5")
    assert (rc, out, err) == (2, "", "dpscale calc: error: unrecognized arguments: --bogus -5 (see --help)\n")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_flag_without_a_value_has_no_trailing_space_in_the_help(capsys, lang):
    """A flag that takes no value is written by argparse's own invocation: the 3.13 form, names and then ' VALUE',
    left a space after '--overlap-accumulation' (too long for the column, so its help starts on the next line)."""
    rc, out, _ = run(capsys, "predict", "--help", "--lang", lang)
    assert rc == 0 and "\n  --overlap-accumulation\n" in out
    assert [line for line in out.splitlines() if line != line.rstrip()] == []
