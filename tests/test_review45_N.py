"""Review 45 N: the README and docs stay true where a claim was cheap to test and was not yet tested."""

from __future__ import annotations

import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_names_every_benchmark_script():
    """README's 'Benchmarks' paragraph lists the scripts in benchmarks/: bench_sizes.py (session 42) was left out."""
    section = README.split("Benchmarks (`benchmarks/`", 1)[1]
    named = set(re.findall(r"`((?:bench_\w+|timing)\.py)`", section))
    present = {p.name for p in (ROOT / "benchmarks").glob("*.py")}
    assert named == present


def test_readme_page_limits_are_the_app_s():
    """The limits README gives the page are the app's constants: 2,000 sizes, 10,000 resamples, the 2,000,000
    resamples × sizes a fit may ask (unsaid until review 45: 10,000 resamples at 300 sizes was refused), 10,000
    characters a field, 1 MiB a body."""
    import pytest

    pytest.importorskip("fastapi")
    from dpscale.faces.web import app

    text = " ".join(README.split())
    said = re.search(
        r"sweeps past ([\d,]+) sizes and fits past ([\d,]+) resamples \(`--resamples`\) or ([\d,]+) resamples × sizes;"
        r" a field takes at most ([\d,]+) characters and a request body (\d+) MiB",
        text,
    )
    assert said, "README's sentence on the page's limits changed shape"
    rows, resamples, cells, chars, mib = (int(x.replace(",", "")) for x in said.groups())
    assert (rows, resamples, cells, chars, mib << 20) == (
        app.MAX_PAGE_ROWS,
        app.MAX_PAGE_RESAMPLES,
        app.MAX_PAGE_CELLS,
        app.MAX_VALUE_CHARS,
        app.MAX_BODY_BYTES,
    )


VALIDATION = ROOT / "validation"


def _configs(*names: str) -> list:
    from dpscale.sources.dataset import read_published

    return [c for name in names for p in sorted(VALIDATION.glob(name)) for c in read_published(p)]


@functools.cache
def _predicted(*names: str) -> dict:
    from dpscale.sources.predict_validate import validate_predict

    return validate_predict(_configs(*names))


def _as_said(value: float, said: str) -> str:
    """value rounded to the decimals the text gives it ('0.06' of 0.058; '72' of 0.7203 as a percentage)."""
    decimals = len(said.split(".", 1)[1]) if "." in said else 0
    return f"{value:.{decimals}f}"


