"""Mutation sweep 12 (session 36, of today's code: predict_inputs.node_share and cluster's nics_reached, predict's
NIC notes, predict_validate.mesh_table, catalog's nics check, compute's untied embeddings, memory.fit_advice):
gaps the suite left open, each killing a surviving mutant."""

from __future__ import annotations

import json

import pytest

import dpscale
from dpscale import catalog
from dpscale.errors import DpscaleError
from dpscale.formulas.compute import flops_per_sample
from dpscale.formulas.memory import Advice
from dpscale.sources.predict import predict
from dpscale.sources.predict_inputs import cluster

GIB = 2**30


def system_file(tmp_path, **kw) -> str:  # noqa: ANN001
    """One bare system, 8 GPUs a node on 300 GB/s links and a 200 GB/s network (a DGX A100's figures)."""
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 200, **kw}))
    return str(f)


def nic_notes(p) -> list:  # noqa: ANN001
    return [n for n in p.notes if n.key in ("nics_reached", "nics_unknown")]


# ---- sources/predict_inputs.py and predict.py: the NICs part of each node reaches --------------------------------
def test_a_whole_node_of_a_file_without_nics_is_no_part_of_one(tmp_path):
    """predict_inputs.py:205 `1 <= g < whole` → `<= whole`. --gpus-per-node 8 on a file's 8-GPU node is the whole
    node: its 200 GB/s network is all of it, known without nics, so nothing is said of NICs it may not reach
    (2 of 8, below, is part of one and is said)."""
    f = system_file(tmp_path)
    whole = predict([16], system_file=f, gpus_per_node=8, params=3e8, throughput=100, batch=8)
    assert nic_notes(whole) == [] and cluster(None, f, 8).inter_bw_gbs == 200
    part = predict([16], system_file=f, gpus_per_node=2, params=3e8, throughput=100, batch=8)
    assert [n.key for n in nic_notes(part)] == ["nics_unknown"]


def test_a_one_nic_preset_on_part_of_its_node_keeps_its_nic_unsaid():
    """predict_inputs.py:213 `nics > 0` → `nics > 1`. pcie-a100-100gbe has one 100 GbE NIC for its 8 GPUs: GPUs 0-3
    reach ⌈1·4/8⌉ = 1 of 1, the whole 12.5 GB/s, and the catalog knows it — neither 'reaches 1 of its 1' nor 'the
    NICs are unknown, give nics in the system file' (it read the preset as a file without nics)."""
    assert cluster("pcie-a100-100gbe", None, 4).inter_bw_gbs == 12.5
    p = predict([16], system="pcie-a100-100gbe", gpus_per_node=4, params=3e8, throughput=100, batch=8)
    assert nic_notes(p) == []


def test_the_unknown_nics_note_names_the_gpus_the_run_takes(tmp_path):
    """predict.py:434 nics_unknown's g=… → the node's size. 2 of each 8-GPU node of a file without nics: the note
    says the 2 it runs on beside the node's 8, and the whole 200 GB/s it was charged."""
    p = predict([16], system_file=system_file(tmp_path), gpus_per_node=2, params=3e8, throughput=100, batch=8)
    (note,) = nic_notes(p)
    assert str(note) == (
        "on 2 of each custom node's 8 GPUs the run is charged the node's whole network, 200 GB/s, though its GPUs "
        "may reach only some of the NICs: give the node's nics in the system file, or --inter-bw"
    )


# ---- sources/predict_validate.py: mesh_table ------------------------------------------------------------------
HEADER = (
    "cfg,baseline_devices,grad_accum,units_per_sample,system,gpu,gpus_per_node,intra_bw_gbs,inter_bw_gbs,model,"
    "precision,per_device_batch,devices,throughput,unit,params_millions"
)


