"""measure's records: one size's record, --out files, the baseline a run takes from them."""

from __future__ import annotations

import json
import math

import pytest

from dpscale.errors import DpscaleError
from dpscale.sources.measure import calibration, results
from dpscale.sources.measure.jobs import Job

# Mutation sweep 13 (of the modules earlier sweeps touched least: measure's launcher, results, calibration and
# workloads; the fit, validate, pipeline and batch commands; formulas batch, pipeline, compute and units; the web
# app): gaps the suite left open, each killing a surviving mutant.


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


def test_the_record_keeps_the_torch_version_the_ranks_report() -> None:
    """The ranks' torch version reaches the record (review IK: it was dropped, so two torch builds' runs in one
    --out could not be told apart); a rank result from before the key existed reads as None, not a guess."""
    from dpscale.sources.measure import results
    from dpscale.sources.measure.jobs import Job

    base = dict(devices=1, workload="mlp", sync_s=[1.0], nosync_s=[0.8], comm_s=0.05, params=10, grad_bytes=40,
                backend="gloo", device="cpu", threads=1)  # fmt: skip
    assert results.summarise({**base, "torch": "2.13.0+cpu"}, Job(batch=10, steps=5), 1.0)["torch"] == "2.13.0+cpu"
    assert results.summarise(base, Job(batch=10, steps=5), 1.0)["torch"] is None


# Cases a fifth mutation sweep (sources.measure's pure logic, predict_validate, fit_validate, predict_inputs, the
# plan and web faces, notes) found no test could fail on. Each expected value is derived in its docstring or comment,
# from the docs or the arithmetic, not read back from the code. None of these starts torch or a process.


def raw(d: int, sync: list[float], nosync: list[float] | None, **kw) -> dict:
    """A rank 0 result as train.run_train returns it (batch and steps come from the Job)."""
    return dict(devices=d, workload="mlp", sync_s=sync, nosync_s=nosync, comm_s=0.05, params=10, grad_bytes=40,
                backend="gloo", device="cpu", threads=1, **kw)  # fmt: skip


def record(d: int, throughput: float, **kw) -> dict:
    """A train record as --out holds it (the set-up keys results.SETUP_KEYS compares)."""
    setup = dict(workload="mlp", params=10, batch=10, backend="gloo", device="cpu", steps=5, threads=1, zero=0)
    return {"devices": d, "throughput": throughput, **setup, **kw}


def write_jsonl(path, *recs) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return str(path)


# ---------------------------------------------------------------- measure.results: the record of one size


def test_compute_is_the_median_no_sync_time():
    """nosync 0.5, 0.9, 0.6 s over 5 steps: median 0.6 → 0.12 s a step (the minimum gave 0.10)."""
    rec = results.summarise(raw(1, [1.0, 1.0, 1.0], [0.5, 0.9, 0.6]), Job(batch=10, steps=5, repeats=3), 1.0)
    assert rec["compute_s"] == pytest.approx(0.12)


def test_exposed_communication_is_never_negative():
    """docs/measure.md: comm_exposed_s = max(0, step − compute): a no_sync phase slower than the synchronised one
    (noise) exposes 0 s, a 0 % share, and overlap 1."""
    rec = results.summarise(raw(2, [1.0], [1.2]), Job(batch=10, steps=5, repeats=1), 1.0)
    assert rec["comm_exposed_s"] == 0.0 and rec["exposed_comm_share"] == 0.0 and rec["overlap"] == 1.0


def test_the_spread_is_over_the_median_and_the_per_device_rate_is_a_over_d():
    """Two ranks, batch 10, 5 steps, repeats of 0.8, 1.0 and 1.25 s: 125, 100 and 80 samples/s, median 100; spread =
    (125 − 80) / 100 = 0.45 (docs: '(max − min) / median'); per_device_throughput = A/d = 50."""
    rec = results.summarise(raw(2, [0.8, 1.0, 1.25], [0.5] * 3), Job(batch=10, steps=5, repeats=3), 1.0)
    assert rec["throughput"] == pytest.approx(100.0)
    assert rec["throughput_spread"] == pytest.approx(0.45) and rec["per_device_throughput"] == pytest.approx(50.0)


