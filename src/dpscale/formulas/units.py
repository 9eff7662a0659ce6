"""Byte units, decimal where the sources are and binary where the software is; and what a rate unit counts.

GB is 1e9 bytes: link and HBM bandwidths are quoted in GB/s, and the ZeRO paper's 120 GB for 7.5 B parameters is
120e9 bytes. MiB is 2^20: DDP's bucket_cap_mb and NCCL's buffer sizes count in it; HBM comes in GiB.
"""

from dpscale.errors import fail

GB = 1e9
MIB = 1 << 20
GIB = 1 << 30
# torch's dtype names (torch.bfloat16, torch.float16, torch.float32) for the number formats --precision names
DTYPE_NAMES = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}


def without_module(text: str) -> str:
    """Dotted names read by their last part ('torch.bfloat16' → 'bfloat16', 'torch.autocast' → 'autocast'), as a
    script writes a dtype: predict's precision reader and memory's --precision take torch's names alike."""
    import re

    return re.sub(r"\b[a-z_]+(?:\.[a-z_]+)*\.(?=[a-z])", "", text)


# the program's own rate units as its Spanish output writes them ('muestras/s'), or a Spanish user would ('muestras por
# segundo', 'muestra/seg'), by canonical_unit's key: `predict --unit muestras/s` was refused as 'se admite: samples/s o
# tokens/s (… muestras/s × …)'. tokens/s is written alike in both languages, but not 'tokens por segundo' or
# 'tokens/seg', which were refused as "se admite: 'tokens/s'" (review KF); 'token/s' and 'Tokens/s' label as typed.
OWN_UNITS = {f"{noun}{by}{time}": unit for noun, unit in (("muestra", "samples/s"), ("muestras", "samples/s"),
             ("token", "tokens/s"), ("tokens", "tokens/s")) for by in ("/", "por")
             for time in ("s", "seg", "segundo", "segundos") if (unit, by, time) != ("tokens/s", "/", "s")}  # fmt: skip


def unit_key(unit: str) -> str:
    """A unit as SAME_UNITS and OWN_UNITS are keyed: case, spaces and underscores aside ('tokens_per_second', a log's
    field name, is 'tokens per second'), and an abbreviation's closing dot ('muestras/seg.', 'samples/sec.': each a
    unit of its own before, review KN)."""
    return "".join(unit.replace("_", " ").split()).casefold().rstrip(".")


def own_unit(unit: str) -> str:
    """A unit as the output labels rates with it: the program's own unit where it is written in Spanish ('Muestras
    por segundo' → 'samples/s', which each language's output then says its own way: the English output said
    'throughputs in muestras/s'), else as given ('Tokens/s', 'img/s')."""
    return OWN_UNITS.get(unit_key(unit), unit)


def canonical_unit(unit: object) -> object:  # (not typing.Any: calc's start-up skips typing, 2 ms)
    """A stated unit as every comparison of units reads it — a typed --unit, runs in JSON lines, a CSV's unit column,
    an efficiency file's records, the page's unit field (it gets SAME_UNITS from /api/options): case and spaces aside
    ('Tokens / s' is tokens/s, maß/s is MASS/s), and the program's own unit in Spanish or spelled out in English as
    that unit ('Muestras por segundo', 'samples per second' are samples/s). Each reader had its own rule once, and
    'Samples/s' was one unit in a CSV and two in JSON lines; 'muestras/s', the Spanish output's word for samples/s,
    was another unit in all of them."""
    if not isinstance(unit, str):
        return unit
    key = unit_key(unit)
    return SAME_UNITS.get(key, key)


def count_noun(unit: str) -> str | None:
    """What a per-second rate counts, as written: the words before '/s', '/sec', '/second' or 'per second', or
    their Spanish ('/seg', 'por segundo': SECONDS) (any case, spaces around allowed). A plan's --samples counts in
    its rate's unit, so 1.28e6 at 'tokens/s' is 1.28M tokens, not samples: 'tokens/s' → 'tokens', 'img/sec' →
    'img', 'sequences per second' → 'sequences', 'imágenes por segundo' → 'imágenes', 'samples/s' → 'samples'. A
    measure counts as well as a count noun: 'TFLOP/s' → 'TFLOP' (N TFLOP of work at v TFLOP/s takes N/v seconds,
    which is what plan computes). The noun is kept as typed (no plural added, no
    translation: 'token/s' → 'token'), and a face says 'samples' in its own language.

    None where no noun can be read: not a per-second rate ('fps', 'Hz', 'samples/min': plan's hours are per
    second), nothing before the slash ('/s'), or no letter in it ('1/s'); a face falls back to neutral words there.
    """
    import re  # (only where a plan is said)

    # the second in either language ('imágenes por segundo', 'img/seg': once no noun, though plan takes them per
    # second, and the Spanish plan said '1,28 M de unidades del rendimiento en imágenes por segundo', review KF)
    sec = "|".join(SECONDS)
    m = re.fullmatch(rf"\s*(.*?)\s*(?:/\s*(?:{sec})|\s+(?:per|por|every|cada)\s+(?:{sec}))\.?\s*", unit, re.I)
    noun = m[1] if m else ""
    return noun if any(c.isalpha() for c in noun) else None


