"""One rank's DDP training measurement: synchronised steps vs the same steps under no_sync.

Per repeat the rank times `steps` steps with gradients all-reduced (what training costs) and
`steps` steps under `DDP.no_sync()` (compute alone; each rank then steps on its own gradient, so rank 0's
weights are broadcast again after that phase, outside the clock: the replicas stay identical). The
difference is the communication that backward did not hide. A standalone all-reduce of the whole
gradient gives the communication time itself, so overlap = 1 − exposed / comm. Times are the slowest rank's.

Sharded (job.zero): 1 is DDP with torch's ZeroRedundancyOptimizer — DDP's all-reduce in backward, then each
rank updates its shard of the optimizer states and broadcasts the updated parameters (not DeepSpeed's
reduce-scatter and gather, which `dpscale predict --zero 1` models); 2 and 3 are FSDP2's fully_shard on every
child module with parameters (tied ones stay with the root) and on the root — 3 reshards the parameters after
forward (FULL_SHARD), 2 keeps them until backward ends (SHARD_GRAD_OP), as `predict --zero 2|3` models (stage 2
with `--bucket-mb` one layer's gradients: its default units are DeepSpeed's buckets). Their
ranks cannot step apart (the states are split), so only the synchronised steps are timed: no compute-alone
phase, no overlap figure, and for 2–3 no replica check (each rank holds a different shard by design).
"""

from __future__ import annotations

import time
from typing import Any

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from dpscale.sources.measure import cores, workloads
from dpscale.sources.measure.allreduce import time_loop
from dpscale.sources.measure.rank import RankContext


