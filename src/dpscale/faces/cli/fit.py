"""`dpscale fit`: fit a scaling law to measured runs and extrapolate with intervals.

A thin shell over `dpscale.sources.fit`; numpy/scipy/matplotlib load only when it runs.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from dpscale.errors import DpscaleError, fail
from dpscale.faces.cli.common import (
    add_output_args,
    any_case,
    as_flags,
    check_unit,
    min_efficiency,
    number,
    parse_devices,
    positive,
    runs_unit,
    same_unit,
    whole,
)
from dpscale.faces.i18n import LABELS, SINGULAR, header, label, say, singular, term, unit_label
from dpscale.faces.i18n import number as fmt
from dpscale.faces.output import Column, horizontal, to_json
from dpscale.sources.fit_runs import (
    CONFIDENCE_ALLOWED,
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MAX_GPUS_PER_NODE,
    RESAMPLES,
    SEEDS,
)
from dpscale.sources.laws import FIT_LAWS

LAWS = ("auto", *FIT_LAWS)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = (
        "E is relative to the smallest measured size. The law is chosen by leave-one-out error; intervals "
        "come from a parametric bootstrap. Example: dpscale fit runs.csv --at 256,1024 --gpus-per-node 8. "
        "dpscale plan --fit runs.csv --samples 1.28e6 --epochs 90 plans time and cost on the fitted law."
    )
    g = p.add_argument_group("measured runs")
    g.add_argument(
        "runs", nargs="?", metavar="RUNS",
        help="CSV (devices,throughput[,step_time]; throughput of the whole run, not per device) or JSON lines; - reads "
        "standard input",
    )  # fmt: skip
    g.add_argument("--point", action="append", metavar="D:X", help="a run: devices:whole-run throughput (repeatable)")
    g.add_argument(
        "--only",
        action="append",
        metavar="KEY=VALUE",
        help="of a measure file of several set-ups, the one to fit: workload=cnn, zero=1 (repeatable)",
    )
    g.add_argument("--gpus-per-node", metavar="G", help="devices per node: puts the all-reduce knee there")
    g.add_argument(
        "--law", choices=LAWS, type=any_case(LAWS), default="auto", help="force a law (default: auto, by leave-one-out)"
    )
    q = p.add_argument_group("questions")
    # --devices/-d as well: every other command's name for the sizes it answers at (`fit runs.csv -d 64` was refused)
    q.add_argument(
        "--at",
        "--devices",
        "-d",
        metavar="D",
        help="sizes to predict: N, N1,N2,..., A..BxF or A..B+S (default: measured, 2×, 4×)",
    )
    q.add_argument("--target-throughput", metavar="X", help="devices needed to reach this cluster throughput")
    q.add_argument("--min-efficiency", metavar="E", help="largest size that keeps E at or above this")
    u = p.add_argument_group("uncertainty")
    level, redraws, seed = f"{DEFAULT_CONFIDENCE:g}", f"{DEFAULT_RESAMPLES}", f"{DEFAULT_SEED}"
    u.add_argument("--confidence", default=level, metavar="C", help=f"interval level in (0, 1) (default {level})")
    u.add_argument("--resamples", default=redraws, metavar="B", help=f"bootstrap resamples (default {redraws})")
    u.add_argument("--seed", default=seed, metavar="S", help=f"random seed for the bootstrap (default {seed})")
    p.add_argument("--unit", help="throughput unit for labels (default: the runs' own, else samples/s)")
    add_output_args(p)


def _inputs(args: argparse.Namespace) -> dict[str, Any]:
    """Parse every flag before any work, so bad input fails fast with its flag's name."""
    from dpscale.files import shown_name
    from dpscale.sources.fit_io import read_runs_unit
    from dpscale.sources.fit_runs import parse_point
    from dpscale.sources.runs_json import parse_only

    if args.unit is not None:
        args.unit = check_unit(args.unit)
    if args.plot:
        from dpscale.faces.plot import check_path

        check_path(args.plot, inputs=(args.runs,))
    only = parse_only(args.only)
    if args.runs is not None and not args.runs.strip():  # fit '' --point …: the empty path was ignored silently
        raise DpscaleError("RUNS: got ''; allowed: a CSV / JSON-lines file of runs, or --point D:X (repeatable)")
    if only and not args.runs:
        raise DpscaleError("--only: needs a RUNS file (it picks one set-up of a `dpscale measure` file)")
    with as_flags({"runs": "RUNS"}):  # the library names its parameter; here it is the positional
        runs, said = read_runs_unit(args.runs, only, dot_groups=args.lang != "en") if args.runs else ([], None)
    args.unit = runs_unit(args.unit, said, shown_name(args.runs) if args.runs else "RUNS")  # ('-': standard input)
    runs += [parse_point(t) for t in args.point or []]
    if not runs:
        raise DpscaleError("RUNS: got none; allowed: a CSV / JSON-lines file of runs, or --point D:X (repeatable)")
    eff = min_efficiency(args.min_efficiency) if args.min_efficiency is not None else None
    g = whole(args.gpus_per_node, "--gpus-per-node", 1, MAX_GPUS_PER_NODE) if args.gpus_per_node else None
    return {
        "runs": runs,
        "gpus_per_node": g,
        "at": parse_devices(args.at, "--at") if args.at else None,
        "target": positive(args.target_throughput, "--target-throughput") if args.target_throughput else None,
        "min_eff": eff,
        "confidence": _confidence(args.confidence),
        "resamples": whole(args.resamples, "--resamples", *RESAMPLES),
        "seed": whole(args.seed, "--seed", *SEEDS),
    }


