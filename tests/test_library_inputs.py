"""Library calls with odd inputs found by an API audit (session 11): each once gave a wrong number, an escaped
exception or a closed stdout; now each is a result in float64 or one DpscaleError line."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from dpscale import USL, DpscaleError, predict, scale, solve

CLUSTER = dict(gpus_per_node=8, intra_bw_gbs=150, inter_bw_gbs=50)


@pytest.mark.parametrize("path", [True, 1, 2, 1.0])
def test_a_number_is_no_system_file(path):
    """open(1) reads file descriptor 1 and closes it: stdout was gone after predict(system_file=True)."""
    with pytest.raises(DpscaleError, match=r"--system-file: got .*; allowed: a readable JSON file \(not a file path\)"):
        predict([1, 8], params=1e8, throughput=100.0, system_file=path)
    assert not sys.stdout.closed and not sys.__stdout__.closed


def test_numpy_integer_inputs_do_not_wrap_in_predict():
    """batch × grad_accum in int16 wrapped: per-device throughput −5,888 samples/s."""
    kw = dict(params=1e8, step_time_s=1.0, **CLUSTER)
    narrow = predict([1, 8], batch=np.int16(30000), grad_accum=np.int16(30000), **kw).records()[1]
    wide = predict([1, 8], batch=30000, grad_accum=30000, **kw).records()[1]
    assert narrow["per_device_throughput"] == wide["per_device_throughput"] == 9e8  # 30,000² samples in 1 s
    e32 = predict([1, 8], params=1e8, step_time_s=0.1, bucket_mb=np.int32(3000), **CLUSTER).records()[1]
    e64 = predict([1, 8], params=1e8, step_time_s=0.1, bucket_mb=3000, **CLUSTER).records()[1]
    assert e32["efficiency"] == e64["efficiency"]


def test_narrow_floats_are_widened_and_solve_checks_overflow():
    assert scale(10**7, np.float32(1e38), 0.9).actual_throughput == pytest.approx(9e44, rel=1e-6)  # was inf
    assert scale(10**7, 1e6, np.float32(0.9)).actual_throughput == pytest.approx(9e12, rel=1e-7)
    for kw in (dict(devices=8, per_device_throughput=1e308, speedup=7),
               dict(per_device_throughput=1e308, efficiency=0.9, speedup=70)):  # fmt: skip
        with pytest.raises(DpscaleError, match="beyond floating point"):  # was ideal inf, lost nan
            solve(**kw)


def test_error_lines_stay_one_short_line():
    with pytest.raises(DpscaleError) as exc:
        USL(0.1, 0).efficiency(np.array([[1, 2], [3, 0]]))
    assert "\n" not in str(exc.value) and "got [[1 2] [3 0]]" in str(exc.value)
    with pytest.raises(DpscaleError) as exc:
        predict([1, 8], model="a " * 100_000, step_time_s=0.1, **CLUSTER)
    assert len(str(exc.value)) < 1000  # was 200 KB
