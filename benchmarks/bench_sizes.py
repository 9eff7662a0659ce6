"""How the per-size paths grow with the number of sizes: 10× the sizes should cost about 10× the time (ratio ≈ 10),
not 100× (session 42: an E per size was looked up by rebuilding its table once a size, so `calc -e` with 10,000
values took 4 s and `plan --efficiency-file` on predict's 1..10000 took 3.8 s — both quadratic).

    python benchmarks/bench_sizes.py
Prints, for each path, the time at n and at 10·n sizes, measured in one run, and their ratio.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import tempfile
from pathlib import Path

from timing import best

from dpscale.faces.cli import main as cli


def quiet(argv: list[str]) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert cli(argv) == 0, argv


def calc_per_size(n: int) -> None:
    e = ",".join(["1"] + ["0.9"] * (n - 1))
    quiet(["calc", "-d", ",".join(map(str, range(1, n + 1))), "-v", "1000", "-e", e, "--csv"])


def plan_file(n: int, folder: Path) -> None:
    path = folder / f"pred{n}.json"
    if not path.exists():
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            cli(["predict", "--model", "resnet50", "--system", "dgx-a100", "-d", f"1..{n}", "--json"])
        path.write_text(out.getvalue())
        assert json.loads(path.read_text())
    quiet(["plan", "-n", "1.28e6", "--epochs", "90", "-v", "500", "--efficiency-file", str(path), "-d", f"1..{n}",
           "--csv"])  # fmt: skip


def main() -> None:
    argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0]).parse_args()  # --help, not the run
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, fn, n in (("calc -e per size", calc_per_size, 1000),
                            ("plan --efficiency-file", lambda k: plan_file(k, folder), 1000)):  # fmt: skip
            fn(n)  # warm: imports, the prediction file
            fn(10 * n)
            small, large = best(fn, n, repeats=3), best(fn, 10 * n, repeats=3)
            print(f"{name:<24} {n:>6,} sizes {small * 1e3:8.1f} ms   {10 * n:>7,} sizes {large * 1e3:8.1f} ms   "
                  f"ratio {large / small:5.1f}")  # fmt: skip
    print("goal: ratio near 10 (linear); near 100 is quadratic")


if __name__ == "__main__":
    main()
