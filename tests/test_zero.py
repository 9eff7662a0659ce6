"""Sharded data parallelism in the predictor (--zero 1–3): reduce-scatter and all-gathers instead of the all-reduce.

The hand figures use one cluster: 2 nodes × 8 GPUs (p = 16), 300 GB/s NVLink and 100 GB/s of network per node,
achievable = spec (η = 1). With no latency and no ring fill each collective is its bandwidth term alone: a flat
ring all-reduce of S bytes takes 2·15/16·S / 100 GB/s, a reduce-scatter or an all-gather half that. The overlap
cases are checked against a one-stream FIFO simulated here, independently of formulas/overlap.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from clihelp import bucket_sizes, run
from hypothesis import given, settings
from hypothesis import strategies as st

from dpscale.errors import DpscaleError
from dpscale.formulas.overlap import MIB, bucket_runs
from dpscale.formulas.stepmodel import DEFAULT, step_time
from dpscale.sources.predict import predict

BARE = DEFAULT._replace(eta_intra=1.0, eta_inter=1.0, alpha_base=0.0, alpha_intra=0.0, alpha_inter=0.0,
                        ring_fill=0.0, compute_jitter=0.0, sync_hbm_passes=0.0)  # fmt: skip
UNIT = 100 * MIB
STAGES_SAID = "0 (ddp), 1 (zero1), 2 (zero2), 3 (zero3, fsdp)"  # what a refused --zero allows: numbers and names
AR_UNIT = 2 * 15 / 16 * UNIT / 100e9  # one 100 MiB ring all-reduce across the two nodes, 1.966 ms
CLUSTER = dict(gpus_per_node=8, intra_bw_gbs=300, inter_bw_gbs=100, bucket_cap=UNIT, first_bucket=UNIT)


def steps(zero: int, micro_s: float = 1.0, units: int = 4, **kw) -> object:
    kw = {"cal": BARE, "algorithm": "ring", **CLUSTER, **kw}
    return step_time(16, micro_s, grad_bytes=units * UNIT, zero=zero, **kw)


def half_ring(nbytes: float, cal=BARE) -> float:
    """A reduce-scatter (or all-gather) of nbytes on the 2 × 8 cluster, by hand: half of the flat ring's
    2(p−1) − 2(k−1) = 28 NVLink hops, 2 network hops, 2(g−1) = 14 fill steps and 2·15/16·S bytes, plus the
    collective's base latency."""
    fill = 7 * cal.ring_fill * nbytes / (nbytes + cal.ring_fill_bytes)
    return 14 * cal.alpha_intra + cal.alpha_inter + fill + 15 / 16 * nbytes / 100e9 + cal.alpha_base


def fifo_backward(units: list[float], times: list[float], backward: float) -> float:
    """Exposed time of reductions queued on one stream as backward makes each unit's gradients (units in
    backward order, bytes; gradients uniform in backward time)."""
    ready, end = np.cumsum(units) / sum(units) * backward, 0.0
    for r, t in zip(ready, times):
        end = max(end, r) + t
    return max(end - backward, 0.0)


def fifo_forward(units: list[float], times: list[float], forward: float) -> float:
    """Exposed time of gathers issued back to back on one stream at the start of forward (units in forward
    order), each unit computing after its gather and after the unit before it."""
    gathered, t = 0.0, 0.0
    for b, g in zip(units, times):
        gathered += g
        t = max(t, gathered) + forward * b / sum(units)
    return t - forward


def test_hand_figures_of_one_unit():
    ddp, z1, z2, z3 = (steps(z, overlap=False) for z in (0, 1, 2, 3))
    # DDP: 4 all-reduces; stages 1–2: 4 reduce-scatters + 4 all-gathers, the same 2Ψ; stage 3: 1.5× [ZERO]
    assert ddp.allreduce_s[0] == pytest.approx(4 * AR_UNIT)
    assert z1.allreduce_s[0] == pytest.approx(4 * AR_UNIT)
    assert z2.allreduce_s[0] == pytest.approx(4 * AR_UNIT)
    assert z3.allreduce_s[0] == pytest.approx(6 * AR_UNIT)
    assert z3.exposed_s[0] == pytest.approx(6 * AR_UNIT)  # without overlap all of it waits
    # the network (100 GB/s a node) is the slower link, so every byte counts there: the bottleneck's name
    assert z3.inter_s[0] == pytest.approx(6 * AR_UNIT) and z3.intra_s[0] == 0 and z3.latency_s[0] == pytest.approx(0)


def test_latency_and_ring_fill_are_halved_but_the_base_is_not():
    cal = DEFAULT._replace(eta_intra=1.0, eta_inter=1.0, compute_jitter=0.0, sync_hbm_passes=0.0)
    z1 = steps(1, overlap=False, cal=cal, units=1)
    assert z1.allreduce_s[0] == pytest.approx(2 * half_ring(UNIT, cal))
    assert half_ring(UNIT, cal) - half_ring(UNIT, BARE) == pytest.approx(
        8.4e-6 + 14 * 3.4e-6 + 14e-6 + 7 * 11.2e-6 * UNIT / (UNIT + 10 * MIB)
    )
    assert z1.latency_s[0] == pytest.approx(2 * (8.4e-6 + 14 * 3.4e-6 + 14e-6))


def test_auto_is_the_ring_for_sharded_collectives():
    # the 2-D all-reduce beats the flat ring here (2·7/8·S/300 + S/100 GB/s against 2·15/16·S/100 GB/s),
    # but NCCL's reduce-scatter and all-gather have no such form: "auto" must not pick it for them
    auto, ring = steps(3, overlap=False, algorithm="auto"), steps(3, overlap=False)
    assert auto.allreduce_s[0] == ring.allreduce_s[0]
    two_d = 4 * (2 * 7 / 8 * UNIT / 300e9 + UNIT / 100e9)
    assert steps(0, overlap=False, algorithm="auto").allreduce_s[0] == pytest.approx(two_d)  # DDP takes it
    assert two_d < 0.85 * 4 * AR_UNIT


def test_half_precision_weights_halve_the_all_gathers():
    z1 = steps(1, overlap=False, param_bytes=2 * UNIT)  # 16-bit weights, fp32 gradients (4 units of each)
    assert z1.allreduce_s[0] == pytest.approx(4 * AR_UNIT / 2 + 4 * AR_UNIT / 4)


