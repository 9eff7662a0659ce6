"""Launch d local ranks with torch's multiprocessing launcher and watch them until they finish.

The parent owns the TCPStore (so a busy --port fails here, at once) and watches two things:
process exits (a crash: the first rank to fail that was not merely told by a collective that a
peer died) and heartbeats (a hang: no rank made progress for --timeout seconds, or for STARTUP_S while
some rank is still starting; the ranks that got least far are named). Either way every rank is
terminated, then killed, then reaped.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

from dpscale.errors import DpscaleError
from dpscale.sources.measure.jobs import START_BEATS, STARTUP_S, Job

GRACE_S = 2.0  # after a failure: time for the other ranks' messages, then for SIGTERM before SIGKILL


class RunFailed(Exception):
    """A world size failed while running (crash or hang): exit code 1, not a usage error."""

    def __init__(self, devices: int, rank: str, reason: str) -> None:
        self.devices, self.rank, self.reason = devices, rank, reason
        self.partial: dict[str, Any] | None = None  # rank 0's results so far (allreduce: the sizes measured)
        super().__init__(f"size {devices}: {rank} {reason}")


@dataclass
class Outcome:
    result: dict[str, Any]
    # (None: not every rank reported its process group ready)
    launch_s: float | None  # spawn → every rank has its process group (not part of the measured steps)


def check_port(host: str, port: int) -> None:
    """A busy --port is a usage error (exit 2), found before any rank starts."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the store binds: TIME_WAIT is no listener
        try:
            s.bind((host, port))
        except OSError as exc:
            why = "in use" if exc.errno == errno.EADDRINUSE else exc.strerror
            raise DpscaleError(f"--port: got {port} ({why}); allowed: a free TCP port, or 0 to pick one") from None


