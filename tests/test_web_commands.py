"""The page's commands through its API (FastAPI's test client) are the library's and the command line's: answers,
notes, refusals in one line, and the page's words, title and landmark in each language."""

from __future__ import annotations

import json
import os

import pytest
from clihelp import WORKED, post, run
from test_cli_calc import SPREAD_SIZES

import dpscale
from dpscale.faces.i18n import LABELS

pytest.importorskip("fastapi")
pytest.importorskip("httpx2")


def test_worked_example_in_english_and_spanish(client):
    r = post(client, "calc", WORKED)
    assert r.status_code == 200
    body = r.json()
    assert body["records"]["actual_throughput"] == 115200 and body["records"]["speedup"] == pytest.approx(57.6)
    rows = dict(body["table"]["rows"])
    assert rows["actual throughput d·v·E"] == "115,200 samples/s" and rows["speedup d·E"] == "57.6×"
    es = dict(post(client, "calc", WORKED, "es").json()["table"]["rows"])
    assert es["rendimiento real d·v·E"] == "115.200 muestras/s" and es["aceleración d·E"] == "57,6×"


def test_a_range_of_one_size_is_a_one_row_table_as_its_json_is_an_array(client):
    """README: `records` as `--json` prints them — a bare 64 one answer (label and value), a range that holds
    only 64 a sweep of one row (it was the single answer, so a script reading records met an object)."""
    body = post(client, "calc", {**WORKED, "devices": "64..64"}).json()
    assert body["single"] is False and [r["actual_throughput"] for r in body["records"]] == [115200]
    assert body["table"]["headers"][0] == "devices" and body["table"]["rows"][0][0] == "64"
    assert post(client, "calc", WORKED).json()["single"] is True


