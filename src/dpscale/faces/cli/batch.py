"""`dpscale batch`: global batch, learning-rate scaling, steps per epoch and the critical-batch view.

A thin shell over dpscale.formulas.batch; --devices takes a list or range (one row per size).
"""

from __future__ import annotations

import re

from dpscale.errors import DpscaleError, choice, fail, renamed
from dpscale.faces.cli.common import (
    Parser,
    add_efficiency_args,
    add_output_args,
    efficiency_source,
    nothing_typed,
    number,
    one_size,
    parse_devices,
    positive,
    whole,
)
from dpscale.faces.i18n import label
from dpscale.faces.i18n import number as fmt
from dpscale.faces.output import Column, emit
from dpscale.formulas.batch import (
    FAR_PAST_NOISE,
    GOYAL_MAX_BATCH,
    GOYAL_WARMUP_EPOCHS,
    LR_RANGE,
    NOISE_RANGE,
    RULE_FOR,
    RULES,
    SEQUENCE_FACTOR,
    STEPS_RANGE,
    WARMUP_RANGE,
    batch_plan,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

# 4 devices × 32 samples = one step on 128; Goyal et al.'s ImageNet reference (LR 0.1 at 256; 1.28 M images) scaled
# to it: the page's form opens on the same run
WORKED = {"micro_batch": "32", "devices": "4", "base_lr": "0.1", "base_batch": "256", "dataset_size": "1.28e6"}


def global_batch_instead(typed: str, parser: Parser) -> str:
    """`batch --global-batch G`, refused with how to get G: the command's model is micro-batch × accumulation ×
    devices (its title, its rows over a --devices sweep at one micro-batch), so a global batch is typed as its
    factors. The factors typed are kept (one count each: -d, -b, -k; -d over -b where both are) and the one left out
    is the nearest whole count, its 'gives' saying what they make where G is no multiple (-b 125 -d 8 gives 1,000
    for 997 on 8 devices); with neither -d nor -b, the largest micro-batch of 32, 16, 8, 4 or 2 that leaves two
    devices or more (-b 32 -d 128 for 4,096), else the whole batch on one device."""

    def count(text: str | None, default: int) -> int:  # as -b and -d read a count (1e3, 4096.0), else the default
        try:
            return default if text is None else whole(text, "--global-batch")  # (up to 2^53, as a count is exact)
        except DpscaleError:
            return default

    total = count(typed, 4096)  # a value that is no count: the example's
    devices, micro = count(parser.typed_value("devices"), 0), count(parser.typed_value("micro_batch"), 0)
    accum = count(parser.typed_value("grad_accum"), 1)
    if devices:
        micro = max(1, round(total / (devices * accum)))
    elif micro:
        devices = max(1, round(total / (micro * accum)))
    else:
        per = max(1, round(total / accum))
        micro = next((b for b in (32, 16, 8, 4, 2) if per % b == 0 and per // b >= 2), per)
        devices = max(1, per // micro)
    factors = f"-b {micro} -d {devices}" + (f" -k {accum}" if accum > 1 else "")
    total = micro * devices * accum
    return (
        "--global-batch: not an option; the global batch is --micro-batch × --grad-accum × --devices: "
        f"{factors} gives {fmt(total, 'int')}"
    )


def add_arguments(p: Parser) -> None:
    p.instead = {"--global-batch": global_batch_instead}
    p.epilog = (
        "global batch B = micro-batch × grad-accum × devices. LR: linear rule with warm-up for SGD (Goyal et al.), "
        "square-root rule for Adam (Malladi et al.). Critical batch (McCandlish et al.): steps = S_min(1 + B_noise/B), "
        "samples = E_min(1 + B/B_noise). With no inputs: 4 devices × 32 = 128."
    )
    g = p.add_argument_group("batch")
    g.add_argument("--micro-batch", "-b", metavar="B", help="samples per device per forward/backward")
    g.add_argument("--grad-accum", "-k", metavar="K", default="1", help="gradient-accumulation steps (default 1)")
    g.add_argument("--devices", "-d", metavar="D", help="device count: N, N1,N2,..., A..BxF or A..B+S (default 1)")
    lr = p.add_argument_group("learning rate")
    lr.add_argument("--base-lr", metavar="LR", help="learning rate tuned at --base-batch")
    lr.add_argument(
        "--base-batch",
        metavar="B0",
        help="global batch the base learning rate was tuned at, in samples as the batch (tokens ÷ sequence length)",
    )
    lr.add_argument(
        "--optimizer",
        metavar="NAME",
        default="sgd",
        help="sgd (linear rule; default), adam or adamw (square-root rule)",
    )
    lr.add_argument("--rule", metavar="RULE", help="linear or sqrt (default: the optimizer's)")
    lr.add_argument(
        "--dataset-size",
        metavar="N",
        help="samples per epoch, as the batch counts them (tokens ÷ sequence length; gives steps per epoch, warm-up "
        "steps)",
    )
    # (only where the batch grew: formulas.batch._learning_rate; none at or below the reference, review HT)
    warmup = (
        f"warm-up length (default {GOYAL_WARMUP_EPOCHS:g} with the linear rule once the batch grows past --base-batch, "
        "Goyal; else none)"
    )
    lr.add_argument("--warmup-epochs", metavar="W", help=warmup)
    cb = p.add_argument_group("critical batch")
    cb.add_argument(
        "--noise-scale", metavar="BN",
        help="gradient noise scale B_noise ≈ B_crit, in samples as the batch (tokens ÷ sequence length)",
    )  # fmt: skip
    cb.add_argument("--min-steps", metavar="S", help="S_min: steps to the target at infinite batch")
    add_efficiency_args(p)
    add_output_args(p)


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    typed = ("base_lr", "base_batch", "rule", "warmup_epochs", "dataset_size", "noise_scale",
             "min_steps", "efficiency", "law", "sigma", "kappa", "serial_fraction")  # fmt: skip
    filled = []  # the worked example fills in, and says so when a flag was typed (-k 8 planned 4 × 32 unsaid)
    if args.micro_batch is None and args.devices is None and all(getattr(args, k, None) is None for k in typed):
        if not nothing_typed(args, add_arguments):
            filled = [f"--{k.replace('_', '-')} {v}" for k, v in WORKED.items()]
        for k, v in WORKED.items():  # no inputs: the worked example
            setattr(args, k, v)
    if args.plot:
        from dpscale.faces.plot import check_path

        check_path(args.plot)
    accum = whole(args.grad_accum, "--grad-accum")
    devices = parse_devices(args.devices or "1")
    optimizer = choice(args.optimizer, "--optimizer", tuple(RULE_FOR))
    rule = None if args.rule is None else choice(args.rule, "--rule", RULES)
    base_lr = positive(args.base_lr, "--base-lr", LR_RANGE[2]) if args.base_lr else None  # 'abc' first
    base_batch = whole(args.base_batch, "--base-batch")  # samples: 2.5 gave a learning rate scaled by 102.4
    if (args.base_lr is None) != (args.base_batch is None):
        missing = "--base-lr" if args.base_lr is None else "--base-batch"
        raise DpscaleError(f"{missing}: missing; allowed: --base-lr and --base-batch together (the reference)")
    dataset = whole(args.dataset_size, "--dataset-size", hi=10**15)  # a count of samples (not 100.7)
    warm = None
    if args.warmup_epochs is not None:
        warm = number(args.warmup_epochs, "--warmup-epochs", WARMUP_RANGE[2])
        if warm < 0:
            raise fail("--warmup-epochs", args.warmup_epochs, WARMUP_RANGE[2])
    noise = positive(args.noise_scale, "--noise-scale", NOISE_RANGE[2]) if args.noise_scale else None
    s_min = positive(args.min_steps, "--min-steps", STEPS_RANGE[2]) if args.min_steps else None
    if s_min is not None and noise is None:
        raise DpscaleError("--min-steps: needs --noise-scale (B_noise) for steps = S_min(1 + B_noise/B)")
    if args.micro_batch is None:  # after the flags given: '-d 0' is the error there, not the flag left out
        raise DpscaleError("--micro-batch: missing; allowed: a whole number ≥ 1 (samples per device)")
    micro = whole(args.micro_batch, "--micro-batch")
    e_src = efficiency_source(args, devices, sizes_typed=args.devices is not None)
    if args.plot and e_src is None:
        raise DpscaleError("--plot: needs E (--efficiency or --law) to draw speedup against devices")

    try:  # the formulas check the inputs together; the error names the flags as typed
        plans = [
            batch_plan(micro, d, accum, base_lr, base_batch, rule, optimizer, dataset, warm, noise, s_min, e_src)
            for d in devices
        ]
    except DpscaleError as exc:
        parts = getattr(exc, "parts", None) or ("", "", "")  # 'warmup_epochs', 'base_lr/base_batch', 'a × b × c'
        if not parts[0] or parts[0].startswith("-"):
            raise exc from None
        as_flag = lambda m: "--" + m[0].replace("_", "-")  # noqa: E731
        flags = re.sub(r"[a-z][a-z_]*", as_flag, parts[0])
        allowed = re.sub(r"\bbase_(lr|batch)\b", as_flag, parts[2])  # 'rule: … with base_lr and base_batch'
        raise renamed(exc, flags, allowed) from None
    records = [p.record() for p in plans]
    notes = _notes(plans, lang, optimizer, base_batch)
    if filled:
        notes.insert(0, label("worked_filled", lang).format(flags=", ".join(filled)))
    cols = [Column(k, kind) for k, kind in COLUMNS if any(k in r for r in records)]
    single = len(records) == 1 and one_size(args.devices or "1")  # a list or range of one: a one-row array
    n = devices[0] if single else None  # one size: the title says its count, as the table's one row does
    d = label("batch_title_devices" if n is None else "batch_title_1_device" if n == 1 else "batch_title_n_devices",
              lang).format(n=fmt(n or 0, "int", lang))  # fmt: skip
    title = label("batch_title_one" if accum == 1 else "batch_title", lang).format(
        b=fmt(micro, "int", lang), k=fmt(accum, "int", lang), d=d
    )  # grouped as the devices beside them ('microlote 1.024 × … × 2.048 dispositivos')
    emit(records[0] if single else records, cols, args, title, notes)
    if args.plot:  # after the result is out: a plot that cannot be written loses nothing
        _plot(records, args.plot, lang, title)
    return 0


COLUMNS = (
    ("devices", "int"),
    ("global_batch", "int"),
    ("learning_rate", "sig4"),  # 4 figures a row: float mixed 3.000e-04, 0.0012 and 0.00169706
    ("steps_per_epoch", "int"),
    ("warmup_steps", "int"),
    ("steps_factor", "times"),
    ("samples_factor", "times"),
    ("steps_to_target", "int"),
    ("samples_to_target", "int"),
    ("hardware_speedup", "times"),
    ("time_to_target_speedup", "times"),
)


def _notes(plans: list, lang: str, optimizer: str, base_batch: int | None = None) -> list[str]:
    last = plans[-1]
    notes = []
    if last.rule is not None and base_batch:
        # the size nearest the reference: a factor of a sequence length at every size is a batch typed in tokens
        # against one in sequences (Llama 2's published 4 M tokens as --base-batch against 1,024 sequences: an LR
        # 64× too small, unsaid until review IY)
        near = min(plans, key=lambda p: max(p.global_batch / base_batch, base_batch / p.global_batch))
        factor = max(near.global_batch / base_batch, base_batch / near.global_batch)
        # a global batch far above a reference of the run's own micro-batches (an LR tuned on one GPU's -b 32, then
        # 512 GPUs) is a count of devices, in one unit: no slip (it was said so, review JD)
        own = near.global_batch > base_batch and base_batch % near.micro_batch == 0
        if factor >= SEQUENCE_FACTOR and not own:
            notes.append(
                label("batch_far_from_base", lang).format(
                    b0=fmt(base_batch, "int", lang), b=fmt(near.global_batch, "int", lang),
                    x=fmt(factor, "rate", lang),
                )
            )  # fmt: skip
    if last.rule is not None:
        # the other rule's advice only when this run's optimizer is the other's ('for Adam use --optimizer adam'
        # once followed --optimizer adam --rule linear)
        usual = RULE_FOR[optimizer]
        notes.append(label(f"batch_rule_{last.rule}" + ("" if last.rule == usual else "_asked"), lang))
        # every size, not the last typed: `-d 512,8` is the same plan as `-d 8,512`
        warm = next((p.warmup_epochs for p in plans if p.warmup_epochs), None)
        if warm:
            notes.append(label("batch_warmup", lang).format(w=fmt(warm, "float", lang)))
        if any(p.past_goyal for p in plans):
            notes.append(label("batch_past_goyal", lang).format(max=fmt(GOYAL_MAX_BATCH, "int", lang)))
    if last.noise_scale is not None:  # what the two factor columns mean, and where the batch stops paying
        notes.append(label("batch_noise", lang).format(n=fmt(last.noise_scale, "rate", lang)))  # 2.5, not 2
    # the smallest size each note is true from, whatever order the sizes were typed in: `-d 512,128` named 512
    # ('one step an epoch from 512 devices on') where 128 already took one
    far = sorted((p for p in plans if p.far_past_noise), key=lambda p: p.global_batch)
    if far:
        p = far[0]
        notes.append(
            label("batch_far_past", lang).format(
                b=fmt(p.global_batch, "int", lang),
                x=fmt(p.global_batch / p.noise_scale, "dec", lang),
                f=fmt(FAR_PAST_NOISE, "dec", lang),
                s=fmt(p.samples_factor, "times", lang),
            )
        )
    short = sorted((p for p in plans if p.steps_per_epoch == 1), key=lambda p: p.global_batch)
    if short:  # one step an epoch: the global batch is as large as the dataset (or past it) — a typo, or no plan
        notes.append(label("batch_past_dataset", lang).format(b=fmt(short[0].global_batch, "int", lang),
                                                              d=fmt(short[0].devices, "int", lang)))  # fmt: skip
    if last.time_to_target_speedup is not None:
        notes.append(label("batch_tt", lang))
    return notes


def _plot(records: list[dict], path: str, lang: str, title: str) -> None:
    """Speedup against devices: ideal d, hardware d·E(d), and time-to-target when B_noise is given."""
    from dpscale.faces.plot import check_path, numbers, pyplot, save, sizes_axis, wide

    out = check_path(path)
    plt = pyplot()

    d = [r["devices"] for r in records]
    fig, ax = plt.subplots(figsize=(6, 4), constrained_layout=True)
    # (a marker: one size drew no dashed line, so `-d 8` named an ideal of 8 the plot did not show; calc's the same)
    ax.plot(d, d, "--", marker="x", ms=4, color="grey", label=label("ideal_speedup", lang))
    ax.plot(d, [r["hardware_speedup"] for r in records], "o-", ms=3, label=label("hardware_speedup", lang))
    if "time_to_target_speedup" in records[0]:
        tt = [r["time_to_target_speedup"] for r in records]
        ax.plot(d, tt, "s-", ms=3, label=label("time_to_target_speedup", lang))
    sizes_axis(ax, d)
    if wide(d):
        ax.set_yscale("log", base=2)
    ax.set_xlabel(label("devices", lang))
    ax.set_ylabel(label("speedup_axis", lang))  # three speedups share it: 'speedup d·E' named one
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    numbers(ax, lang)
    ax.set_title(title, fontsize=9)
    save(fig, out)
