"""Shared CLI pieces: a parser whose errors are one line (`Parser`), the output flags, value parsers (`number`,
`whole`, `parse_devices`, `bandwidth`, `zero_stage`), units (`check_unit`, `runs_unit`), and E(d) from the
efficiency flags (`efficiency_source`, `as_flags`).

Parsers turn text into numbers and raise DpscaleError naming the flag; range checks reuse
`dpscale.errors` so the CLI and the API say the same thing.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from contextlib import contextmanager

from dpscale.errors import (
    DOT_GROUPS,
    MAX_DEVICES,
    PLAIN_DIGITS,
    SUFFIX,
    THOUSANDS_DOT,
    ZERO_ALLOWED,
    DpscaleError,
    check_devices,
    check_efficiency,
    counted,
    fail,
    house_style,
    python_spelled,
    renamed,
    unknown_option,
    zero_named,
)

# (a typed number and count are read in errors, where the torchrun worker reads its flags with them too: review MF)
from dpscale.errors import number as number
from dpscale.errors import whole as whole
from dpscale.faces import named
from dpscale.faces.locale import LANGS, env_lang, lang_named
from dpscale.formulas.units import PER_DEVICE_UNIT as PER_DEVICE_UNIT
from dpscale.formulas.units import UNIT_ALLOWED as UNIT_ALLOWED
from dpscale.formulas.units import canonical_unit, check_unit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence
    from typing import Any, NoReturn


# a value that starts with '-' and a digit: -7e9, -0.5, -1..8, a fit point -1:100, a size -1KB
NEGATIVE = re.compile(r"-(?:\d[\d.,_x:+]*[a-z]*|\.\d+)(?:[eE][-+]?\d+)?|-(?:inf|infinity|nan)", re.IGNORECASE)


MODEL_FILE_HELP = (
    "your own model: a JSON file in the format of the catalog's models.json (kind, params, layers, hidden, heads, "
    "seq_len, …), or a Hugging Face config.json of a Llama, Mistral, Mixtral, Qwen2, Gemma, Gemma 2 or Phi-3 "
    "model, its count derived from its shape (- reads standard input)"
)


def _es(text: Any) -> Any:
    """One help text in Spanish (faces/help_es.py, imported only here); a text with no entry stays English."""
    if not isinstance(text, str) or text == argparse.SUPPRESS:
        return text
    from dpscale.faces.help_es import spanish

    return spanish(text) or text


class _Help(argparse.HelpFormatter):
    """argparse's help, wrapped only at spaces: textwrap's default also breaks after a hyphen, which at 80 columns
    cut a flag in two (plan's "as `dpscale fit --gpus-" / "per-node`"), and words such as leave-one-out."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(self._whitespace_matcher.sub(" ", text).strip(), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False)

    if sys.version_info < (3, 13):

        def _format_action_invocation(self, action: argparse.Action) -> str:
            """An option's names with its value's name once after them, as Python 3.13's argparse writes them
            (`--batch, --micro-batch, -b BATCH`): 3.10 to 3.12 wrote it after each name (`--batch BATCH,
            --micro-batch BATCH, -b BATCH`), so the same help differed by interpreter (and batch's `--micro-batch B,
            -b B` took a line of its own)."""
            if not action.option_strings or action.nargs == 0:
                return super()._format_action_invocation(action)
            value = self._format_args(action, self._get_default_metavar_for_optional(action))
            return ", ".join(action.option_strings) + " " + value


class _SpanishHelp(_Help):
    """argparse's help with every text it shows said in Spanish: usage prefix, titles, description, epilog, helps.

    Each help is translated before argparse fills its `%(default)s`-style placeholders, which the Spanish keeps."""

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: Any = None) -> None:
        super().add_usage(usage, actions, groups, _es(prefix or "usage: "))

    def start_section(self, heading: Any) -> None:
        super().start_section(_es(heading))

    def add_text(self, text: Any) -> None:
        super().add_text(_es(text))

    def _get_help_string(self, action: argparse.Action) -> Any:
        return _es(super()._get_help_string(action))


