"""The deep run's hook (docs/DEVELOPING.md): DPSCALE_HYPOTHESIS_SCALE multiplies a property test's examples, its own
@settings(max_examples=…) included, which a profile could not."""

from types import SimpleNamespace

from conftest import pytest_collection_modifyitems
from hypothesis import given, settings
from hypothesis import strategies as st


def _counted(max_examples: int) -> tuple[object, list[int]]:
    seen: list[int] = []

    @settings(max_examples=max_examples, database=None)
    @given(st.integers(0, 10**9))
    def prop(n: int) -> None:
        seen.append(n)

    return prop, seen


def test_the_scale_multiplies_a_tests_own_max_examples_once(monkeypatch):
    """7 examples × 50 = 350 runs of the property, though two items (as a parametrized test has) share it."""
    prop, seen = _counted(7)
    monkeypatch.setenv("DPSCALE_HYPOTHESIS_SCALE", "50")
    pytest_collection_modifyitems([SimpleNamespace(obj=prop), SimpleNamespace(obj=prop)])  # type: ignore[list-item]
    prop()  # type: ignore[operator]
    assert len(seen) == 350


def test_without_the_scale_a_test_keeps_its_own_count(monkeypatch):
    prop, seen = _counted(7)
    monkeypatch.delenv("DPSCALE_HYPOTHESIS_SCALE", raising=False)
    pytest_collection_modifyitems([SimpleNamespace(obj=prop)])  # type: ignore[list-item]
    prop()  # type: ignore[operator]
    assert len(seen) == 7
