"""What the distributions ship: the sdist and the wheel built from this tree by setuptools' own hooks (as pip and
`python -m build` call them), their file lists read back."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import dpscale

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "dpscale"
# what a working tree holds besides its files (a virtual environment with torch is gigabytes)
LEFT_OUT = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*cache", ".hypothesis"
)


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> tuple[list[str], list[str], str]:
    """(the sdist's paths below its top folder, the wheel's paths, the wheel's METADATA)."""
    setuptools = pytest.importorskip("setuptools")
    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip("pyproject's [build-system] needs setuptools>=77")
    tree = tmp_path_factory.mktemp("tree") / "dpscale"
    shutil.copytree(ROOT, tree, ignore=LEFT_OUT)
    out = tree.parent / "dist"
    # (the hooks rewrite sys.argv: the folder is read first)
    code = "import sys; from setuptools import build_meta as b; o = sys.argv[1]; b.build_sdist(o); b.build_wheel(o)"
    done = subprocess.run([sys.executable, "-c", code, str(out)], cwd=tree, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (sdist,), (wheel,) = out.glob("*.tar.gz"), out.glob("*.whl")
    with tarfile.open(sdist) as t:
        s = [m.name.split("/", 1)[1] for m in t.getmembers() if m.isfile()]
    with zipfile.ZipFile(wheel) as z:
        w = z.namelist()
        meta = z.read(f"dpscale-{dpscale.__version__}.dist-info/METADATA").decode()
    return s, w, meta


def package_files() -> list[str]:
    """Every file of the package in the source tree, code and data (catalogs, the page, py.typed) alike."""
    return sorted(
        p.relative_to(PKG.parent).as_posix() for p in PKG.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    )


@pytest.mark.slow
def test_both_distributions_hold_every_package_file_and_nothing_else(dists):
    sdist, wheel, _ = dists
    files = package_files()
    assert {"dpscale/catalog/gpus.json", "dpscale/faces/web/index.html", "dpscale/py.typed"} <= set(files)
    assert not set(files) - {n for n in wheel}, "a package file the wheel lacks"
    assert not {f"src/{f}" for f in files} - set(sdist), "a package file the sdist lacks"
    # the sdist: the package, its build files and setuptools' own; 45 test files without conftest.py or
    # clihelp.py (which they import) shipped there, and ran nowhere
    top = {"PKG-INFO", "README.md", "pyproject.toml", "setup.cfg", "MANIFEST.in", "LICENSE"}
    stray = [n for n in sdist if n not in top and not n.startswith(("src/dpscale/", "src/dpscale.egg-info/"))]
    stray += [
        n for n in sdist if n.startswith("src/dpscale/") and n[len("src/") :] not in files and not n.endswith("/")
    ]
    assert not stray
    dist_info = f"dpscale-{dpscale.__version__}.dist-info/"
    assert not [n for n in wheel if n not in files and not n.startswith(dist_info)]


@pytest.mark.slow
def test_the_license_named_in_the_metadata_ships_with_both(dists):
    """MIT asks that its text go with every copy: 'License-Expression: MIT' shipped with no license text."""
    sdist, wheel, meta = dists
    assert "LICENSE" in sdist and f"dpscale-{dpscale.__version__}.dist-info/licenses/LICENSE" in wheel
    assert "License-Expression: MIT" in meta and "License-File: LICENSE" in meta
    assert "Permission is hereby granted, free of charge" in (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_an_install_without_numpy_refuses_each_command_that_needs_it_in_one_line():
    """`pip install --no-deps dpscale` (or numpy removed later) leaves calc working, which needs no numpy, but
    predict, fit, validate, measure and plan --fit were a 12-line ModuleNotFoundError traceback, exit 1: each now
    says the dependency and its range (pyproject's, as installed) in one line, exit 2, as a missing extra does."""
    import re

    spec = re.search(r'dependencies = \["(numpy[^"]*)"\]', (ROOT / "pyproject.toml").read_text(encoding="utf-8"))[1]
    blocked = "import sys; sys.modules['numpy'] = None; from dpscale.faces.cli import main; sys.exit(main())"

    def without_numpy(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-c", blocked, *argv]
        return subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=ROOT)

    calc = without_numpy("calc", "-d", "64", "-v", "2000", "-e", "0.9", "--json")
    assert calc.returncode == 0 and '"actual_throughput": 115200.0' in calc.stdout
    for argv in (
        ["predict", "--model", "bert-large", "--system", "dgx-a100", "-d", "8,64"],
        ["fit", "--point", "1:100", "--point", "8:700", "--point", "16:1300"],
        ["validate", "validation/published_scaling_dev.csv"],
        ["measure", "--devices", "1,2"],
        ["plan", "--fit", "-", "-d", "32", "-n", "1e9"],
    ):
        done = without_numpy(*argv, stdin="devices,throughput\n1,100\n8,700\n16,1300\n")
        said = f"dpscale {argv[0]}: error: {argv[0]}: needs numpy; allowed: pip install '{spec}'\n"
        assert (done.returncode, done.stderr) == (2, said), argv
    done = without_numpy("predict", "--model", "gpt2", "--lang", "es")
    said = f"dpscale predict: error: predict: necesita numpy; se admite: pip install '{spec}'\n"
    assert (done.returncode, done.stderr) == (2, said)


def test_repeated_runs_are_judged_with_the_numpy_the_floor_allows(monkeypatch):
    """pyproject takes numpy>=1.24, whose 1.x releases have no np.trapezoid (numpy 2.0's name; 2.4 has no trapz):
    fit_runs.range_95 called it, so a fit of repeated runs (`fit runs.csv` with 1,1000 / 1,1010 / 1,990 …), the
    practice docs/fit.md asks for, was an AttributeError traceback under numpy 1.24.4 — 42 tests failed there."""
    import math

    import numpy as np

    from dpscale.sources import fit_runs

    monkeypatch.delattr(np, "trapezoid", raising=False)
    monkeypatch.delattr(np, "trapz", raising=False)
    fit_runs.range_95.cache_clear()
    try:
        two = math.sqrt(2) * 1.959963984540054  # the range of two normal draws: √2·|Z|, its 95th percentile
        assert fit_runs.range_95(2) == pytest.approx(two, abs=1e-6)
        assert [round(fit_runs.range_95(n), 2) for n in (3, 10)] == [3.31, 4.47]  # Pearson & Hartley's table
    finally:
        fit_runs.range_95.cache_clear()  # (no value computed without numpy's own is kept for later tests)


def declared_floors(extra: str | None = None) -> dict[str, str]:
    """Each package's floor on `pip install dpscale[extra]` (the dependencies and that extra; every extra where None),
    by canonical name: the lowest over its declarations there, "0" for one with none (`>=`, `~=` or `==`). One name
    declared twice kept the last: `starlette>=1.0` in web beside `starlette>=1.7` in test read as 1.7."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    from packaging.version import Version

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    floors: dict[str, Version] = {}
    for spec in [*project["dependencies"], *(s for name in ([extra] if extra else extras) for s in extras[name])]:
        req = Requirement(spec)
        versions = [s.version.removesuffix(".*") for s in req.specifier if s.operator in (">=", "~=", "==")]
        floor = max((Version(v) for v in versions), default=Version("0"))
        name = canonicalize_name(req.name)
        floors[name] = min(floors.get(name, floor), floor)
    return {name: str(v) for name, v in floors.items()}


def test_a_floor_is_the_lowest_any_declaration_allows(tmp_path, monkeypatch):
    """The floor checks read every declaration of a name: a higher one elsewhere, another spelling, or a bare name
    in the extra that ships the code does not hide the release an install may get."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\ndependencies = ["numpy>=1.24"]\n[project.optional-dependencies]\n'
        'web = ["fastapi>=0.133", "Starlette>=1.0", "uvicorn"]\ntest = ["dpscale[web]", "starlette>=1.7", '
        '"uvicorn>=0.29", "torch==2.13.*"]\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert declared_floors()["starlette"] == "1.0" and declared_floors()["uvicorn"] == "0"
    assert declared_floors("web") == {"numpy": "1.24", "fastapi": "0.133", "starlette": "1.0", "uvicorn": "0"}
    assert declared_floors("test")["torch"] == "2.13"


# What the code relies on that older releases than these lack (the floor run in docs/DEVELOPING.md found them):
# a floor below one is a promise the package breaks on an install the floor allows.
NEEDS = [  # (the extra that ships the code, the package, the oldest release it runs on, why)
    ("web", "starlette", "1.7", "TrustedHostMiddleware reads '[::1]:8000' (1.6 cut it at ':': --host ::1 said 400)"),
    ("web", "fastapi", "0.133", "the first FastAPI that admits starlette 1.7 (0.132 and older pin starlette<1.0)"),
    ("plot", "matplotlib", "3.7.1", "a wrapped suptitle gets its height (3.7.0 measured one line: over the axes)"),
]


def test_the_floor_constraints_pin_each_declared_floor_exactly():
    """constraints-min.txt installs the oldest releases pyproject allows (docs/DEVELOPING.md): a floor raised or
    lowered in one and not the other would check releases the package does not declare. The floor check once pinned
    'matplotlib==3.7.*', which takes 3.7.5: 3.7.0, which the floor allowed, was never run (its wrapped title)."""
    from packaging.version import Version

    lines = (ROOT / "constraints-min.txt").read_text(encoding="utf-8").splitlines()
    pinned = dict(line.split("==") for line in lines if line and not line.startswith("#"))
    assert set(pinned) == {"numpy", "scipy", "matplotlib", "rich", "fastapi", "starlette", "anyio", "uvicorn"}
    floors = declared_floors()  # (torch's, 2.6, is left out: see the file)
    assert {k: Version(v) for k, v in pinned.items()} == {k: Version(floors[k]) for k in pinned}


@pytest.mark.parametrize(("extra", "package", "oldest", "why"), NEEDS)
def test_each_floor_admits_only_releases_the_code_runs_on(extra, package, oldest, why):
    """pyproject took fastapi>=0.110, which resolves to starlette 0.37: `dpscale serve --host ::1` then answered
    every request, the page too, 400 'Invalid host header' (the browser's Host is '[::1]:8000')."""
    from packaging.version import Version

    floor = declared_floors(extra).get(package)
    assert floor is not None and Version(floor) >= Version(oldest), f"{package}>={floor}: {why}"


# numpy 2's names (and numpy 1.25's np.exceptions/np.dtypes), absent from numpy 1.24, the floor pyproject declares
NUMPY_2 = set(
    "trapezoid isdtype concat permute_dims pow acos asin atan atan2 acosh asinh atanh bitwise_left_shift"
    " bitwise_right_shift bitwise_invert matrix_transpose vecdot matvec vecmat cumulative_sum cumulative_prod"
    " unique_values unique_counts unique_all unique_inverse unstack astype bool long ulong strings exceptions"
    " dtypes".split()
)


def test_the_library_calls_no_numpy_newer_than_its_floor():
    """Every tested path ran under numpy 1.24 once (np.trapezoid was the one that failed, 42 tests); this reads
    every path, tested or not: an np.NAME numpy 1.24 lacks, or np.asarray's copy= (numpy 2.0), is named here."""
    import ast

    from packaging.version import Version

    assert Version(declared_floors()["numpy"]) < Version("2")  # a numpy-2 floor would make this test moot
    newer = []
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "np":
                if node.attr in NUMPY_2:
                    newer.append(f"{path.relative_to(ROOT)}:{node.lineno}: np.{node.attr}")
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "np.asarray":
                if any(k.arg == "copy" for k in node.keywords):
                    newer.append(f"{path.relative_to(ROOT)}:{node.lineno}: np.asarray(copy=…)")
    assert newer == []


LAZY_IMPORTERS = {"require", "import_module", "find_spec", "__import__"}


def test_every_library_the_package_imports_is_declared():
    """src imported anyio by name (the page's fit limiter, review IM) while pyproject named only fastapi and starlette,
    which bring it: a package imported but undeclared rides on another's requirements, and its floor is checked by
    nobody. Every top-level module src imports, outside the standard library, maps to a declared distribution."""
    import ast
    import sys
    from importlib.metadata import packages_distributions

    from packaging.utils import canonicalize_name

    imported: set[str] = set()
    for path in (ROOT / "src" / "dpscale").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # typing_extensions under `if TYPE_CHECKING:` (a TypeVar's default, review LG) is read by type checkers, which
        # bundle it, and never run; imported anywhere else it is a run-time import like any other
        checking = [n for n in ast.walk(tree) if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING"]
        unrun = {id(n) for b in checking for s in b.body for n in ast.walk(s)
                 if isinstance(n, ast.ImportFrom) and n.module == "typing_extensions"}  # fmt: skip
        for node in ast.walk(tree):
            if id(node) in unrun:
                continue
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
            elif (  # imported by name at run time: require("scipy.optimize", …), import_module(…), find_spec(…)
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) in LAZY_IMPORTERS
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                imported.add(node.args[0].value.split(".")[0])
    third_party = sorted(imported - set(sys.stdlib_module_names) - {"dpscale", "__future__"})
    # the scan sees known ones: scipy and uvicorn only through require() (it saw neither: review IQ)
    assert {"numpy", "matplotlib", "torch", "fastapi", "anyio", "scipy", "uvicorn"} <= set(third_party)
    dists = packages_distributions()
    declared = set(declared_floors())
    undeclared = [m for m in third_party if not {canonicalize_name(d) for d in dists.get(m, [m])} & declared]
    assert undeclared == []
