"""Library calls with odd inputs found by an API audit (session 11): each once gave a wrong number, an escaped
exception or a closed stdout; now each is a result in float64 or one DpscaleError line."""

from __future__ import annotations

import math
import sys
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import dpscale
from dpscale import USL, DpscaleError, predict, scale, solve

CLUSTER = dict(gpus_per_node=8, intra_bw_gbs=150, inter_bw_gbs=50)


@pytest.mark.parametrize("path", [True, 1, 2, 1.0, False, 0, 0.0, "", [], np.array([1, 2])])
def test_a_number_is_no_system_file(path):
    """open(1) reads file descriptor 1 and closes it: stdout was gone after predict(system_file=True). False, 0, ''
    and [] were skipped unread, the prediction made without the file; an array raised numpy's 'truth value of an
    array is ambiguous' (review MU)."""
    with pytest.raises(DpscaleError, match=r"system_file: got .*; allowed: a readable JSON file \(not a file path\)"):
        predict([1, 8], params=1e8, throughput=100.0, system_file=path)
    assert not sys.stdout.closed and not sys.__stdout__.closed


@pytest.mark.parametrize("flag", ["model_file", "system_file", "calibration"])
def test_an_empty_path_is_refused_by_every_file_parameter(flag):
    """Review MW: predict(model_file='', model='resnet50', …) predicted with the preset, the empty path skipped by
    its truth (`if model_file`), where system_file='' and calibration='' are refused (review MU) and the CLI refuses
    --model-file ''. Each names its parameter."""
    with pytest.raises(DpscaleError, match=rf"^{flag}: got ''; allowed: a readable JSON file \(not a file path\)$"):
        predict([1, 8], model="resnet50", system="dgx-a100", **{flag: ""})


def test_numpy_integer_inputs_do_not_wrap_in_predict():
    """batch × grad_accum in int16 wrapped: per-device throughput −5,888 samples/s."""
    kw = dict(params=1e8, step_time_s=1.0, **CLUSTER)
    narrow = predict([1, 8], batch=np.int16(30000), grad_accum=np.int16(30000), **kw).records()[1]
    wide = predict([1, 8], batch=30000, grad_accum=30000, **kw).records()[1]
    assert narrow["per_device_throughput"] == wide["per_device_throughput"] == 9e8  # 30,000² samples in 1 s
    e32 = predict([1, 8], params=1e8, step_time_s=0.1, bucket_mb=np.int32(3000), **CLUSTER).records()[1]
    e64 = predict([1, 8], params=1e8, step_time_s=0.1, bucket_mb=3000, **CLUSTER).records()[1]
    assert e32["efficiency"] == e64["efficiency"]


def test_narrow_floats_are_widened_and_solve_checks_overflow():
    assert scale(10**7, np.float32(1e38), 0.9).actual_throughput == pytest.approx(9e44, rel=1e-6)  # was inf
    assert scale(10**7, 1e6, np.float32(0.9)).actual_throughput == pytest.approx(9e12, rel=1e-7)
    for kw in (dict(devices=8, per_device_throughput=1e308, speedup=7),
               dict(per_device_throughput=1e308, efficiency=0.9, speedup=70)):  # fmt: skip
        with pytest.raises(DpscaleError, match="beyond floating point"):  # was ideal inf, lost nan
            solve(**kw)


def test_error_lines_stay_one_short_line():
    with pytest.raises(DpscaleError) as exc:
        USL(0.1, 0).efficiency(np.array([[1, 2], [3, 0]]))
    assert "devices: got 0;" in str(exc.value)  # the offending size, not the table
    with pytest.raises(DpscaleError) as exc:
        predict(np.array([[1, 2], [4, 8]]), step_time_s=0.1, params=1e8, **CLUSTER)  # one curve is one list
    assert "\n" not in str(exc.value) and "got [[1 2] [4 8]]; allowed: one device count or a list" in str(exc.value)
    with pytest.raises(DpscaleError) as exc:
        predict([1, 8], model="a " * 100_000, step_time_s=0.1, **CLUSTER)
    assert len(str(exc.value)) < 1000  # was 200 KB


# Session 12's audit: every public function, each argument replaced by odd values in turn (fuzz script kept in the
# closing note). 198 calls raised TypeError/ValueError/OverflowError or returned inf/nan; the cases below are those
# groups, each now one DpscaleError line or a plain float result.
ODD = {
    "list": [8, 16],
    "2-D": np.array([[8, 16], [32, 64]]),
    "ragged": [8, [16]],
    "int8 array": np.array([100, 120], dtype=np.int8),
    "text": "abc",
    "dict": {"a": 1},
}
CALLS = {
    "plan": (dpscale.plan, dict(samples=1e6, epochs=10, throughput=1000.0, devices=[1, 8], efficiency=0.9,
                                price_per_device_hour=2.0, deadline_hours=10.0, budget=1000.0)),
    "predict": (predict, dict(devices=[1, 8], params=1e8, throughput=100.0, batch=16, grad_accum=2,
                              model="bert-large", system="dgx-a100", bucket_mb=25.0, overlap=True, algorithm="auto",
                              input_rate=1e5, alpha_intra_us=3.0, precision="amp")),
    # a FLOPs estimate: --mfu beside a measured rate is refused
    "predict_estimate": (predict, dict(devices=[1, 8], model="bert-large", system="dgx-a100", mfu=0.4, seq_len=128)),
    "batch_plan": (dpscale.batch_plan, dict(micro_batch=32, devices=8, base_lr=0.1, base_batch=256, dataset_size=1e6,
                                            warmup_epochs=1, noise_scale=1000, min_steps=1000)),
    "pipeline": (dpscale.pipeline, dict(stages=4, microbatches=16, schedule="interleaved", chunks=2, devices=32)),
    "fit_all": (dpscale.fit_all, dict(params=1e9, devices=8, activation=1e9, device_memory_bytes=80e9)),
    "fit": (dpscale.fit, dict(devices=[1, 2, 4, 8], throughput=[100.0, 190.0, 350.0, 600.0], law="usl",
                              gpus_per_node=8, resamples=50, seed=1)),
    "USL": (USL, dict(sigma=0.01, kappa=1e-4)),
}  # fmt: skip


# a list of device counts is their point (fit pairs it with the throughputs)
SWEEPS = ("plan", "predict", "predict_estimate", "fit")


@pytest.mark.parametrize(
    ("fn", "arg"), [(name, arg) for name, (_, kw) in CALLS.items() for arg in kw if not (arg == "devices" and
                                                                                        name in SWEEPS)]
)  # fmt: skip
def test_odd_arguments_get_one_line_not_a_numpy_exception(fn, arg):
    call, kw = CALLS[fn]
    for label, value in ODD.items():
        with pytest.raises(DpscaleError) as exc:  # not accepted, and not TypeError/ValueError from numpy
            call(**{**kw, arg: value})
        assert "\n" not in str(exc.value) and arg.split("_")[0] in str(exc.value).replace("-", "_"), label


@pytest.mark.parametrize("fn", ("plan", "predict"))
def test_sweeps_take_flat_lists_of_device_counts_only(fn):
    call, kw = CALLS[fn]
    for label in ("2-D", "ragged", "text", "dict"):
        with pytest.raises(DpscaleError, match="^devices: got "):  # plan planned [8, [16]] as 8 and 16
            call(**{**kw, "devices": ODD[label]})
    assert [p.devices for p in dpscale.plan(**{**CALLS["plan"][1], "devices": ODD["list"]}).points] == [8, 16]
    with pytest.raises(DpscaleError, match=r"^throughput: got 4 values for 2 device counts"):
        dpscale.fit(**{**CALLS["fit"][1], "devices": ODD["list"]})  # fit's list pairs with its throughputs


def test_a_fit_predicts_flat_lists_of_device_counts_only():
    """A fit's predict is a sweep too: a table of sizes came back flattened, with no word of it."""
    call, kw = CALLS["fit"]
    fitted = call(**kw)
    with pytest.raises(DpscaleError, match="^devices: got .*; allowed: one device count or a list of them$"):
        fitted.predict(ODD["2-D"])
    for label in ("2-D", "ragged"):
        with pytest.raises(DpscaleError, match="^devices: got "):
            fitted.warnings_at(ODD[label])
    assert list(fitted.predict(ODD["list"]).devices) == [8, 16] and list(fitted.predict(8).devices) == [8]


def test_one_number_inputs_say_so():
    with pytest.raises(DpscaleError, match=r"^price_per_device_hour: got \[2, 3\]; allowed: one number$"):
        dpscale.plan(1e6, 1, 100.0, [1, 8], price_per_device_hour=[2, 3])
    with pytest.raises(DpscaleError, match=r"^intra_bw_gbs: got \[150, 300\]; allowed: one number$"):
        predict([1, 8], params=1e8, throughput=100.0, gpus_per_node=8, intra_bw_gbs=[150, 300], inter_bw_gbs=50)
    with pytest.raises(DpscaleError, match=r"^overlap: got 'abc'; allowed: True or False$"):  # was read as True
        predict([1, 8], params=1e8, throughput=100.0, overlap="abc", **CLUSTER)
    with pytest.raises(DpscaleError, match=r"^kappa: got \[0.01, 0.02\]; allowed: one number$"):  # was kept
        USL(0.1, [0.01, 0.02])
    assert dpscale.plan(1e6, 1, 100.0, [8], price_per_device_hour=np.array([2.0])).points[0].cost > 0
    # a Fraction made numpy object arrays in the breakdown; it is a float now
    assert predict([1, 8], params=1e8, throughput=Fraction(17, 2), **CLUSTER).breakdown.compute_s.dtype == float


def test_results_that_left_floating_point_are_refused():
    """Each refused by the bound that keeps it finite, named (review LZ: any DpscaleError passed)."""
    sizes = "allowed: device counts from 1 to 10,000,000 (between whole sizes too)"
    for call, said in (
        (lambda: dpscale.critical_batch(1e-320, 1000),  # S/S_min was inf
         "batch: got 1e-320; allowed: a batch size from 1e-9 to 2^53"),
        (lambda: dpscale.critical_batch(1024, 1000, min_steps=1e308),  # steps inf
         "min_steps: got 1e+308; allowed: a step count from 1e-9 to 1e15"),
        (lambda: dpscale.time_to_target_speedup(8, 1e-320, 1000, 0.9),  # nan
         "per_device_batch: got 1e-320; allowed: a batch size from 1e-9 to 2^53"),
        (lambda: dpscale.plan(1e6, 1, 100.0, [8], price_per_device_hour=1e308),  # cost inf
         "price_per_device_hour: got 1e+308; allowed: a price whose cost in device-hours stays finite"),
        (lambda: USL(0.1, 0.01).efficiency(1e308), f"devices: got 1e+308; {sizes}"),  # E = 0
        (lambda: USL(0.1, 0.01).efficiency(10**400), f"devices: got 1{'0' * 56}...; {sizes}"),  # OverflowError
    ):  # fmt: skip
        with pytest.raises(DpscaleError) as exc:
            call()
        assert str(exc.value) == said
    assert dpscale.critical_batch(2**53, 1e15, min_steps=1e15).samples < float("inf")  # the bounds stay finite


