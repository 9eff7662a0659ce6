"""Cases a mutation sweep found no test could fail on: each pins a number by hand, so a change to the line it
names (a bound, a term, a choice of min/max) fails here."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpscale import USL, DpscaleError, PerSize, fit, predict, scale, solve
from dpscale.errors import MAX_DEVICES
from dpscale.formulas.batch import global_batch
from dpscale.formulas.collectives import allreduce_time
from dpscale.formulas.plan import plan
from dpscale.sources.dataset import read_published
from dpscale.sources.fit_io import runs_from


def test_a_target_at_the_size_cap_is_found_at_the_cap():
    # With E = 1 everywhere (USL σ = κ = 0), S(d) = d: a target of exactly MAX_DEVICES (10,000,000) is reached at
    # 10,000,000 devices and no fewer. No power of two hits it (2^23 = 8,388,608 < 10^7 < 2^24), so solve's peak
    # search between 2^22 and the cap decides, and its last candidate is the cap itself (solve._peak's
    # range(lo, hi + 1): without the + 1 it named 9,999,999 and refused the target as 'not reached').
    r = solve(speedup=MAX_DEVICES, per_device_throughput=1.0, efficiency=USL(0.0, 0.0))
    assert r.result.devices == MAX_DEVICES == 10_000_000
    assert r.exact == 10_000_000.0


def test_a_global_batch_of_exactly_two_to_the_53_is_allowed():
    # The error says 'at most 2^53 samples': 2^26 × 2^27 × 1 = 2^53 is the largest allowed, one more device is not.
    assert global_batch(2**26, 2**27, 1) == 2**53 == 9_007_199_254_740_992
    with pytest.raises(DpscaleError, match="at most 2"):
        global_batch(2**26, 2**27, 2)


def test_the_default_knee_threshold_is_half_a_device():
    # S(1) = 1, S(2) = 2·1.0 = 2, S(4) = 4·0.74 = 2.96: the steps add 1.0 and (2.96 − 2)/2 = 0.48 of a device per
    # added device. 0.48 < 0.5 (KNEE_THRESHOLD), so the knee is at 2; a threshold of 0.45 would find none.
    p = plan(1e6, 1, 100.0, [1, 2, 4], efficiency=PerSize(((2, 1.0), (4, 0.74))))
    assert [pt.marginal_speedup for pt in p.points[1:]] == pytest.approx([1.0, 0.48])
    assert p.knee_threshold == 0.5
    assert p.knee == 2


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


@pytest.mark.parametrize(("usl_rmse", "chosen"), [(0.22, "usl"), (0.23, "allreduce")])
def test_a_rival_law_must_cut_the_mean_squared_error_to_a_twentieth_no_more_no_less(usl_rmse, chosen):
    # fit.SWITCH = 0.05 on the MSE: 0.22² = 0.0484 < 0.05·1² switches to the USL, 0.23² = 0.0529 does not (a
    # threshold of 0.045 would keep the default at 0.22; the existing case, 0.2² = 0.04, passes either way).
    from dpscale.sources.fit import Candidate, choose

    c = {
        "allreduce": Candidate("allreduce", None, 0.0, 1.0),
        "usl": Candidate("usl", None, 0.0, usl_rmse),
        "amdahl": Candidate("amdahl", None, 0.0, 5.0),
    }
    assert choose(c, None)[0] == chosen


def test_devices_for_agrees_with_a_search_over_every_whole_size():
    # Amdahl data (σ = 0.002) fitted by Amdahl: the answer must be the exhaustive one over the fit's own E, for sizes
    # in the hundreds where the coarse grid skips devices and the refinement between grid points decides (its range
    # must include both ends: without the last, 0.75 answered ∞ for 167 and 20,000/s ∞ for 333).
    d = np.array([1, 2, 4, 8, 16, 32])
    f = fit(devices=d, throughput=100.0 * d / (1 + 0.002 * (d - 1)), law="amdahl", resamples=50)
    grid = np.arange(1, 20_001)
    e = f.efficiency(grid.astype(float))
    for target in (0.9, 0.75, 0.6, 0.4):
        assert f.devices_for(efficiency=target)["devices"] == grid[e >= target].max()
    for rate in (2e4, 3e4, 4.5e4):  # X(d) = X(1)·d·E(d), X(1) = 100/s
        assert f.devices_for(throughput=rate)["devices"] == grid[100.0 * grid * e >= rate].min()


def test_one_device_names_no_link_in_the_predicted_records():
    # A single device all-reduces nothing: its row's link is 'none (one device)', as its bottleneck is (every term
    # is 0 there, and the largest of three zeros named 'intra-node link' when the d ≤ 1 check slipped).
    recs = predict([1, 8], model="bert-large", precision="amp", batch=32, throughput=150, system="dgx-a100").records()
    assert recs[0]["allreduce_s"] == 0.0
    assert recs[0]["link"] == recs[0]["bottleneck"] == "none (one device)"
    assert recs[1]["link"] != "none (one device)"


ROW = {
    "cfg": "c", "baseline_devices": "1", "grad_accum": "1", "units_per_sample": "1", "system": "dgx-a100",
    "gpus_per_node": "8", "intra_bw_gbs": "300", "inter_bw_gbs": "100", "model": "m", "precision": "fp32",
    "per_device_batch": "32", "devices": "1", "throughput": "100", "params_millions": "25",
}  # fmt: skip


def published(path, *rows: dict[str, str]):
    """A published-measurements CSV of ROW changed by each dict in turn, read back."""
    path.write_text("\n".join([",".join(ROW), *(",".join({**ROW, **r}.values()) for r in rows)]) + "\n")
    return read_published(path)


@pytest.mark.parametrize(("column", "value"), [("throughput", "0"), ("intra_bw_gbs", "0.001")])
def test_a_published_figure_at_its_floor_is_refused(tmp_path, column, value):
    # dataset._num's floors are exclusive: a throughput must be > 0 (0 would make E = 0 and the step infinite), a
    # link > 0.001 GB/s (FLOORS; 0 itself reads as blank): x <= lo is refused, not only x < lo.
    path = tmp_path / "runs.csv"
    assert [r.devices for r in published(path, {}, {"devices": "8"})[0].rows] == [1, 8]
    with pytest.raises(DpscaleError, match=rf"line 3, column '{column}': got '{value}'"):
        published(path, {}, {"devices": "8", column: value})


def test_a_row_one_device_below_the_baseline_is_refused(tmp_path):
    # E is relative to baseline_devices, the configuration's smallest size: 7 devices against a baseline of 8 would
    # read E > 1 for a slower run. The bound is devices < d0 (7 < 8), not only sizes further below.
    base = {"baseline_devices": "8", "devices": "8"}
    with pytest.raises(DpscaleError, match=r"line 3, column 'devices': got 7; allowed: at least 8"):
        published(tmp_path / "runs.csv", base, {**base, "devices": "7", "throughput": "95"})


def test_a_configurations_rows_are_sorted_by_size_baseline_first(tmp_path):
    # Written 1, 16, 8, 2 in the file: Config.rows is the baseline, then 2, 8, 16 (E is read and predicted by size).
    rows = published(tmp_path / "runs.csv", {}, {"devices": "16"}, {"devices": "8"}, {"devices": "2"})[0].rows
    assert [r.devices for r in rows] == [1, 2, 8, 16]
    assert [r.line for r in rows] == [2, 5, 4, 3]


def test_the_rounding_note_shows_the_fraction_that_was_rounded():
    # E = 1: S = d, so a target of 99,999.9999 needs exactly that many devices, rounded up to 100,000. The note says
    # so with as many decimals as the fraction needs (4 here; 2 would print '100,000.00', which reads as d itself),
    # and a fraction of 1e-9 of the size is a rounding, not float noise (NOISE = 1e-12).
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


def test_repeated_runs_average_their_step_times():
    # Two runs at one device, 0.5 s and 0.7 s a step: the size's step time is their mean, 0.6 s.
    assert runs_from([(1, 100, 0.5), (1, 100.5, 0.7), (2, 190, 0.6)]).step_time == pytest.approx((0.6, 0.6))


def test_runs_up_to_twice_linear_are_kept():
    # E = 390/(2·100) = 1.95 is superlinear but within MAX_SOLVED_E = 2; 2.1 (420/s) is the unit slip refused.
    assert runs_from([(1, 100), (2, 390)]).throughput == (100.0, 390.0)
    with pytest.raises(DpscaleError, match="E = 2.1"):
        runs_from([(1, 100), (2, 420)])


def test_fewer_ranks_than_a_node_holds_form_a_ring_of_those_ranks():
    # 4 ranks on 8-GPU nodes: one node, g = min(4, 8) = 4, so the hierarchical (= ring) all-reduce of 1 GB at
    # 100 GB/s moves 2·3/4 of it: 0.015 s (g = 8 would charge 2·7/8, 0.0175 s).
    assert allreduce_time(1e9, 4, 8, 100.0, 50.0, algorithm="hierarchical") == pytest.approx(0.015)
    assert allreduce_time(1e9, 4, 8, 100.0, 50.0) == pytest.approx(0.015)


# -- formulas/collectives.py ----------------------------------------------------------------------------------------


def test_twelve_ranks_on_eight_gpu_nodes_are_two_nodes():
    """Kills nodes' k = ⌈p/g⌉ → ⌊p/g⌋ and allreduce_terms' default algorithm changed from the hierarchical.

    12 ranks on 8-GPU nodes: g = 8, k = ⌈12/8⌉ = 2 (docs/predict.md: '⌈d/g⌉ nodes of g'). The hierarchical all-reduce
    of 1 GB (no latency) is 2·7/8·1e9 / 100 GB/s = 0.0175 s inside the node and 2·1/2·1e9 / 50 GB/s = 0.02 s across
    the two nodes' NICs: 0.0375 s. ⌊12/8⌋ = 1 node would drop the network phase."""
    from dpscale.formulas.collectives import allreduce_terms

    assert allreduce_time(1e9, 12, 8, 100.0, 50.0, algorithm="hierarchical") == pytest.approx(0.0375, rel=1e-12)
    assert allreduce_terms(1e9, 12, 8, 100.0, 50.0) == pytest.approx((0.0, 0.0175, 0.02), rel=1e-12)


