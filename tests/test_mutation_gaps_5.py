"""Cases a fifth mutation sweep (sources.measure's pure logic, predict_validate, fit_validate, predict_inputs, the
plan and web faces, notes) found no test could fail on. Each expected value is derived in its docstring or comment,
from the docs or the arithmetic, not read back from the code. None of these starts torch or a process."""

from __future__ import annotations

import json
import math
import os
import pickle
import sys
import time
from types import SimpleNamespace

import pytest
from clihelp import run

from dpscale.errors import DpscaleError
from dpscale.sources.measure import calibration, results
from dpscale.sources.measure.jobs import Job


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


# ---------------------------------------------------------------- measure.calibration


@pytest.mark.parametrize("text, want", [("4", 4), ("1M", 1024**2), ("1m", 1024**2), ("1GiB", 1024**3)])
def test_sizes_are_binary_in_every_spelling_from_four_bytes(text, want):
    """docs/measure.md: 'K/KB/KiB, M/MB/MiB and G/GB/GiB are all binary (1 KB = 1024 B). The allowed range is 4 B to
    4 GB'. 1M and 1GiB are 2^20 and 2^30 bytes (a decimal M read 1,000,000)."""
    assert calibration.parse_bytes(text) == want


@pytest.mark.parametrize("text", ["3", "2B"])
def test_sizes_under_one_float32_element_are_refused(text):
    """Below 4 B no float32 element fits: '3' was rounded down to a 0-byte message instead of refused."""
    with pytest.raises(DpscaleError, match="4 B to 4 GB"):
        calibration.parse_bytes(text)


def test_a_range_whose_ends_meet_is_that_one_size():
    """'1KB..1KB' doubles from 1 KiB to 1 KiB: one size, 1024 B (only B < A is refused)."""
    assert calibration.parse_sizes("1KB..1KB") == (1024,)


def test_two_sizes_determine_alpha_and_beta():
    """Two points on t = α + β·S fix the line: α = 10 µs, β = 1 ns/B (β alone or α alone fits neither)."""
    sizes = [1024.0, 1024.0**2]
    a, b = calibration.fit_alpha_beta(sizes, [1e-5 + 1e-9 * s for s in sizes])
    assert a == pytest.approx(1e-5, rel=1e-9) and b == pytest.approx(1e-9, rel=1e-9)


def test_a_calibration_of_one_rank_has_no_bus_bandwidth():
    """docs/measure.md: busbw_gbs is 'null at n = 1' (2(n−1)/n = 0), the peak likewise; the file is format version 1."""
    rows = [calibration.row(s, 1e-5 + s / 5e9, 1, 20) for s in (1024, 1 << 20)]
    cal = calibration.calibration(rows, 1, "gloo")
    assert cal["busbw_gbs"] is None and cal["busbw_peak_gbs"] is None
    assert (cal["format"], cal["version"]) == ("dpscale-allreduce-calibration", 1)


def test_the_peak_bus_bandwidth_is_the_best_measured_size():
    """At n = 4, busbw = bytes / time · 1.5 / 1e9: 1 MiB in 1 ms is 1.5729 GB/s, 64 MiB in 20 ms 5.0332 GB/s; the
    peak is the larger (docs: 'best measured busbw')."""
    rows = [calibration.row(1 << 20, 1e-3, 4, 20), calibration.row(1 << 26, 2e-2, 4, 20)]
    cal = calibration.calibration(rows, 4, "nccl")
    assert cal["busbw_peak_gbs"] == pytest.approx((1 << 26) / 2e-2 * 1.5 / 1e9)


def test_the_fit_quality_is_the_worst_relative_error():
    """α = 10 µs, β = 1 ns/B: the line gives 11 µs at 1 kB (measured 12: 1/12 off), 1.01 ms at 1 MB (exact) and
    10.01 ms at 10 MB (measured 10: 0.1 % off); the worst is 1/12."""
    cal = {"alpha_s": 1e-5, "beta_s_per_byte": 1e-9,
           "points": [{"bytes": 1e3, "time_s": 1.2e-5}, {"bytes": 1e6, "time_s": 1.01e-3},
                      {"bytes": 1e7, "time_s": 1e-2}]}  # fmt: skip
    assert calibration.fit_quality(cal) == pytest.approx(1 / 12)


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


# ---------------------------------------------------------------- measure.jobs and launcher (no process started)


