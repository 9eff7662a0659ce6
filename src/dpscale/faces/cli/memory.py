"""`dpscale memory`: per-device memory under DDP and ZeRO/FSDP, and whether it fits.

A thin shell over dpscale.formulas.memory; the catalog supplies GPU memory and model shapes.
"""

from __future__ import annotations

from dpscale.errors import (
    MAX_DEVICES,
    MAX_PARAMS,
    MAX_SEQ_LEN,
    MIN_PARAMS,
    PARAMS_ALLOWED,
    DpscaleError,
    choice,
    fail,
)
from dpscale.faces.cli.common import (
    MODEL_FILE_HELP,
    Parser,
    add_output_args,
    derived_note,
    nothing_typed,
    number,
    positive,
    whole,
    zero_stage,
)
from dpscale.faces.i18n import count_said, label, listed, term
from dpscale.faces.i18n import number as fmt
from dpscale.faces.output import Column, emit
from dpscale.formulas.compute import mixture_of_experts
from dpscale.formulas.memory import (
    ACTIVATION_BYTES,
    GPUS_IN_ALL,
    MAX_DEVICE_GB,
    MIN_DEVICE_GB,
    OPTIMIZERS,
    STAGE_NAMES,
    STAGES,
    Shape,
    activation_bytes,
    bytes_per_parameter,
    check_precision,
    check_recompute,
    ddp_bucket_bytes,
    device_bytes,
    fit_advice,
    fit_all,
    gathered_bytes,
    gpt_over_swiglu,
    largest_layer_params,
    largest_micro_batch,
    least_sharded,
    logits_bytes,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from dpscale.formulas.memory import Advice, MemoryFit

WORKED = {"params": "7.5e9", "devices": "64"}  # the ZeRO paper's table (Rajbhandari et al., Fig. 1)
MAX_MICRO_BATCH = 1_000_000  # sequences a device holds at once; beyond it the activations overflow any memory


def add_arguments(p: Parser) -> None:
    p.epilog = (
        "Model states per device: DDP (P+G+K)Ψ, ZeRO-1 (P+G)Ψ + KΨ/N, ZeRO-2 PΨ + (G+K)Ψ/N, "
        "ZeRO-3 / FSDP full shard (P+G+K)Ψ/N; activations (Korthikanti et al.) are not sharded. "
        "With none of --params, --model, --devices, --zero, --gpu, --gpu-memory: the ZeRO paper's 7.5B parameters "
        "on 64 devices (a note says so when other flags were typed)."
    )
    p.letters = {"t": "--tensor-parallel"}  # Megatron's t
    g = p.add_argument_group("model and cluster")
    g.add_argument("--params", metavar="N", help="parameter count, e.g. 7.5e9 (default: the --model preset's)")
    g.add_argument("--model", metavar="NAME", help="model preset from the catalog (transformers give activations); "
                   "with --model-file, one of its models")  # fmt: skip
    g.add_argument("--model-file", metavar="FILE", help=MODEL_FILE_HELP)
    g.add_argument("--devices", "-d", metavar="N", help="data-parallel devices (default 1)")
    g.add_argument(
        "--zero",
        metavar="STAGE",
        type=zero_stage,
        help="0 (DDP), 1, 2 or 3 (≈ FSDP full shard), or by name: ddp, zero1, zero2, zero3, fsdp (FULL_SHARD ≈ "
        "ZeRO-3); default: all four",
    )
    g.add_argument(
        "--optimizer",
        metavar="NAME",
        default="adam",
        help="adam (default), adamw (the same states) or sgd (with momentum)",
    )
    g.add_argument(
        "--precision",
        metavar="P",
        default="mixed",
        help="mixed (16-bit + fp32 master, the ZeRO paper's, default), amp (torch.autocast: fp32 weights, gradients "
        "and states, 16-bit activations), fp32, bf16 (pure, no master copy), or fp8 (Megatron's: bf16 weights, fp32 "
        f"gradients and master, {sum(bytes_per_parameter('adam', 'fp8'))} bytes with Adam)",
    )
    a = p.add_argument_group("activations (with a transformer --model)")
    a.add_argument(
        "--micro-batch",
        "--batch",
        "-b",
        metavar="B",
        default="1",
        help="micro-batch per device (default 1); with --gpu or --gpu-memory a note gives the largest that fits",
    )
    a.add_argument(
        "--seq-len", metavar="S", help="sequence length (default: the model's, from its preset or --model-file)"
    )
    g.add_argument(
        "--tensor-parallel",
        metavar="T",
        default="1",
        help="tensor-parallel size: weights (model states) and activations split T ways (default 1)",
    )
    a.add_argument("--sequence-parallel", action="store_true", help="shard the non-tensor-parallel activations too")
    a.add_argument(
        "--recompute",
        metavar="MODE",
        default="none",
        help="none, selective (attention scores recomputed; ≈ FlashAttention: flash is read as selective) or full",
    )
    f = p.add_argument_group("device")
    f.add_argument("--gpu", metavar="NAME", help="accelerator from the catalog, e.g. a100-80gb")
    f.add_argument(
        "--gpu-memory", metavar="GB", help="device memory in GB as sold: 80 for an 80 GB card (80 GiB); not with --gpu"
    )
    add_output_args(p, plot=False)


ONE_COUNT = (
    "one device count, a whole number without thousands separators (memory takes no list: run it once per count)"
)


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    notes = _worked_example(args)
    memory, where = _device_memory(args, lang)
    optimizer = choice(args.optimizer, "--optimizer", OPTIMIZERS)
    precision = check_precision(args.precision, "--precision")
    recompute = check_recompute(args.recompute, "--recompute")
    stage = None if args.zero is None else int(choice(args.zero, "--zero", tuple(map(str, STAGES))))
    devices = _devices(args.devices)
    preset = None
    if args.model or args.model_file:  # the catalog only for a preset or --gpu: its import (pathlib, the file
        from dpscale import catalog  # reader) cost every run 3 ms

        if args.model_file:  # (its reader names another command's output: review MO)
            from dpscale.sources.efficiency_file import model_file

            preset = model_file(args.model_file, args.model)
        else:
            preset = catalog.model(args.model)
        typed = None if args.seq_len is None or "hf_model_type" not in preset else args.seq_len
        notes += derived_note(preset, args.model_file, lang, typed and whole(typed, "--seq-len", hi=MAX_SEQ_LEN))
    params = _params(args.params, preset)
    t = _tensor_parallel(args.tensor_parallel, devices)
    activation, shaped = _activations(args, preset, precision, recompute, t, notes)

    fits = fit_all(params, devices, activation, memory, optimizer, precision, tensor_parallel=t)
    # the activation figure's inputs too, where it was computed: rows of --recompute none and selective differed in
    # activation_bytes_per_device alone, with nothing in them saying why
    inputs = dict(params=params, tensor_parallel=t, devices=devices, optimizer=optimizer, precision=precision, **shaped)
    gathered = _gathered(preset, precision, t)
    largest = _largest(fits, preset, shaped, precision, t)
    records = _records(fits, inputs, activation, memory, gathered, largest)
    notes += _advice(fits, where, lang, stage, shaped)
    notes += _largest_note(largest, stage, shaped, where, lang)
    notes += _stage_notes(stage, params, precision, optimizer, t, lang)
    notes += _gathered_note(preset, stage, fits[3], gathered, precision, t, lang, args.model_file)
    title = _title(params, devices, optimizer, precision, t, lang)
    if stage is not None and memory is not None:  # the one stage asked for: whether it fits comes first
        least = records[stage]["least_sharded_stage_that_fits"] == stage  # then one note says both, not two
        key = "mem_fits_least" if least else "mem_fits" if records[stage]["fits"] else "mem_not_fits"
        notes.insert(0, label(key, lang).format(strategy=STAGE_NAMES[stage], where=where))
    emit(records if stage is None else records[stage], _columns(stage, activation, memory), args, title, notes)
    return 0


def _worked_example(args: argparse.Namespace) -> list[str]:
    """With no input typed, the ZeRO paper's example fills in params and devices; its note ([] where none) says so
    when other flags were typed, or 7.5 B parameters on 64 devices would read as the user's."""
    inputs = ("params", "model", "model_file", "zero", "gpu", "gpu_memory")
    filled = []  # the worked example fills what was not typed, and says so when something was
    if all(getattr(args, k) is None for k in inputs) and args.devices is None:  # a typed '-d 1' is the user's
        if not nothing_typed(args, add_arguments):
            filled = [f"--params {WORKED['params']}", f"--devices {WORKED['devices']}"]
        args.params, args.devices = WORKED["params"], WORKED["devices"]
    return [label("worked_filled", args.lang).format(flags=", ".join(filled))] if filled else []


def _devices(text: str | None) -> int:
    """The one data-parallel size (1 when not given): memory takes no list, so a comma is refused, not misread."""
    if text is not None and "," in text:  # 64,128 read as the thousands separator of 64128
        raise fail("--devices", text, ONE_COUNT)
    return whole(text or "1", "--devices", hi=MAX_DEVICES)


def _params(text: str | None, preset: dict | None) -> float:
    """The parameter count, typed (within the library's bounds) or the preset's; with neither there is no model."""
    if text is not None:
        params = number(text, "--params", PARAMS_ALLOWED)
        if not MIN_PARAMS <= params <= MAX_PARAMS:
            raise fail("--params", text, PARAMS_ALLOWED)
        return params
    if preset is not None:
        return float(preset["params"])
    raise DpscaleError(f"--params: missing; allowed: {PARAMS_ALLOWED}, or a --model preset")


def _tensor_parallel(text: str, devices: int) -> int:
    """T, refused where the GPUs in all (devices × T) pass the bound a device count has."""
    t = whole(text, "--tensor-parallel", hi=MAX_DEVICES)
    if t is not None and devices * t > MAX_DEVICES:
        raise fail("--tensor-parallel", text, GPUS_IN_ALL)
    return t


def _records(
    fits: tuple[MemoryFit, ...], inputs: dict[str, Any], activation: float, memory: float | None,
    gathered: float | None = None, largest: list[tuple[int, float]] | None = None,
) -> list[dict[str, Any]]:  # fmt: skip
    """One record per stage, each with the inputs it answers for: a --json or --csv row stands alone. ZeRO-3's also
    gives the layer it gathers whole (a transformer preset's), which its total leaves out: said only in a note on
    stderr, a script reading `"fits": true` beside 1.2 GB of headroom never saw the 2.1 GB it also needs."""
    best = least_sharded(fits) if memory is not None else None
    records = []
    for f in fits:
        states = f.states  # computed once, by fit_all
        assert states is not None  # fit_all always sets it
        rec = {
            "stage": f.stage,
            "strategy": STAGE_NAMES[f.stage],
            **inputs,
            "model_state_bytes_per_device": f.model_state_bytes_per_device,
            "parameter_bytes": states.parameter_bytes,
            "gradient_bytes": states.gradient_bytes,
            "optimizer_bytes": states.optimizer_bytes,
            "activation_bytes_per_device": f.activation_bytes_per_device,
            "total_bytes_per_device": f.total_bytes_per_device,
        }
        if not activation:  # not computed (no transformer preset), so not reported as zero
            del rec["activation_bytes_per_device"]
        if f.stage == 3 and gathered is not None:
            rec["gathered_layer_bytes"] = gathered
        if memory is not None:
            rec.update(
                device_memory_bytes=memory,
                headroom_bytes=f.headroom_bytes,
                fits=f.fits,
                least_sharded_stage_that_fits=best,
            )
            if largest is not None:  # (capped at MAX_MICRO_BATCH: the most --micro-batch takes)
                rec["largest_micro_batch_that_fits"] = largest[f.stage][0]
        records.append(rec)
    return records


def _advice(
    fits: tuple[MemoryFit, ...], where: str, lang: str, stage: int | None = None, shaped: dict[str, Any] | None = None
) -> list[str]:
    """The library's advice on what fits (or how it could), worded for the user; the least-sharded stage is left to
    the first note where it is the one stage asked for ('ZeRO-3 fits', then 'least-sharded …: ZeRO-3' again)."""
    fix = _fewer_activations(shaped or {}, lang)
    notes = []
    for a in fit_advice(fits):  # the library decides; the face words it
        if a.key == "mem_least" and a.stage == stage:
            continue
        room, copy, copy_a = a.room or 0, a.copy or 0, a.copy_autocast or 0
        strategy = "" if a.stage is None else STAGE_NAMES[a.stage]
        notes.append(label(a.key, lang).format(
            where=where, strategy=strategy, n=fmt(a.devices or 0, "int", lang), room=fmt(room, "bytes", lang), fix=fix,
            copy=fmt(copy, "bytes", lang), left=_left(room - copy, lang), copy_a=fmt(copy_a, "bytes", lang),
            left_a=_left(room - copy_a, lang), others=_others(a, lang)))  # fmt: skip
    return notes


def _largest(fits: tuple[MemoryFit, ...], preset: dict | None, shaped: dict[str, Any], precision: str,
             t: int) -> list[tuple[int, float]] | None:  # fmt: skip
    """Each stage's largest micro-batch that fits the device, by the table's own sum and test, and the bytes the
    next one would need; None where no activations were counted (no transformer preset) or no device was given."""
    memory = fits[0].device_memory_bytes
    if not shaped or memory is None or preset is None:
        return None
    shape = Shape.of(preset, shaped["seq_len"])
    kw: dict[str, Any] = dict(tensor_parallel=t, sequence_parallel=shaped["sequence_parallel"],
                              recompute=shaped["recompute"], value_bytes=ACTIVATION_BYTES[precision])  # fmt: skip
    said = []
    for f in fits:
        b = largest_micro_batch(f.model_state_bytes_per_device, memory, shape, most=MAX_MICRO_BATCH, **kw)
        said.append((b, f.model_state_bytes_per_device + activation_bytes(shape, b + 1, **kw)))
    return said


def _largest_note(largest: list[tuple[int, float]] | None, stage: int | None, shaped: dict[str, Any], where: str,
                  lang: str) -> list[str]:  # fmt: skip
    """The largest micro-batch that fits: the one stage asked for with what one more would need, else each stage's.
    Where none fits even at 1 and 1 was asked, the table and the advice have said so already: nothing more."""
    if largest is None or (shaped["micro_batch"] == 1 and all(largest[s][0] == 0 for s in _stages(stage))):
        return []

    def b_said(b: int) -> str:
        n = fmt(b, "int", lang)
        return label("mem_batch_or_more", lang).format(b=n) if b >= MAX_MICRO_BATCH else n

    if stage is not None:
        b, need = largest[stage]
        strategy = STAGE_NAMES[stage]
        if b == 0:  # (need: at micro-batch 1)
            return [label("mem_no_batch", lang).format(strategy=strategy, where=where, need=fmt(need, "bytes", lang))]
        after = "" if b >= MAX_MICRO_BATCH else label("mem_largest_next", lang).format(
            n=fmt(b + 1, "int", lang), need=fmt(need, "bytes", lang))  # fmt: skip
        return [label("mem_largest_batch", lang).format(strategy=strategy, where=where, b=b_said(b), next=after)]
    groups: dict[int, list[str]] = {}  # stages of one micro-batch said together (it never falls as stages shard)
    for s in STAGES:
        groups.setdefault(largest[s][0], []).append(STAGE_NAMES[s])
    each = "; ".join(label("mem_largest_each" if b else "mem_largest_none", lang).format(
        b=b_said(b), stages=listed(names, lang)) for b, names in groups.items())  # fmt: skip
    return [label("mem_largest_batches", lang).format(where=where, each=each)]


def _stages(stage: int | None) -> tuple[int, ...]:
    return STAGES if stage is None else (stage,)


def _others(a: Advice, lang: str) -> str:
    """ZeRO-2's and ZeRO-1's fewest devices where nothing fits ('ZeRO-2 from 12, ZeRO-1 never'), one count's
    stages said together ('ZeRO-2 and ZeRO-1 never'): less traffic than ZeRO-3's, where a count can hold them."""
    counts: dict[int | None, list[str]] = {}
    for stage, n in ((2, a.zero2_devices), (1, a.zero1_devices)):
        counts.setdefault(n, []).append(STAGE_NAMES[stage])
    return ", ".join(label("mem_stages_never" if n is None else "mem_stages_from", lang).format(
        stages=listed(stages, lang), n=fmt(n or 0, "int", lang)) for n, stages in counts.items())  # fmt: skip


def _fewer_activations(shaped: dict[str, Any], lang: str) -> str:
    """What is left to shrink a device's activations, as advice: a smaller micro-batch only above 1, recompute only
    short of full (at a micro-batch of 1 with full recompute both were advised, and neither could be taken)."""
    fixes = [label("mem_fix_batch", lang)] if shaped.get("micro_batch", 2) > 1 else []
    recompute = shaped.get("recompute", "none")
    if recompute != "full":
        fixes.append(label("mem_fix_recompute" if recompute == "none" else "mem_fix_recompute_full", lang))
    fixes.append(label("mem_fix_split", lang))
    return listed(fixes, lang, word=label("or", lang))  # 'a, b or c', as every list is said (it had its own join)


def _stage_notes(stage: int | None, params: float, precision: str, optimizer: str, t: int, lang: str) -> list[str]:
    """What the stages are, and DDP's gradient-bucket copy where DDP is shown: the ZeRO paper's figures omit it."""
    notes = [label("mem_stages", lang)]
    if stage in (None, 0):  # the bucket copy is DDP's alone; ZeRO/FSDP shard through their own buffers
        copy, autocast = ddp_bucket_bytes(params, precision, t)
        notes.append(label("mem_ddp_buckets", lang).format(g=fmt(copy, "bytes", lang)))
        if autocast != copy:  # torch.autocast keeps fp32 parameters, so DDP's buckets are fp32 too
            b = sum(bytes_per_parameter(optimizer, "fp32"))  # the note's fp32 states: 16 with Adam, 12 with SGD
            moments = label("mem_states_sgd" if optimizer == "sgd" else "mem_states_adam", lang)
            notes.append(label("mem_ddp_buckets_autocast", lang).format(g=fmt(autocast, "bytes", lang), b=b,
                                                                        states=moments))  # fmt: skip
    return notes


def _gathered(preset: dict | None, precision: str, t: int) -> float | None:
    """The bytes ZeRO-3 holds of the layer it runs, for a transformer preset (None: no shape to find it in)."""
    if preset is None or preset.get("kind") != "transformer":
        return None
    return gathered_bytes(Shape.of(preset), preset.get("vocab"), preset.get("ffn"), precision, t)


def _gathered_note(preset: dict | None, stage: int | None, zero3: MemoryFit, g: float | None, precision: str,
                   t: int, lang: str, path: str | None = None) -> list[str]:  # fmt: skip
    """Where ZeRO-3 is shown for a transformer preset: the layer it gathers whole, which its row leaves out (and
    DeepSpeed's estimator adds), and whether its headroom covers it."""
    if stage not in (None, 3) or preset is None or g is None:
        return []
    room = zero3.headroom_bytes
    short = "" if room is None or room < 0 or room >= g else label("mem_zero3_gathered_short", lang).format(
        room=fmt(room, "bytes", lang))  # fmt: skip
    tp = label("mem_zero3_gathered_tp", lang).format(t=t) if t > 1 else ""
    n = largest_layer_params(Shape.of(preset), preset.get("vocab"), preset.get("ffn"))
    return [label("mem_zero3_gathered", lang).format(model=_named(preset, path, lang), n=fmt(n, "int", lang), tp=tp,
                                                     g=fmt(g, "bytes", lang), short=short)]  # fmt: skip


def _title(params: float, devices: int, optimizer: str, precision: str, t: int, lang: str) -> str:
    """The question the table answers: the model, the devices and, with T > 1, the GPUs the figures are per."""
    title = label("mem_title_one" if devices == 1 else "mem_title", lang).format(
        params=count_said(params, lang),
        devices=fmt(devices, "int", lang),
        optimizer=optimizer,
        precision=term(precision, lang),
    )
    if t > 1:  # the devices are data-parallel ones: without T, DDP's 14 GB for 7 B read as 16 bytes × 7 B wrong
        # ... and the GPUs in all, devices × T (64 with T = 4 read as 64 GPUs where the figures are for 256)
        title += label("mem_title_tp", lang).format(t=fmt(t, "int", lang), gpus=fmt(devices * t, "int", lang))
    return title


def _columns(stage: int | None, activation: float, memory: float | None) -> list[Column]:
    """The columns shown: one stage asked for gets its parts (and the device's memory); activations and headroom
    only where they were computed."""
    cols = [Column("stage", "int")]
    if stage is not None:
        cols += [Column(k, "bytes") for k in ("parameter_bytes", "gradient_bytes", "optimizer_bytes")]
    cols.append(Column("model_state_bytes_per_device", "bytes"))
    if activation:
        cols += [Column("activation_bytes_per_device", "bytes"), Column("total_bytes_per_device", "bytes")]
    if memory is not None:
        if stage is not None:
            cols.append(Column("device_memory_bytes", "bytes"))
        cols.append(Column("headroom_bytes", "bytes"))
    return cols


def _activations(
    args: argparse.Namespace, preset: dict | None, precision: str, recompute: str, t: int, notes: list[str]
) -> tuple[float, dict[str, Any]]:
    """Activation bytes a device holds, from a transformer preset's layer shapes (0 without one, and the flags
    that only activations read are refused rather than ignored), and the inputs they were computed from ({} where
    none were): a --json or --csv row says them beside the figure."""
    lang = args.lang
    activation = 0.0
    shaped: dict[str, Any] = {}
    if preset is not None and preset.get("kind") == "transformer":
        s = None if args.seq_len is None else whole(args.seq_len, "--seq-len", hi=MAX_SEQ_LEN)
        shape = Shape.of(preset, s)
        b = whole(args.micro_batch, "--micro-batch", hi=MAX_MICRO_BATCH)
        width = ACTIVATION_BYTES[precision]
        try:
            activation = activation_bytes(
                shape, b, tensor_parallel=t, sequence_parallel=args.sequence_parallel, recompute=recompute,
                value_bytes=width,
            )  # fmt: skip
        except DpscaleError as exc:  # the library's rules (t divides the heads; sequence parallelism needs t > 1)
            name = (getattr(exc, "parts", None) or ("",))[0]
            if name == "tensor_parallel":  # said with the preset's name (and without parts, so SAID says it in Spanish)
                heads = exc.parts[2].removeprefix("a divisor of the ")
                raise DpscaleError(
                    f"--tensor-parallel: got {t}; allowed: a divisor of {preset['key']}'s {heads}"
                ) from None
            if name != "sequence_parallel":
                raise
            raise DpscaleError(  # a switch: no value was typed ('got True' said none), so say what it was given with
                f"--sequence-parallel: given with --tensor-parallel {t}; allowed: with --tensor-parallel > 1 (it "
                "shards over the tensor-parallel group)"
            ) from None
        shaped = dict(model=preset["key"], micro_batch=b, seq_len=shape.seq_len, recompute=recompute,
                      sequence_parallel=bool(args.sequence_parallel))  # fmt: skip
        notes.append(
            label("mem_act_note", lang).format(
                model=_named(preset, args.model_file, lang, "stdin_name"),
                b=fmt(b, "int", lang),
                s=fmt(shape.seq_len, "int", lang),  # 4,096 as predict
                r=term(recompute, lang),
                bits=8 * width,
            )
        )
        if preset.get("vocab"):  # 2.1 GB for Llama 3 at 8,192 tokens, 10.5 GB while its loss runs unfused
            held, peak = logits_bytes(shape.seq_len, b, preset["vocab"], width, t)
            split = label("mem_logits_tp", lang).format(t=t) if t > 1 else ""
            copy = label("mem_logits_copy", lang) if width < 4 else ""
            notes.append(label("mem_logits", lang).format(n=fmt(held / width, "int", lang), tp=split, copy=copy,
                         held=fmt(held, "bytes", lang), peak=fmt(peak, "bytes", lang)))  # fmt: skip
        if preset.get("attention_dropout") is False and recompute != "full":  # under with selective; without, the
            # scores it drops outweigh the SwiGLU MLP's extra only past a few hundred tokens (Llama 3 8B at 128: under)
            over = gpt_over_swiglu(shape, preset.get("ffn") or 4 * shape.hidden, t, args.sequence_parallel, width)
            mlp = preset.get("mlp", "SwiGLU")  # (a config.json's: Gemma's GeGLU, catalog.hf; every preset's SwiGLU)
            none = label("mem_act_over" if over >= 1 else "mem_act_under", lang).format(
                model=_named(preset, args.model_file, lang),
                pct=fmt(1 - over, "pct", lang),
                s=fmt(shape.seq_len, "int", lang),
                mlp=mlp,
            )
            notes.append(label("mem_act_no_dropout", lang).format(model=_named(preset, args.model_file, lang),
                                                                  none=none, mlp=mlp))  # fmt: skip
        if mixture_of_experts(preset):  # its states count every expert (formulas.compute, as predict's note)
            notes.append(label("mem_moe", lang).format(model=_named(preset, args.model_file, lang)))
    else:  # activations need the layer shapes of a transformer preset: say so rather than ignore these flags
        b = whole(args.micro_batch, "--micro-batch", hi=MAX_MICRO_BATCH)  # as a number: '1.0' and '01' are 1
        given = [f for f, v in (("--micro-batch", b != 1), ("--seq-len", args.seq_len is not None),
                                ("--recompute", recompute != "none"), ("--sequence-parallel", args.sequence_parallel))
                 if v]  # fmt: skip
        if given:
            from dpscale.files import shown

            what = (f"--model-file {shown(args.model_file)} is not a transformer preset" if preset and args.model_file
                    else f"--model {preset['key']} is not a transformer preset" if preset
                    else "--params alone has no shape")  # fmt: skip
            raise DpscaleError(
                f"{', '.join(given)}: activations need a transformer --model preset (its layers and hidden size); "
                f"{what}, so only model states are counted — leave these out"
            )
        if preset is not None:
            notes.append(label("mem_no_act", lang).format(model=_named(preset, args.model_file, lang)))
        else:  # 'fits' beside no word that activations were left out (GPT-2 XL's, 1.56 B, are 43–244 GB at b 8, s 2048)
            notes.append(label("mem_no_act_params", lang))
    return activation, shaped


def _named(preset: dict[str, Any], path: str | None, lang: str, word: str = "stdin_the") -> str:
    """The model as a note names it: its key, but for one read bare from standard input, keyed files.STDIN_NAME, that
    in the note's language, as predict's title and the derived note say it ('la entrada estándar' after a
    preposition or as a subject, `word` "stdin_name" where it stands alone); the rows keep the key."""
    from dpscale.files import STDIN_NAME, is_stdin

    return label(word, lang) if path and is_stdin(path) and preset["key"] == STDIN_NAME else preset["key"]


def _device_memory(args: argparse.Namespace, lang: str) -> tuple[float | None, str]:
    """Bytes of device memory from --gpu or --gpu-memory (not both), and how to name it: as sold (GiB) and in
    the decimal GB the table prints, so that '141 GB' beside a 151.4 GB need does not read as a misfit."""
    if args.gpu is not None and args.gpu_memory is not None:
        raise DpscaleError("--gpu and --gpu-memory: give one of them, not both")
    if args.gpu is not None:
        from dpscale import catalog

        g = catalog.gpu(args.gpu)
        n = device_bytes(float(g["memory_gb"]), g.get("usable_mib"))
        held = f"{fmt(g['usable_mib'], 'int', lang)} MiB" if g.get("usable_mib") else f"{g['memory_gb']} GiB"
        return n, f"{g['key']} ({held} = {fmt(n, 'bytes', lang)})"
    if args.gpu_memory is not None:
        allowed = (
            f"a device memory in GB as sold, a plain number from {MIN_DEVICE_GB:g} to {MAX_DEVICE_GB:,} (80 for an "
            "80 GB card)"
        )
        gb = positive(args.gpu_memory, "--gpu-memory", allowed)
        if not MIN_DEVICE_GB <= gb <= MAX_DEVICE_GB:
            raise fail("--gpu-memory", args.gpu_memory, allowed)
        return device_bytes(gb), f"{fmt(gb, 'float', lang)} GiB = {fmt(device_bytes(gb), 'bytes', lang)}"
    return None, ""


def _left(room: float, lang: str) -> str:
    """What a bucket copy leaves: bytes, or how much it lacks ('-7.7 GB' read as a size left)."""
    return fmt(room, "bytes", lang) if room >= 0 else label("mem_short", lang).format(x=fmt(-room, "bytes", lang))