@pytest.mark.parametrize(("algorithm", "seconds"), [("ring", 0.0175), ("tree", 0.02)])
def test_inside_one_node_no_algorithm_charges_the_network(algorithm, seconds):
    """Kills allreduce_terms' `net = (k > 1) & …` loosened to k ≥ 1.

    8 ranks on one 8-GPU node with a slower network figure (50 < 100 GB/s): nothing leaves the node, so all the
    bandwidth time is NVLink's — the ring 2·7/8·1e9 / 100 GB/s = 0.0175 s, the tree's chain 2·1e9 / 100 GB/s = 0.02 s
    — and the network's share is 0 (with k ≥ 1 it was all charged to the network, naming the wrong link)."""
    from dpscale.formulas.collectives import allreduce_terms, bandwidth_terms

    assert allreduce_terms(1e9, 8, 8, 100.0, 50.0, algorithm=algorithm) == pytest.approx((0.0, seconds, 0.0))
    assert bandwidth_terms(1e9, 8, 8, 100.0, 50.0, algorithm) == pytest.approx((seconds, 0.0))


def test_allreduce_time_takes_the_fastest_algorithm_by_default():
    """Kills allreduce_time's default algorithm "auto" changed to a fixed one (the hierarchical).

    64 ranks, one GPU a node, 10 GB/s links, 1 ms per network hop, 1 MB: the hierarchical (= the flat ring here) pays
    2·63 = 126 hops, 0.126 s + 2·63/64·1e6/1e10 s = 0.12619688 s; NCCL's tree pays 2·log2(64) = 12 hops and 2S/B:
    0.012 + 0.0002 = 0.0122 s. Called without an algorithm, the fastest (the tree) is charged."""
    args = (1e6, 64, 1, 10.0, 10.0, 0.0, 1e-3)
    assert allreduce_time(*args, algorithm="hierarchical") == pytest.approx(0.126 + 2 * 63 / 64 * 1e-4, rel=1e-12)
    assert allreduce_time(*args) == pytest.approx(0.0122, rel=1e-12)


