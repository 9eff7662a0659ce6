"""Session 46's own changes (the helpers' reviews are in tests/test_review46_*.py)."""

from __future__ import annotations

import pytest

from dpscale import catalog
from dpscale.faces.cli import main


@pytest.mark.parametrize(
    ("typed", "key", "params"),
    [
        ("llama3.1-8b", "llama3-8b", 8_030_261_248),  # The Llama 3 Herd of Models' Table 3 is Llama 3.1's
        ("Llama-3.1-70B", "llama3-70b", 70_553_706_496),
        ("gpt2-small", "gpt2", 124_439_808),  # Hugging Face's 'gpt2', the 124M one
        ("bert-base-uncased", "bert-base", 110_106_428),  # 30,522-token uncased vocabulary, as the preset counts
        ("BERT-Large-Uncased", "bert-large", 336_226_108),
        ("ViT-B/16", "vit-b16", 86_567_656),  # the paper's own notation
        ("vit-large-patch16-224", "vit-l16", None),
    ],
)
def test_names_users_type_for_a_preset_are_that_preset(typed, key, params):
    # these were refused ('vit-base-patch16-224': did you mean ...?) though the catalog holds the very model
    entry = catalog.model(typed)
    assert entry["key"] == key
    if params is not None:
        assert entry["params"] == params


def test_an_alias_answers_as_its_preset_in_predict(capsys):
    argv = ["predict", "--system", "dgx-a100", "-d", "16", "--precision", "bf16", "--json"]
    assert main([*argv, "--model", "llama3.1-8b"]) == 0
    by_alias = capsys.readouterr().out
    assert main([*argv, "--model", "llama3-8b"]) == 0
    assert capsys.readouterr().out == by_alias


def test_the_bert_cased_vocabulary_is_not_read_as_the_uncased_preset():
    # bert-base-cased has 28,996 tokens (108.3 M parameters): not the preset's count, so not silently aliased
    with pytest.raises(Exception, match="allowed:"):
        catalog.model("bert-base-cased")


def test_a_fit_keeps_the_unit_its_runs_state(tmp_path):
    # dpscale.fit of tokens/s runs kept no unit: a notebook handed f.per_device_throughput (1,000 tokens/s) to
    # plan() as samples/s with nothing to say otherwise; the CLI read the unit, the library dropped it
    import dpscale

    csv = tmp_path / "runs.csv"
    csv.write_text("devices,throughput,unit\n1,1000,tokens/s\n8,7600,tokens/s\n16,14600,tokens/s\n32,27000,tokens/s\n")
    f = dpscale.fit(csv)
    assert f.unit == "tokens/s" and f.per_device_throughput == 1000.0
    assert "throughput in tokens/s, as the runs state it" in f.summary()
    records = [{"devices": d, "throughput": x, "unit": "tokens/s"} for d, x in ((1, 1000), (8, 7600), (16, 14000))]
    assert dpscale.fit(records).unit == "tokens/s"
    unsaid = dpscale.fit([(1, 1000), (8, 7600), (16, 14000), (32, 26000)])
    assert unsaid.unit is None and "throughput in" not in unsaid.summary()


@pytest.mark.parametrize("name", ["calibrate", "fsdp", "outside"])
def test_validation_scripts_answer_help(name):
    # `python validation/calibrate.py --help` read '--help' as a CSV path and ended in a DpscaleError traceback;
    # fsdp.py and outside.py ignored it and ran their whole check
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "validation" / f"{name}.py"
    out = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith(f"usage: {name}.py") and "Traceback" not in out.stderr
    assert "median" not in out.stdout  # the help, not the check's report


def test_calc_and_plan_with_a_unit_load_no_file_reader():
    # calc compares its --unit with samples/s on every run (rows in another unit say it) through fit_io.unit_key: the
    # import pulled fit_io (csv, dataclasses, pathlib …) into every calc, 121 modules against 86, 14 ms of start-up
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
        assert not heavy & loaded, (argv, heavy & loaded)


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        ("llama2", "'llama-13b' or 'llama-70b' or 'llama-7b'"),  # was 'llama-7b' alone, the nearest spelling
        ("vit-base", "'vit-b16'"),  # was 'bert-base': another model
        ("llama3.1", "'llama3-70b' or 'llama3-8b'"),
    ],
)
def test_a_name_leading_aliases_suggests_their_presets(typed, hint):
    with pytest.raises(Exception, match=r"allowed:") as exc:
        catalog.model(typed)
    assert f"(did you mean {hint}?)" in str(exc.value)
