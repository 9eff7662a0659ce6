"""Issue 5's contract for `dpscale measure`, point by point where no other test pins it."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("rich")

from dpscale.faces.cli.measure import Bar  # noqa: E402 (after the skip: rich is the measure extra's)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _drawn(monkeypatch: pytest.MonkeyPatch, quiet: bool, terminal: bool) -> str:
    err = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    with Bar(quiet) as bar:
        step = bar.task("train d=2")
        if step is not None:
            step(5, 10)
            step(10, 10)
    return err.getvalue()


def test_a_progress_bar_per_size_on_a_terminal_and_none_under_json(monkeypatch: pytest.MonkeyPatch) -> None:
    """'Progress: a progress bar per size on a terminal (rich), silent under --json' (issue 5, §6). The
    command builds its bar as Bar(args.json or args.csv); a size's beats reach it through task()."""
    shown = _drawn(monkeypatch, quiet=False, terminal=True)
    assert "train d=2" in shown and "100%" in shown
    assert _drawn(monkeypatch, quiet=True, terminal=True) == ""  # --json / --csv
    assert _drawn(monkeypatch, quiet=False, terminal=False) == ""  # piped: no bar either
