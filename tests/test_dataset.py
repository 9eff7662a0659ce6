"""The published-measurements reader takes what real exports contain, and refuses what is malformed, by line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from clihelp import SHORT_HEAD, csv_of, pair, run

import dpscale
from dpscale.errors import DpscaleError
from dpscale.formulas.stepmodel import expected_max
from dpscale.sources.dataset import REQUIRED, read_published
from dpscale.sources.predict_validate import validate_predict

DEV = Path(__file__).resolve().parents[1] / "validation" / "published_scaling_dev.csv"
CFG = "DLE-TF2-BERT-L-pretrain-DGXA100-multinode-seq128-AMP"  # 4 rows, 8 → 256 GPUs on DGX A100


def rows() -> tuple[list[str], list[dict[str, str]]]:
    reader = csv.DictReader(io.StringIO(DEV.read_text(encoding="utf-8-sig")))
    return list(reader.fieldnames), [r for r in reader if r["cfg"] == CFG]


SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "published_scaling_dev.csv"


@pytest.mark.skipif(not SHARED.exists(), reason="no ../shared/data beside this checkout to compare the copy with")
def test_the_repository_copy_is_the_shared_dev_set():
    """validation/published_scaling_dev.csv is a copy (so a clean clone validates and these tests run anywhere): it
    must not drift from the team's file; 109 predictable rows of 39 configurations, as the docs count them."""
    assert DEV.read_bytes() == SHARED.read_bytes()
    report = validate_predict(read_published(DEV))
    assert (report["points"], report["configs"]) == (109, 39)


def write(path: Path, header: list[str], records: list[dict[str, str]], tail: str = "") -> Path:
    out = io.StringIO()
    w = csv.DictWriter(out, header, lineterminator="\n")
    w.writeheader()
    w.writerows(records)
    path.write_text(out.getvalue() + tail, encoding="utf-8")
    return path


def predicted(path: Path) -> list[float]:
    return [r["predicted"] for r in validate_predict(read_published(path))["rows"]]


def test_spreadsheet_exports_read_as_the_plain_file(tmp_path):
    header, recs = rows()
    want = predicted(write(tmp_path / "plain.csv", header, recs))
    assert len(want) == 3
    blank = ",".join([""] * len(header))
    assert predicted(write(tmp_path / "blank.csv", header, recs, f"{blank}\n{blank}\n   \n\t\n")) == want
    shouty = [h.upper() if i % 2 else f" {h} " for i, h in enumerate(header)]  # 'DEVICES', ' cfg '
    assert predicted(write(tmp_path / "header.csv", shouty, [dict(zip(shouty, r.values())) for r in recs])) == want


def test_system_names_written_loosely_still_find_the_catalog(tmp_path):
    header, recs = rows()
    blank_fabric = [{**r, "gpus_per_node": "", "intra_bw_gbs": "", "inter_bw_gbs": ""} for r in recs]
    want = predicted(write(tmp_path / "plain.csv", header, blank_fabric))
    assert len(want) == 3  # the catalog's dgx-a100 fills the blanks
    for name in ("DGX A100", "dgx_a100", "DGXA100"):
        assert predicted(write(tmp_path / "loose.csv", header, [{**r, "system": name} for r in blank_fabric])) == want
    # a figure stated on the other rows but not the baseline's is used, not a reason to skip
    later = [{**r, "system": "custom"} for r in recs]
    later[0] = {**later[0], "gpus_per_node": "", "intra_bw_gbs": "", "inter_bw_gbs": ""}
    assert len(predicted(write(tmp_path / "later.csv", header, later))) == 3


def test_the_gpu_memory_size_is_read_in_the_ways_tables_write_it(tmp_path):
    header, recs = rows()
    for hardware in ("8x A100 40GB", "8x A100 40G", "A100 (40 GiB), 1 TB RAM", "8x 40GB A100"):
        forty = [{**r, "gpu": "A100", "hardware": hardware} for r in recs]
        p40 = predicted(write(tmp_path / "forty.csv", header, forty))
        p80 = predicted(write(tmp_path / "eighty.csv", header, [{**r, "hardware": "8x A100 80GB"} for r in forty]))
        assert all(a < b for a, b in zip(p40, p80)), hardware  # slower HBM: a longer synchronisation wait


def test_malformed_counts_name_the_line(tmp_path):
    header, recs = rows()
    mixed = [dict(r) for r in recs]
    mixed[2]["baseline_devices"] = "4"
    with pytest.raises(DpscaleError, match=r"line 4, column 'baseline_devices': got 4; allowed: 8, as on line 2"):
        read_published(write(tmp_path / "mixed.csv", header, mixed))
    units = [dict(r) for r in recs]
    units[3]["unit"] = "tokens/s"  # E would divide tokens by sequences
    with pytest.raises(DpscaleError, match=r"line 5, column 'unit': got 'tokens/s'; allowed: 'sequences/s', as on"):
        read_published(write(tmp_path / "units.csv", header, units))
    units[3]["unit"] = " Sequences/s "  # case and padding carry no meaning
    assert len(predicted(write(tmp_path / "units.csv", header, units))) == 3
    # one configuration is one setup: a row with another model size, precision or node size is a typo or a
    # second table, and once passed silently with the baseline's figures
    for col, value in (("params_millions", "999"), ("precision", "FP32"), ("gpus_per_node", "4")):
        odd = [dict(r) for r in recs]
        odd[2][col] = value
        with pytest.raises(DpscaleError, match=rf"line 4, column '{col}': got '{value}'; allowed: .*, as on line 2"):
            read_published(write(tmp_path / "odd.csv", header, odd))
    blank = [dict(r) for r in recs]
    blank[2]["params_millions"] = ""  # a blank defers to the rows that state it
    assert len(predicted(write(tmp_path / "blank.csv", header, blank))) == 3
    huge = [dict(r) for r in recs]
    huge[-1]["devices"] = "1e16"
    with pytest.raises(DpscaleError, match=r"line 5, column 'devices': got '1e16'; allowed: a whole"):
        read_published(write(tmp_path / "huge.csv", header, huge))


@pytest.mark.parametrize(
    ("col", "value", "allowed"),
    [
        ("params_millions", "1e308", "a number > 0 and ≤ 1,000,000,000"),  # once a ZeroDivisionError traceback
        ("grad_accum", "1e308", "a whole number from 1 to 1,000,000"),
        ("per_device_batch", "1e308", "a number from 1 to 1,000,000,000"),
        ("per_device_batch", "0.5", "a number from 1 to 1,000,000,000"),  # at least one sample (2.5: an average)
        ("per_device_batch", "1e-320", "a number from 1 to 1,000,000,000"),  # would make compute vanish
        ("intra_bw_gbs", "1e-320", "a number > 0.001 and ≤ 1,000,000"),
        ("throughput", "1e308", "a number > 0 and ≤ 1,000,000,000,000,000"),
    ],
)
def test_a_typo_sized_cell_is_refused_by_line_and_column(tmp_path, col, value, allowed):
    """Values no run has (a 1e308 in a cell is a typo) would overflow the step model: refused, not scored."""
    header, recs = rows()
    recs = [dict(r) for r in recs]
    recs[0][col] = value
    with pytest.raises(DpscaleError, match=rf"line 2, column '{col}': got '{value}'; allowed: {allowed}$"):
        read_published(write(tmp_path / "typo.csv", header, recs))


def test_a_long_bad_cell_is_quoted_cut_with_a_mark_as_every_file_reader_cuts(tmp_path):
    """A pasted run of text in a count or a number column is quoted to 40 characters and a '…' that says it was
    cut (errors.cut: tables, runs files, system files alike); it once ended mid-value with no mark."""
    header, recs = rows()
    for col, text in (("throughput", "12 " + "x" * 60), ("devices", "9" * 70)):
        bad = [dict(r) for r in recs]
        bad[0][col] = text
        with pytest.raises(DpscaleError) as said:
            read_published(write(tmp_path / f"{col}.csv", header, bad))
        assert f"column '{col}': got '{text[:40]}…'; allowed:" in str(said.value)