def test_overlap_leaves_the_first_gather_and_the_last_reduction():
    # One second of compute hides every collective but the two at the ends: the first unit's gather before
    # forward can start, and the last reduce-scatter (with stage 3 its unit's backward gather) after backward.
    # Stage 1 gathers after the optimizer step (DeepSpeed, ZeroRedundancyOptimizer): all four gathers wait.
    half = AR_UNIT / 2
    assert steps(2).exposed_s[0] == pytest.approx(half + half)
    assert steps(1).exposed_s[0] == pytest.approx(4 * half + half)
    assert steps(3).exposed_s[0] == pytest.approx(half + 2 * half)
    assert steps(0).exposed_s[0] == pytest.approx(AR_UNIT)  # DDP: the last all-reduce


@pytest.mark.parametrize("micro_s", [3e-3, 0.02, 0.2])
def test_uneven_units_against_a_simulated_stream(micro_s):
    # DDP's bucket shapes under --zero 1: a 1 MiB unit first in backward (last in forward), two of 25, a 5 MiB tail
    cap, first = 25 * MIB, MIB
    grad = first + 2 * cap + 5 * MIB
    cal = DEFAULT._replace(eta_intra=1.0, eta_inter=1.0, compute_jitter=0.0, sync_hbm_passes=0.0)
    kw = dict(CLUSTER, bucket_cap=cap, first_bucket=first, cal=cal, algorithm="ring")
    z2 = step_time(16, micro_s, grad_bytes=grad, zero=2, param_bytes=grad / 2, **kw)
    units = list(bucket_sizes(grad, cap, first))
    assert units == [first, cap, cap, 5 * MIB]
    rs = [half_ring(u, cal) for u in units]
    ag = [half_ring(u / 2, cal) for u in units]  # 16-bit weights: half the gradient bytes
    want = fifo_forward(units[::-1], ag[::-1], micro_s / 3) + fifo_backward(units, rs, 2 * micro_s / 3)
    assert z2.exposed_s[0] == pytest.approx(want, rel=1e-9)
    z1 = step_time(16, micro_s, grad_bytes=grad, zero=1, param_bytes=grad / 2, **kw)  # gathers after the step
    assert z1.exposed_s[0] == pytest.approx(sum(ag) + fifo_backward(units, rs, 2 * micro_s / 3), rel=1e-9)
    z3 = step_time(16, micro_s, grad_bytes=grad, zero=3, param_bytes=grad / 2, **kw)
    both = [r + a for r, a in zip(rs, ag)]
    want3 = fifo_forward(units[::-1], ag[::-1], micro_s / 3) + fifo_backward(units, both, 2 * micro_s / 3)
    assert z3.exposed_s[0] == pytest.approx(want3, rel=1e-9)


def test_accumulation():
    half = AR_UNIT / 2
    # stage 1 reduces the accumulated gradients once, over the last micro-batch's backward (DeepSpeed's hooks at
    # the boundary), and gathers once a step, after the optimizer step
    z1 = steps(1, grad_accum=4)
    assert z1.allreduce_s[0] == pytest.approx(4 * AR_UNIT)
    assert z1.exposed_s[0] == pytest.approx(4 * half + half)  # every gather + the last reduction
    assert steps(1, grad_accum=4, overlap=False).exposed_s[0] == pytest.approx(4 * half + 4 * half)
    # stage 2 accumulates shards: every micro-batch reduce-scatters, under its own backward
    z2 = steps(2, grad_accum=4)
    assert z2.allreduce_s[0] == pytest.approx(4 * 4 * half + 4 * half)
    assert z2.exposed_s[0] == pytest.approx(half + 4 * half)  # the first gather + each micro-batch's last reduction
    assert z2.inter_s[0] == pytest.approx(z2.allreduce_s[0])
    # stage 3 gathers twice and reduce-scatters in every micro-batch, overlapped or not
    for overlap in (True, False):
        one, four = steps(3, overlap=overlap), steps(3, overlap=overlap, grad_accum=4)
        assert four.allreduce_s[0] == pytest.approx(4 * one.allreduce_s[0])
        assert four.exposed_s[0] == pytest.approx(4 * one.exposed_s[0])
        assert four.inter_s[0] == pytest.approx(4 * one.inter_s[0])
    # with accumulation, sharding more never exposes less than stage 2
    assert steps(3, grad_accum=4).exposed_s[0] >= z2.exposed_s[0]


def test_sizes_and_accumulation_as_arrays():
    d = np.array([8, 16, 64])
    b = step_time(d, 0.01, grad_bytes=4 * UNIT, zero=2, grad_accum=np.array([1, 2, 4]), cal=BARE, **CLUSTER)
    for i, n in enumerate(d):
        one = step_time(int(n), 0.01, grad_bytes=4 * UNIT, zero=2, grad_accum=int([1, 2, 4][i]), cal=BARE, **CLUSTER)
        assert b.step_s[i] == pytest.approx(one.step_s[0]) and b.allreduce_s[i] == pytest.approx(one.allreduce_s[0])


def test_one_device_pays_nothing():
    for z in (1, 2, 3):
        b = step_time(1, 0.1, grad_bytes=UNIT, zero=z, **CLUSTER)
        assert b.allreduce_s[0] == 0 and b.exposed_s[0] == 0 and b.step_s[0] == pytest.approx(0.1)


LLAMA = dict(model="llama-7b", precision="bf16", batch=4, gpu="h100-80gb", mfu=0.4, system="dgx-h100")


def test_a_sharded_llama_fits_and_is_predicted():
    d = [8, 64, 512]
    ddp = predict(d, **LLAMA)
    assert any(n.key == "ddp_memory" for n in ddp.notes)  # 108 GB of states on an 80 GB GPU
    z3 = predict(d, zero=3, **LLAMA)
    keys = {n.key for n in z3.notes}
    assert "ddp_memory" not in keys and "zero_memory" not in keys  # 108 GB / 8 fits
    unit = next(n for n in z3.notes if n.key == "zero_unchecked").fields["unit"]
    assert unit == pytest.approx(6.738e9 * 2 / 32 / MIB, rel=1e-3)  # one of 32 layers in bf16: 401.6 MiB
    # the default units are whole layers, with no 1 MiB unit first
    same = predict(d, zero=3, bucket_mb=unit, first_bucket_mb=unit, **LLAMA)
    assert np.array_equal(z3.efficiency_values, same.efficiency_values)
    small_first = predict(d, zero=3, bucket_mb=unit, first_bucket_mb=1, **LLAMA)
    assert not np.array_equal(z3.efficiency_values, small_first.efficiency_values)
    z1, z2 = predict(d, zero=1, **LLAMA), predict(d, zero=2, **LLAMA)
    assert np.all(z3.efficiency_values <= z2.efficiency_values)  # stage 3's extra gathers cost time, never save it
    # stage 1's gather after the optimizer step: 13.5 GB of bf16 weights, nothing to hide it under
    assert np.all(z1.efficiency_values < z2.efficiency_values)
    one, two = z1.records()[0], z2.records()[0]  # 8 GPUs: the same traffic, half of it the gather
    assert one["allreduce_s"] == two["allreduce_s"]
    assert two["exposed_comm_s"] < 0.1 * two["allreduce_s"]  # prefetched over forward, it nearly all hides
    assert two["allreduce_s"] / 2 < one["exposed_comm_s"] < two["allreduce_s"] / 2 + two["exposed_comm_s"]
    assert z3.records()[0]["allreduce_s"] == pytest.approx(0.1014, rel=0.01)  # 1.5 × 13.5 GB, 8 × 360 GB/s of ring


