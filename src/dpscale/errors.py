"""The package's one exception type and the input checks every layer shares.

Every check names the input, the value it got and what is allowed, so the API and the CLI
say the same one line. Checks accept Python numbers and numpy arrays; numpy is never
imported here unless the caller already handed us an array (or a list, which needs one), or
check_sizes reads sizes for an E source (a law, fit or prediction: arrays by contract).
"""

from __future__ import annotations

import math
from numbers import Real

TYPE_CHECKING = False  # keeps typing off the start-up path
if TYPE_CHECKING:
    from collections.abc import Sequence
    from decimal import Decimal
    from fractions import Fraction
    from typing import Any, TypeGuard

    import numpy as np
    from numpy.typing import NDArray
    from typing_extensions import TypeVar

    # What a typed caller's inputs read as (`mypy --strict`, review LG): one number (a size, a rate, a batch) gives
    # floats back, several (a list, a range, an array) arrays. A result's fields are `Values`: float for numbers,
    # an array for a sweep; Any where the call does not say which (a bare `dpscale.ScaleResult` in an annotation).
    Number = float | Fraction | Decimal | np.integer[Any] | np.floating[Any]
    Numbers = Sequence[Number] | NDArray[Any]
    Values = TypeVar("Values", default=Any)


def printable(text: str) -> str:
    """Text for a terminal with its control characters (ESC, NUL, DEL, C1; not new lines and tabs) written as Python
    writes them, \\x1b: what a user's file held reaches error lines, notes and tables, and raw, an ESC[2J in a
    header or a fit's warnings cleared or coloured the terminal."""
    import re

    return re.sub(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", lambda m: f"\\x{ord(m[0]):02x}", text)


def clip(message: str, most: int = 100) -> str:
    """A message with every unbroken run of over `most` characters (a pasted file, a runaway value, a model name
    of 3,000 letters) cut to its head and tail, so the one line stays one readable line; its control characters
    printable (a typed value's repr escaped them already; a file's header did not)."""
    import re

    message = re.sub(rf"\S{{{most + 1},}}", lambda m: f"{m[0][:45]}…{m[0][-45:]}", printable(" ".join(message.split())))
    return message if len(message) <= 1000 else f"{message[:600]} … {message[-300:]}"  # 'a ' × 100,000


def cut(text: str, most: int = 40) -> str:
    """A file's field or line quoted in an error, cut to `most` characters with a '…' that says so: the line names
    what to mend, not a whole pasted row. One rule for every reader of a file (tables, runs, system files)."""
    return text if len(text) <= most else f"{text[:most]}…"


class DpscaleError(ValueError):
    """Invalid input or an impossible request. The message is one line meant for a user (clipped: see clip)."""

    parts: tuple[str, str, str]  # (input, value shown, allowed): set by fail/renamed only, so read with getattr

    def __str__(self) -> str:
        return clip(super().__str__())


def _show(value: Any) -> str:
    """The value as a user would have typed it: 90, not 90.0 (a flag's text became a float on the way); from 1e15
    on, 1e+15 rather than sixteen digits."""
    if isinstance(value, float) and value.is_integer():
        value = int(value) if abs(value) < 1e15 else f"{value:g}" if float(f"{value:g}") == value else value
        return str(value)
    text = repr(value) if isinstance(value, str) else " ".join(str(value).split())  # a 2-D array: one line
    return text if len(text) <= 60 else text[:57] + "..."


def unknown_option(argv: list[str], actions: dict[str, Any], choices: Any = ()) -> str | None:
    """The first option in `argv` that none of a parser's `actions` takes, with the value typed after it, as
    argparse names one ('--step 5'); None when all are known or help is asked. For parsers with a positional
    (measure's mode), which would read that value as its own first ("mode: got '5'"); `choices` are the
    positional's words, never taken for the unknown option's value ('--verbose allreduce')."""
    head = argv[: argv.index("--")] if "--" in argv else argv
    if "-h" in head or "--help" in head:
        return None
    takes_value = False
    for i, tok in enumerate(head):
        if takes_value:  # a value, even one starting with '-' ('--out "--my file"')
            takes_value = False
            continue
        if not tok.startswith("-") or tok == "-" or tok[1].isdigit() or tok[1] == ".":  # a word or a negative number
            continue
        name = tok.split("=", 1)[0] if tok.startswith("--") else tok[:2]  # '-d8' is -d
        action = actions.get(name)
        if action is None:
            after = head[i + 1 : i + 2] if "=" not in tok else []
            return " ".join([tok, *(v for v in after if not v.startswith("-") and v not in choices)])
        takes_value = action.nargs != 0 and "=" not in tok and len(tok) == len(name)
    return None


def counted(n: int, noun: str) -> str:
    """'1 value', '2 values', '1 device count': the one plural rule of the errors that count."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def fail(name: str, value: Any, allowed: str) -> DpscaleError:
    """Build the standard one-line error: the input, the value, what is allowed. Its parts ride along
    (`.parts`) so a face can say it in the user's language (faces.i18n.say_error)."""
    exc = DpscaleError("")
    exc.parts = (name, _show(value), allowed)
    return renamed(exc, name)


THOUSANDS = "a number without thousands separators: 2000, not 2,000"
DECIMAL_POINT = "a number with a decimal point: 2.5, not 2,5"
# (the value used a decimal point: what it is told is that three digits after it read as a group of thousands)
THOUSANDS_DOT = (
    "no point before exactly three digits, which Spanish writes for thousands (2.000 = two thousand): 2000 for two "
    "thousand, 2.5 or 2.50 for two and a half"
)
# 2.000, 1.280.000; not 0.900 (no group starts a number with 0). A pattern, not compiled: re stays off the
# library's import path (the callers that match import it)
DOT_GROUPS = r"\+?[1-9]\d{0,2}(\.\d{3})+"


# A number a user hands in (a flag, a page's field, a file's cell, the torchrun worker's flags) is written as a
# spreadsheet, awk or a C program writes one: in ASCII digits. Python's float() also reads '1_0' as 10 (and the readers
# dropped every '_' before it, so '_1' and '1__0' too) and any script's digits ('١٠', '１０', '𝟏𝟎', even mixed: '1٠' is
# 10): such text was read as a number where nothing else would read it, and a mixed one can show another value.
PLAIN_DIGITS = "a number in the digits 0-9, without '_' (1000, not 1_000)"


def python_spelled(text: str) -> bool:
    """True for a number's text that float() reads but no spreadsheet writes: an underscore, or a digit outside 0-9
    (a non-ASCII space around it is no digit: float drops it, and so may the reader). The one rule of every reader
    of a user's number; each refuses such text with PLAIN_DIGITS."""
    return "_" in text or (not text.isascii() and any(c.isdecimal() and not c.isascii() for c in text))


# The gaps a number's thousands are written with besides a comma: a space, a no-break space (U+00A0), the narrow
# no-break space (U+202F) of French and Spanish typography and of spreadsheets set to those languages, a thin space
# (U+2009, the SI's): '1\u202f000' pasted from one was told only the range, where '1 000' was told the separator
GAPS = " \u00a0\u202f\u2009"


def comma_hint(text: str) -> str | None:
    """What to allow for a number that did not parse because of a comma or a gap inside it: '2,000' or '2 000' (any
    of GAPS) is a thousands separator (THOUSANDS), '2,5' a decimal comma (DECIMAL_POINT); None for anything else.
    One rule for a flag and a file's field alike."""
    import re

    t = text.strip()
    if re.fullmatch(rf"[1-9]\d{{0,2}}([,{GAPS}]\d{{3}})+(\.\d+)?", t):
        return THOUSANDS
    if re.fullmatch(r"[-+]?\d+,\d+([eE][-+]?\d+)?", t):  # 1,28e6 too (the page's 1.28e6 rewritten)
        return DECIMAL_POINT
    return None


# Reading a number typed on a command line: `dpscale`'s flags and the torchrun worker's (sources/measure/worker.py) both
# read theirs here, so one bad value gets one line from either (review MF: the worker said `--steps 1e30` as 1e+30,
# '2x' without its range)
SUFFIX = "a number written out: 1.28e6, not 1.28M (3e11, not 300B)"
CURRENCY = "a plain number: no currency sign or code"
# what a price or a budget is told to drop: a code, or a currency sign (see _currency)
_CODES = (
    r"USD|EUR|GBP|JPY|CNY|RMB|CHF|INR|CAD|AUD|NZD|HKD|SGD|KRW|BRL|MXN|SEK|NOK|DKK|PLN|ZAR|RUB|TRY"
    # the other Spanish-speaking countries' ('500 ARS' was told 'a finite budget > 0', review LM)
    r"|ARS|BOB|CLP|COP|CRC|CUP|DOP|GTQ|HNL|NIO|PAB|PEN|PYG|UYU|VES"
)
# (its thousands grouped by a space too, a no-break one or not: '1 000 €' was told 'a finite budget > 0', review LL)
_AMOUNT = r"[\d.,]+(?:\s[\d.,]+)*(e[-+]?\d+)?"


def _currency(text: str) -> bool:
    """Whether a text is an amount with a currency on one side or both ('$500 USD'): a code (USD, '500 CHF') or a
    currency sign, Unicode's Sc ($, €, ¥, ₹, …), with its country's letters before it or not (US$, HK$, R$, JPY¥:
    review LI found them told 'a finite budget > 0', which 500 is), or after it ('$US 500', '500 $ CA', Argentina's
    U$S: review LM)."""
    import re
    import unicodedata

    # the first amount, found by a search: a lazy '(.*?)\s*' before it re-read every run of spaces from each of its
    # characters — 'a' and 100,000 spaces and 'x' took 3 minutes, a page field's 10,000 1.7 s (review LM)
    m = re.search(_AMOUNT, text, re.IGNORECASE)
    sides = [side.strip().upper() for side in (text[: m.start()], text[m.end() :])] if m else []
    sides = [side for side in sides if side]
    signs = [re.fullmatch(r"[A-Z]{0,3}\s*(\S)\s*[A-Z]{0,3}", side) for side in sides]
    return bool(sides) and all(
        re.fullmatch(_CODES, side) or (sign is not None and unicodedata.category(sign[1]) == "Sc")
        for side, sign in zip(sides, signs)
    )


def number(text: str, flag: str, allowed: str = "a number", fraction: bool = False) -> float:
    """Text → finite float, or the flag's one-line error; '2,000' and '2,5' are told how to write them, and for a
    fraction (E, σ, a confidence) '90%' is told 90 % = 0.9."""
    import re

    if isinstance(text, str) and python_spelled(text):  # '1_000', '１０': float() reads them; check_number_style's rule
        raise fail(flag, text, PLAIN_DIGITS)
    try:
        x = float(text)
    except (ValueError, TypeError):
        t = str(text).strip()
        if hint := comma_hint(t):  # '2,000' and '2,5' are told how to write them
            raise fail(flag, text, hint) from None
        if re.fullmatch(r"[-+]?\d+(\.\d+)?\s*[kKMGTB]", t):  # 1.28M, 300B: 'a sample count > 0' said not why
            raise fail(flag, text, SUFFIX) from None
        # a price, a budget, its sign or code before or after; written out too ('1e6$', 'USD 500' and '¥300' were
        # told 'a budget > 0' / 'a finite budget > 0', which 1e6 and 500 are: reviews KZ, LC)
        if _currency(t):
            raise fail(flag, text, CURRENCY) from None
        if fraction and t.endswith("%"):
            try:
                pct = float(t[:-1])
            except ValueError:
                pct = math.nan
            if math.isfinite(pct):
                raise fail(flag, text, f"{allowed} ({pct:g} % = {pct / 100:g})") from None
        raise fail(flag, text, allowed) from None
    if not math.isfinite(x):
        raise fail(flag, text, allowed)
    return x


def whole(text: str | None, flag: str, lo: int = 1, hi: int | None = None, default: Any = None) -> Any:
    """A count typed on the command line (`default` when not given); a bad one is named as typed ('0', not
    '0.0'). Without `hi`, counts stop at 2^53, where whole numbers stop being exact in floating point."""
    if text is None:
        return default
    allowed = f"a whole number ≥ {lo}" if hi is None else f"a whole number from {lo:,} to {hi:,}"
    too_big = allowed if hi is not None else f"a whole number from {lo} to 2^53"
    if isinstance(text, str) and comma_hint(text) == DECIMAL_POINT:
        # 2,5: no decimal-point hint, whose 2.5 would be refused next; but 1,28e6 (the page's 1.28e6 written with a
        # Spanish comma) is a whole number once its comma is a point: told 'a whole number' alone, it read as wrong
        pointed = float(text.strip().replace(",", "."))
        whole_once_pointed = math.isfinite(pointed) and pointed == int(pointed) and lo <= pointed <= (hi or 2**53)
        raise fail(flag, text, DECIMAL_POINT if whole_once_pointed else allowed)
    try:
        x = number(text, flag, allowed)
    except DpscaleError:
        if _overflows(text):  # 1e400, 400 nines: float's inf was told 'a whole number ≥ 1', as if too small
            raise fail(flag, text, too_big) from None
        raise
    if x != int(x) or x < lo:
        raise fail(flag, text, allowed)
    if x > (2**53 if hi is None else hi):
        raise fail(flag, text, too_big)
    return int(x)


def _overflows(text: Any) -> bool:
    """A number too large for a float (it reads as inf), written as one: '1e400', 400 nines — not 'inf' itself."""
    t = str(text).strip()
    try:
        return float(t) == math.inf and t.lstrip("+")[:1].isdigit()
    except ValueError:
        return False


def renamed(exc: DpscaleError, name: str, allowed: str | None = None) -> DpscaleError:
    """The same standard error under another input name (a library parameter → its CLI flag), and its allowed
    part reworded where given; the value is kept as it was shown. An error without the standard parts is returned
    as it is."""
    parts = getattr(exc, "parts", None)
    if not parts:
        return exc
    allowed = parts[2] if allowed is None else allowed
    out = DpscaleError(f"{name}: got {parts[1]}; allowed: {allowed}")
    out.parts = (name, parts[1], allowed)
    return out


def require(module: str, extra: str, feature: str) -> Any:
    """Import an optional dependency, or say in one line which extra installs it."""
    from importlib import import_module

    try:
        return import_module(module)
    except ImportError:
        raise needs(feature, module, f"dpscale[{extra}]") from None


def needs(feature: str, module: str, install: str) -> DpscaleError:
    """The one line for a missing dependency, an extra's (`require`) or a base one's (`missing_requirement`):
    what needs it, the package, and the pip line that installs it (errors_es says it in Spanish by this shape)."""
    return DpscaleError(f"{feature}: needs {module.partition('.')[0]}; allowed: pip install '{install}'")


def missing_requirement(exc: ModuleNotFoundError, feature: str) -> DpscaleError | None:
    """One line for a dependency every install should have (numpy) found missing, as `require` says an extra's:
    `pip install --no-deps dpscale` runs calc, which needs none, but predict was a ModuleNotFoundError traceback.
    The range is the installed metadata's (pyproject's); None where the module is none of them (the caller raises)."""
    import re
    from importlib import metadata

    name = (exc.name or "").partition(".")[0]
    try:
        required = metadata.requires("dpscale") or []
    except metadata.PackageNotFoundError:  # (run from a source tree that was never installed)
        return None
    spec = next((r for r in required if ";" not in r and re.match(rf"{re.escape(name)}(?![\w.-])", r)), None)
    if not name or spec is None:
        return None
    return needs(feature, name, spec.replace(" ", ""))


def is_array(x: Any) -> bool:
    return hasattr(x, "dtype") and hasattr(x, "shape")


def plain(x: Any) -> Any:
    """A result's number as Python's own, as records(), record() and report() hold them for json.dumps: a numpy
    scalar or 0-d array as its int or float — a longdouble too, whose .item() and .tolist() stay longdoubles (review
    MV: scale(np.longdouble(64), …)'s records made json.dumps raise TypeError); anything else as it is."""
    if hasattr(x, "dtype") and hasattr(x, "item"):
        x = x.item()
    return float(x) if hasattr(x, "dtype") else x  # (a longdouble: no Python type holds one)


def as_number(x: Any, name: str) -> Any:
    """A real scalar (bools and text rejected) or a numpy array; lists become arrays."""
    if isinstance(x, bool) or isinstance(x, (str, bytes)):
        raise fail(name, x, "a number")
    if getattr(getattr(x, "dtype", None), "kind", None) in ("m", "M"):  # numpy's timedelta64 is an integer to
        raise fail(name, x, "a number, not a time or a date")  # numbers.Real: 8 s raised TypeError, 8 read as 8
    if isinstance(x, range):  # range(8, 65, 8): the sizes a notebook sweeps
        x = list(x)
    if not isinstance(x, (Real, list, tuple)) and not is_array(x) and hasattr(x, "__float__"):
        try:  # Decimal('64'): a number that is not a numbers.Real
            x = float(x)
        except (TypeError, ValueError, OverflowError):
            raise fail(name, x, "a real number") from None
    if isinstance(x, Real):
        try:
            as_float = float(x)
        except OverflowError:  # an int past any float (10**400): not a quantity
            raise fail(name, x, "a number within the float range (±1.8e308)") from None
        if hasattr(x, "dtype") and x.dtype.kind in "iub":  # numpy integer scalars: their arithmetic wraps
            return int(x)  # type: ignore[call-overload]  # typeshed's numbers.Real lacks __int__; numpy ints have it
        if not isinstance(x, (int, float)) or hasattr(x, "dtype"):  # Fraction(17, 2): numpy made object arrays
            return as_float  # (numpy floats too: np.float64(100) gave np.float64 fields, np.float32 float32 sums)
        return x
    if is_array(x) or isinstance(x, (list, tuple)):
        import numpy as np

        unmasked(x, name)
        try:
            arr = np.asarray(x)
        except (TypeError, ValueError):
            raise fail(name, x, "numbers") from None
        if arr.dtype.kind not in "iuf":
            raise fail(name, x, "numbers")
        if isinstance(x, (list, tuple)):  # [True, 8] became [1, 8]: one device
            values = x if arr.ndim == 1 else np.asarray(x, dtype=object).ravel()
            kinds = set(map(type, values))
            if {bool, np.bool_, np.ndarray} & kinds:  # (a 0-d array(True) too)
                flags = [
                    v
                    for v in values
                    if isinstance(v, (bool, np.bool_)) or getattr(v, "dtype", np.dtype(float)).kind == "b"
                ]
                if flags:
                    raise fail(name, flags[0], "numbers, not True or False")
        if arr.size == 0:
            raise fail(name, x, "at least one value")
        return arr
    raise fail(name, x, "a number or an array of numbers")


MASKED = "numbers without masked (missing) values: fill or drop them first"


def unmasked(x: Any, name: str) -> None:
    """A numpy masked array with a masked entry is refused: np.asarray read the hidden value under the mask (a
    masked size of 8 devices was computed as 8, a masked E as the number under it, a masked constant as 0)."""
    if is_array(x):
        import numpy as np

        if isinstance(x, np.ma.MaskedArray) and np.ma.is_masked(x):
            raise fail(name, x, MASKED)


def one(x: Any, name: str) -> Any:
    """An input that is one number, not a sweep (a price, a link's bandwidth, a dataset size): a list or an array
    of several values is refused by name — numpy's 'truth value of an array is ambiguous' named nothing. A
    one-element array is its number; anything else passes to the caller's own check."""
    if not (is_array(x) or isinstance(x, (list, tuple, range))):  # range(100, 102) got through to arithmetic
        # Fraction(17, 2) made numpy object arrays; Decimal('150') (not a numbers.Real) reached arithmetic with floats
        if not isinstance(x, (bool, int, float, str, bytes)) and (isinstance(x, Real) or hasattr(x, "__float__")):
            return as_number(x, name)
        return x
    import numpy as np

    unmasked(x, name)
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError):  # ragged: [8, [16]]
        raise fail(name, x, "one number") from None
    if arr.size != 1 or arr.dtype.kind not in "iuf":
        raise fail(name, x, "one number")
    return arr.item()


