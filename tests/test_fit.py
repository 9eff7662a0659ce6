"""dpscale.fit: recovery of known laws, interval coverage, answers, and use as an E source."""

from __future__ import annotations

import argparse
import math
import re

import numpy as np
import pytest
from clihelp import message, run
from hypothesis import example, given, settings
from hypothesis import strategies as st

import dpscale
from dpscale import DpscaleError
from dpscale.sources.fit import fit

SIZES = np.array([1, 2, 4, 8, 16, 32, 48, 64, 96, 128])


def usl_runs(sigma: float, kappa: float, noise: float = 0.0, seed: int = 0, sizes=SIZES) -> tuple:
    rng = np.random.default_rng(seed)
    e = dpscale.USL(sigma, kappa).efficiency(sizes)
    return sizes, 1000.0 * sizes * e * np.exp(rng.normal(0, noise, sizes.size))


def test_exact_usl_is_recovered_and_chosen():
    d, x = usl_runs(0.02, 1e-4)
    f = fit(devices=d, throughput=x)
    assert f.law == "usl"
    assert f.runner_up in ("amdahl", "allreduce")
    p = f.parameters
    # The weak ridge (fit_solve.RIDGE) shrinks exact data a hair; the truth stays inside the interval.
    assert p["sigma"].value == pytest.approx(0.02, rel=2e-3)
    assert p["kappa"].value == pytest.approx(1e-4, rel=2e-3)
    assert p["sigma"].lo <= 0.02 <= p["sigma"].hi
    assert p["kappa"].lo <= 1e-4 <= p["kappa"].hi
    # Peak √((1−σ)/κ) = 98.99 devices.
    assert f.peak()["devices"] == pytest.approx(math.sqrt(0.98 / 1e-4), rel=1e-3)


def test_the_r_usl_packages_own_coefficient_case():
    # The R `usl` package's tests/coef.R (Moeding; Gunther's C(N) = N/(1 + α(N−1) + βN(N−1)), our σ and κ): six
    # loads typed to 4 digits, for which usl() prints alpha 0.02, beta 0.02. Data from another implementation,
    # rounded as a user's would be: the automatic choice must find the same law, the same two coefficients to
    # 3 figures (as its signif(…, 3)) and Gunther's peak √((1−α)/β) = 7.
    d = np.array([1, 2, 4, 6, 8, 10])
    f = fit(devices=d, throughput=np.array([1, 1.8868, 3.0769, 3.5294, 3.5398, 3.3557]), resamples=200)
    assert f.law == "usl"
    assert f"{f.parameters['sigma'].value:.3g} {f.parameters['kappa'].value:.3g}" == "0.02 0.02"
    assert f.peak()["devices"] == pytest.approx(7.0, abs=0.01)


def test_exact_amdahl_is_recovered():
    # Amdahl with s = 0.05: E(d) = 1/(1 + 0.05·(d − 1)), 1/(1 + 0.05·127) = 0.136 at 128; the fitted serial
    # fraction is s itself (the ridge shrinks exact data a hair), and its E is the law's at a size not measured
    d = SIZES
    f = fit(devices=d, throughput=1000.0 * d / (1 + 0.05 * (d - 1)), law="amdahl")
    p = f.parameters["serial_fraction"]
    assert p.value == pytest.approx(0.05, rel=2e-3) and p.lo <= 0.05 <= p.hi
    assert f.efficiency(256) == pytest.approx(1 / (1 + 0.05 * 255), rel=2e-3)


def test_noisy_usl_parameters_lie_in_their_intervals():
    """90 % intervals of σ and κ from 1 % noisy data cover the true values in most of 20 data sets."""
    hits = np.zeros(2)
    for seed in range(20):
        d, x = usl_runs(0.03, 2e-4, noise=0.01, seed=seed)
        p = fit(devices=d, throughput=x, law="usl", resamples=200, seed=seed).parameters
        hits += [p["sigma"].lo <= 0.03 <= p["sigma"].hi, p["kappa"].lo <= 2e-4 <= p["kappa"].hi]
        assert p["sigma"].hi - p["sigma"].lo < 0.02  # informative, not [0, 1)
    assert np.all(hits >= 14), hits


def test_interval_coverage_is_sane():
    """90 % prediction intervals at 256 devices from 1 % noisy USL data cover the truth most of the time."""
    truth = dpscale.USL(0.01, 2e-5).efficiency(256)
    hits = 0
    for seed in range(20):
        d, x = usl_runs(0.01, 2e-5, noise=0.01, seed=seed)
        pred = fit(devices=d, throughput=x, law="usl", resamples=200, seed=seed).predict(256)
        hits += pred.efficiency_lo[0] <= truth <= pred.efficiency_hi[0]
    assert 14 <= hits <= 20


def test_efficiency_is_relative_to_smallest_size():
    f = fit([(8, 8000), (16, 15200), (32, 28800), (64, 54400)])
    assert f.baseline_devices == 8
    assert f.per_device_throughput == 1000
    assert f.efficiency(8) == pytest.approx(1.0)
    assert [m["efficiency"] for m in f.measured()] == pytest.approx([1.0, 0.95, 0.9, 0.85])


def test_fit_is_an_e_source_for_scale_and_solve():
    d, x = usl_runs(0.02, 1e-4)
    f = fit(devices=d, throughput=x)
    r = dpscale.scale(64, 1000, f)
    assert r.efficiency == pytest.approx(dpscale.USL(0.02, 1e-4).efficiency(64), rel=1e-3)
    assert r.efficiency == f.efficiency(64)
    arr = dpscale.scale(np.array([8, 64]), 1000, f)
    assert arr.actual_throughput.shape == (2,)
    sol = dpscale.solve(per_device_throughput=1000, efficiency=f, actual_throughput=20000)
    assert sol.result.devices == 38
    assert f.devices_for(throughput=20000)["devices"] == 38
    assert "fitted usl" in f.describe()


def test_devices_for_efficiency_and_unreachable_throughput():
    d, x = usl_runs(0.02, 1e-4)
    f = fit(devices=d, throughput=x)
    e = dpscale.USL(0.02, 1e-4).efficiency
    ans = f.devices_for(efficiency=0.5)
    assert e(ans["devices"]) >= 0.5 > e(ans["devices"] + 1)
    assert ans["lo"] <= ans["devices"] <= ans["hi"]
    assert math.isinf(f.devices_for(throughput=10**6)["devices"])


@pytest.mark.parametrize("asked", [{}, {"throughput": 20000, "efficiency": 0.5}])
def test_devices_for_takes_one_question(asked):
    """Neither or both of throughput= and efficiency=: no answer could say which was meant."""
    d, x = usl_runs(0.02, 1e-4)
    with pytest.raises(DpscaleError, match=r"^devices_for: give throughput= or efficiency=, one of them$"):
        fit(devices=d, throughput=x).devices_for(**asked)


def test_predict_intervals_bracket_the_point_and_warn_far_out():
    d, x = usl_runs(0.01, 0.0, noise=0.01, seed=1, sizes=np.array([1, 8, 16, 32]))
    p = fit(devices=d, throughput=x, gpus_per_node=8).predict([64, 256])
    assert np.all(p.throughput_lo <= p.throughput) and np.all(p.throughput <= p.throughput_hi)
    assert np.all(p.efficiency_lo <= p.efficiency) and np.all(p.efficiency <= p.efficiency_hi)
    assert any("beyond 4×" in w for w in p.warnings)
    assert not fit(devices=d, throughput=x).predict(64).warnings


def test_allreduce_law_has_its_knee_at_the_node_boundary():
    """Chain inside a node, log2 tree across nodes: E falls faster per device before 8 than after."""
    f = fit([(1, 1000), (4, 3800), (8, 7200), (16, 14000)], law="allreduce", gpus_per_node=8)
    e = f.efficiency(np.array([4, 8, 16, 32]))
    assert e[0] - e[1] > (e[1] - e[2]) > 0
    assert e[2] - e[3] > 0


def test_a_fit_cannot_be_changed_under_its_users():
    """One Fit feeds predictions, plots and reports: a field set afterwards would make them disagree."""
    import dataclasses

    f = fit([(1, 1000), (8, 7600)])
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.law = "usl"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.warnings = []  # type: ignore[misc]
    assert any("only 2 sizes" in w for w in f.warnings)  # fit() still attaches its notes


def test_warnings_few_sizes_degenerate_superlinear():
    f = fit([(1, 1000), (8, 7600)])
    assert any("only 2 sizes" in w for w in f.warnings)
    d, x = usl_runs(0.05, 0.0)
    assert any("indistinguishable from its bound 0" in w for w in fit(devices=d, throughput=x, law="usl").warnings)
    sup = fit([(1, 1000), (2, 2050), (4, 3900), (8, 7500)])  # E 1.025: past a repeat's spread (1.02: review MH)
    assert any("superlinear" in w and "2 devices" in w for w in sup.warnings)


def test_duplicates_are_averaged_and_said():
    f = fit([(1, 1000), (8, 7000), (8, 7400), (16, 14000)])
    assert f.runs.throughput[1] == 7200
    assert any("2 conflicting runs of 8 devices" in w for w in f.warnings)


def test_repeats_are_called_conflicting_only_beyond_what_1_percent_noise_spreads():
    """The range of n runs at 1 % noise stays under 2.77 % (n = 2), 3.31 % (n = 3) in 95 % of cases: a flat 2 %
    called a third of ordinary three-run groups conflicting."""
    from dpscale.sources.fit_runs import conflicting

    assert not conflicting(0.025, 3) and conflicting(0.034, 3) and conflicting(0.028, 2) and not conflicting(0.027, 2)
    f = fit([(1, 1000), (8, 7200), (8, 7300), (8, 7370), (16, 14000)])  # 2.4 %: ordinary noise
    assert any("3 repeated runs of 8 devices" in w for w in f.warnings)
    assert not any("conflicting" in w for w in f.warnings)


def test_repeated_runs_keep_their_spread():
    from dpscale.sources.fit_io import runs_from

    r = runs_from([(1, 100.0), (1, 110.0), (2, 190.0), (4, 360.0), (4, 380.0), (4, 400.0)])
    assert r.throughput == (105.0, 190.0, 380.0) and r.counts == (2, 1, 3) and r.repeat_dof == 3
    logs = np.log([360.0, 380.0, 400.0])
    assert r.repeat_ss == pytest.approx(math.log(1.1) ** 2 / 2 + float(np.sum((logs - logs.mean()) ** 2)))
    assert runs_from([(1, 100.0), (2, 190.0)]).counts is None  # one run a size: nothing to pool


def test_a_run_pasted_twice_is_not_a_repeat():
    """Two rows with the same throughput to every digit are one record twice: counted as two runs they would
    claim a mean √2 surer and zero spread. The mean is unchanged; the noise and the intervals are the single run's."""
    once = [(1, 1000.0), (4, 3800.0), (8, 7000.0), (16, 13000.0)]
    twice = fit(once + once, seed=5)
    single = fit(once, seed=5)
    assert twice.runs.repeat_dof == 0 and twice.runs.runs_per_size == (1, 1, 1, 1)
    assert twice.noise == single.noise
    assert twice.predict([64]).efficiency_lo == pytest.approx(single.predict([64]).efficiency_lo, rel=1e-12)
    mixed = fit([(1, 1000.0), (1, 1000.0), (1, 1010.0), (4, 3800.0), (8, 7000.0), (16, 13000.0)])
    assert mixed.runs.counts == (2, 1, 1, 1) and mixed.runs.repeat_dof == 1  # 1000 and 1010: two distinct runs
    said = [w for w in mixed.warnings if w.key == "runs_duplicated"]  # and the user is told (docs/fit.md)
    assert [str(w) for w in said] == [
        "3 runs of 1 device, 1 of them a throughput repeated to every digit: counted once for the noise "
        "(one record pasted twice?)"
    ]


def _repeated(delta: float, times: int = 3) -> list[tuple[int, float]]:
    """Runs exactly on a USL curve at 1–8 devices, each size measured `times` times spread ±delta around it."""
    d, x = usl_runs(0.02, 1e-3, sizes=np.array([1, 2, 4, 8]))
    spread = np.linspace(-delta, delta, times)
    return [(int(di), float(xi * (1 + s))) for di, xi in zip(d, x) for s in spread]


def test_repeated_runs_measure_the_noise():
    """The repeats' spread is the run-to-run noise, with Σ(n − 1) degrees of freedom pooled beside the residuals'
    and the 1 % prior's 2: σ² = (2·0.01² + SS + dof·RSS/E[RSS]) / (2 + Σ(n − 1) + dof); the means lie on the
    curve, so the residuals add their one degree of freedom (3 E values, 2 parameters) at RSS 0."""
    f = fit(_repeated(0.05), law="usl")
    assert f.runs.repeat_dof == 8
    assert f.noise == pytest.approx(math.sqrt((2 * 0.01**2 + f.runs.repeat_ss) / (2 + 8 + 1)), rel=1e-3)
    assert f.noise == pytest.approx(0.0429, abs=2e-4)  # ±5 % repeats (σ of a run 5.0 %), pooled with the 1 % prior
    assert "run-to-run noise σ = 4.3 % (8 degrees of freedom from repeated runs)" in f.summary()


def test_noisy_repeats_widen_the_interval_and_tight_ones_narrow_it():
    """Before session 13 repeats were averaged and their spread dropped: the same means gave the same interval
    whether their runs agreed to 0.1 % or spread 10 %. A mean of n runs is also √n times surer than one run."""
    means = [(d, x) for d, x in _repeated(0.0, times=1)]
    half = {}
    for name, runs in (("single", means), ("tight", _repeated(0.001)), ("noisy", _repeated(0.05))):
        p = fit(runs, law="usl", seed=3).predict([16, 32])
        half[name] = (p.efficiency_hi - p.efficiency_lo) / 2
    assert np.all(half["noisy"] > 1.25 * half["single"]) and np.all(half["tight"] < 0.5 * half["single"])


def test_two_sizes_with_repeats_say_the_noise_came_from_them():
    f = fit([(1, 1000), (1, 1020), (8, 7600), (8, 7500)])
    assert any("only 2 sizes" in w and "repeated runs give the noise" in w for w in f.warnings)
    assert not any("assumed" in w for w in f.warnings)


