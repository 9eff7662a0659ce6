"""What a prediction says about itself: notes where its inputs or its curve leave what was checked.

`sources.predict` evaluates the step model; these read what it was given (the cluster as the options left it,
the GPU, the model's size and precision, a calibration file) and the curve it made (ragged nodes, an all-reduce
left after accumulation), and say where the prediction leans on physics no published measurement checked, where
the states cannot fit, or where a figure looks like a unit slip. None of them changes E.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dpscale import catalog
from dpscale.formulas.collectives import link_bandwidth, ragged_node_link
from dpscale.formulas.compute import queries_width, token_flops, transformer_terms
from dpscale.formulas.memory import (
    ACTIVATION_BYTES,
    STAGE_NAMES,
    Shape,
    activation_bytes,
    bytes_per_parameter,
    device_bytes,
    state_split,
)
from dpscale.formulas.stepmodel import DEFAULT, efficiency, step_time
from dpscale.formulas.units import GB, MIB
from dpscale.notes import Note, e3, figure, params_said
from dpscale.sources.measure.calibration import MAX_BYTES, bytes_text
from dpscale.sources.predict_inputs import (
    CNN_MFU_FP32,
    CNN_MFU_TENSOR,
    EFFICIENTNET_FP32,
    EFFICIENTNET_TENSOR,
    FP8_GAIN,
    HOPPER_RESNET50,
    Cluster,
    calibration_origin,
    network_kind,
    vector_peak,
)

# What the published measurements behind c_c, c_h and ERROR_BAND covered (tests/test_calibration.py checks
# these against the data): beyond them the step model is physics carried over, and nothing checked it.
CHECKED_ARCHS = ("volta", "ampere")
ARCH_NAMES = {  # as their makers write them
    "pascal": "Pascal", "volta": "Volta", "ampere": "Ampere", "ada": "Ada Lovelace", "hopper": "Hopper",
    "blackwell": "Blackwell", "cdna2": "CDNA 2", "cdna3": "CDNA 3", "tpu": "TPU",
}  # fmt: skip
CHECKED_DEVICES = 1024
CHECKED_PARAMS_M = (1.634, 333.0)  # model sizes, millions of parameters (PyTorch TFT to Jasper 10x5)
# A gradient past the calibration's largest by less than this is held without a note: BERT-large's preset (336 M)
# against the 333 M checked, 1 % — the wait then moves by ~0.1 % of E; GPT-2 medium's 355 M (7 %) is said.
HELD_UNSAID = 1.02
CHECKED_INTRA_GBS = (150.0, 300.0)  # NVLink per device inside a node (DGX-1 to DGX A100)
CHECKED_INTER_GBS = (50.0, 200.0)  # InfiniBand per node, for runs across nodes
# Images/s one host CPU core decodes and augments for training (ImageNet-style JPEGs): where two published
# CPU-decoding tables stop scaling within a node — TF2 EfficientNet-B0 on DGX-1 at 4,880 images/s on 40 cores
# (122 a core), PyTorch ResNet-50 AMP on DGX A100 at 16,621 on 128 (130 a core); docs/predict_report.md. A caution
# only, never applied to E: GPU decoding (DALI) runs 268–447 a core in the MXNet tables, and nothing the
# prediction is given says which loader a run uses.
DECODE_PER_CORE = 125.0
# Each precision's model states under memory's name for them: amp keeps fp32 weights and gradients, fp16 and bf16 are
# 16-bit with an fp32 master (the ZeRO paper's mixed), fp8 reduces fp32 gradients (Megatron's). Their gradient bytes
# are GRAD_BYTES' (a test holds the two tables together).
MEMORY_PRECISION = {"fp32": "fp32", "tf32": "fp32", "amp": "amp", "fp16": "mixed", "bf16": "mixed", "fp8": "fp8"}
RAGGED_SHOWN = 6  # sizes a ragged-node note lists
# A measured --step-time implying less of the GPU's peak than this is taken for milliseconds typed as seconds: the
# table prints 'step ms', and 213.3 of them typed as --step-time 213.3 made compute 1,000× longer, E near 1. Real
# runs sit at 5–60 % (a latency-bound BERT-base at batch 1 near 0.3 %), so the slip lands at 0.005–0.06 %.
STEP_FLOOR_MFU = 1e-3


def _calibration_notes(calibration: Any, curve: Any, bucket_mb: float, grad_bytes: float, busy: int) -> list:
    """Notes where a measured calibration file may not describe this run: its table stops short of the buckets,
    or it was measured on a CPU or on fewer ranks than a node's busy GPUs."""
    out = []
    largest = min(bucket_mb * MIB, grad_bytes)  # DDP's largest bucket
    if curve is not None and curve[0][-1] < largest / 2:  # the table's top size is held beyond it: say so
        # the sizes that reach it, ×2 from 1 KB as measure steps (64 MB for DDP's 25 MiB; review LS: 200 MiB buckets
        # and ZeRO's units were sent to 1KB..64MB, which stops short of them again), at most measure's 4 GB
        top = min(MAX_BYTES, max(64 * MIB, 1 << math.ceil(math.log2(largest))))
        out.append(Note("calibration_short", top=float(curve[0][-1]), mib=_mib(bucket_mb), busbw=float(curve[1][-1]),
                        upto=bytes_text(top)))  # fmt: skip
    if isinstance(calibration, str) and busy > 1:
        backend, device, ranks, nodes = calibration_origin(calibration)  # a laptop's gloo run read as 8 GPUs' NVLink
        if device == "cpu" or (ranks is not None and ranks < busy):
            out.append(Note("calibration_elsewhere", backend=backend or "?", device=device or "?",
                            ranks="?" if ranks is None else f"{ranks:,}", g=busy))  # fmt: skip
        if nodes is not None and nodes > 1:  # a torchrun run on 2 nodes measured their network, not a node's link
            out.append(Note("calibration_nodes", nodes=nodes))
    return out


