"""Tests from a mutation sweep of session 33's code (131 mutants, 84 killed by the earlier tests, 7 equivalent):
each asserts an answer a surviving mutant changed, verified against the code and by running both."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from clihelp import run

import dpscale
from dpscale.errors import DpscaleError


def message(call) -> str:
    with pytest.raises(DpscaleError) as info:
        call()
    return str(info.value)


# -- plan: a pick meets a limit to 9 significant digits, and the notes round as the table does ---------------


@pytest.mark.parametrize(
    ("samples", "said"),
    [
        (3600000144, "no size meets the 1.0 h deadline; the fastest is 1 device at 1.00000004 h"),  # 8 digits met it
        (3600000000.36, "cheapest size meeting the 1.0 h deadline: 1 — 1.0 h"),  # 12 digits missed it
        (3600000014.4, "cheapest size meeting the 1.0 h deadline: 1 — 1.0 h"),  # 1.000000004 h: 10 digits missed it
    ],
)
def test_a_deadline_is_met_to_nine_significant_digits(capsys, samples, said):
    rc, out, _ = run(capsys, "plan", "-n", str(samples), "-v", "1000000", "-e", "1", "-d", "1", "--deadline", "1h")
    assert rc == 0 and said in out


def test_a_size_within_nine_digits_of_the_deadline_is_not_listed_as_missing_it(capsys):
    rc, out, _ = run(capsys, "plan", "-n", "3600000001.44", "-v", "1000000", "-e", "1", "-d", "1,2", "--deadline", "1h")
    assert rc == 0 and "they miss" not in out


def test_no_rounding_note_when_nothing_meets_the_deadline(capsys):
    rc, out, _ = run(capsys, "plan", "-n", "3.63e6", "-v", "1000", "-e", "1", "-d", "1", "--deadline", "1h")
    assert rc == 0 and "no size meets the 1.0 h deadline; the fastest is 1 device at 1.01 h" in out
    assert "rounds" not in out


def test_equal_costs_within_nine_digits_are_a_tie(capsys):
    rc, out, _ = run(capsys, "plan", "-n", "1380", "-v", "1", "-e", "1", "-d", "1,2", "--deadline", "23m")
    assert rc == 0 and "2 — 11.5 min, 0.38 device-hours (the fastest of 2 sizes that cost the same)" in out


def test_costs_over_the_budget_are_not_said_to_round_to_it(capsys):
    argv = ("plan", "-n", "3960", "-v", "1", "-e", "1", "-d", "1,2", "--price-per-device-hour", "0.001")
    rc, out, _ = run(capsys, *argv, "--budget", "0.001")
    assert rc == 0 and "no size stays within the budget of 0.001" in out and "rounds" not in out


def test_a_missed_deadline_in_seconds_is_said_in_seconds(capsys):
    rc, out, _ = run(capsys, "plan", "-n", "30.02", "-v", "1", "-e", "1", "-d", "1,2", "--deadline", "30s")
    assert rc == 0 and "the table rounds these times to the 30.0 s deadline they miss: 1 — 30.02 s" in out


def test_plan_names_its_parameters_and_a_finite_budget():
    kw = {"samples": 1e7, "epochs": 1, "throughput": 100, "devices": [8]}
    assert message(lambda: dpscale.plan(**kw, deadline_hours=[1, 2])).startswith("deadline_hours: got [1, 2]")
    said = message(lambda: dpscale.plan(**kw, price_per_device_hour=1, budget=math.inf))
    assert said.startswith("budget: got inf") and "a finite budget > 0" in said


def test_a_fit_s_level_reaches_the_plan_in_spanish(capsys, tmp_path):
    runs = tmp_path / "r.csv"
    runs.write_text("devices,throughput\n1,1000\n2,1960\n4,3800\n8,7300\n")
    rc, out, _ = run(capsys, "fit", str(runs), "--confidence", "0.975", "--json")
    (tmp_path / "f.json").write_text(out)
    rc, out, _ = run(capsys, "plan", "--efficiency-file", str(tmp_path / "f.json"), "-n", "1e7", "-v", "100", "-d", "8",
                     "--lang", "es")  # fmt: skip
    assert rc == 0 and "97,5 %" in out and "97.5 %" not in out


# -- fit: levels, peaks, splits, inputs -----------------------------------------------------------------------


def test_a_level_is_printed_as_given(capsys):
    """'90 %', not pct's '90.0 %', in the prediction header and validate's coverage note."""
    rc, out, _ = run(capsys, "fit", "--point", "1:1000", "--point", "2:1900", "--point", "4:3500", "--at", "8")
    assert rc == 0 and "predicted (90 % prediction interval for one run):" in out
    rc, out, _ = run(capsys, "validate", "--mode", "fit", "validation/published_scaling_dev.csv")
    assert rc == 0 and "inside the fit's 90 % prediction interval" in out


def test_a_peak_s_interval_holds_a_point_of_infinity(capsys):
    """At a 10 % level the resamples' peaks were [15, 15] beside a law that never peaks."""
    rc, out, _ = run(capsys, "fit", "--point", "4:3132", "--point", "64:2700", "--confidence", "0.1")
    assert rc == 0 and "no peak up to 1,048,576 devices; the interval allows one: [15, ∞]" in out


