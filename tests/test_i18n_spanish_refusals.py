"""Review M (session 43): an audit of the refusals a Spanish user meets. Every CLI refusal the suite drives and ~180
more were replayed under --lang es; these were the ones still partly or wholly in English."""

from __future__ import annotations

import json

import pytest
from clihelp import run

POINT = {"workload": "mlp", "batch": 16, "threads": 1, "steps": 20, "throughput": 100.0}


def _docs(tmp_path, name, *docs):
    """`dpscale measure --json` documents saved one a line: their sizes sit under "points"."""
    f = tmp_path / name
    f.write_text("".join(json.dumps(d) + "\n" for d in docs))
    return str(f)


@pytest.mark.parametrize("command", [["fit"], ["plan", "-n", "1e6", "-d", "8", "--fit"]])
def test_a_measure_json_documents_other_set_up_is_said_in_spanish(tmp_path, capsys, command):
    """Its place reads 'line 2 points[0]', which SAID's 'line N:' did not take: the whole line stayed English."""
    f = _docs(tmp_path, "two_docs.json", {"points": [{**POINT, "devices": 1}]},
              {"points": [{**POINT, "batch": 32, "devices": 2}]})  # fmt: skip
    rc, _, err = run(capsys, *command, f, "--lang", "es")
    assert rc == 2 and len(err.strip().splitlines()) == 1
    assert err.strip().endswith(
        "two_docs.json línea 2 points[0]: un montaje distinto del de la línea 1 (batch 16 → 32); se admite: un "
        "montaje por archivo (los registros de un modelo, lote, backend, dispositivo, pasos, hilos por proceso y "
        "etapa de ZeRO), o uno elegido con --only, p. ej. --only batch=32"
    )
    rc, _, err = run(capsys, *command, f)
    assert rc == 2 and "two_docs.json line 2 points[0]: another set-up than line 1 (batch 16 → 32); allowed: " in err


@pytest.mark.parametrize(
    ("point", "said"),
    [
        ({"devices": "many"}, "línea 2 points[0], campo 'devices': se recibió 'many'; se admite: un número entero"),
        ({"devices": 2, "throughput": -5}, "línea 2 points[0], campo 'throughput': se recibió -5; se admite: un"),
    ],
)
def test_a_measure_json_documents_field_is_named_as_a_runs_lines_field(tmp_path, capsys, point, said):
    """A JSON-lines run's field reads "línea 2, campo 'devices'"; the same field of a `measure --json` document's
    point read 'línea 2 points[0], devices', half English."""
    f = _docs(tmp_path, "docs.json", {"points": [{**POINT, "devices": 1}]}, {"points": [{**POINT, **point}]})
    rc, _, err = run(capsys, "fit", f, "--lang", "es")
    assert rc == 2 and said in err and len(err.strip().splitlines()) == 1


def test_a_runs_line_nested_too_deeply_names_its_line_in_spanish(tmp_path, capsys):
    """'r.jsonl line 2: anidado a demasiada profundidad': the template took the place as a whole, 'line' and all."""
    f = tmp_path / "r.jsonl"
    f.write_text(json.dumps({"devices": 1, "throughput": 100}) + "\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    for command in (["fit"], ["plan", "-n", "1e6", "--fit"]):
        rc, _, err = run(capsys, *command, str(f), "--lang", "es")
        assert rc == 2 and err.strip().endswith(
            "r.jsonl línea 2: anidado a demasiada profundidad; se admite: un objeto JSON por línea"
        )
        rc, _, err = run(capsys, *command, str(f))
        assert rc == 2 and err.strip().endswith("r.jsonl line 2: nested too deeply; allowed: one JSON object per line")


SYSTEM = {"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 100}


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"cpu_cores": -4}, "sys.json: sistema 'custom': cpu_cores: se recibió -4; se admite: los núcleos de CPU"),
        ({"inter_link": 5}, "sys.json: sistema 'custom': inter_link: se recibió 5; se admite: el nombre de una red"),
        ({"intra_link": "pcie-4"}, "sys.json: sistema 'custom': intra_link 'pcie-4'; se admite: uno de los enlaces"),
    ],
)
def test_a_system_files_refusals_name_the_system_in_spanish(tmp_path, capsys, fields, said):
    """The catalog's own refusals of a --system-file said "sistema 'a'"; predict's of the same file kept "system
    'custom'" in the middle of the Spanish line."""
    f = tmp_path / "sys.json"
    f.write_text(json.dumps({**SYSTEM, **fields}))
    argv = ["predict", "--params", "1e8", "--step-time", "0.1", "-d", "8", "--system-file", str(f)]
    rc, _, err = run(capsys, *argv, "--lang", "es")
    assert rc == 2 and said in err and "system '" not in err
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and "sys.json: system 'custom': " in err  # English as it was


