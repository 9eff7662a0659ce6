"""The page's fit box against a hostile paste: a field at its 10,000-character cap that is mostly one run of gaps
vs an ordinary paste of that length (goal: ratio ≤ 10; a regex that backtracked over each gap read 30 to
185). Review HT: '1:1' + 9,990 spaces + 'x' took 0.93 s a request, a header-like line of leading spaces 0.57 s.

    python benchmarks/bench_paste.py
Each hostile paste and the ordinary one are parsed by faces.web.app.pasted_runs_unit (what the page runs before
the fit), best of 5, the sides interleaved, measured in one run.
"""

from __future__ import annotations

import argparse

from timing import best_each

from dpscale.faces.web.app import MAX_VALUE_CHARS, pasted_runs_unit


def ordinary() -> str:
    """Runs one a line, 1..N devices, up to the field's cap."""
    text, d = "", 1
    while len(text) + len(f"{d}:{d * 900}\n") <= MAX_VALUE_CHARS:
        text += f"{d}:{d * 900}\n"
        d += 1
    return text


def hostile() -> dict[str, str]:
    """Pastes of the cap's length whose gaps a backtracking regex crosses once per gap: after a run, before a word
    (no-break spaces too), leading a line, between two words."""
    n = MAX_VALUE_CHARS - 10
    return {
        "spaces after a run": "1:1" + " " * n + "x",
        "no-break spaces after a run": "1:1" + "\u00a0" * n + "x",
        "spaces leading a line": " " * n + "x",
        "spaces between two words": "1" + " " * n + "x",
    }


def main() -> None:
    argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0]).parse_args()  # --help, not the run
    plain = ordinary()
    for label, text in hostile().items():
        t_plain, t_bad = best_each([lambda: pasted_runs_unit(plain), lambda t=text: pasted_runs_unit(t)], 5)
        print(f"{label:<28} ordinary {t_plain * 1e3:7.2f} ms   hostile {t_bad * 1e3:8.2f} ms   ratio "
              f"{t_bad / t_plain:7.1f}")  # fmt: skip
    print("goal: ratio ≤ 10 (one pass over the gaps); a split that backtracks over each gap read 30–185")


if __name__ == "__main__":
    main()
