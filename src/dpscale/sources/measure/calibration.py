"""All-reduce results → nccl-tests-style rows and a fitted α–β calibration (no torch).

busbw = algbw · 2(n−1)/n (physics.md §1.2) so it is comparable to link bandwidth; the fit is
t(S) = α + β·S over message bytes S, weighted by relative error so small sizes (α) and large
sizes (β) both count. `busbw_gbs` is the asymptote 2(n−1)/n / β.
"""

from __future__ import annotations

import math
import re
from typing import Any

from dpscale.errors import PLAIN_DIGITS, fail, python_spelled
from dpscale.formulas.collectives import bus_bandwidth
from dpscale.formulas.units import GB, GIB, MIB
from dpscale.sources.measure import CALIBRATION_FORMAT

UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": MIB, "mb": MIB, "mib": MIB}
UNITS |= {"g": GIB, "gb": GIB, "gib": GIB}
MAX_BYTES = 4 * GIB
ALLOWED_SIZES = "bytes with K/M/G suffixes (binary): 1KB..256MB, 1KB..256MBx4, or a list 1KB,1MB,64MB (4 B to 4 GB)"


def parse_bytes(text: str, flag: str = "--sizes") -> int:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    if not m or m[2].lower() not in UNITS:
        raise fail(flag, text, ALLOWED_SIZES)
    x = float(m[1]) * UNITS[m[2].lower()]  # 400 digits read as inf: int() of it was an unnamed overflow
    if not 4 <= x <= MAX_BYTES:
        raise fail(flag, text, ALLOWED_SIZES)
    n = int(x)  # (in range too: x was)
    return n - n % 4  # whole float32 elements


def bytes_text(n: int) -> str:
    """A byte count as `parse_bytes` reads it back (1KB, 3MB, 4GB, else 1536B): the ranks' --sizes said in a refusal
    (with thousands' commas, '1,024,2,048' read as one number)."""
    for unit, k in (("GB", GIB), ("MB", MIB), ("KB", 1024)):
        if n % k == 0:
            return f"{n // k}{unit}"
    return f"{n}B"


def parse_sizes(text: str, flag: str = "--sizes") -> tuple[int, ...]:
    """'1KB..256MB' (×2 steps, like nccl-tests -f 2), '1KB..256MBx4', or '1KB,1MB' → sorted byte counts."""
    if python_spelled(str(text)):  # '1_0KB' (the CLI's parser says it first; the torchrun worker reads it here)
        raise fail(flag, text, PLAIN_DIGITS)
    text = str(text).strip()
    if ".." in text:
        m = re.fullmatch(r"(.+?)\.\.(.+?)(?:x(\d+))?", text)
        if not m:
            raise fail(flag, text, ALLOWED_SIZES)
        lo, hi, factor = parse_bytes(m[1], flag), parse_bytes(m[2], flag), int(m[3] or 2)
        if hi < lo or factor < 2:
            raise fail(flag, text, ALLOWED_SIZES)
        sizes, s = [], lo
        while s <= hi:
            sizes.append(s)
            s *= factor
        return tuple(sizes)
    return tuple(sorted({parse_bytes(t, flag) for t in text.split(",")}))


def row(nbytes: int, time_s: float, devices: int, iters: int) -> dict[str, Any]:
    return {
        "bytes": nbytes,
        "time_s": time_s,
        "algbw_gbs": nbytes / time_s / GB,
        "busbw_gbs": float(bus_bandwidth(nbytes, time_s, devices)),
        "iters": iters,
    }


def fit_alpha_beta(nbytes: list[float], times: list[float]) -> tuple[float, float]:
    """Least squares on relative error for t = α + β·S, with α, β ≥ 0."""
    w = [1.0 / t for t in times]
    # Normal equations of min Σ w²(α + βS − t)².
    a11 = sum(wi * wi for wi in w)
    a12 = sum(wi * wi * s for wi, s in zip(w, nbytes))
    a22 = sum(wi * wi * s * s for wi, s in zip(w, nbytes))
    b1 = sum(wi * wi * t for wi, t in zip(w, times))
    b2 = sum(wi * wi * s * t for wi, s, t in zip(w, nbytes, times))
    det = a11 * a22 - a12 * a12
    if len(times) >= 2 and det > 0:
        alpha, beta = (b1 * a22 - b2 * a12) / det, (a11 * b2 - a12 * b1) / det
        if alpha >= 0 and beta >= 0:
            return alpha, beta
    beta_only = b2 / a22 if a22 > 0 else 0.0  # through the origin
    alpha_only = b1 / a11
    err = lambda a, b: sum(((a + b * s) / t - 1) ** 2 for s, t in zip(nbytes, times))  # noqa: E731
    return min([(0.0, max(beta_only, 0.0)), (alpha_only, 0.0)], key=lambda ab: err(*ab))


def calibration(rows: list[dict[str, Any]], devices: int, backend: str, **meta: Any) -> dict[str, Any]:
    """The calibration file `dpscale predict --calibration` reads (format in docs/measure.md)."""
    alpha, beta = fit_alpha_beta([r["bytes"] for r in rows], [r["time_s"] for r in rows])
    busbw = float(bus_bandwidth(1, beta, devices)) if beta > 0 and devices > 1 else None  # a byte every β s
    return {
        "format": CALIBRATION_FORMAT,
        "version": 1,
        "backend": backend,
        "devices": devices,
        "alpha_s": alpha,
        "beta_s_per_byte": beta,
        "busbw_gbs": busbw,
        "busbw_peak_gbs": max((r["busbw_gbs"] for r in rows), default=None) if devices > 1 else None,
        "model": "time_s = alpha_s + beta_s_per_byte * bytes; busbw_gbs = 2(n-1)/n / beta_s_per_byte / 1e9",
        **meta,
        "points": [{k: r[k] for k in ("bytes", "time_s", "algbw_gbs", "busbw_gbs")} for r in rows],
    }


def fit_quality(cal: dict[str, Any]) -> float:
    """Worst relative error of the fitted line over the measured sizes (for a note under the table)."""
    a, b = cal["alpha_s"], cal["beta_s_per_byte"]
    errs = [abs((a + b * p["bytes"]) / p["time_s"] - 1) for p in cal["points"] if p["time_s"] > 0]
    return max(errs, default=math.nan)


def beyond_measured(cal: dict[str, Any]) -> dict[str, Any] | None:
    """The measured point of best busbw when the fitted asymptote is more than twice it, else None. The line's busbw
    at a size S is the asymptote × βS / (α + βS): it reaches half the asymptote at S = α/β, the half-bandwidth size
    n½ (physics.md §1.4). A best measured busbw under half the asymptote says no size reached n½: every point is
    latency-bound there, β rests on small differences of their times, and the asymptote is the line's extrapolation
    (review MF: `--devices 4 --sizes 1MB..4MB` said 3.39 GB/s where the best measured was 0.657). The bound is the
    model's own half-way point, not tuned to a run."""
    points = [p for p in cal["points"] if p["time_s"] > 0]
    if not cal.get("busbw_gbs") or not points:
        return None
    best = max(points, key=lambda p: p["busbw_gbs"])
    return best if cal["busbw_gbs"] > 2 * best["busbw_gbs"] else None