def test_the_warnings_plan_relays_from_a_fit_file_are_said_in_spanish(tmp_path, capsys):
    """`fit --json` keeps its warnings as English text (the JSON is machine output); `plan --efficiency-file
    --lang es` printed them so: 'nota: fit.json advierte: extrapolating to 128; 256 devices, beyond 4× …'."""
    runs = tmp_path / "runs.csv"
    runs.write_text("devices,throughput\n8,800\n16,1500\n32,2800\n64,5000\n")
    rc, out, _ = run(capsys, "fit", str(runs), "--at", "8..1024x2", "--json")
    (tmp_path / "fit.json").write_text(out)
    assert rc == 0 and len(json.loads(out)["warnings"]) == 3  # law choice, unseen transfer, extrapolation
    rc, out, err = run(capsys, "plan", "-n", "1.28e6", "--efficiency-file", str(tmp_path / "fit.json"), "--lang", "es")
    relayed = [line for line in (out + err).splitlines() if "fit.json" in line]
    assert rc == 0 and relayed == [
        "nota: fit.json advierte: los intervalos de predicción combinan por igual las leyes allreduce, usl y amdahl: "
        "los tamaños medidos no descartan usl y amdahl (su desajuste no se distingue del de la ley allreduce dentro "
        "del ruido), así que qué ley vale más allá de ellos es parte de la incertidumbre; lo mismo vale para los "
        "intervalos del máximo y de los dispositivos necesarios; los valores centrales y los parámetros son de la ley "
        "allreduce; --law allreduce da los intervalos, más estrechos, de una sola ley",
        "nota: fit.json advierte: allreduce: el parámetro transferencia es igual en todos los tamaños medidos desde "
        "d0 = 8, así que E relativa a d0 no lo ve — no se estima (n/d) y queda dentro del tiempo de cómputo; mida un "
        "dispositivo para separarlo",
        "nota: fit.json advierte: extrapolando a 512 y 1.024 dispositivos, más de 4× el mayor tamaño medido (64): "
        "ahí la ley es una suposición — mida más cerca antes de comprar",
    ]
    rc, out, _ = run(capsys, "plan", "-n", "1.28e6", "--efficiency-file", str(tmp_path / "fit.json"))
    assert rc == 0 and "note: fit.json warns: extrapolating to 512 and 1,024 devices, beyond 4× the largest" in out


def test_a_warning_that_is_no_note_of_the_library_is_relayed_as_written():
    """A file's warning edited by hand (or from another version) is no note to say again: it passes unchanged,
    rather than as a Spanish note with the wrong figures."""
    from dpscale.faces.i18n import say_text
    from dpscale.notes import Note

    note = Note("extrapolating", sizes="512; 1,024", factor=4, top=64)
    assert say_text(str(note), "es").startswith("extrapolando a 512 y 1.024 dispositivos, más de 4× el mayor")
    # in English the note is said as a person reads it too: its '512; 1,024' listed as a sentence lists sizes
    assert say_text(str(note), "en") == str(note).replace("512; 1,024", "512 and 1,024") != str(note)
    edited = str(note).replace("(64)", "(sixty-four)")
    assert say_text(edited, "es") == edited and say_text(edited, "en") == edited
    assert say_text("check the cables", "es") == "check the cables"


