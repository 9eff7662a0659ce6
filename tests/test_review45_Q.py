"""Review 45 Q: `predict` on modern clusters checked against hand calculations (physics.md §1.1, §1.2)."""

from __future__ import annotations

import pytest

from dpscale import predict


def _ragged_notes(**kw):
    return [n for n in predict([8, 16, 64], model="gpt2", precision="bf16", batch=16, system="dgx-h100", **kw).notes
            if n.key == "ragged_nodes"]  # fmt: skip


def test_a_ragged_measured_baseline_is_said_like_a_ragged_size():
    # 12 GPUs measured on 8-GPU nodes: the baseline is inverted on ⌈12/8⌉ = 2 whole nodes, as a requested 12 would
    # be; the sizes asked (8, 16, 64) are all whole nodes, and the note named none (nothing was said)
    assert _ragged_notes(throughput=300) == []
    (note,) = _ragged_notes(throughput=300, baseline_devices=12)
    assert note == ("12 devices do not fill whole 8-GPU nodes: modeled as ⌈d/8⌉ nodes of 8 "
                    "(a ragged last node is usually slower)")  # fmt: skip
    assert _ragged_notes(throughput=300, baseline_devices=16) == []  # two whole nodes


def test_gpt2_bf16_on_a_dgx_h100_matches_the_ring_by_hand():
    # 124,439,808 × 2 bytes = 248.9 MB in 11 buckets (1 MiB, 9 × 25 MiB, 11.9 MB); 8 H100s: 2·7/8·S / (0.8 × 450)
    # = 1.210 ms, + 11 × (8.4 + 14 × 3.4) µs = 0.616 ms; no ring fill on Hopper
    rec = predict(8, model="gpt2", precision="bf16", batch=16, system="dgx-h100").records()[0]
    s = 124_439_808 * 2
    assert rec["allreduce_s"] == pytest.approx(1.75 * s / 360e9 + 11 * (8.4e-6 + 14 * 3.4e-6), rel=1e-9)
    # compute: (6·N·1024 + 12·12·768·1024²) × 16 = 14.09 TFLOP at 35 % of 989 TFLOP/s
    assert rec["compute_s"] == pytest.approx((6 * 124_439_808 * 1024 + 12 * 12 * 768 * 1024**2) * 16 / (0.35 * 989e12))