def one_length(*named: tuple[Any, str], broadcast: bool = False) -> None:
    """Inputs combined element by element are numbers or arrays of one shape — the batch formulas' rule: [1, 8]
    against [32, 64, 128] raised numpy's 'operands could not be broadcast together', naming neither input. All are
    named, a number as such; 'shapes' where one is not a plain list (2×1 against 2 once read 'lengths 2, 2').
    broadcast: numpy's own rule instead (scale's: a 2×1 column of sizes against a row of 3 rates is a 2×3 grid),
    refusing only the shapes numpy cannot broadcast together, in the same one line."""
    shapes = [getattr(x, "shape", ()) for x, _ in named]
    ok = len({s for s in shapes if s not in ((), (1,))}) <= 1
    if broadcast and not ok:
        import numpy as np  # (loaded: two of them are arrays)

        try:
            np.broadcast_shapes(*shapes)
            ok = True
        except ValueError:
            pass
    if not ok:
        got = ", ".join("a number" if not s else str(s[0]) if len(s) == 1 else "×".join(map(str, s)) for s in shapes)
        word = "lengths" if all(len(s) <= 1 for s in shapes) else "shapes"
        also = ", or shapes numpy broadcasts together (a 2×1 column against a row of 3)" if broadcast else ""
        raise DpscaleError(f"{', '.join(n for _, n in named)}: {word} {got}; allowed: arrays of one length{also}")


