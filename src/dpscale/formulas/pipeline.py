"""Pipeline bubble, in-flight micro-batches, and efficiency with data parallelism stacked on top.

With p stages and m micro-batches each device idles while the pipeline fills and drains.
Papers quote the bubble two ways (../shared/reference/physics.md §7); dpscale reports both and
calls *bubble_fraction* the share of total time:
    bubble_overhead r = bubble / ideal time   GPipe, 1F1B: (p−1)/m [NARAY21]
                                              interleaved (v chunks per device): (p−1)/(v·m) [NARAY21]
                                              ZB-H1: (p−1)/(3m), ZB-H2: 0 (T_F = T_B = T_W) [ZB]
                                              m < p, never filled: unfilled()
    bubble_fraction    = bubble / total time = r/(1 + r)      (GPipe: (p−1)/(m+p−1) [GPIPE])
    pipeline efficiency = 1 − bubble_fraction = 1/(1 + r)
Data parallelism over pipeline replicas multiplies in: E = E_pipe · E_dp.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dpscale.errors import (
    MAX_DEVICES,
    DpscaleError,
    check_count,
    check_efficiency,
    choice,
    fail,
    is_array,
    one,
    renamed,
)
from dpscale.formulas.scaling import check_baseline, compute, constant_efficiency, efficiency_at, is_number
from dpscale.notes import Note, sizes_shown

SCHEDULES = ("gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2")


def check_schedule(schedule: str, name: str = "schedule") -> str:
    """One of the known schedules, else the one-line error listing them."""
    return choice(schedule, name, SCHEDULES)


# said as a library caller types them (the CLI says its flags: faces/cli/pipeline.py checks --chunks first)
INTERLEAVED_CHUNKS = "2 or more with schedule='interleaved' (1 chunk is schedule='1f1b')"
ONE_CHUNK = "1 unless schedule='interleaved'"


def bubble_overhead(stages: int, microbatches: int, schedule: str = "1f1b", chunks: int = 1) -> float:
    """Bubble time over ideal (bubble-free) time, r."""
    p = check_count(stages, "stages", MAX_DEVICES)  # one schedule at a time: a list raised numpy's ambiguity error
    m = check_count(microbatches, "microbatches")
    v = check_count(chunks, "chunks")
    schedule = check_schedule(schedule)
    if schedule != "interleaved" and v != 1:
        raise fail("chunks", v, ONE_CHUNK)
    if schedule == "interleaved" and v < 2:  # one chunk a device is plain 1F1B [KORTH22 §4.2.3]
        raise fail("chunks", v, INTERLEAVED_CHUNKS)
    # (GPipe and 1F1B: their closed form is already the unfilled step, exact at any m)
    return (
        unfilled(p, m, schedule, v) if m < p and schedule not in ("gpipe", "1f1b") else _closed_form(p, m, schedule, v)
    )


def _closed_form(p: int, m: int, schedule: str, v: int) -> float:
    if schedule in ("gpipe", "1f1b"):
        return (p - 1) / m
    if schedule == "interleaved":
        return (p - 1) / (v * m)
    if schedule == "zb-h1" or m < 2 * p - 1:  # ZB-H2's zero rests on 2p − 1 in flight [ZB]; short of it, ZB-H1's
        return (p - 1) / (3 * m)
    return 0.0  # zb-h2


def unfilled(p: int, m: int, schedule: str, v: int = 1) -> float:
    """r of a pipeline that never fills (m < p), where the interleaved and zero-bubble closed forms fall below what
    one micro-batch's own trip through the p stages takes (p = 8, m = 4, v = 2: 7/8 against a path of 8 units on
    4 of work, r ≥ 1). The least step any schedule reaches: the last chunk (on device p − 1) cannot start before
    the first forward crosses the pv − 1 chunks ahead of it, must run all m micro-batches' F and B (m/v of a stage's
    F + B, one unit), and its last backward must cross those chunks back — p + (m − 1)/v units; under zero-bubble
    (F = B = W = ⅓, one chunk) its F and B take 2m/3 and the first stage's last W ends the step. So r is
    (p − m + (m − 1)/v)/m interleaved, (2p − m − 1)/(3m) zero-bubble; GPipe/1F1B (p − 1)/m, as published; each
    its closed form at m = p. A list schedule of the dependency graph reaches it (tests/test_pipeline.py: every
    p ≤ 5, m < p; a review's runs: all 84 interleaved cases with p ≤ 8, v = 2–4, F:B 1:1 and 1:2, and 28
    zero-bubble ones), so it is the step, not a loose floor."""
    path = 2 / 3 if schedule.startswith("zb") else 1.0
    return (path * p + path * (m - 1) / v + (1 - path)) / m - 1


def bubble_fraction(stages: Any, microbatches: Any, schedule: str = "1f1b", chunks: Any = 1) -> float:
    """Bubble time over total time, r/(1 + r); GPipe p = 4, m = 8 → 3/11."""
    r = bubble_overhead(stages, microbatches, schedule, chunks)
    return r / (1 + r)


def in_flight(stages: int, microbatches: int, schedule: str = "1f1b", chunks: int = 1) -> float:
    """Peak micro-batches whose activations the first stage holds (units of one micro-batch × stage).

    GPipe stores all m before any backward; 1F1B and ZB-H1 at most p [NARAY21, ZB];
    interleaved p + (p−1)/v, i.e. p·(1 + (p−1)/(p·v)) [KORTH22 §4.2.3]; ZB-H2 2p − 1 [ZB].
    Never more than m.
    """
    p, m, v = stages, microbatches, chunks
    bubble_overhead(p, m, schedule, v)  # validates
    schedule = check_schedule(schedule)  # its lower-case name ('GPIPE' is taken, as by the CLI)
    held = {
        "gpipe": m,
        "1f1b": p,
        "zb-h1": p,
        "interleaved": p + (p - 1) / v,
        "zb-h2": 2 * p - 1,
    }[schedule]
    return float(min(held, m))


@dataclass(frozen=True, slots=True)
class PipelineResult:
    """One pipeline configuration; devices/replicas are None when no device count was given."""

    schedule: str
    stages: int
    microbatches: int
    chunks: int
    bubble_overhead: float
    bubble_fraction: float
    pipeline_efficiency: float
    in_flight_microbatches: float
    dp_efficiency: float
    combined_efficiency: float
    devices: int | None
    dp_replicas: int | None
    effective_devices: float | None

    def record(self) -> dict:
        """The result as one plain dict (the CLI's JSON row)."""
        return {f: getattr(self, f) for f in self.__slots__}


def pipeline(
    stages: Any,
    microbatches: Any,
    schedule: str = "1f1b",
    chunks: Any = 1,
    dp_efficiency: Any = 1.0,
    devices: Any = None,
) -> PipelineResult:
    """Bubble and in-flight micro-batches of one schedule, and E with data parallelism stacked.

    devices (optional) is the total: p stages × dp replicas; it must be a whole multiple of p. dp_efficiency is a
    number, or an E(d) source (a law, a fit, a prediction) read at the replica count, which devices then sets; with
    one replica (devices = stages) there is no data parallelism, and dp_efficiency is 1 whatever was given.

    Returns a PipelineResult: `bubble_fraction` (of total time), `bubble_overhead` (of ideal time),
    `pipeline_efficiency`, `in_flight_microbatches`, `combined_efficiency` (× dp_efficiency), with devices
    `dp_replicas` and `effective_devices`, and `record()`.
    """
    # one whole number each, as plain ints (a list raised numpy's ambiguity error)
    stages = check_count(stages, "stages", MAX_DEVICES)
    microbatches, chunks = check_count(microbatches, "microbatches"), check_count(chunks, "chunks")
    r = bubble_overhead(stages, microbatches, schedule, chunks)
    schedule = check_schedule(schedule)
    source = not is_number(dp_efficiency) and (hasattr(dp_efficiency, "efficiency") or callable(dp_efficiency))
    if source and devices is None:  # an E(d) needs the d it is read at
        raise fail("dp_efficiency", dp_efficiency, "a number in (0, 1], or an E(d) source with devices= given")
    listed = is_array(dp_efficiency) or isinstance(dp_efficiency, (list, tuple, range))  # (one(): 'one number')
    if not source and not listed and not is_number(dp_efficiency):  # text, a dict, None: 'allowed: a number' named
        # no E(d) source, which this takes too
        raise fail("dp_efficiency", dp_efficiency, "a number in (0, 1], or an E(d) source (a law, a fit, a prediction, "
                   "a PerSize table) with devices= given")  # fmt: skip
    e_dp = 1.0 if source else check_efficiency(one(dp_efficiency, "dp_efficiency"), "dp_efficiency")
    replicas = effective = None
    if devices is not None:
        d = devices = check_count(devices, "devices", MAX_DEVICES)
        if stages > d:
            raise fail("stages", stages, f"at most the device count: {d}")
        if d % stages:
            raise fail(
                "devices",
                d,
                f"a whole multiple of the stages (stages × replicas): {stages}, {2 * stages}, …",
            )
        replicas = d // stages
    e_pipe = 1 / (1 + r)
    if replicas is not None and replicas > 1 and source:  # E(d) at the data-parallel size: the replicas
        try:
            check_baseline(dp_efficiency, replicas)  # a fit from 8 devices read at 2 gave 'got 1.07' (E relative to 8)
            e = efficiency_at(dp_efficiency, replicas)
        except DpscaleError as exc:  # 'efficiency: no value for 4 devices' of a table: say which input, and why 4
            name = f"dp_efficiency at {replicas} replicas (devices / stages)"
            raise (renamed(exc, name) if getattr(exc, "parts", None) else DpscaleError(f"{name}: {exc}")) from None
        e_dp = check_efficiency(one(e, "dp_efficiency"), "dp_efficiency")
    elif replicas is not None:  # one replica is no data parallelism: E(1) = 1, whatever --dp-efficiency says
        e_dp = constant_efficiency(e_dp, replicas)
    combined = e_pipe * e_dp
    if devices is not None:
        effective = compute(devices, 1.0, combined).effective_devices  # d·E, the core's formula
    return PipelineResult(
        schedule=schedule,
        stages=int(stages),
        microbatches=int(microbatches),
        chunks=int(chunks),
        bubble_overhead=r,
        bubble_fraction=bubble_fraction(stages, microbatches, schedule, chunks),
        pipeline_efficiency=e_pipe,
        in_flight_microbatches=in_flight(stages, microbatches, schedule, chunks),
        dp_efficiency=e_dp,
        combined_efficiency=combined,
        devices=None if devices is None else int(devices),
        dp_replicas=replicas,
        effective_devices=effective,
    )


def cautions(result: PipelineResult) -> list[Note]:
    """Where the closed forms above stop describing real schedules; where GPipe's and 1F1B's, exact, leave most of
    the step idle because m < p, why."""
    out: list[Note] = []
    p, m = result.stages, result.microbatches
    if m < p and result.schedule not in ("gpipe", "1f1b"):  # with m < p, 1F1B runs as GPipe: (p − 1)/m exact
        closed = _closed_form(p, m, result.schedule, result.chunks)
        out.append(Note("pipeline_unfilled", m=m, p=p, closed=100 * closed, r=100 * result.bubble_overhead))
    elif m < p:  # exact, but why the bubble is most of the step went unsaid (p = 8, m = 4: 63.6 %)
        out.append(Note("pipeline_unfilled_exact", m=m, p=p, slots=m + p - 1, idle=100 * result.bubble_fraction,
                        m4=4 * p, at4=100 * bubble_fraction(p, 4 * p, result.schedule)))  # fmt: skip
    if result.schedule == "interleaved" and m % p:
        out.append(Note("pipeline_interleaved", p=p))
    if result.schedule == "zb-h2" and m < p:  # the unfilled note gave r already (ZB-H1's): said once (review KN)
        out.append(Note("pipeline_zb2_in_flight_sizes", need=2 * p - 1, sizes=f"{m:,}"))
    elif result.schedule == "zb-h2" and m < 2 * p - 1:  # its zero bubble rests on 2p − 1 in flight [ZB]
        out.append(Note("pipeline_zb2_in_flight", need=2 * p - 1, m=m, zb1_pct=100 * bubble_overhead(p, m, "zb-h1")))
    if result.schedule.startswith("zb"):
        out.append(Note("pipeline_zb_times"))
    return out


# a sweep's note said once for all its m (its per-m figures are the table's columns), by the one m's note's key
SWEPT = {
    "pipeline_unfilled": "pipeline_unfilled_sizes",
    "pipeline_unfilled_exact": "pipeline_unfilled_exact_sizes",
    "pipeline_zb2_in_flight": "pipeline_zb2_in_flight_sizes",
    "pipeline_interleaved": "pipeline_interleaved_sizes",  # (named no m, though some were multiples: review KQ)
}


def sweep_cautions(results: Sequence[PipelineResult]) -> list[Note]:
    """cautions of a sweep over m (one p, schedule and v), each said once: a note that holds at several m names
    them, where `pipeline -p 64 -m 1..64` said 'm = 1 < p = 64: the pipeline never fills …' 64 times (review KN)."""
    said: dict[str, list[tuple[int, Note]]] = {}
    for r in results:
        for note in cautions(r):
            said.setdefault(SWEPT.get(note.key, note.key), []).append((r.microbatches, note))
    out: list[Note] = []
    for key, notes in said.items():
        ms = sorted({m for m, _ in notes})
        if key in SWEPT.values() and len(ms) > 1:
            fields = {k: v for k, v in notes[0][1].fields.items() if k in ("p", "need", "m4", "at4")}
            out.append(Note(key, sizes=sizes_shown(ms), **fields))  # 'm = 1, 2, 3, 4, 5, … and 14'
        else:
            for _, n in notes:
                out += [n] if n not in out else []
    return out


__all__ = [
    "SCHEDULES",
    "PipelineResult",
    "bubble_fraction",
    "bubble_overhead",
    "cautions",
    "check_schedule",
    "in_flight",
    "pipeline",
    "sweep_cautions",
    "unfilled",
]