def _confidence(text: str) -> float:
    c = number(text, "--confidence", CONFIDENCE_ALLOWED, fraction=True)
    if not 0 < c < 1:
        raise fail("--confidence", text, CONFIDENCE_ALLOWED)
    return c


def run(args: argparse.Namespace) -> int:
    from dpscale.sources.fit import check_cells, fit

    a = _inputs(args)
    if a["at"] is not None:  # before the bootstrap, which would take minutes first
        check_cells(a["resamples"], len(a["at"]), "--at", "--resamples")
    try:
        f = fit(
            a["runs"],
            law=args.law,
            gpus_per_node=a["gpus_per_node"],
            confidence=a["confidence"],
            resamples=a["resamples"],
            seed=a["seed"],
        )
        # the report is the library's (Fit.report): the CLI prints it, and a library fit saved for plan is the same
        report = f.report(a["at"], a["target"], a["min_eff"], unit=args.unit)  # (plan checks its own unit)
    except DpscaleError as exc:  # the bound names the library's parameters; here they are the flags: the bootstrap's
        # 'resamples × measured sizes', and the report's sizes, --at's default (measured, 2×, 4×) where none was
        # typed, 'resamples × devices' (review MW: one size past the bootstrap's bound it was said unprefixed, and
        # in English under --lang es)
        said = str(exc)
        if said.startswith("resamples × devices: "):
            raise DpscaleError("--resamples × --at: " + said.removeprefix("resamples × devices: ")) from None
        if said.startswith("resamples × "):
            raise DpscaleError(f"--{said}") from None
        raise
    warnings = report["warnings"]
    at = [p["devices"] for p in report["predictions"]]
    if getattr(args, "sink", None):  # the web page: the predictions are its table, what they rest on its notes
        from dpscale.faces.output import emit

        head = _law_lines(report, args.lang)
        measured = _measured_lines(report, args.unit, args.lang)  # the CLI's measured table, a line a size
        notes = [*head[1:], *measured, _band_line(report, args.lang), *_answer_lines(report, args.unit, args.lang),
                 *warnings]  # fmt: skip
        args.report = report  # what --json prints, for the page's API alongside the table's records
        emit(report["predictions"], _columns(args.unit), args, title=head[0], notes=notes)
    elif args.json:
        print(to_json(report))
    elif args.csv:
        from dpscale.faces.output import emit

        # the CSV holds the predictions; what they rest on (law, parameters, warnings) and the answers asked for
        # (devices for a target, the peak: once dropped) go to stderr as notes, as the page shows them
        head = _law_lines(report, args.lang)
        answer_lines = [_band_line(report, args.lang), *_answer_lines(report, args.unit, args.lang)]
        rows = report["predictions"]
        if not same_unit(report["unit"], "samples/s"):  # a tokens/s fit's rows said so, as calc's (the JSON's "unit")
            rows = [{**r, "unit": report["unit"]} for r in rows]
        emit(rows, _columns(args.unit), args,
             notes=[*head, *answer_lines, *(say(w, args.lang) for w in warnings)])  # fmt: skip
    else:
        print(_human(report, args.unit, args.lang))
    if args.plot:  # after the result is out: a plot that cannot be written loses nothing
        _plot(f, at, args)
    return 0


