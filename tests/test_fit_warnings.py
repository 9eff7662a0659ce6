"""Review 44 M: `dpscale fit` and `plan --fit` warn of sizes whose `dpscale measure` records say they measured
something else than the hardware's data-parallel scaling — `oversubscribed` (the node's ranks × threads exceeded its
cores) and `replica_drift` > 0 (the ranks ended with different weights). The runs are kept and the fitted numbers
are the same; records without the fields (older ones, hand-made, a CSV without the columns) read as before
(`measure --csv`'s columns are read: tests/test_measure_formats_fit.py). And Spanish names standard
input with its article after a preposition or as a subject."""

from __future__ import annotations

import io
import json
import sys

import pytest
from clihelp import read_runs, run

import dpscale
from dpscale.sources.fit_io import runs_from

# a train record as `dpscale measure --out` writes it (mlp, gloo on cpu), its measured numbers set below
RECORD = {
    "devices": 1, "throughput": 6000.0, "throughput_min": 6000.0, "throughput_max": 6000.0, "throughput_spread": 0.0,
    "per_device_throughput": 6000.0, "efficiency": 1.0, "step_s": 0.0105, "step_time": 0.0105, "compute_s": 0.0092,
    "comm_exposed_s": 0.0013, "exposed_comm_share": 0.123, "comm_s": 2.2e-05, "overlap": None, "launch_s": 1.11,
    "replica_drift": 0.0, "throughputs": [6000.0], "workload": "mlp", "zero": 0, "batch": 64, "global_batch": 64,
    "steps": 2, "warmup": 1, "repeats": 1, "nodes": 1, "params": 1863690, "params_per_rank": 1863690,
    "grad_bytes": 7454760, "backend": "gloo", "device": "cpu", "threads": 1, "cores": 2, "oversubscribed": False,
    "ddp": {"bucket_cap_mb": 25.0, "first_bucket_mb": 1.0, "gradient_as_bucket_view": False, "static_graph": False,
            "find_unused_parameters": False, "forward_sync_buffers": True},
    "unit": "samples/s", "efficiency_min": 1.0, "efficiency_max": 1.0, "speedup": 1.0, "baseline_devices": 1,
}  # fmt: skip
SIZES = ((1, 6000.0), (2, 11000.0), (4, 20000.0), (8, 30000.0))

OVER_EN = (
    "the runs at 4; 8 devices ran more ranks × threads than their node's CPU cores (oversubscribed): their E "
    "measures core sharing, not the hardware — measure those sizes with fewer --threads or on more nodes"
)
# the same note as a person reads it (fit's table, plan's notes): a list of two sizes is '4 and 8' — the library's text
# and fit --json keep '4; 8'
OVER_SAID_EN = (
    "the runs at 4 and 8 devices ran more ranks × threads than their node's CPU cores (oversubscribed): their E "
    "measures core sharing, not the hardware — measure those sizes with fewer --threads or on more nodes"
)
DRIFT_EN = (
    "the runs at 2 devices ended with their replicas apart (replica_drift up to 3e-05): those steps were not "
    "data-parallel training, and their E is not its"
)
OVER_ES = (
    "las ejecuciones con 4 y 8 dispositivos usaron más procesos × hilos que los núcleos de CPU de su nodo "
    "(sobresuscripción): su E mide el reparto de núcleos, no el hardware — mida esos tamaños con menos --threads o "
    "en más nodos"
)
DRIFT_ES = (
    "las ejecuciones con 2 dispositivos acabaron con sus réplicas distintas (replica_drift de hasta 3e-05): esos "
    "pasos no fueron entrenamiento en paralelo de datos, y su E no es la de ese entrenamiento"
)


def records(over: tuple[int, ...] = (), drift: dict[int, float] | None = None, **fields) -> list[dict]:
    out = []
    for d, x in SIZES:
        rec = dict(RECORD, devices=d, throughput=x, global_batch=64 * d, oversubscribed=d in over, **fields)
        rec["replica_drift"] = (drift or {}).get(d, 0.0)
        out.append(rec)
    return out


def write(tmp_path, name: str, recs: list[dict]):
    p = tmp_path / name
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return p


