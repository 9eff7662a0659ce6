"""System files the catalog reads: their NICs, figures and misspelt keys."""

from __future__ import annotations

import json
import re

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


@pytest.mark.parametrize(
    ("fields", "got"),
    [
        ({"intra_bw_gbs": -300}, '{"intra_bw_gbs": -300}'),
        ({"gpus_per_node": "eight", "inter_bw_gbs": 0}, '{"gpus_per_node": "eight", "inter_bw_gbs": 0}'),
    ],
)
def test_a_system_figure_out_of_range_is_named_with_its_value(tmp_path, fields, got):
    """The one line names the value, not the key alone: -300 GB/s was said as 'needs numbers > 0 … for
    intra_bw_gbs', which a user reads as the key missing from a file that has it."""
    with pytest.raises(DpscaleError) as refused:
        catalog.load_system_file(system_file(tmp_path, **fields))
    assert str(refused.value).endswith(f"for {', '.join(fields)} (got {got})")


def test_a_missing_system_figure_is_said_without_a_value(tmp_path):
    """A key the file lacks has no value to quote: the line ends at the key."""
    path = tmp_path / "sys.json"
    path.write_text(json.dumps({"systems": {"a": {"gpus_per_node": 8, "intra_bw_gbs": 300}}}))
    with pytest.raises(DpscaleError) as refused:
        catalog.load_system_file(str(path))
    assert str(refused.value).endswith("(and below 1e300) for inter_bw_gbs")


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


@pytest.mark.parametrize("typed", ["DGX-A100", "dgx_a100", "DGX A100", " dgx-a100 ", "dgx-a100-80gb", "DGX A100 80GB"])
def test_a_system_file_reads_its_names_as_the_catalog_reads_its_own(typed):
    """--system-file takes a file 'in the format of systems.json' (docs/predict.md): the catalog's own file passed
    as one finds what --system finds in the catalog — case, '-', '_' and spaces do not matter, and the file's
    `aliases` table is read. Until review IA every name but the exact key was refused from the file ('DGX-A100':
    'allowed (from systems.json): …, dgx-a100, …') while --system read all six from the catalog."""
    assert catalog.system(typed)["key"] == "dgx-a100"  # the catalog's own reading, the file's yardstick
    got = catalog.load_system_file(str(catalog.HERE / "systems.json"), typed)
    assert (got["key"], got["gpus_per_node"], got["intra_bw_gbs"], got["inter_bw_gbs"]) == ("dgx-a100", 8, 300, 200)
    from dpscale import predict

    kw = dict(model="bert-large", precision="amp", batch=32, throughput=150)
    from_file = predict([8, 64], system_file=str(catalog.HERE / "systems.json"), system=typed, **kw)
    assert from_file.records() == predict([8, 64], system="dgx-a100", **kw).records()


def test_a_name_two_of_a_files_systems_spell_alike_is_refused(tmp_path):
    """Read loosely, 'Mine' would be either of a file's 'mine' and 'MINE': no guess, the refusal names both (an
    exact key still wins: 'mine' is 'mine'). An alias whose system the file lacks names nothing."""
    path = tmp_path / "sys.json"
    path.write_text(json.dumps({"aliases": {"ours": "theirs"}, "systems": {"mine": SYSTEM, "MINE": SYSTEM}}))
    assert catalog.load_system_file(str(path), "mine")["key"] == "mine"
    for typed in ("Mine", "ours"):
        with pytest.raises(DpscaleError, match=rf"--system: got '{typed}'; allowed \(from .*sys.json\): MINE, mine$"):
            catalog.load_system_file(str(path), typed)


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("p4d.24xlarge", "aws-p4d"),  # an instance's size after its name
        ("AWS p4d.24xlarge (8 × A100 40 GB)", "aws-p4d"),  # the file's own 'name' field
        ("p5", "aws-p5"),  # a cloud instance without its provider
        ("a3-mega", "gcp-a3-mega"),
        ("ND H100 v5", "azure-nd-h100-v5"),
        ("DGX-2", "dgx2-v100"),  # the leading part of one key
        ("dgx2h", "dgx2h-v100"),
    ],
)
def test_a_system_file_reads_every_spelling_the_catalog_reads(typed, key):
    """Review IC: 5d39c03 said a file's names are read 'as key_of reads the catalog's', but read only case,
    separators and aliases: the catalog's own systems.json as --system-file still refused 'p4d.24xlarge', 'p5',
    'ND H100 v5' and 'DGX-2' (49 of 240 catalog names and mangled spellings read apart), which --system takes."""
    assert catalog.key_of("systems", typed) == key  # the catalog's reading, the file's yardstick
    assert catalog.load_system_file(str(catalog.HERE / "systems.json"), typed)["key"] == key


