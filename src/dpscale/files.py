"""Reading a user's input file whole, with a ceiling, and checking an output path before any work: a wrong path
(/dev/zero, a model checkpoint, a named pipe no one writes to, a name longer than the file system takes) must end
in the command's one-line refusal, not in a MemoryError traceback, an OSError traceback or a hang."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from dpscale.errors import DpscaleError, cut, fail

MAX_INPUT_BYTES = 64 * 2**20  # the published sets are 25–320 KB; a runs file of a million sizes is 20 MB
NO_FOLDER = "no such folder"  # unwritable's reason for a path whose folder does not exist


STDIN = "-"  # the path that means standard input wherever a command reads a user's file (`… --json | dpscale plan
# --efficiency-file -`); a file named '-' is given as ./-
STDIN_NAME = "standard input"  # how a message names it where it names a file ('standard input line 3, column …')
STDIN_TTY = "standard input is a terminal: pipe a file in, or give its path"  # a bare '-' with nothing piped in
STDIN_CLOSED = "standard input is closed"  # (a library caller's process without one: sys.stdin None)
STDIN_ONCE = "'-' once (one file piped in), the other files by path"  # two inputs of one command as '-'
# an output given as '-' (measure's --out): a file named '-' was written there, which `fit -` then did not read
STDIN_OUT = "standard input is what '-' names, read, not written: a file to write, ./- for one named -"
_stdin: tuple[Any, bytes, int | None] | None = None  # the stream read for '-', its bytes, and where a seekable
# one stood after them: a second read gets the same bytes while it stands there


def is_stdin(path: object) -> bool:
    """Whether a path given for an input file means standard input: the text '-' (a pathlib.Path('-') is a file)."""
    return isinstance(path, str) and path == STDIN


def shown(path: str | Path) -> str:
    """The path as a message names the file: STDIN_NAME for '-', else as given."""
    return STDIN_NAME if is_stdin(path) else str(path)


def shown_name(path: str | Path) -> str:
    """The file's name as a message or a title names it: STDIN_NAME for '-', else its last part."""
    return STDIN_NAME if is_stdin(path) else Path(path).name


def read_bytes(path: str | Path) -> bytes:
    """The file's bytes; OSError (with a strerror each caller already quotes) when it cannot be read or holds more
    than MAX_INPUT_BYTES. A named pipe is read without hanging on one that no process writes to (`_read_pipe`).
    '-' is standard input (`_read_stdin`), under the same ceiling."""
    if not isinstance(path, (str, os.PathLike)) or str(path) == "":  # open(1) would take, then close, stdout
        raise OSError(errno.EINVAL, "not a file path", repr(path))
    if is_stdin(path):
        return _ceiling(_read_stdin(), path)
    try:
        fifo = stat.S_ISFIFO(os.stat(path).st_mode) and hasattr(os, "O_NONBLOCK")
    except OSError:
        fifo = False  # (open says why, in the words the callers quote)
    if fifo:
        data = _read_pipe(path)
    else:
        with open(path, "rb") as fh:
            data = fh.read(MAX_INPUT_BYTES + 1)
    return _ceiling(data, path)


def _ceiling(data: bytes, path: str | Path) -> bytes:
    if len(data) > MAX_INPUT_BYTES:
        raise OSError(errno.EFBIG, f"more than {MAX_INPUT_BYTES / 2**20:g} MiB: not an input file", str(path))
    return data