def test_one_rank_has_no_overlap_figure():
    """At d = 1 nothing is communicated, so no share of it is hidden: overlap is null (there is a comm_s still)."""
    rec = results.summarise(raw(1, [1.0], [0.9]), Job(batch=10, steps=5, repeats=1), 1.0)
    assert rec["comm_s"] == 0.05 and rec["overlap"] is None


def test_a_shard_s_parameters_are_the_rank_s_own():
    """FSDP ranks hold a shard: params_per_rank is what the rank reports (5 of 10), not the whole model."""
    rec = results.summarise(raw(2, [1.0], None, params_per_rank=5, zero=3), Job(batch=10, steps=5, repeats=1), 1.0)
    assert (rec["params"], rec["params_per_rank"]) == (10, 5)


# ---------------------------------------------------------------- measure.results: --out and the baseline


def test_the_file_s_smallest_size_is_the_baseline_before_this_run_s_first(tmp_path):
    """results.finish: E is against the smallest size of the set-up already in --out, else this run's first. The file
    holds d = 1 at 50 samples/s; this run's first was d = 2 at 80; d = 4 at 100 samples/s → E = 100 / (4 · 50) = 0.5
    (against d = 2 it read 100 / (2 · 80) = 0.625), S = 4 · 0.5 = 2."""
    out = write_jsonl(tmp_path / "r.jsonl", record(1, 50.0))
    earlier = results.with_efficiency(record(2, 80.0, efficiency=0.8, throughputs=[80.0]), record(1, 50.0))
    job = Job(batch=10, steps=5, repeats=1)
    rec, why = results.finish(job, raw(4, [2.0], [1.5]), 1.0, out, earlier=earlier)  # 4 · 10 · 5 / 2 s = 100
    assert rec["baseline_devices"] == 1 and rec["efficiency"] == pytest.approx(0.5) and why is None
    assert rec["speedup"] == pytest.approx(2.0)


def test_no_set_up_difference_is_said_when_this_run_s_first_size_is_the_baseline(tmp_path):
    """The note 'no earlier record has this set-up (threads 2 → 1)' is for an E against this size itself; with this
    run's first size as the baseline there is nothing to say, whatever other set-ups the file holds."""
    out = write_jsonl(tmp_path / "r.jsonl", record(1, 50.0, threads=2))
    first = results.with_efficiency(record(1, 40.0, throughputs=[40.0]), None)
    rec, why = results.finish(Job(batch=10, steps=5, repeats=1), raw(2, [1.25], [1.0]), 1.0, out, earlier=first)
    assert why is None and rec["baseline_devices"] == 1 and rec["efficiency"] == pytest.approx(1.0)  # 80 / (2 · 40)


def test_no_difference_is_said_when_one_record_has_the_set_up(tmp_path):
    """differing(): None as soon as any record of the workload matches; only when none does is the first one's
    difference named."""
    out = write_jsonl(tmp_path / "r.jsonl", record(1, 50.0, threads=2), record(1, 40.0))
    assert results.differing(out, record(2, 80.0)) is None
    assert results.differing(write_jsonl(tmp_path / "b.jsonl", record(1, 50.0, threads=2)), record(2, 80.0)) == (
        "threads 2 → 1"
    )


def test_a_size_already_in_the_file_is_its_own_baseline(tmp_path):
    """A re-run of 2 devices into a file holding only 2 devices (a torchrun job per size): the file's record is the
    smallest of the set-up, so E = 90 / 100 = 0.9 against it, not 1 against itself."""
    out = write_jsonl(tmp_path / "r.jsonl", record(2, 100.0, throughputs=[100.0]))
    base = results.baseline_from_file(out, record(2, 90.0))
    assert base is not None and base["throughput"] == 100.0
    assert results.with_efficiency(record(2, 90.0), base)["efficiency"] == pytest.approx(0.9)


