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