def test_solving_and_notes_come_from_the_library(client):
    body = post(client, "calc", {"throughput": "2000", "efficiency": "0.9", "actual": "100000"}, "es").json()
    assert body["records"]["devices"] == 56 and body["records"]["devices_exact"] == pytest.approx(55.5556, rel=1e-5)
    assert "hacen falta exactamente 55,56 dispositivos; redondeado hacia arriba a 56" in body["notes"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_page_s_calc_names_a_sweep_s_sizes(client, lang):
    """Review MO: the calc tab says the command's notes, a sweep's E above 1 with its sizes (test_cli_calc)."""
    options = {"devices": "1,8,64,128", "throughput": "2000", "actual": "2000,16100,140000,257000"}
    body = post(client, "calc", options, lang).json()
    i = 0 if lang == "en" else 1
    assert body["notes"][-2:] == [x.split(": ", 1)[1] for x in SPREAD_SIZES[i]]


def test_the_page_says_predicts_notes_in_the_commands_order(client):
    """The page's notes are the command's, in its order: an LLM's tokens/s first, the band and the wait last."""
    from dpscale.faces.i18n import label

    opts = {"model": "llama3-8b", "precision": "bf16", "system": "dgx-h100", "devices": "32", "seq_len": "8192",
            "batch": "1", "grad_accum": "16"}  # fmt: skip
    notes = post(client, "predict", opts).json()["notes"]
    assert notes[0] == "tokens/s: samples/s × 8,192 (the sequence length): 180,307 at 32 devices"
    assert len(notes) == 11 and notes[-2:] == [label("band_note"), label("wait_note")]  # (the FLOPs a token: JZ)


def test_predict_through_the_page_is_the_library(client):
    opts = {"model": "bert-large", "precision": "amp", "batch": "32", "throughput": "150", "system": "dgx-a100",
            "devices": "1,8,64"}  # fmt: skip
    body = post(client, "predict", opts).json()
    lib = dpscale.predict([1, 8, 64], model="bert-large", precision="amp", batch=32, throughput=150, system="dgx-a100")
    assert [r["efficiency"] for r in body["records"]] == pytest.approx(list(lib.efficiency_values), rel=1e-9)
    assert body["table"]["headers"][0] == "devices" and len(body["table"]["rows"]) == 3
    # a rate measured on a node's 8 devices, as vendor tables give it: E stays over one device, E vs d0 over the 8
    node = post(client, "predict", {**opts, "baseline_devices": "8"}, "es").json()
    lib = dpscale.predict([1, 8, 64], model="bert-large", precision="amp", batch=32, throughput=150, system="dgx-a100",
                          baseline_devices=8)  # fmt: skip
    assert [r["efficiency_vs_baseline"] for r in node["records"]] == pytest.approx(
        [r["efficiency_vs_baseline"] for r in lib.records()], rel=1e-9)  # fmt: skip
    assert node["records"][1]["efficiency_vs_baseline"] == 1.0 and "E frente a d0" in node["table"]["headers"]
    # a cluster of one's own: the form's raw figures replace (or, with no system, make) the cluster, as the flags do
    own = {**opts, "system": "", "gpus_per_node": "8", "intra_bw": "300", "inter_bw": "400GbE", "gpu": "a100-80gb"}
    body = post(client, "predict", own).json()
    lib = dpscale.predict([1, 8, 64], model="bert-large", precision="amp", batch=32, throughput=150, gpus_per_node=8,
                          intra_bw_gbs=300, inter_bw_gbs=50, gpu="a100-80gb")  # fmt: skip
    assert [r["efficiency"] for r in body["records"]] == pytest.approx(list(lib.efficiency_values), rel=1e-9)
    assert any("Ethernet (eth-400g)" in n for n in body["notes"])  # the unit typed says Ethernet


def test_the_page_estimates_compute_from_flops_at_a_typed_mfu(client):
    """Its notes offered --mfu ('a measured --throughput fixes the compute, or --mfu') and the form had no field."""
    import re
    from pathlib import Path

    html = (Path(dpscale.__file__).parent / "faces/web/index.html").read_text()
    assert 'name="mfu"' in re.search(r'<form id="predict".*?</form>', html, re.S)[0]
    opts = {
        "model": "bert-large",
        "precision": "amp",
        "batch": "32",
        "system": "dgx-a100",
        "devices": "8",
        "mfu": "0.4",
    }
    body = post(client, "predict", opts).json()
    lib = dpscale.predict([8], model="bert-large", precision="amp", batch=32, system="dgx-a100", mfu=0.4)
    assert body["records"][0]["efficiency"] == pytest.approx(float(lib.efficiency_values[0]), rel=1e-9)
    r = post(client, "predict", {**opts, "throughput": "150"}, "es")  # both: one sets the compute, said so
    assert r.status_code == 422 and "--mfu: se recibió" in r.json()["error"]


def test_fit_through_the_page_is_the_library(client, capsys):
    """Typed runs, one per line (or space or ';'): each is one --point, so repeats of a size stay repeats."""
    opts = {"point": "1:1000\n1:1010\n8:7500; 16:14600  32:28000", "gpus_per_node": "8", "at": "64,256"}
    body = post(client, "fit", opts).json()
    lib = dpscale.fit([(1, 1000), (1, 1010), (8, 7500), (16, 14600), (32, 28000)], gpus_per_node=8).predict([64, 256])
    assert [r["efficiency"] for r in body["records"]] == pytest.approx(list(lib.efficiency), rel=1e-12)
    assert [r["efficiency_hi"] for r in body["records"]] == pytest.approx(list(lib.efficiency_hi), rel=1e-12)
    assert body["title"].startswith("fitted law: allreduce")
    assert any("with 1 degree of freedom from repeated runs" in n for n in body["notes"])
    assert any("2 repeated runs of 1 device" in n for n in body["notes"])
    assert "lo–hi: the 90 % prediction interval for one run" in body["notes"]  # the terminal's heading says it
    fitted = dpscale.fit([(1, 1000), (1, 1010), (8, 7500), (16, 14600), (32, 28000)], gpus_per_node=8)
    e8 = fitted.efficiency(8)  # the CLI's measured-vs-fitted table, a line a size (the page had none of it)
    assert (
        f"measured: 8 devices, 7,500 samples/s, E {100 * 7500 / 8 / 1005:.1f} % (fitted E {100 * e8:.1f} %)"
        in (body["notes"])
    )
    # the API's report is what `dpscale fit --json` prints (records are the table's rows, the predictions alone)
    rc, out, _ = run(capsys, "fit", "--point", "1:1000", "--point", "1:1010", "--point", "8:7500", "--point",
                     "16:14600", "--point", "32:28000", "--gpus-per-node", "8", "--at", "64,256", "--json")  # fmt: skip
    assert rc == 0 and body["report"] == json.loads(out) and body["report"]["law"] == "allreduce"
    assert "report" not in post(client, "calc", WORKED).json()
    # runs pasted as 'D: X', from a CSV with its header, or as spreadsheet columns: the same fit (they were refused)
    same = post(client, "fit", {**opts, "point": "1:1000 1:1010 8:7500 16:14600 32:28000"}).json()["records"]
    for pasted in ("1: 1000\n1: 1010\n8: 7500\n16: 14600\n32: 28000",
                   "devices,throughput\r\n1,1000\r\n1,1010\r\n8,7500\r\n16,14600\r\n32,28000\r\n",
                   "devices;throughput\n1;1000\n1;1010\n8;7500\n16;14600\n32;28000",  # a ';' spreadsheet's copy
                   "1\t1000\n1\t1010\n8\t7500\n16\t14600\n32\t28000"):  # fmt: skip
        assert post(client, "fit", {**opts, "point": pasted}).json()["records"] == same, pasted
    # a header is read by name, as the CLI's CSV reader does: devices,step_time,throughput once became 1:0.5:1000
    named = post(client, "fit", {"point": "devices,step_time,throughput\n1,0.5,1000\n8,0.6,7500"}).json()["records"]
    assert named == post(client, "fit", {"point": "1:1000:0.5 8:7500:0.6"}).json()["records"]
    timed = [
        post(client, "fit", {"point": p}).json()["records"] for p in ("1,1000,0.5\n8,7500,0.6", "1:1000:0.5 8:7500:0.6")
    ]
    assert timed[0] == timed[1]  # a step-time column too: D:X:STEP, not dropped in silence
    # a comma inside a spreadsheet column is the number's own (thousands, or a decimal comma): refused by the CLI's
    # rule, not read as a third column (it had become a 5 s or 500 s step time, fitted without a word)
    from clihelp import pasted_runs

    assert pasted_runs("1\t1,500\n8\t7500,5") == ["1:1,500", "8:7500,5"]
    assert pasted_runs('1,"1,500"') == ["1:1,500"]
    # a spreadsheet set to Spanish copies 'devices;throughput' rows: each was split into runs of one number
    assert pasted_runs("1;1000\n8;7500\n16;14600") == ["1:1000", "8:7500", "16:14600"]
    assert pasted_runs("1 1000; 8 7500") == pasted_runs("1:1000; 8:7500") == ["1:1000", "8:7500"]  # runs, as before
    assert pasted_runs("1:1000\n2;1900\n4:3600") == ["1:1000", "2:1900", "4:3600"]  # in the order pasted
    # runs listed as the calculator lists sizes: 'got 1000,' before; a comma in a number stays the number's
    assert pasted_runs("1:1000, 8:7500,16:14600") == ["1:1000", "8:7500", "16:14600"]
    assert pasted_runs("8:7,500 16:14000") == ["8:7,500", "16:14000"]
    r = post(client, "fit", {"point": "1;1000\n8;7500,5"}, "es")  # its decimal comma: the CLI's own refusal
    assert r.status_code == 422 and "--point 8:7500,5, rendimiento: se recibió '7500,5'" in r.json()["error"]
    for lang in ("en", "es"):
        r = post(client, "fit", {"point": "1\t1000,5\n2\t1900,5\n4\t3600,5"}, lang)
        assert r.status_code == 422 and "--point" in r.json()["error"]
    r = post(client, "fit", {"point": "1,1000,0.5,7"})
    assert r.status_code == 422 and "--point: got '1,1000,0.5,7'" in r.json()["error"]
    r = post(client, "fit", {"point": "1:1000 8:lots"})
    assert r.status_code == 422 and "--point 8:lots, throughput: got 'lots'" in r.json()["error"]
    # a lone word is a bad run, not a CSV header missing its columns ('found nan')
    assert pasted_runs("nan") == ["nan"] and pasted_runs("run A\n1:1000") == ["run:A", "1:1000"]
    r = post(client, "fit", {"point": "nan"})
    assert r.status_code == 422 and "--point: got 'nan'; allowed: DEVICES:THROUGHPUT" in r.json()["error"]
    assert pasted_runs("devices\tthroughput\n1\t1000\n2\t1900") == ["1:1000.0", "2:1900.0"]  # a header still is
    r = post(client, "fit", {"point": "devices throughput\n1 1000\n2 1900"})  # a header by its names, spaced
    assert r.status_code == 422 and "missing columns" in r.json()["error"]
    r = post(client, "fit", {"point": "1:900:0,25\n2:1750:0,26\n4:3400:0,27"}, "es")  # a decimal comma, not a list
    assert r.status_code == 422 and "paso" in r.json()["error"] and "una ejecución por opción" not in r.json()["error"]
    r = post(client, "fit", {"runs": "/etc/passwd"})  # the file positional has no key: files stay on the CLI
    assert r.status_code == 422 and "options: got 'runs'" in r.json()["error"]


def test_an_overflow_past_every_check_is_said_in_the_pages_language(client, monkeypatch):
    """The API's last guard said an OverflowError in English on the Spanish page too (errors_es has its line)."""
    from dpscale.faces.cli import calc

    def overflowing(args):
        raise OverflowError("int too large to convert to float")

    monkeypatch.setattr(calc, "run", overflowing)
    r = post(client, "calc", WORKED, "es")
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale calc: error: un número demasiado grande para calcular (int too large to convert to float); se "
        "admite: magnitudes realistas"
    )
    r = post(client, "calc", WORKED)
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale calc: error: a number too large to compute with (int too large to convert to float); allowed: "
        "realistic magnitudes"
    )


