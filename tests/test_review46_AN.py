"""Review AN (session 46): mutation testing of the session's source changes — a test for each hand-made mutant that
survived the session's own tests and that a user would see."""

from __future__ import annotations

import json
import math
import signal

import pytest
from clihelp import run

import dpscale

LLAMA = ["predict", "--model", "llama3-8b", "--precision", "bf16", "--batch", "4", "--gpu", "h100-80gb",
         "--system", "dgx-h100", "-d", "8..64x2"]  # fmt: skip


def _predicted(capsys, tmp_path) -> tuple[list[dict], str]:
    rc, out, _ = run(capsys, *LLAMA, "--json")
    assert rc == 0
    path = tmp_path / "pred.json"
    path.write_text(out)
    return json.loads(out), str(path)


def test_a_plan_in_tokens_does_not_say_its_samples_are_sequences(capsys, tmp_path):
    """The note 'the file's samples are sequences …: --samples counts sequences' belongs to a plan in samples/s; in a
    plan in tokens/s (the file's rate × its tokens, or a rate typed in tokens/s) --samples counts tokens, and the note
    would tell the user the opposite of what was planned."""
    rows, path = _predicted(capsys, tmp_path)
    rc, out, err = run(capsys, "plan", "--efficiency-file", path, "-n", "1e12", "--unit", "tokens/s", "-d", "64")
    assert rc == 0 and "771.7 h" in out and "from --efficiency-file: its 0.729604 samples/s × 8,192 tokens" in out
    assert "sequences" not in out + err
    rc, out, err = run(capsys, "plan", "--efficiency-file", path, "-n", "1e12", "--unit", "tokens/s", "-v", "6000",
                       "-d", "64", "--lang", "es")  # fmt: skip
    hours = 1e12 / (64 * 6000 * rows[-1]["efficiency"]) / 3600
    assert rc == 0 and f"{hours:.1f}".replace(".", ",") + " h" in out and "secuencias" not in out + err
    # in samples/s it is said, with the sequences' length
    rc, out, _ = run(capsys, "plan", "--efficiency-file", path, "-n", "1e12", "-d", "64")
    assert "note: the file's samples are sequences of 8,192 tokens: --samples counts sequences" in out


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_tokens_a_sample_that_json_reads_as_nan_or_infinity_state_none(capsys, tmp_path, bad):
    """Python's json reads NaN and Infinity (a hand-edited file, another tool's dump): such a count of tokens states
    none, and --unit tokens/s is refused in one line as for any other — int(nan) would be a ValueError traceback."""
    rows, _ = _predicted(capsys, tmp_path)
    for r in rows:
        r["tokens_per_sample"] = bad
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(rows))
    assert "NaN" in path.read_text() or "Infinity" in path.read_text()
    rc, _, err = run(capsys, "plan", "--efficiency-file", str(path), "-n", "1e12", "--unit", "tokens/s")
    assert rc == 2 and err.startswith("dpscale plan: error: --unit: got 'tokens/s'; allowed: 'samples/s', the unit")
    assert len(err.splitlines()) == 1
    rc, out, _ = run(capsys, "plan", "--efficiency-file", str(path), "-n", "1e12", "-d", "64")
    assert rc == 0 and "sequences" not in out  # no figure stated: nothing to say of one


# `dpscale measure --out` appends every workload to one file (as test_review46_AD's)
MEASURED = [
    {"devices": 1, "throughput": 1000.0, "workload": "mlp", "batch": 64, "backend": "gloo", "device": "cpu"},
    {"devices": 2, "throughput": 1900.0, "workload": "mlp", "batch": 64, "backend": "gloo", "device": "cpu"},
    {"devices": 4, "throughput": 3600.0, "workload": "mlp", "batch": 64, "backend": "gloo", "device": "cpu"},
    {"devices": 2, "throughput": 1950.0, "workload": "cnn", "batch": 64, "backend": "gloo", "device": "cpu"},
]


def test_fit_only_that_picks_nothing_from_a_list_of_records_names_the_setups_there_are():
    """fit(records, only=…) that matches none of a notebook's records said no runs at all; it names the set-ups the
    records hold, as for a file."""
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.fit(MEASURED, only={"workload": "transformer"})
    assert str(exc.value) == (
        "only: got workload=transformer; allowed: a set-up runs holds: workload=mlp (3); workload=cnn (1)"
    )
    plain = [{"devices": d, "throughput": x} for d, x in ((1, 1000.0), (2, 1900.0))]  # records without a set-up
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.fit(plain, only={"workload": "mlp"})
    assert str(exc.value) == "only: runs names no set-up; allowed: with JSON lines of `dpscale measure` records"


