"""`dpscale plan --price-per-node-hour P --gpus-per-node G`: clouds bill whole instances (an AWS p4d.24xlarge, 8 ×
A100 40 GB, at 32.77 an hour), not devices. Plan took only a price per device-hour (review IW): a node's price typed
as --price came out 8× too high, unsaid, and a size that fills no whole number of nodes (12 on 8-GPU nodes) rents 2
of them, which d × price does not see — so the cheapest size and the budget's pick were not the cheapest ones."""

from __future__ import annotations

import pytest

from dpscale.errors import DpscaleError
from dpscale.formulas.plan import Price, cost, nodes, plan


def test_a_node_hour_prices_whole_nodes_for_the_hours():
    """8 devices for 24 h on one 8-GPU node: 32.77 × 24 = 786.48; 12 devices rent 2 nodes: 2 × 32.77 × 24 =
    1,572.96, not 12 × 24 × 4.09625 = 1,179.72."""
    assert (nodes(8, 8), nodes(12, 8), nodes(1, 8), nodes(16, 8), nodes(17, 8)) == (1, 2, 1, 2, 3)
    assert cost(8, 24.0, Price(32.77, 8)) == pytest.approx(786.48, abs=1e-9)
    assert cost(12, 24.0, Price(32.77, 8)) == pytest.approx(1572.96, abs=1e-9)
    assert cost(12, 24.0, Price(4.09625)) == pytest.approx(1179.72, abs=1e-9)  # per device: the idle 4 unpaid


def test_the_library_refuses_what_the_flags_refuse():
    kw = {"samples": 691200, "epochs": 1, "throughput": 1, "devices": [8]}
    with pytest.raises(DpscaleError, match=r"^price_per_device_hour and price_per_node_hour: give one price, not both"):
        plan(**kw, price_per_device_hour=4, price_per_node_hour=32.77, gpus_per_node=8)
    with pytest.raises(DpscaleError, match=r"^price_per_node_hour: needs gpus_per_node"):
        plan(**kw, price_per_node_hour=32.77)
    with pytest.raises(DpscaleError, match=r"^gpus_per_node: only with price_per_node_hour"):
        plan(**kw, price_per_device_hour=4, gpus_per_node=8)
    with pytest.raises(DpscaleError, match=r"^price_per_node_hour: got 0; allowed"):
        plan(**kw, price_per_node_hour=0, gpus_per_node=8)
    with pytest.raises(DpscaleError, match=r"^gpus_per_node: got 8.5"):
        plan(**kw, price_per_node_hour=32.77, gpus_per_node=8.5)
    p = plan(**kw, price_per_node_hour=32.77, gpus_per_node=8, budget=786.48).points[0]
    assert (p.nodes, round(p.cost, 2)) == (1, 786.48)
