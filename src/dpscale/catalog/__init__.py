"""Hardware catalogs as data files (JSON), each figure with its source.

`gpu("a100-80gb")`, `system("dgx-a100")`, `model("llama-7b")` return plain dicts, the caller's own to change;
unknown names raise DpscaleError listing the valid ones. `table("links")["ib-hdr"]` reads a link's entry (the step
model's inputs read the links table by a system's link names): the tables, read once and shared by every call in
the process, are read-only at any depth. Users add systems with `load_system_file`.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from dpscale.errors import DpscaleError
from dpscale.files import json_quoted, loads_once, not_json, read_text, shown
from dpscale.formulas.compute import shape_params
from dpscale.outputs import MODEL_CONFIG_KEYS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

HERE = Path(__file__).parent
KINDS = {"gpus": "gpus.json", "links": "links.json", "systems": "systems.json", "models": "models.json"}


class ReadOnly(dict):  # type: ignore[type-arg]
    """A cached table's dict, refusing every change: what one call is handed, every later call reads (a notebook
    that set an A100's amp peak in catalog.gpu's answer moved every prediction after it: review IX). Still a dict to
    read, print as JSON and compare; a copy (copy.deepcopy, {**entry}) is a plain dict again."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("the catalog's tables are read-only (shared by every call); change a copy: copy.deepcopy(…)")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> Any:  # (copy.deepcopy and pickle: a plain dict, its values copied as they are read)
        return dict, (dict(self),)


def _frozen(value: Any) -> Any:
    """JSON's dicts and lists, read-only at any depth."""
    if isinstance(value, dict):
        return ReadOnly((k, _frozen(v)) for k, v in value.items())
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def _thawed(value: Any) -> Any:
    """A table's entry as plain dicts, the caller's own (a deep copy)."""
    return {k: _thawed(v) for k, v in value.items()} if isinstance(value, dict) else value


@cache
def table(kind: str) -> dict[str, dict[str, Any]]:
    """All entries of one catalog, keyed by name: read-only (ReadOnly), as every call shares them."""
    data = json.loads((HERE / KINDS[kind]).read_text(encoding="utf-8"))
    return _frozen(data[kind])  # type: ignore[no-any-return]


@cache
def aliases(kind: str) -> dict[str, str]:
    """Other names of a catalog's entries, squashed ('llama213b' → 'llama-13b'): the names users type for a preset
    that its key does not spell ('Llama-2-13B'); a catalog without an 'aliases' table has none. Read-only."""
    data = json.loads((HERE / KINDS[kind]).read_text(encoding="utf-8"))
    return ReadOnly((_squash(k), v) for k, v in data.get("aliases", {}).items())


def _squash(text: str) -> str:
    """A name with its separators dropped: 'DGX_A100', 'dgx-a100' and 'DGX A100' are one name."""
    return re.sub(r"[-_ ]", "", text)


def key_of(kind: str, name: str, gpu: str | None = None) -> str | None:
    """The catalog key a loosely written name means — case, '_', ' ' and '-' do not matter ('DGX_A100',
    'ResNet-50'), nor a cloud instance's size suffix or provider ('aws-p4d.24xlarge', 'p4d.24xlarge', 'a3-mega',
    'ND H100 v5'), an alias the catalog lists ('llama-2-13b' → 'llama-13b'), a model's Hugging Face hub id read
    without its organisation ('meta-llama/Llama-2-7b-hf') — or None. A name that is the leading part of exactly
    one key means it ('H100' → 'h100-80gb', 'DGX-2' → 'dgx2-v100'); of several ('V100', 'DGX-1'), none — unless
    `gpu` names the GPU of one system among them ('DGX-1' with 'V100' → 'dgx1-v100')."""
    entries = table(kind)
    return _key_among(kind, entries, aliases(kind), name, gpu, lambda k: entries[k]["gpu"])


def _key_among(
    kind: str, entries: dict[str, Any], alias: dict[str, str], name: str, gpu: str | None, gpu_of: Any
) -> str | None:
    """`key_of`'s reading of a name among `entries` (the catalog's, or a system file's: review IC found the catalog's
    own systems.json, passed as --system-file, refusing 'p4d.24xlarge' and 'DGX-2', which --system takes); `alias`:
    squashed other names → keys; `gpu_of(key)`: an entry's GPU name, for `gpu` to settle a shared name. A file's
    keys may be in any case; two that spell alike ('mine', 'MINE') are not guessed between."""
    key = str(name).strip().lower()
    lowered: dict[str, str | None] = {}
    bare: dict[str, str | None] = {}
    for k in entries:
        lowered[k.lower()] = None if k.lower() in lowered else k
        bare[_squash(k.lower())] = None if _squash(k.lower()) in bare else k
    for text in (key, key.split(".")[0]) if kind == "systems" else (key,):  # p4d.24xlarge: an instance size
        for cloud in ("", "aws-", "gcp-", "azure-") if kind == "systems" else ("",):
            if cloud + text in lowered:
                return lowered[cloud + text]
            if _squash(cloud + text) in bare:
                return bare[_squash(cloud + text)]
    if _squash(key) in alias:  # 'Llama-2-13B', 'DGX H200': a name the key does not spell
        return alias[_squash(key)]
    heads = set(_leading(entries, key))
    if len(heads) > 1 and kind == "systems" and gpu and (named := _family(gpu)):
        heads = {k for k in heads if (f := _family(gpu_of(k))) and f[0] == named[0]} or heads
    if not heads and kind == "models" and "/" in key:  # a Hugging Face hub id: 'meta-llama/Llama-2-7b-hf'
        return _key_among(kind, entries, alias, key.split("/", 1)[1], gpu, gpu_of)
    return heads.pop() if len(heads) == 1 else None


