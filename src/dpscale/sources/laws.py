"""Sources of E as functions of d: a constant, a per-size table, Amdahl and the USL.

Every source has `efficiency(d)` (numpy-friendly) and `describe()`; fitted and predicted
sources elsewhere follow the same shape, so `scale`, `solve`, `plan` accept any of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from dpscale.errors import DpscaleError, check_efficiency, check_fraction, check_nonnegative, is_array


@dataclass(frozen=True)
class Constant:
    """One E for every size — what a single measurement gives; it does not carry across sizes."""

    value: float

    def __post_init__(self) -> None:
        check_efficiency(self.value, "efficiency")

    def efficiency(self, d: Any) -> Any:
        return d * 0 + self.value if is_array(d) else self.value

    def describe(self) -> str:
        return f"constant E = {self.value:g}"


@dataclass(frozen=True)
class PerSize:
    """Measured or chosen E at given sizes; asking for another size is an error, not a guess."""

    table: tuple[tuple[int, float], ...]

    @classmethod
    def of(cls, devices: list[int], efficiencies: list[float]) -> PerSize:
        if len(devices) != len(efficiencies):
            raise DpscaleError(
                f"efficiency: got {len(efficiencies)} values for {len(devices)} device counts; "
                "allowed: one efficiency per device count"
            )
        for e in efficiencies:
            check_efficiency(e, "efficiency")
        return cls(tuple(zip(devices, efficiencies)))

    def efficiency(self, d: Any) -> Any:
        lookup = dict(self.table)
        if is_array(d):
            import numpy as np

            return np.array([self._get(lookup, int(x)) for x in np.ravel(d)]).reshape(np.shape(d))
        return self._get(lookup, int(d))

    def _get(self, lookup: dict[int, float], d: int) -> float:
        if d not in lookup:
            sizes = ",".join(str(k) for k, _ in self.table)
            raise DpscaleError(f"efficiency: no value for {d} devices; allowed: the listed sizes {sizes}")
        return lookup[d]

    def describe(self) -> str:
        return "E per size: " + ", ".join(f"{d}→{e:g}" for d, e in self.table)


@dataclass(frozen=True)
class USL:
    """Universal Scalability Law: E(d) = 1 / (1 + σ(d−1) + κ·d(d−1)).

    σ is contention (a serial share), κ coherency (cost growing with every pair of devices);
    with κ > 0 throughput peaks at d* = √((1−σ)/κ) and falls beyond it.
    """

    sigma: float = 0.0
    kappa: float = 0.0

    def __post_init__(self) -> None:
        check_fraction(self.sigma, "sigma", "a contention σ in [0, 1)")
        check_nonnegative(self.kappa, "kappa")

    def efficiency(self, d: Any) -> Any:
        return 1.0 / (1.0 + self.sigma * (d - 1) + self.kappa * d * (d - 1))

    def peak_devices(self) -> float:
        """Size of maximum throughput, √((1−σ)/κ); infinite when κ = 0."""
        return math.inf if self.kappa == 0 else math.sqrt((1 - self.sigma) / self.kappa)

    def describe(self) -> str:
        return f"USL σ = {self.sigma:g}, κ = {self.kappa:g}"


@dataclass(frozen=True)
class Amdahl:
    """Amdahl's law: a serial fraction s never parallelises, so S(d) = 1/(s + (1−s)/d),
    E(d) = 1/(1 + s(d−1)) — the USL with κ = 0."""

    serial_fraction: float

    def __post_init__(self) -> None:
        check_fraction(self.serial_fraction, "serial_fraction", "a serial fraction in [0, 1)")

    def efficiency(self, d: Any) -> Any:
        return USL(self.serial_fraction, 0.0).efficiency(d)

    def describe(self) -> str:
        return f"Amdahl serial fraction = {self.serial_fraction:g}"


LAWS = ("constant", "amdahl", "usl")