def test_a_smaller_size_after_larger_ones_is_a_second_baseline_and_names_them(tmp_path):
    """d = 1 measured into a file holding 2 and 8 devices of its set-up (and 4 of another): E = 1 against itself, the
    file's earlier E stays against 2 (appended, never rewritten), so larger_before names 2 and 8 — not 4, and nothing
    for a size that found its baseline in the file."""
    out = write_jsonl(tmp_path / "r.jsonl", record(2, 100.0), record("8", 360.0), record(4, 150.0, threads=2))
    rec, why = results.finish(Job(batch=10, steps=5, repeats=1), raw(1, [1.0], [0.9]), 1.0, out)
    assert rec["baseline_devices"] == 1 and rec["efficiency"] == 1.0 and why is None
    assert results.larger_before(out, rec) == [2, 8]
    later, _ = results.finish(Job(batch=10, steps=5, repeats=1), raw(4, [4.0], [3.6]), 1.0, out)  # 4 · 10 · 5 / 4 s
    assert later["baseline_devices"] == 1 and later["efficiency"] == pytest.approx(0.25)  # 50 / (4 · 50)
    assert results.larger_before(out, later) == []


def test_the_second_baseline_is_said_by_measure_and_by_the_torchrun_worker(worker, tmp_path, capsys):
    from types import SimpleNamespace

    from dpscale.faces.cli.measure import record as measured

    job = Job(batch=10, steps=5, repeats=1)
    out = write_jsonl(tmp_path / "r.jsonl", record(2, 100.0), record(16, 700.0))
    measured(job, SimpleNamespace(result=raw(1, [1.0], [0.9]), launch_s=1.0), [], out, "es")
    assert capsys.readouterr().err == (
        "dpscale measure: nota: --out ya tiene este montaje con 2 y 16 dispositivos, medidos antes que este tamaño "
        "menor: su E allí es relativa a su propio tamaño menor, no a 1 (`dpscale fit` lee sus rendimientos: no le "
        "afecta)\n"
    )
    worker.finish(job, raw(1, [1.0], [0.9]), 1, 1.0, write_jsonl(tmp_path / "w.jsonl", record(2, 100.0)))
    assert capsys.readouterr().err == (
        "dpscale worker: note: --out already holds this set-up at 2 devices, measured before this smaller size: "
        "their E there is relative to their own smallest size, not to 1 (`dpscale fit` reads their throughputs, "
        "unaffected)\n"
    )
    worker.finish(
        job,
        raw(1, [1.0], [0.9]),
        1,
        1.0,
        write_jsonl(tmp_path / "w3.jsonl", *(record(d, 90.0 * d) for d in (2, 8, 16))),
    )
    assert "already holds this set-up at 2, 8 and 16 devices, measured" in capsys.readouterr().err  # (was '2, 8, 16')


def test_d0_measured_again_is_no_second_baseline_and_names_no_larger_size(tmp_path, capsys):
    """2 devices measured again into a file holding 2 (100/s) and 8 (360/s, E = 0.9 against that 2): its E is against
    the earlier 2 (1 · 10 · 5 / 1 s = 100/s: E = 1), and 8's E is still against 2 — the note said '--out already
    holds this set-up at 8 devices, measured before this smaller size: their E there is relative to their own
    smallest size, not to 2', which is that very size."""
    from types import SimpleNamespace

    from dpscale.faces.cli.measure import record as measured

    out = write_jsonl(tmp_path / "r.jsonl", record(2, 100.0), record(8, 360.0))
    rec = measured(Job(batch=10, steps=5, repeats=1), SimpleNamespace(result=raw(2, [1.0], [0.9]), launch_s=1.0), [],
                   out, "en")  # fmt: skip
    assert rec["baseline_devices"] == 2 and rec["efficiency"] == 1.0
    assert results.larger_before(out, rec) == []
    assert "already holds" not in capsys.readouterr().err


def test_a_record_whose_size_is_true_is_no_baseline(tmp_path):
    """JSON true is not a device count (Python reads it as 1): such a record is skipped, as fit skips it."""
    out = write_jsonl(tmp_path / "r.jsonl", record(True, 50.0))
    assert results.baseline_from_file(out, record(2, 80.0)) is None


