"""Hostile inputs a second outside fuzzing round (session 37, ~46,700 cases) found ending in a traceback or a
silent wrong answer: each is one line and exit 2 now, in both languages where the command speaks Spanish."""

from __future__ import annotations

import pytest
from clihelp import run


def test_a_system_file_with_a_5000_digit_number_is_one_line(capsys, tmp_path):
    """json reads the digits, then int() past Python's 4,300-digit limit raised a ValueError traceback (exit 1)."""
    path = tmp_path / "s.json"
    path.write_text('{"gpus_per_node": 8' + "0" * 5000 + ', "intra_bw_gbs": 300, "inter_bw_gbs": 200}')
    for lang, said in (("en", "a number too long to read"), ("es", "un número demasiado largo")):
        rc, _, err = run(
            capsys, "predict", "--model", "bert-large", "--system-file", str(path), "-d", "8", "--lang", lang
        )
        assert rc == 2 and said in err and len(err.strip().splitlines()) == 1, err


def test_measure_refuses_an_out_file_nested_200000_deep_before_any_rank(capsys, tmp_path):
    """[[[…]]] 200,000 deep: RecursionError out of json.loads in the --out checks (exit 1), train and allreduce."""
    path = tmp_path / "d.jsonl"
    path.write_text("[" * 200_000 + "]" * 200_000 + "\n")
    rc, _, err = run(capsys, "measure", "-d", "1", "--out", str(path))
    assert rc == 2 and "is not a `dpscale measure` record" in err and len(err.strip().splitlines()) == 1
    rc, _, err = run(capsys, "measure", "allreduce", "-d", "2", "--out", str(path))
    assert rc == 2 and "something other than a calibration" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("threads", ["[1]", "{}", '"abc"', "null", "-1", "0", "1.5", "true", "1e9", "5000"])
def test_an_earlier_records_threads_are_checked_before_any_rank(capsys, tmp_path, threads):
    """A later run of the same setup takes an earlier record's threads: [1] raised 'unhashable', -1 and 1.5 crashed
    a rank in set_num_threads, 0 was said as '0 thread(s)' and then run on 2."""
    path = tmp_path / "t.jsonl"
    rec = '{"devices": 1, "throughput": 100, "workload": "mlp", "batch": 2, "steps": 2, "device": "cpu", "threads": '
    path.write_text(rec + threads + "}\n")
    rc, out, err = run(capsys, "measure", "-d", "1", "--steps", "2", "--warmup", "0", "-b", "2", "--out", str(path))
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "line 1: threads: got " in err and "allowed: a whole number of threads a rank, 1 to 4,096" in err
    rc, _, err = run(capsys, "measure", "-d", "1", "-b", "2", "--out", str(path), "--lang", "es")
    assert rc == 2 and "se admite: un número entero de hilos por proceso, de 1 a 4.096" in err


@pytest.mark.parametrize("body, line", [('1,100\n2,190\n4,"350\n', 4), ('1,100\n2,"190\n4,350\n', 3)])
def test_fit_refuses_a_quote_left_open_on_its_line(capsys, tmp_path, body, line):
    """csv read the lines as one stream without strict: 4,"350 at the end fitted 350 (exit 0), and 2,"190 glued
    the next line into its cell ('1904,350', blamed on a decimal comma)."""
    path = tmp_path / "u.csv"
    path.write_text("devices,throughput\n" + body)
    rc, out, err = run(capsys, "fit", str(path))
    said = f"u.csv line {line}: a quote opened on this line does not close on it; allowed: quotes in pairs"
    assert rc == 2 and out == "" and said in err and len(err.strip().splitlines()) == 1
    rc, _, err = run(capsys, "fit", str(path), "--lang", "es")
    assert rc == 2 and f"u.csv línea {line}: unas comillas abiertas en esta línea no se cierran en ella" in err


def test_csvs_own_reasons_are_said_in_spanish(capsys, tmp_path):
    """'no es una fila CSV legible (',' expected after '"')': the csv module's words stayed English."""
    path = tmp_path / "r.jsonl"
    path.write_text('{"devices":1,"throughput":100}\n')
    rc, _, err = run(capsys, "validate", str(path), "--lang", "es")
    assert rc == 2 and err.strip().endswith("r.jsonl línea 1: no es una fila CSV legible (se esperaba ',' tras '\"')")
    (tmp_path / "q.csv").write_text('devices,throughput\n1,100\n2,"19"0\n')
    rc, _, err = run(capsys, "fit", str(tmp_path / "q.csv"), "--lang", "es")
    assert rc == 2 and err.strip().endswith("q.csv línea 3: no es una fila CSV legible (se esperaba ',' tras '\"')")
