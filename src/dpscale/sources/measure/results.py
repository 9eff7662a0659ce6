"""Raw per-rank timings → one record per world size, E against a baseline, and the JSONL file.

Pure Python so the launcher, the torchrun worker and tests share one definition of every number.
Records are what `dpscale fit results.jsonl` reads: one JSON object a line with at least
`devices` and `throughput` (cluster samples/s).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from statistics import median
from typing import Any

from dpscale.errors import DpscaleError, cut, fail, is_rate
from dpscale.formulas.scaling import compute, per_step, relative_efficiency
from dpscale.sources.measure.jobs import Job


class NotSaved(Exception):
    """A finished result that --out could not take (disk full, file gone): the caller still shows it."""

    def __init__(self, path: str, why: str, record: dict[str, Any], what: str = "this size's result") -> None:
        self.record = record
        super().__init__(f"--out: could not write {path!r} ({why}); {what} is shown, not saved")


def check_writable(path: str, flag: str = "--out", jsonl: bool = False, mode: str = "train") -> None:
    """Fail before any rank starts if results could not be written — without creating the file, so a run
    that fails leaves no empty one behind (an empty calibration file would not load). jsonl: records will be
    appended, so an existing file must hold JSON records already (not a CSV the user meant to keep)."""

    from dpscale.files import STDIN_OUT, content_line, is_stdin, read_bytes, unwritable

    if is_stdin(path):  # a file named '-' was written where the input files read '-' as standard input
        raise DpscaleError(f"{flag}: got {path!r} ({STDIN_OUT}); allowed: a writable file path")
    if not str(path).strip():  # '  ' made a file named by two spaces (--plot '  ' is refused alike)
        raise DpscaleError(f"{flag}: got {path!r} (not a file path); allowed: a writable file path")
    p = Path(path)
    # 'r.jsonl/' or 'r.jsonl/.' names a folder: Path drops the '/' and tried the file r.jsonl, and the writer, which
    # opens the path as typed, failed after the run ('Is a directory', review KM)
    folder = os.path.basename(str(path)) in ("", ".", "..")
    why = "a folder" if folder else unwritable(p)  # tried: a link loop, a named pipe or a 300-character name failed
    # after the run, or hung
    if why:  # 'no such folder', 'a folder', 'a named pipe', or the OS's words
        raise DpscaleError(f"{flag}: got {path!r} ({why}); allowed: a writable file path")
    if not jsonl and p.is_file() and p.stat().st_size > 0:  # a calibration is rewritten whole: only over one
        try:  # (read with files' ceiling: a 3 GB checkpoint given as --out took 22 s and 6 GB to refuse)
            ok = "busbw_gbs" in json.loads(read_bytes(p).decode("utf-8-sig"))
        except (OSError, ValueError, TypeError, UnicodeDecodeError, RecursionError):  # ([[[…]]] 200,000 deep)
            ok = False
        if not ok:
            raise DpscaleError(
                f"{flag}: got {path!r} (it holds something other than a calibration, which would be overwritten); "
                "allowed: a new file, or an earlier calibration"
            )
    if jsonl and p.is_file() and p.stat().st_size > 0:
        try:  # with files' ceiling, as `dpscale fit` reads the file: a model checkpoint given as --out was read whole
            # (3 GB: 22 s and 6 GB of memory to refuse it; beyond the memory, a MemoryError traceback)
            raw = read_bytes(p)
        except OSError as exc:
            raise DpscaleError(
                f"{flag}: got {path!r} ({exc.strerror or exc}); allowed: a new file, or one that this command's "
                "records were appended to"
            ) from None
        try:  # every line is read again after each size (its baseline): a byte that is not UTF-8 would fail then
            text = raw.decode("utf-8").lstrip("\ufeff")  # (a byte-order mark is no line; nor two, as fit reads them)
        except UnicodeDecodeError as exc:  # (plain utf-8: exc.start then counts the file's own bytes)
            line = raw[: exc.start].count(b"\n") + 1
            raise DpscaleError(
                f"{flag}: got {path!r} (line {line} is not UTF-8 text); allowed: a new file, or one that this "
                "command's records were appended to"
            ) from None
        # the first line that holds anything, as `dpscale fit` reads the file: a blank line at the top was read as
        # the head and refused ('its line 1 is not a record'), and a file of blank lines alone with it; nor a '#'
        # comment, which fit skips (review KJ) and this refused (review KP)
        from dpscale.sources.runs_json import json_lines  # (as fit reads them: a mark opening a line dropped, KX)

        lines = enumerate(json_lines(text), start=1)
        n, first = next(((i, ln) for i, ln in lines if content_line(ln)), (0, ""))
        if not first:  # no record yet: as an empty file
            return
        try:
            head = json.loads(first)
        except (ValueError, RecursionError):
            head = None
        # a record of this command: a size's (devices and throughput) or an equivalence check's (passed) — not a
        # fit report, a `--json` document or any other object, which `dpscale fit` would then refuse
        if not isinstance(head, dict) or not ("passed" in head or {"devices", "throughput"} <= head.keys()):
            raise DpscaleError(
                f"{flag}: got {path!r} (its line {n} is not a `dpscale measure` record); allowed: a new file, or one "
                "that this command's records were appended to"
            )
        kind = "equivalence" if "passed" in head else "train"  # (train records carry throughput and E)
        if kind != mode:  # equivalence records among train ones: `dpscale fit` then refused the file
            raise DpscaleError(
                f"{flag}: got {path!r} (it holds {kind} records); allowed: a new file, or one of {mode} records"
            )
        # a bad record was a run's baseline (a traceback after the size, or E = −69.6), or left `fit` a file it
        # refuses: said before any rank starts, not after the sizes are measured
        check_records(text, kind, f"{flag} {path}")


MAX_THREADS = 1024  # threads a rank, as --threads takes them (1e9: libgomp's out-of-memory abort)
RECORD_LINE = "a `dpscale measure` record, one a line (a line cut short or typed by hand: fix or remove it)"


def check_records(text: str, kind: str, where: str) -> None:
    """Every line of a records file as `dpscale fit` reads it: JSON, an object of this kind, and a train record's
    devices and throughput (a whole size ≥ 1, a finite rate > 0); the first bad one is named ('--out r line 2')."""
    from dpscale.files import content_line, loads_once
    from dpscale.sources.fit_runs import make_run  # (records only: no torch)
    from dpscale.sources.runs_json import json_lines

    for i, line in enumerate(json_lines(text), start=1):
        if not content_line(line):  # ('#': a comment, which fit skips: review KJ, KP)
            continue
        try:
            rec = loads_once(line, f"{where} line {i}")  # a field twice: `fit` refuses the file, so say it now
        except DpscaleError:
            raise
        except (ValueError, RecursionError):
            rec = None
        if not isinstance(rec, dict) or ("passed" if kind == "equivalence" else "devices") not in rec:
            raise fail(f"{where} line {i}", cut(line.strip()), RECORD_LINE)
        if kind == "train":
            make_run(rec.get("devices"), rec.get("throughput"), rec.get("step_time"), f"{where} line {i}")
        d, b, thr, step = (rec.get(k) for k in ("devices", "batch", "throughput", "step_time"))
        if (  # a factor of 2 apart: an edit or a unit slip, not an older writer's median of the repeats' rates
            is_rate(d) and is_rate(b) and is_rate(thr) and is_rate(step) and not 0.5 <= thr / per_step(d * b, step) <= 2
        ):
            # measure writes throughput = devices × batch / step_time: a record that breaks it was edited, and as a
            # baseline it gave E = 1.6e11 at exit 0 (a throughput of 1e-9 typed over a measured one)
            raise fail(f"{where} line {i}, throughput", thr, "devices × batch / step_time, as `dpscale measure` wrote "
                       "it (the record was edited: fix or remove the line)")  # fmt: skip
        threads = rec.get("threads", 1)  # a later run of this setup takes the same (earlier_threads): [1] raised
        if type(threads) is not int or not 1 <= threads <= MAX_THREADS:  # 'unhashable', -1 crashed a rank
            raise fail(f"{where} line {i}, threads", threads, f"a whole number of threads a rank, 1 to {MAX_THREADS:,}")


def write_json(path: str, obj: dict[str, Any]) -> None:
    """A calibration file, whole (NotSaved when it cannot be written): files.write_whole, so a run killed mid-write
    (or a full disk) leaves the earlier calibration whole, not half a file."""
    from dpscale.files import write_whole

    try:
        write_whole(path, lambda fh: json.dump(obj, fh, indent=1))
    except OSError as exc:
        raise NotSaved(path, exc.strerror or str(exc), obj, "the calibration") from None


def summarise(raw: dict[str, Any], job: Job, launch_s: float | None, nodes: int = 1) -> dict[str, Any]:
    """Median over repeats of the synchronised phase; compute = the same steps under no_sync."""
    d, b, n = raw["devices"], job.batch, job.steps
    thr = [per_step(d * b * n, t) for t in raw["sync_s"]]
    step = median(raw["sync_s"]) / n
    # sharded runs (zero ≥ 1) time no compute-alone phase: their split into compute and exposed is unknown
    compute = median(raw["nosync_s"]) / n if raw.get("nosync_s") else None
    exposed = None if compute is None else max(0.0, step - compute)
    comm = raw.get("comm_s")
    med = per_step(d * b, step)  # from the median step, so throughput = devices × batch / step_time with any repeats
    return {
        "devices": d,
        "throughput": med,
        "throughput_min": min(thr),
        "throughput_max": max(thr),
        "throughput_spread": (max(thr) - min(thr)) / med,
        "per_device_throughput": med / d,
        "efficiency": None,
        "step_s": step,
        "step_time": step,  # the name `dpscale fit` reads
        "compute_s": compute,
        "comm_exposed_s": exposed,
        "exposed_comm_share": None if exposed is None else exposed / step,
        "comm_s": comm,
        "overlap": None if not comm or exposed is None or d == 1 else min(1.0, max(0.0, 1 - exposed / comm)),
        "launch_s": launch_s,
        "replica_drift": raw.get("replica_drift"),  # 0: every rank ended with the same weights
        "throughputs": thr,
        "workload": raw["workload"],
        "zero": raw.get("zero", 0),
        "batch": b,
        "global_batch": d * b,
        "steps": n,
        "warmup": job.warmup,
        "repeats": job.repeats,
        "nodes": nodes,
        "params": raw["params"],
        "params_per_rank": raw.get("params_per_rank", raw["params"]),  # a shard under FSDP (zero 2–3)
        "grad_bytes": raw["grad_bytes"],
        "backend": raw["backend"],
        "device": raw["device"],
        "threads": raw["threads"],
        "torch": raw.get("torch"),  # the ranks' torch version (None: a record from an older rank)
        "cores": raw.get("cores"),  # CPU cores of rank 0's node (None: a record from an older rank)
        "oversubscribed": raw.get("oversubscribed"),  # a node's ranks × threads above its cores
        "ddp": raw.get("ddp"),  # the DDP settings the steps ran with (None: FSDP, or a record from an older rank)
        "unit": "samples/s",
    }


def with_efficiency(rec: dict[str, Any], base: dict[str, Any] | None) -> dict[str, Any]:
    """E(d) = (A(d)/d) / (A(d0)/d0) against the smallest size; per-repeat E shows the spread."""
    is_base = rec is base
    rec = dict(rec)
    if base is None:
        return rec
    d, d0, a0 = rec["devices"], base["devices"], base["throughput"]
    if is_base or (d == d0 and rec["throughput"] == a0):
        rec["efficiency"] = 1.0
    else:
        rec["efficiency"] = relative_efficiency(rec["throughput"], d, a0, d0)
    thr = rec.get("throughputs") or [rec["throughput"]]
    if is_base:  # the baseline against its own median: its repeats' spread
        per_repeat = [relative_efficiency(t, d, a0, d0) for t in thr]
    else:  # every repeat against every baseline repeat: the baseline's noise is in E too (it was left out, and a
        # baseline spread of 34 % showed E 0.259–0.295 where its repeats gave 0.204–0.317)
        b = base.get("throughputs")
        if not (isinstance(b, list) and b and all(is_rate(t) for t in b)):  # hand-edited, or null (not finite)
            b = [a0]
        per_repeat = [relative_efficiency(min(thr), d, max(b), d0), relative_efficiency(max(thr), d, min(b), d0)]
    rec["efficiency_min"] = min(per_repeat)
    rec["efficiency_max"] = max(per_repeat)
    rec["speedup"] = compute(d, a0 / d0, rec["efficiency"]).speedup  # S = d·E, the core's formula
    rec["baseline_devices"] = d0
    return rec


SETUP_KEYS = ("workload", "params", "batch", "backend", "device", "steps", "threads", "zero")
DEFAULTS = {"zero": 0}  # records written before a key existed


def finish(
    job: Job,
    raw: dict[str, Any],
    launch_s: float | None,
    out: str | None,
    nodes: int = 1,
    earlier: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], str | None]:
    """One finished size → its record, written to `out` at once (train and equivalence: a JSONL line; allreduce:
    the calibration file), for the local command and the torchrun worker alike. A train record's E is against the
    smallest size of its set-up already in `out`, else `earlier` (this run's first), else itself; the second value
    then says why no earlier record counted (None: one did, or there was none). A size smaller than every one of its
    set-up in `out` becomes a second baseline there (the file is appended to, never rewritten): `larger_before`
    names the sizes whose E is against the first."""
    if job.mode == "train":
        rec = summarise(raw, job, launch_s, nodes)
        base = baseline_from_file(out, rec) or earlier
        why = differing(out, rec) if base is None else None  # E = 1 here: say why no earlier size counts
        rec = with_efficiency(rec, base or rec)
        if out:
            append_jsonl(out, rec)
        return rec, why
    if job.mode == "allreduce":
        from dpscale.sources.measure.calibration import calibration

        meta = {"partial": True} if raw.get("partial") else {}  # a run cut short: the sizes it finished
        cal = calibration(raw["rows"], raw["devices"], raw["backend"], device=raw["device"], nodes=nodes, **meta)
        if out:
            write_json(out, cal)
        return cal, None
    rec = {**raw, "launch_s": launch_s}
    if out:  # equivalence: one record a size, appended like train's
        append_jsonl(out, rec)
    return rec, None


def setup_of(rec: dict[str, Any], keys: tuple[str, ...] = SETUP_KEYS) -> dict[str, Any]:
    """The record's set-up, a key written after it read as its default (None where there is none)."""
    return {k: rec.get(k, DEFAULTS.get(k)) for k in keys}


def same_setup(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Records E may compare: the same model, batch, backend, device, steps, threads a rank and ZeRO stage (one
    rank on 2 threads against two on 1 each once gave E(2) = 7.6 across two runs)."""
    return setup_of(a) == setup_of(b)


def _records(path: str | None) -> list[dict[str, Any]]:
    """The JSON objects of --out, one a line (none when there is no file yet)."""
    if not path or not Path(path).is_file():  # (a device such as /dev/full reads zeros without end)
        return []
    out = []
    from dpscale.sources.runs_json import json_lines

    text = Path(path).read_text(encoding="utf-8-sig", errors="replace").lstrip("\ufeff")  # (checked before the run;
    for line in json_lines(text):  # a byte-order mark opening a line, as fit reads it, hid a record: review KP, LD)
        try:
            old = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(old, dict):
            out.append(old)
    return out


def earlier_threads(path: str | None, workload: str, batch: int, steps: int, device: str, zero: int = 0) -> set[int]:
    """Threads a rank used in --out's earlier records of this workload, batch, steps and stage. A run appended to
    them takes the same, so that E compares like with like: the default (cores ÷ this run's largest size) gave 2
    to a `-d 1` run and 1 to a later `-d 2` run, which then found no baseline and said E = 1."""
    want = {"workload": workload, "batch": batch, "steps": steps, "device": device, "zero": zero}
    return {r["threads"] for r in _records(path) if setup_of(r, tuple(want)) == want and "threads" in r}


def differing(path: str | None, rec: dict[str, Any]) -> str | None:
    """How the nearest earlier record of this workload in --out differs in set-up ('threads 2 → 1'), when none
    matches: said beside an E that is then relative to this run's own smallest size."""
    same = [r for r in _records(path) if r.get("workload") == rec.get("workload") and "devices" in r]
    if not same or any(same_setup(r, rec) for r in same):
        return None
    r = same[0]
    old, new = setup_of(r), setup_of(rec)
    return ", ".join(f"{k} {old[k]} → {new[k]}" for k in SETUP_KEYS if old[k] != new[k])


def larger_before(path: str | None, rec: dict[str, Any]) -> list[int]:
    """The sizes of `rec`'s set-up that --out holds above it when `rec` is its own baseline: measured before it, their
    E in the file is against their own smallest size, not this one (`dpscale fit` reads throughputs: unaffected).
    `rec` is read as written there (finish writes it first); none where the file held its size already — d0 measured
    again, whose larger sizes' E is against that d0 (they were named as if against another)."""
    if rec.get("baseline_devices") != rec.get("devices"):
        return []
    setup = [r["devices"] for r in _sized(path) if same_setup(r, rec)]
    if sum(d <= rec["devices"] for d in setup) > 1:
        return []
    return sorted({d for d in setup if d > rec["devices"]})


def _sized(path: str | None) -> list[dict[str, Any]]:
    """--out's records with a size and a throughput, both numbers (as `dpscale fit` reads them: "1" is 1)."""
    from dpscale.sources.fit_runs import make_run  # (records only: no torch)

    out = []
    for old in _records(path):
        try:
            run = make_run(old.get("devices"), old.get("throughput"))
        except DpscaleError:  # not a size (check_writable refuses such a file before the run)
            continue
        out.append({**old, "devices": run.devices, "throughput": run.throughput})
    return out


def baseline_from_file(path: str | None, rec: dict[str, Any]) -> dict[str, Any] | None:
    """The smallest earlier record of the same setup in --out (multi-node runs arrive one size per job); sizes and
    throughputs as numbers (text once met E's arithmetic after the run)."""
    best = None
    for old in _sized(path):
        d = old["devices"]
        if same_setup(old, rec) and d <= rec["devices"] and (best is None or d < best["devices"]):
            best = old
    return best


def append_jsonl(path: str, rec: dict[str, Any]) -> None:
    """One line, flushed and fsynced: a later crash must not lose sizes that finished."""
    line = json.dumps(_finite(rec), ensure_ascii=False)
    new = not os.path.exists(path)
    # where the file ended before this record: a write cut short (a full disk writes up to the last free block, then
    # fails) is taken back, or the half line left behind made `dpscale fit` and the next `--out` refuse the file
    before = os.path.getsize(path) if os.path.isfile(path) else (0 if new else None)
    text = line + "\n"
    try:
        with open(path, "a", encoding="utf-8") as fh:
            # a file whose last line has no newline (typed by hand, `echo -n`, a copy cut short) would run this record
            # into that line: both then unreadable to `dpscale fit`, the earlier size lost with the new one
            text = ("\n" if _ends_open(path) else "") + text
            fh.write(text)
            fh.flush()
            try:
                os.fsync(fh.fileno())
            except OSError:  # pragma: no cover - pipes, special files
                pass
    except OSError as exc:  # disk full (/dev/full), the folder removed mid-run
        if before is not None and os.path.isfile(path) and os.path.getsize(path) > before:
            try:  # (truncating frees blocks: it works on a full disk) only this record's own bytes, where they end
                # the file: a record another job appended to the same --out meanwhile stays, before them or after
                with open(path, "rb") as fh:
                    fh.seek(before)
                    after = fh.read()
                mine = text.encode("utf-8")
                starts = [0] + [i + 1 for i, byte in enumerate(after) if byte == 0x0A]  # where a line begins
                cut = next((i for i in starts if i < len(after) and mine.startswith(after[i:])), None)
                if cut is not None:
                    os.truncate(path, before + cut)
            except OSError:
                pass
        if new and os.path.isfile(path) and os.path.getsize(path) == 0:  # a file it made and could not fill
            os.unlink(path)
        raise NotSaved(path, exc.strerror or str(exc), rec) from None


def _ends_open(path: str) -> bool:
    """Whether a regular file ends in something other than a newline (its last line is unterminated)."""
    p = Path(path)
    if not p.is_file():  # (a device such as /dev/full has no last byte to read)
        return False
    with open(p, "rb") as fh:
        fh.seek(0, 2)
        if fh.tell() == 0:
            return False
        fh.seek(-1, 2)
        return fh.read(1) != b"\n"


def _finite(x: Any) -> Any:
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_finite(v) for v in x]
    return x
