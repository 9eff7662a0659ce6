"""Review 46 AE: `dpscale measure` for real under interrupts — the local launcher and torchrun.

Found by running measure and torchrun on this machine and stopping them part-way (docs/measure.md's fault table:
an interrupt shows the finished sizes, keeps them in --out and says one line, exit 130).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest
from clihelp import marked_pids, signals_as_a_terminal_gives_them

pytest.importorskip("torch")

TINY = ["--steps", "3", "--warmup", "1", "--repeats", "1", "--batch", "8"]
BIN = Path(sys.executable).parent
PROC = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")

# `dpscale measure` with the spawn of the second size's ranks watched: after its K-th rank is forked, and before that
# rank has read its start-up data from the launcher's pipe, a SIGTERM arrives (a scheduler, `timeout`)
SPAWN_TERM = """
import os, signal, sys
import multiprocessing.util as util

real, after = util.spawnv_passfds, []


def spawn(path, args, passfds):
    pid = real(path, args, passfds)
    out = os.environ["AE_OUT"]
    if "--multiprocessing-fork" in args and os.path.exists(out) and os.path.getsize(out):  # size 1 is written
        after.append(pid)
        if len(after) == int(os.environ["AE_K"]):
            os.kill(os.getpid(), signal.SIGTERM)
    return pid


util.spawnv_passfds = spawn
if __name__ == "__main__":
    sys.argv = ["dpscale", *sys.argv[1:]]
    from dpscale.faces.cli import main

    sys.exit(main())
"""


def no_orphans(marker: str) -> None:
    deadline = time.monotonic() + 20  # (the resource tracker leaves a moment after its parent)
    while marked_pids(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert marked_pids(marker) == []


@pytest.mark.slow
@PROC
@pytest.mark.parametrize("k", [1, 2])
def test_a_sigterm_while_a_size_s_ranks_are_spawned_is_one_line_and_stops_them(tmp_path: Path, k: int) -> None:
    """A SIGTERM in the spawn of size 2 (after its first rank was forked, or its second) was raised inside torch's
    start_processes: the rank then read no start-up data and printed an `EOFError: Ran out of input` traceback under
    'interrupted' (the second case also a FileNotFoundError one from rank 0), and the ranks already started were
    not the launcher's to stop. The signal is now held until the ranks are known, then stops them as any other."""
    out, script = tmp_path / "r.jsonl", tmp_path / "spawn_term.py"
    script.write_text(SPAWN_TERM)
    marker = uuid.uuid4().hex
    env = {**os.environ, "AE_OUT": str(out), "AE_K": str(k), "AE_MARK": marker}
    argv = [sys.executable, str(script), "measure", "--devices", "1,2", *TINY, "--out", str(out), "--json"]
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=180)
    assert (proc.returncode, proc.stderr) == (130, "dpscale measure: interrupted\n")
    assert [p["devices"] for p in json.loads(proc.stdout)["points"]] == [1]
    assert [json.loads(x)["devices"] for x in out.read_text().splitlines()] == [1]  # size 1 stays in --out
    no_orphans(marker)


def test_an_interrupted_worker_says_one_line_on_each_node_s_first_rank(capsys, monkeypatch) -> None:
    """torchrun hands a Ctrl-C to its ranks (SIGINT): each printed a KeyboardInterrupt traceback of ~100 lines. The
    worker says 'interrupted' once a node (its local rank 0) and exits 130, as `dpscale measure` does."""
    import dpscale.sources.measure as measure
    from dpscale.sources.measure import worker

    def interrupted() -> str:
        raise KeyboardInterrupt

    def rank(local: str) -> int | str:
        monkeypatch.setenv("LOCAL_RANK", local)
        try:
            return worker.main(["--batch", "8"])
        except KeyboardInterrupt:  # (let through, it would end the test session: said as this test's failure)
            return "a KeyboardInterrupt traceback"

    monkeypatch.setattr(measure, "require_torch", interrupted)
    assert rank("0") == 130
    assert capsys.readouterr().err == "dpscale worker: interrupted\n"
    assert rank("1") == 130
    assert capsys.readouterr().err == ""  # the node's other ranks say nothing more


