"""Cases a seventh mutation sweep (the measure face's arguments and notes; output; plots) found no test could fail
on. Each expected value is derived in its docstring or comment, from the docs or the arithmetic, not read back from
the code. None of these starts torch, a browser or a process."""

from __future__ import annotations

import argparse
import json
import sys
import types

import pytest

from dpscale.errors import DpscaleError
from dpscale.faces.cli import measure

# ---------------------------------------------------------------- faces/cli/measure: arguments (no rank started)


def measure_args(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    measure.add_arguments(p)
    return p.parse_args(list(argv))


def prepared_devices(monkeypatch, *argv: str) -> list[int]:
    """The world sizes `dpscale measure ARGV` would run, caught where the environment checks (torch) would begin."""
    seen: dict[str, list[int]] = {}

    def stop(job, devices, out, lang="en"):
        seen["devices"] = devices
        raise KeyboardInterrupt

    monkeypatch.setattr(measure, "check_environment", stop)
    args = measure_args(*argv)
    with pytest.raises(KeyboardInterrupt):
        measure._prepare(args, args.mode or "train", False)
    return seen["devices"]


def test_a_watchdog_of_a_million_seconds_is_the_longest_allowed():
    """--timeout takes 'seconds from 1 to 1,000,000': 1,000,000 itself is read, one more second refused."""
    assert measure.build_job(measure_args("--timeout", "1000000"), "train").timeout == 1e6
    with pytest.raises(DpscaleError, match="--timeout: got '1000001'; allowed: seconds from 1 to 1,000,000"):
        measure.build_job(measure_args("--timeout", "1000001"), "train")


def test_the_watchdog_waits_600_seconds_unless_told():
    """--help and docs/measure.md: 'no rank makes progress for --timeout s (default 600)'."""
    assert measure.build_job(measure_args(), "train").timeout == 600


@pytest.mark.parametrize("mode", ["allreduce", "equivalence"])
def test_the_modes_run_two_ranks_unless_told(monkeypatch, mode):
    """--devices help: 'default 1,2; modes: 2' — allreduce and equivalence run one world size of 2."""
    assert prepared_devices(monkeypatch, mode) == [2]
    assert prepared_devices(monkeypatch) == [1, 2]


def test_the_run_s_counts_are_the_help_s_defaults():
    """--help: per-rank batch 'default 64; equivalence 16', --steps 'default 50', --warmup 'default 10', --repeats
    'default 3'; allreduce: --sizes 'default 1KB..256MB, ×2 steps' (2^10 … 2^28 bytes: 19 sizes), --iters 20."""
    train = measure.build_job(measure_args(), "train")
    assert (train.batch, train.steps, train.warmup, train.repeats) == (64, 50, 10, 3)
    assert measure.build_job(measure_args("equivalence"), "equivalence").batch == 16
    ar = measure.build_job(measure_args("allreduce"), "allreduce")
    assert (ar.sizes[0], ar.sizes[-1], len(ar.sizes), ar.iters) == (2**10, 2**28, 19, 20)


def test_no_warmup_is_taken():
    """docs/measure.md: '`--warmup 0` is taken and said: DDP's first iterations are then timed'."""
    assert measure.build_job(measure_args("--warmup", "0"), "train").warmup == 0


def test_allreduce_measures_one_world_size(monkeypatch):
    """docs/measure.md: `dpscale measure allreduce --devices N` — one world size (its calibration is of that size),
    ≥ 2: a list of two sizes is refused before any rank starts, as one rank alone is."""
    monkeypatch.setattr(measure, "check_environment", lambda *a, **k: pytest.fail("the sizes were not checked"))
    for devices in ("2,4", "1"):
        with pytest.raises(DpscaleError, match=f"--devices: got '{devices}'; allowed: one world size ≥ 2"):
            measure._prepare(measure_args("allreduce", "-d", devices), "allreduce", False)


def test_eight_ranks_per_core_are_at_most_what_a_local_run_takes(monkeypatch, capsys):
    """A local CPU run past the cores is refused with 'allowed: at most 8·cores ranks (8 per CPU core here)': at
    most, so on 1 core 8 ranks still run (with docs/measure.md's warning that the world size exceeds the cores) and
    9 are refused. torch is stood in for: only the counts are checked."""
    from dpscale.sources import measure as sources

    monkeypatch.setitem(sys.modules, "torch", types.ModuleType("torch"))
    monkeypatch.setattr(sources, "require_torch", lambda: "0")
    monkeypatch.setattr(sources, "cores", lambda: 1)
    job = measure.build_job(measure_args("--device", "cpu", "--threads", "1"), "train")
    measure.check_environment(job, [1, 8], None)
    assert "warning: world size 8 exceeds the 1 CPU cores" in capsys.readouterr().err
    with pytest.raises(DpscaleError, match=r"--devices: got 9; allowed: at most 8 ranks \(8 per CPU core here\)"):
        measure.check_environment(job, [1, 9], None)


def test_as_many_ranks_as_cuda_devices_run(monkeypatch):
    """--device cuda with 2 GPUs here: 'allowed: at most 2 (the CUDA devices here)' — 2 ranks run, 3 are refused."""
    from dpscale.sources import measure as sources

    torch = types.ModuleType("torch")
    torch.cuda = types.SimpleNamespace(device_count=lambda: 2, is_available=lambda: True)
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setattr(sources, "require_torch", lambda: "0")
    job = measure.build_job(measure_args("--device", "cuda"), "train")
    measure.check_environment(job, [1, 2], None)
    with pytest.raises(DpscaleError, match=r"--devices: got 3 with --device cuda; allowed: at most 2"):
        measure.check_environment(job, [1, 3], None)


def test_a_calibration_run_will_not_overwrite_training_records(monkeypatch, tmp_path):
    """docs/measure.md: an --out 'that holds other data' is one line, exit 2, before any rank starts; a calibration
    is written whole, so a file of training records (JSONL) must not become one."""
    from dpscale.sources import measure as sources

    monkeypatch.setattr(sources, "require_torch", lambda: pytest.fail("--out was not checked"))
    runs = tmp_path / "runs.jsonl"
    runs.write_text(json.dumps({"devices": 1, "throughput": 100.0, "workload": "mlp"}) + "\n")
    job = measure.build_job(measure_args("allreduce"), "allreduce")
    with pytest.raises(DpscaleError, match="it holds something other than a calibration"):
        measure.check_environment(job, [2], str(runs))


# ---------------------------------------------------------------- faces/cli/measure: the notes under the table


def train_record(devices: int, compute_s: float, **more) -> dict:
    return {"devices": devices, "repeats": 3, "warmup": 10, "compute_s": compute_s, "efficiency": 1.0, **more}


def test_compute_that_grew_more_than_1_2_times_is_said():
    """docs/measure.md, compute_s: 'When it grows by more than 1.2× from the smallest size to the largest, a note
    says so': 1.0 → 1.25 s is said (×1.25), 1.0 → 1.2 s (×1.2, not more) is not."""
    grew = measure._train_notes([train_record(1, 1.0), train_record(2, 1.25)], "en")
    assert any(n.startswith("compute per step grew") for n in grew)
    same = measure._train_notes([train_record(1, 1.0), train_record(2, 1.2)], "en")
    assert not any(n.startswith("compute per step grew") for n in same)


def test_a_sharded_run_does_not_explain_the_columns_it_leaves_empty():
    """docs/measure.md: in a sharded run 'compute, sync overhead and overlap stay empty', so the note that says what
    those columns mean is not under its table (the median's note is)."""
    notes = measure._train_notes([train_record(1, None, zero=1), train_record(2, None, zero=1)], "en")
    assert any(n.startswith("throughput = median of 3 repeats") for n in notes)
    assert not any(n.startswith("compute = the same steps") for n in notes)


def test_a_run_from_one_device_has_no_untested_speedup_note():
    """The speedup note ('counts perfect scaling up to d=d0, which was not measured against one device') is for a
    baseline above one device; a run from d=1 measured its speedups."""
    notes = measure._train_notes([train_record(1, 1.0), train_record(2, 1.0)], "en")
    assert not any("perfect scaling up to" in n for n in notes)
    later = measure._train_notes([train_record(2, 1.0), train_record(4, 1.0)], "en")
    assert any("perfect scaling up to d=2" in n for n in later)


BASE = {"throughput": 1280.0, "throughput_spread": 0.0, "efficiency": 1.0, "speedup": 1.0, "step_s": 0.05,
        "compute_s": 0.04, "exposed_comm_share": 0.2, "overlap": 0.5, "launch_s": 1.0, "warmup": 10, "workload": "mlp",
        "batch": 64, "steps": 50, "backend": "gloo", "device": "cpu", "threads": 1}  # fmt: skip


def shown_rows(recs: list[dict]) -> list[dict]:
    """The rows the train table is made of (the web page's sink receives them as the table prints them)."""
    got: list[list[dict]] = []
    args = argparse.Namespace(json=False, csv=False, lang="en", sink=lambda rows, *rest: got.append(rows))
    measure.show_train(recs, args)
    return got[0]


def test_one_repeat_shows_no_spread_and_steps_in_milliseconds():
    """docs/measure.md: spread 'the table shows '—' for one repeat'; the step column is step_ms: a 0.05 s step is
    50 ms."""
    one, three = shown_rows([{**BASE, "devices": 1, "repeats": 1}]), shown_rows([{**BASE, "devices": 1, "repeats": 3}])
    assert one[0]["spread"] is None and three[0]["spread"] == 0.0
    assert one[0]["step_ms"] == pytest.approx(50.0)


def test_equivalence_fails_when_any_size_fails(monkeypatch, capsys):
    """docs/measure.md: 'equivalence check fails | the table marks FAIL; exit 1' — at 2 ranks passing and 4
    failing, the run as a whole exits 1."""
    job = measure.build_job(measure_args("equivalence"), "equivalence")
    launcher = types.SimpleNamespace(run=lambda job, d, progress: d)
    check = {"dtype": "float32", "max_abs_diff": 0.0, "grad_max": 1.0, "threshold": 1e-5, "tolerance": 1e-5}

    def record(job, d, done, out, lang="en"):
        return {"devices": d, "batch": 16, "workload": "mlp", "backend": "gloo", "passed": d == 2,
                "checks": [{**check, "passed": d == 2}]}  # fmt: skip

    monkeypatch.setattr(measure, "_prepare", lambda args, mode, own: (job, [2, 4], launcher))
    monkeypatch.setattr(measure, "record", record)
    assert measure.run(measure_args("equivalence", "-d", "2,4")) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out
    # the title's one process runs the whole batch d·b: 2 × 16 = 32, 4 × 16 = 64
    assert "2 ranks × batch 16 vs one process on batch 32" in out
    assert "4 ranks × batch 16 vs one process on batch 64" in out


def test_a_size_appended_to_a_file_takes_its_records_threads(monkeypatch, tmp_path, capsys):
    """docs/measure.md: 'Sizes appended to earlier records in --out take those records' share' of threads: records
    of mlp, batch 64, 50 steps at 3 threads make a -d 2 run use 3 (not 8 cores ÷ 2 = 4), and a note says so."""
    from dpscale.sources import measure as sources
    from dpscale.sources.measure import launcher

    out = tmp_path / "runs.jsonl"
    rec = {"devices": 1, "throughput": 100.0, "efficiency": 1.0, "workload": "mlp", "batch": 64, "steps": 50,
           "warmup": 10, "repeats": 3, "device": "cpu", "backend": "gloo", "zero": 0, "threads": 3}  # fmt: skip
    out.write_text(json.dumps(rec) + "\n")
    monkeypatch.setattr(measure, "check_environment", lambda *a, **k: None)
    monkeypatch.setattr(sources, "on_cuda", lambda device: False)
    monkeypatch.setattr(sources, "cores", lambda: 8)
    monkeypatch.setattr(launcher, "Launcher", lambda **k: None)
    job = measure._prepare(measure_args("-d", "2", "--out", str(out)), "train", False)[0]
    assert job.threads == 3
    assert "3 threads a rank, as the earlier records of this set-up in --out" in capsys.readouterr().err


def test_a_cut_short_calibration_takes_an_empty_out_file_itself(monkeypatch, tmp_path):
    """docs/measure.md: only 'where --out already held a calibration' does the cut-short one go beside it
    (calib.partial.json); an empty file holds none, so it is written there."""
    empty = tmp_path / "calib.json"
    empty.write_text("")
    written: list = []
    monkeypatch.setattr(measure, "record", lambda job, outcome, done, out, lang="en": written.append(out) or {})
    job = measure.build_job(measure_args("allreduce"), "allreduce")
    cut = types.SimpleNamespace(partial={"rows": [{"bytes": 1024, "time_s": 1e-4}]})
    args = argparse.Namespace(out=str(empty), lang="en")
    measure._measured_so_far(job, cut, [], args)
    assert written == [str(empty)] and args.out == str(empty)


# ---------------------------------------------------------------- faces/output


def test_a_missing_value_is_a_dash_without_its_unit(capsys):
    """A value the record does not have is '—' (docs/measure.md: 'the table shows '—''); a unit after it ('—
    samples/s') would give a number that is not there a unit."""
    from dpscale.faces.output import Column, emit

    emit({"devices": 8, "throughput": None}, [Column("devices", "int"), Column("throughput", "rate", "samples/s")],
         argparse.Namespace(lang="en"))  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["throughput", "—"]


def test_a_sweep_of_two_units_has_no_one_unit_line():
    """output.units_line: 'throughputs in samples/s' only 'when a sweep's columns share one unit (the cells then
    omit it)'; with two units, no line names either as the unit of all."""
    from dpscale.faces.output import Column, horizontal

    cols = [Column("devices", "int"), Column("throughput", "rate", "samples/s"), Column("bw", "rate", "GB/s")]
    table = horizontal([{"devices": 1, "throughput": 10.0, "bw": 1.0}] * 2, cols, "en")
    assert "throughputs in" not in table
    one = horizontal([{"devices": 1, "throughput": 10.0}] * 2, cols[:2], "en")
    assert one.splitlines()[-1] == "throughputs in samples/s"


def test_a_title_s_count_of_one_is_singular_in_spanish(capsys):
    """emit: 'a count of one in the singular ('≈ 1 dispositivos', '1 pasos'), however the line was composed' — the
    measure table's title with one step and one repeat says '1 paso' and '1 repetición'."""
    args = argparse.Namespace(json=False, csv=False, lang="es")
    measure.show_train([{**BASE, "devices": 1, "steps": 1, "repeats": 1}], args)
    title = capsys.readouterr().out.splitlines()[0]
    assert "1 paso " in title and "1 repetición," in title and "pasos" not in title


@pytest.mark.parametrize("value", [float("inf"), float("nan")])
def test_a_single_answer_that_overflowed_is_the_one_line_error(value):
    """emit: 'a result that overflowed ... becomes the one-line error instead of an ∞ in a table' — for one record
    (a calculator's single answer) as for a sweep, and for the NaN that ∞ − ∞ makes."""
    from dpscale.faces.output import Column, emit

    with pytest.raises(DpscaleError, match=f"hours: comes to {value:g} from these inputs; allowed: realistic"):
        emit({"devices": 8, "hours": value}, [Column("devices", "int"), Column("hours")], argparse.Namespace())


def test_a_note_s_count_of_one_is_singular_in_spanish(capsys):
    """emit: a count of one in the singular 'however the line was composed' — a note's '1 dispositivos' too."""
    from dpscale.faces.output import Column, emit

    emit({"devices": 1}, [Column("devices", "int")], argparse.Namespace(lang="es"), notes=["≈ 1 dispositivos"])
    assert capsys.readouterr().out.splitlines()[-1].endswith("≈ 1 dispositivo")


def test_a_sweep_s_columns_are_as_wide_as_their_headings():
    """output.horizontal: 'an aligned table' — a heading wider than its numbers ('devices' over 1 and 2) widens its
    column, so heading, rule and rows all end at the same place."""
    from dpscale.faces.output import Column, horizontal

    lines = horizontal([{"devices": 1, "speedup": 1.0}, {"devices": 2, "speedup": 1.8}],
                       [Column("devices", "int"), Column("speedup", "times")], "en").splitlines()  # fmt: skip
    assert len({len(line) for line in lines}) == 1
    assert lines[1].split() == ["-" * len(lines[0].split()[0]), "-" * len(lines[0].split()[1])]


# ---------------------------------------------------------------- faces/plot (read off the figure, not written)


def scaling_figure(monkeypatch, tmp_path, devices, effs, v=100.0, **kw):
    """plot_scaling's figure for sizes `devices` at per-device throughput v and E `effs` (ideal d·v, actual d·v·E)."""
    pytest.importorskip("matplotlib")
    from dpscale.faces import plot

    got: list = []
    monkeypatch.setattr(plot, "save", lambda fig, out, flag="--plot": got.append(fig) or out)
    recs = [{"devices": d, "ideal_throughput": d * v, "actual_throughput": d * v * e, "efficiency": e}
            for d, e in zip(devices, effs)]  # fmt: skip
    plot.plot_scaling(recs, str(tmp_path / "s.png"), **kw)
    return got[0]


def test_three_doublings_of_sizes_are_drawn_on_a_log2_axis(monkeypatch, tmp_path):
    """plot.wide: 'sizes spanning three doublings or more read better on a log2 axis': 1 → 8 is three doublings
    (log, base 2); 1 → 4 is two (linear, a tick at each size)."""
    ax = scaling_figure(monkeypatch, tmp_path, [1, 2, 4, 8], [1, 0.9, 0.8, 0.7]).axes[0]
    assert ax.get_xscale() == "log" and ax.xaxis.get_transform().base == 2
    ax = scaling_figure(monkeypatch, tmp_path, [1, 2, 4], [1, 0.9, 0.8]).axes[0]
    assert ax.get_xscale() == "linear" and list(ax.get_xticks()) == [1, 2, 4]


def test_up_to_twelve_sizes_get_a_tick_each(monkeypatch, tmp_path):
    """plot.sizes_axis: sizes within three doublings get 'ticks at the sizes themselves' — 12 sizes (61–72, a ratio
    under 8) get 12 ticks."""
    sizes = list(range(61, 73))
    ax = scaling_figure(monkeypatch, tmp_path, sizes, [0.9] * 12).axes[0]
    assert list(ax.get_xticks()) == sizes


def test_throughputs_over_two_decades_are_drawn_on_a_log_axis(monkeypatch, tmp_path):
    """plot.spans_decades: 'values over two decades or more' get a log axis: ideal 100 → 10,000 at 1 → 100
    devices (E = 1) is exactly two decades; 1 → 10 devices is one (linear)."""
    assert scaling_figure(monkeypatch, tmp_path, [1, 100], [1, 1]).axes[0].get_yscale() == "log"
    assert scaling_figure(monkeypatch, tmp_path, [1, 10], [1, 1]).axes[0].get_yscale() == "linear"
    # the panel draws the ideal line too: at E(100) = 0.05 the actual curve spans 100 → 500, the ideal 100 → 10,000
    assert scaling_figure(monkeypatch, tmp_path, [1, 100], [1, 0.05]).axes[0].get_yscale() == "log"


def test_an_efficiency_above_one_keeps_its_point_inside_the_panel(monkeypatch, tmp_path):
    """The E panel runs 0 to 1.05, or to 5 % above the largest E when an E exceeds 1: E = 1.2 → top 1.26."""
    assert scaling_figure(monkeypatch, tmp_path, [1, 2], [1, 0.9]).axes[1].get_ylim() == pytest.approx((0, 1.05))
    assert scaling_figure(monkeypatch, tmp_path, [1, 2], [1, 1.2]).axes[1].get_ylim() == pytest.approx((0, 1.26))


def test_the_plot_s_labels_and_title(monkeypatch, tmp_path):
    """fit's plot draws throughput in its --unit and the title it is given; the size axis says 'devices' in the
    page's language ('dispositivos' in Spanish)."""
    fig = scaling_figure(monkeypatch, tmp_path, [1, 2], [1, 0.9], unit="tokens/s", title="mlp")
    assert fig.axes[0].get_ylabel() == "tokens/s" and fig._suptitle.get_text() == "mlp"
    fig = scaling_figure(monkeypatch, tmp_path, [1, 2], [1, 0.9], lang="es")
    assert fig.axes[0].get_xlabel() == "dispositivos" and fig.axes[1].get_xlabel() == "dispositivos"


def test_a_plot_may_be_a_png_an_svg_or_a_pdf(tmp_path):
    """README: `--plot FILE.png|svg|pdf`; another ending is refused before any work."""
    pytest.importorskip("matplotlib")
    from dpscale.faces.plot import check_path

    for name in ("a.png", "a.svg", "a.pdf"):
        assert check_path(str(tmp_path / name)).name == name
    with pytest.raises(DpscaleError, match=r"--plot: got 'a\.jpg'; allowed: a file name ending in \.png, \.svg, \.pdf"):
        check_path("a.jpg")


def test_the_band_and_the_measured_points_are_drawn_where_they_belong(monkeypatch, tmp_path):
    """plot_scaling: the ideal line is d·v (100, 200 at v = 100); the band shades actual_lo..hi on the throughput
    panel and efficiency_lo..hi on E's; measured points are drawn at their throughput and at their E."""
    band = {"actual_lo": [90, 160], "actual_hi": [100, 190], "efficiency_lo": [0.9, 0.8], "efficiency_hi": [1, 0.95]}
    measured = [{"devices": 2, "actual_throughput": 170.0, "efficiency": 0.85}]
    fig = scaling_figure(monkeypatch, tmp_path, [1, 2], [1, 0.9], band=band, measured=measured)
    thr, eff = fig.axes
    (ideal,) = [x for x in thr.get_lines() if x.get_label().startswith("ideal")]
    assert list(ideal.get_ydata()) == [100, 200]
    for ax, lo, hi in ((thr, "actual_lo", "actual_hi"), (eff, "efficiency_lo", "efficiency_hi")):
        (shade,) = ax.collections
        ys = shade.get_paths()[0].vertices[:, 1]
        assert min(ys) == pytest.approx(min(band[lo])) and max(ys) == pytest.approx(max(band[hi]))
    marks = [[x for x in ax.get_lines() if x.get_marker() == "s"] for ax in (thr, eff)]
    assert [list(m[0].get_ydata()) for m in marks] == [[170.0], [0.85]]
