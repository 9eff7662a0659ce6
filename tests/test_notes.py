"""The library's notes reach Spanish users in Spanish, and API/JSON users as the same English strings."""

from __future__ import annotations

import json
import pickle
import re

import pytest
from clihelp import run

from dpscale.faces.i18n import NOTES, say
from dpscale.notes import EN, Note


def test_every_note_has_a_spanish_template_with_the_same_fields():
    assert set(NOTES["es"]) == set(EN)
    fields = lambda t: sorted(set(re.findall(r"{(\w+)", t)))  # noqa: E731
    for key, template in EN.items():
        assert fields(NOTES["es"][key]) == fields(template), key


def test_a_command_a_note_points_to_exists():
    from dpscale.faces.cli import COMMANDS
    from dpscale.sources.measure.jobs import MODES

    for lang, templates in (("en", EN), ("es", NOTES["es"])):
        for key, template in templates.items():
            for words in re.findall(r"`dpscale ([a-z ]+?)[`-]", template):
                command, *mode = words.split()  # a command, and a mode only where measure has one
                assert command in COMMANDS and mode in ([], *([m] for m in MODES if command == "measure")), (
                    lang,
                    key,
                    words,
                )


def test_a_note_is_plain_english_text_for_the_api_and_json():
    n = Note("rounded_up", exact=55.5556, d=56, places=4)
    assert n == "55.5556 devices needed exactly; rounded up to 56" and isinstance(n, str)
    assert json.loads(json.dumps({"notes": [n]})) == {"notes": [str(n)]}
    back = pickle.loads(pickle.dumps(n))
    assert back == n and back.key == "rounded_up"
    assert say(n, "es") == "hacen falta exactamente 55,5556 dispositivos; redondeado hacia arriba a 56"
    assert say("a face's own line", "es") == "a face's own line"


def test_calc_fit_and_predict_notes_in_spanish(capsys):
    rc, out, _ = run(capsys, "calc", "-d", "64", "-v", "2000", "--actual", "132000", "--lang", "es")
    assert (
        rc == 0
        and "nota: E por encima de 1,02, más que la dispersión de una repetición sobre 1: superlineal" in out
        and "superlinear" not in out
    )
    rc, out, _ = run(capsys, "calc", "-v", "2000", "-e", "0.9", "--actual", "100000", "--lang", "es")
    assert rc == 0 and "nota: hacen falta exactamente 55,56 dispositivos; redondeado hacia arriba a 56" in out
    rc, out, _ = run(capsys, "fit", "--point", "8:5000", "--point", "16:9000", "--at", "1024", "--lang", "es")
    assert (
        rc == 0 and "solo 2 tamaños medidos" in out and "extrapolando a 1.024 dispositivos" in out
    )  # grouped as the table
    rc, out, _ = run(capsys, "predict", "--params", "3.4e8", "--step-time", "0.2", "--system", "dgx-a100",
                     "-d", "12", "--lang", "es")  # fmt: skip
    assert rc == 0 and "12 dispositivos no llenan nodos enteros de 8 GPU" in out
    import dpscale

    p = dpscale.predict(12, params=3.4e8, step_time_s=0.2, system="dgx-a100")
    assert any("12 devices do not fill whole 8-GPU nodes" in n for n in p.notes)  # the API stays English


def test_a_rounded_device_count_shows_its_fraction():
    """'555556 devices needed exactly; rounded up to 555556' hid the fraction it rounded (.6g), and had no separator."""
    import dpscale

    n = dpscale.solve(per_device_throughput=2000, efficiency=0.9, actual_throughput=1e9).notes[0]
    assert n == "555,555.56 devices needed exactly; rounded up to 555,556"
    assert say(n, "es") == "hacen falta exactamente 555.555,56 dispositivos; redondeado hacia arriba a 555.556"
    n = dpscale.solve(per_device_throughput=1, efficiency=1, actual_throughput=100000.00008).notes[0]
    assert n == "100,000.0001 devices needed exactly; rounded up to 100,001"  # not 100,000.00, which reads whole


