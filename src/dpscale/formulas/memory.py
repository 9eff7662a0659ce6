"""Memory per device: model states under DDP and ZeRO/FSDP, transformer activations, and the fit.

Data parallelism replicates the model, so the whole training state must fit on every device
unless it is sharded (../shared/reference/physics.md §5). For Ψ parameters and N devices,
with P, G bytes per parameter for parameters and gradients and K for optimizer states [ZERO]:
    stage 0 (DDP)                      (P + G + K)·Ψ
    stage 1 (optimizer states sharded) (P + G)·Ψ + K·Ψ/N
    stage 2 (+ gradients sharded)      P·Ψ + (G + K)·Ψ/N       (≈ FSDP SHARD_GRAD_OP)
    stage 3 (+ parameters sharded)     (P + G + K)·Ψ/N         (≈ FSDP FULL_SHARD)
Mixed-precision Adam is P = G = 2, K = 12 (fp32 master, momentum, variance): 16Ψ for DDP.
Activations follow Korthikanti et al. [KORTH22] per transformer layer (16-bit), times the layers;
ZeRO does not shard them — only a smaller micro-batch, recomputation or model parallelism does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from dpscale.errors import (
    MAX_DEVICES,
    DpscaleError,
    check_count,
    check_devices,
    check_flag,
    check_params,
    check_positive,
    check_range,
    choice,
    fail,
    is_array,
    one,
)
from dpscale.formulas.units import DTYPE_NAMES, GIB, MIB, without_module

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from dpscale.errors import Number, Numbers, Values
else:
    Values = TypeVar("Values")  # (typing's: a type checker reads errors.Values, which defaults to Any)

MAX_DEVICE_GB = 4096  # no accelerator holds more; a larger --gpu-memory was likely typed in MiB
MIN_DEVICE_GB = 0.1  # nor less: 1e-7 GB (107 bytes) is a typo, not a device whose activations "fill it"
# devices × tensor_parallel: the GPUs in all, bounded as every device count is (10,000,000 data-parallel ranks of
# 10,000,000 GPUs each planned 10^14 GPUs, where pipeline refuses a total past MAX_DEVICES)
GPUS_IN_ALL = f"a degree that keeps the GPUs in all (devices × tensor-parallel) at most {MAX_DEVICES:,}"
TIGHT = 0.05  # headroom below this share of the device: the CUDA context and fragmentation may take it


def device_bytes(memory_gb: float, usable_mib: float | None = None) -> float:
    """Bytes an accelerator sold as `memory_gb` GB holds: HBM comes in binary units, so an '80 GB' H100 or
    A100 holds 80 GiB = 85.9e9 bytes (nvidia-smi: 81,559 MiB on an H100 after its reserved part). Where the
    catalog has the total nvidia-smi shows (`usable_mib`), that: ECC holds back 1/16 of a GDDR6 card (an L40S
    sold as 48 GB shows 46,068 MiB, 6 % under 48 GiB), which HBM's side-band ECC does not."""
    sold = check_positive(memory_gb, "memory_gb", "a device memory in GB as sold, > 0") * GIB
    return sold if usable_mib is None else check_positive(usable_mib, "usable_mib", "MiB > 0") * MIB


STAGES = (0, 1, 2, 3)
STAGE_NAMES = {0: "DDP", 1: "ZeRO-1", 2: "ZeRO-2", 3: "ZeRO-3 / FSDP full shard"}
OPTIMIZERS = ("adam", "adamw", "sgd")  # AdamW: Adam's m and v, weight decay applied apart
PRECISIONS = ("mixed", "amp", "fp32", "bf16", "fp8")
# predict's names that say a different thing here: fp16 training keeps an fp32 master (mixed, unless pure fp16 is
# meant, which nobody trains), tf32 is fp32's storage. Said, not guessed: bf16 is pure here and mixed in predict.
PREDICT_NAMES = "fp16 training with an fp32 master is mixed here, tf32 is stored as fp32"
RECOMPUTE = ("none", "selective", "full")
# FlashAttention keeps no a·s² attention scores, as selective recompute does not [KORTH22 §4.2; Dao et al. 2022]:
# what a user running it types, read as selective (the activation note and the JSON then say 'selective')
RECOMPUTE_ALIASES = {"flash": "selective", "flashattention": "selective", "flash-attention": "selective",
                     "flash_attention": "selective"}  # fmt: skip
# Bytes per stored activation value: Korthikanti's constants count 16-bit values; an fp32 run stores 4 bytes.
ACTIVATION_BYTES = {"mixed": 2, "amp": 2, "bf16": 2, "fp32": 4, "fp8": 2}  # (fp8: the bf16 run it rides on)

