"""`dpscale calc` through the CLI: the JSON contract, solves, sweeps, outputs and bad input."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from clihelp import CALC_JSON, imported_after, run, said

from dpscale.errors import DpscaleError
from dpscale.faces.cli import main
from dpscale.faces.cli.common import parse_devices


def test_json_contract(capsys):
    rc, out, _ = run(capsys, "calc", "--devices", "64", "--throughput", "2000", "--efficiency", "0.9", "--json")
    assert rc == 0 and json.loads(out) == CALC_JSON
    assert list(json.loads(out)) == list(CALC_JSON)  # key order is part of the contract


def test_no_inputs_shows_the_worked_example(capsys):
    for argv in ([], ["calc"]):
        rc, out, _ = run(capsys, *argv)
        assert rc == 0
        assert "Worked example" in out
        assert "115,200 samples/s" in out and "57.6×" in out and "12,800" in out
    # the title says the rows' unit (it said samples/s over rows in tokens/s), in both languages, and plan's too
    for argv, title in [
        (["--unit", "tokens/s"], "Worked example: 64 devices × 2,000 tokens/s at E = 0.9\n"),
        (["--lang", "es"], "Ejemplo resuelto: 64 dispositivos × 2.000 muestras/s con E = 0,9\n"),
        (["plan", "--unit", "tokens/s"], "Worked example: 1.28M tokens × 90 epochs at 2,000 tokens/s per device"),
    ]:
        rc, out, _ = run(capsys, *argv)
        assert rc == 0 and out.startswith(title)


def test_errors_in_spanish_keep_the_flag_and_the_value(capsys):
    rc, _, err = run(capsys, "-d", "64", "-v", "2000", "-e", "90", "--lang", "es")
    assert rc == 2 and err == (
        "dpscale calc: error: --efficiency: se recibió '90'; se admite: una eficiencia de escalado en (0, 1] "
        "(90 % = 0.9)\n"  # typed as the flag takes it: '0,9' is refused (the comma separates a list)
    )
    rc, _, err = run(capsys, "-d", "64", "-v", "2000", "-e", "90.5%", "--lang", "es")
    assert rc == 2 and err.strip().endswith("(90,5 % = 0.905)")
    rc, _, err = run(capsys, "-d", "64", "-v", "2000", "--law", "usl", "--sigma", "2", "--lang", "es")
    assert rc == 2 and "--sigma: se recibió 2; se admite: una contención σ en [0, 1)" in err
    # the plot path's refusal has the standard parts too (it was said in English)
    rc, _, err = run(capsys, "-d", "64", "-v", "2000", "-e", "0.9", "--plot", "x.gif", "--lang", "es")
    assert rc == 2 and "--plot: se recibió 'x.gif'; se admite: un nombre de archivo terminado en .png" in err
    rc, _, err = run(capsys, "-d", "0", "-v", "2000", "-e", "0.9")  # English stays English
    assert rc == 2 and "--devices: got '0'; allowed: whole numbers from 1" in err


def test_spanish_number_styles_are_refused_not_misread(capsys):
    """A Spanish reader writes two thousand as 2.000 and nine tenths as 0,9: read as English, those are 2 and the
    list (0, 9). Both are refused naming the flag, on the command line as on the web page."""
    rc, _, err = run(capsys, "-d", "64", "-v", "2.000", "-e", "0.9", "--lang", "es")
    assert rc == 2 and err == (
        "dpscale calc: error: --throughput: se recibió '2.000'; se admite: ningún punto ante exactamente tres "
        "cifras, que en español separa los miles (2.000 = dos mil): 2000 para dos mil, 2.5 o 2.50 para dos y medio\n"
    )
    # with an exponent too (the page's 1.28e6 rewritten 1,28e6 was 'allowed: a sample count > 0', which it is)
    rc, _, err = run(capsys, "plan", "-n", "1,28e6", "--epochs", "90", "-v", "2000", "--lang", "es")
    assert rc == 2 and "--samples: se recibió '1,28e6'; se admite: un número sin separador de miles y con punto" in err
    rc, _, err = run(capsys, "-d", "64", "-v", "2,5e3", "-e", "0.9")
    assert rc == 2 and "--throughput: got '2,5e3'; allowed: a number with a decimal point: 2.5, not 2,5" in err
    rc, _, err = run(capsys, "-d", "8,1.024", "-v", "2000", "-e", "0.9", "--lang", "es")
    assert rc == 2 and "--devices: se recibió '8,1.024'" in err
    # an option with an alias is named as its other errors name it (the web page's field is --batch)
    rc, _, err = run(capsys, "predict", "--model", "resnet50", "--system", "dgx-a100", "-b", "2.000", "--lang", "es")
    assert rc == 2 and "dpscale predict: error: --batch: se recibió '2.000'" in err
    rc, _, err = run(capsys, "-d", "64", "-v", "2000", "-e", "0,9")
    assert rc == 2 and "--efficiency: got '0,9'; allowed: a scaling efficiency in (0, 1] with a decimal point" in err
    rc, _, err = run(capsys, "-d", "8,16", "-v", "2000", "-e", "0,9,0,8")  # one per size, each with its comma
    assert rc == 2 and "got '0,9,0,8'; allowed: a scaling efficiency in (0, 1] with a decimal point" in err  # not '0'
    rc, _, err = run(capsys, "-d", "64", "-v", "2000", "-e", "2,5")  # not '2 % = 0.02': a decimal comma
    assert rc == 2 and "--efficiency: got '2,5'; allowed: a scaling efficiency in (0, 1] with a decimal point" in err
    rc, _, err = run(capsys, "-d", "8,16", "-v", "2000", "-e", "90,85")  # two percentages: the first is hinted
    assert rc == 2 and "--efficiency: got '90'; allowed: a scaling efficiency in (0, 1] (90 % = 0.9)" in err
    # what no Spanish number is read differently: 0.900 (no group starts with 0), a list of valid E, English 2.000
    assert run(capsys, "-d", "64", "-v", "2000", "-e", "0.900", "--lang", "es")[0] == 0
    assert run(capsys, "-d", "1,2", "-v", "2000", "-e", "1,1", "--lang", "es")[0] == 0
    rc, out, _ = run(capsys, "-d", "64", "-v", "2.000", "-e", "0.9", "--json")
    assert rc == 0 and '"actual_throughput": 115.2' in out


def test_a_tiny_efficiency_keeps_its_digits(capsys):
    rc, out, _ = run(capsys, "-d", "8", "-v", "100", "-e", "1e-5")  # it printed '0.000 (0.0 %)'
    assert rc == 0 and "scaling efficiency E       1e-05 (0.001 %)" in out


def test_spanish_labels_and_numbers(capsys):
    rc, out, _ = run(capsys, "--lang", "es")
    assert rc == 0
    assert "115.200 muestras/s" in out and "57,6×" in out and "Ejemplo resuelto" in out
    rc, out, _ = run(capsys, "-d", "8,64", "-v", "100", "--law", "amdahl", "--serial-fraction", "0.02", "--lang", "es")
    assert rc == 0 and "E(d) según Amdahl, fracción serie = 0,02" in out
    rc, out, _ = run(capsys, "-d", "1,8", "-v", "100", "-e", "1,0.85", "--lang", "es")
    assert rc == 0 and "E(d) según E por tamaño: 1→1; 8→0,85" in out


def test_e_per_size_below_one_at_one_device_is_refused(capsys):
    """`-d 1,8 -e 0.9,0.8` printed one device at 90 % of itself (speedup 0.90×); a single number is held at 1."""
    rc, _, err = run(capsys, "-d", "1,8", "-v", "100", "-e", "0.9,0.8")
    assert rc == 2 and err.strip().endswith("--efficiency: got 0.9; allowed: E = 1 at one device, its own reference "
                                            "(a single number is held at 1 there)")  # fmt: skip
    rc, _, err = run(capsys, "-d", "1,8", "-v", "100", "-e", "0.9,0.8", "--lang", "es")
    assert rc == 2 and "--efficiency: se recibió 0.9; se admite: E = 1 en un dispositivo" in err
    rc, out, _ = run(capsys, "-d", "1,8", "-v", "100", "-e", "0.9", "--json")
    assert rc == 0 and [r["efficiency"] for r in json.loads(out)] == [1.0, 0.9]


@pytest.mark.parametrize(
    "argv, key, value",
    [
        (["-d", "64", "-v", "2000", "--actual", "115200"], "efficiency", 0.9),
        (["-d", "64", "-v", "2000", "--speedup", "57.6"], "efficiency", 0.9),
        (["-d", "64", "-e", "0.9", "--actual", "115200"], "per_device_throughput", 2000.0),
        (["-v", "2000", "-e", "0.9", "--actual", "115200"], "devices", 64),
        (["-v", "2000", "-e", "0.9", "--actual", "100000"], "devices", 56),
    ],
)
def test_solves(capsys, argv, key, value):
    rc, out, _ = run(capsys, *argv, "--json")
    rec = json.loads(out)
    assert rc == 0 and rec[key] == pytest.approx(value) and rec["solved"] == key
    # 'a solve prints the same object with the solved field filled in': the contract's keys first, in its order
    assert list(rec)[: len(CALC_JSON) + 1] == [*CALC_JSON, "solved"]


def test_devices_solve_shows_exact_value(capsys):
    rc, out, _ = run(capsys, "-v", "2000", "-e", "0.9", "--actual", "100000", "--json")
    assert json.loads(out)["devices_exact"] == pytest.approx(55.5556, rel=1e-5)


@pytest.mark.parametrize(
    "size, law",
    [
        (["-d", "16", "-v", "2000"], ["--law", "amdahl", "--serial-fraction", "0.0045"]),
        (["-d", "8", "-v", "1682"], ["--law", "usl", "--sigma", "0.0099", "--kappa", "0"]),
        (["-d", "5000", "-v", "4966"], ["--law", "amdahl", "--serial-fraction", "0.0226"]),
        (["-d", "8", "-v", "2000"], ["-e", str(2 / 3)]),
    ],
)
def test_a_json_record_solved_back_for_devices_gives_its_own_size(capsys, size, law):
    """--json prints 12 significant digits (output.clean), so a record's v, E and A each carry up to 5e-12 of
    rounding; solving devices from them tolerated 1e-12 and asked for one device more: Amdahl's 16 devices at
    2,000/s printed 29,976.5807963/s, and `-v 2000 -a 29976.5807963` said '16.00000000003 devices needed exactly;
    rounded up to 17'."""
    rc, out, _ = run(capsys, "calc", *size, *law, "--json")
    rec = json.loads(out)
    source = law if law[0] == "--law" else ["-e", repr(rec["efficiency"])]  # a number as the record printed it
    rate = ["-v", repr(rec["per_device_throughput"]), "-a", repr(rec["actual_throughput"])]
    rc, out, err = run(capsys, "calc", *rate, *source, "--json")
    back = json.loads(out)
    assert rc == 0 and back["devices"] == rec["devices"] and "notes" not in back, (back, err)


def test_superlinear_measurement_is_a_note(capsys):
    rc, out, _ = run(capsys, "-d", "8", "-v", "100", "--actual", "824")
    assert (
        rc == 0
        and "note: E above 1.02, more than a repeat's spread above 1: superlinear — the cluster" in out
        and "1.030" in out
    )


@pytest.mark.parametrize("actual, e", [("808", "1.010"), ("816", "1.020")])
def test_an_e_within_a_repeats_spread_is_not_called_superlinear(capsys, actual, e):
    """Review MC: calc called a measured E of 1.01 'superlinear — the cluster beat perfect scaling', where plan
    --efficiency-file plans an E up to 1.02 (REPEAT_SPREAD_E) as 1, 'within a repeat's spread, not superlinear', and
    measure notes only an E above it. calc still reports the E measured, in words that agree with plan's."""
    rc, out, _ = run(capsys, "-d", "8", "-v", "100", "--actual", actual)
    lines = out.splitlines()
    assert rc == 0 and f"  scaling efficiency E       {e} ({float(e) * 100:.1f} %)" in lines
    assert lines[-1] == (
        "note: E above 1 by no more than a repeat's spread (up to 1.02): not superlinear, the timings' noise; reported "
        "as measured (plan --efficiency-file plans it as 1)"
    )
    rc, out, _ = run(capsys, "-d", "8", "-v", "100", "--actual", actual, "--lang", "es")
    assert rc == 0 and out.splitlines()[-1] == (
        "nota: E por encima de 1 no más que la dispersión de una repetición (hasta 1,02): no es superlineal, es el "
        "ruido de los tiempos; se informa tal como se midió (plan --efficiency-file la planifica como 1)"
    )


