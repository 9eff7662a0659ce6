"""Check the predictor against published measurements (the dataset format of validation/published_scaling_dev.md).

For each configuration, the baseline row's throughput gives the compute time; every other row's
E is predicted from the fabric columns, parameters, precision, per-device batch and that row's
gradient accumulation, and compared with the measured E.
"""

from __future__ import annotations

import re
from typing import Any, cast

import numpy as np

from dpscale import catalog
from dpscale.errors import DpscaleError
from dpscale.formulas.stepmodel import (
    DEFAULT,
    Calibration,
    efficiency,
    micro_step_at,
    micro_step_from_baseline,
    step_time,
)
from dpscale.formulas.units import DTYPE_NAMES
from dpscale.sources.dataset import Config, Row
from dpscale.sources.predict import MAX_STEP_S, MIN_STEP_S, band
from dpscale.sources.predict_inputs import (
    GRAD_BYTES,
    NEGATIONS,
    SWITCHED_OFF,
    gpu_terms,
    link_hop,
    nics_reached,
    node_share,
    normalise_precision,
    whole_node,
)


def read_precision(label: str) -> str | None:
    """A published precision label's key ('AMP (mixed FP16)' → amp), or None where no format name reads in it
    ('FP7', blank): such a row counts as fp32 (`grad_bytes_per_param`), and validate says which did."""
    try:
        return normalise_precision(label, "precision")
    except DpscaleError:
        return None


def grad_bytes_per_param(label: str, framework: str = "") -> int:
    """Bytes per gradient element for a published precision label; unknown labels count as fp32.

    A published 'FP16' or 'BF16' names the compute dtype of a mixed-precision run, whose DDP gradients stay
    fp32 (torch.autocast, TF/MXNet AMP, Megatron's bf16), so it counts as amp: that is also the convention
    the constants were calibrated with. Only a label or framework saying the all-reduce itself is half ('fp16
    allreduce', 'fp16 gradients', 'fp16 compression') counts 2 bytes — and apex AMP O2/O3, which casts the
    model to fp16, so its gradients (what DDP all-reduces) are fp16 and only the master copy is fp32."""
    if half_reduced(label, framework):
        return 2
    key = read_precision(label) or "fp32"
    return GRAD_BYTES["amp" if key in ("fp16", "bf16", "fp8") else key]


def half_reduced(label: str, framework: str = "") -> bool:
    """A label or framework saying the all-reduce itself is 16-bit: 'fp16 allreduce', 'fp16 gradients', apex O2.
    A phrase a negation stands before or a switch-off follows says the opposite, as the precision reader takes it
    ('no fp16 compression', 'without fp16 allreduce', 'fp16 compression disabled', '--fp16-allreduce false').
    torch's dtype names say the same formats ('float16 allreduce', 'bfloat16 gradients', 'compression=float16'): the
    precision reader takes them (units.DTYPE_NAMES), so a label naming the reduction by them must count 2 bytes too."""
    dtypes = "|".join(name for name, key in DTYPE_NAMES.items() if key in ("fp16", "bf16"))  # bfloat16, float16
    half = rf"(fp16|bf16|{dtypes}|half)"
    for text in (label.lower(), framework.lower()):
        for pattern in (
            rf"{half}[ _-]*(all[-_]?reduce|grad|compress)\w*",
            rf"compress\w*[ ._=:-]*{half}\b",  # 'hvd.Compression.fp16', 'compression=fp16'
            r"\b(amp|apex|opt[-_ ]?level)\b[^,;()]*\bo[23]\b",  # 'Apex AMP O2', 'opt_level O2'
        ):
            if any(not _negated(text, m) for m in re.finditer(pattern, text)):
                return True
    return False


def _negated(text: str, m: re.Match) -> bool:
    """Whether a negation stands right before the phrase ('no', 'not', 'without', 'non'; '--no-fp16-allreduce') or a
    switch-off right after it ('off', 'disabled', 'false', as in 'fp16_allreduce=False')."""
    before = re.search(r"([a-z0-9]+)[ _=:-]*$", text[: m.start()])
    after = re.match(r"[ _=:-]*([a-z]+)", text[m.end() :])
    return bool(before and before[1] in NEGATIONS) or bool(after and after[1] in SWITCHED_OFF)


def row_gpu(r: Row) -> dict[str, Any] | None:
    """A row's catalog GPU: its GPU column, else the first catalog GPU its hardware description names ('AWS
    p4d.24xlarge (8x A100 40GB)': the A100, not the p4d), else its system's; the memory size the description
    states picks the variant (A100 40 GB 1.56 TB/s, 80 GB 2.04, which the synchronisation term uses). None: a
    GPU the catalog lacks."""
    return catalog.find_gpu(r.system, r.gpu.strip() or catalog.gpu_in(r.hardware) or "", text=r.hardware)