def _columns(unit: str) -> list[Column]:
    return [
        Column("devices", "int"),
        Column("throughput", "rate", unit),
        Column("throughput_lo", "rate", unit),
        Column("throughput_hi", "rate", unit),
        Column("efficiency", "pct"),
        Column("efficiency_lo", "pct"),
        Column("efficiency_hi", "pct"),
    ]


def _devices(x: float, lang: str) -> str:
    return "∞" if x is None or math.isinf(x) else ("—" if math.isnan(x) else fmt(x, "int", lang))


def _law_lines(r: dict[str, Any], lang: str) -> list[str]:
    """What a fit rests on: the law and why, the runner-up, E's baseline, the parameters with intervals."""
    t = lambda key, **kw: singular(label(key, lang).format(**kw), SINGULAR[lang])  # noqa: E731 ('1 grado')
    na = label("not_available", lang)
    score = lambda x: na if x is None or not math.isfinite(x) else fmt(x, "sig3", lang)  # noqa: E731
    lines = [t("fit_law", law=r["law"], score=score(r["loo_rmse"]), criterion=say(r["criterion"], lang))]
    if r["runner_up"]:
        lines.append(t("fit_runner_up", law=r["runner_up"]["law"], score=score(r["runner_up"]["loo_rmse"])))
    source = t("fit_noise_repeats", dof=fmt(r["repeat_dof"], "int", lang)) if r["repeat_dof"] else ""
    noise = fmt(100 * r["noise"], "sig2", lang)
    lines.append(t("fit_relative", d0=fmt(r["baseline_devices"], "int", lang), n=fmt(r["resamples"], "int", lang),
                   noise=noise, source=source))  # fmt: skip
    lines.append(t("fit_parameters", pct=fmt(r["confidence"], "level", lang)))
    sep = LABELS[lang].get("interval_sep", ", ")
    g4 = lambda x: fmt(x, "sig4", lang)  # noqa: E731 (0.0629563 said 0.06296)
    from dpscale.sources.fit_laws import LAWS as FITTED  # (loaded with the fit)

    law = FITTED[r["law"]]
    what = dict(zip(law.params, law.what))  # 'transfer = 0' said nothing of what it measures
    for n, p in r["parameters"].items():  # (what it measures, unless the name already says it: 'fracción serie')
        said = f"  ({term(what[n], lang)})" if term(what[n], lang) != term(n, lang) else ""
        lines.append(f"  {term(n, lang)} = {g4(p['value'])}  [{g4(p['lo'])}{sep}{g4(p['hi'])}]{said}")
    if r["seconds"]:
        s = r["seconds"]
        f = lambda k: fmt(s[k], "float", lang)  # noqa: E731
        band = lambda k: f"{f(k)} [{f(k + '_lo')}{sep}{f(k + '_hi')}]"  # noqa: E731 (each number with its interval)
        lines.append("  " + t("fit_seconds", c=band("compute_s"), b=band("transfer_s"), a=band("latency_s")))
    return lines


def _measured_lines(r: dict[str, Any], unit: str, lang: str) -> list[str]:
    """The measured sizes against the law, one line each, for the page (its table holds the predictions)."""
    return [
        f"{label('fit_measured', lang)} {fmt(m['devices'], 'int', lang)} {label('devices', lang)}, "
        f"{fmt(m['throughput'], 'rate', lang)} {unit_label(unit, lang)}, E {fmt(m['efficiency'], 'pct', lang)} "
        f"({header('fitted_efficiency', lang)} {fmt(m['fitted_efficiency'], 'pct', lang)})"
        for m in r["measured"]
    ]


def _human(r: dict[str, Any], unit: str, lang: str) -> str:
    pct = fmt(r["confidence"], "level", lang)
    t = lambda key, **kw: label(key, lang).format(**kw)  # noqa: E731
    lines = _law_lines(r, lang)
    lines += ["", t("fit_measured")]
    mcols = [Column("devices", "int"), Column("throughput", "rate", unit), Column("efficiency", "pct")]
    mcols.append(Column("fitted_efficiency", "pct"))
    lines.append(horizontal(r["measured"], mcols, lang))
    lines += ["", t("fit_predicted", pct=pct)]
    lines.append(horizontal(r["predictions"], _columns(unit), lang))
    lines += _answer_lines(r, unit, lang)
    lines += [f"{label('note', lang)}: {say(w, lang)}" for w in r["warnings"]]
    return "\n".join(lines)


