"""Review GR: does predict's bottleneck column name the change that would raise E the most?

    python validation/experiments/bottleneck_counterfactuals.py          # the DDP grid (every preset: 2,688 sizes)
    python validation/experiments/bottleneck_counterfactuals.py --zero   # ZeRO 1-3 (768 sizes)

Each size is predicted again with the node's link twice as fast (--intra-bw), the network twice as fast (--inter-bw),
both hop latencies halved (--alpha-intra, --alpha-inter) and the synchronisation wait halved (c_c and c_h halved, a
Calibration through the library), compute held at the first prediction's rate. It prints how often the named lever
is the best, and the figures docs/predict.md ("Reading the bottleneck") gives. Nothing in src/ changes.
"""

from __future__ import annotations

import argparse
import collections
import itertools
from typing import Any

from dpscale import catalog, predict
from dpscale.formulas.stepmodel import DEFAULT

TOL = 0.005
SIZES = [8, 16, 64, 512]
RAW = {"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 12.5, "gpu": "a100-80gb"}
DDP_SYSTEMS = ["dgx1-v100", "dgx-a100", "dgx-h100", "pcie-a100-100gbe", "pcie-v100-25gbe", "aws-p4d", "gcp-a3-high"]
ZERO_SYSTEMS = ["dgx-a100", "dgx-h100", "aws-p4d"]
LEVER = {"intra-node link": "intra", "network": "net", "latency": "lat", "synchronisation wait": "wait"}
SECTIONS = ["link named", "wait named", "link column's lever gains < 0.002"]
HALF_WAIT = DEFAULT._replace(compute_jitter=DEFAULT.compute_jitter / 2, sync_hbm_passes=DEFAULT.sync_hbm_passes / 2)


def figures(cluster: dict[str, Any]) -> tuple[float, float, float]:
    """(intra GB/s, network GB/s, µs an intra-node hop) the cluster runs at: the figures each lever scales."""
    if "system" not in cluster:
        return cluster["intra_bw_gbs"], cluster["inter_bw_gbs"], DEFAULT.alpha_intra * 1e6
    s = catalog.table("systems")[cluster["system"]]
    hop = catalog.table("links")[s["intra_link"]].get("alpha_us", DEFAULT.alpha_intra * 1e6)
    return s["intra_bw_gbs"], s["inter_bw_gbs"], hop


def levers(sizes: list[int], cluster: dict[str, Any], **kw: Any) -> tuple[Any, Any, dict[str, Any]]:
    """(the first prediction, the same at its own rate, each lever's prediction): compute held at the first
    prediction's rate, so that only the lever moves E (tests/test_predict_bottleneck.py checks both)."""
    first = predict(sizes, **cluster, **kw)
    kw = dict(kw, throughput=first.per_device_throughput)
    intra, inter, hop = figures(cluster)
    changed = {
        "intra": {"intra_bw_gbs": 2 * intra},
        "net": {"inter_bw_gbs": 2 * inter},
        "lat": {"alpha_intra_us": hop / 2, "alpha_inter_us": DEFAULT.alpha_inter * 1e6 / 2},
        "wait": {"calibration": HALF_WAIT},
    }
    base = predict(sizes, **cluster, **kw)
    return first, base, {k: predict(sizes, **{**cluster, **kw, **x}) for k, x in changed.items()}


def gains(cluster: dict[str, Any], **kw: Any) -> list[tuple[dict, dict[str, float]]]:
    """(record, E gain of each lever) at every size."""
    _, base, other = levers(SIZES, cluster, **kw)
    e = {k: p.efficiency_values - base.efficiency_values for k, p in other.items()}
    return [(r, {k: float(v[i]) for k, v in e.items()}) for i, r in enumerate(base.records())]


def rows(zero: bool) -> list[tuple[dict, dict[str, float], str]]:
    """Every size of the grid, with its lever gains and the cluster's name."""
    out = []
    if zero:
        clusters = [{"system": s} for s in ZERO_SYSTEMS] + [RAW]
        models = ["gpt2-xl", "llama-7b", "llama-70b", "bert-large"]
        configs = itertools.product(clusters, models, (1, 2, 3), (True, False), (1, 4))
        for cl, m, z, ov, ga in configs:
            kw = {"model": m, "precision": "bf16", "batch": 4, "grad_accum": ga, "overlap": ov, "zero": z}
            out += [(r, g, cl.get("system", "raw")) for r, g in gains(cl, **kw)]
        return out
    clusters = [{"system": s} for s in DDP_SYSTEMS] + [RAW]
    models = list(catalog.table("models"))
    for cl, m, ov, ga in itertools.product(clusters, models, (True, False), (1, 4)):
        batch = 8 if catalog.table("models")[m]["params"] > 6e9 else 32
        kw = {"model": m, "precision": "amp", "batch": batch, "grad_accum": ga, "overlap": ov}
        out += [(r, g, cl.get("system", "raw")) for r, g in gains(cl, **kw)]
    return out


def counts(grid: list[tuple[dict, dict[str, float], str]]) -> tuple[collections.Counter, list[str]]:
    """The figures docs/predict.md gives ("Reading the bottleneck"), and a line for each size whose named link is
    beyond TOL of the best lever (tests/test_predict_bottleneck.py reads the doc's figures against them)."""
    c: collections.Counter = collections.Counter()
    beyond = []
    for r, g, system in grid:
        links = {k: g[k] for k in ("intra", "net", "lat")}
        best = max(links, key=links.__getitem__)
        named = LEVER[r["bottleneck"]]
        if named != "wait":
            c["link named"] += 1
            c["link named: its lever best"] += best == named
            c["link named: its lever within TOL of the best"] += links[named] >= links[best] - TOL
            if links[named] < links[best] - TOL:
                rounded = {k: round(v, 4) for k, v in g.items()}
                beyond.append(" ".join(map(str, ("beyond TOL:", system, r["devices"], r["bottleneck"], rounded))))
        else:
            c["wait named"] += 1
            c["wait named: on the DGX systems"] += system.startswith("dgx")
            c["wait named: halving the wait best"] += g["wait"] >= links[best]
            c["wait named: halving the wait within TOL of the best"] += g["wait"] >= links[best] - TOL
            big = r["exposed_comm_s"] > r["sync_wait_s"] / 2
            c["wait named: exposed > wait / 2"] += big
            half = f"wait named: a link gains half what halving the wait does, exposed {'>' if big else '<='} wait / 2"
            c[half] += links[best] >= g["wait"] / 2
        if g[LEVER[r["link"]]] < 0.002:
            c["link column's lever gains < 0.002"] += 1
            c["link column's lever gains < 0.002: hiding > 90 % of the all-reduce"] += (
                r["exposed_comm_s"] < 0.1 * r["allreduce_s"]
            )
            c["link column's lever gains < 0.002: bottleneck synchronisation wait"] += (
                r["bottleneck"] == "synchronisation wait"
            )
    return c, beyond


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--zero", action="store_true", help="the ZeRO 1-3 grid instead of DDP's")
    grid = rows(ap.parse_args().zero)
    c, beyond = counts(grid)
    for line in beyond:
        print(line)
    print(f"{len(grid)} sizes")
    for k, v in sorted(c.items(), key=lambda kv: SECTIONS.index(kv[0].split(":")[0])):  # (stable within one)
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