def test_lines_that_are_json_but_not_objects_are_skipped(tmp_path):
    """A later line '42' or '[1, 2]' (hand-edited) is no record: the baseline comes from the objects around it."""
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(record(1, 50.0)) + "\n42\n[1, 2]\n")
    assert results.baseline_from_file(str(path), record(2, 80.0))["devices"] == 1
    assert results.differing(str(path), record(2, 80.0)) is None


def test_earlier_threads_skip_a_record_without_threads(tmp_path):
    """Only records that say their threads count: a hand-made one without the key is passed over, not a KeyError."""
    rec = record(1, 50.0)
    del rec["threads"]
    out = write_jsonl(tmp_path / "r.jsonl", rec, record(2, 80.0, threads=2))
    assert results.earlier_threads(out, "mlp", 10, 5, "cpu") == {2}


def test_an_allreduce_cut_short_says_partial_and_a_whole_one_does_not():
    """docs/measure.md: a calibration written when the bench is cut short says "partial": true."""
    rows = [calibration.row(1 << 20, 1e-3, 2, 20), calibration.row(1 << 22, 3e-3, 2, 20)]
    part = {"devices": 2, "rows": rows, "backend": "gloo", "device": "cpu", "partial": True}
    cut, _ = results.finish(Job(mode="allreduce", sizes=(1 << 20, 1 << 22, 1 << 24)), part, None, None)
    whole, _ = results.finish(Job(mode="allreduce", sizes=(1 << 20, 1 << 22)), {**part, "partial": False}, None, None)
    assert cut["partial"] is True and "partial" not in whole


def test_records_hold_no_infinity_or_nan(tmp_path):
    """`dpscale fit` reads strict JSON: a repeat timed at 0 s (an infinite rate) or a NaN is written null, in a list
    as at the top."""
    path = tmp_path / "r.jsonl"
    results.append_jsonl(str(path), {"devices": 1, "throughput": math.inf, "throughputs": [math.nan, 50.0, -math.inf]})

    def strict(name):  # noqa: ANN001, ANN202
        raise ValueError(name)

    assert json.loads(path.read_text(), parse_constant=strict) == {"devices": 1, "throughput": None,
                                                                   "throughputs": [None, 50.0, None]}  # fmt: skip


def test_a_one_byte_out_file_must_be_a_record_too(tmp_path):
    """A file holding '7' (one byte, no record) is refused like any other non-record, before any rank starts."""
    path = tmp_path / "r.jsonl"
    path.write_text("7")
    with pytest.raises(DpscaleError, match="its line 1 is not a `dpscale measure` record"):
        results.check_writable(str(path), jsonl=True)


def test_a_calc_document_is_not_a_measure_record(tmp_path):
    """`dpscale calc -d 8 --json` writes devices and actual_throughput, not a size's throughput: appending measure
    records to it would give a file `dpscale fit` refuses."""
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"devices": 8, "efficiency": 0.9, "actual_throughput": 720.0}) + "\n")
    with pytest.raises(DpscaleError, match="its line 1 is not a `dpscale measure` record"):
        results.check_writable(str(path), jsonl=True)


def test_train_and_equivalence_records_do_not_share_a_file(tmp_path):
    """A train record among equivalence ones (or the reverse) made `dpscale fit` refuse the file: each mode appends
    only to its own kind."""
    eq = write_jsonl(tmp_path / "eq.jsonl", {"devices": 2, "passed": True, "checks": []})
    train = write_jsonl(tmp_path / "tr.jsonl", record(1, 50.0))
    with pytest.raises(DpscaleError, match=r"\(it holds equivalence records\); allowed: a new file, or one of train"):
        results.check_writable(eq, jsonl=True, mode="train")
    with pytest.raises(DpscaleError, match=r"\(it holds train records\)"):
        results.check_writable(train, jsonl=True, mode="equivalence")
    results.check_writable(eq, jsonl=True, mode="equivalence")
    results.check_writable(train, jsonl=True, mode="train")


