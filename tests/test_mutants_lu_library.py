"""Review LU (mutation pass over reviews LM, LN, LO and LQ's source lines): review LM's public Advice, as a type
checker reads the package. The test below failed against a hand-made mutant (named in its docstring) and passes on
the source."""

from __future__ import annotations

import ast
import inspect


def test_every_public_name_is_imported_where_a_type_checker_reads_it():
    """Mutant: `Advice,` dropped from __init__'s `if TYPE_CHECKING:` import (survived: the tests read dpscale at run
    time, where _EXPORTS loads it). mypy reads only that block, not the lazy __getattr__, so `def told(a:
    dpscale.Advice)` was again an error under --strict ('Name "dpscale.Advice" is not defined', seen with the mutant),
    as review LM found it."""
    import dpscale

    tree = ast.parse(inspect.getsource(dpscale))
    (block,) = [n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING"]
    seen = {a.asname or a.name for n in ast.walk(block) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert set(dpscale.__all__) - seen == set()
    assert "Advice" in seen and "fit_advice" in seen
