"""Review 45 BB: mutation testing of the day's changes — each test kills a mutant that survived the suite and that a
user would have seen (a wrong number or a wrong word)."""

from __future__ import annotations

import json

import pytest

from dpscale import predict
from dpscale.errors import DpscaleError
from dpscale.faces.cli import main
from dpscale.faces.cli.common import DECIMAL_POINT, whole
from dpscale.faces.web.app import run_command
from dpscale.sources.efficiency_file import SUPERLINEAR_PLAN, read_efficiencies
from dpscale.sources.predict_validate import half_reduced

GPT2_BF16 = 124_439_808 * 2  # bytes all-reduced a step, in 11 buckets
LAT = 11 * (8.4e-6 + 14 * 3.4e-6 + 2 * 14e-6)  # their latencies across two DGX H100 nodes (review 45 Q's)


def _run(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def _ragged(p):
    return [n for n in p.notes if n.key.startswith("ragged")]


def test_each_size_of_a_sweep_has_its_own_ragged_network_share():
    # 9 ranks reach one of the last node's eight NICs (36.5 GB/s), 16 the whole node's 292 — in one sweep as alone:
    # one share for every size (the sweep's largest, 1) charged 9 the node's 292 GB/s
    p = predict([9, 16], model="gpt2", precision="bf16", batch=16, overlap=False, system="dgx-h100")
    nine, sixteen = p.records()
    assert nine["allreduce_s"] == pytest.approx(1.75 * GPT2_BF16 / 360e9 + GPT2_BF16 / 36.5e9 + LAT, rel=1e-9)
    assert sixteen["allreduce_s"] == pytest.approx(2 * GPT2_BF16 / 292e9 + LAT, rel=1e-9)


def test_the_ragged_note_lists_six_sizes_whole_and_marks_only_a_longer_list_cut():
    kw = dict(model="gpt2", precision="bf16", batch=16, system="dgx-h100")
    (note,) = _ragged(predict([9, 10, 11, 12, 13, 14, 16], **kw))
    assert note.startswith("9; 10; 11; 12; 13; 14 devices do not fill whole 8-GPU nodes")
    (note,) = _ragged(predict([9, 10, 11, 12, 13, 14, 15], **kw))
    assert note.startswith("9; 10; 11; 12; 13; 14; … devices do not fill whole 8-GPU nodes")


def test_the_ragged_note_says_the_systems_own_nic_count():
    # a DGX-1 V100 has 4 NICs for its 8 GPUs: the note said the GPUs' count where the two differ
    (note,) = _ragged(predict([9, 16], model="gpt2", precision="fp16", batch=16, system="dgx1-v100"))
    assert "the ⌈4·r/8⌉ of its 4 NICs its r GPUs reach" in note


def test_a_ragged_baseline_among_the_sizes_is_named_once_in_order():
    p = predict([20, 12], model="gpt2", precision="bf16", batch=16, system="dgx-h100", throughput=300,
                baseline_devices=12)  # fmt: skip
    (note,) = _ragged(p)
    assert note.startswith("12; 20 devices do not fill whole 8-GPU nodes")


@pytest.mark.parametrize(
    "label",
    ["Horovod hvd.Compression.fp16", "compression=fp16", "gradient compression: bf16", "Compress half"],
)
def test_a_half_precision_compression_is_a_half_reduced_allreduce(label):
    assert half_reduced(label) is True
    assert half_reduced("ResNet-50", framework=label) is True


def test_no_compression_is_not_half_reduced():
    assert half_reduced("Horovod hvd.Compression.none") is False
    assert half_reduced("compression=fp32") is False


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (("1,0", "--x"), DECIMAL_POINT),  # 1.0 is the lowest count: told the decimal point, not 'a whole number'
        (("1,0e1", "--x", 1, 10), DECIMAL_POINT),  # 10, the highest allowed
        (("1,1e1", "--x", 1, 10), "a whole number from 1 to 10"),  # 11: past it, the point would not help
        (("9,0e15", "--x"), DECIMAL_POINT),
        (("1,0e16", "--x"), "a whole number ≥ 1"),  # past 2^53: refused once pointed too
    ],
)
def test_a_comma_count_is_told_the_decimal_point_only_where_the_point_would_make_it_allowed(args, allowed):
    with pytest.raises(DpscaleError) as exc:
        whole(*args)
    assert str(exc.value) == f"--x: got '{args[0]}'; allowed: {allowed}"


def test_memory_rows_name_the_preset_by_its_key_not_as_typed(capsys):
    rc, out, _ = _run(capsys, "memory", "--model", "GPT-2", "--json")
    assert rc == 0 and {r["model"] for r in json.loads(out)} == {"gpt2"}


