"""The code stays ruff-clean (lint rules and formatting, pyproject's [tool.ruff]) and mypy-clean ([tool.mypy])."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is in the test extra")
@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]])
def test_ruff(args):
    done = subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is in the test extra")
def test_mypy():
    """The hints say what runs: 108 errors were cleared in session 19, and a new one fails here, not in review."""
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
