"""Review KR (mutation pass): catalog.hf's defaults and refusals that no test held — each test below failed against a
hand-made mutant of catalog/hf.py or formulas/compute.py (named in its docstring) and passes on the source.

The counts are the checkpoints' (tests/test_hf_types.py names their sources); a key left out takes its transformers
config class's default (Gemma2Config: head_dim 256, sliding_window 4,096; Qwen2Config: tie_word_embeddings false,
use_sliding_window false, max_window_layers 28; Phi3Config: tie_word_embeddings false)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dpscale.catalog import load_model_file
from dpscale.errors import DpscaleError
from dpscale.formulas.compute import llama_params, token_flops, transformer_terms

HF = Path(__file__).parent / "data" / "hf"


def config(name: str, drop: tuple[str, ...] = (), **change: object) -> dict:
    data = json.loads((HF / name).read_text(encoding="utf-8"))
    return {**{k: v for k, v in data.items() if k not in drop}, **change}


def load(tmp_path: Path, data: dict) -> dict:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return load_model_file(str(path))


def test_gemma2_s_head_dim_and_window_left_out_are_its_class_s(tmp_path):
    """Mutants: FORMS gemma2 head_dim 256 → 128, sliding_window 4096 → 4095 (both survived: the 9B's file states
    both). Without them Gemma 2 9B is still 9,241,705,984 parameters (16 heads of 256), a window of 4,096 on 21 of
    its 42 layers."""
    entry = load(tmp_path, config("gemma-2-9b.config.json", drop=("head_dim", "sliding_window")))
    assert entry["params"] == 9_241_705_984
    assert (entry["window"], entry["window_layers"], entry["attention_width"]) == (4096, 21, 4096)


def test_gemma2_27b_s_own_head_dim_outweighs_the_class_default(tmp_path):
    """Mutant: _head_dim reading the form's 256 before the config's head_dim (survived: the 7B's and 9B's are 256).
    Gemma 2 27B (google/gemma-2-27b's config.json shape): 46 layers, hidden 4,608, 32 heads of 128 (4,096 wide),
    16 KV heads, MLP 36,864, vocabulary 256,000, tied, four norms a layer:
      a layer: q, o 2·4,608·4,096 = 37,748,736; k, v 2·4,608·2,048 = 18,874,368; MLP 3·4,608·36,864 = 509,607,936;
      norms 4·4,608 = 18,432; total 566,249,472; × 46 = 26,047,475,712; + embedding 256,000·4,608 = 1,179,648,000;
      + final norm 4,608 = 27,227,128,320 — the checkpoint's (its safetensors total_size 54,454,256,640 bytes ÷ 2).
    With 256-wide heads it would be 8,192 wide and 30.7 B."""
    shape = {"model_type": "gemma2", "num_hidden_layers": 46, "hidden_size": 4608, "num_attention_heads": 32,
             "num_key_value_heads": 16, "head_dim": 128, "intermediate_size": 36864, "vocab_size": 256000,
             "max_position_embeddings": 8192, "sliding_window": 4096}  # fmt: skip
    entry = load(tmp_path, shape)
    assert entry["params"] == 27_227_128_320
    assert entry["attention_width"] == 4096 and entry["window_layers"] == 23
    # attention's 12·L·w·k: 23 layers at 4,096 keys, 23 at 8,192: 6,144 a layer
    assert token_flops(entry)[1] == 12.0 * 46 * 4096 * 6144


def test_gemma2_s_sliding_layers_are_the_even_ones_of_an_odd_count(tmp_path):
    """Mutant: (layers + 1) // 2 → layers // 2 (survived: every Gemma 2 has an even count). Gemma2's is_sliding =
    not layer_idx % 2: layers 0, 2, …, 40 of 41 — 21 of them; keys a layer (21·4,096 + 20·8,192)/41 =
    249,856/41 = 6,094.05 (not floored to 6,094)."""
    entry = load(tmp_path, config("gemma-2-9b.config.json", num_hidden_layers=41))
    assert entry["window_layers"] == 21
    assert transformer_terms(entry)[3] == pytest.approx((21 * 4096 + 20 * 8192) / 41)


@pytest.mark.parametrize(
    ("name", "change", "said"),
    [
        ("gemma-2-9b.config.json", {"attention_bias": True}, "attention_bias true; allowed: false (the gemma2 form "
         "counted has no biases there)"),
        ("Qwen2.5-0.5B.config.json", {"model_type": "llama", "mlp_bias": True}, "mlp_bias true; allowed: false (the "
         "llama form counted has no biases there)"),
    ],
)  # fmt: skip
def test_a_bias_the_form_has_no_room_for_is_refused(tmp_path, name, change, said):
    """Mutants: FORMS gemma2's no_bias dropped, llama's mlp_bias dropped (both survived: only Gemma's attention_bias
    was tried) — a bias counted as none: Gemma 2 9B's q, k, v, o biases are 42·(4,096 + 2·2,048 + 3,584) parameters."""
    with pytest.raises(DpscaleError, match=re.escape(f"config.json: {said}") + "$"):
        load(tmp_path, config(name, **change))


def test_qwen2_and_phi3_untied_where_the_config_says_nothing(tmp_path):
    """Mutants: FORMS qwen2 / phi3 tied False → True (survived: both files state it). Qwen2Config and Phi3Config
    default tie_word_embeddings to false: the counts stay the checkpoints' 7,615,616,512 and 3,821,079,552 (tied
    would drop the output layer's 152,064·3,584 and 32,064·3,072)."""
    qwen = load(tmp_path, config("Qwen2-7B.config.json", drop=("tie_word_embeddings",)))
    phi = load(tmp_path, config("Phi-3-mini-4k-instruct.config.json", drop=("tie_word_embeddings",)))
    assert (qwen["params"], qwen["tied_embeddings"]) == (7_615_616_512, False)
    assert (phi["params"], phi["tied_embeddings"]) == (3_821_079_552, False)


def test_mixtral_s_sliding_window_is_read(tmp_path):
    """Mutant: FORMS mixtral window "all" → None (survived). Mixtral 8x7B v0.1's config once said sliding_window
    4,096 (MixtralConfig reads it on every layer): the keys a token attends are 4,096 of its 32,768."""
    mixtral = {"model_type": "mixtral", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
               "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 32000,
               "max_position_embeddings": 32768, "sliding_window": 4096}  # fmt: skip
    entry = load(tmp_path, mixtral)
    assert entry["window"] == 4096 and "window_layers" not in entry
    assert transformer_terms(entry)[3] == 4096


def test_qwen2_s_window_defaults(tmp_path):
    """Mutants: use_sliding_window's default false → true; max_window_layers' default 28 → 27; its 0 refused (the
    range from 1); max(0, …) dropped; window_layers 0 read as none (`if model.get("window_layers")`) — all survived.
      - no use_sliding_window: Qwen2Config's false, no window at all.
      - Qwen2-7B (28 layers) without max_window_layers: 28, the window on layers 28.. — none: 131,072 keys.
      - Qwen2.5-0.5B (24 layers) without it: 28 > 24, none (not −4 layers: (−4·4,096 + 28·32,768)/24 = 37,546.7).
      - max_window_layers 0: the window on all 24 layers, 4,096 keys.
      - max_window_layers 24: on none of them, 32,768 keys (not 4,096)."""
    small = "Qwen2.5-0.5B.config.json"
    off = load(tmp_path, config(small, drop=("use_sliding_window",), sliding_window=4096, max_window_layers=21))
    assert "window" not in off and transformer_terms(off)[3] == 32768
    on = {"use_sliding_window": True, "sliding_window": 4096}
    seven = load(tmp_path, config("Qwen2-7B.config.json", drop=("max_window_layers",), **on))
    assert (seven["window_layers"], transformer_terms(seven)[3]) == (0, 131072)
    half = load(tmp_path, config(small, drop=("max_window_layers",), **on))
    assert (half["window_layers"], transformer_terms(half)[3]) == (0, 32768)
    every = load(tmp_path, config(small, max_window_layers=0, **on))
    assert (every["window"], every.get("window_layers"), transformer_terms(every)[3]) == (4096, None, 4096)
    none = load(tmp_path, config(small, max_window_layers=24, **on))
    assert (none["window_layers"], transformer_terms(none)[3]) == (0, 32768)


def test_llama_params_counts_by_hand():
    """llama_params' terms, each by hand (mutants of head_dim, the q width and the bias were killed already; this
    pins a grouped-query Qwen2 shape where q + 2·kv ≠ 3·q): 2 layers, h 64, 8 heads of 8, 2 KV heads, MLP 128,
    vocabulary 100, untied, biases on q, k, v: a layer 2·64·64 + 2·64·16 + (64 + 2·16) + 3·64·128 + 2·64 =
    8,192 + 2,048 + 96 + 24,576 + 128 = 35,040; × 2 = 70,080; + 2·100·64 = 12,800; + 64 = 82,944."""
    assert llama_params(2, 64, 8, 2, 128, 100, False, qkv_bias=True) == 82_944
