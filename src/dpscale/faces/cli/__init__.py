"""`dpscale` command line: a dispatcher that imports only the command asked for.

Each command is a module in this package with `add_arguments(parser)` and `run(args) -> int`.
`dpscale` alone, or options without a command, run `calc` (the worked example with no inputs).
"""

from __future__ import annotations

import sys
from importlib import import_module

from dpscale.faces import silence_stdout
from dpscale.faces.locale import LANGS, env_lang, lang_named

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# command -> (module, one-line help). Modules are imported only when their command runs.
COMMANDS: dict[str, tuple[str, str]] = {
    "calc": ("calc", "throughput, speedup and E for d devices; solve for any unknown; sweeps over d"),
    "predict": ("predict", "predict E(d) from the model, batch, precision and cluster"),
    "validate": ("validate", "check predictions or fits against a published-measurements CSV"),
    "fit": ("fit", "fit a scaling law to measured runs and extrapolate with intervals"),
    "measure": ("measure", "measure E for real with PyTorch DDP (also: allreduce, equivalence)"),
    "batch": ("batch", "global batch, learning-rate scaling, critical batch"),
    "pipeline": ("pipeline", "pipeline bubble and stacked data-parallel efficiency"),
    "memory": ("memory", "per-device memory for DDP and ZeRO/FSDP; does it fit?"),
    "plan": ("plan", "time to train, device-hours and cost per size"),
    "serve": ("serve", "the web page (calculator, predictor, fit and planners, English and Spanish) on a local port"),
}


def _available() -> list[str]:
    from importlib.util import find_spec

    return [c for c, (mod, _) in COMMANDS.items() if find_spec(f"{__name__}.{mod}") is not None]


def _top_help(lang: str = "en") -> str:
    from dpscale import __version__

    say = _spanish if lang == "es" else str
    lines = [
        say(f"dpscale {__version__} — data-parallel scaling: A = d·v·E, S = d·E"),
        "",
        say("usage: dpscale [COMMAND] [OPTIONS]      (no command: calc; no inputs: the worked example)"),
        "",
        say("commands:"),
    ]
    lines += [f"  {c:<10} {say(COMMANDS[c][1])}" for c in _available()]
    lines += ["", say("`dpscale COMMAND --help` lists a command's options.")]
    return "\n".join(_fit(line) for line in lines)


def _fit(line: str) -> str:
    """A line of the top help wrapped to the terminal as argparse wraps a command's help (its width less 2), at
    spaces only, the rest under where its text starts: a command's description (serve's ran to 104 columns, 119
    in Spanish) or the usage's note."""
    import shutil
    import textwrap

    # (40 at the least: COLUMNS=5 left 'commands:', a line with no space to indent under, wider than the terminal —
    # a ValueError traceback)
    width = max(shutil.get_terminal_size().columns - 2, 40)
    if len(line) <= width:
        return line
    indent = " " * (13 if line.startswith("  ") else line.find(" ") + 1)  # under the description; 'dpscale'
    head, gap, note = line.partition("      (")  # the usage: its note on a line of its own
    if gap:
        line = f"{head}\n{indent}({note}"
    return "\n".join(
        textwrap.fill(part, width, subsequent_indent=indent, break_on_hyphens=False) for part in line.split("\n")
    )


def _spanish(text: str) -> str:
    from dpscale.faces.help_es import spanish  # only for `dpscale --help --lang es`

    return spanish(text) or text


def _lang(argv: list[str]) -> str:
    """--lang as typed, read before any parser does (for the top help and an unknown command); the locale's where
    none is typed or the one typed is none dpscale speaks (`--lang fr`), as a command's parser reads it."""
    lang = next((b for a, b in zip(argv, argv[1:]) if a == "--lang"), None)
    lang = lang or next((a.split("=", 1)[1] for a in argv if a.startswith("--lang=")), None)
    lang = lang_named(lang) if lang else lang  # ('ES' is es, as the parser takes it)
    return lang if lang in LANGS else env_lang()


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:  # `dpscale --help | head -3`: the reader left; nothing more to say
        silence_stdout()
        return 0
    except KeyboardInterrupt:  # (before a command is named; a command's own are _run's)
        return _interrupted("dpscale", _lang(list(sys.argv[1:] if argv is None else argv)))
    except OSError as exc:  # the top help or the version into /dev/full was a traceback (a command's is caught in
        return _cannot_write(exc, "dpscale", _lang(list(sys.argv[1:] if argv is None else argv)))  # _run)


