"""`dpscale predict`: E(d) from the model, batch, precision and cluster — a shell over sources.predict."""

from __future__ import annotations

from dpscale.errors import MAX_DEVICES, MAX_SEQ_LEN, PARAMS_ALLOWED, DpscaleError, fail
from dpscale.faces.cli.common import (
    MODEL_FILE_HELP,
    add_output_args,
    any_case,
    bandwidth,
    check_unit,
    latency,
    min_efficiency,
    number,
    parse_devices,
    positive,
    rate_unit,
    same_unit,
    whole,
    with_unit,
    zero_stage,
)
from dpscale.faces.output import Column, emit

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from dpscale.sources.predict import Prediction

COLUMNS = [
    Column("devices", "int"),
    Column("efficiency", "eff"),
    Column("efficiency_lo", "bound"),
    Column("efficiency_hi", "bound"),
    Column("actual_throughput", "rate"),
    Column("speedup", "times"),
    Column("compute_s", "ms"),
    Column("allreduce_s", "ms"),
    Column("exposed_comm_s", "ms"),
    Column("sync_wait_s", "ms"),
    Column("step_s", "ms"),
    Column("bottleneck", "text"),
    Column("link", "text"),
    Column("algorithm", "text"),
]


# The order predict's notes are said in, by key (dpscale.notes' or a label's), the one rule for the CLI and the page:
# what bears on this answer first — the rate in the unit an LLM user asks for, inputs assumed, a run that cannot go
# as given, a figure that looks like a unit slip, inputs past what was checked — then how it was made (any key not
# named: MADE), and last the explanations of the columns that every run prints. Notes of one rank keep the order
# they were made in. (The tokens/s rate was note 7 of 9 behind them.)
NOTE_RANK: dict[str, int] = {
    "predict_tokens_note": 0,
    **dict.fromkeys(("predict_precision_default", "predict_batch_default", "gpu_unknown", "model_hf_derived",
                     "predict_sizes_dropped"), 1),
    **dict.fromkeys(("ddp_memory", "zero_memory", "activation_memory", "cpu_decode"), 2),
    **dict.fromkeys(("beyond_peak", "beyond_peak_tokens", "step_time_slow", "precision_no_peak", "intra_bidirectional",
                     "intra_bidirectional_file", "inter_bits_as_bytes", "inter_one_port_file", "unchecked_inter_low",
                     "inter_per_nic", "inter_per_nic_known", "input_per_gpu", "params_off_preset", "intra_node_total",
                     "intra_node_total_file", "inter_bits_file",
                     "params_over_preset"), 3),
    **dict.fromkeys(("unchecked_arch", "unchecked_size", "unchecked_params", "unchecked_params_large",
                     "sync_bytes_held", "unchecked_intra", "unchecked_inter", "network_unknown", "network_ethernet",
                     "zero_unchecked", "zero_unchecked_exposed", "calibration_short", "calibration_elsewhere",
                     "calibration_nodes"), 4),
    **dict.fromkeys(("e_lost", "e_lost_input"), 6),  # what the answer's E is made of, after how it was made
    **dict.fromkeys(("predict_units_note", "band_note", "wait_note"), 9),
}  # fmt: skip
MADE = 5  # the rank of a note not named: how the answer was made (compute estimated, accumulation, nodes, NICs)

DEFAULT_DEVICES = "1..1024x2"  # the sizes predicted where --devices is not typed

# --unit: the rates predict can state — samples/s, its own, or a language model's tokens/s (× its sequence length)
UNITS_ALLOWED = "samples/s or tokens/s (a language model's: samples/s × its sequence length)"
NO_TOKENS = (
    "samples/s: this model has no tokens a sample — tokens/s is a language model's (a preset with a vocabulary, or "
    "--params with --seq-len)"
)
# a --throughput in tokens/s: the library's samples/s bounds (sources.predict.RATE) × the tokens a sample, said so
THROUGHPUT_TOKENS_ALLOWED = "per-device tokens/s at the baseline size (1e-9 to 1e15 samples/s × the sequence length): "
# a record's rates, the ones --unit tokens/s states in tokens/s (E, counts and times are the same in either unit)
RATES = ("per_device_throughput", "ideal_throughput", "actual_throughput", "lost_throughput", "actual_throughput_lo",
         "actual_throughput_hi")  # fmt: skip