@pytest.fixture
def flagged(tmp_path):
    return write(tmp_path, "flagged.jsonl", records(over=(4, 8), drift={2: 3e-05}))


def notes(out: str, word: str) -> list[str]:
    return [ln.split(": ", 1)[1] for ln in out.splitlines() if ln.startswith(word + ": ")]


def test_fit_warns_of_oversubscribed_and_drifted_sizes_in_both_languages(flagged, capsys):
    rc, out, _ = run(capsys, "fit", str(flagged), "--resamples", "200")
    assert rc == 0
    said = notes(out, "note")
    assert said[:2] == [OVER_SAID_EN, DRIFT_EN]
    rc, out, _ = run(capsys, "fit", str(flagged), "--resamples", "200", "--lang", "es")
    assert rc == 0 and notes(out, "nota")[:2] == [OVER_ES, DRIFT_ES]


def test_the_warnings_change_no_fitted_number(flagged, tmp_path, capsys):
    """The runs are kept (the user decides): the report is the one of the same records without the flags, its
    warnings aside."""
    plain = write(tmp_path, "plain.jsonl", records())
    rc, a, _ = run(capsys, "fit", str(flagged), "--resamples", "200", "--json")
    rc2, b, _ = run(capsys, "fit", str(plain), "--resamples", "200", "--json")
    a, b = json.loads(a), json.loads(b)
    assert rc == rc2 == 0 and a["warnings"][:2] == [OVER_EN, DRIFT_EN]
    assert a["warnings"][2:] == b["warnings"] and OVER_EN not in b["warnings"]
    assert {k: v for k, v in a.items() if k != "warnings"} == {k: v for k, v in b.items() if k != "warnings"}


def test_plan_fit_relays_them(flagged, capsys):
    rc, out, err = run(capsys, "plan", "-n", "1e6", "-d", "2,8", "--fit", str(flagged))
    assert rc == 0 and OVER_SAID_EN in notes(out + err, "note") and DRIFT_EN in notes(out + err, "note")
    rc, out, err = run(capsys, "plan", "-n", "1e6", "-d", "2,8", "--fit", str(flagged), "--lang", "es")
    assert rc == 0 and OVER_ES in notes(out + err, "nota") and DRIFT_ES in notes(out + err, "nota")
    rc, _, err = run(capsys, "plan", "-n", "1e6", "-d", "2,8", "--fit", str(flagged), "--json")  # (notes: stderr)
    assert rc == 0 and OVER_SAID_EN in notes(err, "note") and DRIFT_EN in notes(err, "note")


def test_a_saved_fit_s_warnings_are_said_in_spanish_by_plan(flagged, tmp_path, capsys):
    """fit --json keeps the warnings as text; plan --efficiency-file reads them back into Spanish (say_text)."""
    rc, report, _ = run(capsys, "fit", str(flagged), "--resamples", "200", "--json")
    (tmp_path / "fit.json").write_text(report)
    rc, out, err = run(capsys, "plan", "-n", "1e6", "-v", "100", "--efficiency-file", str(tmp_path / "fit.json"),
                       "--lang", "es")  # fmt: skip
    said = notes(out + err, "nota")
    assert rc == 0 and f"fit.json advierte: {OVER_ES}" in said and f"fit.json advierte: {DRIFT_ES}" in said
    # and in English the saved '4; 8' is said as the fit said it to a person, '4 and 8'
    rc, out, err = run(capsys, "plan", "-n", "1e6", "-v", "100", "--efficiency-file", str(tmp_path / "fit.json"))
    said = notes(out + err, "note")
    assert rc == 0 and f"fit.json warns: {OVER_SAID_EN}" in said and f"fit.json warns: {DRIFT_EN}" in said


def test_the_library_s_fit_warns_of_records_given_as_dicts():
    f = dpscale.fit(records(over=(4, 8), drift={2: 3e-05}), resamples=100)
    assert f.warnings[:2] == [OVER_EN, DRIFT_EN]
    assert f.runs.measured_apart == (OVER_EN, DRIFT_EN)
    assert [n.key for n in f.runs.measured_apart] == ["runs_oversubscribed", "runs_replica_drift"]  # type: ignore[attr-defined]