def test_bad_input_is_one_line_naming_the_flag(client, tmp_path, monkeypatch):
    png = str(tmp_path / "x.png")
    r = post(client, "calc", {**WORKED, "devices": "0"})
    assert r.status_code == 422 and r.json()["error"].startswith("dpscale calc: error: --devices: got '0'; allowed:")
    r = post(client, "predict", {"model": "resnet-5o", "throughput": "100", "system": "dgx-a100"})
    assert r.status_code == 422 and "resnet50" in r.json()["error"]  # the valid presets are listed
    # fit's box left empty: told what to type there (it asked for a RUNS file or --point D:X, which a page has not)
    r = post(client, "fit", {"point": ""}, lang="es")
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale fit: error: --point: se recibió ''; se admite: ejecuciones medidas como dispositivos:rendimiento, una "
        'o más por línea (1:1000 8:7500), un objeto JSON por línea ({"devices": 8, "throughput": 7500}) o filas bajo '
        "una cabecera devices,throughput"
    )
    # a menu's value sent by hand: the CLI's line, in the page's language (argparse's own English before)
    r = post(client, "calc", {"devices": "8", "throughput": "1", "law": "x"}, lang="es")
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale calc: error: --law: se recibió 'x'; se admite: constant, amdahl, usl"
    )
    r = post(client, "predict", {"model": "bert-large", "throughput": "150", "system": "dgx-a100", "zero": "4"})
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale predict: error: --zero: got '4'; allowed: 0 (ddp), 1 (zero1), 2 (zero2), 3 (zero3, fsdp)"
    )
    r = post(client, "calc", {**WORKED, "frobnicate": "1"})
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale calc: error: options: got 'frobnicate'; allowed: this command's options: actual, devices, efficiency, "
        "kappa, law, serial_fraction, sigma, speedup, throughput, unit"
    )
    huge_unit = {"options": {**WORKED, "devices": "1,8,64", "unit": "u" * 20_000_000}}  # once echoed on every row
    for body in ({"options": 0}, {"options": []}, {"lang": 0}, {"options": {"x" * 5_000_000: "1"}}, huge_unit):
        r = client.post("/api/calc", json=body)  # once: the worked example (falsy), or a 5 MB echo of the key
        # (the two bodies of megabytes are refused, 413, before they are parsed)
        assert r.status_code == (413 if len(str(body)) > 1 << 20 else 422) and len(r.json()["error"]) < 400
    for opts in ({**WORKED, "plot": png}, {"system_file": "/etc/passwd"}):  # no file access from a page
        r = post(client, "predict" if "system_file" in opts else "calc", opts)
        assert r.status_code == 422 and "not available on the web page" in r.json()["error"]
    # Nor by another spelling: argparse would take '--plo' for '--plot' and '--calib' for '--calibration'.
    for opts in ({**WORKED, "plo": png}, {"calib": "/etc/passwd"}, {"system-file": "/etc/passwd"}):
        r = post(client, "predict", opts)
        error = r.json()["error"]
        assert r.status_code == 422 and ("this command's options" in error or "not available on the web page" in error)
    assert not os.path.exists(png)
    r = post(client, "calc", {**WORKED, "help": True})
    assert r.status_code == 422 and "not available on the web page" in r.json()["error"]
    said = {o: post(client, "calc", {**WORKED, o: "x"}, "es").json()["error"] for o in ("frobnicate", "plot")}
    assert "se admite: las opciones de esta orden: actual," in said["frobnicate"]  # once half English
    assert (
        said["plot"]
        == "dpscale calc: error: plot: se recibió 'x'; se admite: solo en la línea de órdenes (la página web no ofrece "
        "esta opción)"
    )
    r = post(client, "batch", {"micro_batch": "32", "devices": "8", "warmup_epochs": "1e308", "dataset_size": "1e6",
                               "base_lr": "0.1", "base_batch": "256"})  # fmt: skip
    assert r.status_code == 422 and "--warmup-epochs: got 1e+308; allowed: a number of epochs" in r.json()["error"]
    r = post(client, "measure", {})
    assert r.status_code == 422 and "allowed: calc, predict" in r.json()["error"]
    assert post(client, "calc", WORKED, "fr").status_code == 422
    # a Spanish reader types two thousand as 2.000: refused, not computed as 2
    r = post(client, "calc", {**WORKED, "throughput": "2.000"}, "es")
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale calc: error: --throughput: se recibió '2.000'; se admite: ningún punto ante exactamente tres "
        "cifras, que en español separa los miles (2.000 = dos mil): 2000 para dos mil, 2.5 o 2.50 para dos y medio"
    )
    assert post(client, "calc", {**WORKED, "throughput": "2.5"}, "es").status_code == 200
    # a value starting with '-' is a value: the usual got/allowed line, not argparse's 'expected one argument'
    r = post(client, "calc", {**WORKED, "devices": "1..3000+1"})  # the CLI's 100,000 sizes would hang a browser
    assert r.status_code == 422 and "3,000 sizes; allowed: at most 2,000 on the page" in r.json()["error"]
    # counted before the work, and named by the form's own field: fit's --at (20,000 fitted sizes took 10 s and
    # 0.9 GB, then were refused naming --devices, a field the fit form has not)
    import dpscale.faces.cli.fit as fit_cli

    monkeypatch.setattr(fit_cli, "run", lambda args: pytest.fail("fitted 20,000 sizes the page then refused"))
    r = post(client, "fit", {"point": "1:1000 8:7500 16:14600 32:28000", "at": "1..20000+1"})
    assert r.status_code == 422 and r.json()["error"].endswith(
        "--at: 20,000 sizes; allowed: at most 2,000 on the page (the command line takes more)"
    )
    monkeypatch.undo()
    r = post(client, "memory", {"params": "7.5e9", "devices": "1..3000+1"})  # one size: no sweep to count
    assert r.status_code == 422 and "--devices: got '1..3000+1'; allowed: a whole number" in r.json()["error"]
    r = post(client, "pipeline", {"stages": "4", "microbatches": "1..100000+1"})
    assert r.status_code == 422 and "--microbatches: 100,000 sizes; allowed: at most 2,000" in r.json()["error"]
    r = post(client, "calc", {**WORKED, "devices": "-1..8"})
    assert r.status_code == 422 and "--devices: got '-1..8'; allowed: whole numbers" in r.json()["error"]
    r = post(client, "calc", {**WORKED, "efficiency": True})  # was argparse's "expected one argument"
    assert (
        r.status_code == 422 and "--efficiency: got true; allowed: a value (true is for switches" in r.json()["error"]
    )
    r = post(client, "calc", {**WORKED, "devices": {"a": 1}})  # was echoed as got "{'a':"
    assert r.status_code == 422 and '--devices: got {"a": 1}; allowed: a number or text' in r.json()["error"]
    # a request's values are said as JSON writes them, not as Python's None and True
    r = client.post("/api/calc", json={"lang": None})
    assert r.status_code == 422 and r.json()["error"] == "dpscale calc: error: lang: got null; allowed: en, es"
    r = client.post("/api/calc", json={"options": {"plot": False}, "lang": "es"})
    assert r.status_code == 422 and "plot: se recibió false;" in r.json()["error"]
    r = client.post("/api/calc", json={"options": None})
    assert r.status_code == 422 and "options: got null; allowed:" in r.json()["error"]
    r = post(client, "predict", {"model": "bert-large", "throughput": "150", "no_overlap": [1, None]})
    assert r.status_code == 422 and "--no-overlap: got [1, null]; allowed: true or false" in r.json()["error"]
    r = post(client, "calc", {**WORKED, "devices": {"a": "ñ"}})
    assert r.status_code == 422 and '--devices: got {"a": "ñ"}; allowed' in r.json()["error"]
    switch = {"model": "bert-large", "throughput": "150", "system": "dgx-a100", "no_overlap": True}
    assert post(client, "predict", switch).status_code == 200  # a switch still takes true
    r = post(client, "predict", {**switch, "no_overlap": "yes"})  # was argparse's "ignored explicit argument"
    assert r.status_code == 422 and "--no-overlap: got 'yes'; allowed: true or false (a switch)" in r.json()["error"]
    r = client.post("/api/calc", json={"devices": "8", "throughput": "100", "efficiency": "0.5"})  # not under options
    assert r.status_code == 422 and r.json()["error"] == (
        'dpscale calc: error: body: got key \'devices\'; allowed: options, lang ({"options": {"flag": "value"}})'
    )


