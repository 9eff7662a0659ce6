"""Review 44 H: `dpscale measure` as a benchmark — what a record says of how it was measured.

- the DDP settings the steps ran with (bucket cap, gradient_as_bucket_view, static_graph, find_unused_parameters,
  forward buffer sync) are in the record, read off the DDP object, not assumed;
- a record says whether its ranks oversubscribed the node's cores (the warning went to stderr only: the JSONL fed to
  `dpscale fit` could not tell a thrashing run from a fair one), and the torchrun worker warns as the CLI does;
- replicas that ended apart (replica_drift > 0: the steps were not data-parallel training) are said under the table.
"""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from dpscale.sources.measure.jobs import Job  # noqa: E402


def _train(job: Job, local_world: int = 1) -> dict:
    import torch

    from dpscale.sources.measure.rank import RankContext, setup
    from dpscale.sources.measure.train import run_train

    before = torch.get_num_threads()
    ctx = RankContext(0, 1, 0, local_world, job)
    try:
        setup(ctx)
        return run_train(ctx)
    finally:
        torch.set_num_threads(before)


TINY = dict(mode="train", workload="mlp", batch=2, steps=1, warmup=1, repeats=1, iters=1, device="cpu", timeout=60.0)


def test_the_record_says_the_ddp_settings_it_ran_with(one_rank, tmp_path) -> None:
    """torch's DDP defaults, as the steps used them; a model file's FIND_UNUSED_PARAMETERS shows; FSDP has none."""
    from dpscale.sources.measure import results

    job = Job(**TINY, threads=1)
    raw = _train(job)
    want = {"bucket_cap_mb": 25.0, "first_bucket_mb": 1.0, "gradient_as_bucket_view": False, "static_graph": False,
            "find_unused_parameters": False, "forward_sync_buffers": True}  # fmt: skip
    assert raw["ddp"] == want
    rec, _ = results.finish(job, raw, None, str(tmp_path / "r.jsonl"))
    assert rec["ddp"] == want
    f = tmp_path / "skip.py"
    f.write_text(
        "import torch\nFIND_UNUSED_PARAMETERS = True\n"
        "class M(torch.nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.a, self.b = torch.nn.Linear(4, 2), torch.nn.Linear(4, 2)\n"
        "    def forward(self, x):\n        return self.a(x)\n"
        "def build_model():\n    return M()\n"
        "def make_batch(n, gen):\n"
        "    return torch.randn(n, 4, generator=gen), torch.randint(0, 2, (n,), generator=gen)\n"
    )
    from dataclasses import replace

    assert _train(replace(job, workload="skip", model_file=str(f)))["ddp"]["find_unused_parameters"] is True
    assert _train(replace(job, zero=2))["ddp"] is None  # FSDP2: no DDP buckets


def test_the_record_says_whether_the_ranks_oversubscribed_the_cores(one_rank) -> None:
    from dpscale.sources.measure import cores

    fair = _train(Job(**TINY, threads=1))
    assert fair["cores"] == cores() and fair["oversubscribed"] is False
    over = _train(Job(**TINY, threads=1), local_world=cores() + 1)  # more ranks on this node than cores
    assert over["oversubscribed"] is True
    over = _train(Job(**TINY, threads=cores() + 1))  # one rank, more threads than cores
    assert over["oversubscribed"] is True and over["threads"] == cores() + 1


def _raw(**extra) -> dict:
    return {"devices": 2, "sync_s": [0.2], "nosync_s": [0.1], "comm_s": 0.05, "workload": "mlp", "params": 10,
            "grad_bytes": 40, "backend": "gloo", "device": "cpu", "threads": 1, **extra}  # fmt: skip


def test_the_torchrun_worker_warns_of_oversubscribed_cores_as_the_cli_does(capsys) -> None:
    from dpscale.sources.measure import worker

    job = Job(**TINY, threads=1)
    rec = worker.finish(job, _raw(cores=2, oversubscribed=True, devices=4), 1, 1.0, None)
    err = capsys.readouterr().err
    assert rec["oversubscribed"] is True and rec["cores"] == 2
    assert "dpscale worker: warning: 4 ranks × 1 thread on this node exceed its 2 CPU cores" in err  # (was 1 threads)
    worker.finish(job, _raw(cores=2, oversubscribed=False), 1, 1.0, None)
    assert "warning" not in capsys.readouterr().err


