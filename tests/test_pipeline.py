"""`dpscale pipeline`: published bubble formulas, in-flight micro-batches, stacking, and bad input."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

import pytest
from clihelp import run
from hypothesis import given
from hypothesis import strategies as st

import dpscale
from dpscale.errors import DpscaleError
from dpscale.formulas.pipeline import (
    SCHEDULES,
    bubble_fraction,
    bubble_overhead,
    cautions,
    in_flight,
    pipeline,
)


def test_gpipe_bubble_is_three_elevenths():
    # GPipe (Huang et al.): bubble/total = (K−1)/(M+K−1); K = 4 stages, M = 8 micro-batches → 3/11.
    assert Fraction(bubble_fraction(4, 8, "gpipe")).limit_denominator(1000) == Fraction(3, 11)
    assert bubble_overhead(4, 8, "gpipe") == 3 / 8  # Narayanan et al.'s (p−1)/m, the other normalisation


def test_schedules_published_forms():
    p, m = 8, 32
    assert bubble_overhead(p, m, "1f1b") == bubble_overhead(p, m, "gpipe") == 7 / 32  # same bubble [NARAY21]
    assert bubble_overhead(p, m, "interleaved", chunks=4) == 7 / (4 * 32)
    assert bubble_overhead(p, m, "zb-h1") == 7 / 96  # (p−1)/(3m) [ZB]
    assert bubble_overhead(p, m, "zb-h2") == 0.0


def test_in_flight_micro_batches():
    assert in_flight(4, 8, "gpipe") == 8  # all m stored before any backward
    assert in_flight(4, 8, "1f1b") == 4  # at most p [NARAY21]
    assert in_flight(4, 2, "1f1b") == 2  # never more than m
    assert in_flight(4, 16, "interleaved", 2) == 4 + 3 / 2  # p(1 + (p−1)/(pv)) [KORTH22]
    assert in_flight(4, 16, "zb-h2") == 7  # 2p − 1 [ZB]
    assert in_flight(4, 16, "zb-h1") == 4  # ZB-H1 keeps 1F1B's memory: p [ZB]
    assert in_flight(4, 2, "zb-h2") == 2  # never more than m


def test_cautions_name_where_the_closed_forms_stop():
    assert cautions(pipeline(4, 16, "1f1b")) == []
    assert cautions(pipeline(4, 4, "1f1b")) == []  # m = p fills the pipeline once
    # with m < p, 1F1B has no steady state and runs every forward first — GPipe, whose (p − 1)/m is exact
    # (review JZ: its note says why the bubble is most of the step, 3/6 here; the closed form stands)
    said = [[c.key for c in cautions(pipeline(4, 3, s))] for s in ("1f1b", "gpipe")]
    assert said == [["pipeline_unfilled_exact"]] * 2
    assert pipeline(8, 4, "1f1b").bubble_overhead == pipeline(8, 4, "gpipe").bubble_overhead == 7 / 4
    short = cautions(pipeline(4, 3, "zb-h1"))[0]
    assert short.startswith("m = 3 < p = 4")
    assert cautions(pipeline(4, 16, "interleaved", chunks=2)) == []
    assert cautions(pipeline(4, 12, "interleaved", chunks=2)) == []  # a multiple of p, not of 2p
    assert [c.key for c in cautions(pipeline(4, 4, "zb-h1"))] == ["pipeline_zb_times"]  # m = p fills it
    assert "multiple of p (4)" in cautions(pipeline(4, 18, "interleaved", chunks=2))[0]
    assert "T_F = T_B = T_W" in cautions(pipeline(4, 16, "zb-h1"))[0]
    # ZB-H2's zero bubble needs 2p − 1 micro-batches in flight: with fewer, the 0 % is flagged, ZB-H1's figure given
    assert [c.key for c in cautions(pipeline(4, 7, "zb-h2"))] == ["pipeline_zb_times"]
    few = cautions(pipeline(4, 5, "zb-h2"))[0]
    assert "2p − 1 = 7 micro-batches" in few and "reported as ZB-H1's, 20.0 % of ideal time" in few


def test_the_worked_example_keeps_what_was_typed(capsys):
    """With no stages or micro-batches the worked example fills them in, and a typed schedule is kept (it was
    overwritten by the example's gpipe) and checked."""
    rc, out, _ = run(capsys, "pipeline", "--schedule", "zb-h2")
    assert rc == 0 and out.startswith("Pipeline: zb-h2, p = 4 stages")
    # and says what it filled in (p and m were used as if typed); the bare worked example needs no such note
    assert "note: the worked example filled in --stages 4, --microbatches 8, which were not given" in out
    rc, out, _ = run(capsys, "pipeline")
    assert rc == 0 and "filled in" not in out
    rc, _, err = run(capsys, "pipeline", "--schedule", "bogus")
    assert rc == 2 and "--schedule: got 'bogus'" in err


def test_stacked_data_parallelism():
    r = pipeline(4, 8, "gpipe", dp_efficiency=0.9, devices=64)
    assert r.dp_replicas == 16
    assert r.combined_efficiency == pytest.approx(8 / 11 * 0.9)
    assert r.effective_devices == pytest.approx(64 * 8 / 11 * 0.9)


@given(
    p=st.integers(1, 128),
    m=st.integers(1, 1024),
    schedule=st.sampled_from(SCHEDULES),
    v=st.integers(1, 8),
)
def test_bubble_falls_with_micro_batches(p, m, schedule, v):
    v = max(v, 2) if schedule == "interleaved" else 1
    f = bubble_fraction(p, m, schedule, v)
    assert 0 <= f < 1
    assert bubble_fraction(p, m + 1, schedule, v) <= f
    assert bubble_fraction(p + 1, m, schedule, v) >= f  # more stages, more bubble
    assert f <= bubble_fraction(p, m, "gpipe")  # no schedule is worse than GPipe


@given(p=st.integers(1, 64), m=st.integers(1, 512))
def test_normalisations_agree(p, m):
    r = bubble_overhead(p, m, "gpipe")
    assert bubble_fraction(p, m, "gpipe") == pytest.approx((p - 1) / (m + p - 1))
    assert bubble_fraction(p, m, "gpipe") == pytest.approx(r / (1 + r))


def test_api_errors():
    with pytest.raises(DpscaleError, match="stages: got 16; allowed: at most the device count"):
        pipeline(16, 8, devices=8)
    # one past the device count, where 8 % 9 would otherwise say 'devices: a whole multiple of the stages'
    with pytest.raises(DpscaleError, match="stages: got 9; allowed: at most the device count: 8"):
        pipeline(9, 8, devices=8)
    with pytest.raises(DpscaleError, match="schedule: got 'pipedream'"):
        bubble_fraction(4, 8, "pipedream")
    with pytest.raises(DpscaleError, match="chunks"):
        bubble_fraction(4, 8, "1f1b", chunks=2)


# -- CLI ----------------------------------------------------------------------------------------


def test_cli_gpipe_json(capsys):
    rc, out, _ = run(capsys, "pipeline", "--stages", "4", "--microbatches", "8", "--schedule", "gpipe", "--json")
    rec = json.loads(out)
    assert rc == 0 and rec["bubble_fraction"] == round(3 / 11, 12) and rec["in_flight_microbatches"] == 8


def test_cli_micro_batches_spelt_as_the_other_commands_spell_micro_batch(capsys):
    """--micro-batches, hyphenated as predict's and memory's --micro-batch, is --microbatches (it was refused with
    'did you mean --microbatches?'): 1F1B, p = 4, m = 8 has r = 3/8, bubble 3/11."""
    rc, out, _ = run(capsys, "pipeline", "--stages", "4", "--micro-batches", "8", "--json")
    rec = json.loads(out)
    assert rc == 0 and rec["microbatches"] == 8 and rec["bubble_overhead"] == 0.375
    assert rec["bubble_fraction"] == round(3 / 11, 12)


def test_cli_worked_example_and_sweep(capsys):
    rc, out, _ = run(capsys, "pipeline")
    assert rc == 0 and "27.3 %" in out and "bubble / total time" in out
    rc, out, _ = run(
        capsys, "pipeline", "-p", "8", "-m", "8..64x2", "--schedule", "interleaved", "--chunks", "2", "--json"
    )
    rows = json.loads(out)
    assert [r["microbatches"] for r in rows] == [8, 16, 32, 64]
    assert rows[0]["bubble_overhead"] == 7 / 16


def test_cli_stacked(capsys):
    argv = ["pipeline", "-p", "4", "-m", "8", "--schedule", "gpipe", "--devices", "64", "--dp-efficiency", "0.9"]
    rc, out, _ = run(capsys, *argv, "--csv")
    header, row = out.strip().splitlines()
    rec = dict(zip(header.split(","), row.split(",")))
    assert rc == 0 and rec["dp_replicas"] == "16" and float(rec["combined_efficiency"]) == pytest.approx(0.9 * 8 / 11)


def test_cli_plot(capsys, tmp_path):
    path = tmp_path / "bubble.png"
    rc, _, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "--plot", str(path))
    assert rc == 0 and path.stat().st_size > 1000


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["-p", "4", "-m", "8", "--schedule", "pipedream"], "--schedule: got 'pipedream'; allowed: gpipe, 1f1b, inter"),
        (["-p", "0", "-m", "8"], "--stages: got '0'; allowed: a whole number from 1 to 10,000,000"),
        (["-p", "4", "-m", "0"], "--microbatches: got '0'"),
        (["-p", "4", "--microbatches=-8"], "--microbatches: got '-8'"),
        (["-p", "16", "-m", "8", "--devices", "8"], "--stages: got 16; allowed: at most the device count: 8"),
        (
            ["-p", "4", "-m", "8", "--devices", "10"],
            "--devices: got 10; allowed: a whole multiple of the stages (stages × replicas): 4, 8, …",
        ),
        (["-p", "4", "-m", "8", "--chunks", "2"], "--chunks: got 2; allowed: 1 unless --schedule interleaved"),
        (["-p", "4", "-m", "8", "--schedule", "interleaved"], "--chunks: missing; allowed: 2 or more with --schedule"),
        (["-p", "4", "-m", "8", "--schedule", "interleaved", "--chunks", "1"], "--chunks: got '1'; allowed: 2 or more"),
        # 0 under interleaved once said "a whole number ≥ 1", and 1 was then refused
        (["-p", "4", "-m", "8", "--schedule", "interleaved", "--chunks", "0"], "--chunks: got '0'; allowed: 2 or more"),
        (["-p", "4", "-m", "8", "--chunks", "0"], "--chunks: got '0'; allowed: a whole number ≥ 1"),
        # 2.5 under interleaved was told "2 or more", which it is: what it is not is a whole number
        (
            ["-p", "4", "-m", "8", "--schedule", "interleaved", "--chunks", "2.5"],
            "--chunks: got '2.5'; allowed: a whole number ≥ 2",
        ),
        (
            ["-p", "4", "-m", "8", "--schedule", "interleaved", "--chunks", "1e16"],
            "allowed: a whole number from 2 to 2^53",
        ),
        (
            ["-p", "4", "-m", "8", "--schedule", "interleaved", "--chunks", "2.5", "--lang", "es"],
            "se admite: un número entero ≥ 2",
        ),
        (["-p", "4", "-m", "8", "--dp-efficiency", "1.2"], "--dp-efficiency: got '1.2'; allowed: a scaling eff"),
        (["-p", "4"], "--microbatches: missing"),
        (["-p", "4", "-m", "8", "--plot", "x.gif"], "--plot: got 'x.gif'"),
    ],
)
def test_cli_bad_input(capsys, argv, needle):
    rc, out, err = run(capsys, "pipeline", *argv)
    assert rc == 2 and out == ""
    assert needle in err and err.count("\n") == 1


