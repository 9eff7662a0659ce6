"""Review LF (mutation pass over today's source lines): the gated MLP memory's note names (catalog.hf._gated, read
from a config's hidden_activation, hidden_act or its class's default), the '_wide' FLOPs notes of an untied model,
and a true written for a CNN's fwd_gmacs — each test below failed against a hand-made mutant (named in its
docstring) and passes on the source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import json_file, run

from dpscale import catalog

HF = Path(__file__).parent / "data" / "hf"


def config(name: str, drop: tuple[str, ...] = (), **change: object) -> dict:
    data = json.loads((HF / name).read_text(encoding="utf-8"))
    return {**{k: v for k, v in data.items() if k not in drop}, **change}


ACTS = ("hidden_act", "hidden_activation")


@pytest.mark.parametrize(
    ("data", "mlp"),
    [
        # Mutant: FORMS gemma's act gelu_pytorch_tanh → silu (survived: gemma-7b's file says hidden_act gelu).
        # GemmaConfig's default is gelu_pytorch_tanh: a GeGLU MLP
        (config("gemma-7b.config.json", drop=ACTS), "GeGLU"),
        # Mutant: FORMS gemma2's act → silu (survived: gemma-2-9b's file states both keys)
        (config("gemma-2-9b.config.json", drop=ACTS), "GeGLU"),
        # Mutant: the default of a form without one, silu → gelu (survived). Qwen2Config's hidden_act is silu
        (config("Qwen2.5-0.5B.config.json", drop=ACTS), "SwiGLU"),
        # Mutant: ("silu", "swish") → ("silu",) (survived). transformers' ACT2FN reads swish as SiLU
        (config("Qwen2.5-0.5B.config.json", hidden_act="swish"), "SwiGLU"),
        # Mutants: hidden_act read before hidden_activation, and hidden_activation not read at all (both survived:
        # Gemma 2 9B's file says gelu_pytorch_tanh in both). Gemma2MLP runs ACT2FN[config.hidden_activation]
        (config("gemma-2-9b.config.json", hidden_act="silu", hidden_activation="gelu"), "GeGLU"),
        # Mutant: the name's isidentifier() check dropped (survived): a file's text with a line break in it is not
        # echoed into the note as a line of its own
        (config("Qwen2.5-0.5B.config.json", hidden_act="relu\nnote: fake"), "GLU"),
        # Mutant: isinstance(act, str) dropped before act.startswith (survived): a number there was a traceback
        # ('int' object has no attribute 'startswith'), not a note
        (config("Qwen2.5-0.5B.config.json", hidden_act=5), "GLU"),
    ],
)
def test_the_gated_mlp_is_the_one_the_config_s_activation_makes(capsys, tmp_path, data, mlp):
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
        assert f"the {mlp} MLP keeps four" in out if lang == "en" else f"el MLP {mlp} guarda cuatro" in out, out
        assert "fake" not in out


NEMO = {"model_type": "mistral", "hidden_size": 5120, "num_hidden_layers": 40, "num_attention_heads": 32,
        "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 14336, "vocab_size": 131072,
        "max_position_embeddings": 8192, "tie_word_embeddings": False, "sliding_window": None}  # fmt: skip


@pytest.mark.parametrize(
    ("seq", "en", "es"),
    [
        # 12·40·4,096·8,192 = 16.11 G; 6 × 11,576,693,760 = 69.46 G; 6 × all 12,247,782,400 = 73.49 G, 14.1 % under
        ("8192",
         "+ attention's 12·L·w·k = 16.11 G (w = 4,096, the attention's width, heads × head_dim, not the hidden size, "
         "5,120; 8,192 keys a token) = 85.57 G; 6 × all 12,247,782,400 parameters a token passes through alone counts "
         "14.1 % fewer",
         "+ los 12·L·w·k de la atención = 16,11 G (w = 4.096, el ancho de la atención, cabezas × head_dim, no el "
         "tamaño oculto, 5.120; 8.192 claves por token) = 85,57 G; 6 × todos los 12.247.782.400 parámetros por los "
         "que pasa un token solo cuenta un 14,1 % menos"),
        # 12·40·4,096·1,024 = 2.013 G; 73.49 / 71.47 = 1.028: 6·N of all counts 2.82 % more
        ("1024",
         "+ attention's 12·L·w·k = 2.013 G (w = 4,096, the attention's width, heads × head_dim, not the hidden size, "
         "5,120; 1,024 keys a token) = 71.47 G; 6 × all 12,247,782,400 parameters a token passes through alone counts "
         "2.82 % more",
         "+ los 12·L·w·k de la atención = 2,013 G (w = 4.096, el ancho de la atención, cabezas × head_dim, no el "
         "tamaño oculto, 5.120; 1.024 claves por token) = 71,47 G; 6 × todos los 12.247.782.400 parámetros por los "
         "que pasa un token solo cuenta un 2,82 % más"),
    ],
)  # fmt: skip
def test_an_untied_model_s_flops_note_names_the_attention_s_width_too(capsys, tmp_path, seq, en, es):
    """Mutants: 'flops_per_token_untied' and 'flops_per_token_untied_more' left out of notes.py's '_wide' loop, and
    of notes_es.py's (4 mutants, all survived: the tests named Gemma, tied, and Qwen, whose width is its hidden size;
    a KeyError there). Mistral Nemo (mistralai/Mistral-Nemo-Base-2407's shape, untied: 32 heads of 128 = 4,096 on
    a hidden size of 5,120), at 8,192 keys (attention outweighs the embedding's 6·V·h) and at 1,024 (it does not)."""
    path = json_file(tmp_path, NEMO)
    argv = ("predict", "--model-file", path, "--system", "dgx-h100", "-d", "8", "--precision", "bf16", "--batch", "1")
    for lang, said in (("en", en), ("es", es)):
        rc, out, err = run(capsys, *argv, "--seq-len", seq, "--lang", lang)
        assert rc == 0 and said in " ".join((out + err).split()), out + err


def test_a_cnn_s_fwd_gmacs_written_true_is_refused(capsys, tmp_path):
    """Mutant: checked_model's number lambda without `not isinstance(v, bool)` (survived): JSON's true is Python's 1,
    inside fwd_gmacs's (0, 1e15], so ResNet-50 with 'fwd_gmacs': true was read as 1 GMAC an image (its own: 4.09)."""
    models = json.loads((Path(catalog.__file__).parent / "models.json").read_text(encoding="utf-8"))["models"]
    path = json_file(tmp_path, dict(models["resnet50"], fwd_gmacs=True), "macs.json")
    for lang, said in (
        ("en", "model 'macs.json': fwd_gmacs true; allowed: forward GMACs an image, a number > 0, at most 1e+15"),
        ("es", "modelo 'macs.json': fwd_gmacs true; se admite: GMAC hacia delante por imagen, un número > 0, como "
               "mucho 1e+15"),
    ):  # fmt: skip
        rc, out, err = run(capsys, "predict", "--model-file", path, "--system", "dgx-a100", "-d", "8", "--lang", lang)
        assert (rc, out, err.count("\n")) == (2, "", 1) and said in err, err