def test_a_system_file_settles_a_shared_name_by_the_gpu_as_the_catalog_does():
    """'DGX-1' leads dgx1-p100 and dgx1-v100: with --gpu V100 the catalog reads dgx1-v100 (key_of's `gpu`), and
    so does the catalog's own file; without a GPU neither guesses."""
    path = str(catalog.HERE / "systems.json")
    assert catalog.system("DGX-1", gpu="V100")["key"] == "dgx1-v100"
    assert catalog.load_system_file(path, "DGX-1", gpu="V100")["key"] == "dgx1-v100"
    assert catalog.load_system_file(path, "DGX-1", gpu="p100-16gb")["key"] == "dgx1-p100"
    with pytest.raises(DpscaleError, match=r"--system: got 'DGX-1'; allowed \(from .*systems.json\): aws-p4d, "):
        catalog.load_system_file(path, "DGX-1")
    from dpscale import predict

    kw = dict(model="bert-large", precision="amp", batch=32, throughput=150, gpu="v100-16gb")
    from_file = predict([8, 64], system_file=path, system="DGX-1", **kw)
    assert from_file.records() == predict([8, 64], system="DGX-1", **kw).records()


def test_a_system_file_and_the_catalog_read_every_spelling_alike():
    """Every catalog key, alias and display name, and 300 spellings of them (case, separators, a size suffix, a
    part cut off, fixed seed): the catalog's file read as a --system-file names what `key_of` names, or both
    refuse. Before review IC 67 of these 340 read apart."""
    import random

    path = str(catalog.HERE / "systems.json")
    names = [*catalog.table("systems"), "dgx-a100-80gb", "dgx-h200"]
    names += [e["name"] for e in catalog.table("systems").values() if "name" in e]
    rnd = random.Random(3)

    def mangled(n: str) -> str:
        s = "".join(c.upper() if rnd.random() < 0.4 else c for c in n)
        s = "".join(rnd.choice("-_ ") if c in "-_ " else c for c in s)
        s += ".48xlarge" if rnd.random() < 0.2 else ""
        return s.rsplit("-", 1)[0] if "-" in s and rnd.random() < 0.3 else s

    apart, read = [], 0
    for typed in names + [mangled(rnd.choice(names)) for _ in range(300)]:
        try:
            got = catalog.load_system_file(path, typed)["key"]
        except DpscaleError:
            got = None
        if got != catalog.key_of("systems", typed):
            apart.append((typed, got, catalog.key_of("systems", typed)))
        read += got is not None
    assert apart == []
    assert all(catalog.load_system_file(path, n)["key"] for n in names[:21])  # every key and alias: no refusal
    assert read > 150  # the sweep is of names read (195 of its 340), not only of refusals


