"""`dpscale batch`: global batch, Goyal's learning rate, the critical-batch trade-off, and bad input."""

from __future__ import annotations

import json
import math

import pytest
from clihelp import run, run_main
from hypothesis import given
from hypothesis import strategies as st

import dpscale
from dpscale.errors import DpscaleError
from dpscale.faces.cli import main
from dpscale.formulas.batch import (
    batch_plan,
    critical_batch,
    global_batch,
    scaled_lr,
    steps_per_epoch,
    time_to_target_speedup,
)
from dpscale.sources.laws import USL


def test_global_batch_worked_case():
    assert global_batch(32, 1, 4) == 128  # 4 devices × 32 samples = one step on 128
    assert global_batch(4, 8, 4) == 128  # accumulation counts the same


def test_goyal_linear_rule():
    # Goyal et al. 2017: η = 0.1 at 256, ×k for batch 256k → 3.2 at 8,192.
    assert scaled_lr(0.1, 256, 8192) == pytest.approx(3.2)
    assert scaled_lr(0.1, 256, 8192, "sqrt") == pytest.approx(0.1 * math.sqrt(32))


def test_goyal_plan_with_warmup():
    p = batch_plan(32, 256, base_lr=0.1, base_batch=256, dataset_size=1_281_167)
    assert (p.global_batch, p.rule, p.learning_rate) == (8192, "linear", pytest.approx(3.2))
    assert p.steps_per_epoch == math.ceil(1_281_167 / 8192) == 157
    assert (p.warmup_epochs, p.warmup_steps) == (5.0, 785)  # Goyal's 5-epoch gradual warm-up
    # 0.1 of an epoch of 1,252 steps is 125.2 steps: the nearest whole step, not the next
    assert (
        batch_plan(32, 32, base_lr=0.1, base_batch=256, dataset_size=1_281_167, warmup_epochs=0.1).warmup_steps == 125
    )


def test_goyal_warmup_only_when_the_batch_grew():
    # 32 × 8 = 256 = the reference batch: the LR stays 0.1 and there is nothing to warm up to; 32 × 16 = 512 grew
    same = batch_plan(32, 8, base_lr=0.1, base_batch=256, dataset_size=1_281_167)
    assert same.learning_rate == pytest.approx(0.1) and (same.warmup_epochs, same.warmup_steps) == (None, None)
    grew = batch_plan(32, 16, base_lr=0.1, base_batch=256, dataset_size=1_281_167)
    assert grew.warmup_epochs == 5.0 and grew.warmup_steps == 5 * math.ceil(1_281_167 / 512) == 12_515


def test_a_reference_learning_rate_needs_its_batch_in_the_library_too():
    for kw in (dict(base_lr=0.1), dict(base_batch=256)):
        with pytest.raises(DpscaleError, match="base_lr/base_batch: got .*; allowed: both, or neither"):
            batch_plan(32, 8, **kw)


@pytest.mark.parametrize("bad", [2.5, 0, -256])
def test_the_reference_batch_is_a_whole_count_in_the_library_as_on_the_command_line(bad):
    """--base-batch 2.5 was refused while batch_plan(base_batch=2.5) scaled the rate by 102.4."""
    with pytest.raises(DpscaleError, match=f"base_batch: got {bad}; allowed: a whole number ≥ 1"):
        batch_plan(32, 8, base_lr=0.1, base_batch=bad)
    assert batch_plan(32, 256, base_lr=0.1, base_batch=256.0).learning_rate == pytest.approx(3.2)  # 256.0 is 256


def test_the_linear_rule_past_goyals_8192_is_flagged_in_the_library_too():
    """The CLI alone said it: batch_plan's callers (and the JSON) scaled the rate to a 16k batch unwarned."""
    kw = dict(base_lr=0.1, base_batch=256)
    assert batch_plan(32, 256, **kw).past_goyal is False  # 8,192: Goyal's own batch
    assert batch_plan(32, 512, **kw).past_goyal is True and batch_plan(32, 512, **kw).learning_rate == 6.4
    assert batch_plan(32, 512, optimizer="adam", **kw).past_goyal is None  # the square-root rule: not Goyal's claim
    assert batch_plan(32, 512).past_goyal is None  # no learning rate asked


def test_adam_defaults_to_sqrt_without_warmup():
    p = batch_plan(64, 16, base_lr=1e-4, base_batch=256, optimizer="adam")
    assert p.rule == "sqrt" and p.learning_rate == pytest.approx(2e-4) and p.warmup_epochs is None


def test_critical_batch_trade_off():
    c = critical_batch(1024, 4096, min_steps=1000)
    assert c.steps_factor == 5.0 and c.samples_factor == 1.25
    assert c.steps == 5000 and c.samples == 4096 * 1000 * 1.25 == c.steps * 1024  # E = S·B
    assert not c.far_past and critical_batch(8193, 4096).far_past
    assert not critical_batch(8192, 4096).far_past  # B = 2·B_noise exactly: 3× the minimum samples, not past it


def test_time_to_target_limits():
    # b ≪ B_noise: the whole hardware speedup d·E is useful; b ≫ B_noise: only E.
    assert time_to_target_speedup(64, 1, 1e9, 0.9) == pytest.approx(64 * 0.9, rel=1e-6)
    assert time_to_target_speedup(64, 1e9, 1, 0.9) == pytest.approx(0.9, rel=1e-6)
    assert time_to_target_speedup(4, 32, 32, 1.0) == pytest.approx(2 / 1.25)  # β = 1: (1+1)/(1+1/4)


@given(
    d=st.integers(1, 4096),
    b=st.floats(1, 1e5),
    bn=st.floats(1, 1e7),
    e=st.floats(0.05, 1.0),
)
def test_time_to_target_bounded_by_hardware(d, b, bn, e):
    s = time_to_target_speedup(d, b, bn, e)
    e_d = 1.0 if d == 1 else e  # a constant E holds from two devices on
    assert e_d * (1 - 1e-9) <= s <= d * e_d * (1 + 1e-9)


@given(b=st.floats(1, 1e7), bn=st.floats(1, 1e7))
def test_trade_off_hyperbola(b, bn):
    c = critical_batch(b, bn)
    assert (c.steps_factor - 1) * (c.samples_factor - 1) == pytest.approx(1.0)  # McCandlish et al.


@given(k=st.floats(1, 1e4), lr=st.floats(1e-6, 1.0))
def test_sqrt_rule_is_gentler(k, lr):
    assert scaled_lr(lr, 256, 256 * k, "sqrt") <= scaled_lr(lr, 256, 256 * k, "linear") * (1 + 1e-12)


