"""Labels and number formats in English and Spanish (the original calculator is Spanish).

Only human output is translated; JSON and CSV keep machine keys and plain numbers. The tables are data beside
this module: labels.py (every label, both languages: the tables need it), notes_es.py and errors_es.py (the
library's notes and errors in Spanish, loaded the first time something is said in Spanish).
"""

from __future__ import annotations

import math

from dpscale.errors import clip
from dpscale.faces.i18n.labels import LABELS
from dpscale.faces.locale import LANGS
from dpscale.notes import EN, SINGULAR_EN, TINY_E, e3, figure, params_said, params_scaled, singular, unexponent
from dpscale.notes import listed as said_list

TYPE_CHECKING = False  # typing stays off the calculator's start-up path
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

_LAZY = {"NOTES": "notes_es", "ALLOWED": "errors_es", "SAID": "errors_es", "MEASURE_PARTS": "errors_es",
         "REASONS": "errors_es", "OTHER_SAID": "errors_es"}  # fmt: skip


def _table(name: str) -> Any:
    """A Spanish table, imported on first use: an English run never reads them."""
    from importlib import import_module

    return getattr(import_module(f"dpscale.faces.i18n.{_LAZY[name]}"), name)


def __getattr__(name: str) -> Any:
    """`i18n.SAID` and the other tables still read as attributes of this module (PEP 562)."""
    if name in _LAZY:
        return _table(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def say(note: str, lang: str = "en") -> str:
    """A library note in the user's language: dpscale.notes.Note carries the key; plain strings pass as they are."""
    key = getattr(note, "key", "")
    # English too is said from its template, not the library's text: its lists as a sentence lists them ('2; 4'
    # → '2 and 4'), a figure past its digits grouped ('5.826e+04' → '58,260'), as in every language
    template = (
        (EN.get(key) if hasattr(note, "fields") else None) if lang == "en" else _table("NOTES").get(lang, {}).get(key)
    )
    if not template:
        return str(note)
    import re
    import string  # only when a note is translated: keeps the calculator's start-up lean

    class Localised(string.Formatter):  # numbers the language's way (55,5556 in Spanish)
        def format_field(self, value, format_spec):
            text = super().format_field(value, format_spec)
            if isinstance(value, (int, float)) and text == text.strip():  # (a padded field keeps its width)
                text = unexponent(text, value)
            return localise(text, lang) if isinstance(value, (int, float)) else text

    # (the ignore: a template was found for the note's key, so it is a dpscale.notes.Note, which has fields)
    fields = {k: localise(v, lang) if k in TEXT_NUMBERS and isinstance(v, str) else v for k, v in note.fields.items()}  # type: ignore[attr-defined]
    n_params = fields.get("n_params")
    if isinstance(n_params, (int, float)) and "count" in fields:  # '6.738 B' → '6,738 mil millones de'
        fields["count"] = count_said(n_params, lang)
    if isinstance(fields.get("sizes"), str):  # '256; 512; 1.024' → '256, 512 y 1.024'
        fields["sizes"] = relisted(fields["sizes"], lang)
    for k in PARAM_NAMES:  # a law's parameters by name ('transfer = 0; latency = 0,019' → 'transferencia = 0; …')
        if isinstance(fields.get(k), str) and lang != "en":
            fields[k] = re.sub(r"\b[a-z][a-z_]+\b", lambda m: term(m[0], lang), fields[k])
    for k in TEXT_LISTS:  # 'usl and amdahl' → 'usl y amdahl': a list ends with the language's 'and'
        if isinstance(fields.get(k), str):  # (a fit --json written before review LE: 'usl, amdahl')
            fields[k] = listed(re.split(r", | and ", fields[k]), lang)
    piped = lang != "en" and fields.get("model") == "standard input"  # files.STDIN_NAME: a --model-file - model
    if piped:  # named in the language, as memory's notes and the errors name it: 'del standard input' was said
        fields["model"] = _STDIN_TOKEN
    text = singular(Localised().format(template, **fields), SINGULAR.get(lang, {}))
    if piped:  # 'del' before it is 'de' + its article ('de la entrada estándar')
        text = re.sub(f"\\bdel? {_STDIN_TOKEN}", f"de {label('stdin_the', lang)}", text)
        text = text.replace(_STDIN_TOKEN, label("stdin_the", lang))
    return text


def say_text(text: str, lang: str = "en") -> str:
    """A note that came back as plain text, its key lost — the warnings `fit --json` wrote, which plan relays from
    --efficiency-file — said in the language where it is, word for word, one of the library's notes (its fields read
    back from the English and checked by writing the note again); anything else as written."""
    if lang not in LANGS or not isinstance(text, str):  # (English too: its lists are said as a sentence's)
        return text
    import re
    import string

    from dpscale.notes import EN, Note

    # a count of one was written in the singular ('2 repeated runs of 1 device'): a counted noun reads either way
    nouns = re.compile(rf"\b({'|'.join(SINGULAR_EN)})\b")
    for key, template in EN.items():
        pattern, names = "", []
        for literal, field, spec, _ in string.Formatter().parse(template):
            pattern += nouns.sub(lambda k: f"(?:{k[1]}|{SINGULAR_EN[k[1]]})", re.escape(literal))
            if field is None:
                continue
            if "{" in (spec or "") or not field.isidentifier():  # a nested width ('{x:.{places}f}'): not read back
                break
            pattern += f"(?P={field})" if field in names else f"(?P<{field}>.+?)"
            names.append(field)
        else:
            m = re.fullmatch(pattern, text, re.S)
            if m is None:
                continue
            fields = {k: _typed(v) for k, v in m.groupdict().items()}
            try:
                note = Note(key, **fields)
            except (ValueError, TypeError, KeyError, IndexError):  # a number's format given a word: not this note
                continue
            if note == text:
                return say(note, lang)
    return text


def _typed(text: str) -> Any:
    """A note's field as its template formatted it: 1,024 → 1024, 75.3 → 75.3; words (and lists) stay text."""
    import re

    plain = text.replace(",", "")
    if re.fullmatch(r"-?\d+", plain):
        return int(plain)
    if re.fullmatch(r"-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?|-?inf|nan", plain):
        return float(plain)
    return text


# A count of one takes the singular ('1 dispositivos' → '1 dispositivo'): the nouns the notes and errors count.
SINGULAR = {
    "en": {**SINGULAR_EN, "rows": "row"},  # (a face's count of rows too: validate's '1 configuration (1 row)')
    "es": {"dispositivos": "dispositivo", "ejecuciones": "ejecución", "pasos": "paso", "tamaños": "tamaño",
           "repeticiones": "repetición", "parámetros": "parámetro", "nodos": "nodo", "grados": "grado",
           "valores": "valor", "épocas": "época", "procesos": "proceso", "puntos": "punto",
           "configuraciones": "configuración", "secuencias": "secuencia", "hilos": "hilo",
           "etapas": "etapa", "filas": "fila",
           "ociosos": "ocioso"},  # (plan's partial nodes: '7 en 1 nodo (1 ocioso)', an adjective counted)
}  # fmt: skip


# note fields with numbers written out ('1→0.9; 8→0.8', a count of ranks or '?')
TEXT_NUMBERS = ("table", "sizes", "fitted", "typed", "theirs", "ranks", "measured_said", "law_said", "changes",
                "e_said", "e_hidden_said", "figures", "counts")  # fmt: skip
TEXT_LISTS = ("laws", "others")  # note fields holding a list of names ('allreduce, usl and amdahl')
PARAM_NAMES = ("params", "name", "fitted")  # note fields naming a law's parameters (fit_laws.py: transfer, sigma…)
AND = {"en": "and", "es": "y"}
# The library's notes list sizes with '; ' (sources.fit_runs.listed_sizes, predict_notes' ragged nodes): 1,024 holds a
# comma. That text stays the library's (fit --json's warnings); a face says it with `relisted`.
LISTED_SEP = "; "


def listed(
    items: Sequence[str], lang: str = "en", more: str = "", elided: bool = False, word: str | None = None
) -> str:
    """Items as a sentence lists them in the language: notes.listed (the one rule, which the library's English notes
    read too) with the language's 'and' ('2, 4 y 8'), or `word`, another conjunction in the language already ('or':
    memory's 'shrink the micro-batch or add …')."""
    return said_list(items, word or AND.get(lang, AND["en"]), more, elided)


def relisted(text: str, lang: str = "en") -> str:
    """A library note's list of sizes ('256; 512; 1,024', '9; 10; …', '2; 4; 8; 16; 32…'; localised already in
    Spanish) said as `listed` says a list."""
    elided = text.endswith("…")
    items = [x for x in text.removesuffix("…").split(LISTED_SEP) if x.strip()]
    return listed(items, lang, elided=elided)


def _number_words(text: str, lang: str) -> str:
    """'20,000/s (speedup 9.5)' → '20.000/s (aceleración 9,5)': a quantity as the calculator said it."""
    return localise(text, lang).replace("speedup", label("speedup", lang).split()[0])


def say_measure(text: str, lang: str) -> str:
    """A measurement's failure line in the language, part by part (MEASURE_PARTS)."""
    import re

    for pattern, repl in _table("MEASURE_PARTS").get(lang, ()) if lang != "en" else ():
        text = re.sub(pattern, repl, text)
    return _reason(text, lang) if lang != "en" else text  # '(No space left on device)' in the language


def _reason(text: str, lang: str) -> str:
    """A reason in parentheses said in the language: '(No such file or directory)' → '(no existe)'."""
    import re

    words = _table("REASONS").get(lang, {})
    return re.sub(r"\(([^()]+)\)", lambda m: f"({words.get(m[1], m[1])})", text)


_STDIN_TOKEN = "\x00stdin\x00"  # standard input, named by a file's place in a template: one word, as a file's name is


def _said(message: str, lang: str) -> str:
    """A free-form error said from SAID's templates (numbers the language's way); unmatched: as written."""
    import re

    from dpscale.files import STDIN_NAME

    # 'standard input line 3: …' read as a file's 'x.csv line 3' (not a reason: '(standard input is a terminal…)')
    # (typed values first: a --gpu typed "standard input's" is the user's words, not the piped file)
    said, typed = _quoted_aside(message)
    said = re.sub(f"{STDIN_NAME}(?! is (?:a terminal|closed|what))", _STDIN_TOKEN, said)  # (files.STDIN_*: their own)
    for pattern, template in _table("SAID").get(lang, ()):
        m = re.fullmatch(pattern, said)
        if m:
            fields = {
                k: _number_words(v, lang) if k in ("n1", "n2", "t", "x", "e", "m") else v
                for k, v in m.groupdict(default="").items()
            }
            for k in ("what", "ok"):  # another command's output and what the reader takes (errors_es.OTHER_SAID)
                if k in fields:
                    fields[k] = _table("OTHER_SAID").get(lang, {}).get(fields[k], fields[k])
            if fields.get("a") in ("efficiency", "per_device_throughput", "actual_throughput", "speedup"):
                fields["a"] = label(fields["a"], lang)  # a solved quantity by name ('efficiency: comes to 3.9')
            if "why" in fields:
                fields["why"] = _table("REASONS").get(lang, {}).get(fields["why"], fields["why"])
            if fields.get("tg") == "target":  # the library's word for a solve's target; a flag stays a flag
                fields["tg"] = label("target", lang)
            if fields.get("w") == "measured sizes":  # fit's bootstrap redraws the measured sizes, predict's --at
                fields["w"] = label("measured_sizes", lang)
            if "cols" in fields:  # columns a header lacks or repeats: the verb and article agree with how many
                many = "_many" if ", " in fields["cols"] else ""  # ('falta la columna x', 'faltan las columnas x, y')
                fields["cols_missing"] = label(f"cols_missing{many}", lang).format(cols=fields["cols"])
                fields["cols_twice"] = label(f"cols_twice{many}", lang).format(cols=fields["cols"])
            if "mean" in fields:  # 'a' or 'b': the language's 'or'
                fields["mean"] = fields["mean"].replace("' or '", f"' {label('or', lang)} '")
            if "types" in fields:  # a model file's model_type: 'llama, mistral or mixtral' (catalog.HF_TYPES)
                fields["types"] = fields["types"].replace(" or ", f" {label('or', lang)} ")
            # a reason still in English inside parentheses ('(Address already in use)'): said by REASONS
            text = _reason(singular(template.format(**fields), SINGULAR.get(lang, {})), lang)
            # after a preposition, with the language's article ('las ejecuciones de la entrada estándar'); as a
            # place that heads the message, as a file's name would ('entrada estándar línea 3: …')
            text = re.sub(f"\\b(de|en) {_STDIN_TOKEN}", lambda k: f"{k[1]} {label('stdin_the', lang)}", text)
            text = text.replace(_STDIN_TOKEN, label("stdin_name", lang))
            for token, value in typed.items():  # as typed: quoted where the template kept '…', else inside them
                text = text.replace(f"'{token}'", value).replace(token, value[1:-1])
            return text
    return message


_TYPED_TOKEN = "\x00typed{}\x00"  # a typed value whose repr SAID's '…' patterns cannot read, set aside while matching
_QUOTED = r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""  # a str as Python's repr writes it
_TYPED_AT = rf"\b(?:got|system|key) {_QUOTED}(?: and {_QUOTED})?"


def _quoted_aside(message: str) -> tuple[str, dict[str, str]]:
    """The typed values a message names as Python writes them (after 'got ', both of 'got X and Y', and a
    --system-file's system and key), where that is not '…' without a quote inside: a value holding an apostrophe
    ("it's", "John's/sys.json") is written in double quotes, one holding both quotes as 'a\\'"b', and SAID's
    patterns ('[^']*', '.*') took neither — `predict --gpu "a'b" --lang es`, `--law 'a'"'"'"b'` and a system
    named "bob's" were refused in English. Each is set aside as '<token>' (one word, no quote) and put back in the
    Spanish line; so is one naming standard input, which the piped file's Spanish name would otherwise replace."""
    import re

    from dpscale.files import STDIN_NAME

    typed: dict[str, str] = {}

    def aside(m: re.Match[str]) -> str:
        out, at = "", m.start()
        for g in (1, 2):
            if m[g] is None or re.fullmatch(r"'[^'\\]*'", m[g]) and STDIN_NAME not in m[g]:
                continue
            token = _TYPED_TOKEN.format(chr(ord("a") + len(typed)))  # (a letter: the number words leave it alone)
            typed[token] = m[g]
            out, at = out + f"{m.string[at : m.start(g)]}'{token}'", m.end(g)
        return out + m.string[at : m.end()]

    return re.sub(_TYPED_AT, aside, message), typed


def say_error(exc: BaseException, lang: str = "en") -> str:
    """A library error in the user's language: 'FLAG: got X; allowed: Y' from errors.fail is said with the
    language's words (and Y translated where ALLOWED has it); the calculator's other errors from SAID; the
    rest stay as written."""
    parts = getattr(exc, "parts", None)
    if lang == "en" or lang not in _table("ALLOWED"):
        return str(exc)
    if parts is None:
        return clip(_said(str(exc), lang))
    name, got, allowed = parts
    words = _table("ALLOWED")[lang]
    import re

    # a number the library holds (not typed text): 0,9 — but not a flag's, which echoes what was typed (1.5): a
    # Spanish '1,5' there is what the flag refuses, and '0,9' of '-e 0.9,0.8' read as that list's comma
    if re.fullmatch(r"-?\d+(\.\d+)?(e[+-]?\d+)?", got) and not name.startswith("-"):
        got = localise(got, lang)

    m = re.fullmatch(r"a whole number from ([\d,]+) to ([\d,]+)(.*)", allowed)  # the bounds differ by flag
    if m and lang == "es":
        allowed = f"{label('whole_from_to', lang)} {localise(m[1], lang)} a {localise(m[2], lang)}{m[3]}"
    m = re.fullmatch(r"a number (> |from )(\S+) (and ≤|to) ([\d,]+)", allowed)  # a CSV cell's (sources.dataset)
    if m and lang == "es":
        low, high = ("> ", " y ≤ ") if m[1] == "> " else ("de ", " a ")
        allowed = f"{words['a number']} {low}{localise(m[2], lang)}{high}{localise(m[4], lang)}"
    from dpscale.files import STDIN_NAME

    name = name.replace(STDIN_NAME, label("stdin_name", lang))  # a file given as '-' ('standard input line 3, …')
    if lang == "es":  # 'DATA.csv line 4, column 'x'' names the place: say its words too
        name = re.sub(r" line (\d+)(, column)?", lambda k: f" línea {k[1]}" + (", columna" if k[2] else ""), name)
        # a run's field (sources.fit_runs): --point's D:X parts in words (a point may hold a space: '8:2 000'; the
        # page's box names its line instead, below); a file's as the field it names
        fields = {"devices": "dispositivos", "throughput": "rendimiento", "step_time": "segundos por paso"}
        name = re.sub(r"^(--point (?!línea \d).+), (devices|throughput|step_time)$",
                      lambda k: f"{k[1]}, {fields[k[2]]}", name)  # fmt: skip
        # a --system-file's field ('--system-file: s.json: system 'custom': cpu_cores'), as the catalog says its own
        name = re.sub(r"""^(--system-file: .+): system ('[^']*'|"(?:[^"\\]|\\.)*"): """, r"\1: sistema \2: ", name)
        # (a `measure --json` document's point: 'línea 2 points[0], devices')
        name = re.sub(r"^(.+ línea \d+(?: points\[\d+\])?), (devices|throughput|step_time)$", r"\1, campo '\2'", name)
    if lang == "es":  # the percent hint: 90,5 % as the language writes it, = 0.905 as the flag takes it (with a
        # decimal comma, '0,905' would be refused as a list)
        allowed = re.sub(r"\((\S+) % = (\S+)\)", lambda k: f"({localise(k[1], lang)} % = {k[2]})", allowed)
    if lang == "es":  # predict --unit tokens/s's bounds, figures worked out (4.096e-06), not typed: the language's
        # way, 4,096e-06, as number() writes e-notation (a Spanish '4.096e-06' reads 4096e-06, 1,000× the bound)
        allowed = re.sub(r"^(per-device tokens/s at the baseline size \(.+\): )(\S+) – (\S+)$",
                         lambda k: f"{k[1]}{localise(k[2], lang)} – {localise(k[3], lang)}", allowed)  # fmt: skip
    said = next((words[k] + allowed[len(k) :] for k in sorted(words, key=len, reverse=True) if allowed.startswith(k)),
                allowed)  # fmt: skip
    said = _reason(said, lang)  # 'un archivo CSV legible (No such file or directory)' → '(no existe)'
    if lang == "es":  # the page's over-long value: '30,000 characters'
        got = re.sub(r"^'([\d,]+) characters'$", lambda k: f"'{localise(k[1], lang)} caracteres'", got)
    if lang == "es":  # an efficiency file's record: 'record 2: devices 8 again'
        got = re.sub(r"^'record (\d+): (.*?)( again)?'$", lambda k: f"'registro {k[1]}: {k[2]}"
                     + (" repetido'" if k[3] else "'"), got)  # fmt: skip
        got = re.sub(r"^'registro (\d+): (\w+) missing'$", r"'registro \1: falta \2'", got)  # a field it lacks
        got = re.sub(r"^'(registro \d+: )?unit (.*) against (.*)'$", r"'\1unidad \2 frente a \3'", got)  # two units
    return clip(label("error_frame", lang).format(name=name, got=got, allowed=said))  # as DpscaleError clips English


def label(key: str, lang: str = "en") -> str:
    return LABELS[lang].get(key) or LABELS["en"].get(key) or key.replace("_", " ")


def unit_label(unit: str, lang: str = "en") -> str:
    """A rate's unit as a cell, a title or a sentence says it: the program's own samples/s in the language
    ('muestras/s'), any other as typed. Read as a label's key, a typed unit was another word: `calc --unit devices
    --lang es` printed '2.000 dispositivos', `--unit note` '2.000 nota', `--unit tokens_s` 'tokens s' (review KL)."""
    return label(unit, lang) if unit == "samples/s" else unit


def count_of(unit: str, lang: str = "en") -> str:
    """What a count in `unit`'s terms is said as, where a number of them is (plan's --samples: 1.28M of what): the
    rate's own noun as typed (formulas.units.count_noun: 'tokens' for tokens/s, 'img' for img/sec, 'TFLOP' for
    TFLOP/s), 'samples' in the language for samples/s (any case, 'sample/s' too), and, where the unit names no noun
    ('fps', 'samples/min'), the neutral 'units of the fps throughput' — never 'samples' counted at tokens/s."""
    from dpscale.formulas.units import count_noun

    noun = count_noun(unit)
    if noun is None:
        return label("count_other", lang).format(unit=unit_label(unit, lang))
    return label("count_samples", lang) if noun.casefold() in ("samples", "sample") else noun


def term(word: str, lang: str = "en") -> str:
    """An option value said in the language ('mixed' → 'mixta'); words it has no entry for pass as typed."""
    return LABELS[lang].get("w:" + word, word)


def count_said(params: float, lang: str = "en") -> str:
    """A parameter count in words: 7.5e9 → '7.5 B', 25.6e6 → '25.6 M', 1e12 → '1 T' (Spanish: mil millones de,
    millones de, billones de; one of each in the singular), smaller ones whole: 100,000."""
    if lang == "en":
        return params_said(params)  # (the library's own English, its notes' and this title's alike)
    scaled, unit = params_scaled(params)  # to four digits (Llama-7B's 6.738 B), so 999,999.99 is '1 M'
    if not unit:
        return number(params, "int" if params == int(params) else "float", lang)  # 1.5 is not '2'
    key = {"T": "mem_trillion", "B": "mem_billion", "M": "mem_million"}[unit]
    x = number(scaled, "float", lang)
    # Spanish names one of each in the singular: 1 billón, mil millones, 1 millón ('1 millones' read wrong)
    return label(f"{key}_one", lang) if x == "1" and lang == "es" else label(key, lang).format(x=x)


def header(key: str, lang: str = "en") -> str:
    """Short column heading for wide tables; falls back to the full label."""
    return LABELS[lang].get("h:" + key) or LABELS["en"].get("h:" + key) or label(key, lang)


def localise(text: str, lang: str) -> str:
    """Swap English separators (1,234.5) for Spanish ones (1.234,5)."""
    if lang != "es":
        return text
    return text.replace(",", "\0").replace(".", ",").replace("\0", ".")


def number(x: float | int | None, kind: str = "float", lang: str = "en") -> str:
    """Format one value for people. kinds: int, count, rate, times, dec, eff, bound, pct, level, float, ms, hours,
    money, bytes, text, and sig2–sig4: a measured or fitted figure to its few meaningful digits (0.0231, not float's
    0.0230903). A count is a whole number where it is one (8, not 8.00) and dec's two decimals where not (5.50)."""
    if kind == "text" or isinstance(x, str):
        return "—" if x is None else LABELS[lang].get(str(x)) or str(x)
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if isinstance(x, float) and math.isinf(x):
        return "∞"
    if kind == "count":  # (micro-batches in flight: m or p whole, an interleaved schedule's p + (p − 1)/v not)
        kind = "int" if float(x).is_integer() else "dec"
    if kind in ("int", "rate", "dec", "money") and abs(x) >= 1e15:  # past 2^53 whole digits are invented
        return localise(f"{x:.6g}", lang)
    if kind in ("hours", "times") and abs(x) >= 1e15:
        return localise(f"{x:.3g}" + {"hours": " h", "times": "×"}[kind], lang)
    if kind in ("sig2", "sig3", "sig4"):  # (below 1e-3 float's 1.200e-04 pads the digits: 0.00012)
        x = float(f"{x:.{kind[3]}g}")
        return localise(f"{x:.{kind[3]}g}", lang) if 0 < abs(x) < 1e-3 else number(x, "float", lang)
    if kind == "int":
        text = f"{x:,.0f}"
    elif kind == "rate":
        text = f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.4g}"
    elif kind == "times":  # a tiny speed-up keeps its digits too (E = 1e-12 on 8 read '0.00×')
        text = (f"{x:,.1f}" if abs(x) >= 10 else f"{x:.2f}" if abs(x) >= 0.005 or x == 0 else f"{x:.3g}") + "×"
    elif kind == "dec":  # a tiny negative (noise, a rounded loss) reads 0.00, not '-0.00'; a tiny count its digits
        text = f"{x:,.1f}" if abs(x) >= 10 else f"{x:.2f}" if abs(x) >= 0.005 else f"{x:.3g}" if x >= 1e-9 else "0.00"
    elif kind == "eff":  # a tiny E keeps its significant digits rather than reading as 0.000
        text = f"{e3(x)} ({100 * x:.1f} %)" if x == 0 or abs(x) >= TINY_E else f"{e3(x)} ({100 * x:.3g} %)"
    elif kind == "pct":  # grouped as the notes write it (a pipeline's bubble of 6,300.0 % of ideal time); a tiny
        # share keeps its digits as eff does: E = 1e-9 measured and 2e-4 fitted both read '0.0 %'
        text = f"{100 * x:,.1f} %" if x == 0 or abs(x) >= TINY_E else f"{100 * x:.2g} %"
    elif kind == "level":  # a confidence level as given: 90 %, 97.5 % (pct's one decimal wrote 90.0 %)
        text = f"{100 * x:g} %"
    elif kind == "fixed3":  # a signed error: −0.0004 reads 0.000, not '-0.000'
        text = f"{x:.3f}".removeprefix("-") if abs(x) < TINY_E else f"{x:.3f}"
    elif kind == "ms":
        text = f"{1e3 * x:,.1f}" if abs(x) >= 1e-3 else f"{1e3 * x:.3f}"
    elif kind == "hours":  # the unit by the rounded figure: 0.9999 h once read '60.0 min', 59.96 s '60 s'
        m, s = round(60 * x, 1), float(f"{3600 * x:.3g}")
        # seconds in 3 figures, trailing zeros kept: '38 s' beside '21.4 s' in one column read as a figure cut short
        text = f"{x:,.1f} h" if abs(m) >= 60 else f"{m:,.1f} min" if abs(s) >= 60 else f"{s:#.3g} s"
        return localise(text, lang) + days(x, lang)  # from two days on: ' (3,650.0 days)'
    elif kind == "bound":  # an E bound beside an E, its digits as eff keeps them (0.000–0.000 beside 7.36e-12)
        text = e3(x)
    elif kind == "money":
        text = f"{x:,.2f}"
    elif kind == "bytes":
        text = _bytes(x)
    else:
        text = figure(x) if abs(x) >= 1e-3 or x == 0 else f"{x:.3e}"  # (7,296,040 tokens/s, not 7.29604e+06)
    return localise(text, lang)


DAYS_FROM = 48.0  # hours: from two days on, a time is given in days too ('87,600.0 h' alone read as a number)


def days(hours: float, lang: str = "en") -> str:
    """What follows a time in hours from two days on: ' (3,650.0 days)', ' (3.650,0 días)'; '' below (or past
    1e15 h, an exponent's figure, nothing to count). The table's and the notes' times alike (number's 'hours'); judged
    on the hours as printed, one decimal, so 47.96 h, printed 48.0 h, says its days as 48 h does, and two times
    printed alike say the same days (49.19 and 49.21 h are both 49.2 h, 2.0 days)."""
    printed = float(f"{hours:.1f}")
    if not DAYS_FROM <= abs(printed) < 1e15:
        return ""
    return localise(f" ({printed / 24:,.1f} ", lang) + label("days", lang) + ")"


def _bytes(x: float) -> str:
    if abs(x) >= 1e21:  # past any machine: 3 figures of PB (2e+15 B read as a byte count)
        return f"{x / 1e15:.3g} PB"
    for unit, size in (("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(x) >= size:
            return f"{x / size:,.1f} {unit}"
    return f"{x:,.0f} B"
