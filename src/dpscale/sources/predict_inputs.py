"""What a prediction is made from: the precision and what it implies (gradient bytes, a FLOPs estimate's MFU), the
cluster (a system preset or file, raw figures over it) and the step model's constants (shipped, or a measured
all-reduce calibration). sources.predict resolves a request through these and evaluates the step model; validate
reads published rows through the same ones, so a table and a command line are predicted alike.
"""

from __future__ import annotations

import json
import re
from collections import namedtuple
from typing import Any

import numpy as np

from dpscale import catalog
from dpscale.errors import MAX_DEVICES, DpscaleError, check_devices, check_range, fail, one
from dpscale.files import json_quoted, loads_once, not_json, read_text, shown
from dpscale.formulas.collectives import nics_near
from dpscale.formulas.stepmodel import DEFAULT, DEFAULT_HBM_TBS, Calibration
from dpscale.formulas.units import DTYPE_NAMES, without_module
from dpscale.outputs import OTHER_OUTPUT, output_of, second_document

# Bytes per gradient element all-reduced, by what --precision names. "amp" is mixed precision with fp32
# weights (torch.autocast in fp16 or bf16, apex O1, TF/MXNet AMP): the gradients DDP reduces are fp32. "fp16"
# and "bf16" name a model held in 16 bits (apex O2, DeepSpeed fp16, model.to(torch.bfloat16)): 16-bit
# gradients. Megatron-LM's --bf16 accumulates and all-reduces in fp32 (accumulate_allreduce_grads_in_fp32): pick
# amp for it, or override with grad_bytes. A *published* table's "FP16"/"BF16" label usually means the first
# kind, so predict_validate.grad_bytes_per_param reads such labels as amp — the same table, another reader.
# fp8 (Transformer Engine): the GEMMs at the fp8 peak, weights bf16, gradients accumulated and all-reduced in
# fp32 — Megatron-LM runs fp8 on top of --bf16, whose arguments.py sets accumulate_allreduce_grads_in_fp32
# ("bfloat16 requires gradient accumulation and all-reduce to be done in fp32"); --grad-bytes 2 for a bf16
# reduction (--grad-reduce-in-bf16)
GRAD_BYTES = {"fp32": 4, "tf32": 4, "amp": 4, "fp16": 2, "bf16": 2, "fp8": 4}
PRECISIONS = tuple(GRAD_BYTES)
# Bytes per weight that ZeRO/FSDP all-gathers: the gradients' except under fp8, whose weights are bf16
WEIGHT_BYTES = {**GRAD_BYTES, "fp8": 2}
DEFAULT_MFU = 0.35  # typical achieved MFU: 21–56 % in the PaLM/Megatron tables (physics.md §3)
# fp8 training runs 1.25× (Llama 3 8B on 8 H100s) to 1.5× (405B on 512) as fast as bf16 end to end, not the
# 2× of its peak (the scaling casts, the GEMMs that stay bf16; pytorch/ao torchao/float8/README.md, torchtitan
# runs): its default MFU is the bf16 one times the middle of that gain, over the fp8 peak's ratio to bf16's.
FP8_GAIN = (1.25, 1.5)

# What published ResNet-50 runs reach of the GPU's peak (DeepLearningExamples rows in the dev and validation sets;
# tests/test_calibration.py recomputes both ranges): tensor cores (TF32, AMP on V100/A100) and V100's fp32 cores.
CNN_MFU_TENSOR = (0.14, 0.29)
CNN_MFU_FP32 = (0.57, 0.68)
# Outside those generations the one published CNN measurement on a GPU newer than Ampere (review LT): Lambda's
# deeplearning-benchmark ResNet-50 on one H100 SXM5 and, in the same table, one A100 80 GB SXM4 (images/s;
# validation/holdout_more9.csv, which tests/test_calibration.py reads them from). predict's CNN note says them where the
# GPU is of no generation the calibration had: nothing here changes a prediction.
HOPPER_RESNET50 = {"amp": 2616.0, "fp32": 1753.0, "a100_amp": 1582.0}
# EfficientNet's own published one-GPU runs (B0 and B4, DeepLearningExamples' rows in validation/, on V100 and A100;
# tests/test_calibration.py recomputes both ranges): far below ResNet-50's shares, its depthwise convolutions doing
# few FLOPs a byte. predict's CNN note says them for an EfficientNet preset (review LT); no prediction uses them.
EFFICIENTNET_TENSOR = (0.016, 0.045)
EFFICIENTNET_FP32 = (0.095, 0.139)


