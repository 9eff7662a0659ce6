"""measure allreduce: message sizes, the α–β fit, bus bandwidths and the calibration file."""

from __future__ import annotations

import re

import pytest

from dpscale.errors import DpscaleError
from dpscale.sources.measure import calibration

# Cases a fifth mutation sweep (sources.measure's pure logic, predict_validate, fit_validate, predict_inputs, the
# plan and web faces, notes) found no test could fail on. Each expected value is derived in its docstring or comment,
# from the docs or the arithmetic, not read back from the code. None of these starts torch or a process.


# ---------------------------------------------------------------- measure.calibration


@pytest.mark.parametrize("text, want", [("4", 4), ("1M", 1024**2), ("1m", 1024**2), ("1GiB", 1024**3),
                                        ("4K", 4096), ("4KB", 4096), ("4kib", 4096)])  # fmt: skip
def test_sizes_are_binary_in_every_spelling_from_four_bytes(text, want):
    """docs/measure.md: 'K/KB/KiB, M/MB/MiB and G/GB/GiB are all binary (1 KB = 1024 B). The allowed range is 4 B to
    4 GB'. 1M and 1GiB are 2^20 and 2^30 bytes (a decimal M read 1,000,000); 4 KB is 4,096 in each of its spellings
    (1 KB alone cannot tell a 1,025-byte K from the right one: whole float32 elements round both to 1,024)."""
    assert calibration.parse_bytes(text) == want


@pytest.mark.parametrize("text", ["3", "2B"])
def test_sizes_under_one_float32_element_are_refused(text):
    """Below 4 B no float32 element fits: '3' was rounded down to a 0-byte message instead of refused."""
    with pytest.raises(DpscaleError, match="4 B to 4 GB"):
        calibration.parse_bytes(text)


@pytest.mark.parametrize("text", ["..1MB", "1KB..", ".."])
def test_a_range_missing_an_end_is_refused(text):
    """'A..B' needs both ends: '..1MB' is refused by name, with what --sizes takes (a TypeError once it was not)."""
    with pytest.raises(DpscaleError, match=re.escape(f"--sizes: got '{text}'; allowed: bytes with K/M/G")):
        calibration.parse_sizes(text)


def test_a_range_whose_ends_meet_is_that_one_size():
    """'1KB..1KB' doubles from 1 KiB to 1 KiB: one size, 1024 B (only B < A is refused)."""
    assert calibration.parse_sizes("1KB..1KB") == (1024,)


def test_two_sizes_determine_alpha_and_beta():
    """Two points on t = α + β·S fix the line: α = 10 µs, β = 1 ns/B (β alone or α alone fits neither)."""
    sizes = [1024.0, 1024.0**2]
    a, b = calibration.fit_alpha_beta(sizes, [1e-5 + 1e-9 * s for s in sizes])
    assert a == pytest.approx(1e-5, rel=1e-9) and b == pytest.approx(1e-9, rel=1e-9)


def test_a_calibration_of_one_rank_has_no_bus_bandwidth():
    """docs/measure.md: busbw_gbs is 'null at n = 1' (2(n−1)/n = 0), the peak likewise; the file is format version 1."""
    rows = [calibration.row(s, 1e-5 + s / 5e9, 1, 20) for s in (1024, 1 << 20)]
    cal = calibration.calibration(rows, 1, "gloo")
    assert cal["busbw_gbs"] is None and cal["busbw_peak_gbs"] is None
    assert (cal["format"], cal["version"]) == ("dpscale-allreduce-calibration", 1)


def test_a_fit_with_no_slope_has_no_bus_bandwidth():
    """docs/measure.md: busbw_gbs = 2(n−1)/n / beta; where every size took 1 ms the fit is α = 1 ms, β = 0 — no
    asymptote, so null (predict then reads the table alone) — while the peak is still the best size's: 64 KiB in
    1 ms at n = 4, 65,536 / 1e-3 · 1.5 / 1e9 = 0.098304 GB/s."""
    rows = [calibration.row(s, 1e-3, 4, 20) for s in (1024, 4096, 65536)]
    cal = calibration.calibration(rows, 4, "nccl")
    assert (cal["alpha_s"], cal["beta_s_per_byte"], cal["busbw_gbs"]) == (pytest.approx(1e-3), 0.0, None)
    assert cal["busbw_peak_gbs"] == pytest.approx(0.098304)


def test_the_peak_bus_bandwidth_is_the_best_measured_size():
    """At n = 4, busbw = bytes / time · 1.5 / 1e9: 1 MiB in 1 ms is 1.5729 GB/s, 64 MiB in 20 ms 5.0332 GB/s; the
    peak is the larger (docs: 'best measured busbw')."""
    rows = [calibration.row(1 << 20, 1e-3, 4, 20), calibration.row(1 << 26, 2e-2, 4, 20)]
    cal = calibration.calibration(rows, 4, "nccl")
    assert cal["busbw_peak_gbs"] == pytest.approx((1 << 26) / 2e-2 * 1.5 / 1e9)


def test_the_fit_quality_is_the_worst_relative_error():
    """α = 10 µs, β = 1 ns/B: the line gives 11 µs at 1 kB (measured 12: 1/12 off), 1.01 ms at 1 MB (exact) and
    10.01 ms at 10 MB (measured 10: 0.1 % off); the worst is 1/12."""
    cal = {"alpha_s": 1e-5, "beta_s_per_byte": 1e-9,
           "points": [{"bytes": 1e3, "time_s": 1.2e-5}, {"bytes": 1e6, "time_s": 1.01e-3},
                      {"bytes": 1e7, "time_s": 1e-2}]}  # fmt: skip
    assert calibration.fit_quality(cal) == pytest.approx(1 / 12)
