"""Mutation sweep 13 (of the modules earlier sweeps touched least: measure's launcher, results, calibration and
workloads; the fit, validate, pipeline and batch commands; formulas batch, pipeline, compute and units; the web
app): gaps the suite left open, each killing a surviving mutant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import run

from dpscale.errors import DpscaleError
from dpscale.formulas.batch import batch_plan
from dpscale.formulas.compute import estimated_layers

ROOT = Path(__file__).resolve().parents[1]


# ---- formulas/compute.py --------------------------------------------------------------------------------------
def test_a_tiny_model_is_still_one_layer_deep():
    """compute.py:40 `max(1, …)` → max(0, …). 10,000 parameters: (1e4 / (12 × 128²))^(1/3) = 0.37 rounds to 0
    layers, and a transformer has at least one."""
    assert estimated_layers(1e4) == 1


# ---- formulas/batch.py ---------------------------------------------------------------------------------------
def test_a_warm_up_of_thousands_of_epochs_is_within_the_documented_range():
    """batch.py:183 the bound 1e4 → 1e3. Warm-up takes 0 to 10,000 epochs (its own message): 5,000 is taken and
    gives 5,000 × ⌈1,280 / 128⌉ = 50,000 warm-up steps; 10,001 is refused."""
    p = batch_plan(32, 4, base_lr=0.1, base_batch=128, dataset_size=1280, warmup_epochs=5000)
    assert (p.warmup_epochs, p.steps_per_epoch, p.warmup_steps) == (5000, 10, 50_000)
    with pytest.raises(DpscaleError, match="^warmup_epochs: got 10001"):
        batch_plan(32, 4, base_lr=0.1, base_batch=128, dataset_size=1280, warmup_epochs=10001)


# ---- faces/cli/pipeline.py -----------------------------------------------------------------------------------
def test_the_default_schedule_is_1f1b_once_stages_are_given(capsys):
    """cli/pipeline.py:53 default '1f1b' → 'gpipe'. -p 4 -m 8 with no --schedule: 1F1B, whose bubble is GPipe's
    3/11 but whose first stage holds min(p, m) = 4 micro-batches, not GPipe's m = 8."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "--json")
    rec = json.loads(out)
    assert rc == 0 and rec["schedule"] == "1f1b" and rec["in_flight_microbatches"] == 4


def test_one_replica_says_nothing_of_an_e_nobody_typed(capsys):
    """cli/pipeline.py:89 `dp_replicas == 1 and e_dp != 1` → the first alone. 4 devices on 4 stages with no
    --dp-efficiency: E = 1 was never set aside, so no note says a typed E 'applies from two replicas'."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "-d", "4")
    assert rc == 0 and "own reference" not in out and "applies from two replicas" not in out


def test_a_typed_dp_efficiency_without_devices_shows_its_rows(capsys):
    """cli/pipeline.py:100 `e_dp != 1 or devices` → devices alone. --dp-efficiency 0.9 with no --devices: the
    table shows the data-parallel E and the combined 0.9 × 8/11 = 0.6545 (65.5 %)."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "--dp-efficiency", "0.9")
    assert rc == 0 and "0.900 (90.0 %)" in out and "0.655 (65.5 %)" in out


def test_a_sweeps_shared_caution_is_said_once(capsys):
    """cli/pipeline.py:88 the de-duplication of cautions dropped. ZB-H1 at m = 8 and 16 on p = 4: both rows carry
    the zero-bubble timing assumption, said once (each m ≥ p, so nothing else is cautioned)."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8,16", "--schedule", "zb-h1")
    assert rc == 0 and out.count("T_F = T_B = T_W") == 1


def test_an_interleaved_title_names_its_chunks(capsys):
    """cli/pipeline.py:104 the chunks title → the plain one. Interleaved with v = 2 chunks: the title says so."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "--schedule", "interleaved", "--chunks", "2")
    assert rc == 0 and out.splitlines()[0] == "Pipeline: interleaved, p = 4 stages, v = 2 chunks per device"


# ---- faces/cli/fit.py ----------------------------------------------------------------------------------------
def test_a_throughput_past_the_peak_is_said_unreachable(capsys):
    """cli/fit.py:306 the '(unreachable)' suffix dropped. Runs rising to 3,200 at 8 and falling to 3,000 at 16
    peak near 9 devices on the USL: 10,000 samples/s, over three times the best measured, is never reached."""
    points = [f"--point={p}" for p in ("1:1000", "2:1800", "4:2800", "8:3200", "16:3000")]
    rc, out, _ = run(capsys, "fit", *points, "--target-throughput", "10000", "--resamples", "50")
    (line,) = [x for x in out.splitlines() if x.startswith("devices for 10,000 samples/s:")]
    assert rc == 0 and line.startswith("devices for 10,000 samples/s: ∞") and "(unreachable)" in line


