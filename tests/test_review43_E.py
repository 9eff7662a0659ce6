"""Review 43 (E): the change set 5abbe34..04ad0c8 read hunk by hunk; each test fails without its fix."""

from __future__ import annotations

import pytest
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


def test_the_notes_left_at_three_decimals_write_a_tiny_e_by_the_one_rule(capsys, tmp_path):
    """30b5900 made notes.e3 'one rule for writing an E', but two notes kept '{e:.3f}': fit's flat-runs note said
    'E 0.000' of per-device rates (E ≈ d0/d), and predict's accumulation note 'E 0.000 instead of 0.000'.
    By hand: 101/s on 8,192 devices against 100/s on one is E = 101 / (8,192 × 100) = 1.233e-4."""
    runs = tmp_path / "flat.csv"
    runs.write_text("devices,throughput\n1,100\n4096,100\n8192,101\n")
    rc, out, err = run(capsys, "fit", str(runs))
    assert rc == 0 and "give ×1.01 the throughput (E 0.000123): fit reads" in out + err
    rc, out, err = run(capsys, "fit", str(runs), "--lang", "es")
    assert rc == 0 and "solo multiplica el rendimiento por 1,01 (E 0,000123): fit lee" in out + err
    import re

    from dpscale.sources.predict import predict

    kw = dict(model="resnet-50", system="aws-p4d", params=1e12, inter_bw_gbs=0.01, intra_bw_gbs=0.01, grad_accum=4)
    (note,) = [n for n in predict([8, 64], **kw).notes if n.key == "accumulation_exposed"]
    hidden, exposed = re.search(r"at 64 devices E (\S+) instead of (\S+)\)$", note).groups()  # type: ignore[union-attr]
    assert "0.000" not in (hidden, exposed)  # each its 3 significant digits: the figure it stands for, read back
    assert float(hidden) == pytest.approx(note.fields["e_hidden"], rel=5e-3) and note.fields["e_hidden"] < 1e-6
    assert float(exposed) == pytest.approx(note.fields["e"], rel=5e-3)
    (ordinary,) = [n for n in predict([8, 64], model="resnet-50", system="dgx-a100", grad_accum=4).notes
                   if n.key == "accumulation_exposed"]  # fmt: skip
    assert re.search(r"E 0\.\d{3} instead of 0\.\d{3}\)$", ordinary)  # three decimals, as before


def test_warnings_at_finds_a_runner_up_past_the_first_block(monkeypatch):
    """0cef675's test put the first runner-up size (24) inside the first block of five sizes, so a warnings_at that
    read the first block alone passed it (a hand mutation survived). One size a block here: 8, 16 are measured and
    say nothing, and the note must still come from the third block, the same as predict's over all sizes at once."""
    import dpscale
    import dpscale.sources.fit as fit_module

    f = dpscale.fit(devices=[8, 16, 32, 64], throughput=[6500.0, 12200.0, 23000.0, 43000.0])
    sizes = list(range(8, 1025, 8))
    whole = list(f.predict(sizes).warnings)
    assert [w.key for w in whole] == ["extrapolating", "laws_disagree"] and whole[1].fields["d"] == 24
    monkeypatch.setattr(fit_module, "GRID_CELLS", f.samples.shape[0])  # one size a block
    assert f.warnings_at(sizes) == whole


@pytest.mark.slow
def test_the_plan_tabs_band_note_writes_a_tiny_band_as_the_table_beside_it():
    """eca6e74 said the plan tab's band note writes a tiny band 'as the table's E lo/hi', but it used Intl's
    scientific notation: 'E 1.77e-5–2.27e-5' beside table cells of 1.77e-05 and 2.27e-05 (Python's '.3g', which
    also writes 0.0004 where Intl wrote 4e-4). The note's ends are now the very text of the table's cells."""
    from test_web import chromium, serving

    with serving() as url, chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url)
        expect(page.locator("#result")).to_contain_text("115,200 samples/s")
        page.click("#tab-predict")
        for k, v in {"params": "1e15", "intra_bw": "0.001", "inter_bw": "0.001", "devices": "1,8,64"}.items():
            page.fill(f"#predict input[name={k}]", v)
        page.click("#predict .run")
        expect(page.locator("#result tbody tr")).to_have_count(3)
        heads = page.locator("#result thead th").all_inner_texts()
        cells = page.locator("#result tbody tr").last.locator("td").all_inner_texts()
        lo, hi = (cells[heads.index(h)].strip() for h in ("E lo", "E hi"))
        assert "e-" in lo and "e-" in hi  # a tiny band: 3 significant digits, Python's exponent (e-05)
        page.click("#tab-plan")
        page.locator("#plan .take").click()
        expect(page.locator("#notes")).to_contain_text(f"its band, E {lo}–{hi} at 64 devices")