def fabric(c: Config) -> tuple[float, float] | None:
    """(intra, inter) GB/s for a configuration: its columns, else its system's catalog figures.

    A blank (or 0) figure is fine where the configuration never uses that link (one GPU per node
    has no intra-node link; a single-node table never touches the network). None: a needed one is
    unknown, so the configuration cannot be predicted."""
    g = c.gpus_per_node
    if g is None:
        return None
    share = node_share(c.preset, g)  # a table on g of each node's G GPUs reads the preset as predict does
    preset = share._asdict() if share else c.preset  # (its intra_bw_gbs and inter_bw_gbs, as the preset's names)
    top = max(r.devices for r in c.rows)
    out = []
    for col, used in (("intra_bw_gbs", g > 1), ("inter_bw_gbs", top > g)):
        stated = [getattr(r, col) for r in c.rows if getattr(r, col)]  # the baseline's first, else any row's
        value = stated[0] if stated else preset.get(col)
        if value is None and used:
            return None
        out.append(float(value or 1.0))  # 1.0 stands in for a link no row uses: its terms are zero
    return out[0], out[1]


def mesh_table(c: Config, intra: float) -> dict[int, float] | None:
    """The system's cube-mesh table where the file's figures are that node's: its link at its size, or on g of each
    node's GPUs the link node_share gives (a stated link of another figure is another node's)."""
    share = node_share(c.preset, c.gpus_per_node)
    if share:
        mesh = share.by_gpus
        return {int(n): float(v) for n, v in mesh.items()} if mesh is not None and intra == share.intra_bw_gbs else None
    same = (intra, c.gpus_per_node) == (c.preset.get("intra_bw_gbs"), c.preset.get("gpus_per_node"))
    return c.preset.get("intra_bw_gbs_by_gpus") if same else None


FABRIC = catalog.SYSTEM_KEYS  # the columns a system's catalog entry fills


def missing(c: Config) -> str | None:
    """What a configuration lacks that a prediction needs (a step time, parameters, the links it uses), as the
    column that would give it; None when it has everything."""
    if any(r.units_per_sample is None for r in c.rows):  # README: a blank skips the row and its configuration
        return "units_per_sample"
    if c.baseline.per_device_batch is None:
        return "per_device_batch"
    if c.baseline.params_millions is None:
        return "params_millions"
    if c.gpus_per_node is None:
        return "gpus_per_node"
    if fabric(c) is None:
        return "intra_bw_gbs" if c.gpus_per_node > 1 and not _stated(c, "intra_bw_gbs") else "inter_bw_gbs"
    return None


def _stated(c: Config, col: str) -> bool:
    return any(getattr(r, col) for r in c.rows) or c.preset.get(col) is not None


def predictable(c: Config) -> bool:
    """Whether the configuration states what a prediction needs: a step time, parameters, used links."""
    return missing(c) is None


def predict_config(c: Config, cal: Calibration = DEFAULT) -> list[tuple[Row, float, float]]:
    """(row, measured E, predicted E) for every non-baseline row of one configuration."""
    b = c.baseline
    if not predictable(c):
        return []
    step0 = c.step_time()
    # predictable(c): a step time (so the baseline's per-device batch), parameters and the used links are known
    assert step0 is not None and b.params_millions is not None and b.per_device_batch is not None
    if not MIN_STEP_S <= step0 / b.grad_accum <= MAX_STEP_S:  # a 1e-300 throughput: nothing to model
        raise DpscaleError(
            f"{b.file} line {b.line}, column 'throughput': got {b.throughput:g}, one micro-batch in "
            f"{step0 / b.grad_accum:.3g} s; allowed: a rate that puts it between {MIN_STEP_S:g} s and "
            f"{MAX_STEP_S:g} s of compute"
        )
    intra, inter = cast("tuple[float, float]", fabric(c))  # not None: predictable(c)
    cal, hbm = gpu_terms(link_hop(cal, c.preset.get("intra_link")), row_gpu(b))
    share = node_share(c.preset, c.gpus_per_node)
    nics = nics_reached(c.preset, share)  # as predict's cluster counts them
    kw: dict[str, Any] = dict(
        grad_bytes=b.params_millions * 1e6 * grad_bytes_per_param(b.precision, b.framework),
        gpus_per_node=c.gpus_per_node,
        intra_bw_gbs=intra,
        intra_by_gpus=mesh_table(c, intra),
        inter_bw_gbs=inter,
        cal=cal,
        hbm_tbs=hbm,
        inter_nics=nics,  # a ragged last node reaches its GPUs' share of them (stepmodel.ragged_network_share)
        inter_node=whole_node(c.preset, share),
    )
    t_micro = micro_step_from_baseline(step0, b.devices, b.grad_accum, strict=False, **kw)  # scored, not refused
    base = step_time(b.devices, t_micro, grad_accum=b.grad_accum, **kw)
    out = []
    # A repeat of the baseline (same size, batch and accumulation) is predicted E = 1 by definition: not a point.
    same = (b.devices, b.per_device_batch, b.grad_accum)
    points = [r for r in c.rows[1:] if (r.devices, r.per_device_batch or b.per_device_batch, r.grad_accum) != same]
    # A row whose per-device batch differs from the baseline's (a fixed global batch shrinking with d)
    # computes in proportion to it: t_µ·b/b0. E compares samples per second, b·ga per step.
    for batch in dict.fromkeys(r.per_device_batch or b.per_device_batch for r in points):
        rows = [r for r in points if (r.per_device_batch or b.per_device_batch) == batch]
        scale = batch / b.per_device_batch
        d = np.array([r.devices for r in rows], dtype=float)
        ga = np.array([r.grad_accum for r in rows], dtype=float)
        t = micro_step_at(batch, t_micro, b.per_device_batch)
        e = efficiency(step_time(d, t, grad_accum=ga, **kw), base, ga * scale, b.grad_accum)
        out += [(r, c.efficiency(r), float(p)) for r, p in zip(rows, e)]
    at = {id(r): i for i, r in enumerate(c.rows)}  # rows.index per row compared whole rows: quadratic in them
    return sorted(out, key=lambda x: at[id(x[0])])


