"""Review L (session 44): adversarial review of '-' as standard input, plan's count noun, the page's notes, an
efficiency file's units and measure's new record fields."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
import time

from clihelp import run

from dpscale.files import read_bytes, read_text

RUNS = "devices,throughput\n1,100\n2,190\n"


# '-': the kept bytes are the stream's only while it stands where the read left it


def test_a_reused_stream_rewritten_and_rewound_is_read_anew_not_its_first_contents(monkeypatch, capsys):
    buf = io.StringIO(RUNS)  # a caller's stream, rewritten between two commands: the first bytes were fitted again
    monkeypatch.setattr(sys, "stdin", buf)
    assert read_text("-") == RUNS and read_text("-") == RUNS  # (a second look of one reader: the same bytes)
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
        os.write(w, RUNS[:10].encode())
        time.sleep(0.2)
        os.write(w, RUNS[10:].encode())
        os.close(w)

    t = threading.Thread(target=feed)
    t.start()
    try:
        assert read_bytes("-") == RUNS.encode()
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