def ones(*named: tuple[Any, str]) -> list[Any]:
    """`one` for several (value, name) pairs at once, None (not given) left as None."""
    return [None if x is None else one(x, name) for x, name in named]


def choice(x: Any, name: str, options: tuple[str, ...]) -> str:
    """One of a few lower-case names ('gpipe', 'adam', 'usl'), in any case as the CLI takes them ('GPIPE' was
    refused by the library alone); an array or a list here raised 'unhashable' or numpy's ambiguity error, not this
    line with the valid names."""
    if isinstance(x, str) and x.strip().lower() in options:
        return x.strip().lower()
    raise fail(name, x, ", ".join(options))


def named(text: Any, choices: tuple[str, ...]) -> Any:
    """A name typed in any case ('Ring' is ring, 'ES' es), the one rule of every named choice (the flags' argparse
    type, the page's language, the torchrun worker's flags); a name that matches none stays as typed, so that its
    refusal echoes the user's word ('RINGG', 'ESS'), and a value that is no text (a JSON body's 5) is left for the
    refusal too. (Here, below the faces, so the worker reads its flags as the CLI does.)"""
    return text.lower() if isinstance(text, str) and text.lower() in choices else text


# --zero's stages by name as well as by number (predict, memory, measure and the torchrun worker): DDP is stage 0, and
# FSDP's FULL_SHARD shards what ZeRO-3 does; rows and JSON keep the number
ZERO_NAMES = {"ddp": "0", "zero1": "1", "zero-1": "1", "zero2": "2", "zero-2": "2", "zero3": "3", "zero-3": "3",
              "fsdp": "3"}  # fmt: skip
