"""A typo-sized input (1e308, 1e-320) is refused in one line naming what overflowed, never printed as ∞ in a
table with exit 0 — every command prints through output.emit, which checks (a fuzzing session found each)."""

from __future__ import annotations

import pytest
from clihelp import run


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["batch", "-b", "32", "-d", "8", "--base-lr", "1e308", "--base-batch", "1"],
         "learning_rate: comes to inf from these inputs; allowed: realistic magnitudes"),
        (["plan", "-n", "1e6", "-v", "1000", "--epochs", "1e308"], "hours: comes to inf from these inputs"),
        (["plan", "-n", "1e6", "-v", "1e-320"], "hours: comes to inf from these inputs"),
        (["memory", "--params", "1e308"], "--params: got '1e308'; allowed: a parameter count from 1 to 1e+15"),
        (["fit", "--point", "1:1000", "--point", "2:1e308"],
         "--point 2:1e308, throughput: got '1e308'; allowed: a number from 1e-9 to 1e15"),
        (["calc", "-d", "8", "-v", "5", "--actual", "1e308"], "efficiency: comes to 2.5e+306 from these inputs"),
    ],
)  # fmt: skip
def test_overflow_is_one_line_not_infinity(capsys, argv, needle):
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and needle in err and len(err.strip().splitlines()) == 1
    assert "∞" not in out and "inf" not in out