# (parameter bytes P, gradient bytes G, optimizer-state bytes K) per parameter.
# mixed: 16-bit params/grads + fp32 master copy [ZERO]; amp: torch.autocast, whose parameters, gradients and
# states stay fp32 (the same 16 bytes with Adam, split otherwise: sharding moves other bytes) and whose activations
# are 16-bit (autocast casts ops, not tensors: https://pytorch.org/docs/stable/amp); bf16: pure 16-bit, states in
# bf16; sgd has momentum.
BYTES: dict[tuple[str, str], tuple[int, int, int]] = {
    ("mixed", "adam"): (2, 2, 12),  # master 4 + m 4 + v 4 [ZERO]
    ("mixed", "sgd"): (2, 2, 8),  # master 4 + momentum 4
    ("amp", "adam"): (4, 4, 8),  # fp32 weights and gradients, m 4 + v 4
    ("amp", "sgd"): (4, 4, 4),  # momentum 4
    ("fp32", "adam"): (4, 4, 8),  # m 4 + v 4
    ("fp32", "sgd"): (4, 4, 4),  # momentum 4
    ("bf16", "adam"): (2, 2, 4),  # m 2 + v 2
    ("bf16", "sgd"): (2, 2, 2),  # momentum 2
    # fp8 (Transformer Engine on Megatron-LM's --bf16): bf16 weights, gradients accumulated and reduced in fp32
    # (predict's fp8), fp32 master + m + v: Megatron's "float16 param, fp32 grads" row, 18 bytes, 6 + 12/d with its
    # distributed optimizer (= ZeRO-1) [MEG-DISTOPT: NVIDIA/Megatron-LM docs/source/api-guide/dist_optimizer.md]
    ("fp8", "adam"): (2, 4, 12),
    ("fp8", "sgd"): (2, 4, 8),  # master 4 + momentum 4
}


def check_precision(x: Any, name: str = "precision") -> str:
    """One of PRECISIONS, or torch's dtype name for one (bfloat16, float32), with its module as a script writes it
    (torch.bfloat16, as predict's reader takes it); predict's fp16 and tf32 are told what they are called here."""
    bare = without_module(x.strip().lower()) if isinstance(x, str) else ""  # ("" is no name: choice refuses x)
    if DTYPE_NAMES.get(bare, bare) in ("fp16", "half", "tf32"):  # (half: predict's fp16, torch.half too)
        raise fail(name, x, f"{', '.join(PRECISIONS)} ({PREDICT_NAMES})")  # (errors echo x as typed)
    if bare in DTYPE_NAMES:
        return DTYPE_NAMES[bare]
    return choice(x, name, PRECISIONS)


def check_recompute(x: Any, name: str = "recompute") -> str:
    """One of RECOMPUTE, in any case; FlashAttention's names ('flash') read as selective."""
    if isinstance(x, str) and x.strip().lower() in RECOMPUTE_ALIASES:
        return RECOMPUTE_ALIASES[x.strip().lower()]
    return choice(x, name, RECOMPUTE)


def bytes_per_parameter(optimizer: str = "adam", precision: str = "mixed") -> tuple[int, int, int]:
    """(P, G, K): bytes per parameter for parameters, gradients and optimizer states."""
    # (an array here raised numpy's ambiguity error or 'unhashable', not this line)
    optimizer, precision = choice(optimizer, "optimizer", OPTIMIZERS), check_precision(precision)
    return BYTES[(precision, "adam" if optimizer == "adamw" else optimizer)]


@dataclass(frozen=True, slots=True, repr=False)  # arrays cut as a ScaleResult's (short_repr)
class ModelStates(Generic[Values]):
    """Per-device bytes of parameters, gradients and optimizer states at one ZeRO stage: numbers, or arrays where
    params or devices were arrays. params is what one tensor-parallel slice holds (params / tensor_parallel), the
    count the bytes are of; the CLI's JSON reports the whole model's."""

    params: float | Values  # (a sweep of sizes keeps one model)
    devices: Values
    stage: int
    parameter_bytes: Values
    gradient_bytes: Values
    optimizer_bytes: Values

    def __repr__(self) -> str:
        from dpscale.formulas.scaling import short_repr  # here: `dpscale memory` never writes a repr (2 ms saved)

        return short_repr(self, self.__slots__)

    def __eq__(self, other: object) -> bool:  # a sweep's arrays by value (a dataclass's == raised ValueError)
        from dpscale.formulas.scaling import same_fields

        return same_fields(self, other, self.__slots__)

    @property
    def total(self) -> Values:
        # (a float's or an array's own sum, of its own type: Values reads no `+` where it is neither)
        return self.parameter_bytes + self.gradient_bytes + self.optimizer_bytes  # type: ignore[operator]