def test_a_model_files_find_unused_parameters_is_refused_in_spanish(tmp_path, capsys):
    """`measure --model-file m.py --lang es` with FIND_UNUSED_PARAMETERS = 'yes' said the whole line in English."""
    pytest.importorskip("torch")
    f = tmp_path / "m.py"
    f.write_text("FIND_UNUSED_PARAMETERS = 'yes'\n\ndef build_model():\n    pass\n\ndef make_batch(b, g):\n    pass\n")
    rc, _, err = run(capsys, "measure", "--model-file", str(f), "-d", "1", "--lang", "es")
    assert rc == 2 and err.strip() == (
        f"dpscale measure: error: --model-file: {f} fija FIND_UNUSED_PARAMETERS = 'yes'; se admite: True o False"
    )
    rc, _, err = run(capsys, "measure", "--model-file", str(f), "-d", "1")
    assert rc == 2 and err.strip().endswith("sets FIND_UNUSED_PARAMETERS = 'yes'; allowed: True or False")


# Review 44 (A): small user-facing defects found by hand, each pinned by what the user sees.


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


@pytest.mark.parametrize("cmd", [["fit"], ["plan", "-n", "1e6", "--fit"]])
def test_only_s_keys_are_quoted_alike(capsys, tmp_path, cmd):
    """--only's refusal listed the record's keys bare but for one, 'device, `steps`, threads': each key is quoted as
    the record writes it, the whole list alike; the flag, the value and what is allowed all stay."""
    runs = tmp_path / "runs.jsonl"
    runs.write_text('{"devices": 1, "throughput": 100}\n{"devices": 2, "throughput": 190}\n')
    rc, _, err = run(capsys, *cmd, str(runs), "--only", "workload", "--lang", "es")
    assert rc == 2 and err.strip().endswith(
        "error: --only: se recibió 'workload'; se admite: CLAVE=VALOR con CLAVE una de las del registro (`workload`, "
        "`params`, `batch`, `backend`, `device`, `steps`, `threads`, `zero`; p. ej. workload=cnn)"
    )


# Whole-module mutation pass of faces/i18n: refusals whose Spanish words no test read.


def test_a_solved_throughput_past_any_magnitude_is_named_in_spanish(capsys):
    """_said's solved quantities ('per_device_throughput' dropped from them): 'per_device_throughput: sale 1e+308'
    kept the library's name inside the Spanish line, where efficiency's is said 'eficiencia de escalado E'."""
    rc, out, err = run(capsys, "calc", "-d", "2", "-e", "0.5", "-a", "1e308", "--lang", "es")
    said = "rendimiento por dispositivo: sale 1e+308 con estas entradas; se admite: magnitudes realistas"
    assert (rc, out, err) == (2, "", f"dpscale calc: error: {said}\n")


def test_an_efficiency_files_repeated_size_is_said_repeated_in_spanish(capsys, tmp_path):
    """say_error's record words (the ' again' → ' repetido' branch forced off): 'registro 2: devices 8' read as a
    record merely named, not one giving size 8 a second time."""
    f = tmp_path / "twice.json"
    f.write_text('[{"devices": 8, "efficiency": 0.9}, {"devices": 8, "efficiency": 0.8}]')
    rc, _, err = run(capsys, "plan", "-n", "1e9", "-v", "150", "--efficiency-file", str(f), "--lang", "es")
    assert rc == 2 and err == (
        "dpscale plan: error: --efficiency-file: se recibió 'registro 2: devices 8 repetido'; se admite: una E por "
        "tamaño\n"
    )


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["predict", "--model", "o'neil"], "--model: se recibió \"o'neil\"; se admite: bert-base, "),
        (["memory", "--gpu", "a'b"], "--gpu: se recibió \"a'b\"; se admite: a100-40gb, "),
        (["predict", "--model", "gpt2", "-d", "8", "--system-file", "John's/s.json"],
         "--system-file: se recibió \"John's/s.json\"; se admite: un archivo JSON legible (no existe)"),
        (["calc", "--law", "a'\"b"], "--law: se recibió 'a\\'\"b'; se admite: constant, amdahl, usl (vea --help)"),
        (["measure", "a'\"b"], "modo: se recibió 'a\\'\"b'; se admite: allreduce, equivalence (vea --help)"),
        (["fit", "--law", "it's"], "--law: se recibió \"it's\"; se admite: auto, allreduce, usl, amdahl (vea --help)"),
    ],
)  # fmt: skip
def test_a_value_holding_a_quote_is_refused_in_spanish(capsys, argv, said):
    """Review FP: a value with an apostrophe is echoed in double quotes ("o'neil"), one with both quotes as 'a\\'"b',
    and SAID's '…' patterns read neither: those refusals stayed wholly English under --lang es."""
    rc, _, err = run(capsys, *argv, "--lang", "es")
    assert rc == 2 and len(err.strip().splitlines()) == 1
    assert said in err, err


