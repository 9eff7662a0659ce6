"""`dpscale calc`: the calculator. A thin shell over dpscale.formulas.scaling and .solve."""

from __future__ import annotations

import math
import re

from dpscale.errors import DpscaleError, fail
from dpscale.faces.cli.common import (
    LIST_DECIMAL,
    PER_DEVICE_RATE,
    SCALE_FLAGS,
    add_efficiency_args,
    add_output_args,
    as_flags,
    check_unit,
    efficiency_source,
    numbers,
    one_size,
    parse_devices,
    positive,
    same_unit,
    with_unit,
)
from dpscale.faces.i18n import label, number, say, unit_label
from dpscale.faces.output import Column, emit
from dpscale.formulas.scaling import scale
from dpscale.formulas.solve import solve, sweep_notes
from dpscale.formulas.units import own_unit

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

WORKED = {"devices": "64", "throughput": "2000", "efficiency": "0.9"}


def columns(unit: str) -> list[Column]:
    return [
        Column("devices", "int"),
        Column("per_device_throughput", "rate", unit),
        Column("efficiency", "eff"),
        Column("ideal_throughput", "rate", unit),
        Column("actual_throughput", "rate", unit),
        Column("speedup", "times"),
        Column("lost_throughput", "rate", unit),
        Column("effective_devices", "dec"),
    ]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = (
        "Give three of --devices, --throughput, E (--efficiency or --law) and --actual/--speedup; "
        "the fourth is solved. With no inputs: the worked example (64 × 2,000 × 0.9)."
    )
    g = p.add_argument_group("inputs")
    g.add_argument("--devices", "-d", metavar="D", help="device count: N, N1,N2,..., A..BxF or A..B+S")
    g.add_argument("--throughput", "-v", metavar="V", help="per-device throughput alone (samples/s, or --unit)")
    g.add_argument(
        "--actual", "-a", metavar="A", help="measured or target cluster throughput, in --unit (one per size)"
    )
    g.add_argument("--speedup", "-s", metavar="S", help="measured or target speedup over one device")
    g.add_argument("--unit", default="samples/s", help="throughput unit for labels (default samples/s)")
    add_efficiency_args(p)
    add_output_args(p)


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    inputs = ("devices", "throughput", "efficiency", "actual", "speedup", "law", "sigma", "kappa", "serial_fraction")
    title = None
    args.unit = own_unit(check_unit(args.unit))  # ('muestras/s' labels as samples/s: English said 'muestras/s')
    if all(getattr(args, k) is None for k in inputs):
        for k, example in WORKED.items():
            setattr(args, k, example)
        title = label("worked_example", lang).format(unit=unit_label(args.unit, lang))  # the rows' unit
    if args.plot:
        from dpscale.faces.plot import check_path

        check_path(args.plot)

    devices = parse_devices(args.devices) if args.devices is not None else None
    v = positive(args.throughput, "--throughput", PER_DEVICE_RATE) if args.throughput else None
    e_src = efficiency_source(args, devices)
    if args.actual is not None and args.speedup is not None:
        raise DpscaleError("--actual and --speedup: give one of them, not both (A = S·v)")
    target_flag = "--actual" if args.actual is not None else "--speedup"
    raw_target = args.actual if args.actual is not None else args.speedup
    if raw_target is not None and re.fullmatch(r"\s*0\s*,\s*\d+\s*", raw_target):  # '0,9': no list starts at 0
        raise fail(target_flag, raw_target, LIST_DECIMAL)
    targets = numbers(raw_target, target_flag, "finite numbers > 0") if raw_target is not None else None
    if targets:
        for text in str(raw_target).split(","):  # each as typed: '0', not '0.0'
            positive(text.strip(), target_flag)
        if args.speedup is not None and v is None and devices is not None and e_src is not None:
            raise DpscaleError(  # said with the flags (the library names its parameters)
                "--throughput: cannot be solved from --speedup (S = d·E does not involve it); allowed: give --actual"
            )

    given = [devices is not None, v is not None, e_src is not None, targets is not None]
    if sum(given) != 3:
        names = ["--devices", "--throughput", "--efficiency/--law", "--actual/--speedup"]
        have = [n for n, g in zip(names, given) if g]
        raise DpscaleError(
            f"inputs: got {', '.join(have) or 'none'}; allowed: exactly three of {', '.join(names)} "
            "(the fourth is solved)"
        )

    notes: list[str] = []
    if targets is None:
        assert devices is not None  # three of the four were given, and the targets are not one of them
        with as_flags(SCALE_FLAGS):  # the library names its parameters; here they are flags
            records = [scale(d, v, e_src).records()[0] for d in devices]
        if isinstance(e_src, float) and len(devices) > 1:
            notes.append(label("constant_note", lang).format(e=number(e_src, "float", lang)))
        elif hasattr(e_src, "describe"):
            notes.append(label("law_note", lang).format(law=say(e_src.describe(), lang)))
            peak = e_src.peak_size() if hasattr(e_src, "peak_size") else math.inf
            if max(devices) > peak:  # the USL's retrograde region: more devices, less throughput
                notes.append(label("past_peak_note", lang).format(d=number(peak, "int", lang)))
        elif devices == [1] and isinstance(e_src, float) and e_src != 1:
            notes.append(label("one_device_note", lang).format(e=number(e_src, "float", lang)))
        elif len(devices) == 1:
            notes.append(label("single_note", lang))
    else:
        records = _solve_rows(devices, v, e_src, targets, args.actual is None)
        solved = records[0]["solved"]
        title = f"{label('solved', lang)}: {label(solved, lang)}"
        notes += sweep_notes(records)  # (an E above 1 of a sweep names its sizes: review MO)

    if not same_unit(args.unit, "samples/s"):  # a tokens/s row said so (plan --efficiency-file read it as samples/s);
        records = [with_unit(r, args.unit) for r in records]  # samples/s, the default, as the JSON contract has it
    single = len(records) == 1 and (args.devices is None or one_size(args.devices))  # 8..8: a one-row array
    emit(records[0] if single else records, columns(args.unit), args, title, notes)
    if args.plot:  # after the result is out: a plot that cannot be written loses nothing
        from dpscale.faces.plot import plot_scaling

        plot_scaling(records, args.plot, lang, title or _drawn(e_src, lang), args.unit)
    return 0


