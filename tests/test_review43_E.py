"""Review 43 (E): the change set 5abbe34..04ad0c8 read hunk by hunk; each test fails without its fix."""

from __future__ import annotations

from clihelp import run

PIPE = ["pipeline", "-p", "4", "-m", "8", "--schedule", "interleaved", "--chunks"]


def test_a_huge_chunk_count_under_interleaved_is_one_line_not_a_traceback(capsys):
    """ed75c8a read --chunks with int() to pick the 1f1b hint: Python refuses to turn more than 4,300 digits into an
    int (ValueError: Exceeds the limit), so 5,000 nines under --schedule interleaved were a traceback, where 1f1b's
    whole() refuses them in one line. The hint still goes to 0, 1 and below, as the commit meant."""
    rc, _, err = run(capsys, *PIPE, "9" * 5000)
    assert rc == 2 and err.count("\n") == 1 and err.startswith("dpscale pipeline: error: --chunks: got '999")
    for small in ("0", "1", "-3", "1.0", "+1"):  # 1 chunk (or fewer) is --schedule 1f1b: said so
        rc, _, err = run(capsys, *PIPE, small)
        assert rc == 2 and err.endswith(f"--chunks: got {small!r}; allowed: 2 or more with --schedule interleaved "
                                        "(1 chunk is --schedule 1f1b)\n")  # fmt: skip
    rc, _, err = run(capsys, *PIPE, "2.5")
    assert rc == 2 and err.endswith("--chunks: got '2.5'; allowed: a whole number ≥ 2\n")
    rc, out, _ = run(capsys, *PIPE, "2", "--json")  # 2 chunks: (p − 1)/(v·m) = 3/16 of ideal time [NARAY21]
    assert rc == 0 and '"bubble_overhead": 0.1875' in out
