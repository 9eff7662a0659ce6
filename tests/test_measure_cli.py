"""`dpscale measure`'s arguments, defaults and the notes under its table (no rank started)."""

from __future__ import annotations

import argparse
import json
import sys
import types

import pytest
from clihelp import MEASURE_ROW

from dpscale.errors import DpscaleError
from dpscale.faces.cli import measure

# Cases a sixth mutation sweep (session 30: the catalog's name reading and system files, the CLI's shared
# parsers, the predict and fit faces' arguments, a first few of measure's; 169 mutants, 40 non-equivalent survivors)
# found no test could fail on. Each expected value is derived in its docstring or comment, from the docs or the
# arithmetic, not read back from the code. None of these starts torch, a browser or a process.


# ---------------------------------------------------------------- faces/cli/measure (arguments only)


def test_a_watchdog_of_one_second_is_the_shortest_allowed():
    """measure --timeout takes 'seconds from 1 to 1,000,000': 1 s itself is read (0.5 s refused); the job is only
    built here, no rank started."""
    import argparse

    from dpscale.faces.cli.measure import add_arguments, build_job

    p = argparse.ArgumentParser()
    add_arguments(p)
    assert build_job(p.parse_args(["--timeout", "1"]), "train").timeout == 1.0
    with pytest.raises(DpscaleError, match="--timeout: got '0.5'; allowed: seconds from 1 to 1,000,000"):
        build_job(p.parse_args(["--timeout", "0.5"]), "train")


# Cases a seventh mutation sweep (the measure face's arguments and notes; output; plots) found no test could fail
# on. Each expected value is derived in its docstring or comment, from the docs or the arithmetic, not read back from
# the code. None of these starts torch, a browser or a process.


# ---------------------------------------------------------------- faces/cli/measure: arguments (no rank started)