def test_device_counts_and_fitted_values_in_notes_read_as_the_tables_do(capsys):
    """Session 12: notes said 8192 where the table said 8.192, and 'serial_fraction = 0.04775' in Spanish;
    the fit's table printed '[0, 0,0419]' (three numbers to a Spanish reader) and English parameter names."""
    pts = ["--point", "1:100", "--point", "2:190", "--point", "4:350", "--point", "8:600"]
    rc, out, err = run(capsys, "fit", *pts, "--law", "amdahl", "--at", "64,8192")
    assert rc == 0 and "extrapolating to 64 and 8,192 devices" in out + err  # (the library's text: '64; 8,192')
    rc, out, err = run(capsys, "fit", *pts, "--law", "amdahl", "--at", "64,8192", "--lang", "es")
    assert rc == 0 and "extrapolando a 64 y 8.192 dispositivos" in out + err
    assert re.search(r"fracción serie = 0,0477\d*  \[0,04\d*; 0,05\d*\]", out)
    rc, out, err = run(capsys, "fit", *pts, "--law", "usl", "--lang", "es")
    assert rc == 0 and re.search(
        r"\n  σ = [\d,]+  \[[\d,]+; [\d,]+\]  \(contención σ\)\n  κ = ", out
    )  # as the notes write them
    note = Note("fit_describe", law="usl", fitted="sigma = 0.1; kappa = 0.001", d0=1024)
    assert say(note, "es") == "el ajuste usl (σ = 0,1; κ = 0,001), E relativa a d0 = 1.024"
    assert str(note) == "fitted usl (sigma = 0.1; kappa = 0.001), E relative to d0 = 1,024"


@pytest.mark.parametrize(
    "text, lang, said",
    [
        ("2 repeated runs of 1 devices", "en", "2 repeated runs of 1 device"),
        ("≈ 1 dispositivos; 1 pasos × 1 repeticiones", "es", "≈ 1 dispositivo; 1 paso × 1 repetición"),
        ("measured: mlp, 1 steps × 1 repeats, gloo on cpu", "en", "measured: mlp, 1 step × 1 repeat, gloo on cpu"),
        (
            "0.1 devices, 2,001 devices, 11 devices, 21 devices",
            "en",
            "0.1 devices, 2,001 devices, 11 devices, 21 devices",
        ),
    ],
)
def test_a_count_of_one_takes_the_singular(text, lang, said):
    from dpscale.faces.i18n import SINGULAR, singular

    assert singular(text, SINGULAR[lang]) == said


def test_a_list_of_laws_ends_with_the_languages_and():
    """'no descartan usl, amdahl' read as an unfinished list in Spanish; the English stays as written."""
    n = Note("laws_pooled", laws="allreduce, usl, amdahl", others="usl, amdahl", law="allreduce")
    said = say(n, "es")
    assert said.startswith(
        "los intervalos de predicción combinan por igual las leyes allreduce, usl y amdahl: los tamaños medidos no "
        "descartan usl y amdahl (su desajuste no se distingue del de la ley allreduce dentro del ruido), así que"
    )
    assert "the prediction intervals draw from allreduce, usl, amdahl alike" in n
    one = Note("laws_pooled", laws="allreduce, usl", others="usl", law="allreduce")
    assert "combinan por igual las leyes allreduce y usl: los tamaños medidos no descartan usl (su" in say(one, "es")


def test_the_library_lists_the_pooled_laws_as_the_command_line_does(capsys):
    """Review LE: `Fit.summary()` (and the warning's own text, fit --json's) said 'draw from allreduce, usl, amdahl
    alike: the measured sizes do not reject usl, amdahl' where `dpscale fit` said 'allreduce, usl and amdahl' and
    'usl and amdahl': fit_notes joined the laws with ', ', the faces with i18n.listed. One rule now, notes.listed,
    which both read; Spanish says 'y' as before, from the new text and from a fit --json written before it."""
    from dpscale import fit
    from dpscale.faces.i18n import say_text

    runs = [(1, 1000.0), (8, 7500.0), (16, 14600.0), (32, 28000.0)]
    f = fit(runs, gpus_per_node=8)
    three = "draw from allreduce, usl and amdahl alike: the measured sizes do not reject usl and amdahl (their"
    (pooled,) = [w for w in f.warnings if "draw from" in w]
    assert three in pooled and f"warning: {pooled}" in f.summary().splitlines()
    rc, out, _ = run(capsys, "fit", *[f"--point={d}:{x:g}" for d, x in runs], "--gpus-per-node", "8")
    assert rc == 0 and three in " ".join(out.split())
    rc, out, _ = run(capsys, "fit", *[f"--point={d}:{x:g}" for d, x in runs], "--gpus-per-node", "8", "--json")
    assert rc == 0 and any(three in w for w in json.loads(out)["warnings"])
    two = fit([(1, 1009.1), (2, 1965.7), (4, 3711.4), (8, 6727.9)])
    assert "draw from amdahl and usl alike: the measured sizes do not reject usl (their" in two.summary()
    spanish = "combinan por igual las leyes allreduce, usl y amdahl: los tamaños medidos no descartan usl y amdahl"
    assert spanish in say_text(pooled, "es")
    old = pooled.replace("allreduce, usl and amdahl", "allreduce, usl, amdahl").replace(
        "usl and amdahl (", "usl, amdahl ("
    )
    assert old != pooled and spanish in say_text(old, "es")  # a fit --json written before this review