def test_the_progress_total_counts_every_beat_a_rank_makes():
    """rank.setup, rank.dispatch and 'model ready' beat 3 times (START_BEATS); each training step beats twice. DDP:
    --warmup 10 synchronised steps, min(10, 2) = 2 no_sync warm-up steps, then 3 repeats of 50 no_sync and 50
    synchronised steps, then the standalone all-reduce's warm-up and its min(steps, 10) timed ones, a beat before
    the replica check and one last: 3 + 2·(10 + 2 + 2·3·50) + 1 + 10 + 1 + 1 = 640. Sharded (no no_sync phases,
    no standalone all-reduce): 3 + 2·(10 + 3·50) + 2 = 325. All-reduce: 3 + one a size; equivalence: 3 + one a
    dtype (float64, float32)."""
    assert Job(warmup=10, steps=50, repeats=3).beats_total() == 640
    assert Job(warmup=1, steps=50, repeats=3).beats_total() == 3 + 2 * (1 + 1 + 300) + 13
    assert Job(warmup=1, steps=4, repeats=3).beats_total() == 3 + 2 * (1 + 1 + 24) + 3 + 4  # 4 timed all-reduces
    assert Job(warmup=10, steps=50, repeats=3, zero=2).beats_total() == 325
    assert Job(mode="allreduce", sizes=(1024, 2048, 4096)).beats_total() == 6
    assert Job(mode="equivalence").beats_total() == 5


def test_an_injected_fault_targets_its_rank_and_world_size():
    """DPSCALE_MEASURE_FAULT 'crash:RANK[:WORLD]': 'crash:1:2' hits rank 1 at d = 2 only; 'hang:0' rank 0 at any d."""
    at_two = Job(fault="crash:1:2")
    assert (at_two.fault_for(1, 2), at_two.fault_for(1, 4), at_two.fault_for(0, 2)) == ("crash", None, None)
    assert Job(fault="hang:0").fault_for(0, 8) == "hang"


def test_the_start_up_allowance_holds_only_while_a_rank_is_starting():
    """launcher._limit: --timeout once every rank has made its START_BEATS (3) start-up beats, else at least
    STARTUP_S (120 s) — and a --timeout above that stays the limit."""
    from dpscale.sources.measure.launcher import _limit

    assert _limit(10.0, [3, 3]) == 10.0  # every rank started
    assert _limit(10.0, [5, 1]) == 120.0  # rank 1 still starting
    assert _limit(600.0, [0, 0]) == 600.0  # a --timeout past the allowance


def test_ddp_s_unused_parameter_error_says_what_the_model_file_sets():
    from dpscale.sources.measure.launcher import UNUSED_HINT, _hint

    said = "RuntimeError: Expected to have finished reduction ... pass the keyword argument find_unused_parameters=True"
    assert _hint(said) == said + UNUSED_HINT and _hint("RuntimeError: boom") == "RuntimeError: boom"


def test_the_culprit_is_the_rank_that_failed_for_its_own_reason():
    """Rank 0's collective failed first (a peer gone: a communication error), rank 1 crashed a second later for its
    own reason: rank 1 is named. A rank that sent its error but has not exited yet counts too, and a rank killed by
    a signal is said by the signal's name."""
    from dpscale.sources.measure.launcher import _culprit

    errors = {0: (1.0, "RuntimeError: Connection closed by peer", True), 1: (2.0, "ValueError: bad batch", False)}
    assert _culprit(errors, {0: (1.5, 1), 1: (2.5, 1)}, [None, None]) == ("rank 1", "crashed: ValueError: bad batch")
    # rank 1 reported, not yet gone; rank 0 exited with no message a second later
    assert _culprit({1: (1.0, "ValueError: bad batch", False)}, {0: (2.0, 1)}, [None, None]) == (
        "rank 1", "crashed: ValueError: bad batch")  # fmt: skip
    assert _culprit({}, {0: (1.0, -9)}, [None]) == ("rank 0", "was killed by SIGKILL")


def test_a_rank_s_error_file_gives_its_traceback_s_last_line(tmp_path):
    """torch.multiprocessing's error file holds the traceback: its last line (the exception) is the one said."""
    from dpscale.sources.measure.launcher import _traceback_tail

    path = tmp_path / "error"
    path.write_bytes(pickle.dumps('Traceback (most recent call last):\n  File "x.py", line 1\nValueError: bad\n'))
    assert _traceback_tail(str(path)) == ": ValueError: bad"


class _Proc:
    """A rank as the watcher sees it: running for `polls` looks at its exit code, then exited with 0."""

    def __init__(self, polls: int, sentinel: int) -> None:
        self.polls, self.pid, self.sentinel = polls, 1, sentinel

    @property
    def exitcode(self) -> int | None:
        self.polls -= 1
        return None if self.polls >= 0 else 0


