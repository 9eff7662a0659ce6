"""Step time of data-parallel training at d devices, term by term, vectorised over d.

    T(d) = compute + exposed all-reduce + synchronisation wait            (weak scaling)
- compute = ga·t_µ: ga micro-batches per optimizer step; the all-reduce runs once per step.
- exposed all-reduce: the gradient buckets' all-reduces (formulas/collectives.py, achievable
  bandwidth = spec × η, NCCL latency terms) left over after overlap with the last backward
  (formulas/overlap.py) — physics.md §1, §2.4.
- synchronisation wait: every step ends at a barrier, so it lasts as long as the slowest of d
  devices. If step durations vary with spread s around their mean, the expected maximum of d
  draws is s·m(d), m(d) = Φ⁻¹((d − 0.375)/(d + 0.25)) (Blom's approximation to the expected
  maximum of d standard normals; m(1) = 0). The spread has two parts: a share of the compute
  (c_c) and a share of the time to stream the gradients through device memory (c_h · G / HBM
  bandwidth): the bucket copies, casts and reduction kernels of synchronisation are memory-bound,
  and in the published runs this cost barely changes with link speed.
- sharded data parallelism (ZeRO / FSDP, `zero` = 1–3): the gradients are reduce-scattered unit by unit
  over backward — stage 1 once a step, over the last micro-batch's (DeepSpeed's hooks fire at the accumulation
  boundary), stage 2 in every micro-batch —
  and the parameters all-gathered: once a step for stages 1–2 — stage 1 after the optimizer step, where
  nothing hides it (DeepSpeed ZeRO-1, torch's ZeroRedundancyOptimizer), stage 2 prefetched over forward
  (FSDP SHARD_GRAD_OP) — and in forward and again in backward of every micro-batch for stage 3 (FSDP
  FULL_SHARD). Each is charged
  as half a flat ring all-reduce, (p−1)α + (p−1)/p·S·β (physics.md §1.1): with one micro-batch stages 1–2
  move the 2Ψ of DDP, stage 3 1.5× it [ZERO].
- input pipeline (optional): the node's loader delivers at most R samples/s, shared by the node's
  busy devices, so a step can take no less than ga·b·min(d, g)/R; the step is the longer of the two
  (the loader prefetches, so it overlaps everything else). Off unless the user measured R.
c_c and c_h are calibrated once, globally, on published measurements with cross-validation by
model family and by system (validation/calibrate.py); every other constant is physical or sourced.
"""

from __future__ import annotations

from collections import namedtuple
from statistics import NormalDist
from typing import Any

import numpy as np

from dpscale.errors import DpscaleError
from dpscale.formulas.collectives import (
    FILL_BYTES,
    algorithm_charged,
    allreduce_time,
    bandwidth_terms,
    link_bandwidth,
    nics_near,
    nodes,
    ragged_node_link,
)
from dpscale.formulas.overlap import BUCKET_CAP, FIRST_BUCKET, bucket_runs, exposed_comm
from dpscale.formulas.scaling import per_step, relative_efficiency

# fmt: off
Calibration = namedtuple("Calibration", (
    "eta_intra",       # achievable / spec intra-node bandwidth: NCCL models NVLink at 20 of 25 GB/s
                       #   [NCCL-TOPO]; measured busbw 78–82 % of spec [STAS-NET]
    "eta_inter",       # achievable / spec network bandwidth: ≈ 73 % of the NICs [STAS-NET]
    "alpha_base",      # s per collective: NCCL base latency, Simple protocol, 8.4 µs [NCCL-TUNE]
    "alpha_intra",     # s per intra-node hop: NVLink, ring, Simple, 3.4 µs [NCCL-TUNE]
    "alpha_inter",     # s per network hop: ring, Simple, 14 µs [NCCL-TUNE]
    "backward_share",  # backward / (forward + backward): 2/3, backward ≈ 2 × forward [MEG-TRAIN]
    "compute_jitter",  # c_c: spread of a step's compute, as a share of it — calibrated
    "sync_hbm_passes", # c_h: spread of synchronisation, in passes of the gradients through HBM — calibrated
    "ring_fill",       # s per intra-node ring step for large messages: 11.2 µs, derived from 8× A100
                       #   nccl-tests busbw 106 GB/s at 16 MiB and 138 at 32 MiB [STAS-NET]; 0 on Hopper
                       #   and later (gpus.json ring_fill_us: their published curve needs none)
    "ring_fill_bytes", # message size at which the fill is half grown: 10 MiB, derived likewise
    "sync_bytes_max",  # the largest gradient the calibration saw, 333 M parameters × 4 bytes (Jasper 10x5): the
                       #   c_h term is held there, not extrapolated (a 13 B FSDP run lost nothing from 8 to 64
                       #   H100s where the straight line predicted 20 %; docs/predict_report.md)
))
DEFAULT_HBM_TBS = 2.0  # when the GPU is unknown: A100-class memory bandwidth, rounded (gpus.json: 2.039 for 80 GB)
# fmt: on

