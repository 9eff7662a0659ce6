"""Review LU (mutation pass over reviews LM, LN, LO and LQ's source lines): runs_csv._cut_short's clause for a \\u
escape cut short (review LM). Each test below failed against a hand-made mutant (named beside its value) and passes
on the source."""

from __future__ import annotations

import json

import pytest
from clihelp import run

RECORDS = "".join(json.dumps({"devices": d, "throughput": x}) + "\n" for d, x in ((1, 1000), (2, 1900), (4, 3600)))


@pytest.mark.parametrize(
    "cut",
    [
        "caf\\u",  # mutant: the escape's pattern u[0-9a-fA-F]{0,4} → {1,4} (survived: the tests cut after '\u00')
        "caf\\u00E",  # mutant: its hex digits [0-9a-fA-F] → [0-9a-f] (survived: the tests wrote json.dumps' 'e9')
        "caf\\u00E9",  # (the same mutant: cut just after an escape written in capitals, as Jackson writes them)
    ],
)
def test_json_cut_short_at_any_point_of_a_unicode_escape_is_json(capsys, tmp_path, cut):
    """`dpscale fit r.jsonl` whose first line, '{"devices":8,"throughput":7000,"tags":"bf16,model,caf\\u00E', was cut
    inside an escape: each mutant read it as a table's header naming 'model', and said 'r.jsonl line 1: missing
    columns devices, throughput (found {"devices":8, …)'; it is JSON broken where it ends, as fit and validate say."""
    path = tmp_path / "r.jsonl"
    path.write_text('{"devices":8,"throughput":7000,"tags":"bf16,model,' + cut + "\n" + RECORDS, encoding="utf-8")
    rc, out, err = run(capsys, "fit", str(path))
    said = "r.jsonl line 1: not valid JSON (Invalid \\uXXXX escape); allowed: one JSON object per line"
    assert (rc, out, err) == (2, "", f"dpscale fit: error: {said}\n")
    rc, out, err = run(capsys, "validate", str(path))
    assert (rc, out) == (2, "") and "r.jsonl line 1: not valid JSON (Invalid \\uXXXX escape)" in err, err
    assert "missing" not in err
