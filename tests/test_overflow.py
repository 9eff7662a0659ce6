"""A typo-sized input (1e308, 1e-320) is refused in one line naming what overflowed, never printed as ∞ in a
table with exit 0 — every command prints through output.emit, which checks (a fuzzing session found each)."""

from __future__ import annotations

import pytest
from clihelp import run


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["batch", "-b", "32", "-d", "8", "--base-lr", "1e308", "--base-batch", "1"],
         "--base-lr: got 1e+308; allowed: a learning rate from 1e-12 to 1e6"),  # (once: 'learning_rate: … inf')
        (["plan", "-n", "1e6", "-v", "1000", "--epochs", "1e308"], "--epochs: got 1e+308; allowed: an epoch count"),
        (["plan", "-n", "1e6", "-v", "1e-320"], "--throughput: got 1e-320; allowed: a throughput whose time"),
        (["memory", "--params", "1e308"], "--params: got '1e308'; allowed: a parameter count from 1,000 to 1e+15"),
        (["fit", "--point", "1:1000", "--point", "2:1e308"],
         "--point 2:1e308, throughput: got '1e308'; allowed: a number from 1e-9 to 1e15"),
        (["calc", "-d", "8", "-v", "5", "--actual", "1e308"], "efficiency: comes to 2.5e+306 from these inputs"),
    ],
)  # fmt: skip
def test_overflow_is_one_line_not_infinity(capsys, argv, needle):
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and needle in err and len(err.strip().splitlines()) == 1
    assert "∞" not in out and "inf" not in out


def test_integer_arrays_cannot_wrap_around():
    """numpy integer arithmetic wraps silently: int16 × int16 gave a negative ideal throughput (-3,072), int64
    10^7 devices × 10^12 samples/s a negative actual one. Counts stay integers; products are taken in floats."""
    import numpy as np

    import dpscale

    r = dpscale.scale(np.array([64], np.int16), np.array([2000], np.int16), 0.9)
    assert r.ideal_throughput[0] == 128_000 and r.devices.dtype == np.int64
    assert dpscale.scale(np.array([10**7]), np.array([10**12]), 0.9).actual_throughput[0] == pytest.approx(9e18)
    assert dpscale.scale(64, np.array([255], np.uint8), 0.9).ideal_throughput[0] == 64 * 255
    assert dpscale.scale(np.uint8(255), 2000, 0.9).ideal_throughput == 510_000  # a numpy scalar, too
    assert dpscale.scale([1, 8], 2000, 0.9).devices.dtype.kind == "i"  # a list of ints stays whole
    assert dpscale.scale([10**7, 8], 10**12, 0.9).ideal_throughput[0] == 1e19  # a Python int rate, too (was < 0)


def test_an_int_past_any_float_is_one_clear_error():
    import dpscale
    from dpscale.errors import DpscaleError

    with pytest.raises(DpscaleError, match=r"devices: got 1000.*; allowed: a number within the float range"):
        dpscale.scale(10**400, 2000, 0.9)  # was a raw OverflowError


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["predict", "--params", "1e8", "--step-time", "0.1", "--system", "dgx-a100", "-d", "8",
          "--baseline-devices", "1e15"], "--baseline-devices: got '1e15'; allowed: a whole number from 1 to 10,000"),
        (["predict", "--params", "1e8", "--step-time", "0.1", "--gpus-per-node", "1e15", "--intra-bw", "100",
          "--inter-bw", "10", "-d", "8"], "--gpus-per-node: got '1e15'; allowed: a whole number from 1 to 10,000,000"),
        (["pipeline", "--stages", "4", "--microbatches", "8", "--devices", "1e15"], "--devices: got '1e15'"),
        (["memory", "--params", "7e9", "--devices", "1e15"], "--devices: got '1e15'; allowed: a whole number"),
    ],
)  # fmt: skip
def test_every_device_count_stops_where_devices_do(capsys, argv, needle):
    """-d stops at 10,000,000 devices; these took 1e15 (a baseline of 1e15 devices silently moved the rate)."""
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and needle in err and "10,000,000" in err


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["memory", "--params", "7e9", "-d", "8", "--tensor-parallel", "1e15"], "--tensor-parallel: got '1e15'"),
        (["pipeline", "--stages", "1e15", "--microbatches", "8"], "--stages: got '1e15'; allowed: a whole number"),
    ],
)
def test_parallel_degrees_stop_where_devices_do(capsys, argv, needle):
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and needle in err and "10,000,000" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["fit", "{f}"],
        ["validate", "{f}"],
        ["predict", "--params", "1e8", "--step-time", "0.1", "-d", "8", "--system-file", "{f}"],
        ["predict", "--params", "1e8", "--step-time", "0.1", "-d", "8", "--system", "dgx-a100", "--calibration", "{f}"],
        ["plan", "-n", "1e6", "-v", "100", "--efficiency-file", "{f}"],
    ],
)
def test_an_endless_or_huge_input_file_is_one_line(capsys, tmp_path, monkeypatch, argv):
    """/dev/zero given as an input once filled memory and ended in a MemoryError traceback: every file a command
    reads stops at files.MAX_INPUT_BYTES (lowered here so a small sparse file stands for an endless one)."""
    from dpscale import files

    monkeypatch.setattr(files, "MAX_INPUT_BYTES", 1000)
    big = tmp_path / "big.csv"
    big.write_bytes(b"\0" * 1001)
    rc, out, err = run(capsys, *[a.format(f=big) for a in argv])
    assert rc == 2 and out == "" and "(more than 0.000953674 MiB: not an input file)" in err
    assert len(err.strip().splitlines()) == 1
    (tmp_path / "fits.csv").write_bytes(b"devices,throughput\n1,100\n2,190\n" + b" " * 960)  # 999 bytes: read
    assert run(capsys, "fit", str(tmp_path / "fits.csv"), "--law", "amdahl")[0] == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["{a}"],
        ["calc", "-d", "8", "-v", "1", "--law", "{a}"],
        ["predict", "--model", "{a}", "-d", "8"],
        ["memory", "--gpu", "{a}", "--params", "1e9"],
        ["calc", "--{a}", "3"],
        ["predict", "--params", "1e8", "--step-time", ".1", "-d", "8", "--system-file", "/tmp/{a}"],
    ],
)
def test_a_runaway_value_is_clipped_in_the_one_line(capsys, argv):
    """A 3,000-letter value was echoed whole (3 KB of error line) by argparse, the catalogs and the file readers."""
    a = "a" * 3000
    rc, _, err = run(capsys, *[x.format(a=a) for x in argv])
    assert rc == 2 and len(err.strip().splitlines()) == 1 and len(err) < 400
    assert "a" * 30 + "…" + "a" * 30 in err  # head and tail kept, so the value is still recognisable


def test_library_errors_are_clipped_too():
    from dpscale.errors import DpscaleError, clip

    assert str(DpscaleError("x: got " + "9" * 500)) == "x: got " + "9" * 45 + "…" + "9" * 45
    assert clip("a" * 100 + " b") == "a" * 100 + " b"  # 100 characters stay whole