DEFAULT = Calibration(
    eta_intra=0.80,
    eta_inter=0.73,
    alpha_base=8.4e-6,
    alpha_intra=3.4e-6,
    alpha_inter=14e-6,
    backward_share=2 / 3,
    compute_jitter=0.025,
    sync_hbm_passes=25.0,
    ring_fill=11.2e-6,
    ring_fill_bytes=FILL_BYTES,
    sync_bytes_max=333e6 * 4,
)

Breakdown = namedtuple(
    "Breakdown",
    (
        "devices",
        "compute_s",
        "allreduce_s",
        "exposed_s",
        "sync_wait_s",
        "step_s",
        "intra_s",
        "inter_s",
        "latency_s",
        "input_stall_s",
        "algorithm",  # the all-reduce the largest buckets run ("" on one device; ZeRO's: "ring"), if asked; else None
    ),
)

_inv_normal = NormalDist().inv_cdf


def expected_max(devices: Any) -> np.ndarray:
    """Expected maximum of d standard normal draws (Blom): 0 at d = 1, 1.434 at 8 (exact: 1.424), 3.234 at 1,024
    (3.248)."""
    d = np.atleast_1d(np.asarray(devices, dtype=float))
    uniq, inverse = np.unique(d, return_inverse=True)
    # Φ⁻¹((d − 0.375)/(d + 0.25)) = −Φ⁻¹(0.625/(d + 0.25)): the tail form stays exact for any d (the other
    # rounds to Φ⁻¹(1) past d ≈ 6e15)
    vals = np.array([-_inv_normal(0.625 / (x + 0.25)) if x > 1 else 0.0 for x in uniq])
    return vals[inverse].reshape(d.shape)


