"""Review 44 (A): small user-facing defects found by hand, each pinned by what the user sees."""

from __future__ import annotations

import json

import pytest
from clihelp import run


@pytest.mark.parametrize(
    "law",
    [
        ["--law", "amdahl", "--serial-fraction", "0.1"],
        ["--law", "usl", "--sigma", "0.1", "--kappa", "0.01"],
        ["-e", "0.5"],
    ],
)
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "devices: ∞ needed; allowed: at most 10,000,000"),
        ("es", "dispositivos: harían falta ∞; se admite: como mucho 10.000.000"),
    ],
)
def test_a_target_past_floating_point_is_refused_as_devices_needed_under_a_law_too(capsys, law, lang, said):
    """--actual 1e300 at 1e-300/s per device is a speedup of inf: under a law the search said the target back as
    '--actual inf/s (speedup inf)', a figure the user never typed; a constant E already said '∞ needed'."""
    rc, out, err = run(capsys, "calc", "-v", "1e-300", "--actual", "1e300", *law, "--lang", lang)
    assert rc == 2 and not out and err.count("\n") == 1 and said in err and "inf" not in err


@pytest.mark.parametrize(
    ("more", "asked"),
    [
        (["-d", "1..16", "--intra-bw", "100"], "--inter-bw: missing"),  # two 8-GPU nodes: the network is crossed
        (["-d", "1", "--baseline-devices", "2"], "--intra-bw, --inter-bw: missing"),  # a baseline of 2 uses a link
        (["-d", "2"], "--intra-bw, --inter-bw: missing"),
    ],
)
def test_sizes_past_one_device_still_ask_for_the_links_they_cross(capsys, more, asked):
    """Only one device alone goes without them (sizes and baseline)."""
    rc, out, err = run(capsys, "predict", "--gpus-per-node", "8", "--model", "bert-base", "-v", "100", *more)
    assert rc == 2 and not out and err.count("\n") == 1 and asked in err


@pytest.mark.parametrize("b", ["1.0", "01", " 1", "1e0"])
def test_a_micro_batch_of_one_however_written_is_the_default_without_a_transformer(capsys, b):
    """memory compared --micro-batch with the text '1': '1.0' or '01' on a model without layer shapes was refused
    as a micro-batch the states-only count would ignore. It is the number that counts."""
    rc, out, err = run(capsys, "memory", "--model", "resnet50", "--micro-batch", b, "--json")
    assert rc == 0 and "error" not in err
    assert json.loads(out) == json.loads(run(capsys, "memory", "--model", "resnet50", "--json")[1])


@pytest.mark.parametrize(
    ("b", "said"),
    [
        ("2", "--micro-batch: activations need a transformer --model preset"),
        ("0", "--micro-batch: got '0'; allowed: a whole number from 1 to 1,000,000"),  # not 'leave these out'
    ],
)
def test_a_micro_batch_other_than_one_is_still_refused_without_a_transformer(capsys, b, said):
    rc, out, err = run(capsys, "memory", "--model", "resnet50", "--micro-batch", b)
    assert rc == 2 and not out and err.count("\n") == 1 and said in err


@pytest.fixture
def tokens_files(tmp_path):
    """Runs and an efficiency file that state tokens/s."""
    runs = tmp_path / "tok.csv"
    runs.write_text("devices,throughput,unit\n1,1000,tokens/s\n2,1900,tokens/s\n4,3500,tokens/s\n")
    eff = tmp_path / "tok.json"
    rows = [
        {"devices": d, "efficiency": e, "per_device_throughput": 1000, "unit": "tokens/s"}
        for d, e in ((1, 1), (8, 0.9))
    ]
    eff.write_text(json.dumps(rows))
    return {"--fit": runs, "--efficiency-file": eff}


