"""`Prediction.devices_for` and `dpscale predict --min-efficiency / --target-throughput`: the largest size keeping
E at or above a floor, or the smallest reaching a throughput, over 1..g then whole nodes up to 2^20 (docs/predict.md,
"How many devices")."""

from __future__ import annotations

import json
import math

import pytest
from clihelp import run

import dpscale
from dpscale.errors import DpscaleError

# ResNet-50 (amp, batch 64) on Azure's MI300X nodes: E dips over a part-filled node (0.713 at 9, 0.794 at 16)
MI300X = ["predict", "--model", "resnet50", "--system", "azure-nd-mi300x-v5", "--precision", "amp", "-b", "64"]
LIB = dict(model="resnet50", system="azure-nd-mi300x-v5", precision="amp", batch=64)
SEARCHED = [*range(1, 9), *range(16, 81, 8)]  # what the search reads, as far as the answer's next node


def _table(capsys, sizes):
    rc, out, _ = run(capsys, *MI300X, "-d", ",".join(map(str, sizes)), "--json")
    assert rc == 0
    return {r["devices"]: r for r in json.loads(out)}


def test_the_largest_size_keeping_e_is_the_tables_last_whole_node_at_or_above_it(capsys):
    """E ≥ 0.75: 64 devices (8 nodes) — the table's E there is at or above it, the next node's (72) below, and every
    size searched before it at or above; 9 devices (E 0.713) is no node's size and is not read."""
    table = _table(capsys, SEARCHED)
    rc, out, _ = run(capsys, *MI300X, "-d", "1..64x2", "--min-efficiency", "0.75")
    assert rc == 0
    lines = out.splitlines()
    first_note = next(i for i, line in enumerate(lines) if line.startswith("note:"))  # the line after the table
    assert lines[first_note - 1].split()[0] == "64"  # (the table's last row)
    assert lines[first_note] == "note: largest size with E ≥ 75.0 %: 64 (of sizes up to one node, then whole nodes)"
    assert round(table[64]["efficiency"], 4) == 0.7508 and round(table[72]["efficiency"], 4) == 0.7476
    assert all(table[d]["efficiency"] >= 0.75 for d in SEARCHED if d <= 64)
    assert round(dpscale.predict([1], **LIB).efficiency(9), 3) == 0.713  # (a part-filled node: not searched)


def test_the_smallest_size_reaching_a_throughput_is_the_tables_first(capsys):
    """100,000 samples/s: 16 devices (two nodes, 145,634/s); one node's 8 give 75,841/s — the table's own rates."""
    table = _table(capsys, SEARCHED)
    assert round(table[8]["actual_throughput"]) == 75841 and round(table[16]["actual_throughput"]) == 145634
    rc, out, _ = run(capsys, *MI300X, "-d", "8,16", "--target-throughput", "1e5", "--json")
    assert rc == 0
    assert json.loads(out)["devices_for_throughput"] == {
        "target": 100000.0, "devices": 16, "reason": None, "search_cap": 1048576,
    }  # fmt: skip


def test_e_that_dips_and_recovers_answers_the_size_before_the_first_drop():
    """DGX-1 V100's cube-mesh: E 0.921 at 4, 0.879 at 5, back to 0.899 at 6 and 0.898 at 8. For E ≥ 0.89 the answer
    is 4, as fit's: the size before the first that falls below (8 keeps it again, but 5 to 8 do not all)."""
    p = dpscale.predict([1], model="resnet50", system="dgx1-v100", precision="amp", batch=64)
    assert p.efficiency([4, 5, 8]).round(3).tolist() == [0.921, 0.879, 0.898]
    assert p.devices_for(efficiency=0.89) == {"devices": 4, "reason": None, "search_cap": 1048576}


