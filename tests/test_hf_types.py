"""Review KK: --model-file reads the Hugging Face config.json of Qwen2, Gemma, Gemma 2 and Phi-3 (catalog.hf), whose
configs were refused ("model_type 'qwen2'; allowed: llama, mistral or mixtral"): each count derived from the shape,
to the parameter of its checkpoint, and every figure dpscale prints for them (the FLOPs a token, memory's states)
from that shape.

tests/data/hf/ holds each config.json as the hub publishes it (the hub id below). The checkpoints' counts, checked
against published sources:
  Qwen/Qwen2-7B                        7,615,616,512  its model.safetensors.index.json total_size 15,231,233,024
                                                      bytes ÷ 2 (bf16); keras-hub qwen_presets.py's 7615616512
  Qwen/Qwen2.5-0.5B                      494,032,768  keras-hub qwen_presets.py ("qwen2.5_0.5b_en")
  google/gemma-7b                      8,537,680,896  keras-hub gemma_presets.py ("gemma_7b_en")
  google/gemma-2-9b                    9,241,705,984  its model.safetensors.index.json total_size 18,483,411,968
                                                      bytes ÷ 2 (bf16 shards)
  microsoft/Phi-3-mini-4k-instruct     3,821,079,552  its model.safetensors.index.json total_size 7,642,159,104
                                                      bytes ÷ 2 (bf16); keras-hub phi3_presets.py
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import json_file, run

from dpscale.catalog import load_model_file
from dpscale.errors import DpscaleError
from dpscale.formulas.compute import token_flops, transformer_terms

HF = Path(__file__).parent / "data" / "hf"
CHECKPOINTS = {  # file: (hub id, the checkpoint's parameters)
    "Qwen2-7B.config.json": ("Qwen/Qwen2-7B", 7_615_616_512),
    "Qwen2.5-0.5B.config.json": ("Qwen/Qwen2.5-0.5B", 494_032_768),
    "gemma-7b.config.json": ("google/gemma-7b", 8_537_680_896),
    "gemma-2-9b.config.json": ("google/gemma-2-9b", 9_241_705_984),
    "Phi-3-mini-4k-instruct.config.json": ("microsoft/Phi-3-mini-4k-instruct", 3_821_079_552),
}


def config(name: str, drop: tuple[str, ...] = (), **change: object) -> dict:
    """A checkpoint's config.json, without the keys in drop and with change's values."""
    data = json.loads((HF / name).read_text(encoding="utf-8"))
    return {**{k: v for k, v in data.items() if k not in drop}, **change}


@pytest.mark.parametrize("name", sorted(CHECKPOINTS))
def test_each_config_gives_its_checkpoint_s_count_to_the_parameter(name):
    hub, count = CHECKPOINTS[name]
    entry = load_model_file(str(HF / name))
    assert entry["params"] == count, hub
    assert entry["hf_model_type"] == config(name)["model_type"]


def test_the_shapes_read_are_the_configs():
    """What each count and FLOPs estimate read from the file: Gemma's 16 heads of 256 (4,096 wide on 3,072, and
    tied, as GemmaConfig defaults); Gemma 2's window of 4,096 on 21 of its 42 layers; Phi-3's window of 2,047 on all;
    Qwen2's sliding_window ignored, as use_sliding_window is false; Qwen2.5-0.5B tied, Qwen2-7B not."""
    got = {name: load_model_file(str(HF / name)) for name in CHECKPOINTS}
    keys = ("seq_len", "window", "window_layers", "attention_width", "tied_embeddings", "kv_heads")
    shape = {name: tuple(e.get(k) for k in keys) for name, e in got.items()}
    assert shape == {
        "Qwen2-7B.config.json": (131072, None, None, None, False, 4),
        "Qwen2.5-0.5B.config.json": (32768, None, None, None, True, 2),
        "gemma-7b.config.json": (8192, None, None, 4096, True, None),
        "gemma-2-9b.config.json": (8192, 4096, 21, 4096, True, 8),
        "Phi-3-mini-4k-instruct.config.json": (4096, 2047, None, None, False, None),
    }