class _Queue:
    """Messages arriving in batches, one batch per poll of the watcher."""

    def __init__(self, *batches: list) -> None:
        self.batches, self.now = [list(b) for b in batches[1:]], list(batches[0])

    def empty(self) -> bool:
        if self.now:
            return False
        self.now = self.batches.pop(0) if self.batches else []
        return True

    def get(self):  # noqa: ANN202
        return self.now.pop(0)


def _watch(procs: list, queue: _Queue, beats: list[int], progress=None):  # noqa: ANN001, ANN202
    from dpscale.sources.measure.launcher import Launcher

    pc = SimpleNamespace(processes=procs, error_files=[None] * len(procs))
    job = Job("train", "mlp", None, 8, 3, 1, 1, (), 20, 1, "cpu", 60.0)
    return Launcher.__new__(Launcher)._watch(pc, job, len(procs), queue, beats, time.monotonic(), progress)


def test_the_launch_time_runs_to_the_last_rank_s_process_group():
    """launch_s: spawn → every rank has its process group. Rank 1 reports ready one poll (≥ 0.1 s) after rank 0: the
    launch took at least that long (the first rank's time read ~0)."""
    pipes = [os.pipe() for _ in range(2)]
    try:
        procs = [_Proc(4, r) for r, _ in pipes]  # two polls each (the exit check and the wait), twice
        queue = _Queue([("ready", 0, 0.0), ("result", 0, {"devices": 2})], [("ready", 1, 0.0)])
        outcome = _watch(procs, queue, [0, 0])
    finally:
        for fd in (fd for pair in pipes for fd in pair):
            os.close(fd)
    assert outcome.result == {"devices": 2} and outcome.launch_s >= 0.09


@pytest.mark.parametrize("beat", [1, 10_000])
def test_progress_ends_at_its_total_and_never_passes_it(beat):
    """The bar reads beats/total: a size that finishes stands at 100 % (the last beats come after the last poll),
    and beats past the total (a rank's extra steps) still show 100 %, not 10,000/628."""
    r, w = os.pipe()
    calls = []
    try:
        _watch([_Proc(2, r)], _Queue([("result", 0, {"devices": 1})]), [beat], lambda *a: calls.append(a))
    finally:
        os.close(r), os.close(w)
    total = Job("train", "mlp", None, 8, 3, 1, 1, (), 20, 1, "cpu", 60.0).beats_total()
    assert calls[-1] == (total, total) and all(done <= total for done, _ in calls)


def test_a_failed_rank_ends_the_size_after_the_grace_even_if_a_peer_hangs(monkeypatch):
    """Rank 0 exited with code 1; rank 1 hangs in a collective that will never return (here: for 3 s of polls). The
    size fails GRACE_S after the first failure (0.2 s here), naming rank 0 — not when the last rank is gone."""
    from dpscale.sources.measure import launcher

    monkeypatch.setattr(launcher, "GRACE_S", 0.2)
    r, w = os.pipe()
    failed = SimpleNamespace(exitcode=1, pid=1, sentinel=r)
    t0 = time.monotonic()
    try:
        with pytest.raises(launcher.RunFailed, match="size 2: rank 0 exited with code 1"):
            _watch([failed, _Proc(60, r)], _Queue([]), [5, 5])
    finally:
        os.close(r), os.close(w)
    assert time.monotonic() - t0 < 1.5


# ---------------------------------------------------------------- measure.worker (torchrun's rank program), no torch


def job_of(w, *argv: str) -> Job:  # noqa: ANN001
    return w.job_from(w.parser().parse_args(list(argv)))


def test_the_worker_takes_the_documented_defaults(worker):
    """Its --help: per-rank batch 64 (equivalence 16), all-reduce --iters 20 over 1KB..256MB (1 KiB doubling to
    256 MiB: 19 sizes); --warmup 0 is taken (docs: DDP's first iterations are then timed)."""
    assert (job_of(worker).batch, job_of(worker, "equivalence").batch) == (64, 16)
    bench = job_of(worker, "allreduce")
    assert bench.iters == 20 and bench.sizes == tuple(1024 * 2**k for k in range(19))
    assert job_of(worker, "--warmup", "0").warmup == 0


@pytest.mark.parametrize("argv, said", [
    (["--threads", "1025"], "--threads: got 1025; allowed: a whole number from 1 to 1,024"),
    (["--timeout", "0.5"], "--timeout: got 0.5; allowed: seconds from 1 to 1,000,000"),
])  # fmt: skip
def test_the_worker_holds_threads_and_timeout_to_the_cli_s_bounds(worker, argv, said):
    with pytest.raises(DpscaleError, match=said):
        job_of(worker, *argv)


