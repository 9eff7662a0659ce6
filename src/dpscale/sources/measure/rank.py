"""Everything one rank does around the measurement: threads, device, process group, heartbeats, faults.

Two ways in: `local_entry` (spawned by launcher.Launcher, talks to the parent through a queue and
a shared heartbeat array) and `torchrun_entry` (started by torchrun on every node, reads the
standard RANK/WORLD_SIZE/LOCAL_* environment and prints its own result).
"""

from __future__ import annotations

import ctypes
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import torch
import torch.distributed as dist

from dpscale.sources.measure import on_cuda, threads_per_rank
from dpscale.sources.measure.calibration import bytes_text
from dpscale.sources.measure.jobs import STARTUP_S, Job

COMM_ERRORS = ("connection", "gloo", "nccl", "peer", "socket", "timed out", "timeout", "broken pipe")


@dataclass
class RankContext:
    rank: int
    world: int
    local_rank: int
    local_world: int
    job: Job
    beats: Any = None  # shared array of heartbeats (local launch) or None (torchrun)
    device: torch.device = field(default_factory=lambda: torch.device("cpu"))
    backend: str = "gloo"
    threads: int = 1
    nodes: int = 1
    ready_at: float = 0.0  # time.monotonic() when the process group was up
    partial: Any = None  # rank 0 of a local launch: sends what is measured so far to the parent (or None)

    def beat(self) -> None:
        """One more step of progress: drives the progress bar and the parent's hang watchdog."""
        if self.beats is not None:
            self.beats[self.local_rank] += 1

    def sync(self) -> None:
        """Wait for queued device work so wall-clock times are real."""
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)

    def fault(self, index: int) -> None:
        """Test hook (DPSCALE_MEASURE_FAULT): crash or hang this rank at the given step."""
        from dpscale.sources.measure.jobs import FAULT_STEP

        kind = self.job.fault_for(self.rank, self.world)
        if kind is None or index != FAULT_STEP:
            return
        if kind == "crash":
            raise RuntimeError(f"injected crash at step {index}")
        if kind == "exit":
            import os

            os._exit(3)
        while True:  # "hang": never reach the next collective
            time.sleep(3600)

    def max_over_ranks(self, values: list[float]) -> list[float]:
        """The slowest rank's times: a data-parallel step is as slow as its slowest rank."""
        t = torch.tensor(values, dtype=torch.float64, device=self.device)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        return [float(x) for x in t.cpu()]


def setup(ctx: RankContext) -> None:
    """Threads and device before anything allocates; the choice is reported with the results."""
    ctx.threads = threads_per_rank(ctx.local_world, ctx.job.threads)
    torch.set_num_threads(ctx.threads)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # already set in this process
        pass
    if on_cuda(ctx.job.device):
        ctx.device = torch.device("cuda", ctx.local_rank)
        torch.cuda.set_device(ctx.device)
        ctx.backend = "nccl"
    ctx.beat()


def pg_timeout(job: Job, watched: bool) -> timedelta:
    """Under the parent's watchdog the collectives wait 60 s longer than its longest limit (--timeout, or STARTUP_S
    while a rank starts), so the watchdog names a hung rank: at --timeout + 60 s, a peer stopped while DDP was built
    (`--timeout 5`) ended in 65 s as the healthy rank 0's gloo time-out, said as its crash (review KM). Under
    torchrun the collective timeout is the watchdog."""
    return timedelta(seconds=max(job.timeout, STARTUP_S) + 60 if watched else job.timeout)


def dispatch(ctx: RankContext) -> dict[str, Any] | None:
    ctx.beat()  # process group up
    if ctx.job.mode == "train":
        from dpscale.sources.measure.train import run_train

        return run_train(ctx)
    if ctx.job.mode == "allreduce":
        from dpscale.sources.measure.allreduce import run_allreduce

        return run_allreduce(ctx)
    from dpscale.sources.measure.equivalence import run_equivalence

    return run_equivalence(ctx)


