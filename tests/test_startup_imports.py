"""What each command imports at start-up: calc and plan load no file reader, fit_notes no fit."""

from __future__ import annotations

# Review 46 AL: two files split where each mixed two jobs — formulas/scaling.py's inverse problem (`solve` and
# its searches) is formulas/solve.py, and sources/fit.py's notes on a finished fit are sources/fit_notes.py (as
# predict_notes.py is predict.py's). Each new module stands on its own: the lower one never imports the higher, and
# the old home keeps no re-exported copy.


def test_a_fits_notes_live_in_fit_notes_which_never_imports_fit_at_run_time():
    """fit_notes reads a Fit only for its type (under TYPE_CHECKING): importing it alone loads no sources.fit, so
    fit → fit_notes is the one direction; the constants both read sit below them (fit_runs, fit_solve)."""
    import subprocess
    import sys

    from dpscale.sources import fit, fit_notes, fit_runs, fit_solve

    assert fit.fit_warnings is fit_notes.fit_warnings and not hasattr(fit, "MISFIT") and not hasattr(fit, "_warnings")
    assert fit_notes.NOISE_PRIOR is fit_runs.NOISE_PRIOR == 0.01 and fit_notes.AT_BOUND is fit_solve.AT_BOUND == 1e-12
    code = "import sys, dpscale.sources.fit_notes; print('dpscale.sources.fit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# calc's unit check (rows in tokens/s say so) stays off the file readers.


def test_calc_and_plan_with_a_unit_load_no_file_reader():
    # calc compares its --unit with samples/s on every run (rows in another unit say it), once through fit_io's
    # unit_key: the import pulled fit_io (csv, dataclasses, pathlib …) into every calc, 121 modules against 86, 14 ms
    # of start-up (formulas.units.canonical_unit now)
    from clihelp import imported_after

    for argv in (
        ["calc", "-d", "1,8,64", "-v", "2000", "-e", "0.9"],
        ["calc", "-d", "64", "-v", "2000", "-e", "0.9", "--unit", "tokens/s", "--json"],
        ["calc", "-v", "2000", "-e", "0.9", "--actual", "100000"],
        ["plan", "-n", "1e12", "-v", "3000", "-e", "0.9", "-d", "8,64", "--unit", "tokens/s"],
    ):
        loaded = imported_after(argv)
        assert f"dpscale.faces.cli.{argv[0]}" in loaded  # the probe ran the command
        heavy = {"numpy", "scipy", "matplotlib", "torch", "dpscale.sources.fit_io", "dpscale.sources.efficiency_file"}
        heavy |= {f"dpscale.sources.{m}" for m in ("fit_runs", "runs_json", "runs_csv")}  # (fit_io's parts)
        assert not heavy & loaded, (argv, heavy & loaded)


def test_memory_imports_the_catalog_only_for_a_gpu_or_a_model():
    # memory imported the catalog (pathlib, urllib, the file reader: ~3 ms) on every run; only --gpu and --model read it
    from clihelp import imported_after

    plain = imported_after(["memory", "--params", "7.5e9", "--devices", "64", "--gpu-memory", "80"])
    assert "dpscale.faces.cli.memory" in plain
    assert not {"dpscale.catalog", "dpscale.files", "pathlib"} & plain
    assert "dpscale.catalog" in imported_after(["memory", "--params", "7.5e9", "-d", "8", "--gpu", "h100-80gb"])
    assert "dpscale.catalog" in imported_after(["memory", "--model", "gpt2-xl", "-d", "8"])


def test_the_top_help_reads_the_locale_without_the_label_tables():
    # the language from the locale (faces.locale) pulled faces.i18n and its 1,800 lines of labels into `dpscale
    # --help` and an unknown command's refusal, which never loaded them (--help 2.14× a bare interpreter → 2.4×)
    from clihelp import imported_after

    for argv in (["--help"], ["zzz"]):
        loaded = imported_after(argv)
        assert "dpscale.faces.locale" in loaded and "dpscale.faces.i18n" not in loaded, argv


def test_memory_imports_no_scaling_module_for_a_repr_it_never_writes():
    # ModelStates' repr (short_repr, 5083345) made every `dpscale memory` import dpscale.formulas.scaling (~2.3 ms,
    # as much as the catalog above), which memory's figures never use; a repr imports it when one is written
    from clihelp import imported_after

    for argv in (["memory", "--params", "7.5e9", "--devices", "64", "--gpu-memory", "80"],
                 ["memory", "--model", "llama3-8b", "-d", "64", "--gpu-memory", "5"]):  # fmt: skip
        loaded = imported_after(argv)
        assert "dpscale.faces.cli.memory" in loaded and "dpscale.formulas.scaling" not in loaded, argv