# what a refusal of --zero allows, said from the table: each stage with its names, a name written with a hyphen
# (zero-1) once as the name without it: "0 (ddp), 1 (zero1), 2 (zero2), 3 (zero3, fsdp)"
ZERO_ALLOWED = ", ".join(
    f"{stage} ({', '.join(dict.fromkeys(n.replace('-', '') for n, s in ZERO_NAMES.items() if s == stage))})"
    for stage in sorted(set(ZERO_NAMES.values()))
)


def zero_named(text: str) -> str | None:
    """A ZeRO stage typed as its number or a name (any case, spaces around it) → its number as text; None for
    anything else (the caller refuses it with ZERO_ALLOWED)."""
    key = text.strip().lower()
    return key if key in ZERO_NAMES.values() else ZERO_NAMES.get(key)


def house_style(message: str) -> str:
    """argparse's refused choice said as every other refusal is: "argument --law: invalid choice: 'x' (choose
    from 'auto', 'constant', …)" → "--law: got 'x'; allowed: auto, constant, …" — the CLI's parser and the torchrun
    worker's (below the faces, as unknown_option is)."""
    import re

    # (a positional too: `measure foo` said argparse's English under --lang es; a value with an apostrophe, which
    # argparse quotes "it's", too: `--law "it's"` was left in argparse's words, English under --lang es as well)
    m = re.fullmatch(
        r"""argument (--[\w-]+|[a-z]\w*)(?:/\S+)?: invalid choice: ('.*'|".*") \(choose from (.+)\)""", message
    )
    if m:
        return f"{m[1]}: got {m[2]}; allowed: {m[3].replace(chr(39), '')}"
    # a type's own refusal ('got X; allowed: Y', zero_stage's): argparse put 'argument --zero: ' before it
    m = re.fullmatch(r"argument (--[\w-]+)(?:/\S+)?: (got ['\"].*; allowed: .+)", message)
    return f"{m[1]}: {m[2]}" if m else message


