"""Review 46 AI: one source of truth for what two places wrote apart (repeated defaults, constants and words)."""

from __future__ import annotations

import argparse

import pytest


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


def test_the_calibration_tag_measure_writes_is_the_one_fit_and_plan_know(tmp_path, monkeypatch):
    """`measure allreduce --out` tagged its file with calibration.FORMAT, and fit (fit_io) and plan
    --efficiency-file (efficiency_file) told it from runs by a copy of the string, CALIBRATION_FORMAT: renamed in
    one, a calibration handed to fit was read as runs. One constant now (sources.measure.CALIBRATION_FORMAT)."""
    import json

    from dpscale import sources
    from dpscale.errors import DpscaleError
    from dpscale.sources import efficiency_file, fit_io
    from dpscale.sources.measure import calibration

    rows = [{"bytes": b, "time_s": 1e-5 + b / 1e10, "algbw_gbs": 1.0, "busbw_gbs": 1.0} for b in (1024, 2048)]
    written = calibration.calibration(rows, 2, "gloo")
    assert written["format"] == "dpscale-allreduce-calibration"
    assert calibration.CALIBRATION_FORMAT is fit_io.CALIBRATION_FORMAT is efficiency_file.CALIBRATION_FORMAT
    assert sources.measure.CALIBRATION_FORMAT == written["format"]
    path = tmp_path / "calib.json"
    path.write_text(json.dumps(written))
    with pytest.raises(DpscaleError, match="an all-reduce calibration"):
        fit_io.read_runs(str(path))
    with pytest.raises(DpscaleError, match="an all-reduce calibration"):
        efficiency_file.read_efficiencies(str(path))


def test_fit_and_its_command_take_one_level_one_bootstrap():
    """fit()'s confidence 0.9, resamples 1000 and seed 0 (what plan --fit fits with), `dpscale fit`'s own "0.9",
    "1000" and "0" (the page's too) and validate --mode fit's CONFIDENCE were four copies: a changed one gave plan
    --fit and fit different intervals for one file of runs. All read sources.fit_io's DEFAULT_* now."""
    import inspect

    from dpscale.faces.cli.fit import add_arguments
    from dpscale.sources import fit_io, fit_validate
    from dpscale.sources.fit import fit

    want = (fit_io.DEFAULT_CONFIDENCE, fit_io.DEFAULT_RESAMPLES, fit_io.DEFAULT_SEED)
    assert want == (0.9, 1000, 0)
    params = inspect.signature(fit).parameters
    assert tuple(params[k].default for k in ("confidence", "resamples", "seed")) == want
    p = argparse.ArgumentParser()
    add_arguments(p)
    args = p.parse_args([])
    assert (float(args.confidence), int(args.resamples), int(args.seed)) == want
    assert fit_validate.CONFIDENCE == want[0]
    said = " ".join(p.format_help().split())
    assert "(default 0.9)" in said and "(default 1000)" in said and "(default 0)" in said


CASES = [  # (argv without the value, the value twice: one the face cannot read, one the layer below refuses)
    (["calc", "--law", "usl", "--sigma"], ("abc", "1.5"), "dpscale.sources.laws", "SIGMA_ALLOWED"),
    (["calc", "--law", "usl", "--kappa"], ("x", "2"), "dpscale.sources.laws", "KAPPA_ALLOWED"),
    (["calc", "--law", "amdahl", "--serial-fraction"], ("x", "1"), "dpscale.sources.laws", "SERIAL_ALLOWED"),
    (["pipeline", "-p", "4", "-m", "8", "--dp-efficiency"], ("x", "2"), "dpscale.errors", "EFFICIENCY_ALLOWED"),
    (["plan", "-n", "1e6", "-v", "1", "--knee-threshold"], ("x", "2"), "dpscale.formulas.plan", "KNEE_ALLOWED"),
    (["predict", "--model", "bert-base", "--system", "dgx-a100", "--mfu"], ("x", "2"), "dpscale.sources.predict",
     "MFU_ALLOWED"),
    (["fit", "--point", "1:1", "--point", "2:2", "--confidence"], ("x", "1"), "dpscale.sources.fit_io",
     "CONFIDENCE_ALLOWED"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "values", "module", "name"), CASES)
def test_a_bound_is_said_in_one_set_of_words(argv, values, module, name, capsys):
    """A face reading a flag's text said its own copy of the words the layer below says for a value out of its
    bound ('--sigma: got 'abc'; allowed: a contention σ in [0, 1)' beside the USL's own 'allowed: a contention σ
    in [0, 1)'): a bound changed below would leave the face's words on the old one. One constant now, at the layer
    that checks the bound (the faces read it), and both errors end in it, in English and in Spanish."""
    import importlib

    from dpscale.faces.cli import main
    from dpscale.faces.i18n.errors_es import ALLOWED

    allowed = getattr(importlib.import_module(module), name)
    for value in values:
        assert main([*argv, value]) == 2
        err = capsys.readouterr().err.strip()
        assert err.endswith(f"; allowed: {allowed}"), err
        assert main([*argv, value, "--lang", "es"]) == 2
        es = capsys.readouterr().err.strip()
        assert es.endswith(f"; se admite: {ALLOWED['es'][allowed]}"), es


def test_calc_and_plan_say_one_per_device_rate(capsys):
    """calc's and plan's --throughput read with one set of words (faces.cli.common.PER_DEVICE_RATE)."""
    from dpscale.faces.cli import main
    from dpscale.faces.cli.common import PER_DEVICE_RATE

    for argv in (["calc", "-d", "2", "-v", "x"], ["plan", "-n", "1e6", "-v", "x"]):
        assert main(argv) == 2
        assert capsys.readouterr().err.strip().endswith(f"--throughput: got 'x'; allowed: {PER_DEVICE_RATE}")


def _help(command: str) -> str:
    """A command's --help in English, its white space folded."""
    import importlib

    from dpscale.faces.cli.common import Parser

    p = Parser(prog=f"dpscale {command}")
    importlib.import_module(f"dpscale.faces.cli.{command}").add_arguments(p)
    return " ".join(p.format_help().split())


def test_a_help_says_the_number_the_layer_below_holds(monkeypatch):
    """batch's '--warmup-epochs (default 5 …)' is formulas.batch's GOYAL_WARMUP_EPOCHS, which batch_plan warms up
    by, and memory's 'fp8 … 18 bytes with Adam' is formulas.memory's (P, G, K) for fp8 with Adam, which its table
    counts: each help wrote the number again, and a changed constant left the help on the old one."""
    from dpscale.formulas import memory
    from dpscale.formulas.batch import batch_plan

    assert "(default 5 with the linear rule, Goyal)" in _help("batch")
    assert batch_plan(32, 16, base_lr=0.1, base_batch=256, dataset_size=1e6).warmup_epochs == 5
    assert "18 bytes with Adam" in _help("memory") and sum(memory.bytes_per_parameter("adam", "fp8")) == 18
    monkeypatch.setattr("dpscale.faces.cli.batch.GOYAL_WARMUP_EPOCHS", 3.0)
    monkeypatch.setitem(memory.BYTES, ("fp8", "adam"), (2, 2, 12))
    assert "(default 3 with the linear rule, Goyal)" in _help("batch")
    assert "16 bytes with Adam" in _help("memory")