def default_mfu(spec: dict[str, Any] | None, prec: str, part: dict[str, Any] | None = None) -> float:
    """The MFU a FLOPs estimate assumes when none is given: a CNN preset's is the middle of what published
    ResNet-50 runs reach on that kind of peak (tensor cores 21.5 %, V100's fp32 cores 62.5 %: 0.35 made ResNet-50
    AMP on an A100 4,451 images/s where DeepLearningExamples measured 2,470–2,897); fp8 the bf16 figure times its
    published end-to-end gain (FP8_GAIN); else DEFAULT_MFU."""
    if prec == "fp8":  # the bf16 share (a CNN's tensor-core one) times fp8's end-to-end gain, over its peak
        return default_mfu(spec, "bf16", part) * sum(FP8_GAIN) / 2 / fp8_peak_ratio(part)
    if spec is not None and spec.get("kind") == "cnn":
        return sum(CNN_MFU_FP32 if vector_peak(part, prec) else CNN_MFU_TENSOR) / 2
    return DEFAULT_MFU


def fp8_peak_ratio(part: dict[str, Any] | None) -> float:
    """The GPU's fp8 peak over its bf16 one (2.00–2.02 on every catalog GPU that has both: L40S 2.02; 2 unknown)."""
    peaks = part["peak_tflops"] if part else {}
    return peaks["fp8"] / peaks["bf16"] if "fp8" in peaks and "bf16" in peaks else 2.0


def vector_peak(part: dict[str, Any] | None, prec: str) -> bool:
    """Whether the GPU's peak at this precision is its NVIDIA fp32 cores' (what CNN_MFU_FP32 was measured on):
    fp32 itself, and a precision the catalog gives the fp32 figure (V100's tf32 runs as fp32), or any on Pascal
    (no tensor cores: its fp16 is the vector rate doubled). AMD's fp32 figure is its matrix cores', and TPUs have
    no other: their peaks count as tensor ones."""
    if part is None:
        return prec == "fp32"
    arch, peaks = part.get("arch", ""), part["peak_tflops"]
    if arch == "pascal":
        return True
    return arch in ("volta", "ampere", "ada", "hopper", "blackwell") and peaks.get(prec) == peaks.get("fp32")


# Bounds that keep a link's figure finite, far outside any real link (typos, not hardware, go past them)
BANDWIDTH = (1e-3, 1e6, "a bandwidth in GB/s, from 0.001 to 1,000,000")
CALIBRATION = "JSON with numbers busbw_gbs and alpha_s"  # what --calibration takes, as its refusals say it


Cluster = namedtuple(
    "Cluster",
    (
        "name",
        "gpus_per_node",
        "intra_bw_gbs",
        "inter_bw_gbs",
        "gpu",
        "cpu_cores",
        "intra_link",
        "intra_by_gpus",
        "inter_link",
        "overrides",  # (field, typed, the preset's own) for each raw figure that replaced a preset's or file's
        "nics_reached",  # (NICs, of the node's, its GPUs) where part of each node reaches fewer (None: unknown)
        "nics",  # the preset's or system file's compute NICs a node that the run's GPUs reach (None: not stated)
        "inter_own",  # the network the preset or file itself gives this run (its share at a --gpus-per-node)
        "node_nics",  # (NICs, GPUs) of the whole node where the run takes part of it and the NICs are known, else None
        "intra_own",  # {GPUs: GB/s}: the run's own in-node figure by count where a mesh's table sets it, else None
    ),
    defaults=(None, None, (), None, None, None, None, None),
)


# What a run on g of each node's G GPUs has of the node (node_share): the link among those g GPUs (GB/s), the
# network their NICs reach (GB/s), the cube-mesh table below g, and (NICs reached, the node's NICs) where the node
# states its NICs (else None). cluster() fills one from a whole node's own figures, nics None.
NodeShare = namedtuple("NodeShare", ("intra_bw_gbs", "inter_bw_gbs", "by_gpus", "nics"), defaults=(None,))


