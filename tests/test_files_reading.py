"""Input files a review of the file-reading surfaces (session 40) found ending in a traceback, a silent wrong answer
or a line that did not say where: runs files, --calibration, --efficiency-file, measure --out."""

from __future__ import annotations

import json

import pytest
from clihelp import read_runs, run

from dpscale.errors import DpscaleError
from dpscale.sources.measure.results import baseline_from_file, check_records, check_writable

GOOD = '{"devices": 1, "throughput": 900}\n'
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("tail", [DEEP + "\n", "[" * 100_000 + "\n", "[\n" + DEEP + "\n]\n"])
@pytest.mark.parametrize("command", [["fit"], ["plan", "-n", "1e6", "--fit"]])
def test_a_runs_line_nested_100000_deep_after_a_good_one_is_one_line(capsys, tmp_path, tail, command):
    """The whole-document read caught RecursionError; the per-line read (and _spans_lines) did not: exit 1."""
    path = tmp_path / "r.jsonl"
    path.write_text(GOOD + tail)
    rc, out, err = run(capsys, *command, str(path))
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "r.jsonl line 2: " in err


@pytest.mark.parametrize(
    ("text", "command", "said"),
    [
        (DEEP + "\n", ["fit"], "r.json: a JSON array; allowed: JSON lines"),
        (DEEP + "\n", ["validate"], "r.json: nested too deeply; allowed: a published-measurements CSV — runs from"),
        ('{"devices": 1, "throughput":\n' + "[" * 100_000 + "\n", ["fit"], "r.json: nested too deeply; allowed: one"),
        ('{"devices": 1, "throughput":\n' + "[" * 100_000 + "\n", ["validate"], "r.json: nested too deeply; allowed: "),
        ('{"a": ' * 100_000 + "1" + "}" * 100_000, ["validate", "--lang", "es"], "r.json: anidado a demasiada "),
        ('{"a": ' * 100_000 + "1" + "}" * 100_000, ["plan", "-n", "1e6", "--efficiency-file"], "r.json: nested too "),
    ],
)
def test_a_file_nested_100000_deep_from_its_first_line_is_one_line(capsys, tmp_path, text, command, said):
    """Review KI (mutation pass): files.opens_json, which fit and validate ask first, catches the RecursionError of a
    value 100,000 deep; without its catch each of these was a traceback (exit 1). The tests above open with a good
    record, which opens_json reads before the deep line. Review KJ: validate said it as 'line 1: not a readable CSV
    row (field larger than field limit (131072))' and 'missing columns cfg, …', plan --efficiency-file as no JSON
    it takes; each now says 'nested too deeply', as fit and --system-file do."""
    path = tmp_path / "r.json"
    path.write_text(text)
    rc, out, err = run(capsys, *command, str(path))
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1 and said in err, err


PREDICT = ["predict", "--model", "resnet50", "--system", "dgx-a100", "-d", "8"]


@pytest.mark.parametrize(
    "text, field",
    [
        ('{"busbw_gbs": 262.5, "alpha_s": 2e-5, "alpha_s": 0.5, "points": null}', "alpha_s"),
        ('{"busbw_gbs": 262.5, "alpha_s": 2e-5, "points": null, "busbw_gbs": 1}', "busbw_gbs"),
        ('{"busbw_gbs": null, "alpha_s": null, "points": [{"bytes": 1024, "busbw_gbs": 5, "busbw_gbs": 500}, '
         '{"bytes": 4096, "busbw_gbs": 20}]}', "busbw_gbs"),
    ],
)  # fmt: skip
def test_a_calibration_that_gives_a_field_twice_is_refused(capsys, tmp_path, text, field):
    """json.loads kept the last: alpha_s 2e-5 then 0.5 predicted E(8) = 0.025 where the file's first said 0.94,
    at exit 0; --system-file, --efficiency-file and the runs files refuse a field given twice."""
    path = tmp_path / "cal.json"
    path.write_text(text)
    for lang, said in (("en", "each field once"), ("es", "cada campo una sola vez")):
        rc, out, err = run(capsys, *PREDICT, "--calibration", str(path), "--lang", lang)
        assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        assert f"--calibration: {path}: " in err and repr(field) in err and said in err


def test_a_calibration_cut_short_says_the_line_where_it_breaks(capsys, tmp_path):
    """A truncated file was 'allowed: JSON with numbers busbw_gbs and alpha_s', as if the fields were wrong."""
    path = tmp_path / "cal.json"
    path.write_text('{\n  "busbw_gbs": 262.5,\n  "alpha_s": 2e-5,\n  "points": [\n    {"bytes": 1024, "busbw_gb')
    rc, out, err = run(capsys, *PREDICT, "--calibration", str(path))
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert f"--calibration: {path} line 5: not JSON (" in err
    rc, _, err = run(capsys, *PREDICT, "--calibration", str(path), "--lang", "es")
    assert rc == 2 and f"{path} línea 5: no es JSON" in err, err


