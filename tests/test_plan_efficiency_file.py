"""plan --efficiency-file (and plan --fit): E per size from another command's JSON, read and checked."""

from __future__ import annotations

import json

import pytest
from clihelp import read_runs, run

from dpscale.errors import DpscaleError
from dpscale.sources.efficiency_file import SUPERLINEAR_PLAN, read_efficiencies

# Session 43's own findings: each test failed before its fix.


@pytest.mark.parametrize(
    ("record", "shown"),
    [
        ('{"devices": 1, "efficiency": null}', "record 1: efficiency null'"),
        ('{"devices": true, "efficiency": 1}', "record 1: devices true'"),
        ('{"devices": "8", "efficiency": 0.9}', 'record 1: devices "8"\''),  # text, as the file quoted it
    ],
)
def test_an_efficiency_file_s_bad_value_is_shown_as_the_file_wrote_it(capsys, tmp_path, record, shown):
    """plan --efficiency-file said 'record 1: efficiency None' of a JSON null, 'devices True' of true."""
    path = tmp_path / "e.json"
    path.write_text(f"[{record}]")
    rc, out, err = run(capsys, "plan", "-n", "1e6", "-v", "100", "--efficiency-file", str(path))
    assert rc == 2 and out == "" and f"--efficiency-file: got '{shown}" in err


def test_an_efficiency_file_s_missing_field_is_said_missing_in_both_languages(capsys, tmp_path):
    """A record without its efficiency read 'efficiency None' (Python's word for neither null nor absent)."""
    path = tmp_path / "e.json"
    path.write_text('[{"devices": 8, "efficiency": 0.9}, {"devices": 16}]')
    argv = ["plan", "-n", "1e6", "-v", "100", "--efficiency-file", str(path)]
    assert "got 'record 2: efficiency missing'; allowed: E in (0, 1]" in run(capsys, *argv)[2]
    assert "se recibió 'registro 2: falta efficiency'; se admite: E en (0, 1]" in run(capsys, *argv, "--lang", "es")[2]


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"devices": 1' + "0" * 5000 + "}"],  # RecursionError; int() of 5001 digits
    ids=["nested too deep", "a number too long"],
)
def test_an_efficiency_file_json_cannot_read_is_one_line_in_both_languages(capsys, tmp_path, monkeypatch, text):
    """JSON that is well formed yet past what json reads raises no JSONDecodeError: refused as no efficiency file;
    100,000 deep, in the words fit, validate and --system-file say it in (review KJ: 'got 'e.json'; allowed: …')."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "e.json").write_text(text)
    argv = ["plan", "-n", "1e6", "-v", "100", "--efficiency-file", "e.json"]
    deep = text.startswith("[")
    for lang, said in (
        (
            "en",
            "--efficiency-file: e.json: nested too deeply; allowed: JSON from `dpscale predict`, `fit` or `measure "
            if deep
            else "--efficiency-file: got 'e.json'; allowed: JSON from `dpscale predict`, `fit` or `measure ",
        ),
        (
            "es",
            "--efficiency-file: e.json: anidado a demasiada profundidad; se admite: JSON de `dpscale predict`"
            if deep
            else "--efficiency-file: se recibió 'e.json'; se admite: JSON de `dpscale predict`, `fit` o `measure ",
        ),
    ):
        rc, out, err = run(capsys, *argv, "--lang", lang)
        assert rc == 2 and out == "" and said in err and len(err.strip().splitlines()) == 1, err


def test_an_efficiency_file_s_blank_unit_states_none(capsys, tmp_path):
    """A blank "unit" states none, as in a runs file (9d6fa0f) and a CSV's blank cell: plan refused the file's own
    rate with "allowed: ''". With none stated, its 100 a device is samples/s: 1e6 samples at 8 × 100 × 0.9 a second
    take 1e6 / 720 s = 0.386 h."""
    path = tmp_path / "e.json"
    path.write_text('[{"devices": 1, "efficiency": 1.0, "per_device_throughput": 100, "unit": ""}, '
                    '{"devices": 8, "efficiency": 0.9, "per_device_throughput": 100, "unit": ""}]')  # fmt: skip
    rc, out, err = run(capsys, "plan", "-n", "1e6", "-d", "8", "--efficiency-file", str(path), "--json")
    assert rc == 0, err
    (row,) = json.loads(out)
    assert row["hours"] == pytest.approx(1e6 / 720 / 3600, rel=1e-12)


# Cases a fifth mutation sweep (sources.measure's pure logic, predict_validate, fit_validate, predict_inputs, the
# plan and web faces, notes) found no test could fail on. Each expected value is derived in its docstring or comment,
# from the docs or the arithmetic, not read back from the code. None of these starts torch or a process.


# ---------------------------------------------------------------- faces.cli.plan


def fit_file(tmp_path, v: float, band: tuple[float, float] | None = None, d0: int = 1):  # noqa: ANN201
    """What `dpscale fit --json` writes, reduced to what plan reads: E per size against d0, its rate, its band."""
    preds = [{"devices": d0, "efficiency": 1.0}, {"devices": 2 * d0, "efficiency": 0.95}]
    if band:
        preds = [{**preds[0], "efficiency_lo": 1.0, "efficiency_hi": 1.0},
                 {**preds[1], "efficiency_lo": band[0], "efficiency_hi": band[1]}]  # fmt: skip
    f = tmp_path / "fit.json"
    f.write_text(json.dumps({"predictions": preds, "baseline_devices": d0, "per_device_throughput": v,
                             "unit": "samples/s", "confidence": 0.9}))  # fmt: skip
    return str(f)


def test_an_efficiency_file_and_a_fit_are_two_sources_of_e(capsys, tmp_path):
    rc, _, err = run(capsys, "plan", "-n", "1e6", "--fit", str(tmp_path / "runs.csv"), "--efficiency-file",
                     fit_file(tmp_path, 100.0))  # fmt: skip
    assert rc == 2 and "give one source of E, not both" in err


def test_an_efficiency_file_alone_asks_for_the_samples(capsys, tmp_path):
    """A file alone is the user's E, not the worked example's: plan asks for the samples to plan (had the example
    filled its 1.28 M samples in, its E = 0.9 beside the file would be refused as a second source of E)."""
    rc, out, err = run(capsys, "plan", "--efficiency-file", fit_file(tmp_path, 100.0))
    assert (rc, out) == (2, "") and err.endswith("--samples: missing; allowed: a sample count > 0\n")


def test_the_file_s_rate_is_taken_to_every_digit(capsys, tmp_path):
    """v = 1234.56789 samples/s from the file: the plan's one-device rate is that, not 1.23e3."""
    rc, out, _ = run(capsys, "plan", "-n", "1e6", "--efficiency-file", fit_file(tmp_path, 1234.56789), "--json")
    assert rc == 0 and json.loads(out)[0]["actual_throughput"] == pytest.approx(1234.56789, rel=1e-12)


