"""Review 46 AM: the page's take from predict to plan, and an adversarial pass over reviews 46 AE, AK, AL and AJ."""

from __future__ import annotations

import json

import pytest
from clihelp import run


def _cells(page, header: str) -> list[float]:
    """A column of the page's result table, as numbers (English grouping)."""
    heads = [h.strip() for h in page.locator("#result thead th").all_inner_texts()]
    i = next(k for k, h in enumerate(heads) if h.startswith(header)) + 1
    texts = page.locator(f"#result tbody tr td:nth-child({i})").all_inner_texts()
    return [float(t.replace(",", "").removesuffix(" h").strip()) for t in texts]


@pytest.mark.slow
def test_the_take_plans_a_language_models_rate_in_the_unit_the_plan_says(capsys, tmp_path):
    """predict's records for a language model carry tokens_per_sample (review 46 AK) and `plan --efficiency-file
    --unit tokens/s` multiplies by it; the page's take filled the prediction's sequences/s under a blank unit, and
    tokens/s typed there then planned 1e12 tokens at 0.75 'tokens/s' a GPU — 8,192× too long for Llama 3 8B, every
    row titled tokens/s. The taken rate now follows the unit field as the CLI reads the file's rate by --unit
    (sequences/s blank, × 8,192 in tokens/s), each said in a note, in English and Spanish; a typed rate is kept."""
    from test_web import chromium, serving

    pred = ["predict", "--model", "llama3-8b", "--system", "dgx-h100", "--precision", "bf16", "-v", "0.75"]
    rc, out, _ = run(capsys, *pred, "-d", "1,8,64", "--json")
    assert rc == 0
    path = tmp_path / "pred.json"
    path.write_text(out)
    plan = ["plan", "-n", "1e12", "--epochs", "1", "--efficiency-file", str(path), "--json"]
    rc, out, _ = run(capsys, *plan, "--unit", "tokens/s")
    assert rc == 0
    cli_tokens = json.loads(out)
    assert [r["actual_throughput"] for r in cli_tokens][0] == 6144.0  # 0.75 sequences/s × 8,192 tokens
    rc, out, _ = run(capsys, *plan)
    cli_sequences = json.loads(out)

    with serving() as url, chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url)
        expect(page.locator("#result")).to_contain_text("115,200 samples/s")
        page.click("#tab-predict")
        page.select_option("#predict select[name=model]", "llama3-8b")
        page.select_option("#predict select[name=system]", "dgx-h100")
        page.select_option("#predict select[name=precision]", "bf16")
        page.fill("#predict input[name=throughput]", "0.75")
        page.fill("#predict input[name=devices]", "1,8,64")
        page.click("#predict .run")
        expect(page.locator("#result tbody tr")).to_have_count(3)
        page.click("#tab-plan")
        f = {k: page.locator(f"#plan input[name={k}]") for k in ("samples", "epochs", "throughput", "unit")}
        f["samples"].fill("1e12")
        f["epochs"].fill("1")
        page.locator("#plan .take").click()
        # taken as plan --efficiency-file takes it without --unit: sequences/s, and said so
        expect(f["unit"]).to_have_value("")
        expect(f["throughput"]).to_have_value("0.75")
        expect(page.locator("#notes")).to_contain_text(
            "the prediction's samples are sequences of 8,192 tokens: 'Samples per epoch' counts sequences, at its "
            "0.75 samples/s; for a count of tokens, 'Throughput unit' tokens/s plans in tokens (6,144 tokens/s)"
        )
        hours = [r["hours"] for r in cli_sequences]
        assert _cells(page, "time") == pytest.approx(hours, rel=1e-3)
        # tokens/s typed in the unit field: the rate follows, 0.75 × 8,192, and the plan is the CLI's
        f["unit"].fill("Tokens / s")
        expect(f["throughput"]).to_have_value("6144")
        page.click("#plan .run")
        expect(page.locator("#notes")).to_contain_text(
            "per-device throughput 6,144 tokens/s: the prediction's 0.75 samples/s × 8,192 tokens a sample"
        )
        expect(page.locator("#result tbody tr").last).to_contain_text(f"{cli_tokens[-1]['actual_throughput']:,.0f}")
        assert _cells(page, "time") == pytest.approx([r["hours"] for r in cli_tokens], rel=1e-3)
        # Spanish: the same plan, said in Spanish
        page.select_option("#lang", "es")
        expect(page.locator("#notes")).to_contain_text(
            "rendimiento por dispositivo 6.144 tokens/s: las 0,75 muestras/s de la predicción × 8.192 tokens por "
            "muestra (la longitud de secuencia), así que «Muestras por época» cuenta tokens"
        )
        f["unit"].fill("")  # blank again: sequences/s
        expect(f["throughput"]).to_have_value("0.75")
        page.click("#plan .run")
        expect(page.locator("#notes")).to_contain_text("las muestras de la predicción son secuencias de 8.192 tokens")
        # a rate the user typed is theirs: the unit does not rewrite it, and no note speaks for it
        f["throughput"].fill("5000")
        f["unit"].fill("tokens/s")
        expect(f["throughput"]).to_have_value("5000")
        page.click("#plan .run")
        expect(page.locator("#result tbody tr")).to_have_count(3)
        expect(page.locator("#notes")).not_to_contain_text("8.192 tokens")
        # with tokens/s already in the field, the take fills the rate in tokens/s
        page.locator("#plan .take").click()
        expect(f["unit"]).to_have_value("tokens/s")
        expect(f["throughput"]).to_have_value("6144")
        expect(page.locator("#error")).to_be_hidden()