def test_the_flops_a_token_follow_from_the_counted_shape():
    """6·N, and attention's 12·L·w·k with w the queries' width (heads × head_dim) and k the keys a token attends,
    averaged over the layers: Gemma 7B's 12·28·4,096·8,192 (not 3,072 wide: 25 % less); Gemma 2 9B's 21 layers at
    4,096 keys and 21 at 8,192, 6,144 a layer (not 8,192: a third more); Phi-3 mini's 2,047 keys."""
    flops = {name: token_flops(load_model_file(str(HF / name))) for name in CHECKPOINTS}
    assert flops["gemma-7b.config.json"] == (6.0 * 8_537_680_896, 12.0 * 28 * 4096 * 8192)
    assert flops["gemma-2-9b.config.json"] == (6.0 * 9_241_705_984, 12.0 * 42 * 4096 * 6144)
    assert transformer_terms(load_model_file(str(HF / "gemma-2-9b.config.json")))[3] == 6144
    # Phi-3 and Qwen2-7B untied: their input embedding's V·h is a lookup, left out of the 6·N
    assert flops["Phi-3-mini-4k-instruct.config.json"] == (6.0 * (3_821_079_552 - 32064 * 3072),
                                                            12.0 * 32 * 3072 * 2047)  # fmt: skip
    assert flops["Qwen2-7B.config.json"] == (6.0 * (7_615_616_512 - 152064 * 3584), 12.0 * 28 * 3584 * 131072)
    assert flops["Qwen2.5-0.5B.config.json"] == (6.0 * 494_032_768, 12.0 * 24 * 896 * 32768)


def test_predict_says_those_figures_in_both_languages(capsys):
    path = str(HF / "gemma-2-9b.config.json")
    argv = ("predict", "--model-file", path, "--system", "dgx-h100", "-d", "8", "--precision", "bf16", "--batch", "1")
    rc, out, err = run(capsys, *argv)
    said = out + err
    assert rc == 0, err
    assert ("note: gemma-2-9b.config.json: a Hugging Face config (gemma2): its 9.242 B parameters are counted from "
            "its shape (Gemma 2's: Gemma's form with four RMSNorms a layer, the output layer tied or not as it says)"
            ) in said  # fmt: skip
    assert ("6·N = 55.45 G (N = 9,241,705,984 parameters) + attention's 12·L·w·k = 12.68 G (w = 4,096, the attention's "
            "width, heads × head_dim, not the hidden size, 3,584; 6,144 keys a token) = 68.13 G") in said  # fmt: skip
    assert "compute estimated: 558.2 TFLOP per micro-batch" in said  # 68.13 G × 8,192 tokens
    rc, out, err = run(capsys, *argv, "--lang", "es")
    said = out + err
    assert (
        rc == 0
        and "sus 9,242 mil millones de parámetros se cuentan a partir de su forma (la de Gemma 2: la de " in said
    )
    assert ("6·N = 55,45 G (N = 9.241.705.984 parámetros) + los 12·L·w·k de la atención = 12,68 G (w = 4.096, el "
            "ancho de la atención, cabezas × head_dim, no el tamaño oculto, 3.584; 6.144 claves") in said  # fmt: skip


NEMO = {"model_type": "mistral", "hidden_size": 5120, "num_hidden_layers": 40, "num_attention_heads": 32,
        "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 14336, "vocab_size": 131072,
        "max_position_embeddings": 8192, "tie_word_embeddings": False, "sliding_window": None}  # fmt: skip