SPREAD_SIZES = (
    ("note: E above 1 at 8 and 128 devices by no more than a repeat's spread (up to 1.02): not superlinear, the "
     "timings' noise; reported as measured (plan --efficiency-file plans it as 1)",
     "note: E above 1.02 at 64 devices, more than a repeat's spread above 1: superlinear — the cluster beat perfect "
     "scaling (often cache effects, or a slow baseline); reported, not rejected"),
    ("nota: E por encima de 1 con 8 y 128 dispositivos no más que la dispersión de una repetición (hasta 1,02): no es "
     "superlineal, es el ruido de los tiempos; se informa tal como se midió (plan --efficiency-file la planifica "
     "como 1)",
     "nota: E por encima de 1,02 con 64 dispositivos, más que la dispersión de una repetición sobre 1: superlineal — "
     "el clúster superó el escalado perfecto (a menudo efectos de caché, o una referencia lenta); se informa, no se "
     "rechaza"),
)  # fmt: skip
MEASURED = ["-d", "1,8,64,128", "-v", "2000", "--actual", "2000,16100,140000,257000"]  # E 1, 1.006, 1.094, 1.004


@pytest.mark.parametrize("how", ["table", "--json", "--csv"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_sweep_s_e_above_1_names_its_sizes(capsys, how, lang):
    """Review MO: `calc -d 1,8,64,128 -v 2000 --actual 2000,16100,140000,257000` said 'E above 1 by no more than a
    repeat's spread …' and 'E above 1.02, … superlinear' under a table of four sizes, of none (plan's note names its
    sizes: 'E above 1 at 8 devices in --efficiency-file …'); table, --json and --csv alike (stderr under the last two),
    each record's own notes unchanged."""
    i = 0 if lang == "en" else 1
    rc, out, err = run(capsys, *MEASURED, *([] if how == "table" else [how]), "--lang", lang)
    said = (out if how == "table" else err).splitlines()
    assert rc == 0 and said[-2:] == list(SPREAD_SIZES[i])
    if how == "--json":  # a record says its own size's note, as one size's calc does
        assert [r.get("notes") for r in json.loads(out)] == [None, [CALC_WITHIN], [CALC_SUPER], [CALC_WITHIN]]


CALC_WITHIN = (
    "E above 1 by no more than a repeat's spread (up to 1.02): not superlinear, the timings' noise; reported as "
    "measured (plan --efficiency-file plans it as 1)"
)
CALC_SUPER = (
    "E above 1.02, more than a repeat's spread above 1: superlinear — the cluster beat perfect scaling (often cache "
    "effects, or a slow baseline); reported, not rejected"
)


def test_a_sweep_of_two_sizes_names_its_sizes_too(capsys):
    """Review MS's mutant `len(records) > 2`: a sweep of two sizes is a sweep; `-d 8,64 --actual 16100,140000` (E
    1.006 and 1.094) names each note's size as four sizes do, not 'E above 1 by no more …' of no size."""
    rc, out, _ = run(capsys, "-d", "8,64", "-v", "2000", "--actual", "16100,140000")
    notes = [ln for ln in out.splitlines() if ln.startswith("note: E above")]
    assert rc == 0 and [n.split(",")[0] for n in notes] == [
        "note: E above 1 at 8 devices by no more than a repeat's spread (up to 1.02): not superlinear",
        "note: E above 1.02 at 64 devices",
    ]
    # (notes.sizes_shown: the sizes in order and once each, as typed '128,8' or '8,8': it said '128 and 8', '8 and 8')
    for sizes, actual, at in (("128,8", "257000,16100", "8 and 128"), ("8,8", "16100,16100", "8")):
        rc, out, _ = run(capsys, "-d", sizes, "-v", "2000", "--actual", actual)
        assert rc == 0 and f"note: E above 1 at {at} devices by no more than" in out, sizes


def test_a_size_typed_twice_says_its_note_once(capsys):
    """Review MS's mutant of sweep_notes' `elif note not in out`: `-d 8,8 --actual 50,50` (two rows of the same size,
    a speedup of 0.50×) says its slower-than-one note once, not once a row."""
    rc, out, _ = run(capsys, "-d", "8,8", "-v", "100", "--actual", "50,50")
    notes = [ln for ln in out.splitlines() if ln.startswith("note: ")]
    assert rc == 0 and len(notes) == 1 and notes[0].startswith("note: a speedup of 0.50× on 8 devices: the cluster ")


def test_a_long_sweep_names_its_first_sizes_and_its_last(capsys):
    """Nine sizes within a repeat's spread: the first five, '…' and the last, as pipeline's sweep over m names its m's;
    a sweep's other notes (a speedup under one device's) keep their own sizes and their place."""
    sizes = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    actual = [1005 * d for d in sizes[:-1]] + [500]  # E 1.005 at 2–10; 500/s on 11 devices: slower than one
    rc, out, _ = run(capsys, "-d", ",".join(map(str, sizes)), "-v", "1000", "--actual", ",".join(map(str, actual)))
    notes = [ln for ln in out.splitlines() if ln.startswith("note: ")]
    assert (
        rc == 0
        and len(notes) == 2
        and notes[0].startswith(
            "note: E above 1 at 2, 3, 4, 5, 6, … and 10 devices by no more than a repeat's spread (up to 1.02)"
        )
    )
    assert notes[1].startswith("note: a speedup of 0.50× on 11 devices: the cluster ran slower than one device alone")


def test_per_size_measurements_give_e_per_size(capsys):
    rc, out, _ = run(capsys, "-d", "1,8,64", "-v", "2000", "-a", "2000,15000,100000", "--json")
    assert [r["efficiency"] for r in json.loads(out)] == pytest.approx([1.0, 0.9375, 0.78125])


def test_sweep_kinds_of_efficiency(capsys):
    rc, out, _ = run(capsys, "-d", "8..64x2", "-v", "1000", "-e", "0.9", "--json")
    recs = json.loads(out)
    assert [r["devices"] for r in recs] == [8, 16, 32, 64] and {r["efficiency"] for r in recs} == {0.9}
    rc, out, _ = run(capsys, "-d", "1,8,64", "-v", "1000", "-e", "1,0.95,0.9", "--json")
    assert [r["actual_throughput"] for r in json.loads(out)] == pytest.approx([1000, 7600, 57600])
    rc, out, _ = run(capsys, "-d", "1,11,21", "-v", "100", "--law", "amdahl", "--serial-fraction", "0.05", "--json")
    assert [r["efficiency"] for r in json.loads(out)] == pytest.approx([1, 1 / 1.5, 1 / 2])
    rc, out, _ = run(capsys, "-d", "1..4", "-v", "100", "--sigma", "0.1", "--kappa", "0.01", "--json")
    e4 = 1 / (1 + 0.1 * 3 + 0.01 * 12)
    assert json.loads(out)[-1]["efficiency"] == pytest.approx(e4)


def test_constant_e_over_a_sweep_is_flagged(capsys):
    rc, out, _ = run(capsys, "-d", "8,64", "-v", "1000", "-e", "0.9")
    assert "E is held at 0.9 from two devices on (one device alone is its own reference: E = 1)" in out


def test_one_device_alone_is_its_own_reference(capsys):
    """E(d) = T(1)/T(d): a given E cannot apply to one device; the calculator says so rather than charge it."""
    rc, out, _ = run(capsys, "-d", "1", "-v", "2000", "-e", "0.9", "--json")
    assert rc == 0 and json.loads(out)["actual_throughput"] == 2000.0 and json.loads(out)["efficiency"] == 1.0
    rc, out, _ = run(capsys, "-d", "1", "-v", "2000", "-e", "0.9", "--lang", "es")
    assert out.strip().splitlines()[-1] == (
        "nota: un dispositivo solo es su propia referencia, así que ahí E = 1 por definición; E = 0,9 vale desde dos"
    )


SINGLE = "note: E at one cluster size does not carry to another; E usually falls as d grows"


def test_one_answer_is_its_label_value_lines_with_no_title_line(capsys):
    """An answer typed in full has no title (the worked example's is for the empty command line): its first line is
    the first label. 64 × 2,000 = 128,000 samples/s ideal, × 0.9 = 115,200 actual, 12,800 lost, 64 × 0.9 = 57.6×;
    the labels left-aligned to the longest (26 characters, 'lost to parallel overhead') and two spaces either side."""
    rc, out, err = run(capsys, "-d", "64", "-v", "2000", "-e", "0.9")
    assert rc == 0 and err == ""
    assert out.splitlines() == [
        "  devices                    64",
        "  per-device throughput      2,000 samples/s",
        "  scaling efficiency E       0.900 (90.0 %)",
        "  ideal throughput d·v       128,000 samples/s",
        "  actual throughput d·v·E    115,200 samples/s",
        "  speedup d·E                57.6×",
        "  lost to parallel overhead  12,800 samples/s",
        "  effective devices d·E      57.6",
        SINGLE,
    ]


def test_one_size_says_its_e_does_not_carry(capsys):
    rc, out, err = run(capsys, "-d", "64", "-v", "2000", "-e", "0.9")
    assert rc == 0 and out.strip().splitlines()[-1] == SINGLE and err == ""
    rc, out, err = run(capsys, "-d", "64", "-v", "2000", "-e", "0.9", "--json")
    assert rc == 0 and json.loads(out) == CALC_JSON and err.strip() == SINGLE  # stdout stays pure JSON
    for sweep in (["-e", "0.9"], ["-e", "1,0.9"], ["--sigma", "0.01"]):
        rc, out, err = run(capsys, "-d", "1,8", "-v", "2000", *sweep)
        assert rc == 0 and "does not carry" not in out + err


def test_a_sweep_past_the_usl_peak_says_so(capsys):
    # σ = 0.01, κ = 1e-5: d* = √(0.99 / 1e-5) = 314.6; at 1,024 throughput is below 256's
    rc, out, _ = run(capsys, "-d", "1..1024x4", "-v", "2000", "--law", "usl", "--sigma", "0.01", "--kappa", "1e-5")
    assert rc == 0 and "throughput peaks at d* = √((1−σ)/κ) ≈ 315 devices" in out
    for argv in (["-d", "1..256x4", "--law", "usl", "--sigma", "0.01", "--kappa", "1e-5"],
                 ["-d", "1..1024x4", "--law", "amdahl", "--serial-fraction", "0.01"]):  # fmt: skip
        rc, out, _ = run(capsys, *argv, "-v", "2000")
        assert rc == 0 and "peaks" not in out


def test_arithmetic_device_ranges():
    from dpscale.faces.cli.common import parse_devices

    assert parse_devices("8..64+8") == [8, 16, 24, 32, 40, 48, 56, 64]
    assert parse_devices("2..9+3") == [2, 5, 8]  # B need not be reached
    assert parse_devices("1..4") == parse_devices("1..4+1") == [1, 2, 3, 4]
    assert parse_devices("5..5+7") == [5]
    assert parse_devices("1 8 64") == parse_devices(" 1, 8 ,64 ") == [1, 8, 64]  # not 1864
    assert parse_devices("8 .. 64 x 2") == [8, 16, 32, 64]


def test_arithmetic_range_through_the_cli(capsys):
    rc, out, _ = run(capsys, "-d", "16..64+16", "-v", "100", "-e", "0.5", "--json")
    assert rc == 0
    assert [(r["devices"], r["actual_throughput"]) for r in json.loads(out)] == [
        (16, 800.0),
        (32, 1600.0),
        (48, 2400.0),
        (64, 3200.0),
    ]


def test_ctrl_c_is_exit_130_and_one_line(capsys, monkeypatch):
    from dpscale.faces.cli import calc, main

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(calc, "run", interrupted)
    try:
        rc = main(["calc", "-d", "8", "-v", "100", "-e", "0.9"])
    except KeyboardInterrupt:  # an escaped ^C would also stop pytest itself: fail this test instead
        pytest.fail("KeyboardInterrupt escaped main()")
    out, err = capsys.readouterr()
    assert rc == 130 and out == "" and err == "dpscale calc: interrupted\n"


def test_csv(capsys):
    rc, out, _ = run(capsys, "-d", "1,8,64", "-v", "2000", "-e", "0.9", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [float(r["actual_throughput"]) for r in rows] == [2000.0, 14400.0, 115200.0]  # E(1) = 1


def test_plot(capsys, tmp_path):
    png, svg = tmp_path / "s.png", tmp_path / "s.svg"
    assert run(capsys, "-d", "1..512x2", "-v", "100", "--sigma", "0.01", "--plot", str(png))[0] == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert run(capsys, "-d", "1..512x2", "-v", "100", "-e", "0.9", "--plot", str(svg), "--lang", "es")[0] == 0
    assert "<svg" in svg.read_text()[:500] and "dispositivos" in svg.read_text()


def test_a_plot_that_cannot_be_written_loses_no_result(capsys, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")  # 'file/x.png': its folder is a file — tried before any work (it was found on saving)
    rc, out, err = run(capsys, "-d", "1..4", "-v", "2000", "-e", "0.9", "--json", "--plot", str(blocker / "x.png"))
    assert rc == 2 and out == "" and err.strip().endswith("allowed: a file this user can write (Not a directory)")
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    def full(self, *a, **k):  # a disk that fills between the check and the save: the results stay printed
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", full)
    rc, out, err = run(capsys, "-d", "1..4", "-v", "2000", "-e", "0.9", "--json", "--plot", str(tmp_path / "x.png"))
    assert rc == 2 and [r["devices"] for r in json.loads(out)] == [1, 2, 3, 4]
    errors = [x for x in err.splitlines() if "error" in x]  # under --json the notes go to stderr too
    assert len(errors) == 1 and errors[0].startswith("dpscale calc: error: --plot: got '")  # (a long path is cut)
    assert errors[0].endswith("; allowed: a file this user can write (No space left on device)")
    (tmp_path / "d.png").mkdir()
    rc, _, err = run(capsys, "-d", "1..4", "-v", "2000", "-e", "0.9", "--plot", str(tmp_path / "d.png"))
    assert rc == 2 and "allowed: a file this user can write" in err  # a folder: refused before any work


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["-d", "0", "-v", "2000", "-e", "0.9"], "--devices: got '0'"),
        (["-d", "8,8", "-v", "2000", "-e", "0.9,0.8"], "8 devices given twice (0.9 and 0.8); allowed: one E per size"),
        (["-d", "64", "-v", "1e308", "-e", "0.9"], "--devices × --throughput: beyond floating point"),
        (["-d", "8", "-v", "2000", "-e", "0.9", "--plot", ""], "--plot: got ''; allowed: a value"),
        (["-d", "8", "-v", "2000", "--sigma", ""], "--sigma: got ''; allowed: a value"),
        (["-d", "", "-v", "2000", "-e", "0.9"], "--devices: got ''; allowed: a value"),  # it said -d
        (["-v", "1e-308", "-e", "0.9", "--actual", "1e308"], "devices: ∞ needed; allowed: at most 10,000,000"),
        (["-d", "1e308", "-v", "2000", "-e", "0.9"], "--devices: got '1e308'; allowed: whole numbers from 1 to"),
        (
            ["-v", "2000", "--sigma", "0", "--actual", "1e300"],
            "--actual 1e+300/s (speedup 5e+296): not reached within 10,",
        ),
        (  # the target as the tables write a rate, grouped (it read '1e+06/s', Python's exponent)
            ["-v", "2000", "--serial-fraction", "0.1", "--actual", "1e6"],
            "error: --actual 1,000,000/s (speedup 500): not reached",
        ),
        # devices needed past the cap, whole and grouped as a count ('1e+09 needed'); astronomical: its exponent
        (["-v", "1", "-e", "1", "--actual", "1e9"], "error: devices: 1,000,000,000 needed; allowed: at most 10,000,"),
        (["-v", "1", "-e", "0.9", "--actual", "123456789"], "error: devices: 137,174,210 needed; allowed: at most"),
        # 1e9 / 0.9 = 1,111,111,111.1: a part of a device is one more device (the ceiling, not the nearest)
        (["-v", "1", "-e", "0.9", "--actual", "1e9"], "error: devices: 1,111,111,112 needed; allowed: at most"),
        (["-v", "1", "-e", "1", "--actual", "1e20"], "error: devices: 1e+20 needed; allowed: at most 10,000,000"),
        (
            ["-v", "1", "--serial-fraction", "1e-9", "--actual", "5e7"],
            "--actual 50,000,000/s (speedup 50,000,000): not reached within 10,000,000 devices (9,900,990/s (speedup "
            "9,900,990) there)",
        ),
        # the unreachable target is named by the flag that gave it (the library's word is 'target')
        (["-v", "2000", "--serial-fraction", "0.05", "-s", "30"], "error: --speedup 30: not reached within 10,000,000"),
        (["-v", "2", "--sigma", "0.05", "--kappa", "0.001", "-s", "300"], "error: --speedup 300: unreachable — under"),
        (["-d", "2.5", "-v", "2000", "-e", "0.9"], "--devices: got '2.5'"),
        (["-d", "abc", "-v", "2000", "-e", "0.9"], "--devices: got 'abc'"),
        (["-d", "8..4", "-v", "2000", "-e", "0.9"], "--devices: got '8..4'"),
        (["-d", "8..64x1", "-v", "2000", "-e", "0.9"], "--devices: got '8..64x1'"),
        (["-d", "8..64+0", "-v", "2000", "-e", "0.9"], "--devices: got '8..64+0'; allowed: whole numbers from 1"),
        (["-d", "8..64+1.5", "-v", "2000", "-e", "0.9"], "--devices: got '8..64+1.5'; allowed: whole numbers"),
        (
            ["-d", "1..2x1.000000001", "-v", "1", "-e", "0.9"],
            "a factor F that reaches B from A in at most N steps (A, B, N = 1, 2, 1000000)",
        ),
        (["-d", "1,,8", "-v", "2000", "-e", "0.9"], "--devices: got '1,,8'; allowed: whole numbers from 1 to 10,000,"),
        (["-d", "64", "-v", "0", "-e", "0.9"], "--throughput: got '0'"),
        # the page prints 115,200: pasted back, it was two targets (A = 115 and A = 200) without a word
        (["-d", "64", "-v", "2000", "--actual", "115,200"], "--actual: got 2 values for 1 device count; allowed: one"),
        (["-d", "64", "-v", "-5", "-e", "0.9"], "--throughput: got '-5'"),
        (["-d", "64", "-v", "inf", "-e", "0.9"], "--throughput: got 'inf'"),
        (["-d", "64", "-v", "nan", "-e", "0.9"], "--throughput: got 'nan'"),
        (["-d", "64", "-v", "2000", "-e", "1.5"], "--efficiency: got '1.5'; allowed: a scaling efficiency in (0, 1]"),
        (
            ["-d", "64", "-v", "2000", "-e", "90"],
            "--efficiency: got '90'; allowed: a scaling efficiency in (0, 1] (90 % = 0.9)",
        ),
        (["-d", "64", "-v", "2000", "-e", "0"], "--efficiency: got '0'"),
        (["-d", "8", "-v", "1e-320", "--actual", "1e308"], "efficiency: comes to inf from these inputs"),
        (["-d", "8", "-v", "5", "--actual", "1e308"], "efficiency: comes to 2.5e+306 from these inputs"),  # not ∞ %
        (["-d", "8", "-v", "100", "--law", "usl"], "--law usl: needs --sigma and/or --kappa"),
        (["-d", "64", "-v", "2000", "-e", "x"], "--efficiency: got 'x'"),
        (["-d", "1,8", "-v", "2000", "-e", "0.9,0.8,0.7"], "--efficiency: got 3 values for 2 device counts"),
        (["-d", "64", "-v", "2000"], "exactly three of"),
        (["-d", "64", "-v", "2000", "-e", "0.9", "-a", "100"], "exactly three of"),
        (["-d", "64", "-v", "2000", "-a", "1", "-s", "2"], "give one of them"),
        (["-d", "64", "-v", "2000", "-a", "-3"], "--actual"),
        (["-d", "64", "-v", "2000", "-a", "abc"], "error: --actual: got 'abc'; allowed: finite numbers > 0\n"),
        # a list of targets pairs with the sizes position by position: two for three sizes pair with nothing
        (
            ["-d", "1,2,4", "-v", "100", "-a", "100,200"],
            "error: --actual/--speedup: got 2 values for 3 device counts; allowed: one value, or one per device count",
        ),
        # the size of a list that is refused is named alone ('0'), not the whole list
        (["-d", "8,0", "-v", "2000", "-e", "0.9"], "error: --devices: got '0'; allowed: whole numbers from 1 to"),
        (["-d", "8", "-v", "100", "-s", "0"], "--speedup: got '0'; allowed: a finite number > 0"),  # as typed, not 0.0
        # a thousands comma read as a list separator gave sizes 1 and 24 (the page itself prints 1,024)
        (["-d", "1,024", "-v", "2000", "-e", "0.9"], "--devices: got '1,024'; allowed: numbers without thousands"),
        (["-d", "64", "-v", "2000", "-a", "1,000,000"], "--actual: got '1,000,000'; allowed: numbers without"),
        (["-d", "64", "-v", "2000", "--sigma", "2"], "--sigma: got 2"),
        (["-d", "64", "-v", "2000", "--law", "amdahl"], "--serial-fraction"),
        (["-d", "64", "-v", "2000", "-e", "0.9", "--law", "usl"], "give one source of E"),
        (["-d", "64", "-v", "2000", "-e", "0.9", "--plot", "x.gif"], "--plot: got 'x.gif'"),
        (["-d", "64", "-v", "2000", "-e", "0.9", "--lang", "fr"], "--lang: got 'fr'; allowed: en, es"),
        # a refused choice in the house style, not argparse's "invalid choice: '4' (choose from '0', ...)"
        (
            ["predict", "--zero", "4"],
            "dpscale predict: error: --zero: got '4'; allowed: 0 (ddp), 1 (zero1), 2 (zero2), 3 (zero3, fsdp) "
            "(see --help)",
        ),
        (["-d", "64", "-v", "2000", "--law", "gustafson"], "--law: got 'gustafson'; allowed: constant, amdahl, usl"),
        # one with an apostrophe, which argparse quotes in double quotes: its refusal was argparse's 'invalid choice'
        (["--law", "it's"], 'dpscale calc: error: --law: got "it\'s"; allowed: constant, amdahl, usl (see --help)'),
        (["measure", "it's"], 'dpscale measure: error: mode: got "it\'s"; allowed: allreduce, equivalence (see'),
        (["-d", "64", "-v", "2000", "-e", "0.9", "--bogus"], "unrecognized arguments"),
        (["frobnicate"], "unknown command 'frobnicate'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_real_process_exit_code_and_no_traceback():
    cmd = [sys.executable, "-m", "dpscale", "calc", "--devices", "0", "--throughput", "2000", "-e", "0.9"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_calculator_path_stays_light():
    """The calculator must not import numpy, scipy, matplotlib, torch or a web stack (fast start)."""
    loaded = imported_after(["calc", "--devices", "1,8,64", "--throughput", "2000", "--efficiency", "0.9"], ["--help"])
    assert "dpscale.faces.cli.calc" in loaded  # the probe ran the command
    assert not {"numpy", "scipy", "matplotlib", "torch", "fastapi", "rich"} & loaded


def test_top_help_lists_commands(capsys):
    rc, out, _ = run(capsys, "--help")
    assert rc == 0 and "calc" in out and "usage: dpscale" in out


def test_missing_optional_dependencies_are_one_line(capsys, monkeypatch, tmp_path):
    """A plain `pip install dpscale` has no matplotlib or scipy: say which extra to install."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a: None if n == "matplotlib" else real(n, *a))
    rc, _, err = run(capsys, "-d", "1,8", "-v", "1", "-e", "0.9", "--plot", str(tmp_path / "x.png"))
    assert rc == 2 and "--plot: needs matplotlib; allowed: pip install 'dpscale[plot]'" in err
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)  # import of it now fails
    rc, _, err = run(capsys, "fit", "--point", "1:100", "--point", "8:700", "--point", "16:1300")
    assert rc == 2 and "fit: needs scipy; allowed: pip install 'dpscale[fit]'" in err
    # in Spanish too (the line stayed English under --lang es); the page's own name said in Spanish
    rc, _, err = run(capsys, "--lang", "es", "fit", "--point", "1:100", "--point", "8:700", "--point", "16:1300")
    assert rc == 2 and err == "dpscale fit: error: fit: necesita scipy; se admite: pip install 'dpscale[fit]'\n"
    from dpscale.errors import DpscaleError
    from dpscale.faces.i18n import say_error

    said = say_error(DpscaleError("the web page: needs uvicorn; allowed: pip install 'dpscale[web]'"), "es")
    assert said == "la página web: necesita uvicorn; se admite: pip install 'dpscale[web]'"


def test_solve_throughput_with_e_per_size_or_a_law(capsys):
    rc, out, _ = run(capsys, "-d", "1,8", "-e", "1,0.9", "-a", "2000,14400", "--json")
    assert [r["per_device_throughput"] for r in json.loads(out)] == pytest.approx([2000, 2000])
    rc, out, _ = run(capsys, "-d", "8", "--sigma", "0.01", "-a", "7000", "--json")
    assert json.loads(out)["per_device_throughput"] == pytest.approx(7000 / (8 / 1.07))


def test_numbers_past_2_to_the_53_are_not_printed_with_invented_digits(capsys):
    rc, out, _ = run(capsys, "-d", "64", "-v", "1e23", "-e", "0.9")  # once 99,999,999,999,999,991,611,392
    assert rc == 0 and "1e+23 samples/s" in out and "5.76e+24 samples/s" in out
    rc, out, _ = run(capsys, "-d", "64", "-v", "1e12", "-e", "0.9")
    assert "57,600,000,000,000 samples/s" in out  # below 1e15 every digit is real, and shown


def test_a_tiny_negative_reads_as_zero_not_minus_zero():
    from dpscale.faces.i18n import number

    assert [number(x, "dec") for x in (-0.004, 0.0, -0.03, -12.3)] == ["0.00", "0.00", "-0.03", "-12.3"]
    # a tiny positive count or speed-up keeps its digits (E = 1e-4 on 8 devices read 0.00 effective devices, 0.00×)
    assert [number(x, "dec") for x in (8e-4, 1e-12)] == ["0.0008", "0.00"]
    assert [number(x, "times", "es") for x in (8e-4, 8e-12, 0.0)] == ["0,0008×", "8e-12×", "0,00×"]


def test_csv_rows_hold_numbers_not_notes(capsys):
    rc, out, err = run(capsys, "-v", "100", "-e", "0.9", "--actual", "1000", "--csv")  # a rounded solve has a note
    assert rc == 0 and "notes" not in out.splitlines()[0] and "rounded up to 12" in err


def test_csv_writes_booleans_as_json_does(capsys):
    """memory's `fits` read 'False' in CSV and false in JSON: one spelling, the one every reader parses."""
    import csv
    import json

    argv = ["memory", "--model", "llama-7b", "-d", "8", "--gpu", "h100-80gb"]
    _, out, _ = run(capsys, *argv, "--csv")
    fits = [r["fits"] for r in csv.DictReader(out.splitlines())]
    _, out, _ = run(capsys, *argv, "--json")
    doc = json.loads(out)
    assert fits == [json.dumps(r["fits"]) for r in (doc["records"] if isinstance(doc, dict) else doc)]
    assert set(fits) == {"false"}


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["-d", "8", "--devices=64", "-v", "2000", "-e", "0.9"], "--devices/-d: given twice"),
        # a decimal comma in a list flag: it named '0' ("got '0'; allowed: a finite number > 0")
        (["-d", "8", "-v", "100", "-a", "0,9"], "--actual: got '0,9'; allowed: numbers with a decimal point (0.9);"),
        (["-d", "8", "-v", "100", "-s", "0,5"], "--speedup: got '0,5'; allowed: numbers with a decimal point"),
        (["-d", "64", "-v", "1", "-v", "2000", "-e", "0.9"], "given twice"),  # once: silently 2000
        # no abbreviations (predict's --overlap was read as --overlap-accumulation); the flag it starts is named
        (["--dev", "8", "-v", "2000", "-e", "0.9"], "unrecognized arguments: --dev 8 (did you mean --devices?)"),
        (["-d", "64", "-v", "2000", "--law", "usl", "--sigma=--"], "--sigma: got '--'"),  # once: E = 1.000
        (["-d", "8", "-v", "1", "-e", "0.9", "--unit", "-v"], "argument --unit: expected one argument"),  # not twice
        (["-d", "8", "-v", "1", "-e", "0.9", "--s", "3"], "unrecognized arguments: --s 3"),  # 3.13's ambiguity raised
    ],
)
def test_an_option_twice_or_an_empty_dash_value_is_refused(capsys, argv, needle):
    rc, out, err = run(capsys, "calc", *argv)
    assert rc == 2 and out == "" and needle in err and len(err.strip().splitlines()) == 1


def test_options_meant_to_repeat_still_repeat(capsys):
    rc, out, _ = run(capsys, "fit", "--point", "1:100", "--point", "2:190", "--point", "4:350", "--json")
    assert rc == 0 and len(json.loads(out)["measured"]) == 3


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["calc", "-d", "64", "-v", "-2e3", "-e", "0.9"], "--throughput: got '-2e3'; allowed: a finite"),
        (["calc", "-d", "64", "-v", "2000", "-e", "-inf"], "--efficiency: got '-inf'"),
        (["calc", "-d", "-1e3", "-v", "2000", "-e", "0.9"], "--devices: got '-1e3'"),
        (["memory", "--params", "-7e9"], "--params: got '-7e9'; allowed: a parameter count"),
        (
            ["predict", "--model", "bert-large", "-v", "100", "--system", "dgx-a100", "-d", "8", "--inter-bw", "-1e2"],
            "--inter-bw: got '-1e2'",
        ),
        (["fit", "--point", "-1:100"], "--point -1:100, devices: got '-1'"),  # a point and a size (session 14)
        (["measure", "allreduce", "--sizes", "-1KB"], "--sizes: got '-1KB'; allowed: bytes"),
    ],
)
def test_a_negative_in_e_notation_is_named_by_its_option_not_taken_for_one(capsys, argv, needle):
    """argparse reads '-7e9' as an unknown option and said 'expected one argument', not why the value fails."""
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == "" and needle in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["-v", "2,000", "-e", "0.9"], "--throughput: got '2,000'; allowed: a number without thousands separators"),
        (["-v", "2 000", "-e", "0.9"], "--throughput: got '2 000'; allowed: a number without thousands separators"),
        (["-v", "2000", "-e", "90%"], "--efficiency: got '90%'; allowed: a scaling efficiency in (0, 1], or one per "
                                      "size (90 % = 0.9)"),
        (["-v", "2000", "--law", "usl", "--sigma", "0.1", "--kappa", "abc"], "allowed: a coherency κ from 0 to 1"),
    ],
)  # fmt: skip
def test_a_thousands_separator_or_a_percent_sign_is_told_how_to_write_the_number(capsys, argv, needle):
    """'2,000' was refused as 'a finite per-device throughput > 0', which 2,000 is; '90%' got no hint; κ's
    'abc' said '≥ 0' where -5 said 'from 0 to 1'."""
    rc, out, err = run(capsys, "calc", "-d", "64", *argv)
    assert rc == 2 and out == "" and needle in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "argv, needle",
    [
        (
            ["-d", "64", "-v", "50%", "-e", "0.9"],
            "--throughput: got '50%'; allowed: a finite per-device throughput > 0\n",
        ),
        (["-d", "64", "-v", "2,5", "-e", "0.9"], "--throughput: got '2,5'; allowed: a number with a decimal point"),
        (["-v-5", "-1e3", "-d", "8", "-e", "0.9"], "unrecognized arguments: -1e3"),  # not glued into '-5-1e3'
        (["-d8", "-5", "-v", "100", "-e", "0.9"], "unrecognized arguments: -5"),  # nor into '8-5'
    ],
)
def test_hints_and_glue_stay_where_they_belong(capsys, argv, needle):
    """The percent hint is for fractions only (50 % of a throughput is not 0.5); a decimal comma is named; a value
    already attached to its option ('-v-5') takes no second one."""
    rc, out, err = run(capsys, "calc", *argv)
    assert rc == 2 and out == "" and needle.strip() in err and len(err.strip().splitlines()) == 1
    assert "(50 % = 0.5)" not in err


