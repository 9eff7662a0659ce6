"""Every pointer into the docs resolves: a `docs/NAME.md` the README, the docs, validation/, benchmarks/, src/ or the
tests name is a file, and a section named beside it ('docs/predict.md, "Reading the bottleneck"', 'see "Checked on
published FSDP runs" in docs/predict_report.md') opens a heading, a bold paragraph or a table of that file. Review
GT split the predictor's developers' report off docs/predict.md; a pointer left at the old file would still name a
file that exists, so the section is what tells the two apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SOURCES = [
    ROOT / "README.md",
    *DOCS.glob("*.md"),
    *(ROOT / "validation").rglob("*.md"),
    *(ROOT / "validation").rglob("*.py"),
    *(ROOT / "benchmarks").glob("*.py"),
    *(p for p in (ROOT / "src" / "dpscale").rglob("*") if p.suffix in (".py", ".json", ".html", ".js")),
    *(p for p in (ROOT / "tests").glob("*.py") if p.name != Path(__file__).name),
]
FILE = r"docs/(\w+\.md)`?"
# 'docs/X.md, "S"', 'docs/X.md ("S")', 'docs/X.md "S"', "docs/X.md's 'S'", '"S" in docs/X.md'
AFTER = re.compile(FILE + r"""(?:'s)?,?\s\(?(["'])([^"'\n]{3,80}?)\2""")
BEFORE = re.compile(r""""([^"]{3,80})"\s+in\s+`?""" + FILE)
# inside a doc: 'see "S" below', 'under "S"' (that doc's own sections)
HERE = re.compile(r"""(?:see|under)\s+"([^"]{3,80})"(?!\s+in\s)""")


def _flat(text: str) -> str:
    """Whitespace as one space, so a name wrapped over two lines still reads as one."""
    return " ".join(text.split())


def _opens_a_section(name: str, doc: str) -> bool:
    """Whether `name` begins a heading, a bold paragraph or item, or a table's first cell of the doc."""
    lead = re.escape(_flat(name))
    return bool(re.search(rf"(?:^|\n)(?:#+ `?|(?:- )?\*\*|\| )`?{lead}", doc, re.I))


def _pointers() -> list[tuple[str, str, str | None]]:
    """(where, doc file, section or None) for every pointer into docs/."""
    found = []
    for path in SOURCES:
        text = _flat(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(ROOT))
        found += [(where, m[1], None) for m in re.finditer(FILE, text)]
        found += [(where, m[1], m[3]) for m in AFTER.finditer(text)]
        found += [(where, m[2], m[1]) for m in BEFORE.finditer(text)]
        if path.parent == DOCS:
            found += [(where, path.name, m[1]) for m in HERE.finditer(text)]
            found += [(where, m[1], None) for m in re.finditer(r"\]\((\w+\.md)\)", text)]
    return found


def _unresolved(pointers: list[tuple[str, str, str | None]]) -> list[tuple[str, str, str | None]]:
    bad = []
    for where, name, section in pointers:
        doc = DOCS / name
        if not doc.exists() or (section and not _opens_a_section(section, doc.read_text(encoding="utf-8"))):
            bad.append((where, name, section))
    return bad


def test_every_pointer_into_the_docs_names_a_doc_and_a_section_it_holds():
    pointers = _pointers()
    assert _unresolved(pointers) == []
    sections = {(name, section) for _, name, section in pointers if section}
    assert ("predict.md", "Reading the bottleneck") in sections  # the patterns read what they are for
    assert ("predict_report.md", "What was tried and dropped") in sections
    assert ("predict_report.md", "Checked on published FSDP runs") in sections
    assert len(sections) >= 10


@pytest.mark.parametrize(
    "pointer",
    [
        ("x", "predict.md", "What was tried and dropped"),  # the report's section at the guide's file
        ("x", "predict_report.md", "Reading the bottleneck"),  # the guide's at the report's
        ("x", "predict_log.md", None),  # no such doc
    ],
)
def test_the_check_finds_a_pointer_left_at_the_wrong_doc(pointer):
    assert _unresolved([pointer]) == [pointer]