BREAKS = ["\u2028", "\x85", "\x0c", "\x1e"]  # str.splitlines breaks at these; an editor and csv do not


@pytest.mark.parametrize("char", BREAKS)
def test_a_runs_csv_cell_holding_a_line_separator_is_read_and_counted_as_an_editor_does(capsys, tmp_path, char):
    """'1,900,a\u2028b' was 'line 3: got 1 fields' (a valid file refused), and a bad cell below such a character was
    named a line too far on."""
    path = tmp_path / "r.csv"
    path.write_text(f"devices,throughput,note\n1,900,a{char}b\n2,1750,x\n4,3400,y\n", encoding="utf-8", newline="")
    rc, out, err = run(capsys, "fit", str(path), "--json", "--resamples", "50")
    assert rc == 0, err
    assert [m["devices"] for m in json.loads(out)["measured"]] == [1, 2, 4]
    path.write_text(f"devices,throughput,note\n1,900,a{char}b\n2,1750,x\n4,bad,y\n", encoding="utf-8", newline="")
    rc, out, err = run(capsys, "fit", str(path))
    assert rc == 2 and "r.csv line 4, throughput: got 'bad'" in err, err


@pytest.mark.parametrize("char", ["\u2028", "\x85"])  # (json.dumps escapes the control characters)
def test_json_lines_whose_text_holds_a_line_separator_are_read(capsys, tmp_path, char):
    """measure --out writes ensure_ascii=False: a string holding U+2028 or NEL stays raw, and fit (and measure's own
    check of --out before the next run) split the record there: 'not valid JSON'. (Since session 43 the records'
    unit labels fit's output, so a unit holding one is refused as a label, in one line: it would split the table.)"""
    runs = ((1, 900.0), (2, 1750.0), (4, 3400.0))
    recs = [{"devices": d, "throughput": x, "host": f"node{char}1"} for d, x in runs]
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs)
    path = tmp_path / "r.jsonl"
    path.write_text(text, encoding="utf-8", newline="")
    rc, out, err = run(capsys, "fit", str(path), "--json", "--resamples", "50")
    assert rc == 0, err
    assert [m["devices"] for m in json.loads(out)["measured"]] == [1, 2, 4]
    check_records(text, "train", "--out r.jsonl")  # (raised 'line 1: got …; allowed: a `dpscale measure` record')
    recs = [{"devices": d, "throughput": x, "unit": f"img{char}s"} for d, x in runs]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8", newline="")
    rc, out, err = run(capsys, "fit", str(path), "--resamples", "50")
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("dpscale fit: error: r.jsonl, unit: got 'img") and "allowed: a unit label on one line" in err


PLAN = ["plan", "-n", "1e6", "-v", "100", "--efficiency-file"]


def test_an_efficiency_file_cut_short_says_the_line_where_it_breaks(capsys, tmp_path):
    """A truncated `predict --json` file said only 'allowed: JSON from `dpscale predict` …', where --system-file
    names the line and what broke there."""
    path = tmp_path / "e.json"
    path.write_text('[\n  {"devices": 1, "efficiency": 1.0},\n  {"devices": 2, "efficiency": 0.9')
    for lang, said in (("en", f"--efficiency-file: {path} line 3: not JSON ("), ("es", f"{path} línea 3: no es JSON")):
        rc, out, err = run(capsys, *PLAN, str(path), "--lang", lang)
        assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        assert said in err, err


def test_an_efficiency_file_not_in_utf8_says_so(capsys, tmp_path):
    """A Latin-1 file was refused as if its records were of the wrong shape."""
    path = tmp_path / "e.json"
    path.write_bytes('[{"devices": 1, "efficiency": 1.0, "model": "modèle"}]'.encode("latin-1"))
    for lang, said in (("en", "(not UTF-8 text)"), ("es", "(no es texto UTF-8)")):
        rc, out, err = run(capsys, *PLAN, str(path), "--lang", lang)
        assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        assert said in err, err


REC = '{"devices": 1, "throughput": 100, "workload": "mlp", "batch": 2, "steps": 2, "device": "cpu", "threads": 1}'


@pytest.mark.parametrize("text", ["\n" + REC + "\n", "\r\n\r\n" + REC + "\r\n", "\n\n", "  \n"])
def test_an_out_file_with_blank_lines_at_the_top_is_appended_to(tmp_path, text):
    """`dpscale fit` skips blank lines; --out read the first line as the head and refused the file before the run
    ('its line 1 is not a `dpscale measure` record'): a file of records `fit` reads, or of blank lines alone."""
    path = tmp_path / "r.jsonl"
    path.write_bytes(text.encode())
    check_writable(str(path), jsonl=True)