def measure_args(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    measure.add_arguments(p)
    return p.parse_args(list(argv))


def prepared_devices(monkeypatch, *argv: str) -> list[int]:
    """The world sizes `dpscale measure ARGV` would run, caught where the environment checks (torch) would begin."""
    seen: dict[str, list[int]] = {}

    def stop(job, devices, out, lang="en"):
        seen["devices"] = devices
        raise KeyboardInterrupt

    monkeypatch.setattr(measure, "check_environment", stop)
    args = measure_args(*argv)
    with pytest.raises(KeyboardInterrupt):
        measure._prepare(args, args.mode or "train", False)
    return seen["devices"]


def test_a_watchdog_of_a_million_seconds_is_the_longest_allowed():
    """--timeout takes 'seconds from 1 to 1,000,000': 1,000,000 itself is read, one more second refused."""
    assert measure.build_job(measure_args("--timeout", "1000000"), "train").timeout == 1e6
    with pytest.raises(DpscaleError, match="--timeout: got '1000001'; allowed: seconds from 1 to 1,000,000"):
        measure.build_job(measure_args("--timeout", "1000001"), "train")


def test_the_watchdog_waits_600_seconds_unless_told():
    """--help and docs/measure.md: 'no rank makes progress for --timeout s (default 600)'."""
    assert measure.build_job(measure_args(), "train").timeout == 600


@pytest.mark.parametrize("mode", ["allreduce", "equivalence"])
def test_the_modes_run_two_ranks_unless_told(monkeypatch, mode):
    """--devices help: 'default 1,2; modes: 2' — allreduce and equivalence run one world size of 2."""
    assert prepared_devices(monkeypatch, mode) == [2]
    assert prepared_devices(monkeypatch) == [1, 2]


def test_the_run_s_counts_are_the_help_s_defaults():
    """--help: per-rank batch 'default 64; equivalence 16', --steps 'default 50', --warmup 'default 10', --repeats
    'default 3'; allreduce: --sizes 'default 1KB..256MB, ×2 steps' (2^10 … 2^28 bytes: 19 sizes), --iters 20."""
    train = measure.build_job(measure_args(), "train")
    assert (train.batch, train.steps, train.warmup, train.repeats) == (64, 50, 10, 3)
    assert measure.build_job(measure_args("equivalence"), "equivalence").batch == 16
    ar = measure.build_job(measure_args("allreduce"), "allreduce")
    assert (ar.sizes[0], ar.sizes[-1], len(ar.sizes), ar.iters) == (2**10, 2**28, 19, 20)


def test_no_warmup_is_taken():
    """docs/measure.md: '`--warmup 0` is taken and said: DDP's first iterations are then timed'."""
    assert measure.build_job(measure_args("--warmup", "0"), "train").warmup == 0


def test_allreduce_measures_one_world_size(monkeypatch):
    """docs/measure.md: `dpscale measure allreduce --devices N` — one world size (its calibration is of that size),
    ≥ 2: a list of two sizes is refused before any rank starts, as one rank alone is."""
    monkeypatch.setattr(measure, "check_environment", lambda *a, **k: pytest.fail("the sizes were not checked"))
    for devices in ("2,4", "1"):
        with pytest.raises(DpscaleError, match=f"--devices: got '{devices}'; allowed: one world size ≥ 2"):
            measure._prepare(measure_args("allreduce", "-d", devices), "allreduce", False)


def test_eight_ranks_per_core_are_at_most_what_a_local_run_takes(monkeypatch, capsys):
    """A local CPU run past the cores is refused with 'allowed: at most 8·cores ranks (8 per CPU core here)': at
    most, so on 1 core 8 ranks still run (with docs/measure.md's warning that the world size exceeds the cores) and
    9 are refused. torch is stood in for: only the counts are checked."""
    from dpscale.sources import measure as sources

    monkeypatch.setitem(sys.modules, "torch", types.ModuleType("torch"))
    monkeypatch.setattr(sources, "require_torch", lambda: "0")
    monkeypatch.setattr(sources, "cores", lambda: 1)
    job = measure.build_job(measure_args("--device", "cpu", "--threads", "1"), "train")
    measure.check_environment(job, [1, 8], None)
    assert "warning: world size 8 exceeds the 1 CPU cores" in capsys.readouterr().err
    with pytest.raises(DpscaleError, match=r"--devices: got 9; allowed: at most 8 ranks \(8 per CPU core here\)"):
        measure.check_environment(job, [1, 9], None)


def test_as_many_ranks_as_cuda_devices_run(monkeypatch):
    """--device cuda with 2 GPUs here: 'allowed: at most 2 (the CUDA devices here)' — 2 ranks run, 3 are refused."""
    from dpscale.sources import measure as sources

    torch = types.ModuleType("torch")
    torch.cuda = types.SimpleNamespace(device_count=lambda: 2, is_available=lambda: True)
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setattr(sources, "require_torch", lambda: "0")
    job = measure.build_job(measure_args("--device", "cuda"), "train")
    measure.check_environment(job, [1, 2], None)
    with pytest.raises(DpscaleError, match=r"--devices: got 3 with --device cuda; allowed: at most 2"):
        measure.check_environment(job, [1, 3], None)


def test_a_calibration_run_will_not_overwrite_training_records(monkeypatch, tmp_path):
    """docs/measure.md: an --out 'that holds other data' is one line, exit 2, before any rank starts; a calibration
    is written whole, so a file of training records (JSONL) must not become one."""
    from dpscale.sources import measure as sources

    monkeypatch.setattr(sources, "require_torch", lambda: pytest.fail("--out was not checked"))
    runs = tmp_path / "runs.jsonl"
    runs.write_text(json.dumps({"devices": 1, "throughput": 100.0, "workload": "mlp"}) + "\n")
    job = measure.build_job(measure_args("allreduce"), "allreduce")
    with pytest.raises(DpscaleError, match="it holds something other than a calibration"):
        measure.check_environment(job, [2], str(runs))


# ---------------------------------------------------------------- faces/cli/measure: the notes under the table


def train_record(devices: int, compute_s: float, **more) -> dict:
    return {"devices": devices, "repeats": 3, "warmup": 10, "compute_s": compute_s, "efficiency": 1.0, **more}


def test_compute_that_grew_more_than_1_2_times_is_said():
    """docs/measure.md, compute_s: 'When it grows by more than 1.2× from the smallest size to the largest, a note
    says so': 1.0 → 1.25 s is said (×1.25), 1.0 → 1.2 s (×1.2, not more) is not."""
    grew = measure._train_notes([train_record(1, 1.0), train_record(2, 1.25)], "en")
    assert any(n.startswith("compute per step grew") for n in grew)
    same = measure._train_notes([train_record(1, 1.0), train_record(2, 1.2)], "en")
    assert not any(n.startswith("compute per step grew") for n in same)


def test_a_sharded_run_does_not_explain_the_columns_it_leaves_empty():
    """docs/measure.md: in a sharded run 'compute, sync overhead and overlap stay empty', so the note that says what
    those columns mean is not under its table (the median's note is)."""
    notes = measure._train_notes([train_record(1, None, zero=1), train_record(2, None, zero=1)], "en")
    assert any(n.startswith("throughput = median of 3 repeats") for n in notes)
    assert not any(n.startswith("compute = the same steps") for n in notes)


def test_a_run_from_one_device_has_no_untested_speedup_note():
    """The speedup note ('counts perfect scaling up to d=d0, which was not measured against one device') is for a
    baseline above one device; a run from d=1 measured its speedups."""
    notes = measure._train_notes([train_record(1, 1.0), train_record(2, 1.0)], "en")
    assert not any("perfect scaling up to" in n for n in notes)
    later = measure._train_notes([train_record(2, 1.0), train_record(4, 1.0)], "en")
    assert any("perfect scaling up to d=2" in n for n in later)


def shown_rows(recs: list[dict]) -> list[dict]:
    """The rows the train table is made of (the web page's sink receives them as the table prints them)."""
    got: list[list[dict]] = []
    args = argparse.Namespace(json=False, csv=False, lang="en", sink=lambda rows, *rest: got.append(rows))
    measure.show_train(recs, args)
    return got[0]


def test_one_repeat_shows_no_spread_and_steps_in_milliseconds():
    """docs/measure.md: spread 'the table shows '—' for one repeat'; the step column is step_ms: a 0.05 s step is
    50 ms."""
    one, three = (
        shown_rows([{**MEASURE_ROW, "devices": 1, "repeats": 1}]),
        shown_rows([{**MEASURE_ROW, "devices": 1, "repeats": 3}]),
    )
    assert one[0]["spread"] is None and three[0]["spread"] == 0.0
    assert one[0]["step_ms"] == pytest.approx(50.0)


def test_equivalence_fails_when_any_size_fails(monkeypatch, capsys):
    """docs/measure.md: 'equivalence check fails | the table marks FAIL; exit 1' — at 2 ranks passing and 4
    failing, the run as a whole exits 1."""
    job = measure.build_job(measure_args("equivalence"), "equivalence")
    launcher = types.SimpleNamespace(run=lambda job, d, progress: d)
    check = {"dtype": "float32", "max_abs_diff": 0.0, "grad_max": 1.0, "threshold": 1e-5, "tolerance": 1e-5}

    def record(job, d, done, out, lang="en"):
        return {"devices": d, "batch": 16, "workload": "mlp", "backend": "gloo", "passed": d == 2,
                "checks": [{**check, "passed": d == 2}]}  # fmt: skip

    monkeypatch.setattr(measure, "_prepare", lambda args, mode, own: (job, [2, 4], launcher))
    monkeypatch.setattr(measure, "record", record)
    assert measure.run(measure_args("equivalence", "-d", "2,4")) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out
    # the title's one process runs the whole batch d·b: 2 × 16 = 32, 4 × 16 = 64
    assert "2 ranks × batch 16 vs one process on batch 32" in out
    assert "4 ranks × batch 16 vs one process on batch 64" in out


def test_a_run_that_fails_at_its_first_size_exits_1_and_points_to_no_finished_sizes(monkeypatch, capsys, tmp_path):
    """docs/measure.md: a run that fails 'prints one line naming the size and the rank, exit 1'; '; finished sizes
    are in FILE' is said only where a size finished — a crash at the first of -d 1,2 leaves --out with none."""
    from dpscale.sources.measure.launcher import RunFailed

    job = measure.build_job(measure_args(), "train")

    def crash(job, d, progress):
        raise RunFailed(d, "rank 0", "crashed (exit code 1)")

    monkeypatch.setattr(measure, "_prepare", lambda args, mode, own: (job, [1, 2], types.SimpleNamespace(run=crash)))
    assert measure.run(measure_args("-d", "1,2", "--out", str(tmp_path / "runs.jsonl"))) == 1
    out, err = capsys.readouterr()
    assert not out and err.splitlines()[-1] == "dpscale measure: error: size 1: rank 0 crashed (exit code 1)"


def test_a_size_appended_to_a_file_takes_its_records_threads(monkeypatch, tmp_path, capsys):
    """docs/measure.md: 'Sizes appended to earlier records in --out take those records' share' of threads: records
    of mlp, batch 64, 50 steps at 3 threads make a -d 2 run use 3 (not 8 cores ÷ 2 = 4), and a note says so."""
    from dpscale.sources import measure as sources
    from dpscale.sources.measure import launcher

    out = tmp_path / "runs.jsonl"
    rec = {"devices": 1, "throughput": 100.0, "efficiency": 1.0, "workload": "mlp", "batch": 64, "steps": 50,
           "warmup": 10, "repeats": 3, "device": "cpu", "backend": "gloo", "zero": 0, "threads": 3}  # fmt: skip
    out.write_text(json.dumps(rec) + "\n")
    monkeypatch.setattr(measure, "check_environment", lambda *a, **k: None)
    monkeypatch.setattr(sources, "on_cuda", lambda device: False)
    monkeypatch.setattr(sources, "cores", lambda: 8)
    monkeypatch.setattr(launcher, "Launcher", lambda **k: None)
    job = measure._prepare(measure_args("-d", "2", "--out", str(out)), "train", False)[0]
    assert job.threads == 3
    assert "3 threads a rank, as the earlier records of this set-up in --out" in capsys.readouterr().err


def test_a_cut_short_calibration_takes_an_empty_out_file_itself(monkeypatch, tmp_path):
    """docs/measure.md: only 'where --out already held a calibration' does the cut-short one go beside it
    (calib.partial.json); an empty file holds none, so it is written there."""
    empty = tmp_path / "calib.json"
    empty.write_text("")
    written: list = []
    monkeypatch.setattr(measure, "record", lambda job, outcome, done, out, lang="en": written.append(out) or {})
    job = measure.build_job(measure_args("allreduce"), "allreduce")
    cut = types.SimpleNamespace(partial={"rows": [{"bytes": 1024, "time_s": 1e-4}]})
    args = argparse.Namespace(out=str(empty), lang="en")
    measure._measured_so_far(job, cut, [], args)
    assert written == [str(empty)] and args.out == str(empty)


def test_a_ddp_run_says_its_throughput_is_a_median_against_its_smallest_size():
    """docs/measure.md: 'throughput is their median' of --repeats (3 by default), and E is relative to the smallest
    size measured: the first note under a DDP run's table says both — d=1 for a run from one rank, d=2 for one from
    two (a sharded run keeps this note too, test above)."""
    ones = measure._train_notes([train_record(1, 1.0), train_record(2, 1.0)], "en")
    assert ones[0].startswith("throughput = median of 3 repeats (spread = (max − min)/median); E relative to d=1;")
    twos = measure._train_notes([train_record(2, 1.0), train_record(4, 1.0)], "en")
    assert twos[0].startswith("throughput = median of 3 repeats (spread = (max − min)/median); E relative to d=2;")


def test_compute_is_shown_in_milliseconds_and_a_sharded_run_leaves_it_empty():
    """The compute column is compute_ms: MEASURE_ROW's 0.04 s of compute a step is 40 ms (beside its 50 ms step); a
    sharded run measures none (compute_s None), which stays empty ('—'), not 0 ms."""
    row = shown_rows([{**MEASURE_ROW, "devices": 1, "repeats": 3}])[0]
    assert row["compute_ms"] == pytest.approx(40.0) and row["step_ms"] == pytest.approx(50.0)
    assert shown_rows([{**MEASURE_ROW, "devices": 1, "repeats": 3, "compute_s": None}])[0]["compute_ms"] is None


def test_allreduce_json_is_the_calibration_without_the_table_s_rows(capsys):
    """measure allreduce --json prints the calibration (what --out writes and predict --calibration reads: its
    points, α, β, busbw), not the table's rows the command hands the printer beside it: rows timed at
    300 µs + 0.7 ns a byte give α = 3e-4 s and β = 7e-10 s/B."""
    from dpscale.sources.measure import calibration

    rows = [calibration.row(s, 3e-4 + s * 7.0e-10, 2, 20) for s in (1024, 1 << 20, 1 << 26)]
    cal = calibration.calibration(rows, 2, "gloo", device="cpu")
    measure.show_allreduce({**cal, "rows": rows}, argparse.Namespace(json=True, csv=False, lang="en", out=None))
    got = json.loads(capsys.readouterr().out)
    assert "rows" not in got and set(got) == set(cal)
    assert got["alpha_s"] == pytest.approx(3e-4) and got["beta_s_per_byte"] == pytest.approx(7e-10)
    assert [p["bytes"] for p in got["points"]] == [1024, 1 << 20, 1 << 26] and got["devices"] == 2


# ---------------------------------------------------------------- faces/output


def test_a_missing_value_is_a_dash_without_its_unit(capsys):
    """A value the record does not have is '—' (docs/measure.md: 'the table shows '—''); a unit after it ('—
    samples/s') would give a number that is not there a unit."""
    from dpscale.faces.output import Column, emit

    emit({"devices": 8, "throughput": None}, [Column("devices", "int"), Column("throughput", "rate", "samples/s")],
         argparse.Namespace(lang="en"))  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["throughput", "—"]


# Review 46 AI: one source of truth for what two places wrote apart (repeated defaults, constants and words).


def _cli_job(mode: str, *argv: str):  # noqa: ANN202
    from dpscale.faces.cli.measure import add_arguments, build_job

    p = argparse.ArgumentParser()
    add_arguments(p)
    return build_job(p.parse_args(list(argv)), mode)


def test_measure_and_its_torchrun_worker_take_one_set_of_defaults(worker, monkeypatch):
    """`dpscale measure` (one node) and `python -m dpscale.sources.measure.worker` (torchrun, several nodes) append
    to one --out, and E compares their runs: each kept its own copy of the defaults (steps 50, warm-up 10, repeats
    3, iterations 20, sizes 1KB..256MB, batch 64 / 16), so a change to one measured the two differently. Both read
    sources.measure.jobs now: a changed default reaches both, and both helps say it."""
    from dpscale.sources.measure import jobs

    for k, v in (("steps", 7), ("warmup", 2), ("repeats", 4), ("iters", 5), ("sizes", "4KB..16KB")):
        monkeypatch.setitem(jobs.DEFAULTS, k, v)
    monkeypatch.setattr(jobs, "BATCH", 48)
    monkeypatch.setattr(jobs, "EQUIVALENCE_BATCH", 12)
    for mode in ("train", "equivalence"):
        cli, torchrun = _cli_job(mode, "--device", "cpu"), worker.job_from(worker.parser().parse_args([mode]))
        fields = ("batch", "steps", "warmup", "repeats")
        assert [getattr(cli, f) for f in fields] == [getattr(torchrun, f) for f in fields]
    assert (_cli_job("train").batch, _cli_job("equivalence").batch) == (48, 12)
    assert (_cli_job("train").steps, _cli_job("train").warmup, _cli_job("train").repeats) == (7, 2, 4)
    cli, torchrun = _cli_job("allreduce"), worker.job_from(worker.parser().parse_args(["allreduce"]))
    assert cli.sizes == torchrun.sizes == (4096, 8192, 16384) and cli.iters == torchrun.iters == 5
    said = worker.parser().format_help()
    assert "default 7" in said and "default 4KB..16KB" in said and "(default 48; equivalence 12)" in said


def test_measure_help_says_the_defaults_it_takes_in_both_languages(capsys):
    """The help's '(default 50)' and the rest are the defaults the run takes, English and Spanish alike."""
    from dpscale.faces.cli import main

    for lang, word in (("en", "default"), ("es", "por defecto")):
        with pytest.raises(SystemExit):
            main(["measure", "--help", "--lang", lang])
        out = " ".join(capsys.readouterr().out.split())
        for said in (f"({word} 64;", f"({word} 50)", f"({word} 10)", f"({word} 3)", f"({word} 1KB..256MB,",
                     f"({word} 20)", f"({word} 600)"):  # fmt: skip
            assert said in out, (lang, said)
    assert _cli_job("train").timeout == 600.0


def test_equivalence_json_of_a_range_of_one_size_is_an_array_as_calc_s(capsys):
    """measure equivalence --json: one object for `-d 2` (its default), an array for a list or a range — `-d 2..2`
    too, which printed the object, as calc's `-d 8..8` did (faces.cli.common.one_size)."""
    check = {"dtype": "float32", "max_abs_diff": 0.0, "grad_max": 1.0, "threshold": 1e-4, "passed": True}
    result = {"devices": 2, "batch": 8, "workload": "mlp", "backend": "gloo", "passed": True, "checks": [check]}
    for devices, shape in ((None, dict), ("2", dict), ("2..2", list), ("2,2", list)):
        args = argparse.Namespace(json=True, csv=False, devices=devices, lang="en")
        measure.show_equivalence([result], args)
        got = json.loads(capsys.readouterr().out)
        assert isinstance(got, shape) and (got if shape is dict else got[0])["devices"] == 2


@pytest.mark.parametrize("port", ["99999", "-1", "abc"])
def test_a_port_out_of_range_is_refused_before_torch_is_imported(monkeypatch, port):
    """--port is a plain number (0–65,535): said at once, before the environment checks import torch (1–6 s; it was
    checked only after them, when the launcher was built)."""
    monkeypatch.setattr(measure, "check_environment", lambda *a, **k: pytest.fail("torch's checks came first"))
    with pytest.raises(DpscaleError, match="--port: got '.*'; allowed: a whole number from 0 to 65,535"):
        measure._prepare(measure_args("--port", port), "train", False)


def test_the_earlier_records_threads_are_read_from_out_once(monkeypatch, tmp_path, capsys):
    """_prepare read --out's earlier threads twice — the first set was emptied by .pop() to take its one value, so
    whether to say the note needed a second read of the whole file (review HH). One read now, the same job and note."""
    from dpscale.sources import measure as sources
    from dpscale.sources.measure import launcher, results

    out = tmp_path / "runs.jsonl"
    rec = {"devices": 1, "throughput": 100.0, "efficiency": 1.0, "workload": "mlp", "batch": 64, "steps": 50,
           "warmup": 10, "repeats": 3, "device": "cpu", "backend": "gloo", "zero": 0, "threads": 3}  # fmt: skip
    out.write_text(json.dumps(rec) + "\n")
    reads: list = []
    real = results.earlier_threads
    monkeypatch.setattr(results, "earlier_threads", lambda *a, **k: reads.append(a) or real(*a, **k))
    monkeypatch.setattr(measure, "check_environment", lambda *a, **k: None)
    monkeypatch.setattr(sources, "on_cuda", lambda device: False)
    monkeypatch.setattr(sources, "cores", lambda: 8)
    monkeypatch.setattr(launcher, "Launcher", lambda **k: None)
    job = measure._prepare(measure_args("-d", "2", "--out", str(out)), "train", False)[0]
    assert job.threads == 3 and reads == [(str(out), "mlp", 64, 50, "cpu", 0)]
    assert "3 threads a rank, as the earlier records of this set-up in --out" in capsys.readouterr().err


# Review HK: mutants of _prepare's one read of --out (from_out) that the tests above let live.
def _prepare_on(monkeypatch, out, cuda=False):
    from dpscale.sources import measure as sources
    from dpscale.sources.measure import launcher

    monkeypatch.setattr(measure, "check_environment", lambda *a, **k: None)
    monkeypatch.setattr(sources, "on_cuda", lambda device: cuda)
    monkeypatch.setattr(sources, "cores", lambda: 8)
    monkeypatch.setattr(launcher, "Launcher", lambda **k: None)
    return measure._prepare(measure_args("-d", "2", "--out", str(out)), "train", False)[0]


def test_earlier_records_that_disagree_on_threads_leave_the_default_share_and_say_no_note(
    monkeypatch, tmp_path, capsys
):
    """docs/measure.md's share is taken from --out only where its earlier records of the set-up agree on one: records
    at 3 and at 2 threads leave this -d 2 run the default 8 cores ÷ 2 = 4, unsaid (`len(earlier) >= 1` took
    one of the two, whichever the set gave first, and said it came from the earlier records)."""
    out = tmp_path / "runs.jsonl"
    rec = {"devices": 1, "throughput": 100.0, "efficiency": 1.0, "workload": "mlp", "batch": 64, "steps": 50,
           "warmup": 10, "repeats": 3, "device": "cpu", "backend": "gloo", "zero": 0, "threads": 3}  # fmt: skip
    out.write_text(json.dumps(rec) + "\n" + json.dumps({**rec, "devices": 2, "threads": 2}) + "\n")
    assert _prepare_on(monkeypatch, out).threads == 4
    assert capsys.readouterr().err == ""


def test_a_cuda_run_takes_the_threads_of_the_earlier_cuda_records_not_the_cpu_ones(monkeypatch, tmp_path, capsys):
    """The earlier records are matched on the device as well: --out holding a CPU set-up at 2 threads and a CUDA one
    at 3, a run on CUDA takes 3 (read as 'cpu', it took the CPU records' 2)."""
    out = tmp_path / "runs.jsonl"
    rec = {"devices": 1, "throughput": 100.0, "efficiency": 1.0, "workload": "mlp", "batch": 64, "steps": 50,
           "warmup": 10, "repeats": 3, "device": "cpu", "backend": "gloo", "zero": 0, "threads": 2}  # fmt: skip
    cuda = {**rec, "device": "cuda", "backend": "nccl", "threads": 3}
    out.write_text(json.dumps(rec) + "\n" + json.dumps(cuda) + "\n")
    assert _prepare_on(monkeypatch, out, cuda=True).threads == 3
    assert "3 threads a rank, as the earlier records of this set-up in --out" in capsys.readouterr().err
