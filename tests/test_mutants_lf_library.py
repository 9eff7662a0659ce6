"""Review LF (mutation pass over today's source lines): the results' == by value (formulas.scaling.same_fields,
review LB) where the two differ in one field only, or one holds arrays and the other numbers — each test below
failed against a hand-made mutant of same_fields (named in its docstring) and passes on the source."""

from __future__ import annotations

import dpscale
from dpscale import scale


def test_results_of_numbers_differing_in_one_field_are_not_equal():
    """Mutant: same_fields's `all(a == b …)` over numbers → any (survived: the inequalities tested were of sweeps).
    64 devices × 2,000 at E 0.9 (115,200 samples/s, 57.6×) is not 64 × 2,000 at 0.8 (102,400, 51.2×), though their
    devices and per-device throughput agree."""
    assert scale(64, 2000, 0.9) != scale(64, 2000, 0.8) and not scale(64, 2000, 0.9) == scale(64, 2000, 0.8)
    one = dpscale.solve(devices=64, per_device_throughput=2000, efficiency=0.9)
    assert one != dpscale.solve(devices=64, per_device_throughput=2000, efficiency=0.8)


def test_a_result_of_numbers_and_one_of_arrays_compare_unequal():
    """Mutants: same_fields's `is_array(a) or is_array(b)` → is_array(a), in the test for arrays and in the
    comparison of a field (two mutants, both survived: both sides of every test held arrays). 8 == [8, 16] is an
    array, and all() asked it for one truth value: 'ValueError: The truth value of an array with more than one
    element is ambiguous'. A single size's result is not a sweep's, either way round."""
    single, sweep = scale(8, 2000, 0.9), scale([8, 16], 2000, 0.9)
    assert single != sweep and sweep != single
    assert not single == sweep and not sweep == single


def test_two_solutions_of_one_size_for_different_clusters_are_not_equal():
    """Mutant: Solution's == over its first two fields (solved, exact) alone (survived). 115,200 samples/s is 64
    devices at 2,000 a device and E 0.9 (57.6×) and 64 at 1,800 and E 1 (64×): one answer, two clusters."""
    at_09 = dpscale.solve(actual_throughput=115200, per_device_throughput=2000, efficiency=0.9)
    at_1 = dpscale.solve(actual_throughput=115200, per_device_throughput=1800, efficiency=1.0)
    assert (at_09.solved, at_09.exact) == (at_1.solved, at_1.exact) == ("devices", 64.0)
    assert at_09 != at_1 and not at_09 == at_1


def test_a_solution_of_numbers_stays_hashable():
    """Mutant: Solution's `__hash__ = tuple.__hash__` dropped (survived: only ScaleResult's hash was tested). A class
    that defines __eq__ alone gets __hash__ None: `{solve(…)}` raised 'TypeError: unhashable type: 'Solution'',
    which a named tuple of numbers never did."""
    a = dpscale.solve(devices=64, per_device_throughput=2000, efficiency=0.9)
    b = dpscale.solve(devices=64, per_device_throughput=2000, efficiency=0.9)
    assert hash(a) == hash(b) and len({a, b}) == 1


def test_predictions_of_two_fits_at_the_same_sizes_are_not_equal():
    """Mutant: FitPrediction's == over its first field (devices) alone (survived: the test compared one fit's
    predictions at different sizes). Runs 1:1,000 8:7,000 16:13,000 and 1:1,000 8:7,500 16:14,000 predict
    different throughputs at 64 and 128 devices."""
    slower = dpscale.fit([(1, 1000), (8, 7000), (16, 13000)], resamples=50).predict([64, 128])
    faster = dpscale.fit([(1, 1000), (8, 7500), (16, 14000)], resamples=50).predict([64, 128])
    assert list(slower.devices) == list(faster.devices) == [64, 128]
    assert slower != faster and not slower == faster


def test_critical_batches_of_one_batch_and_two_noise_scales_are_not_equal():
    """Mutant: CriticalBatch's == over its first slot (batch) alone (survived: the test compared batches). A batch
    of 256 at B_noise 2,000 takes 8.8125× the minimum steps (1 + 2,000/256 = 8.8125), at 4,000 16.625×."""
    at_2000, at_4000 = dpscale.critical_batch(256, 2000), dpscale.critical_batch(256, 4000)
    assert (at_2000.steps_factor, at_4000.steps_factor) == (8.8125, 16.625)
    assert at_2000 != at_4000 and not at_2000 == at_4000


def test_a_solution_without_notes_holds_an_empty_tuple():
    """Mutant: the run-time Solution's defaults ((),) → (None,) (survived). A solve that says nothing (the
    per-device throughput for 115,200 samples/s on 64 devices at E 0.9: 2,000) holds notes (), as typed
    (tuple[Note, ...]): `for n in s.notes` and `len(s.notes)` raised TypeError on None."""
    s = dpscale.solve(devices=64, actual_throughput=115200, efficiency=0.9)
    assert (s.solved, s.exact, s.notes) == ("per_device_throughput", 2000.0, ())
    assert dpscale.solve(devices=64, per_device_throughput=2000, efficiency=0.9).notes == ()
