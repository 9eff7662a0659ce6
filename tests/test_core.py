"""The core formulas: the worked example, solves, E sources, arrays, and properties."""

from __future__ import annotations

import ast
import json
import math
from pathlib import Path

import numpy as np
import pytest
from clihelp import message
from hypothesis import example, given, settings
from hypothesis import strategies as st

import dpscale
from dpscale import USL, Amdahl, Constant, DpscaleError, PerSize, scale, solve
from dpscale.errors import MAX_DEVICES
from dpscale.faces.cli.common import bandwidth
from dpscale.formulas.plan import plan
from dpscale.formulas.scaling import efficiency_at


def test_worked_example_exact():
    r = scale(64, 2000, 0.9)
    assert r.ideal_throughput == 128_000
    assert r.actual_throughput == 115_200
    assert r.speedup == 57.6
    assert r.lost_throughput == 12_800
    assert r.effective_devices == 57.6


def test_efficiency_defaults_to_ideal_scaling():
    # scale(d, v) with no E is the ideal: A = I = d·v = 64 × 2,000 = 128,000/s, speedup 64, nothing lost
    r = scale(64, 2000)
    assert (r.actual_throughput, r.speedup, r.lost_throughput, r.efficiency) == (128_000, 64, 0, 1.0)


def test_result_is_immutable():
    r = scale(np.array([1, 8, 64]), 2000.0, 0.9)
    with pytest.raises(AttributeError):
        r.speedup = 1  # frozen dataclass
    with pytest.raises(ValueError):
        r.actual_throughput[0] = 1.0  # read-only array


def test_arrays_broadcast():
    d = np.array([1, 8, 64])
    e = np.array([1.0, 0.95, 0.9])
    r = scale(d, 2000.0, e)
    np.testing.assert_allclose(r.actual_throughput, [2000, 15200, 115200])
    np.testing.assert_allclose(r.speedup, [1, 7.6, 57.6])
    assert [rec["devices"] for rec in r.records()] == [1, 8, 64]
    # a constant E holds from two devices on: one device is its own reference (E(1) = 1, physics.md scope)
    assert scale([1, 8, 64], 2000, 0.9).actual_throughput.tolist() == pytest.approx([2000, 14400, 115200])


def test_numpy_broadcastable_arrays_make_a_grid():
    # issue 2: scale takes "scalars or numpy-broadcastable arrays"; a column of sizes against a row of rates was
    # refused ('shapes 2×1, 3, a number; allowed: arrays of one length')
    r = scale(np.array([[1], [8], [64]]), np.array([1000.0, 2000.0]), 0.9)
    np.testing.assert_allclose(r.actual_throughput, [[1000, 2000], [7200, 14400], [57600, 115200]])
    np.testing.assert_allclose(r.efficiency, [[1, 1], [0.9, 0.9], [0.9, 0.9]])
    assert [rec["actual_throughput"] for rec in r.records()] == pytest.approx([1000, 2000, 7200, 14400, 57600, 115200])
    # E the wider one: two what-if E columns against a row of sizes, each still E = 1 at one device
    g = scale(np.array([1, 8, 64]), 2000.0, np.array([[1.0, 0.9, 0.8], [1.0, 0.8, 0.5]]))
    np.testing.assert_allclose(g.speedup, [[1, 7.2, 51.2], [1, 6.4, 32]])
    with pytest.raises(DpscaleError, match="efficiency: got 0.8; allowed: E = 1 at one device"):
        scale(np.array([1, 8]), 2000.0, np.array([[1.0], [0.8]]))


def test_numpy_scalars_are_numbers_and_mismatched_arrays_are_one_line():
    assert scale(np.int64(64), np.float64(2000.0), np.float64(0.9)).actual_throughput == pytest.approx(115200)
    assert [scale(d, 2000, 0.9).speedup for d in np.arange(1, 3)] == pytest.approx([1.0, 1.8])
    with pytest.raises(DpscaleError, match="lengths 3, 2, a number; allowed: arrays of one length"):
        scale(np.array([1, 2, 4]), np.array([1.0, 2.0]), 0.9)


def test_counts_past_2_to_the_53_are_refused():
    # whole numbers stop being exact in floating point there; no count of devices or samples is that large
    from dpscale.errors import check_devices

    with pytest.raises(DpscaleError, match="batch: got 1e\\+20; allowed: a whole number from 1 to 2\\^53"):
        check_devices(1e20, "batch")


def test_devices_past_any_machine_are_refused_in_every_entry_point():
    """scale, solve, plan and batch_plan once took 2e7 devices (or 2^53) while predict and the CLI refused them."""
    import dpscale as dp

    too_many = "devices: got 20000000; allowed: a whole number from 1 to 10,000,000"
    for call in (lambda: scale(20_000_000, 1.0, 0.9), lambda: solve(devices=20_000_000, per_device_throughput=1.0,
                 efficiency=0.9), lambda: dp.plan(1e6, 1, 2000, [20_000_000]),
                 lambda: dp.batch_plan(1, 20_000_000, efficiency=0.9)):  # fmt: skip
        with pytest.raises(DpscaleError, match=too_many):
            call()
    assert scale(10_000_000, 1.0, 0.9).actual_throughput == pytest.approx(9e6)


def test_solve_efficiency_from_measurement():
    s = solve(devices=64, per_device_throughput=2000, actual_throughput=115200)
    assert s.solved == "efficiency" and s.exact == pytest.approx(0.9)
    assert s.result.speedup == pytest.approx(57.6)


def test_solve_superlinear_is_reported_not_rejected():
    s = solve(devices=8, per_device_throughput=100, actual_throughput=824)
    assert s.exact == pytest.approx(1.03)
    assert [n.key for n in s.notes] == ["superlinear"]
    # up to a repeat's spread above 1 (1.02, REPEAT_SPREAD_E: plan's and measure's bound) is noise (review MC)
    assert [n.key for n in solve(devices=8, per_device_throughput=100, actual_throughput=816).notes] == [
        "within_spread"
    ]
    # E = 800 / (8 × 100) = 1 exactly is ideal scaling, not superlinear: no note
    ideal = solve(devices=8, per_device_throughput=100, actual_throughput=800)
    assert ideal.exact == 1.0 and ideal.notes == ()


def test_solved_efficiency_past_two_is_a_unit_slip_and_one_device_is_one():
    """E = 2 (16 on 8) is the most a measurement may claim; 2.01 is a unit slip (tokens/s for samples/s).
    On one device A is v (scale() holds E(1) = 1), so A ≠ v there is a contradiction, not E ≠ 1."""
    assert solve(devices=8, per_device_throughput=100, actual_throughput=1600).exact == 2.0
    with pytest.raises(DpscaleError, match=r"efficiency: comes to 2\.01 .*speedup of 16\.08× on 8 devices.*at most 2"):
        solve(devices=8, per_device_throughput=100, actual_throughput=1608)
    with pytest.raises(DpscaleError, match="at most 2"):
        solve(devices=4, per_device_throughput=100, speedup=9)
    assert solve(devices=1, per_device_throughput=100, actual_throughput=100.0000000001).exact == pytest.approx(1)
    with pytest.raises(DpscaleError, match="comes to 0.95 on one device, where E is 1 by definition"):
        solve(devices=1, per_device_throughput=100, actual_throughput=95)
    with pytest.raises(DpscaleError, match=r"throughput 1,000 at 2 devices against 100 at 1 is E = 5; allowed: E up"):
        dpscale.fit(devices=[1, 2, 4], throughput=[100, 1000, 360])
    with pytest.raises(DpscaleError, match=r"is E = 2\.5; allowed"):  # relative to the smallest size, 4
        dpscale.fit(devices=[4, 8, 16], throughput=[100, 500, 360])


