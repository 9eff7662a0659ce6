"""A mixture of experts (--model-file): a token's FLOPs run the experts it is routed to, its gradient is all of
them. Mixtral 8x7B's 46.7 B parameters were counted 6·N a token, 3.45× the compute of the 12.9 B a token passes
through (Jiang et al. 2024, "Mixtral of Experts", §1: 47 B parameters, 13 B active), so a FLOPs estimate made its
step 3.45× too long and its E too high; a Mixtral config.json was refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import run

from dpscale.catalog import load_model_file
from dpscale.errors import DpscaleError
from dpscale.formulas.compute import flops_per_sample
from dpscale.sources.predict import predict

# mistralai/Mixtral-8x7B-v0.1's config.json (the hub's file, the fields as they stand there)
MIXTRAL_HF = {
    "architectures": ["MixtralForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1, "eos_token_id": 2,
    "hidden_act": "silu", "hidden_size": 4096, "initializer_range": 0.02, "intermediate_size": 14336,
    "max_position_embeddings": 32768, "model_type": "mixtral", "num_attention_heads": 32, "num_experts_per_tok": 2,
    "num_hidden_layers": 32, "num_key_value_heads": 8, "num_local_experts": 8, "output_router_logits": False,
    "rms_norm_eps": 1e-05, "rope_theta": 1000000.0, "router_aux_loss_coef": 0.02, "sliding_window": None,
    "tie_word_embeddings": False, "torch_dtype": "bfloat16", "transformers_version": "4.36.0.dev0",
    "use_cache": True, "vocab_size": 32000,
}  # fmt: skip
# Per layer: q, o 4,096², k, v 4,096 × 1,024, 8 SwiGLU experts of 3 × 4,096 × 14,336, a 4,096 × 8 router, two norms
# = 1,451,286,528; × 32 + embedding and output 2 × 32,000 × 4,096 + the final norm 4,096 = 46,702,792,704 (the
# checkpoint's total). A token: 2 of the 8 experts, the router whole: 12,879,925,248.
TOTAL, ACTIVE = 46_702_792_704, 12_879_925_248
PREDICT = dict(devices=[8, 64], system="dgx-h100", precision="bf16", batch=1, seq_len=4096)


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_a_mixtral_config_gives_its_checkpoint_s_total_and_the_count_a_token_runs(tmp_path):
    entry = load_model_file(write(tmp_path, "config.json", MIXTRAL_HF))
    assert (entry["params"], entry["active_params"]) == (TOTAL, ACTIVE)
    # Mixtral 8x22B (56 layers, 6,144 wide, 48 heads, 8 KV, 16,384, vocabulary 32,768): 141 B, 39 B active
    big = dict(MIXTRAL_HF, num_hidden_layers=56, hidden_size=6144, num_attention_heads=48, intermediate_size=16384,
               vocab_size=32768)  # fmt: skip
    entry = load_model_file(write(tmp_path, "big.json", big))
    assert (entry["params"], entry["active_params"]) == (140_630_071_296, 39_161_468_928)
    # every expert run (k = E): a dense model of E MLPs, no count apart
    assert "active_params" not in load_model_file(write(tmp_path, "all.json", dict(MIXTRAL_HF, num_experts_per_tok=8)))


def test_the_flops_count_the_active_parameters_the_gradient_all_of_them(tmp_path):
    entry = load_model_file(write(tmp_path, "config.json", MIXTRAL_HF))
    s, lookup = 4096, 32000 * 4096  # (untied: the input embedding's lookup does no matmul)
    attention = 12 * 32 * 4096 * s * s
    assert flops_per_sample(entry, s) == 6 * (ACTIVE - lookup) * s + attention  # 339.7 TFLOP a sequence
    # --params over it (a variant twice the size) keeps its active share: twice the active count
    assert flops_per_sample(entry, s, params=2 * TOTAL) == pytest.approx(6 * (2 * ACTIVE - lookup) * s + attention)
    moe = predict(model_file=write(tmp_path, "moe.json", {**entry, "source": "x"}), **PREDICT)
    dense = {k: v for k, v in entry.items() if k != "active_params"}
    all_params = predict(model_file=write(tmp_path, "dense.json", dense), **PREDICT)
    ratio = (6 * (TOTAL - lookup) * s + attention) / (6 * (ACTIVE - lookup) * s + attention)  # 3.45
    assert all_params.breakdown.compute_s == pytest.approx(moe.breakdown.compute_s * ratio)
    assert list(moe.breakdown.allreduce_s) == list(all_params.breakdown.allreduce_s)  # 93.4 GB of bf16 both
    assert moe.efficiency_values[1] < all_params.efficiency_values[1] - 0.1  # less compute hides less all-reduce


def test_the_note_says_the_count_a_token_runs_in_both_languages(tmp_path, capsys):
    path = write(tmp_path, "config.json", MIXTRAL_HF)
    argv = ("predict", "--model-file", path, "--system", "dgx-h100", "--precision", "bf16", "--batch", "1",
            "--seq-len", "4096", "-d", "8")  # fmt: skip
    rc, err, _ = run(capsys, *argv)  # (the table and its notes: standard output)
    assert rc == 0
    assert ("note: a mixture of experts: its FLOPs count the 12.88 B parameters one token passes through (27.6 % of "
            "its count), the gradient all-reduce all of them") in err  # fmt: skip
    assert "compute estimated: 339.7 TFLOP per micro-batch" in err
    rc, err, _ = run(capsys, *argv, "--lang", "es")
    assert ("nota: una mezcla de expertos: sus FLOPs cuentan los 12,88 mil millones de parámetros por los que pasa "
            "un token (27,6 % del total), el all-reduce del gradiente todos") in err  # fmt: skip


@pytest.mark.parametrize(
    "change, said",
    [
        ({"num_local_experts": "8"}, 'num_local_experts "8"; allowed: a whole number from 1 to 10,000,000'),
        ({"num_experts_per_tok": 2.5}, "num_experts_per_tok 2.5; allowed: a whole number from 1 to 10,000,000"),
        ({"num_experts_per_tok": 9}, "num_experts_per_tok 9; allowed: at most num_local_experts (8)"),
        ({"num_local_experts": True}, "num_local_experts true; allowed: a whole number"),
        # review KI: none routed (the count would be the shared layers alone) and a count past MOST_WHOLE, said as
        # the count's own range, not the derived total's
        ({"num_experts_per_tok": 0}, "num_experts_per_tok 0; allowed: a whole number from 1 to 10,000,000"),
        ({"num_local_experts": 10_000_001}, "num_local_experts 10000001; allowed: a whole number from 1 to 10,000,000"),
        # review KI: NaN was a traceback (int(NaN) before the range), Infinity 'a number too large to compute with
        # (cannot convert float infinity to integer)', naming neither key nor value; as hidden_size's are said
        ({"num_local_experts": float("nan")}, "num_local_experts NaN; allowed: a whole number from 1 to 10,000,000"),
        ({"num_experts_per_tok": float("inf")}, "num_experts_per_tok Infinity; allowed: a whole number from 1 to "),
    ],
)
def test_a_mixtral_config_s_expert_counts_are_checked(tmp_path, change, said):
    config = {k: v for k, v in {**MIXTRAL_HF, **change}.items() if v is not None}
    with pytest.raises(
        DpscaleError, match="^--model-file: .*config.json: " + said.replace("(", r"\(").replace(")", r"\)")
    ):
        load_model_file(write(tmp_path, "config.json", config))


def test_a_models_json_entry_s_active_count_is_checked(tmp_path, capsys):
    entry = {"kind": "transformer", "params": 46.7e9, "layers": 32, "hidden": 4096, "heads": 32, "seq_len": 4096}
    for active, allowed in ((47e9, "from 1,000 to its params (4.67e+10)"), (12, "from 1,000"), ("13e9", "")):
        path = write(tmp_path, "m.json", {**entry, "active_params": active})
        rc, _, err = run(capsys, "predict", "--model-file", path, "--system", "dgx-h100", "-d", "8")
        assert rc == 2 and f"m.json': active_params {json.dumps(active)}; allowed: the parameters one token" in err
        assert allowed in err and err.count("\n") == 1
    # another tool's name for it, where the entry lacks the field: refused, not ignored (dense FLOPs, silently)
    path = write(tmp_path, "m.json", {**entry, "num_active_params": 12.9e9})
    rc, _, err = run(capsys, "predict", "--model-file", path, "--system", "dgx-h100", "-d", "8")
    assert rc == 2 and "num_active_params" in err and "active_params" in err.replace("num_active_params", "")
    # a CNN never reads it: it describes the entry
    cnn = {"kind": "cnn", "params": 25.6e6, "fwd_gmacs": 4.1, "active_params": 1}
    rc, err, _ = run(capsys, "predict", "--model-file", write(tmp_path, "c.json", cnn), "--system", "dgx-a100",
                     "-d", "8")  # fmt: skip
    assert rc == 0 and "mixture of experts" not in err
    # nor another tool's name for it (review KI: a CNN's 'activated_params' was not to be 'did you mean active_params')
    cnn = {"kind": "cnn", "params": 25.6e6, "fwd_gmacs": 4.1, "activated_params": 5}
    rc, err, _ = run(capsys, "predict", "--model-file", write(tmp_path, "c.json", cnn), "--system", "dgx-a100",
                     "-d", "8")  # fmt: skip
    assert rc == 0 and "mixture of experts" not in err


@pytest.mark.parametrize("name", ["num_local_experts", "num_experts_per_tok", "num_experts", "n_routed_experts",
                                  "moe_num_experts", "moe_top_k", "moe_router_topk", "num_experts_per_token",
                                  "experts_per_token", "Num-Experts"])  # fmt: skip
def test_an_entry_naming_its_experts_without_active_params_is_refused_not_counted_whole(tmp_path, capsys, name):
    """Review KA: Mixtral 8x7B in models.json's format with the config's num_local_experts 8 and num_experts_per_tok
    2 but no active_params was read as a dense 46.7 B — 'compute estimated: 1,171 TFLOP per micro-batch', 3.45× the
    339.7 its 12.88 B active parameters take — without a word: the very error active_params is there to prevent."""
    entry = {"kind": "transformer", "params": TOTAL, "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
             "ffn": 14336, "vocab": 32000, "seq_len": 4096, "tied_embeddings": False}  # fmt: skip
    argv = ("predict", "--system", "dgx-h100", "--precision", "bf16", "--batch", "1", "-d", "8", "--model-file")
    rc, _, err = run(capsys, *argv, write(tmp_path, "m.json", {**entry, name: 8}))
    assert rc == 2 and err.count("\n") == 1
    assert (f"model 'm.json': key '{name}' (a mixture of experts' count: its FLOPs need active_params, the "
            "parameters one token passes through); allowed: active_params beside it, or no expert count (a dense "
            "model)") in err  # fmt: skip
    rc, out, _ = run(capsys, *argv, write(tmp_path, "m.json", {**entry, name: 8, "active_params": ACTIVE}))
    assert rc == 0 and "compute estimated: 339.7 TFLOP per micro-batch" in out
    rc, out, _ = run(capsys, *argv, write(tmp_path, "m.json", {**entry, name: None}))  # null: it describes
    assert rc == 0 and "compute estimated: 1,171 TFLOP per micro-batch" in out
    cnn = {"kind": "cnn", "params": 25.6e6, "fwd_gmacs": 4.1, name: 8}  # a CNN's FLOPs are its fwd_gmacs
    rc, _, _ = run(capsys, *argv, write(tmp_path, "c.json", cnn))
    assert rc == 0


def test_memory_counts_every_expert_s_states_and_says_its_activations_are_one_mlp_s(tmp_path, capsys):
    path = write(tmp_path, "config.json", MIXTRAL_HF)
    argv = ("memory", "--model-file", path, "--precision", "bf16", "--seq-len", "4096", "-d", "64", "--json")
    rc, out, _ = run(capsys, *argv)
    rows = {r["stage"]: r for r in json.loads(out)}
    # all in bf16: weights 2 + gradients 2 + Adam's two moments 2 + 2 bytes a parameter, × the checkpoint's 46.7 B
    # (not the 12.9 B a token runs): 373.6 GB under DDP, 5.84 GB a device under ZeRO-3 on 64
    assert rc == 0 and rows[0]["model_state_bytes_per_device"] == 8 * TOTAL
    assert rows[3]["model_state_bytes_per_device"] == pytest.approx(8 * TOTAL / 64)
    rc, out, _ = run(capsys, *argv[:-1])
    assert "config.json is a mixture of experts: its model states count every expert, its activations one MLP" in out
    rc, out, _ = run(capsys, *argv[:-1], "--lang", "es")
    assert "config.json es una mezcla de expertos: sus estados del modelo cuentan todos los expertos" in out


def test_the_mixtral_preset_is_its_config_json(tmp_path):
    """models.json's mixtral-8x7b (the paper's Table 1) and the hub's config.json predict the same step, and its hub
    ids name it."""
    from_file = predict(model_file=write(tmp_path, "config.json", MIXTRAL_HF), **PREDICT)
    for name in ("mixtral-8x7b", "mistralai/Mixtral-8x7B-Instruct-v0.1", "mistralai/Mixtral-8x7B-v0.1"):
        preset = predict(model=name, **PREDICT)
        assert list(preset.breakdown.step_s) == list(from_file.breakdown.step_s)
        assert preset.model_entry["active_params"] == ACTIVE


def test_the_flops_a_token_note_counts_a_mixture_of_experts_on_its_active_parameters(capsys):
    """Review JZ's FLOPs-a-token note (6·N + attention, against 6 × the count alone) on Mixtral at 4,096 tokens:
    N = 12,879,925,248 − the 131,072,000 of the input embedding = 12,748,853,248, 6·N = 76.49 G, attention
    12 · 32 · 4,096 · 4,096 = 6.442 G, 82.94 G a token; 6 × 12,879,925,248 = 77.28 G is 6.82 % fewer. 6 × all 46.7 B
    (280.2 G) would be 3.4× more — the count a token passes through, not the checkpoint's."""
    argv = ("predict", "--model", "mixtral-8x7b", "--system", "dgx-h100", "--precision", "bf16", "--batch", "1",
            "--seq-len", "4096", "-d", "8")  # fmt: skip
    rc, out, _ = run(capsys, *argv)
    said = ("6·N = 76.49 G (N = 12,748,853,248: the input embedding's 131,072,000 parameters left out, a lookup) + "
            "attention's 12·L·h·k = 6.442 G (4,096 keys a token) = 82.94 G; 6 × all 12,879,925,248 parameters a "
            "token passes through alone counts 6.82 % fewer")  # fmt: skip
    assert rc == 0 and said in out
    rc, out, _ = run(capsys, *argv, "--lang", "es")
    assert "6 × todos los 12.879.925.248 parámetros por los que pasa un token solo cuenta un 6,82 % menos" in out


