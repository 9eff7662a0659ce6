"""dpscale measure without launching ranks: input errors (exit 2), parsing, the α–β fit, E bookkeeping."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dpscale.errors import DpscaleError
from dpscale.faces.cli import main
from dpscale.sources.measure import calibration, results, threads_per_rank
from dpscale.sources.measure.jobs import Job


def err(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    rc = main(argv)
    return rc, capsys.readouterr().err.strip()


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["measure", "--devices", "0"], "--devices: got '0'"),
        (["measure", "--devices", "-1"], "--devices"),
        (["measure", "--batch", "0"], "--batch: got '0'; allowed: a whole number from 1 to 1,000,000,000"),
        (["measure", "--batch", "1e308"], "--batch: got '1e308'; allowed: a whole number from 1"),
        (["measure", "--port", "70000"], "--port: got '70000'; allowed: a whole number from 0 to 65,535"),
        (["measure", "--timeout", "1e308"], "--timeout: got '1e308'; allowed: seconds from 1 to 1,000,000"),
        (["measure", "--timeout", "0.001"], "--timeout: got '0.001'; allowed: seconds from 1 to 1,000,000 (a shorter"),
        (["measure", "--threads", "1e9"], "--threads: got '1e9'; allowed: a whole number from 1 to 1,024"),
        (["measure", "--devices", "100000"], "--devices: got 100000; allowed: at most"),
        (["measure", "--steps", "2.5"], "--steps: got '2.5'"),
        (["measure", "--timeout", "0"], "--timeout: got '0'; allowed: seconds from 1"),
        (["measure", "--sizes", "1KB..1MB"], "--sizes: belongs to `dpscale measure allreduce`"),
        (["measure", "equivalence", "--steps", "3"], "--steps: belongs to `dpscale measure`"),
        (["measure", "allreduce", "--sizes", "1XB..2MB"], "--sizes: got '1XB'"),
        (["measure", "allreduce", "--sizes", "1MB..1KB"], "--sizes: got '1MB..1KB'"),
        (["measure", "allreduce", "--devices", "1,2"], "one world size ≥ 2 for allreduce"),
        (["measure", "allreduce", "--devices", "1"], "--devices: got '1'; allowed: one world size ≥ 2"),  # busbw 0
        (["measure", "--model-file", "nope.py", "--devices", "1"], "--model-file: got 'nope.py' (no such file)"),
        (["measure", "--out", "/no/such/dir/r.jsonl"], "--out: got '/no/such/dir/r.jsonl' (no such folder)"),
        (["measure", "--out", "/"], "--out: got '/' (a folder); allowed: a writable file path"),
        (["measure", "allreduce", "--zero", "3"], "--zero: belongs to `dpscale measure`, not to this mode"),
        # the file's model was measured and the built-in one named without a word
        (["measure", "--model-file", "m.py", "--workload", "cnn"], "--workload: got 'cnn' with --model-file; allowed"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    rc, text = err(capsys, argv)
    assert rc == 2
    assert needle in text
    assert len(text.splitlines()) == 1


def test_a_model_file_that_exits_at_import_is_named(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    """sys.exit(3) in the user's file ended dpscale with code 3 and no word; now it is one line, exit 2."""
    pytest.importorskip("torch")
    f = tmp_path / "bye.py"
    f.write_text("import sys\nsys.exit(3)\n")
    rc, text = err(capsys, ["measure", "--devices", "1", "--model-file", str(f)])
    assert rc == 2 and text.endswith(
        f"--model-file: {f} called sys.exit(3) while imported; allowed: a Python file "
        "defining build_model() and make_batch(batch_size, generator) [and loss_fn]"
    )


def test_port_in_use_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        rc, text = err(capsys, ["measure", "--devices", "1", "--port", str(port)])
    assert rc == 2
    assert text == f"dpscale measure: error: --port: got {port} (in use); allowed: a free TCP port, or 0 to pick one"


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--batch", "0"], "--batch: got '0'; allowed: a whole number from 1 to 1,000,000,000"),  # once the default 64
        (["--batch", "99999999999999"], "--batch: got '99999999999999'; allowed: a whole number from 1"),  # traceback
        (["--steps", "1000000001"], "--steps: got '1000000001'; allowed: a whole number from 1 to 1,000,000,000"),
        # once a C++ timeout stack
        (["--timeout", "0"], "--timeout: got '0'; allowed: seconds from 1 to 1,000,000 (a shorter"),
        (["--threads", "-1"], "--threads: got '-1'; allowed: a whole number from 1 to 1,024"),
        (["allreduce", "--iters", "-5"], "--iters: got '-5'; allowed: a whole number from 1 to"),  # ran 3 quietly
        (["allreduce", "--workload", "cnn"], "--workload: not used by `dpscale measure allreduce`"),  # ignored
        (["allreduce", "--batch", "8"], "--batch: not used by `dpscale measure allreduce`"),
        (["allreduce", "--zero", "2"], "--zero: belongs to `dpscale measure`, not to this mode"),
        # int(inf) raised OverflowError, which argparse let through: a traceback on every rank
        (["--steps", "inf"], "--steps: got 'inf'; allowed: a whole number from 1 to 1,000,000,000"),
        (["--batch", "1e400"], "--batch: got '1e400'; allowed: a whole number"),
        (["--warmup=-inf"], "--warmup: got '-inf'; allowed: a whole number"),
        (["--batch", "nan"], "--batch: got 'nan'; allowed: a whole number"),  # 'invalid _count value'
        (["--model-file", "m.py", "--workload", "cnn"], "--workload: got 'cnn' with --model-file; allowed: one of"),
        # the CLI's rule (an outside review: the worker ran a training job with --sizes 1KB and exited 0)
        (["--sizes", "1KB"], "--sizes: belongs to `dpscale measure allreduce`, not to this mode"),
        (["equivalence", "--steps", "5"], "--steps: belongs to `dpscale measure`, not to this mode"),
        (
            ["--out", "/no/such/dir/r.jsonl"],
            "--out: got '/no/such/dir/r.jsonl' (no such folder)",
        ),  # once lost at the end
        (
            [],
            "environment: RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT not set; allowed: a launch by "
            "torchrun",
        ),
    ],
)
def test_the_torchrun_worker_refuses_bad_input_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], needle: str
) -> None:
    from dpscale.sources.measure import worker

    for key in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"):
        monkeypatch.delenv(key, raising=False)
    if argv:  # the flags are checked first, as torchrun would have set the environment
        for key, value in (("RANK", "0"), ("WORLD_SIZE", "1"), ("LOCAL_RANK", "0"), ("MASTER_ADDR", "x"),
                           ("MASTER_PORT", "1")):  # fmt: skip
            monkeypatch.setenv(key, value)
    try:
        rc = worker.main(argv)
    except SystemExit as exc:  # the parser's own refusals (a count it cannot read) end the process, code 2
        rc = exc.code
    assert rc == 2
    text = capsys.readouterr().err.strip()
    assert text == f"dpscale worker: error: {needle}" or (needle in text and len(text.splitlines()) == 1)


