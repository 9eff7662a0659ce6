"""predict → plan against published training runs (review IY; docs/calculators.md, "Checked against published
training runs"): at the MFU a paper's GPU-hours imply, the chain gives those GPU-hours back.

The figures, each as its source states it: Llama 2 (Touvron et al. 2023, Table 2: A100-80GB, 2.0 T tokens, 4 K
context; 184,320 / 368,640 / 1,720,320 GPU-hours), Llama 3 (Meta's model card: H100-80GB, 15 T tokens, 8 K context;
1.3 M / 6.4 M GPU-hours), OPT-175B (Zhang et al. 2022: 992 A100-80GB, about 33 days, 180 B tokens of 2,048) and
BLOOM-176B (BigScience 2022: 384 A100-80GB, 1,082,990 GPU-hours, 366 B tokens of 2,048). The MFU is the one
predict's own FLOPs rule reads from those GPU-hours (compute.flops_per_sample, dense bf16 peaks), rounded to four
figures, so the GPU-hours come back to that rounding (≤ 0.03 %): the test holds the chain's units — the tokens a
sequence holds, the peak, seconds to hours, device-hours = d × hours — not the papers' MFU.
"""

from __future__ import annotations

import json

import pytest
from clihelp import run

PUBLISHED = [
    # (run, predict's model flags, GPU, tokens, published GPU-hours, MFU by predict's FLOPs rule)
    ("llama2-7b", ["--model", "llama-7b"], "a100-80gb", "2e12", 184_320, "0.4452"),
    ("llama2-13b", ["--model", "llama-13b"], "a100-80gb", "2e12", 368_640, "0.4211"),
    ("llama2-70b", ["--model", "llama-70b"], "a100-80gb", "2e12", 1_720_320, "0.4601"),
    ("llama3-8b", ["--model", "llama3-8b"], "h100-80gb", "15e12", 1_300_000, "0.1877"),
    ("llama3-70b", ["--model", "llama3-70b"], "h100-80gb", "15e12", 6_400_000, "0.3169"),
    ("opt-175b", ["--params", "175e9", "--seq-len", "2048"], "a100-80gb", "180e9", 992 * 33 * 24, "0.2142"),
    ("bloom-176b", ["--params", "176.247e9", "--seq-len", "2048"], "a100-80gb", "366e9", 1_082_990, "0.3182"),
]


@pytest.mark.parametrize(
    ("name", "model", "gpu", "tokens", "gpu_hours", "mfu"), PUBLISHED, ids=[p[0] for p in PUBLISHED]
)
def test_predict_then_plan_gives_a_published_runs_gpu_hours_back_at_its_mfu(
    capsys, tmp_path, name, model, gpu, tokens, gpu_hours, mfu
):
    cluster = ["--gpus-per-node", "8", "--intra-bw", "300", "--inter-bw", "200"]
    rc, out, _ = run(capsys, "predict", *model, "--gpu", gpu, "--precision", "bf16", "--mfu", mfu, "-b", "1",
                     "-d", "1", *cluster, "--json")  # fmt: skip
    assert rc == 0
    pred = tmp_path / "pred.json"
    pred.write_text(out)
    rc, out, _ = run(capsys, "plan", "--efficiency-file", str(pred), "-n", tokens, "--unit", "tokens/s", "--json")
    assert rc == 0
    (point,) = json.loads(out)
    assert point["unit"] == "tokens/s"
    assert point["device_hours"] == pytest.approx(gpu_hours, rel=3e-4)
    # the same tokens on the run's whole cluster at E = 1 take the same GPU-hours, in hours ÷ the GPUs
    rc, out, _ = run(capsys, "plan", "-n", tokens, "-v", str(point["actual_throughput"]), "--unit", "tokens/s",
                     "-d", "1024", "-e", "1", "--json")  # fmt: skip
    (wide,) = json.loads(out)
    assert wide["device_hours"] == pytest.approx(point["device_hours"], rel=1e-9)
    assert wide["hours"] == pytest.approx(point["device_hours"] / 1024, rel=1e-9)