def test_the_straggler_statistic_is_finite_for_any_size():
    # Blom's Φ⁻¹((d − 0.375)/(d + 0.25)) in its tail form: 8 → 1.434, and still defined past 6e15
    m = expected_max([8, 1e16, 1e300])
    assert m[0] == pytest.approx(1.4342, abs=1e-4) and 8.2 < m[1] < 8.4 and m[2] == pytest.approx(37.06, abs=0.01)


def test_a_configuration_with_only_its_baseline_is_listed(tmp_path):
    header, recs = rows()
    alone = [{**recs[0], "cfg": "lonely"}]
    report = validate_predict(read_published(write(tmp_path / "alone.csv", header, recs + alone)))
    assert report["configs"] == 1 and report["points"] == 3 and report["baseline_only"] == ["lonely"]


def test_a_file_of_baselines_alone_says_so(tmp_path, capsys):
    """Nothing to predict because each configuration is one row: said as that, not as 'all 0 configurations
    lack what a prediction needs' (the skipped-configuration message it fell back to)."""
    from clihelp import run

    header, recs = rows()
    path = write(tmp_path / "base.csv", header, recs[:1])
    rc, out, _ = run(capsys, "validate", str(path))
    assert rc == 0 and out.strip().endswith(
        "nothing to check: its one configuration holds only its baseline row, so there is no other size to predict"
    )
    rc, out, _ = run(capsys, "validate", str(path), "--lang", "es")  # 'sus 1 configuraciones solo tienen'
    assert rc == 0 and out.strip().endswith("su única configuración solo tiene la fila de referencia, así que no hay "
                                            "otro tamaño que predecir")  # fmt: skip
    lacking = write(tmp_path / "lacking.csv", header, [{**r, "params_millions": ""} for r in recs])
    rc, out, _ = run(capsys, "validate", str(lacking), "--lang", "es")  # 'a las 1 configuraciones les falta'
    assert rc == 0 and "nada que comprobar: a la única configuración le falta algo que la predicción necesita" in out
    rc, out, _ = run(capsys, "validate", str(path), "--lang", "es")
    assert rc == 0 and out.strip().endswith("su única configuración solo tiene la fila de referencia, así que no hay "
                                            "otro tamaño que predecir")  # fmt: skip


def test_a_column_named_twice_is_refused_not_the_last_one_taken(tmp_path):
    """csv.DictReader keeps the last of two 'throughput' columns silently; measured E once came out 0.25."""
    header, recs = rows()
    text = (
        ",".join(header + ["throughput"])
        + "\n"
        + "".join(",".join(f'"{r[h]}"' for h in header) + ',"1"\n' for r in recs)
    )
    path = tmp_path / "twice.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DpscaleError, match=r"twice.csv line 1: column throughput twice; allowed: each column"):
        read_published(path)


def test_fit_refuses_a_column_named_twice(tmp_path):
    from dpscale.sources.fit_io import runs_from

    path = tmp_path / "dup.csv"
    path.write_text("devices,throughput,throughput\n1,100,50\n2,190,60\n4,350,70\n")
    with pytest.raises(DpscaleError, match=r"dup.csv line 1: column throughput twice"):
        runs_from(str(path))


def test_an_empty_path_is_no_path(capsys):
    rc, _, err = run(capsys, "validate", "")
    assert rc == 2 and err.strip().endswith("DATA: got ''; allowed: a readable CSV file (not a file path)")  # folder


def test_a_bad_cell_in_a_record_with_a_line_break_is_named_on_the_line_it_starts(tmp_path):
    header, recs = rows()
    recs[1] = {**recs[1], "throughput": "abc", "notes": "two\nlines"}  # record on lines 3–4
    with pytest.raises(DpscaleError, match=r"line 3, column 'throughput': got 'abc'"):
        read_published(write(tmp_path / "broken.csv", header, recs))
    text = (tmp_path / "broken.csv").read_text().replace(',"two\nlines"', ',"unclosed\n')  # opened on line 3
    (tmp_path / "open.csv").write_text(text)
    with pytest.raises(DpscaleError, match=r"open\.csv line 3: "):
        read_published(tmp_path / "open.csv")


def test_a_repeated_baseline_is_averaged_alike_in_both_modes(tmp_path, capsys):
    """Predict mode once took the first of two baseline rows and fit mode their mean: two measured E for one row."""
    header, recs = rows()
    base = recs[0]
    twice = [base, {**base, "throughput": str(float(base["throughput"]) * 0.8)}, *recs[1:]]
    (c,) = read_published(write(tmp_path / "twice.csv", header, twice))
    assert c.baseline.throughput == pytest.approx(0.9 * float(base["throughput"])) and len(c.rows) == len(twice)
    measured = {}
    for mode in ("predict", "fit"):
        rc, out, _ = run(capsys, "validate", str(tmp_path / "twice.csv"), "--mode", mode, "--json")
        top = max(r["devices"] for r in json.loads(out)["rows"])
        measured[mode] = [r["measured"] for r in json.loads(out)["rows"] if r["devices"] == top][0]
    assert measured["predict"] == pytest.approx(measured["fit"])
    top_row = next(r for r in recs if int(r["devices"]) == top)
    assert measured["fit"] == pytest.approx(float(top_row["throughput"]) / (top / 8 * 0.9 * float(base["throughput"])))


@pytest.mark.parametrize("col, value", [("devices", "1_6"), ("devices", "１６"), ("throughput", "2_97.7"),
                                        ("throughput", "٢97.7"), ("devices", "_16")])  # fmt: skip
def test_python_only_number_spellings_are_refused(tmp_path, col, value):
    """Refused with what to write (review HI): '1_6' was told 'a whole number from 1 to 10,000,000', which it is."""
    header, recs = rows()
    recs[1] = {**recs[1], col: value}
    with pytest.raises(DpscaleError) as exc:
        read_published(write(tmp_path / "spelt.csv", header, recs))
    assert str(exc.value).endswith(
        f"line 3, column '{col}': got '{value}'; allowed: a number in the digits 0-9, without '_' (1000, not 1_000)"
    )


def test_sizes_below_the_baseline_and_a_missing_baseline_name_their_line(tmp_path):
    header, recs = rows()
    small = [*recs, {**recs[1], "devices": "4", "throughput": "1000"}]
    with pytest.raises(DpscaleError, match=r"line 6, column 'devices': got 4; allowed: at least 8, the baseline"):
        read_published(write(tmp_path / "small.csv", header, small))
    with pytest.raises(DpscaleError, match=r"nobase\.csv line 2, column 'devices': configuration .+ no baseline row"):
        read_published(write(tmp_path / "nobase.csv", header, recs[1:]))


def test_one_configuration_in_two_files_names_both_places(tmp_path, capsys):
    header, recs = rows()
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    a, b = (write(tmp_path / x / "set.csv", header, recs) for x in ("a", "b"))
    rc, _, err = run(capsys, "validate", str(a), str(b))
    assert rc == 2 and f"in {a} line 2 and in {b} line 2; allowed: once" in err


def test_skipped_rows_count_each_skipped_configurations_baseline(tmp_path, capsys):
    header = SHORT_HEAD
    rows_ = [f"t,1,1,,dgx-a100,8,300,200,m,amp,32,{d},{x},100" for d, x in ((1, 100), (4, 390), (8, 770))]
    (tmp_path / "tokens.csv").write_text("\n".join([header, *rows_]) + "\n")
    report = validate_predict(read_published(tmp_path / "tokens.csv"))
    assert (report["skipped_configs"], report["skipped_rows"]) == (1, 3)


def test_fit_mode_gives_each_baseline_repeat_to_the_fit(tmp_path, capsys):
    """Its intervals use the spread of repeated runs: folding the repeats into one mean row narrowed them."""
    header, recs = rows()
    base = recs[0]
    twice = [base, {**base, "throughput": str(float(base["throughput"]) * 1.04)}, *recs[1:]]
    rc, out, _ = run(capsys, "validate", str(write(tmp_path / "twice.csv", header, twice)), "--mode", "fit", "--json")
    (row,) = json.loads(out)["rows"]
    runs = [(int(r["devices"]), float(r["throughput"])) for r in twice if int(r["devices"]) < row["devices"]]
    fitted = dpscale.fit(runs).predict([row["devices"]])
    assert (row["efficiency_lo"], row["efficiency_hi"]) == pytest.approx(
        (fitted.efficiency_lo[0], fitted.efficiency_hi[0]), rel=1e-3
    )  # (resampling noise)


