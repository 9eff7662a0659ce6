"""Built-in workloads (mlp, cnn, transformer) and the --model-file hook, all on synthetic data.

Every workload is a model factory, a batch maker and a mean-reduced loss. The batch is made once
per rank and reused, so the measurement is compute + communication, not data loading. None of the
built-ins uses BatchNorm or dropout: both make d ranks × b differ from one batch of d·b, and the
equivalence check uses these same workloads.

A --model-file is a Python file defining
    build_model() -> torch.nn.Module
    make_batch(batch_size: int, generator: torch.Generator) -> (inputs, targets)
    loss_fn(outputs, targets) -> scalar tensor       # optional; default: mean cross-entropy
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from dpscale.errors import DpscaleError

Batch = tuple[torch.Tensor, torch.Tensor]


@dataclass(frozen=True)
class Workload:
    name: str
    model: Callable[[], nn.Module]
    batch: Callable[[int, torch.Generator], Batch]
    loss: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
    find_unused: bool = False  # DDP's find_unused_parameters: a model file sets FIND_UNUSED_PARAMETERS = True


def _mlp() -> nn.Module:
    # MNIST-shaped, 1.9 M parameters (7.4 MB of fp32 gradients): comm is visible next to compute on a CPU.
    return nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10))


def _mlp_batch(n: int, g: torch.Generator) -> Batch:
    return torch.randn(n, 784, generator=g), torch.randint(0, 10, (n,), generator=g)


def _cnn() -> nn.Module:
    # CIFAR-shaped, 0.09 M parameters: compute-heavy per byte of gradient (the opposite of the mlp).
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1),
        nn.ReLU(),
        nn.Conv2d(32, 64, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(64, 128, 3, padding=1),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(128, 10),
    )


def _cnn_batch(n: int, g: torch.Generator) -> Batch:
    return torch.randn(n, 3, 32, 32, generator=g), torch.randint(0, 10, (n,), generator=g)


VOCAB, SEQ, WIDTH = 2000, 64, 128


class TinyLM(nn.Module):
    """A 2-layer causal transformer language model (0.92 M parameters), dropout off."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(VOCAB, WIDTH)
        self.pos = nn.Parameter(torch.zeros(SEQ, WIDTH))
        layer = nn.TransformerEncoderLayer(WIDTH, 4, 4 * WIDTH, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(WIDTH, VOCAB)
        self.register_buffer("mask", nn.Transformer.generate_square_subsequent_mask(SEQ), persistent=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h = self.embed(tokens) + self.pos
        mask = self.mask.to(h.dtype)
        return self.head(self.blocks(h, mask=mask, is_causal=True))


def _lm_batch(n: int, g: torch.Generator) -> Batch:
    tokens = torch.randint(0, VOCAB, (n, SEQ + 1), generator=g)
    return tokens[:, :-1], tokens[:, 1:]


def _lm_loss(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


BUILTIN = {
    "mlp": Workload("mlp", _mlp, _mlp_batch, F.cross_entropy),
    "cnn": Workload("cnn", _cnn, _cnn_batch, F.cross_entropy),
    "transformer": Workload("transformer", TinyLM, _lm_batch, _lm_loss),
}

MODEL_FILE_HELP = "a Python file defining build_model() and make_batch(batch_size, generator) [and loss_fn]"


def load(name: str, model_file: str | None = None) -> Workload:
    if model_file:
        return from_file(model_file)
    return BUILTIN[name]


def from_file(path: str) -> Workload:
    """Import the user's file and check it has the two required factories (errors name --model-file)."""
    p = Path(path)
    try:
        is_file = p.is_file()
    except OSError as exc:  # a 300-character name: is_file raised it (a traceback), as it does for no missing file
        raise DpscaleError(f"--model-file: got {path!r} ({exc.strerror}); allowed: {MODEL_FILE_HELP}") from None
    if p.suffix != ".py" or not is_file:
        why = "not a .py file" if is_file or p.suffix != ".py" else "no such file"
        raise DpscaleError(f"--model-file: got {path!r} ({why}); allowed: {MODEL_FILE_HELP}")
    spec = importlib.util.spec_from_file_location(f"dpscale_user_model_{abs(hash(str(p.resolve())))}", p)
    module: Any = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    try:  # its prints go to stderr: stdout carries --json and --csv
        with contextlib.redirect_stdout(sys.stderr):
            spec.loader.exec_module(module)  # type: ignore[union-attr]
    except Exception as exc:  # the user's code: any error is theirs, reported in one line
        raise DpscaleError(f"--model-file: {path} failed to import: {type(exc).__name__}: {exc}") from None
    except SystemExit as exc:  # a script's sys.exit() at import would end dpscale silently with its code
        raise DpscaleError(f"--model-file: {path} called sys.exit({exc.code!r}) while imported; allowed: "
                           f"{MODEL_FILE_HELP}") from None  # fmt: skip
    missing = [f for f in ("build_model", "make_batch") if not callable(getattr(module, f, None))]
    if missing:
        raise DpscaleError(f"--model-file: {path} has no {', '.join(missing)}(); allowed: {MODEL_FILE_HELP}")
    loss = getattr(module, "loss_fn", None) or F.cross_entropy
    # a model whose forward skips some parameters stalls DDP's reducer without it (its error names a keyword the
    # command line cannot pass); off by default, as DDP's, because it costs a graph traversal every step
    unused = getattr(module, "FIND_UNUSED_PARAMETERS", False)
    if not isinstance(unused, bool):
        raise DpscaleError(f"--model-file: {path} sets FIND_UNUSED_PARAMETERS = {unused!r}; allowed: True or False")
    return Workload(p.stem, module.build_model, module.make_batch, loss, unused)