@pytest.mark.parametrize("model, layers", [("bert-base", 12), ("gpt2-medium", 24), ("gpt2-xl", 48)])
def test_one_unit_per_layer_and_no_more(model, layers):
    p = predict([512], model=model, precision="amp", batch=8, throughput=100, system="dgx-a100", zero=3)
    unit = next(n for n in p.notes if n.key == "zero_unchecked").fields["unit"] * MIB
    sizes, counts = bucket_runs(p._ctx[0]["grad_bytes"], unit, unit)
    assert counts.sum() == layers  # rounding leaves no near-empty unit paying a ring's latency


def test_gathers_carry_the_weights_not_the_gradient_override():
    # amp keeps fp32 weights: with 16-bit gradients (--grad-bytes 2) the gathers still move 4 bytes a parameter
    kw = dict(params=1e9, batch=8, throughput=100, system="dgx-a100", zero=1, bucket_mb=200, first_bucket_mb=200)
    amp = predict([8], precision="amp", grad_bytes_per_param=2, **kw).records()[0]["allreduce_s"]
    bf16 = predict([8], precision="bf16", **kw).records()[0]["allreduce_s"]
    # the same reduce-scatters; the gathers differ by 2 bytes a parameter through one node's ring at 0.8 × 300 GB/s
    assert amp - bf16 == pytest.approx(7 / 8 * 2e9 / 240e9, rel=0.01)


def test_memory_notes():
    p = predict([2, 4, 512], model="llama-13b", precision="bf16", batch=1, gpu="h100-80gb", mfu=0.4,
                system="dgx-h100", zero=1)  # fmt: skip
    note = next(n for n in p.notes if n.key == "zero_memory")  # 512 devices fit, 2 and 4 do not: the 4 are named
    assert note.fields["d"] == 4 and note.fields["need"] == pytest.approx((4 + 12 / 4) * 13.02, rel=0.01)
    p = predict([8], model="llama-70b", precision="bf16", batch=1, gpu="h100-80gb", mfu=0.4, system="dgx-h100", zero=1)
    note = next(n for n in p.notes if n.key == "zero_memory")
    assert note.fields["d"] == 8 and note.fields["need"] == pytest.approx((4 + 12 / 8) * 68.98, rel=0.02)
    # ZeRO-1 on 8 devices: amp keeps fp32 weights and gradients whole, 8 + 8/8 bytes a parameter (117 GB for
    # Llama-13B: it does not fit); 16-bit weights with an fp32 master copy keep 4 + 12/8 (71.6 GB: it does)
    kw = dict(model="llama-13b", batch=1, gpu="h100-80gb", mfu=0.4, system="dgx-h100", zero=1)
    note = next(n for n in predict([8], precision="amp", **kw).notes if n.key == "zero_memory")
    assert (
        note.fields["need"] == pytest.approx(9 * 13.02, rel=0.01) and note.fields["mp"] == "amp"
    )  # memory takes amp since session 27
    # the command it names gives the same figure (it sent amp's 621 GB to `dpscale memory`, which says 379 by default)
    from dpscale.formulas.memory import model_states

    same = model_states(13.02e9, 8, 1, "adam", note.fields["mp"]).total / 1e9
    assert note.fields["need"] == pytest.approx(same, rel=0.01)
    assert not any(n.key == "zero_memory" for n in predict([8], precision="bf16", **kw).notes)


@pytest.mark.parametrize(
    "kw, flag",
    [
        (dict(zero=4), "^zero: got"),
        (dict(zero=True), "^zero: got"),
        (dict(zero="3"), "^zero: got"),
        (dict(zero=3, algorithm="tree"), "^algorithm: got"),
        (dict(zero=1, algorithm="hierarchical"), "^algorithm: got"),
    ],
)
def test_bad_stage_or_algorithm(kw, flag):
    with pytest.raises(DpscaleError, match=flag):
        predict([8, 16], **LLAMA, **kw)


def test_cli(capsys):
    args = ("predict", "--model", "llama-7b", "--precision", "bf16", "-b", "4", "--gpu", "h100-80gb", "--system",
            "dgx-h100", "-d", "8,64", "--zero", "3")  # fmt: skip
    rc, out, err = run(capsys, *args, "--json")
    assert rc == 0
    assert json.loads(out)[0]["allreduce_s"] == pytest.approx(0.1014, rel=0.01)
    assert "ZeRO-3" in err
    rc, out, err = run(capsys, "predict", "--params", "1e9", "-v", "10", "--system", "dgx-a100", "--zero", "5")
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "--zero" in err
    rc, out, err = run(capsys, *args, "--lang", "es")
    assert rc == 0 and "unidades de 401,6 MiB" in out + err
    # a tiny --params under a preset: the derived unit is at least the smallest bucket, not an error about a flag
    rc, out, err = run(capsys, "predict", "--model", "gpt2", "--params", "1000", "-v", "10", "--system", "dgx-a100",
                       "--zero", "1")  # fmt: skip
    assert rc == 0, err