def test_float_noise_is_not_called_a_rounding(capsys):
    rc, out, err = run(capsys, "calc", "-v", "1", "-e", "0.7", "-a", "2.1")  # 2.1/0.7 = 3.0000000000000004
    assert rc == 0 and "rounded up" not in out + err and "devices                    3" in out


HOLDOUT = Path(__file__).resolve().parents[1] / "validation" / "holdout_pyt.csv"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("argv", [["calc", "-d", "8", "-v", "100", "-e", "0.9"], ["validate", str(HOLDOUT), "--json"]])
def test_output_that_cannot_be_written_is_one_line(argv):
    """stdout on a full disk gave a traceback (OSError: No space left on device) and another at exit."""
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "dpscale", *argv], stdout=full, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 1 and p.stderr.splitlines() == [
        f"dpscale {argv[0]}: error: cannot write the output (No space left on device)"
    ]


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--json", "predict", "-d", "8"], "dpscale: error: 'predict' after options; allowed: the command first: "
         "dpscale predict [OPTIONS]"),  # was argparse's 'unrecognized arguments: predict'
        (["--json", "--lang", "es", "calc", "-d", "8"], "dpscale: error: 'calc' tras las opciones; se admite: la "
         "orden primero: dpscale calc [OPCIONES]"),
        # an option whose value is glued to it (review KL: argparse's 'unrecognized arguments: calc', where
        # `-d 8 calc` was named)
        (["-d8", "calc"], "dpscale: error: 'calc' after options; allowed: the command first: dpscale calc [OPTIONS]"),
        (["--devices=8", "plan"], "dpscale: error: 'plan' after options; allowed: the command first: dpscale plan "
         "[OPTIONS]"),
        (["-e", "-0.5", "calc"], "dpscale: error: 'calc' after options; allowed: the command first: dpscale calc "
         "[OPTIONS]"),
    ],
)  # fmt: skip
def test_a_command_after_options_is_named(capsys, argv, said):
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and err.strip() == said


