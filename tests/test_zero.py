"""Sharded data parallelism in the predictor (--zero 1–3): reduce-scatter and all-gathers instead of the all-reduce.

The hand figures use one cluster: 2 nodes × 8 GPUs (p = 16), 300 GB/s NVLink and 100 GB/s of network per node,
achievable = spec (η = 1), no latency, no ring fill, so each collective is its bandwidth term alone:
a flat ring all-reduce of S bytes takes 2·15/16·S / 100 GB/s, a reduce-scatter or an all-gather half that.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from clihelp import run

from dpscale.errors import DpscaleError
from dpscale.formulas.overlap import MIB
from dpscale.formulas.stepmodel import DEFAULT, step_time
from dpscale.sources.predict import predict

BARE = DEFAULT._replace(eta_intra=1.0, eta_inter=1.0, alpha_base=0.0, alpha_intra=0.0, alpha_inter=0.0,
                        ring_fill=0.0, compute_jitter=0.0, sync_hbm_passes=0.0)  # fmt: skip
UNIT = 100 * MIB
AR_UNIT = 2 * 15 / 16 * UNIT / 100e9  # one 100 MiB ring all-reduce across the two nodes: 1.966 ms
CLUSTER = dict(gpus_per_node=8, intra_bw_gbs=300, inter_bw_gbs=100, cal=BARE, bucket_cap=UNIT, first_bucket=UNIT,
               algorithm="ring")  # fmt: skip


def steps(zero: int, micro_s: float = 1.0, units: int = 4, **kw) -> object:
    return step_time(16, micro_s, grad_bytes=units * UNIT, zero=zero, **CLUSTER, **kw)


def test_hand_figures_of_one_unit():
    assert AR_UNIT == pytest.approx(1.9661e-3, rel=1e-4)
    ddp, z1, z3 = (steps(z, overlap=False) for z in (0, 1, 3))
    # DDP: 4 all-reduces; stages 1–2: 4 reduce-scatters + 4 all-gathers, the same 2Ψ; stage 3: 1.5× [ZERO]
    assert ddp.allreduce_s[0] == pytest.approx(4 * AR_UNIT)
    assert z1.allreduce_s[0] == pytest.approx(4 * AR_UNIT)
    assert z3.allreduce_s[0] == pytest.approx(6 * AR_UNIT)
    assert z3.exposed_s[0] == pytest.approx(6 * AR_UNIT)  # without overlap all of it waits
    assert steps(2, overlap=False).allreduce_s[0] == z1.allreduce_s[0]  # stage 2 shards memory, not traffic


def test_half_precision_weights_halve_the_all_gathers():
    z1 = steps(1, overlap=False, param_bytes=2 * UNIT)  # 16-bit weights, fp32 gradients (4 units of each)
    assert z1.allreduce_s[0] == pytest.approx(4 * AR_UNIT / 2 + 4 * AR_UNIT / 4)


def test_overlap_leaves_the_first_gather_and_the_last_reduction():
    # One second of compute hides every collective but the two at the ends: the first unit's gather before
    # forward can start, and the last reduce-scatter (with stage 3 its unit's backward gather) after backward.
    half = AR_UNIT / 2
    assert steps(1).exposed_s[0] == pytest.approx(half + half)
    assert steps(3).exposed_s[0] == pytest.approx(half + 2 * half)
    assert steps(0).exposed_s[0] == pytest.approx(AR_UNIT)  # DDP: the last all-reduce


def test_short_compute_exposes_what_backward_and_forward_cannot_hide():
    # 3 ms of compute: forward 1 ms against 4 gathers of 0.98 ms, backward 2 ms against 4 reduce-scatters
    z1 = steps(1, micro_s=3e-3)
    half = AR_UNIT / 2
    fwd = 4 * half - (1e-3 - 1e-3 / 4)  # the gathers run back to back; forward waits for each
    bwd = 2e-3 / 4 + 4 * half - 2e-3  # the first reduction starts when the first quarter of backward is done
    assert z1.exposed_s[0] == pytest.approx(max(fwd, half) + max(bwd, half))


def test_accumulation():
    one, four = steps(3, overlap=False), steps(3, overlap=False, grad_accum=4)
    assert four.allreduce_s[0] == pytest.approx(4 * one.allreduce_s[0])  # stage 3 gathers every micro-batch
    z1 = steps(1, grad_accum=4)  # stages 1–2 reduce the sum once, after the last micro-batch, and gather once
    assert z1.allreduce_s[0] == pytest.approx(4 * AR_UNIT)
    assert z1.exposed_s[0] == pytest.approx(AR_UNIT / 2 + 4 * AR_UNIT / 2)  # the first gather + every reduction
    assert steps(1, grad_accum=4, overlap_accumulation=True).exposed_s[0] == pytest.approx(AR_UNIT)


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
    z1 = predict(d, zero=1, bucket_mb=unit, **LLAMA)
    z3_same = predict(d, zero=3, bucket_mb=unit, **LLAMA)
    # the same units: stage 3's extra gathers cost time, never save it
    assert np.all(z3_same.efficiency_values <= z1.efficiency_values)
    assert np.all(z3.efficiency_values == z3_same.efficiency_values)
    r = z3.records()
    assert r[0]["allreduce_s"] == pytest.approx(0.1014, rel=0.01)  # 1.5 × 13.5 GB through 8 × 360 GB/s of ring


def test_too_big_even_sharded():
    p = predict([8], model="llama-70b", precision="bf16", batch=1, gpu="h100-80gb", mfu=0.4, system="dgx-h100", zero=1)
    note = next(n for n in p.notes if n.key == "zero_memory")
    assert note.fields["d"] == 8 and note.fields["need"] == pytest.approx((4 + 12 / 8) * 68.98, rel=0.02)


@pytest.mark.parametrize(
    "kw, flag",
    [
        (dict(zero=4), "--zero"),
        (dict(zero=True), "--zero"),
        (dict(zero="3"), "--zero"),
        (dict(zero=3, algorithm="tree"), "--algorithm"),
        (dict(zero=1, algorithm="hierarchical"), "--algorithm"),
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