def _hop_unsourced(cl: Cluster, cal: Any, calibration: Any, alpha_intra_us: Any, busy: int) -> list:
    """A named intra-node link with no hop latency of its own in links.json (xgmi-mi300x): link_hop keeps the
    default, NVLink's, and said nothing. Not where the link goes unused (one GPU a node), nor where the latency is
    another's: a measured file's, a Calibration's own, --alpha-intra's."""
    link = catalog.table("links").get(str(cl.intra_link), {})
    if busy < 2 or link.get("kind") != "intra" or "alpha_us" in link or isinstance(calibration, str):
        return []
    if alpha_intra_us is not None or cal.alpha_intra != DEFAULT.alpha_intra:
        return []
    return [Note("hop_unsourced", link=cl.intra_link, us=cal.alpha_intra * 1e6)]


def _ragged(d: np.ndarray, g: float, d0: int = 1, nics: int | None = None, node: tuple[int, int] | None = None,
            mesh: tuple[float, dict | None, set] | None = None) -> list:  # fmt: skip
    """A note naming the sizes past one node that leave their last node part-filled: modeled as whole nodes, the
    last one's network the share of the `nics` its GPUs reach (stepmodel.ragged_network_share; `node`: the whole
    node's NICs and GPUs, of which a run of g < GPUs a node takes GPUs 0..r−1 last), the whole node's where the NICs
    are not known. The measured baseline's size d0 is one of them where it is ragged: its step is inverted on the
    same nodes. `mesh`: (the node's link, its cube-mesh table, the sizes charged a hierarchical); where the last
    node's r GPUs slow the hierarchical's node phase (collectives.ragged_node_link) at a size that runs it, a second
    note names those sizes (13 DGX-1 V100s, where auto takes the flat ring, are not named)."""
    partial = [int(x) for x in sorted({*d.tolist(), d0}) if x > g and x % g]
    if not partial:
        return []
    if nics:  # the node's own NICs named, as the nics_reached note names them (DGX-1 at 3 a node: 4, not the run's 2)
        of, whole = node or (nics, g)
        out = [Note("ragged_nodes", sizes=_listed(partial), g=g, nics=of, whole=whole)]
    else:
        out = [Note("ragged_nodes_whole", sizes=_listed(partial), g=g)]
    if mesh and mesh[1]:
        x = np.asarray([v for v in partial if v in mesh[2]], dtype=float)
        slower = x[ragged_node_link(x, g, *mesh[:2]) < link_bandwidth(x, g, *mesh[:2])]
        if slower.size:
            out.append(Note("ragged_mesh", sizes=_listed([int(v) for v in slower])))
    return out


def _listed(sizes: list[int]) -> str:
    """Every size (12 of -d 12,20 alone was named), the first few of a long sweep."""
    return "; ".join(f"{x:,}" for x in sizes[:RAGGED_SHOWN]) + ("; …" if len(sizes) > RAGGED_SHOWN else "")


def _accumulation_exposed(d: np.ndarray, eff: np.ndarray, top: tuple[dict[str, Any], Any],
                          one: tuple[dict[str, Any], Any]) -> list:  # fmt: skip
    """A note where accumulation leaves DDP's all-reduce after the last micro-batch (no ZeRO stage waits for the
    sum: stage 1 reduces over the boundary micro-batch's backward, 2 and 3 over each one's). top, one: the step model's
    inputs at the largest size and at one device, with a step's micro-batches as E counts them (predict.per_size:
    under a global batch each size has its own micro-batch, and the note its own E)."""
    kw = top[0]
    ga = kw["grad_accum"]
    if not (ga > 1 and kw["overlap"] and not kw["overlap_accumulation"] and not kw["zero"] and d.max() > 1):
        return []
    # E(ga = 2) can fall below E(1): say why, and what the overlap would give at the largest size
    at, alone = (step_time(x, **dict(k, overlap_accumulation=True)) for x, (k, _) in ((d.max(), top), (1, one)))
    hidden = efficiency(at, alone, top[1], float(np.ravel(one[1])[0]))
    e, e_hidden = float(eff[d.argmax()]), float(np.ravel(hidden)[0])  # (said by notes.e3: 0.000 beside 0.000)
    return [Note("accumulation_exposed", ga=ga, d=int(d.max()), e=e, e_hidden=e_hidden, e_said=e3(e),
                 e_hidden_said=e3(e_hidden))]  # fmt: skip


