"""A warning raised from dpscale's own code fails the suite (pyproject's [tool.pytest.ini_options] filterwarnings):
numpy's divide by zero or invalid value in our arithmetic is a nan or inf a later clip can hide, and a deprecated
call of ours that a dependency flags at our line breaks on its next release. Other libraries' warnings stay at
pytest's default: shown in the summary, not failures."""

from __future__ import annotations

import ast
import pkgutil
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import dpscale
from dpscale.formulas.collectives import busbw_factor

CATEGORIES = [RuntimeWarning, DeprecationWarning, PendingDeprecationWarning, FutureWarning, UserWarning]
OURS = ["dpscale"] + [m.name for m in pkgutil.walk_packages(dpscale.__path__, "dpscale.")]
# the module regex is matched from the start of the name: it must stop at dpscale's own dotted names
THEIRS = [
    "numpy",
    "numpy._core._methods",
    "scipy.optimize._minpack_py",
    "matplotlib.axes._base",
    "torch.jit._script",
    "starlette.routing",
    "dpscale_plugin",
    "tests.test_lint_warnings",
    "__main__",
]


def test_numpy_s_divide_by_zero_in_a_dpscale_formula_fails_the_test():
    """busbw_factor divides by the rank count: 0 ranks (which no face lets through) is a 0-division in
    src/dpscale/formulas/collectives.py, the warning numpy raises at our line."""
    with pytest.raises(RuntimeWarning, match="divide by zero"):
        busbw_factor(np.array([0.0]))


def test_every_dpscale_module_s_warnings_are_errors():
    assert len(OURS) > 50 and "dpscale.sources.measure.worker" in OURS and "dpscale.faces.web.app" in OURS
    for module in OURS:
        for category in CATEGORIES:
            with pytest.raises(category):
                warnings.warn_explicit("x", category, "f.py", 1, module=module)


def test_other_libraries_warnings_stay_warnings():
    for module in THEIRS:
        for category in CATEGORIES:
            with warnings.catch_warnings(record=True) as seen:
                warnings.warn_explicit("x", category, "f.py", 1, module=module)
            assert [w.category for w in seen] == [category], (module, category)


def test_no_test_s_own_filter_silences_dpscale_s_warnings():
    """A test's @pytest.mark.filterwarnings comes after pyproject's, so a bare 'ignore::DeprecationWarning' (the
    in-process FSDP tests', for torch.jit's deprecation at torch.distributed.optim's import) also silenced a
    deprecation flagged at our line in dpscale.sources.measure.train — the one place torch runs in this process.
    Each mark, laid over the ini's filters, must still raise for our modules' warnings (a message or torch's module
    names what it is for)."""
    from _pytest.config import parse_warning_filter

    mark_re = re.compile(r"""mark\.filterwarnings\(\s*(r?(["']).+?\2)\s*\)""")
    files = [p for p in sorted(Path(__file__).resolve().parent.glob("test_*.py")) if p.name != Path(__file__).name]
    marks = [ast.literal_eval(m[1]) for p in files for m in mark_re.finditer(p.read_text(encoding="utf-8"))]
    assert len(marks) >= 4  # the FSDP tests' two each
    for mark in marks:
        for category in CATEGORIES:
            with warnings.catch_warnings():
                warnings.filterwarnings(*parse_warning_filter(mark, escape=False))
                with pytest.raises(category):
                    warnings.warn_explicit("x", category, "f.py", 1, module="dpscale.sources.measure.train")
