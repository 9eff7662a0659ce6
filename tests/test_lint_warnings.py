"""A warning raised from dpscale's own code fails the suite (pyproject's [tool.pytest.ini_options] filterwarnings):
numpy's divide by zero or invalid value in our arithmetic is a nan or inf a later clip can hide, and a deprecated
call of ours that a dependency flags at our line breaks on its next release. Other libraries' warnings stay at
pytest's default: shown in the summary, not failures."""

from __future__ import annotations

import pkgutil
import warnings

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