def test_a_file_relative_to_one_device_needs_no_d0_note(capsys, tmp_path):
    """E relative to d0 = 1 is E over one device: neither 'the file's E is relative to 1 devices' nor the speedup
    note is said (with -v given, or with v from the file)."""
    for argv in (["-v", "100"], []):
        rc, out, err = run(capsys, "plan", "-n", "1e6", "--efficiency-file", fit_file(tmp_path, 100.0), *argv)
        assert rc == 0 and "relative to 1 device" not in out + err and "speedup = d·E" not in out + err


def test_a_file_s_band_above_one_is_held_at_one(capsys, tmp_path):
    """A plan does not bank on E above 1: the band 0.90–1.05 at 2 devices is said as 0.900–1.000."""
    rc, out, err = run(capsys, "plan", "-n", "1e6", "--efficiency-file", fit_file(tmp_path, 100.0, (0.9, 1.05)))
    assert rc == 0 and "at 2 devices the file's 90 % band of E is 0.900–1.000" in out + err


# Mutation sweep 9 (session 35, of 9e8c82d..559d506): gaps the suite left open, each killing a surviving mutant.


def test_only_a_fit_s_own_json_is_refused_as_a_fitted_law(tmp_path, capsys):
    """A run with a stray "law" or "criterion" key is still a run; a JSON list naming both is no fit."""
    runs = '{"devices": 1, "throughput": 100, %s}\n' + "".join(
        f'{{"devices": {d}, "throughput": {x}}}\n' for d, x in ((2, 190), (4, 350))
    )
    for extra in ('"law": "usl"', '"criterion": "loo"'):
        path = tmp_path / "r.jsonl"
        path.write_text(runs % extra)
        rc, out, err = run(capsys, "fit", str(path), "--resamples", "100")
        assert rc == 0 and "fitted law: " in out, err
    path.write_text('{"devices": 1, "throughput": 100}\n["law", "criterion"]\n')
    rc, _, err = run(capsys, "fit", str(path))
    said = 'line 2: got \'["law", "criterion"]\'; allowed: an object with "devices" and "throughput"'
    assert rc != 0 and said in err
    rc, out, _ = run(capsys, "fit", "--point", "1:100", "--point", "2:190", "--point", "4:350", "--json",
                     "--resamples", "100")  # fmt: skip
    law = tmp_path / "law.json"
    law.write_text(out)
    rc, _, err = run(capsys, "fit", str(law))
    assert rc != 0 and "a fitted law (`dpscale fit --json`), not runs" in err


# Review 45 BB: mutation testing of the day's changes — each test kills a mutant that survived the suite and that a
# user would have seen (a wrong number or a wrong word).


def _file(tmp_path, data):
    path = tmp_path / "e.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _refusal(path):
    with pytest.raises(DpscaleError) as exc:
        read_efficiencies(path)
    return str(exc.value)


def test_an_efficiency_past_two_is_not_called_superlinear(tmp_path):
    records = [{"devices": 1, "efficiency": 1.0}, {"devices": 2, "efficiency": 2.5}]
    assert _refusal(_file(tmp_path, records)).endswith("record 2: efficiency 2.5'; allowed: E in (0, 1]")
    records[1]["efficiency"] = 1.5
    assert _refusal(_file(tmp_path, records)).endswith(f"allowed: {SUPERLINEAR_PLAN}")


def test_a_band_that_leaves_its_e_outside_is_not_read(tmp_path):
    records = [
        {"devices": 1, "efficiency": 1.0, "efficiency_lo": 1.0, "efficiency_hi": 1.0, "bottleneck": "compute"},
        {"devices": 2, "efficiency": 0.9, "efficiency_lo": 0.8, "efficiency_hi": 0.95, "bottleneck": "network"},
    ]
    read = read_efficiencies(_file(tmp_path, records))
    assert read.band == {1: (1.0, 1.0), 2: (0.8, 0.95)} and read.level == 0.8
    records[1]["efficiency_lo"] = 0.92  # above its E
    read = read_efficiencies(_file(tmp_path, records))
    assert read.band is None and read.level is None


@pytest.mark.parametrize(("confidence", "level"), [(0.9, 0.9), (1.0, None)])
def test_a_fits_band_is_read_at_a_confidence_below_one(tmp_path, confidence, level):
    report = {"baseline_devices": 1, "confidence": confidence, "predictions": [
        {"devices": 1, "efficiency": 1.0, "efficiency_lo": 1.0, "efficiency_hi": 1.0},
        {"devices": 4, "efficiency": 0.9, "efficiency_lo": 0.85, "efficiency_hi": 0.95}]}  # fmt: skip
    read = read_efficiencies(_file(tmp_path, report))
    assert read.level == level and (read.band is None) == (level is None)


