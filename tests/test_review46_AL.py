"""Review 46 AL: two files split where each mixed two jobs — formulas/scaling.py's inverse problem (`solve` and
its searches) is formulas/solve.py. Each new module stands on its own: the lower one never imports the higher, and
the old home keeps no re-exported copy."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import dpscale
from dpscale.errors import DpscaleError

SRC = Path(__file__).resolve().parents[1] / "src" / "dpscale"


def _dpscale_imports(path: Path) -> set[str]:
    """Every dpscale module the file imports, at its top, inside a function or under TYPE_CHECKING."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("dpscale"):
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("dpscale")}
    return out


def test_solve_lives_in_formulas_solve_and_the_package_names_it():
    from dpscale.formulas import scaling, solve

    assert dpscale.solve is solve.solve and dpscale.Solution is solve.Solution
    assert not hasattr(scaling, "solve") and not hasattr(scaling, "Solution")  # no compatibility copy left behind
    assert "dpscale.formulas.solve" not in _dpscale_imports(SRC / "formulas" / "scaling.py")  # one direction only


def test_the_moved_solve_answers_as_it_did():
    """The worked example backwards: 115,200/s from 64 devices at 2,000/s is E = 0.9; 100,000/s at E 0.9 needs
    55.56 devices, rounded up to 56; a USL past its peak is refused naming it."""
    from dpscale.formulas.solve import solve

    assert solve(devices=64, per_device_throughput=2000, actual_throughput=115_200).exact == pytest.approx(0.9)
    r = solve(per_device_throughput=2000, efficiency=0.9, actual_throughput=100_000)
    assert r.result.devices == 56 and r.exact == pytest.approx(55.5556, rel=1e-5)
    assert [n.key for n in r.notes] == ["rounded_up"] and str(r.notes[0]).startswith("55.56 devices needed exactly")
    with pytest.raises(DpscaleError, match=r"throughput peaks at 357\.143/s \(speedup 3\.57143\) with 10 devices"):
        solve(per_device_throughput=100, efficiency=dpscale.USL(0.1, 0.01), actual_throughput=1e9)
