"""Review 44, reviewer D: the library from a notebook (inputs, outputs, hints)."""

from __future__ import annotations

import numpy as np
import pytest

import dpscale
from dpscale.errors import DpscaleError


def test_solving_for_devices_names_an_e_function_that_gives_no_efficiency():
    """solve(devices=None) searched through whatever the E(d) function gave: nan read 'throughput peaks at nan/s
    (speedup nan) with 1 devices', 0 beyond one device 'not reached within 10,000,000 devices', and None, text or
    two values for one size raised float()'s TypeError or ValueError from inside the search."""
    given = {"per_device_throughput": 2000, "actual_throughput": 115_200}
    with pytest.raises(DpscaleError, match=r"^efficiency: got nan; allowed: a scaling efficiency in \(0, 1\]"):
        dpscale.solve(efficiency=lambda d: float("nan"), **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got 0; allowed: .*\(E\(d\) at d = 2\)"):
        dpscale.solve(efficiency=lambda d: 1.0 if d == 1 else 0.0, **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got -0\.5; allowed: a scaling efficiency"):
        dpscale.solve(efficiency=lambda d: 1.0 if d == 1 else -0.5, **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got None"):
        dpscale.solve(efficiency=lambda d: None, **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got 'x'"):
        dpscale.solve(efficiency=lambda d: "x", **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got \[0\.9 0\.8\]; allowed: one number"):
        dpscale.solve(efficiency=lambda d: np.array([0.9, 0.8]), **given)
    # a well-made function still solves: the worked example, 64 devices × 2,000/s × 0.9 = 115,200/s
    s = dpscale.solve(efficiency=lambda d: 1.0 if d == 1 else 0.9, **given)
    assert s.result.devices == 64 and s.exact == 64.0
    assert s.result.actual_throughput == 115_200.0 and s.result.speedup == 57.6
