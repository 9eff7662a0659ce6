"""Run the CLI in-process (fast) and capture what a user would see."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from dpscale.errors import DpscaleError
from dpscale.faces.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `dpscale ARGV`; argparse's own exits are caught too."""
    try:
        rc = main(list(argv))
    except SystemExit as exc:
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


def json_file(tmp_path: Path, data: object, name: str = "config.json") -> str:
    """`data` written as JSON to tmp_path/name, its path for --model-file and the like."""
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def spelt_alike(capsys, argv: list[str], spellings: tuple[str, ...] | list[str], unit: str | None = None) -> None:
    """Each spelling of a unit (`--unit S`) gives the output of `--unit unit` (of no --unit where None), byte for byte,
    in the table, --json and --csv — the one check of the units sessions 66–67 made read alike."""
    for form in ([], ["--json"], ["--csv"]):
        want = run(capsys, *argv, *form, *(["--unit", unit] if unit else []))
        assert want[0] == 0, (form, want)
        for spelt in spellings:
            assert run(capsys, *argv, *form, "--unit", spelt) == want, (spelt, form)


def read_runs(path: str | Path, only: dict[str, str] | None = None) -> list:
    """The runs a file holds, without the unit it states (what fit and plan read, through read_runs_unit)."""
    from dpscale.sources.fit_io import read_runs_unit

    return read_runs_unit(path, only)[0]