def _help_in(text: str, lang: str) -> str:
    """An option's help in the language (help_es, read only for this refusal), or as written where it has none."""
    from dpscale.faces.help_es import spanish

    return (spanish(text) if lang == "es" else None) or text


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors and exit code 2 (no usage dump), and its help in Spanish under --lang es."""

    lang = "en"  # set from the command line before parsing, so argparse's own refusals can be said in it
    # the letters of a command's formula a user may type as options, and the option each count is ({'v': '--chunks'}):
    # hinted for a count up to 16 only, since -v 2000 is calc's, plan's and predict's throughput carried over
    letters: dict[str, str] = {}
    # an option a user may reach for that the command has not, and what to type instead, said from the value typed
    # after it: batch's --global-batch (the global batch is what -b, -k and -d multiply to)
    instead: dict[str, Callable[[str, Parser], str]] = {}

    typed: list[str] = []  # the command line as parse_args read it, so a refusal names the option as typed

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def format_help(self) -> str:
        """`--help` (before or after `--lang es`): the English texts stay where written; only the words shown
        are swapped, at format time."""
        if self.lang != "es":
            return super().format_help()
        english, self.formatter_class = self.formatter_class, _SpanishHelp
        try:
            return super().format_help()
        finally:
            self.formatter_class = english

    def _print_message(self, message: str, file: Any = None) -> None:
        """argparse's, without its `except OSError: pass`: `dpscale calc --help` into a full disk was lost without a
        word and exit 0 (the dispatcher says it in one line, as for the top help; a reader that left stays quiet)."""
        if message:
            file = file or sys.stderr
            file.write(message)
            file.flush()

    def as_typed(self, message: str) -> str:
        """A refusal's head ('--microbatches: got …', argparse's 'argument --microbatches/--micro-batches/-m: …')
        named by the spelling the user typed (`--micro-batches 0`): the other read as an option not given."""
        head, colon, rest = message.partition(": ")
        names = head.removeprefix("argument ").split("/")
        action = self._option_string_actions.get(names[0]) if colon and names[0].startswith("--") else None
        if action is None or len(action.option_strings) < 2:
            return message
        said = {t.split("=", 1)[0] for t in self.typed if t.split("=", 1)[0] in action.option_strings}
        # `-m 0`: said by its first name, or by the long name its letter starts (fit's `-d 0`: --devices, not --at);
        # two spellings typed (`--microbatches 2 --micro-batches 3`, given twice): by every name, as one option (one
        # of them alone said the other had been typed once)
        if len(said) != 1:
            return message
        typed = said.pop()
        if not typed.startswith("--"):
            typed = next((n for n in action.option_strings if n.startswith("--" + typed[1:2])), names[0])
        if typed == names[0]:
            return message
        return f"{'argument ' if head.startswith('argument ') else ''}{typed}: {rest}"

    def error(self, message: str) -> NoReturn:
        see = "see --help"
        message = self.as_typed(self._instead(message) or house_style(message) + self._near(message))
        if self.lang != "en":
            from dpscale.faces.i18n import _said, label

            message, see = _said(message, self.lang), label("see_help", self.lang)
        from dpscale.errors import clip

        print(f"{self.prog}: error: {clip(message)} ({see})", file=sys.stderr)
        sys.exit(2)

    def _instead(self, message: str) -> str | None:
        """An option the command has not but whose answer it gives (`instead`), said with how to get it: batch's
        '--global-batch 4096' was told 'did you mean --base-batch?', the reference batch, not the one asked for."""
        if not self.instead or not message.startswith("unrecognized arguments: "):
            return None
        toks = message.split(": ", 1)[1].split()
        for i, tok in enumerate(toks):
            name, eq, value = tok.partition("=")
            if name in self.instead:
                return self.instead[name](value if eq else toks[i + 1] if i + 1 < len(toks) else "", self)
        return None

    def _near(self, message: str) -> str:
        """' (did you mean --devices?)' for a mistyped option: argparse 3.11 says only that it is unrecognised."""
        if not message.startswith("unrecognized arguments: "):
            return ""
        from difflib import get_close_matches

        flags = [f for f in self._option_string_actions if f.startswith("--")]
        toks = message.split(": ", 1)[1].split()
        for i, tok in enumerate(toks):
            letter = self.letters.get(tok[1:2]) if re.fullmatch(r"-[A-Za-z]\S*", tok) else None
            if letter:  # `-v 2`: a count its formula writes v; not `-v 2000`, a rate carried over from calc or plan
                value = (tok[2:] or (toks[i + 1] if i + 1 < len(toks) else "")).removeprefix("=")
                if re.fullmatch(r"[0-9]{1,2}", value) and int(value) <= 16:  # (ASCII: int('²') raised)
                    return f" (did you mean {letter}?)"
            name = tok.split("=", 1)[0]
            if re.fullmatch(r"--[A-Za-z]", name) and "-" + name[2] in self._option_string_actions:
                return f" (did you mean -{name[2]}?)"  # a short flag typed with two dashes: `--v 8` was told --csv
            # a shortened flag (no abbreviations are taken): the one it starts, else the nearest spelling
            starts = self._one_name_each([f for f in flags if f.startswith(name)] if len(name) > 3 else [])
            if 2 <= len(starts) <= 3:  # `--la`: --law or --lang, each said (one guess hid the others)
                return _did_you_mean(starts)
            near = starts[:1] if len(starts) == 1 else tok.startswith("--") and get_close_matches(name, flags, 1, 0.75)
            if near:
                return _did_you_mean(near[:1])
            # a flag's last word alone: `batch --batch 32` (predict's and memory's name for the micro-batch)
            ends = [f for f in flags if f.endswith("-" + name[2:])] if tok.startswith("--") and len(name) > 3 else []
            ends = self._one_name_each(ends)
            if 1 <= len(ends) <= 3:
                return _did_you_mean(ends)
        return ""

    def _one_name_each(self, flags: list[str]) -> list[str]:
        """Of flags that name one option, its first name alone: `plan --pri` was told 'did you mean
        --price-per-device-hour or --price?', one option said as two (pipeline's --microbatches or --micro-batches)."""
        kept: dict[argparse.Action, str] = {}
        for f in flags:
            kept.setdefault(self._option_string_actions[f], f)
        return list(kept.values())

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:  # type: ignore[override]
        """As argparse, but an option typed with an empty value (`--plot ''`, `--sigma ''`) is an error, not a
        silent default: no option here means anything by an empty string."""
        argv = list(sys.argv[1:] if args is None else args)
        self.lang = env_lang()  # the locale's (LANG=es_ES.UTF-8), unless --lang says otherwise
        for i, tok in enumerate(argv):  # the last --lang given
            if tok.startswith("--lang="):
                self.lang = tok.split("=", 1)[1]
            elif tok == "--lang" and i + 1 < len(argv):
                self.lang = argv[i + 1]
        self.lang = lang_named(self.lang)  # ('--lang ES' is es, as the option's type reads it)
        if self.lang not in LANGS:  # one it lacks (`--lang fr`): refused in the locale's, as a
            self.lang = env_lang()  # missing value is (English said it to a Spanish locale)
        argv = self.typed = self._glue_negatives(argv)
        positionals = [a for a in self._actions if not a.option_strings]
        if positionals:  # one (measure's mode) would take the value of an unknown flag: "mode: got '5'"
            words = [c for a in positionals for c in (a.choices or ())]
            said = unknown_option(argv, self._option_string_actions, words)
            if said:
                self.error(f"unrecognized arguments: {said}")
        ns = super().parse_args(argv, namespace)  # argparse's own refusals first ('--unit -v': a missing value)
        self._once(argv)
        for action in self._actions:
            value = getattr(ns, action.dest, None)
            if action.option_strings and value in ("", []) and action.default != value:  # `--x ''`, `--x=--`
                said = action.help if self.lang == "en" or not action.help else _help_in(action.help, self.lang)
                what = f" ({said})" if said and "%" not in said else ""  # what --help says of it
                got = "''" if value == "" else "'--'"
                self.error(f"{max(action.option_strings, key=len)}: got {got}; allowed: a value{what}")
        return ns

    def _glue_negatives(self, argv: list[str]) -> list[str]:
        """`--params -7e9`, `-e -inf`: argparse takes only plain negatives (-7, -0.5) as values, so these said
        "expected one argument" instead of why the value is refused. Glue such a value to its option
        (`--params=-7e9`, `-e-inf`) so that the option's own check names it."""
        out: list[str] = []
        positional = False  # after '--' every token is a value as typed
        for tok in argv:
            prev = out[-1] if out else ""
            if not positional and NEGATIVE.fullmatch(tok) and prev.startswith("-") and prev != "--":
                found = self._reading(prev)
                # only an option standing alone (not '-v-5' or '--x=1', which carry their value already)
                if found and found[0].nargs is None and found[-1] is None:
                    out[-1] = f"{prev}={tok}" if prev.startswith("--") else prev + tok
                    continue
            positional = positional or tok == "--"
            out.append(tok)
        return out

    def typed_value(self, dest: str) -> str | None:
        """The last value typed for an option (`-d 8`, `-d8`, `--devices=8`, read as argparse reads them), for a
        refusal said before parsing ends: batch's `--global-batch 4096 -d 8` is told -b 512 for those 8 devices."""
        value = None
        for i, found in self._options(self.typed):
            if found[0].dest == dest and found[0].nargs != 0:
                explicit = found[-1]  # (the tuple's last part, in argparse's 3.11 and 3.12 shapes alike)
                value = explicit if explicit is not None else self.typed[i + 1] if i + 1 < len(self.typed) else None
        return value

    def _options(self, argv: list[str]) -> list[tuple[int, tuple]]:
        """Each option token's place and argparse's own reading of it (its action first; no abbreviations)."""
        out = []
        for i, tok in enumerate(argv):
            if tok == "--":
                break
            if not tok.startswith("-") or tok == "-":
                continue
            found = self._reading(tok)  # argparse's own reading: `--x=v`, `-d8`
            if found:
                out.append((i, found))
        return out

    def _reading(self, tok: str) -> tuple[Any, ...] | None:
        """argparse's reading of one option token, (action, …, explicit value), or None where it names no option.
        Its shape is the interpreter's (a 3-tuple in 3.11 and 3.12.1, a 4-tuple in 3.13.0, a list of 4-tuples from
        3.12.7) and typeshed's by version, so it is held as Any here: typed as 3.11's tuple, mypy under Python 3.12
        or 3.13 refused the code (4 errors in this file), as it would the list under 3.11."""
        try:
            found: Any = self._parse_optional(tok)
        except argparse.ArgumentError:  # (Python 3.13 raises for an ambiguous one; parsing refuses it)
            return None
        found = found[0] if isinstance(found, list) else found
        return tuple(found) if found and found[0] is not None else None

    def _once(self, argv: list[str]) -> None:
        """An option that takes a value, given twice (`-v 1 -v 2000`), is an error: argparse keeps the last one
        silently. Options meant to repeat (fit's --point) append, and are left alone."""
        seen: set[str] = set()
        for _, found in self._options(argv):
            action = found[0]
            if action.nargs == 0 or isinstance(action, argparse._AppendAction):
                continue
            if action.dest in seen:
                self.error(given_twice("/".join(action.option_strings)))
            seen.add(action.dest)