@pytest.mark.parametrize(
    ("data", "seq", "en", "es"),
    [
        (config("gemma-7b.config.json"), (),
         "attention's 12·L·w·k = 11.27 G (w = 4,096, the attention's width, heads × head_dim, not the hidden size, "
         "3,072; 8,192 keys a token) = 62.5 G",
         "los 12·L·w·k de la atención = 11,27 G (w = 4.096, el ancho de la atención, cabezas × head_dim, no el "
         "tamaño oculto, 3.072; 8.192 claves por token) = 62,5 G"),
        (config("Qwen2.5-0.5B.config.json"), (),  # (queries as wide as the hidden size: h, as every preset's)
         "attention's 12·L·h·k = 8.456 G (32,768 keys a token) = 11.42 G",
         "los 12·L·h·k de la atención = 8,456 G (32.768 claves por token) = 11,42 G"),
        # Review LF's mutants: 'flops_per_token_untied' and 'flops_per_token_untied_more' left out of notes.py's
        # '_wide' loop, and of notes_es.py's (4 mutants, all survived the cases above: Gemma is tied, Qwen's width is
        # its hidden size; a KeyError there). Mistral Nemo (mistralai/Mistral-Nemo-Base-2407's shape, untied: 32
        # heads of 128 = 4,096 on a hidden size of 5,120), at 8,192 keys (attention outweighs the embedding's 6·V·h)
        # and at 1,024 (it does not).
        # 12·40·4,096·8,192 = 16.11 G; 6 × 11,576,693,760 = 69.46 G; 6 × all 12,247,782,400 = 73.49 G, 14.1 % under
        (NEMO, ("--seq-len", "8192"),
         "+ attention's 12·L·w·k = 16.11 G (w = 4,096, the attention's width, heads × head_dim, not the hidden size, "
         "5,120; 8,192 keys a token) = 85.57 G; 6 × all 12,247,782,400 parameters a token passes through alone counts "
         "14.1 % fewer",
         "+ los 12·L·w·k de la atención = 16,11 G (w = 4.096, el ancho de la atención, cabezas × head_dim, no el "
         "tamaño oculto, 5.120; 8.192 claves por token) = 85,57 G; 6 × todos los 12.247.782.400 parámetros por los "
         "que pasa un token solo cuenta un 14,1 % menos"),
        # 12·40·4,096·1,024 = 2.013 G; 73.49 / 71.47 = 1.028: 6·N of all counts 2.82 % more
        (NEMO, ("--seq-len", "1024"),
         "+ attention's 12·L·w·k = 2.013 G (w = 4,096, the attention's width, heads × head_dim, not the hidden size, "
         "5,120; 1,024 keys a token) = 71.47 G; 6 × all 12,247,782,400 parameters a token passes through alone counts "
         "2.82 % more",
         "+ los 12·L·w·k de la atención = 2,013 G (w = 4.096, el ancho de la atención, cabezas × head_dim, no el "
         "tamaño oculto, 5.120; 1.024 claves por token) = 71,47 G; 6 × todos los 12.247.782.400 parámetros por los "
         "que pasa un token solo cuenta un 2,82 % más"),
    ],
)  # fmt: skip
def test_the_flops_note_names_the_attention_s_width_where_it_is_not_the_hidden_size(capsys, tmp_path, data, seq, en,
                                                                                      es):  # fmt: skip
    """Review KX: Gemma 7B's note said 'attention's 12·L·h·k = 11.27 G (8,192 keys a token)', where h reads as its
    hidden size, 3,072 (12·28·3,072·8,192 = 8.456 G): the 11.27 G is at the queries' width, 16 × 256 = 4,096
    (token_flops). The term says w and its width where they differ; no figure changes."""
    argv = ("predict", "--model-file", json_file(tmp_path, data), "--system", "dgx-h100", "-d", "8", "--precision",
            "bf16", "--batch", "1", *seq)  # fmt: skip
    for lang, said in (("en", en), ("es", es)):
        rc, out, err = run(capsys, *argv, "--lang", lang)
        assert rc == 0 and said in " ".join((out + err).split()), out + err


def test_memory_s_model_states_are_the_counted_parameters(capsys, tmp_path):
    """memory's states are bytes a parameter × the count: Qwen2.5-0.5B's 494,032,768 at bf16 Adam, ZeRO-0, 8 bytes
    a parameter (2 + 2 + 4: weights, gradients, Adam's moments) = 3,952,262,144 — every row as a models.json entry
    of that count and shape (a file of the same name) gives it."""
    argv = ("memory", "--gpu", "h100", "-d", "8", "--precision", "bf16", "--json", "--model-file")
    rc, out, err = run(capsys, *argv, str(HF / "Qwen2.5-0.5B.config.json"))
    assert rc == 0, err
    rows = json.loads(out)
    assert rows[0]["params"] == 494_032_768 and rows[0]["model_state_bytes_per_device"] == 8 * 494_032_768
    entry = {"kind": "transformer", "params": 494032768, "layers": 24, "hidden": 896, "heads": 14, "kv_heads": 2,
             "ffn": 4864, "vocab": 151936, "seq_len": 32768, "tied_embeddings": True}  # fmt: skip
    rc, out, err = run(capsys, *argv, json_file(tmp_path, entry, "Qwen2.5-0.5B.config.json"))
    assert rc == 0, err
    assert json.loads(out) == rows


