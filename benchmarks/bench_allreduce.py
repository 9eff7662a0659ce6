"""Is `dpscale measure allreduce` as fast as a bare `dist.all_reduce` loop? Prints busbw ratios (goal ≥ 0.9).

Two gloo ranks (or NCCL with --device cuda) share one process group. For each size, rank 0 runs
dpscale's bench (warm-up, iteration choice, tight timed loop) and a bare loop of `dist.all_reduce`
timed with perf_counter, alternating ROUNDS rounds each, and keeps each side's best round. Both sides
report the slowest rank's loop time (taken after the loop, outside the timing), as nccl-tests do.
The ratio is ours / bare busbw; ≥ 0.9 means the bench reports the bandwidth PyTorch really gets.

    python benchmarks/bench_allreduce.py [--sizes 64KB..64MBx4] [--devices 2] [--device cpu]
"""

from __future__ import annotations

import argparse
import math
import time

from timing import count

ROUNDS = 10  # per size and side; each side keeps its best round (the machine may be shared)


def rank_main(rank: int, world: int, port: int, sizes: tuple[int, ...], device: str, queue) -> None:
    import torch
    import torch.distributed as dist

    from dpscale.formulas.collectives import busbw_factor
    from dpscale.sources.measure.allreduce import iterations, time_loop
    from dpscale.sources.measure.jobs import Job
    from dpscale.sources.measure.rank import RankContext, quiet_exit, setup

    ctx = RankContext(rank, world, rank, world, Job(mode="allreduce", sizes=sizes, device=device))
    setup(ctx)
    store = dist.TCPStore("127.0.0.1", port, world, rank == 0)
    dist.init_process_group(ctx.backend, store=store, rank=rank, world_size=world)
    rows = []
    for nbytes in sizes:
        buf = torch.ones(nbytes // 4, device=ctx.device)
        iters = iterations(ctx, buf, 20)
        ours, bare = math.inf, math.inf
        for r in range(ROUNDS):
            if r % 2:  # alternate which goes first, so drift and cache state favour neither
                ours = min(ours, time_loop(ctx, buf, iters))
            dist.barrier()
            ctx.sync()
            t0 = time.perf_counter()
            for _ in range(iters):
                dist.all_reduce(buf)
            ctx.sync()
            bare = min(bare, ctx.max_over_ranks([(time.perf_counter() - t0) / iters])[0])
            if not r % 2:
                ours = min(ours, time_loop(ctx, buf, iters))  # dpscale's timed loop
        f = float(busbw_factor(world)) or 1.0
        rows.append((nbytes, iters, f * nbytes / ours / 1e9, f * nbytes / bare / 1e9))
    if rank == 0:
        queue.put(rows)
    dist.barrier()
    dist.destroy_process_group()
    quiet_exit()


def main() -> None:
    import socket

    import torch.multiprocessing as tmp

    from dpscale.errors import DpscaleError
    from dpscale.sources.measure.calibration import parse_sizes

    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])  # (no docstring under python -OO)
    p.add_argument("--sizes", default="64KB..64MBx4")
    p.add_argument("--devices", type=count(1), default=2)
    p.add_argument("--device", default="cpu", choices=("cpu", "cuda", "auto"))
    a = p.parse_args()
    try:
        sizes = parse_sizes(a.sizes)
    except DpscaleError as exc:
        p.error(str(exc))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    q = tmp.get_context("spawn").SimpleQueue()
    tmp.start_processes(rank_main, (a.devices, port, sizes, a.device, q), a.devices)
    rows = q.get()
    print(f"{'bytes':>11}  {'iters':>5}  {'ours GB/s':>10}  {'bare GB/s':>10}  ratio")
    for nbytes, iters, ours, bare in rows:
        print(f"{nbytes:>11,}  {iters:>5}  {ours:>10.3f}  {bare:>10.3f}  {ours / bare:.3f}")
    big = [o / b for n, _, o, b in rows if n >= 1 << 20] or [o / b for _, _, o, b in rows]
    gmean = math.exp(sum(map(math.log, big)) / len(big))
    print(f"busbw ratio ours/bare, geometric mean over sizes ≥ 1 MB: {gmean:.3f} (goal ≥ 0.9)")


if __name__ == "__main__":
    main()