def ddp_bucket_bytes(params: float, precision: str = "mixed", tensor_parallel: int = 1) -> tuple[float, float]:
    """(bytes, bytes under torch.autocast) of PyTorch DDP's default gradient-bucket copy, one gradient per
    parameter: G·Ψ at this precision, and fp32 for 'mixed' run by torch.autocast (its gradients stay fp32, unlike
    the ZeRO paper's 16-bit ones; 'amp' counts them so already). gradient_as_bucket_view=True drops the copy."""
    precision = check_precision(precision)  # ('MIXED' is 'mixed', and doubled as it)
    grads = model_states(params, 1, 0, "adam", precision, tensor_parallel).gradient_bytes
    return grads, 2 * grads if precision == "mixed" else grads


def is_stage(stage: object) -> bool:
    """0–3 as an int (numpy's too, or 1.0); True is not stage 1 (nor numpy's True) and a list is not a stage."""
    if isinstance(stage, bool) or getattr(getattr(stage, "dtype", None), "kind", "") == "b":
        return False
    try:
        return stage in STAGES and int(stage) == stage  # type: ignore[call-overload]
    except (TypeError, ValueError, ArithmeticError):  # an array's truth value is ambiguous; Decimal('sNaN') signals
        return False


@overload
def model_states(params: Number, devices: Number, stage: Any = ..., optimizer: str = ..., precision: str = ...,
                 tensor_parallel: Number = ...) -> ModelStates[float]: ...  # fmt: skip
@overload
def model_states(params: Number, devices: Numbers, stage: Any = ..., optimizer: str = ..., precision: str = ...,
                 tensor_parallel: Number = ...) -> ModelStates[NDArray[Any]]: ...  # fmt: skip
@overload
def model_states(params: Any, devices: Any, stage: Any = ..., optimizer: str = ..., precision: str = ...,
                 tensor_parallel: Any = ...) -> ModelStates: ...  # fmt: skip


def model_states(
    params: Any,
    devices: Any,
    stage: Any = 0,
    optimizer: str = "adam",
    precision: str = "mixed",
    tensor_parallel: Any = 1,
) -> ModelStates:
    """Model-state bytes per device for DDP (stage 0) and ZeRO stages 1–3 [ZERO]. Tensor parallelism splits
    the weights t ways first (Megatron: every layer's matrices and the vocabulary), so a device holds the states
    of params/t, which ZeRO then shards across the `devices` data-parallel ranks.

    Returns a ModelStates: `parameter_bytes`, `gradient_bytes`, `optimizer_bytes` and their `total`, bytes per
    device (numbers, or arrays where params or devices were).

    >>> round(model_states(7.5e9, 64, 1).total / 1e9, 1)
    31.4
    """
    t = check_devices(tensor_parallel, "tensor_parallel", MAX_DEVICES)
    psi = check_params(params) / t
    n = check_devices(devices, "devices", MAX_DEVICES)
    gpus = n * t  # per size where either is a sweep ([2, 4] degrees: an array, whose truth value raised ValueError)
    if (gpus.max() if is_array(gpus) and gpus.ndim else gpus) > MAX_DEVICES:
        raise fail("tensor_parallel", tensor_parallel, GPUS_IN_ALL)
    cuts = _sharded(stage)
    p, g, k = (b * psi / n if cut else b * psi for b, cut in zip(bytes_per_parameter(optimizer, precision), cuts))
    # every part per size where a sweep was given: DDP's over range(1, 65) was one number, so .total did not line up
    # with the devices it was plotted against
    if any(is_array(x) and x.ndim for x in (psi, n)):
        import numpy as np  # (loaded: an input is an array)

        p, g, k = (np.array(x, dtype=float) for x in np.broadcast_arrays(p, g, k, psi, n)[:3])
    return ModelStates(psi, n, int(stage), p, g, k)


def _sharded(stage: int) -> tuple[bool, bool, bool]:
    """Which of P, G, K a stage shards: stage s shards K, then G, then P [ZERO]."""
    if not is_stage(stage):
        raise fail("stage", stage, "0, 1, 2 or 3")
    return stage >= 3, stage >= 2, stage >= 1