def test_validate_reads_no_cube_mesh_into_a_node_larger_than_the_dgx1(tmp_path):
    """predict_validate.py:98 `(intra, g) == (preset's intra, preset's G)` → intra alone. A table stating 16 GPUs a
    node on dgx1-v100 describes another node (the DGX-1 holds 8): its link is the flat 150 GB/s at 2 and 4 GPUs, as
    `predict --system dgx1-v100 --gpus-per-node 16` reads it — not the 8-GPU mesh's 25 GB/s at 2 and 100 at 4,
    which would put E(2) well below E(4)."""
    from dpscale.sources.dataset import read_published
    from dpscale.sources.predict_validate import predict_config

    f = tmp_path / "t.csv"
    rows = [f"c,1,1,1,dgx1-v100,v100-16gb,16,,,m,fp32,8,{d},{t},samples/s,1" for d, t in ((1, 4000), (2, 7000),
                                                                                        (4, 14000))]  # fmt: skip
    f.write_text("\n".join([HEADER, *rows]) + "\n")
    (c,) = read_published(f)
    got = [p for _, _, p in predict_config(c)]
    want = dpscale.predict([2, 4], system="dgx1-v100", gpu="v100-16gb", gpus_per_node=16, params=1e6, batch=8,
                           throughput=4000).efficiency_values  # fmt: skip
    assert got == pytest.approx(list(want), abs=1e-12)


# ---- catalog/__init__.py: a system file's nics ------------------------------------------------------------------
def test_a_system_file_s_nics_stop_at_a_million(tmp_path):
    """catalog/__init__.py:187 `nics <= 1e6` → `<= 1e7`. 1,000,000 NICs is the most allowed: one GPU of 8 reaches
    ⌈1e6·1/8⌉ = 125,000 of them, 200 × 125,000 / 1e6 = 25 GB/s; 1,000,001 is refused in the message's own bound."""
    assert cluster(None, system_file(tmp_path, nics=1_000_000), 1).inter_bw_gbs == 25
    with pytest.raises(DpscaleError, match=r"nics 1000001; allowed: the node's compute NICs, a whole number from 1 "):
        cluster(None, system_file(tmp_path, nics=1_000_001), 1)


def test_a_system_file_s_nics_in_quotes_are_quoted_back(tmp_path):
    """catalog/__init__.py:189 `nics {nics!r}` → `{nics}`. "8" in quotes is text, not a count: the refusal shows
    it as read, '8' — a bare 8 read as the number it would have been accepted as."""
    f = system_file(tmp_path, nics="8")
    with pytest.raises(DpscaleError) as e:
        cluster(None, f, 1)
    assert str(e.value) == (
        f"--system-file: {f}: system 'custom': nics '8'; allowed: the node's compute NICs, a whole number from 1 to "
        "1,000,000"
    )


# ---- formulas/compute.py: tied_embeddings ----------------------------------------------------------------------
def test_a_count_no_larger_than_the_embedding_is_taken_as_given():
    """compute.py:28 `n > lookup` → `n >= lookup`. llama-7b's input embedding is V·h = 32,000 × 4,096 = 131,072,000;
    a typed --params of exactly that leaves no layers, so it is taken as given (never 0): 6·N·s + 12·L·h·s² at
    s = 4,096 is 6 × 131,072,000 × 4,096 + 12 × 32 × 4,096 × 4,096² = 3.2212e12 + 2.6388e13 = 2.9609e13."""
    model = catalog.model("llama-7b")
    n = 32_000 * 4_096
    want = 6 * n * 4_096 + 12 * 32 * 4_096 * 4_096**2
    assert flops_per_sample(model, params=n) == pytest.approx(want, rel=1e-12)
    assert want == pytest.approx(2.9609e13, rel=1e-4)