def test_api_errors():
    with pytest.raises(DpscaleError, match="micro_batch"):
        global_batch(0)
    with pytest.raises(DpscaleError, match="rule: got 'cube'"):
        scaled_lr(0.1, 256, 512, "cube")
    with pytest.raises(DpscaleError, match="dataset_size"):
        steps_per_epoch(-1, 8)


# -- CLI ----------------------------------------------------------------------------------------


def test_cli_goyal_json(capsys):
    argv = ["batch", "--micro-batch", "32", "--devices", "256", "--base-lr", "0.1", "--base-batch", "256"]
    rc, out, _ = run(capsys, *argv, "--dataset-size", "1281167", "--json")
    rec = json.loads(out)
    assert rc == 0
    assert (rec["global_batch"], rec["learning_rate"], rec["warmup_steps"]) == (8192, 3.2, 785)


def test_cli_says_where_the_linear_rule_was_not_shown_to_hold(capsys):
    argv = ["batch", "-b", "32", "--base-lr", "0.1", "--base-batch", "256", "-d"]
    _, out, _ = run(capsys, *argv, "512")  # 16,384 samples: twice what Goyal et al. trained
    assert "past a batch of 8,192 samples the linear rule was not shown" in out
    _, out, _ = run(capsys, *argv, "256")  # 8,192: their largest batch
    assert "linear rule was not shown" not in out


def test_cli_worked_example(capsys):
    rc, out, _ = run(capsys, "batch", "--json")
    assert rc == 0 and json.loads(out)["global_batch"] == 128


def test_cli_critical_batch_warning_and_sweep(capsys):
    argv = ["batch", "-b", "32", "-d", "8..512x2", "--noise-scale", "4096", "--min-steps", "2000", "-e", "0.9"]
    rc, out, _ = run(capsys, *argv)
    assert rc == 0 and "B_noise (warning above 2.00×)" in out
    rc, out, _ = run(capsys, *argv, "--json")
    rows = json.loads(out)
    assert [r["global_batch"] for r in rows] == [256, 512, 1024, 2048, 4096, 8192, 16384]
    assert rows[-1]["far_past_noise"] is True and rows[0]["far_past_noise"] is False
    assert rows[0]["time_to_target_speedup"] == pytest.approx(0.9 * (1 + 128) / (1 + 128 / 8))


def test_the_table_shows_steps_and_samples_to_the_target(capsys):
    """McCandlish et al.: S_min = 100 steps at B_noise = 1,000 is E_min = 100,000 samples; at B = 4 × 32 = 128,
    steps = 100 × (1 + 1,000/128) = 881.25 and samples = 100,000 × (1 + 128/1,000) = 112,800 — both in the table,
    not only in --json."""
    rc, out, _ = run(capsys, "batch", "-b", "32", "-d", "4", "--noise-scale", "1000", "--min-steps", "100")
    lines = [" ".join(line.split()) for line in out.splitlines()]
    assert rc == 0 and "steps to target 881" in lines and "samples to target 112,800" in lines


def test_cli_law_and_plot(capsys, tmp_path):
    path = tmp_path / "speedup.svg"
    argv = ["batch", "-b", "16", "-d", "1..64x2", "--noise-scale", "2000", "--law", "usl", "--sigma", "0.02"]
    rc, out, _ = run(capsys, *argv, "--plot", str(path), "--json")
    rows = json.loads(out)
    assert rc == 0 and path.stat().st_size > 1000
    assert rows[-1]["hardware_speedup"] == pytest.approx(64 * USL(0.02).efficiency(64))


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["-b", "0", "-d", "4"], "--micro-batch: got '0'; allowed: a whole number ≥ 1"),
        (["-b", "2,5", "-d", "4"], "--micro-batch: got '2,5'; allowed: a whole number ≥ 1"),  # no '2.5' hint
        (["-b", "2,000", "-d", "4"], "--micro-batch: got '2,000'; allowed: a number without thousands separators"),
        (["-b", "32", "-d", "0"], "--devices: got '0'"),
        (["-b", "32", "--grad-accum=-2"], "--grad-accum: got '-2'"),
        (["-b", "32", "--base-lr", "0.1"], "--base-batch: missing"),
        (["--base-lr", "0.2"], "--base-batch: missing"),  # not the worked example's 0.1 at 256 in its place
        (
            ["-b", "32", "--base-lr", "0", "--base-batch", "256"],
            "--base-lr: got '0'; allowed: a learning rate from 1e-12 to 1e6",
        ),
        (["-b", "32", "--base-lr", "0.1", "--base-batch", "256", "--rule", "cube"], "--rule: got 'cube'; allowed"),
        (["-b", "32", "--optimizer", "lamb"], "--optimizer: got 'lamb'; allowed: sgd, adam"),
        (
            ["-b", "32", "--noise-scale", "-5"],
            "--noise-scale: got '-5'; allowed: a noise scale B_noise from 1e-9 to 1e15 samples",
        ),
        (["-b", "32", "--noise-scale=0"], "--noise-scale: got '0'"),
        (["-b", "32", "--min-steps", "100"], "--min-steps: needs --noise-scale"),
        (["-b", "32", "-d", "8", "-e", "1.5"], "--efficiency: got '1.5'"),
        (["-b", "32", "--plot", "s.png"], "--plot: needs E"),
        (
            [
                "-b",
                "32",
                "-d",
                "8",
                "--warmup-epochs",
                "1e308",
                "--dataset-size",
                "1e6",
                "--base-lr",
                "0.1",
                "--base-batch",
                "256",
            ],
            "--warmup-epochs: got 1e+308; allowed: a number of epochs from 0 to 10,000",  # was a generic overflow
        ),
        (
            ["-b", "32", "-d", "8", "--warmup-epochs", "5"],  # once ignored silently; the library's rule as the CLI's
            "--warmup-epochs: got 5; allowed: with --base-lr and --base-batch (the reference learning rate)",
        ),
        # a bad value given is named before the flag left out (each said '--micro-batch: missing')
        (["-d", "0"], "--devices: got '0'; allowed: whole numbers from 1"),
        (["--optimizer", "lion"], "--optimizer: got 'lion'; allowed: sgd, adam, adamw"),
        (["--base-lr", "nan", "--base-batch", "256"], "--base-lr: got 'nan'; allowed: a learning rate"),
    ],
)
def test_cli_bad_input(capsys, argv, needle):
    rc, out, err = run(capsys, "batch", *argv)
    assert rc == 2 and out == ""
    assert needle in err and err.count("\n") == 1