def test_never_dropping_below_and_never_reached_say_so_up_to_the_cap(capsys):
    """Llama-7B (bf16, batch 4) on DGX H100 keeps E ≥ 0.5 to 2^20 devices; ResNet-50 under a global batch of 1,024
    on PCIe V100s peaks at 10,203/s (256 devices) and never reaches 10^6/s, searched over the sizes that split it."""
    llama = ["predict", "--model", "llama-7b", "--system", "dgx-h100", "--precision", "bf16", "-b", "4", "-d", "8"]
    rc, out, _ = run(capsys, *llama, "--min-efficiency", "0.5")
    assert rc == 0 and "note: largest size with E ≥ 50.0 %: ∞ (E stays at or above it up to 1,048,576 devices)" in out
    rc, out, _ = run(capsys, *llama, "--target-throughput", "1e9")
    assert "note: devices for 1,000,000,000 samples/s: ∞ (not reached within 1,048,576 devices; the throughput still " \
           "rises there)" in out  # fmt: skip
    strong = ["predict", "--model", "resnet50", "--system", "pcie-v100-25gbe", "--precision", "amp", "-d", "256",
              "--global-batch", "1024", "--target-throughput", "1e6"]  # fmt: skip
    rc, out, _ = run(capsys, *strong, "--json")
    assert json.loads(out)["devices_for_throughput"] == {
        "target": 1e6, "devices": None, "reason": "unreachable", "search_cap": 1024,
    }  # fmt: skip
    rc, out, _ = run(capsys, *strong[:-2], "--target-throughput", "1e6", "--lang", "es")
    assert "nota: dispositivos para 1.000.000 muestras/s: ∞ (inalcanzable)" in out


def test_the_library_and_the_command_line_give_one_answer(capsys):
    p = dpscale.predict([1], **LIB)
    for flag, key, value in (("--min-efficiency", "efficiency", 0.7), ("--target-throughput", "throughput", 2e6)):
        rc, out, _ = run(capsys, *MI300X, "-d", "8", flag, str(value), "--json")
        said = json.loads(out)[f"devices_for_{key}"]
        said.pop("min_efficiency" if key == "efficiency" else "target")
        assert said == p.devices_for(**{key: value})
    assert p.devices_for(efficiency=0.7)["devices"] == 568 and p.devices_for(throughput=2e6)["devices"] == 248


def test_json_keeps_its_array_without_the_flags_and_csv_says_the_answer_on_stderr(capsys):
    """--json without a question prints predict's array as before; with one, an object whose predictions plan
    --efficiency-file reads as the array (rate and band level beside them). --csv keeps its rows; the line goes
    to stderr with the notes."""
    rc, plain, _ = run(capsys, *MI300X, "-d", "1..32x2", "--json")
    assert isinstance(json.loads(plain), list)
    rc, asked, _ = run(capsys, *MI300X, "-d", "1..32x2", "--json", "--min-efficiency", "0.75")
    obj = json.loads(asked)
    assert obj["predictions"] == json.loads(plain) and obj["confidence"] == 0.8
    assert obj["per_device_throughput"] == json.loads(plain)[0]["per_device_throughput"]
    rc, csv_plain, _ = run(capsys, *MI300X, "-d", "1..32x2", "--csv")
    rc, csv_asked, err = run(capsys, *MI300X, "-d", "1..32x2", "--csv", "--min-efficiency", "0.75")
    assert csv_asked == csv_plain
    assert err.splitlines()[0] == "note: largest size with E ≥ 75.0 %: 64 (of sizes up to one node, then whole nodes)"


def test_the_answer_in_spanish(capsys):
    rc, out, _ = run(capsys, *MI300X, "-d", "8", "--min-efficiency", "0.75", "--lang", "es")
    assert "nota: mayor tamaño con E ≥ 75,0 %: 64 (entre los tamaños de hasta un nodo y, después, nodos completos)" \
           in out  # fmt: skip


@pytest.mark.parametrize(
    ("flags", "en", "es"),
    [
        (["--min-efficiency", "0"], "--min-efficiency: got '0'; allowed: an efficiency in (0, 1]",
         "--min-efficiency: se recibió '0'; se admite: una eficiencia en (0, 1]"),
        (["--min-efficiency", "1.5"], "--min-efficiency: got '1.5'; allowed: an efficiency in (0, 1]",
         "--min-efficiency: se recibió '1.5'; se admite: una eficiencia en (0, 1]"),
        (["--target-throughput", "0"], "--target-throughput: got '0'; allowed: a finite number > 0",
         "--target-throughput: se recibió '0'; se admite: un número finito > 0"),
        (["--min-efficiency", "0.8", "--target-throughput", "1e5"],
         "--min-efficiency and --target-throughput: give one of them, not both",
         "--min-efficiency y --target-throughput: dé uno de los dos, no ambos"),
    ],
)  # fmt: skip
def test_bad_questions_are_one_line_and_exit_2(capsys, flags, en, es):
    for lang, said in (("en", en), ("es", es)):
        rc, out, err = run(capsys, *MI300X, *flags, "--lang", lang)
        assert (rc, out, err) == (2, "", f"dpscale predict: error: {said}\n")


