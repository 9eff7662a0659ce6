"""Review 44, reviewer E: scale()'s result and the E(d) functions it reads, from a notebook."""

from __future__ import annotations

import json

import numpy as np
import pytest

import dpscale
from dpscale.errors import DpscaleError
from dpscale.faces.cli import main

WORKED = {
    "devices": 64,
    "per_device_throughput": 2000.0,
    "efficiency": 0.9,
    "ideal_throughput": 128_000.0,
    "actual_throughput": 115_200.0,
    "speedup": 57.6,
    "lost_throughput": 12_800.0,
    "effective_devices": 57.6,
}


def _approx(rec: dict) -> dict:
    return {k: pytest.approx(v) for k, v in rec.items()}


def test_scale_records_are_a_list_of_plain_dicts_like_every_other_results():
    """ScaleResult.records() was a generator: `json.dumps(r.records())` raised 'Object of type generator is not JSON
    serializable' and `len(...)`, `[0]` failed, where a prediction's, a fit's and a plan's records() are lists."""
    rows = dpscale.scale(64, 2000, 0.9).records()
    assert type(rows) is list and len(rows) == 1 and rows[0] == _approx(WORKED)
    assert json.loads(json.dumps(rows))[0]["actual_throughput"] == pytest.approx(115_200)
    assert all(type(v) in (int, float) for v in rows[0].values())  # plain numbers, not numpy's
    sweep = dpscale.scale(np.array([1, 8, 64]), 2000, 0.9).records()
    assert type(sweep) is list and [r["devices"] for r in sweep] == [1, 8, 64]
    assert [r["actual_throughput"] for r in sweep] == pytest.approx([2000.0, 14_400.0, 115_200.0])
    assert sweep[-1] == _approx(WORKED) and type(sweep[-1]["devices"]) is int
    # a law's rows too (the assert was json.dumps' text, true of any rows it could write, '[]' among them): Amdahl's
    # s = 0.01 at 8 devices is E = 1/(1 + 0.01·7), 8·2,000/1.07 = 14,953.27 samples/s
    laws = json.loads(json.dumps(dpscale.scale([1, 8], 2000, dpscale.Amdahl(0.01)).records()))
    assert [r["actual_throughput"] for r in laws] == pytest.approx([2000.0, 14_953.27], rel=1e-6)
    assert dpscale.scale(64, 2000, 0.9).records() == rows  # asked twice, the same rows (a generator was spent)