def test_a_rule_asked_against_the_optimizer_is_said_so_not_contradicted(capsys):
    argv = ["batch", "-b", "4", "-d", "64", "--base-lr", "3e-4", "--base-batch", "256"]
    rc, out, _ = run(capsys, *argv, "--optimizer", "adam", "--rule", "linear")
    assert rc == 0 and "linear rule, as --rule asks" in out and "use --optimizer adam" not in out
    rc, out, _ = run(capsys, *argv, "--optimizer", "sgd", "--rule", "sqrt")
    assert "square-root rule, as --rule asks" in out and "use --optimizer sgd" not in out
    rc, out, _ = run(capsys, *argv)  # sgd's own rule: the advice for Adam users stays
    assert "for Adam/AdamW use --optimizer adam" in out


def test_the_worked_example_only_when_nothing_was_typed(capsys):
    rc, out, _ = run(capsys, "batch", "--json")
    assert rc == 0 and json.loads(out)["global_batch"] == 128  # 4 × 32
    # a reference LR without the batch it applies to: once silently 4 devices × 32
    rc, _, err = run(capsys, "batch", "--base-lr", "0.1", "--base-batch", "256", "--dataset-size", "1e6")
    assert rc == 2 and "--micro-batch: missing" in err


@pytest.mark.parametrize(
    "argv, needle",
    [
        (
            ["--dataset-size", "1e300"],
            "--dataset-size: got '1e300'; allowed: a whole number from 1 to 1,000,000,000,000,000",
        ),
        (["-b", "1e15", "-k", "1e15"], "--micro-batch × --grad-accum × --devices: got 1000000000000000000000000000000"),
    ],
)
def test_counts_that_would_print_hundreds_of_digits_are_refused(capsys, argv, needle):
    """1e300 samples made a 301-digit steps_per_epoch; 1e15 × 1e15 a 31-digit global batch, with exit 0."""
    base = ["-b", "32", "-d", "8", "--base-lr", "0.1", "--base-batch", "256"] if argv[0] != "-b" else []
    rc, out, err = run(capsys, "batch", *base, *argv)
    assert rc == 2 and out == "" and needle in err and err.count("\n") == 1


def test_min_steps_without_a_noise_scale_is_refused_not_dropped():
    """S_min scales steps only through B_noise (S = S_min·(1 + B_noise/B)); the CLI refused it alone, the library
    ignored it."""
    with pytest.raises(DpscaleError, match="min_steps: got 100; allowed: with noise_scale"):
        batch_plan(32, 8, min_steps=100)
    assert batch_plan(32, 8, noise_scale=4096, min_steps=1000).steps_to_target == pytest.approx(1000 * (1 + 4096 / 256))


def test_one_accumulation_step_is_singular_in_both_languages(capsys):
    assert run(capsys, "batch", "-b", "32", "-d", "8")[1].startswith("Batch: micro-batch 32 × 1 accumulation step ×")
    rc, out, _ = run(capsys, "batch", "-b", "32", "-d", "8", "--lang", "es")
    assert rc == 0 and out.startswith("Lote: microlote 32 × 1 paso de acumulación ×")
    assert "× 4 accumulation steps ×" in run(capsys, "batch", "-b", "32", "-d", "8", "--grad-accum", "4")[1]


def test_the_title_groups_the_micro_batch_and_the_steps_as_it_groups_the_devices(capsys):
    """Review MP: `dpscale batch -b 1024 -k 2000 -d 2048 --lang es` titled its answer 'Lote: microlote 1024 × 2000
    pasos de acumulación × 2.048 dispositivos' (English 'micro-batch 1024 × 2000 accumulation steps × 2,048
    devices'): the micro-batch and the steps reached the title as bare ints, the devices grouped."""
    title = lambda *a: run(capsys, "batch", "-b", "1024", "-k", "2000", "-d", "2048", *a)[1].splitlines()[0]  # noqa: E731
    assert title() == "Batch: micro-batch 1,024 × 2,000 accumulation steps × 2,048 devices"
    assert title("--lang", "es") == "Lote: microlote 1.024 × 2.000 pasos de acumulación × 2.048 dispositivos"


def test_one_size_is_counted_in_the_title(capsys):
    """'Batch: micro-batch 32 × 1 accumulation step × devices' above a one-row answer read as a count left out: one
    size says its count (1 device in the singular), a sweep keeps 'devices' over its rows."""
    title = lambda *a: run(capsys, "batch", "-b", "32", *a)[1].splitlines()[0]  # noqa: E731
    assert title("-d", "128") == "Batch: micro-batch 32 × 1 accumulation step × 128 devices"
    assert title("-d", "1") == "Batch: micro-batch 32 × 1 accumulation step × 1 device"
    assert title("-d", "8,64", "-k", "2") == "Batch: micro-batch 32 × 2 accumulation steps × devices"
    assert title("-d", "1024", "--lang", "es") == "Lote: microlote 32 × 1 paso de acumulación × 1.024 dispositivos"
    assert title("-d", "1", "--lang", "es") == "Lote: microlote 32 × 1 paso de acumulación × 1 dispositivo"


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--dataset-size", "100.7"], "--dataset-size: got '100.7'; allowed: a whole number from 1 to"),
        (["--base-batch", "2.5", "--base-lr", "1"], "--base-batch: got '2.5'; allowed: a whole number ≥ 1"),
        (["--base-lr", "abc"], "--base-lr: got 'abc'"),  # was '--base-batch: missing'
    ],
)
def test_sample_counts_are_whole_and_a_bad_value_is_named_first(capsys, argv, said):
    rc, _, err = run(capsys, "batch", "-b", "32", "-d", "8", *argv)
    assert rc == 2 and said in err


def test_a_global_batch_that_covers_the_dataset_gets_a_note(capsys):
    rc, out, _ = run(capsys, "batch", "-b", "32", "-d", "8", "--dataset-size", "100")
    assert rc == 0 and "one step an epoch from 8 devices on: the global batch (256) covers the whole dataset" in out
    rc, out, _ = run(capsys, "batch", "-b", "32", "-d", "8", "--dataset-size", "1000")
    assert rc == 0 and "covers the whole dataset" not in out


@pytest.mark.parametrize("lang, said", [("en", "at the critical batch B = B_noise = 2,000 both are 2×"),
                                        ("es", "en el lote crítico B = B_ruido = 2.000 ambos valen 2×")])  # fmt: skip