def test_solve_devices_rounds_up_and_keeps_exact():
    s = solve(per_device_throughput=2000, efficiency=0.9, actual_throughput=100_000)
    assert s.result.devices == 56
    assert s.exact == pytest.approx(55.5556, rel=1e-4)
    assert s.result.actual_throughput >= 100_000
    exact = solve(per_device_throughput=2000, efficiency=0.9, actual_throughput=115_200)
    assert exact.result.devices == 64 and not exact.notes


def test_solve_devices_with_a_law_finds_the_smallest_size():
    law = USL(0.01, 1e-5)
    s = solve(per_device_throughput=1000, efficiency=law, actual_throughput=40_000)
    d = s.result.devices
    assert d * law.efficiency(d) * 1000 >= 40_000 > (d - 1) * law.efficiency(d - 1) * 1000
    assert d - 1 < s.exact < d  # the fractional size where the speedup crosses the target
    assert s.exact * law.efficiency(s.exact) * 1000 == pytest.approx(40_000, rel=1e-12)  # the law's own root
    # an E(d) that happens to be constant gives what the constant does: 40,000 / (1,000 · 0.9) = 44.44 → 45
    flat = solve(per_device_throughput=1000, efficiency=lambda d: 0.9 + 0 * d, actual_throughput=40_000)
    assert flat.result.devices == 45 and flat.exact == pytest.approx(400 / 9)


def test_solve_unreachable_target_names_the_peak():
    law = USL(0.02, 1e-4)  # peaks at √(0.98/1e-4) ≈ 99 devices
    with pytest.raises(DpscaleError, match="peaks at .* with 99 devices"):
        solve(per_device_throughput=1, efficiency=law, speedup=50)
    assert law.peak_devices() == pytest.approx(98.99, abs=0.01)
    # a throughput target is answered in throughput: S(99) = 99 / (1 + 0.02·98 + 1e-4·99·98) = 25.19 → 2,519/s at 100
    peak = r"peaks at 2,518\.96/s \(speedup 25\.1896\) with 99 devices"
    unreachable = r"target 5,000/s \(speedup 50\): unreachable — under this E\(d\) throughput "
    with pytest.raises(DpscaleError, match=unreachable + peak):
        solve(per_device_throughput=100, efficiency=law, actual_throughput=5000)


def test_solve_throughput_and_speedup_target():
    s = solve(devices=64, efficiency=0.9, actual_throughput=115_200)
    assert s.solved == "per_device_throughput" and s.exact == pytest.approx(2000)
    s = solve(devices=64, per_device_throughput=2000, speedup=57.6)
    assert s.exact == pytest.approx(0.9)
    s = solve(per_device_throughput=2000, efficiency=0.9, speedup=57.6)
    assert s.result.devices == 64
    s = solve(devices=64, per_device_throughput=2000, efficiency=0.9)  # the forward case: exact is the answer
    assert s.solved == "actual_throughput" and s.exact == pytest.approx(115_200)  # was nan


COUNTED = (
    "of devices, per_device_throughput, efficiency, actual_throughput; allowed: exactly three (the fourth is solved)"
)


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        (dict(devices=64, per_device_throughput=2000), f"solve: got 2 {COUNTED}"),
        (dict(devices=64, per_device_throughput=2000, efficiency=0.9, actual_throughput=1), f"solve: got 4 {COUNTED}"),
        (dict(devices=64, per_device_throughput=2000, actual_throughput=1, speedup=2),
         "actual_throughput and speedup: give one of them, not both (A = S·v)"),
        (dict(devices=64, efficiency=0.9, speedup=2), "per_device_throughput: cannot be solved from a speedup (S = d·E "
         "does not involve it); allowed: give actual_throughput instead"),
    ],
)  # fmt: skip
def test_solve_rejects_wrong_input_counts(kwargs, said):
    """Each refused for its own reason, named (review LZ: a bare pytest.raises passed whatever DpscaleError came)."""
    with pytest.raises(DpscaleError) as exc:
        solve(**kwargs)
    assert str(exc.value) == said


def test_a_wrong_input_count_is_said_as_the_count_given():
    """solve.py `4 - len(missing)` → `3 - …` said 'got 1 of' for two inputs given: the count is of the four named."""
    names = "devices, per_device_throughput, efficiency, actual_throughput; allowed: exactly three"
    with pytest.raises(DpscaleError, match=f"^solve: got 2 of {names}"):
        solve(devices=64, per_device_throughput=2000)
    with pytest.raises(DpscaleError, match=f"^solve: got 4 of {names}"):
        solve(devices=64, per_device_throughput=2000, efficiency=0.9, actual_throughput=1)


@pytest.mark.parametrize(
    "args, match",
    [
        ((0, 2000, 0.9), "devices: got 0"),
        ((2.5, 2000, 0.9), "devices: got 2.5"),
        ((64, -1, 0.9), "per_device_throughput: got -1"),
        ((64, math.inf, 0.9), "per_device_throughput: got inf"),
        ((64, 2000, 1.2), r"efficiency: got 1.2; allowed: a scaling efficiency in \(0, 1\]"),
        ((64, 2000, 0.0), "efficiency: got 0;"),
        ((64, 2000, math.nan), "efficiency: got nan"),
        (("64", 2000, 0.9), "devices: got '64'; allowed: a number"),
        ((True, 2000, 0.9), "devices"),
        ((np.array([1, 0, 8]), 2000, 0.9), "devices: got 0"),
        ((np.array([1.0, np.nan]), 2000, 0.9), "devices: got nan"),
    ],
)
def test_scale_rejects_bad_input_with_one_package_error(args, match):
    with pytest.raises(DpscaleError, match=match) as info:
        scale(*args)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)  # catchable as a ValueError too


def test_laws():
    assert Amdahl(0.05).efficiency(1) == 1.0
    assert Amdahl(0.05).efficiency(21) == pytest.approx(1 / 2)  # 1/(1 + 0.05·20)
    assert USL(0.05, 0).efficiency(21) == pytest.approx(1 / 2)  # κ = 0 is Amdahl's law
    assert USL(0.01, 0.001).efficiency(10) == pytest.approx(1 / (1 + 0.09 + 0.09))
    d = np.array([1, 2, 4, 8])
    np.testing.assert_allclose(USL(0.1, 0).efficiency(d), 1 / (1 + 0.1 * (d - 1)))
    assert Constant(0.9).efficiency(d).tolist() == [1.0, 0.9, 0.9, 0.9] and Constant(0.9).efficiency(1) == 1.0
    table = PerSize.of([1, 8], [1.0, 0.93])
    assert table.efficiency(8) == 0.93
    with pytest.raises(DpscaleError, match="no value for 4 devices"):
        table.efficiency(4)
    with pytest.raises(DpscaleError, match="sigma"):
        USL(1.5, 0)
    with pytest.raises(DpscaleError, match="kappa"):
        USL(0.1, -1)