def test_two_answers_at_one_far_size_say_it_once(capsys):
    """cli/fit.py:163 the de-duplication of the answers' warnings dropped. A target throughput and a least E that
    both come out at the same size past 4 × 8 = 32 measured devices: 'lie beyond 4× the largest measured size' is
    one note for both answers, not one each. (The inputs sit midway between sizes, so both land on one: the fitted
    law, Amdahl, gives 19,360 and 19,450 samples/s at 63 and 64 devices, E 30.4 % at 64 and 30.1 % at 65.)"""
    points = [f"--point={p}" for p in ("1:1000", "2:1900", "4:3600", "8:6400")]
    argv = ["--target-throughput", "19405", "--min-efficiency", "0.3022", "--resamples", "50", "--law", "amdahl"]
    rc, out, _ = run(capsys, "fit", *points, *argv)
    needed = [x.split(": ")[1].split(" ")[0] for x in out.splitlines() if x.startswith(("devices for", "largest size"))]
    assert rc == 0 and len(needed) == 2 and needed[0] == needed[1] and int(needed[0]) > 32
    assert out.count("lie beyond 4× the largest measured size (8)") == 1


# ---- faces/cli/validate.py -----------------------------------------------------------------------------------
def test_a_configuration_id_of_exactly_the_width_is_shown_whole():
    """cli/validate.py:163 `len(cfg) <= CFG_WIDTH` → `<`. An id of exactly 60 characters fits the 60-character
    column whole; one of 61 keeps 59 and '…' (60 in all)."""
    from dpscale.faces.cli.validate import _cut

    assert _cut("x" * 60) == "x" * 60
    assert _cut("y" * 61) == "y" * 59 + "…"


def test_skipped_configurations_past_the_first_three_are_counted():
    """cli/validate.py:143 '(+{len(cfgs) - shown})' → '(+{len(cfgs)})', `> shown` → `>=`,
    and the 3 shown → 2. Five configurations without GPUs per node: the first three by name, then '… (+2)' for the
    5 − 3 left; three are all named, with nothing after them."""
    from dpscale.faces.cli.validate import _skip_reasons

    reasons = {f"c{i}": {"missing": "gpus_per_node"} for i in range(1, 6)}
    assert _skip_reasons(reasons, "en") == ["5 of them without GPUs per node: c1, c2, c3, … (+2)"]
    three = {f"c{i}": {"missing": "gpus_per_node"} for i in range(1, 4)}  # all shown: no '… (+0)'
    assert _skip_reasons(three, "en") == ["3 of them without GPUs per node: c1, c2, c3"]


def test_validate_says_how_many_measurements_the_band_holds(capsys):
    """cli/validate.py:104 the band-coverage note dropped. holdout_tfbench.csv checks 17 points: the note gives the
    share of them inside the predicted 80 % band, a whole number of seventeenths."""
    import re

    rc, out, _ = run(capsys, "validate", str(ROOT / "validation" / "holdout_tfbench.csv"))
    assert rc == 0 and "note: 17 points in 6 configurations" in out
    (share,) = re.findall(r"note: ([\d.]+) % of measurements inside the predicted 80 % band", out)
    assert any(abs(float(share) - 100 * k / 17) < 0.05 for k in range(18))


# ---- sources/measure/calibration.py and workloads.py ---------------------------------------------------------
def test_sizes_reach_four_gibibytes_as_the_message_allows():
    """calibration.py:19 MAX_BYTES 4 GiB → 2 GiB. --sizes takes 4 B to 4 GB, binary: '4G' is 4 × 2^30 =
    4,294,967,296 bytes, '3GB' 3,221,225,472; '5G' is refused."""
    from dpscale.sources.measure.calibration import parse_bytes, parse_sizes

    assert parse_bytes("4G") == 4_294_967_296
    assert parse_sizes("1GB..4GB") == (1_073_741_824, 2_147_483_648, 4_294_967_296)
    with pytest.raises(DpscaleError, match="^--sizes: got '5G'"):
        parse_bytes("5G")


def test_a_model_file_must_be_python_source(tmp_path):
    """workloads.py:123 `p.suffix != '.py' or not is_file` → `not is_file` (and :124's reason → 'no such file').
    An existing model.txt that would define a model is refused as not a .py file, before it is imported; a missing
    model.py is 'no such file'."""
    pytest.importorskip("torch")
    from dpscale.sources.measure.workloads import from_file

    f = tmp_path / "model.txt"
    f.write_text("raise SystemExit('imported')\n")
    with pytest.raises(DpscaleError, match=r"^--model-file: got '.*model\.txt' \(not a \.py file\); allowed: "):
        from_file(str(f))
    with pytest.raises(DpscaleError, match=r"^--model-file: got '.*gone\.py' \(no such file\); allowed: "):
        from_file(str(tmp_path / "gone.py"))


