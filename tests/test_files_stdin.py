"""Review K (session 44): `-` as standard input wherever a command reads a user's file, so commands chain
(`dpscale predict … --json | dpscale plan --efficiency-file - -n 1e9`, `cat runs.csv | dpscale fit -`,
`cat published.csv | dpscale validate - --json`). files.read_bytes reads it once, under the same ceiling as a file;
a terminal (nothing piped in) is refused in one line rather than waited on."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from clihelp import run

from dpscale.files import MAX_INPUT_BYTES, STDIN_TTY, read_bytes, read_text

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT / "validation" / "published_scaling_dev.csv"
PREDICT = ["predict", "--model", "bert-large", "--precision", "amp", "--system", "dgx-a100", "-v", "150", "-d",
           "1..64x2"]  # fmt: skip
RUNS = "devices,throughput\n1,1000\n2,1950\n4,3800\n8,7400\n16,13900\n"
SYSTEM = '{"systems": {"mine": {"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 25}}}'
# measured with gloo on a CPU, 2 ranks: predict says so when it stands for 8 GPUs (a second read of the file)
CALIBRATION = json.dumps({"format": "dpscale-allreduce-calibration", "version": 1, "busbw_gbs": 50, "alpha_s": 2e-5,
                          "points": None, "backend": "gloo", "device": "cpu", "devices": 2})  # fmt: skip


def _stdin(monkeypatch, data: bytes | str) -> None:
    """Standard input as a pipe would hand it over (a fresh stream: files keeps what it read of each)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))


