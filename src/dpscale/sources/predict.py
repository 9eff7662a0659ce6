"""Predict E(d) from the model, batch, precision and cluster — and say why it falls.

`predict(...)` resolves presets (catalog), finds the compute time of one micro-batch (a measured
baseline — preferred — or FLOPs / (peak × MFU)), and evaluates the step model of
dpscale.formulas.stepmodel at every device count. Throughput and speedup come from the core
formulas (dpscale.formulas.scaling), so nothing here re-implements A = d·v·E.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, ParamSpec, overload

import numpy as np

from dpscale import catalog
from dpscale.errors import (
    MAX_DEVICES,
    MAX_SEQ_LEN,
    DpscaleError,
    check_devices,
    check_flag,
    check_params,
    check_positive,
    check_range,
    check_size_list,
    check_sizes,
    choice,
    devices_question,
    fail,
    ones,
    text,
)
from dpscale.files import STDIN, STDIN_ONCE, is_stdin, shown
from dpscale.formulas.collectives import ALGORITHMS
from dpscale.formulas.compute import estimated_layers, flops_per_sample, mixture_of_experts, token_params
from dpscale.formulas.memory import is_stage
from dpscale.formulas.overlap import BUCKET_CAP, FIRST_BUCKET
from dpscale.formulas.scaling import compute, per_step, read_only, size_said
from dpscale.formulas.stepmodel import (
    DEFAULT,
    Breakdown,
    Calibration,
    efficiency,
    input_step,
    micro_step_at,
    micro_step_from_baseline,
    step_time,
)
from dpscale.formulas.units import MIB
from dpscale.notes import Note, params_said
from dpscale.sources.predict_inputs import (
    BANDWIDTH,
    FP8_GAIN,
    GRAD_BYTES,
    WEIGHT_BYTES,
    Cluster,
    check_calibration,
    cluster,
    default_mfu,
    fp8_peak_ratio,
    gpu_terms,
    link_hop,
    load_calibration,
    normalise_precision,
)
from dpscale.sources.predict_notes import (
    CHECKED_ARCHS,
    _accumulation_exposed,
    _beyond_peak,
    _calibration_notes,
    _cluster_notes,
    _cnn_mfu,
    _decode_caution,
    _flops_per_token,
    _hop_unsourced,
    _measured_mfu,
    _mib,
    _outside,
    _ragged,
    _replaced,
    _step_time_floor,
    _unchecked,
    _where_e_goes,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from dpscale.errors import Number, Numbers

# How far published E fell from the prediction, as a share of it: 10th and 90th percentiles of
# (measured − predicted) / (predicted · shape), for configurations whose model family the calibration never saw
# (validation/calibrate.py: every published set predicted family by family, 217 rows of 16 families).
# Measurements fall below the prediction more often and further (input pipelines, framework overheads).
# A share, not an offset: a prediction of E = 0.04 (a slow network) cannot err by 0.15 down to nothing.
ERROR_BAND = (-0.15, 0.09)
BAND_LEVEL = 0.8  # what ERROR_BAND covers: its 10th to 90th percentiles
BASELINE_NEEDS = "1, or the size a --throughput or --step-time was measured at (a FLOPs estimate is one device's)"


# DeepSpeed ZeRO-1/2 reduce gradients in buckets of this many elements (reduce_bucket_size's default in
# deepspeedai/DeepSpeed deepspeed/runtime/zero/config.py); the gathers are charged in units of the same size
DS_BUCKET_ELEMENTS = 5e8
# Bounds that keep every term finite, far outside any real bucket or step (typos, not hardware, go past them)
BUCKET_MB = (1 / 1024, 1e6, "a bucket size in MiB, from 1/1024 (1 KiB) to 1,000,000")
# --mfu's: below 1e-6 a micro-batch's estimated compute leaves any step the model takes; its words, here and where
# the face cannot read a number ('(0, 1]' was said of 1e-7, which it holds, review HR)
MFU_RANGE = (1e-6, 1.0)
MFU_ALLOWED = "a model-FLOPs utilisation from 1e-6 to 1"
# --throughput's and --input-rate's, alike (the face said only 'a finite number > 0' of -v -1, and the range of 1e20)
RATE = (1e-9, 1e15)  # samples/s a --throughput or --input-rate may be: past them a step is 0 s or ∞ (the texts say it)
THROUGHPUT_ALLOWED = "per-device samples/s at the baseline size, 1e-9 to 1e15"
# --params against its --model preset's count: 100× off it is a unit (millions typed as a count), not a variant
PARAMS_APART = 100.0
# A node's loader (--input-rate) that cannot feed two of its GPUs caps E at 2/g: at 4 or more GPUs a node that is a
# DataLoader timed in one rank, typed as the node's (review HU: 150/s for 8 GPUs of 100/s, E 0.19 without a word)
INPUT_PER_GPU_BUSY = 4
INPUT_RATE_ALLOWED = "samples/s one node's input pipeline delivers, from 1e-9 to 1e15"
ELEMENT_BYTES = (1e-3, 8)  # --grad-bytes and --gather-bytes: up to fp64's 8
# their words, the library's and the face's alike (0 was told '> 0', and 5e-324 '> 0 and ≤ 8', then refused)
GRAD_BYTES_ALLOWED = "bytes per gradient element, from 0.001 to 8 (fp64)"
GATHER_BYTES_ALLOWED = "bytes per parameter all-gathered, from 0.001 to 8 (fp64)"
ALPHA_RANGE = (0.0, 1e6, "a latency in µs per hop, from 0 to 1,000,000")  # --alpha-intra, --alpha-inter
MIN_STEP_S, MAX_STEP_S = 1e-7, 1e7  # compute of one micro-batch: 0.1 µs to four months
BAND_DOUBLINGS = 3.0  # the spread grows over the first three doublings from the measured size, then stays
DEFAULT_PRECISION = "fp32"  # the first; an estimate at it says so (predict's face: training runs mixed)
DEFAULT_BATCH = 32  # per-device micro-batch when none is given
SEARCH_CAP = 1 << 20  # devices_for searches up to here, as fit's (its PEAK_CAP)
SEARCH_BLOCK = 1 << 16  # sizes devices_for evaluates at once (the curve at 2^20 sizes held 617 MB): about 40 MB
# How this model did on the published strong-scaling rows of every file in validation/ (a fixed global batch split
# over more devices), said with every strong-scaling prediction; test_calibration recomputes them from all 20 files.
STRONG_SCALING_ERROR = {"rows": 41, "over": 37, "median": 0.175, "weak_rows": 734, "weak": 0.035}


def band_shape(devices: Any, baseline_devices: float = 1.0) -> Any:
    """0 at the measured size, growing to 1 three doublings away (either side): E is known where measured."""
    return np.minimum(np.abs(np.log2(np.asarray(devices, dtype=float) / baseline_devices)) / BAND_DOUBLINGS, 1.0)


def band(e: Any, devices: Any, baseline_devices: float = 1.0, top: float = 1.0) -> tuple[Any, Any]:
    """Empirical 80 % band of E: where published measurements fell around predictions (ERROR_BAND).

    The published errors are shares of E(d) / E(d0) against the measured size d0, and so shares of E(d) too;
    below d0 the band is mirrored (there worse scaling means a faster single device). top: E's ceiling (∞ for
    the share of a throughput below d0, where a faster device is not an E above 1)."""
    d = np.asarray(devices, dtype=float)
    s = band_shape(d, baseline_devices)
    below = d < baseline_devices
    lo = np.where(below, -ERROR_BAND[1], ERROR_BAND[0]) * s
    hi = np.where(below, -ERROR_BAND[0], ERROR_BAND[1]) * s
    return np.clip(e * (1 + lo), 0.0, top), np.clip(e * (1 + hi), 0.0, top)


class _Context(NamedTuple):
    """What re-evaluates a prediction at other sizes (`_efficiency_at`)."""

    base: dict[str, Any]  # step_time's inputs at the baseline's micro-batch (micro_step_s, grad_accum included)
    alone: Breakdown  # one device's step, which E is against
    d0: int  # the measured baseline size (1 for a FLOPs estimate)
    strong: tuple[int, int] | None  # a fixed global batch: (G, the micro-batch at d0); None: weak scaling
    one_node: bool = False  # no network given (a one-node run's stand-in, cluster()'s): nothing past a node is known
    # the notes of a typed figure replacing a preset's own at the sizes given (predict_notes._replaced, its cluster's)
    replaced: Callable[[np.ndarray], list] | None = None


def _column(x: Any) -> list[Any]:
    """An array as a records() column of Python floats: a longdouble throughput's band and terms (review MV), whose
    .tolist() keeps longdoubles that json.dumps refuses."""
    a = np.ravel(x)
    return (a.astype(float) if a.dtype.kind == "f" else a).tolist()


class Prediction:
    """E(d) and the step-time breakdown behind it; an E source (`efficiency(d)`) like a law or a fit."""

    continuous = True  # the step model is defined between whole sizes (solve's exact size reads it there)

    def __init__(self, devices: np.ndarray, breakdown: Any, eff: np.ndarray, per_device: float, notes: list[str],
                 ctx: _Context, system: str = "custom", tokens_per_sample: int | None = None,
                 model: dict[str, Any] | None = None):  # fmt: skip
        """`ctx` re-evaluates the model at other sizes (`_Context`); `system` the cluster's name (a catalog key, a
        system file's entry, or 'custom' for raw figures); `tokens_per_sample` a language model's sequence length
        (`sequence_tokens`), None for images; `model` the preset's or the model file's entry (None: --params alone)."""
        self.system = system
        self.model_entry = model
        self.tokens_per_sample = tokens_per_sample
        # read-only views, as a ScaleResult's arrays: E changed in place through efficiency_values moved records(),
        # band() and the repr while efficiency(d), which scale, solve and plan read, re-evaluated the model
        self.devices = read_only(devices)
        self.breakdown = breakdown._make(read_only(x) for x in breakdown)
        self.efficiency_values = read_only(eff)
        self.per_device_throughput = per_device
        self.notes = notes
        self._ctx = ctx

    @overload
    def efficiency(self, d: Number) -> float: ...
    @overload
    def efficiency(self, d: Numbers) -> NDArray[np.float64]: ...
    @overload
    def efficiency(self, d: Any) -> Any: ...  # a grid, a tensor: whatever numpy reads
    def efficiency(self, d: Any) -> Any:
        """E at any device count (re-evaluates the model; relative to one device); under a global batch, any up to
        G/ga, where each device still gets a sample a micro-batch (past it no run exists to predict)."""
        arr = check_sizes(d)
        if self._ctx.strong:
            _one_sample_each(arr, self._ctx.strong[0], self._ctx.base["grad_accum"])
        g = int(self._ctx.base["gpus_per_node"])
        if self._ctx.one_node and arr.size and float(arr.max()) > g:  # (predict itself refuses such a size so)
            # a one-node prediction given no network had its stand-in (cluster()'s, read by no term at one node) read
            # past it: 300 GB/s nodes said E 0.847 at 64 devices, where predict([64]) is refused 'inter_bw_gbs: missing'
            raise DpscaleError(
                f"inter_bw_gbs: missing; allowed: sizes up to one node ({g:,} devices) — {size_said(arr.max())} cross "
                "a network, which a prediction made with system= or inter_bw_gbs= describes"
            )
        e = _efficiency_at(self._ctx, arr.ravel())
        return e.reshape(arr.shape) if arr.ndim else float(e[0])

    @property
    def reach(self) -> int | None:
        """The most devices `efficiency(d)` answers: a node's g where no network was given (None: no such bound), so
        solve searches to there, not past it into a refusal."""
        return int(self._ctx.base["gpus_per_node"]) if self._ctx.one_node else None

    def describe(self) -> str:
        """One line naming the prediction, for the notes of a plan built on it (a Note a face can say in the user's
        language, as a law's)."""
        if not self._ctx.strong:
            return Note("law_predicted")
        return Note("law_predicted_strong", global_batch=self._ctx.strong[0])

    def _search_sizes(self) -> tuple[np.ndarray, bool]:
        """The sizes `devices_for` searches, in order, and whether they end where the runs end (G/ga under a global
        batch) rather than at a cap."""
        g = int(self._ctx.base["gpus_per_node"])
        # (a cluster given no network is searched within its node: past it, the stand-in network cluster() puts in a
        # one-node run's place answered 10,000/s at 120 devices on 300 GB/s nodes where `-d 120` is refused)
        past = np.arange(2 * g, SEARCH_CAP + 1, g) if not self._ctx.one_node else np.empty(0)
        d = np.concatenate([np.arange(1, g + 1), past]).astype(float)
        # a global batch G over ga steps has no run past G/ga devices: searched to there, the sizes ended, no cap
        # (a node given no network ends the search at g: that is a cap, unless G/ga ends the sizes first)
        reach = g if self._ctx.one_node else SEARCH_CAP
        if self._ctx.strong:  # a global batch: every size the table could show (refused there otherwise)
            # (part-filled nodes too: G = 1,000 over 2 steps splits over 5, 10, … 500 and no whole 8-GPU node, and
            # `--target-throughput 60` said '∞ (unreachable)' where 10 devices give 74.5 samples/s, review KQ)
            d = np.arange(1, min(reach, self._ctx.strong[0] // self._ctx.base["grad_accum"]) + 1, dtype=float)
            d = np.setdiff1d(d, unsplit(self._ctx.strong[0], self._ctx.base["grad_accum"], d))  # (the one rule)
        ended = self._ctx.strong is not None and self._ctx.strong[0] // self._ctx.base["grad_accum"] <= reach
        return d, ended

    def search_notes(self, found: dict[str, Any], question: str) -> list:
        """The notes on the sizes `devices_for` read to its answer `found` to `question` ("efficiency" or
        "throughput", the keyword it was given) that this prediction's own notes, on the shown sizes, lack: a typed
        figure that replaced a preset's own there (review MC: DGX-1 V100's own 150 typed as --intra-bw moved
        `-d 16 --min-efficiency 0.3`'s answer 4 → 8 with no word, the shown 16 reading the node's 150 either way)."""
        if self._ctx.replaced is None:
            return []
        d, _ = self._search_sizes()
        if math.isfinite(found["devices"]):  # the sizes to the answer; keeping E, the next too, the first below it
            d = d[: int(np.searchsorted(d, found["devices"])) + (2 if question == "efficiency" else 1)]
        said = {getattr(x, "key", "") for x in self.notes}
        return [x for x in self._ctx.replaced(d) if x.key not in said]

    def devices_for(self, throughput: float | None = None, efficiency: float | None = None) -> dict[str, Any]:
        """Smallest size reaching a cluster `throughput` (samples/s, the table's d·v·E), or largest keeping E (the
        table's, against one device) at or above `efficiency`: the size before the first that falls below it, as
        `Fit.devices_for`. The sizes searched, SEARCH_BLOCK at a time up to the answer: 1 to a node's g devices, then
        whole nodes (2g, 3g, …: E dips over a part-filled node and recovers) up to SEARCH_CAP devices; under a global
        batch, every size that splits it into whole micro-batches (part-filled nodes too); given no network (a one-node
        run needs none), its node's sizes alone. Returns "devices" (an int), or infinity where none answers up to
        "search_cap", with "reason" saying why: "unreachable" (the throughput peaks below the target) or
        "beyond_search_cap" (still rising, or E still at or above the minimum, there); None where a size answers. Under
        a global batch the sizes end at G/ga (one sample a micro-batch), not at a cap: E kept to the last answers it,
        and a throughput it does not reach is unreachable."""
        throughput, efficiency = devices_question(throughput, efficiency)
        d, ended = self._search_sizes()
        i, best, top = None, -math.inf, 0  # the answer's index; the throughput's peak so far, and where
        for lo in range(0, d.size, SEARCH_BLOCK):  # a block at a time (2^20 sizes at once held 617 MB), to the answer
            at = d[lo : lo + SEARCH_BLOCK]
            e = _efficiency_at(self._ctx, at)
            if throughput is not None:
                x = compute(at, self.per_device_throughput, e).actual_throughput
                if x.max() > best:  # (the first of equal peaks, as one argmax over the whole curve)
                    best, top = float(x.max()), lo + int(np.argmax(x))
                if (x >= throughput).any():
                    i = lo + int(np.argmax(x >= throughput))
                    break
            elif (low := e < efficiency).any():  # E(1) = 1: the first size is never low
                i = lo + int(np.argmax(low)) - 1
                break
        if i is None and efficiency is not None and ended:
            i = d.size - 1
        rising = efficiency is not None or (top == d.size - 1 and not ended)  # at the cap (else it peaked below)
        reason = None if i is not None else "beyond_search_cap" if rising else "unreachable"
        return {"devices": math.inf if i is None else int(d[i]), "reason": reason, "search_cap": int(d[-1])}

    def __repr__(self) -> str:
        shown = ", ".join(f"{int(d)}: {e:.3f}" for d, e in zip(self.devices[:8], self.efficiency_values[:8]))
        more = f", … ({self.devices.size} sizes)" if self.devices.size > 8 else ""
        return f"Prediction(E={{{shown}{more}}}, per_device_throughput={self.per_device_throughput:.6g})"

    def _shares(self, top: float) -> tuple[np.ndarray, np.ndarray]:
        """E's empirical band (see `band`) up to `top`, its top held at the E a given loader rate allows: the
        user's measured ceiling, not an estimate to spread around."""
        lo, hi = band(self.efficiency_values, self.devices, self._ctx.d0, top)
        kw = per_size(self._ctx.base, self._ctx.strong, self.devices)[0]
        feed = input_step(self.devices, kw["grad_accum"], kw.get("input_s", 0.0), kw["gpus_per_node"])
        if np.any(feed > 0):  # E ∝ 1 / step: the step the loader allows gives E's ceiling
            # E × (step / feed), the ratio first: step ≥ feed, so the ceiling is never below E (E × step / feed lost
            # the last bit where the loader binds exactly, and E's band stopped holding E)
            ceiling = self.efficiency_values * (self.breakdown.step_s / np.where(feed > 0, feed, 1.0))
            hi = np.where(feed > 0, np.minimum(hi, ceiling), hi)
        return lo, hi

    def _floor(self) -> np.ndarray:
        """Below a measured d0 > 1: E(d0), scaling from d to d0 no better than linear — or the point, where the
        model itself has E rise from d to d0 (two DGX-1 V100s share one 25 GB/s link; four have their own)."""
        e = self.efficiency_values
        return np.where(self.devices < self._ctx.d0, np.minimum(self.efficiency(self._ctx.d0), e), 0.0)

    def band(self) -> tuple[np.ndarray, np.ndarray]:
        """E's 80 % band at or below 1 (`_shares`); below a measured d0 > 1 at least `_floor`; on one device E is
        1 by definition: [1, 1]."""
        lo, hi = self._shares(1.0)
        one = self.devices == 1
        return np.where(one, 1.0, np.maximum(lo, self._floor())), np.where(one, 1.0, hi)

    def throughput_band(self) -> tuple[np.ndarray, np.ndarray]:
        """Throughput's 80 % band: d·v·E at E's band; below a measured d0 > 1 (v, one device's rate, is then
        predicted) the share's mirrored band itself — up to 15 % faster (worse scaling from d to d0: E's ceiling
        of 1 once cut it off), or as fast as a given loader allows — and never below d·v·`_floor`."""
        d, v = self.devices, self.per_device_throughput
        lo, hi = (compute(d, v, x).actual_throughput for x in self.band())
        below = d < self._ctx.d0
        if np.any(below):
            s_lo, s_hi = (compute(d, v, x).actual_throughput for x in self._shares(np.inf))
            floor = compute(d, v, self._floor()).actual_throughput
            lo, hi = np.where(below, np.maximum(s_lo, floor), lo), np.where(below, s_hi, hi)
        return lo, hi

    def records(self) -> list[dict[str, Any]]:
        """One plain dict per size: the step-time breakdown, E with its band, throughput, bottleneck; with a
        measured baseline of d0 > 1 devices also `efficiency_vs_baseline`, E(d) / E(d0)."""
        b = self.breakdown
        res = compute(self.devices, self.per_device_throughput, self.efficiency_values)
        lo, hi = (_column(x) for x in self.band())
        a_lo, a_hi = (_column(x) for x in self.throughput_band())
        terms = {k: _column(getattr(b, k)) for k in Breakdown._fields}  # plain floats, column at a time
        d0 = self._ctx.d0
        e0 = self.efficiency(d0) if d0 > 1 else 1.0
        rows = []
        for i, rec in enumerate(res.records()):
            rec.update(
                efficiency_lo=lo[i],
                efficiency_hi=hi[i],
                actual_throughput_lo=a_lo[i],
                actual_throughput_hi=a_hi[i],
                compute_s=terms["compute_s"][i],
                allreduce_s=terms["allreduce_s"][i],
                exposed_comm_s=terms["exposed_s"][i],
                sync_wait_s=terms["sync_wait_s"][i],
                input_stall_s=terms["input_stall_s"][i],
                step_s=terms["step_s"][i],
                bottleneck=bottleneck(terms, i),
                link=link(terms, i),
                algorithm=terms["algorithm"][i] or None,  # (one device: none, said once by the bottleneck)
            )
            rec["devices"] = int(rec["devices"])
            if self._ctx.strong:  # a global batch: each size's micro-batch, a whole number (checked)
                rec["per_device_batch"] = self._ctx.strong[0] // (rec["devices"] * self._ctx.base["grad_accum"])
            if d0 > 1:  # a table that starts at d0 (one node, say) reports E against it: E(d)/E(d0), d0's own 1
                rec["efficiency_vs_baseline"] = rec["efficiency"] / e0
                rec["baseline_devices"] = d0  # (JSON and CSV carry no note: which size it is, in each record)
            if self.tokens_per_sample:  # a language model's samples are sequences: of how many tokens, in each
                # record, so `plan --efficiency-file --unit tokens/s` plans tokens from the library's records as
                # from the CLI's (the factor once lived only in a note: 1e12 tokens planned as 1e12 sequences)
                rec["tokens_per_sample"] = self.tokens_per_sample
            rows.append(rec)
        return rows


def _efficiency_at(ctx: _Context, d: np.ndarray) -> np.ndarray:
    """E at sizes d from a prediction's context."""
    kw, one, strong = ctx.base, ctx.alone, ctx.strong
    (at, steps), (_, one_steps) = per_size(kw, strong, d), per_size(kw, strong, 1.0)
    return efficiency(step_time(d, **at), one, steps, float(np.ravel(one_steps)[0]))


def _one_sample_each(d: np.ndarray, g: int, ga: int) -> None:
    """Refuse sizes past G/ga: there a device's micro-batch G/(d·ga) holds less than one sample, and the model's
    E (compute shrunk below one sample's) described no run — solve and plan once answered 474× on 512 devices for a
    global batch of 8."""
    over = d[d * ga > g]
    if over.size:
        x = float(over.flat[0])
        size = size_said(x)
        steps = f" over {ga:,} accumulation steps" if ga > 1 else ""
        raise DpscaleError(
            f"efficiency: no value for {size} devices; allowed: at most {g // ga:,}, where the global batch of {g:,}"
            f"{steps} gives each device one sample a micro-batch ({size} would get {g / (x * ga):,.3g})"
        )


def per_size(kw: dict[str, Any], strong: tuple[int, int] | None, d: Any) -> tuple[dict[str, Any], Any]:
    """The step model's inputs at sizes d, and a step's samples counted in micro-batches of the reference batch
    (E compares samples a second). Weak scaling: the same at every size. A fixed global batch G (`strong`: G and
    the reference micro-batch b0): each size's micro-batch is G/(d·ga), its compute and its loader's time in
    proportion (stepmodel.micro_step_at)."""
    if strong is None:
        return kw, kw["grad_accum"]
    g, b0 = strong
    b = g / (np.asarray(d, dtype=float) * kw["grad_accum"])
    at = dict(kw, micro_step_s=micro_step_at(b, kw["micro_step_s"], b0))
    if "input_s" in kw:
        at["input_s"] = kw["input_s"] * (b / b0)
    return at, kw["grad_accum"] * (b / b0)


def link(t: dict[str, Any], i: int) -> str:
    """The largest term of the all-reduce at this size: intra-node link, network or latency (t: the
    breakdown's columns by name)."""
    if t["devices"][i] <= 1:
        return "none (one device)"
    terms = {"intra-node link": t["intra_s"][i], "network": t["inter_s"][i], "latency": t["latency_s"][i]}
    return max(terms, key=terms.get)  # type: ignore[arg-type]  # (mypy cannot pick dict.get's overload as a key)


def bottleneck(t: dict[str, Any], i: int) -> str:
    """What costs this size the most time: a starved input pipeline, else the exposed all-reduce (named
    by its link) or the wait."""
    if t["input_stall_s"][i] > 0:
        return "input pipeline"
    if t["devices"][i] <= 1:
        return "none (one device)"
    return link(t, i) if t["exposed_s"][i] >= t["sync_wait_s"][i] else "synchronisation wait"


P = ParamSpec("P")
# `dpscale predict`'s flags → predict()'s parameters: the library's caller is told the name it typed
PARAMETER_OF = {
    "--params": "params", "--model": "model", "--model-file": "model_file", "--gpu": "gpu", "--precision": "precision",
    "--batch": "batch",
    "--grad-accum": "grad_accum", "--global-batch": "global_batch", "--throughput": "throughput",
    "--step-time": "step_time_s", "--baseline-devices": "baseline_devices", "--mfu": "mfu", "--seq-len": "seq_len",
    "--system": "system", "--system-file": "system_file", "--gpus-per-node": "gpus_per_node",
    "--intra-bw": "intra_bw_gbs", "--inter-bw": "inter_bw_gbs", "--grad-bytes": "grad_bytes_per_param",
    "--gather-bytes": "gather_bytes_per_param", "--bucket-mb": "bucket_mb", "--first-bucket-mb": "first_bucket_mb",
    "--overlap-accumulation": "overlap_accumulation", "--no-overlap": "overlap=False", "--algorithm": "algorithm",
    "--input-rate": "input_rate", "--calibration": "calibration", "--alpha-intra": "alpha_intra_us",
    "--alpha-inter": "alpha_inter_us", "--zero": "zero",
}  # fmt: skip


def parameter_named(exc: DpscaleError) -> DpscaleError:
    """The same error with each flag said as predict()'s parameter ('--intra-bw: got 0' → 'intra_bw_gbs: got 0')."""
    import re

    def say(text: str) -> str:  # a flag alone, or a pair of them ('--throughput/--step-time'), never inside a word
        text = text.replace("--system NAME", "system=NAME").replace("--model PRESET", "model=PRESET")  # (a path
        # such as /tmp/run--model.json stays as it is)
        pair = r"(--[a-z][a-z-]*[a-z])/(--[a-z][a-z-]*[a-z])(?![\w.-])"
        text = re.sub(pair, lambda m: "/".join(PARAMETER_OF.get(f, f) for f in m.groups()), text)
        flag = r"(?:(?<=^)|(?<=[\s(,'`]))--[a-z][a-z-]*[a-z](?![\w.-])"
        return re.sub(flag, lambda m: PARAMETER_OF.get(m[0], m[0]), text)

    parts = getattr(exc, "parts", None)
    if not parts:  # the same form without its parts (a catalog's or a file's refusal): the value is kept too
        m = re.fullmatch(r"(.+?): got (.+?); allowed: (.+)", str(exc), re.S)
        parts = (m[1], m[2], m[3]) if m else None
    if not parts:
        return DpscaleError(say(str(exc)))
    name, got, allowed = parts  # the value as the caller gave it: only the name and what is allowed are said anew
    out = DpscaleError(f"{say(name)}: got {got}; allowed: {say(allowed)}")
    out.parts = (say(name), got, say(allowed))
    return out


def predict_flags(
    devices: Any,
    *,
    params: Any = None,
    model: str | None = None,
    model_file: str | os.PathLike[str] | None = None,
    precision: str = DEFAULT_PRECISION,
    batch: Any = None,
    grad_accum: Any = 1,
    global_batch: Any = None,
    throughput: Any = None,
    step_time_s: Any = None,
    baseline_devices: Any = 1,
    gpu: str | None = None,
    mfu: Any = None,
    seq_len: Any = None,
    system: str | None = None,
    system_file: str | None = None,
    gpus_per_node: Any = None,
    intra_bw_gbs: Any = None,
    inter_bw_gbs: Any = None,
    inter_link: str | None = None,
    grad_bytes_per_param: Any = None,
    gather_bytes_per_param: Any = None,
    bucket_mb: Any = None,
    first_bucket_mb: Any = None,
    overlap: bool = True,
    overlap_accumulation: bool = False,
    algorithm: str = "auto",
    input_rate: Any = None,
    calibration: Calibration | str | None = None,
    alpha_intra_us: Any = None,
    alpha_inter_us: Any = None,
    zero: Any = 0,
) -> Prediction:
    """Predict E(d) for data-parallel training: weak scaling, `batch` per device (default 32) and `grad_accum`
    micro-batches per optimizer step at every size; or strong scaling, a fixed `global_batch` G split over the
    sizes, each device's micro-batch G/(d·grad_accum) and its compute in proportion (a note says how this model
    did on published strong-scaling runs). Compute time from `throughput` (per-device samples/s at
    `baseline_devices`) or `step_time_s` (one optimizer step there) — preferred — else FLOPs / (GPU peak × `mfu`).
    `zero` 1–3 shards the model states (ZeRO stages; 3 ≈ FSDP full shard): reduce-scatters and all-gathers replace
    the all-reduce; `gather_bytes_per_param` overrides the precision's weights they gather (1: torchao's float8
    all-gather).
    `inter_link` names the network where the system does not, or not rightly: a name saying eth, RoCE, EFA or GbE
    is Ethernet, which a note says the calibration never measured (the CLI sets it from `--inter-bw 400GbE`); ib,
    InfiniBand or HDR/NDR InfiniBand; any other is predicted as InfiniBand, with a note (network_kind).
    Errors name each argument as it is typed here (`intra_bw_gbs: got 0`); `predict_flags`, which the CLI and
    the page call, names them by their `dpscale predict` flags (--intra-bw).

    Units: `devices` device counts (a number or a list); `params` parameters (7e9, not 7); `batch` samples per
    device per micro-batch, `global_batch` samples per optimizer step over all devices, `seq_len` tokens;
    `throughput` samples/s of one device, `step_time_s` seconds; `mfu` a fraction from 1e-6 to 1; `intra_bw_gbs` GB/s
    per device per direction, `inter_bw_gbs` GB/s per node per direction (all its compute NICs; bytes, where NICs
    are sold in bits: 8 × 200 Gb/s is 200); `bucket_mb` and `first_bucket_mb` MiB; `grad_bytes_per_param` and
    `gather_bytes_per_param` bytes per element; `input_rate` samples/s one node's input pipeline delivers;
    `alpha_intra_us` and `alpha_inter_us` µs per hop; `calibration` a `dpscale measure allreduce --out` file's path.

    Returns a Prediction: `efficiency_values` (E per size of `devices`, relative to one device), `band()` (its 80 %
    band), `records()` (one dict per size: E, samples/s, the step's seconds and its bottleneck), `notes`, and
    `efficiency(d)` at any size, so it is an E source for `scale`, `solve` and `plan`."""
    d = np.atleast_1d(check_size_list(devices, "devices", MAX_DEVICES)).astype(float)  # the curve is one list
    # Only the devices sweep: every other figure is one number (a list here raised numpy's ambiguity error)
    (params, batch, grad_accum, global_batch, throughput, step_time_s, baseline_devices, mfu, seq_len, gpus_per_node,
     intra_bw_gbs, inter_bw_gbs, grad_bytes_per_param, gather_bytes_per_param, bucket_mb, first_bucket_mb, input_rate,
     alpha_intra_us, alpha_inter_us) = ones(
        (params, "--params"), (batch, "--batch"), (grad_accum, "--grad-accum"), (global_batch, "--global-batch"),
        (throughput, "--throughput"),
        (step_time_s, "--step-time"), (baseline_devices, "--baseline-devices"), (mfu, "--mfu"),
        (seq_len, "--seq-len"), (gpus_per_node, "--gpus-per-node"), (intra_bw_gbs, "--intra-bw"),
        (inter_bw_gbs, "--inter-bw"), (grad_bytes_per_param, "--grad-bytes"),
        (gather_bytes_per_param, "--gather-bytes"), (bucket_mb, "--bucket-mb"),
        (first_bucket_mb, "--first-bucket-mb"), (input_rate, "--input-rate"), (alpha_intra_us, "--alpha-intra"),
        (alpha_inter_us, "--alpha-inter"))  # fmt: skip
    model, gpu, system = text(model, "--model"), text(gpu, "--gpu"), text(system, "--system")
    inter_link = text(inter_link, "inter_link")
    precision = text(precision, "--precision")
    overlap = check_flag(overlap, "overlap")
    overlap_accumulation = check_flag(overlap_accumulation, "overlap_accumulation")

    # 1. The inputs, checked in this order (a bad invocation's first error stays its first)
    # a path as text goes to its reader, '' too, refused there as system_file='' and calibration='' are (review MW)
    model_file = (
        os.fspath(model_file) if isinstance(model_file, (str, os.PathLike)) else text(model_file, "--model-file")
    )
    piped = [
        f
        for f, v in (("--model-file", model_file), ("--system-file", system_file), ("--calibration", calibration))
        if is_stdin(v)
    ]
    if len(piped) > 1:  # one stream: the second read the first's JSON again
        raise DpscaleError(f"{' and '.join(piped[:2])}: both '{STDIN}'; allowed: {STDIN_ONCE}")
    spec, n_params = _model_size(params, model, model_file)
    # (the model as refusals name it: the file's, where it came from one)
    who = f"--model-file {shown(model_file)}" if model_file else f"--model {model}"
    model = spec["key"] if model_file and spec else model
    measured_rate = throughput is not None or step_time_s is not None
    if global_batch is not None and batch is not None:  # two per-device batches: which did the user mean?
        raise DpscaleError("--batch and --global-batch: give one (a global batch G gives each size's per-device "
                           "micro-batch, G / (devices × --grad-accum))")  # fmt: skip
    batch = DEFAULT_BATCH if batch is None else batch
    batch, grad_accum, baseline_devices, seq_len = _counts(batch, grad_accum, baseline_devices, seq_len, measured_rate,
                                                           spec, who)  # fmt: skip
    # strong scaling: (G, the micro-batch at the baseline size, whose compute is measured or estimated); weak: None
    strong = _strong(global_batch, grad_accum, d, baseline_devices)
    batch = strong[1] if strong else batch
    zero, algorithm, prec, gb, wb = _exchange(zero, algorithm, overlap, overlap_accumulation, grad_accum, precision,
                                              grad_bytes_per_param, gather_bytes_per_param)  # fmt: skip
    grad_bytes = n_params * gb
    bucket_mb, first_bucket_mb, notes = _units(bucket_mb, first_bucket_mb, zero, spec, n_params, gb)
    if params is not None and spec is not None:  # a preset's count replaced by one 100× off it: a unit, not a variant
        x = n_params / spec["params"]
        if not 1 / PARAMS_APART < x < PARAMS_APART:
            over = x >= PARAMS_APART
            notes.append(Note("params_over_preset" if over else "params_off_preset", typed=n_params,
                              x=float(f"{(x if over else 1 / x):.3g}"), model=spec.get("key", model),
                              n_params=float(spec["params"]), count=params_said(float(spec["params"]))))  # fmt: skip
    # a mixture of experts: FLOPs on a token's experts (formulas.compute), the gradient's bytes on all; an
    # active_params equal to params runs every one (said '100 % of its count'), and a CNN's only describes it, unread
    if spec is not None and mixture_of_experts(spec):
        active = token_params(spec, n_params)  # (a --params over the preset keeps its share)
        notes.append(Note("moe_active", n_params=active, count=params_said(active), pct=100 * active / n_params))

    # 2. The cluster, the step model's constants and the GPU, with their notes
    on_system = bool(system) or system_file is not None
    typed = (intra_bw_gbs is not None, inter_bw_gbs is not None)  # (as given: a file fills a raw cluster's intra)
    calibration, measured, intra_bw_gbs = _calibration_file(calibration, intra_bw_gbs, on_system)
    from_file = measured is not None  # a measured calibration file (not a Calibration object, not none)
    reach = max(int(d.max()), baseline_devices)  # a one-node run crosses no network: --inter-bw need not be typed
    cl = cluster(system, system_file, gpus_per_node, intra_bw_gbs, inter_bw_gbs, gpu, inter_link, reach)
    cal, kw_intra, curve = _constants(calibration, measured, cl, alpha_intra_us, alpha_inter_us, notes)
    busy = min(int(cl.gpus_per_node), int(d.max()))  # GPUs in one node at the largest size (> 1: the link is used)
    # (the sizes the curve reads: the measured baseline's step too, which every E is over — review LX: dgx1-v100's
    # own 150 typed, -d 8 --baseline-devices 5 read 150 at 5 for PCIe's 15.75, E 0.874 → 0.888, with no word)
    read = np.append(d, float(baseline_devices))
    # (and its node's busy GPUs: -d 1 --baseline-devices 8 on dgx-h100 read a typed 900 at 8, unsaid — review MD; and
    # a CPU's calibration standing for the link of 8 GPUs: -d 1 --baseline-devices 8 said nothing of it, review MG)
    linked = min(int(cl.gpus_per_node), int(read.max()))
    notes.extend(_calibration_notes(calibration, curve, bucket_mb, grad_bytes, linked))
    notes.extend(_hop_unsourced(cl, cal, calibration, alpha_intra_us, linked))
    # One lookup for every use of the GPU (HBM, ring fill, peak FLOPs): a name the user typed by the catalog's
    # rule (ambiguous 'v100' lists both sizes), a system's by its catalog key.
    part = catalog.gpu(gpu or cl.gpu) if gpu or cl.gpu else None
    gpu = part["key"] if gpu else cl.gpu  # type: ignore[index]  # (a typed gpu: catalog.gpu's entry, never None)
    raw = not on_system and measured is None  # links typed, neither a preset's nor measured
    notes.extend(_cluster_notes(cl, read, part, gpu, linked, raw, typed, from_file))
    # A measured all-reduce (calibration file) already contains the fill.
    cal, hbm = gpu_terms(cal, part, fill=not from_file)
    if part is None:
        notes.append(Note("gpu_unknown", hbm=hbm))
    largest = strong[0] // (int(d.min()) * grad_accum) if strong else batch  # the sweep's largest micro-batch
    shares = strong[0] / (d * grad_accum) if strong else batch  # each size's (whole: checked), for its activations
    notes.extend(_unchecked(d, part, gpu, n_params, prec, zero, bucket_mb, (spec, seq_len, shares), overlap))
    unchecked_gpu = bool(part and part["arch"] not in CHECKED_ARCHS)  # its note covers its faster links too
    notes.extend(_outside(d, (n_params, grad_bytes, cal.sync_bytes_max), cl, not from_file, unchecked_gpu,
                          typed=inter_bw_gbs is not None))  # fmt: skip
    kw = dict(
        intra_curve=curve,
        hbm_tbs=hbm,
        grad_bytes=grad_bytes,
        gpus_per_node=cl.gpus_per_node,
        intra_bw_gbs=kw_intra,
        # a measured calibration file replaces the link figures; a Calibration object only the constants
        intra_by_gpus=None if from_file else cl.intra_by_gpus,
        inter_bw_gbs=cl.inter_bw_gbs,
        cal=cal,
        overlap=overlap,
        overlap_accumulation=overlap_accumulation,
        bucket_cap=bucket_mb * MIB,
        first_bucket=first_bucket_mb * MIB,
        algorithm=algorithm,
        zero=zero,
        param_bytes=n_params * wb,  # the precision's weights (amp keeps them fp32), or as typed
        inter_nics=cl.nics,  # a ragged last node reaches its GPUs' share of them
        inter_node=cl.node_nics,  # (of the whole node's, where the run takes part of it)
    )

    # 3. The compute time of one micro-batch: measured (preferred), else FLOPs / (peak × MFU); the loader's time
    t_micro = _micro_step(batch, grad_accum, throughput, step_time_s, baseline_devices, spec, part, gpu, prec,
                          mfu, seq_len, params, kw, notes, strong=bool(strong))  # fmt: skip
    if input_rate is not None:
        kw["input_s"] = _input_seconds(input_rate, batch, grad_accum, throughput, step_time_s, baseline_devices, cl)
    base = dict(kw, micro_step_s=t_micro, grad_accum=grad_accum)
    for x in (d.min(), d.max()) if strong else (1.0,):  # a global batch: the step at the sizes' smallest and largest
        _check_step(float(np.ravel(per_size(base, strong, x)[0]["micro_step_s"])[0]), grad_accum, measured_rate,
                    "--global-batch" if strong else "--batch")  # fmt: skip

    # 4. The curve: the step at every size, E against one device's
    at_d, at_one = per_size(base, strong, d), per_size(base, strong, 1.0)
    b = step_time(d, name_algorithm=True, **at_d[0])
    alone = step_time(1, **at_one[0])
    eff = efficiency(b, alone, at_d[1], float(np.ravel(at_one[1])[0]))

    # 5. The notes on the curve
    # (the last node's own links slow only a hierarchical: none under a forced ring or tree, nor ZeRO's rings, nor
    # at a size where auto charges another — the sizes whose `algorithm` column says hierarchical, and the baseline's)
    hier = curve is None and not zero and algorithm in ("auto", "hierarchical")
    charged = _hierarchical_sizes(d, b.algorithm, baseline_devices, base) if hier else set()
    notes.extend(_ragged(d, cl.gpus_per_node, baseline_devices, cl.nics, cl.node_nics,
                         (kw["intra_bw_gbs"], kw["intra_by_gpus"], charged)))  # fmt: skip
    if strong:
        # (one size: its micro-batch has nothing to fall from — 'falls from 1 samples to 1' — so said as that size's;
        # at one sample it cannot fall either: 'falls at more devices' was said of a size that more devices refuse)
        least = strong[0] // (int(d.max()) * grad_accum)
        key = "strong_scaling" if largest > least else "strong_scaling_one" if least > 1 else "strong_scaling_least"
        notes.append(Note(key, g=strong[0], b_lo=least, b_hi=largest, **STRONG_SCALING_ERROR))
    notes.extend(_accumulation_exposed(d, eff, per_size(base, strong, d.max()), at_one))
    notes.extend(_where_e_goes(d, b, eff, alone))

    # 6. The result: one device's rate, and the context that re-evaluates E at other sizes
    per_device = per_step(batch * grad_accum * baseline_devices if strong else batch * grad_accum,
                          float(alone.step_s[0]))  # fmt: skip
    ctx = _Context(base, alone, baseline_devices, strong, one_node=inter_bw_gbs is None and cl.inter_own is None,
                   replaced=functools.partial(_replaced, cl, typed=typed, measured=from_file))  # fmt: skip
    e0 = 1.0
    if baseline_devices > 1:  # E and the speedup are over this inferred device, not the measured one
        e0 = float(_efficiency_at(ctx, np.array([float(baseline_devices)]))[0])
        notes.append(Note("one_device_inferred", v=per_device, d0=baseline_devices, e0=e0))
    if measured_rate and part is not None and (spec is not None or seq_len is not None):  # the MFU it implies
        v = throughput if throughput is not None else per_step(batch * grad_accum, step_time_s)
        top = (int(d.max()), float(eff[d.argmax()]) / e0)  # E against the measured size: d0's share × it
        notes.extend(_measured_mfu(flops_per_sample(spec, seq_len, params), float(v), baseline_devices, part, gpu,
                                   prec, top, notes))  # fmt: skip
    if input_rate is not None and busy >= INPUT_PER_GPU_BUSY and input_rate < 2 * per_device:  # one rank's loader?
        # the share at most 1.99: said to three figures, 1.995 to 1.999… rounded up to '2', the count it is under
        # (199.5/s for GPUs of 100/s 'feeds 2 of its 8 GPUs', review HX)
        notes.append(Note("input_per_gpu", rate=float(input_rate), feeds=min(float(input_rate) / per_device, 1.99),
                          g=busy, v=per_device, node=busy * float(input_rate)))  # fmt: skip
    if spec and "image_size" in spec and input_rate is None and cl.cpu_cores:  # CNNs and ViTs decode images
        notes.extend(_decode_caution(per_device, busy, cl.cpu_cores))
    return Prediction(d, b, eff, per_device, notes, ctx, cl.name, sequence_tokens(spec, seq_len),
                      spec)  # fmt: skip


def _hierarchical_sizes(d: np.ndarray, named: Any, d0: int, base: dict[str, Any]) -> set[int]:
    """The sizes charged a hierarchical all-reduce: the curve's, from its `algorithm` column, and the measured
    baseline's d0 where the curve lacks it — its step was inverted on the same links (micro_step_from_baseline),
    so a ragged d0 of a cube-mesh waits for its last node's GPUs as a curve size would (which bucket runs which
    algorithm does not depend on the compute time)."""
    sizes, names = d.tolist(), list(np.ravel(named))
    if d0 > 1 and d0 not in sizes:
        sizes, names = [*sizes, d0], [*names, *np.ravel(step_time(d0, name_algorithm=True, **base).algorithm)]
    return {int(x) for x, a in zip(sizes, names, strict=True) if a == "hierarchical"}


def sequence_tokens(spec: dict[str, Any] | None, seq_len: int | None) -> int | None:
    """A language model's tokens a sample: the sequence length given, else its preset's (one with a vocabulary: a
    ViT's 197 patches are no tokens/s anyone quotes); None for images and for a bare parameter count without one."""
    if spec is not None and "vocab" not in spec:
        return None
    return seq_len if seq_len is not None else (spec or {}).get("seq_len")


def _parameter_names(fn: Callable[P, Prediction]) -> Callable[P, Prediction]:
    @functools.wraps(fn)
    def named(*args: P.args, **kwargs: P.kwargs) -> Prediction:
        try:
            return fn(*args, **kwargs)
        except DpscaleError as exc:
            raise parameter_named(exc) from None
        except TypeError as exc:  # 'predict_flags() got an unexpected keyword argument' named a function not called
            if str(exc).startswith(f"{fn.__name__}()"):
                raise TypeError(str(exc).replace(fn.__name__, named.__name__, 1)) from None
            raise

    named.__name__ = named.__qualname__ = fn.__name__.removesuffix("_flags")  # help() said 'predict_flags'
    return named


predict = _parameter_names(predict_flags)  # the library's: its errors name its parameters


def _model_size(params: Any, model: str | None, model_file: str | None = None) -> tuple[dict[str, Any] | None, float]:
    """The preset (or --model-file's model, `model` picking one of its models) and the parameter count (--params over
    the preset's): every byte the run moves follows from it."""
    from dpscale.sources.efficiency_file import model_file as read_model

    spec = read_model(model_file, model) if model_file is not None else catalog.model(model) if model else None
    n_params = params if params is not None else (spec["params"] if spec else None)
    if n_params is None:
        raise DpscaleError("--params/--model: missing; allowed: a parameter count or a preset name")
    return spec, float(check_params(n_params, "--params"))


def _counts(batch: Any, grad_accum: Any, baseline_devices: Any, seq_len: Any, measured_rate: bool,
            spec: dict[str, Any] | None, who: str) -> tuple[int, int, int, int | None]:  # fmt: skip
    """The whole counts, checked, with the two that need other inputs: a baseline size needs a measured rate, a
    sequence length a transformer."""
    # the checked values, as Python numbers: np.int16(30000) × 30000 wrapped to a negative throughput
    batch = int(check_devices(batch, "--batch"))
    grad_accum = int(check_devices(grad_accum, "--grad-accum"))
    baseline_devices = int(check_devices(baseline_devices, "--baseline-devices", MAX_DEVICES))
    if baseline_devices != 1 and not measured_rate:  # the band collapsed there, as if
        raise fail("--baseline-devices", baseline_devices, BASELINE_NEEDS)  # measured, and nothing was
    if seq_len is not None:
        seq_len = int(check_devices(seq_len, "--seq-len", MAX_SEQ_LEN))
        if spec is not None and spec.get("kind") != "transformer":  # an image model's FLOPs have no length
            raise DpscaleError(f"--seq-len: {who} is not a transformer preset (its FLOPs are per image); "
                               "allowed: leave it out, or a transformer --model")  # fmt: skip
    return batch, grad_accum, baseline_devices, seq_len


def unsplit(global_batch: int, grad_accum: int, sizes: Any) -> np.ndarray:
    """The sizes (sorted, once each) that do not split a global batch into whole micro-batches of at least one sample
    with grad_accum steps: the one rule of a strong-scaling size, which predict refuses and its default sizes drop."""
    sizes = np.unique(np.asarray(sizes, dtype=float))
    split = sizes * grad_accum  # exact in floating point up to 2^53: a larger product is no divisor anyway
    return sizes[(split > global_batch) | (np.fmod(global_batch, np.minimum(split, 2.0**53)) != 0)]


def _strong(global_batch: Any, grad_accum: int, d: np.ndarray, d0: int) -> tuple[int, int] | None:
    """A fixed global batch G (strong scaling), checked: G and the micro-batch G/(d0·ga) at the baseline size d0,
    whose compute is measured or estimated; None for weak scaling. Each size must split G into whole micro-batches
    of at least one sample, as DDP runs it: 1,000 over 64 devices is no run (refused, not rounded)."""
    if global_batch is None:
        return None
    g = int(check_devices(global_batch, "--global-batch"))
    bad = unsplit(g, grad_accum, np.unique(np.append(d, d0)))
    if bad.size:
        x = int(bad[0])
        raise DpscaleError(
            f"--global-batch: got {g}; allowed: a multiple of devices × --grad-accum at every size: "
            f"{x:,} × {grad_accum:,} does not divide it (a micro-batch of {g / (x * grad_accum):,.6g})"
        )
    return g, g // (d0 * grad_accum)


def _exchange(zero: Any, algorithm: Any, overlap: bool, overlap_accumulation: bool, grad_accum: int, precision: str,
              grad_bytes: Any, gather_bytes: Any) -> tuple[int, str, str, float, float]:  # fmt: skip
    """How the gradients and states are exchanged, checked together (flags that contradict are refused): the
    stage, the algorithm, the precision, and the bytes per gradient reduced and per parameter gathered."""
    if not is_stage(zero):
        raise fail("--zero", zero, "0 (DDP), 1, 2 or 3 (ZeRO stages; 3 ≈ FSDP full shard)")
    zero = int(zero)
    algorithm = choice(algorithm, "--algorithm", ALGORITHMS)  # 'Ring' as the other names are taken, in any case
    if zero and algorithm not in ("auto", "ring"):  # NCCL has no tree or 2-D reduce-scatter or all-gather
        raise fail("--algorithm", algorithm, "auto or ring with --zero 1–3 (its reduce-scatters and gathers are rings)")
    if overlap_accumulation and not overlap:  # the two say opposite things about the last micro-batch's all-reduce
        raise DpscaleError("--overlap-accumulation and --no-overlap: contradict each other; give one")
    if overlap_accumulation and zero:  # (it once moved ZeRO-1's reduction; now it would change nothing, unsaid)
        raise DpscaleError(
            f"--overlap-accumulation and --zero {zero}: ZeRO's reductions already run under a "
            "micro-batch's backward; allowed: --overlap-accumulation with --zero 0 (DDP) only"
        )
    if overlap_accumulation and grad_accum == 1:  # it changed nothing, unsaid, as under ZeRO (a sweep over d keeps ga)
        raise DpscaleError(
            "--overlap-accumulation and --grad-accum 1: with no accumulation the all-reduce already overlaps the one "
            "backward; allowed: --overlap-accumulation with --grad-accum 2 or more"
        )
    prec = normalise_precision(precision, one=True)
    gb = grad_bytes if grad_bytes is not None else GRAD_BYTES[prec]
    check_range(gb, "--grad-bytes", *ELEMENT_BYTES, GRAD_BYTES_ALLOWED)
    wb = gather_bytes if gather_bytes is not None else WEIGHT_BYTES[prec]
    check_range(wb, "--gather-bytes", *ELEMENT_BYTES, GATHER_BYTES_ALLOWED)
    if gather_bytes is not None and not zero:  # a typo for --grad-bytes would change nothing, unsaid
        raise fail("--gather-bytes", gather_bytes, "with --zero 1–3 only (DDP all-gathers no parameters)")
    return zero, algorithm, prec, gb, wb


def _units(bucket_mb: Any, first_bucket_mb: Any, zero: int, spec: dict[str, Any] | None, n_params: float,
           gb: float) -> tuple[float, float, list[str]]:  # fmt: skip
    """The bucket (ZeRO-3: unit) and first-bucket sizes in MiB (`_buckets`), and the note that starts the list
    where the layers behind ZeRO-3's units had to be estimated."""
    # FSDP wraps a layer per unit: with no preset to give the layers, 25 MiB units made a 405 B model 31,000 rings
    # (bf16 gradients; 62,000 in fp32)
    estimated = zero == 3 and spec is None and bucket_mb is None
    units = {"layers": estimated_layers(n_params)} if estimated else spec
    bucket_mb, first_bucket_mb = _buckets(bucket_mb, first_bucket_mb, zero, units, n_params, gb)
    if not estimated:
        return bucket_mb, first_bucket_mb, []
    note = Note("zero_units_estimated", layers=units["layers"], unit=bucket_mb, mib=_mib(bucket_mb))  # type: ignore[index]
    return bucket_mb, first_bucket_mb, [note]


def _calibration_file(calibration: Any, intra_bw_gbs: float | None, on_system: bool) -> tuple[Any, Any, float | None]:
    """A calibration given as a path, loaded (None otherwise), and the in-node figure it stands in for on a raw
    cluster: a figure the file replaces need not be typed."""
    if isinstance(calibration, os.PathLike):  # a pathlib.Path, as system_file takes it ('allowed: a path' said no)
        calibration = os.fspath(calibration)
        calibration = os.path.join(".", calibration) if calibration == "-" else calibration  # a file named -
    measured = load_calibration(calibration) if isinstance(calibration, str) else None
    if measured is not None and intra_bw_gbs is None and not on_system:
        # the file measured the node's links, which it replaces: a raw cluster need not type a figure left unused
        # (its busbw, or its table's best, held in the checked range: the table's gloo runs can sit below it)
        intra_bw_gbs = measured[1] if measured[1] is not None else max(BANDWIDTH[0], float(measured[2][1].max()))
    return calibration, measured, intra_bw_gbs


def _buckets(cap_mb: Any, first_mb: Any, zero: int, spec: dict[str, Any] | None, n_params: float,
             per_param: float) -> tuple:  # fmt: skip
    """(bucket, first bucket) in MiB. DDP: 25 and 1 [PT-RED]. ZeRO-1/2: DeepSpeed's buckets of 5e8 elements
    (DS_BUCKET_ELEMENTS). ZeRO-3: one unit per transformer layer, as FSDP's auto-wrap policy makes them, where
    the preset has layers, else 25. Sharded stages have no small first unit."""
    grad_bytes = n_params * per_param
    if cap_mb is None:
        layers = spec.get("layers") if spec and zero == 3 else None
        # a hair over 1/layers, so rounding leaves no near-empty unit that would pay a ring's latency; a unit is
        # at least the smallest bucket, whatever --params makes of the preset
        # and at most the largest a flag takes (a computed default is no typed --bucket-mb to refuse by name)
        unit = min(max(grad_bytes / layers / MIB * (1 + 1e-12), BUCKET_MB[0]), BUCKET_MB[1]) if layers else None
        if zero in (1, 2):  # a whole model smaller than one bucket is one bucket, said as its own size
            unit = max(min(DS_BUCKET_ELEMENTS, n_params) * per_param / MIB, BUCKET_MB[0])
        cap_mb = unit or BUCKET_CAP / MIB
    cap_mb = float(check_range(cap_mb, "--bucket-mb", *BUCKET_MB))
    if first_mb is None:
        first_mb = cap_mb if zero else FIRST_BUCKET / MIB
    return cap_mb, float(check_range(first_mb, "--first-bucket-mb", *BUCKET_MB))


def _constants(calibration: Any, measured: Any, cl: Cluster, alpha_intra_us: Any, alpha_inter_us: Any,
               notes: list) -> tuple:  # fmt: skip
    """The step model's constants and the in-node bandwidth it reads: the shipped ones, a measured calibration file
    (`measured`, as loaded: its bandwidth at η = 1, or its curve), or a Calibration object; then the link's hop and
    typed latencies."""
    cal = DEFAULT
    if measured is not None:
        cal, busbw, curve = measured
        by_table = curve is not None
        notes.append(
            Note("calibration_table", n=curve[0].size) if by_table else Note("calibration_alpha_beta", busbw=busbw)
        )
        kw_intra = 1.0 if by_table else busbw  # measured: the bandwidth itself, at η = 1 (a table's curve: unused)
    elif calibration is not None:
        cal, kw_intra, curve = check_calibration(calibration), cl.intra_bw_gbs, None
    else:
        kw_intra, curve = cl.intra_bw_gbs, None
    if not isinstance(calibration, str):  # a measured file's own latency wins; an object's where it set one
        cal = link_hop(cal, cl.intra_link)
    for flag, value, key in (
        ("--alpha-intra", alpha_intra_us, "alpha_intra"),
        ("--alpha-inter", alpha_inter_us, "alpha_inter"),
    ):
        if value is not None:
            value = check_range(value, flag, *ALPHA_RANGE)
            cal = cal._replace(**{key: float(value) * 1e-6})
    return cal, kw_intra, curve


def _check_step(t_micro: float, grad_accum: int, measured: bool, batch: str = "--batch") -> None:
    """A micro-batch and an optimizer step the step model can hold, blaming the inputs that made them (`batch`: the
    flag that set the micro-batch, --global-batch where it is a global batch's share)."""
    if not MIN_STEP_S <= t_micro <= MAX_STEP_S:  # 1e308 samples/s, or 1e-300: nothing to model
        # the inputs that made it: a measured rate, or the FLOPs estimate (--seq-len 3.5e9 named --throughput)
        made = "--throughput/--step-time" if measured else "--seq-len/--mfu"
        raise DpscaleError(
            f"{batch} with {made}: a micro-batch comes to {t_micro:.3g} s of compute; allowed: "
            f"inputs that put it between {MIN_STEP_S:g} s and {MAX_STEP_S:g} s"
        )
    if t_micro * grad_accum > MAX_STEP_S:  # 10^9 accumulation steps: a 6.7-year optimizer step, predicted quietly
        raise DpscaleError(
            f"--grad-accum: {grad_accum:,} micro-batches of {t_micro:.3g} s make a {t_micro * grad_accum:.3g} s step; "
            f"allowed: an optimizer step of at most {MAX_STEP_S:g} s (four months)"
        )


def _input_seconds(rate, batch, ga, throughput, step_s, d0, cl) -> float:
    """b / R, after checking that the measured baseline did not already run faster than the loader allows."""
    # bounded like --throughput: 1e-320 samples/s made a step of inf s and E nan
    check_range(rate, "--input-rate", *RATE, INPUT_RATE_ALLOWED)
    per_device = (
        throughput if throughput is not None else (per_step(batch * ga, step_s) if step_s is not None else None)
    )
    if per_device is not None and per_device * min(d0, cl.gpus_per_node) > rate * (1 + 1e-9):
        floor = per_device * min(d0, cl.gpus_per_node)
        raise fail("--input-rate", rate, f"at least the samples/s per node the baseline measured: {floor:g}")
    return batch / rate


def _micro_step(batch, ga, throughput, step_s, d0, spec, part, gpu, prec, mfu, seq_len, params, kw, notes,
                strong=False) -> float:  # fmt: skip
    """Seconds of compute in one micro-batch of `batch` samples: a measured baseline (--throughput or --step-time
    at d0 devices) inverted through the step model `kw` (micro_step_from_baseline), else FLOPs / (peak × MFU). What
    either says of itself (a rate past the GPU's peak, an estimated MFU) is appended to `notes`; under a fixed
    global batch (`strong`) the estimate names its micro-batch, the baseline size's, which no other size runs."""
    if mfu is not None:  # checked even when unused: 2.5 passed
        check_range(mfu, "--mfu", *MFU_RANGE, MFU_ALLOWED)
    if throughput is not None and step_s is not None:
        raise DpscaleError("--throughput and --step-time: give one measured baseline, not both")
    if mfu is not None and (throughput is not None or step_s is not None):  # it changed nothing, silently
        raise fail("--mfu", mfu, "only for a FLOPs estimate: a measured --throughput/--step-time already sets the "
                   "compute")  # fmt: skip
    typed_step = step_s
    if throughput is not None:  # (1e-320 samples/s would make the step ∞ s and blame --step-time)
        check_range(throughput, "--throughput", *RATE, THROUGHPUT_ALLOWED)
        step_s = per_step(batch * ga, throughput)
    elif step_s is not None:
        check_positive(step_s, "--step-time", "seconds > 0")
    if step_s is not None:
        try:
            t = micro_step_from_baseline(step_s, d0, ga, **kw)
        except DpscaleError as exc:  # the model cannot take a step this short: name the inputs that set it
            raise DpscaleError(f"--baseline-devices with --throughput/--step-time: {exc}") from None
        if part is not None and (spec is not None or seq_len is not None):
            fps = flops_per_sample(spec, seq_len, params) * batch / t
            notes.extend(_beyond_peak(fps, part, gpu, prec))
            if typed_step is not None:  # (a rate in samples/s has no milliseconds to slip)
                notes.extend(_step_time_floor(fps, typed_step, part, gpu, prec))
        return t
    if (spec is None and seq_len is None) or part is None:
        raise DpscaleError(
            "--throughput/--step-time: missing; allowed: a measured baseline, or --model PRESET (or --params with "
            "--seq-len, a transformer) with --gpu (or a --system that names one) to estimate compute from FLOPs and MFU"
        )
    peak = part["peak_tflops"].get(prec)  # gpus.json keys its peaks by these precision names
    if peak is None:
        raise DpscaleError(
            f"--precision: {prec} has no peak figure for {gpu}; allowed: {', '.join(part['peak_tflops'])}"
        )
    flops = flops_per_sample(spec, seq_len, params) * batch
    cnn = spec is not None and spec.get("kind") == "cnn" and mfu is None  # CNNs sit far from 0.35, by precision
    given, mfu = mfu, default_mfu(spec, prec, part) if mfu is None else mfu
    said = dict(tflop=flops / 1e12, pct=100 * mfu, peak=peak, gpu=gpu)
    # (a global batch of 1,024 on 64–512 GPUs: '193,300 TFLOP per micro-batch', one device's whole batch, beside rows
    # whose micro-batches of 16 to 2 take 3,020 to 378)
    notes.append(Note("compute_estimated_strong", b=batch, **said) if strong else Note("compute_estimated", **said))
    if spec is not None and spec.get("kind") == "transformer":  # what its FLOPs count, and what 6·N alone would
        notes.extend(_flops_per_token(spec, seq_len, params))
    if prec == "fp8" and given is None:
        notes.append(Note("fp8_mfu", base=default_mfu(spec, "bf16", part), mid=sum(FP8_GAIN) / 2, lo=FP8_GAIN[0],
                          hi=FP8_GAIN[1], ratio=fp8_peak_ratio(part), pct=100 * mfu))  # fmt: skip
    if cnn:
        notes.append(_cnn_mfu(spec, part, prec))
    tf32 = part["peak_tflops"].get("tf32")
    if spec is not None and spec.get("kind") == "cnn" and prec == "fp32" and tf32 and tf32 > peak:
        notes.append(Note("fp32_conv_tf32", gpu=gpu, fp32=peak, tf32=tf32))  # cuDNN's default since Ampere
    return flops / (peak * 1e12 * mfu)
