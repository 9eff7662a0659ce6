"""Review 44 (A): small user-facing defects found by hand, each pinned by what the user sees."""

from __future__ import annotations

import pytest
from clihelp import run


@pytest.mark.parametrize(
    "law",
    [
        ["--law", "amdahl", "--serial-fraction", "0.1"],
        ["--law", "usl", "--sigma", "0.1", "--kappa", "0.01"],
        ["-e", "0.5"],
    ],
)
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "devices: ∞ needed; allowed: at most 10,000,000"),
        ("es", "dispositivos: harían falta ∞; se admite: como mucho 10.000.000"),
    ],
)
def test_a_target_past_floating_point_is_refused_as_devices_needed_under_a_law_too(capsys, law, lang, said):
    """--actual 1e300 at 1e-300/s per device is a speedup of inf: under a law the search said the target back as
    '--actual inf/s (speedup inf)', a figure the user never typed; a constant E already said '∞ needed'."""
    rc, out, err = run(capsys, "calc", "-v", "1e-300", "--actual", "1e300", *law, "--lang", lang)
    assert rc == 2 and not out and err.count("\n") == 1 and said in err and "inf" not in err
