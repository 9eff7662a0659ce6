"""Mutation sweep 10 (session 35, of 559d506..69451fc): gaps the suite left open, each killing a surviving mutant."""

from __future__ import annotations

import json

import pytest
from clihelp import run

import dpscale
from dpscale import catalog, predict
from dpscale.errors import DpscaleError
from dpscale.sources.dataset import read_published

SHORT_HEAD = (
    "cfg,baseline_devices,grad_accum,units_per_sample,system,gpus_per_node,intra_bw_gbs,inter_bw_gbs,model,"
    "precision,per_device_batch,devices,throughput,params_millions"
)
ROW = "a,1,1,1,dgx-a100,8,300,200,m,amp,32,{d},{x},100"
POINTS = [{"bytes": 2**20, "busbw_gbs": 50.0}, {"bytes": 2**25, "busbw_gbs": 200.0}]
BERT = dict(model="bert-large", throughput=150.0, system="dgx-a100")
RAW = dict(params=1e8, step_time_s=0.1, devices=[8], gpus_per_node=8, inter_bw_gbs=100)


def keyed(p, key: str) -> list:
    return [n for n in p.notes if n.key == key]


def calibration(tmp_path, name: str = "calib.json", **origin: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps({"busbw_gbs": 150.0, "alpha_s": 2e-5, "points": POINTS, **origin}))
    return str(path)


# ---- stepmodel.py: ZeRO-1 ------------------------------------------------------------------------------------
def test_zero1_accumulated_reduction_moves_gradient_bytes_and_its_gather_weight_bytes():
    """Under fp8 the weights gathered are bf16 (2 bytes) and the gradients reduced 4: with accumulation both are
    exposed whole, each in its own bytes (the reduction counted in gather bytes equalled bf16's)."""
    kw = dict(model="llama-7b", batch=4, grad_accum=4, system="dgx-h100", zero=1)
    fp8 = predict([8, 64], precision="fp8", **kw).records()
    bf16 = predict([8, 64], precision="bf16", **kw).records()
    assert [r["exposed_comm_s"] for r in fp8] == pytest.approx([0.0991702, 0.1446075], rel=1e-5)
    assert [r["exposed_comm_s"] for r in bf16] == pytest.approx([0.066414, 0.0991752], rel=1e-5)
    assert all(r["exposed_comm_s"] == pytest.approx(r["allreduce_s"]) for r in fp8)  # nothing hides


