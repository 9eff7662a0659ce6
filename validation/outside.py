"""Published efficiencies no other set holds, predicted by the shipped model: `python validation/outside.py`.

Session 31's outside checks (docs/predict_report.md, "An outside check"): scaling figures from sources none of the
calibration or hold-out files uses — the Horovod benchmark, a Dell EMC reference guide, Goyal et al. 2017,
torchtitan's and KempnerForge's FSDP tables, OneFlow's GPT table. `outside.md` gives each source, its quote and
what had to be assumed (a cluster the source half-describes, a one-GPU rate from another table, or none: the FLOPs
estimate). Each point is E against the source's own baseline size d0, predicted as E(d) / E(d0). A check set,
never calibrated on: it is reported, not fitted.
"""

from __future__ import annotations

import statistics
from typing import Any, NamedTuple

import numpy as np

import dpscale

# Horovod's "4 Pascal GPUs" a server on one 25 Gb/s RoCE NIC: P100s on PCIe 3 assumed (the source names neither)
HOROVOD = dict(gpu="p100-16gb", gpus_per_node=4, intra_bw_gbs=15.75, inter_bw_gbs=3.125, inter_link="eth-25g")
# Dell EMC's eight C4140 nodes of 4 × V100-PCIe on EDR InfiniBand (one port a node assumed)
DELL = dict(gpu="v100-16gb", gpus_per_node=4, intra_bw_gbs=15.75, inter_bw_gbs=12.5)
TT = dict(model="llama3-8b", batch=2, seq_len=8192, zero=3)  # torchtitan's Llama 3.1 8B runs
ONEFLOW_RUNS = ((8, 38.28), (16, 65.35), (32, 123.4))  # OneFlow's GPT: samples/s of the run, 4.92 on one V100


class Case(NamedTuple):
    group: str
    name: str
    d0: int
    measured: dict[int, float]  # E at d against d0, as the source gives it
    kw: dict[str, Any]  # dpscale.predict's arguments; a `throughput` is per device at d0, else FLOPs


CASES = [
    Case("cnn", "Horovod Inception V3", 1, {128: 0.90, 512: 0.90},
         dict(params=23.85e6, batch=64, throughput=142, **HOROVOD)),
    Case("cnn", "Horovod ResNet-101", 1, {128: 0.90, 512: 0.90},
         dict(model="resnet101", batch=64, throughput=125, **HOROVOD)),
    Case("cnn", "Horovod VGG-16", 1, {128: 0.79, 512: 0.68}, dict(model="vgg16", batch=64, throughput=154, **HOROVOD)),
    Case("cnn", "Dell MXNet FP32", 1, {32: 29.4 / 32}, dict(model="resnet50", batch=64, **DELL)),
    Case("cnn", "Dell MXNet FP16", 1, {32: 25.8 / 32}, dict(model="resnet50", precision="amp", batch=64, **DELL)),
    Case("cnn", "Dell TensorFlow FP32", 1, {32: 22.0 / 32}, dict(model="resnet50", batch=128, **DELL)),
    Case("cnn", "Dell TensorFlow FP16", 1, {32: 23.7 / 32}, dict(model="resnet50", precision="amp", batch=128, **DELL)),
    Case("cnn", "Dell Caffe2 FP32", 1, {32: 26.5 / 32}, dict(model="resnet50", batch=64, **DELL)),
    Case("cnn", "Dell Caffe2 FP16", 1, {32: 27.3 / 32}, dict(model="resnet50", precision="amp", batch=64, **DELL)),
    Case("cnn", "Goyal et al. ResNet-50", 8, {256: 0.90},
         dict(model="resnet50", batch=32, system="dgx1-p100", inter_bw_gbs=6.25, inter_link="eth-50g")),
    Case("transformer", "torchtitan H100 FSDP", 8, {128: 5605 / 5762},
         dict(precision="bf16", grad_bytes_per_param=4, throughput=5762 / 8192, system="dgx-h100", **TT)),
    Case("transformer", "torchtitan H100 FSDP compiled", 8, {128: 6514 / 6667},
         dict(precision="bf16", grad_bytes_per_param=4, throughput=6667 / 8192, system="dgx-h100", **TT)),
    Case("transformer", "torchtitan H100 FSDP Float8", 8, {128: 8380 / 8532},
         dict(precision="fp8", throughput=8532 / 8192, system="dgx-h100", **TT)),
    Case("transformer", "torchtitan H200 FSDP Float8 (Trainy)", 32, {64: 10753 / 10938},
         dict(precision="fp8", gather_bytes_per_param=1, throughput=10938 / 8192, system="hgx-h200", **TT)),
    Case("transformer", "KempnerForge 8 B FSDP, 4 H200s a node", 1, {2: 18728 / 2 / 10471, 4: 38983 / 4 / 10471},
         dict(model="llama3-8b", precision="bf16", grad_bytes_per_param=4, batch=4, grad_accum=2, seq_len=4096,
              zero=3, throughput=10471 / 4096, system="hgx-h200", gpus_per_node=4)),
    Case("transformer", "OneFlow GPT 534 M, DDP", 1, {d: x / d / 4.92 for d, x in ONEFLOW_RUNS},
         dict(params=534e6, precision="amp", batch=2, seq_len=2048, throughput=4.92, system="dgx1-v100",
              inter_bw_gbs=12.5)),
]  # fmt: skip


