"""Review LF (mutation pass over today's source lines): a true written for a CNN's fwd_gmacs — the test below failed
against a hand-made mutant (named in its docstring) and passes on the source. (LF's gated MLP and untied FLOPs-note
cases are parametrizations of tests/test_hf_types.py's own tests: review LZ merged them there.)"""

from __future__ import annotations

import json
from pathlib import Path

from clihelp import json_file, run

from dpscale import catalog


def test_a_cnn_s_fwd_gmacs_written_true_is_refused(capsys, tmp_path):
    """Mutant: checked_model's number lambda without `not isinstance(v, bool)` (survived): JSON's true is Python's 1,
    inside fwd_gmacs's (0, 1e15], so ResNet-50 with 'fwd_gmacs': true was read as 1 GMAC an image (its own: 4.09)."""
    models = json.loads((Path(catalog.__file__).parent / "models.json").read_text(encoding="utf-8"))["models"]
    path = json_file(tmp_path, dict(models["resnet50"], fwd_gmacs=True), "macs.json")
    for lang, said in (
        ("en", "model 'macs.json': fwd_gmacs true; allowed: forward GMACs an image, a number > 0, at most 1e+15"),
        ("es", "modelo 'macs.json': fwd_gmacs true; se admite: GMAC hacia delante por imagen, un número > 0, como "
               "mucho 1e+15"),
    ):  # fmt: skip
        rc, out, err = run(capsys, "predict", "--model-file", path, "--system", "dgx-a100", "-d", "8", "--lang", lang)
        assert (rc, out, err.count("\n")) == (2, "", 1) and said in err, err