@pytest.mark.parametrize("first", [["--lang", "es"], ["--lang=es"]])
def test_the_language_before_the_command_is_taken(capsys, first):
    """`dpscale --lang es calc …` was refused ('calc' after options): the README's bare `dpscale --lang es` teaches
    the language first, and every command takes --lang, so it is read as given after the command."""
    rc, out, _ = run(capsys, *first, "calc", "-d", "64", "-v", "2000", "-e", "0.9")
    assert rc == 0 and "rendimiento real d·v·E           115.200 muestras/s" in out
    rc, out, _ = run(capsys, *first, "memory", "--params", "1e9")
    assert rc == 0 and out.startswith("Memoria por dispositivo: mil millones de parámetros")


def test_the_language_before_help_gives_the_top_help_in_that_language(capsys):
    rc, out, _ = run(capsys, "--lang", "es", "--help")  # printed calc's help
    assert rc == 0 and "uso: dpscale [ORDEN] [OPCIONES]" in out and "\n  predict " in out


def test_the_version_has_one_source():
    """pyproject.toml said 0.1.0 and so did dpscale.__version__ (what `dpscale --version` prints): two copies, and
    a release that bumped one shipped a wheel whose metadata and --version disagreed. The build reads the module's."""
    import importlib.metadata
    import re

    from dpscale import __version__

    text = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    project = text.split("[project]", 1)[1].split("\n[", 1)[0]
    assert not re.search(r"(?m)^version\s*=", project) and re.search(r'(?m)^dynamic = \["version"\]', project)
    assert 'version = { attr = "dpscale.__version__" }' in text
    assert importlib.metadata.version("dpscale") == __version__


@pytest.mark.parametrize("first", [["--lang", "es"], ["--lang=es"]])
def test_the_language_first_takes_version_and_options_after_a_double_dash(capsys, first):
    """`dpscale --lang es --version` said 'argumentos no reconocidos: --version', and `dpscale --lang es calc --
    …` put the language after the '--', where it was an unrecognised word ('-- -d 64 --lang es (¿quería decir
    --lang?)'): the version is printed, and the language goes before the '--'."""
    from dpscale import __version__

    rc, out, err = run(capsys, *first, "--version")
    assert (rc, out, err) == (0, f"dpscale {__version__}\n", "")
    rc, _, err = run(capsys, *first, "calc", "-d", "64", "--", "zzz")
    assert rc == 2 and err.strip() == "dpscale calc: error: argumentos no reconocidos: -- zzz (vea --help)"


def test_help_into_a_closed_pipe_is_quiet(monkeypatch):
    """`dpscale --help | head -1` ended in a BrokenPipeError traceback: the top help printed outside the guard."""

    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Closed())
    assert main(["--help"]) == 0


def test_an_answer_into_a_reader_that_left_is_quiet_and_exits_0(monkeypatch, capsys):
    """`dpscale fit … --json | head -0`: a command's own print to a reader that left is no error — emit's tables let
    go of stdout themselves, fit's --json reaches _run's BrokenPipeError (`return 0` → `return -1` survived a
    whole-module mutation pass: the process would exit 255)."""

    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Closed())
    assert main(["-d", "8", "-v", "100", "-e", "0.9"]) == 0
    fit = ["fit", "--point", "1:100", "--point", "2:190", "--point", "4:350", "--resamples", "100", "--json"]
    assert main(fit) == 0
    assert capsys.readouterr().err == ""