def test_two_units_in_one_file_are_refused_and_the_documents_own_is_not_called_a_record(tmp_path):
    records = [{"devices": 1, "efficiency": 1.0, "unit": "samples/s"}, {"devices": 2, "efficiency": 0.9,
                                                                       "unit": "tokens/s"}]  # fmt: skip
    assert _refusal(_file(tmp_path, records)).endswith(
        "got 'record 2: unit tokens/s against samples/s'; allowed: one throughput unit per file"
    )
    doc = {"unit": "tokens/s", "points": [{"devices": 1, "efficiency": 1.0, "unit": "samples/s"}]}
    assert _refusal(_file(tmp_path, doc)).endswith("got 'unit tokens/s against samples/s'; allowed: one throughput "
                                                   "unit per file")  # fmt: skip


# A whole-module mutation pass over sources/efficiency_file.py: each test kills a mutant that survived the suite.


def test_a_record_at_zero_devices_is_refused_as_the_record_s_devices(tmp_path):
    """_device_count's 1 ≤ d: a size of 0 is named as the record's own field, with the range, not left to the E
    table's later check."""
    records = [{"devices": 0, "efficiency": 1.0}, {"devices": 2, "efficiency": 0.9}]
    assert _refusal(_file(tmp_path, records)).endswith(
        "got 'record 1: devices 0'; allowed: a whole number from 1 to 10,000,000"
    )


def test_json_lines_of_e_records_are_not_called_runs(tmp_path):
    """Only lines whose first holds devices and throughput are `measure --out`'s runs; lines of E records (devices
    and efficiency) are said to be where the JSON breaks, not 'give it as --fit FILE'."""
    path = tmp_path / "e.jsonl"
    path.write_text('{"devices": 1, "efficiency": 1.0}\n{"devices": 2, "efficiency": 0.9}\n')
    said = _refusal(str(path))
    assert said.endswith("e.jsonl line 2: not JSON (Extra data)") and "holds runs" not in said
    path.write_text('{"devices": 1, "throughput": 100}\n{"devices": 2, "throughput": 190}\n')
    assert _refusal(str(path)).endswith("this file holds runs, one a line (`measure --out`): give it as --fit FILE")


def test_a_csv_of_runs_is_pointed_to_fit_as_measure_s_json_lines_are(tmp_path, capsys):
    """Review JQ: `measure --csv > runs.csv` then `plan --efficiency-file runs.csv` was refused 'runs.csv line 1: not
    JSON (Expecting value)', saying nothing of what to do, where the same run's --out lines are told to go to --fit.
    A CSV whose header has devices and throughput (or the Spanish page's dispositivos and rendimiento) is runs."""
    runs = "# measured\ndevices,throughput,step_time,workload\n1,100,0.64,mlp\n2,190,0.67,mlp\n"
    for name, text in (("runs.csv", runs), ("es.csv", "Dispositivos, rendimiento\n1,100\n2,190\n")):
        (tmp_path / name).write_text(text)
        assert _refusal(str(tmp_path / name)).endswith(
            "this file is a CSV of runs (`measure --csv`): give it as --fit FILE"
        )
    path = str(tmp_path / "runs.csv")
    rc, out, err = run(capsys, "plan", "-n", "1e6", "--efficiency-file", path, "--lang", "es")
    assert (
        rc == 2
        and out == ""
        and err.strip().endswith("este archivo es un CSV de ejecuciones (`measure --csv`): páselo como --fit ARCHIVO")
    )
    rc, out, _ = run(capsys, "plan", "-n", "1e6", "--fit", path, "-d", "1,2")
    assert rc == 0 and "190" in out  # the same file, as --fit reads it
    (tmp_path / "other.csv").write_text("devices,efficiency\n1,1\n")  # a CSV, but not runs: where the JSON breaks
    assert _refusal(str(tmp_path / "other.csv")).endswith("other.csv line 1: not JSON (Expecting value)")


def test_a_csv_of_runs_is_known_by_the_header_fit_reads(tmp_path):
    """Review JS: the hint looked for the header on the first line neither blank nor '#', split at commas, where fit
    skips a spreadsheet's empty row (',,,') above it and reads a quoted name whole: a file `plan --fit` plans was
    'line 1: not JSON (Expecting value)' under --efficiency-file, with nothing of --fit, and one column named
    "devices, throughput", which fit refuses ('missing columns devices, throughput'), was sent to --fit."""
    path = tmp_path / "commas.csv"
    path.write_text(",,,\ndevices,throughput\n1,100\n2,190\n")
    assert [(r.devices, r.throughput) for r in read_runs(path)] == [(1, 100.0), (2, 190.0)]
    assert _refusal(str(path)).endswith("this file is a CSV of runs (`measure --csv`): give it as --fit FILE")
    path = tmp_path / "one.csv"
    path.write_text('"devices, throughput"\n"1, 100"\n')
    with pytest.raises(DpscaleError, match="missing columns devices, throughput"):
        read_runs(path)
    assert _refusal(str(path)).endswith("one.csv line 2: not JSON (Extra data)")


def test_a_tab_or_semicolon_table_of_runs_is_pointed_to_fit_too(tmp_path, capsys):
    """A spreadsheet's runs saved with tabs or ';' were 'line 1: not JSON (Expecting value)' under --efficiency-file
    with nothing of --fit (review KE), where the comma file is told to go there and `plan --fit` then says how to
    save it ('separates its columns with tabs: save it as CSV with commas')."""
    for name, text in (("tabs.tsv", "devices\tthroughput\n1\t100\n2\t190\n"),
                       ("semi.csv", "[run];devices;throughput\na;1;100\nb;2;190\n")):  # fmt: skip
        (tmp_path / name).write_text(text)
        assert _refusal(str(tmp_path / name)).endswith("this file is a CSV of runs (`measure --csv`): give it as --fit "
                                                      "FILE"), name  # fmt: skip
        rc, _, err = run(capsys, "plan", "-n", "1e6", "--fit", str(tmp_path / name), "-d", "1,2")
        assert rc == 2 and "save it as CSV with commas" in err, err
    (tmp_path / "other.tsv").write_text("devices\tefficiency\n1\t1\n")  # tabs, but not runs: where the JSON breaks
    assert _refusal(str(tmp_path / "other.tsv")).endswith("other.tsv line 1: not JSON (Expecting value)")