@pytest.mark.parametrize(
    "runs, match",
    [
        ([(8, 5000)], "at least 2 distinct"),
        ([(8, 5000), (8, 5100)], "at least 2 distinct"),
        ([(1, 1000), (8, -5)], "throughput"),
        ([(0, 1000), (8, 5000)], "devices"),
        ([(1.5, 1000), (8, 5000)], "devices"),
        ([(1, float("nan")), (8, 5000)], "throughput"),
        ([(d, 100.0 * d) for d in range(1, 1002)], "got 1,001 distinct device counts; allowed: at most 1,000"),
        ([(1, 1000), (10**19, 5000)], "devices: got 10000000000000000000; allowed: a whole number from 1 to"),
    ],
)
def test_bad_runs_raise_one_line(runs, match):
    with pytest.raises(DpscaleError, match=match) as exc:
        fit(runs)
    assert "\n" not in str(exc.value)


@settings(max_examples=15, deadline=None)
@given(
    sigma=st.floats(0.001, 0.1),
    kappa=st.floats(0.0, 1e-3),
)
def test_fitted_e_stays_in_unit_interval_and_falls(sigma, kappa):
    d, x = usl_runs(sigma, kappa, sizes=np.array([1, 4, 8, 16]))
    f = fit(devices=d, throughput=x, resamples=50)
    e = f.efficiency(np.array([1, 2, 16, 64, 1024]))
    assert e[0] == pytest.approx(1.0)
    assert np.all(e > 0) and np.all(e <= 1 + 1e-12)
    assert np.all(np.diff(e) <= 1e-12)


def test_a_runner_up_law_outside_a_forced_laws_interval_is_said():
    # a knee at the node (8 → 16) that the all-reduce law reads as a one-time network cost and Amdahl as a
    # steadily growing serial share: inside the measured sizes they agree, at 64 devices they part
    runs = [(1, 1000), (2, 1960), (4, 3880), (8, 7600), (16, 13000), (32, 25000)]
    f = dpscale.fit(runs, gpus_per_node=8, law="allreduce")
    assert (f.law, f.runner_up, f.rivals) == ("allreduce", "amdahl", ())  # a forced law's interval is its own
    (w,) = [w for w in f.predict([64]).warnings if w.key == "laws_disagree"]
    p = f.predict([64])
    assert w.fields["rival"] == "amdahl" and not p.efficiency_lo[0] <= w.fields["pct"] / 100 <= p.efficiency_hi[0]
    assert w.fields["pct"] / 100 == pytest.approx(dpscale.fit(runs, law="amdahl").efficiency(64))  # Amdahl's own
    assert not [w for w in f.predict([16]).warnings if w.key == "laws_disagree"]


def test_a_runner_up_is_not_sent_to_measure_a_size_already_measured():
    """'puts E at 2 devices at 87.8 % … measure closer to that size' of a measured size: the runs there already
    say which law holds; the note names the first unmeasured size where the laws part."""
    f = dpscale.fit([(1, 1000), (2, 1900), (4, 3500), (8, 5000), (16, 4000)], seed=0)
    assert (f.law, f.runner_up, f.rivals) == ("usl", "amdahl", ())
    said = [w.fields["d"] for w in f.predict([2, 3, 32]).warnings if w.key == "laws_disagree"]
    assert said == [3]  # 2 is measured; at 3 (unmeasured) Amdahl is outside the USL interval, and said
    assert not [w for w in f.predict([2, 4, 8]).warnings if w.key == "laws_disagree"]


def test_two_sizes_say_the_noise_the_interval_used():
    """'the interval rests on an assumed 1 % run-to-run noise' beside a printed σ = 9.1 %: a law held off the second
    point by its bounds (E 1.25 > 1) puts its miss into the noise, and the note now says that noise."""
    held = dpscale.fit([(1, 1000), (2, 2500)], seed=0)
    (w,) = [w for w in held.warnings if w.key.startswith("few_sizes")]
    assert w.key == "few_sizes_misfit" and w.fields["noise"] == pytest.approx(100 * held.noise) and held.noise > 0.09
    exact = dpscale.fit([(1, 1000), (2, 1900)], seed=0)
    (w,) = [w for w in exact.warnings if w.key.startswith("few_sizes")]
    assert w.key == "few_sizes" and w.fields["noise"] == 1 and exact.noise == pytest.approx(0.01)


def test_an_empty_runs_path_is_no_file_path():
    with pytest.raises(
        DpscaleError, match=r"^runs: got ''; allowed: a readable CSV or JSON-lines file \(not a file path\)"
    ):
        dpscale.fit("")  # the parameter's name (it said RUNS, the CLI's positional, which `dpscale fit` still says)
    with pytest.raises(DpscaleError, match=r"^runs: got a mapping \(dict\); allowed: a list of runs .*fit\(devices="):
        dpscale.fit({"devices": [1, 8], "throughput": [1000, 7000]})  # was "runs[0]: got 'devices'; … a dict"
    from types import MappingProxyType

    with pytest.raises(DpscaleError, match=r"^runs: got a mapping \(mappingproxy\)"):  # any mapping
        dpscale.fit(MappingProxyType({"devices": [1, 8], "throughput": [1000, 7000]}))


def test_a_runner_up_at_the_printed_edge_of_the_interval_is_not_said_outside_it():
    """Two runs, USL forced: the all-reduce law's 92.8 % at 16 devices was 'outside the usl interval' printed as
    73.4–92.8 % — a difference below the note's own 0.1 %. Further out it is outside, and said. (Since the
    interval spans the splits of σ and κ the runs cannot tell apart, and each resample keeps its own baseline
    draw, 1 → 8 at 7,310/s puts the rival on the edge at 12 devices.)"""
    f = dpscale.fit([(1, 1000), (8, 7310)], law="usl", seed=0)
    p = f.predict([12, 64])
    (w,) = [w for w in p.warnings if w.key == "laws_disagree"]
    assert w.fields["d"] == 64 and w.fields["pct"] / 100 > p.efficiency_hi[1] + 5e-4
    at12 = dpscale.fit([(1, 1000), (8, 7310)], law="allreduce").efficiency(12)
    assert 0 < at12 - p.efficiency_hi[0] < 5e-4  # the case: the rival past the edge, below the printed digit


def test_a_runner_up_a_printed_digit_past_the_interval_is_said():
    """The note's tolerance is half its printed 0.1 %, no wider: 1 → 8 at 7,250/s, USL forced, asked at 12 —
    the all-reduce law's E there prints two tenths of a point above the interval's printed top, so it is outside
    as the user reads it and must be said (a 0.5 % tolerance kept it silent; review EI)."""
    runs = [(1, 1000), (8, 7250)]
    p = dpscale.fit(runs, law="usl", seed=0).predict([12])
    rival = dpscale.fit(runs, law="allreduce").efficiency(12)
    assert round(100 * rival, 1) - round(100 * float(p.efficiency_hi[0]), 1) >= 0.15  # outside by a printed digit
    assert rival - float(p.efficiency_hi[0]) < 5e-3  # and close: the case a loose tolerance would swallow
    (w,) = [w for w in p.warnings if w.key == "laws_disagree"]
    assert w.fields["d"] == 12 and w.fields["pct"] == pytest.approx(100 * rival)


def test_a_size_below_the_smallest_measured_one_is_said():
    """Runs from 8 devices, asked at 4 and 1: E 101–102 % with no word (docs/fit.md: E exceeds 1 there)."""
    f = dpscale.fit([(8, 7500), (16, 14600), (32, 28000), (64, 52000)], seed=0)
    p = f.predict([4, 1, 16])
    assert [str(w) for w in p.warnings if w.key == "below_baseline"] == [
        "sizes below the smallest measured one (d0 = 8), 4; 1: E there is relative to d0 and above 100 %, and the "
        "law is carried below its runs — measure one of those sizes to know"
    ]
    assert min(p.efficiency[:2]) > 1 and not [w for w in f.predict([8, 16]).warnings if w.key == "below_baseline"]


def test_a_peak_or_a_devices_needed_answer_far_out_says_which_answer_lies_there():
    """'extrapolating to 41 devices' where the user asked about 16: 41 was the throughput peak."""
    f = dpscale.fit([(1, 1000), (8, 7500)], law="usl", seed=0)
    (w,) = f.peak()["warnings"]
    assert str(w).startswith("the throughput peak, at 41 devices, lies beyond 4× the largest measured size (8)")
    (w,) = dpscale.fit([(1, 1000), (8, 7700)], seed=0).peak()["warnings"]  # the law rises: the interval's start
    assert str(w).startswith("the throughput peak's interval starts at 36 devices, beyond 4×")
    (w,) = dpscale.fit([(1, 1000), (8, 7500)], seed=0).devices_for(throughput=30000)["warnings"]
    assert str(w).startswith("the devices needed, 33, lie beyond 4× the largest measured size (8)")


def test_the_peak_and_devices_needed_draw_their_intervals_from_the_plausible_laws_too():
    """4 runs up to 32 GPUs, all-reduce law chosen, Amdahl and USL not rejected: 100,000 samples/s 'needed 115
    [107, 120]' from the chosen law's refits alone, where Amdahl (s = 0.0052) needs 207 and a USL may never get
    there. The interval now spans the laws, as the prediction intervals do; the point stays the chosen law's."""
    runs = [(1, 1000), (8, 7500), (16, 14600), (32, 28000)]
    f = dpscale.fit(runs, gpus_per_node=8, resamples=400)
    assert f.law == "allreduce" and {n for n, _, _ in f.rivals} == {"usl", "amdahl"}
    need = f.devices_for(throughput=100_000)
    alone = dpscale.fit(runs, gpus_per_node=8, law="allreduce", resamples=400).devices_for(throughput=100_000)
    amdahl = dpscale.fit(runs, law="amdahl", resamples=400).devices_for(throughput=100_000)["devices"]
    assert need["devices"] == alone["devices"] == 115 and alone["hi"] < 130  # one law: narrow
    assert 200 < amdahl < 215 and need["lo"] <= need["devices"] and need["hi"] > amdahl  # the laws: it is inside
    keep = f.devices_for(efficiency=0.8)
    assert keep["lo"] < 64 < keep["devices"]  # Amdahl keeps E ≥ 80 % only to 49 devices
    usl = dpscale.fit([(1, 1000), (2, 1900), (4, 3500), (8, 6000), (16, 9000)], resamples=400)
    assert usl.law == "usl" and usl.rivals and usl.peak()["hi"] == math.inf  # a rival that keeps rising


def test_laws_the_data_cannot_reject_widen_the_interval_of_an_automatic_choice():
    """USL data (σ = 0.02, κ = 1e-3, 1 % noise) on 1–8 devices: leave-one-out picks Amdahl, whose interval alone at
    32 devices was [0.50, 0.57] around 0.53 — the true E is 1/(1 + 0.02·31 + 1e-3·32·31) = 0.383. USL fits the
    sizes as well, so its draws join the interval, and a note says so. In the audit's simulation (150 data sets a
    scenario) the true E at 2–4× the largest size fell inside the 90 % interval 17–70 % of the time before and
    77–99 % after."""
    runs = [(1, 1009.1), (2, 1965.7), (4, 3711.4), (8, 6727.9)]
    f = dpscale.fit(runs)
    assert f.law == "amdahl" and [n for n, _, _ in f.rivals] == ["usl"]
    assert any(w.key == "laws_pooled" and "usl" in w for w in f.warnings)
    p = f.predict([32])
    assert p.efficiency_lo[0] < 1 / (1 + 0.02 * 31 + 1e-3 * 32 * 31) < p.efficiency_hi[0]
    assert p.efficiency[0] == pytest.approx(f.efficiency(32))  # the point stays the chosen law's
    alone = dpscale.fit(runs, law="amdahl").predict([32])
    assert alone.efficiency_lo[0] > 0.45 and p.efficiency_lo[0] < 0.40  # the chosen law alone misses it
    # the all-reduce law misfits these sizes far beyond the noise: it stays out
    assert "allreduce" not in [n for n, _, _ in f.rivals]


def test_the_library_summary_names_the_law_and_its_parameters():
    """Fit.summary() is the library's one-call report (docs/fit.md): the chosen law, how, and each parameter."""
    f = dpscale.fit([(1, 1000), (8, 7500), (16, 14600), (32, 28000)], gpus_per_node=8, resamples=50)
    text = f.summary()
    assert text.splitlines()[0] == f"law: {f.law} — chosen by {f.criterion}"
    for p in f.parameters.values():
        assert f"  {p.name} = {p.value:.4g}  [{p.lo:.4g}, {p.hi:.4g}]" in text


def test_the_noise_estimate_allows_for_the_shared_baseline(monkeypatch):
    """Every log E shares the baseline's draw (residual covariance σ²(I + 11ᵀ)), and the fit absorbs part of
    it: halving the residuals' variance, as once done, estimated 0.75 of the true σ². Without the prior, the
    estimate must be unbiased."""
    import dpscale.sources.fit as fit_module

    monkeypatch.setattr(fit_module, "NOISE_PRIOR_WEIGHT", 0.0)
    rng = np.random.default_rng(7)
    sizes = np.array([1, 2, 4, 8, 16])
    truth = 1000 * sizes / (1 + 0.02 * (sizes - 1) + 1e-4 * sizes * (sizes - 1))
    est = []
    for s in range(300):  # 150 until a term at its bound counted as one (0.84 there, 0.93 before; see below)
        x = truth * np.exp(0.025 * rng.standard_normal(sizes.size))
        est.append(fit(list(zip(sizes.tolist(), x.tolist())), law="usl", resamples=50, seed=s).noise ** 2)
    assert np.mean(est) / 0.025**2 == pytest.approx(1.0, abs=0.15)  # 0.905 here; halving gave 0.75


def test_a_term_the_solver_leaves_a_hair_above_its_bound_is_at_its_bound_for_the_noise_too(monkeypatch):
    """The same runs given twice over (each a copy, counted once) left the all-reduce law's transfer term at 3e-24
    where once they left it at 0: the noise estimate counted it free, σ 3.25 % against 2.77 %, and the 90 % interval
    at 1 device read 901 for 908. A term under AT_BOUND is at its bound there too, as in `values` and the notes.
    (Repeats are now averaged exactly rounded, so r + r has r's mean. The hair is scipy's: 1.17's trf leaves
    3.3e-24 for these runs with one nudged an ulp, 1.10's, pyproject's floor, leaves 0; so the solver here leaves
    a bound term at 3e-24 whatever scipy does.)"""
    import dpscale.sources.fit as fit_module

    r = [(1, 983.1408206590579), (1, 968.7998656296608), (2, 2064.75087681741), (4, 3866.7478162532475),
         (8, 7584.141196314915)]  # fmt: skip
    once = fit(r, resamples=100)
    solve = fit_module.fit_point

    def hair(prob, y):
        q, rss = solve(prob, y)
        return np.where(q == 0, 3e-24, q), rss

    monkeypatch.setattr(fit_module, "fit_point", hair)
    twice = fit(r, resamples=100)
    assert once.candidates["allreduce"].q[0] == 0 and 0 < twice.candidates["allreduce"].q[0] < 1e-12
    assert twice.noise == pytest.approx(once.noise, rel=1e-9) and once.noise == pytest.approx(0.027739, abs=1e-6)
    a, b = once.predict([1, 64, 512]), twice.predict([1, 64, 512])
    for key in ("throughput_lo", "throughput_hi", "efficiency_lo", "efficiency_hi"):
        np.testing.assert_allclose(getattr(b, key), getattr(a, key), rtol=1e-9)
    assert a.throughput_lo[0] == pytest.approx(907.5, abs=0.1)


