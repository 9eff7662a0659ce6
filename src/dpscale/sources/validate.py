"""Published tables against dpscale: `dpscale.validate(...)` and `dpscale validate` return one report.

Several files are checked as one set (the dev set and validation/*.csv), so a file or a configuration given
twice is refused rather than scored twice. Each mode's validator is imported only when asked for: fit's
brings the fitter (scipy).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dpscale.errors import DpscaleError, choice, fail

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dpscale.sources.dataset import Config

MODES = ("predict", "fit")


def validate(*data: str | Path | Sequence[str | Path], mode: str = "predict") -> dict[str, Any]:
    """The report `dpscale validate DATA.csv ... --json` prints: points, configs, the errors' median, p90 and
    max, the constant-E yardstick, the band's coverage and each row (format: validation/published_scaling_dev.md).

    data: CSV paths (text or Path), as arguments or in a list: validate(glob.glob('validation/*.csv')).
    predict: each row from its configuration's baseline; fit: all sizes but the largest fitted, the largest
    predicted. '-' reads one table from standard input.
    """
    mode = choice(mode, "mode", MODES)  # 'FIT', as law="USL" is taken: the library's one rule of a named choice
    paths = _paths(data)
    if not paths:
        raise DpscaleError("DATA.csv: got none; allowed: one or more published-measurement CSV files")
    configs = configurations(paths)
    if mode == "fit":
        from dpscale.sources.fit_validate import validate_fit

        return validate_fit(configs)
    from dpscale.sources.predict_validate import validate_predict

    return validate_predict(configs)


def _paths(data: tuple[Any, ...]) -> list[str]:
    """Each path given, a list or tuple of them read as its paths: os.fspath raised a bare TypeError for
    validate(glob.glob(...)) or validate(5), where a refusal names the argument."""
    paths = []
    for item in data:
        for path in item if isinstance(item, (list, tuple)) else (item,):
            if not isinstance(path, (str, os.PathLike)):
                raise fail("data", path, "CSV files' paths (text or a Path), or lists of them")  # (a value cut to 60)
            paths.append(os.fspath(path))
    return paths


def configurations(paths: list[str]) -> list[Config]:
    """Every file's configurations as one set, in the order given; a file or a configuration given twice is
    refused, not scored twice."""
    from dpscale.files import STDIN, STDIN_ONCE
    from dpscale.sources.dataset import read_published

    if paths.count(STDIN) > 1:  # one stream: the second '-' would read the first's table again (or nothing)
        raise DpscaleError(f"DATA.csv: got '{STDIN}' twice; allowed: {STDIN_ONCE}")
    # '-' is standard input, which /dev/stdin also names (the second read finds the stream read to its end)
    key = lambda p: os.path.realpath("/dev/stdin" if p == STDIN else p)  # noqa: E731
    i = next((i for i, p in enumerate(paths) if key(p) in map(key, paths[:i])), None)
    if i is not None:  # every configuration would be refused as given twice, the first named: say the file instead
        earlier = next(p for p in paths[:i] if key(p) == key(paths[i]))
        if earlier == paths[i]:
            raise DpscaleError(f"DATA.csv: got {earlier!r} twice; allowed: each file once")
        # two spellings of one file ('-' with that file under '<', ./x.csv and x.csv): "got '-' twice" named a '-'
        # given once
        raise DpscaleError(f"DATA.csv: got {earlier!r} and {paths[i]!r}, one file twice; allowed: each file once")
    seen: dict[str, Config] = {}
    for path in paths:
        for c in read_published(path):
            if c.cfg in seen:  # the same table twice would be scored twice and weigh double
                first = seen[c.cfg].baseline
                raise DpscaleError(
                    f"DATA.csv: configuration {c.cfg!r} in {first.file} line {first.line} and in {path} line "
                    f"{c.baseline.line}; allowed: once"
                )
            seen[c.cfg] = c
    return list(seen.values())