@pytest.mark.parametrize("source", ["--fit", "--efficiency-file"])
def test_plan_says_its_default_unit_was_not_typed_when_a_file_states_another(capsys, tokens_files, source):
    """plan --fit (or --efficiency-file) with tokens/s records and no --unit said "--unit: got 'samples/s'", a value
    the user never typed: it is plan's default, and the line says so (a typed one is still said as typed)."""
    argv = ["plan", source, str(tokens_files[source]), "-n", "1e6", "-d", "8"]
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and not out and err.count("\n") == 1
    assert "--unit: not typed (plan's default 'samples/s'); allowed: 'tokens/s', the unit " in err and "got" not in err
    rc, _, err = run(capsys, *argv, "--lang", "es")
    assert rc == 2 and "--unit: no se indicó (la de plan por defecto es 'samples/s'); se admite: 'tokens/s'" in err
    rc, _, err = run(capsys, *argv, "--unit", "samples/s")
    assert rc == 2 and "--unit: got 'samples/s'; allowed: 'tokens/s'" in err
    rc, out, err = run(capsys, *argv, "--unit", "Tokens/s", "--json")
    assert rc == 0 and json.loads(out)[0]["devices"] == 8, err


def test_json_lines_read_a_unit_in_another_case_as_one_unit_as_a_csv_does(capsys, tmp_path):
    """Runs whose unit differs only in case or spaces ('samples/s', 'Samples/s', ' samples/s') were one unit in a
    CSV but refused as mixed units in JSON lines. Both now fit them, to the same answer; tokens/s beside samples/s
    is still refused."""
    runs = [(1, 1000, "samples/s"), (2, 1900, "Samples/s"), (4, 3500, " samples/s")]
    lines = tmp_path / "runs.jsonl"
    lines.write_text("".join(json.dumps({"devices": d, "throughput": x, "unit": u}) + "\n" for d, x, u in runs))
    table = tmp_path / "runs.csv"
    table.write_text("devices,throughput,unit\n" + "".join(f"{d},{x},{u}\n" for d, x, u in runs))
    rc, from_lines, err = run(capsys, "fit", str(lines), "--json")
    assert rc == 0, err
    rc, from_table, err = run(capsys, "fit", str(table), "--json")
    assert rc == 0, err
    assert json.loads(from_lines)["unit"] == json.loads(from_table)["unit"] == "samples/s"
    assert json.loads(from_lines)["predictions"] == json.loads(from_table)["predictions"]
    lines.write_text('{"devices": 1, "throughput": 10, "unit": "samples/s"}\n'
                     '{"devices": 2, "throughput": 19, "unit": "tokens/s"}\n')  # fmt: skip
    rc, out, err = run(capsys, "fit", str(lines))
    assert rc == 2 and "line 2: unit 'tokens/s' against 'samples/s' on line 1; allowed: one throughput unit" in err


@pytest.mark.parametrize(
    ("body", "said"),
    [('{"a": "\\q"}', "secuencia de escape no válida"), ('{"a": "\\u12"}', "escape \\uXXXX no válido")],
)
@pytest.mark.parametrize(
    "argv",
    [
        ["predict", "-d", "8", "--model", "bert-base", "-v", "100", "--system-file"],
        ["plan", "-n", "1e6", "--efficiency-file"],
        ["fit"],
    ],
)
def test_json_escape_errors_are_said_in_spanish_with_their_line(capsys, tmp_path, body, said, argv):
    """A bad escape in a JSON file put json's English ('Invalid \\escape') inside the Spanish line."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"devices": 1, "throughput": 10}\n' + body + "\n" if argv == ["fit"] else "{\n" + body[1:] + "\n")
    rc, out, err = run(capsys, *argv, str(bad), "--lang", "es")
    assert rc == 2 and not out and err.count("\n") == 1
    assert (
        f"bad.json línea 2: no es JSON{' válido' if argv == ['fit'] else ''} ({said})" in err and "Invalid" not in err
    )


@pytest.mark.parametrize(
    ("reason", "said"),
    [
        ("Illegal trailing comma before end of object", "coma sobrante antes del final del objeto"),
        ("Illegal trailing comma before end of array", "coma sobrante antes del final de la lista"),
    ],
)
def test_python_313_trailing_comma_reasons_are_said_in_spanish(reason, said):
    """Python 3.13's json names a trailing comma so (3.11 says 'Expecting value'); the file's line stays."""
    from dpscale.errors import DpscaleError
    from dpscale.faces.i18n import say_error

    got = say_error(DpscaleError(f"--system-file: s.json line 3: not JSON ({reason})"), "es")
    assert got == f"--system-file: s.json línea 3: no es JSON ({said})"
