"""Cases a sixth mutation sweep (session 30: the catalog's name reading and system files, the CLI's shared
parsers, the predict and fit faces' arguments, a first few of measure's; 169 mutants, 40 non-equivalent survivors)
found no test could fail on. Each expected value is derived in its docstring or comment, from the docs or the
arithmetic, not read back from the code. None of these starts torch, a browser or a process."""

from __future__ import annotations

import json

import pytest
from clihelp import run

from dpscale import catalog
from dpscale.errors import DpscaleError

SYSTEM = {"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 100}


def system_file(tmp_path, **fields) -> str:
    path = tmp_path / "sys.json"
    path.write_text(json.dumps({"systems": {"a": {**SYSTEM, **fields}}}))
    return str(path)


# ---------------------------------------------------------------- catalog: GPU names


def test_a_gpu_size_its_family_is_not_made_in_is_refused():
    """catalog.gpu: a vendor name picks an entry where 'the name states one [size] the family is made in'; the
    catalog's H100 is made in 80 GB only, so 'H100 94GB' (the NVL part's memory) names no entry of it."""
    assert catalog.gpu("H100 80GB")["key"] == "h100-80gb"
    with pytest.raises(DpscaleError, match="--gpu: got 'H100 94GB'"):
        catalog.gpu("H100 94GB")


def test_an_nvl_part_is_not_the_catalog_s_sxm_one():
    """catalog.gpu: 'a name that ... names a form the entry is not' is refused; the entry is the NVIDIA H100 SXM 80
    GB, so an H100 NVL (another board, another peak) is refused like 'H100 PCIe' (docs/predict.md)."""
    for form in ("PCIe", "NVL"):
        with pytest.raises(DpscaleError, match=f"is the NVIDIA H100 SXM 80 GB, not the {form} part"):
            catalog.gpu(f"H100 {form}")


def test_a_count_glued_to_the_gpu_is_no_part_of_its_name():
    """_bare: counts go ('8x NVIDIA A100' → 'a100'); MLPerf writes '8xA100' without the space: the family is
    a100 still, and '80GB' picks the 80 GB entry."""
    assert catalog.gpu_in("8xA100-SXM4-80GB") == "a100"
    assert catalog.find_gpu(gpu="8xA100 80GB")["memory_gb"] == 80


def test_a_system_s_name_in_the_gpu_cell_means_the_system_s_gpu():
    """find_gpu: 'only text that names no GPU at all ('', '8 GPUs', a system's name) means the system's GPU'. 'DGX-2'
    names the dgx2-v100 system (one system starts so), whose GPU is the 32 GB V100; '8 accelerators' names none."""
    assert catalog.find_gpu(system="dgx2-v100", gpu="DGX-2")["memory_gb"] == 32
    assert catalog.find_gpu(system="dgx-h100", gpu="8 accelerators")["name"] == "NVIDIA H100 SXM 80 GB"


# ---------------------------------------------------------------- catalog: system files


def test_a_system_figure_of_1e300_is_refused(tmp_path):
    """load_system_file: 'needs numbers > 0 (and below 1e300)': 1e300 itself is not below 1e300."""
    with pytest.raises(DpscaleError, match=r"needs numbers > 0 \(and below 1e300\) for intra_bw_gbs"):
        catalog.load_system_file(system_file(tmp_path, intra_bw_gbs=1e300))


def test_a_misspelt_link_name_is_refused_as_a_misspelt_gpu_is(tmp_path):
    """docs/predict.md: a key 'a letter or two from a key that is read' is refused. intra_link's value is a name
    (a string), so "intra_lnk": "nvlink3" is that key misspelt, not a description."""
    with pytest.raises(DpscaleError, match=r"key 'intra_lnk' \(did you mean 'intra_link'\?\)"):
        catalog.load_system_file(system_file(tmp_path, intra_lnk="nvlink3"))


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


def test_a_blank_unit_is_refused(capsys):
    """check_unit: --unit is 'a unit label on one line, at most 40 characters': a blank one labels nothing (every
    rate printed with an empty unit); refused before any fit runs."""
    rc, out, err = run(capsys, "fit", "--point", "1:100", "--point", "2:190", "--unit", " ")
    assert rc == 2 and out == "" and "--unit: got ' '; allowed: a unit label on one line" in err


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


# ---------------------------------------------------------------- faces/cli/predict


def test_predict_s_default_sizes_are_1_to_1024_doubling(capsys):
    """predict --help: '--devices ... (default 1..1024x2)': 1, 2, 4, …, 1024 — eleven sizes (2^0 … 2^10)."""
    rc, out, err = run(capsys, "predict", "--model", "bert-large", "--throughput", "150", "--system", "dgx-a100",
                       "--json")  # fmt: skip
    assert rc == 0, err
    assert [r["devices"] for r in json.loads(out)] == [2**k for k in range(11)]


PREDICT_ERRORS = [
    ("--throughput", "0", "a finite number > 0"),
    ("--step-time", "0", "seconds > 0"),
    ("--alpha-intra", "abc", "µs ≥ 0"),
    ("--first-bucket-mb", "x", "a bucket size in MiB"),
    ("--seq-len", "0", "a whole number ≥ 1"),
    ("--mfu", "40%", "a model-FLOPs utilisation in (0, 1] (40 % = 0.4)"),
]


@pytest.mark.parametrize("flag, value, allowed", PREDICT_ERRORS)
def test_predict_s_errors_name_the_flag_as_typed_in_full(capsys, flag, value, allowed):
    """A refused value is said under its option's long name (docs: one line naming the flag): --throughput, not
    its alias -v; --step-time; --alpha-intra, not the network's --alpha-inter; --first-bucket-mb, not
    --bucket-mb; --seq-len. A utilisation is a fraction: '40%' is told 40 % = 0.4."""
    rc, out, err = run(capsys, "predict", "--params", "1e8", "-d", "8", "--system", "dgx-a100", flag, value)
    assert rc == 2 and out == "" and f"error: {flag}: got '{value}'; allowed: {allowed}" in err


def test_a_step_time_without_a_batch_says_the_batch_assumed(capsys):
    """A measured step time, like a measured rate, was taken at some batch: with no --batch the note says the
    default (predict --help: 'per-device micro-batch (default 32)') is assumed for it."""
    rc, out, err = run(capsys, "predict", "--params", "1e8", "-d", "8", "--system", "dgx-a100", "--step-time", "0.1")
    assert rc == 0, err
    assert "no --batch: 32 samples per device assumed" in out


def test_an_input_rate_adds_its_column_to_the_table(capsys):
    """docs/predict.md: with --input-rate R a step takes at least ga·b·min(d, g)/R = 1 · 32 · 8 / 500 = 0.512 s at
    d = 8 on an 8-GPU node — the table's step is 512.0 ms, and it shows the input time beside the other parts."""
    rc, out, err = run(capsys, "predict", "--params", "1e8", "-d", "8", "--system", "dgx-a100", "--throughput",
                       "100", "--input-rate", "500")  # fmt: skip
    assert rc == 0, err
    head, _, row = out.splitlines()[1:4]
    assert "input ms" in head and "512.0" in row.split()


# ---------------------------------------------------------------- faces/cli/fit

RUNS = ["--point", "1:100", "--point", "2:190", "--point", "4:360", "--resamples", "50"]


def test_a_minimum_efficiency_of_one_is_asked_and_zero_refused(capsys):
    """fit --min-efficiency takes 'an efficiency in (0, 1]': 1 (no loss at all) is inside, 0 is not."""
    rc, out, err = run(capsys, "fit", *RUNS, "--min-efficiency", "1", "--json")
    assert rc == 0, err
    assert json.loads(out)["devices_for_efficiency"]["min_efficiency"] == 1
    rc, out, err = run(capsys, "fit", *RUNS, "--min-efficiency", "0")
    assert rc == 2 and out == "" and "--min-efficiency: got '0'; allowed: an efficiency in (0, 1]" in err


def test_a_node_as_large_as_the_search_reaches_is_read(capsys):
    """docs/fit.md: answers are sought up to 2^20 = 1,048,576 devices; --gpus-per-node 1,048,576 (one node holds
    them all) is read, one more refused."""
    rc, out, err = run(capsys, "fit", *RUNS, "--gpus-per-node", "1048576", "--json")
    assert rc == 0, err
    rc, out, err = run(capsys, "fit", *RUNS, "--gpus-per-node", "1048577")
    assert rc == 2 and "--gpus-per-node: got '1048577'; allowed: a whole number from 1 to 1,048,576" in err


def test_a_confidence_of_one_and_a_seed_past_32_bits_are_refused(capsys):
    """fit --help: --confidence is an 'interval level in (0, 1)' — a 100 % (or 0 %) interval is no interval; --seed is a
    32-bit seed, 0 to 2^32 − 1 = 4,294,967,295 (2^32 is one past it)."""
    for level in ("1", "0"):
        rc, _, err = run(capsys, "fit", *RUNS, "--confidence", level)
        assert rc == 2 and f"--confidence: got '{level}'; allowed: a level in (0, 1)" in err
    rc, _, err = run(capsys, "fit", *RUNS, "--seed", str(2**32))
    assert rc == 2 and "--seed: got '4294967296'; allowed: a whole number from 0 to 4,294,967,295" in err
    rc, _, err = run(capsys, "fit", *RUNS, "--seed", str(2**32 - 1), "--json")
    assert rc == 0, err


@pytest.mark.parametrize("flag", ["--at", "--target-throughput"])
def test_fit_s_question_flags_are_named_in_their_errors(capsys, flag):
    """A size of 0 devices and a target of 0 samples/s are refused under the flag typed, not --devices."""
    rc, out, err = run(capsys, "fit", *RUNS, flag, "0")
    assert rc == 2 and out == "" and f"error: {flag}: got '0'" in err


def test_fit_predicts_the_measured_sizes_then_twice_and_four_times_the_largest(capsys):
    """fit --help: --at defaults to 'measured, 2×, 4×': runs at 1, 2, 4 devices → predictions at 1, 2, 4, 8, 16."""
    rc, out, err = run(capsys, "fit", *RUNS, "--json")
    assert rc == 0, err
    assert [p["devices"] for p in json.loads(out)["predictions"]] == [1, 2, 4, 8, 16]


def test_four_times_the_largest_run_may_be_the_largest_size(capsys):
    """2× and 4× the largest run 'as far as a size may go' — sizes go to 10,000,000 inclusive: runs at 1.25 M and
    2.5 M devices are predicted at 5 M and at 4 × 2.5 M = 10 M too."""
    rc, out, err = run(capsys, "fit", "--point", "1250000:1e9", "--point", "2500000:1.9e9", "--resamples", "50",
                       "--json")  # fmt: skip
    assert rc == 0, err
    assert [p["devices"] for p in json.loads(out)["predictions"]] == [1_250_000, 2_500_000, 5_000_000, 10_000_000]


def test_points_are_added_to_a_runs_file(capsys, tmp_path):
    """docs/fit.md: '--point D:X (repeatable ...), alone or added to a file': a file of 1 and 2 devices and
    --point 4:360 are three measured sizes."""
    runs = tmp_path / "runs.csv"
    runs.write_text("devices,throughput\n1,100\n2,190\n")
    rc, out, err = run(capsys, "fit", str(runs), "--point", "4:360", "--resamples", "50", "--json")
    assert rc == 0, err
    assert [m["devices"] for m in json.loads(out)["measured"]] == [1, 2, 4]


def test_the_json_says_its_intervals_level_in_percent(capsys):
    """The report's 'uncertainty' names the bootstrap and the level: 50 refits, --confidence 0.9 → '90 %'."""
    rc, out, err = run(capsys, "fit", *RUNS, "--json")
    assert rc == 0, err
    assert json.loads(out)["uncertainty"] == "parametric bootstrap, 50 refits; 90 % intervals"


# ---------------------------------------------------------------- faces/cli/measure (arguments only)


def test_a_watchdog_of_one_second_is_the_shortest_allowed():
    """measure --timeout takes 'seconds from 1 to 1,000,000': 1 s itself is read (0.5 s refused); the job is only
    built here, no rank started."""
    import argparse

    from dpscale.faces.cli.measure import add_arguments, build_job

    p = argparse.ArgumentParser()
    add_arguments(p)
    assert build_job(p.parse_args(["--timeout", "1"]), "train").timeout == 1.0
    with pytest.raises(DpscaleError, match="--timeout: got '0.5'; allowed: seconds from 1 to 1,000,000"):
        build_job(p.parse_args(["--timeout", "0.5"]), "train")