def _band_line(r: dict[str, Any], lang: str) -> str:
    """What lo and hi are, where the predictions leave the terminal's heading behind (the page, CSV)."""
    return label("fit_band", lang).format(pct=fmt(r["confidence"], "level", lang))


def _answer_lines(r: dict[str, Any], unit: str, lang: str) -> list[str]:
    """The peak and the devices needed for a target, each with its interval."""
    t = lambda key, **kw: singular(label(key, lang).format(**kw), SINGULAR[lang])  # noqa: E731 ('at 1 device')
    lines = []
    sep = LABELS[lang].get("interval_sep", ", ")  # as the parameters' intervals: [59; ∞] beside [0; 0,042] in Spanish
    peak = r["peak"]
    if peak:
        rng = f"[{_devices(peak['lo'], lang)}{sep}{_devices(peak['hi'], lang)}]"
        if peak["devices"] is None:  # no peak up to search_cap (∞ in peak(), null in the report)
            cap = _devices(r["search_cap"], lang)
            pct = fmt(r["confidence"], "level", lang)  # where a peak could lie, at the intervals' level
            lines.append(t("fit_no_peak_interval", law=r["law"], cap=cap, rng=rng, pct=pct))
        else:
            lines.append(t("fit_peak", d=_devices(peak["devices"], lang), rng=rng, law=r["law"]))
    else:
        lines.append(t("fit_no_peak", law=r["law"], cap=_devices(r["search_cap"], lang)))
    if "devices_for_throughput" in r:
        a = r["devices_for_throughput"]
        lines.append(
            t("fit_devices_for", target=fmt(a["target"], "rate", lang), unit=unit_label(unit, lang))
            + f" {_devices(a['devices'], lang)} [{_devices(a['lo'], lang)}{sep}{_devices(a['hi'], lang)}]"
            + (_beyond(r, a, lang) if a["devices"] is None else "")
            + t("fit_of_law", law=r["law"])
        )
    if "devices_for_efficiency" in r:
        a = r["devices_for_efficiency"]
        lines.append(
            t("fit_min_eff", e=fmt(a["min_efficiency"], "pct", lang))
            + f" {_devices(a['devices'], lang)} [{_devices(a['lo'], lang)}{sep}{_devices(a['hi'], lang)}]"
            + (
                label("fit_never_below", lang).format(cap=_devices(r["search_cap"], lang))
                if a["devices"] is None
                else ""
            )
            + t("fit_of_law", law=r["law"])
        )
    return lines


def _beyond(r: dict[str, Any], answer: dict[str, Any], lang: str) -> str:
    """Why no size reaches a target throughput, as the fit says it (`Fit.devices_for`'s "reason"): unreachable, or
    not reached within the search's cap by a law that still rises there ('(unreachable)' there contradicted the line
    above it, 'keeps rising: no peak up to 1,048,576 devices')."""
    if answer["reason"] == "unreachable":
        return label("fit_unreachable", lang)
    return label("fit_not_reached", lang).format(cap=_devices(r["search_cap"], lang))


def _plot(f: Any, at: list[int], args: argparse.Namespace) -> None:
    import numpy as np

    from dpscale.faces.plot import plot_scaling
    from dpscale.formulas.scaling import compute

    top = max(max(at), f.runs.devices[-1])
    grid = np.unique(np.round(np.geomspace(f.runs.devices[0], top, 60))).astype(int)
    pred = f.predict(grid)
    ideal = compute(grid, f.per_device_throughput, 1.0).ideal_throughput
    records = [
        {"devices": int(d), "ideal_throughput": i, "actual_throughput": x, "efficiency": e}
        for d, i, x, e in zip(grid, ideal, pred.throughput, pred.efficiency)
    ]
    band = {
        "actual_lo": pred.throughput_lo,
        "actual_hi": pred.throughput_hi,
        "efficiency_lo": pred.efficiency_lo,
        "efficiency_hi": pred.efficiency_hi,
    }
    measured = [
        {"devices": m["devices"], "actual_throughput": m["throughput"], "efficiency": m["efficiency"]}
        for m in f.measured()
    ]
    title = label("fit_plot_title", args.lang).format(law=f.law, pct=fmt(f.confidence, "level", args.lang))
    named = label("plot_band", args.lang).format(pct=fmt(f.confidence, "level", args.lang))
    plot_scaling(records, args.plot, args.lang, title, args.unit, band=band, measured=measured, band_label=named)