NEGATIONS = ("no", "not", "without", "non")  # a word after one of these is not said ('fp32 (no tf32)')
SWITCHED_OFF = ("off", "disabled", "false")  # nor one that one of these follows ('amp off', 'fp16_allreduce=False')


def normalise_precision(label: str, flag: str = "--precision", one: bool = False) -> str:
    """Map labels as published ('AMP (mixed FP16)', 'TF32 + XLA', 'BF16') to a precision key, word by word: a
    substring read 'clamp' as amp; a word after no/not/without is not read ('fp32 (no tf32)' is fp32). `one`: a
    label naming two number formats ('fp32 fp16', 'fp32 or tf32') is refused rather than read as the first listed
    ('fp16 (half)' names one; fp8's and mixed precision's labels name the formats they mix, and are fp8 and amp); a
    published row's label is read leniently, as its table printed it. 'autocast' is amp's, whatever format it names
    ('bf16 autocast': torch.autocast keeps the weights and gradients fp32, as --precision's help says)."""
    text = str(label).strip().lower()
    if text in GRAD_BYTES:
        return text
    # a dotted name is read by its last part, so a negation before it stands before that word: 'fp32, no
    # torch.autocast' is fp32 ('torch' once stood between 'no' and 'autocast', and the label was read as amp)
    words = re.findall(r"[a-z0-9]+", without_module(text))
    words = [DTYPE_NAMES.get(w, w) for w in words]  # torch's names: 'bfloat16' is bf16, 'torch.float32' fp32
    # a word a negation stands before is not said ('fp32 (no tf32)', 'fp32, no amp'): it once named that format;
    # nor one a switch-off follows ('fp32, amp off', 'fp32 (autocast disabled)')
    said = {
        w
        for i, w in enumerate(words)
        if not (i and words[i - 1] in NEGATIONS) and not (i + 1 < len(words) and words[i + 1] in SWITCHED_OFF)
    }
    formats = sorted(
        {"fp16" if w == "half" else w for w in said.intersection(("fp32", "tf32", "fp16", "half", "bf16"))}
    )
    # (a mixed-precision label names both of its formats, 'mixed fp16/fp32': amp, as its lenient reading says)
    if one and len(formats) > 1 and not said.intersection(("fp8", "amp", "mixed", "autocast")):
        raise fail(flag, label, f"one precision, not two ({', '.join(formats)}): {', '.join(PRECISIONS)}")
    words_of = (
        ("fp8", ("fp8",)),
        ("amp", ("amp", "mixed", "autocast")),  # torch.autocast keeps fp32 gradients ('bf16 autocast': --help's amp)
        ("bf16", ("bf16",)),
        ("fp16", ("fp16", "half")),
        ("tf32", ("tf32",)),
        ("fp32", ("fp32",)),
    )  # fmt: skip  ('FP8 mixed precision' is fp8)
    for key, names in words_of:
        if said.intersection(names):
            return key
    raise fail(flag, label, ", ".join(PRECISIONS))


