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


@pytest.mark.parametrize("threads", ["[1]", "{}", '"abc"', "null", "-1", "0", "1.5", "true", "1e9", "1025"])
def test_an_earlier_records_threads_are_checked_before_any_rank(capsys, tmp_path, threads):
    """A later run of the same setup takes an earlier record's threads: [1] raised 'unhashable', -1 and 1.5 crashed
    a rank in set_num_threads, 0 was said as '0 thread(s)' and then run on 2."""
    path = tmp_path / "t.jsonl"
    rec = '{"devices": 1, "throughput": 100, "workload": "mlp", "batch": 2, "steps": 2, "device": "cpu", "threads": '
    path.write_text(rec + threads + "}\n")
    rc, out, err = run(capsys, "measure", "-d", "1", "--steps", "2", "--warmup", "0", "-b", "2", "--out", str(path))
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "line 1, threads: got " in err and "allowed: a whole number of threads a rank, 1 to 1,024" in err
    rc, _, err = run(capsys, "measure", "-d", "1", "-b", "2", "--out", str(path), "--lang", "es")
    assert rc == 2 and "se admite: un número entero de hilos por proceso, de 1 a 1.024" in err


@pytest.mark.parametrize("body, line", [('1,100\n2,190\n4,"350\n', 4), ('1,100\n2,"190\n4,350\n', 3)])
def test_fit_refuses_a_quote_left_open_on_its_line(capsys, tmp_path, body, line):
    """csv read the lines as one stream without strict: 4,"350 at the end fitted 350 (exit 0), and 2,"190 glued
    the next line into its cell ('1904,350', blamed on a decimal comma)."""
    path = tmp_path / "u.csv"
    path.write_text("devices,throughput\n" + body)
    rc, out, err = run(capsys, "fit", str(path))
    said = f"u.csv line {line}: a quote opened on this line does not close before the file ends; allowed: quotes in"
    assert rc == 2 and out == "" and said in err and len(err.strip().splitlines()) == 1
    rc, _, err = run(capsys, "fit", str(path), "--lang", "es")
    assert (
        rc == 2
        and f"u.csv línea {line}: unas comillas abiertas en esta línea no se cierran antes del final del archivo" in err
    )


def test_csvs_own_reasons_are_said_in_spanish(capsys, tmp_path):
    """'no es una fila CSV legible (',' expected after '"')': the csv module's words stayed English."""
    path = tmp_path / "r.jsonl"
    path.write_text('{"devices":1,"throughput":100}\n')
    rc, _, err = run(capsys, "validate", str(path), "--lang", "es")
    assert rc == 2 and err.strip().endswith("r.jsonl línea 1: no es una fila CSV legible (se esperaba ',' tras '\"')")


