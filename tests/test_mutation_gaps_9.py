"""Mutation sweep 9 (session 35, of 9e8c82d..559d506): gaps the suite left open, each killing a surviving mutant."""

from __future__ import annotations

import json
import math

import pytest
from clihelp import run

import dpscale
from dpscale.errors import DpscaleError
from dpscale.sources.dataset import read_published

SHORT_HEAD = (
    "cfg,baseline_devices,grad_accum,units_per_sample,system,gpus_per_node,intra_bw_gbs,inter_bw_gbs,model,"
    "precision,per_device_batch,devices,throughput,params_millions"
)


def pair(cfg: str, units: str = "1", precision: str = "amp") -> list[str]:
    """A configuration's two rows under SHORT_HEAD: 100/s on one device, 770/s on 8 (E 0.9625)."""
    return [f"{cfg},1,1,{units},dgx-a100,8,300,200,m,{precision},32,{d},{x},100" for d, x in ((1, 100), (8, 770))]


# ---- fit.py: devices_for(efficiency=…) --------------------------------------------------------------------
def test_a_minimum_e_held_exactly_is_kept_and_a_low_baseline_draw_answers_d0():
    """E ≥ the minimum, not >: runs that scale perfectly keep E = 1 at every size (∞), the resamples whose
    baseline draw falls below answer d0 (1), not NaN."""
    f = dpscale.fit([(1, 100), (2, 200), (4, 400), (8, 800)])
    a = f.devices_for(efficiency=1.0)
    assert (a["devices"], a["lo"], a["hi"]) == (math.inf, 1.0, math.inf)
    noisy = dpscale.fit([(1, 100), (1, 101.5), (2, 197), (2, 199), (4, 380), (8, 700), (16, 1250)], law="amdahl")
    a = noisy.devices_for(efficiency=0.99)
    assert (a["devices"], a["lo"], a["hi"]) == (1.0, 1.0, 2.0)


# ---- fit_io.py: range_95, the conflict note, a fit's JSON ---------------------------------------------------
def test_the_two_run_bound_is_the_closed_form():
    """Two runs' range is √2·|Z|: its 95th percentile is √2·z(0.975) = 2.771808 exactly (the grid keeps it to
    1e-5; a coarser one read 2.77196, which moves the conflict bound)."""
    from statistics import NormalDist

    from dpscale.sources.fit_io import range_95

    assert range_95(2) == pytest.approx(2**0.5 * NormalDist().inv_cdf(0.975), abs=1e-5)


def test_identical_copies_are_held_to_the_two_run_bound():
    f = dpscale.fit([(1, 1000), (1, 1000), (2, 1950), (4, 3800)])
    (w,) = [w for w in f.warnings if w.key == "runs_repeated"]
    assert w.fields["k"] == 2 and round(w.fields["bound"], 2) == 2.77


def test_only_a_fit_s_own_json_is_refused_as_a_fitted_law(tmp_path, capsys):
    """A run with a stray "law" or "criterion" key is still a run; a JSON list naming both is no fit."""
    runs = '{"devices": 1, "throughput": 100, %s}\n' + "".join(
        f'{{"devices": {d}, "throughput": {x}}}\n' for d, x in ((2, 190), (4, 350))
    )
    for extra in ('"law": "usl"', '"criterion": "loo"'):
        path = tmp_path / "r.jsonl"
        path.write_text(runs % extra)
        rc, out, err = run(capsys, "fit", str(path), "--resamples", "100")
        assert rc == 0 and "fitted law: " in out, err
    path.write_text('{"devices": 1, "throughput": 100}\n["law", "criterion"]\n')
    rc, _, err = run(capsys, "fit", str(path))
    said = 'line 2: got \'["law", "criterion"]\'; allowed: an object with "devices" and "throughput"'
    assert rc != 0 and said in err
    rc, out, _ = run(capsys, "fit", "--point", "1:100", "--point", "2:190", "--point", "4:350", "--json",
                     "--resamples", "100")  # fmt: skip
    law = tmp_path / "law.json"
    law.write_text(out)
    rc, _, err = run(capsys, "fit", str(law))
    assert rc != 0 and "a fitted law (`dpscale fit --json`), not runs" in err


