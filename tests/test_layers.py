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
    "outputs.py": {"errors", "files"},  # which command wrote a file: its readers' naming rule, beside files
    "formulas": {"errors", "notes"},
    # (a Hugging Face config's count: formulas.compute.llama_params, that module alone — its neighbours import numpy
    # at their top, which every `memory --gpu`/`--model` would then load with the catalog: review JJ)
    "catalog": {"errors", "files", "outputs", "formulas.compute"},
    "sources": {"errors", "notes", "files", "outputs", "formulas", "catalog"},
}
# what formulas may import beyond dpscale: numpy and the pure parts of the standard library — no file, process,
# clock or randomness modules (os, sys, io, csv, json, pathlib, time, random), so a formula cannot do I/O
PURE = {"numpy", "__future__", "typing", "collections", "dataclasses", "functools", "math", "re", "statistics",
        "itertools", "string", "enum", "bisect", "types", "abc"}  # fmt: skip


def _imports(path: Path, package: str | None = None) -> set[str]:
    """Every module the file imports, at its top or inside a function (a lazy import crosses a layer too), a
    relative one (`from ..faces import output`) resolved against the file's package: `package`, else its folder."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = (package or ".".join(("dpscale", *path.relative_to(SRC).parent.parts))).split(".")
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # '.' is the file's own package, each further dot one package up
                base = here[: len(here) - node.level + 1] if node.level <= len(here) else []
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            if not module:
                continue
            out.add(module)
            if not node.module or module == "dpscale":  # `from dpscale import faces`, `from .. import faces`
                out |= {f"{module}.{a.name}" for a in node.names}  # import dpscale.faces: check the names too
    return out


def _files(layer: str) -> list[Path]:
    p = SRC / layer
    return [p] if p.is_file() else sorted(p.rglob("*.py"))


def _crossings(layer: str, files: list[Path], package: str | None = None) -> list[str]:
    """The imports of `files` that ALLOWED does not give `layer`: a layer by name, or one module of it by its dotted
    name ('formulas.compute')."""
    own = layer.removesuffix(".py")
    bad = []
    for f in files:
        for name in _imports(f, package):
            parts = name.split(".")
            if (
                parts[0] == "dpscale"
                and len(parts) > 1
                and not {parts[1], ".".join(parts[1:3])} & (ALLOWED[layer] | {own})
            ):
                bad.append(f"{f.name}: {name}")
    return bad


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_only_the_layers_below(layer):
    assert _crossings(layer, _files(layer)) == []


def test_the_catalog_imports_one_formula_module_only(tmp_path):
    """Review JJ: 9294bfb let the catalog import `formulas` whole for compute.llama_params; collectives, overlap and
    stepmodel import numpy at their top, and `memory --gpu h100` (the catalog, no numpy: 120 modules) would then load
    it unasked. The rule names the one module."""
    f = tmp_path / "zz.py"
    f.write_text("from dpscale.formulas.compute import llama_params\nfrom dpscale.formulas.collectives import GB\n"
                 "import dpscale.formulas.stepmodel\n")  # fmt: skip
    got = sorted(_crossings("catalog", [f], "dpscale.catalog"))
    assert got == ["zz.py: dpscale.formulas.collectives", "zz.py: dpscale.formulas.stepmodel"]


def test_formulas_are_pure():
    """Formulas and models: numpy and the pure standard library only — no scipy, torch, plotting, web or I/O."""
    bad = [f"{f.relative_to(SRC)}: {n}" for f in _files("formulas") for n in _imports(f)
           if n.split(".")[0] not in PURE | {"dpscale"}]  # fmt: skip
    assert bad == []


def test_a_relative_or_lazy_import_is_seen(tmp_path):
    """`from ..faces import output` inside a formula's function imports the faces as surely as a top-level
    `from dpscale.faces import output`: the check once read only absolute imports, so this passed unseen."""
    f = tmp_path / "zz.py"
    f.write_text("def f():\n    from ..faces import output\n    from .. import sources\n    from . import units\n")
    got = _imports(f, "dpscale.formulas")
    assert {"dpscale.faces", "dpscale.sources", "dpscale.formulas.units"} <= got