def test_readme_accuracy_paragraph_is_what_validate_reports():
    """README's figures for the predictor, file by file, as `dpscale validate FILE --json` reports them now: the dev
    set, the two first hold-outs, TensorFlow's P100 tables, the four of session 23, the eighth and the ninth, all nine
    pooled, and the band's coverage. A recalibration or a new hold-out that leaves the README behind fails here."""
    text = " ".join(README.split())

    def check(got: float, said: str, what: str) -> None:
        assert _as_said(got, said) == said, f"README says {said} for {what}; validate gives {got:.4f}"

    m = re.search(r"fitted to (\d+) published rows \((\d+) configurations", text)
    calib = _predicted("published_scaling_dev.csv", "external_*.csv")
    assert (calib["points"], calib["configs"]) == (int(m[1]), int(m[2]))
    dev = _predicted("published_scaling_dev.csv")
    m = re.search(r"On the published dev set the median error in E is ([\d.]+) \(a constant E errs by ([\d.]+)\)", text)
    check(dev["median_abs_error"], m[1], "the dev set")
    check(dev["constant_baseline_median_abs_error"], m[2], "a constant E on the dev set")

    m = re.search(r"it is ([\d.]+) and ([\d.]+), worse than a constant E \(([\d.]+), ([\d.]+)\)", text)
    for name, med, const in (("holdout_pyt.csv", m[1], m[3]), ("holdout_tf.csv", m[2], m[4])):
        got = _predicted(name)
        check(got["median_abs_error"], med, name)
        check(got["constant_baseline_median_abs_error"], const, f"a constant E on {name}")
        assert got["median_abs_error"] > got["constant_baseline_median_abs_error"]  # 'worse than a constant E'
    check(_predicted("holdout_tfbench.csv")["median_abs_error"], re.search(r"not calibrated on\) ([\d.]+);", text)[1],
          "holdout_tfbench")  # fmt: skip

    four = [_predicted(f"holdout_{n}.csv") for n in ("more", "more2", "more3", "dlperf")]
    m = re.search(
        r"eight frameworks on one 32-GPU cluster\) ([\d.]+)–([\d.]+) \(a constant E: ([\d.]+)–([\d.]+)\)", text
    )
    medians = [r["median_abs_error"] for r in four]
    constants = [r["constant_baseline_median_abs_error"] for r in four]
    check(min(medians), m[1], "the four of session 23 (least)")
    check(max(medians), m[2], "the four of session 23 (most)")
    check(min(constants), m[3], "a constant E on the four (least)")
    check(max(constants), m[4], "a constant E on the four (most)")

    m = re.search(r"session 31\) ([\d.]+) \(([\d.]+)\);", text)
    more4 = _predicted("holdout_more4.csv")
    check(more4["median_abs_error"], m[1], "holdout_more4")
    check(more4["constant_baseline_median_abs_error"], m[2], "a constant E on holdout_more4")
    m = re.search(r"U-Net 3\+\) ([\d.]+), far worse than a constant E \(([\d.]+)\)", text)
    more5 = _predicted("holdout_more5.csv")
    check(more5["median_abs_error"], m[1], "holdout_more5")
    check(more5["constant_baseline_median_abs_error"], m[2], "a constant E on holdout_more5")

    pooled = _predicted("holdout_*.csv")
    m = re.search(r"all nine pooled, (\d+) points: ([\d.]+), 90th percentile ([\d.]+) \(a constant E: ([\d.]+)\)", text)
    assert pooled["points"] == int(m[1]) and len(list(VALIDATION.glob("holdout_*.csv"))) == 9
    check(pooled["median_abs_error"], m[2], "the pooled hold-outs")
    check(pooled["p90_abs_error"], m[3], "the pooled hold-outs' p90")
    check(pooled["constant_baseline_median_abs_error"], m[4], "a constant E on the pooled hold-outs")

    m = re.search(r"\((\d+) % of the (\d+) rows fall inside it; (\d+) % of the (\d+) hold-out points\)", text)
    assert (int(m[2]), int(m[4])) == (calib["points"], pooled["points"])
    check(100 * calib["band_coverage"], m[1], "the band's coverage of the calibration rows")
    check(100 * pooled["band_coverage"], m[3], "the band's coverage of the hold-outs")


def test_readme_fit_mode_figures_are_what_validate_reports():
    """'median error 0.016 on the dev set, and 26 of 26 … inside the 90 % prediction interval; on the 81 published
    configurations outside the dev set (`validation/`), median 0.027, p90 0.078, and 75 of 81 inside'."""
    from dpscale.sources.fit_validate import validate_fit

    text = " ".join(README.split())
    m = re.search(
        r"median error ([\d.]+) on the dev set, and (\d+) of (\d+) measurements inside the 90 % prediction interval; "
        r"on the (\d+) published configurations outside the dev set \(`validation/`\), median ([\d.]+), p90 ([\d.]+), "
        r"and (\d+) of (\d+) inside",
        text,
    )
    dev = validate_fit(_configs("published_scaling_dev.csv"))
    assert _as_said(dev["median_abs_error"], m[1]) == m[1]
    assert (round(dev["interval_coverage"] * dev["points"]), dev["points"]) == (int(m[2]), int(m[3]))
    rest = validate_fit(_configs("external_*.csv", "holdout_*.csv"))
    assert rest["points"] == int(m[4]) == int(m[8])
    assert (_as_said(rest["median_abs_error"], m[5]), _as_said(rest["p90_abs_error"], m[6])) == (m[5], m[6])
    assert round(rest["interval_coverage"] * rest["points"]) == int(m[7])


PREDICT_DOC = " ".join((ROOT / "docs" / "predict.md").read_text(encoding="utf-8").split("\n"))