def test_a_field_given_twice_in_json_is_refused_wherever_runs_or_e_are_read(capsys, tmp_path):
    """json keeps the last of two keys without a word: plan ran on E = 0.1 of '"efficiency": 0.9, "efficiency":
    0.1', fit read devices 2 of '"devices": 1, "devices": 2'. The system file already refused it."""
    twice = "allowed: each field once (this one is given twice)"
    (tmp_path / "e.json").write_text(
        '{"predictions": [{"devices": 1, "efficiency": 1}, {"devices": 8, "efficiency": 0.9, "efficiency": 0.1}]}'
    )
    rc, out, err = run(capsys, "plan", "-n", "1e6", "-v", "100", "--efficiency-file", str(tmp_path / "e.json"))
    assert rc == 2 and out == "" and f"e.json: got 'efficiency'; {twice}" in err
    (tmp_path / "f.jsonl").write_text(
        '{"devices": 1, "throughput": 100}\n{"devices": 2, "devices": 4, "throughput": 1}\n'
    )
    rc, out, err = run(capsys, "fit", str(tmp_path / "f.jsonl"))
    assert rc == 2 and out == "" and f"f.jsonl line 2: got 'devices'; {twice}" in err
    (tmp_path / "g.json").write_text('{"points": [{"devices": 1, "throughput": 100, "throughput": 10}]}')
    rc, _, err = run(capsys, "fit", str(tmp_path / "g.json"), "--lang", "es")
    assert rc == 2 and "g.json: se recibió 'throughput'; se admite: cada campo una sola vez" in err
    rc, _, err = run(capsys, "measure", "-d", "1", "--out", str(tmp_path / "f.jsonl"))  # before any rank starts
    assert rc == 2 and f"f.jsonl line 2: got 'devices'; {twice}" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv, said", [
    # 3,600 s on one device against 59.99 min = 0.999833 h: both read '1.0 h'; the size was sharpened, the limit not
    (["-n", "360000", "--deadline", "59.99m"],
     "the table rounds these times to the 0.999833 h deadline they miss: 1 — 1.0000 h"),
    (["-n", "360000", "--deadline", "29.99m"],
     "no size meets the 29.99 min deadline; the fastest is 2 devices at 30.00 min"),
    (["-n", "3.6e6", "--price-per-device-hour", "2", "--budget", "19.999"],
     "the table rounds these costs to the budget of 19.999 they exceed: 1 — 20.000, 2 — 20.000"),
    (["-n", "3.6e6", "--price-per-device-hour", "2", "--budget", "19.999"],
     "no size stays within the budget of 19.999"),
])  # fmt: skip
def test_a_missed_limit_is_said_in_the_digits_that_part_it_from_the_figures(capsys, argv, said):
    """The deadline or budget printed in the table's digits read as the figure it is missed by ('1.0 h deadline
    they miss: 1 — 1.0000 h', 'budget of 10.00 … 10.000' for a typed 9.999)."""
    rc, out, _ = run(capsys, "plan", "-v", "100", "-e", "1", "-d", "1,2", *argv)
    assert rc == 0 and f"note: {said}\n" in out


def test_a_met_deadline_keeps_the_tables_digits(capsys):
    rc, out, _ = run(capsys, "plan", "-n", "360000", "-v", "100", "-e", "1", "-d", "1,2", "--deadline", "1h")
    assert rc == 0 and "cheapest size meeting the 1.0 h deadline: 2 — 30.0 min" in out


def test_a_system_files_cpu_cores_of_8_0_is_8(capsys, tmp_path):
    """'cpu_cores: got 8; allowed: … a whole number' refused 8.0 (as nics and gpus_per_node took it since
    f9b00de); read as 8, the decode note says 8 cores: 125 images/s a core, 1,000 for the node's 8 × 300."""
    fields = '{"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 200, "cpu_cores": '
    said = []
    for cores in ("8.0", "8"):
        (tmp_path / "c.json").write_text(fields + cores + "}")
        argv = ["predict", "--model", "resnet-50", "-v", "300", "--system-file", str(tmp_path / "c.json"), "-d", "8,16"]
        rc, out, _ = run(capsys, *argv)
        assert rc == 0 and "2,400 images/s; decoding JPEGs on its 8 CPU cores tops out near 1,000" in out
        said.append(out)
    assert said[0] == said[1]
    (tmp_path / "c.json").write_text(fields + "8.5}")
    rc, _, err = run(capsys, "predict", "--model", "resnet-50", "-v", "300", "--system-file", str(tmp_path / "c.json"))
    assert rc == 2 and "cpu_cores: got 8.5; allowed: the host's CPU cores, a whole number" in err


def test_an_edited_baselines_throughput_is_refused_before_any_rank(capsys, tmp_path):
    """measure writes throughput = devices × batch / step_time (1 × 2 / 0.02 = 100); a record with 1e-9 typed over
    it was the next run's baseline: E = 1.6e11 (1.6e13 %) printed and appended at exit 0."""
    from dpscale.sources.measure.results import check_records

    rec = '{"devices": 1, "batch": 2, "step_time": 0.02, "workload": "mlp", "steps": 2, "device": "cpu", "throughput": '
    check_records(rec + "100.0}\n", "train", "--out r.jsonl")  # as written: no refusal
    check_records(rec + "100.00001}\n", "train", "--out r.jsonl")  # float noise of a JSON round trip passes
    # an older writer's median of two repeats' rates beside the median step (640 against 600): no edit
    older = rec.replace('"batch": 2, "step_time": 0.02', '"batch": 8, "step_time": 0.0133333')
    check_records(older + "640}\n", "train", "--out r.jsonl")
    (tmp_path / "r.jsonl").write_text(rec + "1e-9}\n")
    rc, out, err = run(capsys, "measure", "-d", "1", "-b", "2", "--out", str(tmp_path / "r.jsonl"))
    said = "r.jsonl line 1, throughput: got 1e-09; allowed: devices × batch / step_time, as `dpscale measure` wrote"
    assert rc == 2 and out == "" and said in err and len(err.strip().splitlines()) == 1
    rc, _, err = run(capsys, "measure", "-d", "1", "-b", "2", "--out", str(tmp_path / "r.jsonl"), "--lang", "es")
    assert rc == 2 and "como lo escribió `dpscale measure` (el registro se editó: corríjalo o quite la línea)" in err
    assert "r.jsonl línea 1, campo 'throughput': se recibió 1e-09" in err  # as fit says a file's field


