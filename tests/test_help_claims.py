"""What each command's --help says an option does, held to what the command does: a default it states is what the
command takes without the flag, a figure it states is the one the code uses, a spelling it lists is accepted."""

from __future__ import annotations

import json
import re
from importlib import import_module
from pathlib import Path

import pytest
from clihelp import run

from dpscale.faces.cli import COMMANDS
from dpscale.faces.cli.common import Parser


def _help(cmd: str, flag: str) -> str:
    """The help text of one option, as the command's --help prints it (in English; help_es maps it to Spanish)."""
    mod, description = COMMANDS[cmd]
    parser = Parser(prog=f"dpscale {cmd}", description=description)
    import_module(f"dpscale.faces.cli.{mod}").add_arguments(parser)
    return str(parser._option_string_actions[flag].help)


def _json(capsys, *argv: str) -> tuple[object, list[str]]:
    """The answer and its notes (stderr) under --json."""
    rc, out, err = run(capsys, *argv, "--json")
    assert rc == 0, err
    return json.loads(out), err.splitlines()


# the set-ups the defaults are typed into (one each command, BERT's sweep for most of predict's flags)
BERT = ["--model", "bert-large", "-v", "150", "--system", "dgx-a100"]
SWEEP = [*BERT, "-d", "1..64x2", "-b", "32"]
RUNS = ["--point", "1:100", "--point", "2:190", "--point", "4:360", "--point", "8:650"]
GOYAL = ["-b", "32", "--base-lr", "0.1", "--base-batch", "256", "--dataset-size", "1.28e6"]
LLAMA = ["--model", "llama-7b", "--gpu", "a100-80gb"]
PLAN = ["-n", "1.28e6", "-v", "2000", "-e", "0.9"]

# (command, inputs without the flag, flag): the default the flag's help states, typed, must answer as its absence
STATED = [
    ("calc", ["-d", "8", "-v", "2000", "-e", "0.9"], "--unit"),
    ("predict", [*BERT, "-b", "32"], "--devices"),
    ("predict", [*BERT, "-d", "1..64x2"], "--batch"),
    *(("predict", SWEEP, f) for f in ("--precision", "--grad-accum", "--baseline-devices", "--algorithm",
                                      "--bucket-mb", "--first-bucket-mb", "--alpha-inter")),
    ("predict", ["--model", "bert-large", "--gpu", "a100-80gb", "--system", "dgx-a100", "-d", "1..64x2", "-b", "32"],
     "--mfu"),
    ("predict", ["--model", "resnet50", "-v", "1000", "--system", "pcie-v100-25gbe", "-d", "1..64x2", "-b", "32"],
     "--alpha-intra"),  # (its first figure: PCIe's)
    *(("fit", RUNS, f) for f in ("--confidence", "--resamples", "--seed", "--law")),
    *(("batch", GOYAL, f) for f in ("--grad-accum", "--devices")),
    ("batch", [*GOYAL, "-d", "32"], "--warmup-epochs"),
    ("pipeline", ["-p", "4", "-m", "8"], "--schedule"),
    *(("memory", LLAMA, f) for f in ("--devices", "--micro-batch", "--tensor-parallel")),
    *(("plan", PLAN, f) for f in ("--epochs", "--devices", "--knee-threshold")),
]  # fmt: skip


@pytest.mark.parametrize(("cmd", "inputs", "flag"), STATED, ids=[f"{c} {f}" for c, _, f in STATED])
def test_a_stated_default_is_what_the_command_takes(capsys, cmd, inputs, flag):
    said = _help(cmd, flag)
    # '(default 25; …', '…; default 1)', '(default auto: the fastest …)', PCIe's figure of '(default: the system's
    # link, PCIe 5.7; else 3.4 …)'
    m = re.search(r"PCIe ([\d.]+)" if flag == "--alpha-intra" else r"(?:\(|; )default:? ([^\s;:),]+)", said)
    assert m, said
    default = m[1]
    typed, (answer, notes) = _json(capsys, cmd, *inputs, flag, default), _json(capsys, cmd, *inputs)
    assert typed[0] == answer
    # the notes too (plan's knee is said in one), but for the one that says the default was assumed
    assert typed[1] == [n for n in notes if not n.startswith(f"note: no {flag}:")]