@pytest.mark.parametrize(("lang", "said", "whole"), [
    ("en", "replicas ended apart", "replicas ended apart at 2 devices (checksums of the weights differ by up to 0.25): "
     "DDP did not keep them identical, so those steps were not data-parallel training and their E is not its"),
    ("es", "las réplicas acabaron distintas", "las réplicas acabaron distintas con 2 dispositivos (las sumas de "
     "control de los pesos difieren hasta 0,25): DDP no las mantuvo idénticas, así que esos pasos no fueron "
     "entrenamiento en paralelo de datos y su E no es la de ese entrenamiento"),
])  # fmt: skip
def test_replicas_that_ended_apart_are_said_under_the_table(lang, said, whole) -> None:
    """The size and the drift, said in the language (review LZ: the note was checked for a '2' in it, which the 0.25
    alone gives)."""
    from dpscale.faces.cli.measure import _train_notes
    from dpscale.sources.measure import results

    job = Job(**TINY, threads=1)
    base = results.with_efficiency(results.summarise({**_raw(replica_drift=0.0), "devices": 1}, job, 1.0), None)
    base = results.with_efficiency(base, base)
    apart = results.with_efficiency(results.summarise(_raw(replica_drift=0.25), job, 1.0), base)
    assert not any(said in n for n in _train_notes([base], lang))
    notes = _train_notes([base, apart], lang, machine=True)  # under --json too (stderr)
    assert [n for n in notes if said in n] == [whole], notes


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "replicas ended apart at 2 and 1,024 devices (checksums"), ("es", "con 2 y 1.024 dispositivos")],
)
def test_the_sizes_whose_replicas_ended_apart_are_listed_as_a_sentence_lists_them(lang, said) -> None:
    """Two sizes apart read '2, 1024' in both languages (ungrouped, and no 'and'), as E above 1's note did."""
    from dpscale.faces.cli.measure import _train_notes
    from dpscale.sources.measure import results

    job = Job(**TINY, threads=1)
    base = results.with_efficiency(results.summarise({**_raw(replica_drift=0.0), "devices": 1}, job, 1.0), None)
    base = results.with_efficiency(base, base)
    two = results.with_efficiency(results.summarise(_raw(replica_drift=0.25), job, 1.0), base)
    many = {**two, "devices": 1024}
    assert any(said in n for n in _train_notes([base, two, many], lang)), _train_notes([base, two, many], lang)


def test_the_torchrun_worker_says_replicas_that_ended_apart(capsys) -> None:
    from dpscale.sources.measure import worker

    worker.finish(Job(**TINY, threads=1), _raw(replica_drift=0.25), 1, 1.0, None)
    assert "dpscale worker: warning: replicas ended apart (checksums of the weights differ by up to 0.25)" in (
        capsys.readouterr().err
    )


@pytest.mark.slow
def test_a_model_whose_replicas_drift_apart_is_caught_end_to_end(capsys, tmp_path) -> None:
    """Two real ranks: a frozen Parameter the forward updates from each rank's own batch is never synchronised by DDP
    (only buffers are, before each forward), so the replicas end apart; the checksum sees it and the run says so."""
    import json

    from dpscale.faces.cli import main

    f = tmp_path / "drifty.py"
    f.write_text(
        "import torch\n"
        "class M(torch.nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.lin = torch.nn.Linear(8, 2)\n"
        "        self.seen = torch.nn.Parameter(torch.zeros(1), requires_grad=False)\n"
        "    def forward(self, x):\n"
        "        with torch.no_grad():\n            self.seen += x.mean()\n"
        "        return self.lin(x)\n"
        "def build_model():\n    return M()\n"
        "def make_batch(n, gen):\n"
        "    return torch.randn(n, 8, generator=gen), torch.randint(0, 2, (n,), generator=gen)\n"
    )
    argv = ["measure", "--devices", "2", "--model-file", str(f), "--steps", "2", "--warmup", "1", "--repeats", "1",
            "--batch", "4", "--threads", "1", "--json"]  # fmt: skip
    assert main(argv) == 0
    cap = capsys.readouterr()
    (rec,) = json.loads(cap.out)["points"]
    assert rec["replica_drift"] > 0 and "replicas ended apart at 2 devices" in cap.err


def test_the_standalone_all_reduce_moves_the_gradient_s_bytes_once(one_rank, monkeypatch) -> None:
    """comm_s (and overlap from it) is one all-reduce of the whole gradient: grad_bytes bytes, in its dtype — a
    buffer of grad_bytes *elements* (4× the bytes in float32) timed a collective four times too big unseen."""
    from dpscale.sources.measure import train

    seen, real = [], train.time_loop

    def spy(ctx, buf, iters, beat=False):  # type: ignore[no-untyped-def]
        seen.append((buf.numel() * buf.element_size(), buf.dtype))
        return real(ctx, buf, iters, beat)

    monkeypatch.setattr(train, "time_loop", spy)
    raw = _train(Job(**TINY, threads=1))
    import torch

    assert raw["grad_bytes"] == 4 * raw["params"] == 4 * 1_863_690
    assert seen == [(raw["grad_bytes"], torch.float32)]


def test_the_worker_s_oversubscription_warning_counts_this_node_s_ranks_only(capsys) -> None:
    """Under torchrun each node's ranks share its cores: 4 ranks on 2 nodes are 2 a node, as the record's flag
    counts them (local_world × threads), not the world size (a mutant saying '4 ranks' on 2-core nodes survived)."""
    from dpscale.sources.measure import worker

    worker.finish(Job(**TINY, threads=2), _raw(cores=2, oversubscribed=True, devices=4, threads=2), 2, 1.0, None)
    err = capsys.readouterr().err
    assert "warning: 2 ranks × 2 threads on this node exceed its 2 CPU cores" in err