def test_the_top_help_ends_by_pointing_at_a_commands_help(capsys):
    """The top help's last line (dropped by a mutant the suite let through) is where a user learns each command
    has options of its own."""
    rc, out, _ = run(capsys, "--help")
    assert rc == 0 and out.splitlines()[-2:] == ["", "`dpscale COMMAND --help` lists a command's options."]


def test_a_listed_command_whose_module_is_missing_is_refused_as_unknown(monkeypatch, capsys):
    """A command in COMMANDS whose module is not there (a trimmed install) is refused in one line, the commands
    that are there listed — not a ModuleNotFoundError traceback (`or command not in _available()` dropped)."""
    import dpscale.faces.cli as cli

    valid = ", ".join(cli._available())
    monkeypatch.setitem(cli.COMMANDS, "ghost", ("ghost", "a command whose module is not installed"))
    rc, out, err = run(capsys, "ghost", "-d", "8")
    assert (rc, out) == (2, "") and err == f"dpscale: error: unknown command 'ghost'; allowed: {valid}\n"
    assert "ghost" not in valid and valid.startswith("calc, predict, ")


def test_a_command_name_given_as_an_option_value_is_that_value(capsys):
    rc, out, _ = run(capsys, "-d", "8", "-v", "100", "-e", "0.9", "--unit", "batch")  # not 'batch after options'
    assert rc == 0 and "actual throughput d·v·E    720 batch" in out


def test_law_constant_refuses_another_law_s_parameters(capsys):
    """--law constant --sigma 0.5 -e 0.9 once gave E = 0.9 and dropped σ without a word (amdahl refused σ)."""
    rc, _, err = run(capsys, "-d", "64", "-v", "2000", "--law", "constant", "--sigma", "0.5", "-e", "0.9")
    assert rc == 2 and err.strip().endswith("--sigma: belongs to --law usl or amdahl; --law constant takes E from "
                                            "--efficiency")  # fmt: skip
    rc, _, err = run(capsys, "-d", "64", "-v", "2000", "--law", "constant", "--serial-fraction", "0.5", "-e", "0.9",
                     "--lang", "es")  # fmt: skip
    assert rc == 2 and "--serial-fraction: pertenece a --law usl o amdahl" in err


def test_solving_devices_under_a_law_is_not_one_too_many(capsys):
    """-d 36 gives exactly 80/s; solved back, float noise in 80/3 once asked for 37 ('36.000000000000 needed')."""
    rc, out, _ = run(capsys, "-v", "3", "--law", "amdahl", "--serial-fraction", "0.01", "-a", "80", "--json")
    assert rc == 0 and json.loads(out)["devices"] == 36 and "rounded" not in out


def test_a_size_given_twice_says_its_values_the_spanish_way(capsys):
    rc, _, err = run(capsys, "-d", "8,8", "-v", "2000", "-e", "0.9,0.85", "--lang", "es")
    assert rc == 2 and "8 dispositivos dados dos veces (0,9 y 0,85)" in err


def test_an_exponent_is_shown_as_an_exponent():
    """Whole floats read as typed: 90 (not 90.0) — but 1e+15, not sixteen digits."""
    from dpscale.errors import fail

    assert [fail("x", v, "y").parts[1] for v in (90.0, 1e15, 2_000_000.0, 2.5)] == ["90", "1e+15", "2000000", "2.5"]


def test_library_errors_are_said_under_the_flags_typed():
    """as_flags: a mapped parameter is renamed (parts kept, so Spanish still says it); any other error passes as
    it was raised — it once lost its parts, and with them its Spanish, by being rebuilt from its English text."""
    from dpscale.errors import DpscaleError, fail
    from dpscale.faces.cli.common import SCALE_FLAGS, as_flags
    from dpscale.faces.i18n import say_error

    with pytest.raises(DpscaleError) as got, as_flags(SCALE_FLAGS):
        raise fail("per_device_throughput", -1, "a finite throughput > 0")
    assert str(got.value) == "--throughput: got -1; allowed: a finite throughput > 0"
    assert got.value.parts == ("--throughput", "-1", "a finite throughput > 0")
    other = fail("deadline", "0h", "a duration > 0")
    with pytest.raises(DpscaleError) as got, as_flags(SCALE_FLAGS):
        raise other
    assert got.value is other and "se recibió '0h'" in say_error(other, "es")
    with pytest.raises(DpscaleError, match=r"^--devices × --throughput: beyond"), as_flags({}):
        raise DpscaleError("devices × per_device_throughput: beyond floating point; allowed: realistic magnitudes")
    with pytest.raises(DpscaleError, match="^--chunks: got 3"), as_flags(lambda n: n and "--" + n):
        raise fail("chunks", 3, "a divisor of the microbatches")


@pytest.mark.parametrize(
    "argv, said",
    [
        (["calc", "--devics", "8"], "unrecognized arguments: --devics 8 (did you mean --devices?) (see --help)"),
        (["predict", "--sytem=dgx-a100"], "unrecognized arguments: --sytem=dgx-a100 (did you mean --system?)"),
        (["calc", "--bogus"], "unrecognized arguments: --bogus (see --help)"),  # nothing near: no guess
        # two letters swapped: difflib's ratio 2·4/(5 + 5) = 0.8 ('--l' and 'a' match), over the 0.75 cut-off
        (["calc", "--lwa", "usl"], "unrecognized arguments: --lwa usl (did you mean --law?) (see --help)"),
        # a short flag typed with two dashes: its one letter (`--v 8` was told --csv, difflib's 0.75 exactly)
        (["calc", "--v", "8", "-d", "8"], "unrecognized arguments: --v 8 (did you mean -v?) (see --help)"),
        (["calc", "--d=8", "-v", "8", "--lang", "es"], "argumentos no reconocidos: --d=8 (¿quería decir -d?)"),
        (["calc", "--q", "8"], "unrecognized arguments: --q 8 (see --help)"),  # no -q: no guess
        # a flag's last word alone: `batch --batch` (predict's and memory's name for the micro-batch) had no hint
        (["batch", "--batch", "32"], "--batch 32 (did you mean --micro-batch or --base-batch?)"),
        (["predict", "--accum", "4"], "unrecognized arguments: --accum 4 (did you mean --grad-accum?)"),
        # a shortened flag that starts two: both (it guessed --law alone)
        (
            ["calc", "-d", "8", "-v", "1", "--la", "es"],
            "unrecognized arguments: --la es (did you mean --law or --lang?)",
        ),
        # before measure's positional mode read the value: it said "mode: got '5'" (and before no abbreviations, ran)
        (["measure", "--step", "5"], "unrecognized arguments: --step 5 (did you mean --steps?)"),
        (["measure", "allreduce", "--rep=2"], "unrecognized arguments: --rep=2 (did you mean --repeats?)"),
        (["measure", "-n", "5"], "unrecognized arguments: -n 5 (see --help)"),  # a short one too ('mode: got 5')
        (["measure", "--verbose", "allreduce"], "unrecognized arguments: --verbose (see"),  # the mode is no value
        (["predict", "--in", "5"], "--in 5 (did you mean --input-rate, --intra-bw or --inter-bw?)"),  # three, all
        # a letter of the formula the help writes (p, m, v): the option whose value it names
        (["pipeline", "-p", "4", "-m", "8", "-v", "2"], "unrecognized arguments: -v 2 (did you mean --chunks?)"),
        (["pipeline", "-p", "4", "-m", "8", "-v2", "--lang", "es"], "-v2 (¿quería decir --chunks?)"),
        (["memory", "-t", "8"], "unrecognized arguments: -t 8 (did you mean --tensor-parallel?)"),
        # ... and only the letters a command names: -s, -b, -p are other commands' own (calc's speedup, a micro-batch,
        # pipeline's stages), not plan's --serial-fraction, fit's --resamples or memory's --precision
        (["plan", "-s", "0.1"], "unrecognized arguments: -s 0.1 (see --help)"),
        (["fit", "-b", "200"], "unrecognized arguments: -b 200 (see --help)"),
        (["memory", "-p", "4"], "unrecognized arguments: -p 4 (see --help)"),
        # one option of two names is said once: 'did you mean --price-per-device-hour or --price?' read as two options
        # (the node price, since review JL, is another option)
        (["plan", "--pri", "2"], "--pri 2 (did you mean --price-per-device-hour or --price-per-node-hour?) (see"),
        (["pipeline", "--micro", "8"], "unrecognized arguments: --micro 8 (did you mean --microbatches?) (see"),
        (["pipeline", "--micro-b", "8"], "unrecognized arguments: --micro-b 8 (did you mean --micro-batches?)"),
    ],
)
def test_a_mistyped_option_is_answered_with_the_nearest(capsys, argv, said):
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and said in err


def test_an_unknown_option_is_found_as_argparse_would_read_the_line():
    """What a positional would otherwise take as its own: values after an option that takes one are values, even
    starting with '-' or '--'; negative numbers are values; help asked anywhere wins (it is shown, not refused)."""
    from dpscale.errors import unknown_option
    from dpscale.faces.cli.common import Parser
    from dpscale.faces.cli.measure import add_arguments
    from dpscale.sources.measure.worker import parser as worker

    p = Parser(prog="dpscale measure", allow_abbrev=False)
    add_arguments(p)
    known, modes = p._option_string_actions, ("allreduce", "equivalence")
    assert unknown_option(["--out", "--my file", "-d8", "--steps", "-5", "allreduce"], known, modes) is None
    assert unknown_option(["--bogus", "--help"], known, modes) is None
    assert unknown_option(["--", "--bogus"], known, modes) is None
    assert unknown_option(["--steps=5", "--step=5"], known, modes) == "--step=5"
    assert unknown_option(["--step", "5", "allreduce"], known, modes) == "--step 5"
    w = worker()  # the torchrun worker's own parser takes no abbreviations either, and names the flag
    with pytest.raises(SystemExit) as ended:
        w.parse_args(["--rep", "2"])
    assert ended.value.code == 2


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_output_that_cannot_be_written_says_why_in_spanish():
    """The OS's reason was left in English ('no se pudo escribir la salida (No space left on device)')."""
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "dpscale", "calc", "--lang", "es"], stdout=full,
                           stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert p.returncode == 1 and p.stderr.splitlines() == [
        "dpscale calc: error: no se pudo escribir la salida (no queda espacio en el dispositivo)"
    ]


@pytest.mark.parametrize("law", [["--sigma", "0.1"], ["--serial-fraction", "0.1"], ["--law", "usl", "--sigma", "0.1"]])
def test_two_sources_of_e_name_the_flags_typed(capsys, law):
    """'-e 0.9 --sigma 0.1' was told '--efficiency and --law', a flag never typed: --sigma alone implies the USL."""
    rc, _, err = run(capsys, "-d", "8", "-v", "100", "-e", "0.9", *law)
    assert rc == 2 and err.strip().endswith(f"--efficiency and {law[0]}: give one source of E, not both")


@pytest.mark.parametrize("unit", ["x\ny", "a" * 41, "tab\there"])
def test_a_unit_label_stays_on_one_line(capsys, unit):
    """--unit 'x<newline>y' split every rate's line in two (exit 0, a broken table)."""
    for argv in (["calc", "-d", "8", "-v", "100", "-e", "0.9"], ["fit", "--point", "1:100", "--point", "2:190"]):
        rc, out, err = run(capsys, *argv, "--unit", unit)
        assert rc == 2 and out == "" and "--unit: got" in err and "allowed: a unit label on one line" in err


def test_help_with_a_command_is_that_commands_help(capsys):
    """`dpscale help calc` printed the top help, not calc's."""
    rc, out, _ = run(capsys, "help", "predict")
    assert rc == 0 and out.startswith("usage: dpscale predict")
    rc, out, _ = run(capsys, "help", "predict", "--lang", "es")
    assert rc == 0 and out.startswith("uso: dpscale predict")


@pytest.mark.parametrize(
    "argv, starts",
    [
        (["--lang", "es", "help", "calc"], "uso: dpscale calc"),
        (["help", "--lang", "es", "calc"], "uso: dpscale calc"),
        (["help", "calc", "--lang", "es"], "uso: dpscale calc"),
        (["--lang", "es", "help"], "dpscale "),
        (["help", "--lang", "es"], "dpscale "),
    ],
)
def test_help_and_the_language_combine_in_any_order(capsys, argv, starts):
    """'--lang es help calc' was refused as 'calc' after options, '--lang es help' as an unknown argument, and
    'help --lang es calc' gave the top help."""
    rc, out, _ = run(capsys, *argv)
    assert rc == 0 and out.startswith(starts) and ("dpscale calc" in starts or "escalado con paralelismo" in out)