def test_zb_h2_short_of_2p_minus_1_reports_zb_h1s_bubble_not_zero():
    # its zero rests on 2p − 1 micro-batches in flight [ZB]; with fewer it once printed 0.0 % beside a note saying so
    assert pipeline(4, 7, "zb-h2").bubble_overhead == 0.0
    assert pipeline(4, 5, "zb-h2").bubble_overhead == pipeline(4, 5, "zb-h1").bubble_overhead == 3 / 15
    # the edge: m = 6 = 2p − 2 is one short of 2p − 1 = 7, so ZB-H1's (p − 1)/(3m) = 3/18 and the note
    short = pipeline(4, 6, "zb-h2")
    assert short.bubble_overhead == 3 / 18 and "2p − 1 = 7 micro-batches" in cautions(short)[0]


def test_one_replica_is_no_data_parallelism():
    # p = 4 stages on 4 devices: one replica, so --dp-efficiency does not apply (E(1) = 1); it once halved E
    one = pipeline(4, 8, "1f1b", dp_efficiency=0.5, devices=4)
    assert one.dp_replicas == 1 and one.combined_efficiency == pytest.approx(1 / (1 + 3 / 8))
    two = pipeline(4, 8, "1f1b", dp_efficiency=0.5, devices=8)
    assert two.combined_efficiency == pytest.approx(0.5 / (1 + 3 / 8))


def test_plot_draws_a_bounded_grid_of_m_exact_where_the_curves_bend(capsys, tmp_path, monkeypatch):
    # -m 10000000 drew every integer m to 2·10^7 for each schedule: minutes for one chart; -m 100000 took seconds
    import dpscale.faces.plot

    got = []
    monkeypatch.setattr(dpscale.faces.plot, "save", lambda fig, out, flag="--plot": got.append(fig) or out)
    rc, _, _ = run(
        capsys, "pipeline", "-p", "4", "-m", "100000", "--schedule", "gpipe", "--plot", str(tmp_path / "b.png")
    )
    (ax,) = got[0].axes
    (gpipe,) = [x for x in ax.get_lines() if x.get_label().startswith("gpipe")]
    m, y = list(gpipe.get_xdata()), list(gpipe.get_ydata())
    assert rc == 0 and len(m) < 2000  # it was 200,000 points a curve
    assert m[:64] == list(range(1, 65)) and m[-1] == 200_000  # every m while (p − 1)/(m + p − 1) bends, to 2·max m
    # GPipe's bubble share (p − 1)/(m + p − 1) at a grid point past 64, by hand: m = 200,000 → 3/200,003
    assert y[-1] == pytest.approx(3 / 200_003)


