"""Review KR (mutation pass): the dispatcher's command named after options (faces/cli._late_command) — the test
below failed against a hand-made mutant (named in its docstring) and passes on the source."""

from __future__ import annotations

from dpscale.faces.cli import main


def test_a_short_option_without_its_value_takes_the_word_after_it(capsys):
    """Mutant: an option carrying its value read as `len(p) >= 2` (survived; the source's is > 2: '-d8' carries 8,
    '-d' carries nothing). `dpscale -d calc` is -d's value 'calc', refused as a device count — not 'calc' named as a
    command typed after its options."""
    assert main(["-d", "calc"]) == 2
    assert capsys.readouterr().err.startswith("dpscale calc: error: --devices: got 'calc'; allowed: whole numbers")
