"""predict's inputs: system files, calibration files, raw clusters, precision and compute shares, what a size needs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from clihelp import run

import dpscale
from dpscale import DpscaleError, catalog
from dpscale.formulas.compute import estimated_layers, flops_per_sample
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


@pytest.mark.parametrize("kw", [dict(system="dgx-a100", gpus_per_node=0),
                                dict(gpus_per_node=8, intra_bw_gbs=5e-4, inter_bw_gbs=1.0)])  # fmt: skip
def test_a_node_of_no_gpus_and_a_link_under_a_megabyte_per_second_are_refused(kw):
    """0 GPUs a node is refused, not replaced by the system's 8; 0.0005 GB/s is below BANDWIDTH's 0.001."""
    from dpscale.sources.predict_inputs import cluster

    with pytest.raises(DpscaleError):
        cluster(**kw)


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
