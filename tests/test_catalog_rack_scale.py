"""The GB200 NVL72 rack and the Azure ND MI300X v5 node (review IN): the model's node is the fast domain — 72 GPUs
on one NVLink switch fabric, 8 MI300X on a full xGMI mesh — and predict on each gives the α–β sum typed here by
hand from physics.md §1.3's latencies and the systems' sourced figures: DDP's buckets (1 MiB, then 25 MiB), each
an all-reduce of base 8.4 µs + 2(g−1) NVLink hops of 3.4 µs (+ 2·log2(k) network hops of 14 µs for the tree)
+ the bytes at 80 % of NVLink (73 % of the NICs). Nothing else enters, so the tolerance is rounding (1e-9)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clihelp import run_main

import dpscale
from dpscale import catalog
from dpscale.errors import DpscaleError
from dpscale.formulas.overlap import bucket_runs

MIB = 2**20
GRADS = 8e9 * 2  # 8 B parameters, bf16 gradients


def by_hand(per_bucket) -> float:
    """Σ over DDP's buckets of one bucket's all-reduce seconds (sizes: 1 MiB, 610 × 25 MiB, the rest)."""
    sizes, counts = bucket_runs(GRADS)
    assert (sizes[0], sizes[1], counts[1]) == (MIB, 25 * MIB, int((GRADS - MIB) // (25 * MIB)))
    return float(sum(per_bucket(s) * c for s, c in zip(sizes, counts)))


def rows(system: str, sizes: list[int]) -> dict[int, dict]:
    p = dpscale.predict(sizes, params=8e9, precision="bf16", step_time_s=1.0, system=system)
    return {r["devices"]: r for r in p.records()}


def test_a_gb200_nvl72_rack_is_one_ring_of_72_on_nvlink_and_two_racks_a_tree():
    """At 72 GPUs (one rack, no InfiniBand) the all-reduce is a ring over NVLink5: 142 hops of 3.4 µs, 0.49 ms a
    bucket, seven times its 71.8 µs of bytes (142/72 · 25 MiB at 0.8 × 900 GB/s) — latency limits it. At 144 (two
    racks) the tree wins (2·S at min(720, 0.73 × 3,600 GB/s) and 2·log2(2) network hops, 0.59 ms a bucket, against
    the hierarchical's 0.60): 344.4 and 362.2 ms over the 612 buckets."""
    r = rows("gb200-nvl72", [72, 144])
    ring72 = by_hand(lambda s: 8.4e-6 + 2 * 71 * 3.4e-6 + 2 * 71 / 72 * s / (0.8 * 900e9))
    tree144 = by_hand(lambda s: 8.4e-6 + 2 * 71 * 3.4e-6 + 2 * 1 * 14e-6 + 2 * s / (0.8 * 900e9))
    assert r[72]["allreduce_s"] == pytest.approx(ring72, rel=1e-9)
    assert r[144]["allreduce_s"] == pytest.approx(tree144, rel=1e-9)
    assert (round(ring72, 4), round(tree144, 4)) == (0.3444, 0.3622)
    assert (r[72]["algorithm"], r[72]["link"], r[144]["algorithm"]) == ("ring", "latency", "tree")


def test_an_mi300x_node_s_all_reduce_crosses_the_links_its_gpus_share():
    """Azure ND MI300X v5: 2 GPUs share one 64 GB/s xGMI link, 8 ring over 7 × 64 = 448 GB/s; the MI300X has no
    ring fill of its own, so the A100-derived 11.2 µs a step (growing as S/(S + 10 MiB)) applies, and xGMI no hop
    latency, so NVLink's 3.4 µs stands in. At 16 (two VMs) the tree runs 2·S at the NICs' 0.73 × 400 GB/s."""
    r = rows("azure-nd-mi300x-v5", [2, 8, 16])

    def fill(g: int, s: float) -> float:
        return 2 * (g - 1) * 11.2e-6 * s / (s + 10 * MIB)

    two = by_hand(lambda s: 8.4e-6 + 2 * 3.4e-6 + s / (0.8 * 64e9) + fill(2, s))
    eight = by_hand(lambda s: 8.4e-6 + 14 * 3.4e-6 + 14 / 8 * s / (0.8 * 448e9) + fill(8, s))
    sixteen = by_hand(lambda s: 8.4e-6 + 14 * 3.4e-6 + 2 * 14e-6 + 2 * s / (0.73 * 400e9) + fill(8, s))
    got = [r[d]["allreduce_s"] for d in (2, 8, 16)]
    assert got == [pytest.approx(x, rel=1e-9) for x in (two, eight, sixteen)]
    assert [round(x, 4) for x in (two, eight, sixteen)] == [0.3316, 0.1808, 0.2294]
    assert [r[d]["algorithm"] for d in (2, 8, 16)] == ["ring", "ring", "tree"]


def test_the_gb200_gpu_is_its_own_entry_not_the_hgx_b200():
    """'GB200' was refused by --gpu (no entry); it is the 1,200 W part (2,500 dense BF16 against the HGX B200's
    2,250) with 186 GB, and 'B200' stays the HGX part."""
    assert catalog.gpu("NVIDIA GB200")["key"] == "gb200-186gb"
    assert catalog.gpu_in("NVIDIA Blackwell GPU (GB200)") == "gb200"  # NVIDIA's MLPerf name for it
    assert catalog.gpu("B200")["key"] == "b200-180gb"
    assert catalog.system("gb200-nvl72")["gpu"] == "gb200-186gb"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_unknown_system_or_gpu_lists_the_new_entries(capsys, lang):
    """Bad input: one line, exit 2, its allowed list naming every entry — the rack, the MI300X VM and the GB200."""
    rc, out, err = run_main(capsys, "predict", "--model", "llama3-8b", "--system", "tpu-pod", "--lang", lang)
    assert rc == 2 and len(err.strip().splitlines()) == 1
    assert "azure-nd-mi300x-v5" in err and "gb200-nvl72" in err
    rc, out, err = run_main(capsys, "predict", "--model", "llama3-8b", "--system", "dgx-b200", "--gpu", "gb300",
                            "--lang", lang)  # fmt: skip
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "gb200-186gb" in err
    with pytest.raises(DpscaleError, match=r"got 'nvl72' \(did you mean 'gb200-nvl72'\?\)"):
        catalog.system("nvl72")


def test_the_docs_rack_example_gives_its_batch_and_the_knob_for_the_hop_latency():
    """docs/predict.md's GB200 NVL72 paragraph: its Llama-3-8B example gave no batch (predict's default, 32, gives E
    0.943 and 0.916 at 72 and 4,608, not the 0.93 and 0.78 it printed: those are batch 1), and it sent a reader to
    --bucket-mb to see what the rack's 142 NVLink hops a bucket cost, which also cuts each bucket's network and base
    latency. --alpha-intra is that hop: 1.9 µs is NCCL's Ring/LL128 NVLink figure (physics.md §1.3), 0 none."""
    docs = " ".join((Path(__file__).parents[1] / "docs" / "predict.md").read_text(encoding="utf-8").split())
    assert "`dpscale predict --model llama3-8b --precision bf16 --batch 1 --system gb200-nvl72 -d 72,4608`" in docs
    assert "E 0.93 at 72, 0.78 at 4,608" in docs

    def e(**kw) -> list[float]:
        p = dpscale.predict([72, 4608], model="llama3-8b", precision="bf16", system="gb200-nvl72", **kw)
        return [round(r["efficiency"], 3) for r in p.records()]

    assert e(batch=1) == [0.927, 0.781] and e() == [0.943, 0.916]
    assert "`--alpha-intra 1.9` charges NCCL's Ring/LL128 NVLink hop" in docs and "both take E at 4,608 to 0.89" in docs
    assert e(batch=1, alpha_intra_us=1.9)[1] == e(batch=1, alpha_intra_us=0)[1] == 0.893
    assert e(batch=1, bucket_mb=200)[1] == 0.892


def test_a_ragged_mi300x_node_s_note_does_not_call_the_xgmi_mesh_a_cube_mesh(capsys):
    """10 MI300X on two Azure VMs under the hierarchical: the last VM's 2 GPUs share one 64 GB/s xGMI link, so its
    phase takes 2·1/2·S/64 against a whole VM's 2·7/8·S/448, 4× longer, and the phase runs at the whole VM's busbw on
    448·(1.75/7) = 112 GB/s; a note says the phase waits for the last node — until review IO in words for the DGX-1
    alone, '(a cube-mesh: …)', where the MI300X's is a full mesh: both are nodes without a switch."""
    from clihelp import run

    from dpscale.formulas.collectives import ragged_node_link

    mesh = {int(g): bw for g, bw in catalog.system("azure-nd-mi300x-v5")["intra_bw_gbs_by_gpus"].items()}
    assert list(ragged_node_link([10, 12, 16], 8, 448, mesh)) == pytest.approx([112, 192 * 1.75 / 1.5, 448])

    p = dpscale.predict([10], params=8e9, precision="bf16", step_time_s=1.0, system="azure-nd-mi300x-v5",
                        algorithm="hierarchical", bucket_mb=1e6)  # fmt: skip
    (note,) = [n for n in p.notes if n.key == "ragged_mesh"]
    assert note.endswith("on the links among them (a node without a switch: the system's figure for r GPUs)")
    assert "cube" not in note
    argv = ["predict", "--model", "llama3-8b", "--precision", "bf16", "--batch", "1", "--system",
            "azure-nd-mi300x-v5", "-d", "10", "--algorithm", "hierarchical"]  # fmt: skip
    for lang, said in (("en", "(a node without a switch: the system's figure for r GPUs)"),
                       ("es", "(un nodo sin conmutador: la cifra del sistema para r GPU)")):  # fmt: skip
        rc, out, err = run(capsys, *argv, "--lang", lang)
        assert rc == 0 and said in out + err and "cube" not in out + err and "cubo" not in out + err


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_prediction_on_the_new_entries_names_their_gpus_architecture(capsys, lang):
    """Review IP's mutation pass: gb200-186gb's arch shows only in the uncalibrated-architecture note (vector_peak
    takes Hopper as Blackwell), so 'hopper' in its place passed every test while predict on the rack said 'no
    published measurement on Hopper accelerators (gb200-186gb)'. The GB200 is Blackwell (as b200-180gb), the MI300X
    CDNA 3."""
    assert (catalog.gpu("gb200-186gb")["arch"], catalog.gpu("mi300x-192gb")["arch"]) == ("blackwell", "cdna3")
    said = {
        "en": "no published measurement on {} accelerators ({})",
        "es": "ninguna medición publicada en aceleradores {} ({})",
    }
    for system, arch, gpu in (
        ("gb200-nvl72", "Blackwell", "gb200-186gb"),
        ("azure-nd-mi300x-v5", "CDNA 3", "mi300x-192gb"),
    ):
        rc, out, err = run_main(
            capsys, "predict", "--model", "llama3-8b", "--system", system, "-v", "1", "--lang", lang
        )
        assert rc == 0 and said[lang].format(arch, gpu) in out + err, (system, out + err)


def test_the_docs_name_every_system_whose_part_filled_nodes_run_on_their_own_links():
    """Review IT: docs/predict.md said the part-filled node's links (`intra_bw_gbs_by_gpus`) were a cube-mesh's,
    'DGX-1 V100 and P100' — ba3eb60 gave the ND MI300X v5's full xGMI mesh a table too (2 GPUs share 64 GB/s, 8
    ring over 448), and 72f6447 reworded the note for it ('a node without a switch'), while both places in the docs
    still named the DGX-1 alone. Every catalog system with a table is named where the docs list them."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "predict.md").read_text(encoding="utf-8")
    tabled = sorted(k for k, v in catalog.table("systems").items() if v.get("intra_bw_gbs_by_gpus"))
    assert tabled == ["azure-nd-mi300x-v5", "dgx1-p100", "dgx1-v100"]
    row = next(line for line in doc.splitlines() if line.startswith("| intra-node link of a run on part of a node |"))
    ragged = re.search(r"On a node without a switch \(([^)]*)`intra_bw_gbs_by_gpus`\)", doc)
    assert ragged is not None
    for said in (row, ragged[1]):
        assert "DGX-1 V100" in said and "P100" in said and "ND MI300X v5" in said, said
        assert "cube-mesh without one" not in said
