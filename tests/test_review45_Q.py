"""Review 45 Q: `predict` on modern clusters checked against hand calculations (physics.md §1.1, §1.2)."""

from __future__ import annotations

import pytest

from dpscale import predict
from dpscale.formulas.stepmodel import ragged_network_share


def _ragged_notes(**kw):
    return [n for n in predict([8, 16, 64], model="gpt2", precision="bf16", batch=16, system="dgx-h100", **kw).notes
            if n.key == "ragged_nodes"]  # fmt: skip


def test_a_ragged_measured_baseline_is_said_like_a_ragged_size():
    # 12 GPUs measured on 8-GPU nodes: the baseline is inverted on ⌈12/8⌉ = 2 whole nodes, as a requested 12 would
    # be; the sizes asked (8, 16, 64) are all whole nodes, and the note named none (nothing was said)
    assert _ragged_notes(throughput=300) == []
    (note,) = _ragged_notes(throughput=300, baseline_devices=12)
    assert note.startswith("12 devices do not fill whole 8-GPU nodes: modeled as ⌈d/8⌉ nodes of 8")
    assert _ragged_notes(throughput=300, baseline_devices=16) == []  # two whole nodes


def test_gpt2_bf16_on_a_dgx_h100_matches_the_ring_by_hand():
    # 124,439,808 × 2 bytes = 248.9 MB in 11 buckets (1 MiB, 9 × 25 MiB, 11.9 MB); 8 H100s: 2·7/8·S / (0.8 × 450)
    # = 1.210 ms, + 11 × (8.4 + 14 × 3.4) µs = 0.616 ms; no ring fill on Hopper
    rec = predict(8, model="gpt2", precision="bf16", batch=16, system="dgx-h100").records()[0]
    s = 124_439_808 * 2
    assert rec["allreduce_s"] == pytest.approx(1.75 * s / 360e9 + 11 * (8.4e-6 + 14 * 3.4e-6), rel=1e-9)
    # compute: (6·N·1024 + 12·12·768·1024²) × 16 = 14.09 TFLOP at 35 % of 989 TFLOP/s
    assert rec["compute_s"] == pytest.approx((6 * 124_439_808 * 1024 + 12 * 12 * 768 * 1024**2) * 16 / (0.35 * 989e12))


GPT2_BF16 = 124_439_808 * 2  # bytes all-reduced a step, in 11 buckets


def _allreduce(d, **kw):
    rec = predict(d, model="gpt2", precision="bf16", batch=16, overlap=False, **kw).records()[0]
    return rec["allreduce_s"], rec["algorithm"]


def test_a_ragged_last_node_reaches_only_its_gpus_nics():
    # 9 ranks on 8-GPU DGX H100 nodes: the 9th GPU's node reaches one of its eight 400 Gb NICs, 0.73 × 50 GB/s, and
    # every node sends and receives the same bytes. Hierarchical (auto's fastest): 2·7/8·S/360 GB/s + 2·1/2·S/36.5
    # GB/s + 11 × (8.4 + 14·3.4 + 2·14) µs = 1.210 + 6.819 + 0.924 ms; it was charged the node's 292 GB/s (2.44 ms)
    s, lat = GPT2_BF16, 11 * (8.4e-6 + 14 * 3.4e-6 + 2 * 14e-6)
    t, alg = _allreduce(9, system="dgx-h100")
    assert alg == "hierarchical" and t == pytest.approx(1.75 * s / 360e9 + s / 36.5e9 + lat, rel=1e-9)
    # a forced flat ring: 2·8/9·S at the lone NIC's 36.5 GB/s, 2·(9 − 1) − 2 NVLink hops and 2 network hops
    t, _ = _allreduce(9, system="dgx-h100", algorithm="ring")
    assert t == pytest.approx(16 / 9 * s / 36.5e9 + 11 * (8.4e-6 + 14 * 3.4e-6 + 2 * 14e-6), rel=1e-9)
    # 12: four GPUs reach four NICs, 146 GB/s; two whole nodes keep the node's 292 GB/s (tree: 2S/292 + latency)
    t, _ = _allreduce(12, system="dgx-h100")
    assert t == pytest.approx(1.75 * s / 360e9 + s / 146e9 + lat, rel=1e-9)
    t, alg = _allreduce(16, system="dgx-h100")
    assert alg == "tree" and t == pytest.approx(2 * s / 292e9 + 11 * (8.4e-6 + 14 * 3.4e-6 + 2 * 14e-6), rel=1e-9)


def test_the_ragged_share_follows_the_nics_and_stays_whole_where_they_are_unknown():
    assert ragged_network_share([1, 8, 9, 12, 15, 16, 17], 8, 8).tolist() == [1, 1, 1 / 8, 1 / 2, 7 / 8, 1, 1 / 8]
    assert ragged_network_share([9, 12], 8, 32).tolist() == [4 / 32, 16 / 32]  # AWS p5: four 100 Gb EFA a GPU
    assert ragged_network_share([9, 12], 8, 1).tolist() == [1, 1]  # one NIC a node: the last node has it too
    assert ragged_network_share([9, 12], 8, None).tolist() == [1, 1]
    # raw figures give no NIC count: the whole node's network, as before, and the note says why it may be slower
    raw = dict(gpu="h100-80gb", gpus_per_node=8, intra_bw_gbs=450, inter_bw_gbs=400)
    # (the flat ring at the node's 292 GB/s: 2·8/9·S/292 + 11 × 84 µs = 1.515 + 0.924 ms)
    lat = 11 * (8.4e-6 + 14 * 3.4e-6 + 2 * 14e-6)
    assert _allreduce(9, **raw) == (pytest.approx(16 / 9 * GPT2_BF16 / 292e9 + lat, rel=1e-9), "ring")
    (note,) = [n for n in predict(9, model="gpt2", **raw).notes if n.key.startswith("ragged")]
    assert note.key == "ragged_nodes_whole" and note.endswith("whose NICs were not given)")