# ---- predict.py: Prediction.band ----------------------------------------------------------------------------
def test_e_s_band_stays_at_or_below_one_above_the_measured_size():
    """A tiny model on fast links keeps E ≈ 0.95–0.99: its +9 % share would read E_hi 1.03–1.05 unclipped."""
    from dpscale.sources.predict import predict

    p = predict([2, 8, 64], params=1e6, step_time_s=1.0, system="dgx-a100")
    lo, hi = p.band()
    assert hi.tolist() == [1.0, 1.0, 1.0] and (lo < p.efficiency_values).all()
    assert [r["actual_throughput_hi"] for r in p.records()] == pytest.approx([64, 256, 2048])


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


# ---- i18n.number: fixed3 at the rounding boundary -------------------------------------------------------------
def test_a_signed_error_of_half_a_thousandth_keeps_its_sign():
    from dpscale.faces.i18n import number

    assert [number(x, "fixed3") for x in (-0.0005, -0.00049)] == ["-0.001", "0.000"]


# ---- dataset.py: header lines after blank lines, the E slip bound ---------------------------------------------
def test_a_column_twice_after_blank_lines_is_named_on_the_header_s_line(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text("\n\n" + SHORT_HEAD + ",devices\n" + "\n".join(pair("a")) + "\n")
    with pytest.raises(DpscaleError, match=r"t\.csv line 3: column devices twice"):
        read_published(path)
    path.write_text("\n\ncfg,devices\nx,1\n")
    rc, _, err = run(capsys, "validate", str(path), "--lang", "es")
    assert rc != 0 and "t.csv línea 3: faltan las columnas baseline_devices" in err


def test_a_measured_e_between_two_and_twenty_is_refused(tmp_path):
    (tmp_path / "s.csv").write_text(SHORT_HEAD + "\na,1,1,1,dgx-a100,8,300,200,m,amp,32,1,100,100\n"
                                    "a,1,1,1,dgx-a100,8,300,200,m,amp,32,8,2400,100\n")  # fmt: skip
    with pytest.raises(DpscaleError, match=r"s\.csv line 3, column 'throughput': got 2400, E = 3 against"):
        read_published(tmp_path / "s.csv")


def test_the_slip_refusal_names_e_to_four_digits_and_the_bound_itself_passes(tmp_path):
    row = "a,1,1,1,dgx-a100,8,300,200,m,amp,32,{d},{x},100"
    path = tmp_path / "s.csv"
    path.write_text("\n".join([SHORT_HEAD, row.format(d=1, x=100), row.format(d=8, x=1876)]) + "\n")
    said = r"s\.csv line 3, column 'throughput': got 1876, E = 2\.345 against the baseline's 100 at 1 device \(line 2\)"
    with pytest.raises(DpscaleError, match=said + "; allowed: E up to 2 — "):
        read_published(path)
    path.write_text("\n".join([SHORT_HEAD, row.format(d=1, x=100), row.format(d=8, x=1600)]) + "\n")
    (c,) = read_published(path)  # E = 2 exactly: allowed
    assert c.efficiency(c.rows[1]) == 2.0
    two = "a,2,1,1,dgx-a100,8,300,200,m,amp,32,{d},{x},100"
    path.write_text("\n".join([SHORT_HEAD, two.format(d=2, x=100), two.format(d=16, x=2000)]) + "\n")
    with pytest.raises(DpscaleError, match=r"E = 2\.5 against the baseline's 100 at 2 devices \(line 2\)"):
        read_published(path)


def test_one_configuration_is_one_inter_node_link(tmp_path):
    path = tmp_path / "l.csv"
    path.write_text("\n".join([SHORT_HEAD, "a,1,1,1,dgx-a100,8,300,200,m,amp,32,1,100,100",
                               "a,1,1,1,dgx-a100,8,300,100,m,amp,32,8,770,100"]) + "\n")  # fmt: skip
    with pytest.raises(DpscaleError, match=r"l\.csv line 3, column 'inter_bw_gbs': got '100'; allowed: '200', as on "
                                           r"line 2 — one configuration is one setup"):  # fmt: skip
        read_published(path)


def test_a_header_after_a_line_of_commas_is_named_on_its_own_line(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("\n,,,\ncfg,devices\nx,1\n")
    with pytest.raises(DpscaleError, match=r"c\.csv line 3: missing columns baseline_devices, "):
        read_published(path)


def test_the_conflict_note_gives_two_decimals_in_spanish(capsys):
    rc, out, _ = run(capsys, "fit", "--lang", "es", "--point", "1:1000", "--point", "1:1030", "--point", "2:1950",
                     "--point", "4:3800", "--resamples", "100")  # fmt: skip
    said = (
        "2 ejecuciones discordantes de 1 dispositivo (dispersión 2,96 %, más que el 2,77 % que un ruido del 1 % entre "
        "ejecuciones no supera con 2 ejecuciones el 95 % de las veces)"
    )
    assert rc == 0 and said in out


def test_an_e_just_past_two_is_said_in_the_digits_that_show_it(tmp_path):
    """1600.01 against 100 at 1 device is E = 2.00001: '.4g' printed 'E = 2; allowed: E up to 2' (the sweep's
    review); validate, fit and calc now share one rule (formulas.scaling.past)."""
    row = "a,1,1,1,dgx-a100,8,300,200,m,amp,32,{d},{x},100"
    path = tmp_path / "s.csv"
    path.write_text("\n".join([SHORT_HEAD, row.format(d=1, x=100), row.format(d=8, x=1600.01)]) + "\n")
    with pytest.raises(DpscaleError, match=r"got 1600\.01, E = 2\.00001 against the baseline's 100 at 1 device"):
        read_published(path)


def test_a_spread_just_past_the_bound_is_said_in_the_decimals_that_show_it(capsys):
    """196 and 201.513 spread 2.774 % against the 2.772 % bound of two runs: both printed as '2.77 %' (the sweep's
    review). The two take the decimals that tell them apart, in both languages; 2 where those do."""
    runs = ["--point", "1:100", "--point", "2:196", "--point", "2:201.5130", "--point", "4:380", "--point", "8:700"]
    rc, out, _ = run(capsys, "fit", *runs, "--resamples", "100")
    assert rc == 0 and "(spread 2.774 %, beyond the 2.772 % within which" in out
    rc, out, _ = run(capsys, "fit", *runs, "--resamples", "100", "--lang", "es")
    assert rc == 0 and "(dispersión 2,774 %, más que el 2,772 % que un ruido" in out
    f = dpscale.fit([(1, 100), (2, 196), (2, 201.513), (4, 380), (8, 700)], resamples=100)
    (w,) = [w for w in f.warnings if w.key == "runs_conflicting"]
    assert w.fields["places"] == 3


def test_a_label_read_as_16_bit_gradients_is_not_called_unknown(tmp_path, capsys):
    """'opt_level O2' counts 2-byte gradients (apex casts the model), yet the note said it 'counts as fp32, 4
    bytes' (the sweep's review): one rule (half_reduced) for both. 'FP7' still counts as fp32, and is said."""
    path = tmp_path / "p.csv"
    for label, said in (("opt_level O2", False), ("FP7", True)):
        path.write_text("\n".join([SHORT_HEAD, *pair("a", precision=label)]) + "\n")
        rc, out, _ = run(capsys, "validate", str(path), "--json")
        assert rc == 0 and (json.loads(out)["unknown_precision"] == {"a": label}) is said
    path.write_text("\n".join([SHORT_HEAD, *pair("a", precision="opt_level O2")]) + "\n")
    half = json.loads(run(capsys, "validate", str(path), "--json")[1])["rows"][0]["predicted"]
    path.write_text("\n".join([SHORT_HEAD, *pair("a", precision="fp16 allreduce")]) + "\n")
    assert json.loads(run(capsys, "validate", str(path), "--json")[1])["rows"][0]["predicted"] == half


def test_a_closed_cell_of_two_lines_is_no_unclosed_quote(tmp_path):
    """A quoted model name over two lines, on a row one field short, was explained as 'a quote opened on this line
    does not close' (the sweep's review). A quote that never closes swallows the rows after it, and is still said."""
    rows = pair("a")
    short = rows[1].replace(",m,", ',"big\nmodel",').rsplit(",", 1)[0]  # the two-line cell on the short row
    path = tmp_path / "q.csv"
    path.write_text("\n".join([SHORT_HEAD, rows[0], short]) + "\n")
    with pytest.raises(DpscaleError, match=r"q\.csv line 3: got 13 fields; allowed: 14 as in the header$"):
        read_published(path)
    path.write_text("\n".join([SHORT_HEAD, rows[0].replace(",m,", ',"m,'), rows[1]]) + "\n")
    with pytest.raises(DpscaleError, match=r"line 2: a quote opened on this line does not close before the file ends"):
        read_published(path)
    # closed by a later cell's quote, the rows between swallowed: the field count is off, and the quote is named
    opened, closed = rows[0].replace(",m,", ',"m,'), rows[1].replace(",dgx-a100,", ',dgx-a100",')
    path.write_text("\n".join([SHORT_HEAD, opened, closed]) + "\n")
    with pytest.raises(DpscaleError, match=r"line 2: got \d+ fields; allowed: 14 as in the header \(a quote opened"):
        read_published(path)


def test_a_quote_open_in_the_last_column_is_refused_not_a_swallowed_tail(tmp_path, capsys):
    """An unclosed quote in the last cell kept the field count right, so validate dropped every row after it
    into that cell and scored what was left, exit 0 (a review of the sweep's fixes). csv's strict mode ends it."""
    rows = pair("a") + pair("b")
    head = SHORT_HEAD + ",hardware"
    body = [rows[0] + ",x", rows[1] + ',"8x A100', rows[2] + ",x", rows[3] + ",x"]
    path = tmp_path / "u.csv"
    path.write_text("\n".join([head, *body]) + "\n")
    rc, _, err = run(capsys, "validate", str(path))
    assert rc == 2 and "u.csv line 3: a quote opened on this line does not close before the file ends" in err
    path.write_text("\ufeff" + "\r\n".join([head, *body]) + "\r\n")
    rc, _, err = run(capsys, "validate", str(path), "--lang", "es")
    assert rc == 2 and "u.csv línea 3: unas comillas abiertas en esta línea no se cierran" in err


def test_e_of_exactly_two_in_decimals_is_the_bound_not_past_it(tmp_path, capsys):
    """19.8/s on 3 devices against 3.3/s on one is E = 2.0000000000000004 in floats: calc, fit and validate refused
    the bound itself (a review of the sweep's fixes). Past it by more than rounding is still refused."""
    rc, out, _ = run(capsys, "calc", "-d", "3", "-v", "3.3", "--actual", "19.8")
    assert rc == 0 and "scaling efficiency E" in out
    rc, out, _ = run(capsys, "calc", "-d", "3", "-v", "3.3", "--actual", "19.81")
    assert rc == 2
    rc, out, err = run(capsys, "fit", "--point=1:3.3", "--point=3:19.8", "--point=6:30", "--resamples", "50")
    assert rc == 0, err
    row = "a,1,1,1,dgx-a100,8,300,200,m,amp,32,{d},{x},100"
    path = tmp_path / "two.csv"
    path.write_text("\n".join([SHORT_HEAD, row.format(d=1, x=3.3), row.format(d=3, x=19.8)]) + "\n")
    (c,) = read_published(path)
    assert c.efficiency(c.rows[1]) == pytest.approx(2.0)


def test_a_spread_equal_to_the_bound_at_nine_decimals_is_no_conflict(capsys):
    """A spread matching the two-run bound to 9 decimals read '2.771808023 % beyond the 2.771808023 %'."""
    rc, out, _ = run(capsys, "fit", "--point=1:100", "--point=1:102.81076249271857", "--point=2:190",
                     "--point=4:360", "--resamples", "50")  # fmt: skip
    assert rc == 0 and "2 repeated runs of 1 device (spread 2.8 %)" in out and "conflicting" not in out
