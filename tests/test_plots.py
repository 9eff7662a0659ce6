"""What the charts show, read off the figure before it is written: labels, scales and numbers as the tables say."""

from __future__ import annotations

import json

import pytest
from clihelp import run

from dpscale.errors import DpscaleError

pytest.importorskip("matplotlib")
import dpscale.faces.plot  # noqa: E402


@pytest.fixture
def figures(monkeypatch):
    """The figures the commands would save, their axes' tick labels drawn."""
    got = []

    def keep(fig, out, flag="--plot"):
        fig.canvas.draw()
        got.append(fig)
        return out

    monkeypatch.setattr(dpscale.faces.plot, "save", keep)
    yield got
    import matplotlib.pyplot as plt

    for fig in got:  # save() closes what it writes; kept here, they would pile up past pyplot's 20 and warn
        plt.close(fig)


def ticks(ax, which="y"):
    return [t.get_text() for t in getattr(ax, f"get_{which}ticklabels")() if t.get_text()]


def test_the_pipeline_legend_names_the_chunks_its_curve_is_drawn_with(capsys, tmp_path, figures):
    """The interleaved curve of a gpipe chart is drawn with v = 2 (v = 1 would hide it); its label said v=1."""
    assert (
        run(capsys, "pipeline", "-p", "4", "-m", "8", "--schedule", "gpipe", "--plot", str(tmp_path / "p.png"))[0] == 0
    )
    (ax,) = figures[0].axes
    (line,) = [x for x in ax.get_lines() if x.get_label().startswith("interleaved")]
    # at m = 1 one micro-batch's own path through the 4 stages bounds r at 3 (the closed form's 3/2 is below it)
    assert line.get_label() == "interleaved (v=2)" and line.get_ydata()[0] == pytest.approx(3 / (1 + 3))
    m, y = line.get_xdata()[-1], line.get_ydata()[-1]  # a filled pipeline: the closed form, (p − 1)/(v·m)
    assert m >= 8 and y == pytest.approx(3 / (2 * m) / (1 + 3 / (2 * m)))


def test_spanish_charts_write_numbers_as_spanish_tables_do(capsys, tmp_path, figures):
    argv = ["-d", "1..1024x2", "-v", "2000", "--law", "usl", "--sigma", "0.02", "--kappa", "1e-4", "--lang", "es"]
    assert run(capsys, "calc", *argv, "--plot", str(tmp_path / "c.png"))[0] == 0
    plan = ["plan", "--samples", "1e6", "--epochs", "10", "-v", "2000", "--law", "amdahl", "--serial-fraction",
            "0.01", "-d", "1..64x2", "--price-per-device-hour", "2", "--lang", "es"]  # fmt: skip
    assert run(capsys, *plan, "--plot", str(tmp_path / "p.png"))[0] == 0
    pipe = ["pipeline", "-p", "4", "-m", "8", "--lang", "es", "--plot", str(tmp_path / "b.png")]
    assert run(capsys, *pipe)[0] == 0
    calc, plan_fig, pipe_fig = figures
    throughput, eff = calc.axes
    assert throughput.get_yscale() == "log"  # 2,000 → 2,048,000: a linear axis pressed the USL's peak flat
    assert "1.000.000" in ticks(throughput) and not any("e+" in t for t in ticks(throughput))
    # the sizes' own formatter: which powers of 2 get a tick is matplotlib's (3.11 labels 1.024; 3.7, pyproject's
    # floor, 512 and 2.048)
    assert "0,2" in ticks(eff) and eff.xaxis.get_major_formatter()(1024, None) == "1.024"
    assert any("," in t for t in ticks(plan_fig.axes[1])) and any("," in t for t in ticks(pipe_fig.axes[0]))


def test_one_size_shows_its_ideal_and_its_own_tick(capsys, tmp_path, figures):
    """The worked example drew the actual point only (a dashed line of one point is nothing), on ticks 61–67."""
    assert run(capsys, "calc", "-d", "64", "-v", "2000", "-e", "0.9", "--plot", str(tmp_path / "one.png"))[0] == 0
    ax = figures[0].axes[0]
    (ideal,) = [x for x in ax.get_lines() if x.get_label().startswith("ideal")]
    assert ideal.get_marker() not in ("None", "", None) and list(ideal.get_ydata()) == [128_000]
    assert ticks(ax, "x") == ["64"]