def test_qwen2_s_window_is_read_where_use_sliding_window_turns_it_on(tmp_path):
    """Qwen2Config: the window only with use_sliding_window, on the layers from max_window_layers on (21 of
    Qwen2.5-0.5B's 24: 3 layers); transformers' layer_types (4.53 on) names them itself."""
    qwen = config("Qwen2.5-0.5B.config.json")
    on = load_model_file(json_file(tmp_path, dict(qwen, use_sliding_window=True, sliding_window=4096,
                                              max_window_layers=21)))  # fmt: skip
    assert (on["window"], on["window_layers"], on["params"]) == (4096, 3, 494_032_768)
    assert transformer_terms(on)[3] == (21 * 32768 + 3 * 4096) / 24  # 29,184 keys a layer
    kinds = ["full_attention"] * 20 + ["sliding_attention"] * 4
    four = load_model_file(
        json_file(tmp_path, dict(qwen, use_sliding_window=True, sliding_window=4096, layer_types=kinds))
    )
    assert four["window_layers"] == 4
    none = load_model_file(json_file(tmp_path, dict(qwen, use_sliding_window=True, max_window_layers=24)))
    assert transformer_terms(none)[3] == 32768  # every layer full: the window on none of them


def test_a_key_left_out_takes_its_config_class_s_default(tmp_path):
    """GemmaConfig's head_dim 256 and tied embeddings; MixtralConfig's 8 experts and 2 a token (a Mixtral config
    without num_experts_per_tok was refused: transformers reads it as 2)."""
    gemma = {k: v for k, v in config("gemma-7b.config.json").items() if k != "head_dim"}
    assert load_model_file(json_file(tmp_path, gemma))["params"] == 8_537_680_896
    mixtral = {"model_type": "mixtral", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
               "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 32000,
               "max_position_embeddings": 32768}  # fmt: skip
    entry = load_model_file(json_file(tmp_path, mixtral))
    assert (entry["params"], entry["active_params"]) == (46_702_792_704, 12_879_925_248)
    assert load_model_file(json_file(tmp_path, dict(mixtral, num_experts_per_tok=1)))["active_params"] < 12e9
    # a Llama config with its own head_dim (LlamaConfig reads one): q, o 4,096 × 2,048, k, v 4,096 × 512
    llama = dict(mixtral, model_type="llama", head_dim=64)
    h, q, kv = 4096, 32 * 64, 8 * 64
    layer = 2 * h * q + 2 * h * kv + 3 * h * 14336 + 2 * h
    assert load_model_file(json_file(tmp_path, llama))["params"] == 32 * layer + 2 * 32000 * h + h


@pytest.mark.parametrize(
    ("change", "en", "es"),
    [
        ({"model_type": "gemma", "attention_bias": True}, "attention_bias true; allowed: false (the gemma form counted "
         "has no biases there)", "attention_bias true; se admite: false (la forma de gemma que se cuenta no tiene "
         "sesgos ahí)"),
        ({"use_sliding_window": "yes"}, 'use_sliding_window "yes"; allowed: true or false',
         'use_sliding_window "yes"; se admite: true o false'),
        ({"use_sliding_window": True, "max_window_layers": -1}, "max_window_layers -1; allowed: a whole number from 0 "
         "to 10,000,000", "max_window_layers -1; se admite: un número entero de 0 a 10.000.000"),
        ({"use_sliding_window": True, "layer_types": ["full_attention"]}, 'layer_types ["full_attention"]; allowed: a '
         'list of num_hidden_layers (24) entries, each "full_attention" or "sliding_attention"',
         'layer_types ["full_attention"]; se admite: una lista de num_hidden_layers (24) entradas, cada una '
         '"full_attention" o "sliding_attention"'),
        ({"head_dim": 0}, "head_dim 0; allowed: a whole number from 1 to 10,000,000",
         "head_dim 0; se admite: un número entero de 1 a 10.000.000"),
        ({"num_attention_heads": 15, "num_key_value_heads": 15}, "num_attention_heads 15; allowed: a divisor of "
         "hidden_size (896), or a head_dim beside it (each head's width)", "num_attention_heads 15; se admite: un "
         "divisor de hidden_size (896), o un head_dim junto a él (el ancho de cada cabeza)"),
        ({"model_type": "gemma3_text"}, 'model_type "gemma3_text"; allowed: llama, mistral, mixtral, qwen2, gemma, '
         "gemma2 or phi3 (a Hugging Face config whose count its shape gives), or models.json's fields",
         'model_type "gemma3_text"; se admite: llama, mistral, mixtral, qwen2, gemma, gemma2 o phi3 (una '
         "configuración de Hugging Face cuyo número de parámetros da su forma), o los campos de models.json"),
    ],
)  # fmt: skip
def test_a_config_the_form_cannot_count_is_refused_in_one_line(capsys, tmp_path, change, en, es):
    path = json_file(tmp_path, {**config("Qwen2.5-0.5B.config.json"), **change})
    with pytest.raises(DpscaleError):
        load_model_file(path)
    for command in (("predict", "--system", "dgx-h100"), ("memory", "--gpu", "h100")):
        for lang, said in (("en", en), ("es", es)):
            rc, out, err = run(capsys, *command, "-d", "8", "--model-file", path, "--lang", lang)
            assert (rc, out, err.count("\n")) == (2, "", 1), err
            assert f"--model-file: {path}: {said}" in err, err