def test_a_typed_dp_efficiency_held_at_one_replica_is_said(capsys):
    """4 devices on 4 stages are one replica: E = 1 there, and the 0.9 typed vanished without a word."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "-d", "4", "--dp-efficiency", "0.9")
    assert rc == 0 and "data-parallel E                             1.000" in out
    assert "note: one data-parallel replica is its own reference" in out and "--dp-efficiency 0.9 applies" in out
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "-d", "8", "--dp-efficiency", "0.9")
    assert rc == 0 and "own reference" not in out


def test_an_unfilled_pipeline_takes_the_least_step_any_schedule_reaches(capsys):
    """With m < p the interleaved closed form went below what any schedule can do: p = 8, m = 4, v = 2 gave
    r = 7/8 where one micro-batch alone crosses 8 stages (8 units against 4 of work: r ≥ 1). The bound: the last
    chunk waits for the first forward, runs every micro-batch's F and B, and sends the last backward back —
    p + (m − 1)/v units; under zero-bubble (F = B = W = ⅓) (2p + 2m − 1)/3. By hand: p = 8, m = 4, v = 2:
    (8 + 3/2)/4 − 1 = 11/8; ZB-H1 at m = 2: (16 + 4 − 1)/6 − 1 = 13/6, at m = 4: (16 + 8 − 1)/12 − 1 = 11/12."""
    from dpscale.formulas.pipeline import unfilled

    assert bubble_overhead(8, 4, "interleaved", 2) == pytest.approx(11 / 8)
    assert bubble_overhead(8, 2, "zb-h1") == pytest.approx(13 / 6) == bubble_overhead(8, 2, "zb-h2")
    assert bubble_overhead(8, 4, "zb-h1") == pytest.approx(11 / 12)
    for p in range(2, 17):
        for m in range(1, 3 * p):
            for v in (2, 3, 4):  # every form meets its published closed form at m = p, and is above it below
                closed = (p - 1) / (v * m)
                got = bubble_overhead(p, m, "interleaved", v)
                assert got == pytest.approx(closed) if m >= p else got > closed
            zb = bubble_overhead(p, m, "zb-h1")
            assert zb == pytest.approx((p - 1) / (3 * m)) if m >= p else zb > (p - 1) / (3 * m)
            # GPipe and 1F1B: (p − 1)/m at every m, the bound's own form at v = 1
            assert bubble_overhead(p, m, "gpipe") == (p - 1) / m == pytest.approx(unfilled(p, m, "gpipe"))
            assert unfilled(p, m, "interleaved", 2) >= p / m - 1  # never below one micro-batch's own path
    rc, out, err = run(
        capsys, "pipeline", "-p", "8", "-m", "4", "--schedule", "interleaved", "--chunks", "2", "--lang", "es"
    )
    said = out + err
    assert (
        rc == 0
        and "nunca se llena; r = 137,5 % del tiempo ideal, lo mínimo que alcanza cualquier planificación" in said
    )
    assert "da 87,5 %" in said
    rc, out, err = run(capsys, "pipeline", "-p", "8", "-m", "2", "--schedule", "zb-h2")
    said = out + err  # the figure reported, not under the closed form's name (p − 1)/(3m): said once, by the
    # unfilled note, where the ZB-H2 note said it again (review KN)
    assert rc == 0 and "reported as ZB-H1's, the closer figure" in said and "r = 216.7 %" in said
    assert said.count("216.7 %") == 2  # the table's bubble/ideal cell and the unfilled note


def _list_schedule(p: int, m: int, v: int, zb: bool) -> Fraction:
    """The step of a list schedule of the dependency graph (chunk c on device c mod p; F, B of one chunk 1/v of a
    unit together, F:B 1:2; zero-bubble F = B = W = ⅓): whenever a device is free, the ready op first by priority
    starts. An achievable step, found without the formula."""
    third = Fraction(1, 3)
    dur = {"F": third / v, "B": 2 * third / v} if not zb else {"F": third, "B": third, "W": third}
    chunks, ops, preds = p * v, [], {}
    for b in range(m):
        for c in range(chunks):
            preds[("F", b, c)] = [("F", b, c - 1)] if c else []
            preds[("B", b, c)] = [("F", b, c)] + ([("B", b, c + 1)] if c < chunks - 1 else [])
            ops += [("F", b, c), ("B", b, c)]
            if zb:
                preds[("W", b, c)] = [("B", b, c)]
                ops.append(("W", b, c))
    succ: dict = {o: [] for o in ops}
    for o, ps in preds.items():
        for q in ps:
            succ[q].append(o)
    tail: dict = {}

    def after(o: tuple) -> Fraction:  # the longest path from o's start to the end
        if o not in tail:
            tail[o] = dur[o[0]] + max((after(x) for x in succ[o]), default=Fraction(0))
        return tail[o]

    def run(key: Any) -> Fraction:
        done: dict = {}
        free = [Fraction(0)] * p
        left, t = set(ops), Fraction(0)
        while left:
            for o in sorted((o for o in left if all(q in done and done[q] <= t for q in preds[o])), key=key):
                if free[o[2] % p] <= t:
                    done[o] = free[o[2] % p] = t + dur[o[0]]
                    left.discard(o)
            t = min(x for x in [*done.values(), *free] if x > t) if left else t
        return max(done.values())

    # priorities, the best kept: the longest path after the op; backwards first, then the earliest micro-batch;
    # weight gradients last, then the earliest micro-batch; forwards first
    keys = (
        lambda o: (-after(o), o[1]),
        lambda o: ("BFW".index(o[0]), o[1], o[2]),
        lambda o: (o[0] == "W", o[1], -after(o)),
        lambda o: ("FBW".index(o[0]), o[1]),
    )
    return min(run(k) for k in keys)


def test_a_list_schedule_reaches_the_unfilled_pipelines_step():
    """The bound is reached, so it is the step (not a loose floor): a list schedule built here, with no formula,
    takes exactly p + (m − 1)/v units (interleaved) and (2p + 2m − 1)/3 (zero-bubble) for every small m < p."""
    for p in range(2, 6):
        for m in range(1, p):
            zb = _list_schedule(p, m, 1, True)
            assert zb / m - 1 == pytest.approx(bubble_overhead(p, m, "zb-h1"), abs=1e-12), (p, m)
            for v in (2, 3):
                step = _list_schedule(p, m, v, False)
                assert step / m - 1 == pytest.approx(bubble_overhead(p, m, "interleaved", v), abs=1e-12), (p, m, v)


def test_an_untyped_data_parallel_e_across_replicas_is_said_to_be_assumed(capsys):
    """-d 64 with 4 stages stacked 16 replicas at E = 1 without a word, where calc and plan say so of their E = 1."""
    rc, out, err = run(capsys, "pipeline", "--stages", "4", "--microbatches", "8", "--devices", "64")
    assert rc == 0 and "data-parallel E = 1 assumed across the 16 replicas (perfect scaling)" in out
    assert "46.5" in out  # 64 × 8/11
    rc, out, _ = run(capsys, "pipeline", "--stages", "4", "--microbatches", "8", "--devices", "64", "--lang", "es")
    assert "se supone E = 1 para el paralelismo de datos entre las 16 réplicas (escalado perfecto)" in out
    for typed in (["--dp-efficiency", "0.9"], ["--dp-efficiency", "1"]):
        rc, out, _ = run(capsys, "pipeline", "--stages", "4", "--microbatches", "8", "--devices", "64", *typed)
        assert rc == 0 and "assumed" not in out
    rc, out, _ = run(capsys, "pipeline", "--stages", "4", "--microbatches", "8", "--devices", "4")
    assert rc == 0 and "assumed" not in out  # one replica: E = 1 by definition


def test_v_is_no_short_flag_for_chunks(capsys):
    """-v is the per-device throughput in calc, plan and predict; here it was --chunks, so a `-v 2000` carried over
    from them ran 2,000 chunks per device and printed a bubble of 0.0 % (an outside review)."""
    rc, out, err = run(capsys, "pipeline", "-p", "4", "-m", "8", "--schedule", "interleaved", "-v", "2000")
    assert (
        rc == 2 and out == "" and err.strip() == "dpscale pipeline: error: unrecognized arguments: -v 2000 (see --help)"
    )


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["-v", "16"], True),
        (["-v", "17"], False),  # the edge: above it -v is a rate carried over from calc, plan or predict
        (["-v=2"], True),  # '-v=2' is '-v 2', as '-v2' is
        (["-v", "\u00b2"], False),  # a superscript two: str.isdigit() says yes, int() raised a traceback
        (["-v\u00b9"], False),
    ],
)
def test_the_chunks_hint_for_v_holds_at_its_edges(capsys, argv, hint):
    rc, out, err = run(capsys, "pipeline", "-p", "4", "-m", "8", *argv)
    said = f"dpscale pipeline: error: unrecognized arguments: {' '.join(argv)}"
    said += (" (did you mean --chunks?)" if hint else "") + " (see --help)"
    assert rc == 2 and out == "" and err.strip() == said


def test_a_fit_read_below_its_smallest_run_says_so_in_the_pipeline():
    """A fit of runs from 8 devices read at 2 replicas gave 'dp_efficiency: got 1.0718; allowed: a scaling efficiency
    in (0, 1]': a number the caller never typed. Now the baseline's reason, as scale() gives it."""
    import dpscale

    f8 = dpscale.fit([(8, 7600), (16, 14800), (32, 28400)], resamples=50)
    with pytest.raises(DpscaleError, match=r"^dp_efficiency at 2 replicas .*below this fit's smallest measured size 8"):
        dpscale.pipeline(4, 8, dp_efficiency=f8, devices=8)
    assert dpscale.pipeline(4, 8, dp_efficiency=f8, devices=64).dp_efficiency == pytest.approx(f8.efficiency(16))


def test_short_options_read_as_in_the_other_commands(capsys):
    """The same concept, the same short option: -e is the data-parallel E in calc, batch and plan (pipeline refused
    it: 'unrecognized arguments: -e 0.9'), -k the gradient-accumulation steps in batch (predict refused it)."""
    from clihelp import run

    long = run(capsys, "pipeline", "-p", "4", "-m", "8", "-d", "16", "--dp-efficiency", "0.9", "--json")
    short = run(capsys, "pipeline", "-p", "4", "-m", "8", "-d", "16", "-e", "0.9", "--json")
    assert short == long and long[0] == 0 and '"combined_efficiency": 0.654545454545' in long[1]
    cluster = ["--model", "bert-large", "-v", "150", "--system", "dgx-a100", "-d", "8", "--json"]
    long = run(capsys, "predict", *cluster, "--grad-accum", "4")
    short = run(capsys, "predict", *cluster, "-k", "4")
    assert short == long and long[0] == 0 and '"efficiency": 0.9216' in long[1]


def test_a_bubble_over_a_thousand_percent_is_grouped_in_the_table_as_in_the_notes(capsys):
    """m = 1 < p = 64: r = 63, which the table's row wrote '6300.0 %' where the notes write every count and percentage
    with thousands marks (at a million stages, '99999900.0 %' above a note of 99,999,900.0 %)."""
    rc, out, _ = run(capsys, "pipeline", "-p", "64", "-m", "1")
    assert rc == 0 and "bubble over ideal time                      6,300.0 %" in out
    rc, out, _ = run(capsys, "pipeline", "-p", "64", "-m", "1", "--lang", "es")
    assert rc == 0 and "burbuja sobre tiempo ideal                    6.300,0 %" in out
    rc, out, _ = run(capsys, "pipeline", "-p", "64", "-m", "1", "--csv")  # machine output keeps plain numbers
    assert rc == 0 and ",0.984375,63.0,0.015625," in out


# Hostile inputs a second outside fuzzing round (session 37, ~46,700 cases) found ending in a traceback or a
# silent wrong answer: each is one line and exit 2 now, in both languages where the command speaks Spanish.


def test_a_zb_h2_note_writes_its_counts_with_thousands_marks(capsys):
    """A review of sweep 13's marks: ZB-H2's note still wrote 2p − 1 = 199999 and m = 5000."""
    rc, out, _ = run(capsys, "pipeline", "-p", "100000", "-m", "5000", "--schedule", "zb-h2")
    assert rc == 0 and "2p − 1 = 199,999 micro-batches in flight; with m = 5,000 its bubble" in out
    # the unfilled note gives r, (2p − m − 1)/(3m) = 194,999/15,000, and the ZB-H2 note no longer again (review KN)
    assert "r = 1,300.0 % of ideal time" in out and "reported as ZB-H1's, the closer figure" in out


# Session 43's own findings: each test failed before its fix.


@pytest.mark.parametrize(("flag", "typed"), [("--stages", "1e20"), ("--stages", "1e400"), ("--devices", "1e999")])
def test_pipeline_s_counts_say_the_library_s_bound(capsys, flag, typed):
    """--stages and --devices stop at 10,000,000 (the library's MAX_DEVICES): 1e20 was told 'from 1 to 2^53', and
    2^53 + 1 then 'from 1 to 10,000,000' with the value rounded (9007199254740992, unquoted)."""
    argv = (
        ["pipeline", "--stages", "4", "-m", "8", flag, typed]
        if flag == "--devices"
        else ["pipeline", "-m", "8", flag, typed]
    )
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and err.strip().endswith(f"{flag}: got '{typed}'; allowed: a whole number from 1 to 10,000,000")
    rc, out, err = run(capsys, "pipeline", "-m", "8", "--stages", "9007199254740993")
    assert rc == 2 and "--stages: got '9007199254740993'; allowed: a whole number from 1 to 10,000,000" in err


# Mutation sweep 13 (of the modules earlier sweeps touched least: measure's launcher, results, calibration and
# workloads; the fit, validate, pipeline and batch commands; formulas batch, pipeline, compute and units; the web
# app): gaps the suite left open, each killing a surviving mutant.


# ---- faces/cli/pipeline.py -----------------------------------------------------------------------------------
def test_the_default_schedule_is_1f1b_once_stages_are_given(capsys):
    """cli/pipeline.py:53 default '1f1b' → 'gpipe'. -p 4 -m 8 with no --schedule: 1F1B, whose bubble is GPipe's
    3/11 but whose first stage holds min(p, m) = 4 micro-batches, not GPipe's m = 8."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "--json")
    rec = json.loads(out)
    assert rc == 0 and rec["schedule"] == "1f1b" and rec["in_flight_microbatches"] == 4


def test_one_replica_says_nothing_of_an_e_nobody_typed(capsys):
    """cli/pipeline.py:89 `dp_replicas == 1 and e_dp != 1` → the first alone. 4 devices on 4 stages with no
    --dp-efficiency: E = 1 was never set aside, so no note says a typed E 'applies from two replicas'."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "-d", "4")
    assert rc == 0 and "own reference" not in out and "applies from two replicas" not in out


def test_a_typed_dp_efficiency_without_devices_shows_its_rows(capsys):
    """cli/pipeline.py:100 `e_dp != 1 or devices` → devices alone. --dp-efficiency 0.9 with no --devices: the
    table shows the data-parallel E and the combined 0.9 × 8/11 = 0.6545 (65.5 %)."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "--dp-efficiency", "0.9")
    assert rc == 0 and "0.900 (90.0 %)" in out and "0.655 (65.5 %)" in out


def test_a_sweeps_shared_caution_is_said_once(capsys):
    """cli/pipeline.py:88 the de-duplication of cautions dropped. ZB-H1 at m = 8 and 16 on p = 4: both rows carry
    the zero-bubble timing assumption, said once (each m ≥ p, so nothing else is cautioned)."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8,16", "--schedule", "zb-h1")
    assert rc == 0 and out.count("T_F = T_B = T_W") == 1


def test_an_interleaved_title_names_its_chunks(capsys):
    """cli/pipeline.py:104 the chunks title → the plain one. Interleaved with v = 2 chunks: the title says so."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "--schedule", "interleaved", "--chunks", "2")
    assert rc == 0 and out.splitlines()[0] == "Pipeline: interleaved, p = 4 stages, v = 2 chunks per device"


def test_a_pipeline_of_a_million_stages_writes_its_counts_with_thousands_marks(capsys):
    """Found beside sweep 13: 'Megatron-LM needs m a multiple of p (1000000)' and 'r = 99999900.0 %' where every
    other note writes 1,000,000. r = (p − m + (m − 1)/v)/m = 999,999 at m = 1: 99,999,900.0 %."""
    argv = ["pipeline", "-p", "1000000", "-m", "1", "--schedule", "interleaved", "--chunks", "2"]
    rc, out, _ = run(capsys, *argv)
    assert rc == 0 and "note: interleaved: Megatron-LM needs m a multiple of p (1,000,000)" in out
    assert "m = 1 < p = 1,000,000: the pipeline never fills; r = 99,999,900.0 % of ideal time" in out
    rc, out, _ = run(capsys, *argv, "--lang", "es")
    assert rc == 0 and "m = 1 < p = 1.000.000: el pipeline nunca se llena; r = 99.999.900,0 %" in out


# Cases a second mutation sweep (session 20: formulas.pipeline/batch/overlap, sources.dataset/predict_validate,
# faces.cli.memory/batch; 245 mutants, 38 survivors) found no test could fail on. Each fails on its mutant, named by
# the file and line it was made at, and passes on the code as it is.


# ---------------------------------------------------------------- formulas


def test_stages_past_the_device_bound_are_refused_by_the_bubble_alone():
    """pipeline.py:32 — bubble_overhead (and bubble_fraction / in_flight through it) bounds p like pipeline()."""
    assert bubble_overhead(10_000_000, 9_999_999) == pytest.approx(1.0)
    with pytest.raises(DpscaleError, match="stages"):
        bubble_overhead(10_000_001, 8)


# Review 43 (E): the change set 5abbe34..04ad0c8 read hunk by hunk; each test fails without its fix.


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


# Review 46 AD: dpscale as a library, from a notebook — what a caller of `import dpscale` meets that the CLI's
# users do not.


def test_pipeline_dp_efficiency_that_is_none_names_the_sources():
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.pipeline(4, 8, dp_efficiency={8: 0.9}, devices=32)
    assert str(exc.value) == (
        "dp_efficiency: got {8: 0.9}; allowed: a number in (0, 1], or an E(d) source (a law, a fit, a prediction, a "
        "PerSize table) with devices= given"
    )
    # what is taken still is: a number, one in a list, a table read at the replicas (32 devices / 4 stages = 8)
    assert dpscale.pipeline(4, 8, dp_efficiency=[0.9], devices=32).combined_efficiency == pytest.approx(0.9 * 8 / 11)
    table = dpscale.pipeline(4, 8, dp_efficiency=dpscale.PerSize({8: 0.9}), devices=32)
    assert table.combined_efficiency == pytest.approx(0.9 * 8 / 11)
    with pytest.raises(dpscale.DpscaleError, match=r"^dp_efficiency: got \[0.9, 0.8\]; allowed: one number$"):
        dpscale.pipeline(4, 8, dp_efficiency=[0.9, 0.8], devices=32)


# Review 46 AF: plan, memory and pipeline checked by hand against physics.md (ZeRO, Korthikanti, GPipe/1F1B,
# interleaved, zero-bubble, 6·N·D, time and cost), with the numbers worked out by hand in the tests below.


# -- pipeline: GPipe/1F1B, interleaved and zero-bubble bubbles by hand; the title's count -----------------------------


@pytest.mark.parametrize(
    ("argv", "r", "held"),
    [
        (["-p", "4", "-m", "8", "--schedule", "gpipe"], 3 / 8, 8),  # bubble/total 3/11 = (p−1)/(m+p−1)
        (["-p", "8", "-m", "16", "--schedule", "interleaved", "--chunks", "2"], 7 / 32, 8 + 7 / 2),  # (p−1)/(v·m)
        (["-p", "4", "-m", "8", "--schedule", "zb-h1"], 3 / 24, 4),  # (p−1)/(3m)
        (["-p", "8", "-m", "4", "--schedule", "1f1b"], 7 / 4, 4),  # m < p: (p−1)/m exact, as GPipe
        (["-p", "8", "-m", "4", "--schedule", "interleaved", "--chunks", "2"], (8 - 4 + 3 / 2) / 4, 4),
        (["-p", "8", "-m", "4", "--schedule", "zb-h1"], (16 - 4 - 1) / 12, 4),  # (2p − m − 1)/(3m)
    ],
)
def test_bubbles_by_hand(capsys, argv, r, held):
    rec = json.loads(run(capsys, "pipeline", *argv, "--json")[1])
    assert rec["bubble_overhead"] == pytest.approx(r, rel=1e-9)
    assert rec["bubble_fraction"] == pytest.approx(r / (1 + r), rel=1e-9)
    assert rec["in_flight_microbatches"] == held


def test_stacked_data_parallelism_at_65536_devices(capsys):
    # 1F1B, p = 8, m = 64: r = 7/64, E_pipe = 64/71; × E_dp 0.8 over 8,192 replicas; d·E = 65,536 × 0.7211
    rec = json.loads(run(capsys, "pipeline", "-p", "8", "-m", "64", "-d", "65536", "-e", "0.8", "--json")[1])
    assert rec["dp_replicas"] == 8192
    assert rec["combined_efficiency"] == pytest.approx(64 / 71 * 0.8, rel=1e-9)
    assert rec["effective_devices"] == pytest.approx(65536 * 64 / 71 * 0.8, rel=1e-9)


def test_the_pipeline_title_says_one_stage_and_groups_the_count(capsys):
    # 'Pipeline: 1f1b, p = 1 stages' / 'p = 1 etapas'; 'p = 10000 stages' beside rows that write 10,000
    assert run(capsys, "pipeline", "-p", "1", "-m", "4")[1].startswith("Pipeline: 1f1b, p = 1 stage\n")
    assert run(capsys, "pipeline", "-p", "1", "-m", "4", "--lang", "es")[1].startswith("Pipeline: 1f1b, p = 1 etapa\n")
    out = run(capsys, "pipeline", "-p", "10000", "-m", "20000", "--schedule", "interleaved", "--chunks", "2")[1]
    assert out.startswith("Pipeline: interleaved, p = 10,000 stages, v = 2 chunks per device\n")
    assert run(capsys, "pipeline", "-p", "10000", "-m", "20000", "--lang", "es")[1].startswith(
        "Pipeline: 1f1b, p = 10.000 etapas\n"
    )


# Review AN (session 46): mutation testing of the session's source changes — a test for each hand-made mutant that
# survived the session's own tests and that a user would see.


def test_pipeline_refuses_several_e_as_a_list_or_an_array_alike():
    """dp_efficiency takes one E (or an E(d) source with devices=): several, as a list or a numpy array, are
    refused in the same words ('one number'); the words for what is no E at all (text, None) are kept for those."""
    import numpy as np

    from dpscale.formulas.pipeline import pipeline

    said = []
    for e in ([0.9, 0.8], np.array([0.9, 0.8])):
        with pytest.raises(dpscale.DpscaleError) as exc:
            pipeline(4, 8, "1f1b", 1, e, 64)
        said.append(str(exc.value).split("; allowed: ")[1])
    assert said == ["one number", "one number"]
    assert pipeline(4, 8, "1f1b", 1, np.array([0.9]), 64).combined_efficiency == pytest.approx(0.9 / (1 + 3 / 8))


def test_the_pipeline_title_groups_the_chunks_as_the_stages(capsys):
    """The title writes v as the rows write counts, grouped: 'v = 1,000 chunks' ('1.000' in Spanish)."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "--schedule", "interleaved", "--chunks", "1000")
    assert rc == 0 and out.splitlines()[0] == "Pipeline: interleaved, p = 4 stages, v = 1,000 chunks per device"
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "--schedule", "interleaved", "--chunks", "1000",
                     "--lang", "es")  # fmt: skip
    assert rc == 0 and "v = 1.000 " in out.splitlines()[0]


def test_the_csv_header_is_the_same_for_one_micro_batch_count_and_a_sweep(capsys):
    """--csv for machines: `-m 8` headed its columns 'stages,microbatches,…' and `-m 8,16` 'microbatches,…,schedule,
    stages,…', so a script appending runs of either read p as m. Each row is its own: 8 → r = 3/8, 16 → r = 3/16."""
    argv = ["pipeline", "-p", "4", "--devices", "64", "--dp-efficiency", "0.9", "--csv"]
    heads, rows = set(), {}
    for m in ("8", "8..8", "8,16"):
        rc, out, _ = run(capsys, *argv, "-m", m)
        lines = out.strip().splitlines()
        heads.add(lines[0])
        rows.update(
            {int(r["microbatches"]): r for r in (dict(zip(lines[0].split(","), x.split(","))) for x in lines[1:])}
        )
        assert rc == 0
    assert len(heads) == 1 and heads.pop().startswith("stages,microbatches,bubble_fraction,bubble_overhead,")
    assert float(rows[8]["bubble_overhead"]) == 3 / 8 and float(rows[16]["bubble_overhead"]) == 3 / 16
    assert rows[8]["stages"] == rows[16]["stages"] == "4"


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda: bubble_fraction(4, 8, "1f1b", chunks=2), "chunks: got 2; allowed: 1 unless schedule='interleaved'"),
        (lambda: pipeline(4, 8, "gpipe", chunks=3), "chunks: got 3; allowed: 1 unless schedule='interleaved'"),
        (
            lambda: bubble_fraction(4, 8, "interleaved"),
            "chunks: got 1; allowed: 2 or more with schedule='interleaved' (1 chunk is schedule='1f1b')",
        ),
        (
            lambda: pipeline(4, 8, "interleaved", chunks=1, devices=16),
            "chunks: got 1; allowed: 2 or more with schedule='interleaved' (1 chunk is schedule='1f1b')",
        ),
    ],
)
def test_the_library_s_chunks_refusal_names_its_schedule_argument_not_a_flag(call, said):
    """dpscale.bubble_fraction(4, 8, 'interleaved') said 'allowed: 2 or more with --schedule interleaved (1 chunk is
    --schedule 1f1b)' to a caller who typed no flag (as fit's only= once named --only); the CLI still names its own."""
    with pytest.raises(DpscaleError) as exc:
        call()
    assert str(exc.value) == said
    # the working calls the refusals point to: 1F1B, and interleaved with 2 chunks, (p − 1)/(v·m) = 3/16 of ideal time
    assert bubble_fraction(4, 8, "1f1b") == pytest.approx(3 / 11)
    assert pipeline(4, 8, "interleaved", chunks=2).bubble_overhead == pytest.approx(3 / 16)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--chunks", "2"], "--chunks: got 2; allowed: 1 unless --schedule interleaved"),
        (["--schedule", "gpipe", "--chunks", "3"], "--chunks: got 3; allowed: 1 unless --schedule interleaved"),
        (["--chunks", "2", "--lang", "es"], "--chunks: se recibió 2; se admite: 1 salvo con --schedule interleaved"),
    ],
)
def test_the_cli_s_chunks_refusal_still_names_its_flags(capsys, argv, said):
    rc, out, err = run(capsys, "pipeline", "-p", "4", "-m", "8", *argv)
    assert rc == 2 and out == "" and err.count("\n") == 1 and err.rstrip().endswith(said)