def test_the_worker_refuses_a_fractional_count(worker, capsys):
    """--steps 2.5 is no whole number (the CLI refuses it alike); 1e3 and 1_000 are 1000."""
    with pytest.raises(SystemExit) as exc:
        worker.parser().parse_args(["--steps", "2.5"])
    assert exc.value.code == 2 and "--steps" in capsys.readouterr().err
    assert worker._count("1e3") == worker._count("1_000") == 1000


def test_an_allreduce_worker_may_rewrite_its_earlier_calibration(worker, tmp_path):
    """--out of `allreduce` is a calibration file rewritten whole (not JSON lines): an earlier one is accepted."""
    path = tmp_path / "calib.json"
    rows = [calibration.row(1 << 20, 1e-3, 2, 20), calibration.row(1 << 22, 3e-3, 2, 20)]
    results.write_json(str(path), calibration.calibration(rows, 2, "gloo"))
    assert job_of(worker, "allreduce", "--out", str(path)).mode == "allreduce"


@pytest.mark.parametrize(
    ("typed", "said"), [("1e99", "1e+99"), ("1e20", "1e+20"), ("99999999999999", "99999999999999")]
)
def test_a_worker_count_past_any_range_is_said_in_a_few_figures(worker, monkeypatch, capsys, typed, said):
    """`--steps 1e99` under torchrun was refused as 'got 999999999999999967336168804116691273849533185806…' (the
    float written out in 100 digits)."""
    import dpscale.sources.measure as measure

    monkeypatch.setattr(measure, "require_torch", lambda: "stub")
    monkeypatch.setenv("RANK", "0")
    assert worker.main(["--steps", typed]) == 2
    assert capsys.readouterr().err.strip() == (
        f"dpscale worker: error: --steps: got {said}; allowed: a whole number from 1 to 1,000,000,000"
    )


def test_only_rank_0_says_the_worker_s_errors(worker, monkeypatch, capsys):
    """Every rank parses the same flags: one line for the job (rank 0's), not one per rank."""
    import dpscale.sources.measure as measure

    monkeypatch.setattr(measure, "require_torch", lambda: "stub")
    monkeypatch.setenv("RANK", "1")
    assert worker.main(["--batch", "0"]) == 2
    with pytest.raises(SystemExit):
        worker.parser().parse_args(["--steps", "x"])
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("RANK", "0")
    assert worker.main(["--batch", "0"]) == 2
    assert capsys.readouterr().err.strip() == (
        "dpscale worker: error: --batch: got 0; allowed: a whole number from 1 to 1,000,000,000"
    )


def test_a_failed_equivalence_check_fails_the_worker(worker, monkeypatch, capsys):
    """Rank 0 prints the result and exits 1 when a check did not pass (0 when it did), so torchrun fails the job."""
    import dpscale.sources.measure as measure

    monkeypatch.setattr(measure, "require_torch", lambda: "stub")
    for passed, code in ((False, 1), (True, 0)):
        result = {"devices": 2, "workload": "mlp", "passed": passed, "checks": []}
        ctx = SimpleNamespace(rank=0, nodes=1, ready_at=time.monotonic())
        rank = SimpleNamespace(torchrun_entry=lambda job, r=result, c=ctx: (c, r))
        monkeypatch.setitem(sys.modules, "dpscale.sources.measure.rank", rank)
        assert worker.main(["equivalence"]) == code
        assert json.loads(capsys.readouterr().out)["passed"] is passed


def test_a_torchrun_rank_whose_peer_died_says_one_line(worker, monkeypatch, capsys):
    """A node killed mid-run under torchrun: the survivor's rank ended in ~60 lines of gloo traceback and no dpscale
    line (an outside review, two agents on localhost). One line now, exit 1; torchrun's own report follows."""
    import dpscale.sources.measure as measure
    from dpscale.sources.measure.rank import one_line

    monkeypatch.setattr(measure, "require_torch", lambda: "stub")
    monkeypatch.setenv("RANK", "3")  # the job's rank, not the node's (LOCAL_RANK)
    monkeypatch.setenv("LOCAL_RANK", "1")
    monkeypatch.setenv("WORLD_SIZE", "4")

    def died(job):
        raise RuntimeError("[../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer\nmore")

    rank = SimpleNamespace(torchrun_entry=died, one_line=one_line)
    monkeypatch.setitem(sys.modules, "dpscale.sources.measure.rank", rank)
    assert worker.main([]) == 1
    assert capsys.readouterr().err == (
        "dpscale worker: error: size 4: rank 3 stopped: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc"
        ":534] Connection closed by peer\n"
    )


