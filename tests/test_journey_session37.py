"""What a user-journey review (session 37: Llama-7B on DGX H100s, ResNet-50 on DGX A100s, 1F1B with data
parallelism, each command's output fed to the next) found confusing or inconsistent, each pinned."""

from __future__ import annotations

from clihelp import run

RUNS = [
    '{"devices": 1, "batch": 2, "step_time": 0.02, "throughput": 100.0, "workload": "mlp", "efficiency": 1.0}',
    '{"devices": 2, "batch": 2, "step_time": 0.021, "throughput": 190.47619047619048, "workload": "mlp"}',
]


def test_plan_points_a_measure_out_file_to_fit(capsys, tmp_path):
    """`measure --out` writes a run a line; `plan --efficiency-file` reads one JSON document and said only what it
    reads, where `plan --fit` takes that very file."""
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(RUNS) + "\n")
    rc, out, err = run(capsys, "plan", "-n", "1e6", "--efficiency-file", str(path))
    assert (
        rc == 2
        and out == ""
        and err.strip().endswith("this file holds runs, one a line (`measure --out`): give it as --fit FILE")
    )
    rc, out, _ = run(capsys, "plan", "-n", "1e6", "--fit", str(path), "-d", "1,2")
    assert rc == 0 and "190" in out  # the same file, as --fit reads it


def test_memory_writes_the_sequence_as_predict_does(capsys):
    """memory's note said 'sequence 4096' where predict's says 4,096 (and Spanish 4.096)."""
    rc, out, _ = run(capsys, "memory", "--model", "llama-7b", "-d", "8", "--seq-len", "4096", "-b", "1024")
    assert rc == 0 and "activations: llama-7b, micro-batch 1,024, sequence 4,096, recompute none" in out
    rc, out, _ = run(capsys, "memory", "--model", "llama-7b", "-d", "8", "--seq-len", "4096", "--lang", "es")
    assert rc == 0 and "activaciones: llama-7b, microlote 1, secuencia 4.096, recómputo: ninguno" in out


def test_a_size_keeping_an_e_far_out_is_not_called_the_devices_needed(capsys):
    """--min-efficiency answers the largest size keeping E; its far-out note said 'the devices needed, N' as for
    --target-throughput."""
    argv = [
        "fit",
        "--point",
        "1:100",
        "--point",
        "2:199",
        "--point",
        "4:396",
        "--point",
        "8:788",
        "--min-efficiency",
        "0.92",
    ]
    rc, out, err = run(capsys, *argv)
    said = out + err
    assert rc == 0 and "the devices needed, " not in said
    assert "the largest size keeping that E, " in said and "lies beyond 4× the largest measured size (8)" in said
    rc, out, err = run(capsys, *argv, "--lang", "es")
    assert rc == 0 and "el mayor tamaño que mantiene esa E, " in out + err
    rc, out, err = run(capsys, *argv[:-2], "--target-throughput", "1e5")  # the devices a target needs: as before
    assert rc == 0 and "the devices needed, " in out + err


def test_learning_rates_read_in_four_figures_down_the_column(capsys):
    """3e-4 × √(B/256) printed as 3.000e-04, 4.243e-04, …, 0.0012, 0.00169706, 0.0024: three formats in a column."""
    rc, out, _ = run(capsys, "batch", "-b", "4", "-k", "8", "-d", "8..512x2", "--base-lr", "3e-4", "--base-batch",
                     "256", "--optimizer", "adamw")  # fmt: skip
    rates = [line.split()[-1] for line in out.splitlines()[3:10]]
    assert rc == 0 and rates == ["0.0003", "0.0004243", "0.0006", "0.0008485", "0.0012", "0.001697", "0.0024"]


def test_the_estimated_mfu_is_said_as_the_docs_give_it(capsys):
    """A CNN preset's MFU is the middle of 14–29 %, 21.5 % (docs/predict.md): the note rounded it to '22 %'."""
    rc, out, _ = run(capsys, "predict", "--model", "resnet-50", "--system", "dgx-a100", "--precision", "amp", "-b",
                     "256", "-d", "8")  # fmt: skip
    assert rc == 0 and "6.281 TFLOP per micro-batch at 21.5 % of 312 TFLOP/s (a100-80gb)" in out
    rc, out, _ = run(capsys, "predict", "--model", "llama-7b", "--system", "dgx-h100", "--precision", "fp8", "-b", "1",
                     "--seq-len", "2048", "-d", "8", "--lang", "es")  # fmt: skip
    assert rc == 0 and "al 24,1 % de 1.979 TFLOP/s (h100-80gb)" in out  # 35 % × 1.375 / 2


def test_an_estimate_at_the_default_fp32_says_so(capsys):
    """Without --precision, predict estimates Llama-7B's compute at the H100's fp32 67 TFLOP/s (a 15th of bf16's)
    without a word, where memory's default is mixed precision; a measured rate needs no such note."""
    argv = ["predict", "--model", "llama-7b", "--system", "dgx-h100", "-b", "1", "--seq-len", "2048", "-d", "8"]
    rc, out, _ = run(capsys, *argv)
    assert rc == 0 and "note: no --precision: fp32 assumed, so the compute estimate reads the GPU's fp32 peak" in out
    assert "at 35 % of 67 TFLOP/s" in out
    for more in (["--precision", "fp32"], ["--step-time", "0.5"]):
        rc, out, _ = run(capsys, *argv, *more)
        assert rc == 0 and "no --precision" not in out
    rc, out, _ = run(capsys, *argv, "--lang", "es")
    assert rc == 0 and "sin --precision: se supone fp32" in out
