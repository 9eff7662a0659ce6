"""The core's contract (the calculator issue) where no other test pinned it."""

from __future__ import annotations

import pytest
from clihelp import run


@pytest.mark.parametrize("argv", [["-v", "2000", "-e", "0.9,0.8", "--actual", "1e5"], ["-v", "2000", "-e", "0.9,0.8"]])
def test_e_per_size_without_devices_says_what_it_needs(capsys, argv):
    """An E per size with no --devices typed (solving for them) was refused as '2 values for 0 device counts'."""
    said = {
        "en": "--efficiency: got '0.9,0.8'; allowed: one value, or one per size given in --devices",
        "es": "--efficiency: se recibió '0.9,0.8'; se admite: un valor, o uno por tamaño dado en --devices",
    }
    for lang, line in said.items():
        rc, out, err = run(capsys, "calc", *argv, "--lang", lang)
        assert rc == 2 and out == ""
        assert err == f"dpscale calc: error: {line}\n"
