"""`dpscale pipeline`: bubble, in-flight micro-batches, and E with data parallelism stacked on top.

A thin shell over dpscale.formulas.pipeline. --microbatches takes a list or range (a sweep).
"""

from __future__ import annotations

import re

from dpscale.errors import EFFICIENCY_ALLOWED, MAX_DEVICES, DpscaleError, check_efficiency, choice, fail
from dpscale.faces.cli.common import (
    Parser,
    add_output_args,
    as_flags,
    nothing_typed,
    number,
    one_size,
    parse_devices,
    whole,
)
from dpscale.faces.i18n import SINGULAR, label, singular
from dpscale.faces.i18n import number as fmt
from dpscale.faces.output import Column, emit
from dpscale.formulas.pipeline import SCHEDULES, pipeline, sweep_cautions

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

WORKED = {"stages": "4", "microbatches": "8", "schedule": "gpipe"}  # GPipe: bubble 3/11
# the chunk counts a schedule takes, said by its flags (the library's words name schedule=, which no flag is)
INTERLEAVED_CHUNKS = "2 or more with --schedule interleaved (1 chunk is --schedule 1f1b)"
ONE_CHUNK = "1 unless --schedule interleaved"


def add_arguments(p: Parser) -> None:
    p.epilog = (
        "bubble_fraction = bubble / total time = r/(1+r), r = bubble / ideal time: (p−1)/m for GPipe and 1F1B, "
        "(p−1)/(v·m) interleaved, (p−1)/(3m) ZB-H1, 0 ZB-H2; with m < p the least step any schedule reaches, "
        "(p − m + (m−1)/v)/m interleaved, (2p − m − 1)/(3m) zero-bubble. With no inputs: GPipe, p = 4, m = 8 (3/11)."
    )
    p.letters = {"v": "--chunks"}  # the formula's v
    g = p.add_argument_group("pipeline")
    g.add_argument("--stages", "-p", metavar="P", help="pipeline stages p")
    g.add_argument(  # --micro-batches: spelt as predict's and memory's --micro-batch
        "--microbatches",
        "--micro-batches",
        "-m",
        metavar="M",
        help="micro-batches per step: M, M1,M2,..., A..BxF or A..B+S",
    )
    schedule = f"{', '.join(SCHEDULES)} (default 1f1b; the worked example, no inputs at all, is gpipe)"
    g.add_argument("--schedule", metavar="S", help=schedule)
    # no -v: every other command reads it as throughput, and `-v 2000` carried over planned a bubble of 0 %
    g.add_argument("--chunks", metavar="V", help="chunks per device, ≥ 2 (interleaved only)")
    d = p.add_argument_group("data parallelism stacked on the pipeline")
    d.add_argument("--devices", "-d", metavar="D", help="total devices, a multiple of --stages")
    d.add_argument(
        "--dp-efficiency",
        "-e",  # the data-parallel E, as calc, batch and plan read -e
        metavar="E",
        help="data-parallel scaling E in (0, 1] of the devices/stages replicas, not of all the devices (predict it "
        "with -d devices/stages, one stage's share of --params and of --inter-bw, and --grad-accum M; default 1)",
    )
    add_output_args(p)


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    filled = []  # the worked example fills what was not typed, and says so when something was
    if args.stages is None and args.microbatches is None:
        typed = not nothing_typed(args, add_arguments)
        for k, v in WORKED.items():
            if getattr(args, k) is None:
                filled += [f"--{k} {v}"] if typed else []
                setattr(args, k, v)
    args.schedule = args.schedule or "1f1b"
    if args.stages is None or args.microbatches is None:
        missing = "--stages" if args.stages is None else "--microbatches"
        raise DpscaleError(f"{missing}: missing; allowed: a whole number ≥ 1 (give --stages and --microbatches)")
    if args.plot:
        from dpscale.faces.plot import check_path

        check_path(args.plot)
    schedule = choice(args.schedule, "--schedule", SCHEDULES)
    stages = whole(args.stages, "--stages", hi=MAX_DEVICES)  # the library's bound, said as typed
    if args.chunks is None and schedule == "interleaved":  # not a default the user never typed, refused
        raise DpscaleError(
            "--chunks: missing; allowed: 2 or more with --schedule interleaved (model chunks per device)"
        )
    interleaved = schedule == "interleaved"
    # 0, 1 or below: '≥ 1' sent the user to 1, and 1 chunk is --schedule 1f1b. Read by its text alone: int() of a
    # whole number of 5,000 digits raised Python's ValueError (a traceback), where whole() refuses it in one line
    if interleaved and re.fullmatch(r"\s*(?:-\d+|\+?0*[01])(?:\.0*)?\s*", args.chunks):
        raise fail("--chunks", args.chunks, INTERLEAVED_CHUNKS)
    chunks = whole(args.chunks or "1", "--chunks", lo=2 if interleaved else 1)  # 2.5: 'a whole number ≥ 2'
    if not interleaved and chunks != 1:
        raise fail("--chunks", chunks, ONE_CHUNK)
    micro = parse_devices(args.microbatches, "--microbatches")
    e_typed = args.dp_efficiency is not None
    args.dp_efficiency = args.dp_efficiency if e_typed else "1"
    e_dp = number(args.dp_efficiency, "--dp-efficiency", EFFICIENCY_ALLOWED, fraction=True)
    try:
        check_efficiency(e_dp, "--dp-efficiency")
    except DpscaleError:
        raise fail("--dp-efficiency", args.dp_efficiency, EFFICIENCY_ALLOWED) from None
    devices = None if args.devices is None else whole(args.devices, "--devices", hi=MAX_DEVICES)
    with as_flags(lambda name: name and "--" + name.replace("_", "-")):  # stages, chunks and devices together
        results = [pipeline(stages, m, schedule, chunks, e_dp, devices) for m in micro]
    records = [r.record() for r in results]
    notes = [label("worked_filled", lang).format(flags=", ".join(filled))] if filled else []
    notes.append(label("pipe_norm", lang))
    notes += sweep_cautions(results)  # each once, naming the m's it holds at
    if results[0].dp_replicas == 1 and e_dp != 1:  # held at 1 (one replica is its own reference): say so
        notes.append(label("pipe_one_replica", lang).format(e=args.dp_efficiency))
    if len(results) > 1 and e_dp != 1 and results[0].dp_replicas != 1:  # one E for every m: predict gives it per m
        # (the replicas all-reduce once per m micro-batches: 95ed58d's 7B example, 0.532 at m = 4, 0.802 at 16)
        notes.append(label("pipe_dp_e_held", lang).format(e=args.dp_efficiency))
    if (results[0].dp_replicas or 1) > 1 and not e_typed:  # as calc and plan say of their E = 1
        notes.append(label("pipe_no_dp_e", lang).format(n=fmt(results[0].dp_replicas, "int", lang)))
    cols = [
        Column("microbatches", "int"),
        Column("bubble_fraction", "pct"),
        Column("bubble_overhead", "pct"),
        Column("pipeline_efficiency", "eff"),
        Column("in_flight_microbatches", "count"),
    ]
    if e_dp != 1 or devices is not None:
        cols += [Column("dp_efficiency", "eff"), Column("combined_efficiency", "eff")]
    if devices is not None:
        cols += [Column("dp_replicas", "int"), Column("effective_devices", "dec")]
    # grouped as the rows write the count, and one stage in the singular ('p = 1 stages', 'p = 1000000 stages')
    title = label("pipe_title_chunks" if schedule == "interleaved" else "pipe_title", lang).format(
        schedule=schedule, p=fmt(stages, "int", lang), v=fmt(chunks, "int", lang)
    )
    title = singular(title, SINGULAR[lang])
    single = len(records) == 1 and one_size(args.microbatches)  # a list or range of one: a one-row array
    if single or args.csv:  # p heads one answer's lines, and every CSV: its header is the same for m and a sweep
        cols.insert(0, Column("stages", "int"))
    emit(records[0] if single else records, cols, args, title, notes)
    if args.plot:  # after the result is out: a plot that cannot be written loses nothing
        _plot(stages, chunks, schedule, micro, args.plot, lang, title)
    return 0