def test_page_words_exist_in_every_language(client):
    en = client.get("/api/labels/en").json()
    es = client.get("/api/labels/es").json()
    assert en["web_calc"] == "Calculator" and es["web_calc"] == "Calculadora"
    words = {k for k in en if not k.startswith("name:")}  # (name:KEY: a field's name without its remark)
    assert {k for k in LABELS["es"] if k.startswith("web_")} == words  # nothing falls back to English
    de = client.get("/api/labels/de")
    assert de.status_code == 422 and de.json() == {"error": "dpscale: error: lang: got 'de'; allowed: en, es"}
    opts = client.get("/api/options").json()
    assert "bert-large" in opts["models"] and "dgx-a100" in opts["systems"]


def test_new_web_refusals_are_said_in_spanish(client):
    r = post(client, "calc", {**WORKED, "devices": {"a": 1}}, "es")
    assert r.status_code == 422 and "se admite: un número o un texto, como en la línea de órdenes" in r.json()["error"]
    r = post(client, "calc", {**WORKED, "efficiency": True}, "es")
    assert "se admite: un valor (true es para interruptores como no_overlap)" in r.json()["error"]


def test_the_api_refusals_are_said_in_spanish(client):
    for path, body, said in (
        ("/api/measure", {"lang": "es"}, "orden: se recibió 'measure'; se admite: calc, predict"),
        ("/api/calc", {"lang": "es", "option": {}}, "cuerpo: se recibió la clave 'option'; se admite: options, lang"),
        ("/api/calc", {"lang": "es", "options": {"unit": "x" * 30_000}}, "--unit: se recibió '30.000 caracteres'; "
         "se admite: como mucho 10.000 caracteres"),
    ):  # fmt: skip
        r = client.post(path, json=body)
        assert r.status_code == 422 and said in r.json()["error"], r.json()


