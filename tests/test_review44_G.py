"""Review G (session 44): the day's commits tried at their edges — solve's E(d) function at one device, a second
terminating signal while write_whole cleans up, and units compared in one way by every reader."""

from __future__ import annotations

import pytest

import dpscale
from dpscale import DpscaleError


@pytest.mark.parametrize("fn", [lambda d: [1.0], lambda d: (1.0,), lambda d: [[1.0]]])
def test_solve_reads_a_one_element_e_at_one_device(fn):
    """c8d152f checked each size's E through one(), but a target one device reaches still returned
    s_target / float(fn(1)): a function giving [1.0] (one E, in a list) raised float()'s TypeError there, where every
    larger target was solved."""
    s = dpscale.solve(per_device_throughput=100, efficiency=fn, actual_throughput=50)
    assert s.result.devices == 1 and s.exact == pytest.approx(0.5)


def test_solve_names_a_large_size_as_the_errors_do():
    """The searched E(d)'s refusal named the size with '{d:g}' ('E(d) at d = 1.04858e+06'), where scale's names it
    whole and grouped ('E(d) at d = 1,048,576')."""
    fn = lambda d: 1.0 if d < 2**20 else float("nan")  # noqa: E731
    with pytest.raises(DpscaleError, match=r"E\(d\) at d = 1,048,576\)"):
        dpscale.solve(per_device_throughput=1, efficiency=fn, speedup=2**21)