def _did_you_mean(flags: list[str]) -> str:
    """' (did you mean --law?)', or of two or three: ' (did you mean --law or --lang?)'."""
    said = flags[0] if len(flags) == 1 else f"{', '.join(flags[:-1])} or {flags[-1]}"
    return f" (did you mean {said}?)"


def given_twice(name: str) -> str:
    """The refusal of an option given a second value, on the command line (`-v 1 -v 2000`) and in the page's JSON
    body alike: argparse and JSON's parser both keep the last silently."""
    return f"{name}: given twice; allowed: once (the last would silently win)"


# Options whose values are names or paths: `--model 2.000` is an unknown preset (say the valid ones), not a number,
# and `--recompute flash_attention` a name with an '_' in it, not a number in Python's spelling.
TEXT_OPTIONS = frozenset(
    {"model", "system", "gpu", "schedule", "precision", "unit", "host", "optimizer", "rule", "system_file",
     "calibration", "efficiency_file", "model_file", "out", "plot", "fit", "recompute"}
)  # fmt: skip


def check_number_style(args: Any, parser: argparse.ArgumentParser) -> None:
    """Refuse a number typed in Python's spelling (1_000, １０, ١٠: errors.python_spelled), in any language, and in a
    language that writes 2.000 for two thousand, such a number rather than read it as 2.

    The CLI and the web page both call this after parsing, so `--lang es -v 2.000` is one error everywhere, and every
    flag's number (a count, a range, a duration, a bandwidth with its unit) meets one rule whichever parser reads it."""
    for action in parser._actions:
        value = getattr(args, action.dest, None)
        if not action.option_strings or action.choices or action.dest in TEXT_OPTIONS:  # names and paths: no numbers
            continue
        for text in value if isinstance(value, list) else [value]:  # a repeated option (fit --point) is a list
            if not isinstance(text, str):
                continue
            if action.dest != "only" and python_spelled(text):  # (--only KEY=VALUE: a set-up's name, 'my_model')
                raise fail(next(o for o in action.option_strings if o.startswith("--")), text, PLAIN_DIGITS)
            if getattr(args, "lang", "en") == "en":
                continue
            # a part may carry a unit (--deadline 1.500h, 1d1.500h): its number is what a Spanish reader grouped; its
            # exponent stays with it (1.280e6 is no group, as a file's cell is read: it was refused on a flag)
            parts = (q for p in re.split(r"[,:]", text) for q in re.findall(r"[\d.]+(?:[eE][-+]?\d+)?", p))
            if any(re.fullmatch(DOT_GROUPS, q) for q in parts):
                # the option's first long name, as its other errors say it (--batch, not its alias --micro-batch)
                raise fail(next(o for o in action.option_strings if o.startswith("--")), text, THOUSANDS_DOT)