@pytest.mark.parametrize(
    "text",
    ["# measure --out, node 1\n\ufeff" + REC + "\n",  # a '#' line put above a file saved with a byte-order mark
     REC + "\n\ufeff" + REC.replace('"devices": 1', '"devices": 4') + "\n"],  # two such files joined
)  # fmt: skip
def test_an_out_file_fit_reads_past_a_byte_order_mark_is_appended_to_with_its_baseline(tmp_path, text):
    """Review LD: review KX made fit and validate read a JSON line opened by a byte-order mark (runs_json's lines), but
    `dpscale measure -d 2 --out r.jsonl` refused the same file before the run: 'got 'r.jsonl' (its line 2 is not a
    `dpscale measure` record)', and of two files joined 'line 3: got '\\ufeff{"devices": 1, …'; allowed: a `dpscale
    measure` record, one a line'. Its readers (check_writable, check_records, the baseline's _records) read the lines
    as fit does now; _records skipped a marked line without a word, so the d = 1 baseline would have been lost."""
    path = tmp_path / "r.jsonl"
    path.write_text(text, encoding="utf-8")
    assert [r.devices for r in read_runs(path)] == [1] + [4] * (text.count("{") - 1)  # what fit reads
    check_writable(str(path), jsonl=True)
    rec = {**json.loads(REC), "devices": 2, "throughput": 190}
    base = baseline_from_file(str(path), rec)
    assert base is not None and (base["devices"], base["throughput"]) == (1, 100)


def test_an_out_file_names_the_line_that_is_no_record(capsys, tmp_path):
    """The first line that holds something is the one named, in both languages."""
    path = tmp_path / "r.jsonl"
    path.write_text("\ndevices,throughput\n1,100\n")
    with pytest.raises(DpscaleError, match=r"\(its line 2 is not a `dpscale measure` record\)"):
        check_writable(str(path), jsonl=True)
    rc, out, err = run(capsys, "measure", "-d", "1", "--out", str(path), "--lang", "es")
    assert rc == 2 and out == "" and "(su línea 2 no es un registro de `dpscale measure`)" in err, err


# Hostile inputs a second outside fuzzing round (session 37, ~46,700 cases) found ending in a traceback or a
# silent wrong answer: each is one line and exit 2 now, in both languages where the command speaks Spanish.


def test_fit_reads_a_header_behind_a_second_byte_order_mark(capsys, tmp_path):
    """The first mark is dropped on reading; a second stayed in 'devices' and read 'missing column(s) devices
    (found devices, throughput)' (validate already dropped it)."""
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbfdevices,throughput\n1,100\n2,190\n4,350\n")
    rc, out, err = run(capsys, "fit", str(path), "--law", "amdahl", "--json")
    assert rc == 0 and '"baseline_devices": 1' in out, err


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


# Whole-module mutation pass of files.py: what the suite let through.


def test_a_regular_file_is_read_as_a_file_not_waited_on_as_a_pipe(tmp_path, monkeypatch):
    """read_bytes's `if fifo:` forced on read an empty regular file as a named pipe with no writer: a 3 s wait
    (PIPE_WAIT_S) for the same b''. A regular file, empty or not, never reaches _read_pipe."""
    from dpscale import files

    def no_pipe(path):  # noqa: ANN001, ANN202
        raise AssertionError(f"{path} read as a named pipe")

    monkeypatch.setattr(files, "_read_pipe", no_pipe)
    (tmp_path / "empty.csv").write_bytes(b"")
    (tmp_path / "runs.csv").write_bytes(b"devices,throughput\n1,100\n")
    assert files.read_bytes(tmp_path / "empty.csv") == b""
    assert files.read_bytes(str(tmp_path / "runs.csv")) == b"devices,throughput\n1,100\n"


def test_an_object_giving_two_fields_twice_names_the_first():
    """json_pairs reports the first field given twice (`twice[0]` → `twice[-1]` named the last)."""
    from dpscale.files import loads_once

    with pytest.raises(DpscaleError, match=r"^c\.json: got 'busbw_gbs'; allowed: each field once"):
        loads_once('{"busbw_gbs": 1, "alpha_s": 2, "busbw_gbs": 3, "alpha_s": 4}', "c.json")


# Review EJ (coverage): a named pipe longer than its first read, and one past the ceiling, were never read.