def state_split(
    params: float, stage: int = 0, optimizer: str = "adam", precision: str = "mixed", tensor_parallel: int = 1
) -> tuple[float, float]:
    """(whole, sharded) model-state bytes: a device holds whole + sharded/n on n data-parallel devices — what
    `model_states` gives, for a curve of n at once (the predictor's memory note) or solved for n (devices_needed)."""
    at_one = model_states(params, 1, stage, optimizer, precision, tensor_parallel)
    parts = list(zip((at_one.parameter_bytes, at_one.gradient_bytes, at_one.optimizer_bytes), _sharded(stage)))
    return sum(b for b, cut in parts if not cut), sum(b for b, cut in parts if cut)


@dataclass(frozen=True, slots=True)
class Shape:
    """A transformer's shape for activation memory: layers L, hidden h, heads a, sequence s; key-value heads for
    grouped-query attention (None: one per head), which tensor parallelism must split as it splits the heads; the
    queries' width w, heads × head_dim, where it is not h (None: h) — a Hugging Face config's `attention_width`:
    Gemma 7B's 16 × 256 = 4,096 on 3,072, Mistral Nemo's 32 × 128 = 4,096 on 5,120."""

    layers: int
    hidden: int
    heads: int
    seq_len: int
    kv_heads: int | None = None
    attention_width: int | None = None

    def __post_init__(self) -> None:  # a negative layer count gave negative bytes
        for name in ("layers", "hidden", "heads", "seq_len", "kv_heads", "attention_width"):
            if getattr(self, name) is not None:
                check_count(getattr(self, name), name)

    @classmethod
    def of(cls, preset: dict, seq_len: int | None = None) -> Shape:
        """From a catalog model entry, at its own sequence length unless one is given; CNN presets have no
        transformer shape."""
        if preset.get("kind") != "transformer":
            raise DpscaleError(
                f"preset: {preset.get('key', '?')!r} is a {preset.get('kind', 'non-transformer')}; "
                "allowed: a transformer preset for activation memory (Korthikanti formulas)"
            )
        s = preset["seq_len"] if seq_len is None else seq_len
        return cls(preset["layers"], preset["hidden"], preset["heads"], s, preset.get("kv_heads"),
                   preset.get("attention_width"))  # fmt: skip

    @property
    def width(self) -> int:
        """The queries' width w: heads × head_dim, h unless the shape says another."""
        return self.attention_width or self.hidden


def activation_bytes_per_layer(
    shape: Shape,
    micro_batch: int = 1,
    tensor_parallel: int = 1,
    sequence_parallel: bool = False,
    recompute: str = "none",
    value_bytes: float = 2,
) -> float:
    """Activation bytes stored by one transformer layer [KORTH22, Table 2], whose constants count 16-bit values
    (value_bytes = 2) and 1-byte dropout masks: the 10 holds the two residual masks (sbh each), the 5as/h the
    attention's (as²b). Another width (fp32: 4) scales the values, not the masks: fp32 is s·b·h·(66 + 9as/h) at
    t = 1, as eager PyTorch stores it (validation/experiments/memory_vs_torch.py), not twice the 16-bit count.

    s·b·h·(10 + 24/t + 5·a·s/(h·t)) with tensor parallelism t (t = 1: 34 + 5as/h); of the 24, 8 are Q, K, V and
    the output projection's input, w wide where the heads are not h in all: (16 + 8w/h)/t (review KO: Gemma 7B's
    selective count was 7.8 % under);
    sequence parallelism divides the 10 too; selective recompute drops the 5as/h attention term;
    full recompute keeps only the layer input, 2·s·b·h (÷t with sequence parallelism).
    """
    b = check_count(micro_batch, "micro_batch")
    t = check_devices(tensor_parallel, "tensor_parallel", MAX_DEVICES)
    sequence_parallel = check_flag(sequence_parallel, "sequence_parallel")  # "no" was read as on
    kv = shape.kv_heads or shape.heads
    if shape.heads % t or kv % t:  # Megatron splits the attention heads, their key-value groups and the MLP t ways
        raise fail("tensor_parallel", t, f"a divisor of the {shape.heads} attention heads" if kv == shape.heads
                   else f"a divisor of the {kv} key-value heads")  # fmt: skip
    if sequence_parallel and t == 1:  # it splits activations over the tensor-parallel group: none to split over
        raise fail("sequence_parallel", True, "with tensor_parallel > 1 (it shards over the tensor-parallel group)")
    recompute = check_recompute(recompute)  # (an array here raised numpy's ambiguity error)
    s, h, a = shape.seq_len, shape.hidden, shape.heads
    sbh = s * b * h
    width = check_positive(value_bytes, "value_bytes", "bytes per activation value > 0") / 2
    if recompute == "full":
        return width * 2 * sbh / (t if sequence_parallel else 1)
    # 8 + 2 masks, 4 + 1 mask: 10 and 5 at 16 bits, bit for bit (fp32's masks were doubled: 68 + 10as/h, 3–11 % over)
    attention = 0.0 if recompute == "selective" else (4 * width + 1) * a * s / (h * t)
    replicated = (8 * width + 2) / (t if sequence_parallel else 1)
    return sbh * (replicated + (16 + 8 * shape.width / h) * width / t + attention)