def test_the_factor_columns_are_explained_with_the_critical_batch(capsys, lang, said):
    """'steps ×' and 'samples ×' appeared with a noise scale and nothing said what they were against."""
    rc, out, err = run(capsys, "batch", "-b", "32", "-d", "1,8,64", "--noise-scale", "2000", "--lang", lang)
    assert rc == 0 and said in out + err
    rc, out, err = run(capsys, "batch", "-b", "32", "-d", "1,8,64", "--lang", lang)
    assert "B_noise =" not in out + err and "B_ruido =" not in out + err


def test_a_fractional_noise_scale_is_said_as_given(capsys):
    """B_noise = 2.5 was said '2' in the critical-batch note (an int's format)."""
    rc, out, err = run(capsys, "batch", "-b", "1", "-d", "1,8", "--noise-scale", "2.5")
    assert rc == 0 and "B = B_noise = 2.5 both are 2×" in out + err


def test_adamw_takes_the_square_root_rule():
    """3e-4 at batch 32 → 3e-4·√8 = 8.485e-4 at 256 (Malladi et al.'s rule for adaptive methods)."""
    import dpscale

    assert dpscale.batch_plan(32, 8, base_lr=3e-4, base_batch=32, optimizer="adamw").learning_rate == pytest.approx(
        3e-4 * 8**0.5
    )


def test_warm_up_without_a_reference_learning_rate_is_refused_by_the_library_as_by_the_cli():
    """The CLI refused --warmup-epochs without --base-lr while batch_plan(…, warmup_epochs=5) returned warm-up
    steps: one rule, in the library — a warm-up ramps a learning rate, as --rule scales one."""
    with pytest.raises(DpscaleError, match="^warmup_epochs: got 5; allowed: with base_lr and base_batch"):
        batch_plan(32, 8, dataset_size=1e6, warmup_epochs=5)
    plan = batch_plan(32, 8, base_lr=0.1, base_batch=256, dataset_size=1e6, warmup_epochs=5)
    assert plan.warmup_steps == 5 * 3907  # 5 epochs of ⌈1e6/256⌉ steps


@pytest.mark.parametrize("typed", [["-k", "8"], ["--optimizer", "adam"]])
def test_the_worked_example_filling_in_is_said(capsys, typed):
    """`batch -k 8` planned 4 devices × 32 that were never typed, without a word (pipeline, memory and plan say it)."""
    rc, out, _ = run(capsys, "batch", *typed)
    assert (
        rc == 0
        and (
            "the worked example filled in --micro-batch 32, --devices 4, --base-lr 0.1, --base-batch 256, "
            "--dataset-size 1.28e6, which were not given"
        )
        in out
    )
    rc, out, _ = run(capsys, "batch")
    assert rc == 0 and "filled in" not in out
    # Goyal et al.'s reference scaled to 4 × 32: LR 0.1 × 128/256 = 0.05, 1.28e6 / 128 = 10,000 steps an epoch
    assert "learning rate    0.05\n" in out and "steps per epoch  10,000\n" in out


# Session 42's boundary audit of every command (values at and just past each bound, -0, subnormals): what it
# found, as tests.


@pytest.mark.parametrize("fmt", ["--json", "--csv"])
def test_a_negative_zero_warm_up_is_written_as_zero(capsys, fmt):
    """--warmup-epochs -0 was written "warmup_epochs": -0.0 in the JSON and -0.0 in the CSV."""
    argv = ["batch", "-b", "32", "-d", "8", "--base-lr", "0.1", "--base-batch", "256", "--warmup-epochs", "-0", fmt]
    assert main(argv) == 0
    out = capsys.readouterr().out
    if fmt == "--json":
        assert json.loads(out)["warmup_epochs"] == 0 and '"warmup_epochs": 0.0' in out
    else:
        head, row = out.splitlines()[:2]
        assert dict(zip(head.split(","), row.split(",")))["warmup_epochs"] == "0.0"
    assert "-0" not in out
    assert str(dpscale.batch_plan(32, 8, base_lr=0.1, base_batch=256, warmup_epochs=-0.0).warmup_epochs) == "0.0"


# What a user-journey review (session 37: Llama-7B on DGX H100s, ResNet-50 on DGX A100s, 1F1B with data
# parallelism, each command's output fed to the next) found confusing or inconsistent, each pinned.


def test_learning_rates_read_in_four_figures_down_the_column(capsys):
    """3e-4 × √(B/256) printed as 3.000e-04, 4.243e-04, …, 0.0012, 0.00169706, 0.0024: three formats in a column."""
    rc, out, _ = run(capsys, "batch", "-b", "4", "-k", "8", "-d", "8..512x2", "--base-lr", "3e-4", "--base-batch",
                     "256", "--optimizer", "adamw")  # fmt: skip
    rates = [line.split()[-1] for line in out.splitlines()[3:10]]
    assert rc == 0 and rates == ["0.0003", "0.0004243", "0.0006", "0.0008485", "0.0012", "0.001697", "0.0024"]


# Cases a mutation sweep found no test could fail on: each pins a number by hand, so a change to the line it
# names (a bound, a term, a choice of min/max) fails here.


def test_a_global_batch_of_exactly_two_to_the_53_is_allowed():
    # The error says 'at most 2^53 samples': 2^26 × 2^27 × 1 = 2^53 is the largest allowed, one more device is not.
    assert global_batch(2**26, 2**27, 1) == 2**53 == 9_007_199_254_740_992
    with pytest.raises(DpscaleError, match="at most 2"):
        global_batch(2**26, 2**27, 2)


# Mutation sweep 13 (of the modules earlier sweeps touched least: measure's launcher, results, calibration and
# workloads; the fit, validate, pipeline and batch commands; formulas batch, pipeline, compute and units; the web
# app): gaps the suite left open, each killing a surviving mutant.


# ---- formulas/batch.py ---------------------------------------------------------------------------------------
def test_a_warm_up_of_thousands_of_epochs_is_within_the_documented_range():
    """batch.py:183 the bound 1e4 → 1e3. Warm-up takes 0 to 10,000 epochs (its own message): 5,000 is taken and
    gives 5,000 × ⌈1,280 / 128⌉ = 50,000 warm-up steps; 10,001 is refused."""
    p = batch_plan(32, 4, base_lr=0.1, base_batch=128, dataset_size=1280, warmup_epochs=5000)
    assert (p.warmup_epochs, p.steps_per_epoch, p.warmup_steps) == (5000, 10, 50_000)
    with pytest.raises(DpscaleError, match="^warmup_epochs: got 10001"):
        batch_plan(32, 4, base_lr=0.1, base_batch=128, dataset_size=1280, warmup_epochs=10001)


