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


PREDICT_DOC = (ROOT / "docs" / "predict.md").read_text(encoding="utf-8")


def _json(capsys, argv: list[str]):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_readme_solve_and_sweep_examples_are_what_the_cli_prints(capsys):
    # '--actual 100000 # target → 56 devices (55.56 exact)' and '`-d 1,8,64 -e 0.9` gives 2,000, 14,400 and 115,200'
    devices, exact = re.search(r"--actual 100000 +# target → (\d+) devices \(([\d.]+) exact\)", README).groups()
    assert main(["calc", "--throughput", "2000", "--efficiency", "0.9", "--actual", "100000"]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"devices +{devices}\n", out) and f"{exact} devices needed exactly" in out
    # the command as the README writes it (it once left out -v, which calc needs: exactly three inputs)
    command, *shown = re.search(r"`(-d [^`]+)` gives ([\d,]+),\s+([\d,]+)\s+and ([\d,]+) samples/s", README).groups()
    got = _json(capsys, ["calc", *command.split()])
    assert [r["actual_throughput"] for r in got] == [float(s.replace(",", "")) for s in shown]


def test_readme_memory_figures_are_what_the_cli_prints(capsys):
    # Llama-7B on one DGX H100: 'model states take 108 GB a GPU under DDP, 37 GB under ZeRO-1 and 13.5 GB under ZeRO-3'
    said = re.search(r"take (\d+) GB a GPU under DDP, (\d+) GB under ZeRO-1 and ([\d.]+) GB", README).groups()
    ddp, z1, z3 = map(float, said)
    cmd = re.search(r"`dpscale (memory --model llama-7b\s+-d 8 --gpu h100-80gb --recompute selective)`", README)
    cmd = cmd[1].split()
    gb = {r["stage"]: r["model_state_bytes_per_device"] / 1e9 for r in _json(capsys, cmd)}
    assert (round(gb[0]), round(gb[1]), round(gb[3], 1)) == (ddp, z1, z3)
    # the ZeRO paper's 7.5B on 64 devices: '120, 31.4, 16.6, 1.9 GB'
    shown = [float(x) for x in re.split(r",\s+", re.search(r"7\.5B on 64 devices: ([\d.,\s]+) GB", README)[1])]
    got = _json(capsys, ["memory", "--params", "7.5e9", "--devices", "64"])
    assert [round(r["model_state_bytes_per_device"] / 1e9, 1) for r in got] == shown


