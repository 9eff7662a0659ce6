"""What a measurement run is asked to do, as one picklable value sent to every rank."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from dpscale.errors import DpscaleError

MODES = ("train", "allreduce", "equivalence")
WORKLOADS = ("mlp", "cnn", "transformer")
DEVICES = ("auto", "cpu", "cuda")
FAULT_ENV = "DPSCALE_MEASURE_FAULT"  # test hook: "crash:RANK[:WORLD]" or "hang:RANK[:WORLD]"
FAULT_STEP = 3  # the training step (or all-reduce size index) at which an injected fault fires
START_BEATS = 3  # heartbeats of a rank's start: torch set up, process group up, model (or buffers) ready
STARTUP_S = 120.0  # until every rank has built its model (spawn, import torch, process group) the launcher's
# watchdog waits at least this long: a loaded machine can take tens of seconds to start, which is not a hang
BIG = 10**9  # batch, steps, warm-up, repeats, iterations: past this a run would never end (or never start)
# What a flag not given takes: `dpscale measure` and the torchrun worker both fill these in and say them in their help
# (each had its own copy: a run on one node and one launched on several, appended to one --out, measure alike)
DEFAULTS: dict[str, Any] = {"steps": 50, "warmup": 10, "repeats": 3, "sizes": "1KB..256MB", "iters": 20, "zero": 0}
BATCH, EQUIVALENCE_BATCH = 64, 16  # per rank: train and allreduce's, equivalence's
TIMEOUT_S = 600.0  # seconds without progress before a run is declared hung
TIMEOUT_RANGE = (1.0, 1e6)  # a 1e308 s watchdog overflows the ranks' C timers; below 1 s it trips on healthy pauses
TIMEOUTS = (
    f"seconds from {TIMEOUT_RANGE[0]:g} to {TIMEOUT_RANGE[1]:,.0f} (a shorter watchdog trips on a healthy step's "
    "pauses)"
)


class RanksDisagree(DpscaleError):
    """The ranks of a torchrun launch were started with different options (rank.disagreement): bad input, raised on
    every rank and said by rank 0 alone, exit 2. Not any DpscaleError: one a run raises (a model file's second import
    failing on rank 1) is that rank's own line, 'size 2: rank 1 stopped: …', exit 1 (review HZ)."""


def default_batch(mode: str) -> int:
    """The per-rank batch a mode takes where --batch is not given."""
    return EQUIVALENCE_BATCH if mode == "equivalence" else BATCH


# the flags typed_counts reads, in the order it reads them (the first bad one is the one said)
TYPED = ("timeout", "batch", "steps", "warmup", "repeats", "sizes", "iters", "threads")


def typed_counts(mode: str, typed: dict[str, Any]) -> dict[str, Any]:
    """--timeout, the counts and --sizes as typed (text, None where not given) → Job's fields, read in one order and
    one set of words by `dpscale measure` and the torchrun worker alike: the worker once said `--steps 1e30` as
    'got 1e+30', `--batch 0` as 'got 0' and '2x' with no range where measure said 'got '1e30'; allowed: a whole number
    from 1 to 1,000,000,000' (review MF)."""
    from dpscale.errors import fail, number, whole
    from dpscale.sources.measure.calibration import parse_sizes
    from dpscale.sources.measure.results import MAX_THREADS

    timeout = number(typed["timeout"], "--timeout", TIMEOUTS)
    # a 1e308 s watchdog overflows the ranks' C timers; below 1 s it tripped on a healthy run's pauses (exit 1 after
    # the work, or a pass by luck: 0.001 s did both)
    if not TIMEOUT_RANGE[0] <= timeout <= TIMEOUT_RANGE[1]:
        raise fail("--timeout", typed["timeout"], TIMEOUTS)
    # (None: not given; an empty --sizes is refused, as measure's parser refuses it, not run as the default sweep)
    sizes = DEFAULTS["sizes"] if typed["sizes"] is None else typed["sizes"]
    return {
        "timeout": timeout,
        "batch": whole(typed["batch"], "--batch", hi=BIG, default=default_batch(mode)),
        "steps": whole(typed["steps"], "--steps", hi=BIG, default=DEFAULTS["steps"]),
        "warmup": whole(typed["warmup"], "--warmup", lo=0, hi=BIG, default=DEFAULTS["warmup"]),
        "repeats": whole(typed["repeats"], "--repeats", hi=BIG, default=DEFAULTS["repeats"]),
        "sizes": parse_sizes(sizes) if mode == "allreduce" else (),
        "iters": whole(typed["iters"], "--iters", hi=BIG, default=DEFAULTS["iters"]),
        "threads": whole(typed["threads"], "--threads", hi=MAX_THREADS),  # 1e9 threads: libgomp's out-of-memory abort
    }


@dataclass(frozen=True)
class Job:
    mode: str = "train"
    workload: str = "mlp"
    model_file: str | None = None
    batch: int = BATCH  # per rank
    steps: int = DEFAULTS["steps"]
    warmup: int = DEFAULTS["warmup"]
    repeats: int = DEFAULTS["repeats"]
    sizes: tuple[int, ...] = ()  # all-reduce message sizes in bytes
    iters: int = DEFAULTS["iters"]  # all-reduce iterations per size (fewer when one op is slow)
    threads: int | None = None  # intra-op threads per rank; None: cores // local ranks
    device: str = "auto"  # auto | cpu | cuda
    timeout: float = TIMEOUT_S
    fault: str | None = field(default_factory=lambda: os.environ.get(FAULT_ENV) or None)
    zero: int = 0  # train: 0 DDP; 1 DDP + ZeroRedundancyOptimizer; 2, 3 FSDP2 fully_shard (3 reshards after forward)

    def beats_total(self) -> int:
        """Heartbeats rank 0 passes in a full run: the progress bar's 100 %."""
        start = START_BEATS
        if self.mode == "train" and self.zero:  # no compute-alone phases: sharded states cannot step apart
            return start + 2 * (self.warmup + self.repeats * self.steps) + 2
        if self.mode == "train":  # + the standalone all-reduce's warm-up and timed ones, and the replica check
            return (
                start
                + 2 * (self.warmup + min(self.warmup, 2) + 2 * self.repeats * self.steps)
                + 3
                + max(1, min(self.steps, 10))
            )
        if self.mode == "allreduce":
            return start + len(self.sizes)
        return start + 2  # equivalence: float64, float32

    def fault_for(self, rank: int, world: int) -> str | None:
        """'crash' or 'hang' when the test hook targets this rank at this world size."""
        if not self.fault:
            return None
        parts = self.fault.split(":")
        kind, r = parts[0], int(parts[1])
        w = int(parts[2]) if len(parts) > 2 else None
        if r == rank and (w is None or w == world):
            return kind
        return None
