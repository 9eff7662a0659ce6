"""The catalog's names: aliases users type for presets, the systems and what a misspelt name suggests."""

from __future__ import annotations

import pytest

from dpscale import catalog
from dpscale.faces.cli import main

# Review 45 X: a first-time user's hour with the CLI — the names typed, the notes read.


@pytest.mark.parametrize(
    ("typed", "key"),
    [("llama2-13b", "llama-13b"), ("Llama-2-13B", "llama-13b"), ("llama-2-7b", "llama-7b"),
     ("Llama 2 70B", "llama-70b")],
)  # fmt: skip
def test_llama_2_names_are_the_llama_2_presets(typed, key):
    # the llama-7b/13b/70b presets are Llama 2's (their sources say so), but 'llama2-13b' was refused
    # ("did you mean 'llama-13b'?") while 'llama3-8b' was a preset: the family's own name reads as its preset
    assert catalog.model(typed)["key"] == key
    assert "Llama 2" in catalog.model(typed)["source"]


@pytest.mark.parametrize(("typed", "key"), [("dgx-h200", "hgx-h200"), ("DGX H200", "hgx-h200"),
                                            ("dgx-a100-80gb", "dgx-a100")])  # fmt: skip
def test_dgx_h200_and_dgx_a100_80gb_are_the_catalog_s_systems(typed, key):
    # 'DGX H200' was refused (did you mean 'hgx-h200'?) though the entry is "NVIDIA HGX/DGX H200"
    assert catalog.system(typed)["key"] == key


def test_an_alias_is_no_new_preset_in_the_lists():
    # the allowed lists and the help name the presets once, by their keys
    assert "llama2-13b" not in catalog.table("models") and "dgx-h200" not in catalog.table("systems")
    with pytest.raises(Exception, match=r"allowed: aws-p4d, .*hgx-h200") as exc:
        catalog.system("dgx-a100-40gb")
    assert "dgx-h200" not in str(exc.value)


# Review 46 AJ: session 46's commits, tried at their edges (library and CLI, both languages, odd files).


@pytest.mark.parametrize("kind", ["models", "systems", "gpus", "links"])
def test_every_catalog_alias_names_an_entry_and_is_reached(kind):
    """The aliases table is hand-written JSON (session 46 added nine): an alias naming no key (a typo, a renamed
    preset) refused what it was written for, as 'got …; allowed: …', and one that squashes to a key's own name is
    never read. Each alias reaches its entry by the lookup users go through, and so does each key written loosely
    ('H100_80GB'): the gpus and links catalogs list no aliases, and their cases looped over nothing and passed
    whatever the lookup did, as the models' and systems' would have with their tables renamed or dropped."""
    import json

    from dpscale import catalog

    data = json.loads((catalog.HERE / catalog.KINDS[kind]).read_text(encoding="utf-8"))
    entries = catalog.table(kind)
    aliases = data.get("aliases", {})
    # models: the Llama 2, Llama 3 and Mistral names and hub ids; systems: dgx-h200 and dgx-a100-80gb
    assert len(aliases) == {"models": 32, "systems": 3, "gpus": 0, "links": 0}[kind]
    assert catalog.aliases(kind) == {catalog._squash(a): k for a, k in aliases.items()}  # the table the lookup reads
    for alias, key in aliases.items():
        assert key in entries, (alias, key)
        assert catalog.key_of(kind, alias) == key, alias
        assert not any(catalog._squash(alias) == catalog._squash(k) for k in entries), alias
    for key in entries:
        assert catalog.key_of(kind, key.upper().replace("-", "_")) == key, key


# Session 46's own changes.


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


def _bert_and_resnet() -> tuple[float, float]:
    """E at 64 of BERT-large on DGX A100s (the A100's amp peak sets its compute), and at 8 of ResNet-50 on 4 GPUs of
    each DGX-1 V100 (its cube-mesh's figure at 4 GPUs, 100 GB/s, sets the ring)."""
    import dpscale

    bert = dpscale.predict([1, 8, 64], model="bert-large", precision="amp", batch=32, system="dgx-a100")
    resnet = dpscale.predict([1, 4, 8], model="resnet-50", precision="amp", batch=64, system="dgx1-v100",
                             gpus_per_node=4)  # fmt: skip
    return bert.efficiency(64), resnet.efficiency(8)