def test_a_torchrun_record_says_its_nodes_and_a_set_up_it_could_not_match(worker, tmp_path, capsys):
    """Two agents of 2 ranks: the record says 2 nodes. Into a file holding only a threads-2 record of the workload, E
    is relative to this size and the worker says why (results.differing: 'threads 2 → 1')."""
    out = write_jsonl(tmp_path / "r.jsonl", record(1, 50.0, threads=2))
    rec = worker.finish(Job(batch=10, steps=5, repeats=1), raw(4, [1.0], [0.8]), 2, 0.5, out)
    assert rec["nodes"] == 2 and rec["efficiency"] == 1.0
    assert "no earlier record in --out has this set-up (threads 2 → 1): E is relative to this size" in (
        capsys.readouterr().err
    )


def test_a_local_rank_past_the_visible_gpus_is_refused(monkeypatch):
    """cuda:LOCAL_RANK must exist: with one GPU visible, LOCAL_RANK 1 is refused in one line, LOCAL_RANK 0 runs."""
    from dpscale.sources.measure import worker as w

    cuda = SimpleNamespace(is_available=lambda: True, device_count=lambda: 1)
    monkeypatch.setitem(sys.modules, "torch", SimpleNamespace(cuda=cuda))
    w._check_gpus("cuda", 0)
    with pytest.raises(DpscaleError, match="LOCAL_RANK: got 1; allowed: below the 1 visible GPU"):
        w._check_gpus("cuda", 1)


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


# ---------------------------------------------------------------- sources.predict_validate and fit_validate

HEADER = ("cfg,baseline_devices,grad_accum,units_per_sample,system,gpu,gpus_per_node,intra_bw_gbs,inter_bw_gbs,model,"
          "precision,per_device_batch,devices,throughput,unit,params_millions")  # fmt: skip


def table(tmp_path, *rows: str):  # noqa: ANN202
    from dpscale.sources.dataset import read_published

    f = tmp_path / "t.csv"
    f.write_text("\n".join([HEADER, *rows]) + "\n")
    return read_published(f)


@pytest.mark.parametrize("label, framework", [("FP16", "PyTorch + Apex AMP O3"), ("AMP", "apex opt_level O3")])
def test_apex_o3_all_reduces_half_gradients(label, framework):
    """apex O2 and O3 cast the model to fp16, so DDP reduces 2-byte gradients (O1 keeps fp32: 4)."""
    from dpscale.sources.predict_validate import grad_bytes_per_param

    assert grad_bytes_per_param(label, framework) == 2
    assert grad_bytes_per_param(label, framework.replace("O3", "O1")) == 4


def test_a_link_figure_on_any_row_serves_and_two_figures_are_refused(tmp_path):
    """fabric(): 'the baseline's first, else any row's' — blank on the baseline, 150 GB/s on a later row. Two
    figures for one configuration (300 on the baseline, 150 later) were read as the baseline's, the other ignored
    without a word: one configuration is one setup, so they are refused, as two GPU counts a node are."""
    from dpscale.sources.predict_validate import fabric

    (c,) = table(tmp_path, "c,8,1,1,,A100,8,,100,m,AMP,32,8,8000,samples/s,100",
                 "c,8,1,1,,A100,8,150,100,m,AMP,32,16,15000,samples/s,100")  # fmt: skip
    assert fabric(c) == (150.0, 100.0)
    with pytest.raises(DpscaleError, match=r"line 3, column 'intra_bw_gbs': got '150'; allowed: '300', as on line 2"):
        table(tmp_path, "c,8,1,1,,A100,8,300,100,m,AMP,32,8,8000,samples/s,100",
              "c,8,1,1,,A100,8,150,100,m,AMP,32,16,15000,samples/s,100")  # fmt: skip


def test_a_missing_intra_node_figure_is_named(tmp_path):
    """8 GPUs a node, no intra-node figure, a system the catalog lacks: the column it lacks is intra_bw_gbs."""
    from dpscale.sources.predict_validate import missing, validate_predict

    cfgs = table(tmp_path, "c,8,1,1,lab-box,A100,8,,100,m,AMP,32,8,8000,samples/s,100",
                 "c,8,1,1,lab-box,A100,8,,100,m,AMP,32,16,15000,samples/s,100")  # fmt: skip
    assert missing(cfgs[0]) == "intra_bw_gbs"
    assert validate_predict(cfgs)["skip_reasons"]["c"] == {"missing": "intra_bw_gbs", "unknown_system": "lab-box"}