def test_fit_only_of_json_lines_without_a_setup_names_the_library_argument(tmp_path, capsys):
    """JSON lines that are no `dpscale measure` records name no set-up: the library's refusal names only=, the CLI's
    --only (the library said '--only', a flag it does not take)."""
    path = tmp_path / "runs.jsonl"
    path.write_text('{"devices": 1, "throughput": 1000}\n{"devices": 2, "throughput": 1900}\n', encoding="utf-8")
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.fit(path, only={"workload": "mlp"})
    assert str(exc.value) == "only: runs.jsonl names no set-up; allowed: with JSON lines of `dpscale measure` records"
    rc, _, err = run(capsys, "fit", str(path), "--only", "workload=mlp")
    assert rc == 2 and "error: --only: runs.jsonl names no set-up; allowed: with JSON lines" in err


def test_a_sigterm_while_ranks_are_spawned_is_held_then_its_handler_is_back():
    """Inside the spawn a SIGTERM reaches neither the caller's handler nor the ranks half-started: it is held (the
    launcher raises it once the ranks are known), and the caller's own handler is back after — left on the holder,
    a later SIGTERM (a scheduler's, mid-run) would be swallowed and the run never stopped."""
    from dpscale.sources.measure.launcher import _sigint_ignored

    got: list[int] = []

    def mine(signum, frame):
        got.append(signum)

    before = signal.signal(signal.SIGTERM, mine)
    try:
        with _sigint_ignored() as held:
            signal.raise_signal(signal.SIGTERM)
            assert (held, got) == ([signal.SIGTERM], [])
        assert signal.getsignal(signal.SIGTERM) is mine
        signal.raise_signal(signal.SIGTERM)
        assert got == [signal.SIGTERM] and held == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, before)


@pytest.mark.parametrize("e", [0.9, [0.9], (0.9,), range(1, 2)], ids=repr)
def test_solving_for_devices_takes_one_e_in_every_form_scale_takes(e):
    """scale, and solve's other unknowns, read one E written as a number, a one-item list or tuple, or a range of one
    (range(1, 2): E = 1); solving for devices took the same, the check added for what is no E at all keeps it."""
    as_number = 1.0 if isinstance(e, range) else 0.9
    want = dpscale.solve(per_device_throughput=2000, efficiency=as_number, actual_throughput=10_000)
    got = dpscale.solve(per_device_throughput=2000, efficiency=e, actual_throughput=10_000)
    assert (got.result.devices, got.result.efficiency) == (want.result.devices, want.result.efficiency)
    assert got.result.devices == (5 if as_number == 1.0 else 6)
    assert dpscale.scale(got.result.devices, 2000, e).actual_throughput == want.result.actual_throughput


def test_printable_escapes_control_characters_but_keeps_tabs_and_new_lines():
    """errors.printable shows a file's ESC, NUL, DEL and C1 as \\x1b…, and leaves what lays text out (a tab, a new
    line) as it is, as its contract says: a note of two lines stays two lines."""
    from dpscale.errors import printable

    assert printable("a\tb\nc\x1b[2J\x00\x7f\x85é") == "a\tb\nc\\x1b[2J\\x00\\x7f\\x85é"


def test_fit_s_confidence_of_one_is_refused_under_its_flag(capsys, tmp_path):
    """--confidence 1 (a 100 % interval: no bootstrap has one) is refused naming the flag and the text typed, as
    any other level outside (0, 1); let through, it reached the library's check and was said as 'confidence: got 1'."""
    runs = tmp_path / "runs.csv"
    runs.write_text("devices,throughput\n1,1000\n2,1950\n4,3800\n8,7300\n")
    for typed in ("1", "1.0"):
        rc, _, err = run(capsys, "fit", str(runs), "--confidence", typed)
        said = f"dpscale fit: error: --confidence: got '{typed}'; allowed: a level in (0, 1), e.g. 0.9\n"
        assert (rc, err) == (2, said)


def test_pipeline_refuses_several_e_as_a_list_or_an_array_alike():
    """dp_efficiency takes one E (or an E(d) source with devices=): several, as a list or a numpy array, are
    refused in the same words ('one number'); the words for what is no E at all (text, None) are kept for those."""
    import numpy as np

    from dpscale.formulas.pipeline import pipeline

    said = []
    for e in ([0.9, 0.8], np.array([0.9, 0.8])):
        with pytest.raises(dpscale.DpscaleError) as exc:
            pipeline(4, 8, "1f1b", 1, e, 64)
        said.append(str(exc.value).split("; allowed: ")[1])
    assert said == ["one number", "one number"]
    assert pipeline(4, 8, "1f1b", 1, np.array([0.9]), 64).combined_efficiency == pytest.approx(0.9 / (1 + 3 / 8))