def test_any_e_source_works_with_scale():
    d = np.array([1, 8, 64])
    r = scale(d, 1000.0, USL(0.001, 1e-6))
    np.testing.assert_allclose(r.efficiency, 1 / (1 + 0.001 * (d - 1) + 1e-6 * d * (d - 1)))
    r = scale(8, 1000.0, lambda x: 0.5)
    assert r.actual_throughput == 4000


def test_package_exports_lazily():
    assert dpscale.__version__
    with pytest.raises(AttributeError):
        dpscale.no_such_thing  # noqa: B018


devices = st.integers(min_value=1, max_value=1_000_000)
throughputs = st.floats(min_value=1e-3, max_value=1e9, allow_nan=False, allow_infinity=False)
effs = st.floats(min_value=1e-6, max_value=1.0, allow_nan=False)


def at(d: int, e: float) -> float:
    """What a constant E means at d devices: E itself from two on, 1 for one device alone."""
    return 1.0 if d == 1 else e


@given(devices, throughputs, effs)
def test_properties(d, v, e):
    r = scale(d, v, e)
    assert r.actual_throughput <= r.ideal_throughput * (1 + 1e-12)
    assert r.speedup == pytest.approx(d * at(d, e))
    assert r.actual_throughput / r.ideal_throughput == pytest.approx(at(d, e))
    assert r.lost_throughput == pytest.approx(r.ideal_throughput - r.actual_throughput)
    assert r.speedup == pytest.approx(r.actual_throughput / v)


@given(devices, throughputs, effs)
@example(d=2, v=100.0, e=0.9)  # a target speedup of 1.8, between one device's 1 and 2: E holds from two on
@example(d=100000, v=3.0, e=1e-5)  # d·e is 1.0, but A = d·v·E rounds to 3.0000000000000004 > v: d devices
def test_solve_inverts_scale(d, v, e):
    r = scale(d, v, e)
    e_d = at(d, e)
    assert solve(devices=d, per_device_throughput=v, actual_throughput=r.actual_throughput).exact == pytest.approx(e_d)
    assert solve(devices=d, efficiency=e, actual_throughput=r.actual_throughput).exact == pytest.approx(v)
    assert solve(devices=d, per_device_throughput=v, speedup=r.speedup).exact == pytest.approx(e_d)
    back = solve(per_device_throughput=v, efficiency=e, actual_throughput=r.actual_throughput)
    if r.actual_throughput > v:  # as solve sees the target (d·e > 1 read one ulp off at d·e = 1)
        assert back.result.devices == d and back.exact == pytest.approx(d)
        # the solved size's own figures, at its E (not one device's E = 1): A = d·v·E back again
        assert back.result.efficiency == pytest.approx(e_d)
        assert back.result.actual_throughput == pytest.approx(r.actual_throughput)
    else:  # one device alone (E(1) = 1) is as fast: the smallest size that reaches the target
        assert back.result.devices == 1 and back.result.speedup == 1.0


def test_every_public_name_resolves():
    assert [name for name in dpscale.__all__ if not hasattr(dpscale, name)] == []
    assert dpscale.scaled_lr(0.1, 256, 8192) == pytest.approx(3.2)  # Goyal et al.


def test_relative_efficiency_is_the_calculators_e():
    from dpscale.formulas.scaling import relative_efficiency

    assert relative_efficiency(115_200, 64, 2000) == pytest.approx(0.9)  # baseline one device: A/(d·v)
    assert relative_efficiency(571.877 * 0.887 * 4, 32, 571.877, 8) == pytest.approx(0.887)  # one-node baseline
    assert relative_efficiency(115_200, 64, 2000) == pytest.approx(
        solve(devices=64, per_device_throughput=2000, actual_throughput=115_200).exact
    )


@given(st.integers(1, 4096), st.integers(1, 512), st.floats(1e-4, 1e3))
def test_per_step_converts_a_step_time_to_a_rate_and_back(batch, ga, step_s):
    """v = b·ga/T: 32 samples × 4 micro-batches in 0.5 s is 256 samples/s, and that rate gives back the 0.5 s."""
    from dpscale.formulas.scaling import per_step

    assert per_step(32 * 4, 0.5) == 256.0 and per_step(32 * 4, 256.0) == 0.5
    assert per_step(batch * ga, per_step(batch * ga, step_s)) == pytest.approx(step_s, rel=1e-12)


def test_mismatched_lengths_and_numpy_number_types():
    """The length check reads the evaluated E (a list or a function's array), and a numpy number of any width is
    one constant E, with E(1) = 1 like a Python float."""
    for args in (([1, 2, 4], 100, [0.9, 0.8]), (8, [100, 200, 300], [0.9, 0.8])):  # fmt: skip
        with pytest.raises(DpscaleError, match="allowed: arrays of one length"):
            scale(*args)
    with pytest.raises(DpscaleError, match=r"allowed: one E per size from the E\(d\) function \(3 sizes here\)"):
        scale([1, 2, 4], 100, lambda d: np.array([0.9, 0.8]))  # a function's E: said of the function (review 44 E)
    assert scale(1, 100, np.float32(0.9)).efficiency == 1.0 == scale(1, 100, np.array(0.9)).efficiency
    assert solve(devices=1, efficiency=np.float32(0.9), actual_throughput=100).exact == pytest.approx(100)
    assert efficiency_at(0.9, [1, 2]) == [1.0, 0.9]


def test_efficiency_is_one_value_per_size_whenever_the_sizes_are_an_array():
    """It was the scalar 0.9 for sizes 2, 64 but an array for 1, 64 — plotting r.devices against r.efficiency broke."""
    import numpy as np

    for e in (0.9, lambda d: 0.9 + 0 * d, lambda d: 0.9):
        r = scale(np.array([2, 64]), 2000, e)
        assert r.efficiency.shape == (2,) and list(r.efficiency) == [0.9, 0.9]
    assert list(scale(np.array([1, 64]), 2000, 0.9).efficiency) == [1.0, 0.9]
    assert scale(64, 2000, 0.9).efficiency == 0.9  # a number stays a number


def test_the_exact_size_is_a_root_only_where_e_is_defined_between_sizes():
    """Laws, fits and predictions are continuous: the exact size is their root. A bare function of whole sizes
    (or a table) says nothing between them: a straight line between the two sizes, as before. A table asked
    for 8.7 devices refuses (it once answered with 8's value)."""
    s = solve(per_device_throughput=1000, efficiency=lambda d: 0.99**d, actual_throughput=5000)
    lo, hi = 5 * 0.99**5, 6 * 0.99**6  # speedups at the whole sizes around the target 5
    assert s.result.devices == 6 and s.exact == pytest.approx(5 + (5 - lo) / (hi - lo))
    with pytest.raises(DpscaleError, match=r"no value for 8.7 devices"):
        PerSize.of([4, 8], [0.9, 0.8]).efficiency(8.7)