def sharing(kind: str, name: str) -> list[str]:
    """The keys a name is the leading part of ('DGX-1' → dgx1-p100, dgx1-v100; 'V100' → both sizes)."""
    return _leading(table(kind), name)


def _leading(entries: dict[str, Any], name: str) -> list[str]:
    """`sharing` among any entries (a system file's keys in any case too)."""
    typed = _squash(str(name).strip().lower())
    cut = lambda k, i: _squash(k.lower().rsplit("-", i)[0])  # noqa: E731  ('dgx2-v100' less 1 part: 'dgx2')
    return sorted(k for k in entries for i in range(1, k.count("-") + 1) if cut(k, i) == typed)


def _get(kind: str, name: str, flag: str, gpu: str | None = None, hint: str = "") -> dict[str, Any]:
    """An entry by name (as `key_of` reads it); a miss names the closest entry (or says `hint`), then every valid
    one."""
    entries = table(kind)
    key = key_of(kind, name, gpu) or str(name).strip().lower()
    if key not in entries:
        typed = str(name).strip().lower()
        # a hub id's model name, not its organisation ('meta-llama/Llama-2-7b-foo': llama-7b); where that names
        # nothing, the whole name (the papers' 'ViT-B/32', whose '32' alone named nothing: vit-b16)
        close = _nearest(kind, typed.split("/", 1)[-1]) if kind == "models" and "/" in typed else []
        close = close or _nearest(kind, typed)
        hint = hint or (f" (did you mean {' or '.join(map(repr, close))}?)" if close else "")
        raise DpscaleError(f"{flag}: got {name!r}{hint}; allowed: {', '.join(sorted(entries))}")
    return {"key": key, **_thawed(entries[key])}


def _nearest(kind: str, typed: str) -> list[str]:
    """The entries a name that is none of them may have meant, for the hint of `_get`'s refusal."""
    from difflib import get_close_matches  # only on the error path

    entries = table(kind)
    # 'v100': both memory sizes; a word is completed ('resnet': all three, 'gpt2-l': gpt2-large, 'tpu-v5': v5e and
    # v5p, 'mi300': mi300x), a model number is not lengthened ('a10' is no A100, 'l4' no L40S, 'eth-2' no 25G),
    # and then no nearest spelling is guessed either (it named one of several, or the A100 again)
    starts = [k for k in sorted(entries) if typed and k.startswith(typed)]
    close = [k for k in starts if not (typed[-1].isdigit() and k[len(typed) : len(typed) + 1].isdigit())]
    number = re.match(r"[a-z]*\d+", typed)  # nor by a nearest spelling ('a10g', AWS's A10G, is no A100 either)
    # a name leading several keys ('DGX-1': dgx1-p100, dgx1-v100) names them, not its nearest spelling (dgx-h100)
    shared = sharing(kind, typed)
    # a name leading aliases names their presets ('llama2': all three Llama 2 sizes, 'vit-base': vit-b16), where
    # the nearest spelling named one ('llama-7b') or another model ('bert-base')
    via = sorted({v for a, v in aliases(kind).items() if _squash(typed) and a.startswith(_squash(typed))})
    near = [] if starts or shared or via else get_close_matches(typed, list(entries), n=1, cutoff=0.6)
    near = [k for k in near if not (number and re.match(re.escape(number[0]) + r"\d", k))]
    found = close or shared or via or near
    named = _family(typed) if kind == "systems" else None
    if named and named[0] in families():  # a system named by its GPU ('hgx-h100') is offered that GPU's systems:
        # the nearest spelling was another GPU's ('hgx-h200': an H200's memory and links), or none ('h100-cluster')
        same = [k for k in sorted(entries) if (f := _family(entries[k]["gpu"])) and f[0] == named[0]]
        found = [k for k in found if k in same] or same
    return found


def gpu(name: str, flag: str = "--gpu") -> dict[str, Any]:
    """A GPU by catalog key, or as nvidia-smi and vendors name it ('NVIDIA H100 80GB HBM3', 'A100-SXM4-40GB') where
    that names one entry: its family has one memory size, or the name states one the family is made in. A name
    that leaves the size open, or names a form the entry is not ('H100 PCIe': 756 against the SXM's 989 TFLOP/s),
    is refused with the family's entries."""
    key, hint = _family_pick(name)
    return {"key": key, **_thawed(table("gpus")[key])} if key else _get("gpus", name, flag, hint=hint)