SYSTEM = {"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 25}


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"gpus_per_node": 8.5}, 'sistema "bob\'s": gpus_per_node 8.5; se admite: un número entero ≥ 1'),
        ({"gpu": "zz9"}, "sistema \"bob's\": gpu 'zz9'; se admite: a100-40gb, "),
        ({"cpu_core": 4}, "sistema \"bob's\": clave 'cpu_core' (¿quería decir 'cpu_cores'?)"),
        ({"cpu_cores": -3}, 'sistema "bob\'s": cpu_cores: se recibió -3; se admite: los núcleos de CPU'),
    ],
)
def test_a_system_named_with_an_apostrophe_is_refused_in_spanish(tmp_path, capsys, fields, said):
    """Review FV: the quoted-value fix set aside only the value after 'got '; a --system-file's system is named
    before it, as Python writes it ("bob's"), and SAID's system '…' took only '…': the whole line stayed English
    ('system "bob's": gpus_per_node 8.5; allowed: a whole number ≥ 1')."""
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"systems": {"bob's": {**SYSTEM, **fields}}}))
    rc, _, err = run(capsys, "predict", "--model", "gpt2", "-d", "8", "--system-file", str(f), "--lang", "es")
    assert rc == 2 and len(err.strip().splitlines()) == 1
    assert said in err, err


def test_one_file_named_twice_with_apostrophes_is_refused_in_spanish(tmp_path, capsys, monkeypatch):
    """Review FV: 'got X and Y' holds two typed values; only the first was set aside, so `validate "a's.csv"
    "./a's.csv" --lang es` said 'DATA.csv: got "a's.csv" and "./a's.csv", one file twice' in English."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a's.csv").write_text("cfg\n")
    (tmp_path / "b.csv").write_text("cfg\n")
    rc, _, err = run(capsys, "validate", "a's.csv", "./a's.csv", "--lang", "es")
    assert rc == 2 and 'DATA.csv: se recibieron "a\'s.csv" y "./a\'s.csv", un mismo archivo dos veces' in err, err
    rc, _, err = run(capsys, "validate", "b.csv", "./b.csv", "--lang", "es")  # a plain name: as it was
    assert rc == 2 and "DATA.csv: se recibieron 'b.csv' y './b.csv', un mismo archivo dos veces" in err, err


@pytest.mark.parametrize(("gpu", "said"), [("standard input's", '"standard input\'s"'),
                                           ("standard input", "'standard input'")])  # fmt: skip
def test_a_typed_value_naming_standard_input_is_echoed_as_typed(capsys, gpu, said):
    """Review GA: the piped file's name was swapped for a token before the typed values were set aside, so a --gpu
    typed "standard input's" came back as '"\\x00stdin\\x00's"' under --lang es, and one typed 'standard input' as
    'entrada estándar' — the user's value, translated."""
    rc, _, err = run(capsys, "predict", "--model", "gpt2-xl", "--system", "dgx-a100", "--gpu", gpu, "--lang", "es")
    assert rc == 2 and len(err.strip().splitlines()) == 1
    assert f"--gpu: se recibió {said}; se admite: a100-40gb" in err and "\x00" not in err, err
