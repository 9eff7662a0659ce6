"""The catalog's GPUs: vendor names, sizes, forms (SXM, NVL), counts glued to a name; each figure by its source."""

from __future__ import annotations

import numpy as np
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


SPARSE = [  # (key, tensor peaks 'with sparsity', the FP32 vector peak) as NVIDIA's datasheets print them
    ("l4-24gb", {"tf32": 120, "bf16": 242, "fp16": 242, "fp8": 485}, 30.3),  # L4 datasheet: '*' with sparsity
    ("h100-80gb", {"tf32": 989, "bf16": 1979, "fp16": 1979, "fp8": 3958}, 67),  # H100 SXM datasheet
    ("h200-141gb", {"tf32": 989, "bf16": 1979, "fp16": 1979, "fp8": 3958}, 67),  # H200 SXM datasheet
    ("b200-180gb", {"tf32": 2200, "bf16": 4500, "fp16": 4500, "fp8": 9000}, 75),  # HGX B200, one GPU's column
    ("gb200-186gb", {"tf32": 2500, "bf16": 5000, "fp16": 5000, "fp8": 10000}, 80),  # the same table, GB200 NVL72
]  # fmt: skip


@pytest.mark.parametrize(("key", "sparse", "vector_fp32"), SPARSE)
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


# ---------------------------------------------------------------- catalog: each GPU's figures against its source

# (dense peaks TFLOP/s, memory GB as sold, HBM TB/s), typed from the sources gpus.json names: physics.md §4.1's
# accelerator table (BF16/FP16 dense, FP32 non-tensor, TF32 and FP8 where it gives them, HBM GB and TB/s); the P100
# from Microway's page and GTC 2016; the L4 and L40S from NVIDIA's datasheets (the L40S's dense column: 362.05 is
# not 733 / 2, so it is pinned, not halved). A mistyped or misread figure (a sparse peak, a bidirectional rate, GiB
# for GB) fails here: the rest of the suite predicts with measured throughputs and passed with A100 BF16 at 343.
SHEETS = {
    "p100-16gb": ({"fp16": 21.2, "fp32": 10.6}, 16, 0.732),
    "v100-16gb": ({"fp16": 125, "fp32": 15.7}, 16, 0.90),
    "v100-32gb": ({"fp16": 125, "fp32": 15.7}, 32, 0.90),
    "a100-40gb": ({"bf16": 312, "fp16": 312, "tf32": 156, "fp32": 19.5}, 40, 1.555),
    "a100-80gb": ({"bf16": 312, "fp16": 312, "tf32": 156, "fp32": 19.5}, 80, 2.039),  # TF32: the 40 GB's die
    "h100-80gb": ({"bf16": 989, "fp16": 989, "fp8": 1979, "tf32": 494.5, "fp32": 67}, 80, 3.35),
    "h200-141gb": ({"bf16": 989, "fp16": 989, "fp8": 1979, "fp32": 67}, 141, 4.8),
    "b200-180gb": ({"bf16": 2250, "fp16": 2250, "fp8": 4500}, 180, 8.0),
    # NVIDIA's table, the GB200 NVL72 column (halved: SPARSE above): FP32 80, not glennklockwood's 90; 186 GB, 8 TB/s
    "gb200-186gb": ({"bf16": 2500, "fp16": 2500, "fp8": 5000, "tf32": 1250, "fp32": 80}, 186, 8.0),
    "l4-24gb": ({}, 24, 0.300),  # datasheet: 24 GB GDDR6, 300 GB/s (peaks: the sparse test above)
    "l40s-48gb": ({"bf16": 362.05, "fp16": 362.05, "fp8": 733, "tf32": 183, "fp32": 91.6}, 48, 0.864),
    "mi300x-192gb": ({"bf16": 1307.4, "fp16": 1307.4, "fp8": 2614.9, "fp32": 163.4}, 192, 5.3),  # [MI300X-SEC]
    "tpu-v4": ({"bf16": 275}, 32, 1.2),
    "tpu-v5e": ({"bf16": 197}, 16, 0.819),
    "tpu-v5p": ({"bf16": 459}, 95, 2.765),
}


@pytest.mark.parametrize("key", sorted(SHEETS))
def test_a_gpu_s_figures_are_its_source_s(key):
    """Each figure of gpus.json as its source prints it (SHEETS above)."""
    peaks, memory_gb, hbm_tbs = SHEETS[key]
    g = catalog.gpu(key)
    for precision, figure in peaks.items():
        assert g["peak_tflops"][precision] == pytest.approx(figure, rel=1e-9), precision
    assert (g["memory_gb"], g["hbm_tbs"]) == (memory_gb, pytest.approx(hbm_tbs, rel=1e-9))


def test_every_catalog_gpu_has_its_figures_typed_again_from_its_source():
    """A GPU added to gpus.json without a row in SHEETS passed every test with any figures at all (review HM added
    an unsourced one and the fast suite passed); the MI250X die has its own test above (half a package)."""
    unchecked = sorted(set(catalog.table("gpus")) - set(SHEETS) - {"mi250x-gcd"})
    assert unchecked == [], (
        f"gpus.json {', '.join(unchecked)}: add a row to SHEETS in tests/test_catalog_gpus.py, typed from the source "
        "its 'source' names (docs/DEVELOPING.md, 'Adding to the catalog')"
    )