def test_the_best_scoring_rival_replaces_the_default_law():
    # Amdahl's own curve (s = 0.01): USL and Amdahl both cut the all-reduce law's leave-one-out MSE below 1/20;
    # Amdahl scores better (USL's κ goes to 0, the same curve with one more parameter). Trying rivals in turn once
    # kept the USL, the worse of the two.
    f = fit([(d, 1000 * d / (1 + 0.01 * (d - 1))) for d in (1, 8, 16, 32, 64)])
    scores = {n: c.loo_rmse for n, c in f.candidates.items()}
    assert scores["amdahl"] < scores["usl"] and scores["usl"] ** 2 < 0.05 * scores["allreduce"] ** 2
    assert (f.law, f.runner_up) == ("amdahl", "usl")
    assert f.criterion.endswith("(the all-reduce law is kept unless a rival cuts its MSE to 1/20)")
    # runs that only halve it keep the default (1, 8, 16, 32: Amdahl 0.020 against 0.042, a quarter of the MSE)
    assert fit([(1, 1000), (8, 7500), (16, 14600), (32, 27000)]).law == "allreduce"


def test_leave_one_out_does_not_score_a_run_alone_in_its_regime():
    """GluonNLP BERT-base (DLPerf, V100s 8 a node): 16 is the one run across nodes. Left out, no refit sees the
    network, so the fold judged how each law guesses it: Amdahl won and said E(32) 0.60 (measured 0.76)."""
    from dpscale.sources.fit import _scored

    assert _scored(np.array([1.0, 2, 4, 8, 16]), 8).tolist() == [True, True, True, False]
    assert _scored(np.array([1.0, 8, 16]), 8).tolist() == [False, False]  # each alone: nothing scored, default law
    assert _scored(np.array([8.0, 16, 32]), 8).tolist() == [True, True]
    assert _scored(np.array([1.0, 2, 4]), None).tolist() == [True, True]  # no nodes known: one regime
    runs = [(1, 150.11), (2, 270.28), (4, 538.5), (8, 1058.6), (16, 1845.65)]
    f = fit(runs, gpus_per_node=8, resamples=100)
    assert f.law == "allreduce"
    assert f.predict([32]).efficiency[0] == pytest.approx(0.802, abs=0.002)  # measured 0.764; Amdahl said 0.604
    assert fit([(1, 1000), (8, 7500), (16, 14600)], gpus_per_node=8).criterion == fit([(1, 1000), (8, 7500)]).criterion


def test_a_term_every_measured_size_pays_alike_is_not_estimated():
    """The tree all-reduce costs 2S/B at any d ≥ 2: from a one-node baseline E cannot see it. Truth here: compute
    0.1 s, S/B 0.02 s, α 1 ms on 8-GPU nodes."""
    step = {d: 0.1 + 0.04 + 1e-3 * (14 + 2 * np.log2(d / 8)) for d in (8, 16, 32, 64, 128)}
    node = fit([(d, 8 * d / t, t) for d, t in step.items()], law="allreduce", gpus_per_node=8)
    assert math.isnan(node.parameters["transfer"].value) and math.isnan(node.seconds()["transfer_s"])
    assert node.seconds()["latency_s"] == pytest.approx(1e-3, rel=1e-3)
    assert node.seconds()["compute_s"] == pytest.approx(0.14, rel=1e-3)  # compute with the transfer inside
    assert any("transfer is the same at every measured size from d0 = 8" in w for w in node.warnings)
    step1 = {1: 0.1, **{d: t for d, t in step.items()}}
    one = fit([(d, 8 * d / t, t) for d, t in step1.items()], law="allreduce", gpus_per_node=8)
    assert one.seconds()["transfer_s"] == pytest.approx(0.02, rel=1e-2) and not one.unseen()


def test_library_answers_beyond_four_times_the_largest_size_carry_the_warning():
    f = fit([(1, 1000), (8, 7500), (16, 14600), (32, 27000)], law="amdahl")
    far = f.devices_for(throughput=1e5)
    assert far["devices"] > 128 and any("beyond 4×" in w for w in far["warnings"])
    assert f.devices_for(throughput=2e4)["warnings"] == []


def test_fit_and_prediction_reprs_are_short_and_say_the_law():
    """A fit's repr was 35,000 characters of bootstrap arrays; a prediction's was an object address."""
    import dpscale

    f = dpscale.fit([(1, 100), (2, 190), (4, 350), (8, 640)], resamples=200)
    assert repr(f).startswith(f"Fit(law={f.law!r}, ") and "sizes=[1, 2, 4, 8], resamples=200)" in repr(f)
    assert len(repr(f)) < 200 and f == f  # identity equality: arrays made == raise
    p = dpscale.predict([1, 8, 64], model="bert-large", system="dgx-a100", throughput=100, batch=8)
    assert repr(p).startswith("Prediction(E={1: 1.000, 8: ") and "per_device_throughput=100)" in repr(p)


def test_the_fit_object_refuses_what_is_not_a_size_or_a_setting():
    """Raw TypeError/OverflowError once escaped, and E(nan) = E(0) = 1.0, devices_for(efficiency=2) = nan."""
    import dpscale
    from dpscale.errors import DpscaleError

    f = dpscale.fit([(1, 100), (2, 190), (4, 350), (8, 640)], resamples=100)
    bad = [
        (lambda: dpscale.fit([(1, 100), (2, 190)], resamples=float("nan")), "resamples: got nan"),
        (lambda: dpscale.fit([(1, 100), (2, 190)], confidence="64"), "confidence: got '64'"),
        (lambda: f.predict(float("inf")), "devices: got inf"),
        (lambda: f.predict([]), "devices: got []"),
        (lambda: f.efficiency(float("nan")), "devices: got nan"),
        (lambda: f.efficiency(0), "devices: got 0"),
        (lambda: f.devices_for(efficiency=2), "efficiency: got 2; allowed: a scaling efficiency in (0, 1]"),
    ]
    for call, needle in bad:
        with pytest.raises(DpscaleError) as exc:
            call()
        assert needle in str(exc.value)
    assert 0 < f.efficiency(12.5) < 1  # between sizes: the law is continuous (solve's exact size reads it there)


def test_a_law_that_misses_a_measured_point_says_so():
    """Two sizes leave no leave-one-out score, so the all-reduce law is kept; on 8-GPU nodes it cannot fall below
    E ≈ 0.875 at 16 devices, and the measured 0.70 was missed without a word."""
    import dpscale

    f = dpscale.fit(devices=[8, 16], throughput=[800.0, 1120.0], gpus_per_node=8, resamples=100)
    (note,) = [w for w in f.warnings if w.key == "fit_misses"]
    assert "misses the measured E at 16 devices (0.700; the law: 0.879)" in note
    ok = dpscale.fit([(1, 100), (2, 190), (4, 350), (8, 640)], resamples=100)  # a law through every point
    assert not [w for w in ok.warnings if w.key == "fit_misses"]


def test_falling_throughput_is_said_whatever_the_law():
    """100, 90, 80 samples/s at 1, 2, 4 devices: the default all-reduce law has no throughput peak, and it was
    also said to pass 'through them exactly' beside its own 'misses' note. The runs' fall is now said from the data,
    and a law held off its points by its bounds is not called exact; under --law usl (which can fall) no such line."""
    import dpscale

    f = dpscale.fit(devices=[1, 2, 4], throughput=[100.0, 90.0, 80.0], resamples=100)
    keys = [w.key for w in f.warnings]
    assert f.law == "allreduce" and "fit_misses" in keys and "exact_fit" not in keys
    (note,) = [w for w in f.warnings if w.key == "runs_fall"]
    assert str(note).startswith("the measured throughput falls from 100 at 1 device to 80 at 4: past 1 device ")
    usl = dpscale.fit(devices=[1, 2, 4], throughput=[100.0, 90.0, 80.0], law="usl", resamples=100)
    assert "runs_fall" not in [w.key for w in usl.warnings]  # σ = 1.111 by hand: E(2) 0.45, E(4) 0.2
    assert usl.parameters["sigma"].value == pytest.approx(10 / 9, rel=1e-3)
    rising = dpscale.fit(devices=[1, 2, 4, 8], throughput=[100.0, 190.0, 350.0, 330.0], resamples=100)
    assert "runs_fall" not in [w.key for w in rising.warnings]  # 6 % under the peak: within the 10 % margin


def test_step_times_that_look_like_milliseconds_are_questioned():
    """step_time is in seconds; a 320 ms step typed as 320 gave 'compute 320 s' without a word. E is unchanged."""
    import dpscale

    thr = [100.0, 190.0, 350.0, 640.0]
    ms = dpscale.fit(devices=[1, 2, 4, 8], throughput=thr, step_time=[320, 336, 365, 400], resamples=100)
    s = dpscale.fit(devices=[1, 2, 4, 8], throughput=thr, step_time=[0.32, 0.336, 0.365, 0.4], resamples=100)
    (note,) = [w for w in ms.warnings if w.key == "step_time_long"]
    assert str(note).startswith("a step of 320 s at 1 device: step_time is read in seconds")
    assert "step_time_long" not in [w.key for w in s.warnings]
    assert ms.efficiency(64) == s.efficiency(64)
    assert ms.seconds()["compute_s"] == pytest.approx(1000 * s.seconds()["compute_s"])


def test_the_interval_of_a_devices_question_holds_its_answer():
    """The answer is refined to whole devices, the resampled bounds sit on a ~1 % grid: a band narrower than the
    grid once lay beside its answer (434 [435, 435], 594 [591, 591] on near-exact USL data)."""
    runs = [(d, 1000 * d / (1 + 0.002 * (d - 1) + 1e-7 * d * (d - 1)) * (1 + 1e-4 * (r - 2)))
            for d in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512) for r in range(5)]  # fmt: skip
    f = dpscale.fit(runs, law="usl")
    for q in (dict(throughput=230_000), dict(throughput=250_000), dict(efficiency=0.45), dict(efficiency=0.55)):
        a = f.devices_for(**q)
        assert a["lo"] <= a["devices"] <= a["hi"], (q, a)


def test_a_parameter_the_fit_cannot_see_reads_n_a_not_nan(tmp_path, capsys):
    """From d0 = 8 the all-reduce law's transfer term is paid at every size, so it is not estimated (nan inside):
    describe() — the note `plan --fit` prints — said 'transfer = nan', and summary() 'nan  [nan, nan]',
    where fit's own table writes '—' and docs/fit.md promises n/a."""
    from dpscale.faces.cli import main

    runs = [(8, 7500), (16, 14600), (32, 28000), (64, 53000)]
    f = dpscale.fit(runs, gpus_per_node=8, resamples=50)
    assert math.isnan(f.parameters["transfer"].value)
    assert "transfer = —; latency = 0.02" in f.describe() and "nan" not in f.describe()
    assert "  transfer = n/a  [n/a, n/a] (90 %" in f.summary() and "nan" not in f.summary()
    p = tmp_path / "runs.csv"
    p.write_text("devices,throughput\n" + "".join(f"{d},{x}\n" for d, x in runs))
    for lang, said in (("en", "transfer = —; latency = 0"), ("es", "transferencia = —; latencia = 0")):
        assert main(["plan", "-n", "1e8", "--fit", str(p), "--gpus-per-node", "8", "--lang", lang]) == 0
        out = capsys.readouterr().out  # (nan as a word: the Spanish notes 'combinan', 'manan')
        assert said in out and not re.search(r"\bnan\b", out)


def test_the_peak_interval_is_open_where_a_plausible_rival_never_peaks():
    """USL data on 1–16 devices, Amdahl not rejected: the USL's refits alone put the peak in [18, 143], but under
    the Amdahl law the data cannot reject throughput keeps rising, so the interval drawn from both is open above
    (the forced law keeps its narrower one). The earlier check (hi = ∞) held for the USL's refits alone too."""
    runs = [(1, 1003), (2, 1796), (4, 3356), (8, 5110), (16, 6742)]
    auto = dpscale.fit(runs, resamples=400)
    assert auto.law == "usl" and [n for n, _, _ in auto.rivals] == ["amdahl"]
    forced = dpscale.fit(runs, law="usl", resamples=400).peak()
    assert forced["lo"] <= forced["devices"] <= forced["hi"] < math.inf
    peak = auto.peak()
    assert peak["devices"] == forced["devices"] and peak["lo"] <= peak["devices"] and peak["hi"] == math.inf


def test_a_split_two_sizes_cannot_measure_is_said():
    """Two sizes, the all-reduce law's two terms: transfer = latency = 0.0278 [0.016, 0.039] read as measured, but
    one point fits any split of the loss between them. The note says so; three sizes and Amdahl's one term do not."""
    two = dpscale.fit([(1, 1000), (2, 1800)], resamples=100)
    said = [w for w in two.warnings if w.key == "split_unmeasured"]
    assert said and str(said[0]).startswith("2 parameters (transfer, latency) for 1 point above the baseline")
    assert not any(w.key == "split_unmeasured" for w in dpscale.fit([(1, 1000), (2, 1800), (4, 3300)]).warnings)
    assert not any(w.key == "split_unmeasured" for w in dpscale.fit([(1, 1000), (2, 1800)], law="amdahl").warnings)


def test_a_prediction_interval_holds_its_point_at_any_level():
    """With rival laws the draws are a mixture: at 50 % the interval was [0.453, 0.820] beside a point of 0.845."""
    f = dpscale.fit([(1, 1000), (8, 7500), (16, 14600), (32, 28000)], gpus_per_node=8, confidence=0.5)
    p = f.predict([64, 256, 1024])
    assert np.all(p.efficiency_lo <= p.efficiency) and np.all(p.efficiency <= p.efficiency_hi)
    assert np.all(p.throughput_lo <= p.throughput) and np.all(p.throughput <= p.throughput_hi)


