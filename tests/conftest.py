"""Shared test settings: no Hypothesis deadline, since a per-example time limit is a timed test on a noisy machine."""

import socket
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("dpscale", deadline=None)
settings.load_profile("dpscale")


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
