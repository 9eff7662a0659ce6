"""Review AK (session 46): one planning job chained across commands — predict → plan, memory, batch; fit → plan
--fit; a --system-file against raw flags — checking that the numbers agree between them, in both languages, on the
command line, the library and the page's API."""

from __future__ import annotations

import io
import json

import pytest
from clihelp import run

LLAMA = ["predict", "--model", "llama3-8b", "--precision", "bf16", "--batch", "4", "--gpu", "h100-80gb",
         "--system", "dgx-h100", "-d", "8..64x2"]  # fmt: skip


def _predicted(capsys, tmp_path, *argv: str) -> tuple[list[dict], str]:
    rc, out, _ = run(capsys, *(argv or LLAMA), "--json")
    assert rc == 0
    path = tmp_path / "pred.json"
    path.write_text(out)
    return json.loads(out), str(path)


def test_a_language_model_s_rows_say_its_tokens_a_sample(capsys):
    """predict said 'tokens/s: samples/s × 8,192' in a note (stderr under --json) and nowhere in its rows, so the
    factor was lost between predict and plan; its --json and --csv rows now carry it, an image model's do not."""
    rc, out, _ = run(capsys, *LLAMA, "--json")
    rows = json.loads(out)
    assert rc == 0 and [r["tokens_per_sample"] for r in rows] == [8192] * 4
    rc, out, _ = run(capsys, *LLAMA, "--csv")
    head, first = out.splitlines()[:2]
    assert head.split(",")[-1] == "tokens_per_sample" and first.split(",")[-1] == "8192"
    rc, out, _ = run(capsys, "predict", "--params", "1.3e9", "--seq-len", "2048", "-b", "8", "--system", "dgx-h100",
                     "-d", "8", "--json")  # fmt: skip
    assert json.loads(out)[0]["tokens_per_sample"] == 2048  # --seq-len with no preset: a language model's too
    rc, out, _ = run(capsys, "predict", "--model", "resnet50", "--precision", "amp", "-v", "2600", "--system",
                     "dgx-a100", "-d", "8", "--json")  # fmt: skip
    assert "tokens_per_sample" not in json.loads(out)[0]


def test_the_page_s_prediction_has_the_command_line_s_rows():
    from fastapi.testclient import TestClient

    from dpscale.faces.web.app import create_app

    opts = {"model": "llama3-8b", "precision": "bf16", "batch": "4", "gpu": "h100-80gb", "system": "dgx-h100",
            "devices": "8..64x2"}  # fmt: skip
    page = TestClient(create_app()).post("/api/predict", json={"options": opts, "lang": "es"}).json()
    assert [r["tokens_per_sample"] for r in page["records"]] == [8192] * 4
    assert [round(r["efficiency"], 6) for r in page["records"]] == [0.962946, 0.954687, 0.947458, 0.940999]


