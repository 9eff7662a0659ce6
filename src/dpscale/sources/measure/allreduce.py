"""One rank's all-reduce bench, nccl-tests style: per size, warm up, then time a tight loop.

The timed loop is exactly a bare `dist.all_reduce` loop (no per-iteration barrier or sync) so
its busbw matches what the fabric gives PyTorch; benchmarks/bench_allreduce.py checks that.
"""

from __future__ import annotations

import time
from typing import Any

import torch
import torch.distributed as dist

from dpscale.sources.measure.calibration import row
from dpscale.sources.measure.rank import RankContext

BUDGET_S = 1.0  # timed seconds per size at most; slow sizes get fewer iterations (≥ 3)


def time_loop(ctx: RankContext, buf: torch.Tensor, iters: int, beat: bool = False) -> float:
    """Mean seconds per all-reduce over a tight loop, slowest rank. beat: one heartbeat per all-reduce (a shared
    counter's increment), for a train size's whole-gradient all-reduces after its last step: 10 of a 67 M-parameter
    model under a 2.5 s --timeout were read as a hang, and the finished size lost."""
    dist.barrier()
    ctx.sync()
    t0 = time.perf_counter()
    for _ in range(iters):
        dist.all_reduce(buf)
        if beat:
            ctx.beat()
    ctx.sync()
    return ctx.max_over_ranks([(time.perf_counter() - t0) / iters])[0]


def iterations(ctx: RankContext, buf: torch.Tensor, wanted: int) -> int:
    """Warm up and pick an iteration count every rank agrees on (from the slowest rank's warm-up): `wanted`, cut
    to the time budget but not below 3 — nor above what was asked (--iters 1 ran 3 and said so)."""
    first = time_loop(ctx, buf, 1)
    time_loop(ctx, buf, 1)
    return min(wanted, max(3, int(BUDGET_S / max(first, 1e-9))))


def run_allreduce(ctx: RankContext) -> dict[str, Any]:
    ctx.beat()
    rows = []
    for i, nbytes in enumerate(ctx.job.sizes, start=1):
        ctx.fault(i)
        buf = torch.ones(nbytes // 4, dtype=torch.float32, device=ctx.device)
        iters = iterations(ctx, buf, ctx.job.iters)
        rows.append(row(nbytes, time_loop(ctx, buf, iters), ctx.world, iters))
        del buf
        if ctx.partial:
            ctx.partial(result(ctx, rows))
        ctx.beat()
    return result(ctx, rows)


def result(ctx: RankContext, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"devices": ctx.world, "rows": list(rows), "backend": ctx.backend, "device": ctx.device.type}
