"""Review R (session 45): plan, memory, batch and pipeline against published figures, and their --json rows."""

from __future__ import annotations

import csv
import io
import json

from clihelp import run

# memory: a row with activations says what they were computed from (Korthikanti et al., Table 2)


def test_memory_rows_with_activations_say_the_inputs_the_activations_were_computed_from(capsys):
    argv = ("memory", "--model", "llama-7b", "-d", "8", "--zero", "1", "--json")
    rc, out, err = run(capsys, *argv, "--recompute", "selective")
    assert rc == 0, err
    sel = json.loads(out)
    rc, out, err = run(capsys, *argv)
    assert rc == 0, err
    none = json.loads(out)
    # Llama-2 7B (s = 4,096, h = 4,096, a = 32, 32 layers), b = 1, 16-bit: 34·sbh a layer with selective
    # recomputation, sbh(34 + 5as/h) = 194·sbh without
    sbh = 4096 * 4096
    assert sel["activation_bytes_per_device"] == 32 * 34 * sbh == 18_253_611_008
    assert none["activation_bytes_per_device"] == 32 * 194 * sbh == 104_152_956_928
    # the two rows differed there alone, with nothing in them saying why
    for rec, mode in ((sel, "selective"), (none, "none")):
        assert {k: rec[k] for k in ("model", "micro_batch", "seq_len", "recompute", "sequence_parallel")} == {
            "model": "llama-7b", "micro_batch": 1, "seq_len": 4096, "recompute": mode, "sequence_parallel": False,
        }  # fmt: skip
    # ZeRO-1 on 8: 4Ψ + 12Ψ/8 for Ψ = 6.738e9 [ZERO]
    assert sel["model_state_bytes_per_device"] == 4 * 6_738_415_616 + 12 * 6_738_415_616 / 8 == 37_061_285_888


def test_memory_rows_with_tensor_and_sequence_parallelism_and_a_typed_shape_say_them(capsys):
    rc, out, err = run(capsys, "memory", "--model", "gpt2", "-d", "2", "--tensor-parallel", "4",
                       "--sequence-parallel",
                       "--seq-len", "512", "-b", "8", "--recompute", "selective", "--csv")  # fmt: skip
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 4
    for r in rows:
        assert (r["model"], r["micro_batch"], r["seq_len"], r["recompute"], r["sequence_parallel"]) == (
            "gpt2", "8", "512", "selective", "true",
        )  # fmt: skip
        # 34·sbh/t a layer, 12 layers of h = 768 [KORTH22 Table 2: tensor + sequence parallel + selective]
        assert float(r["activation_bytes_per_device"]) == 12 * 34 * 512 * 8 * 768 / 4


def test_memory_rows_without_activations_carry_no_activation_inputs(capsys):
    rc, out, err = run(capsys, "memory", "--json")  # the ZeRO paper's 7.5 B on 64: 120, 31.4, 16.6, 1.875 GB
    assert rc == 0, err
    rows = json.loads(out)
    assert [r["model_state_bytes_per_device"] for r in rows] == [120e9, 31.40625e9, 16.640625e9, 1.875e9]
    assert not {"model", "micro_batch", "seq_len", "recompute", "sequence_parallel"} & set(rows[0])


# batch: a note about sizes names the smallest it holds from, whatever order the sizes came in


def _notes(capsys, *argv: str) -> list[str]:
    rc, out, err = run(capsys, "batch", *argv)
    assert rc == 0, err
    return [line for line in (out + err).splitlines() if line.startswith("note:")]


def test_batch_one_step_an_epoch_is_said_from_the_smallest_size_that_takes_one(capsys):
    kw = ("-b", "32", "--base-lr", "0.1", "--base-batch", "256", "--dataset-size", "3000")
    typed = _notes(capsys, "-d", "512,128,8", *kw)
    # 128 × 32 = 4,096 ≥ 3,000 samples: one step an epoch from 128 devices on (it said 512, the first typed)
    said = [n for n in typed if "one step an epoch" in n]
    assert said == [
        "note: one step an epoch from 128 devices on: the global batch (4,096) covers the whole dataset — check "
        "--dataset-size and the batch"
    ]
    assert typed == _notes(capsys, "-d", "8,128,512", *kw)  # the same plan, the same notes


def test_batch_far_past_the_noise_scale_is_said_of_the_smallest_batch_past_it(capsys):
    # McCandlish et al.: E/E_min = 1 + B/B_noise; B = 4,096 against B_noise = 1,000 is 4.10×, 5.10× the samples
    typed = _notes(capsys, "-b", "32", "-d", "512,128,8", "--noise-scale", "1000")
    far = [n for n in typed if "B_noise (warning" in n]
    assert far == [
        "note: global batch 4,096 is 4.10× B_noise (warning above 2.00×): 5.10× the minimum samples for the same loss "
        "— extra devices mostly buy throughput, not progress"
    ]
    assert typed == _notes(capsys, "-b", "32", "-d", "8,128,512", "--noise-scale", "1000")


# plan: a row says the unit its throughput (and so its samples) are in


def test_plan_rows_say_their_throughput_unit_as_the_table_does(capsys):
    argv = ("plan", "-n", "1e12", "-v", "3000", "-d", "64", "-e", "0.9", "--price-per-device-hour", "2", "--json")
    rc, out, err = run(capsys, *argv, "--unit", "tokens/s")
    assert rc == 0, err
    tokens = json.loads(out)
    rc, out, err = run(capsys, *argv)
    assert rc == 0, err
    samples = json.loads(out)
    # 1e12 / (64 · 3,000 · 0.9) s = 1,607.5 h; × 64 = 102,880.7 device-hours; × 2 = 205,761.3
    for rows in (tokens, samples):
        (r,) = rows
        assert r["actual_throughput"] == 172_800
        assert round(r["hours"], 4) == round(1e12 / 172_800 / 3600, 4) == 1607.5103
        assert round(r["cost"], 1) == round(2 * 64 * 1e12 / 172_800 / 3600, 1) == 205_761.3
    # the two plans wrote the same rows: nothing said which counted tokens
    assert (tokens[0]["unit"], samples[0]["unit"]) == ("tokens/s", "samples/s")
    assert list(tokens[0])[:4] == ["devices", "efficiency", "actual_throughput", "unit"]