class Launcher:
    """One store for the whole run; each launch gets its own key prefix."""

    def __init__(self, port: int = 0, host: str = "127.0.0.1", last_interrupt: bool = False) -> None:
        """last_interrupt: an interrupt ends the process (the CLI), so later ones are ignored once it arrives;
        a library caller (a notebook) keeps its Ctrl-C."""
        import torch.distributed as dist

        check_port(host, port)
        try:
            self.store = dist.TCPStore(host, port, is_master=True, wait_for_workers=False)
        except Exception as exc:  # lost a race for the port
            raise DpscaleError(f"--port: got {port} ({exc}); allowed: a free TCP port, or 0 to pick one") from None
        self.host, self.port, self.launches, self.last_interrupt = host, self.store.port, 0, last_interrupt
        _tracker_outlives_a_hangup()

    def run(self, job: Job, world: int, progress: Callable[[int, int], None] | None = None) -> Outcome:
        import torch.multiprocessing as tmp

        from dpscale.sources.measure.rank import local_entry

        mp = tmp.get_context("spawn")
        log = None
        try:  # the OS may refuse processes, pipes or files (ulimit -n, a user without a home): a failed size, not
            # a usage error — and a BrokenPipeError here is not the closed stdout the CLI then took it for (exit 0)
            queue, beats = mp.SimpleQueue(), mp.RawArray("q", world)
            self.launches += 1
            # The ranks' stderr (tracebacks, gloo's and torch's warnings) goes to a file, not the user's terminal:
            # a failure is said in one line, which names the file when the ranks wrote anything.
            fd, log = tempfile.mkstemp(prefix=f"dpscale-measure-d{world}-", suffix=".log")
            os.close(fd)
            args = (job, world, self.host, self.port, f"launch{self.launches}/", queue, beats, log)
            t0 = time.monotonic()
            # the ranks start with SIGINT ignored: a terminal's Ctrl-C reaches the whole process group, and a rank
            # still importing torch (before local_entry sends its stderr to the log) printed a KeyboardInterrupt
            # traceback beside "interrupted"; the launcher stops the ranks itself (SIGTERM, then SIGKILL)
            with _sigint_ignored() as held:
                pc = tmp.start_processes(local_entry, args=args, nprocs=world, join=False, start_method="spawn")
        except BaseException as exc:
            if log is not None:
                os.unlink(log)
            if isinstance(exc, OSError):
                raise RunFailed(world, "ranks", f"could not start ({exc.strerror or exc})") from None
            raise
        keep = interrupted = False
        self.partial = None  # what rank 0 has measured so far (allreduce: the sizes done), for a run cut short
        try:
            if held:  # a SIGTERM that came while the ranks were being started, handled now that they can be stopped
                signal.raise_signal(held[0])
            return self._watch(pc, job, world, queue, beats, t0, progress)
        except KeyboardInterrupt as exc:
            interrupted = True
            exc.partial = self._last_partial(queue)  # type: ignore[attr-defined]
            raise
        except RunFailed as exc:
            _stop(pc.processes)  # every rank has written all it will
            exc.partial = self._last_partial(queue)
            keep = os.path.getsize(log) > 0
            if keep:
                new = RunFailed(exc.devices, exc.rank, f"{exc.reason} (the ranks' output: {log})")
                new.partial = self.partial
                raise new from None
            raise
        finally:
            # a second Ctrl-C (or `timeout`'s to the group) once cut the clean-up short, or, once it was done, ended
            # the CLI by the signal before it said "interrupted": after an interrupt, later ones are ignored
            with _shielded(restore=not (interrupted and self.last_interrupt)):
                _stop(pc.processes)
                for f in [*pc.error_files, None if keep else log]:
                    if f and os.path.exists(f):
                        os.unlink(f)

    def _last_partial(self, queue: Any) -> dict[str, Any] | None:
        """Rank 0's newest report of what it has finished, counting what it sent after the last poll."""
        with contextlib.suppress(Exception):  # (a queue whose writer died mid-message: keep what was read)
            while not queue.empty():
                msg = queue.get()
                if msg[0] == "partial":
                    self.partial = msg[2]
        return self.partial

    def _watch(self, pc: Any, job: Job, world: int, queue: Any, beats: Any, t0: float, progress: Any) -> Outcome:
        total = job.beats_total()
        result, ready, errors, exits = None, {}, {}, {}
        last, last_change = [0] * world, time.monotonic()
        failed_at = None
        while True:
            while not queue.empty():
                msg = queue.get()
                if msg[0] == "ready":
                    ready[msg[1]] = time.monotonic()
                elif msg[0] == "result":
                    result = msg[2]
                elif msg[0] == "error":
                    errors[msg[1]] = (msg[2], msg[3], msg[4])
                elif msg[0] == "partial":
                    self.partial = msg[2]
            now = time.monotonic()
            for i, p in enumerate(pc.processes):
                if p.exitcode is not None and i not in exits:
                    exits[i] = (time.time(), p.exitcode)
            if any(code != 0 for _, code in exits.values()) and failed_at is None:
                failed_at = now
            if failed_at is not None and (len(exits) == world or now - failed_at > GRACE_S):
                rank, reason = _culprit(errors, exits, pc.error_files)
                raise RunFailed(world, rank, reason)
            if len(exits) == world:
                while result is None and not queue.empty():  # sent after the drain above, then it exited
                    msg = queue.get()
                    result = msg[2] if msg[0] == "result" else None
                if result is None:
                    raise RunFailed(world, "rank 0", "finished without a result")
                launch = max(ready.values()) - t0 if len(ready) == world else None
                if progress:  # the last beats came after the last poll: a finished size stood at 98 %
                    progress(total, total)
                return Outcome(result, launch)
            cur = list(beats)
            if cur != last:
                last, last_change = cur, now
                if progress:
                    progress(min(cur[0], total), total)
            elif now - last_change > (limit := _limit(job.timeout, cur)) and failed_at is None:
                low = min(cur)
                stuck = [i for i, b in enumerate(cur) if b == low]
                who = "all ranks" if len(stuck) == world else "rank " + ", ".join(map(str, stuck))
                why = "(--timeout)" if limit == job.timeout else "while starting (the start-up allowance)"
                raise RunFailed(world, who, f"made no progress for {limit:g} s {why}; stopped all ranks")
            wait([p.sentinel for p in pc.processes if p.exitcode is None], timeout=0.1)


def _limit(timeout: float, beats: list[int]) -> float:
    """Seconds without progress that make a hang: --timeout, or STARTUP_S while some rank is still starting."""
    return timeout if min(beats) >= START_BEATS else max(timeout, STARTUP_S)


UNUSED_HINT = " — a model whose forward skips parameters needs FIND_UNUSED_PARAMETERS = True in its --model-file"


def _hint(text: str) -> str:
    """DDP's unused-parameter error names a keyword the command line cannot pass: say what the model file sets."""
    return text + UNUSED_HINT if "find_unused_parameters" in text else text