def cluster(
    system: str | None = None,
    system_file: str | None = None,
    gpus_per_node: int | None = None,
    intra_bw_gbs: float | None = None,
    inter_bw_gbs: float | None = None,
    gpu: str | None = None,
    inter_link: str | None = None,
    largest: int | None = None,
) -> Cluster:
    """A system preset or file, with raw figures overriding its fields; `gpu` picks among systems one name
    covers ('DGX-1': P100 or V100); `inter_link` the network's kind, where the figure typed says it (25GbE);
    `largest` the most devices the run reaches (its sizes and baseline): within one node no network is crossed,
    so none need be typed, as validate's `fabric` takes a single-node table without one."""
    base: dict[str, Any] = {}
    if system_file is not None:  # (`if system_file:` skipped '', 0, False and [] unread, and an array raised numpy's
        # ambiguity error; each is refused by the reader as 1 and True are: review MU)
        base = _system_file(system_file, system, gpu)
    elif system:
        base = catalog.system(system, gpu=gpu)
    g = gpus_per_node if gpus_per_node is not None else base.get("gpus_per_node")
    share = node_share(base, gpus_per_node)  # None unless the run takes g of each node's G GPUs
    own = share or NodeShare(base.get("intra_bw_gbs"), base.get("inter_bw_gbs"), base.get("intra_bw_gbs_by_gpus"))
    intra = intra_bw_gbs if intra_bw_gbs is not None else own.intra_bw_gbs
    inter = inter_bw_gbs if inter_bw_gbs is not None else own.inter_bw_gbs
    if g == 1 and intra is None:  # one device a node: no intra-node link to describe
        intra = inter
    if inter is None and largest is not None and g is not None and largest <= g:  # one node: no network crossed
        inter = intra  # (a stand-in no term reads: k = 1 zeroes the network's, and its notes ask for d > g)
    missing = [f for f, v in (("--gpus-per-node", g), ("--intra-bw", intra), ("--inter-bw", inter)) if v is None]
    if missing:  # with no system named, the names it could take (a first run types none of the three figures)
        names = "" if system or system_file else f" ({', '.join(sorted(catalog.table('systems')))})"
        raise DpscaleError(
            f"{', '.join(missing)}: missing; allowed: give --system NAME{names} or the raw cluster figures"
        )
    assert g is not None and intra is not None and inter is not None  # none missing: said above
    # a figure from the file is named as the file's field: '--gpus-per-node: got 10^30' blamed a flag never typed;
    # each of the file's fields with the file and system, as the file's reader names them ('…: system 'c': nics 0.5')
    said = shown(system_file) if system_file else ""  # ('-': standard input)
    where = f"--system-file: {said}: system {base.get('key', 'custom')!r}" if system_file else "--system-file"
    src = lambda flag, key, typed: flag if typed is not None else f"{where}: {key}" if system_file else flag  # noqa: E731
    check_devices(g, src("--gpus-per-node", "gpus_per_node", gpus_per_node), MAX_DEVICES)
    check_range(intra, src("--intra-bw", "intra_bw_gbs", intra_bw_gbs), *BANDWIDTH)
    check_range(inter, src("--inter-bw", "inter_bw_gbs", inter_bw_gbs), *BANDWIDTH)
    cores = base.get("cpu_cores")
    if cores is not None and (isinstance(cores, bool) or not isinstance(cores, int) or not 1 <= cores <= 1e6):
        # (errors.fail's form, so --lang es says it: it was English whatever the language)
        raise fail(f"{where}: cpu_cores", cores, "the host's CPU cores, a whole number from 1 to 1,000,000")
    link = base.get("intra_link")
    links = catalog.table("links")
    if link is not None and (not isinstance(link, str) or link not in links):  # 'pcie-4' took NVLink's hop silently
        raise DpscaleError(
            f"{where}: intra_link {link!r}; allowed: one of the catalog's links ({', '.join(links)}), or no intra_link"
        )
    # A cube-mesh's figure for runs on fewer of its GPUs; only with the node's own link and a node of its size or
    # less (a raw --intra-bw, or a --gpus-per-node above the node's, describes another node, which the table does not)
    mesh = bool(share) or gpus_per_node in (None, base.get("gpus_per_node"))
    by = own.by_gpus if intra_bw_gbs is None and mesh else None
    # a typed --inter-bw keeps the system's network kind (an EFA instance at another rate is still EFA) unless
    # its unit names one; a raw cluster's is unknown
    net = inter_link if inter_link is not None else base.get("inter_link")
    if net is not None and not isinstance(net, str):  # 5 was ignored where a bad intra_link is refused
        raise fail("inter_link" if inter_link is not None else f"{where}: inter_link", net, "a network's name")
    # by the system's field names, in its units (GB/s): a flag typed 25Gb/s is 3.125 here, not a value to retype
    figures = (("gpus_per_node", gpus_per_node), ("intra_bw_gbs", intra), ("inter_bw_gbs", inter))
    overrides = tuple((k, x, base[k]) for k, x in figures if x is not None and base.get(k) not in (None, x))
    # said where the network figure is the share, not a typed one, and it changed it (or the NICs are unknown)
    reached = None
    if share and inter_bw_gbs is None:
        used, nics = share.nics or (None, None)
        reached = None if used is not None and used >= nics else (used, nics, base["gpus_per_node"])
    nics = nics_reached(base, share)
    return Cluster(base.get("key", "custom"), int(g), float(intra), float(inter), base.get("gpu"), cores, link,
                   _by_gpus(by, int(g), f"{where}: intra_bw_gbs_by_gpus"), net, overrides, reached, nics,
                   own.inter_bw_gbs, whole_node(base, share), _mesh_own(own, mesh, int(g)))  # fmt: skip