def gpt_over_swiglu(shape: Shape, ffn: int, tensor_parallel: int = 1, sequence_parallel: bool = False,
                    value_bytes: float = 2) -> float:  # fmt: skip
    """How many times Korthikanti's count without recompute (GPT-3's layer: s·b·h·(10 + 24/t + 5as/(ht)), the 10
    ÷ t too with sequence parallelism) holds what a Llama-style layer stores [KORTH22 §4.1's accounting, derived]:
    no dropout (GPT's two residual masks, 2sbh, and the attention's mask and dropout output, 3as²b, go), RMSNorm
    inputs as LayerNorm's, a SwiGLU MLP of width f keeping its input and four f-wide tensors (gate, its SiLU, up,
    their product) in place of GPT's 16sbh: s·b·h·(8 + (8 + 8f/h + 2as/h)/t), the 8 ÷ t too with sequence
    parallelism (K and V counted whole, as an unfused attention expands grouped ones). Above 1 the table
    overstates such a model; below 1 — short sequences, where the scores it drops weigh little — it understates.
    At another width (fp32: value_bytes 4) both count their values so, GPT's 1-byte masks still one byte (as
    activation_bytes_per_layer), and a Llama layer has no mask: fp32 is (18 + 48 + 9as/h) against 2·(16 + 8f/h
    + 2as/h) at t = 1, not the 16-bit ratio.

    >>> round(gpt_over_swiglu(Shape(32, 4096, 32, 4096), 11008), 2)  # Llama 2 7B: (34 + 160)/(37.5 + 64)
    1.91
    >>> round(gpt_over_swiglu(Shape(32, 4096, 32, 128), 14336), 3)  # Llama 3 8B at 128 tokens: 39/46
    0.848
    """
    t = check_devices(tensor_parallel, "tensor_parallel", MAX_DEVICES)
    f = check_count(ffn, "ffn")
    x = shape.heads * shape.seq_len / shape.hidden  # as/h
    shared = 1 / t if check_flag(sequence_parallel, "sequence_parallel") else 1.0
    w = check_positive(value_bytes, "value_bytes", "bytes per activation value > 0") / 2
    # (8w + 2, 24w, 4w + 1: activation_bytes_per_layer's values and masks; 10, 24, 5 at 16 bits, bit for bit)
    q = shape.width / shape.hidden  # (Q, K, V and the output projection's input: 8·w/h of each count)
    gpt = (8 * w + 2) * shared + ((16 + 8 * q) * w + (4 * w + 1) * x) / t
    return gpt / (w * (8 * shared + (8 * q + 8 * f / shape.hidden + 2 * x) / t))


def activation_bytes(shape: Shape, micro_batch: int = 1, **kw: object) -> float:
    """All layers' activations (embeddings and the output layer are left out: a few % for deep models)."""
    return shape.layers * activation_bytes_per_layer(shape, micro_batch, **kw)  # type: ignore[arg-type]


def logits_bytes(seq_len: int, micro_batch: int, vocab: int, value_bytes: float = 2,
                 tensor_parallel: int = 1) -> tuple[float, float]:  # fmt: skip
    """The output layer's logits, which the per-layer count leaves out: (held at the activations' width, the peak
    while an unfused cross-entropy runs — an fp32 copy of 16-bit logits and the fp32 log-softmax it keeps for
    backward, 2 + 4 + 4 bytes a value). Megatron splits the vocabulary over tensor parallelism."""
    values = seq_len * micro_batch * vocab / tensor_parallel
    return values * value_bytes, values * (value_bytes + (4 if value_bytes < 4 else 0) + 4)


