"""Model presets whose parameter count is derived from their shape: recomputed here, so a typo in a layer count,
a width or the vocabulary cannot hide behind a plausible-looking total."""

from __future__ import annotations

import pytest
from clihelp import run

from dpscale import catalog
from dpscale.formulas.compute import flops_per_sample


def llama_count(m: dict) -> int:
    """Llama/Mistral blocks: q and o h×h, k and v h×(h·kv/heads) (grouped-query), a SwiGLU MLP of three h×ffn
    matrices, two RMSNorm weights; an untied output layer beside the embedding, one final norm; no biases."""
    h, kv = m["hidden"], m["hidden"] * m["kv_heads"] // m["heads"]
    layer = 2 * h * h + 2 * h * kv + 3 * h * m["ffn"] + 2 * h
    return m["layers"] * layer + 2 * m["vocab"] * h + h


def vit_count(m: dict, patch: int = 16, classes: int = 1000) -> int:
    """torchvision's VisionTransformer: a patch convolution, class token, position embeddings, pre-norm blocks
    with biases (qkv, projection, a GELU MLP, two LayerNorms), a final LayerNorm and a linear head."""
    h, f = m["hidden"], m["ffn"]
    layer = (h * 3 * h + 3 * h) + (h * h + h) + (h * f + f) + (f * h + h) + 2 * 2 * h
    embed = 3 * patch * patch * h + h + h + m["seq_len"] * h
    return embed + m["layers"] * layer + 2 * h + h * classes + classes


GQA_COUNTS = [("llama3-8b", 8_030_261_248), ("llama3-70b", 70_553_706_496), ("mistral-7b", 7_241_732_096)]


@pytest.mark.parametrize("key, published", GQA_COUNTS)
def test_grouped_query_presets_count_their_parameters(key, published):
    """The shape gives the count the model cards publish (Hugging Face safetensors totals: 8.03 B, 70.6 B, 7.24 B)."""
    m = catalog.model(key)
    assert llama_count(m) == m["params"] == published


# A mixture of experts of Mistral 7B's blocks (Mixtral of Experts, Table 1): 8 SwiGLU experts and a router of h × 8 a
# layer; a token runs the router and 2 experts. The hub's safetensors total is 46,702,792,704 (46.7 B; §1: "47B").
MOE_COUNTS = [("mixtral-8x7b", 8, 2, 46_702_792_704, 12_879_925_248)]


@pytest.mark.parametrize("key, experts, routed, published, active", MOE_COUNTS)
def test_a_mixture_of_experts_counts_all_its_experts_and_the_ones_a_token_runs(key, experts, routed, published, active):
    m = catalog.model(key)
    dense = llama_count(m)  # one expert, no router
    mlp, router = 3 * m["hidden"] * m["ffn"], m["hidden"] * experts
    assert dense + m["layers"] * ((experts - 1) * mlp + router) == m["params"] == published
    assert dense + m["layers"] * ((routed - 1) * mlp + router) == m["active_params"] == active
    assert round(m["params"] / 1e9) == 47 and round(m["active_params"] / 1e9) == 13  # the paper's §1


def test_the_same_count_gives_the_published_llama2_7b_total():
    """The form is checked against a count published by its authors: Llama 2 7B (ffn 11,008, no GQA) is 6.74 B."""
    m = dict(catalog.model("llama-7b"), kv_heads=32, ffn=11008)
    assert llama_count(m) == 6_738_415_616 and round(llama_count(m) / 1e9, 2) == round(m["params"] / 1e9, 2)


def gpt2_count(m: dict) -> int:
    """GPT-2 (nanoGPT's shape): token and position embeddings, blocks of qkv, projection and a 4h MLP with biases and
    two LayerNorms, a final LayerNorm; the output layer tied to the token embedding."""
    h = m["hidden"]
    return m["vocab"] * h + m["seq_len"] * h + m["layers"] * (12 * h * h + 13 * h) + 2 * h