# the words for the second (the time plan's hours count a rate in), English and Spanish (muestras/segundo): the ones
# count_noun and not_per_second read
SECONDS = frozenset({"s", "sec", "secs", "second", "seconds", "seg", "segs", "segundo", "segundos"})
# the two units as an English user writes them too ('tokens per second', 'Tokens/Sec', 'samples/sec'): compared as
# tokens/s and samples/s, though labelled as typed ('Tokens/s' is). Only the Spanish spellings were, and on the page,
# after a language model's prediction was taken, 'tokens per second' left its 0.75 sequences/s in the rate field, a
# plan 8,192× too long with no note, where 'tokens por segundo' put 6,144 there (review KG)
# ('token/s' and 'sample/s' too: 'token por segundo' was tokens/s and 'token/s' a unit of its own, review KI); and in
# one second ('tokens/1s', 'muestras por 1 segundo'), which plan took as per second while `predict --unit tokens/1s`
# refused it and the page keyed it as a unit of its own (review KQ). One grid, each noun over each of '/', 'per' and
# 'por' and each of SECONDS, one second or '1' of them: built twice, 'tokens/1 segs' and 'tokens per 1 segundo' were
# tokens/s where 'tokens/segs' and 'tokens per segundo' were refused (review KS)
SAME_UNITS = {f"{noun}{by}{one}{time}": unit for noun, unit in (("muestra", "samples/s"), ("muestras", "samples/s"),
              ("sample", "samples/s"), ("samples", "samples/s"), ("token", "tokens/s"), ("tokens", "tokens/s"))
              for by in ("/", "per", "por") for one in ("", "1") for time in SECONDS}  # fmt: skip


def not_per_second(unit: str) -> bool:
    """Whether a rate unit is sure not to be per second, which plan's hours need (they count v per second whatever the
    unit says): a count with no time at all (bare_count: 'tokens'), or a unit whose denominator — the words after its
    first '/', 'per', 'por', 'every' or 'cada' — names no second: per another time ('samples/min', 'tokens per hour',
    'img/ms', once planned 60×, 3,600× or 1/1,000 off) or per something that is no time ('tokens/step', 'samples/batch',
    'images/iter', a count per step planned as per second), or per a number of seconds ('samples per 10 s', planned
    10× fast; a number elsewhere is a label's: 'tokens/s (bf16)'). A second anywhere below the line is one:
    'tokens/s/gpu', 'samples per second per GPU', 'tokens/(GPU·s)' are per-device rates per second. A unit with
    neither a denominator nor a count noun ('fps', 'Hz') is taken: its time cannot be read (count_noun gives None),
    unless a metric prefix scales it ('kHz', 'Mfps': SCALED_PER_SECOND)."""
    import re

    # ('every' and 'cada' too: 'samples every 2 seconds' was planned as per second, 2× fast, review KN)
    m = re.search(r"/|\bper\b|\bpor\b|\bevery\b|\bcada\b", unit, re.IGNORECASE)
    if m is None:  # (a per-second rate's name with a metric prefix, 'kHz', is 1,000 a second: planned 1,000× long)
        return bare_count(unit) or any(word.casefold() in SCALED_PER_SECOND for word in re.findall(r"[^\W\d_]+", unit))
    below = unit[m.end() :].casefold()
    # a number of seconds is a number before a second's word: not one inside a word or before another ('tokens/s
    # (bf16)', 'samples/s/8xA100', 'img/s (224px)' are per second, and were refused as per 16, 8 or 224 s)
    counts = re.findall(r"(?<![^\W_])(\d+(?:\.\d*)?|\.\d+)\s*([^\W\d_]+)", below)
    if any(float(n) != 1 and word in SECONDS for n, word in counts):  # 'samples per 10 s': a tenth of its rate
        return True
    # a word is letters and digits of any script: 'tokens/μs' (µs, microseconds) once read as 's' after the μ
    # and letters apart from digits: 'tokens/1s' (one second) was refused as a denominator '1s' (review KN)
    return not any(word in SECONDS for word in re.findall(r"[^\W\d_]+", below))


# what a rate counts, written alone: a count with no time ('tokens', not tokens/s); in Spanish too ('muestras', the
# Spanish output's samples, was planned as per second where 'samples' is refused; 'token' is the same word)
COUNT_NOUNS = frozenset({"sample", "samples", "token", "tokens", "sequence", "sequences", "image", "images", "img",
                         "imgs", "example", "examples", "muestra", "muestras", "secuencia", "secuencias", "imagen",
                         "imágenes", "imagenes", "ejemplo", "ejemplos"})  # fmt: skip


