"""`dpscale validate`: its table, its titles and its counts of skipped configurations."""

from __future__ import annotations

from pathlib import Path

from clihelp import SHORT_HEAD, pair, run

# Session 43's own findings: each test failed before its fix.


def test_validate_s_skip_counts_are_written_as_every_other_count(capsys, tmp_path):
    """'1500 of them without units per sample … (+1497)' beside '1,500 configurations': now 1,500 and +1,497 (1.500
    and +1.497 in Spanish)."""
    head = ("cfg,baseline_devices,grad_accum,grad_accum_known,units_per_sample,system,gpu,gpus_per_node,intra_bw_gbs,"
            "inter_bw_gbs,source,model,framework,hardware,interconnect,precision,per_device_batch,devices,throughput,"
            "unit,params_millions,notes")  # fmt: skip
    rows = [f"c{i},1,1,yes,,dgx-a100,A100,8,300,200,s,m,f,h,i,AMP,32,{d},{100 * d},x/s,25," for i in range(1500)
            for d in (1, 2)]  # fmt: skip
    path = tmp_path / "many.csv"
    path.write_text("\n".join([head, *rows]) + "\n")
    rc, out, err = run(capsys, "validate", str(path))
    assert "1,500 of them without units per sample" in out + err and "(+1,497)" in out + err
    rc, out, err = run(capsys, "validate", str(path), "--lang", "es")
    assert "1.500 de ellas sin unidades por muestra" in out + err and "(+1.497)" in out + err


# Mutation sweep 13 (of the modules earlier sweeps touched least: measure's launcher, results, calibration and
# workloads; the fit, validate, pipeline and batch commands; formulas batch, pipeline, compute and units; the web
# app): gaps the suite left open, each killing a surviving mutant.


ROOT = Path(__file__).resolve().parents[1]


# ---- faces/cli/validate.py -----------------------------------------------------------------------------------
def test_a_configuration_id_of_exactly_the_width_is_shown_whole():
    """cli/validate.py:163 `len(cfg) <= CFG_WIDTH` → `<`. An id of exactly 60 characters fits the 60-character
    column whole; one of 61 keeps 59 and '…' (60 in all)."""
    from dpscale.faces.cli.validate import _cut

    assert _cut("x" * 60) == "x" * 60
    assert _cut("y" * 61) == "y" * 59 + "…"


def test_skipped_configurations_past_the_first_three_are_counted():
    """cli/validate.py:143 '(+{len(cfgs) - shown})' → '(+{len(cfgs)})', `> shown` → `>=`,
    and the 3 shown → 2. Five configurations without GPUs per node: the first three by name, then '… (+2)' for the
    5 − 3 left; three are all named, with nothing after them."""
    from dpscale.faces.cli.validate import _skip_reasons

    reasons = {f"c{i}": {"missing": "gpus_per_node"} for i in range(1, 6)}
    assert _skip_reasons(reasons, "en") == ["5 of them without GPUs per node: c1, c2, c3, … (+2)"]
    three = {f"c{i}": {"missing": "gpus_per_node"} for i in range(1, 4)}  # all shown: no '… (+0)'
    assert _skip_reasons(three, "en") == ["3 of them without GPUs per node: c1, c2, c3"]


def test_validate_says_how_many_measurements_the_band_holds(capsys):
    """cli/validate.py:104 the band-coverage note dropped. holdout_tfbench.csv checks 17 points: the note gives the
    share of them inside the predicted 80 % band, a whole number of seventeenths."""
    import re

    rc, out, _ = run(capsys, "validate", str(ROOT / "validation" / "holdout_tfbench.csv"))
    assert rc == 0 and "note: 17 points in 6 configurations" in out
    (share,) = re.findall(r"note: ([\d.]+) % of measurements inside the predicted 80 % band", out)
    assert any(abs(float(share) - 100 * k / 17) < 0.05 for k in range(18))


# Mutation sweep 9 (session 35, of 9e8c82d..559d506): gaps the suite left open, each killing a surviving mutant.


# ---- faces/cli/validate.py and its labels: counts with thousands marks, Spanish singular ---------------------
def test_a_mix_of_lacking_and_lone_configurations_is_counted_with_thousands_marks(tmp_path, capsys):
    lone = [pair(f"b{i}")[0] for i in range(1000)]  # each its baseline row alone
    lack = pair("t", units="")  # one configuration lacking units per sample
    (tmp_path / "m.csv").write_text("\n".join([SHORT_HEAD, *lack, *lone]) + "\n")
    rc, out, _ = run(capsys, "validate", str(tmp_path / "m.csv"))
    assert rc == 0 and "nothing to check in 1,001 configurations: " in out
    assert "is missing in 1, and there is only a baseline row in 1,000" in out
    rc, out, _ = run(capsys, "validate", str(tmp_path / "m.csv"), "--lang", "es")
    assert rc == 0 and "nada que comprobar en 1.001 configuraciones: " in out
    assert "en 1, y solo hay fila de referencia en 1.000" in out
    (tmp_path / "ok.csv").write_text("\n".join([SHORT_HEAD, *pair("ok"), *lone]) + "\n")
    rc, out, _ = run(capsys, "validate", str(tmp_path / "ok.csv"))
    assert rc == 0 and "1,000 configuration(s) with only their baseline row: nothing to predict" in out
    rc, out, _ = run(capsys, "validate", str(tmp_path / "ok.csv"), "--lang", "es")
    assert rc == 0 and "1.000 configuraciones con solo su fila de referencia" in out


# Review AN (session 46): mutation testing of the session's source changes — a test for each hand-made mutant that
# survived the session's own tests and that a user would see.


def test_a_title_that_names_a_file_shows_its_control_characters_escaped(capsys, tmp_path):
    """validate's title names the files it read: a name holding ESC[2J (clear the screen) is shown as \\x1b[2J, as
    the rows and notes under it are, not run on the terminal."""
    from pathlib import Path

    dev = Path(__file__).parents[1] / "validation" / "published_scaling_dev.csv"
    data = tmp_path / "d\x1b[2J.csv"
    data.write_text(dev.read_text())
    rc, out, _ = run(capsys, "validate", str(data))
    assert rc == 0 and out.splitlines()[0].startswith(f"dpscale validate --mode predict: {tmp_path}/d\\x1b[2J.csv")
    assert "\x1b" not in out