@pytest.mark.slow
@PROC
def test_ctrl_c_to_torchrun_leaves_no_traceback_of_the_ranks(tmp_path: Path) -> None:
    """A real torchrun launch of 2 ranks, SIGINT to the agent once its ranks run: the ranks' part of stderr is one
    line, not a KeyboardInterrupt traceback each (torchrun's own SignalException report is torchrun's); an earlier
    record in --out stays whole."""
    out, marker = tmp_path / "r.jsonl", uuid.uuid4().hex
    earlier = {"devices": 1, "throughput": 100.0, "step_time": 0.08, "batch": 8, "threads": 1, "workload": "mlp"}
    out.write_text(json.dumps(earlier) + "\n")
    cmd = [str(BIN / "torchrun"), "--standalone", "--nproc-per-node", "2", "-m", "dpscale.sources.measure.worker",
           "--steps", "100000", "--warmup", "1", "--repeats", "1", "--batch", "8", "--threads", "1",
           "--out", str(out)]  # fmt: skip
    # (pytest as a background job hands its children SIGINT ignored: reset, so the SIGINT below reaches torchrun)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "AE_MARK": marker},
                            preexec_fn=signals_as_a_terminal_gives_them)  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while len(marked_pids(marker)) < 3 and time.monotonic() < deadline:  # the agent and its 2 ranks
            time.sleep(0.2)
        time.sleep(3)  # the ranks are inside the worker's main (importing torch, building DDP or stepping)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode != 0 and stdout == ""
    assert "dpscale worker: interrupted" in stderr
    assert "KeyboardInterrupt" not in stderr and "[rank0]" not in stderr and "[rank1]" not in stderr, stderr[-3000:]
    assert [json.loads(x) for x in out.read_text().splitlines()] == [earlier]
    no_orphans(marker)


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"LOCAL_RANK": "x"}, "environment: LOCAL_RANK: got 'x'; allowed: a whole number ≥ 0, as torchrun sets it"),
        ({"WORLD_SIZE": "two"}, "environment: WORLD_SIZE: got 'two'; allowed: a whole number ≥ 1, as torchrun sets it"),
        ({"WORLD_SIZE": "0"}, "environment: WORLD_SIZE: got '0'; allowed: a whole number ≥ 1, as torchrun sets it"),
        ({"RANK": "x"}, "environment: RANK: got 'x'; allowed: a whole number ≥ 0, as torchrun sets it"),
        ({"RANK": "-1"}, "environment: RANK: got '-1'; allowed: a whole number ≥ 0, as torchrun sets it"),
        (
            {"RANK": "2"},
            "environment: RANK: got 2 with WORLD_SIZE 2; allowed: a rank below the world size, as torchrun sets them",
        ),
    ],
)
def test_a_rendezvous_environment_set_wrong_by_hand_is_one_line(capsys, monkeypatch, env, said) -> None:
    """The worker refused a missing RANK/WORLD_SIZE/LOCAL_RANK in one line, but LOCAL_RANK=x (a launch by hand or a
    scheduler's script) ended in a ValueError traceback, WORLD_SIZE=two in 'size two: rank 0 stopped: ValueError',
    and a RANK that is none of the job's (x, -1, the world size) exited 2 without a word: only rank 0 speaks."""
    import dpscale.sources.measure as measure
    from dpscale.sources.measure import worker

    monkeypatch.setattr(measure, "require_torch", lambda: "stub")
    monkeypatch.setattr(worker, "_check_gpus", lambda device, local_rank: None)  # (reached by a good environment)

    def rendezvous(job: object) -> None:  # (what an environment let through would reach: no process group here)
        raise RuntimeError("rendezvous reached")

    monkeypatch.setitem(sys.modules, "dpscale.sources.measure.rank", SimpleNamespace(torchrun_entry=rendezvous,
                                                                                       one_line=str))  # fmt: skip
    for key, value in {"RANK": "0", "WORLD_SIZE": "2", "LOCAL_RANK": "0", "MASTER_ADDR": "x", "MASTER_PORT": "1",
                       **env}.items():  # fmt: skip
        monkeypatch.setenv(key, value)
    try:
        rc = worker.main(["--device", "cpu"])
    except ValueError as exc:  # (a traceback, said as this test's failure)
        rc = f"ValueError: {exc}"
    assert (rc, capsys.readouterr().err) == (2, f"dpscale worker: error: {said}\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [["--steps", "1e30"], ["--batch", "0"], ["--steps", "2x"], ["--repeats", "nan"], ["--warmup", "1.5"],
     ["--timeout", "0"]],
)  # fmt: skip
def test_torchrun_s_worker_refuses_a_bad_count_in_measure_s_line(argv: list[str]) -> None:
    """docs/measure.md: the worker reads its flags 'as `dpscale measure` reads them (… refusals in its words)'; review
    MF found `--steps 1e30` said 'got 1e+30' (measure: 'got '1e30''), `--batch 0` 'got 0', '2x', 'nan' and '1.5'
    'a whole number such as 50 or 1e3 (see --help)' with no range, and `--timeout 0` without measure's reason. Both
    commands run for real, as a user starts them; the line after the program's name is the same."""
    measure = subprocess.run([str(BIN / "dpscale"), "measure", *argv], capture_output=True, text=True, timeout=120)
    rank = ["-m", "dpscale.sources.measure.worker", *argv]
    worker = subprocess.run(
        [str(BIN / "torchrun"), "--standalone", "--nproc-per-node", "1", *rank],
        capture_output=True,
        text=True,
        timeout=240,
    )
    said = measure.stderr.strip().removeprefix("dpscale measure: ")
    assert measure.returncode == 2 and said.startswith(f"error: {argv[0]}: got '{argv[1]}'; allowed: "), said
    lines = [line for line in worker.stderr.splitlines() if line.startswith("dpscale worker: ")]
    assert lines == [f"dpscale worker: {said}"], worker.stderr[-2000:]
    assert worker.returncode == 1 and "exitcode  : 2" in worker.stderr  # torchrun's own report of its rank's exit 2