def test_answers_are_sought_past_a_million_devices_when_the_runs_are_there():
    # Runs at 1.0, 1.5 and 2.0 million devices: 1.45e9/s was measured at 1.5 million, so 1.2e9/s is reachable
    # between 1.0 and 1.5 million. The search stopped at 2^20 = 1,048,576 and answered "unreachable" (∞).
    f = fit([(1_000_000, 1.0e9), (1_500_000, 1.45e9), (2_000_000, 1.9e9)], resamples=200)
    assert f.search_cap == 8_000_000  # 4× the largest run
    need = f.devices_for(throughput=1.2e9)["devices"]
    assert 1_000_000 < need < 1_500_000
    # a law that keeps rising: no peak up to the cap, which lies past the runs, not below them (its interval
    # holds one from 7.1 million, near that cap: a plausible USL turning there)
    peak = f.peak()
    assert peak["devices"] == np.inf and 2_000_000 < peak["lo"] < f.search_cap and peak["hi"] == np.inf
    small = fit([(1, 1000), (2, 1980), (4, 3900)], resamples=200)
    assert small.search_cap == 1 << 20  # runs far below it keep the old search (and its answers)


def test_a_unit_slip_just_past_e_2_is_shown_past_2():
    # 401 at 2 devices against 100 at 1 is E = 2.005: it said 'E = 2; allowed: E up to 2'
    with pytest.raises(DpscaleError, match=r"is E = 2\.005; allowed: E up to 2 ") as exc:
        fit([(1, 100), (2, 401)])
    assert "\n" not in str(exc.value)
    with pytest.raises(DpscaleError, match=r"is E = 2\.000001; allowed"):
        fit([(1, 100), (2, 400.0001)])


def test_runs_as_a_two_column_array():
    """np.column_stack([devices, throughput]) — rows of a numpy array — was refused ('runs[0]: got array([1, 100])');
    it fits as the same rows in a list do."""
    import dpscale

    rows = [[1, 100], [2, 195], [4, 380], [8, 720], [16, 1300]]
    f = dpscale.fit(np.array(rows), resamples=100)
    assert f.runs.devices == (1, 2, 4, 8, 16) and f.efficiency(64) == dpscale.fit(rows, resamples=100).efficiency(64)


def test_a_missing_rate_is_not_quoted_as_text():
    """A NaN or a masked rate from numpy was quoted as text ('nan', 'None'), as if typed; a field's text still is."""
    import dpscale

    d = [1, 2, 4, 8, 16]
    for rates, shown in (([100, 195, float("nan"), 720, 1300], "nan"),
                         (np.ma.masked_array([100, 195, 380, 720, 1300], [0, 0, 1, 0, 0]), "None"),
                         ([100, 195, "abc", 720, 1300], "'abc'")):  # fmt: skip
        with pytest.raises(DpscaleError, match=rf"^point 2, throughput: got {shown}; allowed: a number"):
            dpscale.fit(devices=d, throughput=rates)


def test_a_law_that_keeps_rising_still_gives_the_peak_its_interval_holds(capsys, tmp_path):
    """USL data (σ = 0.01, κ = 2e-4: peak at √((1 − σ)/κ) = 70.4) measured to 32 with ±1 % noise: the all-reduce law
    is kept (Amdahl was chosen before session 41) and has no peak, while the plausible USL does. peak() was None
    ('no peak') though its interval, pooled over the laws, holds the true peak: in simulation 'no peak' was said in
    18–82 % of such fits."""
    d = np.array([1, 2, 4, 8, 16, 32.0])
    x = 1000 * d / (1 + 0.01 * (d - 1) + 2e-4 * d * (d - 1)) * (1 + np.array([0, 0.01, -0.01, 0.01, -0.01, 0.01]))
    f = dpscale.fit(devices=d, throughput=x, seed=0)
    # (the all-reduce law is kept: USL and Amdahl cut its leave-one-out MSE to 0.08, not below 1/20)
    assert f.law == "allreduce" and [name for name, _, _ in f.rivals] == ["usl", "amdahl"]
    peak = f.peak()
    assert peak["devices"] == np.inf and 40 < peak["lo"] <= 70.4 and peak["hi"] == np.inf
    runs = tmp_path / "runs.csv"
    runs.write_text("devices,throughput\n" + "".join(f"{a:g},{b:.17g}\n" for a, b in zip(d, x)))
    rc, out, _ = run(capsys, "fit", str(runs), "--seed", "0")
    said = f"no peak up to 1,048,576 devices; yet its 90 % interval lets it peak anywhere in [{peak['lo']:.0f}, ∞]"
    assert rc == 0 and said in out
    # no rival and no κ in the resamples: still None ('no peak' alone)
    assert dpscale.fit(devices=d, throughput=1000 * d / (1 + 0.01 * (d - 1)), law="amdahl").peak() is None


def test_a_parameters_interval_holds_its_point_even_where_the_solver_stops_short():
    """E ≈ 1e-12 at 2 devices: the refits stop before converging and their band lay beside the point
    ('transfer = 1,564 [404.4, 413.5]')."""
    for p in fit([(1, 1000), (2, 1e-9)], resamples=200).parameters.values():
        assert p.lo <= p.value <= p.hi


def test_per_device_rates_typed_as_whole_runs_are_questioned():
    """1,900 / 2,875 / … / 16,762 are per-device rates: read as whole runs E falls to 0.053 at 16, a fit of a
    cluster that does not scale, which only 'these runs do not scale' questioned. 16× the devices for ×0.847 the
    throughput now says what fit reads; runs that scale (×13.6 over 16×) or span under 4× the devices do not."""
    import dpscale

    f = dpscale.fit(devices=[1, 2, 4, 8, 16], throughput=[900.0, 875, 850, 812, 762], resamples=100)
    (note,) = [w for w in f.warnings if w.key == "runs_flat"]
    assert str(note).startswith("16× the devices (1 → 16) give ×0.847 the throughput (E 0.053): fit reads each run's")
    ok = dpscale.fit(devices=[1, 2, 4, 8, 16], throughput=[900.0, 1750, 3400, 6500, 12200], resamples=100)
    assert "runs_flat" not in [w.key for w in ok.warnings]
    short = dpscale.fit(devices=[1, 2, 3], throughput=[900.0, 875, 850], resamples=100)  # 3×: not this note's call
    assert "runs_flat" not in [w.key for w in short.warnings]
    edge = dpscale.fit(devices=[2, 4, 8], throughput=[100.0, 105, 109.9], resamples=100)  # never 10 % above d0
    assert "runs_flat" in [w.key for w in edge.warnings]
    # runs that scale poorly but grew are whole-run data (a diff review found the note on each of these, first
    # against last only): `measure` on 2 cores (1,000 → 1,200 on 1 → 4), a USL peak, a collapsed last point
    for x, d in (
        ([1000.0, 1100, 1200], [1, 2, 4]),
        ([1000.0, 1800, 2800, 2500, 1400], [1, 2, 4, 8, 16]),
        ([900.0, 1750, 3400, 6500, 800], [1, 2, 4, 8, 16]),
        ([100.0, 120, 110.1], [2, 4, 8]),
    ):
        assert "runs_flat" not in [w.key for w in dpscale.fit(devices=d, throughput=x, resamples=100).warnings]


def test_two_sizes_and_two_terms_give_intervals_that_span_the_splits_the_runs_cannot_tell_apart():
    """1 → 8 devices at 7,000/s with the USL forced: σ alone (1/49, no peak) and κ alone (1/392, a peak at 20)
    fit the runs exactly and put E(32) at 0.612 and 0.283; the interval was [0.327, 0.484] and the peak
    28 [24, 34], the ridge's even split alone."""
    f = dpscale.fit(devices=[1, 8], throughput=[1000, 7000], law="usl", seed=0)
    sigma_only, kappa_only = dpscale.USL(1 / 49, 0), dpscale.USL(0, 1 / 392)  # 1 + 7σ = 1 + 56κ = 8/7
    assert sigma_only.efficiency(8) == pytest.approx(0.875) == kappa_only.efficiency(8)
    p = f.predict(32)
    assert p.efficiency_lo[0] < kappa_only.efficiency(32) < sigma_only.efficiency(32) < p.efficiency_hi[0]
    assert f.peak()["hi"] == math.inf and f.peak()["lo"] < 20  # σ alone never peaks; κ alone at √392 = 19.8
    assert f.efficiency(8) == pytest.approx(0.875, abs=1e-3)  # the point still passes through the runs
    three = dpscale.fit(devices=[1, 8, 16], throughput=[1000, 7000, 11000], law="usl", seed=0)
    assert three.peak()["hi"] < math.inf  # with a point per term, the runs decide the split: no spreading


def test_the_split_is_spread_in_the_chosen_laws_own_rows_beside_rival_laws_too():
    """Auto mode on 1 → 8: the all-reduce law (transfer, latency) with usl and amdahl as rivals. The spread took
    rows i mod 3 ≠ 0 and the rivals took the same rows, so the chosen law kept only the ridge's split: E(32) in
    [0.351, 0.869] though transfer alone fits the runs exactly and puts E(32) at 0.875."""
    f = dpscale.fit(devices=[1, 8], throughput=[1000, 7000], seed=0)
    assert f.law == "allreduce" and [n for n, _, _ in f.rivals] == ["usl", "amdahl"]
    from dpscale.sources.fit_laws import LAWS

    basis = LAWS["allreduce"].basis(np.array([8.0, 32.0]), None)  # (transfer, latency) at 8 and 32
    transfer_only = 1 / (1 + (8000 / 7000 - 1) * basis[0, 1] / basis[0, 0])  # 0.875: a tree's bytes stop growing
    p = f.predict(32)
    mine = f.samples[np.arange(f.samples.shape[0]) % 3 == 0]
    assert (mine[:, 1] == 0).any() and (mine[:, 0] == 0).any()  # each term alone among the chosen law's rows
    assert transfer_only == pytest.approx(0.875) and p.efficiency_hi[0] > transfer_only and p.efficiency_lo[0] < 0.3
    # the parameters' intervals read every row: spread alike, at any level (at 0.5 they once left out both ends:
    # transfer [0.0309, 0.0407], where the forced law's is [0, 0.0641])
    half = dpscale.fit(devices=[1, 8], throughput=[1000, 7000], seed=0, confidence=0.5)
    assert half.parameters["transfer"].lo == 0 and half.parameters["latency"].lo == 0
    assert half.parameters["transfer"].hi > 0.06


def test_a_peak_below_the_smallest_run_is_said_and_inside_its_interval():
    """16 → 32 devices losing 70 % of the throughput, USL forced: 'peaks at 3 devices [4, 5]' — a point outside its
    own interval (the misfit law's resamples are skewed), below d0 = 16 without a word."""
    p = dpscale.fit([(16, 16000), (32, 4800)], law="usl", seed=0).peak()
    assert p["lo"] <= p["devices"] <= p["hi"] and round(p["devices"]) == 3
    (w,) = [w for w in p["warnings"] if w.key == "peak_below"]
    assert str(w).startswith("the throughput peak, at 3 devices, lies below the smallest measured size (d0 = 16)")
    assert not [w for w in dpscale.fit([(1, 1000), (8, 7000), (16, 11000)], law="usl").peak()["warnings"]
                if w.key == "peak_below"]  # fmt: skip


def test_the_devices_needed_carry_the_baseline_noise_the_fit_estimates():
    """Runs from 8 GPUs with 1.8 % noise: 8,000/s (the measured baseline) needed '8 [8, 8]' and 8,001/s
    '9 [9, 9]' — each resample was anchored at the measured baseline, with no draw of its noise. Each
    resample's throughput is X0*·(d/d0)·E*(d), as predict's."""
    f = dpscale.fit([(8, 8000), (16, 15000), (32, 28000), (64, 50000)], gpus_per_node=8)
    for target, point in ((8000, 8), (8001, 9)):
        got = f.devices_for(throughput=target)
        assert (got["devices"], got["lo"], got["hi"]) == (point, 8, 9)  # (docs/fit.md quotes it)


def test_a_prediction_at_a_measured_size_counts_the_baseline_noise_once():
    """At a measured size the interval's spread is one run's and the mean's at that size, not the baseline's
    again: with the shared baseline drawn afresh the half-width at 4 devices was 1.4× (√(1 + 1 + 2)/√(1 + 1))."""
    f = dpscale.fit([(1, 1000), (2, 1960), (4, 3840), (8, 7440)], law="amdahl", resamples=20000, seed=3)
    p = f.predict(4)
    half = math.log(p.throughput_hi[0] / p.throughput_lo[0]) / 2
    s = float(np.median(f.noise_draws))
    assert half / s < 1.645 * 2**0.5 * 1.15  # about z·σ·√2 with σ's own spread: 2.30; the double count gave 3.10


def test_the_bound_on_repeated_runs_is_the_range_of_their_own_count():
    """Pearson & Hartley's 95 % points of the range of n normal draws (2.77 … 4.47 for 2 … 10, 4.62 for 12, 5.01
    for 20): twelve runs were held to the 10-run 4.47 % and the note said it was twelve's."""
    from dpscale.sources.fit_runs import range_95

    table = {2: 2.77, 3: 3.31, 4: 3.63, 5: 3.86, 6: 4.03, 7: 4.17, 8: 4.29, 9: 4.39, 10: 4.47, 12: 4.62, 20: 5.01}
    assert {n: round(range_95(n), 2) for n in table} == table
    xs = [1000 + 46 * k / 11 for k in range(12)]  # 12 runs spread 46 / 1,023 = 4.50 %: within 4.62 %, past 4.47 %
    f = dpscale.fit([(1, x) for x in xs] + [(2, 1950), (4, 3800), (8, 7400)])
    assert any(w.key == "runs_repeated" and w.fields["n"] == 12 for w in f.warnings)


@pytest.mark.parametrize(("law", "said"), [("amdahl", (41, 35, 48)), ("auto", (332, 35, np.inf))])
def test_the_size_keeping_a_minimum_e_reads_e_as_predict_does(law, said):
    """E against the measured baseline, as predict's band and the tables: the answer's interval read E* against
    each resample's own baseline draw, '41 [32, 54]' for E ≥ 80 % where a one-run E at 54 reaches 79.1 % at most
    and one at 32 falls to 81.1 % at least. Now its ends lie where predict's one-run band still holds 80 %."""
    f = dpscale.fit([(1, 1000), (8, 7500), (16, 14600), (32, 27000)], law=law)
    a = f.devices_for(efficiency=0.8)
    assert (a["devices"], a["lo"], a["hi"]) == said
    # (auto keeps the all-reduce law, whose slow decline and Amdahl's fast one are both plausible: no upper end)
    p = f.predict([x for x in (a["lo"], a["hi"]) if np.isfinite(x)])
    assert p.efficiency_lo[0] < 0.8 and (np.isinf(a["hi"]) or 0.8 < p.efficiency_hi[1])