@settings(max_examples=150, deadline=None)
@given(
    d=st.sampled_from([2, 8, 12, 16, 64, 512]),
    micro_s=st.floats(1e-4, 2.0),
    units=st.floats(0.05, 40.0),
    ga=st.integers(1, 8),
    intra=st.floats(10, 900),
    inter=st.floats(5, 400),
    faster=st.floats(1.0, 4.0),
    zero=st.sampled_from([1, 2, 3]),
)
def test_properties(d, micro_s, units, ga, intra, inter, faster, zero):
    kw = dict(gpus_per_node=8, grad_accum=ga, bucket_cap=25 * MIB, first_bucket=MIB)
    grad = units * 25 * MIB

    def at(**more):
        args = {**kw, "grad_bytes": grad, "intra_bw_gbs": intra, "inter_bw_gbs": inter, "zero": zero, **more}
        return step_time(d, micro_s, **args)

    b = at()
    # overlap hides, never adds; without it every collective of the step waits
    assert b.exposed_s[0] <= at(overlap=False).exposed_s[0] * (1 + 1e-9)
    assert at(overlap=False).exposed_s[0] == pytest.approx(b.allreduce_s[0])
    # the breakdown adds up: link, network and latency seconds make the collectives' time
    assert b.intra_s[0] + b.inter_s[0] + b.latency_s[0] == pytest.approx(b.allreduce_s[0])
    # faster links never slow a step
    assert at(intra_bw_gbs=intra * faster, inter_bw_gbs=inter * faster).step_s[0] <= b.step_s[0] * (1 + 1e-9)
    # sharding the parameters too (stage 3) moves more and hides no more than stage 2, on the same units
    if zero == 2:
        assert at(zero=3).exposed_s[0] >= b.exposed_s[0] * (1 - 1e-9)
        assert at(zero=3).allreduce_s[0] > b.allreduce_s[0]


def test_sharded_units_without_a_preset_are_one_estimated_layer():
    """A --params model under FSDP had 25 MiB units: a 405 B model ran ~31,000 rings a step (64 s of collectives at
    128 GPUs); its units are now one of 127 estimated layers (Llama 3 405B has 126), and a note says so."""
    from dpscale.formulas.compute import estimated_layers

    assert [estimated_layers(n) for n in (6.74e9, 13.0e9, 175e9, 405e9)] == [32, 40, 96, 127]  # 32, 40, 96, 126
    kw = dict(params=405e9, seq_len=8192, precision="bf16", batch=1, system="dgx-h100", zero=3)
    p = predict([8, 128], **kw)
    assert any("one of 127 layers estimated" in n for n in p.notes)
    assert p.records()[1]["allreduce_s"] < 10  # one layer a unit: 8.5 s of collectives, not 64
    given = predict([8, 128], bucket_mb=25, **kw)  # a typed size is kept, and no note
    assert not any("layers estimated" in n for n in given.notes) and given.records()[1]["allreduce_s"] > 30


def test_a_unit_s_mib_keep_their_digits_below_ten_and_a_tenth_from_ten():
    """predict_notes._mib: a note says a unit 'with ,g' — 12,164.6, not 1.216e+04 — so from 10 MiB on it is
    rounded to a tenth (10.26 → 10.3); 'small ones keep their digits': 2.25 MiB stays 2.25, not 2.2 (nor 2.3)."""
    for unit, said in ((2.25, "2.25"), (10.26, "10.3")):
        p = predict([8, 16], params=1e9, batch=8, step_time_s=1.0, system="dgx-a100", zero=3, bucket_mb=unit)
        (note,) = [n for n in p.notes if n.key == "zero_unchecked"]
        assert note.fields["unit"] == unit and note.fields["mib"] == float(said) and f"{said} MiB" in note


def test_fp8_gathers_bf16_weights():
    """fp8 keeps bf16 weights (Transformer Engine on Megatron's --bf16) and fp32 gradients: ZeRO's all-gathers
    moved 4 bytes a parameter under it until a review; amp's fp32 weights move 2 more than fp8's."""
    kw = dict(params=1e9, batch=8, throughput=100, system="dgx-a100", zero=1, bucket_mb=200, first_bucket_mb=200)
    amp = predict([8], precision="amp", **kw).records()[0]["allreduce_s"]
    fp8 = predict([8], precision="fp8", **kw).records()[0]["allreduce_s"]
    bf16 = predict([8], precision="bf16", grad_bytes_per_param=4, **kw).records()[0]["allreduce_s"]
    assert fp8 == pytest.approx(bf16, rel=1e-12)  # the same 4-byte reduce-scatters and 2-byte gathers
    # one node's ring at 0.8 × 300 GB/s; the ring fill, which grows with a message, adds 1 %
    assert amp - fp8 == pytest.approx(7 / 8 * 2e9 / 240e9, rel=0.02)


def test_deepspeed_stages_take_its_5e8_element_buckets():
    """ZeRO-1/2 are DeepSpeed's: it reduce-scatters and gathers in buckets of 5e8 elements (reduce_bucket_size,
    allgather_bucket_size), not one per layer as FSDP wraps — at 1,024 ranks each ring's latency is ~5 ms, and a
    unit per layer made GPT-2 large's ZeRO-1 lose 38 points of E against DDP's traffic."""
    kw = dict(model="gpt2-large", precision="bf16", batch=8, system="aws-p5")
    units = {}
    for zero in (1, 2, 3):
        p = predict([128, 1024], zero=zero, **kw)
        units[zero] = next(n for n in p.notes if n.key == "zero_unchecked").fields["unit"]
        if zero < 3:  # the same E as the bucket typed
            typed = predict([128, 1024], zero=zero, bucket_mb=5e8 * 2 / MIB, **kw).efficiency_values
            assert np.array_equal(p.efficiency_values, typed)
    assert units[1] == units[2] == pytest.approx(5e8 * 2 / MIB)  # 953.7 MiB of bf16
    assert units[3] == pytest.approx(774.03e6 * 2 / 36 / MIB, rel=0.01)  # FSDP: one of 36 layers, ~41 MiB
    ddp = predict([1024], zero=0, **kw).efficiency_values[0]
    z2 = predict([1024], zero=2, **kw).efficiency_values[0]
    assert ddp - 0.06 < z2 <= ddp  # the same bytes in a few big rings, not 36 per step of ~5 ms each
    small = predict([8], model="gpt2", precision="bf16", batch=8, system="aws-p5", zero=2)  # 124 M: one bucket
    one = next(n for n in small.notes if n.key == "zero_unchecked").fields["unit"]
    assert one * MIB == pytest.approx(small._ctx[0]["grad_bytes"])
    bare = predict([8, 128], params=405e9, seq_len=8192, precision="bf16", batch=1, system="dgx-h100", zero=1)
    assert not any("layers estimated" in n for n in bare.notes)  # no layers to estimate: DeepSpeed's buckets


