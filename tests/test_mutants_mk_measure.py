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
