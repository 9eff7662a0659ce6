"""The rank program for multi-node runs: `torchrun … -m dpscale.sources.measure.worker [MODE] [OPTIONS]`.

torchrun starts it on every node and sets RANK/WORLD_SIZE/LOCAL_RANK/MASTER_*; one launch measures
one world size. Rank 0 prints one JSON object (a train record, an all-reduce calibration or an
equivalence result) and, with --out, appends the record to a JSONL file (train, equivalence) or
writes the calibration file (allreduce). A train record gets E against the smallest earlier record of the
same setup already in --out, so running 1 node, then 2, then 4 into one file gives E(d).
A hung rank ends the run when the collective timeout (--timeout) fires; torchrun then stops the rest.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from typing import Any, NoReturn

from dpscale.errors import (
    MAX_DEVICES,
    ZERO_ALLOWED,
    DpscaleError,
    house_style,
    named,
    unknown_option,
    zero_named,
)
from dpscale.sources.measure import check_mode_flags, on_cuda, one_model, unused_by_allreduce
from dpscale.sources.measure.jobs import (
    DEFAULTS,
    DEVICES,
    MODES,
    TIMEOUT_S,
    TYPED,
    WORKLOADS,
    Job,
    RanksDisagree,
    default_batch,
    typed_counts,
)


class _Parser(argparse.ArgumentParser):
    """One line on rank 0 (every rank parses the same flags), exit 2 — not a usage dump per rank."""

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:  # type: ignore[override]
        """An unknown flag named before the mode reads its value (`--rep 2`: "mode: invalid choice: '2'")."""
        argv = list(sys.argv[1:] if args is None else args)
        said = unknown_option(argv, self._option_string_actions, MODES)
        if said:
            self.error(f"unrecognized arguments: {said}")
        return super().parse_args(argv, namespace)

    def error(self, message: str) -> NoReturn:
        if _speaks():  # '--steps: got …', '--zero: got '5'; allowed: 0 (ddp), …', as measure says them
            print(f"dpscale worker: error: {house_style(message)} (see --help)", file=sys.stderr)
        sys.exit(2)


def parser() -> argparse.ArgumentParser:
    # no abbreviations, as `dpscale measure` takes none (`--rep 2` ran as --repeats under torchrun alone)
    p = _Parser(prog="python -m dpscale.sources.measure.worker", description=__doc__.split("\n")[0], allow_abbrev=False)
    # choices in any case and --zero by name, as `dpscale measure` reads them (docs/measure.md: the same options)
    p.add_argument("mode", nargs="?", default="train", choices=MODES, type=_any_case(MODES))
    # default mlp (None: not given, which allreduce checks)
    p.add_argument("--workload", choices=WORKLOADS, type=_any_case(WORKLOADS))
    p.add_argument("--model-file")
    # counts and --timeout as typed: job_from reads them as `dpscale measure` does (jobs.typed_counts), in its words;
    # None where not typed, so a flag of another mode is refused
    batch = f"per-rank batch (default {default_batch('train')}; equivalence {default_batch('equivalence')})"
    p.add_argument("--batch", default=None, help=batch)
    for k in ("steps", "warmup", "repeats", "sizes", "iters"):
        p.add_argument(f"--{k}", default=None, help=f"default {DEFAULTS[k]}")
    p.add_argument("--threads", default=None)
    p.add_argument("--device", default="auto", choices=DEVICES, type=_any_case(DEVICES))
    p.add_argument("--timeout", default=f"{TIMEOUT_S:g}")
    p.add_argument("--out")
    p.add_argument("--zero", metavar="STAGE", type=_zero, default=None, help="train sharded (see `dpscale measure`)")
    return p


def _any_case(choices: tuple[str, ...]) -> Any:
    return lambda text: named(text, choices)


def _zero(text: str) -> int:
    """--zero as `dpscale measure` reads it: a stage's number or name (ddp, zero1 or zero-1, …, fsdp; any case)."""
    stage = zero_named(text)
    if stage is None:
        raise argparse.ArgumentTypeError(f"got {text!r}; allowed: {ZERO_ALLOWED}")
    return int(stage)