def test_a_torchrun_record_says_its_nodes_and_a_set_up_it_could_not_match(worker, tmp_path, capsys):
    """Two agents of 2 ranks: the record says 2 nodes. Into a file holding only a threads-2 record of the workload, E
    is relative to this size and the worker says why (results.differing: 'threads 2 → 1')."""
    out = write_jsonl(tmp_path / "r.jsonl", record(1, 50.0, threads=2))
    rec = worker.finish(Job(batch=10, steps=5, repeats=1), raw(4, [1.0], [0.8]), 2, 0.5, out)
    assert rec["nodes"] == 2 and rec["efficiency"] == 1.0
    assert "no earlier record in --out has this set-up (threads 2 → 1): E is relative to this size" in (
        capsys.readouterr().err
    )


# Tests from a mutation sweep of session 33's code (131 mutants, 84 killed by the earlier tests, 7 equivalent):
# each asserts an answer a surviving mutant changed, verified against the code and by running both.


# -- measure's records and notes ------------------------------------------------------------------------------


def test_a_records_file_is_checked_line_by_line_as_fit_reads_it():
    from dpscale.sources.measure.results import check_records

    good = json.dumps({"devices": 1, "throughput": 100.0})
    check_records(good + "\n\n" + json.dumps({"devices": 2, "throughput": 190.0}) + "\n", "train", "r")  # blank: fine
    check_records(json.dumps({"passed": True}) + "\n", "equivalence", "r")  # an equivalence record has no devices
    with pytest.raises(DpscaleError, match=r"^r line 1, step_time: got -1"):
        check_records(json.dumps({"devices": 1, "throughput": 100.0, "step_time": -1}) + "\n", "train", "r")


def test_d0_measured_again_is_said_only_for_d0():
    from dpscale.faces.cli.measure import _train_notes

    base = {"repeats": 3, "warmup": 2, "baseline_devices": 1}
    again = [{**base, "devices": 1, "efficiency": 1.25}, {**base, "devices": 2, "efficiency": 0.9}]
    notes = [n for n in _train_notes(again, "en", machine=True) if "was in --out already" in n]
    assert len(notes) == 1 and "(E 1.25)" in notes[0]
    fresh = [{**base, "devices": 1, "efficiency": 1.0}, {**base, "devices": 2, "efficiency": 0.9}]
    assert not [n for n in _train_notes(fresh, "en", machine=True) if "was in --out already" in n]


# Review 46 AI: one source of truth for what two places wrote apart (repeated defaults, constants and words).


def test_the_calibration_tag_measure_writes_is_the_one_fit_and_plan_know(tmp_path, monkeypatch):
    """`measure allreduce --out` tagged its file with calibration.FORMAT, and fit (runs_json) and plan
    --efficiency-file (efficiency_file) told it from runs by a copy of the string, CALIBRATION_FORMAT: renamed in
    one, a calibration handed to fit was read as runs. One constant now (outputs.CALIBRATION_FORMAT since review ML,
    which outputs.output_of, the rule every reader names another command's output by, reads)."""
    import json

    from clihelp import read_runs

    from dpscale import outputs, sources
    from dpscale.errors import DpscaleError
    from dpscale.sources import efficiency_file
    from dpscale.sources.measure import calibration

    rows = [{"bytes": b, "time_s": 1e-5 + b / 1e10, "algbw_gbs": 1.0, "busbw_gbs": 1.0} for b in (1024, 2048)]
    written = calibration.calibration(rows, 2, "gloo")
    assert written["format"] == "dpscale-allreduce-calibration"
    assert calibration.CALIBRATION_FORMAT is outputs.CALIBRATION_FORMAT is efficiency_file.CALIBRATION_FORMAT
    assert outputs.output_of(written) == "calibration"
    assert sources.measure.CALIBRATION_FORMAT == written["format"]
    path = tmp_path / "calib.json"
    path.write_text(json.dumps(written))
    with pytest.raises(DpscaleError, match="an all-reduce calibration"):
        read_runs(str(path))
    with pytest.raises(DpscaleError, match="an all-reduce calibration"):
        efficiency_file.read_efficiencies(str(path))


