"""How `validate` reads the GPU and what it says of what it could not read: a GPU name is matched by its whole
family and wins over the system's GPU; a blank GPU column is read from the hardware description; a skipped
configuration names the column it lacks; a GPU the catalog lacks is said."""

from __future__ import annotations

import json

import pytest
from clihelp import run
from test_dataset import predicted, rows, write

from dpscale.catalog import find_gpu


@pytest.mark.parametrize("system, name, key", [
    ("dgx-h100", "H200", "h200-141gb"),  # an H200 table filed under the nearest catalog system
    ("dgx-a100", "H100", "h100-80gb"),
    ("dgx-a100", "A100", "a100-80gb"),  # the system says which memory size
    ("dgx-a100", "", "a100-80gb"),
    ("dgx1-v100", "NVIDIA DGX-1 (8x V100 16GB)", "v100-16gb"),  # a hardware description
    (None, "8x A100 80GB", "a100-80gb"),
    (None, "AMD Instinct MI300X", "mi300x-192gb"),
    (None, "Google TPU v4", "tpu-v4"),
    ("dgx-a100", "8 GPUs", "a100-80gb"),  # no GPU family in the text: the system's
])  # fmt: skip
def test_a_gpu_is_found_by_its_family(system, name, key):
    from dpscale import catalog

    assert find_gpu(system, name) == catalog.table("gpus")[key]


@pytest.mark.parametrize("name", ["A10", "H20", "L40", "T4", "GH200", "RTX 4090", "TITAN V", "Gaudi 2"])
def test_a_gpu_the_catalog_lacks_is_not_taken_for_another(name):
    """'A10' was the A100 (startswith) and 'T4' on a DGX A100 the system's A100: 2.5–6.7× the A10's peak; a name
    with no letters-then-digits word ('RTX 4090') is still a GPU named, not the system's."""
    assert find_gpu("dgx-a100", name) is None


@pytest.mark.parametrize("hardware", [
    "AWS p4d.24xlarge (8x A100 40GB)",  # the instance's 'p4d' is no GPU
    "NVIDIA DGX A100 320GB (8x A100 40GB)",  # the one size an A100 is made in, not the DGX's
    "8x 40GB A100",
    "2x Xeon E5-2698 v4, 8x NVIDIA A100 40GB",  # a CPU's 'v4' is no TPU
])  # fmt: skip
def test_a_blank_gpu_column_reads_the_gpu_the_description_names(tmp_path, hardware):
    header, recs = rows()
    stated = predicted(
        write(tmp_path / "a.csv", header, [{**r, "gpu": "A100", "hardware": "8x A100 40GB"} for r in recs])
    )
    assert (
        predicted(write(tmp_path / "b.csv", header, [{**r, "gpu": "", "hardware": hardware} for r in recs])) == stated
    )


def test_a_blank_gpu_column_is_read_from_the_hardware_description(tmp_path):
    header, recs = rows()  # DGX A100 rows whose hardware says 40 GB or 80 GB
    stated = predicted(
        write(tmp_path / "a.csv", header, [{**r, "gpu": "A100", "hardware": "8x A100 40GB"} for r in recs])
    )
    blank = predicted(write(tmp_path / "b.csv", header, [{**r, "gpu": "", "hardware": "8x A100 40GB"} for r in recs]))
    eighty = predicted(write(tmp_path / "c.csv", header, [{**r, "gpu": ""} for r in recs]))  # the system's: 80 GB
    assert blank == stated and all(a < b for a, b in zip(blank, eighty))


@pytest.mark.parametrize("lang, lacks, unknown", [
    ("en", "note: 1 of them without GPUs per node: X",
     "; the catalog, which would fill it, lacks the system 'HGX H100'"),
    ("es", "nota: 1 de ellas sin GPU por nodo: X",
     "; el catálogo, que lo completaría, no tiene el sistema 'HGX H100'"),
])  # fmt: skip
def test_a_skipped_configuration_names_what_it_lacks(tmp_path, capsys, lang, lacks, unknown):
    """An unknown system with blank fabric columns was skipped as 'missing what a prediction needs', no more."""
    header, recs = rows()
    hgx = [{**r, "cfg": "X", "system": "HGX H100", "gpus_per_node": "", "intra_bw_gbs": "", "inter_bw_gbs": ""}
           for r in recs]  # fmt: skip
    path = write(tmp_path / "v.csv", header, hgx + [{**r, "params_millions": "", "cfg": "Y"} for r in recs])
    rc, out, _ = run(capsys, "validate", str(path), "--lang", lang)
    assert rc == 0 and lacks + unknown in out
    rc, out, _ = run(capsys, "validate", str(path), "--json")
    report = json.loads(out)
    assert report["skip_reasons"] == {
        "X": {"missing": "gpus_per_node", "unknown_system": "HGX H100"},
        "Y": {"missing": "params_millions"},  # the catalog never fills a parameter count: no system blamed
    }


