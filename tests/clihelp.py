"""Run the CLI in-process (fast) and capture what a user would see."""

from __future__ import annotations

from dpscale.faces.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `dpscale ARGV`; argparse's own exits are caught too."""
    try:
        rc = main(list(argv))
    except SystemExit as exc:
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


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
