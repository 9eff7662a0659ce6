"""Session 43's own findings: each test failed before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from clihelp import run


@pytest.mark.parametrize("typed", ["1e400", "9" * 400, "1_0e400"])
def test_a_count_past_a_float_is_refused_as_too_large(capsys, typed):
    """A count float() reads as inf ('1e400', 400 nines) was refused as 'a whole number ≥ 1', as if too small; it
    is past the bound, said as the bound: 2^53 where the flag has none of its own."""
    rc, out, err = run(capsys, "predict", "--model", "resnet50", "--system", "dgx-a100", "-v", "1000", "--batch", typed)
    assert rc == 2 and out == "" and err.strip().endswith("allowed: a whole number from 1 to 2^53")
    rc, out, err = run(
        capsys, "predict", "--model", "resnet50", "--system", "dgx-a100", "-v", "1000", "--batch", "-" + typed
    )
    assert rc == 2 and err.strip().endswith("allowed: a whole number ≥ 1")  # below, not past: the lower bound


@pytest.mark.parametrize(("flag", "typed"), [("--stages", "1e20"), ("--stages", "1e400"), ("--devices", "1e999")])
def test_pipeline_s_counts_say_the_library_s_bound(capsys, flag, typed):
    """--stages and --devices stop at 10,000,000 (the library's MAX_DEVICES): 1e20 was told 'from 1 to 2^53', and
    2^53 + 1 then 'from 1 to 10,000,000' with the value rounded (9007199254740992, unquoted)."""
    argv = (
        ["pipeline", "--stages", "4", "-m", "8", flag, typed]
        if flag == "--devices"
        else ["pipeline", "-m", "8", flag, typed]
    )
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and err.strip().endswith(f"{flag}: got '{typed}'; allowed: a whole number from 1 to 10,000,000")
    rc, out, err = run(capsys, "pipeline", "-m", "8", "--stages", "9007199254740993")
    assert rc == 2 and "--stages: got '9007199254740993'; allowed: a whole number from 1 to 10,000,000" in err


@pytest.mark.parametrize(
    ("value", "shown"),
    [("null", "null"), ("true", "true"), ('{"a": [1, 2]}', '{"a": [1, 2]}'), ('"null"', "'null'"), ("0", "0")],
)
def test_a_json_runs_file_s_bad_value_is_shown_as_the_file_wrote_it(capsys, tmp_path, value, shown):
    """A runs file's JSON null was shown as Python's None ('got None'), true as True: the user wrote JSON, and a
    text "null" (quoted, as text is) could not be told from it. A Python caller still sees Python's spelling."""
    path = tmp_path / "r.jsonl"
    path.write_text(f'{{"devices": 1, "throughput": {value}}}\n{{"devices": 2, "throughput": 190}}\n')
    rc, out, err = run(capsys, "fit", str(path))
    assert rc == 2 and out == "" and f"r.jsonl line 1, throughput: got {shown}; allowed: a number" in err
    import dpscale
    from dpscale import DpscaleError

    with pytest.raises(DpscaleError, match=r"runs\[0\], throughput: got None; allowed"):
        dpscale.fit([{"devices": 1, "throughput": None}, {"devices": 2, "throughput": 190.0}])


@pytest.mark.parametrize(
    ("record", "shown"),
    [
        ('{"devices": 1, "efficiency": null}', "record 1: efficiency null'"),
        ('{"devices": true, "efficiency": 1}', "record 1: devices true'"),
        ('{"devices": "8", "efficiency": 0.9}', 'record 1: devices "8"\''),  # text, as the file quoted it
    ],
)
def test_an_efficiency_file_s_bad_value_is_shown_as_the_file_wrote_it(capsys, tmp_path, record, shown):
    """plan --efficiency-file said 'record 1: efficiency None' of a JSON null, 'devices True' of true."""
    path = tmp_path / "e.json"
    path.write_text(f"[{record}]")
    rc, out, err = run(capsys, "plan", "-n", "1e6", "-v", "100", "--efficiency-file", str(path))
    assert rc == 2 and out == "" and f"--efficiency-file: got '{shown}" in err


def test_an_efficiency_file_s_missing_field_is_said_missing_in_both_languages(capsys, tmp_path):
    """A record without its efficiency read 'efficiency None' (Python's word for neither null nor absent)."""
    path = tmp_path / "e.json"
    path.write_text('[{"devices": 8, "efficiency": 0.9}, {"devices": 16}]')
    argv = ["plan", "-n", "1e6", "-v", "100", "--efficiency-file", str(path)]
    assert "got 'record 2: efficiency missing'; allowed: E in (0, 1]" in run(capsys, *argv)[2]
    assert "se recibió 'registro 2: falta efficiency'; se admite: E en (0, 1]" in run(capsys, *argv, "--lang", "es")[2]


def test_an_efficiency_file_s_blank_unit_states_none(capsys, tmp_path):
    """A blank "unit" states none, as in a runs file (9d6fa0f) and a CSV's blank cell: plan refused the file's own
    rate with "allowed: ''". With none stated, its 100 a device is samples/s: 1e6 samples at 8 × 100 × 0.9 a second
    take 1e6 / 720 s = 0.386 h."""
    path = tmp_path / "e.json"
    path.write_text('[{"devices": 1, "efficiency": 1.0, "per_device_throughput": 100, "unit": ""}, '
                    '{"devices": 8, "efficiency": 0.9, "per_device_throughput": 100, "unit": ""}]')  # fmt: skip
    rc, out, err = run(capsys, "plan", "-n", "1e6", "-d", "8", "--efficiency-file", str(path), "--json")
    assert rc == 0, err
    (row,) = json.loads(out)
    assert row["hours"] == pytest.approx(1e6 / 720 / 3600, rel=1e-12)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--help"], "dpscale: error: cannot write the output (No space left on device)"),
        (["--version"], "dpscale: error: cannot write the output (No space left on device)"),
        (
            ["--lang", "es", "--help"],
            "dpscale: error: no se pudo escribir la salida (no queda espacio en el dispositivo)",
        ),  # noqa: E501
    ],
)
def test_the_top_help_and_the_version_that_cannot_be_written_are_one_line(argv, said):
    """A command's output into /dev/full was one line (test_cli_calc); the top help and --version, printed before
    any command runs, were an OSError traceback (found by refactor W's harness)."""
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "dpscale", *argv], stdout=full, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 1 and p.stderr.splitlines() == [said]


def test_validate_s_skip_counts_are_written_as_every_other_count(capsys, tmp_path):
    """'1500 of them without units per sample … (+1497)' beside '1,500 configurations': now 1,500 and +1,497 (1.500
    and +1.497 in Spanish)."""
    head = ("cfg,baseline_devices,grad_accum,grad_accum_known,units_per_sample,system,gpu,gpus_per_node,intra_bw_gbs,"
            "inter_bw_gbs,source,model,framework,hardware,interconnect,precision,per_device_batch,devices,throughput,"
            "unit,params_millions,notes")  # fmt: skip
    rows = [f"c{i},1,1,yes,,dgx-a100,A100,8,300,200,s,m,f,h,i,AMP,32,{d},{100 * d},x/s,25," for i in range(1500)
            for d in (1, 2)]  # fmt: skip
    path = tmp_path / "many.csv"
    path.write_text("\n".join([head, *rows]) + "\n")
    rc, out, err = run(capsys, "validate", str(path))
    assert "1,500 of them without units per sample" in out + err and "(+1,497)" in out + err
    rc, out, err = run(capsys, "validate", str(path), "--lang", "es")
    assert "1.500 de ellas sin unidades por muestra" in out + err and "(+1.497)" in out + err