@pytest.mark.parametrize("name", ["Ring", "bogus", "double-tree"])
def test_an_unknown_algorithm_is_refused_not_run_as_a_ring(name):
    """Kills allreduce_time's `algorithm not in ALGORITHMS` check dropped (an unknown name fell through to the ring).

    'Ring' is not 'ring': the error names the parameter (not a flag: this is the library) and the allowed names."""
    with pytest.raises(DpscaleError, match=r"^algorithm: got .*; allowed: auto, ring, hierarchical, tree"):
        allreduce_time(1e9, 16, 8, 100.0, 50.0, algorithm=name)


def test_the_a100_ring_fill_reproduces_the_published_mid_size_busbw():
    """Kills the ring fill's τ = 11.2 µs or S_f = 10 MiB moved by 10 % (DEFAULT.ring_fill, FILL_BYTES).

    physics.md §1.4: 8× A100 nccl-tests reach 106 GB/s busbw at 16 MiB and 138 at 32 MiB; docs/predict.md derives
    τ and S_f from exactly these two figures. By hand, an 8-GPU ring at 0.8 × 300 = 240 GB/s pays 8.4 µs + 14 hops of
    3.4 µs, 2·7/8·S/240 GB/s and 14·τ·S/(S + S_f): 274.8 µs at 16 MiB (busbw 1.75·S/T = 106.8 GB/s) and 420.1 µs at
    32 MiB (139.8 GB/s), within 1.3 % of the published figures (given to 3 digits). τ = 12.3 µs gives 103.2 (−2.6 %),
    S_f = 11 MiB 108.2 (+2.1 %); 1.5 % tells them apart."""
    from dpscale.formulas.collectives import bus_bandwidth
    from dpscale.formulas.stepmodel import DEFAULT

    mib = 2**20
    sizes = np.array([16, 32]) * mib
    by_hand = 8.4e-6 + 14 * 3.4e-6 + 1.75 * sizes / 240e9 + 14 * 11.2e-6 * sizes / (sizes + 10 * mib)
    c = DEFAULT
    t = c.alpha_base + allreduce_time(sizes, 8, 8, c.eta_intra * 300, 1, c.alpha_intra, 0, "auto", c.ring_fill,
                                      c.ring_fill_bytes)  # fmt: skip
    assert t == pytest.approx(by_hand, rel=1e-12)
    assert bus_bandwidth(sizes, t, 8) == pytest.approx([106.0, 138.0], rel=0.015)


