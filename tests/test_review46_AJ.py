"""Review 46 AJ: session 46's commits, tried at their edges (library and CLI, both languages, odd files)."""

from __future__ import annotations

import pytest

import dpscale

ONE_AT_A_TIME = {  # these read one E at a time: a list of E per size is refused
    "plan": lambda e: dpscale.plan(1e9, 1, 2000, [1, 8], e),
    "batch_plan": lambda e: dpscale.batch_plan(32, 8, noise_scale=1000, efficiency=e),
    "solve d": lambda e: dpscale.solve(per_device_throughput=2000, efficiency=e, actual_throughput=10_000),
}


@pytest.mark.parametrize("name", ONE_AT_A_TIME)
def test_a_refusal_names_no_list_of_e_where_a_list_is_refused(name):
    """plan({8: 0.9}) said 'allowed: … one per size (a list or an array) …'; the list it named was then refused
    ('got [1.0, 0.9]; allowed: one number, or an E(d) source'): each refusal sent the caller to the other."""
    call = ONE_AT_A_TIME[name]
    with pytest.raises(dpscale.DpscaleError) as exc:
        call({8: 0.9})
    said = str(exc.value)
    assert said.startswith("efficiency: got {8: 0.9}; allowed: one number, or an E(d) source: ")
    assert "PerSize({8: 0.9})" in said and "a list" not in said
    with pytest.raises(dpscale.DpscaleError, match=r"^efficiency: got (\[1.0, 0.9\]|2 values); allowed: one number"):
        call([1.0, 0.9])
    # what the message names is taken: one number, and the table it shows
    assert call(dpscale.PerSize({8: 0.9})) is not None and call(0.9) is not None


@pytest.mark.parametrize("flags", [[], ["-OO"]])
def test_calibrate_script_refuses_a_bad_file_in_one_line(tmp_path, flags):
    """`python validation/calibrate.py --help` answered since session 46, but a DATA.csv it cannot read still ended
    in a DpscaleError traceback, and under python -OO (no docstring) --help itself raised AttributeError."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "validation" / "calibrate.py"
    missing = tmp_path / "nope.csv"
    p = subprocess.run([sys.executable, *flags, str(script), str(missing)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    said = "allowed: a readable CSV file (No such file or directory)\n"
    assert p.stderr.startswith("calibrate.py: error: DATA: got '") and p.stderr.endswith(said)
    assert p.stderr.count("\n") == 1
    p = subprocess.run([sys.executable, *flags, str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "DATA.csv" in p.stdout and p.stderr == ""


@pytest.mark.parametrize(
    ("lang", "under", "over"),
    [
        (
            "en",
            "per sbh), yet at 128 tokens that mask and output weigh less",
            "per sbh), so without recompute this overstates",
        ),
        (
            "es",
            "por sbh), pero con 128 tokens esa máscara y esa salida pesan menos",
            "por sbh), así que sin recómputo esto sobrestima",
        ),
    ],
)
def test_the_llama_note_says_why_it_understates_before_so(capsys, lang, under, over):
    """The note read '…whose attention keeps a dropout mask and output beside the scores (…), so without recompute
    this understates llama3-8b too': 'so' drew the understatement from what makes the table overstate. The reason
    (at 128 tokens that mask and output weigh less than the SwiGLU MLP's extra tensors) now comes first."""
    from clihelp import run

    out = " ".join(run(capsys, "memory", "--model", "llama3-8b", "--seq-len", "128", "--lang", lang)[1].split())
    assert under in out and over not in out
    out = " ".join(run(capsys, "memory", "--model", "llama3-8b", "--lang", lang)[1].split())
    assert over in out and under not in out


@pytest.mark.parametrize("kind", ["models", "systems", "gpus", "links"])
def test_every_catalog_alias_names_an_entry_and_is_reached(kind):
    """The aliases table is hand-written JSON (session 46 added nine): an alias naming no key (a typo, a renamed
    preset) refused what it was written for, as 'got …; allowed: …', and one that squashes to a key's own name is
    never read. Each alias reaches its entry by the lookup users go through."""
    import json

    from dpscale import catalog

    data = json.loads((catalog.HERE / catalog.KINDS[kind]).read_text(encoding="utf-8"))
    entries = catalog.table(kind)
    for alias, key in data.get("aliases", {}).items():
        assert key in entries, (alias, key)
        assert catalog.key_of(kind, alias) == key, alias
        assert not any(catalog._squash(alias) == catalog._squash(k) for k in entries), alias