def runs_unit(typed: str | None, said: str | None, source: str) -> str:
    """The unit of runs read from a file (`source`: RUNS, --fit): the one its records state, which a typed --unit
    must be — fit printed tokens/s runs as samples/s, and plan --fit took them as samples — else the typed one,
    else samples/s."""
    from dpscale.sources.fit_runs import stated_unit  # (fit and plan only: off calc's start-up path)

    if said is not None:
        check_unit(said, f"{source}, unit")
    return stated_unit(typed, said, "--unit", source)


def with_unit(record: dict[str, Any], unit: str) -> dict[str, Any]:
    """A row of --json/--csv with "unit" after its actual_throughput, the figure it labels (calc's and plan's): a
    tokens/s row and a samples/s one were the same, and `plan --efficiency-file` read calc's tokens/s as samples/s."""
    out = {}
    for k, v in record.items():
        out[k] = v
        if k == "actual_throughput":
            out["unit"] = unit
    return out


def same_unit(typed: str, said: str) -> bool:
    """A typed --unit against a file's: one unit written otherwise ('Tokens/s', ' tokens/s') is that unit, for
    plan's --efficiency-file as for fit's and plan --fit's runs (one refused what the other took)."""
    return canonical_unit(typed) == canonical_unit(said)


OUTPUT_KEYS = {"json", "csv", "plot", "lang"}


def nothing_typed(args: argparse.Namespace, add_arguments: Any) -> bool:
    """Every input at its default (output options aside): the command shows its worked example. Anything typed
    and it does not fill in around it — `memory --tensor-parallel 2` once planned 7.5 B parameters on 64 devices
    as if they had been typed."""
    p = Parser(add_help=False)
    add_arguments(p)
    return all(getattr(args, k, v) == v for k, v in vars(p.parse_args([])).items() if k not in OUTPUT_KEYS)


def zero_stage(text: str) -> str:
    """An argparse type for --zero: a stage's number or name (ddp, zero1 or zero-1, zero2, zero3, fsdp; any case,
    spaces around it) is its number; anything else is refused here, echoed as typed, with the stages and their names
    (argparse's choices listed only the numbers, although the names are taken)."""
    stage = zero_named(text)
    if stage is None:
        raise argparse.ArgumentTypeError(f"got {text!r}; allowed: {ZERO_ALLOWED}")
    return stage