# -- formulas/stepmodel.py ------------------------------------------------------------------------------------------


def test_an_unknown_gpus_memory_is_taken_as_two_terabytes_a_second():
    """Kills step_time's default hbm_tbs (DEFAULT_HBM_TBS = 2.0, 'A100-class when the GPU is unknown') moved by 10 %.

    Two devices, 0.1 s of compute, 1 GB of gradients: the wait is m(2)·(c_c·0.1 + c_h·1e9 / 2e12), Blom's
    m(2) = Φ⁻¹((2 − 0.375)/(2 + 0.25)) = Φ⁻¹(0.72222) = 0.58946, c_c = 0.025, c_h = 25 (docs/predict.md):
    0.58946·(0.0025 + 0.0125) = 0.0088419 s."""
    from statistics import NormalDist

    from dpscale.formulas.stepmodel import step_time

    m2 = NormalDist().inv_cdf(1.625 / 2.25)
    assert m2 == pytest.approx(0.58946, abs=1e-5)
    b = step_time(2, 0.1, 1e9, 8, 300.0, 100.0)
    assert b.sync_wait_s[0] == pytest.approx(m2 * (0.025 * 0.1 + 25 * 1e9 / 2e12), rel=1e-12)


def test_a_one_device_baseline_step_is_split_among_its_micro_batches():
    """Kills micro_step_from_baseline's t0 = T0 / ga → T0 (a one-device baseline returns t0 as it is).

    A measured optimizer step of 0.8 s at one device with 4 micro-batches: each micro-batch computes 0.2 s, and the
    predicted one-device step is the measured 0.8 s (compute = ga·t_µ, nothing to wait for or all-reduce)."""
    from dpscale.formulas.stepmodel import micro_step_from_baseline

    assert micro_step_from_baseline(0.8, 1, 4) == 0.2
    kw = dict(params=1e8, step_time_s=0.8, grad_accum=4, gpus_per_node=8, intra_bw_gbs=300, inter_bw_gbs=100)
    one = predict([1, 8], **kw).records()[0]
    assert (one["compute_s"], one["step_s"]) == pytest.approx((0.8, 0.8), rel=1e-12)