def test_a_pasted_copy_of_a_run_does_not_loosen_the_conflict_bound():
    """1,000 and 1,030 at one device conflict (3.0 % > 2.77 %); pasting 1,000 again made them '3 repeated runs',
    held to three runs' 3.31 % — while the noise, rightly, counted the copy once."""
    two = dpscale.fit([(1, 1000), (1, 1030), (2, 1950), (4, 3800)])
    three = dpscale.fit([(1, 1000), (1, 1000), (1, 1030), (2, 1950), (4, 3800)])
    for f, n in ((two, 2), (three, 3)):
        (w,) = [w for w in f.warnings if w.key in ("runs_conflicting", "runs_repeated")]
        assert w.key == "runs_conflicting" and w.fields["n"] == n and w.fields["k"] == 2
        assert round(w.fields["bound"], 2) == 2.77


def test_a_term_at_its_bound_is_shown_as_zero(capsys):
    """The all-reduce law's transfer term pinned at 0 came back from the solver as 4.2e-17 and was printed as
    'transfer = 4.189e-17' (in seconds too)."""
    f = dpscale.fit(devices=[1, 8, 16], throughput=[1000, 7600, 14800], law="allreduce")
    assert f.parameters["transfer"].value == 0.0 and f.values[0] == 0.0
    assert f.parameters["latency"].value > 0.005
    rc, out, _ = run(capsys, "fit", "--law", "allreduce", *(f"--point={p}" for p in ("1:1000", "8:7600", "16:14800")))
    assert rc == 0 and "transfer = 0  [0," in out


@pytest.mark.parametrize(
    "call, where",
    [
        (lambda: fit(devices=np.array(["1", "2", "4", "8"]), throughput=[1000, 1950, 3800, 7200]), "point 0, devices"),
        (lambda: fit([(1, "1000"), (2, 1950), (4, 3800)]), "runs[0], throughput"),
        (lambda: fit(devices=[1, 2, 4], throughput=[1000, 1950, 3800], step_time=[0.1, b"0.2", 0.3]), "point 1, step"),
    ],
)
def test_the_library_refuses_text_where_python_has_numbers(call, where):
    """scale() refuses devices given as text; fit read np.array(['1', …]) as numbers and fitted. Files and flags
    are text by nature and stay read as such (the CLI's --point and CSV cells go through Run objects)."""
    with pytest.raises(DpscaleError, match=rf"^{re.escape(where)}\w*: got .*; allowed: a number \(text is read"):
        call()
    assert fit([(1, 1000), (2, 1950), (4, 3800)]).runs.devices == (1, 2, 4)  # numbers, as ever


def test_the_library_refuses_text_in_dict_runs_too():
    """Dicts (measure records loaded by hand) took '1' and '100' as numbers where pairs refused them; numpy's text
    is said as text ('1', not np.str_('1'))."""
    runs = [{"devices": "1", "throughput": "100"}, {"devices": 2, "throughput": 190}, {"devices": 4, "throughput": 350}]
    with pytest.raises(DpscaleError, match=r"^runs\[0\], devices: got '1'; allowed: a number \(text is read"):
        fit(runs)
    with pytest.raises(DpscaleError, match=r"^point 0, devices: got '1'; allowed: a number"):
        fit(devices=[np.str_("1"), 2, 4], throughput=[100, 190, 350])


def test_a_missed_point_far_below_the_law_shows_both_figures():
    """1 sample/s at 10,000,000 devices against 100 on one: E = 1e-9 measured, 2.0e-4 for the all-reduce law; the
    note that names the miss read '(0.000; the law: 0.000)', two equal figures for a gap of 200,000×."""
    import dpscale
    from dpscale.faces.i18n import say

    f = dpscale.fit(devices=[1, 10_000_000], throughput=[100.0, 1.0], law="allreduce", resamples=50)
    (note,) = [w for w in f.warnings if w.key == "fit_misses"]
    assert "at 10,000,000 devices (1e-09; the law: 0.000202)" in note
    assert note.fields["measured"] == pytest.approx(1e-9) and note.fields["law_e"] == pytest.approx(2.02e-4, rel=0.01)
    assert "con 10.000.000 dispositivos (1e-09; la ley: 0,000202)" in say(note, "es")


def test_peak_and_devices_for_take_the_resamples_a_block_at_a_time(monkeypatch):
    """The peak's and devices_for's grids (1,200–1,400 sizes) were read for every resample at once: at --resamples
    100,000 that is 1.4e8 values an array and 2.1 GB at its peak, past the MAX_CELLS that bounds every other array
    of resamples. They go a block of resamples at a time now, with the same answers to the last digit."""
    import dpscale.sources.fit as fit_module

    runs = {"devices": [1, 2, 4, 8, 16, 32, 64], "throughput": [1000, 1950, 3800, 7400, 14000, 26000, 47000]}
    mixed = fit(**runs, gpus_per_node=8, resamples=2000)  # plausible rival laws: the mixture's rows
    amdahl = fit(**runs, law="amdahl", resamples=2000)  # a law whose peak is searched on the grid
    assert mixed.rivals and not amdahl.rivals

    def answers():  # type: ignore[no-untyped-def]
        return [(f.peak(), f.devices_for(throughput=70_500.0), f.devices_for(efficiency=0.7)) for f in (mixed, amdahl)]

    whole = answers()
    cells: list[int] = []
    real = fit_module.log_efficiency

    def spy(law, p, d, d0, g):  # type: ignore[no-untyped-def]
        cells.append(int(np.size(p) // law.k * np.size(d)))
        return real(law, p, d, d0, g)

    monkeypatch.setattr(fit_module, "GRID_CELLS", 50_000)
    monkeypatch.setattr(fit_module, "log_efficiency", spy)
    assert answers() == whole
    assert max(cells) <= 50_000 < 2000 * 1200  # each block within the bound; the whole would be 2.4e6
    assert whole[1][0] is None and whole[0][1]["devices"] == 89  # Amdahl has no peak; 1.5× the top rate at 89


# Mutation sweep 10 (session 35, of 559d506..69451fc): gaps the suite left open, each killing a surviving mutant.


# ---- fit.py: AT_BOUND (now fit_solve.py's) --------------------------------------------------------------------
def test_a_small_fitted_term_is_not_taken_for_one_at_its_bound():
    """A serial fraction of 1.16e-5 (scaled 3.6e-4) is a fitted value, not the solver's 4e-17 at the bound."""
    f = dpscale.fit(devices=[1, 8, 16, 32], throughput=[1000, 7999, 15996, 31990], law="amdahl", resamples=50)
    assert f.values[0] == pytest.approx(1.15928e-05, rel=1e-4)
    assert f.parameters["serial_fraction"].value == pytest.approx(1.15928e-05, rel=1e-4)


# ---- fit_runs.py: the conflict note's decimals ----------------------------------------------------------------
def test_a_spread_past_the_bound_in_the_fifth_decimal_is_said_in_five():
    f = dpscale.fit([(1, 100), (2, 196), (2, 201.50912), (4, 380), (8, 700)], resamples=100)
    (w,) = [w for w in f.warnings if w.key == "runs_conflicting"]
    assert w.fields["places"] == 5
    assert "(spread 2.77182 %, beyond the 2.77181 % within which" in w


# Cases a fourth mutation sweep (session 28: sources.fit*, laws, dataset, predict_validate, faces.output and the
# CLI's number and size parsing; 212 mutants, 26 non-equivalent survivors) found no test could fail on. Each expected
# value is derived in its comment.


def test_a_law_that_misses_its_worst_point_says_that_point():
    """Amdahl through 1, 2, 4, 8 near-perfect and a collapse at 16 (8,000/s): the measured E at 8 devices is
    7,700 / (8 · 1,000) = 0.9625, far above the fitted law there; the warning names that size and value."""
    f = dpscale.fit([(1, 1000), (2, 1980), (4, 3900), (8, 7700), (16, 8000)], law="amdahl")
    assert any("misses the measured E at 8 devices (0.963;" in w for w in f.warnings)


def test_repeats_say_their_spread_over_their_mean():
    """1,900 and 2,000 at 2 devices: spread (2,000 − 1,900) / 1,950 = 5.13 %, averaged to 1,950 (over the smaller
    it would be 5.3 %)."""
    f = dpscale.fit([(1, 1000), (2, 1900), (2, 2000), (4, 3600), (8, 6800)])
    assert (
        "2 conflicting runs of 2 devices (spread 5.13 %, beyond the 2.77 % within which 1 % run-to-run noise keeps "
        "2 runs 95 % of the time) averaged to 1,950"
    ) in f.warnings


def test_the_milliseconds_question_reads_the_first_size_step_time():
    """The step time the fit's seconds() use is the smallest size's: 150 s there is said, whatever the last size
    (9 s) gives."""
    f = dpscale.fit([(1, 1000, 150), (2, 1900, 158), (4, 3600, 9)])
    assert any(w.startswith("a step of 150 s at 1 device: step_time is read in seconds") for w in f.warnings)


# Tests from a mutation sweep of session 33's code (131 mutants, 84 killed by the earlier tests, 7 equivalent):
# each asserts an answer a surviving mutant changed, verified against the code and by running both.


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


class Frame:
    """A DataFrame as fit reads one, duck-typed: .columns, a column by name, and iterating it gives its names."""

    def __init__(self, **cols):
        self.cols = cols
        self.columns = list(cols)

    def __getitem__(self, name):
        return self.cols[name]

    def __iter__(self):
        return iter(self.columns)


def test_a_table_with_columns_is_read_by_its_column_names():
    """fit(df) was refused 'runs: got a mapping (DataFrame)' (review MV): its rows are runs, as fit(devices=…,
    throughput=…) reads them, a blank (NaN) step_time a cell not given, as a CSV's blank is."""
    cols = {"devices": [1, 8, 16, 32], "throughput": [1000.0, 7500.0, 14000.0, 26000.0]}
    got = dpscale.fit(Frame(**cols, step_time=[0.1, math.nan, 0.2, 0.3], unit=["samples/s"] * 4))
    want = dpscale.fit(**cols)
    assert got.parameters == want.parameters and got.law == want.law == "allreduce"
    assert got.predict(64).records() == want.predict(64).records() and got.unit == "samples/s"
    assert message(lambda: dpscale.fit(Frame(devices=[1, 8], throughput=[1000.0, math.nan]))) == (
        "runs[1], throughput: got nan; allowed: a number from 1e-9 to 1e15"
    )
    assert message(lambda: dpscale.fit(Frame(d=[1, 8], x=[1000.0, 7000.0]))) == (
        "runs: got a table (Frame) with columns d, x; allowed: columns devices and throughput (step_time, unit "
        "optional), each once, or columns as fit(devices=df[…], throughput=df[…])"
    )
    said = message(lambda: dpscale.fit({"devices": [1, 8], "throughput": [1000.0, 7000.0]}))
    assert said.startswith("runs: got a mapping (dict)")  # a dict of columns stays refused: one record is a dict too


def test_a_pandas_dataframe_is_read_as_its_runs():
    """The real thing where pandas is installed (it is no dependency, nor in the test extra): a DataFrame of
    `dpscale measure` records picks its set-up with only=, as a list of the records does."""
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"devices": [1, 8, 16, 32, 64], "throughput": [1000.0, 7500, 14000, 26000, 48000]})
    assert dpscale.fit(df).parameters == dpscale.fit(devices=df.devices, throughput=df.throughput).parameters
    recs = [
        {"workload": w, "backend": "gloo", "batch": 16, "devices": d, "throughput": x * d * 0.9**i}
        for w, x in (("mlp", 1000), ("cnn", 500))
        for i, d in enumerate([1, 2, 4])
    ]
    got = dpscale.fit(pd.DataFrame(recs), only={"workload": "cnn"})
    assert got.parameters == dpscale.fit(recs, only={"workload": "cnn"}).parameters
    assert dpscale.PerSize.of(df.devices, df.throughput / df.devices / 1000).efficiency(8) == 0.9375


def test_a_table_s_blank_set_up_cell_is_a_key_not_given():
    """Review MY: pandas.DataFrame(records) where the mlp records have no "zero" holds NaN there and 1.0 in the cnn
    rows; fit read zero=None (another set-up than ZeRO 0: 'zero None → 1.0') and only={"zero": 1} was refused
    'allowed: … workload=mlp, zero=None (3); workload=cnn, zero=1.0 (3)', where the records' list is read."""
    recs = [
        {"workload": w, "backend": "gloo", "batch": 16, "devices": d, "throughput": x * d * 0.9**i, **z}
        for w, x, z in (("mlp", 1000, {}), ("cnn", 500, {"zero": 1}))
        for i, d in enumerate([1, 2, 4])
    ]
    cols = {k: [r.get(k, math.nan) for r in recs] for k in ("workload", "backend", "batch", "devices", "throughput")}
    table = Frame(**cols, zero=[math.nan] * 3 + [1.0] * 3)  # (as pandas holds it: a column with a blank is floats)
    for only in ({"zero": 1}, {"zero": 0}):
        assert dpscale.fit(table, only=only).parameters == dpscale.fit(recs, only=only).parameters
    said = message(lambda: dpscale.fit(table))
    assert said == message(lambda: dpscale.fit(recs)) and "zero 0 → 1)" in said


@pytest.mark.parametrize(
    "cols",
    [
        {"devices": 5, "throughput": 5},  # a column of one value
        {"devices": [1, 8], "throughput": [1000.0]},  # two lengths: zip read one run of the two
    ],
)
def test_a_table_whose_columns_are_no_lists_of_one_length_is_refused_in_one_line(cols):
    """Review MY: a duck-typed table whose column is one number raised TypeError ("'int' object is not
    iterable"), and columns of two lengths were cut to the shorter, 'got 1 run of size 1'."""
    assert message(lambda: dpscale.fit(Frame(**cols))) == (
        "runs: got a table (Frame) whose columns do not read as lists of one length; allowed: a DataFrame (pandas, "
        "polars), or columns as fit(devices=df[…], throughput=df[…])"
    )