def test_the_callers_arrays_stay_writable_and_solve_edges_are_refused():
    """scale() once froze the caller's own arrays; solve took [115200.] as a TypeError, returned an infinite
    per-device throughput for 1e308 and E = 0 for 1e-320, and rounded 100,000.00008 devices down to 100,000."""
    import numpy as np

    d = np.arange(1, 5)
    r = scale(d, 100.0, 0.9)
    d[0] = 7  # still the caller's to change
    with pytest.raises(ValueError):
        r.speedup[0] = 3.0  # the result's own arrays are read-only
    assert solve(devices=64, per_device_throughput=2000.0, actual_throughput=[115200.0]).exact == pytest.approx(0.9)
    with pytest.raises(DpscaleError, match=r"per_device_throughput: comes to 1e\+308"):
        solve(devices=2, efficiency=0.5, actual_throughput=1e308)
    with pytest.raises(DpscaleError, match=r"efficiency: comes to 0 from these inputs"):
        solve(devices=64, per_device_throughput=2000, actual_throughput=1e-320)
    s = solve(per_device_throughput=1.0, efficiency=0.5, actual_throughput=50000.00004)
    assert s.result.devices == 100_001 and s.result.actual_throughput >= 50000.00004


def test_laws_and_tables_refuse_sizes_below_one_and_take_lists():
    """USL(0.1, 0.01).efficiency(0) gave 1.11 and −1 gave 1.22 (E > 1 from no devices), nan gave nan, a list
    raised TypeError; PerSize.of([1.5, 2], …) truncated 1.5 to 1 and 'a' raised ValueError."""
    usl = USL(0.1, 0.01)
    for bad in (0, -1, 0.5, math.nan, math.inf, 1e308, 10**400, 10_000_001):  # 1e308 gave E = 0, 10**400 raised
        with pytest.raises(DpscaleError, match="allowed: device counts from 1 to 10,000,000"):  # OverflowError
            usl.efficiency(bad)
        with pytest.raises(DpscaleError, match="allowed: device counts from 1 to 10,000,000"):
            Constant(0.9).efficiency(bad)
    assert usl.efficiency(10_000_000) > 0
    with pytest.raises(DpscaleError, match=r"devices: got 0; allowed: device counts from 1"):
        Amdahl(0.1).efficiency([1, 0])
    assert usl.efficiency([1, 2, 4]).tolist() == pytest.approx([1, 1 / 1.12, 1 / 1.42])  # 1 + 0.3 + 0.12
    assert usl.efficiency(2.5) == pytest.approx(1 / (1 + 0.15 + 0.0375))  # between whole sizes: solve reads it
    assert Constant(0.9).efficiency([1, 8]).tolist() == [1.0, 0.9]
    for devices, match in (([1.5, 2], "devices: got 1.5; allowed: a whole number"), (["a", 2], "devices: got 'a'"),
                           ([0, 2], "devices: got 0"), ([1, 2e7], "a whole number from 1 to 10,000,000")):  # fmt: skip
        with pytest.raises(DpscaleError, match=match):
            PerSize.of(devices, [1.0, 0.5])
    with pytest.raises(DpscaleError, match="efficiency: got 1.5"):
        PerSize(((1, 1.0), (2, 1.5)))
    assert PerSize.of(np.array([1, 8]), [1.0, 0.5]).efficiency(8) == 0.5


@settings(max_examples=300, deadline=None)
@given(
    d=st.integers(1, 10_000_000),
    v=st.floats(1e-3, 1e9),
    law=st.sampled_from(["constant", "amdahl", "usl", "table"]),
    p=st.floats(0.0, 0.2),
)
def test_the_devices_scale_prints_solve_back_to_themselves(d, v, law, p):
    """A = scale(d).actual solved for devices gives d again: float noise in A/v (80/3·3 ≠ 80) once asked for one
    device more under Amdahl and a table, and refused d = 10,000,000 itself with a constant E."""
    if law != "constant" and d > 100_000:
        d = d % 100_000 + 1  # (a law's search is by powers of two: keep it quick)
    src = {
        "constant": 0.05 + 0.9 * (1 - p),
        "amdahl": dpscale.Amdahl(p / 20),
        "usl": dpscale.USL(p / 20, 1e-12),
        "table": dpscale.PerSize(((d, 0.05 + 0.9 * (1 - p)),)) if d > 1 else 0.9,
    }[law]
    actual = scale(d, v, src).actual_throughput
    got = solve(per_device_throughput=v, efficiency=src, actual_throughput=actual)
    assert got.result.devices == d


def test_law_classes_and_decimal_numbers_get_the_library_s_one_line_errors():
    import decimal

    with pytest.raises(DpscaleError, match=r"efficiency: got 'USL'; allowed: an E\(d\) source made with its"):
        scale(64, 2000, dpscale.USL)
    with pytest.raises(DpscaleError, match=r"efficiency: got 'Amdahl'"):
        solve(per_device_throughput=2000, efficiency=dpscale.Amdahl, speedup=10)
    assert scale(decimal.Decimal(64), decimal.Decimal("2000"), 0.9).actual_throughput == pytest.approx(115_200)
    with pytest.raises(DpscaleError, match=r"devices: got \(1\+2j\)"):
        scale(complex(1, 2), 2000, 0.9)


def test_an_e_just_past_its_bound_is_shown_with_the_digits_that_say_so():
    with pytest.raises(DpscaleError, match=r"efficiency: comes to 2\.00001 from these inputs"):
        solve(devices=64, per_device_throughput=2000, actual_throughput=256_001)


def test_solved_sizes_are_exact_where_the_size_itself_reaches_the_target():
    """A law or table solved back from its own d·v·E gives d exactly (2.9999999999999996 once), and a constant E
    solved back from d = 10,000,000 is that size, not 'at most 10,000,000' (its A/v carried 2e-9 of noise)."""
    for d in (3, 13, 29):  # (below the USL peak, ≈ 99.5)
        for src in (Amdahl(0.01), USL(0.01, 1e-4), PerSize(((d, 0.61), (2 * d, 0.55)))):
            got = solve(
                per_device_throughput=3.0, efficiency=src, actual_throughput=scale(d, 3.0, src).actual_throughput
            )
            assert got.exact == d and got.result.devices == d, (d, src)
    v, e = 444.8597401839663, 0.3048287045668617
    got = solve(per_device_throughput=v, efficiency=e, actual_throughput=scale(10_000_000, v, e).actual_throughput)
    assert got.result.devices == 10_000_000


def test_figures_to_their_meaningful_digits():
    """One formatter for measured and fitted figures (validate's errors, fit's parameters, a timed bandwidth):
    each command had rounded its own with float(f'{x:.3g}')."""
    from dpscale.faces.i18n import number

    assert number(0.0230903, "sig3") == "0.0231" and number(0.0629563, "sig4") == "0.06296"
    assert number(1.42674, "sig3", "es") == "1,43" and number(1.8, "sig2") == "1.8"
    assert number(123456.7, "sig3") == "123,000" and number(float("inf"), "sig3") == "∞"


def test_small_figures_keep_their_few_digits():
    """Below 1e-3 the float kind pads to 4 digits: a 3-digit bandwidth read 1.230e-04, a 2-digit one 1,200e-04."""
    from dpscale.faces.i18n import number

    assert number(0.000123456, "sig3") == "0.000123" and number(0.000123456, "sig2", "es") == "0,00012"
    assert number(1.5e-7, "sig3") == "1.5e-07" and number(-0.000123456, "sig4") == "-0.0001235"


