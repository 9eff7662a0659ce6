"""The torchrun worker (measure's rank program): its flags, defaults and one-line errors."""

from __future__ import annotations

import json
import re
import sys
import time
from types import SimpleNamespace

import pytest

import dpscale
from dpscale.errors import DpscaleError
from dpscale.sources.measure import calibration, results
from dpscale.sources.measure.jobs import Job

# Cases a fifth mutation sweep (sources.measure's pure logic, predict_validate, fit_validate, predict_inputs, the
# plan and web faces, notes) found no test could fail on. Each expected value is derived in its docstring or comment,
# from the docs or the arithmetic, not read back from the code. None of these starts torch or a process.


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
    # (review MS's mutants: --timeout's 600 s, as measure's; no all-reduce sizes but allreduce's, as measure's Job)
    assert job_of(worker).timeout == 600.0 and job_of(worker).sizes == job_of(worker, "equivalence").sizes == ()


@pytest.mark.parametrize("argv, said", [
    (["--threads", "1025"], "--threads: got '1025'; allowed: a whole number from 1 to 1,024"),
    (["--timeout", "0.5"], "--timeout: got '0.5'; allowed: seconds from 1 to 1,000,000 (a shorter watchdog trips on a "
                           "healthy step's pauses)"),
])  # fmt: skip
def test_the_worker_holds_threads_and_timeout_to_the_cli_s_bounds(worker, argv, said):
    with pytest.raises(DpscaleError, match=f"^{re.escape(said)}$"):
        job_of(worker, *argv)


def test_the_worker_refuses_a_fractional_count(worker):
    """--steps 2.5 is no whole number (the CLI refuses it alike, in these words); 1e3 is 1000 (1_000, as the CLI now,
    is refused)."""
    with pytest.raises(DpscaleError, match=r"^--steps: got '2\.5'; allowed: a whole number from 1 to 1,000,000,000$"):
        job_of(worker, "--steps", "2.5")
    assert job_of(worker, "--steps", "1e3").steps == 1000


def test_an_allreduce_worker_may_rewrite_its_earlier_calibration(worker, tmp_path):
    """--out of `allreduce` is a calibration file rewritten whole (not JSON lines): an earlier one is accepted."""
    path = tmp_path / "calib.json"
    rows = [calibration.row(1 << 20, 1e-3, 2, 20), calibration.row(1 << 22, 3e-3, 2, 20)]
    results.write_json(str(path), calibration.calibration(rows, 2, "gloo"))
    assert job_of(worker, "allreduce", "--out", str(path)).mode == "allreduce"


@pytest.mark.parametrize("typed", ["1e99", "1e20", "99999999999999"])
def test_a_worker_count_past_any_range_is_said_in_a_few_figures(worker, monkeypatch, capsys, typed):
    """`--steps 1e99` under torchrun was refused as 'got 999999999999999967336168804116691273849533185806…' (the
    float written out in 100 digits); then as 'got 1e+99', where `dpscale measure` says 'got '1e99'' (review MF): as
    typed, as measure says it."""
    import dpscale.sources.measure as measure

    monkeypatch.setattr(measure, "require_torch", lambda: "stub")
    monkeypatch.setenv("RANK", "0")
    assert worker.main(["--steps", typed]) == 2
    assert capsys.readouterr().err.strip() == (
        f"dpscale worker: error: --steps: got '{typed}'; allowed: a whole number from 1 to 1,000,000,000"
    )


def test_only_rank_0_says_the_worker_s_errors(worker, monkeypatch, capsys):
    """Every rank parses the same flags: one line for the job (rank 0's), not one per rank."""
    import dpscale.sources.measure as measure

    monkeypatch.setattr(measure, "require_torch", lambda: "stub")
    monkeypatch.setenv("RANK", "1")
    assert worker.main(["--batch", "0"]) == 2
    assert worker.main(["--steps", "x"]) == 2
    with pytest.raises(SystemExit):
        worker.parser().parse_args(["--zero", "x"])
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("RANK", "0")
    assert worker.main(["--batch", "0"]) == 2
    assert capsys.readouterr().err.strip() == (
        "dpscale worker: error: --batch: got '0'; allowed: a whole number from 1 to 1,000,000,000"
    )