def _plot(p: int, v: int, schedule: str, micro: list[int], path: str, lang: str, title: str) -> None:
    """Bubble fraction against m for every schedule (the chosen one bold); chosen m marked."""
    from dpscale.faces.plot import check_path, numbers, pyplot, save
    from dpscale.formulas.pipeline import bubble_fraction

    out = check_path(path)
    plt = pyplot()

    hi = max(max(micro) * 2, 8 * p)
    # every m up to 64 (where the curves bend), then a log-spaced grid: the x axis is log2, and every integer to
    # 2·10^7 (-m 10000000, or -p 1000000) was 4 × 2·10^7 bubbles and minutes of plotting for the same picture
    ms = sorted({*range(1, min(hi, 64) + 1), *(round(64 * (hi / 64) ** (i / 512)) for i in range(513) if hi > 64)})
    fig, ax = plt.subplots(figsize=(6, 4), constrained_layout=True)
    for s in SCHEDULES:
        if s == "1f1b":  # the same bubble as GPipe [NARAY21]: one line for both
            continue
        chunks = (v if schedule == "interleaved" else 2) if s == "interleaved" else 1  # v = 1 would hide it
        ys = [bubble_fraction(p, m, s, chunks) for m in ms]
        bold = s == schedule or (s == "gpipe" and schedule == "1f1b")
        name = "gpipe, 1f1b" if s == "gpipe" else s + (f" (v={chunks})" if chunks > 1 else "")  # the curve's own v
        style = "--" if s == "zb-h2" else "-"  # ZB-H1's curve until m ≥ 2p − 1: drawn alike, one hid the other
        ax.plot(ms, ys, style, lw=2.2 if bold else 1, alpha=1 if bold else 0.55, label=name)
    asked = [bubble_fraction(p, m, schedule, v) for m in micro]  # (named: the legend named each curve, not the dot)
    ax.plot(micro, asked, "ko", ms=4, label=label("pipe_asked", lang))
    ax.set_xscale("log", base=2)
    ax.set_xlabel(label("microbatches", lang))
    ax.set_ylabel(label("bubble_fraction", lang))
    ax.set_ylim(0, 1)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    numbers(ax, lang)
    ax.set_title(title, fontsize=9)
    save(fig, out)