def step_time(
    devices: Any,
    micro_step_s: float,
    grad_bytes: float,
    gpus_per_node: int,
    intra_bw_gbs: float,
    inter_bw_gbs: float,
    grad_accum: Any = 1,
    cal: Calibration = DEFAULT,
    overlap: bool = True,
    overlap_accumulation: bool = False,
    bucket_cap: float = BUCKET_CAP,
    first_bucket: float = FIRST_BUCKET,
    algorithm: str = "auto",
    hbm_tbs: float = DEFAULT_HBM_TBS,
    intra_curve: Any = None,
    intra_by_gpus: dict | None = None,
    input_s: float = 0.0,
    zero: int = 0,
    param_bytes: float | None = None,
    name_algorithm: bool = False,
    inter_nics: int | None = None,
    inter_node: tuple[int, int] | None = None,
) -> Breakdown:
    """Every term of the step time at each device count (arrays over d).

    intra_curve: a measured (bytes, busbw GB/s) table for the node (`dpscale measure allreduce`); each
    bucket's intra-node bandwidth is read off it (log-size interpolation, ends held), latency included.
    input_s: seconds the node's input pipeline needs for one device's micro-batch (b / R); 0: never binding.
    overlap_accumulation: with grad_accum > 1, whether the all-reduce overlaps the last micro-batch's backward
    (DDP's no_sync). Off by default: the published implementations accumulate, then all-reduce the sum
    (Horovod's accumulation in DeepLearningExamples' TF BERT, PyTorch BERT's allreduce_post_accumulation,
    Megatron before overlap_grad_reduce), so it is all exposed. DDP's alone: no ZeRO stage waits for the sum.
    zero, param_bytes: the ZeRO stage (0: DDP) and the bytes of parameters all-gathered (stages 1–3; default
    grad_bytes). A forward all-gather is the backward timeline run in reverse: each gather must end before its
    layer computes, as each reduction starts after its layer's gradients are ready.
    name_algorithm: fill `algorithm` with the all-reduce each size's largest buckets run (for display).
    inter_nics: the NICs a whole node's GPUs reach (None: not known). A ragged last node of r < g GPUs reaches
    ⌈nics·r/g⌉ of them, and every algorithm's network phase waits for it (each node sends and receives the same
    bytes: 2(p−1)/p·S in a ring, 2S in the tree): its share of inter_bw_gbs is the network at that size.
    inter_node: (NICs, GPUs) of the whole node where the run takes g of its GPUs (a --gpus-per-node below the
    system's): the last node's r GPUs are GPUs 0..r−1 of it, which reach ⌈NICs·r/GPUs⌉ of its NICs."""
    d = np.atleast_1d(np.asarray(devices, dtype=float))
    ga = np.broadcast_to(np.asarray(grad_accum, dtype=float), d.shape)
    sizes, counts = bucket_runs(grad_bytes, bucket_cap, first_bucket)  # ≤ 3 runs of equal buckets
    links = _links(d, gpus_per_node, intra_bw_gbs, inter_bw_gbs, cal, intra_curve, intra_by_gpus, inter_nics,
                   inter_node)  # fmt: skip
    backward = np.full(d.shape, cal.backward_share * micro_step_s)
    accumulated = (ga > 1) & (not overlap_accumulation)  # DDP's sum is reduced after the last micro-batch
    if not zero:
        total_ar, exposed, intra, net = _replicated(links, sizes, counts, algorithm, backward, accumulated, overlap)
    else:
        gathered = sizes * (param_bytes or grad_bytes) / grad_bytes
        forward = (1 - cal.backward_share) * micro_step_s
        total_ar, exposed, intra, net = _sharded(links, sizes, gathered, counts, zero, ga, forward, backward,
                                                 overlap)  # fmt: skip
    # one device: nothing to expose (the overlap sums leave 1e-17); and never more than the whole all-reduce — a
    # difference of a long backward's seconds carried its last bit past it (1.7e-15 s over 1.56 ms, review LP)
    exposed = np.where(d > 1, np.minimum(exposed, total_ar), 0.0)
    compute = ga * micro_step_s
    wait = _sync_wait(d, compute, grad_bytes, hbm_tbs, cal)
    model = compute + exposed + wait
    step = np.maximum(model, input_step(d, ga, input_s, gpus_per_node))
    intra, inter = (_total(t, counts) for t in (intra, net))
    named = None  # the displayed sizes only: naming it cost calibrate's many calls 30 %
    if name_algorithm:
        named = _largest_buckets_algorithm(links, sizes, "ring" if zero else algorithm)
    return Breakdown(
        devices=d,
        compute_s=compute,
        allreduce_s=total_ar,
        exposed_s=exposed,
        sync_wait_s=wait,
        step_s=step,
        intra_s=intra,
        inter_s=inter,
        latency_s=np.maximum(total_ar - intra - inter, 0.0),
        input_stall_s=step - model,
        algorithm=named,
    )


# What every collective of one step_time call reads: the sizes d, the node, the intra-node bandwidth per d (None
# where a measured curve gives it per message size), that curve, the network's achievable GB/s, NCCL's latencies.
_Links = namedtuple(
    "_Links", ("d", "gpus_per_node", "node_bw", "hier_bw", "intra_curve", "b_inter", "lat", "alpha_base")
)


