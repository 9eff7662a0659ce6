"""Session 41's regression audits of issues 2, 4 and 5: what they found, as tests."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dpscale.faces.cli import main


@pytest.mark.slow
def test_fit_docs_quote_the_error_outside_the_dev_set(capsys):
    """Issue 4's accuracy goal is on configurations the project has not seen; README and docs quoted the dev set
    alone (0.015), where the other published sets gave 0.035 (0.028 since leave-one-out's folds are scored alike)."""
    root = Path(__file__).resolve().parents[1]
    doc = (root / "docs" / "fit.md").read_text(encoding="utf-8")
    said = re.search(
        r"(\d+) configurations,\nmedian \|error\| ([\d.]+), p90 ([\d.]+), max ([\d.]+), (\d+) of \1 inside", doc
    )
    readme = (root / "README.md").read_text(encoding="utf-8")
    files = sorted(str(f) for f in (root / "validation").glob("*.csv") if f.name != "published_scaling_dev.csv")
    assert said and len(files) >= 12
    assert main(["validate", *files, "--mode", "fit", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    inside = sum(x["efficiency_lo"] <= x["measured"] <= x["efficiency_hi"] for x in r["rows"])
    got = (r["configs"], *(round(r[k], 3) for k in ("median_abs_error", "p90_abs_error", "max_abs_error")), inside)
    assert got == (int(said[1]), float(said[2]), float(said[3]), float(said[4]), int(said[5]))
    text = " ".join(readme.split())
    assert f"the {r['configs']} published configurations outside the dev set" in text
    assert f"median {round(r['median_abs_error'], 3)}, p90 {round(r['p90_abs_error'], 3)}" in text
    assert f"{inside} of {r['configs']} inside" in text
    # the switch ratio was chosen on these sets (session 41): the paragraph must not call them unseen
    outside = doc[doc.index("**Outside the dev set**") : said.start()]
    assert "never chosen on" not in outside and "chosen on them" in outside