def test_one_device_is_its_own_reference_for_every_source():
    """scale(1, v, lambda d: 0.5) gave E(1) = 0.5: one device at half its own rate."""
    with pytest.raises(DpscaleError, match=r"^efficiency: got 0.5; allowed: E = 1 at one device"):
        scale(1, 100, lambda d: 0.5)
    with pytest.raises(DpscaleError, match=r"^efficiency: got 0.9; allowed: E = 1 at one device"):
        scale([1, 8], 100, dpscale.PerSize.of([1, 8], [0.9, 0.8]))
    with pytest.raises(DpscaleError, match=r"^efficiency: got 0.5; allowed: E = 1 at one device"):
        scale(np.array([1, 8]), 100, lambda d: 0.5 + 0 * d)  # a law over a sweep that includes one device
    with pytest.raises(DpscaleError, match=r"^efficiency: got 0.9; allowed: E = 1 at one device"):
        scale([1, 8], 100, np.array([0.9, 0.8]))  # E per size as an array (PerSize checks its own)
    assert scale([2, 8], 100, lambda d: 0.5 + 0 * d).efficiency.tolist() == [0.5, 0.5]  # no one device: no rule
    assert scale([1, 8], 100, 0.9).efficiency.tolist() == [1.0, 0.9]  # a number is held at 1 there
    assert scale([1, 8], 100, USL(0.1, 0.01)).efficiency[0] == 1.0


def test_a_fit_from_eight_devices_says_why_it_stops_below_eight():
    f = dpscale.fit(devices=[8, 16, 32, 64], throughput=[800, 1550, 2900, 5200], resamples=50)
    with pytest.raises(DpscaleError, match=r"devices: got 4, below this fit's smallest measured size 8"):
        scale([4, 8], 100, f)  # was 'efficiency: got 1.0169; allowed: (0, 1]'
    assert scale([8, 16], 100, f).efficiency[0] == pytest.approx(1.0)


def test_solution_records_keeps_every_row():
    s = solve(devices=[8, 16], per_device_throughput=100, efficiency=0.9)
    assert [r["actual_throughput"] for r in s.records()] == [720.0, 1440.0]  # record() returned the first only
    assert all(r["solved"] == "actual_throughput" for r in s.records())
    with pytest.raises(DpscaleError, match=r"record: 2 rows; allowed: one solved case — use records\(\)"):
        s.record()
    assert solve(devices=8, per_device_throughput=100, efficiency=0.9).record()["actual_throughput"] == 720.0


def test_solving_for_devices_reads_a_table_at_its_own_sizes():
    """The power-of-two search asked PerSize for 2 devices and failed ('no value for 2 devices')."""
    table = dpscale.PerSize.of([1, 8, 32], [1.0, 0.9, 0.8])  # speedups 1, 7.2, 25.6
    s = solve(per_device_throughput=100, efficiency=table, speedup=12)
    assert s.result.devices == 32 and s.exact == pytest.approx(8 + (12 - 7.2) / (25.6 - 7.2) * 24)
    assert solve(per_device_throughput=100, efficiency=table, speedup=7.2).exact == 8.0
    half = solve(per_device_throughput=100, efficiency=table, actual_throughput=50)  # half of one device's rate
    assert half.result.devices == 1 and half.exact == 0.5
    # one device runs at its own rate (E(1) = 1, not the table's nearest E): 100/s, speedup 1
    assert (half.result.efficiency, half.result.actual_throughput, half.result.speedup) == (1.0, 100.0, 1.0)
    with pytest.raises(DpscaleError, match=r"target 3,000/s \(speedup 30\): beyond this table \(its best is "
                                           r"2,560/s \(speedup 25.6\) at 32 devices\)"):  # fmt: skip
        solve(per_device_throughput=100, efficiency=table, actual_throughput=3000)


def test_fit_checks_its_seed_and_its_bootstrap_size():
    runs = dict(devices=[1, 2, 4], throughput=[100.0, 190.0, 350.0])
    for seed in (None, -1, 1.5, "a", 2**32, 2**63):  # None broke predict() (None + 1); −1 raised numpy's ValueError
        with pytest.raises(DpscaleError, match=r"^seed: got .*; allowed: a whole number from 0 to 4,294,967,295$"):
            dpscale.fit(**runs, seed=seed)
    assert dpscale.fit(**runs, seed=2**32 - 1)._rng_seed == 2**32 - 1  # the CLI's bound: one constant, fit_runs.SEEDS
    for resamples in (None, True, 49, 100.5, math.nan, math.inf, "100", 100_001):
        with pytest.raises(DpscaleError, match=r"^resamples: got .*; allowed: a whole number from 50 to 100,000$"):
            dpscale.fit(**runs, resamples=resamples)
    # a whole float is a count, as gpus_per_node=8.0 is (100.0 was refused as 'got 100', the number allowed)
    assert np.array_equal(
        dpscale.fit(**runs, resamples=100.0, seed=3.0).samples, dpscale.fit(**runs, resamples=100, seed=3).samples
    )
    # a float16's count: its comparison with the bound (100,000; 2**32 - 1) cast the bound to float16, inf, with
    # numpy's 'overflow encountered in cast' RuntimeWarning, an error under pyproject's filters (review MU)
    half = dpscale.fit(**runs, resamples=np.float16(100), seed=np.float16(3))
    assert np.array_equal(half.samples, dpscale.fit(**runs, resamples=100, seed=3).samples)
    d = np.arange(1, 1001)
    # named as the parameters a library caller typed: '--resamples × measured sizes' and '--resamples × --at' named
    # flags a notebook has not got (review MU); the CLI's own words are test_fit_cli's and test_faces_branches'
    with pytest.raises(DpscaleError, match=r"^resamples × measured sizes: 100,000 resamples × 1,001 sizes"):
        dpscale.fit(devices=d, throughput=100.0 * d, resamples=100_000)  # ran 172 s
    with pytest.raises(DpscaleError, match=r"^resamples × devices: 1,000 resamples × 20,001 sizes = 20,001,000"):
        dpscale.fit(**runs).predict(np.arange(1, 20_002))


@pytest.mark.parametrize(
    "count, level",
    [
        (np.array(100), np.array(0.9)),
        (np.array([100]), np.array([0.9])),
        ([100], [0.9]),
        (Decimal("100"), Decimal("0.9")),
    ],
)
def test_fit_reads_one_number_of_resamples_seed_and_level_as_other_inputs_read_one(count, level):
    """Review MW: fit(resamples=np.array(100)) (or [100], Decimal('100')) was refused as 'resamples: got 100; allowed:
    a whole number from 50 to 100,000', the seed's and confidence=np.array(0.9)'s likewise ('got 0.9; allowed: a level
    in (0, 1), e.g. 0.9'), where gpus_per_node=np.array(8) and every other one-number input (errors.one) read it."""
    runs = dict(devices=[1, 2, 4], throughput=[100.0, 190.0, 350.0])
    ints = dpscale.fit(**runs, resamples=100, seed=100, confidence=0.9)
    f = dpscale.fit(**runs, resamples=count, seed=count, confidence=level)
    assert np.array_equal(f.samples, ints.samples) and f.samples.shape == (100, 2) and f.confidence == 0.9


def test_a_calibration_object_is_checked():
    from dpscale.formulas.stepmodel import DEFAULT

    for field, bad in (("eta_intra", math.nan), ("eta_inter", -1.0), ("compute_jitter", 2.0)):
        with pytest.raises(DpscaleError, match=rf"^calibration\.{field}: got"):  # nan gave E = nan
            predict([1, 8], params=1e8, throughput=100.0, calibration=DEFAULT._replace(**{field: bad}), **CLUSTER)
    with pytest.raises(DpscaleError, match=r"^calibration: got \(1, 2, 3\)"):
        predict([1, 8], params=1e8, throughput=100.0, calibration=(1, 2, 3), **CLUSTER)


def test_a_vanishing_input_rate_is_refused_not_nan():
    """--input-rate 1e-320 made the input step inf s and E nan (a CLI fuzz of 7,056 odd values, session 12)."""
    with pytest.raises(DpscaleError, match=r"^input_rate: got 1e-320; allowed: samples/s one node's input pipeline"):
        predict([1, 8], params=1e8, throughput=100.0, input_rate=1e-320, **CLUSTER)
    slow = predict([1, 8], params=1e8, batch=1, step_time_s=1e6, input_rate=1e-5, **CLUSTER)  # 1e-6 per device
    assert 0 < slow.records()[1]["efficiency"] <= 1


# Session 14's API audit: each of these once raised a TypeError, named the wrong thing or answered silently.


def test_laws_take_numpy_scalars_and_a_fits_own_values():
    """np.float64(0.1) was refused as 'sigma: got 0.1; allowed: a contention σ in [0, 1)' (it looked like an array)."""
    assert dpscale.USL(np.float64(0.1), np.float32(0.0)) == USL(0.1, 0.0)
    assert dpscale.Amdahl(np.array(0.05)).serial_fraction == 0.05
    f = dpscale.fit(devices=[1, 2, 4, 8], throughput=[100, 190, 350, 600], law="usl")
    assert USL(*f.values).efficiency(8) == pytest.approx(f.efficiency(8))
    with pytest.raises(DpscaleError, match="sigma: got"):
        USL([0.1, 0.2])


def test_float32_sizes_are_computed_in_float64():
    r = scale(np.array([1.0], np.float32), 1.001, 1.0)
    assert r.actual_throughput[0] == 1.001 and r.actual_throughput.dtype == np.float64  # was 1.00100005
    assert scale(np.array([8], np.float32), 1e38, 0.9).actual_throughput[0] == pytest.approx(7.2e38)  # was inf


def test_a_list_of_e_where_sizes_are_planned_one_at_a_time_is_refused_by_name():
    what = "efficiency: got .*; allowed: one number, or an E\\(d\\) source"
    for call in (lambda: dpscale.plan(1.28e6, 90, 2000, [2, 8], [0.9, 0.8]),
                 lambda: dpscale.batch_plan(32, 8, efficiency=[0.9, 0.8])):  # fmt: skip
        with pytest.raises(DpscaleError, match=what):
            call()
    with pytest.raises(DpscaleError, match="efficiency: got 0.9; allowed: E = 1 at one device"):
        scale(1, 2000, [0.9, 0.8])  # a TypeError from float() of an array
    assert scale(1, 2000, [1.0, 1.0]).actual_throughput.tolist() == [2000.0, 2000.0]


def test_solve_holds_the_same_rules_as_scale():
    """A fit from 8 devices up said 'efficiency: got 1.028' below its baseline; a function saying 0.9 at one device
    was solved to one device at 90 % of itself."""
    f = dpscale.fit(devices=[8, 16, 32, 64], throughput=[1600, 3040, 5760, 10240])
    for kw in (dict(per_device_throughput=200, efficiency=f, speedup=2),
               dict(devices=4, efficiency=f, actual_throughput=1000)):  # fmt: skip
        with pytest.raises(DpscaleError, match="below this fit's smallest measured size 8"):
            solve(**kw)
    for kw in (dict(per_device_throughput=100, efficiency=lambda d: 0.9, speedup=0.5),
               dict(devices=1, efficiency=lambda d: 0.9, actual_throughput=90)):  # fmt: skip
        with pytest.raises(DpscaleError, match="efficiency: got 0.9; allowed: E = 1 at one device"):
            solve(**kw)
    assert solve(per_device_throughput=200, efficiency=f, speedup=20).result.devices == 23  # 22.19 (the all-reduce law)