def _plain_stdout() -> None:
    """An output that is not UTF-8 (PYTHONIOENCODING=ascii, a legacy code page such as GBK, which has '·' but not
    'ñ') gets '?' for what it cannot hold: the answer still printed, where the first such character was a
    UnicodeEncodeError traceback. JSON stays exact there (output.to_json escapes instead)."""
    from dpscale.faces import utf8

    if not utf8(sys.stdout) and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")


def _closed_streams() -> None:
    """Standard streams the caller closed (`dpscale calc >&-`, a daemon's `2>&-`), which Python leaves as None: with
    stderr None, print(file=sys.stderr) printed to stdout (the notes in front of --json's JSON); with stdout None,
    print dropped the answer without a word and exit 0, and --csv was a TypeError traceback. Their descriptors are
    put on /dev/null, so no file the command opens takes them (nor a rank inherits one as its stdout); a closed
    stdout then fails as a full disk does (one line, exit 1), a closed stderr has nowhere to say anything; a closed
    stdin stays None, so an input file given as '-' is refused as closed (files.STDIN_CLOSED), not read as empty."""
    import io
    import os

    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
        except OSError:  # (still closed: the lowest free descriptor is this one)
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            os.set_inheritable(fd, True)  # (os.open's are not: a rank would start with it closed again)
        if name == "stdout":
            sys.stdout = _ClosedStdout()
        elif name == "stdin":  # left None: '-' says 'standard input is closed' (a /dev/null stream read as empty)
            continue
        else:
            raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
            setattr(sys, name, io.TextIOWrapper(raw, "utf-8", "backslashreplace", line_buffering=True))


def _quiet_stderr() -> None:
    """A stderr whose reader left (`2> >(head -1)`, a log reader gone) or that cannot be written (`2>/dev/full`, a
    log on a full disk) is let go of in silence, as stdout's reader is: its BrokenPipeError reached main, which took
    it for stdout's and returned 0, and a full disk's OSError was taken for stdout's and exited 1 — so the notes
    --json writes first lost the JSON itself (nothing on stdout), and bad input exited 0 or 1 instead of 2."""
    if not isinstance(sys.stderr, _Stderr):
        sys.stderr = _Stderr(sys.stderr)  # type: ignore[assignment]  # (what print and argparse use of a stream)


class _Stderr:
    """sys.stderr, but a write or flush that fails (a reader that left, a full disk) points its descriptor at
    /dev/null and goes on: what stderr says are notes and refusals, never the answer."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except OSError:
            self._gone()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError:
            self._gone()

    def _gone(self) -> None:
        import os

        try:  # what stays in its buffer flushes into /dev/null: the interpreter's last flush is quiet too
            os.dup2(os.open(os.devnull, os.O_WRONLY), self._stream.fileno())
        except (OSError, ValueError):
            pass

    def __getattr__(self, name: str) -> Any:  # fileno, isatty, encoding, buffer…: the stream's own
        return getattr(self._stream, name)


class _ClosedStdout:
    """A stdout the caller closed: every write fails as a full disk's does (main and _run say it in one line)."""

    encoding = "utf-8"
    errors = "strict"

    def write(self, text: str) -> int:
        import errno

        raise OSError(errno.EBADF, "stdout is closed")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        import io

        raise io.UnsupportedOperation("stdout is closed")