def test_help_with_an_unknown_name_says_so(capsys):
    rc, _, err = run(capsys, "help", "nosuch")
    assert rc == 2 and "unknown command 'nosuch'; allowed: calc, predict" in err
    # with the language anywhere: 'help --lang es nosuch' printed calc's help (exit 0), '--lang es nosuch' called
    # it calc's stray argument
    for argv in (["help", "--lang", "es", "nosuch"], ["--lang", "es", "nosuch"], ["nosuch", "--lang", "es"]):
        rc, out, err = run(capsys, *argv)
        assert rc == 2 and out == "" and "orden desconocida 'nosuch'; se admite: calc, predict" in err, argv


@pytest.mark.parametrize("encoding", ["gbk", "cp1252"])  # GBK holds '·' but not 'ñ'; cp1252 'ñ' but not '≈'
def test_a_legacy_code_page_gets_question_marks_and_exact_json(encoding):
    """GBK passed a six-symbol probe, then 'ñ' was a traceback; JSON on such an output escapes (—), not '?'."""
    import os

    env = dict(os.environ, PYTHONIOENCODING=encoding)
    for argv in (["--lang", "es"], ["measure", "--help", "--lang", "es"]):
        done = subprocess.run([sys.executable, "-m", "dpscale", *argv], capture_output=True, env=env)
        assert done.returncode == 0 and done.stderr == b"", (argv, done.stderr[-300:])
    argv = ["fit", "--point", "1:100", "--point", "2:190", "--point", "4:360", "--at", "64", "--json"]
    done = subprocess.run([sys.executable, "-m", "dpscale", *argv], capture_output=True, env=env)
    utf = subprocess.run([sys.executable, "-m", "dpscale", *argv], capture_output=True,
                         env=dict(os.environ, PYTHONIOENCODING="utf-8"))  # fmt: skip
    assert done.returncode == 0 and json.loads(done.stdout) == json.loads(utf.stdout)


def test_an_output_that_cannot_hold_the_symbols_still_gets_the_answer():
    """PYTHONIOENCODING=ascii (a legacy code page, a bare pipe on an old system) made the worked example's first '·'
    a UnicodeEncodeError traceback, exit 1; the symbols now print as '?'."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONIOENCODING="ascii")
    done = subprocess.run([sys.executable, "-m", "dpscale", "--lang", "es"], capture_output=True, env=env)
    assert done.returncode == 0 and done.stderr == b""
    out = done.stdout.decode("ascii")
    assert "115.200 muestras/s" in out and "efectivos d?E       57,6" in out


@pytest.mark.parametrize("bw", ["12800Gb/s", "1600GB/s"])
def test_an_inter_bw_with_its_unit_is_not_asked_about_bits(capsys, bw):
    """'--inter-bw 1600' on a DGX A100 is likely its 8 × 200 Gb/s typed as bytes, and is said; a figure whose unit was
    written is not (it was: '12800Gb/s' was told "--inter-bw 1600 is 8 times ... (--inter-bw 1600Gb/s reads it so)",
    a value never typed). The web page runs the same command."""
    argv = ["predict", "--model", "resnet50", "--system", "dgx-a100", "-d", "16"]
    rc, out, err = run(capsys, *argv, "--inter-bw", "1600")
    assert rc == 0 and "--inter-bw 1600 is 8 times the dgx-a100's 200 GB/s" in out + err
    rc, out, err = run(capsys, *argv, "--inter-bw", bw)
    assert rc == 0 and "8 times" not in out + err


def test_a_text_column_s_heading_sits_over_its_left_aligned_cells():
    """predict's table wrote '          bottleneck' over 'synchronisation wait' / 'none (one device)    ': a text
    column's cells are left-aligned, its heading was right-aligned, and its last column padded with spaces."""
    from dpscale.faces.output import Column, horizontal

    cols = [Column("devices", "int"), Column("bottleneck", "text")]
    recs = [{"devices": 1, "bottleneck": "none (one device)"}, {"devices": 64, "bottleneck": "synchronisation wait"}]
    head, rule, one, many = horizontal(recs, cols, "en").splitlines()
    assert head.split("  ")[-1] == "bottleneck" and head.index("bottleneck") == one.index("none")
    assert many.endswith("synchronisation wait") and one.endswith("none (one device)")  # no trailing spaces


@pytest.mark.slow
def test_csv_on_an_output_that_is_not_utf8_keeps_every_character(tmp_path):
    """PYTHONIOENCODING=ascii (or LC_ALL=C, a legacy code page): validate --csv wrote a configuration 'Bé ✓' as
    'B? ?' — data lost without a word, where --json escapes. CSV has no escapes, so it is written as UTF-8."""
    import os

    dev = Path(__file__).parent.parent / "validation" / "published_scaling_dev.csv"
    lines = dev.read_text(encoding="utf-8").splitlines()
    rows = [x for x in lines[1:] if x.startswith("DLE-TF1-BERT-L-pretrain-DGX1-16G-seq128-AMP-2020,")]
    assert rows
    mine = tmp_path / "u.csv"
    mine.write_text("\n".join([lines[0], *("Bé ✓" + r[r.index(",") :] for r in rows)]) + "\n", encoding="utf-8")
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    done = subprocess.run([sys.executable, "-m", "dpscale", "validate", str(mine), "--csv"], capture_output=True,
                          env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr[-300:]
    got = list(csv.reader(io.StringIO(done.stdout.decode("utf-8"))))
    assert got[0][0] == "cfg" and {r[0] for r in got[1:]} == {"Bé ✓"}


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "devices: ∞ needed; allowed: at most 10,000,000"),
        ("es", "dispositivos: harían falta ∞; se admite: como mucho 10.000.000"),
    ],
)
def test_devices_needed_past_floating_point_are_said_as_infinity_not_inf(capsys, lang, said):
    """A target of 1e300/s at 1e-300/s per device needs 1e600 devices, inf in floating point: the line said 'inf
    needed', a token no table prints (they write ∞)."""
    rc, out, err = run(capsys, "calc", "-v", "1e-300", "-e", "0.5", "--actual", "1e300", "--lang", lang)
    assert rc == 2 and not out and err.count("\n") == 1 and said in err and "inf" not in err


def test_a_long_table_of_e_is_noted_by_its_first_and_last_sizes(capsys):
    """The note naming a table of E per size listed every pair: 2,000 sizes made a 25 kB line, predict's 1..100000
    planned through --efficiency-file a 1.3 MB one. A long table shows its first ten pairs, '…' and its last; a
    short one stays whole."""
    n = 2000
    e = ["1"] + [f"{0.9 - i * 1e-5:.5f}" for i in range(1, n)]
    rc, out, err = run(capsys, "calc", "-d", ",".join(map(str, range(1, n + 1))), "-v", "100", "-e", ",".join(e),
                       "--csv")  # fmt: skip
    line = next(x for x in err.splitlines() if "E per size" in x)
    assert rc == 0 and len(out.splitlines()) == n + 1
    assert line.endswith(": 1→1; 2→0.89999; 3→0.89998; 4→0.89997; 5→0.89996; 6→0.89995; 7→0.89994; 8→0.89993; "
                         "9→0.89992; 10→0.89991; …; 2,000→0.88001")  # fmt: skip
    rc, out, _ = run(capsys, "calc", "-d", ",".join(map(str, range(1, 13))), "-v", "100", "-e", ",".join(e[:12]))
    assert rc == 0 and "; 10→0.89991; 11→0.8999; 12→0.89989\n" in out and "…" not in out


# Mutation sweep 11 (session 36, of formulas/{memory,collectives,stepmodel,overlap,plan,scaling}, cli calc and plan,
# errors): gaps the suite left open, each killing a surviving mutant.


# ---- cli/calc.py ----------------------------------------------------------------------------------------------
def test_calc_with_two_inputs_says_three_are_needed_even_with_a_speedup(capsys):
    """calc.py:88 (`and e_src is not None` dropped): -d 8 -s 6 lacks E as well as v, so it is two of four
    inputs, not 'v cannot be solved from a speedup'."""
    assert said(capsys, "calc", "-d", "8", "-s", "6").endswith(
        "error: inputs: got --devices, --actual/--speedup; allowed: exactly three of --devices, --throughput, "
        "--efficiency/--law, --actual/--speedup (the fourth is solved)"
    )


def test_calc_at_the_usl_peak_is_not_past_it(capsys):
    """calc.py:112 `>` → `>=`: USL σ = 0.36, κ = 0.01 peaks at d* = √(0.64 / 0.01) = 8 devices; 8 is the peak, 9
    past it."""
    law = ("calc", "--law", "usl", "--sigma", "0.36", "--kappa", "0.01", "-v", "100", "-d")
    assert "throughput peaks at" not in said(capsys, *law, "1,8")
    assert "throughput peaks at d* = √((1−σ)/κ) ≈ 8 devices: past it" in said(capsys, *law, "1,9")
    # κ = 0.001: d* = 31.6, and 32 devices (32,129/s) beat 31 (32,124/s): 32 is the best whole size, not past it
    law = ("calc", "--law", "usl", "--kappa", "0.001", "-v", "2000", "-d")
    assert "throughput peaks at" not in said(capsys, *law, "1,32")
    assert "throughput peaks at d* = √((1−σ)/κ) ≈ 32 devices: past it" in said(capsys, *law, "1,33")
    # κ = 1e-20: d* = 10^10, beyond any size E(d) is asked at; the note is not due, and no error either (the best
    # whole size beside d* was asked of the law: 'devices: got 10000000000; allowed: … 1 to 10,000,000')
    rc, out, err = run(capsys, "calc", "--law", "usl", "--kappa", "1e-20", "-v", "100", "-d", "8")
    assert rc == 0 and err == "" and "800 samples/s" in out and "peaks at" not in out


def test_a_usl_peak_just_below_the_size_cap_is_a_whole_size_and_the_cap_is_not_past_it(capsys):
    """⌈d*⌉ is a size E takes up to MAX_DEVICES itself: κ = 1.00000002e-14 puts d* at 9,999,999.9, and 10,000,000
    devices (d·E = 5,000,000.2000000) beat 9,999,999 (5,000,000.1999999). USL.peak_size returned d* itself for any
    d* past 9,999,999, so calc at the cap said 'throughput peaks at ≈ 10,000,000 devices: past it' at the peak."""
    from dpscale.sources.laws import USL

    law = USL(0.0, 1.00000002e-14)
    assert law.peak_devices() == pytest.approx(9_999_999.9, abs=1e-6)
    assert 1e7 * law.efficiency(1e7) > 9_999_999 * law.efficiency(9_999_999)
    assert law.peak_size() == 10_000_000
    rc, out, _ = run(capsys, "calc", "--law", "usl", "--kappa", "1.00000002e-14", "-v", "1", "-d", "10000000")
    assert rc == 0 and "5,000,000.2×" in out and "peaks at" not in out


def test_a_usl_peak_just_past_the_size_cap_is_d_star_itself_and_calc_at_the_cap_is_not_past_it(capsys):
    """The other side of the cap: κ = 1/10,000,000.5² puts d* at 10,000,000.5, whose ceiling 10,000,001 is past the
    sizes E takes, so peak_size is d* itself (a bound of MAX_DEVICES + 1 asked E of 10,000,001 devices, and calc at
    the cap exited 2 with 'devices: got 10000001', a size no one gave). At 1e7 itself (κ = 1e-14) d* is whole."""
    from dpscale.sources.laws import USL

    kappa = 1 / 10_000_000.5**2
    assert USL(0.0, kappa).peak_size() == pytest.approx(10_000_000.5, abs=1e-6)
    assert USL(0.0, 1e-14).peak_size() == 10_000_000
    rc, out, err = run(capsys, "calc", "--law", "usl", "--kappa", repr(kappa), "-v", "1", "-d", "10000000")
    assert rc == 0 and err == "" and "5,000,000.5×" in out and "peaks at" not in out


def test_calc_of_e_one_on_one_device_gives_the_single_size_note(capsys):
    """calc.py:114 (`and e_src != 1` dropped): E = 1 on one device contradicts nothing, so the note is the single
    size's, not 'E = 1 applies from two'."""
    out = said(capsys, "calc", "-d", "1", "-v", "100", "-e", "1")
    assert "E at one cluster size does not carry to another" in out and "applies from two" not in out