def _cluster_notes(cl: Cluster, d: np.ndarray, part: dict[str, Any] | None, gpu: str | None, busy: int,
                   raw: bool, typed: tuple[bool, bool] = (False, False), measured: bool = False) -> list:  # fmt: skip
    """Notes on the cluster as the options left it: a preset's figures replaced, the NICs a part of its node
    reaches, an NVLink figure typed both ways added, its GPU swapped. `busy`: GPUs of one node in use at the
    largest size; `raw`: the links were typed (no --system or --system-file, no calibration file); `typed`: the
    intra-node and network figures were given as flags (a file's figure is said as the file's); `measured`: a
    measured calibration file replaced the node's links (its table too)."""
    notes: list[str] = []
    # a measured file replaced the node's links: a typed --intra-bw is read by no term, so neither a change of the
    # preset nor a vendor's figure to say (review MC: 'intra_bw_gbs 300 → 20' beside an E the same to the byte)
    unused = measured and typed[0]
    overrides = [o for o in cl.overrides if not (unused and o[0] == "intra_bw_gbs")]
    if unused:
        notes.append(Note("intra_bw_unused", typed=cl.intra_bw_gbs))
    if overrides:  # the title names the preset: say which of its figures the flags replaced
        # its figure → the one given, each beside its own (a list of typed figures, then of its own, read poorly)
        # a count grouped, as the tables write it: --gpus-per-node 10000000 was said '8 → 1e+07'
        show = lambda x: f"{int(x):,}" if float(x).is_integer() and abs(x) < 1e15 else f"{x:g}"  # noqa: E731
        changes = "; ".join(f"{f} {show(own)} → {show(x)}" for f, x, own in overrides)
        notes.append(Note("system_overridden", system=cl.name, changes=changes))
    notes.extend(_replaced(cl, d, typed, measured))
    if cl.nics_reached and d.max() > cl.gpus_per_node:  # why the network changed with --gpus-per-node
        used, nics, whole = cl.nics_reached
        if used is None:  # a system file without nics: the whole node's network, which g GPUs may not reach
            notes.append(Note("nics_unknown", g=int(cl.gpus_per_node), whole=whole, system=cl.name,
                              inter=cl.inter_bw_gbs))  # fmt: skip
        else:
            notes.append(Note("nics_reached", g=int(cl.gpus_per_node), whole=whole, used=used, nics=nics,
                              system=cl.name, inter=cl.inter_bw_gbs))  # fmt: skip
    if cl.overrides and d.max() > cl.gpus_per_node:  # a node's Gb/s typed as GB/s: DGX A100's "1600" (8 × 200 Gb/s)
        for field, x, _ in cl.overrides:  # (the run's own: 4 of a DGX A100's GPUs reach 100 GB/s of its 200)
            if field == "inter_bw_gbs" and x == 8 * cl.inter_own:  # (exactly: 1615 is no 8 × 200 to say so)
                notes.append(Note("inter_bits_as_bytes", typed=x, own=cl.inter_own, system=cl.name,
                                  flag=f"--inter-bw {x:g}Gb/s"))  # fmt: skip
            # or one NIC's figure, as a system file's is said (inter_one_port_file): DGX H100's '400 Gb/s per GPU'
            # typed 400Gb/s is 50 GB/s, an eighth of the node's; below the checked range _outside says it already
            port = catalog.table("links").get(str(cl.inter_link), {}).get("gbs")
            if (field == "inter_bw_gbs" and (cl.nics or 0) > 1 and port and math.isclose(x, port)
                    and x >= CHECKED_INTER_GBS[0]):  # fmt: skip
                notes.append(Note("inter_per_nic_known", bw=x, nics=cl.nics, system=cl.name, node=cl.nics * x))
    # the GPUs of the node the preset or file describes (its datasheet's node), not a typed --gpus-per-node: a file's
    # 2400 (8 × nvlink3's 300) at --gpus-per-node 4 was said as 4 GPUs' both ways, and 1200 as a total (review HX)
    node_g = next((int(own) for f, _, own in cl.overrides if f == "gpus_per_node"), int(cl.gpus_per_node))
    if overrides and busy > 1:  # vendors quote NVLink both ways added: H100's "900 GB/s" is 450 each way
        for field, x, own in cl.overrides:
            if field == "intra_bw_gbs" and x == 2 * own and str(cl.intra_link).startswith("nvlink"):
                notes.append(Note("intra_bidirectional", typed=x, own=own, system=cl.name))
            elif field == "intra_bw_gbs" and str(cl.intra_link).startswith("nvlink"):
                notes.extend(_node_total(x, own, cl.name, node_g))
    elif raw and part and busy > 1:  # A100's "600" typed
        nvlinked = [(k, s["intra_bw_gbs"], s["gpus_per_node"]) for k, s in catalog.table("systems").items()
                    if s["gpu"] == part["key"] and str(s["intra_link"]).startswith("nvlink")]  # fmt: skip
        twin = next(((k, own) for k, own, _ in nvlinked if cl.intra_bw_gbs == 2 * own), None)
        if twin:
            notes.append(Note("intra_bidirectional", typed=cl.intra_bw_gbs, own=twin[1], system=twin[0]))
        else:  # or the node's whole NVLink, its GPUs' added (DGX A100's 4.8 TB/s)
            said = (_node_total(cl.intra_bw_gbs, own, k, g) for k, own, g in nvlinked)
            notes.extend(next((n for n in said if n), []))
    # a system file that names its NVLink (intra_link) and gives twice that link's per-direction figure: the
    # vendor's both-ways number (a file naming no link is taken as given; a typed --intra-bw is said above)
    link = catalog.table("links").get(str(cl.intra_link), {})
    if busy > 1 and not typed[0] and str(cl.intra_link).startswith("nvlink") and cl.intra_bw_gbs == 2 * link["gbs"]:
        notes.append(Note("intra_bidirectional_file", typed=cl.intra_bw_gbs, own=link["gbs"], link=cl.intra_link))
    elif busy > 1 and not typed[0] and str(cl.intra_link).startswith("nvlink"):
        totals = _node_total(cl.intra_bw_gbs, link["gbs"], str(cl.intra_link), node_g)
        notes.extend(Note("intra_node_total_file", **n.fields) for n in totals)  # (the file's words, not the flag's)
    # likewise a file whose network is one port of the inter_link it names, for a node with several NICs: the node's
    # figure is all its NICs together (a typed --inter-bw is said by _outside's inter_per_nic_known)
    port = catalog.table("links").get(str(cl.inter_link), {}).get("gbs")
    # the file's own figure: on part of its node the network is the share of the NICs reached (4 of 8 HDR100 NICs,
    # a file's 100 GB/s, run at 50; 2 of them at 25, one HDR port's, said as the file's '25')
    reached, of = cl.nics_reached[:2] if cl.nics_reached and cl.nics_reached[0] else (1, 1)  # NICs reached, of
    own = cl.inter_bw_gbs * of / reached  # (node_share's share, undone)
    if d.max() > cl.gpus_per_node and not typed[1] and (cl.nics or 0) > 1 and port and math.isclose(own, port):
        notes.append(Note("inter_one_port_file", bw=port, link=cl.inter_link, nics=cl.nics, node=cl.nics * port))
    # or the node's Gb/s as bytes: 8 HDR NICs' 200 GB/s typed 1600 (a typed --inter-bw: inter_bits_as_bytes)
    whole = (cl.nics or 0) * of / reached  # the file's NICs, all of the node's
    if d.max() > cl.gpus_per_node and not typed[1] and whole and port and math.isclose(own, 8 * whole * port):
        notes.append(Note("inter_bits_file", typed=own, nics=round(whole), link=cl.inter_link, node=whole * port))
    if cl.gpu and gpu != cl.gpu:  # a system's GPU replaced: E moves (HBM, ring fill, peak), the links the system's
        notes.append(Note("gpu_swapped", gpu=gpu, system=cl.name, own=cl.gpu))
    return notes