def summary(rows: list[dict], configs: int, mode: str) -> dict:
    """The validation report's numbers, for predict and fit mode alike: absolute errors in E (0.03 = 3
    points); None (JSON null) when no row could be scored."""
    err = np.array([r["error"] for r in rows])  # |predicted − measured| already
    stat = (lambda f: float(f(err))) if rows else (lambda f: None)
    return {
        "mode": mode,
        "points": len(rows),
        "configs": configs,
        "median_abs_error": stat(np.median),
        "p90_abs_error": stat(lambda a: np.percentile(a, 90)),
        "max_abs_error": stat(np.max),
    }


def validate_predict(configs: list[Config], cal: Calibration = DEFAULT) -> dict:
    """Predict every non-baseline row; report errors and the constant-median baseline to beat."""
    rows: list[dict[str, Any]]
    rows, used, skipped_cfgs, skipped_rows, alone = [], 0, [], 0, []
    reasons: dict[str, dict[str, Any]] = {}  # missing, unknown_system or ambiguous_system
    unknown_gpu: dict[str, str] = {}
    unknown_precision: dict[str, str] = {}
    for c in configs:
        lack = missing(c)
        if lack is not None:
            skipped_cfgs.append(c.cfg)
            skipped_rows += len(c.rows)  # its baseline too (README: the row and its configuration's)
            reasons[c.cfg] = {"missing": lack}
            name = c.baseline.system.strip()
            if lack in FABRIC and name and not c.preset:  # the catalog would have filled it
                several = catalog.sharing("systems", name)  # 'DGX-1' with no GPU named: P100 or V100?
                reasons[c.cfg].update({"ambiguous_system": several} if len(several) > 1 else {"unknown_system": name})
            continue
        if row_gpu(c.baseline) is None:
            unknown_gpu[c.cfg] = c.baseline.gpu.strip()  # '' where no column names one and the system is unknown
        b = c.baseline  # its gradients count as fp32, unless the label or framework says 16-bit: said
        if read_precision(b.precision) is None and not half_reduced(b.precision, b.framework):
            unknown_precision[c.cfg] = b.precision
        got = predict_config(c, cal)
        used += bool(got)
        if not got:  # its baseline alone (or repeats of it): nothing to predict
            alone.append(c.cfg)
        for r, m, p in got:
            lo, hi = band(p, r.devices, c.baseline.devices)
            rows.append({"cfg": c.cfg, "devices": r.devices, "measured": m, "predicted": p, "error": abs(p - m),
                         "signed_error": p - m, "predicted_lo": float(lo), "predicted_hi": float(hi)})  # fmt: skip
    out = summary(rows, used, "predict")
    # None with no row, as summary's figures: the dict is --json's, and a NaN is no JSON (review LC)
    measured = np.array([r["measured"] for r in rows])
    out["constant_baseline_median_abs_error"] = (
        float(np.median(np.abs(measured - np.median(measured)))) if rows else None
    )
    inside = [r["predicted_lo"] <= r["measured"] <= r["predicted_hi"] for r in rows]
    out["band_coverage"] = float(np.mean(inside)) if rows else None  # share inside the 80 % band
    out["skipped_configs"] = len(skipped_cfgs)
    out["skipped_rows"] = skipped_rows
    out["skipped"] = skipped_cfgs
    out["skip_reasons"] = reasons  # per skipped configuration: the column it lacks, and a system the catalog lacks
    out["unknown_gpu"] = unknown_gpu  # configurations whose GPU the catalog lacks: memory bandwidth DEFAULT_HBM_TBS
    out["unknown_precision"] = unknown_precision  # configurations whose precision label reads as no format: fp32
    out["baseline_only"] = alone
    out["rows"] = rows
    return out