def run_train(ctx: RankContext) -> dict[str, Any]:
    job = ctx.job
    wl = workloads.load(job.workload, job.model_file)
    torch.manual_seed(0)  # same initial weights everywhere (DDP also broadcasts rank 0's)
    model = wl.model().to(ctx.device)
    params = sum(p.numel() for p in model.parameters() if p.requires_grad)
    grad_bytes = sum(p.numel() * p.element_size() for p in model.parameters() if p.requires_grad)
    ddp, opt = _wrap(model, job.zero, ctx.device, wl.find_unused)
    # what this rank holds of the weights: all of them, or its shard (FSDP's DTensors: the local part)
    held = sum(getattr(p, "to_local", lambda p=p: p)().numel() for p in model.parameters() if p.requires_grad)
    gen = torch.Generator().manual_seed(1000 + ctx.rank)  # each rank its own shard of data
    x, y = (t.to(ctx.device) for t in wl.batch(job.batch, gen))
    ctx.beat()  # model ready
    step_index = 0

    def step() -> None:
        opt.zero_grad(set_to_none=True)
        wl.loss(ddp(x), y).backward()
        opt.step()

    def phase(n: int, sync: bool) -> float:
        nonlocal step_index
        dist.barrier()
        ctx.sync()
        t0 = time.perf_counter()
        for _ in range(n):
            step_index += 1
            ctx.fault(step_index)  # before the beat: a hung rank is the one that got least far
            ctx.beat()
            if sync:
                step()
            else:
                with ddp.no_sync():
                    step()
            ctx.beat()
        ctx.sync()
        elapsed = time.perf_counter() - t0
        if not sync:  # each rank stepped on its own gradient: put rank 0's weights back everywhere, untimed
            with torch.no_grad():
                for p in model.parameters():
                    dist.broadcast(p, 0)
        return elapsed

    phase(job.warmup, True)
    if not job.zero:
        phase(min(job.warmup, 2), False)
    sync_s, nosync_s = [], []
    for _ in range(job.repeats):
        t_nosync = 0.0 if job.zero else phase(job.steps, False)
        t_sync = phase(job.steps, True)
        t_sync, t_nosync = ctx.max_over_ranks([t_sync, t_nosync])
        sync_s.append(t_sync)
        nosync_s.append(t_nosync)
    opt.zero_grad(set_to_none=True)  # free the gradients before the standalone buffer (large models)
    comm_s = drift = None
    if not job.zero:
        trainable = [p for p in model.parameters() if p.requires_grad]
        dtype = max({p.dtype for p in trainable}, key=lambda t: sum(p.numel() for p in trainable if p.dtype == t))
        size = torch.empty((), dtype=dtype).element_size()
        comm_s = _allreduce_time(ctx, grad_bytes // size, min(job.steps, 10), dtype)
    ctx.beat()
    if job.zero <= 1:  # ZeRO-1 keeps whole replicas: they must still agree
        drift = _replica_drift(model, ctx.device)
    ctx.beat()
    return {
        "zero": job.zero,
        "ddp": _ddp_settings(ddp),
        "replica_drift": drift,
        "devices": ctx.world,
        "workload": wl.name,
        "sync_s": sync_s,
        "nosync_s": None if job.zero else nosync_s,
        "comm_s": comm_s,
        "params": params,
        "params_per_rank": held,
        "grad_bytes": grad_bytes,
        "backend": ctx.backend,
        "device": ctx.device.type,
        "threads": ctx.threads,
        "torch": str(torch.__version__),  # the build that ran the steps: two torch versions in one --out read alike
        # this node's ranks × threads against its cores: the CLI's warning went to stderr alone, and a record of ranks
        # thrashing on shared cores read in `dpscale fit` as one of the hardware's scaling
        "cores": cores(),
        "oversubscribed": ctx.local_world * ctx.threads > cores(),
        "nodes": ctx.nodes,
    }


def _wrap(model: torch.nn.Module, zero: int, device: torch.device, find_unused: bool) -> tuple[Any, Any]:
    """(the module to train, its optimizer) for DDP or a ZeRO stage (see the module's docstring)."""
    if zero >= 2:
        from torch.distributed.device_mesh import init_device_mesh
        from torch.distributed.fsdp import fully_shard

        with torch.no_grad():  # one starting model everywhere, as DDP broadcasts it (a model file may not seed)
            for t in [*model.parameters(), *model.buffers()]:
                dist.broadcast(t, 0)
        # the rank's own device type: without a mesh FSDP2 picks CUDA wherever one exists, even for a gloo run
        mesh = init_device_mesh(device.type, (dist.get_world_size(),))
        owners: dict[int, int] = {}  # parameter → how many children hold it (tied weights: an embedding and a head)
        for child in model.children():
            for p in child.parameters():
                owners[id(p)] = owners.get(id(p), 0) + 1
        for child in model.children():  # one unit per child, as an auto-wrap policy makes; tied ones stay with the
            ps = list(child.parameters())  # root (FSDP2 refuses a parameter in two units)
            if ps and all(owners[id(p)] == 1 for p in ps):
                fully_shard(child, mesh=mesh, reshard_after_forward=zero == 3)
        fully_shard(model, mesh=mesh, reshard_after_forward=zero == 3)
        return model, torch.optim.SGD(model.parameters(), lr=1e-4)
    ddp = DDP(model, device_ids=[device.index] if device.type == "cuda" else None, find_unused_parameters=find_unused)
    if zero == 1:
        from torch.distributed.optim import ZeroRedundancyOptimizer

        return ddp, ZeroRedundancyOptimizer(ddp.parameters(), optimizer_class=torch.optim.SGD, lr=1e-4)
    return ddp, torch.optim.SGD(ddp.parameters(), lr=1e-4)


def _ddp_settings(module: Any) -> dict[str, Any] | None:
    """The DDP settings the steps ran with, read off the wrapper (torch's defaults but find_unused_parameters, which a
    model file sets): in the record, so it says what was measured — the bucket sizes are what the overlap model
    (physics.md §2) assumes, and gradient_as_bucket_view False is why the bucket copies count as exposed. None under
    FSDP (no buckets)."""
    if not isinstance(module, DDP):
        return None
    cap = int(module.bucket_bytes_cap)
    default = getattr(module, "bucket_bytes_cap_default", False)  # (torch's defaults: a smaller first bucket)
    first = getattr(dist, "_DEFAULT_FIRST_BUCKET_BYTES", None) if default else cap
    # (forward_sync_buffers since torch 2.13, where broadcast_buffers is its alias; older torch has only that)
    sync_buffers = vars(module).get("forward_sync_buffers", getattr(module, "broadcast_buffers", None))
    return {
        "bucket_cap_mb": cap / 2**20,
        "first_bucket_mb": None if first is None else first / 2**20,
        "gradient_as_bucket_view": bool(module.gradient_as_bucket_view),
        "static_graph": bool(module.static_graph),
        "find_unused_parameters": bool(module.find_unused_parameters),
        "forward_sync_buffers": None if sync_buffers is None else bool(sync_buffers),
    }


def _replica_drift(model: torch.nn.Module, device: torch.device) -> float:
    """Largest difference across ranks of a checksum of the weights (sum and sum of squares, in float64):
    0 when DDP kept the replicas identical, as data parallelism requires. Reduced on the rank's own device:
    NCCL takes GPU tensors only."""
    with torch.no_grad():  # one parameter at a time: no float64 copy of the whole model on the device
        total = torch.zeros(2, dtype=torch.float64, device=device)
        for p in model.parameters():
            total[0] += p.sum(dtype=torch.float64)
            total[1] += torch.linalg.vector_norm(p, dtype=torch.float64) ** 2
        sums = total
    hi, lo = sums.clone(), -sums
    dist.all_reduce(hi, op=dist.ReduceOp.MAX)
    dist.all_reduce(lo, op=dist.ReduceOp.MAX)  # max of −x: the minimum
    return float((hi + lo).abs().max().cpu())


def _allreduce_time(ctx: RankContext, numel: int, iters: int, dtype: torch.dtype = torch.float32) -> float:
    """Seconds to all-reduce the whole gradient once, alone (no overlapping compute), in the gradients' dtype
    (a bf16 model's all-reduce moves half a float32 buffer's bytes)."""
    buf = torch.ones(numel, device=ctx.device, dtype=dtype)
    dist.all_reduce(buf)  # warm-up: the first call sets up the communicator
    ctx.beat()
    return time_loop(ctx, buf, max(1, iters), beat=True)  # the same timed loop as `dpscale measure allreduce`
