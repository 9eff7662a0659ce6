"""Cases a fourth mutation sweep (session 28: sources.fit*, laws, dataset, predict_validate, faces.output and the
CLI's number and size parsing; 212 mutants, 26 non-equivalent survivors) found no test could fail on. Each expected
value is derived in its comment."""

from __future__ import annotations

import json

import pytest
from clihelp import run

import dpscale
from dpscale.errors import DpscaleError
from dpscale.faces.cli.common import bandwidth, parse_devices
from dpscale.sources.fit_io import parse_point, read_csv_unit


def test_bandwidth_units_scale_by_their_prefix_and_bits():
    """0.9 TB/s is 900 GB/s; 1.6 Tb/s is 1,600 Gb/s ÷ 8 = 200 GB/s (a TB/s read as 100 GB/s was 10× off)."""
    assert bandwidth("0.9TB/s", "--inter-bw") == pytest.approx(900.0)
    assert bandwidth("1.6Tb/s", "--inter-bw") == pytest.approx(200.0)


def test_geometric_ranges_round_each_size_and_drop_repeats():
    """8·1.5^k rounded: 8, 12, 18, 27, 40.5 → 40 (banker's), 60.75 → 61, 91.1, 136.7, 205.0, 307.5 → 308, 461.3,
    692.0 (truncation gave 60, 136, 307, 691); 1..5x1.3 rounds to 1, 1, 2, 2, 3, 4, 5 → each size once."""
    assert parse_devices("8..1024x1.5") == [8, 12, 18, 27, 40, 61, 91, 137, 205, 308, 461, 692]
    assert parse_devices("1..5x1.3") == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("text", ["0..4", "8..20000000x2", "1,20000000"])
def test_sizes_outside_one_to_ten_million_are_refused_by_the_parser(text):
    with pytest.raises(DpscaleError, match="allowed: whole numbers from 1 to 10,000,000"):
        parse_devices(text)


def test_usl_kappa_alone_means_usl_with_no_contention(capsys):
    """--kappa alone is the USL with σ = 0: E(64) = 1 / (1 + 1e-4 · 64 · 63) = 0.71266."""
    rc, out, err = run(capsys, "calc", "-d", "64", "-v", "100", "--kappa", "1e-4", "--json")
    assert rc == 0 and json.loads(out)["efficiency"] == pytest.approx(1 / (1 + 1e-4 * 64 * 63), rel=1e-9)


def test_an_empty_list_part_is_refused(capsys):
    rc, _, err = run(capsys, "calc", "-d", "8,64", "-v", "100", "-e", "0.9,,0.8")
    assert rc == 2 and "--efficiency: got '0.9,,0.8'" in err


@pytest.mark.parametrize("x", [1e-12, 5e15])
def test_a_run_throughput_outside_its_stated_bounds_is_refused(x):
    with pytest.raises(DpscaleError, match="throughput: got .*; allowed: a number from 1e-9 to 1e15"):
        dpscale.fit([(1, x), (2, 1.9 * x), (4, 3.6 * x)])


def test_a_point_of_four_parts_is_refused():
    """D:X:T is the longest form; a fourth part once dropped the step time without a word."""
    with pytest.raises(DpscaleError, match="allowed: DEVICES:THROUGHPUT"):
        parse_point("8:5120:0.25:7")


def test_a_csv_with_a_trailing_comma_on_each_line_is_read():
    runs, _ = read_csv_unit("devices,throughput\n1,100,\n2,190,\n4,360,\n", "t.csv")
    assert [(r.devices, r.throughput) for r in runs] == [(1, 100.0), (2, 190.0), (4, 360.0)]


def test_a_table_e_at_one_device_must_be_one_to_the_billionth():
    with pytest.raises(DpscaleError, match="got 0.9995; allowed: E = 1 at one device"):
        dpscale.PerSize.of([1, 8], [0.9995, 0.9])


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