def test_the_library_calculator_imports_neither_numpy_nor_re():
    """`import dpscale; dpscale.scale(64, 2000, 0.9)` is the fast path: a note built at import ran notes.singular's
    regex (errors.DOT_GROUPS says re stays off it)."""
    import subprocess
    import sys

    code = ("import sys, dpscale; r = dpscale.scale(64, 2000, 0.9); assert r.actual_throughput == 115200; "
            "print(sorted(m for m in ('numpy', 're') if m in sys.modules))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@given(st.floats(0.001, 1e6), st.floats(0.001, 1e6), st.sampled_from("fg"))
def test_apart_is_the_fewest_digits_that_tell_two_figures_apart(a, b, spec):
    """scaling.apart, behind calc's exact devices and broken bounds, fit's spread of runs and plan's deadlines: at its
    digits the two print apart, and at one fewer (from its lowest) they print alike."""
    from dpscale.formulas.scaling import apart

    p = apart(a, b, 2, 17, spec)
    show = lambda x, n: f"{x:.{n}{spec}}"  # noqa: E731
    if p < 17:
        assert show(a, p) != show(b, p)
    assert all(show(a, n) == show(b, n) for n in range(2, p))
    assert apart(2.000008, 2, 4, 18, "g") == 6 and apart(1.0, 1.0, 2, 9) == 9  # '2.00001' against '2'; equal: hi


def test_per_size_reads_its_table_once_not_once_a_size():
    """calc with an E per size asks the table one size at a time: rebuilding its lookup on every call made 10,000
    sizes take 4 s and 100,000 minutes (quadratic). The lookup is built once, from the table; answers unchanged."""

    class Counting(tuple):
        reads = 0

        def __iter__(self):  # type: ignore[no-untyped-def]
            Counting.reads += 1
            return super().__iter__()

    n = 10_000
    e = [1.0] + [0.5 + 0.4 * i / n for i in range(1, n)]
    p = PerSize.of(list(range(1, n + 1)), e)
    object.__setattr__(p, "table", Counting(p.table))  # every later read of the table is counted
    got = [p.efficiency(d) for d in range(1, n + 1)]
    assert got == e
    assert Counting.reads == 0
    assert p.efficiency(np.arange(1, n + 1)).tolist() == e
    assert scale(np.arange(1, n + 1), 100.0, p).speedup[-1] == pytest.approx(n * e[-1])
    # the cache is no parameter: equal tables are equal, print and pickle by the table alone
    assert p == PerSize.of(list(range(1, n + 1)), e) and "_lookup" not in repr(PerSize({8: 0.9}))
    import pickle

    q = pickle.loads(pickle.dumps(PerSize({8: 0.9})))
    assert q == PerSize({8: 0.9}) and q.efficiency(8) == 0.9 and q.efficiency(1) == 1.0
    with pytest.raises(TypeError):  # read-only, as the law is: a write would make E(8) disagree with its table
        q._lookup[8] = 0.1  # type: ignore[index]


def test_the_usl_s_whole_peak_is_the_faster_size_beside_d_star():
    """d* = √((1−σ)/κ) is rarely whole: the peak size is the faster of ⌊d*⌋ and ⌈d*⌉ (κ = 0.001: d* = 31.62, and
    32 devices at 2,000/s each run 64,000 / (1 + 0.001·32·31) = 32,129/s against 31's 62,000 / 1.93 = 32,124/s)."""
    law = USL(0, 0.001)
    assert law.peak_devices() == pytest.approx(31.623, abs=1e-3) and law.peak_size() == 32
    assert 32 * law.efficiency(32) > 31 * law.efficiency(31)
    assert USL(0.36, 0.01).peak_size() == 8  # d* = √(0.64 / 0.01) = 8 exactly
    assert USL(0.99, 0.5).peak_size() == 1  # d* = 0.14: one device is the fastest
    assert USL(0.05, 0).peak_size() == math.inf  # no coherency term: no peak
    assert USL(0, 1e-20).peak_size() == pytest.approx(1e10)  # past the sizes E takes: d* itself, not asked there


# Cases a mutation sweep found no test could fail on: each pins a number by hand, so a change to the line it
# names (a bound, a term, a choice of min/max) fails here.


def test_a_target_at_the_size_cap_is_found_at_the_cap():
    # With E = 1 everywhere (USL σ = κ = 0), S(d) = d: a target of exactly MAX_DEVICES (10,000,000) is reached at
    # 10,000,000 devices and no fewer. No power of two hits it (2^23 = 8,388,608 < 10^7 < 2^24), so solve's peak
    # search between 2^22 and the cap decides, and its last candidate is the cap itself (solve._peak's
    # range(lo, hi + 1): without the + 1 it named 9,999,999 and refused the target as 'not reached').
    r = solve(speedup=MAX_DEVICES, per_device_throughput=1.0, efficiency=USL(0.0, 0.0))
    assert r.result.devices == MAX_DEVICES == 10_000_000
    assert r.exact == 10_000_000.0


def test_a_usl_without_coherency_never_peaks():
    # κ = 0: d·E(d) = d / (1 + σ(d − 1)) rises towards 1/σ for ever, so the peak size is infinite, not √((1−σ)/tiny).
    assert USL(0.05, 0.0).peak_devices() == math.inf
    assert USL(0.0, 1e-4).peak_devices() == pytest.approx(100.0)  # √(1/1e-4)


def test_a_per_size_table_is_one_at_one_device_without_listing_it():
    # E(1) = 1 by definition: a table of 8 devices alone still answers at 1, and scale charges 1·100·1 and 8·100·0.9.
    table = PerSize(((8, 0.9),))
    assert table.efficiency(1) == 1.0
    assert list(table.efficiency([1, 8])) == [1.0, 0.9]
    assert list(scale([1, 8], 100.0, table).actual_throughput) == pytest.approx([100.0, 720.0])


def test_the_rounding_note_shows_the_fraction_that_was_rounded():
    # E = 1: S = d, so a target of 99,999.9999 needs exactly that many devices, rounded up to 100,000. The note says
    # so with as many decimals as the fraction needs (4 here; 2 would print '100,000.00', which reads as d itself),
    # and a fraction of 1e-9 of the size is a rounding, not float noise (NOISE = 5e-11).
    r = solve(speedup=99_999.9999, per_device_throughput=1.0, efficiency=1.0)
    assert r.result.devices == 100_000 and r.exact == 99_999.9999
    assert [str(n) for n in r.notes] == ["99,999.9999 devices needed exactly; rounded up to 100,000"]
    r = solve(speedup=100_000.00008, per_device_throughput=1.0, efficiency=1.0)
    assert [str(n) for n in r.notes] == ["100,000.0001 devices needed exactly; rounded up to 100,001"]


def test_a_table_without_one_device_interpolates_from_one_device():
    # Listed: S(8) = 8·0.9 = 7.2; one device reaches S(1) = 1 alone. A speedup of 4 lies between them:
    # 1 + (4 − 1)/(7.2 − 1)·(8 − 1) = 1 + 21/6.2 = 4.3871 devices (a line from the origin would say 4/7.2·8 = 4.444).
    r = solve(speedup=4, per_device_throughput=1.0, efficiency=PerSize(((8, 0.9),)))
    assert r.result.devices == 8
    assert r.exact == pytest.approx(1 + 21 / 6.2, rel=1e-12)


def test_a_speedup_below_one_needs_that_fraction_of_a_device():
    # S ≤ 1 is reached by one device alone; the exact size is S / E(1) = 0.5, for a law as for a plain number.
    for source in (USL(0.1, 0.0), 0.8):
        r = solve(speedup=0.5, per_device_throughput=1.0, efficiency=source)
        assert (r.result.devices, r.exact) == (1, 0.5)


# Mutation sweep 11 (session 36, of formulas/{memory,collectives,stepmodel,overlap,plan,scaling}, cli calc and plan,
# errors): gaps the suite left open, each killing a surviving mutant.


# ---- scaling.py, solve.py (solve was split out of scaling after this sweep; the line numbers are scaling's then) -
def test_a_rate_a_hair_above_one_devices_is_still_refused_on_one_device():
    """scaling.py:348 rel_tol 1e-9 → 1e-6: 1,000.0002 against 1,000 on one device is E = 1.0000002, which is not
    1 (the mutant took it and reported one device 'superlinear'). It is said in the digits that part it from 1
    (it read 'comes to 1', refused for not being 1)."""
    with pytest.raises(DpscaleError, match=r"^efficiency: comes to 1\.0000002 on one device, where E is 1 by "):
        solve(devices=1, per_device_throughput=1000, actual_throughput=1000.0002)


def test_a_plateaued_peak_is_named_at_its_first_size():
    """scaling.py:455 `sh > best` → `>=` and :517 `s(m1) < s(m2)` → `<=`. E(d) = min(d, 4)/d to 16 devices, then
    64/d²: the speedup d·E is 1, 2, 3, then 4 from 4 to 16 devices, then 64/d, falling. A target of 5 is past the
    peak of 4×, which 4 devices first reach (the mutants named 8 and 6)."""

    def e(d: float) -> float:
        return min(d, 4) / d if d <= 16 else 64 / d**2

    with pytest.raises(DpscaleError, match=r"the speedup peaks at 4× with 4 devices; allowed: a target at or below"):
        solve(per_device_throughput=100, efficiency=e, speedup=5)


def test_a_table_past_its_reach_names_its_best_size_not_its_last():
    """scaling.py:502 `max(points, key=…)` → `points[-1]`: E of 0.9, 0.8, 0.3 at 2, 4, 8 devices is a speedup of
    1.8, 3.2, 2.4: the best is 3.2 at 4 devices, not the last size's 2.4 at 8."""
    table = PerSize(((2, 0.9), (4, 0.8), (8, 0.3)))
    with pytest.raises(DpscaleError, match=r"beyond this table \(its best is speedup 3\.2 at 4 devices\)"):
        solve(per_device_throughput=100, efficiency=table, speedup=5)


def test_an_empty_array_of_e_is_refused_by_name_in_a_plan():
    """scaling.py:155 `efficiency.size != 1` → `> 1`: an empty array reached .item() (numpy's 'can only convert an
    array of size 1')."""
    with pytest.raises(DpscaleError, match=r"^efficiency: got \[\]; allowed: one number, or an E\(d\) source"):
        plan(1e6, 1, 100, [8], np.array([]))


# Cases a third mutation sweep (session 28: formulas, sources.laws/fit_laws/predict; 180 mutants, 9 non-equivalent
# survivors that change an answer) found no test could fail on. Each expected figure is derived in its comment, not
# read off the program.


def test_one_device_e_above_one_is_refused_to_the_last_percent():
    """E(1) = 1 by definition: 100.5/s against 100/s is a slip of 0.5 %, not a superlinear result."""
    with pytest.raises(DpscaleError, match="efficiency: comes to 1.005 on one device"):
        dpscale.solve(devices=1, per_device_throughput=100, actual_throughput=100.5)
    with pytest.raises(DpscaleError, match="efficiency: got 0.995; allowed: E = 1 at one device"):
        dpscale.scale([1, 8], 100.0, lambda d: np.where(np.asarray(d) == 1, 0.995, 0.9))


# Cases a fourth mutation sweep (session 28: sources.fit*, laws, dataset, predict_validate, faces.output and the
# CLI's number and size parsing; 212 mutants, 26 non-equivalent survivors) found no test could fail on. Each expected
# value is derived in its comment.


def test_bandwidth_units_scale_by_their_prefix_and_bits():
    """0.9 TB/s is 900 GB/s; 1.6 Tb/s is 1,600 Gb/s ÷ 8 = 200 GB/s (a TB/s read as 100 GB/s was 10× off)."""
    assert bandwidth("0.9TB/s", "--inter-bw") == pytest.approx(900.0)
    assert bandwidth("1.6Tb/s", "--inter-bw") == pytest.approx(200.0)
    # each spelling of a unit reads as the one it spells: bytes 1:1, bits ÷ 8 (400 Gb/s = 50 GB/s), Tb ÷ 8 × 1,000
    for typed, gbs in [("25GB/s", 25.0), ("25GBps", 25.0), ("200Gb/s", 25.0), ("400Gbps", 50.0), ("400Gbit/s", 50.0),
                       ("400GbE", 50.0), ("1.6Tbps", 200.0)]:  # fmt: skip
        assert bandwidth(typed, "--inter-bw") == pytest.approx(gbs)


def test_a_table_e_at_one_device_must_be_one_to_the_billionth():
    with pytest.raises(DpscaleError, match="got 0.9995; allowed: E = 1 at one device"):
        dpscale.PerSize.of([1, 8], [0.9995, 0.9])


# Tests from a mutation sweep of session 33's code (131 mutants, 84 killed by the earlier tests, 7 equivalent):
# each asserts an answer a surviving mutant changed, verified against the code and by running both.


def test_the_first_bool_among_sizes_is_named():
    assert message(lambda: dpscale.scale([True, 8, False], 2000, 0.9)).startswith("devices: got True;")


def test_a_constant_at_a_zero_d_size_is_a_number_as_a_law_s_is():
    e = dpscale.Constant(0.9).efficiency(np.array(8))
    assert type(e) is float and e == 0.9


# Review G (session 44): the day's commits tried at their edges — solve's E(d) function at one device, a second
# terminating signal while write_whole cleans up, and units compared in one way by every reader.


@pytest.mark.parametrize("fn", [lambda d: [1.0], lambda d: (1.0,), lambda d: [[1.0]]])
def test_solve_reads_a_one_element_e_at_one_device(fn):
    """c8d152f checked each size's E through one(), but a target one device reaches still returned
    s_target / float(fn(1)): a function giving [1.0] (one E, in a list) raised float()'s TypeError there, where every
    larger target was solved."""
    s = dpscale.solve(per_device_throughput=100, efficiency=fn, actual_throughput=50)
    assert s.result.devices == 1 and s.exact == pytest.approx(0.5)


def test_solve_names_a_large_size_as_the_errors_do():
    """The searched E(d)'s refusal named the size with '{d:g}' ('E(d) at d = 1.04858e+06'), where scale's names it
    whole and grouped ('E(d) at d = 1,048,576')."""
    fn = lambda d: 1.0 if d < 2**20 else float("nan")  # noqa: E731
    with pytest.raises(DpscaleError, match=r"E\(d\) at d = 1,048,576\)"):
        dpscale.solve(per_device_throughput=1, efficiency=fn, speedup=2**21)


@pytest.mark.parametrize("given", [lambda d: np.array(0.9), lambda d: np.float32(0.9), lambda d: np.array([[0.9]])])
def test_one_sizes_e_from_a_function_is_a_number(given):
    """5320cb8 read a function's [0.9] for one size as its number, but a 0-d array(0.9) stayed an array: the result's
    efficiency was array(0.9) (its repr, and `r.efficiency * 2` an array), where a law's, a fit's or a number's is a
    float."""
    r = dpscale.scale(8, 100, given)
    assert type(r.efficiency) is float and r.efficiency == pytest.approx(0.9)
    assert r.actual_throughput == pytest.approx(720)


# Review I (session 44): mutation testing of the day's code — each test here fails on a small change to it that
# the other tests let through (a signal handler left set, MPLBACKEND not given back, a unit said in another
# spelling, an Accept-Language read too literally, …).


# scale's records are plain numbers whatever the inputs' types


def test_scale_records_of_0d_arrays_are_plain_numbers_json_writes():
    """scale(np.array(64), np.array(2000.0), 0.9): its fields are 0-d arrays and numpy floats, its records plain
    numbers — the worked example written as JSON."""
    records = dpscale.scale(np.array(64), np.array(2000.0), 0.9).records()
    assert json.loads(json.dumps(records)) == [
        {"devices": 64, "per_device_throughput": 2000.0, "efficiency": 0.9, "ideal_throughput": 128000.0,
         "actual_throughput": pytest.approx(115200.0), "speedup": pytest.approx(57.6),
         "lost_throughput": pytest.approx(12800.0), "effective_devices": pytest.approx(57.6)}
    ]  # fmt: skip
    assert [type(v) for v in records[0].values()] == [int] + [float] * 7


def test_solve_names_a_size_between_whole_ones_as_it_is():
    """A law's exact size is read between whole sizes: a subclass that gives no E there is named at that size, 2.5,
    not at the whole size 2 it was not asked about (the law itself: 2.11 devices, rounded up to 3)."""

    class Clipped(dpscale.Amdahl):
        def efficiency(self, d):
            return super().efficiency(d) if d == int(d) else float("nan")

    with pytest.raises(dpscale.DpscaleError) as caught:
        dpscale.solve(per_device_throughput=100, efficiency=Clipped(0.05), speedup=2)
    assert str(caught.value) == "efficiency: got nan; allowed: a scaling efficiency in (0, 1] (E(d) at d = 2.5)"
    s = dpscale.solve(per_device_throughput=100, efficiency=dpscale.Amdahl(0.05), speedup=2)
    assert s.result.devices == 3 and s.exact == pytest.approx(2.111111111111111)


# Review 46 AL: two files split where each mixed two jobs — formulas/scaling.py's inverse problem (`solve` and
# its searches) is formulas/solve.py, and sources/fit.py's notes on a finished fit are sources/fit_notes.py (as
# predict_notes.py is predict.py's). Each new module stands on its own: the lower one never imports the higher, and
# the old home keeps no re-exported copy.


SRC = Path(__file__).resolve().parents[1] / "src" / "dpscale"


def _dpscale_imports(path: Path) -> set[str]:
    """Every dpscale module the file imports, at its top, inside a function or under TYPE_CHECKING."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("dpscale"):
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("dpscale")}
    return out


def test_solve_lives_in_formulas_solve_and_the_package_names_it():
    from dpscale.formulas import scaling, solve

    assert dpscale.solve is solve.solve and dpscale.Solution is solve.Solution
    assert not hasattr(scaling, "solve") and not hasattr(scaling, "Solution")  # no compatibility copy left behind
    assert "dpscale.formulas.solve" not in _dpscale_imports(SRC / "formulas" / "scaling.py")  # one direction only


def test_the_moved_solve_answers_as_it_did():
    """The worked example backwards: 115,200/s from 64 devices at 2,000/s is E = 0.9; 100,000/s at E 0.9 needs
    55.56 devices, rounded up to 56; a USL past its peak is refused naming it."""
    from dpscale.formulas.solve import solve

    assert solve(devices=64, per_device_throughput=2000, actual_throughput=115_200).exact == pytest.approx(0.9)
    r = solve(per_device_throughput=2000, efficiency=0.9, actual_throughput=100_000)
    assert r.result.devices == 56 and r.exact == pytest.approx(55.5556, rel=1e-5)
    assert [n.key for n in r.notes] == ["rounded_up"] and str(r.notes[0]).startswith("55.56 devices needed exactly")
    with pytest.raises(DpscaleError, match=r"throughput peaks at 357\.143/s \(speedup 3\.57143\) with 10 devices"):
        solve(per_device_throughput=100, efficiency=dpscale.USL(0.1, 0.01), actual_throughput=1e9)


# Review AN (session 46): mutation testing of the session's source changes — a test for each hand-made mutant that
# survived the session's own tests and that a user would see.


@pytest.mark.parametrize("e", [0.9, [0.9], (0.9,), range(1, 2)], ids=repr)
def test_solving_for_devices_takes_one_e_in_every_form_scale_takes(e):
    """scale, and solve's other unknowns, read one E written as a number, a one-item list or tuple, or a range of one
    (range(1, 2): E = 1); solving for devices took the same, the check added for what is no E at all keeps it."""
    as_number = 1.0 if isinstance(e, range) else 0.9
    want = dpscale.solve(per_device_throughput=2000, efficiency=as_number, actual_throughput=10_000)
    got = dpscale.solve(per_device_throughput=2000, efficiency=e, actual_throughput=10_000)
    assert (got.result.devices, got.result.efficiency) == (want.result.devices, want.result.efficiency)
    assert got.result.devices == (5 if as_number == 1.0 else 6)
    assert dpscale.scale(got.result.devices, 2000, e).actual_throughput == want.result.actual_throughput


@pytest.mark.parametrize(("sigma", "kappa", "d0"), [(0.05, 0.001, 1), (0.02, 1e-5, 8), (0.1, 0.0, 1), (0.006, 0.0, 8)])
def test_the_usls_ceiling_is_the_most_throughput_it_gives_at_any_size(sigma, kappa, d0):
    """usl_ceiling: the most of d·E(d)/E(d0), in d0's per-device throughputs — at the peak where κ > 0 (σ = 0.05,
    κ = 0.001: d* = 30.8, 9.04), else Amdahl's bound (1 + σ(d0 − 1))/σ, which d·E(d) nears from below as d grows
    (1/σ = 10 from one device at σ = 0.1)."""
    from dpscale.sources.laws import USL, usl_ceiling

    law = USL(sigma, kappa)
    x = lambda d: d * law.efficiency(d) / law.efficiency(d0)  # noqa: E731
    top = usl_ceiling(sigma, kappa, d0)
    most = float(np.max(x(np.arange(1.0, 2000.0, 0.001))))  # 1 to 2,000 devices, every 0.001
    if kappa > 0:
        assert top == pytest.approx(most, rel=1e-8)
    else:
        assert top == pytest.approx((1 + sigma * (d0 - 1)) / sigma) and most < top
        assert x(1e7) == pytest.approx(top, rel=1e-4) and x(1e7) < top  # (1e7: the most devices E takes)
    assert (sigma, kappa, d0) != (0.05, 0.001, 1) or top == pytest.approx(9.04, abs=0.005)
    assert usl_ceiling(0.0, 0.0) == math.inf  # no serial part: throughput grows without bound


# Cases a whole-module mutation sweep (formulas.scaling, solve, plan, memory, stepmodel, collectives, overlap and
# sources.laws; 253 mutants, each run alone against its area's tests, survivors against the whole fast suite) found
# no test could fail on.


def test_a_target_one_device_reaches_is_solved_at_e_one_from_a_table_that_does_not_list_one():
    """A PerSize table without size 1 still has E(1) = 1 (one device is its own reference): 80/s from 100/s a device
    is reached by one device, which runs at its own 100/s — not at some E of the table's, which would report it
    slower than itself."""
    r = solve(per_device_throughput=100, efficiency=PerSize({8: 0.9}), actual_throughput=80)
    assert r.result.devices == 1 and r.exact == pytest.approx(0.8)
    assert r.result.efficiency == 1.0 and r.result.actual_throughput == 100.0 and r.result.speedup == 1.0


def test_the_usl_s_whole_peak_can_be_the_size_below_d_star():
    """Of ⌊d*⌋ and ⌈d*⌉ the faster, not always the ceiling: κ = 0.0096 puts d* at √(1/0.0096) = 10.21, and 10 devices
    give 10/(1 + 0.0096·90) = 5.365× against 11's 11/(1 + 0.0096·110) = 5.350×."""
    law = USL(0.0, 0.0096)
    assert law.peak_devices() == pytest.approx(10.206, abs=1e-3)
    assert 10 * law.efficiency(10) == pytest.approx(5.3648, abs=1e-4)
    assert 11 * law.efficiency(11) == pytest.approx(5.3502, abs=1e-4)
    assert law.peak_size() == 10