def test_calc_one_speedup_serves_every_device_count(capsys):
    """calc.py:143 `(1, len(devices))` → `(len(devices),)`: a speedup of 6 on 8 and 16 devices is E = 6/8 = 0.75
    and 6/16 = 0.375."""
    rc, out, _ = run(capsys, "calc", "-d", "8,16", "-v", "100", "-s", "6", "--json")
    assert rc == 0 and [r["efficiency"] for r in json.loads(out)] == [0.75, 0.375]


def test_calc_says_a_note_shared_by_rows_once(capsys):
    """calc.py:123 (the `not in notes` dedupe dropped): 900/s on 8 × 100 and 1,700/s on 16 × 100 are E = 1.125 and
    1.0625, both superlinear: one note."""
    out = said(capsys, "calc", "-d", "8,16", "-v", "100", "-a", "900,1700")
    assert out.count("superlinear") == 1


# Cases a fourth mutation sweep (session 28: sources.fit*, laws, dataset, predict_validate, faces.output and the
# CLI's number and size parsing; 212 mutants, 26 non-equivalent survivors) found no test could fail on. Each expected
# value is derived in its comment.


def test_geometric_ranges_round_each_size_and_drop_repeats():
    """8·1.5^k rounded: 8, 12, 18, 27, 40.5 → 40 (banker's), 60.75 → 61, 91.1, 136.7, 205.0, 307.5 → 308, 461.3,
    692.0 (truncation gave 60, 136, 307, 691); 1..5x1.3 rounds to 1, 1, 2, 2, 3, 4, 5 → each size once."""
    assert parse_devices("8..1024x1.5") == [8, 12, 18, 27, 40, 61, 91, 137, 205, 308, 461, 692]
    assert parse_devices("1..5x1.3") == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("text", ["0..4", "8..20000000x2", "1,20000000"])
def test_sizes_outside_one_to_ten_million_are_refused_by_the_parser(text):
    with pytest.raises(DpscaleError, match="allowed: whole numbers from 1 to 10,000,000"):
        parse_devices(text)


@pytest.mark.parametrize(("text", "said"), [("8,", "'8,'"), ("8,,16", "'8,,16'"), (",8", "',8'"), ("1,0,8", "'0'")])
def test_an_empty_item_in_a_list_of_sizes_is_said_with_the_list(text, said):
    """`-d 8,` was refused as "got ''", the empty item alone; a list's bad item is said alone only where it has
    text (1,0,8: '0'), like --efficiency's '0.9,'."""
    with pytest.raises(DpscaleError, match=f"^--devices: got {said}; allowed: whole numbers from 1"):
        parse_devices(text)


def test_usl_kappa_alone_means_usl_with_no_contention(capsys):
    """--kappa alone is the USL with σ = 0: E(64) = 1 / (1 + 1e-4 · 64 · 63) = 0.71266."""
    rc, out, err = run(capsys, "calc", "-d", "64", "-v", "100", "--kappa", "1e-4", "--json")
    assert rc == 0 and json.loads(out)["efficiency"] == pytest.approx(1 / (1 + 1e-4 * 64 * 63), rel=1e-9)


def test_an_empty_list_part_is_refused(capsys):
    rc, _, err = run(capsys, "calc", "-d", "8,64", "-v", "100", "-e", "0.9,,0.8")
    assert rc == 2 and "--efficiency: got '0.9,,0.8'" in err


# Cases a sixth mutation sweep (session 30: the catalog's name reading and system files, the CLI's shared
# parsers, the predict and fit faces' arguments, a first few of measure's; 169 mutants, 40 non-equivalent survivors)
# found no test could fail on. Each expected value is derived in its docstring or comment, from the docs or the
# arithmetic, not read back from the code. None of these starts torch, a browser or a process.


# ---------------------------------------------------------------- faces/cli/common: the parser


def test_lang_last_with_no_value_is_argparse_s_one_line_error(capsys):
    """A trailing `--lang` has no value: argparse's 'expected one argument', exit 2 in one line (docs: bad input
    is one line, exit 2) — the look-ahead for the language must not read past the end of the command line."""
    rc, out, err = run(capsys, "calc", "-d", "8", "-v", "100", "-e", "0.9", "--lang")
    assert rc == 2 and out == "" and "--lang: expected one argument" in err and len(err.strip().splitlines()) == 1


def test_a_flag_that_takes_no_value_may_be_repeated(capsys):
    """Parser._once refuses an option that takes a value given twice ('the last would silently win'); `--json
    --json` has no value to lose, so it is the same command: calc 8 × 100 × 0.9 = 720 samples/s."""
    rc, out, err = run(capsys, "calc", "-d", "8", "-v", "100", "-e", "0.9", "--json", "--json")
    assert rc == 0, err
    assert json.loads(out)["actual_throughput"] == pytest.approx(720.0)


def test_a_fit_file_whose_name_holds_1_000_is_a_path_in_spanish(capsys, tmp_path):
    """check_number_style refuses Spanish '2.000' in numbers only: --fit takes a path (TEXT_OPTIONS), and a file
    named runs-1.000-steps.csv is read, as it is in English. The runs are the plan tests' own (E from a fit)."""
    runs = tmp_path / "runs-1.000-steps.csv"
    runs.write_text("devices,throughput\n2,3950\n4,7700\n8,14800\n16,27500\n")
    rc, out, err = run(capsys, "plan", "-n", "1e6", "--fit", str(runs), "-d", "2..16x2", "--lang", "es", "--json")
    assert rc == 0, err
    assert [r["devices"] for r in json.loads(out)] == [2, 4, 8, 16]


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["predict", "--model", "bert-large", "-v", "100", "--system", "dgx-a100", "-d", "8"], "--calibration"),
        (["predict", "--model", "bert-large", "-v", "100", "--system", "dgx-a100", "-d", "8"], "--system-file"),
        (["plan", "-n", "1e6"], "--efficiency-file"),
    ],
)
def test_a_file_option_whose_name_holds_1_000_is_a_path_in_spanish(capsys, tmp_path, monkeypatch, argv, flag):
    """As --fit above: each option that takes a file (TEXT_OPTIONS) is a path, so a missing 'x-1.000-a.json' is
    refused as a file that does not exist, not as a Spanish 1.000 (one thousand) to write as 1000."""
    monkeypatch.chdir(tmp_path)  # a short name: a long line is clipped in its middle
    path = "x-1.000-a.json"  # (the digits end at the hyphen: 1.000 alone, as --fit's runs-1.000-steps.csv)
    rc, out, err = run(capsys, *argv, flag, path, "--lang", "es")
    assert rc == 2 and out == "" and err.startswith(f"dpscale {argv[0]}: error: {flag}: se recibió '{path}'; ")
    assert err.rstrip().endswith("(no existe)") and "2.000 = dos mil" not in err


def test_a_data_file_whose_name_holds_1_000_is_a_path_in_spanish(capsys, tmp_path):
    """validate's DATA.csv is a positional, no option: it is a path, checked for no Spanish 1.000 as numbers are.
    holdout_tfbench.csv under another name checks its 17 points (as test_validate_cli's band test counts them)."""
    data = tmp_path / "set-1.000-a.csv"
    data.write_text((Path(__file__).parent.parent / "validation" / "holdout_tfbench.csv").read_text(encoding="utf-8"))
    rc, out, err = run(capsys, "validate", str(data), "--lang", "es")
    assert rc == 0 and err == "" and "nota: 17 puntos en 6 configuraciones" in out


def test_a_blank_unit_is_refused(capsys):
    """check_unit: --unit is 'a unit label on one line, at most 40 characters': a blank one labels nothing (every
    rate printed with an empty unit); refused before any fit runs."""
    rc, out, err = run(capsys, "fit", "--point", "1:100", "--point", "2:190", "--unit", " ")
    assert rc == 2 and out == "" and "--unit: got ' '; allowed: a unit label on one line" in err


@pytest.mark.parametrize(
    ("argv", "unit", "base"),
    [
        (["calc", "-v", "3000", "-d", "8", "-e", "0.9"], "tokens/s/gpu", "tokens/s"),
        (["plan", "-v", "3000", "-d", "8", "-e", "0.9", "--samples", "1e9"], "img/s per GPU", "img/s"),
        (["fit", "--point", "1:100", "--point", "2:190"], "samples per second per device", "samples per second"),
    ],
)
def test_a_per_device_unit_is_refused_with_the_clusters(capsys, argv, unit, base):
    """--unit labels the cluster's throughputs too (calc's d·v and A, plan's actual, fit's runs): 'tokens/s/gpu'
    printed 8 GPUs' 21,600 tokens/s as '21,600 tokens/s/gpu', 8× the per-GPU rate it names."""
    rc, out, err = run(capsys, *argv, "--unit", unit)
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert f"--unit: got '{unit}'; allowed: the unit without its per-device part" in err and err.endswith(f"{base}\n")
    rc, out, err = run(capsys, *argv, "--unit", unit, "--lang", "es")
    assert rc == 2 and "se admite: la unidad sin su parte por dispositivo" in err and err.endswith(f"{base}\n")
    rc, out, _ = run(capsys, *argv, "--unit", base)  # the cluster's unit is taken
    assert rc == 0 and base in out
    # per node likewise (review KN): calc -d 8 -v 2000 said the 8's 14,400 as '14,400 tokens/s/node', 8× a node's
    rc, out, err = run(capsys, *argv, "--unit", "tokens/s/node")
    assert rc == 2 and "--unit: got 'tokens/s/node'; allowed: the unit without its per-device part" in err


def test_the_language_alone_is_no_input_the_worked_example_fills(capsys):
    """docs/calculators.md: each calculator 'runs a worked example when given no inputs'; --lang is an output option
    (as --json), so `memory --lang es` is that example with nothing said to be filled in for the user."""
    rc, out, err = run(capsys, "memory", "--lang", "es")
    assert rc == 0, err
    assert "el ejemplo resuelto completó" not in out + err
    rc, out, err = run(capsys, "memory", "--lang", "es", "--precision", "amp")  # an input typed: now it is said
    assert rc == 0 and "el ejemplo resuelto completó --params" in out + err


def test_link_bandwidths_at_their_stated_ends_are_read(capsys):
    """predict's --intra-bw and --inter-bw take 'a bandwidth in GB/s, from 0.001 to 1,000,000': both ends are
    inside the range (the notes then say the figures are unchecked, but they are read)."""
    argv = ["predict", "--params", "1e8", "--step-time", "0.1", "-d", "8,16", "--gpus-per-node", "8", "--json"]
    rc, out, err = run(capsys, *argv, "--intra-bw", "1000000", "--inter-bw", "0.001")
    assert rc == 0, err
    assert [r["devices"] for r in json.loads(out)] == [8, 16]


def test_a_range_may_end_at_the_largest_size():
    """parse_devices: 'whole numbers from 1 to 10,000,000'; A..BxF doubles (here tenfolds) up to B inclusive:
    1,000,000..10,000,000x10 is the two sizes 10^6 and 10^7."""
    from dpscale.faces.cli.common import parse_devices

    assert parse_devices("1000000..10000000x10") == [1_000_000, 10_000_000]


def test_a_list_of_one_more_than_100_000_sizes_is_refused():
    """parse_devices: 'sizes: at most 100,000' — a list of 100,000 values (99,999 commas) is read, one of 100,001
    (100,000 commas) refused."""
    from dpscale.faces.cli.common import parse_devices

    assert len(parse_devices(",".join(["8"] * 100_000))) == 100_000
    with pytest.raises(DpscaleError, match="sizes: at most 100,000"):
        parse_devices(",".join(["8"] * 100_001))


def test_a_bad_size_in_a_list_is_named_alone(capsys):
    """In `-d 8,0,16` the refused value is 0 (devices are whole numbers ≥ 1): the error names that part, not the
    whole list, so the user sees which of the sizes to fix."""
    rc, out, err = run(capsys, "calc", "-d", "8,0,16", "-v", "100", "-e", "0.9")
    assert rc == 2 and out == "" and "--devices: got '0'; allowed: whole numbers from 1 to 10,000,000" in err


# Review 44 (A): small user-facing defects found by hand, each pinned by what the user sees.


@pytest.mark.parametrize(
    "law",
    [
        ["--law", "amdahl", "--serial-fraction", "0.1"],
        ["--law", "usl", "--sigma", "0.1", "--kappa", "0.01"],
        ["-e", "0.5"],
    ],
)
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "devices: ∞ needed; allowed: at most 10,000,000"),
        ("es", "dispositivos: harían falta ∞; se admite: como mucho 10.000.000"),
    ],
)
def test_a_target_past_floating_point_is_refused_as_devices_needed_under_a_law_too(capsys, law, lang, said):
    """--actual 1e300 at 1e-300/s per device is a speedup of inf: under a law the search said the target back as
    '--actual inf/s (speedup inf)', a figure the user never typed; a constant E already said '∞ needed'."""
    rc, out, err = run(capsys, "calc", "-v", "1e-300", "--actual", "1e300", *law, "--lang", lang)
    assert rc == 2 and not out and err.count("\n") == 1 and said in err and "inf" not in err