def test_validate_reads_the_mesh_on_four_of_each_dgx1_node_as_predict_does(tmp_path):
    """A DGX-1 table stating 4 GPUs a node runs GPUs 0..3 of each: validate, like `predict --system dgx1-v100
    --gpus-per-node 4`, takes the mesh's 100 GB/s at 4 and 25 GB/s for 2 GPUs (session 36; both took a flat 150)."""
    import dpscale
    from dpscale.sources.predict_validate import predict_config

    (c,) = table(tmp_path, *(f"c,1,1,1,dgx1-v100,v100-16gb,4,,,m,fp32,8,{d},{t},samples/s,1"
                              for d, t in ((1, 4000), (2, 7000), (4, 14000))))  # fmt: skip
    got = [p for _, _, p in predict_config(c)]
    want = dpscale.predict([2, 4], system="dgx1-v100", gpu="v100-16gb", gpus_per_node=4, params=1e6, batch=8,
                           throughput=4000).efficiency_values  # fmt: skip
    assert got == pytest.approx(list(want), abs=1e-12)


def test_fit_mode_averages_the_held_out_repeats(tmp_path):
    """Two runs at the held-out 8 devices, 6,400 and 7,200 samples/s against 1,000 on one: E 0.8 and 0.9, measured
    0.85 (their mean, as the baseline's repeats are averaged)."""
    from dpscale.sources.fit_validate import validate_fit

    rows = [f"c,1,1,1,,A100,8,300,100,m,AMP,32,{d},{t},samples/s,100"
            for d, t in ((1, 1000), (2, 1900), (4, 3600), (8, 6400), (8, 7200))]  # fmt: skip
    assert validate_fit(table(tmp_path, *rows))["rows"][0]["measured"] == pytest.approx(0.85)


# ---------------------------------------------------------------- faces.cli.plan


def fit_file(tmp_path, v: float, band: tuple[float, float] | None = None, d0: int = 1):  # noqa: ANN201
    """What `dpscale fit --json` writes, reduced to what plan reads: E per size against d0, its rate, its band."""
    preds = [{"devices": d0, "efficiency": 1.0}, {"devices": 2 * d0, "efficiency": 0.95}]
    if band:
        preds = [{**preds[0], "efficiency_lo": 1.0, "efficiency_hi": 1.0},
                 {**preds[1], "efficiency_lo": band[0], "efficiency_hi": band[1]}]  # fmt: skip
    f = tmp_path / "fit.json"
    f.write_text(json.dumps({"predictions": preds, "baseline_devices": d0, "per_device_throughput": v,
                             "unit": "samples/s", "confidence": 0.9}))  # fmt: skip
    return str(f)


def test_an_efficiency_file_and_a_fit_are_two_sources_of_e(capsys, tmp_path):
    rc, _, err = run(capsys, "plan", "-n", "1e6", "--fit", str(tmp_path / "runs.csv"), "--efficiency-file",
                     fit_file(tmp_path, 100.0))  # fmt: skip
    assert rc == 2 and "give one source of E, not both" in err


def test_the_file_s_rate_is_taken_to_every_digit(capsys, tmp_path):
    """v = 1234.56789 samples/s from the file: the plan's one-device rate is that, not 1.23e3."""
    rc, out, _ = run(capsys, "plan", "-n", "1e6", "--efficiency-file", fit_file(tmp_path, 1234.56789), "--json")
    assert rc == 0 and json.loads(out)[0]["actual_throughput"] == pytest.approx(1234.56789, rel=1e-12)


def test_a_file_relative_to_one_device_needs_no_d0_note(capsys, tmp_path):
    """E relative to d0 = 1 is E over one device: neither 'the file's E is relative to 1 devices' nor the speedup
    note is said (with -v given, or with v from the file)."""
    for argv in (["-v", "100"], []):
        rc, out, err = run(capsys, "plan", "-n", "1e6", "--efficiency-file", fit_file(tmp_path, 100.0), *argv)
        assert rc == 0 and "relative to 1 device" not in out + err and "speedup = d·E" not in out + err


def test_a_file_s_band_above_one_is_held_at_one(capsys, tmp_path):
    """A plan does not bank on E above 1: the band 0.90–1.05 at 2 devices is said as 0.900–1.000."""
    rc, out, err = run(capsys, "plan", "-n", "1e6", "--efficiency-file", fit_file(tmp_path, 100.0, (0.9, 1.05)))
    assert rc == 0 and "at 2 devices the file's 90 % band of E is 0.900–1.000" in out + err


def amdahl_runs(tmp_path, d0: int):  # noqa: ANN201
    f = tmp_path / f"runs{d0}.csv"
    f.write_text("devices,throughput\n" + "".join(f"{d},{1000 * d / (1 + 0.02 * (d - 1))}\n" for d in
                                                  (d0, 2 * d0, 4 * d0, 8 * d0)))  # fmt: skip
    return str(f)


