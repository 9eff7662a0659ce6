"""`dpscale validate DATA.csv [MORE.csv ...] [--mode predict|fit]`: predictions or fits against published
measurements; several files are checked as one set (e.g. the dev set and validation/*.csv)."""

from __future__ import annotations

import sys
from typing import Any

from dpscale.faces.cli.common import add_output_args, any_case
from dpscale.faces.i18n import SINGULAR, label, number, singular
from dpscale.faces.output import Column, emit, to_json, write_csv
from dpscale.sources.validate import MODES

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


COLUMNS = [
    Column("cfg", "text"),
    Column("devices", "int"),
    Column("measured", "fixed3"),
    Column("predicted", "fixed3"),
    Column("error", "fixed3"),
    Column("signed_error", "fixed3"),
]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "data", metavar="DATA.csv", nargs="+",
        help="published measurements (format: validation/published_scaling_dev.md); several files are checked as one "
        "set; - reads one from standard input"
    )  # fmt: skip
    p.add_argument(
        "--mode",
        choices=MODES,
        type=any_case(MODES),
        default="predict",
        help="predict: each row from its configuration's baseline (default); fit: fit all sizes but the "
        "largest, predict the largest",
    )
    add_output_args(p, plot=False)


def run(args: argparse.Namespace) -> int:
    from dpscale.sources.validate import validate

    report = validate(*args.data, mode=args.mode)
    if args.json:
        print(to_json(report))
        return 0
    title = f"dpscale validate --mode {args.mode}: {' '.join(args.data)}"
    if not report["points"]:  # a valid file with nothing checkable: say so (the JSON above says it with 0 points)
        _say_nothing_to_check(report, args, title)
        return 0
    # The table cuts a long configuration id to fit, marked with '…' ('…-bs100-TF32' once read '…-bs1', another
    # batch); --csv keeps the id whole, as in DATA.csv, so its rows can be joined back to the file's.
    rows = report["rows"] if args.csv else [dict(r, cfg=_cut(r["cfg"])) for r in report["rows"]]
    emit(rows, COLUMNS, args, title=title, notes=_scores(report, args.lang) + _left_out(report, args.lang))
    return 0


def _say_nothing_to_check(report: dict[str, Any], args: argparse.Namespace, title: str) -> None:
    """Why a valid file gave no point, and what each skipped configuration lacks; under --csv on stderr."""
    note = f"{label('note', args.lang)}: "
    why = _nothing_why(report, args.mode, args.lang)
    reasons = [note + x for x in _skip_reasons(report.get("skip_reasons", {}), args.lang)]
    if args.csv:  # stdout stays CSV: the header and no rows (a sentence there broke `| csv.reader`)
        write_csv([], [c.key for c in COLUMNS] + list(BAND_KEYS[args.mode]), sys.stdout)
        print("\n".join([note + why, *reasons]), file=sys.stderr)
        return
    print("\n".join([f"{title}: {why}", *reasons]))


def _nothing_why(report: dict[str, Any], mode: str, lang: str) -> str:
    """The sentence for no point, counted: configurations that lack inputs, ones of a baseline alone, or both."""
    key = f"nothing_to_check_{mode}"
    if mode == "predict" and not report["skipped_configs"]:  # every configuration is its baseline alone
        key = "nothing_to_check_baselines"
    skipped, lone = report.get("skipped_configs"), len(report.get("baseline_only", []))
    n = skipped or lone
    alone = lone if skipped else 0
    if n == 1 and mode == "predict" and not alone:  # 'all 1 configurations lack', 'sus 1 configuraciones'
        key += "_one"
    if alone:  # some lack inputs, the rest are baselines alone ('the one configuration lacks…' of two)
        key = "nothing_to_check_mixed"
    count = lambda k: number(k, "int", lang)  # noqa: E731 (1,292 configurations, 1.292 in Spanish)
    return label(key, lang).format(configs=count(n), alone=count(alone), total=count(n + alone))


def _scores(report: dict[str, Any], lang: str) -> list[str]:
    """The errors to three digits, and the yardsticks to read them by: a constant guess, the band, the interval."""
    num = lambda key, kind="sig3": number(report[key], kind, lang)  # noqa: E731 (errors in E: 0.0231, as the docs)
    said = label("validate_summary", lang).format(
        points=num("points", "int"), configs=num("configs", "int"), median=num("median_abs_error"),
        p90=num("p90_abs_error"), max=num("max_abs_error"),
    )  # fmt: skip
    notes = [singular(said, SINGULAR[lang])]  # "1 point in 1 configuration"
    if "constant_baseline_median_abs_error" in report:
        notes.append(label("constant_baseline_note", lang).format(e=num("constant_baseline_median_abs_error")))
    if "band_coverage" in report:
        notes.append(label("band_coverage_note", lang).format(share=num("band_coverage", "pct")))
    if report.get("interval_coverage") is not None:
        pct = number(report["confidence"], "level", lang)
        notes.append(label("interval_coverage_note", lang).format(share=num("interval_coverage", "pct"), pct=pct))
    return notes