# (model, GPU and cluster, precision) → how predict's --mfu help names the share that case gets by default
MFU_CASES = [
    (("--model", "gpt2", "--gpu", "h100-80gb", "--system", "dgx-h100"), "bf16", "(default {}; "),
    (("--model", "gpt2", "--gpu", "h100-80gb", "--system", "dgx-h100"), "fp8", "fp8: {} of its peak"),
    (("--model", "resnet50", "--gpu", "h100-80gb", "--system", "dgx-h100"), "fp8", "a CNN preset {},"),
    (("--model", "resnet50", "--gpu", "a100-80gb", "--system", "dgx-a100"), "amp", "{} of a tensor- or matrix-core"),
    (("--model", "resnet50", "--gpu", "mi300x-192gb", "--gpus-per-node", "8", "--intra-bw", "64", "--inter-bw", "50"),
     "fp32", "{} of a tensor- or matrix-core"),  # (AMD's fp32 peak is its matrix cores': the help said 0.625 'in fp32')
    (("--model", "resnet50", "--gpu", "a100-80gb", "--system", "dgx-a100"), "fp32", "{} of NVIDIA's fp32 cores'"),
    (("--model", "resnet50", "--gpu", "p100-16gb", "--system", "dgx1-p100"), "fp16",
     "{} of NVIDIA's fp32 cores' (fp32; any precision on Pascal)"),  # (no tensor cores: it was said nowhere)
]  # fmt: skip


@pytest.mark.parametrize(
    ("inputs", "precision", "said"), MFU_CASES, ids=[f"{c[0][1]}-{c[0][3]}-{c[1]}" for c in MFU_CASES]
)
def test_the_mfu_help_names_the_share_each_case_gets(capsys, inputs, precision, said):
    """The share a FLOPs estimate took (its note: 'at 14.8 % of 1,979 TFLOP/s') is the one the help gives that
    case: it named none for a CNN preset in fp8 (14.8 %, under its 'fp8: 0.241'), gave 'fp32' 0.625 where an MI300X
    in fp32 takes 0.215, and a P100 in fp16 0.625 under neither of its cases."""
    rc, _, err = run(capsys, "predict", *inputs, "--precision", precision, "-d", "1,8", "-b", "32", "--csv")
    assert rc == 0, err
    share = float(re.search(r"compute estimated: .* at ([\d.]+) % of", err)[1]) / 100
    assert said.format(f"{share:.3g}") in _help("predict", "--mfu")


@pytest.mark.parametrize("cmd", ["calc", "plan"])
def test_a_per_device_rate_is_said_in_the_unit_it_is_read_in(capsys, cmd):
    """-v is read in --unit (calc's table: 'per-device throughput 2,000 tokens/s'; its JSON row says the unit):
    calc's help said '(samples/s)' alone, where plan's says '(samples/s, or --unit)'."""
    typed = {"calc": ["-e", "0.9"], "plan": ["-n", "1e9", "-e", "0.9"]}[cmd]
    answer, _ = _json(capsys, cmd, *typed, "-d", "8", "-v", "2000", "--unit", "tokens/s")
    row = answer if isinstance(answer, dict) else answer[0]
    assert row["unit"] == "tokens/s" and row["actual_throughput"] == pytest.approx(8 * 2000 * 0.9)
    assert _help(cmd, "--throughput") == "per-device throughput alone (samples/s, or --unit)"


SIZE_FLAGS = [("calc", "--devices"), ("plan", "--devices"), ("batch", "--devices"), ("pipeline", "--microbatches"),
              ("fit", "--at"), ("measure", "--devices")]  # fmt: skip


@pytest.mark.parametrize(("cmd", "flag"), SIZE_FLAGS)
def test_a_list_of_sizes_names_both_ranges_it_takes(capsys, cmd, flag):
    """Every sizes option reads both ranges (parse_devices): fit's --at 8..64+8 predicts 8, 16, …, 64, where its help
    listed 'N, N1,N2,... or A..BxF' alone."""
    said = _help(cmd, flag)
    assert "A..BxF" in said and "A..B+S" in said
    if cmd == "fit":
        runs = ["--point", "1:100", "--point", "2:190", "--point", "4:360", "--point", "8:650"]
        answer, _ = _json(capsys, "fit", *runs, flag, "8..64+8")
        assert [r["devices"] for r in answer["predictions"]] == [8, 16, 24, 32, 40, 48, 56, 64]  # type: ignore[index]