def test_the_page_announces_its_title_and_errors_not_every_cell(client):
    """aria-live sat on the whole output: every recalculation read every cell (up to 2,000 rows) aloud. The title is
    said by the status line (review ME: so that it is said again when an answer repeats it), the visible line kept
    out of the accessibility tree so it is not said twice."""
    html = client.get("/").text
    assert '<section id="out">' in html and "aria-live" not in html
    assert '<div id="out-title" aria-hidden="true">' in html and '<p id="status" class="sr-only" role="status">' in html
    assert '<p id="error" role="alert" hidden>' in html


def test_the_fit_box_reads_what_a_saved_csv_holds():
    """A pasted CSV as pandas (quoted header), R's write.csv (an unnamed first column), a file with a '#' comment or
    a BOM writes it: `dpscale fit FILE` read them, the page said "devices: got 'devices'" or a bad run."""
    from clihelp import pasted_runs

    want = ["1:1000.0", "8:7500.0", "16:14600.0"]
    assert pasted_runs('"devices","throughput"\n"1","1000"\n"8","7500"\n"16","14600"') == want
    assert pasted_runs('"","devices","throughput"\n"1",1,1000\n"2",8,7500\n"3",16,14600') == want
    assert pasted_runs("# runs of 2026-12-04\ndevices,throughput\n1,1000\n8,7500\n16,14600") == want
    assert pasted_runs("\ufeffdevices,throughput\n1,1000\n8,7500\n16,14600") == want
    assert pasted_runs("# runs\n1:1000\n8:7500") == ["1:1000", "8:7500"]  # a comment without a header too
    assert pasted_runs("nan") == ["nan"]  # a lone word is still a bad run, not a header
    # a ';' spreadsheet's copy: quoted cells ("missing column(s) devices, throughput (found "devices", …)") and
    # comments, before the header or after it with a comma of their own
    for pasted in ('"devices";"throughput"\n"1";"1000"\n"8";"7500"\n"16";"14600"',
                   "# runs\ndevices;throughput\n1;1000\n8;7500\n16;14600",
                   "devices;throughput\n# runs, first batch\n1;1000\n8;7500\n16;14600"):  # fmt: skip
        assert pasted_runs(pasted) == want, pasted


