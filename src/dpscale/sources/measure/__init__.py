"""Measured E(d): real data-parallel training with PyTorch DDP, an all-reduce bench, an equivalence check.

Nothing here imports torch at import time; `require_torch()` turns a missing torch into the one-line
error the CLI prints. Modules that run inside a rank (`train`, `allreduce`, `equivalence`, `rank`,
`workloads`) import torch and are only imported after that check.

    parent (dpscale measure)          ranks (spawned, or torchrun on every node)
    launcher.Launcher ── spawn ──▶    rank.local_entry → rank.dispatch → train / allreduce / equivalence
         ▲  queue: ready/result/error      │ beats: shared int per rank (progress + hang watchdog)
         └─────────────────────────────────┘
"""

from __future__ import annotations

import os

from dpscale.errors import DpscaleError, require
from dpscale.formulas.scaling import REPEAT_SPREAD_E  # noqa: F401  (measure's, plan's: one bound)

# the "format" of the file `dpscale measure allreduce --out` writes (calibration.py): outputs.output_of's, by which
# every reader names it
from dpscale.outputs import CALIBRATION_FORMAT  # noqa: F401


def require_torch() -> str:
    """Import torch or raise the one-line error every extra gives (errors.require); returns torch's version."""
    torch = require("torch", "measure", "measure")
    dist = require("torch.distributed", "measure", "measure")
    if not dist.is_available():
        raise DpscaleError(
            f"measure: torch {torch.__version__} was built without torch.distributed; allowed: pip install "
            "'dpscale[measure]' (a build with it)"
        )
    return str(torch.__version__)


def on_cuda(device: str) -> bool:
    """Whether ranks asked for `device` (auto, cpu, cuda) run on CUDA: auto takes a GPU where torch sees one. The
    one rule for the ranks, the checks before them and the set-up --out records are matched on."""
    import torch

    return device == "cuda" or (device == "auto" and torch.cuda.is_available())


MODE_FLAGS = {"train": ("steps", "warmup", "repeats", "zero"), "allreduce": ("sizes", "iters")}


def check_mode_flags(mode: str, given: dict[str, object]) -> None:
    """A flag of another mode is refused, not ignored (the CLI and the torchrun worker say the same line);
    given: flag name → value, None where not typed."""
    for other, flags in MODE_FLAGS.items():
        for f in flags:
            if other != mode and given.get(f) is not None:
                where = "dpscale measure" if other == "train" else f"dpscale measure {other}"
                raise DpscaleError(f"--{f}: belongs to `{where}`, not to this mode")


def unused_by_allreduce(model_file: str | None, batch: int | None, workload: str | None) -> None:
    """`measure allreduce` times the collective alone: a model's flags would be ignored, so they are refused (the
    CLI and the torchrun worker say the same line)."""
    for flag, value in (("model-file", model_file), ("batch", batch), ("workload", workload)):
        if value is not None:
            raise DpscaleError(f"--{flag}: not used by `dpscale measure allreduce`")


def one_model(model_file: str | None, workload: str | None) -> None:
    """--workload beside --model-file: the file's model was measured and the built-in one named without a word
    (the record said the file's), so both are refused (the CLI and the torchrun worker say the same line)."""
    if model_file is not None and workload is not None:
        raise DpscaleError(f"--workload: got {workload!r} with --model-file; allowed: one of them (the model measured)")


def cores() -> int:
    """CPU cores this process may run on (affinity-aware, so containers and taskset are honoured)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def threads_per_rank(local_ranks: int, requested: int | None = None) -> int:
    """One intra-op thread per rank's share of the cores: ranks must not fight over cores."""
    if requested:
        return requested
    return max(1, cores() // max(1, local_ranks))