def test_a_system_files_names_keep_every_rule_of_key_ofs_reading(tmp_path):
    """Review IF (mutation pass over 605df8e): five changes to _key_among and _file_key left every test passing, each
    a rule the commit names for a file's names. Two keys spelt alike but for separators ('big-a', 'big_a') are not
    guessed between; two aliases spelt alike naming two systems name neither; a file's key in capitals is still the
    one a name leads ('pod' → 'Pod-H100'); an alias is read before a leading part, as key_of reads the catalog's; a
    file entry that is no object, among those a --gpu settles, is passed over (no AttributeError)."""
    path = tmp_path / "sys.json"

    def read(data: dict, typed: str, gpu: str | None = None) -> str:
        path.write_text(json.dumps(data))
        return catalog.load_system_file(str(path), typed, gpu=gpu)["key"]

    with pytest.raises(DpscaleError, match=r"--system: got 'BIG A'; allowed \(from .*sys.json\): big-a, big_a$"):
        read({"systems": {"big-a": SYSTEM, "big_a": SYSTEM}}, "BIG A")
    assert read({"systems": {"big-a": SYSTEM, "big_a": SYSTEM}}, "big_a") == "big_a"  # (an exact key: itself)
    two = {"aliases": {"Fast": "a", "fast": "b", "Slow": "a"}, "systems": {"a": SYSTEM, "b": SYSTEM}}
    with pytest.raises(DpscaleError, match=r"--system: got 'FAST'; allowed \(from .*sys.json\): a, b$"):
        read(two, "FAST")
    assert read(two, "SLOW") == "a"
    assert read({"systems": {"Pod-H100": SYSTEM, "other": SYSTEM}}, "pod") == "Pod-H100"
    assert read({"aliases": {"big": "x"}, "systems": {"big-1": SYSTEM, "x": SYSTEM}}, "big") == "x"
    mixed = {"systems": {"pod-a": {**SYSTEM, "gpu": "v100-16gb"}, "pod-b": 5, "pod-c": {**SYSTEM, "gpu": "a100-40gb"}}}
    assert read(mixed, "pod", gpu="V100") == "pod-a"
    assert read(mixed, "pod", gpu="A100") == "pod-c"


def test_a_bare_systems_own_aliases_field_is_no_alias_table(tmp_path):
    """A file of one system's fields alone has no 'aliases' table (systems.json's sits beside 'systems'): its own
    field of that name describes it and names nothing ('mine' was read as the system 'custom')."""
    path = tmp_path / "one.json"
    path.write_text(json.dumps({**SYSTEM, "aliases": {"mine": "custom"}}))
    assert catalog.load_system_file(str(path))["key"] == "custom"
    assert catalog.load_system_file(str(path), "Custom")["key"] == "custom"
    with pytest.raises(DpscaleError, match=r"--system: got 'mine'; allowed \(from .*one.json\): custom$"):
        catalog.load_system_file(str(path), "mine")
    # an alias table's value that is no name names nothing, and is no traceback (a list is unhashable)
    path.write_text(json.dumps({"aliases": {"ours": ["a"], "Theirs": "a"}, "systems": {"a": SYSTEM, "b": SYSTEM}}))
    assert catalog.load_system_file(str(path), "THEIRS")["key"] == "a"
    with pytest.raises(DpscaleError, match=r"--system: got 'ours'; allowed \(from .*one.json\): a, b$"):
        catalog.load_system_file(str(path), "ours")


# ---------------------------------------------------------------- catalog: cloud instances' fabrics


CLOUDS = [  # (key, NICs, the node's Gb/s) as the provider lists them
    ("aws-p4d", 4, 400),  # EFA v1: 4 network cards × 100 Gb
    ("aws-p5", 32, 3200),  # EFA v2: 32 × 100 Gb
    ("aws-p5e", 32, 3200),
    ("aws-p5en", 16, 3200),  # EFA v3: 16 × 200 Gb
    ("aws-p6-b200", 8, 3200),  # 8 × 400 Gb
    ("gcp-a3-high", 4, 800),  # the GPU fabric's 4 × 200 Gb (the host NIC apart)
    ("gcp-a3-mega", 8, 1600),  # 8 × 200 Gb
    ("azure-nd-mi300x-v5", 8, 3200),  # Microsoft's size page: 8 × 400 Gb NDR, one a GPU, 3.2 Tb/s a VM
]  # fmt: skip