def test_records_only_some_of_which_are_predict_s_state_no_unit_and_no_band(tmp_path):
    """predict's records (each with a bottleneck) are samples/s and carry its 80 % band; a file where one record
    lacks the bottleneck is not known to be predict's: no unit, no band."""
    records = [
        {"devices": 1, "efficiency": 1.0, "efficiency_lo": 1.0, "efficiency_hi": 1.0, "bottleneck": "compute"},
        {"devices": 2, "efficiency": 0.9, "efficiency_lo": 0.8, "efficiency_hi": 0.95},
    ]
    read = read_efficiencies(_file(tmp_path, records))
    assert (read.unit, read.band, read.level) == (None, None, None)
    records[1]["bottleneck"] = "network"
    read = read_efficiencies(_file(tmp_path, records))
    assert (read.unit, read.band, read.level) == ("samples/s", {1: (1.0, 1.0), 2: (0.8, 0.95)}, 0.8)


def test_the_library_s_fit_report_is_fit_json_s_and_plans_alike(capsys, tmp_path):
    """fit --json's report was built in faces/cli/fit.py alone (fitted E at the measured sizes, the default sizes,
    the answers and their merged warnings, the unit), so a notebook's fit saved for `plan --efficiency-file` could
    only be its bare predict(d).records(): read as E against one device, with no rate, d0, band or warnings. Runs
    from 8 devices: the saved records planned 256 devices without 'E relative to d0 = 8', without the fit's warning
    and without 'time 3.0 h – 4.1 h' at the band's ends. Fit.report() is now what the CLI prints, key for key."""
    import dpscale
    from dpscale.faces.output import clean

    runs = tmp_path / "runs.csv"
    runs.write_text("devices,throughput\n8,7600\n16,14400\n32,26000\n64,44000\n")
    argv = ["fit", str(runs), "--at", "3,64,256", "--target-throughput", "100", "--min-efficiency", "0.7", "--json"]
    rc, out, _ = run(capsys, *argv)
    cli = json.loads(out)
    f = dpscale.fit(str(runs))
    lib = f.report([3, 64, 256], target_throughput=100, min_efficiency=0.7)
    assert rc == 0 and list(lib) == list(cli) and clean(lib) == cli  # every key, in order, and every number
    assert [m["fitted_efficiency"] for m in lib["measured"]] == pytest.approx(list(f.efficiency([8, 16, 32, 64])))
    below = [w for w in lib["warnings"] if w.startswith("sizes below")]
    assert below == [cli["warnings"][1]] and "1; 3" in below[0]  # the answer's size and --at's, in one note
    assert lib["unit"] == "samples/s" and f.report(unit="tokens/s")["unit"] == "tokens/s"
    assert [p["devices"] for p in f.report()["predictions"]] == [8, 16, 32, 64, 128, 256]  # measured, 2×, 4×
    saved, printed = tmp_path / "fit.json", tmp_path / "cli.json"
    saved.write_text(json.dumps(f.report([64, 128, 256])))
    printed.write_text(run(capsys, "fit", str(runs), "--at", "64,128,256", "--json")[1])
    plans = [run(capsys, "plan", "--efficiency-file", str(p), "-n", "1e9", "-d", "64,256") for p in (saved, printed)]
    assert plans[0][1] == plans[1][1].replace("cli.json", "fit.json")
    assert "E relative to d0 = 8" in plans[0][1] and "time 3.0 h – 4.1 h" in plans[0][1]


def test_a_fit_report_with_no_peak_is_json_as_fit_json_prints_it(capsys, tmp_path):
    """Fit.report() is 'what fit --json prints', and docs/fit.md saves it with json.dump for plan: on runs whose law
    keeps rising (no peak up to 2^20 devices) it held float('inf') where --json prints null, so json.dump wrote
    '"peak": {"devices": Infinity, "lo": 111.0, "hi": Infinity}', which is not JSON (jq, a browser's JSON.parse
    and json.dumps(allow_nan=False) refuse it). Its ∞ are null now, as --json's (review LB); the table still says ∞."""
    import dpscale

    runs = tmp_path / "runs.csv"
    runs.write_text("devices,throughput\n1,1000\n8,7500\n16,14000\n32,26000\n")
    asked = {"target_throughput": 1e12, "min_efficiency": 0.01}
    lib = dpscale.fit(str(runs), gpus_per_node=8).report([64], **asked)
    text = json.dumps(lib, allow_nan=False)  # raised ValueError: Out of range float values are not JSON compliant
    assert (lib["peak"]["devices"], lib["peak"]["lo"], lib["peak"]["hi"]) == (None, 111.0, None)
    throughput, efficiency = lib["devices_for_throughput"], lib["devices_for_efficiency"]
    assert (throughput["devices"], throughput["lo"], throughput["hi"], throughput["reason"]) == (
        None, None, None, "beyond_search_cap"
    )  # fmt: skip
    assert (efficiency["devices"], efficiency["lo"], efficiency["hi"]) == (None, 1081, None)
    argv = ["fit", str(runs), "--gpus-per-node", "8", "--at", "64", "--target-throughput", "1e12"]
    rc, out, _ = run(capsys, *argv, "--min-efficiency", "0.01", "--json")
    cli = json.loads(out)
    assert rc == 0 and {k: cli[k] for k in ("peak", "devices_for_throughput", "devices_for_efficiency")} == {
        k: json.loads(text)[k] for k in ("peak", "devices_for_throughput", "devices_for_efficiency")
    }
    rc, out, _ = run(capsys, *argv, "--min-efficiency", "0.01")
    assert rc == 0 and "anywhere in [111, ∞] devices (∞: no peak)" in out
    assert "samples/s: ∞ [∞, ∞] (not reached within 1,048,576 devices; the law still rises there)" in out
    assert "largest size with E ≥ 1.0 %: ∞ [1,081, ∞] (E stays at or above it up to 1,048,576 devices)" in out
    rc, out, _ = run(capsys, *argv, "--min-efficiency", "0.01", "--lang", "es")
    assert rc == 0 and "muestras/s: ∞ [∞; ∞] (no se alcanza con 1.048.576 dispositivos" in out
    assert "mayor tamaño con E ≥ 1,0 %: ∞ [1.081; ∞] (E se mantiene igual o por encima" in out