def _links(d: np.ndarray, gpus_per_node: int, intra_bw_gbs: float, inter_bw_gbs: float, cal: Calibration,
           intra_curve: Any, intra_by_gpus: dict | None, inter_nics: int | None = None,
           inter_node: tuple[int, int] | None = None) -> _Links:  # fmt: skip
    """The cluster as the collectives see it, achievable = spec × η; the node's figure over d computed once, the
    network's too (a ragged last node's NICs: `ragged_network_share`)."""
    node_bw = hier_bw = None  # the hierarchical's phases wait for a ragged last node's (`ragged_node_link`)
    if intra_curve is None:
        node_bw = cal.eta_intra * link_bandwidth(d, gpus_per_node, intra_bw_gbs, intra_by_gpus)
        hier_bw = cal.eta_intra * ragged_node_link(d, gpus_per_node, intra_bw_gbs, intra_by_gpus)
    lat = {"alpha_intra_s": cal.alpha_intra, "alpha_inter_s": cal.alpha_inter, "fill_s": cal.ring_fill,
           "fill_bytes": cal.ring_fill_bytes}  # fmt: skip
    b_inter = cal.eta_inter * inter_bw_gbs * ragged_network_share(d, gpus_per_node, inter_nics, inter_node)
    return _Links(d, gpus_per_node, node_bw, hier_bw, intra_curve, b_inter, lat, cal.alpha_base)


def ragged_network_share(devices: Any, gpus_per_node: Any, nics: int | None,
                         node: tuple[int, int] | None = None) -> Any:  # fmt: skip
    """Share of a node's network the slowest node has at each size: 1 where every node is whole (or the NICs are not
    known); a last node of r = d − g·(⌈d/g⌉ − 1) GPUs reaches ⌈nics·r/g⌉ of the nics (NCCL pairs each GPU with its
    nearest NIC): 9 ranks on 8 × 400 Gb DGX H100 nodes cross one NIC, not eight. node: (NICs, GPUs) of the whole
    node where the run takes g < GPUs of each; then the r GPUs are GPUs 0..r−1 of it and reach ⌈NICs·r/GPUs⌉ (at
    most the nics its g reach): 2 GPUs of a DGX-1 one EDR NIC, as under --gpus-per-node 2, where with 7 a node
    ⌈⌈4·7/8⌉·2/7⌉ gave them two.
    Between whole sizes (solve reads E there for the exact size) the share runs in a straight line from one whole
    size's to the next's, as link_bandwidth's figure does: a ceiling of fractional GPUs gave 9.001 ranks the
    network of 10, so E leapt up just past 9 and a speedup 9 ranks miss was 'needed exactly' at 9.000000001."""
    d = np.asarray(devices, dtype=float)
    if not nics:
        return np.ones(d.shape)

    def at(n: np.ndarray) -> np.ndarray:  # the share at whole sizes n
        g, k = nodes(n, gpus_per_node)
        r = n - g * (k - 1.0)
        of, whole = node or (nics, g)  # the last node's GPUs 0..r−1 of the whole node, whose NICs they reach
        return np.where((k > 1) & (r < g), np.minimum(nics_near(r, of, whole), nics) / nics, 1.0)

    lo, hi = np.floor(d), np.ceil(d)
    below = at(np.where(lo > gpus_per_node, lo, hi))  # one node crosses no network: up to the first ragged size, its
    return below + (at(hi) - below) * (d - lo)  # share (whole sizes: exactly theirs)


def _intra_bw(links: _Links, nbytes: np.ndarray, hier: bool = False) -> np.ndarray:
    """(d, messages): the node's bandwidth per device count (link_bandwidth; `hier`: as the hierarchical's phases
    see it, ragged_node_link), or a measured table's at each message's own size — a ZeRO gather of 1-byte weights
    is a smaller message than its 4-byte reduction."""
    if links.intra_curve is None:
        return np.outer(links.hier_bw if hier else links.node_bw, nbytes**0)
    return np.interp(np.log(nbytes), np.log(links.intra_curve[0]), links.intra_curve[1])[None, :]


def _collective(links: _Links, nbytes: np.ndarray, alg: str, share: float) -> tuple[np.ndarray, Any, Any]:
    """(time, intra-node s, network s) of one collective per bucket run: `share` of the all-reduce `alg`."""
    d = links.d
    args = (nbytes[None, :], d[:, None], links.gpus_per_node, _intra_bw(links, nbytes), links.b_inter[:, None])
    hier = _intra_bw(links, nbytes, hier=True)
    t = share * allreduce_time(*args, algorithm=alg, **links.lat, hier_intra_gbs=hier) + links.alpha_base
    intra, net = (share * x for x in bandwidth_terms(*args, alg, **links.lat, hier_intra_gbs=hier))
    return np.where(d[:, None] > 1, t, 0.0), intra, net