def test_a_report_s_question_is_recorded_as_the_number_it_asked():
    """Review MY: Fit.report(target_throughput=[20000]) recorded "target": [20000], and a Decimal or Fraction was
    kept as given, so json.dumps(report) raised TypeError; each is now the number devices_for read."""
    import json
    from decimal import Decimal
    from fractions import Fraction

    f = dpscale.fit(devices=[1, 8, 16, 32], throughput=[1000.0, 7500, 14000, 26000], resamples=100)
    for target, eff in (([20000], [0.5]), (Decimal("20000"), Decimal("0.5")), (Fraction(20000), Fraction(1, 2))):
        report = json.loads(json.dumps(f.report(target_throughput=target, min_efficiency=eff)))
        assert report["devices_for_throughput"]["target"] == 20000 and report["devices_for_throughput"]["devices"] == 24
        assert report["devices_for_efficiency"]["min_efficiency"] == 0.5
    assert message(lambda: f.report(target_throughput=[1, 2])) == "target_throughput: got [1, 2]; allowed: one number"


def test_a_table_is_no_per_size_table():
    """PerSize(df) said 'table: got ['devices', 'efficiency']' (iterating a DataFrame gives its column names)."""
    said = message(lambda: dpscale.PerSize(Frame(devices=[1, 8], efficiency=[1.0, 0.9])))
    assert said == (
        "table: got a table (Frame); allowed: (devices, efficiency) pairs, or its columns as "
        "PerSize.of(df.devices, df.efficiency)"
    )


# Mutation sweep 9 (session 35, of 9e8c82d..559d506): gaps the suite left open, each killing a surviving mutant.


# ---- fit.py: devices_for(efficiency=…) --------------------------------------------------------------------
def test_a_minimum_e_held_exactly_is_kept_and_a_low_baseline_draw_answers_d0():
    """E ≥ the minimum, not >: runs that scale perfectly keep E = 1 at every size (∞), the resamples whose
    baseline draw falls below answer d0 (1), not NaN."""
    f = dpscale.fit([(1, 100), (2, 200), (4, 400), (8, 800)])
    a = f.devices_for(efficiency=1.0)
    assert (a["devices"], a["lo"], a["hi"]) == (math.inf, 1.0, math.inf)
    noisy = dpscale.fit([(1, 100), (1, 101.5), (2, 197), (2, 199), (4, 380), (8, 700), (16, 1250)], law="amdahl")
    a = noisy.devices_for(efficiency=0.99)
    assert (a["devices"], a["lo"], a["hi"]) == (1.0, 1.0, 2.0)


# ---- fit_runs.py: range_95, the conflict note, a fit's JSON --------------------------------------------------
def test_the_two_run_bound_is_the_closed_form():
    """Two runs' range is √2·|Z|: its 95th percentile is √2·z(0.975) = 2.771808 exactly (the grid keeps it to
    1e-5; a coarser one read 2.77196, which moves the conflict bound)."""
    from statistics import NormalDist

    from dpscale.sources.fit_runs import range_95

    assert range_95(2) == pytest.approx(2**0.5 * NormalDist().inv_cdf(0.975), abs=1e-5)


def test_identical_copies_are_held_to_the_two_run_bound():
    f = dpscale.fit([(1, 1000), (1, 1000), (2, 1950), (4, 3800)])
    (w,) = [w for w in f.warnings if w.key == "runs_repeated"]
    assert w.fields["k"] == 2 and round(w.fields["bound"], 2) == 2.77


def test_the_conflict_note_gives_two_decimals_in_spanish(capsys):
    rc, out, _ = run(capsys, "fit", "--lang", "es", "--point", "1:1000", "--point", "1:1030", "--point", "2:1950",
                     "--point", "4:3800", "--resamples", "100")  # fmt: skip
    said = (
        "2 ejecuciones discordantes de 1 dispositivo (dispersión 2,96 %, más que el 2,77 % que un ruido del 1 % entre "
        "ejecuciones no supera con 2 ejecuciones el 95 % de las veces)"
    )
    assert rc == 0 and said in out


def test_a_spread_just_past_the_bound_is_said_in_the_decimals_that_show_it(capsys):
    """196 and 201.513 spread 2.774 % against the 2.772 % bound of two runs: both printed as '2.77 %' (the sweep's
    review). The two take the decimals that tell them apart, in both languages; 2 where those do."""
    runs = ["--point", "1:100", "--point", "2:196", "--point", "2:201.5130", "--point", "4:380", "--point", "8:700"]
    rc, out, _ = run(capsys, "fit", *runs, "--resamples", "100")
    assert rc == 0 and "(spread 2.774 %, beyond the 2.772 % within which" in out
    rc, out, _ = run(capsys, "fit", *runs, "--resamples", "100", "--lang", "es")
    assert rc == 0 and "(dispersión 2,774 %, más que el 2,772 % que un ruido" in out
    f = dpscale.fit([(1, 100), (2, 196), (2, 201.513), (4, 380), (8, 700)], resamples=100)
    (w,) = [w for w in f.warnings if w.key == "runs_conflicting"]
    assert w.fields["places"] == 3


def test_a_spread_equal_to_the_bound_at_nine_decimals_is_no_conflict(capsys):
    """A spread matching the two-run bound to 9 decimals read '2.771808023 % beyond the 2.771808023 %'."""
    rc, out, _ = run(capsys, "fit", "--point=1:100", "--point=1:102.81076249271857", "--point=2:190",
                     "--point=4:360", "--resamples", "50")  # fmt: skip
    assert rc == 0 and "2 repeated runs of 1 device (spread 2.8 %)" in out and "conflicting" not in out


# Review 43 (E): the change set 5abbe34..04ad0c8 read hunk by hunk; each test fails without its fix.


def test_the_notes_left_at_three_decimals_write_a_tiny_e_by_the_one_rule(capsys, tmp_path):
    """30b5900 made notes.e3 'one rule for writing an E', but two notes kept '{e:.3f}': fit's flat-runs note said
    'E 0.000' of per-device rates (E ≈ d0/d), and predict's accumulation note 'E 0.000 instead of 0.000'.
    By hand: 101/s on 8,192 devices against 100/s on one is E = 101 / (8,192 × 100) = 1.233e-4."""
    runs = tmp_path / "flat.csv"
    runs.write_text("devices,throughput\n1,100\n4096,100\n8192,101\n")
    rc, out, err = run(capsys, "fit", str(runs))
    assert rc == 0 and "give ×1.01 the throughput (E 0.000123): fit reads" in out + err
    rc, out, err = run(capsys, "fit", str(runs), "--lang", "es")
    assert rc == 0 and "solo multiplica el rendimiento por 1,01 (E 0,000123): fit lee" in out + err
    import re

    from dpscale.sources.predict import predict

    kw = dict(model="resnet-50", system="aws-p4d", params=1e12, inter_bw_gbs=0.01, intra_bw_gbs=0.01, grad_accum=4)
    (note,) = [n for n in predict([8, 64], **kw).notes if n.key == "accumulation_exposed"]
    hidden, exposed = re.search(r"at 64 devices E (\S+) instead of (\S+)\)$", note).groups()  # type: ignore[union-attr]
    assert "0.000" not in (hidden, exposed)  # each its 3 significant digits: the figure it stands for, read back
    assert float(hidden) == pytest.approx(note.fields["e_hidden"], rel=5e-3) and note.fields["e_hidden"] < 1e-6
    assert float(exposed) == pytest.approx(note.fields["e"], rel=5e-3)
    (ordinary,) = [n for n in predict([8, 64], model="resnet-50", system="dgx-a100", grad_accum=4).notes
                   if n.key == "accumulation_exposed"]  # fmt: skip
    assert re.search(r"E 0\.\d{3} instead of 0\.\d{3}\)$", ordinary)  # three decimals, as before


def test_warnings_at_finds_a_runner_up_past_the_first_block(monkeypatch):
    """0cef675's test put the first runner-up size (24) inside the first block of five sizes, so a warnings_at that
    read the first block alone passed it (a hand mutation survived). One size a block here: 8, 16 are measured and
    say nothing, and the note must still come from the third block, the same as predict's over all sizes at once."""
    import dpscale
    import dpscale.sources.fit as fit_module

    f = dpscale.fit(devices=[8, 16, 32, 64], throughput=[6500.0, 12200.0, 23000.0, 43000.0])
    sizes = list(range(8, 1025, 8))
    whole = list(f.predict(sizes).warnings)
    assert [w.key for w in whole] == ["extrapolating", "laws_disagree"] and whole[1].fields["d"] == 24
    monkeypatch.setattr(fit_module, "GRID_CELLS", f.samples.shape[0])  # one size a block
    assert f.warnings_at(sizes) == whole


def test_warnings_at_draws_no_interval_when_the_runner_up_is_one_the_intervals_draw_from(monkeypatch):
    """plan --fit asks warnings_at of every size for the runner-up's note alone; where that law is a plausible
    rival the intervals already draw from, the note is never said, yet the intervals were drawn block by block:
    `plan -d 1..100000+1 --fit` spent 17 of its 19 s there (10^8 values). Now no prediction is drawn, and the notes
    are predict's; a runner-up the intervals leave out is still read (the test above)."""
    import dpscale
    from dpscale.sources.fit import Fit

    f = dpscale.fit([(1, 1000.0), (2, 1960.0), (4, 3800.0), (8, 7300.0)])
    assert f.runner_up in [name for name, _, _ in f.rivals]  # amdahl: drawn from
    sizes = list(range(1, 2001))
    whole = list(f.predict(sizes).warnings)
    drawn = [0]
    predict = Fit.predict

    def counted(self: Fit, d: object) -> object:
        drawn[0] += 1
        return predict(self, d)

    monkeypatch.setattr(Fit, "predict", counted)
    assert f.warnings_at(sizes) == whole and [w.key for w in whole] == ["extrapolating"]
    assert drawn[0] == 0


# Review 43 (F): a truth audit of the documentation and the notes against what the code computes now.


def test_fit_s_two_bounds_are_written_alike_in_the_library_and_the_cli(capsys):
    """dpscale.fit(resamples=10) said 'from 50 to 100000' beside seed's 'from 0 to 4,294,967,295' and the CLI's
    '--resamples: … from 50 to 100,000': one bound, RESAMPLES[1] = 100,000, now grouped in every place it is said."""
    import dpscale
    from dpscale.errors import DpscaleError
    from dpscale.faces.cli import main

    runs = dict(devices=[1, 2, 4], throughput=[100.0, 190.0, 350.0])
    try:
        dpscale.fit(**runs, resamples=10)
    except DpscaleError as exc:
        said = str(exc)
    assert said == "resamples: got 10; allowed: a whole number from 50 to 100,000"
    assert main(["fit", "--point", "1:100", "--point", "2:190", "--resamples", "10"]) == 2
    assert capsys.readouterr().err.endswith("--resamples: got '10'; allowed: a whole number from 50 to 100,000\n")


# Review 46 AI: one source of truth for what two places wrote apart (repeated defaults, constants and words).


def test_fit_and_its_command_take_one_level_one_bootstrap():
    """fit()'s confidence 0.9, resamples 1000 and seed 0 (what plan --fit fits with), `dpscale fit`'s own "0.9",
    "1000" and "0" (the page's too) and validate --mode fit's CONFIDENCE were four copies: a changed one gave plan
    --fit and fit different intervals for one file of runs. All read sources.fit_runs's DEFAULT_* now."""
    import inspect

    from dpscale.faces.cli.fit import add_arguments
    from dpscale.sources import fit_runs, fit_validate
    from dpscale.sources.fit import fit

    want = (fit_runs.DEFAULT_CONFIDENCE, fit_runs.DEFAULT_RESAMPLES, fit_runs.DEFAULT_SEED)
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


# Review 46 AL: two files split where each mixed two jobs — formulas/scaling.py's inverse problem (`solve` and
# its searches) is formulas/solve.py, and sources/fit.py's notes on a finished fit are sources/fit_notes.py (as
# predict_notes.py is predict.py's). Each new module stands on its own: the lower one never imports the higher, and
# the old home keeps no re-exported copy.


def test_the_moved_notes_say_what_they_said():
    """Runs 1 → 8 that barely grow (1,000 → 1,050 samples/s) are per-device rates typed as the whole run's: the
    flat-runs note gives ×1.05 and E 0.131 (= 1,050 / 8,000); Amdahl held at E = 1 misses a superlinear
    E(2) = 1.111 by more than MISFIT and says so."""
    flat = dpscale.fit([(1, 1000), (4, 1000), (8, 1050)], resamples=50)
    (w,) = [w for w in flat.warnings if w.key == "runs_flat"]
    assert w.fields["gain"] == pytest.approx(1.05) and w.fields["e_said"] == "0.131" and w.fields["k"] == 8.0
    miss = dpscale.fit([(1, 100.0), (2, 222.14)], law="amdahl", resamples=50)
    (m,) = [w for w in miss.warnings if w.key == "fit_misses"]
    assert m.fields["measured_said"] == "1.111" and m.fields["law_said"] == "1.000" and m.fields["d"] == 2


# fit as an estimator: what a statistician expects of fit → parameters with intervals → predict, each checked on
# runs drawn from a USL (σ up to 0.1, κ up to 1e-3) at 0, 1 or 3 % noise, on sizes from 1, 2, 4 or 8 devices.

RUN_SIZES = [
    (1, 2, 4, 8),
    (1, 8, 16, 32),
    (1, 4, 8, 16, 32),
    (2, 4, 8),
    (8, 16, 32, 64),
    (4, 8, 16, 32, 64, 128),
    (1, 2),
    (1, 8),
]


@st.composite
def measured_runs(draw, repeats: bool = False) -> list[tuple[int, float]]:
    sizes = np.array(draw(st.sampled_from(RUN_SIZES)), dtype=float)
    law = dpscale.USL(draw(st.floats(0.0, 0.1)), draw(st.floats(0.0, 1e-3)))
    noise = draw(st.sampled_from([0.0, 0.01, 0.03]))
    rng = np.random.default_rng(draw(st.integers(0, 1000)))
    x = 1000.0 * sizes / sizes[0] * law.efficiency(sizes) / law.efficiency(sizes[0])
    n = [draw(st.integers(1, 3)) if repeats else 1 for _ in sizes]
    return [(int(d), float(v * math.exp(rng.normal(0, noise)))) for d, v, k in zip(sizes, x, n) for _ in range(k)]


# Inputs equal but for their last bits (a mean summed in another order, rates × k and E the ratio of two) give
# equal fits up to the bootstrap's 30-iteration solver, which carries such differences to 4.3e-7 of an interval.
ROUNDING = 1e-5