def test_the_library_refuses_a_bad_question():
    p = dpscale.predict([1], **LIB)
    for kw, said in (
        ({}, "devices_for: give throughput= or efficiency=, one of them"),
        ({"throughput": 1, "efficiency": 0.5}, "devices_for: give throughput= or efficiency=, one of them"),
        ({"efficiency": 2}, "efficiency: got 2; allowed: a scaling efficiency in (0, 1] (2 % = 0.02)"),
        ({"throughput": -1}, "throughput: got -1; allowed: a finite number > 0"),
    ):
        with pytest.raises(DpscaleError) as exc:
            p.devices_for(**kw)
        assert str(exc.value) == said
    assert math.isinf(p.devices_for(efficiency=0.01)["devices"])


def test_the_answer_comes_before_every_note_and_the_docs_say_so(capsys):
    """Review IT: docs/predict.md's 'The order of the notes' began with a language model's tokens/s, NOTE_RANK's
    first; 81d9db1's answer line comes before that (it is not ranked: the line after the table). Llama-7B on a DGX
    H100: the answer, then the tokens/s note; the order paragraph says where the answer goes."""
    from pathlib import Path

    llama = ["predict", "--model", "llama-7b", "--system", "dgx-h100", "--precision", "bf16", "-b", "4", "-d", "8"]
    rc, out, _ = run(capsys, *llama, "--min-efficiency", "0.5")
    notes = [line for line in out.splitlines() if line.startswith("note: ")]
    assert rc == 0 and notes[0].startswith("note: largest size with E ≥ 50.0 %: ∞")
    assert notes[1].startswith("note: tokens/s: samples/s × 4,096")
    doc = (Path(__file__).resolve().parents[1] / "docs" / "predict.md").read_text(encoding="utf-8")
    order = " ".join(doc.split("**The order of the notes.**", 1)[1].split("\n\n", 1)[0].split())
    said = "the answer to `--min-efficiency` or `--target-throughput`, the line after the table, before them all"
    assert said in order


def test_a_cluster_given_no_network_is_searched_within_its_node(capsys):
    """Review IT: a one-node run needs no --inter-bw (cluster() puts the node's link in its place, a stand-in no term
    reads within one node), but devices_for searched whole nodes past it on that stand-in: 1 B parameters at 100/s on
    8-GPU nodes of 300 GB/s, -d 8, answered 10,000/s at 120 devices (15 nodes on a 300 GB/s network nobody gave),
    where `-d 120` is refused ('--inter-bw: missing'). Without a network the search stays in the node: search_cap
    8, said as not reached within 8 devices; with the network typed the answer is the whole-node search's."""
    raw = ["predict", "--params", "1e9", "-v", "100", "--gpus-per-node", "8", "--intra-bw", "300", "-d", "8"]
    rc, out, err = run(capsys, *raw[:-2], "-d", "120")
    assert rc == 2 and "--inter-bw: missing" in err
    rc, out, _ = run(capsys, *raw, "--target-throughput", "1e4", "--json")
    assert rc == 0 and json.loads(out)["devices_for_throughput"] == {
        "target": 1e4, "devices": None, "reason": "beyond_search_cap", "search_cap": 8,
    }  # fmt: skip
    rc, out, _ = run(capsys, *raw, "--target-throughput", "1e4")
    said = "note: devices for 10,000 samples/s: ∞ (not reached within 8 devices; the throughput still rises there)"
    assert said in out
    rc, out, _ = run(capsys, *raw, "--inter-bw", "300", "--target-throughput", "1e4", "--json")
    assert json.loads(out)["devices_for_throughput"]["devices"] == 120  # (the stand-in's figure, typed)
    p = dpscale.predict([8], params=1e9, throughput=100, gpus_per_node=8, intra_bw_gbs=300)
    assert p.devices_for(efficiency=0.85) == {"devices": math.inf, "reason": "beyond_search_cap", "search_cap": 8}
    assert round(p.efficiency(8), 4) == 0.8999
    from pathlib import Path

    doc = " ".join((Path(__file__).resolve().parents[1] / "docs" / "predict.md").read_text(encoding="utf-8").split())
    assert "a one-node run given no network (`--inter-bw` not typed, no system's) is searched within its node" in doc