def test_batch_notes_name_the_smallest_size_whatever_order_the_sizes_were_typed(capsys):
    rc, out, err = _run(capsys, "batch", "-b", "32", "-d", "8,4", "--noise-scale", "32")
    assert rc == 0
    assert "global batch 128 is 4.00× B_noise (warning above 2.00×): 5.00× the minimum samples" in out + err
    rc, out, err = _run(capsys, "batch", "-b", "32", "-d", "8,4", "--dataset-size", "100")
    assert rc == 0 and "one step an epoch from 4 devices on: the global batch (128)" in out + err


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "one step an epoch from 1 device on: the global batch (32) covers the whole dataset — check "
               "'Samples per epoch' and the batch"),
        ("es", "un paso por época desde 1 dispositivo: el lote global (32) cubre todo el conjunto de datos — revise "
               "«Muestras por época» y el lote"),
    ],
)  # fmt: skip
def test_a_page_note_of_one_device_is_read_back_and_said_in_the_singular(lang, said):
    out = run_command("batch", {"micro_batch": "32", "devices": "1,2", "dataset_size": "10"}, lang)
    assert said in out["notes"]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "8 with all of them in bf16: the tab 'Memory' with 'Precision' bf16), more than the l40s-48gb's "
               "48.3 GB: shard them — 'ZeRO stage' 1–3 predicts ZeRO/FSDP, the tab 'Memory' sizes it"),
        ("es", "8 con todos en bf16: la pestaña «Memoria» con «Precisión» bf16), más que los 48,3 GB de la l40s-48gb: "
               "repártalos — «Etapa de ZeRO» 1–3 predice ZeRO/FSDP, la pestaña «Memoria» lo dimensiona"),
    ],
)  # fmt: skip
def test_a_gddr_cards_memory_note_is_said_in_the_pages_terms(lang, said):
    # a GDDR6 card's memory is said without '(… GiB)' (its usable bytes are not a GiB figure): that empty field was
    # not read back, and the page said the command's `dpscale memory --precision bf16` and --zero
    options = {"gpu": "l40s-48gb", "model": "llama-7b", "devices": "8", "gpus_per_node": "8", "intra_bw": "300",
               "inter_bw": "100", "precision": "fp32"}  # fmt: skip
    (note,) = [n for n in run_command("predict", options, lang)["notes"] if "Adam" in n]
    assert note.endswith(said) and "--" not in note and "dpscale" not in note


def _file(tmp_path, data):
    path = tmp_path / "e.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _refusal(path):
    with pytest.raises(DpscaleError) as exc:
        read_efficiencies(path)
    return str(exc.value)


def test_an_efficiency_past_two_is_not_called_superlinear(tmp_path):
    records = [{"devices": 1, "efficiency": 1.0}, {"devices": 2, "efficiency": 2.5}]
    assert _refusal(_file(tmp_path, records)).endswith("record 2: efficiency 2.5'; allowed: E in (0, 1]")
    records[1]["efficiency"] = 1.5
    assert _refusal(_file(tmp_path, records)).endswith(f"allowed: {SUPERLINEAR_PLAN}")


def test_a_band_that_leaves_its_e_outside_is_not_read(tmp_path):
    records = [
        {"devices": 1, "efficiency": 1.0, "efficiency_lo": 1.0, "efficiency_hi": 1.0, "bottleneck": "compute"},
        {"devices": 2, "efficiency": 0.9, "efficiency_lo": 0.8, "efficiency_hi": 0.95, "bottleneck": "network"},
    ]
    read = read_efficiencies(_file(tmp_path, records))
    assert read.band == {1: (1.0, 1.0), 2: (0.8, 0.95)} and read.level == 0.8
    records[1]["efficiency_lo"] = 0.92  # above its E
    read = read_efficiencies(_file(tmp_path, records))
    assert read.band is None and read.level is None


@pytest.mark.parametrize(("confidence", "level"), [(0.9, 0.9), (1.0, None)])
def test_a_fits_band_is_read_at_a_confidence_below_one(tmp_path, confidence, level):
    report = {"baseline_devices": 1, "confidence": confidence, "predictions": [
        {"devices": 1, "efficiency": 1.0, "efficiency_lo": 1.0, "efficiency_hi": 1.0},
        {"devices": 4, "efficiency": 0.9, "efficiency_lo": 0.85, "efficiency_hi": 0.95}]}  # fmt: skip
    read = read_efficiencies(_file(tmp_path, report))
    assert read.level == level and (read.band is None) == (level is None)


def test_two_units_in_one_file_are_refused_and_the_documents_own_is_not_called_a_record(tmp_path):
    records = [{"devices": 1, "efficiency": 1.0, "unit": "samples/s"}, {"devices": 2, "efficiency": 0.9,
                                                                       "unit": "tokens/s"}]  # fmt: skip
    assert _refusal(_file(tmp_path, records)).endswith(
        "got 'record 2: unit tokens/s against samples/s'; allowed: one throughput unit per file"
    )
    doc = {"unit": "tokens/s", "points": [{"devices": 1, "efficiency": 1.0, "unit": "samples/s"}]}
    assert _refusal(_file(tmp_path, doc)).endswith("got 'unit tokens/s against samples/s'; allowed: one throughput "
                                                   "unit per file")  # fmt: skip
