"""Review KO: the shape fields review KK added (`attention_width`, `window_layers`) where a user writes them in
models.json's format, the keys a token the FLOPs note says where the window is on some layers alone, and the length
a Phi-3 long-context config was pre-trained at."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import json_file, run

from dpscale.catalog import load_model_file
from dpscale.errors import DpscaleError
from dpscale.formulas.compute import token_flops

HF = Path(__file__).parent / "data" / "hf"
# Gemma 2 9B in models.json's format: its heads 16 × 256 = 4,096 wide on 3,584, the window on 21 of its 42 layers
GEMMA2 = {"kind": "transformer", "params": 9241705984, "layers": 42, "hidden": 3584, "heads": 16, "kv_heads": 8,
          "ffn": 14336, "vocab": 256000, "seq_len": 8192, "window": 4096, "tied_embeddings": True,
          "attention_width": 4096, "window_layers": 21}  # fmt: skip
PREDICT = ("-d", "8", "-b", "1", "--system", "dgx-h100", "--precision", "bf16")


def test_the_shape_fields_in_models_json_s_format_give_the_config_s_flops(capsys, tmp_path):
    # the same FLOPs a token as google/gemma-2-9b's config.json: 55.45 + 12.68 G, 6,144 keys
    mine = load_model_file(json_file(tmp_path, GEMMA2))
    theirs = load_model_file(str(HF / "gemma-2-9b.config.json"))
    assert [round(x / 1e9, 2) for x in token_flops(mine)] == [55.45, 12.68] == [
        round(x / 1e9, 2) for x in token_flops(theirs)]  # fmt: skip
    assert (mine["attention_width"], mine["window_layers"]) == (4096, 21)
    # 8.0 is read as 8, as every whole field
    assert load_model_file(json_file(tmp_path, {**GEMMA2, "window_layers": 21.0}))["window_layers"] == 21


@pytest.mark.parametrize(
    "field, value, allowed",
    [
        ("attention_width", 0, "a whole number from 1 to 10,000,000"),
        ("attention_width", -4096, "a whole number from 1 to 10,000,000"),
        ("attention_width", "4096", "a whole number from 1 to 10,000,000"),
        ("attention_width", True, "a whole number from 1 to 10,000,000"),
        ("attention_width", 4096.5, "a whole number from 1 to 10,000,000"),
        ("attention_width", float("nan"), "a whole number from 1 to 10,000,000"),
        ("attention_width", 1e30, "a whole number from 1 to 10,000,000"),
        ("window_layers", -21, "a whole number from 0 to layers (42)"),
        ("window_layers", 43, "a whole number from 0 to layers (42)"),
        ("window_layers", "abc", "a whole number from 0 to layers (42)"),
        ("window_layers", 21.5, "a whole number from 0 to layers (42)"),
        ("window_layers", float("nan"), "a whole number from 0 to layers (42)"),
        ("window_layers", False, "a whole number from 0 to layers (42)"),
    ],
)
def test_a_bad_shape_field_is_refused_naming_it(capsys, tmp_path, field, value, allowed):
    # before: read unchecked — attention_width -4096 gave attention's 12·L·h·k = -11.27 G a token, window_layers 43
    # -2.8 G (-1,560.38 keys a token), "abc" a TypeError traceback, NaN 'a micro-batch comes to nan s'
    path = json_file(tmp_path, {**GEMMA2, field: value}, "mine.json")
    with pytest.raises(DpscaleError) as e:
        load_model_file(path)
    got = {1e30: "1e+30"}.get(value, json.dumps(value))  # (as the file has it)
    assert str(e.value) == f"--model-file: {path}: model 'mine.json': {field} {got}; allowed: {allowed}"
    rc, out, err = run(capsys, "predict", "--model-file", path, *PREDICT, "--lang", "es")
    es = allowed.replace("a whole number from", "un número entero de").replace(" to ", " a ").replace(",", ".")
    assert (rc, out, err.count("\n")) == (2, "", 1)
    assert err == f"dpscale predict: error: --model-file: {path}: modelo 'mine.json': {field} {got}; se admite: {es}\n"


def test_a_misspelt_shape_field_is_refused_as_any_field_s(capsys, tmp_path):
    path = json_file(tmp_path, {**{k: v for k, v in GEMMA2.items() if k != "attention_width"}, "attention_widht": 4096})
    rc, out, err = run(capsys, "predict", "--model-file", path, *PREDICT)
    assert rc == 2 and "key 'attention_widht' (did you mean 'attention_width'?)" in err


def test_a_cnn_s_shape_fields_are_unread(capsys, tmp_path):
    # a CNN's prediction never reads them, as its 'window' or 'hidden'
    cnn = {"kind": "cnn", "params": 25557032, "fwd_gmacs": 4.11, "attention_width": "n/a", "window_layers": -1}
    assert load_model_file(json_file(tmp_path, cnn))["fwd_gmacs"] == 4.11


@pytest.mark.parametrize(
    "sliding, seq, en, es",
    [  # (5 of 42 layers slide 4,096 of 8,192: 7,704.38 keys; 21 of 42 at 5,001 tokens: 4,548.5; 21 of 42: 6,144)
        (5, None, "15.9 G (7,704.4 keys a token)", "15,9 G (7.704,4 claves por token)"),
        (21, None, "12.68 G (6,144 keys a token)", "12,68 G (6.144 claves por token)"),
        (21, "5001", "9.39 G (4,548.5 keys a token)", "9,39 G (4.548,5 claves por token)"),
    ],
)
def test_the_keys_a_token_are_said_to_a_tenth_where_the_window_is_on_some_layers(capsys, tmp_path, sliding, seq, en,
                                                                                 es):  # fmt: skip
    # before: "(7,704.380952380952 keys a token)", "(7.704,380952380952 claves por token)"
    data = json.loads((HF / "gemma-2-9b.config.json").read_text(encoding="utf-8"))
    data["layer_types"] = ["sliding_attention"] * sliding + ["full_attention"] * (42 - sliding)
    path = json_file(tmp_path, data, "config.json")
    extra = ("--seq-len", seq) if seq else ()
    wide = {  # (Gemma 2 9B's attention is 16 × 256 = 4,096 wide, its hidden size 3,584: the term says w, review KX)
        "en": "w = 4,096, the attention's width, heads × head_dim, not the hidden size, 3,584; ",
        "es": "w = 4.096, el ancho de la atención, cabezas × head_dim, no el tamaño oculto, 3.584; ",
    }
    for lang, said in (("en", en), ("es", es)):
        rc, out, err = run(capsys, "predict", "--model-file", path, *PREDICT, *extra, "--lang", lang)
        assert rc == 0 and f"= {said.replace(' (', ' (' + wide[lang])} = " in out + err


# microsoft/Phi-3.5-mini-instruct's config.json as the hub publishes it (its rope_scaling's 48 factors a list each,
# shortened here: unread): Phi3Config keeps the length it was pre-trained at, 4,096, beside rope_scaling, not in it
PHI35 = {"architectures": ["Phi3ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1, "embd_pdrop": 0.0,
         "eos_token_id": 32000, "hidden_act": "silu", "hidden_size": 3072, "initializer_range": 0.02,
         "intermediate_size": 8192, "max_position_embeddings": 131072, "model_type": "phi3",
         "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32,
         "original_max_position_embeddings": 4096, "pad_token_id": 32000, "resid_pdrop": 0.0, "rms_norm_eps": 1e-05,
         "rope_scaling": {"long_factor": [1.0800000429153442], "short_factor": [1.0], "type": "longrope"},
         "rope_theta": 10000.0, "sliding_window": 262144, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
         "use_cache": True, "vocab_size": 32064}  # fmt: skip


def test_a_phi3_long_context_config_is_read_at_the_length_it_was_pre_trained_at(capsys, tmp_path):
    # before: 131,072 tokens, 22.34 + 154.6 G a token (16× the activations, 7.9× the FLOPs a token of 4,096's)
    path = json_file(tmp_path, PHI35, "config.json")
    entry = load_model_file(path)
    assert (entry["params"], entry["seq_len"], entry["hf_context"]) == (3_821_079_552, 4096, 131072)
    assert [round(x / 1e9, 2) for x in token_flops(entry)] == [22.34, 4.83]
    rc, out, err = run(capsys, "predict", "--model-file", path, *PREDICT)
    assert rc == 0 and (
        "its sequence is original_max_position_embeddings, 4,096 tokens, the length it was pre-trained at "
        "(max_position_embeddings, 131,072, is the context its RoPE scaling extends it to; --seq-len sets another)"
    ) in out  # fmt: skip
    rc, out, err = run(capsys, "predict", "--model-file", path, *PREDICT, "--lang", "es")
    assert rc == 0 and "su secuencia es original_max_position_embeddings, 4.096 tokens, la longitud" in out
    rc, out, err = run(capsys, "predict", "--model-file", path, *PREDICT, "--seq-len", "8192")
    said = "its sequence is --seq-len's, 8,192 tokens (the config's is original_max_position_embeddings, 4,096)"
    assert rc == 0 and said in out
    # a 4k config's equal lengths, and one without rope_scaling, read max_position_embeddings as before
    four_k = load_model_file(str(HF / "Phi-3-mini-4k-instruct.config.json"))
    assert (four_k["seq_len"], "hf_context" in four_k) == (4096, False)
    plain = load_model_file(json_file(tmp_path, {**PHI35, "rope_scaling": None}, "plain.json"))
    assert (plain["seq_len"], "hf_context" in plain) == (131072, False)


@pytest.mark.parametrize("original", [0, -1, "4096", 4096.5, True])
def test_a_phi3_malformed_original_length_is_refused_naming_it(tmp_path, original):
    path = json_file(tmp_path, {**PHI35, "original_max_position_embeddings": original}, "config.json")
    with pytest.raises(DpscaleError) as e:
        load_model_file(path)
    assert str(e.value).startswith(f"--model-file: {path}: original_max_position_embeddings {json.dumps(original)}; "
                                   "allowed: a whole number from 1 to")  # fmt: skip


@pytest.mark.parametrize(
    "name, recompute, before, after",
    [  # Korthikanti's layer at micro-batch 1, 8,192 tokens, 16-bit: s·b·(34h + 5as) before; 8sbh of it, Q, K, V and
        # the output projection's input, are heads × head_dim wide: s·b·(26h + 8w + 5as) after
        ("gemma-7b.config.json", "none", 174_281_719_808, 176_160_768_000),  # w 4,096 on 3,072: +1.08 %
        ("gemma-7b.config.json", "selective", 23_957_864_448, 25_836_912_640),  # +7.84 %
        ("gemma-2-9b.config.json", "selective", 41_926_262_784, 43_335_548_928),  # w 4,096 on 3,584: +3.36 %
    ],
)
def test_memory_s_activations_take_the_attention_s_width(capsys, tmp_path, name, recompute, before, after):
    from dpscale.formulas.memory import Shape, activation_bytes

    entry = load_model_file(str(HF / name))
    hidden_only = Shape(entry["layers"], entry["hidden"], entry["heads"], 8192)
    assert activation_bytes(hidden_only, 1, recompute=recompute) == before  # a preset's, unchanged
    assert round(activation_bytes(Shape.of(entry), 1, recompute=recompute)) == after  # (8w/h: 9.14… on 3,584)
    rc, out, err = run(capsys, "memory", "--model-file", str(HF / name), "-d", "8", "--recompute", recompute, "--json")
    assert rc == 0 and {round(r["activation_bytes_per_device"]) for r in json.loads(out)} == {after}


def test_mistral_nemo_s_narrower_attention_is_counted_in_its_activations_and_largest_layer(tmp_path):
    # mistralai/Mistral-Nemo-Base-2407: 32 heads of 128 = 4,096 on 5,120 (its count 12,247,782,400, the checkpoint's)
    from dpscale.formulas.memory import Shape, activation_bytes, largest_layer_params

    nemo = {"model_type": "mistral", "hidden_size": 5120, "num_hidden_layers": 40, "num_attention_heads": 32,
            "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 14336, "vocab_size": 131072,
            "max_position_embeddings": 1024000, "tie_word_embeddings": False, "sliding_window": None}  # fmt: skip
    entry = load_model_file(json_file(tmp_path, nemo, "config.json"))
    assert (entry["params"], entry["attention_width"]) == (12_247_782_400, 4096)
    shape = Shape.of(entry, 8192)
    # selective: s·b·(26·5,120 + 8·4,096) × 40 = 54.36 GB, not s·b·34·5,120 × 40 = 57.04 GB (4.7 % over)
    assert round(activation_bytes(shape, 1, recompute="selective")) == 54_358_179_840
    # the fused q, k, v: 5,120 × (4,096 + 2 × 1,024), not 5,120 × (5,120 + 2 × 1,280); the MLP's h × f is larger
    assert largest_layer_params(shape, None, 2048) == 5120 * 6144


@pytest.mark.parametrize(
    "extra",
    [{"mlp": 42}, {"mlp": None}, {"mlp": {"a": 1}}, {"mlp": "GeGLU"},
     {"hf_model_type": 42, "hf_context": "abc"}, {"hf_model_type": "llama"}],
)  # fmt: skip
def test_the_keys_a_config_json_gives_an_entry_are_not_read_from_models_json_s_format(capsys, tmp_path, extra):
    """Review LD: review KX's 'mlp' (the gated MLP catalog.hf reads from a config's hidden_act), like 'hf_model_type'
    and 'hf_context' before it, was read from a file of models.json's format as written: Gemma 2 9B's entry with
    "mlp": 42 said 'has no attention dropout and a 42 MLP' (null 'a None MLP', {"a": 1} "a {'a': 1} MLP"), with
    "hf_model_type": 42, "hf_context": "abc" 'a Hugging Face config (42): … (model hf form 42) …
    (max_position_embeddings, abc, …)', and with "hf_model_type": "llama" that its count, given in the file, was
    derived from its shape. Such a key describes the entry, as any other key far from the fields does: memory and
    predict say what they say without it, byte for byte."""
    plain = json_file(tmp_path, {**GEMMA2, "attention_dropout": False}, "plain.json")
    keyed = json_file(tmp_path, {**GEMMA2, "attention_dropout": False, **extra}, "keyed.json")
    for argv in (["memory", "--gpu", "h100", "-d", "8"], ["predict", *PREDICT]):
        for lang in ("en", "es"):
            want = run(capsys, *argv, "--model-file", plain, "--lang", lang)
            got = run(capsys, *argv, "--model-file", keyed, "--lang", lang)
            assert got[0] == want[0] == 0 and got[1].replace("keyed.json", "plain.json") == want[1], got
    out = run(capsys, "memory", "--gpu", "h100", "-d", "8", "--model-file", keyed)[1]
    assert "keyed.json has no attention dropout and a SwiGLU MLP" in out and "Hugging Face" not in out, out
