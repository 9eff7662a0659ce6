"""Scaling plots: ideal vs actual throughput, and E, against d. matplotlib is imported here only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dpscale.errors import DpscaleError, fail, require
from dpscale.faces.i18n import label, localise, unit_label

FORMATS = (".png", ".svg", ".pdf")


def wide(devices: Any) -> bool:
    """Sizes spanning three doublings or more read better on a log2 axis (1, 2, 4, … evenly spaced)."""
    d = list(devices)
    return len(d) > 1 and max(d) / max(min(d), 1) >= 8


def numbers(ax: Any, lang: str, *axes: str) -> None:
    """Tick labels as the tables write numbers: 1,000,000 (not 1e+06 beside 500,000) and, in Spanish, 1.000.000
    and 0,2. `axes`: 'x', 'y' (default both)."""
    from matplotlib.ticker import FuncFormatter

    fmt = FuncFormatter(lambda v, _: localise(_tick(v), lang))
    for name in axes or ("x", "y"):
        axis = getattr(ax, f"{name}axis")
        axis.set_major_formatter(fmt)
        if axis.get_scale() == "log":  # a log axis under a decade labels its minor ticks: '3 × 10⁰', '6 × 10⁻¹'
            axis.set_minor_formatter(_log_minor(fmt, base=axis.get_transform().base, labelOnlyBase=False))


def _log_minor(fmt: Any, **kw: Any) -> Any:
    """matplotlib's own choice of which minor ticks of a log axis to label (all of them under a decade, none over
    several), each written as the major ones are."""
    from matplotlib.ticker import LogFormatterSciNotation

    class LogMinor(LogFormatterSciNotation):
        def __call__(self, x: float, pos: Any = None) -> str:
            return fmt(x, pos) if super().__call__(x, pos) else ""

    return LogMinor(**kw)


def _tick(v: float) -> str:
    """One tick label: '.10g' past ten digits is an exponent ('1e+10' beside '1,000,000,000' on one log axis), so a
    large value is written whole and grouped, as the tables write it."""
    text = f"{v:,.10g}"
    return f"{v:,.0f}" if "e+" in text else text


def spans_decades(*series: Sequence[float | None]) -> bool:
    """Values over two decades or more: a linear axis would press the small ones flat against zero."""
    vals = [v for s in series for v in s if v is not None and v > 0]
    return bool(vals) and max(vals) / min(vals) >= 100


def sizes_axis(ax: Any, d: Sequence[float]) -> None:
    """log2 for sizes spanning three doublings or more; else ticks at the sizes themselves (one size once read
    61–67 devices)."""
    if wide(d):
        ax.set_xscale("log", base=2)
    elif len(set(d)) <= 12:
        ax.set_xticks(sorted(set(d)))


OVERWRITES_INPUT = "a file other than the command's input files, which the plot would overwrite"


def check_path(path: str, flag: str = "--plot", inputs: tuple[str | None, ...] = ()) -> Path:
    """Fail before any work if the plot cannot be written (tried, not asked: a 'folder' that is a file, /proc as
    root or a 300-character name passed os.access, and failed after the results were printed, or in a traceback),
    or would be written over one of the command's input files (`fit runs.png --plot runs.png` replaced the runs
    with their plot after reading them: a file named for a picture is still the user's data)."""
    import os

    from dpscale.files import NO_FOLDER, is_stdin, unwritable

    p = Path(path)
    if p.suffix.lower() not in FORMATS:
        raise fail(flag, path, f"a file name ending in {', '.join(FORMATS)}")  # (fail: said in Spanish too)
    for given in inputs:
        if given is None or is_stdin(given):
            continue
        try:
            same = os.path.samefile(p, given)
        except (OSError, ValueError):  # one does not exist yet (or a name no file can have): not the same file
            same = False
        if same:
            raise fail(flag, path, OVERWRITES_INPUT)
    why = unwritable(p)
    if why == NO_FOLDER:
        raise fail(flag, path, "a path in an existing folder")
    if why:
        raise fail(flag, path, f"a file this user can write ({why})")
    from importlib.util import find_spec

    if find_spec("matplotlib") is None:  # say so before any work is done
        raise DpscaleError(f"{flag}: needs matplotlib; allowed: pip install 'dpscale[plot]'")
    return p