def test_scaled_lr_bounds_the_batch_and_takes_arrays_under_both_rules():
    with pytest.raises(DpscaleError, match="batch: got 1e\\+308"):
        dpscale.scaled_lr(1e6, 1e-9, 1e308)  # was inf
    assert dpscale.scaled_lr(0.1, 256, np.array([512, 1024]), "sqrt").tolist() == pytest.approx([0.1 * 2**0.5, 0.2])
    with pytest.raises(DpscaleError, match="rule: got 'bogus'; allowed: linear, sqrt"):
        dpscale.batch_plan(32, 8, rule="bogus")  # returned quietly
    with pytest.raises(DpscaleError, match="optimizer: got 'lamb'; allowed: sgd, adam"):
        dpscale.batch_plan(32, 8, optimizer="lamb")
    with pytest.raises(DpscaleError, match="rule: got 'sqrt'; allowed: with base_lr and base_batch"):
        dpscale.batch_plan(32, 8, rule="sqrt")


@pytest.mark.parametrize(
    "table, message",
    [
        (((8, 0.9), (8, 0.5)), "8 devices given twice \\(0.9 and 0.5\\)"),  # the last silently won
        ([8, 0.9], "table: got \\[8, 0.9\\]; allowed: \\(devices, efficiency\\) pairs"),  # a TypeError
        ("8:0.9", "table: got '8:0.9'"),
        ((), "table: got \\[\\]"),  # accepted, then 'allowed: the listed sizes ' with none listed
        (((1, 0.9), (8, 0.8)), "efficiency: got 0.9; allowed: E = 1 at one device"),
    ],
)
def test_a_per_size_table_is_checked_when_built(table, message):
    with pytest.raises(DpscaleError, match=message):
        dpscale.PerSize(table)


def test_a_per_size_table_reads_like_the_other_sources():
    with pytest.raises(DpscaleError, match="^efficiency: got 1 value for 2 device counts"):
        dpscale.PerSize.of([2, 4], [0.9])  # zip would have dropped 4 devices without a word
    t = dpscale.PerSize(((2, 0.9), (4, 0.8)))
    assert t.efficiency([2, 4]).tolist() == [0.9, 0.8]  # 'unhashable type: list'
    assert type(t.efficiency(np.int64(4))) is float  # a 0-d array
    assert scale([1, 2, 4], 2000, t).actual_throughput.tolist() == [2000.0, 3600.0, 6400.0]  # 'no value for 1'
    with pytest.raises(DpscaleError, match="no value for 3 devices; allowed: the listed sizes 2,4"):
        t.efficiency(3)


def test_results_are_read_only_views_of_the_callers_arrays():
    """Like numpy's views: no copy of 10^7 sizes (bench_scale's goal), read-only through the result, and the
    caller's own arrays stay theirs to change (a caller who will change them copies first)."""
    d, e = np.array([2, 4]), np.array([0.9, 0.8])
    r = scale(d, 100.0, e)
    assert np.shares_memory(r.devices, d) and np.shares_memory(r.efficiency, e)
    assert not r.devices.flags.writeable and not r.efficiency.flags.writeable
    d[0], e[0] = 64, 0.1  # still writable
    assert r.ideal_throughput.tolist() == [200.0, 400.0]  # computed when called
    one = np.array(0.9)  # a 0-d E is one number: spread, not kept as a view of the caller's
    r = scale(np.array([2, 4]), 100.0, one)
    one[()] = 0.5
    assert r.efficiency.tolist() == [0.9, 0.9] and not r.efficiency.flags.writeable


def test_the_overflow_check_reads_the_sizes_only_when_their_bound_overflows():
    """d·v is checked at MAX_DEVICES·v first (no pass over d); past it, at the largest d actually given."""
    assert scale(np.array([5]), 2e301, 0.9).ideal_throughput.tolist() == [1e302]
    with pytest.raises(DpscaleError, match="devices × per_device_throughput: beyond floating point"):
        scale(np.array([5, 10]), 2e307, 0.9)


def test_a_fit_reads_numpy_scalar_targets():
    f = dpscale.fit(devices=[8, 16, 32, 64], throughput=[1600, 3040, 5760, 10240])
    want = f.devices_for(throughput=20000)
    assert f.devices_for(throughput=np.float32(20000)) == want == f.devices_for(throughput=np.int64(20000))
    assert dpscale.Constant(np.float64(0.9)).value == 0.9
    with pytest.raises(DpscaleError, match="efficiency: got \\[0.9, 0.8\\]; allowed: one number"):
        dpscale.Constant([0.9, 0.8])


def test_plan_names_its_own_throughput_argument():
    with pytest.raises(DpscaleError, match="^throughput: got nan"):  # 'per_device_throughput: …', scale()'s name
        dpscale.plan(1e6, 1, float("nan"), [1, 8])


def test_a_shape_mismatch_says_the_shapes():
    # 2×2 against 3 is no numpy broadcast ('shapes', not 'lengths 2, 3'); 2×1 against 2 is one: a grid (test_core)
    with pytest.raises(DpscaleError, match="shapes 2×2, 3, a number; allowed: arrays of one length"):
        scale(np.array([[1, 2], [4, 8]]), np.array([100.0, 200.0, 300.0]), 0.9)


def test_a_per_size_table_takes_any_iterable_of_pairs():
    want = ((1, 1.0), (8, 0.9))
    for table in (zip([1, 8], [1, 0.9]), {1: 1, 8: 0.9}.items(), ((d, e) for d, e in want),
                  np.array([[1, 1], [8, 0.9]]), ((1, 1 - 1e-12), (8, 0.9))):  # fmt: skip
        assert dpscale.PerSize(table).efficiency([8])[0] == 0.9 and dpscale.PerSize(want).table == want
    assert dpscale.plan(1e6, 1, 100, [1, 8], np.array([0.9])).points[1].efficiency == 0.9


def test_dir_lists_the_public_names_once():
    """dir(dpscale) listed a loaded name twice and this file's helpers (TYPE_CHECKING, import_module)."""
    assert dpscale.scale  # loaded: in the module's globals as well as in its export table
    names = dir(dpscale)
    public = [n for n in names if not n.startswith("__")]
    assert len(names) == len(set(names)) and public == sorted(dpscale.__all__)
    assert all(callable(getattr(dpscale, n)) for n in public)


def test_float_sizes_are_checked_at_their_smallest():
    """counts_and_least gives scale the smallest size for the E(1) = 1 and fit-baseline checks; float arrays of
    sizes ([1.0, 8.0]) pass through its float branch, which the integer tests never reached."""
    half = lambda d: np.full(np.shape(d), 0.5)  # noqa: E731 (E(1) = 0.5: refused)
    for d in (np.array([1.0, 8.0]), np.array([8.0, 1.0], dtype=np.float32)):
        with pytest.raises(DpscaleError, match="^efficiency: got 0.5"):
            scale(d, 100.0, half)
    f = dpscale.fit([(8, 7500), (16, 14600), (32, 28000)], resamples=50)
    with pytest.raises(DpscaleError, match="^devices: got 4, below this fit's smallest measured size 8"):
        scale(np.array([4.0, 16.0]), 100.0, f)


def test_effective_devices_is_as_read_only_as_the_speedup():
    """effective_devices (d·E, the speedup by another name) was the writable array the frozen speedup viewed:
    writing it changed speedup and records()."""
    r = scale(np.arange(1, 9), 2000, dpscale.USL(0.01, 1e-5))
    assert not r.effective_devices.flags.writeable and not r.speedup.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        r.effective_devices[0] = 99


def test_a_function_written_for_one_size_is_read_size_by_size():
    """`lambda d: 1.0 if d == 1 else 0.9` met an array of sizes and raised numpy's 'truth value … ambiguous'."""
    r = scale(np.arange(1, 5), 100, lambda d: 1.0 if d == 1 else 0.9)
    assert r.efficiency.tolist() == [1.0, 0.9, 0.9, 0.9] and r.actual_throughput.tolist() == [100, 180, 270, 360]
    with pytest.raises(DpscaleError, match="efficiency: got 1.5"):
        scale(np.arange(1, 5), 100, lambda d: 1.0 if d == 1 else 1.5)


def test_least_sharded_and_fit_refuse_what_they_cannot_read():
    """least_sharded([1, 2]) raised AttributeError; fit(runs, devices=…, throughput=…) merged the two as repeats."""
    for bad in ([1, 2], 3, None):
        with pytest.raises(DpscaleError, match="allowed: the rows fit_all returns"):
            dpscale.least_sharded(bad)
    assert dpscale.least_sharded(dpscale.fit_all(7.5e9, 64, device_memory_bytes=32 * 2**30)) == 1
    with pytest.raises(DpscaleError, match="runs and devices=/throughput=: two sets of runs"):
        dpscale.fit([(1, 1000), (8, 7500)], devices=[1, 8], throughput=[1, 2])


def test_a_function_of_math_calls_is_read_size_by_size():
    """`lambda d: 1 / (1 + 0.01 * math.log(d))` met an array and raised TypeError ('only 0-dimensional arrays can
    be converted to Python scalars'): the size-by-size fallback caught numpy's ambiguity only."""
    import math

    r = scale([1, 2, 4], 100, lambda d: 1 / (1 + 0.01 * math.log2(d)))
    assert r.efficiency.tolist() == pytest.approx([1, 1 / 1.01, 1 / 1.02])
    with pytest.raises(TypeError, match="must be real number"):  # a function's own error stays its own
        scale([1, 2], 100, lambda d: math.log("x"))


def test_a_table_of_e_may_be_a_dict():
    """PerSize({1: 1.0, 8: 0.9}) iterated the dict's sizes alone and said 'table: got [1, 8]'."""
    t = dpscale.PerSize({1: 1.0, 8: 0.9})
    assert t.table == ((1, 1.0), (8, 0.9)) and scale([1, 8], 100, t).actual_throughput.tolist() == [100.0, 720.0]
    with pytest.raises(DpscaleError, match="efficiency: got 0.5"):
        dpscale.PerSize({1: 0.5})


def test_notebook_spellings_of_sizes_and_deadlines():
    """range(8, 65, 8) was 'devices: got range(…); allowed: a number or an array'; a deadline of '24h' said only
    'allowed: a number', not how the library reads text."""
    assert scale(range(1, 4), 100, 0.9).actual_throughput.tolist() == [100.0, 180.0, 270.0]
    p = dpscale.predict(range(8, 33, 8), model="bert-large", throughput=150, system="dgx-a100")
    assert p.devices.tolist() == [8, 16, 24, 32]
    with pytest.raises(DpscaleError, match=r"deadline_hours: got '24h'; allowed: hours as a number \(parse_duration"):
        dpscale.plan(1e6, 1, 100, [8], 0.9, deadline_hours="24h")
    assert dpscale.plan(1e6, 1, 100, [8], 0.9, deadline_hours=dpscale.parse_duration("24h")).deadline_hours == 24


@pytest.mark.parametrize(
    "law", [USL(0.01, 1e-5), dpscale.Amdahl(0.05), dpscale.Constant(0.9), dpscale.PerSize({8: 0.9, 64: 0.8})]
)
def test_laws_copy_deepcopy_and_pickle(law):
    """copy, deepcopy and pickle set the slots through __setattr__: 'USL is immutable' (an AttributeError)."""
    import copy
    import pickle

    for twin in (copy.copy(law), copy.deepcopy(law), pickle.loads(pickle.dumps(law))):
        assert twin == law and hash(twin) == hash(law)
        assert scale(64, 2000, twin).actual_throughput == scale(64, 2000, law).actual_throughput


