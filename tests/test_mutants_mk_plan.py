"""Review MK's mutation pass (review MJ's mutants of plan's notes): the fastest size a note names past the throughput's
peak is written with the language's thousands separator, as the sizes before it are."""

from __future__ import annotations

import pytest
from clihelp import run


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "note: past the throughput's peak: 8,192 and 16,384 devices finish later than a smaller size given, at "
         "more device-hours (the fastest here: 4,096)"),
        ("es", "nota: pasado el pico de rendimiento: 8.192 y 16.384 dispositivos terminan más tarde que un tamaño "
         "menor dado, con más horas-dispositivo (el más rápido aquí: 4.096)"),
    ],
)  # fmt: skip
def test_the_fastest_size_past_a_peak_is_written_with_thousands(capsys, lang, said):
    """Mutant: plan's `.format(sizes=sizes, d=fmt(peak, "int", lang))` as `d=peak`: USL σ = 0.01, κ = 1e-7 over
    1,024 to 16,384 devices peaks near √(0.99 / 1e-7) ≈ 3,146, so 4,096 is the fastest size given and 8,192 and 16,384
    are past it; the note said 'the fastest here: 4096' beside '8,192 and 16,384' ('4096' beside '8.192' in Spanish)."""
    rc, out, err = run(capsys, "plan", "-n", "1e8", "-v", "1000", "--law", "usl", "--sigma", "0.01", "--kappa", "1e-7",
                       "-d", "1024..16384x2", "--lang", lang)  # fmt: skip
    assert (rc, err) == (0, "") and said in out.splitlines()