def _read_stdin() -> bytes:
    """Standard input's bytes, read once (up to one byte past the ceiling): a reader that looks twice — the format,
    then the records; a calibration's values, then its origin — gets the same bytes again, where the stream has
    none left. A terminal is refused rather than waited on (a bare '-' with nothing piped in would wait silently
    for Ctrl-D), and so is a process without standard input.

    The bytes kept are the stream's while it stands where the read left it: a caller's io.StringIO rewritten and
    rewound (or a file under `<` seeked back) is read anew — the kept bytes of its first contents were fitted
    again without a word. A descriptor set non-blocking (by a parent sharing the pipe) is waited on, not read as
    None (a TypeError traceback); an OSError without the OS's words (pytest's captured stdin) gets its own."""
    import sys

    global _stdin
    stream = sys.stdin
    if _stdin is not None and _stdin[0] is stream and _stdin[2] == _position(stream):
        return _stdin[1]
    if stream is None:
        raise OSError(errno.EBADF, STDIN_CLOSED, STDIN)
    try:
        tty = stream.isatty()
    except ValueError:  # (a closed stream)
        raise OSError(errno.EBADF, STDIN_CLOSED, STDIN) from None
    if tty:
        raise OSError(errno.ENOTTY, STDIN_TTY, STDIN)
    try:
        raw = getattr(stream, "buffer", None)  # (a caller's io.StringIO has none: its text, as UTF-8)
        data = _read_all(raw) if raw is not None else stream.read(MAX_INPUT_BYTES + 1).encode("utf-8")
    except ValueError:  # (read from a closed stream)
        raise OSError(errno.EBADF, STDIN_CLOSED, STDIN) from None
    except OSError as exc:  # (a stream's own OSError, without strerror: the reason was said as 'not UTF-8 text')
        if exc.strerror:
            raise
        raise OSError(exc.errno or errno.EIO, str(exc) or "standard input could not be read", STDIN) from None
    _stdin = (stream, data, _position(stream))
    return data


def _position(stream: Any) -> int | None:
    """Where a seekable stream stands (its bytes' place where it has a buffer); None for a pipe."""
    raw = getattr(stream, "buffer", stream)
    try:
        return int(raw.tell()) if raw is not None and raw.seekable() else None
    except (OSError, ValueError, AttributeError):
        return None


def _read_all(raw: Any) -> bytes:
    """A binary stream's bytes to its end or one past the ceiling, waiting on a non-blocking descriptor whose
    read has nothing yet (None, or BlockingIOError) as a blocking one waits."""
    import select

    chunks: list[bytes] = []
    size = 0
    while size <= MAX_INPUT_BYTES:
        try:
            chunk = raw.read(MAX_INPUT_BYTES + 1 - size)
        except BlockingIOError:
            chunk = None
        if chunk is None:  # nothing yet on a non-blocking descriptor: wait until it has something, or its end
            select.select([raw.fileno()], [], [])
            continue
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


PIPE_WAIT_S = 3.0  # how long a named pipe may stay without a writer before it reads as empty


def _read_pipe(path: str | Path) -> bytes:
    """A named pipe's bytes. A blocking open waits for a writer forever (`dpscale fit FIFO` hung): open without
    waiting, then give a writer PIPE_WAIT_S to appear (`(sleep 1; cat runs.csv > p) & dpscale fit p`), and read a
    fed one (`<(cat runs.csv)`, a shell pipe into /dev/stdin) to its end; none by then: empty."""
    import time

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        deadline = time.monotonic() + PIPE_WAIT_S
        while True:
            try:
                first = os.read(fd, 65536)
            except BlockingIOError:  # a writer is there, its data not yet
                first = None
            if first != b"":
                break
            if time.monotonic() >= deadline:  # no writer (b"": none has the pipe open)
                return b""
            time.sleep(0.02)
        os.set_blocking(fd, True)
        chunks = [first or b""]
        size = len(chunks[0])
        while size <= MAX_INPUT_BYTES:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: str | Path) -> str:
    """read_bytes, decoded as UTF-8 (UnicodeDecodeError as str.decode raises it); a byte-order mark, as spreadsheets
    and Windows editors write one, is no error in any of a user's files (--calibration alone once refused it); nor
    are two, a file saved twice with one (`plan --efficiency-file` said 'not JSON (Unexpected UTF-8 BOM)', review
    KJ)."""
    return read_bytes(path).decode("utf-8-sig").lstrip("\ufeff")