def largest_layer_params(shape: Shape, vocab: int | None = None, ffn: int | None = None) -> int:
    """Parameters of a transformer's largest module with weights of its own, the one ZeRO-3 gathers whole at its
    peak: the V×h embedding, or else its largest matrix (h×f MLP, h×(w + 2w·kv/a) fused QKV, w the queries' width)."""
    h, w, kv = shape.hidden, shape.width, shape.kv_heads or shape.heads
    f = shape.hidden * 4 if ffn is None else check_count(ffn, "ffn")
    return max(h * f, h * (w + 2 * w * kv // shape.heads), 0 if vocab is None else check_count(vocab, "vocab") * h)


def gathered_bytes(shape: Shape, vocab: int | None = None, ffn: int | None = None, precision: str = "mixed",
                   tensor_parallel: int = 1) -> float:  # fmt: skip
    """Bytes ZeRO-3 (FSDP FULL_SHARD) holds unsharded beside its 1/N shard while a layer runs: that layer's
    parameters gathered whole and their gradients before the reduce-scatter, P + G bytes each. DeepSpeed's
    estimate_zero3_model_states_mem_needs adds it as 4 × the largest layer's parameters (fp16 P and G;
    deepspeed/runtime/zero/stage3.py), its largest layer the module with the most parameters of its own: a
    transformer's V×h embedding, or else its largest matrix (`largest_layer_params`), ÷ t as Megatron splits them.
    Not in the ZeRO paper's (P + G + K)Ψ/N, so at large N it is most of what a device holds."""
    t = check_devices(tensor_parallel, "tensor_parallel", MAX_DEVICES)
    p, g, _ = bytes_per_parameter("adam", precision)  # (the optimizer moves K alone)
    return (p + g) * largest_layer_params(shape, vocab, ffn) / t


@dataclass(frozen=True, slots=True)
class MemoryFit:
    """One stage's per-device need against a device's memory."""

    stage: int
    model_state_bytes_per_device: float
    activation_bytes_per_device: float
    total_bytes_per_device: float
    device_memory_bytes: float | None
    headroom_bytes: float | None  # memory − need; negative: does not fit
    fits: bool | None
    states: ModelStates | None = None  # the split (parameters, gradients, optimizer) behind the first figure
    optimizer: str = "adam"  # the setup the row was computed for, so advice on it needs no second telling
    precision: str = "mixed"
    tensor_parallel: int = 1


def _device_memory(x: float) -> float:
    """Bytes of one device, within the range the CLI's --gpu-memory takes in GB: 80 (GB typed as bytes) would
    find every stage a misfit, 80e12 (MB typed as bytes) room for a 5 T model."""
    lo, hi = device_bytes(MIN_DEVICE_GB), device_bytes(MAX_DEVICE_GB)

    def e(b: float, up: bool = False) -> str:  # 4 digits, the low bound rounded up and the high one down: 1.07e8
        m = 10 ** (math.floor(math.log10(b)) - 3)  # once read as allowed where 107,000,000 is under 2^30 / 10
        return f"{(math.ceil if up else math.floor)(b / m) * m:.4g}".replace("e+0", "e").replace("e+", "e")

    gib = f"{MIN_DEVICE_GB:g}–{MAX_DEVICE_GB:,} GiB; 80 GB is {e(device_bytes(80))}"
    allowed = f"bytes per device from {e(lo, up=True)} to {e(hi)} ({gib})"
    return check_range(one(x, "device_memory_bytes"), "device_memory_bytes", lo, hi, allowed)


def _activation(x: Any) -> Any:
    """Activation bytes per device, one number from 0 to 1e300 (fit_all's and devices_needed's)."""
    return check_range(one(x, "activation"), "activation", 0, 1e300, "activation bytes from 0 to 1e300")


def fit_all(
    params: Any,
    devices: Any,
    activation: Any = 0.0,
    device_memory_bytes: Any = None,
    optimizer: str = "adam",
    precision: str = "mixed",
    tensor_parallel: Any = 1,
) -> tuple[MemoryFit, ...]:
    """Every stage (0–3) against the device memory; activations are the same at every stage.

    activation and device_memory_bytes in bytes per device; params in parameters (7e9, not 7)."""
    # one configuration: a list of memories or activations raised numpy's ambiguity error in `fits`
    params, devices, tensor_parallel = (
        one(params, "params"),
        one(devices, "devices"),
        one(tensor_parallel, "tensor_parallel"),
    )
    if device_memory_bytes is not None:
        device_memory_bytes = _device_memory(device_memory_bytes)
    activation = _activation(activation)
    rows = []
    for stage in STAGES:
        states = model_states(params, devices, stage, optimizer, precision, tensor_parallel)
        need = states.total + activation
        room = None if device_memory_bytes is None else device_memory_bytes - need
        fits = None if room is None else room >= 0
        rows.append(MemoryFit(stage, states.total, activation, need, device_memory_bytes, room, fits, states,
                              optimizer, precision, tensor_parallel))  # fmt: skip
    return tuple(rows)


def devices_needed(
    params: float,
    activation: float,
    device_memory_bytes: float,
    optimizer: str = "adam",
    precision: str = "mixed",
    tensor_parallel: int = 1,
    stage: int = 3,
) -> int | None:
    """Fewest data-parallel devices over which a ZeRO stage fits: the states it shards shrink as 1/N, what it
    keeps whole (ZeRO-2 the parameters, ZeRO-1 the gradients too, DDP all) and the activations do not. None where
    those alone fill the device (more devices cannot help). The count may pass MAX_DEVICES (1e15 parameters on a
    0.1 GB device need 149 M under ZeRO-3): it is an answer, not an input."""
    room = _device_memory(device_memory_bytes) - _activation(activation)
    whole, sharded = state_split(params, stage, optimizer, precision, tensor_parallel)
    if not sharded:  # DDP: it fits on one device as on any count, or on none
        return 1 if whole <= room else None
    left = room - whole
    if left <= 0 or not sharded / left < 2**53:  # no room, or a sliver: no count of devices is a plan
        return None
    n = max(1, math.ceil(sharded / left))

    def states(n: int) -> float:  # model_states refuses more than MAX_DEVICES GPUs in all, an input bound
        return (
            model_states(params, n, stage, optimizer, precision, tensor_parallel).total
            if n * tensor_parallel <= MAX_DEVICES
            else whole + sharded / n
        )

    while states(n) > room:  # float edge at the ceil
        n += 1
    return n


def largest_micro_batch(
    fixed_bytes: float,
    device_memory_bytes: float,
    shape: Shape,
    tensor_parallel: int = 1,
    sequence_parallel: bool = False,
    recompute: str = "none",
    value_bytes: float = 2,
    most: int | None = None,
) -> int:
    """The largest micro-batch b whose activations fit beside `fixed_bytes` (a stage's model states per device,
    fit_all's model_state_bytes_per_device) by fit_all's own test, memory − need ≥ 0: the row at b fits and the row
    at b + 1 does not. Activations grow as s·b·h and nothing else does, so b = ⌊(memory − fixed) / activations of
    one sequence⌋, moved by one where the floats at that edge say otherwise. 0 where not even b = 1 fits; at most
    `most` where given (the CLI's largest micro-batch).

    >>> largest_micro_batch(37_061_285_888, 80 * 2**30, Shape(32, 4096, 32, 4096), recompute="selective")
    2
    """
    memory = _device_memory(device_memory_bytes)
    fixed = check_range(one(fixed_bytes, "fixed_bytes"), "fixed_bytes", 0, 1e300, "model-state bytes from 0 to 1e300")
    if most is not None:
        most = check_count(most, "most")

    def act(b: int) -> float:
        return activation_bytes(shape, b, tensor_parallel=tensor_parallel, sequence_parallel=sequence_parallel,
                                recompute=recompute, value_bytes=value_bytes)  # fmt: skip

    def fits(b: int) -> bool:  # fit_all's test, on fit_all's sum
        return memory - (fixed + act(b)) >= 0

    room = memory - fixed
    b = 0 if room <= 0 else min(math.floor(room / act(1)), 2**53 - 1 if most is None else most)
    while b > 0 and not fits(b):  # the float edge at the floor
        b -= 1
    while (most is None or b < most) and fits(b + 1):
        b += 1
    return b


@dataclass(frozen=True, slots=True)
class Advice:
    """One thing to tell a user about the fits: a message key (faces.i18n's mem_* labels) and its figures, bytes as
    numbers, so the CLI, the page and a library caller decide alike and only the wording is a face's."""

    key: str
    stage: int | None = None  # the least-sharded stage that fits
    devices: int | None = None  # ZeRO-3's fewest devices, where nothing fits
    zero2_devices: int | None = None  # ZeRO-2's and ZeRO-1's there (FSDP SHARD_GRAD_OP's traffic, not 1.5× DDP's);
    zero1_devices: int | None = None  # None beside `devices`: no count, what they keep whole fills the device
    room: float | None = None  # headroom of that stage, bytes
    copy: float | None = None  # DDP's default gradient-bucket copy, bytes
    copy_autocast: float | None = None  # the same under torch.autocast (fp32 gradients)


def fit_advice(fits: tuple[MemoryFit, ...]) -> tuple[Advice, ...]:
    """What the fits mean for a plan: the least-sharded stage that fits (or ZeRO-3's, ZeRO-2's and ZeRO-1's fewest
    devices where none does), whether its headroom is under TIGHT of the device, and whether DDP's default bucket
    copy would take the rest (gradient_as_bucket_view=True drops it). Empty without a device memory. fits: what
    fit_all returns (or some of its rows), whose model, optimizer and precision the advice reads."""
    _rows(fits)
    f = fits[0]
    setup = {(r.states.params if r.states else None, r.optimizer, r.precision, r.tensor_parallel,
              r.device_memory_bytes, r.activation_bytes_per_device) for r in fits}  # fmt: skip
    if len(setup) > 1 or f.states is None:  # rows of two setups would advise on neither
        raise fail("fits", fits, "the rows of one fit_all call (one model, optimizer, precision and device)")
    # (states hold params / T, a replica slice's: the whole count, as devices_needed and the bucket copy take it)
    params, optimizer, precision, tensor_parallel = (
        f.states.params * f.tensor_parallel,
        f.optimizer,
        f.precision,
        f.tensor_parallel,
    )
    memory, activation = f.device_memory_bytes, f.activation_bytes_per_device
    if memory is None:
        return ()
    best = least_sharded(fits)
    if best is None:  # say what would make it fit: more devices to shard over, unless activations alone fill it
        n3, n2, n1 = (devices_needed(params, activation, memory, optimizer, precision, tensor_parallel, s)
                      for s in (3, 2, 1))  # fmt: skip
        if n3 is None:
            return (Advice("mem_none_fits"),)
        key = "mem_none_fits_devices_act" if activation else "mem_none_fits_devices"
        return (Advice(key, devices=n3, zero2_devices=n2, zero1_devices=n1),)
    room = next(r.headroom_bytes for r in fits if r.stage == best)  # by stage: a caller may pass some rows
    assert room is not None  # a memory was given
    said = [Advice("mem_least", stage=best, room=room)]
    if room < TIGHT * memory:
        said.append(Advice("mem_tight", stage=best, room=room))
    if best == 0:  # DDP's default bucket copy (fp32 under torch.autocast) comes out of that room
        copy, autocast = ddp_bucket_bytes(params, precision, tensor_parallel)
        if room - copy < TIGHT * memory:  # the plain copy already overflows: not autocast's alone
            key = "mem_ddp_copy_tight_any" if autocast == copy else "mem_ddp_copy_tight_both"
            said.append(Advice(key, stage=0, room=room, copy=copy, copy_autocast=autocast))
        elif room - autocast < TIGHT * memory:
            said.append(Advice("mem_ddp_copy_tight", stage=0, room=room, copy=copy, copy_autocast=autocast))
    return tuple(said)


def least_sharded(fits: tuple[MemoryFit, ...]) -> int | None:
    """The lowest ZeRO stage that fits (less sharding, less communication), or None when none does. fits: what
    fit_all returns, given device_memory_bytes (without it nothing is known to fit: refused, not None)."""
    _rows(fits)
    if any(f.fits is None for f in fits):  # fit_all(7e9, 8) without a device: None read as 'not even ZeRO-3 fits'
        raise fail("fits", fits, "rows of fit_all(…, device_memory_bytes=…): without a device memory none can fit")
    return min((f.stage for f in fits if f.fits), default=None)  # the lowest, in whatever order they come


def _rows(fits: Any) -> None:
    """fits are MemoryFit rows, one per stage (least_sharded([1, 2]) raised AttributeError)."""
    if (not isinstance(fits, (list, tuple)) or not fits or not all(isinstance(f, MemoryFit) for f in fits)
            or len({f.stage for f in fits}) < len(fits)):  # fmt: skip
        raise fail("fits", fits, "the rows fit_all returns (MemoryFit, one per ZeRO stage)")


__all__ = [
    "BYTES",
    "Advice",
    "MAX_DEVICE_GB",
    "MIN_DEVICE_GB",
    "OPTIMIZERS",
    "PRECISIONS",
    "check_precision",
    "RECOMPUTE",
    "RECOMPUTE_ALIASES",
    "check_recompute",
    "STAGES",
    "STAGE_NAMES",
    "MemoryFit",
    "ModelStates",
    "Shape",
    "activation_bytes",
    "activation_bytes_per_layer",
    "fit_advice",
    "gathered_bytes",
    "largest_layer_params",
    "gpt_over_swiglu",
    "bytes_per_parameter",
    "ddp_bucket_bytes",
    "device_bytes",
    "devices_needed",
    "fit_all",
    "is_stage",
    "largest_micro_batch",
    "least_sharded",
    "model_states",
]
