"""--model-file at its extremes (review JN): a Hugging Face config whose heads do not split its width and a count its
shape derives outside the range, and a CNN's forward GMACs past any model's, are refused in one line naming the
file's own field, in English and Spanish: never a derived count of another model, nor 'inf' seconds, said."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import run
from hypothesis import given, settings
from hypothesis import strategies as st

from dpscale import catalog
from dpscale.errors import DpscaleError

LLAMA = {"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
         "intermediate_size": 11008, "vocab_size": 32000, "max_position_embeddings": 4096}  # fmt: skip


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def built_count(layers: int, hidden: int, heads: int, kv: int, ffn: int, vocab: int, tied: bool) -> int:
    """The parameters of the model transformers' LlamaForCausalLM builds from such a config, projection by
    projection: each head head_dim = hidden // heads wide (q: hidden → heads·head_dim, k and v: hidden →
    kv·head_dim, o back), a SwiGLU MLP, two RMSNorms a layer, the embedding, an output layer unless tied, a norm."""
    head_dim = hidden // heads
    attention = hidden * heads * head_dim * 2 + hidden * kv * head_dim * 2
    return layers * (attention + 3 * hidden * ffn + 2 * hidden) + (1 if tied else 2) * vocab * hidden + hidden


@settings(max_examples=100, deadline=None)
@given(
    layers=st.integers(1, 96),
    hidden=st.integers(1, 16_384),
    heads=st.integers(1, 128),
    groups=st.integers(1, 16),
    ffn=st.integers(1, 65_536),
    vocab=st.integers(1, 262_144),
    tied=st.booleans(),
)
def test_a_config_s_derived_count_is_the_model_its_shape_builds_or_it_is_refused(
        tmp_path_factory, layers, hidden, heads, groups, ffn, vocab, tied):  # fmt: skip
    """Whatever a config's shape, its derived count is the one the model it describes holds, or the file is refused
    in one DpscaleError naming a field: hidden 4,096 over 3 heads (1,365 wide each: q, k, v, o 4,096 × 4,095) was
    counted as 4,096 × 4,096 projections, 6,738,415,616 for the model's 6,737,891,328; 4 wide over 8 heads (each
    0 wide) was counted as a model with attention."""
    kv = max(1, heads // groups) if heads % max(1, heads // groups) == 0 else heads
    config = {
        **LLAMA,
        "num_hidden_layers": layers,
        "hidden_size": hidden,
        "num_attention_heads": heads,
        "num_key_value_heads": kv,
        "intermediate_size": ffn,
        "vocab_size": vocab,
        "tie_word_embeddings": tied,
    }
    path = write(tmp_path_factory.mktemp("hf"), "config.json", config)
    try:
        entry = catalog.load_model_file(path)
    except DpscaleError as exc:
        assert "\n" not in str(exc) and "config.json" in str(exc)
        return
    assert entry["params"] == built_count(layers, hidden, heads, kv, ffn, vocab, tied)


@pytest.mark.parametrize(("shape", "en", "es"), [
    ({"num_attention_heads": 3}, "num_attention_heads 3; allowed: a divisor of hidden_size (4,096)",
     "num_attention_heads 3; se admite: un divisor de hidden_size (4.096)"),
    ({"hidden_size": 4, "num_attention_heads": 8, "num_key_value_heads": 8},
     "num_attention_heads 8; allowed: a divisor of hidden_size (4)", "num_attention_heads 8; se admite: un divisor "
     "de hidden_size (4)"),
])  # fmt: skip
def test_a_config_whose_heads_do_not_split_its_width_is_refused(capsys, tmp_path, shape, en, es):
    path = write(tmp_path, "config.json", {**LLAMA, **shape})
    for command in (("memory", "--gpu", "h100", "-d", "8"), ("predict", "--system", "dgx-h100")):
        for lang, said in (("en", en), ("es", es)):
            rc, out, err = run(capsys, *command, "--model-file", path, "--lang", lang)
            assert (rc, out, err.count("\n")) == (2, "", 1), err
            assert f"--model-file: {path}: {said}, o" in err, err  # (", or a head_dim beside it": review KK)


@pytest.mark.parametrize(("shape", "en", "es"), [
    ({"num_hidden_layers": 1, "hidden_size": 1, "num_attention_heads": 1, "intermediate_size": 1, "vocab_size": 1},
     "the count its shape gives, 12; allowed: a parameter count from 1,000 to 1e+15",
     "el número de parámetros que da su forma, 12; se admite: un número de parámetros de 1.000 a 1e+15"),
    ({"num_hidden_layers": 1_000_000, "hidden_size": 10_000_000, "intermediate_size": 10_000_000},
     "the count its shape gives, 700,000,020,640,010,000,000; allowed: a parameter count from 1,000 to 1e+15",
     "el número de parámetros que da su forma, 700.000.020.640.010.000.000; se admite: un número de parámetros de "
     "1.000 a 1e+15"),
])  # fmt: skip
def test_a_derived_count_out_of_range_is_said_as_the_config_s_not_as_a_field_it_lacks(capsys, tmp_path, shape, en,
                                                                                     es):  # fmt: skip
    """A config has no 'params': its count is derived, and the refusal said 'params 12' (a field the file lacks),
    700000020640010000000 ungrouped, and stayed English under --lang es."""
    path = write(tmp_path, "config.json", {**LLAMA, **shape})
    for lang, said in (("en", en), ("es", es)):
        rc, out, err = run(capsys, "memory", "--model-file", path, "--lang", lang)
        assert (rc, out, err.count("\n")) == (2, "", 1), err
        assert f"--model-file: {path}: {said}" in err, err


@pytest.mark.parametrize("gmacs", [1.0000001e15, 1e200, 9.9e299])
def test_a_cnn_s_forward_gmacs_past_1e15_are_refused_naming_them_not_inf_seconds(capsys, tmp_path, gmacs):
    """fwd_gmacs took anything below 1e300: 9.9e299 GMACs an image made 6e309 FLOPs, and predict refused '--batch
    with --seq-len/--mfu: a micro-batch comes to inf s of compute' (ES 'sale a inf s'), naming flags never typed.
    A file's figure is refused as the file's; 1e15 GMACs (1e24 MACs an image) is still read."""
    entry = {"kind": "cnn", "params": 25_557_032, "fwd_gmacs": gmacs}
    path = write(tmp_path, "cnn.json", entry)
    for lang, said in (
        ("en", "allowed: forward GMACs an image, a number > 0, at most 1e+15"),
        ("es", "se admite: GMAC hacia delante por imagen, un número > 0, como mucho 1e+15"),
    ):
        rc, out, err = run(capsys, "predict", "--model-file", path, "--system", "dgx-h100", "--lang", lang)
        assert (rc, out, err.count("\n")) == (2, "", 1), err
        assert f"model 'cnn.json': fwd_gmacs {json.dumps(gmacs)}; " in err.replace("modelo", "model"), err
        assert said in err and "inf" not in err, err
    ok = write(tmp_path, "ok.json", {**entry, "fwd_gmacs": 1e15})
    assert catalog.load_model_file(ok)["fwd_gmacs"] == 1e15


HUGE = 10**400  # an integer JSON reads whole, which math.isfinite and float() raise OverflowError on
CNN = {"kind": "cnn", "params": 25_557_032, "fwd_gmacs": 4.11}
GPT = {"kind": "transformer", "params": 6.7e9, "layers": 32, "hidden": 4096, "heads": 32, "seq_len": 4096,
       "vocab": 32000}  # fmt: skip


@pytest.mark.parametrize(("data", "field", "allowed"), [
    ({**LLAMA, "head_dim": HUGE}, "head_dim", "a whole number from 1 to 10,000,000"),
    ({**LLAMA, "num_hidden_layers": HUGE}, "num_hidden_layers", "a whole number from 1 to 10,000,000"),
    ({**LLAMA, "hidden_size": HUGE}, "hidden_size", "a whole number from 1 to 10,000,000"),
    ({**LLAMA, "model_type": "mixtral", "num_local_experts": HUGE}, "num_local_experts",
     "a whole number from 1 to 10,000,000"),
    ({**GPT, "layers": HUGE}, "layers", "a whole number from 1 to 10,000,000"),
    ({**GPT, "attention_width": HUGE}, "attention_width", "a whole number from 1 to 10,000,000"),
    ({**GPT, "params": HUGE}, "params", "a parameter count from 1,000 to 1e+15"),
    ({**CNN, "fwd_gmacs": HUGE}, "fwd_gmacs", "forward GMACs an image, a number > 0, at most 1e+15"),
])  # fmt: skip
def test_a_400_digit_integer_is_refused_naming_its_field(capsys, tmp_path, data, field, allowed):
    """Review KX. A 400-digit integer in a field said 'a number too large to compute with (int too large to convert to
    float); allowed: realistic magnitudes', naming no field: math.isfinite ran before the range (catalog.whole_in,
    checked_model's number). head_dim, max_window_layers and the expert counts named it until whole_in (bc8b8ece)
    read them; a model entry's fields and a config's others never did. The range is compared first now."""
    path = write(tmp_path, "config.json" if "model_type" in data else "mine.json", data)
    for lang, frame in (("en", "allowed"), ("es", "se admite")):
        rc, out, err = run(capsys, "memory", "--model-file", path, "--gpu", "h100", "-d", "8", "--lang", lang)
        assert (rc, out, err.count("\n")) == (2, "", 1), err
        assert f"{field} 1000000000000000000000000000000000000000…; {frame}: " in err, err
        assert "too large to compute" not in err and "demasiado grande" not in err, err
    assert allowed in str(pytest.raises(DpscaleError, catalog.load_model_file, path).value)
    assert not catalog.whole_in(HUGE) and not catalog.whole_in(-HUGE, 0)