def _family_pick(name: str) -> tuple[str | None, str]:
    """The entry a vendor's name picks in its family, else None and why not (the error's hint); (None, '') where
    the name is no family's and the plain lookup decides."""
    named = _family(str(name)) if key_of("gpus", name) is None else None
    keys = families().get(named[0], ()) if named else []
    if not (named and keys):
        return None, ""
    one = sized(keys, named[1]) or ([] if _sizes(named[1]) else keys)
    form = re.search(r"\b(pcie|nvl)\b", str(name), re.I)
    entry = table("gpus")[one[0]] if len(one) == 1 else None
    if entry and not (form and form[1].lower() not in entry["name"].lower()):
        return one[0], ""
    shown = {"pcie": "PCIe", "nvl": "NVL"}[form[1].lower()] if form else ""
    hint = (f" (the catalog's {one[0]!r} is the {entry['name']}, not the {shown} part: peak and memory bandwidth "
            f"differ)" if entry and form else f" (did you mean {' or '.join(map(repr, one or keys))}?)")  # fmt: skip
    return None, hint


def _gpu_key(name: Any, where: str) -> str:
    """The catalog key of a GPU a system file names, by `gpu`'s rule; refused as the file's, not a flag's, with
    the same hint ('H100 PCIe' is not the catalog's SXM part)."""
    hint = ""
    if isinstance(name, str):
        try:
            return gpu(name)["key"]
        except DpscaleError:
            hint = _family_pick(name)[1]
    raise DpscaleError(f"{where} {name!r}{hint}; allowed: {', '.join(sorted(table('gpus')))}")


def system(name: str, flag: str = "--system", gpu: str | None = None) -> dict[str, Any]:
    """A system by name; `gpu` settles a name several systems share ('DGX-1' with 'v100-16gb')."""
    return _get("systems", name, flag, gpu)


def model(name: str, flag: str = "--model") -> dict[str, Any]:
    return _get("models", name, flag)


SYSTEM_KEYS = ("gpus_per_node", "intra_bw_gbs", "inter_bw_gbs")


def load_system_file(
    path: str, name: str | None = None, flag: str = "--system-file", gpu: str | None = None
) -> dict[str, Any]:
    """A user's system, in the format of systems.json ({"systems": {name: {...}}}, or one bare entry); `name` read as
    `system` reads the catalog's, `gpu` settling a name several of the file's systems share ('DGX-1' with 'V100')."""
    data, said = _read_json(path, flag, "systems.json")
    entries = _file_entries(data, said, flag, "systems", "system")
    if name is None and len(entries) > 1:  # which one? the first in the file is a guess
        raise DpscaleError(f"--system: missing; allowed (from {said}): {', '.join(sorted(entries))}")
    key = name or next(iter(entries))
    if key not in entries:  # read as --system reads the catalog's names ('DGX A100' was refused from systems.json)
        key = _file_key(data, entries, key, gpu) or key
    if key not in entries:
        raise DpscaleError(f"--system: got {key!r}; allowed (from {said}): {', '.join(sorted(entries))}")
    entry = entries[key]
    if not isinstance(entry, dict):
        raise DpscaleError(f"{flag}: {said}: system {key!r}: got {entry!r}; allowed: an object as in systems.json")
    if "gpu" in entry:  # read as --gpu is: 'H100 PCIe' is not the catalog's SXM part, 'A100' leaves 40 or 80 GB open
        entry = {**entry, "gpu": _gpu_key(entry["gpu"], f"{flag}: {said}: system {key!r}: gpu")}
    _misspelt_key(entry, key, said, flag)  # first: 'inter_bw_gbps' was said as inter_bw_gbs missing
    need = [k for k in SYSTEM_KEYS if not (k == "intra_bw_gbs" and entry.get("gpus_per_node") == 1 and k not in entry)]
    # (the ignore: entry.get(k) is a number there, just checked; mypy still sees get's None)
    missing = [k for k in need if isinstance(entry.get(k), bool) or not isinstance(entry.get(k), (int, float))
               or not 0 < entry.get(k) < 1e300]  # type: ignore[operator]  # fmt: skip
    if missing:  # (the bandwidths' own bounds are checked with the flags they stand for)
        # the values given, as the file wrote them (-300 was said as the key alone, read as the key missing)
        given = [f"{json.dumps(k)}: {json_quoted(entry[k])}" for k in missing if k in entry]
        got = f" (got {{{', '.join(given)}}})" if given else ""
        raise DpscaleError(
            f"{flag}: {said}: system {key!r} needs numbers > 0 (and below 1e300) for {', '.join(missing)}{got}"
        )
    g = entry["gpus_per_node"]
    if g != int(g):  # 8.5 was blamed on the --gpus-per-node flag, which was never typed
        raise DpscaleError(f"{flag}: {said}: system {key!r}: gpus_per_node {g!r}; allowed: a whole number ≥ 1")
    nics = entry.get("nics")  # read for a run on part of each node (the NICs its GPUs reach); 8.0 is 8
    if nics is not None and (isinstance(nics, bool) or not isinstance(nics, (int, float)) or not 1 <= nics <= 1e6
                             or nics != int(nics)):  # fmt: skip
        raise DpscaleError(f"{flag}: {said}: system {key!r}: nics {nics!r}; allowed: the node's compute NICs, a whole "
                           "number from 1 to 1,000,000")  # fmt: skip
    whole = {"gpus_per_node": int(g), **({"nics": int(nics)} if nics is not None else {})}
    cores = entry.get("cpu_cores")  # 8.0 is 8 too (it was refused as 'got 8; allowed: a whole number'); the check
    if isinstance(cores, float) and cores.is_integer() and 1 <= cores <= 1e6:  # of any other value is predict's
        whole["cpu_cores"] = int(cores)
    return {"key": key, **entry, **whole}