def _intervals(p) -> list:
    return [p.throughput, p.throughput_lo, p.throughput_hi, p.efficiency, p.efficiency_lo, p.efficiency_hi]


@settings(max_examples=10)
@given(runs=measured_runs(repeats=True), order=st.randoms(use_true_random=False))
def test_rows_in_any_order_give_the_same_fit(runs, order):
    """The rows of a file come in whatever order the runs were made: the fit (law, parameters, noise, every
    interval) must not depend on it (up to ROUNDING: a repeated size's mean summed in another order)."""
    shuffled = list(runs)
    order.shuffle(shuffled)
    a, b = fit(runs, resamples=50), fit(shuffled, resamples=50)
    # σ to 1e-9, as under a change of unit: a least-squares fit of rows summed in another order moved it by 1e-11
    # (hypothesis, 7 runs with two repeated sizes), rounding rather than the order read
    assert (a.law, a.runner_up) == (b.law, b.runner_up) and b.noise == pytest.approx(a.noise, rel=1e-9)
    at = [1, 64, 512]
    np.testing.assert_allclose(_intervals(b.predict(at)), _intervals(a.predict(at)), rtol=ROUNDING)


def test_laws_that_fit_to_rounding_tie_and_the_default_stands():
    """Runs scaling perfectly but for their last bits fit every law to rounding (leave-one-out RMSE of log E 4e-16
    and below): no law fits better than another, so the all-reduce default stands, USL (next in ORDER) the
    runner-up — in samples/s and × 23 alike (found by hypothesis: USL was chosen at × 1, all-reduce at × 23)."""
    runs = [(1, 1000.0), (2, 1999.9999999999995), (4, 3999.9999999999973), (8, 7999.999999999987)]
    for k in (1.0, 23.0):
        f = fit([(d, x * k) for d, x in runs], resamples=50)
        assert max(c.loo_rmse for c in f.candidates.values()) < 1e-15
        assert (f.law, f.runner_up) == ("allreduce", "usl")


@settings(max_examples=10)
@given(runs=measured_runs(repeats=True), k=st.floats(1e-3, 1e4))
# found by hypothesis: E crosses 0.7 near 335,533 devices, where it falls 5e-8 a device, and the two fits' curves
# (each to the solver's tolerance) differ there by 4e-9 — 335,533 against 335,532, the same answer
@example(
    runs=[(2, 997.557728286185), (2, 994.2365624820654), (2, 1002.6025993615364), (4, 1939.1822185793671),
          (4, 1989.1739881541066), (8, 3781.5990588251066), (8, 3795.8288776400027)],
    k=2.5,
)  # fmt: skip
def test_throughput_in_another_unit_scales_the_rates_alone(runs, k):
    """Samples/s × k (tokens/s, a batch of k, per ms …): E, the law, its parameters, σ, every E interval, the peak
    and the devices for an E are unchanged; every rate (point, interval, the per-device v) is × k, and the devices
    needed for k·X are those needed for X (each up to ROUNDING: the fits agree to the solver's tolerance, not to
    the bit, and far out a flat E moves its crossing by a device)."""
    a = fit(runs, resamples=50)
    b = fit([(d, x * k) for d, x in runs], resamples=50)
    assert (b.law, b.runner_up) == (a.law, a.runner_up) and b.noise == pytest.approx(a.noise, rel=1e-9)
    assert b.per_device_throughput == pytest.approx(k * a.per_device_throughput, rel=1e-12)
    for n, p in a.parameters.items():
        q = b.parameters[n]
        np.testing.assert_allclose([q.value, q.lo, q.hi], [p.value, p.lo, p.hi], rtol=ROUNDING, atol=1e-12)
    at = [1, 64, 512]
    pa, pb = _intervals(a.predict(at)), _intervals(b.predict(at))
    np.testing.assert_allclose(pb[:3], [k * x for x in pa[:3]], rtol=ROUNDING)
    np.testing.assert_allclose(pb[3:], pa[3:], rtol=ROUNDING)
    target = 2.3 * a.runs.throughput[-1]  # (not a rate a whole size meets exactly: no tie for rounding to break)
    ta, tb = a.devices_for(throughput=target), b.devices_for(throughput=k * target)
    ea, eb = a.devices_for(efficiency=0.7), b.devices_for(efficiency=0.7)
    keys = ("devices", "lo", "hi")
    assert [tb[x] for x in keys] == pytest.approx([ta[x] for x in keys], rel=ROUNDING)
    assert [eb[x] for x in keys] == pytest.approx([ea[x] for x in keys], rel=ROUNDING)


@settings(max_examples=10)
@given(runs=measured_runs(repeats=True))
def test_the_same_runs_given_twice_over_give_the_same_fit(runs):
    """A file holding every run twice (two exports appended, each record pasted twice) is the same measurements:
    copies count once for the noise and a size's mean is unchanged, so nothing moves — the point estimates, σ and
    every interval (only the notes say the copies were seen)."""
    a, b = fit(runs, resamples=50), fit(runs + runs, resamples=50)
    assert (b.law, b.runner_up) == (a.law, a.runner_up) and b.noise == pytest.approx(a.noise, rel=1e-9)
    at = [1, 64, 512]
    np.testing.assert_allclose(_intervals(b.predict(at)), _intervals(a.predict(at)), rtol=ROUNDING)
    assert any(getattr(w, "key", "") == "runs_duplicated" for w in b.warnings)


@settings(max_examples=12)
@given(runs=measured_runs(), law=st.sampled_from(["auto", "allreduce", "usl", "amdahl"]), g=st.sampled_from([None, 4]))
def test_every_interval_holds_its_point_and_a_higher_level_holds_a_lower_ones(runs, law, g):
    """E(d0) = 1; each interval (parameters, predictions, peak, devices needed) holds its point; the same resamples
    (one seed) at 95 % hold the 60 % interval; predict's point is d·v·E of efficiency(); the extrapolation note
    comes beyond 4× the largest measured size and not at it."""
    wide = fit(runs, law=law, gpus_per_node=g, resamples=100, confidence=0.95)
    narrow = fit(runs, law=law, gpus_per_node=g, resamples=100, confidence=0.6)
    d0, top = wide.baseline_devices, wide.runs.devices[-1]
    assert wide.efficiency(d0) == 1.0 and wide.measured()[0]["efficiency"] == 1.0
    at = [d0, 2 * d0, top, 3 * top, 50 * top]
    w, n = wide.predict(at), narrow.predict(at)
    assert w.efficiency[0] == pytest.approx(1.0, abs=1e-15)  # (beside other sizes: 0.9999999999999998 seen)
    assert np.all(w.throughput_lo <= w.throughput) and np.all(w.throughput <= w.throughput_hi)
    assert np.all(w.efficiency_lo <= w.efficiency) and np.all(w.efficiency <= w.efficiency_hi)
    assert np.all(w.throughput_lo <= n.throughput_lo) and np.all(n.throughput_hi <= w.throughput_hi)
    assert np.all(w.efficiency_lo <= n.efficiency_lo) and np.all(n.efficiency_hi <= w.efficiency_hi)
    np.testing.assert_allclose(
        w.throughput, np.array(at) * wide.per_device_throughput * wide.efficiency(at), rtol=1e-12
    )
    for name, p in wide.parameters.items():
        if not math.isnan(p.value):  # (n/a: a term E relative to d0 cannot see)
            q = narrow.parameters[name]
            assert p.lo <= q.lo <= p.value <= q.hi <= p.hi
    peak, inner = wide.peak(), narrow.peak()
    if peak is not None:  # (None at 60 %: neither the law nor its interval peaks, an interval [∞, ∞])
        assert peak["lo"] <= peak["devices"] <= peak["hi"]
        assert peak["lo"] <= (math.inf if inner is None else inner["lo"])
        assert (math.inf if inner is None else inner["hi"]) <= peak["hi"]
    for ask in ({"efficiency": 0.7}, {"throughput": 3.1 * wide.runs.throughput[-1]}):
        a, b = wide.devices_for(**ask), narrow.devices_for(**ask)
        assert a["lo"] <= b["lo"] and b["hi"] <= a["hi"]
        if math.isfinite(a["devices"]):
            assert a["lo"] <= a["devices"] <= a["hi"]
    keys = lambda d: {getattr(x, "key", "") for x in wide.predict([d]).warnings}  # noqa: E731
    assert "extrapolating" not in keys(4 * top) and "extrapolating" in keys(4 * top + 1)


@pytest.mark.parametrize(
    ("law", "truth", "sizes", "g"),
    [
        ("amdahl", [0.05], [1, 2, 4, 8, 16], None),
        ("amdahl", [0.05], [8, 16, 32, 64], None),
        ("usl", [0.02, 1e-4], [1, 2, 4, 8, 16, 32], None),
        ("usl", [0.01, 2e-5], [1, 4, 8, 16], None),
        ("usl", [0.03, 1e-4], [8, 16, 32, 64], None),
        ("allreduce", [0.05, 0.01], [1, 2, 4, 8, 16, 32], None),
        ("allreduce", [0.05, 0.01], [1, 2, 4, 8, 16, 32], 8),
        ("allreduce", [0.2, 0.003], [1, 8, 16, 32, 64], 8),
    ],
)
def test_runs_made_exactly_by_a_law_give_it_back(law, truth, sizes, g):
    """Noiseless runs from each law fit offers (its own basis, relative to the smallest size): the automatic choice
    is that law, its parameters come back and E at 64–1,024 devices is the law's. Not to 1e-6: the weak ridge
    (fit_solve.RIDGE, 1e-3 on each term's share) shrinks even an exact fit — by at most 5.0e-4 of a parameter here
    and 3.5e-4 of a held-out E (κ of a USL on 4 sizes; the all-reduce law's transfer on 1–64, 8 a node, 2.0e-4),
    1.5e-5 of a measured E; Amdahl from 1 device and the all-reduce law on 1–32 come back within 2.1e-6."""
    from dpscale.sources.fit_laws import LAWS, log_efficiency

    d = np.array(sizes, dtype=float)
    held = np.array([64.0, 128.0, 256.0, 1024.0])
    e = lambda at: np.exp(log_efficiency(LAWS[law], np.array(truth), at, d[0], g))  # noqa: E731
    f = fit(devices=sizes, throughput=1000.0 * d * e(d), gpus_per_node=g, resamples=50)
    assert f.law == law
    np.testing.assert_allclose(f.values, truth, rtol=6e-4)
    np.testing.assert_allclose(f.efficiency(held), e(held), rtol=4e-4)
    np.testing.assert_allclose(f.efficiency(d), e(d), rtol=2e-5)
    np.testing.assert_allclose(f.predict(sizes).throughput, 1000.0 * d * e(d), rtol=2e-5)
    if sizes[0] == 1 and (law == "amdahl" or sizes[-1] == 32 and law == "allreduce"):
        np.testing.assert_allclose(f.values, truth, rtol=3e-6)
        np.testing.assert_allclose(f.efficiency(held), e(held), rtol=3e-6)


def test_repeated_runs_are_their_arithmetic_mean_for_the_point():
    """Docs: repeated sizes are averaged, the arithmetic mean of throughput — 7,000, 7,100 and 7,900/s at 8 devices
    are 7,333.3/s (their median, 7,100, would be another fit). The point estimate (law, parameters, E) is that of
    one run at the mean; only the intervals differ, the runs' spread measuring the noise."""
    rows = [(1, 1000.0), (4, 3900.0), (8, 7000.0), (8, 7100.0), (8, 7900.0), (16, 14000.0), (32, 26000.0)]
    a = fit(rows, resamples=50)
    b = fit([(1, 1000.0), (4, 3900.0), (8, 22000.0 / 3), (16, 14000.0), (32, 26000.0)], resamples=50)
    assert a.runs.throughput[2] == pytest.approx(7333.33, abs=0.01) and a.runs.repeat_dof == 2
    assert (a.law, a.runner_up) == (b.law, b.runner_up)
    np.testing.assert_allclose(a.values, b.values, rtol=1e-12)
    np.testing.assert_allclose(a.predict([64, 256]).efficiency, b.predict([64, 256]).efficiency, rtol=1e-12)
    assert a.noise != pytest.approx(b.noise, rel=0.05)  # the spread is used


def test_a_seed_gives_the_same_bootstrap_and_another_seed_another(capsys, tmp_path):
    """The same runs, resamples and seed give the same intervals, byte for byte, through the library and `dpscale
    fit --json`; a size's interval is the same whichever other sizes are asked (to the last bits); another seed
    draws other resamples."""
    runs = [(1, 1000.0), (2, 1950.0), (4, 3800.0), (8, 7300.0), (16, 13900.0)]
    at = [16, 64, 256]
    one, two = fit(runs, seed=12345, resamples=200), fit(runs, seed=12345, resamples=200)
    assert one.predict(at).records() == two.predict(at).records() and one.peak() == two.peak()
    assert one.devices_for(efficiency=0.8) == two.devices_for(efficiency=0.8)
    for i, d in enumerate(at):
        assert one.predict([d]).records()[0] == pytest.approx(one.predict(at).records()[i], rel=1e-12)
    other = fit(runs, seed=12346, resamples=200).predict(at).records()
    assert all(a["efficiency_lo"] != b["efficiency_lo"] for a, b in zip(other[1:], one.predict(at).records()[1:]))
    points = [f"--point={d}:{x}" for d, x in runs]
    argv = ["fit", *points, "--at", "16,64,256", "--seed", "12345", "--resamples", "200", "--json"]
    rc, first, _ = run(capsys, *argv)
    rc2, second, _ = run(capsys, *argv)
    assert rc == rc2 == 0 and first == second