def _cnn_mfu(spec: dict[str, Any], part: dict[str, Any] | None, prec: str) -> Note:
    """What a CNN preset's default share of the peak rests on: the calibration's published ResNet-50 runs, on Volta
    and Ampere. On a GPU of another generation their spread is not claimed (review LT: an H100's ResNet-50 with AMP
    was priced at 21.5 % ± 35 % of 989 TFLOP/s, 8,667 images/s, where the one published H100 run made 2,616): the
    note says what the published H100 runs reached instead, beside the same table's A100, and how the two GPUs'
    tensor peaks and memory bandwidths compare (docs/predict.md, "A CNN's share of the peak"). An EfficientNet
    preset's own published runs reach 0.07–0.22× the share on every GPU they ran on, so its note says them."""
    ranges = dict(t_lo=100 * CNN_MFU_TENSOR[0], t_hi=100 * CNN_MFU_TENSOR[1], f_lo=100 * CNN_MFU_FP32[0],
                  f_hi=100 * CNN_MFU_FP32[1])  # fmt: skip
    if str(spec.get("key", "")).startswith("efficientnet"):
        own, share = (
            (EFFICIENTNET_FP32, CNN_MFU_FP32) if vector_peak(part, prec) else (EFFICIENTNET_TENSOR, CNN_MFU_TENSOR)
        )
        # under fp8 the share used is the tensor one times fp8's end-to-end gain, said against the 16-bit peak the
        # rows' shares are of (review LW: 0.07–0.21× where it is 0.054–0.152×)
        mid = sum(share) / 2 * (sum(FP8_GAIN) / 2 if prec == "fp8" else 1.0)
        return Note("cnn_mfu_efficientnet", e_lo=100 * EFFICIENTNET_TENSOR[0], e_hi=100 * EFFICIENTNET_TENSOR[1],
                    g_lo=100 * EFFICIENTNET_FP32[0], g_hi=100 * EFFICIENTNET_FP32[1], x_lo=own[0] / mid,
                    x_hi=own[1] / mid, **ranges)  # fmt: skip
    t_pm, f_pm = (100 * (hi - lo) / (hi + lo) for lo, hi in (CNN_MFU_TENSOR, CNN_MFU_FP32))  # ± around the middle
    if part is None or part["arch"] in CHECKED_ARCHS:
        return Note("cnn_mfu", t_pm=t_pm, f_pm=f_pm, **ranges)
    h100, a100 = catalog.gpu("h100-80gb"), catalog.gpu("a100-80gb")
    flops = 6e9 * catalog.model("resnet50")["fwd_gmacs"]  # an image's training FLOPs, as flops_per_sample counts
    amp = HOPPER_RESNET50["amp"] * flops / (h100["peak_tflops"]["amp"] * 1e12)
    return Note(
        "cnn_mfu_unchecked",
        arch=ARCH_NAMES.get(part["arch"], part["arch"]),
        pm=f_pm if vector_peak(part, prec) else t_pm,
        amp=100 * amp,
        x=amp / (sum(CNN_MFU_TENSOR) / 2),
        speed=HOPPER_RESNET50["amp"] / HOPPER_RESNET50["a100_amp"],
        peak_x=h100["peak_tflops"]["amp"] / a100["peak_tflops"]["amp"],
        hbm_x=h100["hbm_tbs"] / a100["hbm_tbs"],
        fp32=100 * HOPPER_RESNET50["fp32"] * flops / (h100["peak_tflops"]["fp32"] * 1e12),
        **ranges,
    )