def test_a_peak_below_d0_is_said_as_printed(capsys):
    rc, out, _ = run(capsys, "fit", "--point", "16:16000", "--point", "32:12250", "--law", "usl")
    assert "peaks at 15 devices [14, 16]" in out and "lies below the smallest measured size (d0 = 16)" in out
    rc, out, _ = run(capsys, "fit", "--point", "16:16000", "--point", "32:12500", "--law", "usl")  # 15.56: '16'
    assert "peaks at 16 devices" in out and "lies below" not in out


def test_a_term_that_alone_misses_the_runs_keeps_the_ridge_split():
    """Superlinear runs (E 1.2 at 2, six runs a size): neither USL term alone can fit, so no resample is given to
    one of them — their rows stay as the two-term bootstrap drew them."""
    from dpscale.sources import fit as F
    from dpscale.sources.fit_io import runs_from

    r = runs_from([(1, 1000 + i) for i in range(6)] + [(2, 2400 + i) for i in range(6)], None, None, None)
    d = np.asarray(r.devices, dtype=float)
    prob = F.Problem(F.LAWS["usl"], d, None)
    y = np.log(F.relative_efficiency(np.asarray(r.throughput[1:]), d[1:], r.throughput[0], d[0]))
    samples, base = np.full((30, 2), 0.5), np.linspace(-0.01, 0.01, 30)
    got, got_base = F._spread_split(prob, y, (samples, base), np.full(30, 0.004), np.random.default_rng(0), r, 0.004)
    assert (got == samples).all() and (got_base == base).all()


def test_a_table_with_columns_is_refused_as_a_mapping():
    """A pandas DataFrame (anything with .columns) iterates over its column names: 'runs[0]: got 'devices''."""

    class Frame:
        columns = ("devices", "throughput")

        def __iter__(self):
            return iter(self.columns)

    said = message(lambda: dpscale.fit(Frame()))
    assert said.startswith("runs: got a mapping (Frame)")


# -- predict names its own parameters -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kw", "said"),
    [
        ({"seq_len": -1}, "seq_len: got -1"),
        ({"grad_bytes_per_param": -1}, "grad_bytes_per_param: got -1"),
        ({"first_bucket_mb": -1}, "first_bucket_mb: got -1"),
        ({"zero": 7}, "zero: got 7"),
        ({"batch": -1}, "batch: got -1"),
    ],
)
def test_predict_names_each_parameter(kw, said):
    assert message(lambda: dpscale.predict([8], model="gpt2", throughput=100, system="dgx-a100", **kw)).startswith(said)


@pytest.mark.parametrize("path", ["x--gpu/cal.json", "y --gpu.json"])
def test_a_path_that_holds_a_flag_s_name_is_echoed_whole(path):
    said = message(lambda: dpscale.predict([8], model="gpt2", throughput=100, system="dgx-a100", calibration=path))
    assert said.startswith(f"calibration: got {path!r}")


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


# -- the rest -------------------------------------------------------------------------------------------------


def test_device_memory_in_bytes_says_its_bounds_in_gib_and_the_gb_conversion():
    from dpscale.formulas.memory import fit_all

    said = message(lambda: fit_all(7.5e9, 64, device_memory_bytes=80))
    assert said.endswith("bytes per device from 1.074e8 to 4.398e12 (0.1–4,096 GiB; 80 GB is 8.589e10)")


def test_the_first_bool_among_sizes_is_named():
    assert message(lambda: dpscale.scale([True, 8, False], 2000, 0.9)).startswith("devices: got True;")


def test_a_constant_at_a_zero_d_size_is_a_number_as_a_law_s_is():
    e = dpscale.Constant(0.9).efficiency(np.array(8))
    assert type(e) is float and e == 0.9
