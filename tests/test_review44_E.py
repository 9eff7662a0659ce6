"""Review 44, reviewer E: scale()'s result and the E(d) functions it reads, from a notebook."""

from __future__ import annotations

import json

import numpy as np
import pytest

import dpscale
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
    assert json.dumps(dpscale.scale([1, 8], 2000, dpscale.Amdahl(0.01)).records())  # a law's rows too
    assert dpscale.scale(64, 2000, 0.9).records() == rows  # asked twice, the same rows (a generator was spent)


def test_solution_and_calc_still_read_the_rows(capsys):
    """solve's records and calc's rows are built on scale's: the same worked example through both."""
    assert dpscale.solve(64, 2000, 0.9).record()["actual_throughput"] == pytest.approx(115_200)
    assert main(["calc", "-d", "64", "-v", "2000", "-e", "0.9", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == _approx(WORKED)
    assert main(["calc", "-d", "1,64", "-v", "2000", "-e", "0.9", "--json"]) == 0
    assert [r["speedup"] for r in json.loads(capsys.readouterr().out)] == pytest.approx([1.0, 57.6])