def test_micro_batches_in_flight_print_as_a_count(capsys):
    """GPipe's 8 in flight printed '8.00', as if a count could be a fraction: a whole count prints whole (8, 1,000),
    an interleaved schedule's p + (p − 1)/v = 4 + 3/2 keeps its decimals; JSON keeps the number as it was."""
    rc, out, _ = run(capsys, "pipeline")
    assert rc == 0 and "  micro-batches in flight (activations held)  8\n" in out
    rc, out, _ = run(capsys, "pipeline", "-p", "2000", "-m", "1000", "--lang", "es")
    assert rc == 0 and "  microlotes en vuelo (activaciones retenidas)  1.000\n" in out  # m = 1,000 < p
    rc, out, _ = run(capsys, "pipeline", "--schedule", "interleaved", "-p", "4", "-m", "4,8", "--chunks", "2")
    assert rc == 0 and [line.split()[-1] for line in out.splitlines()[3:5]] == ["4", "5.50"]
    rc, out, _ = run(capsys, "pipeline", "--schedule", "interleaved", "-p", "4", "-m", "8", "--chunks", "2", "--lang",
                     "es")  # fmt: skip
    assert rc == 0 and "  microlotes en vuelo (activaciones retenidas)  5,50\n" in out
    rc, out, _ = run(capsys, "pipeline", "--json")
    assert rc == 0 and json.loads(out)["in_flight_microbatches"] == 8.0