def any_case(choices: Sequence[str]) -> Callable[[str], str]:
    """An argparse type for named choices in any case ('Ring' is ring), which leaves a name that matches none as
    typed, so that the error echoes the user's word ('RINGG'), not one they did not write."""
    return lambda text: named(text, tuple(choices))


def add_output_args(p: argparse.ArgumentParser, plot: bool = True) -> None:
    g = p.add_argument_group("output")
    fmt = g.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print JSON (machine keys, plain numbers)")
    fmt.add_argument("--csv", action="store_true", help="print CSV (machine keys, plain numbers)")
    if plot:
        g.add_argument("--plot", metavar="FILE", help="also write a plot (.png, .svg or .pdf)")
    g.add_argument(
        "--lang",
        choices=LANGS,
        type=lang_named,
        default=env_lang(),
        help="labels and number format (es: 115.200; 57,6×); default: the locale's (LANG)",
    )


THOUSANDS_COMMA = "numbers without thousands separators (1024, not 1,024): a comma separates values"
PER_DEVICE_RATE = "a finite per-device throughput > 0"  # calc's and plan's --throughput


def _thousands(parts: list[str], text: str, flag: str) -> None:
    """'1,024' is the list 1 and 24 here, but nobody writes a size or a rate as 024: a part with a leading zero
    says the comma was a thousands separator — refused rather than read as two values."""
    if len(parts) > 1 and any(len(p) > 1 and p[0] == "0" and p[1].isdigit() for p in parts[1:]):
        raise fail(flag, text, THOUSANDS_COMMA)


def numbers(text: str, flag: str, allowed: str = "numbers separated by commas", fraction: bool = False) -> list[float]:
    parts = [t.strip() for t in str(text).split(",")]
    if not parts or any(not t for t in parts):
        raise fail(flag, text, allowed)
    _thousands(parts, text, flag)
    return [number(t, flag, allowed, fraction) for t in parts]


LIST_DECIMAL = "numbers with a decimal point (0.9); a comma separates one value per size"


# A link's rate as NICs and switches are sold (bits) or as the flags take it (bytes): 200Gb/s is 25 GB/s.
RATE_UNITS = {"GB/s": 1.0, "GBps": 1.0, "Gb/s": 1 / 8, "Gbps": 1 / 8, "Gbit/s": 1 / 8, "GbE": 1 / 8,
              "TB/s": 1e3, "Tb/s": 125.0, "Tbps": 125.0}  # fmt: skip
WITH_UNIT = ", or with its unit: 200Gb/s (bits, ÷ 8), 400GbE, 25GB/s"
BANDWIDTH_ALLOWED = f"a bandwidth in GB/s > 0{WITH_UNIT}"


def _unit_at_end(text: str, units: str) -> tuple[str, str] | None:
    """A text's number and the unit that ends it (`units`: an alternation), the spaces around each dropped; None
    where none ends it, or where the number holds a line break (which the '(.*?)' it was read with never took).
    Looked for from the end: a lazy '\\s*(.*?)\\s*UNIT' re-read each run of spaces from every character before it
    — `predict --inter-bw` of 'a', 100,000 spaces and 'x' took 222 s, a page field at its 10,000 characters 1.2 s
    (review LR, as review LM's _currency)."""
    t = text.strip()
    m = re.search(rf"(?:{units})\Z", t)
    if m is None or "\n" in t[: m.start()].rstrip():
        return None
    return t[: m.start()].rstrip(), m[0]


def rate_unit(text: str) -> tuple[str, str] | None:
    """The number and the unit of a rate typed with one ('25 Gb/s'); None for a bare number. Ethernet's GbE in
    any case (400gbe, 400GBE: the E says bits on a wire), the others as written (GB/s is bytes, Gb/s bits)."""
    m = _unit_at_end(text, "|".join(map(re.escape, RATE_UNITS)) + r"|(?i:gbe)")
    return None if m is None else (m[0], "GbE" if m[1].lower() == "gbe" else m[1])


def bandwidth(text: str, flag: str, bounds: tuple[float, float, str] | None = None) -> float:
    """GB/s, the flags' unit, or a figure with its unit: a 25GbE or 200Gb/s network typed as 25 or 200 (bits
    read as bytes) gave a network 8× too fast with no word; with the unit written it is read as meant. bounds:
    (lo, hi, allowed) in GB/s, refused with the text as typed (9e6Gb/s, not its 1125000), and said in every
    refusal of the flag (0 was told '> 0', then 5e-324 'from 0.001', review HR)."""
    allowed = BANDWIDTH_ALLOWED if bounds is None else bounds[2] + WITH_UNIT
    m = rate_unit(text)
    if m is None:
        try:
            x = positive(text, flag, allowed)
        except DpscaleError as exc:  # '400G' is a rate short of its unit, not 4e11 to write out (SUFFIX's hint)
            if getattr(exc, "parts", (None,) * 3)[2] == SUFFIX:
                raise fail(flag, text, allowed) from None
            raise
    else:
        try:
            x = positive(m[0], flag, allowed) * RATE_UNITS[m[1]]
        except DpscaleError as exc:  # the value as typed, unit and all; the number's own hint kept ('1,5': a comma)
            parts = getattr(exc, "parts", None)
            raise fail(flag, text, parts[2] if parts else allowed) from None
    if bounds is not None and not bounds[0] <= x <= bounds[1]:
        raise fail(flag, text, allowed)
    return x