# ---- scaling.past: the slip refusal's digits -----------------------------------------------------------------
def test_an_e_past_two_is_said_in_four_digits_first(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("\n".join([SHORT_HEAD, ROW.format(d=1, x=100), ROW.format(d=8, x=1876.5)]) + "\n")
    with pytest.raises(DpscaleError, match=r"got 1876\.5, E = 2\.346 against the baseline's 100"):
        read_published(path)
    with pytest.raises(DpscaleError, match=r" is E = 2\.346; allowed: E up to 2"):
        dpscale.fit([(1, 100), (8, 1876.5)])


# ---- fit.py: AT_BOUND (now fit_solve.py's) --------------------------------------------------------------------
def test_a_small_fitted_term_is_not_taken_for_one_at_its_bound():
    """A serial fraction of 1.16e-5 (scaled 3.6e-4) is a fitted value, not the solver's 4e-17 at the bound."""
    f = dpscale.fit(devices=[1, 8, 16, 32], throughput=[1000, 7999, 15996, 31990], law="amdahl", resamples=50)
    assert f.values[0] == pytest.approx(1.15928e-05, rel=1e-4)
    assert f.parameters["serial_fraction"].value == pytest.approx(1.15928e-05, rel=1e-4)


# ---- fit_io.py: the conflict note's decimals -----------------------------------------------------------------
def test_a_spread_past_the_bound_in_the_fifth_decimal_is_said_in_five():
    f = dpscale.fit([(1, 100), (2, 196), (2, 201.50912), (4, 380), (8, 700)], resamples=100)
    (w,) = [w for w in f.warnings if w.key == "runs_conflicting"]
    assert w.fields["places"] == 5
    assert "(spread 2.77182 %, beyond the 2.77181 % within which" in w


# ---- dataset.py: the unclosed-quote explanation --------------------------------------------------------------
@pytest.mark.parametrize(
    "rows, end, message",
    [
        ([ROW.format(d=1, x=100), ROW.format(d=8, x='"770')], "\n",
         r"line 3: a quote opened on this line does not close before the file ends"),  # opened on the last line
        ([ROW.format(d=1, x=100).replace(",m,", ',"m,'), ROW.format(d=8, x=770)], "",
         r"line 2: a quote opened on this line does not close before the file ends"),  # no last \n
        ([ROW.format(d=1, x=100), ROW.format(d=8, x=770).replace(",m,", ',"big,\nmodel",').rsplit(",", 1)[0]],
         "\n", r"line 3: got 13 fields; allowed: 14 as in the header$"),  # a closed two-line cell, a comma on line 1
    ],
)  # fmt: skip
def test_the_unclosed_quote_rule(tmp_path, rows, end, message):
    path = tmp_path / "q.csv"
    path.write_text("\n".join([SHORT_HEAD, *rows]) + end)
    with pytest.raises(DpscaleError, match=r"q\.csv " + message):
        read_published(path)


# ---- predict.py / predict_inputs.py: calibration_elsewhere ----------------------------------------------------
def test_where_a_calibration_was_measured_is_read_as_its_file_says(tmp_path, capsys):
    def said(d: list[int], **origin: object) -> list:
        p = predict(d, calibration=calibration(tmp_path, **origin), **BERT)
        return [n.fields for n in keyed(p, "calibration_elsewhere")]

    assert said([8], backend="nccl", devices=2)[0]["device"] == "?"  # not said: '?', not ''
    assert said([8], backend=5, device=7, devices=4)[0] | {"g": 0} == {"backend": "?", "device": "?", "ranks": "4",
                                                                       "g": 0}  # fmt: skip
    assert said([8], backend="nccl", device="cuda", devices=8, nodes=2)[0]["ranks"] == "4"  # a node's, not all
    assert said([8], backend="nccl", device="cuda", devices=16, nodes=3)[0]["ranks"] == "5"
    for odd in (dict(devices=4, nodes=True), dict(devices=True), dict(devices=4, nodes=0), dict(devices=0)):
        assert said([8], backend="nccl", device="cuda", **odd) == [], odd  # no rank count: nothing said, no crash
    path = calibration(tmp_path, backend="nccl", device="cuda", devices=4, nodes=2)
    rc, out, _ = run(capsys, "predict", "--model", "bert-large", "--throughput", "150", "--system", "dgx-a100",
                     "--calibration", path, "-d", "2,4")  # fmt: skip
    want = (
        "note: the calibration was measured with nccl on cuda, 2 ranks a node, and stands here for the all-reduce of "
        "4 GPUs in a node: measure on the cluster's own GPUs, 4 ranks (`dpscale measure allreduce --devices 4`)"
    )
    assert rc == 0 and want in out
    rc, out, _ = run(capsys, "predict", "--model", "bert-large", "--throughput", "150", "--system", "dgx-a100",
                     "--calibration", path, "-d", "2,4", "--lang", "es")  # fmt: skip
    want = (
        "nota: la calibración se midió con nccl en cuda, 2 procesos por nodo, y aquí representa el all-reduce de 4 "
        "GPU en un nodo: mida en las GPU del propio clúster, 4 procesos (`dpscale measure allreduce --devices 4`)"
    )
    assert rc == 0 and want in out
    path = calibration(tmp_path, backend="gloo", device="cpu", devices=2048, nodes=2)
    rc, out, _ = run(capsys, "predict", "--model", "bert-large", "--throughput", "150", "--system", "dgx-a100",
                     "--calibration", path, "-d", "8", "--lang", "es")  # fmt: skip
    assert rc == 0 and "con gloo en cpu, 1.024 procesos por nodo" in out


# ---- predict.py: intra_bidirectional for raw clusters, inter_per_nic -----------------------------------------
def test_a_doubled_nvlink_figure_is_said_only_where_typed_and_used(tmp_path, capsys):
    def bidirectional(**kw: object) -> list:
        return keyed(predict(**{**RAW, **kw}), "intra_bidirectional")

    assert not bidirectional(intra_bw_gbs=62, gpu="a100-80gb")  # twice the PCIe node's 31: no NVLink figure
    assert not bidirectional(intra_bw_gbs=1200, gpu="a100-80gb")  # four times, not twice
    cal = calibration(tmp_path, backend="nccl", device="cuda", devices=8)
    assert not bidirectional(intra_bw_gbs=600, gpu="a100-80gb", calibration=cal)  # the file's figure is used
    own = tmp_path / "sys.json"
    own.write_text(json.dumps({"gpus_per_node": 8, "intra_bw_gbs": 600, "inter_bw_gbs": 100, "gpu": "a100-80gb"}))
    assert not keyed(predict([8], params=1e8, step_time_s=0.1, system_file=str(own)), "intra_bidirectional")
    rc, out, _ = run(capsys, "predict", "--params", "1e8", "--step-time", "0.1", "--gpus-per-node", "8", "--intra-bw",
                     "600", "--inter-bw", "100", "--gpu", "a100-80gb", "-d", "8", "--lang", "es")  # fmt: skip
    assert rc == 0 and "nota: --intra-bw 600 es el doble de los 300 del dgx-a100: los fabricantes" in out


def test_a_system_file_s_doubled_nvlink_figure_is_said_against_the_link_it_names(tmp_path, capsys):
    """A file naming intra_link nvlink3 with intra_bw_gbs 600 gives NVIDIA's both-ways figure (300 each way): said,
    as a typed --intra-bw 600 is; its link's own figure, a link of another kind, or one GPU a node is not."""

    def said(intra: float, link: str = "nvlink3", d: int = 8, **flags: object) -> list:
        own = tmp_path / "sys.json"
        own.write_text(json.dumps({"gpus_per_node": 8, "intra_bw_gbs": intra, "inter_bw_gbs": 200, "intra_link": link,
                                   "gpu": "a100-80gb"}))  # fmt: skip
        return keyed(predict([d], params=1e8, step_time_s=0.1, system_file=str(own), **flags),
                     "intra_bidirectional_file")  # fmt: skip

    (note,) = said(600)
    assert note.fields == {"typed": 600, "own": 300, "link": "nvlink3"}
    assert not said(300) and not said(62, "pcie4") and not said(600, d=1)
    assert not said(600, intra_bw_gbs=300) and not said(600, intra_bw_gbs=600)  # the flag replaced or restated it
    own = tmp_path / "sys.json"
    rc, out, _ = run(capsys, "predict", "--params", "1e8", "--step-time", "0.1", "--system-file", str(own), "-d", "8",
                     "--lang", "es")  # fmt: skip
    assert rc == 0 and "nota: el intra_bw_gbs 600 del archivo de sistema es el doble de los 300 GB/s de su " in out


def test_one_nic_s_figure_is_said_for_a_typed_network_of_a_node_of_four(capsys):
    p = predict([8, 64], params=1e8, step_time_s=0.1, gpus_per_node=4, intra_bw_gbs=300, inter_bw_gbs=12.5)
    (nic,) = keyed(p, "inter_per_nic")
    assert nic == (
        "--inter-bw is the node's, all its NICs together: if 12.5 GB/s is one NIC's and the node has 4 (one a GPU, "
        "as DGX and HGX nodes do), the node's is 50 GB/s"
    )
    assert not keyed(predict([8, 64], params=1e8, step_time_s=0.1, system="pcie-v100-25gbe"), "inter_per_nic")
    rc, out, _ = run(capsys, "predict", "--params", "1e8", "--step-time", "0.1", "--gpus-per-node", "4", "--intra-bw",
                     "300", "--inter-bw", "12.5", "-d", "8,64", "--lang", "es")  # fmt: skip
    assert rc == 0 and "si 12,5 GB/s son los de una NIC y el nodo tiene 4 (una por GPU" in out
    assert "el del nodo es 50 GB/s" in out


# ---- predict_validate.py: half_reduced -----------------------------------------------------------------------
def test_sixteen_bit_gradients_are_read_from_the_framework_column_in_any_case(tmp_path, capsys):
    head = SHORT_HEAD + ",framework"
    path = tmp_path / "p.csv"

    def validate(precision: str, framework: str) -> tuple[dict, float]:
        rows = [f"a,1,1,1,dgx-a100,8,300,200,m,{precision},32,{d},{x},100,{framework}" for d, x in ((1, 100), (8, 770))]
        path.write_text("\n".join([head, *rows]) + "\n")
        rc, out, _ = run(capsys, "validate", str(path), "--json")
        assert rc == 0
        got = json.loads(out)
        return got["unknown_precision"], round(got["rows"][0]["predicted"], 3)

    assert validate("O2", "apex opt_level O2") == ({}, 0.955)  # the framework says 16-bit: not unknown
    assert validate("FP7", "DDP fp16 allreduce") == ({}, 0.955)
    assert validate("mixed", "APEX OPT_LEVEL O2") == ({}, 0.955)  # 2-byte gradients, as 'fp16 allreduce'
    assert validate("fp16 allreduce", "") == ({}, 0.955)
    assert validate("amp O1", "") == ({}, 0.945)  # O1 keeps fp32 gradients
    assert validate("fp32", "") == ({}, 0.945)


def test_a_system_file_s_network_of_one_port_is_said_for_a_node_of_several_nics(tmp_path, capsys):
    """A file with 8 NICs of ib-hdr and inter_bw_gbs 25 gives one port's figure, not the node's 200: said, with the
    node's; the node's own figure, one NIC, a typed --inter-bw, a run within a node, or any preset is not."""

    def said(inter: float, nics: int = 8, d: int = 64, **flags: object) -> list:
        own = tmp_path / "sys.json"
        own.write_text(json.dumps({"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": inter, "nics": nics,
                                   "inter_link": "ib-hdr", "intra_link": "nvlink3", "gpu": "a100-80gb"}))  # fmt: skip
        return keyed(predict([d], params=1e8, step_time_s=0.1, system_file=str(own), **flags), "inter_one_port_file")

    (note,) = said(25)
    assert note.fields == {"bw": 25, "link": "ib-hdr", "nics": 8, "node": 200}
    assert not said(200) and not said(25, nics=1) and not said(25, d=8) and not said(25, inter_bw_gbs=25)
    for name, s in catalog.table("systems").items():  # the presets give their nodes' figures
        assert not keyed(predict([4 * s["gpus_per_node"]], params=1e8, step_time_s=0.1, system=name),
                         "inter_one_port_file"), name  # fmt: skip
    rc, out, _ = run(capsys, "predict", "--params", "1e8", "--step-time", "0.1", "--system-file",
                     str(tmp_path / "sys.json"), "-d", "64", "--lang", "es")  # fmt: skip
    assert rc == 0 and "nota: el inter_bw_gbs 25 del archivo de sistema es el de un puerto ib-hdr: " in out
    assert "las 8 NIC que alcanzan las GPU de la ejecución dan 200 GB/s" in out


def test_a_share_of_a_node_s_nics_is_no_system_file_of_one_port(tmp_path):
    """On part of a file's node the network is the share of its NICs the run reaches: 2 of 8 HDR100 NICs (a file's
    100 GB/s, 12.5 each) run at 25, one HDR port's figure — said as 'the system file's inter_bw_gbs 25 is one
    ib-hdr port's' where the file gives 100; a file of one port (25 for 8 NICs) is still said on half its node."""

    def said(inter: float, g: int) -> list:
        own = tmp_path / "sys.json"
        own.write_text(json.dumps({"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": inter, "nics": 8,
                                   "inter_link": "ib-hdr", "intra_link": "nvlink3", "gpu": "a100-80gb"}))  # fmt: skip
        p = predict([64], params=1e8, step_time_s=0.1, system_file=str(own), gpus_per_node=g)
        return keyed(p, "inter_one_port_file")

    assert not said(100, 2) and not said(100, 4) and not said(200, 2)
    (note,) = said(25, 4)  # the file's 25 for 8 NICs: the 4 the run reaches make 100
    assert note.fields == {"bw": 25, "link": "ib-hdr", "nics": 4, "node": 100}