def _file_key(
    data: dict[str, Any], entries: dict[str, Any], name: str, gpu: str | None, kind: str = "systems"
) -> str | None:
    """The key of a system file's (or `kind` "models": a model file's) entry that a loosely written name means, read
    as `key_of` reads the catalog's (`_key_among`), with the file's own `aliases` table (the catalog file's format,
    beside its 'systems' or 'models'; a bare entry's own field of that name is none). None where no entry, or more
    than one ('mine' and 'MINE' for 'Mine'), is meant; an alias whose entry the file lacks, or spelt as another
    naming another entry, names nothing."""
    table = data.get("aliases") if kind in data else None
    meant: dict[str, set[str]] = {}
    for other, key in table.items() if isinstance(table, dict) else ():
        if isinstance(key, str):  # (a list there was unhashable: a traceback)
            meant.setdefault(_squash(other.strip().lower()), set()).add(key)
    alias = {a: k for a, (k, *more) in meant.items() if not more and k in entries}

    def gpu_of(key: str) -> Any:
        entry = entries[key]
        return entry.get("gpu") if isinstance(entry, dict) and isinstance(entry.get("gpu"), str) else ""

    return _key_among(kind, entries, alias, name, gpu, gpu_of)


def _read_json(path: str, flag: str, like: str) -> tuple[Any, str]:
    """A user's catalog file (`like`: the catalog file whose format it has, as its refusals say) read as JSON, and
    the file as its messages name it ('-': standard input): each way it can fail said in one line naming `flag`."""
    said = shown(path)
    try:
        # a byte-order mark, as Windows editors save, is no error; a field twice is (the last silently won)
        return loads_once(read_text(path), f"{flag}: {said}"), said
    except OSError as exc:
        raise DpscaleError(f"{flag}: got {path!r}; allowed: a readable JSON file ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise DpscaleError(f"{flag}: {said}: not UTF-8 text; allowed: a JSON file as {like}") from None
    except json.JSONDecodeError as exc:
        raise not_json(f"{flag}: {said}", exc, f"a JSON file as {like}") from None
    except DpscaleError:  # a field given twice (loads_once): itself, not the ValueError below
        raise
    except ValueError:  # an integer past Python's 4,300-digit conversion limit (a traceback once)
        raise DpscaleError(f"{flag}: {said}: a number too long to read; allowed: a JSON file as {like}") from None
    except RecursionError:
        raise DpscaleError(f"{flag}: {said}: nested too deeply; allowed: a JSON file as {like}") from None


def _file_entries(data: Any, said: str, flag: str, kind: str, noun: str, bare: str = "custom") -> dict[str, Any]:
    """A user's catalog file's entries: {KIND: {name: {...}}} as the catalog's KIND.json, or one entry's fields alone
    (named `bare`)."""
    # ({} is neither: it once read as a system 'custom' that needed every number)
    entries = data.get(kind, {bare: data}) if isinstance(data, dict) and data else None
    if isinstance(data, dict) and kind not in data and data and all(isinstance(v, dict) for v in data.values()):
        # {"mine": {...}}: named entries without the KIND key (they read as one entry 'custom' with no numbers)
        top = ", ".join(map(repr, data))
        raise DpscaleError(
            f"{flag}: {said}: {top} at the top; allowed: an object {{'{kind}': {{name: {{...}}}}}} as {kind}.json, "
            f"or one {noun}'s fields alone"
        )
    if not isinstance(entries, dict) or not entries:
        raise DpscaleError(f"{flag}: {said}: allowed: an object {{'{kind}': {{name: {{...}}}}}} as {kind}.json")
    return entries


# The fields the predictor reads from a system; other keys (name, topology, source, notes) only describe it
READ_KEYS = (*SYSTEM_KEYS, "gpu", "cpu_cores", "intra_link", "intra_bw_gbs_by_gpus", "inter_link", "nics")
# Other names for them, too far from any for difflib ('num_nics', 'network'): the predictor ignored them and went on
# without the field (2 GPUs of each node charged its 8 NICs' network; an Ethernet network unsaid) — review JK
SYSTEM_OTHER_NAMES = {
    "nics": ("num_nics", "nic_count", "n_nics", "nics_per_node", "num_hcas", "hcas"),
    "inter_link": ("network", "interconnect", "fabric", "inter_node_link", "network_link"),
    "intra_link": ("intra_node_link", "intra_connect"),
    "cpu_cores": ("cores", "num_cores", "n_cores", "cpu_count", "cpus", "num_cpus", "cores_per_node"),
    "gpu": ("gpu_type", "gpu_model", "gpu_name", "accelerator"),
    "gpus_per_node": ("num_gpus", "n_gpus", "gpu_count", "gpus_per_host", "devices_per_node"),
    "inter_bw_gbs": ("network_bw", "network_gbs", "inter_node_bw", "inter_bandwidth", "network_bandwidth"),
    "intra_bw_gbs": ("intra_node_bw", "nvlink_bw", "nvlink_gbs", "intra_bandwidth"),
}


def _loose(key: object) -> str:
    """A key as other tools' names for a field are matched: case, '-' and spaces aside ('Intermediate Size' is
    intermediate_size, 'Num-Experts' num_experts) — SYSTEM_OTHER_NAMES, MODEL_OTHER_NAMES and MOE_NAMES alike."""
    return str(key).strip().lower().replace("-", "_").replace(" ", "_")


def _misspelt_key(
    entry: dict[str, Any],
    key: str,
    path: str,
    flag: str,
    kind: str = "systems",
    read: tuple[str, ...] = READ_KEYS,
    named: tuple[str, ...] = ("gpu", "intra_link", "inter_link"),
    others: dict[str, tuple[str, ...]] = SYSTEM_OTHER_NAMES,
) -> None:
    """A key one letter from a field the calculator reads (`read`: a system's 'cpu_core', a model's 'hiden') would be
    ignored without a word, and the answer made without it: refuse it instead; so is another tool's name for one
    (`others`: a model's 'intermediate_size' or 'sliding_window', a system's 'num_nics') where the entry lacks the
    field (beside it, or null, it only describes). Keys far from all of them describe the entry and pass, and so does
    a near one whose value is of another kind ("gpus": 8 is no misspelt "gpu", a name; `named`: the read keys whose
    values are names, the others numbers or true/false)."""
    import difflib

    # the catalog's own (inter_link is one from intra) and every read one (active_params, read before a preset had one)
    known = {k for e in table(kind).values() for k in e} | set(read)
    alias = {other: field for field, names in others.items() for other in names}
    for k, v in entry.items():
        near = difflib.get_close_matches(str(k), read, n=1, cutoff=0.8) if k not in known else []
        meant = alias.get(_loose(k))
        if not near and k not in known and meant and meant not in entry and v is not None:
            near = [meant]
        if near and isinstance(v, str) == (near[0] in named):
            raise DpscaleError(f"{flag}: {path}: {kind[:-1]} {key!r}: key {k!r} (did you mean {near[0]!r}?); allowed: "
                               f"{', '.join(read)} and keys that describe it")  # fmt: skip


# a GPU's family in a loosely written name: 'a100', 'l40s', 'mi300x', 'tpuv4' — a letter run is read once
# (from each of its letters, 'a' × 100,000 took minutes)
# (?=(?P<w>…))(?P=w): the letters taken once, as the possessive [a-z]++ (Python 3.11+; requires-python is 3.10)
FAMILY = r"(?<![a-z])(?=(?P<w>[a-z]+))(?P=w)\d+[a-z]*"
VENDOR = r"\b(nvidia|tesla|geforce|amd|instinct|google|cloud)\b"  # words around a family, not part of it
NAME_MAX = 1000  # characters of a GPU name or hardware description read (a table's cell, not a book)
GENERIC = r"(\d+\s*[x×]?\s*)?(gpus?|devices?|accelerators?)?"  # '8 GPUs', '': no GPU named


def _bare(name: str) -> str:
    """A GPU name as families are read from it: lower case, without vendor words or counts ('8x NVIDIA A100' →
    'a100'), a TPU's generation joined to its name ('TPU v4' → 'tpuv4', so a CPU's 'v4' is no TPU)."""
    text = re.sub(r"\btpu[-_ ]?v", "tpuv", re.sub(VENDOR, "", str(name)[:NAME_MAX].lower()))
    return re.sub(r"\b\d+\s*[x×]\s*(?=[a-z])", "", text)


def _family(name: str) -> tuple[str, str] | None:
    """(family, the text after it) of a GPU named loosely: '8x NVIDIA A100 80GB' → ('a100', ' 80gb')."""
    bare = _bare(name)
    found = re.search(FAMILY, bare)
    return (found[0], bare[found.end() :]) if found else None


@cache
def families() -> dict[str, tuple[str, ...]]:
    """Each GPU family in the catalog and its entries: {'a100': ('a100-40gb', 'a100-80gb'), …}. Read-only."""
    out: dict[str, list[str]] = {}
    for key in table("gpus"):
        out.setdefault(_family(key)[0], []).append(key)  # type: ignore[index]  # every key names its family
    return _frozen(out)  # type: ignore[no-any-return]


def _sizes(text: str) -> set[int]:
    """The memory sizes a text states, in GB: '-sxm4-80gb', '_32GB_SXM2', '16GBHBM2', ' 40 GiB', '(40G)' — not a
    network's or a clock's ('40 Gb/s', '100 Gbps', '25GbE', '2.1 GHz'); '8 GPUs' reads 8, which no GPU is made in."""
    return {int(x) for x in re.findall(r"(\d+)\s*g(?:ib|b|(?!i?b))(?!\s*/\s*s|ps|e\b|hz|it)", text[:NAME_MAX], re.I)}


def sized(keys: Sequence[str], text: str) -> list[str]:
    """The entries among `keys` (one family's) whose memory size the text states: every GPU-size reader's rule."""
    stated = _sizes(text)
    return [k for k in keys if round(table("gpus")[k]["memory_gb"]) in stated]


def gpu_in(text: str) -> str | None:
    """The first catalog GPU family a free description names: 'AWS p4d.24xlarge (8x A100 40GB)' → 'a100', past
    the instance's 'p4d'; '2x Xeon E5-2698 v4, 8x Tesla V100 16GB' → 'v100'; None when it names none."""
    return next((m for m in (f[0] for f in re.finditer(FAMILY, _bare(text))) if m in families()), None)


def find_gpu(system: str | None = None, gpu: str | None = None, text: str = "") -> dict[str, Any] | None:
    """The catalog entry for a GPU named loosely ('A100', 'A100-SXM4-80GB', '8x NVIDIA V100 16GB', 'AMD Instinct
    MI300X'), else a system's GPU; None for a GPU the catalog lacks ('T4', 'A10', 'GH200', 'RTX 4090').

    A GPU name that states its memory picks that variant (an 80 GB A100 has 2.04 TB/s, a 40 GB one 1.56). The
    name's family must be a catalog family whole ('A10' is not the A100, 'L4' not the L40S), and it wins over
    the system's GPU (an H200 table filed under the nearest catalog system, DGX H100, is an H200's); only text
    that names no GPU at all ('', '8 GPUs', a system's name) means the system's GPU. A name that states no size
    takes the one size `text` (a table's hardware description: '8x A100 40GB') states that the GPU is made in."""
    entry = _found_gpu(system, gpu, text)
    return None if entry is None else _thawed(entry)  # (a copy, the caller's own: as gpu()'s)


def _found_gpu(system: str | None, gpu: str | None, text: str) -> dict[str, Any] | None:
    """`find_gpu`'s lookup: the table's own (read-only) entry."""
    systems, gpus = table("systems"), table("gpus")
    key = (gpu or "").strip().lower()
    if key in gpus:
        return gpus[key]
    home = key_of("systems", system, gpu) if system else None
    own = gpus[systems[home]["gpu"]] if home else None
    named = _family(key)
    if named is None:  # 'RTX 4090', 'TITAN V': a GPU, not one of ours; '8 GPUs', 'DGX-1': none named
        return own if re.fullmatch(GENERIC, key) or key_of("systems", key) else None
    keys = families().get(named[0], ())
    one = sized(keys, named[1]) or sized(keys, text)  # '-sxm4-80gb' → 80; else the description's one size
    if len(one) == 1:
        return gpus[one[0]]
    if own is not None and any(gpus[k] is own for k in keys):  # 'A100' on a DGX A100: its 40 GB or 80 GB
        return own
    return gpus[keys[0]] if keys else None


# A model file (--model-file): models.json's format, or a Hugging Face config.json. Its entry is checked here, field
# by field, as every preset passes (tests/test_model_file.py holds the catalog's own to it), then read as a preset is.
MODEL_KINDS = ("transformer", "cnn")
NEEDED = {"transformer": ("params", "layers", "hidden", "heads", "seq_len"), "cnn": ("params", "fwd_gmacs")}
WHOLE_KEYS = ("layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "seq_len", "window", "image_size")
TRUE_FALSE_KEYS = ("attention_dropout", "tied_embeddings")
# The attention's shape where it is not the hidden size's (review KK wrote them for a Hugging Face config; review KO
# checks them in a file of models.json's format, where a -4,096 gave negative FLOPs): the queries' width, heads ×
# head_dim (Gemma 7B's 4,096 on 3,072), and how many of the layers slide the window (Gemma 2 9B's 21 of 42)
SHAPE_KEYS = ("attention_width", "window_layers")
MODEL_KEYS = ("kind", "params", *WHOLE_KEYS[:-1], *TRUE_FALSE_KEYS, "fwd_gmacs", "image_size", "active_params",
              *SHAPE_KEYS)  # fmt: skip
MAX_FWD_GMACS = 1e15  # a CNN's forward GMACs an image past it is a typo (1e24 MACs; vgg16's are 15.47)
MOST_WHOLE = 10_000_000  # a layer count, width or vocabulary past it is a typo (as a device count or a sequence's)
WHOLE_ALLOWED = f"a whole number from 1 to {MOST_WHOLE:,}"


def whole_in(value: Any, low: int = 1, high: int = MOST_WHOLE) -> bool:
    """Whether a file's value is a whole number from low to high (8.0 too; true, NaN and Infinity not): the one rule
    a model entry's counts and a config.json's shape fields are read by (checked_model, catalog.hf). The range is
    compared first: NaN and Infinity fail it, and so does an integer of 400 digits, which math.isfinite and float()
    raise OverflowError on ('a number too large to compute with', not naming the field)."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return number and low <= value <= high and value == int(value)


# A Mixtral config's expert counts (catalog.hf reads them; an entry of models.json's format with them needs
# active_params: MOE_NAMES)
HF_EXPERTS = ("num_local_experts", "num_experts_per_tok")
# Other names for models.json's fields (the Hugging Face config's, Megatron's, GPT-2's, Meta's params.json's) in an
# entry of its format: ignored, the field defaulted (Mistral 7B's 'sliding_window' attended over all 8,192 tokens,
# 13 % more compute a step) — review JK
MODEL_OTHER_NAMES = {
    "ffn": ("intermediate_size", "ffn_dim", "ffn_hidden_size", "ffn_size", "d_ff", "dim_feedforward", "mlp_dim",
            "n_inner"),
    "window": ("sliding_window", "sliding_window_size", "window_size", "attention_window"),
    "kv_heads": ("num_key_value_heads", "num_kv_heads", "n_kv_heads", "num_query_groups", "multi_query_group_num"),
    "vocab": ("vocab_size", "n_vocab", "padded_vocab_size"),
    "seq_len": ("max_position_embeddings", "seq_length", "max_seq_len", "max_seq_length", "max_sequence_length",
                "sequence_length", "context_length", "n_positions", "n_ctx", "block_size"),
    "layers": ("num_hidden_layers", "num_layers", "n_layers", "n_layer"),
    "hidden": ("hidden_size", "d_model", "n_embd", "model_dim", "embed_dim"),
    "heads": ("num_attention_heads", "num_heads", "n_heads", "n_head"),
    "tied_embeddings": ("tie_word_embeddings", "tie_embeddings"),
    "attention_dropout": ("attn_pdrop", "attention_probs_dropout_prob", "attn_dropout"),
    "params": ("num_params", "n_params", "num_parameters", "n_parameters", "param_count", "parameters"),
    "active_params": ("num_active_params", "activated_params", "active_parameters", "n_active_params"),
    "fwd_gmacs": ("gmacs", "fwd_macs", "macs"),
    "image_size": ("img_size", "resolution", "input_size"),
}  # fmt: skip
# The fields a kind's prediction never reads (a CNN's FLOPs are its fwd_gmacs, a transformer's its shape): another
# tool's name for one of them, or a key one letter from it, only describes the entry (a Swin-T written as a CNN with
# timm's 'window_size' 7 and 'embed_dim' 96 was refused as a typo of 'window' and 'hidden': review JP)
# A mixture of experts' counts in other tools' names (Hugging Face's Mixtral, Qwen-MoE, OLMoE, DeepSeek's, DBRX's,
# Megatron's): an entry of models.json's format that has them and no active_params was counted whole, 6·N on every
# expert (Mixtral 8x7B: 1,171 TFLOP a 4,096-token sequence, not 339.7) — review KA
MOE_NAMES = (*HF_EXPERTS, "num_experts", "n_routed_experts", "moe_num_experts", "moe_top_k", "moe_router_topk",
             "num_experts_per_token", "experts_per_token")  # fmt: skip
# What catalog.hf gives an entry from a config.json (its type, the context RoPE scaling extends to, the gated MLP its
# activation makes): read by predict's and memory's notes, never from a file of models.json's format, where such a key
# describes the entry as any other far from the fields ("mlp": 42 said 'a 42 MLP', "hf_model_type" that a count the
# file gives was derived from its shape: review LD)
HF_DERIVED = ("hf_model_type", "hf_context", "mlp")
UNREAD_BY_KIND = {"cnn": ("window", "ffn", "kv_heads", "hidden", "heads", "tied_embeddings", "attention_dropout",
                          "active_params", *SHAPE_KEYS),
                  "transformer": ("fwd_gmacs",)}  # fmt: skip


def load_model_file(path: str, name: str | None = None, flag: str = "--model-file") -> dict[str, Any]:
    """A user's model: models.json's format ({"models": {name: {...}}}, or one bare entry, named by the file) or a
    Hugging Face config.json of a type catalog.hf reads (its count derived from its shape: hf_entry);
    `name` picks one of the file's models as `model` reads the catalog's. Its fields are checked as a preset's; the
    entry is then read as a preset is."""
    from dpscale.files import shown_name

    data, said = _read_json(path, flag, "models.json")
    hf = isinstance(data, dict) and any(k in data for k in MODEL_CONFIG_KEYS)  # a config.json
    if hf:
        entries = {shown_name(path): data}
    else:
        entries = _file_entries(data, said, flag, "models", "model", bare=shown_name(path))
    if name is None and len(entries) > 1:  # which one? the first in the file is a guess
        raise DpscaleError(f"--model: missing; allowed (from {said}): {', '.join(sorted(entries))}")
    key = name or next(iter(entries))
    if key not in entries:  # read as --model reads the catalog's names ('Llama-2-7B', a hub id, the file's aliases:
        # the catalog's own models.json refused its 'Llama-2-7b-hf', which --model takes: review JH)
        key = (_file_key(data, entries, key, None, "models") if isinstance(data, dict) else None) or key
    if key not in entries:
        raise DpscaleError(f"--model: got {key!r}; allowed (from {said}): {', '.join(sorted(entries))}")
    entry, where = entries[key], f"{flag}: {said}: model {key!r}"
    if not isinstance(entry, dict):
        raise DpscaleError(f"{where}: got {json_quoted(entry)}; allowed: an object as in models.json")
    if hf:
        from dpscale.catalog.hf import hf_entry

        return {"key": key, **hf_entry(entry, f"{flag}: {said}")}
    unread = UNREAD_BY_KIND.get(str(entry.get("kind")), ())  # (another kind is refused by checked_model below)
    read, others = tuple(k for k in MODEL_KEYS if k not in unread), {
        k: v for k, v in MODEL_OTHER_NAMES.items() if k not in unread}  # fmt: skip
    _misspelt_key(entry, key, said, flag, "models", read, ("kind",), others)
    if entry.get("kind") == "transformer" and "active_params" not in entry:
        for k, v in entry.items():
            if _loose(k) in MOE_NAMES and v is not None:
                raise DpscaleError(f"{flag}: {said}: model {key!r}: key {k!r} (a mixture of experts' count: its FLOPs "
                                   "need active_params, the parameters one token passes through); allowed: "
                                   "active_params beside it, or no expert count (a dense model)")  # fmt: skip
    out = checked_model(entry, where)
    if out["kind"] == "transformer":  # a count in millions (6738 for Llama 2 7B) was predicted as 6,738 parameters
        own = shape_params(out["layers"], out["hidden"], out.get("vocab", 0))  # (every preset: < 1.2×)
        if not 1 / SHAPE_APART < out["params"] / own < SHAPE_APART:
            raise DpscaleError(f"{where}: params {out['params']:g}; allowed: a parameter count within "
                               f"{SHAPE_APART:g}× of the {own:.3g} its shape gives (12·layers·hidden² + "
                               "vocab·hidden; 7e9 for 7 billion)")  # fmt: skip
    return {"key": key, **{k: v for k, v in out.items() if k not in HF_DERIVED}}


# How far a model file's count may be from the one its shape gives (12·L·h² + V·h): a mixture of experts' total is
# within it (Mixtral 8x7B's 46.7 B on a 7 B layer shape: 7×), a count in millions or thousands is not
SHAPE_APART = 100.0


def checked_model(entry: dict[str, Any], where: str, names: dict[str, str] | None = None) -> dict[str, Any]:
    """A model entry whose fields the calculators read are what they can read (a copy; 8.0 read as 8), else one
    line naming `where`, the field (`names`: as the file spells it) and what is allowed."""
    from dpscale.errors import MAX_PARAMS, MIN_PARAMS, PARAMS_ALLOWED

    said = lambda k: (names or {}).get(k, k)  # noqa: E731
    # (JSON's Infinity and NaN are numbers Python reads: each range below refuses them, compared before anything
    # converts; math.isfinite raised OverflowError on an integer of 400 digits, said without naming the field)
    number = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)  # noqa: E731
    kind = entry.get("kind")
    if kind not in MODEL_KINDS:
        got = json_quoted(kind) if "kind" in entry else "missing"
        raise DpscaleError(f"{where}: kind {got}; allowed: {' or '.join(MODEL_KINDS)}")
    out = dict(entry)
    tied = entry.get("tied_embeddings", True)
    need = (*NEEDED[kind], *(("vocab",) if kind == "transformer" and tied is False else ()))
    active = ("active_params",) if kind == "transformer" else ()  # (a CNN's is unread: UNREAD_BY_KIND)
    optional = (*WHOLE_KEYS, *TRUE_FALSE_KEYS, "fwd_gmacs", *active)
    for k in (*need, *(k for k in optional if k in entry and k not in need)):
        v: Any = entry.get(k)
        got = json_quoted(v) if k in entry else "missing"
        if k in TRUE_FALSE_KEYS:
            if not isinstance(v, bool):
                raise DpscaleError(f"{where}: {said(k)} {got}; allowed: true or false")
        elif k == "params":
            if not (number(v) and MIN_PARAMS <= v <= MAX_PARAMS):
                raise DpscaleError(f"{where}: {said(k)} {got}; allowed: {PARAMS_ALLOWED}")
        elif k == "active_params":  # a mixture of experts': what a token runs, at most the whole count
            if not (number(v) and MIN_PARAMS <= v <= entry["params"]):
                raise DpscaleError(f"{where}: {said(k)} {got}; allowed: the parameters one token passes through "
                                   f"(a mixture of experts'), from 1,000 to its {said('params')} "
                                   f"({entry['params']:g})")  # fmt: skip
        elif k == "fwd_gmacs":  # (below 1e300, 9.9e299 GMACs made 6e309 FLOPs: 'a micro-batch comes to inf s')
            if not (number(v) and 0 < v <= MAX_FWD_GMACS):
                raise DpscaleError(f"{where}: {said(k)} {got}; allowed: forward GMACs an image, a number > 0, at most "
                                   f"{MAX_FWD_GMACS:g}")  # fmt: skip
        elif not whole_in(v):
            raise DpscaleError(f"{where}: {said(k)} {got}; allowed: {WHOLE_ALLOWED}")
        else:
            out[k] = int(v)
    if kind == "transformer":  # (a CNN's are unread: UNREAD_BY_KIND)
        for k, low, high, allowed in (("attention_width", 1, MOST_WHOLE, WHOLE_ALLOWED),
                                      ("window_layers", 0, out["layers"], f"a whole number from 0 to "
                                       f"{said('layers')} ({out['layers']})")):  # fmt: skip
            if k in entry:
                v = entry[k]
                if not whole_in(v, low, high):
                    raise DpscaleError(f"{where}: {said(k)} {json_quoted(v)}; allowed: {allowed}")
                out[k] = int(v)
    kv, heads = out.get("kv_heads"), out.get("heads")
    if kind == "transformer" and kv is not None and heads % kv:  # type: ignore[operator]  # (checked whole above)
        raise DpscaleError(f"{where}: {said('kv_heads')} {kv}; allowed: a divisor of {said('heads')} ({heads})")
    return out
