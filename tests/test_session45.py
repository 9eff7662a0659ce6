"""Session 45's own changes (the helpers' reviews are in tests/test_review45_*.py)."""

from __future__ import annotations

import pytest

from dpscale.sources.predict_validate import grad_bytes_per_param


# Horovod's compression is written in either order: the code's own 'hvd.Compression.fp16' (the SIM and Transformer-XL
# READMEs' scripts) names the 16-bit all-reduce as surely as 'fp16 compression' does
@pytest.mark.parametrize(
    "framework",
    [
        "TensorFlow 2 + Horovod (hvd.Compression.fp16)",
        "Horovod, compression=fp16",
        "Horovod with fp16 compression",
        "Horovod --fp16-allreduce",
    ],
)
def test_a_16_bit_all_reduce_is_read_in_either_order(framework):
    assert grad_bytes_per_param("FP32", framework) == 2
    assert grad_bytes_per_param("AMP (mixed FP16)", framework) == 2


@pytest.mark.parametrize("framework", ["Horovod (NCCL), no compression", "Horovod, Compression.none", "TF2 + Horovod"])
def test_no_16_bit_all_reduce_said_keeps_the_precision_s_bytes(framework):
    assert grad_bytes_per_param("FP32", framework) == 4
    assert grad_bytes_per_param("AMP (mixed FP16)", framework) == 4  # autocast's gradients stay fp32


# predict's memory notes say an HBM card's size as it is sold beside the bytes compared ('85.9 GB (80 GiB)': the
# bare 85.9 read like a typo beside the name 'h100-80gb'); a GDDR card's nvidia-smi total (usable_mib) has no GiB
def test_the_memory_notes_say_hbm_in_gib_beside_the_bytes(capsys):
    from dpscale.faces.cli import main

    argv = ["predict", "--model", "llama-70b", "--system", "dgx-h100", "-d", "8,64", "--throughput", "100",
            "--batch", "1", "--seq-len", "4096", "--precision", "bf16"]  # fmt: skip
    assert main(argv) == 0
    assert "more than the h100-80gb's 85.9 GB (80 GiB): shard them" in "".join(capsys.readouterr())
    assert main([*argv, "--zero", "1", "--lang", "es"]) == 0
    assert "más que los 85,9 GB (80 GiB) de la h100-80gb: con menos dispositivos" in "".join(capsys.readouterr())


# the spaces around a typed --unit are not part of it: ' tokens/s ' compared as tokens/s (errors.unit_key) but was
# printed with them — '100  tokens/s ' in calc's table, "unit": " tokens/s " in plan's rows (review 45 AA)
def test_a_unit_typed_with_spaces_is_printed_without_them(capsys):
    import json

    from dpscale.faces.cli import main

    assert main(["calc", "-d", "8", "-v", "100", "-e", "0.9", "--unit", " tokens/s "]) == 0
    out = capsys.readouterr().out
    assert "per-device throughput      100 tokens/s\n" in out and "720 tokens/s\n" in out
    assert main(["plan", "--unit", " tokens/s ", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["unit"] for r in rows} == {"tokens/s"}


# a field's name without its remark is one rule (app.field_name): the page's error lines take it from the server's
# words ('name:KEY'), as its notes do — index.html's mark() had its own copy of the same regular expression
def test_the_page_names_a_field_by_the_server_s_rule_not_a_copy_of_it():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from dpscale.faces.web.app import create_app, field_name

    words = TestClient(create_app()).get("/api/labels/es").json()
    assert words["name:web_at"] == field_name("web_at", "es") == "Tamaños que predecir"
    assert words["web_at"].startswith("Tamaños que predecir (")  # the label keeps its remark
    assert "name:web_devices" not in words or words["name:web_devices"] != words["web_devices"]
    from importlib.resources import files

    page = files("dpscale.faces.web").joinpath("index.html").read_text(encoding="utf-8")
    assert "words[`name:${key}`]" in page and ".replace(/\\s+\\([^()]*\\)" not in page
