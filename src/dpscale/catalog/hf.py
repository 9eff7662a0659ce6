"""A Hugging Face config.json read as a models.json entry (--model-file): the types whose count its shape gives to the
parameter, each checked against its checkpoint's (tests/test_hf_types.py).

Every type is Llama's block — q, k, v, o projections, a gated MLP of three h × intermediate_size matrices, RMSNorm —
with what its transformers class builds beside it (FORMS): Qwen2's biases on q, k and v; Gemma's heads head_dim wide
(16 × 256 = 4,096 on a 3,072-wide Gemma 7B) and GeGLU (as many parameters as SwiGLU); Gemma 2's two more norms a
layer and its sliding window on every other layer; Phi-3's q, k, v and gate, up fused (the same matrices, so the same
count). A key a config leaves out takes its config class's default (GemmaConfig's head_dim 256 and tied embeddings,
MixtralConfig's 8 experts and 2 a token) — but not a shape field (HF_FIELDS), whose class default is some other
model's size: refused.
"""

from __future__ import annotations

from typing import Any

from dpscale.catalog import HF_EXPERTS, MOST_WHOLE, WHOLE_ALLOWED, checked_model, whole_in
from dpscale.errors import DpscaleError
from dpscale.files import json_quoted
from dpscale.formulas.compute import llama_params

# Each type: its embeddings tied or not where the config does not say (tie_word_embeddings' default in its config
# class), head_dim's default (None: hidden_size / num_attention_heads), biases on q, k and v, RMSNorms a layer, where
# the sliding window is ("all": every layer, as sliding_window says; "qwen2": where use_sliding_window says, from
# layer max_window_layers on; "alternate": every other layer, the first one of them; None: never) and its default,
# and the config's bias switches the count has no room for (refused where true)
FORMS: dict[str, dict[str, Any]] = {
    "llama": {"tied": False, "window": "all", "no_bias": ("attention_bias", "mlp_bias")},
    "mistral": {"tied": False, "window": "all", "no_bias": ("attention_bias", "mlp_bias")},
    "mixtral": {"tied": False, "window": "all", "no_bias": ("attention_bias", "mlp_bias")},
    "qwen2": {"tied": False, "qkv_bias": True, "window": "qwen2"},
    "gemma": {
        "tied": True,
        "head_dim": 256,
        "window": None,
        "no_bias": ("attention_bias",),
        "act": "gelu_pytorch_tanh",
    },
    "gemma2": {
        "tied": True,
        "head_dim": 256,
        "act": "gelu_pytorch_tanh",
        "norms": 4,
        "window": "alternate",
        "sliding_window": 4096,
        "no_bias": ("attention_bias",),
    },  # fmt: skip
    "phi3": {"tied": False, "window": "all"},
}
HF_TYPES = tuple(FORMS)
HF_FIELDS = {"num_hidden_layers": "layers", "hidden_size": "hidden", "num_attention_heads": "heads",
             "intermediate_size": "ffn", "vocab_size": "vocab", "max_position_embeddings": "seq_len"}  # fmt: skip
MIN_PARAMS_STANDIN = 1e9  # the shape checked before its count is derived (the count is then checked as any)
LAYER_TYPES = ("full_attention", "sliding_attention")


