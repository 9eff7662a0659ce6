"""Review 45 N: the README and docs stay true where a claim was cheap to test and was not yet tested."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_names_every_benchmark_script():
    """README's 'Benchmarks' paragraph lists the scripts in benchmarks/: bench_sizes.py (session 42) was left out."""
    section = README.split("Benchmarks (`benchmarks/`", 1)[1]
    named = set(re.findall(r"`((?:bench_\w+|timing)\.py)`", section))
    present = {p.name for p in (ROOT / "benchmarks").glob("*.py")}
    assert named == present
