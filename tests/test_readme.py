"""The README stays true: its test command is what CI runs, and its worked example is what dpscale prints."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dpscale.faces.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def quick_start_commands() -> list[str]:
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.+?)\n```", section)


def test_quick_start_has_exactly_two_commands():
    cmds = quick_start_commands()
    assert len(cmds) == 2
    assert cmds[0].endswith("dpscale") and "pytest" in cmds[1]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_cmd = quick_start_commands()[1].replace("python3 ", "$PY ")
    assert test_cmd in ci


def test_readme_json_example_is_what_the_cli_prints(capsys):
    shown = re.search(r"--efficiency 0.9 --json\n(\{.+\})", README)[1]
    main(["calc", "--devices", "64", "--throughput", "2000", "--efficiency", "0.9", "--json"])
    assert json.loads(capsys.readouterr().out) == json.loads(shown)