def _unchecked(d: np.ndarray, part: dict[str, Any] | None, gpu: str | None, n_params: float, prec: str, zero: int,
               unit_mb: float, run: tuple = (None, None, 1), overlap: bool = True) -> list:  # fmt: skip
    """Notes where the prediction leaves what published measurements checked, or where the states (or, for a
    transformer preset, the states and its activations; `run` is (preset, seq_len, batch)) cannot fit."""
    out = []
    if part and prec not in part["peak_tflops"]:  # fp8 on a V100 ran without a word once a rate was measured
        out.append(Note("precision_no_peak", gpu=gpu, prec=prec, has=", ".join(part["peak_tflops"])))
    if part and part["arch"] not in CHECKED_ARCHS:
        out.append(Note("unchecked_arch", arch=ARCH_NAMES.get(part["arch"], part["arch"]), gpu=gpu))
    if d.max() > CHECKED_DEVICES:
        out.append(Note("unchecked_size", top=CHECKED_DEVICES))
    if zero:
        key = "zero_unchecked" if overlap else "zero_unchecked_exposed"  # (it said 'overlapped' under --no-overlap)
        out.append(Note(key, stage=STAGE_NAMES[zero], unit=unit_mb, mib=_mib(unit_mb)))
    if part:  # Adam: 16 bytes a parameter in fp32, amp and mixed precision alike [ZERO], 18 under fp8 (Megatron's);
        # the bytes sharded differ. Sharded states shrink with d: the largest size that does not fit is named.
        split = MEMORY_PRECISION[prec]
        whole, sharded = state_split(n_params, zero, "adam", split)
        sizes = d if zero else d.max(keepdims=True)  # DDP's states are one size at every d: say the largest asked
        need = whole + sharded / sizes
        held = device_bytes(part["memory_gb"], part.get("usable_mib"))
        short = sizes[need > held]
        if short.size:
            n = int(short.max())
            key = "zero_memory" if zero else "ddp_memory"
            mem = round(held / GB, 1)  # the bytes compared, as memory and the activation note say them: an H100's
            # 85.9 GB (80 GiB; '80 GB' beside the next note's 85.9 once), a GDDR6 card's 48.3 (not 48)
            per = sum(bytes_per_parameter("adam", split))  # (mp: memory's name for these bytes)
            # HBM is sold in GiB: 'the h100-80gb's 85.9 GB (80 GiB)', not a figure that reads like a typo beside '80gb'
            gib = "" if part.get("usable_mib") else f" ({part['memory_gb']:g} GiB)"
            out.append(Note(key, need=float(need[sizes == n][0]) / GB, mem=mem, gpu=gpu, stage=STAGE_NAMES[zero],
                            d=n, mp=split, per=per, gib=gib))  # fmt: skip
        # the sizes whose states fit, each with its own activations (a global batch's share differs by size): a
        # sweep from 1 device named only its states, and 8 B200s short of Llama-2-70B's activations went unsaid
        fit = whole + sharded / d <= held
        if fit.any():
            spec, seq_len, batch = run
            shares = np.broadcast_to(np.asarray(batch, dtype=float), d.shape)[fit]
            out.extend(_activations_beyond((spec, seq_len, shares), split, d[fit], held, whole + sharded / d[fit], gpu))
    return out


def _activations_beyond(run: tuple, split: str, sizes: np.ndarray, held: float, need: np.ndarray,
                        gpu: str | None) -> list:  # fmt: skip
    """A note where a transformer preset's activations at this batch [KORTH22] outgrow what the states leave at
    some size, even without the attention scores (FlashAttention, as most runs now train, or selective recompute):
    E is for the step as given, which such a run could not take. The largest such size is named, with its own
    micro-batch (`run`'s batch: one for every size, or each size's, a global batch's share of it); `split` is the
    states' precision under memory's name, which the note gives `dpscale memory` (review LO: amp's states counted,
    memory's default mixed ones shown)."""
    spec, seq_len, batch = run
    b = np.broadcast_to(np.asarray(batch, dtype=float), sizes.shape)
    if not spec or spec.get("kind") != "transformer" or not np.all(b == np.floor(b)):
        return []
    shape = Shape.of(spec, seq_len)
    width = ACTIVATION_BYTES[split]  # bytes a stored value, memory's rule for the precision
    by = {x: [activation_bytes(shape, int(x), recompute=r, value_bytes=width) for r in ("none", "selective")]
          for x in set(b.tolist())}  # fmt: skip
    act, sel = (np.array([by[x][k] for x in b.tolist()]) for k in (0, 1))
    left = held - need
    short = sizes[sel > left]
    if not short.size:
        return []
    n = int(short.max())
    i = int(np.flatnonzero(sizes == n)[0])
    return [Note("activation_memory", b=int(b[i]), s=shape.seq_len, act=act[i] / GB, sel=sel[i] / GB,
                 left=float(left[i]) / GB, gpu=gpu, held=held / GB, d=n, mp=split)]  # fmt: skip