def test_the_library_the_command_and_plan_give_one_fit(capsys, tmp_path):
    """One set of runs (repeats, a unit column) as a CSV through `dpscale fit --json`, as pairs and as columns
    through dpscale.fit, and through `plan --fit`: the same law, parameters, intervals, answers and rates (the JSON
    writes 12 significant digits, and a parameter E relative to d0 cannot see as null)."""
    import json

    rows = [(2, 1960.0), (2, 1990.0), (4, 3870.0), (8, 7420.0), (8, 7390.0), (16, 14100.0), (32, 26300.0)]
    path = tmp_path / "runs.csv"
    path.write_text("devices,throughput,unit\n" + "".join(f"{d},{x},tokens/s\n" for d, x in rows))
    at = [32, 64, 256]
    rc, out, err = run(capsys, "fit", str(path), "--at", "32,64,256", "--min-efficiency", "0.8", "--json")
    assert rc == 0, err
    said = json.loads(out)
    f = fit(str(path))
    pairs = fit(rows)
    columns = fit(devices=[d for d, _ in rows], throughput=[x for _, x in rows])
    assert f.unit == said["unit"] == "tokens/s" and pairs.unit is None  # the unit is a label: the numbers agree
    assert said["law"] == f.law == pairs.law == columns.law
    assert f.predict(at).records() == pairs.predict(at).records() == columns.predict(at).records()
    for got, want in zip(said["predictions"], f.predict(at).records()):
        assert got == pytest.approx(want, rel=1e-11)
    for name, p in f.parameters.items():
        want = [None if math.isnan(v) else pytest.approx(v, rel=1e-11) for v in (p.value, p.lo, p.hi)]
        assert [said["parameters"][name][k] for k in ("value", "lo", "hi")] == want
    assert said["per_device_throughput"] == pytest.approx(f.per_device_throughput, rel=1e-11) == 1975.0 / 2
    kept = f.devices_for(efficiency=0.8)
    assert [said["devices_for_efficiency"][k] for k in ("devices", "lo", "hi")] == [
        kept[k] for k in ("devices", "lo", "hi")
    ]
    rc, out, err = run(
        capsys, "plan", "-n", "1e9", "--fit", str(path), "--unit", "tokens/s", "-d", "32,64,256", "--json"
    )
    assert rc == 0, err
    plan = json.loads(out)
    assert [r["efficiency"] for r in plan] == pytest.approx(list(f.efficiency(at)), rel=1e-11)
    assert [r["actual_throughput"] for r in plan] == pytest.approx(list(f.predict(at).throughput), rel=1e-11)


@settings(max_examples=25)
@given(
    runs=measured_runs(),
    law=st.sampled_from(["auto", "allreduce", "usl", "amdahl"]),
    g=st.sampled_from([None, 4]),
    e_min=st.floats(0.3, 0.99),
    times=st.floats(0.5, 50.0),
)
def test_the_answers_are_the_fitted_curves_own(runs, law, g, e_min, times):
    """devices_for is the exhaustive answer over every whole size of the fit's own curve (E ≥ a minimum: the
    largest such d ≥ d0; a rate above the smallest run's: the smallest d ≥ d0 reaching it); an answer, or a peak,
    beyond 4× the largest measured size carries the extrapolation note and one within it does not; and the
    fitted E lies within 10 % of every measured E unless a note says the law misses one."""
    f = fit(runs, law=law, gpus_per_node=g, resamples=50)
    d0, top, x0 = f.baseline_devices, f.runs.devices[-1], f.runs.throughput[0]
    grid = np.arange(d0, 20 * top + 1)
    e = f.efficiency(grid.astype(float))
    kept = f.devices_for(efficiency=e_min)
    if (e >= e_min).any() and grid[e >= e_min].max() < grid[-1]:
        assert kept["devices"] == grid[e >= e_min].max()
    target = times * f.runs.throughput[-1]
    needed = f.devices_for(throughput=target)
    if target > x0 and (x0 / d0 * grid * e >= target).any():
        assert needed["devices"] == grid[x0 / d0 * grid * e >= target].min()
    far = lambda answer: any(getattr(w, "key", "").startswith("extrapolating") for w in answer["warnings"])  # noqa: E731
    for answer in (kept, needed):
        if d0 <= answer["devices"] < math.inf:
            assert far(answer) == (answer["devices"] > 4 * top)
    peak = f.peak()
    if peak is not None and math.isfinite(peak["devices"]):
        assert far(peak) == (round(peak["devices"]) > 4 * top)
    measured = f.measured()
    fitted = f.efficiency(np.array([m["devices"] for m in measured], dtype=float))
    gap = max(abs(math.log(m["efficiency"] / x)) for m, x in zip(measured, fitted))
    assert (gap > 0.1) == any(getattr(w, "key", "") == "fit_misses" for w in f.warnings)


# A whole-module mutation pass over sources/fit.py, fit_laws.py and fit_solve.py: each test kills a mutant that
# survived the suite, asserting a number derived in its docstring or an invariant the docstrings state.


def test_an_exact_all_reduce_law_is_recovered_in_compute_times():
    """Step time 0.5 s of compute + NCCL's tree all-reduce of 2 GB at 20 GB/s with α = 0.1 ms, every device its own
    node (no --gpus-per-node): the law's transfer is S/B ÷ compute = 0.1 / 0.5 = 0.2 and its latency α ÷ compute =
    2e-4; E(128) = T(1)/T(128) = 0.5 / (0.5 + 2·0.1 + 14·1e-4) = 0.71286 (2S/B, and 2·log2(128) steps of α)."""
    from dpscale.formulas.collectives import allreduce_time
    from dpscale.formulas.units import GB

    def step(d):  # noqa: ANN001, ANN202
        return 0.5 + allreduce_time(2 * GB, d, 1, 20.0, 20.0, 1e-4, 1e-4, algorithm="tree")

    d = np.array([1, 2, 4, 8, 16, 32, 64])
    f = fit(devices=d, throughput=100.0 * d / step(d), law="allreduce")
    p = f.parameters
    assert p["transfer"].value == pytest.approx(0.2, rel=1e-4)
    assert p["latency"].value == pytest.approx(2e-4, rel=1e-3)
    assert f.efficiency(128) == pytest.approx(step(1) / step(128), rel=1e-5)
    assert step(1) / step(128) == pytest.approx(0.5 / 0.7014, rel=1e-12)


def test_the_size_that_keeps_an_efficiency_is_never_below_the_smallest_measured():
    """Amdahl, serial fraction 1 %, measured at 8-64 devices (E relative to 8): no size above 8 keeps E ≥ 99.9 %
    (E(9) = 1.07/1.08 = 0.9907), so the answer is d0 = 8 itself, and its interval starts there too, not at a grid
    size below the runs (6, where E relative to 8 is above 1)."""
    d = np.array([8, 16, 32, 64])
    f = fit(devices=d, throughput=1000.0 * d / (1 + 0.01 * (d - 1)))
    got = f.devices_for(efficiency=0.999)
    assert (got["devices"], got["lo"], got["reason"]) == (8.0, 8.0, None)


def test_the_step_time_split_s_interval_holds_its_point():
    """seconds(): the resamples' band is widened to hold the fitted split, as the parameters' is. Resamples all
    50 % above the fitted values (as an unconverged solver leaves them) gave a transfer band that started above its
    point; d0 = 1 makes every resample's compute time the measured 0.5 s, so the band is [S/B, 1.5·S/B] exactly."""
    from dataclasses import replace

    from dpscale.formulas.collectives import allreduce_time
    from dpscale.formulas.units import GB

    d = np.array([1, 2, 4, 8, 16])
    t = 0.5 + allreduce_time(2 * GB, d, 1, 20.0, 20.0, 1e-4, 1e-4, algorithm="tree")  # S/B = 0.1 s, α = 0.1 ms
    f = fit(devices=d, throughput=100.0 * d / t, step_time=t, law="allreduce")
    g = replace(f, samples=np.tile(1.5 * f.values, (f.samples.shape[0], 1)))
    s = g.seconds()
    assert s["compute_s"] == pytest.approx(0.5, rel=1e-3) and s["transfer_s"] == pytest.approx(0.1, rel=1e-3)
    assert s["transfer_s_lo"] == s["transfer_s"] and s["transfer_s_hi"] == pytest.approx(1.5 * s["transfer_s"])
    assert s["latency_s_lo"] == s["latency_s"] and s["latency_s"] == pytest.approx(1e-4, rel=1e-2)


def test_each_rival_law_s_resamples_carry_its_own_noise_draws():
    """With a plausible rival, resample i comes from law i mod 2: the chosen law's rows carry its σ draws in order,
    the rival's rows its own (row 2k + 1 is the rival's draw k), so the two laws' noise are not mixed up."""
    d = np.array([1, 2, 4, 8])
    f = fit(devices=d, throughput=1000.0 * d * dpscale.USL(0.02, 1e-3).efficiency(d))
    ((name, _, rival_sigma),) = f.rivals
    _, sigma = f._log_e_samples(np.array([16.0]))
    assert np.array_equal(sigma[0::2], f.noise_draws[0::2])
    assert np.array_equal(sigma[1::2], rival_sigma[: sigma[1::2].size])
    assert np.unique(rival_sigma).size == rival_sigma.size  # each row its own draw


def test_resamples_are_spread_over_single_terms_only_with_fewer_points_than_terms():
    """_spread_split: a USL (two terms) on 1, 2 and 4 devices has two points above d0, one a term, so the runs
    decide the split and the bootstrap's refits stand as drawn; on 1 and 2 devices (one point) the rows are spread
    over σ alone and κ alone (row i from term i mod 3), each of which fits that one point exactly."""
    from dpscale.sources.fit import _bootstrap, _spread_split
    from dpscale.sources.fit_io import runs_from
    from dpscale.sources.fit_laws import LAWS
    from dpscale.sources.fit_solve import Problem

    def split(sizes):  # noqa: ANN001, ANN202
        d = np.array(sizes, dtype=float)
        runs = runs_from(None, d, 1000.0 * d * dpscale.USL(0.02, 1e-3).efficiency(d), None, None)
        prob, y = Problem(LAWS["usl"], d, None), np.log(dpscale.USL(0.02, 1e-3).efficiency(d[1:]))
        f = fit(devices=d, throughput=runs.throughput, law="usl", resamples=60)
        rng, s = np.random.default_rng(0), np.full(60, 0.01)
        drawn = _bootstrap(prob, f.candidates["usl"], s, rng, runs)
        return drawn, _spread_split(prob, y, drawn, s, rng, runs, 0.01)

    drawn, spread = split([1, 2, 4])
    assert spread is drawn
    drawn, spread = split([1, 2])
    assert np.all(spread[0][1::3, 1] == 0.0) and np.all(spread[0][2::3, 0] == 0.0)  # σ alone, then κ alone
    assert not np.all(drawn[0][1::3, 1] == 0.0)  # (the ridge's own split gave κ to those rows)


def test_a_single_term_is_spread_while_it_misses_the_runs_by_less_than_the_noise_allows():
    """_spread_split keeps a term alone while its misfit is within PLAUSIBLE (4) times one log E's variance, 2σ²
    (docs/fit.md: each term "that alone fits the runs within the noise"). Superlinear runs on 1 and 8 devices put
    either term alone at 0, missing by |log E|: at σ = 1 % the bound is √8 % = 2.83 %, so E 1.02 (1.98 %) is
    spread over σ alone and κ alone and E 1.04 (3.92 %) is not (a bound of 1× the variance, 1.41 %, spread
    neither; review EI)."""
    from dpscale.sources.fit import _bootstrap, _spread_split
    from dpscale.sources.fit_io import runs_from
    from dpscale.sources.fit_laws import LAWS
    from dpscale.sources.fit_solve import Problem

    def spread(e):  # noqa: ANN001, ANN202
        d = np.array([1.0, 8.0])
        runs = runs_from(None, d, [1000.0, 8000.0 * e], None, None)
        prob, y = Problem(LAWS["usl"], d, None), np.log([e])
        f = fit(devices=d, throughput=runs.throughput, law="usl", resamples=60)
        rng, s = np.random.default_rng(0), np.full(60, 0.01)
        drawn = _bootstrap(prob, f.candidates["usl"], s, rng, runs)
        return drawn, _spread_split(prob, y, drawn, s, rng, runs, 0.01)

    assert 4 * 2 * 0.01**2 > np.log(1.02) ** 2 and 4 * 2 * 0.01**2 < np.log(1.04) ** 2  # the two sides of the bound
    drawn, out = spread(1.02)
    assert not np.all(drawn[0][1::3, 1] == 0.0)  # the ridge's rows give κ to some resamples …
    assert np.all(out[0][1::3, 1] == 0.0) and np.all(out[0][2::3, 0] == 0.0)  # … spread: σ alone, then κ alone
    drawn, out = spread(1.04)
    np.testing.assert_array_equal(out[0], drawn[0])  # neither term alone is within the noise: the rows stand


def test_a_peak_printed_at_four_times_the_largest_size_is_not_said_beyond_it():
    """A USL peak at 32.19 devices on runs at 1 and 8 is printed as 32 — 4× the largest size, not past it — yet the
    note said 'the throughput peak, at 32 devices, lies beyond 4× the largest measured size (8)'. A size is past 4×
    as printed (test_the_answers_are_the_fitted_curves_own's property, which found it)."""
    f = fit([(1, 1000.0), (8, 7224.956236239008)], law="usl", resamples=50)
    p = f.peak()
    assert p is not None and p["devices"] == pytest.approx(32.188, abs=1e-3) and p["warnings"] == []
    assert [w.key for w in f.extrapolation_warnings([32.4, 32.6, 33])] == ["extrapolating"]
    assert f.extrapolation_warnings([32.4, 32.6, 33])[0].fields["sizes"] == "33; 33"  # (32.4: 32, not past)


def test_the_order_of_the_runs_moves_no_digit_of_the_fit():
    """Repeated runs of a size are averaged; a plain sum in file order made the mean depend on it (100.1 + 100.3
    + 99.7 is 300.09999999999997, the other way 300.1), and the fitted law, its intervals and the report's
    12-digit JSON moved with it (3 of 30 shuffled random files gave other bytes). The bootstrap draws by sorted
    size, so the seed's draws were never the difference."""
    runs = [(1, 100.1), (1, 100.3), (1, 99.7), (2, 190.0), (4, 352.0), (8, 640.0), (16, 1090.0)]
    forward = dpscale.fit(runs, resamples=200)
    backward = dpscale.fit(runs[::-1], resamples=200)
    assert forward.report([64]) == backward.report([64])
    assert forward.per_device_throughput == backward.per_device_throughput == 300.1 / 3  # the exactly rounded sum


def test_a_rate_met_exactly_counts_as_met():
    """Runs that scale perfectly at 1,000/s a device reach 5,000/s at exactly 5 devices; devices_for compares logs,
    and log 1000 + log 5 is 2e-15 short of log 5000, so it answered 6 (hypothesis found it). A hair more needs 6."""
    f = fit([(1, 1000.0), (2, 2000.0), (4, 4000.0), (8, 8000.0)], resamples=50)
    assert f.devices_for(throughput=5000)["devices"] == 5
    assert f.devices_for(throughput=5000 * (1 + 1e-9))["devices"] == 6
    assert f.devices_for(throughput=3000)["devices"] == 3  # log 1000 + log 3 rounds above log 3000: always 3