# ---- formulas/memory.py: fit_advice -----------------------------------------------------------------------------
def test_headroom_of_exactly_five_percent_is_not_tight():
    """memory.py:364 `room < TIGHT · memory` → `<=`. 5,937,500,000 parameters under Adam mixed take 16 bytes each,
    95e9 bytes for DDP on a 100e9-byte device: 5e9 left, exactly 5 % — not 'under 5 %'. One parameter more takes 16
    bytes of it, and that is."""
    keys = [a.key for a in dpscale.fit_advice(dpscale.fit_all(5.9375e9, 8, device_memory_bytes=1e11))]
    assert keys[0] == "mem_least" and "mem_tight" not in keys
    keys = [a.key for a in dpscale.fit_advice(dpscale.fit_all(5.9375e9 + 1, 8, device_memory_bytes=1e11))]
    assert "mem_tight" in keys


def test_tight_headroom_names_the_stage_that_has_it():
    """memory.py:365 mem_tight's stage=best → 0. 7.5 B on 64 devices: DDP's 120e9 bytes overflow, ZeRO-1's
    (4 + 12/64) × 7.5e9 = 31.406e9 fit a device of that / 0.955 with 4.5 % left: tight, and ZeRO-1's, as the CLI
    says it ('ZeRO-1 leaves only …'), not DDP's."""
    need = (4 + 12 / 64) * 7.5e9
    advice = dpscale.fit_advice(dpscale.fit_all(7.5e9, 64, device_memory_bytes=need / 0.955))
    assert [(a.key, a.stage) for a in advice] == [("mem_least", 1), ("mem_tight", 1)]
    assert advice[1].room == pytest.approx(0.045 * need / 0.955)


def test_the_autocast_only_copy_advice_carries_both_copies():
    """memory.py:372 mem_ddp_copy_tight's copy=copy → the autocast one. 1e9 parameters under Adam mixed on 20e9
    bytes: DDP takes 16e9, 4e9 left (20 %); the plain bucket copy, 2 bytes a parameter, 2e9, leaves 2e9 (10 %, not
    tight); torch.autocast's fp32 copy, 4e9, leaves nothing — under 5 % (1e9), so only autocast's copy is advised on,
    with each copy in its own field (a library caller reads both)."""
    advice = dpscale.fit_advice(dpscale.fit_all(1e9, 8, device_memory_bytes=20e9))
    assert advice == (
        Advice("mem_least", stage=0, room=4e9),
        Advice("mem_ddp_copy_tight", stage=0, room=4e9, copy=2e9, copy_autocast=4e9),
    )


def test_rows_of_two_setups_differing_in_one_field_are_refused():
    """memory.py:348 the setup's fields, each dropped in turn. Rows that agree in parameters a device and differ
    only in optimizer (Adam's 16 bytes a parameter against SGD's), tensor parallelism (2e9 at T = 2 against 1e9 at
    T = 1: 1e9 a device either way), activations or the device's memory advise on neither."""
    base = dict(params=1e9, devices=8, activation=1e9, device_memory_bytes=80 * GIB)
    for other in (dict(optimizer="sgd"), dict(params=2e9, tensor_parallel=2), dict(activation=2e9),
                  dict(device_memory_bytes=40 * GIB)):  # fmt: skip
        a, b = dpscale.fit_all(**base), dpscale.fit_all(**{**base, **other})
        assert a[0].states.params == b[0].states.params == 1e9
        with pytest.raises(DpscaleError, match="^fits: "):
            dpscale.fit_advice((a[0], b[1]))


def test_fit_all_rows_carry_their_setup():
    """memory.py:292 MemoryFit's optimizer, precision and tensor_parallel from fit_all (tensor_parallel dropped: the
    default 1). 7e9 parameters at T = 4 hold 1.75e9 a device; each row says the 4, SGD and amp it was computed for."""
    fits = dpscale.fit_all(7e9, 8, device_memory_bytes=80 * GIB, optimizer="sgd", precision="amp", tensor_parallel=4)
    assert {(f.optimizer, f.precision, f.tensor_parallel, f.states.params) for f in fits} == {("sgd", "amp", 4, 1.75e9)}