def test_the_library_refuses_odd_values_by_name():
    """numpy's True as a ZeRO stage (True itself was refused), Decimal('sNaN') (decimal.InvalidOperation), times
    and dates as counts (timedelta64 is an integer to numbers.Real: 8 s raised TypeError, a unitless 8 ran as 8
    devices; datetime64('2020') was a deadline of 2,020 hours) and arrays of two lengths (numpy's 'could not be
    broadcast', naming no input)."""
    from decimal import Decimal

    import numpy as np

    import dpscale
    from dpscale.errors import DpscaleError

    cases = [
        (lambda: dpscale.model_states(7.5e9, 64, np.bool_(True)), "stage: got True; allowed: 0, 1, 2 or 3"),
        (lambda: dpscale.model_states(7.5e9, 64, Decimal("sNaN")), "stage: got sNaN; allowed: 0, 1, 2 or 3"),
        (lambda: dpscale.scale(np.timedelta64(8, "s"), 100, 0.9), "devices: got 8 seconds; allowed: a number, not"),
        (lambda: dpscale.scale(np.timedelta64(8), 100, 0.9), "allowed: a number, not a time or a date"),
        (lambda: dpscale.parse_duration(np.datetime64("2020")), "deadline: got 2020; allowed: a duration > 0 such as"),
        (lambda: dpscale.parse_duration(None), "deadline: got None; allowed: a duration > 0 such as 24h"),
        (lambda: dpscale.time_to_target_speedup([1, 8], [32, 64, 128], 1e4, 0.9),
         "devices, per_device_batch, noise_scale: lengths 2, 3, a number; allowed: arrays of one length"),
        (lambda: dpscale.scaled_lr(0.1, [256, 512], [1024, 2048, 4096]),
         "base_lr, base_batch, batch: lengths a number, 2, 3"),
        (lambda: dpscale.critical_batch([64, 128], [1e3, 2e3, 4e3], 100), "batch, noise_scale: lengths 2, 3"),
    ]  # fmt: skip
    for call, said in cases:
        with pytest.raises(DpscaleError) as exc:
            call()
        assert said in str(exc.value)
    assert dpscale.model_states(7.5e9, 64, np.int64(1)) == dpscale.model_states(7.5e9, 64, 1)  # numpy's ints stay
    assert dpscale.scaled_lr(0.1, 256, [512, 1024]).tolist() == pytest.approx([0.2, 0.4])  # a number beside a list
    assert dpscale.parse_duration(np.float64(2.5)) == 2.5


def test_fit_reads_a_header_behind_a_second_byte_order_mark(capsys, tmp_path):
    """The first mark is dropped on reading; a second stayed in 'devices' and read 'missing column(s) devices
    (found devices, throughput)' (validate already dropped it)."""
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbfdevices,throughput\n1,100\n2,190\n4,350\n")
    rc, out, err = run(capsys, "fit", str(path), "--law", "amdahl", "--json")
    assert rc == 0 and '"baseline_devices": 1' in out, err


def test_a_deadline_with_a_decimal_comma_is_told_the_point(capsys):
    """--efficiency 0,9 said 'with a decimal point (0.9)'; --deadline 1,5 only the generic duration forms."""
    rc, _, err = run(capsys, "plan", "-n", "1e6", "-v", "100", "-e", "0.9", "--deadline", "1,5h", "--lang", "es")
    assert rc == 2 and err.strip().endswith("u horas como número simple, con punto decimal (1.5h, no 1,5h)")
    rc, _, err = run(capsys, "plan", "-n", "1e6", "-v", "100", "-e", "0.9", "--deadline", "1,5")
    assert rc == 2 and err.strip().endswith("or hours as a plain number, with a decimal point (1.5h, not 1,5h)")