def test_a_failed_equivalence_check_fails_the_worker(worker, monkeypatch, capsys):
    """Rank 0 prints the result and exits 1 when a check did not pass (0 when it did), so torchrun fails the job."""
    import dpscale.sources.measure as measure

    monkeypatch.setattr(measure, "require_torch", lambda: "stub")
    for passed, code in ((False, 1), (True, 0)):
        result = {"devices": 2, "workload": "mlp", "passed": passed, "checks": []}
        ctx = SimpleNamespace(rank=0, nodes=1, local_world=2, ready_at=time.monotonic())
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


def test_a_local_rank_past_the_visible_gpus_is_refused(monkeypatch):
    """cuda:LOCAL_RANK must exist: with one GPU visible, LOCAL_RANK 1 is refused in one line, LOCAL_RANK 0 runs."""
    from dpscale.sources.measure import worker as w

    cuda = SimpleNamespace(is_available=lambda: True, device_count=lambda: 1)
    monkeypatch.setitem(sys.modules, "torch", SimpleNamespace(cuda=cuda))
    w._check_gpus("cuda", 0)
    with pytest.raises(DpscaleError, match="LOCAL_RANK: got 1; allowed: below the 1 visible GPU"):
        w._check_gpus("cuda", 1)


# Review 46 AM: the page's take from predict to plan, and an adversarial pass over reviews 46 AE, AK, AL and AJ.


@pytest.mark.parametrize(
    ("world", "said"),
    [
        ("99999999999999999999", "at most 10,000,000 ranks, as torchrun sets it"),  # torch's store: a TypeError line
        ("1_0", "a whole number ≥ 1, as torchrun sets it"),  # int() read 10: a rendezvous that waited for 10 ranks
        ("١", "a whole number ≥ 1, as torchrun sets it"),  # (int() reads an Arabic-Indic 1)
    ],
)
def test_a_world_size_no_torchrun_writes_is_one_line(capsys, monkeypatch, world, said) -> None:
    """Review 46 AE's check of the rendezvous environment read it with int(): WORLD_SIZE=1e20 written out passed and
    ended in 'size 99999999999999999999: rank 0 stopped: TypeError: __init__(): incompatible constructor arguments'
    (exit 1), and WORLD_SIZE=1_0 was read as 10 and waited for ranks that never come."""
    import sys
    from types import SimpleNamespace

    import dpscale.sources.measure as measure
    from dpscale.sources.measure import worker

    monkeypatch.setattr(measure, "require_torch", lambda: "stub")
    monkeypatch.setattr(worker, "_check_gpus", lambda device, local_rank: None)

    def rendezvous(job: object) -> None:  # (what an environment let through reaches: no process group here)
        raise RuntimeError("rendezvous reached")

    rank = SimpleNamespace(torchrun_entry=rendezvous, one_line=str)
    monkeypatch.setitem(sys.modules, "dpscale.sources.measure.rank", rank)
    env = {"RANK": "0", "WORLD_SIZE": world, "LOCAL_RANK": "0", "MASTER_ADDR": "x", "MASTER_PORT": "1"}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    rc = worker.main(["--device", "cpu"])
    assert (rc, capsys.readouterr().err) == (2, f"dpscale worker: error: environment: WORLD_SIZE: got {world!r}; "
                                                f"allowed: {said}\n")  # fmt: skip
    monkeypatch.setenv("WORLD_SIZE", "10000000")  # the bound itself is a world size
    assert worker.main(["--device", "cpu"]) != 2
    assert "rendezvous reached" in capsys.readouterr().err


