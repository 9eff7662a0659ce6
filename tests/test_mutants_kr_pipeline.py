"""Review KR (mutation pass): formulas.pipeline.sweep_cautions and cautions' ZB-H2 notes, said once for a sweep
over m — each test below failed against a hand-made mutant of formulas/pipeline.py (named in its docstring) and
passes on the source. Bubble figures by hand: GPipe's bubble fraction (p − 1)/(m + p − 1); ZB-H1's bubble over
ideal time (p − 1)/(3m)."""

from __future__ import annotations

from dpscale.faces.cli import main

UNFILLED = (
    "< p = {p}: the pipeline never fills — a stage computes m of every m + p − 1 micro-batch slots, idle for the "
    "bubble fraction of the step; more micro-batches a step shrink it (at m = 4p = {m4}: {at4}), or fewer stages"
)


def notes(capsys, *argv: str) -> list[str]:
    assert main(["pipeline", *argv]) == 0
    return [x.removeprefix("note: ") for x in capsys.readouterr().out.splitlines() if x.startswith("note: ")]


def test_the_sizes_a_note_holds_at_are_named_in_order(capsys):
    """Mutant: the m's unsorted (survived: every sweep was typed in order). `-m 2,1,4` holds the unfilled note at
    1 and 2 (4 = p fills): 'm = 1 and 2', whatever order typed; GPipe at m = 4p = 16: 3/19 = 15.8 %."""
    said = notes(capsys, "-p", "4", "-m", "2,1,4", "--schedule", "gpipe")
    assert "m = 1 and 2 " + UNFILLED.format(p=4, m4=16, at4="15.8 %") in said


def test_six_sizes_are_all_named_and_seven_elided(capsys):
    """Mutants: SIZES_SHOWN 6 → 5, its first SIZES_SHOWN − 1 → SIZES_SHOWN, `<=` → `<` (survived): six m's are
    named all, seven as the first five, '…' and the last. GPipe p = 8 at m = 32: 7/39 = 17.9 %."""
    six = notes(capsys, "-p", "8", "-m", "1..6", "--schedule", "gpipe")
    assert "m = 1, 2, 3, 4, 5 and 6 " + UNFILLED.format(p=8, m4=32, at4="17.9 %") in six
    seven = notes(capsys, "-p", "8", "-m", "1..7", "--schedule", "gpipe")
    assert "m = 1, 2, 3, 4, 5, … and 7 " + UNFILLED.format(p=8, m4=32, at4="17.9 %") in seven


def test_sizes_past_a_thousand_are_listed_apart_in_both_languages(capsys):
    """Mutant: the sizes joined by ', ' instead of '; ' (survived): '1,000, 1,001, 1,002' cannot be read apart, and
    in Spanish was not relisted as '1.000, 1.001 y 1.002'. GPipe p = 2,048 at m = 8,192: 2,047/10,239 = 20.0 %."""
    said = notes(capsys, "-p", "2048", "-m", "1000..1002", "--schedule", "gpipe")
    assert "m = 1,000; 1,001 and 1,002 " + UNFILLED.format(p="2,048", m4="8,192", at4="20.0 %") in said
    assert main(["pipeline", "-p", "2048", "-m", "1000..1002", "--schedule", "gpipe", "--lang", "es"]) == 0
    assert "nota: m = 1.000, 1.001 y 1.002 < p = 2.048: el pipeline nunca se llena" in capsys.readouterr().out


def test_zb_h2_s_in_flight_note_gives_zb_h1_s_figure_from_m_equal_p_on(capsys):
    """Mutants: `m < p` → `m <= p` and → `m < p − 1` for the note without a figure (survived). At m = p = 4 the
    pipeline fills, so the note gives ZB-H1's 3/12 = 25.0 %; at m = 3 the unfilled note said the figure, so it is not
    said twice. 2p − 1 = 7 in flight."""
    full = notes(capsys, "-p", "4", "-m", "4", "--schedule", "zb-h2")
    assert (
        "ZB-H2 is bubble-free only with at least 2p − 1 = 7 micro-batches in flight; with m = 4 its bubble is not "
        "zero — reported as ZB-H1's, 25.0 % of ideal time, the closer figure"
    ) in full
    short = notes(capsys, "-p", "4", "-m", "3", "--schedule", "zb-h2")
    assert (
        "ZB-H2 is bubble-free only with at least 2p − 1 = 7 micro-batches in flight; with m = 3 its bubble is not "
        "zero — reported as ZB-H1's, the closer figure"
    ) in short


def test_each_note_of_a_sweep_is_said_once(capsys):
    """Mutants: a note met at several m added each time, and the sweep's notes taken from its first m alone
    (survived): `-p 4 -m 1..8 --schedule zb-h2` says the unfilled note for 1, 2, 3, the in-flight note for 1 to 6
    (2p − 1 = 7 fills it) and the zero-bubble times note, each once."""
    said = notes(capsys, "-p", "4", "-m", "1..8", "--schedule", "zb-h2")
    assert [x.split(":")[0] for x in said[1:]] == ["m = 1, 2 and 3 < p = 4", "ZB-H2 is bubble-free only with at least "
                                                   "2p − 1 = 7 micro-batches in flight; with m = 1, 2, 3, 4, 5 and 6 "
                                                   "its bubble is not zero — reported as ZB-H1's, the closer figure",
                                                   "zero-bubble figures assume forward = input-backward = weight-"
                                                   "backward time (T_F = T_B = T_W)"]  # fmt: skip
