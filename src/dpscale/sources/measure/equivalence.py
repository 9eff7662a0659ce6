"""Does DDP over d ranks × batch b train exactly like one process on the d·b batch?

Every rank makes the same global batch of d·b samples and takes its own slice; DDP averages the
ranks' mean-loss gradients. Rank 0 also runs an undistributed copy of the model on the whole
batch. With a mean loss both give the same gradient up to summation order, so the max absolute
difference must sit at rounding level: THRESHOLDS × the largest |gradient| (relative: an absolute floor of
1 once let a 1e-6-scaled sum loss pass in float32, 50 % off on gradients of 4.5e-6).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from dpscale.sources.measure import workloads
from dpscale.sources.measure.rank import RankContext

THRESHOLDS = {"float64": 1e-10, "float32": 1e-4}  # × the largest |gradient|; measured ≤ 3e-15, 6e-6 (cnn, d = 2)


def _grads(model: torch.nn.Module) -> torch.Tensor:
    return torch.cat([p.grad.reshape(-1) for p in model.parameters() if p.grad is not None])


def check(ctx: RankContext, dtype: torch.dtype) -> dict[str, Any] | None:
    """Full-precision arithmetic for the comparison: cuDNN's default TF32 may pick different kernels for the
    per-rank batch b and the reference's d·b, and their rounding differs by more than the float32 threshold."""
    tf32 = torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32
    torch.backends.cudnn.allow_tf32 = torch.backends.cuda.matmul.allow_tf32 = False
    try:
        return _check(ctx, dtype)
    finally:
        torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32 = tf32


def _check(ctx: RankContext, dtype: torch.dtype) -> dict[str, Any] | None:
    job, d, b = ctx.job, ctx.world, ctx.job.batch
    wl = workloads.load(job.workload, job.model_file)
    torch.manual_seed(0)
    model = wl.model().to(device=ctx.device, dtype=dtype)
    reference = copy.deepcopy(model)
    ddp = DDP(model, device_ids=[ctx.device.index] if ctx.device.type == "cuda" else None,
              find_unused_parameters=wl.find_unused)  # fmt: skip
    x, y = wl.batch(d * b, torch.Generator().manual_seed(1234))  # the same global batch on every rank
    if x.is_floating_point():
        x = x.to(dtype)
    x, y = x.to(ctx.device), y.to(ctx.device)
    mine = slice(ctx.rank * b, (ctx.rank + 1) * b)
    wl.loss(ddp(x[mine]), y[mine]).backward()
    dist.barrier()
    if ctx.rank != 0:
        return None
    wl.loss(reference(x), y).backward()
    got, want = _grads(model).double(), _grads(reference).double()
    name = str(dtype).removeprefix("torch.")
    scale = max(float(want.abs().max()), 1e-300)  # all-zero gradients must then agree exactly
    diff = float((got - want).abs().max())
    return {
        "dtype": name,
        "max_abs_diff": diff,
        "grad_max": float(want.abs().max()),
        "tolerance": THRESHOLDS[name],  # relative: the threshold is this × the largest |gradient|
        "threshold": THRESHOLDS[name] * scale,
        "passed": diff <= THRESHOLDS[name] * scale,
        "params": int(want.numel()),
    }


def run_equivalence(ctx: RankContext) -> dict[str, Any]:
    ctx.beat()
    checks = []
    for i, dtype in enumerate((torch.float64, torch.float32), start=1):
        ctx.fault(i)
        checks.append(check(ctx, dtype))
        ctx.beat()
    # named as a train record names it (a model file by its stem: 'sumloss', not the path as typed)
    wl = Path(ctx.job.model_file).stem if ctx.job.model_file else ctx.job.workload
    return {
        "devices": ctx.world,
        "workload": wl,
        "batch": ctx.job.batch,
        "global_batch": ctx.world * ctx.job.batch,
        "backend": ctx.backend,
        "checks": checks,
        "passed": all(c["passed"] for c in checks if c),
    }