def text(x: Any, name: str, blank: str = "a name, or None where it is not given") -> Any:
    """A name to look up (a preset, a GPU, a system) is text, or None when not given: '' is refused (`blank` says
    what is allowed), as the CLI refuses `--system ''` (predict(system='') was read as no system: review MV)."""
    if x is None or (isinstance(x, str) and x):
        return x
    raise fail(name, x, blank if isinstance(x, str) else "a name (text)")  # (x == '' of an array is an array)


def check_flag(x: Any, name: str) -> bool:
    """An on/off input: True or False ('abc' was read as on, an array raised numpy's ambiguity error)."""
    if isinstance(x, bool) or (is_array(x) and x.dtype.kind == "b" and x.size == 1):
        return bool(x)
    raise fail(name, x, "True or False")


def extrema(x: Any) -> tuple[float, float]:
    """(min, max) of a scalar or array; NaN anywhere makes the min NaN."""
    if is_array(x):
        return float(x.min()), float(x.max())
    return float(x), float(x)


def _bad(x: Any, ok) -> Any:
    """The first offending element, for the message."""
    if not is_array(x):
        return x
    import numpy as np

    flat = np.ravel(x)
    with np.errstate(invalid="ignore"):
        idx = np.flatnonzero(~ok(flat))
    return flat[idx[0]].item() if idx.size else flat[0].item()