def bert_count(m: dict) -> int:
    """BertForPreTraining: word, 512 position and 2 token-type embeddings with a LayerNorm; blocks of q, k, v, o and
    a 4h MLP with biases and two LayerNorms; the pooler; the MLM transform (dense, LayerNorm) and its vocab bias (the
    decoder tied to the word embeddings); the NSP head."""
    h, v = m["hidden"], m["vocab"]
    embed = (v + 512 + 2) * h + 2 * h
    layer = 4 * (h * h + h) + (h * 4 * h + 4 * h) + (4 * h * h + h) + 2 * 2 * h
    return embed + m["layers"] * layer + (h * h + h) + (h * h + h + 2 * h + v) + (2 * h + 2)


GPT2_BERT_COUNTS = [
    ("gpt2", 124_439_808), ("gpt2-medium", 354_823_168), ("gpt2-large", 774_030_080), ("gpt2-xl", 1_557_611_200),
    ("bert-base", 110_106_428), ("bert-large", 336_226_108),
]  # fmt: skip


@pytest.mark.parametrize("key, published", GPT2_BERT_COUNTS)
def test_gpt2_and_bert_presets_are_their_shapes_counts(key, published):
    """The exact counts (HF's totals for these shapes), not the papers' rounded 124M / 774M / 1558M / 110M: the
    gradient's bytes fill DDP's buckets, and the last bucket's size is what stays exposed after backward."""
    m = catalog.model(key)
    count = bert_count(m) if key.startswith("bert") else gpt2_count(m)
    assert count == m["params"] == published


VIT_COUNTS = [("vit-b16", 86_567_656), ("vit-l16", 304_326_632)]


