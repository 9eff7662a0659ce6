"""`dpscale validate DATA.csv [--mode predict|fit]`: predictions or fits against published measurements."""

from __future__ import annotations

from dpscale.faces.cli.common import add_output_args
from dpscale.faces.i18n import number
from dpscale.faces.output import Column, emit, to_json

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

COLUMNS = [
    Column("cfg", "text"),
    Column("devices", "int"),
    Column("measured", "fixed3"),
    Column("predicted", "fixed3"),
    Column("error", "fixed3"),
]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("data", metavar="DATA.csv", help="published measurements (format: shared/data/README.md)")
    p.add_argument(
        "--mode",
        choices=("predict", "fit"),
        default="predict",
        help="predict: each row from its configuration's baseline (default); fit: fit all sizes but the "
        "largest, predict the largest",
    )
    add_output_args(p, plot=False)


def run(args: argparse.Namespace) -> int:
    from dpscale.sources.dataset import read_published

    configs = read_published(args.data)
    if args.mode == "fit":
        from dpscale.sources.fit_validate import validate_fit

        report = validate_fit(configs)
    else:
        from dpscale.sources.predict_validate import validate_predict

        report = validate_predict(configs)
    if args.json:
        print(to_json(report))
        return 0
    rows = [dict(r, cfg=r["cfg"][:60]) for r in report["rows"]]
    lang = args.lang
    keys = ("points", "configs", "median_abs_error", "p90_abs_error", "max_abs_error")
    notes = [", ".join(f"{k.replace('_', ' ')} {number(report[k], 'float', lang)}" for k in keys)]
    if "constant_baseline_median_abs_error" in report:
        notes.append(
            "a constant E (the file's median) would err by "
            f"{number(report['constant_baseline_median_abs_error'], 'float', lang)} median"
        )
    if "band_coverage" in report:
        notes.append(f"{number(report['band_coverage'], 'pct', lang)} of measurements inside the predicted 80 % band")
    if report.get("skipped_configs"):
        notes.append(
            f"skipped {report['skipped_configs']} configurations ({report['skipped_rows']} rows) "
            "missing what a prediction needs (units per sample or per-device batch for the step time, parameters, "
            "or the bandwidth of a link they use)"
        )
    emit(rows, COLUMNS, args, title=f"dpscale validate --mode {args.mode}: {args.data}", notes=notes)
    return 0