def imported_after(*argvs: list[str]) -> set[str]:
    """The modules a fresh interpreter holds after `dpscale ARGV` for each argv in turn (output silenced, argparse's
    exits caught): start-up tests ask which heavy ones a command pulled in."""
    import subprocess
    import sys

    code = (
        "import sys, io, contextlib\n"
        "from dpscale.faces.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    for argv in {[list(a) for a in argvs]!r}:\n"
        "        try:\n"
        "            main(argv)\n"
        "        except SystemExit:\n"
        "            pass\n"
        "print('\\n'.join(sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def bucket_sizes(grad_bytes: float, *caps: float):
    """Every DDP bucket's size in ready order: the runs of `bucket_runs` spelled out (tests read buckets one by one;
    the model needs only the runs)."""
    import numpy as np

    from dpscale.formulas.overlap import bucket_runs

    return np.repeat(*bucket_runs(grad_bytes, *caps))


def write_then_signal(sig: str, prelude: str = "") -> str:
    """A script that write_whole()s its argv[1] and sends itself signal `sig` with the file half written — the signal
    tests of files.write_whole run it in a child process; `prelude` runs first (a patched os.path.lexists)."""
    return (
        "import os, signal, sys, time\n"
        "from dpscale.files import write_whole\n"
        f"{prelude}\n"
        "def write(fh):\n"
        "    fh.write('half a ')\n"
        "    fh.flush()\n"
        f"    os.kill(os.getpid(), signal.{sig})\n"
        "    time.sleep(5)\n"
        "    fh.write('file')\n"
        "write_whole(sys.argv[1], write)\n"
    )


def marked_pids(marker: str) -> list[int]:
    """Processes still carrying an environment marker (the CLI or torchrun and every rank it started): measure's
    interrupt tests check none is left."""
    from pathlib import Path

    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if marker.encode() in (d / "environ").read_bytes():
                    pids.append(int(d.name))
            except OSError:
                continue
    return pids


def said(capsys, *argv: str) -> str:
    """stdout and stderr of `dpscale ARGV`, every run of whitespace one space (a wrapped note reads as one line)."""
    _, out, err = run(capsys, *argv)
    return " ".join((out + err).split())


def message(call) -> str:
    with pytest.raises(DpscaleError) as info:
        call()
    return str(info.value)


def run_main(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def signals_as_a_terminal_gives_them() -> None:
    """For a child process (preexec_fn): SIGHUP, SIGINT and SIGTERM at their defaults. pytest started under nohup,
    or as a non-interactive shell's background job, hands its children these signals ignored, and a test of what a
    signal does then saw a process the signal never reached."""
    import signal

    for name in ("SIGHUP", "SIGINT", "SIGTERM"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


def run_python(code: str, *argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=60, env=env,
        preexec_fn=signals_as_a_terminal_gives_them if os.name == "posix" else None,
    )  # fmt: skip


# The columns validate needs, and no more: files of many configurations written by the tests
SHORT_HEAD = (
    "cfg,baseline_devices,grad_accum,units_per_sample,system,gpus_per_node,intra_bw_gbs,inter_bw_gbs,model,"
    "precision,per_device_batch,devices,throughput,params_millions"
)


def pair(cfg: str, units: str = "1", precision: str = "amp") -> list[str]:
    """A configuration's two rows under SHORT_HEAD: 100/s on one device, 770/s on 8 (E 0.9625)."""
    return [f"{cfg},1,1,{units},dgx-a100,8,300,200,m,{precision},32,{d},{x},100" for d, x in ((1, 100), (8, 770))]


def keyed(p, key: str) -> list:
    return [n for n in p.notes if n.key == key]


def csv_of(tmp_path: Path, *rows: dict) -> Path:
    out = io.StringIO()
    w = csv.DictWriter(out, PUBLISHED_HEADER, lineterminator="\n")
    w.writeheader()
    w.writerows({**PUBLISHED_BASE, **r} for r in rows)
    path = tmp_path / "runs.csv"
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


PUBLISHED_BASE = dict(cfg="c", baseline_devices="8", grad_accum="1", units_per_sample="1", system="DGX A100",
                      gpus_per_node="8", intra_bw_gbs="600", inter_bw_gbs="100", model="m", precision="amp",
                      per_device_batch="32", devices="8", throughput="8000", params_millions="100",
                      unit="samples/s", gpu="A100", hardware="", framework="")  # fmt: skip


PUBLISHED_HEADER = ["cfg", "baseline_devices", "grad_accum", "units_per_sample", "system", "gpus_per_node",
                    "intra_bw_gbs", "inter_bw_gbs", "model", "precision", "per_device_batch", "devices", "throughput",
                    "params_millions", "unit", "gpu", "hardware", "framework"]  # fmt: skip


MEASURE_ROW = {"throughput": 1280.0, "throughput_spread": 0.0, "efficiency": 1.0, "speedup": 1.0, "step_s": 0.05,
        "compute_s": 0.04, "exposed_comm_share": 0.2, "overlap": 0.5, "launch_s": 1.0, "warmup": 10, "workload": "mlp",
        "batch": 64, "steps": 50, "backend": "gloo", "device": "cpu", "threads": 1}  # fmt: skip


# The calculator's JSON contract (the core issue) for its worked example, 64 × 2,000 × 0.9: the keys in their order
CALC_JSON = {
    "devices": 64,
    "per_device_throughput": 2000.0,
    "efficiency": 0.9,
    "ideal_throughput": 128000.0,
    "actual_throughput": 115200.0,
    "speedup": 57.6,
    "lost_throughput": 12800.0,
    "effective_devices": 57.6,
}


# The web page: its worked example, a request to its API, and the page served and opened in a real Chromium
WORKED = {"devices": "64", "throughput": "2000", "efficiency": "0.9"}


def post(client, command, options, lang="en"):
    return client.post(f"/api/{command}", json={"options": options, "lang": lang})


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # fmt: skip


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving() -> Iterator[str]:
    """`dpscale serve` as a real process on a free port while the block runs: its address, once it answers."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "dpscale", "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)  # fmt: skip
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url, timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def need_chromium() -> None:
    """Skip a browser test where Chromium or Playwright is missing, except in CI, which must run them (.ci/run
    installs Chromium, the test extra Playwright)."""
    import importlib.util

    missing = "chromium" if CHROMIUM is None else None
    missing = missing or (None if importlib.util.find_spec("playwright") else "playwright")
    if missing and os.environ.get("CI"):
        pytest.fail(f"CI needs {missing} (.ci/run installs Debian's chromium; the test extra, playwright)")
    if missing:
        pytest.skip(f"no {missing} here: apt-get install chromium; pip install -e '.[test]'")


@contextmanager
def chromium() -> Iterator[tuple[Any, Any]]:
    """Debian's Chromium under Playwright, and Playwright's `expect`: skipped here without them, a failure in CI."""
    need_chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser, sync_api.expect
        finally:
            browser.close()


def pasted_runs(text: str) -> list[str]:
    """The points the page's fit field sends for a paste (`pasted_runs_unit` without the unit a table states)."""
    from dpscale.faces.web.app import pasted_runs_unit

    return pasted_runs_unit(text)[0]


def script(path: Path) -> Any:
    """A script of validation/ or benchmarks/ loaded as a module (they are not a package): its constants and
    functions, the same ones its command line uses, not a copy of them in a test."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