@pytest.mark.parametrize(
    ("world", "said"),
    [
        ("99999999999999999999", "at most 10,000,000 ranks, as torchrun sets it"),  # torch's store: a TypeError line
        ("1_0", "a whole number ≥ 1, as torchrun sets it"),  # int() read 10: a rendezvous that waited for 10 ranks
        ("١", "a whole number ≥ 1, as torchrun sets it"),  # (int() reads an Arabic-Indic 1)
    ],
)
def test_a_world_size_no_torchrun_writes_is_one_line(capsys, monkeypatch, world, said) -> None:
    """Review 46 AE's check of the rendezvous environment read it with int(): WORLD_SIZE=1e20 written out passed and
    ended in 'size 99999999999999999999: rank 0 stopped: TypeError: __init__(): incompatible constructor arguments'
    (exit 1), and WORLD_SIZE=1_0 was read as 10 and waited for ranks that never come."""
    import sys
    from types import SimpleNamespace

    import dpscale.sources.measure as measure
    from dpscale.sources.measure import worker

    monkeypatch.setattr(measure, "require_torch", lambda: "stub")
    monkeypatch.setattr(worker, "_check_gpus", lambda device, local_rank: None)

    def rendezvous(job: object) -> None:  # (what an environment let through reaches: no process group here)
        raise RuntimeError("rendezvous reached")

    rank = SimpleNamespace(torchrun_entry=rendezvous, one_line=str)
    monkeypatch.setitem(sys.modules, "dpscale.sources.measure.rank", rank)
    env = {"RANK": "0", "WORLD_SIZE": world, "LOCAL_RANK": "0", "MASTER_ADDR": "x", "MASTER_PORT": "1"}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    rc = worker.main(["--device", "cpu"])
    assert (rc, capsys.readouterr().err) == (2, f"dpscale worker: error: environment: WORLD_SIZE: got {world!r}; "
                                                f"allowed: {said}\n")  # fmt: skip
    monkeypatch.setenv("WORLD_SIZE", "10000000")  # the bound itself is a world size
    assert worker.main(["--device", "cpu"]) != 2
    assert "rendezvous reached" in capsys.readouterr().err