def test_one_size_is_said_in_the_singular_and_a_repeat_counts_once(tmp_path, capsys):
    """A size is listed when any of its runs was flagged; its drift is the largest; one device reads 'device'."""
    recs = records(over=(1,), drift={2: 1e-6})
    recs.append(dict(recs[1], throughput=11100.0, replica_drift=2.5e-4))  # a second run of size 2
    p = write(tmp_path, "one.jsonl", recs)
    rc, out, _ = run(capsys, "fit", str(p), "--resamples", "200")
    said = notes(out, "note")
    assert rc == 0 and said[1].startswith("the runs at 1 device ran more ranks × threads than their node's CPU cores")
    assert said[2].startswith("the runs at 2 devices ended with their replicas apart (replica_drift up to 0.00025)")
    rc, out, _ = run(capsys, "fit", str(p), "--resamples", "200", "--lang", "es")
    said = notes(out, "nota")
    assert said[1].startswith("las ejecuciones con 1 dispositivo usaron más procesos × hilos")
    assert said[2].startswith("las ejecuciones con 2 dispositivos acabaron con sus réplicas distintas (replica_drift "
                              "de hasta 0,00025)")  # fmt: skip


@pytest.mark.parametrize(
    "fields",
    [
        {},  # a clean record: oversubscribed false, replica_drift 0
        {"replica_drift": None, "oversubscribed": None},  # FSDP's shards differ by design; an unknown node
        {"replica_drift": True, "oversubscribed": "true"},  # not measure's values: not read as its checks
    ],
)
def test_clean_records_warn_of_nothing(fields, tmp_path, capsys):
    recs = [dict(r, **fields) for r in records()]
    old = [{k: v for k, v in r.items() if k not in ("cores", "oversubscribed", "ddp", "replica_drift")}
           for r in recs]  # fmt: skip
    p, q = write(tmp_path, "new.jsonl", recs), write(tmp_path, "old.jsonl", old)
    for extra in ((), ("--json",), ("--lang", "es")):
        rc, a, _ = run(capsys, "fit", str(p), "--resamples", "200", *extra)
        rc2, b, _ = run(capsys, "fit", str(q), "--resamples", "200", *extra)
        assert rc == rc2 == 0 and a == b.replace("old.jsonl", "new.jsonl")
        assert "oversubscribed" not in a and "replica_drift" not in a and "sobresuscripción" not in a
    assert runs_from(recs).measured_apart == ()
    assert all(not r.oversubscribed and r.replica_drift is None for r in read_runs(p))


def _stdin(monkeypatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))


def test_spanish_names_standard_input_with_its_article(monkeypatch, capsys):
    """'las ejecuciones de entrada estándar': a file's name where Spanish names a thing. As a heading place it
    stays bare, as a file's name would."""
    runs = "devices,throughput,unit\n1,100,tokens/s\n2,190,tokens/s\n"
    _stdin(monkeypatch, runs)
    rc, _, err = run(capsys, "fit", "-", "--unit", "samples/s", "--lang", "es")
    assert rc == 2 and err.strip().endswith(
        "se admite: 'tokens/s', la unidad que indican las ejecuciones de la entrada estándar"
    )
    _stdin(monkeypatch, runs)
    rc, _, err = run(capsys, "fit", "-", "--unit", "samples/s")
    assert rc == 2 and err.strip().endswith("allowed: 'tokens/s', the unit the runs in standard input state")
    _stdin(monkeypatch, "devices,throughput\n1,100\n2,x\n")
    rc, _, err = run(capsys, "fit", "-", "--lang", "es")
    assert rc == 2 and "error: entrada estándar línea 3, campo 'throughput': se recibió 'x'" in err


def test_the_drift_said_is_the_largest_of_every_size_flagged():
    """Review FT: sizes 2 and 4 ended apart by 3e-05 and 1e-06; 'up to' is the larger, 3e-05, whichever size holds
    it (the other sizes' 0 is no drift and is not listed)."""
    notes = runs_from(records(drift={2: 3e-05, 4: 1e-06})).notes
    (note,) = [n for n in notes if n.key == "runs_replica_drift"]  # type: ignore[attr-defined]
    assert str(note).startswith("the runs at 2; 4 devices ended with their replicas apart (replica_drift up to 3e-05)")