# A hop's latency as the flags take it (µs) or with its unit: the help says µs, and '3.4us' or '3.4µs' (the micro
# sign U+00B5 or Greek mu U+03BC, what a phone or a paper gives) was refused as 'allowed: µs ≥ 0' (review HO)
LATENCY_UNITS = {"us": 1.0, "\u00b5s": 1.0, "\u03bcs": 1.0, "ns": 1e-3, "ms": 1e3}
WITH_TIME_UNIT = ", or with its unit: 3.4us, 3.4µs, 0.5ms"


def latency(text: str, flag: str, bounds: tuple[float, float, str]) -> float:
    """µs, the flags' unit, or a figure with its unit (LATENCY_UNITS); bounds (lo, hi, allowed) in µs, refused
    with the text as typed and the units said in every refusal of the flag."""
    allowed = bounds[2] + WITH_TIME_UNIT
    m = _unit_at_end(text, "|".join(LATENCY_UNITS))
    try:
        x = number(text if m is None else m[0], flag, allowed)
    except DpscaleError as exc:  # the value as typed, unit and all; the number's own hint kept ('3,4': a comma)
        parts = getattr(exc, "parts", None)
        raise fail(flag, text, parts[2] if parts and parts[2] != allowed else allowed) from None
    x *= 1.0 if m is None else LATENCY_UNITS[m[1]]
    if not bounds[0] <= x <= bounds[1]:
        raise fail(flag, text, allowed)
    return x


def positive(text: str, flag: str, allowed: str = "a finite number > 0", fraction: bool = False) -> float:
    x = number(text, flag, allowed, fraction)
    if not x > 0:
        raise fail(flag, text, allowed)
    return x


def min_efficiency(text: str, flag: str = "--min-efficiency") -> float:
    """An E floor for 'largest size that keeps E at or above this' (fit's and predict's question): in (0, 1]."""
    e = number(text, flag, "an efficiency in (0, 1]", fraction=True)
    if not 0 < e <= 1:
        raise fail(flag, text, "an efficiency in (0, 1]")
    return e


_RANGE = re.compile(r"^(?P<a>\d+)\.\.(?P<b>\d+)(?:(?P<op>[x+])(?P<s>\d+(?:\.\d+)?))?$")
MAX_SIZES = 100_000
MAX_RANGE_STEPS = 1_000_000  # a geometric range whose factor is this close to 1 would loop for minutes


def _sizes_text(text: Any) -> str:
    """Sizes as parse_devices reads them: spaces around the punctuation go; spaces between numbers separate them
    ('1 8 64' is 1,8,64, not 1864). Each gap is one space first: '\\s*([,.x+])' re-read a long gap from every space in
    it ('1', 10,000 spaces and 'y' in the page's devices field took 3.5 s: review LR)."""
    one_space = re.sub(r"\s+", " ", str(text).strip())
    return re.sub(r"\s+", ",", re.sub(r"\s*([,.x+])\s*", r"\1", one_space))


def one_size(text: Any) -> bool:
    """Sizes typed as one bare number ('64'), not a list or a range: the command then answers one record (a JSON
    object); a list or a range answers an array whatever it holds, so a script's `-d $LO..$HI` reads the same
    shape when LO == HI (8..8 printed an object, 8..16 an array)."""
    said = _sizes_text(text)
    return "," not in said and ".." not in said


def parse_devices(text: str, flag: str = "--devices") -> list[int]:
    """'64', '1,8,64', '8..1024x2' (geometric), '1..8' or '8..64+8' (arithmetic) → sizes: a range ascending, a list
    in the order typed (calc pairs a list of E with it position by position; plan and measure sort)."""
    allowed = (
        f"whole numbers from 1 to {MAX_DEVICES:,}: N, a list N1,N2,..., or a range A..B, A..BxF (geometric, F > 1), "
        "A..B+S"
    )
    text = _sizes_text(text)
    if ".." in text:
        m = _RANGE.match(text)
        if not m:
            raise fail(flag, text, allowed)
        a, b = int(m["a"]), int(m["b"])
        op, step = m["op"] or "+", float(m["s"] or 1)
        if (
            a < 1
            or b < a
            or b > MAX_DEVICES
            or (op == "x" and step <= 1)
            or (op == "+" and (step < 1 or step != int(step)))
        ):
            raise fail(flag, text, allowed)
        if op == "x" and math.log(b / a) / math.log(step) > MAX_RANGE_STEPS:  # 1..2x1.000000001: ~7e8 steps
            raise fail(
                flag,
                text,
                f"a factor F that reaches B from A in at most N steps (A, B, N = {a}, {b}, {MAX_RANGE_STEPS})",
            )
        sizes: list[int] = []
        x = float(a)
        while round(x) <= b:
            if not sizes or round(x) != sizes[-1]:
                sizes.append(round(x))
            x = x * step if op == "x" else x + step
            if len(sizes) > MAX_SIZES:
                raise fail(flag, text, f"sizes: at most {MAX_SIZES:,}")
        return sizes
    values = []
    _thousands(text.split(","), text, flag)
    if text.count(",") >= MAX_SIZES:  # a megabyte-long list parses for seconds before any other check
        raise fail(flag, text, f"sizes: at most {MAX_SIZES:,}")
    for part in text.split(","):
        x = number(part, flag, allowed) if part else math.nan
        try:
            check_devices(x, flag)
            if x > MAX_DEVICES:
                raise DpscaleError(flag)
        except DpscaleError:
            # the item refused ('1,0,8': '0'), or the whole list where the item is empty ('8,' said got '')
            raise fail(flag, part if part and len(text.split(",")) > 1 else text, allowed) from None
        values.append(int(x))
    return values