def _die_with_parent() -> None:
    """SIGKILL this rank if the launcher dies, even while blocked inside a collective (no orphans). A launcher
    killed before this line ran (a spawned rank gets here only after importing torch, seconds in) sets off no
    death signal: the rank then finds itself reparented and leaves, rather than wait out the store's timeout."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except OSError:  # pragma: no cover
            pass
    import multiprocessing
    import os

    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:  # (checked after the prctl: no window between)
        os._exit(1)


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text[:300]


def local_entry(
    rank: int, job: Job, world: int, host: str, port: int, prefix: str, queue: Any, beats: Any, log: str | None = None
) -> None:
    """A rank spawned by the local launcher (torch.multiprocessing.start_processes). log: a file for this rank's
    stderr, so its tracebacks and library warnings do not reach the user's terminal (the parent says the error)."""
    _die_with_parent()
    import os

    os.dup2(2, 1)  # what the model file prints goes to the terminal's stderr, not into --json's or --csv's stdout
    if log:
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.dup2(fd, 2)
        os.close(fd)
    ctx = RankContext(rank, world, rank, world, job, beats)
    if rank == 0:  # what has finished reaches the parent as it finishes: an interrupt or a crash keeps it
        ctx.partial = lambda so_far: queue.put(("partial", rank, so_far))
    try:
        setup(ctx)
        tcp = dist.TCPStore(host, port, is_master=False, timeout=pg_timeout(job, True))
        store = dist.PrefixStore(prefix, tcp)
        dist.init_process_group(ctx.backend, store=store, rank=rank, world_size=world, timeout=pg_timeout(job, True))
        queue.put(("ready", rank, time.time()))
        result = dispatch(ctx)
        if rank == 0:
            queue.put(("result", rank, result))
        dist.barrier()
        dist.destroy_process_group()
    except Exception as exc:
        low = str(exc).lower()
        queue.put(("error", rank, time.time(), one_line(exc), any(w in low for w in COMM_ERRORS)))
        traceback.print_exc()  # for the error file; then leave now: under NCCL, tearing the process group down
        quiet_exit(1)  # at interpreter exit can hang, and the parent would report a hang, not this crash
    quiet_exit()


def quiet_exit(code: int = 0) -> None:
    """Leave without C++ static destructors: they can race gloo's threads at exit and abort (SIGABRT).
    Everything this rank reports has already been written synchronously to the parent's pipe."""
    import os

    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


# The options every rank of a torchrun launch must share: each node's agent is started by hand (or a script), and
# agents with --batch 32 and --batch 8 trained on 40 samples a step where rank 0 wrote 64 (review HY). Not compared:
# --threads and --timeout (a node's own share and patience), --device (auto and cpu are one CPU), the model file's
# path (DDP compares the models it builds).
AGREED = ("mode", "workload", "batch", "steps", "warmup", "repeats", "sizes", "iters", "zero")


def disagreement(jobs: list[Job]) -> str | None:
    """The refusal naming the first option the ranks' jobs differ in (rank 0's value, the first rank with another);
    None where they agree."""
    for key in AGREED:
        for r, job in enumerate(jobs[1:], 1):
            ours, theirs = getattr(jobs[0], key), getattr(job, key)
            if ours != theirs:
                flag = "mode" if key == "mode" else f"--{key}"
                # sizes as --sizes takes them: '1,024,2,048' (thousands' commas among the list's) read as one number
                shown = [",".join(map(bytes_text, v)) if isinstance(v, tuple) else v for v in (ours, theirs)]
                return (f"the ranks were started with different options: {flag} {shown[0]} on rank 0, {shown[1]} on "
                        f"rank {r}; allowed: the same options on every node")  # fmt: skip
    return None


def node_count(world: int, local_world: int) -> int:
    """The nodes of a torchrun launch: its agents, GROUP_WORLD_SIZE as torchrun sets it. Dividing the world by
    rank 0's node's ranks wrote "nodes": 1 for agents of 2 ranks and of 1 (--nproc-per-node may differ by node;
    review HY); that even split is kept where the variable is missing or is no count of 1 to world agents."""
    import os

    groups = os.environ.get("GROUP_WORLD_SIZE", "").strip()
    if groups.isascii() and groups.isdigit() and 1 <= int(groups) <= world:
        return int(groups)
    return max(1, world // max(1, local_world))


def torchrun_entry(job: Job) -> tuple[RankContext, dict[str, Any] | None]:
    """A rank started by torchrun: env:// rendezvous; the collective timeout is the hang watchdog. Every rank
    checks that its peers were started with its options (RanksDisagree where not, on every rank)."""
    import os

    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    local_world = int(os.environ.get("LOCAL_WORLD_SIZE", 1))
    ctx = RankContext(rank, world, local_rank, local_world, job)
    ctx.nodes = node_count(world, local_world)
    setup(ctx)
    dist.init_process_group(ctx.backend, timeout=pg_timeout(job, False))
    ctx.ready_at = time.monotonic()
    jobs: list[Any] = [None] * world
    dist.all_gather_object(jobs, job)
    if (why := disagreement(jobs)) is not None:
        from dpscale.sources.measure.jobs import RanksDisagree

        dist.destroy_process_group()  # (every rank is here, none inside a collective)
        raise RanksDisagree(why)
    result = dispatch(ctx)  # on an exception the group is left alone: NCCL's abort must be collective, and one
    dist.destroy_process_group()  # rank destroying it while its peers sit in a collective can hang
    return ctx, result