# -- sources/fit.py -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("gap", "missed"), [(0.105, True), (0.095, False)])
def test_a_law_more_than_a_tenth_off_a_measured_log_e_says_it_misses(gap, missed):
    """Kills fit_notes.MISFIT = 0.1 moved by 10 % (to 0.11 or 0.09).

    Amdahl cannot rise above E = 1, so runs at 1 and 2 devices with E(2) = e^gap (superlinear) leave it at s = 0,
    E = 1, off the measured point by |Δ log E| = gap: 0.105 > 0.1 is a miss and is said, 0.095 is not."""
    x2 = 2 * 100.0 * math.exp(gap)  # 222.14/s, 220.0/s
    f = fit([(1, 100.0), (2, x2)], law="amdahl", resamples=50)
    assert f.values[0] == pytest.approx(0.0, abs=1e-9)
    said = [str(w) for w in f.warnings if "misses the measured E" in str(w)]
    text = (
        f"the amdahl law misses the measured E at 2 devices ({math.exp(gap):.3f}; the law: 1.000) — its shape cannot "
        "follow the data; try another --law, or measure more sizes"
    )
    assert said == ([text] if missed else [])


def test_a_prediction_at_exactly_four_times_the_largest_size_is_not_beyond_it():
    """Kills extrapolation_warnings' `x > EXTRAPOLATE·top` loosened to ≥, and its list cut at 5 sizes moved.

    Runs up to 32 devices: 128 = 4 × 32 is not beyond 4×, 129 is. Six sizes past it list the first five and '…'."""
    d = np.array([1, 2, 4, 8, 16, 32])
    f = fit(devices=d, throughput=100.0 * d / (1 + 0.01 * (d - 1)), law="amdahl", resamples=50)
    assert f.extrapolation_warnings([128]) == []
    assert [str(w) for w in f.extrapolation_warnings([129])] == [
        "extrapolating to 129 devices, beyond 4× the largest measured size (32): the law is an assumption there — "
        "measure closer before you buy"
    ]
    five = str(f.extrapolation_warnings([200, 300, 400, 500, 600])[0])
    six = str(f.extrapolation_warnings([200, 300, 400, 500, 600, 700])[0])
    assert five.startswith("extrapolating to 200; 300; 400; 500; 600 devices,")
    assert six.startswith("extrapolating to 200; 300; 400; 500; 600… devices,")


def test_a_usl_whose_contention_exceeds_one_peaks_at_one_device():
    """Kills _peak_of's clip of σ to ≤ 1 before √((1 − σ)/κ) (σ > 1 gave NaN, read as 'no peak').

    USL σ = 1.5, κ = 0.01 at 1, 2, 4, 8 devices: X(2)/X(1) = 2/(1 + 1.5 + 0.02) = 0.79 < 1, throughput falls from the
    first device on, so the peak is one device — not 'throughput still rising'."""
    d = np.array([1, 2, 4, 8])
    x = 100.0 * d / (1 + 1.5 * (d - 1) + 0.01 * d * (d - 1))
    f = fit(devices=d, throughput=x, law="usl", resamples=50)
    assert f.values[0] > 1
    assert f.peak()["devices"] == 1.0


def test_the_leave_one_out_score_is_a_root_mean_square():
    """Kills _loo's √ dropped (the mean square reported as the RMSE, and squared again by choose's MSE test).

    Amdahl on E(2) = 1/1.1 (s = 0.1) and E(4) = 1/1.6 (s = 0.2): one parameter, so each leave-one-out fit passes
    exactly through the point kept. Without d = 2, s = 0.2 predicts log(1.1/1.2) = −0.0870 there; without d = 4,
    s = 0.1 predicts log(1.6/1.3) = 0.2076: RMSE √((0.0870² + 0.2076²)/2) = 0.1592."""
    f = fit([(1, 100.0), (2, 200 / 1.1), (4, 400 / 1.6)], resamples=50)
    expect = math.sqrt((math.log(1.1 / 1.2) ** 2 + math.log(1.6 / 1.3) ** 2) / 2)
    assert f.candidates["amdahl"].loo_rmse == pytest.approx(expect, rel=1e-4)
    assert f.runner_up == "amdahl" and f"runner-up: amdahl (leave-one-out RMSE {expect:.4f})" in f.summary()


def test_exactly_the_cell_limit_is_allowed_and_a_confidence_of_zero_is_not():
    """Kills check_cells' `>` loosened to ≥ (20,000,000 cells is 'at most', allowed) and fit's 0 < confidence → ≤."""
    from dpscale.sources.fit import check_cells

    check_cells(20_000, 1_000)  # = MAX_CELLS: allowed
    with pytest.raises(DpscaleError, match=r"20,001 resamples × 1,000 sizes = 20,001,000 values; allowed: at most"):
        check_cells(20_001, 1_000)
    for level in (0, 0.0, 1):
        with pytest.raises(DpscaleError, match=r"confidence: got .*; allowed: a level in \(0, 1\)"):
            fit([(1, 100.0), (2, 190.0)], confidence=level, resamples=50)


