"""Review MK's mutation pass (review MJ's mutants of measure's worker): a torchrun launch of the worker without
--workload trains measure's default model, as `dpscale measure` does."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("mode", [[], ["equivalence"]])
def test_the_worker_without_workload_trains_the_mlp(worker, mode):
    """Mutant: the worker's `Job(a.mode, a.workload or "mlp", …)` as `Job(a.mode, a.workload, …)`: without
    --workload each rank's job named no model, and train's and equivalence's `workloads.load(None, None)` raised
    KeyError: None — a traceback on every rank where `dpscale measure` (its --help: 'default mlp') trains the mlp."""
    job = worker.job_from(worker.parser().parse_args(mode))
    assert (job.workload, job.model_file) == ("mlp", None)
    pytest.importorskip("torch")
    from dpscale.sources.measure import workloads

    assert workloads.load(job.workload, job.model_file).name == "mlp"  # the name its records write


def test_an_allreduce_fit_with_no_slope_says_no_asymptote(capsys):
    """Mutant: calibration.beyond_measured's `if not cal.get("busbw_gbs") or not points` as `if not points`: times
    8.3, 8.2 and 8.1 ms at 1, 2 and 4 MiB on 4 ranks fit β = 0 (no slope: no busbw asymptote, null in the file), and
    the note's test `None > 2 × 0.777` raised TypeError — a traceback after the sweep where measure shows its table."""
    import argparse

    from dpscale.faces.cli.measure import show_allreduce
    from dpscale.sources.measure import calibration

    rows = [calibration.row(s, t, 4, 20) for s, t in ((1 << 20, 8.3e-3), (2 << 20, 8.2e-3), (4 << 20, 8.1e-3))]
    cal = {**calibration.calibration(rows, 4, "gloo", device="cpu"), "rows": rows}
    assert (cal["beta_s_per_byte"], cal["busbw_gbs"]) == (0.0, None)
    show_allreduce(cal, argparse.Namespace(json=False, csv=False, lang="en", plot=None, out=None))
    out = capsys.readouterr().out.splitlines()
    assert "4,194,304  8,100.0       0.518       0.777          20" in out
    assert out[-1] == "note: fit t = α + β·S: α = 8,198.4 µs, β = 0 s/B (busbw asymptote —); worst fit error 1.2 %"