def test_plan_in_tokens_takes_the_prediction_s_rate_times_its_tokens(capsys, tmp_path, monkeypatch):
    """`predict --json | plan --efficiency-file - -n 1e12 --unit tokens/s` was refused ('predict's rates are
    samples/s: × the sequence length'), and the rate had to be multiplied by hand from a note on stderr; the file
    states its tokens a sample, so plan takes 0.7296 sequences/s × 8,192 = 5,976.9 tokens/s and says so. The hours
    are the hand's: tokens / (d·v·E) / 3600 = 771.7 h on 64 H100s."""
    rows, path = _predicted(capsys, tmp_path)
    v = rows[0]["per_device_throughput"] * 8192
    monkeypatch.setattr("sys.stdin", io.StringIO(open(path).read()))  # (piped, as the docs chain it)
    rc, out, err = run(capsys, "plan", "--efficiency-file", "-", "-n", "1e12", "--unit", "tokens/s",
                       "--price-per-device-hour", "2.5", "--json")  # fmt: skip
    plan = json.loads(out)
    assert rc == 0 and [p["unit"] for p in plan] == ["tokens/s"] * 4
    for p, r in zip(plan, rows):
        assert p["hours"] == pytest.approx(1e12 / (r["devices"] * v * r["efficiency"]) / 3600, rel=1e-9)
        assert p["actual_throughput"] == pytest.approx(r["actual_throughput"] * 8192, rel=1e-9)
    assert plan[-1]["hours"] == pytest.approx(771.704, abs=1e-3) and plan[-1]["cost"] == pytest.approx(123472.64, 1e-6)
    said = "note: per-device throughput 5,976.92 tokens/s from --efficiency-file: its 0.729604 samples/s × 8,192 "
    assert said + "tokens a sample (--throughput sets another)" in err
    rc, out, _ = run(capsys, "plan", "--efficiency-file", path, "-n", "1e12", "--unit", "tokens/s", "--lang", "es")
    assert rc == 0 and "771,7 h" in out
    assert ("nota: rendimiento por dispositivo 5.976,92 tokens/s tomado de --efficiency-file: sus 0,729604 "
            "muestras/s × 8.192 tokens por muestra (--throughput da otro)") in out  # fmt: skip
    # a rate typed in tokens/s is the user's, as before: no factor applied to it
    rc, out, _ = run(capsys, "plan", "--efficiency-file", path, "-n", "1e12", "--unit", "tokens/s", "-v", "6000",
                     "-d", "64", "--json")  # fmt: skip
    assert json.loads(out)[0]["hours"] == pytest.approx(1e12 / (64 * 6000 * rows[-1]["efficiency"]) / 3600)


def test_a_plan_in_samples_of_a_language_model_says_they_are_sequences(capsys, tmp_path):
    """Without --unit, -n 1e12 (meant as tokens) was planned as 1e12 sequences: 6.3 million hours, 8,192× too long,
    with 'throughputs in samples/s' the only word of it. The plan is the same, and says what its samples are."""
    rows, path = _predicted(capsys, tmp_path)
    rc, out, _ = run(capsys, "plan", "--efficiency-file", path, "-n", "1e12", "-d", "64")
    assert rc == 0 and "6,321,799.0 h" in out
    assert ("note: the file's samples are sequences of 8,192 tokens: --samples counts sequences; for a count of "
            "tokens, --unit tokens/s plans in tokens") in out  # fmt: skip
    rc, out, _ = run(capsys, "plan", "--efficiency-file", path, "-n", "1e12", "-d", "64", "--lang", "es")
    assert ("nota: las muestras del archivo son secuencias de 8.192 tokens: --samples cuenta secuencias; para "
            "contar tokens, --unit tokens/s planifica en tokens") in out  # fmt: skip
    _, image = _predicted(capsys, tmp_path, "predict", "--model", "resnet50", "--precision", "amp", "-b", "256",
                          "-v", "2600", "--system", "dgx-a100", "-d", "1..32x2")  # fmt: skip
    rc, out, _ = run(capsys, "plan", "--efficiency-file", image, "-n", "1.28e6", "--epochs", "90", "-d", "32")
    assert rc == 0 and "25.0 min" in out and "sequences" not in out  # images: nothing to say


@pytest.mark.parametrize("said", [[8192, 4096, 8192, 8192], [8192, 8192, 8192, None], [8192.5] * 4, [True] * 4,
                                  ["8192"] * 4, [0] * 4])  # fmt: skip
def test_a_file_whose_tokens_a_sample_are_not_one_whole_number_is_planned_as_before(capsys, tmp_path, said):
    """Records that disagree on their tokens a sample, lack it or give no whole number state none: --unit tokens/s
    is then refused as before rather than planned on a guess."""
    rows, _ = _predicted(capsys, tmp_path)
    for r, s in zip(rows, said):
        r.pop("tokens_per_sample")
        if s is not None:
            r["tokens_per_sample"] = s
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(rows))
    rc, _, err = run(capsys, "plan", "--efficiency-file", str(path), "-n", "1e12", "--unit", "tokens/s")
    assert rc == 2 and "--unit: got 'tokens/s'; allowed: 'samples/s', the unit of --efficiency-file's" in err
