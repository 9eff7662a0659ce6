"""The layers show in the folders, and a lower one never imports a higher one (docs/DEVELOPING.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "dpscale"
# what each layer may import from dpscale itself (besides its own folder); third-party imports are checked apart
ALLOWED = {
    "errors.py": set(),
    "notes.py": set(),
    "files.py": {"errors"},
    "formulas": {"errors", "notes"},
    "catalog": {"errors", "files"},
    "sources": {"errors", "notes", "files", "formulas", "catalog"},
}
# what formulas may import beyond dpscale: numpy and the pure parts of the standard library — no file, process,
# clock or randomness modules (os, sys, io, csv, json, pathlib, time, random), so a formula cannot do I/O
PURE = {"numpy", "__future__", "typing", "collections", "dataclasses", "functools", "math", "re", "statistics",
        "itertools", "string", "enum", "bisect", "types", "abc"}  # fmt: skip


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # `from dpscale import faces` imports dpscale.faces: check the names, not just the package
            out |= {f"dpscale.{a.name}" for a in node.names} if node.module == "dpscale" else {node.module}
    return out


def _files(layer: str) -> list[Path]:
    p = SRC / layer
    return [p] if p.is_file() else sorted(p.rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_only_the_layers_below(layer):
    own = layer.removesuffix(".py")
    bad = []
    for f in _files(layer):
        for name in _imports(f):
            parts = name.split(".")
            if parts[0] == "dpscale" and len(parts) > 1 and parts[1] not in ALLOWED[layer] | {own}:
                bad.append(f"{f.relative_to(SRC)}: {name}")
    assert bad == []


def test_formulas_are_pure():
    """Formulas and models: numpy and the pure standard library only — no scipy, torch, plotting, web or I/O."""
    bad = [f"{f.relative_to(SRC)}: {n}" for f in _files("formulas") for n in _imports(f)
           if n.split(".")[0] not in PURE | {"dpscale"}]  # fmt: skip
    assert bad == []