def hf_entry(config: dict[str, Any], where: str) -> dict[str, Any]:
    """A Hugging Face config.json as a models.json entry, where its model_type is one of HF_TYPES; its count
    derived from the shape (`llama_params`) and its sequence length its max_position_embeddings — or, where RoPE
    scaling extended its context past the length it was pre-trained at, that length (`hf_context`: the context).
    Where the heads are not hidden_size wide in all (Gemma's), `attention_width` is their width, which attention's
    FLOPs take; where the sliding window is on some layers alone, `window_layers` is how many."""
    from dpscale.errors import MAX_PARAMS, MIN_PARAMS, PARAMS_ALLOWED

    typed = config.get("model_type")
    if typed not in HF_TYPES:
        got = json_quoted(typed) if "model_type" in config else "missing"
        types = f"{', '.join(HF_TYPES[:-1])} or {HF_TYPES[-1]}"
        raise DpscaleError(f"{where}: model_type {got}; allowed: {types} (a Hugging Face config whose count its "
                           "shape gives), or models.json's fields")  # fmt: skip
    form = FORMS[typed]
    for k in form.get("no_bias", ()):  # (Qwen2's q, k, v biases are its form's, not a switch)
        if config.get(k, False) is not False:
            raise DpscaleError(f"{where}: {k} {json_quoted(config[k])}; allowed: false (the {typed} form counted has "
                               "no biases there)")  # fmt: skip
    entry: dict[str, Any] = {"kind": "transformer", **{v: config[k] for k, v in HF_FIELDS.items() if k in config}}
    names = {v: k for k, v in HF_FIELDS.items()} | {"kv_heads": "num_key_value_heads", "window": "sliding_window",
                                                     "tied_embeddings": "tie_word_embeddings"}  # fmt: skip
    for k in HF_FIELDS:  # every field the count reads (intermediate_size and vocab_size too)
        if k not in config:
            raise DpscaleError(f"{where}: {k} missing; allowed: a config.json with {', '.join(HF_FIELDS)}")
    kv = config.get("num_key_value_heads")
    if kv is not None and kv != config["num_attention_heads"]:  # (none, or one per head: multi-head attention)
        entry["kv_heads"] = kv
    window = config.get("sliding_window", form.get("sliding_window")) if form["window"] else None
    if form["window"] == "qwen2":  # Qwen2Config: the window only where use_sliding_window (false by default) says
        on = config.get("use_sliding_window", False)
        if not isinstance(on, bool):
            raise DpscaleError(f"{where}: use_sliding_window {json_quoted(on)}; allowed: true or false")
        window = window if on else None
    if window is not None:  # Mistral 7B v0.1's 4,096 (null from v0.2 on), Phi-3 mini 4k's 2,047, Gemma 2's 4,096
        entry["window"] = window
    entry["tied_embeddings"] = config.get("tie_word_embeddings", form["tied"])  # its config class's default
    dropout = config.get("attention_dropout", 0.0)
    if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) or not 0 <= dropout < 1:
        raise DpscaleError(f"{where}: attention_dropout {json_quoted(dropout)}; allowed: a number in [0, 1)")
    entry["attention_dropout"] = dropout > 0
    out = checked_model({**entry, "params": MIN_PARAMS_STANDIN}, where, names)
    # A context RoPE scaling extends (Llama 3.1's 131,072) is not the length trained at (its 8,192, which the config
    # keeps as rope_scaling's original_max_position_embeddings): 16× the activations and 69× the FLOPs a sample
    # (Phi3Config keeps it beside rope_scaling, not in it: Phi-3.5 mini's 4,096 of 131,072 — review KO)
    rope = config.get("rope_scaling")
    original = "original_max_position_embeddings"
    kept = rope if isinstance(rope, dict) and original in rope else config if typed == "phi3" else {}
    if isinstance(rope, dict) and original in kept:
        field = f"rope_scaling.{original}" if kept is rope else original
        first = checked_model({**out, "seq_len": kept[original]}, where, {**names, "seq_len": field})
        if first["seq_len"] < out["seq_len"]:
            out = {**out, "seq_len": first["seq_len"], "hf_context": out["seq_len"]}
    head_dim = _head_dim(config, out, form, where)
    if head_dim * out["heads"] != out["hidden"]:  # Gemma 7B's 16 heads of 256: 4,096 wide, on 3,072
        out["attention_width"] = head_dim * out["heads"]
    if "window" in out:
        layers = _window_layers(config, out["layers"], form["window"], where)
        if layers < out["layers"]:
            out["window_layers"] = layers
    experts, routed = _hf_experts(config, where) if typed == "mixtral" else (1, 1)
    shape = (out["layers"], out["hidden"], out["heads"], out.get("kv_heads", out["heads"]), out["ffn"], out["vocab"],
             out["tied_embeddings"])  # fmt: skip
    form_of = {"head_dim": head_dim, "qkv_bias": form.get("qkv_bias", False), "norms": form.get("norms", 2)}
    gate = experts if experts > 1 else 0  # (a router of one expert: Llama's form, no gate)
    n = llama_params(*shape, experts=experts, gate=gate, **form_of)
    if not MIN_PARAMS <= n <= MAX_PARAMS:  # (a config has no 'params' to name: its count is derived)
        raise DpscaleError(f"{where}: the count its shape gives, {n:,}; allowed: {PARAMS_ALLOWED}")
    if routed < experts:  # a token's FLOPs run the k experts it is routed to; the gradient all of them
        out["active_params"] = llama_params(*shape, experts=routed, gate=gate, **form_of)
    out = checked_model({**out, "params": n}, where, names)
    act = config.get("hidden_activation") or config.get("hidden_act") or form.get("act", "silu")
    return {**out, "source": f"Hugging Face config.json (model_type {typed}); count (derived) from its shape",
            "hf_model_type": typed, "mlp": _gated(act)}  # fmt: skip