def test_the_pipeline_title_groups_the_chunks_as_the_stages(capsys):
    """The title writes v as the rows write counts, grouped: 'v = 1,000 chunks' ('1.000' in Spanish)."""
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "--schedule", "interleaved", "--chunks", "1000")
    assert rc == 0 and out.splitlines()[0] == "Pipeline: interleaved, p = 4 stages, v = 1,000 chunks per device"
    rc, out, _ = run(capsys, "pipeline", "-p", "4", "-m", "8", "--schedule", "interleaved", "--chunks", "1000",
                     "--lang", "es")  # fmt: skip
    assert rc == 0 and "v = 1.000 " in out.splitlines()[0]


@pytest.mark.parametrize("typed", ["1", "1e6"])
def test_the_torchrun_worker_takes_the_timeouts_at_its_bounds(monkeypatch, typed):
    """The worker's --timeout takes seconds 'from 1 to 1,000,000', as its refusal and `dpscale measure` say: both
    ends included (measure takes them; a launch by torchrun with the same flags must too)."""
    from dpscale.sources.measure import worker

    environment = {"RANK": "0", "WORLD_SIZE": "2", "LOCAL_RANK": "0", "MASTER_ADDR": "x", "MASTER_PORT": "1"}
    for key, value in environment.items():
        monkeypatch.setenv(key, value)
    assert worker.job_from(worker.parser().parse_args(["--timeout", typed])).timeout == float(typed)
    with pytest.raises(dpscale.DpscaleError, match=r"^--timeout: got 0\.5; allowed: seconds from 1 to 1,000,000$"):
        worker.job_from(worker.parser().parse_args(["--timeout", "0.5"]))


def test_the_library_s_predict_refuses_an_mfu_past_one():
    """An MFU is a fraction of the GPU's peak: 1.2 would be a chip 20 % faster than its datasheet, refused by the
    library as by `predict --mfu`; 1 is the largest taken."""
    with pytest.raises(dpscale.DpscaleError) as exc:
        dpscale.predict([1, 8], model="gpt2", mfu=1.2, gpu="h100-80gb", system="dgx-h100")
    assert str(exc.value) == "mfu: got 1.2; allowed: a model-FLOPs utilisation in (0, 1]"
    e = dpscale.predict([1, 8], model="gpt2", mfu=1.0, gpu="h100-80gb", system="dgx-h100").efficiency_values
    assert e[0] == 1.0 and 0.9 < e[1] < 1.0


def test_tokens_a_sample_past_the_longest_sequence_state_none(capsys, tmp_path):
    """A count of tokens a sample past MAX_SEQ_LEN (10,000,000: no sequence is so long; a file's typo) states none,
    as a count of 0 or 2.5 does: --unit tokens/s is refused rather than planned at that factor."""
    from dpscale.errors import MAX_SEQ_LEN

    rows, _ = _predicted(capsys, tmp_path)
    for said in (MAX_SEQ_LEN + 1, MAX_SEQ_LEN):
        for r in rows:
            r["tokens_per_sample"] = said
        path = tmp_path / "edited.json"
        path.write_text(json.dumps(rows))
        rc, out, err = run(
            capsys, "plan", "--efficiency-file", str(path), "-n", "1e12", "--unit", "tokens/s", "-d", "64"
        )
        if said > MAX_SEQ_LEN:
            assert rc == 2 and "--unit: got 'tokens/s'; allowed: 'samples/s', the unit of --efficiency-file's" in err
        else:  # the longest taken: 0.729604 samples/s × 10,000,000 tokens
            assert rc == 0 and "per-device throughput 7.29604e+06 tokens/s from --efficiency-file" in out


def test_fit_only_and_the_runs_unit_are_read_without_the_spaces_around_them():
    """only={'workload': ' mlp '} picks the records whose workload is mlp, as `--only workload= mlp` does, and a
    record's unit ' tokens/s ' is tokens/s: the Fit says it as the CLI labels it."""
    f = dpscale.fit(MEASURED, only={"workload": " mlp "}, resamples=50)
    assert f.runs.devices == (1, 2, 4) and f.runs.throughput == (1000.0, 1900.0, 3600.0)
    spaced = [dict(r, unit=" tokens/s ") for r in MEASURED[:3]]
    g = dpscale.fit(spaced, resamples=50)
    assert g.unit == "tokens/s" and "throughput in tokens/s, as the runs state it" in g.summary()


def test_a_title_that_names_a_file_shows_its_control_characters_escaped(capsys, tmp_path):
    """validate's title names the files it read: a name holding ESC[2J (clear the screen) is shown as \\x1b[2J, as
    the rows and notes under it are, not run on the terminal."""
    from pathlib import Path

    dev = Path(__file__).parents[1] / "validation" / "published_scaling_dev.csv"
    data = tmp_path / "d\x1b[2J.csv"
    data.write_text(dev.read_text())
    rc, out, _ = run(capsys, "validate", str(data))
    assert rc == 0 and out.splitlines()[0].startswith(f"dpscale validate --mode predict: {tmp_path}/d\\x1b[2J.csv")
    assert "\x1b" not in out