def test_solution_and_calc_still_read_the_rows(capsys):
    """solve's records and calc's rows are built on scale's: the same worked example through both."""
    assert dpscale.solve(64, 2000, 0.9).record()["actual_throughput"] == pytest.approx(115_200)
    assert main(["calc", "-d", "64", "-v", "2000", "-e", "0.9", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == _approx(WORKED)
    assert main(["calc", "-d", "1,64", "-v", "2000", "-e", "0.9", "--json"]) == 0
    assert [r["speedup"] for r in json.loads(capsys.readouterr().out)] == pytest.approx([1.0, 57.6])


def test_an_e_function_giving_two_values_for_one_size_is_refused():
    """`scale(8, 2000, lambda d: [0.9, 0.8])` was spread over two rows, 8 devices at 14,400 and at 12,800 samples/s:
    a function of d gives one E per size asked."""
    said = r"^efficiency: got \[0\.9, 0\.8\]; allowed: one scaling efficiency in \(0, 1\] per size \(E\(d\) at d = 8\)$"
    with pytest.raises(DpscaleError, match=said):
        dpscale.scale(8, 2000, lambda d: [0.9, 0.8])
    with pytest.raises(DpscaleError, match=r"^efficiency: got \[0\.9 0\.8\]; allowed: one scaling .*at d = 64\)$"):
        dpscale.scale(64, 2000, lambda d: np.array([0.9, 0.8]))
    with pytest.raises(DpscaleError, match=r"^efficiency: got \[\[0\.9 0\.9\] \[0\.9 0\.9\]\]; allowed: one scaling"):
        dpscale.scale(64, 2000, lambda d: np.full((2, 2), 0.9))  # was four rows
    source = type("Source", (), {"efficiency": lambda self, d: (0.9, 0.8)})()  # an object's efficiency(d) too
    with pytest.raises(DpscaleError, match=r"^efficiency: got \(0\.9, 0\.8\); allowed: one scaling .*at d = 64\)$"):
        dpscale.scale(64, 2000, source)
    with pytest.raises(DpscaleError, match=r"at d = 10,000,000\)$"):
        dpscale.scale(10_000_000, 1, lambda d: [0.9, 0.8])
    # one value, however wrapped, is that value: the worked example
    for one_e in (0.9, np.float64(0.9), np.array(0.9), [0.9], np.array([[0.9]])):
        r = dpscale.scale(64, 2000, lambda d, e=one_e: e)
        assert r.records() == [_approx(WORKED)]
        assert float(r.actual_throughput) == pytest.approx(115_200) and float(r.speedup) == pytest.approx(57.6)


@pytest.mark.parametrize(
    ("gives", "said"),
    [
        (None, r"got None; allowed: one scaling efficiency in \(0, 1\] per size \(E\(d\) at d = 8\)$"),
        ("0.9", r"got '0\.9'; allowed: one scaling efficiency in \(0, 1\] per size \(E\(d\) at d = 8\)$"),
        ({8: 0.9}, r"got \{8: 0\.9\}; allowed: one scaling efficiency .*\(E\(d\) at d = 8\)$"),
        (True, r"got True; allowed: one scaling efficiency .*\(E\(d\) at d = 8\)$"),
        (float("nan"), r"got nan; allowed: a scaling efficiency in \(0, 1\] \(E\(d\) at d = 8\)$"),
        (float("inf"), r"got inf; allowed: a scaling efficiency in \(0, 1\] \(E\(d\) at d = 8\)$"),
        (0.0, r"got 0; allowed: a scaling efficiency in \(0, 1\] \(E\(d\) at d = 8\)$"),
        (np.ma.masked_array([0.9], mask=[True]), r"got \[--\]; allowed: numbers without masked .*at d = 8\)$"),
    ],
)
def test_what_an_e_function_gives_for_one_size_is_named_by_that_size(gives, said):
    with pytest.raises(DpscaleError, match="^efficiency: " + said):
        dpscale.scale(8, 2000, lambda d: gives)


def test_a_vectorised_e_function_still_sweeps_and_a_bad_one_is_named():
    """A vectorised E(d) over an array of sizes gives an array of their shape (or one E for all of them): that still
    works; one of the wrong length said numpy's shapes of devices, rates and E; a bad value named no size."""
    d = np.array([1, 2, 4, 8, 16, 32, 64])
    r = dpscale.scale(d, 2000, lambda d: np.where(d == 1, 1.0, 0.9))
    assert r.actual_throughput.tolist() == pytest.approx([2000, 3600, 7200, 14_400, 28_800, 57_600, 115_200])
    assert r.records()[-1] == _approx(WORKED)
    assert dpscale.scale([2, 64], 2000, lambda d: 0.9).speedup.tolist() == pytest.approx([1.8, 57.6])
    assert dpscale.scale([2, 64], 2000, lambda d: [0.9 for _ in d]).speedup.tolist() == pytest.approx([1.8, 57.6])
    grid = dpscale.scale(np.array([[2], [64]]), [1000, 2000], lambda d: np.full(d.shape, 0.9))  # 2×2
    assert grid.actual_throughput.ravel().tolist() == pytest.approx([1800, 3600, 57_600, 115_200])
    with pytest.raises(
        DpscaleError, match=r"^efficiency: got \[1\. +0\.9\]; allowed: one E per size .*\(7 sizes here\)$"
    ):
        dpscale.scale(d, 2000, lambda d: np.array([1.0, 0.9]))  # was 'lengths 7, a number, 2'
    with pytest.raises(DpscaleError, match=r"^efficiency: got None; allowed: one E per size .*\(7 sizes here\)$"):
        dpscale.scale(d, 2000, lambda d: None)
    with pytest.raises(
        DpscaleError, match=r"^efficiency: got nan; allowed: a scaling efficiency in \(0, 1\] \(E\(d\) at d = 16\)$"
    ):
        dpscale.scale(d, 2000, lambda d: np.where(d == 1, 1.0, np.where(d < 16, 0.9, np.nan)))
    with pytest.raises(DpscaleError, match=r"^efficiency: got 90; allowed: .*\(90 % = 0\.9\) \(E\(d\) at d = 2\)$"):
        dpscale.scale([2, 8], 2000, lambda d: np.full(d.shape, 90.0))


def test_a_function_read_size_by_size_names_the_size_that_gave_no_number():
    """`lambda d: 1.0 if d == 1 else …` is read one size at a time; float() raised its own TypeError for None or two
    values there, naming nothing, and took the text '0.9' that one size alone refuses."""
    table = {1: 1.0, 64: 0.9}
    assert dpscale.scale([1, 64], 2000, lambda d: table[d]).records()[1] == _approx(WORKED)
    with pytest.raises(DpscaleError, match=r"^efficiency: got None; allowed: one scaling .*\(E\(d\) at d = 64\)$"):
        dpscale.scale([1, 64], 2000, lambda d: table.get(d) if d == 1 else None)
    with pytest.raises(DpscaleError, match=r"^efficiency: got \[0\.9, 0\.8\]; allowed: one scaling .*at d = 64\)$"):
        dpscale.scale([1, 64], 2000, lambda d: 1.0 if d == 1 else [0.9, 0.8])
    with pytest.raises(DpscaleError, match=r"^efficiency: got '0\.9'; allowed: one scaling .*at d = 64\)$"):
        dpscale.scale([1, 64], 2000, lambda d: 1.0 if d == 1 else "0.9")


def test_laws_fits_and_predictions_still_scale_as_they_did():
    """The checks above speak only when a function breaks one-E-per-size; the library's own sources give floats
    for one size and arrays for a sweep, as before."""
    usl = dpscale.USL(0.02, 0.001)
    one_size = dpscale.scale(64, 2000, usl)
    assert type(one_size.efficiency) is float and one_size.efficiency == pytest.approx(usl.efficiency(64))
    sweep = dpscale.scale([1, 8, 64], 2000, dpscale.Amdahl(0.01))
    assert sweep.efficiency.tolist() == pytest.approx([1.0, 8 / (1 + 0.01 * 7) / 8, 64 / (1 + 0.01 * 63) / 64])
    assert dpscale.scale(64, 2000, dpscale.Constant(0.9)).records() == [_approx(WORKED)]
    assert dpscale.scale([8, 16], 2000, dpscale.PerSize({8: 0.9, 16: 0.8})).speedup.tolist() == pytest.approx(
        [7.2, 12.8]
    )


def test_a_prediction_gives_a_float_at_one_size_and_an_array_for_sizes():
    """Prediction.efficiency(d), as a law's: one size a Python float (what scale() and a notebook print read), a
    list an array of its shape — the same E the curve holds at that size."""
    p = dpscale.predict([1, 8, 64], model="bert-large", system="dgx-a100", throughput=100, batch=8)
    one = p.efficiency(8)
    assert type(one) is float and one == pytest.approx(p.efficiency_values[1], rel=1e-12)
    assert p.efficiency([8]).shape == (1,) and p.efficiency([[8, 64]]).shape == (1, 2)


@pytest.mark.parametrize("e1, taken", [(1 - 2e-9, False), (1 - 5e-10, True)])
@pytest.mark.parametrize("kind", ["function", "array", "table"])
def test_e_at_one_device_has_one_margin_for_a_function_an_array_and_a_table(e1, taken, kind):
    """E(1) = 1 within 1e-9 was written four times — three in scale's _check_one_device, once in PerSize with a
    comment pointing at scale's — now ONE_DEVICE_MARGIN (review HH). At 1 − 2e-9 a function, an array and a table
    of E are refused alike; at 1 − 5e-10 all are taken, and one device's throughput stays its own (to 1e-7)."""
    from dpscale.formulas.scaling import ONE_DEVICE_MARGIN
    from dpscale.sources.laws import PerSize

    assert ONE_DEVICE_MARGIN == 1e-9
    d = np.array([1, 8])
    sources = {
        "function": lambda: lambda x: np.where(x == 1, e1, 0.9),
        "array": lambda: np.array([e1, 0.9]),
        "table": lambda: PerSize({1: e1, 8: 0.9}),
    }
    if taken:
        r = dpscale.scale(d, 100.0, sources[kind]())
        assert r.actual_throughput[0] == pytest.approx(100.0, abs=1e-7) and r.actual_throughput[1] == 720.0
    else:
        with pytest.raises(DpscaleError, match="E = 1 at one device"):
            dpscale.scale(d, 100.0, sources[kind]())