def test_laws_with_the_same_parameter_are_equal_only_when_they_are_the_same_law():
    """Equality is by value and by law: Amdahl(0.1) and Constant(0.1) both hold one parameter of 0.1, but E(8) is
    1/(1 + 0.1·7) = 0.588 under the one and 0.1 under the other."""
    assert Amdahl(0.1).efficiency(8) == pytest.approx(1 / 1.7) and Constant(0.1).efficiency(8) == 0.1
    assert Amdahl(0.1) != Constant(0.1) and Constant(0.1) != Amdahl(0.1)
    assert Amdahl(0.1) == Amdahl(0.1) and USL(0.1, 0.0) != Amdahl(0.1)


# Cases a mutation sweep of formulas/scaling.py, formulas/solve.py and faces/output.py (review EN: 113 mutants by
# hand) found no test could fail on, and two messages it found wrong. Each expected figure is derived in its comment.


def test_a_speedup_flat_up_to_the_size_cap_is_a_peak_not_a_target_too_far():
    """solve.py `s(cap) >= s(cap // 2)` read a flat speedup as still rising: E(d) = min(1, 4/d) gives d·E = 4 from 4
    devices to 10,000,000, and a target of 5 was 'not reached within 10,000,000 devices', as if more would reach it.
    The speedup peaks at 4× (500/s against 400/s at 100/s a device), first at 4 devices."""
    flat = lambda d: min(1.0, 4 / d)  # noqa: E731
    with pytest.raises(DpscaleError, match=r"unreachable — under this E\(d\) the speedup peaks at 4× with 4 devices"):
        solve(per_device_throughput=100, efficiency=flat, speedup=5)
    with pytest.raises(DpscaleError, match=r"throughput peaks at 400/s \(speedup 4\) with 4 devices"):
        solve(per_device_throughput=100, efficiency=flat, actual_throughput=500)