def test_measure_out_names_every_mode_that_writes_it():
    """`measure equivalence --out F` appends its record to F (test_measure_runs' Spanish equivalence test reads it
    back; docs/measure.md: a file of training records refuses equivalence records), which --out's help left out:
    'train: append JSONL per size as it finishes; allreduce: calib.json'."""
    said = _help("measure", "--out")
    assert [m for m in ("train:", "allreduce:", "equivalence:") if m not in said] == []


def test_the_zero3_unit_the_bucket_help_names_is_the_one_taken(capsys):
    """Under --zero 3 a CNN preset keeps DDP's 25 MiB units (no layers to wrap) and a --params model without a
    preset gets one of its estimated layers (said in a note); --bucket-mb's help named 'one layer of a transformer
    preset' alone."""
    said = _help("predict", "--bucket-mb")
    cnn = ["--model", "resnet50", "-v", "1000", "--system", "dgx-a100", "-d", "1..64x4", "-b", "32", "--zero", "3"]
    assert _json(capsys, "predict", *cnn)[0] == _json(capsys, "predict", *cnn, "--bucket-mb", "25")[0]
    params = ["--params", "7e9", "--seq-len", "2048", "--gpu", "h100-80gb", "--system", "dgx-h100", "-d", "8,64"]
    _, notes = _json(capsys, "predict", *params, "-b", "4", "--zero", "3")
    assert any("layers estimated from the parameter count" in n for n in notes)
    assert "with --zero 3, FSDP's unit: one transformer layer, a preset's or one estimated from --params, else 25" in (
        said
    )


def test_the_warmup_default_names_the_batch_it_is_taken_at(capsys):
    """batch_plan warms up by Goyal's 5 epochs only where the linear rule grows the batch past --base-batch; at or
    below it there is no warm-up, where --warmup-epochs' help said '(default 5 with the linear rule, Goyal)' and
    typing 5 there adds 5 epochs (50,000 steps at -b 32 -d 4 on 1.28e6 samples) — review HT, after the sweep above
    pinned the default in the one case it holds."""
    ref = ["--base-lr", "0.1", "--base-batch", "256", "--dataset-size", "1.28e6"]
    grew, _ = _json(capsys, "batch", "-b", "32", "-d", "16", *ref)
    same, _ = _json(capsys, "batch", "-b", "32", "-d", "8", *ref)
    below, _ = _json(capsys, "batch", "-b", "32", "-d", "4", *ref)
    rows = [r if isinstance(r, dict) else r[0] for r in (grew, same, below)]  # type: ignore[index]
    assert [r["global_batch"] for r in rows] == [512, 256, 128] and rows[0]["warmup_epochs"] == 5.0
    assert "warmup_epochs" not in rows[1] and "warmup_epochs" not in rows[2]
    said = _help("batch", "--warmup-epochs")
    assert (
        said
        == "warm-up length (default 5 with the linear rule once the batch grows past --base-batch, Goyal; else none)"
    )


def test_the_gpu_help_names_each_use_the_gpu_is_put_to(capsys):
    """predict --help said --gpu was 'for a FLOPs estimate' alone; it also swaps a system's GPU (its memory speed sets
    the synchronisation cost at a measured rate too) and settles a name two systems share. Each use it names, run."""
    said = _help("predict", "--gpu")
    assert "FLOPs estimate" in said and "memory speed" in said and "DGX-1 with v100-16gb" in said
    base = [*BERT, "-d", "8"]
    (own,), _ = _json(capsys, "predict", *base)
    (swapped,), notes = _json(capsys, "predict", *base, "--gpu", "h100-80gb")  # a measured rate: no FLOPs estimate
    assert swapped["sync_wait_s"] < own["sync_wait_s"] and any("--gpu h100-80gb in place of" in n for n in notes)
    rc, _, err = run(capsys, "predict", "--system", "DGX-1", "-v", "1000", "--model", "resnet50", "-d", "8")
    assert rc == 2 and "dgx1-p100" in err and "dgx1-v100" in err  # the shared name alone: which one?
    cnn = ["-v", "1000", "--model", "resnet50", "-d", "8"]
    (v100,), _ = _json(capsys, "predict", "--system", "DGX-1", "--gpu", "v100-16gb", *cnn)
    (named,), _ = _json(capsys, "predict", "--system", "dgx1-v100", *cnn)
    assert v100 == named


