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


def test_a_system_s_name_in_the_gpu_cell_means_the_system_s_gpu():
    """find_gpu: 'only text that names no GPU at all ('', '8 GPUs', a system's name) means the system's GPU'. 'DGX-2'
    names the dgx2-v100 system (one system starts so), whose GPU is the 32 GB V100; '8 accelerators' names none."""
    assert catalog.find_gpu(system="dgx2-v100", gpu="DGX-2")["memory_gb"] == 32
    assert catalog.find_gpu(system="dgx-h100", gpu="8 accelerators")["name"] == "NVIDIA H100 SXM 80 GB"