def test_predict_doc_holdout_table_is_what_validate_reports():
    """docs/predict.md's 'Hold-out sets, never calibrated on' table, row by row: rows, median (p90), a constant E's
    median and the band's coverage of each hold-out with the shipped constants, and the nine pooled."""
    rows = re.findall(
        r"\| `(holdout_\w+\.csv)`, (\d+) rows[^|]*\| ([\d.]+) \(([\d.]+)[;)][^|]*\| ([\d.]+) \| (\d+) % \|", PREDICT_DOC
    )
    assert sorted(r[0] for r in rows) == sorted(p.name for p in VALIDATION.glob("holdout_*.csv"))
    pooled = re.search(
        r"\| all nine, pooled: (\d+) rows, (\d+) configurations \| ([\d.]+) \(([\d.]+)\) \| ([\d.]+) \| (\d+) % \|",
        PREDICT_DOC,
    )
    for name, *said in [*rows, ("holdout_*.csv", pooled[1], *pooled.groups()[2:])]:
        got = _predicted(name)
        shown = [str(got["points"])] + [
            _as_said(v, s)
            for v, s in zip(
                (got["median_abs_error"], got["p90_abs_error"], got["constant_baseline_median_abs_error"],
                 100 * got["band_coverage"]),
                said[1:],
                strict=True,
            )
        ]  # fmt: skip
        assert shown == said, name
    assert _predicted("holdout_*.csv")["configs"] == int(pooled[2])


def test_predict_doc_in_sample_table_and_band_coverage_are_what_validate_reports():
    """The report's first table: the in-sample row (median, p90) and a constant E's median for each calibration file
    and all 217 rows, and the band's coverage per file ('dev set 90 %, `external_dle` 93 %, …')."""
    files = ["published_scaling_dev.csv", "external_dle.csv", "external_more_pyt.csv", "external_more_tf.csv"]
    in_sample = re.search(r"\| in-sample \(shipped constants\) \|([^\n]+?)\|\s*\| leave one", PREDICT_DOC)[1]
    cells = [re.fullmatch(r"\s*\**([\d.]+)\** \(([\d.]+)\)\s*", c).groups() for c in in_sample.split("|")]
    constant = re.search(r"\| constant E = that file's median \|([^\n]+?)\| \|", PREDICT_DOC)[1].split("|")
    for (med, p90), name in zip(cells, [*[(f,) for f in files], tuple(files)], strict=True):
        got = _predicted(*name)
        assert (_as_said(got["median_abs_error"], med), _as_said(got["p90_abs_error"], p90)) == (med, p90), name
    for said, name in zip(constant, files, strict=True):
        got = _predicted(name)["constant_baseline_median_abs_error"]
        assert _as_said(got, said.strip()) == said.strip(), name
    m = re.search(
        r"\(dev set (\d+) %, `external_dle` (\d+) %, `external_more_pyt` (\d+) %, `external_more_tf` (\d+) %",
        PREDICT_DOC,
    )
    assert [f"{100 * _predicted(f)['band_coverage']:.0f}" for f in files] == list(m.groups())


def test_readme_limits_hold_out_range_is_what_validate_reports():
    """README's Limits: 'on nine sets of tables it was never calibrated on it is 0.022–0.19 — worse than a constant E
    on three of them'."""
    text = " ".join(README.split())
    m = re.search(r"on (\w+) sets of tables it was never calibrated on it is ([\d.]+)–([\d.]+) — worse than a "
                  r"constant E on (\w+) of them", text)  # fmt: skip
    words = {"three": 3, "nine": 9}
    sets = [_predicted(p.name) for p in sorted(VALIDATION.glob("holdout_*.csv"))]
    medians = [r["median_abs_error"] for r in sets]
    worse = sum(r["median_abs_error"] > r["constant_baseline_median_abs_error"] for r in sets)
    assert (len(sets), worse) == (words[m[1]], words[m[4]])
    assert (_as_said(min(medians), m[2]), _as_said(max(medians), m[3])) == (m[2], m[3])