def test_a_speedup_that_missed_its_target_is_not_printed_as_the_target():
    """Amdahl with serial fraction 0.5: S(d) = 1/(0.5 + 0.5/d) = 2d/(d + 1), below 2 at every size; at 10,000,000
    devices 2e7/(1e7 + 1) = 1.99999980…, which read 'speedup 2 there' beside a target of 2. Eight digits tell them
    apart: 1.9999998, and 199.99998/s at 100/s a device."""
    with pytest.raises(DpscaleError, match=r"target speedup 2: not reached within 10,000,000 devices \(speedup "
                       r"1\.9999998 there\)"):  # fmt: skip
        solve(per_device_throughput=100, efficiency=Amdahl(0.5), speedup=2)
    with pytest.raises(DpscaleError, match=r"\(199\.99998/s \(speedup 1\.9999998\) there\)"):
        solve(per_device_throughput=100, efficiency=Amdahl(0.5), actual_throughput=200)
    # a peak well below the target keeps the six figures: USL σ = 0.02, κ = 1e-4 peaks at 25.1896 with 99 devices
    with pytest.raises(DpscaleError, match=r"the speedup peaks at 25\.1896× with 99 devices"):
        solve(per_device_throughput=100, efficiency=USL(0.02, 1e-4), speedup=30)


