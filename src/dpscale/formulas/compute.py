"""Training compute of one sample, and a transformer's depth from its size (physics.md §3).

A transformer trains on 6·N FLOPs per token (forward 2N, backward 4N) plus attention's 12·L·h·s per token at
sequence length s (the PaLM form; 12·L·h·W under a sliding window of W < s keys); a CNN on 6 × its forward
multiply-accumulates (a MAC is 2 FLOPs, and backward costs twice forward). The compute time of a step is these
FLOPs over the GPU's peak × MFU (sources/predict.py).
"""

from __future__ import annotations

from typing import Any

ASPECT = 128  # an LLM's width per layer of depth: GPT-3 175B 12,288/96, Llama 2 7B 4,096/32 and 13B 5,120/40


def flops_per_sample(model: dict[str, Any] | None, seq_len: int | None = None, params: float | None = None) -> float:
    """Training FLOPs per sample: 6·N·s + 12·L·h·s·min(s, W) per sequence (PaLM form; W a preset's sliding
    attention window, else s) or 6 × MACs per image. A mixture of experts' N is its `active_params`, the
    parameters one token passes through (Mixtral 8x7B: 12.9 B of 46.7 B; Switch Transformer, Fedus et al. 2021, §2:
    more experts add parameters, not FLOPs per token); its gradient, all of them, is the caller's `params`.

    A preset whose input embedding is not its output layer (tied_embeddings false: Llama, Mistral) leaves the
    embedding's V·h out of N, the preset's or a `params` above it (the model's whole count, as the gradient bytes
    take it): a lookup does no matmul (Llama 3 8B's 525 M were 5 % more FLOPs). With no preset, a transformer of N
    parameters at `seq_len` counts 6·N·s (the attention term needs the layer shapes)."""
    if model is None:  # (the ignore: with no preset the callers give both params and seq_len)
        return 6.0 * float(params) * float(seq_len)  # type: ignore[arg-type]
    if model["kind"] == "transformer":
        dense, attention = token_flops(model, seq_len, params)
        s = seq_len or model["seq_len"]
        return dense * s + attention * s
    return 6.0 * model["fwd_gmacs"] * 1e9


def token_flops(model: dict[str, Any], seq_len: int | None = None, params: float | None = None) -> tuple[float, float]:
    """A transformer's training FLOPs a token, its two terms: 6·N (N as transformer_terms counts it) and attention's
    12·L·h·k (k the keys a token attends) — what flops_per_sample multiplies by the sequence and predict's
    FLOPs-a-token note says term by term (it computed them again, review of the day's change).

    >>> llama3_8b = {"kind": "transformer", "params": 8030261248, "layers": 32, "hidden": 4096, "vocab": 128256,
    ...              "seq_len": 8192, "tied_embeddings": False}
    >>> [round(x / 1e9, 2) for x in token_flops(llama3_8b)]  # 45.03 + 12.88 = 57.91 GFLOP a token
    [45.03, 12.88]
    """
    _, n, _, keys = transformer_terms(model, seq_len, params)
    return 6.0 * n, 12.0 * model["layers"] * queries_width(model) * keys


def queries_width(model: dict[str, Any]) -> int:
    """The queries' width attention's 12·L·w·k counts, heads × head_dim: a Hugging Face config's where it is not the
    hidden size — Gemma 7B's 16 × 256 = 4,096 against 3,072 — else the hidden size, as every preset's (token_flops,
    and predict's FLOPs note, which says w where it is not h)."""
    return model.get("attention_width") or model["hidden"]


def transformer_terms(model: dict[str, Any], seq_len: int | None = None,
                      params: float | None = None) -> tuple[int, float, float, float]:  # fmt: skip
    """(s, N, lookup, keys) of a transformer preset's FLOPs (`flops_per_sample`): the sequence, the parameters its
    6·N counts, the untied input embedding's V·h left out of them (0 where tied, or where the count is under it), and
    the keys a token attends (a sliding window's W below s; where the window is on `window_layers` of the layers
    alone — a Hugging Face config's: Gemma 2's every other layer — the mean over the layers). A mixture of experts' N
    starts from its active_params (a `params` over it keeping its active share).

    >>> transformer_terms({"kind": "transformer", "params": 8030261248, "layers": 32, "hidden": 4096,
    ...                    "vocab": 128256, "seq_len": 8192, "tied_embeddings": False})  # Llama 3 8B
    (8192, 7504924672, 525336576, 8192)
    """
    s, n = seq_len or model["seq_len"], token_params(model, params)
    lookup = 0 if model.get("tied_embeddings", True) else model["vocab"] * model["hidden"]
    lookup = lookup if n > lookup else 0  # (a count under the embedding's own is no such model: as given)
    keys = min(s, model.get("window") or s)  # a sliding window (Mistral's 4,096) caps the keys a token attends
    if model.get("window_layers") is not None and keys < s:  # on some layers alone (Gemma 2 9B: 21 of its 42)
        w, layers = model["window_layers"], model["layers"]
        total = w * keys + (layers - w) * s
        keys = total // layers if total % layers == 0 else total / layers  # (whole where it is: the note's 6,144)
    return s, n - lookup, lookup, keys