# Review HY: MASTER_PORT was checked for presence only. Set by hand to 'abc' the launch ended in 'dpscale worker:
# error: size 1: rank 0 stopped: ValueError: invalid literal for int() with base 10: 'abc'' (exit 1), a fault of the
# environment told as a crash of the run, where RANK, WORLD_SIZE and LOCAL_RANK set alike get exit 2.
@pytest.mark.parametrize("port", ["abc", "", "1_0", "70000", "-5", "65536"])  # (65536: one past the last)
def test_a_master_port_no_torchrun_writes_is_one_line(capsys, monkeypatch, port) -> None:
    import sys
    from types import SimpleNamespace

    import dpscale.sources.measure as measure
    from dpscale.sources.measure import worker

    monkeypatch.setattr(measure, "require_torch", lambda: "stub")
    monkeypatch.setattr(worker, "_check_gpus", lambda device, local_rank: None)

    def rendezvous(job: object) -> None:  # (what an environment let through reaches: no process group here)
        raise RuntimeError("rendezvous reached")

    monkeypatch.setitem(sys.modules, "dpscale.sources.measure.rank", SimpleNamespace(torchrun_entry=rendezvous,
                                                                                     one_line=str))  # fmt: skip
    env = {"RANK": "0", "WORLD_SIZE": "2", "LOCAL_RANK": "0", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": port}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    rc = worker.main(["--device", "cpu"])
    said = f"environment: MASTER_PORT: got {port!r}; allowed: a TCP port from 0 to 65,535, as torchrun sets it"
    assert (rc, capsys.readouterr().err) == (2, f"dpscale worker: error: {said}\n")
    for edge in ("0", "65535", " 29500 "):  # the ends are ports; int() reads the spaces, as torch does
        monkeypatch.setenv("MASTER_PORT", edge)
        assert worker.main(["--device", "cpu"]) != 2
        assert "rendezvous reached" in capsys.readouterr().err


# Review AN (session 46): mutation testing of the session's source changes — a test for each hand-made mutant that
# survived the session's own tests and that a user would see.


@pytest.mark.parametrize("typed", ["1", "1e6"])
def test_the_torchrun_worker_takes_the_timeouts_at_its_bounds(monkeypatch, typed):
    """The worker's --timeout takes seconds 'from 1 to 1,000,000', as its refusal and `dpscale measure` say: both
    ends included (measure takes them; a launch by torchrun with the same flags must too)."""
    from dpscale.sources.measure import worker

    environment = {"RANK": "0", "WORLD_SIZE": "2", "LOCAL_RANK": "0", "MASTER_ADDR": "x", "MASTER_PORT": "1"}
    for key, value in environment.items():
        monkeypatch.setenv(key, value)
    assert worker.job_from(worker.parser().parse_args(["--timeout", typed])).timeout == float(typed)
    with pytest.raises(dpscale.DpscaleError, match=r"^--timeout: got '0\.5'; allowed: seconds from 1 to 1,000,000 \("):
        worker.job_from(worker.parser().parse_args(["--timeout", "0.5"]))


# Review HI: the worker read its numbers as float() reads them: '--steps 1_000', '--repeats ٣' and '--sizes １KB..1MB'
# ran, where `dpscale measure` (errors.python_spelled) refuses them.
@pytest.mark.parametrize(("argv", "said"), [
    (["--steps", "1_000"], "--steps: got '1_000'; allowed: a number in the digits 0-9, without '_' (1000, not 1_000)"),
    (["--repeats", "٣"], "--repeats: got '٣'; allowed: a number in the digits 0-9, without '_' (1000, not 1_000)"),
    (["allreduce", "--sizes", "１KB..1MB"],
     "--sizes: got '１KB..1MB'; allowed: a number in the digits 0-9, without '_' (1000, not 1_000)"),
    (["--timeout", "6_0"], "--timeout: got '6_0'; allowed: a number in the digits 0-9, without '_' (1000, not 1_000)"),
])  # fmt: skip
def test_the_worker_refuses_a_number_in_python_s_spelling(worker, argv, said):
    with pytest.raises(DpscaleError) as exc:
        job_of(worker, *argv)
    assert str(exc.value) == said


# Review HI: the worker "takes the same options as `dpscale measure`" (docs/measure.md), but read its choices with
# argparse's own rules: case-sensitive ('--workload CNN', '--device CPU', 'Allreduce' refused where the CLI takes
# them), --zero as the numbers 0-3 only (the CLI's 'fsdp', 'zero-2' refused), refused in argparse's words ("argument
# --zero: invalid choice: 5 (choose from 0, 1, 2, 3)"), and --timeout as float() reads it ('6_0'; 'invalid float').


def test_the_worker_reads_its_choices_in_any_case_and_zero_by_name_as_the_cli_does(worker):
    job = job_of(worker, "Train", "--workload", "CNN", "--device", "CPU", "--zero", "FSDP")
    assert (job.mode, job.workload, job.device, job.zero) == ("train", "cnn", "cpu", 3)
    assert job_of(worker, "EQUIVALENCE", "--device", "cpu").mode == "equivalence"
    zeros = [job_of(worker, "--zero", z, "--device", "cpu").zero for z in ("ddp", "zero-1", "Zero2", " 3 ")]
    assert zeros == [0, 1, 2, 3]


@pytest.mark.parametrize(("argv", "said"), [
    (["--zero", "5"], "--zero: got '5'; allowed: 0 (ddp), 1 (zero1), 2 (zero2), 3 (zero3, fsdp)"),
    (["--workload", "resnet"], "--workload: got 'resnet'; allowed: mlp, cnn, transformer"),
    (["--device", "tpu"], "--device: got 'tpu'; allowed: auto, cpu, cuda"),
    (["bench"], "mode: got 'bench'; allowed: train, allreduce, equivalence"),
])  # fmt: skip
def test_the_worker_refuses_a_choice_or_a_timeout_in_the_cli_s_words(worker, capsys, argv, said):
    with pytest.raises(SystemExit) as exc:
        worker.parser().parse_args(argv)
    assert exc.value.code == 2 and capsys.readouterr().err == f"dpscale worker: error: {said} (see --help)\n"


# Review HY: two torchrun agents launched with different options (node 0 --batch 32, node 1 --batch 8) ran, and rank
# 0's record said batch 32, global_batch 64 and a throughput of 64 samples a step where the ranks trained on 40: no
# rank compared its options with its peers'. `disagreement` names the first option that differs.
def test_the_ranks_options_are_compared_and_the_first_difference_named():
    from dpscale.sources.measure.jobs import Job
    from dpscale.sources.measure.rank import disagreement

    same = Job(batch=32, steps=10)
    assert disagreement([same, Job(batch=32, steps=10)]) is None
    assert disagreement([same]) is None
    assert disagreement([same, Job(batch=32, steps=10), Job(batch=8, steps=20)]) == (
        "the ranks were started with different options: --batch 32 on rank 0, 8 on rank 2; allowed: the same "
        "options on every node"
    )
    # the sizes as --sizes takes them (review HZ: '--sizes 1,024 on rank 0, 1,024,2,048 on rank 1', each byte count's
    # thousands' commas among the list's, read as one number or four)
    assert disagreement([Job(mode="allreduce", sizes=(1024,)), Job(mode="allreduce", sizes=(1024, 2048))]) == (
        "the ranks were started with different options: --sizes 1KB on rank 0, 1KB,2KB on rank 1; allowed: "
        "the same options on every node"
    )
    odd = disagreement([Job(mode="allreduce", sizes=(4, 1536, 3 * 2**20, 2**32)), Job(mode="allreduce", sizes=(4,))])
    assert "--sizes 4B,1536B,3MB,4GB on rank 0, 4B on rank 1;" in odd  # (each as parse_sizes reads it back)
    assert "mode train on rank 0, equivalence on rank 1" in disagreement([same, Job(mode="equivalence")])
    for alike in (Job(batch=32, steps=10, threads=2), Job(batch=32, steps=10, timeout=30.0),
                  Job(batch=32, steps=10, device="cpu")):  # fmt: skip
        assert disagreement([same, alike]) is None  # a node's own share, patience or spelling of the CPU


# Review IF (mutation pass over 4d9b09f): dropping any of workload, steps, warmup, repeats, iters or zero from
# rank.AGREED, or naming mode as '--mode', left every test passing — the test above tried batch, sizes and mode alone
# (and asked for mode by a substring that '--mode train' also holds). Each option the ranks must share is refused
# by its own flag, in full.
@pytest.mark.parametrize(("option", "ours", "theirs", "said"), [
    ("mode", "train", "allreduce", "mode train on rank 0, allreduce on rank 1"),
    ("workload", "mlp", "cnn", "--workload mlp on rank 0, cnn on rank 1"),
    ("steps", 10, 20, "--steps 10 on rank 0, 20 on rank 1"),
    ("warmup", 3, 5, "--warmup 3 on rank 0, 5 on rank 1"),
    ("repeats", 3, 1, "--repeats 3 on rank 0, 1 on rank 1"),
    ("iters", 20, 50, "--iters 20 on rank 0, 50 on rank 1"),
    ("zero", 0, 2, "--zero 0 on rank 0, 2 on rank 1"),
])  # fmt: skip
def test_every_option_the_ranks_share_is_compared_by_its_own_flag(option, ours, theirs, said):
    from dpscale.sources.measure.jobs import Job
    from dpscale.sources.measure.rank import disagreement

    assert disagreement([Job(**{option: ours}), Job(**{option: theirs})]) == (
        f"the ranks were started with different options: {said}; allowed: the same options on every node"
    )
    assert disagreement([Job(**{option: theirs}), Job(**{option: theirs})]) is None


# Review HY: torchrun agents with 2 and 1 ranks (--nproc-per-node differs by node, which torchrun allows) wrote
# "nodes": 1 — rank 0 divided the world, 3, by its own node's ranks, 2 — and 3 where rank 0 sat on the one-rank
# node. torchrun says the count of agents itself: GROUP_WORLD_SIZE.
@pytest.mark.parametrize(("world", "local", "groups", "nodes"), [
    (3, 2, "2", 2), (3, 1, "2", 2), (16, 8, "2", 2), (16, 8, None, 2), (16, 8, "x", 2), (4, 4, "1", 1),
    (3, 2, None, 1), (4, 1, "9", 4), (4, 1, "0", 4),
    # review IF: a count with gaps round it is still the count; a digit int() refuses ('²' passes isdigit) is none,
    # no ValueError traceback (dropping .strip() or .isascii() left every case above passing)
    (16, 4, " 2 ", 2), (16, 8, "\u00b2", 2), (16, 4, "\u0662", 4),
])  # fmt: skip
def test_the_node_count_is_torchrun_s_agents(monkeypatch, world, local, groups, nodes):
    from dpscale.sources.measure.rank import node_count

    if groups is None:
        monkeypatch.delenv("GROUP_WORLD_SIZE", raising=False)
    else:
        monkeypatch.setenv("GROUP_WORLD_SIZE", groups)
    assert node_count(world, local) == nodes  # (without it, or odd, the even split: world ÷ a node's ranks)


# Review HZ of 4d9b09f: its `except DpscaleError` around torchrun_entry, meant for the ranks' disagreement alone, also
# caught every DpscaleError a run raises, and said it on rank 0 alone: a model file whose second import (the run's
# own, after the worker's check) failed on rank 1 left that rank silent, exit 2 — before it said 'size 2: rank 1
# stopped: DpscaleError: --model-file: … failed to import: …', exit 1 (torchrun 2.13, two local ranks). Only the
# disagreement is bad input said once; any other error is still the rank's own line.
@pytest.mark.parametrize("rank", ["0", "1"])
def test_a_run_s_own_error_on_any_rank_is_still_that_rank_s_line(capsys, monkeypatch, rank) -> None:
    from dpscale.sources.measure import rank as ranks
    from dpscale.sources.measure import worker
    from dpscale.sources.measure.jobs import RanksDisagree

    monkeypatch.setattr(worker, "_check_gpus", lambda device, local_rank: None)
    env = {"RANK": rank, "WORLD_SIZE": "2", "LOCAL_RANK": rank, "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29500"}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    why = "--model-file: m.py failed to import: RuntimeError: rank 1 cannot import twice"

    def failed(job: object) -> None:
        raise DpscaleError(why)

    monkeypatch.setattr(ranks, "torchrun_entry", failed)
    assert worker.main(["--device", "cpu"]) == 1
    assert capsys.readouterr().err == f"dpscale worker: error: size 2: rank {rank} stopped: DpscaleError: {why}\n"

    def disagree(job: object) -> None:
        raise RanksDisagree("the ranks were started with different options: --batch 32 on rank 0, 8 on rank 1")

    monkeypatch.setattr(ranks, "torchrun_entry", disagree)
    assert worker.main(["--device", "cpu"]) == 2  # bad input, on every rank; said by rank 0 alone
    said = "dpscale worker: error: the ranks were started with different options: --batch 32 on rank 0, 8 on rank 1\n"
    assert capsys.readouterr().err == (said if rank == "0" else "")


# Review HZ of 573ad17: with nodes now torchrun's agents, the worker's oversubscription warning still took a node's
# ranks as the world over the nodes: agents of 2 ranks and 1 (rank 0 on the 2-rank node, 2 threads each, 2 cores)
# were warned '1 rank × 2 threads on this node exceed its 2 CPU cores' — 2 does not exceed 2 — where the record's
# flag counts rank 0's node's own 2 ranks (local_world × threads), as the warning must.
def test_the_oversubscription_warning_counts_rank_0_s_node_s_own_ranks_on_ragged_nodes(capsys, monkeypatch) -> None:
    from dpscale.sources.measure import rank as ranks
    from dpscale.sources.measure import worker

    monkeypatch.setattr(worker, "_check_gpus", lambda device, local_rank: None)
    for key, value in {"RANK": "0", "WORLD_SIZE": "3", "LOCAL_RANK": "0", "MASTER_ADDR": "127.0.0.1",
                       "MASTER_PORT": "29500"}.items():  # fmt: skip
        monkeypatch.setenv(key, value)
    raw = {"devices": 3, "sync_s": [0.2], "nosync_s": [0.1], "comm_s": 0.05, "workload": "mlp", "params": 10,
           "grad_bytes": 40, "backend": "gloo", "device": "cpu", "threads": 2, "cores": 2,
           "oversubscribed": True}  # fmt: skip
    ctx = SimpleNamespace(rank=0, world=3, local_world=2, nodes=2, ready_at=time.monotonic())
    monkeypatch.setattr(ranks, "torchrun_entry", lambda job: (ctx, raw))
    assert worker.main(["--device", "cpu", "--threads", "2", "--steps", "1"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["nodes"] == 2
    assert "dpscale worker: warning: 2 ranks × 2 threads on this node exceed its 2 CPU cores" in out.err, out.err


def test_the_docs_say_one_line_for_a_torchrun_refusal_not_one_per_worker(worker, monkeypatch, capsys):
    """docs/measure.md's faults table said of bad input under torchrun, and since 4d9b09f of agents started with
    different options, 'each worker prints the one line and exits 2'; rank 0 alone says it (one line for the job:
    torchrun --nproc-per-node 2 --batch 0 printed it once, both ranks exitcode 2), the other ranks exit in silence.
    Found by review IH reading the day's diff whole."""
    from pathlib import Path

    import dpscale.sources.measure as measure

    monkeypatch.setattr(measure, "require_torch", lambda: "stub")
    lines = []
    for rank in ("0", "1"):
        monkeypatch.setenv("RANK", rank)
        assert worker.main(["--batch", "0"]) == 2
        lines += capsys.readouterr().err.splitlines()
    assert lines == ["dpscale worker: error: --batch: got '0'; allowed: a whole number from 1 to 1,000,000,000"]
    doc = (Path(__file__).resolve().parents[1] / "docs" / "measure.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| under `torchrun`, bad input"))
    said = row.rstrip(" |").rsplit(" | ", 1)[1]
    assert "each worker prints" not in said
    assert said.startswith("global rank 0 prints the one line (one for the job; the other ranks say nothing) and every")


def test_the_torchrun_worker_refuses_an_empty_sizes_as_measure_does(monkeypatch):
    """Review MG: `torchrun … worker allreduce --sizes ''` ran the default sweep 1KB..256MB (jobs.typed_counts read
    '' as not given), where the worker before review MF refused it and `dpscale measure allreduce --sizes ''` refuses
    it (argparse: 'a value'); no --sizes at all still runs the default."""
    from dpscale.sources.measure import worker

    environment = {"RANK": "0", "WORLD_SIZE": "2", "LOCAL_RANK": "0", "MASTER_ADDR": "x", "MASTER_PORT": "1"}
    for key, value in environment.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(dpscale.DpscaleError, match=r"^--sizes: got ''; allowed: bytes with K/M/G suffixes"):
        job_of(worker, "allreduce", "--sizes", "")
    sizes = job_of(worker, "allreduce").sizes
    assert (sizes[0], sizes[-1], len(sizes)) == (1024, 256 * 2**20, 19)  # 1KB..256MB in ×2 steps: 2^10 … 2^28