def test_a_fit_report_keeps_the_unit_its_runs_state(capsys, tmp_path):
    """Fit.report(unit=) labelled runs that state tokens/s as whatever it was given: report(unit='samples/s') of a
    tokens/s runs file said samples/s, and plan --efficiency-file then refused '--unit tokens/s' and planned 1e9 as
    samples, where `fit runs.csv --unit samples/s` refuses the same mismatch. The report refuses it alike, and a
    unit written otherwise ('Tokens / s') is the runs' own, as the CLI prints it."""
    import dpscale

    runs = tmp_path / "runs.csv"
    runs.write_text("devices,throughput,unit\n1,1000,tokens/s\n8,7600,tokens/s\n16,14000,tokens/s\n")
    f = dpscale.fit(str(runs))
    with pytest.raises(DpscaleError, match=r"^unit: got 'samples/s'; allowed: 'tokens/s', the unit the runs state"):
        f.report(unit="samples/s")
    assert f.report()["unit"] == f.report(unit="Tokens / s")["unit"] == "tokens/s"
    rc, _, err = run(capsys, "fit", str(runs), "--unit", "samples/s", "--json")
    assert rc == 2 and "allowed: 'tokens/s'" in err


# Review IJ (session 64): one Llama-7B question worked through every command from the built wheel.


@pytest.mark.parametrize("sizes", ["1,8,64", "64"])  # an array of records, and a bare size's one object
def test_a_samples_per_second_calc_file_is_not_planned_as_tokens(capsys, tmp_path, sizes):
    """calc --json writes no "unit" for samples/s (its documented keys), so plan read its rows as of no unit and took
    any --unit: predict's E for Llama-7B on a DGX H100 fed through calc (1.83371 sequences/s a GPU, E 0.958 at 8) and
    piped to `plan --efficiency-file - -n 300e9 --unit tokens/s` planned 300e9 tokens at 8 × 1.83371 × 0.958 = 14.05
    'tokens/s': 5,929,707 h, 4,096× predict's own file's 1,447.7 h, unsaid — where predict's file of the same rate is
    refused. calc's rows are samples/s unless they say otherwise, as predict's are: refused alike, in both
    languages; without --unit the plan stays in samples/s (1e9 at 64 × 2,000 × 0.9 a second: 2.411 h)."""
    rc, out, _ = run(capsys, "calc", "-d", sizes, "-v", "2000", "-e", "0.9", "--json")
    assert rc == 0 and "unit" not in out
    path = tmp_path / "calc.json"
    path.write_text(out)
    assert read_efficiencies(str(path)).unit == "samples/s"
    argv = ["plan", "--efficiency-file", str(path), "-n", "1e9", "-d", "64", "--unit", "tokens/s"]
    rc, out, err = run(capsys, *argv)
    assert (rc, out) == (2, "") and len(err.splitlines()) == 1
    said = "--unit: got 'tokens/s'; allowed: 'samples/s', the unit of --efficiency-file's per-device throughput 2,000"
    assert said in err
    rc, _, err = run(capsys, *argv, "--lang", "es")
    assert rc == 2 and "se admite: 'samples/s'" in err, err
    rc, out, err = run(capsys, *argv[:-2], "--json")
    assert rc == 0, err
    (row,) = json.loads(out)
    assert round(1e9 / (64 * 2000 * 0.9) / 3600, 4) == 2.4113
    assert (row["unit"], round(row["hours"], 4)) == ("samples/s", 2.4113)


# Review IL (session 64): bb482db's edge — a file that mixes calc's unit-less (samples/s) rows with a stated unit.


@pytest.mark.parametrize("order", ["samples first", "tokens first"])
def test_a_calc_file_mixing_its_samples_rows_with_a_tokens_row_is_two_units(capsys, tmp_path, order):
    """bb482db made calc's rows without a "unit" samples/s, as predict's are — but only where no row of the file said
    a unit: calc's 1-device row of 100 samples/s (no "unit") beside its 8-device row of 100 tokens/s (`calc --unit
    tokens/s`) was planned as tokens/s (1e6 tokens at 8 × 100 × 0.9 a second: 23.1 min), a samples/s row's rate
    relabelled unsaid, where two stated units are refused. Now refused alike, in both languages."""
    samples = run(capsys, "calc", "-d", "1,8", "-v", "100", "-e", "1,0.9", "--json")[1]
    tokens = run(capsys, "calc", "-d", "1,8", "-v", "100", "-e", "1,0.9", "--unit", "tokens/s", "--json")[1]
    (s1, _), (_, t8) = json.loads(samples), json.loads(tokens)
    assert "unit" not in s1 and t8["unit"] == "tokens/s"
    rows, clash = ([s1, t8], "record 2: unit tokens/s against samples/s") if order == "samples first" else (
        [dict(t8, devices=1, efficiency=1.0), dict(s1, devices=8, efficiency=0.9)],
        "record 2: unit samples/s against tokens/s")  # fmt: skip
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(rows))
    with pytest.raises(DpscaleError, match=clash):
        read_efficiencies(str(path))
    for unit in ("tokens/s", "samples/s"):
        rc, out, err = run(capsys, "plan", "--efficiency-file", str(path), "-n", "1e6", "--unit", unit)
        assert (rc, out) == (2, "") and f"got '{clash}'; allowed: one throughput unit per file" in err, err
    rc, _, err = run(capsys, "plan", "--efficiency-file", str(path), "-n", "1e6", "--lang", "es")
    assert rc == 2 and "una unidad de rendimiento por archivo" in err
    # calc's samples/s rows beside predict's (no unit either): one unit, samples/s, planned as before
    path.write_text(json.dumps([s1, dict(s1, devices=8, efficiency=0.9, bottleneck="compute")]))
    assert read_efficiencies(str(path)).unit == "samples/s"


