"""Review 46 AD: dpscale as a library, from a notebook — what a caller of `import dpscale` meets that the CLI's
users do not."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import dpscale
from dpscale.faces.cli import main

# `dpscale measure --out` appends every workload to one file: mlp at 1, 2, 4 devices, then a cnn run
MEASURED = [
    {"devices": 1, "throughput": 1000.0, "workload": "mlp", "batch": 64, "backend": "gloo", "device": "cpu"},
    {"devices": 2, "throughput": 1900.0, "workload": "mlp", "batch": 64, "backend": "gloo", "device": "cpu"},
    {"devices": 4, "throughput": 3600.0, "workload": "mlp", "batch": 64, "backend": "gloo", "device": "cpu"},
    {"devices": 2, "throughput": 1950.0, "workload": "cnn", "batch": 64, "backend": "gloo", "device": "cpu"},
]


@pytest.fixture
def measured(tmp_path):
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in MEASURED), encoding="utf-8")
    return path


def test_fit_picks_one_setup_of_a_measure_file_with_only(measured):
    # the library had no way to fit such a file: it was refused, naming a flag (--only) dpscale.fit does not take
    f = dpscale.fit(str(measured), only={"workload": "mlp"}, resamples=50)
    assert f.runs.devices == (1, 2, 4) and f.runs.throughput == (1000.0, 1900.0, 3600.0)
    # values compare as the records write them: batch 64 (an int or 64.0) is the records' 64
    for batch in (64, 64.0, "64"):
        g = dpscale.fit(measured, only={"workload": "mlp", "batch": batch}, resamples=50)
        assert g.runs.devices == (1, 2, 4)
    # the same records loaded by hand, as a notebook holds them
    assert dpscale.fit(MEASURED, only={"workload": "mlp"}, resamples=50).runs.devices == (1, 2, 4)


def test_fit_of_several_setups_names_the_library_argument(measured):
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.fit(str(measured))
    said = str(exc.value)
    assert said.startswith(f"{measured.name} line 4: another set-up than line 1 (workload 'mlp' → 'cnn')")
    assert said.endswith("or one picked with only=, e.g. only={'workload': 'cnn'}") and "--only" not in said
    with pytest.raises(dpscale.DpscaleError, match=r"^runs\[3\]: another set-up than runs\[0\] .*e\.g\. only="):
        dpscale.fit(MEASURED)


def test_the_cli_still_names_its_flag(measured, capsys):
    assert main(["fit", str(measured)]) == 2
    assert "or one picked with --only, e.g. --only workload=cnn" in capsys.readouterr().err
    assert main(["fit", str(measured), "--only", "workload=mlp", "--json", "--resamples", "50"]) == 0
    assert [p["devices"] for p in json.loads(capsys.readouterr().out)["measured"]] == [1, 2, 4]


@pytest.mark.parametrize(
    ("only", "said"),
    [
        (
            {"workload": "transformer"},
            "only: got workload=transformer; allowed: a set-up {f} holds: workload=mlp (3); workload=cnn (1)",
        ),
        (
            {"model": "mlp"},
            "only: got {{'model': 'mlp'}}; allowed: a dict of set-up keys (workload, params, batch, "
            "backend, device, steps, threads, zero) to values, e.g. only={{'workload': 'cnn'}}",
        ),
        ("workload=mlp", "only: got 'workload=mlp'; allowed: a dict of set-up keys"),
        ({}, "only: got {{}}; allowed: a dict of set-up keys"),
        ({"zero": True}, "only: got {{'zero': True}}; allowed: a dict of set-up keys"),
    ],
)
def test_fit_only_refusals(measured, only, said):
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.fit(str(measured), only=only)
    assert str(exc.value).startswith(said.format(f=measured.name))


def test_fit_only_needs_records_that_say_a_setup(tmp_path):
    csv = tmp_path / "runs.csv"
    csv.write_text("devices,throughput\n1,1000\n2,1900\n", encoding="utf-8")
    with pytest.raises(dpscale.DpscaleError, match=r"^only: .*runs\.csv is a CSV; allowed: with JSON lines"):
        dpscale.fit(csv, only={"workload": "mlp"})
    with pytest.raises(dpscale.DpscaleError, match=r"^only: got \{'workload': 'mlp'\}; allowed: runs from a file"):
        dpscale.fit(devices=[1, 2], throughput=[1000, 1900], only={"workload": "mlp"})
    with pytest.raises(dpscale.DpscaleError, match=r"; runs\[0\] is \(1, 1000\)$"):  # a pair says no set-up
        dpscale.fit([(1, 1000), (2, 1900)], only={"workload": "mlp"})


CALLS = {
    "scale": lambda e: dpscale.scale(8, 2000, e),
    "solve A": lambda e: dpscale.solve(devices=8, per_device_throughput=2000, efficiency=e),
    "solve d": lambda e: dpscale.solve(per_device_throughput=2000, efficiency=e, actual_throughput=10_000),
    "plan": lambda e: dpscale.plan(1e9, 1, 2000, [8, 16], e),
    "batch_plan": lambda e: dpscale.batch_plan(32, 8, noise_scale=1000, efficiency=e),
    "time_to_target_speedup": lambda e: dpscale.time_to_target_speedup(8, 32, 1000, e),
}


@pytest.mark.parametrize("bad", ["pred.json", {8: 0.9}, None, 1 + 2j])
@pytest.mark.parametrize("name", CALLS)
def test_an_efficiency_that_is_none_names_the_sources_taken(name, bad):
    # 'efficiency: got {8: 0.9}; allowed: a number or an array of numbers' named no E(d) source, which each of these
    # takes, nor the table a dict of E per size is
    if bad is None and name in ("solve A", "solve d", "batch_plan"):  # there None is the argument left out
        return
    call = CALLS[name]
    with pytest.raises(dpscale.DpscaleError) as exc:
        call(bad)
    # plan, batch_plan and solving for devices read one E at a time: a list of E per size, which they refuse, is not
    # named to them (review 46 AJ: the two refusals sent a caller from one to the other)
    one_at_a_time = name in ("solve d", "plan", "batch_plan")
    taken = "one number, or " if one_at_a_time else "a number in (0, 1], one per size (a list or an array), or "
    assert str(exc.value) == (
        f"efficiency: got {bad!r}; allowed: {taken}an E(d) source: "
        "a law (USL, Amdahl), a fit, a prediction, a PerSize table (PerSize({8: 0.9}) for E per size) or a function "
        "of d"
    )


def test_pipeline_dp_efficiency_that_is_none_names_the_sources():
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.pipeline(4, 8, dp_efficiency={8: 0.9}, devices=32)
    assert str(exc.value) == (
        "dp_efficiency: got {8: 0.9}; allowed: a number in (0, 1], or an E(d) source (a law, a fit, a prediction, a "
        "PerSize table) with devices= given"
    )
    # what is taken still is: a number, one in a list, a table read at the replicas (32 devices / 4 stages = 8)
    assert dpscale.pipeline(4, 8, dp_efficiency=[0.9], devices=32).combined_efficiency == pytest.approx(0.9 * 8 / 11)
    table = dpscale.pipeline(4, 8, dp_efficiency=dpscale.PerSize({8: 0.9}), devices=32)
    assert table.combined_efficiency == pytest.approx(0.9 * 8 / 11)
    with pytest.raises(dpscale.DpscaleError, match=r"^dp_efficiency: got \[0.9, 0.8\]; allowed: one number$"):
        dpscale.pipeline(4, 8, dp_efficiency=[0.9, 0.8], devices=32)


@pytest.mark.parametrize(
    ("fn", "words"),
    [
        (
            dpscale.predict,
            [
                "GB/s per device per direction",
                "GB/s per node per direction",
                "`bucket_mb` and",
                "MiB",
                "samples/s one node's input pipeline",
                "µs per hop",
                "parameters (7e9, not 7)",
            ],
        ),
        (dpscale.critical_batch, ["noise_scale (B_noise) in samples", "min_steps (S_min) in optimizer steps"]),
        (dpscale.time_to_target_speedup, ["noise_scale B_noise in samples", "the result is a ratio"]),
    ],
)
def test_help_says_the_units(fn, words):
    # help(dpscale.predict) named input_rate, bucket_mb, intra/inter_bw_gbs and the α's without their units (is the
    # input rate per device or per node? a bucket in MB or MiB?)
    doc = " ".join(fn.__doc__.split())
    assert all(w in doc for w in words), [w for w in words if w not in doc]


@pytest.mark.parametrize("e", [[0.9], (0.9,)])
def test_plan_and_batch_plan_take_one_efficiency_in_a_list(e):
    # scale, pipeline and np.array([0.9]) here read [0.9] as 0.9; plan and batch_plan refused it as 'got [0.9];
    # allowed: one number'
    plan = dpscale.plan(1e9, 1, 2000, [1, 8], e)
    assert [(p.devices, p.efficiency, p.actual_throughput) for p in plan.points] == [
        (1, 1.0, 2000.0),
        (8, 0.9, 14400.0),
    ]
    bp = dpscale.batch_plan(32, 8, noise_scale=1000, efficiency=e)
    assert bp.hardware_speedup == pytest.approx(7.2) and bp.time_to_target_speedup == pytest.approx(5.915923566878981)
    with pytest.raises(dpscale.DpscaleError, match=r"^efficiency: got \[0.9, 0.8\]; allowed: one number, or an E\(d\)"):
        dpscale.plan(1e9, 1, 2000, [1, 8], [0.9, 0.8])


DOCS = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("doc", ["README.md", "docs/fit.md", "docs/predict.md"])
def test_the_docs_library_snippets_run(doc, monkeypatch, measured):
    """Every ```python block of the README and the docs runs as written (measure.md's is a --model-file, not a call),
    in a folder holding the files they name."""
    monkeypatch.chdir(measured.parent)  # results.jsonl, and the runs.csv fit.md reads
    Path("runs.csv").write_text("devices,throughput\n1,1000\n8,7500\n16,14600\n32,27000\n", encoding="utf-8")
    blocks = re.findall(r"```python\n(.+?)```", (DOCS / doc).read_text(encoding="utf-8"), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, doc, "exec"), {})