# Cases a second mutation sweep (session 20: formulas.pipeline/batch/overlap, sources.dataset/predict_validate,
# faces.cli.memory/batch; 245 mutants, 38 survivors) found no test could fail on. Each fails on its mutant, named by
# the file and line it was made at, and passes on the code as it is.


def test_min_steps_may_be_a_fraction_of_a_step():
    """batch.py:89 — S_min is bounded 1e-9 … 1e15 as documented, not ≥ 1."""
    cb = critical_batch(256, 1024, min_steps=0.5)
    assert cb.steps == pytest.approx(0.5 * (1 + 1024 / 256))  # 2.5
    assert cb.samples == pytest.approx(1024 * 0.5 * (1 + 256 / 1024))  # 640


# ---------------------------------------------------------------- faces.cli.batch

LR = ["--base-lr", "0.1", "--base-batch", "256"]


def test_devices_alone_is_not_the_worked_example(capsys):
    """cli/batch.py:69 — `batch --devices 8` once answered for 4 devices × 32."""
    rc, out, err = run(capsys, "batch", "--devices", "8")
    assert rc == 2 and out == "" and "--micro-batch: missing" in err


def test_zero_warmup_epochs_is_allowed_and_says_no_warmup(capsys):
    """cli/batch.py:93 (warm < 0) and :149 (a 0-epoch warm-up is no warm-up note)."""
    argv = ["batch", "-b", "32", "-d", "8", *LR, "--warmup-epochs", "0", "--dataset-size", "1e6"]
    rc, out, err = run(capsys, *argv, "--json")
    assert rc == 0 and json.loads(out)["warmup_steps"] == 0
    assert "warm-up: ramp" not in err


@pytest.mark.parametrize("sizes", ["1,512", "512,1", "512,8"])
def test_sweep_notes_describe_every_size_in_any_order(capsys, sizes):
    """cli/batch.py _notes — 512 × 32 = 16,384 > 8,192 and its warm-up are said whichever size was typed last
    (the notes read the last one alone: `-d 512,8` dropped both)."""
    rc, out, err = run(capsys, "batch", "-b", "32", "-d", sizes, *LR)
    assert rc == 0
    assert "over 5 epochs" in out + err and "past a batch of 8,192 samples the linear rule" in out + err


def test_the_goyal_bound_is_said_for_the_linear_rule_only(capsys):
    """cli/batch.py:151 — Adam's square-root rule at 16,384 gets no note about Goyal's linear rule."""
    rc, out, err = run(capsys, "batch", "-b", "32", "-d", "512", *LR, "--optimizer", "adam")
    assert rc == 0 and "square-root rule" in out + err and "past 8,192" not in out + err


def test_far_past_noise_note_names_the_first_size_and_its_ratios(capsys):
    """cli/batch.py:157–163 — 4 × 32 = 128 = 4× B_noise 32; samples × 1 + 128/32 = 5."""
    rc, out, err = run(capsys, "batch", "-b", "32", "-d", "4,8", "--noise-scale", "32")
    assert rc == 0
    assert "global batch 128 is 4.00× B_noise (warning above 2.00×): 5.00× the minimum samples" in out + err


def test_past_dataset_note_names_the_first_size(capsys):
    """cli/batch.py:169 — one step an epoch from 4 devices on (not 8)."""
    rc, out, err = run(capsys, "batch", "-b", "32", "-d", "4,8", "--dataset-size", "100")
    assert rc == 0 and "one step an epoch from 4 devices on: the global batch (128)" in out + err


def test_time_to_target_note_only_with_a_noise_scale(capsys):
    """cli/batch.py:170 — E alone gives the hardware speedup; the β formula is explained only with B_noise."""
    rc, out, err = run(capsys, "batch", "-b", "32", "-d", "8", "--efficiency", "0.9")
    assert rc == 0 and "hardware speedup" in out and "time-to-target" not in out + err
    rc, out, err = run(capsys, "batch", "-b", "32", "-d", "8", "--efficiency", "0.9", "--noise-scale", "64")
    assert rc == 0 and "time-to-target speedup = E(d)" in out + err


def test_plot_draws_ideal_hardware_and_time_to_target(capsys, tmp_path, monkeypatch):
    """cli/batch.py:184–188 — ideal y = d, hardware d·E, time-to-target E·(1+β)/(1+β/d)."""
    import dpscale.faces.plot as plot

    drawn = {}

    def save(fig, out, flag="--plot"):
        drawn.update({ln.get_label(): [float(y) for y in ln.get_ydata()] for ln in fig.axes[0].get_lines()})
        return out

    monkeypatch.setattr(plot, "save", save)
    argv = ["batch", "-b", "16", "-d", "1,2,4", "--noise-scale", "32", "-e", "0.5", "--plot", str(tmp_path / "s.png")]
    rc, out, err = run(capsys, *argv, "--lang", "en")
    assert rc == 0, err
    lines = list(drawn.values())
    assert [1.0, 2.0, 4.0] in lines  # ideal
    beta = 32 / 16
    tt = [1.0] + [0.5 * (1 + beta) / (1 + beta / d) for d in (2, 4)]  # E(1) = 1
    assert any(y == pytest.approx(tt) for y in lines), lines


# Cases a third mutation sweep (session 28: formulas, sources.laws/fit_laws/predict; 180 mutants, 9 non-equivalent
# survivors that change an answer) found no test could fail on. Each expected figure is derived in its comment, not
# read off the program.


def test_time_to_target_speedup_counts_the_accumulated_batch():
    """E(d)·(1 + β)/(1 + β/d) with β = B_noise / (per-device batch): the per-device batch is micro-batch ×
    accumulation, 32 × 4 = 128, so β = 1,024/128 = 8 and 0.9 · 9 / 2 = 4.05 (the micro-batch alone gives 5.94)."""
    plan = batch_plan(micro_batch=32, devices=8, grad_accum=4, noise_scale=1024, efficiency=0.9)
    assert plan.time_to_target_speedup == pytest.approx(4.05, rel=1e-12)


# Review 45 BB: mutation testing of the day's changes — each test kills a mutant that survived the suite and that a
# user would have seen (a wrong number or a wrong word).