def test_find_unused_parameters_must_be_true_or_false(tmp_path):
    """workloads.py:143 the bool check dropped. FIND_UNUSED_PARAMETERS = 1 is refused by name (DDP would read any
    truthy value; the model file is told to say True or False); True is taken."""
    pytest.importorskip("torch")
    from dpscale.sources.measure.workloads import from_file

    body = "def build_model():\n    pass\n\n\ndef make_batch(n, g):\n    pass\n\n\nFIND_UNUSED_PARAMETERS = {}\n"
    (tmp_path / "one.py").write_text(body.format("1"))
    with pytest.raises(DpscaleError, match=r"sets FIND_UNUSED_PARAMETERS = 1; allowed: True or False$"):
        from_file(str(tmp_path / "one.py"))
    (tmp_path / "yes.py").write_text(body.format("True"))
    assert from_file(str(tmp_path / "yes.py")).find_unused is True


def test_the_language_model_predicts_the_next_token():
    """workloads.py:94 targets tokens[:, 1:] → the inputs again. A batch of 3 sequences of 64 tokens: each
    target is the input shifted one to the left (a causal LM predicts token t + 1 from those up to t)."""
    torch = pytest.importorskip("torch")
    from dpscale.sources.measure.workloads import BUILTIN

    x, y = BUILTIN["transformer"].batch(3, torch.Generator().manual_seed(0))
    assert tuple(x.shape) == tuple(y.shape) == (3, 64)
    assert torch.equal(y[:, :-1], x[:, 1:]) and not torch.equal(x, y)


# ---- sources/measure/launcher.py ------------------------------------------------------------------------------
def test_a_rank_killed_by_a_signal_is_the_culprit_before_one_a_collective_told():
    """launcher.py:208 a killed rank's 'told by a collective' False → True. Rank 1 crashed first (t = 1) but only
    because a collective saw its peer gone; rank 0 was killed by SIGKILL at t = 2 for a reason of its own: it is
    named, not the earlier echo."""
    from dpscale.sources.measure.launcher import _culprit

    exits = {0: (2.0, -9), 1: (1.0, 1)}
    errors = {1: (1.0, "Connection closed by peer", True)}
    assert _culprit(errors, exits, [None, None]) == ("rank 0", "was killed by SIGKILL")


# ---- sources/measure/results.py -------------------------------------------------------------------------------
def test_a_new_calibration_file_gets_the_umasks_mode(tmp_path):
    """results.py:130 a new file's 0o666 & ~umask → a fixed 0o644. Under umask 007 a file made by open(path, 'w')
    is rw for user and group, none for others: 0o666 & ~0o007 = 0o660, and the calibration written beside and
    renamed over gets that mode too."""
    import os
    import stat

    from dpscale.sources.measure.results import write_json

    old = os.umask(0o007)
    try:
        write_json(str(tmp_path / "cal.json"), {"busbw_gbs": 1.0})
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "cal.json").st_mode) == 0o660
    assert json.loads((tmp_path / "cal.json").read_text()) == {"busbw_gbs": 1.0}


def test_a_ddp_rank_holds_the_whole_model():
    """results.py:180 params_per_rank's default raw['params'] → None. Plain DDP (no shard reported): each rank
    holds all 10 parameters; an FSDP run that reports its shard of 3 keeps 3. From 2 ranks × 10 samples × 5 steps
    in a median 1.0 s: 100 samples/s."""
    from dpscale.sources.measure import results
    from dpscale.sources.measure.jobs import Job

    raw = dict(devices=2, workload="mlp", sync_s=[1.0], nosync_s=[0.8], comm_s=0.05, params=10, grad_bytes=40,
               backend="gloo", device="cpu", threads=1)  # fmt: skip
    rec = results.summarise(raw, Job(batch=10, steps=5), 1.0)
    assert (rec["params"], rec["params_per_rank"], rec["zero"]) == (10, 10, 0)
    assert rec["throughput"] == pytest.approx(100.0)
    assert results.summarise({**raw, "params_per_rank": 3}, Job(batch=10, steps=5), 1.0)["params_per_rank"] == 3


def test_a_pipeline_of_a_million_stages_writes_its_counts_with_thousands_marks(capsys):
    """Found beside sweep 13: 'Megatron-LM needs m a multiple of p (1000000)' and 'r = 99999900.0 %' where every
    other note writes 1,000,000. r = (p − m + (m − 1)/v)/m = 999,999 at m = 1: 99,999,900.0 %."""
    argv = ["pipeline", "-p", "1000000", "-m", "1", "--schedule", "interleaved", "--chunks", "2"]
    rc, out, _ = run(capsys, *argv)
    assert rc == 0 and "note: interleaved: Megatron-LM needs m a multiple of p (1,000,000)" in out
    assert "m = 1 < p = 1,000,000: the pipeline never fills; r = 99,999,900.0 % of ideal time" in out
    rc, out, _ = run(capsys, *argv, "--lang", "es")
    assert rc == 0 and "m = 1 < p = 1.000.000: el pipeline nunca se llena; r = 99.999.900,0 %" in out
