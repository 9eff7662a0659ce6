"""predict's inputs: system files, calibration files, raw clusters, the catalog, precision and compute shares, what
a size needs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from clihelp import run

import dpscale
from dpscale import DpscaleError, catalog
from dpscale.formulas.compute import estimated_layers, flops_per_sample
from dpscale.formulas.overlap import MIB, bucket_runs
from dpscale.sources.predict import predict
from dpscale.sources.predict_inputs import default_mfu

# Hostile inputs a second outside fuzzing round (session 37, ~46,700 cases) found ending in a traceback or a
# silent wrong answer: each is one line and exit 2 now, in both languages where the command speaks Spanish.


def test_a_system_files_cpu_cores_of_8_0_is_8(capsys, tmp_path):
    """'cpu_cores: got 8; allowed: … a whole number' refused 8.0 (as nics and gpus_per_node took it since
    f9b00de); read as 8, the decode note says 8 cores: 125 images/s a core, 1,000 for the node's 8 × 300."""
    fields = '{"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 200, "cpu_cores": '
    said = []
    for cores in ("8.0", "8"):
        (tmp_path / "c.json").write_text(fields + cores + "}")
        argv = ["predict", "--model", "resnet-50", "-v", "300", "--system-file", str(tmp_path / "c.json"), "-d", "8,16"]
        rc, out, _ = run(capsys, *argv)
        assert rc == 0 and "2,400 images/s; decoding JPEGs on its 8 CPU cores tops out near 1,000" in out
        said.append(out)
    assert said[0] == said[1]
    (tmp_path / "c.json").write_text(fields + "8.5}")
    rc, _, err = run(capsys, "predict", "--model", "resnet-50", "-v", "300", "--system-file", str(tmp_path / "c.json"))
    assert rc == 2 and "cpu_cores: got 8.5; allowed: the host's CPU cores, a whole number" in err


# Mutation sweep 12 (session 36, of today's code: predict_inputs.node_share and cluster's nics_reached, predict's
# NIC notes, predict_validate.mesh_table, catalog's nics check, compute's untied embeddings, memory.fit_advice):
# gaps the suite left open, each killing a surviving mutant.


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


# Mutation sweep 13 (of the modules earlier sweeps touched least: measure's launcher, results, calibration and
# workloads; the fit, validate, pipeline and batch commands; formulas batch, pipeline, compute and units; the web
# app): gaps the suite left open, each killing a surviving mutant.


# ---- formulas/compute.py --------------------------------------------------------------------------------------
def test_a_tiny_model_is_still_one_layer_deep():
    """compute.py:40 `max(1, …)` → max(0, …). 10,000 parameters: (1e4 / (12 × 128²))^(1/3) = 0.37 rounds to 0
    layers, and a transformer has at least one."""
    assert estimated_layers(1e4) == 1


def test_estimated_depths_round_to_the_nearest_layer():
    """estimated_layers rounds (12 · 128² · L³ = N): Llama 2 70B gives (70e9 / 196,608)^(1/3) = 70.9 → 71 and Llama 3
    405B 126.6 → 127, as its docstring says (truncating gave 70 and 126)."""
    assert (estimated_layers(70e9), estimated_layers(405e9), estimated_layers(6.74e9)) == (71, 127, 32)


# Cases a third mutation sweep (session 28: formulas, sources.laws/fit_laws/predict; 180 mutants, 9 non-equivalent
# survivors that change an answer) found no test could fail on. Each expected figure is derived in its comment, not
# read off the program.


A100 = dict(system="dgx-a100")


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


@pytest.mark.parametrize(
    ("extra", "upto"),
    # 7e9 parameters' fp32 gradients (28 GB) on 16 A100s: DDP's 25 MiB buckets, 200 typed; ZeRO-1's DeepSpeed
    # buckets of 5e8 fp32 elements (1,907.3 MiB), ZeRO-3's one estimated layer (809.2 MiB); 100,000 MiB past
    # measure's 4 GB ceiling
    [({}, "64MB"), ({"bucket_mb": 200}, "256MB"), ({"zero": 1}, "2GB"), ({"zero": 3}, "1GB"),
     ({"bucket_mb": 100000}, "4GB")],
)  # fmt: skip
def test_a_short_calibration_is_sent_to_measure_sizes_that_reach_its_buckets(tmp_path, extra, upto):
    """Review LS: with 200 MiB buckets (or ZeRO-1's 1,907.3 MiB) a calibration stopping at 8 MiB was told 'measure up
    to the bucket size (`dpscale measure allreduce --sizes 1KB..64MB`)', and a table measured so, topping at 64 MiB,
    still stopped under half the bucket: the note came back. The sizes named now reach the bucket (×2 from 1 KB, as
    measure steps), and a table measured at them is not told again."""
    from dpscale.faces.i18n import say
    from dpscale.sources.measure.calibration import parse_sizes

    def notes(sizes):
        f = tmp_path / "cal.json"
        points = [{"bytes": float(s), "busbw_gbs": 120.0} for s in sizes]
        f.write_text(json.dumps({"busbw_gbs": 130.0, "alpha_s": 2e-5, "points": points}))
        kw = dict(params=7e9, step_time_s=0.5, calibration=str(f), system="dgx-a100") | extra
        return [n for n in predict([8, 16], **kw).notes if n.key == "calibration_short"]

    (note,) = notes([1 << 16, 1 << 20, 8 << 20])
    assert str(note).endswith(f"(`dpscale measure allreduce --sizes 1KB..{upto}`)")
    assert say(note, "es").endswith(f"(`dpscale measure allreduce --sizes 1KB..{upto}`)")
    sizes = parse_sizes(f"1KB..{upto}")  # measure's own reading of the flag
    assert sizes[0] == 1024 and sizes[-1] == int(upto[:-2]) << {"MB": 20, "GB": 30}[upto[-2:]]
    assert notes(sizes) == [] or upto == "4GB"  # measured as told, the table reaches the buckets


# Cases a fifth mutation sweep (sources.measure's pure logic, predict_validate, fit_validate, predict_inputs, the
# plan and web faces, notes) found no test could fail on. Each expected value is derived in its docstring or comment,
# from the docs or the arithmetic, not read back from the code. None of these starts torch or a process.


# ---------------------------------------------------------------- sources.predict_inputs


def test_a_cnn_on_an_unknown_gpu_takes_the_fp32_share_only_at_fp32():
    """With no catalog part, fp32 is the fp32 cores' peak: the middle of 57–68 % = 62.5 %; amp a tensor-core peak:
    the middle of 14–29 % = 21.5 % (default_mfu's docstring)."""
    from dpscale.sources.predict_inputs import default_mfu

    assert default_mfu({"kind": "cnn"}, "fp32", None) == pytest.approx(0.625)
    assert default_mfu({"kind": "cnn"}, "amp", None) == pytest.approx(0.215)


