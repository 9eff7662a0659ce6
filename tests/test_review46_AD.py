"""Review 46 AD: dpscale as a library, from a notebook — what a caller of `import dpscale` meets that the CLI's
users do not."""

from __future__ import annotations

import json

import pytest

import dpscale
from dpscale.faces.cli import main

# `dpscale measure --out` appends every workload to one file: mlp at 1, 2, 4 devices, then a cnn run
MEASURED = [
    {"devices": 1, "throughput": 1000.0, "workload": "mlp", "batch": 64, "backend": "gloo", "device": "cpu"},
    {"devices": 2, "throughput": 1900.0, "workload": "mlp", "batch": 64, "backend": "gloo", "device": "cpu"},
    {"devices": 4, "throughput": 3600.0, "workload": "mlp", "batch": 64, "backend": "gloo", "device": "cpu"},
    {"devices": 2, "throughput": 1950.0, "workload": "cnn", "batch": 64, "backend": "gloo", "device": "cpu"},
]


@pytest.fixture
def measured(tmp_path):
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in MEASURED), encoding="utf-8")
    return path


def test_fit_picks_one_setup_of_a_measure_file_with_only(measured):
    # the library had no way to fit such a file: it was refused, naming a flag (--only) dpscale.fit does not take
    f = dpscale.fit(str(measured), only={"workload": "mlp"}, resamples=50)
    assert f.runs.devices == (1, 2, 4) and f.runs.throughput == (1000.0, 1900.0, 3600.0)
    # values compare as the records write them: batch 64 (an int or 64.0) is the records' 64
    for batch in (64, 64.0, "64"):
        g = dpscale.fit(measured, only={"workload": "mlp", "batch": batch}, resamples=50)
        assert g.runs.devices == (1, 2, 4)
    # the same records loaded by hand, as a notebook holds them
    assert dpscale.fit(MEASURED, only={"workload": "mlp"}, resamples=50).runs.devices == (1, 2, 4)


def test_fit_of_several_setups_names_the_library_argument(measured):
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.fit(str(measured))
    said = str(exc.value)
    assert said.startswith(f"{measured.name} line 4: another set-up than line 1 (workload 'mlp' → 'cnn')")
    assert said.endswith("or one picked with only=, e.g. only={'workload': 'cnn'}") and "--only" not in said
    with pytest.raises(dpscale.DpscaleError, match=r"^runs\[3\]: another set-up than runs\[0\] .*e\.g\. only="):
        dpscale.fit(MEASURED)


def test_the_cli_still_names_its_flag(measured, capsys):
    assert main(["fit", str(measured)]) == 2
    assert "or one picked with --only, e.g. --only workload=cnn" in capsys.readouterr().err
    assert main(["fit", str(measured), "--only", "workload=mlp", "--json", "--resamples", "50"]) == 0
    assert [p["devices"] for p in json.loads(capsys.readouterr().out)["measured"]] == [1, 2, 4]


@pytest.mark.parametrize(
    ("only", "said"),
    [
        (
            {"workload": "transformer"},
            "only: got workload=transformer; allowed: a set-up {f} holds: workload=mlp (3); workload=cnn (1)",
        ),
        (
            {"model": "mlp"},
            "only: got {{'model': 'mlp'}}; allowed: a dict of set-up keys (workload, params, batch, "
            "backend, device, steps, threads, zero) to values, e.g. only={{'workload': 'cnn'}}",
        ),
        ("workload=mlp", "only: got 'workload=mlp'; allowed: a dict of set-up keys"),
        ({}, "only: got {{}}; allowed: a dict of set-up keys"),
        ({"zero": True}, "only: got {{'zero': True}}; allowed: a dict of set-up keys"),
    ],
)
def test_fit_only_refusals(measured, only, said):
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.fit(str(measured), only=only)
    assert str(exc.value).startswith(said.format(f=measured.name))


def test_fit_only_needs_records_that_say_a_setup(tmp_path):
    csv = tmp_path / "runs.csv"
    csv.write_text("devices,throughput\n1,1000\n2,1900\n", encoding="utf-8")
    with pytest.raises(dpscale.DpscaleError, match=r"^only: .*runs\.csv is a CSV; allowed: with JSON lines"):
        dpscale.fit(csv, only={"workload": "mlp"})
    with pytest.raises(dpscale.DpscaleError, match=r"^only: got \{'workload': 'mlp'\}; allowed: runs from a file"):
        dpscale.fit(devices=[1, 2], throughput=[1000, 1900], only={"workload": "mlp"})
    with pytest.raises(dpscale.DpscaleError, match=r"; runs\[0\] is \(1, 1000\)$"):  # a pair says no set-up
        dpscale.fit([(1, 1000), (2, 1900)], only={"workload": "mlp"})
