"""Cases a third mutation sweep (session 28: formulas, sources.laws/fit_laws/predict; 180 mutants, 9 non-equivalent
survivors that change an answer) found no test could fail on. Each expected figure is derived in its comment, not
read off the program."""

from __future__ import annotations

import json

import numpy as np
import pytest

import dpscale
from dpscale import catalog
from dpscale.errors import DpscaleError
from dpscale.formulas.batch import batch_plan
from dpscale.sources.laws import Amdahl, PerSize
from dpscale.sources.predict_inputs import default_mfu

A100 = dict(system="dgx-a100")


def test_time_to_target_speedup_counts_the_accumulated_batch():
    """E(d)·(1 + β)/(1 + β/d) with β = B_noise / (per-device batch): the per-device batch is micro-batch ×
    accumulation, 32 × 4 = 128, so β = 1,024/128 = 8 and 0.9 · 9 / 2 = 4.05 (the micro-batch alone gives 5.94)."""
    plan = batch_plan(micro_batch=32, devices=8, grad_accum=4, noise_scale=1024, efficiency=0.9)
    assert plan.time_to_target_speedup == pytest.approx(4.05, rel=1e-12)


def test_pascal_cnn_estimates_use_the_fp32_core_share():
    """P100 has no tensor cores: its CNN share is the fp32 cores' middle (0.57 + 0.68)/2 = 0.625, so ResNet-50 at
    batch 32 is 10.6e12 × 0.625 / (6 × 4.089e9 FLOP) = 270.0 images/s (the tensor share 0.215 gives 92.9)."""
    assert default_mfu(catalog.model("resnet50"), "fp32", catalog.gpu("p100-16gb")) == pytest.approx(0.625)
    p = dpscale.predict([1], model="resnet50", gpu="p100-16gb", precision="fp32", gpus_per_node=8, intra_bw_gbs=160,
                        inter_bw_gbs=12.5)  # fmt: skip
    assert p.per_device_throughput == pytest.approx(10.6e12 * 0.625 / (6 * 4.089e9), rel=1e-9)


def test_tf32_states_are_sized_as_fp32():
    """tf32 keeps fp32 weights and gradients: ZeRO-1 holds P and G whole (4 + 4 bytes) and shards Adam's 8, so 5e9
    parameters on 8 GPUs need 8·5e9 + 8·5e9/8 = 45 GB — more than an A100 40 GB holds (counted as mixed precision,
    2 + 2 whole and 12 sharded, it would be 27.5 GB, and no note)."""
    p = dpscale.predict([8], params=5e9, precision="tf32", zero=1, step_time_s=1, gpu="a100-40gb", **A100)
    (note,) = [n for n in p.notes if n.key == "zero_memory"]
    assert "needs 45 GB per GPU for model states at 8 devices" in note


def test_one_device_e_above_one_is_refused_to_the_last_percent():
    """E(1) = 1 by definition: 100.5/s against 100/s is a slip of 0.5 %, not a superlinear result."""
    with pytest.raises(DpscaleError, match="efficiency: comes to 1.005 on one device"):
        dpscale.solve(devices=1, per_device_throughput=100, actual_throughput=100.5)
    with pytest.raises(DpscaleError, match="efficiency: got 0.995; allowed: E = 1 at one device"):
        dpscale.scale([1, 8], 100.0, lambda d: np.where(np.asarray(d) == 1, 0.995, 0.9))


def test_nearly_equal_costs_are_not_ties():
    """Amdahl s = 1e-5: 3.6e6 samples at 1,000/s take 1/E device-hours, 1 + s(d − 1): 1.00001, 1.00003, 1.00007
    for 2, 4 and 8 devices, all within the hour's deadline — the cheapest is 2."""
    assert dpscale.plan(3.6e6, 1, 1000, [2, 4, 8], Amdahl(1e-5), deadline_hours=1).cheapest_meeting_deadline == 2


def test_equal_times_within_budget_pick_the_cheaper():
    """E halves as d doubles: 1.44e6 samples take 1.44e6 / (8 · 100 · 0.5) = 3,600 s on 8 and on 16 devices, which
    cost 8 and 16 at 1 an hour — the fastest within the budget, of equal speed, is the cheaper 8."""
    p = dpscale.plan(1.44e6, 1, 100, [8, 16], PerSize({8: 0.5, 16: 0.25}), price_per_device_hour=1, budget=1000)
    assert [pt.hours for pt in p.points] == pytest.approx([1.0, 1.0]) and p.fastest_within_budget == 8


def test_the_model_size_note_starts_at_half_the_checked_smallest():
    """The smallest checked model is 1.634 M parameters; within a factor of two below it (1.2 M) is barely outside
    and says nothing, 0.8 M does."""
    keys = lambda n: [x.key for x in dpscale.predict([1, 8], params=n, step_time_s=0.05, **A100).notes]  # noqa: E731
    assert "unchecked_params" not in keys(1.2e6) and "unchecked_params" in keys(0.8e6)


def test_a_short_calibration_table_is_said_only_past_the_largest_bucket(tmp_path):
    """The note says the table stops below half the largest all-reduced bucket, min(25 MiB, gradient): 1e6 fp32
    parameters are a 4 MB gradient, inside a table that reaches 8 MiB; 1e8 make 25 MiB buckets, past it."""
    f = tmp_path / "cal.json"
    points = [{"bytes": float(s), "busbw_gbs": b} for s, b in ((1 << 16, 5.0), (1 << 20, 40.0), (8 << 20, 120.0))]
    f.write_text(json.dumps({"busbw_gbs": 130.0, "alpha_s": 2e-5, "points": points}))
    keys = lambda n: [x.key for x in dpscale.predict([1, 8], params=n, step_time_s=0.05, calibration=str(f),  # noqa: E731
                                                     **A100).notes]  # fmt: skip
    assert "calibration_short" not in keys(1e6) and "calibration_short" in keys(1e8)