def test_batch_notes_name_the_smallest_size_whatever_order_the_sizes_were_typed(capsys):
    rc, out, err = run_main(capsys, "batch", "-b", "32", "-d", "8,4", "--noise-scale", "32")
    assert rc == 0
    assert "global batch 128 is 4.00× B_noise (warning above 2.00×): 5.00× the minimum samples" in out + err
    rc, out, err = run_main(capsys, "batch", "-b", "32", "-d", "8,4", "--dataset-size", "100")
    assert rc == 0 and "one step an epoch from 4 devices on: the global batch (128)" in out + err


# Review R (session 45): plan, memory, batch and pipeline against published figures, and their --json rows.


# batch: a note about sizes names the smallest it holds from, whatever order the sizes came in


def _notes(capsys, *argv: str) -> list[str]:
    rc, out, err = run(capsys, "batch", *argv)
    assert rc == 0, err
    return [line for line in (out + err).splitlines() if line.startswith("note:")]


def test_batch_one_step_an_epoch_is_said_from_the_smallest_size_that_takes_one(capsys):
    kw = ("-b", "32", "--base-lr", "0.1", "--base-batch", "256", "--dataset-size", "3000")
    typed = _notes(capsys, "-d", "512,128,8", *kw)
    # 128 × 32 = 4,096 ≥ 3,000 samples: one step an epoch from 128 devices on (it said 512, the first typed)
    said = [n for n in typed if "one step an epoch" in n]
    assert said == [
        "note: one step an epoch from 128 devices on: the global batch (4,096) covers the whole dataset — check "
        "--dataset-size and the batch"
    ]
    assert typed == _notes(capsys, "-d", "8,128,512", *kw)  # the same plan, the same notes


def test_batch_far_past_the_noise_scale_is_said_of_the_smallest_batch_past_it(capsys):
    # McCandlish et al.: E/E_min = 1 + B/B_noise; B = 4,096 against B_noise = 1,000 is 4.10×, 5.10× the samples
    typed = _notes(capsys, "-b", "32", "-d", "512,128,8", "--noise-scale", "1000")
    far = [n for n in typed if "B_noise (warning" in n]
    assert far == [
        "note: global batch 4,096 is 4.10× B_noise (warning above 2.00×): 5.10× the minimum samples for the same loss "
        "— extra devices mostly buy throughput, not progress"
    ]
    assert typed == _notes(capsys, "-b", "32", "-d", "8,128,512", "--noise-scale", "1000")


def test_an_e_per_size_without_devices_asks_for_them_not_for_the_one_device_default(capsys):
    """batch's size is 1 device when no --devices is typed: 'got 2 values for 1 device count' named a count the
    user never gave; the line is calc's and plan's for an E per size with no sizes typed."""
    rc, _, err = run(capsys, "batch", "--micro-batch", "32", "--efficiency", "0.9,0.8")
    said_ = (
        "dpscale batch: error: --efficiency: got '0.9,0.8'; allowed: one value, or one per size given in --devices\n"
    )
    assert (rc, err) == (2, said_)
    rc, _, err = run(capsys, "batch", "--micro-batch", "32", "-d", "1,2", "--efficiency", "0.9,0.8,0.7")
    assert rc == 2 and "got 3 values for 2 device counts; allowed: one value, or one per device count" in err


def test_a_global_batch_is_told_as_its_factors(capsys):
    """`batch --global-batch 4096 --base-lr 0.1 --base-batch 256` was told 'did you mean --base-batch?' — the
    reference batch, not the one asked for. The command's global batch is micro-batch × accumulation × devices (its
    title and its rows over a --devices sweep keep one micro-batch), so the refusal says which -b and -d give the
    batch typed — the largest micro-batch of 32…2 that leaves two devices or more, else all of it on one device — and
    that plan is the answer asked for: 0.1 × 4,096/256 = 1.6."""
    argv = ("batch", "--base-lr", "0.1", "--base-batch", "256")
    for typed, hint in ((["--global-batch", "4096"], "-b 32 -d 128 gives 4,096"),
                        (["--global-batch=1000"], "-b 8 -d 125 gives 1,000"),
                        (["--global-batch", "997"], "-b 997 -d 1 gives 997"),
                        # 32 a device leaves one device: 16 on two; 6 is a multiple of none of 32…4: 2 on three
                        (["--global-batch", "32"], "-b 16 -d 2 gives 32"),
                        (["--global-batch", "6"], "-b 2 -d 3 gives 6"),
                        (["--global-batch", "4k"], "-b 32 -d 128 gives 4,096"),  # not a count: the example
                        (["--global-batch"], "-b 32 -d 128 gives 4,096")):  # fmt: skip
        rc, out, err = run(capsys, *argv, *typed)
        assert rc == 2 and not out
        assert err == (
            "dpscale batch: error: --global-batch: not an option; the global batch is --micro-batch × --grad-accum × "
            f"--devices: {hint} (see --help)\n"
        )
    rc, _, err = run(capsys, *argv, "--global-batch", "8192", "--lang", "es")
    assert rc == 2 and err == (
        "dpscale batch: error: --global-batch: no es una opción; el lote global es --micro-batch × --grad-accum × "
        "--devices: -b 32 -d 256 da 8.192 (vea --help)\n"
    )
    rc, out, _ = run(capsys, *argv, "-b", "32", "-d", "128", "--json")  # what the refusal said to type
    row = json.loads(out)
    assert rc == 0 and row["global_batch"] == 4096 and row["learning_rate"] == pytest.approx(1.6)
    rc, _, err = run(capsys, *argv, "--base-batc", "3")  # other options are still hinted as before
    assert rc == 2 and "unrecognized arguments: --base-batc 3 (did you mean --base-batch?)" in err