def test_the_pipeline_dp_efficiency_help_says_how_to_predict_it(capsys):
    """pipeline --help said to take --dp-efficiency by 'predict at that size' — at D/p devices, but of what? Each of
    the D/p replicas all-reduces one stage's gradients once per m micro-batches: the help and docs/calculators.md
    name the recipe, and the recipe's E is not the whole model's (7B, p 4, m 8, 8 replicas at 50 GB/s: 0.686 vs
    0.280 — the figures the docs quote)."""
    said = _help("pipeline", "--dp-efficiency")
    assert "-d devices/stages, one stage's share of --params and of --inter-bw, and --grad-accum M" in said
    fabric = ["-d", "8", "-b", "1", "--seq-len", "2048", "--precision", "bf16", "--gpu", "h100-80gb",
              "--gpus-per-node", "1", "--intra-bw", "1", "--inter-bw", "50"]  # fmt: skip
    (stage,), _ = _json(capsys, "predict", *fabric, "--params", "1.75e9", "--grad-accum", "8")
    (whole,), _ = _json(capsys, "predict", *fabric, "--params", "7e9")
    assert (round(stage["efficiency"], 3), round(whole["efficiency"], 3)) == (0.686, 0.28)
    doc = (Path(__file__).resolve().parents[1] / "docs" / "calculators.md").read_text(encoding="utf-8")
    assert "`--params 1.75e9 --grad-accum 8` predicts 0.686,\n`--params 7e9` alone 0.280" in doc
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "-d", "32", "-e", str(stage["efficiency"]), "--json")
    assert rc == 0 and round(json.loads(out)["combined_efficiency"], 4) == round(stage["efficiency"] * 8 / 11, 4)


def test_the_gpu_help_and_swap_note_name_the_ring_fill_that_moves_the_all_reduce(capsys):
    """Review II of 37de65b: --gpu in place of a system's GPU also brings its ring fill (gpus.json ring_fill_us: 0 from
    Hopper on, else 11.2 µs a step), so BERT-large's all-reduce on a DGX A100's own links fell 18.56 → 12.77 ms with
    --gpu h100-80gb, and on a DGX H100's rose 9.51 → 15.29 ms with --gpu a100-80gb — while the help named only the
    peak and the memory speed, and the note said 'its memory bandwidth (and peak …) are used, the links kept'."""
    from dpscale.faces.help_es import HELP_ES
    from dpscale.faces.i18n import label

    ms = {}
    for system, gpu in (("dgx-a100", "a100-80gb"), ("dgx-a100", "h100-80gb"), ("dgx-h100", "h100-80gb"),
                        ("dgx-h100", "a100-80gb")):  # fmt: skip
        (rec,), notes = _json(capsys, "predict", "--model", "bert-large", "-v", "150", "-d", "8", "--system", system,
                              "--gpu", gpu)  # fmt: skip
        ms[system, gpu] = round(rec["allreduce_s"] * 1e3, 2)
        if gpu[:4] not in system:  # a swap (h100 on dgx-a100, a100 on dgx-h100): its note names what moved
            (said,) = [n for n in notes if "in place of" in n]
            assert (
                "its memory bandwidth, its ring fill (on every GPU but Hopper and Blackwell, the all-reduce's" in said
            )
    assert ms == {("dgx-a100", "a100-80gb"): 18.56, ("dgx-a100", "h100-80gb"): 12.77,
                  ("dgx-h100", "h100-80gb"): 9.51, ("dgx-h100", "a100-80gb"): 15.29}  # fmt: skip
    said = _help("predict", "--gpu")
    assert "its ring fill for the all-reduce (on every GPU but Hopper and Blackwell, mid-size buckets run below" in said
    assert "su llenado del anillo para el all-reduce (en toda GPU salvo Hopper y Blackwell, los" in HELP_ES[
        said.rsplit(": ", 1)[0] + ": {}"]  # fmt: skip
    rc, out, _ = run(capsys, "predict", *BERT, "-d", "8", "--gpu", "h100-80gb", "--lang", "es")
    assert rc == 0 and "se usan su ancho de banda de memoria, su llenado del anillo (en toda GPU salvo Hopper" in out
    for lang, words in (("en", "its ring fill"), ("es", "su llenado del anillo")):
        assert words in label("web_gpu_swapped", lang)


