"""Review 45 AA: adversarial review of session 45's commits (ragged networks, notes, catalog aliases)."""

from __future__ import annotations

import numpy as np
import pytest

from dpscale import predict, solve
from dpscale.formulas.stepmodel import ragged_network_share


def test_the_ragged_share_runs_in_a_straight_line_between_whole_sizes():
    # 9 ranks on 8-GPU, 8-NIC nodes reach 1 NIC, 10 reach 2: 9.5 is halfway (0.1875), not the ceiling's 10 (0.25);
    # 16–17 runs from the whole node's 1 to 1/8; up to the first ragged size (8–9) the share is 9's
    got = ragged_network_share(np.array([8.0, 8.5, 9.0, 9.5, 10.0, 16.0, 16.5, 17.0]), 8, 8)
    assert got.tolist() == [1.0, 0.125, 0.125, 0.1875, 0.25, 1.0, 0.5625, 0.125]


def test_solve_past_a_ragged_size_does_not_leap_to_the_next_sizes_network():
    # GPT-2 bf16 without overlap on DGX H100s: speedup 7.618 at 9 ranks, 8.756 at 10; 7.75 lies between, and the
    # exact size was 9.000000001 (9.001 ranks were given 10's two NICs: E 0.8464 → 0.8775 in a thousandth)
    p = predict([8, 9, 10], model="gpt2", precision="bf16", system="dgx-h100", overlap=False)
    assert float(p.efficiency(9.001)) == pytest.approx(0.8465, abs=5e-5)
    assert float(p.efficiency(9)) < float(p.efficiency(9.5)) < float(p.efficiency(10))
    s = solve(per_device_throughput=100, efficiency=p, speedup=7.75)
    assert s.exact == pytest.approx(9.0994, abs=5e-4)
    assert s.notes == ("9.10 devices needed exactly; rounded up to 10",)


def test_a_node_of_one_nic_is_said_in_the_singular(tmp_path):
    # a system file's node with one NIC: the ragged note said 'the ⌈1·r/8⌉ of its 1 NICs'
    import json

    path = tmp_path / "one.json"
    path.write_text(json.dumps({"gpu": "h100-80gb", "gpus_per_node": 8, "intra_bw_gbs": 450, "inter_bw_gbs": 50,
                                "nics": 1}))  # fmt: skip
    p = predict([8, 9], model="gpt2", precision="bf16", system_file=str(path), overlap=False)
    (note,) = [n for n in p.notes if n.key == "ragged_nodes"]
    assert "the ⌈1·r/8⌉ of its 1 NIC its r GPUs reach" in note


@pytest.mark.parametrize(
    ("lang", "gpu", "zero", "said"),
    [
        ("en", "l40s-48gb", "", "8 with all of them in bf16: the tab 'Memory' with 'Precision' bf16), more than the "
         "l40s-48gb's 48.3 GB: shard them — 'ZeRO stage' 1–3 predicts ZeRO/FSDP, the tab 'Memory' sizes it"),
        ("es", "l40s-48gb", "", "8 con todos en bf16: la pestaña «Memoria» con «Precisión» bf16), más que los "
         "48,3 GB de la l40s-48gb: repártalos — «Etapa de ZeRO» 1–3 predice ZeRO/FSDP, la pestaña «Memoria» lo "
         "dimensiona"),
        ("en", "l4-24gb", "3", "more than the l4-24gb's 24.2 GB: fewer devices need more; the tab 'Memory' with "
         "'Precision' mixed sizes it"),
    ],
)  # fmt: skip
def test_the_page_says_a_gddr_cards_memory_note_in_its_own_words(lang, gpu, zero, said):
    # a GDDR card's size is said without GiB ({gib} = ''): the page's reader wanted a field of one character or
    # more, missed the note, and the page said the command's `dpscale memory --precision bf16` and --zero 1–3
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from dpscale.faces.web.app import create_app

    options = {"devices": "8", "model": "llama-13b", "gpus_per_node": "8", "intra_bw": "32", "inter_bw": "50",
               "gpu": gpu, "zero": zero, "precision": "bf16"}  # fmt: skip
    got = TestClient(create_app()).post("/api/predict", json={"options": options, "lang": lang}).json()
    (note,) = [n for n in got["notes"] if "GB" in n and ("DDP" in n or "ZeRO-3" in n) and "gradient" not in n]
    assert said in note
    assert "dpscale" not in note and "--" not in note
