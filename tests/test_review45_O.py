"""Review 45 (O): catalog figures against their sources."""

from __future__ import annotations

import pytest

from dpscale import catalog


def llama_count(m: dict) -> int:
    """Llama blocks (tests/test_catalog_models.py's form): q, o h×h; k, v h×(h·kv/heads); a SwiGLU MLP of three
    h×ffn matrices; two RMSNorms; an untied output layer beside the embedding; one final norm; no biases."""
    h = m["hidden"]
    kv = h * m.get("kv_heads", m["heads"]) // m["heads"]
    layer = 2 * h * h + 2 * h * kv + 3 * h * m["ffn"] + 2 * h
    return m["layers"] * layer + 2 * m["vocab"] * h + h


@pytest.mark.parametrize("key, ffn, total", [
    ("llama-7b", 11008, 6_738_415_616), ("llama-13b", 13824, 13_015_864_320), ("llama-70b", 28672, 68_976_648_192),
])  # fmt: skip
def test_llama2_presets_hold_their_checkpoints_exact_counts(key, ffn, total):
    """Llama 2's counts were the papers' rounded 6.738e9 / 13.016e9 / 68.977e9 while every other transformer preset
    holds its checkpoint's exact total: the shape (HF config intermediate_size) now gives it, as for Llama 3."""
    m = catalog.model(key)
    assert m["ffn"] == ffn and llama_count(m) == m["params"] == total