def test_a_system_name_several_catalog_systems_share_is_said_so(tmp_path, capsys):
    """'DGX-1' with no GPU named was said to be missing from the catalog, which holds two."""
    header, recs = rows()
    dgx1 = [{**r, "system": "DGX-1", "gpu": "", "hardware": "", "gpus_per_node": "", "intra_bw_gbs": "",
             "inter_bw_gbs": ""} for r in recs]  # fmt: skip
    rc, out, _ = run(capsys, "validate", str(write(tmp_path / "v.csv", header, dgx1)))
    assert (
        rc == 0
        and "; the catalog holds several systems of that name (dgx1-p100 / dgx1-v100): a GPU column picks one" in out
    )


def test_a_gpu_the_catalog_lacks_is_said_with_the_bandwidth_taken(tmp_path, capsys):
    header, recs = rows()
    path = write(tmp_path / "v.csv", header, [{**r, "gpu": "T4"} for r in recs])
    rc, out, _ = run(capsys, "validate", str(path))
    assert (
        rc == 0
        and "note: 1 configuration names a GPU the catalog lacks ('T4'): the synchronisation wait "
        "takes 2 TB/s for its memory bandwidth"
        in out
    )
    rc, out, _ = run(capsys, "validate", str(path), "--json")
    assert json.loads(out)["unknown_gpu"] == {recs[0]["cfg"]: "T4"}


@pytest.mark.parametrize("name, gpu, key", [
    ("DGX-1", "V100", "dgx1-v100"),  # two DGX-1s: the GPU says which
    ("DGX1", "Tesla P100", "dgx1-p100"),
    ("DGX-1", None, None),  # without it, neither
    ("p4d.24xlarge", None, "aws-p4d"),  # an instance type as the cloud names it
    ("p5.48xlarge", None, "aws-p5"),
    ("A3 Mega", None, "gcp-a3-mega"),
])  # fmt: skip
def test_a_system_named_as_its_maker_does_is_found(name, gpu, key):
    from dpscale.catalog import key_of

    assert key_of("systems", name, gpu) == key


def test_a_dgx1_table_with_blank_fabric_takes_the_v100_systems_figures(tmp_path):
    """'DGX-1' with blank fabric columns skipped its configuration (P100 or V100?); the GPU column settles it."""
    header, recs = rows()
    dgx1 = {"system": "dgx1-v100", "gpu": "V100", "hardware": "", "intra_bw_gbs": "150", "inter_bw_gbs": "50"}
    one = [{**r, **dgx1} for r in recs]
    want = predicted(write(tmp_path / "a.csv", header, one))
    loose = [{**r, "system": "DGX-1", "gpus_per_node": "", "intra_bw_gbs": "", "inter_bw_gbs": ""} for r in one]
    assert len(want) == 3 and predicted(write(tmp_path / "b.csv", header, loose)) == want


@pytest.mark.parametrize("label", ["fp16_allreduce", "AMP, bf16_all_reduce", "FP16 all-reduce"])
def test_a_half_all_reduce_written_with_underscores_counts_two_bytes(label):
    from dpscale.sources.predict_validate import grad_bytes_per_param

    assert grad_bytes_per_param(label) == 2 and grad_bytes_per_param("AMP") == 4


@pytest.mark.parametrize("sep, said", [(";", "with ';'"), ("\t", "with tabs")])
def test_a_file_separated_by_semicolons_or_tabs_is_told_so(tmp_path, capsys, sep, said):
    """The header read as one column, so 'missing column(s) cfg, …' looked as though every name were there."""
    path = tmp_path / "v.csv"
    path.write_text(sep.join(["cfg", "baseline_devices", "devices"]) + "\n" + sep.join(["x", "1", "1"]) + "\n")
    rc, _, err = run(capsys, "validate", str(path))
    assert rc == 2 and err.strip().endswith(f"; allowed: columns separated by commas — this file separates them {said}")


def test_the_patterns_run_on_every_python_the_package_accepts():
    """pyproject accepts Python 3.10, whose re has no possessive quantifier ('[a-z]++', '(…)?+') nor atomic group
    ('(?>…)'): on 3.10 the GPU family pattern raised 're.error: multiple repeat', a traceback from `dpscale
    validate` on every file and from `predict --gpu A100`. No pattern in the source uses them."""
    import ast
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    newer = re.compile(r"(?<!\\)[*+?}]\+|\(\?>")  # a quantifier made possessive, or an atomic group
    found = []
    for path in sorted((root / "src" / "dpscale").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}  # docstrings ('C++ destructors')
        found += [
            f"{path.name}:{node.lineno}: {node.value!r}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
            and newer.search(node.value)
        ]  # fmt: skip
    assert not found
    from dpscale.catalog import _sizes, gpu_in

    # what the possessive forms meant: 'gb' is not given back to read '100 g' before 'bps' as 100 GB
    assert _sizes("A100 80GB, 100 Gbps, 40 Gb/s, 25GbE, 2.1 GHz, 40 GiB, (16G)") == {80, 40, 16}
    assert gpu_in("2x Xeon E5-2698 v4, 8x Tesla V100 16GB") == "v100" and gpu_in("AWS p4d.24xlarge") is None