def test_a_plot_path_that_cannot_take_a_file_is_refused_before_any_output(tmp_path, capsys):
    """os.access passed a 'folder' that is a file and a 300-character name: the results were printed, then the
    plot failed (several lines after the JSON), or a traceback (exit 1). Now one line and nothing on stdout."""
    from dpscale.faces.cli import main

    (tmp_path / "runs.csv").write_text("devices,throughput\n1,100\n")
    for path, why in ((tmp_path / "runs.csv" / "a.png", "Not a directory"),
                      (tmp_path / ("a" * 300 + ".png"), "File name too long")):  # fmt: skip
        rc = main(["calc", "-d", "8", "-v", "100", "-e", "0.9", "--json", "--plot", str(path)])
        out, err = capsys.readouterr()
        assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
        assert f"allowed: a file this user can write ({why})" in err


@pytest.mark.slow
def test_a_reader_that_leaves_early_still_gets_the_plot(tmp_path):
    """`dpscale calc -d 1..5000+1 … --plot f.png --csv | head -1` exited 0, quiet, and wrote no plot: the closed pipe
    ended the command inside its output, before the plot (which comes after the result)."""
    import subprocess
    import sys

    out = tmp_path / "s.png"
    argv = ["calc", "-d", "1..5000+1", "-v", "2000", "-e", "0.9", "--csv", "--plot", str(out)]
    proc = subprocess.Popen([sys.executable, "-m", "dpscale", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"devices,")
    proc.stdout.close()  # the reader leaves, as `head -1` does, with most of the 5,000 rows unread
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert b"Traceback" not in err and b"BrokenPipe" not in err
    assert out.stat().st_size > 0


@pytest.mark.parametrize("lang, ten", [("en", "10,000,000,000"), ("es", "10.000.000.000")])
def test_a_log_axis_past_ten_digits_writes_every_tick_as_the_tables_do(capsys, tmp_path, figures, lang, ten):
    """-v 1e9 over 1..4096 devices: the throughput axis read '1,000,000,000', then '1e+10', '1e+11', '1e+12'."""
    argv = ["calc", "-d", "1..4096x2", "-v", "1e9", "-e", "0.9", "--lang", lang, "--plot", str(tmp_path / "w.png")]
    assert run(capsys, *argv)[0] == 0
    labels = ticks(figures[0].axes[0])
    assert ten in labels and not any("e+" in t for t in labels), labels


@pytest.mark.parametrize(
    "lang, predicted, fitted",
    [
        ("en", "80 % band (published runs)", "90 % band"),
        ("es", "banda del 80 % (ejecuciones publicadas)", "banda del 90 %"),
    ],
)
def test_the_shaded_band_is_named_in_the_legends(capsys, tmp_path, figures, lang, predicted, fitted):
    """predict's plot shaded its 80 % band and named it nowhere (fit's said '90 % band' in its title alone)."""
    out = str(tmp_path / "p.png")
    argv = ["predict", "--model", "bert-large", "-v", "150", "--system", "dgx-a100", "-d", "1,8,64", "--plot", out]
    assert run(capsys, *argv, "--lang", lang)[0] == 0
    points = ["--point=1:1000", "--point=8:7600", "--point=16:14800", "--point=32:28400"]
    assert run(capsys, "fit", *points, "--plot", out, "--lang", lang)[0] == 0
    for fig, name in zip(figures, (predicted, fitted)):
        for ax in fig.axes:
            assert name in [t.get_text() for t in ax.get_legend().get_texts()]


@pytest.mark.parametrize("stop", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_plot_cut_short_leaves_the_earlier_plot_whole(tmp_path, capsys, monkeypatch, stop):
    """savefig wrote over the file in place: a disk that filled (or a Ctrl-C) mid-write left 8 KB of a PNG where a
    whole plot had been (`calc … --plot p.png` on a full tmpfs, exit 2). Now the plot is written beside and renamed
    over, so the earlier one stays whole, and no temporary file is left."""
    import json
    import os

    from matplotlib.figure import Figure

    out = tmp_path / "p.png"
    argv = ["calc", "-d", "1..4", "-v", "2000", "-e", "0.9", "--json", "--plot", str(out)]
    assert run(capsys, *argv)[0] == 0
    earlier = out.read_bytes()
    assert earlier[:8] == b"\x89PNG\r\n\x1a\n" and len(earlier) > 10_000

    def half_then_stop(self, fname, **kw):
        fh = open(fname, "wb") if isinstance(fname, (str, os.PathLike)) else fname  # (a path, as it was given)
        fh.write(earlier[:4096])
        fh.flush()
        raise stop

    monkeypatch.setattr(Figure, "savefig", half_then_stop)
    rc, stdout, err = run(capsys, *argv)
    assert rc == (2 if isinstance(stop, OSError) else 130)
    assert [r["devices"] for r in json.loads(stdout)] == [1, 2, 3, 4]  # the result is printed all the same
    assert out.read_bytes() == earlier  # whole, not its first 4 KB
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.png"]  # no temporary file beside it
    monkeypatch.undo()
    assert run(capsys, *argv[:-1], str(tmp_path / "new.svg"))[0] == 0  # a new file, written through a handle
    assert "<svg" in (tmp_path / "new.svg").read_text()[:500]
    assert (tmp_path / "new.svg").stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_plot_over_another_users_file_stays_theirs(tmp_path, monkeypatch):
    """Written beside and renamed over, another user's plot (a shared folder) became the writer's; it is given back
    to its owner, and where it cannot be (not root) it is written in place, as before — whole either way."""
    import os

    from dpscale.files import write_whole

    theirs = tmp_path / "shared.png"
    theirs.write_bytes(b"old")
    owner = (os.stat(theirs).st_uid + 4321, os.stat(theirs).st_gid + 4321)
    if os.geteuid() == 0:  # (only root can make a file another user's)
        os.chown(theirs, *owner)
        write_whole(theirs, lambda fh: fh.write(b"new plot"), binary=True)
        st = os.stat(theirs)
        assert theirs.read_bytes() == b"new plot" and (st.st_uid, st.st_gid) == owner
    inode = os.stat(theirs).st_ino

    def refused(*a, **k):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "geteuid", lambda: os.stat(theirs).st_uid + 1)  # as another, unprivileged user
    monkeypatch.setattr(os, "chown", refused)
    write_whole(theirs, lambda fh: fh.write(b"newer plot"), binary=True)
    assert theirs.read_bytes() == b"newer plot" and os.stat(theirs).st_ino == inode  # in place: the same file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared.png"]


def test_a_plot_is_written_whole_where_the_os_has_no_user_ids(tmp_path, monkeypatch):
    """os.geteuid and os.getegid exist on POSIX alone: a plot over an earlier one (or the calibration's write_json)
    raised AttributeError, a traceback, on Windows; the owner check is skipped there."""
    import os

    from dpscale.files import write_whole

    out = tmp_path / "p.png"
    out.write_bytes(b"old")
    monkeypatch.delattr(os, "geteuid")
    monkeypatch.delattr(os, "getegid")
    write_whole(out, lambda fh: fh.write(b"new plot"), binary=True)
    assert out.read_bytes() == b"new plot" and sorted(p.name for p in tmp_path.iterdir()) == ["p.png"]


@pytest.mark.parametrize("lang, six", [("en", "0.6"), ("es", "0,6")])
def test_a_log_axis_under_a_decade_writes_its_minor_ticks_as_the_tables_do(capsys, tmp_path, figures, lang, six):
    """plan's time axis over 8–64 devices spans 2.2 h to 0.28 h, under a decade: matplotlib labels its minor ticks,
    and wrote them '6 × 10⁻¹', '3 × 10⁻¹' beside a major '1'. Over 1–4,096 devices (four decades) they stay bare."""
    argv = ["plan", "-v", "2000", "-e", "0.9", "--epochs", "90", "--lang", lang]
    assert run(capsys, *argv, "-n", "1.28e6", "-d", "8,16,32,64", "--plot", str(tmp_path / "a.png"))[0] == 0
    assert run(capsys, *argv, "-n", "1.28e9", "-d", "1..4096x2", "--plot", str(tmp_path / "b.png"))[0] == 0
    narrow, wide = (fig.axes[0] for fig in figures)
    minor = [t.get_text() for t in narrow.yaxis.get_minorticklabels() if t.get_text()]
    assert six in minor and not any("×" in t or "10^" in t or "$" in t for t in minor), minor
    assert [t.get_text() for t in wide.yaxis.get_minorticklabels() if t.get_text()] == []


# Cases a seventh mutation sweep (the measure face's arguments and notes; output; plots) found no test could fail
# on. Each expected value is derived in its docstring or comment, from the docs or the arithmetic, not read back from
# the code. None of these starts torch, a browser or a process.


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


def test_a_throughput_under_one_a_second_still_counts_toward_two_decades(monkeypatch, tmp_path):
    """spans_decades takes every value above zero: at 0.5 samples/s a device (a large model), 1 → 100 devices at
    E = 1 runs 0.5 → 50, two decades: a log axis, as at 100/s a device."""
    from dpscale.faces.plot import spans_decades

    assert scaling_figure(monkeypatch, tmp_path, [1, 100], [1, 1], v=0.5).axes[0].get_yscale() == "log"
    assert spans_decades([0.5, 50.0]) and not spans_decades([0.5, 49.0]) and not spans_decades([0.0, None, 50.0])


def test_an_efficiency_above_one_keeps_its_point_inside_the_panel(monkeypatch, tmp_path):
    """The E panel runs 0 to 1.05, or to 5 % above the largest E when an E exceeds 1: E = 1.2 → top 1.26."""
    assert scaling_figure(monkeypatch, tmp_path, [1, 2], [1, 0.9]).axes[1].get_ylim() == pytest.approx((0, 1.05))
    assert scaling_figure(monkeypatch, tmp_path, [1, 2], [1, 1.2]).axes[1].get_ylim() == pytest.approx((0, 1.26))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_fit_s_superlinear_run_and_its_band_stay_inside_the_e_panel(capsys, tmp_path, figures, lang):
    """Review MX: runs 1:1,000, 2:2,300, 4:4,200, 8:7,000 measure E = 1.15 at 2 (2,300 / 2,000) and 1.05 at 4; the
    fitted curve stays under 1, so the panel stopped at 1.05: the run at 2 was not drawn at all and the band, whose
    top --json gives as efficiency_hi (above 1.2 at 1), was cut flat. The top now clears every E drawn."""
    runs = tmp_path / "runs.csv"
    runs.write_text("devices,throughput\n1,1000\n2,2300\n4,4200\n8,7000\n")
    argv = ["fit", str(runs), "--resamples", "200", "--lang", lang]
    report = json.loads(run(capsys, *argv, "--json")[1])
    assert run(capsys, *argv, "--plot", str(tmp_path / "f.png"))[0] == 0
    eff = figures[0].axes[1]
    (marks,) = [x for x in eff.get_lines() if x.get_marker() == "s"]
    assert list(marks.get_ydata()) == pytest.approx([1.0, 1.15, 1.05, 0.875])
    (shade,) = eff.collections
    highest = max(p["efficiency_hi"] for p in report["predictions"])
    assert highest > 1.2 and max(shade.get_paths()[0].vertices[:, 1]) == pytest.approx(highest)
    top = eff.get_ylim()[1]
    assert top == pytest.approx(highest * 1.05) and max(marks.get_ydata()) < top


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


# Session 44: an efficiency file that states two throughput units is refused, not planned in samples/s.


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_plot_over_an_input_file_is_refused_and_the_input_kept(capsys, tmp_path, monkeypatch, lang):
    """`fit runs.png --plot runs.png` read the runs, then wrote their plot over them: the user's measurements were
    gone. The plot's path is refused before any work when it is one of the command's input files (by any name)."""
    runs = tmp_path / "runs.png"
    text = "devices,throughput\n1,1000\n2,1900\n4,3600\n"
    runs.write_text(text)
    monkeypatch.chdir(tmp_path)
    said = {
        "en": "allowed: a file other than the command's input files, which the plot would overwrite",
        "es": "se admite: un archivo distinto de los archivos de entrada de la orden, que el gráfico sobrescribiría",
    }[lang]
    for argv in (["fit", str(runs), "--plot", "./runs.png"],
                 ["plan", "--fit", "runs.png", "-n", "1e9", "-d", "4", "--plot", str(runs)]):  # fmt: skip
        rc, out, err = run(capsys, *argv, "--lang", lang)
        assert rc == 2 and not out and err.count("\n") == 1 and said in err, argv
        assert runs.read_text() == text
    pytest.importorskip("matplotlib")
    rc, out, err = run(capsys, "fit", str(runs), "--plot", str(tmp_path / "fit.png"), "--lang", lang)
    assert rc == 0 and (tmp_path / "fit.png").stat().st_size > 0 and runs.read_text() == text


def test_plan_s_second_panel_is_the_cost_where_priced_and_device_hours_where_not(capsys, tmp_path, figures):
    """3,600 samples at 1/s on 1 or 2 devices (E = 1): 1 and 0.5 h, 1 device-hour each; at 2.5 a device-hour, 2.5
    each. Unpriced, the panel draws device-hours (there is no cost to draw) under their own name."""
    argv = ["plan", "-n", "3600", "-v", "1", "-e", "1", "-d", "1,2", "--plot", str(tmp_path / "p.png")]
    assert run(capsys, *argv, "--price-per-device-hour", "2.5")[0] == 0 and run(capsys, *argv)[0] == 0
    for fig, ylabel, spend in ((figures[0], "cost", [2.5, 2.5]), (figures[1], "device-hours", [1.0, 1.0])):
        hours, money = fig.axes
        assert list(hours.get_lines()[0].get_ydata()) == pytest.approx([1.0, 0.5])
        assert money.get_ylabel() == ylabel and list(money.get_lines()[0].get_ydata()) == pytest.approx(spend)


def test_plan_s_cost_panel_goes_log_when_the_budget_line_is_decades_from_the_costs(capsys, tmp_path, figures):
    """Review MX: `plan -n 1e9 -v 2000 -e 0.9 -d 1..64x2 --price 2 --budget 1e6 --plot p.png` costs 277.78 on one
    device and 308.64 on 2 to 64; the budget line at 1,000,000 stretched a linear axis to 1,050,000 and pressed the
    costs flat on 0, each size alike. The budget counts toward two decades as the costs do: a log axis."""
    argv = ["plan", "-n", "1e9", "-v", "2000", "-e", "0.9", "-d", "1..64x2", "--price", "2", "--plot"]
    assert run(capsys, *argv, str(tmp_path / "p.png"), "--budget", "1e6")[0] == 0
    assert run(capsys, *argv, str(tmp_path / "p.png"), "--budget", "1000")[0] == 0
    for fig, scale in zip(figures, ("log", "linear")):
        money = fig.axes[1]
        cost, budget = money.get_lines()[0], money.get_lines()[1]
        assert list(cost.get_ydata()) == pytest.approx([277.78] + [308.64] * 6, abs=0.01)
        assert money.get_yscale() == scale and budget.get_label() == "budget"


def test_the_pipeline_chart_runs_past_the_largest_m_with_the_chosen_schedule_bold(capsys, tmp_path, figures):
    """GPipe and 1F1B share a bubble, one curve named for both; the schedule asked for is the bold one (1f1b's is
    that curve); the curves run to twice the largest m typed (-m 4,100: 200), or 8p where that is further."""
    out = str(tmp_path / "p.png")
    assert run(capsys, "pipeline", "-p", "2", "-m", "4,100", "--schedule", "zb-h1", "--plot", out)[0] == 0
    assert run(capsys, "pipeline", "-p", "4", "-m", "2", "--plot", out)[0] == 0
    for fig, bold, last in ((figures[0], "zb-h1", 200), (figures[1], "gpipe, 1f1b", 32)):
        curves = {x.get_label(): x for x in fig.axes[0].get_lines() if x.get_linestyle() != "None"}  # (not the dots)
        assert sorted(curves) == ["gpipe, 1f1b", "interleaved (v=2)", "zb-h1", "zb-h2"]
        assert [name for name, x in curves.items() if x.get_linewidth() > 2] == [bold]
        assert {x.get_xdata()[-1] for x in curves.values()} == {last}


def test_a_fit_of_typed_points_draws_over_its_earlier_plot(capsys, tmp_path, figures):
    """fit --point … --plot fit.png, run again: the earlier plot is no input of the command (there is no RUNS file to
    compare it with), so it is drawn over, not refused nor a traceback."""
    earlier = tmp_path / "fit.png"
    earlier.write_bytes(b"an earlier plot")
    points = ["--point", "1:1000", "--point", "2:1900", "--point", "4:3600"]
    rc, out, err = run(capsys, "fit", *points, "--resamples", "100", "--plot", str(earlier))
    assert rc == 0 and not err and len(figures) == 1 and "law" in out


@pytest.mark.parametrize(
    "lang, axis", [("en", "speedup over one device (×)"), ("es", "aceleración sobre un dispositivo (×)")]
)
def test_batch_s_speedup_axis_is_named_for_every_curve_it_holds(capsys, tmp_path, figures, lang, axis):
    """The batch chart draws three speedups over one device: ideal d, d·E and time-to-target; its axis was named for
    one of them, 'speedup d·E', which the ideal (16 at 16) and time-to-target curves are not: at E = 0.9 and
    β = B_noise/b = 4,096/32 = 128, 0.9 · 129/(1 + 128/16) = 12.9 at 16, where d·E is 14.4."""
    argv = ["batch", "-b", "32", "-d", "1..16x2", "-e", "0.9", "--noise-scale", "4096", "--lang", lang]
    assert run(capsys, *argv, "--plot", str(tmp_path / "b.png"))[0] == 0
    (ax,) = figures[0].axes
    assert ax.get_ylabel() == axis
    at16 = {x.get_label(): x.get_ydata()[-1] for x in ax.get_lines()}
    assert sorted(at16.values()) == pytest.approx([0.9 * 129 / 9, 14.4, 16])


def test_batch_s_one_size_shows_its_ideal_speedup(capsys, tmp_path, figures):
    """Review MX: `batch -b 32 -d 8 -e 0.9 --noise-scale 4096 --plot b.png` named 'ideal speedup d' in its legend and
    drew it as a dashed line of one point, which is nothing: the plot showed 7.2 and 6.83, not the 8 they fall short
    of. Each curve now has a marker (calc's one size the same: test_one_size_shows_its_ideal_and_its_own_tick)."""
    argv = ["batch", "-b", "32", "-d", "8", "-e", "0.9", "--noise-scale", "4096", "--plot", str(tmp_path / "b.png")]
    assert run(capsys, *argv)[0] == 0
    (ax,) = figures[0].axes
    drawn = {x.get_label(): (x.get_marker(), list(x.get_ydata())) for x in ax.get_lines()}
    assert drawn["ideal speedup d"][1] == [8] and drawn["hardware speedup d·E"][1] == pytest.approx([7.2])
    # 0.9 · (1 + 128)/(1 + 128/8) with β = 4,096/32 = 128
    assert drawn["time-to-target speedup"][1] == pytest.approx([0.9 * 129 / 17])
    assert all(marker not in ("None", "", None) for marker, _ in drawn.values()), drawn


@pytest.mark.parametrize("lang, named", [("en", "the m asked for"), ("es", "el m pedido")])
def test_the_pipeline_legend_names_the_m_asked_for(capsys, tmp_path, figures, lang, named):
    """Review MX: `pipeline -p 8 -m 16 --plot p.png` drew a black dot on the 1F1B curve at m = 16 (bubble 7/23, the
    table's 0.304) that the legend, naming each curve, did not name. It is named in the language."""
    argv = ["pipeline", "-p", "8", "-m", "4,16", "--lang", lang, "--plot", str(tmp_path / "p.png")]
    assert run(capsys, *argv)[0] == 0
    ax = figures[0].axes[0]
    (dots,) = [x for x in ax.get_lines() if x.get_marker() == "o"]
    assert list(dots.get_xdata()) == [4, 16] and list(dots.get_ydata()) == pytest.approx([7 / 11, 7 / 23])
    assert dots.get_label() == named and named in [t.get_text() for t in ax.get_legend().get_texts()]


def test_pipeline_curves_that_coincide_are_drawn_apart(capsys, tmp_path, figures):
    """ZB-H2's bubble is ZB-H1's until m ≥ 2p − 1 (15 at p = 8): drawn alike, the two thin lines over m = 1..14 blended
    into one brown line the legend named nowhere, ZB-H1's hidden under it. Curves sharing a stretch differ in style."""
    assert run(capsys, "pipeline", "-p", "8", "-m", "1..64x2", "--plot", str(tmp_path / "p.png"))[0] == 0
    curves = [x for x in figures[0].axes[0].get_lines() if x.get_linestyle() != "None"]  # (not the m asked for)
    shared = 0
    for i, a in enumerate(curves):
        for b in curves[i + 1 :]:
            same = [ya == yb for ya, yb in zip(a.get_ydata()[:3], b.get_ydata()[:3])]
            if all(same):  # one stretch drawn twice: r = (2p − m − 1)/(3m), r/(1 + r) = 14/17, 13/19, 12/21 at m = 1..3
                shared += 1
                assert list(a.get_ydata()[:3]) == pytest.approx([14 / 17, 13 / 19, 12 / 21])
                assert a.get_linestyle() != b.get_linestyle(), (a.get_label(), b.get_label())
    assert shared == 1


@pytest.mark.parametrize(
    "lang, law, title",
    [
        ("en", ["--law", "usl", "--sigma", "0.02", "--kappa", "1e-4"], "E(d) from USL σ = 0.02, κ = 0.0001"),
        ("es", ["--law", "amdahl", "--serial-fraction", "0.05"], "E(d) según Amdahl, fracción serie = 0,05"),
        ("en", ["-e", "0.9"], "E(d) from constant E = 0.9"),
    ],
)
def test_a_calc_sweep_s_plot_is_titled_with_the_e_it_was_drawn_with(capsys, tmp_path, figures, lang, law, title):
    """The notes name the E source ('E(d) from USL σ = 0.02, κ = 0.0001'); the plot, read without them, had no title
    at all, so nothing on it said which law or E made its curve."""
    argv = ["calc", "-d", "1..64x2", "-v", "2000", *law, "--lang", lang, "--plot", str(tmp_path / "c.png")]
    rc, out, err = run(capsys, *argv)
    assert rc == 0 and figures[0]._suptitle.get_text() == title


def test_a_long_title_is_wrapped_inside_the_figure(capsys, tmp_path, figures):
    """An E per size over 13 sizes titles the plot with its table, past 140 characters: one line ran past both edges
    of the 10-inch figure ('E(d) from E' and its last pair cut off); it is wrapped inside it."""
    e = "1,0.98,0.96,0.93,0.9,0.86,0.81,0.75,0.68,0.6,0.51,0.42,0.3"
    assert run(capsys, "calc", "-d", "1..4096x2", "-v", "2000", "-e", e, "--plot", str(tmp_path / "c.png"))[0] == 0
    fig = figures[0]
    title = fig._suptitle
    assert title.get_text().startswith("E(d) from E per size: 1→1; 2→0.98") and title.get_text().endswith("4,096→0.3")
    box, page = title.get_window_extent(fig.canvas.get_renderer()), fig.bbox
    assert page.x0 <= box.x0 and box.x1 <= page.x1 and box.y1 <= page.y1


# (and A.SVG, A.PDF: the stamps are looked up by the format, lower-cased, not by the suffix as typed; review HF)
@pytest.mark.parametrize("ext", ["png", "svg", "pdf", "SVG", "PDF"])
def test_the_same_plot_twice_is_the_same_bytes(capsys, tmp_path, ext):
    """A plot kept in git or diffed in CI must not change when nothing it draws did: matplotlib stamps an SVG and a
    PDF with the time they were written (SVG's dc:date to the microsecond, PDF's CreationDate to the second) and
    names an SVG's clip paths and markers from a random salt, so the same `calc --plot a.svg` twice differed in
    406 lines (review GZ). Both written in one process, the way a notebook or the web's process would."""
    argv = ["calc", "-d", "1..64x2", "-v", "2000", "--law", "usl", "--sigma", "0.01", "--kappa", "1e-4", "--json"]
    paths = [tmp_path / f"a.{ext}", tmp_path / f"b.{ext}"]
    for p in paths:
        assert run(capsys, *argv, "--plot", str(p))[0] == 0
    first, second = (p.read_bytes() for p in paths)
    assert len(first) > 1000 and first == second
    for stamp in (b"CreationDate", b"<dc:date>"):  # a date to the second could match twice and move the next
        assert stamp not in first


def test_a_matplotlibrc_s_own_svg_salt_is_kept(capsys, tmp_path):
    """save() fixes svg.hashsalt only where the user set none: an SVG's clip-path ids drawn under one's own salt
    ('mine') are not those under dpscale's, and are the same twice (review HF: a mutant that always used dpscale's
    passed every test)."""
    import matplotlib

    argv = ["calc", "-d", "1..64x2", "-v", "2000", "--law", "usl", "--sigma", "0.01", "--kappa", "1e-4", "--json"]
    paths = {name: tmp_path / f"{name}.svg" for name in ("ours", "mine", "mine2")}
    assert run(capsys, *argv, "--plot", str(paths["ours"]))[0] == 0
    with matplotlib.rc_context({"svg.hashsalt": "mine"}):
        for name in ("mine", "mine2"):
            assert run(capsys, *argv, "--plot", str(paths[name]))[0] == 0
    ours, mine, mine2 = (p.read_bytes() for p in paths.values())
    assert mine == mine2 and mine != ours and len(mine) == len(ours)  # the same drawing, other ids