@pytest.mark.parametrize(("key", "nics", "gbit"), CLOUDS)
def test_a_cloud_instance_s_network_is_its_provider_s_total(key, nics, gbit):
    """AWS lists p4d's 400 Gb/s and 3,200 Gb/s for p5, p5e, p5en and p6-b200 on 4, 32, 32, 16 and 8 EFA network
    cards; GCP's A3 High and Mega give their GPUs 4 and 8 NICs of 200 Gb/s (physics.md §4.3); Azure's ND MI300X v5
    one 400 Gb/s InfiniBand NIC a GPU: the node's GB/s per direction is that total / 8, whatever the NIC count."""
    s = catalog.system(key)
    assert (s["nics"], s["inter_bw_gbs"]) == (nics, gbit / 8) and s["gpus_per_node"] == 8


# ---------------------------------------------------------------- catalog: links and nodes against their sources


LINKS = [  # (key, GB/s one way) from physics.md's lanes and rates
    ("nvlink1", 4 * 20), ("nvlink2", 6 * 25), ("nvlink3", 12 * 25), ("nvlink4", 18 * 25), ("nvlink5", 18 * 50),
    ("xgmi-mi300x", 7 * 64),  # physics.md §4.1: 64 GB/s to each of 7 peers
    ("pcie3", 8 * 16 * 128 / 130 / 8), ("pcie4", 31), ("pcie5", 63),  # §4.2: 8 GT/s × 16 lanes, 128b/130b
    ("ib-edr", 100 / 8), ("ib-hdr", 200 / 8), ("ib-ndr", 400 / 8), ("ib-xdr", 800 / 8),  # §4.3: port Gb/s / 8
    ("eth-25g", 25 / 8), ("eth-100g", 100 / 8), ("eth-200g", 200 / 8), ("eth-400g", 400 / 8),
]  # fmt: skip


@pytest.mark.parametrize(("key", "gbs"), LINKS)
def test_a_link_is_its_lanes_times_their_rate_one_way(key, gbs):
    """links.json holds GB/s per device (or port) per direction: NVLink's links × 20, 25 or 50 GB/s each way
    (physics.md §4.2; NVIDIA's 300/600/900/1,800 GB/s count both ways), a port's line rate / 8."""
    assert catalog.table("links")[key]["gbs"] == pytest.approx(gbs, rel=1e-3)


@pytest.mark.parametrize("key", sorted(catalog.table("links")))
def test_a_link_s_hop_latency_is_nccl_s_ring_simple_figure(key):
    """physics.md §1.3 [NCCL-TUNE], ring, Simple protocol: 3.4 µs a hop on NVLink, 5.7 on PCIe. The network's hop
    (14 µs) is the step model's alpha_inter, not a link's, and xGMI has no figure: neither carries one."""
    link = catalog.table("links")[key]
    expect = {"nvlink": 3.4, "pcie": 5.7}.get(key.rstrip("12345"))
    assert link.get("alpha_us") == expect


NODES = [  # (key, GPUs a node, host CPU cores or None) as the system's description prints them
    ("dgx1-p100", 8, 2 * 20),  # 2 × Xeon E5-2698 v4, 20 cores each
    ("dgx1-v100", 8, 40),  # [MLP06-DGX1] num_cores 40
    ("dgx2-v100", 16, 2 * 24),
    ("dgx2h-v100", 16, 2 * 24),  # 2 × Xeon Platinum 8174 [MLP07-DGX2H]
    ("dgx-a100", 8, 2 * 64),  # 2 × EPYC 7742 [MLP07-DGXA100]
    ("dgx-h100", 8, 2 * 56),  # 2 × Xeon Platinum 8480C [MLP30-DGXH100]
    ("hgx-h200", 8, 2 * 56),  # as NVIDIA's MLPerf v4.0 submission [MLP40-H200]
    ("dgx-b200", 8, 2 * 56),  # 2 × Xeon Platinum 8570 [MLPI61-B200]
    ("azure-nd-a100-v4", 8, 96),  # Microsoft's size pages: 96 physical cores
    ("azure-nd-h100-v5", 8, 96),
    ("azure-nd-mi300x-v5", 8, 96),  # '96 physical 4th Gen Intel Xeon Scalable processor cores'
    ("gb200-nvl72", 72, 18 * 2 * 72),  # one NVLink domain: 18 trays × 2 Grace × 72 Neoverse-V2 cores (MLPerf v5.1)
    ("pcie-a100-100gbe", 8, None),
    ("pcie-v100-25gbe", 4, None),  # [HVD-BENCH]'s 4 GPUs a server
]  # fmt: skip