def text_lines(text: str) -> list[str]:
    """A text's lines as an editor and a spreadsheet number them: broken at \\n, \\r\\n and \\r alone. str.splitlines
    also breaks at U+2028, U+0085 (NEL), form feeds and \\x1c–\\x1e, which a CSV cell or a JSON string holds as text
    (`measure --out` writes its records with ensure_ascii=False): a valid file was refused ('got 1 fields', 'not
    valid JSON'), and every line after such a character was named one too far on."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def comment_line(line: str) -> bool:
    """Whether a line of a user's file is a '#' comment (spaces before the '#' too): fit's and validate's runs, CSV or
    JSON lines, `measure --out`'s records, plan --efficiency-file's runs and the page's pasted runs all skip one (review
    KJ, KP). The one rule of it, with `content_line` (review KV: it was written out at 10 places).

    A byte-order mark before the '#' is none (a '#' line put above a file saved with one whose own first line is a
    comment, or two such files joined): it cannot be seen, and JSON lines read past it where a table read '# two' as
    its header (review LD).

    >>> comment_line('  # runs of 2026-01-05'), comment_line('8,7500  # a note after a run'), comment_line('\ufeff# b')
    (True, False, True)
    """
    return line.lstrip().lstrip("\ufeff").lstrip().startswith("#")


def content_line(line: str) -> bool:
    """Whether a line holds anything a reader reads: neither blank nor a '#' comment (`comment_line`). A file's first
    such line is its header or first record, as every reader of runs finds it.

    >>> [ln for ln in ['', '# from measure', '  ', 'devices,throughput'] if content_line(ln)]
    ['devices,throughput']
    """
    return bool(line.strip()) and not comment_line(line)


def opens_json(text: str) -> bool:
    """Whether the text opens, past blank space, byte-order marks (a file saved twice with one) and '#' comment lines
    (`comment_line`), with a JSON object or array that ends its line (at \\n or \\r, as `text_lines` breaks):
    `measure --out`'s records, `measure --json`'s document, one line or indented, a JSON array. The first half of
    `fit_io.reads_as_json`, the one rule by which validate, fit and the page's fit field tell JSON from a CSV: not every
    '{' or '[' — a table whose first column is named '[run]' or '{id}' (review JS), or '[1]', '[]' or '{}', JSON up to
    the comma after it (review JU), is a CSV; fit called '[run],devices,throughput' a JSON array. A '#' line first is a
    comment, as every reader of runs skips it: validate read past one to find where a `measure --out` file breaks, and
    made a run of every record (review KV).

    >>> opens_json('{"devices": 1}\\n{"devices": 2}'), opens_json('[\\n  1\\n]'), opens_json('[1],devices,throughput')
    (True, True, False)
    >>> opens_json('# measure --out\\n{"devices": 1}'), opens_json('# measure --out\\n{"devices": 1,')
    (True, False)
    """
    import json
    import re

    text = text.lstrip().lstrip("\ufeff").lstrip()
    at = 0  # past the comments: each up to its line's end (\n or \r, as text_lines breaks), then blank space
    while text.startswith("#", at):  # (found, not split or copied: a 64 MiB file's head is all that is read)
        at = re.compile(r"[^\r\n]*\s*").match(text, at).end()  # type: ignore[union-attr]  # (matches at any place)
    text = text[at:] if at else text
    if not text.startswith(("{", "[")):  # (a CSV's first name: no JSON parse of a 64 MiB table's quoted cell)
        return False
    try:
        head, end = json.JSONDecoder().raw_decode(text)
    except (ValueError, RecursionError):  # ('[[[…' 100,000 deep: no JSON a published table could be)
        return False
    return isinstance(head, (dict, list)) and not text[end:].partition("\n")[0].partition("\r")[0].strip()


def json_pairs(text: str | bytes) -> tuple[Any, str | None]:
    """The parsed JSON and the first field an object of it gives twice, or None: json.loads keeps the last silently
    ("efficiency": 0.9, "efficiency": 0.1 planned on 0.1; "alpha_s" twice predicted on the second)."""
    import json

    twice: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                twice.append(k)
            out[k] = v
        return out

    return json.loads(text, object_pairs_hook=pairs), (twice[0] if twice else None)


def loads_once(text: str, where: str) -> Any:
    """json.loads, refusing an object that gives a field twice (json_pairs). where: the file, as the error names it."""
    data, twice = json_pairs(text)
    if twice is not None:
        raise fail(where, twice, "each field once (this one is given twice)")
    return data


def json_quoted(value: Any) -> str:
    """A field's value as the file wrote it, cut to 40 characters, for an error line that quotes what to mend (a
    system file's -300, a calibration's "x"), not a whole list."""
    import json

    return cut(json.dumps(value, ensure_ascii=False))


def empty(name: str, allowed: str) -> DpscaleError:
    """The one refusal of a file (or standard input) of blanks alone, whichever reader it was handed to: fit's runs,
    validate's table and the JSON files of --system-file, --model-file, --calibration and --efficiency-file."""
    return DpscaleError(f"{name}: empty; allowed: {allowed}")