def test_llama2_7b_published_batch_and_steps_as_sequences(capsys):
    """Llama 2's global batch of 4 M tokens (4,194,304 = 1,024 sequences of 4,096) over 2 T tokens: 476,838 steps
    (2e12 / 4,194,304 = 476,837.2, the last partial one counted), the LR as tuned (3e-4) at its own batch."""
    rc, out, _ = run(capsys, "batch", "-b", "1", "-d", "1024", "--base-lr", "3e-4", "--base-batch", "1024",
                     "--optimizer", "adamw", "--dataset-size", str(2 * 10**12 // 4096), "--json")  # fmt: skip
    plan = json.loads(out)
    assert rc == 0 and (plan["global_batch"], plan["steps_per_epoch"]) == (1024, 476_838)
    assert plan["learning_rate"] == pytest.approx(3e-4)


# Narayanan et al. 2021 (Megatron-LM, SC21), §5.1, "Estimating end-to-end training time": T ≈ 8·T·P / (n·X),
# X the TFLOP/s a GPU achieves (8 = forward, backward and the forward recomputed, 2 + 4 + 2 FLOPs a parameter and
# token), so a GPU runs X / (8·P) tokens/s. GPT-3 (175 B) on 1,024 A100s at 140 TFLOP/s, 300 B tokens: "34 days";
# the 1 T model (1,008 B parameters, their Table 1) on 3,072 A100s at 163 TFLOP/s, 450 B tokens: "84 days".
MEGATRON = [
    # (run, parameters, GPUs, TFLOP/s a GPU, tokens, published days, the table's time in English and Spanish)
    ("gpt3-175b", 175e9, 1024, 140e12, "300e9", 34, ("813.8 h (33.9 days)", "813,8 h (33,9 días)")),
    ("1t", 1008e9, 3072, 163e12, "450e9", 84, ("2,013.0 h (83.9 days)", "2.013,0 h (83,9 días)")),
]


@pytest.mark.parametrize(("name", "p", "n", "x", "tokens", "days", "shown"), MEGATRON, ids=[m[0] for m in MEGATRON])
def test_plan_gives_megatrons_published_days_to_train(capsys, name, p, n, x, tokens, days, shown):
    """plan's hours = tokens / (n·v·E) / 3600 at E = 1 (X is end-to-end: it already pays the communication) and
    v = X / (8·P) tokens/s give the paper's days to its rounding (33.9 and 83.9 days: −0.3 % and −0.1 %)."""
    v = repr(x / (8 * p))
    rc, out, _ = run(capsys, "plan", "-n", tokens, "-v", v, "-d", str(n), "-e", "1", "--unit", "tokens/s", "--json")
    (point,) = json.loads(out)
    assert rc == 0 and round(point["hours"] / 24) == days
    # the paper's formula, in days, to the JSON's 12 digits
    assert point["hours"] / 24 == pytest.approx(8 * float(tokens) * p / (n * x) / 86_400, rel=1e-10)
    assert point["device_hours"] == pytest.approx(n * point["hours"], rel=1e-10)
    for lang, time in zip(("en", "es"), shown):
        rc, out, _ = run(capsys, "plan", "-n", tokens, "-v", v, "-d", str(n), "-e", "1", "--unit", "tokens/s",
                         "--lang", lang)  # fmt: skip
        assert rc == 0 and time in out


def test_megatrons_tflops_through_predict_are_three_quarters_of_its_mfu(capsys, tmp_path):
    """Megatron's 8·P FLOPs a token count the recomputed forward; predict's rule for `--params` counts 6·P, so its
    --mfu for 140 TFLOP/s of 312 is 0.75 × 140/312: 100 tokens/s a GPU, 33.9 days on 1,024 (docs/calculators.md)."""
    cluster = ["--gpus-per-node", "8", "--intra-bw", "300", "--inter-bw", "200"]
    mfu = repr(0.75 * 140 / 312)
    rc, out, _ = run(capsys, "predict", "--params", "175e9", "--seq-len", "2048", "--gpu", "a100-80gb",
                     "--precision", "bf16", "--mfu", mfu, "-b", "1", "-d", "1", *cluster, "--json")  # fmt: skip
    assert rc == 0
    pred = tmp_path / "pred.json"
    pred.write_text(out)
    rc, out, _ = run(capsys, "plan", "--efficiency-file", str(pred), "-n", "300e9", "--unit", "tokens/s", "--json")
    (point,) = json.loads(out)
    assert rc == 0 and point["actual_throughput"] == pytest.approx(100, rel=1e-8)
    assert point["device_hours"] / 1024 / 24 == pytest.approx(33.908, abs=5e-4)
