"""Session 42's boundary audit of every command (values at and just past each bound, -0, subnormals): what it
found, as tests."""

from __future__ import annotations

import json

import pytest

import dpscale
from dpscale.faces.cli import main


@pytest.mark.parametrize("zero", ["-0", "-0.0"])
def test_a_negative_zero_knee_threshold_is_said_as_zero(capsys, zero):
    """--knee-threshold -0 is 0, a bound the range takes; the note said 'adds at least -0 of a device's speedup'."""
    assert main(["plan", "-n", "1.28e6", "-v", "2000", "-e", "0.9", "-d", "8,64", "--knee-threshold", zero]) == 0
    out = capsys.readouterr().out
    assert "added devices still add at least 0 of a device's speedup" in out and "-0" not in out
    r = dpscale.plan(1e6, 1, 2000, [8, 64], 0.9, knee_threshold=-0.0)
    assert str(r.knee_threshold) == "0.0"


@pytest.mark.parametrize("fmt", ["--json", "--csv"])
def test_a_negative_zero_warm_up_is_written_as_zero(capsys, fmt):
    """--warmup-epochs -0 was written "warmup_epochs": -0.0 in the JSON and -0.0 in the CSV."""
    argv = ["batch", "-b", "32", "-d", "8", "--base-lr", "0.1", "--base-batch", "256", "--warmup-epochs", "-0", fmt]
    assert main(argv) == 0
    out = capsys.readouterr().out
    if fmt == "--json":
        assert json.loads(out)["warmup_epochs"] == 0 and '"warmup_epochs": 0.0' in out
    else:
        head, row = out.splitlines()[:2]
        assert dict(zip(head.split(","), row.split(",")))["warmup_epochs"] == "0.0"
    assert "-0" not in out
    assert str(dpscale.batch_plan(32, 8, base_lr=0.1, base_batch=256, warmup_epochs=-0.0).warmup_epochs) == "0.0"
