"""Calibrate the step model's two global constants on published measurements, with cross-validation.

    python validation/calibrate.py [DATA.csv ...]

The constants are c_c (compute jitter) and c_h (synchronisation spread in HBM passes) of
dpscale.formulas.stepmodel; every other constant is physical or sourced. One grid is evaluated once;
the in-sample optimum is what ships (stepmodel.DEFAULT), and leave-one-group-out scores (group =
model family, then system) estimate the error on configurations the calibration never saw.

Data: every published set the project has (or the files given) — the dev set (published_scaling_dev.csv,
39 configurations, a copy of ../shared/data's) and the tables copied from more
DeepLearningExamples READMEs (validation/external_*.csv, sources and caveats in the .md beside each, 70
configurations) — 109 predictable configurations of 16 model families, 5 frameworks, 4 DGX systems. Why all of them:
calibrating on the dev set alone fits BERT pre-training (most of its rows) and errs by 0.050 median on the
other sets (the script prints it). Holding out half of the external model families at random, calibrating on
the dev set plus the other half predicted the held-out families better than the dev set alone in 66 % of 80
splits (mean median error 0.055 against 0.057): more families help a little, more BERT does not
(`new_families`).

Objective: the mean of the 80 % smallest |E_predicted − E_measured| (a trimmed mean). It ignores the tail
like the median does — input-bound configurations (EfficientNet on DGX-1) that no communication constant
explains — but averages over the body instead of reading one order statistic, so the optimum does not jump
when one row changes. The plain mean and a Huber loss chase the tail (dev CV medians 0.030–0.035).

The leave-one-family-out residuals also give the predictor's error band (sources.predict.ERROR_BAND):
the 10th and 90th percentiles of (measured − predicted) / (predicted · s), with s = band_shape(d / d0).
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import numpy as np

from dpscale.formulas.stepmodel import DEFAULT
from dpscale.sources.dataset import read_published
from dpscale.sources.predict import ERROR_BAND, band_shape
from dpscale.sources.predict_validate import predict_config, predictable, validate_predict

# (word in the model name, family): first match wins, so the specific names come first.
FAMILIES = (
    ("transformer-xl", "transformer-xl"), ("ssd", "ssd"), ("bert", "bert"), ("electra", "electra"),
    ("resnext", "resnext"), ("resnet", "resnet"), ("efficientdet", "efficientdet"),
    ("efficientnet", "efficientnet"), ("mask r-cnn", "mask-rcnn"), ("u-net", "unet"), ("jasper", "jasper"),
    ("waveglow", "waveglow"), ("wav2vec", "wav2vec"), ("gnmt", "gnmt"), ("temporal fusion", "tft"),
    ("transformer", "transformer"), ("vae", "vae-cf"), ("wide", "wide-deep"), ("ncf", "ncf"),
)  # fmt: skip
JITTER = np.round(np.arange(0.0, 0.0601, 0.005), 4)
PASSES = np.arange(0.0, 60.1, 5.0)
GRID = list(itertools.product(JITTER, PASSES))
HERE = Path(__file__).resolve().parent
DEV = HERE / "published_scaling_dev.csv"
EXTERNAL = tuple(sorted(HERE.glob("external_*.csv")))
HOLDOUT = tuple(sorted(HERE.glob("holdout_*.csv")))  # never calibrated on: reported with the shipped constants
# The ten whose pooled figures the docs quote (401 points, sessions 5–48) and the experiments pool; holdout_more7
# and holdout_more8 (session 57), holdout_more9, holdout_more10 and holdout_more11 (session 58) and holdout_more12
# (session 59) are reported one by one beside them.
LATER = (
    "holdout_more7.csv",
    "holdout_more8.csv",
    "holdout_more9.csv",
    "holdout_more10.csv",
    "holdout_more11.csv",
    "holdout_more12.csv",
)
POOLED = tuple(f for f in HOLDOUT if f.name not in LATER)


def family(c) -> str:
    name = c.baseline.model.lower()
    return next((f for word, f in FAMILIES if word in name), name.split()[0])


def load(files) -> list:
    """The predictable configurations of these files (at least one row besides the baseline)."""
    configs = [c for f in files for c in read_published(f) if predictable(c) and len(c.rows) > 1]
    twice = sorted({c.cfg for c in configs if sum(d.cfg == c.cfg for d in configs) > 1})
    if twice:  # residuals are keyed by configuration id
        raise SystemExit(f"configuration ids in more than one file: {', '.join(twice)}")
    return configs


def residuals(configs) -> dict[str, np.ndarray]:
    """measured − predicted E for every configuration: array (grid point, row)."""
    out = {}
    for c in configs:
        out[c.cfg] = np.array(
            [[m - p for _, m, p in predict_config(c, DEFAULT._replace(compute_jitter=j, sync_hbm_passes=h))]
             for j, h in GRID]
        )  # fmt: skip
    return out


def objective(abs_err: np.ndarray) -> np.ndarray:
    """Mean of the 80 % smallest absolute errors along the last axis (one score per grid point)."""
    keep = max(1, int(0.8 * abs_err.shape[-1]))
    return np.mean(np.sort(abs_err, axis=-1)[..., :keep], axis=-1)


def best(res: dict[str, np.ndarray], cfgs: list[str]) -> int:
    """Grid index minimising the objective over these configurations."""
    return int(np.argmin(objective(np.abs(np.concatenate([res[x] for x in cfgs], axis=1)))))


def held_out(configs, res: dict[str, np.ndarray], key) -> tuple[dict[str, np.ndarray], dict[str, int]]:
    """Residuals of each group predicted with constants refitted without it, and the refit per group."""
    groups: dict[str, list[str]] = {}
    for c in configs:
        groups.setdefault(key(c), []).append(c.cfg)
    every = [c.cfg for c in configs]
    out, refit = {}, {}
    for g, members in groups.items():
        refit[g] = j = best(res, [x for x in every if x not in members])
        out.update({x: res[x][j] for x in members})
    return out, refit


def error_band(configs, held: dict[str, np.ndarray]) -> tuple[float, float]:
    """10th/90th percentiles of out-of-sample residuals as shares of their prediction, divided by the band's
    shape at each row's d / d0."""
    scaled = [
        r / ((m - r) * band_shape(row.devices, c.baseline.devices))  # m − r: the held-out prediction
        for c in configs
        for (row, m, _), r in zip(predict_config(c), held[c.cfg])
    ]
    lo, hi = np.percentile(scaled, [10, 90])
    return float(lo), float(hi)


