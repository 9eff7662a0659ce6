"""A ragged last node on a cube-mesh (review GG): its r GPUs are GPUs 0..r−1 of a DGX-1, with only the NVLinks among
them, and the hierarchical all-reduce's intra-node phase, which every node runs at once, waits for the slower of a
whole node's and that node's (collectives.ragged_node_link; docs/predict.md, "Devices that do not fill whole nodes")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpscale import catalog, predict
from dpscale.formulas.collectives import busbw_factor, link_bandwidth, ragged_node_link
from dpscale.formulas.stepmodel import DEFAULT, step_time

BERT = dict(model="bert-large", precision="amp", batch=32, throughput=150, overlap=False)
V100 = catalog.system("dgx1-v100")
TABLE = {int(k): float(v) for k, v in V100["intra_bw_gbs_by_gpus"].items()}
NODE = float(V100["intra_bw_gbs"])
# the step model on a DGX-1 V100 with no ring fill (the fill counts a whole node's steps, the phase's bytes do not)
MESH = dict(micro_step_s=0.2, grad_bytes=1.34e9, gpus_per_node=8, intra_bw_gbs=NODE, inter_bw_gbs=50.0,
            intra_by_gpus=TABLE, inter_nics=4, cal=DEFAULT._replace(ring_fill=0.0), overlap=False)  # fmt: skip


def test_thirteen_ranks_hierarchical_phase_runs_on_the_links_of_gpus_0_to_4():
    """13 ranks leave GPUs 0-4 in the last node, which hold no NVLink-only ring (the table's 5 GPUs: PCIe, 15.75
    GB/s): the hierarchical's intra-node phase there is a 5-GPU node's ring, 2·4/5·S/(η·15.75), 8.7× the whole
    node's 2·7/8·S/(η·150) that was charged; 12 leave GPUs 0-3 (100 GB/s), slower than a whole node too."""
    hier = step_time([12, 13], algorithm="hierarchical", **MESH)
    one_node = step_time([4, 5], algorithm="ring", **MESH)  # the same GPUs alone: their ring over the same links
    assert hier.intra_s == pytest.approx(one_node.intra_s, rel=1e-12)
    eta, s = DEFAULT.eta_intra, MESH["grad_bytes"]
    by_hand = [busbw_factor(r) * s / (eta * TABLE[r] * 1e9) for r in (4, 5)]
    assert hier.intra_s == pytest.approx(by_hand, rel=1e-9)
    whole = busbw_factor(8) * s / (eta * NODE * 1e9)  # what was charged: 0.0195 s
    assert hier.intra_s[1] > 8 * whole


def test_thirteen_ranks_e_no_longer_rises_on_a_free_whole_node_link():
    """BERT-large AMP at 150/s, --no-overlap: the hierarchical's E(13) was 0.5875 against E(12) 0.5525, GPUs 0-4
    charged 150 GB/s. Now its E(13) falls below E(12), and auto takes the fastest of the three at each size: at 13
    the flat ring, bound by the network (GPUs 0-4 reach 3 EDR NICs, 12's GPUs 0-3 reach 2)."""
    e = {a: predict([12, 13], system="dgx1-v100", algorithm=a, **BERT) for a in ("auto", "hierarchical", "ring",
                                                                                  "tree")}  # fmt: skip
    hier = e["hierarchical"].efficiency_values
    assert hier[1] <= hier[0]
    fastest = np.max([e[a].efficiency_values for a in ("hierarchical", "ring", "tree")], axis=0)
    assert np.all(e["auto"].efficiency_values >= fastest - 1e-12)  # (each bucket's fastest: the small ones' too)
    picked = [(r["algorithm"], r["link"]) for r in e["auto"].records()]
    assert picked == [("hierarchical", "network"), ("ring", "network")]


SWITCHED = [k for k, v in catalog.table("systems").items() if not v.get("intra_bw_gbs_by_gpus")]


@pytest.mark.parametrize("system", SWITCHED)
def test_a_switched_node_s_ragged_sizes_do_not_move(system):
    """A switch (NVSwitch, PCIe) joins any r GPUs as it joins g: every size's hierarchical phase is the whole node's,
    exactly the node's figure, between whole sizes too."""
    entry = catalog.system(system)
    g, bw = entry["gpus_per_node"], float(entry["intra_bw_gbs"])
    d = np.array([1, 2, g, g + 1, g + 2.5, 2 * g - 1, 2 * g + 3, 5 * g + 1.25])
    assert ragged_node_link(d, g, bw).tolist() == link_bandwidth(d, g, bw).tolist()
    kw = dict(MESH, gpus_per_node=g, intra_bw_gbs=bw, intra_by_gpus=None)
    hier = step_time(d[d >= g], algorithm="hierarchical", **kw).intra_s
    assert hier == pytest.approx(np.full(hier.shape, hier[0]), rel=1e-12)


