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


def test_plans_band_note_keeps_a_tiny_bands_digits(capsys, tmp_path):
    """247e948, eca6e74 and 30b5900 gave a tiny E band its three significant digits in predict's table and the
    page's plan tab (notes.e3), but `plan`'s own band note still wrote fixed3: 'band of E is 0.000–0.000' beside
    an E of 2e-5. By hand, 1e6 samples at 64 × 100/s: E 2.5e-5 runs 0.16/s, 6.25e6 s = 1,736.1 h; E 1.5e-5 runs
    0.096/s, 1.0417e7 s = 2,893.5 h."""
    report = tmp_path / "fit.json"
    report.write_text(
        '{"confidence": 0.9, "baseline_devices": 8, "predictions": ['
        '{"devices": 8, "efficiency": 1.0, "efficiency_lo": 0.98, "efficiency_hi": 1.02}, '
        '{"devices": 64, "efficiency": 2e-5, "efficiency_lo": 1.5e-5, "efficiency_hi": 2.5e-5}]}'
    )
    argv = ["plan", "--efficiency-file", str(report), "-d", "8,64", "--samples", "1e6", "-v", "100"]
    rc, out, _ = run(capsys, *argv)
    assert rc == 0 and "the file's 90 % band of E is 1.5e-05–2.5e-05: time 1,736.1 h – 2,893.5 h" in out
    rc, out, _ = run(capsys, *argv, "--lang", "es")
    assert rc == 0 and "la banda del 90 % de E del archivo es 1,5e-05–2,5e-05: tiempo 1.736,1 h – 2.893,5 h" in out
    report.write_text(report.read_text().replace("2e-5", "0.5").replace("1.5e-5", "0.45").replace("2.5e-5", "0.55"))
    rc, out, _ = run(capsys, *argv)  # an ordinary band keeps three decimals: 1e6 / (6400 × 0.55) s = 0.079 h
    assert rc == 0 and "band of E is 0.450–0.550: time 4.7 min – 5.8 min" in out