def token_params(model: dict[str, Any], params: float | None = None) -> float:
    """The parameters one token passes through, the N a transformer's FLOPs start from (an untied input embedding
    still in it): `params`, else the preset's count; a mixture of experts' `active_params`, its shared layers and the
    k experts a token is routed to, with a `params` over the preset keeping that share — predict's note says the
    same count. Mixtral 8x7B: 12,879,925,248 of 46,702,792,704; a --params of 93.4e9, twice its count, 25.76 B.

    >>> mixtral = {"kind": "transformer", "params": 46702792704, "active_params": 12879925248}
    >>> token_params(mixtral), round(token_params(mixtral, 93.4e9) / 1e9, 2), token_params({"params": 7e9})
    (12879925248, 25.76, 7000000000.0)
    """
    n = params if params is not None else model["params"]
    active = model.get("active_params")
    if active is None:
        return n
    return active if params is None else params * active / model["params"]


def mixture_of_experts(model: dict[str, Any]) -> bool:
    """Whether a model is a mixture of experts, as predict's and memory's notes say it: a transformer whose
    `active_params` is below its `params`. Equal, every parameter runs a token (a dense model written with the field:
    no note, review KA); a CNN's `active_params` is unread (catalog.UNREAD_BY_KIND)."""
    return model["kind"] == "transformer" and model.get("active_params", model["params"]) < model["params"]


def estimated_layers(n_params: float) -> int:
    """A transformer's depth from its parameter count alone: N ≈ 12·L·h² with h = ASPECT·L (Llama 2 70B, 8,192
    wide and 80 deep, comes out 71; Llama 3 405B 127 against 126).

    >>> estimated_layers(6.74e9), estimated_layers(175e9)
    (32, 96)
    """
    return max(1, round((n_params / (12 * ASPECT**2)) ** (1 / 3)))


def shape_params(layers: int, hidden: int, vocab: int = 0) -> float:
    """A transformer's parameter count to first order from its shape, 12·L·h² + V·h (attention's 4h² and a 4h-wide
    MLP's 8h² a layer, one embedding): what a stated count should be near — every transformer preset is within 1.2×
    of it, a mixture of experts' total within 10× (Mixtral 8x7B: 7×), a count in millions 1,000× below.

    >>> f"{shape_params(32, 4096, 32000):.4g}"  # Llama 2 7B (6.738e9 with its SwiGLU and untied output)
    '6.574e+09'
    """
    return 12.0 * layers * hidden**2 + vocab * hidden


def llama_params(layers: int, hidden: int, heads: int, kv_heads: int, ffn: int, vocab: int, tied: bool,
                 experts: int = 1, gate: int = 0, head_dim: int | None = None, qkv_bias: bool = False,
                 norms: int = 2) -> int:  # fmt: skip
    """A Llama-form transformer's parameter count from its shape: the count (derived) of the catalog's Llama,
    Mistral and Mixtral presets, and of a Hugging Face config --model-file reads (catalog.hf). Per layer q and o
    h×(heads·d), k and v h×(kv·d) — d the heads' width, `head_dim`, else h/heads —, a gated MLP of three h×ffn
    matrices (SwiGLU, or Gemma's GeGLU) and `norms` RMSNorm weights (2; Gemma 2's 4); the embedding, an output layer
    of its own unless tied to it, one final norm; no biases but `qkv_bias`'s on q, k and v (Qwen2's). Llama 3 8B:
    8,030,261,248, its checkpoint's.
    A mixture of experts (Mixtral) has `experts` such MLPs a layer and a router of h × `gate` (its expert count):
    all of them its total, the k a token is routed to (gate still all) the parameters one token passes through.

    >>> llama_params(32, 4096, 32, 32, 11008, 32000, False)  # Llama 2 7B, the checkpoint's total
    6738415616
    >>> m = (32, 4096, 32, 8, 14336, 32000, False)  # Mixtral 8x7B: 46.7 B, 12.9 B active (2 of its 8 experts)
    >>> llama_params(*m, experts=8, gate=8), llama_params(*m, experts=2, gate=8)
    (46702792704, 12879925248)
    >>> llama_params(28, 3584, 28, 4, 18944, 152064, False, qkv_bias=True)  # Qwen2-7B
    7615616512
    >>> llama_params(42, 3584, 16, 8, 14336, 256000, True, head_dim=256, norms=4)  # Gemma 2 9B
    9241705984
    """
    h = hidden
    d = head_dim if head_dim is not None else h // heads
    q, kv = heads * d, kv_heads * d
    mlp = experts * 3 * h * ffn + h * gate
    bias = q + 2 * kv if qkv_bias else 0
    return layers * (2 * h * q + 2 * h * kv + bias + mlp + norms * h) + (1 if tied else 2) * vocab * h + h