def test_under_a_global_batch_the_last_size_it_splits_into_is_the_end_not_a_cap(capsys):
    """BERT-large, a global batch of 1,024 over 2 accumulation steps on DGX A100s: no run has more than 512 devices
    (one sample each a micro-batch). E ≥ 1 % holds at every size up to 512 (E 0.053 there): the largest size keeping
    it is 512, not ∞ 'up to 512'; and 10^9 samples/s, still rising at 512 (11,267/s at 256, 11,282/s at 512), is
    unreachable — no larger run exists for 'still rises there' to invite (both were said as if a cap cut the search)."""
    bert = ["predict", "--model", "bert-large", "--system", "dgx-a100", "--precision", "amp", "--global-batch", "1024",
            "--grad-accum", "2", "-d", "256,512"]  # fmt: skip
    rc, out, _ = run(capsys, *bert, "--json")
    rows = json.loads(out)
    assert [round(r["actual_throughput"]) for r in rows] == [11267, 11282] and round(rows[1]["efficiency"], 3) == 0.053
    p = dpscale.predict([1], model="bert-large", system="dgx-a100", precision="amp", global_batch=1024, grad_accum=2)
    assert p.devices_for(efficiency=0.01) == {"devices": 512, "reason": None, "search_cap": 512}
    assert p.devices_for(throughput=1e9) == {"devices": math.inf, "reason": "unreachable", "search_cap": 512}
    rc, out, _ = run(capsys, *bert, "--min-efficiency", "0.01")
    assert "note: largest size with E ≥ 1.0 %: 512 (of the sizes the global batch splits over)" in out
    rc, out, _ = run(capsys, *bert, "--target-throughput", "1e9", "--lang", "es")
    assert "nota: dispositivos para 1.000.000.000 muestras/s: ∞ (inalcanzable)" in out


def test_the_search_reads_the_curve_a_block_at_a_time_and_stops_at_the_answer(monkeypatch):
    """--gpus-per-node 1 searches 2^20 sizes: the curve at all of them at once held 617 MB (peak RSS of one `predict
    --min-efficiency 0.01`, 3.3 s) — per request on the page's API too. Read 65,536 sizes at a time, the answers are
    the same (never below: ∞ to 2^20; unreachable and reached), and one found in the first block reads no other."""
    import dpscale.sources.predict as sp

    read: list[int] = []
    whole = sp._efficiency_at
    monkeypatch.setattr(sp, "_efficiency_at", lambda ctx, d: read.append(d.size) or whole(ctx, d))
    p = dpscale.predict([1], params=1.3e9, step_time_s=0.42, gpus_per_node=1, intra_bw_gbs=300, inter_bw_gbs=25)
    read.clear()
    assert p.devices_for(efficiency=0.01) == {"devices": math.inf, "reason": "beyond_search_cap", "search_cap": 2**20}
    assert read == [65536] * 16  # (E 0.439 at 2^20)
    read.clear()
    assert p.devices_for(efficiency=0.5) == {"devices": 369, "reason": None, "search_cap": 2**20}
    assert read == [65536]  # (E 0.50002 at 369, 0.49999 at 370)
    read.clear()
    assert p.devices_for(throughput=1e15)["reason"] == "beyond_search_cap" and len(read) == 16
    strong = dpscale.predict([1], model="resnet50", system="dgx-a100", precision="amp", global_batch=4096)
    assert strong.devices_for(throughput=1e6) == {"devices": math.inf, "reason": "unreachable", "search_cap": 4096}