def _mesh_own(own: NodeShare, mesh: bool, g: int) -> dict[int, float] | None:
    """{GPUs: GB/s} a run on a mesh's node reads at each count from 2 to g without a typed --intra-bw (its table
    below g, its link at g: DGX-1 V100 25 / 50 / 100 / 15.75 / 50 / 100 / 150 at 2–8), which one typed replaces
    for every count (predict says so: intra_table_replaced); None on a switch, or a node the table does not
    describe. (A system file's table unread under a typed --intra-bw is not refused for a note: None.)"""
    if not mesh or own.by_gpus is None or own.intra_bw_gbs is None or g < 2:
        return None
    try:
        table = _by_gpus(own.by_gpus, g)
    except DpscaleError:
        return None
    # by count, whatever order a system file wrote its table in ('7 / 2 / 4 / 5 / 8 GPUs' was said so, review LX)
    return {**dict(sorted((table or {}).items())), g: float(own.intra_bw_gbs)}


def node_share(base: dict[str, Any], g: Any) -> NodeShare | None:
    """A system's NodeShare when a run takes g of each node's G GPUs (g < G); None otherwise. NCCL's rings take
    GPUs 0..g−1, so a cube-mesh's link is its table's figure at g (DGX-1 at 4: 100, not 150) and the table below
    it; NCCL pairs each GPU with the NIC nearest it (a DGX-1 hangs one EDR NIC under each pair of GPUs
    [PT-DDPBENCH]; a DGX A100 one HDR NIC a GPU), so the network is the ⌈nics·g/G⌉ of its nics those GPUs reach
    (one A100 was charged all eight, 200 GB/s through its 32 GB/s PCIe link). predict's --gpus-per-node and a
    published table's gpus_per_node read a preset alike."""
    whole = base.get("gpus_per_node")
    if isinstance(g, bool) or not isinstance(g, (int, float)) or not isinstance(whole, int) or not 1 <= g < whole:
        return None
    intra, inter, by = base.get("intra_bw_gbs"), base.get("inter_bw_gbs"), base.get("intra_bw_gbs_by_gpus")
    if by is not None:
        table = _by_gpus(by, whole)
        assert table is not None  # by is not None
        intra, by = table.get(int(g), intra), {str(n): v for n, v in table.items() if n < g}
    nics, reached = base.get("nics"), None
    if isinstance(nics, int) and not isinstance(nics, bool) and nics > 0 and isinstance(inter, (int, float)):
        reached = (int(nics_near(g, nics, whole)), nics)
        inter = inter * reached[0] / nics
    return NodeShare(intra, inter, by, reached)


def nics_reached(base: dict[str, Any], share: NodeShare | None) -> Any:
    """The NICs a run's GPUs reach, which a ragged last node's network is a share of: node_share's (4 of a DGX A100's 8
    GPUs reach 4), else the node's (a system file's `nics` is checked, and made an int, where the file is read); None
    where the system names none. predict's cluster and validate's tables count them alike."""
    return share.nics[0] if share and share.nics else base.get("nics")


def whole_node(base: dict[str, Any], share: NodeShare | None) -> tuple[int, int] | None:
    """(NICs, GPUs) of the whole node where a run takes g of its GPUs and its NICs are known (node_share), else None:
    a ragged last node's r GPUs are GPUs 0..r−1 of it and reach ⌈NICs·r/GPUs⌉ of them
    (stepmodel.ragged_network_share), not a share of the ⌈NICs·g/GPUs⌉ that g reach."""
    return (share.nics[1], base["gpus_per_node"]) if share and share.nics else None


# The network's kind by the words of its name: what the notes read (the calibration's multi-node runs were all
# InfiniBand). Whole words, so 'default' or 'processor' name no EFA or RoCE.
ETHERNET_NAMES = (
    r"(^|[^a-z])(eth(ernet)?|roce|efa|gige|gbe)(v?\d+)?([^a-z]|$)|\d\s*g(b|ig)e"  # eth-400g, RoCEv2, 100GbE
)
INFINIBAND_NAMES = r"(^|[^a-z])(ib|ipoib|infiniband|[efhnqx]dr)([^a-z]|$)"  # ib-ndr, HDR InfiniBand, NDR, IPoIB