def _gated(act: Any) -> str:
    """The gated MLP a config's activation makes, as memory's activation note names it: silu's SwiGLU (Llama's,
    every preset's), gelu's GeGLU (Gemma's gelu_pytorch_tanh: it said SwiGLU, review KX), else 'GLU (relu)'. The
    tensors it keeps are as many (gate, activation, up, product): no count reads it."""
    if act in ("silu", "swish"):
        return "SwiGLU"
    if isinstance(act, str) and act.startswith("gelu"):
        return "GeGLU"
    return f"GLU ({act})" if isinstance(act, str) and act.isidentifier() else "GLU"


def _head_dim(config: dict[str, Any], out: dict[str, Any], form: dict[str, Any], where: str) -> int:
    """Each head's width: the config's head_dim, else its class's default (Gemma's 256), else hidden_size /
    num_attention_heads — which must then divide (3 heads of 4,096 would be 1,365 wide: 4,096 × 4,095 projections)."""
    head_dim = config["head_dim"] if config.get("head_dim") is not None else form.get("head_dim")
    if head_dim is None:
        if out["hidden"] % out["heads"]:
            raise DpscaleError(f"{where}: num_attention_heads {out['heads']}; allowed: a divisor of hidden_size "
                               f"({out['hidden']:,}), or a head_dim beside it (each head's width)")  # fmt: skip
        return out["hidden"] // out["heads"]
    if not whole_in(head_dim):
        raise DpscaleError(f"{where}: head_dim {json_quoted(head_dim)}; allowed: {WHOLE_ALLOWED}")
    return int(head_dim)


def _window_layers(config: dict[str, Any], layers: int, where_on: str, where: str) -> int:
    """How many of the layers slide their window: those the config's layer_types names "sliding_attention" (as
    transformers from 4.53 writes them), else the form's (`FORMS`: every layer; Qwen2's from max_window_layers on,
    28 by default; Gemma 2's every other one, the first of them)."""
    kinds = config.get("layer_types")
    if kinds is not None:
        if not (isinstance(kinds, list) and len(kinds) == layers and all(k in LAYER_TYPES for k in kinds)):
            raise DpscaleError(f"{where}: layer_types {json_quoted(kinds)}; allowed: a list of num_hidden_layers "
                               f"({layers}) entries, each \"full_attention\" or \"sliding_attention\"")  # fmt: skip
        return kinds.count("sliding_attention")
    if where_on == "qwen2":
        first = config.get("max_window_layers", 28)
        if not whole_in(first, 0):
            raise DpscaleError(f"{where}: max_window_layers {json_quoted(first)}; allowed: a whole number from 0 "
                               f"to {MOST_WHOLE:,}")  # fmt: skip
        return max(0, layers - int(first))
    return (layers + 1) // 2 if where_on == "alternate" else layers


def _hf_experts(config: dict[str, Any], where: str) -> tuple[int, int]:
    """A Mixtral config's experts a layer and those one token is routed to, each checked; a key left out is
    MixtralConfig's default (8 and 2), as transformers reads the file."""
    got = [config.get(k, default) for k, default in zip(HF_EXPERTS, (8, 2), strict=True)]
    for k, v in zip(HF_EXPERTS, got, strict=True):
        # (the range before int(v): NaN and Infinity, which json reads, fail it and are said, not raised by int)
        if not whole_in(v):
            raise DpscaleError(f"{where}: {k} {json_quoted(v)}; allowed: {WHOLE_ALLOWED}")
    experts, routed = int(got[0]), int(got[1])
    if routed > experts:
        raise DpscaleError(f"{where}: num_experts_per_tok {routed}; allowed: at most num_local_experts ({experts})")
    return experts, routed