def _total(per_run: Any, counts: np.ndarray) -> Any:
    """Over all the step's buckets: each run's one-bucket figure times its count, summed per d."""
    return (per_run * counts).sum(axis=1)


def _replicated(links: _Links, sizes: np.ndarray, counts: np.ndarray, algorithm: str, backward: np.ndarray,
                accumulated: np.ndarray, overlap: bool) -> tuple[Any, Any, Any, Any]:  # fmt: skip
    """DDP's (all-reduce, exposed, intra-node, network) s: one all-reduce a step, hidden behind the last backward
    unless accumulated micro-batches wait for it."""
    per_run, intra, net = _collective(links, sizes, algorithm, 1.0)
    total_ar = _total(per_run, counts)
    exposed = np.where(accumulated, total_ar, exposed_comm(per_run, sizes, counts, backward, overlap))
    return total_ar, exposed, intra, net


def _sharded(links: _Links, sizes: np.ndarray, gathered: np.ndarray, counts: np.ndarray, zero: int, ga: np.ndarray,
             forward: float, backward: np.ndarray, overlap: bool) -> tuple[Any, Any, Any, Any]:  # fmt: skip
    """ZeRO's (collectives, exposed, intra-node, network) s: reduce-scatter over backward, all-gathers before
    use: rings, each half an all-reduce, as many a step as the stage runs them. No stage waits for accumulation to
    end: stage 1's one reduction a step runs over the last micro-batch's backward — DeepSpeed's overlap_comm hooks
    reduce at the accumulation boundary (`partition_gradients or is_gradient_accumulation_boundary`,
    stage_1_and_2.py); without overlap (overlap_comm: false) all of it follows backward."""
    rs, intra, net = _collective(links, sizes, "ring", 0.5)
    ag, ag_intra, ag_net = _collective(links, gathered, "ring", 0.5)
    # Forward gathers the units in the reverse of backward's order, and its timeline is backward's run in
    # reverse (a gather must end before its unit computes, as a reduction starts after its unit's gradients
    # are ready): the two reversals cancel, so backward's order times it.
    fwd = exposed_comm(ag, sizes, counts, forward, overlap)
    bwd_rs = exposed_comm(rs, sizes, counts, backward, overlap)
    # per optimizer step: stage 1 reduce-scatters the accumulated gradients once, stage 2 every micro-batch
    # (the shards accumulate); stage 3 also gathers in every micro-batch's forward and backward
    n_rs = ga if zero >= 2 else np.ones_like(ga)
    n_ag = 2.0 * ga if zero == 3 else np.ones_like(ga)
    rs_total, ag_total = _total(rs, counts), _total(ag, counts)
    total = n_rs * rs_total + n_ag * ag_total
    intra, net = (n_rs[:, None] * x + n_ag[:, None] * y for x, y in ((intra, ag_intra), (net, ag_net)))
    if zero == 1:  # its gather follows the optimizer step (DeepSpeed, torch's ZeroRedundancyOptimizer): exposed
        exposed = ag_total + bwd_rs
    elif zero == 2:
        exposed = fwd + ga * bwd_rs
    else:  # backward's gathers ride with its reductions (a unit's gather then counts after its compute)
        exposed = ga * (fwd + exposed_comm(rs + ag, sizes, counts, backward, overlap))
    return total, exposed, intra, net


def _sync_wait(d: np.ndarray, compute: Any, grad_bytes: float, hbm_tbs: float, cal: Calibration) -> Any:
    """The barrier's wait for the slowest of d devices: m(d) × the spread of compute and of the gradients' passes
    through HBM (held at the largest gradient calibrated)."""
    spread = cal.compute_jitter * compute + cal.sync_hbm_passes * min(grad_bytes, cal.sync_bytes_max) / (hbm_tbs * 1e12)
    return np.where(d > 1, expected_max(d) * spread, 0.0)


def _largest_buckets_algorithm(links: _Links, sizes: np.ndarray, algorithm: str) -> Any:
    """The all-reduce each size's largest buckets run (for display): they carry the bytes."""
    j = int(np.argmax(sizes))  # the buckets that carry the bytes
    return algorithm_charged(sizes[j], links.d, links.gpus_per_node, _intra_bw(links, sizes)[:, j], links.b_inter,
                             links.lat["alpha_intra_s"], links.lat["alpha_inter_s"], algorithm,
                             _intra_bw(links, sizes, hier=True)[:, j])  # fmt: skip