def _fed_pipe(tmp_path, data: bytes):  # noqa: ANN202
    """A named pipe, a thread that writes `data` into it once a reader opens it, and a list that holds True once
    all of it was written (a reader that stops at the ceiling closes the pipe under the writer: a broken pipe)."""
    import os
    import threading

    fifo = tmp_path / "runs.fifo"
    os.mkfifo(fifo)
    written: list[bool] = []

    def feed() -> None:
        try:
            with open(fifo, "wb") as fh:
                fh.write(data)
            written.append(True)
        except BrokenPipeError:
            written.append(False)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    return fifo, writer, written


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs named pipes (POSIX)")
def test_a_named_pipe_is_read_whole_past_its_first_read(tmp_path):
    """`dpscale validate <(cat holdout_dlperf.csv)`: 314 KB through a pipe that holds 64 KiB at a time."""
    from dpscale.files import read_bytes

    data = bytes(range(256)) * 1200  # 307,200 bytes
    fifo, writer, written = _fed_pipe(tmp_path, data)
    assert read_bytes(fifo) == data
    writer.join(timeout=30)
    assert written == [True]


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs named pipes (POSIX)")
def test_a_named_pipe_past_the_ceiling_is_refused_without_draining_it(tmp_path, monkeypatch):
    """`dpscale fit <(yes)` must stop one read past the ceiling, not hold an endless pipe in memory: the writer of
    3 MB is cut off near 100 KB (its pipe holds 64 KiB), and the refusal names the ceiling."""
    import errno

    from dpscale import files

    monkeypatch.setattr(files, "MAX_INPUT_BYTES", 100_000)
    fifo, writer, written = _fed_pipe(tmp_path, b"x" * 3_000_000)
    with pytest.raises(OSError) as got:
        files.read_bytes(fifo)
    assert got.value.errno == errno.EFBIG and got.value.strerror == "more than 0.0953674 MiB: not an input file"
    writer.join(timeout=30)
    assert written == [False]


EMPTY_SAID = {  # what each reader takes, in its refusal of a file of blanks alone (English, Spanish)
    "--efficiency-file": (
        "JSON from `dpscale predict`, `fit` or `measure --json` (records with devices and efficiency)",
        "JSON de `dpscale predict`, `fit` o `measure --json` (registros con devices y efficiency)",
    ),
    "--system-file": ("a JSON file as systems.json", "un archivo JSON como systems.json"),
    "--model-file": ("a JSON file as models.json", "un archivo JSON como models.json"),
    "--calibration": ("JSON with numbers busbw_gbs and alpha_s", "JSON con los números busbw_gbs y alpha_s"),
    "fit": (
        "JSON lines (an object with devices and throughput on each line, as `dpscale measure --out` writes)",
        "líneas JSON (un objeto con devices y throughput por línea, como escribe `dpscale measure --out`)",
    ),
    "validate": ("a CSV with a header row (cfg, ", "un CSV con una fila de cabecera (cfg, "),
}
EMPTY_ARGV = {
    "--efficiency-file": ["plan", "-n", "1e6", "-v", "2000", "--efficiency-file"],
    "--system-file": ["predict", "--model", "bert-large", "-d", "8", "--system-file"],
    "--model-file": ["memory", "--gpu", "h100", "-d", "8", "--model-file"],
    "--calibration": ["predict", "--model", "bert-large", "--system", "dgx-a100", "-d", "8", "--calibration"],
    "fit": ["fit"],
    "validate": ["validate"],
}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("text", ["", "\n\n", " \t\r\n"])
@pytest.mark.parametrize("reader", list(EMPTY_SAID))
def test_a_file_of_blanks_is_said_empty_by_every_reader_in_one_wording(capsys, tmp_path, reader, text, lang):
    """Review LE: an empty --efficiency-file, --system-file, --model-file or --calibration said 'e.json line 1: not
    JSON (Expecting value)' ('line 3' after two blank lines: past the file's end), where fit said 'e.json: empty;
    allowed: …' and validate 'e.json: an empty file; allowed: …'. One refusal now (files.empty), each reader saying
    what it takes; in Spanish 'sin contenido' (a review's word for fit, which suits standard input too)."""
    path = tmp_path / "e.json"
    path.write_text(text)
    rc, out, err = run(capsys, *EMPTY_ARGV[reader], str(path), "--lang", lang)
    name = path.name if reader == "fit" else f"{reader}: {path}" if reader.startswith("--") else path  # (as said)
    said = dict(zip(("en", "es"), EMPTY_SAID[reader]))[lang]
    frame = "empty; allowed" if lang == "en" else "sin contenido; se admite"
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert err.split("error: ", 1)[1].startswith(f"{name}: {frame}: {said}"), err


def test_standard_input_of_nothing_is_said_empty_as_a_file_is(capsys, monkeypatch):
    """The same refusal of an empty standard input (`--system-file -`), named as the messages name it."""
    import io

    for lang, said in (
        ("en", "standard input: empty; allowed: a JSON file as systems.json"),
        ("es", "entrada estándar: sin contenido; se admite: un archivo JSON como systems.json"),
    ):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8"))
        rc, _, err = run(capsys, *EMPTY_ARGV["--system-file"], "-", "--lang", lang)
        assert rc == 2 and err.strip().endswith(f"error: --system-file: {said}"), err