def test_a_pasted_thousand_is_not_a_run_of_one_device():
    """'1,024' in the fit box was 1 device at 024 samples/s ('runs: got 1 run of size 1'): the CLI's refusal now."""
    from clihelp import pasted_runs
    from fastapi.testclient import TestClient

    from dpscale.faces.web.app import create_app

    assert pasted_runs("1,024") == ["1,024"] and pasted_runs("1,1000\n8,0.5") == ["1:1000", "8:0.5"]
    # nor 1,024.5 (1 device at 24.5/s, fitted at 200 beside 2,048.5 and 4,096.0), 8,000.5 or a step time of '05'
    assert pasted_runs("1,024.5\n2,048.5\n4,096.0") == ["1,024.5", "2,048.5", "4,096.0"]
    assert pasted_runs("8,000.5") == ["8,000.5"] and pasted_runs("32,28000,05") == ["32,28000,05"]
    assert pasted_runs("8,7500,0.5") == ["8:7500:0.5"]  # a step time under a second is a step time
    r = TestClient(create_app()).post("/api/fit", json={"options": {"point": "1,024"}})
    assert r.status_code == 422 and "--point: got '1,024'; allowed: DEVICES:THROUGHPUT" in r.json()["error"]


def test_a_field_given_twice_is_refused_as_the_command_line_refuses_it(client, capsys):
    """`--devices 64 --devices 8` is refused (the last would silently win); the same JSON key twice was run with
    the last, 8 devices, without a word."""
    ask = '{"options": {"devices": "64", "throughput": "2000", "efficiency": "0.9", "devices": "8"}, "lang": "es"}'
    r = client.post("/api/calc", content=ask, headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale calc: error: --devices: dada dos veces; se admite: una vez (el último valor ganaría sin avisar)"
    )
    rc, _, err = run(capsys, "calc", "--devices", "64", "--devices", "8", "-v", "2000", "-e", "0.9", "--lang", "es")
    assert rc == 2 and "dada dos veces; se admite: una vez (el último valor ganaría sin avisar)" in err  # the CLI's
    r = client.post("/api/calc", content='{"lang": "es", "options": {}, "lang": "en"}',
                    headers={"content-type": "application/json"})  # fmt: skip
    assert r.status_code == 422 and r.json()["error"].startswith("dpscale calc: error: lang: given twice; allowed:")
    r = client.post("/api/calc", json={"options": {"devices": "64", "throughput": "2000", "efficiency": "0.9"}})
    assert r.status_code == 200  # each once: as before