def test_an_active_count_equal_to_the_whole_says_no_mixture(tmp_path, capsys):
    """active_params equal to params (every parameter runs a token: a dense model written with the field) said 'a
    mixture of experts: … (100 % of its count)' — review KA; its FLOPs are the dense count's, and no note now."""
    entry = {"kind": "transformer", "params": 7e9, "active_params": 7e9, "layers": 32, "hidden": 4096, "heads": 32,
             "seq_len": 4096}  # fmt: skip
    dense = {k: v for k, v in entry.items() if k != "active_params"}
    for command in ("predict", "memory"):
        extra = ("--system", "dgx-h100") if command == "predict" else ()
        rc, out, _ = run(capsys, command, "--model-file", write(tmp_path, "m.json", entry), *extra, "-d", "8")
        rc2, out2, _ = run(capsys, command, "--model-file", write(tmp_path, "m.json", dense), *extra, "-d", "8")
        assert rc == rc2 == 0 and "mixture of experts" not in out and out == out2


@pytest.mark.parametrize(
    "params, count, tflop, n",
    [("93.4e9", "25.76 B", "656.2", "25,627,238,125"), ("12.9e9", "3.558 B", "110.6", "3,426,553,274")],
)
def test_a_params_over_the_mixtral_preset_keeps_its_active_share(capsys, params, count, tflop, n):
    """docs/predict.md (review KA, f2da4eeb): `--params` over a mixture-of-experts preset keeps its active share, and
    the note says the count its FLOPs use — pinned by no test (review KE). By hand: 93.4e9 × 12,879,925,248 /
    46,702,792,704 = 25,758,310,125 a token (27.6 %), less the input embedding's 32,000 × 4,096 = 131,072,000:
    N = 25,627,238,125, 6·N = 153.76 G + attention 12 · 32 · 4,096 · 4,096 = 6.442 G, × 4,096 tokens = 656.2 TFLOP;
    12.9e9 (its active count typed as the whole): 3,557,625,274 a token, N 3,426,553,274, 27.0 G × 4,096 = 110.6."""
    argv = ("predict", "--model", "mixtral-8x7b", "--system", "dgx-h100", "--precision", "bf16", "--batch", "1",
            "--seq-len", "4096", "-d", "8", "--params", params)  # fmt: skip
    rc, out, _ = run(capsys, *argv)
    assert rc == 0
    assert (f"a mixture of experts: its FLOPs count the {count} parameters one token passes through (27.6 % of its "
            "count)") in out  # fmt: skip
    assert f"compute estimated: {tflop} TFLOP per micro-batch" in out and f"(N = {n}: the input embedding's" in out