def test_a_bad_cell_after_a_blank_line_is_named_on_its_own_line(tmp_path):
    header, recs = rows()
    path = write(tmp_path / "gap.csv", header, recs[:1])
    bad = io.StringIO()
    csv.DictWriter(bad, header, lineterminator="\n").writerow({**recs[1], "throughput": "abc"})
    path.write_text(path.read_text() + "\n" + bad.getvalue())  # header, row, blank, bad row
    with pytest.raises(DpscaleError, match=r"line 4, column 'throughput'"):
        read_published(path)


def test_only_repeats_of_the_baseline_s_batch_are_averaged_into_it(tmp_path):
    header, recs = rows()
    base = recs[0]
    other = {**base, "per_device_batch": str(2 * float(base["per_device_batch"]))}
    other["throughput"] = str(1.5 * float(base["throughput"]))  # (an E up to 2: above, a unit slip refused)
    (c,) = read_published(write(tmp_path / "batches.csv", header, [base, other, *recs[1:]]))
    assert c.baseline.throughput == float(base["throughput"])


@pytest.mark.parametrize("ga, rate", [("1", "1e14"), ("64", "1e11")])
def test_a_baseline_too_fast_to_model_is_refused_by_line_and_column(tmp_path, ga, rate):
    """A micro-batch under 1e-7 s: E came out 0.0 without a word. With 64 accumulation steps the optimizer step
    (1.6e-6 s at 1e11 sequences/s on 8 GPUs) is in range, but each micro-batch is not."""
    header, recs = rows()
    recs[0] = {**recs[0], "throughput": rate, "grad_accum": ga}
    with pytest.raises(DpscaleError, match=r"line 2, column 'throughput': got .+, one micro-batch in"):
        validate_predict(read_published(write(tmp_path / "fast.csv", header, recs)))


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", "v.csv line 1: missing column cfg (found config, baseline_devices, grad_accum, units_per_sample, "
               "system, gpus_per_node, intra_bw_gbs, inter_bw_gbs, …)"),
        ("es", "v.csv línea 1: falta la columna cfg (hay: config, baseline_devices, grad_accum, "
               "units_per_sample, system, gpus_per_node, intra_bw_gbs, inter_bw_gbs, …)"),
    ],
)  # fmt: skip
def test_a_missing_column_is_said_beside_the_columns_found(tmp_path, capsys, lang, said):
    """A renamed column (config for cfg) was refused without saying what the header did hold: the first eight."""
    header = ["config", *REQUIRED[1:], "notes"]
    write(tmp_path / "v.csv", header, [])
    rc, _, err = run(capsys, "validate", str(tmp_path / "v.csv"), "--lang", lang)
    assert rc == 2 and err.strip().endswith(said)


RUNS_CSV = "devices,throughput,efficiency,step_s,step_time,workload,backend\n1,2119.5,1.0,0.0302,0.0302,mlp,gloo\n"
RUNS_JSON = '{"devices": 1, "throughput": 2119.5, "efficiency": 1.0, "step_time": 0.0302, "workload": "mlp"}\n'
FOUND = "(found devices, throughput, efficiency, step_s, step_time, workload, backend)"