ACTS = ("hidden_act", "hidden_activation")


@pytest.mark.parametrize(
    ("data", "mlp"),
    [
        (config("gemma-7b.config.json"), "GeGLU"),  # (GemmaMLP: hidden_activation, else gelu_pytorch_tanh)
        (config("gemma-2-9b.config.json"), "GeGLU"),
        (config("Qwen2.5-0.5B.config.json"), "SwiGLU"),  # hidden_act silu
        (config("Qwen2.5-0.5B.config.json", hidden_act="gelu_new"), "GeGLU"),  # (Qwen2MLP: ACT2FN[hidden_act])
        (config("Qwen2.5-0.5B.config.json", hidden_act="relu"), "GLU (relu)"),
        # Review LF's mutants (each survived the cases above):
        # FORMS gemma's act gelu_pytorch_tanh → silu (gemma-7b's file says hidden_act gelu). GemmaConfig's default
        # is gelu_pytorch_tanh: a GeGLU MLP
        (config("gemma-7b.config.json", drop=ACTS), "GeGLU"),
        # FORMS gemma2's act → silu (gemma-2-9b's file states both keys)
        (config("gemma-2-9b.config.json", drop=ACTS), "GeGLU"),
        # the default of a form without one, silu → gelu. Qwen2Config's hidden_act is silu
        (config("Qwen2.5-0.5B.config.json", drop=ACTS), "SwiGLU"),
        # ("silu", "swish") → ("silu",). transformers' ACT2FN reads swish as SiLU
        (config("Qwen2.5-0.5B.config.json", hidden_act="swish"), "SwiGLU"),
        # hidden_act read before hidden_activation, and hidden_activation not read at all (Gemma 2 9B's file says
        # gelu_pytorch_tanh in both). Gemma2MLP runs ACT2FN[config.hidden_activation]
        (config("gemma-2-9b.config.json", hidden_act="silu", hidden_activation="gelu"), "GeGLU"),
        # the name's isidentifier() check dropped: a file's text with a line break in it is not echoed into the
        # note as a line of its own
        (config("Qwen2.5-0.5B.config.json", hidden_act="relu\nnote: fake"), "GLU"),
        # isinstance(act, str) dropped before act.startswith: a number there was a traceback ('int' object has no
        # attribute 'startswith'), not a note
        (config("Qwen2.5-0.5B.config.json", hidden_act=5), "GLU"),
    ],
)
def test_memory_s_activation_note_names_the_config_s_gated_mlp(capsys, tmp_path, data, mlp):
    """Review KX: `dpscale memory --model-file gemma-7b.config.json` said 'has no attention dropout and a SwiGLU MLP'
    and 'the SwiGLU MLP keeps four f-wide tensors', of a GeGLU MLP (gelu_pytorch_tanh): the note names the gated MLP
    the config's activation makes (read from hidden_activation, hidden_act or its class's default: review LF). Its
    tensors are as many (gate, activation, up, product): no figure changes — the activations and states are the
    --json the same config gave before the change."""
    path = json_file(tmp_path, data)
    argv = ("memory", "--model-file", path, "--gpu", "h100", "-d", "8", "--seq-len", "128")
    for lang, said in (
        ("en", f"has no attention dropout and a {mlp} MLP: "),
        ("es", f"no tiene dropout de atención y su MLP es {mlp}: "),
    ):
        rc, out, err = run(capsys, *argv, "--lang", lang)
        out = " ".join(out.split())
        assert (rc, err) == (0, ""), err
        assert said in out, out
        assert f"the {mlp} MLP's extra tensors" in out if lang == "en" else f"que el MLP {mlp} añade" in out, out
        assert f"the {mlp} MLP keeps four" in out if lang == "en" else f"el MLP {mlp} guarda cuatro" in out, out
        assert ("SwiGLU" in out) == (mlp == "SwiGLU"), out
        assert "fake" not in out