GPU_HELP = (
    "the GPU (default: the system's; in its place with --system): its peak for a FLOPs estimate, its memory speed for "
    "the synchronisation wait, its ring fill for the all-reduce (on every GPU but Hopper and Blackwell, mid-size "
    "buckets run below the link); it also tells apart systems that share a name (DGX-1 with v100-16gb): {}"
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    from dpscale.formulas.collectives import ALGORITHMS
    from dpscale.formulas.overlap import BUCKET_CAP, FIRST_BUCKET
    from dpscale.formulas.stepmodel import DEFAULT
    from dpscale.formulas.units import MIB
    from dpscale.sources.predict import DEFAULT_BATCH
    from dpscale.sources.predict_inputs import DEFAULT_MFU, default_mfu

    cap, first = f"{BUCKET_CAP / MIB:g}", f"{FIRST_BUCKET / MIB:g}"  # the defaults live in the layers below
    a_intra, a_inter = f"{DEFAULT.alpha_intra * 1e6:g}", f"{DEFAULT.alpha_inter * 1e6:g}"

    p.epilog = (
        "Example: dpscale predict --model bert-large --precision amp --batch 32 --throughput 150 "
        "--system dgx-a100 --devices 1..1024x2. Its --json is E per size for dpscale plan --efficiency-file "
        "(time and cost)."
    )
    p.add_argument("--devices", "-d", help=f"device counts (default {DEFAULT_DEVICES})")
    m = p.add_argument_group("model and batch")
    m.add_argument("--model", help="preset: " + ", ".join(_names("models")) + "; with --model-file, one of its models")
    m.add_argument("--model-file", metavar="FILE", help=MODEL_FILE_HELP)
    m.add_argument("--params", help="parameter count (overrides the preset's)")
    m.add_argument(
        "--precision",
        help="fp32, tf32, amp (autocast: fp32 gradients), fp16, bf16 (16-bit weights and gradients; bf16 autocast "
        "is amp), fp8 (the GPU's fp8 peak, bf16 weights, fp32 gradients) (default fp32)",
    )
    m.add_argument("--grad-bytes", help="bytes per gradient element all-reduced (overrides the precision's)")
    m.add_argument(
        "--gather-bytes",
        help="bytes per parameter all-gathered under --zero (overrides the precision's weights; 1 for a float8 "
        "all-gather)",
    )
    m.add_argument("--batch", "--micro-batch", "-b", help=f"per-device micro-batch (default {DEFAULT_BATCH})")
    m.add_argument(  # -k as `dpscale batch` reads it
        "--grad-accum",
        "-k",
        default="1",
        help="micro-batches per optimizer step (DDP's all-reduce and ZeRO-1's reduce-scatter once per step, "
        "ZeRO-2/3's in every micro-batch; default 1)",
    )
    m.add_argument(
        "--global-batch",
        help="a global batch fixed over the sizes (strong scaling), instead of --batch: each size's micro-batch is "
        "it / (devices × --grad-accum), a whole number at every size",
    )
    m.add_argument(
        "--seq-len",
        help="sequence length for transformer FLOPs (default: the model's, from its preset or --model-file)",
    )
    m.add_argument(
        "--unit",
        default="samples/s",
        help="samples/s (default) or tokens/s, a language model's (samples/s × its sequence length): the unit of "
        '--throughput, --target-throughput and the rates shown (--json/--csv rows then say it in "unit")',
    )
    c = p.add_argument_group("compute time (a measured baseline is preferred)")
    c.add_argument("--throughput", "-v", help="measured per-device samples/s at the baseline size (or --unit)")
    c.add_argument(
        "--step-time",
        help="measured seconds per optimizer step at the baseline size (JSON's step_s; the table's step ms ÷ 1,000)",
    )
    c.add_argument("--baseline-devices", default="1", help="size the baseline was measured at (default 1)")
    # (its uses, all of them: 'for a FLOPs estimate' alone hid the memory speed, the ring fill (gpus.json
    # ring_fill_us) and the system it swaps or picks)
    c.add_argument("--gpu", help=GPU_HELP.format(", ".join(_names("gpus"))))
    # (a CNN's share is by the kind of peak, not the precision: an MI300X's fp32 is its matrix cores', a P100's fp16
    # its fp32 cores' doubled; fp8's at the fp8 peak twice bf16's, as every catalog GPU's is to 1 %)
    cnn = default_mfu({"kind": "cnn"}, "amp"), default_mfu({"kind": "cnn"}, "fp32")
    fp8 = default_mfu(None, "fp8"), default_mfu({"kind": "cnn"}, "fp8")
    c.add_argument(
        "--mfu",
        help=f"model-FLOPs utilisation for the estimate (default {DEFAULT_MFU:g}; CNN presets: the middle of "
        f"published ResNet-50 runs, {cnn[0]:g} of a tensor- or matrix-core peak, {cnn[1]:g} of NVIDIA's fp32 cores' "
        f"(fp32; any precision on Pascal); fp8: {fp8[0]:.3g} of its peak, a CNN preset {fp8[1]:.3g}, torchao's "
        "published gain over bf16)",
    )
    c.add_argument(
        "--input-rate",
        help="samples/s one node's input pipeline delivers (time the data loader alone); shared by the node's GPUs",
    )
    k = p.add_argument_group("cluster")
    k.add_argument("--system", help="preset: " + ", ".join(_names("systems")))
    k.add_argument(
        "--system-file", help="your own systems JSON (format of the catalog's systems.json; - reads standard input)"
    )
    k.add_argument(
        "--gpus-per-node",
        help="devices per node; below a --system's, that many of each node's GPUs and the NICs they reach",
    )
    k.add_argument("--intra-bw", help="intra-node GB/s per device per direction (spec; 64GB/s, 600Gb/s also read)")
    k.add_argument(
        "--inter-bw",
        help="inter-node GB/s per node per direction (spec, all compute NICs: bytes, so 8 × 200 Gb/s is 200; "
        "1600Gb/s, 25GbE also read)",
    )
    k.add_argument("--algorithm", default="auto", choices=ALGORITHMS, type=any_case(ALGORITHMS),
                   help="all-reduce algorithm (default auto: the fastest, as NCCL's tuner picks)")  # fmt: skip
    k.add_argument("--zero", default="0", metavar="STAGE", type=zero_stage,
                   help="shard the model states: 0 DDP (default), ZeRO 1, 2 or 3 (≈ FSDP full shard): "
                   "reduce-scatter and all-gathers replace the all-reduce; by name too: ddp, zero1, zero2, zero3, "
                   "fsdp (FULL_SHARD ≈ ZeRO-3)")  # fmt: skip
    k.add_argument("--bucket-mb", help=f"DDP bucket cap in MiB (default {cap}; with --zero 1 or 2, DeepSpeed's "
                   "5e8 elements; with --zero 3, FSDP's unit: one transformer layer, a preset's or one estimated from "
                   f"--params, else {cap})")  # fmt: skip
    k.add_argument("--first-bucket-mb", help=f"DDP first bucket in MiB (default {first}; with --zero, --bucket-mb's)")
    k.add_argument("--no-overlap", action="store_true", help="all-reduce only after backward ends")
    k.add_argument(
        "--overlap-accumulation",
        action="store_true",
        help="with --grad-accum > 1, the all-reduce overlaps the last micro-batch's backward (DDP no_sync); "
        "default: it follows the accumulation, as DeepLearningExamples, Horovod and Megatron do",
    )
    k.add_argument(
        "--alpha-intra",
        help=f"µs per intra-node hop, or with its unit: 0.5ms (default: a --calibration file's, else the system's "
        f"link, PCIe 5.7; else {a_intra}, NCCL's NVLink figure)",
    )
    k.add_argument(
        "--alpha-inter", help=f"µs per network hop, or with its unit: 0.5ms (default {a_inter}, NCCL's figure)"
    )
    k.add_argument("--calibration", help="calib.json from `dpscale measure allreduce --out` (- reads standard input)")
    q = p.add_argument_group("questions")
    q.add_argument("--target-throughput", metavar="X", help="smallest size reaching this cluster samples/s (or --unit)")
    q.add_argument("--min-efficiency", metavar="E", help="largest size that keeps E at or above this")
    add_output_args(p)


def _names(kind: str) -> list[str]:
    from dpscale.catalog import table

    return sorted(table(kind))


def run(args: argparse.Namespace) -> int:
    if args.plot:
        from dpscale.faces.plot import check_path

        check_path(args.plot, inputs=(args.model_file, args.system_file, args.calibration))
    asked = _question(args)  # (before the prediction: bad input fails fast)
    dropped = _default_sizes(args)
    tokens = _tokens_unit(args)  # tokens a sample where --unit is tokens/s, else None (samples/s)
    pred = _predict(args, tokens)
    records = pred.records()
    if args.inter_bw is not None and rate_unit(args.inter_bw):  # its unit was written: no bits-for-bytes question
        _unit_written(pred)
    if tokens and args.throughput is not None:  # a rate typed in tokens/s past the peak: not 'samples/s, not tokens/s'
        _tokens_typed(pred)
    if tokens:  # the notes' rates in the table's unit: 'the measured 0.732422 samples/s' for 3,000 tokens/s
        _rates_in_tokens(pred, tokens)
    said = list(pred.notes)
    if asked:  # (a target in tokens/s is the samples/s the prediction counts in, × the tokens a sample)
        key, value = asked
        found = pred.devices_for(**{key: _per_sample(value, tokens) if key == "throughput" else value})
        said += pred.search_notes(found, key)  # a typed figure replacing a preset's own at a size searched (review MC)
    # (records carry tokens_per_sample: theirs)
    notes = _notes(args, said, records, pred.tokens_per_sample, bool(tokens), pred.model_entry, dropped)
    unit = "tokens/s" if tokens else "samples/s"
    if tokens:  # every rate in tokens/s, said in each row as calc's and plan's rows say a unit past samples/s
        records = [with_unit({k: v * tokens if k in RATES else v for k, v in r.items()}, unit) for r in records]
    cols = _columns(args.input_rate, records, unit if tokens else "")
    title = _title(args, pred.system, pred.model_entry["key"] if pred.model_entry else None)
    out: Any = records
    if asked:  # the answer: --json's object as fit's report names it, else a line after the table (CSV: stderr)
        if args.json:
            named = "min_efficiency" if key == "efficiency" else "target"
            from dpscale.sources.predict import BAND_LEVEL

            # (with the per-device rate and the band's level, as fit's report: plan --efficiency-file reads them)
            v = pred.per_device_throughput
            out = {"predictions": records, "per_device_throughput": v * tokens if tokens else v,
                   **({"unit": unit} if tokens else {}),  # (the document's rate and target are the rows' unit)
                   "confidence": BAND_LEVEL, f"devices_for_{key}": {named: value, **found}}  # fmt: skip
        else:
            notes = [_answer_line(key, value, found, args.lang, unit, args.global_batch is not None), *notes]
    emit(out, cols, args, title, notes)
    if args.plot:  # after the result is out: a plot that cannot be written loses nothing
        _plot(records, args.plot, args.lang, title, unit)
    return 0


def _default_sizes(args: argparse.Namespace) -> list[int]:
    """--devices where it was not typed: DEFAULT_DEVICES, less the sizes a --global-batch does not split into whole
    micro-batches (× --grad-accum), which are returned; `--global-batch 1024 --grad-accum 2` was refused for the
    default's 1,024 the user never typed (review KN). A typed size that does not split is refused, as is a default
    with none left (the refusal names the first)."""
    if args.devices is not None:
        return []
    args.devices = DEFAULT_DEVICES
    if args.global_batch is None:
        return []
    from dpscale.sources.predict import unsplit

    try:  # (bad text is refused by _predict, in its order)
        g, k = whole(args.global_batch, "--global-batch"), whole(args.grad_accum, "--grad-accum") or 1
    except DpscaleError:
        return []
    sizes = parse_devices(DEFAULT_DEVICES)
    bad = {int(x) for x in unsplit(g, k, sizes)} if g else set()
    if not bad or len(bad) == len(sizes):
        return []
    args.devices = ",".join(str(x) for x in sizes if x not in bad)
    return sorted(bad)


def _tokens_unit(args: argparse.Namespace) -> int | None:
    """--unit read as the other commands read it (check_unit: one line, no per-device part; 'Tokens/s' is tokens/s):
    None for samples/s, the tokens a sample for tokens/s — the sequence length predict's FLOPs and its tokens/s note
    use (sources.predict.sequence_tokens) — and refused for a model that has none (an image preset, --params without
    --seq-len) or any other unit, which predict has no factor for."""
    unit = check_unit(args.unit)
    if same_unit(unit, "samples/s"):
        return None
    if not same_unit(unit, "tokens/s"):
        raise fail("--unit", args.unit, UNITS_ALLOWED)
    from dpscale import catalog
    from dpscale.sources.efficiency_file import model_file
    from dpscale.sources.predict import sequence_tokens

    # (the model predict will read: a --model-file's entry where one is given, --model then naming one of its models)
    spec = model_file(args.model_file, args.model) if args.model_file else None
    spec = spec or (catalog.model(args.model) if args.model else None)
    tokens = sequence_tokens(spec, whole(args.seq_len, "--seq-len", hi=MAX_SEQ_LEN))
    if not tokens:
        raise fail("--unit", args.unit, NO_TOKENS)
    return int(tokens)


def _predict(args: argparse.Namespace, tokens: int | None = None) -> Prediction:
    """Every flag read and checked in the order written here (of several bad, the first is named), then run; a
    --throughput in tokens/s (`tokens` a sample) is the samples/s the library counts in, ÷ that."""
    from dpscale.sources.predict import (
        ALPHA_RANGE,
        BUCKET_MB,
        DEFAULT_PRECISION,
        GATHER_BYTES_ALLOWED,
        GRAD_BYTES_ALLOWED,
        INPUT_RATE_ALLOWED,
        MFU_ALLOWED,
        predict_flags,
    )
    from dpscale.sources.predict_inputs import BANDWIDTH

    mib = lambda text, flag: None if text is None else number(text, flag, BUCKET_MB[2])  # noqa: E731
    opt = lambda text, flag, what="a finite number > 0": None if text is None else positive(text, flag, what)  # noqa: E731
    inter = None if args.inter_bw is None else bandwidth(args.inter_bw, "--inter-bw", BANDWIDTH)
    return predict_flags(
        parse_devices(args.devices),
        params=opt(args.params, "--params", PARAMS_ALLOWED),
        model=args.model,
        model_file=args.model_file,
        precision=args.precision or DEFAULT_PRECISION,
        batch=whole(args.batch, "--batch"),
        grad_accum=whole(args.grad_accum, "--grad-accum"),
        global_batch=whole(args.global_batch, "--global-batch"),
        throughput=_throughput(args.throughput, tokens),
        step_time_s=opt(args.step_time, "--step-time", "seconds > 0"),
        baseline_devices=whole(args.baseline_devices, "--baseline-devices", hi=MAX_DEVICES),
        gpu=args.gpu,
        mfu=None if args.mfu is None else positive(args.mfu, "--mfu", MFU_ALLOWED, True),
        seq_len=whole(args.seq_len, "--seq-len", hi=MAX_SEQ_LEN),  # the library's bound, said of 0 too
        system=args.system,
        system_file=args.system_file,
        gpus_per_node=whole(args.gpus_per_node, "--gpus-per-node", hi=MAX_DEVICES),
        intra_bw_gbs=None if args.intra_bw is None else bandwidth(args.intra_bw, "--intra-bw", BANDWIDTH),
        inter_bw_gbs=inter,
        inter_link=_ethernet(args.inter_bw, inter),
        grad_bytes_per_param=opt(args.grad_bytes, "--grad-bytes", GRAD_BYTES_ALLOWED),
        gather_bytes_per_param=opt(args.gather_bytes, "--gather-bytes", GATHER_BYTES_ALLOWED),
        bucket_mb=mib(args.bucket_mb, "--bucket-mb"),  # its range: sources.predict's check
        first_bucket_mb=mib(args.first_bucket_mb, "--first-bucket-mb"),
        overlap=not args.no_overlap,
        overlap_accumulation=args.overlap_accumulation,
        algorithm=args.algorithm,
        calibration=args.calibration,
        alpha_intra_us=None if args.alpha_intra is None else latency(args.alpha_intra, "--alpha-intra", ALPHA_RANGE),
        alpha_inter_us=None if args.alpha_inter is None else latency(args.alpha_inter, "--alpha-inter", ALPHA_RANGE),
        zero=int(args.zero),
        input_rate=opt(args.input_rate, "--input-rate", INPUT_RATE_ALLOWED),
    )


def _throughput(typed: str | None, tokens: int | None) -> float | None:
    """--throughput as the samples/s the library counts in: as typed, or a rate in tokens/s (`tokens` a sample) ÷
    that — refused in tokens/s where the quotient is past the library's bounds (it named 1.220703125e-304 samples/s
    for a typed 1e-300), with the typed text and the bounds × the tokens a sample."""
    from dpscale.sources.predict import RATE, THROUGHPUT_ALLOWED

    if typed is None:
        return None
    if not tokens:
        return positive(typed, "--throughput", THROUGHPUT_ALLOWED)
    allowed = f"{THROUGHPUT_TOKENS_ALLOWED}{RATE[0] * tokens:g} – {RATE[1] * tokens:g}"
    rate = positive(typed, "--throughput", allowed) / tokens
    if not RATE[0] <= rate <= RATE[1]:  # (the library's own test, on the quotient it is given)
        raise fail("--throughput", typed, allowed)
    return rate


def _per_sample(rate: float | None, tokens: int | None) -> float | None:
    """A rate typed in tokens/s (`tokens` a sample) as the samples/s the library counts in; samples/s as typed."""
    return rate / tokens if rate is not None and tokens else rate


def _question(args: argparse.Namespace) -> tuple[str, float] | None:
    """--min-efficiency or --target-throughput, read as devices_for's ("efficiency", E) or ("throughput", X)."""
    if args.min_efficiency is not None and args.target_throughput is not None:
        raise DpscaleError("--min-efficiency and --target-throughput: give one of them, not both")
    if args.min_efficiency is not None:
        return "efficiency", min_efficiency(args.min_efficiency)
    if args.target_throughput is not None:
        return "throughput", positive(args.target_throughput, "--target-throughput")
    return None


def _answer_line(
    key: str, value: float, found: dict[str, Any], lang: str, unit: str = "samples/s", split: bool = False
) -> str:
    """'largest size with E ≥ 75.0 %: 64 (of sizes up to one node, then whole nodes)', 'devices for 1,000,000
    samples/s: ∞ (unreachable)': fit's wording, with the sizes predict searched (`split`: under a global batch, the
    sizes it splits over)."""
    import math

    from dpscale.faces.i18n import label, unit_label
    from dpscale.faces.i18n import number as fmt

    cap = fmt(found["search_cap"], "int", lang)
    if key == "efficiency":
        head = label("fit_min_eff", lang).format(e=fmt(value, "pct", lang))
        beyond = label("fit_never_below", lang).format(cap=cap)
    else:
        head = label("fit_devices_for", lang).format(target=fmt(value, "rate", lang), unit=unit_label(unit, lang))
        unreachable = found["reason"] == "unreachable"
        beyond = label("fit_unreachable" if unreachable else "predict_not_reached", lang).format(cap=cap)
    if math.isinf(found["devices"]):
        return f"{head} ∞{beyond}"
    searched = label("predict_split_sizes" if split else "predict_whole_nodes", lang)
    return f"{head} {fmt(found['devices'], 'int', lang)}{searched}"


def _unit_written(pred: Prediction) -> None:
    """A --inter-bw typed with its unit means what it says: its notes ask no bits-for-bytes question."""
    from dpscale.notes import Note

    low = [i for i, n in enumerate(pred.notes) if getattr(n, "key", "") == "unchecked_inter_low"]
    for i in low:
        pred.notes[i] = Note("unchecked_inter", **pred.notes[i].fields)  # type: ignore[attr-defined]
    # nor an '8× the preset's' one: '12800Gb/s' (1,600 GB/s) was told to type '--inter-bw 1600Gb/s'
    pred.notes = [n for n in pred.notes if getattr(n, "key", "") != "inter_bits_as_bytes"]


def _tokens_typed(pred: Prediction) -> None:
    """A --throughput typed in tokens/s whose FLOP rate is past the GPU's peak: its note does not ask for the unit
    that was typed ('samples/s, not tokens/s') but for what is left, a cluster's rate or another model."""
    from dpscale.notes import Note

    pred.notes = [Note("beyond_peak_tokens", **n.fields) if getattr(n, "key", "") == "beyond_peak" else n  # type: ignore[attr-defined]
                  for n in pred.notes]  # fmt: skip


def _rates_in_tokens(pred: Prediction, tokens: int) -> None:
    """The notes that state a rate, in tokens/s (--unit, `tokens` a sample): one device's inferred rate, and the
    measured MFU as FLOPs a token (a sequence's over its tokens) × the measured tokens/s a device — the same product,
    the share unchanged (review JN: 3,000 tokens/s typed was said 'the measured 0.732422 samples/s')."""
    from dpscale.notes import Note

    def said(n: Any) -> Any:
        key = getattr(n, "key", "")
        if key == "one_device_inferred":
            return Note(f"{key}_tokens", **{**n.fields, "v": n.fields["v"] * tokens})
        if key.startswith("measured_mfu"):
            return Note(
                f"{key}_tokens", **{**n.fields, "gflop": n.fields["gflop"] / tokens, "v": n.fields["v"] * tokens}
            )
        return n

    pred.notes = [said(n) for n in pred.notes]


def _notes(args: argparse.Namespace, said: list[str], records: list[dict[str, Any]], seq: int | None,
           in_tokens: bool = False, model: dict[str, Any] | None = None, dropped: list[int] | None = None,
           ) -> list[str]:  # fmt: skip
    """The library's notes and the face's own — the defaults the user may not know were taken (`dropped`: default
    sizes a global batch does not split), tokens/s (`seq` tokens a sample; `in_tokens`: the table is in tokens/s, and
    its units note says the factor), the units, the band, the wait — in NOTE_RANK's order."""
    from dpscale.faces.i18n import label, listed
    from dpscale.faces.i18n import number as fmt
    from dpscale.sources.predict import DEFAULT_BATCH

    keyed = [(getattr(n, "key", ""), n) for n in said]
    if dropped:
        sizes = listed([fmt(x, "int", args.lang) for x in dropped], args.lang)
        text = label("predict_sizes_dropped", args.lang).format(
            default=DEFAULT_DEVICES,
            sizes=sizes,
            g=fmt(whole(args.global_batch, "--global-batch"), "int", args.lang),
            k=fmt(whole(args.grad_accum, "--grad-accum") or 1, "int", args.lang),
        )
        keyed.append(("predict_sizes_dropped", text))
    # the units: tokens/s where the rates are, with the factor (no note then multiplies by it), else samples/s
    units = label("predict_units_note", args.lang)
    if in_tokens:
        units = label("predict_units_tokens_note", args.lang).format(s=fmt(seq or 0, "int", args.lang))
    keyed += [("predict_units_note", units), ("band_note", label("band_note", args.lang))]
    if args.model_file and model is not None:  # a Hugging Face config's count and sequence, derived
        from dpscale.faces.cli.common import derived_note

        keyed += [("model_hf_derived", n) for n in derived_note(model, args.model_file, args.lang, seq)]
    if args.precision is None and not (args.throughput or args.step_time):  # the peak the estimate reads: fp32's
        # is 1/15 of an H100's bf16 (memory's default is mixed precision): say which was taken
        keyed.append(("predict_precision_default", label("predict_precision_default", args.lang)))
    if args.batch is args.global_batch is None and (args.throughput or args.step_time):  # measured at this batch?
        keyed.append(("predict_batch_default", label("predict_batch_default", args.lang).format(b=DEFAULT_BATCH)))
    if seq and not in_tokens:  # a language model's rate is read in tokens/s: the factor, beside the table's samples/s
        # with the figure asked for at the largest size: the table's 22.01 samples/s left the product to the reader
        top = max(records, key=lambda r: r["devices"])
        tokens = fmt(top["actual_throughput"] * seq, "rate", args.lang)
        text = label("predict_tokens_note", args.lang).format(s=fmt(seq, "int", args.lang), t=tokens,
                                                               d=fmt(top["devices"], "int", args.lang))  # fmt: skip
        keyed.append(("predict_tokens_note", text))
    if any(r["bottleneck"] == "synchronisation wait" for r in records):
        keyed.append(("wait_note", label("wait_note", args.lang)))
    return [n for _, n in sorted(keyed, key=lambda kn: NOTE_RANK.get(kn[0], MADE))]  # (stable: a rank keeps order)


def _columns(input_rate: str | None, records: list[dict[str, Any]], unit: str = "") -> list[Column]:
    """The table's columns: the input stall only where an input rate was given, E vs d0 only where d0 > 1; a
    `unit` past samples/s (tokens/s) labels the throughput, said under the table as calc's and plan's are."""
    cols = COLUMNS if input_rate is None else [*COLUMNS[:10], Column("input_stall_s", "ms"), *COLUMNS[10:]]
    if unit:
        cols = [c._replace(unit=unit) if c.key == "actual_throughput" else c for c in cols]
    if "efficiency_vs_baseline" in records[0]:  # a measured baseline of d0 > 1: E as its table would give it
        cols = [*cols[:4], Column("efficiency_vs_baseline", "fixed3"), *cols[4:]]
    if "per_device_batch" in records[0]:  # a global batch: each size's share of it
        cols = [cols[0], Column("per_device_batch", "int"), *cols[1:]]
    return cols


def _plot(records: list[dict[str, Any]], path: str, lang: str, title: str, unit: str = "samples/s") -> None:
    """E(d) and throughput drawn with the band the table's lo and hi columns give."""
    from dpscale.faces.i18n import label
    from dpscale.faces.plot import plot_scaling

    keys = {"actual_lo": "actual_throughput_lo", "actual_hi": "actual_throughput_hi"}
    band = {k: [r[keys.get(k, k)] for r in records] for k in (*keys, "efficiency_lo", "efficiency_hi")}
    plot_scaling(records, path, lang, title, unit, band=band, band_label=label("plot_band_predict", lang))


def _ethernet(typed: str | None, gbs: float | None) -> str | None:
    """'eth-400g' for a network typed in GbE (400GbE, 4e2GbE; `gbs` its GB/s as read): its unit says Ethernet,
    which predict's note cares about. The name gives the node's total, where the catalog's eth-100g names one NIC
    of aws-p4d's four."""
    if typed is None or gbs is None or not (unit := rate_unit(typed)) or unit[1] != "GbE":
        return None
    gbits = format(gbs * 8, "f").rstrip("0").rstrip(".")  # 8e6GbE: no exponent
    return f"eth-{gbits}g"


def _title(args: argparse.Namespace, system: str, model: str | None = None) -> str:
    """What was predicted, for the table and the plot: 'dpscale predict: bert-large, amp, batch 32, dgx-a100'."""
    from dpscale.faces.i18n import count_said, label
    from dpscale.faces.i18n import number as fmt
    from dpscale.sources.predict import DEFAULT_BATCH, DEFAULT_PRECISION

    # 1,3e+09 in Spanish (the count was checked before the prediction ran)
    if args.model_file:  # the model's name in its file, as a system file's: 'llama-7b (models.json)'; a bare one's
        from dpscale.files import is_stdin, shown_name

        file = label("stdin_name", args.lang) if is_stdin(args.model_file) else shown_name(args.model_file)
        what = file if model == shown_name(args.model_file) else f"{model} ({file})"
    else:
        what = args.model or label("plot_params", args.lang).format(n=count_said(float(args.params), args.lang))
    # the counts as read, not as typed: '2.000' was a batch of 2 titled 'batch 2.000' (checked before the run)
    gpn = (
        None
        if args.gpus_per_node is None
        else fmt(whole(args.gpus_per_node, "--gpus-per-node", hi=MAX_DEVICES), "int", args.lang)
    )
    where = args.system or label("plot_per_node", args.lang).format(g=gpn)
    if args.system_file:  # the system's name in its file ('mine (cluster.json)'); a bare entry is the file's
        from pathlib import Path

        from dpscale.files import is_stdin

        file = label("stdin_name", args.lang) if is_stdin(args.system_file) else Path(args.system_file).name
        where = file if system == "custom" and args.system is None else f"{system} ({file})"
    key, b = ("plot_global_batch", args.global_batch) if args.global_batch else ("plot_batch", args.batch)
    batch = label(key, args.lang).format(b=fmt(whole(b, "--batch", default=DEFAULT_BATCH), "int", args.lang))
    return f"dpscale predict: {what}, {args.precision or DEFAULT_PRECISION}, {batch}, {where}"