def test_a_quoted_key_given_twice_is_refused_in_spanish_too(client):
    """The page quotes a key it would not name bare ('--dev ices', a space in it); its refusal of that key given
    twice stayed English on the Spanish page: errors_es read the name as one word."""
    ask = '{"options": {"dev ices": "64", "dev ices": "8"}, "lang": "es"}'
    r = client.post("/api/calc", content=ask, headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale calc: error: '--dev ices': dada dos veces; se admite: una vez (el último valor ganaría sin avisar)"
    )


def test_each_language_is_named_in_its_own_language_and_said_so():
    """Session 41's accessibility review: the menu names each language in itself ('Español' on the English page) but
    did not mark it, so a screen reader read 'Español' with English sounds (WCAG 3.1.2, language of parts)."""
    import re
    from pathlib import Path

    html = (Path(dpscale.__file__).parent / "faces/web/index.html").read_text()
    menu = re.search(r'<select id="lang">(.*?)</select>', html, re.S)[1]
    choices = re.findall(r"<option ([^>]*)>", menu)
    assert len(choices) == len(LABELS) >= 2
    for attrs in choices:
        value, lang = re.search(r'value="(\w+)"', attrs), re.search(r'lang="(\w+)"', attrs)
        assert value and lang and value[1] == lang[1], attrs


def test_the_page_has_one_main_landmark_holding_the_tabs_and_the_answer():
    """Session 41's accessibility review: no <main>, so 'skip to main content' had nowhere to go (axe's
    landmark-one-main)."""
    from pathlib import Path

    html = (Path(dpscale.__file__).parent / "faces/web/index.html").read_text()
    assert html.count("<main>") == html.count("</main>") == 1
    main = html[html.index("<main>") : html.index("</main>")]
    assert (
        '<nav role="tablist" aria-labelledby="tabs-name">' in main
        and '<section id="out">' in main
        and main.count("<form id=") == 7
    )
    assert "<header>" not in main