def input_step(devices: Any, grad_accum: Any, input_s: float, gpus_per_node: Any) -> Any:
    """The shortest optimizer step the node's input pipeline allows: its loader serves its busy devices in turn,
    ga micro-batches each (0 where no loader rate was given)."""
    return grad_accum * input_s * np.minimum(np.asarray(devices, dtype=float), gpus_per_node)


def micro_step_at(batch: Any, micro_step_s: float, ref_batch: float) -> Any:
    """One micro-batch's compute at another per-device batch: in proportion to it, t_µ·b/b0. A fixed global batch
    split over more devices (strong scaling) shrinks each device's compute while its all-reduce stays, so E falls
    faster than at a fixed per-device batch. No share of the step is held fixed: fitted on the calibration's rows
    its optimum was none (validation/experiments/strong_scaling_share.py)."""
    return micro_step_s * (np.asarray(batch, dtype=float) / ref_batch)


def micro_step_from_baseline(
    baseline_step_s: float, baseline_devices: int, baseline_grad_accum: int, strict: bool = True, **kw: Any
) -> float:
    """Compute time of one micro-batch, from a measured optimizer step at the baseline size.

    A one-node baseline already pays synchronisation, so solve T0 = T(d0; t_µ) for t_µ. T rises with t_µ
    (compute grows by ga·t_µ; overlap hides at most the backward share of it) and T(T0/ga) ≥ T0, so the root is
    bracketed in [0, T0/ga]: false position with the Illinois step, halving the bracket whenever that stalls,
    is exact to 1e-12 even for a baseline that is nearly all overhead (a plain fixed-point iteration once
    stopped 13 % short there).
    A step no longer than the model's overhead alone has no solution: an error, unless not `strict`
    (validation and calibration score such a row instead, with t_µ = 0)."""
    t0 = baseline_step_s / baseline_grad_accum
    if baseline_devices <= 1:
        return t0

    def gap(t: float) -> float:
        return float(step_time(baseline_devices, t, grad_accum=baseline_grad_accum, **kw).step_s[0]) - baseline_step_s

    g_lo = gap(0.0)
    if g_lo >= 0:  # T(d0; t_µ) ≥ T(d0; 0): no compute time can give this step
        if not strict:
            return 0.0
        raise DpscaleError(
            f"a step of {baseline_step_s:.4g} s at {baseline_devices} devices is shorter than this cluster's "
            f"modelled all-reduce and wait alone ({g_lo + baseline_step_s:.4g} s); allowed: a baseline measured "
            "on this model and cluster, or at one device"
        )
    lo, hi, g_hi = 0.0, t0, gap(t0)
    side = 0
    for _ in range(200):
        if g_hi <= 0 or hi - lo <= 1e-12 * hi:
            break
        width = hi - lo
        t = hi - g_hi * (hi - lo) / (g_hi - g_lo)
        t = t if lo < t < hi else 0.5 * (lo + hi)
        g = gap(t)
        if g == 0:
            return t
        if g < 0:
            lo, g_lo = t, g
            g_hi, side = (g_hi / 2, side) if side == -1 else (g_hi, -1)  # Illinois: the stale end's weight halves
        else:
            hi, g_hi = t, g
            g_lo, side = (g_lo / 2, side) if side == 1 else (g_lo, 1)
        if hi - lo > 0.5 * width:  # a slow step: halve the bracket as well
            mid = 0.5 * (lo + hi)
            gm = gap(mid)
            if gm < 0:
                lo, g_lo = mid, gm
            else:
                hi, g_hi = mid, gm
    return hi


def efficiency(step: Breakdown, baseline: Breakdown, grad_accum: Any, baseline_grad_accum: float) -> Any:
    """E(d) = per-device throughput at d / per-device throughput at the baseline size (micro-batches a second:
    the samples of each are the caller's), through the core's one definition of a measured E."""
    per_device = per_step(np.asarray(grad_accum, dtype=float), step.step_s)
    return relative_efficiency(per_device, 1, per_step(baseline_grad_accum, baseline.step_s))