def network_kind(link: Any) -> str | None:
    """'ethernet' or 'infiniband' by what the name says ('eth-400g', 'RoCEv2', 'EFA', '100GbE', 'ib-ndr', 'HDR');
    None for neither ('Omni-Path', 'zzz') or both ('RoCE or IB'), which a note then says is predicted as InfiniBand."""
    if not isinstance(link, str):
        return None
    name = link.lower()
    kinds = {
        k for k, words in (("ethernet", ETHERNET_NAMES), ("infiniband", INFINIBAND_NAMES)) if re.search(words, name)
    }
    return kinds.pop() if len(kinds) == 1 else None


BY_GPUS = 'an object {"2": 25, "4": 100}: GPU counts below gpus_per_node, GB/s per GPU per direction'


def _by_gpus(table: Any, g: int, flag: str = "--system-file: intra_bw_gbs_by_gpus") -> dict[int, float] | None:
    """A system's intra_bw_gbs_by_gpus, checked: whole GPU counts below the node's size, bandwidths in range."""
    if table is None:
        return None
    if not isinstance(table, dict):
        raise fail(flag, table, BY_GPUS)
    out = {}
    for n, v in table.items():
        if not (isinstance(n, str) and n.isascii() and n.isdecimal() and 2 <= int(n) < g):  # ('²'.isdigit())
            raise fail(flag, n, BY_GPUS)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not BANDWIDTH[0] <= v <= BANDWIDTH[1]:
            raise fail(flag, v, BY_GPUS)
        out[int(n)] = float(v)
    return out


def _system_file(path: str, system: str | None, gpu: str | None) -> dict[str, Any]:
    """catalog.load_system_file, its refusal of another command's output naming what it is and which command reads
    it: calc's, fit's or a calibration's JSON said "system 'custom' needs numbers > 0 … for gpus_per_node, …",
    predict's "allowed: an object {'systems': …}" and `measure --out`'s runs 'line 2: not JSON (Extra data)' (review
    ML)."""
    try:
        return catalog.load_system_file(path, system, gpu=gpu)
    except DpscaleError:
        from dpscale.sources.efficiency_file import other_output

        other = other_output(path, "systems")
        if other in (None, "system"):  # a system file of its own format: its own refusal
            raise
        raise DpscaleError(
            f"--system-file: {shown(path)}: {OTHER_OUTPUT[other]}; allowed: a JSON file as systems.json"
        ) from None