def test_e_at_one_device_from_a_function_or_a_list_must_be_one_to_the_billionth():
    """scaling._check_one_device's 1e-9 → 1e-3, in each of its three branches (a sweep, one size, one size with
    several E): 0.9995 at one device, a single device at 99.95 % of its own rate, was taken. 1 − 1e-10 is float
    noise and is (8 devices at 0.9: 720/s of 800)."""
    e_at_one = "efficiency: got 0.9995; allowed: E = 1 at one device"
    for args in (([1, 8], 100.0, lambda d: np.where(np.asarray(d) == 1, 0.9995, 0.9)), (1, 100.0, lambda d: 0.9995),
                 (1, 100.0, [1.0, 0.9995])):  # fmt: skip
        with pytest.raises(DpscaleError, match=e_at_one):
            dpscale.scale(*args)
    noise = dpscale.scale([1, 8], 100.0, lambda d: np.where(np.asarray(d) == 1, 1 - 1e-10, 0.9))
    assert noise.actual_throughput[1] == pytest.approx(720)


def test_an_astronomical_count_of_devices_needed_keeps_four_figures():
    """solve._too_many: past 1e15 a count keeps its exponent, at four figures ('.4g' → 'g' wrote 1.23457e+20):
    a speedup of 6.17283945e19 at E = 0.5 needs 1.2345678900e20 devices, 1.235e+20."""
    with pytest.raises(DpscaleError, match=r"^devices: 1\.235e\+20 needed; allowed: at most 10,000,000"):
        solve(per_device_throughput=1, efficiency=0.5, speedup=6.17283945e19)


def test_solved_speedup_below_one_names_the_per_device_slip():
    """A cluster of 64 slower than one device (1,800 samples/s against 2,000 alone: E 0.014, speedup 0.9×) is what a
    per-device share typed as the cluster's rate gives, or the cluster's total typed as one device's (128,000 against
    115,200): both were solved silently (review HU). Said, with the ratio that either reading gives, E = 0.9; E as
    given. A speedup typed as E (0.9) likewise. At a speedup of 1 or more, or on one device, nothing is said."""
    s = solve(devices=64, per_device_throughput=2000, actual_throughput=1800)
    assert s.exact == pytest.approx(1800 / 128000) and len(s.notes) == 1
    assert s.notes[0].key == "slower_than_one" and s.notes[0].fields["ratio"] == pytest.approx(0.9)
    assert "0.90× on 64 devices" in s.notes[0] and "their ratio, 0.900" in s.notes[0]
    total = solve(devices=64, per_device_throughput=128000, actual_throughput=115200)
    assert total.exact == pytest.approx(115200 / 8192000) and total.notes[0].key == "slower_than_one"
    typed_e = solve(devices=64, per_device_throughput=2000, speedup=0.9)
    assert typed_e.notes[0].key == "slower_than_one_speedup" and "57.6×" in typed_e.notes[0]
    assert solve(devices=64, per_device_throughput=2000, actual_throughput=2000).notes == ()  # speedup 1: said none
    assert solve(devices=2, per_device_throughput=2000, actual_throughput=1999).notes[0].key == "slower_than_one"
