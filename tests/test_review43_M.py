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