def test_one_rule_says_what_a_mixture_of_experts_is_and_what_a_token_runs():
    """formulas.compute: the rule predict's note, memory's note and the FLOPs read (review KE: predict and memory
    each wrote `active_params < params` and predict the share again)."""
    from dpscale.catalog import model
    from dpscale.formulas.compute import mixture_of_experts, token_params

    mixtral = model("mixtral-8x7b")
    assert mixture_of_experts(mixtral) and token_params(mixtral) == ACTIVE
    assert token_params(mixtral, 2 * TOTAL) == 2 * ACTIVE and token_params(model("llama3-8b")) == 8_030_261_248
    assert not mixture_of_experts({**mixtral, "active_params": TOTAL})  # every parameter runs: dense
    assert not mixture_of_experts(model("llama3-8b"))
    assert not mixture_of_experts({"kind": "cnn", "params": 25.6e6, "fwd_gmacs": 4.1, "active_params": 1})  # unread


def test_a_params_over_the_mixtral_preset_keeps_its_active_share_in_both_notes(capsys):
    """Review KI (mutation pass): --params over a mixture of experts scales the count a token runs by the preset's
    share, in the mixture note and in the FLOPs-a-token note, as flops_per_sample does. By hand, --params
    93,405,585,408 = 2 × 46,702,792,704: active 2 × 12,879,925,248 = 25,759,850,496 ('25.76 B'), 12,879,925,248 /
    46,702,792,704 = 27.58 % of the count; N = 25,759,850,496 − the input embedding's 32,000 × 4,096 = 131,072,000
    → 25,628,778,496, 6·N = 153.8 G, attention 12 · 32 · 4,096 · 4,096 = 6.442 G, 160.2 G a token; 6 × 25,759,850,496
    = 154.6 G is 3.53 % fewer. (The notes once read the preset's 12.88 B, 13.8 %, whatever --params said.)"""
    rc, out, _ = run(capsys, "predict", "--model", "mixtral-8x7b", "--system", "dgx-h100", "--precision", "bf16",
                     "--batch", "1", "--seq-len", "4096", "-d", "8", "--params", "93405585408")  # fmt: skip
    assert rc == 0
    assert ("a mixture of experts: its FLOPs count the 25.76 B parameters one token passes through (27.6 % of its "
            "count)") in out  # fmt: skip
    assert ("6·N = 153.8 G (N = 25,628,778,496: the input embedding's 131,072,000 parameters left out, a lookup) + "
            "attention's 12·L·h·k = 6.442 G (4,096 keys a token) = 160.2 G; 6 × all 25,759,850,496 parameters a "
            "token passes through alone counts 3.53 % fewer") in out  # fmt: skip


