"""Batch-size science for data parallelism: the global batch, learning-rate scaling, critical batch.

d devices each taking micro-batch b_μ for k accumulation steps train on one global batch
B = b_μ·k·d per optimizer step (../shared/reference/physics.md §6). A bigger B needs a bigger
learning rate — the linear rule with gradual warm-up for SGD [GOYAL17], the square-root rule
for Adam/RMSprop [MALLADI22] — and past the critical batch B_crit ≈ B_noise [MCC18] extra
samples buy few saved steps:
    steps   S = S_min·(1 + B_noise/B)        samples E = E_min·(1 + B/B_noise),  E_min = B_noise·S_min
Time-to-target speedup over one device (weak scaling, per-device batch b, β = B_noise/b):
    Speedup(d) = E(d)·(1 + β)/(1 + β/d)      → d·E(d) when b ≪ B_noise, only E(d) when b ≫ B_noise
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from dpscale.errors import (
    MAX_DEVICES,
    check_count,
    check_devices,
    check_range,
    choice,
    fail,
    one_length,
    ones,
    plain,
)
from dpscale.formulas.scaling import check_source, same_fields, scale, short_repr

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from dpscale.errors import Number, Numbers, Values
    from dpscale.formulas.scaling import OneE
else:
    Values = TypeVar("Values")  # (typing's: a type checker reads errors.Values, which defaults to Any)

RULES = ("linear", "sqrt")
# The rule that suits each optimizer: SGD (with momentum) scales linearly [GOYAL17];
# adaptive methods (Adam, AdamW, RMSprop) by the square root [MALLADI22].
RULE_FOR = {"sgd": "linear", "adam": "sqrt", "adamw": "sqrt"}
GOYAL_WARMUP_EPOCHS = 5.0  # gradual warm-up used with the linear rule [GOYAL17]
GOYAL_MAX_BATCH = 8192  # largest batch Goyal et al. showed the linear rule holds at (ResNet-50)
FAR_PAST_NOISE = 2.0  # warn when B > 2·B_noise: ≥ 3× the minimum samples, ≤ 1/3 of steps left to save
# a reference batch this many times the global batch, or a global batch this many times it, at every size asked: the
# factor a batch in tokens makes against one in sequences (a language model's sequence length: 1,024 for GPT-2, 4,096
# for Llama 2, whose published 4 M tokens are 1,024 sequences), 16 times the widest rescaling of a learning rate the
# notes cite (Goyal's 256 → 8,192, 32×); the CLI says so (review IY)
SEQUENCE_FACTOR = 512


BATCH_RANGE = (1e-9, 2**53, "a batch size from 1e-9 to 2^53")  # bounds that keep the ratios below finite
NOISE_RANGE = (1e-9, 1e15, "a noise scale B_noise from 1e-9 to 1e15 samples")
LR_RANGE = (1e-12, 1e6, "a learning rate from 1e-12 to 1e6")
STEPS_RANGE = (1e-9, 1e15, "a step count from 1e-9 to 1e15")
WARMUP_RANGE = (0.0, 1e4, "a number of epochs from 0 to 10,000")  # (the flag's -1 was told '≥ 0', which 1e300 is)


def global_batch(micro_batch: int, grad_accum: int = 1, devices: int = 1) -> int:
    """Samples per optimizer step: micro-batch × accumulation steps × devices (32 × 1 × 4 = 128)."""
    b = check_count(micro_batch, "micro_batch")
    k = check_count(grad_accum, "grad_accum")
    d = check_count(devices, "devices", MAX_DEVICES)  # scale's ceiling, said of 0 too (10^8 was taken, review HT)
    if b * k * d > 2**53:  # 1e15 × 1e15 once printed a 31-digit global batch
        raise fail("micro_batch × grad_accum × devices", b * k * d, "a global batch of at most 2^53 samples")
    return b * k * d


@overload
def scaled_lr(base_lr: Number, base_batch: Number, batch: Number, rule: str = ...) -> float: ...
@overload
def scaled_lr(base_lr: Number, base_batch: Number, batch: Numbers, rule: str = ...) -> NDArray[np.float64]: ...
@overload
def scaled_lr(base_lr: Any, base_batch: Any, batch: Any, rule: str = ...) -> Any: ...


def scaled_lr(base_lr: Any, base_batch: Any, batch: Any, rule: str = "linear") -> Any:
    """Learning rate for `batch` from a reference (base_lr at base_batch): ×k (linear) or ×√k (sqrt).

    >>> round(scaled_lr(0.1, 256, 8192), 9)  # Goyal et al.: ResNet-50 at 8k
    3.2
    """
    lr0 = check_range(base_lr, "base_lr", *LR_RANGE)
    b0 = check_range(base_batch, "base_batch", *BATCH_RANGE)  # 1e-320: LR = ∞
    b = check_range(batch, "batch", *BATCH_RANGE)  # 1e308 samples gave an LR of inf
    rule = choice(rule, "rule", RULES)
    one_length((lr0, "base_lr"), (b0, "base_batch"), (b, "batch"))
    k = b / b0
    return lr0 * (k if rule == "linear" else k**0.5)  # (not math.sqrt: batches may be an array)


def steps_per_epoch(dataset_size: float, batch: int) -> int:
    """Optimizer steps to see the dataset once (the last partial batch counts as a step)."""
    n = check_range(
        dataset_size, "dataset_size", 1e-9, 1e15, "a sample count from 1e-9 to 1e15"
    )  # (1e300: a 300-digit count)
    b = check_devices(batch, "batch")
    return math.ceil(n / b)


@dataclass(frozen=True, slots=True, repr=False)  # 999 batches: a 39,000-character repr (short_repr)
class CriticalBatch(Generic[Values]):
    """McCandlish et al.'s trade-off at a fixed target loss for batch B and noise scale B_noise. Numbers for one
    batch; arrays (and far_past an array of bools) where the batch or the noise scale was an array."""

    batch: Values
    noise_scale: float | Values  # (a sweep of batches at one noise scale keeps it one number)
    steps_factor: Values  # S/S_min = 1 + B_noise/B
    samples_factor: Values  # E/E_min = 1 + B/B_noise
    steps: Values | None  # with S_min given (None without)
    samples: Values | None
    far_past: bool | Values  # B > FAR_PAST_NOISE·B_noise

    def __repr__(self) -> str:
        return short_repr(self, self.__slots__)

    def __eq__(self, other: object) -> bool:  # a sweep's arrays by value (a dataclass's == raised ValueError)
        return same_fields(self, other, self.__slots__)


@overload
def critical_batch(batch: Number, noise_scale: Number, min_steps: Number | None = ...) -> CriticalBatch[float]: ...
@overload
def critical_batch(
    batch: Numbers, noise_scale: Number, min_steps: Number | None = ...
) -> CriticalBatch[NDArray[Any]]: ...
@overload
def critical_batch(batch: Any, noise_scale: Any, min_steps: Any = ...) -> CriticalBatch: ...


def critical_batch(batch: Any, noise_scale: Any, min_steps: Any = None) -> CriticalBatch:
    """Steps and samples to a target loss relative to their minima (S_min at B → ∞, E_min at B → 0).

    batch (the global batch B) and noise_scale (B_noise) in samples, min_steps (S_min) in optimizer steps. Returns
    the factors S/S_min and E/E_min (ratios) and, with min_steps, `steps` (optimizer steps) and `samples`."""
    # bounded, so the products stay finite (a batch of 1e-320 made S/S_min = ∞, S_min = 1e308 made E = ∞)
    b = check_range(batch, "batch", *BATCH_RANGE)
    bn = check_range(noise_scale, "noise_scale", *NOISE_RANGE)
    one_length((b, "batch"), (bn, "noise_scale"))
    sf, ef = 1 + bn / b, 1 + b / bn
    steps = samples = None
    if min_steps is not None:
        s_min = check_range(min_steps, "min_steps", *STEPS_RANGE)
        one_length((b, "batch"), (bn, "noise_scale"), (s_min, "min_steps"))
        steps, samples = s_min * sf, bn * s_min * ef
    return CriticalBatch(b, bn, sf, ef, steps, samples, b > FAR_PAST_NOISE * bn)


@overload
def time_to_target_speedup(
    devices: Number, per_device_batch: Number, noise_scale: Number, efficiency: OneE
) -> float: ...
@overload
def time_to_target_speedup(
    devices: Numbers, per_device_batch: Number, noise_scale: Number, efficiency: OneE
) -> NDArray[np.float64]: ...
@overload
def time_to_target_speedup(devices: Any, per_device_batch: Any, noise_scale: Any, efficiency: Any) -> Any: ...


def time_to_target_speedup(devices: Any, per_device_batch: Any, noise_scale: Any, efficiency: Any) -> Any:
    """Wall-clock speedup to a target loss over one device, E(d)·(1 + β)/(1 + β/d), β = B_noise/b: a number for
    one size, an array for an array of sizes.

    The hardware side, d·E(d), comes from `scale`; the step ratio S(b)/S(d·b) converts it. per_device_batch b and
    noise_scale B_noise in samples; the result is a ratio (× one device's time to the same loss).
    """
    d = check_devices(devices, "devices", MAX_DEVICES)  # (0 was told '≥ 1', then 10^8 'from 1 to 10,000,000')
    b = check_range(per_device_batch, "per_device_batch", *BATCH_RANGE)  # 1e-320 made β = ∞ and the speedup nan
    bn = check_range(noise_scale, "noise_scale", *NOISE_RANGE)
    one_length((d, "devices"), (b, "per_device_batch"), (bn, "noise_scale"))
    beta = bn / b
    hardware = scale(d, 1.0, efficiency).speedup  # d·E(d)
    return hardware / d * (1 + beta) / (1 + beta / d)


@dataclass(frozen=True, slots=True)
class BatchPlan:
    """Everything `dpscale batch` reports for one device count (None where not asked)."""

    devices: int
    micro_batch: int
    grad_accum: int
    global_batch: int
    rule: str | None
    learning_rate: float | None
    steps_per_epoch: int | None
    warmup_epochs: float | None
    warmup_steps: int | None
    noise_scale: float | None
    steps_factor: float | None
    samples_factor: float | None
    steps_to_target: float | None
    samples_to_target: float | None
    hardware_speedup: float | None
    time_to_target_speedup: float | None
    far_past_noise: bool | None
    past_goyal: bool | None  # the linear rule past 8,192, the largest batch Goyal et al. showed it holds at

    def record(self) -> dict:
        """Plain dict without the keys that were not asked for."""
        return {f: plain(getattr(self, f)) for f in self.__slots__ if getattr(self, f) is not None}


def batch_plan(
    micro_batch: Any,
    devices: Any = 1,
    grad_accum: Any = 1,
    base_lr: Any = None,
    base_batch: Any = None,
    rule: str | None = None,
    optimizer: str = "sgd",
    dataset_size: Any = None,
    warmup_epochs: Any = None,
    noise_scale: Any = None,
    min_steps: Any = None,
    efficiency: Any = None,
) -> BatchPlan:
    """Global batch and, as inputs allow, learning rate, warm-up, steps per epoch, critical-batch view.

    rule defaults to the optimizer's (sgd → linear, adam → sqrt); warm-up defaults to Goyal's 5 epochs
    with the linear rule when the batch grew, none otherwise. Batches and dataset_size are in samples,
    noise_scale (B_noise) in samples, warmup_epochs in epochs; micro_batch, devices and grad_accum one whole number
    each (the CLI loops over sizes). efficiency, a number or an E(d) source (a law, a fit, a prediction), adds the
    hardware speedup d·E(d) and, with noise_scale, the time-to-target speedup.

    Returns a BatchPlan: `global_batch`, `learning_rate` (in base_lr's unit), `warmup_steps`, `steps_per_epoch`,
    `steps_factor`, `hardware_speedup`, `time_to_target_speedup` (None where not asked), and `record()`.
    """
    # one number each: a list raised numpy's 'truth value … is ambiguous' or 'doesn't define __round__'
    base_lr, base_batch, dataset_size, warmup_epochs, noise_scale, min_steps = ones(
        (base_lr, "base_lr"), (base_batch, "base_batch"), (dataset_size, "dataset_size"),
        (warmup_epochs, "warmup_epochs"), (noise_scale, "noise_scale"), (min_steps, "min_steps"),
    )  # fmt: skip
    gb = global_batch(micro_batch, grad_accum, devices)
    # the checked counts as ints ([32] and np.array([8]) are one count; int() of them raised a TypeError below)
    micro_batch, grad_accum = check_count(micro_batch, "micro_batch"), check_count(grad_accum, "grad_accum")
    devices = check_count(devices, "devices", MAX_DEVICES)
    chosen, lr, warmup_epochs = _learning_rate(gb, base_lr, base_batch, rule, optimizer, warmup_epochs)
    spe = steps_per_epoch(dataset_size, gb) if dataset_size is not None else None
    warm_steps = round(warmup_epochs * spe) if warmup_epochs is not None and spe is not None else None
    cb = _critical(gb, noise_scale, min_steps)
    hw, tt = _speedups(devices, gb, noise_scale, efficiency)
    # (the ignores: `cb and cb.x` is cb.x or None — a CriticalBatch is never falsy, but mypy allows a subclass to be)
    return BatchPlan(
        devices=int(devices),
        micro_batch=int(micro_batch),
        grad_accum=int(grad_accum),
        global_batch=gb,
        rule=chosen,
        learning_rate=lr,
        steps_per_epoch=spe,
        warmup_epochs=warmup_epochs,
        warmup_steps=warm_steps,
        noise_scale=noise_scale,
        steps_factor=cb and cb.steps_factor,  # type: ignore[arg-type]
        samples_factor=cb and cb.samples_factor,  # type: ignore[arg-type]
        steps_to_target=cb and cb.steps,  # type: ignore[arg-type]
        samples_to_target=cb and cb.samples,  # type: ignore[arg-type]
        hardware_speedup=hw,
        time_to_target_speedup=tt,
        far_past_noise=cb and cb.far_past,  # type: ignore[arg-type]
        # said by the library too (the CLI alone said it, so batch_plan's callers scaled to 64k unwarned)
        past_goyal=gb > GOYAL_MAX_BATCH if chosen == "linear" else None,
    )


def _learning_rate(
    gb: int, base_lr: Any, base_batch: Any, rule: str | None, optimizer: str, warmup_epochs: Any
) -> tuple[str | None, Any, Any]:
    """The rule, the scaled LR and the warm-up: all three shaped by the reference (base_lr at base_batch)."""
    optimizer = choice(optimizer, "optimizer", tuple(RULE_FOR))  # 'lamb' or rule='bogus' once returned quietly
    rule = None if rule is None else choice(rule, "rule", RULES)
    lr = chosen = None
    if base_lr is None and base_batch is None:
        for name, value in (("rule", rule), ("warmup_epochs", warmup_epochs)):  # both shape a learning rate: none
            if value is not None:
                raise fail(name, value, "with base_lr and base_batch (the reference learning rate)")
    else:
        if base_lr is None or base_batch is None:
            raise fail("base_lr/base_batch", base_lr if base_lr is not None else base_batch, "both, or neither")
        chosen = rule or RULE_FOR[optimizer]
        base_batch = check_count(base_batch, "base_batch")  # samples, as --base-batch takes them: 2.5 scaled by 102.4
        lr = scaled_lr(base_lr, base_batch, gb, chosen)
        if warmup_epochs is None and chosen == "linear" and gb > base_batch:
            warmup_epochs = GOYAL_WARMUP_EPOCHS
    if warmup_epochs is not None:
        # (+ 0.0: --warmup-epochs -0 was written "warmup_epochs": -0.0 in the JSON and the CSV)
        warmup_epochs = check_range(warmup_epochs, "warmup_epochs", *WARMUP_RANGE) + 0.0
    return chosen, lr, warmup_epochs


def _critical(gb: int, noise_scale: Any, min_steps: Any) -> CriticalBatch | None:
    """McCandlish's trade-off at the global batch, where B_noise is given (S_min needs it)."""
    if min_steps is not None and noise_scale is None:  # S_min alone sets nothing: say so rather than drop it
        raise fail("min_steps", min_steps, "with noise_scale (B_noise), for steps = S_min·(1 + B_noise/B)")
    return critical_batch(gb, noise_scale, min_steps) if noise_scale is not None else None


def _speedups(devices: int, gb: int, noise_scale: Any, efficiency: Any) -> tuple[Any, Any]:
    """d·E(d) where an E source is given, and the time-to-target speedup where B_noise is too."""
    if efficiency is None:
        return None, None
    efficiency = check_source(efficiency)
    hw = scale(devices, 1.0, efficiency).speedup
    tt = time_to_target_speedup(devices, gb / devices, noise_scale, efficiency) if noise_scale is not None else None
    return hw, tt


__all__ = [
    "FAR_PAST_NOISE",
    "GOYAL_MAX_BATCH",
    "GOYAL_WARMUP_EPOCHS",
    "RULES",
    "RULE_FOR",
    "SEQUENCE_FACTOR",
    "BatchPlan",
    "CriticalBatch",
    "batch_plan",
    "critical_batch",
    "global_batch",
    "scaled_lr",
    "steps_per_epoch",
    "time_to_target_speedup",
]