# Review IL (session 64): 95ed58d's recipe makes --dp-efficiency a function of m (predict's --grad-accum m).


def test_one_dp_efficiency_over_a_sweep_of_m_is_said_to_be_one_m_s(capsys):
    """--dp-efficiency is predicted with --grad-accum m (95ed58d): the replicas all-reduce once per m micro-batches, so
    for 95ed58d's 7B example (one stage's 1.75e9 parameters, 8 replicas at 50 GB/s) predict gives 0.532 at m = 4, 0.686
    at 8 and 0.802 at 16. `pipeline -p 4 -m 4,8,16 -d 32 -e 0.686` held 0.686 at every m without a word: combined E
    0.392 at m = 4 where that m's own E gives 0.304, 0.578 at m = 16 where it gives 0.675. Now a note says so (EN and
    ES); one m, or no typed E, says nothing of it."""
    fabric = ["-d", "8", "-b", "1", "--seq-len", "2048", "--precision", "bf16", "--gpu", "h100-80gb",
              "--gpus-per-node", "1", "--intra-bw", "1", "--inter-bw", "50", "--params", "1.75e9"]  # fmt: skip
    e = {}
    for m in (4, 8, 16):
        rc, out, err = run(capsys, "predict", *fabric, "--grad-accum", str(m), "--json")
        assert rc == 0, err
        e[m] = round(json.loads(out)[0]["efficiency"], 3)
    assert e == {4: 0.532, 8: 0.686, 16: 0.802}
    rc, out, err = run(capsys, "pipeline", "-p", "4", "-m", "4,8,16", "-d", "32", "-e", "0.686", "--json")
    assert rc == 0, err
    rows = json.loads(out)
    assert [round(r["combined_efficiency"], 3) for r in rows] == [0.392, 0.499, 0.578]
    assert [round(e[m] * m / (m + 3), 3) for m in (4, 16)] == [0.304, 0.675]
    said = "--dp-efficiency 0.686 is held at every m of the sweep, but E depends on m"
    assert said in err and "(predict's --grad-accum m)" in err
    rc, out, err = run(capsys, "pipeline", "-p", "4", "-m", "4,8,16", "-d", "32", "-e", "0.686", "--lang", "es")
    assert rc == 0 and "--dp-efficiency 0.686 se mantiene en todas las m del barrido, pero E depende de m" in out + err
    for argv in (["-m", "8", "-d", "32", "-e", "0.686"], ["-m", "4,8,16", "-d", "32"], ["-m", "4,8", "-d", "4", "-e",
                                                                                        "0.686"]):  # fmt: skip
        rc, out, err = run(capsys, "pipeline", "-p", "4", *argv)
        assert rc == 0 and "held at every m" not in out + err, argv


