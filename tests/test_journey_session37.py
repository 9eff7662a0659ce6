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
