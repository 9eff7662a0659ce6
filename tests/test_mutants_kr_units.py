"""Review KR (mutation pass): formulas.units' readings of a typed unit (unit_key, count_noun's every/cada and closing
dot, PER_SECOND, cluster_unit's nodes) and i18n.unit_label, where no test held them — each test below failed against
a hand-made mutant of the source (named in its docstring) and passes on the source."""

from __future__ import annotations

from dpscale.faces.cli import main
from dpscale.formulas.units import canonical_unit, count_noun, own_unit


def test_unit_key_casefolds_as_the_page_does():
    """Mutant: unit_key's casefold() → lower() (survived: the long s is tested in Chromium only, a slow test).
    'ſ' (U+017F) casefolds to 's' and lower() keeps it: 'TOKENS/ſ' is tokens/s, 'Muestras/ſeg' samples/s."""
    assert canonical_unit("TOKENS/ſ") == "tokens/s"
    assert own_unit("Muestras/ſeg") == "samples/s"


def test_plan_counts_in_the_noun_of_a_unit_said_every_second_or_with_a_dot(capsys):
    """Mutants: count_noun without 'every'/'cada' and without the closing '\\.?' (both survived). plan's worked
    example counts its 1.28M in the unit's noun: 'tokens every second' and 'tokens/sec.' are tokens — not 'units of
    the tokens/sec. throughput'."""
    assert count_noun("tokens every second") == "tokens"
    assert count_noun("muestras cada segundo") == "muestras"
    assert count_noun("tokens/sec.") == "tokens"
    assert main(["plan", "--unit", "tokens/sec."]) == 0
    assert capsys.readouterr().out.startswith(
        "Worked example: 1.28M tokens × 90 epochs at 2,000 tokens/sec. per device, E = 0.9,"
    )


def test_a_count_labelled_with_its_per_second_abbreviation_is_planned_per_second(capsys):
    """Mutants: PER_SECOND without 'sps', 'qps' or 'ips' (each survived: TPS, fps and Hz were tested). 'samples (SPS)'
    is a rate, not a count with no time: 1e9 samples at 64 × 2,000 × 0.9 = 115,200 samples/s take 8,680.6 s, 2.4 h."""
    for unit in ("samples (SPS)", "samples (QPS)", "samples (IPS)"):
        argv = ["plan", "-d", "64", "-v", "2000", "-e", "0.9", "--samples", "1e9", "--unit", unit]
        assert main(argv) == 0, unit
        out = capsys.readouterr().out
        assert "     64  0.900 (90.0 %)  115,200    57.6×  2.4 h     154.3      —" in out, unit
        assert out.rstrip().endswith(f"throughputs in {unit}"), unit


def test_a_spanish_per_node_unit_is_refused_with_its_cluster_form(capsys):
    """Mutant: cluster_unit's device words without 'nodos?' (survived: 'node' was tested). 'muestras/s/nodo' labels
    the 64 devices' 115,200 as a node's rate: refused, naming the unit without it."""
    assert main(["calc", "-d", "64", "-v", "2000", "-e", "0.9", "--unit", "muestras/s/nodo", "--lang", "es"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dpscale calc: error: --unit: se recibió 'muestras/s/nodo'; se admite: "), err
    assert err.rstrip().endswith(": muestras/s"), err


def test_a_typed_unit_that_is_also_a_label_s_key_is_said_as_typed(capsys, tmp_path):
    """Mutants: unit_label → label at count_of, plan's worked-example title, plan's speedup note and fit's measured
    lines (the page's) (each survived: the table's cells were tested), and at fit's devices-for line. `--unit
    devices --lang es` is a unit typed 'devices', not the label 'dispositivos': '2.000 dispositivos por dispositivo'
    said the rate in devices. Runs 1:100, 2:190, 4:360, 8:680: E(2) = 190 / (2 × 100) = 95,0 %; from 2:200 the
    speedup note's rate a device is 200 / 2 = 100."""
    from dpscale.faces.web.app import run_command

    assert main(["plan", "--unit", "devices", "--lang", "es"]) == 0
    title = capsys.readouterr().out.splitlines()[0]
    assert "1,28 M de unidades del rendimiento en devices × 90 épocas a 2.000 devices por dispositivo" in title
    runs = tmp_path / "r.csv"
    runs.write_text("devices,throughput\n1,100\n2,190\n4,360\n8,680\n", encoding="utf-8")
    assert main(["fit", str(runs), "--unit", "devices", "--target-throughput", "500", "--lang", "es"]) == 0
    assert "\ndispositivos para 500 devices: " in capsys.readouterr().out
    page = run_command("fit", {"point": "1:100 2:190 4:360 8:680", "unit": "devices"}, "es")
    assert any(n.startswith("medido: 2 dispositivos, 190 devices, E 95,0 % (") for n in page["notes"])
    runs.write_text("devices,throughput\n2,200\n4,380\n8,720\n16,1360\n", encoding="utf-8")
    argv = ["plan", "--fit", str(runs), "--unit", "devices", "--samples", "1e6", "-d", "8", "--lang", "es"]
    assert main(argv) == 0
    assert "al rendimiento por dispositivo de la ejecución con 2 (100 devices)" in capsys.readouterr().out


def test_calc_s_worked_example_says_a_typed_unit_as_typed(capsys):
    """Mutant: calc's worked-example title reading --unit as a label's key (survived: its cells were tested). `calc
    --unit devices --lang es` is 64 devices × 2,000 of the unit 'devices' a device: '2.000 devices', not '2.000
    dispositivos'."""
    assert main(["calc", "--unit", "devices", "--lang", "es"]) == 0
    assert capsys.readouterr().out.startswith("Ejemplo resuelto: 64 dispositivos × 2.000 devices con E = 0,9\n")