def _mib(x: float) -> float:
    """A unit's MiB as a note shows it with ',g' (its field `unit` stays exact): 12,164.6, not 1.216e+04; small
    ones keep their digits."""
    return round(x, 1) if x >= 10 else x


def _replaced(cl: Cluster, d: np.ndarray, typed: tuple[bool, bool], measured: bool) -> list:
    """Notes where a typed figure replaced a preset's own at some size of d: the mesh's per-GPU-count table, or the
    share of a node's NICs part of it reaches. d: the sizes read — the curve's and the baseline's, or the sizes
    `Prediction.devices_for` searched to its answer (review MC: `-d 16 --min-efficiency 0.3` on a DGX-1 V100 answered
    4, and 8 with its own 150 typed as --intra-bw, with no word: 16 reads the node's 150 either way)."""
    notes: list = []
    # a typed --intra-bw is one figure for every GPU count, where a mesh's table gave each its own (review LV:
    # DGX-1 V100 at 5 GPUs, its own 150 typed, ran at 150 in place of PCIe's 15.75 with no word: E 0.179 → 0.414)
    own = cl.intra_own or {}
    if typed[0] and not measured and own and _links_differ(d, cl.gpus_per_node, own, cl.intra_bw_gbs):
        notes.append(Note("intra_table_replaced", typed=cl.intra_bw_gbs, system=cl.name,
                          figures=" / ".join(figure(v) for v in own.values()),
                          counts=" / ".join(f"{n:,}" for n in own)))  # fmt: skip
    # a typed --inter-bw on g of a node's G GPUs is the network of those g, not a share of the node's (aws-p4d's own
    # 50 typed at --gpus-per-node 2 gave 2 GPUs all 4 NICs, 12.5 → 50 GB/s, with no word: E 0.398 → 0.627)
    if typed[1] and cl.node_nics and d.max() > cl.gpus_per_node and cl.inter_own != cl.inter_bw_gbs:
        nics = cl.node_nics[0]
        notes.append(Note("inter_share_replaced", typed=cl.inter_bw_gbs, g=int(cl.gpus_per_node), own=cl.inter_own,
                          system=cl.name, node=cl.inter_own * nics / cl.nics, used=cl.nics, nics=nics))  # fmt: skip
    return notes


def _links_differ(d: np.ndarray, g: float, own: dict[int, float], typed: float) -> bool:
    """Whether a size of d that has links (more than one GPU) reads another in-node figure from the mesh's own
    table `own` ({GPUs: GB/s}, the node's at g) than from one typed figure — through the formulas that read it,
    collectives.link_bandwidth and ragged_node_link, so the note and the step model cannot disagree."""
    x = np.asarray(d, dtype=float)
    x = x[x > 1]
    node = own[max(own)]
    return any(bool(np.any(f(x, g, node, own) != f(x, g, typed))) for f in (link_bandwidth, ragged_node_link))


def _node_total(typed: float, own: float, system: str, g: int) -> list:
    """A note when an in-node figure is a node's NVLink, all its g GPUs' added, one way or both (DGX H100's 7.2 TB/s
    is 8 × 900, both ways of 8 × 450): datasheets quote it so, and the figure asked is one GPU's, one direction."""
    k = typed / own
    if g > 1 and k in (g, 2 * g):
        return [Note("intra_node_total", typed=typed, own=own, system=system, k=k, g=g)]
    return []


