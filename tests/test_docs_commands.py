"""Every `dpscale …` line the docs show is one the CLI takes as shown, from the repository root: its options and
choices parse, the presets it names are in the catalog, and the published sets it names are where it says."""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
from glob import glob
from importlib import import_module
from pathlib import Path

import pytest

from dpscale import catalog
from dpscale.faces.cli import COMMANDS, _arranged
from dpscale.faces.cli.common import Parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "validation").glob("*.md"))]
# a line written as a pattern or a fragment, not one to type: an alternative, an optional part, an ellipsis, a
# placeholder in capitals (RUNS.csv, FILE, N), a shell substitution
PATTERN = re.compile(r"[|\[\]…]|\$\(|(?<![\w.-])[A-Z][A-Z_]*(?:\.\w+)?(?![\w-])")
# a flag named in prose without its value (`dpscale measure --out`), or a command named without its file
MENTION = re.compile(r": expected one argument|the following arguments are required")
CATALOG = {"model": "models", "system": "systems", "gpu": "gpus"}


def shown() -> list[tuple[str, str]]:
    """(where, command line after `dpscale`) of every code-block line and inline code span that runs dpscale."""
    lines = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        spans = [m for m in re.finditer(r"```(\w*)\n(.*?)```", text, re.S) if m[1] not in ("python", "json")]
        blocks = [(m.start(), line) for m in spans for line in m[2].replace("\\\n", " ").splitlines()]
        inline = [(m.start(), m[1]) for m in re.finditer(r"`(dpscale(?: [^`]*)?)`", text)]
        for at, line in blocks + inline:
            for part in re.split(r"\s(?:\||&&)(?:\s|$)", line):  # each command of a pipe
                m = re.search(r"(?:^|[\s/$])dpscale((?: .*)?)$", part.strip())
                if m and not re.match(r"(?: [a-z]+)?:", m[1]):  # (`dpscale measure: error: …` is what it prints)
                    lines.append((f"{doc.relative_to(ROOT)}:{text.count(chr(10), 0, at) + 1}", m[1]))
    return lines


def parsed(words: list[str]) -> tuple[argparse.Namespace | None, str]:
    """The namespace the command's own parser makes of the words, or None and what it said."""
    words = _arranged(words)
    command = words.pop(0) if words and not words[0].startswith("-") else "calc"
    if command not in COMMANDS:
        return None, f"no command {command!r}"
    parser = Parser(prog=f"dpscale {command}", allow_abbrev=False)
    import_module(f"dpscale.faces.cli.{COMMANDS[command][0]}").add_arguments(parser)
    said = io.StringIO()
    with contextlib.redirect_stderr(said), contextlib.redirect_stdout(io.StringIO()):
        try:
            return parser.parse_args(words), ""
        except SystemExit:
            return None, said.getvalue().strip()


def wrong(line: str) -> str | None:
    """What is wrong with `dpscale{line}` typed at the repository root, or None: refused options or choices, a
    preset the catalog has not, a published set named where it is not."""
    words = shlex.split(line, comments=True)
    args, said = parsed(list(words))
    if args is None:
        return None if MENTION.search(said) else said
    for flag, kind in CATALOG.items():
        name = getattr(args, flag, None)
        if name is not None and not catalog.key_of(kind, name):
            return f"--{flag} {name}: not in the catalog"
    for word in words:  # a published set is named as it is found from the root
        if re.fullmatch(r"[\w./*-]+\.csv", word) and glob(str(ROOT / "validation" / Path(word).name)):
            if not glob(str(ROOT / word)):
                return f"no {word} from the repository root"
    return None


def test_every_dpscale_line_the_docs_show_parses_names_catalog_presets_and_files_that_exist():
    """A flag or choice renamed, a preset dropped from the catalog or a published set moved leaves the docs telling
    users to type what is refused: validation/holdout_more4.md and holdout_more5.md showed `dpscale validate
    holdout_more4.csv --json`, which from the root (where every other line is typed) said 'DATA: got
    'holdout_more4.csv'; allowed: a readable CSV file (No such file or directory)'."""
    lines = [(where, line) for where, line in shown() if not PATTERN.search(re.split(r"\s#", line)[0])]
    assert [f"{where}: `dpscale{line}`: {bad}" for where, line in lines if (bad := wrong(line))] == []
    assert len(lines) > 80  # the blocks and the spans were read


@pytest.mark.parametrize(
    "line",
    [" predict --model bert-huge", " memory --gpu h100-90gb", " validate holdout_more4.csv", " fit --law ideal"],
)
def test_the_check_finds_a_preset_a_path_or_a_choice_that_is_not_there(line):
    """The sweep above is not empty-handed: each kind of stale line it looks for fails it."""
    assert wrong(line)