def test_activations_beyond_what_the_states_leave_are_said():
    """Sharding fits Llama-7B's states (16 × 6.7384e9 / 8 = 13.5 GB at 8 GPUs, leaving 80 GiB − 13.5 = 72.4 GB), but
    a batch of 4 sequences of 4,096 stores s·b·h·34 bytes a layer even without the attention scores (FlashAttention
    or selective recompute), × 32 layers = 73.0 GB — and s·b·h·(34 + 5as/h) × 32 = 417 GB with them [KORTH22];
    E was predicted without a word of it. A batch of 2 (36.5 GB), or 4 at --seq-len 2,048, fits; fp32 takes 4
    bytes a value (66 sbh, not 34), so its batch of 3 does not."""
    kw = dict(model="llama-7b", system="dgx-h100", zero=3)
    (note,) = [n for n in predict([8], batch=4, precision="bf16", **kw).notes if n.key == "activation_memory"]
    assert note.fields["sel"] == pytest.approx(4096 * 4 * 4096 * 34 * 32 / 1e9)
    assert note.fields["act"] == pytest.approx(4096 * 4 * 4096 * 194 * 32 / 1e9)
    assert note.fields["left"] == pytest.approx(80 * 2**30 / 1e9 - 16 * 6_738_415_616 / 8 / 1e9)
    assert note.startswith("a batch of 4 sequences of 4,096 stores 73.0 GB of activations per GPU even without the")
    # DDP: the states are one size at every d, so the note names the largest size asked (it said 'at 1 device' of
    # a sweep of 16 and 32), and one sequence is one (a user-journey review): 5.2e9 × 16 = 83.2 GB of 85.9
    # leaves 2.7; b·s·h·34·L = 1,024 · 4,096 · 34 · 32 = 4.56 GB (printed 5 before)
    ddp = predict([16, 32], batch=1, seq_len=1024, params=5.2e9, precision="bf16", model="llama-7b", system="dgx-h100")
    (note,) = [n for n in ddp.notes if n.key == "activation_memory"]
    assert (
        note.startswith("a batch of 1 sequence of 1,024 stores 4.6 GB")
        and "leave of the h100-80gb's 85.9 GB at 32 " in note
    )
    assert "2.7 GB the model states leave" in note

    def said(sizes, **more):
        return [n.fields["d"] for n in predict(sizes, **{**kw, **more}).notes if n.key == "activation_memory"]

    assert said([8, 1024], batch=4, precision="bf16") == [8]  # the largest size short is named, not hidden
    assert said([8, 1024], batch=2, precision="bf16") == []
    assert said([8], batch=4, precision="bf16", seq_len=2048) == []  # --seq-len is the stored sequence
    # fp32: 4 bytes a value, 1 a dropout mask (review HD): 66 sbh a layer, 70.9 GB at a batch of 2, which the 72.4 GB
    # fits (twice the 16-bit count, 73.0 GB, said it did not); a batch of 3 stores 106.3 GB
    assert said([8], batch=2, precision="fp32") == []
    assert said([8], batch=3, precision="fp32") == [8]
    small = predict([8], model="gpt2", precision="bf16", batch=8, system="dgx-h100")
    assert not [n for n in small.notes if n.key == "activation_memory"]
    ddp = predict([8], batch=4, precision="bf16", **dict(kw, zero=0))  # states alone do not fit: that note only
    assert {"ddp_memory"} <= {n.key for n in ddp.notes} and "activation_memory" not in {n.key for n in ddp.notes}


