"""Review 45 X: a first-time user's hour with the CLI — the names typed, the notes read."""

from __future__ import annotations

import pytest

from dpscale import catalog
from dpscale.faces.cli import main


def _run(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize(
    ("typed", "key"),
    [("llama2-13b", "llama-13b"), ("Llama-2-13B", "llama-13b"), ("llama-2-7b", "llama-7b"),
     ("Llama 2 70B", "llama-70b")],
)  # fmt: skip
def test_llama_2_names_are_the_llama_2_presets(typed, key):
    # the llama-7b/13b/70b presets are Llama 2's (their sources say so), but 'llama2-13b' was refused
    # ("did you mean 'llama-13b'?") while 'llama3-8b' was a preset: the family's own name reads as its preset
    assert catalog.model(typed)["key"] == key
    assert "Llama 2" in catalog.model(typed)["source"]


@pytest.mark.parametrize(("typed", "key"), [("dgx-h200", "hgx-h200"), ("DGX H200", "hgx-h200"),
                                            ("dgx-a100-80gb", "dgx-a100")])  # fmt: skip
def test_dgx_h200_and_dgx_a100_80gb_are_the_catalog_s_systems(typed, key):
    # 'DGX H200' was refused (did you mean 'hgx-h200'?) though the entry is "NVIDIA HGX/DGX H200"
    assert catalog.system(typed)["key"] == key


def test_an_alias_is_no_new_preset_in_the_lists():
    # the allowed lists and the help name the presets once, by their keys
    assert "llama2-13b" not in catalog.table("models") and "dgx-h200" not in catalog.table("systems")
    with pytest.raises(Exception, match=r"allowed: aws-p4d, .*hgx-h200") as exc:
        catalog.system("dgx-a100-40gb")
    assert "dgx-h200" not in str(exc.value)


def test_memory_answers_for_llama_2_13b(capsys):
    rc, out, err = _run(capsys, "memory", "--model", "llama-2-13b", "--devices", "8", "--gpu", "a100-40gb",
                        "--recompute", "selective")  # fmt: skip
    assert rc == 0, err
    assert "13.02 B parameters, 8 devices" in out
    assert "   3       26.0 GB      28.5 GB   54.6 GB   -11.6 GB" in out


def test_a_language_model_s_tokens_per_second_are_printed_not_left_to_the_reader(capsys):
    # "Llama-3 8B bf16 on 32 H100s, seq 8192, batch 1, accumulation 16: tokens/s?" — the table's 'actual' is
    # 22.01 samples/s, and the note only said "tokens/s: samples/s × 8,192"; 22.0100739 × 8,192 = 180,307
    argv = ["predict", "--model", "llama3-8b", "--precision", "bf16", "--system", "dgx-h100", "-d", "8,32",
            "--seq-len", "8192", "--batch", "1", "--grad-accum", "16"]  # fmt: skip
    rc, out, err = _run(capsys, *argv)
    assert rc == 0, err
    assert "note: tokens/s: samples/s × 8,192 (the sequence length): 180,307 at 32 devices\n" in out
    rc, out, err = _run(capsys, *argv, "--lang", "es")
    assert "nota: tokens/s: muestras/s × 8.192 (la longitud de secuencia): 180.307 con 32 dispositivos\n" in out
    rc, out, err = _run(capsys, "predict", "--model", "gpt2", "--system", "dgx-h100", "-d", "1")
    assert "(the sequence length): 27,271 at 1 device\n" in out


def test_a_fit_of_one_node_s_runs_says_the_network_was_never_measured(capsys):
    # "I measured 1, 2, 4, 8 GPUs — what will 64 give me?": every run was inside one 8-GPU node, so no run paid the
    # network; the answer at 16 and 64 (92.5 % at 64) read as a fit, with only a '4× beyond' note for 64
    points = ["--point", "1:2900", "--point", "2:5700", "--point", "4:11200", "--point", "8:21900"]
    rc, out, err = _run(capsys, "fit", *points, "--at", "16,64", "--gpus-per-node", "8")
    assert rc == 0, err
    assert ("note: every measured size fits in one node of 8 devices: no run crossed the network, so E at 16; 64 "
            "devices, across nodes, is the law's guess — measure on two nodes, or let `dpscale predict --system` "
            "model the network\n") in out  # fmt: skip
    rc, out, err = _run(capsys, "fit", *points, "--at", "16,64", "--gpus-per-node", "8", "--lang", "es")
    assert "nota: cada tamaño medido cabe en un nodo de 8 dispositivos: ninguna ejecución cruzó la red" in out
    # a run across nodes measured it; sizes inside the node need no word; without the node size nothing is known
    for argv in (["--point", "16:42000", "--at", "64", "--gpus-per-node", "8"], ["--at", "8", "--gpus-per-node", "8"],
                 ["--at", "64"]):  # fmt: skip
        rc, out, err = _run(capsys, "fit", *points, *argv)
        assert rc == 0 and "one node" not in out, err


def test_plan_on_a_fit_of_one_node_says_it_too():
    import dpscale

    f = dpscale.fit([(1, 2900), (2, 5700), (4, 11200), (8, 21900)], gpus_per_node=8)
    assert [n.key for n in f.warnings_at([4, 32]) if n.key == "one_node_measured"] == ["one_node_measured"]
    assert [n.fields["sizes"] for n in f.predict([32]).warnings if n.key == "one_node_measured"] == ["32"]


# predict with no cluster at all: the refusal lists the system presets it could take (a first run typed none of
# the three figures it named, and was not told a --system's names); with a system named, no list
def test_predict_without_a_cluster_lists_the_systems_it_could_take(capsys):
    from dpscale import catalog
    from dpscale.faces.cli import main

    names = ", ".join(sorted(catalog.table("systems")))
    assert main(["predict", "--model", "resnet50", "-d", "64", "--throughput", "2900"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "dpscale predict: error: --gpus-per-node, --intra-bw, --inter-bw: missing; allowed: give --system NAME "
        f"({names}) or the raw cluster figures"
    )
    assert "dgx-h100" in names and "dgx1-v100" in names
    assert main(["predict", "--model", "resnet50", "-d", "64", "--throughput", "2900", "--gpus-per-node", "8",
                 "--lang", "es"]) == 2  # fmt: skip
    assert capsys.readouterr().err.strip() == (
        f"dpscale predict: error: --intra-bw, --inter-bw: faltan; se admite: --system NOMBRE ({names}) o las "
        "cifras del clúster"
    )
