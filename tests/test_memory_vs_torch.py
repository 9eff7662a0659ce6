"""`dpscale memory` against the storages of real torch tensors (validation/experiments/memory_vs_torch.py, review
HD): the activations part runs here (single process, 6–8 s on 2 shared CPU cores); the model-state part launches gloo
processes and is marked slow."""

from __future__ import annotations

from pathlib import Path

import pytest
from clihelp import script

pytest.importorskip("torch")
EXP = script(Path(__file__).parents[1] / "validation" / "experiments" / "memory_vs_torch.py")


def test_korthikanti_counts_what_autograd_saves_for_a_gpt2_block_stack():
    """bf16 and fp32 eager blocks (native 1-byte dropout masks), SDPA against 'selective' and a checkpoint per
    layer against 'full' agree within the LayerNorms' mean and rstd (two values a token a LayerNorm); autocast
    keeps the residual stream, and so each LayerNorm's input, in fp32 (4sbh a layer more), and CPU nn.Dropout keeps
    masks as wide as the values: those two are the documented differences (docs/calculators.md)."""
    rows = {(r["shape"], r["case"]): r for r in EXP.activation_rows()}
    assert len(rows) == 12
    for (shape, case), r in rows.items():
        tokens = 512  # s·b in both shapes
        stats = 2 * 2 * 2 * tokens * (2 if case.startswith("bf16") else 4)  # L = 2 × 2 LayerNorms × (mean, rstd)
        if case.startswith(("bf16, eager", "fp32")):
            assert r["torch"] - r["dpscale"] == stats, (shape, case)  # fp32: 1.085 before review HD
        elif case.startswith("bf16, checkpoint"):
            assert r["torch"] == r["dpscale"] == 2 * 2 * tokens * 256  # L·2sbh
        elif case.startswith("bf16, SDPA"):
            assert 0.99 < r["ratio"] < 1
        elif case.startswith("autocast"):
            assert r["torch"] - r["dpscale"] == stats + 2 * 4 * tokens * 256  # 4sbh a layer: fp32 LayerNorm inputs
            assert r["casts"] > 0  # its bf16 weight copies, held to backward, counted apart
        else:  # CPU nn.Dropout: 2-byte masks
            assert r["ratio"] < 0.91


@pytest.mark.slow
def test_model_states_of_ddp_zero1_and_fsdp2_are_the_tables_on_two_ranks():
    rows = {(r["case"], r["part"]): r for r in EXP.state_rows(2)}
    for case in ("ddp/adam/view=False", "ddp/adamw/view=True", "ddp/sgd/view=True", "zero1/adam", "fsdp2/full",
                 "fsdp2/mp-bf16"):  # fmt: skip
        assert rows[(case, "P+G+K")]["torch"] == rows[(case, "P+G+K")]["dpscale"], case
    assert rows[("ddp/adam/view=False", "buckets")]["ratio"] == 1  # DDP's default copy: G·Ψ more
    assert rows[("ddp/adam/view=True", "gradient storages")]["torch"] == 1  # views of one bucket: no copy
    assert rows[("ddp/sgd-no-momentum/view=True", "K")]["torch"] == 0  # dpscale's sgd has momentum (4Ψ)
    psi = 2_102_272
    # ZeRO-2-like FSDP2 keeps its fp32 shard beside the gathered parameters: 4Ψ + 4Ψ/N where the table says 4Ψ
    assert rows[("fsdp2/no-reshard", "P")]["torch"] == 4 * psi + 4 * psi // 2
    assert rows[("fsdp2/mp-bf16/no-reshard", "P+G+K")]["torch"] == 2 * psi + 16 * psi // 2