def test_a_worked_example_law_survives_a_pickle():
    """Constant(0.9) pickled and read back still gives 64 × 2,000 × 0.9 = 115,200 samples/s, 57.6×."""
    import pickle

    r = scale(64, 2000, pickle.loads(pickle.dumps(dpscale.Constant(0.9))))
    assert (r.actual_throughput, r.speedup) == (pytest.approx(115_200), pytest.approx(57.6))


@pytest.mark.parametrize(
    "call",
    [
        lambda: scale(np.ma.masked_array([1, 8, 64], [0, 1, 0]), 2000, 0.9),
        lambda: scale([1, 8, 64], 2000, np.ma.masked_array([1, 0.9, 0.8], [0, 1, 0])),
        lambda: USL(np.ma.masked_array([0.01], [1]), 0),
        lambda: USL(0.01, 0).efficiency(np.ma.masked_array([1, 8], [0, 1])),
        lambda: dpscale.PerSize.of([8, 64], np.ma.masked_array([0.9, 0.8], [0, 1])),
        lambda: solve(devices=64, per_device_throughput=2000, actual_throughput=np.ma.masked_array([115_200], [1])),
        lambda: dpscale.batch_plan(np.ma.masked_array([32], [1]), 64),
    ],
)
def test_a_masked_value_is_refused_not_read_under_its_mask(call):
    """np.asarray read the value under the mask: a masked 8 devices was computed (14,400 samples/s), a masked
    E of 0.9 used, a masked micro-batch raised numpy's MaskError."""
    with pytest.raises(DpscaleError, match=r": got .*--.*; allowed: numbers without masked \(missing\) values"):
        call()


def test_an_unmasked_masked_array_is_its_numbers():
    r = scale(np.ma.masked_array([1, 64], [0, 0]), 2000, 0.9)
    assert r.actual_throughput.tolist() == [2000.0, pytest.approx(115_200)]


def test_a_per_size_table_checks_the_sizes_it_is_asked_for_like_every_law():
    """PerSize.efficiency said 'no value for range(1, 2) devices' for a range, 'no value for 8 devices' for the
    text '8', read True as one device, gave [] an empty array and [8, [1]] numpy's ValueError."""
    t = dpscale.PerSize({8: 0.9, 64: 0.8})
    assert t.efficiency(range(1, 2)).tolist() == [1.0]
    assert t.efficiency(np.array([1, 8, 64])).tolist() == [1.0, 0.9, 0.8]
    assert t.efficiency(np.float32(8)) == 0.9
    for bad, said in (("8", "'8'"), (True, "True"), ([], r"\[\]"), ([8, [1]], r"\[8, \[1\]\]"), (0, "0")):
        with pytest.raises(DpscaleError, match=rf"^devices: got {said}; allowed: "):
            t.efficiency(bad)
    with pytest.raises(DpscaleError, match=r"no value for 16 devices; allowed: the listed sizes 8,64"):
        t.efficiency(np.array([8, 16]))
    with pytest.raises(DpscaleError, match=r"no value for 1234567 devices"):
        t.efficiency(1_234_567)


def test_per_size_of_takes_one_size_and_its_e():
    """PerSize.of(8, 0.9) raised len()'s TypeError."""
    assert dpscale.PerSize.of(8, 0.9) == dpscale.PerSize({8: 0.9}) == dpscale.PerSize.of(np.array(8), [0.9])
    with pytest.raises(DpscaleError, match="got 1 value for 2 device counts"):
        dpscale.PerSize.of([8, 64], 0.9)


def test_numpy_scalar_inputs_leave_e_a_number_like_the_other_fields():
    """np.int64/np.float32 sizes made r.efficiency a 0-d array, array(0.9), beside np.float64 fields."""
    r = scale(np.float32(64), 2000, 0.9)
    assert not isinstance(r.efficiency, np.ndarray) and r.efficiency == 0.9
    assert float(r.actual_throughput) == pytest.approx(115_200)
    assert not isinstance(scale(np.array(64), np.float32(2000), 0.9).efficiency, np.ndarray)


def test_a_function_of_d_gives_one_e_per_size():
    """A function returning [1.0] for sizes [1, 8] was spread over both: 8 devices at E = 1, 16,000 samples/s."""
    with pytest.raises(DpscaleError, match=r"^efficiency: got \[1\.\]; allowed: one E per size .*\(2 sizes here\)"):
        scale([1, 8], 2000, lambda d: np.array([1.0]))
    assert scale([1, 8], 2000, [1.0, 0.9]).actual_throughput.tolist() == [2000.0, 14_400.0]


def test_a_function_that_looks_e_up_in_a_dict_is_read_size_by_size():
    """`lambda d: table[d]` met the array of sizes: "unhashable type: 'numpy.ndarray'" (a TypeError)."""
    table = {1: 1.0, 8: 0.9, 64: 0.9}
    r = scale([1, 8, 64], 2000, lambda d: table[d])
    assert r.actual_throughput.tolist() == [2000.0, 14_400.0, pytest.approx(115_200)]


def test_a_negative_zero_parameter_prints_as_zero():
    assert repr(dpscale.Amdahl(-0.0)) == "Amdahl(serial_fraction=0.0)"
    assert repr(USL(-0.0, -0.0)) == "USL(sigma=0.0, kappa=0.0)"


@pytest.mark.parametrize(
    "module",
    [
        "dpscale",
        "dpscale.sources.fit",
        "dpscale.formulas.batch",
        "dpscale.formulas.memory",
        "dpscale.formulas.compute",
        "dpscale.formulas.plan",
        "dpscale.sources.runs_csv",
        "dpscale.files",
    ],
)
def test_docstring_examples_run(module):
    """The examples a user reads in help() run as written (fit's printed nothing and named dpscale unimported)."""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def test_a_masked_efficiency_or_size_is_refused_where_sizes_are_planned_one_at_a_time():
    """plan and batch_plan read a masked one-element E through .item(): the hidden 0.5 was planned; plan's masked
    size became None ('got [8, None]; allowed: numbers')."""
    hidden = np.ma.masked_array([0.5], mask=[True])
    with pytest.raises(DpscaleError, match=r"^efficiency: got \[--\]; allowed: numbers without masked"):
        dpscale.batch_plan(32, 8, efficiency=hidden)
    with pytest.raises(DpscaleError, match=r"^efficiency: got \[--\]; allowed: numbers without masked"):
        dpscale.plan(1e6, 1, 100, [8], hidden)
    with pytest.raises(DpscaleError, match=r"^devices: got \[8 --\]; allowed: numbers without masked"):
        dpscale.plan(1e6, 1, 100, np.ma.masked_array([8, 16], mask=[False, True]), 0.9)
    assert dpscale.plan(1e6, 1, 100, np.ma.masked_array([8]), np.ma.masked_array([0.9])).points[0].efficiency == 0.9


def test_numpy_scalar_inputs_give_plain_numbers():
    """np.float64 inputs came back as np.float64 fields; a np.float32 size made USL/Amdahl compute E in float32."""
    r = scale(np.int64(8), np.float64(100), np.float64(0.9))
    assert all(type(getattr(r, f)) in (int, float) for f in r._fields)
    assert type(dpscale.solve(devices=8, per_device_throughput=np.float64(100), efficiency=0.9).exact) is float
    for law in (USL(0.1, 0.001), dpscale.Amdahl(0.1)):
        for d in (np.int64(8), np.float32(8), np.float64(8)):
            assert type(law.efficiency(d)) is float and law.efficiency(d) == law.efficiency(8)
    assert type(dpscale.model_states(np.float64(1e9), 8).params) is float
    assert type(dpscale.scaled_lr(np.float64(0.1), np.int64(256), np.int64(512))) is float


# --- session 25: a second API audit (hypothesis and a fuzz of ~60 odd inputs over every public function) ---


@pytest.mark.parametrize("e", [0.9, Fraction(9, 10), "Decimal", [0.9], (0.9,), np.array([0.9])])
def test_one_efficiency_in_any_number_type_is_held_at_one_on_one_device(e):
    """A Fraction, a Decimal or [0.9] broadcasts like 0.9, so E(1) = 1 as for it; they were refused as a table
    saying 0.9 at one device, while scale(8, 2000, Decimal('0.9')) worked."""
    from decimal import Decimal

    e = Decimal("0.9") if e == "Decimal" else e
    r = scale([1, 8], 2000, e)
    assert list(r.efficiency) == [1.0, 0.9] and list(r.actual_throughput) == [2000.0, 14400.0]
    assert scale([1, 8], 2000, dpscale.PerSize({8: 0.9})).actual_throughput[1] == 14400.0
    with pytest.raises(DpscaleError, match="E = 1 at one device"):  # two values are one per size: 0.9 at 1 is wrong
        scale([1, 8], 2000, [0.9, 0.8])


def test_an_efficiency_method_written_for_one_size_is_asked_size_by_size():
    """An object whose .efficiency(d) compares d to 1 met an array: numpy's 'truth value … ambiguous' escaped, where
    the same function passed bare was asked size by size."""

    class Table:
        def efficiency(self, d):
            return 1.0 if d == 1 else 0.9

    assert list(scale([1, 8, 64], 2000, Table()).actual_throughput) == [2000.0, 14400.0, 115200.0]


def test_one_value_in_a_list_is_that_value_and_a_range_is_a_list():
    """batch_plan([32], 8) raised int()'s TypeError; Fit.devices_for(efficiency=[0.8]) numpy's; a range where one
    number belongs got through to arithmetic (plan, predict)."""
    assert dpscale.batch_plan([32], 8).global_batch == dpscale.batch_plan(32, np.array([8])).global_batch == 256
    with pytest.raises(DpscaleError, match=r"^micro_batch: got \[32 64\]; allowed: one whole number ≥ 1"):
        dpscale.batch_plan([32, 64], 8)
    f = dpscale.fit([(1, 1000), (8, 7600), (16, 14800)], law="amdahl")
    assert f.devices_for(efficiency=[0.8])["devices"] == f.devices_for(efficiency=0.8)["devices"]
    with pytest.raises(DpscaleError, match=r"^samples: got range\(1, 5\); allowed: one number"):
        dpscale.plan(range(1, 5), 1, 2000, [8])
    with pytest.raises(DpscaleError, match=r"^throughput: got range\(100, 102\); allowed: one number"):
        predict([1, 8], params=1e8, throughput=range(100, 102), **CLUSTER)
    one = predict([1, 8], params=1e8, throughput=range(100, 101), **CLUSTER).efficiency_values
    assert list(one) == list(predict([1, 8], params=1e8, throughput=100, **CLUSTER).efficiency_values)


@pytest.mark.parametrize("table", [np.array([8, 0.9]), np.array(8)])
def test_per_size_refuses_a_flat_or_0d_array_in_one_line(table):
    with pytest.raises(DpscaleError, match=r"^table: got .*; allowed: \(devices, efficiency\) pairs"):
        dpscale.PerSize(table)


def test_per_size_tables_compare_by_value_whatever_the_order():
    a, b = dpscale.PerSize({8: 0.9, 16: 0.8}), dpscale.PerSize({16: 0.8, 8: 0.9})
    assert a == b and hash(a) == hash(b) and a.table == ((8, 0.9), (16, 0.8))