@pytest.mark.parametrize(("key", "gpus", "cores"), NODES)
def test_a_node_s_gpus_and_host_cores_are_its_sources(key, gpus, cores):
    """gpus_per_node and cpu_cores as the system descriptions print them (the cloud instances' counts: above)."""
    s = catalog.system(key)
    assert (s["gpus_per_node"], s.get("cpu_cores")) == (gpus, cores)


def test_every_catalog_system_and_link_has_its_figures_typed_again_from_its_source():
    """A system added to systems.json passed every test without its figures checked against anything (review HM
    added an unsourced MI300X node and the fast suite passed): each is in CLOUDS or NODES above, each link in
    LINKS."""
    unchecked = sorted(set(catalog.table("systems")) - {k for k, *_ in CLOUDS + NODES})
    assert unchecked == [], (
        f"systems.json {', '.join(unchecked)}: add a row to NODES (GPUs, host cores) or CLOUDS (NICs, Gb/s) in "
        "tests/test_catalog_systems.py, typed from the source its 'source' names (docs/DEVELOPING.md, 'Adding to "
        "the catalog')"
    )
    unchecked = sorted(set(catalog.table("links")) - {k for k, _ in LINKS})
    assert unchecked == [], (
        f"links.json {', '.join(unchecked)}: add a row to LINKS in tests/test_catalog_systems.py, its lanes × rate "
        "from its source (docs/DEVELOPING.md, 'Adding to the catalog')"
    )


def test_a_gb200_nvl72_node_is_the_rack_s_nvlink_domain_with_a_nic_a_gpu():
    """DGX GB200 User Guide: a rack of 18 compute trays, each 4 Blackwell GPUs and 4 ConnectX-7 single-port 400G
    NICs, its 72 GPUs one NVLink domain at '1.8 TB/s bidirectional per GPU'. The model's node is that domain: 72
    GPUs, NVLink5's 1,800 / 2 = 900 GB/s a direction each, and 18 × 4 = 72 NICs × 400 Gb / 8 = 3,600 GB/s a rack
    (a run on g of its GPUs reaches ⌈72·g/72⌉ = g of them: one NIC a GPU, as in NVIDIA's MLPerf system file)."""
    s = catalog.system("gb200-nvl72")
    assert (s["gpus_per_node"], s["intra_link"], s["intra_bw_gbs"]) == (18 * 4, "nvlink5", 1800 / 2)
    assert s["topology"] == "nvswitch"  # its 9 NVLink switch trays: every GPU one hop from every other, no mesh
    assert (s["inter_link"], s["nics"], s["inter_bw_gbs"]) == ("ib-ndr", 18 * 4, 18 * 4 * 400 / 8)
    assert s["gpu"] == "gb200-186gb" and catalog.system("DGX GB200")["key"] == "gb200-nvl72"


def test_an_mi300x_node_s_mesh_gives_g_gpus_g_minus_1_links():
    """physics.md §4.1 [STAS-NET]: each MI300X has 64 GB/s a direction to each of its 7 peers, no switch: 8 GPUs
    ring over 7 × 64 = 448 GB/s each, and a run on g of them reaches only g − 1 peers, (g − 1) × 64 (two GPUs share
    one link: 64, not the node's 448, as two DGX-1 V100s share one NVLink)."""
    s = catalog.system("azure-nd-mi300x-v5")
    assert (s["gpu"], s["intra_link"], s["topology"]) == ("mi300x-192gb", "xgmi-mi300x", "mesh")
    assert s["intra_bw_gbs"] == 7 * 64
    assert s["intra_bw_gbs_by_gpus"] == {str(g): (g - 1) * 64 for g in range(2, 8)}


