"""`dpscale plan`: time to train, device-hours and cost per cluster size, and the sizes worth picking.

A thin shell over dpscale.formulas.plan (whose throughput comes from dpscale.formulas.scaling.scale).
"""

from __future__ import annotations

import math

from dpscale.errors import DpscaleError, fail, renamed
from dpscale.faces.cli.common import (
    PER_DEVICE_RATE,
    SCALE_FLAGS,
    add_efficiency_args,
    add_output_args,
    as_flags,
    check_unit,
    efficiency_source,
    parse_devices,
    positive,
    runs_unit,
    same_unit,
    whole,
    with_unit,
)
from dpscale.faces.cli.common import number as parse_number
from dpscale.faces.i18n import count_of, days, header, label, listed, localise, say, say_text, unit_label
from dpscale.faces.i18n import number as fmt
from dpscale.faces.output import Column, emit
from dpscale.formulas.plan import KNEE_ALLOWED, KNEE_THRESHOLD, cost_key, parse_duration, plan, time_key, within
from dpscale.formulas.scaling import apart
from dpscale.formulas.units import own_unit
from dpscale.notes import figure

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from dpscale.formulas.plan import Plan, PlanPoint
    from dpscale.sources.efficiency_file import EfficiencyFile
    from dpscale.sources.fit import Fit
    from dpscale.sources.laws import PerSize