def _outside(d: np.ndarray, size: tuple[float, float, float], cl: Cluster, intra: bool, unchecked_gpu: bool,
             typed: bool = False) -> list:  # fmt: skip
    """Notes where the model size or a link the prediction leans on lies outside the published checks: the
    terms still follow physics there, but c_c, c_h and E lo–hi were never tested against a measurement.
    size: (parameters, the gradient's bytes, the largest the calibration saw, at which the wait's term is held);
    intra: whether to check the node's link (not a measured intra-node table); unchecked_gpu: the GPU's own note
    already says its generation is unchecked, which covers links above the checked range (a Hopper system's) — a
    link below it is still said, since communication is then the term the prediction leans on (P100s on 25 GbE);
    typed: the network's figure was typed (a preset's is no unit slip)."""
    out = []
    lo, hi = CHECKED_PARAMS_M
    n_params, nbytes, cap = size
    if n_params / 1e6 < lo / 2:  # within a factor of two, barely outside what was checked
        out.append(Note("unchecked_params", n_params=n_params, count=params_said(n_params), lo=lo, hi=hi))
    elif nbytes > HELD_UNSAID * cap:  # the byte term is held there (in any size's wait, d0's and re-evaluated too)
        out.append(
            Note(
                "sync_bytes_held",
                n_params=n_params,
                count=params_said(n_params),
                gb=nbytes / 1e9,
                x=nbytes / cap,
                cap=cap / 1e9,
            )
        )
    elif n_params / 1e6 > 2 * hi:  # its gradients within the checked bytes (2-byte, or a --grad-bytes), still far out
        out.append(Note("unchecked_params_large", n_params=n_params, count=params_said(n_params), lo=lo, hi=hi))

    def said(bw: float, checked: tuple[float, float]) -> bool:
        """Below the checked range always; above it, not where the unchecked GPU's own note covers it."""
        return bw < checked[0] or bw > checked[1] and not unchecked_gpu

    lo, hi = CHECKED_INTRA_GBS
    if intra and min(d.max(), cl.gpus_per_node) > 1 and said(cl.intra_bw_gbs, CHECKED_INTRA_GBS):
        out.append(Note("unchecked_intra", bw=cl.intra_bw_gbs, lo=lo, hi=hi))
    lo, hi = CHECKED_INTER_GBS
    if d.max() > cl.gpus_per_node and said(cl.inter_bw_gbs, CHECKED_INTER_GBS):
        # below the range, a line rate in Gb/s typed as GB/s is the likely slip (25GbE as 25: 8× too fast)
        key = "unchecked_inter_low" if typed and cl.inter_bw_gbs < lo else "unchecked_inter"
        # the flag as it would be typed, kept out of the language's number style (12,5Gb/s would be refused)
        out.append(Note(key, bw=cl.inter_bw_gbs, lo=lo, hi=hi, bits=cl.inter_bw_gbs / 8,
                        flag=f"--inter-bw {cl.inter_bw_gbs:g}Gb/s"))  # fmt: skip
        if key == "unchecked_inter_low" and cl.nics is not None:  # the system says how many NICs a node has
            if cl.nics > 1:  # (one NIC: its figure is the node's, nothing to multiply)
                out.append(Note("inter_per_nic_known", bw=cl.inter_bw_gbs, nics=cl.nics, system=cl.name,
                                node=cl.nics * cl.inter_bw_gbs))  # fmt: skip
        elif key == "unchecked_inter_low" and cl.gpus_per_node > 1:  # or one NIC's 25 GB/s (HDR) for the node's 8
            g = int(cl.gpus_per_node)
            out.append(Note("inter_per_nic", bw=cl.inter_bw_gbs, g=g, node=g * cl.inter_bw_gbs))
    kind = network_kind(cl.inter_link)
    if d.max() > cl.gpus_per_node and kind == "ethernet":  # EFA, RoCE (any GPU): not the InfiniBand the
        out.append(Note("network_ethernet", link=cl.inter_link))  # calibration's runs measured
    elif d.max() > cl.gpus_per_node and cl.inter_link is not None and kind is None:  # 'zzz' went unsaid
        out.append(Note("network_unknown", link=cl.inter_link))
    return out


def _flops_per_token(spec: dict[str, Any], seq_len: int | None, params: float | None) -> list:
    """What a transformer preset's FLOPs estimate counts a token, term by term (compute.flops_per_sample): 6·N and
    attention's 12·L·h·k, and how much fewer 6 × all the parameters a token passes through alone (a dense model's
    every one, a mixture of experts' active count: formulas.compute.token_params) — the rule many engineers' MFU
    uses — would count: an MFU typed by that rule is of fewer FLOPs than this one's (Llama 3 8B at 8,192: 48.18 G
    against 57.91 G, 16.8 % fewer). Untied, the input embedding left out of N (a lookup) is named; at a short
    sequence its 6·V·h can outweigh attention's term, and 6 × those parameters then counts more (Llama 3 8B at
    1,024: 3.3 % more)."""
    _, n, lookup, keys = transformer_terms(spec, seq_len, params)
    dense, attn = token_flops(spec, seq_len, params)
    total, whole = dense + attn, 6.0 * (n + lookup)
    # (the keys a mean over the layers where the window is on some alone: said to a tenth, 7,704.4, where 5 of Gemma 2
    # 9B's 42 layers slide — it said 7,704.380952380952 — and whole where they are, 6,144)
    k = keys if keys == int(keys) else round(keys, 1)
    fields = dict(dense=dense / 1e9, attn=attn / 1e9, total=total / 1e9, k=k, n=n, whole=n + lookup,
                  keep=whole / total)  # fmt: skip
    # (the queries' width where a config's heads × head_dim is not its hidden size, Gemma 7B's 4,096 against 3,072:
    # the term says w, not h, review KX)
    width, hidden = queries_width(spec), spec["hidden"]
    wide = "_wide" if width != hidden else ""
    fields.update(dict(w=width, h=hidden) if wide else {})
    if not lookup:  # (tied: 6·N alone is always the fewer, by attention's term)
        return [Note(f"flops_per_token{wide}", less=100 * (1 - whole / total), **fields)]
    if whole > total:  # a short sequence: the embedding's 6·V·h outweighs attention (Llama 3 8B at 1,024 keys said
        # '-3.3 % fewer … that much below this one', review KD)
        return [Note(f"flops_per_token_untied_more{wide}", emb=lookup, more=100 * (whole / total - 1), **fields)]
    return [Note(f"flops_per_token_untied{wide}", emb=lookup, less=100 * (1 - whole / total), **fields)]


def _fastest_peak(part: dict[str, Any], prec: str) -> float:
    """The GPU's fastest dense peak a run at `prec` could reach: fp8's only for an fp8 run (a tf32 run on an MI300X,
    which lists no tf32 peak, is not held to its fp8 2,614.9 TFLOP/s)."""
    return max(v for k, v in part["peak_tflops"].items() if k != "fp8" or prec == "fp8")


