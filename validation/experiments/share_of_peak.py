"""Review LT: the share of the GPU's peak each published one-GPU (or baseline) CNN and transformer row reached,
against the share predict's FLOPs estimate assumes for that GPU, precision and model — a survey, nothing shipped.

    python validation/experiments/share_of_peak.py [-v]

A row's share is its rate a device × its training FLOPs a sample ÷ the catalog's peak at its precision (as
predict_validate reads the row's GPU and precision label); the assumed share is predict_inputs.default_mfu's (a
CNN 21.5 % of a tensor-core peak, 62.5 % of an NVIDIA fp32-core one; anything else 35 %), and the ratio is the
first over the second: 1 where predict's FLOPs estimate would have matched the row, 0.30 where it ran 3.3× too
fast. FLOPs a sample as predict counts them (formulas.compute.flops_per_sample): a catalog preset where the row's
model is one (ResNet-50, EfficientNet-B0/B4, VGG16, BERT-base/large at the row's sequence, GPT-2 345M, ViT-B/16),
(SE-)ResNeXt101-32x4d at 7.970 GMACs and AlexNet at 0.714 (counted with torch.utils.flop_counter on their
torchvision shapes; the same count gives ResNet-50 the catalog's 4.089), and Transformer-XL's tokens at 6·N a
token (predict's --params rule). Rows of other models are left out; each configuration is read once (validation/'s
20 tables; ../shared/data's dev set is validation/published_scaling_dev.csv byte for byte). A baseline of d0 devices
gives its rate a device (E below 1 included).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from dpscale import catalog
from dpscale.formulas.compute import flops_per_sample
from dpscale.sources.dataset import read_published
from dpscale.sources.predict_inputs import default_mfu, vector_peak
from dpscale.sources.predict_validate import read_precision, row_gpu

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "validation").glob("*.csv"))  # (../shared/data holds the dev set again, byte for byte)
GMACS = {"resnext": 7.970, "alexnet": 0.7142}  # forward MACs an image at 224 × 224 (torch's flop counter ÷ 2)
PRESETS = [  # (pattern on the row's model, preset or None, family as tabulated, sequence length or None)
    (r"resnet-50", "resnet50", "ResNet-50", None),
    (r"efficientnet-b0", "efficientnet-b0", "EfficientNet-B0/B4", None),
    (r"efficientnet-b4", "efficientnet-b4", "EfficientNet-B0/B4", None),
    (r"vgg16", "vgg16", "VGG16, AlexNet", None),
    (r"alexnet", None, "VGG16, AlexNet", None),
    (r"(se-)?resnext101-32x4d", None, "(SE-)ResNeXt101-32x4d", None),
    (r"bert-large pre-training", "bert-large", "BERT", "seq"),
    (r"bert-large (squad|fine-tuning)", "bert-large", "BERT", 384),
    (r"(biobert \(bert-base\)|bert-base) pre-training", "bert-base", "BERT", "seq"),
    (r"megatron gpt-2 345m", "gpt2-medium", "GPT-2 345M, ViT-B/16", 1024),
    (r"vit-b/16", "vit-b16", "GPT-2 345M, ViT-B/16", None),
    (r"transformer-xl", None, "Transformer-XL (tokens)", None),
]


def spec_of(model: str) -> tuple[dict | None, int | None, str] | None:
    """The FLOPs spec, sequence length and family of a published row's model, or None: not surveyed."""
    m = model.lower()
    for pattern, preset, family, seq in PRESETS:
        if not re.match(pattern, m):
            continue
        if preset is not None:
            s = int(re.search(r"seq len (\d+)", m)[1]) if seq == "seq" else seq  # type: ignore[index]
            return catalog.model(preset), s, family
        if family.startswith("Transformer"):
            return None, None, family
        return {"kind": "cnn", "fwd_gmacs": GMACS["alexnet" if "alexnet" in m else "resnext"]}, None, family
    return None


def rows() -> list[dict]:
    """One record a configuration: its baseline row's share of the peak, the share predict assumes, the ratio."""
    out, seen = [], set()
    for path in FILES:
        for c in read_published(path):
            if c.cfg in seen:
                continue
            seen.add(c.cfg)
            r = next((r for r in c.rows if r.devices == r.baseline_devices), min(c.rows, key=lambda r: r.devices))
            found = spec_of(r.model)
            part = row_gpu(r)
            if found is None or part is None:
                continue
            spec, seq, family = found
            if ("tok" in r.unit.lower()) != family.startswith("Transformer"):
                continue
            prec = read_precision(r.precision) or "fp32"
            peak = part["peak_tflops"].get(prec)
            if peak is None:
                continue
            flops = 6 * r.params_millions * 1e6 if spec is None else flops_per_sample(spec, seq)
            share = r.throughput / r.devices * flops / (peak * 1e12)
            assumed = default_mfu(spec, prec, part)
            kind = "cnn" if spec is not None and spec["kind"] == "cnn" else "transformer"
            out.append(
                dict(
                    file=path.name,
                    line=r.line,
                    cfg=r.cfg,
                    family=family,
                    kind=kind,
                    arch=part["arch"],
                    prec=prec,
                    d0=r.devices,
                    rate=r.throughput / r.devices,
                    peak=peak,
                    share=share,
                    assumed=assumed,
                    ratio=share / assumed,
                    fp32_cores=vector_peak(part, prec),
                )  # fmt: skip
            )
    return out


def table(records: list[dict]) -> dict[tuple[str, str, str, str], list[dict]]:
    """Records grouped by (kind, family, generation, the peak's kind): what the docs' table reads."""
    groups: dict[tuple[str, str, str, str], list[dict]] = defaultdict(list)
    for o in records:
        groups[(o["kind"], o["family"], o["arch"], "fp32 cores" if o["fp32_cores"] else "tensor")].append(o)
    return dict(groups)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="share_of_peak.py", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="print every row, not only the table")
    args = parser.parse_args(argv)
    records = rows()
    if args.verbose:
        for o in sorted(records, key=lambda o: (o["kind"], o["family"], o["arch"], o["prec"], o["ratio"])):
            print(f"{o['family']:22} {o['arch']:7} {o['prec']:5} d0={o['d0']:<3} {o['rate']:9.1f}/s "
                  f"{100 * o['share']:6.1f} % of {o['peak']:g}  assumed {100 * o['assumed']:4.1f} %  ratio "
                  f"{o['ratio']:5.2f}  {o['file']}:{o['line']}")  # fmt: skip
    print(f"{'family':22} {'arch':7} {'peak':10} {'rows':>4}  {'share %':>11}  {'assumed':>7}  ratio (median)")
    for (_, family, arch, peak), g in sorted(table(records).items()):
        shares, ratios = [100 * o["share"] for o in g], [o["ratio"] for o in g]
        mid = statistics.median(ratios)
        print(f"{family:22} {arch:7} {peak:10} {len(g):4}  {min(shares):4.1f}–{max(shares):<5.1f}  "
              f"{100 * g[0]['assumed']:6.1f}%  {min(ratios):.2f}–{max(ratios):.2f} ({mid:.2f})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