@pytest.mark.parametrize("body", [
    '"name" ,devices,throughput\n"a" ,1,100\n"b" ,2,190\n"c" ,4,350\n',  # a space after a closing quote
    'devices,throughput,note\n1,100,"first\nrun"\n2,190,x\n4,350,y\n',  # a quoted cell over two lines (RFC 4180)
    "devices,throughput\n1,100\n2,190\n4,350\n#,\"open\n",  # a quote inside a comment
])  # fmt: skip
def test_csvs_the_line_reader_refused_are_read_again(capsys, tmp_path, body):
    """A review of the line-at-a-time reader: it refused these, which fitted before it (and are fine)."""
    (tmp_path / "r.csv").write_text(body)
    rc, out, err = run(capsys, "fit", str(tmp_path / "r.csv"), "--law", "amdahl", "--json")
    assert rc == 0 and '"law": "amdahl"' in out, err


def test_a_quoted_semicolon_file_keeps_its_hint(capsys, tmp_path):
    (tmp_path / "s.csv").write_text('"devices";"throughput"\n1;100\n2;190,5\n')
    rc, _, err = run(capsys, "fit", str(tmp_path / "s.csv"))
    assert rc == 2 and "this file separates its columns with ';'" in err


def test_a_limit_is_never_printed_as_another_number_and_a_pick_beside_it_shows_it_meets_it(capsys):
    """A review: the budget 1.99995 printed '1.9999' (the 4 digits the missed cost 2.0000 needed) beside a pick
    costing 1.99994 — below the typed budget, above the printed one; the deadline pick read '1.0 h' beside its
    '0.99995 h deadline'. 3,600.036 samples at 1/s: 1.00001 h alone; at E 0.50002 on 2, 0.99999 h and a cost of
    1.99994; at E 0.499998 on 3, 2.40000 h... cost 2.0000 a dollar a device-hour."""
    rc, out, _ = run(capsys, "plan", "-d", "1,2,3", "-v", "1", "-e", "1,0.50002,0.499998", "--samples", "3600.036",
                     "--price-per-device-hour", "1", "--budget", "1.99995")  # fmt: skip
    assert rc == 0 and "fastest size within the budget of 1.99995: 2 — 1.0 h, 2.00 device-hours, cost 1.99994" in out
    rc, out, _ = run(capsys, "plan", "-d", "1,2", "-v", "1", "-e", "0.500035", "--samples", "3600.036", "--deadline",
                     "0.99995h")  # fmt: skip
    assert rc == 0 and "cheapest size meeting the 0.99995 h deadline: 2 — 0.9999 h" in out
    assert "the table rounds these times to the 0.99995 h deadline they miss: 1 — 1.00001 h" in out


def test_fit_refuses_json_nested_100000_deep_in_one_line(capsys, tmp_path):
    """{"a": {"a": … 100,000 deep: RecursionError out of the whole-file read (measure's was fixed, fit's not)."""
    path = tmp_path / "d.jsonl"
    path.write_text('{"a":' * 100_000 + "1" + "}" * 100_000 + "\n")
    for argv, said in (
        (["fit", str(path)], "d.jsonl: nested too deeply; allowed: one JSON object per line"),
        (["plan", "--fit", str(path), "-n", "1"], "nested too deeply"),
        (["fit", str(path), "--lang", "es"], "d.jsonl: anidado a demasiada profundidad; se admite: un"),
    ):
        rc, _, err = run(capsys, *argv)
        assert rc == 2 and said in err and len(err.strip().splitlines()) == 1


def test_a_zb_h2_note_writes_its_counts_with_thousands_marks(capsys):
    """A review of sweep 13's marks: ZB-H2's note still wrote 2p − 1 = 199999 and m = 5000."""
    rc, out, _ = run(capsys, "pipeline", "-p", "100000", "-m", "5000", "--schedule", "zb-h2")
    assert rc == 0 and "2p − 1 = 199,999 micro-batches in flight; with m = 5,000 its bubble" in out
    assert "reported as ZB-H1's, 1,300.0 % of ideal time" in out  # (p − 1)/(3m) = 99,999/15,000