def test_the_held_e_note_holds_from_two_replicas_and_says_its_recipe_in_spanish_whole(capsys):
    """Review IP's mutation pass over f63bb0c and 042636f: f63bb0c's test ran 8 replicas, and read the Spanish note and
    help only in part, so the note held back until 3 replicas, the Spanish note without '(--grad-accum m de predict)'
    and the Spanish help's '-d dispositivos' for '-d dispositivos/etapas' all passed. 8 devices over 4 stages are 2
    replicas, which all-reduce once per m micro-batches as 8 do: the note says it at m = 4 and 8."""
    from dpscale.faces.cli.common import Parser
    from dpscale.faces.cli.pipeline import add_arguments
    from dpscale.faces.help_es import HELP_ES

    rc, out, err = run(capsys, "pipeline", "-p", "4", "-m", "4,8", "-d", "8", "-e", "0.9", "--json")
    assert rc == 0 and [r["dp_replicas"] for r in json.loads(out)] == [2, 2]
    assert "--dp-efficiency 0.9 is held at every m of the sweep, but E depends on m" in err
    rc, out, err = run(capsys, "pipeline", "-p", "4", "-m", "4,8", "-d", "8", "-e", "0.9", "--lang", "es")
    said = ("--dp-efficiency 0.9 se mantiene en todas las m del barrido, pero E depende de m: las réplicas hacen el "
            "all-reduce una vez cada m microlotes (--grad-accum m de predict), así que la E de cada m es su propia "
            "predicción")  # fmt: skip
    assert rc == 0 and said in out + err
    parser = Parser(prog="dpscale pipeline")
    add_arguments(parser)
    (help_en,) = [a.help for a in parser._actions if "--dp-efficiency" in a.option_strings]
    assert HELP_ES[str(help_en)].endswith(
        "(predict la da con -d dispositivos/etapas, la parte de --params y de --inter-bw de una etapa y --grad-accum "
        "M; por defecto 1)"
    )