# Review IP (session 64): a mutation pass over 01cd93f — a blank "unit" is none, on either side of that rule.


@pytest.mark.parametrize("blank", ["", "  "])
def test_a_blank_unit_is_no_unit_beside_calc_s_rows(capsys, tmp_path, blank):
    """_unit reads a "unit" of "" or spaces as none ('"": none'). Two mutants of 01cd93f passed every test: (1) the
    relabelling read '  ' as stated, so calc's 100 samples/s row with a blank unit beside its 100 tokens/s row was
    planned as tokens/s (1e6 tokens at 8 × 100 × 0.9 a second), the defect 01cd93f fixed; (2) a blank unit anywhere
    made calc's rows samples/s, so a calc row beside another command's row of no unit read as samples/s, where the
    same file without the blank key states none (plan then takes any --unit, as for records only some of which
    are predict's)."""
    samples = run(capsys, "calc", "-d", "1,8", "-v", "100", "-e", "1,0.9", "--json")[1]
    tokens = run(capsys, "calc", "-d", "1,8", "-v", "100", "-e", "1,0.9", "--unit", "tokens/s", "--json")[1]
    (s1, _), (_, t8) = json.loads(samples), json.loads(tokens)
    path = tmp_path / "blank.json"
    path.write_text(json.dumps([dict(s1, unit=blank), t8]))
    with pytest.raises(DpscaleError, match="record 2: unit tokens/s against samples/s"):
        read_efficiencies(str(path))
    other = {"devices": 8, "efficiency": 0.9}  # a row of no command's four keys and no bottleneck
    path.write_text(json.dumps([s1, other]))
    assert read_efficiencies(str(path)).unit is None
    path.write_text(json.dumps([s1, dict(other, unit=blank)]))
    assert read_efficiencies(str(path)).unit is None


# Review JV: the --unit refusal wrote the file's rate as {v:g}, the note of the same rate as notes.figure.


@pytest.mark.parametrize(
    ("lang", "note", "said"),
    [
        ("en", "note: per-device throughput 1,234,570 from --efficiency-file",
         "the unit of --efficiency-file's per-device throughput 1,234,570 (or give --throughput in samples/s;"),
        ("es", "nota: rendimiento por dispositivo 1.234.570 tomado de --efficiency-file",
         "la unidad del rendimiento por dispositivo 1.234.570 de --efficiency-file (o dé --throughput en samples/s;"),
    ],
)  # fmt: skip
def test_the_unit_refusal_says_the_file_s_rate_as_its_note_does(capsys, tmp_path, lang, note, said):
    """A file of 1,234,567.8 tokens/s a device (a small model's rate) planned without --unit was refused '… the unit
    of --efficiency-file's per-device throughput 1.23457e+06 (or give …' — '1,23457e+06' in Spanish — where the
    plan with --unit tokens/s notes the same rate '1,234,570' ('1.234.570'): figure, the one way a number reaches a
    sentence (six figures, grouped, whole past a million); 2119.5117 is '2,119.51', as the note says it."""
    path = tmp_path / "tok.json"
    path.write_text(json.dumps([
        {"devices": d, "efficiency": e, "per_device_throughput": 1234567.8, "unit": "tokens/s"}
        for d, e in ((1, 1.0), (8, 0.9))
    ]))  # fmt: skip
    argv = ["plan", "-n", "1e9", "--efficiency-file", str(path), "--lang", lang]
    rc, out, err = run(capsys, *argv)
    assert (rc, out) == (2, "") and said in err and "e+06" not in err
    rc, out, err = run(capsys, *argv, "--unit", "tokens/s")
    assert rc == 0 and note in out, err


def test_an_efficiency_file_saved_twice_with_a_byte_order_mark_is_planned_as_without(capsys, tmp_path):
    """Review KJ: `plan --efficiency-file` on JSON saved twice with a byte-order mark said 'line 1: not JSON
    (Unexpected UTF-8 BOM (decode using utf-8-sig))'; files.read_text drops every leading mark, as fit's runs and
    validate's tables were read, so the plan is the one without the marks."""
    records = [{"devices": 1, "per_device_throughput": 100.0, "efficiency": 1.0},
               {"devices": 8, "per_device_throughput": 100.0, "efficiency": 0.9}]  # fmt: skip
    plain, marked = tmp_path / "e.json", tmp_path / "e2.json"
    plain.write_text(json.dumps(records))
    marked.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbf" + plain.read_bytes())
    argv = ["plan", "-n", "1e6", "-d", "8", "--json", "--efficiency-file"]
    said = {p: run(capsys, *argv, str(p)) for p in (plain, marked)}
    assert said[marked][0] == 0 and said[marked][1] == said[plain][1]
    assert json.loads(said[marked][1])[0]["efficiency"] == 0.9