def _real(x: Any) -> float:
    """A JSON number as a float; true/false or text raise TypeError (the caller's one-line error)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(x)
    return float(x)


def calibration_origin(path: str) -> tuple[str, str, int | None, int | None]:
    """(backend, device, ranks in one node, nodes) a `measure allreduce` file says it was measured with: '' and None
    for what it does not say (a file written by hand; load_calibration has read it first and named any fault)."""
    try:
        data = json.loads(read_text(path))
    except (OSError, ValueError, RecursionError):
        data = None
    data = data if isinstance(data, dict) else {}
    backend, device = (str(v).lower() if isinstance(v, str) else "" for v in (data.get("backend"), data.get("device")))
    ranks, nodes = data.get("devices"), data.get("nodes", 1)
    whole = [isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in (ranks, nodes)]
    per_node = ranks // nodes if all(whole) else None  # (measure's ranks are nodes × a node's)
    return backend, device, per_node, (nodes if whole[1] and "nodes" in data else None)


AS_MEASURED = f"allowed: {CALIBRATION}, as `dpscale measure allreduce --out` writes it"
RUNS_GIVEN = f"{OTHER_OUTPUT['runs']}; {AS_MEASURED}"  # (outputs.output_of names one record or `--json`'s too)


def _bad_field(data: Any) -> str:
    """The calibration field that is not a number, with its value as the file wrote it ('alpha_s "x"; ', 'busbw_gbs
    missing; '), so the refusal says what to mend; '' where the file is no object of fields at all."""
    if not isinstance(data, dict):
        return ""
    for k in ("busbw_gbs", "alpha_s"):
        if k not in data:
            return f"{k} missing; "
        try:
            _ = data[k] is None or _real(data[k])
        except (TypeError, OverflowError):  # text, true/false, a list; a 400-digit integer, past float
            return f"{k} {json_quoted(data[k])}; "
    return ""


def load_calibration(path: str, cal: Calibration = DEFAULT) -> tuple[Calibration, float | None, Any]:
    """Use a measured all-reduce calibration (`dpscale measure allreduce --out`) inside the node.

    With its per-size table ("points", physics.md §1.4's advice: a measured busbw(S) curve rather than
    one α) each bucket's bandwidth is read off the curve, latency included; without one, its α–β fit
    replaces η × spec and the per-collective latency. Returns (calibration, busbw or None, curve or None)."""
    name = shown(path)  # ('-': standard input, as the messages name it)
    data = None
    try:
        # "alpha_s": 2e-5, …, "alpha_s": 0.5 predicted on the second without a word (E 0.94 → 0.03): refused, as the
        # other files a command reads refuse it
        data = loads_once(read_text(path), f"--calibration: {name}")
        # null where measure's α–β fit found no slope (β = 0 on a noisy few sizes): the table alone then serves
        busbw, alpha = (None if data[k] is None else _real(data[k]) for k in ("busbw_gbs", "alpha_s"))
        raw = data.get("points") if data.get("points") is not None else []  # (null: no table, the α–β fit)
    except OSError as exc:
        raise DpscaleError(f"--calibration: got {path!r}; allowed: a readable JSON file ({exc.strerror})") from None
    except DpscaleError:  # a field given twice (loads_once): itself, not the ValueError below
        raise
    except json.JSONDecodeError as exc:  # a file cut short: where it breaks, as --system-file says it
        from dpscale.sources.efficiency_file import other_output, runs_lines

        # `measure --out`'s runs: 'line 2: not JSON (Extra data)', of a line that is (review MA); `measure --csv`'s,
        # 'line 1: not JSON (Expecting value)', where plan --efficiency-file names it a CSV of runs (review MH); and
        # another command's --csv, or its --json appended twice (`>>`), so too, as --system-file names them (review
        # MT: calc's, predict's, `measure allreduce --csv`'s; two of calc's said 'line 2: not JSON (Extra data)')
        other = "runs" if runs_lines(path) else other_output(path)  # (no catalog key of its own)
        if other == "runs":
            raise DpscaleError(f"--calibration: {name}: {RUNS_GIVEN}") from None
        if other not in (None, "calibration"):
            raise DpscaleError(f"--calibration: {name}: {OTHER_OUTPUT[other]}; {AS_MEASURED}") from None
        where = f"--calibration: {name}"  # (two calibrations appended: the second's line)
        raise second_document(where, exc) or not_json(where, exc, CALIBRATION) from None
    # (JSON nested thousands deep; a 400-digit integer, past float, said no file)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError, OverflowError):
        # another command's JSON, named as what it is (review MH; ML: outputs.output_of): one run (a sweep cut short)
        # or `measure --json` said 'busbw_gbs missing' (review MA)
        if other := output_of(data):
            raise DpscaleError(f"--calibration: {name}: {OTHER_OUTPUT[other]}; {AS_MEASURED}") from None
        raise DpscaleError(f"--calibration: {name}: {_bad_field(data)}allowed: {CALIBRATION}") from None
    if not isinstance(raw, list):  # `"points": 0` or {} once fell back to the α–β fit without a word
        raise DpscaleError(f"--calibration: {name}: points {json_quoted(raw)}; allowed: a list of measured sizes")
    points = []
    for i, q in enumerate(raw):
        try:
            points.append((_real(q["bytes"]), _real(q["busbw_gbs"])))
        except (KeyError, TypeError, OverflowError):  # name the point, not the top-level fields (which were fine)
            raise DpscaleError(
                f"--calibration: {name}: points[{i}] is {str(q)[:60]}; allowed: an object with numbers bytes and "
                "busbw_gbs"
            ) from None
    points.sort()
    lo, hi, said = BANDWIDTH
    if (busbw is None or alpha is None) and len({size for size, _ in points}) < 2:
        raise DpscaleError(f"--calibration: {name}: allowed: {CALIBRATION}")
    if not ((busbw is None or lo <= busbw <= hi) and (alpha is None or 0 <= alpha <= 1)):
        got = ", ".join(
            f"{k} {'null' if x is None else format(x, 'g')}" for k, x in (("busbw_gbs", busbw), ("alpha_s", alpha))
        )
        raise DpscaleError(f"--calibration: {name}: {got}; allowed: busbw_gbs as {said}, alpha_s from 0 to 1 (s)")
    curve = None
    # A measured table's small sizes are latency-bound: gloo's 2 KiB runs below 0.001 GB/s, so its points need
    # only be positive and finite; a bad one is named rather than the table dropped for the α–β fallback.
    # A point whose one message would take over a minute (1 KiB at 1e-300 GB/s: 1e291 s) is no measurement.
    bad = next(((s, b) for s, b in points if not (0 < b <= hi and 1 <= s <= 1e15 and s <= b * 1e9 * 60)), None)
    if bad:
        raise DpscaleError(
            f"--calibration: {name}: point bytes {bad[0]:g}, busbw_gbs {bad[1]:g}; allowed: bytes from 1 to 1e15 "
            f"and busbw_gbs > 0 and ≤ {hi:g}, at most a minute a message (bytes ≤ busbw_gbs × 60 GB)"
        )
    # Repeated sizes (two runs of `measure allreduce` in one table) count once, at their mean busbw: np.interp
    # needs increasing sizes, and two at one size once read the curve at neither and said '2 sizes'
    by_size: dict[float, list[float]] = {}
    for s, b in points:
        by_size.setdefault(s, []).append(b)
    points = sorted((s, sum(bs) / len(bs)) for s, bs in by_size.items())
    if len(points) >= 2:
        curve = (np.array([s for s, _ in points]), np.array([b for _, b in points]))
        return cal._replace(alpha_base=0.0, alpha_intra=0.0, ring_fill=0.0), busbw, curve
    return cal._replace(alpha_base=alpha, alpha_intra=0.0, eta_intra=1.0, ring_fill=0.0), busbw, curve  # busbw: η·B


# What a Calibration object's figures may be: (low, high) each, so a library caller's eta nan or −1 is named
# rather than turned into E = nan (the file path above has its own checks).
CALIBRATION_BOUNDS = {
    "eta_intra": (1e-6, 1.0),  # shares of the links' spec
    "eta_inter": (1e-6, 1.0),
    "alpha_base": (0.0, 1.0),
    "alpha_intra": (0.0, 1.0),
    "alpha_inter": (0.0, 1.0),
    "backward_share": (0.0, 1.0),
    "compute_jitter": (0.0, 1.0),
    "sync_hbm_passes": (0.0, 1e4),
    "ring_fill": (0.0, 1.0),
    "ring_fill_bytes": (1.0, 1e15),
    "sync_bytes_max": (1.0, 1e18),
}


def check_calibration(cal: Any) -> Calibration:
    """A Calibration passed to the library, field by field within CALIBRATION_BOUNDS."""
    if not isinstance(cal, Calibration):
        raise fail("calibration", cal, "a path to a `dpscale measure allreduce --out` file, or a Calibration")
    for name, (lo, hi) in CALIBRATION_BOUNDS.items():
        check_range(one(getattr(cal, name), f"calibration.{name}"), f"calibration.{name}", lo, hi, f"{lo:g} to {hi:g}")
    return Calibration(*(float(x) for x in cal))


def link_hop(cal: Calibration, intra_link: str | None) -> Calibration:
    """The intra-node link's hop latency from links.json in place of the default (PCIe's is 5.7 µs, NVLink's
    3.4 [NCCL-TUNE]): one rule for `predict` and `validate`, which had drifted (a PCIe table was scored at 3.4).
    A latency the caller set (a Calibration whose alpha_intra is not the default's) is kept."""
    hop = catalog.table("links").get(intra_link or "", {}).get("alpha_us")
    if hop is None or cal.alpha_intra != DEFAULT.alpha_intra:
        return cal
    return cal._replace(alpha_intra=hop * 1e-6)


def gpu_terms(cal: Calibration, part: dict[str, Any] | None, fill: bool = True) -> tuple[Calibration, float]:
    """What the step model takes from the GPU's catalog entry: its ring fill (gpus.json ring_fill_us,
    where given and `fill`) and its HBM bandwidth (A100-class when the GPU is unknown)."""
    if fill and part and "ring_fill_us" in part:
        cal = cal._replace(ring_fill=part["ring_fill_us"] * 1e-6)
    return cal, part["hbm_tbs"] if part else DEFAULT_HBM_TBS