# ResNet-50 on ImageNet for 90 epochs at 2,000 samples/s per device, E = 0.9, 2.5 per device-hour, 24 h.
WORKED = {
    "samples": "1.28e6",
    "epochs": "90",
    "throughput": "2000",
    "devices": "1..256x2",
    "efficiency": "0.9",
    "price_per_device_hour": "2.5",
    "deadline": "24h",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = (
        "hours = samples × epochs / (d·v·E) / 3600; device-hours = d × hours; cost = device-hours × price, or per "
        "node of G devices ⌈d/G⌉ × hours × node price (a partial node billed whole). "
        f"Knee: the size after which every added device adds under {KNEE_THRESHOLD:g} of a device's speed-up "
        "(--knee-threshold). With no inputs: ImageNet, 90 epochs, 2,000 samples/s, E = 0.9, 2.5/device-hour, 24 h."
    )
    g = p.add_argument_group("training run")
    g.add_argument(
        "--samples",
        "-n",
        metavar="N",
        help="samples per epoch, or what --unit counts (tokens for tokens/s), e.g. 1.28e6",
    )
    g.add_argument("--epochs", metavar="EP", help="epochs (default 1)")
    g.add_argument("--throughput", "-v", metavar="V", help="per-device throughput alone (samples/s, or --unit)")
    g.add_argument("--devices", "-d", metavar="D", help="sizes: N, N1,N2,..., A..BxF or A..B+S (default 1..256x2)")
    g.add_argument("--unit", help="throughput unit for labels (default samples/s)")
    c = p.add_argument_group("money and time")
    c.add_argument(
        "--price-per-device-hour",
        "--price",  # what a user types first ('did you mean --price-per-device-hour?' answered it)
        metavar="P",
        help="price of one device for one hour, in any currency (costs come out in it)",
    )
    c.add_argument(
        "--price-per-node-hour",
        metavar="P",
        help="price of one node for one hour, as clouds bill instances (with --gpus-per-node G; a partial node is "
        "billed whole), instead of --price-per-device-hour",
    )
    c.add_argument("--deadline", metavar="T", help="finish within T: 24h, 90m, 2d, 1d12h, or hours")
    c.add_argument(
        "--budget",
        metavar="B",
        help="spend at most B, in the price's currency (needs a price per device- or node-hour)",
    )
    c.add_argument(
        "--knee-threshold",
        metavar="X",
        default=str(KNEE_THRESHOLD),
        help="marginal speed-up per added device that marks the knee (default 0.5)",
    )
    add_efficiency_args(p)
    e_group = next(g for g in p._action_groups if g.title == "scaling efficiency E(d)")
    e_group.add_argument(
        "--fit",
        metavar="RUNS",
        help="E(d) fitted to measured runs (CSV/JSON lines, as `dpscale fit`); v from them too; - reads standard input",
    )
    e_group.add_argument(
        "--only", action="append", metavar="KEY=VALUE", help="with --fit: the set-up to fit, as `dpscale fit --only`"
    )
    e_group.add_argument(
        "--gpus-per-node",
        metavar="G",
        help="devices per node: with --fit, as `dpscale fit --gpus-per-node`; with --price-per-node-hour, the "
        "devices a node's price buys (plan has no --system: 8 for a DGX/HGX node)",
    )
    e_group.add_argument(
        "--efficiency-file",
        metavar="FILE",
        help="E per size from what `dpscale predict --json` (or `fit`/`measure --json`) wrote, - to pipe it in; its "
        "sizes by default",
    )
    add_output_args(p)


def _e_flag(args: argparse.Namespace, read: Any, fitted: Any) -> str:
    """The flag E came from, for the library's errors that name it 'efficiency' (E(1) ≠ 1, an E too small to finish)."""
    if read is not None:
        return "--efficiency-file"
    if fitted is not None:
        return "--fit"
    return "--law" if args.law not in (None, "constant") else "--efficiency"


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    typed_unit = None if args.unit is None else _per_second(check_unit(args.unit))  # (a file's unit: said apart)
    args.unit = own_unit(typed_unit or "samples/s")  # ('muestras/s' labels as samples/s: English said 'muestras/s')
    e_typed = args.efficiency is not None  # (the worked example's 0.9 is not the user's to be told about)
    title = _worked_example(args) or label("plan_title", lang)
    read = _efficiency_file(args)
    notes = _file_rate(args, read, typed_unit)
    v_from_file = bool(notes)  # (its note is said only when it took the file's rate)
    notes += _samples_are_sequences(args, read)
    notes += _file_warnings(args, read)
    sizes_typed = args.devices is not None  # (before the default sizes fill it in)
    _defaults(args, read)
    if args.plot:
        from dpscale.faces.plot import check_path

        check_path(args.plot, inputs=(args.fit, args.efficiency_file))
    samples = positive(args.samples, "--samples", "a finite sample count > 0")
    epochs = positive(args.epochs, "--epochs", "a finite epoch count > 0")
    devices = parse_devices(args.devices)
    _check_fit_flags(args)
    fitted = _fitted(args, devices, notes, typed_unit) if args.fit is not None else None
    if args.throughput is not None:
        v = positive(args.throughput, "--throughput", PER_DEVICE_RATE)
    else:
        v = fitted.per_device_throughput  # type: ignore[union-attr]
    prices, deadline, budget = _limits(args)
    priced = bool(prices)
    threshold = parse_number(args.knee_threshold, "--knee-threshold", KNEE_ALLOWED)
    e_src = efficiency_source(args, devices, sizes_typed)
    if read is not None:
        e_src = _file_e(args, read, devices, v, v_from_file, notes)
    if fitted is not None:
        e_src = fitted
        devices = [d for d in devices if d >= fitted.baseline_devices]
    e_src = _said_e(e_src, devices, e_typed, notes, lang)

    flags = {**SCALE_FLAGS, "throughput": "--throughput", "deadline_hours": "--deadline", "budget": "--budget",
             "efficiency": _e_flag(args, read, fitted),
             "knee_threshold": "--knee-threshold", "price_per_device_hour": "--price-per-device-hour",
             "price_per_node_hour": "--price-per-node-hour", "gpus_per_node": "--gpus-per-node",
             "samples": "--samples", "epochs": "--epochs"}  # fmt: skip
    with as_flags(flags):  # the library names E 'efficiency'; here it came from a flag (E(1) ≠ 1, say)
        result = plan(
            samples,
            epochs,
            v,
            devices,
            e_src,
            deadline_hours=deadline,
            budget=budget,
            knee_threshold=threshold,
            **prices,
        )
    # each row says the unit its throughput is in (and its samples count in), as the table's title does: a plan of
    # 1e12 tokens at tokens/s and one of 1e12 samples at samples/s wrote the same rows
    records = [with_unit(r, args.unit) for r in result.records()]
    money = _money_kind(result)
    # -n 1.2 for 1.2 million: no device trains on even one sample (review HU); the count said in brackets, as no noun
    # or verb agrees with it ('1 samples over 1 epoch are', '1 muestras', review HV)
    if samples * epochs < max(devices):
        notes.append(label("plan_under_one_sample", lang).format(
            n=fmt(samples, "float", lang), ep=fmt(epochs, "float", lang), d=fmt(max(devices), "int", lang),
            what=count_of(args.unit, lang)))  # fmt: skip
    notes += _node_notes(result, prices, lang, money)
    notes += _pick_notes(result, lang, priced, money)
    if (band := _band(fitted, read, max(devices))) is not None:
        notes += _range(*band, samples, epochs, v, max(devices), prices, lang, money)
    emit(records, _columns(args.unit, money, priced, "price_per_node_hour" in prices), args, title, notes)
    if args.plot:  # after the result is out: a plot that cannot be written loses nothing
        _plot(result, args.plot, lang, title)
    return 0


def _worked_example(args: argparse.Namespace) -> str | None:
    """With nothing typed but epochs or sizes, the worked example fills in the rest; its title (None where the
    inputs are the user's) says so."""
    lang = args.lang
    keys = ("samples", "throughput", "efficiency", "law", "sigma", "kappa", "serial_fraction", "fit",
            "efficiency_file", "price_per_device_hour", "price_per_node_hour", "deadline", "budget")  # fmt: skip
    if any(getattr(args, k) is not None for k in keys):
        return None
    # the worked example fills what was not typed
    if args.epochs is None and args.devices is None:
        title = label("plan_worked", lang)  # (its title names 90 epochs: only when they are its)
    else:  # the example's other inputs fill in: say so, or a typed -d 64 plans ImageNet without a word
        title = label("plan_worked_partial", lang)
    # the rows' unit, and what 1.28M of it are: 1.28M tokens at 2,000 tokens/s (it said "samples" in any unit)
    title = title.format(unit=unit_label(args.unit, lang), count=count_of(args.unit, lang))
    for k, example in WORKED.items():
        setattr(args, k, getattr(args, k) or example)
    return title


def _efficiency_file(args: argparse.Namespace) -> EfficiencyFile | None:
    """--efficiency-file read, only once it is the one source of E: a clash is said before any file is read."""
    # one source of E, checked before any file is read
    typed_e = any(getattr(args, k) is not None for k in ("efficiency", "law", "sigma", "kappa", "serial_fraction"))
    if args.efficiency_file is not None and (typed_e or args.fit is not None):
        raise DpscaleError("--efficiency-file and --efficiency/--law/--fit: give one source of E, not both")
    if args.fit is not None and typed_e:
        raise DpscaleError("--fit and --efficiency/--law: give one source of E, not both")
    if args.efficiency_file is None:
        return None
    from dpscale.sources.efficiency_file import read_efficiencies  # (and runs_csv: 18 ms of a plan's start-up)

    read = read_efficiencies(args.efficiency_file)
    if read.unit is not None:
        _per_second(read.unit, "--efficiency-file, unit")
    return read


def _file_rate(args: argparse.Namespace, read: EfficiencyFile | None, typed_unit: str | None) -> list[str]:
    """The file's per-device rate as --throughput where none was typed, in the file's unit, and the note that says
    so ([] where v is not the file's): E from a file is E at the rate it was measured or predicted at."""
    if args.throughput is not None or read is None or read.v is None or args.fit is not None:
        return []
    # the rate the file's E was for
    tokens = _file_tokens(read)
    if tokens and typed_unit is not None and same_unit(args.unit, "tokens/s"):
        # a language model's prediction says its samples' tokens: its sequences/s × that is the rate in tokens/s
        # (the user multiplied it by hand, or piped it without --unit and planned tokens as sequences)
        args.throughput = repr(read.v * tokens)
        said = {k: fmt(x, "float", args.lang) for k, x in (("v", read.v * tokens), ("own", read.v))}
        return [label("plan_file_v_tokens", args.lang).format(unit=args.unit, s=fmt(tokens, "int", args.lang), **said)]
    if read.unit is not None:
        # the file's text labels the rows, as runs_unit's for --fit (checked first: a per-device unit is refused as
        # such, not held against a typed --unit that is then refused for its per-device part)
        unit = check_unit(read.unit, "--efficiency-file, unit")
        if not same_unit(args.unit, read.unit):
            # predict's 21.7 sequences/s planned as 21.7 tokens/s: 2,048× too long, said nowhere ('Tokens/s' against
            # a file's 'tokens/s' is that unit, as plan --fit and fit take it)
            raise DpscaleError(
                f"--unit: {_got_unit(typed_unit)}; allowed: {read.unit!r}, the unit of --efficiency-file's per-device "
                f"throughput {figure(read.v)} (or give --throughput in {args.unit}; predict's rates are samples/s "
                "without --unit tokens/s: × the sequence length for tokens/s)"
            )
        args.unit = own_unit(unit)
    args.throughput = repr(read.v)
    return [label("plan_file_v", args.lang).format(v=fmt(read.v, "float", args.lang))]


def _file_tokens(read: EfficiencyFile | None) -> int | None:
    """The tokens a sample of a file whose rate is samples/s (a language model's prediction states them), or None."""
    return read.tokens if read is not None and read.unit is not None and same_unit(read.unit, "samples/s") else None


def _samples_are_sequences(args: argparse.Namespace, read: EfficiencyFile | None) -> list[str]:
    """A plan in samples/s of a language model's prediction counts sequences: said, with the way to count tokens
    (1e12 tokens typed as --samples planned 8,192× too long, the table's 'samples/s' the only word of it)."""
    tokens = _file_tokens(read)
    if not tokens or not same_unit(args.unit, "samples/s"):
        return []
    return [label("plan_file_sequences", args.lang).format(s=fmt(tokens, "int", args.lang))]


def _file_warnings(args: argparse.Namespace, read: EfficiencyFile | None) -> list[str]:
    """What the command that wrote the file warned of (fit: extrapolation, law choice), said by the file's name."""
    if read is None:
        return []
    from pathlib import Path

    from dpscale.files import is_stdin

    # (standard input the subject of 'warns': 'la entrada estándar advierte' in Spanish)
    name = label("stdin_the", args.lang) if is_stdin(args.efficiency_file) else Path(args.efficiency_file).name
    return [label("plan_file_warning", args.lang).format(file=name, w=say_text(w, args.lang)) for w in read.warnings]


# (the web page, which has no --fit, says this line with what it offers instead: faces/web/app.py's PAGE_SAID)
PER_SECOND = "a rate per second (samples/s, tokens/s), typed or stated by the file read: plan's hours count seconds"


def _per_second(unit: str, flag: str = "--unit") -> str:
    """plan's hours are samples ÷ (d·v·E) with v per second, whatever --unit says (it labels the rate): a rate in
    samples/min was planned 60× too short without a word. A unit per another time or per no time ('tokens/step') is
    refused, and so is a count with no time ('tokens': tokens/s is the rate); one whose time cannot be read (fps) is
    taken as per second (formulas.units.not_per_second)."""
    from dpscale.formulas.units import not_per_second

    if not_per_second(unit):
        raise fail(flag, unit, PER_SECOND)
    return unit


# (an --efficiency-file states the rate its E was predicted or measured at: predict's, calc's, fit's, measure's --json)
NO_RATE = (
    "--throughput: missing; allowed: a per-device throughput > 0 (or --fit measured runs, or --efficiency-file: "
    "predict's, fit's or calc's --json, which states it)"
)


def _defaults(args: argparse.Namespace, read: EfficiencyFile | None) -> None:
    """Sizes (the file's first) and epochs left out take their defaults; samples and a rate have none to take."""
    if read is not None and args.devices is None:  # the sizes that were predicted or measured
        args.devices = _sizes(read.e)
    args.epochs, args.devices = args.epochs or "1", args.devices or "1..256x2"
    if args.samples is None:
        raise DpscaleError("--samples: missing; allowed: a sample count > 0")
    if args.throughput is None and args.fit is None and args.efficiency_file is not None:  # said why the file's
        # own rate was not taken: its records state several, or none above 0 (it read as plain 'missing')
        raise DpscaleError(
            "--throughput: missing; allowed: a per-device throughput > 0 (--efficiency-file states no one rate > 0 "
            "for its E)"
        )
    if args.throughput is None and args.fit is None:
        raise DpscaleError(NO_RATE)


# (the web page, which has no --fit, says this line with the node price alone: faces/web/app.py's PAGE_SAID)
LONE_NODE_SIZE = (
    "--gpus-per-node: only with --fit (it shapes the fitted all-reduce law) or --price-per-node-hour (the devices a "
    "node's price buys)"
)


def _check_fit_flags(args: argparse.Namespace) -> None:
    """--fit's own flags without it, and a typed rate beside the fit's, each refused by name (not ignored)."""
    if args.fit is not None and args.throughput is not None:
        raise DpscaleError("--fit and --throughput: the fitted runs give the per-device throughput too; give one")
    if args.only and args.fit is None:
        raise DpscaleError("--only: only with --fit (it picks one set-up of a `dpscale measure` file)")
    if args.gpus_per_node is not None and args.fit is None and not args.price_per_node_hour:
        raise DpscaleError(LONE_NODE_SIZE)


# finite: '--budget inf' (no limit, meant) was told 'allowed: a budget > 0', which inf is (review KZ)
PRICE = "a finite price > 0"
BUDGET = "a finite budget > 0 (leave --budget out for no limit)"


def _limits(args: argparse.Namespace) -> tuple[dict[str, float], float | None, float | None]:
    """The price (plan's keywords: per device-hour, or per node-hour with the node's devices; {} where none), deadline
    and budget, each optional; a budget is refused without a price that makes it hours."""
    if args.price_per_device_hour and args.price_per_node_hour:
        raise DpscaleError("--price-per-device-hour and --price-per-node-hour: give one price, not both")
    prices: dict[str, float] = {}
    if args.price_per_device_hour:
        prices["price_per_device_hour"] = positive(args.price_per_device_hour, "--price-per-device-hour", PRICE)
    elif args.price_per_node_hour:
        prices["price_per_node_hour"] = positive(args.price_per_node_hour, "--price-per-node-hour", PRICE)
        if not args.gpus_per_node:  # 32.77 an instance of how many devices: the cost is per device otherwise 8× off
            raise DpscaleError("--price-per-node-hour: needs --gpus-per-node (the devices a node's price buys)")
        from dpscale.sources.fit_runs import MAX_GPUS_PER_NODE  # (only here: a plan at one E reads no file module)

        prices["gpus_per_node"] = whole(args.gpus_per_node, "--gpus-per-node", 1, MAX_GPUS_PER_NODE)
    deadline = parse_duration(args.deadline, "--deadline") if args.deadline is not None else None
    budget = positive(args.budget, "--budget", BUDGET) if args.budget is not None else None
    if budget is not None and not prices:
        raise DpscaleError(
            "--budget: needs --price-per-device-hour or --price-per-node-hour (a budget is money; the price turns it "
            "into hours)"
        )
    return prices, deadline, budget


def _node_notes(result: Plan, prices: dict[str, float], lang: str, money: str) -> list[str]:
    """Priced per node: the node's price, the device-hour it comes to on a full node, and the sizes that leave part
    of their last node idle, billed for it whole ([] where priced per device or not at all)."""
    if "price_per_node_hour" not in prices:
        return []
    p, g = prices["price_per_node_hour"], int(prices["gpus_per_node"])
    said = {"p": fmt(p, "float", lang), "g": fmt(g, "int", lang), "pd": fmt(p / g, "float", lang)}
    notes = [label("plan_node_price", lang).format(**said)]
    partial = [pt for pt in result.points if pt.devices % g]
    if partial:
        more = len(partial) - 6
        rest = label("plan_and_more", lang).format(n=fmt(more, "int", lang)) if more > 0 else ""
        each = [label("plan_node_size", lang).format(d=fmt(pt.devices, "int", lang), n=fmt(pt.nodes, "int", lang),
                                                     idle=fmt((pt.nodes or 0) * g - pt.devices, "int", lang))
                for pt in partial[:6]]  # fmt: skip
        notes.append(label("plan_node_partial", lang).format(g=said["g"], sizes=listed(each, lang, more=rest)))
    return notes


def _file_e(
    args: argparse.Namespace, read: EfficiencyFile, devices: list[int], v: float, v_from_file: bool, notes: list[str]
) -> PerSize:
    """The file's E on the sizes planned (one it lacks is refused, not guessed), and what its d0 or its own rate
    says of the v it is planned with."""
    lang = args.lang
    have, wanted = dict(read.e.table), set(devices)  # once: per size, 10,000 sizes took 4 s (quadratic)
    missing = [d for d in devices if d not in have]
    if missing:
        raise fail("--devices", args.devices, f"sizes in --efficiency-file: {_sizes(read.e)}")
    # the sizes planned (its note listed every size of a file of 20 for a plan of two)
    e_src = type(read.e)(tuple(pair for pair in read.e.table if pair[0] in wanted))
    held = [(d, e) for d, e in read.held if d in wanted]
    if held:  # an E of 1.01, which measure leaves unsaid, was refused as superlinear (review LW): planned as 1, said
        from dpscale.sources.measure import REPEAT_SPREAD_E

        notes.append(label("plan_file_held", lang).format(
            sizes=listed([fmt(d, "int", lang) for d, _ in held], lang),
            emax=fmt(max(e for _, e in held), "float", lang), spread=fmt(REPEAT_SPREAD_E, "float", lang),
        ))  # fmt: skip
    if read.d0 > 1:  # E measured or fitted against d0 devices: v must be the per-device rate there
        if not v_from_file:  # (v from the file is that rate already: fit's X(d0)/d0)
            notes.append(label("plan_file_d0", lang).format(d0=fmt(read.d0, "int", lang)))
        else:  # what --fit says of the same E: the speedup is over one device at the d0 run's rate
            notes.append(_speedup_note(read.d0, v, args.unit, lang))
    elif (
        read.v is not None
        and not v_from_file
        and abs(v / read.v - 1) > 1e-3
        and (read.unit is None or same_unit(args.unit, read.unit))
    ):
        # a rate measured on 8 devices holds E(8); the file's rate typed back as the table printed it is no other
        notes.append(label("plan_file_v_other", lang).format(v=fmt(v, "float", lang), own=fmt(read.v, "float", lang)))
    return e_src


def _said_e(e_src: Any, devices: list[int], e_typed: bool, notes: list[str], lang: str) -> Any:
    """The E the plan runs on (1 where none was given), and the note that names it: the table shows only values."""
    if e_src is None:
        e_src = 1.0
        notes.append(label("plan_no_e", lang))
    elif isinstance(e_src, float) and len(devices) > 1:
        notes.append(label("constant_note", lang).format(e=fmt(e_src, "float", lang)))
    elif isinstance(e_src, float) and devices == [1] and e_src != 1 and e_typed:  # not lost without a word
        notes.append(label("one_device_note", lang).format(e=fmt(e_src, "float", lang)))
    elif hasattr(e_src, "describe"):
        notes.append(label("law_note", lang).format(law=say(e_src.describe(), lang)))
    return e_src


def _band(fitted: Fit | None, read: EfficiencyFile | None, d: int) -> tuple[str, tuple[float, float, float]] | None:
    """E's interval at the largest size, where the source states one: the note's key and (lo, hi, coverage)."""
    if fitted is not None:  # the plan uses the fit's point; its interval at the largest size, in time and cost
        p = fitted.predict([d])
        return "plan_fit_range", (float(p.efficiency_lo[0]), float(p.efficiency_hi[0]), fitted.confidence)
    if read is not None and read.band and d in read.band and read.level:  # a file's band, as a fit's
        return "plan_file_range", (*read.band[d], read.level)
    return None


def _columns(unit: str, money: str, priced: bool, per_node: bool = False) -> list[Column]:
    """The table's columns: a cost column only where there is a price, the nodes rented where it is per node."""
    cols = [
        Column("devices", "int"),
        Column("efficiency", "eff"),
        Column("actual_throughput", "rate", unit),
        Column("speedup", "times"),
        Column("hours", "hours"),
        Column("device_hours", "dec"),
    ]
    if per_node:
        cols.append(Column("nodes", "int"))
    if priced:
        cols.append(Column("cost", money))
    cols.append(Column("marginal_speedup", "dec"))
    return cols


def _sizes(e: PerSize) -> str:
    """An E table's sizes as -d takes them: the default sizes of a file, and those its error lists."""
    return ",".join(str(d) for d, _ in e.table)


def _speedup_note(d0: int, v: float, unit: str, lang: str) -> str:
    """S = d·E reads as over one device; E relative to d0 > 1 says over what (--fit and a file of E alike)."""
    rate = f"{fmt(v, 'rate', lang)} {unit_label(unit, lang)}"
    return label("plan_fit_speedup", lang).format(d0=fmt(d0, "int", lang), v=rate)


def _got_unit(typed: str | None) -> str:
    """The --unit a file's unit clashed with: the one typed, or plan's default, said as such (the line said "got
    'samples/s'" to a user who had typed no --unit; --samples counts in it, so a file's unit is not taken silently)."""
    return f"got {typed!r}" if typed is not None else "not typed (plan's default 'samples/s')"


def _fitted(args: argparse.Namespace, devices: list[int], notes: list[str], typed_unit: str | None) -> Fit:
    """A `dpscale.fit` of the measured runs as the E source; sizes below its baseline are dropped."""
    import dpscale
    from dpscale.sources.fit_io import read_runs_unit
    from dpscale.sources.fit_runs import MAX_GPUS_PER_NODE
    from dpscale.sources.runs_json import parse_only

    g = whole(args.gpus_per_node, "--gpus-per-node", 1, MAX_GPUS_PER_NODE) if args.gpus_per_node else None

    try:
        runs, said = read_runs_unit(args.fit, parse_only(args.only), dot_groups=args.lang != "en")
        if said is not None:
            _per_second(said, "--fit, unit")
        if typed_unit is None and said is not None and not same_unit(args.unit, check_unit(said, "--fit, unit")):
            raise DpscaleError(f"--unit: {_got_unit(None)}; allowed: {said!r}, the unit the runs in --fit state")
        args.unit = runs_unit(args.unit, said, "--fit")  # its rate is v: samples/s of tokens/s runs ran 2,048× long
        f = dpscale.fit(runs, gpus_per_node=g)
    except DpscaleError as exc:  # the reader names its parameter runs (`dpscale fit RUNS`); here it is --fit
        raise (renamed(exc, "--fit") if (getattr(exc, "parts", None) or ("",))[0] == "runs" else exc) from None
    d0 = f.baseline_devices
    if not any(d >= d0 for d in devices):
        raise fail("--devices", args.devices, f"sizes from the smallest measured run in --fit: ≥ {d0}")
    if any(d < d0 for d in devices):
        notes.append(label("plan_fit_below", lang=args.lang).format(d0=fmt(d0, "int", args.lang)))
    if d0 > 1:  # S = d·E reads as over one device; this E cannot say what one device alone does
        notes.append(_speedup_note(d0, f.per_device_throughput, args.unit, args.lang))
    # what fit itself says of its runs and law (averaged or conflicting repeats, sizes oversubscribed or ended
    # apart, a law that misses a measured point, throughput that falls: only the first two kinds were said, so a
    # plan at a law 35 % off its measured E said nothing that the same fit through --efficiency-file said), then
    # of these sizes: past 4× its runs, and a runner-up law outside the interval
    notes += [*f.warnings, *f.warnings_at([d for d in devices if d >= d0])]
    return f


def _range(key: str, band: tuple[float, float, float], samples: float, epochs: float, v: float, d: int,
           prices: dict[str, float], lang: str, money: str) -> list[str]:  # fmt: skip
    """E's interval at the largest size (a fit's, or the band an --efficiency-file states: lo, hi and its
    coverage), and the time and cost it spans there (plan's own formula at either end): the point alone made a
    budget pick look safe that the interval's low end breaks."""
    lo, hi, level = band
    hi = min(hi, 1.0)  # a plan does not bank on E above 1 (a fit's interval at its smallest runs passes it)
    ends = [_end(samples, epochs, v, d, e, prices) for e in (hi, lo)]  # fastest first
    span = f"{header('hours', lang)} " + " – ".join(fmt(x[0], "hours", lang) for x in ends)
    if prices:
        span += f"; {header('cost', lang)} " + " – ".join(fmt(x[1], money, lang) for x in ends)
    e_lo, e_hi = fmt(lo, "bound", lang), fmt(hi, "bound", lang)  # a tiny band its digits, as predict's E lo/hi
    pct = fmt(level, "level", lang)
    return [label(key, lang).format(d=fmt(d, "int", lang), pct=pct, lo=e_lo, hi=e_hi, span=span)]


def _end(samples: float, epochs: float, v: float, d: int, e: float, prices: dict[str, float]) -> tuple[float, Any]:
    """Hours and cost at one end of E's interval, by plan's own formula; ∞ where E there is so low that the time
    leaves floats (a band's low end of 1e-300): the table's plan stands, and that end is said, not refused as
    'efficiency: got 1e-300', a name no flag has. Likewise its cost alone (E 1e-290: 4.3e302 h, finite, at a price
    whose cost there is not), once refused as 'price_per_node_hour: got …' for the price the table had just used."""
    try:
        p = plan(samples, epochs, v, [d], e, **prices).points[0]
    except DpscaleError as exc:
        name = getattr(exc, "parts", ("",))[0]
        if name in ("price_per_device_hour", "price_per_node_hour"):  # the time is finite: plan's without a price
            return plan(samples, epochs, v, [d], e).points[0].hours, math.inf
        if name != "efficiency":
            raise
        return math.inf, math.inf if prices else None
    return p.hours, p.cost


def _point(result: Plan, d: int) -> PlanPoint:
    return next(p for p in result.points if p.devices == d)


def _money_kind(result: Plan) -> str:
    """Cents ('money'), unless a cost or the budget is under half a cent: a price of 0.0001 a device-hour (prices
    in thousands) printed every cost as 0.00, and --budget 1e-9 as 'no size stays within the budget of 0.00'."""
    amounts = [p.cost for p in result.points if p.cost is not None] + [result.budget]
    return "money" if all(a is None or a == 0 or abs(a) >= 0.005 for a in amounts) else "dec"


def _digits(x: float, limit: float, kind: str, lang: str) -> tuple[int, str, float] | None:
    """(decimals, unit, scale) that part a time or cost from its limit, where the table's own digits print both
    alike; None where they do not, where x is the limit, or past it within 9 digits (plan's `within`: it meets
    it); none for an exponent's form either (1.00e-05 s: no decimals to add)."""
    shown = fmt(x, kind, lang)
    if x == limit or (x > limit and within(x, limit)) or shown != fmt(limit, kind, lang) or "e" in shown:
        return None
    shown = shown.partition(" (")[0]  # (a time's days aside: ' (30.0 days)')
    unit, scale = "", 1.0
    if kind == "hours":
        unit, scale = (" h", 1) if shown.endswith(" h") else (" min", 60) if shown.endswith(" min") else (" s", 3600)
    n = apart(x * scale, limit * scale, 2, 13)
    return (n, unit, scale) if n < 13 else None


def _past(x: float, limit: float, kind: str, lang: str) -> str:
    """A time or cost beside its limit in the digits that part them: 1.008 h, where the table's 0.1 h reads '1.0 h'
    beside a 1.0 h deadline, and 2.004 beside a budget of 2.00 (the picks were right; the figures seemed to meet
    the limits they miss) — and a pick that meets a limit printed alike, 0.99994 h against 0.99995."""
    finer = _digits(x, limit, kind, lang)
    if finer is None:
        return fmt(x, kind, lang)
    decimals, unit, scale = finer
    return localise(f"{x * scale:,.{decimals}f}{unit}", lang) + (days(x, lang) if kind == "hours" else "")


def _limit(limit: float, xs: list[float], kind: str, lang: str) -> str:
    """The deadline or budget as given, to 6 figures, where figures beside it needed more digits than the table's
    ('0.99983 h' beside '1.0000 h': it read '1.0 h'; a budget of 9.999 read '10.00'); never rounded to another
    number (a budget of 1.99995 read '1.9999' beside a pick costing 1.99994), and trailing zeros the table's
    digits hold dropped (a 1 h deadline stays '1.0 h')."""
    finer = [d for x in xs if (d := _digits(x, limit, kind, lang))]
    if not finer:
        return fmt(limit, kind, lang)
    n, unit, scale = max(finer)
    v = limit * scale
    six = max(0, 5 - math.floor(math.log10(abs(v)))) if v else 0  # decimals of 6 significant figures
    said = f"{v:,.{max(n, six)}f}"
    table = fmt(limit, kind, "en").partition(" (")[0].removesuffix(unit)
    while said.endswith("0") and len(said.partition(".")[2]) > len(table.partition(".")[2]):
        said = said[:-1]
    return localise(said.removesuffix(".") + unit, lang) + (days(limit, lang) if kind == "hours" else "")


def _near(result: Plan, key: str, limit: float) -> list[PlanPoint]:
    """Sizes whose figure may print as the limit it misses. Two figures that print alike differ by at most 10 %
    or 0.01 (0.1 h from 1 h up, cents, 3 digits), so only those near the limit are formatted: a plan of 100,000
    sizes formatted each one twice (+1.9 s)."""
    return [p for p in result.points if limit < getattr(p, key) <= 1.11 * limit + 0.01]


def _missed(result: Plan, key: str, limit: float, kind: str, lang: str) -> str:
    """'1 — 1.01 h, …' for the sizes whose figure the table rounds onto a limit they miss; '' if none."""
    near = _near(result, key, limit)
    finer = [(p.devices, _past(getattr(p, key), limit, kind, lang), fmt(getattr(p, key), kind, lang)) for p in near]
    return listed([f"{fmt(d, 'int', lang)} — {fine}" for d, fine, shown in finer if fine != shown], lang)


def _pick_notes(result: Plan, lang: str, priced: bool, money: str = "money") -> list[str]:
    r = result
    notes = []

    def describe(d: int) -> str:
        """A pick's time and cost, each parted from the limit it meets where the table prints them alike."""
        p = _point(r, d)
        hours = _past(p.hours, r.deadline_hours, "hours", lang) if r.deadline_hours else fmt(p.hours, "hours", lang)
        device_hours = fmt(p.device_hours, "dec", lang)
        text = f"{fmt(d, 'int', lang)} — {hours}, {device_hours} {label('device_hours', lang)}"  # 2.000, as the table
        cost = _past(p.cost, r.budget, money, lang) if r.budget and p.cost is not None else fmt(p.cost, money, lang)
        return text + (f", {label('cost', lang)} {cost}" if priced else "")

    if r.deadline_hours is not None:
        fastest = min(r.points, key=lambda p: p.hours)
        near = [p.hours for p in _near(r, "hours", r.deadline_hours)] + [fastest.hours]
        near += [_point(r, r.cheapest_meeting_deadline).hours] if r.cheapest_meeting_deadline else []
        deadline = _limit(r.deadline_hours, near, "hours", lang)
        if r.cheapest_meeting_deadline is None:
            notes.append(
                label("plan_no_deadline", lang).format(
                    t=deadline,
                    d=fmt(fastest.devices, "int", lang),
                    h=_past(fastest.hours, r.deadline_hours, "hours", lang),
                )
            )
        else:
            pick = describe(r.cheapest_meeting_deadline)
            cost = cost_key(_point(r, r.cheapest_meeting_deadline))
            ties = sum(within(p.hours, r.deadline_hours) and cost_key(p) == cost for p in r.points)
            if ties > 1:  # a constant E: every size from two devices costs the same
                pick += label("plan_cheapest_tie", lang).format(n=fmt(ties, "int", lang))
            notes.append(label("plan_cheapest", lang).format(t=deadline, pick=pick))
        missed = _missed(r, "hours", r.deadline_hours, "hours", lang)
        if r.cheapest_meeting_deadline is not None and missed:  # (the no-size note names the fastest so already)
            notes.append(label("plan_past_deadline", lang).format(t=deadline, sizes=missed))
    if r.budget is not None:
        cheapest = min(p.cost or 0.0 for p in r.points)  # (a budget comes with a price: every size has a cost)
        near = [p.cost or 0.0 for p in _near(r, "cost", r.budget)] + [cheapest]
        near += [_point(r, r.fastest_within_budget).cost or 0.0] if r.fastest_within_budget else []
        budget = _limit(r.budget, near, money, lang)
        if r.fastest_within_budget is None:
            notes.append(label("plan_no_budget", lang).format(b=budget))
        else:
            notes.append(label("plan_fastest", lang).format(b=budget, pick=describe(r.fastest_within_budget)))
        missed = _missed(r, "cost", r.budget, money, lang) if priced else ""
        if missed:
            notes.append(label("plan_past_budget", lang).format(b=budget, sizes=missed))
    fastest = min(r.points, key=time_key)
    peak = fastest.devices  # (of a tie in time, the smallest size)
    # sizes past the fastest are past the throughput's peak (USL's); one below it is a dip that larger sizes climb out
    # of (review MF: runs at 1, 0.80× and 1.23× were 'past the throughput's peak' with the largest size the fastest),
    # below the largest of sizes tied as fastest too (review MG: 1, 2 and 8 at 16.7 min around 4 at 20.8 called 4 past
    # the peak of 1, where 8 climbs back to it)
    top = max(p.devices for p in r.points if time_key(p) == time_key(fastest))
    for key, slower in (("plan_slower_dip", [d for d in r.slower_than_smaller if d < top]),
                        ("plan_slower", [d for d in r.slower_than_smaller if d > top])):  # fmt: skip
        if slower:  # the table alone did not say it
            more = len(slower) - 6
            said = label("plan_and_more", lang).format(n=fmt(more, "int", lang)) if more > 0 else ""
            sizes = listed([fmt(d, "int", lang) for d in slower[:6]], lang, more=said)  # 2,048 and 4,096
            notes.append(label(key, lang).format(sizes=sizes, d=fmt(peak, "int", lang)))
    x = fmt(r.knee_threshold, "float", lang)
    if len(r.points) < 2:  # one size: no device was added, nothing to judge
        return notes
    if r.knee is None:
        notes.append(label("plan_no_knee", lang).format(x=x))
    else:
        first = r.knee == r.points[0].devices and r.knee > 1
        pick = describe(r.knee) + (" " + label("plan_knee_first", lang) if first else "")
        notes.append(label("plan_knee", lang).format(pick=pick, x=x))
    return notes


def _plot(result: Plan, path: str, lang: str, title: str) -> None:
    """Two panels against devices: hours (deadline line) and cost or device-hours (budget line); knee marked."""
    from dpscale.faces.plot import check_path, numbers, pyplot, save, sizes_axis, spans_decades

    out = check_path(path)
    plt = pyplot()

    pts = result.points
    d = [p.devices for p in pts]
    priced = pts[0].cost is not None
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
    ax1.plot(d, [p.hours for p in pts], "o-", ms=3)
    spend = [p.cost if priced else p.device_hours for p in pts]
    ax2.plot(d, spend, "o-", ms=3, color="C1")
    if result.deadline_hours is not None:
        ax1.axhline(result.deadline_hours, color="C3", ls="--", label=label("deadline", lang))
    if result.budget is not None:
        ax2.axhline(result.budget, color="C3", ls="--", label=label("budget", lang))
    for ax in (ax1, ax2):
        if result.knee is not None:
            ax.axvline(result.knee, color="grey", ls=":", label=label("knee", lang))
        sizes_axis(ax, d)
        ax.set_xlabel(label("devices", lang))
        ax.grid(True, alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    ax1.set_yscale("log")
    # a cost from 40 to 4,639 made every size from 1 to 64 look the same; so did a budget line of 1,000,000 over costs
    # of 278 to 309 (review MX): the line is drawn on the panel, so it counts
    if spans_decades(spend, [result.budget]):
        ax2.set_yscale("log")
    for ax in (ax1, ax2):
        numbers(ax, lang)
    ax1.set_ylabel(label("hours", lang) + " (h)")
    ax2.set_ylabel(label("cost" if priced else "device_hours", lang))
    fig.suptitle(title, fontsize=10)
    save(fig, out)