def test_predict_doc_zero_table_is_what_the_cli_predicts(capsys):
    """docs/predict.md's 'E at 8 / 64 / 512 devices' table, DDP and ZeRO-1/2/3, row by row (it drifted once, when the
    bert-large preset's parameter count was corrected: 0.804 → 0.806 at 64 devices)."""
    commands = {
        "Llama-7B": ["--model", "llama-7b", "--precision", "bf16", "--batch", "4", "--gpu", "h100-80gb", "--mfu", "0.4",
                     "--system", "dgx-h100"],
        "BERT-large": ["--model", "bert-large", "--precision", "amp", "--batch", "32", "--throughput", "150",
                       "--system", "dgx-a100"],
        "GPT-2": ["--model", "gpt2-xl", "--precision", "bf16", "--batch", "4", "--system", "dgx-h100"],
    }  # fmt: skip
    sizes = {"GPT-2": "128,512,1024"}  # the row says its sizes
    head = "| E at 8 / 64 / 512 devices | DDP | ZeRO-1 | ZeRO-2 | ZeRO-3 |"
    table = PREDICT_DOC.split(head, 1)[1].split("\n\n", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert [r.split()[1] for r in rows] == list(commands)
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        for cell, zero in zip(cells[1:], ([], ["--zero", "1"], ["--zero", "2"], ["--zero", "3"]), strict=True):
            name = cells[0].split()[0]
            got = _json(capsys, ["predict", *commands[name], "-d", sizes.get(name, "8,64,512"), *zero])
            assert " / ".join(f"{r['efficiency']:.3f}" for r in got) == cell, (cells[0], zero)


def test_predict_doc_zero_prose_is_what_the_cli_predicts(capsys):
    """docs/predict.md's figures around the ZeRO table, each from the command its sentence describes (the table is
    held above; these sentences were not, and a change to buckets, latencies or the stage-1 gather moves them)."""
    doc = " ".join(PREDICT_DOC.split())

    def at(argv: list[str], key: str = "efficiency") -> float:
        (rec,) = _json(capsys, ["predict", *argv])
        return rec[key]

    # 'GPT-2 large (36 layers, bf16, batch 8, AWS p5) … 0.742 under DDP … 0.689 under stage 2 (0.659 under stage 1)'
    ddp, z2, z1 = re.search(
        r"against (\d\.\d+) under DDP,.*? it is (\d\.\d+) under stage 2 \((\d\.\d+) under stage 1", doc
    ).groups()
    gpt2 = ["--model", "gpt2-large", "--precision", "bf16", "--batch", "8", "--system", "aws-p5", "-d", "1024"]
    assert [f"{at([*gpt2, *z]):.3f}" for z in ([], ["--zero", "2"], ["--zero", "1"])] == [ddp, z2, z1]
    # Llama-7B ZeRO-1 at 512 H100s: the gather exposed ('0.913, now 0.881'), and all of it under --no-overlap (0.851)
    now = re.search(r"Llama-7B at 512 H100s [\d.]+, now (\d\.\d+)", doc)[1]
    blocked = re.search(r"\(Llama-7B ZeRO-1 at 512 H100s: E (\d\.\d+)\)", doc)[1]
    llama = ["--model", "llama-7b", "--precision", "bf16", "--batch", "4", "--gpu", "h100-80gb", "--mfu", "0.4",
             "--system", "dgx-h100", "-d", "512", "--zero", "1"]  # fmt: skip
    assert (f"{at(llama):.3f}", f"{at([*llama, '--no-overlap']):.3f}") == (now, blocked)
    # GPT-2 XL at 1,024 GPUs: '728 ms a step in collectives …, against 52 ms of DDP's all-reduce'; LL128 'at 0.285'
    z3_ms, ddp_ms = re.search(r"spend (\d+) ms a step in collectives at 1,024 GPUs, against (\d+) ms", doc).groups()
    xl = ["--model", "gpt2-xl", "--precision", "bf16", "--batch", "4", "--system", "dgx-h100", "-d", "1024"]
    assert round(at([*xl, "--zero", "3"], "allreduce_s") * 1e3) == int(z3_ms)
    assert round(at(xl, "allreduce_s") * 1e3) == int(ddp_ms)
    ll128 = re.search(r"\(`--alpha-intra 2 --alpha-inter 5`\) leave it at (\d\.\d+)", doc)[1]
    assert f"{at([*xl, '--zero', '3', '--alpha-intra', '2', '--alpha-inter', '5']):.3f}" == ll128
    # the audit's latency note: '`predict --model bert-large --precision amp --system dgx-a100 -d 16`: 0.7013 → 0.7009'
    cmd, before, after = re.search(
        r"`predict (--model bert-large [^`]+)`: (\d\.\d+) → (\d\.\d+) with `--alpha-intra 6`", doc
    ).groups()
    assert (f"{at(cmd.split()):.4f}", f"{at([*cmd.split(), '--alpha-intra', '6']):.4f}") == (before, after)


def test_calculators_doc_bad_input_lines_are_what_the_cli_prints(capsys):
    """docs/calculators.md's 'Bad input' examples: each command, then the one line it prints on stderr."""
    doc = (ROOT / "docs" / "calculators.md").read_text(encoding="utf-8").split("## Bad input", 1)[1]
    shown = re.findall(r"\n +\$ dpscale (.+)\n +(dpscale .+: error: .+)", doc)
    assert len(shown) == 2
    for cmd, line in shown:
        assert main(cmd.split()) == 2
        assert capsys.readouterr().err.strip() == line


def test_readme_web_api_example_is_what_the_page_answers():
    """The curl body the README shows, posted to the app: the keys it names, the worked example's records."""
    import pytest

    pytest.importorskip("fastapi")
    pytest.importorskip("httpx2")
    from fastapi.testclient import TestClient

    from dpscale.faces.web.app import create_app

    body = re.search(r"-d '(\{.*\})'", README)[1]
    r = TestClient(create_app()).post("/api/calc", json=json.loads(body))
    keys = re.search(r"answers `\{(.*?)\}`", README)[1]
    assert r.status_code == 200 and list(r.json()) == json.loads(f"[{keys}]")
    assert r.json()["records"]["actual_throughput"] == 115200.0 and "115.200" in json.dumps(r.json()["table"])


CALC_DOC = (ROOT / "docs" / "calculators.md").read_text(encoding="utf-8")


def doc_examples(text: str) -> list[tuple[str, list[str]]]:
    """Each indented `$ dpscale …` example (a trailing backslash continues it) with the output lines shown under it,
    the '← …' annotations cut; a '(…)' line stands for printed lines the doc summarises."""
    out: list[tuple[str, list[str]]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("    $ dpscale "):
            i += 1
            continue
        cmd = lines[i][6:]
        while cmd.endswith("\\"):
            i += 1
            cmd = cmd[:-1] + lines[i].strip()
        shown = []
        i += 1
        while i < len(lines) and lines[i].startswith("    ") and not lines[i].startswith("    $ "):
            shown.append(lines[i][4:].split("  ←")[0].rstrip())
            i += 1
        out.append((cmd, shown))
    return out


def test_calculators_doc_examples_are_what_the_cli_prints(capsys):
    """docs/calculators.md's examples are the CLI's output line for line, a '(…)' line standing for one or more
    printed lines: an audit found three of them in a layout the tool had left (no title, rows and notes missing)."""
    import shlex

    checked = 0
    for cmd, shown in doc_examples(CALC_DOC):
        if not shown:  # a command whose output the doc does not show (it writes a file)
            continue
        main(shlex.split(cmd)[1:])
        got = [line.rstrip() for part in capsys.readouterr() for line in part.splitlines()]
        at, skipping = 0, False
        for line in shown:
            if line.startswith("("):
                at, skipping = at + 1, True
                continue
            while skipping and at < len(got) and got[at] != line:
                at += 1
            assert at < len(got) and got[at] == line, f"{cmd}: printed {got[at : at + 1]}, the doc shows {line!r}"
            at, skipping = at + 1, False
        assert skipping or at == len(got), f"{cmd}: printed more than the doc shows: {got[at:]}"
        checked += 1
    assert checked >= 6  # batch, pipeline, memory, plan and the two refusals


DOCS = {p.name: p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]}
FLAG = r"(?<![\w-])--[a-z][\w-]*"
# flags of other tools the docs name: torchrun, Slurm, Megatron-LM, TensorFlow, ruff, the benchmarks' scripts
FOREIGN = {
    *("--nnodes", "--nproc-per-node", "--rdzv-backend", "--rdzv-endpoint", "--rdzv-id", "--rdzv-conf"),
    *("--nodes", "--ntasks-per-node", "--cpus-per-task", "--bf16", "--grad-reduce-in-bf16", "--use_xla"),
    *("--check", "--flag"),  # ruff format --check; DEVELOPING.md's `DpscaleError("--flag: got X …")`
}


def _options() -> dict[str, set[str]]:
    from importlib import import_module

    from dpscale.faces.cli import COMMANDS
    from dpscale.faces.cli.common import Parser
    from dpscale.sources.measure.worker import parser

    options = {}
    for command, (module, _) in COMMANDS.items():
        p = Parser(prog=f"dpscale {command}", allow_abbrev=False)
        import_module(f"dpscale.faces.cli.{module}").add_arguments(p)
        options[command] = set(p._option_string_actions)
    options["worker"] = set(parser()._option_string_actions)
    return options


def test_every_flag_the_docs_name_is_an_option_of_its_command():
    """A flag renamed or dropped leaves the docs telling users to type what is refused: each `dpscale CMD …` the
    README and docs/ show (in code, up to a comment) uses only CMD's options, and every other flag they name is
    some command's, a benchmark script's or another tool's (FOREIGN)."""
    options = _options()
    scripts = [p.read_text(encoding="utf-8") for p in (ROOT / "benchmarks").glob("*.py")]
    bench = {f for s in scripts for f in re.findall(r"add_argument\(\"(--[\w-]+)", s)}
    known = set().union(*options.values(), bench, FOREIGN)
    commands = "|".join(c for c in options if c != "worker")
    checked = 0
    for name, text in DOCS.items():
        for m in re.finditer(rf"dpscale(?: ({commands})\b|\.sources\.measure\.(worker)\b)([^`#\n]*)", text):
            wrong = [f for f in re.findall(FLAG, m[3]) if f not in options[m[1] or m[2]]]
            assert not wrong, f"{name}: {m[0]!r} names {wrong}, not options of {m[1] or m[2]}"
            checked += 1
        assert not (unknown := set(re.findall(FLAG, text)) - known), f"{name} names {sorted(unknown)}: no such option"
    assert checked > 60