def test_a_one_node_search_under_a_global_batch_ends_at_the_node_or_at_g_over_ga():
    """Two of today's rules meet (1948a6e: given no network the search stays in the node; review IS: under a global
    batch the sizes end at G/ga): on 8-GPU nodes with no network, a global batch of 1,024 has sizes past the node
    that nothing here can predict, so E held over the node is '∞' at a cap of 8 — not 8 as if the sizes ended
    there; a global batch of 8 ends at 8 itself, which answers."""
    kw = dict(params=1e9, throughput=100, gpus_per_node=8, intra_bw_gbs=300)
    wide = dpscale.predict([8], global_batch=1024, **kw).devices_for(efficiency=0.01)
    assert wide == {"devices": math.inf, "reason": "beyond_search_cap", "search_cap": 8}
    assert dpscale.predict([8], global_batch=8, **kw).devices_for(efficiency=0.01) == {
        "devices": 8, "reason": None, "search_cap": 8}  # fmt: skip


@pytest.mark.parametrize("typed", ["0", "1.5", "80%", "-0.5", "nan"])
def test_predict_and_fit_read_a_minimum_e_by_one_rule(capsys, typed):
    """fit's and predict's --min-efficiency were read by two copies of one rule (found reading the day's change
    whole); now one function, so the two commands refuse the same texts with the same words."""
    rc_p, _, err_p = run(capsys, "predict", "--model", "resnet50", "-v", "100", "--system", "dgx-a100",
                         "--min-efficiency", typed)  # fmt: skip
    rc_f, _, err_f = run(capsys, "fit", "--point", "1:100", "--point", "8:700", "--min-efficiency", typed)
    assert rc_p == rc_f == 2
    assert err_p.replace("dpscale predict", "") == err_f.replace("dpscale fit", "")
    assert "--min-efficiency: got" in err_p and "allowed: an efficiency in (0, 1]" in err_p


def test_under_a_global_batch_every_size_it_splits_over_is_searched(capsys):
    """Review KQ: GPT-2 on DGX A100s under a global batch of 1,000 over 2 accumulation steps runs on 1, 2, 4, 5, 10,
    20, 25, 50, 100, 125, 250 or 500 devices (74.5 samples/s at 10, 3,162.3 at 500, E 0.816 there), but the search
    read 1 … 8 and then whole nodes (16, 24, …), none of which split 1,000: `--target-throughput 60` said '∞
    (unreachable)' and `--min-efficiency 0.5` '5'. Under a global batch every size it splits over is searched (a
    part-filled node as well: the table predicts it), and the answer says so; a power of two's are whole nodes past
    one, as before (BERT-large's 512)."""
    gpt2 = ["predict", "--model", "gpt2", "--system", "dgx-a100", "--global-batch", "1000", "--grad-accum", "2"]
    rc, out, _ = run(capsys, *gpt2, "-d", "10,500", "--json")
    rows = json.loads(out)
    assert [round(r["actual_throughput"], 1) for r in rows] == [74.5, 3162.3] and round(
        rows[1]["efficiency"], 3
    ) == 0.816
    p = dpscale.predict([1], model="gpt2", system="dgx-a100", global_batch=1000, grad_accum=2)
    assert p.devices_for(throughput=60) == {"devices": 10, "reason": None, "search_cap": 500}
    assert p.devices_for(efficiency=0.5) == {"devices": 500, "reason": None, "search_cap": 500}
    assert p.devices_for(throughput=1e9) == {"devices": math.inf, "reason": "unreachable", "search_cap": 500}
    rc, out, _ = run(capsys, *gpt2, "--target-throughput", "60")
    assert rc == 0 and "note: devices for 60 samples/s: 10 (of the sizes the global batch splits over)\n" in out
    rc, out, _ = run(capsys, *gpt2, "--min-efficiency", "0.5", "--lang", "es")
    assert "nota: mayor tamaño con E ≥ 50,0 %: 500 (entre los tamaños en los que se reparte el lote global)\n" in out


MESH = [
    "predict",
    "--model",
    "bert-large",
    "--precision",
    "amp",
    "--batch",
    "8",
    "--system",
    "dgx1-v100",
    "--no-overlap",
]