def _beyond_peak(flops_per_s: float, part: dict[str, Any], gpu: str | None, prec: str) -> list:
    """A note when the measured baseline implies more FLOP/s than the GPU's fastest dense peak (fp8 aside, unless
    the run is fp8): no precision could run it, so a unit is off — tokens/s given as samples/s, or another
    --seq-len."""
    peak = _fastest_peak(part, prec)
    return [Note("beyond_peak", tflops=flops_per_s / 1e12, gpu=gpu, peak=peak)] if flops_per_s > peak * 1e12 else []


def _step_time_floor(flops_per_s: float, step_s: float, part: dict[str, Any], gpu: str | None, prec: str) -> list:
    """A note when a measured --step-time implies under STEP_FLOOR_MFU of the GPU's peak at its precision: seconds
    are asked, and predict's own table shows milliseconds (its 'step ms'); E is computed as given."""
    peak = part["peak_tflops"].get(prec) or _fastest_peak(part, prec)  # (fp8's own only for an fp8 run)
    # PyTorch runs fp32 on TF32 tensor cores where it can (convolutions by default): a real A100 step of BERT-large
    # is 2× fp32's 19.5, its ms slip 0.2 % of the fp32 peak (review HU)
    if prec == "fp32":
        peak = max(peak, part["peak_tflops"].get("tf32", 0.0))
    if flops_per_s >= STEP_FLOOR_MFU * peak * 1e12:
        return []
    return [Note("step_time_slow", s=step_s, tflops=flops_per_s / 1e12, pct=100 * flops_per_s / (peak * 1e12),
                 gpu=gpu, peak=peak, flag=f"--step-time {step_s / 1000:g}")]  # fmt: skip


def _measured_mfu(flops: float, measured: float, d0: int, part: dict[str, Any], gpu: str | None, prec: str,
                  top: tuple[int, float], said: list) -> list:  # fmt: skip
    """The model-FLOPs utilisation a measured baseline implies: `flops` a sample × `measured` samples/s a device at d0
    ÷ the GPU's dense peak at `prec`, and at the largest size d (`top`: d and E there against d0's, E vs d0, or E
    where d0 is one device) that share × E, what each device of the cluster delivers. Nothing where the precision has
    no peak, nor where `said` already holds the FLOP rate as a unit slip (beyond_peak, step_time_slow), nor past the
    precision's own peak (below the fastest, beyond_peak's bound: --precision is off, not the unit); the cluster's
    share neither, where a sweep below d0 (E vs d0 above 1) lifts it past 100 %: the measured share alone then."""
    peak = part["peak_tflops"].get(prec)
    if peak is None or any(getattr(n, "key", "") in ("beyond_peak", "step_time_slow") for n in said):
        return []
    pct0 = 100 * flops * measured / (peak * 1e12)
    if pct0 > 100:  # past the precision's own peak (predict's default fp32 for a bf16 run): no utilisation to say
        return []
    fields = dict(gflop=flops / 1e9, v=measured, d0=d0, pct0=pct0, peak=peak, gpu=gpu, prec=prec)
    d, e = top
    # the sweep ends at the measured size (its share is the cluster's), or one below it would deliver past the peak
    # (99 % at 16 devices × E vs d0 1.021 at 4 read '101 %', review JC): no utilisation at d to say
    if d == d0 or pct0 * e > 100:
        return [Note("measured_mfu_alone", **fields)]
    return [Note("measured_mfu_vs_d0" if d0 > 1 else "measured_mfu", d=d, e=e, e_said=e3(e), pct=pct0 * e, **fields)]


def _where_e_goes(d: np.ndarray, b: Any, eff: np.ndarray, alone: Any) -> list:
    """Where E goes at the largest size: the step is compute + exposed all-reduce + synchronisation wait + input stall
    (stepmodel.step_time), and E is compute / step there — so 1 − E is the other three over the step — wherever one
    device's own step is its compute. Nothing where a loader already stalls one device (E is then against that
    stalled step, not the compute), nor at one device (nothing lost)."""
    i = int(d.argmax())
    if d[i] <= 1 or float(np.ravel(alone.input_stall_s)[0]) > 0:
        return []
    step = float(b.step_s[i])
    comm, wait, stall = (100 * float(getattr(b, k)[i]) / step for k in ("exposed_s", "sync_wait_s", "input_stall_s"))
    e = float(eff[i])
    fields = dict(d=int(d[i]), e=e, e_said=e3(e), lost=100 * (1 - e), comm=comm, wait=wait)
    return [Note("e_lost_input", stall=stall, **fields) if stall > 0 else Note("e_lost", **fields)]


def _decode_caution(per_device: float, n: int, cores: float) -> list:
    """A note when n busy devices of one node would need more images/s than its CPUs decode (DECODE_PER_CORE);
    none when one device alone already runs faster than that (its loader cannot be decoding on the CPU)."""
    cap = cores * DECODE_PER_CORE
    if per_device * n <= cap or per_device > cap:
        return []
    return [Note("cpu_decode", n=n, need=per_device * n, cores=cores, cap=cap, rate=DECODE_PER_CORE)]