def test_every_peak_of_a_catalog_gpu_is_typed_again_from_its_source():
    """A row in SHEETS that types no peaks, ({}, 48, 0.696), let a GPU's peaks be anything: review HN added an A40
    with every peak ten times its datasheet's (fp16 1,497 for 149.7) and the catalog tests passed. Each peak is typed
    in SHEETS or SPARSE (fp32: its vector rate there), or set by a rule a test above holds: amp as the 16-bit rate,
    tf32 as fp32 on a part without TF32, an MI250X die as half its package."""
    typed = {(k, p) for k, (peaks, *_) in SHEETS.items() for p in peaks}
    typed |= {(k, p) for k, sparse, _ in SPARSE for p in [*sparse, "fp32"]}
    typed |= {("mi250x-gcd", p) for p in ("bf16", "fp16", "fp32")}  # test_an_mi250x_rank_is_half_the_package
    gpus = catalog.table("gpus")
    ruled = {(k, "amp") for k in gpus} | {(k, "tf32") for k, g in gpus.items() if g["arch"] in TF32_AS_FP32}
    unchecked = [
        f"{k} {p}" for k, g in sorted(gpus.items()) for p in sorted(g["peak_tflops"]) if (k, p) not in typed | ruled
    ]
    assert unchecked == [], (
        f"gpus.json peaks no test reads: {', '.join(unchecked)}: type each into its GPU's row of SHEETS in "
        "tests/test_catalog_gpus.py from the source its 'source' names (docs/DEVELOPING.md, 'Adding to the catalog')"
    )


@pytest.mark.parametrize("key", sorted(catalog.table("gpus")))
def test_a_gpu_s_architecture_has_its_makers_name(key):
    """An arch the predictor does not know was said as typed ('no published measurement on cdna4 accelerators')
    and its fp32 taken for a tensor-core peak (review HM, with an example CDNA 4 part): it needs its name in
    predict_notes.ARCH_NAMES (and, for an NVIDIA part with CUDA-core fp32, predict_inputs.vector_peak's list)."""
    from dpscale.sources.predict_notes import ARCH_NAMES

    arch = catalog.gpu(key)["arch"]
    assert arch in ARCH_NAMES, f"gpus.json {key!r}: arch {arch!r} is not in sources/predict_notes.py ARCH_NAMES"


TF32_AS_FP32 = ("pascal", "volta", "cdna2")  # no TF32: gpus.json's sources


@pytest.mark.parametrize("key", sorted(catalog.table("gpus")))
def test_mixed_precision_runs_at_the_16_bit_rate_and_a_missing_tf32_at_fp32(key):
    """amp is the 16-bit tensor rate (fp16, or bf16 on a TPU, which has no fp16); a part without TF32 (Pascal, Volta,
    CDNA2: gpus.json's sources) runs tf32 as fp32; every part with BF16 is Ampere or later (V100 and P100 have none)."""
    g = catalog.gpu(key)
    peak = g["peak_tflops"]
    assert peak["amp"] == (peak["fp16"] if "fp16" in peak else peak["bf16"])
    if g["arch"] in TF32_AS_FP32:
        assert peak["tf32"] == peak["fp32"]
    assert ("bf16" in peak) == (g["arch"] not in ("pascal", "volta"))


@pytest.mark.parametrize(("key", "sold_gb"), [("l4-24gb", 24), ("l40s-48gb", 48)])
def test_a_gddr6_card_s_usable_memory_is_what_ecc_leaves(key, sold_gb):
    """gpus.json: 'ECC, on by default, holds back 1/16 of GDDR6', so nvidia-smi's total is 15/16 of the sold GiB less
    a few MiB the driver keeps (24 GiB: 23,040 MiB, shown 23,034; 48 GiB: 46,080, shown 46,068)."""
    g = catalog.gpu(key)
    ecc_left = sold_gb * 1024 * 15 / 16
    assert g["memory_gb"] == sold_gb and 0 < ecc_left - g["usable_mib"] <= 16


def test_the_h200_s_ring_fill_meets_the_published_mid_size_busbw():
    """gpus.json: ring_fill_us 0 where 'the published curve is met by alpha-beta alone' (physics.md §1.4: 8× H200,
    220 GB/s busbw at 16 MiB, 276 at 32 MiB). By hand, 8.4 µs + 14 hops of 3.4 µs and 2·7/8·S at 0.8 × 450 GB/s:
    137.6 µs at 16 MiB (213 GB/s, −3 %) and 219.1 µs at 32 MiB (268, −3 %); a fill of 1 µs already costs 16 MiB
    8.6 µs more (201 GB/s, −9 %). H100 and B200 take H200's figure (same NVLink4 switch; B200 unverified)."""
    from dpscale.formulas.collectives import allreduce_time, bus_bandwidth
    from dpscale.formulas.stepmodel import DEFAULT
    from dpscale.sources.predict_inputs import gpu_terms

    h200 = catalog.gpu("h200-141gb")
    c, _ = gpu_terms(DEFAULT, h200)
    sizes = np.array([16, 32]) * 2**20
    t = c.alpha_base + allreduce_time(sizes, 8, 8, c.eta_intra * 450, 1, c.alpha_intra, 0, "auto", c.ring_fill,
                                      c.ring_fill_bytes)  # fmt: skip
    assert bus_bandwidth(sizes, t, 8) == pytest.approx([220, 276], rel=0.04)
    assert catalog.gpu("h100-80gb")["ring_fill_us"] == catalog.gpu("b200-180gb")["ring_fill_us"] == h200["ring_fill_us"]