MAX_DEVICES = 10_000_000  # larger than any machine built: a typo, and it overflows the fits and the int64 tables
MAX_SEQ_LEN = 10_000_000  # tokens: ten times the longest published training context; a larger one is a typo
MAX_PARAMS = 1e15  # a thousand times the largest model trained: a larger count is a typo (and overflows)
MIN_PARAMS = 1e3  # fewer is a count in billions typed as such: '--params 7.5' planned 120 bytes for 7.5 B
SIZES_ALLOWED = f"device counts from 1 to {MAX_DEVICES:,} (between whole sizes too)"
PARAMS_ALLOWED = f"a parameter count from 1,000 to {MAX_PARAMS:g} (7.5e9 for 7.5 billion)"
EFFICIENCY_ALLOWED = "a scaling efficiency in (0, 1]"  # check_efficiency's words, and a face's for E it cannot read


def overflow(exc: OverflowError) -> DpscaleError:
    """An input so large that a product leaves floating point (1e308 × 64): the faces' one line for it."""
    return DpscaleError(f"a number too large to compute with ({exc}); allowed: realistic magnitudes")


def check_devices(x: Any, name: str = "devices", most: int | None = None) -> Any:
    """Devices — and other counts (batch, accumulation steps, stages): whole numbers ≥ 1 (and ≤ most)."""
    return counts_and_least(x, name, most)[0]


