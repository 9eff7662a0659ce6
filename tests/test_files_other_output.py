"""Review ML: every reader of a file names another command's output as what it is and which command reads it
(outputs.output_of, the rule predict --calibration named calc's, predict's, fit's and validate's JSON by since review
MH). `dpscale fit calc.json` said "line 1: got '{"devices": 64, …'; allowed: an object with "devices" and
"throughput"", `fit predict.json` 'a JSON array', `plan --efficiency-file validate.json` only "allowed: JSON from
`dpscale predict`, `fit` or `measure --json`…", `predict --system-file fit.json` "system 'custom' needs numbers > 0 …
for gpus_per_node, …", `validate calc.json` 'JSON'. Each file here is what the command itself wrote: its --json
through the command line, measure's through its own writers (show_train, append_jsonl, write_json), so no rank is
launched."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
from pathlib import Path

import pytest
from clihelp import post, run
from test_fit_warnings import records

from dpscale.faces.cli import main
from dpscale.faces.cli.measure import show_allreduce, show_equivalence, show_train
from dpscale.outputs import output_of, output_of_text
from dpscale.sources.measure.calibration import calibration, row
from dpscale.sources.measure.results import append_jsonl, write_json

DLE = str(Path(__file__).parent.parent / "validation" / "external_dle.csv")
WRITERS = {  # a command's own --json, by what it is
    "calc": ["calc", "-d", "64", "-v", "2000", "-e", "0.9"],
    "calc sweep": ["calc", "-d", "8..64x2", "-v", "2000", "-e", "0.9"],
    "predict": ["predict", "--model", "resnet50", "--system", "dgx-a100", "-d", "8,16"],
    # (its records under "predictions", beside the answer: review MM found this object named by no reader)
    "predict search": ["predict", "--model", "resnet50", "--system", "dgx-a100", "--min-efficiency", "0.9"],
    "predict target": ["predict", "--model", "resnet50", "--system", "dgx-a100", "--target-throughput", "20000"],
    "fit": ["fit", "--point", "1:1000", "--point", "2:1900", "--point", "4:3600", "--resamples", "50"],
    "validate": ["validate", DLE],
    "plan": ["plan", "-n", "1e9", "-v", "2000", "-e", "0.9", "-d", "1,2,4"],
    "memory": ["memory", "--params", "7.5e9"],
    "pipeline": ["pipeline", "-p", "4", "-m", "8"],
    "batch": ["batch", "-d", "4,8", "-b", "32"],
}
KIND = {
    "calc sweep": "calc",
    "predict search": "predict",
    "predict target": "predict",
    "systems.json": "system",
    "models.json": "model",
    "config.json": "model",
}  # (the rest: their own name)
CATALOG = Path(__file__).parent.parent / "src" / "dpscale" / "catalog"
HF = Path(__file__).parent / "data" / "hf" / "Qwen2-7B.config.json"
# what each is, in English and Spanish, typed again here from what the readers say
WHAT = {
    "calc": ("calc's answer (`dpscale calc --json`, for plan --efficiency-file)",
             "la respuesta de calc (`dpscale calc --json`, para plan --efficiency-file)"),
    "predict": ("E predicted per size (`dpscale predict --json`, for plan --efficiency-file)",
                "E predicha por tamaño (`dpscale predict --json`, para plan --efficiency-file)"),
    "fit": ("a fitted law (`dpscale fit --json`, for plan --efficiency-file)",
            "una ley ajustada (`dpscale fit --json`, para plan --efficiency-file)"),
    "validate": ("a validation's scores (`dpscale validate --json`, which no command reads)",
                 "las puntuaciones de una validación (`dpscale validate --json`, que ningún comando lee)"),
    "plan": ("a plan's sizes and E (`dpscale plan --json`, for plan --efficiency-file)",
             "los tamaños y la E de un plan (`dpscale plan --json`, para plan --efficiency-file)"),
    "memory": ("memory per device (`dpscale memory --json`, which no command reads)",
               "la memoria por dispositivo (`dpscale memory --json`, que ningún comando lee)"),
    "pipeline": ("a pipeline's bubble (`dpscale pipeline --json`, which no command reads)",
                 "la burbuja de un pipeline (`dpscale pipeline --json`, que ningún comando lee)"),
    "batch": ("a global batch and learning rate (`dpscale batch --json`, which no command reads)",
              "un lote global y su tasa de aprendizaje (`dpscale batch --json`, que ningún comando lee)"),
    "calibration": ("an all-reduce calibration (`dpscale measure allreduce --out`, for predict --calibration)",
                    "una calibración del all-reduce (`dpscale measure allreduce --out`, para predict --calibration)"),
    "runs": ("runs of `dpscale measure` (for fit and plan --fit)",
             "ejecuciones de `dpscale measure` (para fit y plan --fit)"),
    "system": ("a system file (as systems.json, for predict --system-file)",
               "un archivo de sistemas (como systems.json, para predict --system-file)"),
    "model": ("a model file (as models.json or a Hugging Face config.json, for predict and memory --model-file)",
              "un archivo de modelos (como models.json o un config.json de Hugging Face, para predict y memory "
              "--model-file)"),
}  # fmt: skip
RUNS_EN = (
    "runs — JSON lines (an object with devices and throughput on each line, as `dpscale measure --out` writes), "
    "`dpscale measure --json` output, or a CSV with columns devices,throughput"
)
RUNS_ES = (
    "ejecuciones — líneas JSON (un objeto con devices y throughput por línea, como escribe `dpscale measure --out`), "
    "la salida de `dpscale measure --json`, o un CSV con columnas devices,throughput"
)
E_FILE = (
    "JSON from `dpscale predict`, `fit` or `measure --json` (records with devices and efficiency)",
    "JSON de `dpscale predict`, `fit` o `measure --json` (registros con devices y efficiency)",
)
SYSTEMS = ("a JSON file as systems.json", "un archivo JSON como systems.json")
PUBLISHED = (
    "a published-measurements CSV — runs from `dpscale measure --out` or `--json` go to `dpscale fit FILE`",
    "un CSV de mediciones publicadas — las ejecuciones de `dpscale measure --out` o `--json` van a `dpscale fit "
    "ARCHIVO`",
)
CALIBRATION = (
    "JSON with numbers busbw_gbs and alpha_s, as `dpscale measure allreduce --out` writes it",
    "JSON con los números busbw_gbs y alpha_s, como lo escribe `dpscale measure allreduce --out`",
)
BOX = (
    "runs — measured runs as devices:throughput, one or more a line (1:1000 8:7500), a JSON object a line "
    '({"devices": 8, "throughput": 7500}) or rows under a header devices,throughput',
    "ejecuciones — ejecuciones medidas como dispositivos:rendimiento, una o más por línea (1:1000 8:7500), un objeto "
    'JSON por línea ({"devices": 8, "throughput": 7500}) o filas bajo una cabecera devices,throughput',
)


def printed(argv: list[str]) -> str:
    """What the command prints on standard output, as a user's `> file` keeps it (its notes on stderr left out)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(argv) == 0, argv
    return out.getvalue()


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, str]:
    """Each command's output, written to a file as the command wrote it."""
    folder = tmp_path_factory.mktemp("outputs")
    files = {}
    for name, argv in WRITERS.items():
        files[name] = folder / f"{name.replace(' ', '_')}.json"
        files[name].write_text(printed([*argv, "--json"]))
    recs = records()
    files["measure --out"] = folder / "runs.jsonl"
    for rec in recs:
        append_jsonl(str(files["measure --out"]), rec)
    for how in ("json", "csv"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            show_train(recs, argparse.Namespace(json=how == "json", csv=how == "csv", lang="en", plot=None, out=None))
        files[f"measure --{how}"] = folder / f"runs.{how}"
        files[f"measure --{how}"].write_text(out.getvalue())
    rows = [row(n, 2e-5 + n / 5e9, 2, 20) for n in (1024, 65536, 4 * 2**20)]
    files["measure allreduce --out"] = folder / "cal.json"
    write_json(str(files["measure allreduce --out"]), calibration(rows, 2, "gloo", device="cpu", nodes=1))
    for name, path in (("systems.json", CATALOG / "systems.json"), ("models.json", CATALOG / "models.json"),
                       ("config.json", HF)):  # fmt: skip
        files[name] = folder / name
        files[name].write_text(path.read_text())
    return {k: str(p) for k, p in files.items()}


def kind(name: str) -> str:
    return KIND.get(name, "calibration" if "allreduce" in name else "runs" if "measure" in name else name)


def test_output_of_tells_each_command_s_output(written):
    """The one rule, on each file: the JSON document (or `measure --out`'s first line) read as what wrote it; a CSV of
    runs is no JSON (its readers ask runs_table), and a user's own files are none of them."""
    said = {name: output_of_text(Path(p).read_text()) for name, p in written.items()}
    assert len(said) == 18
    assert said == {name: None if name == "measure --csv" else kind(name) for name in written}
    mine = [{"devices": 8, "efficiency": 0.9}, {"gpus_per_node": 8}, {"devices": 8}, {"kind": "cnn"}, [], 3]
    assert [output_of(x) for x in mine] == [None] * 6
    # the catalog's formats, a user's own (review MO), which their own readers ask of no file they read
    catalog = [{"systems": {"mine": {"gpus_per_node": 8}}}, {"models": {"mine": {"kind": "cnn"}}}, {"model_type": "x"}]
    assert [output_of(x) for x in catalog] == ["system", "model", "model"]


JSON_OTHERS = [n for n in WRITERS if n != "fit"]  # (a fit's report: fit's own words, 'a fitted law …, not runs')


@pytest.mark.parametrize("name", JSON_OTHERS)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_fit_and_plan_fit_name_another_command_s_json(written, capsys, name, lang):
    """`dpscale fit calc.json` said "line 1: got '{"devices": 64, "per_device_throughput":…'; allowed: an object with
    "devices" and "throughput"", `fit predict.json` (and calc's sweep, plan's, memory's) 'a JSON array; allowed: …'."""
    f = written[name]
    i = 0 if lang == "en" else 1
    runs = (RUNS_EN, RUNS_ES)[i]
    line = f"{Path(f).name}: {WHAT[kind(name)][i]}; {('allowed', 'se admite')[i]}: {runs}\n"  # (fit names a file so)
    assert run(capsys, "fit", f, "--lang", lang) == (2, "", f"dpscale fit: error: {line}")
    assert run(capsys, "plan", "-n", "1e9", "--fit", f, "--lang", lang) == (2, "", f"dpscale plan: error: {line}")


@pytest.mark.parametrize("name", ["calc", "predict", "predict search", "plan", "memory", "batch"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_page_s_fit_field_names_another_command_s_json(client, name, lang, written):
    """The fit tab's field given calc's or predict's --json pasted said 'a JSON array' (or calc's one record
    "got '{"devices": 64, …'"); it names it, with the field's own forms."""
    i = 0 if lang == "en" else 1
    said = post(client, "fit", {"point": Path(written[name]).read_text()}, lang)
    assert said.status_code == 422
    head = f"dpscale fit: error: --point: {WHAT[kind(name)][i]}; {('allowed', 'se admite')[i]}: {BOX[i]}"
    assert said.json()["error"] == head


@pytest.mark.parametrize("name", ["validate", "memory", "pipeline", "batch"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_plan_efficiency_file_names_json_with_no_e_per_size(written, capsys, name, lang):
    """`plan --efficiency-file validate.json` said only "got 'validate.json'; allowed: JSON from `dpscale predict`, …";
    memory's, pipeline's and batch's "(the JSON of pipeline, memory or batch gives no E per size)", not which."""
    f = written[name]
    i = 0 if lang == "en" else 1
    line = f"--efficiency-file: {f}: {WHAT[kind(name)][i]}; {('allowed', 'se admite')[i]}: {E_FILE[i]}"
    assert run(capsys, "plan", "-n", "1e9", "--efficiency-file", f, "--lang", lang) == (
        2, "", f"dpscale plan: error: {line}\n")  # fmt: skip


@pytest.mark.parametrize("name", ["plan", "memory", "pipeline", "batch", "predict search", "predict target"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_calibration_names_the_json_review_mh_left(written, capsys, name, lang):
    """MH named calc's, predict's, fit's and validate's JSON given --calibration; plan's and memory's said "allowed:
    JSON with numbers busbw_gbs and alpha_s", pipeline's and batch's 'busbw_gbs missing'."""
    f = written[name]
    i = 0 if lang == "en" else 1
    argv = ["predict", "--params", "1e8", "--step-time", "0.1", "--system", "dgx-a100", "-d", "8"]
    line = f"--calibration: {f}: {WHAT[kind(name)][i]}; {('allowed', 'se admite')[i]}: {CALIBRATION[i]}"
    assert run(capsys, *argv, "--calibration", f, "--lang", lang) == (2, "", f"dpscale predict: error: {line}\n")


@pytest.mark.parametrize("name", [*WRITERS, "measure --out", "measure --json", "measure --csv",
                                  "measure allreduce --out"])  # fmt: skip
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_system_file_names_every_command_s_output(written, capsys, name, lang):
    """`predict --system-file` given calc's, fit's or a calibration's JSON said "system 'custom' needs numbers > 0
    (and below 1e300) for gpus_per_node, intra_bw_gbs, inter_bw_gbs", predict's "allowed: an object {'systems': …}",
    `measure --out`'s runs 'line 2: not JSON (Extra data)' and `measure --csv`'s 'line 1: not JSON'."""
    f = written[name]
    i = 0 if lang == "en" else 1
    line = f"--system-file: {f}: {WHAT[kind(name)][i]}; {('allowed', 'se admite')[i]}: {SYSTEMS[i]}"
    assert run(capsys, "predict", "--params", "1e8", "--system-file", f, "--lang", lang) == (
        2, "", f"dpscale predict: error: {line}\n")  # fmt: skip


@pytest.mark.parametrize("name", [*WRITERS, "measure allreduce --out"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_validate_names_another_command_s_json(written, capsys, name, lang):
    """`dpscale validate calc.json` said 'calc.json: JSON; allowed: a published-measurements CSV — …'. (Runs stay
    'JSON': the refusal's own words send them to fit.)"""
    f = written[name]
    i = 0 if lang == "en" else 1
    line = f"{f}: {WHAT[kind(name)][i]}; {('allowed', 'se admite')[i]}: {PUBLISHED[i]}"
    assert run(capsys, "validate", f, "--lang", lang) == (2, "", f"dpscale validate: error: {line}\n")


def test_what_each_reader_takes_is_unchanged_by_the_rule(written, capsys):
    """The rule names a file only where its reader refuses it: calc's, predict's, fit's and plan's JSON still plan
    (the last with the --throughput its records do not state), measure's runs still fit."""
    for name in ("calc", "calc sweep", "predict", "predict search", "predict target", "fit"):
        assert run(capsys, "plan", "-n", "1e9", "--efficiency-file", written[name])[0] == 0, name
    assert run(capsys, "plan", "-n", "1e9", "-v", "2000", "--efficiency-file", written["plan"])[0] == 0
    for name in ("measure --out", "measure --json", "measure --csv"):
        rc, out, _ = run(capsys, "fit", written[name], "--resamples", "50", "--json")
        assert rc == 0 and json.loads(out)["law"], name
    assert run(capsys, "predict", "--params", "1e8", "--step-time", "0.1", "--system", "dgx-a100", "-d", "8",
               "--calibration", written["measure allreduce --out"])[0] == 0  # fmt: skip


MODEL_FILE = ("a JSON file as models.json, or a Hugging Face config.json",
              "un archivo JSON como models.json, o un config.json de Hugging Face")  # fmt: skip
NOT_MODELS = [n for n in ("measure --out", "measure --json", "measure --csv", "measure allreduce --out",
                          *WRITERS, "systems.json")]  # fmt: skip


@pytest.mark.parametrize("name", NOT_MODELS)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_model_file_names_every_command_s_output(written, capsys, name, lang):
    """Review MO: `predict --model-file` and `memory --model-file` given calc's, pipeline's, validate's JSON or
    systems.json said "model 'calc.json': kind missing; allowed: transformer or cnn", predict's, plan's, memory's and
    batch's "allowed: an object {'models': {name: {...}}} as models.json", fit's "key 'parameters' (did you mean
    'params'?)", `measure --out`'s runs 'line 2: not JSON (Extra data)' and `measure --csv`'s 'line 1: not JSON'."""
    f = written[name]
    i = 0 if lang == "en" else 1
    line = f"--model-file: {f}: {WHAT[kind(name)][i]}; {('allowed', 'se admite')[i]}: {MODEL_FILE[i]}\n"
    argv = ["--system", "dgx-a100", "-d", "8", "--lang", lang]
    assert run(capsys, "predict", "--model-file", f, *argv) == (2, "", f"dpscale predict: error: {line}")
    assert run(capsys, "memory", "--model-file", f, "--lang", lang) == (2, "", f"dpscale memory: error: {line}")


def test_the_library_s_model_file_names_another_command_s_output(written):
    """dpscale.predict(model_file=…) reads the file as the command does (sources.predict._model_size)."""
    import dpscale

    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.predict(model_file=written["calc"], system="dgx-a100", devices=[8])
    assert str(exc.value) == f"model_file: {written['calc']}: {WHAT['calc'][0]}; allowed: {MODEL_FILE[0]}"


@pytest.mark.parametrize("name", ["systems.json", "models.json", "config.json"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_reader_names_a_catalog_file(written, capsys, name, lang):
    """Review MO: systems.json and models.json handed to fit said "line 1: got '{"about": "Systems: GPUs per node, …';
    allowed: an object with "devices" and "throughput"", to validate 'JSON', to plan --efficiency-file "this file's
    records have no efficiency (the JSON of pipeline, memory or batch …)", to --calibration 'busbw_gbs missing', and
    models.json to --system-file "system 'custom' needs numbers > 0 …"."""
    f = written[name]
    i = 0 if lang == "en" else 1
    what, allowed = WHAT[kind(name)][i], ("allowed", "se admite")[i]
    assert run(capsys, "fit", f, "--lang", lang) == (
        2, "", f"dpscale fit: error: {Path(f).name}: {what}; {allowed}: {(RUNS_EN, RUNS_ES)[i]}\n")  # fmt: skip
    assert run(capsys, "validate", f, "--lang", lang) == (
        2, "", f"dpscale validate: error: {f}: {what}; {allowed}: {PUBLISHED[i]}\n")  # fmt: skip
    line = f"--efficiency-file: {f}: {what}; {allowed}: {E_FILE[i]}"
    assert run(capsys, "plan", "-n", "1e9", "--efficiency-file", f, "--lang", lang) == (
        2, "", f"dpscale plan: error: {line}\n")  # fmt: skip
    argv = ["predict", "--params", "1e8", "--step-time", "0.1", "--system", "dgx-a100", "-d", "8", "--lang", lang]
    line = f"--calibration: {f}: {what}; {allowed}: {CALIBRATION[i]}"
    assert run(capsys, *argv, "--calibration", f) == (2, "", f"dpscale predict: error: {line}\n")
    if name != "systems.json":  # (a system file's own refusals are --system-file's: below)
        line = f"--system-file: {f}: {what}; {allowed}: {SYSTEMS[i]}"
        assert run(capsys, "predict", "--params", "1e8", "--system-file", f, "--lang", lang) == (
            2, "", f"dpscale predict: error: {line}\n")  # fmt: skip


def test_a_catalog_file_s_own_faults_are_its_reader_s(tmp_path, capsys):
    """A model file or system file of its own format, at fault, says its fault, not 'a model file' (output_of names
    the catalog's formats to every other reader alone)."""
    models = tmp_path / "m.json"
    models.write_text('{"models": {"mine": {"kind": "cnn", "params": 2.5e7}}}')
    line = f"dpscale predict: error: --model-file: {models}: model 'mine': fwd_gmacs missing; allowed: forward GMACs"
    assert run(capsys, "predict", "--model-file", str(models), "--system", "dgx-a100", "-d", "8")[2].startswith(line)
    systems = tmp_path / "s.json"
    systems.write_text('{"systems": {"mine": {"gpus_per_node": 8}}}')
    rc, _, err = run(capsys, "predict", "--params", "1e8", "--system-file", str(systems))
    assert (rc, err) == (2, f"dpscale predict: error: --system-file: {systems}: system 'mine' needs numbers > 0 (and "
                            "below 1e300) for intra_bw_gbs, inter_bw_gbs\n")  # fmt: skip


@pytest.mark.parametrize("name", ["calc", "pipeline", "validate"])  # (one object each: a line of JSON lines)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_another_command_s_json_appended_a_line_at_a_time_is_named_on_its_line(written, capsys, client, tmp_path,
                                                                               name, lang):  # fmt: skip
    """Review MM: `dpscale calc … --json >> runs.jsonl` twice (JSON lines, as `measure --out` appends runs) said
    "runs.jsonl line 1: got '{"devices": 64, "per_device_throughput":…'; allowed: an object with "devices" and
    "throughput"" to fit, plan --fit and the page's fit field, while validate and --system-file named it calc's
    answer; below measure's runs, on the line where it starts."""
    i = 0 if lang == "en" else 1
    one = Path(written[name]).read_text()
    twice, after_runs = tmp_path / "twice.jsonl", tmp_path / "after_runs.jsonl"
    twice.write_text(one + one)
    after_runs.write_text('{"devices": 1, "throughput": 1000}\n{"devices": 2, "throughput": 1900}\n' + one)
    what = f"{WHAT[name][i]}; {('allowed', 'se admite')[i]}:"
    for f, n in ((twice, 1), (after_runs, 3)):
        line = f"{f.name} line {n}: {what} {(RUNS_EN, RUNS_ES)[i]}\n"
        assert run(capsys, "fit", str(f), "--lang", lang) == (2, "", f"dpscale fit: error: {line}")
        assert run(capsys, "plan", "-n", "1e9", "--fit", str(f), "--lang", lang) == (
            2,
            "",
            f"dpscale plan: error: {line}",
        )
    if name == "validate":  # (past the field's 10,000 characters)
        return
    said = post(client, "fit", {"point": one + one}, lang)
    assert said.status_code == 422
    assert said.json()["error"] == f"dpscale fit: error: --point line 1: {what} {BOX[i]}"


@pytest.mark.parametrize("extra", [{"model_type": "llama"}, {"num_hidden_layers": 32}, {"models": {"m": {}}}])
def test_runs_that_also_name_their_model_are_runs(capsys, client, tmp_path, extra):
    """Review MR: review MO's catalog rule came before the runs' own, so a run that also names its model
    ('{"devices": 1, "throughput": 1000, "model_type": "llama"}', JSON lines or measure --json's points) was 'a model
    file (as models.json …)' to fit, plan --fit and the page's fit field, line by line; it is a run, read as one."""
    runs = [{"devices": d, "throughput": t, **extra} for d, t in ((1, 1000), (2, 1900), (4, 3600), (8, 6800))]
    assert output_of(runs[0]) == output_of({"points": runs[:3], **extra}) == "runs"
    lines, doc = tmp_path / "runs.jsonl", tmp_path / "runs.json"
    lines.write_text("".join(json.dumps(r) + "\n" for r in runs))
    doc.write_text(json.dumps({"points": runs, **extra}))
    for f in (lines, doc):
        rc, out, err = run(capsys, "fit", str(f), "--resamples", "50")
        assert (rc, err) == (0, ""), err
        assert out.startswith("fitted law: allreduce (leave-one-out RMSE 0.00671)")
    said = post(client, "fit", {"point": lines.read_text(), "resamples": "50"}, "en")
    assert said.status_code == 200, said.json()


@pytest.mark.parametrize("doc", [{"devices": 8, "efficiency": 0.9}, {"points": [{"devices": 8, "efficiency": 0.9}]}])
def test_a_user_s_e_per_size_that_names_its_model_is_planned_on(capsys, tmp_path, doc):
    """Review MR: a user's own record of E, or measure --json's form of one, beside a model_type (as a config.json
    names one) was 'a model file (as models.json …)' to plan --efficiency-file after review MO; it is planned on:
    8 devices at E 0.9 of 2,000 samples/s, 14,400 samples/s."""
    f = tmp_path / "e.json"
    f.write_text(json.dumps({**doc, "model_type": "llama"}))
    rc, out, err = run(capsys, "plan", "-n", "1e9", "--efficiency-file", str(f), "-v", "2000", "--json")
    assert (rc, err.splitlines()[-1]) == (0, "note: E(d) from E per size: 8→0.9")
    assert [(r["devices"], r["actual_throughput"]) for r in json.loads(out)] == [(8, 14400.0)]


def test_a_file_of_systems_and_models_is_each_reader_s_own(tmp_path, capsys):
    """Review MR: one file of {"systems": …, "models": …}, which --system-file and --model-file both read, was 'a system
    file (as systems.json, for predict --system-file)' to --model-file where its model was at fault, hiding the fault
    ('kind missing', said before review MO); each reader says its own part's fault, in both languages and the
    library."""
    from dpscale import DpscaleError, predict

    system = {"gpu": "h100-sxm", "gpus_per_node": 8, "intra_link": "nvlink4", "intra_bw_gbs": 450,
              "inter_link": "ib-ndr", "nics": 8, "inter_bw_gbs": 400}  # fmt: skip
    model = {"params": 1.3e9, "layers": 24, "hidden": 2048, "heads": 16, "seq_len": 2048}
    f = tmp_path / "mine.json"
    f.write_text(json.dumps({"systems": {"mine": system}, "models": {"tiny": model}}))
    for cmd in (["predict", "--system-file", str(f), "-d", "16"], ["memory"]):
        line = f"dpscale {cmd[0]}: error: --model-file: {f}: model 'tiny': kind missing; allowed: transformer or cnn\n"
        assert run(capsys, *cmd, "--model-file", str(f)) == (2, "", line)
        es = f"dpscale {cmd[0]}: error: --model-file: {f}: modelo 'tiny': falta kind; se admite: transformer o cnn\n"
        assert run(capsys, *cmd, "--model-file", str(f), "--lang", "es") == (2, "", es)
    with pytest.raises(DpscaleError, match="^model_file: .*: model 'tiny': kind missing; allowed: transformer or cnn$"):
        predict(model_file=str(f), system_file=str(f), devices=16)
    f.write_text(
        json.dumps({"systems": {"mine": {"gpus_per_node": 8}}, "models": {"tiny": {"kind": "transformer", **model}}})
    )
    assert run(capsys, "predict", "--model-file", str(f), "--system-file", str(f), "-d", "16")[2] == (
        f"dpscale predict: error: --system-file: {f}: system 'mine' needs numbers > 0 (and below 1e300) for "
        "intra_bw_gbs, inter_bw_gbs\n"
    )


# Review MT: each command's --csv, as the command wrote it, handed to every reader of a file. fit, plan --fit, validate
# and the page's fit field listed the columns found ('calc.csv line 1: missing column throughput (found devices,
# per_device_throughput, …)'); plan --efficiency-file, --calibration, --system-file and --model-file said 'calc.csv
# line 1: not JSON (Expecting value)'.
CSV_WRITERS = {
    "calc --csv": WRITERS["calc"],
    "calc sweep --csv": WRITERS["calc sweep"],
    "predict --csv": WRITERS["predict"],
    "predict search --csv": WRITERS["predict search"],
    "fit --csv": WRITERS["fit"],
    "validate --csv": WRITERS["validate"],
    "validate fit --csv": [*WRITERS["validate"], "--mode", "fit"],
    "plan --csv": WRITERS["plan"],
    "memory --csv": WRITERS["memory"],
    "pipeline --csv": WRITERS["pipeline"],
    "pipeline over d --csv": [*WRITERS["pipeline"], "-d", "8"],
    "batch --csv": WRITERS["batch"],
}
CSV_WHAT = {  # typed again from what the readers say
    "calc --csv": ("calc's answer as CSV (`dpscale calc --csv`; plan --efficiency-file reads its --json)",
                   "la respuesta de calc en CSV (`dpscale calc --csv`; plan --efficiency-file lee su --json)"),
    "predict --csv": ("E predicted per size as CSV (`dpscale predict --csv`; plan --efficiency-file reads its --json)",
                      "E predicha por tamaño en CSV (`dpscale predict --csv`; plan --efficiency-file lee su --json)"),
    "fit --csv": ("E fitted per size as CSV (`dpscale fit --csv`; plan --efficiency-file reads its --json)",
                  "E ajustada por tamaño en CSV (`dpscale fit --csv`; plan --efficiency-file lee su --json)"),
    "validate --csv": ("a validation's scores as CSV (`dpscale validate --csv`, which no command reads)",
                       "las puntuaciones de una validación en CSV (`dpscale validate --csv`, que ningún comando lee)"),
    "plan --csv": ("a plan's sizes and E as CSV (`dpscale plan --csv`; plan --efficiency-file reads its --json)",
                   "los tamaños y la E de un plan en CSV (`dpscale plan --csv`; plan --efficiency-file lee su --json)"),
    "memory --csv": ("memory per device as CSV (`dpscale memory --csv`, which no command reads)",
                     "la memoria por dispositivo en CSV (`dpscale memory --csv`, que ningún comando lee)"),
    "pipeline --csv": ("a pipeline's bubble as CSV (`dpscale pipeline --csv`, which no command reads)",
                       "la burbuja de un pipeline en CSV (`dpscale pipeline --csv`, que ningún comando lee)"),
    "batch --csv": ("a global batch and learning rate as CSV (`dpscale batch --csv`, which no command reads)",
                    "un lote global y su tasa de aprendizaje en CSV (`dpscale batch --csv`, que ningún comando lee)"),
    "allreduce --csv": ("all-reduce timings as CSV (`dpscale measure allreduce --csv`; predict --calibration reads its "
                        "--out)",
                        "tiempos del all-reduce en CSV (`dpscale measure allreduce --csv`; predict --calibration lee "
                        "su --out)"),
    "equivalence --csv": ("an equivalence check as CSV (`dpscale measure equivalence --csv`, which no command reads)",
                          "una comprobación de equivalencia en CSV (`dpscale measure equivalence --csv`, que ningún "
                          "comando lee)"),
}  # fmt: skip


def csv_kind(name: str) -> str:
    return {"calc sweep --csv": "calc --csv", "predict search --csv": "predict --csv",
            "validate fit --csv": "validate --csv", "pipeline over d --csv": "pipeline --csv",
            "measure allreduce --csv": "allreduce --csv",
            "measure equivalence --csv": "equivalence --csv"}.get(name, name)  # fmt: skip


@pytest.fixture(scope="module")
def csv_written(tmp_path_factory) -> dict[str, str]:
    """Each command's --csv, written to a file as the command wrote it (measure's modes through their own show_*:
    no rank is launched)."""
    folder = tmp_path_factory.mktemp("csv_outputs")
    texts = {}
    for name, argv in CSV_WRITERS.items():
        texts[name] = printed([*argv, "--csv"])
    args = argparse.Namespace(json=False, csv=True, lang="en", plot=None, out=None)
    rows = [row(n, 2e-5 + n / 5e9, 2, 20) for n in (1024, 65536, 4 * 2**20)]
    check = {"dtype": "float32", "max_abs_diff": 2e-6, "grad_max": 0.5, "tolerance": 1e-4, "threshold": 5e-5,
             "passed": True, "params": 10}  # fmt: skip
    result = {"devices": 2, "batch": 4, "workload": "mlp", "backend": "gloo", "passed": True, "checks": [check]}
    for name, show in (
        (
            "measure allreduce --csv",
            lambda: show_allreduce({**calibration(rows, 2, "gloo", device="cpu"), "rows": rows}, args),
        ),  # fmt: skip
        ("measure equivalence --csv", lambda: show_equivalence([result], args)),
    ):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            show()
        texts[name] = out.getvalue()
    files = {}
    for name, text in texts.items():
        files[name] = folder / f"{name.replace(' ', '_').replace('--', '')}.csv"
        files[name].write_text(text)
    return {k: str(p) for k, p in files.items()}


CSV_NAMES = [*CSV_WRITERS, "measure allreduce --csv", "measure equivalence --csv"]
NOT_RUNS = [n for n in CSV_NAMES if n != "fit --csv"]  # (fit's curve holds devices and throughput: fit reads it)


def test_output_of_header_tells_each_command_s_csv(written, csv_written):
    """The one rule, on each command's real --csv header: what wrote it; measure's runs (and the published tables
    validate reads, of devices and throughput) are runs; a user's own table is none."""
    from dpscale.outputs import output_of_csv, output_of_header

    said = {name: output_of_csv(Path(p).read_text()) for name, p in csv_written.items()}
    assert said == {name: csv_kind(name) for name in CSV_NAMES}
    assert output_of_csv(Path(written["measure --csv"]).read_text()) == "runs"
    assert output_of_csv(Path(DLE).read_text()) == "runs"
    assert [output_of_header(h) for h in (["devices", "efficiency"], ["cfg", "devices"], [])] == [None] * 3


@pytest.mark.parametrize("name", NOT_RUNS)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_fit_plan_fit_and_the_fit_field_name_another_command_s_csv(csv_written, capsys, client, name, lang):
    """`dpscale fit calc.csv` said 'calc.csv line 1: missing column throughput (found devices, per_device_throughput,
    efficiency, ideal_throughput, actual_throughput, speedup, lost_throughput, effective_devices); allowed: a header
    with devices,throughput (optional step_time)'; it names calc's CSV, as `fit calc.json` names calc's JSON."""
    f = csv_written[name]
    i = 0 if lang == "en" else 1
    line = f"{Path(f).name}: {CSV_WHAT[csv_kind(name)][i]}; {('allowed', 'se admite')[i]}: {(RUNS_EN, RUNS_ES)[i]}\n"
    assert run(capsys, "fit", f, "--lang", lang) == (2, "", f"dpscale fit: error: {line}")
    assert run(capsys, "plan", "-n", "1e9", "--fit", f, "--lang", lang) == (2, "", f"dpscale plan: error: {line}")
    said = post(client, "fit", {"point": Path(f).read_text()}, lang)  # (the table pasted in the fit tab's field)
    assert said.status_code == 422
    head = f"dpscale fit: error: --point: {CSV_WHAT[csv_kind(name)][i]}; {('allowed', 'se admite')[i]}: {BOX[i]}"
    assert said.json()["error"] == head


@pytest.mark.parametrize("name", CSV_NAMES)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_json_reader_and_validate_name_another_command_s_csv(csv_written, capsys, name, lang):
    """plan --efficiency-file, predict --calibration, --system-file, predict's and memory's --model-file said
    'calc.csv line 1: not JSON (Expecting value)' of any command's --csv (fit's: 'a CSV of runs (`measure --csv`): give
    it as --fit FILE', a fitted curve fitted again); validate listed the columns found."""
    f = csv_written[name]
    i = 0 if lang == "en" else 1
    what, allowed = CSV_WHAT[csv_kind(name)][i], ("allowed", "se admite")[i]
    assert run(capsys, "validate", f, "--lang", lang) == (
        2, "", f"dpscale validate: error: {f}: {what}; {allowed}: {PUBLISHED[i]}\n")  # fmt: skip
    assert run(capsys, "plan", "-n", "1e9", "-v", "100", "--efficiency-file", f, "--lang", lang) == (
        2, "", f"dpscale plan: error: --efficiency-file: {f}: {what}; {allowed}: {E_FILE[i]}\n")  # fmt: skip
    argv = ["predict", "--params", "1e8", "--step-time", "0.1", "--system", "dgx-a100", "-d", "8", "--lang", lang]
    assert run(capsys, *argv, "--calibration", f) == (
        2, "", f"dpscale predict: error: --calibration: {f}: {what}; {allowed}: {CALIBRATION[i]}\n")  # fmt: skip
    assert run(capsys, "predict", "--params", "1e8", "--system-file", f, "--lang", lang) == (
        2, "", f"dpscale predict: error: --system-file: {f}: {what}; {allowed}: {SYSTEMS[i]}\n")  # fmt: skip
    line = f"--model-file: {f}: {what}; {allowed}: {MODEL_FILE[i]}\n"
    assert run(capsys, "predict", "--model-file", f, "--system", "dgx-a100", "-d", "8", "--lang", lang) == (
        2, "", f"dpscale predict: error: {line}")  # fmt: skip
    assert run(capsys, "memory", "--model-file", f, "--lang", lang) == (2, "", f"dpscale memory: error: {line}")


def test_what_reads_a_csv_still_reads_it(written, csv_written, capsys, tmp_path):
    """The rule names a CSV only where its reader refuses it: fit and plan --fit still read measure's runs and fit's
    own curve (devices, throughput: 1,000, 1,891.6 … samples/s), validate the published table; a runs table with a bad
    row is refused for that row, not named."""
    for name in ("measure --csv",):
        rc, out, _ = run(capsys, "fit", written[name], "--resamples", "50", "--json")
        assert rc == 0 and json.loads(out)["law"], name
    rc, out, _ = run(capsys, "fit", csv_written["fit --csv"], "--resamples", "50", "--json")
    assert rc == 0 and json.loads(out)["measured"][0]["throughput"] == 1000.0
    assert run(capsys, "plan", "-n", "1e9", "--fit", csv_written["fit --csv"])[0] == 0
    rc, out, _ = run(capsys, "validate", DLE, "--json")
    assert rc == 0 and json.loads(out)["points"] == 30
    bad = tmp_path / "fit_bad.csv"
    bad.write_text(Path(csv_written["fit --csv"]).read_text() + "8,1\n")
    assert run(capsys, "fit", str(bad))[2] == (
        "dpscale fit: error: fit_bad.csv line 7: got 2 fields; allowed: 7 as in the header (write numbers without "
        "thousands separators: 1100, not 1,100)\n"
    )


SECOND = {  # typed again from what the readers say
    "en": "a second JSON document after {what} (two outputs appended with >>); allowed: one JSON document a file",
    "es": "un segundo documento JSON tras {what} (dos salidas añadidas con >>); se admite: un documento JSON por "
    "archivo",
}
APPENDED = [*WRITERS, "measure allreduce --out"]


@pytest.mark.parametrize("name", APPENDED)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_two_outputs_appended_are_named_by_efficiency_file_and_calibration(written, capsys, tmp_path, name, lang):
    """Review MT: `dpscale calc … --json >> c.json` twice, given to plan --efficiency-file or predict --calibration,
    said 'c.json line 2: not JSON (Extra data)' (fit, validate, --system-file and --model-file named it). Now
    --efficiency-file names the second document on its line after what the first is, and --calibration names the file
    as --system-file does (two calibrations: the second's line, as --efficiency-file)."""
    i = 0 if lang == "en" else 1
    one = Path(written[name]).read_text()
    twice = tmp_path / "twice.json"
    twice.write_text(one + one)
    line = one.count("\n") + 1  # (each output ends its last line)
    what = WHAT[kind(name)][i]
    second = SECOND[lang].format(what=what)
    at = ("line", "línea")[i]
    assert run(capsys, "plan", "-n", "1e9", "-v", "100", "--efficiency-file", str(twice), "--lang", lang) == (
        2, "", f"dpscale plan: error: --efficiency-file: {twice} {at} {line}: {second}\n")  # fmt: skip
    argv = ["predict", "--params", "1e8", "--step-time", "0.1", "--system", "dgx-a100", "-d", "8", "--lang", lang]
    said = (
        f"{twice} {at} {line}: {second}"
        if kind(name) == "calibration"
        else f"{twice}: {what}; {('allowed', 'se admite')[i]}: {CALIBRATION[i]}"
    )
    assert run(capsys, *argv, "--calibration", str(twice)) == (
        2,
        "",
        f"dpscale predict: error: --calibration: {said}\n",
    )


def test_json_then_other_text_is_still_where_it_breaks(written, capsys, tmp_path):
    """Only a second JSON document is named: calc's answer followed by a word is still 'line 2: not JSON (Extra
    data)' to plan --efficiency-file, and two documents no command writes ({"a": 1} twice) too."""
    bad = tmp_path / "bad.json"
    for text in (Path(written["calc"]).read_text() + "foo\n", '{"a": 1}\n{"a": 1}\n'):
        bad.write_text(text)
        assert run(capsys, "plan", "-n", "1e9", "--efficiency-file", str(bad)) == (
            2, "", f"dpscale plan: error: --efficiency-file: {bad} line 2: not JSON (Extra data)\n")  # fmt: skip


def test_a_command_s_output_is_named_by_all_of_the_keys_it_always_holds(capsys):
    """Review MS's mutants of output_of: a user's own record that holds one of a command's keys beside devices and
    efficiency (a 'schedule', 'micro_batch', 'hours', 'ideal_throughput', 'mode' or 'law' of its own) is the user's,
    not that command's (each rule reduced to its first key named it pipeline's, batch's, plan's, calc's, validate's
    or fit's, and its reader refused it so); validate's scores are named in either --mode; and a Hugging Face
    config.json without model_type still reads as a model file by its num_hidden_layers."""
    e = {"devices": 8, "efficiency": 0.9}
    own = [{**e, "schedule": "cosine"}, {**e, "micro_batch": 32}, {**e, "hours": 2.0}, {**e, "ideal_throughput": 7e3},
           {**e, "mode": "predict"}, {**e, "law": "usl"}, {"devices": 8, "bottleneck": "network"},
           {"devices": 8, "hours": 1.0, "device_hours": 8.0}]  # fmt: skip
    assert [output_of(r) for r in own] == [None] * 8
    rc, out, _ = run(capsys, "validate", DLE, "--mode", "fit", "--json")
    assert rc == 0 and json.loads(out)["mode"] == "fit" and output_of_text(out) == "validate"
    assert output_of({"num_hidden_layers": 24, "hidden_size": 1024}) == "model"


def test_a_file_no_reader_can_read_is_refused_by_its_reader_in_one_line(tmp_path, capsys):
    """Review MS's mutants of other_output and output_of_text: a --system-file or --model-file that is not UTF-8, or
    JSON nested 100,000 deep, is asked which command wrote it after its reader refused it; a UnicodeDecodeError or
    RecursionError let through there was a traceback in place of the reader's line."""
    latin, deep = tmp_path / "latin.json", tmp_path / "deep.json"
    latin.write_bytes(b'\xff\xfe{"systems": {}}')
    deep.write_text("[" * 100_000)
    for f, why in ((latin, "not UTF-8 text"), (deep, "nested too deeply")):
        line = f"--system-file: {f}: {why}; allowed: a JSON file as systems.json"
        assert run(capsys, "predict", "--params", "1e8", "--system-file", str(f)) == (
            2, "", f"dpscale predict: error: {line}\n")  # fmt: skip
        line = f"--model-file: {f}: {why}; allowed: a JSON file as models.json"
        assert run(capsys, "memory", "--model-file", str(f)) == (2, "", f"dpscale memory: error: {line}\n")


MINE_MODEL = {"params": 1.3e9, "layers": 24, "hidden": 2048, "heads": 16, "seq_len": 2048}  # (no "kind")


@pytest.mark.parametrize(
    "doc",
    [
        {"devices": 8, "throughput": 900, "models": {"tiny": MINE_MODEL}},  # a run's keys first
        {"models": {"tiny": MINE_MODEL}, "points": [{"devices": 8, "throughput": 900}]},  # measure --json's after
    ],
)
def test_a_file_of_runs_and_models_is_the_model_reader_s_own(doc, tmp_path, capsys):
    """Review MW: other_output took the reader's own key only where output_of named a catalog file, so a file whose
    "models" object sits beside a run's keys (in either order) was 'runs of `dpscale measure` (for fit and plan
    --fit)' to --model-file where its model lacked "kind", and read as a model file where it had one. It says the
    model's fault, as a file of systems and models does (review MR); the same file of runs and "systems" to
    --system-file too."""
    from dpscale import DpscaleError, predict

    f = tmp_path / "mine.json"
    f.write_text(json.dumps(doc))
    line = f"dpscale memory: error: --model-file: {f}: model 'tiny': kind missing; allowed: transformer or cnn\n"
    assert run(capsys, "memory", "--model-file", str(f)) == (2, "", line)
    es = f"dpscale memory: error: --model-file: {f}: modelo 'tiny': falta kind; se admite: transformer o cnn\n"
    assert run(capsys, "memory", "--model-file", str(f), "--lang", "es") == (2, "", es)
    with pytest.raises(DpscaleError, match="^model_file: .*: model 'tiny': kind missing; allowed: transformer or cnn$"):
        predict(model_file=str(f), system="dgx-a100", devices=16)
    f.write_text(json.dumps({**doc, "models": {"tiny": {"kind": "transformer", **MINE_MODEL}}}))
    assert run(capsys, "memory", "--model-file", str(f), "-d", "8", "--json")[0] == 0  # a sound model: read
    f.write_text(
        json.dumps({k: v for k, v in doc.items() if k != "models"} | {"systems": {"mine": {"gpus_per_node": 8}}})
    )
    assert run(capsys, "predict", "--model", "resnet50", "--system-file", str(f), "-d", "16")[2] == (
        f"dpscale predict: error: --system-file: {f}: system 'mine' needs numbers > 0 (and below 1e300) for "
        "intra_bw_gbs, inter_bw_gbs\n"
    )