def new_families(configs, res, dev: set[str], splits: int = 40, seed: int = 0) -> tuple[float, float, float]:
    """Does calibrating on more model families help on families never seen? Hold out half of the families
    outside the dev set at random; calibrate on the dev set alone, and on it plus the other half.
    Returns the mean held-out median of each, and the share of splits where the second is better."""
    fams = sorted({family(c) for c in configs if c.cfg not in dev})
    rng, alone, more = random.Random(seed), [], []
    i_dev = best(res, sorted(dev))
    for _ in range(splits):
        rng.shuffle(fams)
        for test in (set(fams[: len(fams) // 2]), set(fams[len(fams) // 2 :])):
            train = sorted(dev) + [c.cfg for c in configs if c.cfg not in dev and family(c) not in test]
            held = [c.cfg for c in configs if c.cfg not in dev and family(c) in test]
            i = best(res, train)
            alone.append(np.median(np.abs(np.concatenate([res[x][i_dev] for x in held]))))
            more.append(np.median(np.abs(np.concatenate([res[x][i] for x in held]))))
    return float(np.mean(alone)), float(np.mean(more)), float(np.mean(np.less(more, alone)))


def errors(res, cfgs, i=None, held=None) -> str:
    e = np.abs(np.concatenate([held[x] if held else res[x][i] for x in cfgs]))
    return f"median {np.median(e):.4f}  p90 {np.percentile(e, 90):.4f}  max {e.max():.4f}  ({e.size} rows)"


def main(files=None) -> None:
    given = bool(files)
    files = [Path(f) for f in files] if files else [DEV, *EXTERNAL]
    sets = {f.name: load([f]) for f in files}
    configs = [c for v in sets.values() for c in v]
    res = residuals(configs)
    every = [c.cfg for c in configs]
    i = best(res, every)
    print(f"{len(configs)} configurations in {len(files)} files; grid {len(JITTER)} × {len(PASSES)}")
    print(f"in-sample optimum: compute_jitter={GRID[i][0]:g}, sync_hbm_passes={GRID[i][1]:g}; shipped "
          f"(stepmodel.DEFAULT): {DEFAULT.compute_jitter:g}, {DEFAULT.sync_hbm_passes:g}")  # fmt: skip
    for name, cs in sets.items():
        m = np.array([meas for c in cs for _, meas, _ in predict_config(c)])
        print(f"  {name}: {errors(res, [c.cfg for c in cs], i)}; a constant E: {np.median(abs(m - np.median(m))):.4f}")
    for label, key in (("model family", family), ("system", lambda c: c.baseline.system)):
        held, refit = held_out(configs, res, key)
        print(f"cross-validated, leave one {label} out: {errors(res, every, held=held)}")
        for g, j in refit.items():
            print(f"  without {g!r}: refit ({GRID[j][0]:g}, {GRID[j][1]:g})")
        for name, cs in sets.items():
            print(f"  {name}: {errors(res, [c.cfg for c in cs], held=held)}")
        if key is family:
            lo, hi = error_band(configs, held)
            print(f"error band (10th/90th percentile, leave one family out): {lo:+.3f} / {hi:+.3f}; "
                  f"shipped (sources.predict.ERROR_BAND): {ERROR_BAND[0]:+.3f} / {ERROR_BAND[1]:+.3f}")  # fmt: skip
    dev = {c.cfg for c in sets.get(DEV.name, [])}
    if dev and len(dev) < len(configs):
        j = best(res, sorted(dev))
        print(f"calibrated on {DEV.name} alone: ({GRID[j][0]:g}, {GRID[j][1]:g}); on the other files "
              f"{errors(res, [x for x in every if x not in dev], j)}")  # fmt: skip
        alone, more, share = new_families(configs, res, dev)
        print(f"held-out model families: dev set alone {alone:.4f}, dev set + the other families {more:.4f} "
              f"(mean median over {2 * 40} splits; the second better in {share:.0%})")  # fmt: skip
    if not given:
        holdout(HOLDOUT)


def holdout(files) -> None:
    """The hold-out sets, predicted with the shipped constants: error and band coverage per file."""
    for f in files:
        r = validate_predict(read_published(f))
        print(f"hold-out {f.name} (never calibrated on): {r['points']} rows, median {r['median_abs_error']:.4f}  "
              f"p90 {r['p90_abs_error']:.4f}; a constant E: {r['constant_baseline_median_abs_error']:.4f}; "
              f"inside the band {r['band_coverage']:.0%}")  # fmt: skip


if __name__ == "__main__":
    import argparse

    from dpscale.errors import DpscaleError

    cli = argparse.ArgumentParser(  # (no docstring under python -OO)
        description=(__doc__ or "").split("\n\n")[0], epilog="See the module's docstring for the method."
    )
    cli.add_argument(
        "files", nargs="*", metavar="DATA.csv", help="published sets (default: the dev set and external_*)"
    )
    try:  # a missing or malformed DATA.csv: its one line and exit 2, as dpscale validate says it, not a traceback
        main(cli.parse_args(sys.argv[1:]).files)
    except DpscaleError as exc:
        cli.exit(2, f"{cli.prog}: error: {exc}\n")
