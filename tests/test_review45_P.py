"""Review 45 P: the Spanish face read by a Spanish-speaking ML engineer — English that leaked into `--lang es`
output, and terms said two ways for one thing."""

from __future__ import annotations

from clihelp import run

from dpscale.faces.i18n import say_text
from dpscale.notes import Note

RUNS = "devices,throughput\n1,1000\n1,990\n2,1900\n4,3600\n8,6600\n16,11500\n"


def test_a_relayed_warning_with_a_count_of_one_is_said_in_spanish():
    """say_text read a note back by its English template, whose 'devices' the note had written '1 device': the
    warning came back as typed, in English, inside a Spanish plan."""
    note = Note("runs_repeated", n=2, d=1, spread=1.0, mean=995.0)
    assert str(note) == "2 repeated runs of 1 device (spread 1.0 %) averaged to 995"
    assert say_text(str(note), "es") == "2 ejecuciones repetidas de 1 dispositivo (dispersión 1,0 %) promediadas a 995"
    assert say_text(str(Note("runs_repeated", n=3, d=8, spread=2.0, mean=7000.0)), "es") == (
        "3 ejecuciones repetidas de 8 dispositivos (dispersión 2,0 %) promediadas a 7.000"
    )


def test_plan_says_a_saved_fit_s_one_device_warning_in_spanish(tmp_path, capsys):
    (tmp_path / "runs.csv").write_text(RUNS)
    rc, report, _ = run(capsys, "fit", str(tmp_path / "runs.csv"), "--resamples", "100", "--json")
    (tmp_path / "fit.json").write_text(report)
    rc, out, err = run(capsys, "plan", "-n", "1e6", "-v", "1000", "--efficiency-file", str(tmp_path / "fit.json"),
                       "--lang", "es")  # fmt: skip
    assert rc == 0
    assert "nota: fit.json advierte: 2 ejecuciones repetidas de 1 dispositivo (dispersión 1,0 %) promediadas a 995" in (
        out + err
    )
    assert "repeated runs" not in out + err