def counts_and_least(x: Any, name: str = "devices", most: int | None = None) -> tuple[Any, float]:
    """check_devices, and the smallest count it found (whether one device is among 10^7 sizes, without a
    second pass over them)."""
    x = as_number(x, name)
    # with a ceiling, every refusal says it: 0 was told '≥ 1', which 10^8 is, and 10^8 then 'from 1 to 10,000,000'
    allowed = "a whole number ≥ 1" if most is None else f"a whole number from 1 to {most:,}"
    lo, hi = extrema(x)
    if not (lo >= 1) or not math.isfinite(hi):
        raise fail(name, _bad(x, lambda a: (a >= 1) & (a < float("inf"))), allowed)
    if most is not None and hi > most:  # device counts: past any machine built
        raise fail(name, _bad(x, lambda a: a <= most), allowed)
    if hi > 2**53:  # past this, whole numbers are not exact in floating point (and no count is this large)
        raise fail(name, _bad(x, lambda a: a <= 2**53), "a whole number from 1 to 2^53")
    if is_array(x):
        if x.dtype.kind in "iu":  # int8/uint8 counts would wrap in products: int64 holds any count (≤ 2^53)
            return x.astype("int64", copy=False), lo
        if x.dtype.kind == "f":
            import numpy as np

            if not np.all(x == np.floor(x)):
                raise fail(name, _bad(x, lambda a: a == np.floor(a)), allowed)
            return floats(x), lo  # float32 counts: products with 1e38 samples/s overflowed, 1.001 → 1.00100005
    elif x != int(x):
        raise fail(name, x, allowed)
    return x, lo


def check_size_list(x: Any, name: str = "devices", most: int | None = None) -> Any:
    """Device counts to sweep: one whole number or a flat list of them (a table, or [8, [16]], is a mistake).
    A list of plain ints already in range is returned as it is, with no numpy to import (plan's start-up)."""
    if isinstance(x, list) and x and all(type(d) is int and 1 <= d <= min(most or 2**53, 2**53) for d in x):
        return x
    x = check_devices(x, name, most)
    if getattr(x, "ndim", 0) > 1:
        raise fail(name, x, "one device count or a list of them")
    return x


def check_sizes(x: Any, name: str = "devices") -> Any:
    """Where an E source (a law, a fit, a prediction) is read: finite sizes ≥ 1, as a float array. Not whole:
    the sources are continuous, and solve reads them between whole sizes for the exact count."""
    import numpy as np

    given = as_number(x, name)
    arr = np.asarray(given, dtype=float)
    if not np.all((arr >= 1) & (arr <= MAX_DEVICES)):  # 0, −3 or nan devices once gave E = 1; 1e308 gave E = 0
        raise fail(name, _bad(given, lambda a: (a >= 1) & (a <= MAX_DEVICES)), SIZES_ALLOWED)
    return arr