@pytest.mark.parametrize("lang", ["en", "es"])
def test_one_measure_out_record_is_runs_as_two_are(capsys, tmp_path, lang):
    """Review KJ: a `measure --out` file of one record (one size measured) read as one record of E: plan took its E
    (1.0 at 2 devices, against its baseline_devices 1) as E against 1 and its rate at 2 devices as the baseline's,
    and planned '-d 2' on it, where the same file with a second record was refused as runs. One record is runs too:
    refused alike, and sent to --fit."""
    rec = {"devices": 2, "throughput": 11000.0, "per_device_throughput": 5500.0, "efficiency": 1.0,
           "baseline_devices": 1, "unit": "samples/s", "workload": "mlp", "step_s": 0.0105}  # fmt: skip
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.write_text(json.dumps(rec) + "\n")
    two.write_text(json.dumps({**rec, "devices": 1, "throughput": 5500.0}) + "\n" + json.dumps(rec) + "\n")
    said = {}
    for path in (one, two):
        rc, out, err = run(capsys, "plan", "-n", "1e6", "-d", "2", "--efficiency-file", str(path), "--lang", lang)
        assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        said[path] = err.replace(str(path), "FILE")
    assert said[one] == said[two]
    assert ("give it as --fit FILE" if lang == "en" else "páselo como --fit ARCHIVO") in said[one]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_measure_out_records_below_a_comment_are_sent_to_fit_as_without_it(capsys, tmp_path, monkeypatch, lang):
    """Review KP: `fit` and `plan --fit` read `measure --out`'s records below a '#' line (review KJ), but
    --efficiency-file looked for runs on the first line not blank, the comment, and said 'e.jsonl line 1: not JSON
    (Expecting value)' where the same records without it are sent to --fit. Now one refusal for both files."""
    runs = "".join(json.dumps({"devices": d, "throughput": x}) + "\n" for d, x in ((1, 1000.0), (2, 1900.0)))
    monkeypatch.chdir(tmp_path)  # (a short name: a long one is cut in the refusal's 'got')
    (tmp_path / "p.jsonl").write_text(runs)
    (tmp_path / "c.jsonl").write_text("# measured on 2 nodes\n\n" + runs)
    said = {}
    for path in ("p.jsonl", "c.jsonl"):
        rc, out, err = run(capsys, "plan", "-n", "1e6", "-d", "2", "--efficiency-file", path, "--lang", lang)
        assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        said[path] = err.replace(path, "FILE")
    assert said["c.jsonl"] == said["p.jsonl"]
    assert ("give it as --fit FILE" if lang == "en" else "páselo como --fit ARCHIVO") in said["c.jsonl"]


def test_runs_fit_reads_past_a_byte_order_mark_are_pointed_to_fit(tmp_path, capsys, monkeypatch):
    """Review LH: `dpscale plan -n 1e6 -v 1000 --efficiency-file r.jsonl` of '# c' above `measure --out` records saved
    with a byte-order mark (the file fit, validate and `measure --out` read past the mark since reviews KX and LD) said
    '--efficiency-file: r.jsonl line 1: not JSON (Expecting value)', where the file without the mark is told 'this
    file holds runs, one a line (`measure --out`): give it as --fit FILE'. _runs_lines read the lines by text_lines,
    not runs_json.json_lines as those readers do; plan --fit of the same file plans on its 2 runs."""
    records = '{"devices": 1, "throughput": 1000}\n{"devices": 2, "throughput": 1900}\n'
    monkeypatch.chdir(tmp_path)
    path = "r.jsonl"
    for text in (f"# c\n\ufeff{records}", f"# c\n{records}", f"\ufeff# c\n\ufeff{records}"):
        (tmp_path / path).write_text(text, encoding="utf-8")
        assert _refusal(path) == (
            "--efficiency-file: got 'r.jsonl'; allowed: JSON from `dpscale predict`, `fit` or `measure --json` "
            "(records with devices and efficiency); this file holds runs, one a line (`measure --out`): give it as "
            "--fit FILE"
        )
        rc, out, err = run(capsys, "plan", "-n", "1e6", "-v", "1000", "--efficiency-file", path, "--lang", "es")
        assert (rc, out) == (2, "") and "este archivo tiene ejecuciones, una por línea (`measure --out`)" in err, err
        rc, out, err = run(capsys, "plan", "-n", "1e6", "-d", "2", "--fit", path)
        assert rc == 0 and err == "" and out.count("\n") > 3, err