@pytest.mark.parametrize(
    ("precision", "mp", "batch", "left"),
    # amp: 8Ψ + 8Ψ/64 = 54.7 GB of states at ZeRO-1 on 64 leave 31.1 of 85.9; mixed: 4Ψ + 12Ψ/64 = 28.2, leave 57.7
    [("amp", "amp", 2, 31.1), ("bf16", "mixed", 4, 57.7)],
)
def test_the_activation_note_names_the_memory_precision_its_states_were_counted_in(precision, mp, batch, left,
                                                                                    capsys):  # fmt: skip
    """Review LO: `predict --model llama-7b --precision amp -b 2 --system dgx-a100 -d 8,64 --zero 1` said 36.5 GB of
    activations outgrow 'the 31.1 GB the model states leave … at 64 devices; `dpscale memory` sizes it' — and
    `dpscale memory --model llama-7b -b 2 -d 64 --zero 1 --recompute selective --gpu a100-80gb`, at memory's default
    precision (mixed), counts 28.2 GB of states and a total of 64.7 GB: it fits. The note counted amp's fp32 weights
    and gradients (54.7 GB); `--precision amp` gives that, 91.3 GB in all. A bf16 prediction's states are memory's
    'mixed', not its 'bf16' (pure, 8 bytes a parameter: 6.7 GB at ZeRO-3 on 8, where the note counts 13.5). The note
    names the precision, as the ZeRO states note does."""
    from dpscale.faces.cli import main
    from dpscale.faces.i18n import say

    kw = dict(model="llama-7b", system="dgx-a100", zero=1, batch=batch, precision=precision)
    (note,) = [n for n in predict([8, 64], **kw).notes if n.key == "activation_memory"]
    assert note.fields["d"] == 64 and note.fields["left"] == pytest.approx(left, abs=0.05)
    assert str(note).endswith(f"`dpscale memory --precision {mp}` sizes it")
    assert say(note, "es").endswith(f"`dpscale memory --precision {mp}` lo dimensiona")
    argv = ["memory", "--model", "llama-7b", "-b", str(batch), "-d", "64", "--zero", "1", "--gpu", "a100-80gb"]
    assert main([*argv, "--recompute", "selective", "--precision", mp, "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["device_memory_bytes"] - row["model_state_bytes_per_device"]) / 1e9 == pytest.approx(left, abs=0.05)
    assert row["activation_bytes_per_device"] / 1e9 == pytest.approx(note.fields["sel"])
    assert not row["fits"]


@pytest.mark.parametrize(
    ("precision", "mp", "ddp", "zero1"),
    # Llama-7B, Ψ = 6,738,415,616 on 64: fp8 18Ψ = 121.3 GB, ZeRO-1 6Ψ + 12Ψ/64 = 41.7; amp and fp32 16Ψ = 107.8,
    # their fp32 weights and gradients kept whole under ZeRO-1: 8Ψ + 8Ψ/64 = 54.7 (mixed's 4Ψ + 12Ψ/64 = 28.2)
    [("fp8", "fp8", 121.3, 41.7), ("amp", "amp", 107.8, 54.7), ("fp32", "fp32", 107.8, 54.7)],
)
def test_the_ddp_memory_note_names_the_memory_precision_its_states_were_counted_in(precision, mp, ddp, zero1,
                                                                                    capsys):  # fmt: skip
    """Review LS: `predict --model llama-7b --precision fp8 -b 2 --system dgx-h100 -d 8,64` said 'plain DDP needs
    121 GB per GPU … shard them — --zero 1–3 predicts ZeRO/FSDP, `dpscale memory` sizes it', and `dpscale memory
    --model llama-7b -b 2 -d 64 --gpu h100`, at memory's default precision (mixed), says 107.8 GB under DDP and 28.2
    under ZeRO-1: only `--precision fp8` gives the note's 121.3 (and 41.7). Under amp or fp32 DDP's 107.8 agrees, but
    the shards it sends the user to size do not: ZeRO-1 keeps their fp32 weights and gradients whole, 54.7 GB, where
    mixed's 16-bit ones leave 28.2. The note names the precision, as the ZeRO and activation notes do."""
    from dpscale.faces.cli import main
    from dpscale.faces.i18n import say

    (note,) = [n for n in predict([8, 64], model="llama-7b", system="dgx-h100", batch=2, precision=precision).notes
               if n.key == "ddp_memory"]  # fmt: skip
    assert note.fields["need"] == pytest.approx(ddp, abs=0.05)
    assert str(note).endswith(f"ZeRO/FSDP, `dpscale memory --precision {mp}` sizes it")
    assert say(note, "es").endswith(f"ZeRO/FSDP, `dpscale memory --precision {mp}` lo dimensiona")
    argv = ["memory", "--model", "llama-7b", "-b", "2", "-d", "64", "--gpu", "h100", "--precision", mp, "--json"]
    for zero, gb in ((0, ddp), (1, zero1)):
        assert main([*argv, "--zero", str(zero)]) == 0
        assert json.loads(capsys.readouterr().out)["model_state_bytes_per_device"] / 1e9 == pytest.approx(gb, abs=0.05)
    assert main(argv[:-3] + ["--zero", "1", "--json"]) == 0  # the default, mixed: what the bare command said
    assert json.loads(capsys.readouterr().out)["model_state_bytes_per_device"] / 1e9 == pytest.approx(28.2, abs=0.05)


def test_activations_are_checked_at_the_sizes_whose_states_fit_when_a_smaller_one_does_not():
    """Review JZ: Llama 2 70B under ZeRO-3 on DGX B200s (180 GiB = 193.3 GB), micro-batch 1 of 4,096 tokens, swept
    from 1 device. At 1 its states do not fit (16 × 68,976,648,192 = 1,103.6 GB), and that note alone was printed:
    'fewer devices need more' read as if 8 devices fit. At 8 the states are 1,103.6 / 8 = 137.97 GB, leaving
    193.27 − 137.97 = 55.3 GB, and the activations without the scores are 34·s·b·h·L = 34 × 4,096 × 8,192 × 80 =
    91.3 GB [KORTH22]: 8 devices cannot take this step either, which the same sweep without 1 said. At 16: 68.98 GB
    of states leave 124.3 GB, which 91.3 fits — 8 is the largest size short."""
    kw = dict(model="llama-70b", system="dgx-b200", zero=3, batch=1, grad_accum=16, precision="bf16")
    p = predict([1, 8, 16, 64, 512], **kw)
    (states,) = [n for n in p.notes if n.key == "zero_memory"]
    assert states.fields["d"] == 1 and states.fields["need"] == pytest.approx(16 * 68_976_648_192 / 1e9)
    (acts,) = [n for n in p.notes if n.key == "activation_memory"]
    assert acts.fields["d"] == 8
    assert acts.fields["sel"] == pytest.approx(34 * 4096 * 8192 * 80 / 1e9)  # 91.3 GB
    assert acts.fields["left"] == pytest.approx(180 * 2**30 / 1e9 - 16 * 68_976_648_192 / 8 / 1e9)  # 55.3 GB
    assert "more than the 55.3 GB the model states leave of the b200-180gb's 193.3 GB at 8 devices" in acts
    # the note is the one the sweep without 1 device gives
    (alone,) = [n for n in predict([8, 16, 64, 512], **kw).notes if n.key == "activation_memory"]
    assert str(alone) == str(acts)
    # a global batch's share at each size: 1,024 sequences over 1, 8 and 64 devices × 16 are 64, 8 and 1 a
    # micro-batch; 1's states do not fit, 8's do and its 8 sequences (730 GB) do not, 64's one (91.3 GB) fits the
    # 193.3 − 17.2 = 176.0 GB left: the note names 8 devices with their own micro-batch of 8
    strong = predict([1, 8, 64], global_batch=1024, **{k: v for k, v in kw.items() if k != "batch"})
    (acts,) = [n for n in strong.notes if n.key == "activation_memory"]
    assert (acts.fields["d"], acts.fields["b"]) == (8, 8)
    assert acts.fields["sel"] == pytest.approx(8 * 34 * 4096 * 8192 * 80 / 1e9)


def test_gather_bytes_replace_the_precisions_weights_and_nothing_else():
    """--gather-bytes sets only the bytes ZeRO all-gathers: with the compute measured, fp8 gathering 4 bytes and
    all-reducing fp32 gradients is amp exactly; 1 byte (torchao's float8 all-gather, torchtitan's H200 runs) moves
    less and scales better; DDP gathers nothing, so it is refused there rather than ignored."""
    kw = dict(model="llama3-8b", batch=2, seq_len=8192, step_time_s=2.0, system="dgx-h100", zero=3)
    d = [8, 64, 128]
    amp = predict(d, precision="amp", **kw).records()
    as_amp = predict(d, precision="fp8", gather_bytes_per_param=4, **kw).records()
    assert [r["efficiency"] for r in as_amp] == [r["efficiency"] for r in amp]
    fp8 = predict(d, precision="fp8", **kw).records()
    assert [r["efficiency"] for r in predict(d, precision="fp8", gather_bytes_per_param=2, **kw).records()] == [
        r["efficiency"] for r in fp8]  # bf16 weights: the default  # fmt: skip
    one = predict(d, precision="fp8", gather_bytes_per_param=1, **kw).records()
    for r1, r2, r4 in zip(one, fp8, amp):  # per step: 2 gathers of W bytes and a reduce-scatter of 4
        assert r1["allreduce_s"] < r2["allreduce_s"] < r4["allreduce_s"] and r1["efficiency"] >= r2["efficiency"]
    assert one[-1]["efficiency"] > fp8[-1]["efficiency"]
    with pytest.raises(DpscaleError, match=r"gather_bytes_per_param: got 1; allowed: with zero 1–3 only"):
        predict(d, precision="fp8", gather_bytes_per_param=1, **dict(kw, zero=0))


def test_a_measured_table_prices_each_gather_at_its_own_size(tmp_path):
    """With a measured intra-node table, a gather was charged the bandwidth of its reduce-scatter's size: 1-byte
    float8 gathers of 4 MiB reductions are 1 MiB messages, at 10 GB/s in this table, not 4 MiB's 100. By hand, 8
    GPUs, 1e9 parameters: reduce-scatter 4e9 B × 7/8 / 100 GB/s = 35 ms; each of stage 3's two gathers
    1e9 B × 7/8 / 10 GB/s = 87.5 ms (at 4 bytes: 4e9 × 7/8 / 100 = 35 ms)."""
    table = tmp_path / "cal.json"
    points = [
        {"bytes": 2**20, "busbw_gbs": 10},
        {"bytes": 4 * 2**20, "busbw_gbs": 100},
        {"bytes": 2**30, "busbw_gbs": 100},
    ]
    table.write_text(json.dumps({"busbw_gbs": 100, "alpha_s": 1e-5, "points": points}))
    kw = dict(params=1e9, precision="amp", batch=2, step_time_s=1.0, system="dgx-a100", zero=3, bucket_mb=4,
              calibration=str(table))  # fmt: skip
    (own,) = predict([8], **kw).records()
    (one,) = predict([8], gather_bytes_per_param=1, **kw).records()
    assert own["allreduce_s"] == pytest.approx(0.035 + 2 * 0.035, rel=1e-3)
    assert one["allreduce_s"] == pytest.approx(0.035 + 2 * 0.0875, rel=1e-3)


@pytest.mark.parametrize("lang, on, off", [
    ("en", "as ring costs, overlapped (DeepSpeed's", "as ring costs, not overlapped (--no-overlap, DeepSpeed's"),
    ("es", "con costes de anillo, solapadas (el valor", "con costes de anillo, sin solapar (--no-overlap, el valor"),
])  # fmt: skip
def test_the_zero_note_says_overlapped_only_when_it_is(capsys, lang, on, off):
    """`predict --zero 3 --no-overlap` said the collectives were costed 'overlapped', in both languages."""
    argv = ["predict", "--system", "dgx-a100", "--model", "bert-large", "-v", "100", "--zero", "3", "-d", "8,64"]
    rc, out, _ = run(capsys, *argv, "--lang", lang)
    assert rc == 0 and on in out and off not in out
    rc, out, _ = run(capsys, *argv, "--no-overlap", "--lang", lang)
    assert rc == 0 and off in out and on not in out


def test_a_stage_by_name_is_its_number(capsys):
    """`--zero ddp`, `fsdp`, `zero3` were refused ('allowed: 0, 1, 2, 3') by predict, memory and measure: a stage's
    name (any case; zero-1 as zero1) is its number, and the rows keep the number; FSDP's FULL_SHARD is ZeRO-3."""
    from dpscale.faces.cli import measure
    from dpscale.faces.cli.common import Parser

    args = ("predict", "--params", "1e9", "-v", "10", "--system", "dgx-a100", "-d", "8,64", "--json")
    rc, by_number, _ = run(capsys, *args, "--zero", "3")
    assert rc == 0 and json.loads(by_number)[1]["allreduce_s"] > 0
    for name in ("fsdp", "FSDP", "zero3", "zero-3"):
        assert run(capsys, *args, "--zero", name)[:2] == (0, by_number)
    assert run(capsys, *args, "--zero", "ddp")[:2] == run(capsys, *args)[:2]
    assert run(capsys, *args, "--zero", "zero-1")[:2] == run(capsys, *args, "--zero", "1")[:2]
    for name, stage, total in (("ddp", 0, 16e9), ("zero1", 1, 5.5e9), ("Zero2", 2, 3.75e9), ("fsdp", 3, 2e9)):
        rc, out, _ = run(capsys, "memory", "--params", "1e9", "-d", "8", "--zero", name, "--json")
        row = json.loads(out)
        assert rc == 0 and row["stage"] == stage and row["total_bytes_per_device"] == total
    p = Parser(prog="dpscale measure")
    measure.add_arguments(p)
    assert p.parse_args(["--zero", "fsdp"]).zero == "3" and p.parse_args(["--zero", "DDP"]).zero == "0"
    # a name that is no stage is refused as a number that is none, echoed as typed, in either language
    rc, _, err = run(capsys, "memory", "--params", "1e9", "--zero", "fsdp2")
    assert rc == 2 and err == f"dpscale memory: error: --zero: got 'fsdp2'; allowed: {STAGES_SAID} (see --help)\n"
    rc, _, err = run(capsys, "predict", "--zero", "zero4", "--lang", "es")
    assert (
        rc == 2
        and err == f"dpscale predict: error: --zero: se recibió 'zero4'; se admite: {STAGES_SAID} (vea --help)\n"
    )


def test_a_refused_stage_is_told_the_names_too(capsys, client):
    """A refused --zero said 'allowed: 0, 1, 2, 3' although ddp, zero1…zero3 and fsdp are taken: predict, memory and
    measure (and the page) now list each stage with its names, said from the table the parser reads (ZERO_NAMES), so
    the list and what is taken cannot drift; a hyphenated name (zero-1) is its unhyphenated one, said once."""
    from dpscale.errors import ZERO_ALLOWED, ZERO_NAMES

    assert ZERO_ALLOWED == STAGES_SAID
    for name, stage in ZERO_NAMES.items():  # every name listed, under the stage it is
        assert name.replace("-", "") in STAGES_SAID.split(f"{stage} (", 1)[1].split(")", 1)[0]
    for command in ("predict", "memory", "measure"):
        for typed in ("4", "zero4", "fsdp2", "3.0"):
            rc, _, err = run(capsys, command, "--zero", typed)
            assert (
                rc == 2
                and err == f"dpscale {command}: error: --zero: got '{typed}'; allowed: {STAGES_SAID} (see --help)\n"
            )
    rc, _, err = run(capsys, "memory", "--params", "1e9", "--zero", "it's", "--lang", "es")  # echoed as typed
    assert (
        rc == 2 and err == f'dpscale memory: error: --zero: se recibió "it\'s"; se admite: {STAGES_SAID} (vea --help)\n'
    )
    # a number or a name with spaces around it is still its stage, in predict as it was in memory
    args = ("predict", "--params", "1e9", "-v", "10", "--system", "dgx-a100", "-d", "64", "--json")
    assert run(capsys, *args, "--zero", " 3 ")[:2] == run(capsys, *args, "--zero", "3")[:2]
    r = client.post("/api/predict", json={"options": {"zero": "5"}, "lang": "es"})
    assert (
        r.status_code == 422
        and r.json()["error"] == f"dpscale predict: error: --zero: se recibió '5'; se admite: {STAGES_SAID}"
    )


def test_a_stage_s_name_is_read_with_spaces_and_hyphens_on_the_page_too(capsys, client):
    """The names as typed beside a number: ' fsdp ' (a pasted value), ZeRO-2 and ZeRO-3 as DeepSpeed's docs write them
    are stages 3, 2 and 3 — on the command line and through the page's API (POST /api/memory, /api/predict), whose
    fields go through the same parser. A number written as a decimal ('3.0') is no stage."""
    stage = {}
    for name in (" fsdp ", "ZeRO-2", "ZeRO-3", "zero-2"):
        rc, out, _ = run(capsys, "memory", "--params", "1e9", "-d", "8", "--zero", name, "--json")
        assert rc == 0
        stage[name] = json.loads(out)["stage"]
        r = client.post("/api/memory", json={"options": {"params": "1e9", "devices": "8", "zero": name}})
        assert r.status_code == 200 and r.json()["records"]["stage"] == stage[name]
    assert stage == {" fsdp ": 3, "ZeRO-2": 2, "ZeRO-3": 3, "zero-2": 2}
    options = {"params": "1e9", "throughput": "10", "system": "dgx-a100", "devices": "64"}
    by = {z: client.post("/api/predict", json={"options": {**options, "zero": z}}).json()["records"] for z in
          ("2", "ZeRO-2", "3", " fsdp ")}  # fmt: skip
    assert by["ZeRO-2"] == by["2"] != by["3"] == by[" fsdp "]
    r = client.post("/api/memory", json={"options": {"params": "1e9", "zero": "3.0"}})
    assert r.status_code == 422 and r.json()["error"].endswith(f"--zero: got '3.0'; allowed: {STAGES_SAID}")


def test_zero1_reduces_the_accumulated_gradients_over_the_last_backward():
    """DeepSpeed ZeRO-1 with overlap_comm: true — the overlapped case dpscale's default stands for — registers its
    reduction hooks for stage 1 too and fires them only in the boundary micro-batch (stage_1_and_2.py,
    reduce_ready_partitions_and_remove_grads: `partition_gradients or is_gradient_accumulation_boundary`), so the one
    reduce-scatter a step runs over the last micro-batch's backward, as at ga = 1. It was charged whole after it,
    DDP's post-accumulation convention, which no ZeRO-1 implementation runs under overlap (overlap_comm: false, no
    hooks, is --no-overlap: all of it after backward)."""
    half = AR_UNIT / 2
    one, four = steps(1), steps(1, grad_accum=4)
    assert four.allreduce_s[0] == pytest.approx(one.allreduce_s[0]) == pytest.approx(4 * AR_UNIT)
    assert four.exposed_s[0] == pytest.approx(one.exposed_s[0]) == pytest.approx(4 * half + half)
    assert steps(1, grad_accum=4, overlap=False).exposed_s[0] == pytest.approx(8 * half)  # overlap_comm: false
    # so from ga 1 to 2 ZeRO-1's E only rises (its reduction hides as before, compute doubles)
    kw = dict(model="bert-large", precision="amp", throughput=150, system="dgx-a100", zero=1)
    e1, e2 = (predict([64], grad_accum=ga, **kw).efficiency_values[0] for ga in (1, 2))
    assert e2 > e1


@pytest.mark.parametrize("lang, said", [
    ("en", "ZeRO-2/3's in every micro-batch"),
    ("es", "los de ZeRO-2/3 en cada microlote"),
])  # fmt: skip
def test_grad_accum_s_help_says_which_reductions_run_every_micro_batch(capsys, lang, said):
    """--grad-accum's help said 'all-reduce once per step', while --zero 2 and 3 are charged a reduce-scatter in
    every micro-batch (test_accumulation: 4 of them at ga = 4) — the flag's one line now says both."""
    rc, out, _ = run(capsys, "--lang", lang, "predict", "--help")
    text = " ".join(out.split())
    assert rc == 0 and said in text and "once per step; default 1)" not in text


@pytest.mark.parametrize("lang, said", [
    ("en", "dpscale predict: error: --overlap-accumulation and --zero 1: ZeRO's reductions already run under a "
           "micro-batch's backward; allowed: --overlap-accumulation with --zero 0 (DDP) only"),
    ("es", "dpscale predict: error: --overlap-accumulation y --zero 1: las reducciones de ZeRO ya corren bajo el "
           "backward de un microlote; se admite: --overlap-accumulation solo con --zero 0 (DDP)"),
])  # fmt: skip
def test_overlap_accumulation_under_zero_is_refused_not_ignored(capsys, lang, said):
    """--overlap-accumulation once moved ZeRO-1's reduction under the last backward; since ZeRO-1 runs it there by
    default (above) the flag changed nothing under any stage — `--zero 1 --grad-accum 4` gave E 0.936 at 64 DGX H100s
    with or without it, unsaid, as the old docs told ZeRO-1 users to pass it. Refused as --gather-bytes is without
    --zero; DDP keeps it."""
    argv = ["predict", "--model", "llama-7b", "--precision", "bf16", "--batch", "4", "--system", "dgx-h100",
            "--mfu", "0.4", "-d", "64", "--grad-accum", "4", "--lang", lang]  # fmt: skip
    for zero in ("1", "2", "3"):
        rc, _, err = run(capsys, *argv, "--zero", zero, "--overlap-accumulation")
        assert rc == 2 and err.strip() == said.replace("--zero 1:", f"--zero {zero}:"), err
    with pytest.raises(DpscaleError, match=r"^overlap_accumulation and zero 2: ZeRO's reductions already run"):
        predict([8], throughput=150, model="bert-large", zero=2, grad_accum=4, overlap_accumulation=True)
    ddp = [predict([64], model="bert-large", throughput=150, system="dgx-a100", grad_accum=4,
                   overlap_accumulation=oa).efficiency_values[0] for oa in (False, True)]  # fmt: skip
    assert ddp[1] > ddp[0]  # DDP's no_sync still hides the last reduction


def test_the_zero_note_says_torchs_zero_redundancy_optimizer_all_reduces():
    """The note named torch's ZeroRedundancyOptimizer beside DeepSpeed after 'gradients reduce-scattered', as if it
    reduce-scattered too; it all-reduces with DDP, 3Ψ in all (docs/measure.md, docs/predict.md's ZeRO table): only
    its exposed gather is DeepSpeed's. Both languages, overlapped or not."""
    from dpscale.faces.i18n import say

    for overlap in (True, False):
        p = predict([8], model="gpt2", system="dgx-a100", zero=1, overlap=overlap)
        (note,) = [n for n in p.notes if n.key.startswith("zero_unchecked")]
        assert "under ZeRO-1, where nothing hides it (DeepSpeed; torch's ZeroRedundancyOptimizer too, but it " \
               "all-reduces the gradients)" in note  # fmt: skip
        assert "también el ZeroRedundancyOptimizer de torch, aunque este hace all-reduce de los gradientes" in say(
            note, "es"
        )