def not_json(where: str, exc: Any, allowed: str) -> DpscaleError:
    """Where a file stops being JSON, from json's JSONDecodeError: '--calibration: c.json line 5: not JSON (…)'; one
    of blanks alone is `empty` (it was 'line 1: not JSON (Expecting value)', or 'line 3' after two blank lines, where
    fit and validate said the file is empty). allowed: what the reader takes."""
    if not exc.doc.strip():
        return empty(where, allowed)
    return DpscaleError(f"{where} line {exc.lineno}: not JSON ({exc.msg})")


CSV_OPEN_QUOTE = "unexpected end of data"  # csv's words (strict=True) for a quote still open where the text ends


def not_csv(name: str, line: int, exc: Exception) -> DpscaleError:
    """Where csv could not read a file, from its csv.Error: the one refusal of a published table and a runs file
    alike. A quote still open at the end is named on the line that opened it (every row after it had become one
    cell); anything else in csv's words."""
    if CSV_OPEN_QUOTE in str(exc):
        return DpscaleError(
            f"{name} line {line}: a quote opened on this line does not close before the file ends; "
            "allowed: quotes in pairs (a cell in quotes ends at the next one)"
        )
    return DpscaleError(f"{name} line {line}: not a readable CSV row ({exc})")


def _link_target(path: str | Path) -> str:
    """Where a write to `path` lands: a link's target, followed link by link as the OS does — not realpath, which
    folds 'missing/..' away where the OS needs 'missing' to exist."""
    p = os.fspath(path)
    for _ in range(40):  # (a loop raised ELOOP in os.stat already)
        if not os.path.islink(p):
            break
        p = os.path.join(os.path.dirname(p), os.readlink(p))  # a relative target is read from the link's folder
    return p


