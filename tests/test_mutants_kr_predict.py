"""Review KR (mutation pass): predict's default sizes under a fixed --global-batch (faces/cli/predict._default_sizes,
sources/predict.unsplit) — each test below failed against a hand-made mutant (named in its docstring) and passes on
the source. A size d splits a global batch G with k accumulation steps where d·k divides G (a whole micro-batch of at
least one sample); the default sizes are 1, 2, 4, …, 1,024."""

from __future__ import annotations

import json

import pytest

from dpscale.faces.cli import main

PREDICT = ("predict", "--model", "llama3-8b", "--system", "dgx-h100")


@pytest.mark.parametrize(
    ("accum", "kept", "said"),
    [
        # 24 = 2³·3: 1, 2, 4, 8 divide it; 16 to 1,024 do not
        ((), [1, 2, 4, 8], "without 16; 32; 64; 128; 256; 512 and 1,024, over which --global-batch 24 does not split "
         "into whole micro-batches (devices × --grad-accum 1)"),
        # × 2: 2, 4, 8 divide 24; 16 (8 × 2) does not
        (("--grad-accum", "2"), [1, 2, 4], "without 8; 16; 32; 64; 128; 256; 512 and 1,024, over which --global-batch "
         "24 does not split into whole micro-batches (devices × --grad-accum 2)"),
    ],
)  # fmt: skip
def test_the_default_sizes_a_global_batch_does_not_split_are_dropped_and_said(capsys, accum, kept, said):
    """Mutant: predict_sizes_dropped's NOTE_RANK 1 dropped (survived): the note of the defaults taken is said with
    the others taken (--precision's), before the memory note (rank 2), not among how the answer was made (rank 5).
    (With --grad-accum 2 the sizes kept are 1, 2, 4: the tests took 1,024 alone, dropped whichever k is read.)"""
    assert main([*PREDICT, "--global-batch", "24", *accum]) == 0
    out = capsys.readouterr().out
    dropped = out.index(f"note: no --devices: the default sizes, 1..1024x2, {said}\n")
    assert dropped < out.index("note: no --precision: fp32 assumed") < out.index("note: plain DDP needs 128 GB")
    assert main([*PREDICT, "--global-batch", "24", *accum, "--json"]) == 0
    assert [r["devices"] for r in json.loads(capsys.readouterr().out)] == kept


def test_a_global_batch_no_default_size_splits_is_refused_at_the_first(capsys):
    """Mutant: `len(bad) == len(sizes)` dropped (survived): --global-batch 2 --grad-accum 4 splits at no size (1 × 4
    is over 2), and the default's sizes are refused at the first, 1, as a typed one is — not an empty --devices."""
    assert main([*PREDICT, "--global-batch", "2", "--grad-accum", "4"]) == 2
    assert capsys.readouterr().err == (
        "dpscale predict: error: --global-batch: got 2; allowed: a multiple of devices × --grad-accum at every size: "
        "1 × 4 does not divide it (a micro-batch of 0.5)\n"
    )