DECIMAL_COMMA = "a scaling efficiency in (0, 1] with a decimal point (0.9); a comma separates one value per size"
E_PER_SIZE_NEEDS_DEVICES = "one value, or one per size given in --devices"


def efficiency_source(args: Any, devices: list[int] | None, sizes_typed: bool = True) -> Any:
    """--efficiency (one value or one per size) or --law with its parameters → a number or E(d) source. devices is
    None where none were typed (calc solving for them): an E per size then has no sizes to belong to; sizes_typed
    False where they are the command's default (plan's 1..256x2, batch's 1): one per size that does not match them
    is told to give --devices, not 'got 2 values for 9 device counts' that were never typed."""
    from dpscale.sources.laws import PerSize

    law = getattr(args, "law", None)
    law_flags = {k: getattr(args, k, None) for k in ("sigma", "kappa", "serial_fraction")}
    # the law's flag as typed: '--sigma' alone implies the USL, and a clash must name it, not an untyped --law
    typed = "--law" if law else next((f"--{k.replace('_', '-')}" for k, v in law_flags.items() if v is not None), "")
    if law is None and (law_flags["sigma"] is not None or law_flags["kappa"] is not None):
        law = "usl"
    elif law is None and law_flags["serial_fraction"] is not None:
        law = "amdahl"
    if law and law != "constant":
        if args.efficiency is not None:
            raise DpscaleError(f"--efficiency and {typed}: give one source of E, not both")
        return _usl_or_amdahl(law, law_flags)
    if law == "constant" and args.efficiency is None:  # `batch --law constant` printed no d·E and said nothing
        raise DpscaleError("--law constant: needs --efficiency E (one E for every size)")
    if law == "constant" and any(v is not None for v in law_flags.values()):  # once ignored without a word
        given = next(k for k, v in law_flags.items() if v is not None).replace("_", "-")
        raise DpscaleError(f"--{given}: belongs to --law usl or amdahl; --law constant takes E from --efficiency")
    if args.efficiency is None:
        return None
    values = numbers(args.efficiency, "--efficiency", "a scaling efficiency in (0, 1], or one per size", fraction=True)
    pairs = r"\s*\d\s*,\s*\d+(\s*,\s*\d\s*,\s*\d+)*\s*"  # 0,9 or 0,9,0,8: decimal commas, one E a size
    if re.fullmatch(pairs, args.efficiency) and not all(0 < v <= 1 for v in values):
        # 0,9, 1,5 or 2,5: a decimal comma (as a list, 0 and 9 are no efficiencies; 2 is no 2 %, as 90 would be)
        raise fail("--efficiency", args.efficiency, DECIMAL_COMMA)
    for typed, v in zip(args.efficiency.split(","), values):
        try:
            check_efficiency(v, "--efficiency")
        except DpscaleError as exc:  # named as typed: 1e-400 is read as 0, 2e9 printed as 2000000000
            raise fail("--efficiency", typed.strip(), exc.parts[2]) from None
    if len(values) == 1:
        return values[0]
    if devices is None or (len(values) != len(devices) and not sizes_typed):  # no --devices typed: 'for 0'
        raise fail("--efficiency", args.efficiency, E_PER_SIZE_NEEDS_DEVICES)
    if len(values) != len(devices):
        raise DpscaleError(
            f"--efficiency: got {counted(len(values), 'value')} for {counted(len(devices), 'device count')}; "
            "allowed: one value, or one per device count"
        )
    try:
        return PerSize.of(devices, values)
    except DpscaleError as exc:
        # "efficiency: 8 devices given twice …" names the flag; a standard error keeps its parts (said in Spanish)
        raise (renamed(exc, "--efficiency") if getattr(exc, "parts", None) else DpscaleError(f"--{exc}")) from None


SCALE_FLAGS = {"devices": "--devices", "per_device_throughput": "--throughput", "efficiency": "--efficiency"}