@pytest.mark.parametrize("opt", [np.array(["adam", "sgd"]), np.array(["adam"]), None])
def test_memory_names_an_optimizer_array_in_one_line(opt):
    """A bare `x not in OPTIMIZERS` raised numpy's ambiguity error or 'unhashable type'."""
    with pytest.raises(DpscaleError, match=r"^optimizer: got .*; allowed: adam, adamw, sgd$"):
        dpscale.model_states(7.5e9, 8, 1, opt)
    with pytest.raises(DpscaleError, match=r"^precision: got .*; allowed: mixed, amp, fp32, bf16, fp8$"):
        dpscale.model_states(7.5e9, 8, 1, "adam", np.array(["mixed"]))


@pytest.mark.parametrize("runs", [5, 3.5, np.float32(8), b"x", np.array(3)])
def test_fit_of_one_number_is_told_what_runs_are(runs):
    with pytest.raises(DpscaleError, match=r"^runs: got .*; allowed: a file's path, or \(devices, throughput\) pairs"):
        dpscale.fit(runs)


def test_a_duration_names_each_unit_once_min_and_m_alike():
    """'30min30m' read as an hour: min and m are one unit, which the order check told apart."""
    assert dpscale.parse_duration("2h30min") == 2.5 and dpscale.parse_duration("1d12h") == 36.0
    with pytest.raises(DpscaleError, match="^deadline: got '30min30m'"):
        dpscale.parse_duration("30min30m")


@pytest.mark.parametrize("text", ["1_000", "١٢h", "١٢", "１０h", "2d１h"])
def test_a_duration_in_python_s_spelling_is_refused_as_plan_deadline_refuses_it(text):
    """`dpscale plan --deadline ١٢h` is refused ('allowed: a number in the digits 0-9, without '_''), but the library's
    parse_duration read '١٢h' as 12 hours, '１０h' as 10 and '1_000' as 1,000 (float() and re's \\d take any script's
    digits and '_'): a deadline the CLI refuses planned silently (review LB). Refused alike now."""
    with pytest.raises(
        DpscaleError, match=rf"^deadline: got '{text}'; allowed: a number in the digits 0-9, without '_'"
    ):
        dpscale.parse_duration(text)
    assert dpscale.parse_duration("12h") == 12.0 and dpscale.parse_duration("1000") == 1000.0


def test_names_are_taken_in_any_case_as_the_cli_takes_them():
    """The CLI took --schedule GPIPE and --optimizer ADAM, the library refused them; and a check that lower-cased
    without handing the name back would have let 'GPIPE' fall through to ZB-H2's zero bubble."""
    assert dpscale.bubble_fraction(4, 8, "GPIPE") == dpscale.bubble_fraction(4, 8, "gpipe") == 3 / 11
    p = dpscale.pipeline(4, 8, "Interleaved", chunks=2)
    assert p.schedule == "interleaved" and p.in_flight_microbatches == 5.5
    assert dpscale.model_states(7.5e9, 64, 0, "ADAM", "Mixed").total == 120e9  # the ZeRO paper's 120 GB
    assert dpscale.fit([(1, 1000), (2, 1900), (4, 3500), (8, 6000)], law="USL").law == "usl"
    from dpscale.formulas.memory import activation_bytes, ddp_bucket_bytes

    assert ddp_bucket_bytes(1e9, "MIXED") == ddp_bucket_bytes(1e9, "mixed") == (2e9, 4e9)
    with pytest.raises(DpscaleError, match=r"^recompute: got .*; allowed: none, selective, full$"):
        activation_bytes(dpscale.formulas.memory.Shape(32, 4096, 32, 2048), 1, recompute=np.array(["full"]))


# ---- session 28's library review -------------------------------------------------------------------------------


def test_fit_refuses_records_of_two_set_ups_or_units_as_a_file_does(tmp_path):
    """`measure --out` records loaded by hand were fitted as one curve across workloads (and tokens/s beside
    samples/s), where the same records in a .jsonl file were refused."""
    two = [{"devices": 1, "throughput": 1000, "workload": "cnn"}, {"devices": 8, "throughput": 7500, "workload": "mlp"},
           {"devices": 16, "throughput": 14600, "workload": "mlp"}]  # fmt: skip
    with pytest.raises(DpscaleError, match=r"^runs\[1\]: another set-up than runs\[0\] \(workload 'cnn' → 'mlp'\)"):
        dpscale.fit(two)
    f = tmp_path / "two.jsonl"
    f.write_text("\n".join(__import__("json").dumps(r) for r in two))
    with pytest.raises(DpscaleError, match=r"line 2: another set-up than line 1 \(workload 'cnn' → 'mlp'\)"):
        dpscale.fit(str(f))
    units = [{"devices": 1, "throughput": 1000, "unit": "tokens/s"}, {"devices": 8, "throughput": 7500,
             "unit": "samples/s"}, {"devices": 16, "throughput": 14600}]  # fmt: skip
    with pytest.raises(DpscaleError, match=r"^runs\[1\]: unit 'samples/s' against 'tokens/s' on runs\[0\]"):
        dpscale.fit(units)
    one_setup = [{**r, "workload": "mlp"} for r in two]
    assert dpscale.fit(one_setup).runs.devices == (1, 8, 16)


def test_fit_step_times_are_taken_once_and_named_when_miscounted():
    """step_time beside runs was dropped without a word (seconds() None); one step time for three sizes blamed
    throughput, which had three."""
    with pytest.raises(DpscaleError, match="^step_time: given beside runs"):
        dpscale.fit([(1, 1000), (8, 7500), (16, 14600)], step_time=[0.032, 0.034, 0.035])
    with pytest.raises(DpscaleError, match="^step_time: got 1 value for 3 device counts"):
        dpscale.fit(devices=[1, 8, 16], throughput=[1000, 7500, 14600], step_time=0.03)
    with pytest.raises(DpscaleError, match="^throughput: got 2 values for 3 device counts"):
        dpscale.fit(devices=[1, 8, 16], throughput=[1000, 7500])
    inside = dpscale.fit([(1, 1000, 0.032), (8, 7500, 0.034), (16, 14600, 0.035)]).seconds()
    assert inside is not None and inside["compute_s"] == pytest.approx(0.032, rel=0.05)


def test_fit_columns_take_a_range_or_a_generator_as_scale_does():
    """fit(devices=range(1, 5), …) read the range as one device count ('throughput: got 4 values for 1 device
    count'); a generator likewise. A set has no order to pair its sizes with the rates by: refused by name."""
    rates = [1000, 1950, 2850, 3700]
    listed = dpscale.fit(devices=[1, 2, 3, 4], throughput=rates, resamples=50)
    for sizes in (range(1, 5), (d for d in [1, 2, 3, 4])):
        got = dpscale.fit(devices=sizes, throughput=rates, resamples=50)
        assert got.runs.devices == (1, 2, 3, 4) and np.array_equal(got.values, listed.values)
    swept = dpscale.fit(devices=[1, 2, 3], throughput=range(1000, 2501, 750), resamples=50)
    assert swept.runs.throughput == (1000, 1750, 2500)
    with pytest.raises(DpscaleError, match="^devices: got .*; allowed: an ordered column"):
        dpscale.fit(devices={1, 8, 16}, throughput=[1000, 7600, 14800])


def test_least_sharded_without_a_device_memory_is_refused_not_none():
    """fit_all(7e9, 8) has no device to fit on, yet least_sharded said None, its answer for 'not even ZeRO-3
    fits'; fit_advice still says nothing for such rows."""
    bare = dpscale.fit_all(7e9, 8)
    with pytest.raises(DpscaleError, match=r"^fits: got .*; allowed: rows of fit_all\(…, device_memory_bytes=…\)"):
        dpscale.least_sharded(bare)
    assert dpscale.fit_advice(bare) == ()
    assert dpscale.least_sharded(dpscale.fit_all(70e9, 1, device_memory_bytes=80 * 2**30)) is None  # none fits
    assert dpscale.least_sharded(dpscale.fit_all(7e9, 8, device_memory_bytes=80 * 2**30)) == 1


def test_devices_for_below_the_smallest_run_warns_as_predict_does():
    f8 = dpscale.fit([(8, 8000), (16, 15500), (32, 30000), (64, 58000)], gpus_per_node=8)
    low = f8.devices_for(throughput=4000)
    assert low["devices"] == 4 and "below the smallest measured one (d0 = 8), 4" in " ".join(low["warnings"])
    assert f8.devices_for(throughput=40000)["warnings"] == []  # 44 devices: inside the runs, nothing to say


def test_pipeline_reads_an_e_source_at_its_replica_count():
    """DEVELOPING.md: an E source works with the planners; pipeline() refused one ('allowed: a number')."""
    usl = USL(0.01, 1e-5)
    r = dpscale.pipeline(4, 8, dp_efficiency=usl, devices=64)  # 16 replicas of a 4-stage pipeline
    want = 1 / (1 + 0.01 * 15 + 1e-5 * 16 * 15)  # USL's E(16)
    assert r.dp_replicas == 16 and r.dp_efficiency == pytest.approx(want, rel=1e-12)
    assert r.combined_efficiency == pytest.approx(want * 8 / 11, rel=1e-12)  # 1F1B, p 4, m 8: E_pipe = 1/(1 + 3/8)
    assert dpscale.pipeline(4, 8, dp_efficiency=usl, devices=4).dp_efficiency == 1.0  # one replica: no DP
    with pytest.raises(DpscaleError, match="^dp_efficiency: got USL.*with devices= given"):
        dpscale.pipeline(4, 8, dp_efficiency=usl)
    with pytest.raises(DpscaleError, match=r"^dp_efficiency: got 1.5; allowed: a scaling efficiency in \(0, 1\]"):
        dpscale.pipeline(4, 8, dp_efficiency=lambda d: 1.5, devices=8)


def test_plan_records_carry_the_marks_the_cli_prints():
    p = dpscale.plan(1.28e6, 90, 1000, [8, 16, 32, 64, 128], 0.9, price_per_device_hour=2.0, deadline_hours=5)
    marks = {r["devices"]: r["marks"] for r in p.records()}
    assert marks[p.cheapest_meeting_deadline] and "cheapest_meeting_deadline" in marks[p.cheapest_meeting_deadline]
    assert sum(len(m) for m in marks.values()) == sum(x is not None for x in (p.knee, p.cheapest_meeting_deadline,
                                                                               p.fastest_within_budget))  # fmt: skip


def test_predict_takes_the_algorithm_in_any_case_and_model_states_names_stage():
    kw = dict(model="resnet50", system="dgx1-v100")
    assert predict([1, 16], algorithm="Ring", **kw).records()[1]["algorithm"] == "ring"
    with pytest.raises(DpscaleError, match="^stage: got 4; allowed: 0, 1, 2 or 3"):
        dpscale.model_states(7.5e9, 64, stage=4)


def test_records_without_a_measure_set_up_are_fitted_as_a_csv_would_be():
    """A hand-made record's batch may be the global batch, growing with d, as a CSV's is; and a plain record beside a
    `measure` one breaks nothing in either order (a diff review of session 28)."""
    grow = [{"devices": 1, "throughput": 100, "batch": 32}, {"devices": 8, "throughput": 750, "batch": 256},
            {"devices": 16, "throughput": 1460, "batch": 512}]  # fmt: skip
    assert dpscale.fit(grow).runs.devices == (1, 8, 16)
    rec = {"devices": 2, "throughput": 190, "workload": "mlp", "backend": "gloo", "zero": 0}
    plain = [{"devices": 1, "throughput": 100}, {"devices": 4, "throughput": 360}]
    for runs in ([plain[0], rec, plain[1]], [rec, *plain]):
        assert dpscale.fit(runs).runs.devices == (1, 2, 4)


