"""The catalog's GPU names: vendor names, sizes, forms (SXM, NVL) and counts glued to a name."""

from __future__ import annotations

import pytest

from dpscale import catalog
from dpscale.errors import DpscaleError

# Cases a sixth mutation sweep (session 30: the catalog's name reading and system files, the CLI's shared
# parsers, the predict and fit faces' arguments, a first few of measure's; 169 mutants, 40 non-equivalent survivors)
# found no test could fail on. Each expected value is derived in its docstring or comment, from the docs or the
# arithmetic, not read back from the code. None of these starts torch, a browser or a process.


# ---------------------------------------------------------------- catalog: GPU names


def test_a_gpu_size_its_family_is_not_made_in_is_refused():
    """catalog.gpu: a vendor name picks an entry where 'the name states one [size] the family is made in'; the
    catalog's H100 is made in 80 GB only, so 'H100 94GB' (the NVL part's memory) names no entry of it."""
    assert catalog.gpu("H100 80GB")["key"] == "h100-80gb"
    with pytest.raises(DpscaleError, match="--gpu: got 'H100 94GB'"):
        catalog.gpu("H100 94GB")


def test_an_nvl_part_is_not_the_catalog_s_sxm_one():
    """catalog.gpu: 'a name that ... names a form the entry is not' is refused; the entry is the NVIDIA H100 SXM 80
    GB, so an H100 NVL (another board, another peak) is refused like 'H100 PCIe' (docs/predict.md)."""
    for form in ("PCIe", "NVL"):
        with pytest.raises(DpscaleError, match=f"is the NVIDIA H100 SXM 80 GB, not the {form} part"):
            catalog.gpu(f"H100 {form}")


def test_a_count_glued_to_the_gpu_is_no_part_of_its_name():
    """_bare: counts go ('8x NVIDIA A100' → 'a100'); MLPerf writes '8xA100' without the space: the family is
    a100 still, and '80GB' picks the 80 GB entry."""
    assert catalog.gpu_in("8xA100-SXM4-80GB") == "a100"
    assert catalog.find_gpu(gpu="8xA100 80GB")["memory_gb"] == 80


def test_a_gpu_name_is_read_to_its_thousandth_character():
    """catalog.NAME_MAX: the 'characters of a GPU name or hardware description read (a table's cell, not a book)',
    1,000: an A100 whose name ends on the 1,000th character is found, one a character further is not."""
    assert catalog.gpu_in(" " * 996 + "A100") == "a100"
    assert catalog.gpu_in(" " * 997 + "A100") is None


def test_a_system_s_name_in_the_gpu_cell_means_the_system_s_gpu():
    """find_gpu: 'only text that names no GPU at all ('', '8 GPUs', a system's name) means the system's GPU'. 'DGX-2'
    names the dgx2-v100 system (one system starts so), whose GPU is the 32 GB V100; '8 accelerators' names none."""
    assert catalog.find_gpu(system="dgx2-v100", gpu="DGX-2")["memory_gb"] == 32
    assert catalog.find_gpu(system="dgx-h100", gpu="8 accelerators")["name"] == "NVIDIA H100 SXM 80 GB"


# ---------------------------------------------------------------- catalog: GPU figures against their datasheets


@pytest.mark.parametrize(("key", "sparse", "vector_fp32"), [
    ("l4-24gb", {"tf32": 120, "bf16": 242, "fp16": 242, "fp8": 485}, 30.3),  # L4 datasheet: '*' with sparsity
    ("h100-80gb", {"tf32": 989, "bf16": 1979, "fp16": 1979, "fp8": 3958}, 67),  # H100 SXM datasheet
    ("h200-141gb", {"tf32": 989, "bf16": 1979, "fp16": 1979, "fp8": 3958}, 67),  # H200 SXM datasheet
    ("b200-180gb", {"tf32": 2200, "bf16": 4500, "fp16": 4500, "fp8": 9000}, 75),  # HGX B200, one GPU's column
])  # fmt: skip
def test_nvidia_tensor_peaks_are_the_datasheets_sparse_figures_halved(key, sparse, vector_fp32):
    """gpus.json holds dense peaks; NVIDIA's tables give tensor rates 'with sparsity' (2:4, twice dense): each
    dense figure is its sparse one halved (989 for 1,979: NVIDIA's dense 989.4 rounded), FP32 the vector rate."""
    peak = catalog.gpu(key)["peak_tflops"]
    for precision, figure in sparse.items():
        assert peak[precision] == pytest.approx(figure / 2, rel=1e-3), precision
    assert peak["fp32"] == vector_fp32 and peak["amp"] == peak["bf16"]


def test_an_mi250x_rank_is_half_the_package():
    """AMD MI250X (one OAM package, two GCDs, each its own device): 383 TFLOP/s BF16/FP16, 95.7 FP32 matrix,
    128 GB HBM2e at 3.2768 TB/s per package — a rank (one GCD) holds half of each."""
    g = catalog.gpu("mi250x-gcd")
    assert g["peak_tflops"]["bf16"] == g["peak_tflops"]["fp16"] == 383 / 2
    assert g["peak_tflops"]["fp32"] == pytest.approx(95.7 / 2) and g["memory_gb"] == 128 / 2
    assert g["hbm_tbs"] == pytest.approx(3.2768 / 2, abs=0.005)