def test_the_docs_say_each_note_pipeline_gives_of_its_dp_efficiency(capsys):
    """Review IT: docs/calculators.md names the one-replica note (E = 1 whatever --dp-efficiency says) but not
    f63bb0c's sibling, an E held over a sweep of m (pipe_dp_e_held), which the paragraph right after it explains
    (E depends on m through --grad-accum m). The docs say that note too, and both run as they say."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "calculators.md").read_text(encoding="utf-8")
    section = doc.split("## `dpscale pipeline`", 1)[1].split("\n## ", 1)[0]
    assert "its E is 1 whatever --dp-efficiency says, and a note says so" in section
    held = r"One `--dp-efficiency` over a sweep of m \(`(-m [^`]+)`\) is held at every m.{0,120}a note says so"
    said = re.search(held, section, re.S)
    assert said is not None
    rc, out, err = run(capsys, "pipeline", "-p", "4", *said[1].split(), "-d", "32", "-e", "0.686")
    assert rc == 0 and "--dp-efficiency 0.686 is held at every m of the sweep" in out + err
    fabric = ["-d", "8", "-b", "1", "--seq-len", "2048", "--precision", "bf16", "--gpu", "h100-80gb",
              "--gpus-per-node", "1", "--intra-bw", "1", "--inter-bw", "50", "--params", "1.75e9"]  # fmt: skip
    e = []
    for m in said[1].split()[1].split(","):  # each m's own E, on the fabric the paragraph's example gives
        rc, out, _ = run(capsys, "predict", *fabric, "--grad-accum", m, "--json")
        e.append(f"{json.loads(out)[0]['efficiency']:.3f}")
    assert f"({e[0]}, {e[1]} and {e[2]} there)" in " ".join(said[0].split())
    rc, out, err = run(capsys, "pipeline", "-p", "4", "-m", "8", "-d", "4", "-e", "0.686")
    assert rc == 0 and "one data-parallel replica is its own reference" in out + err


def test_gpipe_and_1f1b_with_fewer_micro_batches_than_stages_say_why_the_bubble_is_most_of_the_step(capsys):
    """Review JZ: `dpscale pipeline -p 8 -m 4 --schedule 1f1b` printed a 63.6 % bubble with no word of why, where the
    other schedules say 'the pipeline never fills'. By hand (physics.md §7, GPipe's bubble/total (K − 1)/(M + K − 1)):
    7/11 = 63.6 %, a stage busy in 4 of the m + p − 1 = 11 slots; at m = 4p = 32, 7/39 = 17.9 %. m = p says nothing."""
    from dpscale.faces.i18n import say
    from dpscale.formulas.pipeline import cautions, pipeline

    for schedule in ("gpipe", "1f1b"):
        (n,) = [c for c in cautions(pipeline(8, 4, schedule)) if c.key == "pipeline_unfilled_exact"]
        assert n.fields["idle"] == pytest.approx(100 * 7 / 11) and n.fields["at4"] == pytest.approx(100 * 7 / 39)
        assert n == ("m = 4 < p = 8: the pipeline never fills — a stage computes 4 of every 11 micro-batch slots, "
                     "idle 63.6 % of the step; more micro-batches a step shrink it (at m = 4p = 32: 17.9 %), or "
                     "fewer stages")  # fmt: skip
        assert say(n, "es") == ("m = 4 < p = 8: el pipeline nunca se llena — una etapa computa 4 de cada 11 turnos "
                                "de microlote y está ociosa el 63,6 % del paso; más microlotes por paso lo reducen "
                                "(con m = 4p = 32: 17,9 %), o menos etapas")  # fmt: skip
        assert not cautions(pipeline(8, 8, schedule))
    assert [c.key for c in cautions(pipeline(8, 4, "zb-h1"))][0] == "pipeline_unfilled"  # its own, as before
    rc, out, _ = run(capsys, "pipeline", "-p", "8", "-m", "4", "--schedule", "1f1b")
    assert rc == 0 and "note: m = 4 < p = 8: the pipeline never fills" in out


def test_a_sweep_over_m_says_each_note_once_naming_the_m_it_holds_at(capsys):
    """Review KN: `pipeline -p 64 -m 1..64` said 'm = 1 < p = 64: the pipeline never fills …' once per m below p
    (63 notes), ZB-H2's in-flight note once per m below 2p − 1; one note now names them, the per-m figures left to
    the table's columns, in both languages and in --json's and --csv's notes."""
    for form in ((), ("--json",), ("--csv",)):
        rc, out, err = run(capsys, "pipeline", "-p", "64", "-m", "1..64", *form)
        said = out + err
        assert rc == 0 and said.count("the pipeline never fills") == 1, form
        assert "m = 1, 2, 3, 4, 5, … and 63 < p = 64: the pipeline never fills — a stage computes m of every" in said
        assert "(at m = 4p = 256: 19.7 %)" in said
    rc, out, err = run(capsys, "pipeline", "-p", "8", "-m", "1..20", "--schedule", "zb-h2", "--lang", "es")
    said = out + err
    assert rc == 0 and said.count("nunca se llena") == 1 and said.count("ZB-H2 solo elimina") == 1
    assert "m = 1, 2, 3, 4, 5, … y 7 < p = 8: el pipeline nunca se llena; su burbuja sobre tiempo ideal" in said
    assert "2p − 1 = 15 microlotes en vuelo; con m = 1, 2, 3, 4, 5, … y 14 su burbuja no es cero" in said
    assert said.count("T_F = T_B = T_W") == 1
    rc, out, err = run(capsys, "pipeline", "-p", "8", "-m", "2,4", "--schedule", "1f1b")  # two: both named
    assert "m = 2 and 4 < p = 8: the pipeline never fills" in out + err
    rc, out, err = run(capsys, "pipeline", "-p", "8", "-m", "4,16", "--schedule", "1f1b")  # one: its own figures
    assert "m = 4 < p = 8: the pipeline never fills — a stage computes 4 of every 11 micro-batch slots" in out + err


def test_a_sweep_s_interleaved_note_names_the_m_that_are_no_multiple_of_p(capsys):
    """Review KQ: `pipeline -p 8 -m 8,12,16,20 --schedule interleaved --chunks 2` said 'interleaved: Megatron-LM
    needs m a multiple of p (8)' once for the sweep, naming no m, though 8 and 16 are multiples; now it names 12 and
    20 (English, Spanish, --json's notes), and one m's note is as before."""
    argv = ["pipeline", "-p", "8", "-m", "8,12,16,20", "--schedule", "interleaved", "--chunks", "2"]
    rc, out, _ = run(capsys, *argv)
    assert rc == 0 and "note: interleaved: Megatron-LM needs m a multiple of p (8), not m = 12 and 20\n" in out
    assert out.count("Megatron-LM needs") == 1
    rc, out, err = run(capsys, *argv, "--json")
    assert rc == 0 and "interleaved: Megatron-LM needs m a multiple of p (8), not m = 12 and 20" in out + err
    rc, out, _ = run(capsys, *argv, "--lang", "es")
    assert "nota: interleaved: Megatron-LM necesita que m sea múltiplo de p (8), no m = 12 y 20\n" in out
    rc, out, _ = run(capsys, "pipeline", "-p", "8", "-m", "12", "--schedule", "interleaved", "--chunks", "2")
    assert rc == 0 and "note: interleaved: Megatron-LM needs m a multiple of p (8)\n" in out