def test_pipeline_with_one_replica_is_e_one_whatever_the_source():
    """Four devices of a four-stage pipeline hold one replica: no data parallelism, E_dp = 1 — for a number, a law,
    a function or a fit relative to 2 devices (whose E(1) is above 1) alike; a missing size is named as replicas."""
    f = dpscale.fit(devices=[2, 4, 8, 16], throughput=[190, 360, 650, 1100])
    for src in (0.9, USL(0.01, 1e-5), lambda d: 0.9, f):
        assert dpscale.pipeline(4, 16, dp_efficiency=src, devices=4).dp_efficiency == 1.0
    table = dpscale.PerSize(((1, 1.0), (8, 0.9)))
    with pytest.raises(DpscaleError, match=r"^dp_efficiency at 4 replicas \(devices / stages\): efficiency: no value"):
        dpscale.pipeline(4, 16, dp_efficiency=table, devices=16)


def test_true_among_sizes_is_refused_like_true_alone():
    """[True, 8] became the array [1, 8]: scale, a law, predict and plan ran True as one device (True alone and a
    fit's [True, 8] were refused)."""
    calls = (
        lambda x: scale(x, 2000, 0.9),
        lambda x: dpscale.USL(0.01, 1e-4).efficiency(x),
        lambda x: dpscale.plan(1e6, 1, 100, x),
        lambda x: dpscale.predict(x, model="bert-large", throughput=150, system="dgx-a100"),
    )
    for call in calls:
        for sizes in ([True, 8], [8.0, np.True_], [[1, False]]):
            with pytest.raises(DpscaleError, match=r"^devices: got (True|False); allowed: numbers, not True or False"):
                call(sizes)
    assert scale([1, 8], 2000, 0.9).actual_throughput.tolist() == [2000.0, 14400.0]


def test_a_constant_law_gives_the_shape_it_is_asked_in_as_every_law():
    """Constant(0.9).efficiency([8, 16]) was the number 0.9 and [1, 16] an array: the type hung on whether one
    device was among the sizes."""
    law = dpscale.Constant(0.9)
    assert law.efficiency([8, 16]).tolist() == [0.9, 0.9] and law.efficiency([1, 16]).tolist() == [1.0, 0.9]
    assert law.efficiency(np.array([[8], [1]])).tolist() == [[0.9], [1.0]] and law.efficiency(8) == 0.9
    assert law.efficiency([8, 16]).shape == dpscale.USL(0.01, 0).efficiency([8, 16]).shape == (2,)


def test_device_memory_is_named_as_the_parameter_and_bounded_as_the_cli_bounds_it():
    """fit_all(device_memory_bytes=-1) named 'device_memory', and 80 (GB typed as bytes) was taken: every stage a
    misfit, where `memory --gpu-memory` keeps 0.1–4,096 GB."""
    for bad in (-1, 80, 1e13, float("nan"), 1.07e8, 4.4e12):  # (the bounds printed as 1.07e8 and 4.4e12 refused both)
        with pytest.raises(
            DpscaleError, match=r"^device_memory_bytes: got .*; allowed: bytes per device from 1\.074e8 to 4\.398e12"
        ):
            dpscale.fit_all(7.5e9, 64, device_memory_bytes=bad)
    assert dpscale.least_sharded(dpscale.fit_all(7.5e9, 64, device_memory_bytes=32 * 2**30)) == 1


def test_predict_names_its_own_parameters_as_every_other_function_does(capsys):
    """predict() named CLI flags (--step-time, --intra-bw) where the caller typed step_time_s and intra_bw_gbs;
    the CLI, through predict_flags, still names the flags."""
    kw = dict(model="bert-large", system="dgx-a100")
    with pytest.raises(DpscaleError, match=r"^step_time_s: got -1; allowed: seconds > 0$"):
        dpscale.predict([8], step_time_s=-1, **kw)
    raw = dict(params=1e9, throughput=100, gpus_per_node=8, inter_bw_gbs=100)
    with pytest.raises(DpscaleError, match=r"^intra_bw_gbs: got 0; allowed: a bandwidth in GB/s"):
        dpscale.predict([8], intra_bw_gbs=0, **raw)
    with pytest.raises(DpscaleError, match=r"^gpus_per_node, intra_bw_gbs, inter_bw_gbs: missing; allowed: give "
                       r"system=NAME \(aws-p4d, .*, dgx-h100, .*\) or the raw cluster figures$"):  # fmt: skip
        dpscale.predict([8, 64], model="bert-large", throughput=150)
    with pytest.raises(DpscaleError, match=r"^overlap_accumulation and overlap=False: contradict each other"):
        dpscale.predict([8], throughput=150, overlap=False, overlap_accumulation=True, **kw)
    with pytest.raises(DpscaleError) as exc:
        dpscale.predict([8], throughput=150, alpha_intra_us=-1, **kw)
    assert exc.value.parts[0] == "alpha_intra_us"  # the parts a face renames are the parameter's too
    for path in ("/tmp/run--model.json", "/tmp/run/--zero-3.json"):  # the caller's value is left as given
        with pytest.raises(DpscaleError, match=rf"^calibration: got '{path}'; allowed: a readable JSON file"):
            dpscale.predict([8], throughput=150, calibration=path, **kw)
    with pytest.raises(DpscaleError, match=r"^mfu: got 0.4; allowed: only for a FLOPs estimate: a measured "
                       r"throughput/step_time_s already"):  # fmt: skip
        dpscale.predict([8], throughput=150, mfu=0.4, **kw)
    assert dpscale.predict.__name__ == "predict" and "step_time_s" in (dpscale.predict.__doc__ or "")
    with pytest.raises(TypeError, match=r"^predict\(\) got an unexpected keyword argument 'foo'"):
        dpscale.predict([8], throughput=150, foo=1, **kw)  # (it said 'predict_flags()', a function not called)
    from dpscale.faces.cli import main

    assert main(["predict", "--model", "bert-large", "--system", "dgx-a100", "--step-time", "-1"]) == 2
    assert "error: --step-time: got '-1'; allowed: seconds > 0" in capsys.readouterr().err


def test_a_zero_d_true_among_sizes_is_refused_too():
    """[np.array(True), 8] passed the bool check (its type is ndarray) and ran as one device."""
    with pytest.raises(DpscaleError, match=r"^devices: got True; allowed: numbers, not True or False"):
        scale([np.array(True), 8], 2000, 0.9)
    assert scale([np.array(8), 16], 2000, 0.9).actual_throughput.tolist() == [14400.0, 28800.0]


def test_predict_keeps_a_value_that_looks_like_a_flag_as_given():
    """A catalog's or a file's refusal has the standard form without its parts: the renaming rewrote the value in
    it ('--gpu' → 'gpu', /tmp/p/missing/--gpu → …/missing/gpu)."""
    kw = dict(params=1e9, throughput=100, gpu="h100-80gb", gpus_per_node=8, intra_bw_gbs=100, inter_bw_gbs=50)
    with pytest.raises(DpscaleError, match=r"^system_file: got '/tmp/p/missing/--gpu'; allowed: "):
        dpscale.predict([8], system_file="/tmp/p/missing/--gpu", **kw)
    with pytest.raises(DpscaleError, match=r"^calibration: got '/tmp/p/x --zero'; allowed: "):
        dpscale.predict([8], calibration="/tmp/p/x --zero", **kw)
    with pytest.raises(DpscaleError, match=r"^model: got '--gpu'; allowed: "):
        dpscale.predict([8], model="--gpu", throughput=100, system="dgx-a100")


def test_the_library_names_parameters_not_flags():
    """predict() said 'or model PRESET (…)' — the flag's metavar left behind its renamed flag — and allreduce_time
    and Shape.of said '--algorithm', '--model': a library caller has no flags."""
    from dpscale.formulas.collectives import allreduce_time
    from dpscale.formulas.memory import Shape

    for call in (
        lambda: dpscale.predict([1, 8], params=1e8, system="dgx-a100"),
        lambda: allreduce_time(1e9, 16, 8, 100.0, 50.0, algorithm="bogus"),
        lambda: Shape.of({"key": "resnet50", "kind": "cnn"}),
    ):
        with pytest.raises(DpscaleError) as err:
            call()
        assert "--" not in str(err.value) and " PRESET (" not in str(err.value), str(err.value)
    with pytest.raises(DpscaleError, match=r"or model=PRESET \(or params with seq_len, a transformer\) with gpu"):
        dpscale.predict([1, 8], params=1e8, system="dgx-a100")


@pytest.mark.parametrize("name", [" FP16 ", "Fp16", "half", "tf32", "TF32"])
def test_memory_tells_predict_s_precision_names_what_they_are_called_here(name):
    """predict's fp16 / tf32 are refused by memory's functions with what they are here, in any case and spacing, as
    the CLI says it (bf16 is pure here and mixed in predict: named, not guessed)."""
    from dpscale.formulas.memory import bytes_per_parameter, ddp_bucket_bytes

    said = rf"^precision: got '{name}'; allowed: mixed, amp, fp32, bf16, fp8 \(fp16 training with an fp32 master is"
    for call in (lambda: bytes_per_parameter("adam", name), lambda: ddp_bucket_bytes(1e9, name),
                 lambda: dpscale.model_states(7.5e9, 8, 1, "adam", name)):  # fmt: skip
        with pytest.raises(DpscaleError, match=said):
            call()


def test_what_the_functions_return_is_public_under_its_own_name():
    """A notebook annotates with dpscale's names (EE: only ScaleResult and Solution were); fit's prediction is
    FitPrediction, no longer a second class named Prediction beside predict's."""
    p = dpscale.predict([1, 8], model="resnet50", system="dgx-a100", throughput=1200, precision="amp")
    f = dpscale.fit([(1, 1000), (2, 1900), (4, 3600), (8, 6600)])
    returned = {
        "Prediction": p,
        "Fit": f,
        "FitPrediction": f.predict(16),
        "Plan": dpscale.plan(1e6, 1, 100, [1, 8], 0.9),
        "BatchPlan": dpscale.batch_plan(32, 8),
        "CriticalBatch": dpscale.critical_batch(8192, 4096),
        "PipelineResult": dpscale.pipeline(4, 8),
        "ModelStates": dpscale.model_states(7e9, 8),
        "MemoryFit": dpscale.fit_all(7e9, 8)[0],
        "ScaleResult": dpscale.scale(64, 2000, 0.9),
    }
    assert {name: type(value).__name__ for name, value in returned.items()} == {n: n for n in returned}
    assert all(isinstance(value, getattr(dpscale, name)) for name, value in returned.items())
    assert dpscale.Prediction is not dpscale.FitPrediction and set(returned) <= set(dpscale.__all__)