# rates whose time, the second, is in their name: a count noun beside one is the rate's label ('samples (TPS)')
PER_SECOND = frozenset({"tps", "fps", "hz", "sps", "qps", "ips"})
# and those with a metric prefix, which are not per second: 'kHz' is 1,000 a second, and `plan --unit kHz` planned
# 2,000 kHz as 2,000 a second, 1,000× too long, with no word (review KQ). ('ips' is left out: MIPS is a rate's name)
SCALED_PER_SECOND = frozenset(
    {p + t for p in ("k", "m", "g", "µ", "μ") for t in PER_SECOND - {"ips"}} | {"kilohertz", "megahertz", "gigahertz"}
)


def bare_count(unit: str) -> bool:
    """Whether a unit names what a rate counts but no time ('tokens', 'Samples'): a label to calc and fit, but plan's
    hours need the rate's time, and `plan --unit tokens` counted tokens per second under 'throughputs in tokens'.
    Not 'fps' or 'Hz', rates whose time is in their name (not_per_second cannot read it; count_noun gives None). A
    count noun among its words, English's last or Spanish's first, with no second among them, is a count: 'transformer
    tokens' (the published tables' 'transformer tokens/s' without its time), 'muestras de entrenamiento' and 'samples
    a minute' were planned as per second (review KF); 'muestras al segundo' and 'tokens a second' are rates."""
    import re

    # words as the second's are read, not split at spaces: 'samples·min⁻¹' (SI's per minute) and 'tokens(bf16)' were
    # planned as per second where 'samples min⁻¹' and 'tokens (bf16)' are refused (review KG)
    words = [word.casefold() for word in re.findall(r"[^\W_]+", unit)]
    timed = SECONDS | PER_SECOND  # 'samples (TPS)', 'images (fps)', 'samples (Hz)': rates, refused (review KN)
    return any(word in COUNT_NOUNS for word in words) and not any(word in timed for word in words)


def cluster_unit(unit: str) -> str | None:
    """A rate unit said per device or per node ('tokens/s/gpu', 'img/s per GPU', 'samples per second per device',
    'per-GPU tokens/s', 'tokens/(GPU·s)', 'tokens/s/node') without that part ('tokens/s'); None for a unit with no
    per-device part. calc's, plan's and fit's --unit labels the cluster's throughputs too (d·v, A, a run's), so
    '21,600 tokens/s/gpu' for eight GPUs' total said 8× the per-GPU rate."""
    import re

    # (nodes too: calc -d 8 -v 2000 --unit tokens/s/node said the 8's 14,400 as '14,400 tokens/s/node', 8× a node's
    # rate, whatever -d counts; review KN)
    dev = (
        r"(?:gpus?|devices?|devs?|chips?|accelerators?|ranks?|workers?|tpus?|npus?|cards?|dispositivos?|nodes?|"
        r"nodos?)"
    )
    # said first ('per-GPU tokens/s') or as one denominator with the time ('tokens/(GPU·s)'): the cluster's unit is
    # what is left, the time kept as typed
    if m := re.fullmatch(rf"\s*per[- ]{dev}\s+(\S.*?)\s*", unit, re.IGNORECASE):
        return m[1]
    by = r"\s*[·⋅*×.\s]\s*"
    m = re.search(rf"/\s*\(\s*(?:{dev}{by}(?P<t>[^\W\d_]+)|(?P<u>[^\W\d_]+){by}{dev})\s*\)", unit, re.IGNORECASE)
    if m and unit[: m.start()].strip():
        return (unit[: m.start()] + "/" + (m["t"] or m["u"]) + unit[m.end() :]).strip()
    # the per-device part where it stands: last, or before the time ('tokens/GPU/s', 'samples per GPU per second') or
    # a label ('tokens/s/GPU (bf16)'), all once taken as the cluster's unit
    m = re.search(rf"\s*(?:/|(?<=\s)per\b|(?<=\s)por\b)\s*{dev}(?=\s*(?:$|[/(,]|per\b|por\b))", unit, re.IGNORECASE)
    base = (unit[: m.start()] + unit[m.end() :]).strip() if m and unit[: m.start()].strip() else ""
    return base or None


UNIT_ALLOWED = "a unit label on one line, at most 40 characters (samples/s, tokens/s)"
PER_DEVICE_UNIT = "the unit without its per-device part (it labels the cluster's throughputs too): "


def check_unit(text: str, flag: str = "--unit") -> str:
    """A unit label as typed: --unit, a file's stated unit, the library's `Fit.report(unit=)` (review MV: unit='' was
    read as samples/s, ' ' labelled the rates with a blank). It is printed beside every rate: a newline in it split
    the table's lines, and a long one its columns; the spaces around it are not part of it (' tokens/s ' compares as
    tokens/s, and is printed so: titles, JSON rows)."""
    if not text.strip() or len(text) > 40 or not text.isprintable():
        raise fail(flag, text, UNIT_ALLOWED)
    # a file's stated unit too (RUNS, --fit, --efficiency-file, the page's pasted runs): its runs' and rows' rates are
    # the cluster's as well, and a per-device one read as written sent plan round a loop — '--unit: allowed:
    # 'tokens/s/gpu', the unit the runs in --fit state', then that unit refused as typed
    base = cluster_unit(text.strip())
    if base is not None:
        raise fail(flag, text, f"{PER_DEVICE_UNIT}{base}")
    return text.strip()