def _culprit(errors: dict, exits: dict, error_files: list) -> tuple[str, str]:
    """The rank that failed first for its own reason, not one a collective told that a peer was gone."""
    cands = []
    for r, (t, code) in exits.items():
        if code == 0:
            continue
        if r in errors:
            t_err, text, comm = errors[r]
            cands.append((comm, t_err, r, f"crashed: {_hint(text)}"))
        elif code < 0:
            cands.append((False, t, r, f"was killed by {signal.Signals(-code).name}"))
        else:
            cands.append((False, t, r, f"exited with code {code}{_traceback_tail(error_files[r])}"))
    for r, (t_err, text, comm) in errors.items():
        if r not in exits:
            cands.append((comm, t_err, r, f"crashed: {_hint(text)}"))
    comm, _, rank, reason = min(cands)
    return f"rank {rank}", reason


def _traceback_tail(path: str | None) -> str:
    if not path or not os.path.exists(path):
        return ""
    import pickle

    try:
        with open(path, "rb") as fh:
            lines = [ln for ln in str(pickle.load(fh)).splitlines() if ln.strip()]
        return f": {lines[-1].strip()[:300]}" if lines else ""
    except Exception:
        return ""


# The signals that end a run as Ctrl-C does, once the CLI handles them: a scheduler's SIGTERM, and the SIGHUP of a
# closed terminal (an ssh session dropped), whose default action ended the command mid-run without its clean-up
ENDING = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


def _tracker_outlives_a_hangup() -> None:
    """multiprocessing's resource tracker (for the ranks' queues) started with SIGHUP ignored, as it ignores SIGINT
    and SIGTERM itself: a closed terminal's hangup reaches the whole process group, and the tracker it killed was
    relaunched mid-clean-up, which printed a KeyError traceback a semaphore under 'interrupted'. It still leaves
    with the launcher (its pipe closes)."""
    from multiprocessing import resource_tracker

    hup = getattr(signal, "SIGHUP", None)
    try:
        previous = signal.signal(hup, signal.SIG_IGN) if hup is not None else None
    except ValueError:  # not the main thread: as it was
        return
    try:
        resource_tracker.ensure_running()
    finally:
        if hup is not None:
            signal.signal(hup, previous)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[list[int]]:
    """SIGINT ignored while child processes are started (they inherit SIG_IGN); the caller's handler back after.
    A Ctrl-C in that window (~10 ms for 2 ranks) is dropped, a second one stops the run. (Blocking it in this thread
    to keep it pending does not help: torch's own thread then takes the process's signal, ignored.)
    A SIGTERM that Python handles (the CLI turns it into an interrupt) is held in that window: the list yielded
    gets it, and the caller hands it to its handler once the ranks are known. Raised inside the spawn, between a
    rank's fork and the start-up data it reads from the launcher, it left that rank an EOFError traceback on the
    terminal under 'interrupted', and the ranks already started unknown to the launcher that stops them."""
    held: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing changes
        yield held
        return
    # (SIG_DFL ends the process at once, as before, and SIG_IGN — nohup's SIGHUP — ignores: nothing to hold)
    ending = {s: h for s in ENDING if callable(h := signal.getsignal(s))}
    for s in ending:
        signal.signal(s, lambda signum, frame: held.append(signum))
    try:
        yield held
    finally:
        signal.signal(signal.SIGINT, previous)
        for s, handler in ending.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def _shielded(restore: bool = True) -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP ignored while the ranks are stopped and their files removed (the first one is
    already on its way up as KeyboardInterrupt; the CLI turns SIGTERM and SIGHUP into one), and for good when
    `restore` is False (the process is on its way out); outside the main thread, where handlers cannot be set,
    nothing changes."""
    try:
        previous = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, *ENDING)}
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        if restore:
            for s, handler in previous.items():
                signal.signal(s, handler)


def _stop(processes: list) -> None:
    """Terminate, then kill, then reap every rank still alive: no orphans, no zombies."""
    alive = [p for p in processes if p.is_alive()]
    for p in alive:
        p.terminate()
    deadline = time.monotonic() + GRACE_S
    for p in alive:
        p.join(max(0.0, deadline - time.monotonic()))
    for p in alive:
        if p.is_alive():
            p.kill()
            p.join(5)
    for p in processes:
        p.join(0)