def test_three_sizes_with_repeats_are_not_called_too_few():
    """Kills _warnings' `n < 3` (sizes) for the repeated-runs note moved to n < 4, and the superlinear test E > 1
    loosened to E ≥ 1.

    Sizes 1, 2, 4 (the first run twice) are the 3 sizes the note asks for; E(2) = 200/(2·100) = 1 exactly is perfect
    scaling, not superlinear."""
    f = fit([(1, 100.0), (1, 100.5), (2, 200.25), (4, 380.0)], resamples=50)
    keys = [w.key for w in f.warnings if hasattr(w, "key")]
    assert "few_sizes_repeats" not in keys and "few_sizes" not in keys
    assert "superlinear_points" not in [w.key for w in fit([(1, 100.0), (2, 200.0), (4, 380.0)], resamples=50).warnings]


def test_a_coherency_term_of_half_a_percent_is_not_degenerate():
    """Kills _warnings' bound test `q < 1e-3·max(1, Σq)` moved to 1e-2 (a κ of 0.5 % of the step called 0), and the
    degenerate-σ note dropped.

    Exact USL, σ = 0.02, κ = 0.005 / (32·31) at 1–32 devices: κ·d(d − 1) is 0.5 % of the compute time at 32, five
    times the 0.1 % the note names, so no 'degenerate' note."""
    d = np.array([1, 2, 4, 8, 16, 32])
    kappa = 0.005 / (32 * 31)
    f = fit(devices=d, throughput=100.0 * d / (1 + 0.02 * (d - 1) + kappa * d * (d - 1)), law="usl", resamples=50)
    assert f.values == pytest.approx([0.02, kappa], rel=1e-2)  # (the weak ridge: 0.2 %)
    assert not [w for w in f.warnings if w.key.startswith("degenerate")]
    # and σ = 0 exactly (κ = 1e-4) is the degenerate other way round: said as such
    f = fit(devices=d, throughput=100.0 * d / (1 + 1e-4 * d * (d - 1)), law="usl", resamples=50)
    assert [w.key for w in f.warnings if w.key.startswith("degenerate")] == ["degenerate_sigma"]


def test_a_baseline_of_eight_devices_predicts_with_the_per_device_rate():
    """Kills predict's point A = d·(X(d0)/d0)·E → d·X(d0)·E (the same when d0 = 1, 8× too high from a node).

    Amdahl relative to d0 = 8, s = 0.01: T(d) ∝ 1 + 0.01(d − 1), X(d) = 100·d / (1 + 0.01(d − 1)), X(8) = 747.66/s.
    The fit recovers s, so at the measured 32 devices the point is X(32) = 3200/1.31 = 2442.7/s, and the default
    run uses 1000 resamples."""
    d = np.array([8, 16, 32, 64])
    f = fit(devices=d, throughput=100.0 * d / (1 + 0.01 * (d - 1)), law="amdahl")
    assert f.samples.shape[0] == 1000
    assert f.per_device_throughput == pytest.approx(800 / 1.07 / 8, rel=1e-12)
    assert f.predict(32).throughput[0] == pytest.approx(3200 / 1.31, rel=1e-5)
    # E relative to d0 in step times says nothing of seconds unless the law is the all-reduce one
    steps = [(int(n), float(x), 0.5 * (1 + 0.01 * (n - 1))) for n, x in zip(d, 100.0 * d / (1 + 0.01 * (d - 1)))]
    assert fit(steps, law="usl", resamples=50).seconds() is None


def test_a_fit_of_two_hundred_sizes_at_most_resamples_is_refused_before_it_starts():
    """Kills fit's cell check counting the measured sizes without the baseline's redraw (len + 1 → len).

    Each resample redraws every one of 200 sizes and the baseline again: 100,000 × 201 = 20,100,000 > 20,000,000."""
    d = np.arange(1, 201)
    with pytest.raises(DpscaleError, match=r"100,000 resamples × 201 sizes = 20,100,000 values"):
        fit(devices=d, throughput=100.0 * d, resamples=100_000)