def test_the_plan_tab_prices_a_node_as_the_command_line_does(client):
    """The plan tab had only 'Price per device-hour' (review JL): a node's price typed there was a cost 8× too high.
    Its node-hour price and devices per node are fields now; the device-hour field's 2.5 cleared, 12 devices for 24 h
    on 8-GPU nodes at 32.77 rent 2 of them: 1,572.96."""
    from dpscale.faces.web.app import page_fields

    fields = page_fields()["plan"]
    assert (fields["price_per_node_hour"], fields["gpus_per_node"]) == ("web_price_node", "web_plan_gpus_per_node")
    opts = {"samples": "1036800", "throughput": "1", "efficiency": "1", "devices": "12", "price_per_device_hour": "",
            "price_per_node_hour": "32.77", "gpus_per_node": "8", "deadline": ""}  # fmt: skip
    for lang, nodes, cost in (("en", "nodes", "1,572.96"), ("es", "nodos", "1.572,96")):
        body = post(client, "plan", opts, lang).json()
        (rec,) = body["records"]
        assert (rec["nodes"], round(rec["cost"], 2)) == (2, 1572.96)
        (row,) = body["table"]["rows"]
        assert dict(zip(body["table"]["headers"], row))[nodes] == "2" and cost in row
    body = post(client, "plan", {**opts, "price_per_device_hour": "2.5"}).json()  # the field's default left in
    assert body["error"] == (
        "dpscale plan: error: --price-per-device-hour and --price-per-node-hour: give one price, not both"
    )
    assert LABELS["es"]["web_price_node"].startswith("Precio por hora-nodo")
    # devices per node with a device-hour price: the page has no --fit to name as the other use
    lone = {**opts, "price_per_device_hour": "2.5", "price_per_node_hour": ""}
    assert [post(client, "plan", lone, lang).json()["error"] for lang in ("en", "es")] == [
        "dpscale plan: error: --gpus-per-node: only with --price-per-node-hour (the devices a node's price buys)",
        "dpscale plan: error: --gpus-per-node: solo con --price-per-node-hour (los dispositivos que compra el precio "
        "de un nodo)",
    ]


def test_the_page_says_empty_the_budget_field_not_leave_the_flag_out(client, capsys):
    """An infinite budget (no limit, meant) on the plan tab was told 'allowed: a finite budget > 0 (leave --budget out
    for no limit)' — a flag nobody typed there (review LI, of review KZ's refusal); the page says to empty its field,
    in both languages, while the command line still says --budget."""
    opts = {"samples": "1.28e6", "throughput": "2000", "devices": "8", "price_per_device_hour": "2.5"}
    said = {
        (value, lang): post(client, "plan", {**opts, "budget": value}, lang).json()["error"]
        for value in ("inf", "1e400", "0")
        for lang in ("en", "es")
    }
    for value in ("inf", "1e400", "0"):
        assert said[value, "en"] == (
            f"dpscale plan: error: --budget: got '{value}'; allowed: a finite budget > 0 (leave 'Budget' empty for no "
            "limit)"
        )
        assert said[value, "es"] == (
            f"dpscale plan: error: --budget: se recibió '{value}'; se admite: un presupuesto finito > 0 (deje "
            "«Presupuesto» vacío para no tener límite)"
        )
    rc, out, err = run(capsys, "plan", "-n", "1e6", "-v", "2000", "--price", "2", "--budget", "inf")
    assert rc == 2 and "allowed: a finite budget > 0 (leave --budget out for no limit)" in err


def test_a_typed_unit_is_shown_as_typed_on_the_page(client):
    """The page's table says a typed unit as typed (review KL): 'devices' was looked up as a label and shown as
    '2.000 dispositivos' in Spanish; samples/s is still said in the page's language."""
    opts = {"devices": "64", "throughput": "2000", "efficiency": "0.9"}
    rows = post(client, "calc", {**opts, "unit": "devices"}, "es").json()["table"]["rows"]
    assert rows[1] == ["rendimiento por dispositivo", "2.000 devices"]
    assert rows[4] == ["rendimiento real d·v·E", "115.200 devices"]
    rows = post(client, "calc", opts, "es").json()["table"]["rows"]
    assert rows[4] == ["rendimiento real d·v·E", "115.200 muestras/s"]