@pytest.mark.parametrize("key, torchvision", VIT_COUNTS)
def test_vit_presets_are_torchvisions_counts_and_their_flops_its_macs(key, torchvision):
    m = catalog.model(key)
    assert vit_count(m) == m["params"] == torchvision
    assert (m["image_size"] // 16) ** 2 + 1 == m["seq_len"]  # 14 × 14 patches and the class token
    gmacs = {"vit-b16": 17.564, "vit-l16": 61.555}[key]  # torchvision ViT_*_16_Weights meta _ops
    assert flops_per_sample(m) / (6 * gmacs * 1e9) == pytest.approx(1.0, abs=0.02)


@pytest.mark.parametrize("lang, said", [
    ("en", "--tensor-parallel: got 16; allowed: a divisor of llama3-70b's 8 key-value heads"),
    ("es", "--tensor-parallel: se recibió 16; se admite: un divisor de las 8 cabezas de clave y valor de llama3-70b"),
])  # fmt: skip
def test_tensor_parallelism_past_the_key_value_groups_is_refused(capsys, lang, said):
    """64 query heads divide by 16, but grouped-query attention's 8 key-value heads do not (Megatron splits them)."""
    rc, _, err = run(capsys, "memory", "--model", "llama3-70b", "--tensor-parallel", "16", "-d", "8", "--lang", lang)
    assert rc == 2 and said in err
    rc, out, _ = run(capsys, "memory", "--model", "llama3-70b", "--tensor-parallel", "8", "-d", "8")
    assert rc == 0


def test_a_vision_transformer_gets_the_image_decoding_caution(capsys):
    """ViTs read images as CNNs do: 8 H100s asking ~26,000 images/s of 112 cores are warned of, as a ResNet is."""
    rc, out, _ = run(capsys, "predict", "--model", "vit-b16", "--precision", "bf16", "--system", "dgx-h100",
                     "-d", "8", "--batch", "8")  # fmt: skip
    assert rc == 0 and "decoding JPEGs on its 112 CPU cores" in out
    rc, out, _ = run(capsys, "predict", "--model", "gpt2", "--precision", "bf16", "--system", "dgx-h100", "-d", "8")
    assert rc == 0 and "decoding JPEGs" not in out


def test_a_gpu_family_is_matched_whole_not_as_a_prefix():
    """'L4' is the 24 GB L4, not the L40S whose key starts with 'l4'; an L40 (not in the catalog) finds nothing
    rather than the L40S, whose tensor rates are twice its own."""
    from dpscale.catalog import find_gpu

    assert find_gpu(gpu="NVIDIA L4")["hbm_tbs"] == 0.3 and find_gpu(gpu="L40S")["hbm_tbs"] == 0.864
    assert find_gpu(gpu="L40") is None and find_gpu(gpu="A100-SXM4-80GB")["hbm_tbs"] == 2.039


def test_an_ada_gpus_fp32_is_its_vector_peak(capsys):
    """L40S fp32 runs on CUDA cores (91.6 TFLOP/s; its TF32 tensor rate is 183): a CNN's default share is the
    fp32-core one there, and the tensor-core one under amp."""
    from dpscale.catalog import gpu
    from dpscale.sources.predict_inputs import default_mfu, vector_peak

    part = gpu("l40s-48gb")
    assert vector_peak(part, "fp32") and not vector_peak(part, "tf32") and not vector_peak(part, "amp")
    assert default_mfu({"kind": "cnn"}, "fp32", part) == pytest.approx(0.625)


@pytest.mark.parametrize("gpu, said", [
    ("mi300x-192gb", "no published measurement on CDNA 3 accelerators (mi300x-192gb)"),  # not 'Cdna3 GPUs'
    ("tpu-v4", "no published measurement on TPU accelerators (tpu-v4)"),  # not 'Tpu GPUs'
    ("l40s-48gb", "no published measurement on Ada Lovelace accelerators (l40s-48gb)"),
])  # fmt: skip
def test_an_unchecked_architecture_is_named_as_its_maker_writes_it(capsys, gpu, said):
    argv = ["predict", "--model", "gpt2", "--precision", "bf16", "--gpu", gpu, "--gpus-per-node", "4",
            "--intra-bw", "100", "--inter-bw", "50", "-d", "4"]  # fmt: skip
    rc, out, _ = run(capsys, *argv)
    assert rc == 0 and said in out


@pytest.mark.parametrize("name, key", [
    ("NVIDIA H100 80GB HBM3", "h100-80gb"),  # as nvidia-smi prints it
    ("A100-SXM4-40GB", "a100-40gb"),
    ("Tesla V100-SXM2-32GB", "v100-32gb"),
    ("H100 SXM5", "h100-80gb"),  # one memory size in the catalog: no doubt
])  # fmt: skip
def test_gpu_takes_the_names_nvidia_smi_prints(name, key):
    from dpscale.catalog import gpu

    assert gpu(name)["key"] == key


@pytest.mark.parametrize("name", ["A100", "V100", "A100 32GB", "H100 PCIe", "H100 NVL 94GB", "Tesla P100-PCIE-12GB"])
def test_gpu_refuses_a_name_that_leaves_the_memory_size_open(name):
    """Two A100s differ in HBM (1.56 against 2.04 TB/s): a name that does not say which is not guessed; nor is a
    size or form the catalog lacks taken for the part it has (a PCIe H100: 756 TFLOP/s against the SXM's 989)."""
    from dpscale.catalog import gpu
    from dpscale.errors import DpscaleError

    with pytest.raises(DpscaleError, match="^--gpu: got"):
        gpu(name)


@pytest.mark.parametrize(("name", "hint"), [
    ("H100 PCIe", "(the catalog's 'h100-80gb' is the NVIDIA H100 SXM 80 GB, not the PCIe part: peak and memory"),
    ("h100 pcie", "(the catalog's 'h100-80gb' is the NVIDIA H100 SXM 80 GB, not the PCIe part: peak and memory"),
    ("NVIDIA A100", "(did you mean 'a100-40gb' or 'a100-80gb'?)"),  # no 'a100' prefix to complete: its family's
    ("A100 32GB", "(did you mean 'a100-40gb' or 'a100-80gb'?)"),  # a size it is not made in
])  # fmt: skip
def test_a_refused_gpu_name_is_told_what_the_catalog_holds_of_its_family(name, hint):
    """'H100 PCIe' was refused with the bare list (the SXM part's key unnamed), 'NVIDIA A100' likewise."""
    from dpscale.catalog import gpu
    from dpscale.errors import DpscaleError

    with pytest.raises(DpscaleError) as exc:
        gpu(name)
    assert str(exc.value).startswith(f"--gpu: got {name!r} {hint}")


@pytest.mark.parametrize(
    ("kind", "name"),
    [
        ("gpus", "a10"),
        ("gpus", "A10"),
        ("gpus", "a10g"),
        ("gpus", "h10"),
        ("gpus", "l4-2"),
        ("models", "resnet1"),
        ("links", "eth-2"),
    ],
)
def test_a_model_number_is_not_lengthened_into_another(kind, name):
    """'a10' was answered "did you mean 'a100-40gb' or 'a100-80gb'?": an A10 is no A100 (nor 'h10' an H100), and
    'resnet1' is not resnet101 alone nor 'eth-2' eth-25g alone (the nearest spelling named one of two): no guess."""
    from dpscale.catalog import _get, gpu, table
    from dpscale.errors import DpscaleError

    with pytest.raises(DpscaleError) as exc:
        _get(kind, name, "--x")
    assert str(exc.value) == f"--x: got {name!r}; allowed: {', '.join(sorted(table(kind)))}"
    with pytest.raises(DpscaleError, match=r"^--gpu: got 'tpu' \(did you mean 'tpu-v4' or 'tpu-v5e' or 'tpu-v5p'\?\)"):
        gpu("tpu")


def test_fp8_runs_at_the_fp8_peak_with_fp32_gradients(capsys):
    """fp8 (Transformer Engine) was refused though the catalog holds fp8 peaks: its GEMMs run at that peak, its
    weights are bf16 and its gradients all-reduced in fp32 (Megatron's --bf16 forces it; they were 2 bytes until
    an audit read arguments.py), as a published 'FP8' row reads."""
    from dpscale.sources.predict_inputs import GRAD_BYTES, normalise_precision
    from dpscale.sources.predict_validate import grad_bytes_per_param

    assert normalise_precision("FP8 (Transformer Engine) + BF16") == "fp8" and GRAD_BYTES["fp8"] == 4
    assert normalise_precision("FP8 mixed precision") == "fp8"  # not amp's bf16 peak and 4 bytes
    assert grad_bytes_per_param("FP8") == grad_bytes_per_param("AMP") == 4
    import dpscale

    kw = {"model": "gpt2", "precision": "fp8", "system": "dgx-h100"}
    four, two = (dpscale.predict([16], grad_bytes_per_param=g, **kw).breakdown.allreduce_s[0] for g in (4, 2))
    assert dpscale.predict([16], **kw).breakdown.allreduce_s[0] == four > 1.5 * two  # fp32 bytes by default
    rc, out, _ = run(capsys, "predict", "--model", "gpt2", "--precision", "fp8", "--system", "dgx-h100", "-d", "8")
    # the default MFU: 0.35 × 1.375 (torchao's 1.25–1.5× over bf16) ÷ (1979 / 989) = 0.2405 of the fp8 peak
    assert rc == 0 and "at 24.1 % of 1,979 TFLOP/s (h100-80gb)" in out and "= 24.1 %: the casts" in out
    est = dpscale.predict([1], **kw).breakdown.compute_s[0]
    assert est == pytest.approx(dpscale.predict([1], mfu=0.35 * 1.375 * 989 / 1979, **kw).breakdown.compute_s[0])
    rc, out, _ = run(capsys, "predict", "--model", "gpt2", "--precision", "fp8", "--mfu", "0.3", "--system",
                     "dgx-h100", "-d", "8")  # fmt: skip
    assert rc == 0 and "at 30 % of 1,979" in out and "fp8's default share" not in out  # a typed MFU: no note
    # a CNN preset's tensor-core share likewise: fp8 computes 1.375× as fast as bf16, not twice (review, session 30)
    cnn = {"model": "resnet50", "batch": 256, "system": "dgx-h100"}
    fp8, bf16 = (dpscale.predict([1], precision=p, **cnn).breakdown.compute_s[0] for p in ("fp8", "bf16"))
    assert bf16 / fp8 == pytest.approx(1.375)
    rc, _, err = run(capsys, "predict", "--model", "gpt2", "--precision", "fp8", "--system", "dgx-a100", "-d", "8")
    assert rc == 2 and "--precision: fp8 has no peak figure for a100-80gb" in err


def test_an_fp8_rate_is_checked_against_the_fp8_peak(capsys):
    """2.4 sequences/s of Llama 3 8B at 8,192 tokens is 1,201 TFLOP/s: past the H100's bf16 peak (989), within its
    fp8 one (1,979) — an fp8 run was told to check its unit."""
    argv = ["predict", "--model", "llama3-8b", "--throughput", "2.4", "--gpu", "h100-80gb", "--system", "dgx-h100",
            "-d", "8", "-b", "1"]  # fmt: skip
    rc, out, _ = run(capsys, *argv, "--precision", "fp8")
    assert rc == 0 and "check the unit" not in out
    rc, out, _ = run(capsys, *argv, "--precision", "bf16")
    assert rc == 0 and "more than the h100-80gb's 989 TFLOP/s" in out


def test_a_system_name_two_systems_share_is_settled_by_the_gpu(capsys):
    argv = ["predict", "--model", "gpt2", "--gpu", "v100-16gb", "-d", "8", "--json"]
    rc, out, _ = run(capsys, *argv, "--system", "DGX-1")
    assert rc == 0 and out == run(capsys, *argv, "--system", "dgx1-v100")[1]  # its fabric and cube-mesh table
    rc, _, err = run(capsys, "predict", "--model", "gpt2", "--system", "DGX-1", "-d", "8")
    assert rc == 2 and "--system: got 'DGX-1'" in err


def test_azure_nd_systems_are_their_size_pages_figures():
    """Microsoft's pages: ND A100 v4 = 8 A100 40 GB, 8 × 200 Gb HDR; ND H100 v5 = 8 H100 80 GB, 8 × 400 Gb NDR."""
    from dpscale.catalog import key_of, system

    a100, h100 = system("azure-nd-a100-v4"), system("ND H100 v5")
    assert (a100["gpu"], a100["inter_bw_gbs"], a100["cpu_cores"]) == ("a100-40gb", 8 * 200 / 8, 96)
    assert (h100["gpu"], h100["inter_bw_gbs"], h100["intra_bw_gbs"]) == ("h100-80gb", 8 * 400 / 8, 450)
    assert key_of("systems", "Azure ND A100 v4") == "azure-nd-a100-v4"


@pytest.mark.parametrize(("named", "key", "hint"), [
    ("A100-SXM4-80GB", "a100-80gb", ""),
    ("H100 PCIe", None, " (the catalog's 'h100-80gb' is the NVIDIA H100 SXM 80 GB, not the PCIe part: peak and memory "
                        "bandwidth differ)"),
    ("A100", None, " (did you mean 'a100-40gb' or 'a100-80gb'?)"),
    ("zzz", None, ""),
])  # fmt: skip
def test_a_system_file_names_its_gpu_as_gpu_flag_does(tmp_path, named, key, hint):
    """A system file's "gpu": "H100 PCIe" predicted at the SXM part's 989 TFLOP/s and "A100" silently became the
    40 GB part, where --gpu refuses both: the file's name is read by the flag's rule, and refused with its hint."""
    import json
    import re

    from dpscale.catalog import load_system_file
    from dpscale.errors import DpscaleError

    f = tmp_path / "sys.json"
    f.write_text(json.dumps({"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 25, "gpu": named}))
    if key:
        assert load_system_file(str(f))["gpu"] == key
    else:
        want = f"--system-file: {f}: system 'custom': gpu '{named}'{hint}; allowed: a100"
        with pytest.raises(DpscaleError, match="^" + re.escape(want)):
            load_system_file(str(f))


@pytest.mark.parametrize(("name", "key"), [
    ("A100_80GB_SXM4", "a100-80gb"), ("V100_32GB_SXM2", "v100-32gb"), ("A100 80GBx8", "a100-80gb"),
    ("V100 16GBHBM2", "v100-16gb"), ("8x A100 (40 GiB)", "a100-40gb"), ("A100 40G", "a100-40gb"),
])  # fmt: skip
def test_a_size_is_read_before_an_underscore_or_a_suffix(name, key):
    """A word boundary after 'GB' refused 'A100_80GB_SXM4' (and find_gpu took the 40 GB part): '_' and 'HBM2'
    after a size are still a size."""
    from dpscale.catalog import find_gpu, gpu, table

    assert gpu(name)["key"] == key and find_gpu(gpu=name) == table("gpus")[key]


def test_a_network_or_clock_figure_is_no_memory_size():
    """'2x 40 Gb/s Ethernet' in a table's hardware text picked the 40 GB A100 on a DGX A100 (80 GB parts)."""
    from dpscale.catalog import find_gpu, table

    gpus = table("gpus")
    assert find_gpu("dgx-a100", "A100", text="DGX A100, 8x A100, 2x 40 Gb/s Ethernet") == gpus["a100-80gb"]
    for text in ("8x A100, 40 Gbps", "8x A100, 40GbE", "8x A100, 40 Gbit", "8x A100, 40 GHz"):
        assert find_gpu("dgx-a100", "A100", text=text) == gpus["a100-80gb"], text
    assert find_gpu("dgx-a100", "A100", text="8x A100 40GB, 100 Gb/s InfiniBand") == gpus["a100-40gb"]


def test_tied_embeddings_from_the_counts():
    """tied_embeddings false is read off each preset's own count: a SwiGLU layer holds q and o (h² each), k and v
    (h·h·kv/heads each) and three h·ffn matrices, and the Llama/Mistral counts need two V·h on top (an input
    embedding and a separate output layer) to within 0.01 % (the norms); GPT-2's count holds one V·h exactly
    (12h² + 13h a layer with biases, 1,024 positions, the final norm)."""
    ffn = {"llama-7b": 11008, "llama-13b": 13824, "llama-70b": 28672}  # HF config.json intermediate_size
    for key in ("llama-7b", "llama-13b", "llama-70b", "llama3-8b", "llama3-70b", "mistral-7b"):
        m = catalog.model(key)
        h, kv = m["hidden"], m["hidden"] * m.get("kv_heads", m["heads"]) // m["heads"]
        layers = m["layers"] * (2 * h * h + 2 * h * kv + 3 * h * m.get("ffn", ffn.get(key, 0)))
        assert m["tied_embeddings"] is False
        assert layers + 2 * m["vocab"] * h == pytest.approx(m["params"], rel=1e-4)
    g = catalog.model("gpt2")
    h = g["hidden"]
    assert g["layers"] * (12 * h * h + 13 * h) + g["vocab"] * h + 1024 * h + 2 * h == g["params"]
    assert g.get("tied_embeddings", True)
    # FLOPs: the untied input embedding leaves N (Llama 3 8B: 6·(N − V·h)·s + 12·L·h·s²)
    m = catalog.model("llama3-8b")
    s = m["seq_len"]
    want = 6 * (8030261248 - 128256 * 4096) * s + 12 * 32 * 4096 * s * s
    assert flops_per_sample(m) == pytest.approx(want, rel=1e-12)
    # a typed count is the model's whole one, as the gradient bytes take it: its own count gives the same FLOPs
    assert flops_per_sample(m, params=8030261248) == flops_per_sample(m)
    assert flops_per_sample(m, params=1e8) == 6 * 1e8 * s + 12 * 32 * 4096 * s * s  # under V·h: as given
    # review KI: a count equal to the embedding's own, 128,256 × 4,096 = 525,336,576, is as given too, not 6·0
    assert flops_per_sample(m, params=525336576) == 6 * 525336576 * s + 12 * 32 * 4096 * s * s


@pytest.mark.parametrize("key", sorted(catalog.table("systems")))
def test_a_systems_bandwidths_are_its_links(key):
    """systems.json stores each system's bandwidths beside the links they come from (the model reads the former,
    the breakdown names the latter): the intra-node figure is its link's, the network's its NIC's times the NICs."""
    s, links = catalog.table("systems")[key], catalog.table("links")
    if s.get("intra_link"):
        assert s["intra_bw_gbs"] == links[s["intra_link"]]["gbs"]
    assert s["inter_bw_gbs"] == pytest.approx(links[s["inter_link"]]["gbs"] * s.get("nics", 1), rel=1e-12)
    assert s["gpus_per_node"] >= 1 and s["inter_bw_gbs"] > 0


@pytest.mark.parametrize(
    ("kind", "name", "hint"),
    [
        ("models", "gpt2-l", "'gpt2-large'"),  # was 'gpt2-xl': only a whole part was completed
        ("models", "gpt2-m", "'gpt2-medium'"),  # was 'gpt2'
        ("models", "resnet", "'resnet101' or 'resnet152' or 'resnet50'"),  # was 'resnet50' alone
        ("links", "nvlink", "'nvlink1' or 'nvlink2' or 'nvlink3' or 'nvlink4' or 'nvlink5'"),
        ("systems", "azure-", "'azure-nd-a100-v4' or 'azure-nd-h100-v5' or 'azure-nd-mi300x-v5'"),  # was no hint
        ("gpus", "tpu-v5", "'tpu-v5e' or 'tpu-v5p'"),  # a variant's letter: both (the nearest spelling named one)
        ("gpus", "mi300", "'mi300x-192gb'"),
        ("systems", "DGX-1", "'dgx1-p100' or 'dgx1-v100'"),  # was 'dgx-h100', the nearest spelling
        ("systems", "dgx 1", "'dgx1-p100' or 'dgx1-v100'"),
    ],
)
def test_a_word_typed_in_part_is_still_completed(kind, name, hint):
    """'a10' is no A100 (a model number lengthened), but a word cut short is one: 'gpt2-l' was answered with
    'gpt2-xl', 'resnet' with one of three."""
    from dpscale.catalog import _get
    from dpscale.errors import DpscaleError

    with pytest.raises(DpscaleError) as exc:
        _get(kind, name, "--x")
    assert str(exc.value).startswith(f"--x: got {name!r} (did you mean {hint}?); allowed:")


def test_mistral_s_sliding_window_caps_the_attention_term():
    """Mistral 7B attends to at most W = 4,096 earlier tokens (its paper's window_size): at its 8,192 context the
    attention term is 12·L·h·s·W, not 12·L·h·s² (11.6 % fewer FLOPs in all); at or under W the two agree."""
    m = catalog.model("mistral-7b")
    n = 7_241_732_096 - 32000 * 4096  # the untied input embedding does no matmul
    assert m["window"] == 4096
    assert flops_per_sample(m) == pytest.approx(6 * n * 8192 + 12 * 32 * 4096 * 8192 * 4096, rel=1e-12)
    assert flops_per_sample(m, 2048) == pytest.approx(6 * n * 2048 + 12 * 32 * 4096 * 2048**2, rel=1e-12)
    full = 6 * n * 8192 + 12 * 32 * 4096 * 8192**2
    assert flops_per_sample(m) / full == pytest.approx(0.884, abs=5e-4)


# Review 45 (O): catalog figures against their sources.


def llama2_count(m: dict) -> int:
    """Llama blocks (tests/test_catalog_models.py's form): q, o h×h; k, v h×(h·kv/heads); a SwiGLU MLP of three
    h×ffn matrices; two RMSNorms; an untied output layer beside the embedding; one final norm; no biases."""
    h = m["hidden"]
    kv = h * m.get("kv_heads", m["heads"]) // m["heads"]
    layer = 2 * h * h + 2 * h * kv + 3 * h * m["ffn"] + 2 * h
    return m["layers"] * layer + 2 * m["vocab"] * h + h


LLAMA2_COUNTS = [
    ("llama-7b", 11008, 6_738_415_616), ("llama-13b", 13824, 13_015_864_320), ("llama-70b", 28672, 68_976_648_192),
]  # fmt: skip


@pytest.mark.parametrize("key, ffn, total", LLAMA2_COUNTS)
def test_llama2_presets_hold_their_checkpoints_exact_counts(key, ffn, total):
    """Llama 2's counts were the papers' rounded 6.738e9 / 13.016e9 / 68.977e9 while every other transformer preset
    holds its checkpoint's exact total: the shape (HF config intermediate_size) now gives it, as for Llama 3."""
    m = catalog.model(key)
    assert m["ffn"] == ffn and llama2_count(m) == m["params"] == total


CNN_FIGURES = [
    ("resnet50", 25_557_032, 4.089, 224),  # torchvision *_Weights.meta: num_params, _ops ('GFLOPS': MACs)
    ("resnet101", 44_549_160, 7.801, 224),
    ("resnet152", 60_192_808, 11.514, 224),
    ("vgg16", 138_357_544, 15.47, 224),
    ("efficientnet-b0", 5_288_548, 0.386, 224),
    ("efficientnet-b4", 19_341_616, 4.394, 380),  # B4's crop size
]  # fmt: skip


@pytest.mark.parametrize(("key", "num_params", "gmacs", "size"), CNN_FIGURES)
def test_cnn_presets_are_torchvision_s_figures(key, num_params, gmacs, size):
    """A CNN preset's count, forward MACs and resolution as torchvision's weights metadata prints them [TV-RN]; the
    FLOPs a training image costs are 2 × 3 × those MACs (physics.md §3 pitfall: ResNet-50 ≈ 24.5 GFLOP)."""
    m = catalog.model(key)
    assert (m["params"], m["fwd_gmacs"], m["image_size"]) == (num_params, gmacs, size)


SHAPES = [
    ("bert-base", 64, 128), ("bert-large", 64, 128),  # BERT's phase-1 pre-training sequence: 128
    ("gpt2", 64, 1024), ("gpt2-medium", 64, 1024), ("gpt2-large", 64, 1024), ("gpt2-xl", 64, 1024),  # n_ctx
    ("llama-7b", 128, 4096), ("llama-13b", 128, 4096), ("llama-70b", 128, 4096),  # Llama 2: 4k context
    ("llama3-8b", 128, 8192), ("llama3-70b", 128, 8192), ("mistral-7b", 128, 8192), ("mixtral-8x7b", 128, 32768),
    ("vit-b16", 64, (224 // 16) ** 2 + 1), ("vit-l16", 64, (224 // 16) ** 2 + 1),  # patches + the class token
]  # fmt: skip


@pytest.mark.parametrize(("key", "head_dim", "context"), SHAPES)
def test_a_transformer_s_heads_and_sequence_are_its_papers(key, head_dim, context):
    """Every preset's papers use heads of 64 (BERT, GPT-2, ViT) or 128 (Llama, Mistral) dimensions, so hidden /
    heads is that; the default sequence is the preset's pre-training context (the counts above do not read heads)."""
    m = catalog.model(key)
    assert m["hidden"] == head_dim * m["heads"] and m["seq_len"] == context


def test_every_model_preset_has_its_count_and_shape_typed_again_from_its_source():
    """A preset added to models.json passed every test whatever its count (review HM added Qwen2-7B from a secondary
    source and the fast suite passed): a transformer's count is recomputed from its shape by one of the tests above
    and its heads and context are in SHAPES; a CNN's figures are in CNN_FIGURES."""
    counted = {k for k, *_ in GQA_COUNTS + GPT2_BERT_COUNTS + VIT_COUNTS + LLAMA2_COUNTS + CNN_FIGURES + MOE_COUNTS}
    shaped = {k for k, *_ in SHAPES}
    models = catalog.table("models")
    unchecked = sorted(
        k for k, m in models.items() if k not in counted or (m["kind"] == "transformer" and k not in shaped)
    )
    assert unchecked == [], (
        f"models.json {', '.join(unchecked)}: recompute its count from its shape (GQA_COUNTS' llama_count, or a "
        "counter of its own) and add its heads and context to SHAPES, or its figures to CNN_FIGURES, in "
        "tests/test_catalog_models.py (docs/DEVELOPING.md, 'Adding to the catalog')"
    )
