"""The core formulas: the worked example, solves, E sources, arrays, and properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import dpscale
from dpscale import USL, Amdahl, Constant, DpscaleError, PerSize, scale, solve
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
    s = solve(devices=8, per_device_throughput=100, actual_throughput=816)
    assert s.exact == pytest.approx(1.02)
    assert s.notes and "superlinear" in s.notes[0]
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


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(devices=64, per_device_throughput=2000),
        dict(devices=64, per_device_throughput=2000, efficiency=0.9, actual_throughput=1),
        dict(devices=64, per_device_throughput=2000, actual_throughput=1, speedup=2),
        dict(devices=64, efficiency=0.9, speedup=2),
    ],
)
def test_solve_rejects_wrong_input_counts(kwargs):
    with pytest.raises(DpscaleError):
        solve(**kwargs)


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
