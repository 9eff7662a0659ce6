"""Arrays through the library: a sweep gives, size by size, what the scalar call gives for that size.

The formulas take numpy arrays where their docstrings say so (scale's d, v and E; every E source's d; model_states'
params and devices; scaled_lr's batch; critical_batch's batch; time_to_target_speedup's d). Their array paths are
separate code (constant_efficiency's in-place fill, PerSize's lookup, the size-one masks), so each is held to the
scalar answer: a notebook's sweep must not differ from its own loop.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dpscale
from dpscale import (
    USL,
    Amdahl,
    Constant,
    PerSize,
    critical_batch,
    model_states,
    scale,
    scaled_lr,
    time_to_target_speedup,
)

sizes = st.lists(st.integers(1, 100_000), min_size=1, max_size=12)
rates = st.floats(1e-3, 1e9)
effs = st.floats(1e-3, 1.0)
laws = st.one_of(
    effs,  # one number: held at 1 on one device
    st.builds(USL, st.floats(0, 0.5), st.floats(0, 1e-3)),
    st.builds(Amdahl, st.floats(0, 0.5)),
    effs.map(Constant),
)
FIELDS = ("efficiency", "ideal_throughput", "actual_throughput", "speedup", "lost_throughput", "effective_devices")


def item(x, i: int) -> float:
    """The i-th value of a sweep's field (a number where the field did not vary)."""
    return float(np.asarray(x).flat[i]) if np.ndim(x) else float(x)


@given(sizes, rates, laws)
def test_scale_over_sizes_is_scale_size_by_size(ds, v, e):
    swept = scale(np.array(ds), v, e)
    for i, d in enumerate(ds):
        one = scale(d, v, e)
        for f in FIELDS:
            assert item(getattr(swept, f), i) == pytest.approx(getattr(one, f), rel=1e-12), (d, f)


@given(st.lists(st.tuples(st.integers(2, 100_000), effs), min_size=1, max_size=8), rates)
def test_a_per_size_table_and_a_function_of_d_sweep_as_they_read_one_size(table, v):
    per_size = PerSize([(1, 1.0), *dict(table).items()])
    ds = [1, *dict(table)]
    for source in (per_size, lambda d: per_size.efficiency(d)):
        swept = scale(np.array(ds), v, source)
        for i, d in enumerate(ds):
            assert item(swept.actual_throughput, i) == pytest.approx(scale(d, v, source).actual_throughput, rel=1e-12)


@given(st.integers(1, 100_000), st.lists(rates, min_size=1, max_size=8), laws)
def test_scale_over_rates_is_scale_rate_by_rate(d, vs, e):
    swept = scale(d, np.array(vs), e)
    for i, v in enumerate(vs):
        assert item(swept.actual_throughput, i) == pytest.approx(scale(d, v, e).actual_throughput, rel=1e-12)


@given(sizes, laws.filter(lambda e: not isinstance(e, float)))
def test_an_e_source_over_sizes_is_its_e_size_by_size(ds, law):
    swept = law.efficiency(np.array(ds))
    assert [item(swept, i) for i in range(len(ds))] == pytest.approx([law.efficiency(d) for d in ds], rel=1e-12)


def test_a_prediction_and_a_fit_over_sizes_are_their_e_size_by_size():
    p = dpscale.predict([8, 64], model="bert-large", precision="amp", batch=32, throughput=150, system="dgx-a100")
    f = dpscale.fit([(1, 1000), (2, 1950), (4, 3800), (8, 7300), (16, 13800)], gpus_per_node=8)
    ds = [1, 2, 3, 8, 12, 64, 100, 1024]
    for source in (p, f):
        swept = source.efficiency(np.array(ds))
        assert swept.tolist() == pytest.approx([source.efficiency(d) for d in ds], rel=1e-12)
        assert swept[0] == 1.0 and len(set(swept.tolist())) > 2  # real E(d), not one value spread over the sizes


@given(sizes, st.floats(1e3, 1e12), st.integers(0, 3), st.sampled_from(["adam", "sgd"]),
       st.sampled_from(["mixed", "amp", "fp32", "bf16", "fp8"]), st.integers(1, 8))  # fmt: skip
def test_model_states_over_devices_and_params_are_model_states_one_by_one(ds, params, stage, opt, precision, t):
    by_devices = model_states(params, np.array(ds), stage, opt, precision, t)
    by_params = model_states(np.array([params, 2 * params]), ds[0], stage, opt, precision, t)
    parts = ("parameter_bytes", "gradient_bytes", "optimizer_bytes")
    for i, d in enumerate(ds):
        one = model_states(params, d, stage, opt, precision, t)
        assert [item(getattr(by_devices, f), i) for f in parts] == pytest.approx([getattr(one, f) for f in parts])
    for i, p in enumerate((params, 2 * params)):
        one = model_states(p, ds[0], stage, opt, precision, t)
        assert [item(getattr(by_params, f), i) for f in parts] == pytest.approx([getattr(one, f) for f in parts])


