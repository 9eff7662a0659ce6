"""System files the catalog reads: their NICs, figures and misspelt keys."""

from __future__ import annotations

import json

import pytest

from dpscale import catalog
from dpscale.errors import DpscaleError

# Cases a sixth mutation sweep (session 30: the catalog's name reading and system files, the CLI's shared
# parsers, the predict and fit faces' arguments, a first few of measure's; 169 mutants, 40 non-equivalent survivors)
# found no test could fail on. Each expected value is derived in its docstring or comment, from the docs or the
# arithmetic, not read back from the code. None of these starts torch, a browser or a process.


SYSTEM = {"gpus_per_node": 8, "intra_bw_gbs": 300, "inter_bw_gbs": 100}


def system_file(tmp_path, **fields) -> str:
    path = tmp_path / "sys.json"
    path.write_text(json.dumps({"systems": {"a": {**SYSTEM, **fields}}}))
    return str(path)


# ---------------------------------------------------------------- catalog: system files


def test_a_system_figure_of_1e300_is_refused(tmp_path):
    """load_system_file: 'needs numbers > 0 (and below 1e300)': 1e300 itself is not below 1e300."""
    with pytest.raises(DpscaleError, match=r"needs numbers > 0 \(and below 1e300\) for intra_bw_gbs"):
        catalog.load_system_file(system_file(tmp_path, intra_bw_gbs=1e300))


def test_a_misspelt_link_name_is_refused_as_a_misspelt_gpu_is(tmp_path):
    """docs/predict.md: a key 'a letter or two from a key that is read' is refused. intra_link's value is a name
    (a string), so "intra_lnk": "nvlink3" is that key misspelt, not a description."""
    with pytest.raises(DpscaleError, match=r"key 'intra_lnk' \(did you mean 'intra_link'\?\)"):
        catalog.load_system_file(system_file(tmp_path, intra_lnk="nvlink3"))


@pytest.mark.parametrize("cores", [1.0, 1e6])
def test_a_system_file_s_cpu_cores_at_either_bound_as_a_float_is_a_whole_number(tmp_path, cores):
    """cpu_cores runs from 1 to 1,000,000 and '8.0 is 8': so are 1.0 and 1e6 at the ends (kept as floats, a one-core
    host's 1.0 was read unlike its 1)."""
    got = catalog.load_system_file(system_file(tmp_path, cpu_cores=cores))["cpu_cores"]
    assert type(got) is int and got == cores


def test_a_key_one_letter_short_of_nics_is_refused(tmp_path):
    """docs/predict.md: a key 'a letter or two from a key that is read' is refused. "nic" is nics less its last
    letter: on a three-letter name that one letter leaves difflib's ratio at 2·3/7 = 0.857 (cpu_core's is 0.94), a
    typo still — read as a description, the node's 8 NICs went unread and the whole network was charged."""
    with pytest.raises(DpscaleError, match=r"key 'nic' \(did you mean 'nics'\?\)"):
        catalog.load_system_file(system_file(tmp_path, nic=8))


# ---------------------------------------------------------------- catalog: cloud instances' fabrics


@pytest.mark.parametrize(("key", "nics", "gbit"), [
    ("aws-p4d", 4, 400),  # EFA v1: 4 network cards × 100 Gb
    ("aws-p5", 32, 3200),  # EFA v2: 32 × 100 Gb
    ("aws-p5e", 32, 3200),
    ("aws-p5en", 16, 3200),  # EFA v3: 16 × 200 Gb
    ("aws-p6-b200", 8, 3200),  # 8 × 400 Gb
    ("gcp-a3-high", 4, 800),  # the GPU fabric's 4 × 200 Gb (the host NIC apart)
    ("gcp-a3-mega", 8, 1600),  # 8 × 200 Gb
])  # fmt: skip
def test_a_cloud_instance_s_network_is_its_provider_s_total(key, nics, gbit):
    """AWS lists p4d's 400 Gb/s and 3,200 Gb/s for p5, p5e, p5en and p6-b200 on 4, 32, 32, 16 and 8 EFA network
    cards; GCP's A3 High and Mega give their GPUs 4 and 8 NICs of 200 Gb/s (physics.md §4.3): the node's GB/s per
    direction is that total / 8, whatever the NIC count."""
    s = catalog.system(key)
    assert (s["nics"], s["inter_bw_gbs"]) == (nics, gbit / 8) and s["gpus_per_node"] == 8