def test_only_the_torchrun_worker_s_rank_0_checks_the_out_file(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """Rank 0 alone writes --out: on a node without its folder (no shared filesystem) another rank refused it, said
    nothing (only rank 0 speaks) and exited 2, and torchrun failed the job without a reason."""
    from dpscale.sources.measure import worker

    argv = ["--out", str(tmp_path / "only" / "on" / "head" / "r.jsonl"), "--device", "cpu"]
    for key, value in (("WORLD_SIZE", "2"), ("LOCAL_RANK", "0"), ("MASTER_ADDR", "x"), ("MASTER_PORT", "1")):
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("RANK", "1")
    assert worker.job_from(worker.parser().parse_args(argv)).mode == "train"
    monkeypatch.setenv("RANK", "0")
    with pytest.raises(DpscaleError, match="no such folder"):
        worker.job_from(worker.parser().parse_args(argv))


def test_a_failed_check_leaves_no_empty_results_file(tmp_path) -> None:
    from dpscale.sources.measure.results import check_writable

    check_writable(str(tmp_path / "new.json"))  # checked, not created: a run that then fails leaves nothing
    assert not (tmp_path / "new.json").exists()


def test_torch_missing_names_the_extra(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` now raises ImportError
    monkeypatch.setitem(sys.modules, "torch.distributed", None)
    rc, text = err(capsys, ["measure", "--devices", "1"])
    assert rc == 2
    assert text == "dpscale measure: error: measure: needs torch; allowed: pip install 'dpscale[measure]'"  # as fit


def test_cli_and_package_do_not_import_torch_or_rich() -> None:
    code = (
        "import sys, dpscale, dpscale.faces.cli, dpscale.faces.cli.measure, dpscale.sources.measure.launcher,"
        " dpscale.sources.measure.worker, dpscale.sources.measure.results;"
        " print(sorted(m for m in ('torch', 'rich') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_warns_when_world_size_exceeds_cores(capsys: pytest.CaptureFixture[str]) -> None:
    from dpscale.faces.cli.measure import check_environment
    from dpscale.sources.measure import cores

    check_environment(Job(device="cpu"), [cores() + 1], None)
    assert (
        f"dpscale measure: warning: world size {cores() + 1} exceeds the {cores()} CPU cores" in capsys.readouterr().err
    )
    check_environment(Job(device="cpu"), [cores() + 1], None, "es")  # was English under --lang es
    assert f"dpscale measure: aviso: el tamaño {cores() + 1} supera los {cores()} núcleos" in capsys.readouterr().err


def test_threads_share_the_cores() -> None:
    from dpscale.sources.measure import cores

    assert threads_per_rank(1) == cores()
    assert threads_per_rank(cores() * 4) == 1
    assert threads_per_rank(2, requested=3) == 3


def test_parse_sizes_binary_units_and_steps() -> None:
    assert calibration.parse_sizes("1KB..8KB") == (1024, 2048, 4096, 8192)
    assert calibration.parse_sizes("1K..1MBx32") == (1024, 32768, 1048576)
    assert calibration.parse_sizes("4MiB,1KB,1kb") == (1024, 4 * 1024**2)
    assert calibration.parse_sizes("6") == (4,)  # whole float32 elements
    with pytest.raises(DpscaleError, match="--sizes: got '5GB'"):
        calibration.parse_sizes("5GB")
    with pytest.raises(DpscaleError, match="--sizes: got '19999"):  # 400 digits: an unnamed overflow once
        calibration.parse_sizes("1" + "9" * 400)


def test_a_byte_count_is_written_as_sizes_reads_it_back() -> None:
    """bytes_text is parse_bytes' inverse (the ranks' --sizes in a refusal): every default size, odd ones and 4 GB."""
    sizes = (*calibration.parse_sizes("1KB..256MB"), 4, 1536, 3 * 2**20, 4 * 2**30)
    assert [calibration.bytes_text(n) for n in (4, 1536, 1024, 3 * 2**20, 4 * 2**30)] == [
        "4B", "1536B", "1KB", "3MB", "4GB"]  # fmt: skip
    assert calibration.parse_sizes(",".join(map(calibration.bytes_text, sizes))) == tuple(sorted(set(sizes)))


def test_rows_report_nccl_tests_bus_bandwidth() -> None:
    # 8 ranks, 1 GB in 10 ms: algbw 100 GB/s, busbw = algbw · 2(n−1)/n = 175 GB/s; one rank moves nothing
    r = calibration.row(10**9, 0.01, 8, 5)
    assert r["algbw_gbs"] == pytest.approx(100) and r["busbw_gbs"] == pytest.approx(175)
    assert calibration.row(10**9, 0.01, 1, 5)["busbw_gbs"] == 0 and isinstance(r["busbw_gbs"], float)


def test_fit_recovers_alpha_beta_exactly() -> None:
    alpha, beta = 50e-6, 1 / 10e9
    sizes = [2.0**k for k in range(10, 29)]
    a, b = calibration.fit_alpha_beta(sizes, [alpha + beta * s for s in sizes])
    assert a == pytest.approx(alpha, rel=1e-9)
    assert b == pytest.approx(beta, rel=1e-9)


def test_fit_never_returns_negative_parameters() -> None:
    sizes, times = [1e3, 1e4, 1e5], [3e-4, 2e-4, 1e-4]  # falling times: no physical line
    a, b = calibration.fit_alpha_beta(sizes, times)
    # the better of the two one-parameter fits: α alone minimises Σ(α/t − 1)² at Σ(1/t)/Σ(1/t²)
    inv = [1 / t for t in times]
    assert b == 0 and a == pytest.approx(sum(inv) / sum(x * x for x in inv), rel=1e-12)


def test_fit_weighs_relative_errors_so_small_messages_set_alpha() -> None:
    """Noisy times (±10 % at 1 KB, ±3 % at 1 GB): least squares on relative error, solved here by numpy on the
    system (1/t, S/t)·(α, β) = 1, keeps α near the small sizes' 20 µs; plain least squares lets the 1 GB point's
    absolute error set it, and α comes out 4.5 times larger (90 µs)."""
    sizes = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]
    times = [(20e-6 + s / 10e9) * (1 + e) for s, e in zip(sizes, [0.1, -0.1, 0.05, -0.05, 0.02, 0.01, -0.03])]
    t = np.array(times)
    want = np.linalg.lstsq(np.c_[1 / t, np.array(sizes) / t], np.ones(len(t)), rcond=None)[0]
    plain = np.linalg.lstsq(np.c_[np.ones(len(t)), sizes], t, rcond=None)[0]
    a, b = calibration.fit_alpha_beta(sizes, times)
    assert (a, b) == pytest.approx(tuple(want), rel=1e-9)
    assert a == pytest.approx(20e-6, rel=0.01) and plain[0] > 4 * a


def test_calibration_file_keys() -> None:
    rows = [calibration.row(s, 1e-5 + s / 5e9, 4, 20) for s in (1024, 1 << 20, 1 << 26)]
    cal = calibration.calibration(rows, 4, "nccl", device="cuda")
    for key in ("alpha_s", "beta_s_per_byte", "busbw_gbs", "backend", "devices", "points"):
        assert key in cal
    assert set(cal["points"][0]) == {"bytes", "time_s", "algbw_gbs", "busbw_gbs"}
    assert cal["busbw_gbs"] == pytest.approx(1.5 * 5.0)  # 2(n−1)/n at n=4 times 5 GB/s algbw
    assert rows[1]["busbw_gbs"] == pytest.approx(1.5 * rows[1]["algbw_gbs"])
    json.dumps(cal)


def raw(d: int, sync: list[float], nosync: list[float]) -> dict:
    return dict(devices=d, workload="mlp", sync_s=sync, nosync_s=nosync, comm_s=0.05, params=10, grad_bytes=40,
                backend="gloo", device="cpu", threads=1)  # fmt: skip


def test_summary_and_efficiency() -> None:
    job = Job(batch=10, steps=5, repeats=3)
    base = results.with_efficiency(results.summarise(raw(1, [1.0, 1.1, 0.9], [0.8] * 3), job, 1.5), None)
    base = results.with_efficiency(base, base)
    assert base["efficiency"] == 1.0 and base["speedup"] == 1.0
    assert base["throughput"] == pytest.approx(50.0)  # 1 × 10 × 5 / 1.0 s (the median)
    assert base["step_s"] == pytest.approx(0.2) and base["compute_s"] == pytest.approx(0.16)
    assert base["exposed_comm_share"] == pytest.approx(0.2)
    two = results.with_efficiency(results.summarise(raw(2, [1.25] * 3, [0.8] * 3), job, 2.0), base)
    assert two["throughput"] == pytest.approx(80.0)
    assert two["efficiency"] == pytest.approx(0.8)
    assert two["speedup"] == pytest.approx(1.6)
    assert two["overlap"] == 0.0  # exposed 0.09 s > standalone comm 0.05 s: nothing hidden


def test_jsonl_append_and_baseline_from_file(tmp_path) -> None:
    job = Job(batch=10, steps=5)
    path = str(tmp_path / "r.jsonl")
    one = results.with_efficiency(results.summarise(raw(1, [1.0], [0.8]), job, 1.0), None)
    results.append_jsonl(path, one)
    two = results.summarise(raw(2, [1.0], [0.8]), job, 1.0)
    assert results.baseline_from_file(path, two)["devices"] == 1
    lines = [json.loads(x) for x in open(path)]
    assert lines[0]["devices"] == 1 and lines[0]["throughput"] == pytest.approx(50.0)


def test_a_record_appended_after_an_unterminated_last_line_keeps_both(tmp_path, capsys) -> None:
    """A file whose last record had no newline (`echo -n`, an editor) took the next record on the same line: both
    were then unreadable, and `dpscale fit` refused the file ('line 1: not valid JSON (Extra data)')."""
    job = Job(batch=10, steps=5)
    f = tmp_path / "r.jsonl"
    one = results.with_efficiency(results.summarise(raw(1, [1.0], [0.8]), job, 1.0), None)
    f.write_text(json.dumps(one))  # no newline at the end
    results.check_writable(str(f), jsonl=True)
    two = results.summarise(raw(2, [1.25], [0.8]), job, 1.0)
    results.append_jsonl(str(f), results.with_efficiency(two, results.baseline_from_file(str(f), two)))
    lines = f.read_text().splitlines()
    assert [json.loads(x)["devices"] for x in lines] == [1, 2]
    assert json.loads(lines[1])["efficiency"] == pytest.approx(0.8)
    assert main(["fit", str(f), "--law", "amdahl", "--json"]) == 0, capsys.readouterr().err
    results.append_jsonl(str(f), one)  # an ordinary file: no blank line between records
    assert f.read_text().count("\n") == 3 and "\n\n" not in f.read_text()


def test_efficiency_against_a_baseline_of_two_ranks() -> None:
    """Sizes 2, 4, 8 with d0 = 2 (multi-node runs start at a node): E(d) = (A(d)/d) / (A(2)/2), S = 2·A(d)/A(2).

    Batch 10, 5 steps, 3 repeats: a repeat of t s gives d·10·5/t samples/s; the median repeat sets everything.
    """
    job = Job(batch=10, steps=5, repeats=3)
    two = results.summarise(raw(2, [0.8, 1.0, 1.25], [0.5] * 3), job, 1.0)  # 125, 100, 80 samples/s
    four = results.summarise(raw(4, [1.25, 1.0, 1.6], [0.5] * 3), job, 1.0)  # 160, 200, 125
    eight = results.summarise(raw(8, [2.0, 2.5, 2.0], [0.5] * 3), job, 1.0)  # 200, 160, 200
    base = results.with_efficiency(two, two)  # as `dpscale measure` does: the first size is its own baseline
    recs = [base] + [results.with_efficiency(r, base) for r in (four, eight)]
    assert [r["throughput"] for r in recs] == pytest.approx([100.0, 160.0, 200.0])
    assert [r["baseline_devices"] for r in recs] == [2, 2, 2]
    # E: 100/2 per device at d0; 160/4 = 40 → 0.8; 200/8 = 25 → 0.5
    assert [r["efficiency"] for r in recs] == pytest.approx([1.0, 0.8, 0.5])
    # S = d·E over one device: 2, 3.2, 4 (not A(d)/A(d0) = 1, 1.6, 2)
    assert [r["speedup"] for r in recs] == pytest.approx([2.0, 3.2, 4.0])
    # the range: d0's repeats against its median (0.8, 1, 1.25); a larger size's slowest repeat against d0's
    # fastest and its fastest against d0's slowest — the baseline's noise is E's too (it was against d0's median
    # alone: 0.625–1 and 0.4–0.5). d=4: (125/4)/(125/2) = 0.5 to (200/4)/(80/2) = 1.25; d=8: 0.32 to 0.625
    assert [r["efficiency_min"] for r in recs] == pytest.approx([0.8, 0.5, 0.32])
    assert [r["efficiency_max"] for r in recs] == pytest.approx([1.25, 1.25, 0.625])
    # step time = median repeat / steps: 1.0/5, 1.25/5, 2.0/5; the record's throughput is d·batch / step time
    assert [r["step_time"] for r in recs] == pytest.approx([0.2, 0.25, 0.4])
    for r in recs:
        assert r["step_time"] == r["step_s"] > 0
        assert r["throughput"] == pytest.approx(r["global_batch"] / r["step_time"])
        assert r["compute_s"] == pytest.approx(0.1) and r["comm_exposed_s"] == pytest.approx(r["step_s"] - 0.1)


def test_a_result_sent_just_before_every_rank_exits_is_not_lost() -> None:
    """The watcher drains the queue, then sees every rank gone; rank 0's result can arrive in between (a
    stalled watcher on a loaded machine). It once failed the size: 'rank 0 finished without a result'."""
    from types import SimpleNamespace

    from dpscale.sources.measure.jobs import Job
    from dpscale.sources.measure.launcher import Launcher

    class LateQueue:  # empty at the first drain; the result is there when looked at again
        def __init__(self) -> None:
            self.calls, self.items = 0, [("result", 0, {"devices": 1})]

        def empty(self) -> bool:
            self.calls += 1
            return self.calls == 1 or not self.items

        def get(self):  # noqa: ANN202
            return self.items.pop()

    pc = SimpleNamespace(processes=[SimpleNamespace(exitcode=0, pid=1, sentinel=None)], error_files=[None])
    job = Job("train", "mlp", None, 8, 3, 1, 1, (), 20, 1, "cpu", 60.0)
    outcome = Launcher.__new__(Launcher)._watch(pc, job, 1, LateQueue(), [0], 0.0, None)
    assert outcome.result == {"devices": 1}


def test_the_watchdog_allows_start_up_time_before_calling_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a loaded machine spawning and importing torch can outlast a short --timeout; that is not a hang
    (CI once reported 'all ranks made no progress for 3 s' there). Once every rank has started, --timeout holds."""
    import os
    import time
    from types import SimpleNamespace

    from dpscale.sources.measure import launcher
    from dpscale.sources.measure.jobs import START_BEATS

    class EmptyQueue:
        def empty(self) -> bool:
            return True

    monkeypatch.setattr(launcher, "STARTUP_S", 0.8)
    pipes = [os.pipe() for _ in range(2)]  # sentinels that never become ready: processes that never exit
    try:
        procs = [SimpleNamespace(exitcode=None, pid=i, sentinel=r) for i, (r, _) in enumerate(pipes)]
        pc = SimpleNamespace(processes=procs, error_files=[None, None])
        job = Job("train", "mlp", None, 8, 3, 1, 1, (), 20, 1, "cpu", 0.1)
        watch = launcher.Launcher.__new__(launcher.Launcher)._watch
        t0 = time.monotonic()
        with pytest.raises(launcher.RunFailed, match=r"all ranks made no progress for 0.8 s while starting"):
            watch(pc, job, 2, EmptyQueue(), [1, 1], 0.0, None)  # still starting: STARTUP_S applies
        assert time.monotonic() - t0 >= 0.8
        with pytest.raises(launcher.RunFailed, match=r"size 2: rank 1 made no progress"):
            watch(pc, job, 2, EmptyQueue(), [START_BEATS + 1, START_BEATS], 0.0, None)  # started: --timeout
    finally:
        for fd in (fd for pair in pipes for fd in pair):
            os.close(fd)


def test_a_baseline_from_the_file_must_match_threads_too(tmp_path) -> None:
    """One rank on 2 threads against two ranks on 1 each gave E(2) = 7.6 across two torchrun jobs."""
    from dpscale.sources.measure.results import baseline_from_file

    setup = {"workload": "mlp", "params": 10, "batch": 8, "backend": "gloo", "device": "cpu", "steps": 5}
    f = tmp_path / "r.jsonl"
    f.write_text(json.dumps({**setup, "devices": 1, "throughput": 100.0, "threads": 2}) + "\n")
    assert baseline_from_file(str(f), {**setup, "devices": 2, "threads": 1}) is None
    assert baseline_from_file(str(f), {**setup, "devices": 2, "threads": 2})["devices"] == 1


def test_a_calibration_does_not_overwrite_other_data(tmp_path) -> None:
    from dpscale.sources.measure.results import check_writable

    runs = tmp_path / "runs.jsonl"
    runs.write_text('{"devices": 1, "throughput": 100}\n')
    with pytest.raises(DpscaleError, match=r"holds something other than a calibration"):
        check_writable(str(runs))  # allreduce's --out: rewritten whole
    cal = tmp_path / "calib.json"
    cal.write_text('{\n "busbw_gbs": 10,\n "alpha_s": 1e-5\n}')
    check_writable(str(cal))  # an earlier calibration may be replaced
    bom = tmp_path / "bom.json"  # as an editor saves it, and as predict --calibration reads it
    bom.write_bytes(b"\xef\xbb\xbf" + cal.read_bytes())
    check_writable(str(bom))  # it was 'something other than a calibration'
    for mark in (b"", b"\xef\xbb\xbf"):  # a results file's bad byte is named at its own line, mark or none
        runs.write_bytes(mark + b'{"devices": 1, "throughput": 100}\n\xff{}\n')
        with pytest.raises(DpscaleError, match=r"line 2 is not UTF-8 text"):
            check_writable(str(runs), jsonl=True)


def test_an_out_too_large_to_be_records_is_refused_without_reading_it(tmp_path, monkeypatch) -> None:
    """check_writable read an existing --out whole: a 3 GB model checkpoint given as --out took 22 s and 6 GB of
    memory to refuse (beyond the memory: a MemoryError traceback). It reads as `dpscale fit` reads the file, with
    files' ceiling, and says so in one line, in Spanish too."""
    from dpscale.faces.i18n import say_error
    from dpscale.files import MAX_INPUT_BYTES
    from dpscale.sources.measure.results import check_writable

    big = tmp_path / "model.ckpt"
    with open(big, "wb") as fh:  # sparse: no disk, no time
        fh.truncate(MAX_INPUT_BYTES + 1)

    def whole(self, *a, **k):  # what the check read the file with
        raise AssertionError(f"{self} read whole")

    monkeypatch.setattr(Path, "read_bytes", whole)
    monkeypatch.setattr(Path, "read_text", whole)
    with pytest.raises(DpscaleError) as got:
        check_writable(str(big), jsonl=True)
    assert str(got.value) == (
        f"--out: got {str(big)!r} (more than 64 MiB: not an input file); allowed: a new file, or one that this "
        "command's records were appended to"
    )
    assert say_error(got.value, "es") == (
        f"--out: se recibió {str(big)!r} (más de 64 MiB: no es un archivo de entrada); se admite: un archivo nuevo, o "
        "uno al que esta orden añadió sus registros"
    )
    with pytest.raises(DpscaleError, match=r"holds something other than a calibration"):
        check_writable(str(big))  # allreduce's --out: not read whole either


def test_a_calibration_killed_mid_write_leaves_the_earlier_one_whole(tmp_path, monkeypatch) -> None:
    """write_json wrote over the file in place: a run stopped half-way through json.dump left half a calibration,
    which `predict --calibration` could no longer read, and the earlier one was gone."""
    import os

    from dpscale.sources.measure import results

    cal = tmp_path / "calib.json"
    results.write_json(str(cal), {"busbw_gbs": 10.0, "alpha_s": 1e-5})
    earlier = cal.read_text()
    real_dump = json.dump

    def dump_then_stop(obj, fh, **kw):
        fh.write('{\n "busbw_gbs": 2')  # half of the new file, then the run is stopped
        raise KeyboardInterrupt

    monkeypatch.setattr(results.json, "dump", dump_then_stop)
    with pytest.raises(KeyboardInterrupt):
        results.write_json(str(cal), {"busbw_gbs": 20.0, "alpha_s": 2e-5})
    assert cal.read_text() == earlier and json.loads(earlier)["busbw_gbs"] == 10.0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["calib.json"]  # no temporary file left behind
    monkeypatch.setattr(results.json, "dump", real_dump)
    link = tmp_path / "latest.json"
    link.symlink_to(cal)  # a link is followed: the file it names is replaced, the link stays
    old = os.umask(0o022)
    try:
        results.write_json(str(link), {"busbw_gbs": 30.0})
    finally:
        os.umask(old)
    assert link.is_symlink() and json.loads(cal.read_text()) == {"busbw_gbs": 30.0}
    assert cal.stat().st_mode & 0o777 == 0o644  # the umask's mode, as open(path, "w") gave (not mkstemp's 0600)


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs Linux's /sys")
def test_an_out_path_where_no_file_can_be_made_is_refused_before_any_rank_starts() -> None:
    """Root's os.access said yes to /sys: the size was measured, then could not be saved (exit 1, not 2)."""
    from dpscale.errors import DpscaleError
    from dpscale.sources.measure.results import check_writable

    why = "Permission denied|No such file or directory|Read-only file system"  # the OS's words for /sys
    with pytest.raises(DpscaleError, match=f"--out: got '/sys/x.jsonl' \\(({why})\\)"):
        check_writable("/sys/x.jsonl", jsonl=True)


def test_sharded_records_keep_apart_from_ddp_ones(tmp_path) -> None:
    """A ZeRO/FSDP run (zero ≥ 1) times no compute-alone phase: its split is None, not 0; E never compares it with
    DDP records, and `dpscale fit` takes one or the other from a file. Records from before the key read as DDP."""
    job = Job(batch=10, steps=5, zero=3)
    rec = results.summarise({**raw(2, [1.0], None), "zero": 3, "comm_s": None}, job, 1.0)
    assert rec["zero"] == 3 and rec["throughput"] == pytest.approx(100.0)
    assert rec["compute_s"] is None and rec["comm_exposed_s"] is None and rec["overlap"] is None
    ddp = results.summarise(raw(1, [1.0], [0.8]), Job(batch=10, steps=5), 1.0)
    assert ddp["zero"] == 0 and not results.same_setup(ddp, rec)
    old = {k: v for k, v in ddp.items() if k != "zero"}  # written before the key existed
    assert results.same_setup(old, ddp) and results.differing(None, rec) is None
    path = tmp_path / "r.jsonl"
    results.append_jsonl(str(path), old)
    assert results.baseline_from_file(str(path), rec) is None  # FSDP at 2 is not compared with DDP at 1
    assert results.differing(str(path), rec) == "zero 0 → 3"
    from clihelp import read_runs

    results.append_jsonl(str(path), {**ddp, "devices": 2})
    assert len(read_runs(str(path))) == 2  # an old record and a new DDP one: one set-up
    results.append_jsonl(str(path), rec)
    with pytest.raises(DpscaleError, match=r"line 3: another set-up than line 1 \(zero 0 → 3\)"):
        read_runs(str(path))
    assert Job(zero=3).beats_total() == 3 + 2 * (10 + 3 * 50) + 2  # no compute-alone phases; a beat at the end
    # a size appended to the file takes the threads of its own stage's earlier records
    results.append_jsonl(str(path), {**rec, "threads": 2})
    assert results.earlier_threads(str(path), "mlp", 10, 5, "cpu", zero=3) == {1, 2}
    assert results.earlier_threads(str(path), "mlp", 10, 5, "cpu") == {1}  # DDP's (the old record's too), not 2


def test_the_torchrun_worker_takes_the_stage(monkeypatch: pytest.MonkeyPatch) -> None:
    from dpscale.sources.measure import worker

    for key, value in (("RANK", "0"), ("WORLD_SIZE", "2"), ("LOCAL_RANK", "0"), ("MASTER_ADDR", "x"),
                       ("MASTER_PORT", "1")):  # fmt: skip
        monkeypatch.setenv(key, value)
    assert worker.job_from(worker.parser().parse_args(["--zero", "3", "--device", "cpu"])).zero == 3
    assert worker.job_from(worker.parser().parse_args(["--device", "cpu"])).zero == 0
    # counts as the CLI takes them (the worker refused --steps 1e3, which `dpscale measure` reads as 1000)
    job = worker.job_from(worker.parser().parse_args(["--steps", "1e3", "--repeats", "1e1", "--device", "cpu"]))
    assert (job.steps, job.repeats, job.warmup) == (1000, 10, 10)


def test_out_must_hold_measure_records_readable_to_the_end(tmp_path) -> None:
    """A fit report or any JSON object once took the records (then `dpscale fit` refused the file); a byte that is
    not UTF-8 past line 1 raised a traceback after a size was measured, losing it."""
    from dpscale.sources.measure.results import check_writable

    record = '{"devices": 1, "throughput": 100.0, "workload": "mlp", "batch": 16}\n'
    for name, text in (("fit.json", '{"law": "usl", "sigma": 0.1}\n'), ("obj.jsonl", '{"a": 1}\n'),
                       ("doc.json", '{"points": [' + record.strip() + "]}\n")):  # fmt: skip
        (tmp_path / name).write_text(text)
        with pytest.raises(DpscaleError, match=r"its line 1 is not a `dpscale measure` record"):
            check_writable(str(tmp_path / name), jsonl=True)
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(record.encode() + b'{"devices": 2, "workload": "mod\xc3')
    with pytest.raises(DpscaleError, match=r"line 2 is not UTF-8 text"):
        check_writable(str(torn), jsonl=True)
    assert results.baseline_from_file(str(torn), {"devices": 2, "workload": "mlp", "batch": 16})["devices"] == 1
    (tmp_path / "ok.jsonl").write_text(record)
    check_writable(str(tmp_path / "ok.jsonl"), jsonl=True)


def test_a_record_s_size_written_as_text_is_read_as_fit_reads_it(tmp_path) -> None:
    """ "devices": "1" crashed the run after it had measured ('<=' between str and int); `dpscale fit` reads it as 1."""
    f = tmp_path / "r.jsonl"
    setup = {"workload": "mlp", "batch": 16, "threads": 1}
    f.write_text(json.dumps({**setup, "devices": "1", "throughput": 90}) + "\n"
                 + json.dumps({**setup, "devices": "many", "throughput": 90}) + "\n")  # fmt: skip
    base = results.baseline_from_file(str(f), {**setup, "devices": 2})
    assert base["devices"] == 1 and base["throughput"] == 90


def test_fit_holds_measure_json_documents_to_one_set_up(tmp_path, capsys) -> None:
    """Two `measure --json` documents of different batches were fitted together; as records they were refused."""
    point = {"workload": "mlp", "batch": 16, "threads": 1, "steps": 20, "throughput": 100.0}
    docs = [{"points": [{**point, "devices": 1}]}, {"points": [{**point, "batch": 32, "devices": 2}]}]
    f = tmp_path / "two_docs.json"
    f.write_text("\n".join(json.dumps(d) for d in docs) + "\n")
    assert main(["fit", str(f)]) == 2
    assert "line 2 points[0]: another set-up than line 1 (batch 16 → 32)" in capsys.readouterr().err


def test_the_baseline_from_the_file_is_its_smallest_earlier_size(tmp_path) -> None:
    f = tmp_path / "r.jsonl"
    setup = {"workload": "mlp", "batch": 16, "threads": 1}
    f.write_text("".join(json.dumps({**setup, "devices": d, "throughput": 90.0 * d}) + "\n" for d in (2, 1)))
    assert results.baseline_from_file(str(f), {**setup, "devices": 4})["devices"] == 1


@pytest.mark.parametrize("lang, said", [
    ("en", "compute per step grew 2.00× from 1 to 2 ranks (160.0 → 320.0 ms, timed without communication)"),
    ("es", "el cómputo por paso creció 2,00× de 1 a 2 procesos (160,0 → 320,0 ms, medido sin comunicación)"),
])  # fmt: skip
def test_compute_that_slows_with_the_ranks_is_said_apart_from_communication(capsys, lang, said) -> None:
    """cnn on 2 cores: compute (no_sync, no all-reduce in it) 119 → 243 ms, sync overhead 1 %, E 0.52 — and no
    word that the loss was the ranks slowing each other, not communication."""
    import argparse

    from dpscale.faces.cli.measure import show_train

    job = Job(batch=10, steps=5)
    one = results.with_efficiency(results.summarise(raw(1, [1.0], [0.8]), job, 1.0), None)
    two = results.with_efficiency(results.summarise(raw(2, [2.0], [1.6]), job, 1.0), one)
    args = argparse.Namespace(json=False, csv=False, lang=lang, plot=None)
    show_train([one, two], args)
    assert said in capsys.readouterr().out
    even = results.with_efficiency(results.summarise(raw(2, [1.1], [0.85]), job, 1.0), one)  # 6 %: within noise
    show_train([one, even], args)
    assert "grew" not in capsys.readouterr().out
    four = results.with_efficiency(results.summarise(raw(4, [2.0], [1.6]), job, 1.0), one)  # the largest size's
    show_train([one, even, four], args)
    assert {"en": "2.00× from 1 to 4 ranks", "es": "2,00× de 1 a 4 procesos"}[lang] in capsys.readouterr().out


def test_the_allreduce_table_says_three_digits_of_a_timed_bandwidth(capsys) -> None:
    """'0.00438581' and 'busbw asymptote 1.42674 GB/s': six digits of a timed loop; the calibration keeps all."""
    import argparse

    from dpscale.faces.cli.measure import show_allreduce

    rows = [calibration.row(s, 3e-4 + s * 7.0e-10, 2, 20) for s in (1024, 1 << 20, 1 << 26)]
    cal = {**calibration.calibration(rows, 2, "gloo", device="cpu"), "rows": rows}  # as the command hands it over
    show_allreduce(cal, argparse.Namespace(json=False, csv=False, lang="en", plot=None, out=None))
    out = capsys.readouterr().out
    assert f"{rows[0]['algbw_gbs']:.3g}" in out and f"{rows[0]['algbw_gbs']:.6g}" not in out
    assert f"{cal['busbw_gbs']:.3g} GB/s" in out and repr(cal["busbw_gbs"])[:8] not in out


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_allreduce_asymptote_no_measured_size_reached_half_of_is_said_to_be_the_line_s(capsys, lang) -> None:
    """Review MF: `measure allreduce --devices 4 --sizes 1MB..4MB` said 'busbw asymptote 3.39 GB/s' where the best
    measured was 0.657 GB/s, with nothing to say the figure was the line's. A line's busbw reaches half its asymptote at
    n½ = α/β (physics.md §1.4); a best measured under half says no size reached n½, and the note says so."""
    import argparse

    from dpscale.faces.cli.measure import show_allreduce

    rows = [calibration.row(s, t, 4, 20) for s, t in ((1 << 20, 8.30e-3), (2 << 20, 8.50e-3), (4 << 20, 9.58e-3))]
    cal = {**calibration.calibration(rows, 4, "gloo", device="cpu"), "rows": rows}
    show_allreduce(cal, argparse.Namespace(json=False, csv=False, lang=lang, plot=None, out=None))
    # 1.5 × 4 MiB / 9.58 ms = 0.657 GB/s measured; the fit's β = 4.167e-10 s/B → 1.5 / β = 3.6 GB/s
    assert round(cal["busbw_gbs"], 2) == 3.6 and round(rows[-1]["busbw_gbs"], 3) == 0.657
    assert {
        "en": "note: the busbw asymptote 3.6 GB/s is the line's extrapolation: the best measured, 0.657 GB/s at 4MB, "
        "is under half of it, so no size was large enough to set it; measure larger sizes (predict --calibration "
        "reads the measured points, not the asymptote)",
        "es": "nota: la asíntota de busbw 3,6 GB/s es una extrapolación de la recta: el mejor valor medido, 0,657 GB/s "
        "con 4MB, no llega a la mitad, así que ningún tamaño fue lo bastante grande para fijarla; mida tamaños "
        "mayores (predict --calibration lee los puntos medidos, no la asíntota)",
    }[lang] in capsys.readouterr().out.splitlines()


@pytest.mark.parametrize(("half_size", "said"), [(3 << 20, False), (6 << 20, True)])
def test_the_asymptote_is_the_line_s_once_the_largest_size_is_below_n_half(half_size, said) -> None:
    """The bound is the line's own half-bandwidth size n½ = α/β: sizes up to 4 MiB on a line with n½ = 3 MiB reach
    4/7 of its asymptote (no note), with n½ = 6 MiB only 4/10 (the note)."""
    alpha = 1e-3
    rows = [calibration.row(s, alpha + s * alpha / half_size, 2, 20) for s in (1 << 20, 2 << 20, 4 << 20)]
    cal = calibration.calibration(rows, 2, "gloo")
    best = calibration.beyond_measured(cal)
    assert (best is not None) == said
    assert cal["busbw_peak_gbs"] / cal["busbw_gbs"] == pytest.approx(4 / 7 if half_size == 3 << 20 else 4 / 10)


def test_the_asymptote_is_the_line_s_past_twice_the_best_measured_not_at_it() -> None:
    """Review MS's mutants: beyond_measured names the best point where the asymptote is more than twice it (the best
    under half the asymptote); exactly twice (mutant `>=`) is half reached, no note."""
    point = {"bytes": 4 << 20, "time_s": 1e-2, "busbw_gbs": 1.5}
    assert calibration.beyond_measured({"busbw_gbs": 3.0, "points": [point]}) is None
    assert calibration.beyond_measured({"busbw_gbs": 3.0001, "points": [point]}) == point
    # the best of the points, not the largest size's (mutant `points[-1]`): a slower 16 MiB after it changes nothing
    slower = {"bytes": 16 << 20, "time_s": 5e-2, "busbw_gbs": 1.2}
    assert calibration.beyond_measured({"busbw_gbs": 2.8, "points": [point, slower]}) is None


def test_cuda_asked_of_a_machine_without_it_names_both_flags(capsys) -> None:
    """--device cuda where there is none said only '--devices: got 2; allowed: at most 0', naming a flag that was
    not the one to change."""
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA devices")
    assert main(["measure", "--device", "cuda", "--devices", "1,2"]) == 2
    assert capsys.readouterr().err.strip() == (
        "dpscale measure: error: --devices: got 2 with --device cuda; allowed: at most 0 (the CUDA devices here), "
        "or --device cpu"
    )


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs named pipes and symbolic links (POSIX)")
def test_out_paths_that_cannot_take_a_file_are_refused_before_any_rank(tmp_path) -> None:
    """A 300-character name gave a traceback (exit 1), a link loop was found only after the measurement (exit 1),
    and a named pipe hung the command: each is now one line before any rank starts."""
    import os

    from dpscale.sources.measure.results import check_writable

    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    os.mkfifo(tmp_path / "pipe.jsonl")
    for name, why in (("a" * 300 + ".jsonl", "File name too long"), ("loop1", "Too many levels of symbolic links"),
                      ("pipe.jsonl", "a named pipe")):  # fmt: skip
        with pytest.raises(DpscaleError, match=rf"\({why}\); allowed: a writable file path"):
            check_writable(str(tmp_path / name), jsonl=True)
    for blank in ("  ", "\t"):  # once a file named by two spaces
        with pytest.raises(DpscaleError, match=r"\(not a file path\); allowed: a writable file path"):
            check_writable(blank, jsonl=True)


def test_an_out_path_ending_in_a_separator_is_refused_before_any_rank(tmp_path, capsys) -> None:
    """Review KM: `dpscale measure -d 1 --steps 2 --repeats 1 --out x.jsonl/` passed the check (pathlib drops a
    trailing '/', so a file x.jsonl was tried), trained, then said "--out: could not write 'x.jsonl/' (Is a
    directory); this size's result is shown, not saved; stopped", exit 1 — a sweep's first size measured for nothing.
    Such a path names a folder (the writer opens it as typed): refused as one, exit 2, before any rank starts — the
    torchrun worker and allreduce's calibration alike (both check with check_writable)."""
    from dpscale.sources.measure.results import check_writable

    for name in ("x.jsonl/", "x.jsonl/."):
        for jsonl in (True, False):
            with pytest.raises(DpscaleError, match=r"\(a folder\); allowed: a writable file path$"):
                check_writable(f"{tmp_path}/{name}", jsonl=jsonl)
    out = f"{tmp_path}/r.jsonl/"
    assert main(["measure", "-d", "1", "--steps", "1", "--repeats", "1", "--warmup", "0", "--out", out]) == 2
    said = f"dpscale measure: error: --out: got {out!r} (a folder); allowed: a writable file path\n"
    assert capsys.readouterr() == ("", said)
    assert main(["measure", "-d", "1", "--out", out, "--lang", "es"]) == 2
    dicho = f"--out: se recibió {out!r} (es una carpeta); se admite: la ruta de un archivo en el que se pueda escribir"
    assert capsys.readouterr().err == f"dpscale measure: error: {dicho}\n"
    assert list(tmp_path.iterdir()) == []  # nothing made


@pytest.mark.skipif(not hasattr(__import__("os"), "symlink"), reason="needs symbolic links")
@pytest.mark.parametrize("argv", [
    ["predict", "--model", "resnet50", "--system", "dgx-a100", "-d", "1,8", "--json", "--plot"],
    ["-d", "8", "-v", "2000", "-e", "0.9", "--plot"],
])  # fmt: skip
def test_a_link_to_a_missing_folder_is_refused_before_the_work(tmp_path, capsys, argv) -> None:
    """A dangling link passed the up-front check (its own folder exists): the whole answer was printed, then the
    plot failed (measure --out trained first, then exited 1)."""
    from dpscale.files import unwritable

    link = tmp_path / "z.png"
    link.symlink_to(tmp_path / "missing" / "z.png")
    assert unwritable(link) == unwritable(tmp_path / "missing" / "z.png") is not None
    rc = main([*argv, str(link)])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and err.count("\n") == 1 and "--plot: got" in err
    (tmp_path / "missing").mkdir()  # its target's folder now exists: a file can be made through the link
    assert unwritable(link) is None
    # the OS needs every folder a path names: 'gone/..' is no folder (realpath folded it away, and the plot failed
    # after the answer again)
    assert unwritable(tmp_path / "gone" / ".." / "x.png") == "no such folder"
    (tmp_path / "rel").symlink_to("missing/z.png")  # a relative target, read from the link's folder
    (tmp_path / "chain").symlink_to("rel")
    assert unwritable(tmp_path / "chain") is None and unwritable(tmp_path / "missing" / "z.png") is None


def test_a_calibration_rewrite_keeps_the_files_mode_links_and_works_in_a_closed_folder(tmp_path, monkeypatch) -> None:
    """The rename-over write made a 0600 calibration 0644 (readable by all), split a hard link, and failed after the
    whole measurement where the file was writable but its folder was not (a temporary file cannot be made there)."""
    import os
    import tempfile

    from dpscale.sources.measure import results

    cal = tmp_path / "cal.json"
    cal.write_text('{"busbw_gbs": 1}')
    os.chmod(cal, 0o600)
    results.write_json(str(cal), {"busbw_gbs": 2.0})
    assert json.loads(cal.read_text()) == {"busbw_gbs": 2.0} and cal.stat().st_mode & 0o777 == 0o600
    other = tmp_path / "same.json"
    os.link(cal, other)
    results.write_json(str(cal), {"busbw_gbs": 3.0})
    assert json.loads(other.read_text()) == {"busbw_gbs": 3.0}  # still one file under two names

    def closed(*a, **k):  # as in a folder this user cannot create files in (root is never refused, so simulated)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", closed)
    lone = tmp_path / "lone.json"
    lone.write_text("{}")
    results.write_json(str(lone), {"busbw_gbs": 4.0})
    assert json.loads(lone.read_text()) == {"busbw_gbs": 4.0}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cal.json", "lone.json", "same.json"]


def test_a_bad_out_is_refused_before_torch_is_imported(tmp_path) -> None:
    """--out was tried after `import torch` (1–6 s, 17 s under load) only to say the path was a folder."""
    from clihelp import imported_after

    loaded = imported_after(["measure", "-d", "1", "--out", str(tmp_path)])
    assert "torch" not in loaded and "dpscale.sources.measure.results" in loaded


def test_a_model_file_name_too_long_is_one_line(capsys) -> None:
    """Path.is_file raised ENAMETOOLONG for a 300-character name: a 24-line traceback, exit 1."""
    from dpscale.faces.cli import main

    name = "/tmp/" + "b" * 300 + ".py"
    assert main(["measure", "-d", "1", "--model-file", name]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "(File name too long); allowed: a Python file defining build_model()" in err
    assert main(["measure", "-d", "1", "--model-file", name, "--lang", "es"]) == 2
    assert "(nombre de archivo demasiado largo); se admite: un archivo Python" in capsys.readouterr().err


def test_a_sigterm_while_torch_imports_is_said_as_an_interrupt(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """The SIGTERM handler is in place before the checks that import torch (seconds): a `timeout` or a scheduler's
    kill then ended the command by the signal (143) without a word. And it is put back afterwards."""
    import os
    import signal

    from dpscale.faces.cli import measure as cli

    def killed_while_checking(*args: object) -> None:
        os.kill(os.getpid(), signal.SIGTERM)

    class Unhandled(Exception):
        pass

    def unhandled(signum: int, frame: object) -> None:  # where the command installs none, this one fails the test
        raise Unhandled  # (the default would end pytest itself)

    monkeypatch.setattr(cli, "check_environment", killed_while_checking)
    before = signal.signal(signal.SIGTERM, unhandled)
    try:
        assert main(["measure", "--devices", "1,2"]) == 130
        assert capsys.readouterr().err == "dpscale measure: interrupted\n"
        assert signal.getsignal(signal.SIGTERM) is unhandled  # put back as it was found
    finally:
        signal.signal(signal.SIGTERM, before)


def test_measure_from_a_thread_that_is_not_the_main_one_is_not_a_traceback(capsys) -> None:
    """main(["measure", …]) from a caller's worker thread (a GUI's, a job runner's, a ThreadPoolExecutor's): setting
    the SIGTERM handler raised 'ValueError: signal only works in main thread' before a word was said. Outside the
    main thread nothing is set (as the launcher does), the command runs, and the process's handlers stay as they
    were."""
    import signal
    import threading

    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    rc: list[int] = []
    worker = threading.Thread(target=lambda: rc.append(main(["measure", "--devices", "0", "--lang", "es"])))
    worker.start()
    worker.join(60)
    assert rc == [2]  # (the ValueError ended the thread: no exit code at all)
    err = capsys.readouterr().err
    assert err.startswith("dpscale measure: error: --devices: se recibió '0'; se admite: números enteros de 1 a")
    assert len(err.splitlines()) == 1
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before


def test_threads_that_oversubscribe_the_cores_are_warned_of(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """2 ranks × 2 threads on 2 cores measured E(2) = 0.14 without a word: only ranks were checked against cores."""
    pytest.importorskip("torch")
    import dataclasses

    import dpscale.sources.measure as measure
    from dpscale.faces.cli.measure import check_environment

    monkeypatch.setattr(measure, "cores", lambda: 2)
    job = Job("train", "mlp", None, 8, 3, 1, 1, (), 20, 1, "cpu", 0.1)
    check_environment(dataclasses.replace(job, threads=1), [1, 2], None)
    assert capsys.readouterr().err == ""
    check_environment(dataclasses.replace(job, threads=2), [1, 2], None, "es")
    assert capsys.readouterr().err == (
        "dpscale measure: aviso: 2 procesos × 2 hilos (--threads) superan los 2 núcleos de CPU; los procesos "
        "comparten núcleos, así que el resultado mide la sobresuscripción, no el escalado del hardware\n"
    )


def test_an_allreduce_cut_short_whose_out_is_gone_shows_its_sizes_in_one_line(capsys, tmp_path) -> None:
    """The kept sizes were written from inside the interrupt/crash handler: a refused --out (its folder deleted
    mid-run) escaped as a NotSaved traceback. Now one line says so, and the sizes are returned to be shown."""
    import argparse

    from dpscale.faces.cli.measure import _measured_so_far

    job = Job(mode="allreduce", sizes=(1024, 2048), iters=3, device="cpu")
    rows = [{"bytes": b, "time_s": t, "algbw_gbs": b / t / 1e9, "busbw_gbs": b / t / 1e9, "iters": 3}
            for b, t in ((1024, 1e-4), (2048, 1.5e-4))]  # fmt: skip
    exc = KeyboardInterrupt()
    exc.partial = {"devices": 2, "rows": rows, "backend": "gloo", "device": "cpu"}  # type: ignore[attr-defined]
    args = argparse.Namespace(out=str(tmp_path / "gone" / "c.json"), lang="en")
    (cal,) = _measured_so_far(job, exc, [], args)
    assert [p["bytes"] for p in cal["points"]] == [1024, 2048] and args.out is None
    assert capsys.readouterr().err.startswith("dpscale measure: error: --out: could not write ")
    args.out = str(tmp_path / "c.json")  # where it can be written, it is
    (cal,) = _measured_so_far(job, exc, [], args)
    assert [p["bytes"] for p in json.loads((tmp_path / "c.json").read_text())["points"]] == [1024, 2048]


def test_an_equivalence_record_carries_its_launch_time(tmp_path):
    """results.finish, shared by the local command and the torchrun worker, appends an equivalence result with the
    launch time (the worker's records lacked it before the two copies became one)."""
    from dpscale.sources.measure.results import finish

    out = tmp_path / "eq.jsonl"
    rec, why = finish(Job(mode="equivalence"), {"devices": 2, "passed": True}, 1.5, str(out))
    assert rec == {"devices": 2, "passed": True, "launch_s": 1.5} and why is None
    assert json.loads(out.read_text().splitlines()[-1]) == rec


def test_a_superlinear_measured_e_is_said_under_the_table(capsys):
    """A measured E of 2.6 (two ranks on a loaded machine against a baseline that ran on fewer cores) went into the
    table and --json without a word, and plan --efficiency-file then refused it."""
    import argparse

    from dpscale.faces.cli.measure import show_train

    base = {"workload": "mlp", "zero": 0, "batch": 16, "steps": 5, "warmup": 2, "repeats": 2, "backend": "gloo",
            "device": "cpu", "throughput_spread": 0.01, "exposed_comm_share": 0.1, "overlap": 0.5, "launch_s": 1.0,
            "baseline_devices": 1, "threads": 1}  # fmt: skip
    recs = [{**base, "devices": 1, "throughput": 100.0, "step_s": 0.16, "compute_s": 0.1, "efficiency": 1.0,
             "speedup": 1.0},
            {**base, "devices": 2, "throughput": 519.0, "step_s": 0.06, "compute_s": 0.05, "efficiency": 2.595,
             "speedup": 5.19}]  # fmt: skip
    show_train(recs, argparse.Namespace(json=False, csv=False, lang="en", plot=None, out=None))
    assert "note: E above 1.02 at 2 devices (up to 2.595), more than a repeat's spread above 1: the ranks ran" in (
        capsys.readouterr().out
    )
    recs[1] = {**recs[1], "efficiency": 1.01}  # within a repeat's spread: no note
    show_train(recs, argparse.Namespace(json=False, csv=False, lang="en", plot=None, out=None))
    assert "E above" not in capsys.readouterr().out
    # the bound plan --efficiency-file plans as 1 (review LW): at it no note, past it the note
    recs[1] = {**recs[1], "efficiency": 1.02}
    show_train(recs, argparse.Namespace(json=False, csv=False, lang="en", plot=None, out=None))
    assert "E above" not in capsys.readouterr().out
    recs[1] = {**recs[1], "efficiency": 1.0201}
    show_train(recs, argparse.Namespace(json=False, csv=False, lang="en", plot=None, out=None))
    assert "note: E above 1.02 at 2 devices (up to 1.0201)" in capsys.readouterr().out
    # several sizes are listed as a sentence lists them, grouped as the table counts devices ('2, 1024' in both
    # languages once): '2 and 1,024', '2 y 1.024'
    recs[1] = {**recs[1], "efficiency": 1.5}
    recs.append({**recs[1], "devices": 1024, "efficiency": 1.2})
    show_train(recs, argparse.Namespace(json=False, csv=False, lang="en", plot=None, out=None))
    assert "note: E above 1.02 at 2 and 1,024 devices (up to 1.5), more than" in capsys.readouterr().out
    show_train(recs, argparse.Namespace(json=False, csv=False, lang="es", plot=None, out=None))
    assert (
        "nota: E por encima de 1,02 con 2 y 1.024 dispositivos (hasta 1,5), más que la dispersión"
        in capsys.readouterr().out
    )


def test_a_baseline_whose_repeats_are_not_numbers_keeps_its_median() -> None:
    """A baseline record edited by hand, or written with a repeat that was not finite (null), made the next size's
    E range a TypeError after the whole run, and the size was lost: its median stands in for its repeats."""
    job = Job(batch=10, steps=5, repeats=2)
    one = results.with_efficiency(results.summarise(raw(1, [0.5, 0.5], [0.25] * 2), job, 1.0), None)
    two = results.summarise(raw(2, [0.8, 1.0], [0.5] * 2), job, 1.0)
    for bad in ([None, 100.0], ["x"], [], None, [True]):
        rec = results.with_efficiency(two, {**one, "throughputs": bad})
        assert rec["efficiency_min"] <= rec["efficiency"] <= rec["efficiency_max"]


def test_allreduce_iterations_honour_fewer_than_three(monkeypatch) -> None:
    """--iters 1 ran 3 (the time budget's floor) and the table said 3: what was asked is the ceiling."""
    from dpscale.sources.measure import allreduce

    monkeypatch.setattr(allreduce, "time_loop", lambda ctx, buf, n: 1e-3)  # a 1 ms all-reduce
    assert allreduce.iterations(None, None, 1) == 1 and allreduce.iterations(None, None, 20) == 20
    monkeypatch.setattr(allreduce, "time_loop", lambda ctx, buf, n: 100.0)  # one past the budget: still 3
    assert allreduce.iterations(None, None, 20) == 3 and allreduce.iterations(None, None, 2) == 2


def test_a_record_a_full_disk_refused_leaves_no_empty_file(tmp_path, monkeypatch) -> None:
    """A full disk left a 0-byte results file behind (the write failed after the open made it); a file that was
    there before is left as it was."""

    def full(path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(results, "_ends_open", full)
    new = tmp_path / "new.jsonl"
    with pytest.raises(results.NotSaved):
        results.append_jsonl(str(new), {"devices": 1})
    assert not new.exists()
    old = tmp_path / "old.jsonl"
    old.write_text("")
    with pytest.raises(results.NotSaved):
        results.append_jsonl(str(old), {"devices": 1})
    assert old.exists()


def full_disk(monkeypatch, path, write) -> None:
    """append_jsonl's file as a full disk leaves it: `write(fh, text)` puts what reached the disk (a part of the
    record, another job's beside it), then ENOSPC. Reading the file (its last line's end) works as ever."""
    import builtins

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def write(self, text):
            write(self.fh, text)
            self.fh.flush()
            raise OSError(28, "No space left on device")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

    def opened(file, mode="r", **kw):
        fh = builtins.open(file, mode, **kw)
        return Full(fh) if "a" in mode else fh

    monkeypatch.setattr(results, "open", opened, raising=False)


def another_job_appends(path, text: str) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(text)


def test_a_record_a_full_disk_cut_short_is_taken_back(tmp_path, monkeypatch) -> None:
    """A full disk writes up to its last free block, then fails: half a record stayed as the file's last line, and
    `dpscale fit` and the next `--out` then refused the whole file ("line 3: not valid JSON"); the finished sizes
    before it must stay readable (an outside review, on an 8 KiB tmpfs)."""
    path = tmp_path / "r.jsonl"
    results.append_jsonl(str(path), {"devices": 1, "throughput": 100.0})
    results.append_jsonl(str(path), {"devices": 2, "throughput": 190.0})
    kept = path.read_bytes()
    full_disk(monkeypatch, path, lambda fh, text: fh.write(text[: len(text) // 2]))
    with pytest.raises(results.NotSaved):
        results.append_jsonl(str(path), {"devices": 4, "throughput": 360.0, "note": "x" * 200})
    assert path.read_bytes() == kept


def test_a_record_another_job_appended_is_not_taken_back(tmp_path, monkeypatch) -> None:
    """Two jobs append to one --out (multi-node sizes arrive one a job): the other's record landed, then this one's
    write failed on the now full disk — and the take-back truncated the file to where it ended before this write
    began, erasing the other job's finished size."""
    path = tmp_path / "r.jsonl"
    results.append_jsonl(str(path), {"devices": 1, "throughput": 100.0})
    other = json.dumps({"devices": 8, "throughput": 700.0}) + "\n"
    full_disk(monkeypatch, path, lambda fh, text: another_job_appends(path, other))  # nothing of this one's written
    with pytest.raises(results.NotSaved):
        results.append_jsonl(str(path), {"devices": 2, "throughput": 190.0})
    assert path.read_text(encoding="utf-8").endswith(other)


@pytest.mark.parametrize("first", ["other", "ours"])
def test_a_record_cut_short_beside_another_job_s_is_taken_back_alone(tmp_path, monkeypatch, first) -> None:
    """Another job's whole record landed before this one's half (or after this one's whole text, the write then
    failing, as NFS says a full quota on close): only this record's bytes are taken back. Its half line was left
    behind the other's record, and `dpscale fit` refused the file ("line 3: not valid JSON")."""
    path = tmp_path / "r.jsonl"
    path.write_bytes(b'{"devices": 1, "throughput": 100.0}')  # its last line unterminated: ours starts with '\n'
    other = json.dumps({"devices": 8, "throughput": 700.0, "note": "é"}) + "\n"

    def write(fh, text):
        if first == "other":  # the other's record (it, too, ends the open last line first), then half of this one's
            another_job_appends(path, "\n" + other)
            fh.write(text[: len(text) // 2])
        else:  # this one's whole text, the other's after it, then the error
            fh.write(text)
            fh.flush()
            another_job_appends(path, other)

    full_disk(monkeypatch, path, write)
    with pytest.raises(results.NotSaved):
        results.append_jsonl(str(path), {"devices": 2, "throughput": 190.0, "note": "ñ" * 3})
    kept = path.read_text(encoding="utf-8")
    if first == "other":
        assert kept == '{"devices": 1, "throughput": 100.0}\n' + other
    else:  # ours is whole and another's follows it: nothing taken back
        assert kept.endswith(other) and '"devices": 2' in kept


@pytest.mark.parametrize("machine", ["json", "csv"])
def test_the_run_s_caveats_reach_stderr_under_json_and_csv(capsys, machine) -> None:
    """measure's notes were built after its --json and --csv output returned: '--warmup 0', 'speedup assumes
    scaling up to d0' and the rest were lost there, where the README says every command's notes go to stderr."""
    import argparse

    from dpscale.faces.cli.measure import show_train

    job = Job(batch=10, steps=5, repeats=1, warmup=0)
    two = results.with_efficiency(results.summarise(raw(2, [1.0], [0.5]), job, 1.0), None)
    two = results.with_efficiency(two, two)
    args = argparse.Namespace(json=machine == "json", csv=machine == "csv", lang="en")
    show_train([two], args)
    out, err = capsys.readouterr()
    assert "note: --warmup 0: DDP's first iterations" in err and "note:" not in out
    assert "speedup = d·E counts perfect scaling up to d=2" in err
    assert "throughput = median" not in err  # what the table's columns mean: no table here
    if machine == "json":
        assert json.loads(out)["points"][0]["devices"] == 2


def test_the_no_baseline_note_is_for_a_workload_the_file_already_holds(tmp_path) -> None:
    """docs/measure.md: a set-up whose workload has earlier records, none matching, is told how the nearest differs;
    a workload new to the file starts its own baseline as in a new file, with nothing to say."""
    path = tmp_path / "r.jsonl"
    mlp = results.summarise(raw(1, [1.0], [0.8]), Job(batch=64, steps=5), 1.0)
    results.append_jsonl(str(path), {**mlp, "workload": "mlp"})
    results.append_jsonl(str(path), {**mlp, "workload": "cnn"})
    new = {**results.summarise(raw(1, [1.0], [0.8]), Job(batch=64, steps=5), 1.0), "workload": "transformer"}
    assert results.baseline_from_file(str(path), new) is None and results.differing(str(path), new) is None
    half = {**results.summarise(raw(1, [1.0], [0.8]), Job(batch=32, steps=5), 1.0), "workload": "mlp"}
    assert results.baseline_from_file(str(path), half) is None
    assert results.differing(str(path), half) == "batch 64 → 32"


@pytest.mark.parametrize(
    "line, said",
    [
        ('{"devices": 1, "throughput": null, "workload": "mlp"}', "line 2, throughput: got null"),  # TypeError
        ('{"devices": 1, "throughput": 0, "workload": "mlp"}', "line 2, throughput: got 0"),  # ZeroDivisionError
        ('{"devices": 1, "throughput": -5.0, "workload": "mlp"}', "line 2, throughput: got -5"),  # E = −69.6
        ('{"devices": 1, "throughput": true, "workload": "mlp"}', "line 2, throughput: got true"),  # E = 439
        ('{"devices": 0, "throughput": 90, "workload": "mlp"}', "line 2, devices: got 0"),
        ("garbage", "line 2: got 'garbage'; allowed: a `dpscale measure` record, one a line"),
        ('{"devices": 2, "throughput": 9', 'line 2: got \'{"devices": 2, "throughput": 9\''),  # cut short
    ],
)
def test_a_bad_record_anywhere_in_out_is_refused_before_any_rank_starts(tmp_path, line: str, said: str) -> None:
    """check_writable read line 1 alone: a bad record later was taken as the baseline (a traceback after the size
    was measured, losing it, or a silent E of −69.6), or a garbled line was appended past (then `dpscale fit`
    refused the file)."""
    from dpscale.sources.measure.results import check_writable

    f = tmp_path / "r.jsonl"
    f.write_text('{"devices": 1, "throughput": 100.0, "workload": "mlp", "batch": 16}\n' + line + "\n")
    with pytest.raises(DpscaleError) as exc:
        check_writable(str(f), jsonl=True)
    assert str(exc.value).startswith(f"--out {f} {said}")


def test_a_baseline_whose_rate_is_text_is_read_as_fit_reads_it(tmp_path) -> None:
    """ "throughput": "1000" met E's arithmetic after the size was measured (TypeError, the size lost)."""
    f = tmp_path / "r.jsonl"
    f.write_text(json.dumps({"workload": "mlp", "batch": 16, "devices": "1", "throughput": "1000"}) + "\n")
    base = results.baseline_from_file(str(f), {"workload": "mlp", "batch": 16, "devices": 2})
    assert base["devices"] == 1 and base["throughput"] == 1000.0
    rec = results.with_efficiency({"devices": 2, "throughput": 1500.0}, base)
    assert rec["efficiency"] == 0.75


def test_a_bad_record_in_out_is_said_in_spanish(capsys, tmp_path) -> None:
    f = tmp_path / "r.jsonl"
    f.write_text('{"devices": 1, "throughput": 100.0, "workload": "mlp"}\ngarbage\n')
    rc, text = err(capsys, ["measure", "-d", "2", "--out", str(f), "--lang", "es"])
    assert rc == 2 and text == (
        f"dpscale measure: error: --out {f} línea 2: se recibió 'garbage'; se admite: un registro de `dpscale "
        "measure`, uno por línea (una línea cortada o escrita a mano: corríjala o quítela)"
    )
    f.write_text('{"devices": 1, "throughput": null, "workload": "mlp"}\n')
    rc, text = err(capsys, ["measure", "-d", "2", "--out", str(f), "--lang", "es"])
    assert rc == 2 and f"--out {f} línea 1, campo 'throughput': se recibió null; se admite: un número" in text


def test_a_size_measured_again_into_a_file_that_has_it_says_its_e_is_against_the_earlier_record() -> None:
    """A second `-d 1` into the same --out showed E 0.636 at d = 1 under a note that said 'at d=1, each repeat
    against the median' (docs: 'E = 1.0 exactly there'): it is against the file's earlier d = 1 record."""
    from dpscale.faces.cli.measure import _train_notes

    base = {"devices": 1, "repeats": 2, "warmup": 1, "baseline_devices": 1, "zero": 0}
    again = _train_notes([{**base, "efficiency": 0.6364}, {**base, "devices": 2, "efficiency": 0.5}], "en", True)
    assert again == [
        "d=1 was in --out already: this run's d=1 is measured against that earlier record (E 0.636), the file's "
        "one baseline, as `dpscale fit` reads both as runs of one size"
    ]
    assert _train_notes([{**base, "efficiency": 1.0}], "en", True) == []  # the baseline itself: nothing to say
    es = _train_notes([{**base, "efficiency": 0.6364}], "es", True)
    assert es[0].startswith("d=1 ya estaba en --out") and "(E 0,636)" in es[0]


def test_the_worker_s_help_goes_to_stdout() -> None:
    """stdout was pointed at stderr before the flags were read (to keep the model file's prints out of the JSON):
    `--help 2>/dev/null` printed nothing."""
    proc = subprocess.run([sys.executable, "-m", "dpscale.sources.measure.worker", "--help"], capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0 and proc.stdout.startswith("usage: python -m dpscale.sources.measure.worker")


def _sigint_state(q) -> None:  # (a spawned child: module level, picklable)
    import signal

    q.put(signal.getsignal(signal.SIGINT) == signal.SIG_IGN)


def test_ranks_start_deaf_to_a_terminal_s_ctrl_c() -> None:
    """Ctrl-C reaches the whole process group: a rank still importing torch printed a KeyboardInterrupt traceback
    beside 'interrupted' (2 of 3 tries, an outside review). The ranks start with SIGINT ignored (the launcher stops
    them itself), and the launcher's own handler is back once they have started."""
    import multiprocessing as mp
    import signal

    from dpscale.sources.measure.launcher import _sigint_ignored

    def mine(*a: object) -> None:
        pass

    before = signal.signal(signal.SIGINT, mine)
    try:
        ctx = mp.get_context("spawn")
        q = ctx.Queue()
        with _sigint_ignored():
            p = ctx.Process(target=_sigint_state, args=(q,))
            p.start()
        assert signal.getsignal(signal.SIGINT) is mine and q.get(timeout=60) is True
        p.join(60)
    finally:
        signal.signal(signal.SIGINT, before)
