"""The core's contract (the calculator issue) where no other test pinned it: a sweep prints an array of the JSON
contract's objects (a solve's object: test_cli_calc.py::test_solves), the bad-input rule for an E per size with no
sizes typed, and the packaging the issue fixed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import CALC_JSON, run

ROOT = Path(__file__).resolve().parents[1]
CONTRACT = list(CALC_JSON)  # the JSON contract's keys, in its order


@pytest.mark.parametrize(
    "argv, actual",
    [
        (["-d", "8..32x2", "-v", "1000", "-e", "0.9"], [7200.0, 14400.0, 28800.0]),
        (["-d", "1,8,64", "-v", "2000", "-e", "1,0.95,0.9"], [2000.0, 15200.0, 115200.0]),
        (["-d", "1,11,21", "-v", "100", "--serial-fraction", "0.05"], [100.0, 733.333333333, 1050.0]),  # Amdahl
        # the USL: d·v / (1 + σ(d − 1) + κ·d(d − 1))
        (
            ["-d", "1..4", "-v", "100", "--sigma", "0.1", "--kappa", "0.01"],
            [100.0, 178.571428571, 238.095238095, 281.690140845],
        ),
        (["-d", "1,8,64", "-v", "2000", "--actual", "2000,15000,100000"], [2000.0, 15000.0, 100000.0]),
    ],
)
def test_a_sweep_prints_an_array_of_contract_objects(capsys, argv, actual):
    """'a sweep prints a JSON array of such objects': one object a size, each with the contract's keys in order."""
    rc, out, _ = run(capsys, "calc", *argv, "--json")
    recs = json.loads(out)
    assert rc == 0 and isinstance(recs, list)
    assert all(list(r)[: len(CONTRACT)] == CONTRACT for r in recs)
    assert [r["actual_throughput"] for r in recs] == actual


@pytest.mark.parametrize("argv", [["-v", "2000", "-e", "0.9,0.8", "--actual", "1e5"], ["-v", "2000", "-e", "0.9,0.8"]])
def test_e_per_size_without_devices_says_what_it_needs(capsys, argv):
    """An E per size with no --devices typed (solving for them) was refused as '2 values for 0 device counts'."""
    said = {
        "en": "--efficiency: got '0.9,0.8'; allowed: one value, or one per size given in --devices",
        "es": "--efficiency: se recibió '0.9,0.8'; se admite: un valor, o uno por tamaño dado en --devices",
    }
    for lang, line in said.items():
        rc, out, err = run(capsys, "calc", *argv, "--lang", lang)
        assert rc == 2 and out == ""
        assert err == f"dpscale calc: error: {line}\n"


def test_packaging_is_what_the_issue_asked_for():
    """PEP 621 metadata, a src layout, the console script `dpscale`, the extras measure, web, plot, all and test,
    and torch pinned to 2.13.0 in the test set-up only (the user-facing measure extra takes a range): an unpinned
    torch in the test set-up pulls a multi-GB CUDA build, a pinned one in measure forces it on users."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = meta["project"]
    assert project["name"] == "dpscale" and project["scripts"] == {"dpscale": "dpscale.faces.cli:main"}
    assert meta["tool"]["setuptools"]["packages"]["find"]["where"] == ["src"]
    extras = project["optional-dependencies"]
    assert {"measure", "web", "plot", "all", "test"} <= set(extras)
    assert not [r for r in project["dependencies"] if r.startswith("torch")]
    torch = {name: [r for r in reqs if r.startswith("torch")] for name, reqs in extras.items()}
    assert torch["test"] == ["torch==2.13.0"]
    (measure,) = torch["measure"]
    assert measure.startswith("torch>=") and ",<" in measure.replace(" ", "")  # a range, e.g. torch>=2.6,<3
    # its floor no older than what measure imports: FSDP2's fully_shard (--zero 2|3) is public from torch 2.6; at
    # 2.1 each size failed after its ranks started ('rank 0 crashed: … fully_shard …')
    floor = tuple(int(x) for x in measure.replace(" ", "").removeprefix("torch>=").split(",")[0].split("."))
    assert floor >= (2, 6) and "from torch.distributed.fsdp import fully_shard" in (
        ROOT / "src/dpscale/sources/measure/train.py"
    ).read_text(encoding="utf-8")
    assert {name for name, reqs in torch.items() if reqs} == {"test", "measure"}
    in_all = {x.strip() for r in extras["all"] if "[" in r for x in r.split("[", 1)[1].rstrip("]").split(",")}
    assert {"measure", "web", "plot"} <= in_all
    from dpscale.faces.cli import main

    assert callable(main)