def test_a_global_batch_with_devices_typed_is_told_the_micro_batch_for_them(capsys):
    """`--global-batch 4096 -d 8` was told '-b 32 -d 128', another cluster than the 8 devices typed: the hint keeps
    the typed count (a typed micro-batch or accumulation too) and gives the factor left out, the nearest where the
    batch is no multiple of them — its 'gives' says what that makes (997 on 8 devices: 125 a device, 1,000)."""
    said = "dpscale batch: error: --global-batch: not an option; the global batch is --micro-batch × --grad-accum × "
    for typed, hint in ((["4096", "-d", "8"], "-b 512 -d 8 gives 4,096"),
                        (["997", "--devices=8"], "-b 125 -d 8 gives 1,000"),
                        (["4096", "-d8", "-k", "4"], "-b 128 -d 8 -k 4 gives 4,096"),
                        (["3", "-d", "8"], "-b 1 -d 8 gives 8"),  # fewer samples than devices: one each
                        (["4096", "-d", "8,16"], "-b 32 -d 128 gives 4,096"),  # a list: no one count to keep
                        (["4096", "-b", "64"], "-b 64 -d 64 gives 4,096"),  # a micro-batch typed: the devices for it
                        (["4096", "-b", "48"], "-b 48 -d 85 gives 4,080"),
                        (["4096", "-k", "4"], "-b 32 -d 32 -k 4 gives 4,096")):  # fmt: skip
        rc, out, err = run(capsys, "batch", "--global-batch", *typed)
        assert (rc, out) == (2, "") and err == f"{said}--devices: {hint} (see --help)\n", typed
    rc, out, _ = run(capsys, "batch", "-b", "128", "-d", "8", "-k", "4", "--json")  # what the refusal said to type
    assert rc == 0 and json.loads(out)["global_batch"] == 4096


def test_a_global_batch_is_read_as_batch_reads_a_count(capsys):
    """`--global-batch 1e3` was told '-b 32 -d 128 gives 4,096', the example for a value that is no count, though
    -b and -d read 1e3 as 1,000 (and 4096.0, ' 1000' as counts): the hint now reads the count as they do; 0, -1, 4k
    and 1_000 (review HI), which they refuse, still get the example."""
    argv = ("batch", "--base-lr", "0.1", "--base-batch", "256", "--global-batch")
    said = "dpscale batch: error: --global-batch: not an option; the global batch is --micro-batch × --grad-accum × "
    for typed, hint in (("1e3", "-b 8 -d 125 gives 1,000"), ("1_000", "-b 32 -d 128 gives 4,096"),
                        (" 1000", "-b 8 -d 125 gives 1,000"), ("4096.0", "-b 32 -d 128 gives 4,096"),
                        ("2e4", "-b 32 -d 625 gives 20,000"), ("0", "-b 32 -d 128 gives 4,096"),
                        ("-1", "-b 32 -d 128 gives 4,096"), ("1.5e3", "-b 4 -d 375 gives 1,500")):  # fmt: skip
        rc, out, err = run(capsys, *argv, typed)
        assert (rc, out) == (2, "") and err == f"{said}--devices: {hint} (see --help)\n", typed
    rc, _, err = run(capsys, *argv, "1e3", "--lang", "es")
    assert rc == 2 and err.endswith("--devices: -b 8 -d 125 da 1.000 (vea --help)\n")
    rc, out, _ = run(capsys, "batch", "--base-lr", "0.1", "--base-batch", "256", "-b", "8", "-d", "125", "--json")
    assert rc == 0 and json.loads(out)["global_batch"] == 1000  # what it said to type


WARMUP = ("batch", "-b", "32", "-d", "8", "--base-lr", "0.1", "--base-batch", "256", "--dataset-size", "1e6")