def test_an_e_within_a_repeats_spread_above_one_is_planned_as_one_where_measure_leaves_it_unsaid(capsys, tmp_path):
    """Review LW: `dpscale measure` notes a superlinear E only above 1.02 (beyond a repeat's spread), but plan
    --efficiency-file refused any E above 1: a measured E(2) of 1.01 passed measure without a word and was then
    refused by plan as superlinear ('got record 2: efficiency 1.01; allowed: E in (0, 1]: a measured E above 1
    (superlinear …)'). Both read one bound now (sources.measure.REPEAT_SPREAD_E): up to it, plan plans the size at
    E = 1 and says so; above it, measure says it and plan refuses it."""
    from dpscale.sources.measure import REPEAT_SPREAD_E

    assert REPEAT_SPREAD_E == 1.02
    points = [{"devices": d, "efficiency": e, "unit": "samples/s", "baseline_devices": 1}
              for d, e in ((1, 1.0), (2, 1.01), (4, 0.95))]  # fmt: skip
    path = _file(tmp_path, {"unit": "samples/s", "points": points})
    read = read_efficiencies(path)
    assert read.held == ((2, 1.01),) and dict(read.e.table) == {1: 1.0, 2: 1.0, 4: 0.95}
    rc, out, err = run(capsys, "plan", "-n", "1e6", "--efficiency-file", path, "--throughput", "100")
    assert rc == 0, err
    # 1e6 samples at 2 × 100 × 1.0 = 200/s: 5,000 s, 1.4 h (at 1.01, 202/s: the plan it refused)
    assert "      2  1.000 (100.0 %)     200    2.00×     1.4 h" in out
    assert (
        "note: E above 1 at 2 devices in --efficiency-file (up to 1.01) is within a repeat's spread, not superlinear "
        "(measure notes an E above 1.02): planned as 1"
    ) in out
    rc, out, _ = run(capsys, "plan", "-n", "1e6", "--efficiency-file", path, "--throughput", "100", "--lang", "es")
    assert (
        rc == 0
        and (
            "nota: la E por encima de 1 con 2 dispositivos en --efficiency-file (hasta 1,01) cabe en la dispersión de "
            "una repetición, no es superlineal (measure señala una E por encima de 1,02): se planifica como 1"
        )
        in out
    )
    # a plan on sizes that leave it out says nothing of it
    rc, out, _ = run(capsys, "plan", "-n", "1e6", "--efficiency-file", path, "--throughput", "100", "-d", "1,4")
    assert rc == 0 and "within a repeat's spread" not in out
    # the bound itself is held; past it, refused with the bound named, in English and Spanish
    points[1]["efficiency"] = 1.02
    assert read_efficiencies(_file(tmp_path, {"points": points})).held == ((2, 1.02),)
    points[1]["efficiency"] = 1.0201
    path = _file(tmp_path, {"points": points})
    assert _refusal(path).endswith(
        "got 'record 2: efficiency 1.0201'; allowed: E in (0, 1], or up to 1.02 (a repeat's spread, planned as 1): a "
        "measured E above that (superlinear, which calc and measure report) is not planned on; fit the runs (plan "
        "--fit), whose laws stay at or below 1, or give --efficiency"
    )
    rc, _, err = run(capsys, "plan", "-n", "1e6", "--efficiency-file", path, "--throughput", "100", "--lang", "es")
    assert rc == 2 and "se admite: E en (0, 1], o hasta 1,02 (la dispersión de una repetición, que se planifica" in err
    # two E for one size are still two, though both plan as 1
    points[1:2] = [{**points[1], "efficiency": 1.01}, {**points[1], "efficiency": 1.0}]
    assert _refusal(_file(tmp_path, {"points": points})).endswith("record 3: devices 2 again'; allowed: one E per size")


def test_an_e_above_one_at_one_device_is_refused_as_its_own_reference_not_held_as_a_repeat_s_spread(capsys, tmp_path):
    """Review LX: one device is its own reference (E = 1 by definition; calc refuses 101.5 against 100 at one device),
    and a file's E(1) of 0.985 is refused so; since review LW's hold, E(1) = 1.015 was planned as 1 with 'E above 1 at
    1 and 2 devices … is within a repeat's spread' — a broken reference taken for noise. Refused as 0.985 is, naming
    its record; E(2) = 1.015 is still held."""
    for e1, e2 in ((1.015, 1.0), (1.02, 1.015)):
        points = [{"devices": d, "efficiency": e} for d, e in ((1, e1), (2, e2), (4, 0.95))]
        path = _file(tmp_path, {"unit": "samples/s", "points": points})
        assert _refusal(path).endswith(
            f"got 'record 1: efficiency {e1}'; allowed: E = 1 at one device, its own reference (a single number is "
            "held at 1 there)"
        )
        rc, _, err = run(capsys, "plan", "-n", "1e6", "--efficiency-file", path, "--lang", "es")
        assert rc == 2 and err.endswith(
            f"se recibió 'registro 1: efficiency {e1}'; se admite: E = 1 en un dispositivo, su propia referencia (un "
            "solo número se fija en 1 allí)\n"
        )
    points = [{"devices": d, "efficiency": e} for d, e in ((1, 1.0), (2, 1.015), (4, 0.95))]
    assert read_efficiencies(_file(tmp_path, {"points": points})).held == ((2, 1.015),)


def test_a_fit_file_s_e_above_one_at_one_device_below_its_two_device_baseline_is_held_not_refused(capsys, tmp_path):
    """Review MD: review LX refused every E above 1 at one device as 'E = 1 at one device, its own reference' — but a
    `fit --json` over runs from 2 devices states E relative to its baseline_devices 2, and its E at one device is
    above 1 there by construction ('sizes below the smallest measured one (d0 = 2), 1: E there is relative to d0 and
    above 100 %'). `dpscale fit --point 2:1000 --point 4:1980 --point 8:3900 --point 16:7600 --at 1,2,4,8,16 --json`
    wrote E(1) = 1.01585, planned as 1 with its note before LX and refused after it; held again. One device is the
    reference only where the file's is one device."""
    predictions = [{"devices": d, "efficiency": e} for d, e in ((1, 1.015), (2, 1.0), (4, 0.95))]
    got = read_efficiencies(_file(tmp_path, {"baseline_devices": 2, "predictions": predictions}))
    assert got.d0 == 2 and got.held == ((1, 1.015),) and float(got.e.efficiency(1)) == 1.0
    rc, out, err = run(
        capsys, "plan", "-n", "1e6", "-v", "500", "-d", "1,2,4", "--efficiency-file", str(tmp_path / "e.json")
    )
    assert rc == 0, err
    assert (
        "note: E above 1 at 1 device in --efficiency-file (up to 1.015) is within a repeat's spread, not superlinear "
        "(measure notes an E above 1.02): planned as 1"
    ) in out.splitlines()
    # a file relative to one device (fit's baseline 1, or none stated) is still refused there
    for data in ({"baseline_devices": 1, "predictions": predictions}, predictions):
        assert _refusal(_file(tmp_path, data)).endswith(
            "got 'record 1: efficiency 1.015'; allowed: E = 1 at one device, its own reference (a single number is "
            "held at 1 there)"
        )