def test_a_plan_at_the_fit_s_smallest_size_leaves_nothing_out(capsys, tmp_path):
    """-d 8 on runs from 8 devices: 8 is a size the fit covers (≥ d0), so nothing is refused or said left out."""
    rc, out, err = run(capsys, "plan", "-n", "1e8", "--fit", amdahl_runs(tmp_path, 8), "-d", "8")
    assert rc == 0 and "left out" not in out + err


def test_a_fit_from_one_device_needs_no_speedup_note(capsys, tmp_path):
    """S = d·E is over one device when d0 = 1: the 'speedup = d·E with E relative to d0' note is for d0 > 1."""
    rc, out, err = run(capsys, "plan", "-n", "1e8", "--fit", amdahl_runs(tmp_path, 1), "-d", "1,8")
    assert rc == 0 and "speedup = d·E" not in out + err


def test_a_cost_of_seven_tenths_of_a_cent_is_in_cents(capsys):
    """1 device, 1 sample/s, 3,600 samples: 1 device-hour at 0.007 costs 0.007 — at least half a cent, so money in
    cents: 0.01 (_money_kind keeps more digits only under half a cent)."""
    rc, out, _ = run(capsys, "plan", "-n", "3600", "-v", "1", "-d", "1", "-e", "1", "--price-per-device-hour", "0.007")
    assert rc == 0 and out.splitlines()[3].split()[-2] == "0.01"


def test_one_size_has_no_knee_and_a_knee_at_one_device_is_not_called_the_smallest_given(capsys):
    """One size adds no device: nothing to judge. With Amdahl s = 0.9, 1 → 2 devices adds 1/0.95 − 1 = 0.05 of a
    device: the knee is 1 device, which is no size below which a knee could hide."""
    rc, out, err = run(capsys, "plan", "-n", "3600", "-v", "1", "-d", "8", "-e", "0.9")
    assert rc == 0 and "knee" not in out + err
    rc, out, err = run(capsys, "plan", "-n", "3600", "-v", "1", "-d", "1,2,4", "--serial-fraction", "0.9")
    assert rc == 0 and "knee: 1 —" in out + err and "the knee may lie below it" not in out + err


# ---------------------------------------------------------------- faces.web.app


def test_a_switch_left_off_is_left_out():
    """{"sequence_parallel": false} is the box unticked: the same as not sending it."""
    from dpscale.faces.web.app import run_command

    assert run_command("memory", {"sequence_parallel": False}) == run_command("memory", {})


def test_a_spanish_page_refuses_a_dot_grouped_number_in_a_pasted_table():
    """On a Spanish page 2.000 is two thousand written the Spanish way, which fit refuses rather than read as 2 —
    in a pasted table with a header as in points pasted without one."""
    from dpscale.faces.web.app import run_command

    with pytest.raises(DpscaleError, match="2.000"):
        run_command("fit", {"point": "devices,throughput\n1,1000\n2.000,1900"}, "es")
    assert run_command("fit", {"point": "devices,throughput\n1,1000\n2,1900"}, "es")["records"][0]["devices"] == 1


def test_a_header_naming_its_columns_after_a_first_word_is_read_as_a_header():
    """'Nº dispositivos rendimiento' names the devices column: it goes to the CSV reader, whose error names the
    columns it found, not to the run parser as a point 'Nº:dispositivos:rendimiento'."""
    from dpscale.faces.web.app import run_command

    with pytest.raises(DpscaleError, match=r"missing columns devices, throughput \(found nº dispositivos"):
        run_command("fit", {"point": "Nº dispositivos rendimiento\n1 1000\n2 1900"})


@pytest.mark.parametrize("text, runs", [
    ("8;7500;0.25", ["8:7500:0.25"]),  # a spreadsheet row D;X;T (a decimal-comma locale's separator)
    ("1;1000\r8;7500", ["1:1000", "8:7500"]),  # rows ended by a bare carriage return
    ("8,,7500", ["8,,7500"]),  # an empty cell: passed on as typed, for the CLI to name
])  # fmt: skip
def test_pasted_rows_become_runs(text, runs):
    from dpscale.faces.web.app import pasted_runs

    assert pasted_runs(text) == runs


def test_a_table_past_the_page_s_rows_is_refused_after_the_run_too(monkeypatch):
    """fit without --at sweeps no typed flag: its rows, the 4 measured sizes and 2× and 4× the largest (16, 32: its
    --help's default), are counted when the table comes back — 6 rows past a page of 3."""
    from dpscale.faces.web import app

    monkeypatch.setattr(app, "MAX_PAGE_ROWS", 3)
    with pytest.raises(DpscaleError, match="--at: 6 sizes; allowed: at most 3 on the page"):
        app.run_command("fit", {"point": "1:1000 2:1900 4:3600 8:6800"})