def test_spanish_notes_say_what_the_english_says(capsys):
    """Wordings a Spanish reader misread: 'ResNet-50 publicada' (the runs were published, not the model), 'ZB-H2
    solo no tiene burbuja' (read as 'ZB-H2 alone'), 'intercalado' beside the schedule's name, 'las cifras sin
    burbuja' for the zero-bubble schedules' figures."""
    cnn = Note("cnn_mfu", t_lo=14, t_hi=29, t_pm=35, f_lo=57, f_hi=68, f_pm=9)
    assert "ResNet-50 de la calibración: el 14–29 % del pico de los tensor cores" in say(cnn, "es")
    zb2 = say(Note("pipeline_zb2_in_flight", need=15, m=4, zb1_pct=58.3), "es")
    assert zb2.startswith("ZB-H2 solo elimina la burbuja con al menos 2p − 1 = 15 microlotes en vuelo; con m = 4")
    rc, out, _ = run(
        capsys, "pipeline", "-p", "4", "-m", "6", "--schedule", "interleaved", "--chunks", "2", "--lang", "es"
    )
    assert rc == 0 and "nota: interleaved: Megatron-LM necesita que m sea múltiplo de p (4)" in out
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "--schedule", "zb-h1", "--lang", "es")
    assert rc == 0 and "nota: las cifras zero-bubble suponen tiempos iguales de forward, backward de entrada" in out


def test_a_rank_is_a_proceso_in_every_spanish_line():
    """measure's tables and failures say 'proceso'; three of its notes said 'rango'."""
    from dpscale.faces.i18n import label

    assert label("measure_threads_from_out", "es").startswith("{n} hilos por proceso, como los registros")
    assert label("measure_threads_over", "es").startswith("; {d} procesos × {t} hilos superan los {c} núcleos")
    assert "los procesos comparten núcleos" in label("measure_oversubscribed", "es")


def test_a_signed_error_that_rounds_to_zero_reads_without_a_sign():
    """validate's signed error of −0.0003 read '-0.000' in four rows of the published sets."""
    from dpscale.faces.i18n import number

    assert [number(x, "fixed3") for x in (-0.0003, 0.0003, -0.0006, -0.25, 0.0)] == [
        "0.000", "0.000", "-0.001", "-0.250", "0.000"
    ]  # fmt: skip
    assert number(-0.0003, "fixed3", "es") == "0,000"