@pytest.mark.parametrize(
    "name, text, lang, said",
    [
        ("runs.csv", RUNS_CSV, "en",
         "runs.csv line 1: missing columns cfg, baseline_devices, grad_accum, units_per_sample, system, "
         f"gpus_per_node, intra_bw_gbs, inter_bw_gbs, model, precision, per_device_batch, params_millions {FOUND}; "
         "allowed: a published-measurements table — this file holds runs (devices, throughput): `dpscale fit FILE` "
         "fits them"),
        ("runs.csv", RUNS_CSV, "es",
         f"runs.csv línea 1: faltan las columnas cfg, baseline_devices, grad_accum, units_per_sample, system, "
         f"gpus_per_node, intra_bw_gbs, inter_bw_gbs, model, precision, per_device_batch, params_millions "
         f"{FOUND.replace('found ', 'hay: ')}; se admite: una tabla de mediciones publicadas — este archivo tiene "
         "ejecuciones (devices, throughput): `dpscale fit ARCHIVO` las ajusta"),
        ("runs.jsonl", RUNS_JSON, "en",
         "runs.jsonl: JSON; allowed: a published-measurements CSV — runs from `dpscale measure --out` or `--json` go "
         "to `dpscale fit FILE`"),
        ("runs.json", "\n  [" + RUNS_JSON + "]", "es",
         "runs.json: JSON; se admite: un CSV de mediciones publicadas — las ejecuciones de `dpscale measure --out` "
         "o `--json` van a `dpscale fit ARCHIVO`"),
        # review JV: lines ended by '\r' alone (text_lines' third break, which fit reads) and two byte-order marks
        # (a file saved twice with one, read by fit now) said 'line 1: missing columns cfg, … (found {"devices": 1'
        ("runs.jsonl", (RUNS_JSON * 2).replace("\n", "\r"), "en",
         "runs.jsonl: JSON; allowed: a published-measurements CSV — runs from `dpscale measure --out` or `--json` go "
         "to `dpscale fit FILE`"),
        ("runs.jsonl", "\ufeff\ufeff" + RUNS_JSON * 2, "en",
         "runs.jsonl: JSON; allowed: a published-measurements CSV — runs from `dpscale measure --out` or `--json` go "
         "to `dpscale fit FILE`"),
    ],
)  # fmt: skip
def test_measure_s_runs_given_to_validate_are_pointed_to_fit(tmp_path, capsys, monkeypatch, name, text, lang, said):
    """Review JQ's chain: `dpscale validate` of measure's --csv said 'missing columns cfg, …' and nothing of where
    runs go; of its --out or --json, the same with a JSON record for the 'columns found' ('found {"devices": 1,
    "throughput": 2119.5117850036613, …'). validate reads published tables; measured runs are fit's."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(text, encoding="utf-8", newline="")
    rc, out, err = run(capsys, "validate", name, "--mode", "fit", "--lang", lang)
    assert rc == 2 and out == "" and err.strip().split("error: ", 1)[1] == said


@pytest.mark.parametrize("first", ["[ref]", "{id}", "\n\n[ref]", "[1]", "[]", "{}", "  [1]"])
def test_a_csv_whose_first_column_opens_with_a_bracket_is_read_not_called_json(tmp_path, capsys, first):
    """Review JS: read_published called any text starting with '{' or '[' JSON (for measure's --out and --json), so a
    published table whose extra first column is named '[ref]' or '{id}' — read before, 1 configuration, 2 rows — was
    refused 'v.csv: JSON; allowed: a published-measurements CSV — …'. JSON is what parses as JSON. Review JU: and
    ends its line — a first column named '[1]' (a reference's number), '[]' or '{}' parses as JSON up to its comma,
    and was still refused so; measure's --out records and its --json document each end their line."""
    header, recs = rows()
    name = first.strip()
    path = write(tmp_path / "v.csv", [name, *header], [{name: "x", **r} for r in recs])
    path.write_text(first[: -len(name)] + path.read_text())
    plain = write(tmp_path / "plain.csv", header, recs)
    assert [c.cfg for c in read_published(path)] == [c.cfg for c in read_published(plain)] == [CFG]
    said = {}
    for p in (path, plain):
        rc, out, err = run(capsys, "validate", str(p), "--json")
        assert rc == 0, err
        said[p] = json.loads(out)["rows"]
    assert said[path] == said[plain] and [round(r["predicted"], 4) for r in said[path]] == [0.9886, 0.956, 0.908]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_runs_under_the_spanish_page_s_column_names_are_pointed_to_fit_too(tmp_path, capsys, monkeypatch, lang):
    """Review JS: fit, plan --fit and plan --efficiency-file's hint read a runs table headed dispositivos,rendimiento
    (the Spanish page's words) as devices,throughput, but validate pointed only the English header to fit: 'missing
    columns cfg, …, devices, throughput, params_millions (found dispositivos, rendimiento)' and nothing more."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs.csv").write_text("dispositivos,rendimiento,tiempo_de_paso\n1,2119.5,0.0302\n")
    rc, out, err = run(capsys, "validate", "runs.csv", "--lang", lang)
    hint = (
        "se admite: una tabla de mediciones publicadas — este archivo tiene ejecuciones (devices, throughput): "
        "`dpscale fit ARCHIVO` las ajusta"
        if lang == "es"
        else "allowed: a published-measurements table — this file holds runs (devices, throughput): `dpscale fit "
        "FILE` fits them"
    )
    assert rc == 2 and out == "" and err.strip().endswith(f"dispositivos, rendimiento, tiempo_de_paso); {hint}")
    assert "per_device_batch, devices, throughput, params_millions" in err  # (its columns still named as found)


def test_the_summary_says_errors_to_three_digits(capsys):
    """'median abs error 0.0234962': the table's notes say what the docs quote (0.0235), the JSON keeps all."""
    rc, out, err = run(capsys, "validate", str(DEV))
    said = out + err
    assert rc == 0 and "median abs error 0.0235, 90th percentile 0.125, max 0.293" in said
    assert "would err by 0.059 median" in said


@pytest.mark.parametrize("mode", ["predict", "fit"])
def test_csv_keeps_long_configuration_ids_whole_and_the_table_marks_the_cut(tmp_path, capsys, mode):
    """--csv wrote each id cut to 60 characters, as the table does: '…-seq128-bs100-TF32' came out '…-seq128-bs1'
    (another batch, and no key to join back to DATA.csv). The table still cuts, now with '…'."""
    header, recs = rows()
    long_id = "DLE-PyT-BART-large-pretrain-DGXA100-80G-multinode-seq128-bs100-TF32"  # 67 characters
    path = write(tmp_path / "long.csv", header, [{**r, "cfg": long_id} for r in recs])
    rc, out, _ = run(capsys, "validate", str(path), "--mode", mode, "--csv")
    got = list(csv.DictReader(io.StringIO(out)))
    assert rc == 0 and got and {r["cfg"] for r in got} == {long_id}
    rc, out, _ = run(capsys, "validate", str(path), "--mode", mode)
    assert rc == 0 and long_id[:59] + "…" in out and long_id not in out


@pytest.mark.parametrize(("mode", "band"), [("predict", "predicted_lo"), ("fit", "efficiency_lo")])
def test_csv_with_nothing_to_check_is_still_csv(tmp_path, capsys, mode, band):
    """A file of baselines alone printed its 'nothing to check' sentence on stdout under --csv, where a reader
    expects CSV: now the header of the rows it would hold, and the sentence on stderr."""
    header, recs = rows()
    path = write(tmp_path / "base.csv", header, recs[:1])
    rc, out, err = run(capsys, "validate", str(path), "--mode", mode, "--csv")
    reader = csv.DictReader(io.StringIO(out))
    assert rc == 0 and list(reader) == [] and reader.fieldnames[:6] == [
        "cfg", "devices", "measured", "predicted", "error", "signed_error"
    ] and band in reader.fieldnames  # fmt: skip
    assert "nothing to check" in err


def test_nothing_to_check_counts_the_configurations_that_lack_inputs_and_those_of_a_baseline_alone(tmp_path, capsys):
    """One configuration without units per sample and one of its baseline alone said 'the one configuration
    lacks what a prediction needs'; two and one said 'all 2 configurations lack…' of 3."""
    from clihelp import run

    header = SHORT_HEAD
    lack = [*pair("t", units=""), *pair("u", units="")]
    base = ["b,1,1,1,dgx-a100,8,300,200,m,amp,32,1,100,100"]
    (tmp_path / "mix.csv").write_text("\n".join([header, *lack, *base]) + "\n")
    rc, out, _ = run(capsys, "validate", str(tmp_path / "mix.csv"))
    assert rc == 0 and "nothing to check in 3 configurations: what a prediction needs" in out
    assert "is missing in 2, and there is only a baseline row in 1" in out
    rc, out, _ = run(capsys, "validate", str(tmp_path / "mix.csv"), "--lang", "es")
    assert "nada que comprobar en 3 configuraciones" in out and "en 2, y solo hay fila de referencia en 1" in out


def test_a_measured_e_above_two_and_two_sequence_lengths_in_one_configuration_are_refused(tmp_path):
    """validate scored E = 273,822,562,979 (a throughput of 1e14 typed for 1e4) with a median error of 1.4e11,
    where calc and fit refuse E > 2; and a second units_per_sample was ignored for the baseline's."""
    header, recs = rows()
    slip = [recs[0], {**recs[1], "throughput": "1e14"}, *recs[2:]]
    with pytest.raises(DpscaleError, match=r"/s\.csv line 3, column 'throughput': got 1e\+14, E = .+; allowed: E up "
                                           r"to 2 — a larger E is a unit slip"):  # fmt: skip
        read_published(write(tmp_path / "s.csv", header, slip))
    d, d0, x0 = int(recs[1]["devices"]), int(recs[0]["devices"]), float(recs[0]["throughput"])
    fine = [recs[0], {**recs[1], "throughput": str(1.9 * x0 * d / d0)}]
    assert read_published(write(tmp_path / "f.csv", header, fine))  # superlinear up to 2 stays
    ups = [recs[0], {**recs[1], "units_per_sample": str(2 * float(recs[0]["units_per_sample"] or 1))}, *recs[2:]]
    with pytest.raises(DpscaleError, match=r"/u\.csv line 3, column 'units_per_sample': got .+; allowed: .+, as on "
                                           r"line 2 — one configuration is one setup"):  # fmt: skip
        read_published(write(tmp_path / "u.csv", header, ups))


def test_an_empty_file_and_an_unclosed_quote_are_said_as_such(tmp_path):
    (tmp_path / "e.csv").write_text("")
    with pytest.raises(DpscaleError, match=r"^.*e\.csv: empty; allowed: a CSV with a header row \(cfg, "):
        read_published(tmp_path / "e.csv")
    header, recs = rows()
    path = write(tmp_path / "q.csv", header, recs)
    good = path.read_text()
    path.write_text(good + 'x,1,1,"unclosed\n')  # the record after the last: its quote runs to the end
    line = good.count("\n") + 1
    with pytest.raises(DpscaleError, match=rf"q\.csv line {line}: a quote opened on this line does not close before "
                                           r"the file ends; allowed: quotes in pairs"):  # fmt: skip
        read_published(path)
    path.write_text("\ufeff\ufeff" + good)  # two byte-order marks: utf-8-sig eats one, the header the other
    assert read_published(path)


def test_a_precision_no_format_name_reads_is_said(tmp_path, capsys):
    """'FP7' counted as fp32 without a word; the published sets' labels all read (AMP (mixed FP16), TF32 + XLA, …)."""
    from clihelp import run

    header, recs = rows()
    path = write(tmp_path / "p.csv", header, [{**r, "precision": "FP7"} for r in recs])
    rc, out, _ = run(capsys, "validate", str(path))
    assert rc == 0 and "1 configuration gives a precision no format name reads ('FP7'): its gradients count as " \
                       "fp32, 4 bytes" in out  # fmt: skip
    rc, out, _ = run(capsys, "validate", str(path), "--json")
    assert json.loads(out)["unknown_precision"] == {recs[0]["cfg"]: "FP7"}
    rc, out, _ = run(capsys, "validate", str(write(tmp_path / "q.csv", header, recs)), "--json")
    assert json.loads(out)["unknown_precision"] == {}


def test_validate_counts_configurations_with_thousands_marks(tmp_path, capsys):
    """'skipped 1500 configurations' stood beside '3,002 points' (a session-34 review's 100k-row file)."""
    from clihelp import run

    header = SHORT_HEAD
    lack = [r for i in range(1500) for r in pair(f"t{i}", units="")]
    ok = pair("ok")
    (tmp_path / "big.csv").write_text("\n".join([header, *lack, *ok]) + "\n")
    rc, out, _ = run(capsys, "validate", str(tmp_path / "big.csv"))
    assert rc == 0 and "skipped 1,500 configurations (3,000 rows)" in out
    rc, out, _ = run(capsys, "validate", str(tmp_path / "big.csv"), "--lang", "es")
    assert rc == 0 and "se omiten 1.500 configuraciones (3.000 filas)" in out
    (tmp_path / "none.csv").write_text("\n".join([header, *lack]) + "\n")
    rc, out, _ = run(capsys, "validate", str(tmp_path / "none.csv"))
    assert "all 1,500 configurations lack" in out


def test_unknown_precisions_are_counted_with_thousands_marks_and_a_blank_is_said(tmp_path, capsys):
    """'1500 configurations give a precision…' beside '1,500 points'; a blank label read ''."""
    from clihelp import run

    header = SHORT_HEAD
    odd = [r for i in range(1500) for r in pair(f"t{i}", precision="FP7")]
    blank = pair("b", precision="")
    (tmp_path / "p.csv").write_text("\n".join([header, *odd, *blank]) + "\n")
    rc, out, _ = run(capsys, "validate", str(tmp_path / "p.csv"))
    assert rc == 0 and "1,501 configurations give a precision no format name reads ('FP7', a blank cell)" in out
    rc, out, _ = run(capsys, "validate", str(tmp_path / "p.csv"), "--lang", "es")
    assert "1.501 configuraciones dan una precisión" in out and "('FP7', una celda vacía)" in out


def test_blank_lines_above_the_header_are_skipped_as_fit_skips_them(tmp_path):
    """A blank line (or ',,,') above the header was 'an empty file', then 'line 1: missing column(s)' of all 14,
    though line 2 held them: skipped, and the lines below keep their numbers."""
    header, recs = rows()
    path = write(tmp_path / "b.csv", header, recs)
    good = path.read_text()
    path.write_text("\n,,,\n" + good)
    plain = read_published(write(tmp_path / "c.csv", header, recs))
    moved = [tuple((r.line - 2, r.devices, r.throughput) for r in c.rows) for c in read_published(path)]
    assert moved == [tuple((r.line, r.devices, r.throughput) for r in c.rows) for c in plain]
    path.write_text("\n \n" + good.replace(recs[0]["devices"] + ",", "zz,", 1))
    with pytest.raises(DpscaleError, match=r"b\.csv line 4, column '\w+': got 'zz'"):
        read_published(path)
    path.write_text("\n\ncfg,devices\nx,1\n")
    with pytest.raises(DpscaleError, match=r"b\.csv line 3: missing columns baseline_devices, "):
        read_published(path)
    (tmp_path / "w.csv").write_text(" \n\n")
    with pytest.raises(DpscaleError, match=r"w\.csv: empty; allowed"):
        read_published(tmp_path / "w.csv")


def test_unknown_gpus_are_counted_with_thousands_marks(tmp_path, capsys):
    from clihelp import run

    header = "cfg,baseline_devices,grad_accum,units_per_sample,system,gpu,gpus_per_node,intra_bw_gbs,inter_bw_gbs,"
    header += "model,precision,per_device_batch,devices,throughput,params_millions"
    odd = [f"t{i},1,1,1,lab,XPU-9,8,300,200,m,amp,32,{d},{x},100" for i in range(1200) for d, x in ((1, 100), (8, 770))]
    (tmp_path / "g.csv").write_text("\n".join([header, *odd]) + "\n")
    rc, out, _ = run(capsys, "validate", str(tmp_path / "g.csv"))
    assert rc == 0 and "1,200 configurations name a GPU the catalog lacks ('XPU-9')" in out
    rc, out, _ = run(capsys, "validate", str(tmp_path / "g.csv"), "--lang", "es")
    assert "1.200 configuraciones nombran una GPU que el catálogo no tiene ('XPU-9')" in out


# Cases a mutation sweep found no test could fail on: each pins a number by hand, so a change to the line it
# names (a bound, a term, a choice of min/max) fails here.


ROW = {
    "cfg": "c", "baseline_devices": "1", "grad_accum": "1", "units_per_sample": "1", "system": "dgx-a100",
    "gpus_per_node": "8", "intra_bw_gbs": "300", "inter_bw_gbs": "100", "model": "m", "precision": "fp32",
    "per_device_batch": "32", "devices": "1", "throughput": "100", "params_millions": "25",
}  # fmt: skip


def published(path, *rows: dict[str, str]):
    """A published-measurements CSV of ROW changed by each dict in turn, read back."""
    path.write_text("\n".join([",".join(ROW), *(",".join({**ROW, **r}.values()) for r in rows)]) + "\n")
    return read_published(path)


@pytest.mark.parametrize(("column", "value"), [("throughput", "0"), ("intra_bw_gbs", "0.001")])
def test_a_published_figure_at_its_floor_is_refused(tmp_path, column, value):
    # dataset._num's floors are exclusive: a throughput must be > 0 (0 would make E = 0 and the step infinite), a
    # link > 0.001 GB/s (FLOORS; 0 itself reads as blank): x <= lo is refused, not only x < lo.
    path = tmp_path / "runs.csv"
    assert [r.devices for r in published(path, {}, {"devices": "8"})[0].rows] == [1, 8]
    with pytest.raises(DpscaleError, match=rf"line 3, column '{column}': got '{value}'"):
        published(path, {}, {"devices": "8", column: value})


def test_a_row_one_device_below_the_baseline_is_refused(tmp_path):
    # E is relative to baseline_devices, the configuration's smallest size: 7 devices against a baseline of 8 would
    # read E > 1 for a slower run. The bound is devices < d0 (7 < 8), not only sizes further below.
    base = {"baseline_devices": "8", "devices": "8"}
    with pytest.raises(DpscaleError, match=r"line 3, column 'devices': got 7; allowed: at least 8"):
        published(tmp_path / "runs.csv", base, {**base, "devices": "7", "throughput": "95"})


def test_a_configurations_rows_are_sorted_by_size_baseline_first(tmp_path):
    # Written 1, 16, 8, 2 in the file: Config.rows is the baseline, then 2, 8, 16 (E is read and predicted by size).
    rows = published(tmp_path / "runs.csv", {}, {"devices": "16"}, {"devices": "8"}, {"devices": "2"})[0].rows
    assert [r.devices for r in rows] == [1, 2, 8, 16]
    assert [r.line for r in rows] == [2, 5, 4, 3]


# Mutation sweep 10 (session 35, of 559d506..69451fc): gaps the suite left open, each killing a surviving mutant.


SHORT_ROW = "a,1,1,1,dgx-a100,8,300,200,m,amp,32,{d},{x},100"


# ---- scaling.past: the slip refusal's digits -----------------------------------------------------------------
def test_an_e_past_two_is_said_in_four_digits_first(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("\n".join([SHORT_HEAD, SHORT_ROW.format(d=1, x=100), SHORT_ROW.format(d=8, x=1876.5)]) + "\n")
    with pytest.raises(DpscaleError, match=r"got 1876\.5, E = 2\.346 against the baseline's 100"):
        read_published(path)
    with pytest.raises(DpscaleError, match=r" is E = 2\.346; allowed: E up to 2"):
        dpscale.fit([(1, 100), (8, 1876.5)])


# ---- dataset.py: the unclosed-quote explanation --------------------------------------------------------------
@pytest.mark.parametrize(
    "rows, end, message",
    [
        ([SHORT_ROW.format(d=1, x=100), SHORT_ROW.format(d=8, x='"770')], "\n",
         r"line 3: a quote opened on this line does not close before the file ends"),  # opened on the last line
        ([SHORT_ROW.format(d=1, x=100).replace(",m,", ',"m,'), SHORT_ROW.format(d=8, x=770)], "",
         r"line 2: a quote opened on this line does not close before the file ends"),  # no last \n
        ([SHORT_ROW.format(d=1, x=100),
          SHORT_ROW.format(d=8, x=770).replace(",m,", ',"big,\nmodel",').rsplit(",", 1)[0]],
         "\n", r"line 3: got 13 fields; allowed: 14 as in the header$"),  # a closed two-line cell, a comma on line 1
    ],
)  # fmt: skip
def test_the_unclosed_quote_rule(tmp_path, rows, end, message):
    path = tmp_path / "q.csv"
    path.write_text("\n".join([SHORT_HEAD, *rows]) + end)
    with pytest.raises(DpscaleError, match=r"q\.csv " + message):
        read_published(path)


# Cases a second mutation sweep (session 20: formulas.pipeline/batch/overlap, sources.dataset/predict_validate,
# faces.cli.memory/batch; 245 mutants, 38 survivors) found no test could fail on. Each fails on its mutant, named by
# the file and line it was made at, and passes on the code as it is.


def test_baseline_repeats_average_only_at_the_same_accumulation(tmp_path):
    """dataset.py:76 — a baseline-size row at another grad_accum is not a repeat of the baseline."""
    path = csv_of(
        tmp_path,
        dict(devices="1", baseline_devices="1", throughput="100"),
        dict(devices="1", baseline_devices="1", grad_accum="2", throughput="120"),
        dict(devices="2", baseline_devices="1", throughput="180"),
    )
    (c,) = read_published(path)
    assert c.baseline.throughput == 100
    assert c.efficiency(c.rows[-1]) == pytest.approx(180 / (2 * 100))  # 0.9, not 180/220


def test_step_time_of_a_row_is_at_that_rows_rate(tmp_path):
    """dataset.py:99 — Config.step_time(row) is the row's b·k·units / (throughput/devices), not the baseline's."""
    path = csv_of(tmp_path, dict(devices="1", baseline_devices="1", throughput="100"),
                  dict(devices="2", baseline_devices="1", throughput="180", grad_accum="2"))  # fmt: skip
    (c,) = read_published(path)
    assert c.step_time() == pytest.approx(32 / 100)
    assert c.step_time(c.rows[1]) == pytest.approx(32 * 2 / 90)


def test_cells_at_their_upper_limits_are_read(tmp_path):
    """dataset.py:126 (x > hi) and :142 (x > MAX_DEVICES) — the limits are inclusive."""
    path = csv_of(tmp_path, dict(devices="10000000", baseline_devices="10000000", grad_accum="1000000",
                                 throughput="1e15"))  # fmt: skip
    (c,) = read_published(path)
    r = c.rows[0]
    assert (r.devices, r.grad_accum, r.throughput) == (10_000_000, 1_000_000, 1e15)
    with pytest.raises(DpscaleError, match="column 'devices'"):
        read_published(csv_of(tmp_path, dict(devices="10000001", baseline_devices="10000001")))


@pytest.mark.parametrize("col", ["throughput", "units_per_sample", "params_millions", "per_device_batch"])
def test_a_nan_cell_is_refused_by_line_and_column(tmp_path, col):
    """dataset.py:126 — 'nan' passes every < and > test; only isfinite stops it."""
    with pytest.raises(DpscaleError, match=f"line 2, column '{col}': got 'nan'"):
        read_published(csv_of(tmp_path, {col: "nan"}))


def test_a_blank_setup_cell_defers_to_the_stated_ones(tmp_path):
    """dataset.py:266 — a blank unit (or model, precision, system) on one row does not clash with another's."""
    path = csv_of(tmp_path, dict(unit=""), dict(devices="16", unit="samples/s", throughput="15000"),
                  dict(devices="32", model="", throughput="28000"))  # fmt: skip
    (c,) = read_published(path)
    assert [r.devices for r in c.rows] == [8, 16, 32]


# Mutation sweep 9 (session 35, of 9e8c82d..559d506): gaps the suite left open, each killing a surviving mutant.


# ---- dataset.py: header lines after blank lines, the E slip bound ---------------------------------------------
def test_a_column_twice_after_blank_lines_is_named_on_the_header_s_line(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text("\n\n" + SHORT_HEAD + ",devices\n" + "\n".join(pair("a")) + "\n")
    with pytest.raises(DpscaleError, match=r"t\.csv line 3: column devices twice"):
        read_published(path)
    path.write_text("\n\ncfg,devices\nx,1\n")
    rc, _, err = run(capsys, "validate", str(path), "--lang", "es")
    assert rc != 0 and "t.csv línea 3: faltan las columnas baseline_devices" in err


def test_a_measured_e_between_two_and_twenty_is_refused(tmp_path):
    (tmp_path / "s.csv").write_text(SHORT_HEAD + "\na,1,1,1,dgx-a100,8,300,200,m,amp,32,1,100,100\n"
                                    "a,1,1,1,dgx-a100,8,300,200,m,amp,32,8,2400,100\n")  # fmt: skip
    with pytest.raises(DpscaleError, match=r"s\.csv line 3, column 'throughput': got 2400, E = 3 against"):
        read_published(tmp_path / "s.csv")


def test_the_slip_refusal_names_e_to_four_digits_and_the_bound_itself_passes(tmp_path):
    row = "a,1,1,1,dgx-a100,8,300,200,m,amp,32,{d},{x},100"
    path = tmp_path / "s.csv"
    path.write_text("\n".join([SHORT_HEAD, row.format(d=1, x=100), row.format(d=8, x=1876)]) + "\n")
    said = r"s\.csv line 3, column 'throughput': got 1876, E = 2\.345 against the baseline's 100 at 1 device \(line 2\)"
    with pytest.raises(DpscaleError, match=said + "; allowed: E up to 2 — "):
        read_published(path)
    path.write_text("\n".join([SHORT_HEAD, row.format(d=1, x=100), row.format(d=8, x=1600)]) + "\n")
    (c,) = read_published(path)  # E = 2 exactly: allowed
    assert c.efficiency(c.rows[1]) == 2.0
    two = "a,2,1,1,dgx-a100,8,300,200,m,amp,32,{d},{x},100"
    path.write_text("\n".join([SHORT_HEAD, two.format(d=2, x=100), two.format(d=16, x=2000)]) + "\n")
    with pytest.raises(DpscaleError, match=r"E = 2\.5 against the baseline's 100 at 2 devices \(line 2\)"):
        read_published(path)


def test_one_configuration_is_one_inter_node_link(tmp_path):
    path = tmp_path / "l.csv"
    path.write_text("\n".join([SHORT_HEAD, "a,1,1,1,dgx-a100,8,300,200,m,amp,32,1,100,100",
                               "a,1,1,1,dgx-a100,8,300,100,m,amp,32,8,770,100"]) + "\n")  # fmt: skip
    with pytest.raises(DpscaleError, match=r"l\.csv line 3, column 'inter_bw_gbs': got '100'; allowed: '200', as on "
                                           r"line 2 — one configuration is one setup"):  # fmt: skip
        read_published(path)


def test_a_header_after_a_line_of_commas_is_named_on_its_own_line(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("\n,,,\ncfg,devices\nx,1\n")
    with pytest.raises(DpscaleError, match=r"c\.csv line 3: missing columns baseline_devices, "):
        read_published(path)


def test_an_e_just_past_two_is_said_in_the_digits_that_show_it(tmp_path):
    """1600.01 against 100 at 1 device is E = 2.00001: '.4g' printed 'E = 2; allowed: E up to 2' (the sweep's
    review); validate, fit and calc now share one rule (formulas.scaling.past)."""
    row = "a,1,1,1,dgx-a100,8,300,200,m,amp,32,{d},{x},100"
    path = tmp_path / "s.csv"
    path.write_text("\n".join([SHORT_HEAD, row.format(d=1, x=100), row.format(d=8, x=1600.01)]) + "\n")
    with pytest.raises(DpscaleError, match=r"got 1600\.01, E = 2\.00001 against the baseline's 100 at 1 device"):
        read_published(path)


def test_a_closed_cell_of_two_lines_is_no_unclosed_quote(tmp_path):
    """A quoted model name over two lines, on a row one field short, was explained as 'a quote opened on this line
    does not close' (the sweep's review). A quote that never closes swallows the rows after it, and is still said."""
    rows = pair("a")
    short = rows[1].replace(",m,", ',"big\nmodel",').rsplit(",", 1)[0]  # the two-line cell on the short row
    path = tmp_path / "q.csv"
    path.write_text("\n".join([SHORT_HEAD, rows[0], short]) + "\n")
    with pytest.raises(DpscaleError, match=r"q\.csv line 3: got 13 fields; allowed: 14 as in the header$"):
        read_published(path)
    path.write_text("\n".join([SHORT_HEAD, rows[0].replace(",m,", ',"m,'), rows[1]]) + "\n")
    with pytest.raises(DpscaleError, match=r"line 2: a quote opened on this line does not close before the file ends"):
        read_published(path)
    # closed by a later cell's quote, the rows between swallowed: the field count is off, and the quote is named
    opened, closed = rows[0].replace(",m,", ',"m,'), rows[1].replace(",dgx-a100,", ',dgx-a100",')
    path.write_text("\n".join([SHORT_HEAD, opened, closed]) + "\n")
    with pytest.raises(DpscaleError, match=r"line 2: got \d+ fields; allowed: 14 as in the header \(a quote opened"):
        read_published(path)


def test_a_quote_open_in_the_last_column_is_refused_not_a_swallowed_tail(tmp_path, capsys):
    """An unclosed quote in the last cell kept the field count right, so validate dropped every row after it
    into that cell and scored what was left, exit 0 (a review of the sweep's fixes). csv's strict mode ends it."""
    rows = pair("a") + pair("b")
    head = SHORT_HEAD + ",hardware"
    body = [rows[0] + ",x", rows[1] + ',"8x A100', rows[2] + ",x", rows[3] + ",x"]
    path = tmp_path / "u.csv"
    path.write_text("\n".join([head, *body]) + "\n")
    rc, _, err = run(capsys, "validate", str(path))
    assert rc == 2 and "u.csv line 3: a quote opened on this line does not close before the file ends" in err
    path.write_text("\ufeff" + "\r\n".join([head, *body]) + "\r\n")
    rc, _, err = run(capsys, "validate", str(path), "--lang", "es")
    assert rc == 2 and "u.csv línea 3: unas comillas abiertas en esta línea no se cierran" in err


def test_e_of_exactly_two_in_decimals_is_the_bound_not_past_it(tmp_path, capsys):
    """19.8/s on 3 devices against 3.3/s on one is E = 2.0000000000000004 in floats: calc, fit and validate refused
    the bound itself (a review of the sweep's fixes). Past it by more than rounding is still refused."""
    rc, out, _ = run(capsys, "calc", "-d", "3", "-v", "3.3", "--actual", "19.8")
    assert rc == 0 and "scaling efficiency E" in out
    rc, out, _ = run(capsys, "calc", "-d", "3", "-v", "3.3", "--actual", "19.81")
    assert rc == 2
    rc, out, err = run(capsys, "fit", "--point=1:3.3", "--point=3:19.8", "--point=6:30", "--resamples", "50")
    assert rc == 0, err
    row = "a,1,1,1,dgx-a100,8,300,200,m,amp,32,{d},{x},100"
    path = tmp_path / "two.csv"
    path.write_text("\n".join([SHORT_HEAD, row.format(d=1, x=3.3), row.format(d=3, x=19.8)]) + "\n")
    (c,) = read_published(path)
    assert c.efficiency(c.rows[1]) == pytest.approx(2.0)


@pytest.mark.parametrize(
    "cell, allowed",
    [("1,580", "a number without thousands separators: 2000, not 2,000"),
     ("1,580.5", "a number without thousands separators: 2000, not 2,000"),
     ("1580,5", "a number with a decimal point: 2.5, not 2,5")],
)  # fmt: skip
def test_a_quoted_thousands_separator_or_decimal_comma_is_told_how_to_write_it(tmp_path, capsys, cell, allowed):
    """A table copied with its printed '1,580' (quoted, so one cell) is refused on its line and column, as before,
    and now told why: the same hint fit's runs files and the flags give (comma_hint), in either language."""
    path = csv_of(tmp_path, {}, {"devices": "16", "throughput": cell})
    rc, _, err = run(capsys, "validate", str(path))
    assert rc == 2 and err.strip().endswith(f"line 3, column 'throughput': got '{cell}'; allowed: {allowed}")
    rc, _, err = run(capsys, "validate", str(path), "--lang", "es")
    assert rc == 2 and f"línea 3, columna 'throughput': se recibió '{cell}'; se admite: un número sin separador" in err


# Mutation pass of predict_inputs, predict_validate, dataset and the small formulas (whole modules): gaps the suite
# left open, each killing a surviving mutant.


def test_a_system_name_two_systems_share_is_told_apart_by_the_hardware_text(tmp_path):
    """Config.preset: 'DGX-1' is a P100 or a V100 system; with the GPU column blank, the hardware description ('NVIDIA
    DGX-1 (8x V100 16GB)') says which — dgx1-v100, its 8 GPUs and 150 GB/s NVLink fill the blank fabric cells."""
    head = "cfg,baseline_devices,grad_accum,units_per_sample,system,hardware,gpus_per_node,intra_bw_gbs,inter_bw_gbs,"
    rows = [f"c,1,1,1,DGX-1,NVIDIA DGX-1 (8x V100 16GB),,,,m,fp32,32,{d},{t},25" for d, t in ((1, 100), (8, 700))]
    (tmp_path / "t.csv").write_text("\n".join([head + "model,precision,per_device_batch,devices,throughput,"
                                               "params_millions", *rows]) + "\n")  # fmt: skip
    (c,) = read_published(tmp_path / "t.csv")
    assert c.preset["gpu"].startswith("v100") and c.gpus_per_node == 8 and c.preset["intra_bw_gbs"] == 150


def test_a_byte_order_mark_is_no_content_and_stands_before_blank_lines(tmp_path):
    """utf-8-sig drops a spreadsheet's byte-order mark before anything is read: a file of the mark alone is an empty
    file, and a mark before the blank lines above the header leaves them blank (read as `fit` reads them)."""
    (tmp_path / "bom.csv").write_bytes(b"\xef\xbb\xbf")
    with pytest.raises(DpscaleError, match=r"bom\.csv: empty; allowed: a CSV with a header row"):
        read_published(tmp_path / "bom.csv")
    header, recs = rows()
    good = write(tmp_path / "g.csv", header, recs).read_text()
    (tmp_path / "b.csv").write_bytes(b"\xef\xbb\xbf\n\n" + good.encode())
    assert [len(c.rows) for c in read_published(tmp_path / "b.csv")] == [4]


def test_a_negative_link_figure_is_refused_not_read_as_blank(tmp_path):
    """Only a zero link figure means 'no such link' (blank); -300 GB/s is a typo, refused by line and column."""
    header, recs = rows()
    recs = [dict(r) for r in recs]
    recs[0]["intra_bw_gbs"] = "-300"
    with pytest.raises(DpscaleError, match=r"line 2, column 'intra_bw_gbs': got '-300'; allowed: a number > 0\.001"):
        read_published(write(tmp_path / "neg.csv", header, recs))


def test_a_baseline_repeat_of_another_setup_is_named_against_the_first(tmp_path):
    """Two baseline rows (lines 2 and 3) of different precision: the later one is named, against the first's line —
    the baseline row the configuration keeps (base[0])."""
    with pytest.raises(DpscaleError, match=r"line 3, column 'precision': got 'amp'; allowed: 'fp32', as on line 2"):
        published(tmp_path / "t.csv", {}, {"precision": "amp"}, {"devices": "2", "throughput": "190"})


@pytest.mark.parametrize("col", ["devices", "baseline_devices"])
@pytest.mark.parametrize("value", ["1e400", "9" * 30, "8.5", "x", "0", "-8", "", "2e7"])
def test_a_bad_device_count_is_told_the_whole_range_whatever_is_wrong_with_it(tmp_path, capsys, col, value):
    """Review HL: a device count past 10,000,000 was told 'a whole number from 1 to 10,000,000', but '1e400' (read as
    inf) and 30 nines — past it too — were told 'a whole number ≥ 1', as if too small, and so were '8.5', 'x', '0':
    one column, two ranges. Every bad count now gets the range, as fit's runs files and --efficiency-file say it."""
    header, recs = rows()
    recs = [dict(r) for r in recs]
    recs[0][col] = value
    path = write(tmp_path / "count.csv", header, recs)
    with pytest.raises(DpscaleError) as exc:
        read_published(path)
    assert str(exc.value).endswith(
        f"line 2, column '{col}': got '{value}'; allowed: a whole number from 1 to 10,000,000"
    )
    for lang, said in (("en", "got '{v}'; allowed: a whole number from 1 to 10,000,000"),
                       ("es", "se recibió '{v}'; se admite: un número entero de 1 a 10.000.000")):  # fmt: skip
        rc, out, err = run(capsys, "validate", str(path), "--lang", lang)
        assert rc == 2 and out == "" and err.endswith(said.format(v=value) + "\n") and err.count("\n") == 1


def test_validate_refuses_commented_json_lines_without_making_a_run(tmp_path, capsys, monkeypatch):
    """Review KV: validate found where a JSON file breaks by reading it as fit's runs (fit_io's private _read_jsonl),
    every record made a run, and told its refusals apart by the end of their text: a 59 MB `measure --out` file of
    1.5 M records, a '#' line first, took 23.5 s to refuse (0.57 s without the comment). It reads runs_json.json_break
    now, which parses each line and makes no run: the refusal is the same."""
    from dpscale.sources import runs_json

    def no_run(*args, **kwargs):
        raise AssertionError("validate made a run of a record")

    monkeypatch.setattr(runs_json._OneSetup, "add", no_run)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs.jsonl").write_text("# measure --out, 2026-01-05\n" + RUNS_JSON * 3)
    rc, out, err = run(capsys, "validate", "runs.jsonl")
    said = (
        "runs.jsonl: JSON; allowed: a published-measurements CSV — runs from `dpscale measure --out` or `--json` go to"
    )
    assert rc == 2 and out == "" and err.strip().split("error: ", 1)[1] == f"{said} `dpscale fit FILE`"


GOOD = '{"devices": 1, "throughput": 2119.5}\n'


@pytest.mark.parametrize(
    "text, said",
    [
        ("# c\n" + GOOD * 2, None),  # JSON lines, a comment first
        ('{\n  "devices": 1,\n  "throughput": 2\n}\n', None),  # one document, indented
        ("# c\n" + GOOD + '{"devices": 2,\n' + GOOD + '{"devices"\n',  # the first break, not the second
         "line 3: not valid JSON (Expecting property name enclosed in double quotes)"),
        ('{\n  "devices": 1,\n  "throughput": 2\n  "x": 1\n}\n',  # a document broken inside: where, not its '{'
         "line 4: not valid JSON (Expecting ',' delimiter)"),
        ("# c\n" + GOOD + "[" * 100_000 + "\n", "line 3: nested too deeply"),
        ('{"devices": 1, "throughput":\n' + "[" * 100_000 + "\n", ": nested too deeply"),  # (read as one document)
    ],
)  # fmt: skip
def test_json_break_says_where_json_stops_as_fit_refuses_it(text, said):
    """json_break: the first line where the text stops being JSON, in the words fit's reader refuses it with (one
    rule for both), or None for JSON."""
    from dpscale.sources.fit_io import runs_of_text
    from dpscale.sources.runs_json import JSON_LINES, json_break

    broken = json_break(text, "r.jsonl")
    if said is None:
        assert broken is None
        return
    assert str(broken) == f"r.jsonl{'' if said.startswith(':') else ' '}{said}; allowed: {JSON_LINES}"
    with pytest.raises(DpscaleError) as fit_said:
        runs_of_text(text, "r.jsonl")
    assert str(fit_said.value) == str(broken)


@pytest.mark.parametrize("comment", ["", "# measure --out, 2026-01-05\n", "  # one\r\n\n# two\r"])
def test_a_comment_first_changes_nothing_validate_says_of_json(tmp_path, capsys, comment):
    """A '#' line is a comment to every reader of runs; validate read one as a CSV's first name (files.opens_json), so
    a `measure --out` file opening with one was searched for where it breaks, record by record: 'line 3: not valid
    JSON (…)' where the same file without the comment said 'JSON; allowed: …' (review KV). A first line broken is
    still said where it breaks."""
    (tmp_path / "r.jsonl").write_text(comment + GOOD + '{"devices": 2,\n', newline="")
    (tmp_path / "s.jsonl").write_text(comment + '{"devices": 2,\n' + GOOD, newline="")
    said = "allowed: a published-measurements CSV — runs from `dpscale measure --out` or `--json` go to `dpscale fit"
    rc, _, err = run(capsys, "validate", str(tmp_path / "r.jsonl"))
    assert rc == 2 and err.strip().endswith(f"r.jsonl: JSON; {said} FILE`")
    rc, _, err = run(capsys, "validate", str(tmp_path / "s.jsonl"))
    line = comment.count("\n") + comment.count("\r") - comment.count("\r\n") + 1
    assert rc == 2 and err.strip().endswith(
        f"s.jsonl line {line}: not valid JSON (Expecting property name enclosed in double quotes); {said} FILE`"
    )


def test_validate_says_json_of_a_number_too_long_before_a_broken_line(tmp_path, capsys):
    """Review KW: a JSON-lines file whose line 1 holds a 5,000-digit number and whose line 2 is cut short: fit refuses
    line 1 ('a number too long to read'), and validate said 'r.jsonl: JSON; allowed: …' (fab77ff5). json_break read
    past line 1 to the broken line 2 (review KV), so validate said 'r.jsonl line 2: not valid JSON (Unterminated
    string starting at)' — a break fit never reaches. It stops where fit stops now: JSON, as before."""
    from dpscale.sources.runs_json import json_break

    big = '{"devices": 1, "throughput": 1' + "0" * 5000 + "}\n"
    text = big + '{"devices": 2, "throughput": 1900, "unit": "samp\n' + GOOD
    assert json_break(text, "r.jsonl") is None
    (tmp_path / "r.jsonl").write_text(text)
    said = "allowed: a published-measurements CSV — runs from `dpscale measure --out` or `--json` go to `dpscale fit"
    for mode in ([], ["--mode", "fit"]):
        rc, out, err = run(capsys, "validate", str(tmp_path / "r.jsonl"), *mode)
        assert rc == 2 and out == "" and err.strip().endswith(f"r.jsonl: JSON; {said} FILE`")


@pytest.mark.parametrize(
    ("header", "missing", "found"),
    [
        ("[cfg],devices,imgs_per_sec", "cfg, baseline_devices", "[cfg], devices, imgs_per_sec)"),
        ("{cfg},model,devices", "cfg, baseline_devices", "{cfg}, model, devices)"),
        (
            "[ref],cfg,baseline_devices,grad_accum",
            "units_per_sample, system",
            "[ref], cfg, baseline_devices, grad_accum)",
        ),
    ],
)
def test_a_table_whose_first_column_opens_with_a_bracket_is_refused_for_its_columns_not_as_json(
    tmp_path, capsys, header, missing, found
):
    """Review KX: a published table whose first column's name opens with '[' or '{' and whose header lacks devices or
    throughput (runs_header's test of a table) was read as JSON broken on line 1: `dpscale validate t.csv` said
    't.csv line 1: not valid JSON (Expecting value); allowed: a published-measurements CSV — …' of
    '[cfg],devices,imgs_per_sec'. A line that names a column of a published table is its header: refused for the
    columns it lacks, as 'cfg,devices,imgs_per_sec' is. JSON broken on line 1 is still said so."""
    path = tmp_path / "t.csv"
    path.write_text(f"{header}\nA,1,100\n", encoding="utf-8")
    for lang, said in (
        ("en", "line 1: missing columns {} (found {}"),
        ("es", "línea 1: faltan las columnas {} (hay: {}"),
    ):
        for mode in ("predict", "fit"):
            rc, out, err = run(capsys, "validate", str(path), "--mode", mode, "--lang", lang)
            assert (rc, out, err.count("\n")) == (2, "", 1), err
            head, tail = said.split(" {} ")
            assert "JSON" not in err and f"t.csv {head} {missing}, " in err and tail.format(found) in err, err
    path.write_text('{"devices": 1, "throughput": 9\n', encoding="utf-8")
    rc, out, err = run(capsys, "validate", str(path))
    assert rc == 2 and "t.csv line 1: not valid JSON (Expecting ',' delimiter)" in err, err