@contextmanager
def as_flags(flags: Mapping[str, str] | Callable[[str], str | None]) -> Iterator[None]:
    """Run library code whose errors name its parameters ('per_device_throughput: got -1; …') and say them under
    the flags the user typed. An error naming no mapped parameter passes as it is, its Spanish parts kept."""
    try:
        yield
    except DpscaleError as exc:
        name = (getattr(exc, "parts", None) or ("",))[0]
        flag = flags(name) if callable(flags) else flags.get(name)
        if flag:
            raise renamed(exc, flag) from None
        product = "devices × per_device_throughput"  # scale()'s overflow names two parameters at once
        if product in str(exc):
            raise DpscaleError(str(exc).replace(product, "--devices × --throughput")) from None
        raise


def _usl_or_amdahl(law: str, law_flags: dict[str, str | None]) -> Any:
    """--law usl or amdahl (typed, or implied by its flags) built from its parameters' flags, each checked against
    the other law's."""
    from dpscale.sources.laws import KAPPA_ALLOWED, SERIAL_ALLOWED, SIGMA_ALLOWED, USL, Amdahl

    if law == "usl":
        if law_flags["serial_fraction"] is not None:
            raise DpscaleError("--serial-fraction: belongs to --law amdahl; for usl give --sigma/--kappa")
        if law_flags["sigma"] is None and law_flags["kappa"] is None:  # both 0 would be E = 1: say so instead
            raise DpscaleError("--law usl: needs --sigma and/or --kappa (σ in [0, 1), κ in [0, 1]; a missing one is 0)")
        sigma = number(law_flags["sigma"] or "0", "--sigma", SIGMA_ALLOWED, fraction=True)
        kappa = number(law_flags["kappa"] or "0", "--kappa", KAPPA_ALLOWED, fraction=True)
        return _named(USL, sigma, kappa)
    if law_flags["sigma"] is not None or law_flags["kappa"] is not None:
        raise DpscaleError("--sigma/--kappa: belong to --law usl; for amdahl give --serial-fraction")
    if law_flags["serial_fraction"] is None:
        raise DpscaleError("--law amdahl: needs --serial-fraction S (S in [0, 1))")
    s = number(law_flags["serial_fraction"], "--serial-fraction", SERIAL_ALLOWED, fraction=True)
    return _named(Amdahl, s)


def _named(cls: type, *values: float) -> Any:
    """Build a law, renaming its parameter errors to the CLI flags."""
    with as_flags({"sigma": "--sigma", "kappa": "--kappa", "serial_fraction": "--serial-fraction"}):
        return cls(*values)


def add_efficiency_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("scaling efficiency E(d)")
    g.add_argument("--efficiency", "-e", metavar="E", help="E in (0, 1]: one value, or one per device count")
    from dpscale.sources.laws import LAWS

    g.add_argument("--law", choices=LAWS, type=any_case(LAWS), help="E(d) from a scaling law")
    g.add_argument("--sigma", metavar="σ", help="USL contention σ in [0, 1)")
    g.add_argument("--kappa", metavar="κ", help="USL coherency κ from 0 to 1")
    g.add_argument("--serial-fraction", metavar="S", help="Amdahl serial fraction in [0, 1)")


def derived_note(preset: dict[str, Any], path: str | None, lang: str, seq_len: int | None = None) -> list[str]:
    """Where a Hugging Face config gave the model (predict's and memory's --model-file), what was derived from it:
    its count, from its shape, and its sequence length, its max_position_embeddings or the length pre-trained at
    before RoPE scaling extended its context — or, where --seq-len typed another (`seq_len`), that one, the config's
    beside it ([] for any other model). Here, not in either command's module, as both say it (the i18n imports
    lazy: calc's start-up reads this module)."""
    if not path or "hf_model_type" not in preset:
        return []
    from dpscale.faces.i18n import count_said, label
    from dpscale.faces.i18n import number as fmt
    from dpscale.files import is_stdin, shown_name

    file = label("stdin_name", lang) if is_stdin(path) else shown_name(path)
    n, s, c = count_said(float(preset["params"]), lang), fmt(preset["seq_len"], "int", lang), preset.get("hf_context")
    typed = preset["hf_model_type"]
    # (Phi-3's original length is beside rope_scaling, not in it)
    rope = ("model_hf_derived_phi3", "model_hf_field_phi3") if typed == "phi3" else (
        "model_hf_derived_rope", "model_hf_field_rope")  # fmt: skip
    field = rope[1] if c else "model_hf_field"
    form = label(f"model_hf_form_{'llama' if typed in ('mistral', 'mixtral') else typed}", lang)
    if seq_len is not None and seq_len != preset["seq_len"]:  # the run's sequence is the one typed (review JI)
        own = label(field, lang).format(c=s)
        return [label("model_hf_derived_seq", lang).format(file=file, type=typed, n=n, s=fmt(seq_len, "int", lang),
                                                           c=own, form=form)]  # fmt: skip
    said = label(rope[0] if c else "model_hf_derived", lang)
    return [said.format(file=file, type=typed, n=n, s=s, c=fmt(c or 0, "int", lang), form=form)]