def check_count(x: Any, name: str, most: int | None = None) -> int:
    """One whole number ≥ 1 where one is meant (a micro-batch, one pipeline's devices), as a Python int."""
    x = check_devices(x, name, most)
    if is_array(x):
        if x.size != 1:
            raise fail(name, x, "one whole number ≥ 1")
        x = x.item()
    return int(x)


def floats(x: Any) -> Any:
    """Integer and narrow float arrays as float64: int16 × int16 devices wrap to negative numbers in numpy's integer
    arithmetic, and float32 1e38 × 10^7 devices overflows to inf where float64 holds it."""
    if is_array(x) and (x.dtype.kind in "iu" or (x.dtype.kind == "f" and x.dtype.itemsize < 8)):
        return x.astype(float)
    return x


def is_rate(x: Any) -> TypeGuard[float]:
    """A value read from a file that is one finite number > 0 (not true, not null, not a list): a rate a JSON
    record states, taken where it is one and passed over where it is not."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and 0 < x < math.inf


def check_positive(x: Any, name: str, what: str = "a finite number > 0") -> Any:
    """Throughputs, bandwidths, batch sizes: finite and > 0. Ints come back as floats: a Python int 10^12 times an
    int64 array of 10^7 devices wraps to a negative number in numpy's integer arithmetic."""
    x = floats(as_number(x, name))
    lo, hi = extrema(x)
    if not (lo > 0) or not math.isfinite(hi):
        raise fail(name, _bad(x, lambda a: (a > 0) & (a < float("inf"))), what)
    return float(x) if isinstance(x, int) else x


def check_range(x: Any, name: str, lo: float, hi: float, what: str) -> Any:
    """A physical figure within bounds that keep the arithmetic finite (a 1e-320 GB/s link, a 1e300-byte
    gradient): lo ≤ x ≤ hi, finite. `what` says the bounds in the error."""
    x = floats(as_number(x, name))
    a, b = extrema(x)
    if not (a >= lo) or not (b <= hi):
        raise fail(name, _bad(x, lambda v: (v >= lo) & (v <= hi)), what)
    return x


def check_params(x: Any, name: str = "params") -> Any:
    """A model's parameter count, MIN_PARAMS to MAX_PARAMS: '7.5' meant 7.5 billion, 1e-320 is a typo."""
    return check_range(x, name, MIN_PARAMS, MAX_PARAMS, PARAMS_ALLOWED)


def check_efficiency(x: Any, name: str = "efficiency") -> Any:
    """An efficiency given as input lies in (0, 1]; a measured one may exceed 1 (solve handles that)."""
    x = floats(as_number(x, name))
    lo, hi = extrema(x)
    if not (lo > 0) or not (hi <= 1):
        bad = _bad(x, lambda a: (a > 0) & (a <= 1))
        hint = f" ({bad:g} % = {bad / 100:g})" if isinstance(bad, (int, float)) and 2 <= bad <= 100 else ""
        raise fail(name, bad, f"{EFFICIENCY_ALLOWED}{hint}")
    return x


def devices_question(throughput: Any, efficiency: Any) -> tuple[float | None, float | None]:
    """A `devices_for` question (Fit's and Prediction's alike): exactly one of `throughput` (> 0) or `efficiency`
    (in (0, 1]), one number each, returned as floats (np.float32 too), the other None."""
    if (throughput is None) == (efficiency is None):
        raise DpscaleError("devices_for: give throughput= or efficiency=, one of them")
    if throughput is not None:
        return float(check_positive(one(throughput, "throughput"), "throughput")), None
    return None, float(check_efficiency(one(efficiency, "efficiency"), "efficiency"))  # (2: nan devices)


def check_fraction(x: float, name: str, allowed: str = "a number in [0, 1)") -> float:
    """Scalar parameter in [0, 1): serial fractions, contention σ (a numpy scalar or a fit's value is one number)."""
    x = as_number(one(x, name), name)
    if is_array(x) or not (0 <= x < 1):
        raise fail(name, x, allowed)
    return float(x) + 0.0  # −0.0 is 0: Amdahl(-0.0) printed serial_fraction=-0.0
