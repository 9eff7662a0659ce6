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


def test_readme_page_limits_are_the_app_s():
    """The limits README gives the page are the app's constants: 2,000 sizes, 10,000 resamples, the 2,000,000
    resamples × sizes a fit may ask (unsaid until review 45: 10,000 resamples at 300 sizes was refused), 10,000
    characters a field, 1 MiB a body."""
    import pytest

    pytest.importorskip("fastapi")
    from dpscale.faces.web import app

    text = " ".join(README.split())
    said = re.search(
        r"sweeps past ([\d,]+) sizes and fits past ([\d,]+) resamples \(`--resamples`\) or ([\d,]+) resamples × sizes;"
        r" a field takes at most ([\d,]+) characters and a request body (\d+) MiB",
        text,
    )
    assert said, "README's sentence on the page's limits changed shape"
    rows, resamples, cells, chars, mib = (int(x.replace(",", "")) for x in said.groups())
    assert (rows, resamples, cells, chars, mib << 20) == (
        app.MAX_PAGE_ROWS,
        app.MAX_PAGE_RESAMPLES,
        app.MAX_PAGE_CELLS,
        app.MAX_VALUE_CHARS,
        app.MAX_BODY_BYTES,
    )
