"""Review 43 (F): a truth audit of the documentation and the notes against what the code computes now."""

from __future__ import annotations

from dpscale import predict
from dpscale.faces.i18n import say

MIB = 2**20


def test_the_ethernet_note_quotes_the_model_s_own_efa_busbw_at_64_mib():
    """The note set the model's 64 MiB all-reduce on 4 × 8 B200 over EFA (aws-p6-b200) against physics.md §1.4's
    157 GB/s, as 228 GB/s; the model gives 227 (docs/predict.md says 227 too). By hand: NCCL's tree across 4 nodes,
    2S at 0.73 of the node's 8 × 400 Gb/s = 292 GB/s, 134,217,728 B / 292e9 = 459.65 µs; latency 8.4 µs a
    collective + 2(8 − 1) = 14 NVLink hops × 3.4 µs + 2·log2(4) = 4 network hops × 14 µs = 112.0 µs; so
    571.65 µs, and busbw = S·2(n − 1)/n / t = 67,108,864 × 62/32 / 571.65e-6 = 227.45 GB/s."""
    size, ranks = 64 * MIB, 32
    seconds = 2 * size / (0.73 * 400e9) + (8.4 + 14 * 3.4 + 4 * 14.0) * 1e-6
    by_hand = size * 2 * (ranks - 1) / ranks / seconds / 1e9
    assert round(by_hand) == 227
    # the model's own all-reduce of that one bucket (a 64 MiB fp32 model, one bucket) agrees with the hand figure
    p = predict([ranks], params=size / 4, step_time_s=1.0, system="aws-p6-b200", bucket_mb=64, first_bucket_mb=64)
    model = size * 2 * (ranks - 1) / ranks / p.records()[0]["allreduce_s"] / 1e9
    assert abs(model - by_hand) < 0.05
    note = next(n for n in p.notes if n.key == "network_ethernet")
    assert f"where this model gives {round(by_hand)} (physics.md" in note
    assert f"donde este modelo da {round(by_hand)} (physics.md" in say(note, "es")


def test_the_cnn_mfu_note_says_the_spread_its_ranges_give():
    """The note said '±33 % and ±9 % around it' of ranges 14–29 % and 57–68 %. Around the middle, half the range
    over the middle: (29 − 14)/(29 + 14) = 15/43 = 34.9 % → ±35 %, and (68 − 57)/(68 + 57) = 11/125 = 8.8 % → ±9 %;
    now worked out from the ranges, so a recomputed range moves it too."""
    p = predict([8], model="resnet50", precision="amp", batch=256, system="dgx-a100")
    note = next(n for n in p.notes if n.key == "cnn_mfu")
    assert "14–29 % of the tensor-core peak" in note and "57–68 % of V100's fp32 peak" in note
    assert "— ±35 % and ±9 % around it;" in note
    assert "— ±35 % y ±9 % a su alrededor;" in say(note, "es")


def test_a_network_named_both_ways_is_not_told_it_is_neither():
    """inter_link 'RoCE or IB' names both kinds; network_kind reads it as neither one and the note said "is
    neither Ethernet … nor InfiniBand … by its name" — false for this name. Now it says the name does not tell the
    two apart, which holds for both cases ('zzz' names neither)."""
    kw = dict(model="bert-large", precision="amp", batch=32, throughput=150, gpus_per_node=8, intra_bw_gbs=300)
    for link in ("RoCE or IB", "zzz"):
        note = next(
            n for n in predict([8, 16], inter_bw_gbs=100, inter_link=link, **kw).notes if n.key == "network_unknown"
        )
        assert "neither Ethernet" not in note
        assert f"the network's name '{link}' does not tell Ethernet (eth, RoCE, EFA, GbE) from InfiniBand" in note
        assert "no distingue Ethernet (eth, RoCE, EFA, GbE) de InfiniBand" in say(note, "es")


def test_fit_s_two_bounds_are_written_alike_in_the_library_and_the_cli(capsys):
    """dpscale.fit(resamples=10) said 'from 50 to 100000' beside seed's 'from 0 to 4,294,967,295' and the CLI's
    '--resamples: … from 50 to 100,000': one bound, RESAMPLES[1] = 100,000, now grouped in every place it is said."""
    import dpscale
    from dpscale.errors import DpscaleError
    from dpscale.faces.cli import main

    runs = dict(devices=[1, 2, 4], throughput=[100.0, 190.0, 350.0])
    try:
        dpscale.fit(**runs, resamples=10)
    except DpscaleError as exc:
        said = str(exc)
    assert said == "resamples: got 10; allowed: a whole number from 50 to 100,000"
    assert main(["fit", "--point", "1:100", "--point", "2:190", "--resamples", "10"]) == 2
    assert capsys.readouterr().err.endswith("--resamples: got '10'; allowed: a whole number from 50 to 100,000\n")