@given(st.floats(1e-6, 10), st.floats(1, 1e6), st.lists(st.floats(1, 1e7), min_size=1, max_size=8),
       st.sampled_from(["linear", "sqrt"]), st.floats(1, 1e7), st.floats(1, 1e7))  # fmt: skip
def test_batch_formulas_over_batches_are_the_formulas_batch_by_batch(lr, b0, batches, rule, noise, s_min):
    lrs = scaled_lr(lr, b0, np.array(batches), rule)
    crit = critical_batch(np.array(batches), noise, s_min)
    for i, b in enumerate(batches):
        assert lrs[i] == pytest.approx(scaled_lr(lr, b0, b, rule), rel=1e-12)
        one = critical_batch(b, noise, s_min)
        assert (crit.steps[i], crit.samples[i]) == pytest.approx((one.steps, one.samples), rel=1e-12)


@given(sizes, st.integers(1, 4096), st.floats(1, 1e7), laws)
def test_time_to_target_over_sizes_is_its_value_size_by_size(ds, b, noise, e):
    swept = time_to_target_speedup(np.array(ds), b, noise, e)
    for i, d in enumerate(ds):
        assert item(swept, i) == pytest.approx(time_to_target_speedup(d, b, noise, e), rel=1e-12), d


def test_results_of_a_sweep_compare_by_their_values():
    """A sweep's results could not be compared: `scale([1, 8], 2000, 0.9) == scale([1, 8], 2000, 0.9)` raised
    'ValueError: The truth value of an array with more than one element is ambiguous' (tuple's and a dataclass's ==
    ask each array field for one bool), and so did a Solution, ModelStates, CriticalBatch and FitPrediction of two
    sizes (review LB). Fields compare by value now, arrays by shape and values; a number's result stays hashable."""
    runs = [(1, 1000), (8, 7000), (16, 13000)]
    makers = [
        lambda d: scale([1, d], 2000, 0.9),
        lambda d: dpscale.solve(devices=[8, d], per_device_throughput=2000, efficiency=0.9),
        lambda d: model_states(7.5e9, [8, d], stage=3),
        lambda d: critical_batch([64, d], 2000),
        lambda d: dpscale.fit(runs, resamples=50).predict([64, d]),
    ]
    for make in makers:
        a = make(128)
        assert a == make(128) and not a != make(128)  # raised ValueError
        assert a != make(256) and not a == make(256)
        assert a != "text"
    assert scale(64, 2000, 0.9) == scale(64, 2000, 0.9) and hash(scale(64, 2000, 0.9)) == hash(scale(64, 2000, 0.9))
    assert len({model_states(7.5e9, 64), model_states(7.5e9, 64), critical_batch(64, 2000)}) == 2
    assert scale(64, 2000, 0.9) == (64, 2000.0, 0.9, 128000.0, 115200.0, 57.6, 12800.0, 57.6)  # still a named tuple
    assert scale([1, 8], 2000, 0.9) != scale(np.array([[1, 8]]), 2000, 0.9)  # another shape


def test_a_result_holding_nan_equals_itself_as_a_tuple_or_dataclass_did():
    """Since review LB's same_fields, a result holding a NaN (a number's or in an array) was unequal to itself:
    `r == r` False and `r != r` True, and `copy.copy(r) == r` False (it shares r's fields), while `[r] == [r]` stayed
    True. Tuple's and a dataclass's == (before LB) take a field that *is* the other's as equal, as every Python
    container does; two NaNs made apart stay unequal (nan != nan), as before (review LC)."""
    import copy
    import math

    from dpscale.formulas.memory import ModelStates

    nan = math.nan
    number = dpscale.ScaleResult(64, 2000.0, nan, 128000.0, nan, nan, nan, nan)
    swept = dpscale.ScaleResult(np.array([1, 8]), 2000.0, np.array([1.0, nan]), *[np.array([2.0, nan])] * 5)
    states = ModelStates(**{n: np.array([1.0, nan]) for n in ModelStates.__slots__})
    for r in (number, swept, states):
        assert r == r and not r != r  # False and True since LB
        assert copy.copy(r) == r and not copy.copy(r) != r
    assert hash(copy.copy(number)) == hash(number)
    apart = dpscale.ScaleResult(64, 2000.0, float("nan"), 128000.0, nan, nan, nan, nan)
    assert number != apart and not number == apart  # another NaN: unequal, as a tuple's
    assert swept != dpscale.ScaleResult(np.array([1, 8]), 2000.0, np.array([1.0, nan]), *[np.array([2.0, nan])] * 5)
