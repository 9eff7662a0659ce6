"""Labels and number formats in English and Spanish (the original calculator is Spanish).

Only human output is translated; JSON and CSV keep machine keys and plain numbers.
"""

from __future__ import annotations

import math

LANGS = ("en", "es")

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "devices": "devices",
        "per_device_throughput": "per-device throughput",
        "efficiency": "scaling efficiency E",
        "ideal_throughput": "ideal throughput d·v",
        "actual_throughput": "actual throughput d·v·E",
        "speedup": "speedup d·E",
        "lost_throughput": "lost to parallel overhead",
        "effective_devices": "effective devices d·E",
        "devices_exact": "devices needed (exact)",
        "samples/s": "samples/s",
        "note": "note",
        "worked_example": "Worked example: 64 devices × 2,000 samples/s at E = 0.9",
        "solved": "solved for",
        "constant_note": (
            "E is held at {e} for every size; real E usually falls as devices are added — "
            "give E per size, a law (--law usl|amdahl), or use `dpscale fit` / `dpscale predict`"
        ),
        "single_note": ("E measured at one cluster size does not carry to another; E usually falls as d grows"),
        "law_note": "E(d) from {law}",
        "units_in": "throughputs in {unit}",
        "h:per_device_throughput": "per device",
        "h:efficiency": "E",
        "h:ideal_throughput": "ideal",
        "h:actual_throughput": "actual",
        "h:speedup": "speedup",
        "h:lost_throughput": "lost",
        "h:effective_devices": "effective d",
    },
    "es": {
        "devices": "dispositivos",
        "per_device_throughput": "rendimiento por dispositivo",
        "efficiency": "eficiencia de escalado E",
        "ideal_throughput": "rendimiento ideal d·v",
        "actual_throughput": "rendimiento real d·v·E",
        "speedup": "aceleración d·E",
        "lost_throughput": "perdido por sobrecoste paralelo",
        "effective_devices": "dispositivos efectivos d·E",
        "devices_exact": "dispositivos necesarios (exacto)",
        "samples/s": "muestras/s",
        "note": "nota",
        "worked_example": "Ejemplo resuelto: 64 dispositivos × 2.000 muestras/s con E = 0,9",
        "solved": "incógnita despejada",
        "constant_note": (
            "E se mantiene en {e} para todos los tamaños; en la práctica E suele caer al añadir "
            "dispositivos — indique E por tamaño, una ley (--law usl|amdahl) o use `dpscale fit` / "
            "`dpscale predict`"
        ),
        "single_note": ("una E medida con un tamaño de clúster no vale para otro; E suele caer al crecer d"),
        "law_note": "E(d) según {law}",
        "units_in": "rendimientos en {unit}",
        "h:per_device_throughput": "por dispositivo",
        "h:efficiency": "E",
        "h:ideal_throughput": "ideal",
        "h:actual_throughput": "real",
        "h:speedup": "aceleración",
        "h:lost_throughput": "perdido",
        "h:effective_devices": "d efectivos",
    },
}


def label(key: str, lang: str = "en") -> str:
    return LABELS[lang].get(key) or LABELS["en"].get(key) or key.replace("_", " ")


def header(key: str, lang: str = "en") -> str:
    """Short column heading for wide tables; falls back to the full label."""
    return LABELS[lang].get("h:" + key) or LABELS["en"].get("h:" + key) or label(key, lang)


def localise(text: str, lang: str) -> str:
    """Swap English separators (1,234.5) for Spanish ones (1.234,5)."""
    if lang != "es":
        return text
    return text.replace(",", "\0").replace(".", ",").replace("\0", ".")


def number(x: float | int | None, kind: str = "float", lang: str = "en") -> str:
    """Format one value for people. kinds: int, rate, times, dec, eff, pct, float, hours, money, bytes."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if isinstance(x, float) and math.isinf(x):
        return "∞"
    if kind == "int":
        text = f"{x:,.0f}"
    elif kind == "rate":
        text = f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.4g}"
    elif kind == "times":
        text = (f"{x:,.1f}" if abs(x) >= 10 else f"{x:.2f}") + "×"
    elif kind == "dec":
        text = f"{x:,.1f}" if abs(x) >= 10 else f"{x:.2f}"
    elif kind == "eff":
        text = f"{x:.3f} ({100 * x:.1f} %)"
    elif kind == "pct":
        text = f"{100 * x:.1f} %"
    elif kind == "hours":
        text = f"{x:,.1f} h" if abs(x) >= 1 else f"{60 * x:,.1f} min"
    elif kind == "money":
        text = f"{x:,.2f}"
    elif kind == "bytes":
        text = _bytes(x)
    else:
        text = f"{x:,.6g}" if abs(x) >= 1e-3 or x == 0 else f"{x:.3e}"
    return localise(text, lang)


def _bytes(x: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(x) >= size:
            return f"{x / size:,.1f} {unit}"
    return f"{x:,.0f} B"