def test_the_ragged_phase_runs_in_a_straight_line_between_whole_sizes():
    """solve reads E between whole sizes: the figure there runs from one whole size's to the next's (12 → 13: GPUs
    0-3's 100 GB/s phase to GPUs 0-4's), the first node and a last node of one GPU keep the node's figure."""
    d = np.array([9, 12, 12.25, 13, 16, 16.5, 17, 4.5])
    got = ragged_node_link(d, 8, NODE, TABLE)
    at12, at13 = (TABLE[r] * busbw_factor(8) / busbw_factor(r) for r in (4, 5))
    assert got.tolist() == pytest.approx([NODE, at12, 0.75 * at12 + 0.25 * at13, at13, NODE, NODE, NODE,
                                          link_bandwidth(4.5, 8, NODE, TABLE)], rel=1e-12)  # fmt: skip
    p = predict([12, 13], system="dgx1-v100", algorithm="hierarchical", **BERT)
    assert min(p.efficiency_values) <= p.efficiency(12.5) <= max(p.efficiency_values)


@settings(max_examples=30, deadline=None)
@given(system=st.sampled_from(["dgx1-v100", "dgx1-p100"]), factor=st.floats(1.001, 20),
       sizes=st.lists(st.floats(1, 64), min_size=1, max_size=6),
       algorithm=st.sampled_from(["auto", "hierarchical", "ring", "tree"]))  # fmt: skip
def test_a_faster_cube_mesh_or_network_never_slows_a_ragged_step(system, factor, sizes, algorithm):
    """'E never falls when the node's link or the network gets faster', on a mesh's table: every figure of the node
    (its own and each size's) times the factor, or the network's."""
    entry = catalog.system(system)
    table = {int(k): float(v) for k, v in entry["intra_bw_gbs_by_gpus"].items()}
    kw = dict(MESH, intra_bw_gbs=float(entry["intra_bw_gbs"]), intra_by_gpus=table, algorithm=algorithm)
    before = step_time(sizes, **kw).step_s
    link = dict(kw, intra_bw_gbs=kw["intra_bw_gbs"] * factor, intra_by_gpus={k: v * factor for k, v in table.items()})
    for faster in (link, dict(kw, inter_bw_gbs=kw["inter_bw_gbs"] * factor)):
        assert np.all(step_time(sizes, **faster).step_s <= before * (1 + 1e-12))


def test_predict_validate_and_the_page_read_a_ragged_dgx1_run_alike(tmp_path):
    """One function charges the ragged node wherever it is read: validate's rows of a DGX-1 table at 10 and 13, from
    a node's measured rate, equal predict's E vs d0, and the page's E equals the library's."""
    from fastapi.testclient import TestClient

    from dpscale.faces.web.app import create_app
    from dpscale.sources.dataset import read_published
    from dpscale.sources.predict_validate import predict_config

    header = ("cfg,baseline_devices,grad_accum,units_per_sample,system,gpu,gpus_per_node,intra_bw_gbs,inter_bw_gbs,"
              "model,precision,per_device_batch,devices,throughput,unit,params_millions")  # fmt: skip
    rows = [f"c,8,1,1,dgx1-v100,v100-16gb,8,,,m,amp,32,{d},{t},samples/s,336" for d, t in ((8, 900), (10, 1000),
                                                                                             (13, 1200))]  # fmt: skip
    f = tmp_path / "t.csv"
    f.write_text("\n".join([header, *rows]) + "\n")
    (c,) = read_published(f)
    got = [p for _, _, p in predict_config(c)]
    kw = dict(system="dgx1-v100", gpu="v100-16gb", params=336e6, precision="amp", batch=32, throughput=900 / 8,
              baseline_devices=8)  # fmt: skip
    lib = predict([10, 13], **kw).records()
    assert got == pytest.approx([r["efficiency_vs_baseline"] for r in lib], abs=1e-12)
    opts = {"model": "bert-large", "precision": "amp", "batch": "32", "throughput": "150", "system": "dgx1-v100",
            "devices": "10,12,13", "no_overlap": True}  # fmt: skip
    page = TestClient(create_app()).post("/api/predict", json={"options": opts}).json()
    want = predict([10, 12, 13], system="dgx1-v100", **BERT).efficiency_values
    assert [r["efficiency"] for r in page["records"]] == pytest.approx(list(want), abs=1e-12)
    assert want[0] == pytest.approx(0.4235, abs=1e-4)  # GPUs 0-1's one NVLink in the phase (0.4678 at 150 GB/s)