def test_every_type_a_public_function_or_method_returns_is_public():
    """Review LM: review LG called CriticalBatch 'the one returned type __all__ lacked', from the hand list above;
    fit_advice returns tuple[Advice, ...], and `def told(a: dpscale.Advice)` was 'Module has no attribute "Advice"' to
    mypy and an AttributeError at run time. Read from the annotations: each dpscale class named in what a function of
    __all__, or a public method of a class of it, returns."""
    import inspect
    import re
    import sys

    def returned(f):
        names = re.findall(r"[A-Za-z_]\w*", str(inspect.signature(f).return_annotation))
        found = (vars(sys.modules[f.__module__]).get(n) for n in names)
        return {c.__name__ for c in found if isinstance(c, type) and c.__module__.startswith("dpscale.")}

    public = [getattr(dpscale, n) for n in dpscale.__all__]
    funcs = [f for f in public if inspect.isfunction(f)]
    funcs += [
        m for c in public if isinstance(c, type) for k, m in vars(c).items() if inspect.isfunction(m) and k[0] != "_"
    ]
    named = set().union(*map(returned, funcs))
    assert {"Advice", "CriticalBatch", "FitPrediction", "MemoryFit", "Solution"} <= named
    assert named - set(dpscale.__all__) == set()
    assert all(isinstance(getattr(dpscale, n), type) for n in named)


# Review EJ (coverage): the laws' and a prediction's edges no test reached, as a notebook reaches them.


def test_a_law_is_immutable_and_says_so():
    law = USL(0.01, 0.001)
    with pytest.raises(AttributeError, match=r"^USL is immutable$"):
        law.sigma = 0.5  # type: ignore[misc]
    assert law.sigma == 0.01 and law.efficiency(2) == pytest.approx(1 / (1 + 0.01 + 0.001 * 2))


def test_a_per_size_table_reads_zero_d_arrays_as_their_numbers():
    """A 0-d array is one size (an E asked at np.array(16)) or a column of one (PerSize.of(np.array(8), …))."""
    table = dpscale.PerSize.of([1, 8, 16], [1.0, 0.9, 0.8])
    assert table.efficiency(np.array(16)) == 0.8 and type(table.efficiency(np.array(16))) is float
    assert dpscale.PerSize.of(np.array(8), np.array(0.9)).table == ((8, 0.9),)


def test_the_constant_and_a_prediction_describe_themselves():
    assert dpscale.Constant(0.9).describe() == "constant E = 0.9"
    p = predict(devices=[1, 8], model="resnet50", batch=32, throughput=400, system="DGX-A100")
    assert p.describe() == "predicted E(d) (step model: compute, exposed all-reduce, synchronisation wait)"


def test_a_loader_rate_under_two_gpus_of_a_node_is_said_as_one_ranks():
    """--input-rate is samples/s per node, but a DataLoader is timed in one rank: 150/s typed for a node of 8 GPUs
    that run 100/s each made the input pipeline the bottleneck and E 0.19 at 8 with no word (review HU). A loader
    that cannot feed two of the node's GPUs (here 1.5) is said, with the node's rate if it is one GPU's (8 × 150 =
    1,200); E as given. A loader 1.5 % short (760 of 772/s) is a real input bound: nothing said."""
    p = predict(8, params=1e6, throughput=100, batch=32, input_rate=150, **CLUSTER)
    assert p.records()[0]["actual_throughput"] == pytest.approx(150)
    (note,) = [n for n in p.notes if n.key == "input_per_gpu"]
    assert note.fields["node"] == 1200 and "1.5 of its 8 GPUs" in note and "the node's is 1,200" in note
    assert "input_per_gpu" not in [n.key for n in predict(8, params=1e6, throughput=100, batch=32, input_rate=760,
                                                          **CLUSTER).notes]  # fmt: skip
    # two GPUs of a node at the loader's 150: E 0.75 there, a plausible input bound, not said
    assert "input_per_gpu" not in [n.key for n in predict(2, params=1e6, throughput=100, batch=32, input_rate=150,
                                                          **CLUSTER).notes]  # fmt: skip


def test_params_a_hundred_times_off_the_models_preset_is_said_as_a_unit_slip():
    """--model llama-7b --params 6738 (its millions) or 7e6 (7 billion as 7e6) replaced 6.738 B with a count 1,000×
    smaller, and E at 64 went from 0.803 to 0.945 with the title still saying llama-7b (review HU). A count 100× or
    more off the preset's is said; E as given. A variant's own count (25.6 M for ResNet-50's 25.557 M) is not."""
    kw = dict(model="llama-7b", precision="bf16", batch=4, throughput=3, system="dgx-h100")
    (note,) = [n for n in predict([64], params=6738, **kw).notes if n.key == "params_off_preset"]
    assert "a --params of 6,738 is 1/1,000,000 of the llama-7b's 6.738 B" in note and "7e9 for 7 billion" in note
    (big,) = [n for n in predict([64], params=6.738e12, **kw).notes if n.key == "params_over_preset"]
    assert "1,000× the llama-7b's 6.738 B" in big
    # 100× over is as often a family preset stretched on purpose (docs/calculators.md: --params sets its size) as a
    # slip: the note says the preset's layers stay and a preset of that size reads it better (review HV: GPT-2 at
    # 13 B was told only '--params is a count')
    gpt = dict(model="gpt2", precision="bf16", batch=8, system="dgx-a100")
    (stretched,) = [n for n in predict([64], params=13e9, **gpt).notes if n.key == "params_over_preset"]
    assert "104× the gpt2's 124.4 M parameters, its layers kept for the new count: a preset near that size" in stretched
    assert [n for n in predict([64], params=6.738e7, **kw).notes if n.key == "params_off_preset"]  # 100×: said
    assert not [n for n in predict([64], params=7e7, **kw).notes if n.key == "params_off_preset"]  # 96×: a variant
    r50 = dict(model="resnet50", precision="amp", batch=256, throughput=2500, system="dgx-a100")
    assert not [n for n in predict([64], params=25.6e6, **r50).notes if n.key == "params_off_preset"]


def test_the_spanish_params_note_says_the_typed_count_as_a_quantity(capsys):
    """Review ID: `predict --model llama-7b --params 6738 --lang es` printed '--params 6.738 es 1/1.000.000 de los
    6,738 mil millones de parámetros' — 6738 beside its flag with a Spanish thousands dot, which the flag reads as 6.738
    parameters (a decimal point, as every flag takes it), in a note about a slip of units. The typed count is said as
    a quantity ('un --params de 6.738'), as the --step-time note says its seconds."""
    from clihelp import run

    argv = ["predict", "--model", "llama-7b", "--precision", "bf16", "-b", "4", "--throughput", "3", "--system",
            "dgx-h100", "-d", "64", "--lang", "es"]  # fmt: skip
    rc, out, err = run(capsys, *argv, "--params", "6738")
    said = out + err
    assert rc == 0 and "nota: un --params de 6.738 es 1/1.000.000 de los 6,738 mil millones de parámetros" in said
    assert "--params 6.738" not in said
    rc, out, err = run(capsys, *argv, "--params", "6.738e12")
    assert rc == 0 and "nota: un --params de 6.738.000.000.000 es 1.000× los 6,738 mil millones" in out + err


def test_the_spanish_loader_note_reads_as_spanish_on_the_command_line_and_the_page(capsys):
    """Review ID: the loader note was English word for word — 'alimenta a 1,5 de sus 8 GPU a sus 100 muestras/s
    solas' (at their 100 samples/s alone), and '--input-rate es la del nodo', a 'la' with no noun before it — and it
    wrote the typed rate beside its flag with a thousands dot ('--input-rate 1.234.567', which the flag reads as
    1.234567). Said now as a Spanish engineer says it, the rate a quantity, the same on the page."""
    from clihelp import run

    from dpscale.faces.web.app import run_command

    argv = ["predict", "--params", "1e6", "-b", "32", "--system", "dgx-a100", "-d", "8"]
    rc, out, err = run(capsys, *argv, "--throughput", "100", "--input-rate", "150", "--lang", "es")
    said = (
        "nota: un --input-rate de 150 muestras/s por nodo alimenta 1,5 de sus 8 GPU al ritmo de 100 muestras/s que "
        "cada una da por sí sola: --input-rate es el ritmo del nodo, todos sus procesos de carga juntos; si 150 es el "
        "de una GPU (un DataLoader medido en un proceso), el del nodo es 1.200; E se calcula con lo dado"
    )
    assert rc == 0 and said in out + err
    rc, out, err = run(capsys, *argv, "--throughput", "1e6", "--input-rate", "1234567", "--lang", "es")
    assert rc == 0 and "un --input-rate de 1.234.567 muestras/s" in out + err and "--input-rate 1.234.567" not in err
    fields = {"params": "1e6", "throughput": "100", "batch": "32", "input_rate": "150", "devices": "8",
              "gpus_per_node": "8", "intra_bw": "150", "inter_bw": "50"}  # fmt: skip
    (note,) = [n for n in run_command("predict", fields, "es")["notes"] if "DataLoader" in n]
    assert "alimenta 1,5 de sus 8 GPU al ritmo de 100 muestras/s que cada una da por sí sola: «" in note
    assert "» es el ritmo del nodo, todos sus procesos de carga juntos; si 150 es el de una GPU" in note


# Mutation review HW (today's input_per_gpu and params_*_preset notes): their boundaries were not pinned, so
# INPUT_PER_GPU_BUSY 4 → 3 or 5, busy ≥ → >, rate < 2v → ≤ 2v or < 3v, and PARAMS_APART's < → ≤ all survived.


def test_the_loader_note_starts_at_four_gpus_a_node_and_below_two_gpus_of_rate():
    """150/s against 100/s a GPU: said at 4 GPUs a node (1.5 of 4, node 600), not at 3 (a small node's real input
    bound); at 8, 199/s (under two GPUs' 200) is said, 200 and 250 are not."""

    def said(d: int, rate: float) -> list:
        p = predict(d, params=1e6, throughput=100, batch=32, input_rate=rate, **CLUSTER)
        return [n for n in p.notes if n.key == "input_per_gpu"]

    (four,) = said(4, 150)
    assert four.fields["g"] == 4 and four.fields["node"] == 600 and four.fields["feeds"] == pytest.approx(1.5)
    assert not said(3, 150)
    assert said(8, 199) and not said(8, 200) and not said(8, 250)


def test_params_exactly_a_hundred_times_off_the_preset_is_said_each_way():
    """gpt2-xl's 1,557,611,200 parameters: 1/100 of them (15,576,112) and 100× (155,761,120,000) are the notes'
    own boundary, said as 1/100 and 100×; one parameter inside either is not."""
    kw = dict(model="gpt2-xl", precision="bf16", batch=4, throughput=3, system="dgx-h100")

    def keyed(n_params: float) -> list:
        return [(n.key, n.fields["x"]) for n in predict([64], params=n_params, **kw).notes if "preset" in n.key]

    assert keyed(15_576_112) == [("params_off_preset", 100.0)]
    assert keyed(155_761_120_000) == [("params_over_preset", 100.0)]
    assert keyed(15_576_113) == [] and keyed(155_761_119_999) == []


def test_the_slip_notes_say_a_typed_count_whole_and_a_share_under_two_as_such():
    """The params note printed a typed 15576112 (gpt2-xl's ÷ 100) as '--params 1.55761e+07', six figures of what the
    user typed, and the loader note said 199/s for GPUs of 100/s 'feeds 2 of its 8 GPUs' (.2g) where its condition
    is 'under two' (review HW): the typed count and rate in full, the share to three figures."""
    kw = dict(model="gpt2-xl", precision="bf16", batch=8, throughput=3, system="dgx-h100")
    (said,) = [n for n in predict([64], params=15576112, **kw).notes if n.key == "params_off_preset"]
    assert said.startswith("a --params of 15,576,112 is 1/100 of the gpt2-xl's 1.558 B parameters")
    (loader,) = [n for n in predict(8, params=1e6, throughput=100, batch=32, input_rate=199, **CLUSTER).notes
                 if n.key == "input_per_gpu"]  # fmt: skip
    assert loader.startswith("an --input-rate of 199 samples/s a node feeds 1.99 of its 8 GPUs")
    (big,) = [n for n in predict(8, params=1e6, throughput=1e6, batch=32, input_rate=1234567, **CLUSTER).notes
              if n.key == "input_per_gpu"]  # fmt: skip
    assert "an --input-rate of 1,234,567 samples/s" in big and "the node's is 9,876,536" in big


