"""measure's workloads: model files, the language model, and the calibration file's mode."""

from __future__ import annotations

import pytest

from dpscale.errors import DpscaleError

# Mutation sweep 13 (of the modules earlier sweeps touched least: measure's launcher, results, calibration and
# workloads; the fit, validate, pipeline and batch commands; formulas batch, pipeline, compute and units; the web
# app): gaps the suite left open, each killing a surviving mutant.


# ---- sources/measure/calibration.py and workloads.py ---------------------------------------------------------
def test_sizes_reach_four_gibibytes_as_the_message_allows():
    """calibration.py:19 MAX_BYTES 4 GiB → 2 GiB. --sizes takes 4 B to 4 GB, binary: '4G' is 4 × 2^30 =
    4,294,967,296 bytes, '3GB' 3,221,225,472; '5G' is refused."""
    from dpscale.sources.measure.calibration import parse_bytes, parse_sizes

    assert parse_bytes("4G") == 4_294_967_296
    assert parse_sizes("1GB..4GB") == (1_073_741_824, 2_147_483_648, 4_294_967_296)
    with pytest.raises(DpscaleError, match="^--sizes: got '5G'"):
        parse_bytes("5G")


def test_a_model_file_must_be_python_source(tmp_path):
    """workloads.py:123 `p.suffix != '.py' or not is_file` → `not is_file` (and :124's reason → 'no such file').
    An existing model.txt that would define a model is refused as not a .py file, before it is imported; a missing
    model.py is 'no such file'."""
    pytest.importorskip("torch")
    from dpscale.sources.measure.workloads import from_file

    f = tmp_path / "model.txt"
    f.write_text("raise SystemExit('imported')\n")
    with pytest.raises(DpscaleError, match=r"^--model-file: got '.*model\.txt' \(not a \.py file\); allowed: "):
        from_file(str(f))
    with pytest.raises(DpscaleError, match=r"^--model-file: got '.*gone\.py' \(no such file\); allowed: "):
        from_file(str(tmp_path / "gone.py"))


def test_find_unused_parameters_must_be_true_or_false(tmp_path):
    """workloads.py:143 the bool check dropped. FIND_UNUSED_PARAMETERS = 1 is refused by name (DDP would read any
    truthy value; the model file is told to say True or False); True is taken."""
    pytest.importorskip("torch")
    from dpscale.sources.measure.workloads import from_file

    body = "def build_model():\n    pass\n\n\ndef make_batch(n, g):\n    pass\n\n\nFIND_UNUSED_PARAMETERS = {}\n"
    (tmp_path / "one.py").write_text(body.format("1"))
    with pytest.raises(DpscaleError, match=r"sets FIND_UNUSED_PARAMETERS = 1; allowed: True or False$"):
        from_file(str(tmp_path / "one.py"))
    (tmp_path / "yes.py").write_text(body.format("True"))
    assert from_file(str(tmp_path / "yes.py")).find_unused is True


def test_the_language_model_predicts_the_next_token():
    """workloads.py:94 targets tokens[:, 1:] → the inputs again. A batch of 3 sequences of 64 tokens: each
    target is the input shifted one to the left (a causal LM predicts token t + 1 from those up to t)."""
    torch = pytest.importorskip("torch")
    from dpscale.sources.measure.workloads import BUILTIN

    x, y = BUILTIN["transformer"].batch(3, torch.Generator().manual_seed(0))
    assert tuple(x.shape) == tuple(y.shape) == (3, 64)
    assert torch.equal(y[:, :-1], x[:, 1:]) and not torch.equal(x, y)
