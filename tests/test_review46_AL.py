"""Review 46 AL: two files split where each mixed two jobs — formulas/scaling.py's inverse problem (`solve` and
its searches) is formulas/solve.py, and sources/fit.py's notes on a finished fit are sources/fit_notes.py (as
predict_notes.py is predict.py's). Each new module stands on its own: the lower one never imports the higher, and
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


def test_a_fits_notes_live_in_fit_notes_which_never_imports_fit_at_run_time():
    """fit_notes reads a Fit only for its type (under TYPE_CHECKING): importing it alone loads no sources.fit, so
    fit → fit_notes is the one direction; the constants both read sit below them (fit_io, fit_solve)."""
    import subprocess
    import sys

    from dpscale.sources import fit, fit_io, fit_notes, fit_solve

    assert fit.fit_warnings is fit_notes.fit_warnings and not hasattr(fit, "MISFIT") and not hasattr(fit, "_warnings")
    assert fit_notes.NOISE_PRIOR is fit_io.NOISE_PRIOR == 0.01 and fit_notes.AT_BOUND is fit_solve.AT_BOUND == 1e-12
    code = "import sys, dpscale.sources.fit_notes; print('dpscale.sources.fit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_moved_notes_say_what_they_said():
    """Runs 1 → 8 that barely grow (1,000 → 1,050 samples/s) are per-device rates typed as the whole run's: the
    flat-runs note gives ×1.05 and E 0.131 (= 1,050 / 8,000); Amdahl held at E = 1 misses a superlinear
    E(2) = 1.111 by more than MISFIT and says so."""
    flat = dpscale.fit([(1, 1000), (4, 1000), (8, 1050)], resamples=50)
    (w,) = [w for w in flat.warnings if w.key == "runs_flat"]
    assert w.fields["gain"] == pytest.approx(1.05) and w.fields["e_said"] == "0.131" and w.fields["k"] == 8.0
    miss = dpscale.fit([(1, 100.0), (2, 222.14)], law="amdahl", resamples=50)
    (m,) = [w for w in miss.warnings if w.key == "fit_misses"]
    assert m.fields["measured_said"] == "1.111" and m.fields["law_said"] == "1.000" and m.fields["d"] == 2