# A system's name states 'N × FAMILY[ M GB]' (FAMILY: one or more capitals and digits, as 'H100', 'MI300X')
NAME_FORM = "'… (N × FAMILY[ M GB], …)', e.g. 'NVIDIA DGX H100 (8 × H100 SXM5 80 GB)'"


def stated(name: str) -> tuple[int, str, int | None] | None:
    """(GPUs, family, GB or None) a system's name states, or None where it states none in NAME_FORM."""
    said = re.search(r"(\d+) × ([A-Z]+\d+[A-Z]*)[^,)]*?(?: (\d+) GB)?(?:[,)]|$)", name)
    return (int(said[1]), said[2].lower(), int(said[3]) if said[3] else None) if said else None


def test_a_system_name_may_state_a_gpu_family_of_several_letters():
    """'8 × MI300X 192 GB' stated nothing to the reader above (one capital, then digits: 'H100', never 'MI300X'), so
    any AMD node failed with a bare 'assert None' (review HM, adding an MI300X node as a newcomer would)."""
    assert stated("AMD MI300X node (8 × MI300X 192 GB, 8 × 400 Gb/s RoCE)") == (8, "mi300x", 192)
    assert stated("NVIDIA DGX H100 (8 × H100 SXM5 80 GB)") == (8, "h100", 80)
    assert stated("AWS p4d.24xlarge (8 × A100 40 GB)") == (8, "a100", 40)
    assert stated("PCIe Gen3 server, 4 × V100 16 GB, one 25 GbE NIC") == (4, "v100", 16)
    assert stated("AWS p6-b200.48xlarge (8 × B200)") == (8, "b200", None)
    assert stated("an MI300X node") is None


@pytest.mark.parametrize("key", sorted(catalog.table("systems")))
def test_a_system_s_name_states_its_gpu_count_and_memory(key):
    """A system's name says 'N × <GPU> [M GB]': N is gpus_per_node, the GPU's family is its catalog GPU's, and M,
    where given, that GPU's memory — a system pointed at the other memory size (dgx-a100 is the 80 GB one) fails."""
    s = catalog.system(key)
    g = catalog.gpu(s["gpu"])
    said = stated(s["name"])
    assert said, f"systems.json {key!r}: name {s['name']!r} does not state its GPUs as {NAME_FORM}"
    assert said[:2] == (s["gpus_per_node"], s["gpu"].split("-")[0]), (
        f"systems.json {key!r}: its name says {said[0]} × {said[1]}; gpus_per_node and gpu say "
        f"{s['gpus_per_node']} × {s['gpu']}"
    )
    assert said[2] is None or said[2] == g["memory_gb"], (
        f"systems.json {key!r}: its name says {said[2]} GB; its gpu {s['gpu']!r} has {g['memory_gb']} GB"
    )


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        # the nearest spelling was another GPU's system (an H200's memory and links, or an H200 for a B200)
        ("hgx-h100", "'aws-p5' or 'azure-nd-h100-v5' or 'dgx-h100' or 'gcp-a3-high' or 'gcp-a3-mega'"),
        ("hgx-b200", "'aws-p6-b200' or 'dgx-b200'"),
        ("h100-cluster", "'aws-p5' or 'azure-nd-h100-v5' or 'dgx-h100' or 'gcp-a3-high' or 'gcp-a3-mega'"),  # was none
        ("hgx-a100", "'dgx-a100'"),  # a near spelling of the same GPU's system stays the one offered
        ("dgx1", "'dgx1-p100' or 'dgx1-v100'"),  # no GPU named: as before
        ("mi300x-node", "'azure-nd-mi300x-v5'"),  # the catalog's MI300X node (it had none: no suggestion)
        ("hgx-gb200", "'gb200-nvl72'"),
    ],
)
def test_a_system_named_by_its_gpu_is_offered_that_gpus_systems(typed, said):
    """`--system hgx-h100` answered 'did you mean hgx-h200?' — a different GPU, memory and links (review EZ)."""
    with pytest.raises(DpscaleError, match=rf"got '{typed}' \(did you mean {re.escape(said)}\?\); allowed: "):
        catalog.system(typed)