def test_a_large_figure_in_a_spanish_note_is_written_out_as_the_tables_write_it(capsys):
    """A note's '{x:,.4g}' past its digits printed Python's exponent with a decimal comma ('5,826e+04 TFLOP',
    'promediadas a 3,005e+06' beside a table reading 3.005.000): whole and grouped in Spanish, as the tables."""
    n = Note("compute_estimated", tflop=58260.3, pct=35.0, peak=989.0, gpu="h100-80gb")
    assert n == "compute estimated: 5.826e+04 TFLOP per micro-batch at 35 % of 989 TFLOP/s (h100-80gb)"  # as it was
    assert say(n, "es") == "cómputo estimado: 58.260 TFLOP por microlote al 35 % de 989 TFLOP/s (h100-80gb)"
    assert say(Note("law_usl", sigma=1e-05, kappa=0.5), "es") == "USL σ = 1e-05, κ = 0,5"  # small ones keep theirs
    points = [f"--point={p}" for p in ("1:400000", "8:3000000", "8:3010000", "16:5800000", "32:11000000")]
    rc, out, _ = run(capsys, "fit", *points, "--lang", "es")
    assert rc == 0 and "promediadas a 3.005.000" in out
    rc, out, _ = run(capsys, "predict", "--model", "llama-70b", "--gpu", "h100-80gb", "--system", "dgx-h100",
                     "--precision", "bf16", "-d", "8", "--lang", "es")  # fmt: skip
    assert rc == 0 and "cómputo estimado: 58.260 TFLOP por microlote" in out
    rc, out, _ = run(capsys, "predict", "--params", "1e12", "-v", "0.01", "--system", "dgx-a100", "-d", "8",
                     "--lang", "es")  # fmt: skip
    assert rc == 0 and "4.000 GB de gradientes: 3.003,00 veces los mayores gradientes" in out
    assert not re.search(r"\d,\d+e\+\d", out)


@pytest.mark.parametrize(
    ("lang", "one", "two"), [("es", "1 hilo/proceso", "2 hilos/proceso"), ("en", "1 thread/rank", "2 threads/rank")]
)
def test_measure_s_thread_count_is_in_the_singular_or_the_plural(lang, one, two):
    """Every CPU measurement's title ended '1 hilo(s)/proceso' (English '1 thread(s)/rank'): the count chooses."""
    from dpscale.faces.i18n import SINGULAR, label, singular

    fields = dict(workload="mlp", batch=64, steps=3, repeats=1, backend="gloo", device="cpu")
    title = label("measure_title", lang)
    assert singular(title.format(threads=1, **fields), SINGULAR[lang]).endswith(f" cpu, {one}")
    assert singular(title.format(threads=2, **fields), SINGULAR[lang]).endswith(f" cpu, {two}")
    said = singular(label("measure_threads_from_out", lang).format(n=1), SINGULAR[lang])
    assert said.startswith({"es": "1 hilo por proceso, como", "en": "1 thread a rank, as"}[lang])


def test_an_e_of_zero_reads_as_an_e_and_an_astronomical_figure_keeps_its_exponent():
    """e3 writes E to three decimals, and to three significant digits only below TINY_E (5e-4): 0 is '0.000', as a
    table's E, not the bare '0' of 3 significant digits; figure writes a number whole from a million on and keeps
    Python's exponent from ASTRONOMICAL (1e15) on, where whole digits past 2^53 are invented — 1e15 itself is one."""
    from dpscale.notes import ASTRONOMICAL, TINY_E, e3, figure

    assert (TINY_E, ASTRONOMICAL) == (5e-4, 1e15)
    assert [e3(0.0), e3(0.0004), e3(0.0005), e3(0.9)] == ["0.000", "0.0004", "0.001", "0.900"]
    assert [figure(9.99999e14), figure(1e15), figure(-1e15)] == ["999,999,000,000,000", "1e+15", "-1e+15"]


def test_every_e_source_describes_itself_as_a_note_said_in_spanish():
    """describe() is the E source's name in a plan's or calc's notes (`law_note`, said with `say`). USL, Amdahl,
    PerSize and a fit gave Notes, while the constant and a prediction gave plain English, which `say` passes as
    written: 'constant E = 0.9' inside a Spanish note. Each now has its key; the English text is unchanged."""
    import dpscale

    kw = dict(model="resnet50", precision="amp", throughput=1000, system="dgx-a100")
    sources = [
        (dpscale.Constant(0.9), "E constante = 0,9"),
        (dpscale.USL(0.02, 1e-4), "USL σ = 0,02, κ = 0,0001"),
        (
            dpscale.predict([1, 8, 64], **kw),
            "E(d) predicha (modelo del paso: cómputo, all-reduce expuesto, espera de sincronización)",
        ),
        (
            dpscale.predict([1, 8, 64], global_batch=1024, **kw),
            "E(d) predicha (modelo del paso: cómputo, all-reduce expuesto, espera de sincronización) con un lote "
            "global fijo de 1.024",
        ),
    ]
    for source, spanish in sources:
        said = source.describe()
        assert isinstance(said, Note) and say(said, "es") == spanish and say(said, "en") == said
