"""Model presets by the Hugging Face hub ids ML engineers paste (`--model meta-llama/Llama-2-7b-hf`)."""

from __future__ import annotations

import pytest

from dpscale import catalog
from dpscale.errors import DpscaleError
from dpscale.faces.cli import main


@pytest.mark.parametrize(
    ("hub_id", "key", "params"),
    [
        ("meta-llama/Llama-2-7b-hf", "llama-7b", 6738415616),
        ("meta-llama/Llama-2-70b-chat-hf", "llama-70b", None),
        ("meta-llama/Meta-Llama-3-8B", "llama3-8b", 8030261248),
        ("meta-llama/Meta-Llama-3.1-70B-Instruct", "llama3-70b", None),
        ("meta-llama/Llama-3.1-8B", "llama3-8b", None),
        ("mistralai/Mistral-7B-v0.1", "mistral-7b", 7241732096),
        ("openai-community/gpt2-xl", "gpt2-xl", None),
        ("google-bert/bert-large-uncased", "bert-large", None),
        ("google/vit-base-patch16-224", "vit-b16", 86567656),
        ("microsoft/resnet-50", "resnet50", 25557032),
    ],
)
def test_a_hub_id_reads_as_its_preset(hub_id, key, params):
    entry = catalog.model(hub_id)
    assert entry["key"] == key
    if params is not None:
        assert entry["params"] == params


def test_the_papers_slash_name_is_still_one_name():
    # 'vit-b/16' holds a slash too: it is an alias as a whole, not organisation 'vit-b' and model '16'
    assert catalog.key_of("models", "ViT-B/16") == "vit-b16"


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        # the hint reads the model's name, not the organisation's ('meta-llama' suggested nothing before)
        ("meta-llama/Llama-2-7b-foo", "did you mean 'llama-7b'?"),
        # v0.3 has a 32,768-token vocabulary and no window: suggested, never read as mistral-7b
        ("mistralai/Mistral-7B-v0.3", "did you mean 'mistral-7b'?"),
    ],
)
def test_an_unknown_hub_id_is_refused_with_the_models_nearest_preset(typed, hint):
    with pytest.raises(DpscaleError) as err:
        catalog.model(typed)
    assert str(err.value).startswith(f"--model: got {typed!r} ({hint}); allowed: bert-base, ")


def test_an_organisation_alone_names_no_preset():
    # the organisation is dropped only when what follows is a preset: 'meta-llama/x' is no Llama
    assert catalog.key_of("models", "meta-llama/x") is None
    assert catalog.key_of("models", "bert-base/") is None
    assert catalog.key_of("systems", "nvidia/dgx-a100") is None  # systems and GPUs have no hub ids


def test_predict_answers_a_hub_id_as_its_preset(capsys):
    argv = ["predict", "--system", "dgx-a100", "-d", "8,16", "--precision", "bf16", "--json"]
    assert main([*argv, "--model", "meta-llama/Llama-2-13b-hf"]) == 0
    by_hub_id = capsys.readouterr().out
    assert main([*argv, "--model", "llama-13b"]) == 0
    assert capsys.readouterr().out == by_hub_id


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        # the papers' names hold a slash that is no organisation's: '32' alone names nothing, the whole name its
        # nearest preset (the hint was lost when the hub ids came: 'ViT-B/32' got no 'did you mean' at all)
        ("ViT-B/32", "did you mean 'vit-b16'?"),
        ("ViT-L/14", "did you mean 'vit-l16'?"),
        ("gpt2/xl", "did you mean 'gpt2-xl'?"),
    ],
)
def test_a_slash_name_whose_last_part_names_nothing_is_hinted_by_the_whole_name(typed, hint):
    with pytest.raises(DpscaleError) as err:
        catalog.model(typed)
    assert str(err.value).startswith(f"--model: got {typed!r} ({hint}); allowed: bert-base, ")


def test_only_the_organisation_is_dropped_from_a_hub_id():
    # everything after the first slash is the model's name, a slash in it too ('vit-b/16', not '16')
    assert catalog.key_of("models", "google/ViT-B/16") == "vit-b16"


def test_each_alias_names_a_preset_of_its_own_size_and_family():
    """An alias pointing at the wrong preset (a 70B id read as the 8B shapes) predicts for another model without a
    word; the sizes an alias states (7b, 70b, 8b) and its family (Llama 2, Llama 3, Mistral) are its preset's."""
    import json
    import re
    from pathlib import Path

    table = json.loads((Path(catalog.__file__).parent / "models.json").read_text(encoding="utf-8"))["aliases"]
    size = lambda name: re.findall(r"(?<![\d.])(\d+)b\b", name)  # noqa: E731 ('3.1-8b': 8, not 1-8)
    family = {"llama-2": "llama-", "llama2": "llama-", "llama-3": "llama3-", "llama3": "llama3-", "mistral": "mistral-"}
    checked = 0
    for alias, key in table.items():
        assert key in catalog.table("models"), alias
        assert size(alias) == size(key), (alias, key)
        heads = [f for a, f in family.items() if a in alias]
        assert all(key.startswith(f) for f in heads), (alias, key)
        checked += bool(heads)
    assert checked == 23  # the Llama 2, Llama 3 and Mistral names, hub ids among them


def test_a_dot_cuts_an_instance_size_off_a_system_name_only():
    # 'p4d.24xlarge' is AWS's instance p4d at size 24xlarge; a model name cut at its dot read 'gpt2.bin' (a weights
    # file) and 'resnet50.pth' as presets without a word — now they are refused with the preset as the hint
    assert catalog.key_of("systems", "aws-p4d.24xlarge") == catalog.key_of("systems", "p4d") is not None
    for typed, hint in (("gpt2.bin", "gpt2"), ("openai-community/gpt2.bin", "gpt2"), ("resnet50.pth", "resnet50")):
        assert catalog.key_of("models", typed) is None
        with pytest.raises(DpscaleError, match=f"did you mean '{hint}'"):
            catalog.model(typed)
    assert catalog.key_of("models", "meta-llama/Llama-3.1-8B") == "llama3-8b"  # a dot inside an alias still reads