# A whole-module mutation pass over sources/measure/results.py: each test kills a mutant that survived the suite.


def test_the_first_differing_record_is_the_one_named_of_several(tmp_path):
    """differing() names the file's first record of the workload when none has this set-up (the earlier run's
    baseline, written first), not its last: threads 2 (then batch 20) against this run's threads 1, batch 10."""
    out = write_jsonl(tmp_path / "r.jsonl", record(1, 50.0, threads=2), record(2, 90.0, batch=20))
    assert results.differing(out, record(2, 80.0)) == "threads 2 → 1"


def test_an_empty_file_may_become_a_calibration(tmp_path):
    """check_writable reads an existing --out for allreduce only when it holds bytes: an empty file (`touch`,
    mktemp) overwrites nothing and is taken; one holding a CSV is refused."""
    empty = tmp_path / "cal.json"
    empty.write_text("")
    results.check_writable(str(empty))  # no refusal
    kept = tmp_path / "runs.csv"
    kept.write_text("devices,throughput\n1,100\n")
    with pytest.raises(DpscaleError, match="holds something other than a calibration"):
        results.check_writable(str(kept))


@pytest.mark.parametrize(("throughput", "kept"), [(50.0, True), (49.9, False), (200.0, True), (200.1, False)])
def test_a_record_s_throughput_may_be_half_to_twice_devices_times_batch_over_step(throughput, kept):
    """check_records' bounds, 0.5 to 2 × devices × batch / step_time, both ends kept: 1 × 2 / 0.02 = 100 samples/s,
    so 50 and 200 pass and 49.9 and 200.1 are called edited."""
    rec = '{"devices": 1, "batch": 2, "step_time": 0.02, "workload": "mlp", "steps": 2, "device": "cpu", "throughput": '
    line = f"{rec}{throughput}}}\n"
    if kept:
        results.check_records(line, "train", "--out r.jsonl")
    else:
        with pytest.raises(DpscaleError, match=f"line 1, throughput: got {throughput}; allowed: devices × batch"):
            results.check_records(line, "train", "--out r.jsonl")


def test_a_record_may_say_up_to_1024_threads_a_rank():
    """MAX_THREADS = 1,024 is allowed (the bound is inclusive); 1,025 is refused with the range."""
    rec = '{"devices": 1, "batch": 2, "step_time": 0.02, "throughput": 100, "threads": '
    results.check_records(rec + "1024}\n", "train", "--out r.jsonl")
    with pytest.raises(DpscaleError, match="threads: got 1025; allowed: a whole number of threads a rank, 1 to 1,024"):
        results.check_records(rec + "1025}\n", "train", "--out r.jsonl")


def test_records_below_a_comment_take_more_records_as_fit_reads_them(tmp_path):
    """Review KP: `dpscale fit r.jsonl` reads '# measured on 2 nodes' above measure --out's records (review KJ), and
    two byte-order marks before them; `measure --out r.jsonl` refused to append to that file before any rank started,
    '(its line 1 is not a `dpscale measure` record)'. The comment and the marks are skipped as fit skips them, the
    earlier size is still the baseline, and what is no record below a comment is still refused, on its own line."""
    rec = json.dumps(record(1, 50.0)) + "\n"
    for name, raw in (("c.jsonl", f"# measured on 2 nodes\n\n{rec}".encode()),
                      ("b.jsonl", b"\xef\xbb\xbf\xef\xbb\xbf" + rec.encode())):  # fmt: skip
        (tmp_path / name).write_bytes(raw)
        results.check_writable(str(tmp_path / name), jsonl=True)
        assert results.baseline_from_file(str(tmp_path / name), record(2, 90.0))["devices"] == 1
    (tmp_path / "x.jsonl").write_text('# c\n{"law": "usl"}\n')
    with pytest.raises(DpscaleError, match=r"its line 2 is not a `dpscale measure` record"):
        results.check_writable(str(tmp_path / "x.jsonl"), jsonl=True)
