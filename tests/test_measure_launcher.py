"""measure's jobs and launcher: progress, the watchdog, faults, the culprit rank, signals while ranks spawn."""

from __future__ import annotations

import os
import pickle
import signal
import time
from types import SimpleNamespace

import pytest

from dpscale.sources.measure.jobs import Job

# Mutation sweep 13 (of the modules earlier sweeps touched least: measure's launcher, results, calibration and
# workloads; the fit, validate, pipeline and batch commands; formulas batch, pipeline, compute and units; the web
# app): gaps the suite left open, each killing a surviving mutant.


# ---- sources/measure/launcher.py ------------------------------------------------------------------------------
def test_a_rank_killed_by_a_signal_is_the_culprit_before_one_a_collective_told():
    """launcher.py:208 a killed rank's 'told by a collective' False → True. Rank 1 crashed first (t = 1) but only
    because a collective saw its peer gone; rank 0 was killed by SIGKILL at t = 2 for a reason of its own: it is
    named, not the earlier echo."""
    from dpscale.sources.measure.launcher import _culprit

    exits = {0: (2.0, -9), 1: (1.0, 1)}
    errors = {1: (1.0, "Connection closed by peer", True)}
    assert _culprit(errors, exits, [None, None]) == ("rank 0", "was killed by SIGKILL")


# Cases a fifth mutation sweep (sources.measure's pure logic, predict_validate, fit_validate, predict_inputs, the
# plan and web faces, notes) found no test could fail on. Each expected value is derived in its docstring or comment,
# from the docs or the arithmetic, not read back from the code. None of these starts torch or a process.


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


def test_a_local_rank_s_collectives_outwait_the_watchdog_s_start_up_allowance():
    """Review KM: `dpscale measure -d 1,2 --timeout 5` with rank 1 stopped (SIGSTOP) while DDP was being built said,
    after 92 s, 'size 2: rank 0 crashed: RuntimeError: … Timed out waiting 65000ms for send operation' — the
    healthy rank named as a crash: its collective gave up at --timeout + 60 s = 65 s, before the watchdog's
    start-up allowance (STARTUP_S, 120 s) could name a hang. Under the launcher a collective now waits past every
    limit the watchdog sets (_limit), by the same 60 s; under torchrun it is the watchdog itself (--timeout)."""
    from dpscale.sources.measure.jobs import Job
    from dpscale.sources.measure.launcher import _limit
    from dpscale.sources.measure.rank import pg_timeout

    for timeout in (1.0, 5.0, 59.0, 60.0, 600.0):
        job = Job(timeout=timeout)
        watchdog = _limit(timeout, [0, 0])  # its longest wait: while a rank is still starting
        assert pg_timeout(job, True).total_seconds() == watchdog + 60
        assert pg_timeout(job, False).total_seconds() == timeout
    assert pg_timeout(Job(timeout=5.0), True).total_seconds() == 180.0  # 120 s + 60 s, not 65 s


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


# Review AN (session 46): mutation testing of the session's source changes — a test for each hand-made mutant that
# survived the session's own tests and that a user would see.


def test_a_sigterm_while_ranks_are_spawned_is_held_then_its_handler_is_back():
    """Inside the spawn a SIGTERM reaches neither the caller's handler nor the ranks half-started: it is held (the
    launcher raises it once the ranks are known), and the caller's own handler is back after — left on the holder,
    a later SIGTERM (a scheduler's, mid-run) would be swallowed and the run never stopped."""
    from dpscale.sources.measure.launcher import _sigint_ignored

    got: list[int] = []

    def mine(signum, frame):
        got.append(signum)

    before = signal.signal(signal.SIGTERM, mine)
    try:
        with _sigint_ignored() as held:
            signal.raise_signal(signal.SIGTERM)
            assert (held, got) == ([signal.SIGTERM], [])
        assert signal.getsignal(signal.SIGTERM) is mine
        signal.raise_signal(signal.SIGTERM)
        assert got == [signal.SIGTERM] and held == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, before)