def test_memory_says_the_mixtral_preset_s_whole_notes_in_both_languages(capsys):
    """Review KI (mutation pass): the mixture-of-experts note's clause on routing (a token's k MLPs, more than one)
    and the preset's attention_dropout false (Mixtral's config: attention_dropout 0.0), which says Korthikanti's
    constants overstate its activations, were unasserted: either could go unseen."""
    argv = ("memory", "--model", "mixtral-8x7b", "-d", "8", "--precision", "bf16", "--seq-len", "4096")
    rc, out, _ = run(capsys, *argv)
    assert rc == 0
    assert ("note: mixtral-8x7b is a mixture of experts: its model states count every expert, its activations one MLP "
            "a token as a dense layer's — a token routed to k experts keeps k MLPs' (and the router's), more than "
            "this") in out  # fmt: skip
    assert "note: mixtral-8x7b has no attention dropout and a SwiGLU MLP: Korthikanti's constants" in out
    rc, out, _ = run(capsys, *argv, "--lang", "es")
    assert ("mixtral-8x7b es una mezcla de expertos: sus estados del modelo cuentan todos los expertos, sus "
            "activaciones un MLP por token, como una capa densa — un token enviado a k expertos guarda las de k MLP "
            "(y las del router), más que esto") in out  # fmt: skip
