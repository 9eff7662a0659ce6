"""What `dpscale measure allreduce` and `measure equivalence` print as --csv, --json and tables, and what they say
on stderr there (review EK: no test took these branches). No rank starts: the launcher is a stand-in."""

from __future__ import annotations

import argparse
import csv
import io
import json
import types
from pathlib import Path

import pytest

from dpscale.faces.cli import measure

ROWS = [  # two message sizes as rank 0 reports them: 1 KiB in 40 µs, 4 KiB in 100 µs, 2 ranks (busbw = algbw)
    {"bytes": 1024, "time_s": 4e-5, "algbw_gbs": 1024 / 4e-5 / 1e9, "busbw_gbs": 1024 / 4e-5 / 1e9, "iters": 5},
    {"bytes": 4096, "time_s": 1e-4, "algbw_gbs": 4096 / 1e-4 / 1e9, "busbw_gbs": 4096 / 1e-4 / 1e9, "iters": 5},
]


def _args(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    measure.add_arguments(p)
    return p.parse_args(list(argv))


def _cut_short(monkeypatch) -> None:
    """A bench interrupted after two sizes: the launcher raises Ctrl-C carrying rank 0's rows so far."""
    job = measure.build_job(_args("allreduce"), "allreduce")

    def interrupted(job, d, progress):
        exc = KeyboardInterrupt()
        exc.partial = {"rows": ROWS, "devices": 2, "backend": "gloo", "device": "cpu"}  # type: ignore[attr-defined]
        raise exc

    monkeypatch.setattr(measure, "_prepare", lambda args, mode, own: (job, [2], types.SimpleNamespace(run=interrupted)))


@pytest.mark.parametrize("machine", ["--json", "--csv"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_cut_short_calibration_says_where_it_went_under_json_and_csv(monkeypatch, capsys, tmp_path, machine, lang):
    """docs/measure.md: a calibration cut short goes beside an earlier one (calib.partial.json) and 'the note under
    the table says so'. Under --json and --csv that note was dropped: stdout held the partial rows, stderr only
    'interrupted' — nothing said calib.json was kept, nor where the partial one went, nor to measure the rest before
    predicting. The caveats go to stderr there, as train's do."""
    calib = tmp_path / "calib.json"
    earlier = '{"format": "dpscale-allreduce-calibration", "busbw_gbs": 12.5, "alpha_s": 1e-05}\n'
    calib.write_text(earlier)
    _cut_short(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        measure.run(_args("allreduce", "--out", str(calib), machine, "--lang", lang))
    out, err = capsys.readouterr()
    beside = tmp_path / "calib.partial.json"
    assert calib.read_text() == earlier and json.loads(beside.read_text())["partial"] is True
    if machine == "--json":
        assert json.loads(out)["partial"] is True and [p["bytes"] for p in json.loads(out)["points"]] == [1024, 4096]
    else:
        assert [r[0] for r in csv.reader(io.StringIO(out))] == ["bytes", "1024", "4096"]
    said = {
        "en": (f"note: partial calibration written to {beside}: the run was cut short after 2 sizes",
               f"note: {calib} keeps the calibration it held"),
        "es": (f"nota: calibración parcial escrita en {beside}: la ejecución se cortó tras 2 tamaños",
               f"nota: {calib} conserva la calibración que tenía"),
    }[lang]  # fmt: skip
    assert said[0] in err and said[1] in err, err
    assert "{" not in err and "bytes," not in err  # stdout alone carries the JSON or the CSV


def test_allreduce_and_equivalence_csv_are_one_row_a_size_and_a_check(capsys):
    """--csv (issue 5: on every command) of the two other modes, which no test printed: allreduce one row per
    message size, time in µs (40 µs, 100 µs) beside its seconds; equivalence one row per size and dtype, the
    threshold the relative tolerance × max |grad| (1e-4 × 0.5 = 5e-5)."""
    from dpscale.sources.measure.calibration import calibration

    cal = {**calibration(ROWS, 2, "gloo", device="cpu"), "rows": ROWS}
    measure.show_allreduce(cal, _args("allreduce", "--csv"))
    out, err = capsys.readouterr()
    got = list(csv.DictReader(io.StringIO(out)))
    assert [(r["bytes"], float(r["time_us"]), float(r["time_s"])) for r in got] == [
        ("1024", 40.0, 4e-5),
        ("4096", 100.0, 1e-4),
    ]
    assert err == ""  # nothing cut short, no --out: nothing to say beside the rows
    check = {"dtype": "float32", "max_abs_diff": 2e-6, "grad_max": 0.5, "tolerance": 1e-4, "threshold": 5e-5,
             "passed": True, "params": 10}  # fmt: skip
    result = {"devices": 2, "batch": 4, "workload": "mlp", "backend": "gloo", "passed": True,
              "checks": [{**check, "dtype": "float64", "max_abs_diff": 0.0, "tolerance": 1e-10, "threshold": 5e-11},
                         check]}  # fmt: skip
    measure.show_equivalence([result], _args("equivalence", "--csv"))
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["devices"], r["dtype"], float(r["threshold"]), r["passed"]) for r in rows] == [
        ("2", "float64", 5e-11, "true"), ("2", "float32", 5e-5, "true")]  # fmt: skip


def test_a_finished_calibration_in_a_table_says_where_it_was_written(capsys, tmp_path: Path):
    """The table's notes: the α–β fit (through 1 KiB in 40 µs and 4 KiB in 100 µs:
    β = 60 µs / 3,072 B = 1.953e-8 s/B, α = 40 µs − 1,024 β = 20 µs),
    then 'calibration written to' --out — and no 'partial' line for a bench that ran to its end."""
    from dpscale.sources.measure.calibration import calibration

    cal = {**calibration(ROWS, 2, "gloo", device="cpu"), "rows": ROWS}
    path = tmp_path / "c.json"
    measure.show_allreduce(cal, _args("allreduce", "--out", str(path)))
    out = capsys.readouterr().out
    assert "α = 20.0 µs, β = 1.953e-08 s/B" in out and f"note: calibration written to {path}" in out
    assert "partial" not in out


@pytest.mark.parametrize(
    ("lang", "title", "equivalence"),
    [
        ("en", "measured: mlp, batch 1,024/rank, 1,000 steps × 3 repeats, gloo on cpu, 1 thread/rank",
         "DDP equivalence: 2 ranks × batch 1,024 vs one process on batch 2,048 (mlp, gloo)"),
        ("es", "medido: mlp, lote 1.024/proceso, 1.000 pasos × 3 repeticiones, gloo en cpu, 1 hilo/proceso",
         "equivalencia DDP: 2 procesos × lote 1.024 frente a un proceso con lote 2.048 (mlp, gloo)"),
    ],
)  # fmt: skip
def test_a_title_s_counts_are_grouped_as_the_table_s(capsys, lang, title, equivalence):
    """Review MP: `measure --batch 1024 --steps 1000 --lang es` titled its table 'lote 1024/proceso, 1000 pasos'
    above rows that group 1.024, and `measure equivalence -b 1024` 'lote 1024 frente a … lote 2048': the record's
    ints reached the title bare, in English too ('batch 1024/rank')."""
    from clihelp import MEASURE_ROW

    args = argparse.Namespace(json=False, csv=False, lang=lang)
    measure.show_train([{**MEASURE_ROW, "devices": 1, "batch": 1024, "steps": 1000, "repeats": 3}], args)
    assert capsys.readouterr().out.splitlines()[0] == title
    check = {"dtype": "float32", "max_abs_diff": 2e-6, "grad_max": 0.5, "tolerance": 1e-4, "threshold": 5e-5,
             "passed": True, "params": 10}  # fmt: skip
    result = {"devices": 2, "batch": 1024, "workload": "mlp", "backend": "gloo", "passed": True, "checks": [check]}
    measure.show_equivalence([result], _args("equivalence", "--lang", lang))
    assert capsys.readouterr().out.splitlines()[0] == equivalence


@pytest.mark.parametrize(
    ("mode", "lang", "said"),
    [("train", "es", "entrenamiento d=2"), ("train", "en", "train d=2"), ("allreduce", "es", "all-reduce d=2"),
     ("equivalence", "es", "equivalencia d=2"), ("equivalence", "en", "equivalence d=2")],
)  # fmt: skip
def test_the_progress_bar_names_what_runs_in_the_language(monkeypatch, capsys, mode, lang, said):
    """Review MP: on a terminal, `dpscale measure --lang es` drew its bar as 'train d=1', 'train d=2' — the mode's
    internal name, English; the rest of the screen Spanish. The bar's line is the language's word now."""
    job = measure.build_job(_args(*([mode] if mode != "train" else [])), mode)
    lines = []

    class Bar:  # a terminal's bar, its lines kept
        def __init__(self, quiet):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

        def task(self, text):
            lines.append(text)

    from dpscale.sources.measure.launcher import RunFailed

    def crash(job, d, progress):  # the bar's line is drawn before the size runs: none need run
        raise RunFailed(d, "rank 0", "crashed (exit code 1)")

    stop = types.SimpleNamespace(run=crash)
    monkeypatch.setattr(measure, "Bar", Bar)
    monkeypatch.setattr(measure, "_prepare", lambda args, mode, own: (job, [2], stop))
    argv = [*([mode] if mode != "train" else []), "-d", "2", "--lang", lang]
    assert measure.run(_args(*argv)) == 1
    capsys.readouterr()
    assert lines == [said]