def save(fig: Any, out: Path, flag: str = "--plot") -> Path:
    """Write the figure, or say in one line why it could not be (the result is printed already). Written whole
    (files.write_whole): a full disk or a Ctrl-C mid-write left half a PNG in place of the earlier plot."""
    import matplotlib

    from dpscale.files import write_whole

    fmt = out.suffix[1:].lower()
    # The same plot is the same bytes (a plot kept in git or diffed in CI): matplotlib stamps an SVG and a PDF with
    # the time of writing and names an SVG's clip paths and markers from a random salt unless told otherwise. PNG's
    # only stamp is matplotlib's version. A salt of the user's matplotlibrc is kept.
    stamp = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(fmt)
    salt = matplotlib.rcParams["svg.hashsalt"] or "dpscale"
    try:
        with matplotlib.rc_context({"svg.hashsalt": salt}):
            write_whole(out, lambda fh: fig.savefig(fh, format=fmt, metadata=stamp), binary=True)
    except OSError as exc:
        raise fail(flag, str(out), f"a file this user can write ({exc.strerror})") from None  # (parts: said in Spanish)
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)
    return out


def pyplot() -> Any:
    """matplotlib.pyplot on the file-only Agg backend, or a one-line error naming the extra.

    The environment's MPLBACKEND is set aside while matplotlib is first imported: a plot here is a file written
    with Agg, and a name matplotlib does not know (MPLBACKEND=bogus, a typo in a shell profile) made that import
    raise ValueError — a traceback after the result was printed. A matplotlibrc's `text.usetex: True` is set aside
    too: the labels are plain text and mathtext ('E (%)', 'σ'), which LaTeX does not read, and without latex
    installed it was a RuntimeError traceback and no plot."""
    import os
    import sys

    backend = None if "matplotlib" in sys.modules else os.environ.pop("MPLBACKEND", None)
    try:
        matplotlib = require("matplotlib", "plot", "--plot")
    finally:
        if backend is not None:  # (given back: the process's environment is the caller's)
            os.environ["MPLBACKEND"] = backend
    matplotlib.use("Agg")
    matplotlib.rcParams["text.usetex"] = False
    return require("matplotlib.pyplot", "plot", "--plot")


def plot_scaling(
    records: Sequence[dict[str, Any]],
    path: str,
    lang: str = "en",
    title: str = "",
    unit: str = "samples/s",
    band: Mapping[str, Sequence[float]] | None = None,
    measured: Sequence[dict[str, float]] | None = None,
    band_label: str = "",
) -> Path:
    """Two panels sharing d: throughput (ideal line, actual curve) and E.

    band: optional {"actual_lo", "actual_hi", "efficiency_lo", "efficiency_hi"} aligned with records, named in the
    legends by band_label (the predictor's shaded 80 % was named nowhere on its plot);
    measured: optional points {"devices", "actual_throughput", "efficiency"} drawn as markers.
    """
    out = check_path(path)
    plt = pyplot()
    d = [r["devices"] for r in records]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
    ideal = [r["ideal_throughput"] for r in records]  # (a marker: one size drew no line, and no ideal)
    ax1.plot(d, ideal, "--", marker="x", ms=4, color="grey", label=label("ideal_throughput", lang))
    ax1.plot(d, [r["actual_throughput"] for r in records], "o-", label=label("actual_throughput", lang), ms=3)
    ax2.plot(d, [r["efficiency"] for r in records], "o-", color="C1", label="E(d)", ms=3)
    if band:
        named = {"label": band_label} if band_label else {}
        ax1.fill_between(d, band["actual_lo"], band["actual_hi"], alpha=0.25, color="C0", **named)
        ax2.fill_between(d, band["efficiency_lo"], band["efficiency_hi"], alpha=0.25, color="C1", **named)
    if measured:
        md = [m["devices"] for m in measured]
        ax1.plot(md, [m["actual_throughput"] for m in measured], "ks", ms=5, label=label("measured_points", lang))
        ax2.plot(md, [m["efficiency"] for m in measured], "ks", ms=5, label=label("measured_points", lang))
    if spans_decades(ideal, [r["actual_throughput"] for r in records]):  # 2,000 → 2,048,000 hid a peak at 49,559
        ax1.set_yscale("log")
    for ax in (ax1, ax2):
        sizes_axis(ax, d)
        ax.set_xlabel(label("devices", lang))
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        numbers(ax, lang)  # 100.000 and 0,2 on a Spanish page, as in its tables
    ax1.set_ylabel(unit_label(unit, lang))
    ax2.set_ylabel(label("efficiency", lang))
    # the panel's top clears every E it draws: the curve's, the band's top and a measured run's (fit's superlinear
    # run at E = 1.15 and its band's 1.23 were cut off at 1.05, the run's square not drawn at all)
    drawn = [r["efficiency"] for r in records]
    drawn += [*band["efficiency_hi"]] if band else []
    drawn += [m["efficiency"] for m in measured or ()]
    ax2.set_ylim(0, max(1.05, max(drawn) * 1.05))
    if title:
        fig.suptitle(title, wrap=True)  # (a long one, an E per size, ran past both edges)
    return save(fig, out)