def test_the_ragged_note_names_the_sizes_whose_last_node_sets_the_phase(capsys):
    """Where the last node's link is charged, a note says so, English and Spanish: 10 and 12 (GPUs 0-1, 0-3); not 13,
    where auto charges the flat ring (the table's algorithm column; until review GI's follow-up the note named it),
    nor 9 or 17 (one GPU: no phase), nor 16 (whole), nor any size of a switched node."""
    from clihelp import run

    p = predict([9, 10, 12, 13, 16, 17], system="dgx1-v100", **BERT)
    (note,) = [n for n in p.notes if n.key == "ragged_mesh"]
    assert [r["algorithm"] for r in p.records()][1:4] == ["hierarchical", "hierarchical", "ring"]
    assert note.startswith("at 10; 12 devices the hierarchical all-reduce's intra-node phase waits for the last")
    assert not [n for n in predict([9, 12, 13], system="dgx-a100", **BERT).notes if n.key == "ragged_mesh"]
    argv = ["predict", "--model", "bert-large", "--precision", "amp", "-b", "32", "-v", "150", "--system",
            "dgx1-v100", "-d", "12,13", "--no-overlap"]  # fmt: skip
    for lang, said in (("en", "note: at 12 devices the hierarchical all-reduce's intra-node phase waits for "
                               "the last node's r GPUs, on the links among them"),
                       ("es", "nota: con 12 dispositivos la fase dentro del nodo del all-reduce jerárquico "
                              "espera a las r GPU del último nodo")):  # fmt: skip
        rc, out, err = run(capsys, *argv, "--lang", lang)
        assert rc == 0 and said in out + err


@pytest.mark.parametrize("kw", [dict(algorithm="ring"), dict(algorithm="tree"), dict(zero=2), dict(zero=1)])
def test_no_ragged_mesh_note_where_no_hierarchical_is_charged(kw):
    """A forced flat ring or tree, and ZeRO's reduce-scatters and gathers (rings), run no hierarchical phase: E at
    12 and 13 is what it was before review GG, so a note saying that phase waits for the last node is untrue there."""
    p = predict([12, 13], system="dgx1-v100", **BERT, **kw)
    assert [r["algorithm"] for r in p.records()] == [kw.get("algorithm", "ring")] * 2
    assert not [n for n in p.notes if n.key == "ragged_mesh"]
    assert [n.key for n in p.notes if n.key == "ragged_nodes"] == ["ragged_nodes"]  # the NICs' note stays


def test_a_ragged_baseline_charged_a_hierarchical_is_named_too():
    """A measured baseline at 12 DGX-1 V100s is inverted with the hierarchical's node phase on GPUs 0-3's links
    (micro_step_from_baseline runs the same step model), so the note names 12 though the curve (16, 24) lacks it, as it
    did before review GI's follow-up kept only the curve's sizes; a baseline at 13, where auto takes the flat ring
    (the curve's algorithm column at 12, 13), is not named."""
    assert [r["algorithm"] for r in predict([12, 13], system="dgx1-v100", **BERT).records()] == ["hierarchical", "ring"]
    for d0, named in ((12, ["at 12 devices"]), (13, [])):
        p = predict([16, 24], system="dgx1-v100", baseline_devices=d0, **BERT)
        assert [str(n)[: len("at 12 devices")] for n in p.notes if n.key == "ragged_mesh"] == named
        assert [n.key for n in p.notes if n.key == "ragged_nodes"] == ["ragged_nodes"]  # d0's NICs: said either way


def test_a_ragged_last_node_faster_than_a_whole_one_does_not_speed_the_phase():
    """The network phase waits for the slowest node, so a last node whose r GPUs finish first cannot shorten it: on a
    PCIe node (15.75 GB/s a GPU, a ring over all eight) whose GPUs pair on bridges (56.25 GB/s for two), 10 ranks leave
    GPUs 0-1 alone, whose phase takes 1·S/56.25 against a whole node's 1.75·S/15.75 (6.25× longer): the phase is the
    whole node's, as at 16 ranks, not 6.25× faster (ragged_node_link's cap at the node's figure)."""
    table, node = {"2": 56.25}, 15.75
    assert ragged_node_link([10, 16], 8, node, table) == pytest.approx([node, node], rel=1e-12)
    kw = {**MESH, "intra_bw_gbs": node, "intra_by_gpus": {2: 56.25}}
    hier = step_time([10, 16], algorithm="hierarchical", **kw)
    by_hand = busbw_factor(8) * MESH["grad_bytes"] / (DEFAULT.eta_intra * node * 1e9)
    assert hier.intra_s == pytest.approx([by_hand, by_hand], rel=1e-9)


def test_the_ragged_mesh_note_leaves_out_sizes_auto_charges_the_tree():
    """NCCL's tree has no intra-node reduce-scatter phase (allreduce_terms: a chain inside the node, 2S over the slower
    link), so the last node's r GPUs slow no phase of it: where auto charges the tree (22, 23 and 27 DGX-1 V100s,
    their last node GPUs 0-5, 0-6 and 0-2), the note names only the hierarchical's ragged sizes, 20 (GPUs 0-3) and 28
    (GPUs 0-3)."""
    p = predict([20, 22, 23, 27, 28], system="dgx1-v100", **BERT)
    charged = {r["devices"]: r["algorithm"] for r in p.records()}
    assert [d for d, a in charged.items() if a == "tree"] == [22, 23, 27]
    (note,) = [n for n in p.notes if n.key == "ragged_mesh"]
    assert note.startswith("at 20; 28 devices the hierarchical all-reduce's intra-node phase waits")