def test_an_entry_the_catalog_hands_out_is_the_caller_s_own_and_its_tables_are_read_only():
    """catalog.gpu, system and model copied an entry's top level only, find_gpu not even that: a nested figure (a GPU's
    peak_tflops, a system's intra_bw_gbs_by_gpus) was the cached catalog's own, so a notebook that changed one in the
    entry it was handed moved every later prediction in the process — BERT-large on DGX A100s at 64 devices read E
    0.640, then 0.943 once the A100's amp peak was set to 1 TFLOP/s in catalog.gpu's answer; and catalog.table's
    entries took any change outright. Found by review IX (state one call leaves for another)."""
    import copy
    import json

    before = _bert_and_resnet()
    assert before == pytest.approx((0.6402754, 0.8805237), abs=5e-7)
    gpu, system, model = catalog.gpu("a100-80gb"), catalog.system("dgx1-v100"), catalog.model("bert-large")
    found = catalog.find_gpu(gpu="A100 80GB")
    assert found is not None and found["peak_tflops"]["amp"] == gpu["peak_tflops"]["amp"] == 312
    gpu["peak_tflops"]["amp"], found["peak_tflops"]["fp16"] = 1.0, 1.0  # the caller's own copies: theirs to change
    system["intra_bw_gbs_by_gpus"]["4"], model["params"] = 1, 1
    assert _bert_and_resnet() == before
    assert catalog.gpu("a100-80gb")["peak_tflops"] == {"bf16": 312, "fp16": 312, "amp": 312, "tf32": 156, "fp32": 19.5}
    assert catalog.system("dgx1-v100")["intra_bw_gbs_by_gpus"]["4"] == 100
    # the cached tables themselves refuse a change, at any depth, and still read, copy and print as dicts
    tables = {kind: catalog.table(kind) for kind in catalog.KINDS}
    a100, bert = tables["gpus"]["a100-80gb"], tables["models"]["bert-large"]
    changes = [lambda: a100["peak_tflops"].__setitem__("amp", 1.0), lambda: a100.update(hbm_tbs=0.1),
               lambda: tables["gpus"].pop("a100-80gb"), lambda: bert.setdefault("seq_len", 1),
               lambda: bert.__delitem__("params"), lambda: tables["links"].clear(), lambda: a100.popitem(),
               lambda: catalog.aliases("models").__setitem__("bert", "gpt2"),
               lambda: catalog.families().__setitem__("a100", ["h100-80gb"])]  # fmt: skip
    for change in changes:
        with pytest.raises(TypeError, match="read-only"):
            change()
    with pytest.raises(TypeError, match="read-only"):
        a100["peak_tflops"] |= {"amp": 1.0}
    assert catalog.families()["a100"] == ("a100-40gb", "a100-80gb")  # (a tuple: no list to append to)
    assert _bert_and_resnet() == before
    assert json.loads(json.dumps(a100))["peak_tflops"]["amp"] == 312
    thawed = copy.deepcopy(a100)
    thawed["peak_tflops"]["amp"] = 1.0  # a deep copy is a plain dict, the caller's to change
    assert {**a100}["memory_gb"] == 80 and a100["peak_tflops"]["amp"] == 312


def test_a_gpu_picked_by_its_family_name_is_the_caller_s_own_at_any_depth():
    """Review JF (a mutation pass over 903d38a): catalog.gpu answers a vendor's name ('NVIDIA A100 80GB', no key of
    the catalog) through its family pick, a second return from _get's: handing out that entry's top level only left
    its nested peaks the cached table's, so the caller's change raised (a read-only table's) or, before 903d38a,
    moved every later prediction — and no test named a GPU that way."""
    picked = catalog.gpu("NVIDIA A100 80GB")
    assert picked["key"] == "a100-80gb" and catalog.key_of("gpus", "NVIDIA A100 80GB") is None  # the family's pick
    picked["peak_tflops"]["amp"] = 1.0  # the caller's own copy: theirs to change
    assert type(picked["peak_tflops"]) is dict and picked["peak_tflops"]["amp"] == 1.0
    assert catalog.table("gpus")["a100-80gb"]["peak_tflops"]["amp"] == 312
    assert catalog.gpu("NVIDIA A100 80GB")["peak_tflops"]["amp"] == 312