def _drawn(e_src: Any, lang: str) -> str:
    """A sweep's plot title: the E it was drawn with ('E(d) from USL σ = 0.02, κ = 0.0001'), which the table's notes
    say and a plot, read without them, did not (a sweep's title was empty)."""
    from dpscale.sources.laws import Constant

    law = Constant(e_src) if isinstance(e_src, float) else e_src
    return label("law_note", lang).format(law=say(law.describe(), lang)) if hasattr(law, "describe") else ""


def _solve_rows(devices: Any, v: Any, e_src: Any, targets: list[float], is_speedup: bool) -> list[dict]:
    """One solve per row: lists of devices and targets pair up, or one target serves every device count; several
    targets for one device count are refused (a comma inside one number, e.g. 115,200 from a table)."""
    if devices is not None and len(devices) == 1 and len(targets) > 1:  # '115,200' copied from a table
        flag = "--speedup" if is_speedup else "--actual"
        raise DpscaleError(
            f"{flag}: got {len(targets)} values for 1 device count; allowed: one value per device count — a comma "
            "separates list items, so write numbers without thousands separators and with a decimal point"
        )
    if devices is not None and len(devices) > 1 and len(targets) not in (1, len(devices)):
        raise DpscaleError(
            f"--actual/--speedup: got {len(targets)} values for {len(devices)} device counts; "
            "allowed: one value, or one per device count"
        )
    n = max(len(targets), len(devices) if devices else 1)
    rows = []
    for i in range(n):
        d = None if devices is None else devices[i if len(devices) > 1 else 0]
        t = targets[i if len(targets) > 1 else 0]
        key = "speedup" if is_speedup else "actual_throughput"
        try:
            rows.append(solve(devices=d, per_device_throughput=v, efficiency=e_src, **{key: t}).record())
        except DpscaleError as exc:  # the library says 'target …' of the value; here it is the flag the user typed
            if not str(exc).startswith("target "):
                raise
            flag, said = ("--speedup", "target speedup ") if is_speedup else ("--actual", "target ")
            raise DpscaleError(f"{flag} {str(exc).removeprefix(said)}") from None
    return rows