def job_from(a: argparse.Namespace) -> Job:
    check_mode_flags(a.mode, {k: getattr(a, k) for k in DEFAULTS})
    if a.mode == "allreduce":
        unused_by_allreduce(a.model_file, a.batch, a.workload)
    one_model(a.model_file, a.workload)
    counts = typed_counts(a.mode, {k: getattr(a, k) for k in TYPED})  # `dpscale measure`'s reading, and its words
    missing = [k for k in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT") if k not in os.environ]
    if missing:
        raise DpscaleError(f"environment: {', '.join(missing)} not set; allowed: a launch by torchrun")
    _check_ranks()
    if a.out and int(os.environ["RANK"]) == 0:  # rank 0 alone writes it: a rank on another node, where the folder need
        # not exist, refused it and left silently (only rank 0 speaks), and the job failed without a word
        from dpscale.sources.measure.results import check_writable

        check_writable(a.out, jsonl=a.mode != "allreduce", mode=a.mode)
    _check_gpus(a.device, int(os.environ["LOCAL_RANK"]))
    # (threads are not taken from --out here, as the CLI takes them: on several nodes the file is on one disk, and
    # ranks elsewhere would pick another share; a set-up that finds no match in the file is noted instead)
    zero = DEFAULTS["zero"] if a.zero is None else a.zero
    return Job(a.mode, a.workload or "mlp", a.model_file, device=a.device, zero=zero, **counts)


def _speaks() -> bool:
    """Whether this rank says the job's one line: global rank 0, or a rank whose RANK is none of the job's (set by
    hand to 'x', -1 or the world size, it was refused in silence: exit 2 and no reason)."""
    try:
        rank = int(os.environ.get("RANK", "0"))
        world = int(os.environ.get("WORLD_SIZE", "0"))
    except ValueError:
        return True
    return rank == 0 or rank < 0 or 0 < world <= rank


def _check_ranks() -> None:
    """RANK, WORLD_SIZE, LOCAL_RANK and MASTER_PORT as torchrun sets them: whole numbers, the rank below the world
    size, the port a TCP port. A launch by hand (or a scheduler's script) that set LOCAL_RANK=x ended in a
    ValueError traceback, WORLD_SIZE=two in 'size two: rank 0 stopped: ValueError: invalid literal for int()', and
    MASTER_PORT=abc (review HY) in 'size 1: rank 0 stopped: ValueError: …', exit 1."""
    n = {}
    for key, lo in (("RANK", 0), ("WORLD_SIZE", 1), ("LOCAL_RANK", 0)):
        text = os.environ[key]
        # digits as torchrun writes them: int() also read '1_0' as 10 (a rendezvous that waited for 10 ranks)
        n[key] = int(text) if re.fullmatch(r"\s*[+-]?[0-9]+\s*", text) else lo - 1
        if n[key] < lo:
            raise DpscaleError(f"environment: {key}: got {text!r}; allowed: a whole number ≥ {lo}, as torchrun sets it")
    if n["WORLD_SIZE"] > MAX_DEVICES:  # 1e20 reached torch's store as 'rank 0 stopped: TypeError: __init__(): …'
        raise DpscaleError(
            f"environment: WORLD_SIZE: got {os.environ['WORLD_SIZE']!r}; allowed: at most {MAX_DEVICES:,} ranks, as "
            "torchrun sets it"
        )
    if n["RANK"] >= n["WORLD_SIZE"]:
        raise DpscaleError(
            f"environment: RANK: got {n['RANK']} with WORLD_SIZE {n['WORLD_SIZE']}; allowed: a rank below the world "
            "size, as torchrun sets them"
        )
    port = os.environ["MASTER_PORT"]  # 'abc' ended in 'size 1: rank 0 stopped: ValueError: invalid literal …'
    if not re.fullmatch(r"\s*[0-9]+\s*", port) or int(port) > 65535:
        raise DpscaleError(f"environment: MASTER_PORT: got {port!r}; allowed: a TCP port from 0 to 65,535, as torchrun "
                           "sets it")  # fmt: skip


def _check_gpus(device: str, local_rank: int) -> None:
    """Each local rank takes cuda:LOCAL_RANK: refuse in one line what would end in a CUDA traceback."""
    import torch

    if device == "cuda" and not torch.cuda.is_available():
        raise DpscaleError("--device: got 'cuda'; allowed: cpu or auto (no CUDA device is visible here)")
    if on_cuda(device) and local_rank >= torch.cuda.device_count():
        raise DpscaleError(
            f"LOCAL_RANK: got {local_rank}; allowed: below the {torch.cuda.device_count()} visible GPU(s) — start "
            "as many ranks per node as GPUs (torchrun --nproc-per-node), and let every rank see the node's GPUs"
        )


def _results_stream() -> Any:
    """stdout kept for the record alone: the fd is copied for it, and fd 1 then points at stderr, so what the
    user's model file (or a library) prints lands there, not in the JSON a caller parses."""
    if sys.__stdout__ is None or sys.stdout is not sys.__stdout__:  # redirected by the caller (a test's capture)
        return sys.stdout
    sys.stdout.flush()
    own = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    return own


def main(argv: list[str] | None = None) -> int:
    """The rank's exit code; an interrupt is one line on each node's first rank, exit 130, as `dpscale measure`
    says it: torchrun hands a Ctrl-C (SIGINT) to its ranks, and each printed a KeyboardInterrupt traceback of ~100
    lines (wherever the rank was: importing torch, building DDP, inside a step) before torchrun's own report."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        if os.environ.get("LOCAL_RANK", "0") == "0":  # (each node's agent stops its own ranks: each node says it)
            print("dpscale worker: interrupted", file=sys.stderr, flush=True)
        return 130


def _main(argv: list[str] | None) -> int:
    from dpscale.sources.measure import require_torch

    t0 = time.monotonic()
    try:
        require_torch()
        a = parser().parse_args(argv)  # (--help to stdout, as any command's)
        results_out = _results_stream()  # before the model file is imported: its prints go to stderr
        job = job_from(a)
        if job.model_file:
            from dpscale.sources.measure.workloads import from_file

            from_file(job.model_file)
    except DpscaleError as exc:
        if _speaks():  # one line for the job, not one per rank
            print(f"dpscale worker: error: {exc}", file=sys.stderr)
        return 2
    from dpscale.sources.measure.rank import torchrun_entry

    try:
        ctx, raw = torchrun_entry(job)
    except RanksDisagree as exc:  # the ranks' options differ: bad input, said by rank 0 alone (a run's own
        # DpscaleError, a model file's second import failing on rank 1, is that rank's line below, as before)
        if _speaks():
            print(f"dpscale worker: error: {exc}", file=sys.stderr, flush=True)
        return 2
    except Exception as exc:  # a peer (another node) died or hung past --timeout, or this rank failed: one line, not
        # a traceback per rank; the process group is left to torchrun's teardown (see torchrun_entry)
        from dpscale.sources.measure.rank import one_line

        rank, world = os.environ.get("RANK", "?"), os.environ.get("WORLD_SIZE", "?")
        print(f"dpscale worker: error: size {world}: rank {rank} stopped: {one_line(exc)}", file=sys.stderr, flush=True)
        return 1
    if ctx.rank != 0:
        return 0
    assert raw is not None  # rank 0's record (dispatch returns None on the other ranks only)
    from dpscale.sources.measure.results import NotSaved

    try:
        out = finish(job, raw, ctx.nodes, ctx.ready_at - t0, a.out, ctx.local_world)
    except NotSaved as exc:  # the measurement still reaches stdout
        print(json.dumps(exc.record), file=results_out, flush=True)
        print(f"dpscale worker: error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(out), file=results_out, flush=True)
    return 0 if out.get("passed", True) else 1


def finish(job: Job, raw: dict, nodes: int, launch_s: float, out: str | None, node_ranks: int | None = None) -> dict:
    """Rank 0's record for this world size, written where --out says (results.finish). node_ranks: rank 0's node's
    ranks (LOCAL_WORLD_SIZE), which its oversubscription flag counts; None: the world split evenly over the nodes."""
    from dpscale.sources.measure import results

    rec, why = results.finish(job, raw, launch_s, out, nodes)
    if (rec.get("replica_drift") or 0) > 0:  # as `dpscale measure` says under its table
        print(f"dpscale worker: warning: replicas ended apart (checksums of the weights differ by up to "
              f"{rec['replica_drift']:.3g}): DDP did not keep them identical, so these steps were not data-parallel "
              "training and their E is not its", file=sys.stderr)  # fmt: skip
    if rec.get("oversubscribed"):  # as `dpscale measure` warns (each agent sees its own node's ranks alone)
        from dpscale.notes import SINGULAR_EN, singular

        # rank 0's node's own ranks, as the flag counts them: agents of 2 ranks and 1 (nodes 2) were '1 rank × 2
        # threads … exceed its 2 CPU cores' with the world split evenly (review HZ)
        ranks = node_ranks or rec["devices"] // max(1, nodes)
        said = singular(f"{ranks} ranks × {rec['threads']} threads on this node exceed its {rec['cores']} CPU cores",
                        SINGULAR_EN)  # ('3 ranks × 1 threads': 1 thread) # fmt: skip
        print(f"dpscale worker: warning: {said}; ranks share cores, so the result measures oversubscription, not the "
              "hardware's scaling (--threads, or fewer ranks per node)", file=sys.stderr)  # fmt: skip
    if job.mode == "train" and (larger := results.larger_before(out, rec)):  # as `dpscale measure` says it
        *most, last = map(str, larger)  # '2 and 16', '2, 8 and 16', as the CLI lists sizes (it said '2, 16')
        sizes = f"{', '.join(most)} and {last}" if most else last
        print(f"dpscale worker: note: --out already holds this set-up at {sizes} devices, "
              f"measured before this smaller size: their E there is relative to their own smallest size, not to "
              f"{rec['devices']} (`dpscale fit` reads their throughputs, unaffected)", file=sys.stderr)  # fmt: skip
    if why:
        print(f"dpscale worker: note: no earlier record in --out has this set-up ({why}): E is relative to this size",
              file=sys.stderr)  # fmt: skip
    return rec


if __name__ == "__main__":
    code = main()
    if "dpscale.sources.measure.rank" in sys.modules:
        sys.modules["dpscale.sources.measure.rank"].quiet_exit(code)
    sys.exit(code)