def test_cells_align_as_the_terminal_aligns_them():
    """faces.output: text columns left, numbers right; one record's label/value pairs: the label left, the value
    right. A sweep's shared unit is said first under the table, as the terminal prints it."""
    from dpscale.faces.output import Column
    from dpscale.faces.web.app import render

    cols = [Column("devices", "int"), Column("bottleneck", "text"), Column("actual_throughput", "rate", "samples/s")]
    table = render([{"devices": 8, "bottleneck": "compute", "actual_throughput": 720.0}], cols, None, ["x"], "en")
    assert table["table"]["left"] == [False, True, False]
    assert table["notes"] == ["throughputs in samples/s", "x"]
    assert render({"devices": 8}, cols[:1], None, [], "en")["table"]["left"] == [True, False]


def test_the_fit_law_menu_offers_auto():
    """`dpscale fit --law` defaults to auto (the law chosen from the runs): the page's menu offers it first."""
    from dpscale.faces.web.app import options

    assert options()["fit_laws"][0] == "auto"


def test_an_overflow_in_a_command_is_one_line_not_a_server_error(monkeypatch):
    """A product past floating point (an OverflowError) answers 422 with the CLI's one line, as `dpscale` says it."""
    from fastapi.testclient import TestClient

    from dpscale.faces.web import app

    def overflowing(command, options, lang="en"):  # noqa: ANN001, ANN202, ARG001
        raise OverflowError("(34, 'Numerical result out of range')")

    monkeypatch.setattr(app, "run_command", overflowing)
    r = TestClient(app.create_app()).post("/api/calc", json={"options": {}})
    assert r.status_code == 422
    assert r.json()["error"].startswith("dpscale calc: error: a number too large to compute with")


def test_plan_s_efficiency_file_is_not_read_on_the_page():
    """A file path typed into the page would be read on the server: --efficiency-file stays on the command line."""
    from dpscale.faces.web.app import run_command

    with pytest.raises(DpscaleError, match="efficiency_file: got '/etc/passwd'; allowed: the command line"):
        run_command("plan", {"efficiency_file": "/etc/passwd"})


# ---------------------------------------------------------------- notes


def test_a_spanish_decimal_one_stays_plural():
    """'0,1 dispositivos' is a tenth (Spanish decimal comma), not one device: only a whole 1 takes the singular."""
    from dpscale.faces.i18n import SINGULAR, singular

    assert singular("0,1 dispositivos; 1 dispositivos", SINGULAR["es"]) == "0,1 dispositivos; 1 dispositivo"


def test_validate_reads_a_table_on_part_of_each_node_as_predict_does(tmp_path):
    """A DGX A100 table of one GPU a node across 4 nodes, fabric columns blank: its network is one HDR NIC's 25 GB/s
    (node_share), as `predict --system dgx-a100 --gpus-per-node 1` takes it, not the node's 200."""
    import dpscale
    from dpscale.sources.predict_validate import fabric, predict_config

    rows = [
        f"c,1,1,1,dgx-a100,a100-40gb,1,,,m,fp32,8,{d},{t},samples/s,300" for d, t in ((1, 400), (2, 700), (4, 1300))
    ]
    (c,) = table(tmp_path, *rows)
    assert fabric(c) == (300.0, 25.0)  # the NVLink figure stays (one GPU a node never uses it)
    got = [p for _, _, p in predict_config(c)]
    want = dpscale.predict([2, 4], system="dgx-a100", gpu="a100-40gb", gpus_per_node=1, params=3e8, batch=8,
                           throughput=400).efficiency_values  # fmt: skip
    assert got == pytest.approx(list(want), abs=1e-12)


def test_validate_keeps_a_stated_link_of_another_figure_flat(tmp_path):
    """A DGX-1 table on 4 GPUs a node stating 150 GB/s (not the mesh's 100 at 4) describes another node: flat 150 at
    2, as `predict --gpus-per-node 4 --intra-bw 150` takes it (an outside review: mesh_table's stated-link check)."""
    import dpscale
    from dpscale.sources.predict_validate import predict_config

    (c,) = table(tmp_path, *(f"c,1,1,1,dgx1-v100,v100-16gb,4,150,,m,fp32,8,{d},{t},samples/s,300"
                              for d, t in ((1, 400), (2, 700))))  # fmt: skip
    got = [p for _, _, p in predict_config(c)]
    want = dpscale.predict([2], system="dgx1-v100", gpu="v100-16gb", gpus_per_node=4, intra_bw_gbs=150, params=3e8,
                           batch=8, throughput=400).efficiency_values  # fmt: skip
    assert got == pytest.approx(list(want), abs=1e-12)