@pytest.mark.parametrize(
    "value, lang, said",
    [(v, "en", "a number of epochs from 0 to 10,000") for v in ("-1", "-5e-324", "10000.000000000002", "1e300", "abc")]
    + [(v, "es", "un número de épocas de 0 a 10.000") for v in ("-1", "1e300")],
)
def test_every_refusal_of_warmup_epochs_states_its_range(capsys, value, lang, said):
    """--warmup-epochs -1 was told 'a number of epochs ≥ 0', which 1e300 is, and 1e300 then 'from 0 to 10,000' (review
    HR, each stated bound swept at its edges): one range in every refusal, the library's; 0 and 10,000 pass."""
    rc, _, err = run(capsys, *WARMUP, f"--warmup-epochs={value}", "--lang", lang)
    word = "allowed" if lang == "en" else "se admite"
    assert rc == 2 and err.rstrip().endswith(f"; {word}: {said}"), err
    for inside in ("0", "-0", "10000"):
        rc, out, err = run(capsys, *WARMUP, f"--warmup-epochs={inside}", "--json")
        assert rc == 0 and json.loads(out)["warmup_epochs"] == float(inside) + 0.0, err


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", "--base-batch 4,194,304 and the global batch 1,024 differ 4,096×"),
        ("es", "--base-batch 4.194.304 y el lote global 1.024 difieren 4.096×"),
    ],
)
def test_a_reference_batch_in_tokens_against_a_global_batch_in_sequences_gets_a_note(capsys, lang, said):
    """Review IY, Llama 2's published set-up (Touvron et al. 2023: a global batch of 4 M tokens of sequence 4,096,
    AdamW at 3e-4): typed as published, --base-batch 4194304 against 1,024 sequences (-b 1 -d 1,024, the same batch)
    gave an LR of 4.6875e-6 — 3e-4 × √(1/4,096), 64× too small — and said nothing. The factor between the two
    batches is a sequence length, which only a tokens-for-sequences slip makes: a note says both count samples."""
    argv = ("batch", "-b", "1", "-d", "1024", "--base-lr", "3e-4", "--optimizer", "adamw", "--lang", lang)
    rc, out, err = run(capsys, *argv, "--base-batch", "4194304", "--json")
    assert rc == 0 and json.loads(out)["learning_rate"] == pytest.approx(3e-4 / 64)  # the rule still applied
    assert said in err
    rc, out, err = run(capsys, *argv, "--base-batch", "1024", "--json")  # the same batch in sequences: 3e-4
    assert rc == 0 and json.loads(out)["learning_rate"] == pytest.approx(3e-4) and "--base-batch" not in err
    # a wide but plausible scaling (Goyal's 256 → 8,192, 32×) and a sweep that passes near the reference: no note
    for extra in (
        ("-b", "32", "-d", "256", "--base-batch", "256"),
        ("-b", "1", "-d", "1..4096x2", "--base-batch", "4"),
    ):
        rc, out, err = run(capsys, "batch", *extra, "--base-lr", "0.1", "--lang", lang)
        assert rc == 0 and "--base-batch" not in out + err


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_reference_of_the_run_s_own_micro_batches_gets_no_tokens_note_however_far_it_scales(capsys, lang):
    """Review JD: 4ab80b5's note (a factor of 512 or more at every size: a batch in tokens against one in sequences)
    also spoke where the reference is this run's own micro-batch — an LR tuned on one GPU (-b 32, --base-batch 32)
    scaled to 512 GPUs said '--base-batch 32 and the global batch 16,384 differ 512×, as a language model's sequence
    length does', and a batch of 1 on 512 devices from a reference of 1 likewise: there the factor is a count of
    devices, and both batches are in the micro-batch's unit. Where the global batch is the larger, a reference that
    is a whole number of micro-batches is no slip; one that is not (-b 4,096 typed in tokens against 1,024
    sequences) and a reference in tokens against a batch in sequences (Llama 2's) still get the note."""
    base = ("batch", "--base-lr", "0.1", "--lang", lang)
    said = {"en": "differ", "es": "difieren"}[lang]
    for extra in (
        ("-b", "32", "-d", "512", "--base-batch", "32"),
        ("-b", "32", "-d", "1024,4096", "--base-batch", "32"),
        ("-b", "1", "-d", "512", "--base-batch", "1", "--optimizer", "adamw"),
        ("-b", "16", "-k", "4", "-d", "2048", "--base-batch", "64"),
    ):
        rc, out, err = run(capsys, *base, *extra, "--json")
        assert rc == 0 and said not in err, (extra, err)
    for extra, x in (
        (("-b", "4096", "-d", "1024", "--base-batch", "1024"), "4,096" if lang == "en" else "4.096"),
        (("-b", "1", "-d", "1024", "--base-batch", "4194304"), "4,096" if lang == "en" else "4.096"),
    ):
        rc, out, err = run(capsys, *base, *extra, "--json")
        assert rc == 0 and f"{said} {x}×" in err, (extra, err)


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", "note: --base-batch {b0} and the global batch {b} differ {x}×, as a language model's sequence length "
               "does: both count samples (sequences: tokens ÷ sequence length; Llama 2's 4 M tokens of 4,096 are "
               "1,024) — one in tokens against one in sequences moves the learning rate by that factor (its square "
               "root under the square-root rule)"),
        ("es", "nota: --base-batch {b0} y el lote global {b} difieren {x}×, como una longitud de secuencia de un "
               "modelo de lenguaje: ambos cuentan muestras (secuencias: tokens ÷ longitud de secuencia; los 4 M de "
               "tokens de Llama 2, de 4.096, son 1.024) — uno en tokens frente a otro en secuencias mueve la tasa de "
               "aprendizaje en ese factor (su raíz cuadrada con la regla de la raíz cuadrada)"),
    ],
)  # fmt: skip
def test_the_tokens_note_starts_at_512x_and_names_the_size_nearest_the_reference(capsys, lang, said):
    """Review JF (a mutation pass over 4ab80b5 and e55569b): SEQUENCE_FACTOR's edge and the size the note names went
    untested — a factor of exactly 512 (--base-batch 524,288 against 1,024 sequences: the tokens of sequences of 512) is
    said, 256 is not; and in a sweep the note names the size nearest the reference (1,024, 4,096× from Llama 2's
    4,194,304 tokens), not the one farthest (1, 4,194,304×) nor the smallest batch, nor the last size's where the
    reference is the smaller."""
    g = {"en": lambda n: f"{n:,}", "es": lambda n: f"{n:,}".replace(",", ".")}[lang]
    base = ("batch", "--base-lr", "3e-4", "--optimizer", "adamw", "--lang", lang)
    rc, out, _ = run(capsys, *base, "-b", "1", "-d", "1024", "--base-batch", "524288")
    assert rc == 0 and said.format(b0=g(524288), b=g(1024), x=512) in out.splitlines(), out
    rc, out, _ = run(capsys, *base, "-b", "1", "-d", "1024", "--base-batch", "262144")
    assert rc == 0 and "--base-batch" not in out, out
    rc, out, _ = run(capsys, *base, "-b", "1", "-d", "1,1024", "--base-batch", "4194304")
    assert rc == 0 and said.format(b0=g(4194304), b=g(1024), x=g(4096)) in out.splitlines(), out
    # a reference below the global batch (-b typed in tokens): the size nearest it is the first, not the last
    rc, out, _ = run(capsys, *base, "-b", "4096", "-d", "1,2", "--base-batch", "4")
    assert rc == 0 and said.format(b0=4, b=g(4096), x=g(1024)) in out.splitlines(), out


def test_a_library_batch_past_2_to_the_53_is_refused_where_2_to_the_53_is_taken():
    """Review JY (a mutation pass): BATCH_RANGE's ceiling, 2^53 samples (the most global_batch gives), was pinned by no
    test — raised to 1e300, every test passed. scaled_lr at 2^53 from 0.1 at 256 is linear ×2^45 (0.1 × 2^53 / 2^8 =
    3,518,437,208,883.2); one step past it, and critical_batch at 1e16 samples, are refused naming the batch."""
    assert scaled_lr(0.1, 256, 2**53) == pytest.approx(0.1 * 2**45, rel=1e-15)
    assert critical_batch(2**53, 1e3).samples_factor == pytest.approx(1 + 2**53 / 1e3, rel=1e-15)
    for call, got in ((lambda: scaled_lr(0.1, 256, 2**53 + 2), "9007199254740994"),
                      (lambda: scaled_lr(0.1, 2**53 + 2, 256), "9007199254740994"),
                      (lambda: critical_batch(1e16, 1e3), "1e+16")):  # fmt: skip
        with pytest.raises(DpscaleError) as exc:
            call()
        assert str(exc.value).endswith(f": got {got}; allowed: a batch size from 1e-9 to 2^53")


def test_a_noise_scale_of_zero_is_refused_not_divided_by(capsys):
    """Review JY: NOISE_RANGE's floor, 1e-9 samples, was pinned by no test — lowered to 0, every test passed, and
    E/E_min = 1 + B/B_noise then divides by zero (critical_batch(256, 0) raised ZeroDivisionError; the CLI refuses
    --noise-scale 0 with the same words before it). At the floor it is finite: 1 + 256/1e-9 = 2.56e11 + 1."""
    allowed = "allowed: a noise scale B_noise from 1e-9 to 1e15 samples"
    assert critical_batch(256, 1e-9).samples_factor == pytest.approx(2.56e11 + 1, rel=1e-12)
    for bn in (0, 1e-10):
        with pytest.raises(DpscaleError, match=f"^noise_scale: got {bn:g}; {allowed}$"):
            critical_batch(256, bn)
        with pytest.raises(DpscaleError, match=f"^noise_scale: got {bn:g}; {allowed}$"):
            time_to_target_speedup(8, 32, bn, 0.9)
    rc, _, err = run(capsys, "batch", "-b", "32", "-d", "8", "--noise-scale", "0")
    assert rc == 2 and err == f"dpscale batch: error: --noise-scale: got '0'; {allowed}\n"