def test_the_ring_fill_words_hold_for_every_gpu_of_the_catalog(capsys):
    """Review IL of bbd2d08: the --gpu help and the swap note said the ring fill slows mid-size buckets 'before Hopper',
    but gpus.json gives 0 to Hopper and Blackwell alone: the L4 and L40S (Ada, Hopper's generation), the MI250X and
    MI300X and the three TPUs take the A100's default fill too — BERT-large's all-reduce on a DGX H100's links rose
    9.51 → 15.29 ms with --gpu mi300x-192gb or l40s-48gb, as with a100-80gb, while the note named a fill 'before
    Hopper'. The words now name the GPUs that have none, as the catalog does."""
    from dpscale.catalog import table
    from dpscale.faces.help_es import HELP_ES
    from dpscale.faces.i18n import label

    gpus = table("gpus")
    none = {g for g, part in gpus.items() if part.get("ring_fill_us") == 0}
    assert {gpus[g]["arch"] for g in none} == {"hopper", "blackwell"}
    assert not any(gpus[g]["arch"] in ("hopper", "blackwell") for g in set(gpus) - none)
    for gpu in gpus:
        (rec,), notes = _json(capsys, "predict", "--model", "bert-large", "-v", "150", "-d", "8", "--system",
                              "dgx-h100", "--gpu", gpu)  # fmt: skip
        assert round(rec["allreduce_s"] * 1e3, 2) == (9.51 if gpu in none else 15.29), gpu
        said = " ".join(n for n in notes if "in place of" in n)
        assert gpu == "h100-80gb" or "its ring fill (on every GPU but Hopper and Blackwell, the all-reduce's" in said
    help_en = _help("predict", "--gpu")
    assert "its ring fill for the all-reduce (on every GPU but Hopper and Blackwell, mid-size buckets run" in help_en
    assert "before Hopper" not in help_en
    assert (
        "(en toda GPU salvo Hopper y Blackwell, los buckets medianos van"
        in HELP_ES[help_en.rsplit(": ", 1)[0] + ": {}"]
    )
    rc, out, _ = run(capsys, "predict", *BERT, "-d", "8", "--gpu", "mi300x-192gb", "--lang", "es")
    assert rc == 0 and "su llenado del anillo (en toda GPU salvo Hopper y Blackwell, los buckets medianos" in out
    for lang, words in (("en", "(on every GPU but Hopper and Blackwell, "), ("es", "(en toda GPU salvo Hopper y ")):
        assert words in label("web_gpu_swapped", lang)
    doc = (Path(__file__).resolve().parents[1] / "docs" / "predict.md").read_text(encoding="utf-8")
    assert "every other GPU of the catalog, Ada's L4 and L40S, AMD's and the TPUs among them, takes the A100's τ" in doc