@pytest.mark.parametrize("rate", [199.5, 199.6, 199.99])
def test_a_loader_just_under_two_gpus_is_never_said_to_feed_two(rate):
    """Review HX of d76be0f: its .3g share still rounded 1.995 to 1.999… up to '2', so 199.5 to 199.99/s against GPUs
    of 100/s were told 'feeds 2 of its 8 GPUs' where the note's condition is under two (and so in Spanish, and on the
    page, which read the CLI's words back). The share is said down to 1.99; the field keeps what it is below that."""
    from dpscale.faces.i18n import say
    from dpscale.faces.web.app import run_command

    (loader,) = [n for n in predict(8, params=1e6, throughput=100, batch=32, input_rate=rate, **CLUSTER).notes
                 if n.key == "input_per_gpu"]  # fmt: skip
    assert loader.startswith(f"an --input-rate of {rate:g} samples/s a node feeds 1.99 of its 8 GPUs")
    assert "alimenta 1,99 de sus 8 GPU" in say(loader, "es")
    fields = {"params": "1e6", "throughput": "100", "batch": "32", "input_rate": str(rate), "devices": "8",
              "gpus_per_node": "8", "intra_bw": "150", "inter_bw": "50"}  # fmt: skip
    page = run_command("predict", fields, "es")
    assert any("alimenta 1,99 de sus 8 GPU" in n for n in page["notes"]), page["notes"]


def test_the_english_slip_notes_say_a_typed_figure_as_a_quantity_not_beside_its_flag(capsys):
    """Review IE of bf903c3/ee1b81a/a29dca9: the Spanish notes stopped writing a typed figure right after its flag in
    a form the flag refuses, the English kept it: '--params 6,738 is 1/1,000,000 …', '--input-rate 1,234,567
    samples/s a node feeds …' and '--step-time 2,133 s implies …', each a flag with a thousands comma, which the flag
    refuses ('a number without thousands separators: 2000, not 2,000'), in notes about a slip of units. Said as a
    quantity, as the Spanish now says them; the flag to type ('give --step-time 2.133') keeps its typed form."""
    from clihelp import run

    kw = dict(model="llama-7b", precision="bf16", batch=4, throughput=3, system="dgx-h100")
    (note,) = [n for n in predict([64], params=6738, **kw).notes if n.key == "params_off_preset"]
    assert note.startswith("a --params of 6,738 is 1/1,000,000 of the llama-7b's 6.738 B parameters: --params is")
    (big,) = [n for n in predict([64], params=6.738e12, **kw).notes if n.key == "params_over_preset"]
    assert big.startswith("a --params of 6.738e+12 is 1,000× the llama-7b's 6.738 B parameters")
    (loader,) = [n for n in predict(8, params=1e6, throughput=1e6, batch=32, input_rate=1234567, **CLUSTER).notes
                 if n.key == "input_per_gpu"]  # fmt: skip
    assert loader.startswith("an --input-rate of 1,234,567 samples/s a node feeds 1.23 of its 8 GPUs")
    argv = ["predict", "--model", "bert-large", "--precision", "amp", "-b", "32", "--system", "dgx-a100", "-d", "8"]
    rc, out, err = run(capsys, *argv, "--step-time", "2133")
    assert rc == 0 and "note: a --step-time of 2,133 s implies 0.00395 TFLOP/s a device" in out + err
    assert "give --step-time 2.133;" in out + err and "--step-time 2,133" not in out + err
    for typed in ("6,738", "1,234,567", "2,133"):  # (what the old wording put after the flag: refused)
        assert run(capsys, *argv, "--step-time", typed)[0] == 2


def test_a_one_node_prediction_given_no_network_refuses_sizes_past_its_node():
    """Review IT (left to me): predict([64], ...) on 300 GB/s nodes of 8 with no network is refused 'inter_bw_gbs:
    missing', but predict([8], ...).efficiency(64) read the stand-in network cluster() puts in a one-node run's place
    (the node's own 300 GB/s) and said E 0.847 — so did dpscale.scale(64, 100, p) — where 25 GB/s typed gives 0.505.
    Past the node it is refused as predict refuses it; within it, the records' E."""
    kw = dict(params=1e9, throughput=100, gpus_per_node=8, intra_bw_gbs=300)
    with pytest.raises(dpscale.DpscaleError, match=r"^inter_bw_gbs: missing"):
        dpscale.predict([64], **kw)
    p = dpscale.predict([8], **kw)
    assert p.efficiency(8) == p.records()[0]["efficiency"] and round(p.efficiency(8), 4) == 0.8999
    said = "inter_bw_gbs: missing; allowed: sizes up to one node (8 devices) — {} cross a network"
    for call, size in ((lambda: p.efficiency([4, 64]), "64"), (lambda: dpscale.scale(64, 100, p), "64"),
                       (lambda: p.efficiency(8.5), "8.5")):  # fmt: skip
        with pytest.raises(dpscale.DpscaleError) as err:
            call()
        assert str(err.value).startswith(said.format(size)) and "\n" not in str(err.value)
    assert round(dpscale.predict([8], **kw, inter_bw_gbs=25).efficiency(64), 3) == 0.505


def test_solve_on_a_one_node_prediction_searches_its_node_not_the_next_power_of_two():
    """Review IU: since 869b821 refused sizes past a one-node prediction's node, solve's powers of two asked 8 of a
    6-GPU node and were refused ('… 8 cross a network') where 5 devices reach 450/s and 6 reach 510/s, as solve
    answered before; it now searches the node (Prediction.reach), and a target past it is refused as that."""
    kw = dict(params=1e9, throughput=100, gpus_per_node=6, intra_bw_gbs=300)
    p = dpscale.predict([6], **kw)
    solved = lambda a: dpscale.solve(per_device_throughput=100, efficiency=p, actual_throughput=a).record()  # noqa: E731
    assert (solved(450)["devices"], solved(510)["devices"]) == (5, 6)
    assert p.reach == 6 and dpscale.predict([6], **kw, inter_bw_gbs=25).reach is None
    assert round(solved(510)["efficiency"], 4) == round(p.efficiency(6), 4) == 0.9096
    with pytest.raises(dpscale.DpscaleError) as err:
        solved(700)
    assert str(err.value).startswith("target 700/s (speedup 7): not reached within 6 devices (545.769/s")
    one = dpscale.predict([1], params=1e9, throughput=100, gpus_per_node=1, intra_bw_gbs=300)
    with pytest.raises(dpscale.DpscaleError, match=r"not reached within 1 device \(100/s"):
        dpscale.solve(per_device_throughput=100, efficiency=one, actual_throughput=150)


def test_a_size_between_whole_ones_is_grouped_in_a_refusal_as_before_size_said():
    """Review IV: 20f415d gave predict's two refusals scaling's size format ('{:g}') for their own ('{:,.6g}'),
    saying it changed nothing — but a size past 1,000 between whole ones lost its grouping: p.efficiency(2048.5)
    on a one-node prediction said '— 2048.5 cross a network' where it said '2,048.5' (and '2,048' for 2048
    itself, in the same sentence as '1,024'). One format, the grouped one, as whole sizes and the notes'
    '99,999.9999 devices' are written."""
    from dpscale.formulas.scaling import size_said

    assert [size_said(x) for x in (8, 8.5, 2048, 2048.0, 2048.5, 1234.5678, 99999.5, np.float32(2048.5))] == [
        "8", "8.5", "2,048", "2,048", "2,048.5", "1,234.57", "99,999.5", "2,048.5"]  # fmt: skip
    kw = dict(params=1e9, throughput=100, gpus_per_node=8, intra_bw_gbs=300)
    with pytest.raises(DpscaleError, match=r"\(8 devices\) — 2,048\.5 cross a network"):
        predict([8], **kw).efficiency(2048.5)
    strong = predict([1], **kw, inter_bw_gbs=25, global_batch=1024)
    with pytest.raises(DpscaleError, match=r"^efficiency: no value for 1,234\.57 devices; allowed: at most 1,024, .*"
                                           r"\(1,234\.57 would get 0\.829\)$"):  # fmt: skip
        strong.efficiency(1234.5678)


def test_a_size_between_whole_ones_past_99_999_is_said_with_its_fraction_not_as_a_whole_size():
    """Review JD: size_said's '{:,.6g}' kept six significant figures, so a size between whole ones from 100,000 on
    lost its fraction — p.efficiency(123456.5) on a one-node prediction said '123,456 cross a network' (a size
    never asked), and 1,000,000.5 (or 999,999.5) read '1e+06', ungrouped and whole. As the rounded-up note does
    (solve: '555,555.56', not '555556'), the decimals run on until the size prints apart from the whole size
    nearest it; below 100,000 six figures as before."""
    from dpscale.formulas.scaling import size_said

    sizes = (8, 8.5, 2048.5, 1234.5678, 99999.5, 123456.5, 999999.5, 1e6 + 0.5, 1234565.3, 9_999_999.25, 1e21)
    assert [size_said(x) for x in sizes] == [
        "8", "8.5", "2,048.5", "1,234.57", "99,999.5", "123,456.5", "999,999.5", "1,000,000.5", "1,234,565.3",
        "9,999,999.2", "1,000,000,000,000,000,000,000"]  # fmt: skip
    kw = dict(params=1e9, throughput=100, gpus_per_node=8, intra_bw_gbs=300)
    with pytest.raises(DpscaleError, match=r"\(8 devices\) — 123,456\.5 cross a network"):
        predict([8], **kw).efficiency(123456.5)
    strong = predict([1], **kw, inter_bw_gbs=25, global_batch=1024)
    with pytest.raises(DpscaleError, match=r"^efficiency: no value for 1,000,000\.5 devices; .*\(1,000,000\.5 would"):
        strong.efficiency(1e6 + 0.5)


def test_a_size_a_thousandth_off_a_whole_one_is_said_apart_from_it_on_either_side():
    """Review JF (a mutation pass over b97b0b5): the decimals past six figures run on until the size prints apart
    from the whole size nearest it — not the one below it, and not two decimals at most: 123,456.9999 is not
    '123,457', nor 123,456.001 '123,456'. A size that is no number (inf, nan: no refusal reaches size_said with one,
    but it is scaling's helper) is said as it is, not a math error; past twelve decimals the fraction is below what
    is said, and no point is left dangling."""
    from dpscale.formulas.scaling import size_said

    sizes = (123456.001, 123456.9999, 999999.9999, 2_000_000.0625, 99999.9999, float("inf"), -math.inf, math.nan)
    assert [size_said(x) for x in sizes] == [
        "123,456.001", "123,456.9999", "999,999.9999", "2,000,000.1", "99,999.9999", "inf", "-inf", "nan"]  # fmt: skip
    assert size_said(1 + 2**-50) == "1"  # 1.0000000000000009: apart only past the twelve decimals said