def unwritable(path: str | Path) -> str | None:
    """Why no file can be written at `path` (the OS's words, or NO_FOLDER, 'a folder', 'a named pipe'), None when
    one can.

    Tried, not asked: os.access says yes to root for /sys and /proc, and to a 'folder' that is a file. An existing
    file is opened for appending (nothing written), a new one is tried beside it; a link is followed (a loop says
    so), and a named pipe is refused, since opening one to write waits for a reader."""
    import tempfile

    try:
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            # a new file, or a link to one: its target's folder (a dangling link's was taken for the link's own, and
            # the write failed after the work was done)
            folder = Path(_link_target(path)).parent
            if not folder.is_dir():  # the folder itself (the OS's ENOENT wording is not the same everywhere)
                return NO_FOLDER
            mode = None
        if mode is not None and stat.S_ISDIR(mode):
            return "a folder"
        if mode is not None and (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            return "a named pipe"
        if mode is not None:
            with open(path, "a"):
                pass
        else:
            with tempfile.TemporaryFile(dir=folder):
                pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def write_whole(path: str | Path, write: Callable[[IO[Any]], object], binary: bool = False) -> None:
    """Write a file whole through `write(fh)` (text as UTF-8, or bytes), or raise OSError and leave what was there.

    A regular file is written beside itself and renamed over, so a write cut short (Ctrl-C, SIGTERM, a full disk,
    an error inside `write`) leaves the earlier file whole — or none — not half a file, and no temporary file; the
    earlier file's mode is kept (a new one gets the umask's, as open(path, "w") gives). Written in place where no
    file can be made beside it (a writable file in a folder closed to new files), for another user's file this one
    cannot give back to them, for a hard link (its other names see the new contents), and for a device; a link is
    followed, and stays a link."""
    import tempfile

    target = os.path.realpath(path)
    try:
        st: os.stat_result | None = os.stat(target)
    except OSError:
        st = None  # a new file (or one the write below will say why it cannot make)
    how, enc = ("wb", None) if binary else ("w", "utf-8")
    if st is None or (stat.S_ISREG(st.st_mode) and st.st_nlink == 1):
        with _ending_after_cleanup():  # (a SIGTERM now removes the temporary file before it ends the process)
            try:
                fd, made = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", dir=os.path.dirname(target))
            except OSError:  # no file can be made in that folder: the file itself may still be writable
                made = None
            owner = (os.geteuid(), os.getegid()) if hasattr(os, "geteuid") else None  # (Windows has no owner ids)
            if made is not None and st is not None and owner is not None and (st.st_uid, st.st_gid) != owner:
                try:  # another user's file (a shared folder) stays theirs, as a write in place leaves it
                    os.chown(made, st.st_uid, st.st_gid)
                except OSError:  # not ours to give away: written in place, as before
                    os.close(fd)
                    os.unlink(made)
                    made = None
            if made is not None:
                try:
                    with os.fdopen(fd, how, encoding=enc) as fh:  # (closed whatever fails below)
                        umask = os.umask(0)
                        os.umask(umask)
                        os.chmod(made, stat.S_IMODE(st.st_mode) if st else 0o666 & ~umask)
                        write(fh)
                        fh.flush()
                        os.fsync(fh.fileno())  # on the disk before it takes the name (a full NFS disk says so here)
                    os.replace(made, target)
                finally:  # a failed or interrupted write leaves no stray temporary file
                    if os.path.lexists(made):
                        os.unlink(made)
                return
    with open(target, how, encoding=enc) as fh:
        write(fh)


class _Ended(BaseException):
    """A terminating signal held as an exception while a temporary file is on the disk (_ending_after_cleanup)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_ENDING = ("SIGTERM", "SIGHUP")  # the signals write_whole holds while its temporary file is on the disk


def _end(signum: int, frame: Any) -> None:
    """The first terminating signal ends the write; any after it is ignored until the process ends by the first:
    a second (a scheduler that repeats SIGTERM, a closed terminal's SIGHUP beside it) raised inside the cleanup,
    before the temporary file was removed, and left it."""
    import signal

    for name in _ENDING:
        s = getattr(signal, name, None)
        if s is not None and signal.getsignal(s) is _end:
            signal.signal(s, signal.SIG_IGN)
    raise _Ended(signum)


@contextmanager
def _ending_after_cleanup() -> Iterator[None]:
    """SIGTERM or SIGHUP (a scheduler's kill, `timeout`, a closed terminal) while write_whole's temporary file is on
    the disk: their default action ended the process without its `finally`, and `dpscale calc --plot f.pdf` killed
    mid-write left a hidden .f.pdf.XXXX beside the plot. The signal is held as an exception until the file is
    removed, then the process ends by it as it would have. A handler of the caller's own is left alone, and so is
    a thread other than the main one, where Python sets none."""
    import signal
    import threading

    ours = [getattr(signal, n) for n in _ENDING if hasattr(signal, n)]
    held: dict[int, Any] = {}
    try:
        if threading.current_thread() is threading.main_thread():
            for s in ours:
                if signal.getsignal(s) is signal.SIG_DFL:
                    held[s] = signal.SIG_DFL  # (noted before it is set: a signal in between is given back too)
                    signal.signal(s, _end)
        yield
    except _Ended as ended:
        for s, handler in held.items():
            signal.signal(s, handler)
        held.clear()
        signal.raise_signal(ended.signum)  # (its default action: the process ends here)
        raise
    finally:
        for s, handler in held.items():
            signal.signal(s, handler)
