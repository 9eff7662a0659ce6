"""Shared test settings: no Hypothesis deadline, since a per-example time limit is a timed test on a noisy machine;
and under CI (CI=true) Hypothesis draws the same examples every run, so a red CI is a defect to reproduce, not chance —
a local run still draws new ones (that is how the fit's past-4× note was found)."""

import os
import socket
from collections.abc import Iterator

import pytest
from clihelp import serving
from hypothesis import settings

# The language follows the locale where --lang is not typed: every test (and every process it starts) runs in the
# C locale, so a Spanish desktop or CI runner reads what a test expects; tests that want the locale set it themselves.
os.environ["LANG"] = "C.UTF-8"
for _key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_key, None)
# Help wraps at the terminal's width (argparse reads COLUMNS): the help tests expect 80 columns, so a shell that
# exports its own (COLUMNS=40 failed 47 tests, 60 and 81 one each) reads what they expect; tests that want a width
# set it themselves.
os.environ["COLUMNS"] = "80"

settings.register_profile("dpscale", deadline=None, derandomize=os.environ.get("CI") == "true")
settings.load_profile("dpscale")


# A deep run: DPSCALE_HYPOTHESIS_SCALE=50 multiplies every property test's examples, its own @settings(max_examples=…)
# included (a profile cannot: a test's own settings override it). The small local counts keep the suite fast; a deep
# run, now and then with a few --hypothesis-seed values, finds the float edges they miss (docs/DEVELOPING.md).
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Scale each @given test's max_examples by DPSCALE_HYPOTHESIS_SCALE, once a test function (Hypothesis reads the
    settings the function carries when it runs)."""
    scale = int(os.environ.get("DPSCALE_HYPOTHESIS_SCALE") or 1)
    if scale <= 1:
        return
    for test in {id(f): f for item in items if hasattr(f := getattr(item, "obj", None), "hypothesis")}.values():
        own = test._hypothesis_internal_use_settings
        test._hypothesis_internal_use_settings = settings(own, max_examples=own.max_examples * scale)


@pytest.fixture
def one_rank() -> Iterator[None]:
    """A one-rank gloo process group in this process, for what measure's wrappers build (torch needs one; nothing is
    launched)."""
    import torch.distributed as dist

    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        port = sk.getsockname()[1]
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=0, world_size=1)
    try:
        yield
    finally:
        dist.destroy_process_group()


@pytest.fixture
def worker(monkeypatch):  # noqa: ANN001, ANN201
    """The torchrun worker module under a torchrun-like environment (rank 0 of 2), its GPU check (torch) stubbed."""
    from dpscale.sources.measure import worker as w

    for key, value in (("RANK", "0"), ("WORLD_SIZE", "2"), ("LOCAL_RANK", "0"), ("MASTER_ADDR", "x"),
                       ("MASTER_PORT", "1")):  # fmt: skip
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(w, "_check_gpus", lambda device, local_rank: None)
    return w


@pytest.fixture(scope="module")
def client():
    """The page's API in FastAPI's test client, one for a module (whose web tests skip without the web extra)."""
    from fastapi.testclient import TestClient

    from dpscale.faces.web.app import create_app

    return TestClient(create_app())


@pytest.fixture(scope="module")
def served():
    """One server for a module's browser tests."""
    with serving() as url:
        yield url