def test_a_typed_figure_replacing_a_presets_own_at_a_size_searched_is_said(capsys):
    """Review MC: on a DGX-1 V100 `-d 16 --min-efficiency 0.3` answered 4 (E 0.410 at 4, PCIe's 0.179 at 5), and
    with the node's own 150 typed as --intra-bw 8 (0.414 at 5), with no note: the shown 16 reads the node's 150
    either way, so the note on the shown sizes had nothing to say; the search read 2..8 from the mesh's table. Same
    for --target-throughput 200 (4 → 3), and for --inter-bw on 2 of a p4d's GPUs, shown on one node (2 → 5,820)."""
    said = (
        "note: --intra-bw 150 replaced the per-GPU-count figures of the dgx1-v100 node's mesh (25 / 50 / 100 / 15.75 "
        "/ 50 / 100 / 150 GB/s at 2 / 3 / 4 / 5 / 6 / 7 / 8 GPUs: a ring over fewer of its GPUs has fewer links) by "
        "one 150 GB/s for every count; leave --intra-bw out for the mesh's own"
    )
    for ask, head, answers in (
        (["--min-efficiency", "0.3"], "largest size with E ≥ 30.0 %", ("4", "8")),
        (["--target-throughput", "200"], "devices for 200 samples/s", ("4", "3")),
    ):
        for typed, answer in zip(([], ["--intra-bw", "150"]), answers, strict=True):
            rc, out, _ = run(capsys, *MESH, "-d", "16", *ask, *typed)
            lines = out.splitlines()
            assert rc == 0 and f"note: {head}: {answer} (of sizes up to one node, then whole nodes)" in lines
            assert (said in lines) == bool(typed)
    rc, out, _ = run(capsys, *MESH, "-d", "16", "--min-efficiency", "0.3", "--intra-bw", "150", "--lang", "es")
    assert (
        "nota: --intra-bw 150 sustituyó las cifras por número de GPU de la malla del nodo dgx1-v100 (25 / 50 / 100 / "
        "15,75 / 50 / 100 / 150 GB/s con 2 / 3 / 4 / 5 / 6 / 7 / 8 GPU: un anillo sobre menos de sus GPU tiene menos "
        "enlaces) por una sola de 150 GB/s para todos los números; omita --intra-bw para las de la malla"
    ) in out.splitlines()
    # --json: the same note on standard error, once (the shown sizes' own at -d 5 is not said twice)
    for sizes in ("16", "5"):
        rc, _, err = run(capsys, *MESH, "-d", sizes, "--min-efficiency", "0.3", "--intra-bw", "150", "--json")
        assert rc == 0 and err.splitlines().count(said) == 1
    # a typed --inter-bw read past the shown node: 2 of a p4d's GPUs reach 12.5 GB/s of its 50
    p4d = ["predict", "--model", "bert-large", "--precision", "amp", "--batch", "8", "--system", "aws-p4d",
           "--gpus-per-node", "2", "--no-overlap", "-d", "2", "--min-efficiency", "0.1"]  # fmt: skip
    share = (
        "note: --inter-bw 50 is the network of each node's 2 GPUs, in place of the 12.5 GB/s they reach of the aws-p4d "
        "node's 50 (1 of its 4 NICs: NCCL pairs each GPU with the nearest); leave --inter-bw out for that share"
    )
    for typed, answer in (([], "2"), (["--inter-bw", "50"], "5,820")):
        rc, out, _ = run(capsys, *p4d, *typed)
        lines = out.splitlines()
        assert (
            rc == 0
            and f"note: largest size with E ≥ 10.0 %: {answer} (of sizes up to one node, then whole nodes)" in lines
        )
        assert (share in lines) == bool(typed)
    # the library: the notes on the searched sizes its own lack, as the CLI says them
    pred = dpscale.predict([16], model="bert-large", precision="amp", batch=8, system="dgx1-v100", overlap=False,
                           intra_bw_gbs=150)  # fmt: skip
    found = pred.devices_for(efficiency=0.3)
    assert found["devices"] == 8 and [n.key for n in pred.search_notes(found, "efficiency")] == ["intra_table_replaced"]
    assert "intra_table_replaced" not in [n.key for n in pred.notes]