def _main(argv: list[str] | None = None) -> int:
    own_process = argv is None  # the `dpscale` process itself (not a caller's main([...])): it ends with the command
    if own_process:
        _closed_streams()
        _plain_stdout()
        _quiet_stderr()
    argv = _arranged(list(sys.argv[1:] if argv is None else argv))
    if argv and argv[0] in ("-h", "--help", "help"):
        print(_top_help(_lang(argv)))
        return 0
    if argv and argv[0] == "--version":
        from dpscale import __version__

        print(f"dpscale {__version__}")
        return 0
    late = _late_command(argv)
    if late is not None:  # `dpscale --json predict …`: argparse said 'unrecognized …'
        english = f"{late!r} after options; allowed: the command first: dpscale {late} [OPTIONS]"
        return _refuse(_say(english, _lang(argv), "command_first", command=late))
    command = "calc"
    if argv and not argv[0].startswith("-"):
        command = argv.pop(0)
        if command not in COMMANDS or command not in _available():
            valid = ", ".join(_available())
            english = f"unknown command {command!r}; allowed: {valid}"
            # no parser for an unknown one: said in _lang's language
            return _refuse(_say(english, _lang(argv), "unknown_command", command=repr(command), valid=valid))
    return _run(command, argv, own_process)


def _arranged(argv: list[str]) -> list[str]:
    """The words as a command's parser takes them: the language behind the command, `help X` as `X --help`, and
    the language alone with help or the version as the top help or the version."""
    lead, argv = _language_aside(argv)
    if argv[:1] == ["help"] and len(argv) > 1 and not argv[1].startswith("-"):  # `dpscale help calc`: calc's help
        argv = [argv[1], "--help", *argv[2:]]  # (an unknown name is refused as a command below)
    elif argv[:1] == ["help"]:  # `dpscale --lang es help`: the top help, in that language
        argv = ["--help", *argv[1:]]
    # behind any word that leads: a command's flag, or an unknown name refused in that language (`help --lang es
    # zzz` showed calc's help, `--lang es zzz` called zzz calc's stray argument)
    # (before a '--', after which the language would be a stray word: `--lang es calc -- x`)
    end = argv.index("--") if "--" in argv else len(argv)
    argv = [*argv[:end], *lead, *argv[end:]] if argv and not argv[0].startswith("-") else [*lead, *argv]
    if lead and argv[len(lead) :] == ["--version"]:  # `dpscale --lang es --version`: the version, as without it
        return ["--version"]
    bare = [a for a in argv if a not in ("-h", "--help") and not a.startswith("--lang=")]
    if bare[:1] == ["--lang"] and len(bare) == 2 and len(argv) > 2:  # `dpscale --lang es --help`: the top help too
        return ["--help", *argv]
    return argv


def _language_aside(argv: list[str]) -> tuple[list[str], list[str]]:
    """The language typed first (`dpscale --lang es predict …`, a habit the README's bare `dpscale --lang es`
    teaches) or with help (`dpscale help --lang es calc`), set aside to be given back behind the command, which
    takes --lang."""
    language = lambda a: a == "--lang" or a.startswith("--lang=")  # noqa: E731
    i = next((k for k, a in enumerate(argv) if language(a)), None)
    if i is None or (i > 0 and argv[0] != "help"):  # none, or not first and no `help` first: left where typed
        return [], argv
    n = 2 if argv[i] == "--lang" else 1
    return argv[i : i + n], argv[:i] + argv[i + n :]


def _late_command(argv: list[str]) -> str | None:
    """A command named after options (`dpscale --json predict …`), which argparse would call a stray word."""
    if not argv or not argv[0].startswith("-"):
        return None
    flags = ("--json", "--csv", "-h", "--help")  # options that take no value: a command name after them is a command
    # an option carrying its value ('--devices=8', '-d8', or a negative number, '-0.5') is whole too: `-d8 calc` was
    # argparse's 'unrecognized arguments: calc' where `-d 8 calc` was named (review KL)
    whole = lambda p: not p.startswith("-") or p in flags or "=" in p or (len(p) > 2 and p[1] != "-")  # noqa: E731
    return next((a for p, a in zip(argv, argv[1:]) if a in COMMANDS and whole(p)), None)


def _say(english: str, lang: str, key: str, **fields: object) -> str:
    """A line of the dispatcher's own in Spanish under --lang es; any other language is said in English."""
    if lang != "es":
        return english
    from dpscale.faces.i18n import label

    return label(key, "es").format(**fields)