def _left_out(report: dict[str, Any], lang: str) -> list[str]:
    """What the scores leave out or assume: skipped configurations and why, GPUs and precisions the catalog does
    not read (and what was taken instead), baselines alone."""
    count = lambda n: number(n, "int", lang)  # noqa: E731
    notes = []
    if report.get("skipped_configs"):
        # one configuration is said in the singular, its verb too ('se omite 1 configuración … a la que le falta')
        key = "skipped_note_one" if report["skipped_configs"] == 1 else "skipped_note"
        notes.append(
            label(key, lang).format(configs=count(report["skipped_configs"]), rows=count(report["skipped_rows"]))
        )
        notes.extend(_skip_reasons(report.get("skip_reasons", {}), lang))
    if gpus := report.get("unknown_gpu"):
        from dpscale.formulas.stepmodel import DEFAULT_HBM_TBS

        key = "unknown_gpu_note_one" if len(gpus) == 1 else "unknown_gpu_note"
        names = _listed(gpus, "no_gpu_named", lang)
        notes.append(label(key, lang).format(n=count(len(gpus)), gpus=names, hbm=DEFAULT_HBM_TBS))
    if precisions := report.get("unknown_precision"):
        key = "unknown_precision_note_one" if len(precisions) == 1 else "unknown_precision_note"
        names = _listed(precisions, "no_precision_given", lang)
        notes.append(label(key, lang).format(n=count(len(precisions)), labels=names))
    if alone := report.get("baseline_only"):
        key = "baseline_only_note_one" if len(alone) == 1 else "baseline_only_note"
        notes.append(label(key, lang).format(configs=count(len(alone))))
    if few := report.get("too_few_sizes"):  # fit mode: under 4 sizes (a baseline alone too) nothing is left to hold out
        from dpscale.sources.fit_validate import MIN_SIZES

        key = "too_few_sizes_note_one" if few == 1 else "too_few_sizes_note"
        notes.append(label(key, lang).format(configs=count(few), n=MIN_SIZES))
    return notes


def _listed(found: dict[str, str], blank: str, lang: str) -> str:
    """Each distinct label once, in file order, a blank cell said as one (its repr '' read as nothing)."""
    return ", ".join(repr(x) if x.strip() else label(blank, lang) for x in dict.fromkeys(found.values()))


def _skip_reasons(reasons: dict[str, dict[str, Any]], lang: str, shown: int = 3) -> list[str]:
    """One line per missing column: how many configurations lack it, the first few, and any system the catalog
    lacks that would have filled it ('HGX H100' skipped with blank fabric columns said only 'missing')."""
    out = []
    for what in dict.fromkeys(r["missing"] for r in reasons.values()):
        cfgs = [c for c, r in reasons.items() if r["missing"] == what]
        more = f", … (+{number(len(cfgs) - shown, 'int', lang)})" if len(cfgs) > shown else ""
        n = number(len(cfgs), "int", lang)  # 1,500 (1.500 in Spanish), as every other count is written
        line = label("skip_reason_note", lang).format(
            n=n, what=label(f"skip:{what}", lang), cfgs=", ".join(cfgs[:shown]) + more
        )
        systems = dict.fromkeys(reasons[c]["unknown_system"] for c in cfgs if "unknown_system" in reasons[c])
        if systems:
            line += label("skip_unknown_system", lang).format(names=", ".join(map(repr, systems)))
        for keys in dict.fromkeys(
            tuple(reasons[c]["ambiguous_system"]) for c in cfgs if "ambiguous_system" in reasons[c]
        ):
            line += label("skip_ambiguous_system", lang).format(keys=" / ".join(keys))
        out.append(line)
    return out


# The band columns each mode's rows carry after COLUMNS (--csv writes them too)
BAND_KEYS = {"predict": ("predicted_lo", "predicted_hi"), "fit": ("efficiency_lo", "efficiency_hi")}
CFG_WIDTH = 60  # characters of a configuration id the table shows


def _cut(cfg: str) -> str:
    """A configuration id for the table: whole, or its first characters and '…' when longer than CFG_WIDTH."""
    return cfg if len(cfg) <= CFG_WIDTH else cfg[: CFG_WIDTH - 1] + "…"
