"""Review LU (mutation pass over reviews LM, LN, LO and LQ's source lines): a samples/s fit's --csv under another
spelling. The test below failed against a hand-made mutant (named in its docstring) and passes on the source. (LU's
currency values — each code of the Spanish-speaking countries, a sign's letters after it, a code in lower case — are
rows of tests/test_mutants_lf_cli.py's budget test: review LZ merged them there.)"""

from __future__ import annotations

import pytest
from clihelp import run


@pytest.mark.parametrize(("unit", "lang"), [("samples/sec", "en"), ("Samples/S", "en"), ("muestras/s", "es")])
def test_a_samples_fit_under_another_spelling_writes_no_unit_column(tmp_path, capsys, unit, lang):
    """Mutant: fit's `not same_unit(report["unit"], "samples/s")` → `report["unit"] != "samples/s"` (survived: the
    tests typed tokens/s or nothing). `dpscale fit runs.csv --unit samples/sec --csv` then wrote a "unit" column of
    samples/sec on each row, where calc's --csv under the same --unit writes none: samples/s in other words."""
    runs = tmp_path / "runs.csv"
    runs.write_text("devices,throughput\n1,100\n2,190\n4,350\n8,600\n", encoding="utf-8")
    argv = ("--unit", unit, "--csv", "--lang", lang)
    rc, out, _ = run(capsys, "fit", str(runs), "--at", "1,16", "--resamples", "100", *argv)
    assert rc == 0 and out.splitlines()[0] == (
        "devices,throughput,throughput_lo,throughput_hi,efficiency,efficiency_lo,efficiency_hi"
    )
    assert [line.split(",")[0] for line in out.splitlines()[1:]] == ["1", "16"]
    rc, out, _ = run(capsys, "calc", "-d", "8", "-v", "100", "-e", "0.9", *argv)
    assert rc == 0 and "unit" not in out.splitlines()[0]