def _refuse(said: str) -> int:
    """A command line no command's parser can read: one line, exit 2."""
    from dpscale.errors import clip

    print(clip(f"dpscale: error: {said}"), file=sys.stderr)
    return 2


def _run(command: str, argv: list[str], own_process: bool) -> int:
    """Parse and run one command, its module imported only now; what it raises is one line and an exit code."""
    try:  # Ctrl-C while the command's modules are imported (predict's options import numpy: its first 0.4 s) was a
        # 30-line KeyboardInterrupt traceback, where a moment later it is one line
        from dpscale.errors import DpscaleError, overflow
        from dpscale.faces.cli.common import Parser, check_number_style

        module = import_module(f"{__name__}.{COMMANDS[command][0]}")
        # no abbreviations: `--overlap` read as --overlap-accumulation and silently changed E (the page takes none)
        parser = Parser(prog=f"dpscale {command}", description=COMMANDS[command][1], allow_abbrev=False)
        module.add_arguments(parser)
    except KeyboardInterrupt:
        return _interrupted(f"dpscale {command}", _lang(argv))
    except ModuleNotFoundError as exc:  # predict's options import numpy
        return _missing(exc, command, _lang(argv))
    try:
        args = parser.parse_args(argv)
    except KeyboardInterrupt:
        return _interrupted(f"dpscale {command}", parser.lang)
    except BrokenPipeError:  # `dpscale calc --help | head -3` (main's: quiet)
        raise
    except OSError as exc:  # its --help into a full disk (argparse said nothing and exit 0)
        return _cannot_write(exc, f"dpscale {command}", parser.lang)
    args.own_process = own_process
    try:
        check_number_style(args, parser)
        return int(module.run(args) or 0)
    except (DpscaleError, OverflowError) as raised:  # (an overflow past every check: its line, said alike)
        error = overflow(raised) if isinstance(raised, OverflowError) else raised
        said = _in_language(error, getattr(args, "lang", "en"))
        print(f"dpscale {command}: error: {parser.as_typed(said)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return _interrupted(f"dpscale {command}", getattr(args, "lang", "en"))
    except ModuleNotFoundError as exc:
        return _missing(exc, command, getattr(args, "lang", "en"))
    except BrokenPipeError:
        return 0
    except OSError as exc:  # stdout on a full disk (/dev/full): one line, not a traceback
        return _cannot_write(exc, f"dpscale {command}", getattr(args, "lang", "en"))


def _missing(exc: ModuleNotFoundError, command: str, lang: str) -> int:
    """A base dependency an install lacks (`pip install --no-deps`): one line, exit 2, as a missing extra's; any
    other missing module is a defect and goes on as the traceback."""
    from dpscale.errors import missing_requirement

    error = missing_requirement(exc, command)
    if error is None:
        raise exc
    print(f"dpscale {command}: error: {_in_language(error, lang)}", file=sys.stderr)
    return 2


def _in_language(error: Exception, lang: str) -> str:
    """A command's one-line error in the user's language where the message has its standard parts (say_error);
    English as it is, without loading the labels."""
    if lang == "en":
        return str(error)
    from dpscale.faces.i18n import say_error

    return say_error(error, lang)


def _interrupted(who: str, lang: str) -> int:
    """Ctrl-C or the SIGTERM a command turns into one: one line, exit 130."""
    print(f"{who}: {_say('interrupted', lang, 'interrupted')}", file=sys.stderr)
    return 130


def _cannot_write(exc: OSError, who: str, lang: str) -> int:
    """stdout that cannot be written (a full disk, /dev/full): one line on stderr and exit 1, not a traceback; an
    error of a file the command opened itself goes on, since its own errors name their flags."""
    if exc.filename is not None:
        raise exc
    silence_stdout()
    why = exc.strerror or exc
    said = f"cannot write the output ({why})"
    if lang == "es":
        from dpscale.faces.i18n import _reason, label

        # the OS's reason said in Spanish where REASONS has it ('No space left on device'), else as it is
        said = _reason(label("cannot_write", "es").format(why=why), "es")
    print(f"{who}: error: {said}", file=sys.stderr)
    return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
