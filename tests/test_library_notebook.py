"""Review 44, reviewer D: the library from a notebook (inputs, outputs, hints)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from clihelp import run

import dpscale
from dpscale.errors import DpscaleError
from dpscale.faces.cli import main


def test_solving_for_devices_names_an_e_function_that_gives_no_efficiency():
    """solve(devices=None) searched through whatever the E(d) function gave: nan read 'throughput peaks at nan/s
    (speedup nan) with 1 devices', 0 beyond one device 'not reached within 10,000,000 devices', and None, text or
    two values for one size raised float()'s TypeError or ValueError from inside the search."""
    given = {"per_device_throughput": 2000, "actual_throughput": 115_200}
    with pytest.raises(DpscaleError, match=r"^efficiency: got nan; allowed: a scaling efficiency in \(0, 1\]"):
        dpscale.solve(efficiency=lambda d: float("nan"), **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got 0; allowed: .*\(E\(d\) at d = 2\)"):
        dpscale.solve(efficiency=lambda d: 1.0 if d == 1 else 0.0, **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got -0\.5; allowed: a scaling efficiency"):
        dpscale.solve(efficiency=lambda d: 1.0 if d == 1 else -0.5, **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got None"):
        dpscale.solve(efficiency=lambda d: None, **given)
    with pytest.raises(DpscaleError, match=r"^efficiency: got 'x'"):
        dpscale.solve(efficiency=lambda d: "x", **given)
    two = r"^efficiency: got \[0\.9 0\.8\]; allowed: one scaling efficiency in \(0, 1\] per size \(E\(d\) at d = 1\)"
    with pytest.raises(DpscaleError, match=two):  # (as scale says it: one rule, _one_at)
        dpscale.solve(efficiency=lambda d: np.array([0.9, 0.8]), **given)
    # a well-made function still solves: the worked example, 64 devices × 2,000/s × 0.9 = 115,200/s
    s = dpscale.solve(efficiency=lambda d: 1.0 if d == 1 else 0.9, **given)
    assert s.result.devices == 64 and s.exact == 64.0
    assert s.result.actual_throughput == 115_200.0 and s.result.speedup == 57.6


NOTEBOOK = """
import numpy as np
import dpscale

n, x = np.int64(8), np.float32(0.9)
dpscale.USL(x, 1e-5), dpscale.Amdahl(x), dpscale.Constant(x)
dpscale.predict([8], params=np.int64(100_000_000), throughput=x, system="dgx-a100", batch=n, zero=np.int64(1))
dpscale.fit([(1, 1000), (8, 7400), (16, 14000)], gpus_per_node=n, confidence=x, resamples=np.int64(200), seed=n)
dpscale.batch_plan(n, n, n, base_lr=x, base_batch=n, dataset_size=n, warmup_epochs=x, noise_scale=n, min_steps=n)
dpscale.bubble_fraction(n, n, "interleaved", np.int64(2))
dpscale.pipeline(n, n, "1f1b", devices=n)
dpscale.model_states(7e9, n, np.int64(1), tensor_parallel=np.int64(1))
dpscale.fit_all(n * 1_000_000_000, n, activation=x, device_memory_bytes=n * 10_000_000_000, tensor_parallel=n)
dpscale.plan(n * 1_000_000, n, x, [8], 0.9, price_per_device_hour=x, deadline_hours=n, budget=n, knee_threshold=x)
dpscale.parse_duration(x)
"""


@pytest.mark.slow  # a mypy process
def test_numpy_scalars_the_functions_take_pass_a_type_checker_too(tmp_path):
    """Every call below runs (numpy's int64 and float32 are numbers here, as the tests of session 25 say), yet
    `mypy --strict` refused 43 of its arguments: `batch_plan(np.int64(32))` — 'expected "int"', `USL(np.float32(0.01))`
    — 'expected "float"'. The hints now say what runs, as scale's and solve's (Any) do."""
    pytest.importorskip("mypy")
    import os
    import subprocess
    import sys
    from pathlib import Path

    exec(compile(NOTEBOOK, "notebook", "exec"), {})  # it runs
    script = tmp_path / "notebook.py"
    script.write_text(NOTEBOOK)
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "MYPYPATH": str(src)}
    args = ["--strict", "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache"), str(script)]
    done = subprocess.run([sys.executable, "-m", "mypy", *args], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_confidence_past_any_float_is_still_named():
    """(The hints' change kept fit's comparison of the level itself: float(10**400) would raise OverflowError.)"""
    with pytest.raises(DpscaleError, match=r"^confidence: got 1000.*; allowed: a level in \(0, 1\)"):
        dpscale.fit([(1, 1000), (2, 1950), (4, 3800)], confidence=10**400)
    level = dpscale.fit([(1, 1000), (2, 1950), (4, 3800)], confidence=np.float32(0.9), resamples=50).confidence
    assert type(level) is float and level == pytest.approx(0.9)


@pytest.mark.parametrize("law", [dpscale.USL(0.01, 1e-5), dpscale.Amdahl(0.01), dpscale.Constant(0.9)])
def test_a_time_is_no_device_count_for_a_law_or_a_seed_for_a_fit(law):
    """numpy's timedelta64 is an integer to numbers.Real: a law read at np.timedelta64(8, 's') raised "'<=' not
    supported between 'int' and 'datetime.timedelta'", and fit(seed=…) int()'s TypeError; scale already said it."""
    eight_seconds = np.timedelta64(8, "s")
    with pytest.raises(DpscaleError, match=r"^devices: got 8 seconds; allowed: a number, not a time or a date"):
        law.efficiency(eight_seconds)
    with pytest.raises(DpscaleError, match=r"^devices: got 8 seconds; allowed: a number, not a time or a date"):
        dpscale.scale(eight_seconds, 2000, 0.9)
    with pytest.raises(DpscaleError, match=r"^seed: got 8 seconds; allowed: a whole number from 0 to 4,294,967,295"):
        dpscale.fit([(1, 1000), (2, 1950), (4, 3800)], seed=eight_seconds)
    # a numpy integer is still a size: E(64) of the worked example's constant 0.9, 115,200 samples/s
    assert law.efficiency(np.int64(64)) == law.efficiency(64)
    assert dpscale.scale(np.int64(64), 2000, dpscale.Constant(0.9)).actual_throughput == 115_200.0


def test_help_says_what_predict_and_fit_return_and_each_name_it_gives_exists():
    """help(dpscale.predict) and help(dpscale.fit) named their inputs but not what comes back: a notebook had to
    read dir() of a Prediction or a Fit to find records() or devices_for(). Every name the 'Returns' line gives is
    there, and the result is an E source: the worked example's 64 devices × 2,000 samples/s read through it."""
    import re

    made = {
        "predict": dpscale.predict([1, 8, 64], model="resnet50", throughput=2000, system="dgx-a100"),
        "fit": dpscale.fit([(1, 1000), (8, 7400), (16, 14000)], resamples=50),
    }
    for name, result in made.items():
        doc = getattr(dpscale, name).__doc__
        said = doc[doc.index("Returns a ") :]
        assert said.startswith(f"Returns a {type(result).__name__}:")
        names = {n for n in re.findall(r"`(\w+)", said) if n not in ("scale", "solve", "plan", "devices")}
        assert names and all(hasattr(result, n) for n in names), names
    p = made["predict"]
    r = dpscale.scale(64, 2000, p)
    assert r.efficiency == pytest.approx(p.efficiency_values[-1]) and r.actual_throughput == pytest.approx(
        64 * 2000 * p.efficiency_values[-1]
    )


# Review 46 AD: dpscale as a library, from a notebook — what a caller of `import dpscale` meets that the CLI's
# users do not.


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


@pytest.mark.parametrize(("doc", "results"), [("README.md", 2), ("docs/fit.md", 0), ("docs/predict.md", 1)])
def test_the_docs_library_snippets_run(doc, results, monkeypatch, measured):
    """Every ```python block of the README and the docs runs as written (measure.md's is a --model-file, not a call),
    in a folder holding the files they name; a line whose comment is a value ('# 115200.0', '# {"devices": 80, …}')
    gives that value (review LZ: the README's '# 0.9' and predict.md's answer were never compared — a solve off by
    any amount ran as written)."""
    import ast

    monkeypatch.chdir(measured.parent)  # results.jsonl, and the runs.csv fit.md reads
    Path("runs.csv").write_text("devices,throughput\n1,1000\n8,7500\n16,14600\n32,27000\n", encoding="utf-8")
    Path("validation").mkdir()  # predict.md's dpscale.validate reads the dev set by its path in the repository
    shutil.copy(DOCS / "validation" / "published_scaling_dev.csv", "validation")
    blocks = re.findall(r"```python\n(.+?)```", (DOCS / doc).read_text(encoding="utf-8"), re.S)
    assert blocks
    compared = 0
    for block in blocks:
        lines, names = block.splitlines(), {}
        for statement in ast.parse(block).body:
            code = ast.get_source_segment(block, statement)
            exec(compile(ast.Module([statement], []), doc, "exec"), names)
            comment = lines[statement.end_lineno - 1].partition(code.splitlines()[-1])[2].strip()
            try:  # the value alone, or before '; ' and the words after it
                said = ast.literal_eval(comment.removeprefix("#").split("; ")[0].strip())
            except (ValueError, SyntaxError):
                continue  # words, not a value
            if isinstance(statement, ast.Expr):
                assert eval(code, names) == said, (doc, code)
                compared += 1
    assert compared == results  # the values the docs state, each compared


# Review AN (session 46): mutation testing of the session's source changes — a test for each hand-made mutant that
# survived the session's own tests and that a user would see.


def test_fit_only_that_picks_nothing_from_a_list_of_records_names_the_setups_there_are():
    """fit(records, only=…) that matches none of a notebook's records said no runs at all; it names the set-ups the
    records hold, as for a file."""
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.fit(MEASURED, only={"workload": "transformer"})
    assert str(exc.value) == (
        "only: got workload=transformer; allowed: a set-up runs holds: workload=mlp (3); workload=cnn (1)"
    )
    plain = [{"devices": d, "throughput": x} for d, x in ((1, 1000.0), (2, 1900.0))]  # records without a set-up
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.fit(plain, only={"workload": "mlp"})
    assert str(exc.value) == "only: runs names no set-up; allowed: with JSON lines of `dpscale measure` records"


def test_fit_only_of_json_lines_without_a_setup_names_the_library_argument(tmp_path, capsys):
    """JSON lines that are no `dpscale measure` records name no set-up: the library's refusal names only=, the CLI's
    --only (the library said '--only', a flag it does not take)."""
    path = tmp_path / "runs.jsonl"
    path.write_text('{"devices": 1, "throughput": 1000}\n{"devices": 2, "throughput": 1900}\n', encoding="utf-8")
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.fit(path, only={"workload": "mlp"})
    assert str(exc.value) == "only: runs.jsonl names no set-up; allowed: with JSON lines of `dpscale measure` records"
    rc, _, err = run(capsys, "fit", str(path), "--only", "workload=mlp")
    assert rc == 2 and "error: --only: runs.jsonl names no set-up; allowed: with JSON lines" in err


def test_the_library_s_predict_refuses_an_mfu_past_one():
    """An MFU is a fraction of the GPU's peak: 1.2 would be a chip 20 % faster than its datasheet, refused by the
    library as by `predict --mfu`; 1 is the largest taken."""
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.predict([1, 8], model="gpt2", mfu=1.2, gpu="h100-80gb", system="dgx-h100")
    assert str(exc.value) == "mfu: got 1.2; allowed: a model-FLOPs utilisation from 1e-6 to 1"
    e = dpscale.predict([1, 8], model="gpt2", mfu=1.0, gpu="h100-80gb", system="dgx-h100").efficiency_values
    assert e[0] == 1.0 and 0.9 < e[1] < 1.0


def test_fit_only_and_the_runs_unit_are_read_without_the_spaces_around_them():
    """only={'workload': ' mlp '} picks the records whose workload is mlp, as `--only workload= mlp` does, and a
    record's unit ' tokens/s ' is tokens/s: the Fit says it as the CLI labels it."""
    f = dpscale.fit(MEASURED, only={"workload": " mlp "}, resamples=50)
    assert f.runs.devices == (1, 2, 4) and f.runs.throughput == (1000.0, 1900.0, 3600.0)
    spaced = [dict(r, unit=" tokens/s ") for r in MEASURED[:3]]
    g = dpscale.fit(spaced, resamples=50)
    assert g.unit == "tokens/s" and "throughput in tokens/s, as the runs state it" in g.summary()


def test_a_prediction_s_arrays_are_read_only_as_a_scale_result_s():
    """dpscale.predict's Prediction handed out its own arrays: `e = p.efficiency_values; e[e < 0.8] = 0.5` (a
    notebook's clean-up of a copy it thought it had) moved records(), band() and the repr, while efficiency(d), which
    scale, solve and plan read, re-evaluated the model: one object, two E(64). A ScaleResult's arrays are read-only
    views; so are a Prediction's, and the caller's own list or array of sizes stays writable."""
    sizes = np.array([1, 8, 64])
    p = dpscale.predict(sizes, model="resnet50", throughput=2000, system="dgx-a100")
    e64 = p.efficiency_values[-1]
    for arr in (p.devices, p.efficiency_values, p.breakdown.step_s, p.breakdown.allreduce_s):
        with pytest.raises(ValueError, match="read-only"):
            arr[-1] = 0.5
    assert p.records()[-1]["efficiency"] == e64 == dpscale.scale(64, 2000, p).efficiency == p.efficiency(64)
    assert 0.7 < e64 < 0.9  # ResNet-50 at 2,000 samples/s a GPU on 64 A100s (8 DGX A100 nodes)
    sizes[0] = 2  # the caller's array is not frozen, and not the prediction's either
    assert sizes.flags.writeable and p.devices[0] == 1 and p.records()[0]["efficiency"] == 1.0


def test_help_says_what_the_calculators_return_and_each_name_it_gives_exists():
    """help(dpscale.solve), help(dpscale.batch_plan), help(dpscale.pipeline), help(dpscale.plan) and
    help(dpscale.model_states) said what they take but not what comes back (nor, for batch_plan, what its efficiency
    does): as for predict and fit, a 'Returns a …' line names the result and each attribute it gives."""
    usl = dpscale.USL(0.01, 1e-4)
    made = {
        "solve": dpscale.solve(devices=64, per_device_throughput=2000, actual_throughput=115_200),
        "batch_plan": dpscale.batch_plan(32, 256, base_lr=0.1, base_batch=256, dataset_size=1_281_167,
                                         noise_scale=1000, efficiency=lambda d: 1.0 if d == 1 else 0.9),
        "pipeline": dpscale.pipeline(4, 8, "gpipe", dp_efficiency=usl, devices=16),
        "plan": dpscale.plan(1.28e6, 90, 2000, [1, 8, 64], usl, price_per_device_hour=2.5, deadline_hours=1),
        "model_states": dpscale.model_states(7.5e9, 64, 1),
    }  # fmt: skip
    for name, result in made.items():
        doc = getattr(dpscale, name).__doc__
        said = doc[doc.index("Returns a ") :]
        assert said.startswith(f"Returns a {type(result).__name__}:"), name
        names = set(re.findall(r"`(\w+)", said))
        assert len(names) >= 4 and all(hasattr(result, n) for n in names), (name, names)
    # the worked examples behind them: E = 0.9 solved; Goyal's 3.2 at 8,192 and d·E = 230.4; GPipe's 3/11
    assert made["solve"].solved == "efficiency" and made["solve"].exact == 0.9
    assert made["batch_plan"].learning_rate == pytest.approx(3.2) and made["batch_plan"].hardware_speedup == 230.4
    assert made["pipeline"].bubble_fraction == pytest.approx(3 / 11) and made["pipeline"].dp_replicas == 4
    # docs/calculators.md's plan: 16 h on one device; 64 devices meet the 1 h deadline in 30.5 min (8 take 2.2 h)
    assert made["plan"].points[0].hours == 16.0 and made["plan"].cheapest_meeting_deadline == 64
    assert round(made["plan"].points[-1].hours * 60, 1) == 30.5
    assert round(made["model_states"].total / 1e9, 1) == 31.4


def test_a_prediction_s_repr_lists_eight_sizes_then_counts_them():
    """Prediction's repr shows E at its first eight sizes; past eight it adds how many there are, and at eight or
    fewer nothing (three sizes were said '… (3 sizes)' by no test that could tell)."""
    kw = dict(model="bert-large", system="dgx-a100", throughput=100, batch=8)
    for n in (3, 8, 10):
        p = dpscale.predict([2**i for i in range(n)], **kw)
        shown = ", ".join(f"{2**i}: {e:.3f}" for i, e in enumerate(p.efficiency_values[:8]))
        more = f", … ({n} sizes)" if n > 8 else ""
        assert repr(p) == f"Prediction(E={{{shown}{more}}}, per_device_throughput=100)"
    assert repr(p).count(": ") == 8  # ten sizes: eight shown


def test_a_plan_s_repr_lists_eight_sizes_then_counts_them_and_names_the_picks():
    """A Plan's repr was the dataclass's, every PlanPoint in full: plan(…, range(1, 1025), …) evaluated in a notebook
    cell printed 198,038 characters. Now hours at the first eight sizes, their count past eight, and the picks."""
    p = dpscale.plan(1e6, 90, 2000, range(1, 1025), 0.9)
    shown = ", ".join(f"{d}: {1e6 * 90 / (d * 2000 * (0.9 if d > 1 else 1.0)) / 3600:.4g}" for d in range(1, 9))
    assert repr(p) == f"Plan(hours={{{shown}, … (1024 sizes)}}, knee=None, cheapest_meeting_deadline=None, " + (
        "fastest_within_budget=None)"
    )
    usl = dpscale.plan(1e6, 90, 2000, [8, 16, 64, 256], dpscale.USL(0.01, 1e-4), 2.0, deadline_hours=1, budget=50)
    assert (usl.knee, usl.cheapest_meeting_deadline, usl.fastest_within_budget) == (16, 16, 16)
    hours = ", ".join(f"{q.devices}: {q.hours:.4g}" for q in usl.points)  # four sizes: no count
    assert repr(usl) == f"Plan(hours={{{hours}}}, knee=16, cheapest_meeting_deadline=16, fastest_within_budget=16)"


def test_results_holding_arrays_show_the_first_and_last_values_of_a_long_sweep():
    """numpy cuts an array's repr past 1,000 values, so a sweep of 999 sizes shown in a notebook cell printed every
    value: a ScaleResult 95,473 characters, a fit's prediction 101,182, a ModelStates 35,614. Past eight values
    each array is now its first and last three; a short sweep's repr and numpy's own settings stay as they were."""
    sizes = np.arange(1, 1000)
    f = dpscale.fit([(1, 1000), (8, 7500), (16, 14600), (32, 27000)])
    long = [dpscale.scale(sizes, 2000, dpscale.USL(0.01, 1e-5)), f.predict(sizes), dpscale.model_states(7e9, sizes)]
    for r in long:
        # (numpy 2.2 adds ", shape=(999,)" after a cut array; 1.24, pyproject's floor, does not)
        assert len(repr(r)) < 1500 and "devices=array([  1,   2,   3, ..., 997, 998, 999]" in repr(r)
    assert np.get_printoptions()["threshold"] == 1000
    for r in (dpscale.scale([1, 8, 64], 2000, 0.9), f.predict([64, 128]), dpscale.model_states(7e9, [8, 16], 1)):
        names = r._fields if isinstance(r, tuple) else [k for k in type(r).__dataclass_fields__]
        assert repr(r) == f"{type(r).__name__}(" + ", ".join(f"{k}={getattr(r, k)!r}" for k in names) + ")"
    assert repr(dpscale.scale(64, 2000, 0.9)).startswith("ScaleResult(devices=64, per_device_throughput=2000.0, ")


def test_a_solution_s_and_a_critical_batch_s_arrays_are_cut_as_a_scale_result_s():
    """solve() and critical_batch() return results holding arrays too, left out of short_repr: a forward solve over
    999 sizes printed its `exact` array whole (11,891 characters, its ScaleResult beside it cut), critical_batch over
    999 batches 39,014. Past eight values each array is its first and last three; short ones as before."""
    sizes = np.arange(1, 1000)
    s = dpscale.solve(devices=sizes, per_device_throughput=2000, efficiency=0.9)
    c = dpscale.critical_batch(sizes, 1000)
    assert len(repr(s)) < 1500 and "exact=array([   2000.,    3600.,    5400., ..., 1794600., 1796400., 1798200.]" in (
        repr(s)
    )
    assert len(repr(c)) < 1500 and "batch=array([  1.,   2.,   3., ..., 997., 998., 999.]" in repr(c)
    assert np.get_printoptions()["threshold"] == 1000
    short = dpscale.critical_batch([64, 128], 1000, 100)
    names = [k for k in type(short).__dataclass_fields__]
    assert repr(short) == "CriticalBatch(" + ", ".join(f"{k}={getattr(short, k)!r}" for k in names) + ")"
    one = dpscale.solve(devices=64, per_device_throughput=2000, efficiency=0.9)
    assert repr(one) == "Solution(" + ", ".join(f"{k}={getattr(one, k)!r}" for k in one._fields) + ")"


def test_every_public_name_is_named_in_the_docs_as_code():
    """Review MU: `Constant`, `PerSize` and `Amdahl` were in `dir(dpscale)` and `__all__` but in no doc as code (the
    README's library paragraph named `USL` alone; 'Amdahl' only as the CLI's --law word), so a notebook user read of
    E per size or a constant E source nowhere. Each public name is written as code (`name`, dpscale.name, name(…),
    or a docs/calculators.md module path such as `memory.model_states`) in the README or docs/."""
    root = Path(__file__).resolve().parents[1]
    text = (root / "README.md").read_text() + "".join(p.read_text() for p in sorted((root / "docs").glob("*.md")))
    unnamed = [n for n in dpscale.__all__ if not re.search(rf"(`|dpscale\.|`\w+\.){n}\b|\b{n}\(", text)]
    assert unnamed == []
    # the README's E sources are the library's: the table at its sizes, the constant from two devices on
    assert dpscale.scale([1, 8, 64], 2000, dpscale.PerSize({1: 1.0, 8: 0.9, 64: 0.8})).speedup.tolist() == [
        1,
        7.2,
        51.2,
    ]
    assert dpscale.scale(64, 2000, dpscale.Constant(0.9)).speedup == 57.6


@pytest.mark.parametrize("name", ["system", "model", "gpu", "inter_link"])
def test_a_blank_name_is_refused_as_the_cli_refuses_it(name):
    """predict(system='') (model, gpu, inter_link) was read as not given — model='' said 'params/model:
    missing', gpu='' and inter_link='' predicted E 0.918 at 64 on dgx-a100 as if left out — where `dpscale predict
    --system ''` is refused (review MV): one line naming the argument, in Spanish too. (model_file='' is its reader's
    to refuse, as system_file='' is: test_library_inputs.)"""
    from dpscale.faces.i18n import say_error

    kw = {"model": "bert-large", "system": "dgx-a100", name: ""}
    with pytest.raises(DpscaleError) as e:
        dpscale.predict(64, **kw)
    assert str(e.value) == f"{name}: got ''; allowed: a name, or None where it is not given"
    assert say_error(e.value, "es") == f"{name}: se recibió ''; se admite: un nombre, o None donde no se da"


@pytest.mark.parametrize("unit", ["", " ", "tokens/s/gpu"])
def test_a_fit_s_report_reads_its_unit_as_the_cli_s_unit(unit):
    """Fit.report(unit='') said 'samples/s' and unit=' ' labelled the report's rates ' ' (review MV), where `dpscale
    fit --unit ''` and `--unit ' '` are refused: the one rule (formulas.units.check_unit) reads both."""
    f = dpscale.fit([(1, 1000), (8, 7000), (16, 13000)])
    with pytest.raises(DpscaleError, match=rf"^unit: got '{unit}'; allowed: "):
        f.report([64], unit=unit)
    assert f.report([64], unit=" tokens/s ")["unit"] == "tokens/s"


def _python_numbers(obj):
    """Every number in a record is Python's own int or float (json.dumps writes nothing else)."""
    if isinstance(obj, dict):
        return all(_python_numbers(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return all(_python_numbers(v) for v in obj)
    return obj is None or type(obj) in (int, float, bool) or isinstance(obj, str)


def _leaves(obj, path=""):
    """A record's values by their path."""
    if isinstance(obj, dict):
        return {k: v for key, x in obj.items() for k, v in _leaves(x, f"{path}.{key}").items()}
    if isinstance(obj, (list, tuple)):
        return {k: v for i, x in enumerate(obj) for k, v in _leaves(x, f"{path}[{i}]").items()}
    return {path: obj}


@pytest.mark.parametrize("kind", [np.longdouble, np.float32, np.float16])
def test_records_hold_python_numbers_whatever_numpy_type_went_in(kind):
    """np.longdouble inputs left longdoubles in scale's, solve's and predict's records and batch_plan's record, and
    any numpy float (float32 too) in Fit.report's target and minimum E: json.dumps raised TypeError (review MV).
    Each is now what the same call of Python floats gives (a longdouble's arithmetic in its last digits)."""
    d, ds, v, e = kind(64), np.array([8, 64], dtype=kind), kind(2000), kind(0.5)
    f = dpscale.fit([(1, 1000), (8, 7000), (16, 13000), (32, 24000)])
    calls = {
        "scale": lambda d, ds, v, e: dpscale.scale(d, v, e).records() + dpscale.scale(ds, v, e).records(),
        "solve": lambda d, ds, v, e: dpscale.solve(devices=ds, per_device_throughput=v, efficiency=e).records(),
        "predict": lambda d, ds, v, e: dpscale.predict(
            ds, model="bert-large", system="dgx-a100", throughput=v / 8
        ).records(),
        "report": lambda d, ds, v, e: f.report([16], target_throughput=v * 16, min_efficiency=e),
        "batch_plan": lambda d, ds, v, e: dpscale.batch_plan(32, d, noise_scale=v * 2, efficiency=e).record(),
        "plan": lambda d, ds, v, e: dpscale.plan(1e6, 10, v, ds, e, price_per_device_hour=e).records(),
        "pipeline": lambda d, ds, v, e: dpscale.pipeline(4, 8, dp_efficiency=e, devices=d).record(),
    }
    for name, call in calls.items():
        got = call(d, ds, v, e)
        assert _python_numbers(got), name
        got, want = _leaves(json.loads(json.dumps(got))), _leaves(call(64.0, [8.0, 64.0], 2000.0, 0.5))
        numbers = {k for k, v in want.items() if type(v) in (int, float)}
        assert {k: got[k] for k in numbers} == pytest.approx({k: want[k] for k in numbers}, rel=1e-12), name
        assert {k: str(v) for k, v in got.items() if k not in numbers} == {
            k: str(v) for k, v in want.items() if k not in numbers
        }, name


def test_a_whole_float_size_is_a_count_in_the_records():
    """scale(64.0, 2000, 0.9).records() kept devices 64.0 where `dpscale calc -d 64 --json` writes 64 (review MV)."""
    (rec,) = dpscale.scale(64.0, 2000, 0.9).records()
    assert rec["devices"] == 64 and type(rec["devices"]) is int and rec["actual_throughput"] == 115200.0
    assert [type(r["devices"]) for r in dpscale.scale(np.array([8.0, 64.0]), 2000, 0.9).records()] == [int, int]
    solved = dpscale.solve(devices=64.0, per_device_throughput=2000, efficiency=0.9).record()
    assert solved["devices"] == 64 and type(solved["devices"]) is int and solved["speedup"] == 57.6