class Point(NamedTuple):
    group: str
    name: str
    devices: int
    measured: float
    predicted: float
    lo: float
    hi: float


def points() -> list[Point]:
    """Every case's sizes, predicted against its d0: a measured rate is given at d0; without one (the FLOPs
    estimate) d0 > 1 is predicted from one device, and E(d) / E(d0) is what the source's table would print."""
    out = []
    for c in CASES:
        sizes = [c.d0, *c.measured]
        at = c.d0 if "throughput" in c.kw else 1
        p = dpscale.predict(sizes, baseline_devices=at, **c.kw)
        e0 = p.efficiency_values[0]
        lo, hi = (x / e0 for x in p.band())
        for i, (d, m) in enumerate(c.measured.items(), start=1):
            out.append(Point(c.group, c.name, d, m, float(p.efficiency_values[i] / e0), float(lo[i]), float(hi[i])))
    return out


def summary(ps: list[Point]) -> tuple[float, float, float]:
    """(median, 90th percentile (nearest rank, as fsdp.py), share inside the band) of |predicted − measured|."""
    err = np.array([abs(p.predicted - p.measured) for p in ps])
    inside = np.mean([p.lo <= p.measured <= p.hi for p in ps])
    return float(np.median(err)), float(np.quantile(err, 0.9, method="inverted_cdf")), float(inside)


def main() -> None:
    ps = points()
    print(f"{'case':40} {'d':>5} {'measured':>9} {'predicted':>9} {'band':>13} {'error':>7}")
    for p in ps:
        print(f"{p.name:40} {p.devices:5d} {p.measured:9.3f} {p.predicted:9.3f}  {p.lo:.3f}–{p.hi:.3f} "
              f"{p.predicted - p.measured:+7.3f}")  # fmt: skip
    for group in (*dict.fromkeys(p.group for p in ps), "all"):
        sel = [p for p in ps if group in ("all", p.group)]
        med, p90, inside = summary(sel)
        configs = len({p.name for p in sel})
        print(f"{group}: {len(sel)} points, {configs} configurations, median |error| {med:.3f}, p90 {p90:.3f}, "
              f"inside the band {inside:.0%}")  # fmt: skip
    print(f"(a constant E at the points' median, {statistics.median(p.measured for p in ps):.3f}, errs by "
          f"{np.median([abs(p.measured - statistics.median(q.measured for q in ps)) for p in ps]):.3f})")  # fmt: skip


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0]).parse_args()
    main()