class _Terminal(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


def _dpscale(*argv: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dpscale", *argv], input=stdin, capture_output=True, timeout=120)


# the reader: bytes once, the same ceiling and decoding as a file


def test_dash_reads_standard_input_once_and_a_second_read_gets_the_same_bytes(monkeypatch):
    _stdin(monkeypatch, "\ufeffdevices,throughput\r\n1,100\r\n")  # a spreadsheet's BOM and CRLF
    assert read_bytes("-") == b"\xef\xbb\xbfdevices,throughput\r\n1,100\r\n"
    assert read_text("-") == "devices,throughput\r\n1,100\r\n"  # (BOM dropped, as a file's)
    assert sys.stdin.read() == ""  # the stream is spent: the bytes are files' own
    _stdin(monkeypatch, "other")  # another stream: read anew
    assert read_bytes("-") == b"other"


def test_standard_input_has_the_files_ceiling(monkeypatch):
    _stdin(monkeypatch, b"x" * (MAX_INPUT_BYTES + 1))
    with pytest.raises(OSError) as big:
        read_bytes("-")
    assert big.value.errno == errno.EFBIG and big.value.strerror == "more than 64 MiB: not an input file"
    _stdin(monkeypatch, b"x" * MAX_INPUT_BYTES)
    assert len(read_bytes("-")) == MAX_INPUT_BYTES


def test_a_path_object_named_dash_is_a_file_not_standard_input(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_text("a file named -")
    _stdin(monkeypatch, "piped")
    assert read_text(Path("-")) == "a file named -" and read_text("./-") == "a file named -"
    assert read_text("-") == "piped"


def test_a_terminal_and_a_missing_standard_input_are_refused_not_waited_on(monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Terminal(io.BytesIO(b"never read")))
    with pytest.raises(OSError) as tty:
        read_bytes("-")
    assert tty.value.errno == errno.ENOTTY and tty.value.strerror == STDIN_TTY
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(OSError, match="standard input is closed"):
        read_bytes("-")
    closed = io.TextIOWrapper(io.BytesIO(b""))
    closed.close()
    monkeypatch.setattr(sys, "stdin", closed)
    with pytest.raises(OSError, match="standard input is closed"):
        read_bytes("-")


@pytest.mark.parametrize(
    ("argv", "en", "es"),
    [
        (["fit", "-"], "RUNS: got '-'; allowed: a readable CSV or JSON-lines file (standard input is a terminal: pipe "
         "a file in, or give its path)", "RUNS: se recibió '-'; se admite: un archivo CSV o de líneas JSON legible (la "
         "entrada estándar es un terminal: pase un archivo por una tubería, o dé su ruta)"),
        (["plan", "-n", "1e9", "--efficiency-file", "-"], "--efficiency-file: got '-'; allowed: JSON from",
         "(la entrada estándar es un terminal: pase un archivo por una tubería, o dé su ruta)"),
        (["plan", "-n", "1e9", "--fit", "-"], "--fit: got '-'; allowed: a readable CSV or JSON-lines file (standard "
         "input is a terminal", "--fit: se recibió '-'"),
        (["validate", "-"], "DATA: got '-'; allowed: a readable CSV file (standard input is a terminal: pipe a file "
         "in, or give its path)", "DATA: se recibió '-'; se admite: un archivo CSV legible (la entrada estándar es un "
         "terminal"),
        (["predict", "--model", "bert-large", "-v", "150", "--system-file", "-"], "--system-file: got '-'; allowed: "
         "a readable JSON file (standard input is a terminal", "la entrada estándar es un terminal"),
        (["predict", "--model", "bert-large", "-v", "150", "--system", "dgx-a100", "--calibration", "-"],
         "--calibration: got '-'; allowed: a readable JSON file (standard input is a terminal",
         "la entrada estándar es un terminal"),
    ],
)  # fmt: skip
def test_every_input_option_refuses_a_terminal_in_one_line_in_both_languages(monkeypatch, capsys, argv, en, es):
    monkeypatch.setattr(sys, "stdin", _Terminal(io.BytesIO(b"")))
    for lang, needle in (("en", en), ("es", es)):
        rc, out, err = run(capsys, *argv, "--lang", lang)
        assert rc == 2 and out == "" and needle in err and len(err.strip().splitlines()) == 1, (lang, err)


# each command reads '-' as it reads the file (in-process: fast)


def test_fit_of_standard_input_is_the_fit_of_the_file(monkeypatch, capsys, tmp_path):
    path = tmp_path / "runs.csv"
    path.write_text(RUNS)
    rc, by_path, _ = run(capsys, "fit", str(path), "--json", "--resamples", "200")
    _stdin(monkeypatch, RUNS)
    rc2, piped, _ = run(capsys, "fit", "-", "--json", "--resamples", "200")
    assert rc == rc2 == 0 and piped == by_path
    report = json.loads(piped)
    assert report["baseline_devices"] == 1 and report["per_device_throughput"] == 1000.0
    # plan --fit - plans on the same fit
    rc, planned_path, _ = run(capsys, "plan", "--fit", str(path), "-n", "1e9", "-d", "1,16", "--json")
    _stdin(monkeypatch, RUNS)
    rc2, planned_pipe, _ = run(capsys, "plan", "--fit", "-", "-n", "1e9", "-d", "1,16", "--json")
    assert rc == rc2 == 0 and planned_pipe == planned_path
    assert json.loads(planned_pipe)[0]["hours"] == pytest.approx(1e9 / 1000 / 3600)  # one device at its own rate


def test_a_bad_line_of_standard_input_is_named_as_standard_input(monkeypatch, capsys):
    bad = "devices,throughput\n1,100\n2,lots\n"
    _stdin(monkeypatch, bad)
    rc, _, err = run(capsys, "fit", "-")
    assert rc == 2 and "error: standard input line 3, throughput: got 'lots'" in err
    _stdin(monkeypatch, bad)
    rc, _, err = run(capsys, "fit", "-", "--lang", "es")
    assert rc == 2 and "error: entrada estándar línea 3, campo 'throughput': se recibió 'lots'" in err
    _stdin(monkeypatch, "")
    rc, _, err = run(capsys, "fit", "-", "--lang", "es")
    assert rc == 2 and "error: entrada estándar: sin contenido; se admite" in err
    _stdin(monkeypatch, b"devices,throughput\n1,100\n2,\xff\n")  # not UTF-8, as a file's
    rc, _, err = run(capsys, "fit", "-")
    assert rc == 2 and "RUNS: got '-'; allowed: a readable CSV or JSON-lines file (not UTF-8 text)" in err
    _stdin(monkeypatch, '{"devices": 1, "throughput": 10, "unit": "tokens/s"}\n'
                        '{"devices": 2, "throughput": 19, "unit": "tokens/s"}\n')  # fmt: skip
    rc, _, err = run(capsys, "fit", "-", "--unit", "samples/s")
    assert rc == 2 and "'tokens/s', the unit the runs in standard input state" in err


def test_plan_of_a_piped_prediction_is_the_plan_of_its_file(monkeypatch, capsys, tmp_path):
    rc, pred, _ = run(capsys, *PREDICT, "--json")
    assert rc == 0
    (tmp_path / "pred.json").write_text(pred)
    rc, by_path, _ = run(capsys, "plan", "--efficiency-file", str(tmp_path / "pred.json"), "-n", "1e9", "--json")
    _stdin(monkeypatch, pred)
    rc2, piped, _ = run(capsys, "plan", "--efficiency-file", "-", "-n", "1e9", "--json")
    assert rc == rc2 == 0 and piped == by_path
    rows, records = json.loads(piped), json.loads(pred)
    assert [r["devices"] for r in rows] == [1, 2, 4, 8, 16, 32, 64]
    at64 = next(r for r in records if r["devices"] == 64)
    assert rows[-1]["efficiency"] == at64["efficiency"] == pytest.approx(0.8073, abs=1e-4)
    assert rows[-1]["hours"] == pytest.approx(1e9 / (64 * 150 * at64["efficiency"]) / 3600)  # 35.8 h
    # a file of runs given as the E file: told to give it as --fit, from standard input as from a file
    _stdin(monkeypatch, '{"devices": 1, "throughput": 10}\n{"devices": 2, "throughput": 19}\n')
    rc, _, err = run(capsys, "plan", "--efficiency-file", "-", "-n", "1e6")
    assert rc == 2 and "this file holds runs, one a line (`measure --out`): give it as --fit FILE" in err


def test_a_piped_fit_reports_warnings_by_standard_inputs_name(monkeypatch, capsys):
    """plan relays a fit report's warnings by the file's name: '-' is said as standard input, in both languages."""
    _stdin(monkeypatch, RUNS)
    rc, report, _ = run(capsys, "fit", "-", "--json", "--resamples", "200", "--at", "1024")
    assert rc == 0 and json.loads(report)["warnings"]  # 1024 is past 4× the largest run
    for lang, said in (("en", "standard input warns: "), ("es", "la entrada estándar advierte: ")):
        _stdin(monkeypatch, report)
        rc, out, err = run(capsys, "plan", "--efficiency-file", "-", "-n", "1e9", "--lang", lang)
        assert rc == 0 and said in out + err


def test_validate_of_standard_input_is_validate_of_the_file(monkeypatch, capsys):
    rc, by_path, _ = run(capsys, "validate", str(DEV), "--json")
    _stdin(monkeypatch, DEV.read_bytes())
    rc2, piped, _ = run(capsys, "validate", "-", "--json")
    assert rc == rc2 == 0 and piped == by_path
    report = json.loads(piped)
    assert (report["points"], report["configs"]) == (109, 39)
    assert report["median_abs_error"] == pytest.approx(0.0235, abs=1e-4)  # README: 0.023 on the dev set


def test_validate_takes_one_dash_among_files_and_refuses_a_second(monkeypatch, capsys, tmp_path):
    head = "".join(DEV.read_text(encoding="utf-8").splitlines(keepends=True)[:5])
    (tmp_path / "head.csv").write_text(head)
    _stdin(monkeypatch, head)
    rc, _, err = run(capsys, "validate", "-", str(tmp_path / "head.csv"))
    assert rc == 2 and "in standard input line 2 and in " in err  # the same table twice, each named
    _stdin(monkeypatch, head)
    rc, _, err = run(capsys, "validate", "-", str(tmp_path / "head.csv"), "--lang", "es")
    assert rc == 2 and "está en la entrada estándar línea 2 y en " in err
    rc, _, err = run(capsys, "validate", "-", str(DEV), "-")
    assert rc == 2 and err.strip().endswith(
        "DATA.csv: got '-' twice; allowed: '-' once (one file piped in), the other files by path"
    )
    dle = ROOT / "validation" / "external_dle.csv"  # piped beside another file: checked as one set, as by path
    rc, by_path, _ = run(capsys, "validate", str(DEV), str(dle), "--json")
    _stdin(monkeypatch, DEV.read_bytes())
    rc2, piped, _ = run(capsys, "validate", "-", str(dle), "--json")
    assert rc == rc2 == 0 and piped == by_path
    assert (json.loads(piped)["configs"], json.loads(piped)["points"]) == (39 + 12, 109 + 30)


def test_predict_reads_a_system_file_and_a_calibration_from_standard_input(monkeypatch, capsys, tmp_path):
    args = ["predict", "--model", "bert-large", "-v", "150", "-d", "1,8,64"]
    (tmp_path / "sys.json").write_text(SYSTEM)
    rc, by_path, _ = run(capsys, *args, "--system-file", str(tmp_path / "sys.json"), "--json")
    _stdin(monkeypatch, SYSTEM)
    rc2, piped, _ = run(capsys, *args, "--system-file", "-", "--json")
    assert rc == rc2 == 0 and piped == by_path
    for lang, title in (("en", "dpscale predict: bert-large, fp32, batch 32, mine (standard input)"),
                        ("es", "dpscale predict: bert-large, fp32, lote 32, mine (entrada estándar)")):  # fmt: skip
        _stdin(monkeypatch, SYSTEM)
        rc, out, _ = run(capsys, *args, "--system-file", "-", "--lang", lang)
        assert rc == 0 and out.splitlines()[0] == title
    _stdin(monkeypatch, SYSTEM.replace("25}", "25e9}"))
    rc, _, err = run(capsys, *args, "--system-file", "-", "--lang", "es")
    assert rc == 2 and "--system-file: entrada estándar: sistema 'mine': inter_bw_gbs: se recibió" in err
    # a calibration: read for its figures, then again for where it was measured (the note), from the bytes kept
    (tmp_path / "cal.json").write_text(CALIBRATION)
    rc, out_path, err_path = run(capsys, *args, "--system", "dgx-a100", "--calibration", str(tmp_path / "cal.json"))
    _stdin(monkeypatch, CALIBRATION)
    rc2, out_pipe, err_pipe = run(capsys, *args, "--system", "dgx-a100", "--calibration", "-")
    assert rc == rc2 == 0 and (out_pipe, err_pipe) == (out_path, err_path)
    assert "the calibration was measured with gloo on cpu, 2 ranks a node" in out_pipe + err_pipe
    rc, _, err = run(capsys, *args, "--system-file", "-", "--calibration", "-")
    assert rc == 2 and "--system-file and --calibration: both '-'; allowed: '-' once" in err


def test_the_library_reads_dash_as_the_cli_does(monkeypatch):
    import dpscale

    _stdin(monkeypatch, RUNS)
    f = dpscale.fit("-", resamples=50)
    assert f.baseline_devices == 1 and f.per_device_throughput == 1000.0


# real processes: a pipe between two commands, and a terminal on standard input


@pytest.mark.slow
def test_a_shell_pipeline_from_predict_into_plan_plans_as_the_file_does(tmp_path):
    first = subprocess.Popen([sys.executable, "-m", "dpscale", *PREDICT, "--json"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)  # fmt: skip
    piped = subprocess.run([sys.executable, "-m", "dpscale", "plan", "--efficiency-file", "-", "-n", "1e9", "--json"],
                           stdin=first.stdout, capture_output=True, timeout=120)  # fmt: skip
    first.stdout.close()
    assert first.wait(timeout=120) == 0 and piped.returncode == 0, piped.stderr
    pred = _dpscale(*PREDICT, "--json").stdout
    (tmp_path / "pred.json").write_bytes(pred)
    by_path = _dpscale("plan", "--efficiency-file", str(tmp_path / "pred.json"), "-n", "1e9", "--json")
    assert piped.stdout == by_path.stdout
    assert json.loads(piped.stdout)[-1]["hours"] == pytest.approx(35.84, abs=0.01)  # 1e9 / (64·150·0.8073) / 3600
    # runs and published tables through a real pipe
    fit_pipe = _dpscale("fit", "-", "--json", "--resamples", "200", stdin=RUNS.encode())
    (tmp_path / "runs.csv").write_text(RUNS)
    assert fit_pipe.returncode == 0 and fit_pipe.stdout == _dpscale("fit", str(tmp_path / "runs.csv"), "--json",
                                                                    "--resamples", "200").stdout  # fmt: skip
    valid = _dpscale("validate", "-", "--json", stdin=DEV.read_bytes())
    assert valid.returncode == 0 and valid.stdout == _dpscale("validate", str(DEV), "--json").stdout
    assert json.loads(valid.stdout)["points"] == 109


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="a pseudo-terminal")
def test_a_bare_dash_at_a_terminal_is_refused_not_waited_on():
    import pty

    leader, follower = pty.openpty()
    try:
        for lang, said in (("en", "standard input is a terminal: pipe a file in, or give its path"),
                           ("es", "la entrada estándar es un terminal")):  # fmt: skip
            p = subprocess.run(
                [sys.executable, "-m", "dpscale", "fit", "-", "--lang", lang],
                stdin=follower,
                capture_output=True,
                timeout=60,
                text=True,
            )  # (a hang would time out)
            assert p.returncode == 2 and said in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    finally:
        os.close(follower)
        os.close(leader)


# Review L (session 44): adversarial review of '-' as standard input, plan's count noun, the page's notes, an
# efficiency file's units and measure's new record fields.


TWO_RUNS = "devices,throughput\n1,100\n2,190\n"


# '-': the kept bytes are the stream's only while it stands where the read left it


def test_a_reused_stream_rewritten_and_rewound_is_read_anew_not_its_first_contents(monkeypatch, capsys):
    buf = io.StringIO(TWO_RUNS)  # a caller's stream, rewritten between two commands: the first bytes were fitted again
    monkeypatch.setattr(sys, "stdin", buf)
    assert read_text("-") == TWO_RUNS and read_text("-") == TWO_RUNS  # (a second look of one reader: the same bytes)
    buf.seek(0)
    buf.truncate()
    buf.write("devices,throughput\n1,100\n2,100\n")
    buf.seek(0)
    rc, out, err = run(capsys, "fit", "-", "--at", "2", "--json", "--resamples", "100")
    assert rc == 0, err
    import json

    measured = json.loads(out)["measured"]
    assert [m["throughput"] for m in measured] == [100.0, 100.0]  # (was 100, 190: the stale bytes)


def test_a_non_blocking_standard_input_is_waited_on_not_a_traceback(monkeypatch):
    r, w = os.pipe()
    os.set_blocking(r, False)  # (a parent that shares the pipe set it non-blocking)
    stream = io.TextIOWrapper(io.BufferedReader(io.FileIO(r, "r")), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stream)

    def feed() -> None:
        time.sleep(0.3)  # nothing yet when '-' is read: BufferedReader.read gave None (TypeError in len)
        os.write(w, TWO_RUNS[:10].encode())
        time.sleep(0.2)
        os.write(w, TWO_RUNS[10:].encode())
        os.close(w)

    t = threading.Thread(target=feed)
    t.start()
    try:
        assert read_bytes("-") == TWO_RUNS.encode()
    finally:
        t.join()
        stream.close()


class _Refusing(io.TextIOWrapper):
    def read(self, *a: object) -> str:  # as pytest's captured stdin does: an OSError with a message, no strerror
        raise OSError("reading from stdin while output is captured")


def test_a_streams_own_oserror_is_said_as_itself_not_as_not_utf8(monkeypatch, capsys):
    stream = _Refusing(io.BytesIO(b""))
    stream.buffer.read = stream.read  # type: ignore[method-assign]
    monkeypatch.setattr(sys, "stdin", stream)
    rc, out, err = run(capsys, "fit", "-")
    assert rc == 2 and "(reading from stdin while output is captured)" in err and "UTF-8" not in err, err


def test_a_closed_standard_input_is_said_closed_not_empty():
    for lang, said in (("en", "(standard input is closed)"), ("es", "(la entrada estándar está cerrada)")):
        got = subprocess.run(  # (`<&-`: the process starts without descriptor 0, as Python leaves sys.stdin None)
            ["bash", "-c", f'exec "$0" -m dpscale fit - --lang {lang} <&-', sys.executable],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert got.returncode == 2 and said in got.stderr and "empty" not in got.stderr, got.stderr
        assert len(got.stderr.strip().splitlines()) == 1


def test_measure_out_dash_is_refused_not_written_as_a_file_named_dash(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # (a file named '-' was written here, which `dpscale fit -` then did not read)
    for mode in ([], ["allreduce"]):
        for lang, said in (
            ("en", "--out: got '-' (standard input is what '-' names, read, not written"),
            ("es", "--out: se recibió '-' (la entrada estándar es lo que nombra '-', que se lee"),
        ):
            rc, out, err = run(capsys, "measure", *mode, "-d", "2", "--out", "-", "--lang", lang)
            assert rc == 2 and said in err and len(err.strip().splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []
    from dpscale.sources.measure.results import check_writable

    check_writable("./-")  # a file named '-' is still written as ./-


def test_validate_names_dash_and_the_file_it_is_as_one_file_not_dash_twice(tmp_path):
    from pathlib import Path

    dle = Path(__file__).resolve().parents[1] / "validation" / "external_dle.csv"
    with dle.open("rb") as fh:  # `dpscale validate x.csv - < x.csv`: '-' was given once ("got '-' twice")
        got = subprocess.run([sys.executable, "-m", "dpscale", "validate", str(dle), "-"], stdin=fh,
                             capture_output=True, text=True, timeout=120)  # fmt: skip
    assert got.returncode == 2 and got.stderr.endswith(
        f"error: DATA.csv: got {str(dle)!r} and '-', one file twice; allowed: each file once\n"
    ), got.stderr


def test_a_callers_stdin_without_seek_or_buffer_is_read(monkeypatch):
    """A library caller's stand-in for sys.stdin with read() and isatty() alone: where it stands is asked of it,
    and its missing seekable() means a pipe's 'nowhere' (AttributeError dropped from _position's excuses, by a
    whole-module mutation pass, was a traceback)."""

    class Bare:
        def __init__(self, text: str) -> None:
            self._text = text

        def isatty(self) -> bool:
            return False

        def read(self, n: int = -1) -> str:
            text, self._text = self._text, ""
            return text

    monkeypatch.setattr(sys, "stdin", Bare("devices,throughput\n1,100\n"))
    assert read_bytes("-") == b"devices,throughput\n1,100\n"


def test_a_write_only_standard_input_is_said_in_the_users_language(tmp_path):
    """`dpscale fit - 0>file` (descriptor 0 open for writing only): reading it fails with the OS's EBADF, whose
    words a refusal quotes — under --lang es they were left in English ('(Bad file descriptor)')."""
    for lang, said in (("en", "(Bad file descriptor)"), ("es", "(descriptor de archivo no válido)")):
        got = subprocess.run(
            ["bash", "-c", f'exec "$0" -m dpscale fit - --lang {lang} 0>"$1"', sys.executable, tmp_path / "w"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert got.returncode == 2 and said in got.stderr, got.stderr
        assert len(got.stderr.strip().splitlines()) == 1
