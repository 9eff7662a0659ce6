"""Review MJ's mutation pass over predict's search notes (review MC's `Prediction.search_notes`): the sizes it reads
to an answer are the answer's and, keeping E, the first size below the minimum; a throughput's stop at the answer."""

from __future__ import annotations

import pytest
from clihelp import run

# DGX-1 V100's mesh reads 25 GB/s at 2 GPUs and 50 at 3: a typed --intra-bw 25 is the node's own at 2, not at 3
MESH_25 = ["predict", "--model", "bert-large", "--precision", "amp", "--system", "dgx1-v100", "--no-overlap", "-d", "2",
           "--intra-bw", "25"]  # fmt: skip
SAID = (
    "note: --intra-bw 25 replaced the per-GPU-count figures of the dgx1-v100 node's mesh (25 / 50 / 100 / 15.75 / 50 / "
    "100 / 150 GB/s at 2 / 3 / 4 / 5 / 6 / 7 / 8 GPUs: a ring over fewer of its GPUs has fewer links) by one 25 GB/s "
    "for every count; leave --intra-bw out for the mesh's own"
)


def test_keeping_e_the_first_size_below_the_minimum_is_read_so_its_replaced_figure_is_said(capsys):
    """Mutants: `search_notes` slicing the sizes to the answer + 1 for --min-efficiency (not + 2), or reading every
    question as "throughput": -d 2 --min-efficiency 0.3 answers 2 (E 0.345; 0.277 at 3), and the answer rests on 3
    falling below, which read the typed 25 in place of the mesh's 50 — the note went unsaid."""
    rc, out, _ = run(capsys, *MESH_25, "--batch", "8", "--min-efficiency", "0.3")
    lines = out.splitlines()
    assert rc == 0 and "note: largest size with E ≥ 30.0 %: 2 (of sizes up to one node, then whole nodes)" in lines
    assert SAID in lines


def test_a_throughput_s_answer_reads_no_size_past_it_so_no_replaced_figure_is_said(capsys):
    """Mutants: `search_notes` slicing to the answer + 2 for --target-throughput, or reading every size searched
    where the answer is finite: -d 2 --batch 64 --target-throughput 200 answers 2 (266 samples/s; 166 at 1), read
    at 1 and 2 alone, where the typed 25 is the mesh's own — the note said 3's 50, which no answer read."""
    rc, out, _ = run(capsys, *MESH_25, "--batch", "64", "--target-throughput", "200")
    lines = out.splitlines()
    assert rc == 0 and "note: devices for 200 samples/s: 2 (of sizes up to one node, then whole nodes)" in lines
    assert SAID not in lines and not any("replaced the per-GPU-count" in ln for ln in lines)


def test_a_typed_inter_bw_on_one_full_node_is_no_share_replaced(capsys):
    """Mutant: `_replaced`'s `d.max() > cl.gpus_per_node` as `>=`: 2 of a p4d's GPUs at -d 2 are one node, which
    reads no network, and the note said --inter-bw 50 replaced the 12.5 GB/s share they reach; at -d 4 (two nodes)
    it is said."""
    p4d = ["predict", "--model", "bert-large", "--precision", "amp", "--batch", "8", "--system", "aws-p4d",
           "--gpus-per-node", "2", "--no-overlap", "--inter-bw", "50"]  # fmt: skip
    share = (
        "note: --inter-bw 50 is the network of each node's 2 GPUs, in place of the 12.5 GB/s they reach of the aws-p4d "
        "node's 50 (1 of its 4 NICs: NCCL pairs each GPU with the nearest); leave --inter-bw out for that share"
    )
    for d, said in (("2", False), ("4", True)):
        rc, out, _ = run(capsys, *p4d, "-d", d)
        assert rc == 0 and (share in out.splitlines()) == said


@pytest.mark.parametrize("search", [[], ["--min-efficiency", "0.1"]])
def test_a_mesh_s_table_is_not_said_replaced_where_a_calibration_file_replaced_the_links(tmp_path, capsys, search):
    """Mutants: `_replaced`'s `typed[0] and not measured and own` without `not measured`, or the search's partial given
    measured=False: under `--calibration FILE` on a DGX-1 V100 the typed --intra-bw 150 is read by no term (said
    unused), yet the mesh note said it replaced 25 / 50 / … / 150 at 2 to 8 GPUs, on the shown sizes or on those a
    --min-efficiency search read; the E at 5 is the same with it or without."""
    import json

    f = tmp_path / "calib.json"
    f.write_text(json.dumps({"devices": 8, "alpha_s": 20e-6, "busbw_gbs": 100.0, "points": []}))
    argv = ["predict", *MESH_25[1:8], "--batch", "8", "-d", "5", "--calibration", str(f), *search]
    _, plain, _ = run(capsys, *argv)
    rc, out, _ = run(capsys, *argv, "--intra-bw", "150")
    lines = out.splitlines()
    assert rc == 0 and lines[:4] == plain.splitlines()[:4]
    assert (
        "note: --intra-bw 150 is unused: the measured calibration file's all-reduce replaces the node's link (E is the "
        "same without it)"
    ) in lines
    assert not [x for x in lines if "per-GPU-count" in x]
