"""Review 43, reviewer D: each test failed before its fix."""

from __future__ import annotations

import subprocess
import sys

import pytest

import dpscale
from dpscale import DpscaleError

ONE_NODE = dict(params=25.6e6, throughput=100.0, gpus_per_node=8, intra_bw_gbs=300)


def test_one_node_needs_no_network_figure():
    """Every size within one node (d ≤ gpus_per_node) crosses no network: k = 1 zeroes the network's terms, so
    the E the prediction gives cannot depend on it. `predict` refused such a raw cluster for a missing
    --inter-bw, while `validate` takes a single-node table without one (predict_validate.fabric). Property:
    no figure gives the same E as a slow (1 GB/s) and a fast (1,000 GB/s) one."""
    sizes = [1, 2, 4, 8]
    bare = dpscale.predict(sizes, **ONE_NODE).records()
    for inter in (1.0, 1000.0):
        typed = dpscale.predict(sizes, inter_bw_gbs=inter, **ONE_NODE).records()
        assert [r["efficiency"] for r in bare] == [r["efficiency"] for r in typed]
    assert bare[0]["efficiency"] == 1.0 and bare[-1]["efficiency"] < 1.0  # (8 devices do pay an all-reduce)


@pytest.mark.parametrize("extra", [dict(devices=[1, 8, 16]), dict(devices=[8], baseline_devices=16)])
def test_a_run_past_one_node_still_needs_the_network(extra):
    """16 devices on nodes of 8 (a size, or the measured baseline) cross the network: its figure is still asked."""
    with pytest.raises(DpscaleError, match=r"^inter_bw_gbs: missing; allowed: give system=NAME"):
        dpscale.predict(extra.pop("devices"), **extra, **ONE_NODE)


def test_cli_one_node_raw_cluster():
    """The CLI answers a one-node raw cluster (it exited 2 with '--inter-bw: missing')."""
    argv = ["predict", "--params", "25.6e6", "-v", "100", "--gpus-per-node", "8", "--intra-bw", "300", "-d", "1,8"]
    out = subprocess.run([sys.executable, "-m", "dpscale", *argv, "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