def test_the_pipeline_dp_efficiency_recipe_shares_a_node_s_network_among_its_stages(capsys):
    """Review IL of 95ed58d: the recipe's worked example read '8 replicas one a node at 50 GB/s', but its inputs
    (--gpus-per-node 1 --inter-bw 50, a node's figure) give each stage's group of 8 GPUs a node's 50 GB/s to itself:
    with one replica a node, its 4 stages' groups all-reduce at once through that node's 50 GB/s, 12.5 each, and E
    is 0.405, not 0.686. The help and docs/calculators.md now take one stage's share of --inter-bw, and the example
    says which fabric each figure is for."""
    said = _help("pipeline", "--dp-efficiency")
    assert "one stage's share of --params and of --inter-bw, and --grad-accum M" in said
    from dpscale.faces.help_es import HELP_ES

    assert "la parte de --params y de --inter-bw de una etapa y --grad-accum M" in HELP_ES[said]
    fabric = ["-d", "8", "-b", "1", "--seq-len", "2048", "--precision", "bf16", "--gpu", "h100-80gb",
              "--gpus-per-node", "1", "--intra-bw", "1", "--params", "1.75e9", "--grad-accum", "8"]  # fmt: skip
    (own,), _ = _json(capsys, "predict", *fabric, "--inter-bw", "50")
    (shared,), _ = _json(capsys, "predict", *fabric, "--inter-bw", "12.5")
    assert (round(own["efficiency"], 3), round(shared["efficiency"], 3)) == (0.686, 0.405)
    doc = (Path(__file__).resolve().parents[1] / "docs" / "calculators.md").read_text(encoding="utf-8")
    assert "8 replicas one a node at 50 GB/s" not in doc
    flat = " ".join(doc.split())
    assert "each GPU of a stage's group on a node of its own at 50 GB/s (`--gpus-per-node 1 --inter-bw 50`)" in flat
    assert "one replica a node, its 4 stages sharing the node's 50 GB/s (`--inter-bw 12.5`), 0.405" in flat


def test_the_measure_warmup_help_counts_the_untimed_steps_as_the_docs_do():
    """Review IL of a0125ea: docs/measure.md now counts a rank's untimed steps as --warmup synchronised, then
    min(--warmup, 2) under no_sync (none under --zero) — 3 + 2 at --warmup 3, as test_the_docs_count_the_untimed_steps_
    a_rank_runs counts by forwards — but --warmup's help still said 'untimed steps first', N of them: the clock leaves
    out up to 2 more than the help says."""
    from dpscale.faces.help_es import HELP_ES

    said = _help("measure", "--warmup")
    assert (
        said
        == "synchronised steps first, untimed; then min(N, 2) under no_sync, untimed too, none with --zero (default 10)"
    )
    es = HELP_ES[
        "synchronised steps first, untimed; then min(N, 2) under no_sync, untimed too, none with --zero (default {})"
    ]
    assert es.format(10) == (
        "pasos sincronizados al principio, sin cronometrar; luego min(N, 2) con no_sync, tampoco cronometrados, "
        "ninguno con --zero (por defecto 10)"
    )


@pytest.mark.parametrize("cmd", ["predict", "memory"])
def test_the_model_file_help_names_every_hugging_face_type_it_reads(capsys, cmd, tmp_path):
    """--model-file's help said 'a Hugging Face config.json of a Llama or Mistral model' (and 'de un modelo Llama o
    Mistral'), while catalog.HF_TYPES reads a Mixtral config.json too since 61bb500 (46,702,792,704 parameters, 12.9 B
    a token) — review KE. Each type it reads, named in both languages, and a Mixtral config read as one."""
    from dpscale.catalog.hf import HF_TYPES
    from dpscale.faces.help_es import HELP_ES

    said = _help(cmd, "--model-file")
    # another type: name it in the help, and here (review KK: Qwen2, Gemma, Gemma 2, Phi-3)
    assert HF_TYPES == ("llama", "mistral", "mixtral", "qwen2", "gemma", "gemma2", "phi3")
    assert "a Hugging Face config.json of a Llama, Mistral, Mixtral, Qwen2, Gemma, Gemma 2 or Phi-3 model" in said
    assert ("un config.json de Hugging Face de un modelo Llama, Mistral, Mixtral, Qwen2, Gemma, Gemma 2 o "
            "Phi-3") in HELP_ES[said]  # fmt: skip
    config = {"model_type": "mixtral", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
              "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 32000, "num_local_experts": 8,
              "num_experts_per_tok": 2, "max_position_embeddings": 4096, "tie_word_embeddings": False}  # fmt: skip
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    rc, out, err = run(capsys, cmd, "--model-file", str(path), *(["--system", "dgx-h100"] * (cmd == "predict")),
                       "-d", "8")  # fmt: skip
    assert rc == 0 and "mixture of experts" in out, err  # (predict: 12.88 B a token; memory: every expert's states)