# Review 46 AI: one source of truth for what two places wrote apart (repeated defaults, constants and words).


def test_calc_and_plan_say_one_per_device_rate(capsys):
    """calc's and plan's --throughput read with one set of words (faces.cli.common.PER_DEVICE_RATE)."""
    from dpscale.faces.cli import main
    from dpscale.faces.cli.common import PER_DEVICE_RATE

    for argv in (["calc", "-d", "2", "-v", "x"], ["plan", "-n", "1e6", "-v", "x"]):
        assert main(argv) == 2
        assert capsys.readouterr().err.strip().endswith(f"--throughput: got 'x'; allowed: {PER_DEVICE_RATE}")


# Session 45's own changes.


# the spaces around a typed --unit are not part of it: ' tokens/s ' compared as tokens/s
# (formulas.units.canonical_unit) but was printed with them — '100  tokens/s ' in calc's table, "unit": " tokens/s "
# in plan's rows (review 45 AA)
def test_a_unit_typed_with_spaces_is_printed_without_them(capsys):
    import json

    from dpscale.faces.cli import main

    assert main(["calc", "-d", "8", "-v", "100", "-e", "0.9", "--unit", " tokens/s "]) == 0
    out = capsys.readouterr().out
    assert "per-device throughput      100 tokens/s\n" in out and "720 tokens/s\n" in out
    assert main(["plan", "--unit", " tokens/s ", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["unit"] for r in rows} == {"tokens/s"}


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        # the refusal names the option as typed: '--microbatches: got 0' read as an option the user had not given
        (["pipeline", "-p", "4", "--micro-batches", "0"], "error: --micro-batches: got '0'; allowed: whole numbers"),
        (["pipeline", "-p", "4", "--microbatches", "0"], "error: --microbatches: got '0'; allowed: whole numbers"),
        (["pipeline", "-p", "4", "-m", "0"], "error: --microbatches: got '0'"),  # a short one: the long name
        (["pipeline", "-p", "4", "--micro-batches"], "error: argument --micro-batches: expected one argument (see"),
        (["pipeline", "-p", "4", "-m"], "argument --microbatches/--micro-batches/-m: expected one argument (see"),
        # a check after parsing (DpscaleError), in either language
        (
            ["predict", "--model", "bert-large", "--micro-batch", "0", "-v", "100", "--system", "dgx-a100", "-d", "8"],
            "error: --micro-batch: got '0'; allowed: a whole number ≥ 1",
        ),
        (
            ["predict", "--model", "bert-large", "-b", "0", "-v", "100", "--system", "dgx-a100", "-d", "8"],
            "error: --batch: got '0'",
        ),
        # a short flag whose first long name is another word: the long name its letter starts (fit's -d said --at,
        # a name the user may never have read; memory's -b is --batch, as predict's -b is)
        (["fit", "--point", "1:1000", "--point", "8:7400", "-d", "8,"], "error: --devices: got '8,'; allowed: whole"),
        (["memory", "--model", "llama-7b", "-b", "0"], "error: --batch: got '0'; allowed: a whole number from 1"),
        (
            ["plan", "--price=-3", "-v", "100", "-d", "8", "-e", "0.9", "--samples", "1e6", "--lang", "es"],
            "error: --price: se recibió '-3'; se admite: un precio finito > 0",
        ),
        (
            ["plan", "--price-per-device-hour", "-3", "-v", "100", "-d", "8", "-e", "0.9", "--samples", "1e6"],
            "error: --price-per-device-hour: got '-3'; allowed: a finite price > 0",
        ),
    ],
)
def test_a_refusal_names_the_option_as_typed(capsys, argv, said):
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and said in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["pipeline", "-p", "4", "--microbatches", "2", "--micro-batches", "3"], "--microbatches/--micro-batches/-m"),
        (["pipeline", "-p", "4", "--micro-batches", "2", "-m", "3"], "--microbatches/--micro-batches/-m"),
        (["pipeline", "-p", "4", "--micro-batches", "2", "--micro-batches=3"], "--micro-batches"),
        (
            ["plan", "--price-per-device-hour", "4", "--price", "3", "-v", "100", "-d", "8", "-e", "0.9", "-n", "1e6"],
            "--price-per-device-hour/--price",
        ),
    ],
)
def test_an_option_given_twice_in_two_spellings_is_named_by_both(capsys, argv, said):
    """An option typed once by each of its names is one option given twice, said by every name: naming it by the
    last spelling alone ('--micro-batches: given twice') said that spelling had been typed twice."""
    rc, out, err = run(capsys, *argv)
    assert (rc, out) == (2, "")
    assert err.endswith(f"error: {said}: given twice; allowed: once (the last would silently win) (see --help)\n")


def test_a_cluster_slower_than_one_device_is_said_in_both_languages(capsys):
    """-a 1800 on 64 devices at 2,000 samples/s alone (each device's rate typed as the cluster's) solved E = 0.014 and
    a speedup of 0.90× without a word (review HU): now a note names the slip and the E either reading gives."""
    rc, out, _ = run(capsys, "-d", "64", "-v", "2000", "-a", "1800")
    assert rc == 0 and "0.014 (1.4 %)" in out
    assert "slower than one device alone" in out and "their ratio, 0.900" in out
    rc, out, _ = run(capsys, "-d", "64", "-v", "2000", "-a", "1800", "--lang", "es")
    assert rc == 0 and "0,014 (1,4 %)" in out and "más lento que un solo dispositivo" in out and "0,900" in out
    rc, out, _ = run(capsys, "-d", "64", "-v", "2000", "-s", "0.9", "--lang", "es")
    assert rc == 0 and "57,6×" in out and "aceleración" in out
    rc, _, err = run(capsys, "-d", "1,8,64", "-v", "2000", "-a", "2000,15000,100000", "--json")
    assert rc == 0 and "slower" not in err  # real measurements: nothing said


def test_a_speedup_just_under_one_is_never_said_as_one(capsys):
    """-a 1999.25 on 2 devices at 2,000.5 alone is a speedup of 0.99938: the note printed it to two decimals, 'a speedup
    of 1.00× on 2 devices: the cluster ran slower than one device' (review ID). It now takes as many decimals as tell
    it from 1 (formulas.scaling.apart), the ratio too; 0.9 keeps its 0.90× and 0.900."""
    rc, out, _ = run(capsys, "-d", "2", "-v", "2000.5", "-a", "1999.25")
    assert rc == 0 and "a speedup of 0.999× on 2 devices" in out and "their ratio, 0.999;" in out
    rc, out, _ = run(capsys, "-d", "2", "-v", "2000", "-a", "1999.998", "--lang", "es")
    assert rc == 0 and "una aceleración de 0,999999× con 2 dispositivos" in out and "cociente, 0,999999;" in out
    rc, out, _ = run(capsys, "-d", "2", "-v", "2000", "-s", "0.9995")
    assert rc == 0 and "a speedup of 0.9995× on 2 devices" in out


def test_a_speedup_a_hair_under_one_or_far_under_it_is_said_as_itself(capsys):
    """Review IE of 82a15ec: the note's decimals stopped at apart's ceiling of 12, so -a 0.99999999999999 on 2
    devices at 1 alone (a speedup 1e-14 under one) still printed 'a speedup of 1.000000000000× … slower than one
    device' and 'their ratio, 1.000000000000'; and a speedup far under one (-s 1e-9) printed '0.00×' and a ratio of
    '0.000' — an E the notes write to three significant digits below TINY_E (e3), as the table above writes 1e-09×."""
    rc, out, _ = run(capsys, "-d", "2", "-v", "1", "-a", "0.99999999999999")
    assert rc == 0 and "a speedup of 0.99999999999999× on 2 devices" in out and "ratio, 0.99999999999999;" in out
    rc, out, _ = run(capsys, "-d", "2", "-v", "1", "-a", "0.9999999999999999", "--lang", "es")
    assert rc == 0 and "una aceleración de 0,9999999999999999× con 2" in out and "cociente, 0,9999999999999999;" in out
    rc, out, _ = run(capsys, "-d", "2", "-v", "1", "-s", "1e-9")
    assert rc == 0 and "a speedup of 1e-09× on 2 devices" in out and "1.00×" not in out.split("note:")[1]
    rc, out, _ = run(capsys, "-d", "2", "-v", "1", "-a", "1e-9", "--lang", "es")
    assert rc == 0 and "una aceleración de 1e-09× con 2" in out and "cociente, 1e-09;" in out
    rc, out, _ = run(capsys, "-d", "2", "-v", "1", "-a", "0.004")
    assert rc == 0 and "a speedup of 0.004× on 2 devices" in out and "their ratio, 0.004;" in out
    rc, out, _ = run(capsys, "-d", "2", "-v", "2000", "-a", "1800")  # unchanged: two and three decimals
    assert rc == 0 and "a speedup of 0.90× on 2 devices" in out and "their ratio, 0.900;" in out


def test_a_speedup_typed_as_e_is_read_back_as_typed_not_as_one(capsys):
    """Review IE of 82a15ec: the speedup-variant note read the typed figure back with a bare {s:g}, six digits, so
    -s 0.9999995 on 2 devices said 'a speedup of 0.9999995× … if 1 is E, the speedup is 2×' — an E of 1 and a speedup
    of 2 on 2 devices is perfect scaling, no slip. The figure and d·E now take the digits that tell them from 1 and
    from d; 0.9 keeps 'if 0.9 is E, the speedup is 1.8×'."""
    rc, out, _ = run(capsys, "-d", "2", "-v", "1", "-s", "0.9999995")
    assert rc == 0 and "if 0.9999995 is E, the speedup is 1.999999×;" in out and "if 1 is E" not in out
    rc, out, _ = run(capsys, "-d", "2", "-v", "1", "-s", "0.99999999999999", "--lang", "es")
    assert rc == 0 and "si 0,99999999999999 es E, la aceleración es 1,99999999999998×;" in out
    rc, out, _ = run(capsys, "-d", "2", "-v", "1", "-s", "0.9")
    assert rc == 0 and "if 0.9 is E, the speedup is 1.8×;" in out


def test_a_speedup_from_0_005_to_0_01_is_not_said_as_its_own_double(capsys):
    """Review IG of e984698: its three significant digits began under TINY_SPEEDUP = 0.005, where two decimals read
    0.00×, but from 0.005 to 0.0099 two decimals read 0.01× whatever the speedup: -s 0.005 on 2 devices said 'a
    speedup of 0.01× … if 0.005 is E, the speedup is 0.01×' (the typed figure and its d·E alike, the reading the note
    offers lost), and -a 0.005 at 1 alone 'a speedup of 0.01× … their ratio, 0.005' (one number, said twice a factor
    of 2 apart). Under 0.01 the speedup and its ratio take three significant digits; 0.01 keeps two decimals."""
    rc, out, _ = run(capsys, "-d", "2", "-v", "1", "-s", "0.005")
    assert rc == 0 and "a speedup of 0.005× on 2 devices" in out and "if 0.005 is E, the speedup is 0.01×;" in out
    rc, out, _ = run(capsys, "-d", "2", "-v", "1", "-a", "0.005", "--lang", "es")
    assert rc == 0 and "una aceleración de 0,005× con 2" in out and "cociente, 0,005;" in out
    rc, out, _ = run(capsys, "-d", "2", "-v", "1", "-a", "0.0074")
    assert rc == 0 and "a speedup of 0.0074× on 2 devices" in out and "their ratio, 0.0074;" in out
    rc, out, _ = run(capsys, "-d", "2", "-v", "1", "-a", "0.01")  # from 0.01: two decimals and three, as before
    assert rc == 0 and "a speedup of 0.01× on 2 devices" in out and "their ratio, 0.010;" in out


@pytest.mark.parametrize("unit", ["muestras por segundo", "Muestras/s", "muestra/seg"])
def test_calc_labels_samples_per_second_typed_in_spanish_as_samples_per_second(capsys, unit):
    """Review KI (mutation pass): --unit in Spanish for samples/s is samples/s, which the English output says in
    English: 64 × 2,000 × 0.9 = 115,200 samples/s (it said '115,200 muestras por segundo' without own_unit)."""
    rc, out, _ = run(capsys, "calc", "-d", "64", "-v", "2000", "-e", "0.9", "--unit", unit)
    assert rc == 0 and "actual throughput d·v·E    115,200 samples/s" in out and "muestra" not in out.lower()