@pytest.mark.parametrize("entry, said", [
    ({"cpu_cores": 0}, "cpu_cores: got 0; allowed: the host's CPU cores"),
    ({"cpu_cores": 2_000_000}, "cpu_cores: got 2000000; allowed: the host's CPU cores"),
    ({"intra_link": "pcie-4"}, "intra_link 'pcie-4'; allowed: one of the catalog's links"),
    ({"intra_bw_gbs_by_gpus": {"２": 25}}, "intra_bw_gbs_by_gpus: got '２'"),  # a full-width 2: isdecimal, not ASCII
    ({"intra_bw_gbs_by_gpus": {"2": 2e6}}, "intra_bw_gbs_by_gpus: got 2000000;"),  # past BANDWIDTH's 1e6 GB/s
])  # fmt: skip
def test_a_system_file_s_optional_fields_are_checked(tmp_path, entry, said):
    from dpscale.sources.predict_inputs import cluster

    f = tmp_path / "mine.json"
    f.write_text(json.dumps({"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 100, **entry}))
    with pytest.raises(DpscaleError, match=said.replace("(", r"\(")):
        cluster(system_file=str(f))


def test_a_node_size_other_than_the_system_s_drops_its_subset_table():
    """dgx1-v100's cube-mesh table is for runs on fewer of its 8 GPUs; --gpus-per-node 16 describes another node, so
    the table is not used; 4 runs GPUs 0..3 of each node, whose ring is the table's 100 GB/s, with 2 and 3 below it
    (session 36: it was dropped there too, and the flat 150 taken)."""
    from dpscale.sources.predict_inputs import cluster

    assert cluster("dgx1-v100").intra_by_gpus == {2: 25, 3: 50, 4: 100, 5: 15.75, 6: 50, 7: 100}
    assert cluster("dgx1-v100", gpus_per_node=16).intra_by_gpus is None
    four = cluster("dgx1-v100", gpus_per_node=4)
    assert (four.intra_bw_gbs, four.intra_by_gpus) == (100, {2: 25, 3: 50})


@pytest.mark.parametrize(("kw", "said"), [
    (dict(system="dgx-a100", gpus_per_node=0), "--gpus-per-node: got 0; allowed: a whole number from 1 to 10,000,000"),
    (dict(gpus_per_node=8, intra_bw_gbs=5e-4, inter_bw_gbs=1.0),
     "--intra-bw: got 0.0005; allowed: a bandwidth in GB/s, from 0.001 to 1,000,000"),
])  # fmt: skip
def test_a_node_of_no_gpus_and_a_link_under_a_megabyte_per_second_are_refused(kw, said):
    """0 GPUs a node is refused, not replaced by the system's 8; 0.0005 GB/s is below BANDWIDTH's 0.001 (each by
    its own bound, named: review LZ)."""
    from dpscale.sources.predict_inputs import cluster

    with pytest.raises(DpscaleError) as exc:
        cluster(**kw)
    assert str(exc.value) == said


def test_raw_figures_are_a_custom_cluster():
    """Without --system the cluster is 'custom', as Prediction's own default names it."""
    from dpscale.sources.predict_inputs import cluster

    assert cluster(gpus_per_node=8, intra_bw_gbs=100.0, inter_bw_gbs=10.0).name == "custom"


@pytest.mark.parametrize("change, said", [
    ({"points": {}}, "points {}; allowed: a list of measured sizes"),
    ({"alpha_s": 5.0}, "alpha_s 5; allowed: busbw_gbs as a bandwidth"),
    ({"points": [{"bytes": 1e11, "busbw_gbs": 1.0}, {"bytes": 2e3, "busbw_gbs": 1.0}]}, "point bytes 1e+11"),
    ({"points": [{"bytes": 0.5, "busbw_gbs": 1.0}, {"bytes": 2e3, "busbw_gbs": 1.0}]}, "point bytes 0.5"),
])  # fmt: skip
def test_a_calibration_file_outside_what_a_run_measures_is_refused(tmp_path, change, said):
    """points must be a list ({} once fell back to the α–β fit without a word); α is at most 1 s; a point's one
    message takes at most a minute (1e11 B at 1 GB/s is 100 s) and is at least 1 byte."""
    from dpscale.sources.predict_inputs import load_calibration

    f = tmp_path / "calib.json"
    f.write_text(json.dumps({"busbw_gbs": 1.5, "alpha_s": 1e-5, **change}))
    with pytest.raises(DpscaleError, match=said.replace("+", r"\+")):
        load_calibration(str(f))


@pytest.mark.parametrize("field, value", [("eta_intra", 0.0), ("ring_fill_bytes", 0.5), ("sync_bytes_max", 0.5)])
def test_a_calibration_object_s_floors_are_checked(field, value):
    """CALIBRATION_BOUNDS: a link's share η is > 0 (1e-6 at least: 0 divides by zero), byte counts are ≥ 1 byte."""
    from dpscale.formulas.stepmodel import DEFAULT
    from dpscale.sources.predict_inputs import check_calibration

    with pytest.raises(DpscaleError, match=f"calibration.{field}"):
        check_calibration(DEFAULT._replace(**{field: value}))


# Mutation sweep 9 (session 35, of 9e8c82d..559d506): gaps the suite left open, each killing a surviving mutant.


# ---- predict.py: Prediction.band ----------------------------------------------------------------------------
def test_e_s_band_stays_at_or_below_one_above_the_measured_size():
    """A tiny model on fast links keeps E ≈ 0.95–0.99: its +9 % share would read E_hi 1.03–1.05 unclipped."""
    from dpscale.sources.predict import predict

    p = predict([2, 8, 64], params=1e6, step_time_s=1.0, system="dgx-a100")
    lo, hi = p.band()
    assert hi.tolist() == [1.0, 1.0, 1.0] and (lo < p.efficiency_values).all()
    assert [r["actual_throughput_hi"] for r in p.records()] == pytest.approx([64, 256, 2048])


# Review 43, reviewer D: each test failed before its fix.


ONE_NODE = dict(params=25.6e6, throughput=100.0, gpus_per_node=8, intra_bw_gbs=300)


def test_one_node_needs_no_network_figure():
    """Every size within one node (d ≤ gpus_per_node) crosses no network: k = 1 zeroes the network's terms, so
    the E the prediction gives cannot depend on it. `predict` refused such a raw cluster for a missing
    --inter-bw, while `validate` takes a single-node table without one (predict_validate.fabric). Property:
    no figure gives the same E as a slow (1 GB/s) and a fast (1,000 GB/s) one."""
    sizes = [1, 2, 4, 8]
    bare = dpscale.predict(sizes, **ONE_NODE).records()
    for inter in (1.0, 1000.0):
        typed = dpscale.predict(sizes, inter_bw_gbs=inter, **ONE_NODE).records()
        assert [r["efficiency"] for r in bare] == [r["efficiency"] for r in typed]
    assert bare[0]["efficiency"] == 1.0 and bare[-1]["efficiency"] < 1.0  # (8 devices do pay an all-reduce)


@pytest.mark.parametrize("extra", [dict(devices=[1, 8, 16]), dict(devices=[8], baseline_devices=16)])
def test_a_run_past_one_node_still_needs_the_network(extra):
    """16 devices on nodes of 8 (a size, or the measured baseline) cross the network: its figure is still asked."""
    with pytest.raises(DpscaleError, match=r"^inter_bw_gbs: missing; allowed: give system=NAME"):
        dpscale.predict(extra.pop("devices"), **extra, **ONE_NODE)


def test_cli_one_node_raw_cluster():
    """The CLI answers a one-node raw cluster (it exited 2 with '--inter-bw: missing')."""
    argv = ["predict", "--params", "25.6e6", "-v", "100", "--gpus-per-node", "8", "--intra-bw", "300", "-d", "1,8"]
    out = subprocess.run([sys.executable, "-m", "dpscale", *argv, "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


# Review 44 (A): small user-facing defects found by hand, each pinned by what the user sees.


@pytest.mark.parametrize(
    ("more", "asked"),
    [
        (["-d", "1..16", "--intra-bw", "100"], "--inter-bw: missing"),  # two 8-GPU nodes: the network is crossed
        (["-d", "1", "--baseline-devices", "2"], "--intra-bw, --inter-bw: missing"),  # a baseline of 2 uses a link
        (["-d", "2"], "--intra-bw, --inter-bw: missing"),
    ],
)
def test_sizes_past_one_device_still_ask_for_the_links_they_cross(capsys, more, asked):
    """Only one device alone goes without them (sizes and baseline)."""
    rc, out, err = run(capsys, "predict", "--gpus-per-node", "8", "--model", "bert-base", "-v", "100", *more)
    assert rc == 2 and not out and err.count("\n") == 1 and asked in err


def test_flops_estimate_follows_params_and_needs_no_preset_for_a_transformer():
    kw = dict(precision="bf16", batch=8, gpu="h100-80gb", system="dgx-h100", mfu=0.4)
    big = predict([1], model="gpt2", params=1.5e9, **kw)  # the preset's shape, 1.5e9 parameters
    flops = 8 * (6 * 1.5e9 * 1024 + 12 * 12 * 768 * 1024**2)
    assert big.breakdown.compute_s[0] == pytest.approx(flops / (0.4 * 989e12))
    bare = predict([1], params=1.3e9, seq_len=2048, **kw)  # no preset: 6·N·tokens
    assert bare.breakdown.compute_s[0] == pytest.approx(8 * 6 * 1.3e9 * 2048 / (0.4 * 989e12))


def test_flops_estimate_when_no_baseline():
    p = predict([1, 8], model="gpt2", precision="bf16", batch=8, gpu="h100-80gb", system="dgx-h100", mfu=0.4)
    # 6·N·s + 12·L·h·s² per sequence, 8 sequences, at 40 % of 989 TFLOP/s
    flops = 8 * (6 * 124_439_808 * 1024 + 12 * 12 * 768 * 1024**2)
    assert p.breakdown.compute_s[0] == pytest.approx(flops / (0.4 * 989e12))
    assert any("compute estimated" in n for n in p.notes)


def test_a_system_file_of_one_gpu_nodes_needs_no_intra_node_figure(tmp_path, capsys):
    f = tmp_path / "eth.json"
    f.write_text(json.dumps({"gpus_per_node": 1, "inter_bw_gbs": 12.5}))
    rc, out, err = run(capsys, "predict", "--params", "1e8", "--step-time", "0.1", "--system-file", str(f),
                       "-d", "2,16", "--json")  # fmt: skip
    assert rc == 0 and [r["link"] for r in json.loads(out)] == ["network", "network"], err


def test_system_file(tmp_path, capsys):
    f = tmp_path / "mine.json"
    f.write_text(json.dumps({"systems": {"lab": {"gpus_per_node": 4, "intra_bw_gbs": 31, "inter_bw_gbs": 12.5}}}))
    rc, out, _ = run(capsys, "predict", "--params", "1e8", "--step-time", "0.1", "--system-file", str(f),
                     "-d", "4,8", "--json")  # fmt: skip
    raw = ["--gpus-per-node", "4", "--intra-bw", "31", "--inter-bw", "12.5"]  # the file's figures, typed
    rc2, typed, _ = run(capsys, "predict", "--params", "1e8", "--step-time", "0.1", *raw, "-d", "4,8", "--json")
    assert rc == rc2 == 0 and json.loads(out) == json.loads(typed)  # its figures are the ones charged
    assert [r["link"] for r in json.loads(out)] == ["intra-node link", "network"]  # 8 devices: two 4-GPU nodes


@pytest.mark.parametrize(
    "content, needle",
    [
        (b'{"systems": {"x": 5}}', "system 'x': got 5; allowed: an object"),
        (b'{"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 100, "gpu": 5}', "gpu 5; allowed: a100-40gb"),
        (b'{"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 100, "gpu": "foo"}', "gpu 'foo'; allowed:"),
        ('{"name": "caf\u00e9"}'.encode("latin-1"), "not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),  # once a RecursionError traceback
        (
            b'{"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 100, "cpu_cores": -4}',
            "cpu_cores: got -4; allowed",
        ),
        # two systems and no --system: the first in the file was taken without a word
        (
            b'{"systems": {"a": {"gpus_per_node": 8, "intra_bw_gbs": 10, "inter_bw_gbs": 1}, "b": {"gpus_per_node": 8, '
            b'"intra_bw_gbs": 300, "inter_bw_gbs": 100}}}',
            "--system: missing; allowed (from",
        ),
    ],
)
def test_a_malformed_system_file_is_one_line(tmp_path, capsys, content, needle):
    f = tmp_path / "sys.json"
    f.write_bytes(content)
    rc, _, err = run(capsys, "predict", "--params", "1e8", "--step-time", "0.1", "--system-file", str(f))
    assert rc == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_gpu_memory_in_the_name_picks_the_variant():
    from dpscale import catalog

    hbm = lambda **kw: catalog.find_gpu(**kw)["hbm_tbs"]  # noqa: E731
    assert hbm(gpu="A100-SXM4-80GB") == 2.039 and hbm(gpu="A100-SXM4-40GB") == 1.555
    assert hbm(system="dgx-a100", gpu="A100 40GB") == 1.555  # the stated part beats the preset's
    assert hbm(system="dgx-a100", gpu="A100") == 2.039


def _calib(tmp_path: Path, points: list[tuple[float, float]] | None, alpha: float = 20e-6, busbw: float = 100.0):
    f = tmp_path / f"calib{len(points or [])}.json"
    rows = [{"bytes": s, "busbw_gbs": b, "time_s": 0, "algbw_gbs": 0} for s, b in points or []]
    f.write_text(json.dumps({"devices": 8, "alpha_s": alpha, "busbw_gbs": busbw, "points": rows}))
    return str(f)


def test_measured_calibration_line_and_curve(tmp_path, capsys):
    kw = dict(params=2.5e8, step_time_s=0.05, gpus_per_node=8, intra_bw_gbs=300, inter_bw_gbs=200)
    # The α–β line alone: every bucket costs α + 2(g−1)/g·S/busbw.
    line = predict(8, calibration=_calib(tmp_path, None), **kw)
    sizes, counts = bucket_runs(2.5e8 * 4, 25 * MIB, MIB)
    expect = (counts * (20e-6 + 1.75 * sizes / 100e9)).sum()
    assert line.records()[0]["allreduce_s"] == pytest.approx(expect)
    # A measured table: each bucket's busbw read off it (here 20 GB/s at 1 MiB rising to 100 at 32 MiB+).
    table = [(MIB, 20.0), (32 * MIB, 100.0), (256 * MIB, 100.0)]
    curve = predict(8, calibration=_calib(tmp_path, table), **kw)
    b = np.interp(np.log(sizes), np.log([MIB, 32 * MIB, 256 * MIB]), [20, 100, 100])
    assert curve.records()[0]["allreduce_s"] == pytest.approx((counts * 1.75 * sizes / (b * 1e9)).sum())
    assert curve.records()[0]["allreduce_s"] > (counts * 1.75 * sizes / 100e9).sum()  # mid sizes run slower
    path = _calib(tmp_path, table)
    rc, out, _ = run(capsys, "predict", "--params", "2.5e8", "--step-time", "0.05", "--gpus-per-node", "8",
                     "--intra-bw", "300", "--inter-bw", "200", "-d", "8", "--calibration", path)  # fmt: skip
    assert rc == 0 and "busbw(size) table (3 sizes)" in out
    # the file replaces the node's link figure, so a raw cluster need not type one (it was '--intra-bw: missing');
    # the same prediction as with any typed figure, table or α–β line
    raw = ("--params", "2.5e8", "--step-time", "0.05", "--gpus-per-node", "8", "--inter-bw", "200", "-d", "8", "--json")
    for f in (path, _calib(tmp_path, None)):
        rc, out, _ = run(capsys, "predict", *raw, "--calibration", f)
        assert rc == 0 and out == run(capsys, "predict", *raw, "--intra-bw", "300", "--calibration", f)[1]
        assert json.loads(out)[0]["allreduce_s"] == pytest.approx(
            predict(8, calibration=f, **kw).records()[0]["allreduce_s"]
        )
    rc, _, err = run(capsys, "predict", *raw)
    assert rc == 2 and "--intra-bw: missing" in err
    rc, _, err = run(capsys, "predict", "--params", "1e8", "--step-time", "0.05", "--system", "dgx-a100",
                     "--calibration", str(tmp_path / "missing.json"))  # fmt: skip
    assert rc == 2 and "--calibration: got" in err
    # gloo's smallest sizes run below 0.001 GB/s: such a table is used, not dropped for the α–β line
    slow = [(2048, 9.6e-4), (MIB, 0.5), (32 * MIB, 2.0)]
    assert {n.key for n in predict(8, calibration=_calib(tmp_path, slow), **kw).notes} >= {"calibration_table"}
    rc, _, err = run(capsys, "predict", "--params", "1e8", "--step-time", "0.05", "--system", "dgx-a100",
                     "--calibration", _calib(tmp_path, [(2048, 0.0), (MIB, 0.5)]))  # fmt: skip
    assert rc == 2 and "point bytes 2048, busbw_gbs 0; allowed: bytes from 1 to 1e15 and busbw_gbs > 0" in err


def test_a_measured_line_replaces_a_cube_mesh_s_table_too(tmp_path):
    """docs/predict.md: a measured --calibration file 'drops the table' of a cube-mesh's links. Two DGX-1 V100 GPUs
    share one 25 GB/s NVLink in the catalog, but a file measured at 100 GB/s busbw is the link: a ring of 2 moves
    2(2−1)/2 · S = S a bucket, so each bucket costs α + S / 100 GB/s (α = the file's 20 µs, no hop or fill terms) —
    read at the table's 25 GB/s it came out 4× slower."""
    sizes, counts = bucket_runs(2.5e8 * 4, 25 * MIB, MIB)
    expect = (counts * (20e-6 + sizes / 100e9)).sum()
    got = predict(2, params=2.5e8, step_time_s=0.5, system="dgx1-v100", calibration=_calib(tmp_path, None))
    assert got.records()[0]["allreduce_s"] == pytest.approx(expect, rel=1e-9)


def test_one_gpu_a_node_leaves_the_preset_s_own_link_unsaid():
    """On 1 of each DGX A100's 8 GPUs the run reaches 1 of its 8 NICs: 200 · 1/8 = 25 GB/s. The node's NVLink figure
    is neither typed nor used (one GPU a node crosses no intra-node link), so the note of what the options changed
    names the GPUs and the network only — never 'intra_bw_gbs 300 → 25', a link taken from the network's figure."""
    p = predict([1, 4], model="bert-large", precision="amp", throughput=150, system="dgx-a100", gpus_per_node=1)
    (note,) = [n for n in p.notes if n.key == "system_overridden"]
    assert note.fields["changes"] == "gpus_per_node 8 → 1; inter_bw_gbs 200 → 25"


def test_a_precision_the_gpu_lists_no_rate_for_is_said():
    """fp8 or bf16 on a V100 ran without a word once a rate was measured (the FLOPs estimate refuses it)."""
    keys = lambda prec, system: {n.key: n for n in predict(16, precision=prec, system=system, throughput=150.0,  # noqa: E731
                                                           model="bert-large").notes}  # fmt: skip
    said = keys("fp8", "dgx1-v100")["precision_no_peak"]
    assert said.fields["prec"] == "fp8" and said.fields["gpu"] == "v100-16gb" and "fp32" in said.fields["has"]
    assert "precision_no_peak" in keys("bf16", "dgx1-v100")
    assert "precision_no_peak" not in keys("bf16", "dgx-a100") and "precision_no_peak" not in keys("amp", "dgx1-v100")


def test_a_calibration_file_with_a_byte_order_mark_is_read(tmp_path):
    """--calibration alone refused a byte-order mark ('allowed: JSON with numbers busbw_gbs and alpha_s', which it
    had); --system-file, validate, --fit and --efficiency-file read one."""
    plain = Path(_calib(tmp_path, [(MIB, 20.0), (32 * MIB, 100.0)]))
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    kw = dict(params=2.5e8, step_time_s=0.05, gpus_per_node=8, intra_bw_gbs=300, inter_bw_gbs=200)
    assert predict(8, calibration=str(bom), **kw).records() == predict(8, calibration=str(plain), **kw).records()


def test_catalog_names_forgive_case_and_separators_and_suggest_the_closest():
    from dpscale import catalog

    assert catalog.system("DGX_A100")["key"] == "dgx-a100" and catalog.model("ResNet-50")["key"] == "resnet50"
    with pytest.raises(DpscaleError, match=r"--model: got 'bert-larg' \(did you mean 'bert-large'\?\); allowed: "):
        catalog.model("bert-larg")
    # the leading part of one key means it; of several, the error names each
    assert catalog.gpu("H100")["key"] == "h100-80gb" and catalog.system("DGX-2")["key"] == "dgx2-v100"
    with pytest.raises(DpscaleError, match=r"got 'v100' \(did you mean 'v100-16gb' or 'v100-32gb'\?\)"):
        catalog.gpu("v100")
    with pytest.raises(DpscaleError, match=r"got 'dgx1' \(did you mean 'dgx1-p100' or 'dgx1-v100'\?\)"):
        catalog.system("dgx1")
    with pytest.raises(DpscaleError, match=r"--system: got 'tpu-pod'; allowed: aws-p4d"):  # nothing close
        catalog.system("tpu-pod")


def test_a_baseline_faster_than_the_gpu_can_compute_is_flagged():
    """150 samples/s of Llama-7B at 4,096 tokens is 29 PFLOP/s a GPU: tokens/s typed as samples/s. The page
    kept BERT-large's default rate when another model was picked, and nothing said so."""

    def keys(v):
        p = predict([8, 64], model="llama-7b", system="dgx-h100", precision="bf16", batch=4, throughput=v)
        return [n for n in p.notes if n.key == "beyond_peak"]

    (note,) = keys(150)
    # 6·(N − V·h)·s + 12·L·h·s² = 6 × 6.607e9 × 4,096 + 12 × 32 × 4,096³ = 188.76 TFLOP a sequence, × 150
    assert "28,316 TFLOP/s" in note and "989 TFLOP/s" in note
    assert keys(5) == []  # 944 TFLOP/s: under the 989 peak (and far above any real MFU, but possible)


def test_a_step_time_in_milliseconds_typed_as_seconds_is_flagged(capsys):
    """predict's table prints 'step ms' and --step-time reads seconds: BERT-large's 213.3 ms typed as 213.3 made
    compute 1,000× longer and E 0.965 at 8 GPUs instead of 0.872, with no word. Under 0.1 % of the peak is said."""
    # 6·N·s + 12·L·h·s² = 6 × 336,226,108 × 128 + 12 × 24 × 1,024 × 128² FLOP a sample, × 32 a micro-batch
    flop = (6 * 336_226_108 * 128 + 12 * 24 * 1024 * 128**2) * 32
    peak = 312e12  # A100's bf16/fp16 tensor-core peak, FLOP/s

    def notes(step_s):
        p = predict([8], model="bert-large", system="dgx-a100", precision="amp", batch=32, step_time_s=step_s)
        return [n for n in p.notes if n.key == "step_time_slow"]

    (note,) = notes(213.3)
    assert f"{flop / 213.3 / 1e12:.3g} TFLOP/s" == "0.0395 TFLOP/s" and "0.0395 TFLOP/s" in note
    assert "0.013 % of the a100-80gb's 312 TFLOP/s" in note and "give --step-time 0.2133;" in note
    assert notes(0.2133) == []  # 39.5 TFLOP/s, 12.7 % of the peak: a real run
    assert notes(flop / (0.00101 * peak)) == [] and len(notes(flop / (0.00099 * peak))) == 1  # the 0.1 % line
    argv = ["predict", "--model", "bert-large", "--precision", "amp", "-b", "32", "--system", "dgx-a100", "-d", "8"]
    rc, err, _ = run(capsys, *argv, "--step-time", "213.3", "--lang", "es")  # (a table: its notes below it)
    assert rc == 0 and "implica 0,0395 TFLOP/s por dispositivo, el 0,013 % del pico" in err
    assert "dé --step-time 0.2133;" in err  # the flag as typed: a decimal point in either language
    rc, err, _ = run(capsys, *argv, "--throughput", "0.15")  # a rate has no milliseconds to slip
    assert rc == 0 and "--step-time" not in err


def test_the_spanish_step_time_note_writes_the_flag_one_way(capsys):
    """Review ID: the Spanish note opened '--step-time 213,3 s implica …' and ended 'dé --step-time 0.2133' — one flag
    with two decimal marks in one sentence, the first of which the flag itself would refuse. A flag is written as it
    is typed (a decimal point) and the typed time is said as a quantity ('un --step-time de 213,3 s'), as English
    says it ('a --step-time of 213.3 s implies')."""
    argv = ["predict", "--model", "bert-large", "--precision", "amp", "-b", "32", "--system", "dgx-a100", "-d", "8"]
    rc, err, _ = run(capsys, *argv, "--step-time", "213.3", "--lang", "es")
    assert rc == 0 and "nota: un --step-time de 213,3 s implica 0,0395 TFLOP/s por dispositivo" in err
    assert "--step-time 213,3" not in err and "dé --step-time 0.2133;" in err


def test_a_step_time_in_milliseconds_is_flagged_for_an_fp32_run_on_tf32_tensor_cores(capsys):
    """predict's default precision is fp32, and on an A100 PyTorch runs it on TF32 tensor cores: BERT-large's
    real 213.3 ms step at batch 32 is 39.5 TFLOP/s, twice the fp32 peak (19.5). Typed as --step-time 213.3 it was
    0.2 % of that peak, above the 0.1 % line, and E came out 0.945 at 64 GPUs with no word (review HU). The floor
    holds an fp32 run to the TF32 peak where the GPU has one: 0.025 % of 156 is said; the real step is not."""

    def notes(step_s: float, gpu_system: str = "dgx-a100") -> list:
        p = predict([64], model="bert-large", system=gpu_system, batch=32, step_time_s=step_s)
        return [n for n in p.notes if n.key == "step_time_slow"]

    (note,) = notes(213.3)
    assert "0.0395 TFLOP/s" in note and "0.025 % of the a100-80gb's 156 TFLOP/s peak" in note
    assert notes(0.2133) == []
    # a V100 has no TF32: its fp32 run is held to fp32's own 15.7, where a real 1.3 s step (35 % of it) is no slip
    assert notes(1.3, "dgx1-v100") == [] and len(notes(1300, "dgx1-v100")) == 1
    argv = ["predict", "--model", "bert-large", "-b", "32", "--system", "dgx-a100", "-d", "64", "--step-time", "213.3"]
    rc, err, _ = run(capsys, *argv, "--lang", "es")
    assert rc == 0 and "el 0,025 % del pico" in err and "dé --step-time 0.2133;" in err


def test_a_step_time_on_a_gpu_without_the_precision_s_peak_is_not_held_to_fp8_s():
    """The MI300X lists no tf32 peak: the step-time floor fell back to the fastest of all, fp8's 2,614.9 TFLOP/s,
    for a tf32 run, and EfficientNet-B0 at batch 8 in 9 ms (2.06 TFLOP/s, 1.3 % of its fp32 163.4) was told it was
    0.079 % of 'the peak' — milliseconds typed as seconds. The fallback is beyond_peak's: fp8 only for an fp8 run."""
    kw = dict(model="efficientnet-b0", gpu="mi300x", precision="tf32", batch=8, gpus_per_node=8, intra_bw_gbs=300)

    def floor(step_s: float, **more) -> list:
        return [n for n in predict([8], step_time_s=step_s, **{**kw, **more}).notes if n.key == "step_time_slow"]

    assert floor(0.009) == []  # 0.16 % of the fastest non-fp8 peak (bf16's 1,307.4)
    (note,) = floor(9.0)  # the slip: 1,000× slower, 0.00016 %, is still said, against 1,307.4
    assert "of the mi300x-192gb's 1307.4 TFLOP/s peak" in note
    # an fp8 run on the MI300X keeps fp8's own peak; fp8 on an A100 (no fp8 peak) its bf16 one
    assert "2614.9 TFLOP/s" in floor(9.0, precision="fp8")[0]
    (a100,) = floor(9.0, gpu="a100-80gb", precision="fp8")
    assert "312 TFLOP/s" in a100


def test_a_calibration_of_booleans_is_refused(tmp_path, capsys):
    """JSON true read as 1 GB/s: E 0.35 instead of 0.87."""
    f = tmp_path / "cal.json"
    f.write_text('{"busbw_gbs": true, "alpha_s": 0}')
    rc, _, err = run(capsys, "predict", "--params", "1e8", "--step-time", "0.1", "--system", "dgx-a100",
                     "--calibration", str(f), "-d", "8")  # fmt: skip
    assert rc == 2 and err.endswith(f"{f}: busbw_gbs true; allowed: JSON with numbers busbw_gbs and alpha_s\n")


@pytest.mark.parametrize(
    ("text", "en", "es"),
    [
        ('{"busbw_gbs": 100, "alpha_s": "x"}', 'alpha_s "x"; allowed: JSON with numbers busbw_gbs and alpha_s',
         'alpha_s "x"; se admite: JSON con los números busbw_gbs y alpha_s'),
        ('{"alpha_s": 1e-5}', "busbw_gbs missing; allowed: JSON with numbers busbw_gbs and alpha_s",
         "falta busbw_gbs; se admite: JSON con los números busbw_gbs y alpha_s"),
        ("[1, 2]", "allowed: JSON with numbers busbw_gbs and alpha_s",  # no object: no field to name
         "se admite: JSON con los números busbw_gbs y alpha_s"),
    ],
)  # fmt: skip
def test_a_calibration_field_that_is_no_number_is_named_with_its_value(tmp_path, capsys, text, en, es):
    """'alpha_s': "x" was refused as 'allowed: JSON with numbers busbw_gbs and alpha_s', naming neither the field nor
    what it held, as a missing field was said; now the field and its value (or 'missing'), in both languages."""
    f = tmp_path / "cal.json"
    f.write_text(text)
    argv = ["predict", "--params", "1e8", "--step-time", "0.1", "--system", "dgx-a100", "--calibration", str(f), "-d",
            "8"]  # fmt: skip
    for lang, line in (("en", en), ("es", es)):
        rc, out, err = run(capsys, *argv, "--lang", lang)
        assert (rc, out, err) == (2, "", f"dpscale predict: error: --calibration: {f}: {line}\n")


def test_a_calibration_given_keeps_its_own_hop_latency():
    from dpscale.formulas.stepmodel import DEFAULT

    slow = DEFAULT._replace(alpha_intra=50e-6)
    a = predict([8], params=1e8, step_time_s=0.1, system="dgx-a100", calibration=slow).breakdown.latency_s[0]
    b = predict([8], params=1e8, step_time_s=0.1, system="dgx-a100").breakdown.latency_s[0]
    assert a > 10 * b  # 50 µs a hop, not the link's 3.4


def test_a_prediction_refuses_sizes_that_are_not_device_counts():
    p = predict([8], params=1e8, step_time_s=0.1, system="dgx-a100")
    for bad in (0, -3, float("nan"), float("inf")):
        with pytest.raises(DpscaleError, match=r"devices: got"):
            p.efficiency(bad)  # 0 and −3 once gave E = 1.0, nan gave nan
    assert 0 < p.efficiency(8.5) < 1  # between whole sizes the step model is continuous


def test_a_cnn_estimated_from_flops_says_how_far_cnns_sit_from_the_default_mfu():
    """ResNet-50 AMP on an A100 at the default 35 % ran 4,451 images/s; published runs do 2,470–2,897. A CNN
    preset now takes the middle of the published range: 21.5 % there (2,734 images/s), 62.5 % in fp32."""
    p = predict([1, 8], model="resnet50", precision="amp", batch=256, system="dgx-a100")
    assert any("published ResNet-50 runs reach: 14–29 % of the tensor-core peak" in n for n in p.notes)
    assert p.per_device_throughput == pytest.approx(256 / (6 * 4.089e9 * 256 / (312e12 * 0.215)), rel=1e-3)
    assert 2470 < p.per_device_throughput < 2897
    # the share follows the kind of peak, not the precision's name: V100's tf32 is its fp32 cores (138 images/s
    # at the tensor share against fp32's 400), Pascal has no tensor cores, AMD's fp32 figure is its matrix cores'
    rate = lambda prec, gpu: predict([1], model="resnet50", precision=prec, batch=64, gpu=gpu,  # noqa: E731
                                     system="dgx-a100").per_device_throughput  # fmt: skip
    assert rate("tf32", "v100-16gb") == rate("fp32", "v100-16gb") == pytest.approx(400, abs=1)
    assert rate("amp", "p100-16gb") == pytest.approx(2 * rate("fp32", "p100-16gb"))  # 21.2 against 10.6, one share
    assert rate("fp32", "mi300x-192gb") < 2470  # 0.215 of 163.4 (matrix): 1,432; at 0.625 it out-ran an A100's AMP
    q = predict([1, 8], model="gpt2", precision="bf16", batch=8, gpu="h100-80gb", system="dgx-h100")
    assert not any("ResNet-50" in n for n in q.notes)
    m = predict([1, 8], model="resnet50", precision="amp", batch=256, system="dgx-a100", throughput=2470)
    assert not any("ResNet-50" in n for n in m.notes)  # a measured rate needs no caution
    own = predict([1, 8], model="resnet50", precision="amp", batch=256, system="dgx-a100", mfu=0.2)
    assert not any("ResNet-50" in n for n in own.notes)  # nor a share the user chose


def test_every_catalog_entry_has_a_source_and_systems_agree_with_their_links():
    """Catalogs are data with a source for every figure; a system's bandwidths are its links' (intra: one link's
    per-device figure; network: NICs × the port rate), so a typo in one of them cannot hide."""
    from dpscale import catalog

    for table in ("gpus", "links", "systems", "models"):
        assert all(str(e.get("source", "")).strip() for e in catalog.table(table).values()), table
    links = catalog.table("links")
    for key, s in catalog.table("systems").items():
        assert s["gpu"] in catalog.table("gpus"), key
        # each named, or its figure goes unchecked (review HN: a node without inter_link passed at ten times its
        # network's figure; without intra_link, predict's notes raised KeyError in unrelated tests)
        missing = [f for f in ("intra_link", "inter_link", "nics") if f not in s]
        assert missing == [], (
            f"systems.json {key!r}: give its {', '.join(missing)} (docs/DEVELOPING.md, 'Adding to the catalog')"
        )
        intra, net = links[s["intra_link"]], links[s["inter_link"]]
        assert intra["kind"] == "intra" and s["intra_bw_gbs"] == intra["gbs"], (
            f"systems.json {key!r}: intra_bw_gbs {s['intra_bw_gbs']} is not its intra_link {s['intra_link']}'s "
            f"{intra['gbs']}"
        )
        assert net["kind"] == "network" and s["inter_bw_gbs"] == pytest.approx(s["nics"] * net["gbs"]), (
            f"systems.json {key!r}: inter_bw_gbs {s['inter_bw_gbs']} is not its {s['nics']} nics × inter_link "
            f"{s['inter_link']}'s {net['gbs']}"
        )
    assert catalog.table("systems")["aws-p5e"]["inter_bw_gbs"] == 32 * 12.5  # physics.md §4.3: 32 × 100 Gb EFA


def test_no_peak_is_invented_for_a_precision_the_reference_does_not_give(capsys):
    """MI300X's TF32 was its FP32 163.4 TFLOP/s, which CDNA3's matrix TF32 runs far above: a 4× compute guess."""
    argv = ["predict", "--model", "resnet50", "--gpu", "mi300x-192gb", "--precision", "tf32", "--gpus-per-node", "8",
            "--intra-bw", "448", "--inter-bw", "50", "-d", "8"]  # fmt: skip
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and "--precision: tf32 has no peak figure for mi300x-192gb; allowed: fp8, bf16, fp16, amp, " in err


def test_a_calibration_table_with_a_size_twice_reads_their_mean(tmp_path, capsys):
    """Two runs of one size in a table (files joined) went to np.interp, which needs increasing sizes: the 1 MiB
    bucket read neither run nor their mean, and the note said '4 sizes' of 3. Now the runs count once, at their mean;
    a bad run is still named rather than averaged away."""
    kw = dict(params=2.5e8, step_time_s=0.05, gpus_per_node=8, intra_bw_gbs=300, inter_bw_gbs=200)
    twice = predict(8, calibration=_calib(tmp_path, [(MIB, 20.0), (MIB, 60.0), (32 * MIB, 100.0), (256 * MIB, 100.0)]),
                    **kw)  # fmt: skip
    sizes, counts = bucket_runs(2.5e8 * 4, 25 * MIB, MIB)
    b = np.interp(np.log(sizes), np.log([MIB, 32 * MIB, 256 * MIB]), [40, 100, 100])  # 40: the two runs' mean
    assert twice.records()[0]["allreduce_s"] == pytest.approx((counts * 1.75 * sizes / (b * 1e9)).sum())
    assert [n.fields["n"] for n in twice.notes if n.key == "calibration_table"] == [3]
    with pytest.raises(DpscaleError, match="point bytes 1.04858e\\+06, busbw_gbs 0; allowed"):
        predict(8, calibration=_calib(tmp_path, [(MIB, 0.0), (MIB, 150.0)]), **kw)


def test_a_calibration_path_may_be_a_pathlib_path(tmp_path):
    """system_file took a Path; calibration refused one with 'allowed: a path to a … file, or a Calibration'."""
    kw = dict(params=2.5e8, step_time_s=0.05, gpus_per_node=8, intra_bw_gbs=300, inter_bw_gbs=200)
    path = _calib(tmp_path, [(MIB, 20.0), (32 * MIB, 100.0)])
    by_path = predict([8, 64], calibration=Path(path), **kw)
    assert by_path.records() == predict([8, 64], calibration=path, **kw).records()
    assert {n.key for n in by_path.notes} >= {"calibration_table"}


def test_decimal_inputs_are_numbers():
    """Decimal is not a numbers.Real: throughput=Decimal('150') reached float / Decimal in the FLOPs check."""
    from decimal import Decimal

    kw = dict(model="bert-large", precision="amp", system="dgx-a100")
    exact = predict([1, 8, 64], throughput=150.0, **kw).efficiency_values
    assert np.array_equal(predict([1, 8, 64], throughput=Decimal("150"), **kw).efficiency_values, exact)
    with pytest.raises(DpscaleError, match=r"^throughput: got nan; allowed: "):
        predict([8], throughput=Decimal("nan"), **kw)


def test_torch_dtype_names_are_the_precisions_they_name(capsys):
    """--precision bfloat16 (torch.bfloat16, as a training script spells it) was refused; torch's dtype names now
    read as bf16, fp16 and fp32, so bert-large on dgx-a100 at 150/s is the same prediction under either name."""
    from dpscale.sources.predict_inputs import normalise_precision

    said = {"bfloat16": "bf16", "torch.bfloat16": "bf16", "Float16": "fp16", "torch.float32": "fp32",
            "bfloat16 autocast": "amp"}  # fmt: skip
    # (autocast keeps fp32 gradients, as 'bf16 autocast' is amp)
    assert {label: normalise_precision(label, one=True) for label in said} == said
    argv = ["predict", "--model", "bert-large", "--system", "dgx-a100", "-v", "150", "-b", "32", "-d", "8,64", "--json"]
    e = {p: [r["efficiency"] for r in json.loads(run(capsys, *argv, "--precision", p)[1])]
         for p in ("bfloat16", "bf16", "float32", "fp32", "amp")}  # fmt: skip
    assert e["bfloat16"] == e["bf16"] and e["float32"] == e["fp32"]
    assert e["bf16"][1] > e["amp"][1]  # bf16's 2-byte gradients, not autocast's 4: a different prediction


def test_precision_labels_are_read_word_by_word(capsys):
    """Published labels map by their words; a word that merely contains one ('clamp') is refused, not read as amp."""
    from dpscale.sources.predict_inputs import normalise_precision

    said = {"AMP (mixed FP16)": "amp", "TF32 + XLA": "tf32", "mixed precision (apex AMP O2)": "amp",
            "FP32": "fp32", "BF16": "bf16", "half": "fp16", "fp16-amp": "amp"}  # fmt: skip
    assert {label: normalise_precision(label) for label in said} == said
    for wrong in ("clamp", "ramp", "tf320"):
        allowed = "fp32, tf32, amp, fp16, bf16, fp8"
        with pytest.raises(DpscaleError, match=rf"^--precision: got '{wrong}'; allowed: {allowed}$"):
            normalise_precision(wrong)
    # two formats in one typed label ran as the first listed: 'fp32 fp16' as fp16 (E 0.869 where fp32 gives 0.807)
    kw = dict(model="bert-large", system="dgx-a100", throughput=150.0)
    for two, named in (("fp32 fp16", "fp16, fp32"), ("fp32 or tf32", "fp32, tf32")):
        with pytest.raises(DpscaleError, match=rf"^precision: got '{re.escape(two)}'; allowed: one precision, not "
                           rf"two \({named}\): fp32, tf32, amp"):  # fmt: skip
            predict(8, precision=two, **kw)
    rc, _, err = run(capsys, "predict", "--precision", "fp32 fp16", "--model", "bert-large", "--system", "dgx-a100",
                     "--throughput", "150", "-d", "8", "--lang", "es")  # fmt: skip
    assert rc == 2 and "se admite: una sola precisión, no dos (fp16, fp32): fp32, tf32" in err
    # a published row's label is read as printed (validate), and fp8's name the bf16 kept beside it
    assert normalise_precision("fp32 fp16") == "fp16"
    # one format twice, and mixed precision's two formats, are no conflict
    said = {
        "fp16 (half)": "fp16",
        "half precision fp16": "fp16",
        "mixed fp16/fp32": "amp",
        "AMP (fp16, fp32)": "amp",
        "fp32 (no tf32)": "fp32",
        "fp32, no amp, no fp16": "fp32",
        "FP32 (not mixed)": "fp32",
    }  # a negated word
    assert {label: normalise_precision(label, one=True) for label in said} == said
    assert predict(8, precision="FP8 (Transformer Engine) + BF16", **kw).records()[0]["efficiency"] > 0


def test_autocast_in_a_precision_label_is_amp_with_fp32_gradients():
    """--help says 'bf16 autocast is amp', but '--precision "bf16 autocast"' read the bf16 alone: 2-byte gradients,
    half of what torch.autocast all-reduces (BERT-large on 16 DGX A100 GPUs: all-reduce 14.4 ms, not 28.7)."""
    from dpscale.sources.predict_inputs import normalise_precision

    for label in ("bf16 autocast", "autocast bf16", "fp16 (torch.autocast)", "autocast fp16/fp32"):
        assert normalise_precision(label, one=True) == "amp"
    # a negation before a dotted name negates it, as before a bare word ('fp32 (no autocast)' is fp32)
    for label in ("fp32 (no torch.autocast)", "fp32; without torch.autocast", "tf32, no torch.cuda.amp"):
        assert normalise_precision(label, one=True) == label[:4]
    assert normalise_precision("bf16 (torch.cuda.amp.autocast)", one=True) == "amp"
    # a switch-off after the word negates it too ('amp off' was read as amp: twice the gradient bytes of bf16)
    for label in ("fp32, amp off", "fp32 (autocast disabled)", "bf16; mixed off", "fp32, amp=false"):
        assert normalise_precision(label, one=True) == label[:4]
    kw = dict(model="bert-large", system="dgx-a100", throughput=150.0, batch=32)
    amp, typed, pure = (predict(16, precision=p, **kw).records()[0] for p in ("amp", "bf16 autocast", "bf16"))
    assert typed["allreduce_s"] == amp["allreduce_s"] == pytest.approx(0.028664, rel=1e-4)
    assert pure["allreduce_s"] == pytest.approx(0.014389, rel=1e-4)


def test_a_system_files_network_name_and_fields_are_read_once_and_rightly(tmp_path, capsys):
    """A bad inter_link ('zzz', 5) was ignored without a word; 'EFA' or 'RoCEv2' got no Ethernet note (only
    'eth-…' did); a field given twice silently took its last value."""
    fields = '"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 100'
    kw = dict(params=1e8, step_time_s=0.1, devices=[16])

    def system(extra: str) -> str:
        f = tmp_path / f"s{abs(hash(extra))}.json"
        f.write_text("{" + fields + extra + "}")
        return str(f)

    notes = lambda extra: {n.key for n in predict(system_file=system(extra), **kw).notes}  # noqa: E731
    for name in ("EFA", "RoCEv2", "eth-800g", "Ethernet 100G", "400GbE", "100 GbE", "10 GigE"):
        assert "network_ethernet" in notes(f', "inter_link": "{name}"'), name
    # whole words: 'default' holds no EFA, 'processor' no RoCE (both once said Ethernet of an InfiniBand fabric)
    for name in ("ib-ndr", "ib", "HDR InfiniBand", "NDR", "InfiniBand HDR (the default fabric)", "processor NDR"):
        assert not {"network_ethernet", "network_unknown"} & notes(f', "inter_link": "{name}"'), name
    for name in ("zzz", "Omni-Path", "method", "RoCE or IB"):  # neither kind, or both: as InfiniBand, and said
        assert {"network_unknown"} <= notes(f', "inter_link": "{name}"') and "network_ethernet" not in notes(
            f', "inter_link": "{name}"'
        )
    one_node = predict(system_file=system(', "inter_link": "zzz"'), params=1e8, step_time_s=0.1, devices=[8])
    assert "network_unknown" not in {n.key for n in one_node.notes}  # no network crossed: nothing to say
    with pytest.raises(
        DpscaleError, match=r"^system_file: .+\.json: system 'custom': inter_link: got 5; allowed: a network's name$"
    ):
        predict(system_file=system(', "inter_link": 5'), **kw)
    rc, out, _ = run(capsys, "predict", "--params", "1e8", "--step-time", "0.1", "-d", "16", "--system-file",
                     system(', "inter_link": "zzz"'), "--lang", "es")  # fmt: skip
    assert rc == 0 and "el nombre de la red, 'zzz', no distingue Ethernet (eth, RoCE, EFA, GbE) de InfiniBand" in out
    twice = system(', "gpus_per_node": 4')
    rc, out, err = run(capsys, "predict", "--params", "1e8", "--step-time", "0.1", "-d", "16", "--system-file", twice,
                       "--lang", "es")  # fmt: skip
    assert rc == 2 and out == ""
    assert err.strip().endswith(
        "se recibió 'gpus_per_node'; se admite: cada campo una sola vez (este aparece dos veces)"
    )


def test_system_file_with_bom_or_misspelt_key(tmp_path, capsys):
    """A byte-order mark (Windows editors) is read; a key one letter from a field the predictor reads is refused
    (it would be ignored and the prediction made without it); keys that only describe the system pass."""
    fields = '"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 100, "gpu": "a100-80gb"'
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + ('{"systems": {"a": {' + fields + "}}}").encode())
    (tmp_path / "plain.json").write_text('{"systems": {"a": {' + fields + ', "notes": "ours", "inter_link": "ib"}}}')
    kw = dict(params=1e8, step_time_s=0.1, devices=[8, 16])
    assert predict(system_file=str(tmp_path / "bom.json"), **kw).efficiency_values[1] == pytest.approx(
        predict(gpus_per_node=8, intra_bw_gbs=300, inter_bw_gbs=100, gpu="a100-80gb", **kw).efficiency_values[1]
    )
    assert predict(system_file=str(tmp_path / "plain.json"), **kw).efficiency_values[1] < 1
    (tmp_path / "gpus.json").write_text('{"systems": {"a": {' + fields + ', "gpus": 8}}}')  # a count: no misspelt gpu
    assert predict(system_file=str(tmp_path / "gpus.json"), **kw).efficiency_values[1] < 1
    (tmp_path / "typo.json").write_text('{"systems": {"a": {' + fields + ', "cpu_core": 64}}}')
    rc, out, err = run(
        capsys,
        "predict",
        "--params",
        "1e8",
        "--step-time",
        "0.1",
        "-d",
        "8",
        "--system-file",
        str(tmp_path / "typo.json"),
    )
    assert rc == 2 and out == ""
    assert err.strip().endswith("system 'a': key 'cpu_core' (did you mean 'cpu_cores'?); allowed: "
                                     "gpus_per_node, intra_bw_gbs, inter_bw_gbs, gpu, cpu_cores, intra_link, "
                                     "intra_bw_gbs_by_gpus, inter_link, nics and keys that describe it")  # fmt: skip
    # a misspelt required key is named as such, not as the right one missing ('needs numbers … for inter_bw_gbs')
    (tmp_path / "gbps.json").write_text('{"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbps": 100}')
    with pytest.raises(DpscaleError, match=r"key 'inter_bw_gbps' \(did you mean 'inter_bw_gbs'\?\)"):
        predict(system_file=str(tmp_path / "gbps.json"), **kw)


def test_calibration_with_a_table_and_no_slope(tmp_path):
    """`measure allreduce` writes busbw_gbs null when its α–β fit finds β = 0 (a few noisy sizes); the file's
    table still serves, as it would with the fit's numbers. Without a table of two sizes the null is refused."""
    from dpscale.sources.predict_inputs import load_calibration

    points = [{"bytes": 2**20, "busbw_gbs": 50.0}, {"bytes": 2**25, "busbw_gbs": 200.0}]
    (tmp_path / "null.json").write_text(json.dumps({"busbw_gbs": None, "alpha_s": 2e-5, "points": points}))
    (tmp_path / "fit.json").write_text(json.dumps({"busbw_gbs": 150.0, "alpha_s": 2e-5, "points": points}))
    cal, busbw, curve = load_calibration(str(tmp_path / "null.json"))
    assert busbw is None and curve[0].tolist() == [2**20, 2**25] and curve[1].tolist() == [50.0, 200.0]
    kw = dict(model="bert-large", throughput=150.0, system="dgx-a100", devices=[8, 16])
    with_null = predict(calibration=str(tmp_path / "null.json"), **kw).efficiency_values
    assert np.array_equal(with_null, predict(calibration=str(tmp_path / "fit.json"), **kw).efficiency_values)
    (tmp_path / "one.json").write_text(json.dumps({"busbw_gbs": None, "alpha_s": 2e-5, "points": points[:1]}))
    with pytest.raises(DpscaleError, match=r"one.json: allowed: JSON with numbers busbw_gbs and alpha_s$"):
        load_calibration(str(tmp_path / "one.json"))
    (tmp_path / "neg.json").write_text(json.dumps({"busbw_gbs": None, "alpha_s": -1, "points": points}))
    with pytest.raises(DpscaleError, match=r"neg.json: busbw_gbs null, alpha_s -1; allowed: "):
        load_calibration(str(tmp_path / "neg.json"))


def test_a_calibration_measured_elsewhere_is_said(tmp_path, capsys):
    """A gloo run on a laptop's CPU, 2 ranks, stood for 8 A100s' NVLink with only 'from the measured
    calibration' said (1.2 s of all-reduce a step). The file says where it was measured: a CPU, or fewer ranks
    than the node's GPUs the prediction reaches, is said; the node's own 8 GPUs, or a file that does not say,
    are not."""
    points = [{"bytes": 2**20, "busbw_gbs": 50.0}, {"bytes": 2**25, "busbw_gbs": 200.0}]

    def said(d: list[int], **origin: object) -> list:
        path = tmp_path / "calib.json"
        path.write_text(json.dumps({"busbw_gbs": 150.0, "alpha_s": 2e-5, "points": points, **origin}))
        p = predict(d, model="bert-large", throughput=150.0, system="dgx-a100", calibration=str(path))
        return [n.fields for n in p.notes if n.key == "calibration_elsewhere"]

    (cpu,) = said([8, 16], backend="gloo", device="cpu", devices=2)
    assert cpu == {"backend": "gloo", "device": "cpu", "ranks": "2", "g": 8}
    assert said([2], backend="nccl", device="cuda", devices=2) == []  # as many ranks as the sizes reach
    assert said([2, 4], backend="nccl", device="cuda", devices=2)[0]["g"] == 4
    assert said([8, 64], backend="nccl", device="cuda", devices=8) == []
    assert said([8, 64]) == [] and said([8], backend="nccl", device="cuda", devices="8") == []
    assert said([1], backend="gloo", device="cpu", devices=2) == []  # one device all-reduces nothing
    # what the file does not say, or says oddly, is '?': a CPU is said whatever its rank count reads
    assert said([8], backend="gloo", device="CPU", devices=2.0)[0]["ranks"] == "?"
    assert said([8], device="cpu")[0] | {"g": 0} == {"backend": "?", "device": "cpu", "ranks": "?", "g": 0}
    assert said([8], backend=None, device=None, devices=4)[0]["backend"] == "?"
    assert said([8], backend="nccl", device="cuda", devices=-1) == []  # no rank count to compare
    assert said([8], backend="nccl", device="cuda", devices=16, nodes=2) == []  # 8 ranks a node
    said([8], backend="gloo", device="cpu", devices=2)
    rc, out, _ = run(capsys, "predict", "--model", "bert-large", "--throughput", "150", "--system", "dgx-a100",
                     "--calibration", str(tmp_path / "calib.json"), "-d", "8", "--lang", "es")  # fmt: skip
    assert (
        rc == 0
        and "nota: la calibración se midió con gloo en cpu, 2 procesos por nodo, y aquí representa el all-reduce "
        "de 8 GPU"
        in out
    )


def test_a_system_file_gives_its_own_subset_bandwidths(tmp_path, capsys):
    from dpscale.faces.cli import main

    node = {"gpus_per_node": 4, "intra_bw_gbs": 100, "inter_bw_gbs": 25, "gpu": "v100-16gb"}
    f = tmp_path / "mesh.json"
    f.write_text(json.dumps({"systems": {"mesh": {**node, "intra_bw_gbs_by_gpus": {"2": 25}}}}))
    kw = dict(model="bert-large", precision="amp", batch=8, throughput=40, overlap=False, devices=[2])
    mine = predict(system_file=str(f), **kw).records()[0]["allreduce_s"]
    assert mine == pytest.approx(predict(**{**node, "intra_bw_gbs": 25}, **kw).records()[0]["allreduce_s"])
    for bad, shown in (({"4": 25}, "'4'"), ({"1": 25}, "'1'"), ({"two": 25}, "'two'"), ({"2": 0}, "0"),
                       ({"²": 25}, "'²'"), ({"2": True}, "True"), ([25], "[25]")):  # fmt: skip
        f.write_text(json.dumps({"systems": {"mesh": {**node, "intra_bw_gbs_by_gpus": bad}}}))
        rc = main(["predict", "--params", "1e8", "--step-time", "0.1", "-d", "2", "--system-file", str(f)])
        err = capsys.readouterr().err.strip()
        assert rc == 2 and len(err.splitlines()) == 1
        assert f"--system-file: {f}: system 'mesh': intra_bw_gbs_by_gpus: got {shown}; allowed: an object" in err, err


def test_a_system_file_or_calibration_figure_is_named_as_the_files_field(tmp_path, capsys):
    """A file's gpus_per_node of 10^30 was refused as '--gpus-per-node', a flag never typed; a calibration's
    400-digit alpha_s ended in 'a number too large to compute with', naming no file."""
    from dpscale.faces.cli import main

    f = tmp_path / "sys.json"
    f.write_text('{"systems": {"a": {"gpus_per_node": 1' + "0" * 30 + ', "intra_bw_gbs": 100, "inter_bw_gbs": 50}}}')
    base = ["predict", "--params", "1e8", "--step-time", "0.1", "-d", "8"]
    assert main([*base, "--system-file", str(f)]) == 2
    assert (
        f"error: --system-file: {f}: system 'a': gpus_per_node: got 1"
        + "0" * 30
        + "; allowed: a whole number from 1 to"
        in (capsys.readouterr().err)
    )
    assert main([*base, "--system-file", str(f), "--gpus-per-node", "0"]) == 2  # a typed flag is named as typed
    assert "error: --gpus-per-node: got" in capsys.readouterr().err
    cal = tmp_path / "cal.json"
    cal.write_text('{"busbw_gbs": 10, "alpha_s": 1' + "0" * 400 + "}")
    assert main([*base, "--system", "dgx-a100", "--calibration", str(cal)]) == 2
    said = f"error: --calibration: {cal}: alpha_s 1{'0' * 39}…; allowed: JSON with numbers busbw_gbs and alpha_s"
    assert said in capsys.readouterr().err  # the field past float, quoted to 40 characters


def test_a_network_typed_in_gbe_is_ethernet(capsys):
    argv = ["predict", "--model", "bert-large", "--precision", "amp", "-b", "32", "-v", "150", "-d", "8,64"]
    raw = ["--gpus-per-node", "8", "--intra-bw", "300", "--gpu", "a100-40gb"]
    rc, out, _ = run(capsys, *argv, *raw, "--inter-bw", "400GbE")
    assert rc == 0 and "note: the network is Ethernet (eth-400g)" in out
    rc, out, _ = run(capsys, *argv, *raw, "--inter-bw", "4e2GbE")  # named from the value, not the text
    assert rc == 0 and "note: the network is Ethernet (eth-400g)" in out
    rc, out, _ = run(capsys, *argv, *raw, "--inter-bw", "400Gb/s")  # bits, of no named kind
    assert rc == 0 and "Ethernet" not in out
    rc, out, _ = run(capsys, *argv, "--system", "dgx-a100", "--inter-bw", "25GbE")  # on an InfiniBand preset
    assert rc == 0 and "Ethernet (eth-25g)" in out and "inter_bw_gbs 200 → 3.125" in out


def test_a_system_file_is_named_by_its_system_and_named_systems_need_their_key(tmp_path, capsys):
    """The title read the file's path, not the system in it; {"mine": {...}} without "systems" was read as one
    system 'custom' that 'needs numbers for gpus_per_node, intra_bw_gbs, inter_bw_gbs'."""
    fields = {"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 100}
    named, bare, wrong = tmp_path / "cluster.json", tmp_path / "bare.json", tmp_path / "wrong.json"
    named.write_text(json.dumps({"systems": {"mine": fields}}))
    bare.write_text(json.dumps(fields))
    wrong.write_text(json.dumps({"mine": fields}))
    argv = ["predict", "--model", "bert-large", "-v", "150", "-d", "8,16", "--system-file"]
    assert run(capsys, *argv, str(named))[1].startswith(
        "dpscale predict: bert-large, fp32, batch 32, mine (cluster.json)"
    )
    assert run(capsys, *argv, str(bare))[1].startswith("dpscale predict: bert-large, fp32, batch 32, bare.json\n")
    # the name the prediction ran on, read once: the library says it too
    kw = dict(model="bert-large", throughput=150)
    assert (
        predict([8], system_file=named, **kw).system == "mine"
        and predict([8], system_file=bare, **kw).system == "custom"
    )
    assert predict([8], system="DGX A100", **kw).system == "dgx-a100"
    rc, _, err = run(capsys, *argv, str(wrong))
    assert rc == 2 and err == (
        f"dpscale predict: error: --system-file: {wrong}: 'mine' at the top; allowed: an object "
        "{'systems': {name: {...}}} as systems.json, or one system's fields alone\n"
    )


def test_a_sequence_length_has_a_bound_like_every_other_input(capsys):
    """--seq-len 1e12 was accepted, the only limit 2^53: a note then said 44 billion TFLOP/s a device. memory
    had its own bound; both read errors.MAX_SEQ_LEN."""
    argv = ["predict", "--model", "bert-large", "--throughput", "150", "--system", "dgx-a100", "-d", "8"]
    rc, _, err = run(capsys, *argv, "--seq-len", "1e9")
    assert rc == 2 and err == (
        "dpscale predict: error: --seq-len: got '1e9'; allowed: a whole number from 1 to 10,000,000\n"
    )
    assert run(capsys, *argv, "--seq-len", "1e7")[0] == 0  # 10× the longest contexts trained, as memory's bound


def test_a_calibration_that_stops_below_the_buckets_is_said(tmp_path):
    """A run cut short after 1–2 KiB wrote a table predict read at its top size for 25 MiB buckets (ends held):
    E(2) came to 0.02 % without a word. Now a note names the top size and the bandwidth held beyond it; a table
    reaching past half the bucket gets none."""
    short = [{"bytes": 1024, "busbw_gbs": 0.002}, {"bytes": 2048, "busbw_gbs": 0.004}]
    whole = [{"bytes": 2**20, "busbw_gbs": 50.0}, {"bytes": 2**24, "busbw_gbs": 200.0}]
    # half the 25 MiB bucket is 12.5 MiB: a table stopping at 12 MiB is short, one at 16 MiB (whole) is not (review
    # LZ: with 2 KiB alone, a threshold of the bucket / 4,096 in place of / 2 passed)
    under_half = [{"bytes": 2**20, "busbw_gbs": 50.0}, {"bytes": 12 * 2**20, "busbw_gbs": 180.0}]
    kw = dict(model="bert-large", throughput=150.0, system="dgx-a100", devices=[1, 2])
    for name, pts in (("short.json", short), ("whole.json", whole), ("under_half.json", under_half)):
        (tmp_path / name).write_text(json.dumps({"busbw_gbs": None, "alpha_s": 2e-5, "points": pts}))
    (n,) = [n for n in predict(calibration=tmp_path / "short.json", **kw).notes if n.key == "calibration_short"]
    assert n.fields == {"top": 2048.0, "mib": 25, "busbw": 0.004, "upto": "64MB"}
    assert "stop at 2,048 bytes, under half the 25 MiB buckets" in str(n)
    (n,) = [n for n in predict(calibration=tmp_path / "under_half.json", **kw).notes if n.key == "calibration_short"]
    assert n.fields == {"top": 12 * 2**20, "mib": 25, "busbw": 180.0, "upto": "64MB"}
    assert not [n for n in predict(calibration=tmp_path / "whole.json", **kw).notes if n.key == "calibration_short"]


def test_bandwidths_take_their_unit_and_a_line_rate_typed_as_bytes_is_questioned(capsys):
    """25GbE typed as --inter-bw 25 is 8× the network (E 0.77 against 0.25 at 64 ResNet-50 GPUs) and only 'outside
    the checked 50–200 GB/s' was said. The flags now read a unit (200Gb/s is 25 GB/s: bits ÷ 8), and a typed network
    below the checked range says what it would be in Gb/s; a preset's own 3.125 GB/s is no slip."""
    base = ["predict", "--model", "resnet50", "--precision", "amp", "-v", "1200", "--gpu", "a100-40gb",
            "--gpus-per-node", "4", "--intra-bw", "32", "-d", "64", "--json"]  # fmt: skip

    def e(inter):
        rc, out, err = run(capsys, *base, "--inter-bw", inter)
        assert rc == 0, err
        return json.loads(out)[0]["efficiency"], err

    slow, _ = e("3.125")
    assert e("25Gb/s")[0] == e("25 GbE")[0] == e("25Gbps")[0] == slow == pytest.approx(0.2458, abs=1e-4)
    assert e("0.2Tb/s")[0] == e("25GB/s")[0] == e("25")[0] == pytest.approx(0.7680, abs=1e-4)
    assert "if 25 is the network's Gb/s, it is 3.125 GB/s (--inter-bw 25Gb/s reads it so)" in e("25")[1]
    assert "network's Gb/s" not in e("250")[1]  # above the range: no such reading
    for typed in ("25Gb/s", "25 GbE", "25GB/s"):  # its unit written: the question was asked again of 3.125
        assert "network's Gb/s" not in e(typed)[1] and "GB/s per node across nodes" in e(typed)[1]
    rc, _, err = run(capsys, *base, "--inter-bw", "12.5", "--lang", "es")  # the flag as typed: 12.5Gb/s, not 12,5
    assert rc == 0 and "si 12,5 son los Gb/s de la red, son 1,5625 GB/s (--inter-bw 12.5Gb/s lo lee así)" in err
    rc, _, err = run(capsys, *base, "--inter-bw", "9e6Gb/s")  # out of range: said as typed, not as 1125000
    assert rc == 2 and "--inter-bw: got '9e6Gb/s'; allowed: a bandwidth in GB/s, from 0.001 to 1,000,000" in err
    rc, out, _ = run(capsys, "predict", "--system", "pcie-v100-25gbe", "--params", "1e8", "--step-time", "0.1",
                     "-d", "16")  # fmt: skip
    assert rc == 0 and "3.125 GB/s per node" in out and "network's Gb/s" not in out
    for bad, said in (
        (
            "200x",
            "allowed: a bandwidth in GB/s, from 0.001 to 1,000,000, or with its unit: 200Gb/s (bits, ÷ 8), 400GbE",
        ),
        # a rate short of its unit: the bandwidth's forms, not calc's 'a number written out: 1.28e6, not 1.28M'
        ("400G", "got '400G'; allowed: a bandwidth in GB/s, from 0.001 to 1,000,000, or with its unit: 200Gb/s"),
        ("abcGb/s", "got 'abcGb/s'"),
        ("1,5Gb/s", "got '1,5Gb/s'; allowed: a number with a decimal"),
    ):
        rc, out, err = run(capsys, *base, "--inter-bw", bad)
        assert rc == 2 and out == "" and said in err and err.count("\n") == 1
    rc, _, err = run(capsys, *base, "--inter-bw", "200x", "--lang", "es")
    assert (
        rc == 2
        and "se admite: un ancho de banda en GB/s, de 0,001 a 1.000.000, o con su unidad: 200Gb/s (bits, ÷ 8)" in err
    )


def test_a_low_network_on_two_gpus_a_node_is_asked_about_as_two_nics():
    """notes: a typed --inter-bw below the checked 50 GB/s on a node whose NICs are not known is asked about as one
    NIC's, 'one a GPU, as DGX and HGX nodes do': two GPUs a node make 2 × 12.5 = 25 GB/s — from two GPUs a node on,
    not only from eight (one GPU: its NIC's figure is the node's, nothing to multiply)."""
    kw = dict(params=1e8, batch=8, step_time_s=0.1, intra_bw_gbs=150, inter_bw_gbs=12.5, gpu="a100-80gb")
    p = predict([1, 4, 8], gpus_per_node=2, **kw)
    (nic,) = [n for n in p.notes if n.key == "inter_per_nic"]
    assert nic.fields == {"bw": 12.5, "g": 2, "node": 25.0}
    assert not [n for n in predict([1, 4], gpus_per_node=1, **kw).notes if n.key == "inter_per_nic"]


def test_counts_say_their_upper_bound_however_far_past_it(capsys):
    """--gpus-per-node 20000000 said 'from 1 to 10,000,000' but 1e309 'a whole number ≥ 1' (the library's bound,
    unsaid by the CLI's own reading)."""
    base = ["predict", "--model", "bert-large", "--system", "dgx-a100", "--throughput", "100", "-d", "8"]
    for flag in ("--gpus-per-node", "--baseline-devices"):
        for value in ("1e309", "20000000", "0"):
            rc, _, err = run(capsys, *base, flag, value)
            assert rc == 2 and err.strip().endswith(
                f"{flag}: got '{value}'; allowed: a whole number from 1 to 10,000,000"
            )


def _system_file(tmp_path, **kw):
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 200, **kw}))
    return str(f)


@pytest.mark.parametrize("kw", [dict(nics=8), dict(nics=8.0), dict(nics=8, gpus_per_node=8.0)])
def test_a_system_file_s_nics_share(tmp_path, kw):
    """A system file's nics is read as the catalog's (8.0 is 8, and so is a gpus_per_node of 8.0): one of 8 GPUs
    reaches one of 8 NICs, 25 GB/s (an outside review: anything but an int fell back to the whole 200)."""
    from dpscale.sources.predict_inputs import cluster

    assert cluster(None, _system_file(tmp_path, **kw), 1).inter_bw_gbs == 25


@pytest.mark.parametrize("nics", ["8", 0, -2, True, 2.5])
def test_a_system_file_s_bad_nics_are_refused(tmp_path, nics):
    from dpscale.sources.predict_inputs import cluster

    with pytest.raises(DpscaleError, match="nics"):
        cluster(None, _system_file(tmp_path, nics=nics), 1)


def test_a_system_file_without_nics_says_the_whole_network_was_charged(tmp_path):
    p = predict([16], system_file=_system_file(tmp_path), gpus_per_node=2, params=3e8, throughput=100, batch=8)
    (note,) = [n for n in p.notes if n.key == "nics_unknown"]
    assert "the node's whole network, 200 GB/s" in note and p.records()[0]["devices"] == 16


def test_a_node_s_gb_per_s_typed_as_bytes_is_said():
    """DGX A100's 8 × 200 Gb/s typed as `--inter-bw 1600` runs its network 8× too fast; say so (a review)."""

    def said(d: int, inter: float) -> list:
        p = predict([d], params=1e8, step_time_s=0.1, system="dgx-a100", inter_bw_gbs=inter)
        return [n for n in p.notes if n.key == "inter_bits_as_bytes"]

    (n,) = said(16, 1600)
    assert n.fields == {"typed": 1600, "own": 200, "system": "dgx-a100", "flag": "--inter-bw 1600Gb/s"}
    assert said(8, 1600) == []  # one node: the network is not used
    assert said(16, 400) == []  # twice the preset's: a faster network, not bits
    assert said(16, 1615) == []  # near 8×, but "1615 Gb/s is 200 GB/s" would be false
    # 4 of each node's 8 GPUs reach 4 NICs, 100 GB/s: 800 is its 4 × 200 Gb/s, and 1600 is not 8× what the run has
    p = predict([16], params=1e8, step_time_s=0.1, system="dgx-a100", gpus_per_node=4, inter_bw_gbs=800)
    (n,) = [n for n in p.notes if n.key == "inter_bits_as_bytes"]
    assert n.fields["own"] == 100 and n.fields["flag"] == "--inter-bw 800Gb/s"
    p = predict([16], params=1e8, step_time_s=0.1, system="dgx-a100", gpus_per_node=4, inter_bw_gbs=1600)
    assert not [n for n in p.notes if n.key == "inter_bits_as_bytes"]


# Mutation pass of predict_inputs, predict_validate, dataset and the small formulas (whole modules): gaps the suite
# left open, each killing a surviving mutant.


def test_predict_help_s_fp8_mfu_is_the_default_times_the_published_gain_over_twice_the_peak():
    """fp8_peak_ratio's fallback (no GPU named): 2, so --help's fp8 share is 0.35 × 1.375 ÷ 2 = 24.1 %
    (docs/predict.md); a fallback of 2.2 printed 0.219 and no test saw it."""
    assert default_mfu(None, "fp8") == pytest.approx(0.35 * 1.375 / 2, rel=1e-12)
    out = subprocess.run([sys.executable, "-m", "dpscale", "predict", "--help"], capture_output=True, text=True).stdout
    assert "fp8: 0.241 of its peak" in " ".join(out.split())


def test_an_fp8_estimate_says_how_its_share_was_made_unless_typed():
    """docs/predict.md: fp8's default share is bf16's 0.35 × 1.375 (torchao's 1.25–1.5× gains) ÷ the fp8 peak over
    bf16's — an H100's 1,979 / 989 = 2.001 — so 24.05 %, and a note says so; a typed --mfu is the user's: no note."""
    p = predict([1, 8], model="llama-7b", system="dgx-h100", batch=1, precision="fp8")
    (note,) = [n for n in p.notes if n.key == "fp8_mfu"]
    assert note.fields == {"base": 0.35, "mid": 1.375, "lo": 1.25, "hi": 1.5, "ratio": pytest.approx(1979 / 989),
                           "pct": pytest.approx(35 * 1.375 / (1979 / 989))}  # fmt: skip
    typed = predict([1, 8], model="llama-7b", system="dgx-h100", batch=1, precision="fp8", mfu=0.3)
    assert not [n for n in typed.notes if n.key == "fp8_mfu"]


def test_a_negation_at_the_end_of_a_label_does_not_reach_back_to_its_first_word():
    """normalise_precision skips a word after no/not; the first word has none before it (words[-1] is the label's
    last, not a word before it): 'TF32 (XLA no)' is tf32, 'AMP, XLA: no' amp."""
    from dpscale.sources.predict_inputs import normalise_precision

    assert normalise_precision("TF32 (XLA no)") == "tf32"
    assert normalise_precision("AMP, XLA: no", one=True) == "amp"


def test_a_system_file_of_one_cpu_core_is_read(tmp_path):
    """cpu_cores runs from 1 to 1,000,000: a one-core host is a host (1 < cores refused it)."""
    from dpscale.sources.predict_inputs import cluster

    f = tmp_path / "one.json"
    f.write_text('{"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 200, "cpu_cores": 1}')
    assert cluster(system_file=str(f)).cpu_cores == 1


@pytest.mark.parametrize("name", ["FDR", "EDR", "HDR", "NDR", "QDR", "XDR", "ib-fdr", "FDR InfiniBand 56Gb/s"])
def test_every_infiniband_generation_s_name_is_infiniband(name):
    """network_kind reads [efhnqx]dr as InfiniBand: FDR (56 Gb/s), EDR, HDR, NDR, QDR, XDR, a letter a generation."""
    from dpscale.sources.predict_inputs import network_kind

    assert network_kind(name) == "infiniband"


def test_a_calibration_s_bounds_are_inclusive(tmp_path):
    """alpha_s from 0 to 1 s (0: measure's fit found no latency), and a point's one message may take up to a minute:
    1e9 bytes at 0.02 GB/s is 50 s, read; at 0.01 GB/s, 100 s, refused. A link's share η is at most 1 of its spec."""
    from dpscale.formulas.stepmodel import DEFAULT
    from dpscale.sources.predict_inputs import check_calibration, load_calibration

    f = tmp_path / "c.json"
    f.write_text(json.dumps({"busbw_gbs": 1.5, "alpha_s": 0}))
    cal, busbw, curve = load_calibration(str(f))
    assert (cal.alpha_base, busbw, curve) == (0.0, 1.5, None)
    slow = [{"bytes": 1e9, "busbw_gbs": 0.02}, {"bytes": 2e3, "busbw_gbs": 1.0}]
    f.write_text(json.dumps({"busbw_gbs": 1.5, "alpha_s": 1e-5, "points": slow}))
    assert load_calibration(str(f))[2][0].tolist() == [2e3, 1e9]
    slow[0]["busbw_gbs"] = 0.01
    f.write_text(json.dumps({"busbw_gbs": 1.5, "alpha_s": 1e-5, "points": slow}))
    with pytest.raises(DpscaleError, match="point bytes 1e"):
        load_calibration(str(f))
    assert check_calibration(DEFAULT._replace(eta_intra=1.0)).eta_intra == 1.0
    with pytest.raises(DpscaleError, match="calibration.eta_intra"):
        check_calibration(DEFAULT._replace(eta_intra=1.05))


def test_node_share_names_its_four_figures():
    """node_share's answer was a bare 4-tuple read by index in seven places over two modules (share[3][0],
    share[2], own[1]): its fields are named now (review HH). A DGX-1 V100 run on 4 of each node's 8 GPUs: the
    cube-mesh's 100 GB/s at 4, its table below 4, 2 of the 4 EDR NICs and so 25 of the node's 50 GB/s."""
    from dpscale.sources.predict_inputs import node_share

    share = node_share(catalog.system("dgx1-v100"), 4)
    assert share.intra_bw_gbs == 100.0 and share.inter_bw_gbs == 25.0
    assert share.by_gpus == {"2": 25.0, "3": 50.0} and share.nics == (2, 4)
    assert node_share(catalog.system("dgx-a100"), 4).nics == (4, 8)  # one HDR NIC a GPU
    assert node_share(catalog.system("dgx1-v100"), 8) is None  # the whole node: no share


def test_a_link_without_its_own_hop_latency_says_nvlinks_stands_for_it(capsys, tmp_path):
    """links.json gives xgmi-mi300x no alpha_us (physics.md §1.3's NCCL figures are NVLink's and PCIe's), and
    link_hop kept NVLink's 3.4 µs for it without a word (found adding an MI300X node as a newcomer, review HM). Said
    in both languages; not on one GPU a node (no link used), nor where --alpha-intra sets the hop."""
    (tmp_path / "mi.json").write_text('{"gpus_per_node": 8, "intra_bw_gbs": 448, "inter_bw_gbs": 400, '
                                      '"gpu": "mi300x-192gb", "intra_link": "xgmi-mi300x"}')  # fmt: skip
    argv = ["predict", "--model", "bert-large", "--precision", "amp", "--batch", "32", "--system-file",
            str(tmp_path / "mi.json")]  # fmt: skip
    rc, out, _ = run(capsys, *argv, "-d", "1,8")
    said = "xgmi-mi300x has no sourced per-hop latency in links.json: NVLink's 3.4 µs a hop (NCCL's ring, Simple "
    assert rc == 0 and f"note: {said}protocol) stands for it\n" in out
    rc, out, _ = run(capsys, *argv, "-d", "1,8", "--lang", "es")
    assert rc == 0 and "la de NVLink, 3,4 µs por salto (anillo de NCCL, protocolo Simple), ocupa su lugar" in out
    for more in (["-d", "1,8", "--alpha-intra", "5"], ["-d", "1", "--gpus-per-node", "1", "--inter-bw", "400"]):
        rc, out, _ = run(capsys, *argv, *more)
        assert rc == 0 and "links.json" not in out, more
    rc, out, _ = run(capsys, "predict", "--model", "bert-large", "--system", "dgx-a100", "-d", "1,8")
    assert rc == 0 and "links.json" not in out  # NVLink has its own 3.4 µs [NCCL-TUNE]


def test_a_calibration_measured_across_nodes_is_said(tmp_path, capsys):
    """Review HY: the fabric run docs/measure.md gives under multi-node (`srun torchrun … worker allreduce --out
    calib.json` on 2 nodes) writes a file with "nodes": 2, whose busbw is the all-reduce across the network; `predict
    --calibration` reads every file as the link inside one node, and such a file (8 ranks a node, as the node's
    GPUs) got no note: the network's bandwidth charged to NVLink without a word. One node's file, or one that does
    not say, is not noted."""
    points = [{"bytes": 2**20, "busbw_gbs": 5.0}, {"bytes": 2**25, "busbw_gbs": 20.0}]

    def said(**origin: object) -> list:
        path = tmp_path / "calib.json"
        path.write_text(json.dumps({"busbw_gbs": 20.0, "alpha_s": 2e-5, "points": points, "backend": "nccl",
                                    "device": "cuda", **origin}))  # fmt: skip
        p = predict([8, 16], model="bert-large", throughput=150.0, system="dgx-a100", calibration=str(path))
        return [n.fields for n in p.notes if n.key == "calibration_nodes"]

    assert said(devices=16, nodes=2) == [{"nodes": 2}]
    assert said(devices=64, nodes=8) == [{"nodes": 8}]
    assert said(devices=8, nodes=1) == [] and said(devices=8) == []
    assert said(devices=16, nodes=True) == [] and said(devices=16, nodes="2") == []  # not a count: not said
    said(devices=16, nodes=2)
    argv = ["predict", "--model", "bert-large", "--throughput", "150", "--system", "dgx-a100", "--calibration",
            str(tmp_path / "calib.json"), "-d", "8,16"]  # fmt: skip
    rc, out, _ = run(capsys, *argv)
    assert (
        rc == 0
        and (
            "note: the calibration was measured across 2 nodes: its bandwidth is their network's, and stands here for "
            "the link inside one node — for --calibration, measure one node (torchrun --nnodes 1)"
        )
        in out
    )
    rc, out, _ = run(capsys, *argv, "--lang", "es")
    assert (
        rc == 0
        and (
            "nota: la calibración se midió a través de 2 nodos: su ancho de banda es el de su red, y aquí representa "
            "el enlace dentro de un nodo — para --calibration, mida un nodo (torchrun --nnodes 1)"
        )
        in out
    )


def test_a_calibration_across_nodes_counts_one_nodes_ranks(tmp_path):
    """Review IF (mutation pass over b0210e8): calibration_origin reading a node's ranks as the file's whole
    "devices", and its nodes as 1 (not None) where the file does not say, left every test passing. 8 ranks over 2
    nodes are 4 a node, fewer than dgx-a100's 8 GPUs: both notes; 16 over 2 are 8 a node: the nodes' alone. A file
    that does not say its nodes says None for them, as for its backend and device."""
    from dpscale.sources.predict_inputs import calibration_origin

    points = [{"bytes": 2**20, "busbw_gbs": 5.0}, {"bytes": 2**25, "busbw_gbs": 20.0}]
    path = tmp_path / "calib.json"

    def notes(**origin: object) -> list:
        path.write_text(json.dumps({"busbw_gbs": 20.0, "alpha_s": 2e-5, "points": points, "backend": "nccl",
                                    "device": "cuda", **origin}))  # fmt: skip
        p = predict([8, 16], model="bert-large", throughput=150.0, system="dgx-a100", calibration=str(path))
        return [
            (n.key, n.fields.get("ranks", n.fields.get("nodes")))
            for n in p.notes
            if n.key in ("calibration_elsewhere", "calibration_nodes")
        ]

    assert notes(devices=8, nodes=2) == [("calibration_elsewhere", "4"), ("calibration_nodes", 2)]
    assert calibration_origin(str(path)) == ("nccl", "cuda", 4, 2)
    assert notes(devices=16, nodes=2) == [("calibration_nodes", 2)]
    assert notes(devices=8) == [] and calibration_origin(str(path)) == ("nccl", "cuda", 8, None)


def test_a_measured_baseline_says_the_mfu_it_implies_and_what_the_cluster_delivers(capsys):
    """Review IZ: only the FLOPs estimate said its share of the peak ('at 35 % of 989 TFLOP/s'); a measured
    --throughput or --step-time, whose FLOP rate predict already worked out for its unit checks, never said its MFU,
    nor what is left of it at the largest size — the first figures an ML engineer works out by hand."""
    # Llama-3-8B at 4,096 tokens: 6·(N − V·h)·s + 12·L·h·s² FLOP a sequence (its untied embedding does no matmul)
    llama = 6 * (8_030_261_248 - 128_256 * 4096) * 4096 + 12 * 32 * 4096 * 4096**2
    assert llama == 210_829_307_805_696
    kw = dict(model="llama3-8b", system="dgx-h100", precision="bf16", batch=1, seq_len=4096)
    p = predict([8, 64], throughput=1.6, baseline_devices=8, **kw)
    (note,) = [n for n in p.notes if n.key.startswith("measured_mfu")]
    assert note.key == "measured_mfu_vs_d0" and note.fields["pct0"] == pytest.approx(34.107876, abs=1e-6)
    assert note.fields["pct0"] == pytest.approx(100 * llama * 1.6 / 989e12, rel=1e-12)  # H100's dense bf16 peak
    top = p.records()[1]
    e_vs = top["efficiency_vs_baseline"]
    assert note.fields["pct"] == pytest.approx(note.fields["pct0"] * e_vs, rel=1e-12)  # d0's share × E vs d0
    # … which is the FLOP rate of the table's own throughput at 64 devices
    assert note.fields["pct"] == pytest.approx(100 * llama * top["actual_throughput"] / 64 / 989e12, rel=1e-9)
    assert note.startswith(
        "model-FLOPs utilisation: 210,829 GFLOP a sample × the measured 1.6 samples/s a "
        "device (8 devices) is 34.1 % of 989 TFLOP/s (h100-80gb, bf16); at 64 devices, E vs d0 "
    )
    # the same run as a one-device --step-time: E itself is the factor
    p = predict([1, 64], step_time_s=0.625, **kw)
    (note,) = [n for n in p.notes if n.key.startswith("measured_mfu")]
    assert note.key == "measured_mfu" and note.fields["pct0"] == pytest.approx(34.107876, abs=1e-6)
    assert note.fields["pct"] == pytest.approx(note.fields["pct0"] * p.efficiency_values[1], rel=1e-12)

    # ResNet-50: 6 × 4.089 GMAC an image, 2,500 images/s a device on an A100 at amp (312 TFLOP/s)
    p = predict([1, 8, 64], model="resnet50", system="dgx-a100", precision="amp", batch=256, throughput=2500)
    (note,) = [n for n in p.notes if n.key.startswith("measured_mfu")]
    assert note.fields["pct0"] == pytest.approx(100 * 6 * 4.089e9 * 2500 / 312e12, rel=1e-12)  # 19.66 %
    assert note.fields["pct"] == pytest.approx(19.658654 * p.efficiency_values[-1], rel=1e-6)
    rc, out, _ = run(capsys, "predict", "--model", "resnet50", "--system", "dgx-a100", "--precision", "amp", "-b",
                     "256", "-v", "2500", "-d", "1,8,64", "--lang", "es")  # fmt: skip
    e64 = f"{p.efficiency_values[-1]:.3f}".replace(".", ",")
    assert rc == 0 and ("nota: utilización de FLOPs del modelo: 24,534 GFLOP por muestra × las 2.500 muestras/s por "
                        "dispositivo medidas (1 dispositivo) son el 19,7 % de 312 TFLOP/s (a100-80gb, amp); con 64 "
                        f"dispositivos, E {e64}, cada dispositivo rinde el ") in out  # fmt: skip
    rc, out, _ = run(capsys, "predict", "--model", "resnet50", "--system", "dgx-a100", "--precision", "amp", "-b",
                     "256", "-v", "2500", "-d", "8", "--baseline-devices", "8")  # fmt: skip
    assert rc == 0 and ("note: model-FLOPs utilisation: 24.534 GFLOP a sample × the measured 2,500 samples/s a "
                        "device (8 devices) is 19.7 % of 312 TFLOP/s (a100-80gb, amp)\n") in out  # fmt: skip

    def said(**more):
        return [n.key for n in predict([1, 8], **{**kw, **more}).notes if n.key.startswith("measured_mfu")]

    assert said() == []  # a FLOPs estimate says its share already (compute_estimated)
    assert said(throughput=50) == []  # 10,500 TFLOP/s: beyond_peak says the rate, and no share of it
    assert said(throughput=1.6, system=None, intra_bw_gbs=300, gpus_per_node=8) == []  # no GPU: no peak
    assert said(throughput=1.6, model=None, params=8e9, seq_len=None) == []  # a bare count: no FLOPs a sample…
    assert said(throughput=1.6, model=None, params=8e9) == ["measured_mfu"]  # …but 6·N·s with a --seq-len


def test_a_measured_rate_past_its_own_precision_s_peak_gets_no_mfu_over_a_hundred_percent():
    """Llama-3-8B at 1.6 sequences/s of 8,192 tokens on H100s is 759 TFLOP/s a device: 76.7 % of bf16's 989, but
    predict's default precision is fp32 (67 TFLOP/s), and the note said '1,130 % of 67 TFLOP/s … each device delivers
    1,090 %' — below the fastest peak, so beyond_peak (a unit slip) rightly stayed silent; the precision is what is
    off, and no share past 100 % is a utilisation. Found reading review IZ's note on a preset's defaults."""
    kw = dict(model="llama3-8b", system="dgx-h100", throughput=1.6, baseline_devices=8)
    assert [n.key for n in predict([8, 512], **kw).notes if n.key.startswith(("measured_mfu", "beyond_peak"))] == []
    (note,) = [n for n in predict([8, 512], precision="bf16", **kw).notes if n.key.startswith("measured_mfu")]
    flops = 6 * (8_030_261_248 - 128_256 * 4096) * 8192 + 12 * 32 * 4096 * 8192**2  # the preset's 8,192 tokens
    assert note.fields["pct0"] == pytest.approx(100 * flops * 1.6 / 989e12, rel=1e-12)  # 76.75 %


def test_the_cluster_s_mfu_past_the_precision_s_peak_is_not_said_either():
    """Review JC: 5e84df9 kept the note from any share past the precision's own peak, but checked the measured one
    only. A sweep below the measured size multiplies it by an E vs d0 above 1: ResNet-50 at fp32 (cuDNN's TF32
    convolutions make this a real A100 rate) measured at 786.9 images/s a device on 16 GPUs is 99 % of fp32's 19.5
    TFLOP/s, and at 4 devices (E vs d0 1.021) the note said 'each device delivers 101 %'. The measured share is
    still said, alone; the cluster figure is not where it passes 100 %."""
    flops = 6 * 4.089e9  # ResNet-50's 4.089 GMAC an image
    v = 0.99 * 19.5e12 / flops  # 786.867 images/s
    kw = dict(model="resnet50", system="dgx-a100", precision="fp32", batch=256, throughput=v, baseline_devices=16)
    p = predict([1, 2, 4], **kw)
    assert p.records()[-1]["efficiency_vs_baseline"] == pytest.approx(1.02117, abs=1e-5)
    (note,) = [n for n in p.notes if n.key.startswith("measured_mfu")]
    assert note.key == "measured_mfu_alone" and note.fields["pct0"] == pytest.approx(99.0, rel=1e-12)
    assert str(note) == ("model-FLOPs utilisation: 24.534 GFLOP a sample × the measured 786.867 samples/s a device "
                         "(16 devices) is 99 % of 19.5 TFLOP/s (a100-80gb, fp32)")  # fmt: skip
    # at 95 % the cluster's 97 % is a utilisation, and said
    p = predict([1, 2, 4], **{**kw, "throughput": 0.95 * 19.5e12 / flops})
    (note,) = [n for n in p.notes if n.key.startswith("measured_mfu")]
    assert note.key == "measured_mfu_vs_d0" and note.fields["pct"] == pytest.approx(96.997, abs=1e-3)
    assert note.fields["pct"] == pytest.approx(95 * p.records()[-1]["efficiency_vs_baseline"], rel=1e-12)


WHERE_E_GOES = [  # weak and strong scaling, ZeRO stages, accumulation, a loader that binds past one device, d0 > 1
    dict(model="bert-large", system="dgx-a100", precision="amp", batch=32, throughput=150),
    dict(model="bert-large", system="dgx-a100", precision="amp", batch=32, throughput=150, grad_accum=4),
    dict(model="bert-large", system="dgx-a100", precision="amp", batch=32, throughput=150, overlap=False),
    dict(model="llama3-8b", system="dgx-h100", precision="bf16", batch=1, step_time_s=0.625, zero=3),
    dict(model="llama3-8b", system="dgx-h100", precision="bf16", batch=1, throughput=1.6, zero=1, grad_accum=8),
    dict(model="resnet50", system="dgx-a100", precision="amp", global_batch=32768, throughput=2500, baseline_devices=8),
    dict(model="resnet50", system="dgx1-v100", precision="amp", batch=128, throughput=1200, input_rate=5000),
    dict(params=25e6, intra_bw_gbs=16, inter_bw_gbs=3, gpus_per_node=8, throughput=100, grad_accum=2),
]


@pytest.mark.parametrize("kw", WHERE_E_GOES)
def test_where_e_goes_splits_one_minus_e_into_the_steps_parts(kw):
    """Review IZ: the rows carry compute, the exposed all-reduce, the wait and the input stall in seconds, and what
    E lost to each was divided by hand. The step is their sum and E is compute / step, so 1 − E is the other three
    over the step: the note says them at the largest size (25 configurations, 194 rows checked: the sum to 2e-16,
    E = compute / step wherever one device's step is its compute)."""
    p = predict([1, 8, 64, 512], **kw)
    (note,) = [n for n in p.notes if n.key.startswith("e_lost")]
    r = p.records()[-1]
    f = note.fields
    assert f["d"] == 512 and f["e"] == r["efficiency"] == pytest.approx(r["compute_s"] / r["step_s"], rel=1e-12)
    assert f["comm"] == pytest.approx(100 * r["exposed_comm_s"] / r["step_s"], rel=1e-12)
    assert f["wait"] == pytest.approx(100 * r["sync_wait_s"] / r["step_s"], rel=1e-12)
    assert f["comm"] + f["wait"] + f.get("stall", 0.0) == pytest.approx(f["lost"], rel=1e-12)
    assert (note.key == "e_lost_input") == (r["input_stall_s"] > 0)


def test_where_e_goes_is_said_with_its_figures_and_not_where_one_device_already_waits(capsys):
    """BERT-large at 150 sequences/s on DGX A100s: at 64 devices a 264.25 ms step is 213.33 ms of compute (32/150 s),
    0.297 ms of exposed all-reduce and 50.62 ms of wait — E 0.807, the other 19.3 % of it 0.112 % and 19.2 %."""
    argv = ["predict", "--model", "bert-large", "--system", "dgx-a100", "--precision", "amp", "-b", "32", "-v", "150",
            "-d", "1,8,64"]  # fmt: skip
    (note,) = [n for n in predict([1, 8, 64], model="bert-large", system="dgx-a100", precision="amp", batch=32,
                                  throughput=150).notes if n.key == "e_lost"]  # fmt: skip
    assert note.fields["e"] == pytest.approx((32 / 150) / 0.264254599247, rel=1e-10)
    assert note.fields["comm"] == pytest.approx(100 * 0.000297161270711 / 0.264254599247, rel=1e-9)  # 0.112 %
    assert note.fields["wait"] == pytest.approx(100 * 0.0506241046428 / 0.264254599247, rel=1e-9)  # 19.16 %
    rc, out, _ = run(capsys, *argv)
    en = ("note: where E goes at 64 devices: E 0.807 is compute's share of the step; the other 19.3 % is the "
          "exposed all-reduce, 0.112 %, and the synchronisation wait, 19.2 %\n")  # fmt: skip
    assert rc == 0 and en in out
    rc, out, _ = run(capsys, *argv, "--lang", "es")
    es = ("nota: adónde va E con 64 dispositivos: E 0,807 es la parte de cómputo del paso; el 19,3 % restante es "
          "el all-reduce expuesto, 0,112 %, y la espera de sincronización, 19,2 %\n")  # fmt: skip
    assert rc == 0 and es in out
    rc, out, _ = run(capsys, "predict", "--model", "resnet50", "--system", "dgx1-v100", "--precision", "amp", "-b",
                     "128", "-v", "1200", "--input-rate", "5000", "-d", "1..64x2", "--lang", "es")  # fmt: skip
    assert rc == 0 and ", y la espera de datos de entrada, 40,9 %\n" in out  # (a loader of 5,000/s for 8 GPUs)

    def keys(*sizes, **more):
        return [n.key for n in predict(list(sizes), model="resnet50", system="dgx-a100", precision="amp", batch=256,
                                       **more).notes if n.key.startswith("e_lost")]  # fmt: skip

    assert keys(1, 64) == ["e_lost"] and keys(1) == []  # one device loses nothing
    # a loader of 500/s starves one device too (an estimate has no measured rate to refuse it by): E is then against
    # that stalled step, 0.125 at 8 devices where compute is 0.114 of the step — no split is said
    p = predict([1, 8], model="resnet50", system="dgx-a100", precision="amp", batch=256, input_rate=500)
    assert p.efficiency_values[1] == pytest.approx(0.125) and keys(1, 8, input_rate=500) == []


LLAMA3_8B_4096 = 6 * (8_030_261_248 - 128_256 * 4096) * 4096 + 12 * 32 * 4096 * 4096**2  # FLOP a sequence


def test_the_measured_mfu_note_s_bounds_at_the_peak_and_beside_the_unit_checks():
    """Review JF (a mutation pass over cb3f918, 5e84df9 and 35ce516): the note's bounds held only where the tests
    happened to reach them. At exactly the precision's peak the share is said (100 %: at the peak, not past it); from
    just past it to 1,000 % nothing (fp32's 67 TFLOP/s at 200 % is below bf16's 989, so no beyond_peak either); a
    --step-time slip (step_time_slow) and an inferred compute past the fastest peak (beyond_peak, a rate measured at
    64 devices) keep it silent; and --step-time counts the accumulation's samples (-k 4 at 2.5 s is 1.6 a second)."""
    kw = dict(model="llama3-8b", system="dgx-h100", batch=1, seq_len=4096)

    def mfu(p):
        return [str(n) for n in p.notes if n.key.startswith("measured_mfu")]

    at_peak = predict([1, 8], throughput=989e12 / LLAMA3_8B_4096, precision="bf16", **kw)
    assert mfu(at_peak) == [
        "model-FLOPs utilisation: 210,829 GFLOP a sample × the measured 4.691 samples/s a device (1 device) is 100 % "
        "of 989 TFLOP/s (h100-80gb, bf16); at 8 devices, E 0.906, each device delivers 90.6 %"]  # fmt: skip
    fp32_twice = predict([8, 64], throughput=2 * 67e12 / LLAMA3_8B_4096, baseline_devices=8, **kw)
    assert mfu(fp32_twice) == [] and "beyond_peak" not in [n.key for n in fp32_twice.notes]
    slip = predict([1, 64], step_time_s=625, precision="bf16", **kw)  # 0.625 s typed as milliseconds
    assert [n.key for n in slip.notes if n.key == "step_time_slow"] == ["step_time_slow"] and mfu(slip) == []
    inferred = predict([8, 64], throughput=0.9 * 989e12 / LLAMA3_8B_4096, baseline_devices=64, precision="bf16", **kw)
    (beyond,) = [n for n in inferred.notes if n.key == "beyond_peak"]
    assert beyond.fields["tflops"] == pytest.approx(4675, abs=1) and mfu(inferred) == []
    accumulated = predict([1, 64], step_time_s=2.5, grad_accum=4, precision="bf16", **kw)
    (note,) = mfu(accumulated)
    assert note.startswith("model-FLOPs utilisation: 210,829 GFLOP a sample × the measured 1.6 samples/s a device "
                           "(1 device) is 34.1 % of 989 TFLOP/s (h100-80gb, bf16); at 64 devices, E 0.873")  # fmt: skip


def test_the_cluster_s_mfu_at_exactly_the_peak_is_still_said():
    """Review JF: 35ce516 drops the cluster's share where it passes 100 %; at exactly 100 % (80 % measured at 16
    devices × E vs d0 1.25 at 4) it is a utilisation at the peak, and said."""
    from dpscale.sources.predict_notes import _measured_mfu

    part = {"peak_tflops": {"fp32": 1.0}}
    (note,) = _measured_mfu(1e12, 0.8, 16, part, "x", "fp32", (4, 1.25), [])
    assert str(note) == ("model-FLOPs utilisation: 1,000 GFLOP a sample × the measured 0.8 samples/s a device (16 "
                         "devices) is 80 % of 1 TFLOP/s (x, fp32); at 4 devices, E vs d0 1.250, each device delivers "
                         "100 %")  # fmt: skip
    (past,) = _measured_mfu(1e12, 0.8, 16, part, "x", "fp32", (4, 1.2500000000000002), [])
    assert past.key == "measured_mfu_alone"


def test_the_measured_mfu_notes_read_whole_in_spanish(capsys):
    """Review JF (a mutation pass over cb3f918 and 35ce516): the Spanish notes were checked by a prefix and a
    fragment ('E frente a d0' in another test's table header passed without the note): their whole sentences, E vs
    d0's note against a one-device baseline's, and the measured share alone."""
    llama = ("predict", "--model", "llama3-8b", "--system", "dgx-h100", "--precision", "bf16", "-b", "1", "--seq-len",
             "4096", "--lang", "es")  # fmt: skip
    rc, out, _ = run(capsys, *llama, "--throughput", "1.6", "--baseline-devices", "8", "-d", "8,64")
    assert rc == 0 and (
        "nota: utilización de FLOPs del modelo: 210.829 GFLOP por muestra × las 1,6 muestras/s por dispositivo medidas "
        "(8 dispositivos) son el 34,1 % de 989 TFLOP/s (h100-80gb, bf16); con 64 dispositivos, E frente a d0 0,965, "
        "cada dispositivo rinde el 32,9 %\n") in out  # fmt: skip
    rc, out, _ = run(capsys, *llama, "--step-time", "0.625", "-d", "1,64")
    assert rc == 0 and (
        "nota: utilización de FLOPs del modelo: 210.829 GFLOP por muestra × las 1,6 muestras/s por dispositivo medidas "
        "(1 dispositivo) son el 34,1 % de 989 TFLOP/s (h100-80gb, bf16); con 64 dispositivos, E 0,912, cada "
        "dispositivo rinde el 31,1 %\n") in out  # fmt: skip
    v = 0.99 * 19.5e12 / (6 * 4.089e9)  # 99 % of fp32's peak at 16 devices: the sweep below it is not said
    resnet = ("predict", "--model", "resnet50", "--system", "dgx-a100", "--precision", "fp32", "-b", "256", "-d")
    rc, out, _ = run(capsys, *resnet, "1,2,4", "--throughput", repr(v), "--baseline-devices", "16", "--lang", "es")
    assert rc == 0 and (
        "nota: utilización de FLOPs del modelo: 24,534 GFLOP por muestra × las 786,867 muestras/s por dispositivo "
        "medidas (16 dispositivos) son el 99 % de 19,5 TFLOP/s (a100-80gb, fp32)\n") in out  # fmt: skip


def test_where_e_goes_reads_whole_at_the_largest_size_however_the_sizes_are_listed(capsys):
    """Review JF (a mutation pass over cddd86b and c9fe06b): the notes were checked on sorted sizes, with Es whose
    three decimals and three figures agree, and with a loader's note only in English fragments. A list given largest
    first (64, 8) still says 64's; an E of 0.003 keeps predict's three decimals (E's own format, not 0.00314); the
    loader's note reads whole in both languages, after the measured MFU (how the answer was made) and before the
    columns' notes."""
    kw = dict(model="bert-large", system="dgx-a100", precision="amp", batch=32, throughput=150)
    said = [str(n) for n in predict([64, 8], **kw).notes if n.key.startswith("e_lost")]
    assert said == ["where E goes at 64 devices: E 0.807 is compute's share of the step; the other 19.3 % is the "
                    "exposed all-reduce, 0.112 %, and the synchronisation wait, 19.2 %"]  # fmt: skip
    slow = predict([1, 64], params=1e9, throughput=100, gpus_per_node=8, intra_bw_gbs=300, inter_bw_gbs=0.1)
    assert [str(n) for n in slow.notes if n.key.startswith("e_lost")] == [
        "where E goes at 64 devices: E 0.003 is compute's share of the step; the other 99.7 % is the exposed "
        "all-reduce, 99.6 %, and the synchronisation wait, 0.0599 %"]  # fmt: skip
    argv = ("predict", "--model", "resnet50", "--system", "dgx1-v100", "--precision", "amp", "-b", "128",
            "--throughput", "1200", "--input-rate", "5000", "-d", "8,64")  # fmt: skip
    for lang, mfu, where in (
        ("en", "note: model-FLOPs utilisation: ",
         "note: where E goes at 64 devices: E 0.521 is compute's share of the step; the other 47.9 % is the exposed "
         "all-reduce, 0.724 %, the synchronisation wait, 6.28 %, and waiting for input, 40.9 %"),
        ("es", "nota: utilización de FLOPs del modelo: ",
         "nota: adónde va E con 64 dispositivos: E 0,521 es la parte de cómputo del paso; el 47,9 % restante es el "
         "all-reduce expuesto, 0,724 %, la espera de sincronización, 6,28 %, y la espera de datos de entrada, 40,9 %"),
    ):  # fmt: skip
        rc, out, _ = run(capsys, *argv, "--lang", lang)
        lines = out.splitlines()
        assert rc == 0 and where in lines, out
        first = next(i for i, line in enumerate(lines) if line.startswith(mfu))
        assert first + 1 == lines.index(where) and lines[first + 2] in (
            "note: E relative to one device; throughput in samples/s", "nota: E relativa a un dispositivo; rendimiento "
            "en muestras/s"), out  # fmt: skip


# Other names for a field a system file's entry is read by: ignored (and the field defaulted, or required and said
# missing) until they were refused by the field's name (review JK)
SYSTEM_OTHER_NAMES = {
    "num_nics": ("nics", 8), "nic_count": ("nics", 8), "nics_per_node": ("nics", 8), "network": ("inter_link", "ib"),
    "interconnect": ("inter_link", "ib"), "cores": ("cpu_cores", 64), "cpu_count": ("cpu_cores", 64),
    "gpu_type": ("gpu", "h100-80gb"), "gpu_model": ("gpu", "h100-80gb"), "num_gpus": ("gpus_per_node", 8),
    "gpus_per_host": ("gpus_per_node", 8), "network_bw": ("inter_bw_gbs", 400), "nvlink_bw": ("intra_bw_gbs", 450),
}  # fmt: skip


def test_another_name_for_a_read_system_field_is_refused_not_ignored(tmp_path, capsys):
    """A file's 'num_nics': 8 for 'nics' charged 2 GPUs of each 8-GPU node the whole 400 GB/s network: all-reduce
    189.2 ms for the 598.1 ms its 2 NICs give (llama-7b, ZeRO-3, bf16, 64 devices) — said only as nics not given;
    'network' for 'inter_link' dropped an Ethernet network's note. Each such name, where the entry lacks the field,
    is refused naming the field, in English and Spanish; beside the field it describes the system."""
    fields = {"gpus_per_node": 8, "intra_bw_gbs": 450, "inter_bw_gbs": 400, "gpu": "h100-80gb"}
    for other, (read, value) in SYSTEM_OTHER_NAMES.items():
        path = tmp_path / f"{other}.json"
        path.write_text(json.dumps({"systems": {"mine": {**{k: v for k, v in fields.items() if k != read},
                                                         other: value}}}))  # fmt: skip
        for lang, said in (
            ("en", f"key '{other}' (did you mean '{read}'?); allowed: gpus_per_node, intra_bw_gbs"),
            ("es", f"clave '{other}' (¿quería decir '{read}'?); se admite: gpus_per_node, intra_bw"),
        ):
            rc, out, err = run(capsys, "predict", "--model", "llama-7b", "-d", "64", "--system-file", str(path),
                               "--lang", lang)  # fmt: skip
            assert (rc, out) == (2, "") and len(err.strip().splitlines()) == 1, (other, err)
            assert f"--system-file: {path}: " in err and f"'mine': {said}" in err, (other, err)
    both = tmp_path / "both.json"  # beside the field: a note of the file's own
    both.write_text(json.dumps({**fields, "nics": 8, "num_nics": 8, "inter_link": "ib-ndr", "network": "8 × NDR"}))
    assert catalog.load_system_file(str(both))["nics"] == 8
    both.write_text(json.dumps({**fields, "network": "8 × NDR"}))  # without inter_link: refused, as above
    with pytest.raises(DpscaleError, match=r"key 'network' \(did you mean 'inter_link'\?\)"):
        catalog.load_system_file(str(both))


def test_every_catalog_system_written_as_a_file_is_read_back(tmp_path):
    """The round trip over all 21 systems: each entry alone in a file loads as the catalog's (its describing keys,
    name, topology, source, cpu_source, pass the key checks)."""
    systems = json.loads((catalog.HERE / "systems.json").read_text(encoding="utf-8"))["systems"]
    assert len(systems) == 21
    for key, entry in systems.items():
        path = tmp_path / f"{key}.json"
        path.write_text(json.dumps(entry))
        got = catalog.load_system_file(str(path))
        assert {k: v for k, v in got.items() if k != "key"} == entry, key


RUN_LINE = (
    '{"devices": %d, "throughput": %s, "step_time": %s, "workload": "mlp", "batch": 64, "efficiency": %s, '
    '"unit": "samples/s"}'
)


@pytest.mark.parametrize(
    "text",
    [
        RUN_LINE % (1, 6201.8, 0.01032, 1.0) + "\n" + RUN_LINE % (2, 6353.8, 0.02015, 0.512) + "\n",  # --out, 2 sizes
        RUN_LINE % (1, 6201.8, 0.01032, 1.0) + "\n",  # --out cut short after its first size
        '{"workload": "mlp", "batch": 64, "points": [' + RUN_LINE % (1, 6201.8, 0.01032, 1.0) + "]}",  # --json
        # --csv (review MH: 'line 1: not JSON (Expecting value)', where plan --efficiency-file names it runs)
        "devices,throughput,efficiency,step_time,workload,batch,unit\n1,6201.8,1.0,0.01032,mlp,64,samples/s\n"
        "2,6353.8,0.512,0.02015,mlp,64,samples/s\n",
    ],
)
def test_a_calibration_given_measure_s_training_runs_says_they_are_runs(tmp_path, capsys, text):
    """Review MA: `dpscale predict --calibration results.jsonl`, the file `dpscale measure --out` had just written,
    said 'results.jsonl line 2: not JSON (Extra data)' — line 2 is JSON, one run a line — and the same runs after an
    interrupted sweep (one line) or as `measure --json` said 'busbw_gbs missing'. Now: runs, for fit, and which
    command writes a calibration, in both languages."""
    f = tmp_path / "results.jsonl"
    f.write_text(text)
    argv = ["predict", "--params", "1e8", "--step-time", "0.1", "--system", "dgx-a100", "--calibration", str(f), "-d",
            "8"]  # fmt: skip
    head = f"dpscale predict: error: --calibration: {f}: "
    en = (f"{head}runs of `dpscale measure` (for fit and plan --fit); allowed: JSON with numbers busbw_gbs and "
          "alpha_s, as `dpscale measure allreduce --out` writes it\n")  # fmt: skip
    es = (f"{head}ejecuciones de `dpscale measure` (para fit y plan --fit); se admite: JSON con los números busbw_gbs "
          "y alpha_s, como lo escribe `dpscale measure allreduce --out`\n")  # fmt: skip
    for lang, line in (("en", en), ("es", es)):
        assert run(capsys, *argv, "--lang", lang) == (2, "", line)


def test_a_typed_intra_bw_a_calibration_file_replaces_is_said_unused(tmp_path, capsys):
    """Review MC: under `--calibration FILE` (its measured all-reduce replaces the node's link) a typed --intra-bw
    moved no E, yet was said as 'dgx-a100 as the options changed it: intra_bw_gbs 300 → 20', and 2400 as '8 times
    the dgx-a100's 300 … E is computed as given'. Now it is said unused, on a preset or a raw cluster, table or line."""
    argv = ["predict", "--model", "bert-large", "--precision", "amp", "--batch", "8", "--no-overlap", "-d", "8,16"]
    for f in (_calib(tmp_path, None), _calib(tmp_path, [(MIB, 20.0), (32 * MIB, 100.0), (256 * MIB, 100.0)])):
        for where in (["--system", "dgx-a100"], ["--gpus-per-node", "8", "--inter-bw", "200", "--gpu", "a100-80gb"]):
            _, plain, _ = run(capsys, *argv, *where, "--calibration", f)
            for typed in ("20", "300", "2400"):
                rc, out, _ = run(capsys, *argv, *where, "--calibration", f, "--intra-bw", typed)
                lines = out.splitlines()
                assert rc == 0 and lines[:4] == plain.splitlines()[:4]  # the same E at 8 and 16
                assert (
                    f"note: --intra-bw {typed} is unused: the measured calibration file's all-reduce replaces the "
                    "node's link (E is the same without it)"
                ) in lines
                assert not [x for x in lines if "intra_bw_gbs" in x or "8 times" in x], (where, typed)
            assert "unused" not in plain
    rc, out, _ = run(capsys, *argv, "--system", "dgx-a100", "--calibration", f, "--intra-bw", "20", "--lang", "es")
    assert (
        rc == 0
        and (
            "nota: --intra-bw 20 no se usa: el all-reduce medido del archivo de calibración sustituye al enlace del "
            "nodo (E es la misma sin él)"
        )
        in out.splitlines()
    )
    # the preset's other figures changed are still said, without the unused one
    rc, out, _ = run(capsys, *argv, "--system", "dgx-a100", "--calibration", f, "--intra-bw", "20", "--inter-bw", "100")
    assert rc == 0 and "note: dgx-a100 as the options changed it: inter_bw_gbs 200 → 100" in out.splitlines()


HELD_OUT = str(Path(__file__).parent.parent / "validation" / "holdout_more12.csv")  # (9 points: validate's quickest)


@pytest.mark.parametrize(
    "writer, said_en, said_es",
    [
        (["calc", "-d", "64", "-v", "2000", "-e", "0.9"], "calc's answer (`dpscale calc --json`, for plan "
         "--efficiency-file)", "la respuesta de calc (`dpscale calc --json`, para plan --efficiency-file)"),
        (["calc", "-d", "8,64", "-v", "2000", "-a", "14000,100000"], "calc's answer (`dpscale calc --json`, for plan "
         "--efficiency-file)", "la respuesta de calc (`dpscale calc --json`, para plan --efficiency-file)"),
        (["predict", "--model", "resnet50", "--system", "dgx-a100", "-d", "8,16"], "E predicted per size (`dpscale "
         "predict --json`, for plan --efficiency-file)", "E predicha por tamaño (`dpscale predict --json`, para plan "
         "--efficiency-file)"),
        (["fit", "--point", "1:1000", "--point", "2:1900", "--point", "4:3600", "--resamples", "50"], "a fitted law "
         "(`dpscale fit --json`, for plan --efficiency-file)", "una ley ajustada (`dpscale fit --json`, para plan "
         "--efficiency-file)"),
        (["validate", HELD_OUT], "a validation's scores (`dpscale validate --json`, which no "
         "command reads)", "las puntuaciones de una validación (`dpscale validate --json`, que ningún comando lee)"),
        (["validate", HELD_OUT, "--mode", "fit"], "a validation's scores (`dpscale validate "
         "--json`, which no command reads)", "las puntuaciones de una validación (`dpscale validate --json`, que "
         "ningún comando lee)"),
    ],
)  # fmt: skip
def test_a_calibration_given_another_command_s_json_names_it(tmp_path, capsys, writer, said_en, said_es):
    """Review MH: `dpscale predict --calibration out.json` given what `calc`, `fit` or `validate --json` wrote said
    'busbw_gbs missing; allowed: …', as if a calibration had lost a field, and predict's records only 'allowed: …'.
    Now each is named as what it is and what reads it, in both languages."""
    rc, out, _ = run(capsys, *writer, "--json")
    assert rc == 0
    f = tmp_path / "out.json"
    f.write_text(out)
    argv = ["predict", "--params", "1e8", "--step-time", "0.1", "--system", "dgx-a100", "--calibration", str(f), "-d",
            "8"]  # fmt: skip
    head = f"dpscale predict: error: --calibration: {f}: "
    en = f"{head}{said_en}; allowed: JSON with numbers busbw_gbs and alpha_s, as `dpscale measure allreduce --out` "
    es = f"{head}{said_es}; se admite: JSON con los números busbw_gbs y alpha_s, como lo escribe `dpscale measure "
    for lang, line in (("en", en + "writes it\n"), ("es", es + "allreduce --out`\n")):
        assert run(capsys, *argv, "--lang", lang) == (2, "", line)
