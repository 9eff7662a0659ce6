"""`dpscale measure`: real data-parallel runs with PyTorch DDP (train), plus `allreduce` and `equivalence`.

A thin shell: inputs are checked here (one-line errors, exit 2), ranks are launched by
dpscale.sources.measure.launcher, numbers come from dpscale.sources.measure.results/calibration.
A run that fails (a rank crashes or hangs) prints one line naming the size and the rank, exit 1.
torch and rich are imported only when the command runs.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import Any

from dpscale.errors import DpscaleError, fail
from dpscale.faces.cli.common import (
    add_output_args,
    any_case,
    one_size,
    parse_devices,
    whole,
    zero_stage,
)
from dpscale.faces.output import Column, emit, to_json
from dpscale.sources.measure import REPEAT_SPREAD_E
from dpscale.sources.measure.jobs import DEFAULTS, DEVICES, TIMEOUT_S, WORKLOADS, default_batch

DEFAULT_DEVICES = {"train": "1,2", "allreduce": "2", "equivalence": "2"}


def add_arguments(p: argparse.ArgumentParser) -> None:

    p.epilog = (
        "Modes: (none) train the workload with DDP (or sharded: --zero) at each size and report throughput, E, "
        "compute vs communication; `allreduce` an nccl-tests-style bandwidth table and α–β calibration; `equivalence` "
        "check that d ranks × batch b give the gradients of one batch of d·b. Multi-node: see docs/measure.md."
    )
    named = ("allreduce", "equivalence")
    p.add_argument("mode", nargs="?", choices=named, type=any_case(named), help="what to measure (default: train)")
    g = p.add_argument_group("inputs")
    g.add_argument(
        "--devices", "-d", metavar="D", help="world sizes: N, N1,N2,..., A..B, A..BxF or A..B+S (default 1,2; modes: 2)"
    )
    g.add_argument("--workload", choices=WORKLOADS, type=any_case(WORKLOADS), help="built-in model (default mlp)")
    g.add_argument("--model-file", metavar="FILE", help="your model: a .py with build_model(), make_batch(n, gen)")
    batch = f"per-rank batch (default {default_batch('train')}; equivalence {default_batch('equivalence')})"
    g.add_argument("--batch", "--micro-batch", "-b", metavar="B", help=batch)
    g.add_argument("--steps", metavar="N", help=f"timed steps per repeat and phase (default {DEFAULTS['steps']})")
    g.add_argument(  # (all the steps the clock leaves out, as docs/measure.md counts them: "N untimed" was 2 short)
        "--warmup",
        metavar="N",
        help="synchronised steps first, untimed; then min(N, 2) under no_sync, untimed too, none with --zero (default "
        f"{DEFAULTS['warmup']})",
    )
    g.add_argument(
        "--repeats", metavar="N", help=f"repeats per size; throughput is their median (default {DEFAULTS['repeats']})"
    )
    g.add_argument("--sizes", metavar="S", help=f"allreduce message sizes (default {DEFAULTS['sizes']}, ×2 steps)")
    g.add_argument("--iters", metavar="N", help=f"allreduce iterations per size (default {DEFAULTS['iters']})")
    g.add_argument("--zero", metavar="STAGE", type=zero_stage,
                   help="train sharded: 1 ZeroRedundancyOptimizer, 2–3 FSDP2 (3 ≈ FULL_SHARD); 0 DDP; by name too: "
                   "ddp, zero1, zero2, zero3, fsdp (FULL_SHARD ≈ ZeRO-3)")  # fmt: skip
    g = p.add_argument_group("run")
    g.add_argument(
        "--out",
        metavar="FILE",
        help="train: append JSONL per size as it finishes; equivalence: its record, appended; allreduce: calib.json",
    )
    wait = f"{TIMEOUT_S:g}"
    g.add_argument("--timeout", metavar="S", default=wait, help=f"seconds without progress = hung (default {wait})")
    g.add_argument("--threads", metavar="N", help="intra-op threads per rank (default: cores ÷ largest size)")
    g.add_argument("--device", choices=DEVICES, type=any_case(DEVICES), default="auto", help="cuda uses NCCL, cpu gloo")
    g.add_argument("--port", metavar="P", default="0", help="rendezvous TCP port on 127.0.0.1 (default 0: any)")
    add_output_args(p, plot=False)


def build_job(args: argparse.Namespace, mode: str) -> Any:
    from dpscale.sources.measure import MODE_FLAGS, check_mode_flags
    from dpscale.sources.measure.jobs import TYPED, Job, typed_counts  # (the torchrun worker reads its flags so too)

    check_mode_flags(mode, {f: getattr(args, f) for flags in MODE_FLAGS.values() for f in flags})
    if mode == "allreduce":
        from dpscale.sources.measure import unused_by_allreduce

        unused_by_allreduce(args.model_file, args.batch, args.workload)
    from dpscale.sources.measure import one_model

    one_model(args.model_file, args.workload)
    return Job(
        mode=mode,
        workload=args.workload or "mlp",
        model_file=args.model_file,
        device=args.device,
        zero=int(args.zero or 0),
        **typed_counts(mode, {k: getattr(args, k) for k in TYPED}),
    )


OVERSUBSCRIBE = 8  # CPU ranks per core beyond which a local run is refused (it only warns above 1)
COMPUTE_GREW = 1.2  # compute per step (no communication in it) this much slower at the largest size: ranks contend


def check_environment(job: Any, devices: list[int], out: str | None, lang: str = "en") -> None:
    """Everything that can be wrong before a rank starts: torch, devices, the model file, --out."""
    from dpscale.sources.measure import cores, on_cuda, require_torch

    if out:  # before torch's import (1–6 s, more under load): a bad --out is said at once
        from dpscale.sources.measure.results import check_writable

        check_writable(out, jsonl=job.mode != "allreduce", mode=job.mode)
    require_torch()
    import torch

    if on_cuda(job.device):
        have = torch.cuda.device_count()
        if max(devices) > have:
            raise DpscaleError(  # with none here, the flag to change is --device (it named --devices alone)
                f"--devices: got {max(devices)} with --device {job.device}; allowed: at most {have} (the CUDA devices "
                "here), or --device cpu"
            )
    elif max(devices) > OVERSUBSCRIBE * cores():
        raise DpscaleError(
            f"--devices: got {max(devices)}; allowed: at most {OVERSUBSCRIBE * cores()} ranks ({OVERSUBSCRIBE} per CPU "
            "core here) — more would measure the scheduler, not data parallelism; use torchrun across machines"
        )
    elif max(devices) > cores():
        from dpscale.faces.i18n import label

        said = label("measure_oversubscribed", lang).format(d=max(devices), cores=cores())
        print(f"dpscale measure: {label('warning', lang)}: {said}", file=sys.stderr)
    elif (job.threads or 1) * max(devices) > cores():  # 2 ranks × 2 threads on 2 cores: E(2) 0.14, unsaid
        from dpscale.faces.i18n import label

        said = label("measure_threads_oversubscribed", lang).format(d=max(devices), t=job.threads, cores=cores())
        print(f"dpscale measure: {label('warning', lang)}: {said}", file=sys.stderr)
    if job.model_file:
        from dpscale.sources.measure.workloads import from_file

        from_file(job.model_file)


class Bar:
    """A rich progress bar per size on a terminal; nothing otherwise (and never under --json/--csv)."""

    def __init__(self, quiet: bool) -> None:
        self.progress = None
        if quiet or not sys.stderr.isatty():
            return
        from dpscale.errors import require

        require("rich.progress", "measure", "dpscale measure's progress bar")  # one line, not a traceback
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

        cols = (TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn())
        self.progress = Progress(*cols, console=Console(stderr=True), transient=False)

    def __enter__(self) -> Bar:
        if self.progress:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress:
            self.progress.stop()

    def task(self, text: str) -> Any:
        if not self.progress:
            return None
        tid = self.progress.add_task(text, total=None)
        return lambda done, total: self.progress.update(tid, completed=done, total=total)


def _prepare(args: argparse.Namespace, mode: str, own: bool) -> tuple[Any, list[int], Any]:
    """The job, its sizes and a launcher: every check before a rank starts (torch's import among them)."""
    job = build_job(args, mode)
    devices = sorted(set(parse_devices(args.devices or DEFAULT_DEVICES[mode])))
    port = whole(args.port, "--port", lo=0, hi=65535, default=0)  # a plain number: before torch's import (1–6 s)
    if mode == "allreduce" and (len(devices) != 1 or devices[0] < 2):  # one rank reduces nothing: busbw 0
        raise fail("--devices", args.devices, "one world size ≥ 2 for allreduce")
    if mode == "equivalence" and devices[0] < 2:  # one rank against one process compares a run with itself
        raise fail("--devices", args.devices, "world sizes ≥ 2 for equivalence")
    check_environment(job, devices, args.out, args.lang)
    if job.threads is None and job.mode == "train":
        from dataclasses import replace

        from dpscale.sources.measure import on_cuda, threads_per_rank
        from dpscale.sources.measure.results import earlier_threads

        # Every size gets the same per-rank share (of the largest size): a rank is one "device" throughout,
        # so E compares like with like instead of 1 rank × all cores against d ranks × 1/d of them. Sizes
        # appended to earlier records in --out take those records' share, for the same reason.
        name = Path(job.model_file).stem if job.model_file else job.workload
        device = "cuda" if on_cuda(job.device) else "cpu"
        earlier = earlier_threads(args.out, name, job.batch, job.steps, device, job.zero)
        from_out = len(earlier) == 1  # (none, or several that disagree: the default share)
        job = replace(job, threads=next(iter(earlier)) if from_out else threads_per_rank(max(devices)))
        if from_out:
            from dpscale.faces.i18n import SINGULAR, label, singular
            from dpscale.sources.measure import cores

            # '1 threads a rank' / '1 hilos por proceso' in the singular, as the title says its count
            said = singular(label("measure_threads_from_out", args.lang).format(n=job.threads), SINGULAR[args.lang])
            if job.threads * max(devices) > cores() >= max(devices):  # the share fits the earlier run, not this one
                said += label("measure_threads_over", args.lang).format(d=max(devices), t=job.threads, c=cores())
            print(f"dpscale measure: {label('note', args.lang)}: {said}", file=sys.stderr)
    from dpscale.sources.measure.launcher import Launcher

    # the process ends with an interrupt: a second one must not cut its clean-up short; a caller in this process
    # (a notebook, a test calling main([...])) keeps its Ctrl-C
    launcher = Launcher(port=port, last_interrupt=own)
    return job, devices, launcher


def run(args: argparse.Namespace) -> int:
    from dpscale.faces.i18n import label, say_measure
    from dpscale.sources.measure.launcher import ENDING, RunFailed
    from dpscale.sources.measure.results import NotSaved

    mode = args.mode or "train"
    own = getattr(args, "own_process", False)
    done: list[dict[str, Any]] = []
    # SIGTERM (a scheduler's kill, `timeout`) would end this process without its `finally`, leaving the ranks
    # running as orphans: turn it into the interrupt path, which stops and reaps them — from the start, as
    # torch's import takes seconds (a SIGTERM then ended the command by the signal, 143, without a word).
    # (outside the main thread, where no handler can be set: nothing changes, as in the launcher — a caller's
    # thread running main(["measure", …]) got a ValueError traceback)
    previous = _handle(signal.SIGTERM, _interrupt)
    # a closed terminal's SIGHUP (an ssh session dropped) likewise: by default it ended the command without a word,
    # the finished sizes lost from stdout (an allreduce's from --out too) and the ranks' log left behind — unless it
    # is ignored (nohup), as it stays
    hups = [s for s in ENDING if s != signal.SIGTERM and signal.getsignal(s) == signal.SIG_DFL]
    hups = [s for s in hups if _handle(s, _interrupt) is not NOT_MAIN]
    previous_int = signal.getsignal(signal.SIGINT)
    leaving = False  # interrupted, and this process is the command: a second SIGTERM must not end it by the signal
    job = None  # (an interrupt may come while _prepare still imports torch)
    try:
        job, devices, launcher = _prepare(args, mode, own)
        with Bar(args.json or args.csv) as bar:
            for d in devices:
                outcome = launcher.run(job, d, bar.task(f"{label(f'measure_bar_{mode}', args.lang)} d={d}"))
                done.append(record(job, outcome, done, args.out, args.lang))
    except KeyboardInterrupt as exc:
        if own:  # (the launcher's clean-up left it ignored; an interrupt before or after a launch did not)
            leaving = True
            _handle(signal.SIGTERM, signal.SIG_IGN)
            for s in hups:
                _handle(s, signal.SIG_IGN)
        done += _measured_so_far(job, exc, done, args)
        if done:  # the sizes that finished are not lost with the rest
            show(job, done, args)
        raise
    except RunFailed as exc:
        done += _measured_so_far(job, exc, done, args)
        if done:  # the finished sizes still reach stdout (table, JSON or CSV); the error goes to stderr
            show(job, done, args)
        kept = f"; finished sizes are in {args.out}" if args.out and done and mode != "equivalence" else ""
        print(f"dpscale measure: error: {say_measure(f'{exc}{kept}', args.lang)}", file=sys.stderr)
        return 1
    except NotSaved as exc:  # measured, but the file refused it: show every finished size, then stop
        show(job, [*done, exc.record], argparse.Namespace(**{**vars(args), "out": None}))  # nothing was written
        stopped = "" if mode == "allreduce" else "; stopped"  # (a calibration is one result: nothing was left)
        print(f"dpscale measure: error: {say_measure(f'{exc}{stopped}', args.lang)}", file=sys.stderr)
        return 1
    finally:
        if previous is not NOT_MAIN:  # (outside the main thread none was set, and none can be put back)
            if not leaving:
                signal.signal(signal.SIGTERM, previous)
                for s in hups:
                    signal.signal(s, signal.SIG_DFL)
            if not own:  # (the launcher leaves a second Ctrl-C ignored only when this process is the command)
                signal.signal(signal.SIGINT, previous_int)
    show(job, done, args)
    if mode == "equivalence":
        return 0 if all(r["passed"] for r in done) else 1
    return 0


def _measured_so_far(job: Any, exc: BaseException, done: list[dict[str, Any]], args: argparse.Namespace) -> list:
    """An all-reduce bench cut short (interrupt, crash, hang): the message sizes it finished, written to --out
    as a calibration of those sizes and shown — they were lost with the rest (the file was written at the end)."""
    partial = getattr(exc, "partial", None)
    if job is None or job.mode != "allreduce" or not partial or not partial.get("rows"):
        return []
    from dpscale.faces.i18n import say_measure
    from dpscale.sources.measure.launcher import Outcome
    from dpscale.sources.measure.results import NotSaved

    if args.out and os.path.isfile(args.out) and os.path.getsize(args.out) > 0:  # a finished calibration stays:
        # a run cut short after two sizes once replaced a 17-size one, and predict then read 0.02 % at 2 devices
        args.out_kept, args.out = args.out, partial_path(args.out)
    try:
        return [record(job, Outcome({**partial, "partial": True}, None), done, args.out, args.lang)]
    except NotSaved as refused:  # (raised inside the caller's handler, it was a traceback): shown, not saved
        print(f"dpscale measure: error: {say_measure(str(refused), args.lang)}", file=sys.stderr)
        args.out = None  # nothing of them is in the file: no line may say so
        return [refused.record]


def partial_path(out: str) -> str:
    """Where a cut-short calibration goes when --out already holds one: cal.json → cal.partial.json."""
    p = Path(out)
    return str(p.with_name(f"{p.stem}.partial{p.suffix or '.json'}"))


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


NOT_MAIN = object()  # _handle's answer outside the main thread: no handler was set, so none is to be put back


def _handle(signum: int, handler: Any) -> Any:
    """signal.signal, or NOT_MAIN where Python lets only the main thread set handlers."""
    try:
        return signal.signal(signum, handler)
    except ValueError:
        return NOT_MAIN


def record(job: Any, outcome: Any, done: list[dict[str, Any]], out: str | None, lang: str = "en") -> dict[str, Any]:
    """One finished size → its record, written to --out at once (results.finish); E against this run's first size
    where --out holds none of its set-up."""
    from dpscale.sources.measure import results

    try:
        rec, why = results.finish(job, outcome.result, outcome.launch_s, out, earlier=done[0] if done else None)
    except results.NotSaved as exc:
        if job.mode == "allreduce":  # the table shows the rows too
            exc.record = {**exc.record, "rows": outcome.result["rows"]}
        raise
    if why:
        from dpscale.faces.i18n import label

        said = label("measure_no_baseline", lang).format(why=why)
        print(f"dpscale measure: {label('note', lang)}: {said}", file=sys.stderr)
    if job.mode == "train" and (larger := results.larger_before(out, rec)):
        from dpscale.faces.i18n import label, listed
        from dpscale.faces.i18n import number as fmt

        sizes = listed([fmt(d, "int", lang) for d in larger], lang)
        said = label("measure_second_baseline", lang).format(sizes=sizes, d=fmt(rec["devices"], "int", lang))
        print(f"dpscale measure: {label('note', lang)}: {said}", file=sys.stderr)
    return {**rec, "rows": outcome.result["rows"]} if job.mode == "allreduce" else rec


def show(job: Any, done: list[dict[str, Any]], args: argparse.Namespace) -> None:
    if job.mode == "train":
        show_train(done, args)
    elif job.mode == "allreduce":
        show_allreduce(done[0], args)
    else:
        show_equivalence(done, args)


TRAIN_COLUMNS = [
    Column("devices", "int"),
    Column("throughput", "rate", "samples/s"),
    Column("spread", "pct"),
    Column("efficiency", "eff"),
    Column("efficiency_min", "fixed3"),
    Column("efficiency_max", "fixed3"),
    Column("speedup", "times"),
    Column("step_ms", "dec"),
    Column("compute_ms", "dec"),
    Column("exposed_comm", "pct"),
    Column("overlap", "pct"),
    Column("launch_s", "dec"),
]


def show_train(recs: list[dict[str, Any]], args: argparse.Namespace) -> None:
    first = recs[0]
    machine = bool(args.json or args.csv)
    notes = _train_notes(recs, args.lang, machine)  # under --json and --csv, the caveats on stderr (once dropped)
    if args.json:
        from dpscale.sources.measure.results import setup_of

        head = setup_of(first, ("workload", "zero", "batch", "steps", "warmup", "repeats", "backend", "device"))
        emit({**head, "points": recs}, [], args, None, notes)
        return
    if args.csv:
        emit(recs, [Column(c.key) for c in TRAIN_COLUMNS if c.key in first], args, None, notes)
        return
    rows = [
        {
            **r,
            # one repeat measures no spread: '—', not a 0.0 % that reads as no noise; E's range is also the
            # baseline's (a size of one repeat against a baseline of two has one), so '—' only where it is a point
            "spread": r["throughput_spread"] if r["repeats"] > 1 else None,
            "efficiency_min": r.get("efficiency_min") if r.get("efficiency_min") != r.get("efficiency_max") else None,
            "efficiency_max": r.get("efficiency_max") if r.get("efficiency_min") != r.get("efficiency_max") else None,
            "step_ms": 1e3 * r["step_s"],
            "compute_ms": None if r["compute_s"] is None else 1e3 * r["compute_s"],
            "exposed_comm": r["exposed_comm_share"],
        }
        for r in recs
    ]
    from dpscale.faces.i18n import label
    from dpscale.faces.i18n import number as fmt

    # the counts grouped as the table's ('lote 1.024/proceso, 1.000 pasos'), each a whole number in a record
    counts = {
        k: fmt(first[k], "int", args.lang)
        for k in ("batch", "steps", "repeats", "threads")
        if isinstance(first.get(k), int)
    }
    emit(rows, TRAIN_COLUMNS, args, label("measure_title", args.lang).format(**{**first, **counts}), notes)


def _train_notes(recs: list[dict[str, Any]], lang: str, machine: bool = False) -> list[str]:
    """What the table's columns mean (not for --json/--csv: machine output has no columns to explain), and the
    caveats of this run (no warm-up, a baseline above one device, compute that grew with the ranks, superlinear
    sizes, sharding)."""
    from dpscale.faces.i18n import label, listed
    from dpscale.faces.i18n import number as fmt

    first = recs[0]
    d0 = first.get("baseline_devices", first["devices"])
    said = ("measure_median",) if first.get("zero") else ("measure_median", "measure_terms")  # sharded: no split
    notes = [] if machine else [label(k, lang).format(repeats=first["repeats"], d0=d0) for k in said]
    if not machine:
        notes.append(label("measure_launch", lang))
    if not first["warmup"]:  # DDP's first iterations (lazy set-up, the bucket rebuild at the second) are timed
        notes.append(label("measure_no_warmup", lang))
    if d0 > 1:  # S = d·E takes E = 1 below d0: a run from 2 ranks printed 2.00× it never measured
        notes.append(label("measure_speedup_d0", lang).format(d0=d0))
    again = [r for r in recs if r["devices"] == d0 and isinstance(r.get("efficiency"), float) and r["efficiency"] != 1]
    if again:  # d0 measured again into a file that had it: E there is against the earlier record, not 1 by itself
        e = fmt(again[0]["efficiency"], "sig3", lang)
        notes.append(label("measure_d0_again", lang).format(d0=d0, e=e))
    timed = [r for r in recs if r.get("compute_s")]
    if len(timed) > 1 and timed[-1]["compute_s"] > COMPUTE_GREW * timed[0]["compute_s"]:  # DDP's no_sync phase
        a, b = timed[0], timed[-1]
        notes.append(label("measure_compute_grew", lang).format(
            x=fmt(b["compute_s"] / a["compute_s"], "times", lang), d0=a["devices"], d=b["devices"],
            c0=fmt(a["compute_s"], "ms", lang), c1=fmt(b["compute_s"], "ms", lang),
        ))  # fmt: skip
    apart = [r for r in recs if (r.get("replica_drift") or 0) > 0]  # (None: FSDP's shards, which differ by design)
    if apart:  # the check the record carries, said: a size whose replicas diverged measured no data-parallel training
        notes.append(label("measure_drift", lang).format(
            sizes=listed([fmt(r["devices"], "int", lang) for r in apart], lang),
            drift=fmt(max(r["replica_drift"] for r in apart), "sig3", lang),
        ))  # fmt: skip
    # beyond a repeat's spread: say it (plan --efficiency-file plans an E up to it as 1 and refuses one above)
    above = [r for r in recs if (r.get("efficiency") or 0) > REPEAT_SPREAD_E]
    if above:
        notes.append(label("measure_superlinear", lang).format(
            sizes=listed([fmt(r["devices"], "int", lang) for r in above], lang),
            emax=fmt(max(r["efficiency"] for r in above), "float", lang), spread=fmt(REPEAT_SPREAD_E, "float", lang),
        ))  # fmt: skip
    if first.get("zero"):
        from dpscale.formulas.memory import STAGE_NAMES

        z = first["zero"]
        notes.append(label("measure_sharded", lang).format(stage=STAGE_NAMES[z], how=label(f"measure_zero{z}", lang),
                                                           zero=z))  # fmt: skip
    return notes


AR_COLUMNS = [
    Column("bytes", "int"),
    Column("time_us", "dec"),
    Column("algbw_gbs", "sig3"),  # a timed bandwidth: 0.00439, not 0.00438581
    Column("busbw_gbs", "sig3"),
    Column("iters", "int"),
]


def show_allreduce(cal: dict[str, Any], args: argparse.Namespace) -> None:
    from dpscale.faces.i18n import label, localise
    from dpscale.faces.i18n import number as fmt
    from dpscale.sources.measure.calibration import beyond_measured, bytes_text, fit_quality

    lang, n = args.lang, cal["devices"]
    cut = []  # a run cut short: where it went and what was kept, said under --json and --csv too (on stderr)
    if args.out and cal.get("partial"):
        cut.append(label("calibration_partial", lang).format(path=args.out, n=len(cal["rows"])))
        if getattr(args, "out_kept", None):
            cut.append(label("calibration_kept", lang).format(path=args.out_kept))
    if args.json:
        emit({k: v for k, v in cal.items() if k != "rows"}, [], args, None, cut)
        return
    rows = [{**r, "time_us": 1e6 * r["time_s"]} for r in cal["rows"]]
    if args.csv:
        emit(rows, AR_COLUMNS, args, None, cut)
        return
    title = label("allreduce_title", lang).format(n=n, backend=cal["backend"], device=cal["device"])
    busbw = fmt(cal["busbw_gbs"], "sig3", lang) + " GB/s" if cal["busbw_gbs"] else "—"
    alpha, beta, worst = (
        fmt(1e6 * cal["alpha_s"], "dec", lang),
        f"{cal['beta_s_per_byte']:.4g}",
        fmt(fit_quality(cal), "pct", lang),
    )
    notes = [label("allreduce_fit", lang).format(alpha=alpha, beta=localise(beta, lang), busbw=busbw, worst=worst)]
    best = beyond_measured(cal)
    if best:  # (the asymptote past every measured size: the line's, not the fabric's)
        notes.append(
            label("allreduce_extrapolated", lang).format(
                busbw=busbw, peak=fmt(best["busbw_gbs"], "sig3", lang) + " GB/s", size=bytes_text(best["bytes"])
            )
        )
    notes += cut
    if args.out and not cut:
        notes.append(label("calibration_written", lang).format(path=args.out))
    emit(rows, AR_COLUMNS, args, title, notes)


def show_equivalence(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    if args.json:
        single = len(results) == 1 and one_size(getattr(args, "devices", None) or DEFAULT_DEVICES["equivalence"])
        print(to_json(results[0] if single else results))  # -d 2..2, a range: an array of one, as calc's
        return
    if args.csv:
        rows = [{"devices": r["devices"], **c} for r in results for c in r["checks"]]
        keys = ["devices", "dtype", "max_abs_diff", "grad_max", "threshold", "passed"]
        emit(rows, [Column(k) for k in keys], args)
        return
    from dpscale.faces.i18n import label, localise, number

    lang = args.lang
    for r in results:
        d, b = r["devices"], r["batch"]
        what = f"{r['workload']}, {r['backend']}"
        counts = {k: number(n, "int", lang) for k, n in (("d", d), ("b", b), ("db", d * b))}  # 'lote 2.048'
        print(label("eq_title", lang).format(what=what, **counts))
        print(label("eq_head", lang))
        for c in r["checks"]:
            verdict = label("eq_pass" if c["passed"] else "eq_fail", lang)
            diff, gmax, tol = c["max_abs_diff"], c["grad_max"], c["threshold"]
            print(localise(f"  {c['dtype']:<8}  {diff:>11.2e}  {gmax:>10.3g}  {tol:>9.1e}  ", lang) + verdict)
    # the tolerances the checks ran with, not a copy of them in the note's words
    tols = {c["dtype"]: c.get("tolerance", c["threshold"] / max(c["grad_max"], 1e-300)) for r in results
            for c in r["checks"]}  # fmt: skip
    said = "; ".join(f"{t:.0e} ({dtype})".replace("e-0", "e-") for dtype, t in tols.items())  # 1e-4, not 0.0001
    print(f"{label('note', lang)}: {label('eq_note', lang).format(tols=said)}")
